"""Compounds of known terms ("DRAM bandwidth", "PyTorch FSDP", "attention kernels"): two or three glossary terms
written side by side as one noun phrase, glossed by their parts only.

English compounds are headed on the right: "DRAM bandwidth" is a bandwidth, the one of DRAM. The item names the
compound as written and says just that, with the head's own first sentence; nothing is said that the parts do not
say. A modifier that reads as an adjective or a participle ("sharded", "scaling") is left out: the compound is then
not "a head for the modifier", and a guess is worse than a missing term."""

import json
import re
from functools import cache

from calculators.resources import data_dir
from service.explain import glossary, named_kinds, pattern_cache
from service.i18n import arabic
from service.i18n.messages import messages

MOST_PARTS = 2  # a modifier and its head: longer runs ("FSDP TE batch size") read as lists or titles, not one name
_ADJECTIVAL = re.compile(r"(?:ed|ing|al|ive|ous|ful|able|ible|ic|ly|er|est)$")  # "sharded", "scaling", "global"
_SKIPPED_CATEGORIES = frozenset({"organisation", "organization", "company"})  # "NVIDIA H100": the maker, not a kind
_NOT_HEADS = frozenset({"at", "in", "on", "of", "for", "to", "by", "with", "per", "across", "over"})
_FIRST_SENTENCE = re.compile(r"^.*?[.!?؟](?=\s|$)", re.S)


def _runs(text: str, occurrences: list) -> list[list]:
    """Maximal runs of glossary occurrences joined by one space within a line, two to MOST_PARTS long."""
    runs, current = [], []
    for match in sorted(occurrences, key=lambda m: m.start):
        if current and text[current[-1].end:match.start] == " " and match.start > current[-1].end:
            current.append(match)
            continue
        if len(current) >= 2:
            runs.append(current)
        current = [match]
    if len(current) >= 2:
        runs.append(current)
    return [run for run in runs if len(run) <= MOST_PARTS]


def _noun_modifier(match) -> bool:
    """A modifier that names a thing ("DRAM", "attention"), not an adjective or participle ("sharded"), nor a plural
    noun, which in English is a verb's subject or object rather than a modifier ("FSDP shards parameters")."""
    word = match.found_as
    if re.search(r"[A-Z]s$", word):
        return False  # "GPUs clusters", "FLOPs Geometric mean": a plural abbreviation ends a phrase
    if named_kinds.name_like(word) or word.isupper():
        return True
    return "-" not in word and not _ADJECTIVAL.search(word.lower()) and not re.search(r"[^s]s$", word)


def _compound(text: str, run: list) -> bool:
    """Whether the run reads as one English noun phrase: Latin letters only, not inside a flag or a key, no plural
    head before its end, no common noun before a proper name ("params Bert"), and no modifier that is itself a kind
    of the head ("TPU chips", "NVIDIA GPUs": the head adds nothing)."""
    written = text[run[0].start:run[-1].end]
    if not written.isascii() or re.search(r"[\d=/_]", written) or text[max(0, run[0].start - 1):run[0].start] in ("-", "_", "."):
        return False
    head, modifiers = run[-1], run[:-1]
    if set(head.found_as.split()) & _NOT_HEADS or text[run[0].start - 1:run[0].start].isalnum() or (head.found_as[:1].islower() and (_ADJECTIVAL.search(head.found_as) or "-" in head.found_as)):
        return False  # "training at scale", "NCCL BusBW intra-node": a phrase or an adjective, not a noun the run names
    named_by_head = {w for w in re.findall(r"[\w-]+", f'{head.entry.get("term") or ""} {head.entry.get("expansion") or ""}') if named_kinds.name_like(w) or w.isupper()}
    if named_by_head - set(re.findall(r"[\w-]+", written)) and any(named_kinds.name_like(x.found_as) or x.found_as.isupper() for x in modifiers):
        return False  # "GPU Slice" read as the entry "TPU slice": the head's entry names another thing than the modifier
    if not all(_noun_modifier(x) for x in modifiers):
        return False
    if named_kinds.name_like(head.found_as) and any(x.found_as[:1].islower() for x in modifiers):
        return False
    head_words = {w.lower().rstrip("s") for w in re.findall(r"[A-Za-z]+", f"{head.entry.get('term', '')} {head.found_as}")}
    for x in modifiers:
        said = _FIRST_SENTENCE.match((x.entry.get("definition") or "").strip())
        if said and head_words & {w.lower().rstrip("s") for w in re.findall(r"[A-Za-z]+", said.group(0))}:
            return False
    return True


def _named(item: dict, lang: str) -> str:
    """The part as an answer names it: its name and, where it says more, its expansion."""
    name, expansion = item["term"], (item.get("expansion") or "").strip()
    if lang == "ar" and arabic.share_of_arabic(expansion) > 0:
        return expansion  # "عرض النطاق (معدل نقل البيانات)": the Arabic name, not the English one beside it
    if not expansion or re.sub(r"\W", "", expansion.lower()) == re.sub(r"\W", "", name.lower()):
        return name
    return expansion if name in expansion else f"{name} ({expansion})"


