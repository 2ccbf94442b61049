"""Checks of the arithmetic a claim writes out, the changes it states and the degrees it multiplies, with the text's own numbers.

General rules, none tied to a passage: "EXPR = RESULT" (or "RESULT (EXPR)", or a chain "EXPR ≈ R1 ≈ R2") is checked by
evaluating EXPR, the textbook shapes by their calculator (6·N·D training_flops, FLOPs / (chips · peak · MFU) or FLOPs /
rate training_time, a symbolic "C / W" dp_critical_batch, with symbols the text assigns); a before/after pair with a
stated change by `ratio`; data, tensor, pipeline, context (or model) degrees stated with a chip count must multiply to it."""

import math
import re
from types import SimpleNamespace

from calculators.arithmetic import evaluate
from calculators.errors import CalculatorInputError
from calculators.formatting import human

from service.explain import binary_k, pattern_cache, restate
from service.explain.checks import grid_count, operand_names, verdicts, written_values
from service.explain.checks.core import Inputs, Result, chip_inputs, discard, figure, pod_chips, run
from service.explain.checks.directions import mixed_directions
from service.explain.checks.training_time import time_from_expression
from service.explain.process_cache import CACHE
from service.explain.document import Claim, Document
from service.i18n import arabic_numbers
from service.i18n.messages import messages

_rx = pattern_cache.lazy  # compiled on first use, from the on-disk store when it can be
_NUM = (r"(?<![\w.])(?P<n>\d[\d,]*(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![.,]?\d)"  # "0.5G" is never its "0" alone
        r"(?P<sci>\s*(?:[x×·*]|\\times|\\cdot)\s*10\s*(?:[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+|(?:\^|\*\*)\s*\{?[+-]?\d+\}?))?"
        r"(?P<sfx>(?:[kKMBTG])(?![A-Za-z0-9]))?(?P<unit>\s*(?:[KMGTPE]i?B(?:/s)?|[kMGTPE]?FLOP(?:/s|s)?|ms|µs|us|s)(?![A-Za-z0-9]))?"
        r"(?P<pct>\s*%)?(?![A-Za-z0-9_])")
# a minus written without spaces is an operator only between two numbers closing a bracket ("(8-1)/8"); elsewhere
# "2-4" is a range and "fp8-e4m3" a name
_TOKEN = _rx(r"(?P<num>" + _NUM + r")|(?P<op>\s+[-−–]\s+|(?<=\d)[-−](?=\d+(?:\.\d+)?\))|\s*(?:[+*/×·÷^]|\\times|\\cdot|[x×](?=\s*[\d(]))\s*)"
             r"|(?P<eq>\s*(?:=|≈|≃|~=|\\approx|~(?=\s*\d))\s*)|(?P<lp>\()|(?P<rp>\))|(?P<sp>\s+)"
             r"|(?P<w>[A-Za-z\u0600-\u06FF_]+|.)")
_MAYBE = _rx(r"\d\s*(?:[-−+*/×·÷^=≈~)]|\\times|\\cdot|x\s*\d|[⁰¹²³⁴⁵⁶⁷⁸⁹])|[=≈]\s*\d")  # arithmetic: a digit beside an operator or "="
_SYMBOL = _rx(r"([A-Za-z](?:_\{?\\?(?:text\{)?\w+\}?\}?)?)\s*$")
_SQRT = _rx(r"\bsqrt\s{0,0}\(")
_FUNCTION = _rx(r"(?:\b(?:sqrt|cbrt|log\d*|ln|exp|sin|cos|tan|min|max|abs|root)|√|∛)\s*\(?\s*$", re.I)
_SYMBOLIC_RATIO = _rx(r"\bC\s*/\s*W\w*(?:_\S+)?")
_CHIP_NOUN = _rx(r"^[`'\")\s]*(?:chips?|GPUs?|TPUs?|devices?|accelerators?)\b", re.I)
_APPROX = _rx(r"~|≈|about|approx|roughly|around|nearly", re.I)
_THAN, _FASTER = _rx(r"\bthan\s+(?:the\s+|that\s+of\s+)?$", re.I), _rx(r"faster|speed", re.I)
_TIMES = {"time_s", "step_time_s", "latency_s"}
_PHASE = _rx(r"\bphase|\bstage\b|long[- ]context|anneal|pre-?train|fine-?tun|warm-?up|post-?train|مرحلة", re.I)
_LAYOUT = {"dp_degree", "tp_degree", "pp_degree", "cp_degree", "mp_degree", "ep_degree", "n_chips", "n_nodes", "chips_per_node", "params", "number"}
_DEGREES, _SPEED_KINDS = ("dp_degree", "tp_degree", "pp_degree", "cp_degree", "mp_degree"), {"time", "throughput", "compute_rate", "bandwidth"}
# "16x GB300", "4 DGX nodes": a unit holding several GPUs (a Grace superchip 2, a compute tray 4, a DGX or HGX server 8)
_MULTI_GPU_UNIT = re.compile(r"\bG[BH]\d00\b|\b[DH]GX\b|superchips?|trays?|nodes?|servers?|hosts?|machines?|boxes", re.I)
_IN_BITS = re.compile(r"\d\s*[kKMGTP]?(?:bps|b/s|bits?/s|bit/s)\b")  # "3.2 Tbps", "400 Gb/s": a rate in bits
_IN_BYTES = re.compile(r"\d\s*[kKMGTPE]?i?B\s*$")  # "2TB", "350 GB": a result written in bytes
_SCALED = re.compile(r"[~≈]?\s*\d[\d.,]*\s*[kKMBGT](?![A-Za-z])")  # a figure written with a scale letter, often cut, not rounded
RANK = {"inconsistent": 3, "consistent": 2, "needs_more": 1, "explained": 0}


