"""Model names read by their naming convention: family, version, size and variant ("Llama-3.1-70B-Instruct" is Meta's
Llama 3.1 with seventy billion parameters, instruction-tuned; "Mixtral 8x7B", "DeepSeek-V3 671B-A37B").

The families and variant words are data/model_names.json (sourced). A size is said only where the name writes it;
a family the table does not know is named as written ("LFM9-1.2B": a model with 1.2 billion parameters by its name),
never given a maker.
"""

import json
import re
from functools import cache
from typing import NamedTuple

from calculators.resources import data_dir
from service.explain import glossary, pattern_cache
from service.i18n import arabic_numbers
from service.i18n.messages import messages


class Name(NamedTuple):
    """One model name in a text, with the parts its spelling gives."""

    start: int
    end: int
    written: str
    base: str  # the name without its size and variant words ("Llama-3.1")
    family: dict | None  # the table's family, None for a name read by its shape alone
    total: float | None  # parameters the name states ("70B"), else None
    active: float | None  # active parameters ("A37B")
    experts: int | None  # "8x7B": experts per layer and the base model's size
    each: float | None
    variants: tuple[str, ...]  # variant words as the table keys them ("instruct", "hf")


@cache
def table() -> dict:
    """data/model_names.json, loaded once."""
    return json.loads((data_dir() / "model_names.json").read_text(encoding="utf-8"))


_SCALE = {"b": 1e9, "m": 1e6, "t": 1e12}
# Larger than any model trained (the largest published are below 2T parameters, e.g. Switch-C's 1.6T, Fedus et al. 2021):
# a "size" beyond it after a model's name counts something else, its training tokens.
MAX_PARAMS = 5e12
# Smaller than any language model its family publishes (the smallest, such as SmolLM-135M or GPT-2's 124M, have tens of
# millions or more): a "1M" after a model's name is its context window (Qwen2.5-7B-Instruct-1M reads a million tokens).
MIN_PARAMS = 10e6
# A size: "70B", "1.2B", "125m", "8x7B" (experts x base), "671B-A37B" / "30B-A3B" (total and active).
_SIZE = (r"(?:(?P<experts>\d+)\s?[x×]\s?(?P<each>\d+(?:\.\d+)?)[Bb]"
         r"|(?P<total>\d+(?:\.\d+)?)(?P<unit>[BbMmTt])(?:[-_ ]?A(?P<active>\d+(?:\.\d+)?)[Bb])?)(?!\w|\.\d)")
# A version joined to the family or after a hyphen or space ("Qwen2.5", "Llama-3.1", "DeepSeek-V3", "Kimi K2"), never a size.
_VERSION = r"(?:[- ]?(?P<version>[vV]?\d+(?:\.\d+)*(?![\d.]*[BbMmTtx×]\b)|[VRK]\d+(?:\.\d+)?)(?![\w.]))"


# A line of the family between its version and its size ("Qwen3-Next-80B-A3B", "Mistral-Small-24B", "DeepSeek-Coder-33B"),
# read only where a size follows: "Qwen3 Next" alone names no size.
_LINE = r"(?:[- ](?:Next|Coder|Math|Small|Medium|Large|Mini|Nano|Lite|Pro|Flash|Omni|VL)(?=[- ]\d))"


def _variant_words() -> str:
    words = sorted(table()["variants"], key=len, reverse=True)
    return "|".join(re.escape(w) for w in words)


@cache
def _known() -> re.Pattern:
    """Every family of the table, longest spelling first ("GPT-NeoX" before "GPT"), then version, size and variants;
    after a Latin letter or digit only ("وLlama 3.1 405B" joins an Arabic "and" to the name)."""
    names = sorted({n for f in table()["families"] for n in f["names"]}, key=len, reverse=True)
    families = "|".join(re.escape(n).replace(r"\ ", r"[ -]?").replace(r"\-", r"[ -]?") for n in names)
    return re.compile(rf"(?<![A-Za-z0-9_.-])(?P<family>{families}){_VERSION}?{_LINE}?(?:[- ](?P<size>{_SIZE}))?"
                      rf"(?P<variants>(?:[-_](?:{_variant_words()})(?![\w])|[ ](?:Instruct|Chat|Base|Coder|Vision|Mini|Small|Medium|Nano)(?![\w]))*)",
                      re.I)


@cache
def _shaped() -> re.Pattern:
    """A capitalised name joined to a size by a hyphen ("LFM9-1.2B"): a model by the convention, family unknown."""
    return re.compile(rf"(?<![A-Za-z0-9_.-])(?P<family>[A-Z][A-Za-z]+\d*(?:\.\d+)?)-(?P<size>{_SIZE})"
                      rf"(?P<variants>(?:[-_](?:{_variant_words()})(?![\w]))*)")


