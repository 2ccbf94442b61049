"""What round 55's readers found that stop 55 left, each fixed by a general rule tested here on sentences written for the
test: an expectation given as the author's point and a bare "Because ..." as a claim (P03), "config A:" cut in two, a
cost against the hourly price of the sentence before (P15), a gist pointing "below" itself (P26), "Also, ... because"
read as an aside (P01), English compounds and connectives inside Arabic restatements (P04, P12)."""

import pytest

from service.explain import reported
from service.explain.compose import explain_offline
from service.explain.pipeline import analyse

EXPECTED_THEN_MEASURED = (
    "I am timing all-gather across 16 GPUs. But I cannot explain the numbers. "
    "If every link runs at the same speed, the all-gather time should be bottlenecked by the slowest network card. "
    "Because the cards are identical. "
    "But we got very different results: setup A: 41 ms, setup B: 18 ms, setup C: 12 ms."
)


def _gist(text: str, lang: str = "en") -> str:
    return " ".join(item["text"] for item in explain_offline(text, lang)["gist"])


def test_a_named_case_keeps_its_noun_in_a_run_of_labels():
    doc = analyse(EXPECTED_THEN_MEASURED, "en")
    pieces = [EXPECTED_THEN_MEASURED[a:b] for a, b in doc.sentences]
    assert "setup A: 41 ms," in pieces and "setup B: 18 ms," in pieces, pieces
    assert not any(p.rstrip(",. ").endswith(" setup") for p in pieces), pieces


def test_what_the_author_expected_is_not_their_point():
    gist = _gist(EXPECTED_THEN_MEASURED)  # the expectation may follow as what the results contradict, never lead
    assert "cannot explain" in gist and gist.index("cannot explain") < gist.find("should be bottlenecked") % 10_000, gist


def test_a_bare_because_is_never_the_point():
    gist = _gist(EXPECTED_THEN_MEASURED)
    assert not gist.lower().startswith(("because", "the author explains that because")), gist
    assert "explains that because" not in gist, gist


def test_results_unlike_the_expectation_are_a_problem():
    assert reported.role("But we got very different results: setup A: 41 ms.", "en") == "problem"
    assert reported.role("However, I see inconsistent timings on the second node.", "en") == "problem"
    assert reported.role("But I got the same performance on both.", "en") != "problem"


def test_according_to_a_formula_is_no_news_report():
    assert reported.role("According to the above formula, the three settings should be similar.", "en") == "expectation"
    assert reported.role("According to Reuters, the lab bought 20,000 GPUs.", "en") == "news"


def test_advice_under_a_condition_stays_advice():
    # "If you use FSDP, you should set ..." requires; only a prediction's "should" is an expectation
    assert reported.role("If you use FSDP, you should set the bucket size to 25MB.", "en") != "expectation"
    assert reported.role("If the model fits, the bucket size should be set to 25MB.", "en") != "expectation"
    assert reported.role("If the links are 400 Gb/s, the step should take about 2 s.", "en") == "expectation"


def test_an_expectation_in_brackets_leaves_the_result_its_weight():
    # "obtains 43.56 tokens/s (... so I suppose their speed should be identical)": the result, its aside expects
    from service.explain import gist_side
    assert gist_side.expected_only("The fp16 run obtains 43.56 tokens/s (the two share one structure, so I suppose "
                                   "their speed should be identical).", "en") == 0.0
    assert gist_side.expected_only("If there is one flat ring, the all-reduce should be bottlenecked by the network.", "en") > 0


def test_an_arabic_connective_does_not_dangle_after_anna():
    # round 55 P12 (ThakiCloud, Arabic): "يذكر النص أنه مع ذلك، يجب ..." kept the "however" of a sentence it cut off
    from service.explain import arabic_clause
    said = arabic_clause.reported("مع ذلك، يجب أن تبقى أوزان جميع الخبراء في الذاكرة")
    assert said is not None and "مع ذلك" not in said and said.startswith("أنه يجب"), said
    assert "علاوة" not in (arabic_clause.reported("علاوة على ذلك، تتطلب الطريقة ذاكرة أكبر") or "")


def test_a_gist_does_not_point_below_itself():
    # round 55 P26 (Crusoe on NCCL timeouts): "setting the two environment variables below" with nothing below the gist
    from service.explain import gist_plain
    assert gist_plain.phrased("Setting the two variables below enables the recorder.", "en") == "Setting the two variables enables the recorder."
    assert gist_plain.phrased("Latency stays below 10 ms.", "en") == "Latency stays below 10 ms."
    assert "أدناه" not in gist_plain.phrased("اضبط المتغيرين المذكورين أدناه لتفعيل المسجل.", "ar")


