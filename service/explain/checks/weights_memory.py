"""A model's weights against memory: parameters x the bytes of the text's number format, set against the memory the
sentence says the model needs ("671 billion parameters needs over 1.2 TB in FP16": 1.34 TB, indeed over), against a
memory the next sentence states ("A single 8xH100 node has 640 GB"), or against one card of the one chip the text names
("a 70B model on an A100": 140 GB of weights alone, more than its 80 GB). What a reader checks first about serving a
model; a result that does not match a need is not said (the need may count a KV cache or buffers as well)."""

import math
import re

from calculators import catalog
from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks import job_kind
from service.explain.checks.core import Result, discard, said, worked
from service.explain.checks.memory import CAPACITY_WORDS, number_formats
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_MEMORIES = ("hbm_bytes", "memory_bytes", "memory_bytes_per_chip", "bytes")  # what hardware has
_NEEDED = (*_MEMORIES, "weights_bytes")  # what a model is said to need
_BITS = {4: 0.5, 8: 1, 16: 2, 32: 4}
_BITS_WORD = re.compile(r"(?<![\d.])(4|8|16|32)[- ]?(?:bits?\b|بت\b|بتات)", re.I)
# a memory said to be what the model takes ("needs 140 GB", "demands roughly 140GB for weights")
_NEEDS = re.compile(r"\b(?:needs?|needed|requires?|required|demands?|takes?|occup\w+|consum\w+|weighs?|wants?)\b|\bfor (?:the |its )?weights\b|\bof weights\b"
                    r"|\b(?:just |only )?for (?:the |its |their )?(?:KV|key-value) cache\b"  # "320 GB just for its KV cache": a need
                    # "reads all 70 billion weights out of high-bandwidth memory, 140 gigabytes of traffic" (round 95 P23)
                    r"|\b(?:reads?|streams?|loads?|moves?)\b(?=[^.;]{0,30}\bweights\b)"
                    r"|يحتاج|تحتاج|يتطلب|تتطلب|يستهلك|تستهلك|يشغل|تشغل", re.I)
# a memory said to be what hardware has ("a node has 640 GB", "an H100 with 80GB", "بسعة 80 غيغابايت")
_HAS = re.compile(r"\b(?:has|have|having|holds?|with|offers?|provides?|features?|comes with|packs?|total(?:s| of)?)\b"
                  r"|يملك|تملك|تحتوي|يحتوي|توفر|يوفر|بسعة|مزود|مزودة", re.I)
# "A 70B model in FP16 is ~140 GB": a model said to be a size is what it takes
_IS_SIZE = re.compile(r"\b(?:is|are|comes to|come to)\s+(?:~|≈|about |roughly |around |approximately |nearly )?(?=\d)", re.I)
_LOWER_BOUND = re.compile(r"(?:\bover|\bmore than|\babove|\bat least|\bin excess of|>|أكثر من|ما يزيد على|ما يزيد عن|يزيد على)\s*$", re.I)
_MEMORY_TALK = re.compile(r"\bmemory\b|\bVRAM\b|\bHBM\d?e?\b|ذاكرة|الذاكرة", re.I)
# a text that asks whether a model fits: one card of the named chip is set against its weights only there
_FIT_TALK = re.compile(r"\b(?:fit\w*|OOM|out of memory|exceed\w*|capacity|too (?:big|large)|(?:can(?:not|'t)?|could(?:n'?t)?) (?:hold|load)|"
                       r"load(?:s|ed|ing)? (?:the |a |all )?(?:model|weights)|of weights|for (?:the )?weights)\b|تتسع|يتسع|نفاد الذاكرة|سعة", re.I)
# weights that are not the whole model in one format: quantised, shared out, offloaded, or only a part of it
_NOT_WHOLE = re.compile(r"\bquanti[sz]\w*|\bGPTQ\b|\bAWQ\b|\bGGUF\b|\bQ[2-8]_|\bbitsandbytes\b|\bper (?:GPU|chip|device|rank)\b"
                        r"|\beach (?:GPU|chip|device)\b|\bshard\w*|\boffload\w*|\bLoRA\b|\bactive\b|\bI?Q[1-8]_|\b[1-6](?:\.\d+)?[- ]?bit\b|\bbpw\b"
                        r"|تكميم|مكمم|مكممة", re.I)


