"""A configuration in the input read whole: its options explained, its layout evaluated, its problems, a better layout."""

import re

import calculators
from calculators import CalculatorInputError

from service.configs import commandline, detect, job, layout as layouts, options, reader, rules, suggest
from service.configs.setting import ParsedConfig
from service.i18n.messages import messages

_OPTION_WORDS = re.compile(r"(?<!\S)--?[A-Za-z][\w.-]*(?:=\S+|\s+(?!-)[^\s,;]+)?|(?<!\S)[\w.]+=\S+")
_LAUNCHERS = ("torchrun", "deepspeed-launcher", "accelerate", "srun", "mpirun")


def _without_options(line: str) -> str:
    """A sentence with the options written in it set as code ("I used `--x full` and `--y`. May I ..."): its words stay
    whole, and the options are never read as words (nor a following word as an option's value)."""
    def code(match: re.Match) -> str:
        option, gap, value = match.group("option"), match.group("gap"), match.group("value")
        if option is None:
            return f"`{match.group(0)}`"
        ending = option[-1] if commandline.closes(option) else ""
        option = option.rstrip(".,;:)") if ending else option
        if ending or value is None or "=" in option or commandline.prose_word(value) or value.startswith("-"):
            return f"`{option}`{ending}" + (gap + value if value is not None else "")
        tail = value[-1] if commandline.closes(value) else ""
        return f"`{option} {value[:-1] if tail else value}`{tail}"
    return _SENTENCE_OPTION.sub(code, line)


_SENTENCE_OPTION = re.compile(r"(?<![\S`])(?P<option>--?[A-Za-z][\w.-]*(?:=\S+)?)(?:(?P<gap>\s+)(?P<value>[^\s`]+))?|(?<![\S`])[\w.]+=[^\s`]+")


# Frameworks a text may say its options belong to ("supported in fairseq via the following new arguments").
# (Accelerate and Lightning are left out: "to accelerate training" names no framework.)
_FRAMEWORK_NAMES = {"megatron-lm": r"megatron", "megatron-bridge": r"megatron", "nemo": r"\bnemo\b", "deepspeed": r"deepspeed",
                    "torchtitan": r"torchtitan", "maxtext": r"maxtext", "fairseq": r"\bfairseq\b",
                    "colossalai": r"colossal-?ai", "levanter": r"levanter"}


def _named_otherwise(prose: str, framework: str) -> bool:
    """Whether the prose around options pasted in it (`prose`: the text without them) names another framework and never
    this one: the options are that framework's, and reading them as this one's would explain them wrongly (fairseq's
    --optimizer as Megatron's)."""
    own = _FRAMEWORK_NAMES.get(framework)
    if own is None:  # a launcher (torchrun, the deepspeed launcher) runs any program's options
        return False
    named = {name for name, pattern in _FRAMEWORK_NAMES.items() if re.search(pattern, prose, re.I)}
    return bool(named) and not re.search(own, prose, re.I) and framework not in named


def find(text: str) -> tuple[ParsedConfig | None, list]:
    """The configuration in `text` (several blocks of one job merged: a launcher line joins its program's file), and its blocks."""
    candidates = detect.blocks(text)
    parsed = [(block, reader.read_block(block)) for block in candidates]
    parsed = [(block, config) for block, config in parsed if config is not None
              and (block.fenced or not _named_otherwise(text.replace(block.text, " "), config.framework))]
    if not parsed:
        inline = [(block, reader.read_block(block)) for block in detect.inline_commands(text)]
        parsed = [(block, config) for block, config in inline
                  if config is not None and not _named_otherwise(text.replace(block.text, " "), config.framework)]
    if not parsed:
        return None, []
    main_block, main = max(parsed, key=lambda pair: (pair[1].framework not in _LAUNCHERS, len(pair[1].settings)))
    for block, config in parsed:
        if config is main:
            continue
        main.settings += [s for s in config.settings]  # a launcher line or a DeepSpeed JSON of the same job
        main.launcher = main.launcher or config.launcher
        main.notes += config.notes
        main.unresolved += [u for u in config.unresolved if u not in main.unresolved]
        for setting in config.settings:
            if setting.line is not None:
                setting.line += config.start_line - main.start_line
    return main, [block for block, _ in parsed]


