"""A memory stack's bandwidth from its pin speed: pin speed x interface width / 8 bits per byte, against the bandwidth
the text states (the width stated in the text, else the HBM generation's from data/memory_interfaces.json)."""

import json
import re
from functools import cache

from calculators.resources import data_dir

from service.explain import restate
from service.explain.checks.core import Inputs, Result, compare, run, unique
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# "a 1024-bit interface", "bus width of 2048 bits", "واجهة بعرض 1024 بت"
_WIDTH = re.compile(r"(\d{3,4})[- ]?bit\s+(?:wide\s+)?(?:interface|bus|I/O)|(?:interface|bus)\s+width\s+of\s+(\d{3,4})\s+bits?"
                    r"|(?:واجهة|ناقل)\s+بعرض\s+(\d{3,4})\s+بت", re.I)
_BANDWIDTHS = ("memory_bandwidth_bytes_per_s", "bandwidth_bytes_per_s")


@cache
def _generations() -> list[tuple[re.Pattern, int, str]]:
    """data/memory_interfaces.json: each HBM generation's pattern, interface bits per stack and the name matched."""
    data = json.loads((data_dir() / "memory_interfaces.json").read_text(encoding="utf-8"))
    return [(re.compile(r"(?<![\w])(?:" + g["names"] + r")(?![\w])"), int(g["bits"]), g["source"].split(" (")[0]) for g in data["hbm"]]


def _width(doc: Document, claim: Claim) -> tuple[int, str, bool] | None:
    """The interface width in bits, how the answer names its origin, and whether the text states it."""
    for text in (claim.quote, doc.text):
        found = _WIDTH.search(text)
        if found:
            bits = next(g for g in found.groups() if g)
            return int(bits), found.group(0), True
    for pattern, bits, source in _generations():
        named = pattern.search(doc.text)
        if named:
            return bits, f"{named.group(0)}, {source}", False
    return None


def pin_bandwidth(doc: Document, claim: Claim) -> Result | None:
    """"1.2 TB/s with a pin speed of 9.2 Gb/s" on HBM3: 9.2 Gb/s x 1024 pins / 8 = 1.18 TB/s, against the stated 1.2 TB/s."""
    pin = next((f for f in claim.figures if f.quantity == "pin_rate_bytes_per_s"), None)
    if pin is None:
        return None
    stated = next((f for f in claim.figures if f.quantity in _BANDWIDTHS), None) or unique(doc, claim, *_BANDWIDTHS)
    width = _width(doc, claim)
    if stated is None or width is None:
        return None  # no bandwidth to check, or no memory named whose width is known: nothing said
    bits, origin, from_text = width
    inputs = Inputs(doc.lang)
    expression = f"{pin.value * 8 / 1e9:g}e9 * {bits} / 8"
    if from_text:
        inputs.expression(expression, f"{pin.quote} x {origin} / 8")
    else:
        inputs.text_with("expression", expression, pin.quote, f"{bits} bits per stack ({origin}, data/memory_interfaces.json)")
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["value"]
    result = compare(doc, stated, value, stated.quantity, [index])
    if result.verdict in ("consistent", "inconsistent"):
        m = messages(doc.lang)["verdicts"]
        result.why = m["pin_bandwidth" if result.verdict == "consistent" else "pin_bandwidth_off"].format(
            # values restated in the calculators' units: an English answer to an Arabic text quotes no Arabic units
            pin=restate.value(pin.quantity, pin.value), bits=bits, origin=origin.split(",")[0],
            computed=restate.value("bandwidth_bytes_per_s", value), stated=restate.value("bandwidth_bytes_per_s", stated.value))
    return result
