"""`unjargon plan`: the parallel layout a training job should use, why, and what each runner-up loses."""

import json

from service.cli.calc import read_inputs
from service.cli.usage import UsageError

PLANNER = "plan_layout"
_DEGREES = (("tp_degree", "TP"), ("cp_degree", "CP"), ("pp_degree", "PP"), ("ep_degree", "EP"), ("dp_degree", "DP"))


def plan_command(argv: list[str]) -> int:
    """Run plan_layout and print the chosen layout, its breakdowns and the runner-ups (or --json), in --lang."""
    import calculators

    if any(arg == "--from-config" or arg.startswith("--from-config=") for arg in argv):
        from service.cli.plan_config import plan_from_config

        return plan_from_config(argv)
    if "-h" in argv or "--help" in argv:
        print("unjargon plan --from-config FILE [--n-chips N] [--chip NAME] [--model NAME] [--json]: plan the job a training "
              "configuration describes (Megatron-LM, NeMo, Megatron-Bridge, torchtitan, DeepSpeed, MaxText, accelerate, launchers).\n")
    lang, argv = _take_lang(argv)
    variants, as_json = read_inputs(PLANNER, argv, prog="unjargon plan")
    results = [calculators.run(PLANNER, variant) for variant in variants]
    if as_json:
        print(json.dumps(calculators.jsonable(results[0] if len(results) == 1 else results), ensure_ascii=False, indent=2))
        return 0
    for index, result in enumerate(results):
        if index:
            print("\n" + "-" * 72 + "\n")
        lines = plan_lines(result, lang)
        if lang == "ar":  # numbers agreeing with their nouns ("4 ملايين رمز", not "4M رمز"), Arabic punctuation
            from service.i18n import arabic_style

            lines = [arabic_style.polish(line) for line in lines]
        print("\n".join(lines))
    return 0


def _take_lang(argv: list[str]) -> tuple[str, list[str]]:
    """`--lang LANG` (or -l, or --lang=LANG) out of argv, checked against the languages shipped; default UNJARGON_LANG, else English."""
    from service import config
    from service.i18n import languages

    lang, rest, i = None, [], 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("--lang", "-l"):
            if i + 1 >= len(argv):
                raise UsageError("--lang needs a language code (" + ", ".join(languages.codes()) + ")")
            lang, i = argv[i + 1], i + 2
            continue
        if arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
        else:
            rest.append(arg)
        i += 1
    if lang is not None and lang not in languages.codes():
        raise UsageError(f"--lang {lang!r} is not a language here; use one of: " + ", ".join(languages.codes()))
    return lang or config.current().lang or languages.DEFAULT, rest


def _words(lang: str) -> tuple[dict, dict]:
    from service.i18n.messages import messages

    table = messages(lang)
    return table["plan_cli"], table["plan_page"]


def _schedule_names(lang: str) -> dict:
    from service.i18n.messages import messages

    return messages(lang)["schedule_names"]


def describe_layout(layout: dict, lang: str = "en") -> str:
    """'TP 8 · PP 4 (interleaved, 2 virtual stages) · DP 8 · ZeRO-1 · micro-batch 1' for a layout, in `lang`."""
    words, _ = _words(lang)
    parts = [f"{label} {int(layout[key])}" for key, label in _DEGREES if layout.get(key) and int(layout[key]) > 1]
    if layout.get("pp_degree") and int(layout["pp_degree"]) > 1:
        schedule = layout.get("schedule") or "1f1b"
        virtual = int(layout.get("virtual_stages") or 1)
        names = _schedule_names(lang)
        shown = names["interleaved"].format(v=virtual) if schedule == "interleaved" and virtual > 1 else names.get(schedule, schedule)
        if virtual > 1 and schedule != "interleaved":
            shown += ", " + words["virtual"].format(n=virtual)
        parts[[p.split()[0] for p in parts].index("PP")] += f" ({shown})"
    expert_tp = layout.get("expert_tp_degree")
    if expert_tp is not None and int(layout.get("ep_degree") or 1) > 1 and int(expert_tp) != int(layout.get("tp_degree") or 1):
        parts[[p.split()[0] for p in parts].index("EP")] += " (" + words["expert_tp"].format(n=int(expert_tp)) + ")"
    zero = int(layout.get("zero_stage") or 0)
    if zero:
        parts.append(words["fsdp"] if zero == 3 else words["zero"].format(n=zero))
    if layout.get("micro_batch"):
        parts.append(words["micro_batch"].format(n=int(layout["micro_batch"])))
    if layout.get("recompute") and layout["recompute"] != "none":
        parts.append(words[f"recompute_{layout['recompute']}"])
    return " · ".join(parts) or words["one_chip"]


def _share_lines(title: str, parts: dict, total: float, unit: str, names: dict) -> list[str]:
    from calculators.formatting import human

    shown = [(names.get(name, name.replace("_", " ")), value) for name, value in parts.items() if value]
    if not shown or not total:
        return []
    width = max(len(name) for name, _ in shown)
    lines = [title]
    for name, value in sorted(shown, key=lambda item: -item[1]):
        bar = "█" * max(1, round(30 * value / total))
        lines.append(f"  {name:<{width}}  {human(value, unit):>10}  {value / total:>6.1%}  {bar}")
    return lines