def prose_of(text: str, blocks: list) -> str:
    """The input without its configuration blocks: what is left to explain as prose.

    A pasted line that mixes words and options ("we run --tensor-model-parallel-size 8 and get OOM") keeps its words.
    """
    if not blocks:
        return text
    lines = text.splitlines()
    keep = [True] * len(lines)
    for block in blocks:
        first = block.start_line - 1 - (1 if block.fenced else 0)
        last = block.end_line - 1 + (1 if block.fenced else 0)
        for index in range(max(0, first), min(len(lines), last + 1)):
            keep[index] = False
        if block.start_line == block.end_line and not block.fenced and 0 < block.start_line <= len(lines):
            line = lines[block.start_line - 1].replace(f"`{block.text}`", " ").replace(block.text, " ") \
                if block.text != lines[block.start_line - 1] else lines[block.start_line - 1]
            words = _without_options(line)
            if re.search(r"[^\W\d_]{2,}(\s+[^\W\d_]{2,}){2,}", words) and not re.match(r"\s*(torchrun|deepspeed|python|--)", line):
                keep[block.start_line - 1] = True
                lines[block.start_line - 1] = re.sub(r"\s{2,}", " ", words).strip()
    return "\n".join(line for line, kept in zip(lines, keep) if kept)


def explained_options(config: ParsedConfig, lang: str) -> tuple[list[dict], list[str]]:
    """Each option the configuration sets, once (the last value wins), with its meaning from data/options; and the unknown ones."""
    last: dict = {}
    for setting in config.settings:
        if setting.name:
            last[(setting.framework, setting.name)] = setting
    explained, unknown = [], []
    for (framework, name), setting in last.items():
        entry = options.entry(framework, name)
        item = {"name": name, "value": _plain(setting.value), "framework": framework,
                "line": setting.line + config.start_line - 1 if setting.line else None}
        if entry is None:
            unknown.append(name)
            item["known"] = False
        else:
            item.update(known=True, meaning=_in(entry.get("meaning"), lang), cost_or_benefit=_in(entry.get("cost_or_benefit"), lang),
                        source=entry.get("source") or options.read_from(framework))
            if "default" in entry:
                item["default"] = entry["default"]
            if entry.get("layout_field"):
                item["layout_field"] = entry["layout_field"]
        explained.append(item)
    return explained, unknown


def _in(text, lang: str) -> str:
    if isinstance(text, dict):
        return text.get(lang) or text.get("en", "")
    return text or ""


def _plain(value):
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return calculators.jsonable(value) if not isinstance(value, (list, dict)) else value


_PROSE_DEGREES = re.compile(r"\b(?:TP|PP|CP|EP)\s*=?\s*\d|\btensor[- ]parallel|\bpipeline[- ]parallel", re.I)


def read(text: str, lang: str = "en") -> dict | None:
    """DESIGN.md's `config` object for the configuration in `text`, or None when it holds none."""
    config, blocks = find(text)
    if config is None:
        return None
    return describe(config, text, lang, blocks)


