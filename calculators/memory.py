"""Memory for model states (weights, gradients, optimizer; ZeRO) and for activations."""

import numpy as np
from numpy import ndarray  # bound once: numpy's module defines __getattr__, so the interpreter cannot cache np.ndarray lookups

from .errors import CalculatorInputError
from .formatting import human as h
from .registry import MAX_MICRO_BATCH, MICRO_BATCH_BEYOND, Calculator, Field, register
from .scalars import all_true
from .working import step

# What each division of the bytes per parameter assumes (ZeRO section 3.1 for the mixed-precision 2 + 2 + 12)
_SPLITS = {
    "mixed": "mixed-precision Adam: bf16 weights and gradients, fp32 master weights and two moments (16 bytes per parameter)",
    "fp32": "fp32 training with Adam: fp32 weights and gradients (4 bytes each), the rest the optimizer's moments",
    "checkpoint": "a checkpoint: the weights (2 bytes in bf16) and the optimizer's fp32 master weights and moments, no gradients",
}
ZERO = "Rajbhandari et al. 2020, ZeRO: Memory Optimizations Toward Training Trillion Parameter Models, section 5 (2+2+K bytes per parameter, K=12 for Adam)"
KORTHIKANTI = "Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models, sections 4-5 and Table 2"


def model_state_memory(v: dict):
    """Bytes of weights, gradients and optimizer states in total and per chip under ZeRO stage 0-3."""
    params, per_param, stage, dp = v["params"], v["bytes_per_param"], v["zero_stage"], v["dp_degree"]
    split = v.get("split") or "mixed"
    # Python floats for single questions: numpy scalars would warn on an overflow the registry reports itself.
    smaller = np.minimum if isinstance(per_param, ndarray) else min
    width = 4.0 if split == "fp32" else 2.0  # bytes of one weight (and one gradient): fp32, or bf16 under mixed precision
    weights = smaller(per_param, width)
    grads = 0.0 * per_param if split == "checkpoint" else smaller(per_param - weights, width)  # a checkpoint keeps no gradients
    optimizer = per_param - weights - grads
    total = params * per_param
    key = "model_state_memory.checkpoint" if split == "checkpoint" else "model_state_memory.total"
    steps = [step(key, params=(params, "count"), per_param=per_param, total=(total, "bytes"),
                  weights=weights, grads=grads, optimizer=optimizer)]
    stage = int(stage)
    per_chip_bytes_per_param = (
        weights / (dp if stage >= 3 else 1) + grads / (dp if stage >= 2 else 1) + optimizer / (dp if stage >= 1 else 1)
    )
    per_chip = params * per_chip_bytes_per_param
    if stage:
        # one key per stage: what each stage shards is a phrase of its own in every language
        steps.append(step(f"model_state_memory.zero_{stage}", dp=(dp, "count"), per_param_per_chip=per_chip_bytes_per_param,
                          per_chip=(per_chip, "bytes")))
    else:
        steps.append(step("model_state_memory.no_zero", per_chip=(per_chip, "bytes")))
    assumptions = [_SPLITS[split],
                   "activations, temporary buffers and fragmentation come on top (see activation_memory)",
                   "tensor and pipeline parallelism would divide this further; they are not applied here"]
    entry = v["_entries"].get("model")
    if entry and entry.get("params_active") and entry.get("params_total") and entry["params_active"] != entry["params_total"]:
        assumptions.insert(0, f"{entry['name']} is a mixture of experts: memory holds all {h(entry['params_total'], 'count')} parameters, not only the {h(entry['params_active'], 'count')} active ones")
    return {"bytes_total": total, "bytes_per_chip": per_chip}, steps, assumptions