# ------------------------------------------------------------------------------------ reading equations

def _tokens(text: str) -> list[tuple[str, int, int, re.Match | None]]:
    """(kind, start, end, match) of arithmetic tokens; anything else is a break ("w")."""
    clean = text.replace("`", " ").replace("$", " ")
    out = []
    for m in _TOKEN.finditer(clean):
        kind = m.lastgroup if m.lastgroup in ("op", "eq", "lp", "rp", "sp", "w") else "num"
        if kind != "sp":
            out.append((kind, m.start(), m.end(), m))
    return out


def _number(m: re.Match) -> float:
    source = m.group("n") + (m.group("sci") or "") + (m.group("sfx") or "").replace("G", "B") + (m.group("unit") or "")  # 456G tokens
    value = evaluate(source)
    return value / 100 if m.group("pct") else value


def _parts(segment: list) -> list[list]:
    parts, current = [], []
    for tok in segment:
        if tok[0] == "eq":
            parts.append(current)
            current = []
        else:
            current.append(tok)
    parts.append(current)
    return parts


def _is_expression(part: list) -> bool:
    return sum(t[0] == "num" for t in part) >= 2 and any(t[0] == "op" for t in part) and part[0][0] in ("num", "lp")


def equations(claim: Claim) -> tuple[list[dict], dict[str, SimpleNamespace]]:
    """The equations a claim writes ({expr, results}) and the symbols it assigns (C=4.6e14), read once per claim."""
    if not _MAYBE.search(claim.quote):
        return [], {}
    # the reading depends on the words alone
    return CACHE.get("equations", claim.quote, lambda: _read_equations(claim), limit=257)


def _sqrt_as_power(text: str) -> str:
    """"sqrt(a * b)" rewritten as "(a * b)^0.5" (same length, so every position still points into the claim)."""
    while True:
        m = _SQRT.search(text)
        if m is None:
            return text
        depth, end = 0, None
        for i in range(m.end() - 1, len(text)):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            if depth == 0:
                end = i
                break
        if end is None or ")" in text[end + 1:end + 2]:
            return text
        inner = text[m.end():end]
        text = text[:m.start()] + "(" + inner + ")^0.5" + text[end + 1:]


def _read_equations(claim: Claim) -> tuple[list[dict], dict[str, SimpleNamespace]]:
    text = operand_names.blanked(_sqrt_as_power(claim.quote))
    toks = _tokens(text)
    segments, current = [], []
    for tok in toks:
        if tok[0] == "w":
            if current:
                segments.append(current)
            current = []
            continue
        current.append(tok)
    if current:
        segments.append(current)
    found, symbols = [], {}
    for segment in segments:
        if _FUNCTION.search(text[:segment[0][1]]):
            continue  # an argument of a function the evaluator does not know (log, √, exp): not parsed fully, not checked
        while segment and segment[0][0] == "rp":
            segment = segment[1:]  # "(at least) 6.7B * 20 = 134 GB": the bracket closes the words before, not the sum
        if not segment:
            continue
        parts = _parts(segment)
        if not parts[0] and len(parts) > 2 and _is_expression(parts[1]) and len(parts[2]) == 1 and parts[2][0][0] == "num":
            parts = parts[1:]  # "MFU = 64 * 8.6e15 / 4.31 / 256 / 989e12 = 50.5%": a named result and its working
        elif not parts[0] and len(parts) > 1:  # "=..." after prose: an assignment (C=...) or a chained result
            symbol = _SYMBOL.search(text[:segment[0][1]])
            value_part = parts[1]
            if found and segment[0][1] - found[-1]["end"] <= 24 and len(value_part) == 1 and value_part[0][0] == "num":
                found[-1]["results"].append(_result(text, value_part[0]))
                found[-1]["end"] = value_part[0][2]
            elif symbol and value_part and value_part[0][0] in ("num", "lp"):
                source = text[value_part[0][1]:value_part[-1][2]].strip()
                try:
                    symbols[symbol.group(1).split("_")[0]] = SimpleNamespace(
                        value=evaluate(source), quote=text[symbol.start(1):value_part[-1][2]].strip())
                except CalculatorInputError:
                    pass
            continue
        for i, part in enumerate(parts):
            # "6.3e24 (15e12 * 70e9 * 6)": a figure, then the arithmetic that gives it, in brackets
            if len(part) >= 4 and part[0][0] == "num" and part[1][0] == "lp" and part[-1][0] == "rp" and _is_expression(part[2:-1]):
                found.append({"expr": _expression(text, part[2:-1]), "start": part[0][1], "end": part[-1][2],
                              "results": [_result(text, part[0])]})
                break
            while len(part) > 1 and part[0][0] == "lp" and sum(t[0] == "lp" for t in part) > sum(t[0] == "rp" for t in part):
                part = part[1:]  # "(`4.59e14 / 1.8e11 = 2550` for v5p)": the bracket opens the prose aside, not the sum
            if _is_expression(part):
                expr = _expression(text, part)
                if expr.count("(") != expr.count(")"):
                    break  # a fragment cut out of a longer formula by a word or a symbol: never run, never shown
                results = [_result(text, p[0]) for p in parts[i + 1:] if len(p) == 1 and p[0][0] == "num"]
                if results:
                    found.append({"expr": expr, "start": part[0][1], "end": results[-1]["end"], "results": results})
                break
    return found, symbols


