"""The figures reader on kinds of figure first met on text it had never seen (issue 18): sentences written for each rule."""

import pytest

from service.explain.figures import read_figures


def got(text: str, quantity: str) -> list[float]:
    """The values of every figure of one quantity, in order."""
    return [f.value for f in read_figures(text) if f.quantity == quantity]


def quantities(text: str) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {}
    for f in read_figures(text):
        found.setdefault(f.quantity, []).append(f.value)
    return found


# -- a chip's memory beside its name


@pytest.mark.parametrize("text, value", [
    ("We rent one 8GPU 80gb A100 node for the test.", 80e9),
    ("Fine-tuning runs on 2xA100(40G) in our lab.", 40e9),
    ("The cluster has 512 A100 GPU with 40 Gb of memory each.", 40e9),
    ("A 70B model in bf16 exhausts the 80GB capacity of a single accelerator.", 80e9),
])
def test_memory_beside_a_chip_is_its_hbm(text, value):
    assert got(text, "hbm_bytes") == [value]


def test_chip_count_and_memory_are_two_figures():
    found = quantities("Hardware: 8× H100 80 GB per node, 16 nodes.")
    assert found["chips_per_node"] == [8] and found["hbm_bytes"] == [80e9]


def test_gigabits_of_a_memory_die_stay_bits():
    # a DRAM die's density is written in gigabits: "24Gb" alone is no memory size in bytes
    assert got("Each stack uses eight 24Gb dies.", "hbm_bytes") == []


def test_memory_used_is_not_capacity():
    assert got("the run is using 62 GB of memory on each GPU", "memory_bytes_per_chip") == [62e9]
    assert got("the job needs ~1.5TB of CPU RAM to load the weights", "memory_bytes") == [1.5e12]
    assert got("the full checkpoint with optimizer states is 1.1TB", "checkpoint_bytes") == [1.1e12]


# -- rates with compound units


def test_tokens_per_device_per_second():
    assert got("Throughput per Device: 5,210 tokens/device/second", "tokens_per_s_per_chip") == [5210]
    assert got("we see 3100 tokens per GPU per second", "tokens_per_s_per_chip") == [3100]


def test_samples_per_second_are_sequences():
    assert got("DDP: 12.5 samples/s, FSDP: 9.75 samples/sec", "sequences_per_s") == [12.5, 9.75]
    assert got("DDP: 12.5 samples/s, FSDP: 9.75 samples/sec", "dp_degree") == []  # a degree is a whole number


def test_named_chip_in_the_plural_picks_its_own_peak():
    # 296 TFLOP/s is some other chip's peak; on H100s it is a measured rate
    assert got("on 64 GPUs (H100s) we only get 296.5 TFLOPs/s/GPU", "flop_per_s_per_chip") == [296.5e12]


def test_a_bare_divisor_that_is_the_named_chips_peak():
    found = quantities("On H100 the MFU is 400 / 989 = 40%, lower than we hoped.")
    assert found["peak_flop_per_s"] == [989e12] and found["flop_per_s_per_chip"] == [400e12]
    # no chip named, or no utilisation spoken of: two numbers only
    assert got("The MFU is 400 / 989 = 40%.", "peak_flop_per_s") == []
    assert got("On H100 we split 400 / 989 rows.", "peak_flop_per_s") == []


# -- parallel degrees in words and config keys


@pytest.mark.parametrize("text, expected", [
    ("The run uses 4 tensor parallelism size and 2 pipeline parallelism.", {"tp_degree": [4], "pp_degree": [2]}),
    ("mesh '1,32,2,1' means 1 data parallelism, 32 fully sharded data parallelism, 2 tensor parallelism",
     {"dp_degree": [1, 32], "tp_degree": [2]}),
    ("and 16 sequence parallelism for the long context", {"sp_degree": [16]}),
])
def test_degree_named_after_its_number(text, expected):
    found = quantities(text)
    assert {q: found.get(q) for q in expected} == expected


def test_degree_words_do_not_take_the_next_settings_number():
    found = quantities("--tensor-model-parallel-size 4 --pipeline-model-parallel-size 2")
    assert found["tp_degree"] == [4] and found["pp_degree"] == [2]
    assert got("per_device_batch_size=3 ici_fsdp_parallelism=8", "micro_batch") == [3]


@pytest.mark.parametrize("text, quantity, value", [
    ("setting trainer.expert_model_parallel_size=4 splits them", "ep_degree", 4),
    ('"pipe-parallel-size": 2,', "pp_degree", 2),
    ('"model-parallel-size": 4,', "tp_degree", 4),  # GPT-NeoX's key (Megatron-LM's old flag) for tensor parallelism
    ("with --recompute-num-layers 2 and uniform recompute", "recompute_layers", 2),
])
def test_config_keys(text, quantity, value):
    assert got(text, quantity) == [value]


def test_a_number_defined_after_it():
    found = quantities("about 13*2*4 GB ~ 104 GB, where 2 is the number of bytes per parameter and 4 is the number of GPUs on each node.")
    assert found["bytes_per_param"] == [2] and found["chips_per_node"] == [4]
    assert found["bytes"] == [104e9]  # the result only: "4 GB" is the product's unit, not a size of its own


