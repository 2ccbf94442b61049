"""A parallelism named by its size or degree ("tensor parallel size", "DP degree", "pipeline_model_parallel_size"):
its definition's first sentence goes on to say what the size counts, the chips it spans (a reader of round 30 found
"data parallel size" defined as the technique alone, not as the number the text sets)."""

import re

from service.i18n.messages import messages

_SIZE = re.compile(r"(?:\b|_)(?:size|degree)$", re.I)


def definition(entry: dict, found_as: str, text: str, lang: str) -> str:
    """`text`, the entry's definition, with what a size of this parallelism counts where the text names the size."""
    if entry.get("category") != "parallelism" or not text or not _SIZE.search((found_as or "").strip()):
        return text
    end = re.search(r"\.(?:\s|$)", text)  # the first sentence, which the terms section shows
    first, rest = (text[:end.start()], text[end.start():]) if end else (text.rstrip("."), ".")
    return first + messages(lang)["parallel_size"] + rest
