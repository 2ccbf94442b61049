"""The form of Arabic answers: one word for one thing, counting, Arabic for English words, punctuation, no doubles."""

import json
import re

import pytest

from calculators.resources import data_dir
from service.i18n import arabic, arabic_style

ROWS = {noun["singular"]: noun for noun in json.loads((data_dir() / "arabic_counting.json").read_text("utf-8"))["nouns"]}


@pytest.mark.parametrize("n, noun, said", [
    (1, "شريحة", "شريحة واحدة"), (1, "رمز", "رمز واحد"), (2, "شريحة", "شريحتين"), (3, "تسلسل", "3 تسلسلات"),
    (10, "مرحلة", "10 مراحل"), (11, "تسلسل", "11 تسلسلا"), (16, "تسلسل", "16 تسلسلا"), (99, "خبير", "99 خبيرا"),
    (100, "رمز", "100 رمز"), (105, "رمز", "105 رموز"), (1000, "شريحة", "1000 شريحة"), (4096, "رمز", "4096 رمزا"),
    (1.5, "ساعة", "1.5 ساعة"),
])
def test_a_counted_noun_takes_the_form_its_number_asks_for(n, noun, said):
    assert arabic.count_form(n, ROWS[noun]) == said


@pytest.mark.parametrize("text, expected", [
    ("درب على 7B معامل", "درب على 7 مليارات معامل"),
    ("و15T رمز", "و15 تريليون رمز"),
    ("دفعة من 2M رمز", "دفعة من 2 مليون رمز"),
    ("1B معامل", "مليار معامل"),
    ("1.46M ساعة", "1.46 مليون ساعة"),
    ("7 مليار معاملات", "7 مليارات معامل"),
    ("دفعة من 16 تسلسل في كل خطوة", "دفعة من 16 تسلسلا في كل خطوة"),
    ("على 1 شريحة فقط", "على شريحة واحدة فقط"),
    ("على 2 شريحة", "على شريحتين"),
    ("على 8 شريحة", "على 8 شرائح"),
    ("على 128 شرائح", "على 128 شريحة"),
    ("3 دفعة صغرى", "3 دفعات صغرى"),
    ("طولها 4,096 رمز", "طولها 4,096 رمزا"),
])
def test_numbers_before_nouns_agree_and_scales_read_as_words(text, expected):
    assert arabic.agree_numbers(text) == expected


@pytest.mark.parametrize("text", ["نموذج 7B جديد", "16 تسلسلًا", "10 آلاف شريحة", "16,000 شريحة", "نسبة 42% من الذروة"])
def test_what_is_already_right_or_not_a_count_is_kept(text):
    assert arabic.agree_numbers(text) == text


def test_rejected_variants_become_the_preferred_word_with_their_particles():
    assert arabic_style.prefer("بين الرقائق وللرقائق ورقاقة") == "بين الشرائح وللشرائح وشريحة"
    assert arabic_style.prefer("نموذج مزيج الخبراء بسرعة 400 جيجابت") == "نموذج خليط الخبراء بسرعة 400 غيغابت"
    # the full rejected phrase is replaced whole: "عرض النطاق الترددي" never becomes "عرض عرض النطاق"
    assert arabic_style.prefer("أمثل من حيث عرض النطاق الترددي") == "أمثل من حيث عرض النطاق"
    assert arabic_style.prefer("عامل تحجيم ومعامل تحجيم") == "عامل تحجيم وعامل تحجيم"
    assert arabic_style.prefer("رقائقية") == "رقائقية"  # only whole words


def test_polish_keeps_quotes_and_the_corrections_section():
    text = ("## باختصار\nتعمل الرقائق بعرض عرض النطاق; كما قال «الرقائق 7B معامل; نعم».\n"
            "## تصحيحات\n- يقول المصدر «النطاق الترددي»، والنطاق الترددي هنا معدل نقل.\n")
    polished = arabic_style.polish(text, ("تصحيحات",))
    assert "تعمل الشرائح بعرض النطاق؛ كما قال «الرقائق 7B معامل; نعم»." in polished
    assert polished.endswith("## تصحيحات\n- يقول المصدر «النطاق الترددي»، والنطاق الترددي هنا معدل نقل.\n")


