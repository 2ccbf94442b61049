"""Every figure a text states (English and Arabic), with the calculator quantity it gives and its value.

The reader is one pass over the text in which every notation (compact degrees, formula letters, arithmetic,
ranges, before/after pairs, Arabic words) claims its span before the generic rules see it; the order of those
claims is `_Reader.read_all` in `reader.py`. The words it reads are data (data/figure_words.json).
"""

import math
import re

from service.explain import binary_k
from service.explain.figures.record import Figure, _Fig
from service.explain.figures.reader import _Reader


def read_figures(text: str) -> list[Figure]:
    """Every figure the text states, in order, each once, with its quantity and value."""
    if not text:
        return []
    reader = _Reader(text)
    reader.read_all()
    figs = sorted(reader.figs, key=lambda f: (f.start, -f.end))
    kept: list[_Fig] = []
    reach = -1
    for fig in figs:  # a figure overlapping one already kept is the same figure read twice
        if not math.isfinite(fig.value):
            continue  # a value scaled past float range by a shared unit is no figure either
        if not fig.expression:
            if fig.start < reach:
                continue
            reach = fig.end
        kept.append(fig)
    _degrees_within_chips(text, kept)
    _units_beside_chips(text, kept)
    _binary_thousands(text, kept)
    _formula_coefficients(text, kept)
    _chip_model_codes(text, kept)
    _per_parameter(text, kept)
    kept = _without_error_bars(text, kept)
    index = {id(f): i for i, f in enumerate(kept)}
    return [Figure(quote=text[f.start:f.end], start=f.start, end=f.end, quantity=f.quantity, value=float(f.value),
                   unit=f.unit, approx=f.approx, chip=f.chip, model=f.model, role=f.role,
                   pair=index.get(id(f.pair)) if f.pair is not None else None, detail=f.detail)
            for f in kept]


_PLUS_MINUS = re.compile(r"\s*(?:±|\+/-|\+-|\+/−)\s*$")


def _without_error_bars(text: str, figs: list[_Fig]) -> list[_Fig]:
    """"36.1 ± 1.2 tok/s" is one measurement of 36.1 tok/s: the number after ± is its uncertainty, no figure of its own,
    and the unit written after it is the measurement's (never "96.4 tok/s / 1.2 tok/s = 80x")."""
    kept: list[_Fig] = []
    for fig in figs:
        before = kept[-1] if kept else None
        if before is None or fig.expression or not _PLUS_MINUS.match(text[before.end:fig.start]):
            kept.append(fig)
            continue
        unit_after = re.search(r"[^\d\s.,]", text[fig.start:fig.end])  # "1.2 tok/s": a unit written, not a cue further on
        if before.generic and not fig.generic and unit_after and before.raw and fig.raw:
            before.quantity, before.unit, before.generic, before.scale = fig.quantity, fig.unit, False, fig.scale
            before.value = before.raw * fig.scale
        before.end = max(before.end, fig.end)
    return kept


_DEGREES = frozenset({"tp_degree", "pp_degree", "dp_degree", "ep_degree", "cp_degree"})
MAX_DEGREE = 65536  # no published run splits one axis over more chips than the largest clusters hold


def _degrees_within_chips(text: str, figs: list[_Fig]) -> None:
    """A bare number read as a parallel degree by a cue nearby ("14,796" in a throughput column under "expert
    parallel degree") that exceeds every chip count the text states, or any cluster, is a number, not a degree."""
    chips = [f.value for f in figs if f.quantity == "n_chips"]
    for fig in figs:
        if fig.quantity in _DEGREES and fig.unit is None and (fig.value > MAX_DEGREE or (chips and fig.value > max(chips))) \
                and any(c.isdigit() for c in text[fig.start:fig.end]) and not any(c.isalpha() for c in text[fig.start:fig.end]):
            fig.quantity, fig.generic = "number", True


# "معالجين من طراز 910B", "Ascend 910B": a chip's model code, not 910 billion parameters
_MODEL_CODE_BEFORE = re.compile(r"(?:طرازي?|نوع|Ascend|Atlas|Kunlun|model|chips?|شريحة|شرائح)\s+$", re.I)


def _chip_model_codes(text: str, figs: list[_Fig]) -> None:
    """A size written as a product's code ("910B" after «طراز» or "Ascend") is a name, not a count of parameters."""
    for fig in figs:
        if fig.quantity == "params" and re.fullmatch(r"\d+[BM]", text[fig.start:fig.end]) \
                and _MODEL_CODE_BEFORE.search(text, max(0, fig.start - 16), fig.start):
            fig.quantity, fig.generic = "number", True


# "about 20 tokens per parameter", «20 رمزًا لكل معامل»: a ratio, not a count of tokens a run trains on
_PER_PARAMETER = re.compile(r"\s*(?:per|for each|a|/)\s*(?:param(?:eter)?s?\b)|\s*لكل\s+(?:معامل|معلمة|بارامتر)", re.I)


# "for each parameter in the model, use about 20 tokens", «لكل معامل في النموذج، استخدم حوالي 20 رمزًا»: the ratio said first
_PER_PARAMETER_BEFORE = re.compile(r"(?:\b(?:per|for (?:each|every)) param(?:eter)?s?\b|لكل\s+(?:معامل|معلمة|بارامتر))[^\d.!?؟\n]{0,60}$", re.I)


