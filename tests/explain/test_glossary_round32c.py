"""Round 32c long tail: terms the held-out passages of rounds ten to fourteen needed (data/glossary/long_tail_round32c.json
and aliases added to older entries). Real sentences from those passages must find the entry; ordinary words (a compiler's
O2 flag, a buffer overflow, slime the substance, the L4 vertebra, the A40 road, DSA signatures) stay ordinary."""


import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_entries_whole, detected

pytestmark = pytest.mark.skipif(not (data_dir() / "glossary" / "long_tail_round32c.json").exists(),
                                reason="round 32c glossary data not present")

DSA_AR = ("وبعيدًا عن الضوضاء، فإن المفتاح هو أن هذا النموذج، استنادًا إلى V3.1-Terminusأطلقت الشركة آليةً دقيقةً للانتباه "
          "المتناثر تُسمى DeepSeek Sparse Attention (DSA)، والتي تُسرّع التدريب والاستدلال مع الحفاظ على الجودة.")
SLIME = ("I am running Slime GRPO training on Qwen3-1.7B-Base, and I observe that Slime is consistently ~4× slower than VERL, even "
         "when using the same dataset, same rollout size (128×32), and same number of GPUs (8×H800).")
SKYPILOT = ("Offload optimizer state (Adam moments + fp32 master weights, ~12 of the ~16 bytes/param) to pinned host RAM — the same "
            "flag trio slime's own large-model scripts use:")

