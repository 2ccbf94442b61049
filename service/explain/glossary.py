"""The glossary in data/glossary/, and detection of its terms in English and Arabic text: the alias index, its cache and
the matcher that walks it (boundaries, plurals, particles, notation patterns) share one tokenisation, kept together."""

import json
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import NamedTuple

from calculators.resources import data_dir  # noqa: F401  (re-exported for tests)

from service.explain import acronym_case, data_cache, parallel_sizes, pattern_cache, sibling_names, written_forms
from service.explain.readings import _is_case_sensitive, choose_reading, reading_scores, text_fields, with_field  # noqa: F401  (re-exported)
from service.i18n import arabic

# Words, numbers, Arabic words, single punctuation marks, and the count in "8xH200" (not "8x7B", not "16xlarge") are tokens.
_ARABIC_WORD = "\u0621-\u065F\u066E-\u06D3\u06D5-\u06FF\u0640"  # letters and marks, not Arabic punctuation (، ؛ ؟ ۔)
_TOKEN = pattern_cache.lazy(rf"(?<![A-Za-z0-9.])[1-9]\d{{0,3}}x(?=[A-Z][A-Za-z]*\d)|[A-Za-z0-9]+|[{_ARABIC_WORD}]+|[^\sA-Za-z0-9{_ARABIC_WORD}]")
_SKIPPED = {"-", "_", "\u2010", "\u2011", "\u2013", "ـ"}  # hyphens do not change a term: all-reduce == all reduce


class Match(NamedTuple):
    """One occurrence of a glossary term in a text (a NamedTuple, not a dataclass: nothing is built at import)."""

    entry: dict
    found_as: str
    start: int
    end: int
    reading: int = 0  # index into entry["readings"] chosen by context
    derived: bool = False  # found beyond the longest names (inside or across one, a notation pattern, a coordination)


# Words after a capitalised name that make it an organisation ("Epoch AI", "Mosaic Research"): not the common noun.
_ORGANISATION_WORDS = frozenset({"AI", "Labs", "Lab", "Research", "Inc", "Corp", "Foundation", "Institute", "Technologies"})


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text) if m.group() not in _SKIPPED]


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
        firsts = {head, folded, *written_forms.stems(head), *written_forms.stems(folded)}
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


_SHORT_STEM = 3  # an Arabic one-word alias left this short once its article is read off is a common word's stem


