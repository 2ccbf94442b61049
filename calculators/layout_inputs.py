"""Inputs of the layout planner: its fields, and the job (model, chip, topology, efficiencies) they resolve to."""

import json
from functools import cache

import numpy as np

from .errors import CalculatorInputError
from .layout_framework import framework_names
from .registry import BATCH_TOKENS_BEYOND, MAX_BATCH_TOKENS, MAX_MICRO_BATCH, MICRO_BATCH_BEYOND, Field
from .resources import data_dir

# Upper bounds no training job comes near (the largest runs use about 100,000 chips, a few hundred experts,
# 128 heads and 126 layers); the layout search enumerates divisors, so larger values are refused, not searched.
MAX_CHIPS, MAX_EXPERTS, MAX_HEADS, MAX_LAYERS = 2**22, 2**16, 2**16, 2**16

SCHEDULES = ("1f1b", "interleaved", "gpipe", "dualpipe", "zero_bubble")
RECOMPUTE = ("none", "selective", "full", "selective_op")
OFFLOAD = ("none", "optimizer", "activations", "both")
STACKS = ("generic", "megatron", "pytorch", "pytorch_compile")  # only stacks with calibration runs of their own (data/calibration_runs.json)

# Fields `model` fills; "params" is the total (memory), "active_params" the active count (FLOPs).
MODEL_FIELDS = ("params=total_params", "active_params=params", "n_layers", "d_model", "n_heads", "n_kv_heads", "d_ff",
                "vocab_size", "moe_experts", "moe_top_k", "seq_len")
# Catalog keys read from the entry itself when registry.model_fields does not map them.
_EXTRA_MODEL = {"n_kv_heads": "n_kv_heads", "d_ff": "d_ff", "vocab_size": "vocab_size", "moe_d_ff": "moe_d_ff",
                "moe_shared_experts": "moe_shared_experts", "n_dense_layers": "n_dense_layers", "head_dim": "head_dim"}

JOB_FIELDS = (
    Field("params", "count", "total parameters (all experts for a mixture of experts)", default=None),
    Field("active_params", "count", "parameters each token passes through (equal to params for a dense model)", default=None),
    Field("n_layers", "count", "transformer layers", default=None, integer=True),
    Field("d_model", "count", "hidden size", default=None, integer=True),
    Field("n_heads", "count", "attention (query) heads", default=None, integer=True),
    Field("n_kv_heads", "count", "key/value heads (n_heads without grouped-query attention)", default=None, integer=True),
    Field("d_ff", "count", "feed-forward width of a dense layer (4 x d_model if absent)", default=None, integer=True),
    Field("vocab_size", "count", "vocabulary size (embedding and output layer)", default=None, integer=True),
    Field("moe_experts", "count", "routed experts per MoE layer (dense model if absent)", default=None, integer=True),
    Field("moe_top_k", "count", "experts each token is routed to", default=None, integer=True),
    Field("moe_d_ff", "count", "feed-forward width of one routed expert (derived from params and active_params if absent)", default=None, integer=True),
    Field("moe_shared_experts", "count", "shared experts every token passes through, each moe_d_ff wide (0 if absent)", default=None, integer=True, allow_zero=True),
    Field("n_chips", "count", "chips in the job", integer=True),
    Field("global_batch_tokens", "count", "tokens per optimizer step across the job", minimum=1.0, maximum=MAX_BATCH_TOKENS, beyond=BATCH_TOKENS_BEYOND),
    Field("seq_len", "count", "tokens per sequence", default=None, integer=True),
    Field("precision", "choice", "number format of the matrix multiplies (the peak of that format is used)", default="bf16", choices=("bf16", "fp8")),
    Field("peak_flop_per_s", "flop_per_s", "dense bf16 peak per chip", default=None),
    Field("peak_fp8_flop_per_s", "flop_per_s", "dense fp8 peak per chip", default=None),
    Field("hbm_bytes", "bytes", "memory per chip (e.g. 96 GB for a variant)", default=None),
    Field("memory_bandwidth_bytes_per_s", "bytes_per_s", "memory bandwidth per chip", default=None),
    Field("fast_domain_chips", "count", "chips in one fast domain (8 per HGX node, 72 per NVL72 rack, a TPU slice)", default=None, integer=True),
    Field("fast_bandwidth_bytes_per_s", "bytes_per_s", "one-way bandwidth per chip inside the fast domain (NVLink; a TPU's ICI per axis)", default=None),
    Field("network_bandwidth_bytes_per_s", "bytes_per_s", "one-way network bandwidth per chip beyond the fast domain (one NIC per GPU; DCN for TPUs)", default=None),
    Field("achievable_fraction", "fraction", "fraction of the peak the best large matrix multiply reaches (data/achievable_fraction.json)", default=None),
    Field("tp_comm_overlap", "fraction", "share of tensor-parallel communication hidden under compute (the stack's usual share if absent: 0.5, "
          "0 for pytorch, whose tensor parallelism waits on its collectives unless async TP is on)", default=None, allow_zero=True),
    Field("ep_comm_overlap", "fraction", "share of expert-parallel all-to-all hidden under compute (DualPipe hides it all)", default=0.5, allow_zero=True),
    Field("attention_kernel", "choice", "fused (the chip's best fused kernel: FlashAttention-2 on A100, FlashAttention-3 or cuDNN on Hopper and later; no s x s "
          "matrix kept), fused_fa2 (FlashAttention-2, or PyTorch SDPA's flash backend, on any chip: slower on Hopper) or unfused (scores and softmax "
          "written out, as before 2022)", default="fused", choices=("fused", "fused_fa2", "unfused")),
    Field("loss_kernel", "choice", "cross-entropy over the vocabulary: plain (fp32 logits, softmax and gradient held at the loss) or fused (bf16 logits, gradient written in place)", default="plain", choices=("plain", "fused")),
    Field("fp8_weights", "choice", "under fp8, how each weight is kept: cached (bf16 weight plus Transformer Engine's fp8 copy and its "
          "transpose, the default) or fp8 (the weight itself in fp8 with its transpose, no bf16 copy: Megatron's --fp8-param-gather)",
          default="cached", choices=("cached", "fp8")),
    Field("offload", "choice", "state kept in host memory instead of HBM", default="none", choices=OFFLOAD),
    Field("stack", "choice", "training software: megatron (Megatron-LM, NeMo: fused kernels), pytorch (PyTorch-native, eager: FSDP, torchtitan, "
          "llm-foundry), pytorch_compile (the same under torch.compile), or generic (unknown; fitted on every calibration run)",
          default="generic", choices=STACKS),
    Field("framework", "choice", "training framework the job runs on (data/frameworks.json): only layouts it can run are searched or accepted "
          "(llm-foundry-0.4 and fsdp have no tensor or pipeline parallelism, for example); none given: every layout",
          default=None, choices=framework_names()),
)

