"""Whether a model's weights alone fit a chip's memory: parameters x the bytes of the format the sentence names, against
the memory capacity it states ("a 70B model in 16-bit exhausts the 80GB of an H100": 70B x 2 bytes = 140 GB > 80 GB)."""

import re

from service.explain import restate
from service.explain.checks.core import Inputs, Result, run
from service.explain.checks.memory import CAPACITY_WORDS, number_formats
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_CAPACITIES = ("hbm_bytes", "bytes", "memory_bytes", "memory_bytes_per_chip")
_BITS = {4: 0.5, 8: 1, 16: 2, 32: 4}
_BITS_WORD = re.compile(r"(?<![\d.])(4|8|16|32)[- ]?(?:bits?\b|بت\b|بتات)", re.I)  # "16-bit", "بدقة 16 بت"
_NOT_WEIGHTS = re.compile(r"\bper (?:GPU|chip|device|rank)\b|\beach (?:GPU|chip|device)\b|\b(?:a|each|its|one) shard\b|\bsharded\b|\bactivation|\bKV cache", re.I)


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


def weights_fit(doc: Document, claim: Claim) -> Result | None:
    """Parameters x bytes per parameter = the weights alone, said beside the chip memory the sentence states."""
    params = [f for f in claim.figures if f.quantity == "params"]
    capacity = [f for f in claim.figures if f.quantity in _CAPACITIES]
    if len(params) != 1 or len(capacity) != 1 or not CAPACITY_WORDS.search(claim.quote) or _NOT_WEIGHTS.search(claim.quote):
        return None
    width = _width(claim)
    if width is None:
        return None  # no format named (the weights' size would be a guess), or two (which one is uncertain)
    (per, named), (p, cap) = width, (params[0], capacity[0])
    inputs = Inputs(doc.lang)
    inputs.values["expression"] = f"{p.value:g} * {per:g}"
    inputs.sources["expression"] = {"source": "text", "quote": f"{p.quote} x {per:g} bytes ({named})"}
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    weights = doc.calculations[index]["outputs"]["value"]
    key = "weights_over" if weights > cap.value else "weights_within"
    same = restate.same_language(p.quote, doc.lang)  # an Arabic answer to an English text names no English words
    shown_format = named if same or "bit" not in named.lower() else f"{int(per * 8)} بت"
    return Result([index], None, messages(doc.lang)["verdicts"][key].format(
        params=p.quote if same else restate.value("params", p.value), per=f"{per:g}", format=shown_format,
        computed=restate.value("bytes", weights), stated=cap.quote))
