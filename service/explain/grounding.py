"""Catalog chips and models a text names, generic names ("TPU", "GPU") standing for a representative chip."""

import json
import math
import re
from functools import cache
from typing import NamedTuple

from calculators import catalog
from calculators.resources import data_dir

from service.explain import data_cache, glossary


# A NamedTuple, not a frozen dataclass: the same record, without a millisecond of class building at import.
class Mention(NamedTuple):
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
    """Chips, models and generic hardware names in one index, so a text is scanned once (longest name wins).

    The index is built once for these catalog files and then kept (data_cache): building it costs every
    process about 6 ms. What is kept names each catalog entry by id; the catalog's own entry is attached
    on loading, so `Mention.entry` is the very dict catalog.hardware() and catalog.models() hold.
    """
    hardware, models = catalog.hardware(), catalog.models()
    try:
        sources = data_cache.stamp([*(data_dir() / name for name in ("hardware.json", "models.json", "grounding.json")),
                                    *glossary.MATCHER])
    except OSError:
        sources = None
    cache_name, fallback = f"grounding-{glossary.INDEX_FORMAT}", glossary.home_cache()
    state = data_cache.read(cache_name, sources, fallback) if sources is not None else None
    if glossary.valid_state(state):
        index = glossary.Glossary.from_state(state)
    else:
        entries = [{"id": f"chip:{e['id']}", "term": e["name"], "aliases": e.get("aliases", []), "_kind": "chip", "_of": e["id"]}
                   for e in hardware.entries]
        entries += [{"id": f"model:{e['id']}", "term": e["name"], "aliases": e.get("aliases", []), "_kind": "model", "_of": e["id"]}
                    for e in models.entries]
        entries += [{"id": f"generic:{g['chip']}:{i}", "term": g["aliases"][0], "aliases": g["aliases"],
                     "_kind": "chip", "_of": hardware.get("chip", g["chip"])["id"], "_generic": True}
                    for i, g in enumerate(grounding_data()["generic_hardware"])]
        index = glossary.Glossary(entries, "catalog")
        if sources is not None:
            data_cache.write(cache_name, sources, index.state(), fallback)
    for entry in index.entries:  # before the index is returned: no thread sees an entry without its catalog entry
        entry["_entry"] = (hardware if entry["_kind"] == "chip" else models).get(entry["_kind"], entry["_of"])
    return index


_COUNT_SUFFIX = re.compile(r"(?<=[A-Za-z]\d\d)[x×](?=\d{1,4}\b)|(?<=[A-Za-z]\d\d\d)[x×](?=\d{1,4}\b)")  # "H200x2": the chip, then how many


def mentions(text: str) -> list[Mention]:
    """Every chip and model named in `text`, in order of appearance."""
    text = _COUNT_SUFFIX.sub(" ", text)  # same length, so every position stays the text's
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