class Glossary:
    """Entries by id, and an n-gram index of every alias for fast, boundary-safe matching."""

    def __init__(self, entries: list[dict], version: str):
        self.entries = entries
        self.version = version
        self.by_id = {entry["id"]: entry for entry in entries}
        self._exact: dict[tuple, dict] = {}
        self._folded: dict[tuple, dict] = {}
        self._lengths: dict[str, set[int]] = {}  # first key token -> n-gram lengths that start with it
        self._salient: set[tuple] = set()  # folded one-word keys whose alias is a name ("DeepSeek"), not a common word
        # (sensitive, key) -> {"cues": one of which the text must contain, "not_after": words that must not precede it}
        self._conditions: dict[tuple, dict] = {}
        # (sensitive, key) -> [(entry, condition)]: another entry's sense of the same words, taken where its cues are
        # in the text ("تجميع التدرجات" beside an all-reduce is the gradients' reduction, not their accumulation).
        self._senses: dict[tuple, list] = {}
        closed: list[tuple[str, dict]] = []
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
            for name in filter(None, names):
                self._add(name, entry)
                closed += [(form, entry) for form in written_forms.closed_forms(name) + written_forms.participle_forms(name)]
            # Words that are this term only where the text is about it: "ranks" beside NCCL, "bubbles" beside PP.
            for group in entry.get("context_aliases") or []:
                condition = {"cues": group.get("cues") or [], "not_after": [w.lower() for w in group.get("not_after") or []], "after": group.get("after")}
                for name in group.get("aliases") or []:
                    self._add(name, entry, condition)
        for name, entry in closed:  # "multiquery" for "multi-query": after every name as written, never over one
            self._add(name, entry, only_new=True)

    def _add(self, alias: str, entry: dict, condition: dict | None = None, only_new: bool = False):
        sensitive = _is_case_sensitive(alias)
        key = tuple(_key_token(tok, not sensitive) for tok, _, _ in _tokens(alias))
        if len(key) == 1 and arabic.ARABIC_LETTER.match(alias) and len(key[0]) <= _SHORT_STEM < len(alias.strip()):
            return  # "فالكون" (Falcon) as ف + ال + "كون" would be found in every "لكون" (since)
        table = self._exact if sensitive else self._folded
        if not key or only_new and key in table:
            return
        if key in table:
            existing, held = table[key], self._conditions.get((sensitive, key))
            if existing is not entry and bool(condition) != bool(held):  # a contextual sense beside a plain one
                if condition:
                    self._senses.setdefault((sensitive, key), []).append((entry, condition))
                else:
                    self._senses.setdefault((sensitive, key), []).append((existing, held))
                    table[key] = entry
                    del self._conditions[(sensitive, key)]
            return
        table[key] = entry
        if condition:
            self._conditions[(sensitive, key)] = condition
        if not sensitive and len(key) == 1 and any(c.isupper() for c in alias):
            self._salient.add(key)
        self._lengths.setdefault(key[0], set()).add(len(key))

    def state(self) -> tuple:
        """The entries and the built index, for marshal (which keeps an entry that several keys share one dict)."""
        return (INDEX_FORMAT, self.entries, self.version, self._exact, self._folded, self._lengths, self._salient,
                self._conditions, self._senses)

    @classmethod
    def from_state(cls, state: tuple) -> "Glossary":
        """A glossary as state() described it, without rebuilding the index."""
        glossary = cls.__new__(cls)
        (_, glossary.entries, glossary.version, glossary._exact, glossary._folded, glossary._lengths,
         glossary._salient, glossary._conditions, glossary._senses) = state
        glossary.by_id = {entry["id"]: entry for entry in glossary.entries}
        return glossary

    def _lookup(self, exact: tuple, folded: tuple, text: str | None = None, before: str | None = None) -> dict | None:
        if self._senses:
            for sense in (*self._senses.get((True, exact), ()), *self._senses.get((False, folded), ())):
                if _met(sense[1], text, before):
                    return sense[0]
        entry = self._exact.get(exact)
        if entry is not None and (not self._conditions or _met(self._conditions.get((True, exact)), text, before)):
            return entry
        entry = self._folded.get(folded)
        if entry is not None and (not self._conditions or _met(self._conditions.get((False, folded)), text, before)):
            return entry
        return None

    def _salient_key(self, exact: tuple, folded: tuple) -> bool:
        """Whether the alias at this key names something (an acronym, a product, several words), not a common word."""
        return len(exact) > 1 or exact in self._exact or folded in self._salient

    def find(self, text: str, extended: bool = False) -> list[Match]:
        """Every glossary term in `text`, longest match first, no overlaps, in order of appearance.

        `extended` (the explainer's terms) also gives what a reader needs beyond the longest names: a term
        that overlaps the end of another ("peak memory bandwidth" -> "memory bandwidth"), a named term inside a
        longer one ("H800 GPU hours" -> "H800"), the first halves of coordinated terms ("tensor and pipeline
        parallelism" -> "tensor parallelism"), and the entries' notation `patterns` ("6 × 70B × 15T" -> 6ND).
        """
        tokens, exact_keys, folded_keys = _tokenised(text)
        heads, _ = _heads(text)
        lengths = self._lengths
        matches: list[Match] = []
        i = 0
        n = len(tokens)
        while i < n:
            # Most tokens start no alias: one set test each, before any n-gram is built.
            found = self._match_at(i, tokens, exact_keys, folded_keys, n, text) \
                if any(first in lengths for first in heads[i]) else None
            if found and (self._names_organisation(i, found[1], tokens, exact_keys, folded_keys)
                          or _version_of_another_name(text, i, found[1], tokens)
                          or written_forms.shouted_other_name(found[0], text, tokens[i][1], tokens[i + found[1] - 1][2])
                          or sibling_names.names_a_sibling(found[0], text, tokens[i][1], tokens[i + found[1] - 1][2])):
                i += found[1]  # "Epoch AI" is a research group, "FP8_MX V2" a recipe's version: better unglossed than wrong
                continue
            if found:
                entry, length = found
                last = tokens[i + length - 1]  # "NICi" names a NIC: the index after it is no part of the name
                start, end = tokens[i][1], last[2] - written_forms.index_letter(last[0])
                matches.append(Match(entry, text[start:end], start, end))
                matches += self._latin_inside_arabic(text, i, i + length, entry, tokens, exact_keys, folded_keys)
                if extended:
                    matches += self._inside(text, i, length, entry, tokens, exact_keys, folded_keys)
                    matches += self._coordinated(text, i, length, tokens, exact_keys, folded_keys)
                    overlap = self._overlapping(text, i, length, entry, tokens, exact_keys, folded_keys)
                    if overlap is not None:
                        j, (entry, length) = overlap
                        start, end = tokens[j][1], tokens[j + length - 1][2]
                        matches.append(Match(entry, text[start:end], start, end, derived=True))
                        matches += self._inside(text, j, length, entry, tokens, exact_keys, folded_keys)
                        i = j
                i += length
            else:
                i += 1
        if extended:
            matches = self._with_patterns(text, self._with_degrees(text, self._with_lowercase(text, tokens, matches)))
        return matches

    def _with_lowercase(self, text: str, tokens: list, matches: list[Match]) -> list[Match]:
        """Short acronyms written in lower case where the context marks them ("tp 2", "fsdp, dp and sp")."""
        evidence = any(m.entry.get("category") in acronym_case.FIELD for m in matches)
        extra = [Match(entry, text[a:b], a, b, derived=True) for entry, a, b in
                 acronym_case.find(text, tokens, self._lowercase(), [(m.start, m.end) for m in matches], evidence)]
        return sorted(matches + extra, key=lambda m: (m.start, -m.end)) if extra else matches

    def _names_organisation(self, i, length, tokens, exact_keys, folded_keys) -> bool:
        """A common-word term written capitalised and followed by an organisation word ("Epoch AI", "Scale Labs")."""
        stop = i + length
        if stop >= len(tokens) or tokens[stop][0] not in _ORGANISATION_WORDS or not tokens[i][0][:1].isupper():
            return False
        return not self._salient_key(tuple(exact_keys[i:stop]), tuple(folded_keys[i:stop]))

    def _with_degrees(self, text: str, matches: list[Match]) -> list[Match]:
        """Parallel degrees written into one word ("FSDP8", "TP8", "EP8TP1", "VPP2"): each abbreviation is a term."""
        taken = {m.start for m in matches}
        candidates = [(found.group(), found.start()) for found in _DEGREES.finditer(text) if found.start() not in taken]
        # "TP8 PP4" or a layout term nearby; "an MP3 player" alone is not a model-parallel degree.
        if not candidates or (sum(len(_DEGREE.findall(token)) for token, _ in candidates) < 2
                              and not any(m.entry.get("category") in ("parallelism", "hardware") for m in matches)):
            return matches
        extra = []
        for token, start in candidates:
            for part in _DEGREE.finditer(token):
                entry = self._exact.get((part.group(1),))
                if entry is not None and entry.get("category") == "parallelism" and not self._conditions.get((True, (part.group(1),))):
                    a, b = start + part.start(1), start + part.end(1)
                    extra.append(Match(entry, text[a:b], a, b, derived=True))
        return sorted(matches + extra, key=lambda m: (m.start, -m.end)) if extra else matches

    def _lowercase(self) -> dict[str, tuple[dict, str]]:
        if not hasattr(self, "_lowercase_table"):
            self._lowercase_table = acronym_case.table(self.entries)
        return self._lowercase_table

    def _overlapping(self, text, i, length, outer, tokens, exact_keys, folded_keys):
        """A longer-reaching term that starts inside the match at i ("peak memory bandwidth": "memory bandwidth")."""
        heads, _ = _heads(text)
        end = i + length
        longest = self._longest()
        for j in range(i + 1, end):
            # only where some name starting here is long enough to reach past this match
            if not any(longest.get(first, 0) > end - j for first in heads[j]):
                continue
            found = self._match_at(j, tokens, exact_keys, folded_keys, len(tokens), text)
            if found and j + found[1] > end and found[1] > 1 and found[0] is not outer:
                return j, found
        return None

    def _longest(self) -> dict[str, int]:
        if not hasattr(self, "_longest_by_first"):
            self._longest_by_first = {first: max(sizes) for first, sizes in self._lengths.items()}
        return self._longest_by_first

    def _inside(self, text, i, length, outer, tokens, exact_keys, folded_keys) -> list[Match]:
        """Named terms inside a longer one: "H800 GPU hours" also names the H800, "per-device batch size" a batch size;
        only whole words of a phrase ("ZeRO-1" and "DeepSeek-V3" are names, not "ZeRO" or "DeepSeek" plus a number)."""
        if length < 2 or not any(arabic.LATIN_LETTER.match(tok) for tok, _, _ in tokens[i:i + length]) or " per " in text[tokens[i][1]:tokens[i + length - 1][2]]:
            return []  # an Arabic phrase's words ("نقاط تفتيش التنشيط") are not terms of their own, nor a ratio's ("FLOPS per byte")
        heads, _ = _heads(text)
        inner: list[Match] = []
        j = i
        while j < i + length:
            found = None
            if (j == i or text[tokens[j][1] - 1].isspace()) and arabic.LATIN_LETTER.match(tokens[j][0]) \
                    and any(first in self._lengths for first in heads[j]):
                for size in range(i + length - j - (j == i), 0, -1):  # never the whole span again
                    exact, folded = tuple(exact_keys[j:j + size]), tuple(folded_keys[j:j + size])
                    entry = self._lookup(exact, folded, text)
                    stop = j + size
                    if stop < i + length and not text[tokens[stop - 1][2]:tokens[stop - 1][2] + 1].isspace():
                        continue
                    if entry is not None and entry is not outer and self._salient_key(exact, folded) \
                            and not (entry.get("category") == outer.get("category") == "hardware") and not (entry.get("category") in _PRODUCTS and text[tokens[j][1]].islower() and (entry.get("term") or "~") in (outer.get("definition") or "")):  # "TPU v4" needs no "TPU"; nor "megatron equation" the code base its definition names
                        found = entry, size
                        break
            if found:
                start, end = tokens[j][1], tokens[j + found[1] - 1][2]
                inner.append(Match(found[0], text[start:end], start, end, derived=True))
                j += found[1]
            else:
                j += 1
        return inner

    def _coordinated(self, text, i, length, tokens, exact_keys, folded_keys) -> list[Match]:
        """'tensor and pipeline parallelism', 'tensor, pipeline, and data parallelism': the earlier modifiers' terms."""
        if length < 2 or i < 2 or folded_keys[i - 1] == "," and list(folded_keys[i + length:i + length + 1]) in ([","], ["and"], ["or"]):
            return []  # "communication, memory bandwidth, and the optimizer step": a list's middle item shares no head
        tail_exact, tail_folded = tuple(exact_keys[i + 1:i + length]), tuple(folded_keys[i + 1:i + length])
        out: list[Match] = []
        j = i - 1
        while j >= 1 and folded_keys[j] in _CONNECTORS:
            k = j - 1
            if k >= 1 and folded_keys[k] in _CONNECTORS:  # ", and"
                k -= 1
            entry = self._lookup((exact_keys[k],) + tail_exact, (folded_keys[k],) + tail_folded, text)
            if entry is None or not arabic.LATIN_LETTER.match(tokens[k][0]):
                break
            start, end = tokens[k][1], tokens[k][2]  # named with the head it shares: "CPU" in "CPU and GPU memory" is CPU memory
            out.append(Match(entry, f"{text[start:end]} {text[tokens[i + 1][1]:tokens[i + length - 1][2]]}", start, end, derived=True))
            j = k - 1
        return out[::-1]

    def _with_patterns(self, text: str, matches: list[Match]) -> list[Match]:
        """The entries' notation patterns ("6 × N × D", "ZeRO stages 1 and 2", "petaFLOP/s"), where no term is already."""
        patterns = self._patterns()
        if not patterns:
            return matches
        extra: list[Match] = []
        lowered = _lowered(text)
        windows: dict[tuple[str, ...], list[tuple[int, int]]] = {}
        for entry, pattern, keys in patterns:
            if keys not in windows:
                windows[keys] = _windows(lowered, keys)
            for start, end in windows[keys]:  # a pattern runs only around its key words: dozens of full scans cost ms
                for found in pattern.finditer(text, start, end):
                    a, b = found.span()
                    if b > a and not any(m.entry is entry and m.start < b and a < m.end for m in matches + extra):
                        extra.append(Match(entry, text[a:b].strip(), a, b, derived=True))
        if not extra:
            return matches
        return sorted(matches + extra, key=lambda m: (m.start, -m.end))

    def _patterns(self) -> list[tuple[dict, re.Pattern, tuple[str, ...]]]:
        """Each entry's patterns: {"re": a regular expression, "if": lower-case strings one of which the text must hold}."""
        if not hasattr(self, "_compiled_patterns"):
            self._compiled_patterns = [
                (entry, pattern_cache.lazy(p["re"] if isinstance(p, dict) else p), tuple(k.lower() for k in (p.get("if") or []) if k) if isinstance(p, dict) else ())
                for entry in self.entries for p in entry.get("patterns") or []]
        return self._compiled_patterns

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
        before = folded_keys[i - 1] if i else None
        for length in sorted(lengths, reverse=True):
            if i + length > stop or length > 1 and re.search(r"[.!?؟]\s*\n", text[tokens[i][1]:tokens[i + length - 1][2]]):
                continue  # "DeepSeek-V3.\n2. ..." ends a sentence and opens a list item: no "DeepSeek-V3.2"
            exact = tuple(exact_keys[i:i + length])
            folded = tuple(folded_keys[i:i + length])
            entry = self._lookup(exact, folded, text, before)
            for stem in written_forms.stems(exact[-1]):  # plurals ("TPUs", "all-reduces"), "NICi", "vRAM"
                if entry is None:
                    entry = self._lookup(exact[:-1] + (stem,), folded[:-1] + (stem.lower(),), text, before)
            if entry is None and particle_free:
                entry = self._lookup((particle_free,) + exact[1:], (particle_free,) + folded[1:], text, before)
            if entry is not None:
                return entry, length
        return None

    def lookup(self, term: str) -> dict | None:
        """The entry a single term or alias names, or None."""
        matches = self.find(term)
        if matches and matches[0].found_as.strip() == term.strip():
            return matches[0].entry
        return self.by_id.get(term.strip().lower()) or (matches[0].entry if len(matches) == 1 else None) \
            or self._lowercase().get(term.strip().lower(), (None,))[0]  # "tp" asked alone is TP


