"""Terms recall as the reader sees it: the annotated terms found among the terms an answer LISTS (salience's cap and
everyday filter applied), beside the recall over every term found (the JSON `terms`, which bench/corpus.py scores).

Run: `.venv/bin/python bench/terms_listed.py [--split dev test holdout-r4]`. The list is ranked without the gist's
central sentences (the terms stage alone, so it runs in seconds); the composed answer may order a few terms
differently. A benchmark, not a test: it prints figures and exits 0.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when a test loads this file by path
import corpus_split  # noqa: E402  (the corpus's split names live there once)

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _keys(terms: list[dict], scoring) -> set[str]:
    found = set()
    for term in terms:
        for field in ("term", "expansion", "found_as"):
            if isinstance(term.get(field), str):
                found.add(scoring.key(term[field]))
                found.add(scoring.key(scoring._PARENTHESISED.sub(" ", term[field])))
    return found - {""}


def recall(split: str, lang: str) -> tuple[float, float, float]:
    """(recall over all terms, recall over listed terms, terms listed per passage) for one split and answer language."""
    scoring, corpus = _module("passages"), _module("corpus")
    from service.explain.document import Document
    from service.explain.salience import listed_terms
    from service.explain.terms import read_terms

    index = scoring.glossary_index()
    total = every = listed = shown = 0
    passages = corpus.load_corpus(split)
    for passage in passages:
        doc = Document(text=passage["text"], lang=lang)
        read_terms(doc)
        chosen = listed_terms(doc)
        shown += len(chosen)
        found_all, found_listed = _keys(doc.terms, scoring), _keys(chosen, scoring)
        for term in passage["expected"]["terms"]:
            keys = {scoring.key(term)} | index.get(scoring.key(term), set())
            total += 1
            every += bool(keys & found_all)
            listed += bool(keys & found_listed)
    return every / max(total, 1), listed / max(total, 1), shown / max(len(passages), 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", nargs="*", default=list(corpus_split.SEEN), choices=corpus_split.SEEN)
    parser.add_argument("--lang", nargs="*", default=["en", "ar"], choices=("en", "ar"))
    args = parser.parse_args(argv)
    print(f"{'split':8} {'lang':4} {'all terms':>10} {'listed':>8} {'listed/passage':>15}")
    for split in args.split:
        for lang in args.lang:
            every, listed, shown = recall(split, lang)
            print(f"{split:8} {lang:4} {every:>10.1%} {listed:>8.1%} {shown:>15.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