def _expression(text: str, part: list) -> str:
    return re.sub(r" {2,}", " ", text[part[0][1]:part[-1][2]].replace("`", "").replace("$", "")).strip()  # an operand's blanked name


def _result(text: str, tok) -> dict:
    m = tok[3]
    return {"quote": text[tok[1]:tok[2]].replace("$", "").strip(), "value": _number(m), "start": tok[1], "end": tok[2],
            "percent": bool(m.group("pct"))}


def _stated_value(claim: Claim, result: dict) -> tuple[float, float, str | None]:
    """A result's value as written and, where the figure reader gave it a unit, in calculator units (and its quantity)."""
    at = claim.start + result["start"]
    fig = next((f for f in claim.figures if f.start <= at < f.end and f.quantity not in ("number", "expression")), None)
    if fig is not None and not result["percent"]:
        result["quote"] = fig.quote  # "70 million seconds", not "70"
        return result["value"], fig.value, fig.quantity
    return result["value"], result["value"], None


def tolerance_of(quote: str, value: float, approx: bool) -> float:
    """The written-arithmetic tolerance of a stated change or factor (public for the checks that judge one)."""
    return _tolerance(quote, value, approx, round_factor=True)


def _tolerance(quote: str, value: float, approx: bool, round_factor: bool = False) -> float:
    """data/verdicts.json's written-arithmetic tolerance: 2%, the rounding of the last written digit ("2.2" is 2.15-2.25), or 5% for "about";
    `round_factor`: a factor written as a round whole number ("50 times higher" for 48.9) is rounded to its last non-zero digit."""
    digits = re.sub(r"[^\d.]", "", quote.split("e")[0].split("E")[0])
    rounding = 0.0
    if digits and value:
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        written = float(digits) if digits.replace(".", "").isdigit() else 0
        zeros = len(digits) - len(digits.rstrip("0")) if round_factor and not decimals and written >= 10 else 0
        if written:
            rounding = (1.0 if _SCALED.match(quote.strip()) else 0.5) * 10 ** (zeros - decimals) / written  # "33k" may cut 33,992
            rounding = min(rounding, verdicts.table()["tolerances"]["written_arithmetic"]["round_factor_most"]) if zeros else rounding
    if not re.search(r"\d", quote) and value and float(value).is_integer():
        rounding = 0.5 / abs(value)  # "five times", «خمسة أضعاف»: a number written as a word is rounded to the unit
    return verdicts.arithmetic_tolerance(rounding, approx)


# ------------------------------------------------------------------------------------------- verdicts

class Outcome:
    """The verdicts of one claim's checks, combined: any inconsistency wins and is said first."""

    def __init__(self):
        self.items: list[tuple[str, str]] = []
        self.calculations: list[int] = []

    def add(self, verdict: str, why: str) -> None:
        self.items.append((verdict, why))

    def result(self) -> Result | None:
        """The combined result, or None when no check judged."""
        if not self.items:
            return None
        ordered = sorted(self.items, key=lambda item: -RANK[item[0]])
        return Result(list(self.calculations), ordered[0][0], "; ".join(dict.fromkeys(why for _, why in ordered if why)))


def _misread(doc: Document, outcome: Outcome, index: int, quote: str, computed: float) -> bool:
    """Whether a written result and our evaluation are too far apart to be the author's slip (misreading_gap): no verdict."""
    number = re.search(r"\d[\d,]*(?:\.\d+)?", quote)  # as written, and as the calculator read it with its unit: far from both
    stated = doc.calculations[index]["outputs"].get("stated_result")
    if number is None or not verdicts.misread(float(number.group(0).replace(",", "")), computed) \
            or not isinstance(stated, (int, float)) or not verdicts.misread(stated, computed):
        return False
    outcome.calculations.remove(index)
    discard(doc, index)
    outcome.add("needs_more", messages(doc.lang)["verdicts"]["misread_pair"].format(stated=quote))
    return True


