"""The configuration section of the written answer, in the answer's language: layout, expected figures, problems, a better layout, every option."""

import json

from calculators.formatting import human

from service.configs import switch
from service.i18n.messages import join_names, messages

UNKNOWN_SHOWN = 20
_DEGREES = (("tp_degree", "TP"), ("cp_degree", "CP"), ("pp_degree", "PP"), ("ep_degree", "EP"), ("dp_degree", "DP"))


def describe_layout(layout: dict, lang: str = "en") -> str:
    """'TP 8 · PP 16 · DP 4 · ZeRO-1 · micro-batch 1 · global batch 1536 · sequence 2048 · full recomputation · bf16'."""
    words = messages(lang)["config"]["layout_words"]
    zero = layout.get("zero_stage")
    # ZeRO-3 shards the data-parallel ranks themselves: "DP 4 (FSDP/ZeRO-3)" is one axis, not DP 4 beside an FSDP axis
    parts = [f"{label} {layout[key]}" + (" (FSDP/ZeRO-3)" if key == "dp_degree" and zero == 3 else "")
             for key, label in _DEGREES if layout.get(key) not in (None, 1)]
    if layout.get("virtual_stages", 1) not in (None, 1):
        parts.append(words["virtual"].format(n=layout["virtual_stages"]))
    if zero and not (zero == 3 and layout.get("dp_degree") not in (None, 1)):
        parts.append("FSDP (ZeRO-3)" if zero == 3 else f"ZeRO-{zero}")
    for key in ("micro_batch", "global_batch", "seq_len"):
        if layout.get(key) is not None:
            value = layout[key]
            parts.append(words[key].format(n=f"{value:g}" if isinstance(value, float) else value))
    if layout.get("recompute") not in (None, "none"):
        parts.append(words["recompute_" + layout["recompute"]])
    if layout.get("precision"):
        parts.append(layout["precision"])
    return " · ".join(parts) or "—"


def section(config: dict, lang: str) -> str:
    """The markdown of the configuration section."""
    everything = messages(lang)
    m = everything["config"]
    names = m["framework_names"]
    first, last = config["lines"]
    where = m["intro_whole"] if first == 1 and not config.get("_prose") else (m["intro_line"] if first == last else m["intro_lines"]).format(first=first, last=last)
    framework = names.get(config["framework"], config["framework"])
    if config.get("launcher") and config["launcher"] != config["framework"]:
        framework += f" + {names.get(config['launcher'], config['launcher'])}"
    # The answer's "In short" already says what the configuration is when there is no prose: not said twice.
    intro = [] if config.get("_intro_said") else [m["intro"].format(framework=framework, where=where)]
    lines = [f"## {m['heading']}", *intro, ""]
    described = describe_layout(config["layout"], lang)
    if described not in ("—", config["layout"].get("precision")):  # "Layout: —." or "Layout: fp8." lays nothing out
        lines.append(m["layout_line"].format(layout=described))
    if config.get("world_size"):
        lines.append(m["world_line"].format(n=config["world_size"], unit=units(config, m), how=config.get("world_size_from") or ""))
    evaluation = config.get("evaluation")
    if evaluation:
        out = evaluation["outputs"]
        chip = config["chip"]["name"].split(" (")[0]
        chip_words = (m["chip_assumed"] if config["chip"]["assumed"] else m["chip_stated"]).format(chip=chip)
        lines.append(m["evaluation_line"].format(
            chip=chip_words, mfu=human(out["mfu"], "fraction"), tps=human(out["tokens_per_s_per_chip"], "count"),
            step=human(out["step_time_s"], "seconds"), memory=human(out["memory_bytes_per_chip"], "bytes"),
            fraction=human(out["memory_fraction_of_hbm"], "fraction"), fits=m["fits_yes"] if out["fits_memory"] else m["fits_no"],
            binding=everything["steps"].get(f"layout.bind.{out['binding_constraint']}", out["binding_constraint"].replace("_", " "))))
        times = {k: v for k, v in out["time_breakdown_s"].items() if v}
        total = sum(times.values())
        if total:
            part_names = everything.get("plan_page", {})
            parts = everything["list"]["separator"].join(f"{part_names.get(k, k.replace('_', ' '))} {v / total:.0%}" for k, v in sorted(times.items(), key=lambda kv: -kv[1]) if v / total >= 0.005)
            lines.append(m["time_line"].format(parts=parts))
    for question in config.get("questions", []):
        lines.append(f"*{question}*")
    for reason in config.get("not_evaluated", []):
        lines.append(reason[:1].upper() + reason[1:] + ".")
    lines.append("")
    lines.append(f"### {m['problems_heading']}")
    if config["problems"]:
        for problem in config["problems"]:
            options = ", ".join(f"`{name}`" for name in problem["options"])
            if problem.get("lines"):
                key = "at_line" if len(problem["lines"]) == 1 else "at_lines"
                options += " " + m[key].format(lines=", ".join(str(n) for n in problem["lines"]))
            lines.append(m["problem_line"].format(options=options, why=problem["why"]) if options else f"- {problem['why']}")
    else:
        lines.append(m["no_problems"])
    suggestion = config.get("suggestion")
    if suggestion:
        lines.append("")
        lines += _suggestion_lines(suggestion, m, lang)
    notes = []
    if config.get("unreadable"):
        notes.append(m["unreadable_line"].format(what="; ".join(config["unreadable"])))
    if config.get("unresolved"):
        notes.append(m["unresolved_line"].format(names=", ".join(f"`{n}`" for n in config["unresolved"])))
    if config.get("includes"):
        notes.append(m["includes_line"].format(names=", ".join(f"`{n}`" for n in config["includes"])))
    if notes:
        lines += [""] + notes
    lines += ["", f"### {m['options_heading']}"]
    said: set[str] = set()  # a note shared by several options (the ici_* product rule) is said at its first one only
    for option in config["options"]:
        if not option.get("known"):
            continue
        shown = _written(option)
        meaning = switch.meaning_for_value(option.get("framework", ""), option["name"], option.get("value"),
                                           switch.unrepeated(option["meaning"], said), lang)
        line = m["option_line"].format(option=shown, meaning=meaning)
        if option.get("layout_field") or any(option["name"] in p["options"] for p in config["problems"]):
            line += m["option_cost"].format(cost=option["cost_or_benefit"])
        lines.append(line)
    unknown = [n for n in config.get("unknown_options") or () if any(c.isalnum() for c in n)]  # a list's "-" is no option
    if unknown:
        names = [f"`{n}`" for n in unknown]
        if len(names) > UNKNOWN_SHOWN:  # the JSON lists them all; the answer names the first and counts the rest
            names = names[:UNKNOWN_SHOWN] + [m["more"].format(n=len(names) - UNKNOWN_SHOWN)]
        lines.append("")
        lines.append(m["unknown_line"].format(names=join_names(names, lang)))
    return "\n".join(lines).rstrip() + "\n"


