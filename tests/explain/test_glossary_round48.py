"""Round 48, readers' gaps: TorchFT's quorum, SGLang's two-batch overlap, truncated importance sampling, Fujitsu's A64FX
and Tofu interconnect, PatrickStar and DeepSpeed-TED, which blind readers found missing where the passage turned on
them (data/glossary/long_tail_round48.json)."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as, detected

FILE = data_dir() / "glossary" / "long_tail_round48.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 48 glossary data not present")

REAL_SENTENCES = [
    # https://github.com/pytorch/torchft/blob/main/torchft/manager.py (module docstring)
    ("quorum", "The Manager is responsible for managing the full training loop, communicating with the Lighthouse server "
               "to figure out quorum, reconfiguring the ProcessGroups and restoring checkpoint state when recovering.",
     "quorum"),
    # https://github.com/pytorch/torchft/blob/main/torchft/manager.py (Manager.num_participants)
    ("quorum", "Get the number of participants in the current quorum.", "quorum"),
    # https://github.com/sgl-project/sglang/blob/main/docs/backend/server_arguments.md (--tbo-token-distribution-threshold)
    ("two-batch-overlap", "The threshold of token distribution between two batches in micro-batch-overlap, determines "
                          "whether to two-batch-overlap or two-chunk-overlap.", "two-batch-overlap"),
    # https://openreview.net/forum?id=8MHqvb4lK9 (its abstract)
    ("truncated-importance-sampling", "We address this problem with truncated importance sampling (TIS), a simple yet "
                                      "effective correction that bridges the distribution gap and stabilizes training, "
                                      "even under aggressive rollout quantization.", "truncated importance sampling"),
    # https://neurips.cc/virtual/2025/124259 (the same work's NeurIPS abstract)
    ("truncated-importance-sampling", "TIS applies importance sampling correction to bridge the distribution gap between "
                                      "rollout and training, enabling stable RL training even with quantized rollouts.",
     "TIS"),
    # https://www.fujitsu.com/global/about/resources/publications/technicalreview/2020-03/article03.html
    ("a64fx", "The A64FX was developed as a processor for the supercomputer Fugaku.", "A64FX"),
    # https://www.fujitsu.com/global/about/resources/publications/technicalreview/2020-03/article03.html
    ("tofu-interconnect", "For higher density, the Tofu interconnect D and the PCI Express controllers have been "
                          "implemented in the CPU chip.", "Tofu interconnect D"),
    # https://www.fujitsu.com/my/about/businesspolicy/tech/k/whatis/network/
    ("tofu-interconnect", "The K computer's network, called Tofu, uses an innovative structure called \"6-dimensional "
                          "mesh/torus\" topology.", "Tofu"),
    # https://github.com/Tencent/PatrickStar (README, Meeting PatrickStar)
    ("patrickstar", "With the heterogeneous training (DeepSpeed Zero Stage 3 also uses it), PatrickStar could make full use "
                    "of both the CPU and GPU memory, so that you could use fewer GPUs to train larger models.",
     "PatrickStar"),
    # https://arxiv.org/abs/2303.06318 (its abstract)
    ("deepspeed-ted", "In this work, we present DeepSpeed-TED, a novel, three-dimensional, hybrid parallel algorithm that "
                      "combines data, tensor, and expert parallelism to enable the training of MoE models with 4 to 8x "
                      "larger base models than the current state-of-the-art.", "DeepSpeed-TED"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round48_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 7)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round48_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


@pytest.mark.parametrize("text, term_id", [
    ("She gave a TED talk about her startup.", "deepspeed-ted"),
    ("Marinate the tofu overnight before grilling.", "tofu-interconnect"),
    ("The TIS score was recorded at the clinic.", "truncated-importance-sampling"),
    ("The shipment date is TBO pending customs.", "two-batch-overlap"),
])
def test_the_short_names_are_these_terms_only_where_the_text_is_about_them(text, term_id):
    # written for this test: the bare abbreviations and the food are other things away from their cues
    assert term_id not in detected(text)
