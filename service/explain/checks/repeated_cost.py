"""A total time the text works out from a count and a cost it stated a sentence before for one of the things counted:
"a single all-reduce ... can run 80-120 µs. Do the math across 32 transformer layers with two all-reduces each: you
are now spending roughly 5-8 ms per forward pass" is 32 x 2 x 80-120 µs = 5.1-7.7 ms (round 85's readers asked for
it). Only agreement is said: a count and a time that merely sit near each other must never read as the author's error."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import TIME_QUANTITIES, Result, discard, said, worked
from service.explain.checks.steps_time import one_or_range, spoken
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                 "twelve": 12, "sixteen": 16}
_COUNTS = ("n_layers", "number", "count", "n_chips", "n_nodes", "n_microbatches", "steps", "n_experts", "n_requests")
# right after the count: "32 transformer layers with two all-reduces each", "32 layers, each with 2 all-gathers"
_EACH = re.compile(r"\s*,?\s*(?:(?:with|having|doing|running)\s+(?P<k1>\d+|[a-z]+)\s+(?P<e1>[\w-]+?)(?:e?s)?\s+(?:each|apiece|per\s+\w+)\b"
                   r"|each\s+(?:with|having|doing|running|needing)\s+(?P<k2>\d+|[a-z]+)\s+(?P<e2>[\w-]+?)(?:e?s)?\b)", re.I)
_UNIT_SCALE = (("ns", 1e-9), ("µs", 1e-6), ("μs", 1e-6), ("us", 1e-6), ("ms", 1e-3), ("s", 1.0), ("min", 60.0), ("h", 3600.0))
_BEFORE = 400  # characters before the claim in which the one thing's cost is looked for


def _per_one(doc: Document, claim: Claim, stem: str) -> tuple | None:
    """The time the text gives a sentence before for one of the repeated things ("a single all-reduce ... 80-120 µs")."""
    start = max(0, claim.start - _BEFORE)
    one = list(re.finditer(rf"\b(?:a\s+single|one|each|every|a|an)\s+(?:[\w-]+\s+){{0,2}}?{re.escape(stem)}\w*\b", doc.text[start:claim.start], re.I))
    if not one:
        return None
    begin = start + one[-1].start()
    stop = re.search(r"[.!?](?:\s|$)|\n", doc.text[begin:claim.start])
    end = begin + stop.end() if stop else claim.start
    return one_or_range([f for f in doc.figures if begin <= f.start < end and f.quantity in TIME_QUANTITIES and f.value > 0])


def _plural_tail(text: str, each) -> str:
    """The plural ending the match left after the stem ("all-reduc" + "es")."""
    end = each.end("e1" if each.group("k1") else "e2")
    return re.match(r"e?s?", text[end:]).group(0)


def _unit(fig) -> tuple[str, float]:
    """The unit the text writes a time in ("8 ms"), to say the working's result in it."""
    written = re.sub(r"[\d.,\s~≈-]", "", fig.quote)
    return next(((u, s) for u, s in _UNIT_SCALE if written == u), ("s", 1.0))


def repeated_cost(doc: Document, claim: Claim) -> Result | None:
    """Count x times each x one's time against the total the sentence states after them; said only where they agree."""
    if claim.calculations:
        return None
    for count in claim.figures:
        if count.quantity not in _COUNTS or count.value < 2 or not float(count.value).is_integer():
            continue
        each = _EACH.match(doc.text, count.end)
        if not each:
            continue
        times_word, stem = (each.group("k1"), each.group("e1")) if each.group("k1") else (each.group("k2"), each.group("e2"))
        times = float(times_word) if times_word.isdigit() else _NUMBER_WORDS.get(times_word.lower())
        cost = _per_one(doc, claim, stem) if times and len(stem) >= 3 else None
        stated = one_or_range([f for f in claim.figures if f.start >= each.end() and f.quantity in TIME_QUANTITIES and f.value > 0])
        if cost is None or stated is None:
            continue
        indexes = []
        for one in dict.fromkeys(cost):
            index = worked(doc, f"{count.value:g} * {times:g} * {one.value:g}", f"{count.quote} × {times_word} × {one.quote}")
            if index is None:
                break
            indexes.append(index)
        else:
            took = [doc.calculations[i]["outputs"]["value"] for i in indexes]
            low, high = min(took), max(took)
            if stated[0].value <= high * 1.05 and low * 0.95 <= stated[1].value \
                    or verdicts.agrees(stated[0].value, low, True) or verdicts.agrees(stated[1].value, high, True):
                unit, scale = _unit(stated[1])
                words = messages(doc.lang)["verdicts"]
                value = f"{low / scale:.3g} {unit}" if high - low <= 1e-9 * high else \
                    words["steps_time_range"].format(low=f"{low / scale:.3g}", high=f"{high / scale:.3g} {unit}")
                return Result(indexes, "consistent", words["repeated_cost_consistent"].format(
                    count=said(doc, count), each=doc.text[each.start("k1" if each.group("k1") else "k2"):each.end("e1" if each.group("k1") else "e2")].rstrip() + _plural_tail(doc.text, each), times=f"{times:g}", cost=spoken(doc, cost), took=value, stated=spoken(doc, stated)))
        for index in sorted(indexes, reverse=True):
            discard(doc, index)
    return None
