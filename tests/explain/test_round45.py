"""Round 45: what the fourth-round readers and reviewers found (issue 18)."""

from service.explain.claims import sentences


def _said(text: str) -> list[str]:
    return [text[a:b] for a, b in sentences(text, [])]


def test_a_line_wrapped_after_a_one_letter_word_goes_on():
    # hard-wrapped pull-request text (imp#1741): "one M" / "tile" is one sentence, not a sentence starting "tile, so ..."
    text = ("`max(M_e)` decides grouped-GEMM cost: the kernel pads every expert to one M\n"
            "tile, so a single hot expert sets it for all of them and everything under it is\npadding. imp computed it.")
    assert _said(text)[0].startswith("`max(M_e)`") and _said(text)[0].endswith("padding.")


def test_a_row_ending_in_a_capitalised_unit_stays_its_own_line():
    # a list of results (Megatron-LM#330): "311 TFLOPS" ends a row; the next row is not its continuation
    text = ("local implementation with bf16: 311 TFLOPS\n"
            "transformer engine implementation by adding --transformer-impl 'transformer_engine' to the argument: 87 TFLOPS\n"
            "transformer engine implementation with FP8 with hybrid format: 358 TFLOPS")
    assert len(_said(text)) == 3


def test_memory_bound_before_a_noun_is_not_replaced_by_a_predicate():
    # "well-tuned memory-bound decode" once read "well-tuned limited by memory bandwidth decode"
    from service.explain.gist_plain import phrased
    assert phrased("well-tuned memory-bound decode generally reaches 75-85%", "en") == \
        "well-tuned memory-bound decode generally reaches 75-85%"
    assert "limited by memory bandwidth" in phrased("decode is memory-bound at batch 1", "en")
    assert "limited by arithmetic speed" in phrased("prefill is compute-bound and decode is not", "en")


def test_a_note_that_opens_on_its_predicate_is_quoted_not_said_with_that():
    # "Flat across depth and KV format, so it is ..." has no subject before its comma: "says that flat across" is no English
    from service.explain.compose import explain_offline
    text = ("27B dense | int8 | 4,096 | 36.15 | 623 GB/s | 66.5%\n\nFlat across depth and KV format, so it is a property "
            "of the decode path rather than of anything the KV work touched.")
    assert "that flat across" not in explain_offline(text, "en")["explanation"].lower()


def test_a_tilde_after_an_article_reads_roughly_not_a_about():
    # "every decode user sees a ~200ms stutter" once read "a about 200ms stutter"
    from service.explain.gist_plain import phrased
    assert phrased("every decode user sees a ~200ms stutter", "en") == "every decode user sees a roughly 200ms stutter"
    assert phrased("it takes ~3 GB", "en") == "it takes about 3 GB"


def test_a_gloss_the_definition_opens_by_saying_is_said_once():
    # reviewers (round 45): "**MLX** (Apple's array framework ...): Apple's open array framework ..." said it twice
    from service.explain.term_items import unsaid_gloss
    assert unsaid_gloss("open-source LLM serving engine", "An open-source engine for serving language models fast.") == ""
    assert unsaid_gloss("طلب دمج: تغيير مقترح على مستودع شيفرة", "تغيير مقترح على مستودع شيفرة يُراجع قبل دمجه") == "طلب دمج"
    assert unsaid_gloss("a chunk of text", "The unit of text a language model reads and writes.") == "a chunk of text"
    assert unsaid_gloss("tensor parallelism across 8 GPUs", "Splitting each layer's matrices across chips.") == \
        "tensor parallelism across 8 GPUs"


def test_a_definition_that_opens_on_its_own_name_says_it_once():
    from service.explain.term_display import unrepeated_definition
    assert unrepeated_definition("المرحلة الأولى من ZeRO", "المرحلة الأولى من ZeRO: تخزن كل شريحة حصتها") == "تخزن كل شريحة حصتها"


def _found(text: str, lang: str = "en") -> dict[str, str]:
    from service.explain.pipeline import analyse
    return {t["id"]: t for t in analyse(text, lang).terms}


def test_virtual_stages_are_the_interleaved_schedules_chunks_not_one_pipeline_stage():
    # zero-bubble-pipeline-parallelism issue 21 (a reviewer): "virtual stages" glossed as one contiguous stage
    found = _found("Like the degree of PP, the number of microbatches and the number of virtual stages of interleaved_1f1b?")
    assert "virtual-pipeline-parallelism" in found and "pipeline-stage" not in found


def test_stage_2_beside_sharded_gradients_is_zero_2():
    # a ZeRO explainer that never says "ZeRO": "Stage 2 shards the gradients the same way" (a reviewer: glossed as stage 1)
    text = ("But the optimizer only needs 1/512th of those gradients (matching its optimizer state shard). "
            "Stage 2 shards the gradients the same way: each replica stores only its 1/512th slice.")
    assert _found(text)["zero-2"]["found_as"] == "Stage 2"
    assert "zero-2" not in _found("Stage 2 of the pipeline receives activations from stage 1 in the forward pass.")


