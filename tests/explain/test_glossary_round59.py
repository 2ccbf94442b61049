"""Round 59, the field's everyday vocabulary round 55's readers found unexplained (data/glossary/long_tail_round59.json):
each entry met in a real sentence, with both languages and its source."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as, detected

FILE = data_dir() / "glossary" / "long_tail_round59.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 59 glossary data not present")

REAL_SENTENCES = [
    # Red Hat blog on just-in-time checkpointing (round 55 P15), said in other words
    ("jit-checkpointing", "JIT checkpointing saves state only when a failure is detected.", "JIT checkpointing"),
    ("jit-checkpointing", "It introduces just-in-time (JIT) checkpointing for OpenShift AI.", "just-in-time (JIT) checkpointing"),
    ("periodic-checkpointing", "Compared with periodic checkpointing, it loses at most one step of work.", "periodic checkpointing"),
    # https://arxiv.org/abs/1802.01561 (IMPALA, abstract); round 55 P20's "actor/learner"
    ("actor-learner", "We use a decoupled actor/learner setup, with one learner and many actors.", "actor/learner"),
    ("actor-learner", "Experience is sent from actors to the learner GPUs every few seconds.", "learner GPUs"),
    # https://arxiv.org/abs/2411.15124 (Tulu 3, RLVR)
    ("rl-verifier", "The verifier checks the final answer and gives a reward of one when it is correct.", "verifier"),
    # round 55 P08 (asynchronous RL, colocated vs disaggregated)
    ("replay-buffer", "Generators push rollouts into a replay buffer that the trainer samples from.", "replay buffer"),
    ("inference-engine", "The trainer must broadcast new weights to the inference engine after each step.", "inference engine"),
    # round 55 P09 (Perplexity on RL weight transfer over RDMA)
    ("rdma-write", "We use RDMA WRITE, a one-sided primitive: the receiver is not notified.", "RDMA WRITE"),
    ("policy-staleness", "Rollouts generated with stale weights are dropped when they are more than two steps old.", "stale weights"),
    # round 55 P27 (JAX #18224): pmapped functions are lazily compiled
    ("jit-compilation", "The first call is slow because the function is JIT-compiled.", "JIT-compiled"),
    ("jit-compilation", "Pmapped functions are lazily compiled, so time the second call.", "lazily compiled"),
    # round 55 P21 (Ben Gubler's post on enroot and Slurm), in English
    ("software-container", "Each node starts the same container image with enroot.", "container image"),
    ("environment-variable", "Slurm sets environment variables that torchrun reads.", "environment variables"),
    ("master-addr", "Export MASTER_ADDR as the first node's hostname.", "MASTER_ADDR"),
    # round 55 P26 (Crusoe on NCCL timeouts): the flight recorder's ring buffer and stack traces
    ("stack-trace", "Dump the stack trace of every rank to find the hung one.", "stack trace"),
    ("ring-buffer", "The flight recorder keeps the last collectives in a ring buffer.", "ring buffer"),
    # round 55 P23 (SGLang vs vLLM scheduling, Arabic), in English
    ("fcfs-scheduling", "vLLM schedules requests FCFS, while SGLang prefers long shared prefixes.", "FCFS"),
    ("sharegpt", "On ShareGPT-like prompts SGLang serves more tokens per second.", "ShareGPT-like"),
    # round 55 P03 (NCCL #569)
    ("flat-ring", "The ring all-reduce is implemented as a flat ring among all the nodes.", "flat ring"),
    # round 55 P12 (ThakiCloud on Kimi K3), in English
    ("self-hosting", "Two techniques become almost mandatory for realistic self-hosting.", "self-hosting"),
    # round 55 P20 (INTELLECT-3 lessons)
    ("round-robin", "Samples are drawn round-robin from the environments.", "round-robin"),
    # round 55 P18 (SkipPipe, Arabic), in English
    ("layer-skipping", "The scheduler limits the effect of layer skipping on convergence.", "layer skipping"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round59_term_found_in_a_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 20)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round59_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


def test_jit_checkpointing_is_not_jit_compilation():
    # the longer name wins: a checkpointing method, not the compiler
    found = detected("JIT checkpointing avoids the cost of periodic saves.")
    assert "jit-checkpointing" in found and "jit-compilation" not in found, found
