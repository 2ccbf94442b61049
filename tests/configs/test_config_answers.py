"""A configuration in `unjargon explain`, POST /v1/explain, `unjargon plan --from-config` and the Claude backend (issue 20)."""

import json

import pytest
from fastapi.testclient import TestClient

from service import engine
from service.cli.main import main
from service.config import load as load_settings
from service.configs import reading
from service.explain.compose import explain_offline
from service.http.app import create_app

from tests.support.fake_anthropic import FakeAnthropic, Reply, text

# A Megatron-LM launch with three mistakes of the rules: sequence parallelism at TP 1, a global batch that does not
# divide by micro-batch x DP (DP = 16 / (1 x 2) = 8; 8 x 3 = 24 does not divide 100), and a layer count PP does not divide.
MEGATRON = """#!/bin/bash
GPUS_PER_NODE=8
NNODES=2
torchrun --nproc_per_node $GPUS_PER_NODE --nnodes $NNODES pretrain_gpt.py \\
    --tensor-model-parallel-size 1 --pipeline-model-parallel-size 2 --sequence-parallel \\
    --num-layers 25 --hidden-size 2048 --num-attention-heads 16 --seq-length 2048 \\
    --micro-batch-size 3 --global-batch-size 100 --bf16 --use-distributed-optimizer --my-own-flag 7
"""
GOOD = """torchrun --nproc_per_node 8 --nnodes 4 pretrain_gpt.py --tensor-model-parallel-size 2 --pipeline-model-parallel-size 1 \\
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --seq-length 4096 --ffn-hidden-size 11008 \\
    --micro-batch-size 1 --global-batch-size 512 --bf16 --use-distributed-optimizer --sequence-parallel
"""


def test_the_config_object_has_the_design_shape_and_finds_the_mistakes():
    found = reading.read(MEGATRON, "en")
    assert found["framework"] == "megatron-lm" and found["launcher"] == "torchrun" and found["world_size"] == 16
    assert found["layout"]["dp_degree"] == 8 and found["layout"]["pp_degree"] == 2 and found["layout"]["zero_stage"] == 1
    rules = {p["rule"] for p in found["problems"]}
    assert rules == {"sequence_parallel_without_tp", "global_batch_divisible", "pipeline_stages_divide_layers"}
    batch = next(p for p in found["problems"] if p["rule"] == "global_batch_divisible")
    assert "100" in batch["why"] and "24" in batch["why"] and "--global-batch-size" in batch["options"] and batch["source"]
    assert found["unknown_options"] == ["--my-own-flag"]  # listed as unknown, never guessed
    option = next(o for o in found["options"] if o["name"] == "--tensor-model-parallel-size")
    assert option["value"] == 1 and option["meaning"] and option["cost_or_benefit"] and option["source"]


def test_a_sound_layout_is_evaluated_and_compared_with_the_planner():
    found = reading.read(GOOD, "en")
    assert found["problems"] == [] and found["world_size"] == 32
    out = found["evaluation"]["outputs"]
    assert 0 < out["mfu"] < 1 and out["memory_bytes_per_chip"] > 0 and out["binding_constraint"]
    assert found["chip"]["assumed"] is True and found["chip"]["id"] == "h100-sxm"
    suggestion = found["suggestion"]
    assert suggestion["planner_error"] == 0.15 and suggestion["verdict"] in ("better", "within_error", "same", "fits")
    if suggestion["verdict"] == "better":  # a gain is only claimed beyond the planner's validated error, with edits
        assert suggestion["margin"] > 0.15 and suggestion["edits"]
    else:
        assert suggestion["edits"] == []


def test_an_fp8_recipe_on_a_stated_a100_is_caught():
    found = reading.read("We run this on 16 A100s:\n```bash\n" + GOOD.replace("--bf16", "--bf16 --fp8-format hybrid") + "```\n", "en")
    assert found["chip"] == {"id": "a100-sxm-80gb", "name": found["chip"]["name"], "assumed": False}
    assert "fp8_on_chip_without_fp8" in {p["rule"] for p in found["problems"]}


def test_the_world_size_is_asked_for_in_words_when_nothing_says_it():
    found = reading.read('{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2, "train_batch_size": 64,\n'
                         ' "zero_optimization": {"stage": 2}}\n', "en")
    assert found["world_size"] is None and found["evaluation"] is None
    assert any("How many GPUs" in q for q in found["questions"])


