"""A total the text states for a whole system, against a count of units it names anywhere and each unit's amount it
states in another phrase ("As an accelerator card, Gaudi 3 delivers 1,835 TFLOPs" ... "to support eight accelerator
cards" ... "This form factor provides 14.6 PFLOPs": 8 x 1,835 TFLOPs = 14.68 PFLOPs). Only agreement is said, and only
where a word marks the total as the whole's ("total", "provides", "system") and not as one unit's: three figures that
happen to multiply (8 GPUs, 17.5 GB of states each, an H200's 141 GB) must never read as the text's arithmetic."""

import re

from service.explain import claims, restate
from service.explain.checks import verdicts
from service.explain.checks.core import Result, as_written, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# kinds that add up over units: each card's compute, memory, link or memory rate, tokens per second, power
_ADDITIVE = {"compute_rate", "compute", "memory", "bandwidth", "memory_bandwidth_bytes_per_s", "throughput", "power_w"}
_MEASURED = {"busbw_bytes_per_s", "algbw_bytes_per_s", "bus_bandwidth_bytes_per_s"}  # a collective's measured speed: no sum
# a bare number that counts units: "24 200GbE RoCE ethernet ports" (another figure may sit between count and noun)
_UNIT_NOUN = re.compile(r"(?:\s+(?:\S+\s+){0,3}?)(?:GPUs|chips|cards|accelerators|devices|nodes|servers|ports|links|lanes|NICs|"
                        r"dies|stacks|sockets|racks|trays|boards|modules)\b", re.I)
# the whole's word before the total in its clause, or "of total" after it: "This form factor provides 14.6 PFLOPs",
# "for a total system ... bandwidth of 130 TB/s", "a system with 64GB of total VRAM"
_WHOLE_BEFORE = re.compile(r"\b(?:total|in\s+all|combined|aggregate|altogether|provides?|system|form\s+factor|baseboard|"
                           r"node|server|rack|pod|cluster|whole|entire|together)\b|إجمالي|مجموع|النظام", re.I)
_TOTAL_WORD = re.compile(r"\b(?:total|in\s+all|combined|aggregate|altogether|provides?)\b|إجمالي|مجموع", re.I)  # a unit's amount never has one
_WHOLE_AFTER = re.compile(r"\s*(?:of\s+)?(?:total|combined|aggregate)\b|\s+in\s+(?:all|total)\b", re.I)
# one unit's amount, not the whole's: "80 GB per GPU", "192 GB each", "400 Gbps per port"
_EACH_AFTER = re.compile(r"\s*(?:\(\w+\)\s*)?(?:of\s+\w+\s+)?(?:[\w-]+\s+){0,3}?(?:each|apiece|per\s+\w+)\b|\s*لكل\b", re.I)  # "1.8 TB/s
# bidirectional throughput per GPU" is one GPU's, however many words stand between
_BOTH_WAYS = re.compile(r"\bbi-?directional|\bbidi\b|both\s+directions|الاتجاهين", re.I)
_WORKED_OUT = re.compile(r"[=≈]\s*$")  # a count that is the result of the text's own arithmetic
_PER_SENTENCE_CUES = 80  # characters before a total searched for the whole's word, within its sentence


def _sentence(doc: Document, position: int) -> tuple[int, int]:
    """The (start, end) of the sentence holding a position, else the whole text."""
    return next(((s, e) for s, e in doc.sentences if s <= position < e), (0, len(doc.text)))


def _count(doc: Document, fig) -> bool:
    """A whole number of units two or more: a chip, node or link count, or a bare number a unit's noun follows."""
    if not (2 <= fig.value <= 1e6 and float(fig.value).is_integer()):
        return False
    if _WORKED_OUT.search(doc.text, max(0, fig.start - 3), fig.start):
        return False  # "16.5e12 / 96e9 = 171 TPUs": a count worked out from the total, which it cannot then confirm
    if fig.quantity in ("n_chips", "n_nodes", "n_links"):
        return True
    return fig.quantity == "number" and bool(_UNIT_NOUN.match(doc.text, fig.end))


