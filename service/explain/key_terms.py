"""Config keys that no option table explains for this text, glossed by what their own words mean.

option_terms names a key as one framework's setting only where the text names that framework (or the key is a flag
of one framework). A key it leaves out ("overlap_grad_sync" where no framework is named, "ici_data_parallelism" in a
codebase with no table) is glossed here: with the meaning of the one table that spells it so, as "a configuration
setting" (no framework named), or else by its words (data/key_words.json) where every word is known; otherwise it
is left out rather than guessed.
"""

import json
import re
from functools import cache

from calculators.resources import data_dir
from service.configs import options, switch
from service.explain import definitions, glossary, option_terms, pattern_cache, term_items
from service.i18n.messages import messages

# snake_case or dotted keys, and quoted kebab-case keys of a JSON config ("pipe-parallel-size": 4)
KEY = pattern_cache.lazy(r"(?<![\w.-])(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:\.[a-z][a-z0-9_]*)*|[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+)(?![\w-])"
                          r"|(?<=\")[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}(?=\"\s*:)")
_PARTS = re.compile(r"[._-]+")
MOST = 4  # a pasted config of many keys is the config reader's; the terms list glosses only the first few
_SOURCE = {"title": "data/key_words.json (the words frameworks join into config keys)",
           "url": "https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/training/arguments.py"}


# "the optimizer_allgather time could vary from 2.5s to 0.4s": a phase a log times, not a setting
_TIMED_AFTER = re.compile(r"\s+(?:time|times|timing|latency|duration)\b|\s+(?:took|takes)\s", re.I)
# "I want to increase vllm_gpu_memory_utilization": what a person raises or sets is a setting, whatever its name measures
_SET_BEFORE = re.compile(r"\b(?:increas\w*|decreas\w*|rais\w*|lower\w*|reduc\w*|set|sets|setting|tun\w*|chang\w*|adjust\w*|bump\w*|"
                         r"configur\w*|pass\w*|enabl\w*|disabl\w*)\s+(?:the\s+|my\s+|our\s+|your\s+)?$", re.I)
# "--kv-cache-dtype fp8_e4m3", "dtype=fp8_e4m3": a value given to a setting, not a setting of its own
_VALUE_BEFORE = re.compile(r"(?:(?<![\w-])--[A-Za-z][\w-]*(?:\s+|=)|(?<![\w.])[A-Za-z_][\w.]*\s*=\s*|\b(?:when|by|while)\s+using\s+)$")
# "the update_actor step takes progressively longer": a step of the program's loop, named by its function
_STEP_AFTER = re.compile(r"\s+(?:step|steps|phase|stage)\b", re.I)
_CODE_AFTER = re.compile(r"\s+(?:kernels?|functions?|ops?|operators?|methods?|class|modules?|API|calls?)\b"  # "context_attention_fwd kernel"
                         r"|\s+(?:runs|is\s+running|computes|launches|performs|(?:should|would|will)\s+be\s+(?:slower|faster)|is\s+(?:slower|faster))\b")  # "ring_attn should be slower"
_GROUP_AFTER = re.compile(r"\s+(?:process\s+)?(?:group|groups|ranks|mesh|sub-?mesh)\b", re.I)  # "summed across the dp_cp group": ranks, no setting


@cache
def words() -> dict[str, dict]:
    """data/key_words.json: each word or abbreviation that keys are made of -> {"en", "ar"}."""
    return json.loads((data_dir() / "key_words.json").read_text(encoding="utf-8"))["words"]


@cache
def measure_words() -> frozenset[str]:
    """data/key_words.json's measure_words: a name with one of them is a measured value ("ttft_avg_ms"), not a setting."""
    return frozenset(json.loads((data_dir() / "key_words.json").read_text(encoding="utf-8"))["measure_words"])


# The folders a codebase keeps its code in, and the packages of this field: a dotted name through one of them is a module
# ("ezpz.examples.fsdp_tp", "megatron.core.transformer"), not a config key ("policy.generation.vllm_cfg"), round 37
_MODULE_FOLDERS = frozenset({"examples", "example", "scripts", "recipes", "tools", "tests", "utils", "modules", "models", "core", "nn",
                             "ops", "layers", "kernels", "src", "lib", "contrib", "experimental", "integrations", "distributed"})
_PACKAGES = frozenset({"torch", "megatron", "deepspeed", "jax", "flax", "vllm", "sglang", "transformers", "accelerate", "apex",
                       "transformer_engine", "nemo", "torchtitan", "nanotron", "maxtext", "optax", "orbax", "triton", "xformers"})


