"""Data-parallel replicas a layout implies: the chips over the chips one model copy takes (TP x PP, or the count the
text gives for one copy), when the text states no data-parallel degree of its own."""

import re

from service.explain import restate
from service.explain.checks.core import Inputs, Result, run
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# "one copy of the model takes 48 GPUs", "each replica spans 16 GPUs", "a model replica uses 64 chips"
_ONE_COPY = re.compile(r"\b(?:one|each|a|every|single)\s+(?:full\s+)?(?:copy|replica|instance)\s+of\s+the\s+model\b|"
                       r"\b(?:one|each|a|every)\s+model\s+(?:copy|replica)\b|نسخة واحدة من النموذج|كل نسخة من النموذج", re.I)
_SPLITS = ("tp_degree", "pp_degree", "cp_degree")
_POOLS = re.compile(r"\b(?:prefill|decode|decoding)\s+(?:pool|nodes?|workers?|instances?|replicas?|servers?|TP|PP|EP)|\b\d+\s*(?:x\s*)?(?:prefill|decode)\b", re.I)


# GPUs given to other roles than training the model (RL rollouts, a serving engine beside the trainer)
_OTHER_ROLES = re.compile(r"\b(?:rollouts?|colocat\w*|disaggregat\w*|generation engines?|inference engines?|reward models?|critic|"
                          r"vLLM|SGLang|sync[_ ]weights?|weight[_ ]sync\w*|broadcast\s+weights)\b", re.I)  # a vLLM engine
# fed weights by broadcast (round 90 P05, "8*L20 GPUs, TP=4" and rank 7 broadcasting to ranks 0-3): not 2 training copies
_WEIGHT_BYTES = 2  # a 16-bit weight: the least a training copy of the model holds per parameter


def _copy_fits(doc: Document, claim: Claim, chips: float) -> bool:
    """Whether one model copy's 16-bit weights fit in the memory of the chips it is said to take (unknown model or
    chip: nothing contradicts the reading)."""
    models, named = claim.models or doc.models(), claim.chips or doc.chips()
    params = models[0].get("params_total") if models else None
    memory = named[0].get("hbm_bytes") if named else None
    return not (params and memory) or params * _WEIGHT_BYTES <= chips * memory


def replicas(doc: Document, claim: Claim) -> Result | None:
    """Chips / chips per model copy = data-parallel replicas, said in words (whole numbers only; else nothing is said)."""
    if any(f.quantity == "dp_degree" for f in doc.figures):
        return None  # the text states its own data-parallel degree; the degrees check multiplies it
    if _OTHER_ROLES.search(doc.text):
        return None  # "8xH800, TP=2" in an RL text: some GPUs generate rollouts, so not every chip holds a training copy
    if any(f.quantity == "ep_degree" and f.value > 1 for f in claim.figures):
        return None  # "8xB200, TP2/EP4": the experts split over the replicas, so "4 copies of the model" is not said
    counts = [f for f in claim.figures if f.quantity == "n_chips"]
    if _ONE_COPY.search(claim.quote) and len(counts) == 1:
        per = counts[0]
        totals = {f.value: f for f in doc.figures if f.quantity == "n_chips" and f.value > per.value}
        if len(totals) != 1:
            return None  # no total, or two (which run is meant is uncertain)
        total = next(iter(totals.values()))
        expression, quote, group = f"{total.value:g} / {per.value:g}", f"{total.quote} / {per.quote}", per.quote
    else:
        splits = [next(f for f in claim.figures if f.quantity == q) for q in _SPLITS if any(f.quantity == q for f in claim.figures)]
        if len(counts) != 1 or not splits or any(len({f.value for f in claim.figures if f.quantity == s.quantity}) > 1 for s in splits):
            return None  # no count, no split, or two values of one degree (two layouts): nothing is said
        if any(len({f.value for f in doc.figures if f.quantity == s.quantity}) > 1 for s in splits) or _POOLS.search(claim.quote):
            return None  # "8 prefill TP1 + 2 decode TP4 on 16x H200": pools of several layouts, no one copy per chip group
        total = counts[0]
        product = 1.0
        for f in splits:
            product *= f.value
        if product == 1 or not _copy_fits(doc, claim, product):
            return None  # "cp=1" splits nothing; a copy too big for its chips is sharded in a way the text does not state
        expression = f"{total.value:g} / ({' * '.join(f'{f.value:g}' for f in splits)})"
        quote = f"{total.quote} / ({' x '.join(f.quote for f in splits)})"
        group = f"({' x '.join(f.quote for f in splits)})"
    inputs = Inputs(doc.lang)
    inputs.values["expression"], inputs.sources["expression"] = expression, {"source": "text", "quote": quote}
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["value"]
    if value < 2 or not float(value).is_integer():
        doc.calculations.pop()  # one replica says nothing; a fraction means the degrees are read wrong: nothing is said
        return None
    same = restate.same_language(total.quote, doc.lang)  # an Arabic answer to an English text names no English words
    return Result([index], None, messages(doc.lang)["verdicts"]["replicas"].format(
        total=total.quote if same else f"{total.value:g}", group=group, computed=f"{value:g}"))
