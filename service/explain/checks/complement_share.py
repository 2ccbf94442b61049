"""A part of a whole with the share the text gives for the part or for what is left: "17.9 GB used of 97.9 GB = 81%
of VRAM wasted" is 1 - 17.9/97.9 = 81.7%; "3 of 8 GPUs busy, 37.5% utilised" is 3/8. The words beside the part and
the share say which of the two the share counts; with no such word the share is of the part."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import Inputs, Result, run
from service.explain.checks.shares import share_tolerance
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_AMOUNT = re.compile(r"(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>[A-Za-z]+)?")
# between the part and the whole: "used of", "of the", "out of", "من أصل"; a part word may stand before "of"
_OF = re.compile(r"^\s*(?:(?P<word>[a-z]+(?:\s+use)?)\s+)?(?:out\s+of|of|from)\s+(?:the\s+|a\s+|an\s+|its\s+|their\s+|total\s+)?$"
                 r"|^\s*(?P<word_ar>\S+\s+)?من\s+(?:أصل\s+|إجمالي\s+)?$", re.I)
# between the whole and the share: a link that says the share follows from them, nothing that ends the clause
_LINK = re.compile(r"^\s*(?:[A-Za-z]+,?\s+){0,3}?(?:=|,|—|–|-|:|means|so|i\.e\.,?|that is,?|leaving|leaves|,\s*so|,\s*leaving|(?:،\s*)?(?:أي|يعني)(?:\s+(?:إن|أن))?|،)\s*"
                   r"(?:about|around|roughly|nearly|~|≈|نحو|حوالي)?\s*$", re.I)
_LEFT = re.compile(r"^(?:wasted|unused|free|idle|left|remaining|available|empty|spare|unutili[sz]ed|untouched|headroom|"
                   r"مهدرة?|فارغة?|متاحة?|متبقية?|حرة|معطلة?|خاملة?)$", re.I)
_USED = re.compile(r"^(?:used|in\s+use|occupied|allocated|utili[sz]ed|busy|active|filled|taken|مستخدمة?|مشغولة?)$", re.I)
_NEAR = 40  # characters between the whole and the share: one phrase


def _amount(quote: str) -> tuple[float, str] | None:
    found = _AMOUNT.search(quote)
    return (float(found["num"].replace(",", "")), (found["unit"] or "").lower()) if found else None


def _ratio(doc: Document, part, whole) -> tuple[float | None, str]:
    """part / whole when both measure one kind of thing, from their values or, when the whole's unit was left to the
    reader ("of 97.9 GB = 81%"), from the numbers as written in one unit."""
    a, b = _amount(part.quote), _amount(doc.text[whole.start:whole.end + 12])
    if a and b and a[1] == b[1] and b[0] and (a[1] or part.quantity == whole.quantity):
        return a[0] / b[0], f"{a[0]:g} / {b[0]:g}"  # as written: "17.9 / 97.9", not "1.79e+10 / 9.79e+10"
    if (part.quantity == whole.quantity or verdicts.same_kind(part.quantity, whole.quantity)) and whole.value:
        return part.value / whole.value, f"{part.value:g} / {whole.value:g}"
    return None, ""


def _whole_quote(doc: Document, part, whole) -> str:
    """The whole as written, with the unit the reader was left to read after it ("97.9 GB")."""
    if verdicts.same_kind(part.quantity, whole.quantity):
        return whole.quote
    unit = _amount(part.quote)[1]
    after = re.match(r"\s*([A-Za-z]+)", doc.text[whole.end:])
    return f"{whole.quote} {after.group(1)}" if after and after.group(1).lower() == unit else whole.quote


def _state_word(after: str) -> str:
    """The first of the next few words that says whether a share is used or left ("81% of VRAM wasted")."""
    for word in re.findall(r"[^\W\d_]+", after)[:6]:
        if _LEFT.match(word) or _USED.match(word):
            return word
    return ""


def _word(found) -> str:
    return (found.group("word") or found.groupdict().get("word_ar") or "").strip() if found else ""


def complement_share(doc: Document, claim: Claim) -> Result | None:
    """The share the text gives beside a part of a whole, against part / whole or the rest, 1 - part / whole."""
    if claim.calculations:
        return None
    figures = sorted(claim.figures, key=lambda f: f.start)
    for part, whole, share in zip(figures, figures[1:], figures[2:]):
        if not (share.quantity in ("percent", "fraction") or share.quantity.endswith("_fraction")) or not re.search(r"%|٪|percent", share.quote) or not 0 < share.value < 1:
            continue
        of = _OF.match(doc.text[part.end:whole.start])
        between = doc.text[whole.end:share.start]
        if of is None or len(between) > _NEAR or re.search(r"[.;!?؛]\s", between) or not _LINK.match(between):
            continue
        ratio, written_ratio = _ratio(doc, part, whole)
        if ratio is None or not 0 < ratio < 1:
            continue
        # "17.9 GB used of" or "of the 97.9 GB is used, so"; "instead of" says nothing of what the share counts
        part_word = next((w for w in (_word(of), _state_word(between)) if w and (_LEFT.match(w) or _USED.match(w))), "")
        share_word = _state_word(doc.text[share.end:share.end + 40])
        left = bool(_LEFT.match(share_word)) != bool(_LEFT.match(part_word))  # "free of ... = 20% used" is the rest too
        other = 1 - ratio if not left else ratio
        if abs(100 * other - share.value * 100) <= share_tolerance(f"{share.value * 100:g}") * share.value * 100:
            return None  # the share fits the other reading: which part it counts is the uncertain word, not the figure
        if not (share_word or part_word) and abs(ratio - share.value) > 0.02:
            return None  # no word says what the share counts: no finding against it
        expression = f"1 - {written_ratio}" if left else written_ratio
        written = f"{share.value * 100:g}"
        inputs = Inputs(doc.lang)
        total = _whole_quote(doc, part, whole)
        inputs.expression(expression, f"{'1 - ' if left else ''}{part.quote} / {total}")
        inputs.values["stated_result"] = f"{written}%"
        inputs.sources["stated_result"] = {"source": "text", "quote": share.quote}
        inputs.values["tolerance"] = share_tolerance(written)
        index = run(doc, "arithmetic", inputs)
        if index is None:
            return None
        out = doc.calculations[index]["outputs"]
        words = messages(doc.lang)["verdicts"]
        fields = {"part": part.quote, "total": total, "stated": f"{written}%",
                  "computed": f"{100 * out['value']:.1f}%", "used": f"{100 * ratio:.1f}%"}
        key = ("rest" if left else "share") + ("_consistent" if out.get("consistent") else "_inconsistent")
        return Result([index], "consistent" if out.get("consistent") else "inconsistent", words[key].format(**fields))
    return None
