"""How a listed term is named in the terms section: as the text wrote it, its expansion said once, never an
abbreviation the text did not use."""

import re

from service.explain import glossary
from service.i18n import arabic


def display(term: dict, lang: str) -> tuple[str, str]:
    """The name to show in bold and its expansion, without repeating one inside the other."""
    name, expansion = term["term"], term["expansion"] or ""
    if term.get("category") == "option":  # a flag keeps its own spelling; what it belongs to is the expansion
        return name, expansion
    found = term.get("found_as") or ""
    if _spelled_out(found, name, lang):  # the text wrote the words ("microbatch size"), not the abbreviation: no MBS added
        if lang == "ar" and expansion and arabic.ARABIC_LETTER.search(expansion):
            return re.sub(r"\s*\([^)]*\)", "", expansion).strip() or expansion, ""
        return found, ""
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
        name, expansion = expansion, (found if _other_words(found, term["term"]) else term["term"])
    if expansion.lower().startswith(name.lower() + " (") and expansion.endswith(")"):
        expansion = expansion[len(name) + 2:-1]
    expansion = re.sub(rf"\s*\({re.escape(name)}\)$", "", expansion)  # "وحدة معالجة الموترات (TPU)" beside **TPU**
    if expansion and expansion.lower() in name.lower():  # "**Kimi K2 (نموذج Moonshot AI)** (K2)": said once
        expansion = ""
    return name, expansion


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
    members = [re.compile(p["re"]) for p in entry.get("patterns") or [] if p.get("re")]
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
