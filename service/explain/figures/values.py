"""Values of what the figure reader finds: numbers as written, units, chip and model ids, arithmetic operands."""

import ast
import math
import re
from calculators import catalog
from calculators.arithmetic import walk
from service.explain.figures.record import _Fig
from service.explain.process_cache import CACHE
from service.explain.figures.words import _AR_PARTICLE, _AR_PLURAL_SCALE, _AR_SPLIT, _AR_TEEN, _AR_WEAK, _AR_WORDS, _DEVICE_WORD, _EN_WORDS, _MULTS, _NUMLIT, _PRODUCT_OVER, _SUPS, _TOKEN_WORD, _Tok, _UNIT_SECONDS, _rx

def _chip_id(name: str) -> str | None:
    """The catalog id of a chip name as written ("H100s", "TPU v4"), or None."""
    return CACHE.get("chip_ids", name, lambda: _find_chip(name))


def _find_chip(name: str) -> str | None:
    for candidate in (name, re.sub(r"s$", "", name), re.sub(r"^(?:NVIDIA|Nvidia|AMD|Google|Intel)\s+", "", name)):
        key = catalog.normalise_name(candidate)
        if key in catalog.hardware()._index:
            return catalog.hardware()._index[key]["id"]
    return None


def _model_id(name: str) -> str | None:
    """The catalog id of a model name as written, or None."""
    def find() -> str | None:
        entry = catalog.models()._index.get(catalog.normalise_name(name))
        return entry["id"] if entry else None
    return CACHE.get("model_ids", name, find)


def _ar_number(words: str) -> tuple[float, bool]:
    """The value of Arabic number words ("ألفين وثمانية وأربعين" = 2048) and whether it is a weak reading."""
    parts = [_AR_PARTICLE.sub("", w) if _AR_PARTICLE.sub("", w) in _AR_WORDS else w
             for w in _AR_SPLIT.findall(words)]
    total, current = 0.0, 0.0
    for word in parts:
        value = _AR_WORDS[word]
        if word in _AR_TEEN and 0 < current < 10:
            current += 10
        elif value == 100 and 0 < current < 10:
            current *= 100
        elif value >= 1000:
            total += (current or 1) * value if word not in ("ألفان", "ألفين", "ألفي", "ألفا", "مليونان", "مليونين", "مليوني", "ملياران", "مليارين", "ملياري") or not current else current * value
            current = 0
        else:
            current += value
    weak = len(parts) == 1 and (parts[0] in _AR_WEAK or parts[0] in _AR_PLURAL_SCALE)
    return total + current, weak


def plain_number(written: str) -> str:
    """A number as float() reads it: thousands commas dropped, "3.14+23" (a power of ten after a plus) as 3.14e+23."""
    written = written.replace(",", "").replace("’", "")  # "23’125": Swiss thousands
    return re.sub(r"(?<=\d)\+(?=\d+$)", "e+", written) if "e" not in written.lower() else written


def _number(match: "_Tok") -> tuple[float, str]:
    """The value of a token, multiplier applied, and the multiplier as written."""
    if match.group("enw"):
        scale = match.group("enm")
        word = match.group("enw").lower()
        # "half a million" is 500,000 and "a quarter of a million" 250,000, never a million
        one = 0.5 if word.startswith("half") else 0.25 if "quarter" in word else 1.0 if word in ("a", "an") else float(_EN_WORDS[word])
        return one * (_MULTS.get(scale, 1.0) if scale else 1.0), ""
    if match.group("arw"):
        return _ar_number(match.group("arw"))[0], ""
    value = float(plain_number(match.group("num")))
    if match.group("pow"):
        sup = re.search(r"[⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+$", match.group("pow"))
        value *= 10.0 ** int(sup.group().translate(_SUPS) if sup else re.search(r"[+-]?\d+$", match.group("pow")).group())
    mult = match.group("m1") or match.group("m1b") or match.group("m2") or match.group("m3") or ""
    factor = _MULTS.get(mult) or _MULTS.get(mult.lower()) or 1.0
    return value * factor, mult



def _share(a: _Fig, b: _Fig) -> None:
    """The unit and quantity of the more specific partner go to the other."""
    for x, y in ((a, b), (b, a)):
        if x.generic and not y.generic:
            x.quantity, x.chip = y.quantity, x.chip or y.chip
            if x.unit is None and y.unit is not None:
                x.unit, x.scale, x.value = y.unit, y.scale, x.raw * y.scale
            break
    for x, y in ((a, b), (b, a)):  # "38-43%": the bare end of a range is a percentage too
        if x.unit is None and y.unit == "%" and x.quantity == y.quantity and 0 <= x.value <= 1:
            x.unit = "%"
    a.generic = b.generic = a.generic and b.generic