_VERSION = pattern_cache.lazy(r"[VRK]\d+")
_CODE = pattern_cache.lazy(r"[A-Z][A-Z0-9]+")


def _version_of_another_name(text: str, i: int, length: int, tokens) -> bool:
    """A bare version label ("V2") right after another name in capitals ("FP8_MX V2") is that name's, not a model's."""
    if length != 1 or i == 0 or not _VERSION.fullmatch(tokens[i][0]):
        return False
    before, gap = tokens[i - 1], text[tokens[i - 1][2]:tokens[i][1]]
    return gap in (" ", "_") and bool(_CODE.fullmatch(before[0]))


_CONNECTORS, _PRODUCTS = {"and", "or", ",", "/", "&"}, ("framework", "software")  # _PRODUCTS: see _inside
_DEGREE = pattern_cache.lazy(r"([A-Z]{2,5}?)(\d+)")
_DEGREES = pattern_cache.lazy(r"(?<![A-Za-z0-9])(?:[A-Z]{2,5}?\d+)+(?![A-Za-z0-9])")


@lru_cache(maxsize=8)
def _lowered(text: str) -> str:
    return text.lower()


@lru_cache(maxsize=8)
def _token_set(text: str) -> frozenset[str]:
    return frozenset(form for tok, _, _ in _tokenised(text)[0] for form in (tok, *written_forms.stems(tok)))  # "NICi" cues NIC


