"""Names in a cross-language gist: one thing named once, whatever its spelling ("H100s", "NVIDIA H100", "ZB_V")."""

import re
from functools import cache

from service.explain import glossary
from service.i18n import arabic

_ENGLISH_PLURAL = re.compile(r"\b[A-Za-z][a-z]{3,}s\b")
NAME_CATEGORIES = {"model", "hardware", "framework", "organization", "software"}  # a name reads the same in both languages
_GLOSS_IN_NAME = re.compile(r"\s*\((?:[^()]*\s[^()]*)\)")  # "NVIDIA A100 Tensor Core GPU (Ampere generation)"


def said_once(subjects: list[str], setup: list[tuple[str, str]]) -> tuple[list[str], list[tuple[str, str]]]:
    """Each thing named once: a subject a figure names more precisely ("H100s" beside "512 H100 GPUs") goes, and so
    does a set-up figure that repeats a subject's name ("ZeRO stage 3" beside "ZeRO-3")."""
    kept = [s for s in subjects if not (tokens(s) and any(tokens(s) <= tokens(bare) for bare, _ in setup))]
    named = set().union(*(tokens(s) for s in kept)) if kept else set()
    return kept, [(bare, tied) for bare, tied in setup if _CHIP_COUNT.search(bare) or not (tokens(bare) & named)]


def tokens(text: str) -> set[str]:
    """The Latin names in a phrase, lower case, without a plural s ("H100s" -> "h100")."""
    return {re.sub(r"(?<=\w)s$", "", t.lower()) for t in LATIN_NAME.findall(text)}


LATIN_NAME = re.compile(r"[A-Za-z][\w.-]*[A-Za-z0-9]")
_CHIP_COUNT = re.compile(r"\d\s*(?:شريحة|شرائح|شريحتين|GPUs?|chips?|TPUs?)|(?:شريحة|شريحتين) ")


def bare(text: str) -> str:
    """Lower case without hyphens, underscores and spaces: "ZB_V" and "ZB-V" are one name."""
    return re.sub(r"[-_\s]", "", text.lower())


def same_name(a: str, b: str) -> bool:
    """Two names of one thing: one inside the other ("H100", "NVIDIA H100"), or the same acronym ("... (FSDP)")."""
    if set(_ACRONYM.findall(a)) & set(_ACRONYM.findall(b)):
        return True
    a, b = a.lower(), b.lower()
    return a in b or b in a


_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9]{2,}\b")


def name_of(match, term: dict | None, lang: str) -> str:
    """A term as the answer names it: a name by its glossary name ("H100", not "h100"), a concept by its expansion."""
    entry = match.entry
    if entry.get("category") in NAME_CATEGORIES:
        found = match.found_as
        name = found if found[:1].isupper() and not arabic.ARABIC_LETTER.search(found) else entry.get("term") or found
        name = re.sub(r"(?<=\d)s$", "", name) if lang == "ar" else name  # "H100s" is English plural: "H100" in Arabic
        name = _GLOSS_IN_NAME.sub("", name).strip()
        return _with_article(name, lang)
    if term is None:
        return ""
    name = _GLOSS_IN_NAME.sub("", term["expansion"] if lang != "en" else term["expansion_en"].split(" (")[0]).strip()
    found = match.found_as.strip()
    if found and re.search(rf"(?<![\w-]){re.escape(found)}(?![\w-])", name) and _TWO_NAMES.search(name):
        return _with_article(found, lang)  # "W4A16 وW8A8" for a text that writes only W4A16: the name it wrote
    return _with_article(name, lang)


_TWO_NAMES = re.compile(r"\s(?:and|or|و|أو)\s?|\s/\s|(?<=\s)و(?=[A-Za-z])")  # an entry named for two things
_MASS_NOUN = re.compile(r"(?:ing|ism|ics|tion|sion|ence|ity)$")


