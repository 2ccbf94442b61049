"""A transfer's time: an amount of data over a link or memory bandwidth, both stated in the sentence with the time it
takes ("Reading the 512 MB KV cache at 3.35 TB/s takes ...": 512 MB / 3.35 TB/s = 0.153 ms). Faster than the link
allows is impossible (inconsistent); slower is what other work adds, said as how many times the transfer alone. With
no bandwidth stated, the rate the size and time ask for is said ("3.4 GB in under a millisecond" needs 3.4 TB/s)."""

import re

from calculators import catalog
from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Result, compare, discard, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_MOVES = re.compile(r"\b(?:read\w*|load\w*|mov\w*|cop(?:y|ies|ied|ying)|transfer\w*|send\w*|sent|stream\w*|fetch\w*|download\w*|"
                    r"upload\w*|writ\w*|wrote|sav\w*|offload\w*|swap\w*|synchroni[sz]\w*|sync|communicat\w*|all-?reduc\w*|exchang\w*)\b"
                    r"|نقل|قراءة|تحميل|تنزيل|كتابة|حفظ|مزامنة|تبادل", re.I)
_CAPACITY_AFTER = re.compile(r"\s*(?:available|free|left)\b|\s*(?:متاحة|متاح|متوفرة|حرة)", re.I)
_SIZES = ("bytes", "size_bytes", "memory_bytes", "weights_bytes", "hbm_bytes", "activation_bytes", "gradient_bytes")
_BELOW = 0.8  # a time under 80% of the transfer alone is faster than the stated bandwidth allows, rounding included
_COUNT_WORD = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
_OTHER_WORK = 20  # up to this many times the transfer, the rest is other work; beyond, the two are not one transfer


def transfer_time(doc: Document, claim: Claim) -> Result | None:
    """One size, one bandwidth and one time in a sentence that moves data: time against size / bandwidth."""
    if not _MOVES.search(claim.quote):
        return None
    sizes = [f for f in claim.figures if f.quantity in _SIZES and f.value > 0] or _referred_size(doc, claim)
    rates = [f for f in claim.figures if verdicts.kind(f.quantity) == "bandwidth" and f.value > 0]
    times = [f for f in claim.figures if f.quantity in ("time_s", "step_time_s", "latency_s") and f.value > 0]
    if len(sizes) != 1 or len(rates) != 1 or len(times) != 1:
        return None  # which amount crosses which link is not read when there are several
    size, rate, time = sizes[0], rates[0], times[0]
    index = worked(doc, f"{size.value:g} / {rate.value:g}", f"{size.quote} / {rate.quote}", "seconds")
    if index is None:
        return None
    alone = doc.calculations[index]["outputs"]["value"]
    words = messages(doc.lang)["verdicts"]
    stated = said(doc, time) if restate.same_language(time.quote, doc.lang) else restate.value("time_s", time.value)
    shown = {"size": said(doc, size), "rate": said(doc, rate), "alone": restate.value("time_s", alone), "stated": stated}
    factor = time.value / alone
    if any(abs(factor / scale - 1) < 0.15 or abs(factor * scale - 1) < 0.15 for scale in (1e3, 1e6)):
        return Result([index], "needs_more", words["transfer_unit_slip"].format(**shown))  # "149.25 ms" for 0.153 ms
    result = compare(doc, time, alone, "time_s", [index])
    if result.verdict == "consistent":
        return Result([index], "consistent", words["transfer_time"].format(**shown))
    if time.value < _BELOW * alone:
        return Result([index], "inconsistent", words["transfer_too_fast"].format(**shown))
    whole = round(factor)
    if whole >= 2 and abs(factor / whole - 1) < 0.05:  # "30 ms to send the gradients from all 3 remaining GPUs": 3 transfers
        counted = any(f.value == whole for f in claim.figures if f is not time) or _COUNT_WORD.get(whole, "\0") in claim.quote.lower()
        return Result([index], "consistent" if counted else None,
                      words["transfer_repeated" if counted else "transfer_times"].format(**shown, times=f"{whole}"))
    if alone < time.value <= _OTHER_WORK * alone:
        return Result([index], None, words["transfer_and_more"].format(**shown, times=f"{factor:.2g}"))
    discard(doc, index)
    return None


