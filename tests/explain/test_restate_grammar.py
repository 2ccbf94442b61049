"""Issue 18: the plain restatement stays grammatical: a term expanded once, where the sentence can carry it."""

from service.explain import restate
from service.explain.pipeline import analyse


def plain(text: str, lang: str = "en") -> str:
    return restate.plain(analyse(text, lang))


def test_nothing_is_pasted_inside_a_compound_a_unit_or_code():
    text = ("Kimi K2 (1T-32A) trains a 70B-parameter draft over 400 Gb/s links with "
            "`--pipeline-model-parallel-size 4` on a 72-GPU rack.")
    out = plain(text)
    for kept in ("(1T-32A)", "70B-parameter draft", "400 Gb/s links", "`--pipeline-model-parallel-size 4`", "72-GPU rack"):
        assert kept in out, (kept, out)
    assert "gigabits per second" not in out


def test_config_values_and_flags_stay_as_written():
    text = "Our launch line sets --tensor-model-parallel-size 8 for TP.\ntensor_model_parallel_size: 8\nprecision: bf16"
    out = plain(text)
    assert "--tensor-model-parallel-size 8" in out
    assert "tensor_model_parallel_size: 8" in out and "precision: bf16" in out


def test_arabic_is_never_pasted_inside_code():
    text = "نضبط `TP=8` داخل العقدة ونستخدم PP بين العقد."
    out = plain(text, "ar")
    assert "`TP=8`" in out
    assert "توازي خطوط الأنابيب (PP)" in out


def test_plural_acronyms_get_plural_expansions():
    out = plain("We moved from GPUs to TPUs last year.")
    assert "graphics processing units (GPUs)" in out and "Tensor Processing Units (TPUs)" in out
    assert "Unit (TPUs)" not in out and "unit (GPUs)" not in out


def test_a_term_the_text_glosses_itself_is_not_glossed_again():
    out = plain("The 8 GPUs (H100s) share one NVSwitch.")
    assert "(GPUs) (H100s)" not in out and "units (GPUs)" not in out


def test_a_term_is_expanded_once_where_it_first_appears():
    out = plain("We use PP across nodes. PP hides the slow links. Without PP we would be stuck.")
    assert out.count("pipeline parallelism (PP)") == 1
    assert out.index("pipeline parallelism (PP)") < out.index("PP hides")


def test_counts_agree_with_their_noun():
    assert "tensor parallelism across 1 GPU " in plain("We ran TP 1 with PP 4 on the small model.") + " "
    arabic = plain("شغلنا TP 1 وTP 2 وTP 16 على العنقود.", "ar")
    assert "شريحة واحدة" in arabic and "شريحتين" in arabic and "16 شريحة" in arabic


def test_no_chip_variant_the_text_did_not_say():
    out = plain("We trained on 512 H100s for a month.")
    assert "SXM" not in out and "512 H100 GPUs" in out


def test_arabic_never_doubles_the_head_noun():
    out = plain("تتمتع وحدات TPU بعرض نطاق عال بين الشرائح.", "ar")
    assert "وحدات وحدة" not in out


def test_arabic_never_says_a_noun_twice():
    assert "مراحل مراحل" not in plain("نستخدم PP=8 مراحل في التدريب.", "ar")
    assert "شرائح شرائح" not in plain("نستخدم TP=4 شرائح داخل العقدة.", "ar")
    assert "الدفعة الصغرى" not in plain("نستخدم 16 دفعة صغرى microbatches.", "ar")  # the author's own gloss stays
    assert "a pipeline of 8 stages." in plain("We use PP 8 stages.")


def test_identifiers_long_glosses_and_model_sizes_stay_as_written():
    out = plain("SHARD_GRAD_OP beats ZB_2P here. The config has 575 TFLOPs for MXFP8. Yes I profiled the 5.1B params model.")
    assert "SHARD_GRAD_OP beats ZB_2P" in out
    assert "MXFP8." in out and "block scales" not in out  # a gloss with a colon belongs in the terms section
    assert "5.1B params" in out and "-parameter" not in out
