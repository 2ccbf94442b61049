"""Attention heads over a Ulysses sequence-parallel degree: DeepSpeed-Ulysses gives each sequence-parallel rank whole
attention heads (its all-to-all turns a split of the sequence into a split of the heads), so the degree must divide the
head count ("48 attention heads ... a sequence parallel dimension of 64 ... the maximum feasible was only 16": 48 / 64
is no whole number, and 16 is the largest power of two that divides 48). Jacobs et al. 2023, DeepSpeed Ulysses, sec. 3."""

import re

from service.explain import claims
from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n import arabic
from service.i18n.messages import messages

_ULYSSES = re.compile(r"\bUlysses\b|يوليسيس", re.I)
# "a sequence parallel dimension of 64", "the maximum feasible dimension I could set was only 16": a degree in words
_DEGREE_WORDS = re.compile(r"\b(?:dimension|degree|size|sp_size|ulysses_degree)\b[^.\d\n]{0,40}$", re.I)
_MOST = re.compile(r"\b(?:max(?:imum)?|at most|largest|highest|only)\b|الأقصى|أقصى", re.I)


def _heads(doc: Document):
    """The text's one attention-head count, where it is about Ulysses."""
    heads = {f.value for f in doc.figures if f.quantity == "n_heads" and f.value >= 1}
    return next(iter(heads)) if len(heads) == 1 and _ULYSSES.search(doc.text) else None


def _degrees(doc: Document, start: int, end: int) -> list:
    """The sequence-parallel degrees a sentence gives: read as such, or a bare number after "dimension"/"degree"."""
    return [f for f in doc.figures if start <= f.start < end and f.value >= 2 and float(f.value).is_integer()
            and (f.quantity == "sp_degree" or f.quantity == "number" and _DEGREE_WORDS.search(doc.text[max(start, f.start - 60):f.start]))]


def add_claims(doc: Document) -> None:
    """Make a claim of each sentence giving a Ulysses degree in a text that gives the head count, so the check is said."""
    if _heads(doc) is None:
        return
    claimed = {c.start for c in doc.claims}
    for start, end in list(doc.sentences):
        if start not in claimed and _degrees(doc, start, end):
            claims.add_measurement(doc, start, end)


def ulysses_heads(doc: Document, claim: Claim) -> Result | None:
    """Each degree the claim gives against the head count: whole heads per rank, or no even split."""
    heads = _heads(doc)
    degrees = _degrees(doc, claim.start, claim.start + len(claim.quote)) if heads is not None else []
    if not degrees:
        return None
    m = messages(doc.lang)["verdicts"]
    found, said = [], []
    for degree in degrees:
        index = worked(doc, f"{heads:g} / {degree.value:g}", f"{heads:g} attention heads / {degree.quote}")
        if index is None:
            continue
        found.append(index)
        per_rank = doc.calculations[index]["outputs"]["value"]
        key = "ulysses_heads_even" if float(per_rank).is_integer() else "ulysses_heads_uneven"
        said.append(m[key].format(heads=f"{heads:g}", degree=degree.quote, computed=f"{per_rank:.4g}"))
        if _MOST.search(claim.quote) and float(per_rank).is_integer():
            largest = max(2 ** k for k in range(0, 12) if heads % 2 ** k == 0)
            if largest == degree.value:
                said.append(m["ulysses_heads_largest"].format(heads=f"{heads:g}", degree=degree.quote))
    why = "; ".join(said)
    return Result(found, None, arabic.agree_numbers(why) if doc.lang == "ar" else why) if found else None  # numbers agree in Arabic
