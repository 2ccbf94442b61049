"""Round 41: a rejected Arabic form is never replaced inside a longer Latin word."""

from service.i18n import arabic_style


def test_a_rejected_form_followed_by_latin_letters_is_part_of_a_longer_name():
    # "أنوية Tensor" is rejected for أنوية الموترات; "أنوية TensorCore" (a TPU's cores) must not become "أنوية الموتراتCore"
    said = arabic_style.polish("أنوية TensorCore في TPU، وأنوية Tensor Cores في H100، وأنوية Tensor أيضا")
    assert "الموتراتCore" not in said and "Cores" not in said
    assert said.count("أنوية الموترات") == 2


def test_no_arabic_word_of_the_glossary_or_locale_runs_into_latin_letters():
    import json
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "data"
    for path in [*root.glob("glossary/*.json"), root / "locale" / "ar.json"]:
        text = json.dumps(json.loads(path.read_text(encoding="utf-8")), ensure_ascii=False)
        assert not re.search(r"الموترات[A-Za-z]", text), path.name  # a bulk replacement cut inside "TensorCore"


def test_a_verb_before_the_house_term_for_a_chip_agrees_with_it():
    # وحدة is feminine (any dictionary): "فيبقى وحدة GPU عاطلا" is "فتبقى وحدة GPU"; a masculine noun keeps يبقى
    assert arabic_style.polish("فيبقى وحدة GPU عاطلا بينما تنتظر").startswith("فتبقى وحدة GPU")
    assert arabic_style.polish("يبقى النموذج في الذاكرة").startswith("يبقى النموذج")
