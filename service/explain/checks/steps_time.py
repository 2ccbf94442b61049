"""A run's time the text states against its steps at its rate: "5000-10000 iterations ... ~5-10 hours (assuming ~1-2
it/s)" is 5000 / 2 to 10000 / 1 s, 0.69 to 2.8 hours; "5000 steps at 1.5 s/step takes roughly 2 hours" is 7500 s.
Shorter than the steps take is impossible at that rate (inconsistent); longer is said with what could fill the rest."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import discard, duration, Result, said, unique, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages


def one_or_range(figures: list) -> tuple | None:
    """(low, high) of one figure, or of the two ends of one range the text writes ("5000-10000"); None otherwise."""
    if len(figures) == 1:
        return figures[0], figures[0]
    if len(figures) == 2 and {f.role for f in figures} == {"low", "high"} and figures[0].value <= figures[1].value:
        return figures[0], figures[1]
    return None


def spoken(doc: Document, ends: tuple) -> str:
    """A figure or a range of the text, as the answer says it ("1 to 2 it/s": the unit once, after the range)."""
    if ends[0] is ends[1]:
        return said(doc, ends[0])
    low = re.match(r"[\d.,]+", ends[0].quote.strip())
    return messages(doc.lang)["verdicts"]["steps_time_range"].format(
        low=low.group(0) if low else said(doc, ends[0]), high=said(doc, ends[1]))


def steps_time(doc: Document, claim: Claim) -> Result | None:
    """Steps (or a range), a rate in steps per second or a time per step, and a time for the run, all in the sentence."""
    steps = one_or_range([f for f in claim.figures if f.quantity == "steps" and f.value > 0])
    per_second = one_or_range([f for f in claim.figures if f.quantity == "steps_per_s" and f.value > 0])
    per_step = one_or_range([f for f in claim.figures if f.quantity == "step_time_s" and f.value > 0])
    stated = one_or_range([f for f in claim.figures if f.quantity == "time_s" and f.value > 0])
    if steps is None or stated is None or (per_second is None) == (per_step is None):
        return None  # no rate, or both kinds of rate: which one the time follows is unsure
    if per_second is not None:
        low = (f"{steps[0].value:g} / {per_second[1].value:g}", f"{steps[0].quote} / {per_second[1].quote}")
        high = (f"{steps[1].value:g} / {per_second[0].value:g}", f"{steps[1].quote} / {per_second[0].quote}")
    else:
        low = (f"{steps[0].value:g} * {per_step[0].value:g}", f"{steps[0].quote} × {per_step[0].quote}")
        high = (f"{steps[1].value:g} * {per_step[1].value:g}", f"{steps[1].quote} × {per_step[1].quote}")
    indexes = [worked(doc, *low)] + ([worked(doc, *high)] if high[0] != low[0] else [])
    if None in indexes:
        return None
    took = [doc.calculations[i]["outputs"]["value"] for i in indexes]
    took_low, took_high = min(took), max(took)
    rate = per_second or per_step
    words = messages(doc.lang)["verdicts"]
    shown = {"steps": spoken(doc, steps), "rate": spoken(doc, rate), "took": duration(doc, took_low, took_high),
             "stated": spoken(doc, stated)}
    if verdicts.agrees(stated[1].value, took_high, True) or verdicts.agrees(stated[0].value, took_low, True) \
            or stated[0].value <= took_high and took_low <= stated[1].value:
        return Result(indexes, "consistent", words["steps_time_consistent"].format(**shown))
    if stated[1].value < took_low:
        return Result(indexes, "inconsistent", words["steps_time_short"].format(**shown))
    return Result(indexes, None, words["steps_time_long"].format(**shown))


def tokens_time(doc: Document, claim: Claim) -> Result | None:
    """A run's time against its tokens at the text's rate: "380 tokens/sec/GPU on 2048 A100 GPU ... 1.4T tokens takes
    approximately 21 days" is 1.4e12 / (380 x 2048) s = 20.8 days (LLaMA, Touvron et al. 2023, section 2.4)."""
    tokens = [f for f in claim.figures if f.quantity == "tokens" and f.value >= 1e6]
    stated = [f for f in claim.figures if f.quantity == "time_s" and f.value > 0]
    if len(tokens) != 1 or len(stated) != 1 or claim.calculations and any(
            doc.calculations[i]["calculator"] != "training_flops" for i in claim.calculations):
        return None
    per_chip = unique(doc, claim, "tokens_per_s_per_chip")
    chips = unique(doc, claim, "n_chips") if per_chip is not None else None
    total = unique(doc, claim, "tokens_per_s") if per_chip is None else None
    if per_chip is not None and chips is not None:
        expression, quote = f"{tokens[0].value:g} / ({per_chip.value:g} * {chips.value:g})", \
            f"{tokens[0].quote} / ({per_chip.quote} x {chips.quote})"
        rate = messages(doc.lang)["verdicts"]["tokens_time_rate"].format(rate=said(doc, per_chip), chips=said(doc, chips))
    elif total is not None:
        expression, quote, rate = f"{tokens[0].value:g} / {total.value:g}", f"{tokens[0].quote} / {total.quote}", said(doc, total)
    else:
        return None
    index = worked(doc, expression, quote)
    if index is None:
        return None
    took = doc.calculations[index]["outputs"]["value"]
    words = messages(doc.lang)["verdicts"]
    shown = {"tokens": said(doc, tokens[0]), "rate": rate, "took": duration(doc, took, took),
             "stated": said(doc, stated[0])}
    if verdicts.agrees(stated[0].value, took, True):
        return Result([index], "consistent", words["tokens_time_consistent"].format(**shown))
    if stated[0].value < took:
        return Result([index], "inconsistent", words["tokens_time_short"].format(**shown))
    if stated[0].value > MAX_OTHER_WORK * took:
        discard(doc, index)  # "33.55M (tokens a batch) at 1,485,929 tok/s take 23 s" against "78.4 days" (round 104 P01): a
        return None  # step against a run, no "other work" filling 300,000 times the time; the tokens are not the run's
    return Result([index], None, words["tokens_time_long"].format(**shown))


MAX_OTHER_WORK = 3.0  # a run stated up to three times the time its tokens take at its rate: evaluation, restarts, checkpoints
