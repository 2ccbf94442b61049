"""A gist sentence that leans on a sentence the gist leaves out ("They must reserve enough space for them", «لكنها
كانت ...», "In exchange, the freed memory ..."): its pronoun or link points at nothing the reader is shown, so another
of the author's points is said instead, where one stands on its own."""

import re

from service.explain import connectives, gist_side, pattern_cache, restate
from service.explain.document import Document
from service.i18n.messages import messages

# A subject, object or link that points back: "it", "this is", "they ... them", "in exchange", "the following"; not the
# page itself ("This PR adds X", "This post shows") nor "this X" that names its noun ("this 70B model")
_BACK_EN = pattern_cache.lazy(
    r"^\W*(?:(?:and|but|so|also)\s+)?(?:"
    r"(?:it|they|he|she)\b(?!\s+(?:is|was|'s)\s+(?:worth|important|possible|recommended|necessary|better|best|easy|hard|"
    r"common|unclear|clear|likely|unlikely|true|known|expected|not\s+(?:clear|possible|necessary))\b)"
    r"(?!\s+(?:seems|turns\s+out|takes|took|would\s+be|appears|depends)\b)"
    r"|(?:its|their|both|such)\b"
    r"|(?:this|that)(?=\s+(?:is|are|was|were|has|have|had|can|could|will|would|may|might|must|should|does|do|did|also|"
    r"only|still|then|just|really|probably|likely|means?|meant|[a-z]+(?:es|ed))\b|\s*[,.;:!?]|\s*$)"
    r"|(?:these|those)(?=\s+(?:are|were|have|had|can|could|will|would|may|might|must|should)\b)"
    r"|in\s+(?:exchange|return|turn|that\s+case|this\s+case)\b|(?:by\s+|in\s+)?doing\s+(?:so|this|that)\b)"
    r"|\bthe\s+following\s*[.:]?\s*$|\b(?:for|to|of|on|with|from)\s+(?:them|it|this|that)\s*[.!]?\s*$", re.I)
_SELF = pattern_cache.lazy(r"^\W*(?:this|these)\s+(?:PR|pull request|patch|post|paper|article|blog|issue|thread|work|change|"
                           r"commit|release|report|guide|tutorial|page|repo|repository|project|section|chapter|note)s?\b", re.I)
# Arabic: a sentence opening on a pronoun, a demonstrative, "but it", a word carrying a pronoun ending that names nothing
# said («تصميمها»), a dual verb with no subject («ترتبطان»), or «التالية» with nothing following
_BACK_AR = pattern_cache.lazy(
    r"^\W*[وف]?(?:لكنها|لكنه|لكنهما|لكنهم|ولكنها|ولكنه|إنها|إنه|أنها|أنه|هي|هو|هما|هم|هذا|هذه|ذلك|تلك|هؤلاء)(?![\u0621-\u064A])"
    r"|^\W*[وف]?(?!ال)[\u0621-\u064A]{3,}(?:ها|هما|هم)(?![\u0621-\u064A])"
    r"|^\W*[وف]?[يت][\u0621-\u064A]{2,}(?:ان|ون)(?![\u0621-\u064A])"
    r"|التالية\s*[.:]?\s*$")


_CELL = pattern_cache.lazy(r"\S\s\|\s\S")  # "parallelism | How experts are split ...": a table's cells, no sentence


def dangles(sentence: str, lang: str) -> bool:
    """Whether the sentence's opening points back at something it does not name itself, or it is a table's row."""
    if _CELL.search(sentence):
        return True
    if lang not in ("en", "ar"):
        return False  # no pattern for a language added from a folder
    said = connectives.without(sentence.strip(), lang)  # "This means X": the link goes, X stands
    if lang == "ar":
        return bool(_BACK_AR.search(said))
    return bool(_BACK_EN.search(said)) and not _SELF.match(said)


