"""Round 49, readers' gaps: Intel's XPU and XCCL, a coolant distribution unit, expert data parallelism, ByteCheckpoint and
an LR finder, which round 45's blind readers found missing where the passage turned on them
(data/glossary/long_tail_round49.json)."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from service.explain.compose import explain_offline
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as

FILE = data_dir() / "glossary" / "long_tail_round49.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 49 glossary data not present")

REAL_SENTENCES = [
    # https://github.com/argonne-lcf/ (AuroraGPT's torchtitan log, corpus auroragpt-torchtitan-xpu-two-week-log)
    ("intel-xpu", "Fixed critical XPU bugs (XCCL barriers, 80B TP=2 OOM).", "XPU"),
    ("xccl", "Fixed critical XPU bugs (XCCL barriers, 80B TP=2 OOM).", "XCCL"),
    ("lr-range-test", "Built LR finder, scaling study tooling, and benchmark scripts across 3 ALCF machines.", "LR finder"),
    # https://docs.pytorch.org/docs/stable/distributed.html (Backends)
    ("xccl", "For NCCL, GPU refers to CUDA GPU while for XCCL to XPU GPU.", "XCCL"),
    # https://www.supermicro.com/en/glossary/cdu
    ("coolant-distribution-unit", "A coolant distribution unit (CDU) is a critical component in liquid cooling systems used in "
                                  "modern data centers and high-performance computing (HPC) environments.",
     "coolant distribution unit"),
    # GPT-NeoX's MoE design doc (corpus gptneox-moe-design-doc-ted-parallel-groups)
    ("expert-data-parallelism", "Arranged so that each DP group can communicate with each EP group—so if TP=2 EP=4 DP=16 "
                                "EDP=2, you would have each of the 2 TPs in any DP → each of the 4 EPs.", "EDP"),
    # https://arxiv.org/abs/2407.20143 (its title)
    ("bytecheckpoint", "ByteCheckpoint: A Unified Checkpointing System for Large Foundation Model Development",
     "ByteCheckpoint"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round49_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 6)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round49_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


@pytest.mark.parametrize("text, term_id", [
    ("Broadcom builds custom XPUs for hyperscalers; its next XPU has 12 HBM stacks.", "intel-xpu"),
    ("The laptop's EDP panel runs at 120 Hz.", "expert-data-parallelism"),
    ("The CDU won the most seats in the Bavarian election.", "coolant-distribution-unit"),
])
def test_the_short_names_are_these_terms_only_where_the_text_is_about_them(text, term_id):
    # written for this test: the same letters name other things away from their cues (data/sense_guards.json)
    assert term_id not in {t["id"] for t in explain_offline(text, "en")["terms"]}