def unnamed_in(text: str, start: int, end: int, named: list[tuple[int, int]]) -> bool:
    """Whether text[start:end] holds a key no glossary name covers ("passing zero_hpz_partition_size, ... fails")."""
    return any(not any(a <= key.start() and key.end() <= b for a, b in named) for key in KEY.finditer(text, start, end))


def module_path(key: str) -> bool:
    """Whether a dotted name is a module of code: it starts with a package of this field or goes through a code folder."""
    parts = key.split(".")
    return len(parts) >= 2 and (parts[0] in _PACKAGES or any(p in _MODULE_FOLDERS for p in parts[1:-1]))


def measured(key: str) -> bool:
    """Whether a key names a measured value (a log's or a benchmark's field) by its words, rather than a setting."""
    return any(p in measure_words() for p in _PARTS.split(key.rsplit(".", 1)[-1]))


def _table_meaning(key: str, lang: str, named: set[str] = frozenset()) -> tuple[str, dict | None] | None:
    """The meaning of the one option table that spells `key` so (its name or an alias), or None (none, or several, or
    the text names other frameworks than the table's: "learning_rate" in a Megatron text is not the Trainer's; or
    the table is a prose-only one the text does not name)."""
    index = option_terms._index()
    candidates = [(framework, name) for framework, name in index.get(key) or index.get(key.rsplit(".", 1)[-1]) or []
                  if key in {name, *((options.entry(framework, name) or {}).get("aliases") or ())}]
    # only the table's own spelling: "num_experts" read off Megatron's --num-experts is another codebase's key
    if len({framework for framework, _ in candidates}) != 1:
        return None
    framework, name = candidates[0]
    if (named or framework in options.PROSE_ONLY) and framework not in named:
        return None  # a prose-only table (the Trainer's, vLLM's) holds generic names ("max_steps"): only where named
    entry = options.entry(framework, name) or {}
    meaning = ((entry.get("meaning") or {}).get(lang) or "").strip()
    return (meaning, entry.get("source"), framework, name) if meaning else None


def _by_words(key: str, lang: str) -> str | None:
    """The key read word by word ("num_moe_experts" -> number of mixture-of-experts experts), or None where a word is unknown."""
    table, parts = words(), [p for p in _PARTS.split(key.rsplit(".", 1)[-1]) if p]
    if len(parts) < 2 or any(p not in table for p in parts) or re.fullmatch(r"[a-z]\w*_t", key):
        return None  # "state_t", "vec_t": a C type's name, not a setting that reads "state time" (round 89 P02)
    if lang == "ar":  # Arabic word order differs: each word with its meaning, not a literal join
        return "، ".join(f"{p} ({_meaning(table, p, 'ar', n == len(parts) - 1)})" for n, p in enumerate(parts) if table[p]["ar"])
    ordered = _qualifier_first(parts)
    plain = " ".join(_meaning(table, p, "en", n == len(ordered) - 1) for n, p in enumerate(ordered) if table[p]["en"])
    return plain[3:] if plain.startswith("in ") else plain  # "fp8_backend": "FP8 backend", not "in FP8 backend"


def _meaning(table: dict, part: str, lang: str, last: bool) -> str:
    """A word's meaning in a name; ending it, a word may mean another thing ("num" in SeqNum is a number, not "number of")."""
    return table[part].get(f"{lang}_last", table[part][lang]) if last else table[part][lang]


_QUALIFIERS = {"avg", "mean", "total", "max", "min", "peak"}
_UNITS = {"ms", "sec", "seconds", "bytes"}


def _qualifier_first(parts: list[str]) -> list[str]:
    """Names put a statistic after what it measures, before the unit ("ttft_avg_ms"); English says it first."""
    body = list(parts)
    while body and body[-1] in _UNITS:
        body.pop()
    if len(body) >= 2 and body[-1] in _QUALIFIERS:
        return [body[-1], *body[:-1], *parts[len(body):]]
    return parts


# A name in code written in CamelCase ("DistributedFusedAdam", "NumProcess"): read by its words where all are known.
_CAMEL = pattern_cache.lazy(r"(?<![\w.])(?:[A-Z][a-z]+){2,5}(?![\w])")