LAYOUT_FIELDS = (
    Field("tp_degree", "count", "tensor-parallel degree", default=1.0, integer=True),
    Field("pp_degree", "count", "pipeline stages", default=1.0, integer=True),
    Field("virtual_stages", "count", "model chunks per pipeline stage (interleaved schedule)", default=1.0, integer=True),
    Field("ep_degree", "count", "expert-parallel degree (experts spread over this many chips)", default=1.0, integer=True),
    Field("cp_degree", "count", "context-parallel degree (each sequence split over this many chips)", default=1.0, integer=True),
    Field("expert_tp_degree", "count", "tensor-parallel degree inside each expert (tp_degree if absent); EP x expert TP may span TP x CP x DP (Megatron's MoE parallel folding)", default=None, integer=True),
    Field("zero_stage", "count", "ZeRO stage: 0 none, 1 optimizer, 2 and gradients, 3 and weights (FSDP)", default=1.0, integer=True, allow_zero=True),
    Field("micro_batch", "count", "sequences per micro-batch", default=1.0, integer=True, maximum=MAX_MICRO_BATCH, beyond=MICRO_BATCH_BEYOND),
    Field("recompute", "choice", "activation recomputation: selective repeats the attention core (Korthikanti et al.), full the forward pass, "
          "selective_op every second matrix multiply and the element-wise ops (torchtitan's per-op policy)", default="none", choices=RECOMPUTE),
    Field("schedule", "choice", "pipeline schedule (interleaved when virtual_stages > 1)", default=None, choices=SCHEDULES),
)


@cache
def efficiencies() -> dict:
    """data/achievable_fraction.json, read once."""
    return json.loads((data_dir() / "achievable_fraction.json").read_text(encoding="utf-8"))


def attention_fraction(table: dict, chip_id: str, kernel: str) -> float:
    """Fraction of the bf16 peak the attention kernel reaches: FlashAttention-2 falls short of it on the chips 'attention_fa2' lists."""
    slow = table["attention_fa2"]
    return slow["fraction"] if kernel == "fused_fa2" and chip_id in slow["chips"] else table["attention"]["fraction"]