def test_explain_offline_adds_the_config_and_keeps_the_prose():
    thread = ("Why is our MFU only 30% with this?\n\n```bash\n" + GOOD + "```\n")
    result = explain_offline(thread, "en")
    assert result["config"]["framework"] == "megatron-lm"
    assert "## The configuration" in result["explanation"] and "### Every option" in result["explanation"]
    assert "`--tensor-model-parallel-size 2`" in result["explanation"]
    assert "MFU" in result["plain"] or result["claims"]  # the question around the config is read as prose
    assert not any(t.get("found_as") == "--use-distributed-optimizer" for t in result["terms"])


def test_a_whole_config_answers_in_arabic():
    result = explain_offline(MEGATRON, "ar")
    assert "## ملف الإعدادات" in result["explanation"] and "### المشكلات المكتشفة" in result["explanation"]
    assert "إعدادات Megatron-LM" in result["plain"]
    problem = next(p for p in result["config"]["problems"] if p["rule"] == "sequence_parallel_without_tp")
    assert "توازي" in problem["why"]


def test_a_broken_file_says_the_line_and_explains_the_rest():
    result = explain_offline('{\n  "zero_optimization": {"stage": 3,\n  "train_batch_size": 8\n', "en")
    notes = result["config"]["unreadable"]
    assert len(notes) == 1 and "line" in notes[0] and "Could not be read" in result["explanation"]