# A size before the word "model" ("a 7B model", "405B-parameter models"): a model of that size, no family named.
_SIZED = pattern_cache.lazy(rf"(?<![\w.-])(?P<family>)(?P<size>{_SIZE})(?=(?:[- ]parameters?)? models?\b)")
# A total with its active part ("the Snowball 67B-A2B result"): a mixture of experts' size wherever it stands.
_SIZED_ACTIVE = pattern_cache.lazy(rf"(?<![\w.-])(?P<family>)(?=\d+(?:\.\d+)?[BbTt][-_]A\d)(?P<size>{_SIZE})")


def _family_of(spelling: str) -> dict | None:
    folded = re.sub(r"[\s-]+", "", spelling.lower())
    for family in table()["families"]:
        if any(re.sub(r"[\s-]+", "", n.lower()) == folded for n in family["names"]):
            return family
    return None


def _amount(number: str, unit: str) -> float:
    return float(number) * _SCALE[unit.lower()]


def _name(m: re.Match, family: dict | None) -> Name | None:
    size, variants_written = m.group("size"), m.group("variants") or ""
    version = m.groupdict().get("version")
    if not size and not variants_written and not version:
        return None  # a family named alone is the glossary's ("Llama", "Qwen")
    if not size and family is not None and m.group("family") not in family["names"]:
        return None  # a version alone in other letter case ("gpt 4", "phi-2" in lower case) is too weak a sign
    if not size and not variants_written and version and m.string[m.end("family"):m.start("version")] == " ":
        return None  # "Falcon 9" is a rocket: a version apart from the name, with no size, names no model surely
    variants = tuple(v.lower() for v in re.findall(r"[A-Za-z0-9]+", variants_written))
    total = active = each = None
    experts = None
    if m.group("experts"):
        experts, each = int(m.group("experts")), _amount(m.group("each"), "b")
    elif m.group("total"):
        total = _amount(m.group("total"), m.group("unit"))
        active = _amount(m.group("active"), "b") if m.group("active") else None
        if total > MAX_PARAMS:
            return None  # "DeepSeek-V3 14.8T": a token count after the name, no model that size
        if total < MIN_PARAMS and m.group("unit") in "Mm":
            return None  # "Qwen2.5-1M": a million-token context window, no language model of a million parameters
    end = m.end("size") if size else (m.end("version") if version else m.end("family"))
    base = m.string[m.start():end if not size else m.start("size")].rstrip(" -_") or m.group("family")
    return Name(m.start(), m.end(), m.group(), base, family, total, active, experts, each, variants)


def find(text: str) -> list[Name]:
    """The model names of `text` that carry a size, a version or a variant word, in order, never overlapping."""
    found: list[Name] = []
    for m in _known().finditer(text):
        name = _name(m, _family_of(m.group("family")))
        if name is not None:
            found.append(name)
    taken = [(n.start, n.end) for n in found]
    for m in _shaped().finditer(text):
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue
        entry = glossary.load().lookup(m.group("family"))
        if entry is not None and entry.get("category") != "model":
            continue  # "FP8-7B", "H100-..." : another kind of name before the size
        name = _name(m, None)
        if name is not None:
            found.append(name)
    taken = [(n.start, n.end) for n in found]
    for pattern in (_SIZED, _SIZED_ACTIVE):
        for m in pattern.finditer(text):  # the first only: its gloss says how every such size reads
            if not any(a < m.end() and m.start() < b for a, b in taken) and (m.group("total") or m.group("experts")):
                found.append(Name(m.start(), m.end(), m.group(), "", None, *_sizes(m), ()))
                taken.append((m.start(), m.end()))
                break
    return sorted(found, key=lambda n: n.start)


def _sizes(m: re.Match) -> tuple:
    """(total, active, experts, each) as the size in `m` writes them."""
    if m.group("experts"):
        return None, None, int(m.group("experts")), _amount(m.group("each"), "b")
    total = _amount(m.group("total"), m.group("unit"))
    return total, (_amount(m.group("active"), "b") if m.group("active") else None), None, None


def _count(value: float, lang: str) -> str:
    """An amount of parameters in words of `lang` ("70 billion", "1.2 مليار معامل")."""
    if lang == "ar":
        return arabic_numbers.amount(value, "معامل")
    scales = messages(lang)["model_name"]["scales"]
    for scale, word in ((1e12, scales["T"]), (1e9, scales["B"]), (1e6, scales["M"])):
        if value >= scale:
            return f"{arabic_numbers.digits(round(value / scale, 2))} {word}"
    return arabic_numbers.digits(value)


