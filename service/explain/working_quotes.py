"""A calculation's working in the text's own words: an input read from the text shows as written ("47 days", not 4.061e6)."""

import re

from service.explain import restate

# "330GB", "~4.5 TB/s", "47 days" in Latin letters: a number with its unit reads the same in an Arabic answer
_NUMBER_WITH_UNIT = re.compile(r"[~≈]?\s*\d[\d.,]*\s*(?:[A-Za-z]{1,3}(?:/[A-Za-z]{1,3})?|%)?")


def with_quotes(run: dict, lang: str) -> list:
    """The run's working steps, each unitless input the text gave replaced by its quote in the answer's language."""
    quotes = {name: source["quote"] for name, source in (run.get("input_sources") or {}).items()
              if source.get("source") == "text" and source.get("quote")
              and (restate.same_language(source["quote"], lang) or _NUMBER_WITH_UNIT.fullmatch(source["quote"].strip()))}
    if not quotes:
        return run["working"]
    return [_quoted(item, quotes) for item in run["working"]]


def _quoted(item, quotes: dict):
    if not isinstance(item, dict) or "values" not in item:
        return item
    values = {}
    for name, value in item["values"].items():
        # only a bare number ("" unit) is replaced: a value with a unit was converted, and the working shows that unit
        bare = isinstance(value, (tuple, list)) and len(value) == 2 and value[1] == ""
        values[name] = quotes[name].strip() if bare and name in quotes else value
    return {**item, "values": values}
