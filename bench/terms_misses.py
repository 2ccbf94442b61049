"""Terms the hand annotation expects but the terms stage misses, by class, on one half of the corpus.

Run: `.venv/bin/python bench/terms_misses.py --split dev` (or test, holdout-r4). For each expected term that the offline
terms stage does not report, it prints the class:
- `no entry`: no glossary entry or option table has that name (vocabulary to add, from a primary doc);
- `not detected`: an entry has that name but the text's spelling was not matched (an alias or a rule to add);
- `option`: a flag or config key (snake_case, --flag, file name) that the option tables do not know;
- `another form`: the stage found the entry the expected name names ("Mixture-of-Experts (MoE)", "TPUs"), written
  otherwise than the annotation's key: a scoring miss, not a reader's.
A benchmark, not a test: it prints figures and exits 0.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when a test loads this file by path
import corpus_split  # noqa: E402  (the corpus's split names live there once)

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

_OPTION_LIKE = re.compile(r"^--|_|\.ya?ml$|^[a-z]+-[a-z]+-[a-z]+$")


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def classify(split: str) -> list[tuple[str, str, str]]:
    """(passage id, expected term, class) for every expected term the terms stage misses."""
    scoring, corpus = _module("passages"), _module("corpus")
    from service.explain.document import Document
    from service.explain.terms import read_terms

    from service.explain import glossary

    index = scoring.glossary_index()
    misses = []
    for p in corpus.load_corpus(split):
        doc = Document(text=p["text"], lang=p["lang"])
        read_terms(doc)
        ids = {t["id"] for t in doc.terms}
        found = set()
        for t in doc.terms:
            for field in ("term", "expansion", "found_as"):
                if isinstance(t.get(field), str):
                    found.add(scoring.key(t[field]))
                    found.add(scoring.key(scoring._PARENTHESISED.sub(" ", t[field])))
        for term in p["expected"]["terms"]:
            k = scoring.key(term)
            if ({k} | index.get(k, set())) & found:
                continue
            forms = [scoring._PARENTHESISED.sub(" ", term).strip(), *re.findall(r"\(([^)]*)\)", term)]
            named = {m.entry["id"] for f in forms if f for m in glossary.load().find(f) if m.found_as == f.strip()}
            kind = "another form" if named & ids else "not detected" if k in index \
                else ("option" if _OPTION_LIKE.search(term) else "no entry")
            misses.append((p["id"], term, kind))
    return misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", required=True, choices=corpus_split.SEEN)
    args = parser.parse_args(argv)
    misses = classify(args.split)
    by_kind = collections.Counter(kind for _, _, kind in misses)
    print(f"split {args.split}: {len(misses)} expected terms missed by the terms stage")
    for kind, count in by_kind.most_common():
        print(f"  {kind:14} {count}")
    for pid, term, kind in sorted(misses, key=lambda m: (m[2], m[0])):
        print(f"  [{kind}] {pid}: {term}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
