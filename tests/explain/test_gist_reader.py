"""The opening and the terms as a reader meets them: one or two short sentences, no foreign quote, no cut definition."""

from service.explain.compose import _shortened, explain_offline
from service.i18n.messages import messages


def opening(text: str, lang: str) -> str:
    return explain_offline(text, lang)["explanation"].split("## ")[1].split("\n\n")[1]


def test_the_gist_is_the_point_with_at_most_one_companion_not_a_chain():
    text = ("Our 8B run reached 41% MFU on 64 H100s. The loss curve matched the reference run. "
            "We kept the learning rate at 3e-4 for the whole run. Checkpoints were written every 500 steps.")
    gist = opening(text, "en")
    assert gist.count("Also:") <= 1 and len(gist.split()) <= 60


def test_a_reason_is_labelled_only_when_the_sentence_gives_one():
    text = ("You have to keep tensor parallelism inside one node. So the run will take several days. "
            "The links between nodes are much slower than NVLink because they go through the network cards.")
    gist = opening(text, "en")
    assert "The reason given: So" not in gist


def test_an_arabic_answer_to_an_english_passage_summarises_instead_of_quoting():
    text = "The challenge is keeping all 512 H100s busy, because a naive split of the layers leaves most of them idle."
    gist = opening(text, "ar")
    assert "needs" not in gist and "fit" not in gist  # no English sentence pasted into an Arabic answer
    assert "يشرح الكاتب سببًا" not in gist  # "explains a reason" without the reason is an empty frame


def test_an_english_answer_to_an_arabic_passage_never_says_the_text_claims_nothing():
    gist = opening("النموذج يتذكر سياق المحادثة الطويلة جداً دون أن يستهلك ذاكرة الخادم بالكامل.", "en")
    assert "makes no claim" not in gist and "Arabic" in gist
    assert not any("\u0600" <= ch <= "\u06ff" for ch in gist)


def test_a_conversational_opener_is_not_part_of_the_point():
    gist = opening("Yes I profiled the 30B MoE model briefly to find what was slow, and the all-to-all dominated.", "en")
    assert "Yes" not in gist and "they profiled" in gist  # the author's "I" reported as "they"


def test_a_short_definition_ends_at_a_sentence_end_never_mid_fact():
    definition = ("Splitting an array (weights, gradients, optimizer state or activations) into pieces called shards, "
                  "one per device. Each device keeps only its shard and gathers the rest when it needs them.")
    short = _shortened(definition)
    assert short == "Splitting an array (weights, gradients, optimizer state or activations) into pieces called shards, one per device."
    assert "…" not in _shortened("A chip. It is good at doing huge numbers of simple calculations at the same time, as training needs.")


def test_a_spec_sheet_row_is_never_the_point():
    text = ("Each chip provides:\nPeak BF16: 989 TFLOPs\nHBM: 80 GB\n"
            "The run took 54 days, so the effective MFU was closer to 40% than to the 60% the team planned.")
    gist = opening(text, "en")
    assert "989" not in gist and "40%" in gist


def test_a_finding_hedged_as_it_seems_weighs_as_the_point():
    text = ("Yes I profiled the 30B MoE model with expert parallelism and FSDP on 8 H100s to get a sense of what was slow. "
            "It seems to be the all-reduce in MoE layers.")
    result = explain_offline(text, "en")
    assert "it seems to be the all-reduce in MoE layers" in opening(text, "en") and any(1 in item["from"] for item in result["gist"])


def test_a_memory_sum_on_default_inputs_is_not_listed_as_a_finding():
    text = "For serving, the 70B model's FP16 weights alone are about 140 GB, so it needs two 80 GB GPUs."
    answer = explain_offline(text, "en")["explanation"]
    assert "1.12 TB" not in answer and "x 16 bytes" not in answer  # 16 bytes per parameter is training, not the text's


def test_a_calculation_the_text_never_asked_for_leaves_no_internal_warning():
    result = explain_offline("Metaseq trained a decoder-only Transformer at 175B scale on NVIDIA GPUs without pipeline parallelism.", "ar")
    assert not any("not run" in w or "pp_necessity" in w for w in result["warnings"])


def test_a_claim_in_the_other_language_is_named_by_its_own_figures_not_a_quoted_template():
    text = "With PP=12 and MBS=2 the pipeline fills only at 384 (12*2*16) samples, so the first days run slowly."
    answer = explain_offline(text, "ar")["explanation"]
    claims = next(s for s in answer.split("## ") if s.startswith(messages("ar")["headings"]["claims"]))  # after any reasons
    assert "«حساب" not in claims and "«قياس" not in claims and "«عملية حسابية" not in claims  # no template in quotes
    # named by its figures, which read the same in both languages: readers of rounds 13-16 judged the author's
    # English words inside an Arabic answer untranslated text; each figure is read out with what it sets (round 48)
    assert "توازي خطوط الأنابيب بدرجة 12" in claims and "With PP=12" not in claims
    no_units = explain_offline("On eight GPUs the run takes about two weeks, so the first days run slowly.", "ar")["explanation"]
    assert "الأرقام" not in no_units  # a sentence without a figure with its unit keeps its own first words


def test_a_reported_figure_is_not_listed_with_what_a_check_would_need():
    answer = explain_offline("I was getting 104% MFU on our H100 cluster last week.", "en")["explanation"]
    assert "would also need" not in answer


def test_config_lines_state_no_reason():
    text = ("These sharding values set the layout across TPU pods:\n"
            "dcn_data_parallelism: -1  # recommended DCN axis to be auto-sharded\n"
            "ici_fsdp_parallelism: -1  # recommended ICI axis to be auto-sharded\n"
            "dcn_pipeline_parallelism: 1  # never recommended\n")
    assert explain_offline(text, "en")["reasons"] == []


