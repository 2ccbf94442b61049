"""Fixes of stop 59: round 59's leftovers and the sense audit of older held-out passages, each a general rule tested on
sentences written for the test (or a passage's own words, said in other words), with the passage that showed it named."""

from service.explain.compose import explain_offline


def _gist(text: str, lang: str = "en") -> str:
    return " ".join(g["text"] for g in explain_offline(text, lang)["gist"])


def test_flops_compared_with_than_is_a_count_not_expanded_as_a_rate():
    # round 59 P05 (the FlashAttention-3 post): "512x more matmul FLOPS than exponential" was restated as "floating-point
    # operations per second (FLOPS)", a rate, where the sentence counts operations
    text = ("We conclude that for this head size there are 400x more matmul FLOPS than exponential, which means the "
            "exponential can take half the time of the matmul.")
    gist = _gist(text)
    assert "FLOPS" in gist and "per second" not in gist, gist
    rate = _gist("We conclude that the cluster reaches 2 PFLOPS, which means the FLOPS of each chip stay low.")
    assert "per second" in rate or "FLOP/s" in rate, rate


def test_links_to_the_sentence_before_are_not_restated():
    # round 59 P07 (vLLM#6854): "The text says that result is that GPU is often idle"; P09 (pytorch/xla#3510): "reports
    # that for following up on this, their ... issue"; pack 107 P01 (an Arabic lesson on EAGLE-3): «يوضح النص أنّ ولهذا
    # السبب ينتقل ألفا» (a blind reader: "for this reason" points to nothing)
    from service.explain import connectives

    assert connectives.without("Result is that the GPU is often idle", "en") == "the GPU is often idle"
    assert connectives.without("The result is 5% faster", "en") == "The result is 5% faster"  # a result, no link
    assert connectives.without("ولهذا السبب يرتفع معدل القبول", "ar") == "يرتفع معدل القبول"
    gist = _gist("Following up on this: my OOM issue on the big pod is actually due to fusion by the compiler, not the "
                 "all-gather itself. Inserting barriers avoids it.")
    assert "following up" not in gist.lower() and "due to fusion" in gist, gist


def test_the_sentence_after_a_tldr_goes_on_with_the_summary():
    # round 59 P07 (vLLM#6854): "TLDR; There is high CPU overhead ... Multi-step decoding will be able to amortize all
    # these overheads" - the second sentence of the author's summary weighed as little as a list item
    from service.explain import gist_side, pipeline

    doc = pipeline.analyse("TLDR; Each step pays a fixed CPU cost. Batching steps will be able to spread that cost out.\n"
                           "The scheduler runs every step. Another line follows here.", "en")
    said = [doc.text[a:b] for a, b in doc.sentences]
    at = {s.split()[0]: gist_side.summary_at(doc, i) for i, s in enumerate(said)}
    assert at["Batching"] and not at["The"] and not at["Another"], at


def _ids(text: str, lang: str = "en") -> set[str]:
    return {t["id"] for t in explain_offline(text, lang)["terms"]}


def _terms_section(text: str, lang: str = "en") -> str:
    md = explain_offline(text, lang)["explanation"]
    return md[md.find("## The terms"):] if lang == "en" else md[md.find("## المصطلحات"):]


def test_a_name_found_across_another_names_end_is_no_term():
    # sense audit (ZeRO++'s abstract): "scatter collective" was found across the end of "reduce-scatter" and glossed as
    # the one-root scatter the text never names
    assert "scatter-collective" not in _ids("ZeRO++ replaces the reduce-scatter collective with a quantized all-to-all.")
    assert "scatter-collective" in _ids("A scatter collective sends each rank its own slice of the root's buffer.")


