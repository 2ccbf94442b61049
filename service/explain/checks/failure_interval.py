"""How often a run was interrupted: its stated time over its stated count of failures ("419 interruptions in 54
days" is one every 3.1 hours), said in words, never judged (the text states no interval to check); and a fleet's
interval from one device's ("once every 50,000 hours" on each of 100,000 GPUs is one failure every 30 minutes)."""

import re

from service.explain import restate
from service.explain.checks.core import Result, as_written, duration, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

SHORTEST_RUN_S = 3600.0  # a span under an hour is a step's or a request's time, not the run's


def failure_interval(doc: Document, claim: Claim) -> Result | None:
    """One count of failures and one span of time in the sentence: the span over the count."""
    failures = [f for f in claim.figures if f.quantity == "n_failures" and f.value >= 1]
    every = _intervals(doc, claim)  # "roughly one every three hours": the interval the text states, to check
    spans = [f for f in claim.figures if f.quantity == "time_s" and f.value >= SHORTEST_RUN_S and f not in every]
    if len(failures) != 1 or len(spans) != 1 or claim.calculations:
        return None
    count, span = failures[0], spans[0]
    index = worked(doc, f"{as_written(span)} / {count.value:g}", f"{said(doc, span)} / {said(doc, count)}", "seconds")
    if index is None:
        return None
    interval = doc.calculations[index]["outputs"]["value"]
    words = messages(doc.lang)["verdicts"]
    shown = {"span": said(doc, span), "count": said(doc, count), "interval": duration(doc, interval, interval)}
    stated = [f for f in every if f.start > count.start and f.value < span.value] or _restated_after(doc, claim, span)
    if len(stated) != 1:
        return Result([index], None, words["failure_interval"].format(**shown))
    shown["stated"] = said(doc, stated[0])
    if abs(interval / stated[0].value - 1) <= FLEET_TOLERANCE:  # "roughly one every three hours" for 3.1 hours
        return Result([index], "consistent", words["failure_interval_consistent"].format(**shown))
    return Result([index], None, words["failure_interval_gap"].format(**shown))  # the text may count differently


def _restated_after(doc: Document, claim: Claim, span) -> list:
    """The interval the next sentence states of this one ("419 interruptions across a 54-day run. That's one failure
    every ~3 hours"): its one time written as an interval, when it opens by pointing back."""
    later = [c for c in doc.claims if c.start >= claim.end]
    if not later or doc.text[claim.end:later[0].start].strip(" .;\n") or not _POINTS_BACK.match(later[0].quote):
        return []
    return [f for f in _intervals(doc, later[0]) if f.value < span.value][:1]


# "On average, something went wrong about every three hours" (round 96 P22): the same run's interval, averaged
_POINTS_BACK = re.compile(r"\s*(?:that['’]?s|that is|this is|i\.e\.|or|which is|on average)\b", re.I)


# "fails once every 50,000 hours", "a failure every 30 minutes": a time written as an interval between failures
_EVERY = re.compile(r"(?:\b(?:once\s+)?every|\bMTBF\b[^.\n]{0,20}|كل)\s+(?:~\s*|≈\s*|(?:about|roughly|around|nearly)\s+)?$", re.I)
_FAILS = re.compile(r"\bfail\w*|\binterrupt\w*|\bcrash\w*|\bMTBF\b|\bMTTF\b|\bMTBI\b|عطل|أعطال|يتعطل|تتعطل|انقطاع", re.I)
_ONE_DEVICE = re.compile(r"\b(?:a single|one|each|every|a|an)\s+(?:\w+\s+){0,2}?(?:GPUs?|chips?|accelerators?|nodes?|servers?)\b"
                         r"|(?:وحدة|شريحة|خادم)\s+(?:\S+\s+){0,2}?(?:واحدة|واحد)", re.I)


def _intervals(doc: Document, claim: Claim) -> list:
    """The claim's times written as intervals ("every 30 minutes"), in order."""
    return [f for f in claim.figures if f.quantity == "time_s" and f.value > 0
            and _EVERY.search(doc.text, max(0, f.start - 30), f.start)]


