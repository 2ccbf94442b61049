"""Round 33c: senses blind readers of earlier passages found wrong (an HGX board called NVIDIA's own system, a host:port
host called a hosting company, NCCL's point-to-point send/recv called halves of an all-to-all, an A100's RAM called CPU
memory, QLoRA's four bits called INT4, ...), and aliases other workers asked for. Each sense fix has a text written for
this test in the situation the readers met, and a text of the other sense that must keep its sense; each alias a
sentence that finds its entry, and ordinary prose that does not."""

import re

import pytest

from service.explain import glossary
from service.explain.compose import explain_offline
from tests.support.glossary_files import assert_entries_whole, detected, term_definition

_definition = term_definition


def _item(text: str, term_id: str, lang: str = "en") -> dict:
    item = next((t for t in explain_offline(text, lang)["terms"] if t["id"] == term_id), None)
    assert item is not None, f"{term_id} not found"
    return item


# ---- 1 tokens per second in a training text --------------------------------------------------------------------------

def test_tokens_per_second_of_a_training_run_is_the_training_sense():
    deepseek = "The DeepSeek-V3 training run on 256 B200 GPUs reported 651 tokens/sec per GPU."
    assert _definition(deepseek, "tokens-per-second").startswith("How many tokens a training job")
    verl = "The verl PPO trainer logs throughput (tokens/s) for the actor and the critic at every step."
    assert _definition(verl, "tokens-per-second").startswith("How many tokens a training job")
    serving = "vLLM decode reaches 60 tokens/s per user on the hosted API for these requests."
    assert _definition(serving, "tokens-per-second").startswith("How many tokens a serving engine")


# ---- 2 HGX is the baseboard platform, DGX NVIDIA's own system ---------------------------------------------------------

def test_hgx_is_the_baseboard_server_makers_build_on_not_nvidias_own_system():
    text = "Supermicro's HGX B200 server puts eight B200 GPUs on NVIDIA's baseboard with NVSwitch."
    item = _item(text, "nvidia-hgx")
    assert item["definition"].startswith("NVIDIA's GPU baseboard platform")
    assert "dgx" not in detected(text)
    assert _definition(text, "nvidia-hgx", "ar").startswith("منصة لوحة وحدات GPU من NVIDIA")
    dgx = "NVIDIA's DGX H100 joins its eight GPUs through four NVSwitch chips."
    assert _definition(dgx, "dgx").startswith("NVIDIA's own line of complete AI systems")
    assert "nvidia-hgx" not in detected(dgx)


# ---- 3 a host on the network is a machine, a web host a company -------------------------------------------------------

def test_a_host_in_an_endpoint_is_a_machine_and_a_web_host_is_a_company():
    endpoint = ("Launch torchrun with --rdzv_endpoint host:port on every node; the host is the internal IP of the "
                "first machine.")
    definition = _definition(endpoint, "host")
    assert definition.startswith("A machine on the network, named by its hostname or IP address")
    assert "company" not in definition
    assert _definition(endpoint, "host", "ar").startswith("جهاز على الشبكة")
    web = "We moved the blog to a cheaper web host; the hosting provider also runs our website."
    assert _definition(web, "host").startswith("A company that hosts websites")
    tpu = "The TPU host feeds the chips over PCIe and keeps the optimizer state in host memory."
    assert _definition(tpu, "host").startswith("The ordinary computer")


# ---- 4 send/recv are point-to-point ----------------------------------------------------------------------------------

def test_nccl_sendrecv_kernels_are_point_to_point_not_halves_of_an_all_to_all():
    kernels = "NCCL runs send/recv through its SendRecv kernels, and the all-to-all is built from them."
    definition = _definition(kernels, "send-recv")
    assert definition.startswith("The basic one-to-one transfer") and "point-to-point" in definition
    stages = ("The MoE kernel splits the all-to-all into separate send and receive stages so that dispatch and combine "
              "overlap with computation.")
    halves = _definition(stages, "send-recv")
    assert halves.startswith("Here send and receive are the two halves of an all-to-all exchange")
    assert "built from point-to-point sends and receives" in halves


# ---- 5 TFLOP/s throughput of a whole slice ----------------------------------------------------------------------------

