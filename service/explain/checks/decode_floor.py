"""Decoding's memory floor: generating one token reads every weight from memory once, so a time per token is at least
the weights' bytes over the memory bandwidth (the memory side of the roofline: Williams, Waterman and Patterson 2009;
the JAX scaling book, "All About Transformer Inference")."""

import re

from service.explain import restate
from service.explain.checks.core import Result, compare, discard, unique, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# a time said per generated token ("~40 ms per token", "45 ms/token", "لكل رمز")
_PER_TOKEN = re.compile(r"\S*\s*(?:/\s*(?:token|tok)\b|(?:of\s+\w+\s+)?per\s+(?:output\s+|generated\s+|decoded\s+)?token\b"
                        r"|per\s+decod\w*\s+step\b|لكل رمز)", re.I)  # one decoding step makes one token per sequence
# a floor the text itself works out ("floor-limited to", "at least", "bound"): the check agrees or shows the gap
_FLOOR_WORDS = re.compile(r"\bfloor|\bat least\b|\bminimum\b|\blower bound\b|\bbound\b|limited|الحد الأدنى", re.I)


def decode_floor(doc: Document, claim: Claim) -> Result | None:
    """A time per token against weights / memory bandwidth, both stated by the text (one value each)."""
    stated = next((f for f in claim.figures if f.quantity in ("time_s", "step_time_s") and _PER_TOKEN.match(doc.text, f.end)), None)
    weights = unique(doc, claim, "weights_bytes")
    bandwidth = unique(doc, claim, "memory_bandwidth_bytes_per_s")
    if stated is None or weights is None or bandwidth is None:
        return None
    index = worked(doc, f"{_scaled(weights.value)} / {_scaled(bandwidth.value)}", f"{weights.quote} / {bandwidth.quote}")
    if index is None:
        return None
    floor = doc.calculations[index]["outputs"]["value"]
    words = messages(doc.lang)["verdicts"]["decode_floor"].format(
        weights=weights.quote, bandwidth=bandwidth.quote, floor=restate.value("time_s", floor))
    result = compare(doc, stated, floor, "time_s", [index])
    if result.verdict == "consistent":
        return Result(result.calculations, "consistent", f"{result.why}: {words}")
    if stated.value > floor and not _FLOOR_WORDS.search(claim.quote):
        # a measured time above the floor is what other work adds, not an error: said as a share of it
        return Result([index], "explained", messages(doc.lang)["verdicts"]["decode_above_floor"].format(
            stated=stated.quote, times=f"{stated.value / floor:.1f}", floor_words=words))
    discard(doc, index)
    return None  # below the floor (fewer bytes read: MoE, quantisation, speculation) or a floor said otherwise: no finding


def _scaled(value: float) -> str:
    """A byte count or rate in the working as the text's scale writes it: 140e9, 3.35e12."""
    return f"{value / 1e12:g}e12" if value >= 1e12 else f"{value / 1e9:g}e9"