# "this process", "these workloads", "such large models", "on that ceiling", "understand this", "the reason is X": a noun
# phrase that points back; not the page ("this PR", "this post"), time ("this year"), nor "that" as a conjunction
_INSIDE_EN = pattern_cache.lazy(
    r"\b(?:this|these|those|such)\s+(?:(?:large|big|small|huge|high|low|long|short|extra|whole|same|particular|specific)\s+)?"
    r"(?P<noun>[a-z][a-z-]{2,})\b"
    r"|\b(?:on|in|of|with|for|from|by|at|under|over|beyond|past|above|below|into|about|expanding|raising|lowering|"
    r"increasing|reducing|fixing|avoiding|hitting)\s+that\s+(?P<noun2>[a-z][a-z-]{2,})\b(?!\s+(?:is|are|was|were|has|have)\b)"
    r"|\b(?:understand|explains?|fix|fixes|solve|solves|avoid|avoids|address|addresses|cause[sd]?|do|does)\s+(?:this|that)\s*(?:[.,;!?]|$)"
    r"|^\W*the\s+reason\s+(?:is|was)\b", re.I)
_NOT_POINTER = frozenset("pr pull patch post paper article blog issue thread page repo repository section chapter note comment work study "
                         "reply answer question tutorial guide doc docs document video talk book week month year day time "
                         "morning release version is are was were can will would could should may might must has have had "
                         "does do did way kind sort type as that".split())
# «هذا التصميم», «هذه النتيجة», «تلك التحديات»: a demonstrative before a defined noun
_INSIDE_AR = pattern_cache.lazy(r"(?<![\u0621-\u064A])(?:[وف]?(?:ب|ل|ك)?)(?:هذا|هذه|ذلك|تلك|هذين|هاتين|هؤلاء)\s+ال(?P<noun>[\u0621-\u064A]{3,})")
_NOT_POINTER_AR = frozenset("مقال مقالة منشور دليل قسم فصل صفحة عام شهر أسبوع يوم وقت سؤال".split())


def joins_before(sentence: str, before: str, lang: str) -> bool:
    """Whether a point whose opening does not point back still needs the sentence before it for a noun it points at
    ("when this process is slow, it stalls"), and the two are short enough to be said together."""
    return points_inside(sentence, lang) and not dangles(sentence, lang) and not dangles(before, lang) \
        and len(before.split()) + len(sentence.split()) <= gist_side.REFERENT_WORDS


def points_inside(sentence: str, lang: str) -> bool:
    """Whether a noun phrase inside the sentence points back at a noun the sentence has not named before it: the
    sentence is said after the one before it, where that one is short enough to join."""
    if lang not in ("en", "ar"):
        return False
    pattern, skip = (_INSIDE_AR, _NOT_POINTER_AR) if lang == "ar" else (_INSIDE_EN, _NOT_POINTER)
    for match in pattern.finditer(sentence):
        noun = (match.groupdict().get("noun") or match.groupdict().get("noun2") or "").lower()
        if noun and (noun in skip or noun.endswith("ly") or noun[:4] in sentence[:match.start()].lower()):
            continue  # "this post", "this year", or a noun the sentence itself named ("a cost ... this cost")
        return True
    return False


def standing(candidates: list[int], sentence_of, lang: str, gist_of) -> list[dict]:
    """The gist of the first candidate point whose gist does not leave its opening pointing at nothing: a point that
    dangles is said only with the sentence before it (which `gist_of` adds where it can); else the next point is tried."""
    first = None
    for point in candidates:
        said = gist_of(point)
        if not said:
            continue
        first = said if first is None else first
        upto = next((n for n, item in enumerate(said) if point in item.get("from", [])), len(said) - 1)
        before = {i for item in said[:upto + 1] for i in item.get("from", []) if i < point}  # said first, or in one sentence
        if not dangles(sentence_of(point), lang) or before:
            return said
    return first or []


_POINTER = pattern_cache.lazy(r"^(?:that|this|it)(?=(?:'s|’s|\s+is|\s+was)\b)", re.I)


def resolved(doc: Document, index: int, text: str) -> str:
    """The sentence with a pointing "That is ..." said as the change a check found it stands for ("going from 45 minutes
    to 81 seconds is roughly a 33x speedup"), where one was found; else as it is."""
    pair = doc.referents.get(doc.sentences[index][0])
    if not pair or doc.lang != "en" or not restate.same_language(text, doc.lang):
        return text
    said = messages(doc.lang)["gist"]["referent_change"].format(a=pair[0], b=pair[1])
    return _POINTER.sub(said[:1].upper() + said[1:], text, count=1)
