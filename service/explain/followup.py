"""A follow-up as a question about the conversation: "and on TPUs?" redoes the check it is about; "why ...?" is
answered from the text's own reasons."""

import re
from dataclasses import replace

from service.explain import checks, claims as cues, gist, pattern_cache, reasons
from service.explain.document import Document

_WHY = pattern_cache.lazy(r"^\s*(?:and\s+|but\s+|so\s+)?(?:why|how come|what makes|لماذا|ولماذا|لم\s|ما السبب|ما سبب)", re.I)
MAX_REASONS = 2


def _about(claim, chips: list, models: list, quantities: set[str]) -> bool:
    """Whether a follow-up naming these chips, models or figures is about `claim`: it names the kind of thing replaced."""
    return bool((chips and claim.chips) or (models and claim.models) or (quantities & {f.quantity for f in claim.figures}))


def retarget(doc: Document, previous: Document) -> bool:
    """Redo the earlier checked claims the follow-up is about (those naming the chip, model or figure it replaces)
    with what `doc` names; False when it changes nothing."""
    chips, models = doc.chips(), doc.models()
    overrides = {f.quantity: f for f in doc.figures}
    checked = [c for c in previous.claims if c.calculations or c.verdict == "needs_more"]
    about = [c for c in checked if _about(c, chips, models, set(overrides))]
    checked = about or checked  # no claim names such a thing: the question is about the checks as a whole
    if not checked or not (chips or models or overrides):
        return False
    merged = Document(text=previous.text, lang=doc.lang, previous=None)
    merged.figures = [overrides.get(f.quantity, f) for f in previous.figures] + \
        [f for q, f in overrides.items() if not any(p.quantity == q for p in previous.figures)]
    merged.mentions = [m for m in previous.mentions if not (m.kind == "chip" and chips) and not (m.kind == "model" and models)]
    merged.mentions += doc.mentions
    if chips:  # "4096 H100s" keeps its count but not its chip once the follow-up names another
        merged.figures = [f._replace(chip=None) if f.chip else f for f in merged.figures]
    for claim in checked:
        figures = [overrides.get(f.quantity, f) for f in claim.figures]
        figures = [f._replace(chip=None) if chips and f.chip else f for f in figures]
        copy = replace(claim, figures=figures, chips=chips or claim.chips, models=models or claim.models,
                       calculations=[], verdict="explained", why="")
        merged.claims.append(copy)
    checks.check_claims(merged)
    for claim in merged.claims:
        # The text claimed nothing about what the follow-up names: the check answers the question, it does not judge
        # the text, so it is neither consistent nor inconsistent with it.
        if claim.verdict in ("consistent", "inconsistent"):
            claim.verdict = "explained"
    doc.claims = merged.claims
    doc.calculations = merged.calculations
    doc.failures += merged.failures
    return True


def is_why(text: str) -> bool:
    """Whether a follow-up asks for a reason ("why did they ...?", "لماذا ...؟")."""
    return bool(_WHY.match(text))


def why(doc: Document, previous: Document, links: list[dict]) -> list[dict]:
    """The earlier text's own reasons for what the question names: its sentences that give a cause and share the
    most terms with the question (a sentence that makes a link of data/reasons.json first), restated; [] when the
    text gives none (a sentence a link was drawn from without a cause of its own is a finding, not a reason)."""
    asked = {m.entry["id"] for m in doc.occurrences}
    linked = {i for link in links for i in link["from"]}
    scored = []
    for i, (start, end) in enumerate(previous.sentences):
        sentence = previous.text[start:end]
        if not cues.cue("cause", sentence):
            continue
        names = {m.entry["id"] for m in previous.occurrences if start <= m.start < end}
        shared = len(asked & names)
        if asked and not shared:
            continue
        scored.append((-shared, -(i in linked), i))
    out, seen = [], set()
    for _, _, i in sorted(scored)[:MAX_REASONS]:
        text = gist.restated(previous, i, seen)
        if text:
            out.append({"text": text, "from": [i]})
    return sorted(out, key=lambda item: item["from"])


def from_table(doc: Document, previous: Document, links: list[dict]) -> dict | None:
    """The link of data/reasons.json that a "why ...?" follow-up asks about, when the earlier text gives no reason:
    the question names one of its terms, and the question or the earlier text names one of the other side's; the
    one whose terms the question names most, a link the text itself makes before one it does not. None when no
    link fits, or when the earlier text uses the terms in a sense the link rules out."""
    asked = {m.entry["id"] for m in doc.occurrences}
    if not asked:
        return None
    context = asked | {m.entry["id"] for m in previous.occurrences}
    made = {link["id"] for link in links}  # the links the earlier text makes (reasons.find), in its own sense, come first
    best, best_score = None, 0
    for link in reasons.table():
        cause, effect, also = set(link["cause"]), set(link["effect"]), set(link.get("also", ()))
        if not (context & cause and context & effect) or len(context & (cause | effect)) < 2:
            continue
        if also and not context & also:
            continue
        if any(link.get(key) and reasons.matches(link[key], text)
               for key, text in (("unless", doc.text), ("unless", previous.text), ("unless_text", previous.text))):
            continue
        named = asked & (cause | effect)
        score = 4 * len(asked & (cause | effect | also)) + 2 * (link["id"] in made) \
            + (bool(asked & cause) and bool(asked & effect))
        if named and score > best_score:
            best, best_score = link, score
    return best