# (term id, text quoted from the source, what the detector should find); the source is in the comment.
REAL_SENTENCES = [
    # https://github.com/nassersala/arabic-abstracts/blob/336fe3efbce32223bb63b0a51efbe22591f967a3/full_papers/1906.08237/08-experiments.md
    # (bench/corpus holdout-r20, read after its judging: the answer named BERT, the comparison, as the passage's subject)
    ("xlnet", "أكبر نموذج لدينا XLNet-Large له نفس معاملات المعمارية الفائقة لـ BERT-Large", "XLNet-Large"),
    # https://www.aolanicloud.com/blog/mfu-the-gpu-efficiency-metric-that-matters
    ("nvidia-smi", "The \"GPU utilization\" number reported by nvidia-smi reflects the percentage of time at least one streaming multiprocessor was active.", "nvidia-smi"),
    # https://github.com/Azure/MS-AMP/blob/4784d991a2b9dd88047ab656d5c5c70d18f70692/docs/user-tutorial/optimization-level.md
    ("amp-opt-level", "Currently MS-AMP supports three optimization levels: O1 and O2 and O3.", "O1"),
    # https://github.com/affjljoo3581/GPT2/issues/3
    ("amp-opt-level", "While O1 mode patches the model to actual mixed precision, O2 mode casts all parameters of the model to torch.float16 without restoring activations to torch.float32.", "O1 mode"),
    # https://github.com/THUDM/GLM-130B/blob/00f6ea61a37dfb67f9832941e7c12e17b62c1944/README.md
    ("numeric-overflow-underflow", "We observe that the attention computation operation is the most likely to overflow or underflow in large language models.", "overflow or underflow"),
    ("numeric-overflow-underflow", "Such varied value scales can lead to frequent overflows or underflows under FP16 in the softmax computation.", "overflows or underflows"),
    # https://github.com/hpcaitech/ColossalAI/issues/2650
    ("colossalai-gemini", "I'm training a 6.4B model with GeminiDDP.", "GeminiDDP"),
    # https://github.com/THUDM/slime/issues/1072
    ("slime-rl", SLIME, "Slime"),
    # https://github.com/skypilot-org/skypilot/pull/10269
    ("slime-rl", SKYPILOT, "slime"),
    ("pinned-memory", SKYPILOT, "pinned host RAM"),
    # https://www.aibars.net/ar/library/ai-news/details/765992654331842560
    ("nanochat", "يغطي nanochat جميع جوانب بناء LLM:", "nanochat"),
    # https://github.com/modula-systems/modula/pull/1
    ("nanogpt", "This is pretty closely in line with what I've seen with nanoGPT experiments.", "nanoGPT"),
    # https://github.com/volcengine/veScale/blob/e841fc766497f9f0bb5f80464fab88759a7f7e4e/docs/texts/raggedshard.md
    ("ragged-shard", "A primary motivation for RaggedShard is the efficient communication of sharded parameters in FSDP.", "RaggedShard"),
    # https://github.com/volcengine/veScale/pull/10
    ("vescale", "veScale DModule (Distributed Module) provides a single-device abstraction for multiple-device nn.Module and empowers user to write distributed training/inference code as if on a single device (i.e., SPMD).", "veScale DModule"),
    # https://gopikrishnatummala.com/posts/mlops/datasets-and-dataloaders
    ("data-loader", "If your dataloader takes 600ms to prepare the next batch, your effective GPU utilization is 40%.", "dataloader"),
    # https://github.com/bitsandbytes-foundation/bitsandbytes/issues/801
    ("pytorch-reserved-memory", "This appears to be a 11.3GiB leap in PyTorch reserved memory only (32.6GiB -> 43.9GiB).", "PyTorch reserved memory"),
    # https://github.com/meta-llama/llama-cookbook/pull/41
    ("pytorch-reserved-memory", "This decreases reserved memory by 5.31 GB and active memory by 5.66 GB on 4 GPUs.", "reserved memory"),
    # https://github.com/huggingface/transformers/pull/48444
    ("pinned-memory", "This adds an option to hold those in pinned host memory instead.", "pinned host memory"),
    # https://lilianweng.github.io/posts/2021-09-25-train-large/
    ("adafactor", "For example, instead of storing the full momentums and variations as in Adam, Adafactor (Shazeer et al. 2018) only tracks the per-row and per-column sums of the moving averages and then estimates the second moments based on these sums.", "Adafactor"),
    # https://github.com/Lightning-AI/litgpt/issues/864
    ("nvidia-a40", "I am trying to play with parallel pertaining on a single node with 4x Nvidia A40 GPUs.", "Nvidia A40"),
    # https://github.com/modelscope/ms-swift/issues/6283
    ("nvidia-a40", "1）Why is Megatron much faster before packing (5.3s vs 10.2s) and much slower after packing (10.6s vs 12s) in A40?", "A40"),
    # https://pypi.org/project/kvplan/0.1.1/
    ("nvidia-l4", "unsloth/Meta-Llama-3.1-8B-Instruct on 1 x L4 (max_model_len 131072, max_num_seqs 256, gpu_memory_utilization 0.92)", "L4"),
    # https://ar.linuxadictos.com/ (DeepSeek-V3.2-Exp article; the full address is in bench/corpus/passages.json)
    ("deepseek-sparse-attention", DSA_AR, "DeepSeek Sparse Attention"),
    # https://github.com/OpenPipe/ART/pull/564
    ("gsm8k", "Benchmark (Qwen3-30B-A3B, GSM8K, 4×A100)", "GSM8K"),
    # https://www.book-ai.org/books/forging-giants/chapter-11/section-08
    ("young-daly-checkpoint-interval", "Choose the interval with Young's formula, save in shards so I/O parallelises with the cluster, fsync and atomically rename so partial writes never poison the next restart, and watch failure signals so you re-launch in seconds rather than minutes.", "Young's formula"),
    # aliases added to older entries
    # https://github.com/deepseek-ai/DualPipe/issues/8
    ("virtual-pipeline-parallelism", "It seems that the bubble rate of the current dualpipe implementation will be higher than that of interleave, because of no support for vpp?", "vpp"),
    # https://github.com/microsoft/Tutel/issues/187
    ("infiniband", "cross-node All2All is supposed to have a significant bandwidth utilization drop against single-node training as the communication is fully over NVlink, unless you have high-end infini-band.", "infini-band"),
    # https://factryze.ai/scale-atlas/storage/checkpoint-sharding
    ("shared-file-system", "All 64 ranks write concurrently to a parallel filesystem, and the wall-clock time is the maximum per-rank write time, not the sum.", "parallel filesystem"),
    # https://github.com/pytorch/ao/blob/0cf1281a38bdd8c84b11549ffc49a63eb3a92d40/torchao/float8/README.md
    ("float8-linear", "In a float8 linear, account for max_abs and casting overhead.", "float8 linear"),
    # https://github.com/deepspeedai/DeepSpeedExamples/issues/192
    ("teraflops", "Effective Tera Flops per GPU is 1.5TFLPOS", "Tera Flops"),
    ("nvme", "80G of swap files stored in nvme file system", "nvme"),
    # https://github.com/foundation-model-stack/fms-acceleration/issues/12
    ("tokens-per-second", "Acceleration Type Model Name Num GPUS Batch Size Throughput (toks/sec) / Device Avg Mem Usage (GiB)", "toks/sec"),
    # https://github.com/hpcaitech/ColossalAI/issues/2246
    ("colossalai-gemini", "I got OOM when BS is lager than 8 in using GeminiDDP.", "GeminiDDP"),
    # https://github.com/THUDM/slime/issues/1072
    ("weights-and-biases", "WandB shows perf/wait_time_ratio ≈ 0.5, meaning half of the time is spent waiting rather than computing.", "WandB"),
    # https://github.com/huggingface/blog/pull/2133
    ("bf16", "- Model loaded in torch.bfloat16", "torch.bfloat16"),
    # https://github.com/affjljoo3581/GPT2/issues/3
    ("nvidia-apex", "When using automatic mixed precision in training, you can choose the amp level for amp.initialize.", "amp.initialize"),
    ("amp-opt-level", "When using automatic mixed precision in training, you can choose the amp level for amp.initialize.", "amp level"),
    ("mixed-precision", "Recently, pytorch introduces native amp in PyTorch 1.6.", "native amp"),
    # https://github.com/hpcaitech/ColossalAI/issues/2650
    ("zero-3", "From our lop, GeminiDDP takes a higher memory usage compared with Deepspeed ZeRO3.", "Deepspeed ZeRO3"),
    ("nsight-systems", "I have also profiled training process with nsight system.", "nsight system"),
    # https://github.com/deepspeedai/DeepSpeedExamples/issues/192
    ("nvidia-a100", "Machine configuration: two nodes, each node a piece of A100-PCIE-40GB, RAM 126G (actual operation available 60G), SSD 1TB (Samsung 980)", "A100-PCIE-40GB"),
    # https://github.com/deepseek-ai/DeepGEMM/issues/35
    ("nvidia-h800", "I tested gemm on H800 SXM,k=7168,n=2112.", "H800 SXM"),
    # https://github.com/karpathy/nanochat/pull/147
    ("nvidia-a100", "Below is sample print from A100 SXM4 where mfu shows ~73.", "A100 SXM4"),
    # https://github.com/Azure/MS-AMP/issues/176
    ("nvidia-h800", "May I ask how to reproduce the results in the paper？ I used two H800GPUs.", "H800GPUs"),
]

