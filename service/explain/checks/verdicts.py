"""The verdict policy every checker follows, read from data/verdicts.json: kinds of quantity, tolerances, physical bounds."""

import json
import re
from functools import cache

from calculators.resources import data_dir
from service.i18n.messages import messages

# a factor a sentence writes: "1.8x", "3-fold", "14 times", "14 ضعفاً", "3 مرات"
STATED_FACTOR = re.compile(r"(?<![\w.,])(?P<f>\d+(?:\.\d+)?)\s*(?:x|×|-fold\b|\s+times\b|\s*مرة|\s*مرات|\s*ضعف[اً]*|\s*أضعاف)(?!\w)", re.I)


@cache
def table() -> dict:
    """data/verdicts.json, parsed once."""
    return json.loads((data_dir() / "verdicts.json").read_text(encoding="utf-8"))


@cache
def _kinds() -> dict[str, str]:
    return {q: kind for kind, quantities in table()["kinds"].items() if not kind.startswith("_") for q in quantities}


def kind(quantity: str) -> str:
    """The kind of quantity a figure or an output measures (memory, throughput, ...); an unlisted quantity is its own kind."""
    return _kinds().get(quantity, quantity)


def same_kind(a: str, b: str) -> bool:
    return kind(a) == kind(b)


def bound(quantity: str) -> tuple[dict, str] | None:
    """The physical bound a value of `quantity` must respect and the kind it is the bound of, or None."""
    bounds = table()["bounds"]
    for name, entry in bounds.items():
        if not name.startswith("_") and quantity in entry.get("quantities", ()):
            return entry, name
    entry = bounds.get(kind(quantity))
    return (entry, kind(quantity)) if isinstance(entry, dict) else None


def possible(quantity: str, value: float) -> bool:
    """Whether a value of `quantity` is physically possible (MFU in (0, 1], times, rates and sizes positive, memory within reason)."""
    found = bound(quantity)
    if found is None or value is None:
        return True
    entry, _ = found
    low, high = entry.get("low"), entry.get("high")
    if low is not None and (value < low or (entry.get("low_open") and value == low)):
        return False
    return high is None or value <= high


def agrees(stated: float, computed: float, approx: bool) -> bool:
    """A stated measurement against a calculation: within the measurement tolerance (wider for 'about')."""
    rule = table()["tolerances"]["measurement"]
    share = rule["share"] * (rule["approx_factor"] if approx else 1)
    return abs(computed - stated) <= share * abs(stated) + (rule["fraction_slack"] if abs(stated) <= 1 else 0)


_BYTE_UNITS = re.compile(r"(?<![A-Za-z])[KMGTP]i?B\b")


_UNIT_POWER = re.compile(r"\d\s*([KMGT])i?B\b", re.I)
_POWERS = {"K": 1, "M": 2, "G": 3, "T": 4}


def binary_units(text: str, stated: float, computed: float, tolerance: float, whole_unit: bool = False) -> int:
    """How many steps of a size worked in KB/MB/GB are powers of 1,024 when that, and not the decimal reading, makes it
    agree, or agree far closer ("320 KB * 131,072 = 40 GB" is 40 GiB: 2; "320 KB * 4,096 = 1.28 GB" divides by 1,024 once:
    1; "128 KB × 4096 = ~512 MB" is 512 MiB exactly, not 524.3 MB "about" right: 1); 0 otherwise. With `whole_unit` (the
    factors carry no unit of their own) only the stated unit's whole power counts: MB is 1,024^2, GB 1,024^3."""
    if not _BYTE_UNITS.search(text) or stated <= 0:
        return 0
    errors = [abs(computed / 1.024 ** k - stated) / stated for k in (0, 1, 2, 3)]
    best = min(range(4), key=errors.__getitem__)
    unit = _UNIT_POWER.search(text)
    if whole_unit and (unit is None or best != _POWERS[unit.group(1).upper()]):
        return 0  # "8k x 5120 x 2 bytes = 80MB": bare factors, so MB as MiB is 1,024^2, never one 1.024 that happens to fit
    if errors[0] <= tolerance and not (best and errors[best] < errors[0] / 4):
        return 0  # "128 KB × 4096 = ~512 MB" agrees either way, but exactly as 512 MiB: the reading that fits is shown
    return best if errors[best] <= tolerance else 0


def scale_contrast(a: float, b: float) -> bool:
    """Whether two like figures are a thousand times apart or more ("the final bucket is 25MB ... the final 1KB"): a
    contrast of scale a sentence makes in words, not a comparison whose ratio a reader asked for (round 57 P20)."""
    low, high = sorted((abs(a), abs(b)))
    return low > 0 and high / low >= 1000


