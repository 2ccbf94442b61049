"""Round 42 (issue 18): the point chosen with features fitted on people's gists, a markdown table's rows said against
its first row, and what rounds 31-32's readers found (a typo'd key read as a setting, a heading run into a sentence,
resharding in FSDP's sense)."""

import json
import re

import pytest

from calculators.resources import data_dir
from service.explain import claims, gist_select, pipeline
from service.explain.compose import explain_offline


def _gist(text: str, lang: str = "en") -> str:
    return " ".join(item["text"] for item in explain_offline(text, lang)["gist"])


# ------------------------------------------------------------------------------------------- 1. the point's features

def test_the_fitted_weights_are_recorded_with_their_method_and_held_out_figures():
    table = json.loads((data_dir() / "gist_selection.json").read_text(encoding="utf-8"))
    assert set(table["weights"]) == set(gist_select.FEATURES)
    held_out = table["figures"]["held_out"]
    # fitted on dev and even rounds, reported on the others: the fitted choice finds the closest sentence more often
    assert held_out["passages"] > 400 and held_out["fitted_closest"] > held_out["hand_closest"]
    assert table["band"] > 0 and "--band" in table["method"]


def test_a_sentence_central_to_the_passage_with_its_terms_and_figures_outranks_an_opening_aside():
    text = ("Thanks for the quick reply, and sorry for the delay on my side. In our runs, FP8 training with "
            "Transformer Engine on 64 H100 GPUs reached 42% MFU against 35% MFU in BF16, because the GEMMs run at twice "
            "the rate. Let me know if you need anything else.")
    gist = _gist(text)
    assert "42% MFU" in gist and "sorry" not in gist.lower()


def test_a_question_the_author_asks_stays_the_point_over_a_richer_premise():
    text = ("I run Llama-3 70B with TP=8 on 8 H100 GPUs at 1,200 tokens/s and 45 ms per token with vLLM 0.6 and FP8 weights. "
            "Why is the decode throughput lower than on TGI with the same settings?")
    assert "asks why" in _gist(text) or "ask why" in _gist(text)


def test_content_words_drop_stop_words_in_both_languages_and_fold_plurals():
    assert gist_select.content_words("The GPUs are in the nodes") == {"gpu", "node"}
    assert gist_select.content_words("تعمل الشرائح في العقدة") == {"تعمل", "الشرائح", "العقدة"}


def test_features_are_the_same_for_a_sentence_whichever_passage_object_computes_them():
    doc = pipeline.analyse("FSDP shards the model. It needs all-gathers in every layer. This costs bandwidth.", "en")
    shared = gist_select.Passage(doc)
    assert gist_select.features(doc, 1, shared) == gist_select.features(doc, 1)
    assert 0.0 <= gist_select.features(doc, 1)["central"] <= 1.0


# ------------------------------------------------------------------------------------------- 2. a table's rows

TABLE = """In my testing, even though there is a large proportion of reuse, using LMCache with CPU offload is worse than the vLLM directly recomputing.

| | Request processing rate | Prefill rate | Decode rate | Total Cost Time |
|---|---|---|---|---|
| vLLM only | 14.68 reqs/sec | 44025.28 toks/s | 133.82 toks/s | 305.93 s |
| vLLM + CPU (500GB) | 13.13 reqs/sec | 39360.32 toks/s | 119.85 toks/s | 339.83 s |
"""


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_tables_second_row_is_said_against_its_first_column_by_column(lang):
    # the LMCache issue of round 32: a reader worked out that every rate is about 10.6% lower and the time 11% higher
    result = explain_offline(TABLE, lang)
    row = next(c for c in result["claims"] if "13.13" in c["quote"])
    assert row["verdict"] == "explained"
    for change in ("(−10.6%)", "(−10.4%)", "(+11.1%)"):
        assert change in row["why"]
    assert "Request processing rate" in row["why"] and "vLLM only" in row["why"]
    first = next(c for c in result["claims"] if "14.68" in c["quote"] and "13.13" not in c["quote"])
    assert not first["calculations"]  # the first row is what the others are said against


