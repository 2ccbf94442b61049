"""Command-line flags and environment variables no option table knows ("--update-freq", "NVSHMEM_HCA_LIST"), glossed
by what their own words say (data/key_words.json) and, for a variable, the library its first word names; a name
with a word the table lacks is left out rather than guessed."""

import json
import re
from functools import cache

from calculators.resources import data_dir

from service.explain import key_terms, option_terms, pattern_cache
from service.i18n.messages import messages

# A flag of two words or more ("--update-freq", "--num_processes", "--no-reshard-after-forward"), not "---" or "--x".
_FLAG = pattern_cache.lazy(r"(?<![\w-])--([a-z][a-z0-9]*(?:[-_][a-z0-9]+)+)(?![\w-])")
# An environment variable: ALL CAPS words joined by "_" ("NCCL_IB_HCA", "$CUDA_VISIBLE_DEVICES").
_ENV = pattern_cache.lazy(r"(?<![\w-])\$?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![\w-])")
MOST = 4  # as key_terms: a pasted command of many flags is the config reader's
# An RDMA device as Linux names it ("mlx5_0", "mlx5_ib0:1"): the mlx5 driver's card, a colon then its port.
_RDMA_DEVICE = pattern_cache.lazy(r"(?<![\w-])mlx5_[a-z]*\d+(?::\d+)?(?![\w-])")
# A PyTorch in-place method called in code ("uniform_()", ".zero_()", "add_(x)"): the trailing "_" before "(".
_IN_PLACE = pattern_cache.lazy(r"(?<![\w])\.?([a-z][a-z0-9]*(?:_[a-z0-9]+)*)_\((?=[^()\n]{0,40}\))")
# Tensor methods and torch.nn.init functions that fill a tensor in place, written bare as often as after a ".".
_IN_PLACE_KNOWN = frozenset({"uniform", "normal", "zero", "fill", "add", "mul", "div", "sub", "copy", "clamp", "masked_fill",
                             "scatter", "index_add", "requires_grad", "bernoulli", "exponential", "random", "kaiming_uniform",
                             "kaiming_normal", "xavier_uniform", "xavier_normal", "trunc_normal", "orthogonal", "resize"})
_PYTORCH_WORDS = pattern_cache.lazy(r"\b(?:torch|pytorch|tensor|tensors|nn\.)", re.I)


@cache
def env_prefixes() -> dict[str, str]:
    """data/key_words.json's env_prefixes: a variable's first word -> the library that reads it."""
    return json.loads((data_dir() / "key_words.json").read_text(encoding="utf-8"))["env_prefixes"]


@cache
def env_words() -> dict[str, dict]:
    """data/key_words.json's env_words: words read so only in one library's variables ('pe' in NVSHMEM's)."""
    return json.loads((data_dir() / "key_words.json").read_text(encoding="utf-8"))["env_words"]


def _read(parts: list[str], lang: str, library: str | None = None) -> str | None:
    """The words of `parts` in `lang`, or None where a word is unknown (the name is then left out); in Arabic each
    part stays beside its meaning as the name writes it (upper case for a variable's)."""
    table = {**key_terms.words(), **env_words().get(library or "", {})}
    upper = bool(library)
    if not parts or any(p not in table for p in parts):
        return None
    if lang == "ar":
        return "، ".join(f"{p.upper() if upper else p} ({table[p]['ar']})" for p in parts if table[p]["ar"])
    return " ".join(table[p]["en"] for p in parts if table[p]["en"]) or None


def _abbreviation(part: str) -> bool:
    """Whether a flag's word is short for something its reading spells out ("bw": bandwidth, "ddp": distributed data
    parallel), not the word itself or its plain stem ("freq": frequency, "update"): a flag made only of the latter
    ("--update-freq": "update frequency") says its name again, an empty item the answer leaves out."""
    said = key_terms.words()[part]["en"] or ""
    reading = re.sub(r"[^a-z]", "", said.lower())
    return "(" in said or bool(reading) and not reading.startswith(re.sub(r"[^a-z]", "", part.lower()))


def _item(name: str, lang: str, expansion_key: str, definition: str) -> dict:
    return {"id": f"key:{name}", "term": name, "expansion": messages(lang)[expansion_key],
            "expansion_en": messages("en")[expansion_key], "definition": definition, "intuition": None,
            "category": "option", "calculator": None, "found_as": name, "source": key_terms._SOURCE}


def find(text: str, lang: str, named: list[tuple[int, int]], known: set[str]) -> list[dict]:
    """Terms items for the flags and environment variables of `text` that no glossary name (`named` spans), option
    item or key item (`known`, as written) covers whole, first mention first, each once, at most MOST; a flag or variable
    on a pasted command line is the config reader's."""
    out, seen, m = [], set(known), messages(lang)
    found = [(match.start(), match.group(), match.group(1).replace("-", "_").split("_"), None) for match in _FLAG.finditer(text)]
    for match in _ENV.finditer(text):
        first, *rest = match.group(1).split("_")
        library = env_prefixes().get(first)
        if library:
            found.append((match.start(1), match.group(1), [p.lower() for p in rest], library))
    for start, name, parts, library in sorted(found, key=lambda f: f[0]):
        end = start + len(name)
        if name in seen or any(a <= start and end <= b for a, b in named) or option_terms._in_command(text, start):
            continue
        plain = _read(parts, lang, library)
        if plain is None:
            continue
        seen.add(name)
        if library:
            item = _item(name, lang, "env_var_term", m["env_var_words"].format(library=library, words=plain))
        else:
            item = _item(name, lang, "option_term_flag", m["flag_words"].format(words=plain))
            item["name_only"] = key_terms._restated(name.lstrip("-").replace("-", "_")) or not any(map(_abbreviation, parts))
        out.append(item)
        if len(out) >= MOST:
            break
    return out


def code_names(text: str, lang: str, named: list[tuple[int, int]], known: set[str]) -> list[dict]:
    """Terms items for the device names of RDMA network cards ("mlx5_ib0:1") and, in a text about PyTorch, its
    in-place methods ("uniform_()"), each once, where no glossary name covers them whole: what the naming
    convention says, nothing more (the sources: NCCL's NCCL_IB_HCA examples, PyTorch's tensor docs)."""
    out, seen, m = [], set(known), messages(lang)
    found = [(match.start(), match.group(), "rdma_device_words") for match in _RDMA_DEVICE.finditer(text)]
    if _PYTORCH_WORDS.search(text):
        found += [(match.start(1), match.group(1) + "_()", "in_place_words") for match in _IN_PLACE.finditer(text)
                  if match.group().startswith(".") or match.group(1) in _IN_PLACE_KNOWN]  # "helper_(x)" is not one
    for start, name, message in sorted(found):
        written = name if message == "rdma_device_words" else name[:-2]
        end = start + len(written)
        if name in seen or any(a <= start and end <= b for a, b in named):
            continue
        seen.add(name)
        item = _item(name, lang, "code_name_term", m[message])
        item["found_as"] = written if message == "rdma_device_words" else name
        item["source"] = _SOURCES[message]
        out.append(item)
        if len(out) >= MOST:
            break
    return out


_SOURCES = {"rdma_device_words": {"title": "NCCL environment variables, NCCL_IB_HCA (device names such as mlx5_0:1, port after the colon)",
                                  "url": "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html"},
            "in_place_words": {"title": "PyTorch documentation, torch.Tensor (methods that mutate a tensor end in an underscore)",
                               "url": "https://pytorch.org/docs/stable/tensors.html"}}

