"""Issue 18, round 34: gists and checks found on earlier held-out sets, each as a general rule. Texts written here."""

from service.explain.compose import explain_offline


def _gist(text: str, lang: str = "en") -> str:
    return " ".join(item["text"] for item in explain_offline(text, lang)["gist"])


def test_a_request_for_help_is_not_the_point_of_the_problem_it_follows():
    text = ("The model is a 13B llama. With tp=2 one request takes 95.4s, but with tp=1 it takes 6s for the same "
            "prompt. This looks very strange. Can you please take a look?")
    gist = _gist(text)
    assert "95.4" in gist and "take a look" not in gist
    asked = ("I quantized the 7B model to 4 bits and measured 9 tokens/s on an A10, far below the 120 tokens/s in the paper. "
             "Is it possible for you to open-source your benchmark script?")
    assert "open-source" not in _gist(asked) and "9 tokens/s" in _gist(asked)


def test_settings_written_with_an_equals_sign_are_no_formula():
    from service.explain import gist_side
    assert not gist_side.formula("When I use tp=4 it costs 268s, but when tp=1 it costs 7s.")
    assert gist_side.formula("MFU = tokens/s * 6N = 0.41")


def test_an_opener_that_sets_up_a_case_is_left_out_of_the_point():
    from service.explain.gist_lift import without_openers
    said = without_openers("To understand why, consider that if one GPU fails every 50,000 hours, 100,000 GPUs fail every 30 minutes.")
    assert said.startswith("if one GPU fails")
    assert without_openers("It turns out that the all-reduce is the bottleneck.") == "the all-reduce is the bottleneck."


def test_a_word_after_a_heading_line_is_not_taken_for_a_name():
    gist = _gist("Slicing by depth\nPipeline parallelism gives each device a contiguous block of layers, called a stage, "
                 "and the idle time while stages wait is the bubble.")
    assert "that pipeline parallelism gives" in gist


def test_an_authors_plan_written_without_its_subject_gets_one():
    from service.explain.person import third_person
    assert third_person("will close this issue and fix the MI300 table", "en") == "they will close this issue and fix the MI300 table"
    assert third_person("Will be slower on PCIe", "en") == "Will be slower on PCIe"  # no plan: left as written


def test_a_name_the_text_defines_by_a_formula_is_a_variable_not_a_measured_value():
    text = "Decode is bound by memory. The ceiling is: peak_tps = mem_bandwidth_gbps ÷ weights_gb and real runs reach ~60% of it."
    item = next(t for t in explain_offline(text, "en")["terms"] if t["term"] == "peak_tps")
    assert "variable" in item["definition"] and "measured" not in item["definition"]


def test_all_to_all_connectivity_is_the_networks_shape_not_the_collective():
    text = "Inside an HGX H100 server, NVSwitches provide full mesh all-to-all connectivity among all 8 GPUs."
    english = {t["id"] for t in explain_offline(text, "en")["terms"]}
    assert "all-to-all-connectivity" in english and "all-to-all" not in english
    arabic = explain_offline(text, "ar")["explanation"]
    assert "الكل إلى الكل connectivity" not in arabic and "all-to-all connectivity" in arabic  # never half-translated
    moe = "The MoE layer sends tokens to their experts with an all-to-all over NVLink."
    assert "all-to-all" in {t["id"] for t in explain_offline(moe, "en")["terms"]}


def test_a_transfer_that_refers_back_takes_its_size_from_the_sentence_before():
    # 700 GB at 100 Gb/s (12.5 GB/s) is 56 s: the amount in one sentence, the link and the time in the next
    stated = "A 175B model makes about 700 GB of gradients per backward pass. At 100 Gbps, that transfer alone takes {} seconds."
    right = explain_offline(stated.format(56), "en")["claims"][1]
    assert right["verdict"] == "consistent" and "56 s" in right["why"]
    assert explain_offline(stated.format(5), "en")["claims"][1]["verdict"] == "inconsistent"
    unrelated = "The model has 700 GB of weights. At 100 Gbps, one step takes 56 seconds."  # no transfer referred to
    assert explain_offline(unrelated, "en")["claims"][1]["verdict"] != "consistent"


def test_a_points_gap_shows_the_subtraction_it_redoes():
    out = explain_offline("We measured a median 31.25% MFU, 0.75pp under the pre-registered 32% target.", "en")
    assert "32 - 31.25 = 0.75" in out["explanation"]


