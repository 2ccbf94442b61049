"""Human quantities turn into SI numbers (DESIGN.md, Calculators: "numeric fields also accept human strings")."""

import pytest

import calculators
from calculators.units import to_number

GiB = 2**30

# The examples DESIGN.md names, then the conventions it states: decimal prefixes (GB = 1e9), binary only when
# written (GiB), bits when written with a small b, fractions 0..1, seconds.
DESIGN_TABLE = [
    ("900GB/s", "bytes_per_s", 900e9),
    ("70B", "count", 70e9),
    ("4M", "count", 4e6),
    ("1.2e15", "flop_per_s", 1.2e15),
    ("450 GB/s", "bytes_per_s", 450e9),
    ("16 GiB", "bytes", 16 * GiB),
    ("400 Gb/s", "bytes_per_s", 50e9),
    ("46%", "fraction", 0.46),
    ("300 ms", "seconds", 0.3),
]

MORE = [
    # rates of bytes and bits
    ("400Gbps", "bytes_per_s", 50e9),
    ("100 Gbit/s", "bytes_per_s", 12.5e9),
    ("3.35 TB/s", "bytes_per_s", 3.35e12),
    ("16 GiB/s", "bytes_per_s", 16 * GiB),
    ("400 GB per second", "bytes_per_s", 400e9),
    ("275.58GBps", "bytes_per_s", 275.58e9),
    ("400 bytes/s", "bytes_per_s", 400.0),
    ("400 bits/s", "bytes_per_s", 50.0),
    # sizes
    ("80GB", "bytes", 80e9),
    ("80G", "bytes", 80e9),
    ("1 GB", "bytes", 1e9),
    ("1KiB", "bytes", 1024.0),
    ("0.5 KiB", "bytes", 512.0),
    ("2 bytes", "bytes", 2.0),
    ("8 bits", "bytes", 1.0),
    ("1 kB", "bytes", 1e3),
    # FLOP rates and counts
    ("989 TFLOP/s", "flop_per_s", 989e12),
    ("989 TFLOPS", "flop_per_s", 989e12),
    ("1.2 PFLOP/s", "flop_per_s", 1.2e15),
    ("1.2e15 FLOP/s", "flop_per_s", 1.2e15),
    ("3.1e23 FLOPs", "flops", 3.1e23),
    ("6.3e24", "flops", 6.3e24),
    # counts with words and nouns
    ("238.3K", "count", 238.3e3),
    ("2k", "count", 2e3),
    ("15T tokens", "count", 15e12),
    ("70 billion", "count", 70e9),
    ("70 Billion params", "count", 70e9),
    ("4 M tokens", "count", 4e6),
    ("4096 GPUs", "count", 4096.0),
    ("32 microbatches", "count", 32.0),
    ("1,024", "count", 1024.0),
    ("1_000_000", "count", 1e6),
    ("4096", "count", 4096.0),
    # fractions and times
    ("0.462", "fraction", 0.462),
    ("100%", "fraction", 1.0),
    ("1.2s", "seconds", 1.2),
    ("65 us", "seconds", 65e-6),
    ("47535 us", "seconds", 0.047535),
    ("1 min", "seconds", 60.0),
    ("1.5 hours", "seconds", 5400.0),
    ("2 days", "seconds", 172800.0),
]


@pytest.mark.parametrize(("text", "kind", "expected"), DESIGN_TABLE, ids=[t for t, _, _ in DESIGN_TABLE])
def test_design_table(text, kind, expected):
    assert to_number("field", text, kind) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(("text", "kind", "expected"), MORE, ids=[f"{t}-{k}" for t, k, _ in MORE])
def test_more_human_quantities(text, kind, expected):
    assert to_number("field", text, kind) == pytest.approx(expected, rel=1e-12)


def test_decimal_unless_binary_is_written():
    assert to_number("size_bytes", "1 GB", "bytes") == 1e9
    assert to_number("size_bytes", "1 GiB", "bytes") == GiB
    assert to_number("size_bytes", "1GiB", "bytes") != to_number("size_bytes", "1GB", "bytes")


def test_small_b_is_bits_capital_b_is_bytes():
    assert to_number("bw", "400 Gb/s", "bytes_per_s") * 8 == to_number("bw", "400 GB/s", "bytes_per_s")


def test_numbers_pass_through_unchanged():
    assert to_number("n", 4096, "count") == 4096.0
    assert to_number("x", 0.25, "fraction") == 0.25
    assert to_number("x", 1.2e15, "flop_per_s") == 1.2e15


def test_strings_through_run_match_numbers():
    """calculators.run turns human strings into the same inputs and results as the SI numbers."""
    as_text = calculators.run("pp_necessity", {"global_batch_tokens": "4M", "n_chips": "4096", "peak_flop_per_s": "990 TFLOP/s",
                                               "dp_bandwidth_bytes_per_s": "400 GB/s", "chips_per_node": "8", "tp_degree": 8})
    as_numbers = calculators.run("pp_necessity", {"global_batch_tokens": 4e6, "n_chips": 4096, "peak_flop_per_s": 990e12,
                                                  "dp_bandwidth_bytes_per_s": 400e9, "chips_per_node": 8, "tp_degree": 8})
    assert as_text["inputs"] == as_numbers["inputs"]
    assert as_text["outputs"] == as_numbers["outputs"]
    assert as_text["inputs"]["n_chips"] == 4096 and isinstance(as_text["inputs"]["n_chips"], int)


def test_fraction_accepts_percent_in_run():
    result = calculators.run("training_time", {"params": "70B", "tokens": "15T", "n_chips": 4096, "peak_flop_per_s": "990 TFLOP/s", "mfu": "45%"})
    assert result["inputs"]["mfu"] == pytest.approx(0.45)


def test_sequences_of_strings_become_arrays():
    values = to_number("bw", ["400 GB/s", "450GB/s", 900e9], "bytes_per_s")
    assert values.tolist() == [400e9, 450e9, 900e9]
