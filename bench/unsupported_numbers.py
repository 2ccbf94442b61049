"""Numbers an answer states that neither the text nor a shown calculation nor the chip catalog supports.

Run with the project's interpreter: `.venv/bin/python bench/unsupported_numbers.py --split dev [--lang en ar] [--only ID ...]`.
JUDGING.md counts as a wrong statement "every number that is neither in the text nor correctly derived from it".
This reads the answer's gist and its checked claims (not the term definitions, whose figures come from sourced
glossary entries), takes every number said there, and looks for it, within rounding, among:

- the numbers of the text, with their scale words ("7B" is 7 and 7e9, "46%" is 46 and 0.46);
- the inputs and outputs of every calculation the answer made (what its working shows);
- the figures of the chips the text names (data/hardware.json: peaks, memory, bandwidth), which a reader may
  check in the catalog;
- small counts said as words of the sentence (1, 2), list markers and years.

What is left is printed for a person to read: a number nobody can trace is either a misreading or a figure the
answer owes a source. A benchmark, not a test: it exits 0 whatever it finds. Tune on dev; the holdout is for reports.
"""

from __future__ import annotations

import argparse
import bisect
import importlib.util
import itertools
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when a test loads this file by path
import corpus_split  # noqa: E402  (the corpus's split names live there once)

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

ARABIC_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩٫٬", "0123456789.,")
NUMBER = re.compile(r"(?<![\w.\-])(\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][+-]?\d+)?)(?:\s*(%|٪|[kKMBTG]\b|x\b|×))?")
SCALES = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "G": 1e9, "T": 1e12}
RELATIVE = 0.011  # a number rounded to three figures is within 1.1% of its source
# The sections whose statements are the answer's own (headings in English and Arabic).
KEPT_SECTIONS = ("In short", "What the text claims", "Why, step by step", "باختصار", "ما يقوله النص", "لماذا، خطوة")
SKIPPED_SECTIONS = ("The terms", "المصطلحات", "Every option", "كل خيار")


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# In the text every run of digits counts, inside names too ("TP8" is 8, "v4-128" is 128).
ANY_NUMBER = re.compile(r"(\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][+-]?\d+)?)")


def numbers_in(text: str, pattern: re.Pattern = NUMBER) -> list[tuple[float, str, int]]:
    """(value, as written, offset) of every number in `text`, Arabic digits read as Western ones."""
    text = text.translate(ARABIC_DIGITS)
    out = []
    for match in pattern.finditer(text):
        out.append((float(match.group(1).replace(",", "")), match.group(0), match.start()))
    return out


def variants(value: float) -> set[float]:
    """A number as it may be said again: scaled by powers of a thousand (GB, TB), as a percentage if a fraction."""
    out = {value, value * 1024 ** 3 / 1e9, value * 1e9 / 1024 ** 3}
    for k in range(-5, 6):
        out.add(value * 1000.0 ** k)
    if value <= 1.5:
        out.add(value * 100)  # 0.46 said as 46%
    if 1 < value <= 100:
        out.add(value / 100)  # 46% used as 0.46
    return out


def _leaves(value):
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield float(value)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    elif isinstance(value, str):
        for number, _, _ in numbers_in(value):
            yield number


def catalog_numbers(text: str) -> set[float]:
    """The catalog figures of every chip the text names, by id, name or alias."""
    doc = json.loads((ROOT / "data" / "hardware.json").read_text(encoding="utf-8"))
    lowered = text.lower()
    out: set[float] = set()
    for chip in doc.get("chips", []):
        names = [chip.get("id"), chip.get("name"), *chip.get("aliases", [])]
        if any(n and len(str(n)) >= 3 and str(n).lower() in lowered for n in names):
            out |= set(_leaves({k: v for k, v in chip.items() if k not in ("aliases", "sources", "source")}))
    return out


