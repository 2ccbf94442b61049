"""The gist in the answer's language: the author's point and its reason in reported speech, by sentence role (issue 18).

Every sentence here is written for the test; none comes from the corpus.
"""

import json

import pytest

from service.cli.main import main
from service.explain import reported
from service.explain.compose import explain_offline


def opening(text: str, lang: str = "en") -> str:
    return explain_offline(text, lang)["explanation"].split("## ")[1].split("\n\n")[1]


@pytest.mark.parametrize("sentence, role", [
    ("Why does the all-gather take longer on two nodes?", "question"),
    ("May I ask, what would be a normal step time for this setup", "question"),
    ("I'm not able to get more than 20% MFU on our cluster.", "problem"),
    ("The step is much slower than expected on the new nodes.", "problem"),
    ("I would expect the reduce-scatter to hide behind the backward pass.", "expectation"),
    ("This means the optimizer step is waiting for the host copies.", "conclusion"),
    ("The loss spikes because the learning rate warms up too fast.", "cause"),
    ("We reached 52% MFU after fusing the attention kernels.", "result"),
    ("You should keep the expert groups inside one node.", "recommendation"),
    ("Sequence packing is a way to fill every row of the batch with real tokens.", "definition"),
    ("The lab announced a cluster of 40,000 accelerators last month.", "news"),
    ("In this work, we propose a schedule that overlaps the two halves of the backward pass.", "proposal"),
    ("لماذا يتباطأ التدريب عند إضافة عقدة ثانية؟", "question"),
    ("أصبحت سعة الذاكرة عائقاً أمام تدريب النماذج الأكبر.", "problem"),
    ("تأخر التدريب بسبب بطء الشبكة بين العقد.", "cause"),
    ("ينبغي إبقاء مجموعات الخبراء داخل عقدة واحدة.", "recommendation"),
    ("أعلنت الشركة عن مجموعة من أربعين ألف شريحة.", "news"),
])
def test_a_sentence_role_is_read_from_general_cues(sentence, role):
    lang = "ar" if any("\u0600" <= ch <= "\u06ff" for ch in sentence) else "en"
    assert reported.role(sentence, lang) == role


def test_an_arabic_cue_is_a_whole_word_not_letters_inside_another():
    # "لان" (because) sits inside "الألوان"-like words; it is a cause only as a word of its own
    assert reported.role("تعرض اللوحة إعلانات المؤتمر القادم.", "ar") != "cause"


@pytest.mark.parametrize("first, third", [
    ("I'm not able to fit the model on my GPUs", "they are not able to fit the model on their GPUs"),
    ("I was getting 30% MFU with our old config", "they were getting 30% MFU with their old config"),
    ("We saw it crash when I'd set the batch to 64", "They saw it crash when they would set the batch to 64"),
    ("Give me the logs and tell us what I/O pattern you see", "Give them the logs and tell them what I/O pattern you see"),
    ("The US cluster beat ours", "The US cluster beat theirs"),
])
def test_the_first_person_is_reported_in_the_third(first, third):
    assert reported.third_person(first, "en") == third


@pytest.mark.parametrize("question, asked", [
    ("Is it still too slow for an H100?", "whether it is still too slow for an H100"),
    ("It is still too slow for an H100, isn't it?", "whether it is still too slow for an H100"),
    ("Can you share the launch command?", "for the launch command"),
    ("Does anyone know whether we need ZeRO-3 here?", "whether we need ZeRO-3 here"),
    ("Why is it slower on two nodes?", "why it is slower on two nodes"),
    ("Do we need a larger batch?", "whether we need a larger batch"),
])
def test_a_direct_question_becomes_an_indirect_one(question, asked):
    assert reported.indirect_question(question) == asked


def test_a_question_that_cannot_be_turned_safely_is_quoted_not_guessed():
    assert reported.indirect_question("Does the all-gather overlap the forward pass?") is None
    gist = opening("Does the all-gather overlap the forward pass?")
    assert gist.startswith("The text asks:") and gist.endswith("?")


