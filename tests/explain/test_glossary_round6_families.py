"""Issue 18 (terms): round 6's long-tail families in data/glossary/long_tail_*.json, found as people write them,
with a source and both languages, and the names that are also everyday words (Lightning, Frontier, Volcano,
fabric, mamba, Tomahawk, قالب) left alone outside their field. Sentences written for the rules."""

import json
import re

import pytest

from calculators.resources import data_dir
from service.explain.pipeline import analyse

FAMILIES = sorted((data_dir() / "glossary").glob("long_tail_*.json"))
pytestmark = pytest.mark.skipif(not FAMILIES, reason="data/glossary/long_tail_*.json not present")

ARABIC = re.compile(r"[\u0621-\u064A]")


def term_ids(text: str, lang: str = "en") -> set[str]:
    return {t["id"] for t in analyse(text, lang).terms}


@pytest.mark.parametrize("sentence, term_id", [
    # accelerators and systems beyond NVIDIA's flagships
    ("The Groq LPU keeps the whole model in SRAM across many chips.", "groq-lpu"),
    ("Our decode ran on a SambaNova SN40L rack.", "sambanova-rdu"),
    ("We trained on Huawei Ascend 910B NPUs with HCCL.", "huawei-ascend"),
    ("We trained on Huawei Ascend 910B NPUs with HCCL.", "hccl"),
    ("Chinese labs bought the H20 because the H100 cannot be exported.", "nvidia-h20"),
    ("The L40S has no NVLink, so tensor parallelism across cards is slow.", "nvidia-l40s"),
    ("Each B200 joins its compute dies with NV-HBI.", "nv-hbi"),
    ("The H100 is a monolithic die close to the reticle limit.", "reticle-limit"),
    ("The H100 is a monolithic die close to the reticle limit.", "silicon-die"),
    # kernels, libraries, profiling
    ("The FP8 GEMMs come from cuBLASLt and the attention kernel from CUTLASS.", "cublaslt"),
    ("The FP8 GEMMs come from cuBLASLt and the attention kernel from CUTLASS.", "cutlass"),
    ("DeepGEMM adds up FP8 partial sums on CUDA cores.", "deepgemm"),
    ("We patched the model with Liger Kernel to avoid materialising the logits.", "liger-kernel"),
    ("On MI300X the attention comes from AITER.", "aiter"),
    ("The timeline in nsys shows the NVTX range of each all-reduce.", "nvtx"),
    ("Switch to DistributedFusedAdam with store_param_remainders=True.", "param-remainders"),
    # cluster operations
    ("The node logged Xid 79: the GPU has fallen off the bus, so we drain the node.", "xid-error"),
    ("The node logged Xid 79: the GPU has fallen off the bus, so we drain the node.", "gpu-fallen-off-bus"),
    ("The node logged Xid 79: the GPU has fallen off the bus, so we drain the node.", "node-drain"),
    ("Keep a few spare nodes so a failed one is swapped without waiting.", "spare-nodes"),
    ("srun --container-image=nvcr.io/nvidia/nemo runs the task through pyxis and enroot.", "pyxis"),
    ("Kueue admits the job once the team's quota is free.", "kueue"),
    ("The job was preempted on spot instances and auto-resume relaunched it.", "spot-instance"),
    # networks
    ("NCCL reaches only half of what the fabric can carry.", "network-fabric"),
    ("Each leaf switch has as much uplink bandwidth as downlink, so there is no oversubscription.", "oversubscription"),
    ("Broadcom Tomahawk 5 switches absorb incast from the all-to-all.", "broadcom-tomahawk"),
    ("Broadcom Tomahawk 5 switches absorb incast from the all-to-all.", "incast"),
    ("Frontier's GPUs talk over HPE Slingshot in a dragonfly topology.", "hpe-slingshot"),
    # precision and MoE routing
    ("DeepSeek-V3 scores experts with sigmoid gating and adds a sequence-wise auxiliary loss.", "sigmoid-gating"),
    ("DeepSeek-V3 scores experts with sigmoid gating and adds a sequence-wise auxiliary loss.", "sequence-wise-aux-loss"),
    ("Qwen computes the balance loss with global-batch load balancing.", "global-batch-load-balancing"),
    ("Blackwell computes in MXFP6 with UE8M0 block scales.", "fp6"),
    ("We tried QAT before falling back to post-training quantization.", "quantization-aware-training"),
    # models and data
    ("Falcon-180B was trained on RefinedWeb.", "falcon-llm"),
    ("Falcon-180B was trained on RefinedWeb.", "refinedweb"),
    ("Jais is an Arabic-centric model from G42.", "jais-model"),
    ("The hybrid stacks Mamba layers with attention layers.", "mamba-ssm"),
])
def test_family_terms_are_found(sentence, term_id):
    assert term_id in term_ids(sentence)


