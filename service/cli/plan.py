"""`unjargon plan`: the parallel layout a training job should use, why, and what each runner-up loses."""

import json

from service.cli.calc import read_inputs

PLANNER = "plan_layout"
_DEGREES = (("tp_degree", "TP"), ("cp_degree", "CP"), ("pp_degree", "PP"), ("ep_degree", "EP"), ("dp_degree", "DP"))


def plan_command(argv: list[str]) -> int:
    """Run plan_layout and print the chosen layout, its breakdowns and the runner-ups (or --json)."""
    import calculators

    if any(arg == "--from-config" or arg.startswith("--from-config=") for arg in argv):
        from service.cli.plan_config import plan_from_config

        return plan_from_config(argv)
    if "-h" in argv or "--help" in argv:
        print("unjargon plan --from-config FILE [--n-chips N] [--chip NAME] [--model NAME] [--json]: plan the job a training "
              "configuration describes (Megatron-LM, NeMo, Megatron-Bridge, torchtitan, DeepSpeed, MaxText, accelerate, launchers).\n")
    variants, as_json = read_inputs(PLANNER, argv, prog="unjargon plan")
    results = [calculators.run(PLANNER, variant) for variant in variants]
    if as_json:
        print(json.dumps(calculators.jsonable(results[0] if len(results) == 1 else results), ensure_ascii=False, indent=2))
        return 0
    for index, result in enumerate(results):
        if index:
            print("\n" + "-" * 72 + "\n")
        print("\n".join(plan_lines(result)))
    return 0


def describe_layout(layout: dict) -> str:
    """'TP 8 · PP 4 (interleaved, 2 virtual stages) · DP 8 · ZeRO-1 · micro-batch 1' for a layout."""
    parts = [f"{label} {int(layout[key])}" for key, label in _DEGREES if layout.get(key) and int(layout[key]) > 1]
    if layout.get("pp_degree") and int(layout["pp_degree"]) > 1:
        schedule = layout.get("schedule") or "1f1b"
        virtual = int(layout.get("virtual_stages") or 1)
        parts[[p.split()[0] for p in parts].index("PP")] += f" ({schedule}" + (f", {virtual} virtual stages)" if virtual > 1 else ")")
    zero = int(layout.get("zero_stage") or 0)
    if zero:
        parts.append("FSDP (ZeRO-3)" if zero == 3 else f"ZeRO-{zero}")
    if layout.get("micro_batch"):
        parts.append(f"micro-batch {int(layout['micro_batch'])}")
    if layout.get("recompute") and layout["recompute"] != "none":
        parts.append(f"{layout['recompute']} recomputation")
    return " · ".join(parts) or "one chip"


def _share_lines(title: str, parts: dict, total: float, unit: str) -> list[str]:
    from calculators.formatting import human

    shown = [(name, value) for name, value in parts.items() if value]
    if not shown or not total:
        return []
    width = max(len(name) for name, _ in shown)
    lines = [title]
    for name, value in sorted(shown, key=lambda item: -item[1]):
        bar = "█" * max(1, round(30 * value / total))
        lines.append(f"  {name.replace('_', ' '):<{width}}  {human(value, unit):>10}  {value / total:>6.1%}  {bar}")
    return lines


def plan_lines(result: dict) -> list[str]:
    """The plan as lines of text: choice, figures, breakdowns, binding constraint, runner-ups."""
    from calculators.formatting import human

    inputs, out = result["inputs"], result["outputs"]
    layout = out["layout"]
    job = " · ".join(str(inputs[key]) for key in ("model", "chip") if inputs.get(key))
    lines = [f"Plan for {job or 'this job'}: {human(inputs.get('n_chips'), 'count')} chips, "
             f"{human(inputs.get('global_batch_tokens'), 'count')} tokens per step", "",
             f"Chosen layout: {describe_layout(layout)}",
             f"  MFU {human(out['mfu'], 'fraction')} · {human(out['tokens_per_s_per_chip'], 'count')} tokens/s per chip · "
             f"step {human(out['step_time_s'], 'seconds')}",
             f"  memory {human(out['memory_bytes_per_chip'], 'bytes')} per chip ({human(out['memory_fraction_of_hbm'], 'fraction')} of HBM"
             + (")" if out.get("fits_memory") else "; above the 80% line: risk of running out of memory)"),
             f"  binding constraint: {out['binding_constraint'].replace('_', ' ')}", ""]
    time = out.get("time_breakdown_s") or {}
    lines += _share_lines("Where a step's time goes (exposed time):", time, sum(time.values()), "seconds")
    memory = out.get("memory_breakdown_bytes") or {}
    lines += [""] + _share_lines("Where memory goes, per chip:", memory, sum(memory.values()), "bytes")
    runner_ups = out.get("runner_ups") or []
    if runner_ups:
        lines += ["", "Runner-ups (best of each other shape):"]
        for rank, other in enumerate(runner_ups, 1):
            fits = "" if other.get("fits_memory", True) else ", does not fit in memory"
            lines.append(f"  {rank}. {describe_layout(other['layout'])}")
            lines.append(f"     MFU {human(other['mfu'], 'fraction')} ({_margin(other.get('margin'))}{fits}): {other.get('lost_because', '')}")
    lines += ["", f"{human(out.get('layouts_considered', 0), 'count')} layouts considered."]
    notes = [step for step in result.get("steps", []) if "simplest" in step.lower()]
    lines += notes
    return lines


def _margin(margin) -> str:
    if margin is None:
        return "no margin given"
    return f"{margin:.1%} below the choice" if margin >= 0 else f"{-margin:.1%} above the choice, but not simpler"
