"""A count of units times each one's amount against the total the sentence states beside them: "768 GB of memory
(4 GPUs × 192 GB each)", "ستة وحدات بسعة 24 جيجابايت، بإجمالي 144 جيجابايت". Only agreement is said: which of a
sentence's figures is the total and which the part is read from its words, and a wrong pairing must never read as
the author's error."""

import re

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Result, as_written, duration, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# kinds that add up over units (memory, a link's or a memory's rate, power, tokens per second); FLOP/s totals are
# per_chip_total's
_ADDITIVE = {"memory", "bandwidth", "throughput", "power_w", "memory_bandwidth_bytes_per_s"}  # times: only with "each" (below)
# between the count and each unit's amount: "4 GPUs × 192 GB", "8 GPUs with 80 GB", "ستة وحدات ... بسعة 24 جيجابايت"
_TIMES = re.compile(r"(?<![A-Za-z])[x×*](?![A-Za-z])|\b(?:of|with|at|each\s+(?:with|of|at|has|having))\b|\bبسعة\b|\bسعة\b|\bكل\s+منها\b|\bبقدرة\b", re.I)
# after each unit's amount: "192 GB each", "80 GB per GPU", "24 جيجابايت لكل وحدة"
_EACH_AFTER = re.compile(r"\s*(?:each|apiece|per\s+(?:GPU|chip|card|device|node|server|rack|stack|unit|module|die|accelerator|link|port|lane|channel)s?\b"
                         r"|(?:chunk|block|shard|piece|file|page|bucket|segment|slice)s?\b"
                         r"|لكل\s|لكلٍّ?\s|لكل\s+منها|كل\s+منها)", re.I)
# "1.8 TB/s (TB/s) of bandwidth per GPU": the unit for each one said a few words on
_PER_SOON = re.compile(r"[^.;\n]{0,30}?\bper\s+(?:GPU|chip|card|device|node|link|port|lane)\b", re.I)
# before the total: "in total", "a total of", "provides", "بإجمالي", "إجمالي"
_TOTAL_BEFORE = re.compile(r"(?:\b(?:total(?:ing|ling|s)?(?:\s+of)?|in\s+all|combined|aggregate|altogether|provides?|giv(?:es|ing)|sum(?:s|ming)?\s+to)"
                           r"|بإجمالي|إجمالي|بمجموع|مجموعها|ليصل\s+المجموع\s+إلى)\s*(?:of\s+)?(?:about\s+|~\s*)?$", re.I)
_RESULT_UNIT = {"memory": "bytes", "bandwidth": "bytes_per_s", "memory_bandwidth_bytes_per_s": "bytes_per_s", "time": "seconds"}  # the working's unit
_NEAR = 48  # characters between the count and each unit's amount, in one phrase


_FACTOR_AFTER = re.compile(r"[x×](?![\w])|\s*(?:times|fold|ضعف|أضعاف|مرات|مرة)(?![\w])", re.I)  # "5x (16 GB to 80 GB)"


def _count(doc: Document, fig) -> bool:
    """A whole number of units: a chip count, or a bare number that counts something ("ستة وحدات", "4 stacks"),
    not a factor ("grown 5x from 16 GB to 80 GB")."""
    return fig.quantity in ("n_chips", "number", "n_links", "n_nodes") and 2 <= fig.value <= 1e6 and float(fig.value).is_integer() \
        and not (fig.quantity == "number" and _FACTOR_AFTER.match(doc.text, fig.end))


