"""A change written "from A to B", or a pair "A versus B", with its factor in brackets right after it: "increased the
number of experts from 8 to 56 (7x increase)" is 56 / 8 = 7; "11.17 ms eager versus 1.82 ms fused (6.1x)" 11.17 / 1.82.
The bracket belongs to the pair just before it; a factor that does not fit its rounding is said, not judged."""

import re

from service.explain.checks.bracketed_change import MAX_PAIRS, NUMBER, written_value
from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_PAIR = re.compile(rf"\bfrom\s+(?P<a>{NUMBER})\s*(?P<ua>[A-Za-z/%]{{0,6}})\s+to\s+(?P<b>{NUMBER})\s*(?P<ub>[A-Za-z/%]{{0,6}})\s*"
                   rf"\(\s*(?:an?\s+|~|about\s+|roughly\s+)?(?P<f>\d+(?:\.\d+)?)\s*[x×]\s*(?:increase|decrease|reduction|more|less|fewer|"
                   rf"larger|smaller|higher|lower|bigger|faster|slower|growth|drop)?\s*\)", re.I)


# "11.17 ms eager versus 1.82 ms fused at 2048 rows (6.1x)": a pair set side by side, its factor in the bracket after it
_VERSUS = re.compile(rf"(?<![\d.,])(?P<a>{NUMBER})\s*(?P<ua>[A-Za-z/%]{{0,6}})(?:\s+[A-Za-z][\w-]*){{0,2}}\s+(?:versus|vs\.?)\s+"
                     rf"(?P<b>{NUMBER})\s*(?P<ub>[A-Za-z/%]{{0,6}})(?:\s+[A-Za-z][\w-]*){{0,2}}(?:\s+(?:at|on|with|for)\s+[^,;()]{{1,30}}?)?"
                     rf"\s*\(\s*(?:~|about\s+|roughly\s+)?(?P<f>\d+(?:\.\d+)?)\s*[x×]\s*\)", re.I)


def bracketed_factor(doc: Document, claim: Claim) -> Result | None:
    """Each "from A to B (Fx ...)" of the sentence: the larger over the smaller against F, within F's rounding."""
    if claim.calculations:
        return None
    pairs = sorted([*_PAIR.finditer(claim.quote), *_VERSUS.finditer(claim.quote)], key=lambda m: m.start())
    found = [m for m in pairs if written_value(m["a"]) and written_value(m["b"]) and (m["ua"] or "") == (m["ub"] or "")][:MAX_PAIRS]
    words = messages(doc.lang)["verdicts"]
    indices, said, consistent = [], [], True
    for m in found:
        a, b = written_value(m["a"]), written_value(m["b"])
        big, small = (m["b"], m["a"]) if b >= a else (m["a"], m["b"])
        index = worked(doc, f"{written_value(big):g} / {written_value(small):g}", f"{big} / {small}")
        if index is None:
            continue
        computed, stated = doc.calculations[index]["outputs"]["value"], float(m["f"])
        decimals = len(m["f"].split(".")[1]) if "." in m["f"] else 0
        agrees = abs(computed - stated) <= 0.5 * 10 ** -decimals + 0.005 * stated  # "7x" is 6.5 to 7.5, "1.33x" 1.325 to 1.335
        consistent = consistent and agrees
        indices.append(index)
        shown = {"x": big, "y": small, "computed": f"{computed:.2f}".rstrip("0").rstrip("."), "stated": f"{m['f']}x"}
        said.append(words["factor_before" if agrees else "factor_before_gap"].format(**shown))
    if not indices:
        return None
    sep = "؛ " if doc.lang == "ar" else "; "
    return Result(indices, "consistent" if consistent else None, sep.join(said))  # a gap is said, not judged
