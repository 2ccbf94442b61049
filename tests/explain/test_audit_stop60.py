"""Fixes of stop 60 from the fourth audit wave (openings and checks of 180 older held-out answers, terms of 120 more):
each a general rule tested on sentences written for the test, with the audited passage that showed it named."""

import pytest

from service.explain import arabic_clause, connectives, gist_dangling
from service.explain.compose import explain_offline


def _gist(text: str, lang: str = "en") -> str:
    return " ".join(g["text"] for g in explain_offline(text, lang)["gist"])


def test_a_noun_pointed_at_inside_a_point_brings_the_sentence_that_names_it():
    # ddn-checkpoint-bottleneck-terabytes: "The text says that when this process is slow, it causes GPU stalls" (a reader:
    # "this process" is never introduced); the sentence saying what the process is now comes first
    assert gist_dangling.points_inside("When this process is slow, it causes GPU stalls.", "en")
    assert gist_dangling.points_inside("Expanding that ceiling with more DRAM is unattractive.", "en")
    assert gist_dangling.points_inside("Few engineers understand this.", "en")
    assert not gist_dangling.points_inside("This PR makes the all-gather 20% faster.", "en")  # the page itself
    assert not gist_dangling.points_inside("It shows that performance drops by 20% at TP=8.", "en")  # "that" joins a clause
    assert not gist_dangling.points_inside("A cost appears at scale; this cost grows with the node count.", "en")
    assert gist_dangling.points_inside("يمنح هذا التصميم أداء أعلى بكثير.", "ar")
    assert not gist_dangling.points_inside("في هذا المقال نشرح التوازي.", "ar")
    text = ("Saving a checkpoint of a 70B model writes about 1 TB from GPU memory to storage. "
            "When this process is slow, it stalls every GPU and so cuts training throughput by up to 10%.")
    gist = _gist(text)
    assert gist.index("1 TB") < gist.index("this process"), gist


def test_interjections_are_not_restated_inside_a_report():
    # torchxla-7813-fsdpv2-35-mfu: "The author reports that ah got it—they have been getting about 35% MFU"
    assert connectives.without("Ah got it\u2014I have been getting about 35% MFU.", "en") == "I have been getting about 35% MFU."
    assert connectives.without("Oh, that explains the 2x slowdown.", "en") == "that explains the 2x slowdown."
    assert connectives.without("Rightsizing the batch is key.", "en") == "Rightsizing the batch is key."
    gist = _gist("Ah got it\u2014I have been getting about 35% MFU on a v4-64 with FSDPv2, which seems reasonable.")
    assert "got it" not in gist and "35%" in gist, gist


def test_an_arabic_sentence_joined_by_its_conjunction_drops_it_after_the_particle():
    # drhisham-solstice-100k-blackwell «ويذكر أنه وسيتم تركيب», masrawy-ironwood-tpu-pod-9200-chips «أنّ وتراهن الشركة»
    assert connectives.without("وسيتم تركيب النظامين في 2026", "ar") == "سيتم تركيب النظامين في 2026"
    assert connectives.without("وتراهن الشركة على الشرائح", "ar") == "تراهن الشركة على الشرائح"
    assert connectives.without("وتيرة التدريب أسرع", "ar") == "وتيرة التدريب أسرع"  # a noun that opens with و
    assert connectives.without("وحدات GPU كثيرة", "ar") == "وحدات GPU كثيرة"
    assert connectives.without("بمعنى آخر، يمكن للمعالج معالجة البيانات أسرع", "ar").startswith("يمكن")


def test_an_arabic_subject_is_not_moved_where_its_end_or_its_verb_would_change():
    # chovm-ar-apple-nvidia-redrafter-tensorrt-llm «شركة Apple وشركة Nvidia أعلنت» (the verb must turn dual),
    # scopir-ar-edge-llms «أفضل نماذج اللغة الكبيرة تجمع مفتوحة المصدر», ar-ultralytics «الترميز التخميني هذه يعالج المشكلة»
    assert arabic_clause.reported("أعلنت شركة Apple وشركة Nvidia مؤخرًا عن تعاون جديد.") is None
    assert arabic_clause.reported("تجمع أفضل نماذج اللغة الكبيرة مفتوحة المصدر بين الأداء والكفاءة.") is None
    said = arabic_clause.reported("يعالج الترميز التخميني هذه المشكلة عبر نموذج مسودة.")
    assert said is None or "التخميني يعالج هذه المشكلة" in said, said
    # what stays: plural things joined, a subject before its object
    assert arabic_clause.reported("تتمتع وحدات TPU ومجموعات NVIDIA المتطورة بذاكرة كبيرة.") == \
        "أنّ وحدات TPU ومجموعات NVIDIA المتطورة تتمتع بذاكرة كبيرة."
    assert arabic_clause.reported("تتضمن الحوسبة الموزعة تشغيل عدة أجهزة معًا.") == "أنّ الحوسبة الموزعة تتضمن تشغيل عدة أجهزة معًا."
    said = arabic_clause.reported("ستوفر المراكز الخمسة الجديدة قدرة تصل إلى 7 جيجاواط.")
    assert said is None or "الخمسة ستوفر" not in said, said