_OPERAND_NUM = _rx(r"(?<![\w.])(" + _NUMLIT + r")(?:\s*[×x]\s*10(?:\s*(?:\^|\*\*)\s*([+-]?\d+)|([⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)))?([kKMBT](?![A-Za-z]))?")


def _operand_roles(norm: str, start: int, end: int) -> dict[int, str]:
    """What the bare operands of the two textbook estimates measure: time = FLOPs / (chips × FLOP/s × MFU), FLOPs = 6·N·D."""
    operands = []
    for m in _OPERAND_NUM.finditer(norm, start, end):
        power = m.group(2) or (m.group(3) or "").translate(_SUPS)
        value = float(m.group(1).replace(",", "")) * (10.0 ** int(power) if power else 1.0)
        value *= float(_SUFFIX_VALUE[m.group(4)].replace("e", "1e")) if m.group(4) else 1.0
        operands.append((m.start(), value))
    source = norm[start:end]
    roles: dict[int, str] = {}
    if "/" in source and operands and operands[0][1] >= 1e18:
        roles[operands[0][0]] = "total_flops"
        rest = operands[1:]
        per_chip = any(0 < v < 1 for _, v in rest) or any(v == int(v) and 1 < v < 1e7 for _, v in rest)
        for at, value in rest:
            if 1e11 <= value < 1e18:  # with chips or MFU beside it, one chip's peak; alone, the rate the job achieves
                roles[at] = "peak_flop_per_s" if per_chip else "flop_per_s"
            elif 0 < value < 1:
                roles[at] = "mfu"
            elif value == int(value) and 1 < value < 1e7:
                roles[at] = "n_chips"
    elif "/" in source and len(operands) == 2 and 1e11 <= operands[0][1] < 1e17 and 1e8 <= operands[1][1] < 1e13 \
            and 50 <= operands[0][1] / operands[1][1] <= 1e5:
        # C / W: a chip's FLOP/s over its bandwidth, the critical batch per chip (dp_critical_batch)
        roles[operands[0][0]], roles[operands[1][0]] = "peak_flop_per_s", "bandwidth_bytes_per_s"
        roles[-1] = "critical_tokens_per_chip"
    elif "/" in source and len(operands) == 3 and _PRODUCT_OVER.fullmatch(source) \
            and _TOKEN_WORD.search(norm, max(0, start - 200), min(len(norm), end + 60)):
        # batch × sequence length / step time = tokens per second (per device when the text speaks of one)
        (a, va), (b, vb), (c, vc) = operands
        seq = [o for o in ((a, va), (b, vb)) if o[1] >= 256 and o[1] == int(o[1]) and int(o[1]) & (int(o[1]) - 1) == 0]
        if len(seq) == 1 and 0 < vc < 1e4:
            other = (b, vb) if seq[0][0] == a else (a, va)
            if other[1] == int(other[1]):
                per_device = _DEVICE_WORD.search(norm, max(0, start - 200), min(len(norm), end + 60)) is not None
                roles[seq[0][0]], roles[c] = "seq_len", "step_time_s"
                roles[other[0]] = "micro_batch" if per_device else "global_batch_sequences"
                roles[-1] = "tokens_per_s_per_chip" if per_device else "tokens_per_s"
    elif "/" not in source and len(operands) == 3:
        small = [o for o in operands if o[1] in (2.0, 6.0, 8.0)]
        big = sorted((o for o in operands if o[1] >= 1e7), key=lambda o: o[1])
        if len(small) == 1 and len(big) == 2:  # 6 × N × D in any order
            roles[small[0][0]] = "flops_per_param_token"
            roles[big[0][0]], roles[big[1][0]] = "params", "tokens"
    return roles


_AR_UNIT_WORDS = ((r"\s*(?:في الثانية|/\s*(?:ال)?ث(?:انية)?)$", "/s"), (r"^(?:كيلو)\s?", "k"), (r"^(?:ميجا|ميغا)\s?", "M"),
                  (r"^(?:جيجا|غيغا)\s?", "G"), (r"^تيرا\s?", "T"), (r"^بيتا\s?", "P"), (r"^(?:إكسا|اكسا|إكزا|اكزا)\s?", "E"),
                  (r"فلوب(?:س|ز)?", "FLOP/s"), (r"بايت", "B"), (r"بِ?ت", "b"), (r"واط|وات", "W"), (r"(?<=W)\s*[-/]?\s*ساعة$", "h"))


