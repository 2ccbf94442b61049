"""An invitation to work the numbers before a colon ("Do the math across 32 layers with two all-reduces each: you are
now spending 5-8 ms", "Here's the math that should haunt you: ..."): the result after the colon is the claim, the scope
before it its condition; "It adds that do the math ..." and "advises that here's the math" were no sentences (round 85)."""

import re

from service.explain import pattern_cache

_LEAD = pattern_cache.lazy(r"^(?:(?:so|now|then|and)\s+)?(?:(?:do|run|work\s+out|crunch)\s+(?:the\s+)?(?:math|maths|numbers|arithmetic)"
                           r"|here(?:'s|’s|\s+is)\s+the\s+(?:math|maths|numbers|arithmetic|calculation)(?:\s+that\s+[^:;.]{1,60}?)?(?=\s*:))"
                           r"(?:\s+(?P<scope>(?:across|for|on|over|with|at)\b[^:;.]{1,160}?))?\s*:\s*(?P<rest>\S.*)$", re.I | re.S)


def unwrap(clause: str) -> str:
    """The clause with its "do the math (across X):" lead turned into "across X, <result>"; other clauses unchanged."""
    found = _LEAD.match(clause.strip())
    if not found:
        return clause
    rest = found.group("rest")
    if not found.group("scope"):
        return rest[0].upper() + rest[1:]
    scope = found.group("scope").strip()
    kept = rest if re.match(r"[A-Z]{2}|I\b", rest) else rest[0].lower() + rest[1:]  # "NCCL ...", "I ...": their capital stays
    return f"{scope[0].upper()}{scope[1:]}, {kept}"
