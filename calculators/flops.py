"""Training FLOPs, model and hardware FLOPs utilisation, and training time."""

from .errors import CalculatorInputError
from .formatting import human as h
from .registry import BATCH_TOKENS_BEYOND, MAX_BATCH_TOKENS, Calculator, Field, register
from .scalars import any_true
from .working import step

PALM = "Chowdhery et al. 2022, PaLM, Appendix B: FLOPs per token = 6N + 12 L H Q T; MFU = tokens/s x FLOPs per token / peak"
KORTHIKANTI = "Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models, section 6 (model vs hardware FLOPs)"
MEGATRON = "Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM, eq. 4: time = 8 T P / (n X)"
KAPLAN = "Kaplan et al. 2020, Scaling Laws for Neural Language Models, section 2.1 (C = 6 N D)"

ATTENTION_FIELDS = ("n_layers", "n_heads", "head_dim", "seq_len")
RECOMPUTE = ("none", "selective", "full")


def attention_flops_per_token(v: dict):
    """PaLM's attention term 12 L H Q T, or 0 when the attention fields are not all given."""
    given = [name for name in ATTENTION_FIELDS if v.get(name) is not None]
    if not given:
        return 0.0
    if len(given) != len(ATTENTION_FIELDS):
        missing = [name for name in ATTENTION_FIELDS if v.get(name) is None]
        raise CalculatorInputError(missing[0], f"is needed with {', '.join(given)} to count attention FLOPs (give all of {', '.join(ATTENTION_FIELDS)} or none)")
    return 12.0 * v["n_layers"] * v["n_heads"] * v["head_dim"] * v["seq_len"]


def flops_per_token(v: dict):
    """Model and hardware FLOPs per token and the steps that derive them."""
    params = v["params"]
    dense = 6.0 * params
    attention = attention_flops_per_token(v)
    model = dense + attention
    recompute = v.get("recompute", "none")
    if recompute == "full":
        hardware = model * 4.0 / 3.0  # one more forward pass: 2 of every 6 units again
    elif recompute == "selective":
        hardware = model + attention  # only attention scores are recomputed (Korthikanti et al.)
    else:
        hardware = model
    steps = [step("flops.dense", params=(params, "count"), dense=(dense, "flops"))]
    if any_true(attention):  # a scalar, or an array when sweeping
        steps.append(step("flops.attention", layers=(v["n_layers"], "count"), heads=(v["n_heads"], "count"), head_dim=(v["head_dim"], "count"),
                          seq_len=(v["seq_len"], "count"), attention=(attention, "flops")))
        steps.append(step("flops.model", dense=(dense, "flops"), attention=(attention, "flops"), model=(model, "flops")))
    if recompute != "none":
        steps.append(step(f"flops.recompute_{recompute}", hardware=(hardware, "flops")))
    return model, hardware, attention, steps


def _moe_note(v: dict) -> list[str]:
    entry = v["_entries"].get("model")
    if entry and entry.get("params_active") and entry.get("params_total") and entry["params_active"] != entry["params_total"]:
        return [f"{entry['name']} is a mixture of experts: FLOPs use its {h(entry['params_active'], 'count')} active parameters per token, not its {h(entry['params_total'], 'count')} total"]
    return []


def training_flops(v: dict):
    """Total training FLOPs = FLOPs per token x tokens (Kaplan's 6ND plus PaLM's attention term)."""
    model, hardware, _, steps = flops_per_token(v)
    total = model * v["tokens"]
    steps.append(step("flops.total", model=(model, "flops"), tokens=(v["tokens"], "count"), total=(total, "flops")))
    assumptions = ["parameters are the ones each token uses (active parameters for a mixture of experts)",
                   "embedding and element-wise operations are inside the 6N approximation; the logits layer counts if its weights are in the parameter count"]
    outputs = {"flops_per_token": model, "total_flops": total, "hardware_flops_per_token": hardware}
    return outputs, steps, _moe_note(v) + assumptions


