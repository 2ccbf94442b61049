"""Products and divisions a text implies with its own figures. Sentences written for these tests; published figures
are sourced beside each case."""

from service.explain.pipeline import analyse


def _claim(text: str, needle: str, lang: str = "en"):
    doc = analyse(text, lang)
    return doc, next(c for c in doc.claims if needle in c.quote)


def test_parameters_times_bytes_per_parameter_is_the_stated_size():
    # ZeRO (Rajbhandari et al. 2020, section 3.1): mixed-precision Adam keeps 16 bytes per parameter; GPT-3 has 175B
    _, right = _claim("Training GPT-3 needs roughly 175B x 16 bytes, or 2.8 TB of model state.", "175B")
    assert right.verdict == "consistent"
    _, wrong = _claim("Training GPT-3 needs roughly 175B x 16 bytes, or 28 TB of model state.", "175B")
    assert wrong.verdict == "inconsistent"


def test_weights_in_a_named_format_are_the_parameters_times_its_width():
    # 175B parameters x 2 bytes (FP16) = 350 GB
    _, claim = _claim("GPT-3 has 175B parameters. Its FP16 weights alone are about 350 GB.", "FP16")
    assert claim.verdict == "consistent" and "350 GB" in claim.why


def test_a_systems_total_over_its_chips_is_the_per_chip_rate():
    # Google, "Ironwood: The first Google TPU for the age of inference" (2025): 4,614 TFLOPs per chip, 9,216 chips,
    # 42.5 exaflops per pod; 42.5e18 / 9216 = 4.61e15
    _, claim = _claim("ايرونوود تصل إلى 4614 تيرافلوب لكل شريحة. يحتوي التكوين الثاني على 9216 شريحة، مما يتيح قوة حوسبة تصل إلى "
                      "42.5 إكسافلوب.", "9216", "ar")
    assert claim.verdict == "consistent"


def test_a_total_over_a_per_chip_peak_is_the_chip_count():
    # Google Cloud TPU v4 docs: 275 TFLOPS (bf16) per chip; 1,100 / 275 = 4 chips
    _, claim = _claim("The slice totals 1,100 TFLOPS: each TPU v4 chip has 275 TFLOPS for BF16.", "1,100")
    assert "= 4 chips" in claim.why


def test_global_batch_over_micro_batch_and_dp_is_the_micro_batch_count():
    # Megatron-LM's rule, num_micro_batches = global_batch_size / (micro_batch_size x data_parallel_size)
    # (megatron/core/num_microbatches_calculator.py); Narayanan et al. 2021, Table 1: the 1T model on 3072 GPUs, batch 3072
    text = "The layout uses mbs=1 and PP=64 with global_batch_size 3072. On 3072 GPUs this gives DP=6 → 512 micro-batches."
    _, claim = _claim(text, "micro-batches")
    assert claim.verdict == "consistent" and "512" in claim.why
    _, wrong = _claim(text.replace("512 micro-batches", "256 micro-batches"), "micro-batches")
    assert wrong.verdict == "inconsistent"


def test_experts_over_the_expert_parallel_degree_are_experts_per_gpu():
    # DeepSeek-V3 Technical Report (arXiv:2412.19437), section 4.2: 256 routed experts per MoE layer; 256 / 64 = 4
    doc, claim = _claim("DeepSeek-V3 is trained with EP=64 on H800 GPUs.", "EP=64")
    assert "4 experts per GPU" in claim.why
    (index,) = claim.calculations
    assert doc.calculations[index]["input_sources"]["expression"]["source"] == "text"
    # Mixtral of Experts (Jiang et al. 2024): 8 experts per layer; EP=8 puts one on each GPU
    _, one = _claim("We train Mixtral 8x7B with EP=8 and TP=2.", "EP=8")
    assert "one expert per GPU" in one.why
    _, uneven = _claim("The model has 60 experts and we run it with EP=8.", "EP=8")
    assert "do not divide evenly" in uneven.why and "7.5" in uneven.why


def test_training_flops_over_chips_peak_and_time_is_the_implied_mfu():
    # Llama 3 (Dubey et al. 2024, "The Llama 3 Herd of Models", section 3.3): 3.8e25 FLOPs, 16,384 H100 GPUs;
    # H100 SXM dense BF16 989 TFLOPS (datasheet); 66 days: 3.8e25 / (16384 x 989e12 x 5.7e6 s) = 41%
    text = ("- FLOPs: 3.8 × 10^25\n- GPUs: 16,384 H100s\n- Training time: 66 days\n\nThis means an MFU of about 41%.")
    _, claim = _claim(text, "MFU")
    assert claim.verdict == "consistent" and "41" in claim.why


def test_two_training_times_are_never_combined_into_an_mfu():
    # a pre-training and an annealing phase: which time the MFU is for is the uncertain reading
    text = ("Pre-training used 3.8 × 10^25 FLOPs on 16,384 H100s and took 54 days. Annealing took 3 days. "
            "The MFU was about 41%.")
    doc, claim = _claim(text, "MFU was")
    assert claim.verdict == "needs_more" and "54 days" in claim.why and "3 days" in claim.why