def test_a_table_row_is_never_the_gist_and_the_claim_is_named_by_its_columns():
    result = explain_offline(TABLE, "en")
    assert "|" not in _gist(TABLE)
    assert "**vLLM + CPU (500GB): Request processing rate 13.13 reqs/sec, Prefill rate" in result["explanation"]


def test_a_table_without_a_separator_line_or_with_mixed_kinds_in_a_column_is_not_compared():
    no_separator = TABLE.replace("|---|---|---|---|---|\n", "")
    row = next(c for c in explain_offline(no_separator, "en")["claims"] if "13.13" in c["quote"])
    assert "Against the row" not in (row.get("why") or "")
    mixed = TABLE.replace("339.83 s", "339.83 GB")
    row = next(c for c in explain_offline(mixed, "en")["claims"] if "13.13" in c["quote"])
    assert "Total Cost Time" not in row["why"] and "Prefill rate" in row["why"]


# ------------------------------------------------------------------------------------------- 3. readers' findings

def test_a_key_with_a_doubled_word_is_a_typo_not_a_setting_of_its_own():
    # PyTorch PR 118017 (FSDP2): "ZeRO-1 is reshard_after_after_forward=False without gradient reduction"
    text = ("This PR adds the reshard_after_forward: Union[bool, int] arg. reshard_after_forward=True == FULL_SHARD == ZeRO-3. "
            "ZeRO-1 is reshard_after_after_forward=False without gradient reduction.")
    terms = [t["found_as"] for t in explain_offline(text, "en")["terms"]]
    assert "reshard_after_forward" in terms and "reshard_after_after_forward" not in terms


def test_resharding_in_an_fsdp_passage_is_freeing_the_gathered_weights():
    text = "With FSDP2, reshard parameters after forward; unshard (all-gather) them again in backward."
    entry = next(t for t in explain_offline(text, "en")["terms"] if t["id"] == "resharding")
    assert "gathered" in entry["definition"] and "checkpoint" not in entry["definition"]
    text = "Loading a checkpoint saved with TP=8 into TP=4 needs resharding of every weight."
    entry = next(t for t in explain_offline(text, "en")["terms"] if t["id"] == "resharding")
    assert "checkpoint" in entry["definition"]


def test_a_heading_run_into_the_sentence_before_it_is_split_off():
    # peakinfer's decode page, its line breaks lost: "... not compute Math for 70B model: - Weights: ..."
    text = ("During decode (token generation): - Load all model weights for each token - Perform one forward pass - Memory "
            "bandwidth is the bottleneck, not compute Math for 70B model: - Weights: 70B params × 2 bytes (FP16) = 140 GB")
    spans = [text[a:b] for a, b in claims.sentences(text, [])]
    assert "Memory bandwidth is the bottleneck, not compute" in spans and "Math for 70B model:" in spans
    assert re.search(r"not compute\.?$", _gist(text).rstrip("."))


@pytest.mark.parametrize("text", [
    "We trained it on the cluster for Llama models:",  # a name after a preposition, not a heading
    "Results are below:",  # too short to hold a sentence before the heading
    "It runs fine on the H100 Setup one and setup two and setup three and four and five:",  # longer than a heading
])
def test_a_capitalised_word_that_starts_no_heading_keeps_its_sentence_whole(text):
    assert [text[a:b] for a, b in claims.sentences(text, [])] == [text]


# ------------------------------------------------------------------------------------------- 5. Arabic reported speech

@pytest.mark.parametrize("clause, said", [
    # round 32's readers: "يذكر النص أنّ استهلك" and "أنّ بحث" (a tenth-form past, an indefinite noun) were no Arabic
    ("استهلك تدريب GPT-4 نحو 50 جيجاوات في الساعة", "أنّ تدريب GPT-4 استهلك نحو 50 جيجاوات في الساعة"),
    ("انخفض زمن الاستجابة إلى النصف", "أنّ زمن الاستجابة انخفض إلى النصف"),
    ("بحث جديد من جامعة كاليفورنيا وجد أن GPT-5 يستهلك 18 واط", "أنه بحث جديد من جامعة كاليفورنيا وجد أن GPT-5 يستهلك 18 واط"),
    ("استخدام الذاكرة يرتفع مع طول السياق", "أنّ استخدام الذاكرة يرتفع مع طول السياق"),  # a construct: no case ending written
    ("دراسة جديدة وجدت ذلك", "أنّ دراسة جديدة وجدت ذلك"),  # -ة: the accusative is written the same
    ("معظم النماذج تحتاج إلى ذاكرة أكبر", "أنّ معظم النماذج تحتاج إلى ذاكرة أكبر"),
])
def test_an_arabic_clause_after_the_reporting_particle_stays_grammatical(clause, said):
    from service.explain.arabic_clause import reported
    assert reported(clause) == said