def test_words_inside_links_issue_references_paths_and_constants_are_not_terms():
    # sense audit: "kvcache" inside github.com/kvcache-ai/... (Mooncake#434), "OLMo" in allenai/OLMo-core#829 (a
    # library's issue), "recipe" in recipe/npu/run.sh, "OFFLOAD" and "CUDA" inside -DGGML_CUDA_MIN_BATCH_OFFLOAD
    assert "kv-cache" not in _ids("See https://github.com/kvcache-ai/Mooncake#performance, where 40GB moves at 87 GB/s.")
    assert "olmo" not in _ids("This flag produced the stack trace in allenai/OLMo-core#829 after a day.")
    assert "training-recipe" not in _ids("Run bash recipe/npu/run_ep64.sh to launch the job.")
    assert not {"offloading", "cuda"} & _ids("Build with -DGGML_CUDA_MIN_BATCH_OFFLOAD=32 to move the matmuls to the GPU.")
    assert {"kv-cache", "olmo", "cuda-graphs"} <= _ids("The KV cache of OLMo grows with CUDA graphs.")
    assert "nccl-environment-variable" in _ids("Set NCCL_CROSS_NIC=1 before the run.")  # a constant named whole stays


def test_a_range_of_counts_and_a_units_count_are_not_cut_apart():
    # sense audit (an INT8/AWQ post on a T4): bitsandbytes "stores model weights in or four bits ... optimizer states in
    # bits", the counts taken one by one from a range and from a unit
    from service.explain import outside_numbers

    said = outside_numbers.uncounted("stores weights in eight or four bits and keeps states in eight bits", "4-bit weights")
    assert said == "stores weights in eight or four bits and keeps states in eight bits", said
    assert outside_numbers.uncounted("the three matrix multiplications", "no counts here") == "the matrix multiplications"


def test_nvidia_examples_are_not_given_for_another_makers_chips():
    # sense audit (Habana's Gaudi docs): the NIC "for example NVIDIA ConnectX-7" where Gaudi's ports are on the chip;
    # an MI100 passage given "the H100's headline NVLink figure"
    gaudi = _terms_section("Seven of the ten NIC ports on each Gaudi connect it to the other Gaudis in the server.")
    assert "ConnectX" not in gaudi and "The network card in a server." in gaudi, gaudi
    assert "Chip clusters" in gaudi, "a sentence said for chips still opens with a capital"
    nvidia = _terms_section("Each H100 node has eight NICs, one per GPU, on the InfiniBand fabric.")
    assert "ConnectX" in nvidia, nvidia


def test_a_latency_beside_communication_words_is_not_a_messages_without_its_own():
    # sense audit (five passages): "lower latency" of Ulysses attention beside "all-to-all communication", a forward
    # pass's, a served model's, all glossed as a message's travel time between chips
    text = "Ulysses needs high-bandwidth all-to-all communication but has lower latency than ring attention."
    section = _terms_section(text)
    assert "between chips" not in section, section  # the general sense, which a reader needs no gloss for
    assert "message or a transfer between chips" in _terms_section("Each message pays a latency of 5 microseconds per hop.")


def test_definitions_cut_for_their_numbers_stay_whole():
    # sense audit (three passages): fault tolerance shown as "...: for a training job." once "thousands of GPUs" was cut
    from service.explain import glossary
    from service.explain.term_items import without_foreign_names

    definition = glossary.load().by_id["fault-tolerance"]["definition"]
    said = without_foreign_names(definition, "On TPU pods, fault tolerance keeps the job alive.", "fault tolerance")
    assert "checkpoints" in said and "thousands" not in said and not said.endswith("for a training job."), said


def test_rl_bubbles_are_not_the_pipelines():
    # sense audit (OpenRLHF#562): GPUs idle "while vLLM is generating experiences" in a PPO loop were glossed as the
    # pipeline bubble of pipeline parallelism (once asked of the PPO cue; the passage has no pipeline)
    assert "pipeline-bubble" not in _ids("Our PPO loop leaves bubbles between generation and training.")
    assert "pipeline-bubble" in _ids("With PP=8 and 1F1B, the bubbles shrink as microbatches grow.")


