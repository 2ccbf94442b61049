"""The one place that finds unjargon's data/ and prompts/ folders, in a source checkout and in an installed wheel.

Both packages read them and calculators/ may not import service/, so the finder lives here. The wheel
force-includes the two top-level folders as calculators/_shipped/data and calculators/_shipped/prompts.
"""

from functools import cache
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_MARKERS = {"data": "hardware.json", "prompts": "VERSION"}


@cache
def resource_dir(name: str) -> Path:
    """The folder `name` (data or prompts): shipped inside the package, or beside it in a checkout."""
    marker = _MARKERS[name]
    for candidate in (_HERE / "_shipped" / name, _HERE.parent / name):
        if (candidate / marker).is_file():
            return candidate
    raise FileNotFoundError(f"unjargon's {name} folder ({name}/{marker}) is missing from the installation")


def data_dir() -> Path:
    """The folder holding hardware.json, models.json, glossary/ and locale/."""
    return resource_dir("data")


def prompts_dir() -> Path:
    """The folder holding the model's Jinja2 templates."""
    return resource_dir("prompts")
