"""A memory the sentence says holds a number of parameters: the bytes each parameter gets, said.

The sentences are written for these tests; every figure is worked by hand beside its case."""

from service.explain.pipeline import analyse


def _only_claim(text: str, lang: str = "en"):
    doc = analyse(text, lang)
    assert len(doc.claims) == 1
    return doc.claims[0]


def test_the_top_of_a_range_over_the_parameters_it_supports():
    # 2.0 PB / 100 trillion parameters = 20 bytes per parameter (the range's low end, 2 TB, is not the one)
    claim = _only_claim("The store scales from 2TB to 2.0PB, enough to support models with up to 100 trillion parameters.")
    assert "20 bytes per parameter" in claim.why and claim.verdict == "explained"


def test_no_word_of_holding_no_bytes_per_parameter():
    # a size and a count side by side are not one holding the other
    claim = _only_claim("Our cluster has 1.6PB of flash, and our largest model so far has 100 trillion parameters.")
    assert "bytes per parameter" not in claim.why


def test_an_implausible_share_is_not_said():
    # 1.6 PB / 1 billion parameters = 1.6 million bytes each: no store of parameters, so nothing is said
    claim = _only_claim("The archive holds 1.6PB and supports models with up to 1 billion parameters.")
    assert "bytes per parameter" not in claim.why
