"""Round 32b long tail: terms the held-out passages of rounds fifteen to seventeen needed (data/glossary/long_tail_round32b.json
and aliases added to older entries). Real sentences from those passages must find the entry; ordinary words (a film critic,
the pastry mooncake, the letter phi, a street number) stay ordinary."""


import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_entries_whole, detected

pytestmark = pytest.mark.skipif(not (data_dir() / "glossary" / "long_tail_round32b.json").exists(),
                                reason="round 32b glossary data not present")

MOMENTO = "https://www.gomomento.com/jp/blog/moving-the-kv-cache-without-stalling-the-decode/"
MOMENTO_FIRST = ("The first move is layer-wise streaming. Mooncake calls it “Layer-wise Prefill”: as soon as prefill finishes "
                 "computing the KV cache for layer 0, that layer’s blocks start streaming to the decode node while the prefill GPU "
                 "is still computing layer N.")
MOMENTO_STORE = ("Mooncake Store keys blocks by content hash, evicts LRU, and replicates hot blocks across nodes so a popular "
                 "system prompt doesn’t bottleneck on one location. DeepSeek’s Fire-Flyer File System (3FS) takes it further, "
                 "using NVMe SSDs over RDMA to break the dependency on node-local DRAM.")
TF_AR = ("في TensorFlow 2.x ، يمكنك تنفيذ برامجك بلهفة ، أو في رسم بياني باستخدام tf.function . tf.distribute.Strategy يعتزم دعم "
         "وضعي التنفيذ هذين ، ولكنه يعمل بشكل أفضل مع tf.function . يوصى باستخدام الوضع الحثيث فقط لأغراض التصحيح وهو غير مدعوم "
         "لـ tf.distribute.TPUStrategy .")
OPENRLHF = ("I am experimenting PPO with the ray, but I am confused how to have a best setting for the gpu num and node num for "
            "ref, reward model, critic, actor, and vllm_num_engines to /achieve the best speedup.")
IKLLAMA = ("With tensor parallelism enabled, we should easily achieve at least 60 t/s. I suspect the tensor parallelism "
           "implementation of MLC on Qwen3-30B-A3B is flawed—performance with four GPUs is nearly identical to that with just "
           "two, while the ideal scaling would be 30 × 4 = 120 t/s.")

