"""Arithmetic a text writes out (6.3e24 / (8960 * 4.59e14 * 0.4)) and changes between two figures, checked against the stated result."""

import ast
import math
import operator
import re

from .errors import CalculatorInputError
from .registry import Calculator, Field, register
from .units import parse_text
from .working import step, word

SCALING_BOOK = "Austin et al., How to Scale Your Model (JAX scaling book): worked estimates written as arithmetic, e.g. 4.59e14 / 1.8e11 = 2550"
CHANGE = "relative change = (after - before) / before; factor = after / before (a 'Z% faster' or 'Nx' claim states one of them)"
TOLERANCE = 0.02  # the stated result agrees within 2%, or within the rounding of its last written digit

_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv, ast.Pow: operator.pow}
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPER_RUN = re.compile(r"([⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+)")
_NUM = r"\d[\d,]*(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?"
# A number and the unit written after it ("450 GB/s", "1 GiB", "70B", "40%", "2 days"); a lone letter
# that is not a known suffix stays out, so "3 x 4" and "C / W" are not read as units.
_QUANTITY = re.compile(
    rf"(?<![\w.])(?P<num>{_NUM})(?:\s*(?P<unit>%|[KMGTPE]i?[Bb](?:ytes?|its?)?\s*/\s*s(?:ec)?\b|[KMGTPE]i?(?:B|bytes?|b|bits?)\b"
    r"|[kMGTPE]?FLOP(?:s|S)?(?:\s*/\s*s)?\b|(?:thousand|million|billion|trillion)\b|[kKMGBT](?![A-Za-z])|(?:ms|us|µs|s|sec|seconds?"
    r"|min|minutes?|h|hrs?|hours?|days?)\b|tokens?\b|params?\b|parameters?\b|chips?\b|GPUs?\b))?")
_KINDS = ("count", "fraction", "bytes", "bytes_per_s", "flop_per_s", "flops", "seconds")
_TIMES = re.compile(r"(?<=[\d)\s])\s*(?:[x×✕·⋅]|\\times|\\cdot)\s*(?=[\d(.])")
# "6.3 × 10^24" is one number in scientific notation, not a product: "6.3 × 10²⁴ / 9 × 10¹⁶" is 7e7, not 7e23 × 1e16.
_SCIENTIFIC = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:[x×✕·⋅*]|\\times|\\cdot)\s*10\s*(?:\^|\*\*)\s*\(?([+-]?\d+)\)?")
_WORDS = {"years": 365 * 86400.0, "year": 365 * 86400.0, "weeks": 7 * 86400.0, "week": 7 * 86400.0}


def _quantity(number: str, unit: str | None) -> float:
    """One written quantity in SI units (bytes, B/s, FLOP/s, s); a count for a bare number or a count suffix."""
    number = number.replace(",", "")
    if not unit:
        return float(number)
    unit = re.sub(r"\s+", "", unit) if "/" in unit else unit
    if unit.lower() in _WORDS:
        return float(number) * _WORDS[unit.lower()]
    text = f"{number}{unit}" if unit == "%" or len(unit) == 1 else f"{number} {unit}"
    for kind in _KINDS:
        try:
            return parse_text("expression", text, kind)
        except CalculatorInputError:
            continue
    raise CalculatorInputError("expression", f"cannot read the unit of {text!r}")


def to_python(source: str) -> str:
    """Arithmetic as people write it (×, ·, ^, 10²⁴, 1,024, 450 GB/s, 40%) as a Python expression of plain numbers."""
    text = str(source).strip().strip("`$").replace("\\,", "").replace("{", "(").replace("}", ")")
    text = text.replace("−", "-").replace("÷", "/").replace("[", "(").replace("]", ")")
    text = _SUPER_RUN.sub(lambda m: "^" + m.group(1).translate(_SUPERSCRIPT), text)
    text = _SCIENTIFIC.sub(lambda m: f"{m.group(1)}e{int(m.group(2))}", text)
    text = _TIMES.sub(" * ", text).replace("^", "**")
    parts, at = [], 0
    for m in _QUANTITY.finditer(text):
        parts.append(text[at:m.start()])
        parts.append(repr(_quantity(m.group("num"), m.group("unit"))))
        at = m.end()
    parts.append(text[at:])
    return "".join(parts)


