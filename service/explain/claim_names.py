"""How the answer names a claim of a passage written in the other language: by the figures it states."""

import re

from service.explain import restate
from service.i18n import arabic
from service.i18n.messages import join_names, messages

# Figures a reader of either language reads as written: a number with its unit ("3.35 TB/s", "40 ms", "13020 token/s"),
# not one with words ("6 days", "1.5K A100 gpu hours") nor a bare count ("1", "8"), which name nothing.
_WORDY = re.compile(r"\b(?!(?:tokens?|toks?|sec|gpus?)\b)[a-z]{3,}\b")
_BARE = re.compile(r"^[~≈]?[\d.,]+$")
MOST = 4


def by_figures(claim, lang: str, used: list[str] | None = None) -> str:
    """The claim named by the figures it states ("The figures “140 GB”, “3.35 TB/s”"), '' when it states none; where
    its checks name the figures they used (`used`, their quoted inputs), only those: "190 GB/s" beside a check of
    "214 GB/s" and "78%" reads as part of it."""
    figures = [f for f in claim.figures if f.quantity not in ("expression", "number", "count")]
    inputs = [f for f in figures if used and any(f.quote.strip() in q for q in used)]
    written = [f.quote.strip() for f in claim.figures if f.quantity == "expression" and used and f.quote.strip() in used]
    if written and not inputs:  # a sum reads the same in either language ("30 × 4"), not as the model sizes around it
        # "2 / 4 = 0.5 ... (1+1) / (4+1) = 0.4" redone: named by the sums it redid, not by "4 tokens" it never used
        m = messages(lang)
        return m["claim_arithmetic"].format(figures=m["claim_figures_join"].join(
            m["claim_ref"].format(quote=q) for q in list(dict.fromkeys(written))[:MOST]))
    chosen = inputs or figures
    if inputs and claim.verdict in ("consistent", "inconsistent"):  # and the stated figure its verdict judges
        chosen = chosen + [f for f in figures if f not in inputs and f.quote.strip() and _stated_in(f.quote.strip(), claim.why)]
    m = messages(lang)
    if getattr(claim, "quote", "") and not restate.same_language(claim.quote, lang):
        # across languages a bare "28%" names nothing the reader can place (round-44 readers): its reading says what it
        # measures ("28% MFU", «استغلال ... بنسبة 28%»), and a figure written in the other script is read out at all
        read = list(dict.fromkeys(_reading(f, lang) for f in chosen if not _BARE.match(f.quote.strip())))
        if read and all(read) and len(read) <= MOST:
            return m["claim_figures_join"].join(read)
    quotes = _named(inputs or figures, lang)
    if inputs and quotes and claim.verdict in ("consistent", "inconsistent"):
        quotes = list(dict.fromkeys(quotes + _named(chosen[len(inputs):], lang)))  # ("The text says 360GB"), which is no input
    if not quotes:
        return ""
    label = m["claim_figures"] if len(quotes) > 1 else m.get("claim_figure", m["claim_figures"])  # one figure: "الرقم", not "الأرقام"
    return label.format(figures=m["claim_figures_join"].join(m["claim_ref"].format(quote=q) for q in quotes[:MOST]))


def _named(figures: list, lang: str) -> list[str]:
    """The figures a reader of either language reads as written, as the answer names them, each once."""
    return list(dict.fromkeys(_in_language(f, lang) for f in figures if (q := f.quote.strip()) and not _BARE.match(q)
                              and not _WORDY.search(q) and not arabic.ARABIC_LETTER.search(q)))


_UNNAMED = {"number", "ratio", "count", "percent", "percent_change", "expression", "fraction"}


def _reading(fig, lang: str) -> str:
    """A figure of the other language said with what it measures in the answer's language ("28% MFU"), '' where its
    reading names nothing the bare figure does not (a bare number, a ratio) or leaves a word of the other language."""
    if fig.quantity in _UNNAMED or not fig.quote.strip():
        return ""
    reading = restate.figure(fig, lang)
    if reading == fig.quote and lang == "en" and arabic.ARABIC_LETTER.search(reading):
        reading = _with_unit(fig)  # "16 جيجابايت" has no reading of its own: its value in the field's units, "16 GB"
    noun = messages(lang).get("figure_named_readings", {}).get(fig.quantity)
    reading = noun.format(value=restate.value(fig.quantity, fig.value)) if noun else reading  # "140GB": «140 GB من الذاكرة»
    if " ".join(reading.split()) == " ".join(fig.quote.split()) or not restate.same_language(reading, lang):
        return ""
    bare = re.sub(r"\([^()]*\)", "", reading)  # an acronym after its Arabic name, «(MFU)», is the name kept in English
    return reading if lang != "ar" or not _LATIN_WORD.search(bare) else ""


_UNIT_WORD = re.compile(r"[A-Za-z]{2,}")


def _with_unit(fig) -> str:
    """A figure's value in the calculators' units where they name what it measures ("16 GB", "7 ms"), else ''."""
    shown = restate.value(fig.quantity, fig.value)
    return shown if _UNIT_WORD.search(shown) else ""


def read_out(text: str, figures: list, lang: str, quote: str) -> str:
    """`text` (a verdict's words) with each figure quoted in the other language's words read out in the answer's
    ("The text says 63 توكناً في الثانية" -> "The text says 63 tokens per second"): quoted, it is untranslated text."""
    if restate.same_language(quote, lang):
        return text
    for fig in sorted(figures, key=lambda f: -len(f.quote)):
        quote = fig.quote.strip()
        other = arabic.ARABIC_LETTER.search(quote) if lang == "en" else _LATIN_WORD.search(quote)
        if other and quote in text and (reading := _reading(fig, lang)):
            text = text.replace(quote, reading)
    return text