def test_tflops_throughput_may_be_the_whole_systems():
    text = "The 16-chip TPU v5p slice sustained a throughput of 867 TFLOPs during training."
    definition = _definition(text, "throughput")
    assert definition.startswith("Here throughput is an arithmetic rate, in TFLOP/s") and "or of the whole system" in definition
    assert "per GPU" not in definition
    plain = "Throughput in tokens/s rose by a third once we enabled sequence packing."
    assert _definition(plain, "throughput").startswith("Amount of work done per unit of time")


# ---- 6 a network switch is مبدل in Arabic -------------------------------------------------------------------------------

SWITCH_ENTRIES = ["leaf-switch", "spine-switch", "ib-subnet-manager", "oversubscription", "network-fabric", "nvidia-linkx",
                  "broadcom-trident", "broadcom-tomahawk", "broadcom-jericho", "broadcom", "incast", "hpe-slingshot"]


@pytest.mark.parametrize("term_id", SWITCH_ENTRIES)
def test_network_switch_entries_say_mubaddil_not_muhawwil(term_id):
    entry = glossary.load().by_id[term_id]
    arabic = entry["ar"]["term"] + entry["ar"]["definition"] + "".join(f["ar"] for f in entry.get("facts") or [])
    assert not re.search("محو[ّ]?ل", arabic), term_id
    assert "مبدل" in arabic, term_id


def test_a_leaf_switch_in_arabic_is_a_mubaddil_and_a_transformer_stays_muhawwil():
    text = "A leaf switch connects the servers in the rack to the spine switches over InfiniBand."
    assert _definition(text, "leaf-switch", "ar").startswith("طبقة المبدلات الأولى")
    assert "محول" in glossary.load().by_id["transformer"]["ar"]["term"]


# ---- 7 an A100's RAM is its own memory ------------------------------------------------------------------------------

def test_the_ram_of_a_gpu_is_the_gpus_own_memory():
    a100 = "The A100 has 80 GB of RAM, so the whole model fits on one card."
    assert _definition(a100, "ram").startswith("Memory a processor can read and write at any address; a server's RAM")
    gpu_ram = "Training stopped when GPU RAM ran out at a batch of sixteen."
    assert _definition(gpu_ram, "ram").startswith("Memory a processor can read and write at any address; a server's RAM")
    host = "The server has 8 GPUs and 512 GB of RAM for offloading the optimizer states to the CPU."
    assert _definition(host, "ram").startswith("The computer's own main memory (its RAM)")


# ---- 8 K,V are keys and values ----------------------------------------------------------------------------------------

def test_k_v_written_alone_is_keys_and_values_not_query_key_value():
    text = "Each attention layer caches K, V for every past token, so the cache grows with the context."
    item = _item(text, "query-key-value")
    assert item["term"] == "K, V"
    assert item["definition"].startswith("Here K and V are attention's keys and values only")
    slash = "Ring attention passes the K/V blocks from GPU to GPU while each keeps its queries."
    assert "keys-and-values" in detected(slash)
    qkv = "The fused projection computes Q, K, V for attention in one matmul."
    assert _definition(qkv, "query-key-value").startswith("The three vectors attention computes")
    assert "keys-and-values" not in {t["id"] for t in explain_offline("Q/K/V projections in attention.", "en")["terms"]}


# ---- 9 a KV cache swapped to another machine --------------------------------------------------------------------------

def test_kv_cache_swapped_out_to_another_machine_in_disaggregated_serving():
    text = ("In our disaggregated deployment the KV cache of a finished prefill is swapped out to the decode instance "
            "over RDMA.")
    assert _definition(text, "memory-swapping").startswith("Here the KV cache is moved out of one GPU's memory into the memory "
                                                          "of another machine")
    local = "When blocks run out, vLLM preempts the request and its KV cache is swapped out to CPU memory."
    definition = _definition(local, "memory-swapping")
    assert definition.startswith("Moving data out of GPU memory to slower memory elsewhere")
    assert "another machine's memory" in definition


# ---- 10 QLoRA's four bits are NF4 and its mixed precision keeps an NF4 base --------------------------------------------

