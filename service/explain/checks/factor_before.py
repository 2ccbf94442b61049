"""Factors a sentence states about the figures of the sentences just before it ("The MI300X carries 192 GB of HBM3 at
5.3 TB/s. The H100 carries 80 GB at 3.35 TB/s. That's 2.4x the capacity and roughly 1.6x the bandwidth."): each factor
redone from the two figures of the kind its noun names (192 / 80 = 2.4x; 5.3 / 3.35 = 1.58x), within its rounding."""

import re

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Result, worked_pair
from service.explain.document import Claim, Document
from service.i18n.messages import messages

SENTENCES_BACK = 2  # the figures a "that's" points back to are in the one or two sentences before it
_POINTS_BACK = re.compile(r"^\s*(?:that(?:'s|’s|\s+is|\s+was)|this\s+(?:is|was)|which\s+is|it(?:'s|’s|\s+is)|these\s+are|those\s+are|"
                          # "This means we're only getting a 1.78x speedup", "This amounts to a 1.94x speedup"
                          r"(?:this|that|which|it)\s+(?:means|meant|amounts\s+to|works\s+out\s+to|comes\s+to|translates\s+to|gives))\b", re.I)
# "where we'd expect a 2x speedup", "ideally 2x": a factor the author expected, not one worked out from the figures
_EXPECTED = re.compile(r"\b(?:expect(?:s|ed)?|ideal(?:ly)?|theoretical(?:ly)?|would|should|target(?:ed)?|hope[ds]?|want(?:ed)?)\b[^.;]{0,25}$", re.I)
_SPEEDUP = re.compile(r"^\s*(?:(?:training|inference|throughput|end-to-end)\s+)?(?:speed-?ups?|faster|slow-?downs?)\b", re.I)
_APPROX = re.compile(r"\b(?:roughly|about|around|approximately|nearly|almost|close to)\s*$|~\s*$", re.I)
# the noun after a factor ("2.4x the capacity", "1.6x more bandwidth") and the kinds of figure it compares
_NOUNS = (
    (re.compile(r"^\s*(?:the\s+|more\s+|as\s+much\s+)?(?:memory\s+)?(?:capacity|memory|HBM|VRAM)\b", re.I), ("memory",)),
    (re.compile(r"^\s*(?:the\s+|more\s+|as\s+much\s+)?(?:memory\s+)?bandwidth\b", re.I), ("bandwidth", "memory_bandwidth")),
    (re.compile(r"^\s*(?:the\s+|more\s+|as\s+much\s+)?(?:compute|FLOPS|TFLOPS|FLOP/s|peak)\b", re.I), ("compute_rate",)),
    (re.compile(r"^\s*(?:the\s+|more\s+|as\s+much\s+)?(?:throughput|tokens)\b", re.I), ("throughput",)),
)
_WRITTEN = re.compile(r"\d+(?:\.(\d+))?")
# "The PP8 result is therefore about 13.4x slower": a sentence that sums up the ones before with a factor and a
# comparative; the comparative names no quantity, so the one kind with exactly two figures before it is compared
_SUMS_UP = re.compile(r"\b(?:therefore|thus|hence|so|overall)\b", re.I)
_COMPARATIVE = re.compile(r"^\s*(?:slower|faster|quicker|longer|shorter)\b", re.I)
_THAN = re.compile(r"^\s*(?:slower|faster|quicker|longer|shorter|larger|smaller|more|less|higher|lower)\s+than\b", re.I)
_TIMED = ("time", "ttft_s", "throughput")

# "a 33x speedup in under two years": the span the change took, not an amount the sentence compares (round 94 P18)
_SPAN = re.compile(r"\b(?:in|over|within)\s+(?:just\s+|only\s+|under\s+|less\s+than\s+|about\s+|roughly\s+|over\s+)?$", re.I)
_CALENDAR = re.compile(r"\b(?:years?|months?|weeks?|days?)\b", re.I)
_AMOUNTS = {kind for _, kinds in _NOUNS for kind in kinds} | set(_TIMED)


def _kind(fig) -> str:
    """A figure's kind, memory bandwidth counted with other bandwidths ("5.3 TB/s of HBM3" against "3.35 TB/s")."""
    return "memory_bandwidth" if fig.quantity == "memory_bandwidth_bytes_per_s" else verdicts.kind(fig.quantity)


