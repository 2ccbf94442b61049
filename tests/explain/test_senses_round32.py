"""Senses that blind readers of packs 27 to 36 found wrong, settled by the words beside a term, and definitions
whose first sentence had asserted a training-only fact in serving text. Each case quotes the passage it came from;
each has a text where the other sense must still be shown."""

from service.explain.compose import explain_offline
from tests.support.glossary_files import term_definition


_definition = term_definition


def _item(text: str, term_id: str, lang: str = "en") -> dict | None:
    return next((t for t in explain_offline(text, lang)["terms"] if t["id"] == term_id), None)


def test_offloading_work_to_a_nic_switch_or_thread_is_not_parking_data_in_host_memory():
    # https://docs.redhat.com/en/documentation/red_hat_openshift_ai_self-managed/3.4/html/working_with_distributed_workloads/configuring-roce-networking-for-distributed-llm-deployments_distributed-llm-roce
    rdma = ("Low latency: Delivers sub-microsecond latency for GPU-to-GPU transfers. "
            "CPU offload: Transfers data directly between GPUs without CPU involvement.")
    assert _definition(rdma, "offloading").startswith("Here offloading hands work, not data")
    # https://waynehacking8.github.io/blog/nccl-nvlink-bandwidth/
    nvls = "NVLink SHARP (NVLS) offloads the reduction into the switch, which is why it pulls ahead once messages are big enough to amortise setup."
    assert _definition(nvls, "offloading").startswith("Here offloading hands work")
    assert _definition(nvls, "offloading", "ar").startswith("التفريغ هنا نقل عمل لا بيانات")
    # https://github.com/LMCache/LMCache/issues/1241: the KV cache moved to CPU memory is data offloading
    kv = ("My current experiments have found that when running a Qwen2.5-32b-fp8 model on a dual-GPU 4090 24GB machine, "
          "I found that the lmcache CPU offload method has no benefit, but it does with Qwen3-30b.")
    assert _definition(kv, "offloading").startswith("Moving data the accelerator does not need")


def test_accepted_length_is_a_prefix_length_not_the_acceptance_rate():
    # https://github.com/mattn/tensai/pull/44
    text = ("on the first disagreement the verifying row supplies the corrected token while truncate rolls both KV caches "
            "back to the accepted length.")
    item = _item(text, "draft-acceptance-rate")
    assert item["term"] == "accepted length"
    assert item["definition"].startswith("The number of drafted tokens the target model accepts in one verification pass")
    assert "طول البادئة المقبولة" in _definition(text, "draft-acceptance-rate", "ar")
    # https://docs.sglang.io/advanced_features/speculative_decoding.html: the rate itself keeps its own sense
    rate = "Improves candidate diversity, will lead to higher acceptance rate, but more lead to higher memory/compute consumption."
    assert _definition(rate, "draft-acceptance-rate").startswith("In speculative decoding, how often the target model keeps")


def test_scale_up_and_scale_out_as_strategies_on_one_node_are_not_the_nvlink_domain_and_the_network():
    # https://isc.app.swapcard.com/widget/event/isc-high-performance-2026/planning/UGxhbm5pbmdfNDQwOTk3Ng==
    text = ("This study evaluates the trade-off between scale-up (monolithic Tensor Parallelism, TP=8) and scale-out "
            "(replication, two disjoint TP=4 instances) for Llama-3.3-70B-Instruct on a single 8xH100 NVSwitch node.")
    assert _definition(text, "nvlink-domain").startswith("Growing by making one unit bigger or stronger")
    assert _definition(text, "scale-out").startswith("Growing by adding more units side by side")
    # https://al-ain.com/article/ai-data-centers-space-problem-nvidia
    arabic = ('اتبعت صناعة الحوسبة استراتيجيتين رئيسيتين: "التوسع الرأسي" (تقوية المعالجات الفردية) '
              'و"التوسع الأفقي" (إضافة المزيد من المعالجات داخل مركز بيانات واحد).')
    assert _definition(arabic, "nvlink-domain", "ar").startswith("النمو بتكبير الوحدة الواحدة")
    assert _definition(arabic, "scale-out", "ar").startswith("النمو بإضافة وحدات أكثر")
    # https://agenticdaily.ai/articles/aws-maps-open-source-ml-stack-to-its-accelerated-instances
    domain = ("AWS extends NVLink domains through UltraServers, connecting multiple instances via dedicated accelerator "
              "interconnect.")
    assert _definition(domain, "nvlink-domain").startswith("The set of accelerators that can all talk to each other")
    # https://cloudswit.ch/?p=23330
    network = ("Intra-server: 8 GPUs connect to the NVSwitch via the NVLink bus, achieving low-latency intra-server "
               "communication and reducing Scale-Out network transmission pressure.")
    assert _definition(network, "scale-out").startswith("The network that connects servers or racks")


