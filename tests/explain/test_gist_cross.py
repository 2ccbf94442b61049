"""Issue 18: the gist of a passage in the other language is read from its sentences' roles, polarity and figures, and
rendered in the answer's language; it never states what the sentence does not say. Texts written for these tests."""


import pytest

from service.explain import gist_cross, gist_defined
from service.explain.compose import explain_offline
from service.explain.pipeline import analyse
from service.i18n import arabic_numbers
from service.i18n.messages import messages


def opening(text: str, lang: str) -> str:
    return explain_offline(text, lang)["explanation"].split("## ")[1].split("\n\n")[1]


def role_of(text: str, lang: str, index: int = 0) -> str:
    return gist_cross.read(analyse(text, lang), index).role


# ------------------------------------------------------------------------------------------------- roles

def test_a_question_is_said_to_be_one_in_both_directions():
    assert opening("Why does the MFU drop when we double the EP size?", "ar").startswith("يسأل الكاتب عن السبب")
    assert opening("لماذا تنخفض الإنتاجية عند مضاعفة توازي الخبراء؟", "en").startswith("The author asks why")


# ---------------------------------------------------------------------------------------------- polarity

def test_a_denied_problem_never_gets_the_problem_frame():
    assert "تنفد الذاكرة" in opening("The 1D run hits OOM with ZeRO-3 on 64 GPUs.", "ar")
    denied = opening("We see no OOM with ZeRO-3 on 64 GPUs.", "ar")
    assert "تنفد الذاكرة" not in denied and "مشكلة" not in denied


# -------------------------------------------------------------------------------------- figures in slots

# ----------------------------------------------------------------------------------------- Arabic counts

@pytest.mark.parametrize("number, expected", [
    (1, "يوم واحد"), (2, "يومين"), (3, "3 أيام"), (10, "10 أيام"), (11, "11 يومًا"), (19, "19 يومًا"),
    (100, "100 يوم"), (103, "103 أيام"), (2.5, "2.5 يوم"),
])
def test_an_arabic_count_agrees_with_its_noun(number, expected):
    forms = {"one": "يوم واحد", "two": "يومين", "plural": "أيام", "singular": "يوم", "accusative": "يومًا"}
    assert arabic_numbers.count(number, forms) == expected


@pytest.mark.parametrize("value, expected", [
    (7e9, "7 مليارات معامل"), (1e9, "مليار معامل"), (17e9, "17 مليار معامل"), (5.1e9, "5.1 مليار معامل"),
    (6e6, "6 ملايين دولار"), (100e6, "100 مليون دولار"), (2e6, "مليونا دولار"), (405e9, "405 مليارات معامل"),
])
def test_a_large_arabic_amount_takes_its_scale_word_in_agreement(value, expected):
    noun = "دولار" if value < 1e9 else "معامل"
    assert arabic_numbers.amount(value, noun) == expected


# ---------------------------------------------------------------------------------------------- say less

def test_a_sentence_the_frames_cannot_fill_gives_no_label():
    # "The author writes about X" was graded no gist by every reader and wrong where X was a side item (rounds 35-37)
    said = opening("Pipeline parallelism and tensor parallelism interact in subtle ways.", "ar")
    assert said.startswith(("لا تلخص هذه الإجابة", "ملخص فكرة النص بالإنجليزية")) and "interact" not in said  # English only quoted


def test_nothing_of_the_other_language_is_pasted_into_the_gist():
    text = "The all-gather of ZeRO-3 is much slower than expected because the NVLink bandwidth is shared with TP."
    said = opening(text, "ar")
    assert not [w for w in said.split() if w.isascii() and w.isalpha() and w.islower() and len(w) > 3]


# ------------------------------------------------------------------------------------------- end to end

def test_two_things_compared_are_not_restated_as_a_comparison_across_languages():
    # blind readers judged "يقارن الكاتب بين X وY" wrong 3 times of 3 (rounds 9-12): its sides come from cues, not grammar
    said = opening("Interleaved 1F1B seems slightly faster than ZB-V but uses more memory.", "ar")
    assert not said.startswith(("يقارن الكاتب", "يتناول الكاتب"))  # nor one side named alone as the topic


def test_a_latin_name_the_english_text_never_writes_is_not_its_subject():
    said = opening("DualPipeV is a concise V-shape schedule derived from DualPipe.", "ar")
    assert "ZB-V" not in said
    assert "ZB-V" in opening("ZB_V runs out of memory on 8 GPUs.", "ar")


