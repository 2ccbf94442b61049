"""Split the evaluation corpus into dev and test halves by source, deterministically."""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus" / "passages.json"
SPLITS = ("dev", "test")
# A later round's fresh held-out set: given by hand, never assigned, never tuned on (issue 18, round 4).
HOLDOUT = "holdout"
# Earlier rounds' held-out sets, judged once and tuned on since: they stand apart from the dev/test balance too.
SEEN_HOLDOUTS = ("holdout-r4", "holdout-r5", "holdout-r6", "holdout-r7", "holdout-r8", "holdout-r9", "holdout-r10", "holdout-r11", "holdout-r12", "holdout-r13", "holdout-r14", "holdout-r15", "holdout-r16", "holdout-r17", "holdout-r18", "holdout-r19", "holdout-r20", "holdout-r21", "holdout-r22", "holdout-r23", "holdout-r24", "holdout-r25", "holdout-r26", "holdout-r27", "holdout-r28", "holdout-r29", "holdout-r30", "holdout-r31", "holdout-r32", "holdout-r33", "holdout-r34", "holdout-r35", "holdout-r36", "holdout-r37", "holdout-r38", "holdout-r39", "holdout-r40", "holdout-r41", "holdout-r42", "holdout-r43", "holdout-r44", "holdout-r45", "holdout-r46", "holdout-r47", "holdout-r48", "holdout-r49", "holdout-r50", "holdout-r51", "holdout-r52", "holdout-r53", "holdout-r54", "holdout-r55", "holdout-r56", "holdout-r57", "holdout-r58", "holdout-r59", "holdout-r60", "holdout-r61", "holdout-r62", "holdout-r63", "holdout-r64", "holdout-r65", "holdout-r66", "holdout-r67", "holdout-r68", "holdout-r69", "holdout-r70", "holdout-r71", "holdout-r72", "holdout-r73", "holdout-r74", "holdout-r75", "holdout-r76", "holdout-r77", "holdout-r78", "holdout-r79", "holdout-r80", "holdout-r81", "holdout-r82", "holdout-r83", "holdout-r84", "holdout-r85", "holdout-r86", "holdout-r87", "holdout-r88", "holdout-r89", "holdout-r90", "holdout-r91", "holdout-r92", "holdout-r93", "holdout-r94", "holdout-r95", "holdout-r96", "holdout-r97", "holdout-r98", "holdout-r99", "holdout-r100", "holdout-r101", "holdout-r102", "holdout-r103", "holdout-r104")
APART = (*SEEN_HOLDOUTS, HOLDOUT)
SEEN = (*SPLITS, *SEEN_HOLDOUTS)  # every split a bench script may report on once it has been judged
EVERY = (*SEEN, HOLDOUT)  # and the fresh set, for the scripts that judge it (its answers, never its tuning)
RULE = (
    "Groups (source_group) are taken in order of sha256(source_group); a group that already has a split keeps it; "
    "each new group goes to the half with fewer passages in the group's main language, then fewer passages "
    "overall, then dev. All passages of a group share its split."
)


def group_key(name: str) -> str:
    """Stable order of a source group: the hex sha256 of its name."""
    return hashlib.sha256(name.encode("utf-8")).hexdigest()


def assign_splits(passages: list[dict]) -> list[dict]:
    """Give every passage a split by its source group, keeping splits already given."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for passage in passages:
        groups[passage["source_group"]].append(passage)
    fixed: dict[str, str] = {}
    for name, members in groups.items():
        given = {p.get("split") for p in members if p.get("split")}
        if len(given) > 1:
            raise ValueError(f"source_group {name!r} has passages in both splits")
        if given:
            fixed[name] = given.pop()
    per_lang: dict[str, Counter] = {s: Counter() for s in SPLITS}
    total: Counter = Counter()
    for name, split in fixed.items():
        if split in APART:
            continue
        for p in groups[name]:
            per_lang[split][p["lang"]] += 1
            total[split] += 1
    for name in sorted(groups, key=group_key):
        if name in fixed:
            continue
        members = groups[name]
        lang = Counter(p["lang"] for p in members).most_common(1)[0][0]
        split = min(SPLITS, key=lambda s: (per_lang[s][lang], total[s], SPLITS.index(s)))
        fixed[name] = split
        for p in members:
            per_lang[split][p["lang"]] += 1
            total[split] += 1
    for passage in passages:
        passage["split"] = fixed[passage["source_group"]]
    return passages


def summary(passages: list[dict]) -> str:
    """One line per split: passages by language and number of source groups."""
    lines = []
    for split in (*SPLITS, *APART):
        mine = [p for p in passages if p["split"] == split]
        if not mine:
            continue
        langs = Counter(p["lang"] for p in mine)
        groups = {p["source_group"] for p in mine}
        lines.append(f"{split}: {len(mine)} passages ({', '.join(f'{k} {v}' for k, v in sorted(langs.items()))}), {len(groups)} source groups")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Assign splits in the corpus file in place and print the summary."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--check", action="store_true", help="only print the summary; change nothing")
    args = parser.parse_args(argv)
    data = json.loads(args.corpus.read_text(encoding="utf-8"))
    passages = data["passages"]
    ids = Counter(p["id"] for p in passages)
    doubled = [i for i, n in ids.items() if n > 1]
    if doubled:
        print(f"duplicate passage ids: {doubled}", file=sys.stderr)
        return 2
    if not args.check:
        assign_splits(passages)
        data["split_rule"] = RULE
        args.corpus.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(summary(passages))
    return 0


if __name__ == "__main__":
    sys.exit(main())
