"""Round 50, a reader's gaps: a scheduler's watermark, ZeRO-3's leaf module, speculative decoding's system efficiency and
bonus token, an RFC and a device-to-device copy, which round 46's last blind reader found
missing where the GitHub thread turned on them (data/glossary/long_tail_round50.json)."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from service.explain.compose import explain_offline
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as, term_definition

FILE = data_dir() / "glossary" / "long_tail_round50.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 50 glossary data not present")

REAL_SENTENCES = [
    # https://github.com/vllm-project/vllm/pull/28018 (corpus vllm-28018-watermark-preemption-loop)
    ("kv-cache-watermark", "This PR purposes to add back the watermark in v1 scheduler, to avoid frequent cache eviction and "
                           "preemption.", "watermark"),
    # https://github.com/deepspeedai/DeepSpeed/pull/5008 (corpus deepspeed-5008-zero3-moe-reduce-scatter)
    ("zero3-leaf-module", "This PR delays the reduce-scatter for ZeRO3 leaf modules until the backward pass exits the module.",
     "ZeRO3 leaf modules"),
    # vLLM's speculative decoding metrics (corpus vllm-9565-spec-decode-acceptance-rate)
    ("spec-decode-system-efficiency", "The acceptance rate is 2/4 while the system efficiency is (1+1)/(4+1) for this "
                                      "speculative decoding step.", "system efficiency"),
    # https://docs.nvidia.com/aiperf/v0.14.0/reference/per-request-speculative-decoding-acceptance
    ("spec-decode-bonus-token", "Mean tokens per verify step including the bonus token.", "bonus token"),
    # https://github.com/volcengine/verl/issues/2802 (corpus verl-2802-ep-reshard-alltoallv)
    ("policy-model", "The weights must be resharded from the actor to the rollout engine after every update.", "actor"),
    ("rfc-proposal", "[RFC] Faster weight resharding between the training engine and the generation engine.", "RFC"),
    ("device-to-device-copy", "Use D2D copies of the weights instead of gathering them through the host.", "D2D"),
    # round 47's passages (corpus split holdout-r47), where the readers found the key term missing
    ("numa-node", "the first instance had GPUs split 4+4 across two NUMA nodes.", "NUMA nodes"),
    ("cpu-starvation", "Nsight OS runtime summary led me to suspect CPU starvation.", "CPU starvation"),
    ("cuda-moat", "SemiAnalysis argues that the MI300X is held back by the CUDA moat.", "CUDA moat"),
    ("tied-embeddings", "The paper does not tie embeddings, as stated.", "tie embeddings"),
    ("rope-scaling", "Same as above, but aim for 64k, and rely on RoPE scaling to extend context further.", "RoPE scaling"),
    ("dense-moe-hybrid", "Arctic uses a Dense-MoE hybrid architecture that combines a dense transformer with MoE FFN modules.",
     "Dense-MoE hybrid"),
    ("continued-pretraining", "We used Megatron-LM to conduct continued pre-training of Llama-3-70B.", "continued pre-training"),
    ("tesla-dojo", "تقول Tesla إنها بدأت في إنتاج حاسوبها الفائق Dojo لتدريب أسطولها من المركبات.", "Dojo"),
    ("accelerated-computing", "الحوسبة المسرعة تنقل العمل المتوازي الثقيل إلى وحدات GPU.", "الحوسبة المسرعة"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round50_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 15)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round50_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


@pytest.mark.parametrize("text, term_id", [
    ("We add an invisible watermark to every generated image.", "kv-cache-watermark"),
    ("In PyTorch a leaf module is one that has no children.", "zero3-leaf-module"),
    ("The actor won an award for the film.", "policy-model"),
    ("The chiplets talk over a D2D interface inside the package.", "device-to-device-copy"),
    ("Better cooling raised the system efficiency of the data centre.", "spec-decode-system-efficiency"),
    ("We went to the dojo for karate practice after work.", "tesla-dojo"),
])
def test_the_ordinary_words_are_these_terms_only_where_the_text_is_about_them(text, term_id):
    # written for this test: the same words mean other things away from their cues
    assert term_id not in {t["id"] for t in explain_offline(text, "en")["terms"]}


def test_the_acceptance_rate_says_engines_count_it_differently():
    # round 46 (S6, vLLM#9565): vLLM's rate counts drafted tokens that match after the first rejection, which the output
    # does not keep; the definition said only "the share of drafted tokens the target keeps"
    text = "For speculative decoding, the acceptance rate should be independent of the proposed length."
    definition = term_definition(text, "draft-acceptance-rate")
    # round 87 (P07): a reader checked vLLM's current per-position counter, which stops at the first rejection, so which
    # engine counts what is no longer said; that engines and papers count it differently still is
    assert "differently" in definition and "vLLM" not in definition, definition
    assert "بطرق مختلفة" in term_definition(text, "draft-acceptance-rate", "ar")
