"""A pair written "A vs B" with its change in brackets right after it: "vLLM 14,892 vs 6,986 peak output tok/s
(+113.2%)" is (14,892 - 6,986) / 6,986 = 113.2%. The bracket belongs to the pair before it, never to a later pair of
the same sentence (the round-25 answer that set +113.2% against "TTFT 0.26s vs 135.5s" was wrong)."""

import re

from service.explain.checks.core import Inputs, Result, run
from service.explain.checks.shares import share_tolerance
from service.explain.document import Claim, Document
from service.i18n.messages import messages

NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_PAIR = re.compile(rf"(?<![\w.,])(?P<a>{NUMBER})\s*(?P<unit>[^\s\d(),;]{{0,8}})\s*(?:vs\.?|versus|against|→|->|مقابل)\s*(?P<b>{NUMBER})"
                   rf"(?P<tail>[^()\d;]{{0,40}}?)\(\s*(?P<sign>[+\-−])?\s*(?P<pct>\d+(?:\.\d+)?)\s*%\s*\)", re.I)
MAX_PAIRS = 4


def written_value(written: str) -> float:
    """A number as the text writes it ("14,892"), read."""
    return float(written.replace(",", ""))


def bracketed_change(doc: Document, claim: Claim) -> Result | None:
    """Each "A vs B ... (+x%)" of the sentence: (A - B) / B against x, with the written share's rounding."""
    if claim.calculations:
        return None
    found = [m for m in _PAIR.finditer(claim.quote) if written_value(m["b"])][:MAX_PAIRS]
    if not found:
        return None
    words = messages(doc.lang)["verdicts"]
    indices, agree, off = [], [], []
    for m in found:
        a, b, stated = written_value(m["a"]), written_value(m["b"]), float(m["pct"]) * (-1 if m["sign"] in ("-", "−") else 1)
        if (a > b) != (stated > 0) or abs(abs(stated) - 100 * abs(a - b) / a) <= share_tolerance(m["pct"]) * abs(stated) \
                and abs(abs(stated) - 100 * abs(a - b) / b) > share_tolerance(m["pct"]) * abs(stated):
            continue  # "(+12%)" beside a fall, or a change over the first figure ("10 vs 8 (+20%)"): another reading, not judged
        inputs = Inputs(doc.lang)
        inputs.expression(f"({a:g} - {b:g}) / {b:g}", f"({m['a']} - {m['b']}) / {m['b']}")
        inputs.values["stated_result"] = f"{stated:g}%"
        inputs.sources["stated_result"] = {"source": "text", "quote": f"{m['sign'] or ''}{m['pct']}%"}
        inputs.values["tolerance"] = share_tolerance(m["pct"])
        index = run(doc, "arithmetic", inputs)
        if index is None:
            continue
        indices.append(index)
        out = doc.calculations[index]["outputs"]
        fields = {"a": m["a"], "b": m["b"], "stated": f"{m['sign'] or ''}{m['pct']}%", "computed": f"{100 * out['value']:+.1f}%"}
        (agree if out.get("consistent") else off).append(words["change_" + ("consistent" if out.get("consistent") else "inconsistent")].format(**fields))
    if not indices:
        return None
    sep = "؛ " if doc.lang == "ar" else "; "
    return Result(indices, "inconsistent" if off else "consistent", sep.join(off + agree))
