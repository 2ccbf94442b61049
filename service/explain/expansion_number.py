"""An expansion in the number its acronym is written in: "TPUs" are "Tensor Processing Units", "FLOP" one "operation"."""

_COUNT_NOUNS = {"unit", "processor", "chip", "card", "node", "accelerator", "switch", "kernel", "rank", "device", "link", "layer", "token",
                "replica", "expert", "stage", "core", "controller", "adapter", "server", "rack", "pod", "slice", "host", "engine", "model",
                "multiprocessor", "array", "interface", "stream", "collective", "multiplication", "operation", "instruction", "request",
                "instance", "job", "worker", "thread", "block", "buffer", "queue", "channel", "bridge", "module", "board", "packet", "system", "circuit", "network", "cluster", "region", "zone", "tensor", "head", "pipeline", "format", "benchmark"}


def agreeing(entry: dict, name: str, expansion: str, lang: str) -> str:
    """The expansion in the number the text uses: "TPUs" is "Tensor Processing Units", "وحدات معالجة الموترات"."""
    term = entry.get("term") or ""
    plural = name.endswith("s") and not term.endswith("s") and name[:-1].lower() == term.lower()
    if not plural:
        return _singular(term, name, expansion) if lang == "en" else expansion
    words = expansion.split()
    if lang != "en":
        tail = words[1:]
        return next((alias for alias in entry.get("ar_aliases") or [] if alias.split()[1:] == tail and alias != expansion
                     and tail), expansion)
    if " of " in expansion or words[-1].lower() not in _COUNT_NOUNS:
        return expansion  # "Fully Sharded Data Parallel" has no plural; only a countable head noun takes one
    last = words[-1]
    words[-1] = last[:-1] + "ies" if last.endswith("y") and last[-2:-1] not in "aeiou" else last + ("es" if last.endswith(("x", "ch", "sh")) else "s")
    return " ".join(words)


def _singular(term: str, name: str, expansion: str) -> str:
    """A plural entry's expansion for its singular form: "per FLOP" is "per floating-point operation", not "operations"."""
    words = expansion.split()
    singular = term.endswith("s") and name.lower() == term[:-1].lower() and len(words) > 1
    if not singular or " of " in expansion or words[-1][:-1].lower() not in _COUNT_NOUNS:
        return expansion
    return " ".join(words[:-1] + [words[-1][:-1]])