def _before(doc: Document, claim: Claim) -> list:
    """The figures of the (up to two) sentences right before the claim, within its paragraph."""
    spans = [(a, b) for a, b in doc.sentences if b <= claim.start]
    # "Same hardware. No new chips. Pure software.": short asides without a figure do not count as sentences back
    counted = [(a, b) for a, b in spans if len(doc.text[a:b].split()) >= 4 or any(a <= f.start < b for f in doc.figures)]
    starts = [a for a, _ in counted[-SENTENCES_BACK:]]
    if not starts:
        return []
    start = starts[0]
    if "\n\n" in doc.text[start:claim.start]:
        start = doc.text.rindex("\n\n", start, claim.start)
    return [f for f in doc.figures if start <= f.start and f.end <= claim.start and f.value > 0]


def _same_unit(like: list) -> list:
    """Two of three or more like figures when only they share a written unit ("take out the 4s constant term, you get
    37ms ... and 19ms ...": the two in ms are the pair); all of them otherwise."""
    if len(like) <= 2:
        return like
    by_unit = {}
    for fig in like:
        by_unit.setdefault(fig.unit, []).append(fig)
    pairs = [group for group in by_unit.values() if len(group) == 2]
    return pairs[0] if len(pairs) == 1 and len(by_unit) == len(like) - 1 else like


def factor_before(doc: Document, claim: Claim) -> Result | None:
    """"That's 2.4x the capacity", "therefore 13.4x slower": the two figures of that kind just before, the larger over
    the smaller."""
    factors = list(verdicts.STATED_FACTOR.finditer(claim.quote))
    if claim.calculations or not factors or not (_POINTS_BACK.match(claim.quote) or _SUMS_UP.search(claim.quote[:factors[0].start()])):
        return None
    if any(_kind(f) in _AMOUNTS and not (_SPAN.search(claim.quote[:f.start - claim.start]) and _CALENDAR.search(f.quote))
           for f in claim.figures):
        return None  # amounts of its own: the sentence compares them itself ("PP8" names a layout, no amount)
    earlier = _before(doc, claim)
    words = messages(doc.lang)["verdicts"]
    found, said, consistent = [], [], True
    for m in factors:
        if any(a < m.start() < b for a, b in restate.quoted_spans(claim.quote)) or _THAN.match(claim.quote[m.end():]):
            continue  # "the 'HF EP is 6x slower than CP' framing": someone's words, about what "than" names, not the rows before
        if _EXPECTED.search(claim.quote[:m.start()]):
            continue  # "where we'd expect a 2x speedup": what was hoped for, which the figures need not give
        kinds = next((k for pattern, k in _NOUNS if pattern.match(claim.quote[m.end():])), None)
        if kinds is None and (_COMPARATIVE.match(claim.quote[m.end():]) or _SPEEDUP.match(claim.quote[m.end():])):
            paired = [k for k in _TIMED if len(_same_unit([f for f in earlier if _kind(f) == k])) == 2]
            kinds = tuple(paired) if len(paired) == 1 else None  # times and throughputs both paired: which one is unsaid
        like = _same_unit([f for f in earlier if _kind(f) in kinds] if kinds else [])
        if len(like) != 2 or like[0].value == like[1].value:
            continue
        big, small = sorted(like, key=lambda f: -f.value)
        index = worked_pair(doc, "{b} / {s}", big, small, f"{big.quote} / {small.quote}")
        if index is None:
            continue
        computed, stated = doc.calculations[index]["outputs"]["value"], float(m["f"])
        digits = _WRITTEN.match(m["f"]).group(1) or ""
        slack = 0.5 * 10 ** -len(digits) + (0.02 * stated if _APPROX.search(claim.quote[:m.start()]) else 0.005 * stated)
        agrees = abs(computed - stated) <= slack
        consistent = consistent and agrees
        shown = {"x": big.quote, "y": small.quote, "computed": f"{computed:.2f}".rstrip("0").rstrip(".") + "x",
                 "stated": m.group(0).strip()}
        found.append(index)
        said.append(words["factor_before" if agrees else "factor_before_gap"].format(**shown))
    if not found:
        return None
    if len(found) == 1 and consistent and _POINTS_BACK.match(claim.quote):
        first, second = sorted((big, small), key=lambda f: f.start)
        doc.referents[claim.start] = (first.quote, second.quote)
    return Result(found, "consistent" if consistent else None, "; ".join(said))  # a gap is said, not judged
