"""Write a blind judging pack for one half of the corpus: passages and the offline answers, anonymised.

Run with the project's interpreter: `.venv/bin/python bench/judge_pack.py --split test OUT_DIR`.
For every passage of the split, OUT_DIR gets `Pnn-en.md` and `Pnn-ar.md`: the passage text and the answer a
reader sees (the explanation's markdown, which carries the claims' verdicts, and the warnings printed with it)
in English and in Arabic. Nothing else: no passage ids or sources, no JSON, no code, no scores. Passages are
numbered in an order drawn from a hash of their ids, so the numbering says nothing about where they come from.
JUDGING.md (the rubric) and README.md (what to do, and the table to fill) are copied in. The key from Pnn back
to the passage id is written beside the folder (OUT_DIR.key.json), not inside it: keep it from the judge.
`--with-gist` adds the annotator's one-sentence gist under each passage as a reference (off by default).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when a test loads this file by path
import corpus_split  # noqa: E402  (the corpus's split names live there once)

ROOT = Path(__file__).resolve().parent.parent
RUBRIC_PLACES = (ROOT.parent / "shared" / "JUDGING.md", Path("/work/shared/JUDGING.md"))
LANG_NAMES = {"en": "English", "ar": "Arabic"}

README = """# Blind judging pack ({n} passages, {answers} answers)

Each file `Pnn-xx.md` holds one passage (a real text about training large models) and one answer written for
a reader of language `xx` (en: English, ar: Arabic). Both answers of a passage share its number.
Judge every answer with the rubric in JUDGING.md, as a reader who sees only the passage and the answer.

Report one row per answer, then the summary JUDGING.md asks for (mean usefulness, share of answers with no
wrong statement, the five most common weaknesses with quoted examples), per language and overall:

| answer | gist (full/partial/no/wrong) | wrong statements (quoted) | missing terms | wrong senses | figure misreadings | checks comment | words | usefulness 1-5 | summary |
|---|---|---|---|---|---|---|---|---|---|
"""


def _corpus():
    """bench/corpus.py as a module (its loader and explainer)."""
    spec = importlib.util.spec_from_file_location("bench_corpus", Path(__file__).with_name("corpus.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def anonymous_order(passages: list[dict]) -> list[dict]:
    """Passages in an order fixed by a hash of their ids (so the numbers reveal nothing about the source)."""
    return sorted(passages, key=lambda p: hashlib.sha256(("judge:" + p["id"]).encode("utf-8")).hexdigest())


def answer_file(number: str, passage: dict, answer: dict, lang: str, with_gist: bool) -> str:
    """The markdown a judge reads for one answer."""
    parts = [f"# {number}: answer in {LANG_NAMES.get(lang, lang)}", "", "## Passage", "", passage["text"].strip(), ""]
    if with_gist and passage.get("gist"):
        parts += ["*Reference, from a person's reading: " + passage["gist"] + "*", ""]
    parts += ["## Answer", "", (answer.get("explanation") or "").strip(), ""]
    from service.explain.unsaid import warnings_to_print  # what the CLI prints under the answer

    warnings = [w for w in warnings_to_print(answer) if str(w).strip()]
    if warnings:
        heading = _heading("warnings", lang)  # the answer's language: an Arabic answer has no English heading
        parts += [f"## {heading}", ""] + [f"- {w}" for w in warnings] + [""]
    return "\n".join(parts)


def _heading(key: str, lang: str) -> str:
    """A section heading from the answer language's locale (service/i18n)."""
    sys.path.insert(0, str(ROOT))
    from service.i18n.messages import messages

    return messages(lang)["headings"][key]


def write_pack(split: str, out: Path, with_gist: bool = False, only: list[str] | None = None) -> dict:
    """Explain every passage of the split in both languages and write the pack; returns the key."""
    corpus = _corpus()
    passages = anonymous_order(corpus.load_corpus(split))
    if only:
        passages = [p for p in passages if p["id"] in set(only)]
    out.mkdir(parents=True, exist_ok=True)
    if any(out.iterdir()):
        raise SystemExit(f"{out} is not empty: give a new folder for the pack")
    explain = corpus.Explainer()
    key = {}
    try:
        for i, p in enumerate(passages, start=1):
            number = f"P{i:02d}"
            key[number] = {"id": p["id"], "lang": p["lang"], "source_group": p["source_group"]}
            for lang in corpus.LANGS:
                answer = explain(p["text"], lang)
                (out / f"{number}-{lang}.md").write_text(answer_file(number, p, answer, lang, with_gist), encoding="utf-8")
    finally:
        explain.close()
    rubric = next((r for r in RUBRIC_PLACES if r.exists()), None)
    if rubric is not None:
        shutil.copyfile(rubric, out / "JUDGING.md")
    else:
        print("warning: JUDGING.md not found (../shared is absent); copy the rubric in by hand", file=sys.stderr)
    (out / "README.md").write_text(README.format(n=len(passages), answers=len(passages) * len(corpus.LANGS)), encoding="utf-8")
    key_path = out.parent / f"{out.name}.key.json"
    key_path.write_text(json.dumps({"split": split, "answers": key}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return {"passages": len(passages), "files": len(passages) * len(corpus.LANGS), "key": str(key_path)}


def main(argv: list[str] | None = None) -> int:
    """Write the pack and say where the key is."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="a new (or empty) folder for the pack")
    ap.add_argument("--split", choices=corpus_split.EVERY, required=True)
    ap.add_argument("--with-gist", action="store_true", help="add the annotator's gist under each passage")
    ap.add_argument("--only", nargs="*", help="passage ids to include")
    args = ap.parse_args(argv)
    done = write_pack(args.split, args.out, with_gist=args.with_gist, only=args.only)
    print(f"wrote {done['files']} answers for {done['passages']} passages to {args.out}; key (keep from the judge): {done['key']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
