"""The Arabic gist reports a sentence grammatically: a future verb takes its subject before it after أنّ, a name keeps
its bracketed short form, and a sentence that is itself someone's words keeps its speaker instead of a second frame."""

from service.explain import arabic_clause
from service.explain.compose import explain_offline
from service.explain.pipeline import analyse


def test_a_future_verb_is_a_verb_and_its_subject_comes_first_after_anna():
    assert arabic_clause.is_verb("سيحتاج") and arabic_clause.is_verb("ستتضمن")
    assert arabic_clause.reported("سيحتاج النموذج الجديد إلى 40 غيغابايت من الذاكرة") == \
        "أنّ النموذج الجديد سيحتاج إلى 40 غيغابايت من الذاكرة"


def test_a_name_keeps_its_bracketed_short_form_when_its_verb_moves():
    said = arabic_clause.reported("أصدر اتحاد الشبكات المفتوحة (ONC) مواصفات جديدة للبطاقات")
    assert said == "أنّ اتحاد الشبكات المفتوحة (ONC) أصدر مواصفات جديدة للبطاقات"


def test_a_joining_wa_before_a_demonstrative_is_dropped_after_anna():
    assert arabic_clause.reported("وهذا يعني أن الاتصال هو عنق الزجاجة") == "أنّ هذا يعني أن الاتصال هو عنق الزجاجة"


def test_someones_reported_words_keep_their_speaker_and_lose_the_joining_words():
    assert arabic_clause.own_speech("وقالت الشركة أيضًا، إن الشريحة الجديدة أسرع بمرتين") == \
        "قالت الشركة إن الشريحة الجديدة أسرع بمرتين"
    assert arabic_clause.own_speech("الشريحة الجديدة أسرع بمرتين") is None  # the text's own statement


def test_the_arabic_gist_of_reported_words_is_never_framed_twice():
    text = ("وقال مدير الشركة أيضًا، إن وحدات المعالجة الجديدة لا تحتاج إلى التبريد المائي حتى 1000 واط. "
            "وهذا مهم لأن معظم مراكز البيانات تبرد بالهواء.")
    gist = " ".join(item["text"] for item in explain_offline(text, "ar")["gist"])
    assert "أنّ وقال" not in gist and "يذكر النص أنّ و" not in gist
    assert "قال مدير الشركة إن وحدات المعالجة الجديدة لا تحتاج" in gist  # the negation and who said it kept


def test_a_companion_that_reports_someones_words_keeps_its_speaker():
    from service.explain import reported
    said = "وأخبر كبير المهندسين الفريق أنه يكفي توازي البيانات المجزأ"
    assert reported.companion(said, said, "ar", "text") == "وأخبر كبير المهندسين الفريق أنه يكفي توازي البيانات المجزأ"


def test_it_should_be_noted_that_is_lifted_not_made_the_subject():
    # a round-15 answer: «ويوضح أنّ الإشارة تجدر إلى أن ...» for «تجدر الإشارة إلى أن ...»; written for this test
    text = "تجدر الإشارة إلى أن تكميم الأوزان بأربعة بتات نادر في الإنتاج، لأن الدقة المنخفضة تضر بجودة النموذج."
    said = explain_offline(text, "ar")["explanation"].split("## ")[1]
    assert "الإشارة تجدر" not in said and "تكميم الأوزان بأربعة بتات نادر" in said


def test_int4_is_its_own_format_not_quantization_in_general():
    # a round-15 reader: «عمليات التكميم (INT4)» for «عمليات INT4»: INT4 is one format, named as itself
    terms = {t["id"]: t for t in analyse("لا تدعم جميع الأجهزة عمليات INT4.", "ar").terms}
    assert "int4" in terms and "quantization" not in terms
