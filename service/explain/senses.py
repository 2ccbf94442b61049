"""A reading fixed by the words right beside one occurrence: the word a term follows ("DRAM chips" are memory dies,
not processors) or what comes right after it ("a per-device batch of 4K tokens" counts tokens, not samples).

Cue counting (readings.py) weighs a whole window; a compound or a unit written against the term settles its sense
before that, and is never outvoted by the topic of the surrounding sentences ("HBM per chip" in a TPU passage).
"""

import re

from service.explain import pattern_cache

_WORD_BEFORE = pattern_cache.lazy(r"([A-Za-z0-9\u0600-\u06FF]+)[\s\-]*$")
_AFTER_WINDOW = 48  # characters after an occurrence that a `followed_by` pattern may look at


def word_before(text: str, start: int) -> str:
    """The word written just before offset `start` (hyphens and spaces between them skipped), lower-cased."""
    found = _WORD_BEFORE.search(text[max(0, start - 40):start])
    return found.group(1).lower() if found else ""


def by_neighbours(entry: dict, text: str, start: int, end: int) -> int | None:
    """The index of the reading that the words against this occurrence select, or None where they select none.

    A reading may declare `after_words` (lower-case words one of which is written right before the term),
    `preceded_by` (a regular expression the text right before the term must end with: "100B model params" are weights),
    `followed_by` (a regular expression the text right after the term must match) and `written_as` (a regular
    expression the occurrence itself must match for the others to count: Arabic "محول" before "NVLink Switch" is a
    switch, the English "transformer" never; alone, it selects the reading by the written form); `not_followed_by`
    (a regular expression that, matching right after the term, rules the reading out); `text_has` (with `written_as`: a
    regular expression that, found anywhere in the text, selects the reading)."""
    before = word_before(text, start)
    after = text[end:end + _AFTER_WINDOW]
    ahead = text[max(0, start - _AFTER_WINDOW):start]
    lead = text[start:end].rsplit(None, 1)[0] + " " if len(text[start:end].split()) > 1 else ""  # the words before its last
    for index, reading in enumerate(entry.get("readings") or []):
        written = reading.get("written_as")
        if written and not pattern_cache.lazy(written).fullmatch(text[start:end]):
            continue
        if reading.get("not_followed_by") and pattern_cache.lazy(reading["not_followed_by"]).match(after):
            continue  # "TP8/PP4": a degree follows, so the "/" before is a list's, not a formula's
        if written and reading.get("text_has") and pattern_cache.lazy(reading["text_has"]).search(text):
            return index  # "full precision" in a text on mixed-precision training is fp32, wherever in it (round 97 P05)
        if written and not any(reading.get(k) for k in ("after_words", "preceded_by", "followed_by")):
            return index  # "GGML" written as such is the library and the format, never the llama.cpp it is an alias of
        if before and before in (reading.get("after_words") or ()):
            return index
        pattern = reading.get("preceded_by")
        if pattern and any(pattern_cache.lazy(rf"(?:{pattern})\s*$", re.I).search(before_head) for before_head in (ahead, ahead + lead)):
            return index  # "a 7B parameter model": the count is inside the occurrence, before its head word
        pattern = reading.get("followed_by")
        if pattern and pattern_cache.lazy(pattern, re.I).match(after):
            return index
    return _by_head_noun(entry.get("readings") or [], after)


_HEAD = pattern_cache.lazy(r"[ \t-]?([A-Za-z]{3,})\b")


def _by_head_noun(readings: list[dict], after: str) -> int | None:
    """The one reading whose cue is the word written right after the name, as its head noun ("Gemini Plugin" is the
    plugin, "Gemini models" the models): a compound is settled by its own head, not by the topic around it."""
    head = _HEAD.match(after)
    if not head or len(readings) < 2:
        return None
    word = head.group(1).lower()
    forms = {word, word[:-1]} if word.endswith("s") else {word, word + "s"}
    hits = [i for i, r in enumerate(readings) if forms & {c.lower() for c in r.get("cues") or () if isinstance(c, str)}]
    return hits[0] if len(hits) == 1 else None


def _is_identifier(name: str) -> bool:
    """A name written as code ("NCCL_CROSS_NIC", "per_device_batch_size"): words joined by underscores, no space."""
    return "_" in name and not any(c.isspace() for c in name)


def without_parts_of_identifiers(matches: list) -> list:
    """The matches less those lying inside an identifier another match names whole: "NIC" inside NCCL_CROSS_NIC is a
    part of a variable's name, not a network card the text talks about."""
    whole = [(m.start, m.end) for m in matches if _is_identifier(m.found_as)]
    if not whole:
        return matches
    return [m for m in matches if not any(a <= m.start and m.end <= b and (a, b) != (m.start, m.end) for a, b in whole)]


