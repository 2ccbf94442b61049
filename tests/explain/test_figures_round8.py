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