def code_names(text: str, lang: str, named: list[tuple[int, int]], known: set[str]) -> list[dict]:
    """Terms items for CamelCase names in code that no glossary name covers, read word by word (data/key_words.json),
    each once; a name with a word the table lacks ("DeepSpeed") is left out."""
    out, seen, table = [], set(known), words()
    for match in _CAMEL.finditer(text):
        name, start, end = match.group(), match.start(), match.end()
        parts = [p.lower() for p in re.findall(r"[A-Z][a-z]+", name)]
        if name in seen or any(p not in table for p in parts) or any(a < end and start < b for a, b in named) \
                or text[end:end + 1] == "-":
            continue  # "MiniMax-M2.5": a product's name with its version, not a name in code (round 33: "mini maximum")
        seen.add(name)
        spaced = " ".join(re.findall(r"[A-Z][a-z]+", name))
        if any(m.start == 0 and m.end == len(spaced) for m in glossary.load().find(spaced)):
            continue  # "DataParallel" names a technique the glossary knows by its words: not glossed word by word
        if " ".join(_meaning(table, p, "en", n == len(parts) - 1) for n, p in enumerate(parts) if table[p]["en"]).lower() == spaced.lower():
            continue  # "TensorCache: A name in code that reads 'tensor cache'" tells the reader nothing (round 46, S6)
        if lang == "ar":
            plain = "، ".join(f"{p} ({_meaning(table, p, 'ar', n == len(parts) - 1)})" for n, p in enumerate(parts) if table[p]["ar"])
        else:
            plain = " ".join(_meaning(table, p, "en", n == len(parts) - 1) for n, p in enumerate(parts) if table[p]["en"])
        out.append({"id": f"key:{name}", "term": name, "expansion": "", "expansion_en": "",
                    "definition": messages(lang)["code_name_words"].format(words=plain), "intuition": None,
                    "category": "label", "calculator": None, "found_as": name, "source": _SOURCE})
    return out


# a name inside arithmetic the text writes ("algbw * (2*(n_nodes-1)/n_nodes)"): a variable of the formula, not a setting
# "max_tps = bandwidth ÷ size" defines a name by arithmetic: a quantity the formula gives, not a measured field
_IN_FORMULA = pattern_cache.lazy(r"[*/÷×]\s*[a-z][a-z0-9_]*|[a-z][a-z0-9_]*\s*[*/÷×]\s*[\d(a-z]|\(\s*[a-z][a-z0-9_]*\s*[-+*/÷×]"
                                 r"|[-+]\s*[a-z][a-z0-9_]*\s*\)")  # "(kv_len)" alone is a name in brackets, no arithmetic
_DEFINED_BY_FORMULA = pattern_cache.lazy(r"\s+=\s+[^=\n]{1,60}?[*/÷×]")


_VALUE_AFTER = re.compile(r"\s*=\s*([A-Za-z][\w.-]*)")  # a key set in the text: "transformer_impl=inference_optimized"