def test_a_smaller_tpu_topology_is_a_smaller_slice():
    # https://github.com/GoogleCloudPlatform/kubernetes-engine-samples/pull/1467
    text = ("Attempting to run inference with smaller topologies than the aforementioned slice sizes leads to errors "
            "like RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error.")
    assert _definition(text, "topology").startswith("For TPUs, a topology is a slice's shape")
    # https://docs.nvidia.com/networking/display/infinibandclusterbringupprocedure/Setting+the+InfiniBand+Cluster+Topology
    fabric = "Fat-Tree is NVIDIA's recommended topology, AI factory should based on rail optimized."
    assert _definition(fabric, "topology").startswith("The shape of the network")


def test_kv_cache_tensors_sent_from_prefill_to_decode_are_the_serving_cache():
    # https://github.com/anthony-chaudhary/fak/issues/11271
    text = ("Transferring prompt KV cache tensors from Prefill nodes to Decode nodes across traditional TCP/IP or "
            "CPU-staged RDMA bridges incurs multi-tier copy overhead.")
    assert _definition(text, "kv-cache").startswith("During text generation, the saved keys and values")
    # https://github.com/Dao-AILab/flash-attention/pull/2308: training's keys and values passed around a ring
    ring = ("Adds ring_flash_attn_func, a sequence-parallel attention primitive that shards Q/K/V along the sequence "
            "dimension across a process group and rotates KV chunks in a peer-to-peer ring.")
    assert _definition(ring, "kv-cache").startswith("Here KV means attention's keys and values")


def test_long_context_is_a_long_input_and_context_length_a_window_or_an_input_length():
    # https://naveenaddanki.online/blog/kv-cache-bottleneck.html
    text = ("the KV cache is a second, dynamic memory consumer that grows with every token generated, scales with both "
            "sequence length and batch size, and can exceed the weight footprint entirely at long context or high concurrency.")
    assert _definition(text, "context-length").startswith("A long input")
    # https://arxiv.org/abs/2405.04434: a model's maximum stays the maximum
    window = "It comprises 236B total parameters, of which 21B are activated for each token, and supports a context length of 128K tokens."
    assert "the most it can consider" in _definition(window, "context-length")
    # https://github.com/sgl-project/sglang/discussions/47143: "long context windows" are windows
    windows = "sizing the KV-cache pool to support long context windows and concurrent request streams"
    assert not _definition(windows, "context-length").startswith("A long input")


def test_effective_batch_in_serving_and_a_verification_mini_batch_are_not_optimizer_steps():
    # https://developer.nvidia.com/blog/?p=107418
    text = ("This increases aggregated bandwidth for faster weight loading and supports larger effective batch sizes "
            "to improve overall GPU utilization.")
    assert "in serving, the tokens or requests" in _definition(text, "global-batch-size")
    # https://github.com/InternLM/InternLM/issues/16
    train = ("If this was used across 1024 GPUs for pretraining it would imply a global batch size of 16M tokens which "
             "is larger than I've seen before (especially for 7B models).")
    assert _definition(train, "global-batch-size").startswith("The total number of sequences (or tokens) that contribute to one optimizer step")
    # https://github.com/zhongkaifu/TensorSharp/issues/108
    verify = ("so maybe your machine's bandwidths is very high, so the cost of draft model is larger than those saving "
              "of mini-batch in target model's verification.")
    assert _definition(verify, "mini-batch").startswith("Here a small batch processed together in one forward pass at inference")
    # https://openmlsys.github.io/html-en/chapter_distributed/Pipeline_Parallelism_with_Micro-Batching.html
    pipeline = "Essentially, this approach divides each mini-batch in the training data into multiple micro-batches."
    assert _definition(pipeline, "mini-batch").startswith("The batch of examples one optimizer step uses")


def test_arabic_in_parallel_is_at_the_same_time_not_a_parallelism_plan():
    # https://github.com/Mahmoodsalah/llm-bootcamp/blob/601543052f0e2ab85e971da21bfeefaaac7454a4/src/lib/content/kvcache.tsx
    text = "النموذج الهدف الكبير يشغّل تمريرة واحدة على المرشحين الخمسة بالتوازي — بتكلفة تزيد بالكاد عن خطوة رمز واحد."
    assert _definition(text, "parallelism", "ar").startswith("«بالتوازي» هنا تعني في الوقت نفسه")
    # https://web3.ouyizh.info/ar/discover/post/53127662878720
    plan = "استراتيجيات التوازي: عند تدريب نماذج الذكاء الاصطناعي الضخمة ، تحتاج إلى تقسيم العمل عبر العديد من الرقائق."
    assert _definition(plan, "parallelism", "ar").startswith("خطة توزيع مهمة واحدة")


