"""What a question in a thread is put to: the sentence before it ("Am I correct?") or a named participant ("@x Do you ...?")."""

import re

from service.explain import pattern_cache

# "Am I correct?", "Is my understanding right?", "هل هذا صحيح؟": the author asks whether the sentence before holds.
_CHECK_QUESTION = {
    "en": pattern_cache.lazy(r"^\s*(?:(?:am i|are we|was i|were we|is (?:this|that|it|my \w+|our \w+)|does (?:this|that) (?:sound|look|seem))"
                             r"\s+(?:\w+\s+){0,2}?(?:correct|right|accurate|ok|okay|true|make sense)|right|correct)\b[^?]{0,30}\?\s*$", re.I),
    "ar": pattern_cache.lazy(r"^\s*(?:هل\s+(?:هذا|ذلك|كلامي|فهمي|حسابي|استنتاجي)\s+(?:صحيح|دقيق|سليم)|هل (?:أنا|نحن) (?:محق|محقون|على حق|مصيب))"
                             r"[^؟?]{0,20}[؟?]\s*$"),
}


def is_check_question(sentence: str, lang: str) -> bool:
    """Whether the sentence only asks if the one before is right ("Am I correct?")."""
    return bool(_CHECK_QUESTION["ar" if lang == "ar" else "en"].match(sentence))


# "@deepakn94 Do you remember why ...?", "Hi @crazyofapple , can you provide ...?": a question to one participant by name
_ADDRESSED = pattern_cache.lazy(r"(?:^|\n)[ \t]*(?:(?:hi|hey|hello|dear)\b[ \t,!]*)?(?P<who>@[\w.-]+(?:[ \t,]+(?:and[ \t]+)?@[\w.-]+)*)[ \t,:]*$", re.I)
_OWN_LEAD = pattern_cache.lazy(r"^\s*(?:(?:hi|hey|hello|dear)\b[ \t,!]*)?(?P<who>@[\w.-]+(?:[ \t,]+(?:and[ \t]+)?@[\w.-]+)*)[ \t,:]*", re.I)
_SECOND_PERSON = pattern_cache.lazy(r"\b(?:you|your|yours)\b", re.I)


def addressee(sentence: str, context: str) -> str | None:
    """The @name a second-person question is put to, where the line opens on it; None for a question to the reader."""
    if not _SECOND_PERSON.search(sentence):
        return None  # "@x what is the purpose of this diff?" asks about the diff, whoever answers
    own = _OWN_LEAD.match(sentence)
    if own:
        return own.group("who").strip(" ,")
    at = context.find(sentence)
    before = _ADDRESSED.search(context[max(0, at - 120):at]) if at > 0 else None
    return before.group("who").strip(" ,") if before else None


def without_addressee(question: str) -> str:
    """The question without the greeting and the @name it opens on."""
    return _OWN_LEAD.sub("", question, count=1)