def test_cli_explain_json_and_http_carry_the_config(capsys, tmp_path):
    script = tmp_path / "train.sh"
    script.write_text(MEGATRON, encoding="utf-8")
    assert main(["explain", "--file", str(script), "--json", "--no-cache", "--backend", "offline"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["config"]["world_size"] == 16
    with TestClient(create_app(load_settings(backend="offline"))) as client:
        response = client.post("/v1/explain", json={"text": MEGATRON})
    assert response.status_code == 200 and response.json()["config"]["layout"]["pp_degree"] == 2


def test_plan_from_config(capsys, tmp_path):
    script = tmp_path / "train.sh"
    script.write_text(GOOD, encoding="utf-8")
    assert main(["plan", "--from-config", str(script), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["suggestion"]["plan"]["outputs"]["layout"]["tp_degree"] >= 1 and out["evaluation"]
    assert main(["plan", "--from-config", str(script)]) == 0
    assert "## The configuration" in capsys.readouterr().out


@pytest.mark.parametrize("content, args, message", [
    (None, [], "cannot read --from-config"),
    ("We trained a model on many GPUs and it went well.", [], "no training configuration found"),
    ('{"train_batch_size": 64, "zero_optimization": {"stage": 1}}', [], "give --n-chips N"),
    (GOOD, ["--n-chips", "0"], "--n-chips must be at least 1"),
])
def test_plan_from_config_refuses_in_one_line(capsys, tmp_path, content, args, message):
    path = tmp_path / "c.txt"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["plan", "--from-config", str(path), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_claude_gets_the_parsed_config_as_a_tool_result(monkeypatch):
    with FakeAnthropic() as server:
        server.point_sdk_here(monkeypatch, "sk-ant-test-0123456789abcdef")
        server.enqueue(Reply([text("Your layout has three problems.")]))
        result = engine.explain(MEGATRON, backend="anthropic", settings=load_settings(max_retries=1, request_deadline_s=10.0))
        request = server.requests[0]
    messages = request["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert messages[1]["content"][0]["name"] == "read_config"
    parsed = json.loads(messages[2]["content"][0]["content"])
    assert parsed["framework"] == "megatron-lm" and {p["rule"] for p in parsed["problems"]} >= {"sequence_parallel_without_tp"}
    assert result["config"]["world_size"] == 16 and result["calculations"] == []


def test_the_web_page_renders_the_config_section():
    from service.http.html import render_result

    result = explain_offline("Is this layout sensible on 128 H100s?\n```yaml\ntrainer:\n  devices: 8\n  num_nodes: 16\nmodel:\n"
                             "  tensor_model_parallel_size: 4\n  pipeline_model_parallel_size: 4\n  virtual_pipeline_model_parallel_size: 3\n"
                             "  micro_batch_size: 1\n  global_batch_size: 2048\n  encoder_seq_length: 4096\n  num_layers: 40\n"
                             "  hidden_size: 5120\n  num_attention_heads: 40\n```\n", "en")
    html = render_result(result)["html"]
    assert "<h2>The configuration</h2>" in html and "<h3>Problems found</h3>" in html
    assert "virtual_pipeline_model_parallel_size" in html and "<pre><code>" in html  # the edits, as a block to copy


def test_a_hydra_yaml_with_includes_and_overrides_names_what_is_elsewhere():
    text = ("defaults:\n  - _self_\n  - optim: distributed_fused_adam\n  - override hydra/launcher: slurm\n"
            "trainer:\n  devices: 8\n  num_nodes: 2\nmodel:\n  tensor_model_parallel_size: 2\n  micro_batch_size: 1\n"
            "  global_batch_size: 64\n  encoder_seq_length: 4096\n  num_layers: 32\n  hidden_size: 4096\n"
            "  num_attention_heads: 32\n  ffn_hidden_size: ${multiply:4, ${.hidden_size}}\n")
    result = explain_offline(text, "en")
    config = result["config"]
    assert config["framework"] == "nemo" and config["world_size"] == 16 and config["layout"]["dp_degree"] == 8
    assert config["includes"] == ["optim: distributed_fused_adam", "override hydra/launcher: slurm"]
    assert "Read from other files that are not here" in result["explanation"]
    assert next(o for o in config["options"] if o["name"] == "model.ffn_hidden_size")["value"] == 16384  # the interpolation resolved


def test_the_terms_of_a_pasted_launch_line_are_still_explained_as_terms():
    # DESIGN.md: every acronym and term of art found in the input appears in `terms`, the configuration's too.
    from service.explain.compose import explain_offline

    text = ("python3 MaxText/train.py MaxText/configs/base.yml model_name=mixtral-8x7b megablox=true "
            "ici_fsdp_parallelism=4 ici_expert_parallelism=2 per_device_batch_size=8 remat_policy=full")
    result = explain_offline(text, "en")
    assert result.get("config") is not None
    assert {"fsdp", "expert-parallelism"} <= {t["id"] for t in result["terms"]}, result["terms"]


def test_nodes_times_gpus_per_node_in_the_thread_is_the_world_size():
    # "2 nodes of 8 A100" is 16 GPUs: with 8, a correct train_batch_size (4 x 8 x 16 = 512) was called wrong.
    from service.configs import split

    text = ('We train with this DeepSpeed config on 2 nodes of 8 A100 80GB and get 95 TFLOPS per GPU.\n```json\n'
            '{"train_batch_size": 512, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 8,\n'
            ' "bf16": {"enabled": true}, "zero_optimization": {"stage": 3}}\n```')
    _, config = split(text, "en")
    assert config["world_size"] == 16 and config["problems"] == []


def test_a_layout_the_prose_states_is_not_replaced_by_all_gpus_as_data_parallel():
    # Megatron-LM's world = TP x PP x DP (Narayanan et al. 2021): "TP8 PP2 and DP 48 on 768 GPUs" is 48 replicas, so a
    # flags-only configuration beside it must not be shown as "DP 768"
    text = ("The README reports 70B with TP8 PP2 and DP 48 on 768 GPUs at 420 TFLOP/s per GPU. Mine is slower.\n\n"
            "I have also used --overlap-grad-reduce and --overlap-param-gather")
    answer = explain_offline(text, "en")["explanation"]
    assert "DP 768" not in answer and "**Layout:** —" not in answer


def test_options_named_in_a_posts_sentence_are_terms_not_a_configuration_section():
    from service.explain.compose import explain_offline

    said = explain_offline("Our 70B run on 128 H100s gets 296 TFLOP/s per GPU. I have also used --overlap-grad-reduce "
                           "and --overlap-param-gather. What else should I try?", lang="en")
    assert "## The configuration" not in said["explanation"] and "does not say" not in said["explanation"]
    assert "**--overlap-grad-reduce**" in said["explanation"] and said["config"]["in_sentence"] is True
    # a real command line keeps its section
    command = explain_offline("torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --overlap-grad-reduce",
                              lang="en")
    assert "## The configuration" in command["explanation"]
