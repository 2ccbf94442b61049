"""The figure reader on new passages written in the style of real threads (issue 18): log lines, config flags,
colloquial FLOP units, chip peaks, tables, pipeline letters, Arabic units and sums, and values that are no figure."""

import math

import pytest

from service.explain.figures import Figure, read_figures

MONTH = 365.25 / 12 * 86400  # the mean calendar month


def by_quantity(text: str) -> dict[str, list[Figure]]:
    found: dict[str, list[Figure]] = {}
    for figure in read_figures(text):
        found.setdefault(figure.quantity, []).append(figure)
    return found


def got(text: str, quantity: str) -> list[float]:
    """The values of one quantity in a text, in order."""
    return [f.value for f in by_quantity(text).get(quantity, [])]


def close(a: list[float], b: list[float]) -> bool:
    return len(a) == len(b) and all(math.isclose(x, y, rel_tol=1e-9) for x, y in zip(a, b))


# -- values that are no figure


def test_a_value_past_float_range_is_never_a_figure():
    text = "the loss spiked to 12e45678 at one point, then we trained on 3e5 tokens"
    figures = read_figures(text)
    assert all(math.isfinite(f.value) for f in figures)
    assert not any("12e45678" in f.quote or "45678" in f.quote for f in figures)
    assert got(text, "tokens") == [3e5]


def test_names_stay_names_and_dimensions_are_no_numbers():
    text = "We run on 256 H100 GPUs and still OOM in 1D at batch size = 2; see Table 4 and the v5p notes."
    quotes = [f.quote for f in read_figures(text)]
    assert "4" not in quotes and "1" not in quotes and "5" not in quotes
    assert got(text, "n_chips") == [256]


# -- FLOP rates: colloquial units, per-device units, a chip's peak versus what a run achieves


def test_lower_case_tflops_is_a_rate_and_a_named_chips_peak_is_its_peak():
    text = "on a100 i get 190 tflops, while the a100 peak is 312 tflops"
    assert got(text, "flop_per_s_per_chip") == [190e12]
    assert got(text, "peak_flop_per_s") == [312e12]


def test_a_spec_sheet_value_is_the_peak_even_without_the_word():
    assert got("h100 is 989 tflops at bf16, and 1,979tflops with sparsity", "peak_flop_per_s") == [989e12, 1979e12]
    assert got("each TPU v4 chip has 275 TFLOPS per chip for BF16", "peak_flop_per_s") == [275e12]


def test_a_small_tflops_count_is_a_per_chip_rate_not_a_run_total():
    # no training run's total compute is 4e14 FLOPs: "TFLOPs" here is a per-second rate, as forum posts write it
    text = "we hit 401 TFLOPs after the warmup"
    assert got(text, "flop_per_s_per_chip") == [401e12]
    assert got(text, "total_flops") == []


@pytest.mark.parametrize("text, value", [
    ("- ~1180 MODEL_TFLOP/s/GPU at GBS 2048", 1180e12),
    ("the job sustained 142 TFlops/GPU for a week", 142e12),
    ("about 880 calibrated TFLOP/s/GPU", 880e12),
])
def test_per_device_flop_units(text, value):
    assert got(text, "flop_per_s_per_chip") == [value]


def test_numbers_joined_by_and_or_versus_share_the_unit():
    assert got("BF16 and FP8 runs reached 610 and 702 TFLOPs respectively", "flop_per_s_per_chip") == [610e12, 702e12]
    assert got("about 880 TFLOP/s/GPU versus 842 for the baseline", "flop_per_s_per_chip") == [880e12, 842e12]


def test_bytes_per_parameter_model_state_and_weights():
    text = ("A mixed-precision Adam bound is roughly 70B x 16 bytes, or 1.1 TB of model state, before activations. "
            "For inference, BF16 weights alone are about 140 GB.")
    assert got(text, "bytes_per_param") == [16]
    assert got(text, "bytes_total") == [1.1e12]
    assert got(text, "weights_bytes") == [140e9]
    assert got(text, "activation_bytes") == []
    assert got("Adam needs 16 bytes per parameter; bf16 weights are 2 bytes/param", "bytes_per_param") == [16, 2]


