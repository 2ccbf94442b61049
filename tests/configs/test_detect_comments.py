"""A pasted configuration line keeps its kind when a comment of words follows it (MaxText's base.yml style)."""

from service.configs import detect

# Written for this test in the style of MaxText's base.yml (axis: value  # comment).
TEXT = """Use these sharding settings on one slice.

ici_data_parallelism: 1
ici_fsdp_parallelism: -1 # recommended ICI axis to be auto-sharded
ici_tensor_parallelism: 1
"""


def test_a_line_with_a_comment_of_words_stays_in_its_block():
    found = detect.blocks(TEXT)
    assert len(found) == 1
    assert "ici_fsdp_parallelism: -1" in found[0].text and "ici_tensor_parallelism" in found[0].text


def test_a_sentence_is_still_prose():
    assert detect._line_kind("Use these sharding settings on one slice.") is None