def test_the_point_and_its_reason_are_restated_with_a_role_verb():
    text = ("Thanks for the quick reply! I only get 18% MFU on one node of eight GPUs. "
            "This is probably because the published MFU used a different peak.")
    gist = opening(text)
    assert gist.startswith("The author reports that they only get 18%")
    # the reason joins the point, its hedge kept
    assert "eight GPUs, and explains that this is probably because the published MFU used a different peak" in gist  # one sentence, expanded once
    assert "Thanks" not in gist and "I " not in gist and len(gist.split()) <= 55


def test_a_negation_survives_the_restatement():
    gist = opening("We never needed pipeline parallelism on the 64-chip slice, because the batch per chip was large.")
    assert "never needed pipeline parallelism" in gist and "because the batch per chip was large" in gist
    gist = opening("The fused kernel does not help on older GPUs, since their caches are too small.")
    assert "does not help on older GPUs" in gist


def test_a_condition_survives_the_restatement():
    gist = opening("You only need expert parallelism across nodes if the experts no longer fit in one node's memory.")
    assert "only need expert parallelism across nodes if the experts no longer fit" in gist
    gist = opening("Unless the links are faster than 200 GB/s, the all-to-all will dominate the step.")
    assert gist.startswith("The text") and "Unless the links are faster than 200 GB/s" in gist.replace("unless", "Unless")


def test_a_while_clause_is_kept_it_is_a_concession_not_filler():
    gist = opening("While the compute is spread evenly across the GPUs, the gradients must still be averaged every step.")
    assert "while the compute is spread evenly" in gist


def test_an_acronym_takes_the_article_of_its_expansion():
    gist = opening("We measured an MFU of 38% on the new cluster because the kernels were fused.")
    assert "an MFU (the share of the chips' peak speed used) of 38%" in gist and "a MFU" not in gist  # the name keeps its article


def test_an_expansion_stays_out_of_compounds_units_and_flags():
    text = "We trained the 70B-parameter model over 400 Gb/s links with --overlap-grad-reduce set, because the TP groups were small."
    gist = opening(text)
    assert "70B-parameter" in gist and "400 Gb/s" in gist and "--overlap-grad-reduce" in gist
    assert "gigabit" not in gist.split("400")[0][-20:]


def test_a_plain_word_is_not_expanded_and_a_plural_is_not_doubled():
    gist = opening("Our run used 512 GPUs and 64 TPUs, because the TPUs were free that week.")
    assert "graphics processing unit" not in gist
    assert "Tensor Processing Units (TPUs)" in gist and "Unit (TPUs)" not in gist


def test_a_reading_that_points_back_follows_the_sentence_it_points_to():
    text = "I timed the forward pass at 300 ms on two nodes. That is much slower than expected for this model."
    result = explain_offline(text, "en")
    assert [item["from"] for item in result["gist"]] == [[0, 1]]  # one sentence, the measurement first
    assert "300 ms on two nodes, and reports that this is much slower than expected" in result["gist"][0]["text"]


def test_an_arabic_gist_reports_a_third_person_text_with_anna():
    text = "تستخدم الشركة عشرة آلاف شريحة في التدريب. وقد أعلنت الشركة أن التدريب استغرق شهرين بسبب بطء الشبكة."
    gist = opening(text, "ar")
    assert gist.startswith("يذكر النص") or gist.startswith("يوضح النص")
    assert "أنّ" in gist or "أنه" in gist