# ------------------------------------------------------------------------------------------------ changes

# ------------------------------------------------------------------------------ descriptions and requirements

def test_a_sentence_that_defines_a_term_says_what_the_term_does_not_only_its_name():
    said = opening("Pipeline parallelism splits the layers of the model into consecutive groups.", "ar")
    assert said.startswith("يشرح النص توازي خطوط الأنابيب: ")
    assert len(said.split(":", 1)[1].split()) >= 6  # the glossary's own first fact about it, in Arabic
    english = opening("توازي البيانات هو أن تعمل كل شريحة على جزء مختلف من البيانات بالنموذج نفسه.", "en")
    assert english.startswith("The text explains data parallelism: every chip (or group of chips) works on a different slice")


def test_the_glossarys_definition_is_not_credited_to_a_sentence_that_says_something_else():
    # round-9 to round-12 readers: "يشرح النص الحفظ غير المتزامن: ... تنسخ الحالة أولا إلى ذاكرة المعالج المركزي" for
    # "Asynchronous checkpointing offers a smarter alternative." (the text never names CPU memory)
    for text in ("Asynchronous checkpointing offers a smarter alternative.",
                 "MS-AMP applies low-bit data formats on master weight, weight, weight gradient and optimizer states.",
                 "توازي البيانات هو طريقة لنسخ النموذج على كل شريحة."):
        lang = "en" if "توازي" in text else "ar"
        said = opening(text, lang)
        leads = (messages(lang)["gist"]["original_language"], messages(lang)["gist"]["original_language_as_written"])
        assert ":" not in said or said in leads, text  # the lead of a quote, no frame


def test_a_reason_is_never_read_as_a_definition_of_the_term_inside_it():
    reading = gist_cross.read(analyse("One possible reason is the number of microbatches in the schedule.", "ar"), 0)
    assert reading.role == "cause" and not reading.what


def test_a_recommendation_and_a_requirement_are_told_apart_by_the_sentences_own_modal():
    assert gist_cross.read(analyse("You should keep tensor parallelism inside one node.", "ar"), 0).recommends
    assert not gist_cross.read(analyse("Tensor parallelism must stay inside one node.", "ar"), 0).recommends
    assert gist_cross.read(analyse("ينبغي أن يبقى توازي الموتر داخل العقدة الواحدة.", "en"), 0).recommends


@pytest.mark.parametrize("text, lang, empty", [
    ("You should keep tensor parallelism inside one node.", "ar", ("يوصي الكاتب بأمر", "ما يلزم", "توصية")),
    ("Tensor parallelism must stay inside one node.", "ar", ("ما يلزم", "يوصي")),
    ("Expert parallelism behaves this way because the all-to-all crosses nodes.", "ar", ("سببًا", "يشرح الكاتب سبب")),
    ("يجب أن يبقى توازي الموتر داخل العقدة الواحدة.", "en", ("what is required", "recommendation")),
    ("ينبغي أن يبقى توازي الموتر داخل العقدة الواحدة.", "en", ("makes a recommendation",)),
])
def test_a_role_without_its_content_is_never_said_only_the_subject_is(text, lang, empty):
    # The frame cannot say what is required, recommended or why: "recommends something about TP" is an empty
    # template, and "writes about TP" a label (round 44): the answer says it does not summarise the text.
    said = opening(text, lang)
    assert not any(word in said for word in empty)
    assert not said.startswith(("يتناول الكاتب", "The author writes about"))


def test_a_question_with_no_object_is_not_said_as_one():
    said = opening("The forward pass with ZeRO-3 is much slower than expected on our 8 GPUs. Any ideas?", "ar")
    assert "يطرح الكاتب سؤالًا" not in said and "مشكلة" in said


def test_a_frame_that_only_names_its_subjects_gives_way_to_one_that_says_what_a_term_does():
    text = ("Pipeline parallelism splits the layers of the model into consecutive groups. "
            "Gradients must be averaged across all GPUs before each optimizer step with ZeRO-3.")
    said = opening(text, "ar")
    assert said.startswith("يشرح النص توازي خطوط الأنابيب: ") and "ما يلزم" not in said


