"""Round-3 glossary entries (data/glossary/round3_central_terms.json): complete, sourced, found in both languages,
and the context-only words ("bubble", "1D") taken only where the text is about pipelines or parallelism."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary

ENTRIES = json.loads((data_dir() / "glossary" / "round3_central_terms.json").read_text(encoding="utf-8"))["terms"]

# Sentences written for these tests, one per entry, in the way posts write them.
ENGLISH = {
    "pipeline-parallelogram": "A global clipping step breaks the parallelogram, so stages sit idle.",
    "static-shapes": "On the TPU every buffer must be determined at compile time, even the expert slots.",
    "1d-2d-parallelism": "The 70B model ran out of memory with 1D parallelism, so we moved to 2D parallelism.",
    "activation-memory-formula": "Each layer stores about sbh(34 + 5as/h) bytes of activations.",
    "dispatch-overhead": "With hundreds of tiny kernels per step, Python dispatch dominates the step time.",
    "nda": "We tested it on a new accelerator under NDA.",
}


def found(text: str) -> dict[str, str]:
    return {m.entry["id"]: m.found_as for m in glossary.detect(text)}


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["id"])
def test_each_entry_is_complete_sourced_and_found_in_both_languages(entry):
    for key in ("term", "expansion", "definition", "category"):
        assert entry.get(key), key
    assert all(entry["ar"].get(k) for k in ("term", "definition"))
    assert entry["source"]["url"].startswith("https://") and entry["source"]["title"]
    assert entry["id"] in found(ENGLISH[entry["id"]]), found(ENGLISH[entry["id"]])
    rendering = (entry["ar_aliases"] or [entry["term"]])[0]  # a formula is written the same in Arabic text
    text = f"يشرح المقال {rendering} في سياق تدريب النماذج الكبيرة."
    assert entry["id"] in found(text), (rendering, found(text))


def test_a_bare_bubble_is_the_pipeline_bubble_only_in_a_pipeline_text():
    assert found("Dropping the bubble with more microbatches per pipeline did nothing.").get("pipeline-bubble") == "bubble"
    assert "pipeline-bubble" not in found("Investors fear the AI bubble will burst this year.")


def test_1d_and_2d_are_parallelism_only_beside_its_words():
    assert "1d-2d-parallelism" in found("We hit OOM for 1D, so we only tested the 2D case with FSDP and TP.")
    assert "1d-2d-parallelism" not in found("A 1D convolution runs over the audio signal, a 2D one over images.")
    assert found("The chips form a 2D torus.").get("torus") == "2D torus"  # the longer name wins
