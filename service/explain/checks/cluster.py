"""A cluster's chip count from its machines: machines x chips per machine, against the total the sentence states."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import Inputs, Result, discard, run
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# "eight GPUs to a computer", "8 GPUs per node", "with 8 H100s each": a count of chips in one machine
_IN_ONE = re.compile(r"\s*(?:to|per|in|on)\s+(?:a|each|every|one|the)?\s*(?:computer|node|host|server|machine|box)s?\b|\s+each\b"
                     r"|\s*(?:في|لكل)\s+(?:كل\s+)?(?:حاسوب|عقدة|خادم|جهاز)", re.I)


def machines_times_chips(doc: Document, claim: Claim) -> Result | None:
    """"4,088 H100 GPUs spread across 511 computers, with eight GPUs to a computer": 511 x 8 = 4,088, exact (whole
    numbers, data/verdicts.json tolerances.whole_numbers)."""
    machines = [f for f in claim.figures if f.quantity == "n_nodes"]
    per = [f for f in claim.figures if f.quantity == "chips_per_node"
           or f.quantity == "n_chips" and _IN_ONE.match(doc.text, f.end)]
    totals = [f for f in claim.figures if f.quantity == "n_chips" and f not in per]
    if len({f.value for f in machines}) != 1 or len(per) != 1 or len(totals) != 1:
        return None
    nodes, each, total = machines[0], per[0], totals[0]
    if not (nodes.value > 1 and 1 < each.value < total.value):
        return None
    inputs = Inputs(doc.lang)
    inputs.expression(f"{nodes.value:g} * {each.value:g}", f"{nodes.quote} x {each.quote}")
    inputs.values["stated_result"] = f"{total.value:g}"
    inputs.sources["stated_result"] = {"source": "text", "quote": total.quote}
    inputs.values["tolerance"] = 1e-9  # whole numbers: exact
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    out = doc.calculations[index]["outputs"]
    verdict = "consistent" if out.get("consistent") else "inconsistent"
    if verdict == "inconsistent" and len(machines) > 1:
        discard(doc, index)  # "1 prefill worker on 4 nodes (32 GPUs each) and 1 decode worker on 4 nodes (total 64 GPUs)":
        return None  # two groups of machines, and "each" may be a group's: no reading is sure enough to call 64 wrong
    bound = verdicts.stated_bound(doc.text[max(0, total.start - 24):total.start])
    if bound is not None:  # "so more than 100 GPUs in total": a floor, which 128 meets
        verdict = "consistent" if verdicts.within_bound(bound[0], out["value"], total.value, 0.0) else "inconsistent"
    return Result([index], verdict, messages(doc.lang)["verdicts"][verdict].format(
        stated=f"{bound[1]} {total.quote}" if bound is not None else total.quote, computed=f"{nodes.value:,.0f} {'×' if doc.lang == 'ar' else 'x'} {each.value:,.0f} = {out['value']:,.0f}"))