def misread(stated: float, computed: float) -> bool:
    """Whether a stated figure and a calculation are too far apart to be the author's slip (data/verdicts.json
    misreading_gap): the figures were paired wrongly, so nothing is judged."""
    factor = table()["misreading_gap"]["factor"]
    a, b = abs(stated), abs(computed)
    return a > 0 and b > 0 and max(a, b) > factor * min(a, b)


def arithmetic_tolerance(rounding: float, approx: bool) -> float:
    """Written arithmetic: the table's share, the rounding of the last written digit, or the wider share for 'about'."""
    rule = table()["tolerances"]["written_arithmetic"]
    return max(rule["share"], rounding if rule["last_digit"] else 0.0, rule["approx_share"] if approx else 0.0)


def estimate_agrees(stated: float, computed: float) -> bool:
    """A measurement against the layout planner's estimate: flagged only beyond the table's factor."""
    rule = table()["tolerances"]["estimate"]
    ratio = stated / computed if computed else 0
    return rule["low"] <= ratio <= rule["high"]


def grounded(sources: dict) -> bool:
    """Whether at least one input of a calculation comes from the text (or is derived from it)."""
    allowed = set(table()["grounding"]["text_sources"])
    return any(s.get("source") in allowed for s in sources.values())


def assumed_inputs(sources: dict) -> list[str]:
    """The inputs the explainer assumed for a calculation (a calculator's own convention for an unstated field is not one)."""
    return [name for name, s in sources.items() if s.get("source") == "assumed" and not s.get("calculator_default")]


@cache
def _bound_words() -> dict[str, re.Pattern]:
    rule = table()["stated_bounds"]
    patterns = {side: re.compile(f"({rule[side]})\\s*$", re.I) for side in ("more", "less")}
    patterns["negated"] = re.compile(rule["negated"], re.I)
    return patterns


# "theoretical value (100 GB/s)", "the expected 2x", "peak of 989 TFLOP/s": the figure a measured one is a share of
_REFERENCE = re.compile(r"\b(?:theoretical(?:ly)?|expected|ideal|peak|max(?:imum)?|spec(?:ified)?|advertised|rated|nominal|"
                        r"line[- ]rate|target)\b[^.;\n]{0,25}$", re.I)


def reference(text: str, figure) -> bool:
    """Whether the text calls the figure a reference (theoretical, expected, peak) just before it."""
    return bool(_REFERENCE.search(text[max(0, figure.start - 40):figure.start]))


def stated_bound(before: str) -> tuple[str, str] | None:
    """('more' or 'less', the text's words) when the words just before a stated figure make it a floor or a ceiling
    ("more than 24 times", "up to 3x"; data/verdicts.json "stated_bounds"), else None."""
    patterns = _bound_words()
    for side in ("more", "less"):
        found = patterns[side].search(before)
        if found and not patterns["negated"].search(before[:found.start()]):
            return side, found.group(1)
    return None


# "+1.46% end-to-end decode throughput" after a kernel's 105.8 -> 80.7 µs: a change of the whole program, not of the pair
OTHER_SCOPE = re.compile(r"\s*(?:in\s+)?(?:end-to-end|end to end|e2e|overall|in total|total|whole-(?:model|program|step))\b", re.I)
_RANGE_LOW = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*[–-]\s*$")


def range_or_bound(before: str) -> tuple[str, str] | None:
    """("range:2", "2–") when the stated figure closes a range ("2–3x higher"), else stated_bound's floor or ceiling."""
    low = _RANGE_LOW.search(before)
    return (f"range:{low.group(1)}", before[low.start():].rstrip()) if low else stated_bound(before)


def within_bound(side: str, computed: float, stated: float, tolerance: float) -> bool:
    """Whether a calculation meets a stated floor ('more') or ceiling ('less'), or falls in a range ('range:low'), with
    the tolerance's slack."""
    if side.startswith("range:"):
        return float(side[6:]) * (1 - tolerance) <= computed <= stated * (1 + tolerance)
    return computed >= stated * (1 - tolerance) if side == "more" else computed <= stated * (1 + tolerance)


def unshown(why: str, lang: str) -> bool:
    """Whether a 'needs_more' reason is our own doubt about the reading (data/verdicts.json 'unshown'), kept out of the markdown."""
    templates = messages(lang)["verdicts"]
    heads = [templates[key].split("{")[0].strip().lower() for key in table()["unshown"]["reasons"]]
    return any(head and why.strip().lower().startswith(head) for head in heads)
