"""A share said in words over two like amounts: "each token reads 718 MB of KV against ~566 MB of expert weights — KV
is the majority of per-token traffic" is 718 / (718 + 566) = 56%, more than half. The amount that is the majority is
the one the sentence's subject names right after it ("718 MB of KV"); with no such tie nothing is judged."""

import re

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# "X is the majority of", "X makes up most of", "X accounts for the bulk of", "X is more than half of"
_MAJORITY = re.compile(r"\b(?P<subject>[A-Za-z][\w-]*)\s+(?:is|are|makes?\s+up|accounts?\s+for|forms?)\s+"
                       r"(?:the\s+(?:clear\s+|vast\s+)?(?:majority|bulk)|most|more\s+than\s+half)\s+of\b", re.I)
_BYTES = {"memory", "weights_bytes", "bytes"}  # bytes held or moved: weights, a cache, traffic add up as one amount
_NAMED_AFTER = 24  # how far after an amount its noun may come ("718 MB of KV", "566 MB of expert weights")


def majority(doc: Document, claim: Claim) -> Result | None:
    """The share of the amount the sentence calls the majority, of the two amounts it sets against each other."""
    said = _MAJORITY.search(claim.quote)
    if said is None:
        return None
    figures = [f for f in claim.figures if f.end - claim.start <= said.start() and f.quantity not in ("number", "expression")]
    if len(figures) != 2 or not _like(figures[0].quantity, figures[1].quantity) or min(f.value for f in figures) <= 0:
        return None  # not two amounts of one kind: no share of a whole they make
    subject = said.group("subject").lower()
    named = [f for f in figures if re.match(rf"\s*(?:of\s+)?(?:[\w-]+\s+){{0,2}}?{re.escape(subject)}\b", doc.text[f.end:f.end + _NAMED_AFTER], re.I)]
    if len(named) != 1:
        return None  # which amount the subject is stays unsure
    part = named[0]
    other = figures[1] if part is figures[0] else figures[0]
    index = worked(doc, f"{part.value:g} / ({part.value:g} + {other.value:g})", f"{part.quote} / ({part.quote} + {other.quote})")
    if index is None:
        return None
    share = doc.calculations[index]["outputs"]["value"]
    key = "majority_holds" if share > 0.5 else "majority_fails"
    return Result([index], "consistent" if share > 0.5 else "inconsistent", messages(doc.lang)["verdicts"][key].format(
        part=part.quote, other=other.quote, share=restate.value("mfu", share)))


def _like(a: str, b: str) -> bool:
    """Whether two quantities add up to one whole (two sizes in bytes, whatever each holds, or one kind)."""
    return verdicts.same_kind(a, b) or {verdicts.kind(a), verdicts.kind(b)} <= _BYTES