def _judge(doc: Document, outcome: Outcome, stated_quote: str, stated: float, computed: float, shown: str, approx: bool,
           before: str = "") -> None:
    ok = abs(computed - stated) <= _tolerance(stated_quote, stated, approx) * abs(stated)
    bound = verdicts.stated_bound(before)  # "= more than 250": a floor or a ceiling, not the value
    if bound is not None:
        ok, stated_quote = verdicts.within_bound(bound[0], computed, stated, _tolerance(stated_quote, stated, approx)), f"{bound[1]} {stated_quote}"
    verdict = "consistent" if ok else "inconsistent"
    outcome.add(verdict, messages(doc.lang)["verdicts"][verdict].format(stated=stated_quote, computed=shown))


def _operands(expr: str) -> list[float]:
    return [_number(t[3]) for t in _tokens(expr) if t[0] == "num"]


# ------------------------------------------------------------------------------------------- checks

def _equation(doc: Document, claim: Claim, eq: dict, outcome: Outcome) -> None:
    expr, results = eq["expr"], eq["results"]
    approx = bool(_APPROX.search(claim.quote[max(0, eq["start"] - 12):eq["end"]]))
    first = results[0]
    raw, si, quantity = _stated_value(claim, first)
    ops = _operands(expr)
    source = {"source": "text", "quote": expr}
    before = claim.quote[max(0, eq["start"] - 60):eq["start"]]
    first_op = next((t for t in _tokens(expr) if t[0] == "op"), None)
    top_level_div = first_op is not None and "/" in expr[first_op[1]:first_op[2]]
    computed = None
    if len(ops) == 3 and 6.0 in ops and "/" not in expr and sum(o >= 1e7 for o in ops) == 2:
        params, tokens = sorted(o for o in ops if o >= 1e7)  # 6·N·D: parameters are fewer than training tokens
        inputs = Inputs(doc.lang)
        inputs.values.update(params=params, tokens=tokens)
        inputs.sources.update(params=source, tokens=source)
        index = run(doc, "training_flops", inputs)
        if index is not None:
            outcome.calculations.append(index)
            computed, shown_q = doc.calculations[index]["outputs"]["total_flops"], "total_flops"
            _judge(doc, outcome, first["quote"], raw if raw >= 1e12 else si, computed, restate.value(shown_q, computed), approx)
    elif top_level_div and ops and ops[0] >= 1e18 and len(ops) >= 2 and not first["percent"]:  # "1.1e24 / 1.52e25 = 7.2%": a share
        index = time_from_expression(doc, ops, source)
        outcome.calculations += [] if index is None else [index]
        computed = None if index is None else doc.calculations[index]["outputs"]["time_s"]
        if computed is not None:
            stated = si if quantity == "time_s" else raw
            _judge(doc, outcome, first["quote"], stated, computed, restate.value("time_s", computed), approx)
    elif len(ops) == 2 and "/" in expr and _SYMBOLIC_RATIO.search(before):
        inputs = Inputs(doc.lang)
        inputs.values.update(peak_flop_per_s=ops[0], bandwidth_bytes_per_s=ops[1])
        inputs.sources.update(peak_flop_per_s=source, bandwidth_bytes_per_s=source)
        index = run(doc, "dp_critical_batch", inputs)
        if index is not None:
            outcome.calculations.append(index)
            computed = doc.calculations[index]["outputs"]["critical_tokens_per_chip"]
            _judge(doc, outcome, first["quote"], raw, computed, restate.value("critical_tokens_per_chip", computed), approx)
    grid = grid_count.total(doc.text, claim.start + eq["start"], expr, claim.start + first["end"]) if computed is None else None
    if grid is not None or computed is None and (grid := binary_k.rewritten(doc.text, expr)) is not None:  # 16K = 8 × 2048
        expr, source = grid if isinstance(grid, str) else grid[0], {"source": "derived", "from": expr}  # 4096/16 = 256 tiles of 4096²
    if computed is None:
        inputs = Inputs(doc.lang)
        probe = evaluate(expr)
        if quantity is not None and abs(math.log(abs(si) or 1) - math.log(abs(probe) or 1)) < abs(math.log(abs(raw) or 1) - math.log(abs(probe) or 1)):
            raw = si  # the written unit makes the result agree in calculator units ("≈ 70 million seconds")
        if quantity is not None and _IN_BITS.search(first["quote"]) and abs(si * 8 - probe) <= 0.5 * abs(probe):
            raw = si * 8  # "8 × 400G = 3.2 Tbps": a network rate worked in bits, as written, not in the bytes it is stored as
        in_bytes = bool(_IN_BYTES.search(first["quote"])) and written_values.near(first["quote"], probe)
        written = re.match(r"\s*[~≈]?\s*(\d[\d,]*(?:\.\d+)?)", first["quote"])
        if written and not re.search(r"[A-Za-z]", re.sub(r"(?<=\d)\s*x\s*(?=\d)", "*", expr)) and not first["percent"]:
            number = float(written.group(1).replace(",", ""))
            if number and abs(probe - number) <= 0.02 * abs(number):
                raw, in_bytes = number, False  # "32 x 16 = 512GB": bare factors, the unit belongs to the result as written
        # a percentage, or a size in bytes ("~ 2TB" beside "70*4*8 GB"), is passed as written: the working shows its unit
        inputs.values.update(expression=expr, stated_result=first["quote"] if first["percent"] or in_bytes else raw,
                             tolerance=_tolerance(first["quote"], raw, approx))
        inputs.sources.update(expression=source, stated_result={"source": "text", "quote": first["quote"]},
                              tolerance={"source": "derived", "from": first["quote"]})
        steps = verdicts.binary_units(expr + first["quote"], written_values.value_of(first["quote"]) if in_bytes else 0, probe, inputs.values["tolerance"])
        inputs.values["expression"] = f"({expr}) / 1.024^{steps}" if steps else expr  # KB, MB, GB read as powers of 1,024
        index = run(doc, "arithmetic", inputs)
        if index is None:
            return
        outcome.calculations.append(index)
        out = doc.calculations[index]["outputs"]
        computed = out["value"]
        verdict = "consistent" if out["consistent"] else "inconsistent"
        if verdict == "inconsistent" and grid is None and _misread(doc, outcome, index, first["quote"], computed):
            return  # "1.53 * 3072 = 4.59 GB": factors in MB, result in GB; thirty times apart is our pairing, not the author's slip
        # a duration ("5e9 seconds") is shown as one, in seconds as written, not as the bare count "5B"
        in_time = quantity == "time_s" and not first["percent"] and si and 0.1 <= abs(computed / si) <= 10
        shown = human(computed, "bytes") if in_bytes else written_values.seconds(computed) if in_time else written_values.shown(computed, first["percent"])
        shown = arabic_numbers.amount(computed, "").strip() if doc.lang == "ar" and re.search(r"\d[KMBT]$", shown) else shown  # «33.55 مليون», not "33.55M"
        shown += messages(doc.lang)["verdicts"]["binary_units"] if steps else ""  # what the "/ 1.024^k" of the working is
        outcome.add(verdict, messages(doc.lang)["verdicts"][verdict].format(stated=first["quote"], computed=shown))
        si = raw if quantity is None else si
    # "≈ 70 million seconds ≈ 2.2 years": each later result restates the one before in another unit
    previous = (first, si, quantity)
    for later in results[1:]:
        raw2, si2, quantity2 = _stated_value(claim, later)
        if si2 == raw2 or not raw2 or (previous[2] and quantity2 and not verdicts.same_kind(previous[2], quantity2)):
            previous = (later, si2, quantity2)
            continue  # "6.3e24 operations ≈ 4 months on 6000 H100s": a time is no other unit of a FLOP count
        per_unit = si2 / raw2
        inputs = Inputs(doc.lang)
        inputs.values.update(expression=f"{previous[1]:g} / {per_unit:g}", stated_result=raw2,
                             tolerance=_tolerance(later["quote"], raw2, True))
        inputs.sources.update(expression={"source": "derived", "from": f"{previous[0]['quote']} in the unit of {later['quote']}"},
                              stated_result={"source": "text", "quote": later["quote"]},
                              tolerance={"source": "derived", "from": later["quote"]})
        index = run(doc, "arithmetic", inputs)
        if index is not None:
            outcome.calculations.append(index)
            out = doc.calculations[index]["outputs"]
            verdict = "consistent" if out["consistent"] else "inconsistent"
            if verdict == "inconsistent" and _misread(doc, outcome, index, later["quote"], out["value"]):
                break  # "1605632 B = 1.53 MB" read in other units than the author's (MiB): no verdict
            unit = re.sub(r"^[^A-Za-z\u0600-\u06FF]+", "", later["quote"])  # "2.2 years" -> "years"
            shown = f"{written_values.shown(out['value'])} {unit}".strip()
            outcome.add(verdict, messages(doc.lang)["verdicts"][verdict].format(stated=later["quote"], computed=shown))
        previous = (later, si2, quantity2)