def evaluate(source: str) -> float:
    """The value of written arithmetic, through the ast of a restricted grammar (never eval)."""
    if not isinstance(source, str) or not source.strip():
        raise CalculatorInputError("expression", "is empty; write arithmetic such as '4.59e14 / 1.8e11'")
    python = to_python(source)
    try:
        tree = ast.parse(python.strip(), mode="eval")
    except SyntaxError:
        raise CalculatorInputError("expression", f"{source!r} is not arithmetic (numbers, units, + - * / ^ and brackets)") from None
    try:
        value = walk(tree.body)
    except ZeroDivisionError:
        raise CalculatorInputError("expression", f"{source!r} divides by zero") from None
    except (OverflowError, RecursionError):
        raise CalculatorInputError("expression", f"{source!r} is too large to compute") from None
    if not math.isfinite(value):
        raise CalculatorInputError("expression", f"{source!r} has no finite value")
    return value


def walk(node) -> float:
    """The value of a parsed arithmetic expression: numbers, + - * / ** and signs only (also the figures reader's)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = walk(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        left, right = walk(node.left), walk(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > 400:
            raise OverflowError("exponent too large")
        return float(_BINOPS[type(node.op)](left, right))
    what = node.id if isinstance(node, ast.Name) else type(node).__name__
    raise CalculatorInputError("expression", f"has {what!r}, which is not a number (numbers, units, + - * / ^ and brackets)")


def _stated(value, name: str) -> float:
    """A stated number: a number, or text such as '2,550', '34.4%', '70 million seconds', '2x'."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    text = str(value).strip()
    factor = re.fullmatch(r"(.+?)\s*[x×]", text)
    try:
        return evaluate(factor.group(1) if factor else text)  # "2x" states a factor
    except CalculatorInputError as exc:  # the error names the field given ("before: has 'A' ..."), not "expression"
        raise CalculatorInputError(name, exc.reason) from None


def _agreement(stated: float, computed: float, tolerance: float) -> tuple[float, bool]:
    error = abs(computed - stated) / abs(stated) if stated else (0.0 if computed == 0 else math.inf)
    return error, error <= tolerance


_BYTES_UNIT = re.compile(r"\d\s*[kKMGTPE]?i?B\s*$")  # "2.8 TB", "350 GB", "80GiB"
_TIME_TERM = re.compile(r"\d\s*(?:ns|us|µs|μs|ms|s|sec|min|h)\b")
_OTHER_UNIT = re.compile(r"/|\d\s*[kKMGTPE]?i?B\b|FLOP|\d\s*[kKMGTPE]?(?:bps|b/s)|%")
_TIME_UNIT = re.compile(r"\d\s*(?:ns|us|µs|μs|ms|s|sec|secs|seconds?|min|mins|minutes?|h|hrs?|hours?)\s*$")  # "12.8 ms", "4.4 s"


def unit_of(value: float) -> str:
    """How a bare result is written: whole numbers and large ones with separators (18,823), small ones to 4 digits."""
    return "count" if abs(value) >= 1000 or float(value).is_integer() else ""


def arithmetic(v: dict):
    """value = the written arithmetic; with a stated result, its relative error and whether it agrees."""
    expression = v["expression"]
    value = evaluate(expression)
    # a result stated in bytes ("2.8 TB") is written in bytes, not as a bare "2.8T" that reads as a count
    in_bytes = v["stated_result"] is not None and bool(_BYTES_UNIT.search(str(v["stated_result"])))
    # a result whose kind the caller knows ("10 GB / 100 ms" is a rate) is written in its unit, never "100B"
    # "3.50 ms + 9.33 ms = 12.8 ms": a sum of times is a time, written 12.83 ms, not 0.01283 (a quotient of times is a ratio)
    in_time = v["stated_result"] is not None and (bool(_TIME_UNIT.search(str(v["stated_result"])))
                                                  or bool(_TIME_TERM.search(str(expression))) and not _OTHER_UNIT.search(str(expression)))
    shown = v.get("result_unit") or ("bytes" if in_bytes else "seconds" if in_time else unit_of(value))
    steps = [step("arithmetic.evaluate", expression=str(expression).strip(), value=(value, shown))]
    outputs = {"value": value}
    if v["stated_result"] is not None:
        stated = _stated(v["stated_result"], "stated_result")
        if str(v["stated_result"]).strip().endswith("%") and "%" not in str(expression) and 1 < abs(value) <= 100 and abs(stated) <= 1:
            value = outputs["value"] = value / 100  # "(100 + 5 + ... + 5) / 8 = 15.6%": the operands are percentages, so is the result
        error, ok = _agreement(stated, value, v["tolerance"])
        # a stated percentage is compared, and written, as one
        unit = "fraction" if str(v["stated_result"]).strip().endswith("%") else "bytes" if in_bytes else "seconds" if in_time else unit_of(stated)
        if ok:  # within the tolerance: "off by 0.6289%" beside "consistent" is noise a reader must skip (blind readers said so)
            steps.append(step("arithmetic.agrees", stated=(stated, unit), value=(value, unit), verdict=word("word.consistent")))
        else:
            steps.append(step("arithmetic.compare", stated=(stated, unit), value=(value, unit), error=(error if math.isfinite(error) else 1.0, "fraction"),
                              verdict=word("word.consistent" if ok else "word.inconsistent")))
        outputs.update(stated_result=stated, relative_error=error if math.isfinite(error) else None, consistent=ok)
    return outputs, steps, ["units are converted to bytes, bytes/s, FLOP/s and seconds before the arithmetic"]


