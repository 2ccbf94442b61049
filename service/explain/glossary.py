"""The glossary in data/glossary/, and detection of its terms in English and Arabic text."""

import hashlib
import json
import os
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from calculators.resources import data_dir  # noqa: F401  (re-exported for tests)

from service.i18n import arabic

# Words, numbers, Arabic words, and single punctuation marks are the tokens; spaces separate them.
_ARABIC_WORD = "\u0621-\u065F\u066E-\u06D3\u06D5-\u06FF\u0640"  # letters and marks, not Arabic punctuation (، ؛ ؟ ۔)
_TOKEN = re.compile(rf"[A-Za-z0-9]+|[{_ARABIC_WORD}]+|[^\sA-Za-z0-9{_ARABIC_WORD}]")
_SKIPPED = {"-", "_", "\u2010", "\u2011", "\u2013", "ـ"}  # hyphens do not change a term: all-reduce == all reduce


@dataclass(frozen=True)
class Match:
    """One occurrence of a glossary term in a text."""

    entry: dict
    found_as: str
    start: int
    end: int
    reading: int = 0  # index into entry["readings"] chosen by context


def _is_case_sensitive(alias: str) -> bool:
    """Short acronyms ('PP', 'MFU', 'K2') must match their case, so 'pp' or 'it' stay ordinary words."""
    letters = [c for c in alias if c.isalpha()]
    if len(alias) <= 4:
        return any(c.isupper() for c in letters)
    # A longer all-capitals acronym is still an acronym: "SHARP" the protocol is not "sharp" the adjective.
    return len(alias) <= 6 and " " not in alias and bool(letters) and all(c.isupper() for c in letters)


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text) if m.group() not in _SKIPPED]


def _singulars(token: str) -> tuple[str, ...]:
    """Singular candidates of an English plural token ('TPUs' -> 'TPU'; 'reduces' -> 'reduce', 'reduc')."""
    if len(token) > 2 and token[-1] in "sS" and token[-2] not in "sS":
        return (token[:-1], token[:-2]) if token[-2] in "eE" else (token[:-1],)
    return ()


@lru_cache(maxsize=8)  # the glossary and the catalogs scan the same text in turn
def _tokenised(text: str) -> tuple[list, list[str], list[str]]:
    tokens = _tokens(text)
    exact_keys = [_key_token(tok, False) for tok, _, _ in tokens]
    return tokens, exact_keys, [k.lower() for k in exact_keys]


@lru_cache(maxsize=8)
def _heads(text: str) -> tuple[list[frozenset], list[str | None]]:
    """Per token: every key an alias may start with there (plural stems, no particle), and the particle-free key."""
    _, exact_keys, folded_keys = _tokenised(text)
    heads, particle_free = [], []
    for head, folded in zip(exact_keys, folded_keys):
        firsts = {head, folded, *_singulars(head), *_singulars(folded)}
        free = arabic.without_particle(head) if arabic.ARABIC_LETTER.match(head) else None
        if free:
            free = arabic.normalise_token(free)
            firsts.add(free)
        heads.append(frozenset(firsts))
        particle_free.append(free)
    return heads, particle_free


def _key_token(token: str, lower: bool) -> str:
    if arabic.ARABIC_LETTER.match(token):
        return arabic.normalise_token(token)
    return token.lower() if lower else token


