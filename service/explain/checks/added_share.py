"""An amount added on top of a base of the same kind ("+0.5 s on a 1.4 s step", "an extra 3 GB on top of the 40 GB
of weights"): the share it adds, said (0.5 / 1.4 = +36%), never judged, since the text states no share to check."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import Result, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_ADDED = re.compile(r"(?:\+|\b(?:an? )?(?:extra|additional|another)\s+)$", re.I)  # what marks the first figure as added
_ON = re.compile(r"^\s*(?:of [\w-]+\s+)?(?:on(?: top of)?|over|atop)\s+(?:an?|the|each|every|its|their|our)?\s*$", re.I)


def added_share(doc: Document, claim: Claim) -> Result | None:
    """The one added amount the sentence sets on a base of its kind: added / base, as the share it adds."""
    if claim.calculations:
        return None
    found = []
    for added, base in zip(claim.figures, claim.figures[1:]):
        if not _ADDED.search(doc.text[max(0, added.start - 12):added.start]) or not _ON.match(doc.text[added.end:base.start]):
            continue
        if not verdicts.same_kind(added.quantity, base.quantity) or added.value <= 0 or base.value <= 0:
            continue
        found.append((added, base))
    if len(found) != 1:
        return None
    added, base = found[0]
    index = worked(doc, f"{added.value:g} / {base.value:g}", f"{said(doc, added)} / {said(doc, base)}", "fraction")
    if index is None:
        return None
    share = doc.calculations[index]["outputs"]["value"]
    return Result([index], None, messages(doc.lang)["verdicts"]["added_share"].format(
        added=said(doc, added), base=said(doc, base), share=f"{share:.0%}"))
