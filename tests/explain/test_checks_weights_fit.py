"""Whether a model's weights alone fit a chip's memory. Sentences written for these tests; published figures are
sourced beside each case."""

from service.explain.compose import explain_offline
from service.explain.pipeline import analyse


def _claim(text: str, needle: str, lang: str = "en"):
    doc = analyse(text, lang)
    return doc, next(c for c in doc.claims if needle in c.quote)


def test_weights_in_a_named_format_against_the_stated_capacity():
    # 70B parameters x 2 bytes (bf16, 16 bits; data/precisions.json) = 140 GB > 80 GB (NVIDIA H100 SXM datasheet: 80 GB HBM3)
    _, over = _claim("Training a 70B model in bf16 does not fit on one 80GB H100.", "70B")
    assert "140 GB of weights alone, more than the 80GB" in over.why and over.verdict != "inconsistent"
    # 7B x 2 bytes = 14 GB: within 80 GB, and the training states are not set against the capacity as if it were their size
    _, within = _claim("A 7B model in bf16 fits easily in the 80GB of an H100.", "7B")
    assert "14 GB of weights, within the 80GB" in within.why and "112 GB" not in within.why


def test_in_arabic_with_the_width_in_bits():
    _, claim = _claim("نموذج من 70 مليار معامل بدقة 16 بت يستنفد سعة 80 جيجابايت في H100.", "70", "ar")
    assert "140 GB" in claim.why and "1.12 TB" not in claim.why


def test_no_format_named_or_a_per_gpu_share_says_nothing():
    # no format named: 16-bit is said as the assumption it is (data/precisions.json "weights_unnamed", vLLM --dtype auto);
    # 70B x 2 bytes = 140 GB > 80 GB
    _, bare = _claim("A 70B model exhausts the 80GB capacity of an H100.", "70B")
    assert "140 GB of weights alone" in bare.why and "we found none named in the text" in bare.why
    # a shard per GPU is not the whole model's weights
    _, shard = _claim("With FSDP each GPU holds a shard of the 70B model in bf16, well within its 80GB capacity.", "70B")
    assert "of weights" not in shard.why


def test_training_states_are_not_set_against_one_chip_when_the_text_spreads_them():
    # 7B x 16 bytes (mixed-precision Adam, ZeRO paper section 3.1) = 112 GB; on 8 GPUs with no sharding stated, whole
    # states per chip would be a guess (FSDP or a pipeline splits them), so nothing is said
    _, claim = _claim("I trained the 7B model on 8 H100 80GB GPUs at seqLen=2048.", "7B")
    assert "112 GB" not in claim.why
    # on one GPU they are whole: 112 GB does not fit in 80 GB
    _, one = _claim("I trained the 7B model on one H100 80GB GPU.", "7B")
    assert "112 GB" in one.why


def test_an_arabic_answer_to_an_english_sentence_names_no_english_words_in_the_check():
    _, claim = _claim("A single 70B parameter model in 16-bit precision exhausts the 80GB capacity of an H100.", "70B", "ar")
    assert "70B × 2 بايت (16 بت) = 140 GB" in claim.why and "parameter" not in claim.why


def test_a_model_bigger_than_one_card_is_sized_in_16_bit_when_no_format_is_named():
    # 34B x 2 bytes (16-bit, vLLM's --dtype auto loads bf16/fp16 checkpoints as they are) = 68 GB > 40 GB (A100 40GB)
    _, over = _claim("What if the reward model is bigger than one GPU can hold, for example 34B on a 40GB A100?", "34B")
    assert "34B x 2 bytes (16-bit" in over.why and "= 68 GB of weights alone, more than the 40GB" in over.why
    assert over.verdict == "explained"
    # the size written before the card's name with a possessive ("40GB's A100") is that card's memory too
    _, possessive = _claim("What if the reward model is bigger than one GPU can hold, for example 34B with 40GB's A100?", "34B")
    assert "68 GB of weights alone" in possessive.why
    # in Arabic: the same sum, the assumption said in Arabic
    _, arabic = _claim("ماذا لو كان النموذج أكبر مما تستوعبه بطاقة واحدة، مثل نموذج 34B على بطاقة A100 بسعة 40 جيجابايت؟", "34B", "ar")
    assert "= 68 GB للأوزان وحدها" in arabic.why and "16 بت" in arabic.why


def test_no_16_bit_guess_when_they_would_fit_or_the_text_quantises():
    # 13B x 2 bytes = 26 GB fits in 40 GB: an assumed width that changes nothing is not said
    _, fits = _claim("What if the reward model is bigger than one GPU can hold, for example 13B on a 40GB A100?", "13B")
    assert "of weights" not in fits.why
    # a quantised copy (GPTQ) has another width: the weights' size would be a guess
    _, quantised = _claim("What if the reward model is bigger than one GPU can hold, for example 34B quantized with GPTQ "
                          "on a 40GB A100?", "34B")
    assert "of weights" not in quantised.why


def test_nf4_named_anywhere_is_a_format_so_no_16_bit_default_is_said():
    # a round-9 reader: "16-bit ... the text names none" beside a text that loads its weights in NF4 (QLoRA's 4-bit)
    claims = explain_offline("The weights are stored in NF4. A 70B model exhausts the 80GB capacity of an H100.", "en")["claims"]
    assert not any("16-bit" in c["why"] for c in claims)
