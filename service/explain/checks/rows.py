"""A table row that states its own gain: "70B 956 1430 50%" under a "Percent gain" header is 1430 / 956 - 1 = 49.6%,
allowing for the rounding of the figures as written ("29K 35K 18%": 29K and 35K are rounded to the thousand)."""

import re

from service.explain import restate
from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_HEADER = re.compile(r"\bgain\b|\bspeed-?up\b|\bimprovement\b|\bincrease\b|\bfaster\b|\buplift\b|تحسن|زيادة|تسريع|مكسب", re.I)
_ROWS_UP = 12  # a header farther up than this is another table's
_SIZES = ("params", "active_params")  # the row's label (a model size), not a value of its columns
_WRITTEN = re.compile(r"(\d+(?:,\d{3})*)(?:\.(\d+))?")


def _half_unit(fig) -> float:
    """Half a unit of the last digit a figure is written to, in its value's units ("29K": 500; "956": 0.5; "2.5": 0.05)."""
    m = _WRITTEN.match(fig.quote.strip())
    written = float((m.group(1) + "." + (m.group(2) or "0")).replace(",", "")) if m else 0.0
    if not written:
        return 0.0
    return 0.5 * 10 ** -len(m.group(2) or "") * fig.value / written  # value / written: the scale the reader applied


def row_gain(doc: Document, claim: Claim) -> Result | None:
    """Two like values and a percent on one table row whose header speaks of a gain: the gain redone within rounding."""
    if "\n" in claim.quote.strip() or "." in claim.quote.strip().rstrip(".")[-1:]:
        return None
    above = []  # the lines of the table above the row, up to its header (a blank line ends the table)
    for line in doc.text[:claim.start].splitlines()[::-1][1:] if not doc.text[:claim.start].endswith("\n") \
            else doc.text[:claim.start].splitlines()[::-1]:
        if not line.strip() or len(above) >= _ROWS_UP:
            break
        above.append(line)
    if not any(_HEADER.search(line) for line in above):
        return None
    values = [f for f in claim.figures if f.quantity not in _SIZES and f.quantity not in ("percent", "ratio", "tp_degree", "pp_degree")]
    factors = [f for f in claim.figures if f.quantity == "ratio"]  # "1.2 tok/s 1.6 tok/s 1.33x": a speed-up column
    shares = factors or [f for f in claim.figures if f.quantity == "percent"]
    if len(values) != 2 or len(shares) != 1 or shares[0].start < values[1].end or values[0].value <= 0:
        return None
    old, new = values
    if factors:
        return _factor(doc, old, new, factors[0])
    index = worked(doc, f"{new.value:g} / {old.value:g} - 1", f"{new.quote} / {old.quote} - 1")
    if index is None:
        return None
    gain = doc.calculations[index]["outputs"]["value"]
    lo = (new.value - _half_unit(new)) / (old.value + _half_unit(old)) - 1
    hi = (new.value + _half_unit(new)) / (old.value - _half_unit(old)) - 1
    stated = shares[0].value
    if not lo - 0.005 <= stated <= hi + 0.005:
        return Result([index], None, None)  # outside what the rounding allows: a gain measured otherwise, not judged here
    m = messages(doc.lang)["verdicts"]
    key = "row_gain_rounded" if hi - lo > 0.02 else "row_gain"
    return Result([index], "consistent", m[key].format(
        old=old.quote, new=new.quote, gain=restate.value("mfu", gain), lo=restate.value("mfu", lo), hi=restate.value("mfu", hi),
        stated=shares[0].quote))


def _factor(doc: Document, old, new, stated) -> Result | None:
    """A row's speed-up column ("1.2 tok/s 1.6 tok/s 1.33x"): new / old against it, within the rounding of all three."""
    index = worked(doc, f"{new.value:g} / {old.value:g}", f"{new.quote} / {old.quote}")
    if index is None:
        return None
    factor = doc.calculations[index]["outputs"]["value"]
    lo = (new.value - _half_unit(new)) / (old.value + _half_unit(old))
    hi = (new.value + _half_unit(new)) / (old.value - _half_unit(old))
    if not lo - _half_unit(stated) <= stated.value <= hi + _half_unit(stated):
        return Result([index], None, None)  # outside the rounding: measured otherwise (a mean of runs), not judged here
    return Result([index], "consistent", messages(doc.lang)["verdicts"]["row_factor"].format(
        old=old.quote, new=new.quote, factor=f"{factor:.3g}x", stated=stated.quote))
