"""Which items a terms list keeps, read as a list a reader reads: none that only restates its own name, none twice
(the same thing written with other spacing, hyphens, case or version punctuation; or the same definition under
several names), no clause fragment as a name, and no sentence naming a model or chip the passage never mentions."""

import re
from functools import cache, lru_cache
from typing import NamedTuple

from service.explain import definitions, glossary, outside_numbers, passage_devices
from service.i18n.messages import messages


class Item(NamedTuple):
    """One line of the terms section before it is written: the bold name, its expansion and its definition."""

    name: str
    expansion: str
    definition: str


# Words that carry no content of their own in a definition: articles, prepositions, auxiliaries, and the words of the
# templates that announce a name ("A setting whose name reads ...", "..., as the text defines it").
_EMPTY_WORDS = frozenset("""a an the of in on at to for by with from and or as is are be it its this that one ones
    which used use here text defines defined define setting settings whose name names reads called refers means""".split())
RESTATED_EXTRA = 1  # a short definition adding at most this many content words to its name's says nothing new
RESTATED_MOST = 5  # ... when it holds at most this many content words in all


def _words(text: str) -> list[str]:
    return [w.lower().rstrip("s") if len(w) > 3 else w.lower() for w in re.findall(r"[A-Za-z]+|\d+", text)]


def _covered(word: str, heads: set[str]) -> bool:
    """Whether `word` is one of the name's words, or one of them shortened ("num" for "number", "seq" for "sequence")."""
    return word in heads or any(len(h) >= 3 and (word.startswith(h) or h.startswith(word)) for h in heads)


def restates_head(name: str, expansion: str, definition: str) -> bool:
    """Whether `definition` only says its name again ("network cards: The network card in a server."; "num_heads: A
    setting whose name reads 'number of heads'"): its content words are the name's, one more at most. Latin words only:
    an Arabic definition is never judged by an English name."""
    if re.search(r"[\u0600-\u06FF]", definition):
        return False
    heads = set(_words(re.sub(r"[_\W]+", " ", name)))  # the name's words only: an expansion the definition repeats is dropped, not the item
    content = [w for w in _words(definition) if w not in _EMPTY_WORDS]
    if not content or len(content) > RESTATED_MOST:
        return not content
    return sum(not _covered(w, heads) for w in content) <= RESTATED_EXTRA and any(_covered(w, heads) for w in content)


def same_thing(name: str) -> str:
    """A key for a name read the same whatever its spacing, hyphens, case, plural or version punctuation ("Llama 2 70B",
    "Llama2-70b"; "micro batch size", "micro-batch sizes"). An acronym's own "s" is part of the name, case and all:
    FLOPS (a rate) and FLOPs (an amount), TFLOP and TFLOPs are different things."""
    folded = re.sub(r"[\s\-_./]+", "", name)
    if re.search(r"[A-Z][sS]$", folded):
        return folded
    folded = folded.lower()
    return folded[:-1] if len(folded) > 3 and folded.endswith("s") and not folded.endswith("ss") else folded


# A name that is a piece of a clause, not a term: a verb or a modal inside it, or a preposition closing it
# ("communication can be overlapped with").
_CLAUSE = re.compile(r"(?i)\b(?:can|could|will|would|should|must|may|might|is|are|was|were|be|been|being)\s+\w|"
                     r"\s(?:with|of|to|for|by|from|on|in|at|into|that)$")


def clause_fragment(written: str) -> bool:
    """Whether the words a term was found as are a fragment of a clause rather than a term as written."""
    return len(written.split()) >= 3 and bool(_CLAUSE.search(written.strip()))


ASIDE_WORDS = 3  # a bracket this long is an aside ("(for example ... Llama-3 and Kimi K2)"); a shorter one glosses a word
_BRACKETED = re.compile(r"\s*\([^()]*\)")
_SENTENCE_END = re.compile(r"(?<=[.!?؟])\s+(?=[A-Z\u0600-\u06FF])")
_CLAUSE_END = re.compile(r"\s*[;؛]\s+")


