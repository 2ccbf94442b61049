"""Where a configuration sits in the input (the whole text, a fenced block, or pasted lines in a thread) and its format."""

import re
from dataclasses import dataclass

_FENCE = re.compile(r"^(```+|~~~+)[ \t]*([\w+.-]*)[^\n]*\n(.*?)^\1[ \t]*$", re.S | re.M)
_FENCE_FORMATS = {"yaml": "yaml", "yml": "yaml", "toml": "toml", "json": "json", "jsonc": "json", "json5": "json",
                  "bash": "shell", "sh": "shell", "shell": "shell", "console": "shell", "zsh": "shell", "text": None, "": None}
_SHELL_LINE = re.compile(r"^\s*(--?[A-Za-z][\w-]*|[A-Za-z_]\w*\+?=|export\s|torchrun\b|deepspeed\b|accelerate\s+launch|python3?\s|srun\b|"
                         r"mpirun\b|#!|\)\s*$|\\\s*$|if\s|fi\b|else\b|then\b|\$\{?\w|cd\s|mkdir\s|echo\s|set\s|done\b|for\s|case\s|esac\b|"
                         r"\"--|'--|uv\s+run)")
_YAML_LINE = re.compile(r"^\s*(-\s+)?[A-Za-z_][\w.\-/]*\s*:(\s|$)|^\s*-\s+\S|^\s*#|^---\s*$")
_TOML_LINE = re.compile(r"^\s*\[\[?[\w.\-\"]+\]\]?\s*$|^\s*[\w.\-\"]+\s*=\s*\S|^\s*#")
_OVERRIDES = re.compile(r"(?:^|\s)\+{0,2}[A-Za-z_][\w.]*=\S+")
_FLAG = re.compile(r"(?:^|\s)--[a-z][\w-]+")


@dataclass
class Block:
    """A candidate configuration: its text, format, and the lines it spans in the input (1-based, inclusive)."""

    text: str
    format: str  # shell, yaml, toml, json
    start_line: int
    end_line: int
    fenced: bool = False


def _guess_format(text: str) -> str | None:
    """shell, json, toml or yaml, from the text's shape; None when it looks like none of them."""
    stripped = text.strip()
    if not stripped:
        return None
    if stripped.startswith("{") and ('":' in stripped or stripped.endswith("}")):
        return "json"  # also when it does not close: the JSON parser then names the line
    lines = [line for line in stripped.splitlines() if line.strip() and not line.strip().startswith("#")]
    if not lines:
        return None
    if any(re.match(r"^\s*\[[\w.\-]+\]\s*$", line) for line in lines) and \
            sum(bool(_TOML_LINE.match(line)) for line in lines) >= 0.8 * len(lines):
        return "toml"
    shellish = sum(bool(_SHELL_LINE.match(line)) for line in lines)
    yamlish = sum(bool(_YAML_LINE.match(line)) for line in lines)
    if "\\\n" in stripped or re.search(r"^\s*(torchrun|deepspeed|accelerate\s+launch|python3?|srun|export)\b", stripped, re.M) \
            or shellish > yamlish:
        return "shell"
    if yamlish >= 0.8 * len(lines):
        return "yaml"
    if sum(bool(_TOML_LINE.match(line)) for line in lines) >= 0.8 * len(lines):
        return "toml"
    return None


def blocks(text: str) -> list[Block]:
    """The configuration candidates of `text`: fenced blocks, else the whole text, else runs of pasted config lines."""
    found = []
    for match in _FENCE.finditer(text):
        body = match.group(3)
        start = text.count("\n", 0, match.start(3)) + 1
        hint = _FENCE_FORMATS.get(match.group(2).lower(), None)
        form = hint or _guess_format(body)
        if form:
            found.append(Block(body, form, start, start + body.count("\n") - 1, fenced=True))
    if found:
        return found
    whole = _guess_format(text)
    if whole and _mostly_config(text, whole):
        return [Block(text, whole, 1, text.count("\n") + 1)]
    return _pasted_runs(text)


def _mostly_config(text: str, form: str) -> bool:
    """Whether the whole input is a configuration rather than prose with some in it."""
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if form == "json":
        return True
    matcher = {"shell": _SHELL_LINE, "yaml": _YAML_LINE, "toml": _TOML_LINE}[form]
    prose = [line for line in lines if not matcher.match(line) and _is_prose(line)]
    # one sentence in a short paste is the writer talking about the config, not part of it: read it as prose
    return len(prose) <= len(lines) // 10


def _is_prose(line: str) -> bool:
    """A line of sentences: several words of letters, ending as sentences do or long, with no option syntax."""
    words = line.split()
    letters = sum(1 for word in words if re.fullmatch(r"[^\W\d_][\w'’,.;:?!()-]*", word))
    return len(words) >= 3 and letters >= 0.7 * len(words) and not _FLAG.search(line) and "=" not in line


# Words of a sentence, never of a command line's values: a line with three of them outside its flags is prose.
_FUNCTION_WORDS = frozenset("i we you they it my our your and or but also if when while because so as to with without "
                            "of for in on at by from the a an is are was were be been have has had do does did use used "
                            "using tried try get got set enable enabled assume think this that these those which what "
                            "how why may could should would can will not well".split())
SENTENCE_WORDS = 3


