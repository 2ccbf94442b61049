"""Whether a model's training states fit on all the job's chips together: parameters x 16 bytes (mixed-precision Adam)
against chips x each chip's memory. Even fully sharded (ZeRO-3, FSDP) the states need that much memory in total, so
more than all the chips hold means part of them must live in host memory (offload)."""

import re

from calculators import catalog
from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Inputs, Result, run, worked
from service.explain.document import Claim, Document
from service.i18n import arabic_numbers
from service.i18n.messages import messages

# ZeRO (Rajbhandari et al. 2020, section 3.1): mixed-precision Adam keeps 2 (fp16 weights) + 2 (fp16 gradients) + 12
# (fp32 master weights, momentum, variance) = 16 bytes per parameter
_ADAM_BYTES = 16
_TRAINED_AFTER = re.compile(r"\s*(?:-?param\w*\s+)?(?:model\s+)?(?:for\s+)?(?:full\s+fine-?tun\w*|full[- ]parameter\s+\w+|FT\b|pre-?train\w*|training\b)", re.I)
# "training a 70B model", not "train for 11T" (tokens) nor "trained on 2T": what follows "for" or "on" is the data
_TRAINED_BEFORE = re.compile(r"(?:full\s+fine-?tun\w*|\bpre-?train\w*|\btrain\w*)\s+(?:of\s+)?(?:an?\s+|the\s+)?(?:(?!for\b|on\b)\S+\s+)?$", re.I)
_NOT_FULL = re.compile(r"^\s*(?:-?param\w*\s+)?(?:model\s+)?(?:PEFT|LoRA|QLoRA|adapter|inference|serving)\b", re.I)


_PARTIAL = re.compile(r"\b(?:PEFT|Q?LoRA|adapters?|frozen|freez\w*|4-?bit|8-?bit optim\w*|offload\w*|inference|serving)\b", re.I)
# an optimizer that keeps fewer than Adam's 12 bytes of fp32 state per parameter (bitsandbytes' 8-bit and paged AdamW,
# Adafactor, SGD): the 16 bytes per parameter would overstate the states, so nothing is said
_LEAN_OPTIMIZER = re.compile(r"\b(?:bitsandbytes|bnb|Paged\w*|8-?bit\s*Adam\w*|Adam\w*8bit|Adafactor|SGD)\b", re.I)


def _clause(text: str, start: int, end: int) -> str:
    """The clause around a figure: from the last , ; . ( before it to the next one after it."""
    lo = max(text.rfind(mark, 0, start) for mark in ",;.(\n")
    his = [i for i in (text.find(mark, end) for mark in ",;.(\n") if i >= 0]
    return text[lo + 1:min(his) if his else len(text)]


def _trained_params(doc: Document, claim: Claim):
    """The parameter count the sentence says is trained in full ("70B FT", "training a 70B model"), the largest if several."""
    found = []
    for fig in claim.figures:
        if fig.quantity != "params":
            continue
        after, before = doc.text[fig.end:fig.end + 40], doc.text[max(0, fig.start - 40):fig.start]
        if _NOT_FULL.match(after) or _PARTIAL.search(_clause(doc.text, fig.start, fig.end)) or _LEAN_OPTIMIZER.search(claim.quote):
            continue  # "70B PEFT", "training a 70B model with QLoRA": the states of a full training are not kept
        if _TRAINED_AFTER.match(after) or _TRAINED_BEFORE.search(before):
            found.append(fig)
    return max(found, key=lambda f: f.value) if found else None


_HYPOTHETICAL = re.compile(r"\b(?:will|would|could|should|might|plan\w*|upgrad\w*|switch\w* to|in the future)\b"
                           r"|(?<![\u0621-\u064A])(?:سوف|ستحل|سيحل|قد|يمكن|لو)(?![\u0621-\u064A])", re.I)


def _memory_known(doc: Document, chip: dict) -> bool:
    """Whether the job's chips have one memory size: the chip comes in one size only, or a sentence that is not a plan
    or a wish writes its size ("A100 80GB"), not only "A100", which the catalog sells in 40 and 80 GB."""
    variants = {c.get("hbm_bytes") for c in catalog.hardware().entries if c.get("hbm_bytes") and c["name"].split(" ")[:3] == chip["name"].split(" ")[:3]}
    if len(variants) <= 1:
        return True
    for m in doc.mentions:
        said = _SIZE_SAID.match(doc.text, m.end) or re.search(r"\d{2,3}\s?G", doc.text[m.start:m.end]) \
            or re.search(r"\d{2,3}\s?GB?[\s-]*$", doc.text[max(0, m.start - 10):m.start])  # "A100 80GB" is one name; "8 80GB A100s"
        if m.kind == "chip" and m.entry is chip and said and not _HYPOTHETICAL.search(_sentence_of(doc, m.start)):
            return True
    return False