_COMPUTE_AFTER = re.compile(r"^[\s\w-]{0,12}?(?:[TP]?FLOP|TOPS|compute|tensor cores?|matmul|GEMM)", re.I)


def formats_in(text: str, stored: bool = False) -> dict[float, str]:
    """The bytes per value of each number format or bit width a text names, with how it was written; `stored`: only
    where it may be what numbers are kept in ("2.6 PFLOPS of FP8 compute" is a speed, not the weights' format)."""
    found: dict[float, str] = {}
    matches = [(m, _BITS[int(m.group(1))]) for m in _BITS_WORD.finditer(text)]
    matches += [(m, size) for pattern, size, _ in number_formats() for m in pattern.finditer(text)]
    for written, size in sorted(matches, key=lambda item: item[0].start()):
        if stored and _COMPUTE_AFTER.search(text[written.end():written.end() + 30]):
            continue
        found.setdefault(size, written.group(0))
    return found


def _width(doc: Document, claim: Claim) -> tuple[float, str] | None:
    """The bytes per weight: the one format the sentence names, else the one the whole text names; None when unsure."""
    own = formats_in(claim.quote)
    if len(own) == 1:
        return next(iter(own.items()))
    if own:
        return None  # "FP8 ... than BF16": which one the weights are in is not read
    if len(formats_in(doc.text)) != len(formats_in(doc.text, stored=True)) or len(formats_in(doc.text)) != 1:
        return None  # another format, or the one format named as a speed: the weights' format is not read
    return next(iter(formats_in(doc.text).items()))


def _params(doc: Document, claim: Claim):
    """The one model size the sentence states (a whole model's parameters), or None."""
    active = [f for f in claim.figures if f.quantity == "active_params"]
    # "26B-A4B" names 26B in all and 4B active: the active count read again as a size is not the model's size
    found = [f for f in claim.figures if f.quantity == "params" and f.value >= 1e8
             and not any(a.start <= f.start and f.end <= a.end for a in active)]
    if len({f.value for f in found}) != 1 or _NOT_WHOLE.search(claim.quote):
        return None
    return found[0]


def _weights(doc: Document, p, width: tuple[float, str]) -> tuple[int, float] | None:
    per, named = width
    index = worked(doc, f"{p.value:g} * {per:g}", f"{p.quote} x {per:g} bytes ({named})", "bytes")
    return None if index is None else (index, doc.calculations[index]["outputs"]["value"])


def _shown(doc: Document, p, width: tuple[float, str]) -> dict:
    """The parameter count and the format as the answer writes them (an Arabic answer to an English text names no English words)."""
    per, named = width
    same = restate.same_language(p.quote, doc.lang)
    shown_format = named if restate.same_language(named, doc.lang) or "bit" not in named.lower() else f"{int(per * 8)} بت"
    return {"params": p.quote if same else restate.value("params", p.value), "per": f"{per:g}", "format": shown_format}


