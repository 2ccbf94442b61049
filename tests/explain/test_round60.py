"""Fixes of stop 59: round 59's leftovers and the sense audit of older held-out passages, each a general rule tested on
sentences written for the test (or a passage's own words, said in other words), with the passage that showed it named."""

from service.explain.compose import explain_offline


def _gist(text: str, lang: str = "en") -> str:
    return " ".join(g["text"] for g in explain_offline(text, lang)["gist"])


def test_flops_compared_with_than_is_a_count_not_expanded_as_a_rate():
    # round 59 P05 (the FlashAttention-3 post): "512x more matmul FLOPS than exponential" was restated as "floating-point
    # operations per second (FLOPS)", a rate, where the sentence counts operations
    text = ("We conclude that for this head size there are 400x more matmul FLOPS than exponential, which means the "
            "exponential can take half the time of the matmul.")
    gist = _gist(text)
    assert "FLOPS" in gist and "per second" not in gist, gist
    rate = _gist("We conclude that the cluster reaches 2 PFLOPS, which means the FLOPS of each chip stay low.")
    assert "per second" in rate or "FLOP/s" in rate, rate
