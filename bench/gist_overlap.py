"""How close the offline gist comes to a person's: content-word overlap with the reference gist, length, copied run.

Run with the project's interpreter: `.venv/bin/python bench/gist_overlap.py --split dev [--only ID ...] [--show]`.
For every English passage of the split (English answer), prints the gist's recall and precision of the reference
gist's content words (lower case, stop words dropped, plural "s" folded), the gist's word count, and the longest run
of words the gist copies from the passage (a copy reads as no gist); then the means. Splits: dev, test and holdout-r4.
`--arabic` measures the other direction the reference gists allow: each Arabic passage's English answer (the
cross-language gist, service/explain/gist_cross.py) against its English reference gist.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when a test loads this file by path
import corpus_split  # noqa: E402  (the corpus's split names live there once)

# Python puts bench/ first on the path; a bench script named like a package (bench/calculators.py) would shadow it.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from service.explain import gist_select  # noqa: E402

STOP = gist_select.STOP  # one definition of content words, shared with the gist's sentence choice
_WORD = gist_select._WORD


def _corpus():
    spec = importlib.util.spec_from_file_location("bench_corpus", Path(__file__).with_name("corpus.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def words(text: str) -> list[str]:
    """Lower-case word tokens (numbers kept with their separators: "8,034" and "8034" are one figure)."""
    return _WORD.findall(text.lower().replace(",", ""))


def content(text: str) -> set[str]:
    """The content words of a text: stop words dropped, a plural "s" folded."""
    return gist_select.content_words(text)


def longest_copy(gist: str, passage: str) -> int:
    """The longest run of consecutive words of the gist found in the same order in the passage."""
    g, p = words(gist), words(passage)
    grams = {}
    best = 0
    for n in range(1, len(g) + 1):
        found = False
        seen = grams.setdefault(n, {tuple(p[i:i + n]) for i in range(len(p) - n + 1)})
        for i in range(len(g) - n + 1):
            if tuple(g[i:i + n]) in seen:
                found = True
                break
        if not found:
            break
        best = n
        grams.pop(n - 1, None)
    return best


def measure(passage: dict, gist: str) -> dict:
    """Recall and precision of the reference gist's content words, word count, longest copied run."""
    ref, got = content(passage["gist"]), content(gist)
    shared = ref & got
    return {"id": passage["id"], "recall": len(shared) / len(ref) if ref else 0.0,
            "precision": len(shared) / len(got) if got else 0.0, "words": len(gist.split()),
            "copied": longest_copy(gist, passage["text"]), "gist": gist}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=corpus_split.SEEN, required=True)
    ap.add_argument("--arabic", action="store_true", help="Arabic passages, English answers (the cross-language gist)")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--show", action="store_true", help="print each gist under its row")
    args = ap.parse_args(argv)
    corpus = _corpus()
    passages = [p for p in corpus.load_corpus(args.split) if p["lang"] == ("ar" if args.arabic else "en") and p.get("gist")]
    if args.only:
        passages = [p for p in passages if p["id"] in set(args.only)]
    explain = corpus.Explainer()
    rows = []
    try:
        for p in passages:
            answer = explain(p["text"], "en")
            gist = " ".join(item["text"] for item in answer.get("gist") or [])
            rows.append(measure(p, gist))
    finally:
        explain.close()
    for r in rows:
        print(f"{r['id'][:38]:38} recall {r['recall']:.2f} precision {r['precision']:.2f} words {r['words']:3d} copied {r['copied']:3d}")
        if args.show:
            print("    " + r["gist"])
    n = len(rows) or 1
    print(f"\n{args.split}: {len(rows)} {'Arabic' if args.arabic else 'English'} passages; mean recall {sum(r['recall'] for r in rows) / n:.3f}, "
          f"precision {sum(r['precision'] for r in rows) / n:.3f}, words {sum(r['words'] for r in rows) / n:.1f}, "
          f"copied run {sum(r['copied'] for r in rows) / n:.1f} (max {max((r['copied'] for r in rows), default=0)}), "
          f"over 35 words {sum(r['words'] > 35 for r in rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