def _with_article(name: str, lang: str) -> str:
    """"the data center", not "data center"; but "activation checkpointing", "data parallelism", "inference": a field
    or an activity takes no article."""
    if lang != "en" or _MASS_NOUN.search(name):
        return name
    if not name[:1].islower() and not _ACRONYM_NOUN.match(name):
        return name  # a name: "H100", "Colossus"
    return "the " + name


_ACRONYM_NOUN = re.compile(r"^[A-Z]{2,5}s?\s+[a-z]+$")  # "HPC system", "GPU cluster": a common noun an acronym qualifies


_COMPANIES = frozenset({"nvidia", "amd", "intel", "google", "microsoft", "meta", "openai", "anthropic", "samsung", "sk-hynix",
                        "micron", "tsmc", "huawei", "alibaba", "deepseek", "aws", "amazon", "oracle", "xai", "broadcom"})


def known_company(word: str) -> bool:
    """Whether a word is one of the makers this field names ("Meta", "Nvidia"): a name, whatever its position."""
    return word.lower() in _COMPANIES


# Kinds of entry whose capitalised one-word names are proper names ("Ulysses", "Megatron"); "Prefill" or "Softmax" at a
# sentence's start are ordinary words written with a capital.
_NAMED_KINDS = frozenset({"hardware", "framework", "model", "software", "organisation", "organization", "interconnect",
                          "optimizer", "parallelism", "moe"})


@cache
def _proper_names() -> frozenset[str]:
    """One-word glossary names written with a capital ("Ulysses", "Colossus", "Megatron")."""
    names = set()
    for entry in glossary.load().entries:
        if entry.get("category") not in _NAMED_KINDS:
            continue
        for alias in [entry.get("term", ""), *(entry.get("aliases") or [])]:
            if isinstance(alias, str) and len(alias) > 2 and alias[0].isupper() and alias[1:].islower() and alias.isalpha():
                names.add(alias)
    return frozenset(names)


def known_name(word: str) -> bool:
    """Whether a capitalised word is a name the glossary knows (a method, a framework, a chip): it keeps its capital."""
    return word in _proper_names()


def company(doc, name: str) -> bool:
    """Whether a name is a company's (its entry's category, or one of the makers an industry story names in passing):
    "The article reports on NVIDIA" for Samsung's HBM4 story named a customer as the story (a round-13 reader)."""
    named = [m for m in doc.occurrences if same_name(name_of(m, None, doc.lang) or m.found_as, name) or same_name(m.found_as, name)]
    if named:  # any of them ("NVIDIA" beside "NVIDIA HGX B300", a product that shares the name)
        return any(m.entry.get("category") in ("organisation", "organization") or m.entry["id"] in _COMPANIES for m in named)
    return name.lower() in _COMPANIES


def is_concept(doc, name: str) -> bool:
    """Whether a name is a technique or a quantity (its entry's category is none of NAME_CATEGORIES): no news is about it."""
    terms = {t["id"]: t for t in doc.terms}
    for match in doc.occurrences:
        if same_name(name_of(match, terms.get(match.entry["id"]), doc.lang) or match.found_as, name):
            return match.entry.get("category") not in NAME_CATEGORIES | {"organisation"}
    return False


def render_names(doc, start: int, end: int) -> list[str]:
    """The names, in the answer's language, of the terms a span of the text names."""
    terms = {t["id"]: t for t in doc.terms}
    return [name_of(o, terms.get(o.entry["id"]), doc.lang) for o in doc.occurrences if start <= o.start < end]


def most_named(doc, names: list[str], limit: int) -> list[str]:
    """At most `limit` of the names, those the passage names most often, in their own order."""
    if len(names) <= limit:
        return names
    counts = _counts(doc)
    keep = sorted(names, key=lambda name: (-counts.get(name, 0), names.index(name)))[:limit]
    return [name for name in names if name in keep]


