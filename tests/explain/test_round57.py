"""Round 57's blind readers (bench/corpus/HOLDOUT_R57_JUDGING.md): each fix a general rule, tested on sentences written
for the test, with the passage that showed it named beside it."""

import pytest

from service.explain.compose import explain_offline


def _answer(text: str, lang: str = "en") -> dict:
    return explain_offline(text, lang)


def _term(answer: dict, term_id: str) -> dict | None:
    return next((t for t in answer["terms"] if t["id"] == term_id), None)


def test_latency_with_no_serving_cue_has_the_general_sense():
    # round 57 P24 (a checkpointing post): "E2E latency is thus improved by over 6.5x" was given the served-request sense
    answer = _answer("Set up: 1856 H200 GPUs, Llama3-70B, HSDP2 with TorchTitan. Checkpoint saves now run in a background "
                     "process, avoiding GIL contention with the trainer threads. E2E latency is thus improved by over 6.5x.")
    latency = _term(answer, "latency")
    assert latency is not None and "request" not in latency["definition"].split(":")[0], latency
    served = _term(_answer("The latency of each request rose when the server batched more users together."), "latency")
    assert served is not None and "request" in served["definition"], served


def test_step_time_in_an_rl_training_text_is_the_training_step():
    # round 57 P22 (a DeepSpeed pull request): "3-8% of step time" beside vLLM's sleep/wake was read as a decode step
    text = ("All 8 GPUs are shared between vLLM rollouts and DeepSpeed training, switching via vLLM's sleep/wake "
            "mechanism. Sleep/wake overhead is only 3-8% of step time.")
    step = _term(_answer(text), "step-time")
    assert step is not None and "decode" not in step["definition"], step


def test_warm_up_beside_a_count_of_training_iterations_is_the_training_warm_up():
    # round 57 P23 (DeepSpeed SuperOffload): "after the initial warm-up phase ... 0.12% of the total iterations"
    answer = _answer("Gradient clipping is rarely triggered after the initial warm-up phase, when gradient variance falls: "
                     "only 93 times in 79,000 training iterations.")
    ids = {t["id"] for t in answer["terms"]}
    assert "benchmark-warmup" not in ids, ids


@pytest.mark.parametrize("text, zero", [
    # round 57 P08 (DeepSpeed-Chat): "during Stage 3 of the RLHF training" is the pipeline's third step
    ("The throughput of DeepSpeed-HE during Stage 3 of the RLHF training depends on the generation phase.", False),
    ("With DeepSpeed ZeRO, Stage 3 shards the parameters, so a 70B model fits on 8 GPUs.", True),
])
def test_a_bare_stage_3_is_zero_only_outside_an_rlhf_pipeline(text, zero):
    ids = {t["id"] for t in _answer(text)["terms"]}
    assert ("zero-3" in ids) == zero, ids


def test_memory_allocation_is_the_allocator_only_beside_its_mechanics():
    # round 57 P15 (IBM on FSDP over Ethernet): "at maximum GPU memory allocation ... rebalance the memory allocation"
    plain = _answer("We are already at maximum GPU memory allocation in PyTorch, so we must rebalance the memory allocation "
                    "to allow a larger batch size.")
    assert _term(plain, "cuda-caching-allocator") is None
    allocator = _answer("Each cudaMalloc synchronises the GPU, so PyTorch's memory allocation keeps freed blocks in a cache.")
    assert _term(allocator, "cuda-caching-allocator") is not None


def test_these_parameters_added_up_are_the_weights():
    # round 57 P01 (the scaling book): "Adding these parameters up ... 13e9 total parameters" was glossed as settings;
    # "these parameters" is no cue of settings (a table's or a command's own words are)
    text = ("Adding these parameters up, we get 8.5e9 + 4.2e9 + 0.3e9 = 13e9 total parameters. A 13B model uses 26GB for "
            "its parameters in bf16, and the optimizer keeps fp32 moments for every parameter's gradient.")
    parameters = _term(_answer(text), "parameters")
    assert parameters is not None and "weights" in (parameters.get("expansion") or ""), parameters


