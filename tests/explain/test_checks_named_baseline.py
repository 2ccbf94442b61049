"""A change a sentence states for a named quantity over a named baseline, whose two figures stand in other sentences.

The passages are written for these tests; every figure is worked by hand beside its case."""

from service.explain.pipeline import analyse

STORY = ("We trained a 7B model with our new kernels and reached 50% MFU. "
         "That is {change} higher MFU than the old Quux setup. "
         "The original Quux setup was well tuned, yet its MFU stayed at 40%.")


def _claim(text: str, needle: str, lang: str = "en"):
    doc = analyse(text, lang)
    return doc, next(c for c in doc.claims if needle in c.quote)


def _calculators(doc, claim) -> list[str]:
    return [doc.calculations[i]["calculator"] for i in claim.calculations]


def test_a_right_change_over_a_named_baseline_is_consistent():
    # 50% / 40% - 1 = +25%
    _, claim = _claim(STORY.format(change="25%"), "higher MFU")
    assert claim.verdict == "consistent" and "25.0%" in claim.why and "Quux" in claim.why


def test_a_wrong_change_over_a_named_baseline_is_inconsistent():
    # 50% / 40% - 1 = +25%, not +40%; even the written figures' rounding (50.5 / 39.5 - 1 = 27.8%) does not reach 40%
    _, claim = _claim(STORY.format(change="40%"), "higher MFU")
    assert claim.verdict == "inconsistent" and "25.0%" in claim.why and "40%" in claim.why


def test_a_change_within_the_rounding_of_the_written_figures_is_not_a_finding():
    # 50 / 40 - 1 = 25%, but 50% and 40% as written cover 49.5-50.5 and 39.5-40.5: 27% is within 50.5 / 39.5 - 1 = 27.8%
    _, claim = _claim(STORY.format(change="27%"), "higher MFU")
    assert claim.verdict != "inconsistent"


def test_a_baseline_with_no_name_is_not_paired():
    # "than before": no name ties the other figure to the baseline, so 50% vs 40% is not assumed to be the pair
    text = ("Our kernels reach 50% MFU on 8 GPUs. That is 40% higher MFU than before. "
            "On 512 GPUs the MFU falls to 40%.")
    doc, claim = _claim(text, "higher MFU")
    assert "ratio" not in _calculators(doc, claim) and claim.verdict != "inconsistent"


def test_three_figures_of_the_quantity_are_not_paired():
    # 50%, 40% and 45%: which two the change is between is uncertain
    text = STORY.format(change="40%") + " A third run got 45% MFU."
    doc, claim = _claim(text, "higher MFU")
    assert "ratio" not in _calculators(doc, claim)


def test_a_direction_that_disagrees_with_the_figures_is_not_judged():
    # "lower" while ours (50%) is the higher: another reading, never an inconsistency
    doc, claim = _claim(STORY.format(change="20%").replace("higher", "lower"), "lower MFU")
    assert "ratio" not in _calculators(doc, claim) and claim.verdict != "inconsistent"


def test_a_factor_of_throughput_over_a_named_baseline():
    # 3,000 / 1,000 tokens/s = 3x; a stated 3x holds
    text = ("Our run reaches 3,000 tokens/s per GPU. That is a 3x throughput boost over the Quux baseline. "
            "The Quux baseline stays at 1,000 tokens/s per GPU.")
    _, claim = _claim(text, "boost")
    assert claim.verdict == "consistent" and "3x" in claim.why
