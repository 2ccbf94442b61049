"""The figures reader on kinds of figure missed on text it had never seen (issue 18, round 6): sentences written for each rule."""

import pytest

from service.explain.figures import read_figures


def got(text: str, quantity: str) -> list[float]:
    """The values of every figure of one quantity, in order."""
    return [f.value for f in read_figures(text) if f.quantity == quantity]


def read(text: str) -> list[tuple[str, str, float]]:
    return [(f.quote, f.quantity, f.value) for f in read_figures(text)]


# -- factors written with a capital X, a comparative, "times" or the Arabic مرة


@pytest.mark.parametrize("text, value", [
    ("The new kernel gave a 2.3X improvement in cost per step.", 2.3),
    ("It handles sequences 12× longer than the baseline.", 12),
    ("We reached 3.5× maximum batch size on the same GPUs.", 3.5),
    ("Training is 3 times cheaper with the smaller cluster.", 3),
    ("الذاكرة أكبر بمقدار 2.4 مرة مقارنة بالجيل السابق.", 2.4),
    ("الشريحة أسرع 5 مرات من سابقتها.", 5),
])
def test_a_factor_is_a_ratio(text, value):
    assert value in got(text, "ratio") + got(text, "speedup")


@pytest.mark.parametrize("text", [
    "We repeated the run 3 times to be sure.",
    "أعدنا التجربة 3 مرات للتأكد.",
])
def test_a_repetition_is_no_ratio(text):
    assert got(text, "ratio") == [] and got(text, "speedup") == []


# -- Arabic nouns written with diacritics, and counts of things


def test_a_voweled_arabic_noun_is_read_like_a_bare_one():
    assert got("يضم النموذج 405 مليار مُعامِل.", "params") == [405e9]
    assert got("يضم النموذج 405 مليار معامل.", "params") == [405e9]


@pytest.mark.parametrize("text, quantity, value", [
    ("The run saw 212 unexpected interruptions over 30 days.", "n_failures", 212),
    ("شهد التدريب 212 انقطاعًا خلال شهر.", "n_failures", 212),
    ("The model was trained on 46 languages.", "n_languages", 46),
    ("النموذج يدعم 46 لغة.", "n_languages", 46),
    ("The die holds 2.5 trillion transistors.", "n_transistors", 2.5e12),
    ("تحتوي الرقاقة على 80 مليار ترانزستور.", "n_transistors", 80e9),
    ("تضم الشريحة 600,000 نواة.", "n_cores", 600000),
])
def test_counts_of_things(text, quantity, value):
    assert got(text, quantity) == [value]


# -- link speeds, totals over several links, nodes of N chips


@pytest.mark.parametrize("text, value", [
    ("Each node has eight 400G InfiniBand ports.", 400e9 / 8),
    ("تعتمد الشبكة على وصلات 200G بين الخوادم.", 200e9 / 8),
])
def test_a_port_speed_in_g_is_gigabits_per_second(text, value):
    assert got(text, "bandwidth_bytes_per_s") == [value]


def test_a_g_size_beside_a_chip_is_no_link_speed():
    assert got("We trained on an A100-40G GPU.", "bandwidth_bytes_per_s") == []


def test_links_times_a_link_rate_is_the_total():
    figs = [f for f in read_figures("The servers have 4x200Gbit/s NICs.") if f.quantity == "bandwidth_bytes_per_s"]
    assert [f.value for f in figs] == [4 * 200e9 / 8] and figs[0].detail["n_links"] == 4


def test_nodes_of_n_chips():
    found = read("We trained on three 8xH100 nodes.")
    assert ("three", "n_nodes", 3) in found and any(q == "chips_per_node" and v == 8 for _, q, v in found)


# -- a byte size written with G only, and a context length before "long sequence"


def test_g_size_before_memory_words_is_memory():
    assert got("The job consumed about 180G cpu memory.", "memory_bytes") == [180e9]


def test_a_context_length_before_sequence_words():
    assert got("At 32k long sequences the activations dominate.", "seq_len") == [32768]