def test_an_approximate_product_in_mb_is_judged_in_decimal_units():
    # round 57 P01: "around 8k x 5120 x 2 bytes = 80MB" was called consistent only by reading MB as 1,024 x 1,000
    answer = _answer("If we prefill 8k tokens, a single activation only uses around 8k x 5120 x 2 bytes = 80MB of memory.")
    assert [c["verdict"] for c in answer["claims"]] == ["consistent"], answer["claims"]
    assert "powers of 1,024" not in answer["explanation"]


def test_first_token_generation_is_not_the_decode_phase():
    # round 57 P04 (a disaggregated-serving issue): "low-latency first token generation"
    ids = {t["id"] for t in _answer("Layer-wise KV transfer is critical for low-latency first token generation after "
                                    "prefill in disaggregated serving.")["terms"]}
    assert "decode-phase" not in ids, ids


def test_a_degree_after_pp_in_a_layout_is_pipeline_parallelism_not_a_count():
    # round 57 P19: "TP8/PP4/DP2" read PP4 as "Here PP stands for a number"
    pp = _term(_answer("We trained on 64 GPUs with TP8/PP4/DP2 and the distributed optimizer."), "pipeline-parallelism")
    assert pp is not None and "stands for a number" not in pp["definition"], pp
    formula = _term(_answer("The bubble of 1F1B with 8 micro-batches is (PP-1)/PP of the step when PP stages run."),
                    "pipeline-parallelism")
    assert formula is None or "stands for a number" in formula["definition"] or "stages" in formula["definition"]


def test_the_set_up_in_brackets_is_not_the_subject_of_a_problem():
    # round 57 P19-ar: «يذكر الكاتب مشكلة فيما يخص توازي الموتر على 8 وحدات GPU» for "(16x GB300, TP8/PP4/DP2, ...) ...
    # OOM-killed the job": the layout is where it ran, not what failed
    text = ("Synchronous save stages all write buckets to host memory before any file write starts. On 744B RL training "
            "(16x GB300, TP8/PP4/DP2, distributed optimizer), that is ~650 GB/node against ~780 GB available, and the "
            "first save OOM-killed the job.")
    opening = _answer(text, "ar")["explanation"].split("##")[1]
    assert "توازي الموتر" not in opening and "المحسن الموزع" not in opening, opening


def test_a_product_whose_result_is_in_the_next_table_cell_is_not_called_unworked():
    # round 57 P14 (the scaling book): "Params | 2 * 70GB | ~140GB" was said to be left unworked
    text = "Params | 2 * 70GB | ~140GB\nOptimizer State | 8 * 70GB | ~560GB\nTotal |  | ~700GB"
    assert "unworked" not in _answer(text)["explanation"]


def test_a_relative_clause_cut_from_its_sentence_is_never_the_point():
    # round 57 P23-en: "The authors say that which requires the CPU to wait until all gradients have been received"
    text = ("Gradient clipping needs the global gradient norm, and mixed precision needs a global check for NaN values. "
            "Which requires the CPU to wait until all gradients have been received before the optimizer step. "
            "We propose a speculation-then-validation schedule that runs the optimizer step early.")
    opening = _answer(text)["explanation"].split("##")[1]
    assert "that which" not in opening.lower(), opening


def test_a_definition_whose_first_sentence_is_a_label_says_more():
    # round 57 P11 (TorchTitan's MXFP8 docs): "torch.float8_e4m3fn: Suffixes on FP8 type names." said nothing
    shown = _answer("Dynamic quantization of activations in torch.float8_e4m3fn uses the E4M3FN format.")["explanation"]
    line = next(line for line in shown.splitlines() if "Suffixes on FP8 type names" in line)
    assert "infinity" in line, line


