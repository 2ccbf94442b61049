"""A pull request's description of its own changes ("Refactor kernels so ...", a changelog of orders): what the change
does, said in the third person, never advice to the reader."""

import re

from service.explain import pattern_cache

# A change a pull request makes, said as an order ("Refactor kernels so ...", "Add option to ..."): not advice to the reader.
_CHANGE_IMPERATIVE = pattern_cache.lazy(r"^(?P<verb>refactor|fix|implement|introduce|rename|port|bump|deprecate|migrate|expose|"
                                        r"add(?=\s+(?:an?\s+|the\s+|new\s+)?(?:option|support|flag|argument|feature|test|kernel|check|"
                                        r"api|config|parameter|benchmark|script)s?\b)|(?:allow|enable|disable|remove|skip|support)(?=\s+(?:`|--|[\w.]*_\w)))\b", re.I)
# A text that describes a change: a changelog heading, a pull request template's "Test Plan:" (round 95 P20), or "this PR"; its orders ("Tune X", "Refresh Y") are the change's
_CHANGE_LOG = pattern_cache.lazy(r"^\s*(?:change ?log|changes|what does this pr do\??|summary of changes|test plan)\s*:?\s*$|\bthis (?:PR|pull request)\b"
                                 # "This ports ... from #2943", "Related to #2919": a pull request's own description
                                 r"|^\s*this (?:ports|adds|fixes|changes|introduces|enables|implements|removes|moves|refactors)\b"
                                 r"|\b(?:related to|fixes|closes|resolves|follow-?up (?:to|of|on)) #\d+", re.I | re.M)
MODAL = re.compile(r"\b(?:would|will|could|can|might|may)\b")
_FIRST_WORD = re.compile(r"(?P<verb>[A-Za-z]+)")


def as_change(clause: str, context: str, imperative: bool) -> str | None:
    """"tunes the canonical recipe ..." for "Tune the canonical recipe ...": the order's verb in the third person and the
    rest of the clause, where the order names a change (a known verb, or any order in a text that lists its changes)."""
    found = _CHANGE_IMPERATIVE.match(clause) or (_FIRST_WORD.match(clause) if imperative and _CHANGE_LOG.search(context) else None)
    if found is None or MODAL.search(clause):  # "Use --bind_cores_to_rank ... would help": the order is a subject, no change
        return None
    verb = found.group("verb").lower()
    does = verb[:-1] + "ies" if re.search(r"[^aeiou]y$", verb) else verb + ("es" if verb.endswith(("s", "sh", "ch", "x", "z")) else "s")
    return does + clause[found.end("verb"):]
