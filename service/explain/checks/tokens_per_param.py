"""A dense model's training tokens per parameter, set beside the compute-optimal ratio (Hoffmann et al. 2022): "4.9
billion parameter ... trained on ~22 billion tokens" is 4.5 tokens per parameter, far below the about 20 that
Chinchilla found compute-optimal. Said in words, never judged: training on more or less data is a choice."""

import re
from functools import cache

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Result, said, unique, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_TRAINED = re.compile(r"\b(?:trained|training|train|pre-?train\w*)\b|تدريب|التدريب|دُرِّب|درّب|دُرّب|تدرب", re.I)
# a mixture of experts: its total count is not what the compute-optimal ratio counts, and its active one is not the size
# continued pre-training, fine-tuning or distillation of a trained model: its tokens are not what it was trained on
_FURTHER = re.compile(r"\b(?:continu\w* (?:pre-?)?train\w*|continual (?:pre-?)?train\w*|CPT|fine-?tun\w*|post-?train\w*|SFT|distill\w*|"
                      r"annealing|mid-?train\w*)\b|التدريب المستمر|مواصلة التدريب|الضبط الدقيق|التدريب اللاحق|التقطير", re.I)
_EXPERTS = re.compile(r"\b(?:MoE|mixture[- ]of[- ]experts?|experts?|A\d+(?:\.\d+)?B)\b|خبراء|الخبراء", re.I)


@cache
def _rule() -> dict:
    """data/verdicts.json's "tokens_per_param" entry: the compute-optimal ratio, its source and the bands said in words."""
    return verdicts.table()["checkers"]["tokens_per_param"]


# the text speaks of how much data a model of its size should see: the ratio to Chinchilla's 20 answers something
_OPTIMALITY = re.compile(r"chinchilla|compute[- ]optimal|tokens? per param\w*|over-?train\w*|under-?train\w*|scaling laws?|"
                         r"data[- ]optimal|tokens?[- ]to[- ]param\w*|\bTPP\b|الأمثل حسابيا|قوانين التوسع", re.I)
_UP_TO = re.compile(r"\bup to\b|\bas (?:many|much) as\b|\bdatasets?\b|حتى|تصل إلى", re.I)


def tokens_per_param(doc: Document, claim: Claim) -> Result | None:
    """A sentence about training that states a token count and, in it or in the text, one dense model size."""
    if not _OPTIMALITY.search(doc.text):
        return None  # "trained on ~22 billion tokens" alone: a comparison with Chinchilla nobody asked for (readers: noise)
    if claim.calculations or not _TRAINED.search(claim.quote) or _EXPERTS.search(doc.text) or _FURTHER.search(doc.text):
        return None  # a run that continues a trained model (round 47: "continued pre-training of Llama-3-70B on ~100B tokens")
    tokens = [f for f in claim.figures if f.quantity == "tokens" and f.value >= 1e8]
    if len(tokens) != 1 or any(f.quantity == "active_params" for f in doc.figures):
        return None
    params = unique(doc, claim, "params")
    if params is not None and not (claim.start <= params.start < claim.end) and _UP_TO.search(claim.quote):
        return None  # "datasets up to 2 trillion tokens" beside "a 7B model" sentences on: a ceiling, not that model's budget
    if params is None or not 1e7 <= params.value <= 1e13 or tokens[0].value == params.value:
        return None  # "training 70B ... Llama 3 70B": one size read twice, as tokens and as parameters (round 53 P16)
    index = worked(doc, f"{tokens[0].value:g} / {params.value:g}", f"{tokens[0].quote} / {params.quote}")
    if index is None:
        return None
    ratio = doc.calculations[index]["outputs"]["value"]
    rule = _rule()
    optimal = rule["optimal_tokens_per_param"]
    band = "below" if ratio < rule["near"][0] * optimal else "above" if ratio > rule["near"][1] * optimal else "near"
    if band != "near" and not rule["far"][0] * optimal <= ratio <= rule["far"][1] * optimal:
        band = "far_" + band  # 4.5 or 1,875 tokens per parameter is far from 20; 39 is more, not far more
    words = messages(doc.lang)["verdicts"]
    return Result([index], None, words["tokens_per_param"].format(
        tokens=said(doc, tokens[0]), params=restate.value("params", params.value), ratio=f"{ratio:.2g}" if ratio < 10 else f"{ratio:,.0f}", optimal=optimal, band=words[f"tokens_per_param_{band}"]))