# -- a system's peak written as PFLOPs, a reduction in Arabic


def test_a_systems_pflops_of_a_precision_is_its_peak():
    assert got("The rack delivers about 360 PFLOPs of FP8.", "peak_flop_per_s_total") == [360e15]


def test_a_run_in_flops_stays_a_count():
    assert got("Training took 3.8e25 FLOPs.", "total_flops") == [3.8e25]


def test_lower_by_a_percentage_in_arabic_is_a_reduction():
    assert got("كانت التكلفة أقل بنسبة 40% من التدريب السابق.", "percent_change") == [-0.4]


def test_a_reduction_is_said_without_a_minus_sign():
    # the reader signs a change (-0.97 for "97% lower"); the gist's noun says the direction, so its value is the size
    from service.explain import gist_values
    fig = read_figures("The training cost was 97% lower than the previous run.")[0]
    assert fig.quantity == "percent_change" and fig.value == -0.97
    assert gist_values.measure_phrase(fig, None, None, "en", "loss") == "a reduction of 97%"


# -- thousands and lists: TPS, Swiss separators, a list in one notation, a unit that belongs to the number before


def test_a_range_of_thousands_of_tps():
    assert got("The 7B model runs at 11-12K TPS on each node.", "tokens_per_s") == [11000, 12000]


def test_swiss_thousands_separator():
    assert got("Peak memory was 14’380 MB.", "memory_bytes") == [14380e6]
    assert got("Peak memory was 14,380 MB.", "memory_bytes") == [14380e6]


def test_a_list_of_context_lengths_shares_its_key():
    assert got("We tried sequence lengths of 8K, 16K and 32K.", "seq_len") == [8192, 16384, 32768]


def test_a_unit_is_no_key_phrase_for_the_next_number():
    found = read("Throughput was 210 samples/s at 2.4 s/step.")
    assert ("2.4 s/step", "step_time_s", 2.4) in found


def test_an_arabic_model_size_is_its_parameters():
    assert got("نموذج يزيد حجمه عن 30 مليار يحتاج إلى عدة بطاقات.", "params") == [30e9]


def test_a_lower_case_vendor_before_a_chip():
    assert got("Each server holds 4 nvidia A100 gpus.", "chips_per_node") + got("Each server holds 4 nvidia A100 gpus.", "n_chips") == [4]


# -- one HBM stack's bandwidth, a change written after its percentage in Arabic


@pytest.mark.parametrize("text", [
    "Each HBM4 device gives 2 TB/s per stack.",
    "تصل السرعة إلى 2 تيرابايت/ثانية لكل حزمة.",
])
def test_a_rate_per_stack_is_a_memory_bandwidth(text):
    assert got(text, "memory_bandwidth_bytes_per_s") == [2e12]


@pytest.mark.parametrize("text, value", [
    ("يوفر الأسلوب 60% أقل ذاكرة.", -0.6),
    ("التدريب 25% أسرع مع النواة الجديدة.", 0.25),
])
def test_a_change_after_its_percentage_in_arabic(text, value):
    assert got(text, "percent_change") == [value]


# -- decimals before x, capitalised rate units, Arabic micro-seconds, per-second with its article, variables as parameters


@pytest.mark.parametrize("text, values", [
    ("Expect a 1.2-1.4x gain on bigger models.", [1.2, 1.4]),
    ("MI300X reaches 0.93X of the baseline.", [0.93]),
])
def test_a_decimal_before_x_is_a_factor(text, values):
    assert got(text, "ratio") + got(text, "speedup") == values


def test_capitalised_rate_units():
    assert got("Throughput: it ran at 212.5 Sequences/Sec.", "sequences_per_s") == [212.5]


@pytest.mark.parametrize("text, quantity, value", [
    ("زمن الوصول أقل من 3 ميكروثانية.", "time_s", 3e-6),
    ("يصل عرض النطاق إلى 4 تيرابايت/ الثانية.", "bandwidth_bytes_per_s", 4e12),
    ("يضم النموذج 236 مليار متغير.", "params", 236e9),
])
def test_arabic_units_and_nouns(text, quantity, value):
    assert value in got(text, quantity) + got(text, "latency_s")


