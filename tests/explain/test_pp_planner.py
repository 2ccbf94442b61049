"""A claim that a set-up trains well without pipeline parallelism is put to the layout planner on the text's own model and chips."""

import calculators
from service.explain import restate
from service.explain.compose import explain_offline

# Made-up sentences; the models and chips are the catalog's (data/models.json, data/hardware.json).
THESIS = "With 2048 TPU v5p chips you can train DeepSeek-V3 at an excellent MFU without pipeline parallelism."


def _plans(answer):
    return [c for c in answer["calculations"] if c["calculator"] == "plan_layout"]


def test_the_planner_runs_on_the_texts_model_chip_and_count():
    answer = explain_offline(THESIS, "en")
    plans = _plans(answer)
    assert plans, answer["claims"]
    plan = plans[0]
    assert plan["inputs"]["model"] == "deepseek-v3" and plan["inputs"]["chip"] == "tpu-v5p"
    assert plan["inputs"]["n_chips"] == 2048 and plan["input_sources"]["n_chips"]["source"] == "text"
    again = calculators.run("plan_layout", {k: plan["inputs"][k] for k in ("model", "chip", "n_chips", "global_batch_tokens")})
    assert again["outputs"]["mfu"] == plan["outputs"]["mfu"]
    claim = next(c for c in answer["claims"] if plans and answer["calculations"].index(plan) in c["calculations"])
    assert "layout planner" in claim["why"] and restate.value("mfu", plan["outputs"]["mfu"]) in claim["why"]


def test_the_planners_finding_is_said_in_arabic_too():
    answer = explain_offline(THESIS, "ar")
    assert _plans(answer)
    assert "مخطط التوزيع" in answer["explanation"]


def test_a_claim_that_a_pipeline_is_needed_gets_no_planner_run():
    # Only the thesis "trains well without PP" is put to the planner; a rule with no set-up is explained in words.
    answer = explain_offline("You only need pipeline parallelism when you are DP-comms bound.", "en")
    assert not _plans(answer)


def test_when_the_planner_and_the_pipeline_check_disagree_no_verdict_rests_on_either():
    # On H100s the pipeline check (pp_necessity) finds DeepSeek-V3's data-parallel traffic exposed, while the planner's
    # best layout without a pipeline ties one with it: the answer says both and does not call the claim consistent.
    answer = explain_offline("With 2048 H100 GPUs you can train DeepSeek-V3 at an excellent MFU without pipeline parallelism.", "en")
    claim = next(c for c in answer["claims"] if any(answer["calculations"][i]["calculator"] == "plan_layout" for i in c["calculations"]))
    bound = [answer["calculations"][i]["outputs"]["dp_comm_bound"] for i in claim["calculations"]
             if answer["calculations"][i]["calculator"] == "pp_necessity"]
    assert any(bound)  # the pipeline check: DeepSeek-V3 on 2,048 H100s is DP-comms bound (its table row)
    assert claim["verdict"] == "needs_more" and "does not agree" in claim["why"]