def weights_need(doc: Document, claim: Claim) -> Result | None:
    """"70B in FP16 demands roughly 140GB for weights": 70B x 2 bytes = 140 GB, as stated (consistent); a memory said
    to be exceeded ("needs over 1.2 TB") holds when the weights alone pass it. A result that matches neither is not said."""
    p = _params(doc, claim)
    needs = [f for f in claim.figures if f.quantity in _NEEDED and f.value > 0]
    verb = _NEEDS.search(claim.quote) or _IS_SIZE.search(claim.quote)
    if len(needs) > 1 and verb:  # "needs 140 GB just for weights - a single A100 holds 80 GB": the one after the verb
        at = claim.start + verb.end()
        needs = [f for f in needs if 0 <= f.start - at <= 40][:1]
    if p is None or len(needs) != 1 or not verb:
        return None
    width = _width(doc, claim)
    assumed = not formats_in(doc.text) and not _NOT_WHOLE.search(doc.text) and bool(re.search(r"\bweights?\b|أوزان|الأوزان", claim.quote))
    if assumed:  # "A 70B model needs 140 GB just for weights": no format anywhere, the usual 16-bit is tried and said
        width = (2.0, "16-bit")
    elif width is None or not formats_in(claim.quote):
        return None  # the need is the sentence's own: its format is written in it
    need = needs[0]
    lower = bool(_LOWER_BOUND.search(doc.text[max(0, need.start - 16):need.start]))
    weights = _weights(doc, p, width)
    if weights is None:
        return None
    index, value = weights
    holds = value >= need.value * 0.98 if lower else verdicts.agrees(need.value, value, need.approx)
    if not holds:
        discard(doc, index)
        return None
    words = messages(doc.lang)["verdicts"]
    shown = _shown(doc, p, width)
    if assumed:
        shown["format"] = words["weights_assumed_format"]
    why = words["weights_need_over" if lower else "weights_need"].format(**shown, computed=restate.value("bytes", value) + _binary(need, value), stated=said(doc, need))
    held = [f for f in claim.figures if f.quantity in _MEMORIES and f is not need and f.start > need.end
            and _HAS.search(doc.text[need.end:f.start])]
    hardware = (held[0].value, said(doc, held[0])) if len(held) == 1 else _stated_capacity(doc, claim)
    if hardware is not None:  # "... needs over 1.2 TB in FP16. A single 8xH100 node has 640 GB": the two set side by side
        key = "weights_then_over" if value > hardware[0] else "weights_then_within"
        why += words[key].format(stated=hardware[1], ratio=f"{value / hardware[0]:.2g}")
    elif (cards := _cards_said_too_small(doc, claim)) is not None and value > cards[0]:
        # "... requires 140 GB. This makes it impossible to serve on a single H100 or A100": the catalog agrees
        why += words["weights_then_over_cards"].format(memory=restate.value("bytes", cards[0]), chips=cards[1])
    return Result([index], "consistent", why)


# "impossible to serve on a single H100", "cannot fit on one A100", "won't fit a single GPU": the text says one card is too small
_TOO_SMALL = re.compile(r"\b(?:impossible|cannot|can't|can not|won't|doesn't|does not|too (?:large|big))\b[^.;]{0,60}?\b(?:single|one)\b", re.I)


def _cards_said_too_small(doc: Document, claim: Claim) -> tuple[float, str] | None:
    """The most memory one card of the chips named holds, with their names, where this sentence or the next says one
    such card cannot hold the model; None when the text says no such thing or a chip's memory is not in the catalog."""
    later = [s for s in doc.sentences if s[0] >= claim.end][:1]
    for start, end in [(claim.start, claim.end), *later]:
        if not _TOO_SMALL.search(doc.text, start, end):
            continue
        chips = [m for m in doc.mentions if m.kind == "chip" and not m.generic and start <= m.start < end]
        names = [m.entry.get("name", "") for m in chips]
        memories = [max([m.entry.get("hbm_bytes") or 0] + [o.get("hbm_bytes") or 0 for o in catalog.hardware().entries
                                                             if o.get("name", "").split()[:2] == m.entry.get("name", "").split()[:2]])
                    for m in chips]
        if chips and all(memories):  # "A100": the largest card of that name (80 GB), so "more than" holds for every card
            shown = " or ".join(dict.fromkeys(doc.text[m.start:m.end] for m in chips)) if doc.lang == "en" else \
                " أو ".join(dict.fromkeys(doc.text[m.start:m.end] for m in chips))
            return max(memories), shown if names else ""
    return None


