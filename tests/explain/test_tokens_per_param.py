"""Training tokens per parameter beside the compute-optimal ratio (checks/tokens_per_param.py)."""

from service.explain.pipeline import analyse


def _whys(text: str, lang: str = "en") -> str:
    return " ".join(c.why for c in analyse(text, lang).claims)


def test_a_small_data_run_is_said_to_be_below_compute_optimal():
    # Argonne's 4.9B model card (bench/corpus, "argonne-4p9b-single-dgx-tp"): 22e9 / 4.9e9 = 4.5 tokens per parameter
    text = ("A 4.9 billion parameter decoder-only transformer language model trained from scratch using tensor parallelism "
            "on a single DGX A100 node. The model was trained on ~22 billion tokens from FineWeb. Chinchilla would give it more.")
    why = _whys(text)
    assert "4.5 training tokens per parameter" in why and "far less data" in why
    # stop 60's audit (wave 6): the same card without a word on how much data suits the model gets no Chinchilla ratio,
    # a comparison nobody asked for
    plain = text.replace(" Chinchilla would give it more.", "")
    assert "per parameter" not in _whys(plain)


def test_chinchilla_itself_is_near_and_an_overtrained_model_above():
    # Hoffmann et al. 2022, Table 3: 70B on 1.4T tokens, 20 per parameter
    assert "about the compute-optimal amount" in _whys("Following Chinchilla, we pre-trained a 70B model on 1.4T tokens.")
    # Meta, Llama 3 model card: the 8B model trained on over 15T tokens, 1,875 per parameter
    assert "far more data than compute-optimal" in _whys("Llama 3 8B was over-trained on over 15T tokens.")


def test_no_ratio_for_a_mixture_of_experts_or_outside_training():
    # DeepSeek-V3 technical report: 671B total, 37B active, 14.8T tokens; Chinchilla's ratio counts dense parameters
    assert "per parameter" not in _whys("DeepSeek-V3 (671B total, 37B active) was trained on 14.8T tokens.")
    assert "per parameter" not in _whys("The 8B model served 15T tokens last month.")