def _symbols(doc: Document, claim: Claim, symbols: dict, outcome: Outcome) -> None:
    """C (FLOP/s) and W (bandwidth) assigned in the text: the critical batch per chip C / W, against the batch it states."""
    if "C" not in symbols or "W" not in symbols:
        return
    inputs = Inputs(doc.lang)
    inputs.text("peak_flop_per_s", symbols["C"])
    inputs.text("bandwidth_bytes_per_s", symbols["W"])
    index = run(doc, "dp_critical_batch", inputs)
    if index is None:
        return
    outcome.calculations.append(index)
    computed = doc.calculations[index]["outputs"]["critical_tokens_per_chip"]
    last = max(claim.quote.find(s.quote) + len(s.quote) for s in symbols.values())
    stated = next((f for f in claim.figures if f.start - claim.start >= last and f.quantity not in ("expression",)
                   and 1 <= f.value < 1e7 and f.value != 1.0), None)
    shown = restate.value("critical_tokens_per_chip", computed)
    if stated is None:
        outcome.add("explained", messages(doc.lang)["verdicts"]["computed"].format(computed=shown))
    else:
        _judge(doc, outcome, stated.quote, stated.value, computed, shown, stated.approx)  # a threshold: "at least" states it


def _change(doc: Document, claim: Claim, outcome: Outcome) -> None:
    """A stated change between two figures: "from X to Y (+Z%)", "X, which is Z% faster than Y"."""
    change = next((f for f in claim.figures if f.quantity in ("percent_change", "speedup")), None)
    if change is None:
        return
    before = next((f for f in claim.figures if f.role == "before"), None)
    after = next((f for f in claim.figures if f.role == "after"), None)
    if before is None or after is None:
        later = [f for f in claim.figures if f.start > change.end and _THAN.search(doc.text[max(0, f.start - 20):f.start])]
        earlier = [f for f in claim.figures if f.end <= change.start and f.quantity not in ("expression",)]
        if not later or not earlier:
            return
        before = later[0]
        same = [f for f in earlier if (f.unit == before.unit or f.quantity == before.quantity)]
        if not same:
            return
        after = same[-1]
    kinds = {verdicts.kind(before.quantity), verdicts.kind(after.quantity)}
    if mixed_directions(doc, before, after):
        return  # 900 GB/s both ways against 64 GB/s each way: checks.directions compares them like for like
    if change.quantity == "speedup" and before.quantity == after.quantity and before.quantity in ("n_chips", "n_nodes") \
            or change.start > after.end and verdicts.OTHER_SCOPE.match(doc.text, change.end):  # "105.8 → 80.7 µs ... +1.46% end-to-end"
        return  # "from 8 to 64 GPUs gave a 6.2x speedup": the speed-up of a scale-up, which checks.scaling sets against 8x
    if len(kinds) > 1 or (change.quantity == "speedup" and not kinds <= _SPEED_KINDS):
        # a speed-up is a ratio of times or rates; a memory (or mixed) pair read as one is an uncertain reading
        shown = f"{before.quote} → {after.quote}"
        outcome.add("needs_more", messages(doc.lang)["verdicts"]["uncertain_kind"].format(stated=change.quote, computed=shown))
        return
    swapped = before.quantity in _TIMES and _FASTER.search(claim.quote) is not None
    if swapped:
        before, after = after, before  # a faster run takes less time: speed changes by old time / new time
    inputs = Inputs(doc.lang)
    inputs.text("before", before)
    inputs.text("after", after)
    stated = change.quote.strip() if change.quantity == "speedup" or change.quote.strip().lower().endswith(("x", "×")) else change.value
    inputs.stated("stated_change", stated, change.quote, _tolerance(change.quote, change.value, change.approx, round_factor=True))
    index = run(doc, "ratio", inputs)
    if index is None:
        return
    outcome.calculations.append(index)
    out = doc.calculations[index]["outputs"]
    factor = isinstance(stated, str)
    shown = written_values.shown(out["factor"]) + "x" if factor else written_values.shown(abs(out["change"]), True)
    verdict = "consistent" if out["consistent"] else "inconsistent"
    if verdict == "inconsistent" and verdicts.misread(change.value, out["factor"] if factor else out["change"]):
        outcome.calculations.remove(index)  # a pairing this far off is ours to doubt: its working is not shown
        discard(doc, index)
        return outcome.add("needs_more", messages(doc.lang)["verdicts"]["misread_pair"].format(stated=change.quote))
    bound = verdicts.stated_bound(doc.text[max(0, change.start - 24):change.start])
    if bound is not None:  # "more than 2x faster", "at least 40% lower": a floor or a ceiling, not the value
        value = max(out["factor"], 1 / out["factor"]) if factor and out["factor"] else abs(out["change"])
        verdict = "consistent" if verdicts.within_bound(bound[0], value, abs(change.value), inputs.values["tolerance"]) else "inconsistent"
        outcome.add(verdict, messages(doc.lang)["verdicts"][verdict].format(stated=f"{bound[1]} {change.quote}", computed=shown))
        return
    if swapped and not factor and after.value > 0:
        # "0.34 -> 0.24 s/step, 35% faster": 41.7% faster as a speed, or 29.4% less time; a text may mean either reading
        less = (after.value - before.value) / after.value  # swapped: 'after' holds the old time
        if abs(less - abs(change.value)) <= inputs.values["tolerance"] * abs(change.value):
            verdict = "consistent"
        outcome.add(verdict, messages(doc.lang)["verdicts"][f"speed_readings_{verdict}"].format(
            stated=change.quote, faster=shown, less=written_values.shown(less, True), factor=written_values.shown(out["factor"]) + "x"))
        return
    outcome.add(verdict, messages(doc.lang)["verdicts"][verdict].format(stated=change.quote, computed=shown))


