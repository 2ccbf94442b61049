"""A gist never keeps a section's label, a list's number or a note's missing subject (service/explain/gist.py,
gist_side.with_subject). Texts written for these tests."""

from service.explain.compose import explain_offline


def _gist(text: str) -> str:
    return " ".join(item["text"] for item in explain_offline(text, "en")["gist"])


def test_tldr_is_one_word_not_a_sentence_boundary():
    gist = _gist("TL;DR We cut step time by 30% on 64 H100s by overlapping the all-gather with compute. The rest explains how.")
    assert "DR we" not in gist and "DR We" not in gist and "30%" in gist


def test_a_section_label_is_not_a_speaker():
    gist = _gist("Problem: In our disaggregated serving setup, copying the KV cache through host memory adds 120 ms to every "
                 "request, which doubles the time to first token.")
    assert "Problem says" not in gist and "disaggregated" in gist


def test_a_list_number_is_dropped():
    gist = _gist("(2) As all-to-all traffic becomes the bottleneck at large expert-parallel sizes, we overlap it with the "
                 "shared expert's computation.")
    assert "(2)" not in gist


def test_a_notes_verb_gets_the_subject_its_item_named():
    text = ("Tensor Parallelism (TP): Splits each matrix across GPUs and needs an all-reduce per layer. "
            "Pipeline Parallelism (PP): Places groups of layers on different nodes. Tolerates slow networks well, but "
            "introduces pipeline bubbles that need many micro-batches to hide.")
    gist = _gist(text)
    assert "that tolerates" not in gist.lower()