def derived(values: list[float]) -> set[float]:
    """What an answer may correctly work out from two of the figures: their ratio, their difference, the change."""
    out: set[float] = set()
    for a, b in itertools.permutations(values[:MAX_PAIRED], 2):
        if b:
            out |= {a / b, (a - b) / b, abs(a - b) / b, 1 - a / b, 100 * a / b, 100 * abs(a - b) / b}
        out.add(abs(a - b))  # "33 percentage points less"; products are the calculations' own outputs
    return out


MAX_PAIRED = 40  # distinct figures paired with each other (a long log gives hundreds; the first forty carry the point)


def supported(value: float, pool: list[float]) -> bool:
    """Whether a stated number matches any supporting number (`pool` sorted), within rounding."""
    if value in (1.0, 2.0) or 1900 <= value <= 2100:
        return True  # "one", "two", a year (a zero is never a figure read right: "0 ms" for 10 ns)
    low = bisect.bisect_left(pool, value * (1 - RELATIVE) - 0.5)
    high = bisect.bisect_right(pool, value * (1 + RELATIVE) + 0.5)
    # within rounding: 1.1% of the figure, or the figure said to the unit ("about 8 times" for 7.83)
    return any(abs(value - known) <= RELATIVE * abs(known) or (known >= 1 and abs(value - round(known)) < 1e-9)
               for known in pool[low:high])


def statements(markdown: str) -> list[str]:
    """The answer's own lines: its gist, its claims and their working; not the term definitions or option list."""
    kept, keep = [], False
    for line in markdown.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            keep = title.startswith(KEPT_SECTIONS) and not title.startswith(SKIPPED_SECTIONS)
            continue
        if keep and line.strip():
            kept.append(line)
    return kept


def unsupported(text: str, answer: dict) -> list[str]:
    """Each number of the answer's statements that nothing supports, with the line it is in."""
    given: list[float] = list(dict.fromkeys(value for value, _, _ in numbers_in(text, ANY_NUMBER)))
    for calc in answer.get("calculations") or []:
        given += list(_leaves({"inputs": calc.get("inputs"), "outputs": calc.get("outputs")}))
    given = list(dict.fromkeys(given))
    catalog = sorted(catalog_numbers(text))
    shares = {a / b for a in given[:MAX_PAIRED] for b in catalog if b}  # a figure as a share of the chip's peak
    pool_set: set[float] = set()
    for value in given + catalog + sorted(derived(given)) + sorted(shares):
        pool_set |= variants(abs(value))
    pool = sorted(v for v in pool_set if v == v and abs(v) != float("inf") and v != 0)
    quoted = set(re.findall(r"[“\"«](.+?)[”\"»]", answer.get("explanation", "")))
    found = []
    for line in statements(answer.get("explanation", "")):
        plain = line
        for quote in quoted:
            plain = plain.replace(quote, " ")  # a quotation of the text repeats its numbers
        plain = re.sub(r"`[^`]*`", " ", plain)  # code and options are the text's own
        for value, written, at in numbers_in(plain):
            if plain[max(0, at - 7):at].lower().endswith("off by "):
                continue  # the working's own distance to the text's figure
            if not supported(value, pool):
                found.append(f"{written.strip()!s:>10}  in: {line.strip()[:160]}")
    return found


def main(argv: list[str] | None = None) -> int:
    """Explain the split's passages and print the unsupported numbers of every answer."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=corpus_split.EVERY, required=True)
    ap.add_argument("--lang", nargs="*", choices=("en", "ar"), default=["en", "ar"])
    ap.add_argument("--only", nargs="*", help="passage ids")
    args = ap.parse_args(argv)
    corpus = _module("corpus")
    explain = corpus.Explainer()
    answers = with_any = total = 0
    try:
        for passage in corpus.load_corpus(args.split):
            if args.only and passage["id"] not in args.only:
                continue
            for lang in args.lang:
                found = unsupported(passage["text"], explain(passage["text"], lang))
                answers += 1
                total += len(found)
                with_any += bool(found)
                for item in found:
                    print(f"{passage['id']} [{lang}] {item}")
    finally:
        explain.close()
    print(f"\nanswers: {answers}; with an unsupported number: {with_any} ({100 * with_any / max(answers, 1):.0f}%); "
          f"unsupported numbers: {total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