def test_verbal_nouns_of_the_derived_forms_are_not_read_as_verbs():
    from service.explain.arabic_clause import is_verb
    assert is_verb("استهلك") and is_verb("اعتمد") and is_verb("انخفض")
    assert not any(is_verb(w) for w in ("استخدام", "اتصال", "انتشار", "استهلاك"))


# ------------------------------------------------------------------------------------------- 6. keys read by their words

@pytest.mark.parametrize("key, plain", [
    ("num_warps", "number of warps"),  # Triton's kernel config (tritonbench, round 32)
    ("max_num_seqs", "maximum number of sequences"),  # vLLM's engine argument
    ("allgather_bucket_size", "all-gather bucket size"),  # DeepSpeed's ZeRO config
    ("sp_size", "sequence-parallel size"),
])
def test_a_key_no_table_explains_is_read_by_its_words(key, plain):
    from service.explain.key_terms import _by_words
    assert _by_words(key, "en").startswith(plain)
    assert "))" not in _by_words(key, "ar")  # each word with its meaning, no bracket inside a bracket


def test_a_lora_rank_is_not_read_as_a_process_rank():
    from service.explain.key_terms import _by_words
    assert _by_words("kv_lora_rank", "en") is None  # unread rather than "rank (one process of the job)"


def test_a_precision_written_after_a_times_sign_is_no_chip():
    # GPTQ issue 13: "into a fused 2xFP16 value" was restated as "a fused 2 chips value"
    doc = pipeline.analyse("The kernels decode two weights at once into a fused 2xFP16 value. We ran it on 2x A100.", "en")
    chips = [f.quote for f in doc.figures if f.quantity == "n_chips"]
    assert chips == ["2x A100"]


@pytest.mark.parametrize("text", ["So far it uses the llama2-7b chat model as the proof of concept.",
                                  "It is implemented without any JetStream API so that further integration is needed."])
def test_so_far_and_so_that_are_no_conclusion(text):
    assert not claims.cue("point", text)


def test_gigawatts_per_hour_in_arabic_news_is_read_as_the_energy_unit_it_means():
    # vietnamvn (round 32): "استهلك تدريب GPT-4 ما يصل إلى 50 جيجاوات في الساعة"; readers wanted the unit named
    text = "استهلك تدريب GPT-4 ما يصل إلى 50 جيجاوات في الساعة، وهو ما يكفي لتشغيل مدينة سان فرانسيسكو لمدة ثلاثة أيام."
    entry = next(t for t in explain_offline(text, "ar")["terms"] if t["id"] == "gigawatt-hour")
    assert "جيجاوات في الساعة" in entry["definition"] and "كمية طاقة" in entry["definition"]


def test_huaweis_superpod_written_in_arabic_letters_is_found_in_huaweis_sense():
    # aletihad (round 32): «تقنية جديدة تُسمى "سوبر بود" تمكن من ربط 15,488 شريحة» went unexplained
    text = "أعلنت شركة هواوي عن تقنية جديدة تُسمى \"سوبر بود\" تمكن من ربط 15,488 شريحة ذكاء اصطناعي في عنقود واحد."
    entry = next(t for t in explain_offline(text, "en")["terms"] if t["id"] == "superpod")
    assert "Huawei" in entry["definition"] and "not NVIDIA's DGX SuperPOD" in entry["definition"]


