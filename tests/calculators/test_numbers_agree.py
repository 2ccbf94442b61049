"""Numbers that must not contradict each other (issue 13, items 5-8): recorded inputs, layer caps, impossible results, assumptions."""

import json

import pytest

import calculators
from calculators import working
from calculators.formatting import human_field, unit_for_field
from service.cli.main import main
from tests.support.calculator_examples import VALID

PUBLISHED = {  # model, chip, global batch (tokens), chips: the published runs, and the same model on other hardware
    "K2 on H800": ("K2", "h800", "67M", 2048),
    "DSV3 on H800": ("DSV3", "h800", 62914560, 2048),
    "K2 on H100": ("K2", "h100", "67M", 2048),
    "DSV3 on H100": ("DSV3", "h100", 62914560, 2048),
    "K2 on TPU v5p": ("K2", "tpu-v5p", "67M", 2048),
    "DSV3 on TPU v5p at 4M": ("DSV3", "tpu-v5p", "4M", 4096),
    "K2 on GB200 NVL72": ("K2", "gb200-nvl72", "67M", 2048),
    "DSV3 on GB200 NVL72 at 4M": ("DSV3", "gb200-nvl72", "4M", 4096),
    "K2 on H800 at 16M": ("K2", "h800", "16M", 2048),
    "DSV3 on H800 at 4M": ("DSV3", "h800", "4M", 4096),
}


# ---- 5: every input used is recorded, and re-running from the record gives the same outputs

@pytest.mark.parametrize("name", sorted(VALID))
def test_rerunning_from_the_recorded_inputs_gives_the_same_outputs(name):
    first = calculators.run(name, VALID[name])
    spec = calculators.schema(name)["properties"]
    assert set(spec) - {"chip", "model"} <= set(first["inputs"])  # every field, defaults included
    again = calculators.run(name, json.loads(json.dumps(calculators.jsonable(first["inputs"]))))
    assert again["outputs"] == first["outputs"]
    assert again["inputs"] == first["inputs"]


@pytest.mark.parametrize("case", sorted(PUBLISHED))
def test_pp_necessity_records_the_layers_and_every_catalog_figure_it_used(case):
    model, chip, batch, n = PUBLISHED[case]
    first = calculators.run("pp_necessity", {"model": model, "chip": chip, "global_batch_tokens": batch, "n_chips": n})
    assert first["inputs"]["n_layers"] == 61 and first["inputs"]["chips_per_node"] >= 1 and first["inputs"]["ep_degree"] == 1
    # without the names, the recorded figures alone give the same answer
    figures = {k: v for k, v in first["inputs"].items() if k not in ("model", "chip")}
    assert calculators.run("pp_necessity", figures)["outputs"] == first["outputs"]


