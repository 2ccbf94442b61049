"""What the text itself says its terms mean, read before any stock definition: an acronym it expands ("Global Batch
Size (GBS)", "GBS (global batch size)"), an appositive ("Hala, a family of Arabic models, ..."), a definition
sentence ("DualPipeV is a V-shape schedule derived from DualPipe"), a name it gives ("an approach called X"), and
the Arabic forms ('"هالة" (Hala)، وهي عائلة ...').

A name no other stage explains becomes a term with the text's sense; a glossary term the text defines otherwise
than its entry's name says carries the text's sense first (compose's "Here, as the text defines it")."""

import re
from typing import NamedTuple

from service.explain import glossary, named_kinds, pattern_cache
from service.i18n import arabic
from service.i18n.messages import messages


class Definition(NamedTuple):
    """One term the text defines: as written, where, and the meaning in the text's words."""

    term: str
    start: int
    meaning: str
    arabic_name: str = ""  # the Arabic name the text gives beside a Latin one ("هالة" for Hala)


_NAME = r"(?:[A-Z][\w+.]*(?:-[\w+.]+)*|[a-z]+[A-Z][\w+.]*)(?:\s(?:[A-Z][\w+.]*(?:-[\w+.]+)*)){0,3}"
_AFTER_EXPANSION = pattern_cache.lazy(r"(?P<meaning>\b[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,7})\s*\((?P<term>[A-Z][A-Za-z0-9]{1,7})\)")
_BEFORE_EXPANSION = pattern_cache.lazy(r"\b(?P<term>[A-Z][A-Z0-9]{1,7})s?\s*\((?P<meaning>[A-Za-z][A-Za-z -]{3,60})\)")
# ... or up to its relative clause: "we present DCP, a dynamic context parallel training framework that introduces ..."
_APPOSITIVE = pattern_cache.lazy(rf"(?<![\w.-])(?P<term>{_NAME})\s*,\s+(?P<meaning>(?:a|an)\s+[^,;.()\n]{{4,80}}?)"
                                 rf"(?:\s*,(?=\s)|\s+(?=(?:that|which)\s))")
_COPULAR = pattern_cache.lazy(rf"(?:^|(?<=[.!?]\s)|(?<=\n))(?P<term>{_NAME})\s+(?:is|are)\s+(?P<meaning>(?:a|an)\s+[^;\n]{{6,140}}?)(?=\.\s|\.$|;|\n|$)")
_BRACKETED = pattern_cache.lazy(rf"(?<![\w.-])(?P<term>{_NAME})\s*\((?P<meaning>(?:the|a|an)\s+[^()\n]{{4,70}})\)")
# "TTFT, which is depended by the backend's ...": a passive verb with its agent says what affects X, not what X is
# "a linear layer of D*V, which takes 2x ...": a variable of a product is no subject of the clause after it
_WHICH = pattern_cache.lazy(rf"(?<![\w.*/×-])(?P<term>{_NAME}),\s+which\s+(?!(?:is|are|was|were)\s+(?:\w+ly\s+)?[a-z]+(?:ed|en)\s+by\b)"
                            rf"(?P<meaning>[^,;.()\n]{{6,100}}?)(?=[,;.]\s|[,;.]$|\n|$)")
_CALLED = pattern_cache.lazy(r"\b(?P<meaning>(?:a|an|the|our|its|their)\s+(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:called|named|dubbed|known\s+as)\s+"
                             r"[\"“']?(?P<term>[A-Za-z](?:[\w+-]|\.(?=\w))*(?:\s(?!(?:in|which|that|where|when|to|for|and|or|is|are|was|were|with|by|on|at|as|of|from)\b)[A-Za-z](?:[\w+-]|\.(?=\w))*){0,3})[\"”']?(?=[\s,.;)]|$)")  # "v1.5" keeps its dot; "test. These" ends at it
