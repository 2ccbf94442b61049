"""Compute- or memory-bound, from the FLOPs and bytes the text states, against the bound it names."""

from service.explain.checks.core import Inputs, Result, chip_inputs, needs_more, run
from service.explain.claims import cue
from service.explain.document import Claim, Document
from service.i18n.messages import messages


def roofline(doc: Document, claim: Claim) -> Result | None:
    """The roofline calculator with the text's FLOPs, bytes and chip."""
    flops = next((f for f in claim.figures if f.quantity in ("total_flops", "flops_per_step")), None)
    size = next((f for f in claim.figures if f.quantity in ("bytes", "size_bytes")), None)
    if flops is None or size is None:
        return None
    inputs = Inputs(doc.lang)
    inputs.text("flops", flops)
    inputs.text("bytes", size)
    if not chip_inputs(doc, claim, inputs):
        return needs_more(doc, ["peak_flop_per_s"])
    index = run(doc, "roofline", inputs)
    if index is None:
        return Result()
    bound = doc.calculations[index]["outputs"]["bound"]
    said = "compute" if cue("compute_bound_words", claim.quote) else "memory" if cue("memory_bound_words", claim.quote) else None
    m = messages(doc.lang)
    word = m["bound_words"].get(bound, bound) if doc.lang != "en" else bound
    verdict = "explained" if said is None else "consistent" if said == bound else "inconsistent"
    return Result([index], verdict, m["verdicts"]["bound"].format(bound=word))
