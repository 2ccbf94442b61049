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
    assert setup["verdict"] == "needs_more" and "throughput" in setup["why"]  # an MFU needs a rate to check


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
    result = explain_offline("Training takes 6.3e24 / (8960 * 4.59e14 * 0.4) seconds, about 20 days.", "en")
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
