"""Plain restatements in the output language: acronyms expanded, figures read out with what they measure."""

import bisect
import re
from functools import lru_cache

from calculators import catalog
from calculators.formatting import human, human_field

from service.explain import pattern_cache
from service.i18n import arabic
from service.i18n.messages import join_names, messages

_COUNT_RATES = {"tokens_per_s", "tokens_per_s_per_chip", "samples_per_s"}  # rates of things, not durations


def value(quantity: str, number) -> str:
    """A figure's value written for a reader, in the calculators' units."""
    if quantity in _COUNT_RATES or quantity.endswith("_degree") or quantity in ("microbatches", "micro_batch", "virtual_stages"):
        return human(number, "count")
    if quantity == "time_s":
        return human(number, "seconds")
    return human_field(quantity, number)


def chip_name(chip: dict, lang: str) -> str:
    """How the answer names a chip: the locale's group name ("TPU pods") or the catalog's, without the gloss."""
    groups = messages(lang).get("chip_groups", {})
    return groups.get(chip["id"]) or chip["name"].split(" (")[0]


def model_name(model: dict) -> str:
    """The catalog name of a model."""
    return model["name"]


def figure(fig, lang: str, chip_names: bool = True) -> str:
    """One figure read out ("tensor parallelism across 8 GPUs")."""
    readings = messages(lang).get("figure_readings", {})
    template = readings.get(fig.quantity)
    shown = value(fig.quantity, fig.value)
    if fig.quantity == "n_chips" and fig.chip and chip_names:
        name = catalog.hardware().get("chip", fig.chip)["name"].split(" (")[0].replace("NVIDIA ", "")
        return readings.get("n_chips_named", "{value} {chip}").format(value=shown, chip=name)
    if template is None:
        return fig.quote
    if fig.quantity == "dp_degree" and (fig.detail or {}).get("zero_stage") == 3:
        template = readings.get("dp_degree_sharded", template)
    return template.format(value=shown)


def _needs_reading(fig) -> bool:
    """Compact notation ("TP8", "GBS=1024", "seq 4k", "|TP|=2") is read out; plain prose figures stay as written."""
    quote = fig.quote
    return bool(re.search(r"[=|:]|[A-Za-z]\d|\d[kKMBT]\b|^\w+\s+\d", quote)) and fig.quantity != "expression"


_ARTICLE_BEFORE = pattern_cache.lazy(r"(?:^|\s)(?:a|an|the)\s+$", re.I)  # an article the text puts just before a figure
_ARTICLE_FIRST = pattern_cache.lazy(r"(?:a|an|the)\s", re.I)  # a reading that starts with its own
_NEXT_WORD = pattern_cache.lazy(r"\s+([A-Za-z]+)\b")


def expand(doc, start: int, end: int, lang: str) -> str:
    """doc.text[start:end] with its acronyms expanded and its compact figures read out."""
    text = doc.text
    edits: list[tuple[int, int, str]] = []
    for fig in doc.figures:
        if start <= fig.start and fig.end <= end and _needs_reading(fig):
            edits.append((fig.start, fig.end, figure(fig, lang)))
    seen: set[str] = set()
    starts = [m.start for m in doc.occurrences]  # in text order: only the sentence's slice is scanned
    for match in doc.occurrences[bisect.bisect_left(starts, start):bisect.bisect_left(starts, end)]:
        if match.end > end:
            continue
        if any(a < match.end and match.start < b for a, b, _ in edits):
            continue
        name = match.found_as
        if not _is_acronym(name) or arabic.ARABIC_LETTER.search(name):
            continue
        expansion = _expansion(match.entry, lang)
        if not expansion or expansion.lower() == name.lower():
            continue
        first = match.entry["id"] not in seen
        seen.add(match.entry["id"])
        edits.append((match.start, match.end, f"{expansion} ({name})" if first else expansion))
    out, cursor, last_figure = [], start, False
    for a, b, replacement in sorted(edits):
        if a < cursor:
            continue
        gap = text[cursor:a]
        is_figure = any(f.start == a for f in doc.figures)
        if is_figure and last_figure and not gap.strip():
            gap = ", "  # "FSDP8 TP8 PP4" read out is a list
        if is_figure:
            # The reading carries its own article and noun: "a 4M-token batch" reads "a global batch of 4M tokens",
            # not "a a global batch of 4M tokens batch".
            article = _ARTICLE_BEFORE.search(gap)
            if article and _ARTICLE_FIRST.match(replacement):
                gap = gap[:article.start()] + " "
            gap = _without_repeated_lead(gap, replacement)
            noun = _NEXT_WORD.match(text, b, end)
            if noun and noun.group(1).lower() in replacement.lower().split():
                b = noun.end()
        out.append(gap)
        out.append(replacement)
        cursor, last_figure = b, is_figure
    out.append(text[cursor:end])
    return " ".join("".join(out).split())