class Glossary:
    """Entries by id, and an n-gram index of every alias for fast, boundary-safe matching."""

    def __init__(self, entries: list[dict], version: str, index: dict | None = None):
        self.entries = entries
        self.version = version
        self.by_id = {entry["id"]: entry for entry in entries}
        self._exact: dict[tuple, dict] = {}
        self._folded: dict[tuple, dict] = {}
        self._lengths: dict[str, set[int]] = {}  # first key token -> n-gram lengths that start with it
        if index is not None:
            self._load_index(index)
            return
        for entry in entries:
            # A bare display term like "reduce" or "loss" is an ordinary word: the aliases decide what matches.
            term, expansion = entry["term"], entry.get("expansion") or ""
            names = [*entry.get("aliases", []), *entry.get("ar_aliases", [])]
            if _is_case_sensitive(term):
                names.append(term)
            if len(expansion.split()) >= 2 and "(" not in expansion:
                names.append(expansion)
            for code in _other_languages():  # each language's columns: {"term", ...} and <code>_aliases
                names.extend(entry.get(f"{code}_aliases") or [])
                if (entry.get(code) or {}).get("term"):
                    names.append(entry[code]["term"])
            for name in names:
                if name:
                    self._add(name, entry)

    def _add(self, alias: str, entry: dict):
        sensitive = _is_case_sensitive(alias)
        key = tuple(_key_token(tok, not sensitive) for tok, _, _ in _tokens(alias))
        if not key:
            return
        table = self._exact if sensitive else self._folded
        table.setdefault(key, entry)
        self._lengths.setdefault(key[0] if sensitive else key[0], set()).add(len(key))

    def index(self) -> dict:
        """The alias index as plain JSON, so a later process skips rebuilding it."""
        return {"format": INDEX_FORMAT, "version": self.version,
                "exact": [[list(k), e["id"]] for k, e in self._exact.items()],
                "folded": [[list(k), e["id"]] for k, e in self._folded.items()]}

    def _load_index(self, index: dict):
        for table, rows in ((self._exact, index["exact"]), (self._folded, index["folded"])):
            for key, entry_id in rows:
                key = tuple(key)
                table[key] = self.by_id[entry_id]
                self._lengths.setdefault(key[0], set()).add(len(key))

    def _lookup(self, exact: tuple, folded: tuple) -> dict | None:
        return self._exact.get(exact) or self._folded.get(folded)

    def find(self, text: str) -> list[Match]:
        """Every glossary term in `text`, longest match first, no overlaps, in order of appearance."""
        tokens, exact_keys, folded_keys = _tokenised(text)
        heads, _ = _heads(text)
        lengths = self._lengths
        matches: list[Match] = []
        i = 0
        while i < len(tokens):
            # Most tokens start no alias: one set test each, before any n-gram is built.
            found = self._match_at(i, tokens, exact_keys, folded_keys, len(tokens), text) \
                if any(first in lengths for first in heads[i]) else None
            if found:
                entry, length = found
                start, end = tokens[i][1], tokens[i + length - 1][2]
                matches.append(Match(entry, text[start:end], start, end))
                matches += self._latin_inside_arabic(text, i, i + length, entry, tokens, exact_keys, folded_keys)
                i += length
            else:
                i += 1
        return matches

    def _latin_inside_arabic(self, text, first, stop, outer, tokens, exact_keys, folded_keys) -> list[Match]:
        """Latin terms named inside an Arabic rendering ("استخدام نموذج FLOPs") are terms of their own."""
        words = [tok for tok, _, _ in tokens[first:stop]]
        if not any(arabic.ARABIC_LETTER.match(w) for w in words) or all(arabic.ARABIC_LETTER.match(w) for w in words):
            return []
        inner = []
        for j in range(first, stop):
            if arabic.ARABIC_LETTER.match(tokens[j][0]):
                continue
            found = self._match_at(j, tokens, exact_keys, folded_keys, stop, text)
            if found and found[0] is not outer:
                start, end = tokens[j][1], tokens[j + found[1] - 1][2]
                inner.append(Match(found[0], text[start:end], start, end))
        return inner

    def _match_at(self, i, tokens, exact_keys, folded_keys, stop, text):
        heads, particle_frees = _heads(text)
        firsts, particle_free = heads[i], particle_frees[i]
        lengths: set[int] = set()
        for first in firsts:
            lengths |= self._lengths.get(first, set())
        for length in sorted(lengths, reverse=True):
            if i + length > stop:
                continue
            exact = tuple(exact_keys[i:i + length])
            folded = tuple(folded_keys[i:i + length])
            entry = self._lookup(exact, folded)
            for stem in _singulars(exact[-1]):  # plurals: "TPUs", "all-reduces"
                if entry is None:
                    entry = self._lookup(exact[:-1] + (stem,), folded[:-1] + (stem.lower(),))
            if entry is None and particle_free:
                entry = self._lookup((particle_free,) + exact[1:], (particle_free,) + folded[1:])
            if entry is not None:
                return entry, length
        return None

    def lookup(self, term: str) -> dict | None:
        """The entry a single term or alias names, or None."""
        matches = self.find(term)
        if matches and matches[0].found_as.strip() == term.strip():
            return matches[0].entry
        return self.by_id.get(term.strip().lower()) or (matches[0].entry if len(matches) == 1 else None)


def _other_languages() -> list[str]:
    """Every registered language but the default, whose columns are the entries' main ones."""
    from service.i18n import languages

    return [code for code in languages.codes() if code != languages.DEFAULT]


def _overlays() -> tuple[tuple[str, Path], ...]:
    from service.i18n import languages

    return tuple((lang.code, lang.glossary_overlay) for lang in languages.registry().values() if lang.glossary_overlay)


def load(folder: str | None = None) -> Glossary:
    """All glossary files of `folder` (default data/glossary) merged, with the registered languages' columns."""
    return _load(folder, _overlays())


