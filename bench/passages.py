"""Scorer of the offline explainer on real passages (issue 11, item 7 and its targets).

Run with the project's interpreter: `.venv/bin/python bench/passages.py [--json] [--only ID ...] [--quiet]`.
Reads tests/data/passages_reading.json, runs the offline explainer on every passage and prints, per passage
and overall:

- terms: share of the expected glossary terms found (matched on term, expansion, aliases, found_as);
- figures: share of expected figures read with the right quantity and value (within 1%);
- calculators: of passages that call for a calculation, the share that got an expected calculator run with
  the text's own inputs (every input the text states equals the text's figure), and the precision of the
  calculations run (expected name, text's inputs) over all passages;
- none-when-none: of conceptual passages, the share that got no calculation;
- altered: deliberately wrong passages flagged (a claim with verdict "inconsistent");
- budget: words in the explanation against 250 + 2 x the input's words, plus the words the central terms keep past it
  (service.explain.compose.TERMS_FLOOR);
- "no numbers": the explanation says the text states no numbers although it does.

A benchmark, not a test: it prints figures and exits 0 whatever they are (tests/explain/test_passages_reading.py
holds the thresholds). The scoring functions are importable (`score_passage`, `summarise`).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Python puts bench/ first on the path; a bench script named like a package (bench/calculators.py) would shadow it.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

DATA = ROOT / "tests" / "data" / "passages_reading.json"
GLOSSARY_DIR = ROOT / "data" / "glossary"
TOLERANCE = 0.01
TARGETS = {"terms": 0.95, "figures": 0.90, "calculators": 0.80, "none_when_none": 0.90, "altered": 1.0, "budget": 1.0}
_WORD = re.compile(r"[^\W_]+")
_PARENTHESISED = re.compile(r"\([^)]*\)")
_NO_NUMBERS = re.compile(
    r"(states?|gives?|contains?|has|mentions?) no (numbers?|figures?|numeric)|no numbers? (to check|are stated|in the text)"
    r"|does(n't| not) (state|give|contain|mention) (any )?(numbers?|figures?)"
    r"|لا (يذكر|يتضمن|يحتوي|يحوي)[^.\n]{0,30}(أرقام|أعداد|رقم)|(لا|بلا) أرقام",
    re.IGNORECASE)


def load_explainer():
    """The offline explain entry point, wherever the lead keeps it this week."""
    errors = []
    for module, name in (("service.explain", "explain_offline"), ("service.offline", "explain_offline"),
                         ("service.explain.compose", "explain_offline")):
        try:
            mod = __import__(module, fromlist=[name])
            fn = getattr(mod, name, None)
            if callable(fn):
                return fn
            errors.append(f"{module} has no {name}")
        except Exception as exc:  # noqa: BLE001 - any import failure means: try the next place
            errors.append(f"{module}: {type(exc).__name__}: {exc}")
    raise ImportError("no explain_offline found: " + "; ".join(errors))


def load_passages(path: Path = DATA) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["passages"]


def _normalise_arabic(word: str) -> str:
    try:
        from service.i18n import arabic
        if arabic.ARABIC_LETTER.match(word):
            return arabic.normalise_token(word)
    except Exception:  # noqa: BLE001
        pass
    return word.lower()


def key(name: str) -> str:
    """A name compared without case, spaces, hyphens or punctuation ('all-reduce' == 'AllReduce')."""
    return "".join(_normalise_arabic(w) for w in _WORD.findall(name or ""))


def _names(entry: dict) -> set[str]:
    ar = entry.get("ar") or {}
    raw = [entry.get("term"), entry.get("expansion"), *entry.get("aliases", []), *entry.get("ar_aliases", []),
           ar.get("term") if isinstance(ar, dict) else None]
    raw += [r.get("expansion") for r in entry.get("readings") or [] if isinstance(r, dict)]
    out = set()
    for n in filter(None, raw):
        if isinstance(n, str):
            out.add(key(n))
            out.add(key(_PARENTHESISED.sub(" ", n)))
    out.discard("")
    return out


def glossary_index() -> dict[str, set[str]]:
    """name key -> the set of name keys of every glossary entry that has that name."""
    index: dict[str, set[str]] = {}
    for f in sorted(GLOSSARY_DIR.glob("*.json")):
        try:
            doc = json.loads(f.read_text(encoding="utf-8"))
        except Exception:  # noqa: BLE001
            continue
        entries = doc.get("terms", doc.get("entries", [])) if isinstance(doc, dict) else doc
        for e in entries:
            if isinstance(e, dict):
                names = _names(e)
                for n in names:
                    index.setdefault(n, set()).update(names)
    return index


def _close(a, b) -> bool:
    try:
        a, b = float(a), float(b)
    except (TypeError, ValueError):
        return False
    if b == 0:
        return abs(a) < 1e-12
    return abs(a - b) <= TOLERANCE * abs(b)


def score_passage(p: dict, out: dict, index: dict[str, set[str]]) -> dict:
    exp = p["expected"]
    # terms
    found = set()
    for t in out.get("terms") or []:
        for field in ("term", "expansion", "found_as"):
            if isinstance(t.get(field), str):
                found.add(key(t[field]))
                found.add(key(_PARENTHESISED.sub(" ", t[field])))
    found.discard("")
    missing_terms = []
    for term in exp["terms"]:
        k = key(term)
        if not ({k} | index.get(k, set())) & found:
            missing_terms.append(term)
    # figures
    got_figures = [f for f in out.get("figures") or [] if isinstance(f, dict)]
    missed_figures = []
    for f in exp["figures"]:
        if not any(g.get("quantity") == f["quantity"] and _close(g.get("value"), f["value"]) for g in got_figures):
            missed_figures.append(f"{f['quote']!r}={f['quantity']}:{f['value']:g}")
    # calculators
    stated: dict[str, list[float]] = {}
    for f in exp["figures"]:
        stated.setdefault(f["quantity"], []).append(f["value"])
    expected_names = set(exp["calculators"])
    runs = [c for c in out.get("calculations") or [] if isinstance(c, dict)]
    good_runs, bad_runs = 0, []
    for c in runs:
        name = c.get("calculator")
        inputs = c.get("inputs") or {}
        wrong = [f"{k}={v}" for k, v in inputs.items()
                 if k in stated and isinstance(v, (int, float)) and not isinstance(v, bool)
                 and not any(_close(v, s) for s in stated[k])]
        if name in expected_names and not wrong:
            good_runs += 1
        else:
            bad_runs.append(name + (f"({', '.join(wrong)})" if wrong else ""))
    right_calculator = bool(expected_names) and good_runs > 0
    # claims
    verdicts = [c.get("verdict") for c in out.get("claims") or [] if isinstance(c, dict)]
    flagged = "inconsistent" in verdicts
    # words
    explanation = out.get("explanation") or ""
    words = len(explanation.split())
    from service.explain import compose  # the answer's own budget rule, read where it is defined

    budget = compose.budget(p["text"]) + compose.TERMS_FLOOR
    says_no_numbers = bool(exp["figures"]) and bool(_NO_NUMBERS.search(explanation))
    return {
        "id": p["id"], "kind": p.get("kind"), "lang": p.get("lang"),
        "terms_expected": len(exp["terms"]), "terms_found": len(exp["terms"]) - len(missing_terms), "missing_terms": missing_terms,
        "figures_expected": len(exp["figures"]), "figures_read": len(exp["figures"]) - len(missed_figures), "missed_figures": missed_figures,
        "calls_for_calculation": bool(expected_names), "right_calculator": right_calculator,
        "runs": len(runs), "good_runs": good_runs, "bad_runs": bad_runs,
        "conceptual": p.get("kind") == "conceptual", "altered": bool(p.get("altered")), "flagged": flagged,
        "real_inconsistent": exp.get("verdict") == "inconsistent" and not p.get("altered"),
        "words": words, "budget": budget, "within_budget": words <= budget,
        "says_no_numbers": says_no_numbers, "has_figures_field": "figures" in out, "has_claims_field": "claims" in out,
    }


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def summarise(rows: list[dict]) -> dict:
    ok = [r for r in rows if "error" not in r]
    calls = [r for r in ok if r["calls_for_calculation"]]
    conceptual = [r for r in ok if r["conceptual"]]
    altered = [r for r in ok if r["altered"]]
    real_bad = [r for r in ok if r["real_inconsistent"]]
    runs = sum(r["runs"] for r in ok)
    return {
        "passages": len(rows), "errors": len(rows) - len(ok),
        "terms": _ratio(sum(r["terms_found"] for r in ok), sum(r["terms_expected"] for r in ok)),
        "figures": _ratio(sum(r["figures_read"] for r in ok), sum(r["figures_expected"] for r in ok)),
        "calculators": _ratio(sum(r["right_calculator"] for r in calls), len(calls)),
        "calculator_precision": _ratio(sum(r["good_runs"] for r in ok), runs),
        "calculations_run": runs,
        "none_when_none": _ratio(sum(r["runs"] == 0 for r in conceptual), len(conceptual)),
        "altered": _ratio(sum(r["flagged"] for r in altered), len(altered)),
        "real_inconsistent_flagged": _ratio(sum(r["flagged"] for r in real_bad), len(real_bad)),
        "budget": _ratio(sum(r["within_budget"] for r in ok), len(ok)),
        "says_no_numbers": sum(r["says_no_numbers"] for r in ok),
        "words_total": sum(r["words"] for r in ok), "budget_total": sum(r["budget"] for r in ok),
        "counts": {"calls_for_calculation": len(calls), "conceptual": len(conceptual), "altered": len(altered),
                   "real_inconsistent": len(real_bad)},
    }


def run_all(passages: list[dict], explain=None) -> list[dict]:
    explain = explain or load_explainer()
    index = glossary_index()
    rows = []
    for p in passages:
        start = time.perf_counter()
        try:
            try:
                out = explain(p["text"], lang=p.get("lang"))
            except TypeError:
                out = explain(p["text"])
            row = score_passage(p, out, index)
        except Exception as exc:  # noqa: BLE001 - a bench reports failures, it does not stop on them
            row = {"id": p["id"], "kind": p.get("kind"), "lang": p.get("lang"), "error": f"{type(exc).__name__}: {exc}"}
        row["ms"] = (time.perf_counter() - start) * 1000
        rows.append(row)
    return rows


def _pct(x) -> str:
    return "  n/a" if x is None else f"{100 * x:5.1f}%"


def print_report(rows: list[dict], summary: dict, quiet: bool = False) -> None:
    if not quiet:
        print(f"{'passage':40} {'kind':10} {'terms':>7} {'figs':>7} {'calc':>5} {'runs':>5} {'flag':>5} {'words/budget':>13}  notes")
        for r in rows:
            if "error" in r:
                print(f"{r['id'][:40]:40} {r.get('kind') or '':10} ERROR {r['error']}")
                continue
            calc = ("ok" if r["right_calculator"] else "MISS") if r["calls_for_calculation"] else "-"
            flag = ("ok" if r["flagged"] else "MISS") if r["altered"] or r["real_inconsistent"] else "-"
            notes = []
            if r["missing_terms"]:
                notes.append("missing terms: " + ", ".join(r["missing_terms"]))
            if r["bad_runs"]:
                notes.append("other runs: " + ", ".join(r["bad_runs"]))
            if r["says_no_numbers"]:
                notes.append('says "no numbers"')
            if not r["within_budget"]:
                notes.append("over budget")
            print(f"{r['id'][:40]:40} {r['kind']:10} {r['terms_found']:>3}/{r['terms_expected']:<3} {r['figures_read']:>3}/{r['figures_expected']:<3}"
                  f" {calc:>5} {r['runs']:>5} {flag:>5} {r['words']:>6}/{r['budget']:<6}  {'; '.join(notes)}")
        print()
    s = summary
    c = s["counts"]
    print("summary (targets from issue 11)")
    print(f"  {'measure':44} {'value':>8} {'target':>8}")
    lines = [
        ("terms recall", s["terms"], TARGETS["terms"]),
        ("figures read (quantity and value within 1%)", s["figures"], TARGETS["figures"]),
        (f"right calculator, text's inputs ({c['calls_for_calculation']} passages)", s["calculators"], TARGETS["calculators"]),
        (f"calculator precision ({s['calculations_run']} runs)", s["calculator_precision"], None),
        (f"none when none ({c['conceptual']} conceptual)", s["none_when_none"], TARGETS["none_when_none"]),
        (f"altered flagged ({c['altered']})", s["altered"], TARGETS["altered"]),
        (f"real inconsistent texts flagged ({c['real_inconsistent']})", s["real_inconsistent_flagged"], None),
        ("within length budget", s["budget"], TARGETS["budget"]),
    ]
    for label, value, target in lines:
        verdict = "" if target is None or value is None else ("  pass" if value >= target else "  miss")
        print(f"  {label:44} {_pct(value):>8} {_pct(target) if target is not None else '':>8}{verdict}")
    label = 'says "no numbers" when there are'
    print(f"  {label:44} {s['says_no_numbers']:>8} {0:>8}{'  pass' if s['says_no_numbers'] == 0 else '  miss'}")
    print(f"  {'words, all passages (budget)':44} {s['words_total']:>8} {s['budget_total']:>8}")
    print(f"  passages: {s['passages']}, errors: {s['errors']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the rows and summary as JSON after the table")
    ap.add_argument("--only", nargs="*", help="passage ids to run")
    ap.add_argument("--quiet", action="store_true", help="summary only")
    args = ap.parse_args(argv)
    try:
        passages = load_passages()
        if args.only:
            passages = [p for p in passages if p["id"] in set(args.only)]
        rows = run_all(passages)
    except Exception as exc:  # noqa: BLE001 - a bench never fails the caller
        print(f"could not run: {type(exc).__name__}: {exc}")
        return 0
    summary = summarise(rows)
    print_report(rows, summary, quiet=args.quiet)
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