def find(text: str, lang: str, named: list[tuple[int, int]], known: set[str]) -> list[dict]:
    """Terms items for the keys of `text` that neither a glossary name (`named` spans) nor an option item (`known`,
    as written) covers, first mention first, each once, at most MOST."""
    out, seen, frameworks = [], set(known), option_terms.named_frameworks(text)
    for match in KEY.finditer(text):
        key, start, end = match.group(), match.start(), match.end()
        own = end - len(key.rsplit(".", 1)[-1])  # "model.expert_model_parallel_size": the glossary may name the last part
        if key in seen or any(a <= own and end <= b for a, b in named) or option_terms._in_command(text, start) \
                or ("." in key and key.rsplit(".", 1)[-1] in known):  # "policy.generation.vllm_cfg.gpu_memory_utilization"
            continue  # a glossary name or an option item already, or a command line's option: the config reader explains those
        seen.add(key)
        if _doubled(key):
            continue  # "reshard_after_after_forward": a typo, which a reader was told was a setting of its own
        from_table = _table_meaning(key, lang, frameworks)
        plain = None if from_table else _by_words(key, lang)
        if not (from_table or plain):
            continue
        in_path = bool(start >= 2 and re.match(r"\w/", text[start - 2:start]) and re.match(r"/\w", text[end:end + 2])  # "examples/pytorch/comm_gemm_overlap/x.py", not "numel/dtype_bytes"
                       or re.search(r"(?<![\w/])[A-Za-z]+_[A-Za-z]\w*/$", text[max(0, start - 40):start]) and not re.match(r"\s*[*/÷×(]", text[end:end + 3]))  # a logged metric's name, "timing_s/update_actor"
        in_formula = not in_path and (_IN_FORMULA.search(text, max(0, start - 3), min(len(text), end + 3)) or _DEFINED_BY_FORMULA.match(text, end))
        named_before = not from_table and text[start - 1:start] == "(" and text[end:end + 1] == ")" and re.search(r"[A-Za-z]\s*$", text[max(0, start - 20):start - 1])
        kind = "key_term_named" if named_before else "key_term_group" if not from_table and _GROUP_AFTER.match(text, end) \
            else "key_term_variable" if not from_table and in_formula \
            else "key_term_step" if not from_table and _STEP_AFTER.match(text, end) \
            else "key_term_module" if not from_table and (in_path or module_path(key) or _RUN_BEFORE.search(text[max(0, start - 30):start])
                                                          or _CALLED.search(key) or text[end:end + 1] == "(" or _CODE_AFTER.match(text, end)) \
            else "key_term_value" if not from_table and _VALUE_BEFORE.search(text[max(0, start - 40):start]) \
            else "key_term_measured" if not from_table and (measured(key) or _TIMED_AFTER.match(text, end)) \
            and not _SET_BEFORE.search(text[max(0, start - 30):start]) else "key_term"
        if kind == "key_term" and not from_table and _FORMAT_NAME.match(key):
            continue  # "fp8_e4m3" outside a setting's value: a number format, never "A setting of mantissa" (round 104 P02)
        concept = _named_concept(key, lang) if kind == "key_term" and not from_table else None
        if from_table and (value := _VALUE_AFTER.match(text, end)):  # "transformer_impl=inference_optimized"
            from_table = (switch.meaning_for_value(from_table[2], from_table[3], value.group(1), from_table[0], lang), *from_table[1:])
        definition = from_table[0] if from_table else messages(lang)["key_term_concept"].format(**concept, words=plain) if concept \
            else messages(lang)[f"{kind}_words"].format(words=plain)
        out.append({"id": f"key:{key}", "term": key, "expansion": messages(lang)[kind],
                    "expansion_en": messages("en")[kind], "definition": definition, "intuition": None,
                    "category": "option", "calculator": None, "found_as": key,
                    "source": (from_table[1] if from_table else None) or _SOURCE, "name_only": not from_table and (_restated(key) or _mostly_named(key, start, end, named, known, text))})
        if len(out) >= MOST:
            break
    return out


_FORMAT_NAME = re.compile(r"^(?:fp|bf|int|uint|mxfp|nvfp|float|bfloat)\d+(?:_e\dm\d\w*)?$", re.I)


def _named_concept(key: str, lang: str) -> dict | None:
    """The glossary concept of two words or more that a setting's words name ("ring_attn_size" reads "ring attention
    size"), its name and brief meaning, so the setting is more than its name read out (round 47); None for none or two."""
    english = _by_words(key, "en")
    found = [m for m in glossary.load().find(english or "") if len(m.found_as.split()) >= 2]
    if len(found) != 1:
        return None
    entry = found[0].entry
    name = (entry.get("ar") or {}).get("term") if lang == "ar" else entry["term"]
    meaning = (entry.get("ar") or {}).get("definition") if lang == "ar" else entry["definition"]
    if not name or not meaning:
        return None
    first = definitions.brief_definition(re.split(r"(?<=[.؟?!])\s", meaning, maxsplit=1)[0], 24).rstrip(".")
    first = first.split(": ")[0] if len(first.split()) > 16 else first  # inside brackets, the concept's name-like head only
    return {"name": re.sub(r"\s*\(.*\)$", "", name), "meaning": first[:1].lower() + first[1:] if lang == "en" else first}


# A rate or a column label: two or three words joined by "/" ("Time/step", "Sequences/Sec", "s/iter", "FLOPs/param").
# "ring_flash_attn_func", "attn_fn", "flash_fwd_kernel": a function's name says so (FlashAttention#2308's new function)
# "generate_rollout_fully_async as the rollout function": a name that opens on a verb or ends as a function is code, not a setting
_CALLED = pattern_cache.lazy(r"_(?:func|fn|kernel|impl)$|^(?:generate|compute|get|run|build|load|make|create|init|apply|update|train|"
                             r"evaluate|save|send|recv|gather|dispatch|combine|launch|register|prepare|process|convert|merge)_")
# "when running shmem_put_bw between nodes": a program the author ran (NVSHMEM's bandwidth test), not a setting
_RUN_BEFORE = pattern_cache.lazy(r"\b(?:run|runs|running|ran|launch(?:ed|ing)?|execut(?:e|ed|ing)|invok(?:e|ed|ing)|call(?:ed|ing)?|"
                                 r"binary|benchmarks?|executable|script)\s+(?:the\s+|a\s+)?`?$", re.I)
