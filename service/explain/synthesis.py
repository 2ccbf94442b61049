"""The gist synthesised, not reworded: the author's clause cut to its core, the text's own comparisons worked out
(from 470 to 270 ms: about 43% less), the question folded in, and a decisive check of the text's figures first."""

import re

from service.explain import claims as claim_cues
from service.explain import gist_plain, gist_side, pattern_cache, person
from service.explain.document import Document
from service.i18n import arabic_numbers
from service.i18n.messages import messages

# Quantities a text compares as results (a time, a rate, a utilisation), never set-up numbers such as a degree or a count.
COMPARED = claim_cues.MEASURED | {"flop_per_s_per_chip"}
# "from 470ms to 270ms", "47%→30%", "32 -> 8": the text itself says one value became the other.
_ARROW = pattern_cache.lazy(r"\s*(?:→|->|=>|⟶|to|إلى)\s*[~≈]?\s*", re.I)
_FROM = pattern_cache.lazy(r"(?:\bfrom|من)\s*[~≈]?\s*$", re.I)
# A range ("between 53.2% and 56.7%", "5 to 9 months", "30-191") is not a comparison.
_RANGE_BEFORE = pattern_cache.lazy(r"(?:\bbetween|بين|تتراوح\s+بين)\s*[~≈]?\s*$", re.I)
_RANGE_BETWEEN = pattern_cache.lazy(r"\s*(?:-|–|and|و|or)\s*[~≈]?\s*", re.I)
# The words that make two figures a comparison in the text: "slower than", "vs", "compared with", "مقابل".
_COMPARES = pattern_cache.lazy(r"\b(?:than|vs\.?|versus|compared (?:to|with)|against|whereas|instead of|relative to)\b"
                               r"|(?:مقابل|مقارنة|بدلًا من|بدلا من|أكثر من|أقل من|أبطأ من|أسرع من)", re.I)

# A later sentence that says its figure is what the earlier one became: "The throughput has increased, reaching 230".
_CHANGED = pattern_cache.lazy(r"\b(?:increased|decreased|improved|dropped|rose|fell|went (?:up|down)|grew|shrank)\b|"
                              r"(?:ارتفع|ارتفعت|انخفض|انخفضت|تحسن|تحسنت|زاد|زادت)", re.I)
# What a gist can drop and still say what the author says: a parenthetical of words without a figure (an acronym's
# "(MFU)" stays: it names the term the answer explains), a leading "By doing X,",
# "I found that", "it seems that", an example after "e.g." (never a negation, a condition or a figure).
_DROP_EN = [pattern_cache.lazy(p, re.I) for p in (
    r"^\[\d{4}-\d{2}-\d{2}[^\]]{0,30}\]\s*",  # a log line's timestamp ("[2025-04-07 13:06:18] CUDA max memory ...")
    gist_side.SHOWN_TAIL,  # "..., as shown in the following figure:"
    # not a formula's operand ("(bandwidth) ÷ (bytes)") nor a function's argument ("sum(active transfer time)")
    # nor a condition or exception ("(except at very large batch size)", "(only with FP8)"): the claim holds only so
    # nor a variant's name ("DeepCompile (Offload selective+async)" against "(Offload optimizer all+sync)", round 68 P17)
    r"(?<![÷×*/+=^\w])(?<![÷×*/+=^]\s)\s*\((?![^()]*[\d+])(?!\s*(?:except|unless|only|if|when|but|not|without|as long as)\b)[^()\s]+\s[^()]*\)(?!\s*[÷×*/+=^])",
    r"^(?:by|with the (?:support|help) of|to be (?:more )?(?:specific|honest)|in (?:my|our) (?:experience|tests?)|"
    r"as (?:far as )?(?:i|we) (?:know|can tell)|in fact|of course|(?:just )?to clarify|to be clear|for clarity|basically|honestly|"
    r"in short|in summary|in other words|(?:put|simply) (?:simply|put)|if so)\b[^;]{0,120}?[,-]\s*"
    r"(?=(?:the|a|an|we|i|it|they|this|these|our|my|he|she|there)\b)",
    r"^(?:i|we) (?:think|believe|guess|feel)\s+(?:that\s+)?",
    r"\s+with (?:the )?following (?:configuration|config|settings|setup|parameters)\b",  # points at page content not shown
    r"^it turns out\s*(?:that\s+|,\s*)",  # "it seems that" became "probably" above; "It seems to be X" is the whole claim
    r",?\s*\(?\b(?:e\.g\.|for example|for instance)[^;),]*\)?(?=[.;]?$)",
    # an example set between commas before the main clause goes on (", e.g. to fit a 30B model, you need ...")
    r"(?<=,)\s*(?:e\.g\.|for example|for instance)[^;(),]{1,80},(?=\s+\w)",
    # a bracketed note, example or pointer ("(note speed up can be 1.3-1.5x for larger models)", "(see #412)") is aside
    r"\s*\((?:note|n\.b\.|nb|see|e\.g\.|i\.e\.|for example|for instance|cf\.|edit|update)\b[^()]*\)",
    # a label before the claim ("Case study:", "Update:") and where the result came from ("In further experiments,")
    r"^(?:case study|update|edit|note|context|background)\s*:\s*",
    # a heading run onto its first sentence ("Sharding using FSDP: we experimented ..."): the heading names, the sentence says
    r"^(?!(?:[^:]*\s)?(?:is|are|was|were|has|have|had|do|does|did|can|could|will|would|should|must|both|them)\b)"  # "X fixes both:" says
    r"(?:[A-Za-z][\w()/-]*\s){0,4}[A-Za-z][\w()/-]*\s*:\s+(?=(?:we|i|they|this|these|it|our|there)\b)",
    r"^in (?:further|additional|more|later|our|these|follow-up) (?:experiments?|tests?|runs?|benchmarks?|measurements?)\s*,\s*",
)]
# "I found (that) X": X is what the author says, when X is a clause of its own.
_PERCEIVED = pattern_cache.lazy(r"^(?:i|we) (?:found|find|realized|realised|noticed|notice|observed|observe|saw|see|(?:now )?know)"
                                r"(?:\s+(?:from|in) (?:table|figure|fig\.) ?\d+)?\s+(?P<that>that\s+)?", re.I)
