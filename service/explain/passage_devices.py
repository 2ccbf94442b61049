"""Which accelerators a passage runs on: where they are no GPUs (TPU, Trainium, a Tenstorrent Galaxy), the answer's
generic words say "chip", not "GPU"."""

import re

from service.explain import pattern_cache

_NOT_GPUS = pattern_cache.lazy(r"TPU|Trainium|Gaudi|NPU|Ascend|Tenstorrent|Blackhole|Wormhole|Cerebras|Groq|\bIPU|MTIA|Maia")
_GPUS = pattern_cache.lazy(r"\bGPUs?\b|CUDA|NVIDIA|Nvidia|\b[HAB]\d{2,3}\b|\bMI\d{3}|ROCm|RTX")
# "NVIDIA GPUs", "AMD's GPUs", "GPU-based": a maker's GPUs or a compound stay what they are
_GPU_WORD = pattern_cache.lazy(r"(?<!NVIDIA )(?<!Nvidia )(?<!AMD )(?<!Intel )(?<!AMD's )(?<![\w-])GPU(s?)(?![\w-])")


def not_gpus(text: str) -> bool:
    """Whether the passage's accelerators are named and none is a GPU."""
    return bool(_NOT_GPUS.search(text)) and not _GPUS.search(text)


def chips_for_gpus(definition: str, passage: str, own: str) -> str:
    """An English definition's generic "GPU" as "chip" where the passage's accelerators are no GPUs ("every GPU works
    on a different slice" for FSDP on a Tenstorrent Galaxy, round 49's review); the entry of a GPU itself (`own`) keeps
    its word."""
    if not not_gpus(passage) or re.search(r"GPU|NVIDIA|Nvidia|\bAMD\b", own) or _NOT_GPUS.search(definition):
        return definition  # "one GPU or one TPU": a definition naming the kinds of chip keeps each; a GPU maker makes GPUs
    if re.search(r"[\u0621-\u064A]", definition):  # "وحدات GPU" is "شرائح" in Arabic, never "وحدات chip" (round 56 P23-ar)
        for written, chips in _ARABIC_CHIPS:
            definition = written.sub(chips, definition)
        return definition
    return _GPU_WORD.sub(lambda m: "chip" + m.group(1), definition)


_ARABIC_CHIPS = tuple((re.compile(pattern), chips) for pattern, chips in (
    (r"وحدات GPU", "شرائح"), (r"وحدتي GPU", "شريحتين"), (r"وحدتا GPU", "شريحتان"), (r"وحدة GPU", "شريحة"), (r"(?<![\w-])GPU(?![\w-])", "شريحة")))
