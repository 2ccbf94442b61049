"""A memory the sentence says holds a number of parameters ("2.4PB, allowing ... up to 120 trillion parameters"): the
bytes each parameter gets, said (2.4e15 / 1.2e14 = 20 bytes), which is what tells a reader what the memory stores;
and a memory stated with its bytes per parameter ("8 bytes per parameter, so 7B needs 56 GB"), redone and judged."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import Result, as_written, compare, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_HOLDS = re.compile(r"\b(?:support\w*|hold\w*|fit\w*|stor\w*|accommodat\w*|enough for|room for|host\w*)\b"
                    r"|يدعم|تدعم|يتسع|تتسع|يكفي|تكفي|يستوعب|تستوعب", re.I)
_MORE = re.compile(r"\b(?:plus|including|includes|on top|overhead|besides|and (?:the )?activations|\+)|إضافة إلى|بالإضافة|فضلا عن", re.I)
# "28 GB of gradient tensors", "140 GB of bf16 weights": a memory of the parameters' own values, one per parameter
_OF_STATES = re.compile(r"\s+(?:worth\s+)?of\s+(?:\w+\s+){0,2}?(?:gradients?|weights?|parameters?|params|optimi[sz]er\s+states?|"
                        r"master\s+weights|momentum)\b|\s+(?:من|لل)(?:تدرجات|أوزان|معاملات)", re.I)
_PER_DEVICE = re.compile(r"\s*(?:per|each|/|a|for each)\s*(?:node|gpu|device|rank|chip|card|server|worker)\b|\s+لكل\s+(?:عقدة|وحدة|جهاز|شريحة)", re.I)
_OF_CAPACITY = re.compile(r"\s*(?:of|/|out of)\s*(?:the\s+)?\d+(?:\.\d+)?\s*(?:[GT]i?B|GB)\b", re.I)
_STATES_BYTES = ("gradient_bytes", "weights_bytes", "optimizer_state_bytes", "checkpoint_bytes")  # sizes of the parameters' values
_PLAUSIBLE = (0.5, 64)  # bytes per parameter: from 4-bit weights to weights with every optimizer state and more


def bytes_per_param(doc: Document, claim: Claim) -> Result | None:
    """One parameter count and the one memory it is tied to (a range's top when the count is 'up to'), with a word of
    holding between them; a result outside the plausible bytes per parameter is no finding and not said."""
    params = [f for f in claim.figures if f.quantity == "params" and f.value >= 1e6]
    sizes = [f for f in claim.figures if (verdicts.kind(f.quantity) == "memory" or f.quantity in _STATES_BYTES) and f.value > 0]
    if len(params) != 1 or not sizes:
        return None
    if len(sizes) > 1:
        sizes = [f for f in sizes if f.role == "after"]  # "from 4TB to 2.4PB ... up to 120T": the top of the range
    if len(sizes) != 1:
        return None
    size, count = sizes[0], params[0]
    low, high = sorted((size.end, count.start)) if size.end <= count.start else (count.end, size.start)
    of_states = _OF_STATES.match(doc.text, size.end)
    if not _HOLDS.search(doc.text[low:high]) and not of_states or _PER_DEVICE.match(doc.text, size.end) \
            or _OF_CAPACITY.match(doc.text, size.end):  # "uses 93.2 GB of 140 GB": one card's share, on many cards
        return None  # "28 GB of gradient tensors" at "7B parameters" says what it holds; "68.6 GiB per node" is a share
    per = size.value / count.value
    if not _PLAUSIBLE[0] <= per <= _PLAUSIBLE[1]:
        return None
    index = worked(doc, f"{size.value:g} / {count.value:g}", f"{size.quote} / {count.quote}")
    if index is None:
        return None
    words = messages(doc.lang)["verdicts"]
    # the width a whole number of bytes implies, only for a memory said to be the parameters' values themselves
    width = words["bytes_per_param_width"].get(str(round(per)), "") if of_states and abs(per - round(per)) <= 0.02 * per else ""
    return Result([index], None, words["bytes_per_param"].format(
        size=said(doc, size), params=said(doc, count), per=f"{per:.1f}".rstrip("0").rstrip(".")) + width)


def per_param_total(doc: Document, claim: Claim) -> Result | None:
    """A stated number of bytes per parameter, one parameter count and one memory ("8 bytes per parameter, so a 7B model
    needs 56 GB"): the count times the bytes against the memory, judged like any stated result."""
    per = [f for f in claim.figures if f.quantity == "bytes_per_param" and f.value > 0]
    params = [f for f in claim.figures if f.quantity == "params" and f.value >= 1e6]
    sizes = [f for f in claim.figures if verdicts.kind(f.quantity) == "memory" and f.value > 0]
    if len(per) != 1 or len(params) != 1 or len(sizes) != 1 or _MORE.search(claim.quote):
        return None  # "... plus activations": the memory holds more than the parameters' bytes
    parts = _summed_parts(doc, claim, per[0])
    if claim.calculations or any(f.quantity in ("n_chips", "n_nodes", "number", "expression") and f not in parts for f in claim.figures):
        return None  # "70*4*8 GB ~ 2TB, where 4 is the bytes per parameter and 8 the GPUs": the text's own arithmetic
    index = worked(doc, f"{as_written(params[0])} * {per[0].value:g}", f"{params[0].quote} x {per[0].quote}", "bytes")
    if index is None:
        return None
    return compare(doc, sizes[0], doc.calculations[index]["outputs"]["value"], sizes[0].quantity, [index])


# "4 (weights) + 4 (grads) + 4 (lion momentum) = 12 bytes/param": the terms of the bytes-per-parameter sum, each with
# an optional label in brackets, then "=" right before the stated bytes per parameter
_SUM_OF_PARTS = re.compile(r"\s*(?:\d+(?:\.\d+)?\s*(?:\([A-Za-z][\w\s-]*\))?\s*\+\s*)+\d+(?:\.\d+)?\s*(?:\([A-Za-z][\w\s-]*\))?\s*=\s*")


def _summed_parts(doc: Document, claim: Claim, per) -> list:
    """The plain numbers the text adds up into its bytes per parameter (which are no factor of the memory)."""
    numbers = [f for f in claim.figures if f.quantity == "number" and f.end <= per.start]
    if not numbers or not _SUM_OF_PARTS.fullmatch(doc.text, numbers[0].start, per.start):
        return []
    return numbers
