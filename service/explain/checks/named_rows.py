"""A factor a sentence states between two named rows of a table above it ("A runs 1.8x faster than B" under the rows
"A | 8.90 s | ..." and "B | 16.38 s | ..."): the rows' first like column redone (16.38 / 8.90 = 1.84x)."""

import re

from service.explain.checks import verdicts
from service.explain.checks.arithmetic import tolerance_of
from service.explain.checks.core import Inputs, Result, run, said
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_ROWS_UP = 12  # rows farther up than this belong to another table
_FACTORS = ("speedup", "ratio")
_PERCENT = "percent_change"
_MAX_FACTORS = 3  # "8% over A, and 19.5% over B": each judged; more is a table in prose
_NAME_CELL = re.compile(r"^[A-Za-z\u0600-\u06FF][\w.+\-/ ()]{0,40}$")
# what a sentence says it measures, between the factor and the row it compares with; a kind not named here stops the check
_MEASURES = {"throughput": re.compile(r"tokens?|tok/s|samples?|throughput|qps|requests?|images?|it/s", re.I),
             "compute_rate": re.compile(r"T?FLOP", re.I),
             "bandwidth": re.compile(r"bandwidth|busbw|algbw|[GM]B/s", re.I),
             "time": re.compile(r"latency|time|TTFT|TPOT|ITL|seconds|\bms\b", re.I),
             "other": re.compile(r"MFU|HFU|utili[sz]ation|memory|accuracy|loss|score|perplexity|power|energy|cost|price", re.I)}
_NO_NAME = {"none", "n/a", "na", "no", "off", "-"}  # "none (bf16)": the bracket names the row, not "none"
_SPEED_KINDS = ("time", "throughput", "compute_rate", "bandwidth")
_CELL_END = re.compile(r"^\s*(?:\||:|\t| {2,})")  # what ends a row's label cell: a column bar, a colon, a tab, a gap
_LABEL = re.compile(r"^[A-Za-z\u0600-\u06FF][\w.+\-/ ]{0,30}$")
# the comparison the factor makes, read right after it: "faster"/"higher" (the subject is the better), "slower"/"lower"
_UP = re.compile(r"^\s*(?:faster|quicker|higher|more|greater|better|أسرع|أعلى|أكثر|أفضل)\b", re.I)
_DOWN = re.compile(r"^\s*(?:slower|lower|less|fewer|smaller|worse|أبطأ|أقل|أدنى)\b", re.I)
_THAN = re.compile(r"\b(?:than|over|vs\.?|versus|compared (?:to|with)|relative to)\b|من|مقارنة", re.I)


def row_label(claim: Claim) -> str | None:
    """The row's name: the words before its first figure, when a cell separator ends them ("Ring | 16.38 s")."""
    if not claim.figures:
        return None
    head = claim.quote[:claim.figures[0].start - claim.start]
    m = re.match(r"^\s*\|?\s*(.*?)\s*(?:\||:|\t| {2,})[\s|:]*$", head)
    if m is None or not _LABEL.match(m.group(1)) or len(m.group(1).split()) > 4:
        return None
    return m.group(1).strip()


def _rows_above(doc: Document, index: int) -> tuple[dict[str, Claim], dict[int, str]]:
    """The named rows among the claims above, by lower-cased name (a name given to two rows is no one row's), and each
    row's name to show. A row whose first cell gives no name is named by the first column whose cells differ row to row
    ("Llama3-8b | tensorwise | 7190": tensorwise), and a cell's bracketed word names it too ("none (bf16)": bf16)."""
    above = doc.claims[max(0, index - _ROWS_UP):index]
    named = [(row_label(c), c) for c in above]
    if sum(name is not None for name, _ in named) < 2:
        named = _by_differing_cell(above)
    rows: dict[str, Claim] = {}
    seen: set[str] = set()
    for name, earlier in named:
        for key in _aliases(name):
            if key in seen:
                rows.pop(key, None)
                continue
            seen.add(key)
            rows[key] = earlier
    return rows, {id(c): name for name, c in named if name}


def _by_differing_cell(claims: list[Claim]) -> list[tuple[str | None, Claim]]:
    """Rows of one table (as many cells each) named by the first column of words whose cells all differ."""
    table = [(c, [cell.strip() for cell in c.quote.strip().strip("|").split("|")]) for c in claims if c.quote.count("|") >= 2]
    if len(table) < 2 or len({len(cells) for _, cells in table}) != 1:
        return []
    for column in range(len(table[0][1])):
        values = [cells[column] for _, cells in table]
        if all(_NAME_CELL.match(v) for v in values) and len({v.lower() for v in values}) == len(values):
            return [(cells[column], c) for c, cells in table]
    return []


def _aliases(name: str | None) -> list[str]:
    """The lower-cased names a row goes by: its cell, and the word in its brackets and the one before them."""
    if name is None:
        return []
    inner = re.match(r"^(.*?)\s*\(([^()]+)\)$", name)
    out = [name.lower()]
    if inner:
        out += [part.strip().lower() for part in inner.groups() if part.strip().lower() not in _NO_NAME and _LABEL.match(part.strip())]
    return out


def _named(claim: Claim, rows: dict[str, Claim]) -> list[tuple[int, str]]:
    """(offset, name) of each row named in the sentence, a name inside a longer one ("CuDNN" in "CuDNN varlen") left out."""
    found = []
    for key in rows:
        for m in re.finditer(r"(?<![\w-])" + re.escape(key) + r"(?![\w-])", claim.quote, re.I):
            found.append((m.start(), m.end(), key))
    kept = [f for f in found if not any(o != f and o[0] <= f[0] and f[1] <= o[1] for o in found)]
    return sorted((start, key) for start, _, key in kept)


