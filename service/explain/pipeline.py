"""The explainer's stages run in order on a Document: terms -> figures -> claims -> checks (spaCy style)."""

from service.explain import checks, claims, grounding, terms
from service.explain.document import Document
from service.explain.figures import read_figures as reader


def read_figures(doc: Document) -> None:
    """Stage 2: every figure the text states (outside page clutter), and the chips and models it names."""
    doc.figures = [f for f in reader(doc.text) if not terms.inside(doc.clutter, f.start)]
    spans = [(f.start, f.end) for f in doc.figures]
    # "72-GPU" is a figure about a node, not a mention of the generic GPU cluster.
    doc.mentions = [m for m in grounding.mentions(doc.text) if not terms.inside(doc.clutter, m.start)
                    and not (m.generic and terms.inside(spans, m.start))]
    terms.add_notation_terms(doc)


def analyse(text: str, lang: str, previous: Document | None = None) -> Document:
    """Run every stage on `text` (a follow-up of `previous` when given) and return the document."""
    doc = Document(text=text, lang=lang, previous=previous)
    for stage in (terms.read_terms, read_figures, claims.find_claims, checks.check_claims):
        stage(doc)
    return doc
