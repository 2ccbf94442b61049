"""The case a label line sets for the sentences under it ("With nn.scan = True:", "Without TP:"): said with a finding
of that case, so the finding of one case never reads as the author's finding in general."""

import re

from service.explain import pattern_cache
from service.explain.document import Document
from service.explain.gist_side import lower_start

# A label line setting the case the sentences under it describe: "With nn.scan = True:", "When training on TPUs:"
_CASE_LABEL = pattern_cache.lazy(r"^\s*(?:with|without|when|if|for|under|using|on|in)\b[^!?\n:]{2,60}:\s*$", re.I)


def under_label(doc: Document, index: int, clause: str) -> str:
    """A restated sentence with the case of the label line it sits under ("With nn.scan = True:\n... The memory grows
    with the parameters."): said without it, the finding of one case reads as the author's finding (round 67 P12's
    `wrong` gist); only where the text labels two cases or more, and no other label stands between."""
    labels = [j for j in range(len(doc.sentences)) if _CASE_LABEL.match(doc.text[slice(*doc.sentences[j])])]
    before = [j for j in labels if j < index]
    if len(labels) < 2 or not before or before[-1] == index - 1 and not clause:
        return clause
    between = [doc.text[slice(*doc.sentences[j])] for j in range(before[-1] + 1, index + 1)]
    if any(_ROW.search(a) and not _ROW.search(b) for a, b in zip(between, between[1:])):
        return clause  # "Without TP:" over two log lines, then the author's own question: the label's rows have ended
    label = doc.text[slice(*doc.sentences[before[-1]])].strip().rstrip(":").strip()
    return f"{label[0].upper()}{label[1:]}, {lower_start(clause)}" if clause else clause


_ROW = pattern_cache.lazy(r"(?:\d[\d.,]*\D+){3}")  # a measured row ("86.95 seconds (2.75 tokens/s, 239 tokens, ...)")
