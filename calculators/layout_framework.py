"""What a training framework can run (data/frameworks.json): the layouts plan_layout may search and evaluate_layout accepts for it."""

import json
from functools import cache

import numpy as np

from .errors import CalculatorInputError
from .resources import data_dir
from .working import step, word

RECOMPUTE_NAMES = ("none", "selective", "full", "selective_op")  # the codes 0-3 of layout arrays' "rc"
# Parallel dimensions a framework may lack, in the order the answer lists them: (table key, layout array, field named in errors).
DIMENSIONS = (("tp", "tp", "tp_degree"), ("pp", "pp", "pp_degree"), ("virtual_stages", "vs", "virtual_stages"),
              ("cp", "cp", "cp_degree"), ("ep", "ep", "ep_degree"))


@cache
def frameworks() -> dict:
    """data/frameworks.json's frameworks by name, read once."""
    return json.loads((data_dir() / "frameworks.json").read_text(encoding="utf-8"))["frameworks"]


def framework_names() -> tuple[str, ...]:
    """The names the `framework` input accepts."""
    return tuple(frameworks())


def supported(name: str, lay: dict, schedules: tuple[str, ...]) -> np.ndarray:
    """Which rows of the layout arrays `name` can run: its dimensions, expert TP, ZeRO stages (alone and beside PP or TP), recomputation, schedule."""
    entry = frameworks()[name]
    ok = np.ones(len(lay["tp"]), dtype=bool)
    for key, array, _ in DIMENSIONS:
        if not entry[key]:
            ok &= lay[array] <= 1
    if not entry["expert_tp_folding"]:
        ok &= lay["etp"] == lay["tp"]
    ok &= np.isin(lay["zero"], entry["zero_stages"])
    if "zero_stages_with_pp" in entry:
        ok &= (lay["pp"] <= 1) | np.isin(lay["zero"], entry["zero_stages_with_pp"])
    if "zero_stages_with_tp" in entry:
        ok &= (lay["tp"] <= 1) | np.isin(lay["zero"], entry["zero_stages_with_tp"])
    ok &= np.isin(lay["rc"], [float(RECOMPUTE_NAMES.index(mode)) for mode in entry["recompute"]])
    allowed = [float(schedules.index(s)) for s in entry["schedules"] if s in schedules]
    ok &= (lay["pp"] <= 1) | np.isin(lay["sched"], allowed)
    return ok


def check_supported(name: str, lay: dict, schedules: tuple[str, ...]) -> None:
    """Refuse one given layout that `name` cannot run, naming the layout field at fault."""
    entry, label = frameworks()[name], frameworks()[name]["name"]
    for key, array, field in DIMENSIONS:
        if not entry[key] and np.any(lay[array] > 1):
            raise CalculatorInputError(field, f"must be 1 with framework {name}: {label} has no {key.replace('_', ' ')} (data/frameworks.json)")
    if not entry["expert_tp_folding"] and np.any(lay["etp"] != lay["tp"]):
        raise CalculatorInputError("expert_tp_degree", f"must equal tp_degree with framework {name}: {label} does not fold expert parallelism (data/frameworks.json)")
    zero = int(np.reshape(lay["zero"], -1)[0])
    allowed = entry["zero_stages"]
    if np.any(lay["pp"] > 1) and "zero_stages_with_pp" in entry:
        allowed = [z for z in allowed if z in entry["zero_stages_with_pp"]]
    if np.any(lay["tp"] > 1) and "zero_stages_with_tp" in entry:
        allowed = [z for z in allowed if z in entry["zero_stages_with_tp"]]
    if zero not in allowed:
        raise CalculatorInputError("zero_stage", f"must be one of {', '.join(map(str, allowed))} with framework {name} in this layout (data/frameworks.json)")
    mode = RECOMPUTE_NAMES[int(np.reshape(lay["rc"], -1)[0])]
    if mode not in entry["recompute"]:
        raise CalculatorInputError("recompute", f"must be one of {', '.join(entry['recompute'])} with framework {name} (data/frameworks.json)")
    schedule = schedules[int(np.reshape(lay["sched"], -1)[0])]
    if np.any(lay["pp"] > 1) and schedule not in entry["schedules"]:
        raise CalculatorInputError("schedule", f"must be one of {', '.join(entry['schedules'])} with framework {name} (data/frameworks.json)")


def check_schedule(name: str, schedule: str | None) -> None:
    """Refuse a pipeline schedule the framework does not have, before any search."""
    entry = frameworks()[name]
    if schedule is not None and schedule not in entry["schedules"]:
        have = ", ".join(entry["schedules"]) or "none (it has no pipeline parallelism)"
        raise CalculatorInputError("schedule", f"{schedule} is not a schedule of framework {name}; it has: {have} (data/frameworks.json)")


def _listed(keys: list[str]):
    """Words joined as a list: 'a', 'a and b', 'a, b and c' (each joiner translated)."""
    if len(keys) == 1:
        return word(keys[0])
    if len(keys) == 2:
        return step("plan.framework_and", a=word(keys[0]), b=word(keys[1]))
    return step("plan.framework_comma", a=word(keys[0]), b=_listed(keys[1:]))


def restriction_step(name: str) -> dict:
    """The answer's sentence: only layouts the framework can run were searched, and which dimensions it lacks."""
    entry = frameworks()[name]
    # Without a pipeline there are no interleaved stages to mention.
    missing = [f"plan.framework_dim.{key}" for key, _, _ in DIMENSIONS if not entry[key] and not (key == "virtual_stages" and not entry["pp"])]
    if not missing:
        return step("plan.framework_all", framework=entry["name"])
    return step("plan.framework", framework=entry["name"], missing=_listed(missing))