GUARDED = [  # (entry, a sentence in the other sense as the passage wrote it, one in the entry's own sense) - sense audit
    ("steady-state", "GPU 0 has 7 extra processes which steady state at 520MB VRAM.", "Measure step time only in steady state, after warmup."),
    ("synchronization-point", "NCCL calls are guarded by host-side synchronization barriers between threads.",
     "Every synchronization point stalls the GPU until the all-reduce finishes."),
    ("aws-neuroncore", "A trn1 node holds 16 Neuron devices, each with 2 Neuron cores.", "Each NeuronCore runs one model replica."),
    ("hidden-size", "The counter assumed experts operated at the full hidden dimension.", "The model's hidden size is 8192 for the 70B model."),
    ("tile-size", "Aurora has 127,488 Intel PVC GPU tiles.", "The kernel uses a tile size of 128x128 for the GEMM."),
    ("olmoe", "We trained on the OLMoE-mix-0924 dataset.", "OLMoE-1B-7B activates 1B of its 7B parameters."),
    ("ring-all-reduce", "NCCL's ring reduce-scatter is topology-ordered.", "A ring all-reduce sends 2(N-1)/N of the data per GPU."),
    ("pipeline-stage", "Prefill and decode run on separate pods, since each stage owns half of a request's latency.",
     "Each pipeline stage holds 4 layers."),
    ("dispatch-overhead", "In a single GPU kernel launch it gathers the weights for each segment.",
     "Each kernel launch costs about 5 us of overhead, so CUDA graphs help."),
    ("nccl-protocol", "I've been running some simple tests on multi-node pipeline parallel with NCCL.",
     "NCCL picks the Simple protocol for large messages and LL128 for medium ones."),
    ("all-to-all", "Seven NIC ports connect each Gaudi to the others in an all-to-all processor configuration.",
     "The MoE layer runs an all-to-all to dispatch tokens to experts."),
    ("fp8-blockwise-scaling", "ZeRO++ uses block-quantization based all-gather with INT8 weights.",
     "DeepSeek-V3 trains in FP8 with blockwise scaling of 128x128 tiles."),
    ("moonshot-ai", "He said so on Peter Diamandis's podcast Moonshot last week.", "Moonshot AI released Kimi K2."),
    ("post-training", "Earlier expert pruning methods work in the post-training phase on a finished model.",
     "Post-training with RL now takes a tenth of pretraining compute."),
    ("latency-percentile", "arm | MFU p50 | tok/s p50 | step p50", "The p99 latency of requests rose to 2 s under load."),
    ("peak-flops", "Power swings grow with an aggressive pursuit of peak performance in modern silicon.",
     "The H100 reaches 60% of its peak performance of 989 TFLOP/s."),
]


import pytest  # noqa: E402


@pytest.mark.parametrize("entry,other,own", GUARDED)
def test_audited_senses_are_shown_only_where_they_fit(entry, other, own):
    assert entry not in _ids(other), (entry, other)
    assert entry in _ids(own), (entry, own)


def test_a_point_that_points_at_nothing_gives_way_to_one_that_stands():
    # opening audit (TRL#2600): "The authors conclude that they must reserve enough space for them" - what "them" is (the
    # optimizer's weights) was in a sentence the gist left out; (a post on recomputation) "In exchange, the freed memory ..."
    from service.explain.gist_dangling import dangles

    assert dangles("So we must reserve enough space for them.", "en")
    assert dangles("In exchange, the freed memory lets you fit a larger model.", "en")
    assert dangles("It runs slower, and the others wait.", "en") and dangles("لكنها كانت لا تزال بحاجة إلى 8 شرائح.", "ar")
    assert not dangles("This PR adds FP8 training.", "en") and not dangles("It is important to pin the version.", "en")
    assert not dangles("This means each step takes 3.4 s.", "en")  # the link goes, the claim stands
    gist = _gist("vLLM sizes its KV cache from the free GPU memory when it starts. A larger cache improves speed, so we "
                 "would expect a utilization of 1. However, at this stage the optimizer's states are not yet on the GPU; "
                 "they arrive after the first step. So we must reserve enough space for them.")
    assert not gist.split(". ")[0].rstrip(".").endswith("for them"), gist


