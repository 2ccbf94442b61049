"""A calculation's working in the text's own words: an input read from the text shows as written ("47 days", not 4.061e6)."""

from service.explain import restate


def with_quotes(run: dict, lang: str) -> list:
    """The run's working steps, each unitless input the text gave replaced by its quote in the answer's language."""
    quotes = {name: source["quote"] for name, source in (run.get("input_sources") or {}).items()
              if source.get("source") == "text" and source.get("quote") and restate.same_language(source["quote"], lang)}
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
