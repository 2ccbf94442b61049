"""Automatic figures of issue 18 ("On every passage") for the offline explainer on one half of the corpus.

Run with the project's interpreter: `.venv/bin/python bench/corpus.py --split dev [--json] [--only ID ...]`.
Reads bench/corpus/passages.json, explains every passage of the split with the offline backend (no cache,
a temporary UNJARGON_HOME), in the passage's language and in the other one, and prints per passage and overall:

- inconsistent verdicts, listed with their reason for a person to check (a right figure called inconsistent
  is a wrong statement);
- impossible results shown as findings: MFU/HFU outside (0, 1], a time, rate or size that is negative, zero
  where it must be positive, infinite or not a number, a memory per chip beyond 10x the chip's HBM;
- claims `explained` with an empty reason;
- calculations with no number from the text (every numeric input assumed, from the catalog or derived);
- terms recall against the hand annotation (target >= 95%) and figures recall, quantity and value within 1%
  (target >= 90%).

A benchmark, not a test: it exits 0 whatever the figures. Tune on `--split dev` only; the test half is for the
closing report.
"""

from __future__ import annotations

import re
import argparse
import importlib.util
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when a test loads this file by path
import corpus_split  # noqa: E402  (the corpus's split names live there once)

ROOT = Path(__file__).resolve().parent.parent
# Python puts bench/ first on the path; a bench script named like a package (bench/calculators.py) would shadow it.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

CORPUS = Path(__file__).resolve().parent / "corpus" / "passages.json"
HARDWARE = ROOT / "data" / "hardware.json"
LANGS = ("en", "ar")
TARGETS = {"terms": 0.95, "figures": 0.90}
FRACTIONS = {"mfu", "hfu"}
HBM_FACTOR = 10  # "memory beyond 10x the chip's HBM" (issue 18)
NAME_INPUTS = {"chip", "model", "op", "recompute", "schedule", "precision"}  # names, not numbers from the text


