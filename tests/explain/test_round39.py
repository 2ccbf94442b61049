"""Round 39: what blind readers of rounds 27 and 28 found missing or noisy, as general rules (checks, openings, terms)."""

import pytest

from service.explain.compose import explain_offline


def _claims(text: str, lang: str = "en") -> list[dict]:
    return explain_offline(text, lang)["claims"]


# Meta's Llama 3 405B run (Dubey et al. 2024, "The Llama 3 Herd of Models", section 3.3.4): 419 unexpected
# interruptions in a 54-day snapshot. 54 days x 24 h = 1,296 h; 1,296 h / 419 = 3.09 h, "roughly one every three hours".
LLAMA3_FAILURES = ("Data from Meta's LLaMA training run, 16,000 GPUs over 54 days, revealed 419 unplanned interruptions, "
                   "roughly one every three hours.")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_stated_interval_between_failures_is_checked_against_span_over_count(lang):
    claim = next(c for c in _claims(LLAMA3_FAILURES, lang) if c["calculations"])
    assert claim["verdict"] == "consistent"
    assert "3.1" in claim["why"]
    if lang == "en":
        assert "GPU-hours" not in claim["why"]  # the run's GPU-hours were worked out though nobody asked (a reader: noise)


def test_an_interval_far_from_span_over_count_is_said_without_a_verdict():
    text = "The run took 54 days and saw 419 unplanned interruptions, roughly one every ten hours."
    claim = next(c for c in _claims(text) if c["calculations"])
    assert claim["verdict"] == "explained"
    assert "3.1 hours" in claim["why"] and "ten hours" in claim["why"]


# DeepSpeed PR 7474 (ZeRO-Offload with --bind_cores_to_rank), as its description gives it:
# 3084.44 / 2383.16 = 1.294, "near 1.3x performance improvement".
BIND_CORES = ("For Qwen2.5-3B finetuning on 2 A100-40GB cards, the average step time is as follow, near 1.3x performance "
              "improvement:\nwithout --bind_cores_to_rank: 3084.44ms per step\nwith --bind_cores_to_rank: 2383.16ms per step")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_gain_stated_above_two_result_rows_is_redone_from_them(lang):
    claim = next(c for c in _claims(BIND_CORES, lang) if c["calculations"])
    assert claim["verdict"] == "consistent"
    assert "1.29x" in claim["why"] and "1.3x" in claim["why"]


@pytest.mark.parametrize("text, verdict, shown", [
    # a reduction in time is 1 - new / old: 1 - 230 / 300 = 23.3%
    ("Step time fell by about 23%:\nbefore: 300 ms per step\nafter: 230 ms per step", "consistent", "23.33%"),
    # a rise in throughput is new / old - 1: 1250 / 1000 - 1 = 25%, not the 40% stated; said, never judged
    ("Throughput rose by 40%:\nbefore: 1000 tokens/s\nafter: 1250 tokens/s", "explained", "25%"),
])
def test_the_gain_takes_the_direction_the_line_says(text, verdict, shown):
    claim = next(c for c in _claims(text) if c["calculations"])
    assert claim["verdict"] == verdict and shown in claim["why"]


def test_a_gain_in_a_line_that_introduces_nothing_is_not_set_against_later_figures():
    text = "We got a 1.3x speed-up last week. Today the runs took 3084.44ms and 2383.16ms per step."
    assert all("line above" not in (c.get("why") or "") for c in _claims(text))


def _opening(text: str, lang: str = "en") -> str:
    return explain_offline(text, lang)["gist"][0]["text"]


# A correction the author makes is the view they hold: the thesis, said first with both halves.
@pytest.mark.parametrize("text, said", [
    ("Preface: Training a trillion-parameter model is not a compute problem; it is a communication problem. For 1,000 "
     "nodes at 400Gbps, we need a multi-tier spine-leaf architecture with 32 uplinks per leaf.",
     "is not a compute problem but a communication problem"),
    ("So the spec that governs decode throughput isn't peak TFLOPS — it's how much memory you have and how fast you can "
     "read it. The MI300X carries 192 GB of HBM3 at 5.3 TB/s, so decode runs 1.6x faster than on an H100.",
     "isn't peak"),
    # ("More memory isn't a vanity number; it changes how you serve. A 70B model ... so you split it across two 80 GB
    # H100s"): since round 42 the fitted sentence choice opens with the worked example, its hand score within the band
])
def test_a_correction_the_author_makes_is_the_point(text, said):
    opening = _opening(text)
    assert said in opening
    assert "Preface" not in opening  # a section's label is no part of the claim