def test_qlora_names_four_bit_weights_so_a_card_it_is_said_to_fit_is_checked():
    # Dettmers et al. 2023 (QLoRA), section 3: the frozen base model is stored in 4-bit NormalFloat, 0.5 bytes a weight
    over = explain_offline("With QLoRA you can fine-tune a 70B model on a single 24GB RTX 4090.", "en")["claims"][0]
    assert "35 GB of weights alone, more than the 24GB" in over["why"]
    within = explain_offline("تتيح تقنية QLoRA ضبط نموذج 70B على بطاقة واحدة بسعة 48 غيغابايت.", "en")["claims"][0]
    assert "within the 48 GB" in within["why"]  # an English answer names the Arabic text's size in English


def test_times_a_sentence_totals_are_added_and_times_it_only_lists_are_not():
    totalled = explain_offline("Dispatch takes 120 us, combine takes 180 us and notify 20 us, so one MoE layer spends 320 us "
                               "in communication.", "en")["claims"][0]
    assert totalled["verdict"] == "consistent" and "120 us + 180 us + 20 us = 320 us" in totalled["why"]
    listed = explain_offline("Dispatch takes 120 us, combine 180 us and notify 300 us.", "en")["claims"][0]
    assert listed["verdict"] != "consistent"


def test_a_served_models_peak_performance_is_no_spec_sheet_rate():
    served = "vLLM reaches its peak performance at 64 concurrent requests, 4,100 tokens/s, then latency climbs."
    assert "peak-flops" not in {t["id"] for t in explain_offline(served, "en")["terms"]}
    chip = "The H100 peak performance is 989 TFLOPS in BF16, and we reach 40% MFU."
    assert "peak-flops" in {t["id"] for t in explain_offline(chip, "en")["terms"]}


def test_a_conclusion_that_points_back_is_kept_and_its_antecedents_elaboration_gives_way():
    text = ("Within an HGX H100 server, NVSwitches provide full mesh connectivity among all 8 GPUs, meaning any GPU can "
            "communicate with any other GPU at full NVLink bandwidth and no pair shares a slower path. This makes "
            "all-reduce across 8 GPUs extremely fast — a 10 GB tensor can be all-reduced in under 100 milliseconds.")
    gist = _gist(text)
    assert "this makes all-reduce across 8 GPUs extremely fast" in gist and "meaning any GPU" not in gist


def test_a_fleets_interval_between_failures_is_one_devices_over_their_number():
    # failures independent: 50,000 h per GPU / 100,000 GPUs = 0.5 h (the Epoch AI example this mirrors divides the same way)
    text = ("If a single H100 GPU fails once every 50,000 hours (about 6 years), a cluster of 100,000 GPUs will face a "
            "failure every 30 minutes.")
    claim = explain_offline(text, "en")["claims"][0]
    assert claim["verdict"] == "consistent" and "30 minutes" in claim["why"]
    assert "thirty times" not in claim["why"]  # the interval is not read as GPU-hours
    gap = explain_offline("If each GPU fails once every 10,000 hours, a cluster of 16,000 GPUs sees a failure every 5 hours.",
                          "en")["claims"][0]
    assert gap["verdict"] == "explained" and "38 minutes" in gap["why"]  # a gap is said, never judged


def test_hours_a_device_runs_between_failures_are_an_interval_not_gpu_hours():
    from service.explain.pipeline import analyse
    interval = analyse("One GPU fails once every 50,000 hours.", "en").figures
    assert [f.quantity for f in interval if "hours" in f.quote] == ["time_s"]
    spent = analyse("The run used 2.8 million hours on 512 GPUs.", "en").figures
    assert [f.quantity for f in spent if "hours" in f.quote] == ["chip_hours"]


def test_a_term_the_text_spells_out_takes_that_name_and_a_passive_clause_is_no_definition():
    roce = explain_offline("RoCE v2 needs careful PFC (priority flow control) and ECN (explicit congestion notification) "
                           "tuning to avoid packet loss.", "en")["explanation"]
    assert "**ECN** (explicit congestion notification):" in roce and "as the text defines it" not in roce
    ttft = explain_offline("With max_new_tokens set to 1 the end-to-end time reflects the TTFT, which is dominated by the "
                           "backend's retrieve speed.", "en")["explanation"]
    assert "as the text defines it" not in ttft
    host = explain_offline("The cpu memory needed for ZeRO-Offload grows with the number of GPUs.", "en")["explanation"]
    assert "Here RAM" not in host


