"""Scaling efficiency: a speed-up the text states for more chips or nodes, against the ideal of as many times the
hardware. "only 40% faster ... on three nodes" is 1.4 / 3 = 47% of linear scaling; "from 8 to 64 GPUs gave a 6.2x
speedup" is 6.2 / 8 = 78%. Only a speed-up said of the scale-up itself, with its baseline written (a single node, "from A
to B", a training distributed from one machine); more than the ideal is said as such, never as a finding of error."""

import re

from service.explain.checks.core import Result, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_COUNTS = ("n_nodes", "n_chips")
# "40% faster", "a 40% speed-up", "40% more throughput": a gain in speed, not in memory or cost
_FASTER_AFTER = re.compile(r"\s*(?:faster|quicker|speed-?ups?|more throughput|higher throughput)\b", re.I)
# the baseline of one machine, written or implied by distributing a run that ran on one
_ONE = re.compile(r"\b(?:single|one|1)[\s-]+(?:node|gpu|machine|server|device|host|card)\b|\bdistribut\w+\b", re.I)
_AGAINST_OTHER = re.compile(r"[^.;,()]{0,30}?\b(?:than|over|vs\.?|versus|compared)\b(?!\s+(?:the\s+)?(?:linear|ideal|expected)\b)", re.I)
# "3.9x more token throughput": a factor of speed, where the sentence also gives a factor of something else ("KV Cache
# blocks by 13.9x")
_SPEED_AFTER = re.compile(r"\s*(?:more\s+|higher\s+)?(?:\w+\s+)?(?:throughput|faster|quicker|speed-?ups?)\b", re.I)
# "2 GPUs instead of 1": the one-chip baseline written after the count
_INSTEAD_OF_ONE = re.compile(r"\s+(?:instead of|rather than|vs\.?|versus|compared (?:to|with))\s+(?:1|one|a single)\b(?![.,]\d)", re.I)
_NOT_HARDWARE = re.compile(r"\b(?:through|from|by|thanks to|via|with)\s+(?:\w+[\s-]+){0,2}(?:optimi[sz]ations?|kernels?|fusion|tuning|"
                           r"compil\w+|quantization|software)\b", re.I)
_FROM_TO = re.compile(r"\s*(?:to|→|->)\s*$")


def _speedup(doc: Document, claim: Claim):
    """(the figure, the speed-up as a factor) when the claim states exactly one gain in speed."""
    found = [(f, f.value) for f in claim.figures if f.quantity == "speedup" and f.value > 1]
    found += [(f, 1 + f.value) for f in claim.figures if f.quantity == "percent_change" and f.value > 0
              and _FASTER_AFTER.match(doc.text, f.end)]
    found = [(f, x) for f, x in found if not _AGAINST_OTHER.match(doc.text, f.end)]  # "50% faster than X's default EP"
    if len(found) > 1:  # "KV Cache blocks by 13.9x ... 3.9x more token throughput": the factor said of speed
        found = [(f, x) for f, x in found if _SPEED_AFTER.match(doc.text, f.end)]
    return found[0] if len(found) == 1 else None


def _scale(doc: Document, claim: Claim):
    """(factor, the counts as written, the count figure) of the hardware the speed-up was measured across."""
    for quantity in _COUNTS:
        counts = [f for f in claim.figures if f.quantity == quantity and f.value >= 1]
        if len(counts) == 2 and counts[0].value < counts[1].value and _FROM_TO.match(doc.text[counts[0].end:counts[1].start]):
            return counts[1].value / counts[0].value, counts
        if len(counts) == 1 and counts[0].value >= 2 and (_ONE.search(claim.quote) or _INSTEAD_OF_ONE.match(doc.text, counts[0].end)):
            return counts[0].value, counts
    return None


def scaling_efficiency(doc: Document, claim: Claim) -> Result | None:
    """A stated speed-up over a stated growth in chips or nodes, as a share of linear scaling."""
    speed, scale = _speedup(doc, claim), _scale(doc, claim)
    if speed is None or scale is None or scale[0] < 2:
        return None
    (figure, factor), (ideal, counts) = speed, scale
    if "\n" in doc.text[min(figure.start, counts[0].start):max(figure.end, counts[-1].end)]:
        return None  # "2.77x speed-up through kernel optimization" / "96% scaling efficiency from 128 → 1,024 GPUs": two list lines
    if _NOT_HARDWARE.search(doc.text[figure.end:figure.end + 80].split("\n")[0]):
        return None  # "a 2.77x speed-up through kernel-level optimization": a gain from software, not from more chips
    index = worked(doc, f"{factor:g} / {ideal:g}", f"{said(doc, figure)} / {' → '.join(said(doc, c) for c in counts)}")
    if index is None:
        return None
    share = doc.calculations[index]["outputs"]["value"]
    words = messages(doc.lang)["verdicts"]
    key = "scaling_superlinear" if share > 1.0 else "scaling_efficiency"
    return Result([index], None, words[key].format(speedup=f"{factor:.3g}", ideal=f"{ideal:g}", share=f"{100 * share:.0f}%"))
