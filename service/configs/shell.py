"""Shell launch scripts read as bash would for the parts that matter: variables, arrays, continuations, the launch line.

Not a shell: only assignments (VAR=..., export VAR=..., VAR=( ... ), VAR+=( ... )), ${VAR:-default},
$((arithmetic)) and simple [[ ... ]] string tests are understood; anything else a value depends on
(command substitution, an unset environment variable, a positional argument without a default) is
left as written and named in `unresolved`.
"""

import ast
import operator
import re
import shlex
from dataclasses import dataclass, field

_ASSIGN = re.compile(r"^(?:export\s+|declare\s+(?:-\w+\s+)*|local\s+|readonly\s+)?([A-Za-z_][A-Za-z0-9_]*)(\+?)=(.*)$", re.S)
_REFERENCE = re.compile(
    r"\$\(\((?P<arith>.*?)\)\)"                          # $((arithmetic))
    r"|\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*|[0-9]+)(?P<index>\[[@*]\])?(?::?-(?P<default>[^}]*))?\}"
    r"|\$(?P<bare>[A-Za-z_][A-Za-z0-9_]*|[0-9])"
    r"|\$\((?P<command>[^()]*)\)"                         # $(command): never run
)
_HEREDOC = re.compile(r"<<-?\s*['\"]?([A-Za-z_]\w*)['\"]?")
HEREDOC = "\0heredoc\0"  # marks a logical line that holds a here-document's body
# Programs and launchers whose command line carries the training options.
LAUNCHERS = ("torchrun", "deepspeed", "accelerate", "python", "python3", "srun", "mpirun", "bash", "uv", "nemo", "nemo_run")
_ARITH_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
              ast.Div: operator.floordiv, ast.Mod: operator.mod}


@dataclass
class ShellReading:
    """What a script sets and runs: its variables, each command as words with line numbers, and what stayed unresolved."""

    variables: dict = field(default_factory=dict)  # name -> str, or list of words (an array)
    commands: list = field(default_factory=list)  # (first line, words)
    documents: list = field(default_factory=list)  # (first line, text) of here-documents (a JSON the script writes)
    unresolved: list = field(default_factory=list)
    skipped: list = field(default_factory=list)  # lines that could not be split (unbalanced quotes), one note each


def logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, text) with backslash continuations and multi-line quoted strings joined, comments removed."""
    out: list[tuple[int, str]] = []
    buffer, start, quote, heredoc = "", 0, None, None
    for number, raw in enumerate(text.splitlines(), 1):
        if heredoc is not None:  # the body of `cat <<EOT > file` is a file the script writes, kept whole
            marker, first, body = heredoc
            if raw.strip() == marker:
                out.append((first, HEREDOC + "\n".join(body)))
                heredoc = None
            else:
                body.append(raw)
            continue
        opened = _HEREDOC.search(raw) if not quote and not buffer else None
        if opened:
            out.append((number, raw.strip()))
            heredoc = (opened.group(1), number + 1, [])
            continue
        line, quote = _strip_comment(raw, quote)
        if not buffer:
            start = number
        if line.rstrip().endswith("\\"):
            buffer += line.rstrip()[:-1] + " "
            continue
        buffer += line
        if quote:  # a quoted string goes on to the next line
            buffer += " "
            continue
        if buffer.strip():
            out.append((start, buffer.strip()))
        buffer = ""
    if buffer.strip():
        out.append((start, buffer.strip()))
    return out


def _strip_comment(line: str, quote: str | None = None) -> tuple[str, str | None]:
    """The line without a # comment (a # inside quotes or a word, as in ${#A} or a URL, is kept), and the quote left open."""
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[:index], None
    return line, quote