def test_a_problem_is_not_named_again_as_its_own_subject():
    said = opening("The 1D run hits OOM with ZeRO-3 on 64 GPUs.", "ar")
    assert "تنفد الذاكرة" in said and "OOM" not in said.split(":")[0]


def test_a_term_under_not_is_never_the_subject_but_one_after_without_is():
    said = explain_offline("The memory arithmetic shows a sharding problem, not just a throughput problem.", "ar")["explanation"]
    assert "الإنتاجية" not in said.split("## ")[1]  # the gist never says the text is about throughput
    reading = gist_cross.read(analyse("Metaseq trained a 175B model on GPUs without pipeline parallelism.", "ar"), 0)
    assert "توازي خطوط الأنابيب" in reading.subjects


def test_a_negation_reaches_every_name_of_its_coordination_and_an_english_plural_is_not_kept_in_arabic():
    reading = gist_cross.read(analyse("We read the peak from the system because the device name does not contain "
                                      "\"NVL\" or \"SXM\".", "ar"), 0)
    assert not any("SXM" in s or "NVL" in s for s in reading.subjects)
    assert "H100s" not in opening("Parameters and optimizer state must be split across thousands of H100s.", "ar")


# ---- trust first: a figure's role or sign the reading cannot vouch for is not said ------------------------------------

def test_a_compute_rate_is_never_called_a_peak_in_the_other_language():
    # Written for this test: 480 is an achieved rate, 1979 the datasheet's number; a misread role would be a false statement.
    said = opening("The 7B model runs at 480 TFLOPs / sec on the H100 SXM, whose max is 1979 TFLOPs / sec.", "ar")
    assert "ذروة حسابية قدرها 480" not in said


def test_a_change_without_a_direction_word_keeps_its_size_not_a_sign():
    from service.explain.gist_values import measure_phrase
    from service.explain.figures import Figure

    change = Figure(quote="37%", start=0, end=3, quantity="percent_change", value=-0.37, unit="%")
    for lang in ("en", "ar"):
        phrase = measure_phrase(change, None, None, lang)
        assert "37" in phrase and "-37" not in phrase and "−37" not in phrase


def test_less_than_a_number_is_a_bound_not_a_comparison_of_two_things():
    # Written for this test: "أقل من 10 نانوثانية" bounds a time; it does not compare the sentence's two subjects.
    reading = gist_cross.read(analyse("يعمل ZeRO-3 مع ذاكرة HBM بزمن أقل من 10 نانوثانية.", "en"), 0)
    assert reading.role != "comparison"
    reading = gist_cross.read(analyse("ZeRO-3 is slower than ZeRO-2 on this node.", "ar"), 0)
    assert reading.role == "comparison"


def test_a_duration_below_a_millisecond_keeps_its_scale():
    # "under 10 nanoseconds" had been written "0 ms"
    from service.explain.gist_values import _duration

    assert _duration(1e-8, "en") == "10 ns" and _duration(2.5e-5, "en") == "25 µs" and _duration(0.48, "en") == "480 ms"


def test_a_topic_named_once_in_a_longer_passage_is_not_given_as_its_subject():
    from service.explain.compose import explain_offline

    # both passages are about COMET; a names-only frame on the GPUs or on Grok, each named once, would mislead
    arabic = ("أعلنت ByteDance عن نظام COMET لتدريب النماذج. يسرع COMET التدريب 1.71 مرة. ويعمل COMET على أكثر من 10 آلاف GPU. "
              "وقد استخدمت شركات أخرى مثل xAI نموذج Grok.")
    assert not [s for s in explain_offline(arabic, "en")["gist"] if "GPU" in s["text"] and "COMET" not in s["text"]]
    english = "The COMET system speeds up MoE training. COMET overlaps communication. It was compared with Grok once."
    assert not [s for s in explain_offline(english, "ar")["gist"] if "Grok" in s["text"] and "COMET" not in s["text"]]


def test_a_vendors_lead_over_a_rival_is_not_an_improvement_the_author_reports():
    # The company says its system beats NVL72 by 67%: "The author reports an improvement of 67%" said neither who
    # claimed it nor over what. The author's own "our schedule outperforms 1F1B by 20%" stays a gain (test above).
    text = "تؤكد الشركة أن منظومتها الجديدة تتفوق على NVL72 من حيث الأداء العام، حيث تقدم قدرة معالجة أعلى بنسبة 67%."
    said = opening(text, "en")
    assert "improvement" not in said and "67%" not in said


