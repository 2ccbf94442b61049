"""A measured memory bandwidth beside the share of the chip's peak the text says it is ("2.2 TB/s, 68% of peak memory
bandwidth"): the rate over the named chip's memory bandwidth (data/hardware.json) against the stated share, or, with no
chip named, the peak that share implies and the catalog chips whose memory bandwidth it is."""

import re

from calculators import catalog

from service.explain import restate
from service.explain.checks.core import Inputs, Result, chips, compare, run, worked
from service.explain.document import Claim, Document
from service.i18n.messages import join_names, messages

_RATES = ("bandwidth_bytes_per_s", "memory_bandwidth_bytes_per_s")
_SHARES = ("hfu", "fraction", "percent")
# "of peak memory bandwidth", "of the theoretical HBM b/w", "of DRAM bandwidth peak": the share is of the memory's peak,
# not of a link's (NVLink, PCIe, a NIC's line rate have checks of their own)
_OF_MEMORY_PEAK = re.compile(r"\b(?:peak|theoretical|max(?:imum)?|spec(?:ified)?|advertised)\b[^.;]{0,25}?\b(?:memory|HBM\w*|DRAM|mem)\b"
                             r"[^.;]{0,12}?\b(?:bandwidth|b/w|BW)\b|\b(?:memory|HBM\w*|DRAM)\s+(?:bandwidth|b/w|BW)\b[^.;]{0,12}?"
                             r"\b(?:peak|theoretical|max(?:imum)?)\b|(?:ذروة|الذروة|القصوى|النظري)[^.؛]{0,25}(?:الذاكرة|HBM)", re.I)
MATCH_WITHIN = 0.05  # an implied peak names the catalog chips whose memory bandwidth it is within 5% of


def achieved_bandwidth(doc: Document, claim: Claim) -> Result | None:
    """"2.2 TB/s on an H100, 68% of peak memory bandwidth": 2.2 / 3.35 TB/s = 65.7%, against the 68% stated (verdict by
    data/verdicts.json, like achieved_rate for compute); with no chip named, 2.2 / 0.68 = 3.24 TB/s, the H100 SXM's."""
    stated = next((f for f in claim.figures if f.quantity in _SHARES and 0 < f.value <= 1), None)
    rates = [f for f in claim.figures if f.quantity in _RATES]
    if stated is None or len(rates) != 1 or not _OF_MEMORY_PEAK.search(claim.quote):
        return None
    rate = rates[0]
    found = [c for c in chips(doc, claim) if not doc.named_only_generically(c) and c.get("memory_bandwidth_bytes_per_s")]
    if len(found) > 1:
        return None  # two chips: no telling whose peak the share is of
    if not found:
        return _implied(doc, rate, stated)
    chip = found[0]
    peak = chip["memory_bandwidth_bytes_per_s"]
    inputs = Inputs(doc.lang)
    inputs.text_with("expression", f"{rate.value / 1e12:g} TB/s / {peak / 1e12:g} TB/s", rate.quote,
                     f"{chip['name']} memory bandwidth ({peak / 1e12:g} TB/s, data/hardware.json)")
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    return compare(doc, stated, doc.calculations[index]["outputs"]["value"], "mfu", [index])


def _implied(doc: Document, rate, stated) -> Result | None:
    """The peak the share implies (rate / share) and the catalog chips with that memory bandwidth, said in words."""
    index = worked(doc, f"{rate.value / 1e12:g} TB/s / {stated.value:g}", f"{rate.quote} / {stated.quote}", "bytes_per_s")
    if index is None:
        return None
    peak = doc.calculations[index]["outputs"]["value"]
    names = list(dict.fromkeys(re.sub(r"^(?:NVIDIA|Google|AMD)\s+", "", c["name"]) for c in catalog.hardware().entries
                               if c.get("memory_bandwidth_bytes_per_s")
                               and abs(c["memory_bandwidth_bytes_per_s"] - peak) <= MATCH_WITHIN * peak))
    m = messages(doc.lang)["verdicts"]
    shown = restate.value("bandwidth_bytes_per_s", peak)
    if names:
        why = m["implied_memory_peak_chip"].format(rate=rate.quote, share=stated.quote, peak=shown, chips=join_names(names[:3], doc.lang))
    else:
        why = m["implied_memory_peak"].format(rate=rate.quote, share=stated.quote, peak=shown)
    return Result([index], None, why)