def test_a_table_row_is_no_point_while_a_sentence_stands():
    # trtllm-moe-perf-guide-ep-vs-tp-dispatch: "It adds that parallelism | How experts are split across GPUs: EP versus TP."
    text = ("Expert parallelism | How experts are split across GPUs: EP versus TP. "
            "With EP across 8 GPUs, each GPU holds 32 of the 256 experts, so the all-to-all dispatch replaces the "
            "all-reduce that TP needs and decode throughput rises by 1.6x.")
    gist = _gist(text)
    assert " | " not in gist and "1.6x" in gist, gist


def test_that_means_concludes():
    # the scaling book's profiling section: "That means we're getting fantastic FLOPs utilization!" weighed as nothing
    from service.explain import claims

    assert claims.cue("point", "That means we're getting fantastic FLOPs utilization!")
    assert not claims.cue("point", "That means the same thing as before")  # a gloss, not a conclusion


def test_a_condition_in_brackets_and_a_list_lead_s_condition_stay_with_the_claim():
    # marin-6493-muon-vs-fsdp-comms: "(except at very large batch size)" was dropped as an aside; fairseq-187: the advice
    # "reduce the learning rate" said without its lead "If you are training on fewer than 128 GPUs"
    gist = _gist("TL;DR: Muon is not friendly to FSDP setups (except at very large batch size), because the optimizer's "
                 "communication is large relative to the forward and backward pass.")
    assert "(except at very large batch size)" in gist, gist
    gist = _gist("If you are training on fewer than 128 GPUs, then you have a few options:\n"
                 "- reduce the learning rate: 0.0007 works well with 8 GPUs\n- or use --update-freq 16 to simulate 128 GPUs")
    assert "fewer than 128 GPUs" in gist and "reduce the learning rate" in gist, gist


def test_a_size_closing_or_before_a_model_s_name_is_its_parameter_count():
    # meshtfjax-235-gptj-token-count: "the 2.7B GPT-Neo" read as 2.7B tokens, then "2.7B at 151k tokens/s take 5 hours"
    from service.explain import pipeline

    doc = pipeline.analyse("GPT-J 6B reaches 151k tokens/s, faster than the 2.7B GPT-Neo (148k tokens/s); "
                           "gpt-neox-20b was trained on 400B tokens.", "en")
    kinds = {f.quote: f.quantity for f in doc.figures}
    assert kinds["2.7B"] == "params" and kinds["20b"] == "params" and kinds["400B tokens"] == "tokens", kinds


def test_a_size_judged_in_binary_units_shows_that_working():
    # nvidia-blog-nvcomp-checkpoint-anatomy: "Consistent" over a working that ended "off by 7.692%: inconsistent"
    result = explain_offline("Component | Size | Contents\nModel weights (BF16) | 130 GB | 70B params × 2 bytes\n"
                             "Sizes use binary units (GiB).", "en")
    steps = [s for c in result["calculations"] for s in c.get("steps", [])]
    assert any("1.024^3" in s for s in steps), steps
    assert not any("inconsistent" in s for s in steps), steps


def test_a_peak_the_text_gives_is_not_called_absent():
    # hn-comment-llama3-llama4-mfu-bf16-fp8: "390 TFLOPS out of a theoretical 1,979 FP8 TFLOPS" was explained with
    # "(1.979 PFLOP/s in its maker's datasheet; the text does not give it)"
    md = explain_offline("Meta switched to FP8 on 32K H100s; GPUs delivered ~390 TFLOPS out of a theoretical "
                         "1,979 FP8 TFLOPS.", "en")["explanation"]
    assert "does not give it" not in md, md