def gloss(name: Name, lang: str) -> str:
    """What the name says, in `lang`: its family's maker, the size it states, its variants' meanings."""
    words = messages(lang)["model_name"]
    if not name.base:  # "a 7B model": the size alone
        parts = []
    elif name.family is None:
        parts = [words["unknown"].format(name=name.base)]
    else:
        maker = name.family["maker"].get(lang) or name.family["maker"]["en"]
        own = _folded(name.base).startswith(_folded(name.family["maker"]["en"].split()[0]))  # "DeepSeek-V3": said once
        style = name.family.get("style_without_version") and _folded(name.base) == _folded(_family_spelling(name)) or _unreleased(name)
        parts = [words["style" if style else "known_self" if own else "known"].format(maker=maker, name=name.base)]
    size, swapped = "", _swapped(name)
    if swapped:  # "Mixtral 7x8B": the released 8x7B with its figures swapped, not a model of seven experts (round 38)
        size = words["swapped"].format(written=f"{name.experts}x{name.each / 1e9:g}B", released=f"{swapped[0]}x{swapped[1]:g}B")
    elif name.experts:
        size = words["experts"].format(experts=_experts(name.experts, lang), count=name.experts, each=_count(name.each, lang))
    elif name.total and name.active:
        size = words["size_active" if parts else "sized_active"].format(total=_count(name.total, lang), active=_count(name.active, lang))
    elif name.total:
        size = words["size"].format(total=_count(name.total, lang)) if parts else words["sized"].format(total=_count(name.total, lang))
    if size and parts:  # "Falcon model with 180 billion parameters": the size qualifies the name, no comma between
        parts[0] += " " + size
    elif size:
        parts.append(size)
    variants = table()["variants"]
    own_sizes = (name.family or {}).get("size_variants") or {}  # "BERT-base": a size of the line-up, not an untuned model
    for variant in dict.fromkeys(name.variants):
        meaning = (own_sizes.get(variant) or variants.get(variant) or {}).get(lang) or (own_sizes.get(variant) or variants.get(variant) or {}).get("en")
        if meaning:
            parts.append(meaning)
    return words["join"].join(parts)


def _swapped(name: Name) -> tuple[int, float] | None:
    """The released (experts, each in billions) a name's "NxMB" gives with its figures swapped, where the family
    released that and not the name as written (data/model_names.json released_experts); else None."""
    released = (name.family or {}).get("released_experts") or []
    if not name.experts or not name.each:
        return None
    written, each = f"{name.experts}x{name.each / 1e9:g}", name.each / 1e9
    if written in released or not float(each).is_integer() or f"{int(each)}x{name.experts}" not in released:
        return None
    return int(each), float(name.experts)


def _experts(count: int, lang: str) -> str:
    if lang == "ar":
        return arabic_numbers.count(count, messages(lang)["model_name"]["expert_forms"])
    return str(count)


def definition(name: Name, lang: str) -> str:
    """The family's description as a sentence, or what the convention alone says of an unknown family."""
    words = messages(lang)["model_name"]
    if name.family is None:
        return words["definition_unknown" if name.base else "definition_sized"]
    if _unreleased(name):  # "llama-160m": built to the family's design by others, not a model of Meta's family (round 38)
        said = (name.family.get("unreleased_by_base") or {}).get(_folded(name.base)) or name.family.get("unreleased") or {}
        if said.get(lang) or said.get("en"):
            return said.get(lang) or said["en"]
    what = name.family["what"].get(lang) or name.family["what"]["en"]
    if (name.total or name.experts) and _FAMILY.search(name.family["what"]["en"]):  # "Llama 405B" is one model, not "Meta's family" (round 43)
        return words["member"].format(family=what)
    if re.search(r"\d", name.base) and _FAMILY.search(name.family["what"]["en"]) and "generation" in words:
        return words["generation"].format(family=what)  # "GPT2" is one generation, not "OpenAI's family" (round 44)
    return what[:1].upper() + what[1:] + ("." if lang != "ar" else ".")


def _folded(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())


def _owns(match: glossary.Match, name: Name) -> bool:
    """Whether a glossary model term found at the name's start is the name's own family ("Llama-3.1" in
    "Llama-3.1-70B"), not the first word of another family's name ("GPT" in "GPT-NeoX-20B")."""
    if match.entry.get("category") != "model" or match.start != name.start:
        return False
    found = _folded(match.found_as)
    if not _folded(name.written).startswith(found) or name.written[len(match.found_as):][:1] not in ("", " ", "-", "_"):
        return False  # "GPT-4" in "GPT-4.5" is another model
    return name.family is None or found.startswith(_folded(_family_spelling(name)))


