"""The planner's cost model reads a typed job and typed layouts: every figure under a name that says what it is."""

from dataclasses import dataclass

import numpy as np

from .layout_inputs import SCHEDULES

SCHEDULE_CODE = {name: float(i) for i, name in enumerate(SCHEDULES)}


@dataclass(frozen=True, slots=True)
class Job:
    """One training job: the model's shape, the chip and its links, and the efficiencies of data/achievable_fraction.json."""

    # the model
    layers: float
    hidden: float
    heads: float
    kv_heads: float
    head_dim: float
    ffn_width: float
    mlp_matrices: float  # 2 for a GELU MLP, 3 for a gated (SwiGLU) one
    vocab: float
    seq_len: float
    params_total: float
    params_active: float
    embedding_params: float  # input embedding and output layer
    dense_layer_params: float  # one layer's parameters outside the routed experts
    # mixture of experts (zeros for a dense model)
    moe: bool
    experts: float
    top_k: float
    moe_layers: float
    expert_width: float
    shared_experts: float
    routed_params: float
    routed_active: float
    # the run
    chips: float
    batch_tokens: float
    precision: str
    fused_attention: bool
    offload: str
    tp_overlap: float
    ep_overlap: float
    # the chip and its links
    peak_flops: float  # dense peak of the matrix multiplies' precision
    peak_bf16_flops: float
    hbm_bytes: float
    hbm_bandwidth: float
    fast_domain: float  # chips in the fast domain, at most the job's chips
    fast_bandwidth: float  # one-way per chip inside it (per torus axis for TPUs)
    network_bandwidth: float  # one-way per chip beyond it
    torus_axes: float  # 0 for a switched (GPU) fast domain
    host_bytes: float
    host_bandwidth: float
    # efficiencies (data/achievable_fraction.json)
    gemm_fraction: float
    attention_fraction: float
    hbm_fraction: float
    step_overhead: float
    collective_fraction: float
    collective_latency_s: float
    shape_reference: float
    shape_k_scale: float
    shape_mn_scale: float
    memory_reserve_fraction: float
    memory_reserve_bytes: float
    logits_bytes: float  # bytes per logit held at the loss
    fp8_weights: str  # under fp8: "cached" (bf16 weight + fp8 copy and transpose) or "fp8" (fp8 weight and transpose only)
    memory_bound_passes: float  # kernels over each element of a layer's memory-bound work (1: one read and one write per pass)
    memory_line: float  # share of HBM a layout may fill and still fit

    @classmethod
    def from_resolved(cls, job: dict) -> "Job":
        """The job layout_inputs.resolve_job builds, under descriptive names."""
        shape = job["shape"]
        names = dict(
            layers=job["n_layers"], hidden=job["d_model"], heads=job["n_heads"], kv_heads=job["n_kv_heads"], head_dim=job["head_dim"],
            ffn_width=job["d_ff"], mlp_matrices=job["mlp_matrices"], vocab=job["vocab_size"], seq_len=job["seq_len"],
            params_total=job["params"], params_active=job["active_params"], embedding_params=job["embedding_params"],
            dense_layer_params=job["dense_layer_params"], moe=job["moe"], experts=job["moe_experts"] or 0.0, top_k=job["moe_top_k"] or 0.0,
            moe_layers=job["moe_layers"], expert_width=job["moe_d_ff"], shared_experts=job["moe_shared_experts"],
            routed_params=job["routed_params"], routed_active=job["routed_active"], chips=job["n_chips"], batch_tokens=job["batch_tokens"],
            precision=job["precision"], fused_attention=job["fused_attention"], offload=job["offload"], tp_overlap=job["tp_overlap"],
            ep_overlap=job["ep_overlap"], peak_flops=job["peak"], peak_bf16_flops=job["peak_bf16"], hbm_bytes=job["hbm"],
            hbm_bandwidth=job["hbm_bw"], fast_domain=job["domain"], fast_bandwidth=job["fast_bw"], network_bandwidth=job["network_bw"],
            torus_axes=job["torus_axes"], host_bytes=job["host_bytes"] or 0.0, host_bandwidth=job["host_bw"] or 0.0,
            gemm_fraction=job["gemm_fraction"], attention_fraction=job["attention_fraction"], hbm_fraction=job["hbm_fraction"],
            step_overhead=job["step_overhead"], collective_fraction=job["collective_fraction"],
            collective_latency_s=job["collective_latency_s"], shape_reference=shape["reference_dim"], shape_k_scale=shape["k_scale"],
            shape_mn_scale=shape["mn_scale"], memory_reserve_fraction=job["memory_reserve_fraction"],
            memory_reserve_bytes=job["memory_reserve_bytes"], logits_bytes=job["logits_bytes"], fp8_weights=job["fp8_weights"], memory_bound_passes=job["memory_bound_passes"], memory_line=job["memory_line"])
        return cls(**names)

    @property
    def moe_share(self) -> float:
        """Share of the layers whose MLP is a mixture of experts."""
        return self.moe_layers / self.layers if self.moe else 0.0

    @property
    def sequences(self) -> float:
        return self.batch_tokens / self.seq_len



@dataclass(frozen=True, slots=True)
class Layouts:
    """Layouts as arrays of equal length, one entry per layout scored."""

    tensor: np.ndarray
    pipeline: np.ndarray
    virtual: np.ndarray  # model chunks per pipeline stage (interleaved schedule)
    expert: np.ndarray
    expert_tensor: np.ndarray  # tensor parallelism inside the experts (Megatron's parallel folding)
    context: np.ndarray
    zero: np.ndarray  # ZeRO stage, 3 = FSDP
    micro_batch: np.ndarray  # sequences per micro-batch
    recompute: np.ndarray  # 0 none, 1 selective, 2 full
    schedule: np.ndarray  # an index into SCHEDULES

    @classmethod
    def from_arrays(cls, lay: dict) -> "Layouts":
        """The search's and evaluate_layout's dict of short keys (tp, pp, vs, ep, etp, cp, zero, mb, rc, sched)."""
        return cls(tensor=lay["tp"], pipeline=lay["pp"], virtual=lay["vs"], expert=lay["ep"], expert_tensor=lay.get("etp", lay["tp"]),
                   context=lay["cp"], zero=lay["zero"], micro_batch=lay["mb"], recompute=lay["rc"], schedule=lay["sched"])

    def data(self, job: Job):
        """Data-parallel degree: the chips left once tensor, pipeline and context parallelism are placed."""
        return job.chips / (self.tensor * self.pipeline * self.context)

    def microbatches(self, job: Job):
        """Micro-batches per step on each replica; a remainder costs a whole micro-batch."""
        return np.ceil(job.sequences / (self.data(job) * self.micro_batch))

    def tokens(self, job: Job):
        """Tokens of one micro-batch on one chip (before tensor parallelism splits its activations)."""
        return job.seq_len * self.micro_batch / self.context

    @property
    def full_recompute(self):
        return self.recompute == 2

    @property
    def selective_recompute(self):
        return self.recompute == 1

    @property
    def op_recompute(self):
        """torchtitan's per-op selective policy: attention's output kept, every second matrix multiply and the element-wise ops redone."""
        return self.recompute == 3

    def is_schedule(self, name: str):
        return self.schedule == SCHEDULE_CODE[name]
