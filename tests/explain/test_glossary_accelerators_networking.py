"""Issue 18 (terms): the accelerators, network tools and fine-tuning vocabulary of data/glossary/accelerators_networking_finetuning.json
found as people write them, with a source and both languages; names that are also everyday words or another product
(Gemini, Comet, rail, booster, Primus, Lingua, Gaudi) take their field's sense only beside its words. Sentences written for the rules."""

import json

import pytest

from calculators.resources import data_dir
from service.explain.pipeline import analyse

FAMILY = data_dir() / "glossary" / "accelerators_networking_finetuning.json"
pytestmark = pytest.mark.skipif(not FAMILY.exists(), reason="data/glossary/accelerators_networking_finetuning.json not present")


def terms(text: str, lang: str = "en") -> dict[str, dict]:
    return {t["id"]: t for t in analyse(text, lang).terms}


@pytest.mark.parametrize("sentence, term_id", [
    ("We moved the job from H100s to 64 MI300X GPUs and it needed no model sharding.", "amd-mi300x"),
    ("The MI355X has more HBM than the B200.", "amd-mi355x"),
    ("Our kernels were ported to ROCm with hipify.", "rocm"),
    ("The run used 512 Trainium2 chips on Trn2 instances.", "aws-trainium"),
    ("A Trn2 UltraServer links 64 chips with NeuronLink.", "aws-ultraserver"),
    ("Each chip has eight NeuronCores.", "aws-neuroncore"),
    ("Intel Gaudi 3 has 128 GB of memory.", "intel-gaudi"),
    ("On Habana hardware the Gaudi accelerators appear as HPU devices.", "intel-gaudi"),
    ("Cerebras WSE-3 keeps the weights in on-chip memory.", "cerebras-wse"),
    ("Each GPU has its own ConnectX-7 NIC.", "connectx"),
    ("The GPU and its NIC share a PCIe switch.", "pcie-switch"),
    ("nvidia-smi topo -m shows PIX between GPU0 and mlx5_0.", "topo-link-types"),
    ("ib_write_bw reached 390 Gb/s, close to line rate.", "perftest"),
    ("ib_write_bw reached 390 Gb/s, close to line rate.", "line-rate"),
    ("The Ultra Ethernet Consortium released its first specification.", "ultra-ethernet"),
    ("We quantized the model with GPTQ and served it with vLLM.", "gptq"),
    ("We quantized the model with GPTQ and served it with vLLM.", "vllm"),
    ("AWQ keeps the salient weights in higher precision.", "awq"),
    ("QLoRA loads the base model in NF4 through bitsandbytes.", "nf4"),
    ("QLoRA loads the base model in NF4 through bitsandbytes.", "bitsandbytes"),
    ("Set optim=paged_adamw_8bit to survive memory spikes.", "paged-optimizer"),
    ("The submission to MLPerf Training v4.0 trained GPT-3 in 3.4 minutes.", "mlperf"),
    ("Switch from LowLevelZeroPlugin to HybridParallelPlugin for tensor parallelism.", "colossalai-low-level-zero"),
    ("Switch from LowLevelZeroPlugin to HybridParallelPlugin for tensor parallelism.", "colossalai-hybrid-parallel"),
    ("We fine-tuned Qwen with LLaMA-Factory.", "llama-factory"),
    ("The ECC errors on GPU 3 forced a restart.", "ecc-error"),
])
def test_family_terms_are_found(sentence, term_id):
    assert term_id in terms(sentence)


def test_gemini_is_the_model_family_unless_the_text_is_about_colossalai():
    model = terms("Google trained Gemini on TPUs as a multimodal model.")
    assert "DeepMind" in model["gemini"]["expansion"]
    plugin = terms("In ColossalAI, pass the Gemini plugin to the booster to shard the model in chunks.")
    assert "ColossalAI" in plugin["gemini"]["expansion"] and "DeepMind" not in plugin["gemini"]["definition"]
    assert plugin["gemini"]["source"] and "colossalai" in plugin["gemini"]["source"]


@pytest.mark.parametrize("sentence, term_id", [
    ("A comet crossed the sky while the telescope recorded it.", "comet-moe"),
    ("English is the lingua franca of the conference.", "meta-lingua"),
    ("The train left the rail near the station.", "network-rail"),
    ("She got a booster shot before the trip.", "colossalai-booster"),
    ("He was primus inter pares among the judges.", "amd-primus"),
    ("Gaudi designed the Sagrada Familia in Barcelona.", "intel-gaudi"),
])
def test_everyday_words_stay_ordinary_outside_their_field(sentence, term_id):
    assert term_id not in terms(sentence)


def test_the_field_words_pick_the_field_sense():
    assert "comet-moe" in terms("Comet overlaps the all-to-all of the MoE layer with the experts' computation.")
    assert "network-rail" in terms("Each rail has its own leaf switch, so GPU 0 of every node talks through one switch.")
    assert "colossalai-booster" in terms("The ColossalAI booster wraps the model with the chosen plugin.")


def test_every_entry_has_a_source_and_both_languages():
    for entry in json.loads(FAMILY.read_text(encoding="utf-8"))["terms"]:
        assert entry["source"]["url"].startswith("https://"), entry["id"]
        assert entry["definition"] and entry["ar"]["term"] and entry["ar"]["definition"], entry["id"]


def test_arabic_answer_explains_a_new_chip_in_arabic():
    found = terms("دربنا النموذج على 64 وحدة MI300X مع ROCm.", "ar")
    assert "amd-mi300x" in found and "ذاكرة" in found["amd-mi300x"]["definition"]


@pytest.mark.parametrize("sentence, term_id", [
    ("We set lora_r=16 and lora_alpha=32 on all attention projections.", "lora-rank"),
    ("With 8-bit Adam the optimizer states take a quarter of the memory.", "eight-bit-optimizer"),
    ("SGLang and TensorRT-LLM both use continuous batching.", "sglang"),
    ("SGLang and TensorRT-LLM both use continuous batching.", "tensorrt-llm"),
    ("SGLang and TensorRT-LLM both use continuous batching.", "continuous-batching"),
    ("Speculative decoding with a draft model halved the latency.", "speculative-decoding"),
    ("TTFT rose to 2 seconds under load while TPOT stayed at 30 ms.", "ttft-tpot"),
    ("The eight MI300X GPUs are joined by Infinity Fabric links.", "amd-infinity-fabric"),
    ("GH200 pairs a Grace CPU with a Hopper GPU.", "nvidia-gh200"),
    ("MegaScale reached 55.2% MFU on 12,288 GPUs.", "megascale"),
])
def test_serving_and_fine_tuning_terms_are_found(sentence, term_id):
    assert term_id in terms(sentence)


def test_a_stack_is_an_hbm_stack_only_beside_memory_words():
    assert "hbm-stack" in terms("Each MI300X has eight HBM3 stacks of 24 GB.")
    assert "hbm-stack" not in terms("Our software stacks differ between teams.")


@pytest.mark.parametrize("sentence, term_id", [
    ("RoCE needs PFC and ECN configured on every switch.", "pfc"),
    ("The flaky link was a bad OSFP transceiver.", "optical-transceiver"),
    ("We used GDS to load checkpoints from NVMe.", "gpudirect-storage"),
    ("The MI300X sits on an OAM module on a UBB baseboard.", "oam-module"),
    ("NCCL over EFA needs aws-ofi-nccl.", "aws-ofi-nccl"),
    ("HBM4 doubles the interface width.", "hbm4"),
])
def test_network_and_memory_parts_are_found(sentence, term_id):
    assert term_id in terms(sentence)
