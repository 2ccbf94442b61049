"""How a listed term is named in the terms section: as the text wrote it, its expansion said once, never an
abbreviation the text did not use."""

import re

from service.explain import glossary, outside_numbers, term_items
from service.i18n import arabic


def display(term: dict, lang: str, passage: str | None = None) -> tuple[str, str]:
    """The name to show in bold and its expansion, without repeating one inside the other nor nesting brackets; with
    the `passage`, without a year it never gives ("MT-NLG (..., dense language model of 2021)": a number from outside)."""
    name, expansion = _shown(term, lang)
    if passage is None:
        return name, expansion
    expansion = outside_numbers.unsized(expansion, passage)  # "six-billion-parameter" where the passage gives no size
    return name, _YEAR.sub("", expansion) if not any(y in passage for y in _YEAR_DIGITS.findall(expansion)) else expansion


# "ZeRO 1/2", "ZeRO stages 1 and 2": one match naming several numbered items, each listed under its own name
_COORDINATED = re.compile(r"\d\s*(?:/|,|&|\band\b|\bor\b)\s*\d")
_YEAR_DIGITS = re.compile(r"\b(?:19|20)\d\d\b")
_YEAR = re.compile(r"(?:,\s*(?:[A-Z]{2,}\s+)?|\s+(?:of|from|in)\s+)(?:19|20)\d\d\b|(?<=\s)(?:19|20)\d\d\s+(?=[a-z])")


def _shown(term: dict, lang: str) -> tuple[str, str]:
    """The name to show in bold and its expansion, without repeating one inside the other nor nesting brackets."""
    if re.search(r"[A-Za-z0-9]['’]s$", term.get("found_as") or ""):  # "**TSMC's** (TSMC)": the name, not its possessive
        term = {**term, "found_as": term["found_as"][:-2]}
    if lang == "en" and arabic.ARABIC_LETTER.search(term.get("found_as") or "") and _LATIN.search(term.get("found_as") or ""):
        term = {**term, "found_as": term["term"]}  # "**Llama 3 من Meta**" in an English answer: the Arabic word is no part of the name
    if _AXIS_DEGREE.fullmatch(term.get("found_as") or ""):  # "model=8": the axis as written, the parallelism it carries
        return term["found_as"], _without_brackets(term.get("expansion") or "")
    if term.get("category") != "option" and (_CODE_PUNCTUATION.search(term.get("found_as") or "")
                                             or term_items.clause_fragment(term.get("found_as") or "")):
        term = {**term, "found_as": term["term"]}  # "communication can be overlapped with": the entry's name, not a clause  # 'zero_optimization": {"stage": 3' read by a pattern: the entry's name
    if _COORDINATED.search(term.get("found_as") or ""):
        term = {**term, "found_as": term["term"]}  # "**ZeRO 1/2**: The second ZeRO stage" read as if 1/2 were stage 2
    name, expansion = _display(term, lang)
    if term.get("category") != "option":
        name = name.rstrip("-_/") or name  # "ZeRO-" cut from "ZeRO-3": the name, not the prefix of another
    expansion = unnested(name, expansion)
    if re.fullmatch(rf"{re.escape(name)}\s+(?:من|لدى|by|from)\s+\S+", expansion.strip()):
        expansion = ""  # "**PaLM** (PaLM من Google)": the maker is said in the definition, the bracket adds nothing
    if expansion and term.get("category") != "option" and _INNER.search(name):
        # "**المعاملات (الأوزان)** (parameters)": two brackets in a row become one, the sense first, nothing lost
        glosses = [g.strip() for g in re.findall(r"\(([^()]*)\)", name) if g.strip()]
        base = _without_brackets(name)
        if base and glosses:
            name, expansion = base, ("، " if lang == "ar" else ", ").join([*glosses, expansion])
    definition = term.get("definition") or ""
    if _INNER.search(name) and _said_in(" ".join(re.findall(r"\(([^()]*)\)", name)), definition):
        name = _without_brackets(name) or name  # "**Ascend من هواوي (معالجات ... تبرمج عبر CANN)**" over a definition saying it
    if expansion and not _is_acronym(name) and _said_in(expansion, definition):
        expansion = ""  # "**NVL72** (rack-scale NVLink system ...)" over "NVIDIA's rack-scale system ...": said once, below
    if lang == "ar" and arabic.ARABIC_LETTER.search(term.get("found_as") or ""):
        expansion = _without_plain_english(expansion)
    if lang == "ar" and "، " in expansion:  # "**DeepSeek Sparse Attention** (...، DeepSeek Sparse Attention)": the name once
        expansion = "، ".join(p for p in expansion.split("، ") if p.strip().lower() != name.strip().lower())
    return name, _one_english_form(expansion) if lang == "ar" else expansion