def test_an_aside_that_carries_the_figure_stays_in_the_gist():
    text = ("Thanks to the framework team (who tuned the fused kernels for weeks), "
            "the run sustained 150 TFLOP/s per GPU (48% of the A100's BF16 peak), against 120 before.")
    gist = opening(text, "en")
    assert "48% of the A100" in gist and "tuned the fused kernels" not in gist


def test_a_bubble_under_an_assumed_schedule_is_not_shown_for_another_schedule():
    text = ("DualPipe is a bidirectional pipeline parallelism algorithm that overlaps computation and communication. "
            "Example DualPipe scheduling for 8 PP ranks and 20 micro-batches in two directions.")
    answer = explain_offline(text, "en")["explanation"]
    assert "The calculation gives" not in answer


def test_the_same_missing_input_is_said_once_not_for_every_row():
    text = ('"1F1B": memory: 82.46GiB(86.80%) tps: 100 mfu: 26.52%\n'
            '"Interleaved1F1B": memory: 72.69GiB(76.52%) tps: 128 mfu: 33.88%\n'
            '"ZeroBubble": memory: 89.73GiB(94.45%) tps: 13 mfu: 3.41%\n')
    answer = explain_offline(text, "en")["explanation"]
    assert answer.count("would also need") <= 1


def test_an_expected_figure_is_not_reported_as_found():
    # "I would expect ... far less than 480ms": 480 ms is what they measured against their expectation; a frame
    # "reports a time of less than 480 ms" would state the expectation as the finding.
    text = "Because I was using ZeRO3 on a machine with NVLink, I would expect the parameter gathering to take far less than 480ms."
    assert "أقل من 480" not in opening(text, "ar")
    assert "less than 480" not in opening("كنت أتوقع أن يستغرق تجميع الأوزان أقل بكثير من 480 ms مع ZeRO3.", "en")


def test_a_companion_sentence_on_another_subject_does_not_join_the_point():
    text = ("The pipeline bubble is 12% with 8 stages and 64 micro-batches, so the schedule is not the bottleneck. "
            "Checkpoint writes of the optimizer state take 40 seconds on the NFS storage with 16 CPU hosts.")
    gist = opening(text, "en")
    assert "bubble" in gist and "Checkpoint" not in gist


def test_a_trailing_face_is_not_part_of_the_point():
    assert ":/" not in opening("For MFU and TPS we lose perf by doubling the EP size each time :/", "en")


def test_terms_named_only_in_a_bracketed_formula_state_no_reason():
    text = ("Can you share the pipeline settings? Like the degree of PP and the number of microbatches "
            "(can be calculated by globalbs/microbs/DP) and the number of virtual stages? "
            "One possible reason is that the number of microbatches is very high, so interleaved 1F1B is already efficient.")
    assert all(item["id"] != "big_batch_hides_dp" for item in explain_offline(text, "en")["reasons"])


def test_a_summary_names_the_sentences_subject_before_everyday_words():
    gist = opening("Each GPU in the node all-gathers its ZeRO-3 shards of the weights before the forward pass.", "ar")
    assert "GPU" not in gist and "يتناول الكاتب" not in gist  # no label of the words every passage uses (nor, since round 44, any)


def test_the_restated_sentence_starts_with_a_capital_unless_it_starts_with_code():
    assert opening("the flagship 405B run uses up to 16,000 H100 GPUs, each with 80GB of HBM3.", "en").startswith(
        "The text explains that the flagship")  # the reporting verb starts the sentence; "the" after it is lower case
    assert "bing_bert" in opening("bing_bert with 5.1B params improved its forward time from 470ms to 270ms.", "en")


def test_a_frame_about_one_run_is_not_stated_as_a_general_rule():
    text = "Metaseq was an open-source implementation for a decoder-only Transformer at 175B scale on GPUs without pipeline parallelism."
    gist = opening(text, "ar")
    assert "نموذج كبير" not in gist and "دون توازي" not in gist  # not "a large model trains without PP"
    assert "175B شريحة" not in gist  # no size misread as chips
    rule = opening("You only need PP when you are DP-comms bound.", "ar")
    assert "لا حاجة إلى توازي خطوط الأنابيب" in rule  # a general rule keeps its frame


def test_a_setting_before_a_colon_is_not_a_speaker():
    gist = opening("SHARD_GRAD_OP: gradients and optimizer states are sharded during computation, parameters outside it.", "en")
    assert "SHARD_GRAD_OP says" not in gist


def test_a_link_in_the_point_is_named_not_pasted():
    text = "Ports https://github.com/example/repo/pull/12 to the new recipes: lowers EP from 32 to 8 because DeepEP crashes."
    gist = opening(text, "en")
    assert "https://" not in gist and "pull request #12" in gist


def test_a_companion_does_not_repeat_a_connective_after_also():
    text = ("Our schedule outperforms the 1F1B schedule by up to 23% in throughput. "
            "Additionally, to truly achieve zero bubble, we bypass synchronizations during the optimizer step.")
    assert "Also: Additionally" not in opening(text, "en")


def test_a_because_paragraphs_away_is_not_given_as_the_points_reason():
    # The TPU sentence and the "because" sentence four sentences on are about different things: never point + reason.
    from service.explain.compose import explain_offline

    text = ("We were surprised that on TPUs you do not need pipeline parallelism at all. "
            "The models were large. The runs were long. The team was small. "
            "Peak memory rises because every micro-batch's activations must be stored.")
    gist = explain_offline(text, "en")["gist"]
    used = {i for item in gist for i in item["from"]}
    assert gist and not {0, 4} <= used, gist  # one of them may be the point; the other is not its reason
