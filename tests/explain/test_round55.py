"""Round 55: what round 55's readers found, each fixed by a general rule (issue 18)."""

from service.explain import pipeline
from service.explain.compose import explain_offline
from tests.support.glossary_files import detected


def _opening(text: str, lang: str) -> str:
    return explain_offline(text, lang)["explanation"].split("\n## ")[0]


def test_not_without_challenges_neither_needs_nor_drops_pipeline_parallelism():
    # round 55 P02 (a zero-bubble explainer): "pipeline parallelism is not without challenges" was read as "a large model
    # is trained without PP" (a wrong gist in the Arabic answer), then as "needs PP"
    doc = pipeline.analyse("However, pipeline parallelism is not without challenges.", "ar")
    assert not [c.frame for c in doc.claims if c.frame], [c.frame for c in doc.claims]
    kept = pipeline.analyse("With TPUs at this scale you get excellent MFU without PP.", "en")
    assert [c.frame for c in kept.claims if c.frame] == ["pp_not_needed"]


def test_a_kernel_speed_up_is_no_scaling_over_the_next_lines_chips():
    # round 55 P10 (a TorchTitan/MI325X post): "2.77x speed-up ... through kernel-level optimization" on one line and
    # "96% scaling efficiency ... from 128 -> 1,024 GPUs" on the next were worked as "35% of linear scaling"
    text = ("We achieved:\n2.77× speed-up on DeepSeek-V3-671B through kernel-level optimization\n"
            "96% scaling efficiency of DeepSeek-V3-671B from 128 → 1,024 GPUs")
    assert not any("linear scaling" in c["why"] for c in explain_offline(text, "en")["claims"])
    # a speed-up over more chips in one sentence is still worked out
    said = explain_offline("Going from 8 to 64 GPUs we got a 6.2x speed-up.", "en")["claims"]
    assert any("78% of linear scaling" in c["why"] for c in said), said


def test_what_a_method_solves_and_a_spread_are_not_the_authors_problem():
    # round 55 P24 (axolotl's sequence parallelism) and P20 (INTELLECT-3 lessons): both Arabic gists said a problem the
    # text does not have ("a problem with SP: runs out of memory"; "step time higher than expected")
    for text in ("SP is necessary for long context post-training where the VRAM on a single card results in OOM for a "
                 "single sequence.", "Microbatch step time variance was larger than expected."):
        assert "مشكلة" not in _opening(text, "ar"), text
    assert "مشكلة" in _opening("We run out of memory on 8 GPUs with ZeRO-2.", "ar")


def test_senses_round_55_found_wrong():
    # P09 (Perplexity's RDMA weight transfer): "low-latency ... zero-copy transfers" is a transfer's delay, not a step's
    terms = {t["id"]: t for t in explain_offline("The engine does low-latency, high-throughput, zero-copy RDMA transfers "
                                                   "of the weights.", "en")["terms"]}
    assert "step" not in (terms.get("latency", {}).get("definition") or ""), terms.get("latency")
    # P22 (PyTorch #169113): "resharding checkpoints" is resharding, not a distributed checkpoint's definition
    assert "distributed-checkpoint" not in detected("Loading is slow when resharding checkpoints with many chunks.")
    # P26 (Crusoe's NCCL timeout page): the buffer-size variable is no name of the Flight Recorder itself
    assert "flight-recorder" not in detected("Set TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value.")
    # P27 (JAX #18224): the dispatch overhead of a jitted step is paid per call, not per kernel launched
    jax = {t["id"]: t for t in explain_offline("Each step pays about 600 us of dispatch overhead when calling the jitted "
                                                "pmapped_fn on TPU.", "en")["terms"]}
    assert "each time it calls a compiled function" in jax["dispatch-overhead"]["definition"], jax["dispatch-overhead"]


def test_pp_in_a_formula_is_the_number_of_stages_and_accelerator_the_class():
    # round 55 P13 (DualPipe #23): "the peak activation memory is roughly PP", "(PP/2 - 1)": PP is the stage count, not
    # the method (both answers counted a wrong sense)
    def pp(text):
        return next(t for t in explain_offline(text, "en")["terms"] if t["id"] == "pipeline-parallelism")
    assert "stands for a number" in pp("In 1F1B, the peak activation memory is roughly PP. For DualPipe it is PP + 1.")["definition"]
    assert "stands for a number" not in pp("You only need PP when you are DP-comms bound.")["definition"]
    # round 55 P06 (a post on Hugging Face Accelerate): "Accelerator.split_between_processes()" is the library's class
    ids = [t["id"] for t in explain_offline("Accelerate added Accelerator.split_between_processes() for multi-GPU "
                                             "inference.", "en")["terms"]]
    assert "accelerator" not in ids, ids
    assert "accelerator" in [t["id"] for t in explain_offline("An AI accelerator such as a TPU runs matrix products.", "en")["terms"]]


def test_a_scenario_told_is_no_advice_and_an_article_that_introduces_says_its_subject():
    # round 55 P15 (Red Hat's just-in-time checkpointing post): "Imagine ... your job fails at 90% completion. You must
    # restart from your last checkpoint ..." was said "The text advises that you must restart ..."
    from service.explain import reported

    text = ("Imagine that after 60 hours of training on an 8x H100 cluster costing $55 an hour, your job fails at 90% "
            "completion. You must restart from your last checkpoint, which was saved 3 hours ago, wasting $165 in compute.\n"
            "This article explores the challenges of distributed training and introduces just-in-time (JIT) checkpointing.")
    opening = _opening(text, "en")
    assert "advises" not in opening and "just-in-time" in opening, opening
    assert reported.role("This article explores the challenges of distributed model training.", "en") == "overview"