def test_a_point_concluding_from_the_sentence_before_takes_no_other_reason():
    # round 57 P02-ar (Transformers' Llama 2 page in Arabic): "...؛ لذلك، يجب تدريب النموذج في bfloat16" was given
    # "والسبب هو ..." from a paragraph about loading dtypes as its reason
    text = ("الوزن عبر الإنترنت غير مهم في الغالب عند تهيئة النموذج. والسبب هو أن النموذج سيتم تنزيله أولاً ثم تحويله إلى "
            "الدقة الافتراضية لمكتبة torch.\nلا يوصى بتدريب النموذج في float16 وهو معروف بإنتاج nan؛ لذلك، يجب تدريب "
            "النموذج في bfloat16.")
    opening = _answer(text, "ar")["explanation"].split("##")[1]
    assert "bfloat16" in opening and "تنزيله" not in opening, opening


def test_an_arabic_compute_core_is_not_a_software_kernel():
    # round 57 (an Arabic page on NVFP4): «NVFP4 كصيغة أصيلة للنواة الحسابية» glossed as a kernel launched on a GPU
    ids = {t["id"] for t in _answer("أدخلت NVIDIA صيغة NVFP4 كصيغة أصيلة للنواة الحسابية في شرائح Blackwell، فتضاعفت "
                                    "سرعة الحساب مقارنة بصيغة FP8.", "ar")["terms"]}
    assert "gpu-kernel" not in ids, ids
    ids = {t["id"] for t in _answer("تطلق مكتبة Triton النواة الحسابية على GPU بعد دمج عمليتي الضرب والجمع.", "ar")["terms"]}
    assert "gpu-kernel" in ids, ids


def test_a_period_in_months_is_said_in_months_in_the_other_language():
    # round 57 P01-en (an Arabic post on GPU cost): "48 شهراً" was listed as "1,461 days", a number the text never writes
    text = ("الاستهلاك على 48 شهراً افتراض محافظ لعمر GPU في مركز البيانات، وتكلفة الكهرباء 58 دولارًا في الشهر "
            "لكل وحدة H100 عند 730 ساعة.")
    opening = _answer(text, "en")["explanation"].split("##")[1]
    assert "1,461" not in opening and ("48 months" in opening or "figures" not in opening), opening


def test_a_fractional_factor_the_passage_never_gives_is_an_outside_number():
    # round 57 P05 (a Megatron-FSDP issue): a general reason said "about one and a half times the communication of plain
    # data parallelism", a magnitude the passage never gives
    from service.explain import outside_numbers
    said = "Sharding the weights costs about one and a half times the communication of plain data parallelism."
    assert outside_numbers.outside(said, "FSDP2 keeps O(1) buffers alive.", outside_numbers.RULE_FACTS) == ["one and a half times"]
    assert outside_numbers.outside("It costs 1.5x the traffic.", "ZeRO-3 costs 1.5x the traffic of DDP.", outside_numbers.RULE_FACTS) == []


def test_a_year_the_passage_never_gives_is_not_in_a_heading():
    # round 57 P03 (DeepSpeed on Azure): "MT-NLG (..., Microsoft and NVIDIA's dense language model of 2021)"
    shown = _answer("DeepSpeed trained a 530B model at 171 TFLOPs per GPU on 1024 A100s, above the 126 TFLOPs of MT-NLG "
                    "with tensor and pipeline parallelism.")["explanation"]
    line = next(line for line in shown.splitlines() if line.startswith("- **MT-NLG**"))
    assert "2021" not in line, line
    dated = _answer("MT-NLG, trained in 2021 with 3D parallelism, reached 126 TFLOPs per GPU.")["explanation"]
    assert "model of 2021" in dated


def test_a_brief_definition_is_never_cut_to_its_setting_phrase():
    # stop 57's audit of older answers: "rollout (RL generation): In reinforcement learning for language models."
    from service.explain.definitions import brief_definition
    said = brief_definition("In reinforcement learning for language models, generating answers (often long chains of "
                            "reasoning) from the current model for a batch of prompts, so they can be scored and learned from.", 12)
    assert said.startswith("In reinforcement learning for language models, generating answers") and said.endswith("prompts."), said


def test_a_parallelism_before_a_part_is_no_compound_term():
    # round 57 P18 (SGLang's DP attention PR): "TP MoE: MoE (mixture of experts), for TP (tensor parallelism)." said nothing
    ids = {t["id"] for t in _answer("Implement model forward with DP attention + TP MoE for DeepSeek-V2 on 8*H100.")["terms"]}
    assert "compound:tp moe" not in ids, ids


