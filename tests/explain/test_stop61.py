"""Stop 61's rules for the gist, each on sentences written for the test in the shape of the passage that showed the fault."""

import pytest

from service.explain import gist
from service.explain.compose import explain_offline
from service.explain.figures import read_figures
from service.explain.pipeline import analyse


def gist_text(text: str, lang: str = "en") -> str:
    return " ".join(item["text"] for item in explain_offline(text, lang)["gist"])


@pytest.mark.parametrize("text, action, change", [
    ("We moved the all-gather of ZeRO-3 off the critical path, so the step time dropped from 1.9 s to 1.4 s.",
     "They moved the all-gather of ZeRO-3 off the critical path, so ", "the step time went from 1.9 s to 1.4 s"),
    ("I enabled activation checkpointing, so the memory went from 70 GB to 41 GB per GPU.",
     "They enabled activation checkpointing, so ", "the memory went from 70 GB to 41 GB per GPU"),
])
def test_a_change_keeps_what_the_author_did_to_bring_it(text, action, change):
    # "So the step time went from 1.9 s to 1.4 s" dropped the action the change measures (an A/B reader, stop 61)
    said = gist_text(text)
    assert said.startswith(action + change) and "so so" not in said


def test_a_fragment_said_without_its_aside_is_no_point():
    # "Pure FP16 (the model ships BF16; we cast to FP16 for inference)." opened an answer as "The authors note: Pure FP16."
    doc = analyse("Pure FP16 (the model ships BF16; we cast to FP16 for inference).", "en")
    assert gist.score(doc, 0, {"fp16", "bfloat16"}, None) == 0.0


def test_an_unbulleted_list_under_a_lead_is_not_restated_without_its_subject():
    # "This change:\nretains ...\nmaps ...": "The text says that retains ..." (an A/B reader, stop 61)
    text = ("The memory estimator divided all parameters evenly by PP, which underestimates the heaviest stage by 31.8%.\n"
            "This change:\nretains per-layer parameter counts\nmaps explicit first and last stage ownership\n"
            "preserves the existing uniform path")
    said = gist_text(text)
    assert "that retains" not in said and "estimator" in said


def test_a_request_for_logs_after_a_condition_is_not_the_point():
    # a maintainer's reply: the explanation is the point, "If that doesn't fix it, can you share your logs?" a request
    text = ("With your setting, your data parallelism is 1, so there is no memory reduction here. "
            "If that doesn't fix your issue, can you share us your logs with wall_clock_breakdown enabled?")
    assert "the data parallelism is 1, so there is no memory reduction" in gist_text(text).split(", and ask")[0]


def test_a_paper_s_contribution_outweighs_its_background_and_loses_the_venue():
    text = ("Because the models are so large, checkpointing to remote storage can take 30 minutes. "
            "In a paper we are presenting at SOSP, we describe a checkpointing procedure that stores checkpoints in the CPU "
            "memory of the training machines instead.")
    said = gist_text(text)
    assert "describe a checkpointing procedure that stores checkpoints in the CPU memory" in said and "SOSP" not in said.split(".")[0]


def test_a_previous_post_is_kept_as_the_author_s_context():
    said = gist_text("In our previous post on Megatron, we showed how tensor parallelism can overcome these limits, "
                     "but it breaks down for models larger than 20 billion parameters.")
    assert "previous post" in said


def test_advice_after_its_aim_is_said_as_advice():
    # "It adds that for optimal performance, increase batch sizes" (an A/B reader, stop 61)
    text = ("The load balancer (EPLB) computes an optimal expert arrangement, placing or replicating experts to minimize GPU "
            "utilization variance. For optimal performance, increase batch sizes to stabilize activation statistics.")
    assert "advice is to increase batch sizes to stabilize activation statistics for optimal performance" in gist_text(text)


def test_i_e_opens_no_restated_sentence():
    text = ("So we add latency but get no big memory gains, because most of the memory at this size is activations. E.g. "
            "with -z 1 this looks like:\nallocated 237 MiB for model parameters\nallocated 13629 MiB for activations\n"
            "allocated 237 MiB for parameter gradients\ni.e. the majority of memory by far (13.6GB) is activations.")
    assert "I.e." not in gist_text(text) and "i.e." not in gist_text(text)


