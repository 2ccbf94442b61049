"""Issue 18 (round 4): an Arabic gist says less and is right. A figure enters a cross-language gist only with the quantity
and the subject the reading ties it to with certainty; an Arabic passage's sentence is reported with the right particle
(أنّ before a noun, its subject moved before an opening verb). Every sentence here is written for these tests."""

import pytest

from service.explain import arabic_clause
from service.explain.compose import explain_offline


def opening(text: str, lang: str) -> str:
    return explain_offline(text, lang)["explanation"].split("## ")[1].split("\n\n")[1]


# ---- figures: role and subject only when certain ---------------------------------------------------------------------

def test_a_chips_memory_is_never_given_to_the_model_named_beside_it():
    said = opening("Each H200 has 141 GB of memory, so a 90B model in 16-bit weights does not fit on one.", "ar")
    assert "لنموذج من 90 مليار" not in said and "حجمًا قدره 141" not in said
    english = opening("تملك كل شريحة H200 ذاكرة سعتها 141 GB، لذا لا يتسع نموذج من 90 مليار معامل بدقة 16 بت.", "en")
    assert "for a model of 90 billion" not in english


def test_a_ratio_said_of_two_models_is_given_to_neither():
    said = opening("We fine-tune a 13B and a 65B model on 8 H200 GPUs; the H200 is 1.5~2x slower than expected.", "ar")
    assert "ضعفين لنموذج" not in said and "13 مليار معامل و65 مليار" not in said


def test_a_bare_ratio_or_share_is_left_out_not_named_a_quantity():
    said = opening("The new kernel gives a 30% figure for the micro-batch size of 4 with gradient accumulation.", "ar")
    assert "30%" not in said
    english = opening("يعطي المحرك الجديد نسبة 30% مع دفعات صغرى من 4 تسلسلات.", "en")
    assert "30%" not in english


def test_an_achieved_rate_is_never_called_a_peak_or_a_capacity_in_arabic():
    said = opening("The 13B model runs at 455 TFLOPs / sec on the H200, whose max is 1979 TFLOPs / sec.", "ar")
    assert "ذروة" not in said and "قدرة حسابية قدرها 455" not in said


# ---- empty frames ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, lang", [
    ("You should shard the optimizer state with ZeRO-1 before trying ZeRO-3.", "ar"),
    ("FSDP is slow here because every layer waits for its all-gather.", "ar"),
    ("ينبغي تقسيم حالة المحسن باستخدام ZeRO-1 قبل تجربة ZeRO-3.", "en"),
    ("يحدث هذا لأن كل طبقة تنتظر عملية التجميع الشامل.", "en"),
])
def test_no_gist_sentence_is_a_role_without_its_content(text, lang):
    said = opening(text, lang)
    for empty in ("يوصي الكاتب بأمر", "ما يلزم", "يشرح الكاتب سببًا", "يطرح الكاتب سؤالًا", "سببًا يخص",
                  "makes a recommendation", "explains a cause", "asks a question", "says what is required"):
        assert empty not in said


def test_a_sentence_no_frame_fills_gets_no_label_of_names():
    # "The author writes about DP, TP and PP" was a list of terms; since round 44 no names-only label is said at all
    said = opening("Data parallelism, tensor parallelism and pipeline parallelism combine into 3D parallelism somehow.", "ar")
    assert said.startswith(("لا تلخص هذه الإجابة", "ملخص فكرة النص بالإنجليزية")) and "يتناول الكاتب" not in said


# ---- an Arabic sentence reported in Arabic ------------------------------------------------------------------------------

