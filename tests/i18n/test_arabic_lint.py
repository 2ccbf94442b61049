"""bench/arabic_lint.py finds each class of faulty Arabic form in sentences written for it, and not in good Arabic."""

import importlib.util
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location("bench_arabic_lint", Path(__file__).resolve().parents[2] / "bench" / "arabic_lint.py")
lint = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(lint)


@pytest.mark.parametrize("kind, text", [
    ("english_word", "تعمل الشرائح في Pods كبيرة"),
    ("english_word", "يقسم العمل على replicas كثيرة"),
    ("english_run", "ويقول إن the model is trained on many GPUs فقط"),
    ("number_english_noun", "يستغرق التدريب 170 seconds لكل خطوة"),
    ("english_rate_unit", "تبلغ الإنتاجية 1600 tokens/sec/GPU في الخادم"),
    ("formula_in_prose", "القسمة على الذروة: MFU = 30 / 300 = 10% في هذه الحالة"),
    ("scale_letter_noun", "درب على 7B معامل"),
    ("number_11_99", "دفعة من 16 تسلسل في كل خطوة"),
    ("latin_punctuation", "تعمل الشرائح, وتنتظر الشبكة"),
    ("doubled_word", "في مرحلة المرحلة الأولى"),
    ("cut_definition", "- **الدفعة الصغرى**: جزء من الدفعة يمر في"),
    ("spliced_speech", "ويضيف أنّ وأضاف الكاتب أن الشبكة أبطأ"),
    ("two_words", "تعمل الشرائح معا، وتنتظر الرقائق الشبكة"),
    ("dual_after_measure", "تسريعًا قدره ضعفين"),
    ("factor_as_parameter", "يتجاوز الذاكرة بمعامل 3"),
    ("lone_particle", "أقل مقارنة ب FP8 في الذاكرة"),
])
def test_each_class_is_found_in_a_sentence_written_for_it(kind, text):
    assert lint.find(text)[kind], kind


def test_good_arabic_with_names_units_quotes_and_code_has_nothing():
    text = ("- **«The model uses 8 replicas.»** متسق: 16 شريحة H100 بسرعة 400 TFLOP/s لكل شريحة، "
            "والحساب `MFU = 30 / 300 = 10%`؛ ويضع توازي الخبراء خبراء مختلفين على وحدات GPU مختلفة، "
            "وتسريعًا قدره ضعفان بعامل 3، وتحتاج أن يرى كل رمز الرموز السابقة.")
    assert {kind: found for kind, found in lint.find(text).items() if found} == {}
