"""Decoding's memory floor: a time per generated token against the weights' bytes over the memory bandwidth the text
states. Sentences written for these tests; the arithmetic is the roofline's memory side (weights read once per token)."""

from service.explain.pipeline import analyse


def _claim(text: str, quote_part: str):
    doc = analyse(text, "en")
    return next(c for c in doc.claims if quote_part in c.quote)


def test_a_floor_the_text_works_out_is_checked():
    # 140e9 B / 3.35e12 B/s = 41.8 ms: "~40 ms per token" agrees (an H100 SXM's 3.35 TB/s, NVIDIA datasheet)
    text = ("A 70B model in fp16 holds roughly 140 GB of weights. At batch size 1 every decode step reads all of them, "
            "so an H100 with 3.35 TB/s of HBM bandwidth is floor-limited to ~40 ms per token.")
    claim = _claim(text, "40 ms")
    assert claim.verdict == "consistent" and "41.79 ms" in claim.why and "140 GB" in claim.why


def test_a_measured_time_above_the_floor_is_said_as_a_multiple_of_it():
    # 16e9 / 1e12 = 16 ms; 48 ms measured is 3.0 times the floor: other work, not an error
    text = "The model's weights take 16 GB. On our card with 1 TB/s of memory bandwidth we measure 48 ms per token."
    claim = _claim(text, "48 ms")
    assert claim.verdict == "explained" and "3.0 times" in claim.why and "16 ms" in claim.why


def test_a_time_below_the_floor_or_not_per_token_says_nothing():
    below = "The weights take 16 GB and the card reads 1 TB/s of memory bandwidth; decoding runs at 5 ms per token."
    assert "16 ms" not in " ".join(c.why for c in analyse(below, "en").claims)  # fewer bytes read: MoE, speculation
    step = "The weights take 16 GB and the card reads 1 TB/s of memory bandwidth; one training step takes 900 ms."
    assert "16 ms" not in " ".join(c.why for c in analyse(step, "en").claims)


def test_a_decoding_step_in_a_passage_that_also_trains_is_serving_and_gets_the_floor():
    # a round-16 answer computed "an MFU of 1.885%" with the training formula (6 x parameters) for a decode rate, in a
    # passage that also speaks of training; written for this test in that shape: 140e9 / 2e12 = 70 ms per step
    text = ("Training is compute-bound. Inference is memory-bandwidth-bound: every weight is loaded for each generated "
            "token. A Llama 3 70B model in float16 requires 140 GB of weights. An A100 80GB GPU has ~2 TB/s memory "
            "bandwidth. Loading all weights takes roughly 70ms per decoding step. That's your hard floor: 14 "
            "tokens/second per A100.")
    doc = analyse(text, "en")
    said = " ".join(c.why for c in doc.claims)
    assert "MFU" not in said and "6 x" not in said
    assert _claim(text, "70ms").verdict == "consistent"