def _clauses(sentence: str) -> list[str]:
    """A sentence split at its semicolons outside brackets ("(... bits; E4M3 ...)" is one aside), each clause but the
    first with its own separator before it ("; " or the Arabic "؛ ")."""
    out, depth, start = [], 0, 0
    for m in re.finditer(r"[()]|\s*[;؛]\s+", sentence):
        if m.group() in "()":
            depth += 1 if m.group() == "(" else -1
        elif depth == 0:
            out.append(sentence[start:m.start()])
            start = m.start()
    return out + [sentence[start:]]


@cache
def _specific_names() -> list[list[re.Pattern]]:
    """For each glossary model or chip with a number in its name ("Llama 3", "H100", "K2", "TPU v4"), the forms that
    name it: its name and aliases, spaced or hyphenated or not, and its patterns. A specific thing, unlike "GPU"."""
    out = []
    for entry in glossary.load().by_id.values():
        if entry.get("category") not in ("model", "hardware") or not re.search(r"\d", entry.get("term") or ""):
            continue
        names = [entry["term"], *(a for a in entry.get("aliases") or [] if isinstance(a, str) and re.search(r"\d", a))]
        forms = [re.compile(r"(?i)(?<![A-Za-z0-9.-])" + r"[\s-]?".join(map(re.escape, re.split(r"[\s-]+", n.strip()))) + r"s?(?![\w])")
                 for n in names if n.strip()]
        out.append(forms + [re.compile(p["re"]) for p in entry.get("patterns") or [] if p.get("re")])
    return out


_PRODUCT_CODE = re.compile(r"(?<![\w.-])(?:[A-Z]{1,3}\d{2,4}[A-Za-z]?|\d+x\d+B)(?![\w])")  # GB10, MI300, H100, 8x22B
_FORMAT_CODE = re.compile(r"(?:FP|BF|INT|UINT|MXFP|NVFP|TF|HBM|DDR|GDDR|LPDDR|SM|PCIE|NVL|SXM|OAM)\d+[A-Za-z]?", re.I)  # formats, memories, buses


def _foreign(part: str, passage: str, own: str) -> bool:
    """Whether `part` names only specific models or chips that neither the passage nor the term's own name mentions
    ("for Llama-3 and Kimi K2" beside a passage on Mistral); a part naming one the passage does mention is about it ("for TPU v2, v3 and v4 the size counts cores" beside "v3-256")."""
    if passage_devices.names_nvidia(part) and passage_devices.other_maker(passage) and not passage_devices.names_nvidia(own):
        return True  # "for example NVIDIA ConnectX-7", "the H100's NVLink figure" beside Gaudi's or an MI100's own links
    codes = {c for c in _PRODUCT_CODE.findall(part) if not _FORMAT_CODE.fullmatch(c)}
    if codes and not any(c.lower() in f"{passage} {own}".lower() for c in codes):
        return True  # "NVIDIA's GB10", "AMD's MI300-series", "Mixtral 8x22B": products the passage never names
    named = [patterns for patterns in _specific_names() if any(p.search(part) for p in patterns)]
    if not named or _CODED.findall(part.lower()) and set(_CODED.findall(part.lower())) & set(_CODED.findall(f"{passage} {own}".lower())):
        return False  # "v3" in "TPU v2, v3 and v4" beside a passage on "v3-256": about the passage's own chip
    return not any(p.search(passage) or p.search(own) for patterns in named for p in patterns)


def _other_things(aside: str, passage: str, own: str) -> bool:
    """Whether a bracketed aside names products, makers or mixture-of-experts ideas and nothing else the passage or
    the term's own name names: an example from another setting ("(Apple's chips, AMD's Strix Halo)", "(only the
    active experts' of a mixture of experts)" beside a dense model), which a reader takes for a claim about the text."""
    if re.match(r"\s*\((?:as|كما)\s", aside):
        return False  # "(as nvidia-smi shows it)": how the term is read, not an example from elsewhere
    found = glossary.detect(aside)
    things = {m.entry["id"] for m in found if m.entry.get("category") in _THING_CATEGORIES} - definitions.generic_term_ids()
    named = _named_ids(passage) | _named_ids(own)
    if any(m.entry.get("category") == "moe" for m in found) and named & _moe_ids():
        return False  # beside any mixture-of-experts term, what experts do is about the text
    return bool(things) and not {m.entry["id"] for m in found} & named


