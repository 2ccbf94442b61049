"""Model-state memory (weights, gradients, optimizer states, ZeRO sharding) against the memory the text states."""

import json
import re
from functools import cache

from calculators.resources import data_dir

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Inputs, Result, compare, competing, discard, figure, run, unique
from service.explain.checks.job_kind import training_text
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_UNSHARDED_FACTOR = 10  # data/verdicts.json checkers.memory: model states over 10x a chip's memory are not shown
_NOT_STATES = re.compile(r"activation|peak|measured|max_memory|nvidia-smi|\bOOM\b|out of memory|KV cache|HBM|capacity"
                         # loading or serving a model, or the host's memory: not the training states of every chip
                         r"|\bload(?:s|ing|ed)?\b|inference|serving|\bRAM\b|CPU memory|host memory|per process"
                         # data sent, not held: "30 communications of 0.8 GB, 24 GB in all" (a payload is no memory)
                         r"|communicat\w*|all-?gather|reduce-?scatter|all-?reduce|payload|traffic|اتصال|تواصل|التواصل|حمولة", re.I)

# Fine-tuning a few weights, quantised weights or serving: what a chip holds is not the full training states of
# 16 bytes per parameter (a QLoRA row of a hardware table was set against 2.88 TB of Adam states).
NOT_FULL_TRAINING = re.compile(r"\b(?:PEFT|Q?LoRA|adapters?|GPTQ|AWQ|int4|int8|[48]-?bit|quantiz\w*|quantis\w*|inference|serving)\b", re.I)

# the sentence is about a capacity being enough or not: a size beside these words is the memory the weights must fit in
CAPACITY_WORDS = re.compile(r"\bcapacity\b|\bexhaust\w*|\b(?:does not |doesn'?t |won'?t |can'?t |cannot )?fit\w*\b|\bexceed\w*|"
                             r"\bout of memory\b|\bOOM\b|\btoo (?:big|large)\b|\bon (?:a |one |a single )\S*\s*\d+\s*GB\b|"
                             r"سعة|تتسع|يتسع|تستنفد|يستنفد|تتجاوز|يتجاوز|نفاد الذاكرة", re.I)

def _total_params(doc: Document, claim: Claim, inputs: Inputs) -> bool:
    """Every parameter is stored, so memory takes a mixture of experts' TOTAL size: stated, else the named model's."""
    totals = [f for f in (*claim.figures, *doc.figures) if f.quantity == "params" and _TOTAL.search(f.quote)]
    fig = totals[0] if totals else figure(doc, claim, "params")  # "480 billion total parameters" beside each expert's 3.66B
    if fig is not None:
        inputs.text("params", fig)
        return True
    models = claim.models or doc.models() or (doc.previous.models() if doc.previous else [])
    if models:
        inputs.values["model"] = models[0]["id"]
        inputs.sources["model"] = {"source": "text", "quote": models[0]["name"]}
        return True
    return False


_HOST_MEMORY = re.compile(r"\s*(?:of\s+)?(?:system\s+|host\s+|CPU\s+|DDR\d?\s+)?(?:RAM|DRAM|system memory|host memory|CPU memory)\b", re.I)
_CARD_BEFORE = re.compile(r"\b(?:GPUs?|[A-Z]\d{2,3}\w*|cards?|chips?|accelerators?)\b[^.;]{0,25}$")  # "V100 GPU with 32GB RAM": the card's
_TOTAL = re.compile(r"\btotal\b|إجمالي|الإجمالية|الكلي", re.I)
# the sentence names the training states themselves: a memory size beside them is theirs
_STATES_NAMED = re.compile(r"\bmodel states\b|\bparameters, gradients,? and optimi[sz]er states\b|حالات النموذج", re.I)
_BIT_WIDTH = re.compile(r"(?<![\d.])(?:4|8|16|32)[- ]?bits?\b|\b(?:fp|bf|int)(?:4|8|16|32)\b|\b(?:full|half|single|double) precision\b", re.I)