def test_a_pull_requests_title_that_allows_a_setting_is_said_as_the_change():
    # tritonbench 1149 (round 32): "The text says that Allow EPILOGUE_SUBTILE <= 2 on Hopper"
    gist = _gist("Allow EPILOGUE_SUBTILE <= 2 on Hopper: the fp8 GEMM autotune space now includes epilogue subtiling, "
                 "which gives +12.2% on large shapes.")
    assert gist.startswith("The change allows EPILOGUE_SUBTILE")
    # advice in a tutorial stays advice: no code name after the verb
    assert "advice is to enable activation checkpointing" in _gist(
        "Enable activation checkpointing to save memory on long sequences with FSDP and a 70B model.")


def test_a_headings_label_before_a_named_chips_claim_is_said_as_its_topic():
    # clarifai (round 32): "The text says that performance trade-offs: MI300X delivers ..."
    gist = _gist("Performance trade‑offs: MI300X delivers 40 % lower latency for memory‑bound Llama2‑70B inference and "
                 "2.7× faster time to first token for Qwen models.")
    assert "for performance trade‑offs, MI300X delivers" in gist


# ------------------------------------------------------------------------------------------- 7. runs of labelled values

def _pieces(text: str) -> list[str]:
    return [text[a:b] for a, b in claims.sentences(text, [])]


def test_labelled_values_run_into_one_line_are_cut_before_each_label():
    # DeepSpeed-MII 314 and nccl-tests 112 (round 32), their line breaks lost
    text = ("They sent all the requests together at the same time Request prompt length: 2,000 tokens Max new tokens: "
            "128 token GPU: 1x A6000 48GB Model: mistralai/Mistral-7B-v0.1")
    assert _pieces(text) == ["They sent all the requests together at the same time", "Request prompt length: 2,000 tokens",
                             "Max new tokens: 128 token", "GPU: 1x A6000 48GB", "Model: mistralai/Mistral-7B-v0.1"]
    text = ("NCCL version is: 2.11.4 CUDA version is: 11.6 GPU Topo: nccl-tests command: As the result shows, the average "
            "bus bandwidth is only 9.84 GB/s (about 80Gbps), which is far away from the link.")
    assert _pieces(text)[-1].startswith("As the result shows")
    assert "as the result shows, the average bus bandwidth is only 9.84 GB/s" in _gist(text)


def test_a_unit_stays_with_its_value_and_a_label_of_words_is_one_label():
    text = "6ND: 6 * 15T * 8B = 7.2e23 FLOPs Hardware: 1.46M * 9.9e14 * 3600 * 0.4 = 2.08e24 FLOPs Geometric mean: 1.224e24"
    assert _pieces(text) == ["6ND: 6 * 15T * 8B = 7.2e23 FLOPs", "Hardware: 1.46M * 9.9e14 * 3600 * 0.4 = 2.08e24 FLOPs",
                             "Geometric mean: 1.224e24"]
    rows = "Strategy A on 2 nodes: 60.1 samples/s MFU: 0.41\nFor comparison, strategy B on 8 nodes: 96.4 samples/s MFU: 0.30"
    assert _pieces(rows) == rows.split("\n")  # one label in a line, and "A on 2 nodes" is no label of its own


def test_the_texts_own_other_estimate_of_flops_is_not_set_against_six_n_d():
    # Epoch AI's note on Llama 3.1 8B: two estimates of one run, 6ND = 7.2e23 and hours x peak x utilisation = 2.08e24
    text = ("Huggingface page says 3.1-8B used 1.46M H100 hours and trained over 15T tokens. I'll assume utilization of 40% "
            "6ND: 6 * 15T * 8B = 7.2e23 FLOPs Hardware: 1.46M * 9.9e14 * 3600 * 0.4 = 2.08e24 FLOPs")
    verdicts = [c["verdict"] for c in explain_offline(text, "en")["claims"]]
    assert "inconsistent" not in verdicts


# ------------------------------------------------------------------------------------------- 8. a percentage faster