_REACH = 120  # characters a notation pattern may span either side of its key word


def _windows(lowered: str, keys: tuple[str, ...]) -> list[tuple[int, int]]:
    """The stretches of the text around each occurrence of a key (merged), or the whole text when there are no keys."""
    if not keys:
        return [(0, len(lowered))]
    spots = []
    for key in keys:
        at = lowered.find(key)
        while at >= 0:
            spots.append(at)
            at = lowered.find(key, at + 1)
    windows: list[list[int]] = []
    for at in sorted(spots):
        a, b = max(0, at - _REACH), min(len(lowered), at + _REACH)
        if windows and a <= windows[-1][1]:
            windows[-1][1] = max(windows[-1][1], b)
        else:
            windows.append([a, b])
    return [(a, b) for a, b in windows]


def _met(condition: dict | None, text: str | None, before: str | None) -> bool:
    """No condition, or one of its cues occurs in `text` (a short capitalised cue as a whole token) and the word
    before is none of its `not_after` ("low-rank" is not a process rank), the word before matching its `after` where it has one."""
    if not condition:
        return True
    if text is None or (before is not None and before in condition["not_after"]) \
            or condition.get("after") and not re.fullmatch(condition["after"], before or ""):  # "250000 steps", "480B dense"
        return False
    tokens, lowered = _token_set(text), _lowered(text)
    return any((cue in tokens) if _is_case_sensitive(cue) else re.search(r"(?<![a-z0-9])" + re.escape(cue.lower()), lowered) is not None
               if cue.isascii() else cue in lowered for cue in condition["cues"])  # "fused" opens no word of "refused"


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
    files = sorted(path.glob("*.json"))
    sources = fallback = None
    if folder is None:  # the shipped glossary is kept built (data_cache); a folder given is a test's
        try:  # the languages too: their codes decide which columns are indexed
            sources = (tuple(_other_languages()), data_cache.stamp([*files, *(overlay for _, overlay in overlays), *MATCHER]))
        except OSError:
            pass  # a file vanished meanwhile: reading it below says which
    cache_name = f"glossary-{INDEX_FORMAT}"
    if sources is not None:
        fallback = home_cache()
        state = data_cache.read(cache_name, sources, fallback)
        if valid_state(state):
            return Glossary.from_state(state)
    import hashlib  # only to build: loading OpenSSL costs 3 ms

    entries: list[dict] = []
    seen: set[str] = set()
    digest = hashlib.sha256()
    for file in files:
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
    glossary = Glossary(entries, digest.hexdigest()[:16])
    if sources is not None:
        data_cache.write(cache_name, sources, glossary.state(), fallback)
    return glossary