# -- log lines and results tables


def test_a_step_log_line():
    text = "step: 120, seconds: 2.480, TFLOP/s/device: 301.5, Tokens/s/device: 4128.9"
    assert got(text, "step_time_s") == [2.48]
    assert got(text, "flop_per_s_per_chip") == [301.5e12]
    assert got(text, "tokens_per_s_per_chip") == [4128.9]
    assert got(text, "peak_flop_per_s") == []


def test_a_label_after_a_value_names_the_next_value():
    # "tps: 2,310  mfu: 41.07%": the "mfu" label belongs to 41.07%, never to 2,310 (an MFU of 231,000%)
    text = "memory: 61.20GiB(64.42%)  tps: 2,310  mfu: 41.07%"
    assert got(text, "tokens_per_s_per_chip") == [2310]  # torchtitan's tps beside one device's memory share: per device
    assert got(text, "mfu") == [0.4107]
    assert close(got(text, "memory_bytes_per_chip"), [61.20 * 2**30])
    assert got(text, "memory_fraction_of_hbm") == [0.6442]


def test_an_mfu_written_as_a_bare_number_is_a_percentage():
    assert got("this one sits at 45 MFU", "mfu") == [0.45]
    assert got("this one sits at 450 MFU", "mfu") == []


def test_a_results_table_with_short_byte_sizes():
    text = "node: 4*A800 80G\n1F1B   31 samples/(4 GPU)/seconds   61G MEM"
    assert got(text, "n_chips") == [4]
    assert got(text, "hbm_bytes") == [80e9]
    assert got(text, "sequences_per_s") == [31]
    assert got(text, "memory_bytes_per_chip") == [61e9]


def test_a_label_on_the_next_line_belongs_to_the_next_row():
    text = "Model size: 70 billion\nTraining tokens: 2 trillion\nGPUs: 2,048 A100s"
    assert got(text, "params") == [70e9]
    assert got(text, "tokens") == [2e12]
    assert got(text, "n_chips") == [2048]


def test_a_run_of_n_gpus_and_a_server_of_n_gpus():
    text = "results from our 256-GPU runs; each 8-GPU server has its own NICs"
    assert got(text, "n_chips") == [256]
    assert got(text, "chips_per_node") == [8]


def test_a_machine_name_between_a_count_and_its_noun():
    text = "it ran on 16 Frontier nodes for 2.5 months, using 300,000 hours of compute and 120 MWh"
    assert got(text, "n_nodes") == [16]
    assert close(got(text, "time_s"), [2.5 * MONTH])
    assert got(text, "chip_hours") == [300000]
    assert got(text, "energy_wh") == [120e6]


def test_a_batch_far_smaller_than_the_cluster_is_per_device():
    assert got("We run on 256 H100 GPUs and still OOM at batch size = 2", "local_batch_sequences") == [2]
    text = "a batch size of 1,024 sequences on 2,048 GPUs"
    assert got(text, "global_batch_sequences") == [1024]


# -- config flags and notation


def test_config_flags():
    text = "max_target_length=8192 per_device_batch_size=6 ici_fsdp_parallelism=16"
    assert got(text, "seq_len") == [8192]
    assert got(text, "micro_batch") == [6]
    assert got(text, "dp_degree") == [16]


def test_an_abbreviation_then_from_and_to():
    assert got("we bumped TP from 4 to 8 on the larger recipe", "tp_degree") == [4, 8]


def test_pipeline_letters_in_a_pipeline_text_but_not_a_gemm_shape():
    text = "the bubble fell from 43% to 27% (m=4→8) with p=4"
    assert got(text, "microbatches") == [4, 8]
    assert got(text, "pp_degree") == [4]
    assert got("a pipeline stage runs a GEMM with M=8192, N=4096, K=4096", "microbatches") == []


def test_interleaved_virtual_stages_letter():
    assert got("interleaved 1F1B with v=2 and p=8", "virtual_stages") == [2]


def test_a_ratio_sign_without_a_second_operand():
    assert got("still 5.2× off the roofline", "ratio") == [5.2]


