"""A KV cache's size per token from the model's shape the text gives: 2 (keys and values) x layers x heads x head
dimension x bytes per value (the format the sentence names). With grouped-query attention only the key-value heads
count, so a stated size that fits fewer heads than the text's attention heads is said, not judged wrong."""

import re

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Result, said, unique, worked
from service.explain.checks.decode_floor import PER_TOKEN
from service.explain.checks.weights_memory import formats_in
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_KV_WORDS = re.compile(r"\bKV\b|\bkey[- ]value\b|\bkeys and values\b|المفاتيح والقيم", re.I)


def kv_per_token(doc: Document, claim: Claim) -> Result | None:
    """A size per token in a sentence about the KV cache, against 2 x layers x heads x head dimension x bytes."""
    stated = next((f for f in claim.figures if verdicts.kind(f.quantity) == "memory" or f.quantity == "bytes"), None)
    if stated is None or not PER_TOKEN.match(doc.text, stated.end) or not _KV_WORDS.search(claim.quote):
        return None
    layers, heads, dim = unique(doc, claim, "n_layers"), unique(doc, claim, "n_kv_heads", "n_heads"), unique(doc, claim, "head_dim")
    widths = formats_in(claim.quote)
    if layers is None or heads is None or dim is None or len(widths) != 1:
        return None  # the shape or the format is uncertain
    per, named = next(iter(widths.items()))
    index = worked(doc, f"2 * {layers.value:g} * {heads.value:g} * {dim.value:g} * {per:g}",
                   f"2 x {layers.quote} x {heads.quote} x {dim.quote} x {per:g} bytes ({named})")
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["value"]
    words = messages(doc.lang)["verdicts"]
    shown = {"layers": f"{layers.value:g}", "heads": f"{heads.value:g}", "dim": f"{dim.value:g}", "per": f"{per:g}", "format": named,
             "computed": restate.value("bytes", value), "stated": said(doc, stated)}
    if verdicts.agrees(stated.value, value, True) or verdicts.agrees(stated.value, value / 1.024, True):
        return Result([index], "consistent", words["kv_per_token"].format(**shown))
    kv_heads = stated.value / (2 * layers.value * dim.value * per)
    for candidate in (kv_heads, kv_heads * 1.024):  # "320KB" read as 320,000 or as 327,680 bytes
        rounded = round(candidate)
        if 1 <= rounded < heads.value and abs(candidate - rounded) <= 0.05 * rounded and heads.value % rounded == 0:
            return Result([index], "needs_more", words["kv_per_token_gqa"].format(**shown, kv_heads=rounded))
    return Result([index], "needs_more", words["kv_per_token_other"].format(**shown))
