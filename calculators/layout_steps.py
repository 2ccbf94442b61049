"""evaluate_layout: one training layout scored piece by piece, with each formula and its source in the working."""

import numpy as np

from .errors import CalculatorInputError
from .layout_framework import check_supported
from .layout_inputs import JOB_FIELDS, LAYOUT_FIELDS, MODEL_FIELDS, SCHEDULES, check_layout, resolve_job
from .layout_model import MEMORY_PARTS, TIME_PARTS, binding, binding_share, evaluate, flops_per_token, shape_efficiency
from .registry import Calculator, register
from .working import step, word

SOURCES = (
    "Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM: tensor, pipeline (bubble (p-1)/(v m)) and data parallelism",
    "Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models: sequence parallelism, recomputation, activation memory",
    "Austin et al., How to Scale Your Model (JAX scaling book): collective costs on GPUs and TPU tori, FSDP and expert-parallel rooflines",
    "Rajbhandari et al. 2020, ZeRO: 16 bytes per parameter for mixed-precision Adam, sharded by stage",
    "DeepSeek-AI 2024, DeepSeek-V3 Technical Report, Table 2: DualPipe bubble (PP/2-1)(F&B+B-3W) and two parameter copies",
    "Chowdhery et al. 2022, PaLM, Appendix B: model FLOPs per token 6N + 12 L H Q T",
    "data/achievable_fraction.json 'logits', 'memory_reserve' and 'memory_line': memory calibrated on peaks measured on an H100 80GB HBM3, 2026-11 (bench/calibrate.py)",
    "data/achievable_fraction.json: achievable fraction of peak per chip and precision (measured on an H100 80GB HBM3, 2026-11, and published benchmarks)",
)
RECOMPUTE_CODE = {"none": 0.0, "selective": 1.0, "full": 2.0, "selective_op": 3.0}


def layout_arrays(v: dict) -> dict:
    """The layout fields of one evaluate_layout call as one-element arrays, the schedule settled."""
    virtual = float(v["virtual_stages"])
    schedule = v["schedule"] or ("interleaved" if virtual > 1 else "1f1b")
    if virtual > 1 and v["pp_degree"] == 1:
        raise CalculatorInputError("virtual_stages", "above 1 needs pp_degree above 1 (virtual stages split a pipeline's stages)")
    if virtual > 1 and schedule not in ("interleaved", "dualpipe"):
        raise CalculatorInputError("virtual_stages", f"above 1 needs schedule interleaved, not {schedule}")
    if schedule != "1f1b" and v["pp_degree"] == 1:
        raise CalculatorInputError("schedule", f"{schedule} is a pipeline schedule: it needs pp_degree above 1")
    v["schedule"] = schedule
    etp = v["tp_degree"] if v.get("expert_tp_degree") is None else v["expert_tp_degree"]
    values = dict(tp=v["tp_degree"], pp=v["pp_degree"], vs=virtual, ep=v["ep_degree"], cp=v["cp_degree"], etp=etp, zero=v["zero_stage"],
                  mb=v["micro_batch"], rc=RECOMPUTE_CODE[v["recompute"]], sched=float(SCHEDULES.index(schedule)))
    return {key: np.array([float(value)]) for key, value in values.items()}


def describe(lay: dict, i: int, dp) -> str:
    """'TP 8 · PP 16 (interleaved, 8 virtual) · DP 64 · ZeRO-1 · micro-batch 1 · full recomputation' for layout i."""
    g = {key: int(lay[key][i]) for key in ("tp", "pp", "vs", "ep", "cp", "zero", "mb", "rc", "sched")}
    parts = [f"{name} {g[key]}" for key, name in (("tp", "TP"), ("cp", "CP"), ("pp", "PP")) if g[key] > 1]
    if g["pp"] > 1:
        parts[-1] += f" ({SCHEDULES[g['sched']]}" + (f", {g['vs']} virtual)" if g["vs"] > 1 else ")")
    if g["ep"] > 1:
        parts.append(f"EP {g['ep']}" + (f" (expert TP {int(lay['etp'][i])})" if "etp" in lay and lay["etp"][i] != lay["tp"][i] else ""))
    parts.append(f"DP {int(dp[i])}")
    parts.append("FSDP (ZeRO-3)" if g["zero"] == 3 else f"ZeRO-{g['zero']}" if g["zero"] else "no ZeRO")
    parts.append(f"micro-batch {g['mb']}")
    if g["rc"]:
        parts.append({1: "selective", 2: "full", 3: "per-op selective"}[g["rc"]] + " recomputation")
    return " · ".join(parts)


