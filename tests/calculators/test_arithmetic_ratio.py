"""The arithmetic and ratio calculators, and training_time from total FLOPs, on published figures."""

import pytest

import calculators
from calculators import CalculatorInputError


def run(name, **inputs):
    return calculators.run(name, inputs)["outputs"]


def test_scaling_book_ici_intensity():
    # Austin et al., How to Scale Your Model, training.md: "4.59e14 / 1.8e11 = 2550" for TPU v5p
    out = run("arithmetic", expression="4.59e14 / 1.8e11", stated_result="2550")
    assert out["value"] == pytest.approx(2550)
    assert out["consistent"] is True


def test_scaling_book_llama3_chips_and_days():
    # ibid.: "16e6 / (2550 / 3) = 18,823" chips, "6.3e24 (15e12 * 70e9 * 6)" FLOPs, about 17 days at 50% MFU
    assert run("arithmetic", expression="16e6 / (2550 / 3)", stated_result="18,823")["consistent"]
    assert run("arithmetic", expression="15e12 * 70e9 * 6", stated_result=6.3e24)["consistent"]
    days = run("arithmetic", expression="6.3e24 / (18823 * 4.59e14 * 0.5) / 86400", stated_result=17, tolerance=0.05)
    assert days["value"] == pytest.approx(16.88, rel=1e-3) and days["consistent"]
    assert not run("arithmetic", expression="6.3e24 / (18823 * 4.59e14 * 0.5) / 86400", stated_result=7)["consistent"]


def test_scientific_notation_is_one_number():
    # "6.3 × 10²⁴ / 9 × 10¹⁶ ≈ 70 million seconds" (a blog's GB200 NVL72 estimate): 7e7, not 7e23 x 1e16
    out = run("arithmetic", expression="6.3 × 10²⁴ / 9 × 10¹⁶", stated_result="70 million")
    assert out["value"] == pytest.approx(7e7) and out["consistent"]


def test_units_convert_before_the_arithmetic():
    # 1 GiB over 450 GB/s (NVLink 4 per direction): 2.39 ms
    assert run("arithmetic", expression="1 GiB / 450 GB/s")["value"] == pytest.approx(2**30 / 450e9)
    assert run("arithmetic", expression="40% * 989 TFLOP/s")["value"] == pytest.approx(395.6e12)


def test_deepseek_v3_gpu_hours_imply_mfu():
    # DeepSeek-V3 report: 2.664M H800 GPU hours for 14.8T tokens, 37B active; H800 dense bf16 peak 989 TFLOP/s
    out = run("arithmetic", expression="6 * 37e9 * 14.8e12 / (2.664e6 * 3600 * 989e12)")
    assert out["value"] == pytest.approx(0.347, abs=0.002)
    assert "consistent" not in out  # nothing stated, nothing judged


def test_percent_result():
    # MaxText docs: "134.924 / 459 = 29.40%" MFU; 34.40% is wrong
    assert run("arithmetic", expression="134.924 / 459", stated_result="29.40%")["consistent"]
    assert not run("arithmetic", expression="134.924 / 459", stated_result="34.40%")["consistent"]


@pytest.mark.parametrize("bad", ["", "C / W", "__import__('os')", "2 ** 9999", "1 / 0", "open('x')"])
def test_anything_but_arithmetic_is_refused(bad):
    with pytest.raises(CalculatorInputError):
        run("arithmetic", expression=bad)


def test_ratio_korthikanti():
    # Korthikanti et al. 2022 abstract: 54.2% MFU "is 29% faster than the 42.1% we achieve using recomputation"
    out = run("ratio", before="42.1%", after="54.2%", stated_change="29%")
    assert out["change"] == pytest.approx(0.2874, abs=1e-4) and out["consistent"]
    assert not run("ratio", before="42.1%", after="54.2%", stated_change="39%")["consistent"]


def test_ratio_factor_and_fall():
    # a "2x faster" claim states the factor; "cut from 9% to 5%" by 44% states the size of a fall
    assert run("ratio", before=100, after=200, stated_change="2x")["consistent"]
    assert not run("ratio", before=100, after=128, stated_change="2x")["consistent"]
    assert run("ratio", before="9%", after="5%", stated_change="44%", tolerance=0.02)["consistent"]
    with pytest.raises(CalculatorInputError):
        run("ratio", before=0, after=5)


def test_training_time_from_total_flops():
    # the scaling book's LLaMA-3 70B estimate: 6.3e24 FLOPs on 18,823 v5p chips at 50% MFU is about 17 days
    out = run("training_time", total_flops="6.3e24", n_chips=18823, peak_flop_per_s="4.59e14", mfu="50%")
    assert out["days"] == pytest.approx(16.88, rel=1e-3)
    assert out["total_flops"] == 6.3e24
    with pytest.raises(CalculatorInputError):
        run("training_time", n_chips=8, peak_flop_per_s="1e15", mfu=0.4)


def test_a_result_equal_up_to_rounding_is_worked_without_a_tiny_error():
    # Megatron-LM issue answer: "420/(1979/2) = 42.45%" (H200 BF16 1979 TFLOPS with sparsity, NVIDIA spec): 0.42446,
    # off by 0.01% only through rounding, so the working says it agrees rather than "off by 0.01018%"
    result = calculators.run("arithmetic", {"expression": "420/(1979/2)", "stated_result": "42.45%"})
    assert result["steps"][-1] == "the text states 42.45%; the arithmetic gives 42.45%: consistent" and result["outputs"]["consistent"]
    # a real gap keeps its size in the working
    off = calculators.run("arithmetic", {"expression": "420/(1979/2)", "stated_result": "45%"})
    assert "off by" in off["steps"][-1]
