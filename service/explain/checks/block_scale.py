"""The size per element of a block-scaled format the sentence states ("1.0625 bytes/element ... an fp16 scale per 32
elements" for 8-bit values): the element's own bits plus its share of the block's scale, against the stated size.
NVFP4 (4 bits + an 8-bit scale per 16 = 4.5 bits) and MXFP4 (4 + 8/32 = 4.25 bits) are the published cases."""

import re

from service.explain.checks.core import Result
from service.explain.checks.products import stated_arithmetic
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_STATED = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>bytes?|bits?)\s*(?:/|per\s+)(?:element|value|weight|param(?:eter)?)s?\b", re.I)
_SCALE = re.compile(r"\b(?P<fmt>fp16|bf16|fp32|e8m0|ue8m0|e4m3|fp8|16-bit|32-bit|8-bit)\s+scales?\s+(?:per|for\s+each|for\s+every|every)\s+"
                    r"(?P<block>\d+)\s*(?:elements?|values?|weights?)\b", re.I)
_SCALE_BITS = {"fp16": 16, "bf16": 16, "fp32": 32, "e8m0": 8, "ue8m0": 8, "e4m3": 8, "fp8": 8, "16-bit": 16, "32-bit": 32, "8-bit": 8}
# the element's own format: its width in bits
_WIDTHS = ((re.compile(r"\b(?:int8|fp8(?:_e4m3|_e5m2)?|e4m3|e5m2|q8_0|8-bit|mxfp8)\b", re.I), 8),
           (re.compile(r"\b(?:int4|fp4|nvfp4|mxfp4|q4_0|4-bit)\b", re.I), 4),
           (re.compile(r"\b(?:int6|fp6|mxfp6|6-bit)\b", re.I), 6))


def block_scale(doc: Document, claim: Claim) -> Result | None:
    """Bits of the element + scale bits / block size against the stated bytes or bits per element."""
    sentence = doc.text[claim.start:claim.end]
    stated, scale = _STATED.search(sentence), _SCALE.search(sentence)
    if stated is None or scale is None:
        return None
    rest = sentence
    for span in sorted((stated.span(), scale.span()), reverse=True):
        rest = rest[:span[0]] + " " + rest[span[1]:]  # the scale's own format ("an e4m3 scale per 16") is not the element's
    widths = {bits for pattern, bits in _WIDTHS if pattern.search(rest)}
    if len(widths) != 1:
        return None  # no element format named, or two of different widths: which one the size is of is unsure
    fig = next((f for f in claim.figures if f.start <= claim.start + stated.start() < f.end or
                f.start == claim.start + stated.start()), None)
    if fig is None:
        return None
    bits, block = widths.pop(), int(scale.group("block"))
    scale_bits = _SCALE_BITS[scale.group("fmt").lower()]
    in_bytes = stated.group("unit").lower().startswith("byte")
    expression = f"({bits} + {scale_bits} / {block}) / 8" if in_bytes else f"{bits} + {scale_bits} / {block}"
    index = stated_arithmetic(doc, expression, f"{bits}-bit values, {scale.group()}", fig, exact=False)
    if index is None:
        return None
    out = doc.calculations[index]["outputs"]
    verdict = "consistent" if out["consistent"] else "inconsistent"
    return Result([index], verdict, messages(doc.lang)["verdicts"][verdict].format(
        stated=stated.group(), computed=f"{out['value']:g} {stated.group('unit')}"))
