"""Total training FLOPs for the tokens and model the text states."""

import re

from service.explain.checks import compute_budget
from service.explain.checks.core import Inputs, Result, compare, computed, discard, model_inputs, run, unique
from service.explain.document import Claim, Document


def training_flops(doc: Document, claim: Claim) -> Result | None:
    """training_flops (6 x parameters x tokens) against the FLOPs the text states, or said when it states none."""
    tokens = next((f for f in claim.figures if f.quantity == "tokens"), None)
    stated = next((f for f in claim.figures if f.quantity == "total_flops"), None)
    if tokens is None and stated is not None:
        if any(f.quantity == "expression" for f in claim.figures):
            return None  # "Hardware: 1.46M * 9.9e14 * 3600 * 0.4 = 2.08e24 FLOPs": the text's own other estimate, checked as written
        tokens = unique(doc, claim, "tokens")  # "Estimated FLOPs: 3.8e25" under a list of one run's tokens and size
        if tokens is None or _other_model(doc, claim, tokens):
            return None
        inputs = Inputs(doc.lang)
        if not model_inputs(doc, claim, inputs):
            return None
        inputs.text("tokens", tokens)
        index = run(doc, "training_flops", inputs)
        return None if index is None else compare(doc, stated, doc.calculations[index]["outputs"]["total_flops"], "total_flops", [index])
    if stated is not None and any(f.quantity == "expression" for f in claim.figures):
        return None  # "2 * 37e9 * 14.8e12 = 1.1e24 FLOPs": the text's own formula (2ND here), checked as written, not against 6ND
    # a model size stated beside its training tokens is a computation a reader wants, measured or not
    if tokens is None or not ("measurement" in claim.kinds or any(f.quantity in ("params", "active_params") for f in claim.figures)):
        return None
    if _length_not_total(tokens.value):
        return None  # "at 1,048,576 tokens with cp_size=8": a sequence's length, not what a run trains on
    inputs = Inputs(doc.lang)
    if not model_inputs(doc, claim, inputs):
        return None
    inputs.text("tokens", tokens)
    index = run(doc, "training_flops", inputs)
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["total_flops"]
    stated = next((f for f in claim.figures if f.quantity == "total_flops"), None)
    if stated is not None:
        return compare(doc, stated, value, "total_flops", [index])
    if not _COMPUTE.search(doc.text):
        discard(doc, index)
        return None  # "1B ~60B tokens is on 64 GPUs": a FLOP count for a text that speaks of no compute is noise
    said_flops = computed(doc, "total_flops", value, [index])
    hours = compute_budget.budget(doc, claim, index, value) if said_flops.verdict is None else None
    if hours is None:
        return said_flops
    return hours  # "6 x 7B x 2T tokens = 8.4e22 FLOP; at 40% of 989 TFLOPs, that is 58,982 chip-hours": the estimate set up


# the text speaks of compute, FLOPs, what a run costs or how long it takes: a model's FLOP count answers something it says
_COMPUTE = re.compile(r"\bcompute\b|\bFLOP|\bhours?\b|\bdays?\b|\bweeks?\b|\bmonths?\b|\bcost\w*\b|\bbudget\b"
                      r"|حوسبة|الحوسبة|العمليات الحسابية|تكلفة|ساعة|ساعات|يوم|أيام|أسبوع|أسابيع|شهر|أشهر", re.I)


def _length_not_total(tokens: float) -> bool:
    """Whether a token count is a sequence or batch length rather than a run's total: a power of two (1,048,576 =
    2^20) or under the 100M tokens of the smallest runs whose FLOP count a reader would want."""
    whole = int(tokens)
    return tokens < 1e8 or (whole == tokens and whole & (whole - 1) == 0)


def _other_model(doc: Document, claim: Claim, fig) -> bool:
    """Whether the claim names a model that the sentence of a figure it would borrow does not ("The 175B GPT-3 model
    ... 3.14e23 FLOPs" beside "our 175B model ... on 300B tokens"): another run's figure, never combined."""
    own = {m["id"] for m in claim.models}
    source = next((c for c in doc.claims if fig in c.figures), None)
    return bool(own) and source is not None and source is not claim and not own & {m["id"] for m in source.models}
