"""How many cards a memory needs: "350 GB of weights ... A single H100 has 80 GB. You need at least five of them just to
hold the parameters" is 350 GB / 80 GB = 4.4, so five cards at least: the stated count against the size over one
card's memory, rounded up; agreeing is consistent, anything else is said without a verdict (the text may count more)."""

import math
import re

from service.explain import pattern_cache
from service.explain.checks import verdicts
from service.explain.checks.core import Result, said, worked
from service.explain.document import Claim, Document
from service.explain.figures.words import EN_NUMBER_WORDS as NUMBER_WORDS
from service.i18n.messages import messages

# "need at least five of them just to hold", "requires a minimum of 8 GPUs to fit", "you'd need 5 H100s to store"
_NEED = pattern_cache.lazy(
    r"\b(?:need|needs|needed|require|requires|required|take|takes)\s+(?:at\s+least\s+|a\s+minimum\s+of\s+|no\s+fewer\s+than\s+)?"
    r"(?P<n>\d{1,5}|[a-z]+(?:-[a-z]+)?)\s+(?:of\s+(?:them|these|those)|(?:[\w-]+\s+){0,2}?(?:GPUs?|cards?|chips?|devices?|"
    r"accelerators?|[A-Z]\d{2,4}[A-Za-z]*s?))\s+(?:\w+\s+){0,2}?to\s+(?:hold|fit|store|load|keep)\b", re.I)
_ONE_CARD = pattern_cache.lazy(r"\b(?:a\s+single|one|each|every|a|an)\s+(?:[\w-]+\s+){0,2}?(?:GPU|card|chip|device|accelerator|"
                               r"[A-Z]\d{2,4}[A-Za-z]*)\b[^.]{0,40}?\b(?:has|have|with|offers?|holds?|carries)\b", re.I)
BEFORE = 3  # sentences before the claim where the size and the card's memory are said


def _count(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    return NUMBER_WORDS.get(word.lower())


def _memory(fig) -> bool:
    """A size in bytes: a memory, the weights' bytes, a checkpoint's."""
    return verdicts.kind(fig.quantity) == "memory" or fig.quantity.endswith("_bytes") and "per_s" not in fig.quantity


def chips_needed(doc: Document, claim: Claim) -> Result | None:
    """The stated least number of cards against the size over one card's memory, rounded up."""
    need = _NEED.search(claim.quote)
    if need is None or claim.calculations:
        return None
    stated = _count(need.group("n"))
    if not stated or stated < 2:
        return None
    index = doc.claims.index(claim)
    earlier = doc.claims[max(0, index - BEFORE):index]
    memories = [f for c in earlier for f in c.figures if _memory(f) and f.value > 0]
    cards = [f for c in earlier if _ONE_CARD.search(c.quote) for f in c.figures if _memory(f)]
    if len(cards) != 1:
        return None
    card = cards[0]
    sizes = [f for f in memories if f is not card and f.value > card.value]
    if len(sizes) != 1:
        return None  # one size to hold, larger than one card; several would leave which one in doubt
    size = sizes[0]
    ran = worked(doc, f"{size.value:g} / {card.value:g}", f"{said(doc, size)} / {said(doc, card)}")
    if ran is None:
        return None
    ratio = doc.calculations[ran]["outputs"]["value"]
    least = math.ceil(ratio - 1e-9)
    shown = {"size": said(doc, size), "card": said(doc, card), "ratio": f"{ratio:.2g}" if ratio < 10 else f"{ratio:,.0f}",
             "least": f"{least:,}",
             "stated": need.group("n") if doc.lang == "en" else f"{stated:,}"}  # "five" in an Arabic answer is 5
    m = messages(doc.lang)["verdicts"]
    if least == stated:
        return Result([ran], "consistent", m["chips_needed"].format(**shown))
    return Result([ran], None, m["chips_needed_other"].format(**shown))
