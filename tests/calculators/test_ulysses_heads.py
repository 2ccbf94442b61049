"""Attention heads over a Ulysses sequence-parallel degree (service/explain/checks/ulysses_heads.py): DeepSpeed-Ulysses
gives each sequence-parallel rank whole attention heads, so the degree must divide the head count (Jacobs et al. 2023,
'DeepSpeed Ulysses: System Optimizations for Enabling Training of Extreme Long Sequence Transformer Models', section 3:
"the attention heads are partitioned across the sequence parallel ranks"; the README's note that the degree cannot
exceed the number of heads). Round 56 P27 (DeepSpeed #4674): 48 heads, 64 expected, 16 the most that worked."""

from service.explain.compose import explain_offline

TEXT = ("I run sequence parallelism with DeepSpeed Ulysses on a model with 48 attention heads. I expected to be able to "
        "use a sequence parallel dimension of 64. In practice the maximum feasible dimension I could set was only 16.")


def _why(text: str, lang: str, needle: str) -> str:
    return next(c["why"] for c in explain_offline(text, lang)["claims"] if needle in c["quote"])


def test_a_degree_that_does_not_divide_the_heads_is_said_to_fail():
    why = _why(TEXT, "en", "dimension of 64")
    assert "48 attention heads / a sequence-parallel degree of 64 = 0.75" in why and "must divide 48" in why, why


def test_the_largest_power_of_two_dividing_the_heads_is_the_most_ulysses_allows():
    why = _why(TEXT, "en", "maximum feasible")
    assert "= 3 heads per rank" in why and "16 is the largest power of two that divides 48" in why, why


def test_arabic_counts_agree():
    why = _why(TEXT, "ar", "maximum feasible")
    assert "عدد رؤوس الانتباه 48 / درجة توازي التسلسل 16 = 3 لكل رتبة" in why, why


def test_nothing_is_worked_without_ulysses_or_a_head_count():
    plain = TEXT.replace("DeepSpeed Ulysses", "ring attention")
    assert "heads per rank" not in " ".join(c["why"] for c in explain_offline(plain, "en")["claims"])
    headless = TEXT.replace("a model with 48 attention heads", "a large model")
    assert "heads per rank" not in " ".join(c["why"] for c in explain_offline(headless, "en")["claims"])