def activation_memory(v: dict):
    """Korthikanti et al. bytes per layer: sbh(34 + 5as/h), with their TP, SP, selective and full forms."""
    s, b, hidden, a, layers = v["seq_len"], v["micro_batch"], v["d_model"], v["n_heads"], v["n_layers"]
    t, sp, recompute = v["tp_degree"], v["sequence_parallel"], v["recompute"]
    sbh = s * b * hidden
    attention_scores = 5 * a * s / hidden
    if recompute == "full":
        per_layer = 2 * sbh / (t if sp else 1)
        formula = "2sbh/t" if sp else "2sbh"
    elif recompute == "selective":
        per_layer = 34 * sbh / t if sp else sbh * (10 + 24 / t)
        formula = "34sbh/t" if sp else "sbh(10 + 24/t)"
    elif sp:
        per_layer = sbh / t * (34 + attention_scores)
        formula = "sbh/t (34 + 5as/h)"
    elif all_true(t == 1):
        per_layer = sbh * (34 + attention_scores)
        formula = "sbh(34 + 5as/h)"
    else:
        per_layer = sbh * (10 + 24 / t + attention_scores / t)
        formula = "sbh(10 + 24/t + 5as/(ht))"
    total = per_layer * layers
    steps = [
        step("activation_memory.sbh", s=(s, "count"), b=(b, "count"), h=(hidden, "count"), sbh=(sbh, "count"), scores=attention_scores),
        step("activation_memory.per_layer_full" if recompute == "full" else "activation_memory.per_layer", formula=formula, per_layer=(per_layer, "bytes")),
        step("activation_memory.total", layers=(layers, "count"), total=(total, "bytes")),
    ]
    assumptions = ["16-bit activations and 1-byte dropout masks, as in Korthikanti et al.; no FlashAttention (which removes the 5as/h term like selective recomputation)",
                   "per microbatch in flight; a pipeline's first stage holds several (see pipeline_bubble)"]
    return {"bytes_per_layer": per_layer, "bytes_total": total}, steps, assumptions


def _check_stage(v):
    if v not in (0, 1, 2, 3):
        raise CalculatorInputError("zero_stage", f"must be 0, 1, 2 or 3, got {v!r}")


def _model_state(v: dict):
    stage = v["zero_stage"]
    if isinstance(stage, ndarray):
        raise CalculatorInputError("zero_stage", "must be a single stage, not an array")
    _check_stage(stage)
    return model_state_memory(v)


register(Calculator(
    name="model_state_memory",
    summary="Memory for weights, gradients and optimizer states, in total and per chip with ZeRO stages 0-3.",
    fields=(
        Field("params", "count", "all parameters (total, not active, for a mixture of experts)"),
        Field("bytes_per_param", "bytes", "bytes per parameter for weights, gradients and optimizer", default=16.0),
        Field("zero_stage", "count", "ZeRO stage 0-3", default=0.0, integer=True, allow_zero=True),
        Field("dp_degree", "count", "data-parallel chips sharing the states", default=1.0, integer=True),
        Field("split", "choice", "how the bytes divide: mixed (bf16 weights and gradients, fp32 master weights and Adam's two "
              "moments), fp32 (fp32 weights, gradients and moments) or checkpoint (weights and optimizer states, no gradients)",
              default="mixed", choices=tuple(_SPLITS)),
    ),
    compute=_model_state,
    sources=(ZERO,),
    takes_model=True,
    model_fields=("params=total_params",),
))

register(Calculator(
    name="activation_memory",
    summary="Activation memory per layer and in total for one microbatch (Korthikanti et al. 2022).",
    fields=(
        Field("seq_len", "count", "sequence length (s)", integer=True),
        Field("micro_batch", "count", "sequences per microbatch (b)", integer=True, maximum=MAX_MICRO_BATCH, beyond=MICRO_BATCH_BEYOND),
        Field("d_model", "count", "hidden size (h)", integer=True),
        Field("n_heads", "count", "attention heads (a)", integer=True),
        Field("n_layers", "count", "transformer layers (L)", integer=True),
        Field("tp_degree", "count", "tensor-parallel degree (t)", default=1.0, integer=True),
        Field("sequence_parallel", "bool", "sequence parallelism on top of tensor parallelism", default=False),
        Field("recompute", "choice", "activation recomputation", default="none", choices=("none", "selective", "full")),
    ),
    compute=activation_memory,
    sources=(KORTHIKANTI,),
    takes_model=True,
    model_fields=("seq_len", "d_model", "n_heads", "n_layers"),
))