@pytest.mark.parametrize("text, lang, entry", [
    # the fourth audit wave's terms findings (batches 14 and 15), each a sense the passage does not use
    ("Each message is sent by hardware with guaranteed in-order delivery and end-to-end flow control.", "en", "end-to-end"),
    ("A communication plane interconnects the cores in a cartesian mesh.", "en", "interconnect"),
    ("وترتبط النوى بإحكام في ما بينها لتسريع مسار المعالجة.", "ar", "speedup"),
    ("تسهل المكتبة تدريب نماذج مكتبة المحولات Transformers تدريبًا موزعًا.", "ar", "transformer"),
    ("Why are they using ZeRO-Inference on an 8xMI300X system?", "en", "zero"),
    ("TP4, NCCL-enabled build, rev 3aa1484 (tree-identical to 872ff3f).", "en", "nccl-algorithm"),
    ("This trades the all-reduce for pipeline latency: a deeper pipeline has bubbles.", "en", "latency"),
    ("We scale models on the TPU Multipod, a mesh with 4096 TPU-v3 chips.", "en", "device-mesh"),
    ("We scale models on the TPU Multipod, a mesh with 4096 TPU-v3 chips.", "en", "tpu-pod"),
    ("لم تثبت دقة MXFP4 الأصلية استقرارها لتراكم التدرج أثناء الضبط الدقيق.", "ar", "gradient-accumulation"),
    ("المهم في هذه التكوينات هو تجنب الاختناقات في طبقات الشبكة.", "ar", "layer"),
    ("The methodology is three independent cold starts per arm, then ten measured warm refits.", "en", "cold-start"),
])
def test_a_sense_the_passage_does_not_use_is_not_given(text, lang, entry):
    assert entry not in {t["id"] for t in explain_offline(text, lang)["terms"]}


@pytest.mark.parametrize("text, entry", [
    ("End-to-end latency of each request fell by 20%.", "end-to-end"),
    ("The interconnect between nodes is InfiniBand.", "interconnect"),
    ("ZeRO-3 shards parameters, gradients and optimizer states.", "zero-3"),  # the stage named whole; its "ZeRO-" is no second term (round 85)
    ("NCCL picks the tree algorithm at large scale.", "nccl-algorithm"),
    ("Cold starts of a serving replica take 40 s while its weights load.", "cold-start"),
    ("We use gradient accumulation over 8 micro-batches.", "gradient-accumulation"),
])
def test_the_entry_stays_where_the_passage_uses_its_sense(text, entry):
    assert entry in {t["id"] for t in explain_offline(text, "en")["terms"]}


def test_an_option_name_engines_share_is_not_called_vllm_s_in_another_engine_s_text():
    # fastdeploy-chunked-prefill-tuning: "max_num_batched_tokens (a vLLM setting)" in FastDeploy's own docs
    items = explain_offline("When enabling Chunked Prefill in FastDeploy, adjust performance via max_num_batched_tokens.", "en")["terms"]
    assert not any("vLLM" in (t.get("expansion") or "") for t in items), items
    vllm = explain_offline("In vLLM, set max_num_batched_tokens to 8192.", "en")["terms"]
    assert any(t.get("expansion") == "a vLLM setting" for t in vllm)


def test_a_total_by_active_size_is_read_whole_and_active_parameters_keep_their_name():
    # marin-7024-jaxpp-dualpipev-moe: "67B-A2B (active parameters): The number of parameters actually used ..." - a reader
    # takes 67B as the active count
    items = {t["found_as"]: t for t in explain_offline("The final Snowball 67B-A2B result uses 64 H100s.", "en")["terms"]}
    assert items["67B-A2B"]["expansion"] == "a model with 67 billion parameters, 2 billion of them active for each token"
    assert all(t["id"] != "active-parameters" or found != "67B-A2B" for found, t in items.items())


def test_a_degree_on_tpu_axes_counts_chips():
    # maxtext-1323-405b-pure-fsdp: "TP (tensor parallelism across 4 GPUs)" for MaxText's ICI_TP=4 on TPUs
    from service.explain import passage_devices

    assert passage_devices.not_gpus("Add a pure ICI_FSDP=256 DCN_FSDP=2 config, improving over the ICI_TP=4 config.")
    assert not passage_devices.not_gpus("We set TP=4 on 8 H100 GPUs.")


def test_definitions_say_what_holds_in_the_passage_s_setting():
    # the audit's "false" findings: fp8 computed natively on an A100, the Megatron formula's "about six" operations per
    # parameter, a TPU torus given switches and adapters, the WSE sold only in CS-2 and CS-3
    from service.explain import glossary

    look = glossary.load().lookup
    assert "A100 only store it" in look("fp8")["definition"]
    assert "about eight operations per parameter per token" in look("megatron-flops-formula")["definition"]
    assert "TPU pod" in look("network-fabric")["definition"]
    assert "CS-1" in look("cerebras-wse")["definition"]