def _counts(doc) -> dict[str, int]:
    """How often the passage names each thing; a name glossed in brackets right after ("النماذج اللغوية الكبيرة (LLMs)")
    is one mention, not two."""
    terms = {t["id"]: t for t in doc.terms}
    counts: dict[str, int] = {}
    previous = None
    degrees = [(f.start, f.end) for f in doc.figures if f.quantity.endswith("_degree")]
    for match in doc.occurrences:
        if previous is not None and previous.entry["id"] == match.entry["id"] \
                and _BRACKET_BETWEEN.fullmatch(doc.text[previous.end:match.start]):
            previous = match
            continue
        if any(a <= match.start < b for a, b in degrees):
            continue  # "a 4-GPU (TP4) trainer", "14B/TP4": the run's layout, not what the passage is about
        if _SET_ASIDE.search(doc.text[max(0, match.start - 60):match.start]):
            continue  # "To eliminate the impact of pipeline parallelism bubbles", "There are no PPs": what the test leaves out
        name = name_of(match, terms.get(match.entry["id"]), doc.lang)
        counts[name] = counts.get(name, 0) + 1
        previous = match
    return counts


_SET_ASIDE = re.compile(r"(?:\b(?:eliminat\w*|exclud\w*|ignor\w*|instead of|rather than|aside from|apart from)|(?<![\u0621-\u064A])"
                        r"(?:لاستبعاد|استبعاد|لإلغاء|إلغاء))(?:\s+[^\s.;:!?]+){0,4}\s*$|\b(?:there (?:are|is) )no\s+$", re.I)
_BRACKET_BETWEEN = re.compile(r"\s*[(（]\s*")  # the text's own gloss of the name it has just written


def main_subject(doc, names: list[str]) -> str:
    """Of a sentence's subjects, the one the whole passage names most often (the first on a tie); '' for none. A topic
    said as one name, not a list of three ("deals with DP, TP and PP" reads as a list of terms)."""
    if doc.lang == "ar":  # "GPU Clusters", "Tensor Cores": English words left in an Arabic sentence, not a name
        names = [n for n in names if not _ENGLISH_PLURAL.search(n)]
    if not names:
        return ""
    counts = _counts(doc)
    families: dict[str, int] = {}  # "XLNet-Large" and "XLNet-Base" are one model family named twice
    for name, n in counts.items():
        families[_family(name)] = families.get(_family(name), 0) + n
    return max(names, key=lambda name: (families.get(_family(name), 0), counts.get(name, 0), -names.index(name)))


def topic(doc, names: list[str]) -> str:
    """What "the author writes about X" names: the sentence's main subject, unless the passage opens on another name
    it repeats at least half as often ("Prefix caching cuts latency ..." then "prefill" five times in its example)."""
    best = main_subject(doc, names)
    if best and _category(doc, best) in MEASURE_CATEGORIES:  # "writes about bfloat16" for a passage on the Ascend 920's specs
        product = _first_product(doc)  # unless the format is named far more ("NVFP4" five times, "H100" once as a precedent)
        return product if product and 2 * _counts(doc).get(product, 0) >= _counts(doc).get(best, 0) else best
    lead = _opening_subject(doc)
    if not best or not lead or lead == best or company(doc, lead) or (doc.lang == "ar" and _ENGLISH_PLURAL.search(lead)):
        return best
    counts = _counts(doc)
    return lead if counts.get(lead, 0) >= 2 and 2 * counts.get(lead, 0) > counts.get(best, 0) else best


# What a chip's or a model's figures are given in (a number format, a metric, a memory type): a spec sheet's units,
# never what a passage that names a product is about (a round-28 reader: "writes about the bfloat16")
MEASURE_CATEGORIES = frozenset({"precision", "metric", "memory", "measurement"})
PRODUCT_CATEGORIES = frozenset({"hardware", "model", "models"})