# "that transfer alone takes 56 seconds": the amount moved is the one the sentence before stated
_REFERS_BACK = re.compile(r"\b(?:that|this|the)\s+(?:transfer|data|amount|traffic|exchange|payload|copy|volume|sync\w*)\b"
                          r"|\b(?:moving|sending|transferring|reading|copying|syncing|synchroni[sz]ing)\s+(?:it|that|this|them)\b"
                          r"|\b(?:these|such|those)\s+(?:magnitudes|sizes|volumes|amounts)\b|\bthis much data\b", re.I)


def _referred_size(doc: Document, claim: Claim) -> list:
    """The one amount of data the sentence before states, when this sentence moves "that transfer" without a size."""
    if not _REFERS_BACK.search(claim.quote):
        return []
    before = [(a, b) for a, b in doc.sentences if b <= claim.start]
    if not before:
        return []
    start, end = before[-1]
    sizes = [f for f in doc.figures if start <= f.start < end and f.quantity in _SIZES and f.value > 0]
    return sizes if len(sizes) == 1 else []


def implied_rate(doc: Document, claim: Claim) -> Result | None:
    """One size and one time in a sentence that moves data, with no bandwidth: the rate they need, said, never judged
    (which link carries it the sentence does not say); a time written as a ceiling makes the rate a floor."""
    if not _MOVES.search(claim.quote) or any(verdicts.kind(f.quantity) == "bandwidth" for f in claim.figures):
        return None
    sizes = [f for f in claim.figures if f.quantity in _SIZES and f.value > 0]
    times = [f for f in claim.figures if f.quantity in ("time_s", "latency_s") and f.value > 0]
    if len(sizes) != 1 or len(times) != 1 or _CAPACITY_AFTER.match(doc.text, sizes[0].end):
        return None  # "against ~780 GB available ... within a minute": room to hold data, not data moved in that time
    size, time = sizes[0], times[0]
    if _HELD_BEFORE.search(doc.text, max(0, size.start - 30), size.start) or _HELD_AFTER.match(doc.text, size.end):
        return None  # "pins ~10 GiB extra memory ... and adds ~30 s to the first sync": memory held, not data moved (round 61 P20)
    index = worked(doc, f"{size.value:g} / {time.value:g}", f"{size.quote} / {time.quote}", "bytes_per_s")
    if index is None:
        return None
    rate = doc.calculations[index]["outputs"]["value"]
    if not verdicts.possible("bandwidth_bytes_per_s", rate):
        discard(doc, index)
        return None
    ceiling = verdicts.stated_bound(doc.text[max(0, time.start - 24):time.start])
    words = messages(doc.lang)["verdicts"]
    key = "implied_rate_floor" if ceiling and ceiling[0] == "less" else "implied_rate"
    seconds = restate.value("time_s", time.value)
    shown = said(doc, time) if restate.same_language(time.quote, doc.lang) else seconds  # no "a millisecond" in Arabic
    why = words[key].format(size=said(doc, size), time=shown, seconds=seconds,
                           rate=restate.value("bandwidth_bytes_per_s", rate))
    fastest = _fastest_link()
    if _BETWEEN_CHIPS.search(claim.quote) and rate > fastest[1]:
        why += words["implied_rate_beyond_links"].format(link=fastest[0], rate=restate.value("bandwidth_bytes_per_s", fastest[1]))
    return Result([index], None, why)


_HELD_BEFORE = re.compile(r"\b(?:pins?|pinned|holds?|held|uses?|used|occup\w*|allocat\w*|reserv\w*|consum\w*|takes? up)\s+(?:about\s+|~\s*)?$", re.I)
_HELD_AFTER = re.compile(r"\s*(?:of\s+)?(?:extra\s+|more\s+|additional\s+|less\s+)?(?:GPU\s+)?(?:memory|VRAM|HBM|RAM)\b", re.I)
# gradients synchronised or sent between chips cross a chip-to-chip link; a read or a load may be from memory
_BETWEEN_CHIPS = re.compile(r"\b(?:synchroni[sz]\w*|sync|communicat\w*|all-?reduc\w*|exchang\w*|send\w*|sent)\b|مزامنة|تبادل", re.I)