def test_a_few_variables_are_no_parameter_count():
    assert got("استخدمنا 3 متغيرات فقط.", "params") == []


def test_a_key_before_arithmetic_names_its_result():
    # "batch size is 8*256=2048": the batch is 2048, not the first operand
    assert got("The global batch size is 16*128=2048.", "global_batch_sequences") == [2048]


# -- counts named by a key phrase (launchers, configs, both languages) and "two hundred"


@pytest.mark.parametrize("text, quantity, value", [
    ("torchrun --nnodes 2 --nproc_per_node 4 train.py", "n_nodes", 2),
    ("torchrun --nnodes 2 --nproc_per_node 4 train.py", "chips_per_node", 4),
    ("The number of GPUs is 48 in this job.", "n_chips", 48),
    ("world_size=96", "n_chips", 96),
    ("كان عدد البطاقات 16 في التجربة.", "n_chips", 16),
    ("We rented two hundred GPUs.", "n_chips", 200),
    ("تضم المجموعة اثنا عشر خادما.", "n_nodes", 12),
])
def test_counts_named_by_their_key(text, quantity, value):
    assert got(text, quantity) == [value]


# -- machines and what each holds, local experts


def test_machines_named_by_chip_and_memory_and_what_each_holds():
    found = read("We have 3 H100 (80G) servers (each with 8 H100 cards).")
    assert ("3 H100", "n_nodes", 3) in found and any(q == "chips_per_node" and v == 8 for _, q, v in found)
    assert got("We have 3 H100 (80G) servers.", "hbm_bytes") == [80e9]


def test_local_experts_are_per_device():
    assert got("With 128 experts and EP16, each rank holds 8 local experts.", "experts_per_chip") == [8]


def test_servers_of_a_chip_are_nodes_not_pods():
    assert got("The job ran on 4 DGX H100 servers.", "n_nodes") == [4]
    assert got("The job ran on 2 TPU v5p pods.", "n_pods") == [2]


def test_nodes_times_chips_written_with_two_x():
    fig = next(f for f in read_figures("Minimum setup: 4x 8x H100 80GB.") if f.quantity == "n_chips")
    assert fig.value == 32 and fig.detail == {"n_nodes": 4, "chips_per_node": 8}


# -- halves, quarters and duals of scale words


@pytest.mark.parametrize("text, quantity, value", [
    ("The model has half a billion parameters.", "params", 0.5e9),
    ("We trained on a quarter of a million tokens.", "tokens", 0.25e6),
    ("بلغت التكلفة نصف مليون دولار.", "cost_usd", 0.5e6),
    ("يضم النموذج ربع مليار معامل.", "params", 0.25e9),
    ("دربنا على ألفي بطاقة.", "n_chips", 2000),
])
def test_a_fraction_or_a_dual_of_a_scale_word(text, quantity, value):
    assert got(text, quantity) == [value]


def test_half_alone_in_arabic_is_no_number():
    assert read("استخدمنا نصف الوقت فقط.") == []


# -- the parts of a total of things


@pytest.mark.parametrize("text", [
    "Of the 300 interruptions, 120 (40%) were GPU faults and 45 (15%) were network failures.",
    "من بين 300 انقطاعًا، كان 120 (40%) بسبب البطاقات و45 (15%) بسبب الشبكة.",
])
def test_the_parts_of_a_total_count_the_same_things(text):
    assert got(text, "n_failures") == [300, 120, 45]
    assert got(text, "fraction") == [0.4, 0.15]


def test_a_number_after_a_total_with_its_own_unit_stays_its_own():
    found = read("Of the 512 GPUs, 8 were idle for 3 hours.")
    assert ("3 hours", "time_s", 10800) in found