def _family_spelling(name: Name) -> str:
    """The family's spelling as the name starts with it ("GPT-NeoX", "Qwen2.5")."""
    for spelling in sorted(name.family["names"], key=len, reverse=True):
        if _folded(name.written).startswith(_folded(spelling)):
            return spelling
    return name.base


_NUMBERED = pattern_cache.lazy(r"\d")
_BEYOND_LARGEST = 1.1  # a size past the family's largest published model (data/model_names.json) is no size of it


def merged(text: str, lang: str, matches: list, occurrences: list) -> tuple[list, list, dict, list[dict]]:
    """The glossary's matches and occurrences with the model names read whole: a family term found inside a name
    spans the name (its item is glossed from the name), other terms found only inside a name go ("Instruct",
    "A37B", "GPT" in "GPT-NeoX-20B"). Returns (matches, occurrences, {entry id: gloss item fields}, new items)."""
    names = [n for n in find(text) if n.total or n.experts or n.variants or _NUMBERED.search(n.written)]
    if not names:
        return matches, occurrences, {}, []
    spans = [(n.start, n.end) for n in names]
    said = set(table().get("said_by_the_name") or ())
    # a model family's term or one the gloss says goes; another idea written into the name ("A37B": active) stays
    inside = lambda m: any(a <= m.start and m.end <= b for a, b in spans) and (  # noqa: E731
        m.entry.get("category") == "model" or m.entry["id"] in said or names_a_maker(m.entry))
    within = lambda m: any(a <= m.start and m.end <= b and ((a, b) != (m.start, m.end) or m.entry.get("category") != "model")  # noqa: E731
                           for a, b in spans)  # "67B-A2B" found whole as active parameters: the idea's name, not the model's
    # an idea written into a name keeps its own name in the list: "active parameters", not the fragment "7B-A1B"
    kept = [glossary.Match(o.entry, o.entry.get("term") or o.found_as, o.start, o.end, o.reading, o.derived) if within(o) else o
            for o in occurrences if not inside(o)]
    overrides: dict[str, dict] = {}
    items: list[dict] = []
    firsts: dict[str, glossary.Match] = {}
    seen_written: set[str] = set()
    unknown: dict[str, list[int]] = {}  # an unknown family's sized names, by family
    for name in names:
        if name.written.lower() in seen_written:
            owner = next((o for o in occurrences if o.start == name.start and _owns(o, name)), None)
            if owner is not None and not names_a_maker(owner.entry):  # said again, "DeepSeek-V4-Pro" is still no lab
                kept.append(glossary.Match(owner.entry, name.written, name.start, name.end, owner.reading, owner.derived))
            continue
        seen_written.add(name.written.lower())
        owner = next((o for o in occurrences if o.start == name.start and _owns(o, name)), None)
        if owner is not None and names_a_maker(owner.entry):
            owner = None  # "DeepSeek-R2", "Mistral-7B": a model of the lab, glossed by its name, never as the lab
        if owner is not None and owner.end == name.end and not (name.total or name.experts or name.variants):
            kept.append(owner)  # "Llama 3", "GPT-4": the glossary names the model whole; its entry says more
            continue
        fields = {"expansion": gloss(name, lang), "expansion_en": gloss(name, "en"), "found_as": name.written,
                  "model_name": True}
        if owner is not None and owner.entry["id"] not in overrides:
            full = glossary.Match(owner.entry, name.written, name.start, name.end, owner.reading, owner.derived)
            kept.append(full)
            firsts.setdefault(owner.entry["id"], full)
            overrides[owner.entry["id"]] = fields
            if not _said_by_owner(owner, name):  # the entry describes the family or the teacher: the name's own reading
                fields["definition"] = _owner_definition(owner, lang, name)
            continue
        if owner is not None:
            kept.append(glossary.Match(owner.entry, name.written, name.start, name.end, owner.reading, owner.derived))
        family = name.family
        if not name.base:
            fields["minor"] = True  # "7B" alone: how a size reads, listed after the passage's own terms
        if family and name.total and name.total > _BEYOND_LARGEST * family.get("largest_params", float("inf")):
            fields["name_only"] = True  # "phi1 54B" in a table of training tokens: no Phi has 54B parameters
        if owner is None and family is None and name.base:
            unknown.setdefault(name.base.lower(), []).append(len(items))
            # a family no table knows: "Vicuna-7b: a model the text names" says nothing, and a figure joined to an
            # unknown name may not be its size ("phi1 54B" in a table of training tokens, a round-15 answer): not listed
            fields["name_only"] = True
        items.append({"id": f"model:{_folded(name.written)}", "term": name.written, **fields,
                      "definition": definition(name, lang) if owner is None else _owner_definition(owner, lang, name),
                      "intuition": None, "category": "model", "calculator": None,
                      "source": (family or {}).get("source") or {"title": "data/model_names.json (model naming conventions)",
                                                                  "url": table()["sources"][0]["url"]}})
    items = _one_item_per_unknown_family(items, unknown, lang)
    kept.sort(key=lambda o: (o.start, -o.end))
    present = {o.entry["id"] for o in kept}
    out = []
    for match in matches:
        if match.entry["id"] in firsts and inside(match):
            out.append(firsts[match.entry["id"]])
        elif match.entry["id"] in present and inside(match):
            out.append(next(o for o in kept if o.entry["id"] == match.entry["id"]))
        elif within(match) and not inside(match):
            out.append(glossary.Match(match.entry, match.entry.get("term") or match.found_as, match.start, match.end,
                                      match.reading, match.derived))
        elif not inside(match):
            out.append(match)
    return out, kept, overrides, items