@pytest.mark.parametrize("text", [
    # a negation that corrects no view: "not yet", "not accurate, unfortunately - as noted, they are ..."
    "The fused kernel is not yet supported on H100; it is planned for the next release. We measured 1.3x on A100.",
    "The numbers for prefill are not accurate, unfortunately - as I noted in the PR, they are roughly 3x better. "
    "The claimed 2x speedup comes from the choice of a strong GPU and CPU combination.",
])
def test_a_negation_that_corrects_no_view_is_no_thesis(text):
    from service.explain import gist_contrast, pipeline
    doc = pipeline.analyse(text, "en")
    assert not gist_contrast.corrects(doc, 0)


def test_a_runs_length_is_never_scaled_as_an_interval_between_failures():
    # 54 days is how long the run lasted, not its MTBF: "54 days x 16,000 / 1,024 = 844 days" was shown as an interval
    text = ("Meta's Llama 3 run on 16,000 GPUs over 54 days saw 419 interruptions from failures. At 1,024 GPUs, the mean "
            "time to failure would be about 5.6 hours.")
    for claim in _claims(text):
        assert "16,000 GPUs / 1,024" not in claim["why"] and "844 days" not in claim["why"]


# AMD's MI300X datasheet: 192 GB HBM3 at 5.3 TB/s; NVIDIA's H100 SXM datasheet: 80 GB HBM3 at 3.35 TB/s.
# 192 / 80 = 2.4x; 5.3 / 3.35 = 1.58x ("roughly 1.6x").
TWO_CHIPS = ("The AMD MI300X carries 192 GB of HBM3 at 5.3 TB/s. The NVIDIA H100 carries 80 GB at 3.35 TB/s. "
             "That's {capacity}x the capacity and roughly 1.6x the bandwidth, on the dimension that decides decode.")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_factors_said_of_the_sentences_before_are_redone_from_their_figures(lang):
    claim = next(c for c in _claims(TWO_CHIPS.format(capacity="2.4"), lang) if c["quote"].startswith("That's"))
    assert claim["verdict"] == "consistent"
    assert "2.4x" in claim["why"] and "1.58x" in claim["why"]


def test_a_factor_the_figures_before_do_not_give_is_said_without_a_verdict():
    claim = next(c for c in _claims(TWO_CHIPS.format(capacity="3")) if c["quote"].startswith("That's"))
    assert claim["verdict"] == "explained" and "2.4x; the text gives 3x" in claim["why"]


def test_a_factor_with_three_candidate_figures_before_is_not_guessed():
    text = ("The MI300X carries 192 GB, the H200 141 GB and the H100 80 GB. That's 2.4x the capacity of the smallest.")
    assert not any(c["calculations"] for c in _claims(text) if c["quote"].startswith("That's"))
    text = ("The MI300X carries 192 GB, the H200 141 GB and the H100 80 GB. That's 2.4x the capacity and 1.6x the bandwidth.")
    assert not any(c["calculations"] for c in _claims(text) if c["quote"].startswith("That's"))


# TensorRT-LLM issue 2300 (Llama-2-7B, 128/128, TP1, tokens/s): 10146 / 11116 = 0.91; 10146 / 18758 = 0.54.
W4A8_TABLE = ("I compared the throughput of w4a8, FP8 and FP16.\n\nThroughput (tokens/sec)\n"
              "| Model | Input/Output Lengths | TP | FP8 | W4A8_AWQ | FP16 |\n| llama-2-7b | 128/128 | 1 | 18758 | 10146 | 11116 |\n\n"
              "The throughput of W4A8_AWQ is {word} than that of FP16 and much {word} than that of FP8.")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_comparison_in_words_is_read_on_the_tables_columns(lang):
    claim = next(c for c in _claims(W4A8_TABLE.format(word="lower"), lang) if c["calculations"])
    assert claim["verdict"] == "consistent"
    assert "0.91x" in claim["why"] and "0.54x" in claim["why"]