def _scoring():
    """The term and figure matching of bench/passages.py (same normalisation, glossary aliases and 1% tolerance)."""
    spec = importlib.util.spec_from_file_location("bench_passages", Path(__file__).with_name("passages.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_corpus(split: str, path: Path = CORPUS) -> list[dict]:
    """The passages of one split."""
    passages = json.loads(path.read_text(encoding="utf-8"))["passages"]
    return [p for p in passages if p.get("split") == split]


def chip_hbm() -> dict[str, float]:
    """Chip id and every alias (lower case) -> HBM bytes, from data/hardware.json."""
    doc = json.loads(HARDWARE.read_text(encoding="utf-8"))
    out: dict[str, float] = {}
    for chip in doc.get("chips", []):
        hbm = chip.get("hbm_bytes")
        if not hbm:
            continue
        for name in [chip.get("id"), chip.get("name"), *chip.get("aliases", [])]:
            if name:
                out[str(name).lower()] = float(hbm)
    return out


class Explainer:
    """The offline explainer through the package API, in a throw-away UNJARGON_HOME, never from the cache."""

    def __init__(self):
        self._home = tempfile.TemporaryDirectory(prefix="unjargon-corpus-")
        os.environ["UNJARGON_HOME"] = self._home.name
        os.environ["UNJARGON_BACKEND"] = "offline"
        os.environ.pop("DATABASE_URL", None)
        from service import engine  # imported after the environment is set: config is read from it

        self._engine = engine

    def __call__(self, text: str, lang: str) -> dict:
        return self._engine.explain(text, lang=lang, backend="offline", use_cache=False)

    def close(self) -> None:
        try:
            self._engine.close_stores()
        finally:
            self._home.cleanup()


def _numbers(value, path: str = ""):
    """(dotted name, number) for every number in a calculation's outputs, nested ones included."""
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield path, float(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _numbers(v, f"{path}.{k}" if path else str(k))


def text_hbm(figures: list[dict], hbm: dict[str, float]) -> float | None:
    """The HBM of the chip the text names (a figure's chip, or a stated HBM size), if any."""
    for f in figures:
        if f.get("quantity") == "hbm_bytes" and isinstance(f.get("value"), (int, float)):
            return float(f["value"])
    for f in figures:
        if f.get("chip") and str(f["chip"]).lower() in hbm:
            return hbm[str(f["chip"]).lower()]
    return None


def impossible(calc: dict, hbm: dict[str, float], named_hbm: float | None = None) -> list[str]:
    """What is physically impossible in one calculation's outputs (empty when all is possible).

    Memory per chip is compared with the HBM of the calculation's chip, else of the chip the text names.
    """
    problems = []
    inputs = calc.get("inputs") or {}
    chip_hbm_bytes = inputs.get("hbm_bytes") or hbm.get(str(inputs.get("chip") or "").lower()) or named_hbm
    for name, x in _numbers(calc.get("outputs") or {}):
        leaf = name.rsplit(".", 1)[-1]
        if math.isnan(x) or math.isinf(x):
            problems.append(f"{name} = {x}")
        elif leaf in FRACTIONS and not 0 < x <= 1:
            problems.append(f"{name} = {x:.4g} (outside (0, 1])")
        elif (leaf.endswith("_s") or "per_s" in leaf or leaf.endswith("_bytes") or leaf in {"days", "chip_hours"}
              or ("bytes" in name and "per_chip" in name)) and x < 0:
            problems.append(f"{name} = {x:.4g} (negative)")
        elif leaf.endswith("_per_s") and x == 0:
            problems.append(f"{name} = 0 (a rate of zero)")
        if chip_hbm_bytes and "bytes" in leaf and "per_chip" in leaf and x > HBM_FACTOR * float(chip_hbm_bytes):
            problems.append(f"{name} = {x / 1e9:.4g} GB (over {HBM_FACTOR}x the chip's {float(chip_hbm_bytes) / 1e9:.0f} GB HBM)")
    return problems


def _claim_calcs(claim: dict) -> set[int]:
    """Indexes of the calculations a claim cites (both the old and the new field)."""
    out = set(i for i in claim.get("calculations") or [] if isinstance(i, int))
    if isinstance(claim.get("calculation"), int):
        out.add(claim["calculation"])
    return out


def shown(index: int, claims: list[dict]) -> bool:
    """A calculation is shown as a finding unless every claim citing it says needs_more."""
    citing = [c for c in claims if index in _claim_calcs(c)]
    return not citing or any(c.get("verdict") != "needs_more" for c in citing)


def numbers_from_text(calc: dict, text: str = "") -> bool:
    """Whether at least one numeric input of a calculation comes from the text: stated there, or derived from figures
    the text writes (tokens per second from "14.8T tokens / 2.8M GPU-hours" quotes both, and both are in `text`)."""
    sources = calc.get("input_sources") or {}
    for name, src in sources.items():
        kind = src.get("source") if isinstance(src, dict) else src
        if kind == "text" and name not in NAME_INPUTS:
            return True
        if kind == "derived" and name not in NAME_INPUTS and isinstance(src, dict) and text:
            quoted = [part.strip() for part in str(src.get("from") or "").split("/")]
            if quoted and all(part and re.search(r"\d", part) and part in text for part in quoted):
                return True
    return False


# Two spellings of one quantity in the annotation (collectors of rounds 17-18 wrote n_params where earlier ones wrote
# params); a figure read under the other spelling is the same reading.
SAME_QUANTITY = {"n_params": "params", "n_active_params": "active_params"}


def figure_found(expected: dict, got: list[dict], close) -> bool:
    """An annotated figure is read when some figure has one of its quantities and its value within 1%."""
    names = expected["quantity"] if isinstance(expected["quantity"], list) else [expected["quantity"]]
    names = [*names, *(SAME_QUANTITY[n] for n in names if n in SAME_QUANTITY)]
    return any(g.get("quantity") in names and close(g.get("value"), expected["value"]) for g in got)


# The annotators' generic names and the reader's specific ones for one kind of figure: "8 nodes" annotated count:8 is
# read n_nodes:8, "35%" annotated fraction:0.35 is read utilization:0.35. `figures_as_kind` counts a figure read when
# its kind and value agree (energy in Wh against J converted); `figures` stays the stricter count by name.
_COUNTS = {"count", "chips_per_node", "microbatches", "moe_experts", "moe_top_k", "virtual_stages"}
_SHARES = {"fraction", "percent", "mfu", "hfu", "utilization", "fraction_of_peak", "percent_change", "acceptance_rate"}


def figure_kind(quantity: str) -> tuple[str, float]:
    """The kind of a figure's quantity, and the factor that brings its value to the kind's unit."""
    if quantity in _COUNTS or quantity.startswith("n_"):
        return "count", 1.0
    if quantity in _SHARES:
        return "share", 1.0
    if quantity.startswith("tokens_per_s"):
        return "tokens_per_s", 1.0
    if "flop_per_s" in quantity or quantity.startswith("tflops"):
        return "flop_rate", 1.0
    if quantity in ("speedup", "ratio"):
        return "factor", 1.0
    if quantity.endswith("bytes") or quantity in ("bytes", "memory"):
        return "bytes", 1.0
    if quantity.startswith("energy_"):
        return "energy_j", 3600.0 if quantity.startswith("energy_wh") else 1.0
    return quantity, 1.0


def figure_found_as_kind(expected: dict, got: list[dict], close) -> bool:
    """An annotated figure is read when some figure of its kind has its value within 1% (a share's sign aside)."""
    names = expected["quantity"] if isinstance(expected["quantity"], list) else [expected["quantity"]]
    kinds = {figure_kind(n)[0]: figure_kind(n)[1] for n in [*names, *(SAME_QUANTITY[n] for n in names if n in SAME_QUANTITY)]}
    for g in got:
        kind, scale = figure_kind(str(g.get("quantity")))
        value = g.get("value")
        if kind in kinds and isinstance(value, (int, float)):
            value = abs(value) if kind == "share" else value
            if close(value * scale / kinds[kind], expected["value"]):
                return True
    return figure_found(expected, got, close)


# "8xH100" in the annotation names the H100 (with its count): the term is found when the chip's entry is
_COUNT_PREFIX = re.compile(r"^[1-9]\d{0,3}x(?=[A-Z][A-Za-z]*\d)")


def _forms(term: str, scoring) -> set[str]:
    """The ways an annotated term may be found: as written, without a count before a chip ("8xH100"), and for "tensor
    parallelism (TP)" the name outside the bracket or the short form inside it (the answer explains either)."""
    forms = {term, _COUNT_PREFIX.sub("", term)}
    bracketed = re.fullmatch(r"\s*([^()]+?)\s*\(([^()]+)\)\s*", term)
    if bracketed:
        forms |= {bracketed.group(1), bracketed.group(2)}
    return {f for f in forms if scoring.key(f)}


def score_answer(passage: dict, out: dict, index: dict, hbm: dict, scoring) -> dict:
    """The automatic figures of one answer."""
    exp = passage.get("expected") or {"terms": [], "figures": []}
    found = set()
    for t in out.get("terms") or []:
        for field in ("term", "expansion", "found_as"):
            if isinstance(t.get(field), str):
                found.add(scoring.key(t[field]))
                found.add(scoring.key(scoring._PARENTHESISED.sub(" ", t[field])))
    found.discard("")
    missing_terms = [term for term in exp["terms"] if not any(
        ({scoring.key(form)} | index.get(scoring.key(form), set())) & found for form in _forms(term, scoring))]
    got = [f for f in out.get("figures") or [] if isinstance(f, dict)]
    missed = [f"{f['quote']!r}={'|'.join(f['quantity']) if isinstance(f['quantity'], list) else f['quantity']}:{f['value']:g}"
              for f in exp["figures"] if not figure_found(f, got, scoring._close)]
    as_kind = sum(figure_found_as_kind(f, got, scoring._close) for f in exp["figures"])
    claims = [c for c in out.get("claims") or [] if isinstance(c, dict)]
    calcs = [c for c in out.get("calculations") or [] if isinstance(c, dict)]
    inconsistent = [{"quote": c.get("quote", ""), "why": c.get("why", "")} for c in claims if c.get("verdict") == "inconsistent"]
    empty = [c.get("quote", "") for c in claims if c.get("verdict") == "explained" and not str(c.get("why") or "").strip()]
    impossible_found, outside = [], []
    named_hbm = text_hbm(got, hbm)
    for i, calc in enumerate(calcs):
        bad = impossible(calc, hbm, named_hbm)
        if bad and shown(i, claims):
            impossible_found.append(f"{calc.get('calculator')}: {'; '.join(bad)}")
        if not numbers_from_text(calc, passage["text"]):
            outside.append(str(calc.get("calculator")))
    return {
        "terms_expected": len(exp["terms"]), "terms_found": len(exp["terms"]) - len(missing_terms), "missing_terms": missing_terms,
        "figures_expected": len(exp["figures"]), "figures_read": len(exp["figures"]) - len(missed), "missed_figures": missed,
        "figures_read_as_kind": as_kind,
        "claims": len(claims), "calculations": len(calcs),
        "inconsistent": inconsistent, "impossible": impossible_found, "explained_empty": empty, "no_text_numbers": outside,
        "verdicts": {v: sum(c.get("verdict") == v for c in claims) for v in ("consistent", "inconsistent", "explained", "needs_more")},
        "words": len((out.get("explanation") or "").split()),
    }


def run(passages: list[dict], langs: tuple[str, ...]) -> list[dict]:
    """Explain and score every passage in every answer language; failures become rows with an error."""
    scoring = _scoring()
    index = scoring.glossary_index()
    hbm = chip_hbm()
    explain = Explainer()
    rows = []
    try:
        for p in passages:
            for lang in sorted(langs, key=lambda x: x != p["lang"]):  # the passage's own language first
                start = time.perf_counter()
                row = {"id": p["id"], "passage_lang": p["lang"], "answer_lang": lang}
                try:
                    row.update(score_answer(p, explain(p["text"], lang), index, hbm, scoring))
                except Exception as exc:  # noqa: BLE001 - a bench reports failures, it does not stop on them
                    row["error"] = f"{type(exc).__name__}: {exc}"
                row["ms"] = round((time.perf_counter() - start) * 1000)
                rows.append(row)
    finally:
        explain.close()
    return rows


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def summarise(rows: list[dict]) -> dict:
    """Totals over some rows (one answer language, or all)."""
    ok = [r for r in rows if "error" not in r]
    return {
        "answers": len(rows), "errors": len(rows) - len(ok),
        "terms": _ratio(sum(r["terms_found"] for r in ok), sum(r["terms_expected"] for r in ok)),
        "figures": _ratio(sum(r["figures_read"] for r in ok), sum(r["figures_expected"] for r in ok)),
        "figures_as_kind": _ratio(sum(r["figures_read_as_kind"] for r in ok), sum(r["figures_expected"] for r in ok)),
        "inconsistent": sum(len(r["inconsistent"]) for r in ok),
        "impossible": sum(len(r["impossible"]) for r in ok),
        "explained_empty": sum(len(r["explained_empty"]) for r in ok),
        "no_text_numbers": sum(len(r["no_text_numbers"]) for r in ok),
        "answers_with_problem": sum(bool(r["impossible"] or r["explained_empty"] or r["no_text_numbers"]) for r in ok),
        "claims": sum(r["claims"] for r in ok), "calculations": sum(r["calculations"] for r in ok),
        "verdicts": {v: sum(r["verdicts"][v] for r in ok) for v in ("consistent", "inconsistent", "explained", "needs_more")},
    }


def _pct(x) -> str:
    return "  n/a" if x is None else f"{100 * x:5.1f}%"


def print_report(rows: list[dict], summaries: dict, quiet: bool = False) -> None:
    """The per-answer table, the lists a person must read, and the summary against the targets."""
    if not quiet:
        print(f"{'passage':42} {'in>out':6} {'terms':>7} {'figs':>7} {'incons':>6} {'imposs':>6} {'empty':>5} {'notext':>6} {'words':>5}")
        for r in rows:
            lead = f"{r['id'][:42]:42} {r['passage_lang'] + '>' + r['answer_lang']:6}"
            if "error" in r:
                print(f"{lead} ERROR {r['error']}")
                continue
            print(f"{lead} {r['terms_found']:>3}/{r['terms_expected']:<3} {r['figures_read']:>3}/{r['figures_expected']:<3}"
                  f" {len(r['inconsistent']):>6} {len(r['impossible']):>6} {len(r['explained_empty']):>5} {len(r['no_text_numbers']):>6} {r['words']:>5}")
        print()
        sections = (("inconsistent verdicts (a person must check each: is the figure really wrong?)", "inconsistent"),
                    ("impossible results shown as findings", "impossible"),
                    ("claims 'explained' with an empty reason", "explained_empty"),
                    ("calculations with no number from the text", "no_text_numbers"),
                    ("missing terms", "missing_terms"), ("missed figures", "missed_figures"))
        for title, field in sections:
            items = [(r, x) for r in rows if "error" not in r for x in r[field]]
            print(f"{title}: {len(items)}")
            for r, x in items:
                text = f"{x['quote'][:90]!r} -- {x['why'][:160]}" if isinstance(x, dict) else str(x)[:200]
                print(f"  {r['id']} [{r['answer_lang']}] {text}")
            print()
    print("summary (targets from issue 18)")
    print(f"  {'measure':44} " + " ".join(f"{k:>8}" for k in summaries) + f" {'target':>8}")
    lines = [("terms recall", "terms", TARGETS["terms"]), ("figures read (quantity, value within 1%)", "figures", TARGETS["figures"]),
             ("figures read (kind of quantity, value 1%)", "figures_as_kind", TARGETS["figures"])]
    for label, field, target in lines:
        values = [summaries[k][field] for k in summaries]
        print(f"  {label:44} " + " ".join(f"{_pct(v):>8}" for v in values) + f" {_pct(target):>8}")
    for label, field in (("inconsistent verdicts (to check by hand)", "inconsistent"), ("impossible results shown", "impossible"),
                         ("'explained' with an empty reason", "explained_empty"), ("calculations with no number from the text", "no_text_numbers"),
                         ("answers with any of the three above", "answers_with_problem"), ("claims", "claims"), ("calculations", "calculations")):
        print(f"  {label:44} " + " ".join(f"{summaries[k][field]:>8}" for k in summaries) + f" {'0' if field in ('impossible', 'explained_empty', 'no_text_numbers', 'answers_with_problem') else '':>8}")
    print("  verdicts: " + "; ".join(f"{k}: " + ", ".join(f"{v} {n}" for v, n in s["verdicts"].items()) for k, s in summaries.items()))
    print("  answers: " + "; ".join(f"{k}: {s['answers']} ({s['errors']} errors)" for k, s in summaries.items()))


def main(argv: list[str] | None = None) -> int:
    """Run the split and print the report; exit 0 whatever the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=corpus_split.EVERY, required=True, help="which half of the corpus (tune on dev only)")
    ap.add_argument("--json", action="store_true", help="print the rows and summaries as JSON after the report")
    ap.add_argument("--only", nargs="*", help="passage ids to run")
    ap.add_argument("--lang", nargs="*", choices=LANGS, default=list(LANGS), help="answer languages (default: both)")
    ap.add_argument("--quiet", action="store_true", help="summary only")
    args = ap.parse_args(argv)
    try:
        passages = load_corpus(args.split)
        if args.only:
            passages = [p for p in passages if p["id"] in set(args.only)]
        rows = run(passages, tuple(args.lang))
    except Exception as exc:  # noqa: BLE001 - a bench never fails the caller
        print(f"could not run: {type(exc).__name__}: {exc}")
        return 0
    summaries = {lang: summarise([r for r in rows if r["answer_lang"] == lang]) for lang in args.lang}
    summaries["all"] = summarise(rows)
    print(f"corpus split {args.split}: {len(passages)} passages, {len(rows)} answers")
    print_report(rows, summaries, quiet=args.quiet)
    if args.json:
        print(json.dumps({"rows": rows, "summary": summaries}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
