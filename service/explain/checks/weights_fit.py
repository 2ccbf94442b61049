"""Whether a model's weights alone fit a chip's memory: parameters x the bytes of the format the sentence names, against
the memory capacity it states ("a 70B model in 16-bit exhausts the 80GB of an H100": 70B x 2 bytes = 140 GB > 80 GB)."""

import json
import re
from functools import cache

from calculators.resources import data_dir
from service.explain import restate
from service.explain.checks.core import Result, worked
from service.explain.checks.memory import CAPACITY_WORDS, number_formats
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_CAPACITIES = ("hbm_bytes", "bytes", "memory_bytes", "memory_bytes_per_chip")
_BITS = {4: 0.5, 8: 1, 16: 2, 32: 4}
_BITS_WORD = re.compile(r"(?<![\d.])(4|8|16|32)[- ]?(?:bits?\b|بت\b|بتات)", re.I)  # "16-bit", "بدقة 16 بت"
_ONE_CARD = ("hbm_bytes", "memory_bytes_per_chip")  # the memory of one card, not a job's or a node's
_HOLD = re.compile(r"\b(?:can(?:not|'t)?|could(?:n'?t)?)\s+(?:hold|load)\b|تستوعب|يستوعب|تتسع|يتسع", re.I)
_QUANTISED = re.compile(r"\bquanti[sz]\w*|\bGPTQ\b|\bAWQ\b|\bGGUF\b|\bbitsandbytes\b|تكميم", re.I)
_NOT_WEIGHTS = re.compile(r"\bper (?:GPU|chip|device|rank)\b|\beach (?:GPU|chip|device)\b|\b(?:a|each|its|one) shard\b|\bsharded\b|\bactivation|\bKV cache", re.I)


def _width_named(claim: Claim) -> bool:
    """Whether the sentence names any number format or bit width."""
    return bool(_BITS_WORD.search(claim.quote)) or any(pattern.search(claim.quote) for pattern, _, _ in number_formats())


def _width(claim: Claim) -> tuple[float, str] | None:
    """The bytes per parameter of the one number format the sentence names ("16-bit", "in bf16"), and how it was named."""
    found = {}
    for written in _BITS_WORD.finditer(claim.quote):
        found[_BITS[int(written.group(1))]] = written.group(0)
    for pattern, size, name in number_formats():
        named = pattern.search(claim.quote)
        if named:
            found.setdefault(size, named.group(0))
    return next(iter(found.items())) if len(found) == 1 else None


@cache
def _unnamed() -> dict:
    """data/precisions.json "weights_unnamed": the width weights are read in when the text names no format, and why."""
    return json.loads((data_dir() / "precisions.json").read_text(encoding="utf-8"))["weights_unnamed"]


def _no_format_anywhere(doc: Document) -> bool:
    """Whether the whole text names no number format, bit width or quantisation (then the weights' width is the usual one)."""
    return not (_BITS_WORD.search(doc.text) or _QUANTISED.search(doc.text)
                or any(pattern.search(doc.text) for pattern, _, _ in number_formats()))


def _one_card(doc: Document, cap) -> bool:
    """Whether a size is one card's memory: read as such, or written just before a chip's name ("40GB's H800", "40GB A100")."""
    return cap.quantity in _ONE_CARD or cap.quantity == "bytes" and any(
        m.kind == "chip" and 0 <= m.start - cap.end <= 4 for m in doc.mentions)


def _unnamed_over(doc: Document, claim: Claim, p, cap) -> Result | None:
    """"Larger than one GPU can hold, e.g. 70B on a 40GB card": 70B x 2 bytes (16-bit, the text names no format) = 140 GB,
    said only when even then the weights alone exceed the one card's memory the sentence states."""
    if not _one_card(doc, cap) or not _no_format_anywhere(doc) or not (CAPACITY_WORDS.search(claim.quote) or _HOLD.search(claim.quote)):
        return None
    rule = _unnamed()
    if p.value * rule["bytes"] <= cap.value:
        return None  # they would fit in 16-bit: with the width assumed, saying so answers nothing the text asked
    index = worked(doc, f"{p.value:g} * {rule['bytes']:g}", f"{p.quote} x {rule['bytes']:g} bytes ({rule['name']})", "bytes")
    if index is None:
        return None
    same = restate.same_language(p.quote, doc.lang)
    return Result([index], None, messages(doc.lang)["verdicts"]["weights_over_unnamed"].format(
        params=p.quote if same else restate.value("params", p.value), per=f"{rule['bytes']:g}",
        computed=restate.value("bytes", doc.calculations[index]["outputs"]["value"]), stated=cap.quote))


def weights_fit(doc: Document, claim: Claim) -> Result | None:
    """Parameters x bytes per parameter = the weights alone, said beside the chip memory the sentence states."""
    params = [f for f in claim.figures if f.quantity == "params"]
    capacity = [f for f in claim.figures if f.quantity in _CAPACITIES]
    if len(params) != 1 or len(capacity) != 1 or _NOT_WEIGHTS.search(claim.quote):
        return None
    if any(f.quantity in ("n_chips", "n_nodes") and f.value > 1 for f in claim.figures):
        return None  # "65B ... on 2048 A100s of 80 GB": the run spreads the weights; one card holding them is not asked
    if not _width_named(claim):
        return _unnamed_over(doc, claim, params[0], capacity[0])
    if not CAPACITY_WORDS.search(claim.quote):
        return None
    width = _width(claim)
    if width is None:
        return None  # two formats named (which one is uncertain)
    (per, named), (p, cap) = width, (params[0], capacity[0])
    index = worked(doc, f"{p.value:g} * {per:g}", f"{p.quote} x {per:g} bytes ({named})", "bytes")
    if index is None:
        return None
    weights = doc.calculations[index]["outputs"]["value"]
    key = "weights_over" if weights > cap.value else "weights_within"
    same = restate.same_language(p.quote, doc.lang)  # an Arabic answer to an English text names no English words
    shown_format = named if same or "bit" not in named.lower() else f"{int(per * 8)} بت"
    return Result([index], None, messages(doc.lang)["verdicts"][key].format(
        params=p.quote if same else restate.value("params", p.value), per=f"{per:g}", format=shown_format,
        computed=restate.value("bytes", weights), stated=cap.quote if restate.same_language(cap.quote, doc.lang) else restate.value("bytes", cap.value)))