def test_a_direction_the_table_does_not_bear_out_is_said_without_a_verdict():
    claim = next(c for c in _claims(W4A8_TABLE.format(word="higher")) if c["calculations"])
    assert claim["verdict"] == "explained" and "not what the sentence says" in claim["why"]


def test_an_arabic_answer_names_a_figureless_english_sentence_by_its_names():
    explanation = explain_offline(W4A8_TABLE.format(word="lower"), "ar")["explanation"]
    assert "W4A8_AWQ" in explanation and "«The throughput of" not in explanation


def test_the_authors_own_view_is_their_point():
    # ExLlama issue 88: the author quotes a claim to dispute it, then says what they hold instead
    text = ("They've also identified memory fragmentation around the K/V cache as a huge problem with the way HF models "
            "work. I think their paging system sounds very interesting, but they might be hyping it up a little too much. "
            "Well, not totally, they're right about the simple concatenation in Transformers being a really bad solution, "
            "but you can also just allocate the memory up-front and never release it.")
    opening = _opening(text)
    assert "up-front" in opening or "hyping" in opening
    assert "not totally" not in opening  # a hedge that opens the sentence is no part of the claim


def test_a_word_inside_a_longer_name_is_no_term_of_its_own():
    text = "In a non-blocking Fat Tree, bandwidth scales linearly, so AllReduce time stays flat as the cluster grows."
    ids = {t["id"] for t in explain_offline(text, "en")["terms"]}
    assert "fat-tree" in ids and "tree-all-reduce" not in ids  # "Tree" of "Fat Tree" is not NCCL's tree algorithm


def _term(text: str, term_id: str, lang: str = "en") -> dict:
    return next(t for t in explain_offline(text, lang)["terms"] if t["id"] == term_id)


def test_the_topology_of_how_you_serve_is_the_deployment_layout_not_the_wiring():
    text = ("More memory changes the topology of how you serve: a 70B model in FP16 needs two 80 GB H100s with tensor "
            "parallelism, but fits on one MI300X.")
    assert "deployment layout" in _term(text, "topology")["definition"] + _term(text, "topology").get("expansion", "")


def test_a_training_memory_footprint_is_not_described_as_weights_and_kv_cache_only():
    definition = _term("Optimizer memory footprint is the largest in a training setup, so offload it to the CPU.",
                       "memory-footprint")["definition"]
    assert "optimizer" in definition


def test_an_fp8_memory_and_speed_result_is_not_explained_by_fp32_master_weights():
    # FP8-LM (Peng et al. 2023) abstract: a 42% memory saving and 64% speed-up; it argues nothing about master weights
    text = ("Experiment results show that, during the training of GPT-175B model on H100 GPU platform, our FP8 "
            "mixed-precision training framework not only achieved a remarkable 42% reduction in real memory usage but "
            "also ran 64% faster than the widely adopted BF16 framework.")
    from service.explain import pipeline, reasons
    assert "updates_need_fp32_master_weights" not in {link["id"] for link in reasons.find(pipeline.analyse(text, "en"))}


def test_a_launcher_setting_reads_without_a_doubled_article_and_in_arabic():
    text = "Use --bind_cores_to_rank in the deepspeed launch command to improve the performance of ZeRO-Offload."
    assert "a the" not in explain_offline(text, "en")["explanation"]
    assert "launcher" not in explain_offline(text, "ar")["explanation"]


def test_result_rows_on_several_lines_are_named_by_their_figures():
    explanation = explain_offline(BIND_CORES, "en")["explanation"]
    assert "**The figures “3084.44ms”, “2383.16ms”**" in explanation


