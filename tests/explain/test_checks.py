"""Checks: each claim with numbers gets the calculator that checks it, filled with the text's own figures (issue 11.3)."""

import calculators
import pytest

from service.explain.compose import explain_offline

ONE_SENTENCE = ("Our 70B run (FSDP8 TP8 PP4 on 256 H100s, GBS=1024 at seq 4k) reached 41% MFU; "
                "interleaving with 2 virtual stages cut the bubble from 9% to 5%.")


def _runs(result: dict, name: str) -> list[dict]:
    return [c for c in result["calculations"] if c["calculator"] == name]


def test_the_bubble_is_checked_with_the_texts_pipeline():
    result = explain_offline(ONE_SENTENCE, "en")
    bubbles = _runs(result, "pipeline_bubble")
    assert bubbles, result["claims"]
    for run in bubbles:
        assert run["inputs"]["pp_degree"] == 4
        assert run["input_sources"]["pp_degree"] == {"source": "text", "quote": "PP4"}
        assert run["input_sources"]["microbatches"]["source"] in ("text", "derived")
    interleaved = [r for r in bubbles if r["inputs"]["schedule"] == "interleaved"]
    assert interleaved and interleaved[0]["inputs"]["virtual_stages"] == 2
    claim = next(c for c in result["claims"] if "bubble" in c["quote"])
    assert claim["verdict"] in ("consistent", "inconsistent", "needs_more") and claim["why"]


def test_no_pipeline_verdict_contradicts_the_texts_own_pipeline():
    result = explain_offline(ONE_SENTENCE, "en")
    assert not _runs(result, "pp_necessity")  # the text claims nothing about needing PP: nothing to run
    setup = result["claims"][0]
    assert "throughput" in setup["why"]  # an MFU needs a rate to check
    # FSDP8 x TP8 x PP4 = 256 H100s holds as stated: a confirmation nobody asked for, so only the missing rate is said
    assert setup["verdict"] == "needs_more" and "256" not in setup["why"]


def test_a_wrong_mfu_is_flagged_with_both_numbers():
    result = explain_offline("We trained a 70B model on 1024 H100s at 1M tokens/s and reached 80% MFU.", "en")
    (claim,) = result["claims"]
    assert claim["verdict"] == "inconsistent"
    assert "80%" in claim["why"] and "41.47%" in claim["why"]
    run = result["calculations"][claim["calculation"]]
    assert run["calculator"] == "mfu" and run["inputs"]["n_chips"] == 1024 and run["inputs"]["tokens_per_s"] == 1e6
    assert run["input_sources"]["peak_flop_per_s"] == {"source": "catalog", "from": "h100-sxm"}


def test_a_right_mfu_is_consistent():
    result = explain_offline("We trained a 70B model on 1024 H100s at 1M tokens/s and reached 41% MFU.", "en")
    assert result["claims"][0]["verdict"] == "consistent"


def test_a_conceptual_passage_gets_no_calculation():
    text = ("Pipeline parallelism splits the layers of a model into stages on different GPUs; the bubble is the idle "
            "time at the start and end of each step, and interleaving shrinks it.")
    result = explain_offline(text, "en")
    assert result["calculations"] == []
    assert "no numbers" not in result["explanation"].lower()


def test_a_pipeline_claim_uses_the_texts_batch_chips_and_chip():
    result = explain_offline("We're DP-comms bound on H100s at 4096 GPUs with a 4M token batch, so we need PP.", "en")
    runs = _runs(result, "pp_necessity")
    assert runs and all(r["inputs"]["chip"] == "h100-sxm" for r in runs)
    assert all(r["inputs"]["n_chips"] == 4096 and r["inputs"]["global_batch_tokens"] == 4e6 for r in runs)
    assert runs[0]["input_sources"]["global_batch_tokens"]["source"] == "text"


def test_an_assumption_is_said_and_marked():
    result = explain_offline("with TPUs at K2 scale you get excellent MFU without PP", "en")
    (run,) = _runs(result, "pp_necessity")
    assumed = [name for name, s in run["input_sources"].items() if s["source"] == "assumed"]
    assert "n_chips" in assumed
    assert any("4,096 chips" in a for a in run["assumptions"])


