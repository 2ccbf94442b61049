"""Which answers of the corpus show a reason (a link of data/reasons.json), and which, for a person to read for truth.

Run with the project's interpreter: `.venv/bin/python bench/reasons.py --split dev [--split test] [--json OUT]`.
Explains every passage of the split(s) offline, in the passage's language and the other one, and prints per answer
the links shown with the sentence each is drawn from, then how many answers show at least one. A benchmark, not a
test: it exits 0 whatever it finds.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when a test loads this file by path
import corpus_split  # noqa: E402  (the corpus's split names live there once)

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))


def _corpus():
    """bench/corpus.py as a module (its loader and its throw-away offline explainer)."""
    spec = importlib.util.spec_from_file_location("bench_corpus", Path(__file__).with_name("corpus.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", action="append", choices=list(corpus_split.SEEN), required=True)
    parser.add_argument("--json", type=Path, help="also write every answer's links to this file")
    parser.add_argument("--only", nargs="*", default=[])
    args = parser.parse_args(argv)
    corpus = _corpus()
    explain = corpus.Explainer()
    rows, answers, with_reason = [], 0, 0
    try:
        for split in args.split:
            for passage in corpus.load_corpus(split):
                if args.only and passage["id"] not in args.only:
                    continue
                for lang in corpus.LANGS:
                    out = explain(passage["text"], lang)
                    links = out.get("reasons") or []
                    answers += 1
                    with_reason += bool(links)
                    section = out["explanation"].split("\n## ")
                    shown = next((s for s in section if s.startswith(("Why, step by step", "الأسباب خطوة خطوة"))), "")
                    rows.append({"id": passage["id"], "split": split, "lang": lang,
                                 "links": [{"id": link["id"], "sentence": _sentence(passage["text"], out, link)}
                                           for link in links],
                                 "section": shown})
                    if links:
                        print(f"{passage['id']} [{lang}]: " + "; ".join(
                            f"{link['id']} <- {_sentence(passage['text'], out, link)[:110]!r}" for link in links))
    finally:
        explain.close()
    print(f"\n{with_reason} of {answers} answers show at least one reason "
          f"({sum(len(r['links']) for r in rows)} links in all)")
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


def _sentence(text: str, out: dict, link: dict) -> str:
    """The sentence a link is quoted from ('' when the answer carries no offsets)."""
    span = link.get("span")
    return text[span[0]:span[1]] if span else str(link.get("quote", ""))


if __name__ == "__main__":
    raise SystemExit(main())
