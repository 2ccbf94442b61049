"""Round 63, central terms round 58's readers missed (data/glossary/long_tail_round63.json) and aliases added to older
entries, each met in a real sentence, with both languages and its source."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_entries_complete, assert_found_as

FILE = data_dir() / "glossary" / "long_tail_round63.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 63 glossary data not present")

REAL_SENTENCES = [
    # https://www.amplifypartners.com (round 58 P22), said in other words, with an RL cue
    ("engine-switching", "In colocated RL training, engine switching between vLLM rollouts and the trainer costs seconds per step.",
     "engine switching"),
    # https://openreview.net (MLSys 2026 NodeSweep poster, round 58 P15)
    ("run-to-run-variance", "The method reduces run-to-run variance from 20% to 1%.", "run-to-run variance"),
    # https://arxiv.org/abs/2605.04478 (round 58 P16)
    ("slow-hang-communication", "These anomalies typically manifest as slow/hang communication across NCCL ranks.", "slow/hang communication"),
    # https://huggingface.co/blog/delta-weight-sync (round 58 P03's delta_sharded)
    ("delta-weight-sync", "With delta weight sync the trainer sends only the weights that changed since the last rollout.", "delta weight sync"),
    # https://github.com/AI-Hypercomputer/maxtext/blob/main/benchmarks/xla_flags_library.py (round 58 P17)
    ("scoped-vmem", "Raising the scoped VMEM limit let the fused attention kernel compile on TPU7x.", "scoped VMEM limit"),
    # https://nvidia.github.io/nvidia-resiliency-ext/straggler_det/usage_guide.html
    ("straggler-detection", "Straggler detection flagged rank 17 as 30% slower than the median.", "Straggler detection"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round63_term_found_in_a_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 6)


@pytest.mark.parametrize("sentence", [
    "We are engine switching from Unity to Godot for the next game.",
    "The app is slow and hang when I open the settings page.",
    "Dropbox uses delta sync to upload only the changed blocks.",
    "Our web service exposes an asynchronous inference endpoint for image models.",
])
def test_context_aliases_stay_out_of_other_senses(sentence):
    found = {m.entry["id"] for m in glossary.load().find(sentence)}
    assert not found & {"engine-switching", "slow-hang-communication", "delta-weight-sync", "asynchronous-rl"}, found


@pytest.mark.parametrize("term_id, sentence, found_as", [
    # round 58 P22 (Amplify Partners): "Between asynchronous inference and engine switching" in a post on RL rollouts
    ("asynchronous-rl", "With asynchronous inference, the rollout GPUs keep generating while the trainer updates the policy.",
     "asynchronous inference"),
    # round 58 P15 (NodeSweep): "Traditional health-checking methods such as NCCL or burn-in tests"
    ("node-health-check", "Traditional health-checking methods such as NCCL tests miss slow GPUs.", "health-checking"),
])
def test_aliases_added_to_older_entries(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)
