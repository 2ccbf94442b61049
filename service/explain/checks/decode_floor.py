"""Decoding's memory floor: generating one token reads every weight from memory once, so a time per token is at least
the weights' bytes over the memory bandwidth (the memory side of the roofline: Williams, Waterman and Patterson 2009;
the JAX scaling book, "All About Transformer Inference")."""

import re

from service.explain import restate
from service.explain.checks.core import Result, compare, discard, said, unique, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# a time said per generated token ("~40 ms per token", "45 ms/token", "لكل رمز")
PER_TOKEN = re.compile(r"\S*\s*(?:/\s*(?:token|tok)\b|(?:of\s+\w+\s+)?per\s+(?:output\s+|generated\s+|decoded\s+)?token\b"
                        r"|per\s+decod\w*\s+step\b|لكل رمز)", re.I)  # one decoding step makes one token per sequence
# a floor the text itself works out ("floor-limited to", "at least", "bound"): the check agrees or shows the gap
_FLOOR_WORDS = re.compile(r"\bfloor|\bat least\b|\bminimum\b|\blower bound\b|\bbound\b|limited|الحد الأدنى", re.I)


def decode_floor(doc: Document, claim: Claim) -> Result | None:
    """A time per token against weights / memory bandwidth, both stated by the text (one value each)."""
    stated = next((f for f in claim.figures if f.quantity in ("time_s", "step_time_s") and PER_TOKEN.match(doc.text, f.end)), None)
    weights = unique(doc, claim, "weights_bytes")
    bandwidth = unique(doc, claim, "memory_bandwidth_bytes_per_s")
    if stated is None or weights is None or bandwidth is None:
        return None
    index = worked(doc, f"{_scaled(weights.value)} / {_scaled(bandwidth.value)}", f"{weights.quote} / {bandwidth.quote}")
    if index is None:
        return None
    floor = doc.calculations[index]["outputs"]["value"]
    words = messages(doc.lang)["verdicts"]["decode_floor"].format(
        weights=weights.quote, bandwidth=bandwidth.quote, floor=restate.value("time_s", floor))
    result = compare(doc, stated, floor, "time_s", [index])
    if result.verdict == "consistent":
        return Result(result.calculations, "consistent", f"{result.why}: {words}")
    if stated.value > floor and not _FLOOR_WORDS.search(claim.quote):
        # a measured time above the floor is what other work adds, not an error: said as a share of it
        return Result([index], "explained", messages(doc.lang)["verdicts"]["decode_above_floor"].format(
            stated=stated.quote, times=f"{stated.value / floor:.1f}", floor_words=words))
    discard(doc, index)
    return None  # below the floor (fewer bytes read: MoE, quantisation, speculation) or a floor said otherwise: no finding


def _scaled(value: float) -> str:
    """A byte count or rate in the working as the text's scale writes it: 140e9, 3.35e12."""
    return f"{value / 1e12:g}e12" if value >= 1e12 else f"{value / 1e9:g}e9"


# Prefill's compute floor: a prompt of N tokens through a dense model of P parameters costs at least 2 x P x N FLOPs
# (one multiply and one add per weight per token; attention adds more), so it takes at least that over the chip's peak
# (Kaplan et al. 2020, section 2.1; the JAX scaling book, "All About Transformer Inference").
_PREFILL = re.compile(r"\bpre-?fill\w*|\bprompt processing\b|\btime[- ]to[- ]first[- ]token\b|\bTTFT\b|التعبئة المسبقة|الملء المسبق|"
                      r"معالجة (?:ال)?موجه", re.I)
_SPARSE = re.compile(r"\bMoE\b|\bmixture[- ]of[- ]experts\b|\bactive\b|\bexperts?\b|\bsparse\b|خبراء|الخبراء|نشطة|النشطة", re.I)
_BELOW = 0.8  # a stated time below 80% of the floor is impossible even with rounding and a generous peak


def prefill_floor(doc: Document, claim: Claim) -> Result | None:
    """A prefill time against 2 x parameters x prompt tokens / the peak the text states: below it is impossible
    (inconsistent, with the share of the peak it would need); above it, the share of the peak it implies is said."""
    if not _PREFILL.search(claim.quote) or _SPARSE.search(doc.text):
        return None  # an MoE reads only its active experts: its FLOPs per token are not 2 x all parameters
    stated = next((f for f in claim.figures if f.quantity in ("time_s", "latency_s")), None)
    tokens = [f for f in claim.figures if f.quantity in ("tokens", "seq_len") and 16 <= f.value <= 1e7]
    params = unique(doc, claim, "params")
    peak = unique(doc, claim, "peak_flop_per_s")
    if stated is None or len({f.value for f in tokens}) != 1 or params is None or peak is None \
            or any(f.quantity in ("n_chips", "chips_per_node", "tp_degree") and f.value > 1 for f in doc.figures):
        return None  # several prompts, no stated peak, or chips working together: the floor is uncertain
    prompt = tokens[0]
    index = worked(doc, f"2 * {params.value / 1e9:g}e9 * {prompt.value:g} / {peak.value / 1e12:g}e12",
                   f"2 x {params.quote} x {prompt.quote} / {peak.quote}")
    if index is None:
        return None
    floor = doc.calculations[index]["outputs"]["value"]
    words = messages(doc.lang)["verdicts"]
    said = {"params": restate.value("params", params.value), "tokens": f"{prompt.value:,.0f}", "peak": restate.value("peak_flop_per_s", peak.value),
            "floor": restate.value("time_s", floor), "stated": restate.value("time_s", stated.value), "share": f"{floor / stated.value:.0%}"}
    if stated.value < _BELOW * floor:
        return Result([index], "inconsistent", words["prefill_below_floor"].format(**said))
    return Result([index], None, words["prefill_above_floor"].format(**said))


_RATES = ("tokens_per_s", "tokens_per_s_per_chip")


def rate_of_time(doc: Document, claim: Claim) -> Result | None:
    """A generation rate against the time per token the text gives ("70ms per decoding step ... 14 tokens/second"):
    one token per step, so the rate is 1 / the time. Agreeing, it is consistent; otherwise nothing is said (a rate of
    many users together, or one after other work, is not one step's inverse)."""
    rates = [f for f in claim.figures if f.quantity in _RATES]
    if len({f.value for f in rates}) != 1:
        return None
    here = next((i for i, (a, b) in enumerate(doc.sentences) if a <= claim.start < b), None)
    times = [f for f in claim.figures if f.quantity in ("time_s", "step_time_s") and PER_TOKEN.match(doc.text, f.end)]
    if not times and here:  # "Loading all weights takes roughly 70ms per decoding step. That's ... 14 tokens/second"
        a, b = doc.sentences[here - 1]
        times = [f for f in doc.figures if a <= f.start < b and f.quantity in ("time_s", "step_time_s") and PER_TOKEN.match(doc.text, f.end)]
    if len({f.value for f in times}) != 1 or not 0 < times[0].value < 60:
        return None
    rate, time = rates[0], times[0]
    index = worked(doc, f"1 / {time.value:g}", f"1 / {time.quote}")
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["value"]
    result = compare(doc, rate, value, rate.quantity, [index])
    if result.verdict != "consistent":
        discard(doc, index)
        return None
    return Result([index], "consistent", messages(doc.lang)["verdicts"]["rate_of_time"].format(
        time=restate.value("time_s", time.value), computed=f"{value:,.3g}", stated=said(doc, rate)))