def _product_pairs(doc: Document, claim: Claim):
    """(count, each unit's amount) written as one phrase with a word of multiplication or "each" after the amount."""
    text = doc.text
    for count in claim.figures:
        if not _count(doc, count):
            continue
        for per in claim.figures:
            if per.start <= count.end or per.start - count.end > _NEAR or verdicts.kind(per.quantity) not in _ADDITIVE:
                continue
            between = text[count.end:per.start]
            if any(count.end <= f.start < per.start for f in claim.figures if verdicts.kind(f.quantity) in _ADDITIVE):
                continue  # the nearest amount after the count is its own
            if _TIMES.search(between) or _EACH_AFTER.match(text, per.end):
                yield count, per
            break
    # a time each, said after the count it belongs to ("140 sequential chunks (... load ≈ 25s each ≈ 58 min/sync)"):
    # one after another, the times add up; at once, they would not, and no total then agrees (only agreement is said)
    for per in claim.figures:
        if verdicts.kind(per.quantity) == verdicts.kind("time_s") and _EACH_AFTER.match(text, per.end) \
                and not text[per.end:per.end + 12].lstrip().lower().startswith(("per", "لكل")):
            counts = [f for f in claim.figures if f.end <= per.start and _count(doc, f)]
            if counts:
                yield counts[-1], per


def _each_before(doc: Document, claim: Claim):
    """(count, each unit's amount) when the amount is said per unit in the sentence before ("100GB/s per link." then "A GPU
    with 18 ports translates to 1.8 TB/s"): the count of this sentence, the amount of the one before."""
    earlier = [s for s in doc.sentences if s[1] <= claim.start]
    if not earlier:
        return
    start, end = earlier[-1]
    before = [f for f in doc.figures if start <= f.start < end and verdicts.kind(f.quantity) in _ADDITIVE
              and (_EACH_AFTER.match(doc.text, f.end) or _PER_SOON.match(doc.text, f.end))]
    for count in (f for f in claim.figures if _count(doc, f)):
        for per in before:
            yield count, per


def _with_unit(doc: Document, fig) -> str:
    """The figure as the text writes it, or with its unit where the text wrote a bare range end ("50-100 kW": 50 kW)."""
    partner = next((g for g in doc.figures if fig.role == "low" and 0 < g.start - fig.end <= 3), None)  # "50-100W"
    unit = re.sub(r"^[\d\s.,~≈]+", "", partner.quote) if partner is not None else ""
    return said(doc, fig) if re.search(r"[^\d\s.,~≈]", fig.quote) or not unit else f"{fig.quote} {unit.strip()}"


def per_unit_total(doc: Document, claim: Claim) -> Result | None:
    """Units x each one's amount against the total of the same kind the sentence states; consistent only."""
    if claim.calculations or any(f.quantity == "expression" for f in claim.figures):
        return None  # the sentence's own arithmetic ("64 × 840 GB = 53.8 TB") is redone already
    found: list[tuple[int, str]] = []
    used = set()
    for count, per in [*_product_pairs(doc, claim), *_each_before(doc, claim)]:
        totals = [f for f in claim.figures if f is not per and f.value > per.value and verdicts.same_kind(f.quantity, per.quantity)
                  and id(f) not in used]
        product = count.value * per.value
        total = next((f for f in totals if verdicts.agrees(f.value, product, getattr(f, "approx", False))), None)
        if total is None:
            continue
        cued = _TOTAL_BEFORE.search(doc.text, max(0, total.start - 30), total.start) or _EACH_AFTER.match(doc.text, per.end) \
            or per.end <= claim.start \
            or re.search(r"(?<![A-Za-z])[x×*](?![A-Za-z])", doc.text[count.end:per.start])
        if not cued:
            continue  # three numbers that happen to multiply, with no word saying one is the others' total
        index = worked(doc, f"{count.value:g} * {as_written(per)}", f"{count.quote} x {per.quote}",
                       _RESULT_UNIT.get(verdicts.kind(per.quantity)))
        if index is None:
            continue
        used.add(id(total))
        sign = "×" if doc.lang == "ar" else "x"
        exact = abs(product - total.value) <= 1e-9 * total.value  # then the total as the text writes it, in its language
        result = _with_unit(doc, total) if exact else duration(doc, product, product) if verdicts.kind(per.quantity) == "time" \
            else restate.value(per.quantity, product)
        found.append((index, f"{count.value:,.0f} {sign} {_with_unit(doc, per)} = {result}"))
    if not found:
        return None
    return Result([i for i, _ in found], "consistent",
                  messages(doc.lang)["verdicts"]["per_unit_total"].format(working="; ".join(w for _, w in found)))