def _job_name(inputs: dict, words: dict) -> str:
    """The model and chip as given; a model given by its architecture is named by its size and shape."""
    from calculators.formatting import human

    model = inputs.get("model")
    if not model and inputs.get("params"):
        model = words["architecture"].format(params=human(float(inputs["params"]), "count"), layers=inputs.get("n_layers"),
                                             hidden=inputs.get("d_model"))
    return " · ".join(str(part) for part in (model, inputs.get("chip")) if part) or words["this_job"]


def plan_lines(result: dict, lang: str = "en") -> list[str]:
    """The plan as lines of text: whether anything fits, the choice, figures, breakdowns, binding constraint, runner-ups."""
    from calculators.formatting import human
    from calculators.working import render

    words, page = _words(lang)
    inputs, out = result["inputs"], result["outputs"]
    layout = out["layout"]
    pct = lambda value: human(float(value), "fraction")  # noqa: E731
    lines = [words["header"].format(job=_job_name(inputs, words), chips=human(inputs.get("n_chips"), "count"),
                                    batch=human(inputs.get("global_batch_tokens"), "count")), ""]
    fits = out.get("fits_memory")
    if not fits:  # said first: nothing fits, and how many chips would
        no_fit = out.get("no_fit") or {}
        lines.append(words["no_fit"].format(chips=human(inputs.get("n_chips"), "count")))
        if "min_chips" in no_fit:
            lines.append(words["min_chips"].format(chips=human(float(no_fit["min_chips"]), "count"), below=human(float(no_fit["largest_tried"]), "count")))
        elif no_fit.get("reason"):
            lines.append(words[f"no_min_{no_fit['reason']}"].format(below=human(float(no_fit["largest_tried"]), "count")))
        lines += ["", words["closest"].format(layout=describe_layout(layout, lang))]
    else:
        lines.append(words["chosen"].format(layout=describe_layout(layout, lang)))
    lines.append("  " + words["figures"].format(mfu=pct(out["mfu"]), tps=human(out["tokens_per_s_per_chip"], "count"),
                                                 step=human(out["step_time_s"], "seconds")))
    lines.append("  " + words["memory" if fits else "memory_over"].format(bytes=human(out["memory_bytes_per_chip"], "bytes"),
                                                                          fraction=pct(out["memory_fraction_of_hbm"])))
    share = pct(out.get("binding_share", 0.0))
    if fits:
        bind = render([{"key": f"layout.bind.{out['binding_constraint']}", "values": {}}], lang)[0]
        lines.append("  " + words["binding"].format(binding=bind, share=share))
    else:
        lines.append("  " + words["binding_memory"].format(share=share))
    lines.append("")
    names = {**page, "offload": words["offload"]}
    time = out.get("time_breakdown_s") or {}
    lines += _share_lines(page["time_title"] + ":", time, sum(time.values()), "seconds", names)
    memory = out.get("memory_breakdown_bytes") or {}
    lines += [""] + _share_lines(page["memory_title"] + ":", memory, sum(memory.values()), "bytes", names)
    reasons = [render([item["values"]["why"]], lang)[0] for item in result.get("working", [])
               if isinstance(item, dict) and item.get("key", "").startswith("plan.runner_up")]
    runner_ups = out.get("runner_ups") or []
    if runner_ups:
        lines += ["", words["runner_ups"]]
        for rank, other in enumerate(runner_ups, 1):
            margin = other.get("margin") or 0.0
            gap = words["below" if margin >= 0 else "above"].format(margin=human(abs(margin), "fraction"))
            why = reasons[rank - 1] if rank <= len(reasons) else other.get("lost_because", "")
            lines.append(f"  {rank}. {describe_layout(other['layout'], lang)}")
            lines.append("     " + words["runner_up"].format(mfu=pct(other["mfu"]), margin=gap, fits="" if other.get("fits_memory", True)
                                                            else words["not_fitting"], why=why))
    lines += ["", page["considered"].format(n=human(out.get("layouts_considered", 0), "count"))]
    for item in result.get("working", []):
        key = item.get("key") if isinstance(item, dict) else None
        if key == "plan.simplest":
            values = item["values"]
            lines.append(words["simplest"].format(count=human(float(values["count"][0]), "count"), tolerance=pct(values["tolerance"][0]),
                                                  margin=pct(values["margin"][0])))
        elif key == "plan.fastest_is_simplest":
            lines.append(words["fastest_is_simplest"].format(tolerance=pct(item["values"]["tolerance"][0])))
        elif key in ("plan.framework", "plan.framework_all"):  # the search was narrowed to what the job's framework can run
            text = render([item], lang)[0]
            lines.append(text[:1].upper() + text[1:] + ".")
    return lines