def test_splitting_one_video_sample_across_gpus_is_long_sequence_parallelism():
    # https://github.com/PKU-YuanGroup/Open-Sora-Plan/issues/157
    text = ("Due to the high computational complexity of 3D full attention, we must allocate a video across 2 GPUs for "
            "parallel processing when training with long-duration and high-resolution videos. "
            "We support sequence parallelism for both training and inference.")
    assert _definition(text, "sequence-parallelism").startswith("Splitting a long input sequence across chips")
    # https://livebook.manning.com/learn/concepts/sequence-parallelism--technique/llms-in-production
    megatron = ("Sequence parallelism partitions neural-network activations along the sequence dimension, reducing "
                "redundant storage. It complements tensor parallelism by targeting memory-limiting normalization and "
                "dropout blocks that tensor parallelism does not efficiently distribute.")
    assert _definition(megatron, "sequence-parallelism").startswith("Splitting the layer-norm and dropout activations")


def test_no_p2p_channel_between_two_gpus_is_peer_to_peer_access():
    # https://discuss.vllm.ai/t/expert-parallelism-all-to-all-communication-without-nvlink-and-deepep/2421
    text = ("Hi, I would like to deploy Deepseek-V2-Lite on my computer with 2 NVIDIA 3090 GPUs. "
            "There is not P2P communication channel between GPUs.")
    assert _definition(text, "point-to-point").startswith("The ability of one GPU to read or write another GPU's memory")
    # https://github.com/jzhang38/EasyContext/pull/28
    pipeline = ("Deepspeed Ulysses was proposed by Microsoft in DeepSpeed Ulysses, which implements a set of sequence "
                "parallelism using all-to-all communication, a method more efficient than p2p communication.")
    assert _definition(pipeline, "point-to-point").startswith("A transfer between exactly two ranks")


def test_lora_adapters_the_transformers_library_and_ggml_the_old_format():
    # https://nerdleveltech.com/ar/courses/fine-tuning-llms/learn/understanding-fine-tuning/peft-methods-explained
    adapters = "إضافة محولات LoRA فوق الأوزان المكمّمة"
    assert "المهايئات" in _definition(adapters, "transformer", "ar")
    # https://dev.misraj.ai/ar/blogs/llm-memory-usage
    arch = "لقد حاولت معرفة سبب حدوث ذلك لبنية المحولات، لكنني لم أجد أي مقال مفيد حول هذا الموضوع."
    assert "المهايئات" not in _definition(arch, "transformer", "ar")
    # https://github.com/casper-hansen/AutoAWQ/issues/34
    library = ("This may also vary across batch size and context size when using the model.generate functionality "
               "(this applies overhead from the transformers library).")
    assert _definition(library, "transformer").startswith("Here transformers is Hugging Face's open-source Python library")
    # https://analyticsindiamag.com/google-releases-cloud-tpu-v4-pods-benchmarks-for-large-model-training/
    design = ("Notably, with their stacked transformer architecture, these benchmarks are fairly comparable in terms of "
              "their compute characteristics with other large language models.")
    assert _definition(design, "transformer").startswith("The neural-network design")
    # https://github.com/intellecat/SillyTavern-Docs/blob/d964d0c494408ba312a77d06fa0e0a889d149af1/ar/Usage/API_Connections/self-hosted.md
    ggml = "هناك أيضاً تنسيق نموذج وكمومة يسمى GGUF (المعروف سابقاً باسم GGML) والذي أصبح التنسيق المفضل للأشخاص العاديين."
    assert _definition(ggml, "llama-cpp").startswith("GGML names the C tensor library that llama.cpp is built on, and the older file format")
    # https://thakicloud.com/tech-blog/ar/llmops/hunyuan-hy3-1bit-4bit-single-gpu/
    engine = "تعمل النسختان مع llama.cpp، وصُمِّمتا لتفعيل MTP (التنبؤ متعدد الرموز) لرفع إنتاجية توليد الرموز."
    assert _definition(engine, "llama-cpp").startswith("An open C and C++ engine")


def test_open_source_engines_are_software_and_open_source_models_are_weights():
    # https://docs.sglang.io/advanced_features/speculative_decoding.html
    engines = ("Our implementation aims to maximize speed and efficiency and is considered to be among the fastest in "
               "open-source LLM engines.")
    assert _definition(engines, "open-weight-model").startswith("Here open-source describes software")
    # https://github.com/ml-explore/mlx/issues/1046
    models = "The growth in size of open-source models is outpacing the growth of memory capacity of Mac computers."
    assert _definition(models, "open-weight-model").startswith("A model whose trained parameters are published")