def items(text: str, occurrences: list, lang: str, known: set[str]) -> list[dict]:
    """Terms items for the compounds of known terms in `text`, each glossed by its head and its modifiers."""
    out, seen = [], set(known)
    m = messages(lang)
    for run in _runs(text, occurrences):
        head, modifiers = run[-1], run[:-1]
        written = text[run[0].start:head.end]
        if written.lower() in seen or not _compound(text, run):
            continue
        if {x.entry.get("category") for x in run} & _SKIPPED_CATEGORIES or len({x.entry["id"] for x in run}) < len(run):
            continue
        if any(x.entry.get("category") == "parallelism" for x in modifiers):
            continue  # "TP MoE", "DP attention": how the part is split, not a kind of it ("MoE, for TP" said nothing, round 57)
        head_item = glossary.describe(head, lang)
        head_definition = _FIRST_SENTENCE.match((head_item.get("definition") or "").strip())
        if not head_definition:
            continue  # nothing the head says: no gloss rather than an empty one
        modifier = " ".join(_named(glossary.describe(x, lang), lang) for x in modifiers)
        seen.add(written.lower())
        definition = m["compound_term"].format(head=_named(head_item, lang), modifier=modifier, head_definition=head_definition.group(0))
        first = re.match(r"[A-Za-z]+(?=[\s,(])", definition)
        if first and first.group(0).islower():  # "Bandwidth (...), for DRAM": a sentence opens with a capital
            definition = definition[0].upper() + definition[1:]
        out.append({"id": f"compound:{written.lower()}", "term": written, "expansion": "", "expansion_en": "",
                    "definition": definition, "parts": [x.entry["id"] for x in run],
                    "intuition": None, "category": "compound", "calculator": None, "found_as": written, "source": None})
    return out


# A word before a known term that qualifies it as one of its kinds ("block-wise matmul", "I/O bandwidth", "sparse
# attention"): taken only where the pair is the passage's own term, written as a technical word (a hyphen, a slash,
# a capital inside, a digit) or repeated (REPEATED times or more). Ordinary qualifiers ("large model", "our GPU") never.
REPEATED = 2
_QUALIFIER = pattern_cache.lazy(r"(?<![\w./-])([A-Za-z][\w]*(?:[-/][\w]+)*) $")
_SENTENCE_OPENS = pattern_cache.lazy(r"(?:^|[.!?:;]\s+|\n\s*(?:[-*•#|]\s*)?)$")
_TECHNICAL = re.compile(r"[-/]|\d|[a-z][A-Z]")
_ORDINARY = frozenset("""a an the this that these those its their our your my his her each every all both any some no
    more most less least many much few several other another same different new old large small big high low fast slow
    good bad best better worse worst full total single multiple first last next previous current one two three four
    own such very only also just even still as than then there here when where which what who how why using used
    with without per from into onto over under about after before between across through via and or but not
    is are was were be been being has have had can could will would should may might must do does did near
    thousand million billion trillion for to of in on at by standard""".split())


def _qualifier(text: str, head) -> str | None:
    """The qualifying word written just before `head`, when it reads as a technical modifier or the pair repeats."""
    before = _QUALIFIER.search(text, max(0, head.start - 40), head.start)
    if not before or before.end() != head.start:
        return None
    word = before.group(1)
    parts = [w.lower() for w in re.split(r"[-/]", word)]
    if word.lower() in _ORDINARY or parts[0] in _ORDINARY or not word.isascii() or len(word) < 3:
        return None  # "large-scale clusters", "per-step all-gather": an ordinary qualifier, hyphenated or not
    last = parts[-1]
    comparative = last.endswith("er") and any(stem in _ORDINARY for stem in (last[:-1], last[:-2], last[:-3]))
    if (comparative or re.search(r"(?:ly|est|ing)$", last)) and not named_kinds.name_like(word):
        return None  # an adverb, a comparative or a participle ("smaller slices", "memory-limiting"): no kind is named
    if _SENTENCE_OPENS.search(text, max(0, before.start() - 4), before.start()) and not named_kinds.name_like(word):
        return None  # "Use P2P", "For distributed training": a sentence's first word, not a qualifier
    if re.fullmatch(r"[\d.,]+\w{0,2}", word):
        return None  # "8 GPUs", "80GB HBM": a count or a size, not a kind
    written = f"{word} {head.found_as}"
    repeats = len(re.findall(rf"(?<![\w-]){re.escape(written)}(?![\w-])", text, re.I))
    return word if _TECHNICAL.search(word) or repeats >= REPEATED else None


