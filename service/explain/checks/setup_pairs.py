"""Two figures a sentence gives side by side that no ratio should join unasked: durations of runs on different numbers
of chips ("18 days on 592 V100s, while ... 12 days on 256"), and two measures each under its own label ("reads to
48GB/sec, and writes to 26GB/sec")."""

import re

from service.explain.checks import verdicts
from service.explain.document import Claim

_TIMES = ("time_s", "chip_hours", "chip_days")


def across_chip_counts(claim: Claim, fig) -> bool:
    """Whether `fig` is a duration in a sentence that names more than one chip count."""
    counts = {f.value for f in claim.figures if f.quantity == "n_chips"}
    return len(counts) > 1 and any(verdicts.same_kind(fig.quantity, t) for t in _TIMES)


_LEAD_WORDS = re.compile(r"([A-Za-z][\w-]{2,})\s+(?:(?:to|from|at|of|by|about|around|roughly|~|≈)\s+){1,2}$")
_NOT_LABELS = frozenset({"improves", "improved", "increases", "increased", "rises", "rose", "drops", "dropped", "falls", "fell",
                         "goes", "went", "grows", "grew", "reaches", "reached", "climbs", "climbed", "jumps", "jumped", "further",
                         "up", "down", "and", "then", "only", "just", "from", "than"})


# "H100 has 80 GB, H200 has 141 GB": each figure the property its own subject has
_OWNER = re.compile(r"([A-Z][\w-]*\d[\w-]*|[A-Z][a-z]+\d*)\s+(?:has|have|holds?|offers?|carries|comes with|with)\s+(?:up to\s+|about\s+|~)?$")


def labelled_apart(text: str, first, second) -> bool:
    """Whether two figures each follow their own label ("improves reads to 48GB/sec, and writes to 26GB/sec") or each
    belong to their own subject ("H100 has 80 GB, H200 has 141 GB"): two measures side by side, not one changed into the other."""
    owners = [_OWNER.search(text, max(0, fig.start - 30), fig.start) for fig in (first, second)]
    if all(owners) and owners[0].group(1) != owners[1].group(1):
        return True
    labels = []
    for fig in (first, second):
        found = _LEAD_WORDS.search(text, max(0, fig.start - 40), fig.start)
        labels.append(found.group(1).lower() if found and found.group(1).lower() not in _NOT_LABELS else None)
    return None not in labels and labels[0] != labels[1]
