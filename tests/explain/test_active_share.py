"""A mixture of experts' active share of its parameters (checks/active_share.py). Texts written for these tests."""

from service.explain.pipeline import analyse


def _whys(text: str, lang: str = "en") -> str:
    return " ".join(c.why for c in analyse(text, lang).claims)


def test_active_parameters_are_said_as_a_share_of_the_total():
    # DeepSeek-V3 technical report: 671B total, 37B activated per token; 37 / 671 = 5.5%
    why = _whys("The model has 671B total parameters, of which 37B are activated for each token.")
    assert "37B (5.5%)" in why and "671B" in why


def test_a_range_of_active_parameters_is_said_as_one_range():
    # 18 / 600 = 3.0%, 30 / 600 = 5.0%
    why = _whys("Each token activates 18 to 30 billion parameters (out of 600 billion total).")
    assert "between 18B (3.0%) and 30B (5.0%)" in why


def test_no_share_without_a_marked_total_or_when_the_text_states_one():
    assert "(5.5%)" not in _whys("We compare a 671B model with a 37B model.")  # two models, no total, nothing active
    assert "each token uses" not in _whys("It has 1.2T total parameters but activates 97B (8%) per token.")  # stated share