def test_percentages_read_with_the_words_beside_them():
    assert got("it beats the 1F1B schedule by up to 15% in throughput", "percent_change") == [0.15]
    text = "the gain drops to 12% once the memory limit is lifted, and it frees 20% of GPU memory"
    assert got(text, "memory_fraction") == [0.2]
    assert got(text, "percent") == [0.12]


def test_a_doubling_time():
    assert close(got("training compute doubles roughly every 6 months", "doubling_time_s"), [6 * MONTH])


# -- Arabic


def test_arabic_units_of_a_chip_spec():
    text = "تقدم الشريحة 2500 تيرافلوب في ذروة أدائها مع 96 جيجابايت من الذاكرة، وعرض نطاق 3.2 تيرابايت في الثانية"
    assert got(text, "peak_flop_per_s") == [2500e12]
    assert got(text, "hbm_bytes") == [96e9]
    assert got(text, "memory_bandwidth_bytes_per_s") == [3.2e12]  # stated with the chip's memory: that memory's bandwidth


def test_a_link_bandwidth_beside_a_memory_size_stays_a_link_bandwidth():
    text = "the B200 has 192GB of HBM3e at 8 TB/s, and NVLink 5 at 1.8 TB/s"
    assert got(text, "memory_bandwidth_bytes_per_s") == [8e12]
    assert got(text, "bandwidth_bytes_per_s") == [1.8e12]


def test_arabic_system_total_and_ratio():
    text = "يحتوي النظام على 4096 شريحة، مما يتيح قوة حوسبة تصل إلى 18.8 إكسافلوب، أي أعلى بنحو 10 أضعاف"
    assert got(text, "peak_flop_per_s_total") == [18.8e18]
    assert got(text, "ratio") == [10]


def test_arabic_sums_share_the_written_multiplier():
    text = "أنفقت الشركة نحو مليار دولار، بينما قدرت تكلفة النموذج بين 40 و90 مليون دولار، وتمثل 20 إلى 35% من التكلفة الإجمالية"
    assert got(text, "cost_usd") == [1e9, 40e6, 90e6]
    assert got(text, "fraction") == [0.2, 0.35]


def test_arabic_active_parameters_and_a_quoted_noun():
    text = "يضم 12 مليار معلمة نشطة وسياقاً يصل إلى 2 مليون “رمز”"
    assert got(text, "active_params") == [12e9]
    assert got(text, "params") == []
    assert got(text, "seq_len") == [2e6]


def test_arabic_doubling_time_range():
    assert close(got("تتضاعف الحوسبة كل 4 إلى 6 أشهر", "doubling_time_s"), [4 * MONTH, 6 * MONTH])


# -- commas: a relative clause, an appositive and an aside keep the figure with its words


def test_a_relative_clause_keeps_its_noun():
    assert got("we extended the context window, which is now 128K tokens", "seq_len") == [128 * 1024]
    assert got("the global batch size, which we set to 1024 sequences", "global_batch_sequences") == [1024]


def test_a_value_set_off_by_commas_after_its_key():
    assert got("The sequence length, 8192, doubles the activations", "seq_len") == [8192]
    assert got("we varied the batch size, 4 runs each", "global_batch_sequences") == []  # no aside: a count of runs


def test_a_figure_in_an_aside_does_not_take_the_subject():
    assert got("MFU, measured over 100 steps, was 38%", "mfu") == [0.38]
    assert got("MFU, measured over 100 steps, was 38%", "steps") == [100]


def test_tokens_per_second_per_gpu_written_after_the_unit():
    assert got("throughput: 3,100 tokens/s per GPU, MFU: 41%", "tokens_per_s_per_chip") == [3100]


def test_this_number_refers_to_the_figure_before():
    text = "The new kernel improves throughput by 12%. This number rises to 20% with a larger batch."
    assert got(text, "percent_change") == [0.12, 0.20]


def test_a_slice_total_that_is_a_whole_number_of_chip_peaks_is_the_slice_peak():
    text = "* a v5e-16 slice totals 3,152 TFLOPS: each TPU v5e chip has 197 TFLOPS for BF16"
    assert got(text, "peak_flop_per_s_total") == [3152e12]
    assert got(text, "peak_flop_per_s") == [197e12]
    assert "16" not in [f.quote for f in read_figures(text)]  # "v5e-16" is the slice's name