class Interpreter:
    """Walks the logical lines, tracking variables and if/else branches, collecting the commands."""

    def __init__(self, environment: dict | None = None):
        self.reading = ShellReading(variables=dict(environment or {}))

    # ------------------------------------------------------------------------------------------- values

    def expand(self, text: str) -> str:
        """`text` with every reference the script resolves substituted; the others kept as written."""
        def substitute(match: re.Match) -> str:
            if match.group("arith") is not None:
                value = self._arithmetic(self.expand(match.group("arith").replace("$", "")))
                return match.group(0) if value is None else str(value)
            if match.group("command") is not None:
                return match.group(0)
            name = match.group("name") or match.group("bare")
            value = self.reading.variables.get(name)
            if value is None and match.group("default") is not None:
                return self.expand(_unquote(match.group("default")))
            if value is None:
                return match.group(0)
            return " ".join(value) if isinstance(value, list) else value
        # "${ARGS[@]}" gives each element as its own word: read like the unquoted form, whose words are split again below.
        text = re.sub(r'"(\$\{[A-Za-z_][A-Za-z0-9_]*\[[@*]\]\})"', r"\1", text)
        previous = None
        for _ in range(8):  # a value may hold further references; bounded, so a self-reference cannot loop
            if text == previous:
                break
            previous, text = text, _REFERENCE.sub(substitute, text)
        return text

    def _arithmetic(self, expression: str):
        def value(node):
            if isinstance(node, ast.Constant) and isinstance(node.value, int):
                return node.value
            if isinstance(node, ast.Name) and isinstance(self.reading.variables.get(node.id), str):
                return int(self.reading.variables[node.id]) if self.reading.variables[node.id].lstrip("-").isdigit() else None
            if isinstance(node, ast.BinOp) and type(node.op) in _ARITH_OPS:
                left, right = value(node.left), value(node.right)
                if left is None or right is None or (isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and right == 0):
                    return None
                return _ARITH_OPS[type(node.op)](left, right)
            if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
                inner = value(node.operand)
                return None if inner is None else -inner
            return None
        try:
            return value(ast.parse(expression.strip(), mode="eval").body)
        except (SyntaxError, ValueError):
            return None

    def words(self, text: str, line: int) -> list[str] | None:
        """The words of `text` after expansion, or None (noted) when its quotes do not balance."""
        try:
            return shlex.split(self.expand(text), posix=True)
        except ValueError as exc:
            self.reading.skipped.append(f"line {line}: cannot split the words ({exc})")
            return None

    # ------------------------------------------------------------------------------------------ control

    def run(self, text: str) -> ShellReading:
        for name, value in slurm_directives(text).items():  # #SBATCH --nodes=24 sets $SLURM_NNODES for the script
            self.reading.variables.setdefault(name, value)
        lines = logical_lines(text)
        self._block(lines, 0, len(lines), active=True)
        return self.reading

    def _block(self, lines, start: int, end: int, active: bool) -> None:
        index = start
        while index < end:
            number, line = lines[index]
            if re.match(r"^if\b", line):
                index = self._if(lines, index, end, active)
                continue
            if re.match(r"^case\b", line):
                index = self._case(lines, index, end, active)
                continue
            if re.match(r"^(for|while|until)\b", line):
                index = self._skip_to(lines, index, end, ("done",), ("for", "while", "until"))
                continue
            if line.startswith(HEREDOC) and not active:
                index += 1
                continue
            if active:
                index = self._statement(lines, index, end)
            else:
                index += 1 + self._array_length(lines, index, end)
        return None

    def _skip_to(self, lines, index, end, closers, openers) -> int:
        depth = 0
        while index < end:
            first = lines[index][1].split()[0] if lines[index][1].split() else ""
            first = first.rstrip(";")
            if first in openers:
                depth += 1
            if first in closers or lines[index][1].rstrip(";").endswith(tuple(f" {c}" for c in closers)):
                depth -= 1
                if depth <= 0:
                    return index + 1
            index += 1
        return end

    def _if(self, lines, index, end, active) -> int:
        """An if/elif/else/fi block: the first branch whose condition holds (or the first branch, when it cannot be told)."""
        branches, depth, cursor = [], 0, index
        condition = lines[index][1]
        body_start = index + 1
        while cursor < end:
            number, line = lines[cursor]
            head = line.split()[0].rstrip(";") if line.split() else ""
            if cursor != index and head == "if":
                depth += 1
            elif head == "fi" or line.endswith("; fi"):
                if depth == 0:
                    branches.append((condition, body_start, cursor))
                    break
                depth -= 1
            elif depth == 0 and cursor != index and head in ("elif", "else"):
                branches.append((condition, body_start, cursor))
                condition, body_start = (line if head == "elif" else None), cursor + 1
            cursor += 1
        else:
            branches.append((condition, body_start, end))
        taken = False
        for condition, first, last in branches:
            verdict = True if condition is None else self._test(condition)
            run = active and not taken and verdict is not False
            self._block(lines, first, last, run)
            taken = taken or run
        return cursor + 1

    def _case(self, lines, index, end, active) -> int:
        """case WORD in PATTERN) ... ;; esac: the branch whose pattern matches the word (glob patterns as bash does)."""
        import fnmatch

        match = re.match(r"^case\s+(.*?)\s+in\b(.*)$", lines[index][1])
        subject = None
        if match:
            words = self.words(match.group(1), lines[index][0])
            subject = words[0] if words and "$" not in words[0] else None
        cursor, taken, running = index + 1, False, False
        while cursor < end:
            number, line = lines[cursor]
            if line.rstrip(";").strip() == "esac":
                return cursor + 1
            head = re.match(r"^\(?\s*([^()]*?)\s*\)\s*(.*)$", line)
            if head and not running:
                patterns = [_unquote(p) for p in head.group(1).split("|")]
                running = active and not taken and (subject is None and not taken or
                                                    subject is not None and any(fnmatch.fnmatchcase(subject, p) for p in patterns))
                taken = taken or running
                line = head.group(2)
                if not line:
                    cursor += 1
                    continue
            ends = line.rstrip().endswith(";;")
            body = line.rstrip().removesuffix(";;").strip()
            if running and body:
                self._block([(number, body)], 0, 1, True)
            if ends:
                running = False
            cursor += 1
        return cursor

    def _test(self, condition: str):
        """True, False, or None when a [[ ... ]] / [ ... ] test joined by && and || cannot be evaluated."""
        body = re.sub(r"^(el)?if\s+|;?\s*then\s*$", "", condition.strip())
        parts = re.split(r"\s*(\|\||&&)\s*", body)
        result, joiner = None, None
        for part in parts:
            if part in ("||", "&&"):
                joiner = part
                continue
            verdict = self._one_test(part)
            if joiner is None:
                result = verdict
            elif joiner == "||":
                result = True if (result or verdict) else (None if None in (result, verdict) else False)
            else:
                result = False if (result is False or verdict is False) else (None if None in (result, verdict) else True)
        return result

    def _one_test(self, part: str):
        inner = re.sub(r"^\[\[?\s*|\s*\]\]?$", "", part.strip())
        try:
            words = shlex.split(self.expand(inner))
        except ValueError:
            return None
        if any("$" in w for w in words):
            return None
        negate = words[:1] == ["!"]
        words = words[1:] if negate else words
        verdict = None
        if len(words) == 3 and words[1] in ("==", "=", "!="):
            verdict = (words[0] == words[2]) == (words[1] != "!=")
        elif len(words) == 2 and words[0] in ("-z", "-n"):
            verdict = (words[1] == "") == (words[0] == "-z")
        elif len(words) == 1 and words[0] == "":
            verdict = False
        if verdict is None:
            return None
        return not verdict if negate else verdict

    def _array_length(self, lines, index, end) -> int:
        """How many further logical lines an array assignment opened on line `index` spans."""
        match = _ASSIGN.match(lines[index][1])
        if not match or not match.group(3).startswith("(") or _closes(match.group(3)):
            return 0
        extra = 0
        while index + extra + 1 < end:
            extra += 1
            if _closes(lines[index + extra][1], opened=True):
                break
        return extra

    def _statement(self, lines, index, end) -> int:
        number, line = lines[index]
        if line.startswith(HEREDOC):
            self.reading.documents.append((number, self.expand(line[len(HEREDOC):])))
            return index + 1
        match = _ASSIGN.match(line)
        if match and _is_assignment(match.group(3)):
            name, append, value = match.groups()
            if value.startswith("("):
                extra = self._array_length(lines, index, end)
                body = " ".join([value[1:]] + [text for _, text in lines[index + 1:index + extra + 1]])
                body = body[:body.rfind(")")] if ")" in body else body
                words = self.words(body, number) or []
                current = self.reading.variables.get(name)
                if append and isinstance(current, list):
                    words = current + words
                elif append and isinstance(current, str):
                    words = [current] + words
                self.reading.variables[name] = words
                return index + extra + 1
            if value.startswith("$(") and not value.startswith("$(("):
                return index + 1  # a command's output: never run, so the name stays unresolved where it is used
            words = self.words(value, number)
            text = " ".join(words) if words is not None else value
            if append:
                text = self._as_text(name) + text
            self.reading.variables[name] = text
            return index + 1
        for command in _split_commands(line):
            self._command(number, command)
        return index + 1

    def _as_text(self, name: str) -> str:
        value = self.reading.variables.get(name, "")
        return " ".join(value) if isinstance(value, list) else value

    def _command(self, number: int, text: str) -> None:
        words = self.words(text, number)
        if not words:
            return
        words = _without_redirections(words)
        if not words:
            return
        # Leading VAR=value words set the command's environment (CUDA_DEVICE_MAX_CONNECTIONS=1 torchrun ...).
        while words and _ASSIGN.match(words[0]) and "=" in words[0]:
            name, _, value = words[0].partition("=")
            self.reading.variables.setdefault(name, value)
            words = words[1:]
        if words:
            self.reading.commands.append((number, words))


