"""Centrality for the gist: a sentence about what the passage is most about weighs more than one about a side detail."""

from collections import Counter

from service.explain.document import Document

CENTRAL_WEIGHT = 1.0  # the passage's most-named term in the sentence: its subject, with what it claims of it
MIN_MENTIONS = 3  # a term named once or twice is not what a passage is about


def central_terms(doc: Document) -> set[str]:
    """The glossary ids the passage names most often (ties kept), when named at least MIN_MENTIONS times."""
    counts = Counter(match.entry["id"] for match in doc.occurrences)
    if not counts:
        return set()
    most = max(counts.values())
    return {term for term, n in counts.items() if n == most} if most >= MIN_MENTIONS else set()


def weight(doc: Document, term_ids: set[str]) -> float:
    """What naming the passage's central subject adds to a sentence's weight as the point."""
    return CENTRAL_WEIGHT if term_ids & central_terms(doc) else 0.0