def test_a_figure_said_before_a_named_point_is_not_given_to_its_subject():
    # "141 GB" belongs to the chip of the sentences before; "On H100, ... The author also reports 141 GB" gave it to H100.
    text = ("تمثل الشريحة الجديدة تطوراً كبيراً. تبلغ سعة الذاكرة 141 جيجابايت. "
            "هذه الأرقام تتفوق على H100 التي تقدم 80 جيجابايت وسرعة 3.35 تيرابايت في الثانية.")
    said = " ".join(item["text"] for item in explain_offline(text, "en")["gist"])  # the restated point, not the figure list
    assert "141" not in said


def test_a_question_the_text_answers_at_once_is_its_heading_not_the_authors_question():
    # "What is HBM? HBM is a stack of memory chips ...": an explainer's heading; "The author asks about ..." is false.
    text = ("فرضت الحكومة قيودًا جديدة على تصدير الذاكرة. ما هي ذاكرة النطاق الترددي العالي؟ "
            "ذاكرة عرض النطاق الترددي العالي (HBM) هي في الأساس كومة من رقائق الذاكرة تنقل البيانات بسرعة أكبر.")
    said = opening(text, "en")
    assert "asks" not in said


def test_a_question_the_next_sentence_does_not_answer_stays_a_question():
    text = "لماذا تنفد الذاكرة عند تدريب النموذج على 8 وحدات H100؟ جربنا تقليل حجم الدفعة دون فائدة."
    assert role_of(text, "en", 0) == "question"


def test_a_comparison_needs_one_side_before_its_comparative_and_the_other_right_after():
    # a round-9 reader: "يقارن الكاتب بين LLM وSOTA" for "DataStates-LLM achieves ... compared to state-of-the-art
    # solutions, ... in extreme-scale LLM training": the LLM inside a system's name and the one far on are no sides
    text = ("DataStates-LLM achieves up to 4x higher checkpointing throughput compared to state-of-the-art solutions, "
            "mitigating the bottlenecks in extreme-scale LLM training.")
    assert not opening(text, "ar").startswith("يقارن الكاتب")


def test_what_earlier_work_could_not_observe_is_not_a_missing_benefit():
    # a round-9 reader: "FP8: لا تظهر فائدة" for instabilities "not observable in earlier works" (the paper found them)
    text = ("Through these extended training runs, we uncover critical instabilities in FP8 training that were not "
            "observable in earlier works with shorter durations.")
    assert "لا تظهر فائدة" not in opening(text, "ar")
    assert "لا تظهر فائدة" in opening("With FP8 the speedup is not observable on 8 GPUs.", "ar")


def test_a_definition_said_as_the_texts_stops_before_what_the_glossary_adds_after_a_semicolon():
    # a round-9 reader: "The text explains the model weights: ...; the size in a model's name (a "B" suffix counts
    # billions) is how many of them it has" credited the text with a fact it never gave
    text = "3D parallelism combines data, tensor and pipeline parallelism in one training run."
    what, name = gist_defined.defined(analyse(text, "ar"), 0, len(text), set())
    assert what.startswith("الجمع بين توازي البيانات") and "شبكة ثلاثية الأبعاد" not in what and name


def test_an_everyday_word_is_not_what_a_passage_sets_out_to_explain():
    # a round-10 reader: "يشرح النص الوصلة (Link): كابل ..." for "The link above is a project I found" (a web link)
    text = "The link above is a project I found, but it's unclear where it was trained on cloud."
    assert gist_defined.defined(analyse(text, "ar"), 0, len(text), set()) == ("", "")


def test_a_suspicion_is_not_restated_as_a_recognised_claim():
    # a round-10 reader: "I'm suspecting that the training is network bound" said as the author's finding that the
    # data-parallel exchange is the bottleneck; a frame states its claim as found, so a hedged one takes none
    suspected = "It will take ~52h to complete 100 steps on 2 nodes. I'm suspecting that the training is DP-comms bound."
    assert "عنق الزجاجة" not in opening(suspected, "ar")
    assert gist_cross._frame_plain(analyse("Our training is DP-comms bound on 64 H100 GPUs.", "en"), 0)


