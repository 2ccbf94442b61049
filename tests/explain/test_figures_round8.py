"""The figures reader on kinds of figure missed on text it had never seen (issue 18, round 8): sentences and small
tables written for each rule."""

import pytest

from service.explain.figures import read_figures


def read(text: str) -> dict[str, tuple[str, float]]:
    """Each figure's quote -> (quantity, value)."""
    return {f.quote: (f.quantity, f.value) for f in read_figures(text)}


# -- a table of pipes without outer pipes or rule line: each cell measures what its column's header says

RUNS = """Two runs on the same cluster.

Run | Step time | TFLOP/s/device | MFU
first | 6.20 s | 210.4 | 44.1%
second | 5.90 s | 221.0 | 46.3%
"""


def test_a_header_gives_each_cell_its_quantity():
    got = read(RUNS)
    assert got["6.20 s"] == ("step_time_s", 6.2)
    assert got["221.0"][0] == "flop_per_s_per_chip" and got["221.0"][1] == pytest.approx(221.0e12)
    assert got["46.3%"] == ("mfu", pytest.approx(0.463))


def test_a_unit_in_the_header_scales_a_bare_cell():
    text = "label | Throughput (TFLOP/s/GPU) | iter (ms, mean)\nrun A | 150.2 | 4120\n"
    got = read(text)
    assert got["4120"] == ("step_time_s", pytest.approx(4.12))


def test_a_row_name_column_left_unnamed_by_the_header():
    text = "TFLOP/s/GPU | iter (ms, mean) | allocated\nrun A, defaults | 150.2 | 4120 | 51,000 MB\n"
    got = read(text)
    assert got["150.2"][0] == "flop_per_s_per_chip"
    assert got["4120"][0] == "step_time_s"


def test_counts_and_thousands_in_columns():
    text = "setting | Nodes | GPUs | tps\nsmall | 2 | 16 | 61 k\nlarge | 4 | 32 | 118 k\n"
    got = read(text)
    assert got["4"] == ("n_nodes", 4) and got["32"] == ("n_chips", 32)
    assert got["118 k"] == ("tokens_per_s", 118000)


def test_a_flops_column_of_runs_is_measured_unless_the_header_says_peak():
    runs = read("config | TFLOPS\nbaseline | 301\ntuned | 322\n")
    assert runs["322"][0] == "flop_per_s_per_chip"
    specs = read("part | peak TFLOPS\nfirst | 301\nsecond | 322\n")
    assert specs["322"][0] == "peak_flop_per_s"


@pytest.mark.parametrize("text", [
    "Run | Nodes | MFU\nfirst | 2 | 41% | 7\n",  # one cell too many, and the first column names the runs
    "Run | Nodes | MFU\nfirst | 2\n",  # one cell too few
])
def test_a_row_of_another_shape_is_not_under_the_header(text):
    got = read(text)
    assert got["2"] == ("number", 2) and "mfu" not in [q for q, _ in got.values()]


def test_a_pipe_in_prose_makes_no_table():
    got = read("We use a | b for the mask, and the batch holds 64 sequences.\n12 | 14\n")
    assert all(q != "step_time_s" for q, _ in got.values())


# -- a FLOP/s figure that a run measured is no chip's peak


@pytest.mark.parametrize("text, value", [
    ("fwd pass: 0.72ms, 95.2 TFLOPS", 95.2e12),
    ("The post reports a result of 250 TFLOPS for this model.", 250e12),
    ("baseline with fp16: 300 TFLOPS", 300e12),
])
def test_a_measured_rate_is_per_chip(text, value):
    got = [f for f in read_figures(text) if "TFLOPS" in f.quote]
    assert got and got[0].quantity == "flop_per_s_per_chip" and got[0].value == pytest.approx(value)


@pytest.mark.parametrize("text", [
    "H100: 989 TFLOPS",
    "B300 GPU: 2500 TFLOPS",
    "peak: 400 TFLOPS",
    "the chip offers 2500 TFLOPS",
])
def test_a_chips_rate_stays_a_peak(text):
    got = [f for f in read_figures(text) if "TFLOPS" in f.quote]
    assert got and got[0].quantity == "peak_flop_per_s"


@pytest.mark.parametrize("text, quantity", [
    ("iter: 2.3 s", "step_time_s"),
    ("2.3 s/iter", "step_time_s"),
])
def test_a_time_per_iter_is_a_step_time(text, quantity):
    assert [f.quantity for f in read_figures(text)] == [quantity]


def test_an_iteration_number_is_no_time():
    assert all(f.quantity != "step_time_s" for f in read_figures("at iter 500 the loss was 2.3"))


