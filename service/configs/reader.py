"""A configuration block parsed into settings and its framework told from the options it sets."""

import re

from service.configs import commandline, options, shell, structured
from service.configs.detect import Block
from service.configs.setting import ParsedConfig, Setting

# Keys that only one framework writes, to tell frameworks apart where the option tables are silent.
SIGNATURES = {
    "deepspeed": ("zero_optimization.", "train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "fp16.enabled", "bf16.enabled"),
    "accelerate": ("distributed_type", "fsdp_config.", "compute_environment", "num_processes", "num_machines", "deepspeed_config.", "mixed_precision"),
    "maxtext": ("ici_", "dcn_", "per_device_batch_size", "remat_policy", "base_config", "max_target_length", "base_emb_dim", "model_name"),
    "torchtitan": ("parallelism.", "training.", "job.", "activation_checkpoint.", "float8.", "compile.", "checkpoint.enable_checkpoint"),
    "nemo": ("trainer.", "exp_manager.", "model.tensor_model_parallel_size", "model.micro_batch_size", "model.optim."),
    "megatron-bridge": ("train.", "ddp.", "dist.", "model.tensor_model_parallel_size", "optimizer.", "comm_overlap.", "mixed_precision"),
    "megatron-lm": ("--tensor-model-parallel-size", "--pipeline-model-parallel-size", "--num-layers", "--micro-batch-size",
                    "--global-batch-size", "--hidden-size", "--seq-length", "--use-mcore-models", "--bf16", "--fp16"),
}
_FORMAT_FRAMEWORKS = {"json": ("deepspeed",), "toml": ("torchtitan",),
                      "yaml": ("accelerate", "maxtext", "nemo", "megatron-bridge", "deepspeed", "torchtitan"),
                      "shell": ("megatron-lm", "maxtext", "megatron-bridge", "nemo", "torchtitan")}


def score(framework: str, settings: list[Setting]) -> float:
    """How well `settings` fit a framework: options its table knows, plus its signature keys."""
    names = [s.name for s in settings if s.name]
    if not names:
        return 0.0
    known = sum(options.known(framework, name) for name in names)
    signed = sum(any(name.startswith(sig) if sig.endswith((".", "_")) else name == sig for sig in SIGNATURES.get(framework, ()))
                 for name in names)
    return known + 0.5 * signed


def framework_of(settings: list[Setting], form: str, program: str | None = None) -> str | None:
    """The framework whose options these are; None when no framework knows any of them."""
    candidates = _FORMAT_FRAMEWORKS.get(form, options.FRAMEWORKS)
    scored = [(score(name, settings), -index, name) for index, name in enumerate(candidates)]
    best = max(scored)
    if program and "maxtext" in program.lower() and form == "shell":
        return "maxtext"
    if program and re.search(r"torchtitan|train\.py$", program) and any(s.name.startswith("--parallelism") for s in settings):
        return "torchtitan"
    names = [s.name for s in settings if s.name]
    # one generic key of many ("quantization" among tp, input_len, batch_size) is a bug report's settings, no framework's file
    enough = best[0] >= 2 or best[0] > 0 and best[0] >= 0.5 * len(names)
    return best[2] if enough else None


def read_block(block: Block) -> ParsedConfig | None:
    """The block as a parsed configuration; None when it is no framework's. A block that does not parse says where."""
    reader = {"shell": _read_shell, "yaml": _read_yaml, "toml": _read_toml, "json": _read_json}[block.format]
    try:
        parsed = reader(block.text)
    except structured.ConfigSyntaxError as exc:
        framework = _framework_from_text(block.text, block.format)
        if framework is None:
            return None
        return ParsedConfig(framework=framework, format=block.format, notes=[_shift(str(exc), block.start_line)],
                            start_line=block.start_line, text=block.text)
    if parsed is None:
        return None
    parsed.start_line, parsed.text = block.start_line, block.text
    return parsed


def _shift(message: str, start: int) -> str:
    """A parser's 'line N' counted from the start of the whole input, as the reader sees it."""
    if start <= 1:
        return message
    return re.sub(r"line (\d+)", lambda m: f"line {int(m.group(1)) + start - 1}", message, count=1)


def _framework_from_text(text: str, form: str) -> str | None:
    """For a file that does not parse: the framework its key names point to, read line by line."""
    names = re.findall(r"^\s*\"?([A-Za-z_][\w.\-]*)\"?\s*[:=]", text, re.M) + re.findall(r"(--[a-z][\w-]+)", text)
    return framework_of([Setting(name, None) for name in names], form)


def _settle(settings: list[Setting], framework: str) -> list[Setting]:
    """Settings with their framework; leaves under a key the framework's table explains as a whole (optimizer.params) joined into it."""
    out: list[Setting] = []
    joined: dict = {}
    for setting in settings:
        setting.framework = setting.framework or framework
        parent = None
        if "." in setting.name and not options.known(setting.framework, setting.name):
            parts = setting.name.split(".")
            for cut in range(len(parts) - 1, 0, -1):
                prefix = ".".join(parts[:cut])
                if options.known(setting.framework, prefix):
                    parent = prefix
                    break
        if parent is None:
            out.append(setting)
            continue
        rest = setting.name[len(parent) + 1:]
        if parent not in joined:
            joined[parent] = Setting(parent, {}, setting.line, setting.framework)
            out.append(joined[parent])
        joined[parent].value[rest] = setting.value
    return out


def _read_yaml(text: str) -> ParsedConfig | None:
    settings = structured.read_yaml(text)
    framework = framework_of(settings, "yaml")
    if framework is None:
        return None
    parsed = ParsedConfig(framework=framework, format="yaml", settings=_settle(settings, framework))
    defaults = parsed.value("defaults")
    if isinstance(defaults, list) and defaults:
        for item in defaults:  # Hydra's defaults list: other config files this one is composed with
            if isinstance(item, dict):
                parsed.files += [f"{key}: {value}" for key, value in item.items()]
            elif str(item) != "_self_":
                parsed.files.append(str(item))
    for key in ("base_config", "base_config_path"):
        if parsed.value(key):
            parsed.files.append(str(parsed.value(key)))
    return parsed


def _read_toml(text: str) -> ParsedConfig | None:
    settings = structured.read_toml(text)
    framework = framework_of(settings, "toml")
    if framework is None:
        return None
    return ParsedConfig(framework=framework, format="toml", settings=_settle(settings, framework))


def _read_json(text: str) -> ParsedConfig | None:
    settings, stripped = structured.read_json(text)
    framework = framework_of(settings, "json")
    if framework is None:
        return None
    parsed = ParsedConfig(framework=framework, format="json", settings=_settle(settings, framework))
    if stripped:
        parsed.notes.append("comments or trailing commas were removed before reading the JSON (strict JSON allows neither)")
    return parsed


def _read_shell(text: str) -> ParsedConfig | None:
    reading = shell.read_script(text)
    commands = shell.launch_commands(reading)
    if not commands:
        # Lines of bare options (a pasted argument list without a program) read as one command.
        words = []
        for _, line in shell.logical_lines(text):
            split = shell.Interpreter(reading.variables).words(line, 0)
            words += split or []
        if not words:
            return None
        commands = [(1, words)]
    settings: list[Setting] = []
    launcher, program, positional = None, None, []
    unresolved: list[str] = []
    for number, words in commands:
        command = commandline.read_command(words)
        if not command["options"] and not command["launcher_options"]:
            continue
        launcher = launcher or command["launcher"]
        program = program or command["program"]
        positional += command["positional"]
        settings += commandline.settings_of(command, number, "")
        unresolved += [name for name in shell.unresolved_in(words) if name not in unresolved]
    program_settings = [s for s in settings if not s.framework]
    framework = framework_of(program_settings, "shell", program)
    if framework and launcher and _mostly_foreign(program_settings, framework):
        framework = None  # a program of its own (DeepSpeed-Chat's main.py): its flags are not the framework's, the launcher is
    documents = []
    for number, body in reading.documents:  # a JSON the script writes (Megatron-DeepSpeed's ds_config)
        try:
            inner, _ = structured.read_json(body)
        except structured.ConfigSyntaxError:
            continue
        documents += _settle([Setting(s.name, s.value, (s.line or 1) + number - 1, "deepspeed") for s in inner], "deepspeed")
    if framework is None and not documents:
        if launcher and settings:
            framework = launcher
        else:
            return None
    framework = framework or "deepspeed"
    for setting in settings:
        if not setting.framework:
            setting.framework = framework
    _locate(settings, text)
    parsed = ParsedConfig(framework=framework, format="shell", settings=settings + documents, launcher=launcher,
                          unresolved=unresolved)
    parsed.notes += reading.skipped
    parsed.files += [str(word) for word in positional if isinstance(word, str) and word.endswith((".yml", ".yaml", ".json", ".toml"))]
    parsed.program = program
    return parsed


def _mostly_foreign(settings: list[Setting], framework: str) -> bool:
    """Whether most of a program's options are unknown to the framework its few known ones point to."""
    names = {s.name for s in settings if s.name}
    known = sum(options.known(framework, name) for name in names)
    signed = any(name in SIGNATURES.get(framework, ()) for name in names)
    return bool(names) and not signed and known < 3 and known <= 0.5 * len(names)


def _locate(settings: list[Setting], text: str) -> None:
    """Each option's own line (in an array or a continued line), not the line where the command starts.

    One pass over the words of the text: a word's lines are indexed once, so a long command costs no more than its length.
    """
    where: dict = {}
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("#"):
            continue
        for word in re.findall(r"[^\s=\"'()]+", line):
            where.setdefault(word, []).append(number)
    used: dict = {}
    for setting in settings:
        lines = where.get(setting.name)
        if not lines:
            continue
        after = used.get(setting.name, 0)
        found = next((n for n in lines if n > after), None)
        if found is not None:
            setting.line = used[setting.name] = found