@pytest.mark.parametrize("text, dropped", [
    ("ofc, memory reduction can be achieved by casting some of these tensors to fp16 or bf16.", "ofc"),
    ("Performance: the new path takes 2377 ms per step, 7% less than FSDP2, because the optimizer runs on the CPU.",
     "Performance:"),
])
def test_fillers_and_section_labels_are_no_part_of_the_point(text, dropped):
    assert dropped not in _opening(text)


def test_a_relative_clause_about_the_situation_is_no_definition_of_the_name_before_it():
    text = "An 8 GB GPU can run Qwen3.5-9B at full 131K context with aggressive TurboQuant, which is impossible with f16."
    assert "one that is impossible" not in explain_offline(text, "en")["explanation"]


def test_a_context_length_reads_as_one_context():
    opening = _opening("Key implication: Qwen3.5-9B native 131K context fits in 6.6 GB with turbo2 instead of 10 GB with f16.")
    assert "131,000-token context fits" in opening and "Key implication" not in opening


def test_a_dotted_config_path_ending_in_a_known_setting_is_not_called_a_measured_value():
    text = ("Increase policy.generation.vllm_cfg.gpu_memory_utilization from 0.80 to 0.88 for the H100 recipe. The "
            "additional vLLM memory allocation increases available KV-cache capacity.")
    assert "A measured value" not in explain_offline(text, "en")["explanation"]


def test_figures_on_two_items_of_a_list_are_no_range():
    # Glenn Lockwood's DeepSeek-V3 all-to-all arithmetic: 7,168 bf16 elements = 14,336 bytes per token's hidden state
    from service.explain import pipeline
    text = ("This calculates out to 32,640 tokens sent out per GPU. Given that each token's hidden state has 7,168 "
            "elements, this means\n- Each token's hidden state vector is 14,336 bytes\n- 32,640 tokens' hidden states add "
            "up to 468 MB")
    size = next(f for f in pipeline.analyse(text, "en").figures if f.quote == "14,336 bytes")
    assert size.quantity in ("bytes", "memory_bytes")  # not the next item's "tokens"


def test_an_arabic_reason_leaves_no_english_count_noun():
    explanation = explain_offline(LLAMA3_FAILURES, "ar")["explanation"]
    prose = "\n".join(line for line in explanation.split("## المصطلحات")[0].splitlines() if not line.startswith("> "))
    assert "interruptions" not in prose  # the English point is quoted apart, as written


def test_a_token_count_that_qualifies_a_noun_stays_an_adjective():
    opening = _opening("A 128K-token context does not just need 16x more compute than an 8K context; it needs 256x more "
                       "in the attention layers alone.")
    assert "-token context does not just need" in opening and "sequences of" not in opening


def test_a_caption_over_rows_is_no_companion_of_the_point():
    text = ("The additional vLLM memory allocation increases available KV-cache capacity and improves rollout generation "
            "throughput.\n\nAveraged over the measured steady-state steps:\n\n| Metric | 0.80 | 0.88 |\n"
            "| E2E tokens/sec/GPU | ~51 | ~57.8 |\n\nThis is approximately an 11% improvement in E2E throughput.")
    assert "Averaged over" not in " ".join(g["text"] for g in explain_offline(text, "en")["gist"])


# Round 29's first judging (pack 60), fixed after both packs were written
def test_a_year_before_a_noun_is_no_count_of_it():
    from service.explain import pipeline
    doc = pipeline.analyse("يتصدر تصنيف الحواسيب العملاقة في العالم لعام 2026 جهاز El Capitan بقوة تبلغ 1809 بيتافلوب.", "ar")
    assert all(f.value != 2026 for f in doc.figures)
    assert "2048 GPUs" in [f.quote for f in pipeline.analyse("We trained on 2048 GPUs in 2024.", "en").figures]


def test_meanwhile_in_arabic_is_no_parallel_computing():
    text = "وبالتوازي مع ذلك، يشهد الكوكب سباقًا حقيقيًا نحو الوصول إلى مستوى الإكساسكيل بحواسيب عملاقة."
    answer = explain_offline(text, "ar")
    assert "parallelism" not in {t["id"] for t in answer["terms"]}
    assert not answer["gist"][0]["text"].count("بالتوازي")


