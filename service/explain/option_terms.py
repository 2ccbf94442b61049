"""Command-line flags and config keys named in prose ("--overlap-grad-reduce", "per_device_batch_size") as terms, each
glossed with its meaning from the config reader's option tables (data/options/<framework>.json)."""

import re
from functools import cache

from service.configs import detect, options, switch
from service.explain import pattern_cache
from service.i18n.messages import messages

# A flag ("--tp-comm-overlap"), a dotted key ("parallelism.tensor_parallel_degree") or a snake_case key
# ("per_device_batch_size"); an ALL-CAPS enum value ("FULL_SHARD") is the glossary's, not an option.
_OPTION = pattern_cache.lazy(r"(?<![\w.-])(?:--[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+|--[a-z][a-z0-9]{2,}"
                             r"|[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z][a-z0-9]*(?:-[a-z0-9]+){2,})"
                             r"(?![\w-]|\.[a-z])")
# A line setting three options or more is a command or a config: the config reader explains its options one by one.
_SETTING = pattern_cache.lazy(r"--[A-Za-z][\w-]*|\b\w+=\S")
# The value the prose gives right after the name ("=false", ": False", " set to false").
_SET_TO = pattern_cache.lazy(r"`?\s*(?:=|:|\s(?:set\s)?to\s|\s)\s*`?([A-Za-z0-9_.'\"-]+)")
COMMAND_FIELDS = 3
# Names of each framework as a text writes them: where a text names one, an option both tables know is read as its.
# Only names: "ZeRO" is a technique FSDP texts discuss too, "titan" a GPU's name; neither names a framework.
_FRAMEWORK_WORDS = {"megatron-lm": ("megatron",), "nemo": ("nemo",), "megatron-bridge": ("megatron-bridge", "megatron bridge"),
                    "torchtitan": ("torchtitan",), "deepspeed": ("deepspeed", "zero_optimization", "ds_config"), "maxtext": ("maxtext",),
                    "accelerate": ("accelerate",), "torchrun": ("torchrun",), "deepspeed-launcher": ("deepspeed",),
                    "transformers": ("trainingarguments", "training_args", "bitsandbytes", "bnb_4bit", "from_pretrained", "peft",
                                     "loraconfig", "sfttrainer", "per_device_train_batch_size", "per_device_eval_batch_size"),
                    "vllm": ("vllm", "gpu_memory_utilization", "gpu-memory-utilization", "max_num_batched_tokens",
                             "max-num-batched-tokens")}
# Names a word list cannot tell apart from prose: "Trainer" capitalised (the Hugging Face class; Lightning's is
# pl.Trainer), "transformers" as the library ("from transformers import", "HF Transformers"), not the models.
_FRAMEWORK_PATTERNS = {"transformers": pattern_cache.lazy(
    r"(?<![\w.])(?:SFT|DPO|GRPO|Reward|Seq2Seq)?Trainer\b|\b(?:[Hh]ugging\s?[Ff]ace|HF|🤗)\s+[Tt]ransformers\b"
    r"|\bfrom transformers import\b|\bimport transformers\b|`transformers`|\btransformers(?:==|\s+v?\d)"
    r"|\b[Tt]ransformers (?:library|package)\b")}
_NOT_NAMED_BY_PATTERN = {"transformers": ("lightning",)}  # Lightning texts write "Trainer" for their own class
_NAMES = {"megatron-lm": "Megatron-LM", "nemo": "NeMo", "megatron-bridge": "Megatron Bridge", "torchtitan": "torchtitan",
          "deepspeed": "DeepSpeed", "maxtext": "MaxText", "accelerate": "Hugging Face Accelerate", "torchrun": "torchrun",
          "deepspeed-launcher": "DeepSpeed launcher", "transformers": "Hugging Face Transformers", "vllm": "vLLM"}


@cache
def _index() -> dict[str, list[tuple[str, str]]]:
    """Every way a text names an option -> [(framework, canonical name)]: the name, its aliases, a Megatron flag's
    attribute form (--overlap-grad-reduce is args.overlap_grad_reduce), a dotted key's last part when it has a "_"."""
    index: dict[str, list[tuple[str, str]]] = {}
    for framework in options.FRAMEWORKS:
        for name, entry in options.table(framework)["options"].items():
            spellings = {name, *(entry.get("aliases") or ())}
            for spelling in list(spellings):
                if spelling.startswith("--") and "-" in spelling[2:]:
                    spellings.add(spelling[2:].replace("-", "_"))
                    if spelling[2:].count("-") >= 2:  # "gpu-memory-utilization 0.6" in a list of settings: the flag
                        spellings.add(spelling[2:])   # without its dashes (three words joined are no prose)
                if "." in spelling and "_" in spelling.rsplit(".", 1)[1]:
                    spellings.add(spelling.rsplit(".", 1)[1])
            for spelling in spellings:
                if (framework, name) not in index.setdefault(spelling, []):
                    index[spelling].append((framework, name))
    return index


def named_frameworks(text: str) -> set[str]:
    """The frameworks `text` names (a name, a word only its users write, or a pattern such as "Trainer")."""
    lowered = text.lower()
    named = {framework for framework, words in _FRAMEWORK_WORDS.items() if any(word in lowered for word in words)}
    for framework, pattern in _FRAMEWORK_PATTERNS.items():
        if framework not in named and pattern.search(text) and \
                not any(word in lowered for word in _NOT_NAMED_BY_PATTERN.get(framework, ())):
            named.add(framework)
    if "vllm" in named and "vllm" not in lowered and _OTHER_ENGINE.search(text):
        named.discard("vllm")  # "max_num_batched_tokens" in FastDeploy's docs: an option name engines share, not vLLM named
    return named


