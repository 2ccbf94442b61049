"""Model-state memory (weights, gradients, optimizer states, ZeRO sharding) against the memory the text states."""

from service.explain.checks.core import Inputs, Result, compare, figure, model_inputs, run
from service.explain.document import Claim, Document


def memory(doc: Document, claim: Claim) -> Result | None:
    """model_state_memory with the text's model and ZeRO stage; the nearer of total and per-chip is compared."""
    stated = next((f for f in claim.figures if f.quantity in ("bytes", "hbm_bytes", "size_bytes")), None)
    if stated is None or "activation" in claim.quote.lower():
        return None
    inputs = Inputs(doc.lang)
    if not model_inputs(doc, claim, inputs):
        return None
    zero, dp = figure(doc, claim, "zero_stage"), figure(doc, claim, "dp_degree", "n_ranks")
    if zero is not None:
        inputs.text("zero_stage", zero)
        if dp is not None:
            inputs.text("dp_degree", dp)
    index = run(doc, "model_state_memory", inputs)
    if index is None:
        return None
    out = doc.calculations[index]["outputs"]
    options = [("bytes_total", out["bytes_total"]), ("bytes_per_chip", out["bytes_per_chip"])]
    name, value = min(options, key=lambda item: abs(item[1] - stated.value))
    result = compare(doc, stated, value, name, [index])
    if result.verdict == "inconsistent":  # a partial figure (optimizer states only) is explained, not wrong
        result.verdict = "explained"
    return result