DECODE = ("A100: 140 GB / 2.0 TB/s = 70ms minimum per token. H100: 140 GB / 3.35 TB/s = 42ms minimum per token. "
          "H100 is 40% faster for decode, just from bandwidth.")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_percentage_faster_about_the_two_times_before_is_redone_both_ways(lang):
    # peakinfer (round 32): a reader noted 42 ms is 40% less time but 1.67x the speed; the claim was left "stated"
    claim = next(c for c in explain_offline(DECODE, lang)["claims"] if "40%" in c["quote"])
    assert claim["verdict"] == "explained" and "40%" in claim["why"] and "67%" in claim["why"]
    assert ("time saved" if lang == "en" else "الوقت الموفَّر") in claim["why"]


def test_a_percentage_with_three_times_before_it_is_not_guessed():
    text = DECODE.replace("H100 is 40%", "B200: 140 GB / 8 TB/s = 18ms minimum per token. H100 is 40%")
    claim = next(c for c in explain_offline(text, "en")["claims"] if "40% faster" in c["quote"])
    assert "more speed" not in (claim.get("why") or "")


# ------------------------------------------------------------------------------------------- 9. a company's deed

def test_a_company_that_announces_a_system_of_chips_is_said_across_languages():
    # aletihad (round 32): the English answer to this Arabic report said only that it would not summarise it
    text = "أعلنت شركة هواوي عن تقنية جديدة تُسمى \"سوبر بود\" تمكن من ربط 15,488 شريحة ذكاء اصطناعي في عنقود واحد."
    assert _gist(text, "en") == "The article reports that Huawei announced SuperPOD with 15,488 chips"
    assert _gist("Meta trained Llama 3 on 16,384 H100 GPUs.", "ar") == "يذكر المقال أن Meta درّبت Llama 3 على 16,384 شريحة H100"
    # what is announced is the first name after the verb, or nothing: never a later one ("Blackwell GPUs")
    assert "Blackwell" not in _gist("NVIDIA announced the GB200 NVL72 with 72 Blackwell GPUs.", "ar")


def test_a_factor_written_as_a_round_number_is_read_as_rounded():
    # distributed-llama 58 (round 33): "your result is 199.60 ms, 50 times higher" than 4.08 ms (48.9x) was called inconsistent
    text = "So, the average transfer time should be 4.08ms. However, your result is 199.60 ms, {} times higher."
    verdict = lambda n: next(c["verdict"] for c in explain_offline(text.format(n), "en")["claims"] if "times" in c["quote"])  # noqa: E731
    assert verdict(50) == "consistent" and verdict(60) == "inconsistent"


# ------------------------------------------------------------------------------------------- 10. after round 33's judging

@pytest.mark.parametrize("text, term", [
    # round 33's readers: "AI: one that means that a single chip could deliver up to 650 TFLOPS, as the text defines it"
    ("Trn2 instances could scale up to 100,000 processors, delivering 65 ExaFLOPS of compute for AI, which means that a "
     "single chip could deliver up to 650 TFLOPS.", "AI"),
    # "Nvidia: one that requires data to travel back and forth": the clause is of the HBM before "like Nvidia"
    ("Instead of using external High Bandwidth Memory (HBM) like Nvidia, which requires data to travel back and forth, "
     "Groq uses SRAM built directly onto the chip.", "Nvidia"),
])
def test_a_which_clause_of_consequence_or_after_like_defines_nothing(text, term):
    from service.explain import text_definitions
    assert not any(d.term == term for d in text_definitions.find(text))


@pytest.mark.parametrize("text", [
    "There are a few ways to detect silent data corruptions: rerun the calculation (e.g., restore from checkpoint) and "
    "recompute to see if the result matches.",
    "A full checkpoint includes model weights, optimizer states and the data loader position. Writing 280GB to network "
    "storage takes 15-30 minutes.",
])
def test_a_checkpoint_one_restores_from_or_writes_is_the_saved_state(text):
    # round 33 (an SDC guide, a checkpoint-stall page): readers counted "Here 'checkpoint' means activation checkpointing"
    entry = next(t for t in explain_offline(text, "en")["terms"] if t["id"] == "checkpoint")
    assert entry["definition"].startswith("A saved snapshot")


def test_the_arabic_comma_between_thousands_is_a_thousands_separator():
    # Meta's RSC in Arabic (round 33): "6،080 وحدة معالجة رسومات" was read as 80 chips
    doc = pipeline.analyse("يضم الحاسوب 6،080 وحدة معالجة رسومات من طراز A100، وهي أسرع بكثير.", "en")
    assert [f.value for f in doc.figures if f.quantity == "n_chips"] == [6080.0]


