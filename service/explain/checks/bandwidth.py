"""Checks of communication: nccl-tests bus bandwidth from algorithm bandwidth, and a collective's time over a link."""

import re

from service.explain import pattern_cache, terms
from service.explain.checks.core import Inputs, Result, compare, computed, figure, needs_more, run
from service.explain.document import Claim, Document


def collective(text: str) -> str | None:
    """The collective operation a text names (all-reduce, all-gather, ...), or None."""
    for lang in ("en", "ar"):
        for op, pattern in terms.cues()[lang]["collective_ops"].items():
            if pattern_cache.lazy(pattern, re.I).search(text):
                return op
    return None


def bus_bandwidth(doc: Document, claim: Claim) -> Result | None:
    """nccl-tests: bus bandwidth from algorithm bandwidth, the collective and the number of ranks."""
    algbw = next((f for f in claim.figures if f.quantity == "algbw_bytes_per_s"), None)
    busbw = next((f for f in claim.figures if f.quantity == "bus_bandwidth_bytes_per_s"), None)
    if algbw is None:
        return None
    op = collective(claim.quote) or collective(doc.text)
    ranks = figure(doc, claim, "n_ranks", "n_chips")
    if op is None or ranks is None:
        return needs_more(doc, [q for q, ok in (("op", op), ("n_ranks", ranks)) if not ok])
    inputs = Inputs(doc.lang)
    inputs.values["op"], inputs.sources["op"] = op, {"source": "text", "quote": op}
    inputs.text("n_ranks", ranks)
    inputs.text("algbw_bytes_per_s", algbw)
    index = run(doc, "nccl_busbw", inputs)
    if index is None:
        return Result()
    value = doc.calculations[index]["outputs"]["busbw_bytes_per_s"]
    if busbw is not None:
        return compare(doc, busbw, value, "busbw_bytes_per_s", [index])
    return computed(doc, "busbw_bytes_per_s", value, [index])


def collective_time(doc: Document, claim: Claim) -> Result | None:
    """The time of a collective of a stated size over a stated bandwidth."""
    size = next((f for f in claim.figures if f.quantity in ("size_bytes", "bytes")), None)
    bandwidth = next((f for f in claim.figures if f.quantity in ("bandwidth_bytes_per_s", "bus_bandwidth_bytes_per_s")), None)
    op = collective(claim.quote)
    if size is None or bandwidth is None or op is None:
        return None
    ranks = figure(doc, claim, "n_ranks", "n_chips")
    if ranks is None:
        return needs_more(doc, ["n_ranks"])
    inputs = Inputs(doc.lang)
    inputs.values["op"], inputs.sources["op"] = op, {"source": "text", "quote": op}
    inputs.text("size_bytes", size)
    inputs.text("n_ranks", ranks)
    inputs.text("bandwidth_bytes_per_s", bandwidth)
    index = run(doc, "collective_time", inputs)
    if index is None:
        return Result()
    stated = next((f for f in claim.figures if f.quantity == "time_s"), None)
    value = doc.calculations[index]["outputs"]["time_s"]
    if stated is not None:
        return compare(doc, stated, value, "time_s", [index])
    return computed(doc, "time_s", value, [index])