def test_a_time_the_text_works_out_itself_is_not_redone_from_borrowed_flops():
    # checks audit (NVIDIA's Nemotron-4 340B recipe notes): "1e12 / 389371 / 86400 = 29.7 days" was also run through the
    # training-time calculator with the model's per-sample FLOPs (8.62e15) as the run's total and as a chip's peak,
    # showing "peak 8.621 PFLOP/s x MFU 50.5% = 4.354 PFLOP/s" per H100
    text = ("Tokens per second: 4096 * 256 / 2.693 = 389371\n\nDays to train:\n\nE.g. 1e12 / 389371 / 86400 = 29.7 days\n\n"
            "MFU = (global batch size) * (model flops) / (step time) / (number of GPUs) / (peak GPU FLOPS)\n\n"
            "The model flops for the 340b model for GBS=1 is 8.62124e15.\n\nE.g. the 340b model in BF16 on 256x H100 GPUs "
            "(GBS=64)\n\npeak FLOPS for H100 BF16 = 989 TFLOPS\ntraining step time = 4.31 s\nmodel flops = 8.62124e15\n\n"
            "MFU = 64 * 8.62124e15 / 4.31 / 256 / 989e+12 = 50.5%")
    answer = explain_offline(text, "en")
    assert not any(c["calculator"] == "training_time" for c in answer["calculations"]), answer["calculations"]
    assert "29.73" in answer["explanation"]  # the text's own arithmetic still checked


def test_openings_keep_questions_labels_and_verbs_readable():
    # opening audit: "asks whether one more question, did the RTX 3090 cards use NVLink" and "asks whether since training
    # ... is costly, maybe ..." (a question no "whether" can take is quoted); list labels "Efficiency:" and "Scale Up:"
    # said as speakers ("Scale Up says If ..."); "then out of memory (OOMs) asking for 2.82 GiB" (the acronym is a verb);
    # "export PJRT_DEVICE=Tensor Processing Unit (TPU)" (a value in a command); "TL. DR:" split into "DR:"
    from service.explain import reported

    assert reported.indirect_question("One more question, did the cards use NVLink in the tests?") is None
    assert reported.indirect_question("Since training is costly, maybe a hard cap is needed?") is None
    assert reported.indirect_question("Is the step time too high?") == "whether the step time is too high"
    labelled = _gist("Efficiency: we need a low-precision format such as FP16 to reduce memory and compute costs.")
    assert not labelled.startswith("Efficiency says"), labelled
    assert _gist("Alice Smith: we never needed PP for this model size on one node.").startswith("Alice Smith")
    verb = _gist("We conclude that the cache leaves 87.8 MiB free, and deserialization then OOMs asking for 2.82 GiB.")
    assert "then OOMs asking" in verb, verb
    command = _gist("We conclude the mesh is fine: it trained on 4 chips after export PJRT_DEVICE=TPU was set.")
    assert "PJRT_DEVICE=TPU" in command, command
    assert "fully sharded" in _gist("We conclude that fsdp=4 on 4 chips works for the 1B model.")
    tldr = _gist("Das Modell ist klein. TL. DR: we exploit top-k sparsity and send only 2% of the gradients.")
    assert "DR:" not in tldr, tldr


ALIASES = [  # (entry, a sentence where the spelling is meant, one where it is not) - sense audit's missing terms
    ("cuda-compute-capability", "تحتاج وحدة GPU ذات قدرة حاسوبية >=9 مثل H100.", "تملك الشركة قدرة حاسوبية هائلة في مراكزها."),
    ("chain-of-thought", "After o1, people train on really long cot data for reasoning.", "The cot was folded in the corner."),
    ("training-instability", "The rounding mode can lead to divergence when pre-training an LLM: the loss blows up.",
     "There is a divergence of opinion between the two teams."),
    ("barrier-collective", "Other ranks wait at a barrier while rank 0 tokenizes the data.", "The river is a barrier to traffic."),
    ("sparse-upcycling", "يتم إعادة تدوير النماذج الكثيفة إلى نموذج مزيج الخبراء MoE.", "يتم إعادة تدوير الورق في المصنع."),
    ("zero-bubble-pipeline", "zbpp and dualpipe split the backward into input and weight gradients.", None),
    ("cuda-stream", "The NCCL GPU stream does not have an ID.", None),
]