def test_rays_memory_monitor_kills_on_host_memory_not_accelerator_memory():
    # https://github.com/amd/playbooks/blob/f03b060d27e99793cf06481fd8bdcf2c7db3e2fd/auto-translations/ar/supplemental/clustering-rccl-4-node/README.md
    text = ("على جهاز Ryzen™ AI Halo الخاص بك، تتشارك وحدة GPU والمضيف في مجمع ذاكرة واحد، لذا قد يؤدي تحميل نموذج "
            "إلى إطلاق خطأ ray.exceptions.OutOfMemoryError وإنهاء عملية العامل.")
    assert _definition(text, "oom").startswith("The host computer ran out of its own RAM")
    # https://github.com/NVIDIA/Megatron-LM/issues/1031
    gpu = ("I get OOM when using PP2 and TP8, to prevent oom with PP8 and TP8, I used --recompute-granularity full, "
           "--recompute-method uniform, --recompute-num-layers 5 and --distribute-saved-activations.")
    assert _definition(gpu, "oom").startswith("The error raised when a job tries to use more accelerator memory")


def test_first_sentences_hold_in_serving_text_as_well_as_in_training_text():
    # https://github.com/xdit-project/xDiT/issues/400: at inference no backward pass keeps the activations
    activations = _definition("The communication overhead might outweigh the memory benefits, since the memory pressure mainly "
                              "comes from activations rather than model parameters during inference.", "activations")
    assert activations.startswith("The intermediate numbers each layer produces in the forward pass.") and "in inference" in activations
    # https://mortalapps.com/infrastructure/llm-inference-optimization/multi-gpu-inference-orchestration/
    fp16 = _definition("A LLaMA-3 70B model operating in FP16 demands roughly 140GB just for weights, completely ignoring the KV cache.", "fp16")
    assert "two bytes per parameter" in fp16
    # https://github.com/defilantech/LLMKube/issues/1423: a node of one GPU without NVLink is still a node
    node = _definition("Each Spark is one GPU, so any TP≥2 is cross-node by definition.", "node")
    assert node.startswith("A node is one server") and "single GPU" in node
    # https://diomgis.com/learn/kv-cache-memory-and-bandwidth
    wall = _definition("That is the memory wall for transformer inference, and it is not a software bug you can patch away.", "memory-wall")
    assert "training and serving" in wall
    # https://github.com/huggingface/text-generation-inference/issues/1315: K8s hosts inference deployments
    k8s = _definition("I'm running the benchmarks on K8s with the v1.2 image on codellama/CodeLlama-34b-Instruct-hf.", "job-scheduler")
    assert "serving deployments" in k8s
    # https://engineersofai.com/docs/hardware-and-silicon/custom-silicon/groq-lpu-architecture: serving speed comes first
    tps = _definition("Groq's LPU hits 500+ tokens/second for LLaMA-3 70B at batch size 1.", "tokens-per-second")
    assert tps.startswith("How many tokens a system works through each second, in training or in serving")
    assert "A training job" in tps and "MFU" in tps  # the training sense is still there, labelled as such


def test_full_precision_of_a_released_model_and_send_receive_stages_of_an_all_to_all():
    # https://github.com/microsoft/edgeai-for-beginners/blob/a60b14f0a080e880ec4bc10c2db7a1c115ec368f/translations/ar/Module02/04.BitNETFamily.md
    full = "حيث يستخدم نموذج 2B فقط 0.4 جيجابايت مقارنة بـ 2-4.8 جيجابايت للنماذج ذات الدقة الكاملة المماثلة."
    assert _definition(full, "fp32").startswith("Here full precision means a model's original, unquantized number format")
    assert "bf16 or fp16" in _definition(full, "fp32")
    # https://arxiv.org/html/2506.20752v1: full-precision training keeps the format's own sense
    training = ("Guided by these findings, we evaluate stabilization strategies in the LLM setting and show that certain "
                "hybrid configurations recover performance competitive with full-precision training.")
    assert _definition(training, "fp32").startswith("The standard single-precision floating-point format")
    # https://hub-prod.perplexity.ai/hub/blog/efficient-and-portable-mixture-of-experts-communication
    stages = ("Communication and computation overlap: Split kernel architecture with separate send and receive stages "
              "enables computation to proceed concurrently with network transfers")
    assert _definition(stages, "send-recv").startswith("Here send and receive are the two halves of an all-to-all exchange")
    # a text written for this test: pipeline stages' one-to-one transfers
    pipeline = "Pipeline parallelism passes activations between stages with send/recv: stage one calls isend, stage two irecv."
    assert _definition(pipeline, "send-recv").startswith("The basic one-to-one transfer")
