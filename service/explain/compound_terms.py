"""Compounds of known terms ("DRAM bandwidth", "PyTorch FSDP", "attention kernels"): two or three glossary terms
written side by side as one noun phrase, glossed by their parts only.

English compounds are headed on the right: "DRAM bandwidth" is a bandwidth, the one of DRAM. The item names the
compound as written and says just that, with the head's own first sentence; nothing is said that the parts do not
say. A modifier that reads as an adjective or a participle ("sharded", "scaling") is left out: the compound is then
not "a head for the modifier", and a guess is worse than a missing term."""

import re

from service.explain import glossary, named_kinds
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
        head_item = glossary.describe(head, lang)
        head_definition = _FIRST_SENTENCE.match((head_item.get("definition") or "").strip())
        if not head_definition:
            continue  # nothing the head says: no gloss rather than an empty one
        modifier = " ".join(_named(glossary.describe(x, lang), lang) for x in modifiers)
        seen.add(written.lower())
        out.append({"id": f"compound:{written.lower()}", "term": written, "expansion": "", "expansion_en": "",
                    "definition": m["compound_term"].format(head=_named(head_item, lang), modifier=modifier,
                                                            head_definition=head_definition.group(0)),
                    "intuition": None, "category": "compound", "calculator": None, "found_as": written, "source": None})
    return out
