"""A calculation's working in the text's own words: an input read from the text shows as written ("47 days", not 4.061e6)."""

import re

from service.explain import restate

# "330GB", "~4.5 TB/s", "47 days" in Latin letters: a number with its unit reads the same in an Arabic answer
_NUMBER_WITH_UNIT = re.compile(r"[~≈]?\s*\d[\d.,]*\s*(?:[A-Za-z]{1,3}(?:/[A-Za-z]{1,4})?|%)?")
_BARE = re.compile(r"[~≈]?\s*(?P<n>\d[\d,]*(?:\.\d+)?)\s*")
_WITH_UNIT = re.compile(r"[~≈]?\s*(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>[A-Za-z]{1,3}(?:/[A-Za-z]{1,4})?)\s*")


def with_quotes(run: dict, lang: str) -> list:
    """The run's working steps, each unitless input the text gave replaced by its quote in the answer's language."""
    quotes = {name: source["quote"] for name, source in (run.get("input_sources") or {}).items()
              if source.get("source") == "text" and source.get("quote")
              and (restate.same_language(source["quote"], lang) or _NUMBER_WITH_UNIT.fullmatch(source["quote"].strip()))}
    if not quotes:
        return run["working"]
    quotes = _with_shared_unit(quotes, run.get("inputs") or {})
    return [_quoted(item, quotes) for item in run["working"]]


def _with_shared_unit(quotes: dict, inputs: dict) -> dict:
    """"from 875 to 715 ms/step": the bare "875" takes the unit written after its partner, where the partner's scale
    (0.715 s for 715) gives the bare number's own value (0.875 s), so the working never sets 875 against 715 ms."""
    out = dict(quotes)
    for name, quote in quotes.items():
        bare = _BARE.fullmatch(quote)
        if bare is None or not isinstance(inputs.get(name), (int, float)):
            continue
        for other, written in quotes.items():
            unit = _WITH_UNIT.fullmatch(written)
            if other == name or unit is None or not isinstance(inputs.get(other), (int, float)) or not float(unit.group("n").replace(",", "")):
                continue
            scale = inputs[other] / float(unit.group("n").replace(",", ""))
            if abs(float(bare.group("n").replace(",", "")) * scale - inputs[name]) <= 1e-9 * max(1.0, abs(inputs[name])):
                out[name] = f"{quote.strip()} {unit.group('unit')}"
                break
    return out


def _quoted(item, quotes: dict):
    if not isinstance(item, dict) or "values" not in item:
        return item
    values = {}
    for name, value in item["values"].items():
        # only a bare number ("" unit) is replaced: a value with a unit was converted, and the working shows that unit
        bare = isinstance(value, (tuple, list)) and len(value) == 2 and value[1] == ""
        values[name] = quotes[name].strip() if bare and name in quotes else value
    return {**item, "values": values}
