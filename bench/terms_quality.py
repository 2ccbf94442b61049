"""The terms section as a list a reader reads: how many items are empty (a definition restating its name, or an
acronym's words announced as the text's definition), listed twice (the same name written differently, or one
definition under two names), a clause fragment as a name, or a definition naming a model or chip the passage never
mentions. Reads a judging pack written by bench/judge_pack.py (Pnn-en.md / Pnn-ar.md).

Also the terms recall of what the sections list (names and expansions as shown, merged and cleaned).
Run: `.venv/bin/python bench/terms_quality.py /tmp/pack-before /tmp/pack-after`. A benchmark: it prints counts, exits 0.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.explain import term_items  # noqa: E402

_LINE = re.compile(r"^- \*\*(?P<name>.+?)\*\*(?: \((?P<exp>[^\n]*?)\))?: (?P<definition>.*)$")
_HEADINGS = ("## The terms", "## المصطلحات")


def _items(answer: str) -> list[tuple[str, str, str]]:
    section = next((answer.split(h, 1)[1].split("\n## ", 1)[0] for h in _HEADINGS if h in answer), "")
    return [(m["name"], m["exp"] or "", m["definition"]) for m in map(_LINE.match, section.split("\n")) if m]


def counts(folder: Path) -> dict[str, int]:
    """Items, empty, duplicate, fragment and off-passage items over every answer of a pack."""
    out = dict.fromkeys(("answers", "items", "empty", "duplicate", "fragment", "off_passage"), 0)
    show = "--show" in sys.argv
    for path in sorted(folder.glob("P*-*.md")):
        text = path.read_text(encoding="utf-8")
        passage, _, answer = text.partition("\n## Answer")
        items = _items(answer)
        out["answers"] += 1
        out["items"] += len(items)
        names, definitions = set(), set()
        for name, expansion, definition in items:
            announced = re.fullmatch(r"(.{0,60}), as the text defines it\.", definition)
            out["empty"] += term_items.restates_head(name, expansion, definition) or bool(
                announced and len(announced.group(1).split()) <= 5)
            key = term_items.same_thing(name)
            out["duplicate"] += key in names or (len(definition.split()) >= 6 and definition in definitions)
            names.add(key)
            definitions.add(definition)
            fragment = term_items.clause_fragment(name) or (path.name.endswith("-ar.md") and term_items.clause_fragment(expansion))
            off = any(term_items._foreign(p, passage, f"{name} {expansion}") for p in term_items._SENTENCE_END.split(definition))
            out["fragment"] += fragment
            out["off_passage"] += off
            if show and (fragment or off):
                print(" ", path.name, "fragment" if fragment else "off", "|", name, "|", expansion, "|", definition[:160])
    return out


def listed_recall(folder: Path) -> float:
    """The annotated terms of the pack's passages found among the names and expansions its terms sections list
    (the pack's key beside the folder says which passage each answer is; scored as bench/terms_listed.py does)."""
    import importlib.util
    import json

    def module(name: str):
        spec = importlib.util.spec_from_file_location(f"bench_{name}", Path(__file__).with_name(f"{name}.py"))
        loaded = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(loaded)
        return loaded

    scoring, corpus = module("passages"), module("corpus")
    key = json.loads(folder.with_name(folder.name + ".key.json").read_text(encoding="utf-8"))
    passages = {p["id"]: p for p in corpus.load_corpus(key["split"])}
    index, total, found = scoring.glossary_index(), 0, 0
    for path in sorted(folder.glob("P*-*.md")):
        shown = set()
        for name, expansion, _ in _items(path.read_text(encoding="utf-8").partition("\n## Answer")[2]):
            for written in [*name.split("**, **"), expansion]:
                shown |= {scoring.key(written), scoring.key(scoring._PARENTHESISED.sub(" ", written))}
        for term in passages[key["answers"][path.name.split("-")[0]]["id"]]["expected"]["terms"]:
            total += 1
            found += bool(({scoring.key(term)} | index.get(scoring.key(term), set())) & shown)
    return found / max(total, 1)


if __name__ == "__main__":
    for arg in [a for a in sys.argv[1:] if not a.startswith("--")]:
        print(arg, counts(Path(arg)), f"listed recall {listed_recall(Path(arg)):.1%}")