def _without_plain_english(expansion: str) -> str:
    """An Arabic heading over a term the text wrote in Arabic, without the English common noun after it ("(في الوقت
    نفسه، in parallel)" -> "(في الوقت نفسه)"): Arabic readers counted it as English left; names and acronyms stay."""
    parts = expansion.split("، ")
    kept = [p for p in parts if not re.fullmatch(r"[a-z][a-z -]*", p.strip())]
    return "، ".join(kept) if len(kept) < len(parts) else expansion


def _one_english_form(expansion: str) -> str:
    """An Arabic heading's bracket with one English form of the term: "(Rail-optimized، rail-optimized network)" keeps
    the text's own "Rail-optimized", "(materialize: حسابه ...، materialize)" says "materialize" once (Arabic readers
    counted a second English name as English left in the answer)."""
    parts = expansion.split("، ")
    latin = lambda p: bool(p) and not arabic.ARABIC_LETTER.search(p)  # noqa: E731
    kept, english = [], []
    for part in parts:
        head = part.split(":")[0].strip().lower()
        if latin(part) and (any(e for e in english if latin(e)) or any(head and e.split(":")[0].strip().lower() == head for e in english)):
            continue
        kept.append(part)
        if re.match(r"[A-Za-z]", part):
            english.append(part)
    return "، ".join(kept)


_STOP = frozenset("the and for with from that this its his her their are was were of to in on by an a or as at".split())


def _said_in(gloss: str, definition: str) -> bool:
    """Whether a heading's descriptive gloss is said again by the definition under it: most of its five or more words."""
    words = [_ARABIC_PREFIX.sub("", w) for w in re.findall(r"[^\W\d_]{3,}", gloss.lower()) if w not in _STOP]
    if len(words) < 5 or any(n not in definition for n in re.findall(r"\d+(?:\.\d+)?", gloss)):
        return False  # a name's few words ("tokens per second") or a figure ("2.7 billion") the definition lacks: kept
    return sum(w in definition.lower() for w in words) >= 0.7 * len(words)


_ARABIC_PREFIX = re.compile(r"^(?:وال|بال|لل|ال|و|ب|ل)(?=[\u0621-\u064A]{3,})")  # "للأوزان" is said by "أوزان"



def _display(term: dict, lang: str) -> tuple[str, str]:
    name, expansion = term["term"], term["expansion"] or ""
    if term.get("category") == "option":  # a flag keeps its own spelling; what it belongs to is the expansion
        return name, expansion
    found = term.get("found_as") or ""
    if _spelled_out(found, name, lang):  # the text wrote the words ("microbatch size"), not the abbreviation: no MBS added
        if lang == "ar" and expansion and arabic.ARABIC_LETTER.search(expansion):
            return re.sub(r"\s*\([^)]*\)", "", expansion).strip() or expansion, ""
        return found, ""
    if found and term.get("category") == "defined":  # a name the text defines: its own Arabic name first where it gives one
        return (expansion, found) if expansion else (found, "")
    if found and (term.get("model_name") or term.get("category") in ("named", "label", "compound")):  # "Llama-3.1-70B-Instruct" read by its parts: the name as written, what it says
        return found, expansion
    if found and term.get("category") == "model" and _family_member(found, name):
        return found, _described_part(expansion)  # "Qwen2.5-32B" under the Qwen family: the model as the text named it
    if found and _by_pattern(term["id"], found):  # "TPU v3-256" read by the slice-name notation: shown as the text wrote it
        return found, expansion
    if lang == "en" and _other_words(found, name):  # "token overflow" under "token dropping": the text's words first
        return found, name
    plural = found.lower().rstrip("s") == name.lower().rstrip("s")
    if found and not arabic.ARABIC_LETTER.search(found) and _is_acronym(found) and not plural:
        expansion = expansion.replace(f" ({found})", "")
        # "DSV3" shows its entry's name; a sibling code ("ZB-H2" under the ZB-H1 entry) keeps the expansion naming both
        sibling = _is_acronym(term["term"]) and term["term"].lower() != found.lower()
        name, expansion = found, (term["term"] if found in expansion and lang == "en" and not sibling else expansion)
    if lang == "ar" and not _is_acronym(name):  # the English beside the Arabic is what the text wrote ("token overflow")
        name, expansion = expansion, (found if _other_words(found, term["term"]) or _other_name(found, term["term"]) else term["term"])
    if expansion.lower().startswith(name.lower() + " (") and expansion.endswith(")"):
        expansion = expansion[len(name) + 2:-1]
    expansion = re.sub(rf"\s*\({re.escape(name)}\)$", "", expansion)  # "وحدة معالجة الموترات (TPU)" beside **TPU**
    if expansion and expansion.lower() in name.lower():  # "**Kimi K2 (نموذج Moonshot AI)** (K2)": said once
        expansion = ""
    if _is_acronym(expansion) and found and not arabic.ARABIC_LETTER.search(found) and expansion.lower() != found.lower():
        expansion = ""  # "**DeepSeek-V3** (DSV3)" where the text wrote "V3": an abbreviation it never used
    return name, expansion


