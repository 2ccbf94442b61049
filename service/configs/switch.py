"""An option's line says what its value does (a switch set to false is off, not what it does when on), and a note
shared by several options is said once."""

import re

from service.configs import options
from service.i18n.messages import join_names, messages

_FALSE = frozenset({"false", "0", "off"})


def is_off(value) -> bool:
    """A written value that switches an option off (false, "False", "off")."""
    return value is False or (isinstance(value, str) and value.strip().strip("'\"").lower() in _FALSE)


def meaning_for_value(framework: str, name: str, value, meaning: str, lang: str) -> str:
    """`meaning` (what the option does when on) as the line for `value`: "Off in this run. When on: ..." for false; a
    value the table's choices lack ("--optimizer muon" beside "adam (AdamW) or sgd") is said with them, never under a
    list that leaves it out (round 86 P06, P03)."""
    entry = options.entry(framework, name) or {}
    choices = [str(c) for c in entry.get("choices") or ()]
    written = str(value).strip().strip("'\"`") if value is not None else ""
    if meaning and choices and written and not re.fullmatch(r"[-+\d.eE]+", written) \
            and written.lower() not in {c.lower() for c in choices}:
        label = meaning.split(":", 1)[0].strip() if ":" in meaning[:60] else meaning.rstrip(".")
        return messages(lang)["config"]["option_beyond_choices"].format(label=label, value=written, choices=join_names(choices, lang))
    if entry.get("type") != "bool" or not meaning or not is_off(value):
        return meaning
    return messages(lang)["config"]["option_off"].format(meaning=meaning)


_SENTENCE_END = re.compile(r"(?<=[.!?؟])\s+")
REPEATED_MIN_WORDS = 6  # a shorter sentence ("On by default.") may stand under several options


def unrepeated(meaning: str, said: set[str]) -> str:
    """`meaning` without the sentences an earlier option's line already said (recorded in `said`); the first stays."""
    sentences = [s for s in _SENTENCE_END.split(meaning.strip()) if s]
    kept = [s for n, s in enumerate(sentences) if n == 0 or len(s.split()) < REPEATED_MIN_WORDS or s not in said]
    said.update(s for s in sentences if len(s.split()) >= REPEATED_MIN_WORDS)
    return " ".join(kept)