def test_a_micro_batch_setting():
    assert got("microbatch=2 leaves the GPU idle half the time", "micro_batch") == [2]


def test_a_key_phrase_after_an_opening_bracket():
    assert got("per-stage kernels (microbatch=2 leaves the GPU idle)", "micro_batch") == [2]
    assert got("the run (batch size 16) was too small to saturate a node", "global_batch_sequences") == [16]


def test_arabic_years_and_number_words():
    text = "يستغرق بناء مركز بيانات حوالي أربع سنوات، منها ثلاث سنوات للتخطيط، وقد أنجزوه في 19 يومًا"
    year = 365.25 * 86400
    assert close(got(text, "time_s"), [4 * year, 3 * year, 19 * 86400])
    assert got("في عام 2020 بدأ المشروع", "time_s") == []


def test_arabic_memory_before_its_size():
    assert got("تأتي كل شريحة مع ذاكرة 2 تيرابايت", "hbm_bytes") == [2e12]


def test_a_memory_field_is_usage_only_in_a_log_line():
    assert got("step 20 | loss: 2.31 | memory: 61.2GB | tps: 3000", "memory_bytes_per_chip") == [61.2e9]
    assert got("GPU: H100\nMemory: 80 GB\nBandwidth: 3.35 TB/s", "memory_bytes_per_chip") == []


def test_a_count_of_operations_stays_a_count():
    assert got("a 7B model needs 42 TFLOPs per sequence", "total_flops") == [42e12]
    assert got("a forward pass is 2 TFLOPs for a 1B model", "total_flops") == [2e12]
    assert got("that's 9 PFLOPs of compute", "total_flops") == [9e15]


def test_numbers_far_apart_in_size_do_not_share_a_unit():
    figures = read_figures("we stopped at iteration 500 and 1.2 TB of checkpoints")
    assert [f.quote for f in figures if f.unit] == ["1.2 TB"]


def test_a_torchtitan_style_log_line():
    text = "[rank0]: step: 50  loss: 7.2041  memory: 45.93GiB(48.35%)  tps: 6,113  tflops: 354.02  mfu: 35.80%"
    assert got(text, "tokens_per_s_per_chip") == [6113]  # "tflops:" labels the next value; tps is per device (354e12 / 6113 = 58 GFLOP per token, an 8B model)
    assert got(text, "flop_per_s_per_chip") == [354.02e12]  # measured in a log line, not a peak
    assert got(text, "peak_flop_per_s") == []
    assert got(text, "mfu") == [0.358]


def test_a_megatron_style_log_line():
    text = ("iteration 100/ 5000 | consumed samples: 51200 | elapsed time per iteration (ms): 4210.5 | "
            "global batch size: 512 | TFLOP/s/GPU: 412.3")
    assert got(text, "expression") == []  # "100/ 5000" is progress, not a division
    assert close(got(text, "step_time_s"), [4.2105])
    assert got(text, "global_batch_sequences") == [512]
    assert got(text, "flop_per_s_per_chip") == [412.3e12]


def test_memory_peaks_at():
    assert close(got("Memory peaks at 71.3 GiB on the first stage.", "memory_bytes"), [71.3 * 2**30])


def test_arabic_chip_spec_sentence():
    text = "تبلغ ذاكرة كل بطاقة 80 جيجابايت، وعرض النطاق الترددي للذاكرة 3.35 تيرابايت/ث، وتقدم 989 تيرافلوبس بدقة BF16."
    assert got(text, "hbm_bytes") == [80e9]
    assert got(text, "memory_bandwidth_bytes_per_s") == [3.35e12]
    assert got(text, "peak_flop_per_s") == [989e12]


def test_arabic_ratio_in_words_and_parallel_degrees():
    assert got("كلّف تدريب النموذج نحو 100 مليون دولار، أي أكثر بثلاثة أضعاف من سابقه.", "ratio") == [3]
    text = "استخدمنا توازي الموترات بدرجة 8 وتوازي خط الأنابيب بدرجة 4، مع دفعة عامة حجمها 1024 تسلسلًا وحجم دفعة صغيرة 2"
    assert got(text, "tp_degree") == [8]
    assert got(text, "pp_degree") == [4]
    assert got(text, "global_batch_sequences") == [1024]
    assert got(text, "micro_batch") == [2]


