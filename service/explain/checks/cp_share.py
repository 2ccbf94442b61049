"""A sequence length beside a context-parallel degree ("cp=8, ..., seq_length=225280"): each rank's share of the
sequence (28,160 tokens), which is what its activation memory scales with; said without a verdict, since the text
states no share to check it against."""

from service.explain.checks.core import Result, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

MIN_SEQUENCE = 1024  # a length worth splitting: shorter ones are no long-context set-up


def cp_share(doc: Document, claim: Claim) -> Result | None:
    """Sequence length / context-parallel degree: the tokens each rank holds."""
    if claim.calculations:
        return None
    lengths = [f for f in claim.figures if f.quantity in ("seq_len", "context_len") and f.value >= MIN_SEQUENCE]
    degrees = [f for f in claim.figures if f.quantity == "cp_degree" and f.value >= 2]
    if len(lengths) != 1 or len(degrees) != 1:
        return None
    length, degree = lengths[0], degrees[0]
    index = worked(doc, f"{length.value:g} / {degree.value:g}", f"{length.quote} / {degree.quote}")
    if index is None:
        return None
    share = doc.calculations[index]["outputs"]["value"]
    return Result([index], None, messages(doc.lang)["verdicts"]["cp_share"].format(
        length=said(doc, length), degree=said(doc, degree), share=f"{share:,.0f}"))