# -- counts


def test_counts_in_words_and_notations():
    assert got("a router over 64 MoE experts", "moe_experts") == [64]
    assert got("it scales to well over a trillion parameters", "params") == [1e12]
    assert got("a much larger (256K) vocabulary", "vocab_size") == [256000]
    assert got("each token goes to one expert (k=1), as in Switch routing", "moe_top_k") == [1]
    assert got("the page lists k=1 as the default", "moe_top_k") == []  # no experts: k is any letter


def test_a_count_compared_with_another_of_the_same_thing():
    assert got("trained on 9.5 trillion tokens vs. 2.1 trillion for the previous model", "tokens") == [9.5e12, 2.1e12]


# -- ranges and changes


def test_tilde_range():
    assert got("the new server is 1.2~1.6x slower than the old one", "ratio") == [1.2, 1.6]


def test_percent_change_words():
    assert got("pipeline parallelism runs faster, with over 25% speed up", "percent_change") == [pytest.approx(0.25)]
    assert got("the kernel outperforms the baseline, surpassing its speed by 12%", "percent_change") == [pytest.approx(0.12)]


# -- Arabic


def test_arabic_memory_and_counts():
    assert got("ذاكرة HBM3 الجديدة، بسعة 36 جيجابايت وعرض نطاق 1.5 تيرابايت في الثانية", "hbm_bytes") == [36e9]
    assert got("ذاكرة HBM3 الجديدة، بسعة 36 جيجابايت وعرض نطاق 1.5 تيرابايت في الثانية",
               "memory_bandwidth_bytes_per_s") == [1.5e12]
    assert got("مثل المعلمة 405 مليار في النموذج", "params") == [405e9]
    assert got("قاموا بتدريب نموذج لغة 8B على 15 تريليون رمز", "params") == [8e9]


def test_arabic_gains():
    assert got("حققت تحسينات في الإنتاجية تتراوح بين 20-25%", "percent_change") == [pytest.approx(0.2), pytest.approx(0.25)]
    assert got("مع مكاسب في الإنتاجية بنسبة 18%", "percent_change") == [pytest.approx(0.18)]


def test_arabic_ratio_before_a_word():
    assert got("إنتاجية أسرع بمقدار 2-4× وذاكرة أقل", "ratio") == [2, 4]


def test_operations_per_cycle():
    assert got("the 128x128 array does 16,384 MACs per cycle", "ops_per_cycle") == [16384]
    assert got("تعالج المصفوفة 16,384 عملية ضرب-تراكم لكل دورة", "ops_per_cycle") == [16384]


def test_a_fraction_after_mfu_as_subject():
    assert got("on A100s the MFU for 3 and 8B models drops to 0.35 here", "mfu") == [0.35]
    assert got("on A100s the MFU for 3 and 8B models falls below 0.35 here", "mfu") == []  # a bound, not the MFU
    assert got("MFU stays near 40% while the loss is 0.35", "mfu") == [0.4]  # the loss's value is not the MFU


def test_a_key_before_arithmetic_names_its_result():
    found = quantities("# Global batch = 16 * 4 = 64")
    assert found["global_batch_sequences"] == [64]  # not the first operand, 16


def test_a_batch_that_fits_is_one_devices():
    assert got("ZeRO-3 allows bs=12 where plain DDP goes OOM", "micro_batch") == [12]
    assert got("we train with bs=32 on 64 GPUs", "global_batch_sequences") == [32]


def test_vocabulary_size_in_brackets_quotes_the_number():
    figure = next(f for f in read_figures("a larger (128K) vocabulary size") if f.quantity == "vocab_size")
    assert (figure.quote, figure.value) == ("128K", 128000)


def test_expert_count_before_a_top_k_setting():
    found = quantities("we run with 32 experts, top-k=2")
    assert found["moe_experts"] == [32] and found["moe_top_k"] == [2]
    assert got("64 experts with top-2 routing", "moe_experts") == [64]
    assert got("the top 8 experts of each layer", "moe_top_k") == [8]


def test_degree_phrase_keeps_its_noun():
    figure = next(f for f in read_figures("we use 2 pipeline parallel stages") if f.quantity == "pp_degree")
    assert (figure.quote, figure.value) == ("2 pipeline parallel stages", 2)


def test_kinds_of_parallelism_are_no_degree():
    assert got("the paper compares 3 tensor parallelism strategies", "tp_degree") == []


def test_a_spread_of_values_is_a_range_not_a_change():
    from service.explain import pipeline

    # "times range from 16 to 28 seconds across four models" was once worked out as "75% higher"
    spread = pipeline.analyse("Training times range from 16 to 28 seconds across the four models.", "en").figures
    assert [f.role for f in spread] == ["low", "high"]
    change = pipeline.analyse("The step time went from 470 ms to 270 ms after the fix.", "en").figures
    assert [f.role for f in change] == ["before", "after"]
    between = pipeline.analyse("Training took between 16 s and 28 s for the four models.", "en").figures
    assert not {f.role for f in between} & {"before", "after"}