# The subject of "X is called Y" from its sentence's start: "The process of transferring weights ... is called refit"
_PASSIVE_SUBJECT = pattern_cache.lazy(r"(?:^|(?<=[.!?]\s)|(?<=\n))(?P<subject>(?:The|A|An)\s+[^.;:!?\n]{4,120}?)\s+(?:is|are|was|were)$")
# "TGS — throughput per GPU — is the meaningful metric": an abbreviation glossed between dashes (or in "(i.e. ...)")
_DASHED = pattern_cache.lazy(r"\b(?P<term>[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*)\s+(?:[—–]|--)\s+(?!(?:not|which|that|and|or|but|so|as|like|such|the|this|these|it|we|you|i\.e|e\.g)\b)(?P<meaning>[a-z][\w /-]{3,60}?)\s+(?:[—–]|--)\s")
_STANDS_FOR = pattern_cache.lazy(r"\b(?P<term>[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*)\s+(?:stands\s+for|is\s+short\s+for)\s+[\"“']?(?P<meaning>[A-Za-z][\w -]{3,60}?)[\"”']?(?=[,.;)]|\s+(?:and|which|that)\b)")
# what the text says an abbreviation it spells out is or does, right after the brackets: "HAP (Hybrid Adaptive
# Parallelism), a novel method that ...", "use disaggregated expert parallelism (DEP) to distribute attention and experts ..."
_FINITE_IN = pattern_cache.lazy(r"\b(?:was|were|is|are|has|have|had|did|does|do|will|would|can|could|got|gets)\b")
_LEADING_PREPOSITION = pattern_cache.lazy(r"(?:^|[.!?\n]\s*)(?:On|In|At|With|For|From|By|After|Before|During|Under|Using)\s+$")
_APPOSITIVE_AFTER = pattern_cache.lazy(r"\s*,\s+(?P<what>(?:a|an)\s+[^.,;()\n]{6,120}?)(?=[.,;]|\n|$)")
_PURPOSE_AFTER = pattern_cache.lazy(r"\s+to\s+(?P<what>(?!be\b)[a-z]+\s+[^.;()\n]{4,100}?)(?=[.;,]|\n|$)")
_USE_BEFORE = pattern_cache.lazy(r"\b(?:use[sd]?|using|utili[sz]e[sd]?|utili[sz]ing|adopt(?:s|ed|ing)?|employ(?:s|ed|ing)?|leverag(?:e|es|ed|ing)|appl(?:y|ies|ied|ying)|propose[sd]?)\s+(?:\w+\s+){0,2}$", re.I)
# hyphens a word processor writes inside words ("time‑to‑accuracy", U+2011): read as "-" so an expansion is found
_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-"})
_ARABIC_APPOSITIVE = pattern_cache.lazy(r"[\"“«](?P<ar>[^\"”»\n]{2,30})[\"”»]\s*\((?P<term>[A-Za-z][\w .+-]{0,30})\)\s*،?\s*"
                                        r"(?:وهي|وهو|أي)\s+(?P<meaning>[^،.؛\n]{6,100})")
_CONSEQUENCE = pattern_cache.lazy(r"(?:means|implies|suggests|indicates|leads|results|shows|explains|makes)\b", re.I)
_EXAMPLE_OF = pattern_cache.lazy(r"\b(?:like|unlike|such as|including|e\.g\.|than|as in|as with)\s+$", re.I)
# "SGLang (the latest main branch at datetime 20260105)": which build was run, not what the name means
_VERSION_NOTE = pattern_cache.lazy(r"\b(?:branch|commit|version|release|build|nightly|datetime|date|tag)\b|\d"
                                  # "80 GB of VRAM (the biggest today)" ranks the card, defines nothing (round 96 P18)
                                  r"|^\s*(?:the\s+)?(?:most\s+\w+|best|worst|largest|biggest|fastest|latest|newest|smallest|highest|lowest|cheapest|"
                                  r"slowest|greatest|longest|strongest)\b", re.I)