def test_polish_gives_english_words_arabic_and_the_english_once():
    polished = arabic_style.polish("تستخدم all-to-all ثم all-to-all مرة أخرى، وتذكر VRAM.")
    assert polished == "تستخدم الكل إلى الكل (all-to-all) ثم الكل إلى الكل مرة أخرى، وتذكر ذاكرة GPU (VRAM)."
    english = "The all-to-all dominates the step."
    assert arabic_style.polish(english) == english  # an English sentence keeps its words


def test_polish_reads_english_counts_after_numbers_in_arabic():
    polished = arabic_style.polish("استغرق التدريب 54 days و1.46M H100 hours على 15.6 trillion رمز.")
    assert polished == "استغرق التدريب 54 يوما و1.46 مليون ساعة H100 على 15.6 تريليون رمز."


def test_polish_uses_arabic_punctuation_and_removes_doubled_words():
    assert arabic_style.polish("في مرحلة المرحلة الأولى, ثم ماذا?") == "في المرحلة الأولى، ثم ماذا؟"
    assert arabic_style.polish("قيمتا 1,024 و2,048 ثابتتان") == "قيمتا 1,024 و2,048 ثابتتان"  # digit groups stay
    assert arabic_style.polish("- **إعادة الحساب (Recompute)** (recompute): نص") == "- **إعادة الحساب (Recompute)**: نص"
    assert arabic_style.polish("الأسباب خطوة خطوة") == "الأسباب خطوة خطوة"  # step by step: Arabic, not a double


def test_problems_finds_each_kind_and_none_after_polish():
    text = "تعمل الرقائق والشرائح بعرض عرض النطاق; وتستخدم shards مع 7B معامل و54 days."
    found = arabic_style.problems(text)
    assert found["rejected"] == ["رقائق"] and found["inconsistent"] == ["شرائح/رقائق"]
    assert found["english"] == ["shards", "54 days"] and found["punctuation"] == [";"]
    assert found["doubled"] == ["بعرض عرض"] and found["numbers"]
    assert not any(arabic_style.problems(arabic_style.polish(text)).values())


def _arabic_strings():
    """Every Arabic string unjargon writes itself: the Arabic locale and the glossary's `ar` fields."""
    def walk(node, where, arabic_field):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("ar_aliases", "aliases", "mistranslations"):
                    continue  # aliases match the reader's words; mistranslations name the source's
                yield from walk(value, f"{where}.{key}", arabic_field or key == "ar" or key.startswith("ar_"))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from walk(value, f"{where}[{i}]", arabic_field)
        elif isinstance(node, str) and arabic_field:
            yield where, node
    yield from walk(json.loads((data_dir() / "locale" / "ar.json").read_text("utf-8")), "ar.json", True)
    for path in sorted((data_dir() / "glossary").glob("*.json")):
        yield from walk(json.loads(path.read_text("utf-8")), path.name, False)


def test_no_arabic_string_uses_a_rejected_variant():
    strings = list(_arabic_strings())
    assert len(strings) > 1000
    bad = [(where, arabic_style.rejected_in(text)) for where, text in strings if arabic_style.rejected_in(text)]
    assert bad == []


def test_no_arabic_string_has_a_form_problem_but_collective_names_given_their_arabic_in_the_answer():
    kinds = ("punctuation", "doubled", "numbers", "agreement", "inconsistent", "rejected")
    bad = [(where, kind, found) for where, text in _arabic_strings()
           for kind, found in arabic_style.problems(text).items() if found and kind in kinds]
    assert bad == []


def test_glossary_ar_fields_give_common_english_words_in_arabic():
    bad = [(where, found["english"]) for where, text in _arabic_strings()
           if not where.startswith("ar.json") and (found := arabic_style.problems(text))["english"]
           and not re.search(r"all-(?:reduce|gather|to-all)|reduce-scatter", " ".join(found["english"]))]
    assert bad == []


