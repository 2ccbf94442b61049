"""Data-parallel replicas a layout implies. Sentences written for these tests; published figures are sourced beside each case."""

from service.explain.pipeline import analyse


def _claim(text: str, needle: str, lang: str = "en"):
    doc = analyse(text, lang)
    return doc, next(c for c in doc.claims if needle in c.quote)


def test_chips_over_tensor_and_pipeline_degrees_are_the_replicas():
    # world size = DP x TP x PP (Narayanan et al. 2021, Megatron-LM, section 2): 128 / (8 x 8) = 2
    _, claim = _claim("We train on 128 GPUs with TP=8 and PP=8.", "128")
    assert "(TP=8 x PP=8) per model copy = 2 data-parallel replicas" in claim.why
    # 100 / 64 is no whole number: a misreading or another split, so nothing is said
    _, odd = _claim("We train on 100 GPUs with TP=8 and PP=8.", "100")
    assert "replicas" not in odd.why
    # the text states its own DP: the degrees check speaks, not this one
    _, stated = _claim("We train on 128 GPUs with TP=8, PP=8 and DP=2.", "128")
    assert "per model copy" not in stated.why


def test_chips_over_one_model_copys_chips():
    # BLOOM (BigScience 2022 training notes): 384 A100s, one model copy on 48 GPUs (TP4 x PP12): 384 / 48 = 8 replicas
    text = "Training used 384 A100 GPUs.\n- one copy of the model takes 48 GPUs"
    _, claim = _claim(text, "copy")
    assert "384 A100 GPUs / 48 GPUs per model copy = 8 data-parallel replicas" in claim.why
    _, arabic = _claim("استخدم التدريب 384 وحدة A100. وتشغل نسخة واحدة من النموذج 48 وحدة.", "نسخة", "ar")
    assert "= 8" in arabic.why


def test_a_degree_of_one_splits_nothing_so_no_replicas_are_said():
    # written for this test: "cp=1" on 8 GPUs does not say one GPU holds a whole copy
    doc = analyse("The baseline runs at cp=1 on 8 H100 GPUs.", "en")
    assert not any("replica" in c.why for c in doc.claims)


def test_a_copy_too_big_for_its_chips_is_not_read_as_replicas():
    # Llama 3.1 405B in 16-bit weights is 810 GB. tp=8 x pp=2 = 16 H100s hold 1,280 GB: 64 / 16 = 4 copies.
    # tp=8 alone is 8 x 80 = 640 GB, too small for one copy: the text shards in a way it does not state, nothing is said
    fits = analyse("We train Llama 3.1 405B with tp=8 and pp=2 on 64 H100 GPUs.", "en")
    assert any("4" in c.why and "replica" in c.why for c in fits.claims)
    too_big = analyse("We train Llama 3.1 405B with tp=8 on 64 H100 GPUs.", "en")
    assert not any("replica" in c.why for c in too_big.claims)
