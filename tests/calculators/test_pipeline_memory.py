"""pipeline_activation_memory against the schedules' published behaviour (Narayanan et al. 2021; Korthikanti et al. 2022)."""

import pytest

import calculators
from calculators.errors import CalculatorInputError


def out(inputs: dict) -> dict:
    return calculators.run("pipeline_activation_memory", inputs)["outputs"]


def test_megatron_figures_3_and_4_four_stages_eight_microbatches():
    # Narayanan et al. 2021 (SC21), figures 3-4: 4 devices, 8 microbatches. GPipe (figure 3) runs all 8
    # forwards before any backward; 1F1B (figure 4, top) has at most 4 in flight on device 1 (section 2.2.1:
    # "limits the number of in-flight microbatches ... to the depth of the pipeline").
    result = out({"pp_degree": 4, "microbatches": 8, "stage_activation_bytes": "1 GB"})
    assert result["afab_inflight_microbatches"] == 8
    assert result["one_f_one_b_inflight_microbatches"] == 4
    assert result["afab_activation_bytes"] == pytest.approx(8e9)
    assert result["one_f_one_b_activation_bytes"] == pytest.approx(4e9)
    assert result["afab_over_one_f_one_b"] == pytest.approx(2)


def test_fewer_microbatches_than_stages_hold_the_same_memory():
    # With m <= p every microbatch is in flight under either schedule (Narayanan et al. 2021, section 2.2.1).
    result = out({"pp_degree": 8, "microbatches": 4, "stage_activation_bytes": "1 GB"})
    assert result["afab_over_one_f_one_b"] == pytest.approx(1)


def test_stage_bytes_from_the_model_shape_follow_korthikanti():
    # Korthikanti et al. 2022, Table 2: tensor + sequence parallel, no recomputation: sbh/t (34 + 5as/h) bytes per
    # layer. GPT-3 175B (Brown et al. 2020: s=2048, h=12288, a=96, 96 layers), t=8, b=1: 5as/h = 80, so
    # 2048 x 12288 / 8 x 114 = 358.6e6 bytes per layer; 96 layers over 16 stages (Megatron's GPT-3 example
    # uses PP 16) leave 6 layers per stage.
    result = out({"pp_degree": 16, "microbatches": 64, "seq_len": 2048, "micro_batch": 1, "d_model": 12288,
                  "n_heads": 96, "n_layers": 96, "tp_degree": 8})
    per_stage = 2048 * 12288 / 8 * 114 * 6
    assert result["one_f_one_b_activation_bytes"] == pytest.approx(16 * per_stage)
    assert result["afab_activation_bytes"] == pytest.approx(64 * per_stage)
    assert result["afab_over_one_f_one_b"] == pytest.approx(4)


def test_a_partial_shape_names_the_missing_field():
    with pytest.raises(CalculatorInputError, match="n_heads"):
        calculators.run("pipeline_activation_memory", {"pp_degree": 4, "microbatches": 8, "seq_len": 2048, "micro_batch": 1,
                                                       "d_model": 4096, "n_layers": 32})


def test_without_a_shape_only_the_counts_are_compared():
    result = calculators.run("pipeline_activation_memory", {"pp_degree": 4, "microbatches": 8})
    assert result["outputs"]["afab_over_one_f_one_b"] == pytest.approx(2)
    assert calculators.jsonable(result)["outputs"]["afab_activation_bytes"] is None  # no bytes without a shape
    assert any("only the count" in a for a in result["assumptions"])


def test_more_stages_than_layers_is_refused():
    with pytest.raises(CalculatorInputError, match="pp_degree"):
        calculators.run("pipeline_activation_memory", {"pp_degree": 8, "microbatches": 8, "seq_len": 2048, "micro_batch": 1,
                                                       "d_model": 4096, "n_heads": 32, "n_layers": 4})