def test_an_expression_read_as_written_keeps_its_operator():
    # round 57 P14 (the scaling book): "we need 16.5e12 / 96e9 = 171 TPUs" was restated "16.5e12, 96e9 = 171 TPUs"
    answer = _answer("Since each TPU v5p has 96GB of HBM, we need 16.5e12 / 96e9 = 171 TPUs.")
    assert "16.5e12, 96e9" not in answer["explanation"] and all("16.5e12, 96e9" not in c["plain"] for c in answer["claims"])


def test_a_count_worked_out_from_a_total_does_not_confirm_it():
    # round 57 P14: "Total | | ~16.5TB" was "consistent: 171 x 96GB", the 171 being 16.5e12 / 96e9 itself
    text = ("Params | 2 * 70GB | ~140GB\nGradient Checkpoints | 2 * 8192 * 4e6 * 3 * 80 | ~15.8TB\nTotal |  | ~16.5TB\n"
            "Since each TPU v5p has 96GB of HBM, we need 16.5e12 / 96e9 = 171 TPUs.")
    assert "171 x 96GB" not in _answer(text)["explanation"]


@pytest.mark.parametrize("text, term_id, shown", [
    # stop 57's audit of older answers (a sample of rounds 40-56), each a sense the passage does not use
    ("Sparse attention on Ascend NPUs is about materializing the expected performance gain on the hardware.",
     "materialize-tensor", False),
    ("The fused kernel avoids materializing the attention matrix in HBM.", "materialize-tensor", True),
    ("We get lossless 4-bit quantization of the weights with GPTQ.", "lossless", False),
    ("Speculative decoding is lossless: the output distribution of the large model is unchanged.", "lossless", True),
])
def test_senses_the_passage_does_not_use_are_not_shown(text, term_id, shown):
    ids = {t["id"] for t in _answer(text)["terms"]}
    assert (term_id in ids) == shown, ids


def test_deepep_kernel_modes_are_gpu_kernels():
    # stop 57 audit: "DeepEP kernel mode" was glossed as the operating-system kernel
    answer = _answer("DeepEP has two kernel modes: normal kernels for prefill and low-latency kernels for decode.")
    kernel = _term(answer, "gpu-kernel")
    assert kernel is not None and "operating system" not in kernel["definition"], kernel


def test_a_hyphenated_number_word_the_passage_never_gives_is_cut():
    # stop 57 audit: "Kimi K2: ... about one trillion parameters in total, thirty-two billion active per token" beside
    # a passage that gives only "1T"
    from service.explain import outside_numbers
    assert outside_numbers.outside("thirty-two billion active per token", "Kimi K2 (1T, FP8)") == ["thirty-two"]
    assert outside_numbers.outside("thirty-two threads", "a warp of 32 threads") == []
    line = next(line for line in _answer("We load the raw checkpoint of Kimi K2 (1T, FP8) on 16 H800 GPUs.")["explanation"]
                .splitlines() if line.startswith("- **K2**"))
    assert "thirty-two" not in line, line


def test_fault_tolerance_in_a_training_text_is_not_a_facility_sense():
    # rounds 56 (K4) and the stop 57 audit: "for a facility, redundant power and cooling" beside a training system
    fault = _term(_answer("FT-HSDP makes training fault tolerant: only the replica with the failed GPU restarts."),
                  "fault-tolerance")
    assert fault is None or "cooling" not in fault["definition"], fault


def test_h20_beside_nvlink_and_hbm_is_nvidias_gpu_with_its_own_entry():
    # stop 57 audit: "H20: NVIDIA's GPU of the Hopper generation." (a catalog line) where the glossary has the H20's entry
    ids = {t["id"] for t in _answer("On H20, prefetching experts over NVLink is slower than reading local HBM.")["terms"]}
    assert "nvidia-h20" in ids and "chip:h20" not in ids, ids


