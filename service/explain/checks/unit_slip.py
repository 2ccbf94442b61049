"""Sizes written in one unit that fall in two groups about a thousand times apart ("8170GB, 7208GB, 6660GB" beside
"8.75GB, 7.68GB, 7.51GB" for the same kind of run): the larger group is most likely megabytes written as gigabytes.
Said as `needs_more`, naming the likely reading: the text may be right, and only its author can say."""

import re

from service.explain.checks import verdicts
from service.explain.document import Claim, Document
from service.explain.checks.core import Result
from service.i18n.messages import join_names, messages

SLIP = 1000  # one unit prefix apart (MB and GB, GB and TB)
SPREAD = 2.5  # the larger group divided by SLIP lies within this factor of the smaller group's values
MIN_EACH = 2  # figures in each group: one size beside another a thousand times larger may be a total and a part
_UNIT = re.compile(r"([KMGTP]i?B)\b", re.I)


def _unit(fig) -> str | None:
    found = _UNIT.search(fig.quote)
    return found.group(1).upper() if found else None


def unit_slip(doc: Document, claim: Claim) -> Result | None:
    """`needs_more` on a claim holding a size of the larger of two same-unit groups a thousand times apart."""
    sizes = [f for f in doc.figures if verdicts.kind(f.quantity) == "memory" and f.value and _unit(f)]
    mine = [f for f in claim.figures if f in sizes]
    if not mine or len(sizes) < 2 * MIN_EACH:
        return None
    for fig in mine:
        same = [f for f in sizes if _unit(f) == _unit(fig)]
        small = [f for f in same if 1 / SPREAD <= fig.value / SLIP / f.value <= SPREAD]
        large = [f for f in same if 1 / SPREAD <= f.value / fig.value <= SPREAD]
        if len(small) >= MIN_EACH and len(large) >= MIN_EACH:
            lower = {"GB": "MB", "TB": "GB", "MB": "KB", "GIB": "MiB", "TIB": "GiB", "MIB": "KiB"}.get(_unit(fig))
            if lower is None:
                return None
            number = re.search(r"[\d.,]+", fig.quote).group()
            return Result([], "needs_more", messages(doc.lang)["verdicts"]["unit_slip"].format(
                figure=fig.quote.strip(), others=join_names([f.quote.strip() for f in small[:3]], doc.lang),
                reading=f"{number} {lower}"))
    return None