_BARE_KIND = re.compile(r"^\s*(?:the|a|an)?\s*(?:[\w-]+\s+)?model\s*$", re.I)  # "the language model": a kind, not a definition
_PERSONAL = pattern_cache.lazy(r"\b(?:I|we|you|my|our|your|us)\b", re.I)
# "the primary gap", "a surprisingly large gap", "the main problem": a judgement of what the clause says, no definition
_VERDICT_NOUN = re.compile(r"(?:the|a|an)\s+(?:[\w-]+\s+){0,2}(?:gap|problem|issue|bottleneck|reason|cause|difference|concern|"
                           r"challenge|limitation|catch|trade-?off|downside|drawback|advantage|benefit|point|question|culprit)\b", re.I)
_NOT_NAMES = frozenset({"it", "this", "that", "these", "those", "there", "here", "which", "what", "the", "a", "an", "and",
                        "but", "or", "so", "also", "then", "thus", "however", "below", "above", "why", "how", "when",
                        "we", "i", "you", "they", "he", "she", "our", "their", "my", "your", "its",
                        # sentence openers that link, never a name the appositive after them defines ("Besides, a ...")
                        "besides", "moreover", "furthermore", "additionally", "finally", "first", "second", "third",
                        "meanwhile", "instead", "otherwise", "hence", "therefore", "indeed", "notably", "overall",
                        "similarly", "likewise", "nevertheless", "nonetheless", "still", "yet", "now", "today", "recently"})


def _initials(words: list[str]) -> str:
    """The first letters of the words and of their hyphenated parts ("Micro-Batch Size" -> "MBS")."""
    return "".join(part[0] for word in words for part in word.split("-") if part)


def _expansion(words: list[str], acronym: str) -> str | None:
    """The shortest run of the last words whose initials spell `acronym` (small words may be skipped), else None."""
    wants = {acronym.lower(), acronym[:-1].lower() if len(acronym) > 2 and acronym.endswith("s") else acronym.lower()}
    for n in range(1, len(words) + 1):
        tail = words[-n:]
        content = [w for w in tail if w.lower() not in ("of", "and", "the", "for", "to", "in", "a")]
        if _initials(tail).lower() in wants or _initials(content).lower() in wants:
            return " ".join(tail) if tail[0].lower() not in ("the", "a", "an", "of") else None
    return None


def _prefixes(words: list[str], acronym: str) -> str | None:
    """The words when the acronym is their prefixes in order ("VMEM (vector memory)": V + MEM, "SMEM (scalar memory)"),
    each word giving one or more letters, a small word none; the text's own expansion beats the glossary's (round 86 P04)."""
    short, parts = acronym.lower(), [w.lower() for w in words]

    def spells(at: int, k: int) -> bool:
        if k == len(parts):
            return at == len(short)
        word = parts[k]
        small = word in ("of", "and", "the", "for", "to", "in", "a")
        return (small and spells(at, k + 1)) or any(short[at:at + n] == word[:n] and spells(at + n, k + 1)
                                                    for n in range(1, min(len(word), len(short) - at) + 1))
    return " ".join(words) if 2 <= len(short) <= 6 and 2 <= len(parts) <= 4 and spells(0, 0) else None


def _letters_in_order(words: list[str], acronym: str) -> str | None:
    """The shortest run of the last words holding the acronym's letters in order, its first letter opening a word
    (Schwartz & Hearst 2003, "A simple algorithm for identifying abbreviation definitions in biomedical text",
    https://psb.stanford.edu/psb-online/proceedings/psb03/schwartz.pdf): "RDMA over Converged Ethernet (RoCE)",
    "micro_batch_size (MBS)", each capital at a word's start or a capital; None where no such run of at most min(letters + 5, 2 x letters) words exists."""
    long = " ".join(words)
    letters = [c for c in acronym if c.isalnum()]
    at, matched = len(long) - 1, []
    for n, letter in enumerate(reversed(letters)):
        first = n == len(letters) - 1
        # a capital of the short form stands for a word's first letter or a capital ("eXchange"), never a letter inside
        while at >= 0 and (long[at].lower() != letter.lower() or ((first or letter.isupper()) and at > 0
                                                                    and long[at - 1].isalnum() and not long[at].isupper())):
            at -= 1
        if at < 0:
            return None
        matched.append(at)
        at -= 1
    if re.fullmatch(r"[A-Za-z][a-z]*", long[matched[-1]:matched[0] + 1]):
        return None  # "the table below (TABLE)": every letter inside one word, nothing is spelled out
    start = long.rfind(" ", 0, at + 2) + 1
    found = long[start:]
    if len(found.split()) > min(len(letters) + 5, 2 * len(letters)) or found.split()[0].lower() in ("the", "a", "an", "of"):
        return None
    return found