def fleet_interval(doc: Document, claim: Claim) -> Result | None:
    """One device's interval between failures and a fleet's ("a single GPU fails once every 50,000 hours, a cluster of
    100,000 GPUs will face a failure every 30 minutes"): with failures independent, the fleet's is the device's over
    the number of devices; agreeing is said consistent, a gap is said without a verdict (the text may assume more)."""
    if not _FAILS.search(claim.quote) or not _ONE_DEVICE.search(claim.quote):
        return None
    intervals = _intervals(doc, claim)
    fleets = [f for f in claim.figures if f.quantity == "n_chips" and f.value > 1]
    if len(intervals) < 2 or not fleets:
        return None
    device = intervals[0]
    fleet = fleets[0]
    stated = next((f for f in intervals[1:] if f.start > fleet.end), None)
    if stated is None or not device.end <= fleet.start:
        return None  # the device's interval first, then the fleet's size, then the fleet's interval
    scale = 3600.0 if _HOURS.search(device.quote) else 1.0  # "50,000 hours / 100,000 = 0.5", not seconds
    index = worked(doc, f"{device.value / scale:g} / {fleet.value:g}", f"{said(doc, device)} / {said(doc, fleet)}")
    if index is None:
        return None
    computed = doc.calculations[index]["outputs"]["value"] * scale
    time = (lambda f: said(doc, f) if restate.same_language(f.quote, doc.lang) else duration(doc, f.value, f.value))  # noqa: E731
    shown = {"device": time(device), "n": said(doc, fleet), "computed": duration(doc, computed, computed), "stated": time(stated)}
    key = "fleet_interval" if abs(computed / stated.value - 1) <= FLEET_TOLERANCE else "fleet_interval_gap"
    return Result([index], "consistent" if key == "fleet_interval" else None, messages(doc.lang)["verdicts"][key].format(**shown))


_HOURS = re.compile(r"\bhours?\b|\bhrs?\b|ساعة|ساعات", re.I)
FLEET_TOLERANCE = 0.15  # "about" and rounding to a whole minute or hour


MIN_INTERVAL_S = 60.0  # an interval between failures is minutes at least; a shorter time is a step's or a message's


def _sized_interval(doc: Document, claim: Claim):
    """The claim's one cluster size and one interval between failures ("At 1,024 GPUs, MTBF drops to about 8 hours")."""
    if not _FAILS.search(claim.quote) or _ONE_DEVICE.search(claim.quote):
        return None
    sizes = [f for f in claim.figures if f.quantity == "n_chips" and f.value > 1]
    times = [f for f in claim.figures if f.quantity == "time_s" and f.value >= MIN_INTERVAL_S]
    if len(sizes) != 1 or len(times) != 1:
        return None
    # the time must be the interval ("MTBF is around 47 days", "one failure every 3 hours"), not the run's length
    # ("16,000 GPUs over 54 days saw 419 interruptions": 54 days x 16,000 / 1,024 was shown as an interval)
    before, after = doc.text[claim.start:times[0].start], doc.text[times[0].end:times[0].end + 40]
    named = _NAMED_INTERVAL.search(before) or _NAMED_AFTER.match(after)  # "MTTF is 7.9 hours", "7.9 hours MTTF at 1,024 GPUs"
    return (sizes[0], times[0]) if named or times[0] in _intervals(doc, claim) else None


_NAMED_AFTER = re.compile(r"\s*(?:of\s+)?(?:MTBF|MTTF|MTBI|mean[- ]time[- ](?:between|to)[- ](?:failures?|interruptions?))\b", re.I)


_NAMED_INTERVAL = re.compile(r"\b(?:MTBF|MTTF|MTBI|mean time (?:between|to) (?:failures?|interruptions?)|interval between failures)\b"
                             r"[^.\n]{0,40}$|متوسط الوقت بين الأعطال[^.\n]{0,40}$", re.I)


def fleet_scaling(doc: Document, claim: Claim) -> Result | None:
    """A cluster's interval between failures against the nearest earlier one the text gives for another size ("At 8
    GPUs, MTBF is around 47 days. At 1,024 GPUs, MTBF drops to about 8 hours."): with failures independent, the
    interval falls in proportion to the number of devices, 47 days x 8 / 1,024 = 8.8 hours; agreeing within 25% is
    consistent, a larger gap is said without a verdict, with the way it departs (failures rise more slowly or faster)."""
    pair = _sized_interval(doc, claim)
    if pair is None or claim.calculations:
        return None
    size, stated = pair
    earlier = [p for c in doc.claims[:doc.claims.index(claim)] if (p := _sized_interval(doc, c)) and p[0].value != size.value]
    if not earlier:
        return None
    base_size, base_time = earlier[-1]
    index = worked(doc, f"{as_written(base_time)} * {base_size.value:g} / {size.value:g}",
                   f"{said(doc, base_time)} × {said(doc, base_size)} / {said(doc, size)}", "seconds")
    if index is None:
        return None
    computed = doc.calculations[index]["outputs"]["value"]
    time = (lambda f: said(doc, f) if restate.same_language(f.quote, doc.lang) else duration(doc, f.value, f.value))  # noqa: E731
    shown = {"interval": time(base_time), "n": said(doc, base_size), "m": said(doc, size),
             "computed": duration(doc, computed, computed), "stated": time(stated)}
    m = messages(doc.lang)["verdicts"]
    if abs(stated.value / computed - 1) <= SCALING_TOLERANCE:
        return Result([index], "consistent", m["fleet_scaling"].format(**shown))
    key = "fleet_scaling_slower" if stated.value > computed else "fleet_scaling_faster"
    return Result([index], None, m[key].format(**shown))


SCALING_TOLERANCE = 0.25  # intervals said "around", "about", rounded to whole hours or days
