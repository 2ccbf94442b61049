"""Find, by general pattern, what blind readers fault in unjargon's Arabic answers, independently of the tables the
answer's own polishing uses (service.i18n.arabic_style), so that a class the tables miss still shows.

Also: a dual after a measure word in the -ين form ("قدره ضعفين"), معامل before a number where a factor is meant
("بمعامل 3"), and a one-letter particle written apart from its Latin word ("ب FP8").

Run: `.venv/bin/python bench/arabic_lint.py /tmp/<you>-pack [--examples 3]` on a folder written by
bench/judge_pack.py. Per class it prints how many answers have one, how many there are in all, and a few examples:
English words in Arabic prose (lowercase words and English plurals, outside quotes, code, bold names and English
brackets), English runs (three English words or more pasted into an Arabic line), numbers followed by an English
noun or an English rate unit ("tokens/sec/GPU"), formulas in Latin symbols
outside code ("F_dense = 6 x N"), figures with a Latin scale letter before an Arabic noun ("7B معامل"), 11-99 before a masculine noun without
its accusative ("16 تسلسل"), Latin punctuation between Arabic words, doubled words, definitions cut off (ending on
a preposition or conjunction), reported speech spliced onto another ("أنّ وأضاف"), and two words for one concept
of data/arabic_terms.json in one answer. The passage and the corrections section are not counted. A count is an
upper bound a person reads (a name may look like an English word), not a verdict; it exits 0 whatever it finds.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.i18n import arabic_style  # noqa: E402
from service.i18n.messages import messages  # noqa: E402

AR = "\u0621-\u064A\u0671-\u06D3"
ARW = "\u0621-\u065F\u0670-\u06D3"  # letters with their diacritics (tanween: "33 يومًا")
_KEPT = re.compile(r"«[^»\n]*»|```.*?```|`[^`\n]*`|\"[^\"\n]*\"|https?://\S+|\*\*[^*\n]+\*\*"
                   r"|\([^()\n\u0600-\u06FF]*\)", re.S)
# units and unit-like tokens a number may carry in any language
_UNITS = {"gb", "tb", "mb", "kb", "gib", "tib", "mib", "pb", "gbps", "tbps", "ms", "us", "ns", "s", "w", "kw", "mw",
          "ghz", "mhz", "flop", "flops", "tflop", "tflops", "pflop", "pflops", "gflop", "gflops", "eflop", "x", "k",
          "m", "b", "t", "flops", "tflops", "gflops", "pflops", "bit", "bits", "byte", "bytes", "fp8", "bf16", "fp16", "fp32", "int8", "int4", "nm", "v", "gbit"}
_FUNCTION_ENDS = ("من", "في", "على", "إلى", "عن", "و", "أو", "ثم", "التي", "الذي", "أن", "أنّ", "بين", "مع", "لكل", "عبر",
                  "حتى", "لأن", "كما", "مثل", "قبل", "بعد", "دون")
_SAYING = "(?:قال|يقول|أضاف|يضيف|ذكر|يذكر|أوضح|يوضح|كتب|يكتب|أشار|يشير|أخبر|يخبر|يرى|رأى)"

CLASSES = ("dual_after_measure", "factor_as_parameter", "lone_particle", "english_word", "english_run", "number_english_noun", "english_rate_unit", "formula_in_prose", "scale_letter_noun", "number_11_99",
           "latin_punctuation", "doubled_word", "cut_definition", "spliced_speech", "two_words")


def answer_text(path: Path) -> str:
    """The answer and its warnings, without the passage and without the corrections section (the source's words)."""
    text = path.read_text(encoding="utf-8").split("\n## Answer\n", 1)[-1]
    heading = messages("ar")["headings"]["corrections"]
    at = text.find(f"## {heading}\n")
    if at >= 0:
        following = text.find("\n## ", at + 3)
        text = text[:at] + ("" if following < 0 else text[following:])
    return text


def blank(text: str) -> str:
    """`text` with quotes, code, bold names and English brackets blanked (offsets kept)."""
    return _KEPT.sub(lambda m: " " * len(m.group(0)), text)


def arabic_lines(text: str) -> list[str]:
    """The lines of `text` with Arabic prose: two Arabic words or more outside quotes and code."""
    return [line for line in text.split("\n") if len(re.findall(rf"[{AR}]{{2,}}", blank(line))) >= 2]


def _term_head(line: str) -> str:
    """A terms item with its head blanked (the term and, in its bracket, the English the passage used), and a
    name's parts glossed one by one ("num (عدد)") blanked: the English there is quoted, not prose."""
    head = re.match(r"(\s*-\s+\*\*[^*]+\*\*[^:]*:)", line)
    if head and not line.lstrip().startswith("- **«"):
        line = " " * len(head.group(1)) + line[head.end():]
    return re.sub(rf"[A-Za-z][\w-]*\s\([{AR}][^()]*\)", lambda m: " " * len(m.group(0)), line)


def find(text: str) -> dict[str, list[str]]:
    """Every class's offending snippets in one Arabic answer."""
    found: dict[str, list[str]] = {c: [] for c in CLASSES}
    for raw in arabic_lines(text):
        line = blank(_term_head(raw))
        for m in re.finditer(r"(?<![A-Za-z0-9_./\-])([A-Za-z][A-Za-z'-]*)(?![\w./\-])", line):
            word = m.group(1)
            english_plural = re.fullmatch(r"[A-Z][a-z]+s|[A-Z0-9]{2,}s", word) is not None and word.lower() not in _UNITS
            if (word[0].islower() and len(word) >= 3 and word.lower() not in _UNITS) or english_plural:
                found["english_word"].append(word)
        for m in re.finditer(r"[A-Za-z][\w'-]*(?:[ ,]+[A-Za-z][\w'-]*){2,}", line):
            words = m.group(0).replace(",", " ").split()
            if sum(w[0].islower() for w in words) >= 2:
                found["english_run"].append(m.group(0))
        for m in re.finditer(r"\d(?:[\d,.]*\d)?\s?[KMBT]?\s+([a-z][a-z-]{2,})(?![\w/])", line):
            if m.group(1) not in _UNITS:
                found["number_english_noun"].append(m.group(0))
        found["dual_after_measure"] += [m.group(0) for m in re.finditer(rf"(?:قدره|قدرها)\s+[{AR}]+(?:تين|ين)(?![{AR}])", line)]
        found["factor_as_parameter"] += [m.group(0) for m in re.finditer(rf"(?<![{AR}])[وف]?[بل]?معامل\s+\d", line)]
        found["lone_particle"] += [m.group(0) for m in re.finditer(rf"(?<![{AR}\u0640])[بلك]\u0640?\s+[A-Za-z0-9]+", line)]
        found["english_rate_unit"] += [m.group(0) for m in re.finditer(
            r"\d\s?(?:[a-z]+/(?:[a-z]+/)?(?:s|sec|second)\b|[A-Za-z/]+/(?:GPU|gpu|device|chip)\b)", line)]
        found["formula_in_prose"] += [m.group(0) for m in re.finditer(r"(?<![\w/.])[A-Za-z][\w/]*(?:\s?[/x*]\s?\w+)*\s=\s[\w.,%/ x*()-]+", line)]
        found["scale_letter_noun"] += [m.group(0) for m in re.finditer(rf"(?<![\w.-])\d+(?:\.\d+)?[KMBT]\s+[{AR}]+", line)
                                       if not re.search(rf"\s(?:[وف]?(?:في|من|على|إلى|عن|أو|مع|لكل|عبر|ثم|و))$", m.group(0))]
        for m in re.finditer(rf"(?<![\d.,])(\d{{2}})\s+([{AR}][{ARW}]*)", line):
            word, number = m.group(2), int(m.group(1))
            if 11 <= number <= 99 and not word.startswith(("ال", "لل", "و", "ف", "ب", "ل", "ك")) \
                    and not word.endswith(("ا", "ة", "ى", "ء", "ات", "اً", "ًا")) and not word.startswith(("أ", "غير", "نفس")) and word not in _FUNCTION_ENDS \
                    and word not in ("مليار", "مليون", "ألف", "تريليون", "مرة", "نحو", "تقريبا", "فقط"):
                found["number_11_99"].append(m.group(0))
        found["latin_punctuation"] += [m.group(0) for m in re.finditer(rf"[{AR}]\s?[,;?](?=\s*[{AR}])|[{AR}]\?(?=\s|$)", line)]
        for m in re.finditer(rf"(?<![{AR}])([{AR}]{{2,}})(?=\s+([{AR}]{{2,}})(?![{AR}]))", line):
            a, b = (re.sub(r"^(?:وال|فال|بال|لل|ال)", "", w) for w in m.groups())
            definite_first = re.match(r"^[وف]?(?:[بكل]?ال|لل)", m.group(1)) and not re.match(r"^[وف]?(?:[بكل]?ال|لل)", m.group(2))
            if a == b and m.group(1) != m.group(2) and not definite_first or (m.group(1) == m.group(2) and m.group(1).startswith("ال")):
                found["doubled_word"].append(f"{m.group(1)} {m.group(2)}")
        found["spliced_speech"] += [m.group(0) for m in re.finditer(rf"(?:أنّ\s+[وف]?|أنّ?\s+[وف]){_SAYING}(?![{AR}])", line)]
        item = re.match(r"\s*-\s+\*\*[^*]+\*\*[^:]*:\s*(.+)$", raw)
        if item:
            ending = item.group(1).rstrip()
            last = re.findall(rf"[{AR}]+", ending[-12:])
            if (last and ending.endswith(last[-1]) and last[-1] in _FUNCTION_ENDS) or ending.endswith(("…", "...", "،", ",")):
                found["cut_definition"].append(ending[-40:])
    bare = blank(text)
    for concept in arabic_style.table()["concepts"]:
        used = [w for w in list(concept["preferred"]) + list(concept["rejected"])
                if re.search(rf"(?<![{AR}])(?:[وف]?(?:ال|لل|[بك]ال|[بلك])?){re.escape(w)}(?![{AR}])", bare)]
        rejected = [w for w in used if w in concept["rejected"]]
        # a rejected form beside a preferred one that is not just part of a longer used form
        if rejected and len(used) > 1 and any(not any(w in other for other in used if other != w) for w in used if w not in rejected):
            found["two_words"].append("/".join(used))
    return found


def main(argv: list[str]) -> int:
    """Print per-class counts and examples for one pack folder."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--examples", type=int, default=3)
    args = parser.parse_args(argv)
    answers = sorted(args.folder.glob("P*-ar.md"))
    with_class, totals, examples = collections.Counter(), collections.Counter(), collections.defaultdict(list)
    words = collections.Counter()
    for path in answers:
        for name, snippets in find(answer_text(path)).items():
            totals[name] += len(snippets)
            with_class[name] += bool(snippets)
            examples[name] += [f"{path.stem}: {s}" for s in snippets[:1]]
            if name == "english_word":
                words.update(snippets)
    print(f"{len(answers)} Arabic answers in {args.folder}")
    for name in CLASSES:
        print(f"{name:>20}: {with_class[name]:3d} answers, {totals[name]:4d} in all")
        for example in examples[name][:args.examples]:
            print(f"{'':>22}{example}")
    print("English words: " + ", ".join(f"{w} {n}" for w, n in words.most_common(40)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