def ratio(v: dict):
    """change = (after - before) / before and factor = after / before; compared with a stated change or factor."""
    before, after = _stated(v["before"], "before"), _stated(v["after"], "after")
    if before == 0:
        raise CalculatorInputError("before", "must not be zero: a change is measured from it")
    change, factor = (after - before) / before, after / before
    raw = v["stated_change"]
    states_factor = isinstance(raw, str) and bool(re.search(r"[x×]\s*$", raw.strip()))  # "2x faster" states the factor
    if raw is None and factor >= 2 or states_factor:
        # "about 3.4 times as much": the working says the factor once, not also as a +243% change; a stated "2.09x"
        # is checked as a factor, never worked as a "+104.9% change" (a halving of a time read as a rise, round 36)
        steps = [step("ratio.factor", before=(before, ""), after=(after, ""), factor=(factor, ""))]
    else:
        steps = [step("ratio.change", before=(before, ""), after=(after, ""), change=(change, "fraction"), factor=(factor, ""))]
    outputs = {"change": change, "factor": factor}
    if raw is not None:
        text = str(raw).strip()
        if states_factor:
            stated, computed, shown = _stated(text, "stated_change"), factor, ""
        else:
            stated, computed, shown = _stated(raw, "stated_change"), change, "fraction"
            if stated < 0 < change or change < 0 < stated:  # "cut by 44%" states the size of a fall
                stated = -stated
        error = abs(computed - stated) / abs(stated) if stated else abs(computed)
        ok = error <= v["tolerance"]
        if ok:  # agreeing within the tolerance: the size of a rounding gap is noise
            steps.append(step("ratio.agrees", stated=(stated, shown), computed=(computed, shown), verdict=word("word.consistent")))
        else:
            steps.append(step("ratio.compare", stated=(stated, shown), computed=(computed, shown), error=(error, "fraction"),
                              verdict=word("word.inconsistent")))
        outputs.update(stated_change=stated, relative_error=error, consistent=ok)
    return outputs, steps, ["the change is measured from the 'before' figure"]


_TOLERANCE = Field("tolerance", "fraction", "relative difference still counted as agreeing", default=TOLERANCE)

register(Calculator(
    name="arithmetic",
    summary="Evaluates arithmetic written in a text (numbers with units, + - * / ^) and checks it against the stated result.",
    fields=(
        Field("expression", "expression", "arithmetic such as '6.3e24 / (8960 * 4.59e14 * 0.4)' or '1 GiB / 450 GB/s'"),
        Field("stated_result", "expression", "the result the text states for it", default=None),
        _TOLERANCE,
        Field("result_unit", "choice", "the unit the result is written in (its kind: bytes, a rate, a time ...)", default=None,
              choices=_KINDS),
    ),
    compute=arithmetic,
    sources=(SCALING_BOOK,),
))

register(Calculator(
    name="ratio",
    summary="The change and factor between a before and an after figure, checked against a stated change ('29% faster', '2x').",
    fields=(
        Field("before", "expression", "the earlier or baseline figure (a number, '42.1%', '100 tokens/s')"),
        Field("after", "expression", "the later or new figure"),
        Field("stated_change", "expression", "the change the text states: a fraction or percentage (0.29, 29%) or a factor ('2x')", default=None),
        _TOLERANCE,
    ),
    compute=ratio,
    sources=(CHANGE,),
))