def test_one_figure_is_named_in_the_singular():
    from service.explain.claim_names import by_figures

    class Fig:
        def __init__(self, quote):
            self.quote, self.quantity = quote, "bandwidth_bytes_per_s"

    class Claim:
        figures = [Fig("100 Gbps")]
    assert by_figures(Claim(), "ar").startswith("الرقم ")
    Claim.figures = [Fig("100 Gbps"), Fig("56 s")]
    assert by_figures(Claim(), "ar").startswith("الأرقام ")


def test_watt_hours_are_energy_and_a_bottleneck_may_be_memory_capacity():
    text = "كل استعلام يستهلك في المتوسط 0,34 واط في الساعة، ويمثل هذا 310 غيغاواط في الساعة سنوياً."
    ids = {t["id"] for t in explain_offline(text, "en")["terms"]}
    assert {"watt-hour", "gigawatt-hour"} <= ids and "gigawatt" not in ids  # energy, not a site's power
    memory = explain_offline("Activation memory is the bottleneck: the activations of a 70B model do not fit.", "en")["terms"]
    assert "memory capacity" in next(t["definition"] for t in memory if t["id"] == "bottleneck")


def test_checkpointing_is_glossed_and_the_remedy_for_a_problem_joins_the_gist():
    text = ("If one GPU fails once every 40,000 hours, a cluster of 20,000 GPUs will see a failure every 2 hours. "
            "To combat these failures, engineers rely on one technique: checkpointing. Checkpointing saves training "
            "progress to storage so that training can restart from it.")
    out = explain_offline(text, "en")
    assert "checkpoint" in {t["id"] for t in out["terms"]}
    gist = " ".join(g["text"] for g in out["gist"])
    assert "checkpointing" in gist and "2 hours" in gist
    assert "40000 / 20000 = 2" in out["explanation"]  # worked in the hours the text wrote


def test_a_working_line_writes_its_result_in_the_unit_of_what_it_computes():
    # 10 GB in 100 ms needs 100 GB/s; before, the line read "1e+10 / 0.1 = 100B", a count a reader took for bytes
    out = explain_offline("A 10 GB tensor can be all-reduced in under 100 milliseconds at NVLink speeds.", "en")
    assert "= 100 GB/s" in out["explanation"] and "= 100B" not in out["explanation"]
    from calculators.registry import get
    assert "result_unit" in {f.name for f in get("arithmetic").fields}  # the calculator's own field, usable from `calc`


def test_a_passive_question_keeps_its_subject_whole():
    from service.explain.reported import indirect_question
    assert indirect_question("So how is this 48GB/s calculated for gfx94 devices?") == "how this 48GB/s is calculated for gfx94 devices"
    assert indirect_question("How is this number computed?") == "how this number is computed"
    assert indirect_question("Why is the step time so high?") == "why the step time is so high"


def test_an_arabic_chip_count_written_with_the_word_for_cards_is_read():
    from service.explain.pipeline import analyse
    doc = analyse("تدريب Llama-3-70B يحتاج 6.3e24 عملية ≈ 4 أشهر على 6000 كارت H100.", "ar")
    assert ("6000 كارت H100", "n_chips") in [(f.quote, f.quantity) for f in doc.figures]


def test_an_aside_in_brackets_ends_its_sentence_and_is_not_the_point():
    text = ("We use GDR to write the KV cache straight into GPU memory on both sides. Since this involves two RDMA "
            "operations, the path might be slower than NVLink. (One caveat: even with 100% cache hits, the prefill side "
            "still fetches the data, which hurts peak performance a bit.) Below are some performance numbers (tested on "
            "A10 GPUs with 100Gbps RDMA).")
    gist = _gist(text)
    assert "caveat" not in gist and "below are" not in gist.lower() and "that (" not in gist
    from service.explain.claims import sentences
    assert any(text[a:b].startswith("Below are") for a, b in sentences(text, []))


def test_a_dashed_list_item_is_never_the_points_companion():
    text = ("Three recipes differ in how the scale is attached. — Per-tensor: one scale for the whole tensor. "
            "— MXFP8: 1×32 blocks + E8M0 scale. One rule ties it all together: the scale must stay constant along the "
            "matmul's contracted dimension.")
    assert "MXFP8: 1×32" not in _gist(text)