def _stated_capacity(doc: Document, claim: Claim) -> tuple[float, str] | None:
    """The one memory a neighbouring sentence says some hardware has, as (bytes, how the answer says it): "A single
    8xH100 node has 640 GB of GPU memory" is 640 GB; "8x 40GB A100s", a card's memory written on the card, is 8 x 40GB."""
    here = next((i for i, (a, b) in enumerate(doc.sentences) if a <= claim.start < b), None)
    if here is None:
        return None
    found = []
    for i in (here - 1, here + 1):
        if not 0 <= i < len(doc.sentences):
            continue
        a, b = doc.sentences[i]
        sentence = doc.text[a:b]
        inside = [f for f in doc.figures if a <= f.start < b]
        sizes = [f for f in inside if f.quantity in _MEMORIES and f.value > 0]
        if len(sizes) != 1 or not _HAS.search(sentence) or _NEEDS.search(sentence) or any(f.quantity == "params" for f in inside):
            continue
        size = sizes[0]
        counts = [f for f in inside if f.quantity in ("n_chips", "chips_per_node") and f.value > 1]
        on_card = any(m.kind == "chip" and not m.generic
                      and (m.start >= size.end and re.fullmatch(r"[\s-]{0,2}", doc.text[size.end:m.start])  # "40GB A100s"
                           or m.end <= size.start and re.fullmatch(r"\s*\(?", doc.text[m.end:size.start]))  # "A100 (40GB)"
                      for m in doc.mentions)
        # "8x 40GB A100s": a bare number before "x" counts the cards
        counts += [f for f in inside if f.quantity == "number" and f.value > 1 and re.match(r"\s*[x×]", doc.text[f.end:f.end + 2])]
        if on_card and len(counts) == 1:
            total = counts[0].value * size.value
            times = "×" if doc.lang == "ar" else "x"
            found.append((total, f"{counts[0].value:g} {times} {said(doc, size)} = {restate.value('bytes', total)}"))
        elif not counts or not on_card:
            found.append((size.value, said(doc, size)))
    return found[0] if len(found) == 1 else None


def _one_card(doc: Document):
    """The one chip the text names by its model, with its memory, when that memory is certain: (surface, bytes) or None.
    "A100" alone is not certain (40 GB and 80 GB cards share the name)."""
    mentions = [m for m in doc.mentions if m.kind == "chip" and not m.generic]
    entries = {id(m.entry): m.entry for m in mentions}
    if len(entries) != 1:
        return None
    entry = next(iter(entries.values()))
    memory = entry.get("hbm_bytes")
    if entry.get("kind") == "tpu" and not re.search(r"\bTPU", doc.text, re.I):
        return None  # "DeepSeek V4" names a model, not a TPU v4
    if not memory:
        return None
    surface = doc.text[mentions[0].start:mentions[0].end]
    shown = re.sub(r"(?<=\d)s$", "", re.sub(r"[\s-]*\d+\s*GB?$", "", surface))  # "A100 80GB", "H100s": the card's name
    if not re.search(r"\d\s*G", surface):
        stem = surface.lower().split()[0] if surface.split() else surface.lower()
        for other in catalog.hardware().entries:
            names = [other["name"], *other.get("aliases", [])]
            if other is not entry and other.get("hbm_bytes") != memory and any(n.lower().split()[0] == stem for n in names if n.split()):
                return None
    return shown, memory


def weights_on_card(doc: Document, claim: Claim) -> Result | None:
    """A model's weights (parameters x the text's format, or 16-bit when the text names none) against the memory a
    neighbouring sentence states, or one card of the one chip the text names; said in words, never judged. Said only in
    a text about memory, for a sentence that spreads the model over no stated number of chips, once per text."""
    p = _params(doc, claim)
    if p is None or claim.calculations or not (_MEMORY_TALK.search(doc.text) or CAPACITY_WORDS.search(doc.text)):
        return None
    if any(f.quantity in ("n_chips", "chips_per_node", "n_nodes") and f.value > 1 for f in claim.figures) \
            or any(f.quantity in _MEMORIES for f in claim.figures if not _NEEDS.search(claim.quote)):
        return None  # "70B on 8 H100s": the author already spreads it; a memory of its own is weights_fit's
    width = _width(doc, claim)
    assumed = width is None and not formats_in(doc.text) and not _NOT_WHOLE.search(doc.text)
    if assumed:
        width = (2.0, "16-bit")
    if width is None:
        return None
    stated = _stated_capacity(doc, claim)
    # whether a model's weights fit one card is a question of serving or loading it; a training run spreads them anyway
    card = None if stated is not None or job_kind.training_text(doc) or not _FIT_TALK.search(doc.text) else _one_card(doc)
    if stated is None and card is None:
        return None
    capacity = stated[0] if stated is not None else card[1]
    weights = _weights(doc, p, width)
    if weights is None:
        return None
    index, value = weights
    if any(index in c.calculations for c in doc.claims) or (value <= capacity and (stated is None or job_kind.training_text(doc))):
        discard(doc, index)
        return None  # said already; within one card, or a training text's weights within its memory, answers nothing asked
    words = messages(doc.lang)["verdicts"]
    shown = _shown(doc, p, width)
    if assumed:
        shown["format"] = words["weights_assumed_format"]
    if stated is not None:
        key = "weights_stated_over" if value > capacity else "weights_stated_within"
        return Result([index], None, words[key].format(**shown, computed=restate.value("bytes", value), stated=stated[1],
                                                       ratio=f"{value / capacity:.2g}"))
    least = math.ceil(value / capacity)
    if any(f.quantity in ("n_chips", "chips_per_node") and f.value >= least for f in doc.figures):
        discard(doc, index)
        return None  # "we run on 128 H100 GPUs": the text already spreads the weights over enough cards
    return Result([index], None, words["weights_card_over"].format(
        **shown, computed=restate.value("bytes", value), chip=card[0], memory=restate.value("bytes", capacity),
        n=least))