HEAD_WITHIN = 6  # words after the article where the defining noun stands ("a concise V-shape schedule ...")


def _head_noun(meaning: str) -> bool:
    """Whether `meaning` opens by naming a kind of thing this field's names are (data/head_nouns.json): a definition
    ("a family of models"), not a verdict ("a pain to configure on a new cluster")."""
    words = {w.lower().rstrip("s") for w in re.findall(r"[A-Za-z]+", meaning)[1:1 + HEAD_WITHIN]}
    return any(head.split()[-1] in words for head in named_kinds.heads())


# After an appositive's closing comma, the words of a list it was cut from: "easy, cost-effective and near-linear".
_LIST_GOES_ON = re.compile(r"\s*[\w-]+(?:\s+[\w-]+)?(?:,|\s+(?:and|or)\s)")
# After "X, an open-source," the noun the adjectives were for: "PyTorch-native distributed training system", up to a
# clause that follows it ("that unifies ...") or the next punctuation
_NOUN_GOES_ON = re.compile(r"\s*(?P<rest>[A-Za-z][\w-]*(?:\s+(?!(?:that|which|who|for|with|to|in|on|and|or)\b)[A-Za-z][\w-]*){1,5})(?=\s+(?:that|which|who|for|with|to|in|on)\b|[;.:]|\s*$)")
_RELATIVE = re.compile(r"\s+(?:that|which|who|enabling|allowing|making)\b")


def _without_clause(meaning: str) -> str:
    """The noun phrase of a meaning without its relative clause ("a training technology that enables easy" -> "a
    training technology"); "" when no clause can go, so a meaning cut inside a list is never quoted."""
    clause = _RELATIVE.search(meaning)
    return meaning[:clause.start()] if clause and len(meaning[:clause.start()].split()) >= 3 else ""


def _trimmed(term: str) -> str:
    """The name less the ordinary capitalised words before its name-like part ("Enable SHARP" -> "SHARP")."""
    words = term.split()
    while len(words) > 1 and not named_kinds.name_like(words[0]):
        words = words[1:]
    return " ".join(words)


def _is_name(term: str) -> bool:
    """A name, not a sentence's first word nor a title's ordinary words ("Efficient Training")."""
    words = term.split()
    if len(words) == 1 and re.fullmatch(r"[A-Z][a-z]+ly", term):
        return False  # "Historically, a training run ...": an adverb opening a sentence, not a name
    return words[0].lower() not in _NOT_NAMES and (len(words) == 1 or any(named_kinds.name_like(w) for w in words))


def _with_what(text: str, end: int, meaning: str, before: str) -> str:
    """A spelled-out abbreviation's expansion with what the text says right after it that the thing is ("a novel method
    that ...") or, where the text uses it, what for ("to distribute attention and experts ..."): "Short for X" alone
    left readers with an empty item (round 36)."""
    appositive = _APPOSITIVE_AFTER.match(text, end)
    if appositive and len(appositive.group("what").split()) >= 3 and not _PERSONAL.search(appositive.group("what")):
        return f"{meaning}, {appositive.group('what').strip()}"
    purpose = _PURPOSE_AFTER.match(text, end)
    if purpose and _USE_BEFORE.search(before) and not _PERSONAL.search(purpose.group("what")):
        return f"{meaning}, used to {purpose.group('what').strip()}"
    return meaning