def _degrees(doc: Document, claim: Claim, outcome: Outcome) -> None:
    """Data x tensor x pipeline (x context) degrees, all stated with the chip count, multiply to it."""
    chips = next((f for f in claim.figures if f.quantity == "n_chips"), None)
    pod = pod_chips(doc, claim, whole=True) if chips is None else None
    if pod is not None:  # "on a full v5p pod": the pod's chip count from data/hardware.json
        chips = SimpleNamespace(value=float(pod[0]), quote=pod[1], start=-1, catalog=True)
    spans = [(claim.start + eq["start"], claim.start + eq["end"]) for eq in equations(claim)[0]]
    stated: dict = {}
    for fig in claim.figures:  # each degree as first stated, not an operand of the arithmetic that multiplies them
        if fig.quantity in _DEGREES and fig.role != "after" and not any(a <= fig.start < b for a, b in spans):
            stated.setdefault(fig.quantity, fig)
    if "mp_degree" in stated and ({"tp_degree", "pp_degree"} & set(stated)):
        del stated["mp_degree"]  # model parallelism is TP x PP: said beside them, it is their product, not another factor
    if chips is None or "dp_degree" not in stated or len(stated) < 2:
        return
    if len(named := [f.quantity for f in claim.figures if f.quantity in _DEGREES]) != len(set(named)):
        return  # "pure TP=4 ... and TP=2+FSDP=2": several layouts, each on the stated chips, not one to multiply
    if any(r["start"] <= chips.start - claim.start < r["end"] for eq in equations(claim)[0] for r in eq["results"]):
        return  # the text multiplies them itself; that equation is checked as written
    figs = [stated[q] for q in _DEGREES if q in stated]
    inputs = Inputs(doc.lang)
    inputs.values.update(expression=" * ".join(f"{f.value:g}" for f in figs), stated_result=chips.value, tolerance=1e-9)
    inputs.sources.update(expression={"source": "text", "quote": " x ".join(f.quote for f in figs)},
                          stated_result={"source": "catalog", "from": f"{chips.quote} pod (data/hardware.json)"} if getattr(chips, "catalog", False)
                          else {"source": "text", "quote": chips.quote},
                          tolerance={"source": "derived", "from": "degrees are whole numbers"})
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return
    out = doc.calculations[index]["outputs"]
    verdict = "consistent" if out["consistent"] else "inconsistent"
    if verdict == "consistent" and not getattr(chips, "catalog", False) and any(f.quantity not in _LAYOUT for f in claim.figures):
        discard(doc, index)  # "FSDP8 TP8 PP4 on 256 H100s ... reached 41% MFU": the claim is the MFU; its layout adding up is said
        return  # only where the sentence is about the layout ("on 400 GPUs with 8-way MP and 50-way DP", rounds 65-67 readers)
    per_unit = out["value"] / chips.value if chips.value else 0
    if verdict == "inconsistent" and per_unit in (2, 4, 8) and _MULTI_GPU_UNIT.search(chips.quote):
        discard(doc, index)  # "16x GB300, TP8/PP4/DP2": 16 trays of 4 GPUs, not 16 GPUs (round 57)
        outcome.add("needs_more", messages(doc.lang)["verdicts"]["units_per_count"].format(stated=chips.quote, computed=written_values.shown(out["value"]), factor=f"{per_unit:g}"))
        return
    outcome.calculations.append(index)
    m = messages(doc.lang)["verdicts"]
    if getattr(chips, "catalog", False):
        outcome.add(verdict, m["pod_degrees"].format(pod=chips.quote, n=written_values.shown(chips.value), computed=written_values.shown(out["value"])))
    else:
        outcome.add(verdict, m[verdict].format(stated=chips.quote, computed=written_values.shown(out["value"])))


