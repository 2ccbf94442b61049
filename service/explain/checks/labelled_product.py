"""A product written with a label after each factor and its result after "≈" or "=" ("2 × 80 layers × 8 KV heads ×
32768 tokens × 128 head_dim × 2 bytes ≈ 10.7 GB"): the factors multiplied against the result the sentence states."""

import re

from service.explain.checks.core import Result
from service.explain.checks.products import product_verdict, stated_arithmetic
from service.explain.document import Claim, Document

_NUMBER = r"\d[\d,]*(?:\.\d+)?(?:[kKMB](?![A-Za-z]))?"  # "32k" scales; "8 KV heads" does not
_LABEL = r"(?:\s+(?!x\b)[A-Za-z_][\w-]*){0,2}"  # "layers", "KV heads", "head_dim": at most two words, never the sign
_CHAIN = re.compile(rf"(?<![\w.])(?P<chain>{_NUMBER}{_LABEL}(?:\s*[×x*]\s*{_NUMBER}{_LABEL}){{2,}})\s*(?P<sign>≈|~|=|is about|is roughly)\s*", re.I)
_APPROX_BEFORE = re.compile(r"(?:~|≈|\b(?:about|around|roughly|approximately|nearly|some))\s*$", re.I)  # "around 8k x 5120 x 2 bytes = 80MB"
_SCALE = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9}


def _factors(chain: str) -> list[float]:
    out = []
    for number in re.findall(_NUMBER, chain):
        text = number.replace(",", "")
        out.append(float(text.rstrip("kKMB")) * _SCALE.get(text[-1], 1.0))
    return out


def labelled_product(doc: Document, claim: Claim) -> Result | None:
    """Each labelled product of the claim whose stated result follows it: the product redone against it."""
    if claim.calculations:
        return None
    for found in _CHAIN.finditer(doc.text, claim.start, claim.end):
        factors = _factors(found.group("chain"))
        if len(factors) < 3 or any(f == 0 for f in factors):
            continue
        result = next((f for f in claim.figures if f.start == found.end() and f.value), None)
        if result is None:
            continue
        approx = found.group("sign").strip() != "=" or bool(_APPROX_BEFORE.search(doc.text, max(0, found.start() - 20), found.start()))
        expression = " * ".join(f"{f:g}" for f in factors)
        index = stated_arithmetic(doc, expression, found.group("chain").strip(), result, approx)
        if index is None:
            continue
        return product_verdict(doc, index, result, result.quantity)
    return None
