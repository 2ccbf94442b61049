"""A TPU slice's memory stated in "GB" that is the catalog's total in GiB: both readings said.

The sentences are written for these tests; the chip memories are data/hardware.json's (TPU v4: 32 GiB HBM per chip,
Google Cloud TPU v4 docs)."""

from service.explain.pipeline import analyse


def _whys(text: str) -> str:
    return " ".join(c.why for c in analyse(text, "en").claims)


def test_a_slice_memory_in_gib_written_as_gb_is_said_in_both_units():
    # v4-16 = 8 chips x 32 GiB = 256 GiB = 274.9 GB; the text writes "256GB"
    whys = _whys("We trained the model on a v4-16, which has only 256GB.")
    assert "256 GiB" in whys and "274.9 GB" in whys


def test_a_memory_that_is_not_the_slice_total_is_left_alone():
    # 8 x 32 GiB = 256 GiB: a stated 100GB is something else (a budget, a model), not the slice's memory
    whys = _whys("We trained the model on a v4-16, which has only 100GB.")
    assert "8 chips" in whys and "GiB" not in whys
