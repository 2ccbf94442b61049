"""Activation memory a pipeline stage holds at its peak: all-forward-all-backward (GPipe) against 1F1B."""

import numpy as np

from .errors import CalculatorInputError
from .memory import KORTHIKANTI, activation_memory
from .registry import Calculator, Field, register
from .scalars import any_true
from .working import step

# Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM"
# (SC21), section 2.2.1 and figures 3-4: GPipe runs every forward pass, then every backward pass, so a stage
# stashes the activations of all m microbatches; the 1F1B schedule (PipeDream-Flush, Narayanan et al. 2021,
# "Memory-Efficient Pipeline-Parallel DNN Training", ICML) starts a backward pass as soon as it can, so at
# most p microbatches are in flight on the first stage (p - i on stage i).
PIPELINE_MEMORY = ("Narayanan et al. 2021 (Megatron-LM, SC21), section 2.2.1: GPipe / all-forward-all-backward keeps "
                   "the activations of all m microbatches; 1F1B limits in-flight microbatches to the pipeline depth p")


def pipeline_activation_memory(v: dict):
    """In-flight microbatches and activation bytes on the first stage under all-forward-all-backward and 1F1B."""
    p, m = v["pp_degree"], v["microbatches"]
    steps: list[dict] = []
    assumptions: list[str] = []
    per_microbatch = v.get("stage_activation_bytes")
    model_fields = ("seq_len", "micro_batch", "d_model", "n_heads", "n_layers")
    given = [name for name in model_fields if v.get(name) is not None]
    if per_microbatch is None and not given:
        assumptions.append("no model shape or per-stage bytes given: only the count of microbatches held is compared")
    elif per_microbatch is None:
        missing = [name for name in model_fields if v.get(name) is None]
        if missing:
            raise CalculatorInputError(missing[0], "is needed when stage_activation_bytes is not given "
                                                   "(give stage_activation_bytes, or the model's seq_len, micro_batch, d_model, n_heads and n_layers)")
        if any_true(v["n_layers"] < p):
            raise CalculatorInputError("pp_degree", "cannot exceed n_layers (a stage holds at least one layer)")
        layer, _, layer_assumptions = activation_memory({**v, "sequence_parallel": v.get("tp_degree", 1) > 1,
                                                          "recompute": v.get("recompute") or "none"})
        per_microbatch = layer["bytes_per_layer"] * v["n_layers"] / p
        steps.append(step("pipeline_memory.per_stage", per_layer=(layer["bytes_per_layer"], "bytes"),
                          layers=(v["n_layers"], "count"), p=(p, "count"), per_stage=(per_microbatch, "bytes")))
        if v.get("recompute") in (None, "none"):
            assumptions += layer_assumptions[:1]
        else:
            assumptions.append(f"recompute = {v['recompute']}: Korthikanti et al.'s form for it (selective drops the attention scores, "
                               "as FlashAttention does)")
        assumptions.append("layers split evenly over the stages; the first stage also holds the embedding, not counted here")
    if per_microbatch is None:
        per_microbatch = float("nan")
    afab_inflight = m * 1.0
    one_f_one_b = np.minimum(p, m) * 1.0
    afab_bytes, one_bytes = afab_inflight * per_microbatch, one_f_one_b * per_microbatch
    ratio = afab_inflight / one_f_one_b
    if np.all(np.isnan(per_microbatch)):
        steps += [step("pipeline_memory.afab_count", m=(m, "count")),
                  step("pipeline_memory.1f1b_count", inflight=(one_f_one_b, "count"))]
    else:
        steps += [
            step("pipeline_memory.afab", m=(m, "count"), per_stage=(per_microbatch, "bytes"), total=(afab_bytes, "bytes")),
            step("pipeline_memory.1f1b", inflight=(one_f_one_b, "count"), per_stage=(per_microbatch, "bytes"), total=(one_bytes, "bytes")),
        ]
    steps.append(step("pipeline_memory.ratio", ratio=ratio))
    assumptions.append("the first stage, which holds the most microbatches under 1F1B (stage i holds p - i); "
                       "interleaving and zero-bubble schedules differ slightly (see pipeline_bubble)")
    outputs = {"afab_inflight_microbatches": afab_inflight, "one_f_one_b_inflight_microbatches": one_f_one_b,
               "afab_activation_bytes": afab_bytes, "one_f_one_b_activation_bytes": one_bytes,
               "afab_over_one_f_one_b": ratio}
    return outputs, steps, assumptions


register(Calculator(
    name="pipeline_activation_memory",
    nan_means_none=("afab_activation_bytes", "one_f_one_b_activation_bytes"),
    summary="Peak activation memory of a pipeline stage: all-forward-all-backward (GPipe) holds all m microbatches, 1F1B about p.",
    fields=(
        Field("pp_degree", "count", "pipeline stages (p)", integer=True),
        Field("microbatches", "count", "microbatches per step (m)", integer=True),
        Field("stage_activation_bytes", "bytes", "activation bytes one microbatch leaves on one stage (else from the model's shape)", default=None),
        Field("seq_len", "count", "sequence length (s)", default=None, integer=True),
        Field("micro_batch", "count", "sequences per microbatch (b)", default=None, integer=True),
        Field("d_model", "count", "hidden size (h)", default=None, integer=True),
        Field("n_heads", "count", "attention heads (a)", default=None, integer=True),
        Field("n_layers", "count", "transformer layers (L)", default=None, integer=True),
        Field("tp_degree", "count", "tensor-parallel degree (t), with sequence parallelism when above 1", default=1.0, integer=True),
        Field("recompute", "choice", "activation recomputation", default="none", choices=("none", "selective", "full")),
    ),
    compute=pipeline_activation_memory,
    sources=(PIPELINE_MEMORY, KORTHIKANTI),
    takes_model=True,
    model_fields=("seq_len", "d_model", "n_heads", "n_layers"),
))
