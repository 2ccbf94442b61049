"""Bandwidth in one direction or both: a link figure that counts both directions set against a measurement of one,
and a share the text states beside a measured bandwidth ("235GBps (40%)") redone from its two figures."""

import re

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Inputs, Result, chips, run, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_RATES = ("bandwidth_bytes_per_s", "bus_bandwidth_bytes_per_s", "busbw_bytes_per_s", "algbw_bytes_per_s")
_SHARES = ("percent", "fraction", "utilization")
# words beside a figure that say it counts both directions, or one
_BOTH = re.compile(r"\bboth directions\b|\bbi-?directional\b|\bduplex\b|\bsum of (?:the )?two directions\b"
                   r"|\bin total\b|الاتجاهين|ثنائي(?:ة)? الاتجاه", re.I)
_ONE = re.compile(r"\b(?:each|per|one|a single|every) direction\b|\buni-?directional\b|\bone-way\b|\bsimplex\b"
                  r"|كل اتجاه|اتجاه واحد|أحادي(?:ة)? الاتجاه", re.I)
_MEASURED = re.compile(r"\bmeasur\w*|\bgot\b|\bget\b|\bachiev\w*|\bobserv\w*|\bbenchmark\w*|\bbusbw\b|\balgbw\b"
                       r"|قس\w*|قياس|حصل\w*|نحصل", re.I)
_NEAR = 48  # characters around a figure its direction words may stand in
_VERSUS = re.compile(r"\b(?:vs\.?|versus|compared (?:to|with))(?!\w)|مقابل|مقارنة ب", re.I)
# a share written right after a figure: "235GBps (40%)", "396.40GBps ... 450GBps spec, or 88%"
_SHARE_AFTER = re.compile(r"^\s*(?:\(\s*|,\s*(?:or|i\.e\.|that is|which is)\s+|=\s*|أي\s+)(?:about\s+|~\s*|≈\s*)?$", re.I)
_POINT = re.compile(r"%|\?|\bonly\b|\bexpect\w*|\bsaturat\w*|\bspec\w*\b|\badvertised\b|\btheoretical\b|\bwire\b|فقط|المتوقع", re.I)


def _said(fig) -> str:
    """A figure as the text writes it, with its unit when the text left it to the sentence ("480/900")."""
    return fig.quote if re.search(r"[^\d\s.,]", fig.quote) else restate.value("bandwidth_bytes_per_s", fig.value)


def _rates(figures) -> list:
    return [f for f in figures if f.quantity in _RATES and f.value > 0]


def _near(doc: Document, fig, pattern: re.Pattern) -> bool:
    """Whether direction words stand beside a figure, in its own clause."""
    before = re.split(r"[.;!?\n]|,\s+(?:while|whereas|but|and)\b|،", doc.text[max(0, fig.start - _NEAR):fig.start])[-1]
    after = re.split(r"[.;!?\n,]", doc.text[fig.end:fig.end + _NEAR])[0]
    return bool(pattern.search(before) or pattern.search(after))


def _both_from_text(doc: Document, claim: Claim):
    """A bandwidth the text says counts both directions ("900 GB/s is the sum of both directions"), in the claim or before it."""
    pool = _rates(claim.figures) + [f for f in _rates(doc.figures) if f.end <= claim.start]
    return next((f for f in pool if _near(doc, f, _BOTH) and not _near(doc, f, _ONE)), None)


def _both_from_catalog(doc: Document, claim: Claim):
    """A bandwidth of the claim equal to twice the named chip's one-way scale-up figure (data/hardware.json), with the chip."""
    found = [c for c in chips(doc, claim) if not doc.named_only_generically(c)]
    if len(found) != 1:
        return None, None
    link = found[0].get("scale_up") or {}
    one_way = link.get("bandwidth_bytes_per_s")
    if not one_way or "both directions" not in (link.get("direction") or ""):
        return None, None
    fig = next((f for f in _rates(claim.figures) if abs(f.value - 2 * one_way) <= 0.01 * f.value and not _near(doc, f, _ONE)), None)
    return fig, (found[0] if fig is not None else None)


def _share(doc: Document, part, whole, quote: str | None = None) -> int | None:
    """The arithmetic of one bandwidth over another, both as the text writes them."""
    inputs = Inputs(doc.lang)
    inputs.expression(f"{part.value / 1e9:g} GB/s / {whole / 1e9:g} GB/s", quote or f"{part.quote} / {restate.value('bandwidth_bytes_per_s', whole)}")
    return run(doc, "arithmetic", inputs)


def _stated_after(doc: Document, claim: Claim, fig):
    """The share the text writes right after a figure ("235GBps (40%)"), or None."""
    return next((s for s in claim.figures if s.quantity in _SHARES and s.start > fig.end
                 and _SHARE_AFTER.match(doc.text[fig.end:s.start])), None)