def test_four_bits_beside_qlora_are_nf4_not_int4():
    text = "يستخدم QLoRA تكميم 4-بت بصيغة NF4 عبر مكتبة bitsandbytes لتخزين أوزان النموذج الأساس."
    item = _item(text, "int4", "ar")
    assert item["term"] == "4-bit (NF4)"
    assert item["definition"].startswith("البتات الأربع هنا صيغة NF4")
    assert _definition(text, "int4").startswith("Here the four bits are NF4")
    gptq = "يقلل تكميم 4-بت بطريقة GPTQ ذاكرة النموذج إلى الربع."
    assert _definition(gptq, "int4", "ar").startswith("أعداد مخزنة كأعداد صحيحة من أربعة بتات")


def test_mixed_precision_in_qlora_has_no_fp32_master_copy_of_the_base():
    text = "QLoRA trains LoRA adapters with mixed precision on top of an NF4 base model loaded with bitsandbytes."
    definition = _definition(text, "mixed-precision")
    assert definition.startswith("In QLoRA, mixed precision means the frozen base weights stay stored in four-bit NF4")
    assert _definition(text, "mixed-precision", "ar").startswith("الدقة المختلطة في QLoRA")
    plain = "Mixed precision training keeps an fp32 master copy of the weights and uses loss scaling."
    assert _definition(plain, "mixed-precision").startswith("Training with low-precision numbers")


# ---- 11 deterministic communication -------------------------------------------------------------------------------------

def test_deterministic_communication_is_a_fixed_traffic_pattern_not_bitwise_results():
    text = ("The MoE layer uses deterministic communication: every GPU knows the all-to-all traffic in advance, so no "
            "metadata exchange is needed before dispatch.")
    definition = _definition(text, "training-determinism")
    assert definition.startswith("Here deterministic means that who sends how much to whom is fixed in advance")
    assert _definition(text, "training-determinism", "ar").startswith("الحتمي هنا يعني")
    bitwise = "Set torch.use_deterministic_algorithms so that CUDA kernels give deterministic results with the same seed."
    assert _definition(bitwise, "training-determinism").startswith("The property that repeating a training or inference run")


# ---- 12 the L2 cache --------------------------------------------------------------------------------------------------

def test_l2_cache_is_the_cache_shared_by_the_sms():
    text = "The H100's L2 cache is shared by all SMs, so tiles that several blocks reuse are read from HBM once."
    definition = _definition(text, "l2-cache")
    assert definition.startswith("The GPU's last level of on-chip cache, shared by all its streaming multiprocessors")
    assert "registers" not in definition
    assert "sram" not in detected(text)
    sram = "FlashAttention keeps the tiles in SRAM and avoids round trips to HBM."
    assert _definition(sram, "sram").startswith("Small, very fast memory built into the processor itself")


# ---- 13 lm_head is the output layer ----------------------------------------------------------------------------------

def test_lm_head_is_the_output_layer_not_a_setting():
    text = "The lm_head projects the last hidden states to logits over the vocabulary."
    terms = {t["id"]: t for t in explain_offline(text, "en")["terms"]}
    assert terms["lm-head"]["definition"].startswith("A language model's output layer")
    assert not any("setting" in t["definition"] for t in terms.values() if t["term"] == "lm_head")
    assert _definition(text, "lm-head", "ar").startswith("طبقة الإخراج في النموذج اللغوي")


# ---- 14 an accepted prefix is a run of tokens -------------------------------------------------------------------------

def test_accepted_prefixes_are_runs_of_tokens_not_a_rate():
    text = ("In speculative decoding the target model verifies the draft tokens in one pass, and accepted prefixes "
            "stream out immediately.")
    item = _item(text, "draft-acceptance-rate")
    assert item["term"] == "accepted prefix"
    assert item["definition"].startswith("In speculative decoding, the accepted prefix is the leading run of drafted tokens")
    rate = "With a draft model of the same family the acceptance rate reached 0.8 in speculative decoding."
    assert _definition(rate, "draft-acceptance-rate").startswith("In speculative decoding, how often the target model keeps")


# ---- 15 inter-kernel gaps are idle GPU time ------------------------------------------------------------------------------

