"""A launch command's words as settings: the launcher's own options, the program's `--flags` and `key=value` overrides."""

import re
import shlex

from service.configs.setting import Setting, typed

# Launcher options that take no value (all others take the next word when it is not an option).
_LAUNCHER_FLAGS = {"--standalone", "--no_python", "--no-python", "--use_env", "--use-env", "--no_local_rank", "--no-local-rank",
                   "--module", "--force_multi", "--autotune", "--bind_cores_to_rank", "--multi_gpu", "--use_deepspeed",
                   "--use_fsdp", "--use_megatron_lm", "--tpu", "--exclusive", "--overlap"}
_NEGATIVE = re.compile(r"^-\d")
_VALUE_LIKE = re.compile(r"[\d/.,:_$]")  # the second and later values of a list option: numbers, paths, names with digits
# Words that end a sentence's option rather than give its value ("I used --distribute-saved-activations. May I ...",
# "--tp-comm-overlap (I assume ...", "--sequence-parallel as well"): function words and a bracket's opening.
PROSE_WORDS = frozenset("a an and as at be but by can could for from i if in is it may might of on or so that the then this to "
                        "was we well were when which while will with would you also because since".split())
_CLOSING = ".,;:)"


def prose_word(word: str) -> bool:
    """Whether the word after an option is the sentence going on, not the option's value."""
    return word.startswith("(") or word.rstrip(_CLOSING).lower() in PROSE_WORDS


def closes(word: str) -> bool:
    """Whether an option word ends its clause ("--distribute-saved-activations." or "--recompute-method uniform,")."""
    return len(word) > 1 and word[-1] in _CLOSING and not word.endswith("...")


_OVERRIDE = re.compile(r"^(\+\+|\+|~)?([A-Za-z_][\w.\-/@]*)=(.*)$", re.S)
LAUNCHER_NAMES = {"torchrun": "torchrun", "torch.distributed.run": "torchrun", "torch.distributed.launch": "torchrun",
                  "deepspeed": "deepspeed-launcher", "accelerate": "accelerate", "srun": "srun", "mpirun": "mpirun"}


def _options(words: list[str], stop_at_program: bool) -> tuple[list[tuple[str, object, int]], int]:
    """(name, value, word index) for each option, and the index of the first word that is not an option or a value."""
    found, index = [], 0
    while index < len(words):
        word = words[index]
        if word == "--":
            index += 1
            continue
        if not word.startswith("-") or _NEGATIVE.match(word):
            if stop_at_program:
                return found, index
            override = _OVERRIDE.match(word)
            if override:
                found.append((override.group(2), typed(override.group(3)), index))
            else:
                found.append(("", word, index))  # a positional word (a config file for MaxText)
            index += 1
            continue
        name, has_equals, inline = word.partition("=")
        if closes(word) and not has_equals:
            found.append((name.rstrip(_CLOSING), True, index))  # "--x." or "--x," ends there: a switch, no value
            index += 1
            continue
        if has_equals:
            found.append((name, typed(inline), index))
            index += 1
            continue
        values, cursor = [], index + 1
        if not (stop_at_program and name in _LAUNCHER_FLAGS):
            while cursor < len(words) and (not words[cursor].startswith("-") or _NEGATIVE.match(words[cursor])):
                if stop_at_program and (values or words[cursor].endswith(".py")):
                    break  # a launcher option takes one value; the program comes next
                if not stop_at_program and _OVERRIDE.match(words[cursor]) and not values:
                    break
                if values and not _VALUE_LIKE.search(words[cursor]):
                    break  # a further plain word ("on", "and") is prose after the option, not another of its values
                if prose_word(words[cursor]):
                    break
                values.append(typed(words[cursor].rstrip(_CLOSING) if closes(words[cursor]) else words[cursor]))
                cursor += 1
                if closes(words[cursor - 1]):
                    break  # "--recompute-method uniform," : the comma ends the option
        value = True if not values else values[0] if len(values) == 1 else values
        found.append((name, value, index))
        index = cursor
    return found, index


