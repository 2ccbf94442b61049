"""YAML, TOML and JSON configurations flattened to dotted keys, each with its line; a file that does not parse is one line naming where."""

import json
import re

from service.configs.setting import Setting

_INTERPOLATION = re.compile(r"\$\{([A-Za-z_][\w.]*)\}")


class ConfigSyntaxError(ValueError):
    """A configuration that its format's parser rejects; the message names the line."""


# ------------------------------------------------------------------------------------------------ YAML

def read_yaml(text: str) -> list[Setting]:
    """Every leaf of a YAML document as a dotted key (lists of scalars as one value), with its 1-based line."""
    import yaml  # here: the parser costs a process 10 ms at import, which a text without YAML never needs

    try:
        documents = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}" if mark else "somewhere"
        raise ConfigSyntaxError(f"the YAML does not parse at {where}: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise ConfigSyntaxError(f"the YAML does not parse: {exc}") from None
    constructor = yaml.SafeLoader("")
    settings: list[Setting] = []
    for document in documents:
        if document is not None:
            _walk_yaml(document, "", settings, constructor)
    _resolve_interpolations(settings)
    return settings


def _walk_yaml(node, prefix: str, out: list, constructor) -> None:
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if key == "<<":  # a YAML merge key: its mapping's keys belong here
                _walk_yaml(value_node, prefix, out, constructor)
                continue
            name = f"{prefix}.{key}" if prefix else key
            if isinstance(value_node, yaml.MappingNode) and value_node.value:
                _walk_yaml(value_node, name, out, constructor)
            else:
                out.append(Setting(name, _yaml_value(value_node, constructor), key_node.start_mark.line + 1))
    elif prefix == "":
        out.append(Setting("", _yaml_value(node, constructor), node.start_mark.line + 1))


def _yaml_value(node, constructor):
    import yaml

    try:
        return constructor.construct_object(node, deep=True)
    except yaml.YAMLError:
        return node.value if isinstance(node, yaml.ScalarNode) else None


_RESOLVERS = {"multiply": lambda a, b: a * b, "divide_ceil": lambda a, b: -(-a // b), "divide_floor": lambda a, b: a // b,
              "sum": lambda a, b: a + b}  # NeMo-Framework-Launcher's OmegaConf resolvers
_INNERMOST = re.compile(r"\$\{([^${}]*)\}")


def _resolve_interpolations(settings: list[Setting]) -> None:
    """OmegaConf's ${a.b} (absolute), ${.b} (relative) and ${multiply:x, y}-style references substituted, innermost first.

    A value that is one whole reference keeps the referred value's type; what cannot be resolved stays as written.
    """
    values = {s.name: s.value for s in settings}

    def lookup(reference: str, owner: str):
        if reference.startswith("."):
            parent = owner.rsplit(".", 1)[0] if "." in owner else ""
            up = len(reference) - len(reference.lstrip("."))
            for _ in range(up - 1):
                parent = parent.rsplit(".", 1)[0] if "." in parent else ""
            reference = f"{parent}.{reference.lstrip('.')}" if parent else reference.lstrip(".")
        candidates = [reference] + [reference.split(".", cut)[-1] for cut in (1, 2) if reference.count(".") >= cut]
        for name in candidates:  # a launcher file mounted under `training:` refers to ${training.model.x}
            if name in values and not _is_reference(values[name]):
                return True, values[name]
        return False, None

    def resolve_one(body: str, owner: str):
        if ":" in body:
            name, _, arguments = body.partition(":")
            function = _RESOLVERS.get(name.strip())
            numbers = []
            for part in arguments.split(","):
                part = part.strip()
                try:
                    numbers.append(float(part) if "." in part else int(part))
                except ValueError:
                    return False, None
            if function is None or len(numbers) != 2 or (name.strip().startswith("divide") and numbers[1] == 0):
                return False, None
            return True, function(*numbers)
        return lookup(body.strip(), owner)

    for _ in range(6):
        changed = False
        for setting in settings:
            value = setting.value
            if not isinstance(value, str) or "${" not in value:
                continue
            def substitute(match):
                ok, found = resolve_one(match.group(1), setting.name)
                return str(found) if ok else match.group(0)
            whole = _INNERMOST.fullmatch(value.strip())
            if whole:
                ok, found = resolve_one(whole.group(1), setting.name)
                new = found if ok else value
            else:
                new = _INNERMOST.sub(substitute, value)
            if new != value:
                setting.value, changed = new, True
                values[setting.name] = new
        if not changed:
            break


def _is_reference(value) -> bool:
    return isinstance(value, str) and "${" in value


# ------------------------------------------------------------------------------------------------ TOML

def read_toml(text: str) -> list[Setting]:
    """Every leaf of a TOML file as a dotted key with its line."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigSyntaxError(f"the TOML does not parse: {exc}") from None
    lines = _toml_lines(text)
    settings: list[Setting] = []
    for name, value in _flatten(data):
        settings.append(Setting(name, value, lines.get(name)))
    return settings


def _toml_lines(text: str) -> dict:
    """The line of each `key = value` under its [section] header, by dotted name."""
    lines, section = {}, ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        header = re.match(r"^\[\[?\s*([^\]]+?)\s*\]\]?", line)
        if header:
            section = header.group(1).replace('"', "").replace(" ", "")
            continue
        key = re.match(r'^([A-Za-z0-9_\-."]+)\s*=', line)
        if key:
            name = key.group(1).replace('"', "")
            lines.setdefault(f"{section}.{name}" if section else name, number)
    return lines


def _flatten(data, prefix: str = ""):
    for key, value in data.items():
        name = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict) and value:
            yield from _flatten(value, name)
        else:
            yield name, value


# ------------------------------------------------------------------------------------------------ JSON

def strip_json_comments(text: str) -> tuple[str, bool]:
    """JSON with // and /* */ comments and trailing commas removed (outside strings), and whether any were."""
    out, index, in_string, changed = [], 0, False, False
    while index < len(text):
        char = text[index]
        if in_string:
            out.append(char)
            if char == "\\" and index + 1 < len(text):
                out.append(text[index + 1])
                index += 2
                continue
            if char == '"':
                in_string = False
        elif char == '"':
            in_string = True
            out.append(char)
        elif text.startswith("//", index) or (char == "#" and (index == 0 or text[index - 1] == "\n")):
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
            changed = True
            continue
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            skipped = text[index:len(text) if end < 0 else end + 2]
            out.append("\n" * skipped.count("\n"))  # lines keep their numbers
            index = len(text) if end < 0 else end + 2
            changed = True
            continue
        else:
            out.append(char)
        index += 1
    cleaned = "".join(out)
    without_commas = re.sub(r",(\s*[}\]])", r"\1", cleaned)
    return without_commas, changed or without_commas != cleaned


def read_json(text: str) -> tuple[list[Setting], bool]:
    """Every leaf of a JSON object as a dotted key with its line, and whether comments had to be removed first."""
    cleaned, stripped = strip_json_comments(text)
    try:
        data = json.loads(cleaned)
    except json.JSONDecodeError as exc:
        raise ConfigSyntaxError(f"the JSON does not parse at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    if not isinstance(data, dict):
        raise ConfigSyntaxError("the JSON is not an object of options")
    settings = [Setting(name, value, locate_key(cleaned, name)) for name, value in _flatten(data)]
    return settings, stripped


def locate_key(text: str, dotted: str) -> int | None:
    """The line of a dotted key in JSON text: each part searched after the line of the part before it."""
    position = 0
    for part in dotted.split("."):
        found = text.find(f'"{part}"', position)
        if found < 0:
            return None
        position = found + len(part) + 2
    return text.count("\n", 0, position) + 1