@cache
def _moe_ids() -> frozenset[str]:
    return frozenset(i for i, e in glossary.load().by_id.items() if e.get("category") == "moe")


_THING_CATEGORIES = frozenset({"model", "hardware", "software", "framework", "organisation", "organization", "moe"})


@lru_cache(maxsize=64)
def _named_ids(text: str) -> frozenset[str]:
    """The glossary ids a text names (the passage is read once for all of its terms' definitions)."""
    return frozenset(m.entry["id"] for m in glossary.detect(text))


_CODED = re.compile(r"(?<![a-z0-9])(?:[a-z]+\d+[a-z]*|\d+[a-z]+)(?![a-z0-9])")  # a version or size code: "v3", "h100", "8b"


def without_foreign_names(definition: str, passage: str, own: str, numbers: bool = True) -> str:
    """`definition` without a bracketed aside, a sentence after the first, or a clause after the first sentence's
    semicolon that names a model or chip the passage never mentions ("(for example ... for Llama-3 and Kimi K2)" in a
    passage about Mistral-7B), or (with `numbers`) says a number it never gives ("offered in boards of four chips");
    cut whole, never mid-clause; the first clause itself always stays, said without a count the passage never gives."""
    def foreign(part: str) -> bool:
        return _foreign(part, passage, own) or numbers and bool(outside_numbers.outside(part, passage))

    definition = _BRACKETED.sub(lambda m: "" if (len(m.group().split()) >= ASIDE_WORDS or numbers and outside_numbers.outside(m.group(), passage))
                                and (foreign(m.group()) or _other_things(m.group(), passage, own))
                                else m.group(), definition)  # "(HBM3)", "(A100)": a gloss of the word before, kept
    sentences = _SENTENCE_END.split(definition.strip())
    kept = sentences[:1] + [p for p in sentences[1:] if not foreign(p)]
    clauses = _clauses(kept[0])  # "...; the largest was trained on H100 GPUs": a clause as whole as a sentence
    if len(clauses) > 1 and any(foreign(c) for c in clauses[1:]):
        whole = [clauses[0]] + [c for c in clauses[1:] if not foreign(c)]
        kept[0] = "".join(whole).rstrip(" .;،؛") + "."
    head, colon, after = kept[0].partition(": ")
    if colon and len(head.split()) >= 8 and len(after.split()) <= 12 and head.count("(") == head.count(")") and _foreign(after, passage, own):
        kept[0] = head.rstrip(" .") + "."  # "... (bidirectional): the H100's headline figure counts both": the example goes
    if numbers and outside_numbers.outside(kept[0], passage):
        kept[0] = outside_numbers.without_parts(outside_numbers.uncounted(kept[0], passage), passage)
    return passage_devices.chips_for_gpus(re.sub(r"\s+([.,;:])", r"\1", " ".join(kept)), passage, own)


def _opens(gloss: str, definition: str) -> bool:
    """Whether `definition` opens with `gloss` word for word (punctuation and case aside)."""
    folded = re.sub(r"[\W_]+", "", gloss.lower())
    return bool(folded) and re.sub(r"[\W_]+", "", definition.lower()).startswith(folded)


_GLOSS_PARTS = re.compile(r"\s*[،,:;؛]\s+")
_PREFIX_AR = re.compile(r"^(?:وال|بال|لل|ال|و|ب|ل)(?=[\u0621-\u064A]{3,})")  # "المصفوفات" is said by "مصفوفات"
MOSTLY = 0.75  # of a gloss part's words that the definition's opening says again: the part is said below


def _fold(word: str) -> str:
    return _PREFIX_AR.sub("", word.lower())


def _opening_says(part: str, definition: str) -> bool:
    """Whether the definition's first words say most of a gloss part of three words or more, in about its order
    ("**MLX** (إطار المصفوفات من Apple ...): إطار مصفوفات مفتوح من Apple ..."; "طلب دمج: تغيير مقترح ..." over
    "تغيير مقترح على ..."): the part is said once, below."""
    words = [w for w in (_fold(w) for w in re.findall(r"[^\W_]+", part)) if len(w) >= 3]  # content words only
    if len(words) < 3:
        return False
    opening = {_fold(w) for w in re.findall(r"[^\W_]+", definition)[:len(words) + 3]}
    return sum(w in opening for w in words) >= MOSTLY * len(words)