def _one_item_per_unknown_family(items: list[dict], unknown: dict[str, list[int]], lang: str) -> list[dict]:
    """Several sized names of one family no table knows ("Mula-1B", "Mula-7B-A1B", ...) as one item listing them, the
    naming convention said once: five items each reading "a model the text names" tell a reader nothing five times."""
    dropped = set()
    for indexes in unknown.values():
        if len(indexes) < 2:
            continue
        first = items[indexes[0]]
        names = [items[i]["term"] for i in indexes]
        first.update(term=", ".join(names), found_as=names[0], expansion="", expansion_en="", name_only=False,
                     definition=messages(lang)["model_name"]["definition_family"].format(
                         sizes="; ".join(items[i]["expansion"] for i in indexes)))
        dropped.update(indexes[1:])
    return [item for i, item in enumerate(items) if i not in dropped]


_MAKER_CATEGORIES = frozenset({"organisation", "organization"})


def names_a_maker(entry: dict) -> bool:
    """Whether a glossary entry describes a company or lab (its `maker` flag, or an organisation's category), whose
    definition would be wrong for one of its models."""
    return bool(entry.get("maker")) or entry.get("category") in _MAKER_CATEGORIES


def _another_model(name: Name, lang: str) -> str | None:
    """What a variant word that makes another model says of it ("-Distill": a smaller model taught by the named one)."""
    for variant in name.variants:
        other = (table()["variants"].get(variant) or {}).get("another_model")
        if other:
            return other.get(lang) or other["en"]
    return None


_FAMILY = pattern_cache.lazy(r"^[^.;:]{0,60}\b(?:family|series)\b|^[^.;:]{0,40}'s small language models\b")  # "Meta's family of ..."


def _unreleased(name: Name) -> bool:
    """Whether the name gives a size its maker never released for that version ("GPT-3 530B", a benchmark configuration
    of GPT-3's design): data/model_names.json released_b, sizes within 5%."""
    sizes = ((name.family or {}).get("released_b") or {}).get(_folded(name.base))
    return bool(sizes and name.total) and not any(abs(name.total / 1e9 - b) <= 0.05 * b for b in sizes)


def _said_by_owner(owner: glossary.Match, name: Name) -> bool:
    """Whether the glossary entry found at the name describes the named model itself: not where a variant word makes it
    another model ("DeepSeek-R1-Distill"), nor where the name states a size and the entry describes the whole family,
    nor a size its maker never released."""
    if _another_model(name, "en") or _unreleased(name):
        return False
    return not ((name.total or name.experts or name.variants) and _FAMILY.search(owner.entry.get("definition") or ""))  # "Phi-3 Mini" is one


def _owner_definition(owner: glossary.Match, lang: str, name: Name | None = None) -> str:
    """The entry's definition where it describes the named model; else what the naming convention says of it."""
    if name is not None and not _said_by_owner(owner, name):
        said = ((name.family or {}).get("unreleased_by_base") or {}).get(_folded(name.base)) or (name.family or {}).get("unreleased") or {}
        other = _another_model(name, lang) or (said.get(lang) or said.get("en", "") if _unreleased(name) else "")
        if other:
            return other
        family = (name.family or {}).get("what") or {}
        what = family.get(lang) or family.get("en") or glossary.describe(owner, lang)["expansion"]
        return messages(lang)["model_name"]["member" if name.total or name.experts else "variant"].format(family=what)
    return glossary.describe(owner, lang)["definition"]
