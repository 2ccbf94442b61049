"""Cost estimates from the sourced price table in data/prices.json (US dollars per million tokens)."""

import json
import re
from functools import cache
from pathlib import Path

_DATED = re.compile(r"-\d{8}$")  # "claude-sonnet-4-5-20250929" is priced as "claude-sonnet-4-5"


def prices_path() -> Path | None:
    """data/prices.json in a checkout or an installed wheel, or None when it is absent."""
    from calculators.resources import data_dir

    try:
        candidate = data_dir() / "prices.json"
    except FileNotFoundError:
        return None
    return candidate if candidate.is_file() else None


@cache
def _table(path: str | None) -> dict[str, dict]:
    if path is None:
        return {}
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    table: dict[str, dict] = {}
    for entry in raw.get("models", []):
        for name in (entry["model"], *entry.get("aliases", [])):
            table.setdefault(name.lower(), entry)
    return table


def price(model: str | None, table: dict[str, dict] | None = None) -> dict | None:
    """The price entry for `model` (by name, alias, or name without a date suffix), or None."""
    if not model:
        return None
    if table is None:
        found = prices_path()
        table = _table(str(found) if found else None)
    name = model.lower()
    return table.get(name) or table.get(_DATED.sub("", name))


def cost_usd(usage: dict, model: str | None, table: dict[str, dict] | None = None) -> float | None:
    """Dollar cost of one API call's usage; None when the model has no price (an estimate, never a guess)."""
    entry = price(model, table)
    if entry is None:
        return None
    write_1h = usage.get("cache_write_1h_tokens") or 0
    # Writes the API does not split by lifetime are priced as the default five-minute writes.
    write_5m = max((usage.get("cache_write_tokens") or 0) - write_1h, 0)
    per_million = (
        (usage.get("input_tokens") or 0) * entry["input"]
        + (usage.get("output_tokens") or 0) * entry["output"]
        + (usage.get("cache_read_tokens") or 0) * entry["cache_read"]
        + write_5m * entry["cache_write_5m"]
        + write_1h * entry["cache_write_1h"]
    )
    return round(per_million / 1e6, 8)