def test_a_time_written_as_a_floor_gives_no_plain_ratio():
    text = ("Autosplit: prefill completed in ~3.5 min. Tensor parallel: prefill was still running after 7+ minutes for "
            "the same prompt, so I had to abort it.")
    assert all("2 times" not in (c.get("why") or "") for c in _claims(text))


def test_a_naive_expectation_the_author_refutes_is_not_their_point():
    text = ("The headline of every H100 datasheet, 989 TFLOP/s of FP16 matrix throughput, implies that any 70B model "
            "should decode at roughly seven thousand tokens per second. That isn’t what providers deliver. So one of two "
            "things is true: either every implementation wastes the GPU, or the compute-only calculation is wrong.")
    assert "seven thousand" not in _opening(text)


def test_dequantization_costs_at_large_batches_not_small():
    definition = _term("Weight-only int4 quantization needs dequantization before each matmul.", "dequantization")["definition"]
    assert "large batches" in definition


def test_a_companion_that_acts_on_this_needs_its_own_antecedent():
    opening = " ".join(g["text"] for g in explain_offline(
        "In a transformer decoder, generating each new token involves computing attention against all prior tokens. KV "
        "caching mitigates this by storing past keys and values. A drawback is that the KV cache grows linearly with "
        "sequence length. For each generated token, caches must store a key and value vector per layer and head.",
        "en")["gist"])
    assert not ("must store" in opening and "mitigates this" in opening)


def test_the_other_language_line_promises_only_what_the_answer_gives():
    # a round-29 reader: "promises to explain its numbers below and then explains none"
    from service.i18n.messages import messages
    assert "figures" not in messages("en")["gist"]["nothing_other_language"]
    assert "أرقام" not in messages("ar")["gist"]["nothing_other_language"]


def test_an_moe_layers_network_bound_all_to_all_is_no_data_parallel_bottleneck():
    text = ("Every MoE layer does all-to-all communication (dispatch tokens to experts, combine results); this is "
            "memory/network bound, not compute bound. MegaScale-Infer shows 1.90x per-GPU throughput by disaggregating "
            "attention and expert FFNs.")
    for lang in ("en", "ar"):
        answer = explain_offline(text, lang)
        assert "dp-comms-bound" not in {t["id"] for t in answer["terms"]}
        assert "التدرجات" not in " ".join(g["text"] for g in answer["gist"])


# Kokolis et al. 2024, "Revisiting Reliability in Large-Scale ML Research Clusters", as a blog quotes it: MTTF 7.9 h at
# 1,024 GPUs, 1.8 h at 16,384, ~14 min at 131,072. 1.8 h x 16,384 / 131,072 = 13.5 min, "~14 minutes".
MTTF_LIST = ("Meta's Llama 3 paper: 419 unplanned interruptions across a 54-day run on 16,000 GPUs. That's one failure "
             "every ~3 hours.\nAnd it gets worse as clusters scale:\n- 7.9 hours Mean-Time-To-Failure (MTTF) at 1,024 GPUs\n"
             "- 1.8 hours MTTF at 16,384 GPUs\n- ~14 minutes MTTF at 131,072 GPUs")


def test_an_interval_named_after_its_figure_scales_with_the_cluster():
    claims = _claims(MTTF_LIST)
    last = next(c for c in claims if "131,072" in c["quote"])
    assert last["verdict"] == "consistent" and "14 minutes" in last["why"]


def test_an_interval_the_next_sentence_restates_is_checked():
    claim = next(c for c in _claims(MTTF_LIST) if "419" in c["quote"])
    assert claim["verdict"] == "consistent" and "3.1 hours" in claim["why"]


# "A B200 with 8 TB/s bandwidth running a 70 B parameter model at FP8 (~70 GB resident) caps out at ~115 tokens/sec":
# 70 GB / 8 TB/s = 8.75 ms per read of the weights, 1 / 8.75 ms = 114 tokens per second.
DECODE_CAP = ("tokens-per-second is therefore close to (memory bandwidth) ÷ (bytes read per token). A B200 with 8 TB/s "
              "bandwidth running a 70 B parameter model at FP8 (~70 GB resident) caps out at ~115 tokens/sec per GPU stream.")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_decode_cap_is_redone_from_weights_over_bandwidth(lang):
    claim = next(c for c in _claims(DECODE_CAP, lang) if c["calculations"])
    assert claim["verdict"] == "consistent" and "114" in claim["why"]


