"""A KV cache's size per token from the model's shape the text gives: 2 (keys and values) x layers x heads x head
dimension x bytes per value (the format the sentence names). With grouped-query attention only the key-value heads
count, so a stated size that fits fewer heads than the text's attention heads is said, not judged wrong."""

import re

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Result, discard, said, unique, worked
from service.explain.checks.decode_floor import PER_TOKEN
from service.explain.checks.weights_memory import formats_in
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_EACH_TOKEN = re.compile(r"\b(?:each|every|per|a single|one)\s+token\s+(?:takes|needs|uses|occupies|costs|requires|is)\b", re.I)
_KV_WORDS = re.compile(r"\bKV\b|\bkey[- ]value\b|\bkeys and values\b|المفاتيح والقيم", re.I)


def kv_per_token(doc: Document, claim: Claim) -> Result | None:
    """A size per token in a sentence about the KV cache, against 2 x layers x heads x head dimension x bytes."""
    stated = next((f for f in claim.figures if verdicts.kind(f.quantity) == "memory" or f.quantity == "bytes"), None)
    if stated is None or not (PER_TOKEN.match(doc.text, stated.end) or _EACH_TOKEN.search(doc.text[max(0, stated.start - 40):stated.start])) \
            or not _KV_WORDS.search(claim.quote):
        return None
    layers, heads, dim = unique(doc, claim, "n_layers"), unique(doc, claim, "n_kv_heads", "n_heads"), unique(doc, claim, "head_dim")
    widths = formats_in(claim.quote)
    if len(widths) != 1:
        return None  # the format is uncertain
    per, named = next(iter(widths.items()))
    words = messages(doc.lang)["verdicts"]
    if layers is None and heads is None and dim is None:
        return _catalog_shape(doc, claim, stated, per, named, words)
    if layers is None or heads is None or dim is None:
        return None  # the shape is half given: the rest is not the catalog's to fill
    index = worked(doc, f"2 * {layers.value:g} * {heads.value:g} * {dim.value:g} * {per:g}",
                   f"2 x {layers.quote} x {heads.quote} x {dim.quote} x {per:g} bytes ({named})")
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["value"]
    shown = {"layers": f"{layers.value:g}", "heads": f"{heads.value:g}", "dim": f"{dim.value:g}", "per": f"{per:g}", "format": named,
             "computed": restate.value("bytes", value), "stated": said(doc, stated)}
    if _agrees(stated.value, value):
        return Result([index], "consistent", words["kv_per_token"].format(**shown))
    kv_heads = stated.value / (2 * layers.value * dim.value * per)
    for candidate in (kv_heads, kv_heads * 1.024):  # "320KB" read as 320,000 or as 327,680 bytes
        rounded = round(candidate)
        if 1 <= rounded < heads.value and abs(candidate - rounded) <= 0.05 * rounded and heads.value % rounded == 0:
            return Result([index], "needs_more", words["kv_per_token_gqa"].format(**shown, kv_heads=rounded))
    return Result([index], "needs_more", words["kv_per_token_other"].format(**shown))


def _catalog_shape(doc: Document, claim: Claim, stated, per: float, named: str, words: dict) -> Result | None:
    """The one model the sentence names, with its published shape (data/models.json: layers, key-value heads, head
    dimension): the per-token size worked from it; agreement is a finding, a mismatch is no verdict (the text may mean
    another variant, a compressed cache or a rounding the catalog does not know), so it is not said."""
    if len(claim.models) != 1:
        return None
    model = claim.models[0]
    layers, heads, dim = model.get("n_layers"), model.get("n_kv_heads") or model.get("n_heads"), model.get("head_dim")
    if not (layers and heads and dim) or model.get("architecture") not in (None, "dense", "moe"):
        return None
    worked_out = _published(doc, model, heads, per, named)
    if worked_out is None:
        return None
    index, value = worked_out
    if not _agrees(stated.value, value):
        discard(doc, index)
        return None
    as_written = next((m.group(0) for a in sorted([model["name"], *model.get("aliases", [])], key=len, reverse=True)
                       if (m := re.search(re.escape(a), claim.quote, re.I))), model["name"])  # "Llama 3.1 70B", as the text says
    return Result([index], "consistent", words["kv_per_token_catalog"].format(
        model=as_written, layers=f"{layers:g}", heads=f"{heads:g}", dim=f"{dim:g}", per=f"{per:g}", format=named,
        computed=restate.value("bytes", value), stated=said(doc, stated)))


_PER_TOKEN_LABEL = re.compile(r"\bper[- ]token\b|\bfor each token\b|لكل رمز", re.I)


def kv_every_head(doc: Document, claim: Claim) -> Result | None:
    """A KV cache per token worked with every attention head ("2 * 80 * 8192 * 2 = ~2.5 MB" for Llama-3-70B) where the
    one model the text names shares key-value heads (grouped-query attention, data/models.json): the size with its
    key-value heads is said beside it, as the reading the text leaves out; never a verdict on the text's arithmetic."""
    stated = next((f for f in claim.figures if verdicts.kind(f.quantity) == "memory" or f.quantity == "bytes"), None)
    before = doc.text[max(0, stated.start - 160):stated.start] if stated is not None else ""
    if stated is None or not (PER_TOKEN.match(doc.text, stated.end) or _PER_TOKEN_LABEL.search(before[-80:])) \
            or not (_KV_WORDS.search(claim.quote) or _KV_WORDS.search(before)):
        return None
    models = [m for m in (claim.models or doc.models()) if m.get("n_kv_heads") and m.get("n_heads") and m.get("head_dim")]
    if len(models) != 1 or models[0]["n_kv_heads"] >= models[0]["n_heads"]:
        return None
    model = models[0]
    for quantity in ("n_layers", "n_heads"):
        given = {f.value for f in doc.figures if f.quantity == quantity}
        if given and model[quantity] not in given:
            return None  # the text sizes another shape than the catalog's
    widths = formats_in(claim.quote) or formats_in(before) or formats_in(doc.text)
    if len(widths) != 1:
        return None
    per, named = next(iter(widths.items()))
    full = 2 * model["n_layers"] * model["n_heads"] * model["head_dim"] * per
    worked_out = _published(doc, model, model["n_kv_heads"], per, named) if _agrees(stated.value, full) else None
    if worked_out is None:
        return None
    index, value = worked_out
    return Result([index], "needs_more", messages(doc.lang)["verdicts"]["kv_every_head"].format(
        model=model["name"], kv=f"{model['n_kv_heads']:g}", heads=f"{model['n_heads']:g}", computed=restate.value("bytes", value),
        stated=said(doc, stated), times=f"{model['n_heads'] / model['n_kv_heads']:g}"))


def _agrees(stated: float, value: float) -> bool:
    """A size per token as measured: within the approximate tolerance, in decimal or binary kilobytes."""
    return verdicts.agrees(stated, value, True) or verdicts.agrees(stated, value / 1.024, True)


def _published(doc: Document, model: dict, heads: float, per: float, named: str) -> tuple[int, float] | None:
    """2 x layers x `heads` x head dimension x bytes with the model's published shape (data/models.json), worked
    with its source said: the calculation's index and value."""
    index = worked(doc, f"2 * {model['n_layers']:g} * {heads:g} * {model['head_dim']:g} * {per:g}",
                   f"2 x {model['n_layers']:g} layers x {heads:g} key-value heads x {model['head_dim']:g} "
                   f"({model['name']}'s published shape, data/models.json) x {per:g} bytes ({named})")
    return None if index is None else (index, doc.calculations[index]["outputs"]["value"])
