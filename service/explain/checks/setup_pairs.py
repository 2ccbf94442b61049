"""Two durations a sentence gives for runs on different numbers of chips ("18 days on 592 V100s, while ... 12 days on 256"):
their ratio compares two set-ups, not one run's change, so no ratio is said for them unasked."""

from service.explain.checks import verdicts
from service.explain.document import Claim

_TIMES = ("time_s", "chip_hours", "chip_days")


def across_chip_counts(claim: Claim, fig) -> bool:
    """Whether `fig` is a duration in a sentence that names more than one chip count."""
    counts = {f.value for f in claim.figures if f.quantity == "n_chips"}
    return len(counts) > 1 and any(verdicts.same_kind(fig.quantity, t) for t in _TIMES)