@pytest.mark.parametrize("sentence, lang, term_id", [
    ("تدرّب نموذج جيس على نصوص عربية وإنجليزية.", "ar", "jais-model"),
    ("وحدة H100 قالب متجانس ضخم مبني على عملية TSMC.", "ar", "silicon-die"),
    ("يكفي المبرد الهوائي لهذه الخوادم.", "ar", "air-cooling"),
])
def test_arabic_renderings_are_found(sentence, lang, term_id):
    found = term_ids(sentence, lang)
    assert term_id in found, found


@pytest.mark.parametrize("sentence, term_id", [
    ("Lightning struck the old oak near the apex of the hill.", "pytorch-lightning"),
    ("Lightning struck the old oak near the apex of the hill.", "nvidia-apex"),
    ("Explorers pushed the frontier west while the aurora lit the sky.", "frontier-supercomputer"),
    ("Explorers pushed the frontier west while the aurora lit the sky.", "aurora-supercomputer"),
    ("The volcano erupted again last night.", "volcano-scheduler"),
    ("The fabric of her dress was silk.", "network-fabric"),
    ("A black mamba crossed the road.", "mamba-ssm"),
    ("The Tomahawk missile hit its target; the walls of Jericho fell.", "broadcom-tomahawk"),
    ("The Tomahawk missile hit its target; the walls of Jericho fell.", "broadcom-jericho"),
    ("The dog will die if it is not fed.", "silicon-die"),
    ("He passed the qualification exam; a micron is tiny.", "qualification-test"),
    ("The open division of the company reported a loss.", "mlperf-divisions"),
    ("The azure sky over the sea.", "microsoft-azure"),
    ("A falcon circled above the field.", "falcon-llm"),
])
def test_everyday_words_stay_ordinary_outside_their_field(sentence, term_id):
    assert term_id not in term_ids(sentence)


def test_arabic_everyday_mold_is_not_a_die():
    assert "silicon-die" not in term_ids("استعمل القالب الجاهز لكتابة الرسالة.", "ar")


def test_every_entry_is_sourced_and_written_in_both_languages():
    for path in FAMILIES:
        for entry in json.loads(path.read_text(encoding="utf-8"))["terms"]:
            assert entry["source"]["url"].startswith(("https://", "http://")), entry["id"]
            assert entry["source"]["title"], entry["id"]
            assert len(entry["definition"].split()) >= 12, entry["id"]  # says what it is and why it matters
            assert ARABIC.search(entry["ar"]["term"]) and ARABIC.search(entry["ar"]["definition"]), entry["id"]
            # An everyday word as a bare alias would gloss ordinary prose: it must sit in a context group instead.
            for alias in entry["aliases"]:
                assert alias.lower() not in {"fabric", "lightning", "frontier", "aurora", "volcano", "mamba", "die", "falcon",
                                             "azure", "tomahawk", "jericho", "qualification", "micron"}, (entry["id"], alias)
