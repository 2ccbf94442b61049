"""Whether a passage or a claim is about serving a model or training it: the checks that only hold for one of them
(training MFU's 6 FLOPs per parameter per token, Adam's 16 bytes of states per parameter) ask this first."""

import re

from service.explain.document import Claim, Document

# Serving, not training: a model's training MFU counts 6 FLOPs per parameter per token (forward and backward), which a
# rate of generated tokens never does (a round-9 reader: 42 tokens/s/chip of inference gave "3.843%" against 53%).
_SERVING = re.compile(r"\b(?:inference|serving|serve[sd]?|deploy(?:s|ed|ing|ment)?|decod(?:e|es|ing)|prefill|TPOT|TTFT|ms/token|ms per token|"
                      r"per output token|vLLM|SGLang|TensorRT-LLM|TGI|speculative|draft tokens?|MTP|concurrency)\b|tok(?:en)?s?/s/user\b|"
                      r"\bper (?:million|1M) (?:output )?tokens\b|\bper user\b|الاستدلال|استدلال|فك الترميز|الخدمة|"
                      r"استنتاج|لكل مستخدم", re.I)  # "استنتاج": a machine translation's inference; a rate "per user" is served
_TRAINING = re.compile(r"\b(?:train\w*|pre-?train\w*|fine-?tun\w*|backward|optimi[sz]er|Adam\w*|ZeRO)\b|تدريب|التدريب|الضبط الدقيق|(?:المحسن|المحسِّن)(?![\u0621-\u064A])", re.I)  # not "المحسنة" (optimised)


def serving(doc: Document, claim: Claim) -> bool:
    """Whether the claim's throughput is of serving: its sentence says so, or the nearest word before it of serving or
    training is serving's; in a sentence of both ("53% training MFU, 17 ms/token inference latency, 42 tokens/s/chip"),
    the word nearest before the rate."""
    rate = next((f for f in claim.figures if f.quantity in ("tokens_per_s", "tokens_per_s_per_chip")), None)
    if rate is not None and _SERVING.search(claim.quote) and _TRAINING.search(claim.quote):
        before = doc.text[claim.start:rate.start]
        return _last(_SERVING, before) > _last(_TRAINING, before)
    if _SERVING.search(claim.quote) or _TRAINING.search(claim.quote):
        return bool(_SERVING.search(claim.quote)) and not _TRAINING.search(claim.quote)
    before = doc.text[:claim.start]  # a sentence of neither: the last named before it ("... per decoding step. That's
    if _SERVING.search(before) or _TRAINING.search(before):  # 14 tokens/second per A100"), else the passage's own
        return _last(_SERVING, before) > _last(_TRAINING, before)
    return serving_text(doc)


def serving_text(doc: Document) -> bool:
    """Whether the passage speaks of serving a model and never of training it."""
    return bool(_SERVING.search(doc.text)) and not _TRAINING.search(doc.text)


# Frameworks made for training: "we will configure an 18 billion parameter GPT-2 model using Megatron-DeepSpeed" trains
_TRAINING_STACK = re.compile(r"\b(?:DeepSpeed|Megatron|ZeRO|FSDP|NeMo|torchtitan|MaxText|nanotron|Colossal-?AI)\b")


def training_text(doc: Document) -> bool:
    """Whether the passage speaks of training a model (training, fine-tuning, a backward pass, an optimizer) or names a
    framework made for it."""
    return bool(_TRAINING.search(doc.text) or _TRAINING_STACK.search(doc.text))


def _last(pattern: re.Pattern, text: str) -> int:
    """Where the last match of `pattern` in `text` ends (-1 for none)."""
    return max((m.end() for m in pattern.finditer(text)), default=-1)
