"""Quantities stated in a text (chips, batch, bandwidth, MFU, ...) with the role each plays."""

import re
from dataclasses import dataclass

from calculators import CalculatorInputError
from calculators.units import parse_text

_ARABIC_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩٫٬", "0123456789.,")
_NUM = r"(?<![A-Za-z0-9_.])(\d[\d,]*(?:\.\d+)?(?:[eE][+-]?\d+)?)"
_MULT = r"\s*(k|K|M|B|T|G|thousand|million|billion|trillion)?"


@dataclass(frozen=True)
class Quantity:
    """A number from the text, in SI units, with the calculator field it feeds."""

    role: str
    value: float
    text: str
    start: int


# (role, unit kind for parsing, pattern). The first capture is the number, the second its multiplier or unit.
_RULES: list[tuple[str, str, re.Pattern]] = [
    ("n_chips", "count", re.compile(_NUM + _MULT + r"\s*(?:x\s*)?(?:(?:NVIDIA|Google|TPU\s*v?\d+[a-z]*|[A-Z]{1,3}\d{2,4}[A-Za-z]*)\s+)*"
                                    r"(?:GPUs|TPUs|chips|accelerators|devices|H100s|H800s|H200s|B200s|A100s|GPU|TPU)\b"
                                    # "72 GPUs in NVL72", "8 GPUs per node" describe a machine, not the job's size
                                    r"(?!\s+(?:in|per|inside|within|each|on\s+(?:a|one|each)\s+(?:node|server|board|rack))\b)")),
    ("tokens_per_s", "count", re.compile(_NUM + _MULT + r"\s*(?:tokens?/s|tok/s|tokens per second)")),
    ("global_batch_tokens", "count", re.compile(r"batch(?:\s+size)?(?:\s+of|\s*[:=]|\s+is)?\s*(?:~|about\s+)?" + _NUM + _MULT + r"\s*(?:tokens?)?", re.I)),
    ("global_batch_tokens", "count", re.compile(_NUM + _MULT + r"[-\s]*tokens?\s+(?:global\s+)?batch", re.I)),
    ("tokens", "count", re.compile(r"(?:trained on|training on|train on|pre-?trained on)\s*(?:~|about\s+)?" + _NUM + _MULT + r"\s*tokens?", re.I)),
    ("params", "count", re.compile(_NUM + r"[-\s]*(B|T|billion|trillion)[-\s]*(?:parameters?|params?)\b", re.I)),
    ("microbatches", "count", re.compile(_NUM + r"\s*micro-?batch(?:es)?", re.I)),
    ("microbatches", "count", re.compile(r"micro-?batch(?:es)?\s*(?:[:=]|of)?\s*" + _NUM + r"()", re.I)),
    ("pp_degree", "count", re.compile(_NUM + r"()(?:-way|\s*way)\s+(?:PP|pipeline)", re.I)),
    ("pp_degree", "count", re.compile(r"\b(?:PP|pipeline(?:\s+parallel(?:ism)?)?(?:\s+degree)?)\s*(?:=|:|of|degree(?:\s+of)?)\s*" + _NUM + r"()", re.I)),
    ("pp_degree", "count", re.compile(_NUM + r"()\s*(?:pipeline\s+)?stages", re.I)),
    ("tp_degree", "count", re.compile(_NUM + r"()(?:-way|\s*way)\s+(?:TP|tensor)", re.I)),
    ("tp_degree", "count", re.compile(r"\b(?:TP|tensor(?:\s+parallel(?:ism)?)?(?:\s+degree)?)\s*(?:=|:|of|degree(?:\s+of)?)\s*" + _NUM + r"()", re.I)),
    ("bandwidth_bytes_per_s", "bytes_per_s", re.compile(_NUM + r"\s*((?:[kMGTP]i?)?(?:B|b)(?:/s|ps))")),
    ("peak_flop_per_s", "flop_per_s", re.compile(_NUM + r"\s*((?:[kMGTPE])?(?:FLOP/s|FLOPS|flop/s))")),
    ("mfu", "fraction", re.compile(r"(?:MFU|model flops utili[sz]ation)\s*(?:of|=|:|is|at|around|about|~)?\s*(?:~\s*)?" + _NUM + r"\s*(%)", re.I)),
    ("mfu", "fraction", re.compile(_NUM + r"\s*(%)\s*(?:MFU|model flops utili[sz]ation)", re.I)),
    ("step_time_s", "seconds", re.compile(r"(?:step|iteration)(?:\s+time)?\s*(?:of|=|:|is|takes)?\s*" + _NUM + r"\s*(ms|s|seconds?)\b", re.I)),
    ("seq_len", "count", re.compile(r"(?:sequence length|seq(?:uence)?[_\s-]*len|context(?:\s+length)?)\s*(?:of|=|:)?\s*" + _NUM + _MULT, re.I)),
]


def find_quantities(text: str) -> list[Quantity]:
    """Every quantity the rules recognise, first occurrence per role wins when they conflict."""
    text = text.translate(_ARABIC_DIGITS)
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []
    for role, kind, pattern in _RULES:
        for match in pattern.finditer(text):
            span = match.span()
            if any(span[0] < end and start < span[1] for start, end in taken):
                continue
            groups = match.groups()
            number, unit = groups[0], (groups[1] if len(groups) > 1 and groups[1] else "")
            try:
                value = parse_text(role, f"{number} {unit}".strip(), kind)
            except CalculatorInputError:
                continue
            if value <= 0:
                continue
            found.append(Quantity(role, value, match.group(0).strip(), span[0]))
            taken.append(span)
    return sorted(found, key=lambda q: q.start)


def first_by_role(quantities: list[Quantity]) -> dict[str, Quantity]:
    """The first stated value of each role."""
    chosen: dict[str, Quantity] = {}
    for quantity in quantities:
        chosen.setdefault(quantity.role, quantity)
    return chosen