def memory(doc: Document, claim: Claim) -> Result | None:
    """model_state_memory with the text's model and ZeRO stage; each stated size is compared with the nearer of the
    total and the per-chip size ("1.12 TB of states is 17.5 GB per GPU" checks both)."""
    if NOT_FULL_TRAINING.search(claim.quote):
        return None
    if _BIT_WIDTH.search(claim.quote) and not any(f.quantity == "hbm_bytes" for f in claim.figures):
        return None  # "6.5TB of memory at 32-bit precision": a size tied to a number format, not Adam's 16 bytes of states
    capacity = next((f for f in claim.figures if f.quantity == "hbm_bytes"), None)
    host = capacity is not None and _HOST_MEMORY.match(doc.text, capacity.end) and not _CARD_BEFORE.search(doc.text, max(0, capacity.start - 40), capacity.start)
    if capacity is not None and (host or any(f.quantity in ("bytes", "size_bytes") for f in claim.figures)):
        # "a 335GB checkpoint on a machine with 192GB RAM" (round 97 P22): the host's memory, and a size the text states
        # itself; training states estimated at 14 or 16 bytes a parameter against it were a number the text contradicts
        return None
    if capacity is not None:
        # training states (Adam's 16 bytes per parameter) only where the passage trains: a decode-time passage's "7B in
        # FP16 (14 GB)" is the weights' size, and 112 GB of states against it was judged wrong (round 15)
        return _fits(doc, claim, capacity) if training_text(doc) else None
    # a measured peak holds activations too: not comparable with model states
    stated = [f for f in claim.figures if f.quantity in ("bytes", "size_bytes")
              or f.quantity == "memory_bytes" and _STATES_NAMED.search(claim.quote)]  # "model states ... 7.5 TB of memory"
    if not stated or _NOT_STATES.search(claim.quote) or CAPACITY_WORDS.search(claim.quote):
        return None  # a size the weights must fit in ("fits in the 80GB") is a capacity, not the states' size
    index = _model_states(doc, claim)
    if index is None:
        return None
    out = doc.calculations[index]["outputs"]
    options = [(name, out[name]) for name in ("bytes_total", "bytes_per_chip") if name in out]  # one calculation may serve two claims
    results = []
    for fig in stated:
        name, value = min(options, key=lambda item: abs(item[1] - fig.value))
        result = compare(doc, fig, value, name, [index])
        if result.verdict in ("inconsistent", "needs_more"):
            # a partial figure (optimizer states only) or a requirement of another kind: "the text says X, but the
            # calculation gives Y" under "explained" read as a contradiction (blind readers), so it is not said
            continue
        results.append(result)
    if not results:
        discard(doc, index)
        return None
    if doc.calculations[index]["input_sources"].get("zero_stage", {}).get("source") != "text":
        out.pop("bytes_per_chip", None)  # no sharding stated: the total is the finding, not a chip holding all of it
    if len(results) == 1:
        return results[0]
    order = {"needs_more": 0, "explained": 1, "consistent": 2}  # the weakest verdict speaks for the claim
    verdict = min((r.verdict for r in results), key=lambda v: order.get(v, 0))
    return Result([index], verdict, "; ".join(dict.fromkeys(r.why for r in results)))


def _model_states(doc: Document, claim: Claim) -> int | None:
    """model_state_memory run on the text's model and sharding; its index in doc.calculations, or None."""
    inputs = Inputs(doc.lang)
    if not _total_params(doc, claim, inputs):
        return None
    _sharding(doc, claim, inputs)
    if _CHECKPOINT.search(claim.quote):  # a checkpoint keeps the weights and the optimizer's states, not the gradients
        inputs.derived("bytes_per_param", CHECKPOINT_BYTES, "a checkpoint: bf16 weights (2 bytes), fp32 master weights and two Adam moments (12)")
        inputs.derived("split", "checkpoint", "a checkpoint holds no gradients")
    elif _FP32.search(doc.text) and not _MIXED.search(doc.text):
        inputs.derived("split", "fp32", "the text keeps its weights in fp32")  # 4 + 4 + 8, not mixed precision's 2 + 2 + 12
    index = run(doc, "model_state_memory", inputs)
    if index is not None and inputs.sources.get("zero_stage", {}).get("source") != "text":
        # no sharding stated: "without ZeRO every data-parallel chip holds all of it: 2.8 TB per chip" is a chip no one
        # has (round 48, a post sizing 16N bytes against "roughly 35 A100-80GB GPUs"); the total is the finding
        calc = doc.calculations[index]
        calc["steps"] = [s for s, w in zip(calc["steps"], calc["working"]) if w.get("key") != "model_state_memory.no_zero"]
        calc["working"] = [w for w in calc["working"] if w.get("key") != "model_state_memory.no_zero"]
    return index


CHECKPOINT_BYTES = 14.0
_CHECKPOINT = re.compile(r"\bcheckpoints?\b|\bckpts?\b|نقط(?:ة|تا|ات) الحفظ|نقاط الحفظ", re.I)
_FP32 = re.compile(r"\b(?:fp32|float32|single[- ]precision|full[- ]precision)\b", re.I)
_OFFLOADED = re.compile(r"\boffload(?:s|ed|ing)?\b|\bCPU[- ]offload|تفريغ|إزاحة إلى المعالج", re.I)
_MIXED = re.compile(r"\b(?:bf16|fp16|bfloat16|float16|mixed[- ]precision|half[- ]precision|fp8)\b", re.I)


