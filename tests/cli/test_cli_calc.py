"""`unjargon calc`: listing, help, a person's output, JSON, the hardware comparison, and clean errors."""

import json

import pytest

import calculators
from service.cli.main import main


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_lists_every_calculator(capsys):
    code, out, _ = run_cli(capsys, "calc")
    assert code == 0
    for name in calculators.names():
        assert name in out


def test_help_documents_every_field_with_unit_and_default(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["calc", "pipeline_bubble", "--help"])
    out = capsys.readouterr().out
    assert exit_info.value.code == 0
    for flag in ("--pp-degree", "--microbatches", "--virtual-stages", "--schedule"):
        assert flag in out
    assert "[default: 1f1b]" in out and "a whole number" in out


@pytest.mark.parametrize("command", [["plan"], *(["calc", name] for name in calculators.names())])
def test_every_help_page_prints(capsys, command):
    # A field's help with a percent sign ("0.4 or 40%") crashed argparse's help formatting.
    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--help"])
    out = capsys.readouterr().out
    assert exit_info.value.code == 0 and "--json" in out


def test_person_output_has_outputs_steps_and_sources(capsys):
    code, out, _ = run_cli(capsys, "calc", "mfu", "--params", "540.35B", "--n-chips", "6144", "--peak-flop-per-s", "275 TFLOP/s",
                           "--tokens-per-s", "238.3k", "--n-layers", "118", "--n-heads", "48", "--head-dim", "256", "--seq-len", "2048")
    assert code == 0
    assert "46.23%" in out  # PaLM Table 3 reports 46.2% MFU for PaLM 540B (Chowdhery et al. 2022)
    assert "Working:" in out and "Sources:" in out and "PaLM" in out


def test_json_is_the_result_object(capsys):
    code, out, _ = run_cli(capsys, "calc", "pipeline_bubble", "--pp-degree", "8", "--microbatches", "32", "--json")
    result = json.loads(out)
    assert code == 0
    assert set(result) == {"calculator", "inputs", "outputs", "steps", "assumptions", "warnings", "sources", "working", "notes"}
    assert result["outputs"]["bubble_over_ideal"] == pytest.approx(7 / 32)  # Megatron-LM: (p-1)/m


def test_input_json_and_flags_combine(capsys):
    code, out, _ = run_cli(capsys, "calc", "roofline", "--input", '{"flops": "1e12", "bytes": "10GB"}', "--chip", "h100", "--json")
    # 1e12 FLOP over 10 GB is 100 FLOP/byte, below H100's ~295 critical intensity (scaling book roofline.md)
    assert code == 0 and json.loads(out)["outputs"]["bound"] == "memory"


def test_hardware_comparison_prints_one_row_per_chip(capsys):
    code, out, _ = run_cli(capsys, "calc", "pp_necessity", "--model", "K2", "--global-batch-tokens", "16M", "--n-chips", "4096",
                           "--chip", "tpu-v5p,h100,gb200-nvl72")
    lines = out.strip().splitlines()
    assert code == 0
    assert lines[0].split()[:2] == ["chip", "model"]
    assert [line.split()[0] for line in lines[1:]] == ["tpu-v5p", "h100-sxm", "gb200-nvl72"]
    assert all("bound" in line for line in lines[1:])