def layout_dict(lay: dict, i: int, dp) -> dict:
    """Layout i as DESIGN.md's layout fields."""
    return {"tp_degree": int(lay["tp"][i]), "pp_degree": int(lay["pp"][i]), "virtual_stages": int(lay["vs"][i]),
            "ep_degree": int(lay["ep"][i]), "cp_degree": int(lay["cp"][i]), "expert_tp_degree": int(lay.get("etp", lay["tp"])[i]), "dp_degree": int(dp[i]), "zero_stage": int(lay["zero"][i]),
            "micro_batch": int(lay["mb"][i]), "recompute": ("none", "selective", "full", "selective_op")[int(lay["rc"][i])],
            "schedule": SCHEDULES[int(lay["sched"][i])]}


def outputs_of(job: dict, result: dict, bind, i: int) -> dict:
    """DESIGN.md's evaluate_layout outputs for layout i of an evaluated array."""
    times = {name: float(result["times"][name][i]) for name in TIME_PARTS}
    if float(result["times"]["offload"][i]):
        times["offload"] = float(result["times"]["offload"][i])
    return {
        "step_time_s": float(result["step_time_s"][i]), "tokens_per_s_per_chip": float(result["tokens_per_s_per_chip"][i]),
        "model_flop_per_s_per_chip": float(result["model_flop_per_s_per_chip"][i]), "mfu": float(result["mfu"][i]),
        "time_breakdown_s": times,
        "memory_breakdown_bytes": {name: float(result["memory"][name][i]) for name in MEMORY_PARTS},
        "memory_bytes_per_chip": float(result["memory_bytes_per_chip"][i]),
        "memory_fraction_of_hbm": float(result["memory_fraction_of_hbm"][i]), "fits_memory": bool(result["fits_memory"][i]),
        "memory_line": float(result["memory_line"]),
        "binding_constraint": str(bind[i]), "binding_share": binding_share(result, bind, i),
    }