def read_command(words: list[str]) -> dict:
    """The launcher, its options, the program and the program's options of one command line.

    {"launcher": "torchrun" | None, "launcher_options": [(name, value)], "program": "pretrain_gpt.py" | None,
     "options": [(name, value)], "positional": [words]}
    """
    rest = list(words)
    if rest[:2] == ["uv", "run"]:  # `uv run python ...` runs what follows in the project's environment
        rest = rest[2:]
    head = rest[0].rsplit("/", 1)[-1] if rest else ""
    launcher, launcher_options = None, []
    # srun/mpirun wrap the real launcher: their options first, then what they start.
    if head in ("srun", "mpirun"):
        found, stop = _options(rest[1:], stop_at_program=True)
        launcher, launcher_options, rest = LAUNCHER_NAMES[head], [(n, v) for n, v, _ in found], rest[1 + stop:]
        head = rest[0].rsplit("/", 1)[-1] if rest else ""
    if head in ("bash", "sh") and rest[1:2] == ["-c"] and len(rest) > 2:  # srun ... bash -c "the real command"
        try:
            rest = shlex.split(rest[2]) + rest[3:]
        except ValueError:
            rest = rest[2].split() + rest[3:]
        head = rest[0].rsplit("/", 1)[-1] if rest else ""
    if head in ("python", "python3"):  # interpreter switches before -m or the script (python -u -m torch.distributed.run)
        while len(rest) > 2 and rest[1] in ("-u", "-O", "-OO", "-B", "-E", "-s", "-I"):
            rest = [rest[0]] + rest[2:]
    if head in ("python", "python3") and rest[1:3] and rest[1] == "-m" and rest[2] in LAUNCHER_NAMES:
        head, rest = rest[2], [rest[2]] + rest[3:]
    if head in ("torchrun", "deepspeed", "torch.distributed.run", "torch.distributed.launch") or (head == "accelerate" and rest[1:2] == ["launch"]):
        skip = 2 if head == "accelerate" else 1
        found, stop = _options(rest[skip:], stop_at_program=True)
        launcher = LAUNCHER_NAMES[head]
        launcher_options = launcher_options + [(n, v) for n, v, _ in found]
        rest = rest[skip + stop:]
        head = rest[0].rsplit("/", 1)[-1] if rest else ""
    program = None
    if head in ("python", "python3"):
        rest = rest[1:]
        if rest[:1] == ["-m"] and len(rest) > 1:
            program, rest = rest[1], rest[2:]
        elif rest and not rest[0].startswith("-"):
            program, rest = rest[0], rest[1:]
    elif rest and not rest[0].startswith("-") and "=" not in rest[0]:
        program, rest = rest[0], rest[1:]
    found, _ = _options(rest, stop_at_program=False)
    options = [(n, v) for n, v, _ in found if n]
    positional = [v for n, v, _ in found if not n]
    return {"launcher": launcher, "launcher_options": launcher_options, "program": program, "options": options,
            "positional": positional}


def settings_of(command: dict, line: int, program_framework: str) -> list[Setting]:
    """The command's options as settings, the launcher's under the launcher's framework."""
    launcher = command["launcher"] or ""
    # accelerate launch --num_processes 8 sets the same keys as its config file (num_processes: 8)
    rename = (lambda name: name.lstrip("-").replace("-", "_")) if launcher == "accelerate" else (lambda name: name)
    switches = {"use_fsdp": "FSDP", "use_deepspeed": "DEEPSPEED", "multi_gpu": "MULTI_GPU", "use_megatron_lm": "MEGATRON_LM"}
    settings = [Setting("distributed_type", switches[rename(name)], line, launcher) if launcher == "accelerate" and rename(name) in switches
                else Setting(rename(name), value, line, launcher) for name, value in command["launcher_options"]]
    settings += [Setting(name, value, line, program_framework) for name, value in command["options"]]
    return settings
