"""Round 46: what round 40's readers left open and this stop's reviewers found (issue 18)."""

from service.explain.compose import explain_offline
from service.explain.person import third_person


def test_the_addressees_noun_stays_theirs_when_the_author_has_one_too():
    # TensorRT-LLM#6294 (round 40, P14): "the test we ran ... your test used" was reported as "the test they ran ...
    # the test used", one test said to use both variants
    said = third_person("the test we ran used the H100 SXM variant, not the H100 PCIE variant your test used.", "en")
    assert said == "the test they ran used the H100 SXM variant, not the H100 PCIE variant the other person's test used."
    # alone, the addressee's noun is simply definite
    assert third_person("Please check your README for the flags.", "en") == "Please check the README for the flags."


def test_a_reply_comparing_two_tests_keeps_whose_test_is_whose():
    answer = explain_offline("I think the difference is that the test we ran used the H100 SXM 80GB variant, which is "
                             "faster than the H100 PCIE variant your test used.", "en")["explanation"]
    assert "the other person's test used" in answer and "variant the test used" not in answer