def mfu(v: dict):
    """MFU = tokens/s x model FLOPs per token / (chips x peak); HFU counts recomputation (PaLM, Korthikanti)."""
    model, hardware, _, steps = flops_per_token(v)
    if v["tokens_per_s"] is not None:
        tokens_per_s = v["tokens_per_s"]
    elif v["global_batch_tokens"] is not None and v["step_time_s"] is not None:
        tokens_per_s = v["global_batch_tokens"] / v["step_time_s"]
        steps.append(step("mfu.throughput", batch=(v["global_batch_tokens"], "count"), step_time=(v["step_time_s"], "seconds"),
                          tokens_per_s=(tokens_per_s, "count")))
    else:
        missing = "step_time_s" if v["global_batch_tokens"] is not None else "tokens_per_s"
        raise CalculatorInputError(missing, "is required: give tokens_per_s, or global_batch_tokens and step_time_s")
    n, peak = v["n_chips"], v["peak_flop_per_s"]
    achieved = tokens_per_s * model
    value = achieved / (n * peak)
    hfu = tokens_per_s * hardware / (n * peak)
    per_chip = (achieved / n, "flop_per_s")
    steps.append(step("mfu.model_rate", tokens_per_s=(tokens_per_s, "count"), flops_per_token=(model, "flops"), achieved=(achieved, "flop_per_s"),
                      per_chip=per_chip))
    steps.append(step("mfu.mfu", per_chip=per_chip, peak=(peak, "flop_per_s"), mfu=(value, "fraction")))
    if v["recompute"] != "none":
        steps.append(step("mfu.hfu", hfu=(hfu, "fraction")))
    assumptions = ["peak is the chip's dense bf16 rate (no sparsity)", "MFU counts only the FLOPs the model needs; recomputation raises HFU, not MFU"]
    outputs = {"mfu": value, "hfu": hfu, "model_flop_per_s_per_chip": achieved / n, "flops_per_token": model}
    return outputs, steps, _moe_note(v) + assumptions


def training_time(v: dict):
    """Time = total FLOPs / (chips x sustained FLOP/s): 6ND / (n x peak x MFU), or Megatron's 8TP/(nX) with recomputation."""
    n = v["n_chips"]
    if v["total_flops"] is not None:  # a text that states the FLOPs ("6.3e24 FLOPs") is checked with them as stated
        if v["recompute"] != "none":
            raise CalculatorInputError("recompute", "needs params and tokens: total_flops are model FLOPs, without recomputation")
        model = hardware = total = v["total_flops"]
        tokens, steps = 1.0, [step("training_time.total", total=(total, "flops"))]
    elif v["params"] is None or v["tokens"] is None:
        raise CalculatorInputError("params" if v["params"] is None else "tokens", "is required: give params (or model) and tokens, or total_flops")
    else:
        model, hardware, _, steps = flops_per_token(v)
        tokens = v["tokens"]
        total = model * tokens
        steps.append(step("flops.total", model=(model, "flops"), tokens=(tokens, "count"), total=(total, "flops")))
    if v["achieved_flop_per_s"] is not None:
        rate = v["achieved_flop_per_s"]
        work = hardware * tokens
        if v["recompute"] != "none":
            steps.append(step(f"training_time.hardware_{v['recompute']}", work=(work, "flops")))
        steps.append(step("training_time.time_sustained", work=(work, "flops"), n=(n, "count"), rate=(rate, "flop_per_s")))
    elif v["peak_flop_per_s"] is not None and v["mfu"] is not None:
        rate = v["peak_flop_per_s"] * v["mfu"]
        work = total
        steps.append(step("training_time.rate", peak=(v["peak_flop_per_s"], "flop_per_s"), mfu=(v["mfu"], "fraction"), rate=(rate, "flop_per_s")))
        steps.append(step("training_time.time_mfu", work=(work, "flops"), n=(n, "count"), rate=(rate, "flop_per_s")))
    else:
        missing = "mfu" if v["peak_flop_per_s"] is not None else "peak_flop_per_s"
        raise CalculatorInputError(missing, "is required: give peak_flop_per_s (or chip) and mfu, or achieved_flop_per_s")
    time = work / (n * rate)
    steps.append(step("training_time.result", time=(time, "seconds"), days=time / 86400, chip_hours=(time * n / 3600, "count")))
    assumptions = ["the whole run sustains this rate: no restarts, failures, evaluation or data stalls"]
    outputs = {"time_s": time, "days": time / 86400.0, "chip_hours": time * n / 3600.0, "total_flops": total}
    return outputs, steps, _moe_note(v) + assumptions