_ENDS = ("low", "high")


def _ranged_share(doc: Document, claim: Claim, own: list, fig):
    """"201 to 214 GB/s (74 to 78% of the 273 GB/s peak)": a range's end takes the share range's same end."""
    high = fig if fig.role == "high" else next((g for g in own if g.role == "high" and g.start > fig.end), None)
    first = _stated_after(doc, claim, high) if high is not None else None
    if first is None or first.role != "low":
        return _stated_after(doc, claim, fig) if fig.role == "high" else None
    return first if fig.role == "low" else next(
        (s for s in claim.figures if s.quantity in _SHARES and s.role == "high" and s.start > first.end), None)


_EACH_PART = re.compile(r"\b(?:each|every|per|a single|one)\s+(?:NVLink\s+)?(?:lane|link|port|channel|plane)s?\b[^.;]{0,30}$", re.I)


def directions(doc: Document, claim: Claim) -> Result | None:
    """"900 GB/s is the sum of both directions ... 370GB/s in each direction": 900 / 2 = 450 GB/s one way, and 370 is 82% of
    it; a share the text writes beside a measured bandwidth ("235GBps (40%)" of "600GBps") is redone from the two."""
    own = _rates(claim.figures)
    if not own:
        return None
    m = messages(doc.lang)["verdicts"]
    both, chip = _both_from_text(doc, claim), None
    if both is not None and both not in claim.figures and not (_POINT.search(claim.quote) or _MEASURED.search(claim.quote)):
        both = None  # "NVLink 3.0 ... 600 GB/s in total" after NVLink 5's 1.8 TB/s: another link's capacity, not a measurement of it
    if both is None and _POINT.search(claim.quote):
        both, chip = _both_from_catalog(doc, claim)
    calculations, reasons, verdict = [], [], None
    # shares the text writes beside a measured figure, against the larger like figure of the same sentence
    for fig in own:
        stated = _ranged_share(doc, claim, own, fig) if fig.role in _ENDS else _stated_after(doc, claim, fig)
        whole = next((g for g in reversed(own) if g.start < fig.start and g.value > fig.value and g.role not in _ENDS), None) or \
            next((g for g in own if g.start > fig.end and g.value > fig.value and g.role not in _ENDS), None)
        if stated is None or whole is None:
            continue
        index = _share(doc, fig, whole.value, f"{fig.quote} / {whole.quote}")
        if index is None:
            continue
        value = doc.calculations[index]["outputs"]["value"]
        agrees = verdicts.agrees(stated.value, value, getattr(stated, "approx", False))
        calculations.append(index)
        reasons.append(m["consistent" if agrees else "inconsistent"].format(stated=stated.quote, computed=restate.value("mfu", value)))
        verdict = "inconsistent" if not agrees or verdict == "inconsistent" else "consistent"
    if both is not None:
        half = both.value / 2
        mixed = _factor_across_directions(doc, claim, both)
        if mixed is not None:
            return mixed
        measured = [f for f in own if f is not both and abs(f.value - half) > 0.01 * half and f.value < both.value
                    and not (_VERSUS.search(doc.text, min(both.end, f.end), max(both.start, f.start))
                             and not _ONE.search(doc.text, f.end, f.end + _NEAR))  # "900 GB/s ... vs. PCIe 5.0's 128 GB/s": another link
                    and not _EACH_PART.search(doc.text, max(0, f.start - 40), f.start)]  # "each lane carrying 100 GB/s": a part of the total
        stated_half = next((f for f in _rates(doc.figures) if abs(f.value - half) <= 0.01 * half), None)
        if any(f.value > half for f in measured[:2]):
            measured = []  # "30-40 GB/s" against 64 GB/s both ways: above one direction's 32, so not a one-way figure
        for fig in measured[:2]:
            index = _share(doc, fig, half, f"{fig.quote} / ({both.quote} / 2)")
            if index is None:
                continue
            value = doc.calculations[index]["outputs"]["value"]
            if not verdicts.possible("bandwidth", value):
                continue
            calculations.append(index)
            shown = restate.value("mfu", value)
            if chip is not None and stated_half is None:
                source = re.split(r" \(|, http| \[", (chip.get("sources") or {}).get("scale_up", "data/hardware.json"))[0]
                reasons.append(m["duplex_catalog"].format(total=_said(both), chip=re.sub(r"^(?:NVIDIA|Google|AMD)\s+", "", chip["name"]),
                                                         half=restate.value("bandwidth_bytes_per_s", half), source=source,
                                                         measured=_said(fig), share=shown))
            else:
                reasons.append(m["duplex_text"].format(total=_said(both), half=stated_half.quote if stated_half is not None
                                                       else restate.value("bandwidth_bytes_per_s", half), measured=_said(fig), share=shown))
            stated = next((s for s in claim.figures if s.quantity in _SHARES and s.start > fig.end
                           and not _SHARE_AFTER.match(doc.text[fig.end:s.start]) and abs(s.value - value) <= 0.1 * value), None)
            if stated is not None:  # "... which is 300GBps, and then I get 80%": the text's own share of one direction
                verdict = verdict or "consistent"
                reasons[-1] += "; " + m["consistent"].format(stated=stated.quote, computed=shown)
    if not calculations:
        return None
    return Result(calculations, verdict, "; ".join(r for r in reasons if r))