def _zero_split(doc: Document, claim: Claim, outcome: Outcome) -> None:
    """A ZeRO stage that shards optimizer states over N data-parallel ranks: the per-device share is the stated total / N."""
    zero, dp = figure(doc, claim, "zero_stage"), figure(doc, claim, "dp_degree", "n_ranks")
    per_device = next((f for f in claim.figures if f.quantity in ("memory_bytes", "bytes", "memory_bytes_per_chip",
                                                                   "optimizer_bytes_per_chip", "bytes_per_chip")), None)
    total = figure(doc, claim, "optimizer_state_bytes")
    if zero is None or dp is None or per_device is None or total is None or zero.value < 1 or total is per_device:
        return
    context = Inputs(doc.lang)  # the whole model state per chip, for the reader: params from Adam's 12 bytes per parameter
    context.derived("params", total.value / 12, f"{total.quote} / 12 bytes per parameter (fp32 Adam: master weights, two moments)")
    context.text("zero_stage", zero)
    context.text("dp_degree", dp)
    index = run(doc, "model_state_memory", context)
    if index is not None:
        outcome.calculations.append(index)
    inputs = Inputs(doc.lang)
    inputs.values.update(expression=f"{total.quote} / {dp.value:g}", stated_result=per_device.value,
                         tolerance=_tolerance(per_device.quote, per_device.value, per_device.approx))
    inputs.sources.update(expression={"source": "text", "quote": f"{total.quote} / {dp.quote}"},
                          stated_result={"source": "text", "quote": per_device.quote},
                          tolerance={"source": "derived", "from": per_device.quote})
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return
    outcome.calculations.append(index)
    out = doc.calculations[index]["outputs"]
    verdict = "consistent" if out["consistent"] else "inconsistent"
    outcome.add(verdict, messages(doc.lang)["verdicts"][verdict].format(stated=per_device.quote, computed=human(out["value"], "bytes")))