def test_an_appositive_of_adjectives_keeps_its_noun():
    # stop 57 audit: "torchtitan: Here, as the text defines it: an open-source." from "TorchTitan, an open-source,
    # PyTorch-native distributed training system that ..."
    from service.explain import text_definitions
    found = text_definitions.find("We present TorchTitan, an open-source, PyTorch-native distributed training system that "
                                  "unifies state-of-the-art techniques.")
    assert [d.meaning for d in found] == ["an open-source, PyTorch-native distributed training system"], found


def test_a_way_of_doing_something_keeps_the_way_after_its_colon():
    # stop 57 audit: "zigzag ring attention: A way of splitting a long sequence for ring attention." said no way
    from service.explain.definitions import brief_definition
    said = brief_definition("A way of splitting a long sequence for ring attention: the sequence is cut into twice as many "
                            "chunks as chips, so every chip does about the same work under a causal mask.", 12)
    assert "twice as many chunks" in said, said


def test_an_aside_count_between_commas_is_dropped_alone():
    # stop 57 audit: "warp: The group of threads, thirty-two on NVIDIA (often sixty-four on AMD's), that the GPU schedules
    # together ..." in a passage that gives no warp size was cut to "The group of threads."
    line = next(line for line in _answer("Threads in a warp run in lockstep; the kernel relies on warp-aligned spatial "
                                         "correlation of the tokens.")["explanation"].splitlines() if "**warp**" in line)
    assert "thirty-two" not in line and "The group of threads that the GPU schedules together" in line, line


def test_the_latency_of_a_forward_pass_is_a_step_latency():
    # stop 57 audit: "the latency of a forward pass" beside requests was given a served request's wait
    text = ("With 64 requests in the batch, the latency of a forward pass grows because the GEMM assigns more thread "
            "blocks along M; vLLM serves the requests with chunked prefill.")
    latency = _term(_answer(text), "latency")
    assert latency is None or "request and getting its answer" not in latency["definition"], latency


def test_a_deepspeed_moe_model_name_is_read_by_its_parts():
    # round 57 P10 (DeepSpeed-MoE for NLG): readers asked what "1.3B+MoE-128" means
    answer = _answer("The 1.3B+MoE-128 model has roughly 8x the parameters (52B) of the 6.7B dense model.")
    item = _term(answer, "notation:1.3b+moe-128")
    assert item is not None and "1.3B dense model with 128 experts in each MoE layer" in item["definition"], answer["terms"]
    arabic = _term(_answer("The 1.3B+MoE-128 model has roughly 8x the parameters (52B).", "ar"), "notation:1.3b+moe-128")
    assert arabic is not None and "128 خبيرًا" in arabic["definition"], arabic


def test_two_sizes_a_thousand_times_apart_are_no_comparison_nobody_asked_for():
    # round 57 P20 (PyTorch DDP bucketing): "If the final bucket is 25MB and we wait for the final 1KB ..." got
    # "25MB vs 1KB: about 25000 times as much", a calculation the reader called noise
    text = ("If the final bucket to reduce is 25MB and we wait for the final 1KB worth of gradients before we start, we "
            "may achieve better end to end latency if we instead start reduction sooner, without the final 1KB.")
    assert _answer(text)["calculations"] == []


def test_sharded_end_to_end_is_throughout_not_a_measurement():
    # stop 57 audit: "keeps weights sharded end-to-end" was glossed as measured over a whole job or request
    answer = _answer("The P2P path keeps weights sharded end-to-end from the Megatron TP rank to the matching SGLang TP "
                     "rank, with no full gather.")
    e2e = _term(answer, "end-to-end")
    assert e2e is not None and "throughout" in (e2e.get("expansion") or ""), e2e


def test_a_small_language_model_used_as_a_draft_is_defined_with_that_use():
    # pack 103 P03 (an Arabic post on EAGLE in vLLM): an "SLM" drafting for a target model was defined only as an
    # on-device model
    slm = _term(_answer("EAGLE uses a separate SLM as the draft model, about 1/10 the size of the target, to guess k tokens "
                        "that the target verifies in one pass."), "small-language-model")
    assert slm is not None and "draft model" in slm["definition"], slm