def test_impersonal_it_seems_your_own_and_a_conditional_question_are_reported_as_english_allows():
    # deepep-59: "They report that this seems the combining alltoall ..."; coreweave-speculative-decoding: "on the own
    # traffic"; meshtfjax-235: "asks whether gpt-j-6b ... were trained with ..., how could they achieve ..."
    gist = _gist("It seems the combining alltoall communication is faster (13ms to 5ms) with DeepEP, but dispatch is slower.")
    assert "this seems" not in gist and "probably the combining" in gist, gist
    assert "one's own traffic" in _gist("Speculative decoding gains depend on the workload, so measure acceptance on your own "
                                        "traffic before you keep a configuration.")
    asked = _gist("Where am I wrong? If GPT-J was trained with 1000 times fewer tokens than GPT-3, how could it match its results?")
    assert "asks how" in asked and "whether" not in asked, asked
    assert "this seems" not in _gist("It seems to be a bug in the scheduler of the 8-GPU job.")


@pytest.mark.parametrize("text, lang, entry", [
    # the fifth audit wave's terms findings (batches 24 and 25)
    ("There are 16GB per core, not 128GB unified memory, and a hard separation among TPU cores.", "en", "unified-memory"),
    ("By wrapping only torch.nn.Linear modules we avoid wrapping the LoRA layers.", "en", "layer"),
    ("The metric is sometimes called tokens per second per user, the latency for a single request.", "en", "tokens-per-second"),
    ("That translates into ~18 sequences of 2,048 tokens per second on the full node.", "en", "tokens-per-second"),
])
def test_a_sense_the_passage_does_not_use_is_not_given_wave_five(text, lang, entry):
    assert entry not in {t["id"] for t in explain_offline(text, lang)["terms"]}


def test_tp_beside_fp8_is_tensor_parallelism_not_a_true_positive():
    # colossalai-6105: "FP8 with TP should all_reduce a global amax history" glossed "In classification metrics, a case
    # the model labelled positive"; "FP8" and "precision" were cues of the classification sense
    (term,) = [t for t in explain_offline("FP8 with TP should all_reduce a global amax history; it does not test precision.", "en")["terms"]
               if t["found_as"] == "TP"]
    assert term["expansion"] == "tensor parallelism", term


def test_communication_volume_is_no_memory_of_model_states():
    # ar-pytorch-ar-fsdp-comm-payload: 30 collectives of 0.8 GB, 24 GB in all, set against 1.6B x 16 B = 25.6 GB of states
    md = explain_offline("Each transformer block has 1.6B parameters in fp32. There will be 30 communications with a total "
                         "of 30*0.8=24GB.", "en")["explanation"]
    assert "25.6" not in md, md


def test_an_acronym_modifying_a_noun_is_not_expanded_and_a_plural_expansion_agrees():
    # devto-gqa: "shares one keys and values (K/V) head"; ietf-bmwg: "different switch application-specific integrated
    # circuit (ASICs)"
    from service.explain import restate

    assert restate._modifies_noun("one K/V head across a group", len("one K/V"))
    gist = " ".join(g["text"] for g in explain_offline(
        "The benchmark covers different switch ASICs, with 400G ports on each of 64 switches, so the fabric is the point.", "en")["gist"])
    assert "integrated circuits (ASICs)" in gist, gist


def test_trainium_degrees_count_chips():
    # neuron-pcluster-21-trn1-dp-from-tp-pp: "TP=8 (tensor parallelism across 8 GPUs)" on a trn1 cluster
    from service.explain import passage_devices

    assert passage_devices.not_gpus("In our llama7b pretraining script on trn1 we set TP=8 and PP=1.")


def test_an_arabic_demonstrative_after_a_name_or_a_description_past_a_comma_keeps_the_sentence_quoted():
    # thearabcapital-huang «أنّ هوانغ هذا المفهوم أوضح»; bilarabi-humain «أنّ شركة "هيوماين" السعودية الناشئة أعلنت في مجال ...»
    assert arabic_clause.reported("أوضح هوانغ هذا المفهوم من خلال وصف المصانع.") is None
    assert arabic_clause.reported("أعلنت شركة هيوماين السعودية الناشئة في مجال الذكاء الاصطناعي، والمملوكة للصندوق، بدء "
                                  "تنفيذ مراكز.") is None


