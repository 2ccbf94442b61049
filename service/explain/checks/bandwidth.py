"""Checks of communication: nccl-tests bus bandwidth from algorithm bandwidth, and a collective's time over a link."""

import re

from service.explain import pattern_cache, restate, terms
from service.explain.checks.core import Inputs, Result, compare, computed, figure, needs_more, run
from service.explain.document import Claim, Document
from service.i18n.messages import messages


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
    if busbw is None:  # "algbw: 11.396 GBps" then "busbw: 18.973 GBps" on the next line of the same log
        stated = [f for f in doc.figures if f.quantity == "bus_bandwidth_bytes_per_s" and f.start >= claim.end]
        following = [s for s in doc.sentences if s[0] >= claim.end][:1]
        busbw = stated[0] if len(stated) == 1 and following and following[0][0] <= stated[0].start < following[0][1] else None
    if busbw is None and not collective(claim.quote):
        return None  # an algorithm bandwidth set against another figure, not a collective's: bus bandwidth answers nothing asked
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
    stated = next((f for f in claim.figures if f.quantity == "time_s"), None)
    if size is None or bandwidth is None or op is None or stated is None:
        return None  # no time stated: a collective's time over a measured bandwidth answers nothing the text asks
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
    return compare(doc, stated, doc.calculations[index]["outputs"]["time_s"], "time_s", [index])


# Between two bandwidths, words that say the second restates the first ("400 Gb/s, i.e. 50 GB/s").
_SAME = re.compile(r"^\s*(?:[A-Za-z-]+\s*){0,3}(?:,?\s*(?:i\.e\.|that is|which is|or|aka|=|≈|~|→|->|أي|يعني|أو|ما يعادل|بما يعادل)\s*|\s*\(\s*)"
                   r"(?:about\s+|roughly\s+|~\s*)?$", re.I)
_TIMES = re.compile(r"(?<![\w.])(\d+)\s*[x×]\s*$")
_BITS = re.compile(r"b(?:/s|ps|it/s)$")


def bits_and_bytes(doc: Document, claim: Claim) -> Result | None:
    """A bandwidth in bits per second restated in bytes per second (or back): equal once divided by 8 (times a stated count)."""
    rates = [f for f in claim.figures if f.quantity in ("bandwidth_bytes_per_s", "bus_bandwidth_bytes_per_s") and f.unit]
    for first, second in zip(rates, rates[1:]):
        if bool(_BITS.search(first.unit)) == bool(_BITS.search(second.unit)):
            continue  # both in bits or both in bytes: no conversion to check
        if not _SAME.match(doc.text[first.end:second.start]):
            continue
        count = _TIMES.search(doc.text[max(claim.start, first.start - 12):first.start])
        # worked in the units the text writes: "18.973 GBps x 8 = 151.8 Gb/s", "400 Gb/s / 8 = 50 GB/s"
        in_bits = bool(_BITS.search(first.unit))
        number = first.value * 8 / 1e9 if in_bits else first.value / 1e9
        expression = f"{number:g} / 8" if in_bits else f"{number:g} * 8"
        inputs = Inputs(doc.lang)
        inputs.expression(f"{count.group(1)} * {expression}" if count else expression,
                          doc.text[count.start() + max(claim.start, first.start - 12):first.end] if count else first.quote)
        index = run(doc, "arithmetic", inputs)
        if index is None:
            return None
        worked = doc.calculations[index]["outputs"]["value"]
        value = worked * 1e9 if in_bits else worked * 1e9 / 8  # in bytes per second, as the figure reader keeps rates
        shown = f"{worked:.4g} {'GB/s' if in_bits else 'Gb/s'}"
        ratio = second.value / value if value else 0
        if abs(ratio - 1) <= 0.02:
            return compare(doc, second, value, "bandwidth_bytes_per_s", [index], shown)
        if abs(ratio - 8) <= 0.16 or abs(ratio - 1 / 8) <= 0.0025:  # off by exactly a factor of 8: bits read as bytes
            result = compare(doc, second, value, "bandwidth_bytes_per_s", [index], shown)
            if result.verdict == "inconsistent":
                bits = first if _BITS.search(first.unit) else second
                result.why = messages(doc.lang)["verdicts"]["bits_bytes"].format(
                    first=bits.quote, computed=restate.value("bandwidth_bytes_per_s", value), stated=second.quote)
            return result
        return Result([index])  # another factor: per link vs per node, perhaps; no finding
    return None
