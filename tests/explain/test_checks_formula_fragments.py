"""Written arithmetic with an unspaced minus inside brackets is redone whole; a fragment of a formula is never run.

The sentences are written for these tests; every figure is worked by hand beside its case."""

from service.explain.compose import explain_offline
from service.explain.pipeline import analyse


def _only_claim(text: str):
    doc = analyse(text, "en")
    assert len(doc.claims) == 1
    return doc, doc.claims[0]


def test_a_ring_factor_written_without_spaces_is_redone_whole():
    # 100 * 2 * (4-1) / 4 = 150: the stated 150 GB/s holds
    doc, claim = _only_claim("We expect 100*2*(4-1)/4 = 150 GB/s for 4 GPUs.")
    assert claim.verdict == "consistent" and doc.failures == []


def test_a_wrong_result_of_such_a_formula_is_inconsistent():
    # 100 * 2 * (2-1) / 2 = 100, not 150
    _, claim = _only_claim("With 2 GPUs we expect 100*2*(2-1)/2 = 150 GB/s.")
    assert claim.verdict == "inconsistent" and "100" in claim.why


def test_a_hyphenated_range_is_not_a_minus():
    # "2-4 GPUs" is a range; only 3 * 4 = 12 is arithmetic
    doc, claim = _only_claim("Use 2-4 GPUs per job and 3 * 4 = 12 nodes.")
    assert claim.verdict == "consistent" and doc.failures == []


def test_a_cut_formula_is_never_shown_to_the_reader():
    # "n-1" has a letter: the formula cannot be read whole, so no fragment ("1)/2") is run or warned about
    result = explain_offline("The ring factor 2*(n-1)/2 = 1 holds for two ranks.", "en")
    assert not any("is not arithmetic" in w for w in result["warnings"])


def test_a_bracket_closing_words_before_a_sum_does_not_hide_it():
    # "(at least) 3.5B * 20 = 70 GB": 3.5e9 * 20 = 7e10 bytes = 70 GB, the stated result
    _, claim = _only_claim("A model of this size needs (at least) 3.5B * 20 = 70 GB of memory.")
    assert claim.verdict == "consistent" and "70 GB" in claim.why


def test_a_size_the_model_needs_is_not_read_as_each_chips_memory():
    # 70 GB is what the sentence says the model requires; "within the 70 GB each chip has" would be a wrong statement
    _, claim = _only_claim("A model of this size needs (at least) 3.5B * 20 = 70 GB of memory.")
    assert "each chip has" not in claim.why
    # a chip's stated memory is still one: 7B x 16 bytes = 112 GB, more than 80 GB
    _, other = _only_claim("A 7B model trained on one H100 with 80 GB of memory.")
    assert "more than the 80 GB each chip has" in other.why


def test_a_line_of_bare_arithmetic_is_a_claim_and_is_checked():
    # written for this test: the parts 2 + 4 + 4 + 6 = 16, so a stated 16 holds and a stated 18 does not
    text = "Weights take 2 bytes, gradients 4 bytes, the master copy 4 bytes and Adam 6 bytes. 2 + 4 + 4 + 6 = {}. That is all."
    right = analyse(text.format(16), "en")
    assert [c.verdict for c in right.claims if c.quote.startswith("2 + 4")] == ["consistent"]
    wrong = analyse(text.format(18), "en")
    assert [c.verdict for c in wrong.claims if c.quote.startswith("2 + 4")] == ["inconsistent"]


def test_a_stated_layout_with_nothing_to_set_against_it_runs_no_planner():
    # written for this test: no MFU or rate is stated, so the planner's estimate would be a calculation nobody asked for
    doc = analyse("Setup: Llama 3 8B trained on 8 A100 GPUs with FSDP, a global batch of 8 sequences of 4,096 tokens each.", "en")
    assert "evaluate_layout" not in [c["calculator"] for c in doc.calculations]


def test_a_bracket_opening_an_aside_does_not_hide_the_sum_inside():
    # "(`4.59e14 / 1.8e11 = 2550` for v5p)": 4.59e14 / 1.8e11 = 2,550
    doc = analyse("The ratio C/W is large (`4.59e14 / 1.8e11 = 2550` for v5p), so we are compute bound.", "en")
    assert any(c.verdict == "consistent" for c in doc.claims) and doc.failures == []


def test_a_verdict_keeps_the_words_of_an_earlier_calculation_it_would_replace():
    # a working shown under a claim always comes with its words: "16 experts per GPU" stays beside the later verdict
    from service.explain import checks
    from service.explain.checks.core import Result
    claim = analyse("Our kernel runs 50% faster than the old one (300 vs 200 tok/s per GPU).", "en").claims[0]
    claim.calculations, claim.verdict, claim.why = [0], "explained", "128 experts over EP=8: 16 experts per GPU"
    checks._apply(claim, Result([1], "consistent", "the text says 50%; the calculation gives 50%"))
    assert claim.why == "the text says 50%; the calculation gives 50%; 128 experts over EP=8: 16 experts per GPU"
    # with no calculation of its own, an earlier word is replaced as before
    claim.calculations, claim.verdict, claim.why = [], "explained", "a reason in words"
    checks._apply(claim, Result([1], "consistent", "the text says 50%"))
    assert claim.why == "the text says 50%"