def test_a_deepspeed_style_report():
    text = ("13B model, ZeRO-3, 4 nodes of 8xA100. Throughput is 1,850 tokens/s/GPU and samples/sec is 14.2. "
            "Memory usage is ~74GB per GPU.")
    assert got(text, "tokens_per_s_per_chip") == [1850]
    assert got(text, "sequences_per_s") == [14.2]
    assert got(text, "memory_bytes_per_chip") == [74e9]


def test_experts_activated_per_token():
    text = "the MoE has 94 layers, 128 experts with 8 activated per token"
    assert got(text, "moe_experts") == [128]
    assert got(text, "moe_top_k") == [8]


def test_a_key_phrase_before_the_next_number_is_not_this_ones_cue():
    text = "The model was pre-trained on 36T tokens with a context length of 32,768, extended to 128K via YaRN."
    assert got(text, "tokens") == [36e12]
    assert got(text, "seq_len") == [32768, 128 * 1024]


def test_a_value_changed_to_keeps_its_quantity():
    assert got("we used TP=4 and later bumped it to 8", "tp_degree") == [4, 8]
    assert got("the batch was 512 sequences, then increased to 1024", "global_batch_sequences") == [512, 1024]


def test_a_training_set_size_is_not_a_batch():
    text = "We train for 1.4T tokens with a batch size of 4M tokens"
    assert got(text, "tokens") == [1.4e12]
    assert got(text, "global_batch_tokens") == [4e6]


def test_from_to_with_units_on_both_sides_share_the_quantity():
    assert got("FP8 training reduced step time from 1.9s to 1.4s (a 26% speedup)", "step_time_s") == [1.9, 1.4]


def test_a_pipeline_letter_at_the_end_of_a_sentence():
    text = "1F1B keeps at most p=8 micro-batches in flight, so activation memory is 8x a single micro-batch; GPipe holds all m=64."
    assert got(text, "microbatches") == [64]
    assert got(text, "pp_degree") == [8]
    assert got(text, "ratio") == [8]


def test_power_in_both_languages():
    assert got("a 1.2 gigawatt campus, 30 MW per hall, 700 W per GPU", "power_w") == [1.2e9, 30e6, 700]
    assert got("حاسوب عملاق بقدرة تصل إلى 1.5 جيجاواط", "power_w") == [1.5e9]


def test_arabic_link_rates_in_bytes_and_bits():
    text = "تصل سرعة الربط عبر NVLink إلى 900 جيجابايت في الثانية، مقارنة بـ 400 جيجابت في الثانية عبر إنفينيباند."
    assert got(text, "bandwidth_bytes_per_s") == [900e9, 50e9]  # 400 Gb/s is 50 GB/s


def test_arabic_micro_batch_count():
    text = "انخفضت نسبة الفقاعة من 25% إلى 12% بعد زيادة عدد الدفعات الصغيرة إلى 32."
    assert got(text, "bubble_fraction") == [0.25, 0.12]
    assert got(text, "microbatches") == [32]


def test_an_out_of_memory_message():
    text = ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.35 GiB total capacity; "
            "75.12 GiB already allocated; 1.02 GiB free; 77.80 GiB reserved in total by PyTorch)")
    assert close(got(text, "hbm_bytes"), [79.35 * 2**30])
    assert close(got(text, "memory_bytes_per_chip"), [75.12 * 2**30, 77.80 * 2**30])


def test_versions_and_source_lines_are_no_figures():
    text = "NCCL error in: ProcessGroupNCCL.cpp:1207, NCCL version 2.18.1; env: torch 2.3.0, CUDA 12.1, 2 nodes x 8 H100"
    quotes = [f.quote for f in read_figures(text)]
    assert not any(q in quotes for q in ("1207", "12.1", "2.18", "2.3"))
    assert got(text, "n_nodes") == [2]
    assert got("env: transformer-engine 1.7, 2 nodes", "n_nodes") == [2]  # a decimal never joins a count