_PAIRED = re.compile(r"^[^,;.]{0,20}?(?:≈|~|=|\bis about\b|\bis roughly\b)\s*$")  # "72B bf16 ≈ 144G", "35B MoE ≈ 67G"
MIN_PAIRS = 2  # one pair is weights_need's


def weights_pairs(doc: Document, claim: Claim) -> Result | None:
    """"e.g., 72B bf16 ≈ 144G, or a 35B MoE ≈ 67G vs 64G HBM": each model size written with its weights' size beside
    it is checked on its own (72B x 2 bytes = 144 GB; 35B x 2 = 70 GB, about the 67 GB), in the format the pair names,
    else the one the sentence names; a pair that does not agree is not said (it may count only some layers)."""
    sizes = [f for f in claim.figures if f.quantity == "params" and f.value >= 1e8]
    memories = [f for f in claim.figures if f.quantity in _NEEDED and f.value > 0]
    pairs = [(p, m) for p in sizes for m in memories if 0 < m.start - p.end <= 30 and _PAIRED.match(doc.text[p.end:m.start])]
    if len(pairs) < MIN_PAIRS:
        return None  # (a pair the author wrote is the whole model's weights, whatever the sentence says of sharding after)
    sentence = formats_in(claim.quote, stored=True)
    calculations, reasons = [], []
    for p, m in pairs:
        own = formats_in(doc.text[p.start:m.start])
        width = next(iter(own.items())) if len(own) == 1 else next(iter(sentence.items())) if len(sentence) == 1 else None
        if width is None:
            continue
        weights = _weights(doc, p, width)
        if weights is None:
            continue
        index, value = weights
        if not verdicts.agrees(m.value, value, True):
            discard(doc, index)
            continue
        calculations.append(index)
        reasons.append(messages(doc.lang)["verdicts"]["weights_need"].format(**_shown(doc, p, width), computed=restate.value("bytes", value),
                                                                               stated=said(doc, m)))
    return Result(calculations, "consistent", "; ".join(reasons)) if calculations else None


_DECIMAL_UNIT = re.compile(r"\d\s*([KMGT])B\b")
_STEPS = {"K": 1, "M": 2, "G": 3, "T": 4}


def _binary(need, value: float) -> str:
    """" (1.22 TiB)" where the text's "1.2TB" is the size in binary units (671B x 2 bytes = 1.342 TB is 1.22 TiB): the
    step a reader needs to see the two agree; '' where the decimal unit is as close."""
    unit = _DECIMAL_UNIT.search(need.quote)
    if unit is None:
        return ""
    steps = _STEPS[unit.group(1)]
    stated, decimal, binary = need.value / 1000 ** steps, value / 1000 ** steps, value / 1024 ** steps
    return f" ({binary:.3g} {unit.group(1)}iB)" if abs(binary - stated) < 0.5 * abs(decimal - stated) else ""