# -- a table's stated change is against the baseline its header names, never a row found by its words

CHANGES = """Slowdown against the single-GPU run.

par | kind | tps | change vs par=1 | memory
1 | none | 90 k | none | 120.5
2 | fast | 81 k | -10% | 80.2
2 | slow | 63 k | -30% | 80.2
4 | fast | 92 k | +2% | 50.1
4 | slow | 60 k | -33% | 50.1
"""


def test_a_tables_stated_changes_are_not_judged_against_another_row():
    from service.explain.pipeline import analyse
    doc = analyse(CHANGES, "en")
    rows = [c for c in doc.claims if "|" in c.quote and "k" in c.quote]
    assert rows and all(c.verdict != "inconsistent" for c in rows)
    assert sorted(f.value for f in read_figures(CHANGES) if f.quantity == "tokens_per_s") == [60e3, 63e3, 81e3, 90e3, 92e3]


def test_a_row_with_its_own_rate_gets_no_mfu_from_an_assumed_model():
    from service.explain.pipeline import analyse
    text = ("Setup: 64 H100 GPUs, Llama-3-70B, seq 4096, GBS 512.\n\n"
            "TFLOP/s/GPU | iter (ms, mean) | allocated\nrun A, defaults | 150.2 | 9120 | 51,000 MB\n")
    doc = analyse(text, "en")
    row = next(c for c in doc.claims if "150.2" in c.quote)
    assert "mfu" not in [doc.calculations[i]["calculator"] for i in row.calculations]


# -- memory per process or device written as a unit ("GB/rank"), and a need worked out before its result


@pytest.mark.parametrize("text, value", [
    ("Peak memory is ~41 GB/rank with the default sharding.", 41e9),
    ("The log shows 20480 MiB/GPU at step 10.", 20480 * 2**20),
    ("Each worker holds 12 GB/device once sharded.", 12e9),
])
def test_bytes_per_rank_is_memory_per_chip(text, value):
    got = [f for f in read_figures(text) if f.quantity == "memory_bytes_per_chip"]
    assert got and got[0].value == pytest.approx(value)


def test_bytes_per_second_stays_a_bandwidth():
    assert [f.quantity for f in read_figures("The link runs at 50 GB/s.")] == ["bandwidth_bytes_per_s"]


@pytest.mark.parametrize("text", [
    "A 30B model requires 2 * 30 GB = 60 GB VRAM in bf16.",
    "نموذج 30B يتطلب 2 * 30 جيجا بايت = 60 جيجا بايت VRAM",
])
def test_a_worked_need_is_memory_not_a_chips_capacity(text):
    got = read(text)
    assert [q for q, v in got.values() if v == pytest.approx(60e9)] == ["memory_bytes"]


def test_a_chips_vram_stays_its_capacity():
    assert [f.quantity for f in read_figures("a GPU with 24 GB VRAM")] == ["hbm_bytes"]


# -- chip-hours written the Arabic way, a part of each step, settings written key=value


@pytest.mark.parametrize("text, value", [
    ("استهلك التدريب نحو 1.5 مليون GPU-ساعة", 1.5e6),
    ("استغرق 300 ألف ساعة GPU", 3e5),
])
def test_arabic_chip_hours(text, value):
    got = [f for f in read_figures(text)]
    assert [(f.quantity, f.value) for f in got] == [("chip_hours", pytest.approx(value))]


@pytest.mark.parametrize("text, quantity", [
    ("The reduce-scatter at the end of each step takes about 1.4 seconds.", "time_s"),
    ("The backward pass of each iteration takes 0.9 s.", "time_s"),
    ("Each step takes 1.4 seconds, most of it in all-reduce.", "step_time_s"),
])
def test_a_part_of_each_step_is_no_step_time(text, quantity):
    assert [f.quantity for f in read_figures(text)] == [quantity]


@pytest.mark.parametrize("text, expected", [
    ("mode = 'bwd', headdim = 128, seqlen = 4096", {"head_dim": 128, "seq_len": 4096}),
    ("NHEADS=16 ulysses degree=4 Ring Degree=2", {"n_heads": 16, "sp_degree": 4, "cp_degree": 2}),
    ("ICI_FSDP=64 DCN_FSDP=4", {"dp_degree": 4}),
    ("hidden=3072, num_heads: 24", {"d_model": 3072, "n_heads": 24}),
])
def test_settings_written_key_value(text, expected):
    got = {}
    for f in read_figures(text):
        got[f.quantity] = f.value
    for quantity, value in expected.items():
        assert got.get(quantity) == value