_LEAD = pattern_cache.lazy(r"(?:(?:a|an|the)\s+)?((?:[^\W\d]+\s+){2,5})(?=\d)")  # "a global batch of " before 16M


def _without_repeated_lead(gap: str, replacement: str) -> str:
    """The gap without the words the reading opens with, when the text already says them just before the figure:
    "at a global batch of 16M tokens" stays so, not "at a global batch of a global batch of 16M tokens"."""
    lead = _LEAD.match(replacement)
    if not lead:
        return gap
    words = lead.group(1).split()
    said = re.search(r"(?:(?<!\w)(?:a|an|the)\s+)?" + r"\s+".join(map(re.escape, words)) + r"\s*$", gap, re.I)
    return gap[:said.start()] + " " if said else gap


def _expansion(entry: dict, lang: str) -> str:
    if lang != "en" and (entry.get(lang) or {}).get("term"):
        return entry[lang]["term"]
    expansion = entry.get("expansion") or ""
    return re.sub(r"\s*\([^)]*\)\s*$", "", expansion)  # "DeepSeek-V3 (DSV3)" -> "DeepSeek-V3"


def _is_acronym(name: str) -> bool:
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) >= max(2, len(letters) - 1) and " " not in name.strip()


@lru_cache(maxsize=4096)
def same_language(text: str, lang: str) -> bool:
    share = arabic.share_of_arabic(text)
    return share > 0.5 if lang == "ar" else share < 0.3


def claim(doc, item) -> str:
    """A claim restated plainly in doc.lang."""
    m = messages(doc.lang)
    if item.frame and item.frame in m.get("frames", {}):
        return frame(doc, item)
    if same_language(item.quote, doc.lang):
        return expand(doc, item.start, item.end, doc.lang)
    kind = item.kinds[0] if item.kinds else "cause"
    figures = join_names([figure(f, doc.lang) for f in item.figures if f.quantity != "expression"], doc.lang)
    about = join_names([_term_name(doc, term_id) for term_id in item.term_ids][:3], doc.lang)
    template = m["claim_kinds"].get(kind + ("_figures" if figures else ""), m["claim_kinds"]["cause"])
    return template.format(figures=figures, about=about or m["claim_kinds"]["about_nothing"])


def _term_name(doc, term_id: str) -> str:
    for term in doc.terms:
        if term["id"] == term_id:
            return term["expansion"] if doc.lang != "en" else term["expansion_en"].split(" (")[0]
    return ""


def frame(doc, item) -> str:
    """A frame claim ("you only need PP when DP-comms bound") in the locale's plain words."""
    m = messages(doc.lang)
    chips = item.chips  # a frame restates what the claim itself names, not the whole thread's hardware
    models = item.models
    chips_text = join_names(list(dict.fromkeys(chip_name(c, doc.lang) for c in chips)), doc.lang)
    models_text = join_names([model_name(x) for x in models], doc.lang)
    parts = m["frame_parts"]
    key = f"{item.frame}_question" if "question" in item.kinds and f"{item.frame}_question" in m["frames"] else item.frame
    return m["frames"][key].format(
        chips=(parts["on_chips"].format(chips=chips_text) if chips_text else ""),
        models=(parts["models"].format(models=models_text) if models_text else parts["a_large_model"]),
        metric=parts["good_mfu"] if "model-flops-utilization" in item.term_ids else parts["good_efficiency"])


def plain(doc) -> str:
    """The whole input restated: each sentence expanded when it is in the output language, else its claims' restatements."""
    pieces = []
    claims_at = {c.start: c for c in doc.claims}
    for start, end in doc.sentences:
        sentence = doc.text[start:end]
        if start in claims_at and (claims_at[start].frame or not same_language(sentence, doc.lang)):
            pieces.append(claims_at[start].plain)
        elif same_language(sentence, doc.lang):
            pieces.append(expand(doc, start, end, doc.lang))
    return "\n".join(p for p in pieces if p)