def test_the_side_before_a_comparative_is_near_it_not_a_name_a_clause_earlier():
    # a round-10 reader: "يقارن الكاتب بين Qwen3-1.7B-Base وVERL" where Slime (unknown to the glossary) is ~4x slower
    text = ("I am running Slime GRPO training on Qwen3-1.7B-Base, and I observe that Slime is consistently ~4x slower "
            "than VERL, even when using the same dataset and the same number of GPUs (8xH800).")
    assert not opening(text, "ar").startswith("يقارن الكاتب")


def test_a_framework_the_sentence_opens_on_is_used_not_explained():
    # a round-10 reader: "يشرح النص Megatron: قاعدة الشيفرة ..." for a text comparing configurations run with it
    text = "Megatron shards training across all GPUs via tensor and pipeline parallelism on 8 H100 GPUs."
    assert gist_defined.defined(analyse(text, "ar"), 0, len(text), set()) == ("", "")
    concept = "3D parallelism combines data, tensor and pipeline parallelism in one training run."
    assert gist_defined.defined(analyse(concept, "ar"), 0, len(concept), set())[0]  # a concept it opens on still is


def test_a_label_or_a_negation_is_not_a_why_question_and_one_of_two_ways_is_not_the_need():
    # round-11 readers: "asks why" for a "Why this matters:" heading and for «لم يُطرح بعد» ("not released yet"), and
    # "a large model needs PP" for "requires model parallelism (TP or PP)"
    assert "asks" not in opening("Why this matters: enables training at sequence lengths that exceed one GPU's HBM on 8 H100 GPUs.", "ar") \
        .replace("يسأل", "asks")
    released = "لم يُطرح بعد، لكن ميتا تؤكد أنه يتفوق على GPT-4.5 في اختبارات العلوم والرياضيات."
    assert not gist_cross.read(analyse(released, "en"), 0).role == "question"
    either = "Training large models that do not fit on a single device requires model parallelism (TP or PP)."
    assert not gist_cross._frame_plain(analyse(either, "ar"), 0)


def test_a_general_failure_is_not_reported_as_the_authors_own_problem():
    # a round-10 reader: "The author reports a problem: it crashes." for "at this scale hardware fails daily"
    general = "وحقيقة تشغيلية: على هذا النطاق يتعطل العتاد يوميًا؛ حفظ نقاط الاستعادة وإعادة التشغيل الآلي مهمان."
    assert not opening(general, "en").startswith("The author reports a problem")
    own = "جربنا التدريب على 8 شرائح A100 لكن التدريب يتعطل بعد ساعة."
    assert opening(own, "en").startswith("The author reports a problem")


def test_a_relation_under_a_condition_is_not_said_as_what_holds():
    # a round-11 reader: "يقول الكاتب إنه لا يمكن وضع الخبير في مجال NVLink" for "once an expert layer doesn't fit in one
    # scale-up domain, you need to do all-to-all across racks"
    text = ("Once an expert layer doesn't fit in one NVLink domain, you need to do all-to-all across racks, "
            "which kills throughput.")
    assert not opening(text, "ar").startswith("يقول الكاتب إنه لا يمكن")


def test_a_parallel_degree_of_the_runs_layout_is_not_the_passages_topic():
    # a round-10 reader: "يتناول الكاتب توازي الموتر." for a passage about an OOM, where "TP4" is only the trainer's layout
    text = ("Long rollouts can spike the trainer's activation memory past what a 4-GPU (TP4) 14B trainer has left. "
            "The statics are about 56 GB at 14B/TP4 on an 80 GB H100, leaving only a few GB of headroom.")
    assert "توازي الموتر" not in opening(text, "ar")


def test_a_sentence_that_only_names_a_term_does_not_back_its_definition():
    # a round-12 reader: "يشرح النص ذاكرة GPU (VRAM): الذاكرة الخاصة بوحدة GPU نفسها" for "GPU memory occupies
    # 13395/40537MB": the sentence says the term's name, which is no explanation of it
    assert "يشرح النص ذاكرة" not in opening("GPU memory occupies 13395/40537MB during the benchmark run.", "ar")


def test_what_was_required_before_is_not_said_as_a_need_now():
    # a round-13 reader: «يقول الكاتب إنه لا بد من A100» for "where previously eight A100s were required" (the opposite)
    text = ("The 141GB of memory on H200 allows the entire model to fit on a single GPU, where previously eight A100s "
            "were required.")
    assert "لا بد من" not in opening(text, "ar")