@pytest.mark.parametrize("text", [
    "the ring size is 4",  # a ring of an all-reduce is no context-parallel degree
    "hidden: the states",
])
def test_words_near_settings_make_no_setting(text):
    assert all(f.quantity not in ("cp_degree", "d_model") for f in read_figures(text))


@pytest.mark.parametrize("text, lang", [
    ("The run took about 1.9 million GPU-hours. A naive schedule would lose 9-12% of that, versus 170-230K GPU-hours "
     "spent in bubbles.", "en"),
    ("استهلك التدريب نحو 1.9 مليون GPU-ساعة. ومع جدول ساذج كانوا سيخسرون 9-12% من ذلك مقابل فقاعات - 170-230 ألف GPU-ساعة.", "ar"),
])
def test_an_end_of_a_range_is_no_side_of_a_comparison(text, lang):
    from service.explain import synthesis
    from service.explain.pipeline import analyse
    doc = analyse(text, lang)
    paired = synthesis.pairs(doc, list(range(len(doc.sentences))))
    assert not [(a.quote, b.quote) for a, b, _ in paired if {a.role, b.role} & {"low", "high"}]


# -- a list of percentages sharing one word, factors "for" an operation, repetitions


@pytest.mark.parametrize("text, values", [
    ("The three sizes reach 44.1%, 41.0%, and 35.2% MFU.", [0.441, 0.41, 0.352]),
    ("We lose 10% and 20% MFU with the two layouts.", [0.1, 0.2]),
    ("بلغت النماذج 44% و41% و35% MFU", [0.44, 0.41, 0.35]),
])
def test_a_list_of_percentages_takes_its_last_word(text, values):
    assert [f.value for f in read_figures(text) if f.quantity == "mfu"] == pytest.approx(values)


@pytest.mark.parametrize("text", [
    "The loss fell 5%, and 40% MFU was reached.",  # two clauses, not a list
    "At 45%, 50% MFU is the target.",
])
def test_a_percentage_of_another_clause_keeps_its_reading(text):
    assert [f.quantity for f in read_figures(text)][0] == "percent"


def test_factors_for_each_operation():
    text = "It is up to 120× faster: 120× for reduce-scatter, 25× for all-gather and 8× for all-reduce."
    assert [f.value for f in read_figures(text) if f.quantity in ("ratio", "speedup")] == [120, 120, 25, 8]


@pytest.mark.parametrize("text", [
    "There are enough microbatches to fill each pipeline 4 times.",
    "We ran it 3 times, and it failed.",
])
def test_a_repetition_is_no_factor(text):
    assert all(f.quantity not in ("ratio", "speedup") for f in read_figures(text))


# -- a token count written after a model's name is the data's size, not the model's


@pytest.mark.parametrize("text", [
    "Pretraining Qwen2 9.5T tokens took a month.",
    "استهلك التدريب المسبق لـ Qwen2 9.5T من الرموز على 1,024 H800",
    "درب النموذج على 9.5T من الرموز",
])
def test_tokens_after_a_models_name_are_tokens(text):
    got = [(f.quantity, f.value) for f in read_figures(text) if f.value == pytest.approx(9.5e12)]
    assert got == [("tokens", pytest.approx(9.5e12))]


def test_a_size_in_a_models_name_stays_its_parameters():
    assert [f.quantity for f in read_figures("Llama 3 70B is dense")] == ["params"]


def test_a_size_from_another_sentence_does_not_replace_the_model_a_sentence_names():
    from service.explain.pipeline import analyse
    text = ("Pretraining DeepSeek-V3 on 14.8T tokens took about 2.8 million H800 GPU-hours. "
            "The bubbles of a naive schedule would have cost enough to train a whole 70B model.")
    doc = analyse(text, "en")
    claim = next(c for c in doc.claims if "14.8T" in c.quote)
    for i in claim.calculations:
        inputs = doc.calculations[i]["inputs"]
        assert inputs.get("params") != 70e9


@pytest.mark.parametrize("text", [
    "on 1x 4090 GPU, I am getting 29% MFU while training GPT-2 124M model.",  # round 15: read as 4,090 chips
    "We tried two RTX 3090 cards and a Radeon RX 7900 XTX for decoding.",
])
def test_a_consumer_gpus_model_number_is_no_chip_count(text):
    assert not any(f.quantity == "n_chips" and f.value > 1000 for f in read_figures(text))


def test_a_count_of_gpus_written_in_the_thousands_is_still_a_count():
    assert any(f.quantity == "n_chips" and f.value == 2080 for f in read_figures("The run used 2080 GPUs in total."))