# A trailing "، والذي ..." / "، والتي ..." only describes what is before it; "على وجه الخصوص" is emphasis.
_DROP_AR = [pattern_cache.lazy(p) for p in (
    r"\s*\((?![^()]*[\d٠-٩])[^()\s]+\s[^()]*\)",
    r"،\s*(?:على وجه الخصوص|في الواقع|بطبيعة الحال)\s*،",
    # "تكلفة تدريب X، وهو نموذج يدعم النصوص، والصور، تتراوح ...": the description between the noun and its verb
    r"،\s*(?:وهو|وهي)\s(?![^.]*?[\d٠-٩][^.]*?،\s*[يت])[^.]*?،\s*(?=[يت][\u0621-\u064A]{2,}\s)",
    # to its closing comma: "في إعلان ...، والذي قد يزيد ...، كشفت هواوي ..." keeps the main clause after it
    r"،\s*و?(?:الذي|التي)\s(?![^.،]*(?:أن|[\d٠-٩]))[^.،]*(?=،|$)",  # not "، والتي تنص على أن ...": that states the content
    r"^(?:ملاحظة|ملحوظة|تنبيه|تحديث|تعديل|المشكلة|الحل)\s*[:：]\s*",  # a label ("ملاحظة:", Note:) before the claim
)]
# Between a subject and its verb ("The root of the problem, which we'll describe below, is that ...") the clause takes
# its closing comma with it, or the verb is left cut off from its subject by a lone comma.
_RELATIVE_EN = pattern_cache.lazy(r",\s*which\s+[^,;]*(?:,(?=\s+(?:is|are|was|were|has|have|had|does|do|did|can|could|will|would|should|must|may|might)\b)|(?=[,;]|$))", re.I)
# ", which makes it the leader" states what follows from the clause (often the point); ", which is a library" describes
_KEEP = pattern_cache.lazy(r"\b(?:not|no|never|n't|only|just|unless|if|because|since|due to|crash\w*|fail\w*|error|cannot|can't|"
                           r"OOM\w*|out of memory|hang\w*|stall\w*|overflow\w*|exceed\w*|deadlock\w*|time[sd]? out|degrad\w*)\b"  # the problem: the point
                           r"|\d|^,\s*which\s+(?:makes?|made|means?|meant|leads?|led|causes?|caused|results?|resulted|gives?|gave|"
                           r"lets?|allows?|enables?|explains?|forces?|requires?|limits?|hurts?|saves?|reduces?|increases?|cuts?|"
                           r"doubles?|halves?|slows?|speeds?|keeps?|brings?|puts?|is why|translates?|wastes?|costs?)\b", re.I)


