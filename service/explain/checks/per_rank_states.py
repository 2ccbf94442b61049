"""A per-parameter size, a parameter count and a size per rank in one sentence ("optimizer state, 12 B/param, for a
744B model: ~279 GB/rank"): the whole state is the count times the bytes, and that over the size per rank is how many
ranks share it (32). Judged only against a chip count the sentence states; otherwise said, since how the state is
sharded (over all ranks, or within each replica) is the text's to say."""

from service.explain import restate
from service.explain.checks.core import Result, said, worked
from service.explain.checks.products import PER_CHIP_AFTER
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_AGREE = 0.03  # the implied rank count within 3% of a stated chip count: the sizes divide as the text says


def per_rank_states(doc: Document, claim: Claim) -> Result | None:
    """Params x bytes per param / size per rank = the ranks the state is spread over."""
    per = [f for f in claim.figures if f.quantity == "bytes_per_param" and f.value > 0]
    params = [f for f in claim.figures if f.quantity == "params" and f.value >= 1e6]
    ranks = [f for f in claim.figures if f.value > 0 and (f.quantity == "memory_bytes_per_chip" or f.quantity == "bytes"
                                                          and PER_CHIP_AFTER.match(doc.text, f.end))]  # "26 GB per GPU"
    if len(per) != 1 or len(params) != 1 or len(ranks) != 1 or claim.calculations:
        return None
    total = params[0].value * per[0].value
    index = worked(doc, f"{params[0].value:g} * {per[0].value:g} / {ranks[0].value:g}",
                   f"{params[0].quote} x {per[0].quote} / {ranks[0].quote}")
    if index is None:
        return None
    implied = doc.calculations[index]["outputs"]["value"]
    m = messages(doc.lang)["verdicts"]
    words = m["per_rank_states"].format(params=said(doc, params[0]), per=said(doc, per[0]), total=restate.value("bytes", total),
                                        rank=said(doc, ranks[0]), ranks=f"{implied:.3g}")
    chips = [f for f in claim.figures if f.quantity == "n_chips" and f.value > 1]
    if len(chips) == 1 and abs(implied / chips[0].value - 1) <= _AGREE:
        return Result([index], "consistent", words)
    return Result([index], None, words)