# ---- checks (round 66's findings, on sentences written in the shape of the passages) --------------------------------

def claim_of(text: str, start: str) -> dict:
    return next(c for c in explain_offline(text, "en")["claims"] if c["quote"].startswith(start))


COMPUTE = ("DeepSeek v3 was trained for 2.79M H800 hours on 14.8T tokens. The spec sheet gives 3,026 TFLOPs/s of FP8 "
           "performance with sparsity, or half this (1.513e15 FLOPs/s) without sparsity. 2.79M H800 hours means 2.79e6 * "
           "1.513e15 * 60 * 60 = 1.52e25 total FLOPs. With 37B activated parameters the run should have used about "
           "2 * 37e9 * 14.8e12 = 1.1e24 FLOPs. That means the FLOPs utilization is about 1.1e24 / 1.52e25 = 7.2%.")


def test_a_formula_the_text_writes_is_checked_as_written_not_against_6nd():
    # round 66 P20: "2 * 37e9 * 14.8e12 = 1.1e24" called inconsistent because 6ND gives 3.29e24
    claim = claim_of(COMPUTE, "With 37B activated parameters")
    assert claim["verdict"] == "consistent" and "3.29e24" not in claim["why"]


def test_a_share_of_two_flop_counts_is_arithmetic_not_a_training_time():
    # round 66 P20: "1.1e24 / 1.52e25 = 7.2%" checked as a training time of 72.37 ms
    claim = claim_of(COMPUTE, "That means the FLOPs utilization")
    assert claim["verdict"] == "consistent" and "7.237%" in claim["why"] and "ms" not in claim["why"]


def test_a_peak_said_with_sparsity_is_not_the_dense_peak():
    # round 66 P20: an MFU of 13.2% against 3,026 TFLOP/s "with sparsity"; the text gives the dense 1.513e15
    calcs = explain_offline(COMPUTE, "en")["calculations"]
    peaks = [c["inputs"].get("peak_flop_per_s") for c in calcs if c["calculator"] == "mfu"]
    assert peaks and all(p == 1.513e15 for p in peaks)


def test_one_virtual_stage_is_plain_1f1b_and_ga_counts_the_microbatches():
    # round 66 P08: "For PP=16, GA=16: VPP=1 gives ~48% bubble" could not be checked ("micro-batches not found")
    claim = claim_of("For PP=16, GA=16: VPP=1 gives ~48% bubble.", "For PP=16")
    assert claim["verdict"] == "consistent" and "48.39%" in claim["why"]


@pytest.mark.parametrize("text, quantity, value", [
    ("Q4_K stores 256 weights in 144 bytes.", "bytes", 144.0),
    ("يخزن 256 وزنا في 144 بايت.", "bytes", 144.0),
    ("يصل عرض البت الفعلي إلى 4.5 بت.", "bits", 4.5),
    ("with 16 gradient accumulation steps", "microbatches", 16.0),
])
def test_bare_bytes_bits_and_accumulation_steps_are_read_with_their_unit(text, quantity, value):
    assert (quantity, value) in [(f.quantity, f.value) for f in read_figures(text)]


# ---- terms (round 66's findings) -------------------------------------------------------------------------------------

def term_of(text: str, term_id: str, lang: str = "en") -> dict | None:
    return next((t for t in explain_offline(text, lang)["terms"] if t["id"] == term_id), None)


def test_a_name_given_to_a_long_subject_is_defined_by_the_whole_subject():
    # round 66 P01: "refit: the sharding is, as the text defines it."
    text = 'The process of transferring weights and updating the sharding is called "refit" in our RL framework.'
    assert term_of(text, "text:refit")["definition"].startswith("the process of transferring weights and updating the sharding")