# A list item's label before a dash ("ZeRO - Also performs sharding ...") is the subject of its verb.
_LABEL_DASH = pattern_cache.lazy(r"^(?P<label>\S[^-–:]{0,60}?)\s+[-–]\s+(?:(?P<also>Also)\s+)?(?P<verb>[A-Za-z][a-z]+s)\b")


# Talk about the talk, not the claim: "A few points to note here,", "Of note though,", "First of all,", "Rather,",
# "I was wondering how ..." (the question stays); each dropped once, never a word of the claim ("in my opinion" is a
# hedge: it stays).
_DISCOURSE_EN = [pattern_cache.lazy(p, re.I) for p in (
    r"^(?:(?:a few|some|two|three)\s+)?(?:points?|things?)\s+to\s+note(?:\s+here)?\s*[,:]\s*",
    # "As someone who wants to learn more about this: While FSDP is ...": who the author is, not what they say
    r"^as (?:someone|a person|a newcomer|a beginner|an outsider|a user)\b[^:,.]{0,60}[:,]\s*",
    r"^(?:of note|first of all|first off|for what it'?s worth|to be fair|"
    r"as (?:mentioned|said|noted) (?:above|before|earlier))(?:\s+though)?\s*,\s*",
    # "I was wondering if X" asks whether X: only the wording before a question word goes ("I was wondering how ..."),
    # never an "if"/"whether", whose clause alone would state X as found
    r"^(?:i|we|they)\s+(?:was|were|am|are)\s+wondering\s+(?=(?:how|why|what|which|where|when|who)\b)",
    r"^(?:rather|instead|anyway|that said|having said that)\s*,\s*",
    # "Looking at the traces, X": where the author looked, not what they found
    r"^(?:looking|judging)\s+(?:at|by|from)\s+[^,.;:]{2,50},\s*",
    # "These results demonstrate that X" concluded is X concluded; "suggest"/"indicate" are hedges and stay
    r"^(?:these|the|our|such) (?:results?|findings|numbers|experiments?|measurements?|benchmarks?) (?:show|demonstrate|confirm|prove)s? that\s+",
)]
# "On the A100s, we note that X" is the authors saying X: the gist already says who says it.
_INNER_REPORTING = pattern_cache.lazy(r"^(?P<lead>[^,;]{1,40},\s*)(?:i|we)\s+(?:note|noted|notice|noticed|found|find|observe|observed|"
                                      r"see|saw)\s+(?:that\s+)?(?=\w)", re.I)
_AS_WELL = pattern_cache.lazy(r",?\s+as well(?=[.?!]?$)", re.I)  # a trailing "as well" adds nothing the gist needs
# "It seems that X" keeps its hedge as "probably X": the author is not sure, so the gist is not either.
_SEEMS_THAT = pattern_cache.lazy(r"^it (?:seems|appears|looks like)\s*(?:that\s+|,\s*|(?=(?:the|a|an|this|these|those|our|their|its|"
                                 r"we|they|there|all|most|some)\s))(?=\w)", re.I)  # "It seems the combine is faster": probably it is


def compressed(text: str, lang: str) -> str:
    """The clause without what only decorates it; what it asserts, negates, conditions or measures stays."""
    for form in gist_plain.said():  # a term's plain meaning in brackets ("MFU (the share of ...)") is no aside
        text = text.replace(f"({form})", f"\x01{form}\x02")
    text = _compressed(text, lang)
    return text.replace("\x01", "(").replace("\x02", ")")


# "Here are the results we got: 41% MFU": what the results are, said as a clause "that" can carry
_HERE_ARE = pattern_cache.lazy(r"^here (is|are) (?P<what>[^:]{3,80}?)\s*:\s*(?P<value>\S.*)$", re.I)


