"""Names the glossary does not know, read by their head noun ("Foo fabric manager", "Bar-7 card", "Hybrid Parallel
Plugin"): what such a thing is (data/head_nouns.json). The terms stage uses them only so that the head is not glossed
as a bare word (no GPU kernel for "Linux kernel"); it does not list them, since an item that says only what kind of
thing a name is ("A format: a way of laying out numbers") was judged empty by blind readers. Chips the catalog knows
are listed, from the catalog."""

import json
import re
from functools import cache

from calculators.resources import data_dir
from service.explain import grounding, pattern_cache
from service.i18n.messages import messages


@cache
def heads() -> dict[str, dict]:
    """data/head_nouns.json: head noun (lower case) -> {"en", "ar", "source"}."""
    return json.loads((data_dir() / "head_nouns.json").read_text(encoding="utf-8"))["heads"]


# Words that open a sentence or a noun phrase capitalised without naming anything ("Each card", "The Plugin").
_NOT_NAMES = frozenset("""a an the this that these those each every our their its my your his her one any some no all both
which what when where while if in on at for with by from to of and or but new old same first second last next main other
another such many most more few several we i you they it he she there here also then so as""".split())
_NAME_WORD = r"(?:[A-Z][\w+.]*(?:-[\w+.]+)*|[a-z]+[A-Z][\w+.]*)"  # "7B model" is model_names' (a size)


@cache
def _pattern() -> re.Pattern:
    words = sorted(heads(), key=len, reverse=True)
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)
    return re.compile(rf"(?<![\w.-])(?P<name>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})\s+(?P<head>(?i:{alternatives}))(?:e?s)?(?![\w-])")


_SENTENCE_START = pattern_cache.lazy(r"(?:^|[.!?:]\s+|\n\s*(?:[-*•]\s*)?)$")


def name_like(word: str) -> bool:
    """A word that names something wherever it stands: a digit, a capital after the first letter ("DeepEP", "Bar-7")."""
    return any(c.isdigit() for c in word) or any(c.isupper() for c in word[1:])


def _name(text: str, start: int, name: str) -> tuple[int, str] | None:
    """The name less the words that only open the sentence or the phrase; None where nothing names a thing."""
    words = name.split()
    offset = 0
    while words and words[0].lower() in _NOT_NAMES:
        offset += text[start + offset:].index(words[0]) + len(words[0])
        offset += len(text[start + offset:]) - len(text[start + offset:].lstrip())
        words = words[1:]
    if not words:
        return None
    at_start = bool(_SENTENCE_START.search(text[max(0, start + offset - 4):start + offset])) or start + offset == 0
    if len(words) == 1 and not name_like(words[0]) and at_start:
        return None  # "Network card" opening a sentence is a common noun
    if len(words) == 1 and words[0].isupper() and len(words[0]) <= 3:
        return None  # "AI models", "ML models": a field's abbreviation, not a product's name
    if len(words) > 1 and not any(name_like(w) for w in words):
        return None  # "Efficient Training Framework": a title's ordinary words, not a name the reader could look up
    return start + offset, " ".join(words)


def find(text: str, lang: str, taken: list[tuple[int, int]], known: set[str]) -> list[dict]:
    """Terms items for names with a known head noun that no glossary term (`taken` spans) or other item (`known`
    names) covers, first mention first, each once."""
    out, seen = [], set(known)
    for match in _pattern().finditer(text):
        named = _name(text, match.start("name"), match.group("name"))
        if named is None:
            continue
        start, name = named
        end = match.end()
        if any(a < match.end("name") and start < b for a, b in taken):
            continue  # the glossary knows (part of) the name: its entry says more than the head noun
        written = text[start:end]
        head = re.sub(r"\s+", " ", match.group("head").lower())
        if written.lower() in seen or name.lower() in seen:
            continue
        seen.add(written.lower())
        meaning = heads()[head]
        m = messages(lang)["named_kind"]
        out.append({"id": f"named:{written.lower()}", "term": written, "expansion": "",
                    "expansion_en": "", "definition": m["definition"].format(what=meaning.get(lang) or meaning["en"]),
                    "intuition": None, "category": "named", "calculator": None, "found_as": written,
                    "source": meaning["source"]})
    return out


_BARE_VERSION = re.compile(r"[vV]\d+[a-z]?")


def catalog_chips(text: str, lang: str, taken: list[tuple[int, int]]) -> list[dict]:
    """Terms items for chips of the catalog (data/hardware.json) the glossary does not name ("H20"): the vendor,
    the kind and the architecture the catalog records, nothing more; each chip once."""
    out, seen = [], set()
    m = messages(lang)["named_kind"]
    for mention in grounding.mentions(text):
        chip = mention.entry
        if mention.kind != "chip" or mention.generic or chip["id"] in seen \
                or any(a < mention.end and mention.start < b for a, b in taken):
            continue
        if _BARE_VERSION.fullmatch(text[mention.start:mention.end]) and "TPU" not in text[max(0, mention.start - 80):mention.end + 80]:
            continue  # "DeepSeek V4" is a model's version: a bare "v4" is a TPU only beside the word TPU
        seen.add(chip["id"])
        architecture = (chip.get("architecture") or {}).get("name")
        kind = m["kinds"].get(chip.get("kind") or "", m["kinds"]["chip"])
        what = m["chip_with_architecture" if architecture else "chip"].format(
            vendor=chip.get("vendor") or "", kind=kind, architecture=architecture or "")
        written = text[mention.start:mention.end]
        out.append({"id": f"chip:{chip['id']}", "term": written, "expansion": "", "expansion_en": "",
                    "definition": what, "intuition": None, "category": "named", "calculator": None, "found_as": written,
                    "source": {"title": "data/hardware.json (the chip catalog)", "url": (chip.get("architecture") or {}).get("source", "")}})
    return out