_SBATCH_VARIABLES = {"--nodes": ("SLURM_NNODES", "SLURM_JOB_NUM_NODES"), "-N": ("SLURM_NNODES", "SLURM_JOB_NUM_NODES"),
                     "--ntasks-per-node": ("SLURM_NTASKS_PER_NODE",), "--ntasks": ("SLURM_NTASKS",), "-n": ("SLURM_NTASKS",),
                     "--gpus-per-node": ("SLURM_GPUS_PER_NODE",), "--gres": ("SLURM_GPUS_PER_NODE",)}


def slurm_directives(text: str) -> dict:
    """The environment Slurm gives a batch script from its #SBATCH lines (nodes, tasks, GPUs per node)."""
    found = {}
    for line in text.splitlines():
        match = re.match(r"^#SBATCH\s+(\S+)(?:\s+(\S+))?", line)
        if not match:
            continue
        option, _, value = match.group(1).partition("=")
        value = value or (match.group(2) or "")
        if option == "--gres":
            gpus = re.search(r"gpu(?::[\w-]+)?:(\d+)", value)
            value = gpus.group(1) if gpus else ""
        value = value.split("-")[-1] if option in ("--nodes", "-N") else value  # a range 2-4: at most 4
        if value.isdigit():
            for name in _SBATCH_VARIABLES.get(option, ()):
                found[name] = value
    return found