# A command-line flag as written ("--recompute-method", "--tp-comm-overlap=true"): its words name the flag, not terms.
_FLAG = pattern_cache.lazy(r"(?<![\w-])--[A-Za-z][\w-]*")


def without_parts_of_flags(matches: list, text: str) -> list:
    """The matches less a word that opens or sits inside a flag's name without reaching its end: "recompute" in
    "--recompute-method" is part of a flag (which the option tables or the config reader explain), while a glossary
    name that ends the flag ("recompute-granularity" in "--recompute-granularity") still names it."""
    flags = [(m.start(), m.end()) for m in _FLAG.finditer(text)]
    if not flags:
        return matches
    return [m for m in matches if not any(a < m.start and m.end < b for a, b in flags)]

# A snake_case name ("amax_history_len", "mesh_dim_names"): a glossary name that the name goes on after names a
# setting the option tables explain, not the concept ("amax history" is not what amax_history_len is). A name that
# ends it ("dcn_pipeline_parallelism"), is followed only by its degree ("pipeline_parallel_size"), or is one word
# ("tp" in tp_rank) still names the concept.
_SNAKE_TAIL = pattern_cache.lazy(r"_(?!(?:size|degree|parallelism|parallel_size|model_parallel_size)\b)[A-Za-z0-9]")


def without_parts_of_snake_names(matches: list, text: str) -> list:
    """The matches less those that a snake_case name goes on after ("amax_history" in amax_history_len)."""
    return [m for m in matches if not (re.search(r"[_\s]", text[m.start:m.end]) and text[m.end - 1].isalnum()
                                       and _SNAKE_TAIL.match(text, m.end))  # one word ("tp" in tp_rank) still names TP
            and not (not re.search(r"[_\s]", m.found_as) and m.entry.get("category") not in _SAID_IN_NAMES
                     and _SNAKE_HEAD.search(text, max(0, m.start - 60), m.start))]


# the last word of a long snake_case name ("num_distributed_optimizer_instances"): what the name counts or sets, of
# the thing its first words name, not the glossary's everyday sense of that word (a cloud instance)
_SAID_IN_NAMES = frozenset({"precision", "parallelism", "collective"})  # "grad_reduce_in_fp32" does reduce in fp32
_SNAKE_HEAD = pattern_cache.lazy(r"(?<![\w.-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+_$")


# A network term written as an everyday word ("bidirectional", "ثنائي الاتجاه") is that term only in a text that speaks
# of machines: another network, hardware or collective term beside it. A translator "between Arabic and English in both
# directions" has no link bandwidth.
_LONE_SENSE_CATEGORIES = frozenset({"interconnect"})
_FIELD_CATEGORIES = frozenset({"interconnect", "hardware", "collective", "communication", "memory", "parallelism"})
_COMMUNICATION_LIBRARIES = frozenset({"nccl", "rccl", "hccl", "nccl-tests", "ucx", "libfabric"})  # filed as software
_PLAIN_WORD = pattern_cache.lazy(r"[a-z\u0600-\u06FF ]+")  # words of prose, not a command ("topo -m")


def without_lone_field_words(matches: list, occurrences: list) -> tuple[list, list]:
    """The matches less a network term written in everyday words, read in its network sense (its first reading),
    where nothing else in the text is about machines; another reading the context chose (a schedule's) stays."""
    def lone(m) -> bool:
        return m.entry.get("category") in _LONE_SENSE_CATEGORIES and not m.reading and bool(_PLAIN_WORD.fullmatch(m.found_as)) \
            and not any(o.entry is not m.entry and (o.entry.get("category") in _FIELD_CATEGORIES
                                                    or o.entry["id"] in _COMMUNICATION_LIBRARIES) for o in matches)
    dropped = {id(m.entry) for m in matches if lone(m)}
    if not dropped:
        return matches, occurrences
    return [m for m in matches if id(m.entry) not in dropped], [o for o in occurrences if id(o.entry) not in dropped]


def without_senses_said_by_another(matches: list, occurrences: list) -> tuple[list, list]:
    """The matches less those read in a sense that another entry found in the text names (a reading's `same_as`):
    "checkpoint" read as activation checkpointing beside "activation checkpointing" is said once, by that entry."""
    present = {m.entry["id"] for m in matches}

    def said(m) -> bool:
        readings = m.entry.get("readings") or []
        return bool(readings) and m.reading < len(readings) and readings[m.reading].get("same_as") in present
    if not any(said(m) for m in matches):
        return matches, occurrences
    return [m for m in matches if not said(m)], [o for o in occurrences if not said(o)]
