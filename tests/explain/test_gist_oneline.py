"""The gist as one sentence: the point with its reason or the question asked about it, without talk about the talk.

Every sentence here is written for the test; none comes from the corpus.
"""

import pytest

from service.explain import gist_frames, reported, synthesis
from service.explain.compose import explain_offline
from service.explain.pipeline import analyse


def opening(text: str) -> str:
    return explain_offline(text, "en")["explanation"].split("## ")[1].split("\n\n")[1]


def test_a_problem_and_the_question_about_it_are_one_sentence():
    gist = opening("I only get 21% MFU when training a 3B model on 16 A100 GPUs. Why is it so low?")
    assert gist.count(". ") == 0 and gist.endswith(".")
    assert "they only get 21%" in gist and ", and asks why it is so low" in gist


def test_a_question_asked_first_follows_the_situation_it_asks_about():
    gist = opening("Why is the second node so slow? The step takes 800 ms on two nodes but only 350 ms on one node.")
    assert gist.startswith("The text says that the step takes 800 ms on two nodes but only 350 ms on one node, and asks")
    assert gist.endswith("and asks why the second node is so slow.")  # "why is the X" turned without guessing a verb form


def test_the_reason_joins_the_point_with_its_hedge():
    gist = opening("I only reach 30% MFU with our 13B model on 64 GPUs. This is probably because the micro-batch is small.")
    assert gist.count(". ") == 0
    assert "64 GPUs, and explains that this is probably because the micro-batch is small" in gist


def test_a_guessed_reason_never_becomes_the_situation_asked_about():
    joined = reported.joined("The author asks for the launch settings", "They explain that one possible reason is the bubble",
                             "author", "en")
    assert joined is None


def test_a_join_keeps_the_subject_and_its_verb_agreement():
    assert reported.joined("The authors report that the loss diverges at step 900", "They ask whether warm-up helps",
                           "authors", "en") == "The authors report that the loss diverges at step 900, and ask whether warm-up helps"
    assert reported.joined("The text says that the cache is not used", "It adds that the flag is off", "text", "en") \
        == "The text says that the cache is not used, and adds that the flag is off"


def test_a_row_with_a_label_is_not_joined_as_a_clause():
    assert reported.joined("The author asks why it is slow", "They add that Step time: 900 ms", "author", "en") is None


def test_someone_elses_words_are_not_joined_under_the_authors_subject():
    assert reported.joined("Alice says the bubble is small", "They add that the step is slow", "author", "en") is None


@pytest.mark.parametrize("clause, kept", [
    ("A few points to note here, the 13B run is not using the hardware well", "The 13B run is not using the hardware well"),
    ("Of note though, the cache is only filled when the flag is set", "The cache is only filled when the flag is set"),
    ("First of all, I was wondering how do you place 64 experts on 48 GPUs?", "How do you place 64 experts on 48 GPUs?"),
    ("Rather, I am getting about 12% MFU", "I am getting about 12% MFU"),
    ("On the smaller nodes, we found that the step is not faster", "On the smaller nodes, the step is not faster"),
    ("It seems that the all-gather is not overlapped", "Probably the all-gather is not overlapped"),
    ("The reduce-scatter runs in bf16 as well.", "The reduce-scatter runs in bf16."),
    ("In my opinion, the bubble is not the bottleneck unless the stages are uneven",
     "In my opinion, the bubble is not the bottleneck unless the stages are uneven"),  # a hedge stays
])
def test_talk_about_the_talk_is_dropped_and_the_claim_kept(clause, kept):
    assert synthesis.compressed(clause, "en") == kept


def test_rows_under_headings_are_read_as_one_comparison():
    text = ("I ran the same 2B model twice on one node.\n\nRun A\nOptimizer: adam\nStep time: 410 ms\n\n"
            "Run B\nOptimizer: lion\nStep time: 655 ms\n\nWhy is run B slower?")
    doc = analyse(text, "en")
    sources, said = gist_frames.compared_rows(doc)
    assert said == "step time is 410 ms in Run A and 655 ms in Run B"
    gist = opening(text)
    assert "step time is 410 ms in Run A and 655 ms in Run B, and asks" in gist