def test_transformers_with_a_version_is_hugging_faces_library():
    # Hugging Face's docs in Arabic: "Transformers v4.18.0" was restated as «الإصدار المحول» (the converted version)
    term = _found("اعتبارًا من الإصدار Transformers v4.18.0، يتم تجزئة أي نقطة تفتيش أكبر من 10 غيغابايت", "ar")["transformer"]
    assert "Hugging Face" in term["definition"]
    assert "Hugging Face" not in _found("Transformers are the architecture behind modern language models.")["transformer"]["definition"]


def test_dram_bound_and_matvec_are_read():
    # tensai#55 style: "ALU-bound rather than DRAM-bound on matvec" (a kernel-vocabulary helper found both unread)
    found = _found("the int4 kernel is ALU-bound rather than DRAM-bound on matvec")
    assert {"alu", "memory-bound", "gemv"} <= set(found)


def test_a_count_of_bytes_agrees_with_its_number_in_arabic():
    # a reviewer (round 45): «4 بايت لكل معامل» — after 3-10 the counted noun is plural
    from service.i18n.arabic import agree_numbers
    assert agree_numbers("تعني 4 بايت لكل معامل") == "تعني 4 بايتات لكل معامل"
    assert agree_numbers("16 بايت لكل معامل") == "16 بايتا لكل معامل"
    assert agree_numbers("يبلغ 80 غيغابايت") == "يبلغ 80 غيغابايت"  # a unit with a prefix stays as written


def test_a_mistranslation_is_corrected_wherever_it_stands_in_the_restated_sentence():
    # PyTorch/XLA's docs in Arabic: «الإشارات المرجعية» is corrected once, but the gist kept «إشارة مرجعية» (a bookmark)
    from service.explain.compose import explain_offline
    text = ("الحفظ الموزع غير المتزامن: يتم كتابة الإشارات المرجعية المتخذة من خلال واجهة برمجة التطبيقات بشكل غير متزامن "
            "إلى التخزين الدائم. الحفظ التلقائي عند الاستباق: يمكن اكتشاف استباق Cloud TPU واتخاذ إشارة مرجعية قبل إنهاء العملية.")
    gist = " ".join(s["text"] for s in explain_offline(text, "ar")["gist"])
    assert "إشارة مرجعية" not in gist and "الإشارات المرجعية" not in gist


def test_a_number_inside_arithmetic_keeps_its_digits_in_arabic():
    from service.i18n.arabic import agree_numbers
    assert agree_numbers("هذا 8.03 × 2 بايت ≈ 16.1 GB") == "هذا 8.03 × 2 بايت ≈ 16.1 GB"


def test_a_llama_size_meta_released_is_not_called_unreleased():
    # reviewers (round 45): "Llama-70B", "LLaMA 3 405B", "Llama-1B" were each "a size Meta never released"
    for text in ("We serve Llama-70B on 8 H100s.", "LLaMA 3 405B trained on 16,384 H100s.", "a megakernel for Llama-1B"):
        assert all("did not release as that version" not in t["definition"] for t in _found(text).values()), text
    assert any("did not release as that version" in t["definition"] for t in _found("We pretrain llama-160m on one GPU.").values())


def test_39_tokens_per_parameter_is_not_about_the_compute_optimal_amount():
    from service.explain.compose import explain_offline
    whys = " ".join(c["why"] for c in explain_offline("Llama 3 405B was trained on 15.6T tokens, past Chinchilla's scaling law.", "en")["claims"])
    assert "about the compute-optimal amount" not in whys and "more data than compute-optimal" in whys


def test_weights_streamed_out_of_memory_are_not_an_out_of_memory_error():
    text = "for each token it must stream the entire model's weights plus a growing KV cache out of memory while doing little arithmetic"
    assert "oom" not in _found(text)
    assert "oom" in _found("we load the model and the job runs out of memory at step 10")


def test_a_catalog_expert_count_is_said_once_for_two_degrees():
    from service.explain.compose import explain_offline
    text = "This PR drops DeepEP and lowers EP from 32 to 8 on the DeepSeek-V3 recipe, which crashed with EP=32."
    answer = explain_offline(text, "en")["explanation"]
    assert answer.count("from the model catalog, not the text") <= 1


def test_show_how_is_not_show_that_how():
    from service.explain.compose import explain_offline
    text = ("In this post, we show how we can bypass this problem by merging the entire Llama-1B forward pass into a single "
            "megakernel that eliminates kernel boundaries altogether.")
    assert "show that how" not in explain_offline(text, "en")["explanation"]


