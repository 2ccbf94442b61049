"""A heading in title case ("Lower Memory Consumption for GPTQ-LoRA vs QLoRA") is a label, not a sentence the author
asserts: restated as advice ("Their advice is to lower ...") or as a point, it says what the text does not."""

import re

from service.explain import pattern_cache

# three title-case words opening a line that ends without a full stop
_HEADING = pattern_cache.lazy(r"^[A-Z][a-z]+(?:\s+[A-Z][a-z]+){2}(?![\w-])(?![^.]*\.\s*$)")


def is_heading(clause: str) -> bool:
    """Whether a clause opens as a title-case heading."""
    return bool(_HEADING.match(clause.strip()))


def as_topic(clause: str) -> str:
    """A heading said in running text: its title-case words lower-cased ("lower memory consumption for GPTQ-LoRA")."""
    return re.sub(r"\b[A-Z][a-z]+\b", lambda w: w.group(0).lower(), clause)
