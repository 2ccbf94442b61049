"""Round 55, the long-tail terms round 52's readers found glossed in the wrong sense: importance sampling, which RL for
language models uses against the rollout/trainer mismatch, was glossed as the token sampling of decoding, and wave
quantization was glossed as tile quantization (data/glossary/long_tail_round55.json)."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as, detected

FILE = data_dir() / "glossary" / "long_tail_round55.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 55 glossary data not present")

REAL_SENTENCES = [
    # https://github.com/zhaochenyang20/Awesome-ML-SYS-Tutorial/blob/main/rlhf/mismatch/blog-en.md
    ("importance-sampling", "Here, MIS (masked importance sampling) includes two operations: sequence/token masking + "
                            "importance sampling.", "masked importance sampling"),
    # https://github.com/ThakiCloud/thakicloud.github.io (_posts/ar/research/2026-07-10-glm-5-2-ppo-icepop.md)
    ("importance-sampling", "يصحّح التعلم المعزز عادةً هذه الفجوة عبر أخذ العينات بالأهمية (importance sampling)، أي ضرب "
                            "نسبة احتمال السياسة وقت الاستدلال إلى احتمالها وقت التدريب.", "أخذ العينات بالأهمية"),
    # https://danielvegamyhre.github.io/ml/performance/2025/05/26/async-tp.html
    ("wave-quantization", "This amplify the effect of wave quantization, where the number of work units isn't evenly "
                          "divisible by the number of available SMs.", "wave quantization"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round55_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 2)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round55_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


def test_importance_sampling_is_no_token_sampling():
    # round 52 P03 (a ThakiCloud post on GLM RL): "importance sampling" glossed as choosing each generated token
    found = detected("The trainer corrects the gap with importance sampling of the rollout probabilities.")
    assert found.get("importance-sampling") == "importance sampling" and "token-sampling" not in found, found


def test_wave_quantization_is_not_glossed_as_tile_quantization():
    # round 52 P15 (a post on async TP): "wave quantization (tile quantization)" equated the two
    found = detected("This amplify the effect of wave quantization on the SMs.")
    assert "wave-quantization" in found and "tile-wave-quantization" not in found, found
