"""A gist sentence that only points at what comes next ("So, my question is the following I guess:") says nothing: it
is dropped where another sentence of the gist stands ("They conclude that their question is the following they
guess", round 87 P06)."""

from service.explain import gist_side
from service.explain.document import Document


def without_pointers(doc: Document, sentences: list[dict]) -> list[dict]:
    """The gist less the sentences drawn only from pointers, unless nothing else is left."""
    kept = [item for item in sentences
            if not all(gist_side.pointer(doc.text[slice(*doc.sentences[i])]) for i in item["from"] if i < len(doc.sentences))]
    return kept or sentences