def test_a_greek_letter_with_digits_is_a_name():
    quotes = [f.quote for f in read_figures("We use AdamW with β1 = 0.9, β2 = 0.95, weight decay 0.1")]
    assert "1" not in quotes and "2" not in quotes


def test_more_stages_than_ranks_are_the_stages_in_all():
    text = "A V-shape schedule for 2 PP ranks (4 PP stages) and 6 micro-batches."
    assert got(text, "pp_degree") == [2]
    assert got(text, "pp_stages") == [4]
    assert got("we split the model into 8 pipeline stages on 8 GPUs", "pp_degree") == [8]


def test_the_share_of_peak_a_stated_rate_reaches_is_its_mfu():
    text = "the run sustained 140 TFlops/GPU (45% of BF16 peak performance) for three months."
    assert got(text, "mfu") == [0.45]
    assert got("HFU: we get 400 TFLOP/s per GPU, 40% of peak", "hfu") == [0.4]  # hardware FLOPs said: HFU


# -- config files pasted into threads: YAML, JSON, a device mesh


def test_a_yaml_config():
    text = ("parallelism:\n  dp: 8\n  pp: 2\n  tp: 4\n  expert_parallel_size: 2\ntokens:\n  micro_batch_size: 1\n"
            "  sequence_length: 4096\n  batch_accumulation_per_replica: 32\noptimizer:\n  learning_rate: 2.0e-4")
    assert got(text, "dp_degree") == [8]
    assert got(text, "pp_degree") == [2]
    assert got(text, "tp_degree") == [4]
    assert got(text, "ep_degree") == [2]
    assert got(text, "micro_batch") == [1]
    assert got(text, "seq_len") == [4096]
    assert got(text, "microbatches") == [32]
    assert got(text, "learning_rate") == [2e-4]


def test_a_json_config():
    text = '{"train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": 4, "zero_optimization": {"stage": 2}}'
    assert got(text, "micro_batch") == [8]
    assert got(text, "microbatches") == [4]
    assert got(text, "zero_stage") == [2]


def test_a_device_mesh():
    text = "mesh: data=8, fsdp=64, tensor=2"
    assert got(text, "dp_degree") == [8, 64]
    assert got(text, "tp_degree") == [2]
    assert got("the data=8 rows were dropped", "dp_degree") == []  # no mesh, no axis


def test_arabic_chips_per_node_and_share_of_peak():
    assert got("تعمل كل عقدة بثماني بطاقات H100 مترابطة عبر NVLink", "chips_per_node") == [8]
    assert got("تضم كل عقدة 8 وحدات معالجة رسومات", "chips_per_node") == [8]
    text = "يصل معدل الإنتاجية إلى 400 تيرافلوب لكل بطاقة، أي نحو 40% من الأداء الأقصى."
    assert got(text, "flop_per_s_per_chip") == [400e12]
    assert got(text, "mfu") == [0.4]


def test_references_and_addresses_are_names():
    text = "See #1234 and PR 5678, fixed on 2024-05-01 at 10:32:05; MASTER_ADDR=10.0.0.1:29500, on 64 GPUs."
    assert [f.quote for f in read_figures(text)] == ["64 GPUs"]


def test_a_signed_percentage_is_a_change():
    text = "Training throughput improved from 3,200 to 3,900 tokens/s/GPU (+22%), memory (-8%)."
    assert close(got(text, "percent_change"), [0.22, -0.08])
    assert got(text, "tokens_per_s_per_chip") == [3200, 3900]


def test_a_computed_share_takes_the_sentences_subject():
    assert got("The pipeline bubble is (p-1)/m = 3/12 = 25% for p=4, m=12.", "bubble_fraction") == [0.25]
    text = "MFU = 380/989 = 38.4%"
    assert got(text, "mfu") == [0.384]  # the operand 380 is no MFU of 380%


# -- markdown tables: a bare cell measures what its column's header says