def _per_parameter(text: str, figs: list[_Fig]) -> None:
    """Tokens said per parameter are a ratio (Chinchilla's ~20), never compared with a run's total tokens."""
    for fig in figs:
        if fig.quantity == "tokens" and (_PER_PARAMETER.match(text, fig.end) or _PER_PARAMETER_BEFORE.search(text, max(0, fig.start - 80), fig.start)):
            fig.quantity = "tokens_per_param"


# "MFU is 100 * flops_ps / device_peak_flops_per_second": a bare number multiplying a name is a formula's coefficient
_TIMES_A_NAME = re.compile(r"\s*[*×]\s*[A-Za-z_]")


def _formula_coefficients(text: str, figs: list[_Fig]) -> None:
    """A bare number that multiplies a variable ("100 * flops_ps") is part of a formula, not the value of the
    quantity a cue before it names ("MFU is 100 ..." is no MFU of 100%)."""
    for fig in figs:
        if not fig.expression and fig.quantity != "number" and _TIMES_A_NAME.match(text, fig.end) \
                and not any(c.isalpha() or c == "%" for c in text[fig.start:fig.end]):
            fig.quantity, fig.generic = "number", True


# "6،080 وحدة معالجة رسومات ... موزعة على 760 وحدة": a bare "unit" beside a count of named GPUs is the servers they sit in
_BARE_UNIT = re.compile(r"\d[\d,.،]*\s*(?:(?:ألف|آلاف|مليون|ملايين|مليار|مليارات)\s*)?(?:وحدة|وحدات)\s*$")
_CONTEXT_BEFORE = re.compile(r"سياق|نافذة|رموز|رمز|كلمة|كلمات")  # units a context window counts
_GPU_NOUN = re.compile(r"وحد(?:ة|ات) معالجة|معالج(?:ات)? رسومي|GPU|A100|H100|H800|H200|B200|شرائح|شريحة|رقائق")


# "144 معالجًا تدفّق Streaming Multiprocessors", "132 SM processors": blocks inside one chip, not chips
_INSIDE_A_CHIP = re.compile(r"\s*(?:\S+\s+){0,2}?(?:streaming multiprocessors?|SMs?\b|compute units?\b|CUs\b|cores?\b|متعدد(?:ة)? المعالجات|متدفق)", re.I)


def _units_beside_chips(text: str, figs: list[_Fig]) -> None:
    """A chip count read from a bare «وحدة» is a number where the same sentence counts more chips by a GPU's own name;
    a count of processors followed by the words of a block inside a chip (streaming multiprocessors) is no chip count."""
    for fig in figs:
        if fig.quantity == "n_chips" and _INSIDE_A_CHIP.match(text, fig.end) and not fig.chip:
            fig.quantity, fig.generic = "number", True
            continue
        if fig.quantity != "n_chips" or not _BARE_UNIT.search(text[fig.start:fig.end]):
            continue
        if _CONTEXT_BEFORE.search(text, max(0, fig.start - 60), fig.start):  # "نافذة سياقية تصل إلى 10 ملايين وحدة": tokens
            fig.quantity, fig.generic = "context_len", False
            continue
        lo = max(text.rfind(".", 0, fig.start), text.rfind("\n", 0, fig.start)) + 1
        hi = min([i for i in (text.find(".", fig.end), text.find("\n", fig.end)) if i >= 0] or [len(text)])
        if any(o is not fig and o.quantity == "n_chips" and lo <= o.start < hi and _GPU_NOUN.search(text[o.start:o.end])
               and o.value > fig.value for o in figs):  # what holds the GPUs is fewer than they are ("72 وحدة" of 36 superchips is not)
            fig.quantity, fig.generic = "number", True


def read_figures_on_lines(text: str, first: int, last: int) -> list[Figure]:
    """The figures stated on lines first..last (1-based, inclusive) of text, offsets in text: a configuration's settings
    ("ici_data_parallelism: 4") are figures the input states, though the configuration is read apart from the prose."""
    if not text or first > last:
        return []
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    lo, hi = starts[max(0, first - 1)], starts[min(len(starts) - 1, last)]
    return [f for f in read_figures(text) if lo <= f.start < hi]


_K_WRITTEN = re.compile(r"^~?\s*(\d+(?:\.\d+)?)\s*[kK](?:\s+[a-z]+)?$")  # "32K", "1k", "16K tokens": a count in thousands


def _binary_thousands(text: str, figs: list[_Fig]) -> None:
    """"32K" beside the text's own "32,768": the K is 1,024, as context lengths count (round 38: "from 1K to 32K" input
    tokens worked as 32,000 / 1,000 in a text whose table writes 32,768)."""
    exact = {f.value for f in figs if not _K_WRITTEN.match(text[f.start:f.end].strip())}
    for fig in figs:
        m = _K_WRITTEN.match(text[fig.start:fig.end].strip())
        if m and fig.value == float(m.group(1)) * 1000 and (float(m.group(1)) * 1024 in exact
                                                            or m.group(1).isdigit() and binary_k.binary(text, int(m.group(1)))):
            others = [g for g in figs if g is not fig and _K_WRITTEN.match(text[g.start:g.end].strip()) and g.quantity == fig.quantity]
            for one in [fig, *others]:  # "1K to 32K": every K of that kind counts alike
                written = float(_K_WRITTEN.match(text[one.start:one.end].strip()).group(1))
                if one.value == written * 1000:
                    one.value, one.scale = written * 1024, one.scale * 1.024
