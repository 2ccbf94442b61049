"""Round 46, readers' gaps (issue 18): the B300 and the TPU Node, which rounds 41-42's blind readers found glossed as a
neighbour's entry (data/glossary/long_tail_round46_readers.json). Each is found in a real sentence, its Arabic too."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as

FILE = data_dir() / "glossary" / "long_tail_round46_readers.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 46 readers' glossary data not present")

REAL_SENTENCES = [
    # https://github.com/allenai/OLMo-core/pull/817 (a B300 was read as the B200's entry)
    ("nvidia-b300", "The chain was H100 → B200 → else assume A100, so B300 devices — which report as NVIDIA B300 SXM6 AC — "
                    "matched nothing and silently fell through to the A100 fallback.", "B300"),
    # https://github.com/NVIDIA/nccl/issues/2140
    ("nvidia-b300", "Why does NVLS lead to a lower apparent effective bandwidth utilization (both H100 and B300)?", "B300"),
    # https://github.com/huggingface/transformers/blob/main/docs/source/en/perf_train_tpu_tf.md
    ("tpu-node", "This is an opinionated document, so here’s our opinion: Avoid using TPU Node if possible.", "TPU Node"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round46_readers_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 2)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round46_readers_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


def test_the_b200_entry_no_longer_answers_for_a_b300():
    found = {m.entry["id"] for m in glossary.detect("We measured 8x B300 with NVLS off and on.")}
    assert "nvidia-b300" in found and "nvidia-b200" not in found
