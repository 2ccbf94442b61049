"""An Arabic answer to an English passage quotes the English reading's gist under an Arabic lead (nothing is translated
offline); an English answer to an Arabic passage does not. Texts written for these tests."""

from service.explain.compose import explain_offline
from service.i18n.messages import messages

POINT = ("We moved the all-gather of ZeRO-3 off the critical path, so the step time dropped from 1.9 s to 1.4 s on 64 "
         "H100 GPUs. The reason is that the parameters of the next layer are now fetched while the current one computes.")


def gist_section(answer: str) -> str:
    return answer.split("## ")[1]


def test_an_arabic_answer_quotes_the_english_point_as_written():
    arabic = gist_section(explain_offline(POINT, "ar")["explanation"])
    english = gist_section(explain_offline(POINT, "en")["explanation"]).split("\n\n", 1)[1].strip()
    lead, quote = arabic.split("\n\n")[1:3]
    assert lead == messages("ar")["gist"]["original_language_as_written"]  # nothing spelled out: no claim that it was
    assert quote == "> " + english  # the same reading, untouched by the Arabic polish (no «», no Arabic words inside)
    assert "1.9 s" in quote and "1.4 s" in quote


def test_an_english_answer_to_an_arabic_passage_quotes_no_arabic():
    text = "نقلنا عملية التجميع الشامل في ZeRO-3 خارج المسار الحرج، فانخفض زمن الخطوة من 1.9 ثانية إلى 1.4 ثانية."
    said = gist_section(explain_offline(text, "en")["explanation"])
    assert "> " not in said and not any("\u0621" <= ch <= "\u064a" for ch in said)


def test_no_quote_where_the_english_reading_finds_no_point():
    arabic = gist_section(explain_offline("FSDP, TP, PP.", "ar")["explanation"])
    assert "> " not in arabic and arabic.split("\n\n")[1].startswith("لا تلخص هذه الإجابة")


def test_the_lead_says_abbreviations_are_spelled_out_only_where_one_is():
    text = "Our run with ZeRO-3 reached 41% MFU on 512 H100 GPUs, so we recommend ZeRO-3 for models above 30B parameters."
    lead, quote = gist_section(explain_offline(text, "ar")["explanation"]).split("\n\n")[1:3]
    assert lead == messages("ar")["gist"]["original_language"] and "MFU (" in quote