def explain(job: dict, lay: dict, r: dict, bind, i: int) -> list[dict]:
    """The working of layout i: one step per piece of the model, numbers substituted, sources named."""
    g = {key: float(lay[key][i]) for key in lay}
    x = {key: (float(value[i]) if isinstance(value, np.ndarray) else value) for key, value in r.items() if key not in ("times", "memory")}
    t = {key: float(value[i]) for key, value in r["times"].items()}
    mem = {key: float(value[i]) for key, value in r["memory"].items()}
    dp, micro = x["dp_degree"], x["microbatches"]
    steps = [step("layout.degrees", tp=(g["tp"], "count"), cp=(g["cp"], "count"), pp=(g["pp"], "count"), dp=(dp, "count"),
                  n=(job["n_chips"], "count"), ep=(g["ep"], "count"), zero=(g["zero"], "count"), micro=(micro, "count"),
                  mb=(g["mb"], "count"), tokens=(x["tokens_mb"], "count"), domain=job["fast_domain_name"])]
    if g["pp"] > 1:
        steps.append(step("layout.schedule", schedule=SCHEDULES[int(g["sched"])], vs=(g["vs"], "count"), units=(x["stage_units"], ""),
                          layers=(job["n_layers"], "count")))
    flops = flops_per_token(job)
    steps.append(step("layout.flops", active=(job["active_params"], "count"), layers=(job["n_layers"], "count"),
                      heads=(job["n_heads"], "count"), head_dim=(job["head_dim"], "count"), seq=(job["seq_len"], "count"), flops=(flops, "flops")))
    shape = shape_efficiency(job, x["tokens_mb"], job["d_model"], job["d_model"] / g["tp"])
    steps.append(step("layout.rate", peak=(job["peak"], "flop_per_s"), precision=job["precision"], fraction=(job["gemm_fraction"], "fraction"),
                      shape=(float(shape), "fraction"), rate=(job["peak"] * job["gemm_fraction"] * float(shape), "flop_per_s"),
                      attention=(job["attention_fraction"], "fraction"),
                      kernel=word("layout.kernel_fused" if job["fused_attention"] else "layout.kernel_unfused")))
    note = {0: "", 1: word("layout.recompute_selective"), 2: word("layout.recompute_full"), 3: word("layout.recompute_selective_op")}[int(g["rc"])]
    steps.append(step("layout.compute", gemm=(x["gemm_layer"], "seconds"), attn=(x["attention_layer"], "seconds"),
                      elem=(x["elementwise_layer"], "seconds"), layer=(x["compute_layer"], "seconds"), recompute=note,
                      units=(x["stage_units"], ""), micro=(micro, "count"), opt=(x["optimizer_step"], "seconds"),
                      overhead=(job["step_overhead"], "fraction"), compute=(t["compute"], "seconds")))
    if g["tp"] > 1:
        steps.append(step("layout.tp", tp=(g["tp"], "count"), time=(x["tp_time"], "seconds"), overlap=(job["tp_overlap"], "fraction"),
                          exposed=(t["tp_comm"], "seconds"), size=(x["tokens_mb"] * job["d_model"] * 2, "bytes")))
    if g["cp"] > 1:
        steps.append(step("layout.cp", cp=(g["cp"], "count"), time=(x["cp_time"], "seconds"), attn=(x["attention_layer"], "seconds"),
                          exposed=(t["cp_comm"], "seconds")))
    if job["moe"] and g["ep"] > 1:
        steps.append(step("layout.ep", ep=(g["ep"], "count"), k=(job["moe_top_k"], "count"), tokens=(x["tokens_mb"] / g["tp"], "count"),
                          time=(x["ep_time"], "seconds"), exposed=(t["ep_comm"], "seconds"),
                          hidden=word("layout.ep_dualpipe") if SCHEDULES[int(g["sched"])] == "dualpipe"
                          else step("layout.ep_overlap", overlap=(job["ep_overlap"], "fraction"))))
    if g["pp"] > 1:
        formula = {"1f1b": "(p-1)", "gpipe": "(p-1)", "interleaved": "(p-1)/v", "zero_bubble": "(p-1)/3", "dualpipe": "(p/2-1)/3"}
        steps.append(step("layout.bubble", formula=formula[SCHEDULES[int(g["sched"])]], units=(x["bubble_units"], ""),
                          stage=(x["compute_mb"], "seconds"), bubble=(t["pp_bubble"], "seconds")))
    if dp * g["cp"] > 1:
        steps.append(step("layout.dp", zero=(g["zero"], "count"), group=(dp * g["cp"], "count"), rs=(x["rs_time"], "seconds"),
                          exposed=(t["dp_comm"], "seconds"), grads=(2 * x["params_chip"], "bytes")))
    if t["offload"]:
        steps.append(step("layout.offload", what=job["offload"], bytes=(x["host_bytes"], "bytes"), time=(t["offload"], "seconds")))
    steps.append(step("layout.step", compute=(t["compute"], "seconds"), tp=(t["tp_comm"], "seconds"), pp=(t["pp_bubble"], "seconds"),
                      dp=(t["dp_comm"], "seconds"), ep=(t["ep_comm"], "seconds"), cp=(t["cp_comm"], "seconds"),
                      offload=(t["offload"], "seconds"), step=(x["step_time_s"], "seconds"), batch=(job["batch_tokens"], "count"),
                      n=(job["n_chips"], "count"), tps=(x["tokens_per_s_per_chip"], "count")))
    steps.append(step("layout.mfu", tps=(x["tokens_per_s_per_chip"], "count"), flops=(flops, "flops"), peak=(job["peak"], "flop_per_s"),
                      precision=job["precision"], mfu=(x["mfu"], "fraction")))
    steps.append(step("layout.memory", w=(mem["weights"], "bytes"), g=(mem["grads"], "bytes"), o=(mem["optimizer"], "bytes"),
                      a=(mem["activations"], "bytes"), b=(mem["buffers"], "bytes"), r=(mem["reserve"], "bytes"), zero=(g["zero"], "count"),
                      act_layer=(x["act_layer"], "bytes"), inflight=(x["inflight"], ""), total=(x["memory_bytes_per_chip"], "bytes"),
                      fraction=(x["memory_fraction_of_hbm"], "fraction"), hbm=(job["hbm"], "bytes"),
                      fits=step("layout.fits_yes" if x["fits_memory"] else "layout.fits_no", line=(job["memory_line"], "fraction"))))
    share = (binding_share(r, bind, i), "fraction")
    steps.append(step("layout.binding_memory", share=share) if not x["fits_memory"]
                 else step("layout.binding", binding=word(f"layout.bind.{bind[i]}"), share=share))
    return steps