def test_bus_bandwidth_from_nccl_tests_output():
    result = explain_offline("nccl-tests all_reduce on 8 GPUs: algbw 180 GB/s, busbw 315 GB/s", "en")
    (run,) = _runs(result, "nccl_busbw")
    assert run["inputs"]["op"] == "all_reduce" and run["inputs"]["n_ranks"] == 8
    assert result["claims"][0]["verdict"] == "consistent"


@pytest.mark.skipif("total_flops" not in calculators.schema("training_time")["properties"],
                    reason="training_time does not take total_flops yet (calculators helper)")
def test_arithmetic_written_in_the_text_is_redone():
    # 6.3e24 / (8960 x 4.59e14 x 0.4) = 3.83e6 s = 44.3 days (the scaling book's LLaMA-3 estimate on one v5p pod at 40% MFU)
    result = explain_offline("Training takes 6.3e24 / (8960 * 4.59e14 * 0.4) seconds, about 44 days.", "en")
    (run,) = _runs(result, "training_time")
    assert run["inputs"]["total_flops"] == 6.3e24 and run["inputs"]["n_chips"] == 8960
    assert result["claims"][0]["verdict"] == "consistent"


def test_a_follow_up_redoes_the_check_on_what_it_names():
    first = "Kimi K2 with a 16M token batch on 4096 H100s: do we need PP?"
    before = explain_offline(first, "en")
    after = explain_offline("and on TPUs?", "en", context=first)
    assert after["explanation"] != before["explanation"] and "TPU" in after["explanation"]
    runs = _runs(after, "pp_necessity")
    assert runs and all(r["inputs"]["chip"] == "tpu-v5p" and r["inputs"]["global_batch_tokens"] == 16e6 for r in runs)


# ---- checks from the claim's own numbers (service/explain/checks/arithmetic.py): sentences written for these tests

def _verdict(text: str, needle: str) -> tuple[str, str, list[str]]:
    result = explain_offline(text, "en")
    claim = next(c for c in result["claims"] if needle in c["quote"])
    names = [result["calculations"][i]["calculator"] for i in claim["calculations"]]
    return claim["verdict"], claim["why"], names


@pytest.mark.parametrize("stated, verdict", [("2.4 ms", "consistent"), ("24 ms", "inconsistent")])
def test_written_arithmetic_with_units_is_evaluated(stated, verdict):
    got, why, names = _verdict(f"Moving the gradients takes 1 GiB / 450 GB/s = {stated} per step.", "GiB")
    assert "arithmetic" in names and got == verdict and stated in why


def test_stated_degrees_multiply_to_the_chip_count():
    # DP x TP x PP = world size (Megatron-LM, Narayanan et al. 2021, section 2): 16 x 8 x 4 = 512
    got, why, names = _verdict("We train on 1024 GPUs with DP=16, TP=8 and PP=4.", "GPUs")
    assert "arithmetic" in names and got == "inconsistent" and "512" in why
    # a sentence about the layout that adds up as stated is said to (readers of rounds 65-67 asked for "8 x 50 = 400",
    # "TP2 x DP32 = 64"); beside another claim (an MFU) it stays unsaid (test_no_pipeline_verdict_contradicts_...)
    got, why, names = _verdict("We train on 512 GPUs with DP=16, TP=8 and PP=4.", "GPUs")
    assert "arithmetic" in names and got == "consistent" and "512" in why
    got, why, names = _verdict("The 40B models run on 400 GPUs with 8-way model parallelism and 50-way data parallelism.", "GPUs")
    assert "arithmetic" in names and got == "consistent" and "400" in why


@pytest.mark.parametrize("batch, verdict", [("2,470", "consistent"), ("1,470", "inconsistent")])
def test_symbols_assigned_in_the_text_feed_the_critical_batch(batch, verdict):
    text = f"For this GPU, C=9.89e14 and W=4e11, so the batch per chip must be at least {batch} tokens to stay compute-bound."
    got, why, names = _verdict(text, "C=")
    assert names == ["dp_critical_batch"] and got == verdict and batch in why


