"""A size per machine with the states it holds listed by precision ("~650 GB/node (fp32 mains + Adam moments + bf16
params)" of a 744B model on 16 nodes): the listed states' bytes per parameter (4 + 8 + 2 = 14), times the parameters,
over the size per machine, is how many machines share them (16.0), judged only against a count the sentence states."""

import re

from service.explain import restate
from service.explain.checks.core import Result, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_AGREE = 0.03  # the implied count within 3% of the stated one: the sizes divide as the text says
_BYTES = {"fp32": 4, "float32": 4, "tf32": 4, "bf16": 2, "fp16": 2, "float16": 2, "bfloat16": 2, "fp8": 1, "int8": 1}
_PRECISION = r"(?P<p>fp32|float32|bf16|bfloat16|fp16|float16|fp8|int8)"
# one state of a model's parameters, with its precision or a convention every mixed-precision paper states (ZeRO, 2020):
# Adam's two moments in fp32 (4 + 4 bytes), master weights in fp32
_STATE = re.compile(rf"^(?:{_PRECISION}\s+)?(?P<s>(?:master\s+)?(?:mains|master(?:\s+weights|\s+params|\s+parameters|\s+copy)?|weights|params|parameters|"
                    r"grads|gradients|(?:adam(?:w)?\s+)?(?:moments|m\s*/\s*v|states)|optimi[sz]er\s+(?:moments|states?)))"
                    rf"(?:\s+(?:in\s+)?{_PRECISION.replace('?P<p>', '?P<q>')})?$", re.I)
_LIST = re.compile(r"\(([^()]{5,120}?\+[^()]{3,120}?)\)|\b(?:of|holds?|holding)\s+((?:[\w/ ]{3,40}\s\+\s){1,4}[\w/ ]{3,40})", re.I)
_PER_MACHINE = re.compile(r"\s*(?:/\s*|per\s+|each\s+|a\s+)(?:node|server|host|machine|rank|GPU|device)\b", re.I)


def _per_machine(doc: Document, figure) -> bool:
    """Whether a size is each machine's ("650 GB/node", "650 GB per node")."""
    return bool(re.search(r"/\s*(?:node|server|host|machine|rank|GPU|device)\b", figure.quote, re.I) or _PER_MACHINE.match(doc.text, figure.end))


def _machine_word(doc: Document, figure) -> str:
    """What the size is each one's ("node" in "650 GB/node"), as the messages name it."""
    found = re.search(r"(node|server|host|machine|rank|GPU|device)", figure.quote + doc.text[figure.end:figure.end + 16], re.I)
    word = found.group(1).lower() if found else "machine"
    return {"server": "node", "host": "node", "gpu": "device"}.get(word, word)


def state_bytes(listed: str) -> list[tuple[str, str, int]] | None:
    """Each state of a '+'-joined list (its kind, its precision, its bytes per parameter); None when one is not known."""
    out: list[tuple[str, str, int]] = []
    for item in (part.strip() for part in listed.split("+")):
        m = _STATE.match(item)
        if not m:
            return None
        precision = (m["p"] or m["q"] or "").lower()
        state = m["s"].lower()
        if re.search(r"moments|m\s*/\s*v|states", state):
            if precision and precision != "fp32":
                return None  # moments kept in bf16: how many bytes the text does not say
            out.append(("moments", "fp32", 8))
        elif "main" in state or "master" in state:
            out.append(("master", precision or "fp32", _BYTES.get(precision or "fp32", 4)))
        elif precision:
            out.append(("grads" if state.startswith("grad") else "weights", precision, _BYTES[precision]))
        else:
            return None  # "params" without a precision: 2 or 4 bytes, the text does not say
    return out if len(out) >= 2 else None


def state_list(doc: Document, claim: Claim) -> Result | None:
    """Params x the listed states' bytes / the size per machine = the machines they are spread over."""
    if claim.calculations:
        return None
    listed = next((m for m in _LIST.finditer(claim.quote)), None)
    states = state_bytes(listed.group(1) or listed.group(2)) if listed else None
    params = [f for f in claim.figures if f.quantity == "params" and f.value >= 1e6]
    sizes = [f for f in claim.figures if f.value > 0 and f.quantity in ("bytes", "memory_bytes", "optimizer_state_bytes", "memory_bytes_per_chip",
                                                                        "checkpoint_bytes") and _per_machine(doc, f)]
    if not states or len(params) != 1 or len(sizes) != 1:
        return None
    per = sum(b for *_, b in states)
    index = worked(doc, f"{params[0].value:g} * ({' + '.join(str(b) for *_, b in states)}) / {sizes[0].value:g}",
                   f"{params[0].quote} x ({' + '.join(f'{b} B' for *_, b in states)}) / {sizes[0].quote}")
    if index is None:
        return None
    implied = doc.calculations[index]["outputs"]["value"]
    m = messages(doc.lang)["verdicts"]
    names = m["state_names"]
    listed_words = " + ".join(m["state_bytes"].format(state=names[kind].format(p=precision), bytes=b) for kind, precision, b in states)
    machine = _machine_word(doc, sizes[0])
    words = m["state_list"].format(states=listed_words, per=per, params=said(doc, params[0]), total=restate.value("bytes", params[0].value * per),
                                   size=said(doc, sizes[0]), count=f"{implied:.3g}", machines=m["state_machines"][machine])
    counts = [f for f in claim.figures if f.quantity in ("n_chips", "n_nodes") and f.value > 1]
    if len(counts) == 1 and counts[0].quantity == ("n_nodes" if machine == "node" else "n_chips") and abs(implied / counts[0].value - 1) <= _AGREE:
        # a count of the same thing the size is each one's: "16x GB300" may count GPUs or nodes, so it judges nothing
        return Result([index], "consistent", words + m["state_list_agrees"].format(count=said(doc, counts[0])))
    return Result([index], None, words)