_PARAMS = Field("params", "count", "parameters used per token (active parameters for a mixture of experts)")
_ATTENTION = (
    Field("n_layers", "count", "transformer layers (with the next three, adds attention FLOPs)", default=None, integer=True),
    Field("n_heads", "count", "attention heads", default=None, integer=True),
    Field("head_dim", "count", "size of each attention head", default=None, integer=True),
    Field("seq_len", "count", "sequence length in tokens", default=None, integer=True),
)
_RECOMPUTE = Field("recompute", "choice", "activation recomputation: none, selective (attention) or full (one more forward pass)", default="none", choices=RECOMPUTE)
_MODEL_FIELDS = ("params", *ATTENTION_FIELDS)

register(Calculator(
    name="training_flops",
    summary="FLOPs to train on a number of tokens: 6 x parameters per token plus the attention term.",
    fields=(_PARAMS, Field("tokens", "count", "training tokens"), *_ATTENTION, _RECOMPUTE),
    compute=training_flops,
    sources=(KAPLAN, PALM, KORTHIKANTI),
    takes_model=True,
    model_fields=_MODEL_FIELDS,
))

register(Calculator(
    name="mfu",
    summary="Model FLOPs utilisation (MFU) and hardware FLOPs utilisation (HFU) from throughput, chips and peak.",
    fields=(
        _PARAMS,
        Field("n_chips", "count", "chips in the job", integer=True),
        Field("peak_flop_per_s", "flop_per_s", "peak dense bf16 FLOP/s per chip"),
        Field("tokens_per_s", "count", "tokens processed per second by the whole job", default=None),
        Field("global_batch_tokens", "count", "tokens per optimizer step", default=None, minimum=1.0, maximum=MAX_BATCH_TOKENS, beyond=BATCH_TOKENS_BEYOND),
        Field("step_time_s", "seconds", "time per optimizer step", default=None),
        *_ATTENTION,
        _RECOMPUTE,
    ),
    compute=mfu,
    sources=(PALM, KORTHIKANTI),
    takes_chip=True,
    takes_model=True,
    model_fields=_MODEL_FIELDS,
))

register(Calculator(
    name="training_time",
    summary="Wall-clock days and chip-hours to train on a number of tokens at a given MFU or sustained FLOP/s.",
    fields=(
        Field("params", "count", _PARAMS.doc, default=None),
        Field("tokens", "count", "training tokens", default=None),
        Field("n_chips", "count", "chips in the job", integer=True),
        Field("total_flops", "flops", "total training FLOPs, instead of params and tokens", default=None),
        Field("peak_flop_per_s", "flop_per_s", "peak dense bf16 FLOP/s per chip", default=None),
        Field("mfu", "fraction", "model FLOPs utilisation", default=None),
        Field("achieved_flop_per_s", "flop_per_s", "hardware FLOP/s sustained per chip, recomputation included", default=None),
        *_ATTENTION,
        _RECOMPUTE,
    ),
    compute=training_time,
    sources=(MEGATRON, KAPLAN, PALM),
    takes_chip=True,
    takes_model=True,
    model_fields=_MODEL_FIELDS,
))