def _sharding(doc: Document, claim: Claim, inputs: Inputs) -> None:
    """The ZeRO stage and the data-parallel ranks it shards over: stated, or every chip when no TP or PP is stated."""
    zero, dp = figure(doc, claim, "zero_stage"), figure(doc, claim, "dp_degree", "n_ranks")
    if zero is None:
        return
    count = unique(doc, claim, "n_chips")  # "Yes (2 GPUs)" in one row of a table is no other row's job (round 54 P15)
    own = zero in claim.figures
    if not own and (competing(doc, "n_chips") or dp is None and (count is None or figure(doc, claim, "tp_degree")
                                                                   or figure(doc, claim, "pp_degree"))):
        return  # a stage from elsewhere and several set-ups (a table's rows) or no count of ranks: this claim's is unsaid
    inputs.text("zero_stage", zero)
    if dp is not None:
        inputs.text("dp_degree", dp)
        return
    if count is not None and figure(doc, claim, "tp_degree") is None and figure(doc, claim, "pp_degree") is None:
        inputs.derived("dp_degree", count.value, f"{count.quote}, all data-parallel (no TP or PP stated)")


# a size the sentence says something needs, or the result of its own arithmetic, is a requirement, not a capacity
_REQUIRED = re.compile(r"\b(?:needs?|required?|requires|requirement|takes?|consumes?|uses?)\b(?!.*\b(?:has|with|of)\b)"
                       r"|[=≈]\s*$|يتطلب|تتطلب|يحتاج|تحتاج|يستهلك|تستهلك", re.I)


def _fits(doc: Document, claim: Claim, capacity) -> Result | None:
    """A chip's memory the text states: whether the model states fit in it (a capacity is a bound, not a figure to equal)."""
    before = doc.text[max(claim.start, capacity.start - 60):capacity.start]
    if _REQUIRED.search(before):
        return None  # "needs 6.7B * 20 = 134 GB of memory": what the model requires, not what each chip has
    if _OFFLOADED.search(doc.text):
        return None  # "whose CPU-offloaded optimizer already fits": states the text keeps off the chip (round 51 P02)
    split = [f for f in doc.figures if f.quantity in ("tp_degree", "pp_degree", "cp_degree", "ep_degree", "dp_degree") and f.value > 1
             or f.quantity in ("n_chips", "n_ranks") and f.value > 1]
    if split and figure(doc, claim, "zero_stage") is None:
        return None  # several chips and no sharding stated: whole unsharded states per chip would be a guess, not a finding
    index = _model_states(doc, claim)
    if index is None:
        return None
    outputs = doc.calculations[index]["outputs"]
    per_chip = outputs.get("bytes_per_chip", outputs["bytes_total"])  # unsharded (its per-chip figure dropped): the total
    if not verdicts.possible("bytes_per_chip", per_chip) or per_chip > _UNSHARDED_FACTOR * capacity.value:
        # far beyond the chip: the text's job shards or offloads in a way it does not state; an unsharded size is no finding
        discard(doc, index)
        return None
    key = "fits" if per_chip <= capacity.value else "does_not_fit"
    return Result([index], "explained", messages(doc.lang)["verdicts"][key].format(
        computed=restate.value("bytes_per_chip", per_chip), stated=capacity.quote))


@cache
def _formats() -> list[tuple[re.Pattern, float, str]]:
    """data/precisions.json: each number format's pattern, bytes per value and name."""
    data = json.loads((data_dir() / "precisions.json").read_text(encoding="utf-8"))
    return [(re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(n) for n in f["names"]) + r")(?![\w-])", re.I), f["bytes"], f["names"][0])
            for f in data["formats"]]


def number_formats() -> list[tuple[re.Pattern, float, str]]:
    """Each number format's pattern, bytes per value and name (data/precisions.json), for other checkers."""
    return _formats()


def precisions_named(text: str) -> list[str]:
    """The number formats a text names (data/precisions.json), by their first name, in the order they appear."""
    named = sorted((m.start(), name) for pattern, _, name in _formats() for m in pattern.finditer(text))
    return list(dict.fromkeys(name for _, name in named))