def test_inter_kernel_gaps_are_idle_gpu_time():
    text = "The profiler shows inter-kernel gaps of a few microseconds where the GPU sits idle."
    item = _item(text, "dispatch-overhead")
    assert item["term"] == "inter-kernel gaps"
    assert item["definition"].startswith("The idle time on the GPU between the end of one kernel and the start of the next")
    launch = "Python dispatch overhead dominates when the model launches thousands of tiny kernels."
    assert _definition(launch, "dispatch-overhead").startswith("The CPU-side cost of issuing GPU work")


# ---- 16 the bandwidth-bound regime is a regime of the alpha-beta model ----------------------------------------------------

def test_bandwidth_bound_regime_is_defined_as_the_regime():
    text = "Gradient all-reduces of big tensors live in the bandwidth-bound regime of NCCL collectives."
    item = _item(text, "alpha-beta-model")
    assert item["term"] == "bandwidth-bound regime"
    assert item["definition"].startswith("The regime of the alpha-beta model in which messages are large enough")
    small = "Small all-reduces of a few kilobytes sit in the latency-bound regime of the collective."
    assert _definition(small, "alpha-beta-model").startswith("The regime of the alpha-beta model in which messages are small")
    model = "The alpha-beta model prices each message at a start-up latency plus its size over the bandwidth."
    assert _definition(model, "alpha-beta-model").startswith("The standard back-of-envelope model")


# ---- 17 expert capacity and capacity factor -------------------------------------------------------------------------------

def test_expert_capacity_is_a_token_count_set_by_the_capacity_factor():
    text = "Once the expert capacity is reached, further tokens routed to that expert are dropped in the MoE layer."
    definition = _definition(text, "expert-capacity")
    assert definition.startswith("The most tokens one expert of a mixture-of-experts layer takes from a batch")
    assert "single expert" in definition
    assert "capacity-factor" not in detected(text)
    factor = "A capacity factor of 1.25 leaves slack for uneven routing among the experts of the MoE layer."
    assert _definition(factor, "capacity-factor").startswith("The multiplier that sets each expert's capacity")


# ---- 18 latency of one step -----------------------------------------------------------------------------------------------

def test_a_latency_floor_of_one_step_is_step_latency():
    text = "At batch one the latency floor is the time of one step: each decode step must read all the weights."
    assert _definition(text, "latency").startswith("Here latency is the time one step or iteration takes")
    assert _definition(text, "latency", "ar").startswith("الكمون هنا هو الوقت الذي تستغرقه خطوة أو دورة واحدة")
    request = "Users wait longer: the latency of each request grew as the server batched more users."
    assert _definition(request, "latency").startswith("The delay between sending a request and getting its answer")
    network = "The all-reduce of small messages is dominated by network latency over InfiniBand."
    assert _definition(network, "latency").startswith("How long a message or a transfer between chips or machines takes to arrive")


# ---- 19 H100 PCIe ---------------------------------------------------------------------------------------------------------

def test_h100_pcie_is_the_card_without_nvswitch():
    text = "We rented one H100 PCIe card for inference in an ordinary server."
    item = _item(text, "nvidia-h100")
    assert item["term"] == "H100 PCIe"
    assert item["definition"].startswith("The PCIe-card version of NVIDIA's Hopper H100") and "HBM2e" in item["definition"]
    sxm = "Each H100 SXM joins the other seven through NVSwitch."
    assert _definition(sxm, "nvidia-h100").startswith("NVIDIA's flagship Hopper-generation data-center GPU")


# ---- new entries ----------------------------------------------------------------------------------------------------------

NEW_IDS = ["nvidia-hgx", "l2-cache", "lm-head", "expert-capacity"]


def test_new_entries_are_complete_and_sourced():
    assert_entries_whole("long_tail_round33c.json", NEW_IDS, set(NEW_IDS))


@pytest.mark.parametrize("term_id", NEW_IDS)
def test_new_entry_found_in_arabic_text(term_id):
    rendering = glossary.load().by_id[term_id]["ar_aliases"][0]
    text = f"في هذا الإعداد يعتمد الفريق على {rendering} لتسريع تدريب النموذج."
    assert term_id in detected(text), (rendering, detected(text))


# ---- aliases other workers suggested --------------------------------------------------------------------------------------