# Passages written for these tests (not corpus text): figures with scales, counts, collectives, a MoE, a TPU pod.
ENGLISH = ("We pretrained a 7B dense model on 15T tokens with a global batch of 2M tokens (16 sequences per micro-batch) "
           "on 512 H100 GPUs over 54 days, about 1.46M H100 hours. The MoE variant spends a third of each step in the "
           "all-to-all between experts; with TP=8 and PP=4 across 16 nodes the all-reduce of gradients hides behind compute. "
           "Dropout is off and VRAM is the limit.")
ARABIC = ("درّبنا نموذج مزيج الخبراء بحجم 22B معامل على 64 رقاقة H100 موزعة على 8 عقد، بسرعة 400 جيجابت في الثانية لكل "
          "رقاقة. يستهلك all-to-all ثلث زمن الخطوة، وتمتلئ ذاكرة الرقائق عند دفعة من 16 تسلسل. فهل نحتاج إلى توازي خط الأنابيب?")


@pytest.mark.parametrize("passage", [ENGLISH, ARABIC], ids=["english", "arabic"])
def test_a_rendered_arabic_answer_has_no_form_problem(passage):
    from service.explain.compose import explain_offline
    from service.i18n.messages import messages

    answer = explain_offline(passage, "ar")
    keep = (messages("ar")["headings"]["corrections"],)
    rendered = "\n".join([answer["explanation"], *answer["warnings"]])
    assert {kind: found for kind, found in arabic_style.problems(rendered, keep, passage).items() if found} == {}
    assert arabic.share_of_arabic(answer["explanation"]) > 0.5


def test_english_words_take_the_arabic_of_their_glossary_entry():
    entries = {}
    for path in (data_dir() / "glossary").glob("*.json"):
        entries.update({e["id"]: e for e in json.loads(path.read_text("utf-8"))["terms"]})
    linked = [e for e in arabic_style.table()["english"] if e.get("glossary")]
    assert linked
    for entry in linked:
        assert entries[entry["glossary"]]["ar"]["term"].split(" (")[0] == entry["ar"], entry["en"]


def test_a_word_glossed_with_itself_is_said_once():
    assert arabic_style.polish("- **الشريحة (الشريحة)** (chip): نص") == "- **الشريحة** (chip): نص"
    assert arabic_style.problems("الشريحة (الشريحة)")["doubled"]


def test_an_english_word_after_an_attached_particle_is_found_and_given_arabic():
    assert arabic_style.problems("تطبيع الطبقة وdropout معا")["english"] == ["dropout"]
    assert arabic_style.polish("تطبيع الطبقة وdropout معا") == "تطبيع الطبقة والإسقاط العشوائي (dropout) معا"


@pytest.mark.parametrize("text, expected", [
    ("هل تحتاج النموذج إلى توازي خطوط الأنابيب؟", "هل يحتاج النموذج إلى توازي خطوط الأنابيب؟"),
    ("يحتاج الشريحة إلى ذاكرة أكبر", "تحتاج الشريحة إلى ذاكرة أكبر"),
    ("وتستغرق الحساب دقيقة", "ويستغرق الحساب دقيقة"),
    ("يكفي الذاكرة", "تكفي الذاكرة"),
])
def test_a_verb_agrees_with_the_subject_after_it(text, expected):
    assert arabic_style.problems(text)["agreement"]
    assert arabic_style.polish(text) == expected


@pytest.mark.parametrize("text", ["يستهلك ذاكرة كبيرة", "تحتاجه المرحلة السابقة", "يحتاج النموذج", "تحتاج إلى الشرائح"])
def test_objects_and_agreeing_verbs_are_left_alone(text):
    assert arabic_style.polish(text) == text and not arabic_style.problems(text)["agreement"]


@pytest.mark.parametrize("quantity, value, reading", [
    ("params", 7e9, "7 مليارات معامل"), ("tokens", 15e12, "15 تريليون رمز"),
    ("global_batch_sequences", 16, "دفعة كلية من 16 تسلسلا"), ("seq_len", 4096, "تسلسلات طولها 4,096 رمزا"),
    ("tp_degree", 2, "توازي الموتر على شريحتين"), ("moe_experts", 256, "256 خبيرا"),
])
def test_arabic_figure_readings_count_in_arabic(quantity, value, reading):
    from types import SimpleNamespace

    from service.explain import restate

    fig = SimpleNamespace(quantity=quantity, value=value, quote=str(value), chip=None, detail=None)
    assert restate.figure(fig, "ar") == reading


