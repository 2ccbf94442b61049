"""A correction the author makes ("X is not A; it is B", "the spec that governs throughput isn't peak TFLOPS — it's
memory"): the thesis of an argument, weighed as the point and said as one claim with both halves kept."""

import re

from service.explain import pattern_cache
from service.explain.document import Document

WEIGHT = 4.0  # as much as a stated conclusion: an author who corrects a view states the view they hold
LEAD_WEIGHT = 5.0  # a passage that opens on a correction states its thesis first

_NEGATED = r"(?:\b(?:is|are|was|were)\s+not\b|\b(?:isn't|aren't|wasn't|weren't|isn’t|aren’t|wasn’t|weren’t)\b)"
# "not yet", "not the best but still ...": a negation that corrects nothing
_WEAK = pattern_cache.lazy(r"\bnot\s+(?:yet|the\s+best|available|supported|sure|needed|working)\b|\bn[o']t\s+(?:yet|sure)\b", re.I)
_NOT = pattern_cache.lazy(_NEGATED, re.I)
# the second half after a semicolon: "it is a communication problem", "it changes the topology of how you serve"
_CLAUSE = pattern_cache.lazy(r"^(?:it|they|this|that)(?:'s|’s|\s+(?:is|are|was|were)\b|\s+[a-z]+s\b)", re.I)
# both halves in one sentence: "isn't peak TFLOPS — it's how much memory you have", "is not the math but the control flow"
_WITHIN = pattern_cache.lazy(_NEGATED + r"(?:\s+(?:just|only|simply|about))?\s+[^.;!?,—–]{1,60}?(?:\s*[,—–]\s*|\s+-\s+)"
                             r"(?:it|they|this|that)(?:'s|’s|\s+(?:is|are|was|were)\b)"
                             r"|\bnot\s+(?:about\s+)?[^.;,!?]{1,40}?\s+but\s+(?!still\b|also\b)", re.I)


def _sentence(doc: Document, index: int) -> str:
    start, end = doc.sentences[index]
    return doc.text[start:end]


def second_half(doc: Document, index: int) -> int | None:
    """The clause after the semicolon that completes sentence `index`'s negation ("...; it is B"), or None."""
    if index + 1 >= len(doc.sentences) or doc.lang == "ar":
        return None
    sentence = _sentence(doc, index)
    if not _NOT.search(sentence) or _WEAK.search(sentence):
        return None
    between = doc.text[doc.sentences[index][0]:doc.sentences[index + 1][0]].rstrip()
    return index + 1 if between.endswith(";") and _CLAUSE.match(_sentence(doc, index + 1).strip()) else None


def corrects(doc: Document, index: int) -> bool:
    """Whether sentence `index` states a correction, within itself or with the clause after its semicolon."""
    if doc.lang == "ar":
        return False
    sentence = _sentence(doc, index)
    return second_half(doc, index) is not None or (bool(_WITHIN.search(sentence)) and not _WEAK.search(sentence))


def weight(doc: Document, index: int) -> float:
    """The weight a correction adds to its sentence as the point; more where the passage opens on it."""
    if not corrects(doc, index):
        return 0.0
    return WEIGHT + (LEAD_WEIGHT if index == 0 else 0.0)


_SECTION = pattern_cache.lazy(r"^(?:Preface|Introduction|Summary|Abstract|Background|Overview|Conclusions?|TL;?DR|Update|Edit|Note|Context)\s*:\s+(?=[A-Z])", re.I)
_NOT_X = pattern_cache.lazy(r"^(?P<subject>.+?)\s+(?P<verb>is|are|was|were)\s+not\s+(?P<x>[^,;:]+?)\s*$", re.I)
_IT_IS = pattern_cache.lazy(r"^(?:it|they)\s*(?:is|are|was|were|'s)\s+(?P<y>[^:;(]+?)\s*(?=[:;(]|$)", re.I)


def joined(doc: Document, point: int) -> str | None:
    """The point and the clause after its semicolon as one claim: "the bottleneck is not the bubble but the per-stage
    overhead" where the clause names what it is, else both halves joined by a colon ("More memory isn't a vanity number:
    it changes the topology of how you serve"); None where the point completes no correction."""
    after = second_half(doc, point)
    if after is None:
        return None
    said = _SECTION.sub("", _sentence(doc, point).strip().rstrip(".;"))  # "Preface: Training ... is not ...": the heading goes
    clause = _sentence(doc, after).strip().rstrip(".")
    negated, named = _NOT_X.match(said), _IT_IS.match(clause)
    if negated and named:  # "... but the per-stage-call overhead", up to the colon that details it
        return f"{said} but {named.group('y').strip()}"
    return f"{said}: {clause}"