def units(config: dict, m: dict) -> str:
    """GPUs, or chips for a TPU job; processes for a bare launcher line that names no chip nor model ("torchrun
    --nproc-per-node 2 scripts/all_reduce_test.py --backend custom", round 101 P14: a benchmark's processes, maybe on CPUs)."""
    chip = config.get("chip") or {}
    if config.get("framework") == config.get("launcher") and chip.get("assumed") and not config.get("model"):
        return m["unit_processes"]
    return m["unit_chips"] if str(chip.get("id", "")).startswith("tpu") else m["unit_gpus"]


def _suggestion_lines(suggestion: dict, m: dict, lang: str) -> list[str]:
    layout = describe_layout(suggestion["layout"], lang)
    margin = suggestion.get("margin")
    error = f"{suggestion['planner_error']:.0%}"
    verdict = suggestion["verdict"]
    if verdict == "same":
        return [m["suggestion_same"]]
    if verdict == "none_fits":
        return [m["suggestion_none_fits"].format(layout=layout, fraction=human(suggestion["memory_fraction_of_hbm"], "fraction"))]
    if verdict == "within_error":
        return [m["suggestion_within"].format(layout=layout, margin=f"{(margin or 0):+.0%}", error=error)]
    key = {"better": "suggestion_better", "fits": "suggestion_fits", "replaces": "suggestion_replaces"}[verdict]
    lines = [m[key].format(layout=layout, margin=f"{(margin or 0):.0%}", mfu=human(suggestion["mfu"], "fraction"), error=error,
                           fraction=human(suggestion["memory_fraction_of_hbm"], "fraction"))]
    lines += [f"    {edit}" for edit in suggestion["edits"]] if suggestion["edits"] else []
    if suggestion["edits"]:
        lines = [lines[0], "", "```", *[edit for edit in suggestion["edits"]], "```"]
    return lines


def _written(option: dict) -> str:
    """The option as the configuration sets it: `--flag`, `--flag 8`, `key: value`."""
    value = option.get("value")
    name = option["name"]
    if value is True and name.startswith("-"):
        return name
    if isinstance(value, list):
        value = " ".join(str(v) for v in value) if name.startswith("-") else value
    if isinstance(value, bool):
        value = "true" if value else "false"
    elif isinstance(value, (dict, list)):
        value = json.dumps(value, ensure_ascii=False)
    return f"{name} {value}" if name.startswith("-") else f"{name}: {value}"
