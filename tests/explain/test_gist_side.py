"""The gist's point is the author's claim, never a pointer to other reading, a caption, or the set-up a test ran on."""

from service.explain import gist_side, reported
from service.explain.compose import explain_offline


def gist_of(text: str, lang: str = "en") -> str:
    return " ".join(item["text"] for item in explain_offline(text, lang)["gist"])


def test_a_pointer_to_other_reading_is_not_the_point():
    text = ("We suggest reading our earlier blog post on the optimizer for its design. "
            "The new optimizer cut the step time of our 13B model from 2.1 s to 1.6 s on 64 GPUs.")
    gist = gist_of(text)
    assert "blog post" not in gist
    assert "1.6 s" in gist


def test_pointer_and_test_setup_are_recognised_and_a_result_is_not():
    assert gist_side.pointer("Please see the documentation for the full list of flags.")
    assert gist_side.pointer("Benchmarked on 8 A100 GPUs with a 1.3B model:")
    assert not gist_side.pointer("The benchmark shows that the fused kernel is 20% faster than the eager one.")


def test_a_caption_pointing_at_a_figure_is_not_the_evidence_of_a_conclusion():
    text = ("The new kernel keeps the GPUs busy across eight nodes. "
            "Llama 8B BF16: 1.2x speedup on 8 nodes. "
            "Throughput per node as you can see in figure 2 below. "
            "These results demonstrate that the kernel scales well on multi-node clusters.")
    gist = gist_of(text)
    assert "figure 2" not in gist
    assert "scales well" in gist
    assert "these results demonstrate" not in gist.lower()  # the conclusion is stated, not its announcement


def test_results_that_demonstrate_something_are_a_conclusion():
    assert reported.role("These results demonstrate that the cluster scales almost linearly.", "en") == "conclusion"
    assert reported.role("The numbers indicate that the network is the limit.", "en") == "conclusion"


def test_a_name_with_its_size_keeps_its_capital_after_a_reporting_verb():
    assert reported._lower_first("Mixtral 8x22B runs on 4 nodes.") == "Mixtral 8x22B runs on 4 nodes."
    assert reported._lower_first("Throughput doubles on 4 nodes.") == "throughput doubles on 4 nodes."
    assert reported._lower_first("Interleaved 1F1B is faster.") == "interleaved 1F1B is faster."  # a schedule, not a size


def test_a_bracketed_note_a_label_and_where_a_result_was_seen_are_left_out():
    from service.explain.synthesis import compressed
    said = compressed("Case study: in further experiments, the fused optimizer cuts the step time by 12% "
                      "(note the gain can be larger for bigger models)", "en")
    assert said.startswith("The fused optimizer cuts the step time by 12%")
    assert "note" not in said and "Case study" not in said
    assert compressed("We observe from Table 2 that the larger models gain up to 40%", "en") == \
        "The larger models gain up to 40%"


def test_a_pull_requests_change_said_as_an_order_is_what_the_change_does():
    gist = gist_of("This PR makes two changes:\n- Refactor the optimizer kernels so they never wait on the host.\n"
                   "- Add option to keep only the low bits of the master weights.")
    assert gist.startswith("The change refactors the optimizer kernels so they never wait on the host")
    assert gist_of("Add more GPUs if the step is too slow.").startswith("The text's advice is to add more GPUs")


def test_a_thing_that_should_use_less_is_an_expectation_and_a_puzzled_author_reports_a_problem():
    assert reported.role("FP8 should use less memory than BF16 for the same batch.", "en") == "expectation"
    assert reported.role("You should use FSDP across nodes.", "en") == "recommendation"
    assert reported.role("I am scratching my head over why the fused kernel is slower.", "en") == "problem"


def test_a_formula_or_a_piece_of_one_is_not_the_point():
    # "The text says that * (global batch size) / (training_step_timing) =" opened a gist on round 7's set
    text = ("To obtain throughput in tokens per second, follow this formula: "
            "(sequence length) * (global batch size) / (training_step_timing) = (throughput in tokens per second). "
            "The throughput of the example run is well above the baseline, so the recipe scales.")
    gist = explain_offline(text, "en")["explanation"].split("##")[1]
    assert "* (global batch size)" not in gist and "training_step_timing" not in gist