def find(text: str) -> list[Definition]:
    """Every term `text` defines itself, first definition of each term kept, in order."""
    found: list[Definition] = []
    text = text.translate(_HYPHENS)  # one character for one: every position stays the text's
    for m in _AFTER_EXPANSION.finditer(text):
        words = m.group("meaning").split()
        meaning = _expansion(words, m.group("term")) or _letters_in_order(words, m.group("term"))
        if meaning:
            before = text[:m.end("meaning") - len(meaning)]
            found.append(Definition(m.group("term"), m.start("term"), _with_what(text, m.end(), meaning, before)))
    for m in _BEFORE_EXPANSION.finditer(text):
        meaning = _expansion(m.group("meaning").split(), m.group("term")) or _prefixes(m.group("meaning").split(), m.group("term"))
        if meaning and meaning == m.group("meaning").strip():
            found.append(Definition(m.group("term"), m.start("term"), _with_what(text, m.end(), meaning, "")))
    for pattern in (_DASHED, _STANDS_FOR):
        for m in pattern.finditer(text):
            found.append(Definition(m.group("term"), m.start("term"), m.group("meaning").strip()))
    for pattern, needs_head in ((_APPOSITIVE, False), (_COPULAR, True)):
        for m in pattern.finditer(text):
            term, meaning = m.group("term"), m.group("meaning").strip()
            if pattern is _APPOSITIVE and len(meaning.split()) <= 3 and not _head_noun(meaning) and (more := _NOUN_GOES_ON.match(text, m.end())):
                meaning = f"{meaning}, {more.group('rest').strip()}"  # "an open-source, PyTorch-native distributed training system"
            elif pattern is _APPOSITIVE and _LIST_GOES_ON.match(text, m.end()):
                meaning = _without_clause(meaning)  # "X, a technology that enables easy, cost-effective and ...": the list is cut
            if pattern is _APPOSITIVE and (_FINITE_IN.search(meaning) or _LEADING_PREPOSITION.search(text, max(0, m.start("term") - 12), m.start("term"))):
                continue  # "On V1, a request was sent to the GPU, ...": a clause after an opening phrase, no appositive
            if re.search(r"[+/×*&]\s*$", text[max(0, m.start("term") - 3):m.start("term")]):
                continue  # "E + D, which places the GPUs ...": the layout "E + D" is described, not its last letter (round 87 P20)
            if meaning and _is_name(term) and not _PERSONAL.search(meaning) and (not needs_head or _head_noun(meaning)):
                found.append(Definition(term, m.start("term"), meaning))
    for m in _BRACKETED.finditer(text):  # "SHARP (the in-network reduction engine)"
        term = _trimmed(m.group("term"))
        if _is_name(term) and not _PERSONAL.search(m.group("meaning")) and not _VERSION_NOTE.search(m.group("meaning")):
            found.append(Definition(term, m.end("term") - len(term), m.group("meaning").strip()))
    for m in _WHICH.finditer(text):  # "DeepEP, which implements ..." / "HSDP, which is a mix of ..."
        term, clause = _trimmed(m.group("term")), m.group("meaning").strip()
        if not _is_name(term) or _PERSONAL.search(clause) or re.search(r"[A-Z][\w-]*\s$|[+/×*&]\s*$", text[:m.end("term") - len(term)]):
            continue  # "Flash Attention, which requires ...": the clause is of the whole name, not of "Attention"; "E + D, which
            # places the GPUs ...": of the layout, not of its last letter (round 87 P20)
        if _CONSEQUENCE.match(clause) or _EXAMPLE_OF.search(text[:m.end("term") - len(term)]):
            continue  # "... for AI, which means that ...", "HBM like Nvidia, which requires ...": of the clause or the noun before
        # "which is a mix of ...", "which is CPU code": what it is; "which is impossible with f16" says how things stand
        copula = re.match(r"(?:is|are)\s+(?=(?:a|an|the)\s|[A-Z0-9])", clause)
        present = re.match(r"(?!was\b|is\b|has\s+been\b)[a-z]+s\b", clause)  # "implements", "has": what it does, not what it did
        meaning = clause[copula.end():] if copula else f"one that {clause}" if present else ""
        if meaning and not (copula and _VERDICT_NOUN.match(meaning)):  # "exceeds the SLO, which is the primary gap": of the clause
            found.append(Definition(term, m.end("term") - len(term), meaning))
    for m in _CALLED.finditer(text):
        if re.search(r"\w+ly$", m.group("meaning")):
            continue  # "a very frequently called operation": "called" after an adverb describes it, it names nothing
        if re.search(r"\b(?:to|of|in|on|into|onto|from|across|along|within|for)\s*$", text[max(0, m.start() - 12):m.start()]):
            continue  # "a new leading dimension to the device mesh called replica": the name may be the dimension's
        if _BARE_KIND.match(m.group("meaning")):
            continue  # "the language model called Mixture-of-Experts" (round 104 P17): a bare kind names, never defines, it
        meaning = re.sub(r"^(?:our|their)\b", "the authors'", m.group("meaning"), flags=re.I)
        if re.search(r"\s(?:is|are|was|were)$", meaning):  # "The process of moving weights and updating the sharding is
            subject = _PASSIVE_SUBJECT.search(text, 0, m.end("meaning"))  # called refit": the whole subject is what it names
            if subject is None:
                continue
            meaning = subject.group("subject")[0].lower() + subject.group("subject")[1:]
        clause = re.match(r"[\"”']?,\s+(in which|where|whereby)\s+([^.;]{8,160})", text[m.end("term"):])
        if clause:  # "a mode of operation known as weight streaming, in which weights are streamed ...": what it does too
            meaning = f"{meaning}, {clause.group(1)} {clause.group(2).strip()}"
        found.append(Definition(m.group("term").rstrip(".-"), m.start("term"), meaning))
    for m in _ARABIC_APPOSITIVE.finditer(text):
        found.append(Definition(m.group("term").strip(), m.start("term"), m.group("meaning").strip(), m.group("ar").strip()))
    firsts: dict[str, Definition] = {}
    for definition in sorted(found, key=lambda d: d.start):
        firsts.setdefault(definition.term.lower(), definition)
    return list(firsts.values())