# serving engines that take vLLM's option names ("max_num_batched_tokens") for their own settings
_OTHER_ENGINE = pattern_cache.lazy(r"FastDeploy|SGLang|LMDeploy|TensorRT-LLM|TGI\b|text-generation-inference|Aphrodite|MindIE|vllm-ascend", re.I)


def _framework(candidates: list[tuple[str, str]], named: set[str], spelling: str, text: str = "", at: int = 0) -> tuple[str, str] | None:
    """The candidate whose framework the text names; else the first table's for a flag ("--overlap-grad-reduce" is
    one framework's), but None for a plain key ("global_batch_size", "num_experts"): many codebases use such names,
    and another framework's meaning would be a wrong sense."""
    both = [(framework, name) for framework, name in candidates if framework in named]
    if len(both) > 1 and text:  # "our Megatron-LM code ... tensor_model_parallel_size ... while NeMo's": the nearest name's
        lowered = text.lower()
        def distance(framework: str) -> int:
            spots = [m.start() for word in _FRAMEWORK_WORDS.get(framework, ()) for m in re.finditer(re.escape(word), lowered)]
            return min((abs(at - spot) for spot in spots), default=len(text))
        return min(both, key=lambda candidate: distance(candidate[0]))
    if both:
        return both[0]
    return candidates[0] if spelling.startswith("--") else None


def _kind(lang: str, framework: str, said: bool) -> str:
    """What the option is, as the answer says it: one framework's setting where the text names it, else a flag."""
    m = messages(lang)
    name = _AR_NAMES.get(framework, _NAMES[framework]) if lang == "ar" else _NAMES[framework]
    return m["option_term"].format(framework=name) if said else m["option_term_flag"]


_AR_NAMES = {"deepspeed-launcher": "أداة التشغيل في DeepSpeed"}  # a name with an English common noun in it, said in Arabic


def _in_command(text: str, start: int) -> bool:
    """Whether `start` is on a command or config line: three settings or more in its sentence, not listed in prose
    ("I used --a 1, --b 2 and --c": a list with commas or "and" is the author's sentence, whose options are terms)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start:line_end if line_end >= 0 else len(text)]
    offset = start - line_start
    begin = max((m.end() for m in _SENTENCE_END.finditer(line, 0, offset)), default=0)
    stop = _SENTENCE_END.search(line, offset)
    sentence = line[begin:stop.start() if stop else len(line)]
    return len(_SETTING.findall(sentence)) >= COMMAND_FIELDS and not _PROSE_LIST.search(sentence) \
        and not detect.sentence_with_options(sentence)  # "when you pass `--a` with `--b`, set `--c 4`": a mention


_SENTENCE_END = pattern_cache.lazy(r"[.!?](?=\s+[A-Z(])")  # "model.num_moe_experts" and "1.5" do not end a sentence
_PROSE_LIST = pattern_cache.lazy(r"\S,\s|\sand\s")


_CHOICES = re.compile(r"\s*[{\[(]([\w.,|/ -]{2,80})[}\])]")  # a flag's choices written after it: "{auto,q8_0,fp8_e4m3}"


def find(text: str, lang: str, known: set[str] | None = None) -> list[dict]:
    """The options named in the prose of `text`, first mention first, each once, as terms items (id "option:<framework>:<name>")
    with the option's meaning in `lang` as the definition; options on a command or config line are left to the config reader."""
    index, named, out, seen = _index(), named_frameworks(text), [], set(known or ())
    for match in _OPTION.finditer(text):
        found = match.group()
        if found not in index and "." in found:  # "args.overlap_grad_reduce": the attribute is the option
            found = found.rsplit(".", 1)[1]
        candidates = index.get(found)
        if not candidates or _in_command(text, match.start()):
            continue
        chosen = _framework(candidates, named, found, text, match.start())
        if chosen is None:
            continue
        framework, name = chosen
        said = framework in named  # else the flag is glossed without a framework the text never named
        entry = options.entry(framework, name) or {}
        meaning = entry.get("meaning") or {}
        definition = (meaning.get(lang) or "").strip()
        if not said and _LIFECYCLE.search(meaning.get("en") or ""):
            continue  # "Old flag ...; removed." is one framework's history: for ParlAI's --checkpoint-activations it is false
        listed = _CHOICES.match(text, match.end())
        if listed and not said and any(v.strip() and v.strip().lower() not in (meaning.get("en") or "").lower()
                                       for v in re.split(r"[,|/]", listed.group(1))):
            continue  # "--kv-cache-dtype {auto,q8_0,fp8_e4m3}": the text's own program, whose choices a framework's table lacks
        written = _SET_TO.match(text, match.end())  # "enable_checkpointing=false": the line says what false does
        if written:
            definition = switch.meaning_for_value(framework, name, written.group(1), definition, lang)
        item_id = f"option:{framework}:{name}"
        if not definition or item_id in seen:
            continue  # no definition in the answer's language: no name-only item
        seen.add(item_id)
        out.append({
            "id": item_id, "term": found, "expansion": _kind(lang, framework, said),
            "expansion_en": _kind("en", framework, said), "definition": definition,
            "intuition": None, "category": "option", "calculator": None, "found_as": found, "source": entry.get("source"),
        })
    return out


_LIFECYCLE = re.compile(r"\b(?:removed|deprecated|no longer|obsolete|old flag|legacy)\b", re.I)


def mentions(text: str, found_as: str) -> list[int]:
    """Offsets of `found_as` in `text` as a whole option name (not inside a longer one)."""
    return [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(found_as)}(?![\w-])", text)]