def _category(doc, name: str) -> str | None:
    terms = {t["id"]: t for t in doc.terms}
    return next((o.entry.get("category") for o in doc.occurrences if name_of(o, terms.get(o.entry["id"]), doc.lang) == name), None)


def _first_product(doc) -> str:
    """The first chip or model the passage names with a number ("Ascend 920", "H100", "Llama 3 70B"); '' for none."""
    terms = {t["id"]: t for t in doc.terms}
    for o in doc.occurrences:
        if o.entry.get("category") in PRODUCT_CATEGORIES and re.search(r"\d", o.found_as):
            return name_of(o, terms.get(o.entry["id"]), doc.lang)
    return ""


def _opening_subject(doc) -> str:
    """The name the passage opens on, as its first sentence's subject (within its first three words); '' for none."""
    if not doc.sentences:
        return ""
    start, end = doc.sentences[0]
    terms = {t["id"]: t for t in doc.terms}
    first = next((o for o in doc.occurrences if start <= o.start < end), None)
    if first is None or len(doc.text[start:first.start].split()) > 2:
        return ""
    return name_of(first, terms.get(first.entry["id"]), doc.lang)


def _family(name: str) -> str:
    """A name's family, its first word when that word is a name ("XLNet" of "XLNet-Large"); else the whole name."""
    first = re.split(r"[-\s]", name.strip(), maxsplit=1)[0]
    return first.lower() if re.search(r"[A-Z0-9]", first) else name.lower()


CENTRAL_MENTIONS = 2  # a name a longer passage says once is a side item, not what it is about
SHORT_PASSAGE = 2
CENTRAL_SHARE = 0.5  # as often as half the most named name at least


def central(doc, names: list[str]) -> bool:
    """Whether a names-only gist would name what the passage is about: a name it says more than once and about as
    often as its most named ("The article reports on Grok" for an article about another system is wrong, not thin)."""
    counts: dict[str, int] = {}
    for name, n in _counts(doc).items():
        key = frozenset(tokens(name)) or name  # "TPU" and "TPUs" are one name
        counts[key] = counts.get(key, 0) + n
    if not counts or not names:
        return False
    # "Rubin" three times beside "محول" twice: the platform the glossary does not know, not the switch, is the subject
    known = set().union(*(tokens(o.found_as) for o in doc.occurrences), *(set(k) for k in counts if isinstance(k, frozenset)))
    unknown = max((n for t, n in _written_names(doc.text).items() if t not in known), default=0)
    most = max(counts.values())
    short = len(doc.sentences) <= SHORT_PASSAGE  # one sentence: its subject is the subject
    for name in names:
        n = counts.get(frozenset(tokens(name)) or name, 0)
        if n < unknown:
            continue  # a name written less often than a product the glossary does not know is not the subject
        if short and n == most and not _only_listed(doc, name) or n >= CENTRAL_MENTIONS and n >= CENTRAL_SHARE * most:
            return True
    return False


_LIST_SEPARATOR = re.compile(r",|\band\b|\bor\b|،|\sو")
_ITEM_BEFORE = re.compile(r"(?:,|\band|\bor|،|\sو)\s*(?:(?:the|a|an)\s+)?$", re.I)
_ITEM_AFTER = re.compile(r"\s*(?:[\w-]+\s+){0,2}?(?:,|and\b|or\b|،|و)", re.I)


def _only_listed(doc, name: str) -> bool:
    """Whether every mention of a name is one item of a list of three or more ("the vision tower, the MTP and DFlash
    bundles, the draft head"): an item of a list is no subject, even of a short passage (round 37)."""
    terms = {t["id"]: t for t in doc.terms}
    spots = [o for o in doc.occurrences if name_of(o, terms.get(o.entry["id"]), doc.lang) == name]
    if not spots:
        return False
    for o in spots:
        before, after = doc.text[max(0, o.start - 40):o.start], doc.text[o.end:o.end + 40]
        between = _ITEM_BEFORE.search(before) and _ITEM_AFTER.match(after)  # "..., the MTP and ...": an item between two
        if not between or len(_LIST_SEPARATOR.findall(before + " " + after)) < 2:
            return False
    return True


