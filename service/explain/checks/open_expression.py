"""Arithmetic the author writes but leaves undone: "thus would require 70*18 GB" is 1.26 TB, "2 * 80 * 8 * 128 * 2 bytes"
is 327,680 bytes. The reader is given the result, in the unit written after the last operand; nothing is judged."""

import re

from service.explain import restate
from service.explain.checks.core import Result, worked
from service.explain.checks.written_values import shown
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# only "*" multiplies for certain: "1024x1024" is an image's size, "8x H100" a count of chips, "3090/4090" and
# "13395/40537MB" are alternatives and used-of-total, "2,396/512" an input/output pair
_OPERATOR = re.compile(r"^[\d.,\s]+(?:\*\s*[\d.,]+\s*)+$")
# the result after it: "= 1.26 TB", "is 140GB", or in the table's next cell ("2 * 70GB | ~140GB")
_RESULT_NEAR = re.compile(r"^[^=≈,.;،؛\n]{0,24}(?:=|≈)|^\s*(?:is|equals|gives|comes to)\b|^\s*(?:يساوي|تساوي)|^[^|\n]{0,12}\|\s*[~≈]?\s*\d", re.I)


def _unit(claim: Claim, expression):
    """The figure that ends the expression with a unit ("70*18 GB": "18 GB"), or None."""
    return next((f for f in claim.figures if f is not expression and expression.start <= f.start < expression.end < f.end
                 and f.quantity not in ("number", "expression")), None)


def _result(value: float, expression, unit, lang: str) -> str:
    """The result in the unit written after the last operand: "1.26 TB" for 70*18 GB, "327,680 bytes" for ... * 2 bytes."""
    last = re.search(r"([\d.]+)\s*$", expression.quote)
    operand = float(last.group(1)) if last else 0.0
    if unit is None or not operand:
        return shown(value)
    scale = unit.value / operand
    if abs(scale - 1) < 1e-9 and lang == "en" and float(value).is_integer() and abs(value) < 1e12:
        # "bytes", "tokens": the unit word as written, the number in full
        return f"{int(value):,} {unit.quote[unit.quote.rfind(last.group(1)) + len(last.group(1)):].strip()}"
    return restate.value(unit.quantity, value * scale)


def open_expression(doc: Document, claim: Claim) -> Result | None:
    """Each product, quotient or sum the sentence writes without its result: worked out and said."""
    if claim.calculations:
        return None  # the sentence's arithmetic is already redone
    found = [f for f in claim.figures if f.quantity == "expression" and _OPERATOR.match(f.quote)
             and not _RESULT_NEAR.match(doc.text[f.end:f.end + 40])
             and not re.search(r"(?:=|≈)\s*$", doc.text[max(0, f.start - 4):f.start])
             # "only at 384 12*2*16": the result is written beside it
             and not any(o.quantity == "number" and o.value == f.value and not f.start <= o.start < f.end for o in claim.figures)]
    if len(found) != 1:
        return None  # several open expressions: which one the point rests on is not read
    expression = found[0]
    if any(float(x.replace(",", "")) == 1 for x in re.findall(r"[\d.,]+", expression.quote)):
        return None  # "8 * 1": nothing for a reader to work out
    index = worked(doc, expression.quote.replace("×", "*").replace("÷", "/"), expression.quote)
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["value"]
    unit = _unit(claim, expression)
    written = doc.text[expression.start:unit.end if unit is not None else expression.end]
    result = _result(value, expression, unit, doc.lang)
    return Result([index], None, messages(doc.lang)["verdicts"]["open_expression"].format(expression=written, result=result))