_LATIN = re.compile(r"[A-Za-z]")
_CODE_PUNCTUATION = re.compile(r"[{}\[\]\"=;]|:\s")
_AXIS_DEGREE = re.compile(r"[a-z]+\s*[=:]\s*\d+")
_INNER = re.compile(r"\s*\([^()]*\)")
# "Here throughput is ..." opening a definition of **throughput**: the term is in bold just before.
_HERE_TERM = "(?:here|in this text),?\\s+(?:the\\s+)?{name}\\s+(?:is|are|means|refers\\s+to)\\s+"


def unnested(name: str, expansion: str) -> str:
    """The expansion as a reader can carry it beside the bold name: without a gloss of its own in brackets (the
    definition after it carries the meaning: "teraFLOP/s (trillion ...)" would nest inside the name's brackets), and
    left out when it opens with the name itself ("throughput in TFLOP/s" beside **throughput**)."""
    plain = _without_brackets(expansion)
    if not plain:
        return ""
    acronym = _is_acronym(name)  # "ZeRO" is not the word "Zero" of its own expansion: compared as written
    lowered, named = (plain, name.strip()) if acronym else (plain.lower(), name.lower().strip())
    if named and not acronym and (lowered == named or lowered.startswith(named + " ") or lowered.startswith(named + ",")):
        return ""  # "**throughput** (throughput in TFLOP/s)": said twice; the definition says which sense
    if named and lowered == named:
        return ""  # "**MFU** (MFU)"; a qualifier ("process rank", "expert load balancing") says the sense: kept
    bare = _without_brackets(name)
    if bare and (plain == bare if acronym else plain.lower() == bare.lower()):
        return ""  # "**preemption (of a request)**" over "preemption (a serving engine ...)": not "(of a request, preemption)"
    return plain


def _without_brackets(text: str) -> str:
    """`text` without any bracketed part, nested ones included (innermost first)."""
    while True:
        shorter = _INNER.sub("", text)
        if shorter == text:
            return " ".join(text.split()).strip(" ,;:")
        text = shorter


# A word's gloss in brackets inside other brackets: "(usually an all-reduce (AR))"; never a formula's brackets.
_NESTED = re.compile(r"(\([^()]*?[^\W\d_]{2})\s+\((?![\d\s])([^()=+*/^<>]*[^\W\d_][^()=+*/^<>]*)\)")


def flat_brackets(text: str, lang: str) -> str:
    """Brackets inside brackets flattened: a word's gloss inside a bracketed part is left out, the word before it
    stays ("(usually an all-reduce (AR))" reads "(usually an all-reduce)"); a formula's brackets are kept. A reader
    never counts closing brackets."""
    for _ in range(3):  # three levels at most in the glossary
        flattened = _NESTED.sub(lambda m: m.group(1) if not re.search(r"\s[-–]\s", m.group(2)) else m.group(0), text)
        if flattened == text:
            break
        text = flattened
    return text


def unrepeated_definition(name: str, definition: str) -> str:
    """A definition without an opening that restates its own term ("Here throughput is the arithmetic rate ..."
    under **throughput** reads "The arithmetic rate ...")."""
    if not name or not definition:
        return definition
    if definition.lower().startswith(name.strip().lower() + ":"):  # "**ZeRO stage 1**: ZeRO stage 1: each chip ...": once
        rest = definition[len(name.strip()) + 1:].lstrip()
        return rest[:1].upper() + rest[1:] if rest else definition
    opening = re.match(_HERE_TERM.format(name=re.escape(name.strip())), definition, re.I)
    if not opening and name.split():  # "الإنتاجية هنا هي معدل ..." under **الإنتاجية بوحدة TFLOP/s**
        opening = re.match(rf"{re.escape(name.split()[0])}\s+هنا\s+(?:هي|هو|تعني|يعني|يقصد\s+بها|يقصد\s+به)\s+", definition)
    if not opening:
        return definition
    rest = definition[opening.end():]
    return rest[:1].upper() + rest[1:] if rest else definition


def _spelled_out(found: str, name: str, lang: str) -> bool:
    """Whether the text wrote an abbreviation's words ("device memory", "microbatch size", "ضرب المصفوفات") rather than
    it (VRAM, MBS, GEMM): the list then names what the text said (blind readers, issue 18: terms not in the text were listed)."""
    if arabic.ARABIC_LETTER.search(found) and lang != "ar":
        return False  # an English answer names an Arabic passage's term by its English name
    return bool(found) and _is_acronym(name) and not _is_acronym(found) \
        and len(re.split(r"[\s_-]+", found.strip())) >= 2 and name.lower() not in found.lower()


