"""The gist of an English passage in an answer written in another language: the author's point as the English reading
restates it (terms spelled out), quoted under a lead in the reader's language, since nothing is translated offline.

Why English only: engineers who read this field in Arabic read its English texts, and two blind readers preferred an
Arabic answer that quotes the English point to one that says it cannot summarise (17 and 12 of 20 passages, usefulness
2.50 and 2.40 against 2.00 and 2.00; bench/corpus/CROSS_GIST_AB.md). A reader of English is given no Arabic quote:
it would say nothing to them."""

import re

from service.explain import gist, reasons, term_display
from service.explain.document import Document
from service.explain.pipeline import analyse
from service.i18n.messages import messages

SOURCE_LANGUAGE = "en"


def quoted(doc: Document) -> str:
    """The English passage's own gist under the answer language's lead, as Markdown; '' where none is said."""
    if doc.lang == SOURCE_LANGUAGE or doc.previous is not None:
        return ""
    original = analyse(doc.text, SOURCE_LANGUAGE)
    said = " ".join(sentence(item["text"]) for item in gist.gist(original, reasons.find(original)))
    if not said:  # the English reading finds no point either: the answer says it does not summarise
        return ""
    # "with its abbreviations spelled out" only where the reading spelled one out: a reader took it as false otherwise
    expanded = any(found.group(0) not in doc.text for found in _BRACKETED.finditer(said))
    return messages(doc.lang)["gist"]["original_language" if expanded else "original_language_as_written"] + "\n\n> " + said


_BRACKETED = re.compile(r"\((?:[^()\d]{1,80}|[A-Za-z][\w-]{0,15})\)")  # "(A2A)", "(the share of ... used)", not "(about 26% less)"


def sentence(text: str) -> str:
    """A gist sentence with its first letter up and its final stop."""
    text = text.strip()
    if text[:1].islower() and not term_display.code_name(text.split()[0]):  # "fp8", "per_device_batch_size", "vLLM" keep their spelling
        text = text[0].upper() + text[1:]
    return text if not text or text[-1] in ".!?؟…:：" or text.endswith(("….", "…»", "…”")) else text + "."  # "is:" opens a table
