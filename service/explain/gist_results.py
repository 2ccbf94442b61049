"""The author's own list of results ("Key results:" over "0.57× communication compared to AdamW", "1.1% optimizer
overhead", "50% less state memory"): what they found, said in the gist after the point, never left to the terms
(round 86's Distributed Muon report opened with "they published a report" and no result)."""

import re

from service.explain import gist_cross, pattern_cache
from service.explain.document import Document
from service.i18n.messages import join_names, messages

MAX_ITEMS = 6
MAX_ITEM_WORDS = 16  # a result, not a paragraph
_LABEL = pattern_cache.lazy(r"^\W*(?:(?:key|main|headline|top)\s+)?(?:results?|findings|takeaways|highlights|numbers)\s*[:：]\s*$|"
                            r"^\W*(?:أهم\s+)?(?:النتائج|نتائج(?:ه|ها|نا)?)\s*[:：]\s*$", re.I)
_BULLET = pattern_cache.lazy(r"^\s*(?:[-*•]\s*|\d{1,2}[.)]\s+)")  # "1. ", never the "0." of "0.57×"


def _items(doc: Document) -> tuple[list[str], tuple[int, int]] | None:
    """The result lines under the text's results label and the span they cover, or None."""
    lines, offset = [], 0
    for line in doc.text.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    for k, (_, line) in enumerate(lines):
        if not _LABEL.match(line):
            continue
        items, span = [], None
        for start, item in lines[k + 1:k + 1 + MAX_ITEMS + 1]:
            said = _BULLET.sub("", item).strip().rstrip(".;,")
            if not said or said.endswith((":", "：")):
                break
            if len(said.split()) > MAX_ITEM_WORDS or not re.search(r"\d", said):
                return None  # prose under the label, or a result without a figure: not a list of results
            items.append(said)
            span = (span or (start, 0))[0], start + len(item)
        return (items, span) if 1 <= len(items) <= MAX_ITEMS else None
    return None


def with_results(doc: Document, sentences: list[dict]) -> list[dict]:
    """The gist with the author's listed results after its first sentence, where it does not say them already."""
    found = _items(doc) if sentences and gist_cross.in_answer_language(doc) else None
    if found is None:
        return sentences
    items, (start, end) = found
    covered = [i for i, (a, _) in enumerate(doc.sentences) if start <= a < end]
    if any(set(item["from"]) & set(covered) and not set(item["from"]) <= set(covered) for item in sentences):
        return sentences
    kept = [item for item in sentences if not set(item["from"]) <= set(covered)]  # one result said alone ("The author
    # says that 0.57× communication compared to AdamW") gives way to the list of them
    words, named = messages(doc.lang)["gist"], join_names(items, doc.lang)
    if not kept:
        return [{"text": words["results_listed_first"].format(items=named), "from": covered}]
    return [kept[0], {"text": words["results_listed"].format(items=named), "from": covered}, *kept[1:]]