@pytest.mark.parametrize("clause, expected", [
    ("تتضمن الحوسبة الموزعة تشغيل عدة أجهزة معًا.", "أنّ الحوسبة الموزعة تتضمن تشغيل عدة أجهزة معًا."),
    ("اشترت الشركة الناشئة 5 آلاف شريحة.", "أنّ الشركة الناشئة اشترت 5 آلاف شريحة."),
    ("تقسم هذه الطريقة النموذج على عدة شرائح.", "أنّ هذه الطريقة تقسم النموذج على عدة شرائح."),
    ("بلغت تكلفة تدريب النموذج 4 ملايين دولار.", "أنّ تكلفة تدريب النموذج بلغت 4 ملايين دولار."),
    ("يحتاج النموذج اللغوي الكبير (LLM) إلى ذاكرة كبيرة.", "أنّ النموذج اللغوي الكبير (LLM) يحتاج إلى ذاكرة كبيرة."),
    ("تم تدريب النموذج على 512 شريحة.", "أنه تم تدريب النموذج على 512 شريحة."),
    ("لم تنفد الذاكرة مع ZeRO-3.", "أنه لم تنفد الذاكرة مع ZeRO-3."),
    ("بسبب حجمه، يحتاج النموذج إلى عدة شرائح.", "أنه بسبب حجمه، يحتاج النموذج إلى عدة شرائح."),
    ("تدريب النماذج الكبيرة مكلف.", "أنّ تدريب النماذج الكبيرة مكلف."),
    ("توازي البيانات أبسط الطرق.", "أنّ توازي البيانات أبسط الطرق."),
    ("هناك حد لعدد الخبراء.", "أنّ هناك حد لعدد الخبراء."),
    ("التزمت Cerebras مؤخرًا بشراء ألف شريحة.", "أنّ Cerebras التزمت مؤخرًا بشراء ألف شريحة."),
    ("يستخدم Qwen3 توجيهًا من نوع top-8.", "أنّ Qwen3 يستخدم توجيهًا من نوع top-8."),
    ("سوف يحتاج النموذج إلى ثماني شرائح.", "أنه سوف يحتاج النموذج إلى ثماني شرائح."),  # never "أنّ سوف"
])
def test_an_arabic_clause_takes_the_particle_its_first_word_needs(clause, expected):
    assert arabic_clause.reported(clause) == expected


@pytest.mark.parametrize("clause", [
    "قالت إنفيديا إن التركيب استغرق 12 يومًا.",  # a name with no article: its extent is not sure
    "قال الباحثون إن النموذج أسرع.",  # before its verb the subject changes case and the verb its number
    "تشغّل وحدات معالجة Tensor من Google معظم النماذج.",  # does "من Google" belong to the subject? not sure
    "توفر ذاكرة HBM4 الخاصة بشركة سامسونج عرض نطاق أكبر.",  # an adjective's own complement hides the subject's end
])
def test_an_opening_verb_whose_subject_is_not_sure_is_not_reported_with_a_particle(clause):
    assert arabic_clause.reported(clause) is None


@pytest.mark.parametrize("word, verb", [
    ("تتضمن", True), ("تشير", True), ("يحتاج", True), ("اشترت", True), ("بلغت", True), ("قال", True),
    ("تدريب", False), ("تكلفة", False), ("توازي", False), ("تكاليف", False), ("تقنية", False), ("الشركة", False),
    ("بيانات", False), ("تحت", False),
])
def test_a_word_opening_a_sentence_is_told_verb_or_noun_by_its_pattern(word, verb):
    assert arabic_clause.is_verb(word) is verb


def test_an_arabic_passage_never_gets_anhu_before_a_verb_with_its_subject():
    said = opening("تتضمن الحوسبة الموزعة تشغيل عدة أجهزة معًا لحل مشكلة واحدة كبيرة.", "ar")
    assert "أنه تتضمن" not in said and "أنّ الحوسبة الموزعة تتضمن" in said
    said = opening("تم تدريب النموذج بالكامل بدقة FP8 على 256 شريحة.", "ar")
    assert "أنّ تم" not in said


def test_a_topic_in_an_arabic_answer_is_never_an_english_plural():
    from service.explain import gist_names
    from service.explain.pipeline import analyse
    doc = analyse("GPU Clusters with tensor parallelism need fast links.", "ar")
    assert gist_names.main_subject(doc, ["GPU Clusters", "توازي الموتر"]) == "توازي الموتر"


def test_a_time_under_a_millisecond_is_never_said_as_zero():
    from service.explain.gist_values import _duration
    assert _duration(8e-9, "en") == "8 ns" and _duration(2.5e-5, "ar") == "25 µs" and _duration(0.48, "en") == "480 ms"