def _restated(text: str) -> str:
    from service.explain import gist, pipeline
    return gist.restated(pipeline.analyse(text, "en"), 0)


def test_no_gloss_inside_a_joined_name_a_product_or_a_compound():
    # reviewers (round 45): "FSDP (...)+quantized low-rank adaptation (QLORA)", "TP (...) × DP (...)", "ICI (...) slab"
    assert "(" not in _restated("This PR adds changes to support FSDP+QLORA so that 70B models train on two 24GB cards.")
    assert "(" not in _restated("Make sure the product of TP × DP divides evenly into the number of GPUs.")
    assert "(" not in _restated("For this mesh it picks x·y·z, the low-bandwidth ICI slab.")
    assert "FSDP (" in _restated("We use FSDP to shard the model.")


def test_no_dot_before_a_number_ends_no_sentence_and_an_inner_example_keeps_the_main_clause():
    from service.explain.claims import sentences
    text = "That's the no. 1 reason it manages to run 30B models. No. We did not."
    assert [text[a:b] for a, b in sentences(text, [])][0] == "That's the no. 1 reason it manages to run 30B models."
    from service.explain.synthesis import compressed
    assert compressed("so if you want a shorter context, e.g. to fit a 30B model, you need a shorter max length", "en").lower() \
        == "so if you want a shorter context, you need a shorter max length"


def test_an_elliptical_sentence_is_said_with_the_one_it_completes():
    from service.explain.compose import explain_offline
    text = ("A single RTX 4090 24GB cannot run Llama 3.1 70B in FP8 – the model needs ~38GB. Two 4090s with vLLM tensor "
            "parallelism can. This article walks through the pairing in detail: how the model splits across both cards.")
    gist = " ".join(s["text"] for s in explain_offline(text, "en")["gist"])
    assert "parallelism can." not in gist.split(";")[0] and "cannot run" in gist


def test_a_request_to_be_told_is_asked_as_a_whether_clause():
    from service.explain import reported
    assert reported.indirect_question("Please let me know if this is expected or am I missing something?") == \
        "whether this is expected or whether I am missing something"


def test_an_arabic_fragment_after_anna_loses_its_conjunction_and_a_we_verb_is_quoted():
    # a reviewer of Arabic answers (round 45): «يذكر النص أنه فالانتقال ...», «أنه وأخيراً، نقوم ...»
    from service.explain import reported
    from service.i18n.messages import messages
    words = messages("ar")["gist_reported"]
    assert "أنّ الانتقال" in reported._arabic("فالانتقال من تقنية 5 نانومتر إلى 3 نانومتر يرفع الكثافة", "other", words, "text", True)
    said = reported._arabic("وأخيراً، نقوم بزيادة الحجم الحالي لنماذج اللغة", "other", words, "text", True)
    assert "أنه نقوم" not in said and "وأخيراً" not in said and "نقوم بزيادة" in said


def test_a_row_comparing_its_own_two_rates_is_not_compared_with_the_row_above():
    # Megatron-Bridge#3561 (round 40, found by the automatic figures after the blind judging): "+1.7%" is 438.5 over
    # 431.0 in its own row; it was worked against the row above's 406.6 (+6%) and called inconsistent
    from service.explain.compose import explain_offline
    text = ("Measured on 64x GB200 (16 nodes), V2 base config (EP=64, MBS=4, GBS=1280):\n\n"
            "BF16: alltoall 423.6 TFLOP/s vs hybridep 406.6 TFLOP/s (+4.2%)\n"
            "FP8_MX: alltoall 438.5 TFLOP/s vs hybridep 431.0 TFLOP/s (+1.7%)")
    verdicts = {c["quote"][:6]: c["verdict"] for c in explain_offline(text, "en")["claims"]}
    assert verdicts["FP8_MX"] != "inconsistent"


# ---- after round 40's blind judging (found by its readers; the judged answers are those before these fixes) ----------

def test_an_arabic_inference_rate_per_user_gets_no_training_mfu():
    # a machine-translated Arabic page: «استنتاج» (inference), «أكثر من 250 رمز في الثانية لكل مستخدم», «البرمجيات المحسنة»
    from service.explain.compose import explain_offline
    text = ("حقق نظام NVIDIA DGX B200 واحد (مجهز بـ 8 وحدات معالجة رسوميات Blackwell) أكثر من 250 رمز في الثانية لكل "
            "مستخدم على النموذج اللغوي الكبير DeepSeek-R1 بـ 671 مليار معامل، بفضل FP4 ومجموعة البرمجيات المحسنة في الاستنتاج.")
    assert "an MFU of" not in explain_offline(text, "en")["explanation"]