def test_explain_on_the_command_line_opens_with_the_restated_point(capsys):
    text = ("Hi all, thanks in advance. I'm not able to get the throughput the paper reports on 16 GPUs: "
            "I get only 90 TFLOP/s per GPU. I would expect at least 150 TFLOP/s because the model is the same.")
    code = main(["explain", text, "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0
    gist = " ".join(item["text"] for item in result["gist"])
    assert gist.startswith("The author reports that they are not able to get the throughput")
    assert "Hi all" not in gist and "thanks" not in gist.lower()
    assert all(item["from"] for item in result["gist"])


def test_a_list_item_without_a_verb_is_read_with_the_sentence_that_introduces_it():
    text = ("The model card lists the set-up:\nParameters: 13 billion\nChips: 512\n"
            "The run lasted about 20 days, suggesting:\n- effective MFU closer to ~40%\n- time lost to restarts")
    result = explain_offline(text, "en")
    first = result["gist"][0]
    assert "lasted about 20 days, suggesting effective" in first["text"] and len(first["from"]) == 2


def test_an_imperative_companion_is_reported_as_advice():
    text = ("These values decide how the job is split across pods. "
            "Use the following values for a single slice, because the links inside a slice are fast.")
    gist = opening(text)
    assert "adds that use" not in gist and "adds that Use" not in gist


def test_a_news_report_leads_with_its_first_sentence():
    text = ("The lab announced that it trained its new model on 20,000 accelerators. "
            "The run used a mix of data and tensor parallelism across the halls. "
            "Engineers said the cooling was the hardest part.")
    assert explain_offline(text, "en")["gist"][0]["from"] == [0]
    assert reported.lead_weight("The lab announced a new cluster.", "en") > 0 == reported.lead_weight("The cluster is new.", "en")


def test_announcing_phrases_are_dropped_from_a_restated_point():
    # "Another important aspect is that X" announces X; the restatement says X itself
    said = reported.point("Another important aspect is that activation checkpointing adds a forward pass.",
                          "Another important aspect is that activation checkpointing adds a forward pass.", "en", "author")
    assert said.startswith("The author") and "aspect" not in said and "activation checkpointing adds a forward pass" in said
    assert reported.without_fillers("It is worth noting that FSDP all-gathers every layer.", "en") == "FSDP all-gathers every layer."


def test_the_addressees_possessive_is_not_reported_as_the_readers():
    # "in your README" written to maintainers: the answer's reader has no README
    assert reported.third_person("I saw that in your README the throughput was 420 TFLOP/s.", "en") == \
        "they saw that in the README the throughput was 420 TFLOP/s."
    assert reported.third_person("Your batch is too small.", "en") == "The batch is too small."


@pytest.mark.parametrize("sentence, said", [
    ("Note the per-chip uplift over v3: 275 / 123 = 2.24x.", "It notes the per-chip uplift over v3"),
    ("Notice that the all-gather runs on the slower links.", "It notes that the all-gather runs on the slower links"),
])
def test_an_order_to_look_is_what_the_text_points_out(sentence, said):
    # "Note the X" points something out; "It adds that note the X" is no sentence.
    assert reported.companion(sentence, sentence, "en", "text").startswith(said)
    assert reported.point(sentence, sentence, "en", "text").startswith("The text notes")


def test_a_sentence_opening_on_a_with_a_size_is_lowered_after_that():
    assert reported.point("A 671B MoE with 37B active needs far less TP than a 70B dense model.",
                          "A 671B MoE with 37B active needs far less TP than a 70B dense model.", "en", "text") \
        .startswith("The text says that a 671B MoE")


@pytest.mark.parametrize("question, said", [
    ("Am I missing something?", "The author asks whether they are missing something"),
    ("Am I right about the bubble?", "The author asks whether they are right about the bubble"),
])
def test_a_question_in_the_first_person_with_am_is_asked_in_the_third(question, said):
    # "asks whether am they missing something" was a blind reader's quote
    assert reported.point(question, question, "en", "author") == said


@pytest.mark.parametrize("line, role", [
    ("Component When to use?", "other"),  # a table's two column names: "It asks whether component When to use" was false
    ("How to use FSDP with LoRA?", "question"),
])
def test_a_tables_header_row_is_no_question(line, role):
    assert reported.role(line, "en") == role


def test_a_supposed_setting_and_what_it_would_need_is_asked_as_a_condition():
    question = "Suppose I'm using A100 80G (1 node with 8 gpus), then I need 4 nodes with totally 32 gpus?"
    said = reported.point(question, question, "en", "author")
    assert said.startswith("The author asks whether, if they") and "whether suppose" not in said


def test_what_a_limit_forces_is_not_advice():
    # "... then you have to use FULL_SHARD across all the nodes" is the limitation the author wants removed
    sentence = "Then you have to use FULL_SHARD across all the nodes."
    assert "advise" not in reported.point(sentence, sentence, "en", "authors")
    plain = "You should use HYBRID_SHARD inside each node."
    assert "advise" in reported.point(plain, plain, "en", "authors")


def test_a_curly_apostrophe_turns_to_the_third_person_like_a_straight_one():
    # "so they’m unable to perform specific tests" was a blind reader's quote
    assert reported.third_person("Sorry, I don’t have an L40, so I’m unable to test; I’ve tried.", "en") == \
        "Sorry, they don't have an L40, so they are unable to test; they have tried."


def test_a_contraction_opening_a_reported_clause_is_lowered():
    # "They add that They’ve learned ..." was a blind reader's quote
    sentence = "They’ve learned that the bubble dominates."
    assert reported.companion(sentence, sentence, "en", "authors").startswith("They add that they've learned")


@pytest.mark.parametrize("question, said", [
    ("Is the step time too high?", "The author asks whether the step time is too high"),
    ("Is the all-gather of FSDP the bottleneck here?", "The author asks whether the all-gather of FSDP is the bottleneck here"),
    ("Is it slower?", "The author asks whether it is slower"),
])
def test_a_yes_no_question_keeps_its_whole_subject_before_the_verb(question, said):
    assert reported.point(question, question, "en", "author") == said


def test_what_was_expected_is_an_object_not_a_clause():
    sentence = "I expected closer to 3x, since the new chip has 3x the peak."
    assert "expect that closer" not in reported.point(sentence, sentence, "en", "author")


def test_a_case_set_up_to_reason_about_is_not_advice():
    # a round-9 reader: "Its advice is to consider a training run on a 10,000-GPU cluster" (a hypothetical, not advice)
    text = "Consider a training run on a 10,000-GPU cluster running for three weeks. The chance of a failure is near 100%."
    gist = " ".join(item["text"] for item in explain_offline(text, "en")["gist"])
    assert "advice" not in gist and gist.startswith("The text takes the case of a training run")
    advised = " ".join(item["text"] for item in explain_offline("Consider using FSDP instead of DDP for models above 7B.", "en")["gist"])
    assert "advice" in advised  # "consider using X" still advises


def test_a_sentence_pointing_back_at_its_own_antecedent_is_not_put_after_the_point():
    # a round-9 reader: "It reports that this creates a synchronization point" right after the PR's sentence made the PR
    # the cause of the bottleneck it removes; "this" was the standard implementation, two sentences on
    text = ("This PR fuses the GEMM and the All-Reduce in RowParallelLinear to overlap communication with computation. "
            "It gives a substantial throughput improvement on 8 H100 GPUs. "
            "In the standard implementation, the GEMM is followed by a separate All-Reduce across TP ranks. "
            "This creates a synchronization point that can become a bottleneck.")
    gist = " ".join(item["text"] for item in explain_offline(text, "en")["gist"])
    assert "synchronization point" not in gist


def test_a_statement_that_spells_itself_out_as_a_question_after_a_colon_is_not_asked():
    # a round-10 reader: "The text asks whether the moment you split a model ... becomes a plumbing number: how fast can
    # device A's gradients reach device B" (the author asserts it; the question after the colon spells it out)
    text = ("The moment you split a model or a batch across two GPUs, your training speed stops being a compute number "
            "and becomes a plumbing number: how fast can device A's gradients reach device B?")
    gist = " ".join(item["text"] for item in explain_offline(text, "en")["gist"])
    assert "asks" not in gist and "plumbing number" in gist
    assert "asks" in " ".join(item["text"] for item in explain_offline("Why is the all-reduce so slow on 64 H100 GPUs?", "en")["gist"])


def test_an_index_written_i_is_not_the_authors_i():
    # a round-11 reader: "rank they holds expert they" for "we shard them: rank i holds expert i"
    assert reported.third_person("we shard them: rank i holds expert i", "en") == "they shard them: rank i holds expert i"
    assert reported.third_person("i tried FSDP and i got OOM", "en") == "they tried FSDP and they got OOM"


@pytest.mark.parametrize("text, not_said", [
    # round 15: a method's step and a condition with its outcome were said as "the text's advice" (both judged wrong);
    # written for this test in those shapes
    ("Keep the sequence length and the width unchanged, only increase the number of layers until OOM.", "advice"),
    ("Run it with a batch of 64 requests at 8k context and the KV cache alone adds another 120 GB.", "advice"),
    ("RoCE gives several benefits. Lower CPU usage, ideal for multi-GPU servers.", "advice"),  # a benefit listed
])
def test_an_order_that_sets_up_a_case_or_lists_a_benefit_is_quoted_not_advised(text, not_said):
    said = opening(text)
    assert not_said not in said and said.startswith("The text notes:")


def test_an_order_that_advises_is_still_advice():
    assert opening("Use FSDP for models above 7B parameters on A100 GPUs.").startswith("The text's advice is to use FSDP")


def test_a_statement_spelled_out_as_a_yes_no_question_after_a_colon_is_not_asked():
    # round 15: "The text asks whether every ... reduces to one question" for a sentence that asserts
    said = opening("Every serving cost estimate and every kernel choice for a production stack reduces to one question: "
                   "is your bottleneck compute or memory bandwidth?")
    assert not said.startswith("The text asks")


@pytest.mark.parametrize("question", [
    # round 15: "asks whether the dualpipe can approach support vpp", "whether regarding the issue ..., why does ...",
    # "whether or because it provides ...": questions no "whether" clause can carry are quoted as written
    "Can the dualpipe approach support vpp without affecting other features?",
    "Regarding the issue of memory usage when --tp 2 is enabled, why does the memory usage double?",
    "Or because it provides latency advantages from the additional parallelism?",
])
def test_a_question_whose_clause_would_be_guessed_is_quoted(question):
    assert reported.indirect_question(question) is None


def test_simple_questions_are_still_turned():
    assert reported.indirect_question("Can we use FSDP here?") == "whether we can use FSDP here"
    assert reported.indirect_question("Is the all-gather of FSDP the bottleneck?") == "whether the all-gather of FSDP is the bottleneck"


def test_a_table_row_is_no_companion_even_when_a_term_in_it_is_expanded():
    # round 15: "They add that method instance TP (each layer's matrices split across the chips) throughput baseline 1 4 x":
    # the expansion's own words ("split", "matrices") had passed for the row's verb; written for this test in that shape
    text = ("I have 8 A100 GPUs for a 72B model and two ways to serve it:\nmethod instance TP throughput\nbaseline 1 4 x\n"
            "B 1 8 1.5x\nI am a little confused, option B gives a throughput lower than 2x, is it normal?")
    assert "baseline 1 4" not in opening(text)


def test_a_line_opening_on_which_goes_on_from_the_line_above_and_a_log_timestamp_is_dropped():
    # a round-16 answer tied "which exceeds 80 GB limit" to the 74.8 GB line above the 93.2 GB one it was about
    text = ("If you directly run the inference script, the expected memory statistics are:\n"
            "[2025-04-07 13:06:18] max memory allocated at inference: 74.8 GB\n"
            "[2025-04-07 13:06:18] max memory reserved at inference: 93.2 GB\n"
            "which exceeds the 80 GB limit due to memory fragmentation.")
    said = opening(text)
    assert "93.2 GB which exceeds" in said and "[2025" not in said


def test_a_statement_then_a_question_after_a_colon_is_quoted():
    # a round-16 answer: "The authors ask whether they can stream that ... at 1.2e12 bytes/s" (the text states the rate)
    assert reported.indirect_question("Then we can stream that to the tensor core at 1.2e12 bytes/s: maybe 20.8 ms "
                                      "because we have to stream it out too?") is None