@pytest.mark.parametrize("days, verdict", [("68 days", "consistent"), ("28 days", "inconsistent")])
def test_a_training_time_from_stated_total_flops(days, verdict):
    text = f"The run needs 3.8e25 FLOPs and finishes in about {days} on 16384 chips, each with 9.89e14 FLOP/s peak at 40% MFU."
    result = explain_offline(text, "en")
    runs = _runs(result, "training_time")
    assert runs and runs[0]["inputs"]["total_flops"] == 3.8e25
    assert runs[0]["input_sources"]["total_flops"]["source"] == "text"
    assert verdict in [c["verdict"] for c in result["claims"]]


@pytest.mark.parametrize("change, verdict", [("28%", "consistent"), ("48%", "inconsistent")])
def test_a_stated_change_between_two_figures(change, verdict):
    text = f"Our new kernel reaches 51.2% MFU, which is {change} faster than the 40% we measured before."
    got, why, names = _verdict(text, "faster")
    assert "ratio" in names and got == verdict


def test_a_product_6nd_is_training_flops():
    got, why, names = _verdict("Training a 8B model on 15T tokens takes 6 × 8B × 15T = 7.2e23 FLOPs.", "6 ×")
    assert "training_flops" in names and got == "consistent"


def test_a_layout_with_a_per_gpu_rate_is_scored_by_the_planner():
    # Issue 12: the explainer checks configuration claims with evaluate_layout. The stated size (70B) does not
    # hide the named model's architecture, a rate the job reached is not taken for the chip's peak, and FSDP
    # named as a term means ZeRO stage 3.
    result = explain_offline("We trained Llama 3 70B on 512 H100s with TP8 PP4 and FSDP, a 4M-token batch at seq 8192, "
                             "and reached 420 TFLOP/s per GPU.", lang="en")
    layout = next(c for c in result["calculations"] if c["calculator"] == "evaluate_layout")
    assert layout["inputs"]["tp_degree"] == 8 and layout["inputs"]["pp_degree"] == 4 and layout["inputs"]["n_chips"] == 512
    assert layout["inputs"]["zero_stage"] == 3 and layout["input_sources"]["zero_stage"]["source"] == "derived"
    assert layout["inputs"]["peak_flop_per_s"] == pytest.approx(989e12, rel=0.01)  # the H100's, not the 420 reached
    claim = next(c for c in result["claims"] if c["calculation"] is not None)
    assert claim["verdict"] == "consistent" and "420 TFLOP/s" in claim["why"]


def test_a_rate_per_gpu_with_a_model_and_a_named_chip_gives_the_mfu_it_means():
    # 6 FLOPs per parameter per token (Kaplan et al. 2020): 3,700 x 6 x 7e9 = 155.4 TFLOP/s per A100, whose dense BF16
    # peak is 312 TFLOP/s (NVIDIA A100 datasheet): 49.81%
    result = explain_offline("We get 3,700 tokens/s per GPU training a 7B model on A100s.", "en")
    (claim,) = result["claims"]
    assert "155.4 TFLOP/s" in claim["why"] and "49.81%" in claim["why"] and "A100" in claim["why"]
    # "per GPU" names no generation: no MFU is worked on a stand-in chip, and a stated one is not judged on it
    bare = explain_offline("We get 3,700 tokens/s per GPU training a 7B model.", "en")
    assert not any(c["calculator"] == "mfu" for c in bare["calculations"])
    judged = explain_offline("Training a 7B model at 3,700 tokens/s per GPU gives 80% MFU.", "en")
    assert judged["claims"][0]["verdict"] != "inconsistent"


def test_written_arithmetic_in_bytes_is_shown_in_bytes():
    # 70B parameters x 4 bytes (fp32) x 8 processes = 2,240 GB: "2TB" is right within its rounding, and both sides
    # are written as sizes ("2.24 TB"), not as a bare "2.24T"
    result = explain_offline("Each of the 8 ranks loads the 70B model in fp32, so it would require 70*4*8 GB ~ 2TB of CPU RAM.", "en")
    claim = next(c for c in result["claims"] if "70*4*8" in c["quote"])
    assert claim["verdict"] == "consistent" and "2.24 TB" in claim["why"] and "2.24T" not in claim["why"]