def tp_overlap_of(table: dict, stack: str) -> float:
    """The share of tensor-parallel communication a stack hides under compute when the job does not say."""
    shares = table["tp_overlap_by_stack"]
    return shares.get(stack, shares["generic"])


def stack_figures(table: dict, stack: str) -> dict:
    """Step overhead (and memory-bound passes) of a training stack: its own calibration fit, else the fit over every calibration run."""
    generic = {"step_overhead": table["step_overhead"]["fraction"], "memory_bound_passes": table["memory_bound"]["passes"]}
    return {**generic, **table.get("stacks", {}).get(stack, {})} if stack != "generic" else generic


def _scalar(v: dict, name: str):
    value = v.get(name)
    if isinstance(value, np.ndarray):
        if value.size != 1:
            raise CalculatorInputError(name, "takes one value here (plan_layout searches the layouts for you)")
        value = float(value.reshape(-1)[0])
    return value


def resolve_job(v: dict, names: tuple) -> dict:
    """Model, hardware and efficiency numbers of the job, each from the inputs, else the catalog, else an error."""
    for name in names:
        v[name] = _scalar(v, name)
    model, chip = v["_entries"].get("model") or {}, v["_entries"].get("chip") or {}
    job: dict = {}
    for name in ("params", "active_params", "n_layers", "d_model", "n_heads", "n_kv_heads", "d_ff", "vocab_size", "moe_experts",
                 "moe_top_k", "seq_len"):
        value = v.get(name)
        if value is None and name in _EXTRA_MODEL:
            value = model.get(_EXTRA_MODEL[name])
        job[name] = None if value is None else float(value)
    for name in ("moe_d_ff", "moe_shared_experts", "n_dense_layers", "head_dim"):
        value = v.get(name) if v.get(name) is not None else model.get(name)
        job[name] = None if value is None else float(value)
    for name in ("n_layers", "d_model", "n_heads", "seq_len"):
        if job[name] is None:
            raise CalculatorInputError(name, "is required (or give model)")
    if job["params"] is None and job["active_params"] is None:
        raise CalculatorInputError("params", "is required (or give model)")
    job["params"] = job["params"] or job["active_params"]
    job["active_params"] = job["active_params"] or job["params"]
    if job["active_params"] > job["params"]:
        raise CalculatorInputError("active_params", "cannot exceed params (the total)")
    experts, top_k = job["moe_experts"], job["moe_top_k"]
    if (experts is None) != (top_k is None):
        raise CalculatorInputError("moe_top_k" if top_k is None else "moe_experts", "is needed with the other MoE field")
    if experts is not None and top_k > experts:
        raise CalculatorInputError("moe_top_k", "cannot exceed moe_experts")
    job["moe"] = experts is not None and experts > 1 and job["params"] > job["active_params"]
    if job["seq_len"] > v["global_batch_tokens"]:
        raise CalculatorInputError("global_batch_tokens", "is smaller than one sequence (seq_len)")
    h, a = job["d_model"], job["n_heads"]
    job["n_kv_heads"] = job["n_kv_heads"] or a
    if job["n_kv_heads"] > a:
        raise CalculatorInputError("n_kv_heads", "cannot exceed n_heads")
    job["head_dim"] = job["head_dim"] or h / a
    job["d_ff"] = job["d_ff"] or 4 * h
    # A GELU MLP is 4h wide with 2 matrices; any other width is taken as a gated (SwiGLU) MLP with 3.
    job["mlp_matrices"] = 2.0 if abs(job["d_ff"] - 4 * h) < 1 else 3.0
    job["vocab_size"] = job["vocab_size"] or 0.0
    job["embedding_params"] = 2 * job["vocab_size"] * h  # input embedding and output layer, untied
    if job["embedding_params"] >= job["active_params"]:
        raise CalculatorInputError("vocab_size", "gives embeddings larger than the model's active parameters")
    _moe_shapes(job)
    _hardware(v, chip, job)
    return job