@cache
def _load(folder: str | None, overlays: tuple[tuple[str, Path], ...]) -> Glossary:
    """load(), once per folder and set of languages; later duplicates of an id are refused."""
    path = Path(folder) if folder else data_dir() / "glossary"
    entries: list[dict] = []
    seen: set[str] = set()
    digest = hashlib.sha256()
    for file in sorted(path.glob("*.json")):
        raw = file.read_bytes()
        digest.update(raw)
        for entry in json.loads(raw)["terms"]:
            if entry["id"] in seen:
                raise ValueError(f"glossary id {entry['id']!r} is defined twice ({file.name})")
            seen.add(entry["id"])
            entries.append(entry)
    by_id = {entry["id"]: entry for entry in entries}
    for code, overlay in overlays:  # an added language's columns, kept in its own file
        raw = overlay.read_bytes()
        digest.update(raw)
        for term_id, columns in json.loads(raw)["columns"].items():
            if term_id in by_id:
                by_id[term_id][code] = {k: v for k, v in columns.items() if k != "aliases"}
                by_id[term_id][f"{code}_aliases"] = columns.get("aliases") or []
    version = digest.hexdigest()[:16]
    cached = _read_index(version)
    if cached is not None:
        return Glossary(entries, version, cached)
    glossary = Glossary(entries, version)
    _write_index(glossary)
    return glossary


INDEX_FORMAT = 4  # bump when the matcher's keys change


def _index_path(version: str) -> Path:
    from service import config

    return config.current().home / "cache" / f"glossary-index-{INDEX_FORMAT}-{version}.json"


def _read_index(version: str) -> dict | None:
    """The alias index a previous run built for these exact glossary files, if any (a pure speed-up)."""
    try:
        index = json.loads(_index_path(version).read_bytes())
        return index if index.get("format") == INDEX_FORMAT and index.get("version") == version else None
    except (OSError, ValueError):
        return None


def _write_index(glossary: "Glossary") -> None:
    path = _index_path(glossary.version)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(glossary.index(), ensure_ascii=False), encoding="utf-8")
        os.replace(temporary, path)  # atomic: a concurrent reader sees the old file or the new one
    except OSError:
        pass  # a read-only home only costs the rebuild next time


def choose_reading(entry: dict, text: str, tokens: set[str]) -> int:
    """The reading of an ambiguous term whose cues occur most in the text (the first on a tie)."""
    readings = entry.get("readings") or []
    if len(readings) < 2:
        return 0
    lowered = text.lower()
    best, best_score = 0, 0
    for index, reading in enumerate(readings):
        score = 0
        for cue in reading.get("cues", []):
            score += (cue in tokens) if _is_case_sensitive(cue) else lowered.count(cue.lower())
        if score > best_score:
            best, best_score = index, score
    return best


def detect(text: str, glossary: Glossary | None = None) -> list[Match]:
    """Distinct terms found in `text`, first occurrence each, with their context-chosen reading."""
    glossary = glossary or load()
    tokens = {tok for tok, _, _ in _tokens(text)}
    seen: dict[str, Match] = {}
    for match in glossary.find(text):
        if match.entry["id"] not in seen:
            reading = choose_reading(match.entry, text, tokens)
            seen[match.entry["id"]] = Match(match.entry, match.found_as, match.start, match.end, reading)
    return list(seen.values())


def lookup(term: str, lang: str = "en") -> dict | None:
    """A glossary entry for a term, in the shape of an explanation's `terms` item (for tools and the API)."""
    entry = load().lookup(term)
    if entry is None:
        return None
    return describe(Match(entry, term, 0, len(term)), lang)


def describe(match: Match, lang: str) -> dict:
    """An explanation `terms` item for a match, in `lang`."""
    entry = match.entry
    reading = (entry.get("readings") or [None])[match.reading] if entry.get("readings") else None
    expansion_en = (reading or {}).get("expansion") or entry.get("expansion") or entry["term"]
    definition = (reading or {}).get("definition") or entry.get("definition", "")
    intuition = entry.get("intuition") if not reading or match.reading == 0 else None
    expansion = expansion_en
    columns = entry.get(lang) if lang and lang != "en" else None
    if columns is not None:  # the language's own columns; a missing one falls back to English
        expansion = (reading or {}).get(f"{lang}_term") if reading and match.reading else columns.get("term") or expansion_en
        definition = ((reading or {}).get(f"{lang}_definition") if reading and match.reading else columns.get("definition")) or definition
        intuition = (columns.get("intuition") or intuition) if not reading or match.reading == 0 else None
    item = {
        "id": entry["id"],
        "term": entry["term"],
        "expansion": expansion or expansion_en,
        "expansion_en": expansion_en,
        "definition": definition,
        "intuition": intuition,
        "category": entry.get("category"),
        "calculator": entry.get("calculator"),
        "found_as": match.found_as,
        "source": (entry.get("source") or {}).get("url") or (entry.get("source") or {}).get("title"),
    }
    facts = [fact.get(lang) or fact.get("en") for fact in entry.get("facts") or []]
    if facts:  # sourced figures, kept out of the prose so every number there comes from a calculator
        item["facts"] = [fact for fact in facts if fact]
    if reading is not None and len(entry.get("readings") or []) > 1:
        item["ambiguous"] = True
        item["readings"] = [r.get(f"{lang}_term") or r.get("expansion") for r in entry["readings"]]
    return item
