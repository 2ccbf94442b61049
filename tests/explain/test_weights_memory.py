"""A model's weights against memory (checks/weights_memory.py): parameters x the bytes of the text's number format.

Widths: FP16 and BF16 are 2 bytes per value (IEEE 754 binary16; Google Cloud TPU docs, "The bfloat16 numerical
format"). Card memories: H100 SXM 80 GB, H200 141 GB (NVIDIA datasheets, data/hardware.json). All texts written for
these tests.
"""

from service.explain.pipeline import analyse


def _claim(doc, words):
    return next(c for c in doc.claims if words in c.quote)


def test_a_stated_need_that_the_weights_match_is_consistent():
    # 70e9 x 2 bytes = 140 GB, which "roughly 140GB" states
    doc = analyse("A 70B model stored in FP16 demands roughly 140GB just for its weights.", "en")
    claim = _claim(doc, "140GB")
    assert claim.verdict == "consistent"
    assert "70B x 2 bytes (FP16) = 140 GB" in claim.why


def test_a_need_said_to_be_exceeded_holds_and_is_set_against_the_hardware_beside_it():
    # 405e9 x 2 bytes = 810 GB, over the 800 GB said; 8 H200s hold 8 x 141 GB = 1128 GB, stated in the first sentence
    text = "One server has 1128 GB of HBM in total. Llama 3.1 405B needs over 800 GB in BF16."
    for lang in ("en", "ar"):
        claim = _claim(analyse(text, lang), "405B")
        assert claim.verdict == "consistent", lang
        assert "810 GB" in claim.why and "1128 GB" in claim.why, claim.why
    assert "within the 1128 GB" in _claim(analyse(text, "en"), "405B").why


def test_a_need_that_counts_more_than_the_weights_is_not_judged():
    # 168 GB is not 70B x 2 bytes (140 GB): the need may count a KV cache too, so nothing is said, and nothing is wrong
    doc = analyse("With its KV cache, a 70B model in FP16 needs 168 GB.", "en")
    claim = _claim(doc, "168 GB")
    assert claim.verdict != "inconsistent"
    assert "x 2 bytes" not in claim.why


def test_weights_over_one_card_of_the_named_chip_say_how_many_cards_at_least():
    # 70e9 x 2 bytes (16-bit, no format named) = 140 GB, over an H100's 80 GB: at least 2 cards
    doc = analyse("Can I serve a 70B model on one H100? vLLM runs out of memory while loading it.", "en")
    claim = _claim(doc, "70B")
    assert "140 GB of weights alone" in claim.why and "H100's 80 GB" in claim.why
    assert "at least 2" in claim.why and "assumed" in claim.why
    assert claim.verdict == "explained"


def test_no_card_comparison_when_the_memory_or_the_job_is_uncertain():
    texts = [
        "Can I serve a 70B model on an A100? It runs out of memory.",  # 40 GB and 80 GB cards share the name
        "We train a 70B model on H100s and it runs out of memory.",  # a training run spreads its weights anyway
        "We serve a 405B model on 16 H100s and it does not fit.",  # 810 GB needs 11 cards; the text already has 16
        "Can I serve a 70B model in 4-bit GGUF on one H100? It runs out of memory.",  # quantised: not 16-bit weights
        "Serving DeepSeek V4 (284B) runs out of memory.",  # "V4" names a model here, not a TPU v4
    ]
    for text in texts:
        doc = analyse(text, "en")
        assert not any("of weights alone" in c.why for c in doc.claims), (text, [c.why for c in doc.claims])


def test_cards_written_with_their_memory_are_counted_together():
    # "8x 40GB A100s": 8 x 40 GB = 320 GB, and 70e9 x 2 bytes = 140 GB of 16-bit weights fit within it
    text = "vLLM fails to start Llama-3.1-70B with an OOM error. The server has 8x 40GB A100s in total."
    for lang, times in (("en", "8 x 40GB"), ("ar", "8 × 40GB")):
        claim = _claim(analyse(text, lang), "70B")
        assert "140 GB" in claim.why and times in claim.why and "320 GB" in claim.why, claim.why


def test_a_prefill_time_below_the_compute_floor_is_impossible():
    # 2 x 70e9 x 4,096 = 5.73e14 FLOPs; at 312e12 FLOP/s (A100 dense BF16, NVIDIA A100 datasheet) that takes 1.84 s,
    # so 400 ms would need 459% of the peak
    text = "Prefilling a 4,096-token prompt on a 70B model takes about 400 ms on one A100 (312 TFLOPS BF16)."
    for lang in ("en", "ar"):
        claim = _claim(analyse(text, lang), "400 ms")
        assert claim.verdict == "inconsistent" and "1.838 s" in claim.why and "459%" in claim.why, claim.why


def test_a_prefill_time_above_the_floor_says_the_share_of_peak_it_uses():
    # 2 x 7e9 x 2,048 / 989e12 = 28.99 ms (H100 SXM dense BF16 989 TFLOP/s); 28.99 / 60 = 48%
    doc = analyse("Prefill of a 2,048-token prompt for a 7B model takes 60 ms on one H100 (989 TFLOPS BF16).", "en")
    claim = _claim(doc, "60 ms")
    assert claim.verdict == "explained" and "28.99 ms" in claim.why and "48%" in claim.why


def test_no_prefill_floor_for_a_mixture_of_experts_or_several_chips():
    for text in ["Prefill of a 4,096-token prompt on a 70B MoE takes 400 ms on one A100 (312 TFLOPS BF16).",
                 "Prefill of a 4,096-token prompt on a 70B model takes 400 ms on 8 A100s (312 TFLOPS BF16 each)."]:
        assert not any("prompt of" in c.why for c in analyse(text, "en").claims), text


def test_a_rate_that_is_one_over_the_time_per_token_is_consistent():
    # one token per decoding step: 1 / 0.07 s = 14.3 tokens/s, which "14 tokens/second" states
    text = "Reading all weights takes roughly 70ms per decoding step. That's the floor: 14 tokens/second per A100."
    claim = _claim(analyse(text, "en"), "14 tokens")
    assert claim.verdict == "consistent" and "1 / 70 ms = 14.3" in claim.why


def test_a_batch_rate_is_not_set_against_one_steps_time():
    # 2,000 tokens/s is many users together, not 1 / 30 ms = 33: nothing is said, nothing is called wrong
    claim = _claim(analyse("At 30 ms per token we serve 2,000 tokens/s across the batch.", "en"), "2,000")
    assert claim.verdict != "inconsistent" and "1 / 30 ms" not in claim.why


def test_a_need_with_no_format_named_is_tried_at_sixteen_bits_and_said_so():
    # 70e9 x 2 bytes = 140 GB (16-bit, assumed and said: the text names no format), 1.8 times the 80 GB named after it
    claim = _claim(analyse("A 70B model needs 140 GB just for weights - a single A100 holds 80 GB.", "en"), "140 GB")
    assert claim.verdict == "consistent" and "assumed" in claim.why and "1.8 times the 80 GB" in claim.why
    # a need that 16-bit weights do not give is not said, and not called wrong
    other = _claim(analyse("A 70B model needs 168 GB just for weights.", "en"), "168 GB")
    assert other.verdict != "inconsistent" and "x 2 bytes" not in other.why


def test_a_model_said_to_be_a_size_is_its_weights_need():
    # 70e9 x 2 bytes (FP16) = 140 GB, which "is ~140 GB" states
    claim = _claim(analyse("A 70B-class dense model in FP16 is ~140 GB.", "en"), "140 GB")
    assert claim.verdict == "consistent" and "70B x 2 bytes (FP16) = 140 GB" in claim.why
