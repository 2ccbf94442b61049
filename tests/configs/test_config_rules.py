"""Each rule of data/config_rules.json caught on a minimal configuration, and nothing else raised there (issue 20)."""

import pytest

from service.configs import reading, rules

LAUNCH = "torchrun --nproc_per_node 8 --nnodes {nodes} pretrain_gpt.py --num-layers {layers} --hidden-size 2048 --num-attention-heads 16 " \
         "--seq-length 2048 --micro-batch-size {micro} --global-batch-size {batch} --bf16 {extra}\n"


def _megatron(nodes=1, layers=24, micro=1, batch=64, extra=""):
    return LAUNCH.format(nodes=nodes, layers=layers, micro=micro, batch=batch, extra=extra)


CASES = {
    "degrees_product_world_size": _megatron(extra="--tensor-model-parallel-size 4 --pipeline-model-parallel-size 4"),
    "global_batch_divisible": _megatron(micro=3, batch=64),
    "sequence_parallel_without_tp": _megatron(extra="--tensor-model-parallel-size 1 --sequence-parallel"),
    "tp_comm_overlap_needs_sequence_parallel": _megatron(extra="--tensor-model-parallel-size 2 --tp-comm-overlap"),
    "virtual_stages_divide_layers": _megatron(extra="--pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 5"),
    "pipeline_stages_divide_layers": _megatron(layers=25, extra="--pipeline-model-parallel-size 2"),
    "distributed_optimizer_with_outer_zero": _megatron(extra="--use-distributed-optimizer --use-torch-fsdp2"),
    "fp8_on_chip_without_fp8": "Our A100 cluster:\n```bash\n" + _megatron(extra="--fp8-format hybrid") + "```\n",
    "layout_does_not_fit": _megatron(layers=96, extra="--hidden-size 12288 --num-attention-heads 96 --micro-batch-size 8 --global-batch-size 64"),
    "option_conflicts_across_versions": _megatron(extra="--checkpoint-activations"),
    "option_silently_ignored": '{"train_batch_size": 64, "zero_optimization": {"stage": 2, "offload_param": {"device": "cpu"}}}\n',
}


def test_every_rule_in_the_data_has_a_check_and_a_case():
    assert set(rules.rules()) == set(rules.CHECKS) == set(CASES)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_each_rule_is_caught_alone(rule):
    found = reading.read(CASES[rule], "en")
    raised = [p for p in found["problems"]]
    assert [p["rule"] for p in raised] == [rule]
    problem = raised[0]
    assert problem["options"] and problem["why"] and problem["source"]


def test_a_clean_configuration_raises_nothing():
    found = reading.read(_megatron(extra="--tensor-model-parallel-size 2 --sequence-parallel --use-distributed-optimizer"), "en")
    assert found["problems"] == [] and found["evaluation"]["outputs"]["fits_memory"]


def test_fused_loss_and_fp8_param_gather_are_read_into_the_evaluation():
    # Megatron-LM arguments.py: --cross-entropy-loss-fusion fuses the loss (no fp32 logits kept); --fp8-param-gather
    # keeps the weights themselves in fp8 (no bf16 copy). Both lower memory, and the evaluation must see them.
    from service.configs import split

    script = ("torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336 "
              "--num-attention-heads 32 --seq-length 8192 --micro-batch-size 1 --global-batch-size 128 --bf16 "
              "--fp8-format hybrid --use-distributed-optimizer")
    _, plain = split(script, "en")
    _, lean = split(script + " --cross-entropy-loss-fusion --fp8-param-gather", "en")
    assert lean["layout"]["loss_kernel"] == "fused" and lean["layout"]["fp8_weights"] == "fp8"
    memory = lambda config: config["evaluation"]["outputs"]["memory_bytes_per_chip"]  # noqa: E731
    assert memory(lean) < memory(plain)
