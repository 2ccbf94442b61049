"""Round 64, central terms the readers of audit batches 1 to 4 missed (data/glossary/long_tail_round64.json), each met
in a real sentence, with both languages and its source, and kept out of the other senses of its everyday words."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as

FILE = data_dir() / "glossary" / "long_tail_round64.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 64 glossary data not present")

REAL_SENTENCES = [
    # passage rocm-2499-mi100-xgmi-low (ROCm issue on an 8x MI100 server); https://www.kernel.org/doc/html/latest/gpu/amdgpu/xgmi.html
    ("xgmi-hive", "There are two hives, and all GPUs inside a single hive are connected by Infinity Fabric.", "hives"),
    # passage lmdeploy-turbomind-llama-implementation; https://facebookresearch.github.io/xformers/components/ops.html
    ("fmha", "We replaced the context decoder's attention with a cutlass-based FMHA implementation that supports mismatched Q/K lengths.",
     "FMHA"),
    # passage colossalai-124-mp-perf-vs-patrickstar, said in other words;
    # https://github.com/hpcaitech/ColossalAI/blob/main/docs/source/en/features/2p5D_tensor_parallel.md
    ("multidimensional-tensor-parallelism", "Colossal-AI's 2.5D tensor parallelism beat its 1D layout at four-way model parallelism.",
     "2.5D tensor parallelism"),
    # passage mlcllm-3446-multi-lora-slora-punica-sgmv (written SGEMV there); https://arxiv.org/abs/2310.18547
    ("sgmv-kernel", "Punica introduces the SGEMV kernel, which applies each request's LoRA adapter in a single launch.", "SGEMV kernel"),
    # passage ttmetal-56304-moe-dispatch-combine-placement; https://github.com/tenstorrent/ttsim/releases/tag/v1.8.2
    ("tenstorrent-galaxy", "The replay uses all 128 experts on eight Galaxy devices, with 16 experts per chip and top-4 routing.", "Galaxy"),
    # passage thunder-940-fsdp2-llama2-h100, said in other words; https://lightning.ai/docs/thunder/latest
    ("lightning-thunder", "thunder with the inductor, cudnn and transformerengine executors reached 14264 tokens/s per GPU.", "thunder"),
    # passage maghz-pjrt-rendezvous-xla-collective (Arabic rendering of the PJRT doc); https://pytorch.org/xla/release/r2.5/runtime.html
    ("xm-rendezvous", "لذلك، قمنا بإعادة تنفيذ xm.rendezvous باستخدام اتصال جماعي أصلي لـ XLA.", "xm.rendezvous"),
    # passage exllamav3-295-tp-prefill-pcie; https://github.com/theroyallab/tabbyAPI/blob/main/config_sample.yml
    ("exllama-autosplit", "Autosplit (gpu_split_auto: true, tensor_parallel: false) finished prefill in 3.5 minutes.", "Autosplit"),
    # passage hf-transformers-ar-gptj-memory-tips (Transformers docs in Arabic); https://github.com/kingoflolz/mesh-transformer-jax
    ("gpt-j", "لتحميل GPT-J بتنسيق float32، ستحتاج إلى ضعف حجم الذاكرة العشوائية للنموذج.", "GPT-J"),
    # passage llmd-1020-tiered-cache-findings, said in other words;
    # https://docs.vllm.ai/api/vllm/distributed/kv_transfer/kv_connector/v1/base.html
    ("vllm-kv-connector", "When the KVCache exceeds HBM, both vLLM's native offloading connector and the LMCache connector help.",
     "offloading connector"),
    # passage mwolf-diloco-h-tradeoff, said in other words; https://arxiv.org/abs/2311.08105
    ("diloco-inner-steps", "In DiLoCo, a small H such as 100 keeps the models aligned but costs more communication.", "H"),
    # passage ouchyi-bare-metal-gpu-inference (a literal Arabic rendering of 'bare-metal');
    # https://docs.aws.amazon.com/cdk/api/v2/docs/aws-cdk-lib.aws_ec2.BareMetal.html
    ("bare-metal", "أصبحت البنية التحتية لوحدة معالجة الرسومات الخالية من المعدن أمرا بالغ الأهمية.", "الخالية من المعدن"),
    # passage bookai-fp8-not-smaller-dtype; https://developer.apple.com/documentation/swift/double/binade
    ("binade", "FP8 has fundamentally less dynamic range and fundamentally less precision per binade than BF16.", "binade"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round64_term_found_in_a_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 13)


@pytest.mark.parametrize("term_id, sentence, found_as", [
    # passage colossalai-124-mp-perf-vs-patrickstar: the table's columns name Colossal-AI's layouts and model-parallel sizes
    ("multidimensional-tensor-parallelism", "Model Scale | global BS | 1d-4mp | 2d-8mp | 2.5d-4mp", "1d-4mp"),
    # https://docs.vllm.ai/api/vllm/distributed/kv_transfer/kv_connector/v1/base.html (the class name)
    ("vllm-kv-connector", "Our LMCacheConnectorV1 subclass of KVConnectorBase_V1 saves KV blocks to local disk.", "LMCacheConnectorV1"),
    # https://arxiv.org/abs/2311.08105: each worker runs H inner steps between outer steps
    ("diloco-inner-steps", "DiLoCo runs 500 inner steps with AdamW before each outer step with Nesterov momentum.", "inner steps"),
    # https://www.kernel.org/doc/html/latest/gpu/amdgpu/xgmi.html
    ("xgmi-hive", "rocm-smi shows both MI100s in the same xGMI hive.", "xGMI hive"),
])
def test_other_spellings_of_round64_terms(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


@pytest.mark.parametrize("term_id", ["xgmi-hive", "multidimensional-tensor-parallelism", "diloco-inner-steps", "bare-metal"])
def test_arabic_spelling_found(term_id):
    assert_arabic_alias_found(term_id)


@pytest.mark.parametrize("sentence", [
    "Apache Hive queries ran on the Hadoop cluster, and the bee hive was busy.",
    "We call the cuBLAS SGEMV kernel for the matrix-vector product.",
    "The new Samsung Galaxy phone ships with a brighter screen, and most experts like it.",
    "Thunder and lightning kept the campers awake all night.",
    "Thunder Compute rents GPUs by the hour.",
    "The video editor's autosplit feature cuts long clips into scenes.",
    "Plug the USB connector into the GPU server and check the power connector.",
    "The hidden size H is 4096 and the model has 32 heads.",
    "MAML takes five inner steps per task before the outer update.",
    "السبيكة الخالية من المعدن الثقيل آمنة للاستخدام.",
])
def test_context_aliases_stay_out_of_other_senses(sentence):
    found = {m.entry["id"] for m in glossary.load().find(sentence, extended=True)}
    assert not found & set(NEW_IDS), found
