"""Checks that every number in an explanation comes from the input text or from a calculation."""

import re

from calculators.formatting import human_field

# Standalone numbers only: "1F1B", "NVL72", "K2" and "bf16" are names, not quantities.
# Standalone numbers, alone or with a unit glued on ("70B", "3.5TB", "400GB/s"); names such as "1F1B",
# "NVL72", "K2", "bf16" or "ZeRO-3" are not quantities. Arabic letters may touch a number ("و8").
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])(?<![A-Za-z0-9]-)(\d[\d,]*(?:\.\d+)?)"
                     r"(?:[kKMGTPE]i?(?:B|b|FLOPs?)?|B|b|FLOPs?|x|%)?(?:/s)?(?![A-Za-z0-9_])")
_ARABIC_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩٫٬", "0123456789.,")
_LIST_MARKER = re.compile(r"^(\s*)\d+\.\s", re.M)


def numbers_in(text: str) -> list[str]:
    """Every standalone number written in `text`, as written (commas removed)."""
    text = text.translate(_ARABIC_DIGITS)
    return [m.group(1).replace(",", "") for m in _NUMBER.finditer(text)]


def _values(value, name: str, out: set[str]):
    if isinstance(value, dict):
        for key, item in value.items():
            _values(item, key, out)
    elif isinstance(value, list):
        for item in value:
            _values(item, name, out)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, (int, float)):
        out.update(numbers_in(human_field(name, value)))
        out.update(numbers_in(f"{value:g}"))
        out.update(numbers_in(f"{value:,.0f}"))
        if 0 < abs(value) < 1:  # a computed share is shown as a percent ("0.0551" as "5.5%")
            out.update(numbers_in(f"{100 * value:.1f}"))
            out.update(numbers_in(f"{100 * value:.0f}"))
    elif isinstance(value, str):
        out.update(numbers_in(value))


def allowed_numbers(source_text: str, calculations: list[dict]) -> set[str]:
    """Numbers an explanation may state: those in the input and those the calculators produced or used."""
    allowed = set(numbers_in(source_text))
    for calculation in calculations:
        _values(calculation, "", allowed)
        allowed.update(numbers_in(" ".join(_catalog_names(calculation.get("inputs") or {}))))
    return allowed


def _catalog_names(inputs: dict) -> list[str]:
    """Display names of the chip and model a calculation used ("Llama 3 70B" holds a 3 that is a name)."""
    from calculators import catalog

    names = []
    for kind, table in (("chip", catalog.hardware), ("model", catalog.models)):
        if isinstance(inputs.get(kind), str):
            try:
                names.append(table().get(kind, inputs[kind])["name"])
            except ValueError:
                pass
    return names


def ungrounded_numbers(explanation: str, source_text: str, calculations: list[dict], terms: list[dict] | None = None) -> list[str]:
    """Numbers in `explanation` found neither in the input nor in any calculation (nor in a shown term's own name)."""
    allowed = allowed_numbers(source_text, calculations)
    for term in terms or []:  # "Llama 3" is a name, not a claim
        allowed.update(numbers_in(" ".join(str(term.get(k) or "") for k in ("term", "expansion", "expansion_en"))))
    # List numbering ("1.", "2.") is structure, not a claim.
    prose = _LIST_MARKER.sub(r"\1", explanation)
    return [n for n in numbers_in(prose) if n not in allowed]
