"""Issue 18, terms: flags and config keys glossed from the option tables, naming a framework only where the text
names it, and a dotted key's field read in its section's sense. All texts are written for these tests."""

from service.explain.document import Document
from service.explain.terms import read_terms


def terms(text: str, lang: str = "en") -> dict[str, dict]:
    doc = Document(text=text, lang=lang)
    read_terms(doc)
    return {t["found_as"]: t for t in doc.terms}


def test_a_flag_is_no_frameworks_setting_where_the_text_names_none():
    item = terms("Halving --micro-batch-size freed enough memory for the longer sequences.")["--micro-batch-size"]
    assert item["expansion"] == "a command-line flag" and "Megatron" not in item["expansion"]
    assert "sequences" in item["definition"]


def test_a_flag_is_its_frameworks_setting_where_the_text_names_it():
    item = terms("In Megatron, halving --micro-batch-size freed enough memory.")["--micro-batch-size"]
    assert item["expansion"] == "a Megatron-LM setting"


def test_arabic_flag_without_a_framework():
    item = terms("خفضنا --micro-batch-size إلى النصف فتوفرت الذاكرة.", "ar")["--micro-batch-size"]
    assert item["expansion"] == "خيار في سطر الأوامر"


def test_a_dotted_keys_field_takes_its_sections_sense():
    """'stage' in zero_optimization.stage is ZeRO's stage: no pipeline stage is listed."""
    found = terms("We set zero_optimization.stage to 3 and kept offloading off.")
    assert "zero_optimization.stage" in found
    assert not any(t["id"] == "pipeline-stage" for t in found.values())


def test_the_words_of_a_snake_case_key_keep_their_sense():
    found = terms("MaxText reads dcn_pipeline_parallelism from the config; we set it to 4.")
    assert any(t["id"] == "pipeline-parallelism" for t in found.values())


def test_a_rate_label_is_read_word_by_word():
    found = terms("| Time/step | Sequences/Sec |\n| 1.2 | 300 |\nIt runs at 0.5 s/iter with 6 FLOPs/param.")
    assert found["Time/step"]["definition"] == "A rate or column label that reads “time per step”."  # serving has steps too
    assert "seconds per iteration" in found["s/iter"]["definition"]
    assert "floating-point operations per parameter" in found["FLOPs/param"]["definition"]
    assert "sequences per second" in found["Sequences/Sec"]["definition"]


def test_the_word_after_per_is_singular_in_both_languages():
    # a round-15 reader: "ms/token" read "milliseconds per tokens", «لكل الرموز» (for all the tokens)
    assert "milliseconds per token”" in terms("Decode runs at 45 ms/token.")["ms/token"]["definition"]
    assert "لكل رمز" in terms("Decode runs at 45 ms/token.", "ar")["ms/token"]["definition"]


def test_a_slash_between_ordinary_words_is_no_label():
    found = terms("Use fewer/bigger buckets and/or a larger batch in the forward/backward pass.")
    assert not any(t["id"].startswith("label:") for t in found.values())


def test_arabic_rate_label():
    item = terms("الزمن Time/step هو 1.2 ثانية.", "ar")["Time/step"]
    assert item["definition"] == "تسمية معدل أو عمود تعني: الزمن لكل خطوة."


def test_mesh_axes_written_with_degrees_are_their_parallelism():
    from service.explain import term_display
    found = terms("Would data=16 with model=4 beat fsdp=64 on this slice?")
    model = next(t for t in found.values() if t["id"] == "model-parallelism")
    assert term_display.display(model, "en") == ("model=4", "model parallelism")
    assert any(t["id"] == "data-parallelism" for t in found.values())


def test_a_single_axis_like_row_is_not_read_as_a_mesh():
    assert not any(t["id"] == "data-parallelism" for t in terms("The table row data: 4 is fine.").values())


def test_a_technique_named_in_the_text_is_not_its_frameworks_name():
    """'ZeRO-3' in an FSDP text does not make cpu_offload DeepSpeed's (deprecated) setting: read by its words."""
    item = terms("FSDP with cpu_offload=True is similar to ZeRO-3 and trains larger models.")["cpu_offload"]
    assert "DeepSpeed" not in item["expansion"] and "Deprecated" not in item["definition"]


def test_a_key_is_read_by_its_words():
    # (reshard_after_forward, read so before, is now the resharding entry's: round 41's readers found its reading empty)
    item = terms("With amax_compute_algo=max the FP8 scales follow the largest recent value.")["amax_compute_algo"]
    # a glossary concept its words name is said with its meaning (round 47: "ring_attn_size" told nothing of ring attention)
    assert item["definition"] == ("A setting of amax (the largest absolute value in a tensor); its name reads “absolute "
                                  "maximum (amax) compute algorithm”.")


def test_a_camel_case_name_in_code_is_read_by_its_words():
    # (a name the glossary has, DistributedFusedAdam, gets its entry instead)
    found = terms("Switching to DistributedAdam with NumProcess 8 cut the memory.")
    assert found["DistributedAdam"]["definition"] == "A name in code that reads “distributed Adam optimizer”."
    assert found["NumProcess"]["definition"] == "A name in code that reads “number of processes”."


def test_a_camel_case_product_or_known_technique_is_not_read_word_by_word():
    found = terms("DeepSpeed and DataParallel both wrap the model.")
    assert not any(t["id"].startswith("key:") for t in found.values())