def test_locale_strings_give_common_english_words_in_arabic():
    bad = [(where, found) for where, text in _arabic_strings()
           if where.startswith("ar.json") and (found := arabic_style.problems(text)["english"])]
    assert bad == []


def test_the_english_after_an_arabic_word_is_kept_once():
    text = "- **الكل إلى الكل (all-to-all)**: all-to-all ثم اتصال الكل إلى الكل (all-to-all) ثم all-to-all."
    assert arabic_style.polish(text) == "- **الكل إلى الكل (all-to-all)**: الكل إلى الكل (all-to-all) ثم اتصال الكل إلى الكل ثم الكل إلى الكل."


def test_the_reasons_all_to_all_is_the_glossarys():
    assert arabic_style.polish("فيتداخل تبادل كل إلى كل لتوازي الخبراء") == "فيتداخل تبادل الكل إلى الكل لتوازي الخبراء"


@pytest.mark.parametrize("n, grade", [(1, None), (2, None), (5, "plural"), (16, "accusative"), (105, "plural"),
                                      (4096, "accusative"), ("7B", None), ("2M", None)])
def test_every_locale_template_counting_a_noun_agrees_once_polished(n, grade):
    forms = {form: row for row in ROWS.values() for form in (row["singular"], row["plural"], row["dual"], row["accusative"])}
    templates = [text for where, text in _arabic_strings() if where.startswith("ar.json")
                 and any(word in forms for word in re.findall(r"\{\w+\} ([\u0621-\u064A]+)", text))]
    assert len(templates) > 20
    for template in templates:
        polished = arabic_style.polish(re.sub(r"\{\w+\}", str(n), template))
        bare = polished.translate(arabic._DIACRITICS)  # "توزيعًا" is "توزيعا"
        assert arabic_style.problems(polished)["numbers"] == [], template
        for before, word in re.findall(rf"(\S?)\s?(?<![\d.,]){n} ([\u0621-\u064A]+)", bare):
            if before in "×*/+=≈÷" and before and word in arabic._UNITS and str(n) in ("1", "2"):
                continue  # "× 2 بايت": a unit's operand keeps its digit inside arithmetic
            if word in forms:  # 5 counts a plural, 16 an accusative singular; "7B" and "2M" are read as words
                assert grade is not None and word == forms[word][grade], (template, polished)


@pytest.mark.parametrize("text, expected", [
    ("1 مراحل افتراضية لكل شريحة", "مرحلة افتراضية واحدة لكل شريحة"), ("2 مراحل افتراضية", "مرحلتين افتراضيتين"),
    ("2 دفعة صغرى في كل خطوة", "دفعتين صغريين في كل خطوة"), ("1 معامل نشط", "معامل نشط واحد"),
    ("2 معامل نشط", "معاملين نشطين"), ("5 معامل نشط", "5 معاملات نشطة"), ("16 معامل نشط", "16 معاملا نشطا"),
    ("100 معامل نشط", "100 معامل نشط"), ("16 رموز إضافية", "16 رمزا إضافيا"), ("16 مراحل افتراضية", "16 مرحلة افتراضية"),
    ("1 ساعة شريحة", "ساعة شريحة واحدة"), ("2 ساعة شريحة", "ساعتي شريحة"), ("8 خبراء لكل رمز", "8 خبراء لكل رمز"),
])
def test_an_adjective_or_a_second_noun_after_a_count_agrees_too(text, expected):
    assert arabic.agree_numbers(text) == expected


@pytest.mark.parametrize("text", ["37 مليارا نشطة", "671 مليارا إجمالا", "5.6 ملايين دولار", "128 ألفا", "15 مليارا",
                                  "256 خبيرا موجها", "20 رمز تدريب", "16 ساعة شريحة", "2(n-1) خطوة"])
def test_forms_arabic_allows_are_kept(text):
    assert arabic.agree_numbers(text) == text and not arabic_style.problems(text)["numbers"]