def test_a_per_gpu_rate_is_not_taken_for_the_racks_total():
    # NVIDIA's GB200 NVL72 blog: "1.8 TB/s bidirectional throughput per GPU, for a total of 130 TB/s" (18 trays x 50 GB/s
    # of InfiniBand had been worked as the 1.8 TB/s "total")
    from service.explain.compose import explain_offline
    text = ("NVIDIA GB200 NVL72 puts 72 NVIDIA Blackwell GPUs spanning 18 compute trays in one rack. NVIDIA GB200 NVL72 "
            "provides 1.8 TB/s bidirectional throughput per GPU, for a total of 130 TB/s aggregate bandwidth. Communication "
            "crossing domain boundaries faces a steep performance drop, typically 50 GB/s (400 Gb/s) through InfiniBand.")
    answer = explain_offline(text, "en")["explanation"]
    assert "18 x 50" not in answer


def test_a_problem_is_said_of_what_its_own_clause_names():
    from service.explain.compose import explain_offline
    text = ("In my experience, many model and system combinations fall into this gray area where the model is too large for "
            "ZeRO-1, the inter-node interconnect at large scales is too slow for ZeRO-3.")
    gist = " ".join(s["text"] for s in explain_offline(text, "ar")["gist"])
    assert "ZeRO-1" not in gist


def test_an_arabic_context_window_counted_in_units_is_tokens_not_chips():
    from service.explain.pipeline import analyse
    doc = analyse("كما يستطيع معالجة نافذة سياقية تصل إلى 10 ملايين وحدة، أي ما يعادل 8 ملايين كلمة.", "en")
    assert all(f.quantity != "n_chips" for f in doc.figures)


def test_senses_round_40s_readers_found_wrong():
    # "Communication overlap can hide latency" is no warp scheduling; pairwise send/recv is no all-to-all half;
    # «الشبكة الحتمية» (a deterministic network) is no bit-identical rerun
    found = _found("Compute Efficiency | GPU SM utilization. Communication overlap can hide latency, but it adds constraints.")
    assert "latency-hiding" not in found
    assert "latency-hiding" in _found("Occupancy lets warp schedulers hide latency: when one warp stalls another is issued.")
    pairwise = _found("4. All-to-all over EP PG (bus bandwidth).\n5. Pairwise send/recv at multiple strides within DP PG.")
    assert not pairwise["send-recv"]["definition"].startswith("Here send and receive are the two halves")
    assert "training-determinism" not in _found("تعتمد على الشبكة الحتمية بدلا من شبكة أفضل جهد", "ar")


def test_an_arabic_heading_gives_one_english_form_of_its_term():
    # round 40's readers: «(Rail-optimized، rail-optimized network)», «(straggler، slow node)» left two English names
    from service.explain.term_display import _one_english_form
    assert _one_english_form("Rail-optimized، rail-optimized network") == "Rail-optimized"
    assert _one_english_form("materialize: حسابه كاملًا، materialize") == "materialize: حسابه كاملًا"
    assert _one_english_form("الملء المسبق وفك الترميز على وحدات منفصلة، PD disaggregation") == \
        "الملء المسبق وفك الترميز على وحدات منفصلة، PD disaggregation"


def test_pg_beside_collectives_is_a_process_group():
    # Megatron-LM#4662 style: "All-reduce over global PG", "Reduce-scatter over TP PG"
    assert _found("2. All-reduce over global PG (bus bandwidth). 3. Reduce-scatter over TP PG.")["process-group"]["found_as"] == "PG"
    assert "process-group" not in _found("The movie is rated PG and the app stores its data in PG.")


def test_an_english_schedule_name_in_an_arabic_sentence_keeps_its_name():
    # a reviewer of Arabic answers: «Looped BFS» became «جدولة خط الأنابيب الحلقية بالعرض أولا» inside the restatement
    from service.explain import gist, pipeline
    doc = pipeline.analyse("يدعم الإطار جداول GPipe و1F1B وInterleaved 1F1B وLooped BFS، ويوفر البنية الأساسية.", "ar")
    assert "Looped BFS" in gist.restated(doc, 0)


def test_no_data_file_path_in_an_answer_and_a_spelled_out_format_is_read():
    # reviewers (round 45, third sample): "(data/hardware.json)" in a reader's answer; "Brain Floating Point 16" taken as
    # "16-bit, assumed: the text names no format"; "8 v100 32G" restated as "8 chips 32G"
    from service.explain.compose import explain_offline
    answer = explain_offline("MI325X has 256 GB of HBM3E, 1.8x the memory of MI300X.", "en")["explanation"]
    assert "data/" not in answer
    whys = [c["why"] for c in explain_offline("For a 70B dense model stored in Brain Floating Point 16, you will need "
                                              "about 140 GB of GPU memory for weights alone.", "en")["claims"]]
    assert not any("names no format" in w for w in whys)
    assert "8 v100 32G" in _restated("With two or three nodes (8 v100 32G), the samples per second dropped.")
