"""A follow-up ("and on TPUs?") as a question about the conversation: the earlier checks redone with what it changes."""

from dataclasses import replace

from service.explain import checks
from service.explain.document import Document


def retarget(doc: Document, previous: Document) -> bool:
    """Redo `previous`'s checked claims with the chips, models and figures `doc` names; False when it changes nothing."""
    chips, models = doc.chips(), doc.models()
    overrides = {f.quantity: f for f in doc.figures}
    checked = [c for c in previous.claims if c.calculations or c.verdict == "needs_more"]
    if not checked or not (chips or models or overrides):
        return False
    merged = Document(text=previous.text, lang=doc.lang, previous=None)
    merged.figures = [overrides.get(f.quantity, f) for f in previous.figures] + \
        [f for q, f in overrides.items() if not any(p.quantity == q for p in previous.figures)]
    merged.mentions = [m for m in previous.mentions if not (m.kind == "chip" and chips) and not (m.kind == "model" and models)]
    merged.mentions += doc.mentions
    if chips:  # "4096 H100s" keeps its count but not its chip once the follow-up names another
        merged.figures = [f._replace(chip=None) if f.chip else f for f in merged.figures]
    for claim in checked:
        figures = [overrides.get(f.quantity, f) for f in claim.figures]
        figures = [f._replace(chip=None) if chips and f.chip else f for f in figures]
        copy = replace(claim, figures=figures, chips=chips or claim.chips, models=models or claim.models,
                       calculations=[], verdict="explained", why="")
        merged.claims.append(copy)
    checks.check_claims(merged)
    doc.claims = merged.claims
    doc.calculations = merged.calculations
    doc.failures += merged.failures
    return True
