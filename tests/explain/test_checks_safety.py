"""Checks that must not happen (issue 18, FINDINGS class 3): a version read as a size, a GPU count read as memory, a
square root dropped, figures of two set-ups combined, an impossible result shown, a calculation on a claim with no
figure. Also: every checker is declared, with the kinds it compares, in data/verdicts.json."""

import re

import pytest

from service.explain.compose import explain_offline
from service.explain import checks
from service.explain.checks import verdicts
from service.explain.pipeline import analyse


@pytest.mark.parametrize("text", [
    "We fine-tuned Llama 3.1 on a TPU v5p slice and compared it with Claude 3.5 Sonnet.",
    "Gemini 1.5 Pro and GPT-4 were both evaluated on the v5e pods.",
])
def test_a_version_number_is_not_a_model_size(text):
    doc = analyse(text, "en")
    assert not [f for f in doc.figures if f.quantity in ("params", "active_params")]
    assert doc.calculations == []


def test_a_count_of_gpus_is_not_memory():
    doc = analyse("We trained on 512 GPUs for two weeks.", "en")
    assert [f.quantity for f in doc.figures if f.value == 512] == ["n_chips"]
    assert not any(r["calculator"] == "model_state_memory" for r in doc.calculations)


@pytest.mark.parametrize("text,verdict", [
    ("The geometric mean of the two batch sizes is sqrt(4 * 9) = 6.", "consistent"),  # sqrt(36) = 6
    ("The geometric mean of the two batch sizes is sqrt(2 * 8) = 5.", "inconsistent"),  # sqrt(16) = 4
    ("The total is (2 + 3) * 4 = 20 and 2^10 = 1024.", "consistent"),
])
def test_square_roots_powers_and_brackets_are_kept(text, verdict):
    doc = analyse(text, "en")
    assert doc.claims[0].verdict == verdict, doc.claims[0].why


def test_arithmetic_with_a_function_it_cannot_read_is_not_checked():
    # √ and log are not parsed by the evaluator: the bracket alone must not be checked against the function's result
    doc = analyse("The scale factor is √(4 * 9) = 6 and log(100) = 2 here.", "en")
    assert all(c.verdict != "inconsistent" for c in doc.claims)
    assert not any(r["inputs"].get("expression") in ("(4 * 9)", "(100)") for r in doc.calculations)


def test_a_claim_with_no_figure_gets_words_not_a_calculation():
    doc = analyse("You only need PP when you're DP-comms bound.", "en")
    assert doc.calculations == []
    (claim,) = doc.claims
    assert claim.why and "ask again" not in claim.why and "rule of thumb" not in claim.why
    # a belief stated in general is not given a canned reason either
    other = analyse("Pipeline parallelism is considered necessary at scale.", "en")
    assert other.calculations == [] and all("data-parallel traffic" not in c.why for c in other.claims)
    # a report that a run used no pipeline is not answered with the rule either
    report = analyse("They trained a 175B decoder on NVIDIA GPUs without pipeline parallelism.", "en")
    assert all("gradient exchange" not in c.why for c in report.claims)


def test_a_chips_memory_spec_is_not_a_fit_check():
    # 405B x 16 bytes unsharded is 6.48 TB per chip, over 10x the 80 GB each has: sharding the text does not state, no finding
    doc = analyse("The 405B run uses 16K H100 GPUs, each with 80GB HBM3.", "en")
    assert not any(r["calculator"] == "model_state_memory" for r in doc.calculations)


def test_every_checker_is_declared_in_the_verdict_table():
    declared = verdicts.table()["checkers"]
    names = {c.__name__ for c in checks.CHECKERS} | {"arithmetic", "pp_necessity"}
    assert names <= set(declared), names - set(declared)
    known_kinds = set(verdicts.table()["kinds"]) - {"_why"}
    for name in names:
        entry = declared[name]
        assert entry["rule"].strip()
        for kind in entry["compares"]:
            assert kind in known_kinds or " " in kind, (name, kind)  # a kind of the table, or said in words


def test_no_checked_claim_has_an_empty_reason():
    text = ("Our run reached 310 TFLOP/s per GPU versus 440 TFLOP/s per GPU for the reference. "
            "On H100 that is well below the peak. DeepSeek-V3 runs with EP=64.")
    for lang in ("en", "ar"):
        doc = analyse(text, lang)
        assert all(c.why.strip() for c in doc.claims)
        assert not any(re.search(r"\{\w+\}", c.why) for c in doc.claims)  # no unfilled template field


def test_an_mfu_is_not_called_wrong_with_another_sentences_throughput():
    # Written for this test: the 1600 tokens/s is measured after turning on activation checkpointing, the 0.48 MFU
    # without it; 1600 x 6 x 13e9 / 312e12 = 40% (A100 dense BF16 peak 312 TFLOP/s, NVIDIA A100 datasheet) proves no error.
    text = ("On the A100s, for 13B we only reach 0.48 MFU because of the small batch. Turning on activation "
            "checkpointing raises MFU, but the throughput falls to 1600 tokens/sec/GPU.")
    for lang in ("en", "ar"):
        answer = explain_offline(text, lang)
        first = next(c for c in answer["claims"] if "0.48" in c["quote"])
        assert first["verdict"] == "needs_more" and "1600" in first["why"]
        assert not [c for c in answer["claims"] if c["verdict"] == "inconsistent"]


def test_memory_for_loading_a_model_is_not_compared_with_its_training_states():
    # Written for this test: 8 GB of host RAM per process to load weights is not the 70B x 16 bytes (1.12 TB) of training
    # states (weights, gradients, Adam moments; Rajbhandari et al. 2020, ZeRO), so no "calculation gives 1.12 TB" is said.
    answer = explain_offline("Loading a 70B model for fine-tuning on 8 GPUs runs out of CPU RAM: each process needs 8 GB "
                             "just to load the weights.", "en")
    assert not any("1.12 TB" in c["why"] for c in answer["claims"])


def test_a_batch_after_each_gpu_is_one_devices_batch_not_the_global_batch():
    # Written for this test: "each GPU processes a batch of 16" is a per-device batch; the global one is 512.
    doc = analyse("Every device gets a batch size of 8 sequences while the global batch is 512 sequences.", "en")
    found = {f.quote: f.quantity for f in doc.figures}
    assert found["8 sequences"] == "local_batch_sequences" and found["512 sequences"] == "global_batch_sequences"


def test_a_bare_model_size_gives_no_layout_evaluation_and_no_internal_warning():
    # Written for this test: "a 13B dense model" names no architecture, so evaluate_layout has nothing to lay out; the
    # reader gets no "a calculation was skipped: evaluate_layout: n_layers ..." line.
    answer = explain_offline("We trained a 13B dense model on 256 A100 80GB GPUs with TP=2, PP=4 and DP=32.", "en")
    assert not [w for w in answer["warnings"] if "evaluate_layout" in w]
    assert not [c for c in answer["calculations"] if c["calculator"] == "evaluate_layout"]