def _chip_count(doc: Document, claim: Claim):
    """The chips of the job: a stated count, or a number the text follows with a chip noun ("18,823` chips")."""
    for fig in claim.figures:
        if fig.quantity == "n_chips" or (fig.quantity == "number" and fig.value.is_integer() and _CHIP_NOUN.match(doc.text[fig.end:])):
            return fig
    return figure(doc, claim, "n_chips")


def _sentence_at(doc: Document, fig) -> str:
    """The claim a figure is stated in (or the text around it)."""
    claim = next((c for c in doc.claims if c.start <= fig.start < c.end), None)
    return claim.quote if claim is not None else doc.text[max(0, fig.start - 80):fig.end + 80]


def _time_from_flops(doc: Document, claim: Claim, outcome: Outcome) -> None:
    """A training time stated with the total FLOPs, chips, per-chip peak and MFU it follows from."""
    stated = next((f for f in claim.figures if f.quantity in ("time_s", "chip_hours") and not any(claim.start + eq["start"] <= f.start <= claim.start + eq["end"] for eq in equations(claim)[0])), None)  # "... = 29.7 days": its own arithmetic
    flops = next((f for f in claim.figures if f.quantity == "total_flops"), None) or figure(doc, claim, "total_flops")
    if stated is None or flops is None or figure(doc, claim, "tokens") is not None and figure(doc, claim, "params") is not None and flops not in claim.figures:
        return
    mfu = figure(doc, claim, "mfu", "utilization")
    chips = _chip_count(doc, claim)
    inputs = Inputs(doc.lang)
    inputs.text("total_flops", flops)
    # an operand of written arithmetic ("15e12" in "(15e12 * 70e9 * 6)") is not a chip's peak
    spans = [(claim.start + eq["start"], claim.start + eq["end"]) for eq in equations(claim)[0]]
    peak = next((f for pool in (claim.figures, doc.figures) for f in pool if f.quantity in ("peak_flop_per_s", "flop_per_s_per_chip")
                 and not any(a <= f.start < b for a, b in spans)), None)
    if peak is not None:
        inputs.text("peak_flop_per_s", peak)
    if chips is None or mfu is None or (peak is None and not chip_inputs(doc, claim, inputs)):
        return
    borrowed = [f for f in (flops, mfu, chips) if f not in claim.figures]
    if borrowed and (_PHASE.search(claim.quote) or any(_PHASE.search(_sentence_at(doc, f)) for f in borrowed)):
        return  # "The annealing phase took 12 days": the FLOPs and MFU of another sentence are another phase's
    inputs.text("n_chips", chips)
    inputs.text("mfu", mfu)
    index = run(doc, "training_time", inputs)
    if index is None:
        return
    outcome.calculations.append(index)
    out = doc.calculations[index]["outputs"]
    key = "chip_hours" if stated.quantity == "chip_hours" else "time_s"
    before = len(outcome.items)
    _judge(doc, outcome, stated.quote, stated.value, out[key], restate.value(key, out[key]), stated.approx,
           doc.text[max(0, stated.start - 24):stated.start])  # "took over 1.7M GPU hours": a floor
    if borrowed and outcome.items[before][0] == "inconsistent":
        # figures from other sentences may be another run's: a disagreement built on them is an uncertain reading
        names = messages(doc.lang)["quantity_names"]
        outcome.items[before] = ("needs_more", messages(doc.lang)["verdicts"]["needs_more"].format(
            missing=", ".join(names.get(f.quantity, f.quantity) for f in borrowed)))


def check(doc: Document, claim: Claim) -> Result | None:
    """Every check the claim's own numbers make, combined; None when none judged."""
    outcome = Outcome()
    found, symbols = equations(claim)
    for eq in found:
        try:
            _equation(doc, claim, eq, outcome)
        except CalculatorInputError as exc:
            doc.failures.append(f"arithmetic: {exc}")
    _symbols(doc, claim, symbols, outcome)
    _change(doc, claim, outcome)
    _degrees(doc, claim, outcome)
    _zero_split(doc, claim, outcome)
    if not any(doc.calculations[i]["calculator"] == "training_time" for i in outcome.calculations):
        _time_from_flops(doc, claim, outcome)
    return outcome.result()