def test_two_things_compared_in_a_metric_are_the_two_things_and_their_setup_is_not_guessed():
    said = opening("ZeRO-3 allows bs=32 for the 3B model (vs bs=4 for DDP) but MFU is a bit worse than for DDP.", "ar")
    # across languages a comparison is not restated (3 of 3 judged wrong, rounds 9-12), nor is one side named alone
    assert not said.startswith(("يقارن الكاتب", "يتناول الكاتب توازي البيانات الموزع"))
    assert "دفعة كلية" not in said  # "bs=32" may be one device's batch: not said as the global one


def test_a_name_ending_a_chain_of_nouns_ends_the_subject_only_when_nothing_may_follow_it():
    assert arabic_clause.reported("تعد ذاكرة HBM نوعًا من الذاكرة.") == "أنّ ذاكرة HBM تعد نوعًا من الذاكرة."


def test_an_arabic_sentence_stating_an_effect_is_a_result_the_gist_can_choose():
    from service.explain import reported
    assert reported.role("تقلص هذه الطريقة استهلاك الذاكرة إلى النصف.", "ar") == "result"
    text = ("يستهلك تدريب النماذج الكبيرة ذاكرة كثيرة. تقلص طريقة ZeRO-3 استهلاك الذاكرة إلى الربع تقريبًا على 64 شريحة. "
            "ويعمل ذلك مع PyTorch.")
    said = opening(text, "ar")
    assert "الربع" in said and "تقلص من" not in said  # the point, and never a verb put inside a glossed name


def test_a_subject_whose_name_is_glossed_further_on_is_not_cut_before_the_gloss():
    assert arabic_clause.reported("تقلص طريقة المرحلة الثالثة من ZeRO (ZeRO-3) استهلاك الذاكرة.") is None


def test_a_figure_higher_than_expected_is_a_problem_not_a_comparison_of_two_things():
    said = opening("With FSDP the peak memory is higher than expected on our 16 GPUs, so I profiled the run.", "ar")
    assert said.startswith("يذكر الكاتب مشكلة") and "أعلى مما كان متوقعًا" in said and "يقارن" not in said
    english = opening("ذروة استهلاك الذاكرة مع FSDP أعلى بكثير من المتوقع على 16 شريحة.", "en")
    assert "higher than expected" in english and "compares" not in english


def test_a_one_word_question_heading_a_bullet_is_not_the_authors_question():
    text = "إليك ما يميزه: • يوفر النموذج الجديد سرعة أعلى بمقدار 2× مقارنة بالقديم •الدقة؟ متطابقة عمليا."
    for lang in ("ar", "en"):
        said = opening(text, lang)
        assert "يسأل" not in said and "asks" not in said
    assert arabic_clause.reported("إليك ما يميزه: • يوفر النموذج سرعة أعلى") is None
    from service.explain import reported
    assert reported.role("هل نحتاج إلى توازي خطوط الأنابيب على 256 شريحة؟", "ar") == "question"


@pytest.mark.parametrize("sentence", [
    "Try ZeRO-2 first; if you run out of memory on the 8 GPUs, go back to ZeRO-3.",  # a problem under a condition
    "With FP8 kernels you should see a speed-up, with minimal performance degradation.",  # a negligible problem
    "H100s are theoretically 3x faster than A100s, but we could not obtain the 3x improvement.",  # an expectation
])
def test_a_problem_or_figure_the_author_does_not_report_as_found_is_not_framed_as_found(sentence):
    said = opening(sentence, "ar")
    assert "تنفد الذاكرة" not in said and "ينخفض الأداء" not in said and "3 أضعاف" not in said


def test_the_direction_of_a_change_is_read_beside_its_figure_not_in_another_clause():
    # "40% more than Nvidia's ... although its power efficiency is lower": the "lower" is about efficiency
    said = opening("أشار البحث إلى أن النظام يعزز الأداء الكلي بتقديم حوالي 280 PFLOPs من BF16، أي أكثر بـ38–40٪ من أداء "
                   "Nvidia الذي يقدّر بـ200 PFLOPs، رغم أن كفاءة الطاقة أقل بكثير.", "en")
    assert "reduction" not in said


