"""data/options/<framework>.json: what each option of each framework means, costs and defaults to, with its source."""

import json
from functools import cache

from calculators.resources import data_dir

FRAMEWORKS = ("megatron-lm", "nemo", "megatron-bridge", "torchtitan", "deepspeed", "maxtext", "accelerate", "torchrun",
              "deepspeed-launcher", "transformers", "vllm")
# Tables that gloss options named in prose only: the config reader (reader._FORMAT_FRAMEWORKS) reads no file of theirs.
PROSE_ONLY = ("transformers", "vllm")


@cache
def table(framework: str) -> dict:
    """The framework's option file: {"framework", "read_from", "options": {name: entry}}; empty when absent."""
    path = data_dir() / "options" / f"{framework}.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"framework": framework, "read_from": {}, "options": {}}
    if not isinstance(raw.get("options"), dict):
        raise ValueError(f"data/options/{framework}.json has no options object")
    return raw


@cache
def _index(framework: str) -> dict:
    """Every spelling of every option (name and aliases) -> the option's canonical name."""
    index = {}
    for name, entry in table(framework)["options"].items():
        index[name] = name
        for alias in entry.get("aliases") or ():
            index.setdefault(alias, name)
    return index


def canonical(framework: str, name: str) -> str | None:
    """The option's name as the framework's table spells it (an alias resolved; Hydra's + and ++ prefixes dropped), or None."""
    index = _index(framework)
    for spelling in (name, name.lstrip("+~")):
        if spelling in index:
            return index[spelling]
    return None


def entry(framework: str, name: str) -> dict | None:
    """The table entry of an option, by any of its spellings."""
    found = canonical(framework, name)
    return table(framework)["options"][found] if found else None


def known(framework: str, name: str) -> bool:
    return canonical(framework, name) is not None


def read_from(framework: str) -> str:
    """'NVIDIA/Megatron-LM megatron/training/arguments.py @ core_r0.13.0': where the table was read."""
    where = table(framework).get("read_from") or {}
    parts = [where.get("repository"), where.get("path")]
    text = " ".join(p for p in parts if p)
    version = where.get("version") or where.get("commit")
    return f"{text} @ {version}" if version else text
