"""Which parallel-degree notations a restatement leaves as the text writes them ("TP8" is read out as "tensor
parallelism across 8 GPUs" elsewhere): one that labels a noun, and one inside a run of layout codes."""

import re

from service.explain import pattern_cache


def stays(text: str, fig) -> bool:
    """Whether a degree notation stays as written: it labels a noun, or stands among other layout codes."""
    return labelled(text, fig) or in_layout_run(text, fig)


def labelled(text: str, fig) -> bool:
    """Whether a degree notation follows a noun it labels ("8 prefill TP1 + 2 decode TP4"): read out, "decode tensor
    parallelism across 4 GPUs" is no phrase; after a preposition or a verb ("with TP4", "run TP8") it reads well."""
    if not fig.quantity.endswith("_degree"):
        return False
    before = _WORD_BEFORE.search(text, max(0, fig.start - 30), fig.start)
    return bool(before) and before.group(1).lower() not in _CARRYING_WORDS


# a layout written as a run of codes ("TP1 DP2 EP", "TP2 + EP"): read out around a bare code, or after a member that
# labels a noun, it gave "tensor parallelism across 1 GPU, data parallelism across 2 replicas EP" (round 36); the whole
# run then stays as written and the terms say what each code means. "FSDP8 TP8 PP4" still reads out, every code sized.
_LAYOUT_CODE = r"(?:TP|DP|PP|EP|CP|SP|ETP|VPP|FSDP|DDP|HSDP)\d*"
_RUN = pattern_cache.lazy(rf"(?<![\w-]){_LAYOUT_CODE}(?:\s*(?:[+/,×]\s*|\s)\s*{_LAYOUT_CODE})+(?![\w-])")


def in_layout_run(text: str, fig) -> bool:
    """Whether a degree notation stands in a run of layout codes that must stay as the text writes it: one with a
    code that has no size ("EP"), or whose first code labels a noun."""
    if not fig.quantity.endswith("_degree"):
        return False
    line_start = text.rfind("\n", 0, fig.start) + 1
    line_end = text.find("\n", fig.end)
    for run in _RUN.finditer(text, line_start, len(text) if line_end < 0 else line_end):
        if run.start() <= fig.start and fig.end <= run.end():
            before = _WORD_BEFORE.search(text, max(0, run.start() - 30), run.start())
            return any(not re.search(r"\d", code) for code in re.findall(_LAYOUT_CODE, run.group())) \
                or bool(before) and before.group(1).lower() not in _CARRYING_WORDS
    return False


_WORD_BEFORE = pattern_cache.lazy(r"(?<![\w-])([a-z]+) $")
_CARRYING_WORDS = frozenset("""with using use uses used at on in via and or to from of under plus is was are were be run runs running ran
enable enabled enabling set by for into try tried trying vs versus than like as without across then only also both either
switch switched switching move moved moving go went scale scaled scaling keep kept need needs needed but while so because
if when whereas although though since that where which whether""".split())
