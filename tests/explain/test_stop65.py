"""Stop 65's rules, each on sentences written for the test in the shape of the passage that showed the fault."""

from service.explain.compose import explain_offline
from service.explain.pipeline import analyse


def _claim(doc, start: str):
    return next(c for c in doc.claims if c.quote.startswith(start))


def test_a_factor_after_short_asides_is_redone_from_the_two_times_before_them():
    # round 94 P18 ("In May 2024 that took 45 minutes. Today it takes 81 seconds. Same hardware. No new chips. Pure
    # software. That is roughly a 33x speedup in under two years."): the reader worked 2700 / 81 = 33x; the tool did not
    text = ("In March 2023 the benchmark run took 30 minutes on one node. Now it finishes in 72 seconds. Same cluster. "
            "No new kernels. That is roughly a 25x speedup in under three years.")
    doc = analyse(text, "en")
    claim = _claim(doc, "That is roughly")
    assert claim.verdict == "consistent" and "30 minutes" in claim.why and "72 seconds" in claim.why
    # the span the change took ("in under three years") is no amount the sentence compares; a real one still is
    other = analyse("In March 2023 the run took 30 minutes. Now it takes 72 seconds. That is a 25x speedup over 10 minutes "
                    "of warm-up.", "en")
    assert not _claim(other, "That is").calculations
    # a factor the two times do not give is not called consistent
    wrong = analyse("In March 2023 the benchmark run took 30 minutes on one node. Now it finishes in 72 seconds. "
                    "That is roughly a 40x speedup in under three years.", "en")
    assert _claim(wrong, "That is roughly").verdict != "consistent"


def test_a_gist_that_points_back_says_the_change_it_stands_for():
    # round 94 P18: the point ("That is roughly a 33x speedup in under two years, and it tells you more ...") was left out
    # for pointing back at nothing shown, and the opening copied a side sentence instead
    text = ("There is a public leaderboard for training a small model on one node. In March 2023 the benchmark run took "
            "30 minutes. Now it finishes in 72 seconds. Same cluster. No new kernels. That is roughly a 25x speedup in "
            "under three years, and it shows that software drives most of the progress.")
    opening = explain_offline(text, "en")["gist"][0]["text"]
    assert "going from 30 minutes to 72 seconds is roughly a 25x speedup" in opening
    # the Arabic answer to an English text does not paste the English words into an Arabic frame
    assert "going from" not in " ".join(s["text"] for s in explain_offline(text, "ar")["gist"])