def test_a_markdown_results_table():
    text = ("| Model | #GPUs | GBS | TP | PP | VP | Tokens/sec/GPU | TFLOP/sec/GPU | Step time (ms) |\n"
            "|---|---|---|---|---|---|---|---|---|\n"
            "| 8B dense | 16 | 256 | 1 | 2 | 4 | 11,020 | 512 | 740 |\n"
            "| 70B dense | 128 | 512 | 4 | 8 | 5 | 1,410 | 630 | 2,950 |")
    assert got(text, "n_chips") == [16, 128]
    assert got(text, "global_batch_sequences") == [256, 512]
    assert got(text, "tp_degree") == [1, 4]
    assert got(text, "pp_degree") == [2, 8]
    assert got(text, "virtual_stages") == [4, 5]
    assert got(text, "tokens_per_s_per_chip") == [11020, 1410]
    assert got(text, "flop_per_s_per_chip") == [512e12, 630e12]
    assert close(got(text, "step_time_s"), [0.74, 2.95])


def test_a_table_without_a_header_rule_is_not_read_as_one():
    text = "| 16 | 256 |\n| 32 | 512 |"
    assert all(f.quantity == "number" for f in read_figures(text))


def test_release_numbers_and_sparsity_patterns_are_names():
    text = "The 25.11 tracker ran container nemo:26.06.rc7; 1,979 TFLOPs is for 2:4 sparsity"
    assert [f.quote for f in read_figures(text)] == ["1,979 TFLOPs"]
    assert got("loss 23.05 at the end", "number") == [23.05]  # a loss is not a release


def test_a_context_written_in_k():
    assert got("We train at 8K context on 512 B200s", "seq_len") == [8192]
    assert got("a 128k context window", "seq_len") == [131072]
    assert got("with 2 context parallel ranks", "seq_len") == []


def test_arabic_twice_and_weights():
    text = "أصبح التدريب أسرع بمرتين، وانخفض استهلاك الذاكرة بنسبة 30 في المائة."
    assert got(text, "ratio") == [2]
    assert [f.quote for f in read_figures(text)][0] == "مرتين"  # the particle ب is not part of the figure
    assert got(text, "percent_change") == [-0.3]
    assert got("يتطلب النموذج 140 جيجابايت لتخزين الأوزان بدقة BF16.", "weights_bytes") == [140e9]


def test_progress_bar_rates_and_step_times():
    text = "training runs at 1.8 it/s (0.55 s/it) on 8 GPUs; the big model needs 420 ms/step"
    assert got(text, "steps_per_s") == [1.8]
    assert close(got(text, "step_time_s"), [0.55, 0.42])


def test_the_value_before_in_brackets():
    assert got("throughput dropped to 41.2 samples/s (was 55.0)", "sequences_per_s") == [41.2, 55.0]


def test_arabic_thread_with_english_terms():
    text = "دربنا النموذج على 512 GPU من نوع H100 بذاكرة 80GB لكل بطاقة، وحققنا 400 TFLOPs لكل GPU ونسبة MFU بلغت 40%."
    assert got(text, "flop_per_s_per_chip") == [400e12]  # حققنا: achieved, not the chip's peak
    assert got(text, "mfu") == [0.4]
    assert got("وحققنا 400 TFLOPs في المتوسط", "flop_per_s_per_chip") == [400e12]
    text = "استخدمنا TP=8 وPP=4 مع micro batch size يساوي 2 وglobal batch size يساوي 1024."
    assert got(text, "micro_batch") == [2]
    assert got(text, "global_batch_sequences") == [1024]


def test_millions_of_hours_on_gpus_are_device_hours():
    assert got("the run took 1.3 million hours on 2048 GPUs", "chip_hours") == [1.3e6]
    assert got("تكلفة 5.6 مليون دولار لـ 2.8 مليون ساعة على البطاقات", "chip_hours") == [2.8e6]
    assert got("it took 30 hours on 8 GPUs", "time_s") == [30 * 3600]


def test_a_size_followed_by_a_model_word_is_the_models_size_even_beside_batch_words():
    # "the 8B run" and "the 70B model" name models; the word "batch" earlier in the sentence does not make them batches.
    from service.explain.pipeline import analyse

    for text in ("We only lowered the batch per device because the 8B run hit OOM on v5e.",
                 "We lowered the batch because the 70B model hit OOM."):
        assert [(f.quantity) for f in analyse(text, "en").figures] == ["params"], text
