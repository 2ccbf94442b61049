"""What a product the text writes out means ("384 (12*2*16)" with PP=12 and MBS=2: stages x micro-batch x replicas),
so that a redone product answers the reader's "why?" instead of only saying "consistent"."""

import re

from service.explain.document import Claim, Document
from service.i18n.messages import messages

_PRODUCT = re.compile(r"^\s*\(?\s*\d+(?:\s*[*x×]\s*\d+)+\s*\)?\s*$")


def _factor(doc: Document, value: float, names: dict) -> object | None:
    """The text's figure of a named quantity (a degree, a batch) with this value, or None."""
    return next((f for f in doc.figures if f.quantity in names and f.value == value), None)


def _name(fig, names: dict) -> str:
    """What a factor is; a batch whose words never say it is the whole step's is not called global ("bs=8")."""
    if (fig.detail or {}).get("batch_scope") == "unsaid":
        return names.get(fig.quantity + "_unqualified", names[fig.quantity])
    return names[fig.quantity]


def meaning(doc: Document, claim: Claim) -> str | None:
    """Each factor of the claim's written product named by the text's figure of that value; a pipeline-fill product
    (stages x micro-batch x one unnamed factor) explained; None when fewer than two factors are named."""
    m = messages(doc.lang)["verdicts"]
    names = m["factor_names"]
    for expr in (f for f in claim.figures if f.quantity == "expression" and _PRODUCT.match(f.quote)):
        values = [float(v) for v in re.findall(r"\d+", expr.quote)]
        found = [_factor(doc, v, names) for v in values]
        if sum(f is not None for f in found) < 2:
            continue
        product = f"{expr.value:g}"
        parts = [m["factor_named"].format(value=f"{v:g}", name=_name(f, names), quote=f.quote) if f is not None
                 else m["factor_unnamed"].format(value=f"{v:g}") for v, f in zip(values, found)]
        quantities = {f.quantity: f for f in found if f is not None}
        unnamed = [v for v, f in zip(values, found) if f is None]
        if {"pp_degree", "micro_batch"} <= set(quantities) and len(unnamed) == 1 and len(values) == 3:
            return m["pipeline_fill"].format(product=product, factors=(" × " if doc.lang == "ar" else " x ").join(f"{v:g}" for v in values),
                                             pp=f"{quantities['pp_degree'].value:g}", mbs=f"{quantities['micro_batch'].value:g}",
                                             dp=f"{unnamed[0]:g}")
        return m["product_meaning"].format(product=product, factors=(" × " if doc.lang == "ar" else " x ").join(parts))
    return None