def _moe_shapes(job: dict) -> None:
    """Routed-expert parameters and widths: the total minus the active count is (E - k) experts' worth per MoE layer."""
    L = job["n_layers"]
    if not job["moe"]:
        job.update(routed_params=0.0, routed_active=0.0, moe_layers=0.0, moe_d_ff=0.0, moe_shared_experts=0.0)
        job["dense_layer_params"] = (job["active_params"] - job["embedding_params"]) / L
        return
    E, k = job["moe_experts"], job["moe_top_k"]
    routed = (job["params"] - job["active_params"]) * E / (E - k) if E > k else 0.0
    job["routed_params"] = routed
    job["routed_active"] = routed * k / E
    dense = job["n_dense_layers"] if job["n_dense_layers"] is not None and job["n_dense_layers"] < L else 0.0
    job["moe_layers"] = L - dense
    width = job["moe_d_ff"] or routed / (job["moe_layers"] * E * 3 * job["d_model"])
    job["moe_d_ff"] = width
    job["moe_shared_experts"] = job["moe_shared_experts"] or 0.0
    job["dense_layer_params"] = (job["params"] - routed - job["embedding_params"]) / L


def _hardware(v: dict, chip: dict, job: dict) -> None:
    topo, scale_up, scale_out = chip.get("topology") or {}, chip.get("scale_up") or {}, chip.get("scale_out") or {}
    peak_bf16 = v.get("peak_flop_per_s") or chip.get("peak_bf16_flop_per_s")
    if not peak_bf16:
        raise CalculatorInputError("peak_flop_per_s", "is required (or give chip)")
    precision = v["precision"]
    peak = peak_bf16
    if precision == "fp8":
        peak = v.get("peak_fp8_flop_per_s") or chip.get("peak_fp8_flop_per_s")
        if not peak:
            raise CalculatorInputError("peak_fp8_flop_per_s", "is required for precision fp8 (this chip lists no fp8 peak)")
    # The search enumerates the divisors of these counts; beyond any real job they would only hang it.
    for name, limit in (("n_chips", MAX_CHIPS), ("moe_experts", MAX_EXPERTS), ("n_heads", MAX_HEADS), ("n_layers", MAX_LAYERS)):
        value = v.get(name) if name in ("n_chips",) else job.get(name, v.get(name))
        if value is not None and value > limit:
            raise CalculatorInputError(name, f"is {value:g}, more than any training job has (at most {limit:,})")
    hbm = v.get("hbm_bytes") or chip.get("hbm_bytes")
    if not hbm:
        raise CalculatorInputError("hbm_bytes", "is required (or give chip)")
    hbm_bw = v.get("memory_bandwidth_bytes_per_s") or chip.get("memory_bandwidth_bytes_per_s")
    if not hbm_bw:
        raise CalculatorInputError("memory_bandwidth_bytes_per_s", "is required (or give chip)")
    domain = v.get("fast_domain_chips") or topo.get("fast_domain_chips") or scale_up.get("domain_chips")
    if not domain:
        raise CalculatorInputError("fast_domain_chips", "is required (or give chip)")
    axes = topo.get("torus_axes") if not v.get("fast_bandwidth_bytes_per_s") else None
    fast = v.get("fast_bandwidth_bytes_per_s") or topo.get("ici_per_axis_bandwidth_bytes_per_s") or scale_up.get("bandwidth_bytes_per_s")
    if not fast:
        raise CalculatorInputError("fast_bandwidth_bytes_per_s", "is required (or give chip)")
    network = v.get("network_bandwidth_bytes_per_s") or topo.get("network_bandwidth_per_chip_bytes_per_s") or scale_out.get("bandwidth_per_chip_bytes_per_s")
    if not network:
        if v["n_chips"] > domain:
            raise CalculatorInputError("network_bandwidth_bytes_per_s", "is required when the job spans more than one fast domain (or give chip)")
        network = fast  # never used: every collective stays inside the one domain
    table = efficiencies()
    fraction = v.get("achievable_fraction")
    fraction_source = "given"
    if fraction is None:
        entry = table["gemm"].get(chip.get("id", ""), {}).get(precision) or table["default_gemm"]
        fraction, fraction_source = entry["fraction"], entry["source"]
    job.update(
        chip_name=chip.get("name") or "the given chip", precision=precision, peak=float(peak), peak_bf16=float(peak_bf16),
        hbm=float(hbm), hbm_bw=float(hbm_bw), domain=float(min(domain, v["n_chips"])), domain_chips=float(domain), fast_bw=float(fast), network_bw=float(network),
        torus_axes=float(axes) if axes else 0.0, gemm_fraction=float(fraction), gemm_fraction_source=fraction_source,
        attention_fraction=attention_fraction(table, chip.get("id", ""), v["attention_kernel"]), hbm_fraction=table["hbm"]["fraction"], step_overhead=stack_figures(table, v.get("stack") or "generic")["step_overhead"],
        collective_fraction=table["collective"]["fraction"], shape=table["gemm_shape"],
        collective_latency_s=table["collective_latency"]["seconds"],
        memory_reserve_fraction=table["memory_reserve"]["fraction"], memory_reserve_bytes=table["memory_reserve"]["bytes"],
        logits_bytes=table["logits"]["bytes_per_element"] if v["loss_kernel"] == "plain" else table["logits"]["fused_bytes_per_element"], fp8_weights=v["fp8_weights"], memory_bound_passes=stack_figures(table, v.get("stack") or "generic")["memory_bound_passes"], memory_line=table["memory_line"]["fraction"],
        host_bytes=topo.get("host_memory_bytes_per_chip"), host_bw=topo.get("host_link_bandwidth_bytes_per_s"),
        n_chips=float(v["n_chips"]), batch_tokens=float(v["global_batch_tokens"]),
        tp_overlap=float(v["tp_comm_overlap"] if v["tp_comm_overlap"] is not None else tp_overlap_of(table, v.get("stack") or "generic")), fused_attention=v["attention_kernel"] != "unfused", ep_overlap=float(v["ep_comm_overlap"]), offload=v["offload"],
        framework=v.get("framework"), fast_domain_name=topo.get("fast_domain") or f"a fast domain of {int(domain)} chips", stack=v.get("stack") or "generic",
    )
    if job["offload"] != "none" and (not job["host_bytes"] or not job["host_bw"]):
        raise CalculatorInputError("offload", f"needs the host memory and host link of the chip, which the catalog does not give for {job['chip_name']}")