def sentence_with_options(line: str) -> bool:
    """Whether a line is a sentence that mentions options rather than a command that sets them ("I have also used
    --overlap-grad-reduce and --overlap-param-gather"): it does not open as a command or a setting does, at least
    SENTENCE_WORDS words outside its flags are words only sentences use, and some flag is followed by punctuation, a
    bracket or such a word instead of a value. "We run --tensor-model-parallel-size 8 on 16 H100s" sets a value: read."""
    if _SHELL_LINE.match(line) or _OVERRIDES.match(line) or not _MENTIONED_FLAG.search(line):
        return False  # ("Note: when you pass --x and --y ..." opens like a YAML key, and is a sentence all the same)
    outside = _MENTIONED_FLAG.sub(" ", line)
    words = [w.strip("(),.;:!?'\"`").lower() for w in outside.split()]
    if sum(w in _FUNCTION_WORDS for w in words) < SENTENCE_WORDS:
        return False
    for after in _AFTER_FLAG.finditer(line):
        if after.group("mark") or after.group("word").lower() in _FUNCTION_WORDS:
            return True
    return False


# A flag in a sentence, bare or in backticks ("pass `--tp-comm-overlap` with ..."), with its "=value" if any.
_MENTIONED_FLAG = re.compile(r"(?:^|(?<=[\s`(]))--[A-Za-z][\w.-]*(?:=\S+)?")
# What follows a flag: punctuation or a bracket ("--tp-comm-overlap (I assume"), or the next word ("and").
_AFTER_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w.-]*?(?:(?P<mark>[,.;:)`]|\s*\(|\s*$)|\s+(?P<word>[A-Za-z']+)\b)")


def _pasted_runs(text: str) -> list[Block]:
    """Runs of configuration lines pasted among prose (no fences): at least three lines, or one command line with options."""
    lines = text.splitlines()
    found, index = [], 0
    while index < len(lines):
        line = lines[index]
        if line.strip().startswith("{"):
            end = _json_end(lines, index)
            if end is not None:
                body = "\n".join(lines[index:end + 1])
                found.append(Block(body, "json", index + 1, end + 1))
                index = end + 1
                continue
        kind = _line_kind(line)
        if kind in (None, "blank"):
            index += 1
            continue
        end = index
        while end + 1 < len(lines) and (_line_kind(lines[end + 1]) in (kind, "blank") or
                                         (lines[end].rstrip().endswith("\\") and lines[end + 1].strip())):
            end += 1
        while end > index and not lines[end].strip():
            end -= 1
        body = "\n".join(lines[index:end + 1])
        count = sum(1 for item in lines[index:end + 1] if item.strip())
        if count >= 3 or (kind == "shell" and (len(_FLAG.findall(body)) >= 2 or len(_OVERRIDES.findall(body)) >= 2)):
            found.append(Block(body, kind, index + 1, end + 1))
        index = end + 1
    return found


_TRAILING_COMMENT = re.compile(r"\s+#.*$")


def _line_kind(line: str) -> str | None:
    if not line.strip() or line.lstrip().startswith("#"):
        return "blank"  # a comment continues whatever block it sits in
    # "ici_fsdp_parallelism: -1 # recommended ICI axis to be auto-sharded": the trailing comment's words are not prose
    line = _TRAILING_COMMENT.sub("", line)
    if _is_prose(line) or _sentence_with_settings(line):
        return None
    if _SHELL_LINE.match(line) or len(_FLAG.findall(line)) >= 2 or len(_OVERRIDES.findall(line)) >= 2:
        return "shell"
    if re.match(r"^\s*\[[\w.\-]+\]\s*$", line):
        return "toml"
    if _YAML_LINE.match(line) and not line.strip().startswith("#"):
        return "yaml"
    return None


def _sentence_with_settings(line: str) -> bool:
    """Whether a line is a sentence that reports settings ("Qwen3-235B, ep8 x fsdp8 (64 trainer ranks over 8 nodes), offload
    on, mixed_precision=false, ... i.e. the repro script above with NNODES_TRAIN=8 EP_SIZE=8"): it opens as no command or
    setting does, has no flags, and outside its KEY=VALUE pairs it has words only sentences use and more words than settings."""
    if _SHELL_LINE.match(line) or _FLAG.search(line):
        return False  # "We run --tensor-model-parallel-size 8 on 16 H100s" sets options a reader wants checked
    outside = _OVERRIDES.sub(" ", line)
    words = [w.strip("(),.;:!?'\"`").lower() for w in outside.split()]
    return sum(w in _FUNCTION_WORDS for w in words) >= SENTENCE_WORDS and len(words) > 2 * len(_OVERRIDES.findall(line))


def _json_end(lines: list[str], start: int) -> int | None:
    """The line closing a JSON object opened on line `start` (braces counted outside strings)."""
    depth, in_string = 0, False
    for index in range(start, len(lines)):
        previous = ""
        for char in lines[index]:
            if in_string:
                if char == '"' and previous != "\\":
                    in_string = False
            elif char == '"':
                in_string = True
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    return index
            previous = char
    return None


def inline_commands(text: str) -> list[Block]:
    """A command line written inside a sentence ("I run `torchrun ... --tensor-model-parallel-size 8`"): backticked spans with options."""
    found = []
    for match in re.finditer(r"(?<!`)`([^`\n]+)`(?!`)", text):
        span = match.group(1)
        if len(_FLAG.findall(span)) >= 2 or (_FLAG.search(span) and re.match(r"\s*(torchrun|deepspeed|python|accelerate)", span)):
            line = text.count("\n", 0, match.start()) + 1
            found.append(Block(span, "shell", line, line))
    return found