def _normalise_unit(written: str, kind: str) -> str:
    """Unit spellings calculators.units does not take ("petaFLOP/s", "FLOPs / second", "Gbps") in a form it does."""
    unit = re.sub(r"[\u064B-\u0652\u0640]", "", re.sub(r"\s+", " ", written.strip()))  # "جيجابايت" however voweled
    for word, symbol in _AR_UNIT_WORDS:  # "تيرافلوب" -> "TFLOP/s", "تيرابايت في الثانية" -> "TB/s"
        unit = re.sub(word, symbol, unit)
    for word, prefix in (("kilo", "k"), ("mega", "M"), ("giga", "G"), ("tera", "T"), ("peta", "P"), ("exa", "E")):
        if unit.lower().startswith(word):
            unit = prefix + unit[len(word):]
    if kind == "flop_per_s":
        unit = re.sub(r"^(?:MODEL_|model[ _])|\s*/\s*(?:GPU|gpu|chip|device|accelerator|TPU)$", "", unit)  # TFLOP/s/GPU: per chip
        unit = re.sub(r"^([tpg])(?=[Ff][Ll][Oo][Pp])", lambda m: m.group(1).upper(), unit)  # "tflops"
        unit = re.sub(r"(?<=[kMGTPE])(?:Flops|flops)$", "FLOP/s", unit)
        unit = re.sub(r"(?i)\s*(flops?|FLOPS?)\s*(?:/\s*s(?:ec(?:ond)?)?|per second|/sec)$", "FLOP/s", unit)
        unit = re.sub(r"(?<=[kMGTPE])FLOPS$|^FLOPS$", "FLOP/s", unit)
        unit = unit.replace(" ", "")
    elif kind == "flops":
        unit = re.sub(r"\s*(?:FLOPs|FLOP|flops|flop|Flops)$", "FLOP", unit).replace(" ", "")
    elif kind == "bytes" and "/" in unit:
        unit = re.sub(r"\s*/.*$", "", unit)  # "GB/rank": the size each one holds
    elif kind == "bytes" and re.fullmatch(r"[kKmMgGtT][bB]", unit):
        unit = unit.upper()  # "80gb", "80 Gb of memory": memory sizes are bytes, however cased
    elif kind == "bytes_per_s":
        unit = re.sub(r"\s*/\s*", "/", unit).replace("per second", "/s").replace(" ", "")
        unit = re.sub(r"(?<=[kMGTP])bytes?", "B", re.sub(r"(?<=[kMGTP])bits?", "b", unit))  # "gigabytes per second" -> GB/s
    return unit


def _seconds(written: str) -> float:
    word = re.sub(r"[\u064B-\u0652\u0640]", "", written.lower().strip())  # "ساعاتٍ" is "ساعات"
    if word in _UNIT_SECONDS:
        return float(_UNIT_SECONDS[word])
    singular = re.sub(r"s$", "", word)
    if singular in _UNIT_SECONDS:
        return float(_UNIT_SECONDS[singular])
    for name, seconds in _UNIT_SECONDS.items():
        if word.startswith(name) and len(name) > 2:
            return float(seconds)
    raise KeyError(written)


def _balanced(text: str, start: int, end: int) -> tuple[int, int]:
    """Trim brackets an expression match took from the prose around it, and spaces."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    span = text[start:end]
    while span and span.count("(") + span.count("[") > span.count(")") + span.count("]") and span[0] in "([":
        start, span = start + 1, span[1:]
    while span and span.count(")") + span.count("]") > span.count("(") + span.count("[") and span[-1] in ")]":
        end, span = end - 1, span[:-1]
    return start, end


_SUFFIX = _rx(r"(\d)([kKMBT])(?![A-Za-z])")
_SUFFIX_VALUE = {"k": "e3", "K": "e3", "M": "e6", "B": "e9", "T": "e12"}


def _evaluate(source: str) -> float | None:
    """The value of arithmetic written in a text, through the ast of a restricted grammar (never eval)."""
    expr = re.sub(r"(\d(?:\.\d+)?)\s*[×x*·]\s*10(?:\s*(?:\^|\*\*)\s*([+-]?\d+)|([⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))",
                  lambda m: f"{m.group(1)}e{m.group(2) or m.group(3).translate(_SUPS)}", source)
    expr = expr.replace(",", "").replace("’", "").replace("×", "*").replace("·", "*").replace("÷", "/").replace("−", "-")
    expr = expr.replace("^", "**").replace("[", "(").replace("]", ")")
    expr = re.sub(r"(\d(?:\.\d+)?)\s*%", r"(\1/100)", expr)
    expr = _SUFFIX.sub(lambda m: m.group(1) + _SUFFIX_VALUE[m.group(2)], expr)
    try:
        tree = ast.parse(expr.strip(), mode="eval")
        value = walk(tree.body)
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError, TypeError, RecursionError):
        return None
    return float(value) if math.isfinite(value) else None
