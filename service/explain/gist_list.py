"""A passage that is one lead line and the list it introduces ("Various parallelism techniques slice this training
process across different dimensions, including:" over "Data parallelism—run ...", "Pipeline parallelism—run ...", ...):
its gist is the lead with the items' names, never one item put after "the author says that"."""

import re

from service.explain import gist_cross
from service.explain.document import Document
from service.i18n.messages import join_names, messages

MIN_ITEMS = 3  # two lines are a pair, not a list
MAX_NAME_WORDS = 5  # "Mixture-of-Experts", "Pipeline parallelism": a name, not a sentence
MAX_LEAD_WORDS = 30
MIN_DESCRIPTION_WORDS = 3  # "run different layers of the model on different GPUs", not a figure
_SENTENCE_END = re.compile(r"[.!?؟](?=\s+\S)")
_NOT_A_NAME = re.compile(r"^\s*(?:\d|(?:notes?|example|tip|warning|what|why|how|when|where|which|ملاحظة|مثال)\b)", re.I)
_VALUE = re.compile(r"[~≈$]?\d")  # "f16/f16: 10054 MiB = ...": a value under a label
_LINE = re.compile(r"[^\n]*\S[^\n]*")
# "including:", "such as:", «منها:»: what ends a line that announces a list
_LEAD_END = re.compile(r"[\s,،]*(?:\b(?:including|such as|namely|as follows)\b|منها|مثل|ما يلي|التالية)?\s*[:：]\s*$", re.I)
# "- Data parallelism—run ...", "2. Tensor parallelism: split ...": a name, then a dash or a colon, then its description
_ITEM = re.compile(r"^\s*(?:[-*•]\s*|\d{1,2}[.)]\s*)?(?P<name>[^\s—–:|][^—–:|\n]{0,60}?)\s*(?:—|–|:|\s-\s)\s*\S")


def listed(doc: Document) -> list[dict] | None:
    """The gist of a passage made of a lead line and at least three named items, or None when it is not one."""
    lines = [(m.start(), m.group(0)) for m in _LINE.finditer(doc.text)]
    if len(lines) < MIN_ITEMS + 1 or not _LEAD_END.search(lines[0][1]):
        return None
    if len(_SENTENCE_END.findall(lines[0][1])) or len(lines[0][1].split()) > MAX_LEAD_WORDS:
        return None  # a paragraph that ends on a colon, not a line that announces the list
    names = []
    for _, line in lines[1:]:
        item = _ITEM.match(line)
        if item is None or len(item.group("name").split()) > MAX_NAME_WORDS or _NOT_A_NAME.match(item.group("name")) \
                or len(line[item.end() - 1:].split()) < MIN_DESCRIPTION_WORDS or _VALUE.match(line, item.end() - 1):
            return None  # a line of prose, a value ("f16/f16: 2.1 GB"), a note or a sub-heading: no list of named things
        name = item.group("name").strip()
        # "Data parallelism" inside the sentence; "Mixture-of-Experts", "ZB-V" and "GPU clusters" keep their capitals
        names.append(name[0].lower() + name[1:] if name[:1].isupper() and not any(c.isupper() or c.isdigit() for c in name[1:]) else name)
    if "\n\n" in doc.text[lines[1][0]:lines[-1][0]].replace("\r", ""):
        return None  # paragraphs each under a label ("Key implication: ..."), not one list of items line after line
    lead = _LEAD_END.sub("", lines[0][1]).strip()
    if not lead or len(names) < MIN_ITEMS:
        return None
    if lead[:1].isupper() and not lead[1:2].isupper():
        lead = lead[0].lower() + lead[1:]  # "Various techniques" after "The author's point:"; "GPU clusters" keeps its case
    text = messages(doc.lang)["gist"]["list_first"].format(lead=lead, items=join_names(names, doc.lang))
    ends = [start + len(line) for start, line in lines]
    return [{"text": text, "from": [i for i, (a, b) in enumerate(doc.sentences) if a < ends[-1]]}]


def with_items(doc: Document, sentences: list[dict], whole: bool = True) -> list[dict]:
    """A gist sentence that is a line announcing a list ("Together these enable M-FSDP v2 with:") said with the names
    of the items under it, never cut at its colon ("The text notes: Together these enable M-FSDP v2 with", round 86).
    Not `whole` (configuration lines taken out of the text), the items read may be only some of them: left as it was."""
    if not whole or not gist_cross.in_answer_language(doc):
        return sentences  # an answer in the other language says the passage in its own frames
    out = []
    for item in sentences:
        found = _lead_with_items(doc, item["from"][0]) if len(item["from"]) == 1 else None
        if found is None:
            out.append(item)
            continue
        lead, names, covered = found
        out.append({"text": messages(doc.lang)["gist"]["list_first"].format(lead=lead, items=join_names(names, doc.lang)),
                    "from": [item["from"][0], *covered]})
    return out


def _lead_with_items(doc: Document, index: int) -> tuple[str, list[str], list[int]] | None:
    """(lead, item names, their sentences) where sentence `index` is a line ending in a colon over named items."""
    start, end = doc.sentences[index]
    line_end = doc.text.find("\n", start)
    line = doc.text[start:line_end if line_end >= 0 else len(doc.text)]
    if line_end < 0 or not line.rstrip().endswith((":", "：")) or len(line.split()) > MAX_LEAD_WORDS:
        return None
    names, offset, separators = [], line_end + 1, set()
    for below in doc.text[line_end + 1:].split("\n"):
        item = _ITEM.match(below)
        if not below.strip() or item is None or len(item.group("name").split()) > MAX_NAME_WORDS or _NOT_A_NAME.match(item.group("name")) \
                or "|" in below or re.match(r"\s*[\"'`{\[~≈$\d]", below[item.end() - 1:]):
            break  # a row of values ("- with EP: "vllm_total_tpm":70907.89"), which the rows' own reading says
        separators.add(below[item.end("name"):item.end()].strip()[:1])  # "Model: ..." under "X — ..." items is another label
        if len(separators) > 1:
            break
        names.append(item.group("name").strip())
        offset += len(below) + 1
    if len(names) < 2:
        return None
    lead = _LEAD_END.sub("", line).strip()
    lead = lead[0].lower() + lead[1:] if lead[:1].isupper() and not lead[1:2].isupper() else lead
    return lead, names, [i for i, (a, _) in enumerate(doc.sentences) if line_end < a < offset]
