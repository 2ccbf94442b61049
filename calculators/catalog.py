"""The sourced hardware and model catalog in data/, looked up by forgiving names."""

import difflib
import json
import re
from functools import cache

from .errors import CalculatorInputError
from .resources import data_dir

_SEPARATORS = re.compile(r"[\s\-_./]+")


def normalise_name(name: str) -> str:
    """Case, spaces, hyphens, underscores, dots and slashes do not matter in catalog names."""
    return _SEPARATORS.sub("", name.strip().lower())


class Catalog:
    """Entries of one catalog file, indexed by id, name and every alias."""

    def __init__(self, kind: str, entries: list[dict], version: str):
        self.kind = kind
        self.entries = entries
        self.version = version
        self._index: dict[str, dict] = {}
        for entry in entries:
            for name in (entry["id"], entry["name"], *entry.get("aliases", [])):
                self._index.setdefault(normalise_name(name), entry)

    def get(self, field: str, name: str) -> dict:
        """The entry called `name` (a generic name such as "TPU" gives the catalog's default), or an error listing the close matches."""
        return self.resolve(field, name)[0]

    def resolve(self, field: str, name: str) -> tuple[dict, dict | None]:
        """The entry called `name`, and for a generic name ("TPU", "GPU") the default it was taken as, to be reported."""
        if not isinstance(name, str) or not name.strip():
            raise CalculatorInputError(field, f"expected a {self.kind} name, got {name!r}")
        key = normalise_name(name)
        if key in self._index:
            return self._index[key], None
        generic_table = generic_names(self.kind)
        generic = generic_table.get(key) or (generic_table.get(key[:-1]) if key.endswith("s") else None)  # "TPUs"
        if generic is not None and normalise_name(generic) in self._index:
            return self._index[normalise_name(generic)], {"name": name.strip(), "kind": self.kind}
        close = difflib.get_close_matches(key, list(self._index), n=5, cutoff=0.6)
        suggestions = sorted({self._index[match]["id"] for match in close})
        hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
        known = ", ".join(entry["id"] for entry in self.entries)
        raise CalculatorInputError(field, f"unknown {self.kind} {name!r}{hint} (known: {known})")

    def ids(self) -> list[str]:
        return [entry["id"] for entry in self.entries]


@cache
def hardware() -> Catalog:
    """Chips from data/hardware.json."""
    raw = json.loads((data_dir() / "hardware.json").read_text(encoding="utf-8"))
    return Catalog("chip", raw["chips"], raw.get("version", "unknown"))


@cache
def models() -> Catalog:
    """Models from data/models.json."""
    raw = json.loads((data_dir() / "models.json").read_text(encoding="utf-8"))
    return Catalog("model", raw["models"], raw.get("version", "unknown"))


@cache
def generic_names(kind: str) -> dict[str, str]:
    """Generic names ("TPU", "GPU") and the entry id each stands for, from data/grounding.json's generic_hardware.

    Only consulted when a name is not an entry's own; an absent or broken file means no generic names.
    """
    if kind != "chip":
        return {}
    try:
        raw = json.loads((data_dir() / "grounding.json").read_text(encoding="utf-8"))
        return {normalise_name(alias): item["chip"] for item in raw.get("generic_hardware", []) for alias in item["aliases"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def chip_fields(entry: dict) -> dict:
    """Calculator fields a chip stands in for, in the calculators' units."""
    dp = entry.get("dp") or {}
    fields = {
        "peak_flop_per_s": entry.get("peak_bf16_flop_per_s"),
        "memory_bandwidth_bytes_per_s": entry.get("memory_bandwidth_bytes_per_s"),
        "hbm_bytes": entry.get("hbm_bytes"),
        "dp_bandwidth_bytes_per_s": dp.get("bandwidth_bytes_per_s"),
        "bandwidth_bytes_per_s": dp.get("bandwidth_bytes_per_s"),
        "chips_per_node": dp.get("chips_sharing"),
    }
    return {key: value for key, value in fields.items() if value is not None}


def model_fields(entry: dict) -> dict:
    """Calculator fields a model stands in for; FLOP fields use active parameters (MoE)."""
    fields = {
        "params": entry.get("params_active") or entry.get("params_total"),
        "total_params": entry.get("params_total"),
        "n_layers": entry.get("n_layers"),
        "n_heads": entry.get("n_heads"),
        "head_dim": entry.get("head_dim"),
        "d_model": entry.get("d_model"),
        "seq_len": entry.get("seq_len"),
        "moe_experts": entry.get("moe_experts"),
        "moe_top_k": entry.get("moe_top_k"),
    }
    return {key: value for key, value in fields.items() if value is not None}


def data_version() -> str:
    """A version string covering every catalog file, for cache keys."""
    return f"hardware:{hardware().version};models:{models().version}"
