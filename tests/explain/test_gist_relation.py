"""Issue 18: a cross-language gist says what a sentence states two named things do to each other (needs, fits in,
supports) or what an organisation did to a model, with its polarity, only when every slot is certain. Texts written
for these tests."""

import pytest

from service.explain import gist_relation
from service.explain.pipeline import analyse


def said(text: str, lang: str) -> str:
    """What the relation reader says of the first sentence of `text` for an answer in `lang`."""
    return gist_relation.stated(analyse(text, lang), 0)


# ---------------------------------------------------------------------------------------------- relations

def test_a_denied_need_is_said_denied_in_both_languages():
    assert said("ZeRO-3 does not need tensor parallelism.", "ar").startswith("يقول الكاتب إنه لا حاجة في")
    affirmed = said("ZeRO-3 needs tensor parallelism.", "ar")
    assert affirmed.startswith("يقول الكاتب إنه لا بد في") and "لا حاجة" not in affirmed
    assert said("لا يحتاج ZeRO-3 إلى توازي الموتر.", "en").endswith("does not need tensor parallelism")


def test_a_question_is_asked_as_whether_the_relation_holds():
    asked = said("Does Mixtral need expert parallelism?", "ar")
    assert asked.startswith("يسأل الكاتب عمّا إذا كان") and "Mixtral" in asked
    assert said("هل يحتاج Mixtral إلى توازي الخبراء؟", "en") == "The author asks whether Mixtral needs expert parallelism"


def test_an_arabic_verb_first_with_one_name_says_nothing():
    # «يحتاج X» alone: X may be who needs or what is needed; the reader never guesses which.
    assert said("هل يحتاج Mixtral؟", "en") == ""


def test_only_when_keeps_its_condition_or_says_nothing():
    text = said("You only need pipeline parallelism when tensor parallelism spans nodes.", "ar")
    assert text.startswith("يقول الكاتب إنه لا حاجة إلى") and "إلا في حالة تخص توازي الموتر" in text
    assert said("You only need pipeline parallelism when it gets slow.", "ar") == ""  # the condition names nothing


def test_a_scope_the_frame_would_drop_leaves_the_relation_unsaid():
    assert said("ZeRO-3 does not need tensor parallelism inside one node.", "ar") == ""
    assert said("With ZeRO-3 inside a node, do we need tensor parallelism?", "ar") == ""
    kept = said("With ZeRO-3, do we need tensor parallelism?", "ar")
    assert kept.startswith("يسأل الكاتب عمّا إذا كان لا بد من") and kept.endswith("مع المرحلة الثالثة من ZeRO (ZeRO-3)")


def test_fits_and_supports_keep_their_polarity():
    assert said("Mixtral does not fit in one H100.", "ar").startswith("يقول الكاتب إنه لا يمكن وضع Mixtral في H100")
    assert said("Megatron-LM supports FP8.", "ar").startswith("يقول الكاتب إنه يوجد دعم")
    assert said("لا يدعم Megatron-LM صيغة FP8.", "en") == "The author says that Megatron-LM does not support FP8 floating point"


def test_a_figure_between_the_names_is_no_relation_between_them():
    assert said("ZeRO-3 needs 2x the memory of DeepSpeed.", "ar") == ""


# ------------------------------------------------------------------------------------------------- deeds

def test_an_organisation_training_a_model_is_reported_with_its_chips():
    text = said("Alibaba trained Qwen2 on 4,096 H800 GPUs.", "ar")
    assert text.startswith("يذكر المقال أن Alibaba درّبت Qwen2") and "4,096" in text and "H800" in text


def test_an_arabic_announcement_names_who_announced_what():
    assert said("أعلنت شركة Mistral AI عن نموذج Mixtral.", "en") == "The article reports that Mistral AI announced Mixtral"


def test_a_model_named_after_its_maker_is_not_its_own_maker_and_a_denied_deed_is_unsaid():
    assert said("DeepSeek trained DeepSeek-V3 on 2,048 H800 GPUs.", "ar").startswith("يذكر المقال أن DeepSeek درّبت DeepSeek-V3")
    assert said("Alibaba has not released Qwen2.", "ar") == ""


@pytest.mark.parametrize("text, lang", [
    ("Researchers trained Qwen2 on 4,096 H800 GPUs.", "ar"),  # no organisation named as the actor
    ("Tensor parallelism is a way to split layers.", "ar"),
    ("الذاكرة تحتاج إلى وقت.", "en"),
])
def test_nothing_is_said_without_both_names(text, lang):
    assert said(text, lang) == ""


def test_a_passive_need_names_what_is_needed():
    assert said("Pipeline parallelism is not needed.", "ar") == "يقول الكاتب إنه لا حاجة إلى توازي خطوط الأنابيب"
    only = said("Pipeline parallelism is only needed when tensor parallelism spans nodes.", "ar")
    assert only.startswith("يقول الكاتب إنه لا حاجة إلى توازي خطوط الأنابيب إلا في حالة تخص")


@pytest.mark.parametrize("text", [
    "NVIDIA may support FP8 on Ampere.",  # a possibility, not what holds
    "The kernels do not require GPU synchronization.",  # an everyday word, and not the end of its noun phrase
    "You also need to tune tensor parallelism carefully.",  # the need is of an action, not of the thing
    "ZeRO-3 needs more tensor parallelism.",  # "more" of it: the frame would drop the degree
])
def test_what_the_frame_would_misstate_is_left_unsaid(text):
    assert said(text, "ar") == ""


def test_a_proposal_names_the_kind_of_thing_and_what_it_is_about():
    assert said("We propose a new expert parallelism framework for Mixtral.", "ar") == "يقدّم المؤلفون إطار عمل فيما يخص توازي الخبراء وMixtral"
    assert said("نقترح طريقة جديدة لتوازي الخبراء.", "en") == "The authors present a method involving expert parallelism"
    assert said("We propose a new method.", "ar") == ""  # about nothing named: nothing said
    assert said("We do not propose a new ZeRO-3 framework.", "ar") == ""


def test_a_proposal_of_several_things_is_said_in_the_plural():
    assert said("This paper presents techniques to scale Mixtral with expert parallelism.", "ar").startswith("يقدّم المؤلفون تقنيات فيما يخص")
    assert said("We present a technique for expert parallelism.", "ar").startswith("يقدّم المؤلفون تقنية فيما يخص")


def test_a_model_trained_on_tokens_and_chips_keeps_their_bounds():
    text = said("Mixtral was trained on 3.5 trillion tokens on up to 4096 GPUs simultaneously, using SageMaker.", "ar")
    assert text == "يذكر المقال أن Mixtral دُرّب على 3.5 تريليون رمز باستخدام ما يصل إلى 4,096 شريحة"
    assert said("تم تدريب Mixtral على 14.8 تريليون رمز باستخدام 2048 شريحة H800.", "en") == \
        "The article reports that Mixtral was trained on 14.8T tokens using 2,048 H800 GPUs"
    assert said("Mixtral was not trained on 2,048 GPUs.", "ar") == ""
    assert said("The model was trained on 15T tokens.", "ar") == ""  # no model named: whose training is not said


def test_the_model_is_the_one_model_the_passage_named_before():
    doc = analyse("يستخدم Mixtral بنية MoE. تم تدريب النموذج على 8 تريليونات رمز.", "en")
    assert gist_relation.stated(doc, 1) == "The article reports that Mixtral was trained on 8T tokens"
    two = analyse("Mixtral and Qwen2 differ. The model was trained on 8 trillion tokens.", "ar")
    assert gist_relation.stated(two, 1) == ""  # two models named: which one is not sure