def named_rows(doc: Document, claim: Claim) -> Result | None:
    """Each factor or percentage the sentence states from its subject row (named first, before it) to the row named
    right after it, on the first column both rows give as a time or a rate; a reading that goes the other way, or a
    percentage over a time (is "20% faster" a time cut by a fifth, or a rate up by one?), is not judged, and a sentence
    is judged only when each of its factors is."""
    stated = [f for f in claim.figures if f.quantity in _FACTORS and f.value > 0 or f.quantity == _PERCENT and f.value]
    if not stated or len(stated) > _MAX_FACTORS or any(verdicts.kind(f.quantity) in _SPEED_KINDS for f in claim.figures):
        return None
    index = doc.claims.index(claim) if claim in doc.claims else -1
    rows, display = _rows_above(doc, index) if index > 0 else ({}, {})
    if len(rows) < 2:
        return None
    names = _named(claim, rows)
    written = {key: claim.quote[start:start + len(key)] for start, key in names}  # "bf16", as the sentence names "none (bf16)"
    found = []
    for k, factor in enumerate(stated):
        at = factor.start - claim.start
        until = stated[k + 1].start - claim.start if k + 1 < len(stated) else len(claim.quote)
        before = [key for start, key in names if start < at]
        after = [(start, key) for start, key in names if at < start < until]
        if not after and k + 1 < len(stated):  # "A is 27.6% slower in latency and 22.3% lower in throughput than B": one B
            after = [(start, key) for start, key in names if start > stated[-1].start - claim.start][:1]
        tail = doc.text[factor.end:]
        up, down = _UP.match(tail), _DOWN.match(tail)
        if not before or not after or rows[before[0]] is rows[after[0][1]] or not (up or down):
            return None
        between = claim.quote[factor.end - claim.start:after[0][0]]
        if not _THAN.search(between):
            return None  # the row after the factor is not what it is measured against
        a, b = rows[before[0]], rows[after[0][1]]
        # a row named by a middle cell is said as the sentence names it ("bf16" for "none (bf16)")
        shown = {id(a): display[id(a)], id(b): display[id(b)] if row_label(b) else written[after[0][1]]}
        own = claim.quote[factor.end - claim.start:min(until, after[0][0])]  # what this factor measures: "in latency"
        one = _judge(doc, factor, a, b, bool(up), shown, own)
        if one is None:
            return None
        found.append(one)
    verdict = "inconsistent" if any(v == "inconsistent" for _, v, _ in found) else "consistent"
    return Result([ran for ran, _, _ in found], verdict, "; ".join(why for _, _, why in found))


def _judge(doc: Document, factor, a: Claim, b: Claim, up: bool, display: dict[int, str], between: str) -> tuple[int, str, str] | None:
    """(calculation, verdict, why) for one stated factor or percentage of row a over row b, on their first like column."""
    for fa in a.figures:
        kind = verdicts.kind(fa.quantity)
        fb = next((f for f in b.figures if f.quantity == fa.quantity), None)
        if kind not in _SPEED_KINDS or fb is None or fa.value <= 0 or fb.value <= 0:
            continue
        percent = factor.quantity == _PERCENT
        named = {k for k, words in _MEASURES.items() if words.search(between)}
        if named and kind not in named:
            continue  # "22.3% lower in output throughput": the column the sentence names, not the first rate
        if percent and kind == "time" and "time" not in named:
            return None  # "20% faster": a time cut by a fifth, or a rate up by one? Only "27.6% slower in latency" says
        better_is_smaller = kind == "time"
        a_better = fa.value < fb.value if better_is_smaller else fa.value > fb.value
        a_higher = fa.value > fb.value
        if (a_higher if percent and kind != "time" else a_better) != up:
            return None  # "A is 1.8x faster" where A's figure is the worse: another column or another reading
        big, small = (fa, fb) if fa.value > fb.value else (fb, fa)
        inputs = Inputs(doc.lang)
        inputs.text("before", fb if percent else small)  # a percentage is measured from the row compared with
        inputs.text("after", fa if percent else big)
        stated = factor.value if percent else f"{factor.value:g}x"
        inputs.stated("stated_change", stated, factor.quote, tolerance_of(factor.quote, abs(factor.value), factor.approx))
        ran = run(doc, "ratio", inputs)
        if ran is None:
            return None
        out = doc.calculations[ran]["outputs"]
        verdict = "consistent" if out["consistent"] else "inconsistent"
        name_of = {id(a): display[id(a)], id(b): display[id(b)]}
        words = messages(doc.lang)["verdicts"]
        if percent:
            return ran, verdict, words[f"rows_change_{verdict}"].format(
                one=name_of[id(a)], x=said(doc, fa), other=name_of[id(b)], y=said(doc, fb),
                computed=f"{abs(out['change']) * 100:.1f}%", stated=said(doc, factor), direction=words["rows_change_up" if a_higher else "rows_change_down"])
        return ran, verdict, words[f"rows_factor_{verdict}"].format(
            big=name_of[id(a) if big is fa else id(b)], x=said(doc, big), small=name_of[id(b) if big is fa else id(a)],
            y=said(doc, small), computed=f"{out['factor']:.2f}".rstrip("0").rstrip("."), stated=said(doc, factor))
    return None