INDEX_FORMAT = 8  # bump when Glossary.state() changes
# The code that makes the index's keys: an edit to it changes the stamp of every kept index, as a data edit does.
MATCHER = (Path(__file__), Path(arabic.__file__), Path(written_forms.__file__))


def valid_state(state) -> bool:
    """Whether `state` (data_cache.read's answer) is a Glossary.state() of this code's format."""
    return isinstance(state, tuple) and len(state) == 9 and state[0] == INDEX_FORMAT


def home_cache() -> Path | None:
    """The unjargon home's cache folder: where the built index goes when __pycache__ cannot take it."""
    from service import settings_holder  # filled by service.config; importing config here would close a cycle

    try:
        settings = settings_holder.current()
    except ValueError:  # a setting the environment gets wrong (config.SettingsError): no home to cache in
        return None
    return settings.home / "cache" if settings is not None else None


def detect(text: str, glossary: Glossary | None = None) -> list[Match]:
    """Distinct terms found in `text`, first occurrence each, with their context-chosen reading."""
    glossary = glossary or load()
    tokens = {tok for tok, _, _ in _tokens(text)}
    seen: dict[str, Match] = {}
    found = glossary.find(text, extended=True)
    fields = text_fields([m.entry for m in found])
    for match in found:
        if match.entry["id"] not in seen:
            reading = choose_reading(match.entry, text, tokens, fields)
            seen[match.entry["id"]] = Match(match.entry, match.found_as, match.start, match.end, reading)
    return list(seen.values())