@pytest.mark.parametrize("entry,meant,other", ALIASES)
def test_spellings_readers_met_are_found_where_they_are_meant(entry, meant, other):
    lang = "ar" if any("\u0600" <= c <= "\u06ff" for c in meant) else "en"
    assert entry in _ids(meant, lang), (entry, meant)
    if other:
        assert entry not in _ids(other, lang), (entry, other)


GUARDED_2 = [  # the sense audit's second wave: (entry, the other sense as a passage wrote it, the entry's own sense)
    ("fp16", "It is 4X faster with the 16-bit floating-point format called BF16.",
     "For 16-bit floating point (either fp16 or bfloat16) the H100's peak is 989 TFLOPS."),
    ("transistor-count", "Gaudi 3 improves everything from the transistors on out to the cores.", "The B200 packs 208 billion transistors."),
    # transformer-engine's hardware sense is a reading since stop 63 (tests/explain/test_stop63.py), no longer hidden
    ("router", "The loss-curve gate passed: FP8 ended within 0.004 of BF16.", "The MoE gate picks the top-2 experts for each token."),
    ("end-to-end", "FP8 E2E is slower than both BF16 and FP8 rollout-only.", "The E2E latency of a request was 2 s."),
    ("pipeline-warmup-cooldown", "We ran 30 iterations with the first 5 dropped as warmup.",
     "In 1F1B each pipeline stage runs a warmup phase of forward micro-batches first."),
    ("gpu-kernel", "The only free TPU access is via Colab and Kaggle Kernels.", "The fused CUDA kernels cut memory traffic in half."),
    ("apple-silicon", "The 70B model is pushing the limits of a fully loaded Mac Pro.", "A Mac Pro with the M2 Ultra has 192 GB of unified memory."),
]


@pytest.mark.parametrize("entry,other,own", GUARDED_2)
def test_second_wave_senses_are_shown_only_where_they_fit(entry, other, own):
    lang = "ar" if any("\u0600" <= c <= "\u06ff" for c in other) else "en"
    assert entry not in _ids(other, lang), (entry, other)
    assert entry in _ids(own, lang), (entry, own)


def test_an_option_two_named_frameworks_share_is_the_nearest_ones():
    # sense audit (Megatron-LM#442): "tensor_model_parallel_size=8" in a text on its own Megatron-LM code compared with
    # NeMo was called "a NeMo setting" (the first table that knows the key)
    def kinds(text):
        return {t["expansion"] for t in explain_offline(text, "en")["terms"] if t.get("category") == "option"}
    assert kinds("Our Megatron-LM runs diverge with tensor_model_parallel_size=8, while NeMo's do not.") == {"a Megatron-LM setting"}
    assert kinds("In NeMo we set tensor_model_parallel_size=8; Megatron-LM runs differ.") == {"a NeMo setting"}


def test_durations_on_different_chip_counts_get_no_ratio_unasked():
    # opening and checks audit (CLIP's abstract in Arabic): "18 days on 592 V100s, while ... 12 days on 256 V100s" was
    # worked out as "50% higher", comparing two set-ups; the Arabic "256 من وحدات V100" was read as a bare number
    from service.explain import pipeline

    text = "استغرق النموذج الأكبر حوالي 18 يوماً على 592 من وحدات V100، بينما استغرق الأصغر 12 يوماً على 256 من وحدات V100."
    doc = pipeline.analyse(text, "ar")
    assert {f.value for f in doc.figures if f.quantity == "n_chips"} == {592, 256}, [(f.quote, f.quantity) for f in doc.figures]
    answer = explain_offline(text, "ar")
    assert not any(c["calculator"] == "ratio" for c in answer["calculations"]), answer["calculations"]
    across = explain_offline("Training took 13 days on 64 GPUs versus 7 days on 128 GPUs.", "en")
    assert not any(c["calculator"] == "ratio" for c in across["calculations"])
    assert any(c["calculator"] == "ratio" for c in explain_offline("Training took 13 days versus 7 days.", "en")["calculations"])


