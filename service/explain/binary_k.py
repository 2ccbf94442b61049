"""A "K" the text itself makes 1,024: "8 sequences × 2048 tokens = 16K tokens" and then "16K × 16 × 128 = 33M", whose
16K is 16,384 (round 70: the product worked as 16,000 × 16 × 128 = 32.77M was a wrong number to its readers)."""

import re

_K = re.compile(r"(?<![\w.])(\d+)\s*[kK](?![\w])")
_DEFINED = r"(?P<left>[^=\n]*?)=\s*~?\s*{n}\s*[kK](?![\w.])"
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w.])")


def binary(text: str, written: int) -> bool:
    """Whether the text works "nK" out as a product of whole numbers equal to n × 1,024 ("8 × 2048 = 16K")."""
    for found in re.finditer(_DEFINED.format(n=written), text):
        left = found.group("left")
        numbers = [float(n.replace(",", "")) for n in _NUMBER.findall(left)]
        if len(numbers) >= 2 and re.search(r"[×x*]", left):
            product = 1.0
            for n in numbers:
                product *= n
            if product == written * 1024:
                return True
    return False


def rewritten(text: str, expr: str) -> str | None:
    """The expression with each "nK" the text makes n × 1,024 written out ("16K × 16 × 128" -> "16384 × 16 × 128"); None
    when it has none."""
    out = _K.sub(lambda m: str(int(m.group(1)) * 1024) if binary(text, int(m.group(1))) else m.group(0), expr)
    return out if out != expr else None
