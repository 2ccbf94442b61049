"""Figures read as what they are: a lower-case per-GPU rate, a name's digits. Texts written for these tests."""

from service.explain.pipeline import analyse


def test_a_per_gpu_rate_written_in_lower_case_is_a_per_chip_rate():
    # "~4000 tok/s/gpu for a 7b model ... on 8 A100": 6 x 7e9 x 4000 = 168 TFLOP/s, 53.85% of the A100's 312 TFLOP/s
    doc = analyse("We train at ~4000 tok/s/gpu for a 7b model on 8 A100.", "en")
    assert any(f.quantity == "tokens_per_s_per_chip" for f in doc.figures)
    assert any("53.85%" in c.why for c in doc.claims)



def test_a_names_digits_are_no_count_of_a_share():
    # "BF16 (18.1%)" is a format's gain, not 16 of the 2048 tokens named before it
    doc = analyse("At an input length of 2048 tokens, replication gains 27.3% over TP=8, more than with BF16 (18.1%).", "en")
    assert not any(c.verdict == "inconsistent" for c in doc.claims)