def test_definitions_say_no_fact_the_audit_found_false():
    # sense audit: the P100 "the first GPU with HBM" (AMD's Fiji came first); TDP's "the real draw in training is
    # usually somewhat below it"; DeepSeek Sparse Attention cut before its point in Arabic once "few thousand" was cut
    from service.explain import glossary

    entries = glossary.load().by_id
    assert "NVIDIA's first with high-bandwidth memory" in entries["nvidia-p100"]["definition"]
    assert "below it" not in entries["thermal-design-power"]["definition"]
    section = _terms_section("أطلقت الشركة آلية للانتباه المتناثر تسمى DeepSeek Sparse Attention تسرع التدريب.", "ar")
    assert "الرموز الأعلى تقييمًا فقط" in section, section


def test_round60_readers_findings():
    # round 60 (HOLDOUT_R60_JUDGING.md): "recovery latency" given a message's sense because the text spoke of networks
    # elsewhere (P07); "Our study shows" said as "The authors cite our study" (P19); "usually eight per server" and
    # "eight-GPU servers" brought into definitions (P09, P10); "tens of megabytes" (P23); "NVIDIA's GB10", "AMD's
    # MI300-series", "Mixtral 8x22B" in definitions of passages that name none of them (pack 109 P01, P02, P05)
    from service.explain import outside_numbers
    from service.explain.term_items import without_foreign_names

    recovery = ("DeadPool keeps checkpoints in the memory of spare nodes and copies them over the network when a node fails. "
                "Its design has three parts, a detector, a pool manager and a scheduler, each small and easy to test on its own. "
                "In our runs on 512 A100 GPUs the recovery latency stays under 40 s, so the job resumes fast.")
    assert "between chips or machines" not in _terms_section(recovery), _terms_section(recovery)
    assert "cite" not in _gist("Our study shows that only 15-20% of the steps are needed for the warmup stage.")
    assert "cites the paper" in _gist("The paper reports that only 15-20% of the steps are needed for the warmup stage.")
    assert outside_numbers.outside("MI300X GPUs are usually eight per server", "The MI300X has XCDs", (10, 1e6)) == ["eight"]
    assert outside_numbers.outside("most are eight-GPU servers", "DGX nodes", (10, 1e6)) == ["eight"]
    assert outside_numbers.outside("divide by eight", "nothing", (10, 1e6)) == []  # a rule's own count
    assert outside_numbers.outside("tens of megabytes per GPU", "SRAM", (10, 1e6)) == ["tens"]
    definition = "The smallest floating-point format in use. Supported by Blackwell, NVIDIA's GB10 and AMD's MI300-series."
    said = without_foreign_names(definition, "We ran the NVFP4 model on one Blackwell GPU.", "NVFP4")
    assert "GB10" not in said and said.startswith("The smallest floating-point format in use."), said
    kept = without_foreign_names(definition, "We ran it on a GB10 box and an MI300-series card.", "NVFP4")
    assert "GB10" in kept, kept


def test_round60_senses():
    # round 60: "dynamic batching" of training sequences (P18, NeMo RL) glossed as a serving engine's; "weight streaming"
    # at start-up beside mmap of safetensors (pack 109 P04) glossed as layer-by-layer streaming from outside memory
    assert "dynamic-batching" not in _ids("NeMo RL combines sequence packing and dynamic batching: sequences of similar "
                                          "length are grouped so each micro-batch holds a token budget.")
    assert "dynamic-batching" in _ids("Continuous batching, also known as dynamic batching, raised throughput 23x.")
    assert "weight-streaming" not in _ids("Cold start is slow: weight streaming with mmap of safetensors loads the model at start-up.")
    assert "weight-streaming" in _ids("Cerebras uses weight streaming: the weights live in MemoryX and stream in layer by layer.")


