"""A gain stated in the line that introduces two result rows ("the average step time is as follow, near 1.3x
performance improvement:" over "without X: 3084.44ms per step" and "with X: 2383.16ms per step"): the rows' ratio
redone (3084.44 / 2383.16 = 1.29x) and set against the stated gain, within the rounding of the stated figure."""

import re

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Result, said, worked_pair
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_GAINS = ("ratio", "speedup", "factor", "speedup_ratio", "percent_change", "percent")
_KINDS = ("time", "throughput", "compute_rate", "bandwidth")  # measured results whose ratio is a gain
_LESS = re.compile(r"\b(?:reduc\w*|less|lower|shorter|sav\w*|cut|fell|falls?|dropp?\w*|decreas\w*)\b|انخفاض|أقل|تقليل|توفير", re.I)
_GAIN_WORD = re.compile(r"\b(?:faster|speed-?ups?|improve\w*|gains?|better|higher|boost\w*|uplift|reduc\w*|less|lower|shorter|sav\w*|fell|falls?|dropp?\w*|decreas\w*|rose|rises?|increas\w*|grew|jump\w*)\b"
                        r"|تحسن|تسريع|أسرع|زيادة|انخفاض|أقل", re.I)
_APPROX = re.compile(r"\b(?:near(?:ly)?|about|approximately|approx\.?|around|roughly|almost)\b|~|≈|نحو|حوالي|تقريب", re.I)
_WRITTEN = re.compile(r"(\d+)(?:\.(\d+))?")


def _introduction(doc: Document, claim: Claim) -> tuple[int, int] | None:
    """The sentence right before the claim when it ends in a colon and nothing stands between them (it introduces rows)."""
    before = [(a, b) for a, b in doc.sentences if b <= claim.start]
    if not before:
        return None
    start, end = before[-1]
    if doc.text[end:claim.start].strip() or not doc.text[start:end].rstrip().endswith((":", "：")):
        return None
    return start, end


def _half_step(fig) -> float:
    """Half a unit of the stated gain's last written digit, in its value's units ("1.3x": 0.05; "30%": 0.005)."""
    m = _WRITTEN.search(fig.quote)
    if not m:
        return 0.0
    written = float(m.group(0))
    return 0.5 * 10 ** -len(m.group(2) or "") * (fig.value / written if written else 0.0)


_COUNTED = re.compile(r"\s*(?:[A-Za-z]+\s+)?(?:[A-Z]{1,3}\d{2,3}[A-Za-z]?|GPUs?|TPUs?|nodes?|chips?|cards?|devices?|servers?|hosts?)\b")


def introduced_factor(doc: Document, claim: Claim) -> Result | None:
    """Two like results on separate lines under a line stating one gain: the gain redone from them."""
    if claim.calculations or "\n" not in claim.quote.strip():
        return None
    found = _introduction(doc, claim)
    if found is None:
        return None
    start, end = found
    intro = doc.text[start:end]
    gains = [f for f in doc.figures if start <= f.start < end and f.quantity in _GAINS and f.value != 0
             and not _COUNTED.match(doc.text, f.end)]  # "on 8x azure A100": eight chips, not a gain
    if len(gains) != 1 or not (_GAIN_WORD.search(intro) or verdicts.STATED_FACTOR.search(gains[0].quote)):
        return None
    stated = gains[0]
    for kind in _KINDS:
        like = [f for f in claim.figures if verdicts.kind(f.quantity) == kind and f.value > 0]
        if len(like) == 2 and like[0].value != like[1].value and "\n" in doc.text[like[0].end:like[1].start]:
            break
    else:
        return None
    big, small = sorted(like, key=lambda f: -f.value)
    factor = bool(verdicts.STATED_FACTOR.search(stated.quote)) or stated.quantity in ("ratio", "speedup", "factor", "speedup_ratio")
    lesser = not factor and kind == "time" and bool(_LESS.search(intro))  # "a 23% reduction in step time": 1 - new / old
    x, y = said(doc, big), said(doc, small)
    form = "{b} / {s}" if factor else "1 - {s} / {b}" if lesser else "{b} / {s} - 1"
    shown = form.format(b=x, s=y)
    index = worked_pair(doc, form, big, small, shown)
    if index is None:
        return None
    computed = doc.calculations[index]["outputs"]["value"]
    value = abs(stated.value)  # "fell by 23%" is read as a change of -23%: its size is what the rows redo
    slack = abs(_half_step(stated)) + (0.02 if _APPROX.search(intro) else 0.005) * value
    text = f"{computed:.2f}".rstrip("0").rstrip(".") + "x" if factor else restate.value("mfu", computed)
    m = messages(doc.lang)["verdicts"]
    words = {"working": shown, "computed": text, "stated": stated.quote.strip()}
    if abs(computed - value) <= slack:
        return Result([index], "consistent", m["introduced_factor"].format(**words))
    return Result([index], None, m["introduced_factor_gap"].format(**words))  # the text may measure its gain otherwise
