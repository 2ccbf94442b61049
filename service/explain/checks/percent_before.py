"""A percentage faster or slower that a sentence states about two times or two rates of the sentences just before it
("A100: ... = 70ms per token. H100: ... = 42ms per token. H100 is 40% faster for decode"): redone both ways a reader
may take it, as less time (1 - 42 / 70 = 40%) and as more speed (70 / 42 - 1 = 67%), and the reading the text's
figure matches named; said, never judged (which reading the author meant is theirs)."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import Result, worked_pair
from service.explain.checks.factor_before import _before
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_STATED = re.compile(r"(?P<p>\d+(?:\.\d+)?)\s*%\s+(?:faster|slower|quicker|speed-?up)\b", re.I)
_KINDS = ("time", "throughput")  # a time per step or token, or a rate: both give a speed
SLACK = 0.01  # one percentage point: "40%" for 40.1%


def percent_before(doc: Document, claim: Claim) -> Result | None:
    """"H100 is 40% faster": the two times (or rates) of one kind just before, as less time and as more speed."""
    stated = _STATED.search(claim.quote)
    if claim.calculations or stated is None or any(verdicts.kind(f.quantity) not in ("fraction",) for f in claim.figures):
        return None  # figures of its own besides the percentage: the sentence compares them itself
    earlier = [f for f in _before(doc, claim) if verdicts.kind(f.quantity) in _KINDS]
    kinds = {verdicts.kind(f.quantity) for f in earlier}
    paragraph = doc.text.rfind("\n\n", 0, claim.start) + 1
    same = [f for f in doc.figures if paragraph <= f.start < claim.start and verdicts.kind(f.quantity) in kinds]
    if len(earlier) != 2 or len(kinds) != 1 or len(same) != 2 or earlier[0].value == earlier[1].value:
        return None  # two figures of one kind in the paragraph, or which two the percentage is about is unsure
    big, small = sorted(earlier, key=lambda f: -f.value)
    less = worked_pair(doc, "1 - {s} / {b}", big, small, f"1 - {small.quote} / {big.quote}")
    more = worked_pair(doc, "{b} / {s} - 1", big, small, f"{big.quote} / {small.quote} - 1")
    if less is None or more is None:
        return None
    words = messages(doc.lang)["verdicts"]
    values = {"less": doc.calculations[less]["outputs"]["value"], "more": doc.calculations[more]["outputs"]["value"]}
    share = float(stated["p"]) / 100
    matches = [name for name, value in values.items() if abs(value - share) <= SLACK]
    shown = {"small": small.quote.strip(), "big": big.quote.strip(), "less": f"{values['less']:.0%}",
             "more": f"{values['more']:.0%}", "stated": stated.group(0).strip(), "share": f"{stated['p']}%"}
    said = words["percent_before"].format(**shown)
    said += words["percent_before_reading"][matches[0]].format(**shown) if len(matches) == 1 else ""
    return Result([less, more], None, said)
