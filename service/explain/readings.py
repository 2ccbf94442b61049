"""Which reading of an ambiguous term a text means: each reading's cue words counted around it."""

import re

from service.explain import acronym_case, pattern_cache
from service.explain.process_cache import CACHE

_PRODUCT_CODE = pattern_cache.lazy(r"^[A-Za-z][A-Za-z-]*\d[A-Za-z0-9-]*$")  # letters, then a digit: a chip, format or model code


def _is_case_sensitive(alias: str) -> bool:
    """Short acronyms ('PP', 'MFU', 'K2') must match their case, so 'pp' or 'it' stay ordinary words."""
    letters = [c for c in alias if c.isalpha()]
    if len(alias) >= 3 and _PRODUCT_CODE.match(alias):
        return False  # a model number ("H100", "GB300", "BF16") is the same product written "h100" in a chat
    if len(alias) <= 4:
        return any(c.isupper() for c in letters)
    # A longer all-capitals acronym is still an acronym: "SHARP" the protocol is not "sharp" the adjective.
    return len(alias) <= 6 and " " not in alias and bool(letters) and all(c.isupper() for c in letters)


def reading_scores(entry: dict, text: str, tokens: set[str]) -> list[int]:
    """How often each reading's cues occur in `text` (a short capitalised cue counts as a whole token)."""
    lowered = text.lower()
    return [len(set().union(*[{cue} if sensitive and cue in tokens else set() if sensitive else _starts_words(cue).starts(lowered)
                              for cue, sensitive in cues]))
            for cues in _reading_cues(entry["id"], entry)]


class _WordStart:
    """Occurrences of a cue at the start of a word ("edge" in "edges", never inside "HedgeDoc")."""

    def __init__(self, cue: str):
        # a Latin cue starts a word; an Arabic one may follow an attached particle ("والخبراء")
        # and ends one, or goes on only by an inflection ("saved", "projects"): "bet" is no cue in "between" (round 37:
        # "Moonshot AI" read as a long-shot project in a text on links between chips)
        # A longer cue may be a stem on purpose ("recomput", "rematerializ"); a short word is one only as itself.
        end = r"(?![a-z0-9])|(?=(?:s|es|d|ed|ing|er|ers)(?![a-z0-9]))" if len(cue) <= 4 and cue.isascii() and cue.isalpha() else ""
        self.pattern = pattern_cache.lazy((r"(?<![a-z0-9])" if cue[:1].isascii() else "") + re.escape(cue) + (f"(?:{end})" if end else ""))

    def count(self, text: str) -> int:
        return sum(1 for _ in self.pattern.finditer(text))

    def starts(self, text: str) -> set[int]:
        """Where the cue occurs: "save" and "saved" at one place are one cue, not two."""
        return {m.start() for m in self.pattern.finditer(text)}


def _starts_words(cue: str) -> _WordStart:
    return CACHE.get("cue_word_start", cue, lambda: _WordStart(cue))


def _reading_cues(entry_id: str, entry: dict) -> list[list[tuple[str, bool]]]:
    """Per reading, its cues as (cue, whole-token?) with the others lower-cased: classified once per entry."""
    return CACHE.get("reading_cues", entry_id, lambda: [
        [(c, True) if _is_case_sensitive(c) else (c.lower(), False) for c in r.get("cues", [])]
        for r in entry.get("readings") or []])


def choose_reading(entry: dict, text: str, tokens: set[str], fields: frozenset[str] = frozenset()) -> int:
    """The reading of an ambiguous term whose cues occur most in the text (the first on a tie); in a text about one of
    `fields`, that field's readings win unless another's cues clearly outnumber theirs."""
    readings = entry.get("readings") or []
    if len(readings) < 2:
        return 0
    best, best_score = 0, 0
    for index, score in enumerate(with_field(entry, reading_scores(entry, text, tokens), fields)):
        if score > best_score:
            best, best_score = index, score
    return best


def with_field(entry: dict, scores: list[int], fields: frozenset[str]) -> list[int]:
    """The scores with a bonus for each reading of a field the text is about (TP as tensor parallelism among TP, PP, DP)."""
    if not fields:
        return scores
    bonus = acronym_case.contexts()["parallel_training_text"]["bonus"]
    return [score + bonus * (reading.get("field") in fields) for score, reading in zip(scores, entry.get("readings") or [])]


def text_fields(entries: list[dict]) -> frozenset[str]:
    """The fields a text is about, from the distinct entries found in it: "parallelism" where it names several
    parallelism terms, or one beside MoE, collective, interconnect, framework or hardware terms."""
    rule = acronym_case.contexts()["parallel_training_text"]
    ids = {entry["id"]: entry.get("category") for entry in entries}
    parallel = sum(category == "parallelism" for category in ids.values())
    cues = sum(category in rule["cue_categories"] for category in ids.values())
    if parallel >= rule["parallelism_terms"] or (parallel and cues >= rule["cue_terms"]):
        return frozenset({"parallelism"})
    return frozenset()