def test_a_product_name_with_its_version_is_not_read_as_words_in_code():
    # ROCm ATOM 939 (round 33): "MiniMax: A name in code that reads 'mini maximum'" for the model MiniMax-M2.5
    terms = [t["term"] for t in explain_offline("Identical config (MiniMax-M2.5, TP=2, FP8 KV cache) on MI300X.", "en")["terms"]]
    assert "MiniMax" not in terms


def test_the_pcie_reason_does_not_put_a_fixed_factor_on_every_pair_of_cards():
    # a two-RTX-3090 thread (round 33): "about an order of magnitude less bandwidth than NVLink" is not so for those cards
    from service.explain import reasons
    link = next(item for item in reasons.table() if item["id"] == "pcie_slows_collectives")
    assert "order of magnitude" not in link["en"] and "about a tenth" not in link["short_en"]


def test_a_log_line_quoted_in_a_sentence_is_not_lifted_to_the_point():
    # orbax 392 (round 33): "the last long statement is jax...serialization:431 | Process 0 successfully set key ..."
    # became the opening, its module path and figures counted as terms and figures
    text = ("We are doing a big run and about 20% of the time we call checkpoint_manager.save we get a hang for hours that "
            "eventually crashes.\n\n- When it hangs the last long statement is jax.experimental.array_serialization."
            "serialization:431 | Process 0 successfully set key tensorstore_checkpoint_1 in the kv store -- We never see "
            "Thread joined successfully.\n- One workaround I can think of is to use Checkpointer instead of AsyncCheckpointer, "
            "but I doubt this will work given that we see the hang before training resumes.\n- checkpoints are like 200 GB "
            "and seem fine (when there's not a hang)\n- save gets called ~every 15 minutes.\n- Checkpoints normally take 38 "
            "seconds to save. The files don't get modified after those 38 seconds so seems as we are not doing any "
            "asynchronous work.")
    assert "serialization:431" not in _gist(text)


def test_a_bare_unit_beside_a_count_of_named_gpus_is_not_a_chip_count():
    # Meta's RSC in Arabic (round 33): "760 A100 GPUs" for the 760 units that hold the 6,080 GPUs
    doc = pipeline.analyse("يضم الحاسوب 6،080 وحدة معالجة رسومات من طراز A100 موزعة على 760 وحدة.", "en")
    assert [f.value for f in doc.figures if f.quantity == "n_chips"] == [6080.0]
    # in another sentence, a bare unit after a chip count is still a chip ("وتشغل نسخة واحدة من النموذج 48 وحدة")
    doc = pipeline.analyse("استخدم التدريب 384 وحدة A100. وتشغل نسخة واحدة من النموذج 48 وحدة.", "en")
    assert [f.value for f in doc.figures if f.quantity == "n_chips"] == [384.0, 48.0]


def test_context_cues_open_a_word_and_a_duplex_uplink_is_a_direction():
    # exo 1723 (round 33): "connection refused" held the cue "fused", so "fall back to a slower network path" became a
    # kernel's fallback path; distributed-llama 58: "no interference between uplink and downlink" of a full-duplex link
    exo = ("They fall back to a slower network path (Tailscale/WAN), so throughput drops from 24 tok/s to 2.5 tok/s, and "
           "inference fails with connection refused errors.")
    assert "fallback-path" not in [t["id"] for t in explain_offline(exo, "en")["terms"]]
    duplex = "Since the transfer is full-duplex, there's no interference between uplink and downlink on the 1 Gbps link."
    entry = next(t for t in explain_offline(duplex, "en")["terms"] if t["id"] == "uplink")
    assert "sends data" in entry["definition"]
    # Megatron-Bridge's FP8 guide: "the default low-precision LLM training recipe" is the FP8 recipe, not a job's settings
    recipe = "The default low-precision LLM training recipe applies FP8 computation only to the linear layers."
    assert "fp8-recipe" in [t["id"] for t in explain_offline(recipe, "en")["terms"]]


