"""The fast scalar path of a calculator call: caches that change no result, shared by threads, and no state shared between results."""

import copy
import threading

import numpy as np
import pytest

import calculators
from calculators.formatting import human
from calculators.units import parse_text
from tests.support.calculator_examples import VALID


def test_the_parse_cache_is_bounded_and_keeps_no_errors():
    assert parse_text.cache_info().maxsize is not None
    for _ in range(2):  # a bad string is refused every time, not only the first
        with pytest.raises(calculators.CalculatorInputError, match="is not bytes per second"):
            parse_text("bandwidth_bytes_per_s", "400 GB", "bytes_per_s")


def test_a_result_shares_nothing_mutable_with_the_next():
    inputs = {"global_batch_tokens": "4M", "n_chips": 4096, "peak_flop_per_s": "990 TFLOP/s", "dp_bandwidth_bytes_per_s": "400 GB/s",
              "chips_per_node": 8}
    first = calculators.run("pp_necessity", inputs)
    expected = copy.deepcopy(first)
    first["notes"]["assumptions"][0]["values"]["name"] = "changed"  # a default assumption, whose English text is cached
    first["working"][0]["values"].clear()
    first["assumptions"].append("changed")
    first["inputs"]["n_chips"] = 1
    assert calculators.run("pp_necessity", inputs) == expected


def _four_significant(value: float) -> str:
    """What human() writes for a plain number: the format spec .4g with a short exponent, except from ten thousand to a
    billion, written in full with thousands separators (a whole number as it is, "302,921"; else four digits, "47,810"):
    readers found "3.029e5" in a working unreadable (round 36)."""
    mantissa, _, exponent = f"{value:.4g}".partition("e")
    if exponent and 1e4 <= abs(value) < 1e9:
        return f"{int(value):,}" if value == int(value) else f"{float(f'{value:.4g}'):,.0f}"
    return f"{mantissa}e{int(exponent)}" if exponent else mantissa


def test_numbers_are_written_as_the_format_spec_writes_them():
    rng = np.random.default_rng(3)
    for value in [0.0, -0.0, 1.0, 999.95, 1e-7, 1e21, 5e-324, *(10.0 ** rng.uniform(-9, 30, 200)).tolist(), *rng.integers(0, 10**7, 50).astype(float).tolist()]:
        assert human(value) == _four_significant(value)
        if value == int(value) and abs(value) < 1e6:  # whole counts below a million, with thousands separators
            assert human(value, "count") == f"{int(value):,}"


def test_threads_get_the_results_of_one_thread():
    cases = list(VALID.items())
    expected = {name: calculators.run(name, inputs) for name, inputs in cases}
    failures = []

    def worker():
        for _ in range(20):
            for name, inputs in cases:
                if calculators.run(name, inputs) != expected[name]:
                    failures.append(name)

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