def test_flops_and_a_time_from_a_named_phase_are_never_combined():
    text = "Pre-training used 3.8 × 10^25 FLOPs on 16,384 H100s. The annealing phase took 12 days. The MFU was about 41%."
    doc, claim = _claim(text, "MFU was")
    assert claim.verdict == "needs_more" and "12 days" in claim.why
    assert all(c.verdict != "inconsistent" for c in doc.claims)  # 12 days is not checked against pre-training's FLOPs


def test_a_format_change_halves_what_it_stores_and_a_measured_saving_is_said_beside_it():
    # data/precisions.json: bf16 2 bytes, fp8 1 byte (OCP 8-bit floating point specification)
    _, claim = _claim("Switching the weights from bf16 to fp8 should halve their memory, but we measured a 39% saving.", "39%")
    assert claim.verdict == "explained"
    assert "50%" in claim.why and "part of the memory is not stored in fp8" in claim.why
    # the narrower format named first ("our FP8 run ... than the BF16 one"): still bf16 -> fp8, never a -100% 'saving'
    _, first = _claim("Our FP8 run used 39% less memory than the BF16 baseline.", "39%")
    assert "bf16 -> fp8" in first.why and "50%" in first.why and "-100%" not in first.why


def test_a_size_in_bits_restated_in_bytes():
    # Micron HBM3E: 24Gb (3 GB) DRAM dies, 8-high stack = 24 GB
    _, right = _claim("Each HBM3E stack of 8 dies of 24 Gb holds 24 GB.", "24 Gb")
    assert right.verdict == "consistent"
    _, wrong = _claim("Each HBM3E stack of 8 dies of 24 Gb holds 192 GB.", "24 Gb")
    assert wrong.verdict == "inconsistent" and "counts bits" in wrong.why


def test_two_bubbles_with_their_micro_batch_counts_give_the_pipeline_depth():
    # 1F1B bubble share (p-1)/(m+p-1) (GPipe, Huang et al. 2019; Megatron-LM, Narayanan et al. 2021, section 2.2):
    # p = 8 gives 7/15 = 46.7% at m = 8 and 7/23 = 30.4% at m = 16
    _, claim = _claim("Raising the micro-batches cut the bubble from 47% to 30% (M=8→16) but throughput stayed flat.", "bubble")
    assert claim.verdict == "explained" and "8 stages" in claim.why
    _, odd = _claim("Raising the micro-batches cut the bubble from 47% to 10% (M=8→16) but throughput stayed flat.", "bubble")
    assert "stages" not in odd.why  # no one depth fits both: nothing is inferred


def test_a_mesh_multiplies_to_the_device_count():
    # no published figure: the product of the axis sizes the sentence writes (1 x 64 x 4 x 1 = 256, not 64)
    _, right = _claim("We use a device mesh of 1x64x4x1 (data, fsdp, tensor, pipeline) on 256 TPU v5p chips.", "mesh")
    assert right.verdict == "consistent"
    _, wrong = _claim("The run uses a (2, 64, 2) mesh over 128 chips.", "mesh")
    assert wrong.verdict == "inconsistent" and "256" in wrong.why
    plain = analyse("We trained on 8x8 H100s, 64 GPUs in all, for a week.", "en")
    assert all(c.verdict != "inconsistent" for c in plain.claims)  # two factors, no mesh word: the figure reader's count


def test_flops_per_second_over_tokens_per_second_is_flops_per_token():
    # 6 FLOPs per parameter per token (Kaplan et al. 2020): 7.2e9 FLOP per token is a model of at most about 1.2B parameters
    # ... shown beside the model size the text states (a 1B model), so the reader can compare the two
    _, claim = _claim("We train a 1B model. Example step log: TFLOP/s/device: 360, Tokens/s/device: 50000, loss: 2.1", "TFLOP/s/device")
    assert "7.2 GFLOP per token" in claim.why and "1.2B parameters" in claim.why


def test_no_model_size_is_inferred_from_a_log_line_alone():
    # the same log with no model size stated: a size inferred from FLOPs per token answers nothing the text asked (noise)
    _, claim = _claim("Example step log: TFLOP/s/device: 360, Tokens/s/device: 50000, loss: 2.1", "TFLOP/s/device")
    assert "parameters" not in claim.why


def test_a_written_product_says_what_its_factors_are():
    # Narayanan et al. 2021 (Megatron-LM, section 2.2): a pipeline of p stages is full once p micro-batches are in
    # flight per data-parallel replica, so the global batch is p x micro-batch size x replicas (here 12 x 2 x 16 = 384)
    doc, claim = _claim("With PP=12 and MBS=2, only at a batch of 384 (12*2*16) will all pipeline stages be filled. "
                        "Why 384?", "384")
    assert claim.verdict == "consistent"
    assert "12 pipeline stages" in claim.why and "data-parallel replicas" in claim.why
    doc, claim = _claim("With PP=4 and TP=8 we use 4*8 = 32 GPUs.", "32")
    assert "the number of pipeline stages" in claim.why and "tensor-parallel" in claim.why