def check_layout(job: dict, tp, pp, vs, ep, cp, mb, zero, etp=None) -> None:
    """Impossible layouts raise an error naming the field; arrays are checked all at once (the first bad one is named)."""
    n, L = job["n_chips"], job["n_layers"]
    checks = (
        ("tp_degree", tp > n, "is larger than n_chips"),
        ("tp_degree", np.mod(job["n_heads"], tp) != 0, f"must divide n_heads ({int(job['n_heads'])})"),
        ("pp_degree", pp > L, f"cannot exceed n_layers ({int(L)}): every stage needs a layer"),
        ("virtual_stages", pp * vs > L, f"x pp_degree cannot exceed n_layers ({int(L)})"),
        ("cp_degree", np.mod(job["seq_len"], cp) != 0, f"must divide seq_len ({int(job['seq_len'])})"),
        ("n_chips", np.mod(n, tp * pp * cp) != 0, "must be a multiple of tp_degree x pp_degree x cp_degree"),
        ("zero_stage", zero > 3, "must be 0, 1, 2 or 3"),
    )
    for field, bad, why in checks:
        if np.any(bad):
            raise CalculatorInputError(field, why)
    if job["moe"]:
        if np.any(ep > job["moe_experts"]):
            raise CalculatorInputError("ep_degree", f"cannot exceed moe_experts ({int(job['moe_experts'])})")
        if np.any(np.mod(job["moe_experts"], ep) != 0):
            raise CalculatorInputError("ep_degree", f"must divide moe_experts ({int(job['moe_experts'])})")
        etp = tp if etp is None else etp
        if np.any(np.mod(n / pp, ep * etp) != 0):
            raise CalculatorInputError("ep_degree", "x expert_tp_degree must divide the chips of one pipeline stage (tp x cp x data-parallel degree)")
    elif np.any(ep > 1):
        raise CalculatorInputError("ep_degree", "needs a mixture-of-experts model (moe_experts)")
    elif etp is not None and np.any(etp != tp):
        raise CalculatorInputError("expert_tp_degree", "needs a mixture-of-experts model (moe_experts)")
    sequences = job["batch_tokens"] / job["seq_len"]
    if np.any(n / (tp * pp * cp) > sequences):
        raise CalculatorInputError("global_batch_tokens", "has fewer sequences than data-parallel replicas")
    per_replica = sequences / (n / (tp * pp * cp))
    if np.any(mb > np.ceil(per_replica)):
        raise CalculatorInputError("micro_batch", "is larger than the sequences each data-parallel replica gets")
    if np.any((np.mod(per_replica, 1.0) == 0) & (np.mod(per_replica, mb) != 0)):  # a rough batch ("4M") has no whole replica batch
        raise CalculatorInputError("micro_batch", f"must divide the sequences each data-parallel replica gets "
                                   f"({float(np.reshape(per_replica, -1)[0]):g} = global_batch_tokens / seq_len / data-parallel degree)")