def test_sp_with_a_ulysses_degree_is_the_long_sequence_sense():
    # round 66 P17: SP x TP with --ulysses-sequence-parallel-size glossed as Megatron's layer-norm split
    text = ("When the batch is small, tensor parallelism is used with the degree SP x TP, where sp is set with "
            "--ulysses-sequence-parallel-size. In prefill we use (SP=4, TP=2) on eight GPUs.")
    assert "Ulysses" in term_of(text, "sequence-parallelism")["expansion"]


def test_a_generic_your_twice_is_no_other_person():
    # round 66 P12: "your cpu ... your CPU" restated as "the other person's CPU"
    said = gist_text("With many experts, your cpu must launch many kernels, so your CPU becomes the bottleneck.")
    assert "other person" not in said


def test_a_ddp_bucket_cap_is_the_size_limit_not_the_technique():
    # round 66 P13: bucket_cap_mb defined as gradient bucketing itself
    item = term_of("Make DDP's bucket_cap_mb configurable, since it controls the size of gradients in each bucket.", "ddp-bucket-cap-mb")
    assert item is not None and item["definition"].startswith("The size limit, in megabytes")


@pytest.mark.parametrize("text, entry, lang", [
    ("تقيس نسبة الاستخدام عبر أخذ العينات كل ثانية من DCGM، فتبدو وحدة GPU مشغولة دائمًا.", "token-sampling", "ar"),  # round 66, pack 121 P01
    ("A wavefront is 32 threads; data parallelism here means each thread applies the kernel to its own element.", "data-parallelism", "en"),  # P06
])
def test_senses_of_another_field_are_not_shown(text, entry, lang):
    assert term_of(text, entry, lang) is None


def test_a_phone_s_ram_is_not_a_mac_s_unified_memory():
    # round 66, pack 121 P03: an iPhone's RAM against flash glossed as Apple-silicon unified memory
    item = term_of("Apple researchers store the model in flash memory because the iPhone's RAM is too small.", "ram")
    assert item is not None and "unified" not in item["expansion"] and "flash-memory" in [t["id"] for t in explain_offline(
        "Apple researchers store the model in flash memory because the iPhone's RAM is too small.", "en")["terms"]]


# ---- round 67's findings --------------------------------------------------------------------------------------------

def test_a_case_label_s_condition_stays_with_the_sentences_under_it():
    # round 67 P12's `wrong` gist: the nn.scan = True baseline said as the author's finding
    text = ("We see large memory overheads when we set nn.scan = False.\nWith nn.scan = True:\nAs we add layers, the buffers "
            "stay constant. The total memory allocation grows mainly with the parameters. This seems expected.\n"
            "With nn.scan = False:\nAs we add layers, the temp allocation grows significantly.")
    said = gist_text(text)
    assert "with nn.scan = True, the total memory" in said or "nn.scan = False" in said


def test_an_expert_count_from_the_catalog_is_no_check_of_a_layout_line():
    # round 67 P02: "DeepSeek-V3 has 256 routed experts (from the model catalog, not the text)" under "TP1 PP8 VPP4 EP32"
    text = ("Using the parallel configuration of TP1/PP8/VPP4/EP32/MBS1/GBS2048 on 256 GB200s, enabling recomputation of the "
            "MLP part of the dense layers (the first three layers of DeepSeek-v3), we achieved 494 TFLOPS/GPU.")
    assert not any("routed experts" in c["why"] for c in explain_offline(text, "en")["claims"])


@pytest.mark.parametrize("text, entry, lang", [
    ("The fully async trainer decouples the rollouter from the trainer; asynchronous training overlaps generation with "
     "training and bounds staleness.", "asynchronous-training", "en"),  # round 67 P07
    ("At 2816 ranks the Gloo TCP store builds a 2816-way mesh of connections and resume takes hours.", "device-mesh", "en"),  # P10
    ("train_async.py lacks before_weight_update/after_weight_update lifecycle hooks.", "pytorch-hook", "en"),  # P14
    ("The traffic reduction is asymmetric between the two directions, dispatch and combine.", "bidirectional-pipeline", "en"),  # P16
    ("GPU_UTIL reports occupancy: the GPU is busy if any kernel runs during the sample period.", "gpu-occupancy", "en"),  # P19
    ("بعض الترقيات هنا، وبعض الخوادم الجديدة هناك، وطبقة طلاء جديدة، وها هو مركز بيانات.", "layer", "ar"),  # P02
    ("بدون KV Cache (الطريقة التقليدية) إعادة حساب متكررة للتوكينات السابقة.", "activation-checkpointing", "ar"),  # P03
])
def test_round_67_senses_of_another_thing_are_not_shown(text, entry, lang):
    assert term_of(text, entry, lang) is None