def test_a_reason_cut_inside_its_list_is_not_shown():
    # round 60 P03 (an MLX FSDP pull request): "Mixed-precision Adam keeps about sixteen bytes per parameter: two for the
    # weights." - the link's list cut after its first item for the numbers the passage never gives
    from service.explain import reasons

    text = ("With FSDP the master weights are sharded. Peak memory difference between sharded optimizer and this PR is 14 GB "
            "[4B * 4 = 16GB -- master copy weights, therefore each rank holds only 16GB / 8 = 2 GB] as expected, because "
            "the optimizer's fp32 master weights no longer sit whole on every GPU.")
    links = {link["id"]: link for link in reasons.table()}
    for item in explain_offline(text, "en")["reasons"]:
        whole = links[item["id"]]["en"]
        assert item["text"] == whole or ": " not in item["text"], item["text"]


def test_an_arabic_decimal_comma_is_a_decimal_point():
    # round 60 pack 109 P01 (an Arabic README): "من 2,3 إلى 17,8 رمزًا في الثانية" was read as 8 tokens per second
    from service.explain import pipeline

    doc = pipeline.analyse("يرفع تقليص ذاكرة KV السرعة من 2,3 إلى 17,8 رمزًا في الثانية، مع 1,024 طلبًا.", "ar")
    values = {f.value for f in doc.figures}
    assert {2.3, 17.8, 1024} <= values and 8 not in values, [(f.quote, f.value) for f in doc.figures]


def test_arabic_names_one_thing_once_and_latency_reads_general_in_both_languages():
    # the other-language audit: reduce-scatter «الاختزال المبعثر» beside «الاختزال والتوزيع», prefill «التعبئة المسبقة»
    # beside «الملء المسبق», «معامل التحجيم» beside «عامل التحجيم» in one answer; «مجموعة» for "summed"; an Arabic
    # answer's "E2E latency" of a checkpoint save given a message's travel time (the entry's own Arabic definition)
    from service.i18n import arabic_style

    assert arabic_style.rejected_in("تجري عملية الاختزال المبعثر ثم التعبئة المسبقة بمعامل التحجيم") == \
        ["الاختزال المبعثر", "التعبئة المسبقة", "معامل التحجيم"]
    text = ("The checkpoint save is now asynchronous: the latency of each save is mostly the staging copy, and the E2E "
            "latency of a save is thus improved by over 6.5x.")
    section = _terms_section(text, "ar")
    assert "بين الشرائح" not in section and "إرسال الطلب إلى وصول آخر رمز" not in section, section


def test_an_acronym_glossed_in_brackets_after_its_name_is_the_strategy():
    # the other-language audit (an Arabic bootcamp chapter): «توازي الخط (PP): تقسيم طبقات النموذج ...» was given "the
    # number of pipeline stages", the reading of PP inside a formula ("(PP - 1)/m")
    from service.explain import pipeline

    def readings(text, lang="en"):
        return [o.reading for o in pipeline.analyse(text, lang).occurrences if o.entry["id"] == "pipeline-parallelism" and o.found_as == "PP"]
    assert readings("توازي الخط (PP): تقسيم طبقات النموذج عبر البطاقات.", "ar") == [0]
    assert readings("The bubble is (PP - 1)/m of the step.") == [1]


def test_round61_cross_language_frames_say_no_risk_as_a_failure_and_no_bare_topic_question():
    # round 61 (HOLDOUT_R61_JUDGING.md), both `wrong` gists: P23-ar "the author reports a problem: the job hangs" for an
    # approach "prone to errors, hangs, or performance regressions"; P17-ar "the author asks about fp16" for a question on
    # 16 against 20 bytes per parameter (a bare topic question, `partial` at best in round 60)
    risk = ("The optimizer step sets a flag in each parameter, and the first time a parameter is accessed in the forward pass "
            "it makes sure its all-gather has finished.\nThis approach is delicate and prone to errors, hangs, or performance "
            "regressions (e.g. embeddings need special care since they bypass our patched functions). That said, this is "
            "disabled by default and I see some modest speedups (~2%) training a 175B model.")
    assert "مشكلة" not in _gist(risk, "ar"), _gist(risk, "ar")
    assert "مشكلة" in _gist("With NCCL 2.18 our training job hangs after 2 hours on 64 GPUs.", "ar")
    assert not _gist("Why does fp16 training need loss scaling while bf16 does not?", "ar").startswith("يسأل الكاتب عن")