def precision_change(doc: Document, claim: Claim) -> Result | None:
    """"from bf16 to fp8 ... from 140 GB to 70 GB": memory scales by the ratio of the formats' widths (2 bytes -> 1)."""
    before = next((f for f in claim.figures if f.role == "before" and verdicts.kind(f.quantity) == "memory"), None)
    after = next((f for f in claim.figures if f.role == "after" and verdicts.kind(f.quantity) == "memory"), None)
    saving = next((f for f in claim.figures if f.quantity == "percent_change" and f.value < 0), None)
    if (before is None or after is None) and (saving is None or not _MEMORY.search(claim.quote)):
        return None
    named = sorted((m.start(), size, name) for pattern, size, name in _formats() for m in pattern.finditer(claim.quote))
    names = list(dict.fromkeys((size, name) for _, size, name in named))
    if len(names) != 2 or names[0][0] == names[1][0]:
        return None  # one change of format, in the order the text names them ("from bf16 to fp8")
    (old_size, old), (new_size, new) = names
    if before is None or after is None:
        first, last = named[0][0], max(m.end() for pattern, _, _ in _formats() for m in pattern.finditer(claim.quote))
        # a saving goes from the wider format to the narrower, whichever the text names first ("FP8 ... 39% less than
        # the BF16 framework" is bf16 -> fp8): the other way round would be a 'saving' of -100%
        (old_size, old), (new_size, new) = sorted(names, reverse=True)
        return _saving(doc, saving, claim.quote[first:last], old, old_size, new, new_size)
    inputs = Inputs(doc.lang)
    inputs.values["expression"] = f"{before.value:g} * {new_size:g} / {old_size:g}"
    inputs.sources["expression"] = {"source": "derived", "from": f"{before.quote} x {new_size:g} / {old_size:g} bytes per value ({new} / {old})"}
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    return compare(doc, after, doc.calculations[index]["outputs"]["value"], "bytes", [index])


_MEMORY = re.compile(r"memory|\bGB\b|\bHBM\b|footprint|ذاكرة|الذاكرة", re.I)


def _saving(doc: Document, saving, said: str, old: str, old_size: float, new: str, new_size: float) -> Result | None:
    """"bf16 -> fp8 should halve the memory, but we measured a 39% saving": the format's own saving beside the measured one
    (smaller when part of the memory, activations or optimizer states, stays in another format); explained, never judged."""
    if new_size > old_size:  # a saving goes to the narrower format, whichever the text names first ("fp8 ... than bf16")
        old, old_size, new, new_size = new, new_size, old, old_size
    inputs = Inputs(doc.lang)
    inputs.text_with("expression", f"1 - {new_size:g} / {old_size:g}", said, f"{old_size:g} and {new_size:g} bytes per value (data/precisions.json)")
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    share = doc.calculations[index]["outputs"]["value"]
    m = messages(doc.lang)["verdicts"]
    key = "format_saving_less" if abs(saving.value) < share - 0.02 else "format_saving"
    return Result([index], None, m[key].format(old=old, new=new, old_size=f"{old_size:g}", new_size=f"{new_size:g}",
                                               share=restate.value("mfu", share), stated=saving.quote))


_FACTOR = re.compile(r"\d\s*[x×]|times|أضعاف|مرات", re.I)
_FACTOR_REACH = 1  # the formats may be named in the sentence before ("quantized to int4 ... restored to fp16. This saves 4x")


def format_factor(doc: Document, claim: Claim) -> Result | None:
    """A memory saving stated as a factor beside two number formats ("int4 weights ... save memory by 4x" after "fp16"):
    the ratio of the formats' widths (2 / 0.5 = 4x) for what is stored in the narrower one; explained, never judged,
    since the memory may hold more than the values whose format changes."""
    factors = [f for f in claim.figures if f.quantity in ("reduction_factor", "ratio") and 1.5 <= f.value <= 16 and _FACTOR.search(f.quote)]
    if len(factors) != 1 or not _MEMORY.search(claim.quote):
        return None
    index = next((i for i, (a, b) in enumerate(doc.sentences) if a <= claim.start < b), None)
    if index is None:
        return None
    start = doc.sentences[max(0, index - _FACTOR_REACH)][0]
    named = sorted((m.start(), size, m.group()) for pattern, size, _ in _formats() for m in pattern.finditer(doc.text, start, claim.start + len(claim.quote)))
    sizes = list(dict.fromkeys((size, name) for _, size, name in named))  # each as the text writes it ("int4", not "fp4")
    sizes = list({size: (size, name) for size, name in reversed(sizes)}.values())  # one name per width, the first written
    if len(sizes) != 2 or sizes[0][0] == sizes[1][0]:
        return None  # one change of format between two widths, or the saving is not about a format
    (old_size, old), (new_size, new) = sorted(sizes, reverse=True)
    inputs = Inputs(doc.lang)
    inputs.text_with("expression", f"{old_size:g} / {new_size:g}", factors[0].quote, f"{old_size:g} and {new_size:g} bytes per value (data/precisions.json)")
    run_index = run(doc, "arithmetic", inputs)
    if run_index is None:
        return None
    factor = doc.calculations[run_index]["outputs"]["value"]
    key = "format_factor" if abs(factor - factors[0].value) <= 0.1 * factors[0].value else "format_factor_other"
    return Result([run_index], None, messages(doc.lang)["verdicts"][key].format(
        old=old, new=new, old_size=f"{old_size:g}", new_size=f"{new_size:g}", factor=f"{factor:g}", stated=factors[0].quote))