def test_a_claim_in_the_other_language_is_named_by_the_figures_its_check_used():
    text = ("The kernels sustain 201 to 214 GB/s (74 to 78% of the 273 GB/s peak) on every layer shape, and smaller "
            "attention shapes reach 170 to 190 GB/s.")
    arabic = explain_offline(text, "ar")["explanation"]
    assert "«273 GB/s»" in arabic and "«190 GB/s»" not in arabic  # 190 GB/s is no input of the 74-78% check


def test_an_amount_and_a_link_give_the_least_time_the_transfer_takes():
    # 350 GB over 400 Gb/s (50 GB/s) is 7 s a step at best; said, never judged (no time is stated)
    text = ("For a 175B parameter model in bfloat16, each GPU must communicate 350GB of gradients per training step. "
            "At these magnitudes, even 400G InfiniBand can become the primary performance constraint.")
    claim = explain_offline(text, "en")["claims"][0]
    assert claim["verdict"] == "explained" and "= 7 s" in claim["why"]
    assert "625 ms" in explain_offline("Each step sends 40 GB of activations over PCIe Gen5 at 64 GB/s.", "en")["claims"][0]["why"]


def test_a_this_means_sentence_is_not_moved_after_a_point_it_does_not_follow():
    text = ("In pipeline parallelism each GPU houses one set of contiguous layers. Tensor parallelism splits each layer "
            "between the GPUs. This means that every GPU houses a portion of every layer. However since each layer "
            "needs the full outputs of the previous one, each GPU has to perform the heavier all-reduce before the next layer.")
    gist = _gist(text)
    assert "concludes that every GPU houses" not in gist


def test_checkpointing_switched_on_and_off_in_a_throughput_comparison_is_activation_checkpointing():
    text = ("FSDP improves both memory and throughput across settings (checkpointing on/off) and context lengths.")
    item = next(t for t in explain_offline(text, "en")["terms"] if t["id"] == "checkpoint")
    assert item["expansion"].startswith("activation checkpointing")


def test_ggml_efa_and_the_arabic_lora_adapter_keep_their_own_senses():
    ggml = explain_offline("GGUF (صيغة GGML الموحدة العامة) هي صيغة ملفات لتشغيل النماذج باستخدام Llama.cpp.", "en")["terms"]
    assert "not llama.cpp itself" in next(t["definition"] for t in ggml if t["found_as"] == "GGML")
    lora = explain_offline("لا تدمج المحول على عقدة الإيجار. يجمع الدمج أوزان LoRA مع النموذج الأساسي.", "ar")["terms"]
    assert "المهايئات" in next(t["definition"] for t in lora if t["id"] == "transformer")  # the adapter, not the architecture
    efa = explain_offline("Each p4d instance has 4 EFA adapters and one ENA interface.", "ar")["explanation"]
    assert "محول النسيج المرن" in efa


def test_full_precision_float32_memory_allocation_in_vllm_and_a_serving_pipelines_bubble_keep_their_senses():
    fp32 = explain_offline("In full precision float32: every parameter = 32 bits or 4 bytes. 7B model = 28 GB.", "en")["terms"]
    assert next(t["expansion"] for t in fp32 if t["found_as"] == "full precision") == "single-precision floating point"
    blocks = explain_offline("This PR removes KV-cache preallocation in vLLM: memory allocation now takes new blocks from "
                             "the free pool as sequences grow.", "en")["terms"]
    assert next(t["expansion"] for t in blocks if t["found_as"] == "memory allocation").startswith("KV-cache block allocation")
    serving = explain_offline("Serving with 4 pipeline stages leaves a pipeline bubble while the first request fills them.", "en")
    bubble = next(t["definition"] for t in serving["terms"] if t["id"] == "pipeline-bubble")
    assert bubble.index("last microbatch to finish") < bubble.index("gradients")  # gradients only for training


def test_what_a_test_sets_aside_is_not_named_as_its_topic():
    text = ("I compared all-to-all performance on 8 H100 nodes with DeepEP. To eliminate the impact of pipeline parallelism "
            "bubbles, I use the first pipeline stage only. There are no PPs so the SendRecv kernels are the alltoall kernels. "
            "Combining is faster (13ms->5ms) with DeepEP, but dispatching becomes slower (13ms->16~18ms).")
    assert "توازي خطوط الأنابيب" not in _gist(text, "ar")