# ------------------------------------------------------------------------------------------- 11. after round 34's judging

def test_an_arabic_gist_never_calls_a_nondeterministic_run_a_published_result():
    # Megatron-DeepSpeed 274 (round 34): "لا يمكن إعادة إنتاج نتيجة منشورة" was graded a wrong gist by both readers
    text = ("The backward pass of FlashAttention is non-deterministic, meaning we cannot reproduce exact same results as long "
            "as we use FlashAttention.")
    gist = _gist(text, "ar")
    assert "منشورة" not in gist and "النتائج نفسها" in gist


def test_a_sentence_describing_a_name_in_code_is_not_said_to_explain_the_term_inside_it():
    # JAX-Toolbox 674 (round 34): "XLA_PYTHON_CLIENT_MEM_FRACTION is a JAX flag ..." became «يشرح النص JAX.»
    text = ("XLA_PYTHON_CLIENT_MEM_FRACTION is a JAX flag that allocates a fraction of GPU memory for JAX/XLA. We typically "
            "set it to 0.9 or 0.8.")
    assert "يشرح النص JAX" not in _gist(text, "ar")


def test_round_34_misreadings_stay_fixed():
    # inferenceengineering (round 34): "128 GB/s is 28.44% of" NVLink's one direction set PCIe's total against half of 900
    nvlink = ("NVLink 4.0 (H100 SXM) provides 900 GB/s of bidirectional bandwidth per GPU vs. PCIe 5.0's 128 GB/s, making "
              "all-reduce operations in tensor parallelism far more efficient.")
    assert "28.44%" not in " ".join(c.get("why") or "" for c in explain_offline(nvlink, "en")["claims"])
    # thearabcapital: "من 100 وحدة زمنية إلى 1" (from 100 units of time to 1) was "100 chips"
    doc = pipeline.analyse("مما يقلل الوقت المستغرق لتنفيذ مهمة من 100 وحدة زمنية إلى 1.", "en")
    assert not [f for f in doc.figures if f.quantity == "n_chips"]
    # torchgpipe 18: "checkpointing (or re-computation)" is activation checkpointing, not a released model's weights
    gpipe = "It reduces the memory consumption using checkpointing (or re-computation), so a larger mini-batch fits."
    entry = next(t for t in explain_offline(gpipe, "en")["terms"] if t["id"] == "checkpoint")
    assert "activation checkpointing" in entry["definition"]


def test_gradient_bucketing_is_no_reason_for_a_fused_gemm_and_reduce_scatter():
    # Triton-distributed 92 (round 34): readers counted the data-parallel bucketing bullet as a wrong statement
    from service.explain import reasons
    fused = ("In the AMD GEMM-RS implementation, the GEMM producer kernel is fused with a scatter operation, directly "
             "scattering results to the other devices to achieve computation-communication overlap.")
    links = lambda text: {link["id"] for link in reasons.find(pipeline.analyse(text, "en"))}  # noqa: E731
    assert "buckets_overlap_gradient_sync" not in links(fused)
    assert "buckets_overlap_gradient_sync" in links("Gradient bucketing lets DDP overlap the all-reduce with the backward "
                                                    "pass, so communication hides behind computation.")


def test_in_network_aggregation_written_as_such_is_the_technique_not_nvidias_product():
    # chipfoundryservices (round 34): "In-Network Aggregation: NVIDIA technology" was counted as a wrong statement
    entry = next(t for t in explain_offline("In-network aggregation lets the switches sum gradients, making all-reduce "
                                            "2-3x faster.", "en")["terms"] if t["id"] == "sharp")
    assert entry["definition"].startswith("A technique") and "SHARP" in entry["definition"]


def test_a_counterfactual_is_never_lifted_to_the_point_by_its_figures():
    # factryze (round 34): "If they actually ran in series, every step would pay ..." became the opening for its figures
    from service.explain import gist_select
    assert gist_select.unlifted("If they actually ran in series, every step would pay the full collective time, and a "
                                "1.5 GB gradient buffer on 64 H100s would burn twenty milliseconds of NCCL.")
    assert not gist_select.unlifted("The collective for an early layer's gradient runs while the GPU still computes later ones.")