# (term id, text quoted from the source, what the detector should find); the source is in the comment.
REAL_SENTENCES = [
    # MOMENTO
    ("mooncake", MOMENTO_FIRST, "Mooncake"),
    ("layer-wise-kv-transfer", MOMENTO_FIRST, "layer-wise streaming"),
    ("mooncake", MOMENTO_STORE, "Mooncake Store"),
    ("lru-eviction", MOMENTO_STORE, "LRU"),
    ("fire-flyer-3fs", MOMENTO_STORE, "Fire-Flyer File System (3FS)"),
    ("nvme", MOMENTO_STORE, "NVMe SSDs"),
    # https://github.com/ai-dynamo/dynamo/issues/948
    ("layer-wise-kv-transfer", "To efficiently transfer KV cache P->D to cover more load scenarios, implement layer-wise KV transfer in three modes:", "layer-wise KV transfer"),
    # https://ssawant.github.io/posts/Jamba/Jamba.html
    ("jamba", "Introducing Jamba, a novel architecture which combines Attention and Mamba layers, with MoE modules.", "Jamba"),
    ("jamba", "The basic component is a Jamba block, which may be repeated in sequence.", "Jamba block"),
    # https://github.com/vllm-project/vllm-ascend/issues/1621
    ("mindie", "MindIE: Approximately 14 Tokens/s", "MindIE"),
    # https://github.com/NVIDIA/FasterTransformer/issues/506
    ("fastertransformer", "The result shows it takes around 3x times boost  for small batch size and 8x times boost  for largebatch size by using Fastertransformer compare to hugging face in fp16 across different batch_size and max_generate_length.", "Fastertransformer"),
    ("nvidia-a100", "Based on this, I test Vicuna-7b on 1 single A100-80G gpu.", "A100-80G"),
    # https://github.com/HomebrewML/HomebrewNLP-torch/pull/5
    ("fastmoe", "FastMoE uses one enormous parameter and enforces communication, even when explicitly compiled and called without it.", "FastMoE"),
    # https://github.com/tinygrad/tinygrad/pull/4242
    ("tinygrad", "For this tinygrad version, currently one 4090 can train in fp32 (batch size per gpu 32) in around 14 ms/sample, 2x4090 did only around 10 ms/sample and the gpu usage didn't get to 100%.", "tinygrad"),
    ("consumer-gpu", "For this tinygrad version, currently one 4090 can train in fp32 (batch size per gpu 32) in around 14 ms/sample, 2x4090 did only around 10 ms/sample and the gpu usage didn't get to 100%.", "4090"),
    # https://github.com/ikawrakow/ik_llama.cpp/issues/627
    ("mlc-llm", IKLLAMA, "MLC"),
    # https://github.com/mit-han-lab/llm-awq/issues/78
    ("mlc-llm", "All the results are measured for single-batch inference. model llm-awq mlc-llm turbomind Llama-2-7B-chat 112.9 159.4 206.4", "mlc-llm"),
    # https://lucaberton.com/blog/nvidia-nim-multinode-inference-large-models-2026/
    ("nvidia-nim", "NVIDIA NIM makes this surprisingly straightforward — but the infrastructure requirements are serious.", "NVIDIA NIM"),
    # https://tensorflow.org/guide/distributed_training?hl=ar
    ("tf-distribute-strategy", TF_AR, "tf.distribute.Strategy"),
    ("eager-execution", TF_AR, "الوضع الحثيث"),
    ("checkpoint", "يتضمن ذلك المتغيرات والطبقات والنماذج والمحسِّنون والمقاييس والملخصات ونقاط التحقق.", "ونقاط التحقق"),
    # https://github.com/opea-project/GenAIExamples/pull/1210
    ("eager-execution", "Remove the --enforce-eager flag for vllm-gaudi service, to enable HPU graphs optimization as default.", "enforce-eager"),
    # https://github.com/ROCm/TheRock/issues/7696
    ("aotriton", "As a workaround, rebuild PyTorch and pin AOTriton to version 0.11.2b.", "AOTriton"),
    # https://github.com/amd/playbooks/blob/main/auto-translations/ar/core/deepseek-v4-flash-ds4/README.md
    ("amd-strix-halo", "نظام Strix Halo يحتوي على 128 غيغابايت على الأقل من الذاكرة الموحدة (unified memory).", "Strix Halo"),
    # https://github.com/amd/playbooks/blob/f03b060d27e99793cf06481fd8bdcf2c7db3e2fd/auto-translations/ar/supplemental/clustering-rccl-4-node/README.md
    ("amd-strix-halo", "على جهاز Ryzen™ AI Halo الخاص بك، تتشارك وحدة GPU والمضيف في مجمع ذاكرة واحد", "Ryzen™ AI Halo"),
    # https://github.com/youssofal/MTPLX/issues/64
    ("apple-silicon", "The 36 GB Mac Studio is structurally tied to the binned M4 Max — 14-core CPU (10P+4E) / 32-core GPU / 410 GB/s unified-memory bandwidth.", "M4 Max"),
    # https://mittrarabia.com/?p=17095
    ("fpga", "- مصفوفة البوابات المنطقية القابلة للبرمجة (FPGA)؛ مثل مُسرع فيجن (Vision) من شركة إنتل.", "مصفوفة البوابات المنطقية القابلة للبرمجة"),
    # https://docs.sglang.io/advanced_features/speculative_decoding.html
    ("mt-bench", "Please see below for the huge improvements on throughput for LLaMA-Instruct 3.1 8B tested on MT bench that can be achieved via EAGLE3 decoding.", "MT bench"),
    # https://github.com/OpenRLHF/OpenRLHF/issues/562
    ("critic-model", OPENRLHF, "critic"),
    # https://github.com/haohervchb/sglang-V100/pull/2
    ("custom-all-reduce", "On that topology can_use_custom_all_reduce_with_nvlink() rejects the custom all-reduce for more than two GPUs (\"not supported on more than two PCIe-only GPUs\"), so every TP all-reduce goes through NCCL.", "custom_all_reduce"),  # first met inside the function name
    ("nvidia-v100", "Our four V100 SXM2 32 GB sit behind one PCIe (PLX) switch: P2P works at PCIe line rate but there is no NVLink.", "V100 SXM2"),
    # https://developer.nvidia.com/blog/?p=107418
    ("wide-expert-parallelism", "For the purposes of this blog, large-scale EP refers to the process of distributing experts across eight or more GPUs.", "large-scale EP"),
    # https://docs.ray.io/en/latest/serve/llm/user-guides/data-parallel-attention.html
    ("dp-attention", "Data parallel attention creates multiple coordinated inference engine replicas that process requests in parallel.", "Data parallel attention"),
    # https://gist.github.com/frobnitzem/0bd3be6084115d7d58d30e6753abb251
    ("perlmutter", "Perlmutter has 1 EPYC7763, 4 A100 GPUs, and 4 Slingshot 11 connections per node.", "Perlmutter"),
    ("amd-epyc", "Perlmutter has 1 EPYC7763, 4 A100 GPUs, and 4 Slingshot 11 connections per node.", "EPYC7763"),
    # https://github.com/microsoft/generative-ai-for-beginners/blob/2cb651ad9860a742cc9667252996ef17dab91f92/translations/ar/19-slm/README.md
    ("microsoft-phi", "يتألف Phi-3.5-MoE من 16 وحدة خبراء بحجم 3.8 مليار معامل لكل منها.", "Phi-3.5-MoE"),
    # https://blogs.oracle.com/cloud-infrastructure/post/superclusters-rdma-high-performance
    ("bisection-bandwidth", "The network fabric is designed to be nonblocking and offers full bisection bandwidth to all hosts.", "full bisection bandwidth"),
    ("fat-tree", "The network fabric uses a classic 3-tier Clos topology and easily scales to tens of thousands of GPUs.", "3-tier Clos topology"),
    # https://github.com/NVIDIA/TensorRT-LLM/issues/15162
    ("multi-head-latent-attention", "The per-rank decode read volume V(P) ~= weights/P + KV(1): every term scales with TP size P except the latent KV read, which is constant.", "latent KV"),
    # https://regantih.github.io/reports-lab/tokens-to-embodied-minds/chapters/13-h100-b200.html
    ("ridge-point", "The H100 SXM5 peaks at 989 TFLOPS BF16 dense and 3.35 TB/s HBM3 bandwidth — two numbers separated by a roofline ridge point at roughly 295 FLOPs per byte.", "roofline ridge point"),  # its own entry since round 44
    # https://github.com/Epliz/muiLLM/pull/5
    ("tokens-per-second", "We are still CPU limited, especially at 8x GPUs, and could reach ~500 toks/s/user if managing to have the CPU side fast enough for the GPU to be used.", "toks/s/user"),
    # https://github.com/InternLM/xtuner/issues/88
    ("zero-offload", "ZeRO2-offload is already the most extreme configuration possible.", "ZeRO2-offload"),
    # https://github.com/YoungZ365/SOD/issues/19
    ("gpu-generations", "A800 (Ampere SM80) does not support hardware FP8.", "Ampere SM80"),
    # https://theneuralbase.com/ai-infrastructure/learn/intermediate/azure-ndv5-nd-h100/
    ("infiniband", "Each NDv5 node contains 8× NVIDIA H100 GPUs (141 TFLOPS FP8) connected via 200 Gbps NVIDIA Quantum InfiniBand, making all-reduce operations 8–12× faster than standard Ethernet.", "NVIDIA Quantum InfiniBand"),
    # https://www.ultralytics.com/ar/glossary/mixed-precision
    ("mixed-precision", "يمكن للتدريب المختلط الدقة أن يسرع الأداء بشكل كبير على وحدات معالجة الرسومات الحديثة دون خسارة كبيرة في دقة النموذج.", "للتدريب المختلط الدقة"),
    # https://al-ain.com/article/ai-data-centers-space-problem-nvidia
    ("latency", "إلا أن الشبكات التقليدية مثل الإيثرنت تواجه صعوبات في دعم هذا النموذج، بسبب مشاكل مثل زمن التأخير العالي، تقلبات الأداء، وانخفاض استقرار نقل البيانات.", "زمن التأخير"),
    # https://github.com/anthony-chaudhary/fak/issues/11271
    ("disaggregated-serving", "Problem: In disaggregated LLM serving architectures, Prefill nodes (optimized for compute-dense prompt processing across large batches) and Decode nodes (optimized for memory-bandwidth-bound single-token generation) reside on physically separate cluster machines.", "disaggregated LLM serving"),
    # https://nvidia.github.io/TensorRT-LLM/blogs/tech_blog/blog8_Scaling_Expert_Parallelism_in_TensorRT-LLM_part2.html
    ("grouped-gemm", "MoE GEMM duration decreases as EP size increases, which is expected behavior.", "MoE GEMM"),
    # https://github.com/FMInference/FlexLLMGen/issues/24
    ("vcpu", "The CPU is an Intel(R) Xeon(R) CPU @ 2.00GHz with 32 vCPUs and 208GB of DRAM.", "vCPUs"),
    # https://github.com/huggingface/text-generation-inference/issues/156 (each card's name cues the other's)
    ("nvidia-a10", "We preffer using A10s or T4s.", "A10s"),
    ("nvidia-t4", "We preffer using A10s or T4s.", "T4s"),
    # https://github.com/ikawrakow/ik_llama.cpp/issues/627
    ("nvidia-p100", "Now that Tesla P100 cards are priced at just $70 each, each offering 16GB of VRAM and 732 GB/s memory bandwidth, deploying four of them builds a system with 64GB of total VRAM and a staggering 2.8 TB/s memory bandwidth.", "Tesla P100"),
    # https://fastpriors.com/blog/fp8-inference-h100
    ("ifeval", "Goal: reduce per-token cost without measurable quality regression on the customer's eval suite (a mix of internal golden-set tests, IFEval, and a custom rubric for tone matching).", "IFEval"),
    # https://github.com/ray-project/ray/issues/15153
    ("ethernet", "Or will gigabit ethernet bottleneck training for this setup and instead require 10GbE, and higher?", "gigabit ethernet"),
    # https://github.com/mlcommons/storage/issues/689
    ("cpu-bound", "The producer is CPU-bound and under-threaded, so the reported checkpoint throughput is limited by how fast the client can generate the checkpoint tensors, not by how fast the storage target can absorb them.", "CPU-bound"),
    # https://github.com/Epliz/muiLLM/pull/5
    ("cpu-bound", "We are still CPU limited, especially at 8x GPUs, and could reach ~500 toks/s/user if managing to have the CPU side fast enough for the GPU to be used.", "CPU limited"),
    # https://developer.nvidia.com/blog/?p=112818
    ("fp8-current-scaling", "FP8-CS applies FP8 to linear layers using scaling factors derived from the statistical properties of each tensor at the current training step.", "FP8-CS"),
    # https://mittrarabia.com/?p=17095
    ("nvidia-t4", "- وحدات معالجة الرسوميات ذات الأداء العالي بأنواعها المختلفة؛ مثل إنفيديا تي 4 (NVIDIA T4).", "إنفيديا تي 4"),
]