def _compressed(text: str, lang: str) -> str:
    if lang != "ar":
        here = _HERE_ARE.match(text)
        if here:
            text = f"{here.group('what')} {here.group(1).lower()} {here.group('value')}"
        for pattern in _DISCOURSE_EN:
            text = pattern.sub(" ", text, count=1).strip()
        text = _SEEMS_THAT.sub("probably ", text, count=1)
        text = _AS_WELL.sub("", text, count=1)
        text = _INNER_REPORTING.sub(r"\g<lead>", text, count=1)
    for pattern in (_DROP_AR if lang == "ar" else _DROP_EN):
        text = pattern.sub(" ", text, count=1).strip()  # inner spaces closed up below
    if lang != "ar":
        seen = _PERCEIVED.match(text)
        rest = text[seen.end():] if seen else ""
        if seen and (seen.group("that") or (rest[:1].isalpha() and person.clause_follows(rest))):  # not "gaps of 4s where ..."
            text = text[seen.end():]  # "I found the step takes 3s" says the step takes 3s; "we see 45% of ..." keeps its verb
    if lang != "ar":
        text = _LABEL_DASH.sub(lambda f: f"{f.group('label')} {'also ' if f.group('also') else ''}{f.group('verb').lower()}", text, count=1)
    if lang != "ar":
        # ", a method more efficient than p2p" after the clause describes what the clause names: cut, it would describe the subject
        text = _RELATIVE_EN.sub(lambda found: found.group(0) if _KEEP.search(found.group(0))
                                or re.match(r",\s+(?:a|an)\s", found.string[found.end():]) else "", text)
    text = " ".join(text.split()).replace(" ,", ",").replace(" ،", "،")  # a dropped aside leaves "loaded  , in": spaces first
    return text[:1].upper() + text[1:] if text[:1].islower() and lang != "ar" and not text.split(" ", 1)[0][1:2].isupper() \
        and re.match(r"[a-z]+\b", text) else text


def _in(doc: Document, index: int, figure) -> bool:
    start, end = doc.sentences[index]
    return start <= figure.start < end


def pairs(doc: Document, indexes: list[int]) -> list[tuple]:
    """(first, second, 'change'|'versus') for each two figures of one measured quantity that the text itself sets
    side by side in these sentences: 'change' when it says one became the other, 'versus' when it compares them."""
    figures = sorted((f for f in doc.figures if f.quantity in COMPARED and f.value > 0 and any(_in(doc, i, f) for i in indexes)),
                     key=lambda f: f.start)
    out, used = [], set()
    for first, second in zip(figures, figures[1:]):
        if _kind(first.quantity) != _kind(second.quantity) or first.value == second.value or first.start in used:
            continue
        between = doc.text[first.end:second.start]
        before = doc.text[max(0, first.start - 16):first.start]
        if _RANGE_BEFORE.search(before) or (_RANGE_BETWEEN.fullmatch(between) and not _COMPARES.search(between)) \
                or (first.role, second.role) == ("low", "high") or {first.role, second.role} & {"low", "high"}:
            continue  # a range or a list ("532 and 557 TFLOPs for BF16 and MXFP8 respectively", "range from 35% to 45%")
        later = next((a for a, b in doc.sentences if a <= second.start < b), second.start)
        changed = not later <= first.start and _CHANGED.search(doc.text[later:second.start])
        if _ARROW.fullmatch(between) or (first.role == "before" and second.role == "after") or changed:
            out.append((first, second, "change"))
        elif len(between) < 200 and _COMPARES.search(between + " " + _sentence_of(doc, second)):
            out.append((first, second, "versus"))
        else:
            continue
        used.update({first.start, second.start})
    return out


def _kind(quantity: str) -> str:
    """Two durations are one kind of quantity: a step time and a time the reader could not tie to a step compare."""
    return "time_s" if quantity.endswith("time_s") else quantity


def _sentence_of(doc: Document, figure) -> str:
    return next((doc.text[a:b] for a, b in doc.sentences if a <= figure.start < b), "")


def _number(value: float) -> str:
    return f"{value:.0f}" if value >= 10 else f"{value:.1f}".rstrip("0").rstrip(".")