def test_round61_readers_findings():
    # round 61: a reason that data-parallel buckets hide communication, under "FSDP uses all-reduce collectives which are
    # not asynchronous" (P01); "reads to 48GB/sec, and writes to 26GB/sec" worked out as "46% lower" (P03); "10 GiB in
    # 30 s is 357.9 MB/s" for memory held and a delay added (P20); "Is it because my KV cache is full, or ..." said as
    # an explanation (P15); "TP/PP options" given PP's formula reading (P10); "large-scale EP ... usually eight or more"
    # against the passage's "EP > 8" (P12)
    from service.explain import glossary, pipeline

    blocking = ("FSDP uses all-reduce collectives which are not asynchronous, so the gradient buckets' communication "
                "cannot be overlapped with computation in the backward pass.")
    assert "buckets_overlap_gradient_sync" not in {r["id"] for r in explain_offline(blocking, "en")["reasons"]}
    calcs = lambda t: [c["calculator"] for c in explain_offline(t, "en")["calculations"]]  # noqa: E731
    assert calcs("Scaling out from four to eight drives further improves reads to 48GB/sec, and writes to 26GB/sec.") == []
    assert "ratio" in calcs("Throughput went from 40 GB/s to 26 GB/s after the change.")
    assert calcs("The bridge on rank 0 pins ~10 GiB extra memory and adds ~30 s to the first weight sync.") == []
    assert calcs("The trainer sends 10 GiB of weights to the rollout workers in 30 s at every weight sync.") == ["arithmetic"]
    asked = _gist("Throughput did not grow with TP=2 on the 7B model. Is it because my GPU KV cache usage is full, or there are other reasons.")
    assert asked.startswith("The author asks whether"), asked
    options = [o.reading for o in pipeline.analyse("Have you tried vLLM with TP/PP options for the 7B model?", "en").occurrences
               if o.entry["id"] == "pipeline-parallelism"]
    assert options == [0], options
    assert "eight" not in glossary.load().by_id["wide-expert-parallelism"]["definition"]


def test_round61_senses():
    # round 61: "peer-to-peer state recovery" (P04) as one GPU reading another's memory; "training loss time" (P14) as
    # the loss function; «مفردات القياس» (pack 111 P03) as a tokenizer's vocabulary; «الدقة الكاملة لـ float32» (pack 111
    # P06) as a released model's bf16 weights
    from service.explain import pipeline

    assert "point-to-point" not in _ids("Checkpointless training restores state through peer-to-peer state recovery from healthy nodes.")
    assert "loss-function" not in _ids("Each fault costs about 30 minutes of training loss time with hourly checkpoints.")
    assert "vocabulary" not in _ids("نبدأ بمفردات القياس: زمن أول رمز وزمن كل رمز ناتج.", "ar")
    full = [o.reading for o in pipeline.analyse("يستخدم المثال الدقة الكاملة لـ float32 افتراضيًا.", "ar").occurrences
            if o.entry["id"] == "fp32"]
    assert 2 not in full, full


def test_fp8_and_the_checkpoint_correction_claim_nothing_setup_specific():
    # reading a round-61 Arabic passage (ThakiCloud on GLM-5.2 in FP8 on H200s) as a user: FP8's definition listed "AMD's
    # MI300-series" and other products the passage never names (also round 60, pack 109 P05), and the correction of
    # «نقطة التفتيش» gave checkpoint its training and activation-checkpointing senses beside an item on released weights
    from service.explain import glossary

    fp8 = glossary.load().by_id["fp8"]
    assert "MI300" not in fp8["definition"] and "MI300" not in fp8["ar"]["definition"]
    text = "نقطة التفتيش المضغوطة بـ FP8 تبلغ نحو 750GB، وتنشر على ثماني وحدات H200 بالتوازي الموتري."
    answer = explain_offline(text, "ar")["explanation"]
    assert "حفظ التنشيطات" not in answer and "MI300" not in answer, answer
