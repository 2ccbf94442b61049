"""A run's token count from its own settings: steps x batch x sequence length (x chips when the batch is one chip's)."""

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Result, discard, unique, worked
from service.explain.document import Claim, Document
from service.i18n.messages import join_names, messages


def _own(claim: Claim, quantity: str):
    return next((f for f in claim.figures if f.quantity == quantity), None)


def token_budget(doc: Document, claim: Claim) -> Result | None:
    """"steps=60000, seq_len=4096, batch_size=4 ... GPU=64 -- which is 63B training tokens?": 60000 x 4 x 4096 x 64 =
    62.9B, against the token counts the sentence states; a count it does not match is not judged (another run's)."""
    stated = [f for f in claim.figures if f.quantity == "tokens"]
    steps = _own(claim, "steps")
    if not stated or steps is None:
        return None
    factors = [steps]
    batch_tokens = _own(claim, "global_batch_tokens")
    if batch_tokens is not None:
        factors.append(batch_tokens)
    else:
        seq = _own(claim, "seq_len") or unique(doc, claim, "seq_len")
        batch = _own(claim, "global_batch_sequences")
        local = _own(claim, "local_batch_sequences") or _own(claim, "micro_batch")
        chips = _own(claim, "dp_degree") or _own(claim, "n_chips")
        if seq is None or (batch is None and (local is None or chips is None)):
            return None
        factors += [batch, seq] if batch is not None else [local, seq, chips]
    index = worked(doc, " * ".join(f"{f.value:g}" for f in factors), " x ".join(f.quote for f in factors))
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["value"]
    agreeing = [f for f in stated if verdicts.agrees(f.value, value, getattr(f, "approx", False))]
    if not agreeing:
        discard(doc, index)
        return None  # the stated count is another run's, or the batch is counted another way: no finding either way
    m = messages(doc.lang)["verdicts"]
    return Result([index], "consistent", m["token_budget"].format(
        factors=" x ".join(f.quote for f in factors), computed=restate.value("tokens", value),
        stated=join_names([f.quote for f in agreeing], doc.lang)))
