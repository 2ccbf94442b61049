"""Arithmetic the author writes without its result (checks/open_expression.py). Texts written for these tests."""

from service.explain.pipeline import analyse


def _whys(text: str, lang: str = "en") -> str:
    return " ".join(c.why for c in analyse(text, lang).claims)


def test_a_product_left_unworked_is_worked_out_in_the_unit_written_after_it():
    # 70 x 18 = 1,260 GB = 1.26 TB (the GB after the last operand is the result's unit)
    assert "70*18 GB" in _whys("So a full fine-tune would need 70*18 GB.") and "1.26 TB" in _whys("So a full fine-tune would need 70*18 GB.")
    # 2 x 80 x 8 x 128 x 2 = 327,680 (bytes, as written)
    assert "327,680 bytes" in _whys("Per token the cache holds 2 * 80 * 8 * 128 * 2 bytes.")


def test_what_is_not_a_product_or_already_has_its_result_is_left_alone():
    texts = ["We render 1024x1024 images on 8x H100.",  # x: a size and a count of chips
             "It runs on 3090/4090 GPUs with 13395/40537MB in use.",  # /: alternatives, used of total
             "Per token that is 2 * 80 * 8 * 128 * 2 = 327,680 bytes.",  # the result is written (and checked elsewhere)
             "The first full pipeline comes only at 384 12*2*16."]  # the result is written before it
    for text in texts:
        assert "unworked" not in _whys(text), text


def test_the_arabic_answer_says_it_in_arabic():
    why = _whys("So a full fine-tune would need 70*18 GB.", "ar")
    assert "دون حساب" in why and "1.26 TB" in why