def test_a_company_named_in_an_industry_story_is_not_said_to_be_what_it_reports_on():
    # a round-13 reader: "The article reports on NVIDIA." for Samsung's HBM4 story that names NVIDIA as a customer
    text = ("تعتزم شركة سامسونج بدء إنتاج رقائق HBM4 اعتبارا من فبراير، لتلبية احتياجات شركتي إنفيديا وAMD. "
            "وقالت الشركة إن الرقائق ستدمج في منصة Rubin من إنفيديا.")
    assert "NVIDIA" not in opening(text, "en")


def test_a_problem_is_said_of_what_comes_before_its_words_not_where_it_shows():
    # a round-14 reader judged "a problem concerning fp32: runs out of memory" wrong for "A second OOM site is the
    # logits + fp32 upcast": fp32 is where memory goes, not what fails; written for this test in that shape
    site = "We fine-tune Gemma on one H100. A second OOM site is the full logits tensor plus the fp32 upcast in the loss."
    assert "fp32" not in opening(site, "ar").split("\n")[0]
    own = "We hit OOM with FSDP on 8 A100 GPUs at a batch of 16."  # "We" opens it: the authors' own problem
    assert opening(own, "ar").startswith("يذكر الكاتب مشكلة")
    named = "FSDP runs out of memory on 8 A100 GPUs at a batch of 16."  # what has the problem is named first
    assert "FSDP" in opening(named, "ar").split("\n")[0]


def test_a_company_is_not_what_a_text_is_said_to_explain():
    # a round-15 answer: "The text explains NVIDIA." for an Arabic article on the DGX-2 server; written for this test
    text = ("جهاز DGX-2 هو أحدث حل قدمته NVIDIA لوضع قدرة حوسبية تصل إلى 2 PETA FLOPS في خادم واحد. "
            "ويضم الجهاز ستة عشر معالجًا من نوع NVIDIA Tesla V100، وهو أقوى معالج رسومي حاليًا.")
    assert "NVIDIA" not in opening(text, "en").split("\n")[0]


def test_where_a_test_stops_is_no_problem_met():
    # a round-15 reader judged «يذكر الكاتب مشكلة فيما يخص المفردات ...: تنفد الذاكرة» wrong for "keep the vocab size
    # and hidden size unchanged, only increase the number of transformer layers until OOM" (a method, not a failure)
    text = "Keep the vocab size and hidden size unchanged, only increase the number of transformer layers until OOM on 8 V100 GPUs."
    assert not opening(text, "ar").startswith("يذكر الكاتب مشكلة")
    assert opening("We hit OOM with FSDP on 8 A100 GPUs at a batch of 16.", "ar").startswith("يذكر الكاتب مشكلة")


def test_an_arabic_stall_is_not_said_to_be_a_crash():
    # a round-17 reader: "it crashes" for «تعطل» of processors waiting on data (they stall)
    text = "جربنا التدريب على 8 شرائح A100 لكن المعالجات تتعطل بانتظار البيانات بعد ساعة."
    said = opening(text, "en")
    assert "crash" not in said and "stalls" in said


def test_a_relation_under_a_sentences_scope_or_a_whereas_clause_is_not_said_as_what_holds():
    # a round-17 reader: «لا بد في H100 من توازي الموتر» for "For the largest models (405B and beyond), it can serve them on
    # a single GPU where H100 needs tensor parallelism" (the need holds only for those models); written in that shape
    text = "For the largest models (405B and beyond), the MI300X serves them on a single GPU where H100 needs tensor parallelism."
    assert "لا بد" not in opening(text, "ar")


def test_news_is_about_a_named_thing_never_a_technique():
    # a round-17 reader judged «ينقل المقال خبرًا عن توازي الموتر» wrong for a thread arguing for pipeline parallelism
    text = ('Yes, PP, and I would argue it is forced rather than preferred on this hardware. Each Spark is one GPU, so any '
            'TP>=2 is cross-node by definition. vLLM puts it as a formula: "The common practice is to set the tensor parallel '
            'size to the number of GPUs in each node" which for 2x GB10 is TP=1, PP=2, and the same page says to prefer PP '
            'outright when GPUs lack NVLink.')
    assert "ينقل المقال خبرًا عن توازي" not in opening(text, "ar")