_LABEL = pattern_cache.lazy(r"(?<![\w/.])([A-Za-z]{1,12}(?:/[A-Za-z]{1,12}){1,2})(?![\w/])")


@cache
def rate_words() -> dict[str, dict]:
    """data/key_words.json's rate words: the words a rate label is made of -> {"en", "ar"}."""
    return json.loads((data_dir() / "key_words.json").read_text(encoding="utf-8"))["rate_words"]


def rate_labels(text: str, lang: str, named: list[tuple[int, int]]) -> list[dict]:
    """Terms items for rate labels no glossary name covers whole (`named` spans), read word by word with "per"
    ("Time/step" = time per training step), each once; a label with a word the table lacks is left out."""
    out, seen, table = [], set(), rate_words()
    for match in _LABEL.finditer(text):
        label, start, end = match.group(1), match.start(1), match.end(1)
        parts = [p.lower() for p in label.split("/")]
        if label.lower() in seen or any(p not in table for p in parts) or len(set(parts)) < len(parts) \
                or any(a <= start and end <= b for a, b in named) or all(len(p) > 3 and p.endswith("s") for p in parts):  # "tokens/sequences": or
            continue
        seen.add(label.lower())
        m = messages(lang)
        # the first word in the plural ("tokens per second"), the one after "per" in the singular ("ms per token")
        said = [(table[p].get(f"{lang}_first") if n == 0 else None) or table[p].get(lang) or table[p]["en"]
                for n, p in enumerate(parts)]
        plain = m["rate_label_per"].join(said)
        out.append({"id": f"label:{label.lower()}", "term": label, "expansion": "", "expansion_en": "",
                    "definition": m["rate_label"].format(words=plain), "intuition": None, "category": "label",
                    "calculator": None, "found_as": label, "source": _SOURCE, "minor": True})  # after the own terms
    return out


# A mesh axis written with its degree: "model=8", "fsdp=8", "data: 4" (a word alone, not part of a key or a path).
_AXIS = pattern_cache.lazy(r"(?<![\w.\-/])([a-z]+)\s*[=:]\s*\d+(?![\w.])")


@cache
def axis_words() -> dict[str, str]:
    """data/key_words.json's axis words: a mesh axis's name -> the glossary id of the parallelism it carries."""
    return json.loads((data_dir() / "key_words.json").read_text(encoding="utf-8"))["axis_words"]


def axis_degrees(text: str) -> list[tuple[str, int, int]]:
    """(glossary id, start, end) of each mesh axis written with a degree ("model=8"), where two such axes are written
    (one "data: 4" alone may be a table's row), first mention of each id once."""
    found = [(axis_words()[m.group(1)], m.start(), m.end()) for m in _AXIS.finditer(text) if m.group(1) in axis_words()]
    if len({m[0] for m in found}) < 2:
        return []
    seen, out = set(), []
    for term_id, start, end in found:
        if term_id not in seen:
            seen.add(term_id)
            out.append((term_id, start, end))
    return out


def _mostly_named(key: str, start: int, end: int, named: list[tuple[int, int]], known: set[str], text: str) -> bool:
    """Whether a compound glossary term or option inside a key covers at least half of it ("expert_model_parallelism"
    in "moe_expert_model_parallelism"): its word-by-word reading, shown beside that term, would only repeat its name."""
    parts = [text[a:b] for a, b in named if start <= a and b <= end and (a, b) != (start, end)]
    parts += [k for k in known if k and k != key and k in key]
    return any(len(p) * 2 >= end - start and re.search(r"[_\-\s]", p) for p in parts)


def _doubled(key: str) -> bool:
    """Whether a key repeats a word at once ("reshard_after_after_forward"): a slip of the keyboard, not a name."""
    parts = [p.lower() for p in _PARTS.split(key.rsplit(".", 1)[-1]) if p]
    return any(a == b and not a.isdigit() for a, b in zip(parts, parts[1:]))


def _restated(key: str) -> bool:
    """Whether a key's reading only says its name again ("num_heads": "number of heads"), not what its short words
    stand for ("tp_comm_overlap": "tensor parallel communication overlap"): judged on the English reading."""
    words = _by_words(key, "en")
    return bool(words) and term_items.restates_head(key, "", messages("en")["key_term_words"].format(words=words))