def test_arabic_checkpoint_has_one_word_and_a_passage_s_own_variant_is_followed_alone():
    from service.i18n import arabic_style
    assert arabic_style.passage_words("نحفظ نقاط التفتيش كل ساعة.") == {"نقاط الحفظ": "نقاط التفتيش", "نقطة الحفظ": "نقطة التفتيش"}
    assert "نقطة تحقق" not in arabic_style.polish("تُكتب نقطة تحقق كل ساعة.")


def test_memory_chips_in_arabic_are_memory_dies():
    # round 67, pack 123 P01: «شرائح الذواكر» glossed as one processor such as a GPU
    item = term_of("أعلنت سامسونج عن معمارية جديدة من شرائح الذواكر تجري الحساب داخل الذاكرة.", "chip", "ar")
    assert item is not None and "GPU" not in item["definition"]


# ---- round 68's findings --------------------------------------------------------------------------------------------

def test_a_result_thirty_times_from_its_arithmetic_is_a_reading_we_doubt_not_the_author_s_error():
    # round 68 P22: "1.53 * 3072 = 4.59 GB" (factors in MB) called inconsistent, "off by 100%"; "= 1.53 MB" read as 1.606T
    text = ("The kv-cache for one token requires 2 * 3584 * 28 * 8 = 1605632 B = 1.53 MB. The kv-cache for one user will use "
            "1.53 * 3072 = 4.59 GB.")
    claims = explain_offline(text, "en")["claims"]
    assert not any(c["verdict"] == "inconsistent" for c in claims)
    assert any(c["verdict"] == "consistent" and "1605632" in c["why"] for c in claims)


def test_a_layout_sentence_whose_model_parallel_and_data_parallel_degrees_multiply_to_its_gpus_is_confirmed():
    # round 65 P11 and round 66 readers: "8-way model parallelism and 50 way data parallelism" on 400 GPUs, never checked
    (claim,) = [c for c in explain_offline("The 40B models are run on 400 GPUs with 8-way model parallelism and 50 way data "
                                           "parallelism.", "en")["claims"] if c["calculations"]]
    assert claim["verdict"] == "consistent" and "400" in claim["why"]


@pytest.mark.parametrize("text, entry, expansion_word", [
    ("We had 30 replica groups, each with 1 host and 10 GPUs; for this cluster, a single host per replica group was best "
     "on the provider's network.", "host", "CPU machine"),  # round 68 P04: a web hosting company
    ("DeepGEMM pads each expert's tokens to a multiple of BLOCK_M, so padding wastes about 20% of the grouped GEMM's "
     "compute for MoE experts.", "padding", "filler"),  # round 68 P19: an expert's capacity slots
    ("The optimizer runs on the CPU with DDR4 memory while the GPU computes.", "ddr-memory", "double-data-rate"),  # P10
])
def test_round_68_readings(text, entry, expansion_word):
    item = term_of(text, entry)
    assert item is not None and expansion_word in item["expansion"]


@pytest.mark.parametrize("text, entry", [
    ("Between failures the job runs in steady state; on a failure it replays the last minibatch to recover.", "steady-state"),  # P01
    ("Gloo initialises faster and fails faster, so its 5 s timeout detects failures quickly.", "nccl-timeout"),  # P04
])
def test_round_68_senses_of_another_thing_are_not_shown(text, entry):
    assert term_of(text, entry) is None