def _split_commands(line: str) -> list[str]:
    """The commands of one line, split at ;, &&, || and | outside quotes."""
    parts, current, quote, index = [], [], None, 0
    while index < len(line):
        char = line[index]
        if quote:
            current.append(char)
            if char == quote:
                quote = None
            elif char == "\\" and quote == '"' and index + 1 < len(line):
                current.append(line[index + 1])
                index += 1
        elif char in "'\"":
            quote = char
            current.append(char)
        elif char == "\\" and index + 1 < len(line):
            current += [char, line[index + 1]]
            index += 1
        elif line.startswith(("&&", "||"), index):
            parts.append("".join(current))
            current = []
            index += 1
        elif char in ";|" and not (char == "|" and index > 0 and line[index - 1] == ">"):
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        index += 1
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()]


def _without_redirections(words: list[str]) -> list[str]:
    """A command's words without its redirections (2>&1, > log, >> file, < input)."""
    out, skip = [], False
    for word in words:
        if skip:
            skip = False
            continue
        if re.fullmatch(r"\d*(>>?|<)", word) or word in ("&>", "&>>"):
            skip = True
            continue
        if re.fullmatch(r"\d*(>>?|<)&?\S*", word) and not word.startswith("-"):
            continue
        out.append(word)
    return out


def _is_assignment(value: str) -> bool:
    """VAR=value alone on its line, not VAR=value before a command (CUDA_DEVICE_MAX_CONNECTIONS=1 torchrun ...)."""
    if value.startswith(("(", "$(")):
        return True
    try:
        return len(shlex.split(value)) <= 1
    except ValueError:
        return True


def _closes(text: str, opened: bool = False) -> bool:
    """Whether an array's text closes its parenthesis on this line (outside quotes)."""
    depth, quote = (1 if opened else 0), None
    for char in text:
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return True
    return False


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def read_script(text: str) -> ShellReading:
    """Variables, commands and unresolved references of a shell script or pasted command line."""
    return Interpreter().run(text)


def unresolved_in(words: list[str]) -> list[str]:
    """The references left in `words` that the script did not resolve ($1, ${DATA_PATH}, $(hostname)), each once."""
    found = []
    for word in words:
        for match in _REFERENCE.finditer(word):
            name = match.group("name") or match.group("bare")
            label = f"${name}" if name else match.group(0)
            if label not in found:
                found.append(label)
    return found


_NOT_LAUNCHERS = {"echo", "printf", "cat", "tee", "mkdir", "rm", "cp", "mv", "ls", "cd", "set", "source", ".", "export", "exit",
                  "sleep", "wait", "trap", "kill", "grep", "sed", "awk", "head", "tail", "touch", "chmod", "pip", "git", "clear", "date"}


def launch_commands(reading: ShellReading) -> list[tuple[int, list[str]]]:
    """The commands that start training (a launcher or a python program with options), in order."""
    found = []
    for number, words in reading.commands:
        head = words[0].rsplit("/", 1)[-1]
        if head in _NOT_LAUNCHERS:
            continue
        if head in LAUNCHERS or head.endswith(".py") or (len(words) > 2 and sum(w.startswith("--") for w in words) >= 2):
            if head in ("bash",) and not any(w.startswith("--") for w in words):
                continue
            found.append((number, words))
    return found