def test_a_memory_stated_with_its_bytes_per_parameter_is_redone():
    # 7B x 8 bytes = 56 GB (the text's AdamW figure); 70B x 16 bytes = 1.12 TB, not 1.5 TB
    right = explain_offline("Regular AdamW needs 8 bytes per parameter, so a 7B model needs 56 GB of GPU memory.", "en")
    assert right["claims"][0]["verdict"] == "consistent"
    assert explain_offline("With 16 bytes per parameter a 70B model needs 1.5 TB.", "en")["claims"][0]["verdict"] == "inconsistent"
    arabic = explain_offline("بدقة FP32 هذا 8 بايت/معامل — نموذج 70B يحتاج ~560 جيجابايت لحالات المُحسِّن وحدها.", "ar")
    assert arabic["claims"][0]["verdict"] == "consistent"
    more = explain_offline("With 16 bytes per parameter plus activations, a 70B model needs 1.5 TB.", "en")
    assert more["claims"][0]["verdict"] != "inconsistent"


def test_a_list_of_numbers_is_never_a_gists_companion():
    text = ("The un-sharded lm_head sits alone on the last stage, so for a decode step it sets the cycle. Qwen3-32B on H20 "
            "at pp=8: stage times (ms): [3.153, 3.150, 3.150, 3.150, 3.150, 3.150, 3.150, 3.901] balance 83.2%.")
    assert "[3.153" not in _gist(text)


def test_the_lines_under_a_setup_label_are_not_the_point():
    text = ("HW setup:\n8x H100 PCIe, 4x nvlink, without nvswitch in node\nsingle Intel 100Gbps network card in node\n"
            "When running the all_reduce test with 2 nodes, the reported busbw exceeds 100Gbps.")
    gist = _gist(text)
    assert "busbw exceeds 100Gbps" in gist and "4x nvlink" not in gist


def test_a_factor_the_text_calls_usual_is_not_judged_against_one_example():
    # round 22's readers: "110 ms vs 2300 ms, speedup usually around 10X" was called inconsistent (20.91x)
    usual = explain_offline("The same OSD takes 110 ms to consolidate vs 2300 ms, speedup usually around 10X.", "en")
    assert usual["claims"][0]["verdict"] == "explained" and "20.91x" in usual["claims"][0]["why"]
    stated = explain_offline("The same OSD takes 110 ms to consolidate vs 2300 ms, a 10X speedup.", "en")
    assert stated["claims"][0]["verdict"] == "inconsistent"


def test_round_22s_wrong_checks_are_not_made_again():
    # each was counted a wrong statement by round 22's readers (after its second judging; general rules, texts written here)
    serving = explain_offline("MTP posts 8907 tok/s/GPU at 62 tok/s/user on DeepSeek R1 (B200 FP4); Off posts 1518 "
                              "tok/s/GPU.", "en")
    assert "MFU" not in serving["explanation"] and "backward" not in serving["explanation"]  # no training FLOPs for serving
    fp32 = explain_offline("Training a 405B parameter model requires approximately 6.5TB of memory at 32-bit precision.", "en")
    assert fp32["claims"][0]["verdict"] == "explained"  # a size tied to a format is not Adam's 16 bytes of states
    ranks = explain_offline("Removing the forced balance on EP64 leaves an average of 2 out of 4 experts per rank active. "
                            "For EP64 BS16 half of the ranks receive no routed-expert work.", "en")
    assert "do not divide evenly" not in ranks["explanation"]  # 4 experts per rank is no model's expert count


def test_a_topic_is_named_as_the_text_wrote_it_not_by_an_entry_that_names_two_things():
    from service.explain.document import Document
    from service.explain.gist_names import name_of
    from service.explain.terms import read_terms
    doc = Document(text="The W4A16 kernels in vLLM run at 1,850 tokens/s.", lang="ar")
    read_terms(doc)
    terms = {t["id"]: t for t in doc.terms}
    names = {m.entry["id"]: name_of(m, terms.get(m.entry["id"]), "ar") for m in doc.occurrences}
    assert names["weight-activation-bits"] == "W4A16"  # not "W4A16 وW8A8": the text never wrote W8A8