def _whole(doc: Document, fig, words: re.Pattern = _WHOLE_BEFORE) -> bool:
    """A figure its words mark as a whole's total and not as one unit's."""
    if _EACH_AFTER.match(doc.text, fig.end):
        return False
    start, _ = _sentence(doc, fig.start)
    before = doc.text[max(start, fig.start - _PER_SENTENCE_CUES):fig.start]
    return bool(words.search(before) or _WHOLE_AFTER.match(doc.text, fig.end))


def _both_ways(doc: Document, total, per) -> bool:
    """The total counts both directions of a link where the unit's amount does not ("1.2 TB/s bi-directional")."""
    t_start, t_end = _sentence(doc, total.start)
    p_start, p_end = _sentence(doc, per.start)
    return bool(_BOTH_WAYS.search(doc.text, t_start, t_end)) and not _BOTH_WAYS.search(doc.text, p_start, p_end)


def _pairs(doc: Document, total):
    """(count, each unit's amount, factor) from anywhere in the text whose product is the total, factor 2 for both ways."""
    tolerance = verdicts.table()["tolerances"]["written_arithmetic"]["share"]
    for per in doc.figures:
        if per is total or per.value <= 0 or per.value >= total.value or not verdicts.same_kind(per.quantity, total.quantity) \
                or per.quantity in _MEASURED or _whole(doc, per, _TOTAL_WORD):
            continue  # two totals side by side ("P4d provides 400 Gbps, Azure provides 1600 Gbps") are no unit and its whole
        for count in doc.figures:
            if count is per or count is total or not _count(doc, count) or count.start <= per.start <= count.end:
                continue
            for factor in (1, 2) if verdicts.kind(total.quantity) == "bandwidth" else (1,):
                if factor == 2 and not _both_ways(doc, total, per):
                    continue
                if abs(factor * count.value * per.value - total.value) <= tolerance * total.value:
                    yield count, per, factor


def count_total(doc: Document, claim: Claim) -> Result | None:
    """Units x each one's amount, from anywhere in the text, against each whole's total this claim states; consistent only."""
    if claim.calculations or any(f.quantity == "expression" for f in claim.figures):
        return None  # the sentence's own arithmetic is redone already
    found: list[tuple[int, str]] = []
    for total in claim.figures:
        if verdicts.kind(total.quantity) not in _ADDITIVE or total.quantity in _MEASURED or not _whole(doc, total):
            continue
        pairs = list(_pairs(doc, total))
        if len({(c.value, p.value, k) for c, p, k in pairs}) != 1:
            continue  # none, or several readings: which units the total sums is uncertain, so nothing is said
        count, per, factor = pairs[0]
        twice = "2 * " if factor == 2 else ""
        index = worked(doc, f"{twice}{count.value:g} * {as_written(per)}", f"{count.quote} x {per.quote}",
                       "bytes_per_s" if verdicts.kind(per.quantity) == "bandwidth" else None)
        if index is None:
            continue
        key = "count_total_both_ways" if factor == 2 else "count_total"
        found.append((index, messages(doc.lang)["verdicts"][key].format(
            count=f"{count.value:,.0f}", sign="×" if doc.lang == "ar" else "x", per=said(doc, per),
            computed=restate.value(total.quantity, factor * count.value * per.value), stated=said(doc, total))))
    if not found:
        return None
    return Result([i for i, _ in found], "consistent", "; ".join(w for _, w in found))


def add_claims(doc: Document) -> None:
    """Make a claim of each sentence the claims stage passed over that states a whole's total the text's units and
    amounts give, so that the check is said ("This form factor provides 14.6 PFLOPs" states no cue of its own)."""
    claimed = {c.start for c in doc.claims}
    for start, end in list(doc.sentences):
        if start in claimed:
            continue
        for total in (f for f in doc.figures if start <= f.start < end):
            if verdicts.kind(total.quantity) in _ADDITIVE and total.quantity not in _MEASURED and _whole(doc, total) \
                    and len({(c.value, p.value, k) for c, p, k in _pairs(doc, total)}) == 1:
                claims.add_measurement(doc, start, end)
                break