def counts_both(doc: Document, fig) -> bool:
    """Whether the text says a bandwidth counts both directions ("900 GB/s of total bidirectional bandwidth")."""
    return fig.quantity in _RATES and _near(doc, fig, _BOTH) and not _near(doc, fig, _ONE)


def counts_one(doc: Document, fig) -> bool:
    """Whether the text says a bandwidth is one direction's ("64 GB/s in each direction")."""
    return fig.quantity in _RATES and _near(doc, fig, _ONE)


def mixed_directions(doc: Document, a, b) -> bool:
    """Whether two bandwidths count different directions: one said to count both, the other one ("each direction")."""
    if a.quantity not in _RATES or b.quantity not in _RATES:
        return False
    both_a, both_b = _near(doc, a, _BOTH) and not _near(doc, a, _ONE), _near(doc, b, _BOTH) and not _near(doc, b, _ONE)
    return both_a and _near(doc, b, _ONE) or both_b and _near(doc, a, _ONE)


def _factor_across_directions(doc: Document, claim: Claim, both) -> Result | None:
    """"64 GB/s in each direction ... 900 GB/s bidirectional (about 14x faster)": the one factor the sentence states is
    the ratio of a both-directions figure to a one-direction one; like for like it is half that (7x): inconsistent, and
    a factor that already compares one direction with one (7x) consistent, where the raw ratio would call it wrong."""
    factors = list(verdicts.STATED_FACTOR.finditer(claim.quote))
    others = [f for f in _rates(claim.figures) if f is not both and f.value < both.value and _near(doc, f, _ONE)]
    if len(factors) != 1 or len(others) != 1:
        return None
    other, stated = others[0], float(factors[0].group("f"))
    raw, like = both.value / other.value, both.value / 2 / other.value
    fair = abs(like - stated) <= 0.05 * stated  # "(about 7x faster)": one direction against one, as it should
    if not fair and abs(raw - stated) > 0.05 * stated:
        return None  # the factor is neither ratio: it may be about something else
    index = worked(doc, f"{both.value / 2e9:g} GB/s / {other.value / 1e9:g} GB/s", f"({both.quote} / 2) / {other.quote}")
    if index is None:
        return None
    return Result([index], "consistent" if fair else "inconsistent", messages(doc.lang)["verdicts"]["factor_directions"].format(
        stated=factors[0].group(0).strip(), total=_said(both), other=_said(other),
        half=restate.value("bandwidth_bytes_per_s", both.value / 2), computed=f"{like:.2f}".rstrip("0").rstrip(".")))


_BITS = re.compile(r"b(?:/s|ps|it/s)$")
# the measurement's own words say it is one link's: "(per rail ~27 GB/s)" (not "1 rail ... 13.1 GB/s (send + recv)")
# "44.37 GB/s (RDMA)": a kernel's bandwidth over the network adapter, one GPU's own (DeepEP's test prints it per rank)
_RDMA_AFTER = re.compile(r"\s*\((?:RDMA|IB|InfiniBand|RoCE)\)", re.I)
_LINE_RATE_SAID = re.compile(r"\bline[- ]rate\b|\bwire[- ]speed\b|معدل الخط|سرعة الخط", re.I)
# "46-48GB/s per NIC", "27 GB/s/port": the words after the measurement say it is one link's
_ONE_LINK_AFTER = re.compile(r"\s*(?:per|/|for each|on each|each)\s*(?:rail|NIC|port|link|HCA|adapter)\b|\s*لكل (?:منفذ|رابط|بطاقة)", re.I)
_ONE_LINK = re.compile(r"\bper[- ](?:rail|NIC|port|link|HCA)\W{0,3}(?:~|≈|about\s+)?\s*$|لكل (?:منفذ|رابط)\W{0,3}$", re.I)