def _claim_with(text: str, needle: str) -> dict:
    return next(c for c in explain_offline(text, "en")["claims"] if needle in c["quote"])


def test_a_cost_checked_against_the_hourly_price_of_the_sentence_before():
    # round 55 P15 (Red Hat on JIT checkpointing): "$55 an hour" in one sentence, "3 hours ... wasting $165" in the next
    right = ("Our job ran on a 16x NVIDIA A100 GPU cluster costing $40 an hour for two days. "
             "The last checkpoint was saved 4 hours before the crash, wasting $160 of compute.")
    claim = _claim_with(right, "wasting")
    assert claim["verdict"] == "consistent" and "160" in claim["why"], claim
    # a gap may mean a price per chip: never judged from a price the sentence before gave the whole cluster
    gap = right.replace("$160", "$900")
    assert _claim_with(gap, "wasting")["verdict"] != "inconsistent"
    # a sentence between them: no price is borrowed
    apart = right.replace(" The last", " We then moved to a new region. The last")
    assert "40" not in _claim_with(apart, "wasting").get("why", "")


def test_a_chip_count_before_the_noun_it_describes_stays_as_written():
    # round 55 P15: "an 8x NVIDIA H100 GPU cluster" was restated "an 8 H100 GPUs cluster"
    out = explain_offline("Our job ran on a 16x NVIDIA A100 GPU cluster for two days. We then trained on 64x H100 GPUs.", "en")
    plains = [c["plain"] for c in out["claims"]]
    assert any("16x NVIDIA A100 GPU cluster" in p for p in plains) and not any("GPUs cluster" in p for p in plains), plains
    assert any("64 H100 GPUs" in p for p in plains), plains  # a count on its own is still read out


def test_an_english_compound_inside_arabic_is_not_split_by_an_expansion():
    # round 55 P04 (an Arabic post on KV offload): "المعالج المركزي (CPU) ذاكرة الوصول العشوائي الديناميكية (DRAM) رخيص"
    out = explain_offline("نقل ذاكرة KV إلى CPU DRAM رخيص، لكن وصلة PCIe بطيئة. لذلك يجب إبقاء البادئات الساخنة في GPU HBM.", "ar")
    gist = " ".join(item["text"] for item in out["gist"])
    assert "GPU HBM" in gist and "(HBM)" not in gist, gist


def test_also_with_a_cause_adds_a_point_not_an_aside():
    # round 55 P01 (vLLM #5723): "Also, 70B is super slow because I needed to gather one matrix weight at a time." weighed
    # as an aside; the gist missed why 70B is slow
    from service.explain import gist_side
    assert gist_side.also_argues("Also, 70B is super slow because I needed to gather one matrix at a time.", "en")
    assert not gist_side.also_argues("Also, thanks for the great library.", "en")
    text = ("70B with the gloo backend takes about 3 minutes. 8B with the gloo backend takes 5 seconds. "
            "Also, 70B is super slow because I needed to gather one matrix weight at a time. "
            "In 8B, I can gather all the weights together, which is much faster.")
    gist = " ".join(item["text"] for item in explain_offline(text, "en")["gist"])
    assert "because they needed to gather one matrix weight at a time" in gist, gist


@pytest.mark.parametrize("said", ["the instantaneous reading above 100% is what surfaced the bug", "the bandwidth may fall below 380 GB/s",
                                  "each layer must be longer than the one above it", "the gradient norm is above the clip value"])
def test_above_and_below_that_compare_or_place_stay(said):
    from service.explain import gist_plain
    assert gist_plain.phrased(said, "en") == said


def test_a_connective_before_a_verb_leaves_the_arabic_subject_whole():
    # "في المقابل، يتطلب التدريب الواعي بالتكميم ..." was said "أنّ التدريب الواعي يتطلب بالتكميم ...", a compound split
    from service.explain import arabic_clause
    said = arabic_clause.reported("في المقابل، يتطلب التدريب الواعي بالتكميم عصورًا إضافية")
    assert said == "أنه يتطلب التدريب الواعي بالتكميم عصورًا إضافية", said


def test_no_expansion_inside_a_product_of_factors():
    # round 54 (Megatron-LM #4110): "over all layer × microbatch x DP (model copies each fed different data) slice entries"
    out = explain_offline("The value is the mean of the overload factor over all layer × microbatch x DP slice entries on this rank.", "en")
    gist = " ".join(item["text"] for item in out["gist"])
    assert "x DP slice" in gist, gist
