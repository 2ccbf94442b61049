"""One option as a configuration sets it, and a whole configuration as read: the shape every parser gives."""

import re
from dataclasses import dataclass, field

_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")


@dataclass
class Setting:
    """An option as written (`--tensor-model-parallel-size`, `zero_optimization.stage`), its value and where it is."""

    name: str
    value: object
    line: int | None = None  # 1-based line within the configuration
    framework: str = ""  # whose option table explains it (a launcher's options are the launcher's)


@dataclass
class ParsedConfig:
    """A configuration as read: its framework, its settings in order, and what could not be read."""

    framework: str
    format: str  # shell, command, yaml, toml, json, overrides
    settings: list[Setting] = field(default_factory=list)
    launcher: str | None = None  # torchrun, deepspeed-launcher, accelerate, srun
    program: str | None = None  # the training program a command line starts (pretrain_gpt.py, MaxText.train)
    unresolved: list[str] = field(default_factory=list)  # shell references the script does not set
    notes: list[str] = field(default_factory=list)  # one line each for what could not be read
    files: list[str] = field(default_factory=list)  # files it includes or points to that are not in the input
    start_line: int = 1  # where the configuration starts in the input
    text: str = ""

    def value(self, *names: str):
        """The last value set for any of `names` (a later setting wins, as argparse and YAML merges do), else None."""
        found = None
        for setting in self.settings:
            if setting.name in names:
                found = setting.value
        return found

    def has(self, *names: str) -> bool:
        return any(setting.name in names for setting in self.settings)


def typed(text):
    """A word as the value it spells: whole number, decimal, true/false, null, else the text itself."""
    if not isinstance(text, str):
        return text
    stripped = text.strip()
    if _INT.match(stripped):
        return int(stripped)
    if _FLOAT.match(stripped):
        return float(stripped)
    lowered = stripped.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("null", "none", "~"):
        return None
    return stripped
