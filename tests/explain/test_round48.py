"""Round 48: what round 44's readers and this stop's own reading found (issue 18)."""

import re

from service.explain.compose import explain_offline


def _claim_lines(answer: str) -> list[str]:
    """The bold headings of the claims section's bullets."""
    section = answer.split("\n## ")[1] if answer.count("\n## ") >= 2 else ""  # after "In short"
    return re.findall(r"^- \*\*(.+?)\*\*", section, re.M)


def test_a_figure_of_the_other_language_is_named_by_what_it_measures():
    # round 44 (P19-ar, P20-ar): «الرقم «28%»» named a claim by a bare figure; the reader never learnt it was MFU
    text = "With 8 experts, MFU on a v5p-128 is 47%. The problem is that with 64 experts the MFU drops to 31%!"
    heads = _claim_lines(explain_offline(text, "ar")["explanation"])
    assert any("31%" in h and "MFU" in h for h in heads), heads
    assert not any(h.startswith("الرقم «31%»") for h in heads)


def test_a_figure_written_in_arabic_is_read_out_for_an_english_reader():
    # an English reader cannot read «15 تريليون رمز»: the heading says the figure with its quantity in English
    text = "درّبنا نموذجًا بحجم 7B على 2 تريليون رمز بمعدل 3,000 رمز في الثانية لكل وحدة GPU على 512 وحدة H100."
    answer = explain_offline(text, "en")["explanation"]
    heads = _claim_lines(answer)
    assert heads and not any(re.search(r"[\u0621-\u064A]", h) for h in heads), heads
    assert any("3,000 tokens per second" in h for h in heads), heads


def test_tokens_said_per_parameter_before_the_number_are_a_ratio():
    # round 44 (P18, Arabic): «لكل معامل في النموذج، استخدم حوالي 20 رمزًا» was set against Llama 3's 15 trillion tokens:
    # "15T tokens vs 20 tokens: about 750000000000 times as much"
    for text in ("لكل معامل في النموذج، استخدم حوالي 20 رمزًا من بيانات التدريب. ودُرّب Llama 3 على 15 تريليون رمز.",
                 "For each parameter, use about 20 tokens of training data. Llama 3 was trained on 15T tokens."):
        for lang in ("en", "ar"):
            answer = explain_offline(text, lang)["explanation"]
            assert "750000000000" not in answer and "7.5e11" not in answer, (lang, answer[:400])


def test_a_sentence_before_a_colon_keeps_its_colon():
    # a clause with its own verb before a colon is no heading: joining it to the verb after the colon ran two
    # verbs together («الموجة الأحدث ذهبت أبعد درّبت نماذج ...»)
    from service.explain.arabic_clause import unlabelled
    clause = "الموجة الأحدث ذهبت أبعد: درّبت نماذج صغيرة على بيانات كثيرة"
    assert unlabelled(clause) == clause
    assert unlabelled("التكوين الثاني: يحتوي على ثماني شرائح") == "التكوين الثاني يحتوي على ثماني شرائح"