ALIASES = [
    ("speculative-decoding", "يقترح نموذج المسودة عدة رموز ثم يتحقق منها النموذج الهدف.", "نموذج المسودة"),
    ("speculative-decoding", "يعتمد التوليد الاستباقي على نموذج صغير يقترح الرموز والنموذج الهدف يتحقق منها.", "التوليد الاستباقي"),
    ("speculative-decoding", "يسرع الفك الترميزي التخميني توليد النص.", "الفك الترميزي التخميني"),
    ("target-model", 'يتحقق نموذج "الهدف" من الرموز التي اقترحها نموذج المسودة.', 'نموذج "الهدف"'),
    ("draft-acceptance-rate", "تختلف معدلات قبول الرموز بحسب نموذج المسودة.", "معدلات قبول"),
    ("autoregressive-generation", "يعمل التوليد الذاتي الانحداري رمزا بعد رمز.", "التوليد الذاتي الانحداري"),
    ("autoregressive-generation", "التوليد التلقائي يولد رمزا واحدا في كل خطوة.", "التوليد التلقائي"),
    ("kv-heads", "يشارك كل رأس استعلام رؤوس KV مع رؤوس أخرى.", "رؤوس KV"),
    ("residual-stream", "تضاف مخرجات الانتباه إلى الوصلات المتبقية في كل طبقة.", "الوصلات المتبقية"),
    ("residual-stream", "Residual Stream Growth makes later layers' activations larger.", "Residual Stream Growth"),
    ("system-prompt", "يضع المطور محث النظام في بداية المحادثة.", "محث النظام"),
    ("prefill", "تستغرق معالجة المطالبة وقتا أطول مع السياقات الطويلة.", "معالجة المطالبة"),
    ("full-fine-tuning", "الضبط الكامل لكل المعاملات يحتاج ذاكرة أكبر بكثير من LoRA.", "الضبط الكامل"),
    ("state-dict", "يحفظ FSDP القاموس المجزأ لكل رتبة في نقطة الحفظ.", "القاموس المجزأ"),
    ("job-preemption", "تتعرض شرائح TPU لعمليات الاستيلاء، لذا نستخدم الحفظ التلقائي.", "لعمليات الاستيلاء"),
    ("numeric-overflow-underflow", "يسبب التدفق السفلي في FP16 ضياع التدرجات الصغيرة.", "التدفق السفلي"),
    ("bitnet", "تستخدم النماذج تكميم الأوزان الثلاثية لتقليل الذاكرة.", "تكميم الأوزان الثلاثية"),
    ("quantization-aware-training", "تحافظ تقنيات واعية بالتكميم على الدقة.", "تقنيات واعية بالتكميم"),
    ("network-fabric", "تربط بنية قماشية خالية من الفقدان وحدات GPU عبر RoCE في الشبكة.", "بنية قماشية خالية من الفقدان"),
    ("mellanox", "NVIDIA Networking sells ConnectX adapters and Quantum InfiniBand switches.", "NVIDIA Networking"),
    ("silicon-die", "يتكون MCM من عدة قوالب على الرقاقة نفسها.", "قوالب"),
    ("memory-fragmentation", "يسبب تفتت الذاكرة هدرا في ذاكرة KV.", "تفتت الذاكرة"),
    ("kv-cache-block", "PagedAttention maps the logical blocks of the KV cache to physical blocks.", "logical blocks"),
    ("paged-attention", "vLLM borrows OS paging ideas for the KV cache.", "OS paging"),
    ("rpc", "يستقبل خادم RPC الطلبات من العمال.", "خادم RPC"),
    ("unified-memory", "يوفر DGX GH200 الذاكرة المشتركة بسعة 144 تيرابايت.", "الذاكرة المشتركة"),
    ("opt", "نقارن OPT وBLOOM على المعيار نفسه.", "OPT"),
    ("tensor-parallelism", "Megatron uses column/row parallel matmuls inside each layer.", "column/row parallel matmuls"),
    ("tensor-parallelism", "TP-sharding splits each weight matrix across GPUs.", "TP-sharding"),
    ("policy-model", "The actor is trained with PPO against the critic and the reward model.", "actor"),
    ("rollout", "make_experience runs generation for the batch.", "make_experience"),
    ("rollout", "Generating experiences dominates the PPO step.", "Generating experiences"),
    ("collective-communication", "NCCL provides communication primitives such as all-reduce.", "communication primitives"),
    ("comm-compute-overlap", "The gradient all-reduce is overlapped with compute in the backward pass.", "overlapped with compute"),
    ("zero-3", "DeepSpeed Stage 3 adds parameter partitioning to optimizer sharding.", "DeepSpeed Stage 3"),
    ("nccl-timeout", "The job failed with a timeout in the collective after NCCL reported an error.", "timeout"),
    ("algorithm-bandwidth", "nccl-tests reports AlgorithmBw and BusBw for each size.", "AlgorithmBw"),
    ("xla", "The program is compiled by XLA:TPU.", "XLA:TPU"),
    ("fsdp", "We use PyTorch FSDP2 for sharding.", "PyTorch FSDP2"),
    ("ring-attention", "Each of the ring steps passes KV chunks to the next GPU under context parallel.", "ring steps"),
    ("moe-dispatch-combine", "Dispatching tokens to experts uses an all-to-all in the MoE layer.", "Dispatching"),
    ("router", "The gating weights scale each expert's output.", "gating weights"),
    ("master-weights", "The optimizer keeps FP32 copies of the bf16 weights.", "FP32 copies"),
    ("node", "Single-node training uses NVLink only.", "Single-node"),
    ("node", "Inter-server traffic goes over InfiniBand.", "Inter-server"),
    ("peak-flops", "The chip reaches most of its peak theoretical performance.", "peak theoretical performance"),
    ("activation-checkpointing", "Backward-pass recompute trades compute for memory.", "Backward-pass recompute"),
    ("tpu-v5e", "We trained on a v5e-8 slice.", "v5e-8"),
    ("tpu-v5e", "We trained on a v5litepod-8.", "v5litepod-8"),
    ("tpu-v4", "A TPU v4p pod holds thousands of chips.", "TPU v4p"),
    ("tpu-ironwood", "Google's TPU v7x doubles the HBM.", "TPU v7x"),
    ("cuda-compute-capability", "Compile the kernel for sm_90 first.", "sm_90"),  # a compile target is the compute capability (round 25)
    ("token-dropping", "Dropping tokens keeps the expert buffers fixed.", "Dropping tokens"),
    ("deepseek-v2", "We fine-tuned DeepSeek-V2-Lite on one node.", "DeepSeek-V2-Lite"),
    ("fp8-blockwise-scaling", "FP8 training with block-level scaling keeps the error small.", "block-level scaling"),
]


