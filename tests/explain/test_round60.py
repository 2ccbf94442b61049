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


def test_links_to_the_sentence_before_are_not_restated():
    # round 59 P07 (vLLM#6854): "The text says that result is that GPU is often idle"; P09 (pytorch/xla#3510): "reports
    # that for following up on this, their ... issue"; pack 107 P01 (an Arabic lesson on EAGLE-3): «يوضح النص أنّ ولهذا
    # السبب ينتقل ألفا» (a blind reader: "for this reason" points to nothing)
    from service.explain import connectives

    assert connectives.without("Result is that the GPU is often idle", "en") == "the GPU is often idle"
    assert connectives.without("The result is 5% faster", "en") == "The result is 5% faster"  # a result, no link
    assert connectives.without("ولهذا السبب يرتفع معدل القبول", "ar") == "يرتفع معدل القبول"
    gist = _gist("Following up on this: my OOM issue on the big pod is actually due to fusion by the compiler, not the "
                 "all-gather itself. Inserting barriers avoids it.")
    assert "following up" not in gist.lower() and "due to fusion" in gist, gist


def test_the_sentence_after_a_tldr_goes_on_with_the_summary():
    # round 59 P07 (vLLM#6854): "TLDR; There is high CPU overhead ... Multi-step decoding will be able to amortize all
    # these overheads" - the second sentence of the author's summary weighed as little as a list item
    from service.explain import gist_side, pipeline

    doc = pipeline.analyse("TLDR; Each step pays a fixed CPU cost. Batching steps will be able to spread that cost out.\n"
                           "The scheduler runs every step. Another line follows here.", "en")
    said = [doc.text[a:b] for a, b in doc.sentences]
    at = {s.split()[0]: gist_side.summary_at(doc, i) for i, s in enumerate(said)}
    assert at["Batching"] and not at["The"] and not at["Another"], at