def test_a_rate_with_a_gain_is_measured_not_a_peak():
    assert got("- with the fix: 431.2 TFLOP/s (+2.5%)", "flop_per_s_per_chip") == [431.2e12]
    assert got("The H100 SXM peak is 989 TFLOP/s.", "peak_flop_per_s") == [989e12]


# -- sums: dollars written out, and other currencies never called dollars


def test_dollars_written_out():
    assert got("Training cost about 5 million dollars.", "cost_usd") == [5e6]
    assert got("They set aside 100 million USD.", "cost_usd") == [100e6]


def test_euros_are_no_dollars():
    assert got("The cluster cost €2M.", "cost_usd") == [] and got("The cluster cost €2M.", "cost") == [2e6]


@pytest.mark.parametrize("text", [
    "This could be a problem if one micro-batch does not contain diverse data.",
    "Imagine one micro-batch only contains code; the router still spreads it over all experts.",
])
def test_a_spelled_one_that_picks_an_example_sets_no_count(text):
    # "one micro-batch" here is "a micro-batch": read as a count it became "1 micro-batch per step".
    assert got(text, "microbatches") == []


@pytest.mark.parametrize("text, quantity", [
    ("The job runs on one node with 8 GPUs.", "n_nodes"),
    ("We use four micro-batches per step.", "microbatches"),
])
def test_spelled_counts_of_hardware_and_other_numbers_stay_read(text, quantity):
    assert got(text, quantity)


def test_a_bare_number_before_versus_takes_the_unit_written_after_the_second():
    # "+7.7% (199.5 vs 185.2 TFLOP/s/GPU)": both are rates; read bare, 199.5 left the 7.7% to be judged on 185.2 twice
    assert got("That gives +7.7% throughput (199.5 vs 185.2 TFLOP/s/GPU) at the same setting.", "flop_per_s_per_chip") \
        == pytest.approx([199.5e12, 185.2e12])


def test_a_number_before_versus_is_a_rate_even_beside_a_degrees_cue():
    # "(14,796 vs 9,930 tok/s/GPU at EP=8)": the first was read as an expert-parallel degree of 14,796
    text = "It is 50% faster than the default expert parallelism (14,796 vs 9,930 tok/s/GPU at EP=8)."
    assert got(text, "tokens_per_s_per_chip") == [14796, 9930]
    assert got(text, "ep_degree") == [8]


def test_a_degree_larger_than_every_chip_count_is_no_degree():
    # the table row's throughput took the expert-parallel cue of the sentence above it
    text = ("Near-linear scaling to 16 nodes (128 GPUs), 50% faster than the default expert parallelism "
            "(14,796 vs 9,930 tok/s/GPU at EP=8).\n1 node | 1 | 8 | 14,796 | 341")
    assert all(v <= 128 for v in got(text, "ep_degree"))


@pytest.mark.parametrize("text, quantity", [
    ("Eight H100 GPUs with 640 GB total HBM3, 7.2 TB/s aggregate NVLink bandwidth, and 400 GB/s EFA.", "bandwidth_bytes_per_s"),
    ("The H200 has 141 GB of HBM3e with 4.8 TB/s of memory bandwidth.", "memory_bandwidth_bytes_per_s"),
])
def test_a_bandwidth_is_named_by_the_link_written_after_it(text, quantity):
    # "7.2 TB/s aggregate NVLink bandwidth" after "HBM3," had been read as memory bandwidth
    assert got(text, quantity)[0] in (7.2e12, 4.8e12)


@pytest.mark.parametrize("text", ["model flops = 8.62124e15", "FLOPs per sample: 8.6e15"])
def test_a_count_of_model_flops_is_no_rate(text):
    # "model flops = 8.62124e15" (per sample, in an MFU recipe) had been read, and said, as 8,621 TFLOP/s
    assert got(text, "total_flops") and not got(text, "peak_flop_per_s")


def test_thousands_of_things_are_no_seconds():
    assert not got("We showcase pretraining at the scale of 1000s of GPU tiles.", "time_s")
    assert got("Each step takes 12 s of compute.", "step_time_s") == [12]