def line_rate(doc: Document, claim: Claim) -> Result | None:
    """"8x ConnectX-7 400 Gb/s ... (per rail ~27 GB/s)": the link's rate in bits over 8 is 50 GB/s, and the measurement
    of one link is 54% of it; only when the text gives one link rate, in bits, and the measurement says it is one link's."""
    lines = [f for f in doc.figures if f.quantity in _RATES and f.unit and _BITS.search(f.unit)]
    if len({f.value for f in lines}) != 1:
        return None
    line = lines[0]
    said_line = _LINE_RATE_SAID.search(claim.quote)  # "47 GB/s, which is consistent with the hardware's line rate"
    in_bytes = [f for f in _rates(claim.figures) if f is not line and not (f.unit and _BITS.search(f.unit)) and f.value < line.value]
    ends = [f for f in in_bytes if f.role in _ENDS]
    if len(ends) == 2 and len(in_bytes) == 2 and ends[0].role == "low" and _one_link(doc, claim, ends[0], ends[1].end, said_line):
        return _range_of_line(doc, ends[0], ends[1], line)  # "For NDR @ 400Gbps you should see 46-48GB/s per NIC"
    measured = [f for f in in_bytes if _one_link(doc, claim, f, f.end, said_line)]
    if len(measured) != 1:
        return None
    return _share_of_line(doc, measured[0], line, "line_rate")


def _one_link(doc: Document, claim: Claim, fig, end: int, said_line) -> bool:
    """Whether the text says a measurement is one link's: "per rail ~27 GB/s", "47 GB/s per NIC", "(RDMA)" after it."""
    return bool(_ONE_LINK.search(doc.text[max(claim.start, fig.start - 24):fig.start]) or _ONE_LINK_AFTER.match(doc.text, end)
                or _RDMA_AFTER.match(doc.text, end) or said_line)


def _range_of_line(doc: Document, low, high, line) -> Result | None:
    """A measured range as shares of one link's rate: 46-48 GB/s of 400 Gbps / 8 = 50 GB/s is 92% to 96% (no verdict)."""
    indices = [_share(doc, fig, line.value, f"{fig.quote} / ({line.quote} / 8)") for fig in (low, high)]
    if None in indices:
        return None
    m = messages(doc.lang)["verdicts"]
    shares = [restate.value("mfu", doc.calculations[i]["outputs"]["value"]) for i in indices]
    measured = doc.text[low.start:high.end]
    return Result(indices, None, m["line_rate"].format(line=line.quote, bytes=restate.value("bandwidth_bytes_per_s", line.value),
                                                       measured=measured, share=m["steps_time_range"].format(low=shares[0], high=shares[1])))


_LINKS_TIMES = re.compile(r"^\s*\d+\s*[x×]\s*\d")  # "8x200Gbit/s": eight links of a rate, read as their total


def line_rate_total(doc: Document, claim: Claim) -> Result | None:
    """"8x200Gbit/s IB cards and we measure 192GB/s AllReduce BusBW": the links' total in bits over 8 is 200 GB/s, and the
    one measurement in bytes of the same sentence is 96% of it (said, no verdict); only with one such total and one measure."""
    totals = [f for f in _rates(claim.figures) if f.unit and _BITS.search(f.unit) and _LINKS_TIMES.match(f.quote)]
    measured = [f for f in _rates(claim.figures) if not (f.unit and _BITS.search(f.unit))]
    restated = [f for f in measured if totals and abs(f.value - totals[0].value) <= 0.005 * totals[0].value]
    if len(totals) == 1 and len(measured) == 2 and len(restated) == 1:
        measured = [f for f in measured if f is not restated[0]]  # "190 GB/s out of the 400 GB/s (ie, 8×400 Gbps)"
    if len(totals) != 1 or len(measured) != 1 or measured[0].value >= totals[0].value:
        return None
    result = _share_of_line(doc, measured[0], totals[0], "line_rate_total")
    if result is not None and restated and restated[0] is not measured[0]:  # the text's own conversion holds: said so
        share = restate.value("mfu", doc.calculations[result.calculations[0]]["outputs"]["value"])
        return Result(result.calculations, "consistent", messages(doc.lang)["verdicts"]["line_rate_restated"].format(
            bytes=restated[0].quote, line=totals[0].quote, measured=measured[0].quote, share=share))
    return result


def _share_of_line(doc: Document, fig, line, key: str) -> Result | None:
    """A measured rate in bytes as a share of a line rate in bits over 8, said in words (no verdict)."""
    index = _share(doc, fig, line.value, f"{fig.quote} / ({line.quote} / 8)")
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["value"]
    return Result([index], None, messages(doc.lang)["verdicts"][key].format(
        line=line.quote, bytes=restate.value("bandwidth_bytes_per_s", line.value), measured=fig.quote, share=restate.value("mfu", value)))
