"""A TPU slice's memory the sentence states in "GB" that is the catalog's total in GiB ("v4-8, which has only 128GB":
4 chips x 32 GiB = 128 GiB, which is 137.4 GB): the unit said, because the two differ by 7% and a fit turns on it."""

from service.explain.checks import verdicts
from service.explain.checks.core import Result, said
from service.explain.checks.names import slices
from service.explain.document import Claim, Document
from service.i18n.messages import messages

GIB = 2 ** 30
_MATCH = 0.005  # the stated number and the GiB total agree to half a percent; the GB reading is then 7.4% off


def slice_memory(doc: Document, claim: Claim) -> Result | None:
    """One slice named and one memory stated in the sentence: when chips x the chip's memory is the stated number in GiB
    and not in GB, both readings said in words (the chip's memory from the catalog)."""
    named = slices(claim.quote)
    sizes = [f for f in claim.figures if verdicts.kind(f.quantity) == "memory" and f.value > 0 and "GiB" not in f.quote]
    if len(named) != 1 or len(sizes) != 1:
        return None
    s, size = named[0], sizes[0]
    per_chip = s.chip.get("hbm_bytes")
    if not per_chip:
        return None
    total = s.chips * per_chip
    in_gb = size.value / 1e9
    if abs(total / GIB - in_gb) > _MATCH * in_gb or abs(total - size.value) <= _MATCH * size.value:
        return None  # the stated number is not this slice's GiB total, or it is already its GB total
    # said in words, as the slice name's reading is: the chips come from the name, the memory from the catalog
    return Result([], None, messages(doc.lang)["verdicts"]["slice_memory"].format(
        name=s.quote, chips=s.chips, per=f"{per_chip / GIB:g}", gib=f"{total / GIB:g}", gb=f"{total / 1e9:.1f}",
        stated=said(doc, size)))
