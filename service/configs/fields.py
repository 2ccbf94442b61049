"""Which option sets which layout fact, per framework: data/options' `layout_field`, else the framework's own option name.

The fallback names below are the frameworks' interfaces (flags and keys as their argument parsers and
config classes define them); the meaning and source of each option live in data/options/.
"""

from service.configs import options

# layout fact -> option names, per framework (used only where data/options gives the option no layout_field).
FALLBACK = {
    "megatron-lm": {
        "tp_degree": ("--tensor-model-parallel-size",), "pp_degree": ("--pipeline-model-parallel-size",),
        "virtual_stages": ("--num-virtual-stages-per-pipeline-rank", "--virtual-pipeline-model-parallel-size"), "layers_per_virtual_stage": ("--num-layers-per-virtual-pipeline-stage",),
        "cp_degree": ("--context-parallel-size",), "ep_degree": ("--expert-model-parallel-size",),
        "expert_tp_degree": ("--expert-tensor-parallel-size",), "micro_batch": ("--micro-batch-size",),
        "global_batch": ("--global-batch-size",), "seq_len": ("--seq-length", "--encoder-seq-length"),
        "n_layers": ("--num-layers", "--encoder-num-layers"), "d_model": ("--hidden-size",), "n_heads": ("--num-attention-heads",),
        "n_kv_heads": ("--num-query-groups",), "d_ff": ("--ffn-hidden-size",), "vocab_size": ("--vocab-size",),
        "moe_experts": ("--num-experts",), "moe_top_k": ("--moe-router-topk",),
        "recompute": ("--recompute-granularity", "--recompute-activations", "--checkpoint-activations"), "precision": ("--fp8-format", "--bf16", "--fp16"),
        "distributed_optimizer": ("--use-distributed-optimizer",), "sequence_parallel": ("--sequence-parallel",),
        "tp_comm_overlap": ("--tp-comm-overlap",), "zero_stage": ("--zero-stage", "--data-parallel-sharding-strategy"),
        "fsdp2": ("--use-torch-fsdp2", "--use-megatron-fsdp"), "moe_d_ff": ("--moe-ffn-hidden-size",),
        "group_query_attention": ("--group-query-attention",), "n_layers_encoder": (),
    },
    "nemo": {
        "tp_degree": ("model.tensor_model_parallel_size",), "pp_degree": ("model.pipeline_model_parallel_size",),
        "virtual_stages": ("model.virtual_pipeline_model_parallel_size",), "cp_degree": ("model.context_parallel_size",),
        "ep_degree": ("model.expert_model_parallel_size",), "micro_batch": ("model.micro_batch_size",),
        "global_batch": ("model.global_batch_size",), "seq_len": ("model.encoder_seq_length", "model.seq_length"),
        "n_layers": ("model.num_layers",), "d_model": ("model.hidden_size",), "n_heads": ("model.num_attention_heads",),
        "n_kv_heads": ("model.num_query_groups",), "d_ff": ("model.ffn_hidden_size",), "moe_experts": ("model.num_moe_experts",),
        "moe_top_k": ("model.moe_router_topk",), "recompute": ("model.activations_checkpoint_granularity",),
        "precision": ("model.fp8", "trainer.precision"), "sequence_parallel": ("model.sequence_parallel",),
        "tp_comm_overlap": ("model.ub_tp_comm_overlap",), "n_nodes": ("trainer.num_nodes",), "gpus_per_node": ("trainer.devices",),
        "distributed_optimizer": ("model.optim.name",),
    },
    "megatron-bridge": {
        "tp_degree": ("model.tensor_model_parallel_size", "trainer.strategy.tensor_model_parallel_size"),
        "pp_degree": ("model.pipeline_model_parallel_size", "trainer.strategy.pipeline_model_parallel_size"),
        "virtual_stages": ("model.virtual_pipeline_model_parallel_size", "trainer.strategy.virtual_pipeline_model_parallel_size"),
        "cp_degree": ("model.context_parallel_size", "trainer.strategy.context_parallel_size"),
        "ep_degree": ("model.expert_model_parallel_size", "trainer.strategy.expert_model_parallel_size"),
        "micro_batch": ("train.micro_batch_size", "data.micro_batch_size"), "global_batch": ("train.global_batch_size", "data.global_batch_size"),
        "seq_len": ("model.seq_length", "dataset.sequence_length", "data.seq_length"), "n_layers": ("model.num_layers",),
        "d_model": ("model.hidden_size",), "n_heads": ("model.num_attention_heads",), "n_kv_heads": ("model.num_query_groups",),
        "d_ff": ("model.ffn_hidden_size",), "moe_experts": ("model.num_moe_experts",), "moe_top_k": ("model.moe_router_topk",),
        "recompute": ("model.recompute_granularity",), "precision": ("model.fp8", "mixed_precision", "trainer.plugins.precision"),
        "sequence_parallel": ("model.sequence_parallel", "trainer.strategy.sequence_parallel"),
        "tp_comm_overlap": ("comm_overlap.tp_comm_overlap", "model.tp_comm_overlap"),
        "distributed_optimizer": ("ddp.use_distributed_optimizer", "optimizer.use_distributed_optimizer"),
        "n_nodes": ("trainer.num_nodes",), "gpus_per_node": ("trainer.devices",),
    },
    "torchtitan": {
        "tp_degree": ("parallelism.tensor_parallel_degree",), "pp_degree": ("parallelism.pipeline_parallel_degree",),
        "cp_degree": ("parallelism.context_parallel_degree",), "ep_degree": ("parallelism.expert_parallel_degree",),
        "fsdp_degree": ("parallelism.data_parallel_shard_degree",), "dp_degree": ("parallelism.data_parallel_replicate_degree",),
        "micro_batch": ("parallelism.pipeline_parallel_microbatch_size",), "local_batch": ("training.local_batch_size", "training.batch_size"),
        "global_batch": ("training.global_batch_size",), "seq_len": ("training.seq_len",),
        "recompute": ("activation_checkpoint.mode",), "precision": ("training.mixed_precision_param", "model.converters"),
        "n_layers": (), "model_name": ("model.name",), "model_flavor": ("model.flavor",),
    },
    "deepspeed": {
        "zero_stage": ("zero_optimization.stage",), "global_batch": ("train_batch_size",), "micro_batch": ("train_micro_batch_size_per_gpu",),
        "grad_accum": ("gradient_accumulation_steps",), "precision": ("bf16.enabled", "fp16.enabled", "bfloat16.enabled"),
        "offload_optimizer": ("zero_optimization.offload_optimizer.device",), "offload_param": ("zero_optimization.offload_param.device",),
    },
    "maxtext": {
        "tp_degree": ("ici_tensor_parallelism", "dcn_tensor_parallelism", "ici_tensor_transpose_parallelism",
                      "ici_tensor_sequence_parallelism", "dcn_tensor_sequence_parallelism"),
        "pp_degree": ("ici_pipeline_parallelism", "dcn_pipeline_parallelism"),
        "cp_degree": ("ici_context_parallelism", "dcn_context_parallelism", "ici_sequence_parallelism", "dcn_sequence_parallelism"),
        "ep_degree": ("ici_expert_parallelism", "dcn_expert_parallelism"),
        "fsdp_degree": ("ici_fsdp_parallelism", "dcn_fsdp_parallelism", "ici_fsdp_transpose_parallelism", "dcn_fsdp_transpose_parallelism"),
        "dp_degree": ("ici_data_parallelism", "dcn_data_parallelism"), "per_device_batch": ("per_device_batch_size",),
        "seq_len": ("max_target_length",), "recompute": ("remat_policy",), "precision": ("quantization", "dtype"),
        "n_layers": ("base_num_decoder_layers",), "d_model": ("base_emb_dim",), "n_heads": ("base_num_query_heads",),
        "n_kv_heads": ("base_num_kv_heads",), "d_ff": ("base_mlp_dim",), "vocab_size": ("vocab_size",), "moe_experts": ("num_experts",),
        "moe_top_k": ("num_experts_per_tok",), "model_name": ("model_name",), "grad_accum": ("gradient_accumulation_steps",),
        "n_nodes": ("num_slices",), "pp_microbatches": ("num_pipeline_microbatches",),
    },
    "accelerate": {
        "world_size": ("num_processes",), "n_nodes": ("num_machines",), "zero_stage": ("fsdp_config.fsdp_sharding_strategy", "deepspeed_config.zero_stage"),
        "fsdp_version": ("fsdp_config.fsdp_version",), "reshard": ("fsdp_config.fsdp_reshard_after_forward",),
        "recompute": ("fsdp_config.fsdp_activation_checkpointing",), "precision": ("mixed_precision",),
        "tp_degree": ("parallelism_config.parallelism_config_tp_size",), "cp_degree": ("parallelism_config.parallelism_config_cp_size",),
        "fsdp_degree": ("parallelism_config.parallelism_config_dp_shard_size",),
        "dp_degree": ("parallelism_config.parallelism_config_dp_replicate_size",), "distributed_type": ("distributed_type",),
        "grad_accum": ("deepspeed_config.gradient_accumulation_steps", "gradient_accumulation_steps"),
        "offload_optimizer": ("deepspeed_config.offload_optimizer_device",), "offload_param": ("deepspeed_config.offload_param_device", "fsdp_config.fsdp_offload_params"),
    },
    "torchrun": {"gpus_per_node": ("--nproc_per_node", "--nproc-per-node"), "n_nodes": ("--nnodes",)},
    "deepspeed-launcher": {"gpus_per_node": ("--num_gpus", "--num-gpus"), "n_nodes": ("--num_nodes", "--num-nodes")},
    "accelerate-launcher": {"world_size": ("--num_processes",), "n_nodes": ("--num_machines",)},
    "srun": {"n_nodes": ("--nodes", "-N"), "gpus_per_node": ("--ntasks-per-node", "--gpus-per-node"), "world_size": ("--ntasks", "-n")},
    "mpirun": {"world_size": ("-np", "-n")},
}
# Other spellings of layout facts a data file may use.
SYNONYMS = {"nnodes": "n_nodes", "num_nodes": "n_nodes", "nproc_per_node": "gpus_per_node", "devices": "gpus_per_node",
            "n_chips": "world_size", "num_processes": "world_size", "virtual_pipeline_stages": "virtual_stages",
            "vpp_degree": "virtual_stages", "dp_shard_degree": "fsdp_degree", "dp_replicate_degree": "dp_degree",
            "data_parallel_degree": "dp_degree", "gradient_accumulation_steps": "grad_accum", "per_device_batch_size": "per_device_batch"}


def field_of(framework: str, name: str) -> str | None:
    """The layout fact option `name` of `framework` sets, or None.

    The code's own names come first where it reads the value in a way of its own (layers per virtual stage
    give the number of stages; a distributed-optimizer switch is ZeRO-1); data/options' layout_field otherwise.
    """
    spelling = options.canonical(framework, name) or name
    for field, names in FALLBACK.get(framework, {}).items():
        if name in names or spelling in names:
            return field
    entry = options.entry(framework, name)
    if entry and entry.get("layout_field"):
        field = entry["layout_field"]
        return SYNONYMS.get(field, field)
    return None


def names_for(framework: str, field: str) -> list[str]:
    """Option names of `framework` that set `field` (data first, then the fallback), for writing an edit."""
    found = [name for name, item in options.table(framework)["options"].items()
             if SYNONYMS.get(item.get("layout_field"), item.get("layout_field")) == field]
    return found + [name for name in FALLBACK.get(framework, {}).get(field, ()) if name not in found]