def test_a_quoted_mesh_list_is_checked_against_the_count_written_after_it():
    # a mesh's device count is the product of its axis sizes (jax.sharding.Mesh: devices reshaped to the mesh shape):
    # 1 x 64 x 4 x 1 = 256, so "requires 64" is wrong; 1 x 1 x 4 x 64 = 256 is right and is not repeated
    text = "For example, mesh_dim='1,32,4,1' requires 32 accelerators, and mesh_dim='1,1,4,32' requires 128 accelerators."
    _, claim = _claim(text, "mesh_dim")
    assert claim.verdict == "inconsistent"
    assert "1 x 32 x 4 x 1 = 128" in claim.why and "not 32 accelerators" in claim.why and "'1,1,4,32'" not in claim.why
    _, right = _claim(text.replace("requires 32 accelerators", "requires 128 accelerators"), "mesh_dim")
    assert right.verdict == "consistent"
    # a number with thousands separators is not a mesh
    _, big = _claim("The mesh runs on 1,024 chips and processes '1,000,000' tokens.", "mesh")
    assert big.verdict != "inconsistent"


def test_a_version_before_a_size_is_not_a_range_of_sizes():
    # "3.1-8B" is Llama 3.1's 8B model (Meta's model card: Llama 3.1 8B, 15T+ tokens, 1.46M H100-80GB GPU hours);
    # 6 x 8e9 x 15e12 = 7.2e23 FLOPs over 1.46e6 h x 3600 s x 989e12 FLOP/s (H100 SXM dense BF16) = 13.8%, not 3.1B's 5.4%
    doc, claim = _claim("Huggingface page says 3.1-8B used 1.46M H100 hours and trained over 15T tokens.", "3.1-8B")
    assert not any(f.quantity == "params" and f.value == 3.1e9 for f in doc.figures)
    assert "MFU of 13.8" in claim.why and "5.36" not in claim.why
    # a range written with its unit word stays a range
    doc, _ = _claim("We trained models of 1.5-8B parameters.", "1.5")
    assert [f.role for f in doc.figures if f.quantity == "params"] == ["low", "high"]


def test_a_written_flop_count_is_worked_in_scientific_notation_and_said_once():
    # 6 x 15T x 8B = 7.2e23 (the 6ND rule, Kaplan et al. 2020); 1.46M x 9.9e14 x 3600 x 0.4 = 2.081e24
    text = "I'll assume 40% utilization. 6ND: 6 * 15T * 8B = 7.2e23 FLOPs. Hardware: 1.46M * 9.9e14 * 3600 * 0.4 = 2.08e24 FLOPs"
    doc = analyse(text, "en")
    whys = " ".join(c.why for c in doc.claims)
    assert "2.081e24" in whys and "e12T" not in whys
    for claim in doc.claims:
        parts = claim.why.split("; ")
        assert len(parts) == len(set(parts))


def test_a_per_gpu_expert_count_in_a_config_sentence_is_judged():
    # NeMo docs' rule: experts per GPU = num_moe_experts / expert_model_parallel_size (six experts, EP 3: two per GPU)
    text = ("If the model has six experts (model.num_moe_experts=6), then setting model.expert_model_parallel_size=3 "
            "results in each GPU processing two experts.")
    _, claim = _claim(text, "six experts")
    assert claim.verdict == "consistent" and "6 experts over an expert-parallel degree of 3: 2 experts per GPU" in claim.why
    _, wrong = _claim(text.replace("processing two experts", "processing three experts"), "six experts")
    assert wrong.verdict == "inconsistent" and "three experts" in wrong.why
    # the per-GPU count alone is not taken for the model's expert count
    _, alone = _claim("Setting model.expert_model_parallel_size=3 gives each GPU two experts.", "two experts")
    assert "do not divide" not in alone.why


def test_a_sequence_length_in_tokens_is_never_a_runs_training_flops():
    # "at 1,048,576 tokens with cp_size=8" is one sequence's length (2^20), not the tokens a run trains on
    from service.explain.pipeline import analyse
    doc = analyse("The flag pays off at 1,048,576 tokens with cp_size=8: Qwen3-0.6B goes from 27.9 GB to 20.8 GB, "
                  "and the compute hides the copies.", "en")
    assert not [c for c in doc.calculations if c["calculator"] == "training_flops"]
    # a run's token total still gets its FLOP count: 6 x 7e9 x 2e12 = 8.4e22 (Kaplan et al. 2020, C = 6ND)
    doc = analyse("We trained the 7B model on 2T tokens, a compute budget we could afford.", "en")
    assert [c for c in doc.calculations if c["calculator"] == "training_flops"]