def _stated_in(quote: str, why: str) -> bool:
    """Whether a verdict's words quote the figure whole ("The text says 360GB", not the "8" of "8x")."""
    return re.search(rf"(?<![\w.]){re.escape(quote)}(?![\w.])", why) is not None


def _in_language(fig, lang: str) -> str:
    """A figure as the answer names it: as written, or, in Arabic for an English "1,024 GPUs", its Arabic reading
    ("1,024 شريحة"), where that reading leaves no English word but a unit."""
    quote = fig.quote.strip()
    if lang == "en":
        return re.sub(r"\s*٪", "%", quote)  # "87 ٪" read in English: "87%"
    if lang != "ar" or arabic.ARABIC_LETTER.search(quote) or not _LATIN_WORD.search(quote) or not _COUNTED.match(quote):
        return quote
    reading = restate.figure(fig, lang)
    return reading if arabic.ARABIC_LETTER.search(reading) and not _LATIN_WORD.search(reading) else quote


_COUNTED = re.compile(r"[~≈]?\s*[\d.,]+\s*[kKMBT]?\s+[A-Za-z]")  # "1,024 GPUs": a count with its noun, not a setting ("MBS=2")
_LATIN_WORD = re.compile(r"\b(?!(?:[KMGTP]i?B|[KMGTP]?B/s|[KMGTP]?b/s|[KMGTP]i?B/s|[KMGTP]?bps|[KMGTP]?Bps|[KMGTP]?bit/s|[KMGTPE]?FLOP\w*|ms|GHz|MHz|[kMG]W|nm|SXM|PCIe|GPU|HBM\w*|NVL\d*)\b)[A-Za-z]{3,}\b")


# Names that read the same in either language: notations and products with a digit ("W4A8_AWQ", "FP16", "H100"), or
# capitals ("NCCL"); not the everyday units of the field, which name no claim
_NAME = re.compile(r"(?<![\w.-])(?:[A-Za-z][\w.-]*\d[\w.-]*|[A-Z]{2,}[A-Za-z]*(?:[_-][\w]+)*)(?![\w-])")
_UNIT = re.compile(r"^(?:[KMGTPE]i?B|[KMGTPE]?FLOPs?|[KMGTPE]?FLOPS|[KMGTPE]?bps|[KMGTPE]b|[KMGTPE]?Hz)$")  # "MB", "TFLOP": units
_PLAIN = {"GPU", "GPUs", "CPU", "CPUs", "AI", "OK", "TODO", "PR", "API"}


def by_names(claim, lang: str) -> str:
    """A sentence of the other language with no figure to name it by, named by the names it compares ("the sentence
    about W4A8_AWQ, FP16 and FP8"), '' when it names none: its words left in English would be untranslated text."""
    quote = claim.quote.strip()
    header, _, rows = quote.partition("\n")
    if rows and "|" in header and not re.search(r"\d", header):
        quote = rows  # "Arm | CUDA_DEVICE_MAX_CONNECTIONS | ... / no overlap | 1 | 225.1": the row's names, not its header's
    names = list(dict.fromkeys(m.group(0).rstrip(".") for m in _NAME.finditer(quote)
                               if m.group(0) not in _PLAIN and not _UNIT.match(m.group(0))))
    if not names or restate.same_language(claim.quote, lang):
        return ""
    m = messages(lang)
    return m["claim_names"].format(names=join_names(names[:MOST], lang))


_NUMERIC = re.compile(r"^[~≈<>+\-−]?\s*[\d.,]+\s*%?\s*[kKMBG]?$")
MOST_COLUMNS = 5  # a wider row is named by its figures, as before
_WITH_UNIT = re.compile(r"^[~≈<>]?\s*[\d.,]+\s*[A-Za-z/%]{1,12}$")  # "13.13 reqs/sec", "305.93 s"
SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")  # a markdown table's "|---|:---:|"


def _split_cells(line: str) -> list[str]:
    """The cells of a table line, its outer bars dropped and an empty first cell kept ("| | Prefill rate |")."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [c.strip() for c in inner.split("|")]


def by_columns(doc, claim) -> str:
    """A row of a table the text writes with "|" ("Y | 7200 | 43.0"), named by its header's columns: "CompiledAutograd Y:
    Performance (tps) 7200, Memory (GB) 43.0"; '' for anything else, or where no header line of as many columns, all
    words, stands above it. Bare numbers under a header are the text's own cells; the header says what they measure."""
    row = claim.quote.strip().rstrip(".")
    cells = _split_cells(row)
    if "\n" in row or not 2 <= len(cells) <= MOST_COLUMNS or not any(_NUMERIC.match(c) or _WITH_UNIT.match(c) for c in cells[1:]):
        return ""
    above = doc.text[:claim.start].rstrip("\n").split("\n")
    for line in reversed(above[-8:]):
        names = _split_cells(line.strip())
        if SEPARATOR.match(line):
            continue  # "|---|---|" between a markdown table's header and its rows
        if len(names) == len(cells) and "|" in line and not any(re.search(r"\d", n) and (_NUMERIC.match(n) or _WITH_UNIT.match(n)) for n in names):
            if not restate.same_language(line, doc.lang) or not restate.same_language(row, doc.lang):
                return ""
            values = ", ".join(f"{name} {cell}" for name, cell in zip(names[1:], cells[1:]) if cell and cell not in ("—", "-"))
            return f"{(names[0] + ' ') if names[0] else ''}{cells[0]}: {values}." if values else ""
        if not line.strip() or "|" not in line:
            return ""  # the rows above end at a blank line or prose: no header of this table
    return ""