def _fastest_link() -> tuple[str, float]:
    """The fastest chip-to-chip link of the hardware catalog, one way per chip: (its name, bytes/s)."""
    chip = max(catalog.hardware().entries, key=lambda c: (c.get("scale_up") or {}).get("bandwidth_bytes_per_s") or 0)
    return chip["scale_up"]["name"].split(" through ")[0].split(" (")[0], chip["scale_up"]["bandwidth_bytes_per_s"]


def _rate_after(doc: Document, claim: Claim) -> list:
    """The one bandwidth of the next sentence when it refers back to this one's amount ("At these magnitudes, even
    400G InfiniBand ..."), and no time is stated there either."""
    after = [(a, b) for a, b in doc.sentences if a >= claim.end][:1]
    if not after or not _REFERS_BACK.search(doc.text[after[0][0]:after[0][1]]):
        return []
    figures = [f for f in doc.figures if after[0][0] <= f.start < after[0][1]]
    if any(f.quantity in ("time_s", "step_time_s", "latency_s") for f in figures):
        return []
    rates = [f for f in figures if verdicts.kind(f.quantity) == "bandwidth" and f.value > 0]
    return rates if len(rates) == 1 else []


def transfer_needed(doc: Document, claim: Claim) -> Result | None:
    """One amount of data and one link or memory bandwidth, and no time: how long the amount takes at that speed at
    best ("350GB of gradients per step ... 400G InfiniBand": at least 7 s a step), said, never judged. The amount may be
    the one the sentence before states ("At these magnitudes, even 400G InfiniBand ...")."""
    if any(f.quantity in ("time_s", "step_time_s", "latency_s") for f in claim.figures):
        return None
    sizes = [f for f in claim.figures if f.quantity in _SIZES and f.value > 0] or _referred_size(doc, claim)
    rates = [f for f in claim.figures if verdicts.kind(f.quantity) == "bandwidth" and f.value > 0] or _rate_after(doc, claim)
    if len(sizes) != 1 or len(rates) != 1 or not (_MOVES.search(claim.quote) or _REFERS_BACK.search(claim.quote)):
        return None
    size, rate = sizes[0], rates[0]
    index = worked(doc, f"{size.value:g} / {rate.value:g}", f"{size.quote} / {rate.quote}", "seconds")
    if index is None:
        return None
    alone = doc.calculations[index]["outputs"]["value"]
    words = messages(doc.lang)["verdicts"]
    shown = {"size": said(doc, size), "rate": said(doc, rate), "alone": restate.value("time_s", alone)}
    capped = [f for f in claim.figures if f.quantity in ("tokens_per_s", "tokens_per_s_per_chip") and f.value > 0]
    if len(capped) == 1 and alone > 0 and _TOKEN_CAP.search(claim.quote):
        # "a 70 GB model at 8 TB/s caps out at ~115 tokens/sec": one read of the weights per token, 1 / 8.75 ms = 114
        cap = worked(doc, f"1 / {alone:g}", f"1 / {restate.value('time_s', alone)}")
        if cap is not None:
            rate_cap = doc.calculations[cap]["outputs"]["value"]
            key = "token_cap" if abs(rate_cap / capped[0].value - 1) <= TOKEN_CAP_TOLERANCE else "token_cap_gap"
            return Result([index, cap], "consistent" if key == "token_cap" else None,
                          words[key].format(**shown, cap=f"{rate_cap:,.0f}", stated=said(doc, capped[0])))
    return Result([index], None, words["transfer_needed"].format(**shown))


_TOKEN_CAP = re.compile(r"\bcaps?\b|\bcapped\b|\bat most\b|\bupper bound\b|\bceiling\b|\bmax(?:imum)?\b|\blimit\w*|\bbound\b"
                        r"|\bper (?:GPU )?stream\b|\bdecod\w*", re.I)
TOKEN_CAP_TOLERANCE = 0.05  # "~115 tokens/sec" for 114.3: rounding and "about"
