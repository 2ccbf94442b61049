"""A factor a sentence states between two named rows of a table above it, redone on the rows' first like column.

The tables and sentences are written for these tests; every figure is worked by hand beside its case."""

from service.explain.pipeline import analyse

TABLE = ("Kernel | Step time | Throughput\n"
         "Alpha | 4.00 s | 500 tokens/s\n"
         "Beta | 10.00 s | 200 tokens/s\n"
         "Gamma | 5.00 s | 400 tokens/s\n\n")


def _claim(text: str, needle: str, lang: str = "en"):
    doc = analyse(text, lang)
    return doc, next(c for c in doc.claims if needle in c.quote)


def _calculators(doc, claim) -> list[str]:
    return [doc.calculations[i]["calculator"] for i in claim.calculations]


def test_a_stated_factor_between_two_named_rows_is_redone_on_their_times():
    # Beta's 10.00 s over Alpha's 4.00 s = 2.5x: the stated 2.5x holds
    doc, claim = _claim(TABLE + "Alpha runs 2.5x faster than Beta on this model.", "runs 2.5x")
    assert claim.verdict == "consistent"
    assert "2.5x" in claim.why and "10.00 s" in claim.why and "4.00 s" in claim.why


def test_a_wrong_factor_between_named_rows_is_inconsistent():
    # Beta's 10.00 s over Gamma's 5.00 s = 2.0x, not 3x (3x covers 2.5x to 3.5x as the last digit's rounding)
    doc, claim = _claim(TABLE + "Gamma runs 3x faster than Beta.", "Gamma runs")
    assert claim.verdict == "inconsistent"
    assert "2x" in claim.why and "3x" in claim.why


def test_the_subject_is_the_row_named_first_and_the_reference_the_one_after_than():
    # "Alpha matches Gamma and runs 2.5x faster than Beta": Alpha (4.00 s) against Beta (10.00 s) = 2.5x, not Gamma's 2x
    _, claim = _claim(TABLE + "Alpha matches Gamma and runs 2.5x faster than Beta.", "matches")
    assert claim.verdict == "consistent" and "Alpha" in claim.why and "Gamma" not in claim.why


def test_a_factor_that_goes_the_other_way_from_the_rows_is_not_judged():
    # Beta is the slower row: "Beta is 2.5x faster than Alpha" is another reading (another column, another setting)
    doc, claim = _claim(TABLE + "Beta is 2.5x faster than Alpha.", "Beta is")
    assert "ratio" not in _calculators(doc, claim) and claim.verdict != "inconsistent"


def test_a_factor_with_no_row_after_it_is_not_paired():
    # the sentence names one row only: nothing says which row the factor is measured against
    doc, claim = _claim(TABLE + "Alpha runs 2.5x faster than the old kernel.", "old kernel")
    assert "ratio" not in _calculators(doc, claim)


def test_a_name_inside_a_longer_row_name_is_that_row():
    # "Alpha fused" is its own row (2.00 s): 10.00 / 2.00 = 5x against Beta, not Alpha's 2.5x
    table = TABLE.rstrip("\n") + "\nAlpha fused | 2.00 s | 1000 tokens/s\n\n"
    _, claim = _claim(table + "Alpha fused runs 5x faster than Beta.", "fused runs")
    assert claim.verdict == "consistent" and "2.00 s" in claim.why



def test_rows_of_one_figure_each_are_rows_too():
    # "Alpha | 4.00 s" and "Beta | 10.00 s": 10.00 / 4.00 = 2.5x; a stated 4x is off by 60%: inconsistent
    table = "Kernel | Step time\nAlpha | 4.00 s\nBeta | 10.00 s\n\n"
    _, claim = _claim(table + "Alpha is 4x faster than Beta.", "Alpha is")
    assert claim.verdict == "inconsistent" and "2.5x" in claim.why