def unsaid_gloss(gloss: str, definition: str) -> str:
    """A gloss without its parts that the definition opens by saying again; "" when every part is said below."""
    if _opens(gloss, definition):
        return ""
    parts = _GLOSS_PARTS.split(gloss)
    kept = [p for p in parts if not _opening_says(p, definition)]
    if len(kept) == len(parts):
        return gloss
    kept = [re.sub(r"^(?:and|or)\s+|^و(?=ال)", "", p) if i == 0 else p for i, p in enumerate(kept)]
    return ("، " if re.search(r"[\u0600-\u06FF]", gloss) else ", ").join(kept)


def cleaned(items: list[Item]) -> list[Item]:
    """The items a reader reads: restatements out, the same thing once (its first, most central, naming kept),
    one definition said once under the names that share it."""
    out: list[Item] = []
    seen: dict[str, int] = {}
    expanded: set[str] = set()  # the names earlier items gave as their expansion
    for item in items:
        if restates_head(item.name, item.expansion, item.definition):
            continue
        # "TPU v3 (Google's third TPU generation): Google's third TPU generation, sold in ...": the gloss said once
        expansion = unsaid_gloss(item.expansion, item.definition)
        item = item._replace(name=re.sub(r"\s*\(([^()]*)\)$", lambda m: f" ({kept})" if (kept := unsaid_gloss(m.group(1), item.definition)) else "", item.name))
        keys = {same_thing(item.name)}
        if any(k in seen or k in expanded for k in keys):  # "Llama2 70B" after "Llama 2 70B"; "GPipe" after "pipeline schedule (GPipe)"
            continue
        if expansion:
            expanded.add(same_thing(expansion))
        shared = next((n for n, o in enumerate(out) if len(item.definition.split()) >= 6 and o.definition == item.definition), None)
        if shared is not None:  # "OLMo-1B", "OLMo-7B", "OLMo-13B" with one family's definition: one line naming all
            first = out[shared]
            out[shared] = Item(f"{first.name}**, **{item.name}", "", _for_several(first.definition))
            seen.update(dict.fromkeys(keys, shared))
            continue
        seen.update(dict.fromkeys(keys, len(out)))
        out.append(Item(item.name, expansion, item.definition))
    return out


def _for_several(definition: str) -> str:
    """A family member's definition ("One model of X; the figure in its name ...") said of the several names it now
    heads: two models are not "one model" (round 49's review: «Qwen3-Next-80B-A3B، Qwen3-30B-A3B: نموذج واحد من ...»)."""
    for lang in ("en", "ar"):
        forms = messages(lang)["model_name"]
        one, many = forms["member"].split("{family}"), forms["members"].split("{family}")
        found = re.fullmatch(re.escape(one[0]) + "(.+?)" + re.escape(one[1]), definition)
        if found:
            return many[0] + found.group(1) + many[1]
    return definition


SHORT_DEFINITION_WORDS = 16  # about this many words in a shortened definition


def shortened(definition: str) -> str:
    """A definition shortened to its first sentences, about SHORT_DEFINITION_WORDS words: cut only where a sentence
    ends, never mid-fact and never with a dangling "…" (the first sentence always stays whole)."""
    text = definition.strip()
    bounds = [0] + [m.start() for m in _SENTENCE_OPENING.finditer(text)] + [len(text)]
    pieces = [text[a:b].strip() for a, b in zip(bounds, bounds[1:]) if text[a:b].strip()]
    kept = []
    for piece in pieces:
        so_far = len(" ".join(kept).split())
        if kept and (so_far >= 8 or so_far + len(piece.split()) > 3 * SHORT_DEFINITION_WORDS) \
                and so_far + len(piece.split()) > SHORT_DEFINITION_WORDS:
            break  # a very short first sentence ("A chip.") takes the next one with it
        kept.append(piece)
    return " ".join(kept)


# A sentence ends at ".", "!" or "?" followed by a space and a capital, a digit or Arabic (not "e.g. this" or "v4.8").
_SENTENCE_OPENING = re.compile(r"(?<=[.!?؟])\s+(?=[A-Z0-9\u0600-\u06FF'\"(])")