@pytest.mark.parametrize("term_id, sentence, found_as", ALIASES)
def test_suggested_alias_finds_its_entry(term_id, sentence, found_as):
    found = detected(sentence)
    assert term_id in found, found
    assert found[term_id].lower() == found_as.lower(), found


def test_the_residual_links_are_not_network_links():
    assert "link" not in detected("تضاف مخرجات الانتباه إلى الوصلات المتبقية في كل طبقة.")


def test_shared_memory_of_a_gpu_core_keeps_its_sense():
    assert "cuda-shared-memory" in detected("تستخدم النواة الذاكرة المشتركة داخل كل SM لتخزين البلاطات.")


@pytest.mark.parametrize("text, not_id", [
    ("Champagne bubbles rose as the band took the stage.", "pipeline-bubble"),
    ("The web page request hit a timeout.", "nccl-timeout"),
    ("Set the OPT flag to enable optimisation.", "opt"),
    ("صب المعدن في قوالب من الرمل.", "silicon-die"),
    ("يحتاج الجهاز إلى ضبط كامل للإعدادات قبل التشغيل.", "full-fine-tuning"),
    ("تعرض المعرض بنية قماشية ملونة من القطن.", "network-fabric"),
    ("أعلن الجيش الاستيلاء على المدينة.", "job-preemption"),
    ("The file system maps logical blocks to physical blocks on disk.", "kv-cache-block"),
    ("Walk the ring steps of the old stadium to the top.", "ring-attention"),
])
def test_ordinary_words_keep_their_ordinary_sense(text, not_id):
    assert not_id not in detected(text), detected(text)