def assumptions_of(job: dict) -> list[str]:
    """What the model takes for granted, in plain words."""
    notes = [
        "the achievable fraction of peak comes from the best large matrix multiply on this chip generation; thinner matrices run slower (a fit to H100 measurements, 2026-11)",
        f"{round((1 / job['step_overhead'] - 1) * 100)}% is added to compute for what per-kernel models miss (launches, synchronisation, data loading), "
        + ("fitted on every calibration run (give stack megatron or pytorch to use that stack's own fit)" if job["stack"] == "generic"
           else f"fitted on the calibration runs of the {job['stack']} stack"),
        f"collectives reach {job['collective_fraction']:.0%} of the links' one-way bandwidth and pay {job['collective_latency_s'] * 1e6:g} µs per ring step; ranks are placed tensor-parallel innermost, then context, expert, data and pipeline (Megatron-LM's order)",
        "tensor parallelism uses sequence parallelism; gradients are reduced in bf16; Adam keeps fp32 master weights and two moments (12 bytes per parameter)",
        f"activations assume {'a fused attention kernel without dropout (32·s·b·h bytes per layer for a GPT layer, as measured on an H100)' if job['fused_attention'] else 'unfused attention (Korthikanti et al.: 34·s·b·h + 5·a·s²·b bytes per layer)'}",
    ]
    if job["moe"]:
        notes.append("tokens are spread evenly over experts (no load imbalance); experts are also split by the tensor-parallel degree")
    if job["mlp_matrices"] == 3.0:
        notes.append("the feed-forward block is gated (SwiGLU: three matrices) since d_ff is not 4 x d_model")
    return notes


def evaluate_layout(v: dict):
    """Score one layout: step time and its exposed parts, memory per chip, MFU and the binding constraint."""
    job = resolve_job(v, tuple(f.name for f in JOB_FIELDS + LAYOUT_FIELDS))
    lay = layout_arrays(v)
    if job["framework"]:
        check_supported(job["framework"], lay, SCHEDULES)
    check_layout(job, lay["tp"], lay["pp"], lay["vs"], lay["ep"], lay["cp"], lay["mb"], lay["zero"], lay["etp"])
    result = evaluate(job, lay)
    bind = binding(result)
    outputs = outputs_of(job, result, bind, 0)
    outputs = {"layout": layout_dict(lay, 0, result["dp_degree"]), **outputs}
    return outputs, explain(job, lay, result, bind, 0), assumptions_of(job)


register(Calculator(
    name="evaluate_layout",
    summary="Score one parallel layout of a training job: step time, where it goes, memory per chip, MFU and what binds.",
    fields=JOB_FIELDS + LAYOUT_FIELDS,
    compute=evaluate_layout,
    sources=SOURCES,
    takes_chip=True,
    takes_model=True,
    model_fields=MODEL_FIELDS,
))
