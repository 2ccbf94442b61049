"""Catalog chips and models a text names, generic names ("TPU", "GPU") standing for a representative chip."""

import json
import math
from dataclasses import dataclass
from functools import cache

from calculators import catalog
from calculators.resources import data_dir

from service.explain import glossary


@dataclass(frozen=True)
class Mention:
    """A chip or model of the catalog named in a text, where it is named."""

    kind: str  # chip | model
    entry: dict
    start: int
    end: int
    generic: bool = False  # "TPU" or "GPU", standing for grounding.json's representative chip


@cache
def grounding_data() -> dict:
    """data/grounding.json, loaded once."""
    return json.loads((data_dir() / "grounding.json").read_text(encoding="utf-8"))


@cache
def _index() -> glossary.Glossary:
    """Chips, models and generic hardware names in one index, so a text is scanned once (longest name wins)."""
    hardware = catalog.hardware()
    entries = [{"id": f"chip:{e['id']}", "term": e["name"], "aliases": e.get("aliases", []), "_entry": e, "_kind": "chip"}
               for e in hardware.entries]
    entries += [{"id": f"model:{e['id']}", "term": e["name"], "aliases": e.get("aliases", []), "_entry": e, "_kind": "model"}
                for e in catalog.models().entries]
    entries += [{"id": f"generic:{g['chip']}:{i}", "term": g["aliases"][0], "aliases": g["aliases"],
                 "_entry": hardware.get("chip", g["chip"]), "_kind": "chip", "_generic": True}
                for i, g in enumerate(grounding_data()["generic_hardware"])]
    return glossary.Glossary(entries, "catalog")


def mentions(text: str) -> list[Mention]:
    """Every chip and model named in `text`, in order of appearance."""
    return [Mention(m.entry["_kind"], m.entry["_entry"], m.start, m.end, m.entry.get("_generic", False))
            for m in _index().find(text)]


def find_models(text: str) -> list[dict]:
    """Catalog models named in the text, in order of appearance."""
    return unique([m.entry for m in mentions(text) if m.kind == "model"])


def find_chips(text: str) -> list[dict]:
    """Catalog chips named in the text, in order of appearance."""
    return unique([m.entry for m in mentions(text) if m.kind == "chip"])


def unique(entries: list[dict]) -> list[dict]:
    """Entries in order, each id once."""
    seen, out = set(), []
    for entry in entries:
        if entry["id"] not in seen:
            seen.add(entry["id"])
            out.append(entry)
    return out


def _pow2_floor(x: float) -> int:
    return 2 ** int(math.floor(math.log2(x))) if x >= 1 else 1


def expert_parallel_degree(model: dict, chip: dict) -> int:
    """E/k rounded down to a power of two, capped by the chip's fast domain (grounding.json's stated rule)."""
    experts, top_k = model.get("moe_experts"), model.get("moe_top_k")
    if not experts or not top_k:
        return 1
    domain = ((chip.get("scale_up") or {}).get("domain_chips")) or 1
    return max(1, min(_pow2_floor(experts / top_k), _pow2_floor(domain), int(experts)))