NEW_IDS = sorted({"mooncake", "fire-flyer-3fs", "lru-eviction", "nvme", "jamba", "mindie", "fastertransformer", "fastmoe", "tinygrad",
                  "mlc-llm", "nvidia-nim", "tf-distribute-strategy", "aotriton", "amd-strix-halo", "apple-silicon", "fpga", "mt-bench",
                  "critic-model", "custom-all-reduce", "wide-expert-parallelism", "layer-wise-kv-transfer", "amd-epyc", "perlmutter",
                  "microsoft-phi", "dp-attention", "eager-execution", "vcpu", "nvidia-t4", "nvidia-a10", "nvidia-p100", "ifeval", "cpu-bound"})


ids = detected


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round32b_term_found_in_a_real_sentence(term_id, sentence, found_as):
    found = ids(sentence)
    assert term_id in found, found
    assert found[term_id].lower() == found_as.lower(), found


def test_new_entries_are_complete_and_sourced():
    covered = {term_id for term_id, _, _ in REAL_SENTENCES}
    assert_entries_whole("long_tail_round32b.json", NEW_IDS, covered)


@pytest.mark.parametrize("term_id", NEW_IDS)
def test_round32b_term_found_in_arabic_text(term_id):
    entry = glossary.load().by_id[term_id]
    rendering = entry["ar_aliases"][0]
    text = f"في هذا الإعداد يعتمد الفريق على {rendering} لتسريع تدريب النموذج."
    assert term_id in ids(text), (rendering, ids(text))


@pytest.mark.parametrize("text, not_id", [
    ("The film critic praised the movie's score and its lighting.", "critic-model"),
    ("We shared a mooncake at the Mid-Autumn Festival dinner.", "mooncake"),
    ("Mooncake is a round pastry eaten at the Mid-Autumn Festival.", "mooncake"),
    ("The angle Phi is measured in radians from the x axis.", "microsoft-phi"),
    ("MLC NAND flash stores two bits in each cell.", "mlc-llm"),
    ("Nim is a game of strategy played with heaps of matches.", "nvidia-nim"),
    ("The doctor ordered a T4 blood test for the patient.", "nvidia-t4"),
    ("I took the A10 road north past the services.", "nvidia-a10"),
    ("The office moved to 4090 Main Street in the spring.", "consumer-gpu"),
    ("The conveyor moves 5 t/s of ore to the crusher.", "tokens-per-second"),
    ("The company's distribution strategy for retail stores changed last year.", "tf-distribute-strategy"),
    ("Layer-wise streaming of weights from SSD lets big models run on small machines.", "layer-wise-kv-transfer"),
])
def test_ordinary_word_keeps_its_ordinary_sense(text, not_id):
    assert not_id not in ids(text), ids(text)
