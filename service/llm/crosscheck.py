"""The model's answer checked against the deterministic reading: a verdict or an MFU that contradicts a calculator's is named.

Cheap on purpose: the reader already ran the calculators on the text's own figures; this only looks, sentence by
sentence, for the model calling a claim the opposite of what the calculation found, or stating another MFU.
"""

import re

from service.explain.checks import verdicts
from service.explain.document import Document

_SENTENCE = re.compile(r"[^.!?؟\n]+(?:[.!?؟]|$)")
_WRONG = re.compile(r"\b(?:inconsistent|incorrect|does(?: not|n't) (?:add up|hold|match)|is wrong|too (?:high|low)|impossible|"
                    r"overstated|understated|not plausible|implausible)\b|غير متسق|لا يتسق|خاطئ|غير صحيح", re.I)
_RIGHT = re.compile(r"\b(?:consistent|checks out|adds up|is correct|holds|matches|agrees|plausible)\b|(?<!غير )متسق|يتفق|صحيح", re.I)
_MFU = re.compile(r"\bMFU\b|model FLOPs utili[sz]ation|استغلال", re.I)
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%")


def contradictions(text: str, doc: Document) -> list[str]:
    """Warnings for each sentence of `text` that contradicts a verdict or an MFU the reader's calculators found."""
    sentences = [s.strip() for s in _SENTENCE.findall(text or "") if s.strip()]
    warnings: list[str] = []
    for claim in doc.claims:
        if claim.verdict not in ("consistent", "inconsistent") or claim.confidence == "assumed":
            continue  # only what the text's own figures settle
        quotes = [f.quote for f in claim.figures if f.quantity not in ("number", "expression") and len(f.quote) >= 2]
        for sentence in sentences:
            if not any(q in sentence for q in quotes):
                continue
            says_wrong, says_right = bool(_WRONG.search(_negation_free(sentence))), bool(_RIGHT.search(_negation_free(sentence)))
            if claim.verdict == "consistent" and says_wrong and not says_right or \
                    claim.verdict == "inconsistent" and says_right and not says_wrong:
                warnings.append(f"The answer says “{_short(sentence)}”, but the calculator finds the claim {claim.verdict}: "
                                f"{claim.why}.")
                break
    for value, quotes in _mfus(doc):
        for sentence in sentences:
            # about this run: the sentence names MFU and one of the figures the calculation took from the text
            if not _MFU.search(sentence) or not any(q in sentence for q in quotes):
                continue
            stated = {round(f.value * 100, 1) for f in doc.figures if f.quantity == "mfu"}
            for match in _PERCENT.finditer(sentence):
                said = float(match.group(1)) / 100
                if round(said * 100, 1) in stated or verdicts.agrees(value, said, approx=True):
                    continue
                warnings.append(f"The answer gives an MFU of {match.group(0)} (“{_short(sentence)}”), but the calculator "
                                f"finds {value:.1%} from the text's figures.")
    return list(dict.fromkeys(warnings))


def _mfus(doc: Document) -> list[tuple[float, list[str]]]:
    """The MFUs the reader computed from the text's own figures (none resting on an assumption), with those figures."""
    found = []
    for run in doc.calculations:
        value = run.get("outputs", {}).get("mfu")
        sources = run.get("input_sources", {})
        if run.get("calculator") == "mfu" and value is not None and verdicts.possible("mfu", value) \
                and not verdicts.assumed_inputs(sources):
            quotes = [s["quote"] for name, s in sources.items() if s.get("source") == "text" and s.get("quote")
                      and name not in ("chip", "model")]
            found.append((value, quotes))
    return found


def _negation_free(sentence: str) -> str:
    """'not inconsistent' reads as consistent, 'not consistent' as inconsistent."""
    sentence = re.sub(r"\bnot (?:in)?consistent\b", lambda m: "consistent" if "in" in m.group(0)[4:6] else "inconsistent",
                      sentence, flags=re.I)
    return sentence


def _short(sentence: str, words: int = 16) -> str:
    parts = sentence.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")
