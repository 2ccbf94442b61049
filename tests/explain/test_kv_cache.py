"""A KV cache's size per token from the shape the text gives (checks/kv_cache.py). Texts written for these tests."""

from service.explain.pipeline import analyse


def test_a_kv_cache_size_per_token_is_worked_from_the_shape_the_text_gives():
    # 2 x 80 layers x 8 KV heads x 128 x 2 bytes = 327,680 bytes = 320 KiB per token (Llama 3 70B's shape, Meta's model card)
    claim = analyse("Llama 3 70B has 80 layers, 8 KV heads and a head dimension of 128, so in BF16 its KV cache takes "
                    "320 KB per token.", "en").claims[0]
    assert claim.verdict == "consistent" and "327.7 kB" in claim.why



def test_a_kv_size_that_fits_fewer_heads_names_grouped_query_attention_not_an_error():
    # with 64 heads the formula gives 2 x 80 x 64 x 128 x 2 = 2.62 MB; 320 KB fits 8 key-value heads
    claim = analyse("For a model with 80 layers, 64 attention heads, head dimension 128, and fp16 KV: roughly 320KB per "
                    "token.", "en").claims[0]
    assert claim.verdict == "needs_more" and "2.621 MB" in claim.why and "8 key-value heads" in claim.why