@pytest.mark.parametrize("argv, field", [
    (["calc", "nope"], "unknown calculator"),
    (["calc", "mfu", "--chip", "h1000", "--params", "7B", "--n-chips", "8", "--tokens-per-s", "1k"], "did you mean"),
    (["calc", "pipeline_bubble", "--pp-degree", "4"], "microbatches"),
    (["calc", "pipeline_bubble", "--pp-degree", "0", "--microbatches", "4"], "pp_degree"),
    (["calc", "pipeline_bubble", "--pp-degree", "-4", "--microbatches", "4"], "pp_degree"),
    (["calc", "roofline", "--flops", "nan", "--bytes", "1", "--chip", "h100"], "flops"),
    (["calc", "roofline", "--flops", "inf", "--bytes", "1", "--chip", "h100"], "flops"),
    (["calc", "roofline", "--flops", "lots", "--bytes", "1", "--chip", "h100"], "flops"),
    (["calc", "collective_time", "--op", "all_reduce", "--size-bytes", "900GB/s", "--n-ranks", "8", "--bandwidth-bytes-per-s", "1"], "size_bytes"),
    (["calc", "mfu", "--unknown-field", "3"], "unrecognized"),
    (["calc", "roofline", "--input", "{not json"], "--input"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, field):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("unjargon: error:")
    assert field in err
    assert "Traceback" not in err + out


def test_moe_verdict_offers_expert_parallelism_and_it_holds(capsys):
    # Scaling book (training.md, gpus.md): MoE needs tokens/chip > (E/k) C/W, and model parallelism spanning M
    # chips' links multiplies W by M. K2 (E/k = 384/8) on TPU v5p (C/W = 850 over 3 ICI axes) at 3,906 tokens/chip.
    code, out, _ = run_cli(capsys, "calc", "pp_necessity", "--model", "K2", "--global-batch-tokens", "16M",
                           "--n-chips", "4096", "--chip", "tpu-v5p", "--json")
    verdict = json.loads(out)["outputs"]["verdict"]
    assert code == 0 and "expert parallelism over 16 chips" in verdict
    _, out, _ = run_cli(capsys, "calc", "pp_necessity", "--model", "K2", "--global-batch-tokens", "16M",
                        "--n-chips", "4096", "--chip", "tpu-v5p", "--ep-degree", "16", "--json")
    outputs = json.loads(out)["outputs"]
    assert outputs["dp_comm_bound"] is False and outputs["critical_tokens_per_chip"] == pytest.approx(850 * 48 / 16, rel=1e-3)


def _bounded_fields() -> list[tuple[str, str]]:
    """(calculator, field) for every batch field with an upper bound: each calculator that takes a batch."""
    from calculators.registry import get

    found = [(name, spec.name) for name in calculators.names() for spec in get(name).fields if spec.maximum is not None]
    assert {name for name, field in found if field == "global_batch_tokens"} == {
        name for name in calculators.names() if "global_batch_tokens" in get(name).by_name}
    return found


def _flags(inputs: dict) -> list[str]:
    flags = []
    for key, value in inputs.items():
        flags += [f"--{key.replace('_', '-')}", str(value).lower() if isinstance(value, bool) else str(value)]
    return flags


@pytest.mark.parametrize("name, field", _bounded_fields())
@pytest.mark.parametrize("value", ["1e308", "2e10"])
def test_an_absurd_batch_is_one_line_naming_the_field(capsys, name, field, value):
    # Issue 21: a batch of 1e308 tokens planned "1e296T tokens per step" and a step of 3e296 days.
    from tests.support.calculator_examples import VALID

    inputs = {**VALID[name], field: value}
    command = ["plan"] if name == "plan_layout" else ["calc", name]
    code, out, err = run_cli(capsys, *command, *_flags(inputs))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"unjargon: error: {field}: must be at most ") and f"got {float(value):g}" in err


def test_the_largest_published_batch_is_accepted(capsys):
    # Kimi K2: "the global batch size was held at 67M tokens" (arXiv:2507.20534, section 2.5).
    code, out, _ = run_cli(capsys, "calc", "pp_necessity", "--model", "K2", "--chip", "h100", "--n-chips", "4096",
                           "--global-batch-tokens", "67M", "--json")
    assert code == 0 and json.loads(out)["inputs"]["global_batch_tokens"] == 67e6


@pytest.mark.parametrize("name", [name for name, field in _bounded_fields() if field == "global_batch_tokens"])
def test_a_batch_of_less_than_one_token_is_refused(capsys, name):
    from tests.support.calculator_examples import VALID

    command = ["plan"] if name == "plan_layout" else ["calc", name]
    code, _, err = run_cli(capsys, *command, *_flags({**VALID[name], "global_batch_tokens": "1e-10"}))
    assert code == 2 and err == "unjargon: error: global_batch_tokens: must be at least 1, got 1e-10\n"


def test_plan_says_first_when_nothing_fits_and_answers_in_arabic(capsys):
    # issue 19: 405B on 8 H100 fits in no layout; the answer says so first, names the chips that would fit, and exits 0.
    from service.cli.main import main

    assert main(["plan", "--model", "llama-3-405b", "--chip", "h100", "--n-chips", "8", "--global-batch-tokens", "4M"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert lines[1].startswith("No layout fits") and "Chosen layout" not in "\n".join(lines)
    assert main(["plan", "--model", "llama-3-70b", "--chip", "h100", "--n-chips", "64", "--global-batch-tokens", "4M", "--lang", "ar"]) == 0
    text = capsys.readouterr().out
    assert "التوزيع المختار" in text and "Chosen layout" not in text and "micro-batch" not in text
    assert main(["plan", "--model", "llama-3-70b", "--chip", "h100", "--n-chips", "64", "--global-batch-tokens", "4M", "--lang", "xx"]) == 2


def test_plan_names_a_model_given_by_its_architecture(capsys):
    from service.cli.main import main

    assert main(["plan", "--params", "70B", "--n-layers", "80", "--d-model", "8192", "--n-heads", "64", "--seq-len", "8192",
                 "--chip", "h100", "--n-chips", "64", "--global-batch-tokens", "4M"]) == 0
    assert "70B-parameter model (80 layers" in capsys.readouterr().out.splitlines()[0]
