"""Round 45, gaps (issue 18): job completion time (JCT), credit-based flow control (CBFC), exascale, Transformer
Engine's PyTorch layer modules (te.Linear and kin) and KPI (data/glossary/long_tail_round45_gaps.json). Each entry is
found in a sentence quoted from its primary source, and its Arabic spelling is found in Arabic text."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as
from tests.support.glossary_files import detected as ids  # the detector's finds, shared by the glossary tests

FILE = data_dir() / "glossary" / "long_tail_round45_gaps.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 45 gaps glossary data not present")

IETF = "https://datatracker.ietf.org/doc/draft-calabria-bmwg-ai-fabric-training-bench/00/"
TE_API = "https://nvidia.github.io/TransformerEngine/api/pytorch.html"

# (term id, sentence quoted from the source, what the detector should find); the source is in the comment.
REAL_SENTENCES = [
    # IETF (Abstract)
    ("job-completion-time", "As large-scale distributed AI/ML training clusters grow to tens of thousands of accelerators "
                            "(GPUs/XPUs), the backend network fabric becomes the critical bottleneck determining job "
                            "completion time (JCT), training throughput, and accelerator utilization.",
     "job completion time"),
    # https://arxiv.org/html/2505.09764v1 (Abstract)
    ("job-completion-time", "Scheduling All-to-All communications efficiently is fundamental to minimizing job completion "
                            "times in distributed systems.", "job completion times"),
    # IETF (Abstract)
    ("credit-based-flow-control", "covering RDMA/RoCEv2 transport, the Ultra Ethernet Transport (UET) protocol defined by "
                                  "the UEC Specification 1.0, congestion management (PFC, ECN, DCQCN, CBFC), load "
                                  "balancing strategies (ECMP, DLB, packet spraying)", "CBFC"),
    # https://arxiv.org/abs/2505.09343 (section 6.3)
    ("credit-based-flow-control", "Lossless Network : Credit-Based Flow Control (CBFC) mechanisms ensures lossless data "
                                  "transmission, yet naively triggering flow control can induce severe head-of-line "
                                  "blocking.", "Credit-Based Flow Control"),
    # https://www.olcf.ornl.gov/2021/10/18/exascale-day-2021/
    ("exascale", "The performance of exascale computers is measured in exaflops.", "exascale computers"),
    # https://arxiv.org/abs/2604.00785 (Abstract)
    ("exascale", "Aurora super computer is an ExaScale machine with 127,488 Intel PVC (Ponte Vechio) GPU tiles.",
     "ExaScale machine"),
    # https://github.com/NVIDIA/TransformerEngine/issues/764
    ("te-modules", "I'm seeing higher losses using te.Linear over nn.Linear directly in transformer models such as Llama",
     "te.Linear"),
    # TE_API
    ("te-modules", "class transformer_engine.pytorch.LayerNormMLP(hidden_size, ffn_hidden_size, eps=1e-5, bias=True, "
                   "**kwargs)", "transformer_engine.pytorch.LayerNormMLP"),
    ("te-modules", "class transformer_engine.pytorch.TransformerLayer(hidden_size, ffn_hidden_size, num_attention_heads, "
                   "**kwargs)", "transformer_engine.pytorch.TransformerLayer"),
    # IETF (Abstract)
    ("key-performance-indicator", "This document defines benchmarking terminology, methodologies, and Key Performance "
                                  "Indicators (KPIs) for evaluating Ethernet-based AI training network fabrics.",
     "Key Performance Indicators"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []




@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round45_gaps_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 5)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round45_gaps_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


@pytest.mark.parametrize("text, term_id", [
    ("تقيس الورقة متوسط زمن إكمال المهمة على عنقود من آلاف المسرعات", "job-completion-time"),
    ("يسعى الكوكب إلى بلوغ مستوى الإكساسكيل في الحوسبة الفائقة", "exascale"),
])
def test_round45_gaps_term_in_an_arabic_sentence(text, term_id):
    assert term_id in ids(text), ids(text)


@pytest.mark.parametrize("text, term_id", [
    # a bare "Linear" or "LayerNorm" layer of PyTorch is not Transformer Engine's
    ("Replace every nn.Linear with a LoRA adapter and keep nn.LayerNorm in float32.", "te-modules"),
    # "exaflops" alone is a rate, kept by its own entry
    ("The rack delivers 1.4 exaflops of FP4 compute.", "exascale"),
])
def test_round45_gaps_spellings_keep_their_other_senses(text, term_id):
    assert term_id not in ids(text), ids(text)