def change_words(before: float, after: float, lang: str, kind: str, first_quote: str = "", percent: bool = False,
                 ref: str = "") -> str:
    """The change or ratio worked out in words: 'about 43% less', 'about 8 times as much' ('change': after against
    before; 'versus': the first figure against the second); two percentages differ by points ('17 points less', not
    a share of a share). Only arithmetic: never 'slower' or 'better', which the text may or may not say."""
    words = messages(lang)["gist_synth"]
    ratio = after / before
    if percent:
        points = round(abs(after - before) * 100)
        amount = arabic_numbers.count(float(points), words["points_forms"]) if lang == "ar" else f"{points}"  # "10 نقاط"
        said = words["points_" + ("more" if after > before else "less") + ("_ref" if ref else "")].format(amount=amount, ref=ref)
        said = re.sub(r"بـ(?=[\u0621-\u064A])", "ب", said)  # the joining stroke stands only before digits: "بنقطتين"
        said = said.replace("1 percentage points", "1 percentage point") if points == 1 else said
        return words["versus"].format(first=first_quote, change=said) if kind == "versus" else said
    if abs(ratio - 1) < 0.005:
        said = words["same" + ("_ref" if ref else "")].format(ref=ref)
        return words["versus"].format(first=first_quote, change=said) if kind == "versus" else said
    if ratio >= 1.5:
        amount = _number(ratio) if lang != "ar" else arabic_numbers.count(float(_number(ratio)), words["times_forms"])
        key = "times"
    else:
        amount = f"{abs(ratio - 1) * 100:.0f}"
        key = "more" if ratio > 1 else "less"
    said = words[key + ("_ref" if ref else "")].format(amount=amount, ref=ref)
    return words["versus"].format(first=first_quote, change=said) if kind == "versus" else said






_RESPECTIVELY = pattern_cache.lazy(r"\bfor\s+(?P<labels>[^.;:]{1,80}?)\s*,?\s+respectively\b", re.I)
_LIST_SPLIT = pattern_cache.lazy(r"\s*(?:,\s*(?:and\s+)?|\band\b)\s*", re.I)
_NEWER = pattern_cache.lazy(r"\b(?:updated|new|now|after|improved|optimi[sz]ed|with (?:this|the) (?:change|pr|fix|patch))\b", re.I)
_NUMBER = pattern_cache.lazy(r"^[~≈]?\s*[\d.,]+\s*[KkMBT]?\b")


def parallel_lists(doc: Document, first: int, second: int) -> str:
    """Two sentences that give the same labels' values in the same order ("532 and 557 TFLOPs for BF16 and MXFP8
    respectively" / "The updated config has 575 and 635 TFLOPs for BF16 and MXFP8 respectively"), read as one list
    of changes ("BF16 from 532 to 575 TFLOPs (about 8% more) ..."); a change only when the second says it is the
    newer state, else the two values side by side; '' when the sentences are not such lists."""
    if doc.lang == "ar":
        return ""
    texts = [doc.text[slice(*doc.sentences[i])] for i in (first, second)]
    found = [_RESPECTIVELY.search(t) for t in texts]
    if not all(found):
        return ""
    labels = [[x for x in re.split(_LIST_SPLIT.pattern, f.group("labels").strip(), flags=re.I) if x] for f in found]
    if [x.lower() for x in labels[0]] != [x.lower() for x in labels[1]] or len(labels[0]) < 2:
        return ""
    values = [[f for f in doc.figures if _in(doc, i, f) and f.quantity in COMPARED] for i in (first, second)]
    if any(len(v) != len(labels[0]) for v in values) or len({f.quantity for v in values for f in v}) != 1 \
            or any(f.value <= 0 for v in values for f in v):
        return ""
    words = messages(doc.lang)["gist_synth"]
    unit = _NUMBER.sub("", values[1][-1].quote).strip() or _NUMBER.sub("", values[0][-1].quote).strip()
    change = bool(_NEWER.search(texts[1])) and not _NEWER.search(texts[0])
    items = []
    for label, old, new in zip(labels[0], values[0], values[1]):
        a, b = (_NUMBER.match(f.quote.strip()) for f in (old, new))
        if not a or not b:
            return ""
        if change:
            said = change_words(old.value, new.value, doc.lang, "change")
            items.append(words["change_item"].format(label=label, a=a.group(0).strip(), b=b.group(0).strip(), unit=unit, change=said))
        else:
            items.append(words["pair_item"].format(label=label, a=a.group(0).strip(), b=b.group(0).strip(), unit=unit))
    return words["figures"].format(items=words["and"].join(items))
