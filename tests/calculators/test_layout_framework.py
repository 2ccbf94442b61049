"""plan_layout and evaluate_layout restricted to what a training framework can run (data/frameworks.json, issue 19)."""

import json

import pytest

import calculators
from calculators import CalculatorInputError
from calculators.layout_framework import framework_names, frameworks
from calculators.resources import data_dir
from calculators.working import render

# Llama 3 70B on 64 H100 with 4M tokens a step: unrestricted, the planner takes tensor parallelism (and a pipeline).
JOB = {"model": "llama-3-70b", "chip": "h100", "n_chips": 64, "global_batch_tokens": 4 * 2**20}
WITHOUT_TP = [name for name, entry in frameworks().items() if not entry["tp"]]


def _plan(**extra):
    return calculators.run("plan_layout", {**JOB, **extra})


def test_the_unrestricted_plan_takes_tensor_parallelism():
    assert _plan()["outputs"]["layout"]["tp_degree"] > 1


@pytest.mark.parametrize("name", WITHOUT_TP)
def test_a_framework_without_tensor_parallelism_never_gets_it(name):
    out = _plan(framework=name)["outputs"]
    for layout in [out["layout"]] + [other["layout"] for other in out["runner_ups"]]:
        assert layout["tp_degree"] == 1 and layout["pp_degree"] == 1 and layout["cp_degree"] == 1, (name, layout)


def test_frameworks_without_tensor_parallelism_include_llm_foundry_of_the_mpt_tables_and_plain_fsdp():
    # llm-foundry v0.4.0 (@5e85bd6, the MPT benchmark tables) wraps the model in Composer FSDP only; TP came in #1521 (2024-09).
    assert {"llm-foundry-0.4", "fsdp", "accelerate-fsdp"} <= set(WITHOUT_TP)
    assert frameworks()["megatron-lm"]["tp"] and frameworks()["llm-foundry"]["tp"]


def test_mpt_70b_on_64_h100_gets_the_published_fsdp_structure_under_llm_foundry():
    # MosaicML llm-foundry, scripts/train/benchmarking/README.md, 'H100 80GB BF16', row 70b, 2048, 64 GPUs: FSDP FULL_SHARD,
    # activation checkpointing, 1,039 tokens/s per GPU. Unrestricted, the planner prefers model parallelism that llm-foundry lacked.
    job = {"params": 64862437376, "n_layers": 80, "d_model": 8192, "n_heads": 64, "vocab_size": 50368, "seq_len": 2048, "chip": "h100",
           "n_chips": 64, "global_batch_tokens": 4194304, "loss_kernel": "fused", "stack": "pytorch", "attention_kernel": "fused_fa2"}
    free = calculators.run("plan_layout", job)["outputs"]["layout"]
    assert free["tp_degree"] * free["pp_degree"] > 1
    bound = calculators.run("plan_layout", {**job, "framework": "llm-foundry-0.4"})["outputs"]["layout"]
    assert (bound["tp_degree"], bound["pp_degree"], bound["zero_stage"]) == (1, 1, 3)


def test_the_answer_says_the_search_was_restricted_in_english_and_arabic():
    working = _plan(framework="llm-foundry-0.4")["working"]
    said = [item for item in working if item["key"] == "plan.framework"]
    assert len(said) == 1
    english, arabic = render(said, "en")[0], render(said, "ar")[0]
    assert "llm-foundry 0.4" in english and "tensor parallelism" in english and "pipeline parallelism" in english
    assert "llm-foundry 0.4" in arabic and "توازي الموتر" in arabic
    assert not [item for item in _plan()["working"] if item["key"].startswith("plan.framework")]


def test_unknown_framework_is_refused_naming_the_field_and_the_accepted_names():
    with pytest.raises(CalculatorInputError) as error:
        _plan(framework="colossalai")
    assert error.value.field == "framework"
    for name in framework_names():
        assert name in str(error.value)


@pytest.mark.parametrize("framework, change, field", [
    ("llm-foundry-0.4", {"tp_degree": 2}, "tp_degree"),
    ("fsdp", {"pp_degree": 2}, "pp_degree"),
    ("torchtitan-2024-04", {"pp_degree": 2}, "pp_degree"),
    ("megatron-lm-2021", {"zero_stage": 1}, "zero_stage"),  # no sharded optimizer before Megatron-LM's distributed optimizer (2022)
    ("deepspeed", {"pp_degree": 2, "zero_stage": 3}, "zero_stage"),  # DeepSpeed's pipeline engine refuses ZeRO-2 and ZeRO-3
    ("megatron-lm", {"recompute": "selective_op"}, "recompute"),
    ("megatron-lm", {"pp_degree": 2, "schedule": "gpipe"}, "schedule"),
])
def test_evaluate_refuses_a_layout_the_framework_cannot_run(framework, change, field):
    with pytest.raises(CalculatorInputError) as error:
        calculators.run("evaluate_layout", {**JOB, "framework": framework, **change})
    assert error.value.field == field and framework in str(error.value)


def test_a_schedule_the_framework_lacks_is_refused_before_the_search():
    with pytest.raises(CalculatorInputError) as error:
        _plan(framework="fsdp", schedule="interleaved")
    assert error.value.field == "schedule"


def test_every_published_run_that_names_a_framework_is_a_layout_that_framework_accepts():
    # The table must admit the runs' own layouts (data/calibration_runs.json, data/validation_runs.json, each with its source).
    named = 0
    for name in ("calibration", "validation"):
        for run in json.loads((data_dir() / f"{name}_runs.json").read_text(encoding="utf-8"))["runs"]:
            if run.get("framework"):
                named += 1
                calculators.run("evaluate_layout", {**run["inputs"], "framework": run["framework"]})
    assert named >= 40


def test_every_framework_gives_a_source_for_what_it_claims():
    for name, entry in frameworks().items():
        assert entry["name"] and entry["version"] and entry["sources"], name
        assert set(entry["recompute"]) <= {"none", "selective", "full", "selective_op"}, name
        assert set(entry["zero_stages"]) <= {0, 1, 2, 3}, name
        assert entry["schedules"] == [] if not entry["pp"] else entry["schedules"], name
