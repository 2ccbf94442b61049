"""Which accelerators a passage runs on: where they are no GPUs (TPU, Trainium, a Tenstorrent Galaxy), the answer's
generic words say "chip", not "GPU"."""

import re

from service.explain import pattern_cache

# ... or a TPU's own axes ("ICI_TP=4", "DCN_FSDP=2": MaxText's meshes over TPU links)
_NOT_GPUS = pattern_cache.lazy(r"TPU|Trainium|Gaudi|NPU|Ascend|Tenstorrent|Blackhole|Wormhole|Cerebras|Groq|\bIPU|MTIA|Maia|\b(?:ICI|DCN)_[A-Z]|\b[Tt]rn\d\b|NeuronCore|\bNeuron\b|\bNKI\b|\bInferentia")
_GPUS = pattern_cache.lazy(r"\bGPUs?\b|CUDA|NVIDIA|Nvidia|\b[HAB]\d{2,3}s?\b|\bMI\d{3}|ROCm|RTX")
# "NVIDIA GPUs", "AMD's GPUs", "GPU-based": a maker's GPUs or a compound stay what they are
_GPU_WORD = pattern_cache.lazy(r"(?<!NVIDIA )(?<!Nvidia )(?<!AMD )(?<!Intel )(?<!AMD's )(?<![\w-])GPU(s?)(?![\w-])")


def not_gpus(text: str) -> bool:
    """Whether the passage's accelerators are named and none is a GPU."""
    return bool(_NOT_GPUS.search(text)) and not _GPUS.search(text)


def names_gpus(text: str) -> bool:
    """Whether the passage names GPUs at all (the word, CUDA, a GPU's model)."""
    return bool(_GPUS.search(text))


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
    said = _GPU_WORD.sub(lambda m: "chip" + m.group(1), definition)
    return re.sub(r"(^|[.!?]\s+)chip", lambda m: m.group(1) + "Chip", said)  # "GPU clusters often ..." opens a sentence


_ARABIC_CHIPS = tuple((re.compile(pattern), chips) for pattern, chips in (
    (r"وحدات GPU", "شرائح"), (r"وحدتي GPU", "شريحتين"), (r"وحدتا GPU", "شريحتان"), (r"وحدة GPU", "شريحة"), (r"(?<![\w-])GPU(?![\w-])", "شريحة")))


# NVIDIA's own names: beside another maker's chips and none of these, an example built on them is from another setting
_NVIDIA = pattern_cache.lazy(r"NVIDIA|Nvidia|NVLink|NVSwitch|NVL\d+|CUDA|NCCL|\b[HAB]\d{2,3}\b|\bGB\d{2,3}\b|DGX|HGX|ConnectX|"
                             r"Hopper|Blackwell|Ampere|\bRTX\b|GeForce|Jetson")
_OTHER_MAKERS = pattern_cache.lazy(r"TPU|Trainium|Inferentia|Gaudi|\bNPUs?\b|Ascend|Tenstorrent|Blackhole|Wormhole|Cerebras|Groq|"
                                   r"\bAMD\b|\bMI\d{3}|ROCm|RCCL|Instinct|Infinity Fabric|xGMI|Ponte Vecchio|\bPVC\b|Apple|\bM\d (?:Max|Ultra|Pro)\b")


def other_maker(passage: str) -> bool:
    """Whether the passage's chips are named and none is NVIDIA's (Gaudi, TPU, MI300X, Apple silicon)."""
    return bool(_OTHER_MAKERS.search(passage)) and not _NVIDIA.search(passage)


def names_nvidia(text: str) -> bool:
    """Whether `text` names NVIDIA or one of its products (H100, NVLink, ConnectX)."""
    return bool(_NVIDIA.search(text))

