"""The layers each pipeline chunk holds: 80 layers over PP 4 x VPP 5 chunks is 4 per chunk (Megatron-LM's interleaved
schedule splits the layers evenly over PP x VPP chunks), against a per-chunk count the text gives, else said as a
reading. (Degrees against the chips: arithmetic.py says a product that disagrees; one that agrees is no news.)"""

from service.explain.checks.core import Result, worked
from service.explain.checks.products import product_verdict, stated_arithmetic
from service.explain.document import Claim, Document
from service.i18n.messages import messages

def _one(claim: Claim, quantity: str):
    found = [f for f in claim.figures if f.quantity == quantity]
    return found[0] if len(found) == 1 else None


def layers_per_chunk(doc: Document, claim: Claim) -> Result | None:
    """Layers / (PP x VPP): the layers each virtual pipeline chunk holds, against a per-chunk count the sentence gives."""
    if claim.calculations:
        return None
    pp, vpp = _one(claim, "pp_degree"), _one(claim, "virtual_stages")
    layers = sorted((f for f in doc.figures if f.quantity == "n_layers"), key=lambda f: -f.value)
    if pp is None or vpp is None or not layers or pp.value < 1 or vpp.value < 1:
        return None
    total = layers[0]
    stated = next((f for f in claim.figures if f.quantity == "n_layers" and f.value < total.value), None)
    expression, quote = f"{total.value:g} / ({pp.value:g} * {vpp.value:g})", f"{total.quote} / ({pp.quote} × {vpp.quote})"
    words = messages(doc.lang)["verdicts"]
    if stated is not None:
        index = stated_arithmetic(doc, expression, quote, stated, exact=True)
        return None if index is None else product_verdict(doc, index, stated, "n_layers")
    index = worked(doc, expression, quote)
    if index is None:
        return None
    per = total.value / (pp.value * vpp.value)
    key = "layers_per_chunk" if per.is_integer() else "layers_per_chunk_uneven"
    return Result([index], None, words[key].format(layers=f"{total.value:g}", pp=pp.quote, vpp=vpp.quote, per=f"{per:.3g}"))