def lookup(term: str, lang: str = "en") -> dict | None:
    """A glossary entry for a term, in the shape of an explanation's `terms` item (for tools and the API)."""
    entry = load().lookup(term)
    if entry is None:
        return None
    return describe(Match(entry, term, 0, len(term)), lang)


def _source(holder: dict) -> str | None:
    """The url (else title) of an entry's or a reading's own source."""
    source = holder.get("source") or {}
    return source.get("url") or source.get("title")


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
        "term": (reading or {}).get("term") or entry["term"],  # a reading may name its sense ("switch" for محول)
        "expansion": expansion or expansion_en,
        "expansion_en": expansion_en,
        "definition": parallel_sizes.definition(entry, match.found_as, definition, lang),  # "DP size": the number first
        "intuition": intuition,
        "category": entry.get("category"),
        "calculator": entry.get("calculator"),
        "found_as": match.found_as,
        # Another field's reading (TP as a true positive) is not what the entry's paper is about: its own source or none.
        "source": _source(reading if reading is not None and match.reading else entry),
    }
    facts = [fact.get(lang) or fact.get("en") for fact in entry.get("facts") or [] if not match.reading]  # the first sense's
    if facts:  # sourced figures, kept out of the prose so every number there comes from a calculator
        item["facts"] = [fact for fact in facts if fact]
    if reading is not None and len(entry.get("readings") or []) > 1:
        item["ambiguous"] = True
        item["readings"] = [r.get(f"{lang}_term") or r.get("expansion") for r in entry["readings"]]
    return item