def test_arabic_indic_digits_count_the_same_way():
    assert arabic.agree_numbers("على ٨ شريحة و١٦ تسلسل و١ شريحة فقط") == "على ٨ شرائح و١٦ تسلسلا وشريحة واحدة فقط"


@pytest.mark.parametrize("text, expected", [
    ("نوزع العمل على 8 replicas في كل عقدة", "نوزع العمل على 8 نسخ في كل عقدة"),
    ("نقسم الدفعة إلى 49 microbatches ثم نجمع", "نقسم الدفعة إلى 49 دفعة صغرى ثم نجمع"),
    ("يستغرق 170 seconds لكل خطوة", "يستغرق 170 ثانية لكل خطوة"),
    ("و4 stages في خط الأنابيب", "و4 مراحل في خط الأنابيب"),
    ("بعد 12 iterations من البداية", "بعد 12 تكرارا من البداية"),
    ("على 2 servers فقط", "على خادمين فقط"),
])
def test_english_count_words_after_a_number_become_arabic_nouns_that_agree(text, expected):
    assert arabic_style.polish(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("تجمع الأوزان في التمريرتين الأمامية والخلفية", "تجمع الأوزان في التمريرين الأمامي والخلفي"),  # تمرير is masculine
    ("نسبة استخدام FLOPs للنموذج (MFU) قدرها 40%", "نسبة استغلال العمليات الحسابية للنموذج (MFU) قدرها 40%"),
    ("وهي استغلال عمليات النموذج الحسابية", "وهي استغلال العمليات الحسابية للنموذج"),
    ("سرعة تقاس بالعمليات العشرية في الثانية", "سرعة تقاس بعمليات الفاصلة العائمة في الثانية"),
])
def test_one_house_term_per_concept(text, expected):
    assert arabic_style.polish(text) == expected


def test_an_english_sentence_keeps_its_count_words():
    assert arabic_style.polish("The run used 8 replicas and 49 microbatches.") == "The run used 8 replicas and 49 microbatches."


def test_a_formula_in_latin_symbols_is_set_as_code_in_arabic_prose():
    line = "- القسمة على الذروة: MFU = 30 TFLOP/s / 300 TFLOP/s = 10%، ولكل شريحة: FLOP/s / n = 30 TFLOP/s"
    assert arabic_style.polish(line) == ("- القسمة على الذروة: `MFU = 30 TFLOP/s / 300 TFLOP/s = 10%`، "
                                         "ولكل شريحة: `FLOP/s / n = 30 TFLOP/s`")
    assert arabic_style.polish("The check: MFU = 30 / 300 = 10%.") == "The check: MFU = 30 / 300 = 10%."
    assert "`" not in arabic_style.polish("عمليات النموذج = 6 × المعاملات")  # an equation in Arabic words stays prose
    # a product of figures is one formula with its unit, not a unit cut from its number
    assert arabic_style.polish("فهي 8 شرائح؛ 8 × 100 TFLOPS = 0.8 PFLOP/s، لا 1,600 TFLOPS.") == \
        "فهي 8 شرائح؛ `8 × 100 TFLOPS = 0.8 PFLOP/s`، لا 1,600 TFLOPS."
    # a number's exponent is no formula's name: "3.5e14 = -20%" is left as it is
    assert "`" not in arabic_style.polish("التغير = (2.8e14 - 3.5e14) ÷ 3.5e14 = -20%، أي مضاعف قدره 0.8")


@pytest.mark.parametrize("text, expected", [
    ("تبلغ الإنتاجية 1600 tokens/sec/GPU بعد التغيير", "تبلغ الإنتاجية 1600 رمز في الثانية لكل وحدة GPU بعد التغيير"),
    ("وصلت إلى 8,034 tokens/device/second فقط", "وصلت إلى 8,034 رمزا في الثانية لكل جهاز فقط"),
    ("بسرعة 12 tokens/s فقط", "بسرعة 12 رمزا في الثانية فقط"),
    ("يحقق 420 TFLOPs/s/GPU في التدريب", "يحقق 420 TFLOPs/s لكل وحدة GPU في التدريب"),  # the unit stays, the per-device part is said
    ("بمعدل 400 TFLOP/s لكل شريحة", "بمعدل 400 TFLOP/s لكل شريحة"),
    ("The job reaches 1600 tokens/sec/GPU.", "The job reaches 1600 tokens/sec/GPU."),
])
def test_english_rate_units_after_a_number_are_said_in_arabic(text, expected):
    assert arabic_style.polish(text) == expected