def test_wave_five_checks_said_only_where_the_text_asks_for_them():
    # fp8-2t-tokens-smooth-swiglu-gaudi2: "datasets up to 2 trillion tokens" over the 7B model of a later sentence;
    # jetstream-125: "The name v5e-1 counts chips: 1 chips"; areno: a tensor-parallel group's ~1.7 TFLOP/s over one A100's peak
    md = explain_offline("We train LLMs in FP8 on datasets up to 2 trillion tokens. We also train a 7B parameter model on 256 "
                         "Gaudi2 accelerators.", "en")["explanation"]
    assert "per parameter" not in md, md
    assert "1 chips" not in explain_offline("Overall we should recommend v5e-1 for gemma-2b instead of v5e-8.", "en")["explanation"]
    group = explain_offline("On one 8xA100 node (world=4 / tp=4) decode reaches a compute utilization of ~1.7 TFLOPs/s.", "en")
    assert "312" not in group["explanation"], group["explanation"]
    assert connectives.without("guys, @vinvcn has realized the pytorch implementation.", "en").startswith("@vinvcn")


def test_wave_six_checks_and_items():
    # gaudi3-network-scaleup-scaleout-bw: two claims listed with a working and no verdict (empty items); jaredhpc: "H100
    # has 80 GB, H200 has 141 GB" worked out as "about 43% lower"; kempnerforge: "93.2 GB of 140 GB" on each of 32 GPUs
    # over all 70B parameters as "1.3 bytes per parameter"
    md = explain_offline("The scale-out bandwidth from each Gaudi 3 is 3*200Gbps = 75 GB/s in each direction or 150 GB/s "
                         "bidirectional bandwidth.", "en")["explanation"]
    assert "Working" not in md or "Consistent" in md or "Explained" in md, md
    md = explain_offline("No single GPU in the Hopper generation holds it without quantization: H100 has 80 GB, H200 has "
                         "141 GB.", "en")["explanation"]
    assert "43% lower" not in md and "56.7%" not in md, md
    md = explain_offline("The 70B model on 32 GPUs (TP=4 x FSDP=8) uses 93.2 GB of 140 GB and holds its states.", "en")["explanation"]
    assert "bytes per parameter" not in md, md
    gist = " ".join(g["text"] for g in explain_offline("Set the NVSHMEM environment variable to enable IBGDA, which cuts "
                                                       "latency by 30%.", "en")["gist"])
    assert "NVSHMEM environment variable" in gist, gist


def test_wave_six_expansions():
    # semiwiki-forum-cerebras: "dynamic random-access memory (DDR5)" (DDR5 is Double Data Rate 5, one kind of DRAM);
    # a wave-six opening: "they manage to supervised fine-tuning (SFT) a 7B model"
    from service.explain import restate

    assert not restate.spells("DDR5", "dynamic random-access memory") and restate.spells("DRAM", "dynamic random-access memory")
    assert restate.spells("FLOPs", "floating-point operations")
    assert "dynamic random-access memory (DDR5)" not in _gist("The MemoryX unit holds weights in DDR5 and flash, up to 1.2 PB.")
    assert "to SFT a 7B model" in _gist("We manage to SFT a 7B model on one GPU with LoRA in 3 hours.")


def test_wave_six_openings():
    # ar-thakicloud-tpu-ici-torus-ocs «يسأل النص: يبقى سؤال: كيف ...»; nccl-1111 "They add that [E ProcessGroupNCCL.cpp:481] ..."
    from service.explain import gist_side

    assert connectives.without("يبقى سؤال: كيف تُربط الشرائح البعيدة عن بعضها؟", "ar").startswith("كيف")
    assert gist_side.machine_output("[E ProcessGroupNCCL.cpp:481] [Rank 65] Watchdog caught collective operation timeout:")
    gist = _gist("The ReduceScatter on 128 nodes hangs after 30 minutes and the job dies.\n"
                 "[E ProcessGroupNCCL.cpp:481] [Rank 65] Watchdog caught collective operation timeout: WorkNCCL(OpType=_REDUCE_SCATTER).")
    assert "ProcessGroupNCCL" not in gist, gist


def test_an_arabic_so_then_link_goes_whole():
    # read as a user on round 65's Arabic GGUF post: «يخلص النص إلى: فإن عرض البت الفعلي ...» kept the «ف» of «لذا فإن»
    assert connectives.without("لذا فإن عرض البت الفعلي هو 4.5 بت", "ar") == "إن عرض البت الفعلي هو 4.5 بت"
    assert connectives.without("فإنتاجية النظام عالية", "ar") == "فإنتاجية النظام عالية"  # a word that opens with «فإن»