def _family_member(found: str, name: str) -> bool:
    """Whether `found` names one model of the family `name` by adding a version or size ("Llama-2-7b-hf" in "Llama 2",
    "mpt-7b" in "MPT models")."""
    written, family = re.sub(r"[\W_]+", "", found.lower()), re.sub(r"[\W_]+", "", name.split()[0].lower())
    return len(family) >= 2 and written.startswith(family) and written != family and bool(re.search(r"\d", found))


def _described_part(expansion: str) -> str:
    """The description inside an expansion written "Name (description)", or the expansion itself."""
    inner = re.fullmatch(r"[^()]+\((.+)\)", expansion.strip())
    return inner.group(1) if inner else expansion


def _by_pattern(term_id: str, found: str) -> bool:
    """Whether `found` is one member of a notation family other than the entry's own name ("TPU v3-256" under the
    slice-name entry "TPU v4-8", an example the text never wrote)."""
    entry = glossary.load().by_id.get(term_id) or {}
    term = entry.get("term") or ""
    if not (re.search(r"\d", found) and re.search(r"\d", term)) or found.lower() in term.lower() or term.lower() in found.lower():
        return False  # a code family only; "H100 SXM" for "H100": the entry's name still says what the text wrote
    members = [re.compile(p["re"], re.I) for p in entry.get("patterns") or [] if p.get("re")]  # "V3-8" as "v3-8"
    return any(m.fullmatch(term) for m in members) and any(m.fullmatch(found) for m in members)


def _is_acronym(name: str) -> bool:
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) >= max(2, len(letters) - 1) and " " not in name


def _other_words(found: str, name: str) -> bool:
    """Whether the text named the idea in other words than the entry's name ("token overflow" for token dropping): at
    least two words, at most half of them in the name, and not the name with other spacing or a plural."""
    words = [w.rstrip("s") for w in re.split(r"[\s_/-]+", found.lower()) if w]
    named = {w.rstrip("s") for w in re.split(r"[\s_/()-]+", name.lower()) if w}
    joined, name_joined = "".join(words), "".join(re.split(r"[\s_/()-]+", name.lower())).rstrip("s")
    if len(words) < 2 or arabic.ARABIC_LETTER.search(found) or _is_acronym(name) or joined in name_joined \
            or name_joined in joined:
        return False
    return sum(w in named for w in words) * 2 <= len(words)


def _other_name(found: str, name: str) -> bool:
    """Whether the text wrote a proper name under the entry ("Lustre" for a shared file system): an Arabic heading then
    brackets that name, which the reader finds in the text, not an English common noun the text never wrote."""
    if not found or not found[0].isupper() or arabic.ARABIC_LETTER.search(found):
        return False
    joined, name_joined = re.sub(r"\W|_", "", found.lower()), re.sub(r"\W|_", "", name.lower())
    if joined.startswith(name_joined) or name_joined.startswith(joined):
        return False  # "AllReduce", "Finetuning", "Microbatches": the name itself, spaced or inflected otherwise
    named = {w.rstrip("s") for w in re.split(r"[\s_/()-]+", name.lower()) if w}
    return not any(w.rstrip("s") in named for w in re.split(r"[\s_/-]+", found.lower()) if w)


REPEAT_WORDS = 8  # a definition this long, already said word for word in the opening, is not said again


def not_said_in(section: str, gist: str) -> str:
    """The terms section without a term whose definition the opening already gives word for word (JUDGING.md:
    nothing said twice)."""
    kept = []
    for line in section.split("\n"):
        definition = line.split("): ", 1)[-1] if "): " in line else line.split("**: ", 1)[-1]
        core = definition.strip().rstrip(".")
        if len(core.split()) >= REPEAT_WORDS and core in gist:
            continue
        kept.append(line)
    return "\n".join(kept)


def code_name(word: str) -> bool:
    """A name written for a machine or a brand: a digit, an underscore or a capital after its first letter."""
    return any(c.isdigit() or c == "_" or c.isupper() for c in word[1:])


def without_lines_for(names: set[str], markdown: str) -> str:
    """The answer without the terms-section lines of these names (explained in another section: not said twice)."""
    heads = tuple(f"- **{name}**{after}" for name in names for after in (" (", ":"))
    if not heads:
        return markdown
    kept = "\n".join(line for line in markdown.split("\n") if not line.startswith(heads))
    return re.sub(r"(?m)^## [^\n]*\n\s*(?=^## |\Z)", "", kept)  # a section left with nothing under its heading goes