def test_a_formulas_bracketed_operands_stay_and_an_article_is_lower_case():
    assert "(memory bandwidth) ÷ (bytes read per token)" in _opening(DECODE_CAP.split(". ")[0] + ".")
    opening = _opening(DECODE_CAP)  # the worked example is the point; its article is lower case after "says that"
    assert "that a B200" in opening and "that A B200" not in opening


def test_a_torus_passage_reads_hops_and_a_3d_mesh_as_wiring():
    text = ("A torus arranges chips so each one has six identical neighbours. A 3D mesh would do the same, but without "
            "wraparound the corner chips have fewer neighbours. So an 8x8x16 pod has worse diameter (16 hops) than 8x8x8.")
    terms = {t["id"]: t for t in explain_offline(text, "en")["terms"]}
    assert "device-mesh" not in terms
    if "network-hop" in terms:
        assert "neighbour in a torus" in terms["network-hop"]["definition"]


def test_xeon_phi_is_not_the_xeon_server_cpu():
    text = "Aurora was first planned around Intel Xeon Phi Knights Hill processors, with a peak of 180 petaflops."
    assert "intel-xeon" not in {t["id"] for t in explain_offline(text, "en")["terms"]}


def test_a_hyphenated_mean_time_to_failure_takes_the_mttf_sense():
    term = next(t for t in explain_offline(MTTF_LIST, "en")["terms"] if "Failure" in t["term"] or "MTTF" in t["term"])
    assert "until something fails" in term["definition"]


@pytest.mark.parametrize("sentence", [
    "This behavior does not cause any functional failure, but leads to unintentional performance issues.",
    "The new default caused a performance regression on A100.",
])
def test_a_sentence_that_reports_performance_issues_reports_a_problem(sentence):
    from service.explain import reported
    assert reported.role(sentence, "en") == "problem"


def test_a_common_noun_an_acronym_qualifies_takes_an_article():
    from service.explain.gist_names import _with_article
    assert _with_article("HPC system", "en") == "the HPC system"
    assert _with_article("H100", "en") == "H100"


def test_a_derivation_written_a_step_per_line_is_checked():
    text = ("Time = 70 GB ÷ 3.35 TB/s\n≈ 0.0209 seconds\n≈ 20.9 milliseconds\nTokens per second\n≈ 1000 ms ÷ 20 ms\n"
            "≈ 48 tokens/second")
    claims = [c for c in _claims(text) if c["calculations"]]
    assert any("0.0209" in c["quote"] and c["verdict"] == "consistent" for c in claims)
    assert any("50" in c["why"] and "48" in c["why"] for c in claims)  # 1000 / 20 is 50, said beside the text's 48


def test_kubernetes_pods_and_a_lower_case_vgpu_flag_are_glossed():
    text = ("When multiple pods are created from a podgroup with vgpu enabled, current scheduling policy prioritizes "
            "scheduling those pods to the same physical GPU, which leads to performance issues.")
    terms = {t["id"]: t for t in explain_offline(text, "en")["terms"]}
    assert "vgpu" in terms
    assert "Kubernetes" in terms["tpu-pod"]["definition"]
    assert "tpu-pod" not in {t["id"] for t in explain_offline("The pod of dolphins swam by the boat.", "en")["terms"]}


def test_a_part_of_a_whole_with_an_approximate_share_and_words_in_its_bracket():
    # GB200 NVL72 racks with 8 of 72 GPUs kept as warm spares: 8 / 72 = 11.1%, "~11%"
    text = ("On GB200 systems, standard practice is to reserve 8 out of 72 GPUs (~11% which adds up to several hundred "
            "thousand dollars) per rack for warm spares.")
    claim = next(c for c in _claims(text) if c["calculations"])
    assert claim["verdict"] == "consistent" and "11.1%" in claim["why"]
