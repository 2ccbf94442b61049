"""The record of one figure a text states, and the mutable form it has while it is read."""

from typing import NamedTuple

# Arabic-Indic and Persian digits and the Arabic decimal/thousands separators map one character to one,
# so offsets in the translated text are offsets in the input.
_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹٫٬", "01234567890123456789.,")
_AR = "\u0600-\u06FF"


# A NamedTuple, not a frozen dataclass: the same record, without a millisecond of class building at import.
class Figure(NamedTuple):
    """One number stated in a text: what it measures and its value in the calculators' units."""

    quote: str
    start: int
    end: int
    quantity: str
    value: float
    unit: str | None = None
    approx: bool = False
    chip: str | None = None
    model: str | None = None
    role: str | None = None
    pair: int | None = None
    detail: dict | None = None

    def to_dict(self) -> dict:
        """The JSON object of DESIGN.md's `figures` list."""
        value = self.value
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            value = int(value)
        out = {"quote": self.quote, "quantity": self.quantity, "value": value, "unit": self.unit,
               "approx": self.approx, "start": self.start, "end": self.end}
        for key in ("chip", "model", "role", "pair", "detail"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out



class _Fig:
    """A figure while it is being read; frozen into a Figure at the end (a plain class: no dataclass to build at import)."""

    __slots__ = ("start", "end", "quantity", "value", "unit", "approx", "chip", "model", "role", "detail", "raw", "scale",
                 "generic", "expression", "pair")

    def __init__(self, start: int, end: int, quantity: str, value: float, unit: str | None = None, approx: bool = False,
                 chip: str | None = None, model: str | None = None, role: str | None = None, detail: dict | None = None,
                 raw: float = 0.0, scale: float = 1.0, generic: bool = True, expression: bool = False,
                 pair: "_Fig | None" = None):
        self.start, self.end, self.quantity, self.value, self.unit, self.approx = start, end, quantity, value, unit, approx
        self.chip, self.model, self.role, self.detail = chip, model, role, detail
        self.raw = raw                  # the number as written, multiplier applied, before unit conversion
        self.scale = scale              # value = raw * scale, so a partner in "from 100 to 128 tokens/s" can borrow it
        self.generic = generic          # the quantity is a fallback, not read from a unit, noun, cue or notation
        self.expression = expression
        self.pair = pair
