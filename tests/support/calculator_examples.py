"""One valid example input per calculator, shared by the error, property, HTTP and load tests."""

_JOB = {"params": "70B", "n_layers": 80, "d_model": 8192, "n_heads": 64, "n_kv_heads": 8, "d_ff": 28672, "vocab_size": 128256,
        "seq_len": 8192, "n_chips": 64, "global_batch_tokens": "1M", "peak_flop_per_s": "989 TFLOP/s", "hbm_bytes": "80 GB",
        "memory_bandwidth_bytes_per_s": "3.35 TB/s", "fast_domain_chips": 8, "fast_bandwidth_bytes_per_s": "450 GB/s",
        "network_bandwidth_bytes_per_s": "50 GB/s"}

VALID = {
    "collective_time": {"op": "all_reduce", "size_bytes": "1 GiB", "n_ranks": 8, "bandwidth_bytes_per_s": "450 GB/s", "latency_s": "5 us"},
    "nccl_busbw": {"op": "all_gather", "n_ranks": 16, "size_bytes": "8 GiB", "time_s": "47.5 ms"},
    "training_flops": {"params": "70B", "tokens": "15T", "n_layers": 80, "n_heads": 64, "head_dim": 128, "seq_len": 8192},
    "mfu": {"params": "70B", "n_chips": 4096, "peak_flop_per_s": "989 TFLOP/s", "global_batch_tokens": "16M", "step_time_s": "9 s",
            "n_layers": 80, "n_heads": 64, "head_dim": 128, "seq_len": 8192, "recompute": "selective"},
    "training_time": {"params": "70B", "tokens": "15T", "n_chips": 4096, "peak_flop_per_s": "989 TFLOP/s", "mfu": "40%"},
    "dp_critical_batch": {"peak_flop_per_s": "989 TFLOP/s", "bandwidth_bytes_per_s": "400 GB/s", "moe_experts": 256, "moe_top_k": 8,
                          "model_parallel_span": 2},
    "pp_necessity": {"global_batch_tokens": "16M", "n_chips": 16384, "peak_flop_per_s": "989 TFLOP/s", "dp_bandwidth_bytes_per_s": "400 GB/s",
                     "chips_per_node": 8, "tp_degree": 8, "pp_degree": 16},
    "pipeline_bubble": {"pp_degree": 8, "microbatches": 32, "virtual_stages": 2, "schedule": "interleaved"},
    "pipeline_activation_memory": {"pp_degree": 8, "microbatches": 32, "stage_activation_bytes": "2 GB"},
    "checkpoint_interval": {"checkpoint_time_s": "10s", "mtbf_s": "6000s", "recovery_time_s": "600s", "step_time_s": "15s"},
    "model_state_memory": {"params": "70B", "bytes_per_param": 16, "zero_stage": 1, "dp_degree": 64},
    "activation_memory": {"seq_len": 2048, "micro_batch": 1, "d_model": 12288, "n_heads": 96, "n_layers": 96, "tp_degree": 8,
                          "sequence_parallel": True, "recompute": "selective"},
    # scaling book, training.md: C / W_ici for TPU v5p, "4.59e14 / 1.8e11 = 2550"
    "arithmetic": {"expression": "4.59e14 / 1.8e11", "stated_result": "2550", "tolerance": "2%"},
    # Korthikanti et al. 2022 abstract: 54.2% MFU "is 29% faster than the 42.1%" with recomputation
    "ratio": {"before": "42.1%", "after": "54.2%", "stated_change": "29%"},
    "roofline": {"flops": "1.2e15", "bytes": "80 GB", "peak_flop_per_s": "989 TFLOP/s", "memory_bandwidth_bytes_per_s": "3.35 TB/s"},
    # A 70B dense job on 64 H100-like chips in raw fields (no catalog names: the shape test compares the
    # result's inputs with the field list).
    "evaluate_layout": {**_JOB, "tp_degree": 8, "pp_degree": 2, "recompute": "full"},
    "plan_layout": {**_JOB, "params": "8B", "n_layers": 32, "d_model": 4096, "n_heads": 32, "d_ff": 14336, "n_chips": 16},
}
