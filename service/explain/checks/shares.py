"""Shares and scale words the text states about its own numbers, redone: '148 of the 419 failures (30.1%)' is 35.3%;
'42.5 exaflops, i.e. a million trillion' is 42.5 million trillion."""

from service.explain import stated_shares
from service.explain.checks.core import Inputs, Result, run
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_SLACK_POINTS = 0.5  # data/verdicts.json tolerances.measurement.fraction_slack: texts round shares to whole percents


def _tolerance(percent: str) -> float:
    """Relative slack for a written percentage: the written-arithmetic 2%, or half a point plus its last digit's rounding."""
    decimals = len(percent.split(".")[1]) if "." in percent else 0
    value = stated_shares.number(percent)
    return max(0.02, (_SLACK_POINTS + 0.5 * 10 ** -decimals) / value)


def share_of_total(doc: Document, claim: Claim) -> Result | None:
    """Each 'part of whole (p%)' of the sentence: part / whole against p. Inconsistent when off; the first finding is said."""
    words = messages(doc.lang)["verdicts"]
    found = stated_shares.shares(claim.quote)
    if not found:
        return None
    indices, said, off = [], [], []
    for share in found[:4]:
        inputs = Inputs(doc.lang)
        inputs.values["expression"] = f"{stated_shares.number(share.part):g} / {stated_shares.number(share.total):g}"
        inputs.sources["expression"] = {"source": "text", "quote": f"{share.part} / {share.total}"}
        inputs.values["stated_result"] = f"{share.percent}%"
        inputs.sources["stated_result"] = {"source": "text", "quote": f"{share.percent}%"}
        inputs.values["tolerance"] = _tolerance(share.percent)
        index = run(doc, "arithmetic", inputs)
        if index is None:
            continue
        indices.append(index)
        out = doc.calculations[index]["outputs"]
        fields = {"part": share.part, "total": share.total, "stated": f"{share.percent}%", "computed": f"{100 * out['value']:.1f}%"}
        (said if out.get("consistent") else off).append(words["share_inconsistent" if not out.get("consistent") else "share_consistent"].format(**fields))
    if not indices:
        return None
    sep = "؛ " if doc.lang == "ar" else "; "
    if off:
        return Result(indices, "inconsistent", sep.join(off + said))
    return Result(indices, "consistent", sep.join(said))


def scale_words(doc: Document, claim: Claim) -> Result | None:
    """'42.5 exaflops, i.e. a million trillion': the figure redone in the scale words the text gives it (written_arithmetic)."""
    found = stated_shares.restated(claim.quote)
    if not found:
        return None
    words = messages(doc.lang)["verdicts"]
    item = found[0]
    inputs = Inputs(doc.lang)
    num = item.number
    inputs.values["expression"] = f"{stated_shares.number(num):g} * {item.unit:g}"
    inputs.sources["expression"] = {"source": "text", "quote": item.figure}
    inputs.values["stated_result"] = f"{item.said:g}"
    inputs.sources["stated_result"] = {"source": "text", "quote": item.words}
    inputs.values["tolerance"] = 0.02
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    if doc.calculations[index]["outputs"].get("consistent"):
        return Result([index], "consistent", words["scale_consistent"].format(figure=item.figure, words=item.words))
    unit = item.unit
    key = "scale_unit" if not item.coefficient and abs(item.said - unit) <= 0.02 * unit else "scale_inconsistent"
    return Result([index], "inconsistent", words[key].format(
        figure=item.figure, words=item.words, value=f"{item.value:.3g}".replace("e+", "e"), said=f"{item.said:.3g}".replace("e+", "e"),
        factor=f"{item.value / item.said:.3g}", num=num))