NEW_IDS = sorted({"nvidia-smi", "amp-opt-level", "numeric-overflow-underflow", "slime-rl", "nanochat", "nanogpt", "ragged-shard",
                  "vescale", "data-loader", "pytorch-reserved-memory", "pinned-memory", "adafactor", "nvidia-a40", "nvidia-l4",
                  "deepseek-sparse-attention", "gsm8k", "weights-and-biases", "young-daly-checkpoint-interval", "xlnet"})


ids = detected


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round32c_term_found_in_a_real_sentence(term_id, sentence, found_as):
    found = ids(sentence)
    assert term_id in found, found
    assert found[term_id].lower() == found_as.lower(), found


def test_new_entries_are_complete_and_sourced():
    covered = {term_id for term_id, _, _ in REAL_SENTENCES}
    assert_entries_whole("long_tail_round32c.json", NEW_IDS, covered)


@pytest.mark.parametrize("term_id", NEW_IDS)
def test_round32c_term_found_in_arabic_text(term_id):
    entry = glossary.load().by_id[term_id]
    rendering = entry["ar_aliases"][0]
    text = f"في هذا الإعداد يعتمد الفريق على {rendering} لتسريع تدريب النموذج."
    assert term_id in ids(text), (rendering, ids(text))


@pytest.mark.parametrize("text, not_id", [
    ("Compile the C code with gcc -O2 for a faster binary.", "amp-opt-level"),
    ("The blood test measured O2 saturation at ninety-eight percent.", "amp-opt-level"),
    ("A buffer overflow in the parser let attackers run code.", "numeric-overflow-underflow"),
    ("The kids made green slime from glue and borax.", "slime-rl"),
    ("The MRI showed a disc bulge at L4 and L5.", "nvidia-l4"),
    ("An L4 load balancer forwards TCP connections without reading them.", "nvidia-l4"),
    ("We drove the A40 from London towards Oxford.", "nvidia-a40"),
    ("The DSA signature scheme was standardised by NIST.", "deepseek-sparse-attention"),
    ("The hotel kept reserved memory foam pillows for guests.", "pytorch-reserved-memory"),
    ("The vLLM server logs the expected memory reserved for the kv cache on startup.", "pytorch-reserved-memory"),
    ("The server's KV cache overflow forced the scheduler to preempt requests in FP16 serving.", "numeric-overflow-underflow"),
    ("Young's modulus measures how stiff a material is.", "young-daly-checkpoint-interval"),
    ("The amp level on the guitar was turned up for the solo.", "amp-opt-level"),
    ("Install the vpp router package and restart the daemon.", "virtual-pipeline-parallelism"),  # lower case, no pipeline words
])
def test_ordinary_word_keeps_its_ordinary_sense(text, not_id):
    assert not_id not in ids(text), ids(text)


def test_a_count_of_nodes_is_not_an_a100():
    # a round-20 reader: "a 100-node cluster" was listed as the A100 (the alias "A-100" read "a 100-" as the chip)
    from service.explain.pipeline import analyse
    doc = analyse("Hardware failures in a 100-node cluster become routine events.", "en")
    assert "a100-sxm-80gb" not in {t["id"] for t in doc.terms} and not any(t["term"] == "A100" for t in doc.terms)
