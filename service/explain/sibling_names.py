"""A product family's short name written with another suffix or version: the text names a sibling, not the entry."""

import re


_NAMED = frozenset({"framework", "software", "model", "organisation", "organization"})  # products and makers, not concepts


def names_a_sibling(entry: dict, text: str, start: int, end: int) -> bool:
    """The entry's short name written with another suffix ("Megatron-Bridge" for the entry "Megatron-LM", found as
    "Megatron"): the text names a sibling product, and glossing it as the entry would name what the text does not."""
    said = text[start:end]
    if start >= 2 and text[start - 1] == "-" and re.search(r"(?<![\w-])[A-Z0-9][\w.]*$", text[max(0, start - 20):start - 1]) \
            and said[:1].isupper() and entry.get("category") in _NAMED:  # "MoE-Lightning", never "non-BLOOM"
        return True  # "MoE-Lightning" is a system of its own, not PyTorch Lightning: a name joined after a hyphen is part of another
    if said[-1:].isdigit() and re.match(r"\.\d", text[end:end + 2]):
        return True  # "Claude 3" in "Claude 3.5", "DeepSeek V2" in "DeepSeek V2.5": another version, not this one
    term = entry.get("term") or ""
    if not term.startswith(said + "-") or end >= len(text) or text[end] not in "-\u2010\u2011":
        return False
    suffix = re.match(r"[A-Za-z0-9]+", text[end + 1:])
    return bool(suffix) and not term[len(said) + 1:].lower().startswith(suffix.group().lower())
