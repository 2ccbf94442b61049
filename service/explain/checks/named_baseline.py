"""A change a sentence states for a named quantity over a named baseline, whose two figures stand in other sentences
("45% MFU." ... "61% higher MFU over the Foo baseline." ... "Foo's MFU was 29.4%."): redone as 45 / 29.4 - 1 = 53%."""

import re
from functools import cache

from service.explain.checks import verdicts
from service.explain.checks.arithmetic import tolerance_of
from service.explain.checks.core import Inputs, Result, run, said
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_STATED = ("percent_change", "speedup", "ratio")
_NAME = re.compile(r"\b[A-Za-z][\w.\-]*[A-Z0-9][\w.\-]*\b|\b[A-Z][\w.\-]+\b")  # a name: a capital or a digit in it
_NOT_NAMES = {"The", "This", "That", "Our", "Their", "We", "It", "A", "An", "GPU", "GPUs", "MFU", "HFU"}
_NEAR_NAME = 300  # how far before a figure its set-up's name may be said (the heading or sentence that introduces it)
_LOOK_BACK = 2  # the sentence a change restates ("That is 61% higher ...") is one of the two before it


@cache
def _rule() -> dict:
    """data/verdicts.json "named_baseline": the words that name a quantity, the cues for the baseline and the direction."""
    rule = verdicts.table()["named_baseline"]
    return {"subjects": [(re.compile(s["words"], re.I), s["kind"]) for s in rule["subjects"]],
            "over": re.compile(rule["over"], re.I), "up": re.compile(rule["up"], re.I), "down": re.compile(rule["down"], re.I)}


def _half_unit(fig) -> float:
    """Half a unit of the last digit the figure is written to, in its value's units ("29.4%": 0.0005; "45%": 0.005)."""
    m = re.search(r"(\d+(?:,\d{3})*)(?:\.(\d+))?", fig.quote)
    written = float((m.group(1) + "." + (m.group(2) or "0")).replace(",", "")) if m else 0.0
    return 0.5 * 10 ** -len(m.group(2) or "") * fig.value / written if written else 0.0


def _subject(claim: Claim, stated) -> str | None:
    """The kind of quantity the change is of: the quantity word right after the stated figure ("61% higher MFU", "3x
    throughput"), else right before it ("MFU up 61%")."""
    at, end = stated.start - claim.start, stated.end - claim.start
    for near in (claim.quote[end:end + 20], claim.quote[max(0, at - 16):at]):
        kinds = {kind for words, kind in _rule()["subjects"] if words.search(near)}
        if len(kinds) == 1:
            return kinds.pop()
        if kinds:
            return None
    return None


def named_baseline(doc: Document, claim: Claim) -> Result | None:
    """Each change the sentence states, of a quantity the passage gives exactly two figures of: one in a sentence the change
    restates (just before), the other said near the baseline's name. Anything less clear is not judged."""
    found = [r for r in (_one(doc, claim, f) for f in claim.figures if f.quantity in _STATED and f.value) if r is not None]
    if not found:
        return None
    verdict = "inconsistent" if any(v == "inconsistent" for _, v, _ in found) else "consistent"
    return Result([i for i, _, _ in found], verdict, "; ".join(w for _, v, w in sorted(found, key=lambda r: r[1] != "inconsistent")))


def _one(doc: Document, claim: Claim, change) -> tuple[int, str, str] | None:
    """(calculation, verdict, why) for one stated change, or None when its pair is not certain."""
    kind = _subject(claim, change)
    tail = claim.quote[change.end - claim.start:]
    over = _rule()["over"].search(tail)
    if kind is None or over is None or any(verdicts.kind(f.quantity) == kind for f in claim.figures):
        return None
    names = [n for n in _NAME.findall(tail[over.end():over.end() + 60]) if n not in _NOT_NAMES]
    up, down = _rule()["up"].search(tail[:over.start()]), _rule()["down"].search(tail[:over.start()])
    if not names or bool(up) == bool(down):
        return None
    index = doc.claims.index(claim) if claim in doc.claims else -1
    figures = [(c, f) for c in doc.claims if c is not claim for f in c.figures if verdicts.kind(f.quantity) == kind and f.value > 0]
    if len(figures) != 2 or len({f.quantity for _, f in figures}) != 1:
        return None

    def named_near(fig) -> bool:
        return any(re.search(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", doc.text[max(0, fig.start - _NEAR_NAME):fig.end])
                   for n in names)

    ours = [(c, f) for c, f in figures if doc.claims.index(c) in range(index - _LOOK_BACK, index) and not named_near(f)]
    base = [(c, f) for c, f in figures if (c, f) not in ours and named_near(f)]
    if len(ours) != 1 or len(base) != 1:
        return None
    x, y = ours[0][1], base[0][1]
    if (x.value > y.value) != bool(up):
        return None  # "61% higher" where ours is the lower: another pair
    factor = change.quantity != "percent_change"
    # the figures as written cover a range (45% is 44.5-45.5%): their rounding widens the tolerance, so only a change
    # outside all of that range is a finding
    spread = ((x.value + _half_unit(x)) / (y.value - _half_unit(y)) - (x.value - _half_unit(x)) / (y.value + _half_unit(y))) / 2
    inputs = Inputs(doc.lang)
    inputs.text("before", y)
    inputs.text("after", x)
    inputs.stated("stated_change", f"{change.value:g}x" if factor else change.value, change.quote,
                  tolerance_of(change.quote, abs(change.value), change.approx) + spread / abs(change.value),
                  f"{change.quote}, {x.quote}, {y.quote}")
    ran = run(doc, "ratio", inputs)
    if ran is None:
        return None
    out = doc.calculations[ran]["outputs"]
    verdict = "consistent" if out["consistent"] else "inconsistent"
    computed = f"{out['factor']:.2f}".rstrip("0").rstrip(".") + "x" if factor else f"{100 * abs(out['change']):.1f}%"
    return ran, verdict, messages(doc.lang)["verdicts"][f"named_baseline_{verdict}"].format(
        after=said(doc, x), before=said(doc, y), name=names[0], computed=computed, stated=said(doc, change))