def qualified(text: str, occurrences: list, lang: str, known: set[str]) -> list[dict]:
    """Terms items for a known term written with a qualifier no glossary entry holds ("fine-grained MoE"), glossed as
    a kind of the known term; the qualifier is the text's own and is not explained (nothing is guessed about it)."""
    out, seen = [], set(known)
    m = messages(lang)
    taken = [(x.start, x.end) for x in occurrences]
    for head in sorted(occurrences, key=lambda x: x.start):
        word = _qualifier(text, head)
        if word is None or any(a < head.start - 1 and head.start - len(word) - 1 < b for a, b in taken):
            continue  # the word before is itself part of a known term: a compound's, read above
        if head.entry.get("category") in _SKIPPED_CATEGORIES or named_kinds.name_like(head.found_as) and word[:1].islower() \
                or re.search(r"\d", head.found_as):
            continue
        written = text[head.start - len(word) - 1:head.end]
        if written.lower() in seen or not _FIRST_SENTENCE.match((glossary.describe(head, lang).get("definition") or "").strip()):
            continue
        head_item = glossary.describe(head, lang)
        seen.add(written.lower())
        out.append({"id": f"compound:{written.lower()}", "term": written, "expansion": "", "expansion_en": "",
                    "definition": m["qualified_term"].format(head=_named(head_item, lang), qualifier=word,
                                                             head_definition=_FIRST_SENTENCE.match(head_item["definition"].strip()).group(0)),
                    "parts": [head.entry["id"]],
                    "intuition": None, "category": "compound", "calculator": None, "found_as": written, "source": None})
    return out


@cache
def property_nouns() -> dict[str, dict]:
    """data/property_nouns.json: an ordinary noun naming a property or part of what precedes it -> {"en", "ar"}."""
    return json.loads((data_dir() / "property_nouns.json").read_text(encoding="utf-8"))["nouns"]


_ADJECTIVE_PREFIXES = frozenset({"inter", "intra", "cross", "multi", "single", "per", "non", "sub", "pre", "post"})
_MASS = frozenset({"attention", "communication", "memory", "bandwidth", "compute", "training", "inference", "parallelism"})
_NEXT_WORD = pattern_cache.lazy(r" ([A-Za-z]+)(?![\w-])( (?:the|a|an|its|their|all|each|every|our|this|these)\b)?")


def of_known(text: str, occurrences: list, lang: str, known: set[str]) -> list[dict]:
    """Terms items for a known term followed by a noun of data/property_nouns.json ("data parallelism degree",
    "bucket size", "Triton compiler"): "the degree of data parallelism (...)", nothing said about the noun itself; a
    noun followed by an object ("FSDP groups the layers") is a verb and makes none."""
    out, seen = [], set(known)
    m = messages(lang)
    starts = {x.start for x in occurrences}
    for part in sorted(occurrences, key=lambda x: x.start):
        after = _NEXT_WORD.match(text, part.end)
        if not after or after.group(2) or after.group(1).lower() not in property_nouns() or part.end + 1 in starts:
            continue
        if part.entry.get("category") in _SKIPPED_CATEGORIES or not part.found_as.isascii() or re.search(r"[\d=_]", part.found_as):
            continue
        written, word = text[part.start:after.end(1)], part.found_as
        if written.lower() in seen or word.split("-")[0].lower() in _ADJECTIVE_PREFIXES or re.search(r"[^sS]s$", word):
            continue  # "inter-node volume", "cards output": an adjective or a plural, no modifier of the noun
        noun = property_nouns()[after.group(1).lower()]
        if noun["en"].rstrip("s") in str(part.entry.get("term") or "").lower():
            continue  # "hidden dimension size" under the entry "hidden size": the noun is the entry's own
        seen.add(written.lower())
        named = _named(glossary.describe(part, lang), lang)
        if lang == "en" and re.fullmatch(r"[a-z]+", word) and not word.endswith(("ing", "tion", "ism")) \
                and word not in _MASS and not named_kinds.name_like(part.entry.get("term") or ""):
            named = f"the {named}"  # "the inputs of the layer"; a name, a mass noun or a gerund takes no article
        joined = f"{noun['ar']}{named}" if noun["ar"].endswith("لـ") else f"{noun['ar']} {named}"
        out.append({"id": f"compound:{written.lower()}", "term": written, "expansion": "", "expansion_en": "",
                    "definition": m["property_of_term"].format(noun=noun["en"], term=named, joined=joined),
                    "parts": [part.entry["id"]],
                    "intuition": None, "category": "compound", "calculator": None, "found_as": written, "source": None})
    return out


def adding_something(compounds: list[dict], listed: set[str]) -> list[dict]:
    """The compound items that say more than the items already listed: "FSDP group: the group of FSDP" beside FSDP's
    own item, or "DRAM bandwidth" beside both DRAM's and bandwidth's, restates them (an empty item to a reader)."""
    return [c for c in compounds if not set(c.get("parts") or ()) <= listed]