def _same_language(meaning: str, lang: str) -> bool:
    """A meaning an answer in `lang` can quote: Arabic words for an Arabic answer, none for an English one."""
    share = arabic.share_of_arabic(meaning)
    return share > 0.5 if lang == "ar" else share == 0


def said_by_text(definitions: list[Definition], found_as: str, expansion: str, lang: str) -> str | None:
    """The text's own meaning of a term written `found_as`, where it adds to the entry's expansion; else None."""
    for definition in definitions:
        if definition.term.lower() == found_as.lower() and _same_language(definition.meaning, lang):
            if _folded(definition.meaning) in _folded(expansion) or _folded(expansion) in _folded(definition.meaning):
                return None  # "Global Batch Size (GBS)" beside the entry "global batch size": nothing to add
            words = definition.meaning.split()
            if _expansion(words, definition.term) != definition.meaning and _letters_in_order(words, definition.term) \
                    and not renames(definition.meaning, expansion):
                return None  # "Remote Direct Memory Access over Converged Ethernet (RoCE)": a spelling, the entry's own
            return definition.meaning
    return None


def renames(meaning: str, entry_words: str) -> bool:
    """Whether the text's meaning of an acronym shares no word with the glossary entry's ("DCP, a dynamic context
    parallel training framework" against "distributed checkpoint"): the text names another thing."""
    own = set(re.findall(r"[a-z]{4,}", meaning.lower()))
    own = own - _GENERIC_HEADS or own  # "vector memory" against "static random-access memory": memory names no kind
    return not own & set(re.findall(r"[a-z]{4,}", entry_words.lower()))


_GENERIC_HEADS = frozenset({"memory", "unit", "units", "engine", "processor", "device", "cache", "core", "cores"})


