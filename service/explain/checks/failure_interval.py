"""How often a run was interrupted: its stated time over its stated count of failures ("419 interruptions in 54
days" is one every 3.1 hours), said in words, never judged (the text states no interval to check)."""

from service.explain.checks.core import Result, said, worked
from service.explain.checks.steps_time import duration
from service.explain.document import Claim, Document
from service.i18n.messages import messages

SHORTEST_RUN_S = 3600.0  # a span under an hour is a step's or a request's time, not the run's


def failure_interval(doc: Document, claim: Claim) -> Result | None:
    """One count of failures and one span of time in the sentence: the span over the count."""
    failures = [f for f in claim.figures if f.quantity == "n_failures" and f.value >= 1]
    spans = [f for f in claim.figures if f.quantity == "time_s" and f.value >= SHORTEST_RUN_S]
    if len(failures) != 1 or len(spans) != 1 or claim.calculations:
        return None
    count, span = failures[0], spans[0]
    index = worked(doc, f"{span.value:g} / {count.value:g}", f"{said(doc, span)} / {said(doc, count)}")
    if index is None:
        return None
    interval = doc.calculations[index]["outputs"]["value"]
    return Result([index], None, messages(doc.lang)["verdicts"]["failure_interval"].format(
        span=said(doc, span), count=said(doc, count), interval=duration(doc, interval, interval)))