def test_the_cli_reruns_a_recorded_calculation(capsys):
    first = calculators.run("pp_necessity", {"model": "K2", "chip": "h800", "global_batch_tokens": "67M", "n_chips": 2048, "ep_degree": 8})
    assert main(["calc", "pp_necessity", "--input", json.dumps(calculators.jsonable(first["inputs"])), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outputs"] == calculators.jsonable(first["outputs"])


# ---- 6: never more pipeline stages than layers, and say what would fix it when pipelining cannot

@pytest.mark.parametrize("case", sorted(PUBLISHED))
def test_no_pipeline_degree_above_the_layer_count(case):
    model, chip, batch, n = PUBLISHED[case]
    out = calculators.run("pp_necessity", {"model": model, "chip": chip, "global_batch_tokens": batch, "n_chips": n})["outputs"]
    assert out["min_pp_degree"] is None or out["min_pp_degree"] <= 61
    assert out["min_global_batch_tokens"] == pytest.approx(out["critical_tokens_per_chip"] * n)
    if out["dp_comm_bound"] and out["min_pp_degree"] is None:
        assert "cannot fix it" in out["verdict"] and "61 layers" in out["verdict"]
        assert "global batch of at least" in out["verdict"] and "faster domain" in out["verdict"]
        assert "expert parallelism" in out["verdict"] or "tensor parallelism" in out["verdict"]


def test_dsv3_at_4m_on_4096_h800_no_longer_asks_for_1024_stages():
    result = calculators.run("pp_necessity", {"model": "DSV3", "chip": "h800", "global_batch_tokens": "4M", "n_chips": 4096})
    out = result["outputs"]
    assert out["dp_comm_bound"] and out["min_pp_degree"] is None  # was 1,024 for a 61-layer model
    assert "EP 32 with PP 32" in out["verdict"]  # 1,024 chips per replica: PP 32 x EP 32 spans the 128 nodes it needs
    arabic = working.render(result["working"], "ar")
    assert any("طبقات النموذج" in line for line in arabic)


def test_a_sweep_caps_the_pipeline_by_the_layers_too():
    out = calculators.run("pp_necessity", {"model": "DSV3", "chip": "h800", "global_batch_tokens": [4e6, 62914560.0],
                                           "n_chips": 4096})["outputs"]
    assert out["min_pp_degree"][0] != out["min_pp_degree"][0]  # NaN: none fits in 61 layers
    assert list(out["verdict"]) == ["pp_cannot_fix", "needs_pp"]


def test_a_given_pipeline_deeper_than_the_model_is_flagged():
    result = calculators.run("pp_necessity", {"model": "DSV3", "chip": "h800", "global_batch_tokens": "4M", "n_chips": 4096, "pp_degree": 128})
    assert any("61 layers" in w for w in result["warnings"])


# ---- 7: impossible results are flagged with the likely slip; per-chip rates print in their unit

def test_an_impossible_mfu_is_flagged_with_the_likely_cause():
    # a peak typed without its prefix (989 for 989 TFLOP/s) gives an MFU in the millions of percent
    result = calculators.run("mfu", {"params": "70B", "n_chips": 4096, "peak_flop_per_s": 989e6, "tokens_per_s": "3M"})
    assert result["outputs"]["mfu"] > 1
    assert any("impossible" in w and "MFU" in w and "FLOP/s" in w for w in result["warnings"])
    arabic = working.render(result["notes"]["warnings"], "ar")
    assert "مستحيلة" in arabic[0]


def test_a_whole_job_rate_taken_per_chip_is_flagged_divide_by_chips():
    per_job = calculators.run("mfu", {"params": "70B", "n_chips": 64, "peak_flop_per_s": "989 TFLOP/s", "tokens_per_s": "9M"})
    assert any("divide it by the 64 chips" in w for w in per_job["warnings"])
    above_peak = calculators.run("training_time", {"params": "70B", "tokens": "15T", "n_chips": 512, "peak_flop_per_s": "989T",
                                                   "achieved_flop_per_s": "200 PFLOP/s"})
    assert any("above the chip's peak" in w for w in above_peak["warnings"])


def test_ordinary_results_carry_no_warning():
    for name, inputs in VALID.items():
        if name in calculators.names():
            assert calculators.run(name, inputs)["warnings"] == [], name


def test_per_chip_and_per_token_rates_keep_their_unit():
    assert human_field("model_flop_per_s_per_chip", 5.25e15) == "5.25 PFLOP/s"
    assert unit_for_field("memory_bandwidth_bytes_per_s_per_chip") == "bytes_per_s"
    assert unit_for_field("tokens_per_s") == "count"  # a rate, not a duration
    assert unit_for_field("flops_per_token") == "flops"


def test_the_cli_prints_model_flop_per_s_per_chip_in_flop_per_s(capsys):
    assert main(["calc", "mfu", "--input", json.dumps({"params": "70B", "n_chips": 4096, "chip": "h100", "tokens_per_s": "44M"})]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "model_flop_per_s_per_chip" in line)
    assert "PFLOP/s" in line or "TFLOP/s" in line


# ---- 8: generic names and defaults are stated as assumptions

@pytest.mark.parametrize("name, taken_as", [("TPU", "TPU v5p"), ("GPU", "H100"), ("TPUs", "TPU v5p")])
def test_a_generic_chip_name_is_reported(name, taken_as):
    result = calculators.run("pp_necessity", {"chip": name, "global_batch_tokens": "4M", "n_chips": 4096})
    said = [a for a in result["assumptions"] if f"'{name}' taken as" in a]
    assert said and taken_as in said[0]
    assert working.render(result["notes"]["assumptions"], "ar")[0].startswith("أُخذ")


def test_an_exact_chip_name_is_not_an_assumption():
    result = calculators.run("pp_necessity", {"chip": "tpu-v5p", "global_batch_tokens": "4M", "n_chips": 4096})
    assert not any("taken as" in a for a in result["assumptions"])


@pytest.mark.parametrize("name", sorted(VALID))
def test_every_default_used_is_an_assumption(name):
    if name not in calculators.names():
        pytest.skip("not registered")
    given = VALID[name]
    result = calculators.run(name, given)
    fields = calculators.schema(name)["properties"]
    for field, spec in fields.items():
        if field in given or "default" not in spec or spec["default"] is None:
            continue
        assert any(a.startswith(f"{field} = ") for a in result["assumptions"]), (name, field)
    for field in given:
        assert not any(a.startswith(f"{field} = ") and "default" in a for a in result["assumptions"]), (name, field)
