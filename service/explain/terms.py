"""Stage 1: page clutter, the text's terms (its own definitions first), and the mistranslations it contains."""

import json
import re
from functools import cache

from calculators.resources import data_dir

from service.explain import glossary
from service.i18n import arabic


@cache
def cues() -> dict:
    """data/claim_cues.json, loaded once."""
    return json.loads((data_dir() / "claim_cues.json").read_text(encoding="utf-8"))


@cache
def _clutter_patterns() -> tuple[list[re.Pattern], list[tuple[str, re.Pattern]]]:
    data = cues()["clutter"]
    lines = [re.compile(p, re.I | re.M) for p in data["line_patterns"]]
    contexts = [(c["term"], re.compile(c["pattern"], re.I)) for c in data["term_contexts"]]
    return lines, contexts


@cache
def _definition_patterns() -> dict[str, list[re.Pattern]]:
    return {lang: [re.compile(p, re.I if lang == "en" else 0) for p in section["definitions"]]
            for lang, section in cues().items() if isinstance(section, dict) and "definitions" in section}


def clutter_spans(text: str) -> list[tuple[int, int]]:
    """The lines of `text` that are page furniture, as (start, end) offsets."""
    patterns, _ = _clutter_patterns()
    spans, offset = [], 0
    for line in text.splitlines(keepends=True):
        if line.strip() and any(p.search(line) for p in patterns):
            spans.append((offset, offset + len(line)))
        offset += len(line)
    return spans


def inside(spans: list[tuple[int, int]], start: int) -> bool:
    """Whether offset `start` falls inside one of `spans`."""
    return any(a <= start < b for a, b in spans)


def definitions(text: str) -> dict[str, str]:
    """What the text itself says its abbreviations mean ("here DP means FSDP"): {as written: meaning}."""
    found: dict[str, str] = {}
    for patterns in _definition_patterns().values():
        for pattern in patterns:
            for match in pattern.finditer(text):
                term, meaning = match.group("term").strip(), match.group("meaning").strip(" \"'“”")
                if term and meaning and term.lower() != meaning.lower():
                    found.setdefault(term, meaning)
    return found


def _wanted(match: glossary.Match, text: str, spans: list[tuple[int, int]]) -> bool:
    """A match that is neither clutter nor a clutter word in a context that makes it something else."""
    if inside(spans, match.start) or match.entry["id"] in cues()["clutter"]["terms"]:
        return False
    _, contexts = _clutter_patterns()
    window = text[max(0, match.start - 40):match.end + 40]
    return not any(term == match.entry["id"] and pattern.search(window) for term, pattern in contexts)


def read_terms(doc) -> None:
    """Fill doc.clutter, doc.matches (distinct), doc.occurrences (all), doc.definitions, doc.terms, doc.corrections."""
    text = doc.text
    doc.clutter = clutter_spans(text)
    doc.definitions = definitions(text)
    every = [m for m in glossary.load().find(text) if _wanted(m, text, doc.clutter)]
    doc.occurrences = every
    tokens = {tok for tok, _, _ in glossary._tokenised(text)[0]}
    first: dict[str, glossary.Match] = {}
    for match in every:  # glossary.detect's result, from the one scan
        if match.entry["id"] not in first:
            reading = glossary.choose_reading(match.entry, text, tokens)
            first[match.entry["id"]] = glossary.Match(match.entry, match.found_as, match.start, match.end, reading)
    doc.matches = list(first.values())
    doc.matches = _with_definitions(doc.matches, doc.definitions)
    doc.terms = [_described(m, doc.lang, doc.definitions) for m in doc.matches]
    doc.corrections = mistranslations(text, doc.matches, doc.lang)


_NOTATION = re.compile(r"^\|?([A-Za-z][A-Za-z-]{1,7}?)\|?\s*[=:]?\s*\d")


def add_notation_terms(doc) -> None:
    """Abbreviations written into figures ("FSDP8", "TP=8", "|TP|=2", "GBS=1024") are terms too."""
    known = {m.entry["id"] for m in doc.matches}
    added = []
    for fig in doc.figures:
        match = _NOTATION.match(fig.quote)
        if not match:
            continue
        entry = glossary.load().lookup(match.group(1))
        if entry is None or entry["id"] in known or entry["id"] in cues()["clutter"]["terms"]:
            continue
        known.add(entry["id"])
        start = fig.start + match.start(1)
        added.append(glossary.Match(entry, match.group(1), start, start + len(match.group(1))))
    if added:
        doc.matches = sorted(doc.matches + added, key=lambda m: m.start)
        doc.terms = [_described(m, doc.lang, doc.definitions) for m in doc.matches]


def _with_definitions(matches: list[glossary.Match], defined: dict[str, str]) -> list[glossary.Match]:
    """A term the text defines takes the glossary entry of the meaning it gives ("here DP means FSDP")."""
    if not defined:
        return matches
    out = []
    for match in matches:
        meaning = defined.get(match.found_as)
        entry = glossary.load().lookup(meaning) if meaning else None
        if entry is not None and entry["id"] != match.entry["id"]:
            match = glossary.Match(entry, match.found_as, match.start, match.end)
        out.append(match)
    return out


def _described(match: glossary.Match, lang: str, defined: dict[str, str]) -> dict:
    item = glossary.describe(match, lang)
    if match.found_as in defined:
        item["defined_in_text"] = defined[match.found_as]
        item.pop("ambiguous", None)  # the text settled it
        item.pop("readings", None)
    return item


def _normalise(text: str) -> str:
    words = []
    for word in text.lower().split():
        word = word.strip(".,;:()\"'«»“”،؛؟")
        words.append(arabic.normalise_token(word) if arabic.ARABIC_LETTER.search(word) else word)
    return " ".join(words)


def _fragments_present(phrase: str, normalised_text: str) -> bool:
    """All parts of `phrase` (split at '...') occur in the text, compared in normalised form."""
    parts = [p.strip() for p in phrase.replace("…", "...").split("...") if p.strip()]
    return bool(parts) and all(_normalise(p) in normalised_text for p in parts)


def mistranslations(text: str, matches: list[glossary.Match], lang: str) -> list[dict]:
    """Known mistranslations of the matched terms (and of any glossary term) that the text contains."""
    normalised = _normalise(text)
    found = []
    seen_ids = {m.entry["id"] for m in matches}
    candidates = [m.entry for m in matches] + [e for e in glossary.load().entries if e.get("mistranslations") and e["id"] not in seen_ids]
    seen_phrases: set[str] = set()
    for entry in candidates:
        for item in entry.get("mistranslations") or []:
            phrase = item.get("as") or item.get("en")
            if phrase in seen_phrases:
                continue  # one phrase garbling two terms (K2 and DSV3) is corrected once
            if not any(_fragments_present(p, normalised) for p in (item.get("as"), item.get("en")) if p):
                continue
            seen_phrases.add(phrase)
            correction = item.get("ar_correction") if lang == "ar" and item.get("ar_correction") else item.get("correction", "")
            found.append({
                "entry": entry, "as": phrase, "en": item.get("en") or phrase, "correction": correction,
                "warning": f"'{entry['term']}': the source's rendering “{phrase}” (“{item.get('en', '')}”) is wrong; {item.get('correction', '')}",
            })
    return found