_SIZE_SAID = re.compile(r"[\w-]{0,8}?[\s-]?\(?\d{2,3}\s?G", re.I)  # "A100 80GB", "A100-40G", "A100 SXM4 (80G"


def _sentence_of(doc: Document, at: int) -> str:
    """The sentence of the text that holds position `at`."""
    return next((doc.text[a:b] for a, b in doc.sentences if a <= at < b), "")


_TO_FIT = re.compile(r"\b(?:to fit|fit\w*|requires?|needs?|needed)\b|يتطلب|تتطلب|يحتاج|تحتاج|لاستيعاب|يتسع", re.I)


def _per_chip(doc: Document, claim: Claim, params) -> Result | None:
    """"It requires 800 V100s just to fit a trillion parameter model for training" (a chip the catalog lacks): 1T x 16
    bytes = 16 TB, 20 GB on each of the 800, said in words for the reader to set against the card's memory."""
    counts = [f for f in claim.figures if f.quantity == "n_chips" and f.value > 1]
    if len({f.value for f in counts}) != 1 or not _TO_FIT.search(claim.quote):
        return None
    chips = counts[0].value
    index = worked(doc, f"{params.value / 1e9:g}e9 * {_ADAM_BYTES} / {chips:g}", f"{params.quote} x {_ADAM_BYTES} bytes / {counts[0].quote}")
    if index is None:
        return None
    return Result([index], None, messages(doc.lang)["verdicts"]["states_per_chip"].format(
        params=arabic_numbers.amount(params.value, "معامل") if doc.lang == "ar" else restate.value("params", params.value),
        states=restate.value("bytes", params.value * _ADAM_BYTES), chips=f"{chips:g}",
        per=restate.value("bytes", doc.calculations[index]["outputs"]["value"])))


def states_fit(doc: Document, claim: Claim) -> Result | None:
    """"70B FT on 4xH100(80G)": 70B x 16 bytes = 1.12 TB > 4 x 80 GB = 320 GB: said in words (nothing when they fit)."""
    params = _trained_params(doc, claim)
    counts = {f.value for f in doc.figures if f.quantity == "n_chips"}
    named = [c for c in doc.chips() if not doc.named_only_generically(c)]
    if params is not None and not named and re.search(verdicts.table()["other_chips"]["pattern"], claim.quote):
        return _per_chip(doc, claim, params)  # the card's memory is not in the catalog: its share per card is said instead
    memories = {c.get("hbm_bytes") for c in named}
    if params is None or len(counts) != 1 or not named or len(memories) != 1 or None in memories:
        return None  # no full training of a stated size, or the job's chips or their memory are uncertain
    if not _memory_known(doc, named[0]):
        return None  # "NVIDIA A100 peak ..." with "A100 80G GPUs ... will mostly resolve this" (round 59 P12): 40 or 80 GB unsaid
    if any(f.quantity in ("chips_per_node", "n_nodes") and f.value > 1 for f in doc.figures) \
            and max(f.value for f in doc.figures if f.quantity in ("chips_per_node", "n_nodes")) > next(iter(counts)):
        return None  # "one GPU" beside "4 nodes of 8 GPUs" is a part of the job, not all of its chips
    chips, memory = counts.pop(), memories.pop()
    inputs = Inputs(doc.lang)
    inputs.text_with("expression", f"{params.value / 1e9:g}e9 * {_ADAM_BYTES} / ({chips:g} * {memory / 1e9:g}e9)", params.quote,
                     f"{_ADAM_BYTES} bytes per parameter (mixed-precision Adam, ZeRO paper) and {restate.value('bytes', memory)} per "
                     f"{named[0]['name']} (data/hardware.json)")
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    ratio = doc.calculations[index]["outputs"]["value"]
    if ratio <= 1:
        doc.calculations.pop()  # the states fit on the chips together (sharded): nothing worth saying
        return None
    return Result([index], None, messages(doc.lang)["verdicts"]["states_over_job"].format(
        params=params.quote, states=restate.value("bytes", params.value * _ADAM_BYTES), chips=f"{chips:g}", ratio=f"{ratio:.2g}",
        memory=restate.value("bytes", memory), total=restate.value("bytes", chips * memory)))
