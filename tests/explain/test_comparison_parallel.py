"""Like figures compared without a "vs": one verb said of two things, and a results table against its baseline row
(checks/comparison.py). Texts written for these tests; each ratio is worked beside it."""

from service.explain.pipeline import analyse


def _why(text: str, lang: str = "en") -> str:
    return " ".join(c.why for c in analyse(text, lang).claims)


def test_one_verb_before_two_like_figures_compares_them():
    # 1.9 / 1.5 = 1.267: 1.9 is 126.7% of 1.5, about 27% higher
    why = _why("With FP8 each step takes 1.9 s per batch on one node, BF16 takes 1.5 s under the same setting.")
    assert "1.9 s is 126.7% of 1.5 s" in why and "27% higher" in why


def test_two_figures_after_different_verbs_are_not_paired():
    why = _why("The first job reads 40 GB from disk at start-up, then the cache holds 12 GB after warm-up.")
    assert " vs " not in why


def test_a_results_line_is_read_against_its_baseline_row():
    # 1,420 / 812 = 1.749 (about 75% higher); 1,015 / 812 = 1.25 (25% higher): each against the row "without"
    text = ("Throughput on one H100: vLLM (without prefix caching) 812 tokens/s vLLM + prefix caching 1420 tokens/s "
            "vLLM + chunked prefill 1015 tokens/s")
    why = _why(text)
    assert "1420 tokens/s is 174.9% of 812 tokens/s" in why and "75% higher" in why
    assert "1015 tokens/s is 125% of 812 tokens/s" in why and "25% higher" in why
    assert "812 tokens/s vs" not in why  # the baseline is not compared with itself or set first


def test_a_results_line_with_no_baseline_label_is_not_guessed():
    text = "Throughput on one H100: vLLM 812 tokens/s SGLang 1420 tokens/s TensorRT-LLM 1015 tokens/s"
    assert " vs " not in _why(text)