def describe(config: ParsedConfig, text: str, lang: str, blocks: list | None = None, given: dict | None = None) -> dict:
    """The `config` object of one parsed configuration (`text` is the whole input, for a chip or GPU count stated in prose).

    `given` overrides what the configuration says or lacks: n_chips, chip, model (`unjargon plan --from-config`).
    """
    m = messages(lang)["config"]
    given = given or {}
    listed, unknown = explained_options(config, lang)
    facts = layouts.read_facts(config)
    world, world_from = layouts.world_size(config, facts, lang)
    prose = prose_of(text, blocks or [])
    if given.get("n_chips"):
        world, world_from = int(given["n_chips"]), m["world_given"]
    if world is None:
        stated = job.stated_gpus(prose)  # the thread's words; a comment in the file ("a preset for 64 GPUs") is not the launch
        if stated:
            world, world_from = stated, m["world_from_text"]
    layout, layout_notes = layouts.layout(config, facts, world, lang)
    if world_from == m["world_from_text"] and layout.get("dp_degree") == world and _PROSE_DEGREES.search(prose):
        # "TP8 PP2 and DP 48 on 768 GPUs" in the prose, flags only in the configuration: all 768 as data-parallel
        # replicas would be the configuration's default, not the text's layout
        del layout["dp_degree"]
    chip_entry = calculators.catalog.hardware().get("chip", given["chip"]) if given.get("chip") else job.stated_chip(text)
    chip_stated = chip_entry is not None
    chip_entry = chip_entry or job.default_chip(config.framework)
    questions, notes, skipped = [], list(config.notes) + layout_notes, []
    if world is None:
        questions.append(m["ask_world"])
    evaluation, plan, model_how = None, None, ""
    model_fields, model_how = job.model_inputs(facts, config, prose + "\n" + text)
    if given.get("model"):
        model_fields, model_how = {"model": calculators.catalog.models().get("model", given["model"])["id"]}, "given"
    inputs = None
    if world and model_fields:
        inputs = _calculator_inputs(layout, world, model_fields, chip_entry, facts, skipped, m)
    elif not model_fields:
        questions.append(m["ask_model"])
    if inputs is not None:
        try:
            evaluation = calculators.run("evaluate_layout", inputs)
        except CalculatorInputError as exc:
            skipped.append(m["not_evaluated"].format(reason=str(exc)))
        job_inputs = {k: val for k, val in inputs.items() if k not in job.layout_inputs(layout) or k == "precision"}
        try:
            plan = calculators.run("plan_layout", job_inputs)
        except CalculatorInputError as exc:
            skipped.append(m["not_planned"].format(reason=str(exc)))
    context = rules.Context(config, facts, layout, world, chip_entry, chip_stated, evaluation)
    problems = rules.problems(context, lang)
    result = {
        "framework": config.framework, "format": config.format, "launcher": config.launcher,
        "lines": [config.start_line, config.start_line + config.text.count("\n")],
        "options": listed, "unknown_options": unknown, "layout": layout, "world_size": world, "world_size_from": world_from,
        "chip": {"id": chip_entry["id"], "name": chip_entry["name"], "assumed": not chip_stated},
        "model": {"from": model_how, **({k: model_fields[k] for k in model_fields})} if model_fields else None,
        "evaluation": _trimmed(evaluation), "problems": problems, "suggestion": None,
        "unresolved": config.unresolved, "unreadable": notes, "not_evaluated": skipped, "includes": config.files, "questions": questions,
        "in_sentence": context.in_sentence,
    }
    if plan is not None:
        result["suggestion"] = _trim_suggestion(suggest.suggestion(config, plan, evaluation, layout))
    return calculators.jsonable(result)


def _calculator_inputs(layout: dict, world: int, model_fields: dict, chip: dict, facts, notes: list, m: dict) -> dict | None:
    """evaluate_layout's inputs, or None with a note naming what the configuration does not give.

    Without a sequence length of its own, a catalog model's is used (MaxText and torchtitan take it from the model).
    """
    global_batch = layout.get("global_batch")
    if not global_batch:
        notes.append(m["no_batch"])
        return None
    seq = layout.get("seq_len") or facts.values.get("seq_len")
    if not seq and "model" in model_fields:
        seq = calculators.catalog.models().get("model", model_fields["model"]).get("seq_len")
    if not seq:
        notes.append(m["no_seq"])
        return None
    inputs = {**model_fields, **job.layout_inputs(layout), "chip": chip["id"], "n_chips": world,
              "seq_len": int(seq), "global_batch_tokens": global_batch * seq}
    if not inputs.get("micro_batch"):
        inputs.pop("micro_batch", None)
    return inputs


def _trimmed(result: dict | None) -> dict | None:
    """A calculator result without the structured working (the English steps stay)."""
    if result is None:
        return None
    return {k: v for k, v in result.items() if k not in ("working", "notes")}


def _trim_suggestion(found: dict) -> dict:
    plan = found.pop("plan")
    found["plan"] = {"outputs": {k: v for k, v in plan["outputs"].items() if k != "runner_ups"}, "assumptions": plan["assumptions"]}
    return found