# A name as written inside a sentence: a capital after a word (not a sentence's first word), or letters with digits.
_NAME_IN_SENTENCE = re.compile(r"(?<=[^\s.!?؟:\n] )[A-Z][\w.-]*[A-Za-z0-9]|\b[A-Za-z]+\d[\w.-]*")


def _written_names(text: str) -> dict[str, int]:
    """How often each name is written in the text, glossary entry or not (a product name the glossary does not know)."""
    counts: dict[str, int] = {}
    for found in _NAME_IN_SENTENCE.findall(text):
        for token in tokens(found):
            counts[token] = counts.get(token, 0) + 1
    return counts


_OPENS_NAME = re.compile(r"-[A-Za-z]")  # "LLM-Foundry": the term opens a longer name
_CLOSES_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*-$")  # "DataStates-LLM": the term closes a longer name


def inside_name(text: str, start: int, end: int, floor: int = 0) -> bool:
    """Whether text[start:end] is a piece of a longer hyphenated name ("DataStates-LLM") or of an identifier
    ("CUDA_LAUNCH_BLOCKING"), not a thing of its own."""
    return bool(_OPENS_NAME.match(text, end) or _CLOSES_NAME.search(text, max(floor, start - 20), start)
                or text[end:end + 1] == "_" or text[max(0, start - 1):start] == "_")


def everyday(doc, start: int, end: int, name: str, ids: set[str]) -> bool:
    """Whether `name` is what the sentence calls one of the everyday entries `ids` ("the token"): naming it says nothing."""
    terms = {t["id"]: t for t in doc.terms}
    return any(o.entry["id"] in ids and same_name(name_of(o, terms.get(o.entry["id"]), doc.lang) or "", name)
               for o in doc.occurrences if start <= o.start < end)


def set_up_starts(doc, start: int, end: int) -> set[int]:
    """Starts of the occurrences in text[start:end] that are the set-up a sentence runs on, never the subject its problem
    or result is about: parallel degrees written as a layout ("TP8/PP4/DP2", two or more), and what brackets name
    ("(16x GB300, ..., distributed optimizer)", "(fp32 mains + Adam moments)", two names or more) where a name outside
    them remains."""
    inside = [o for o in doc.occurrences if start <= o.start < end]
    found = {o.start for o in inside if o.entry.get("category") == "parallelism" and _DEGREE_AFTER.match(doc.text, o.end)}
    found = found if len(found) >= 2 else set()
    spans = [(m.start(), m.end()) for m in _BRACKET.finditer(doc.text, start, end)]
    spans = [(x, y) for x, y in spans if sum(x < o.start < y for o in inside) >= 2]  # "(TSMC)" names what is before it
    bracketed = {o.start for o in inside if any(x < o.start < y for x, y in spans)}
    if any(o.start not in bracketed and o.start not in found for o in inside):
        found |= bracketed
    return found


_BRACKET = re.compile(r"\([^()]*\)")


_DEGREE_AFTER = re.compile(r"[ \t]*[=:]?[ \t]*\d{1,4}(?![\d.,]*\d)(?![A-Za-z])")  # "TP8", "tp=4", "PP 2": a degree


def in_opening(doc, index: int, subjects: list[str]) -> bool:
    """Whether a sentence that defines its subject speaks of what the passage is about: it opens the passage, or a
    subject it names is already in the first sentence ("The text explains MLPerf" for a post on spec sheets against real
    training, which names MLPerf in its second paragraph, was judged wrong: round 102 P15)."""
    first = doc.text[slice(*doc.sentences[0])].lower() if doc.sentences else ""
    return index == 0 or any(s and s.lower() in first for s in subjects)
