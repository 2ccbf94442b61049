"""A factor of routing combinations a sentence states for two mixture-of-experts layouts the text gives ("16 experts and
chooses 4, while 8 experts and chooses 2 ... 65x more possible combinations"): C(16,4) / C(8,2) = 1820 / 28 = 65."""

import math
import re

from service.explain.checks.arithmetic import tolerance_of
from service.explain.checks.core import Inputs, Result, run, said
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_COMBINATIONS = re.compile(r"\bcombinations?\b|مجموعات|توليفات", re.I)
# "16 experts and chooses 4", "8 experts, picking 2", "16 خبيرًا ويختار 4": a layer's experts and how many each token uses
_LAYOUT = re.compile(r"(\d+)\s+(?:(?:routed\s+)?experts?|خبير[\w\u064B-\u0652]*|خبراء)\s*(?:,|and|و)?\s*(?:\w+\s+){0,2}?"
                     r"(?:chooses?|choosing|selects?|selecting|picks?|picking|routes?\s+(?:each\s+token\s+)?to|activates?|activating|top-?k\s*=?|"
                     r"يختار\w*|تختار\w*|ينشط\w*|تنشط\w*)\s*(\d+)", re.I)
_LOOK_BACK = 1  # the layouts stand in the sentence itself or the one before
_REACH = 400


def expert_choices(doc: Document, claim: Claim) -> Result | None:
    """Exactly two layouts (experts, chosen) in the sentence or the one before, and one factor the sentence states about
    combinations: the larger count of ways to choose over the smaller, against the factor (written-arithmetic tolerance)."""
    factors = [f for f in claim.figures if f.quantity in ("ratio", "speedup") and f.value > 1]
    if len(factors) != 1 or not _COMBINATIONS.search(claim.quote):
        return None
    index = doc.claims.index(claim) if claim in doc.claims else -1
    # the sentence and what stands before it, back to the claim before (included) and no farther than _REACH characters:
    # the sentence that gives the layouts may hold no figure the reader takes, so it need not be a claim
    start = max(doc.claims[index - _LOOK_BACK].start if index >= _LOOK_BACK else 0, claim.start - _REACH)
    text = doc.text[start:claim.end]
    layouts = [(int(m.group(1)), int(m.group(2))) for m in _LAYOUT.finditer(text)]
    if len(set(layouts)) != 2 or any(not 0 < k < n for n, k in layouts):
        return None
    (n1, k1), (n2, k2) = sorted(set(layouts), key=lambda nk: math.comb(*nk), reverse=True)
    big, small = math.comb(n1, k1), math.comb(n2, k2)
    stated = factors[0]
    inputs = Inputs(doc.lang)
    inputs.expression(f"{big} / {small}", f"C({n1},{k1}) / C({n2},{k2})")
    inputs.stated("stated_result", stated.value, stated.quote, tolerance_of(stated.quote, stated.value, stated.approx))
    ran = run(doc, "arithmetic", inputs)
    if ran is None:
        return None
    out = doc.calculations[ran]["outputs"]
    verdict = "consistent" if out["consistent"] else "inconsistent"
    return Result([ran], verdict, messages(doc.lang)["verdicts"][f"expert_choices_{verdict}"].format(
        n1=n1, k1=k1, n2=n2, k2=k2, big=f"{big:,}", small=f"{small:,}",
        computed=f"{out['value']:.1f}".rstrip("0").rstrip("."), stated=said(doc, stated)))