def test_one_word_for_high_bandwidth_memory_and_for_a_scaling_factor():
    assert arabic_style.polish("الذاكرة عالية النطاق ومعامل القياس لكل كتلة") == "الذاكرة عالية عرض النطاق وعامل التحجيم لكل كتلة"


def test_a_noun_repeated_after_its_definite_form_is_not_a_doubled_word():
    # the idafa ends on the definite noun and the object starts with the same noun: both are needed
    assert arabic_style.polish("يضع توازي الخبراء خبراء مختلفين على وحدات مختلفة") == "يضع توازي الخبراء خبراء مختلفين على وحدات مختلفة"
    assert arabic_style.polish("في مرحلة المرحلة الأولى") == "في المرحلة الأولى"  # the template slip is still removed


@pytest.mark.parametrize("text, expected", [
    ("أقل بنسبة 50% مقارنة ب FP8", "أقل بنسبة 50% مقارنة بـFP8"),
    ("درب بـ Megatron-DeepSpeed على", "درب بـMegatron-DeepSpeed على"),
    ("على A100 و H100", "على A100 وH100"),
    ("مكتوب لـ JAX", "مكتوب لـJAX"),
    ("الكتاب 3 أجزاء", "الكتاب 3 أجزاء"),  # a word ending in a particle's letter is no particle
])
def test_a_one_letter_particle_is_attached_to_the_latin_word_it_belongs_to(text, expected):
    assert arabic_style.polish(text) == expected


def test_before_a_number_a_multiplier_is_a_factor_not_a_parameter():
    assert arabic_style.polish("وهذا يتجاوز ذاكرة الشريحة بمعامل 3") == "وهذا يتجاوز ذاكرة الشريحة بعامل 3"
    assert arabic_style.polish("نموذج من 7 مليارات معامل") == "نموذج من 7 مليارات معامل"  # a count of parameters


@pytest.mark.parametrize("text, expected", [
    ("وتسريعًا قدره ضعفين مقارنة بالسابق", "وتسريعًا قدره ضعفان مقارنة بالسابق"),  # the predicate of قدره is nominative
    ("زمنًا قدره 2 يوم فقط", "زمنًا قدره يومان فقط"),
    ("يعمل على شريحتين فقط", "يعمل على شريحتين فقط"),  # after a preposition the -ين form stays
])
def test_a_dual_after_a_measure_word_is_nominative(text, expected):
    assert arabic_style.polish(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("تعذّرت قراءته: the file does not load at line 3: a colon is missing.",
     "تعذّرت قراءته: «the file does not load at line 3: a colon is missing.»"),
    ("ويعمل على Megatron-LM with FSDP and tensor parallel فقط", "ويعمل على «Megatron-LM with FSDP and tensor parallel» فقط"),
    ("على وحدات NVIDIA H100 SXM 80GB في العقدة", "على وحدات NVIDIA H100 SXM 80GB في العقدة"),  # a name is no sentence
    ("The whole line is English and stays as it is.", "The whole line is English and stays as it is."),
])
def test_an_english_sentence_in_arabic_prose_is_kept_as_a_quote(text, expected):
    assert arabic_style.polish(text) == expected


def test_a_count_word_of_two_english_words_after_a_figure_is_arabic():
    assert arabic_style.polish("دربت على 15T training tokens في المجموع") == "دربت على 15 تريليون رمز تدريب في المجموع"


def test_an_english_word_put_in_arabic_does_not_repeat_the_word_before_it():
    # "من ذاكرة vRAM": the Arabic for vRAM opens with "ذاكرة", which the sentence has just said
    out = arabic_style.polish("نحن ننظر إلى 48 غيغابايت من ذاكرة vRAM على الأقل.")
    assert "ذاكرة ذاكرة" not in out and "ذاكرة" in out and "vRAM" in out
