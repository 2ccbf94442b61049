"""A memory size that is the sum of an example set-up's chips ("5120GB ... 8x 8x A100 80GB" = 8 x 8 x 80 GB)."""

import re

from calculators import catalog
from service.explain.checks.core import Inputs, Result, discard, run
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_SIZE = ("bytes", "size_bytes", "memory_bytes", "hbm_bytes")
_CHIP_MEMORY = re.compile(r"(\d+(?:\.\d+)?)\s?GB\b", re.I)
_MORE = re.compile(r"(?<![\w.])(\d+)\s*[x×]\s*$")  # "8x " before "8x A100 80GB": nodes of the chips that follow


def setup_memory(doc: Document, claim: Claim) -> Result | None:
    """A size stated beside a set-up of counted chips with their memory ("1280GB 2x 8x A100 80GB"): equal to the chips'
    memory added up, it is that set-up's total (consistent); any other size is a requirement this check cannot judge."""
    chips = [f for f in claim.figures if f.quantity == "n_chips" and _CHIP_MEMORY.search(f.quote)]
    sizes = [f for f in claim.figures if f.quantity in _SIZE and not any(c.start <= f.start < c.end for c in chips)]
    if not chips and len(sizes) == 1:
        return _catalog_memory(doc, claim, sizes[0])
    if len(chips) != 1 or len(sizes) != 1:
        return None
    count, size = chips[0], sizes[0]
    per_chip = float(_CHIP_MEMORY.search(count.quote).group(1))
    factors = [f"{count.value:g}"]
    more = _MORE.search(doc.text[claim.start:count.start])
    if more:
        factors.insert(0, more.group(1))
    setup = " x ".join(factors[:-1] + [count.quote])
    return _added_up(doc, " * ".join(factors + [f"{per_chip:g}"]), setup, size, setup)  # in GB, as the set-up writes it


def _added_up(doc: Document, expression: str, quote: str, size, setup: str) -> Result | None:
    """The chips' memory added up (`expression`, in GB) against the stated size: consistent when equal, else nothing."""
    inputs = Inputs(doc.lang)
    inputs.expression(expression, quote)
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    total = doc.calculations[index]["outputs"]["value"] * 1e9
    if abs(total - size.value) > 0.02 * size.value:
        discard(doc, index)
        return None  # not the set-up's sum: a requirement of another kind, which this check does not judge
    return Result([index], "consistent", messages(doc.lang)["verdicts"]["setup_memory"].format(
        stated=size.quote, setup=setup, computed=f"{total / 1e9:,.0f} GB"))


_TOTAL = re.compile(r"\b(?:total|in all|combined|aggregate|altogether)\b|إجمالي|مجموع", re.I)


def _catalog_memory(doc: Document, claim: Claim, size) -> Result | None:
    """"An 8x H100 SXM5 server provides 640 GB total GPU memory": the count of one named chip times the catalog's memory per
    chip (8 x 80 GB), consistent when it is the stated total; anything else is not judged (the size may be another memory)."""
    counts = [f for f in claim.figures if f.quantity in ("n_chips", "chips_per_node") and getattr(f, "chip", None)]
    if len(counts) != 1 or not _TOTAL.search(claim.quote) or counts[0].value < 2:
        return None
    chip = catalog.hardware().get("hbm_bytes", counts[0].chip)
    per_chip = chip.get("hbm_bytes") if chip else None
    if not per_chip:
        return None
    return _added_up(doc, f"{counts[0].value:g} * {per_chip / 1e9:g}", f"{counts[0].quote} x {chip['name']}'s {per_chip / 1e9:g} GB",
                     size, f"{counts[0].value:g} x {per_chip / 1e9:g} GB ({chip['name']})")