def test_rows_with_one_value_or_no_heading_compare_nothing():
    same = analyse("Run A\nStep time: 410 ms\n\nRun B\nStep time: 410 ms\n\nIs that expected?", "en")
    assert gist_frames.compared_rows(same) is None
    bare = analyse("Step time: 410 ms\nStep time: 655 ms\nWhy?", "en")
    assert gist_frames.compared_rows(bare) is None


def test_a_question_pointing_at_another_sentence_is_not_tied_to_the_point():
    text = ("I use full recomputation on four stages to fit the model. May I check if this is how you run it? "
            "Also, when I enable the overlap flag, I get a hang at step 3.")
    gist = opening(text)
    assert "hang at step 3, and asks" not in gist  # "this" is the recomputation, not the hang


@pytest.mark.parametrize("question", ["When I train the 8B model on two nodes, the step takes 2 s, is that normal?",
                                      "If we turn on recomputation, the memory drops by half?"])
def test_a_question_opening_on_a_condition_is_not_asked_as_when_or_if(question):
    asked = reported.indirect_question(question)
    assert asked is None or not asked.startswith(("when", "if"))  # quoted whole, or "whether this is normal: ...", never "asks when I train ..."


def test_a_joined_sentence_does_not_repeat_its_reporting_verb():
    joined = reported.joined("The author reports that the step is flat at 9 s", "They report that halving the bubble did nothing",
                             "author", "en")
    assert joined == "The author reports that the step is flat at 9 s, and adds that halving the bubble did nothing"


def test_a_verbless_wanted_line_in_a_question_post_is_asked_about():
    text = ("I want to train a 20B MoE model with 64 experts on 128 GPUs.\n\n"
            "1. Recommended parallelism layout for 128 GPUs with 64 experts. Any advice on placing the experts?")
    gist = opening(text)
    assert "asks about the recommended parallelism layout for 128 GPUs with 64 experts" in gist
    assert "advises" not in gist
    assert ", and for any advice on placing the experts" in gist


def test_a_verbless_recommended_line_in_a_document_is_not_made_a_question():
    said = reported.point("Recommended batch size of 512 for eight nodes", "Recommended batch size of 512 for eight nodes.",
                          "en", "text", "Recommended batch size of 512 for eight nodes. It keeps every GPU busy.")
    assert "asks" not in said


@pytest.mark.parametrize("sentence, verb", [
    ("On this chip all tensor shapes must be fixed when the graph is compiled.", "says that"),
    ("You should keep each expert group inside one node.", "advises that"),
    ("You also need to raise the batch size until the memory is full.", "advises that you also need"),
])
def test_a_requirement_is_said_and_only_advice_is_advised(sentence, verb):
    assert reported.point(sentence.rstrip("."), sentence, "en", "text", sentence).startswith(f"The text {verb} ")


def test_a_question_post_gives_its_rows_as_the_situation_it_asks_about():
    gist = opening("I train a 7B model with FSDP.\nStep time: 2.4 s\nTokens per second per GPU: 1,900\nIs this expected for A100s?")
    assert gist == ("The author reports step time 2.4 s and tokens per second per GPU 1,900, "
                    "and asks whether this is expected for A100s.")


def test_a_spec_sheet_of_many_rows_is_not_a_situation():
    rows = "\n".join(f"Setting {n}: {n * 8} GB" for n in range(1, 6))
    assert gist_frames.given_rows(analyse(rows + "\nWhich one should I use?", "en")) is None


def test_two_later_gist_sentences_join_under_their_pronoun():
    assert reported.joined("They report that the step fell to 610 ms", "They ask what a good step time would be", "author", "en") \
        == "They report that the step fell to 610 ms, and ask what a good step time would be"
    assert reported.joined("It reports that the cache is cold", "It adds that the flag is off", "text", "en") \
        == "It reports that the cache is cold, and adds that the flag is off"


def test_an_example_is_not_the_points_companion():
    gist = opening("The micro-batch count should be at least four times the number of stages. "
                   "For example, 32 micro-batches on 8 stages keep the bubble small because every stage stays busy.")
    assert "For example" not in gist and "32 micro-batches" not in gist
