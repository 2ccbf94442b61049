"""The page language a browser asks for: its Accept-Language header matched against the registered languages.

The header is a list of language ranges with optional weights (RFC 9110 §12.5.4: "ar-EG, ar;q=0.9,
en;q=0.5"); each range, best weight first, is looked up by dropping subtags from the end until one is a
registered language (RFC 4647 §3.4 lookup: "ar-EG" finds "ar").
"""

import re

# One list member: a range ("ar-EG", "*") and its optional weight (0 to 1, three decimals at most).
_MEMBER = re.compile(r"^\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?))?\s*$")
_MAX_MEMBERS = 32  # a header longer than any browser sends is read no further


def preferred(header: str | None, codes) -> str | None:
    """The first of `codes` the header accepts, best weight first; None when it names none of them."""
    if not header:
        return None
    known = {code.casefold(): code for code in codes}
    ranges = []
    for position, member in enumerate(header.split(",")[:_MAX_MEMBERS]):
        found = _MEMBER.match(member)
        if not found or found[1] == "*":  # "*" says any language will do: that is no preference
            continue
        weight = float(found[2]) if found[2] else 1.0
        if weight > 0:  # q=0 means "not this one"
            ranges.append((-weight, position, found[1].casefold()))
    for _, _, language_range in sorted(ranges):
        subtags = language_range.split("-")
        while subtags:
            code = known.get("-".join(subtags))
            if code:
                return code
            subtags.pop()
    return None