@pytest.mark.parametrize("sentence, never", [
    ("تبلغ تكلفة كل غيغاواط من القدرة نحو 50 مليار دولار، ثلثاها للرقائق.", "$50"),  # a cost per gigawatt, no total
    ("أعلنت الشركة استثمارًا يصل إلى 100 مليار دولار في مراكز البيانات.", "cost"),  # an investment is no cost
    ("تتفوق شريحتا H200 وH100 على غيرهما، وتبلغ الذاكرة 141 غيغابايت.", "141 GB"),  # whose chip?
])
def test_a_figure_whose_owner_a_frame_cannot_vouch_for_is_left_out(sentence, never):
    said = opening(sentence, "en")
    framed, _, listed = said.partition("It gives these figures:")
    assert never not in framed  # the frame never says it as a claim of its own
    assert "$50" not in listed  # a cost per gigawatt is no figure to list alone: it would read as a total


def test_the_no_gist_line_promises_only_what_follows():
    result = explain_offline("Tuesday was a long day for the whole team at the office.", "en")
    opening_line = result["explanation"].split("## ")[1]
    assert ("explained below" in opening_line) == bool(result["terms"])


def test_a_requirement_said_with_must_is_not_reported_as_the_texts_advice():
    # a round-10 reader: "يوصي النص أنّ بسيط ويتوسع عرضيًا — لكن يجب أن يتسع النموذج ..." for a description of data
    # parallelism ("must fit" is what the method requires, not advice); "ينبغي" advises
    from service.explain import reported
    described = "بسيط ويتوسع عرضيًا — لكن يجب أن يتسع النموذج كاملاً في كل كارت."
    assert not reported.point(described, described, "ar", "text").startswith("يوصي")
    advised = "ينبغي إبقاء توازي الموتر داخل الخادم الواحد."
    assert reported.point(advised, advised, "ar", "text").startswith("يوصي")


def test_a_news_dateline_is_not_put_after_the_reporting_particle():
    # a round-12 reader: "يوضح النص أنّ 13 فبراير 2026 — أصدرت شركة OpenAI ..." puts a date where a subject goes
    from service.explain import gist_lift
    assert gist_lift.without_openers("13 فبراير 2026 — أصدرت شركة OpenAI للتو نموذجا جديدا", "ar").startswith("أصدرت")
    assert gist_lift.without_openers("Feb 13, 2026 - OpenAI released a new model.").startswith("OpenAI")


def test_a_models_version_is_never_cut_from_its_name_by_the_reporting_particle():
    # a round-11 reader: "أنّ Llama يحتاج 3.1 8B إلى 131,072 بايت" split the model's name around its verb
    for clause in ("يحتاج Llama 3.1 8B إلى 131,072 بايت من ذاكرة KV لكل توكن", "تستخدم Meta 16000 شريحة H100"):
        said = arabic_clause.reported(clause)
        assert said is None or "3.1 8B" not in said.split("يحتاج")[-1] and "Meta 16000 تستخدم" not in said


@pytest.mark.parametrize("clause", ["ها محدودة فعلياً بـ 50GB/s عرض نطاق بين العقد", "فـPrefill مرحلة كثيفة الحوسبة",
                                    "هو أحدث مسرّع لمراكز البيانات من AMD", "لأن هذه المراحل الثلاث تتكرر في حلقة واحدة",
                                    "باستخدام المرحلة الثالثة من ZeRO يمكنك تدريب نموذج 70B"])
def test_a_clause_with_no_noun_for_the_particle_is_quoted(clause):
    # round-10 and round-11 readers: "يذكر النص أنّ ها محدودة", "أنّ فـPrefill", "أنّ هو أحدث" are no Arabic
    assert arabic_clause.reported(clause) is None


def test_a_joining_waw_before_a_definite_noun_is_dropped_after_the_particle():
    said = arabic_clause.reported("والاختزال الشامل في توازي الموتر يحدث مرتين لكل طبقة")
    assert said.startswith("أنّ الاختزال الشامل")


def test_the_article_written_for_a_latin_name_is_dropped_before_its_arabic_phrase():
    # "من الـ VRAM" read out became "من الـ ذاكرة وحدة GPU نفسها (VRAM)"
    from service.explain.restate import _joined_particles
    assert _joined_particles("من الـ ذاكرة وحدة GPU نفسها (VRAM)") == "من ذاكرة وحدة GPU نفسها (VRAM)"
    assert _joined_particles("من الـ GPU") == "من الـ GPU"  # before a Latin name it stays