def spells(meaning: str, acronym: str) -> bool:
    """Whether `meaning` is the acronym spelled out word by word ("explicit congestion notification" for ECN)."""
    words = meaning.split()
    return bool(words) and _expansion(words, acronym) == meaning


def _folded(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())


def items(text: str, definitions: list[Definition], lang: str, covered: list[tuple[int, int]], known: set[str]) -> list[dict]:
    """Terms items for the names the text defines that nothing else explains (no glossary term in `covered`, no
    item named as in `known`), each with the text's own meaning."""
    out = []
    m = messages(lang)
    for definition in definitions:
        end = definition.start + len(definition.term)
        if definition.term.lower() in known or any(a < end and definition.start < b for a, b in covered):
            continue
        if not _same_language(definition.meaning, lang):
            continue  # an English answer does not quote Arabic, nor an Arabic one English
        meaning = definition.meaning
        spelled = meaning in (_expansion(meaning.split(), definition.term), _letters_in_order(meaning.split(), definition.term))  # "AQT (Accurate Quantized Training)": its words only
        if spelled and not re.search(rf"(?<![\w-]){re.escape(definition.term)}(?![\w-])", text[end + 1:]):
            continue  # spelled out where it is used once: "Short for ..." would say again what the text just said
        out.append({"id": f"text:{definition.term.lower()}", "term": definition.term,
                    "expansion": definition.arabic_name if lang == "ar" else "", "expansion_en": "",
                    "definition": _with_kind(m["text_acronym" if spelled else "text_term"].format(meaning=meaning.rstrip(".")), meaning, lang) if spelled
                    else m["text_term"].format(meaning=meaning.rstrip(".")), "intuition": None,
                    "category": "defined", "calculator": None, "found_as": definition.term, "source": None})
    return out


def _with_kind(said: str, meaning: str, lang: str) -> str:
    """"Short for Fault Tolerant All Reduce." followed by what its last words name, when the glossary knows them ("an
    all-reduce is ..."): a spelled-out name alone tells the reader nothing new (round 56 P20, "FTAR")."""
    found = [f for f in glossary.detect(meaning) if meaning.rstrip(". ").lower().endswith(f.found_as.lower()) and f.found_as.lower() != meaning.lower()]
    if not found:
        return said
    entry = found[-1].entry
    definition = (entry.get("ar", {}).get("definition") if lang == "ar" else entry["definition"]) or ""
    first = re.split(r"(?<=[.!?؟])\s|[:;؛]\s", definition, maxsplit=1)[0].rstrip(".")
    first = re.sub(r"^(?:an?|the)\s+\S+(?:\s+\S+)?\s+(?:is|are)\s+", "", first, flags=re.I)  # "A node is one server" -> "one server"
    return messages(lang)["text_acronym_kind"].format(said=said.rstrip("."), head=found[-1].found_as, definition=first[:1].lower() + first[1:]) if first else said


def renamed(definitions: list[Definition], found_as: str, entry: dict) -> bool:
    """Whether the text spells an acronym out as another thing than the entry's name ("DCP, a dynamic context parallel
    training framework" against the entry "distributed checkpoint"): the entry's sense is not the text's."""
    if not re.fullmatch(r"[A-Z][A-Z0-9]{1,7}", found_as or ""):
        return False
    name = " ".join(str(entry.get(k) or "") for k in ("term", "expansion"))
    meaning = said_by_text(definitions, found_as, name, "en")
    return bool(meaning) and renames(meaning, name) and (_letters_in_order(meaning.split(), found_as) is not None
                                                         or _prefixes(meaning.split(), found_as) is not None)


def without_renamed(definitions: list[Definition], matches: list, occurrences: list) -> tuple[list, list]:
    """The glossary's matches and occurrences less the entries whose acronym the text spells out as another thing."""
    gone = {m.entry["id"] for m in matches if renamed(definitions, m.found_as, m.entry)}
    return [m for m in matches if m.entry["id"] not in gone], [o for o in occurrences if o.entry["id"] not in gone]