def test_another_speaker_s_claim_the_author_answers_is_not_the_author_s_point():
    # round 68 P15's `wrong` gist: "@sjeaugey replied that ... you don't lose anything" opened as the author's point
    text = ("When the discussion started, @stas00 said that fp32 comms were slow. To which @sjeaugey replied that the comms "
            "have to remain in fp32 anyways, so you don't lose anything from upcasting the input. I think that this is not "
            "strictly true: when the gradients are large and in bfloat16, the extra upcasts hurt because of the temporary "
            "buffers they need.")
    said = gist_text(text)
    assert "don't lose anything" not in said and "not strictly true" in said


def test_a_variant_s_name_in_brackets_stays_with_its_system():
    # round 68 P17: "Compared to DeepCompile (Offload optimizer all+sync)" restated as "Compared to DeepCompile"
    from service.explain import synthesis
    said = synthesis.compressed("Compared to DeepCompile (Offload optimizer all+sync), the selective approach is 2.3x faster.", "en")
    assert "(Offload optimizer all+sync)" in said


# ---- round 69's findings --------------------------------------------------------------------------------------------

def test_arabic_istidlal_beside_a_thinking_model_is_not_inference():
    # round 69, pack 127 P02: «نموذج الاستدلال الرائد» of Qwen3-Max-Thinking glossed as running a trained model
    text = "Qwen3-Max-Thinking، نموذج الاستدلال الرائد في عائلة Qwen، مصمم من أجل الاستدلال المعقد وهندسة البرمجيات."
    assert term_of(text, "inference", "ar") is None
    assert term_of("يستهلك الاستدلال على وحدات GPU معظم كلفة تشغيل النموذج.", "inference", "ar") is not None


def test_fused_linear_cross_entropy_is_the_technique_not_liger():
    # round 69 P01: "apple's implementation of fused linear cross entropy" glossed as LinkedIn's Liger Kernel
    item = term_of("When testing apple's implementation of fused linear cross entropy, the logits diverged.", "fused-linear-cross-entropy")
    assert item is not None and term_of("When testing apple's implementation of fused linear cross entropy, the logits "
                                        "diverged.", "liger-kernel") is None


@pytest.mark.parametrize("entry", ["qwen-3", "mixtral", "kernel-launch-overhead", "sram"])
def test_round_69_definitions_give_no_figure_the_passage_may_not(entry):
    # round 69 readers: "Mixtral 8x7B and 8x22B", "Qwen3-235B-A22B", "a few microseconds", "tens of megabytes per GPU"
    from service.explain import glossary
    item = glossary.load().by_id.get(entry)
    if item is None:
        pytest.skip(f"no entry {entry}")
    for text in (item["definition"], (item.get("ar") or {}).get("definition", "")):
        assert not any(word in text for word in ("8x7B", "Qwen3-235B", "microsecond", "megabytes", "ميكروثوان", "الميغابايتات"))


@pytest.mark.parametrize("text, entry", [
    ("Some ranks process context phases while others run generation phases, so the iteration time is dominated by the "
     "slowest rank.", "step-time"),  # round 69 P02
    ("Each node keeps replicas of its neighbours' local checkpoint parts so a lost node's checkpoint survives.", "replica"),  # P11
    ("The 32 producers send sparse deltas against their baselines, which are committed after each refit.", "baseline"),  # P12
    ("Arithmetic intensity is FLOPs divided by bytes communicated to and from HBM.", "communication-volume"),  # P14
    ("This adds weight-only offload and remat offload of activations to host memory.", "weight-only-quantization"),  # P16
    ("This adds weight-only offload and remat offload of activations to host memory.", "activation-checkpointing"),  # P16
])
def test_round_69_senses_of_another_thing_are_not_shown(text, entry):
    assert term_of(text, entry) is None


def test_2d_data_sharding_groups_are_model_sharding_not_dataset_files():
    # round 69 P19: "2D data sharding groups ... sharding my model within each node" glossed as a dataset's shard files
    item = term_of("Lightning does not support 2D data sharding groups, i.e. sharding my model within each node with FSDP.", "sharding")
    assert item is not None and "dataset" not in item["expansion"]
