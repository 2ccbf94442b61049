"""The generic rules: a number read with the unit, noun, cue or key phrase around it."""

import json
import math
import re
from functools import cache
from calculators import CalculatorInputError, catalog
from calculators.resources import data_dir
from calculators.units import parse_text
from service.explain.figures.record import _Fig
from service.explain.figures.words import _ABBR, _APPOSITIVE_END, _MESH_BEFORE, _MESH_CODE, _MESH_NEXT, _KEY_APPOSITIVE, _AR_FIRST_LETTER, _AR_PARTICLE, _AR_WORDS, _CHIP_AFTER, _CHIP_BEFORE, _EN_NOUNS_WEAK_OK, _FLOP_WORD, _GROUP_AFTER, _I, _INDEX_TABLE, _KEYS, _KEY_AFTER, _KEY_BEFORE, _MAGNITUDE_DEFAULT, _NOUNS, _NOUN_ENTRIES, _NOUN_LATER, _PEAK_AFTER, _PER_CHIP, _SEQ_K, _UNITS, _UNIT_AT, _UNIT_ENTRIES, _WAY, _alt, _rx, _which
from service.explain.figures.values import _ar_number, _chip_id, _normalise_unit, _number, _seconds, plain_number


# "80G", "48G MEM": a byte size without its B, read only beside a chip or a memory word
# A size in billions followed by a model word names the model, whatever batch or token words stand nearby.
_MODEL_NEXT = re.compile(r"[ -]?(?:model|models|run|runs|llm|dense|moe|param|params|parameters?|checkpoint|variant)\b|[ ](?=(?:GPT|Llama|LLaMA|Qwen|"
                         r"Mistral|Mixtral|DeepSeek|OPT|BLOOM|Falcon|Gemma|Phi|PaLM|Chinchilla|Gopher|MPT|Pythia|OLMo|Grok|Nemotron)\b)", re.I)  # "2.7B GPT-Neo"
_NAME_BEFORE = re.compile(r"[A-Za-z][\w.]*-(?:\d+(?:\.\d+)?-)?$")  # "gpt-neox-20b", "llama-2-7b": a size closing a model's name
_SHORT_BYTES = re.compile(r"(?P<p>[KMGT])(?![\w/])(?:[ \t]*(?P<mem>MEM|Mem|mem(?:ory)?|Memory|RAM|VRAM|HBM\d?e?|RSS)\b)?")
# "72B bf16 ≈ 144G", "a 35B MoE ≈ 67G": a size in G right after a model's parameter count is its weights' bytes
_AFTER_PARAMS = re.compile(r"\d(?:\.\d+)?\s*[BT]\b[^,;.\n]{0,24}?(?:≈|~|=|\babout|\bis)\s*$")
_SHORT_PLAIN = re.compile(r"(?P<p>[GT])(?![\w/])")
_NODE_AFTER = re.compile(r"[ \t]+(?:[\w-]+[ \t]+){0,2}(?:NVLink|NVSwitch|NVL\d+|nodes?|servers?|hosts?|machines?|box(?:es)?|racks?|systems?|DGX|HGX|baseboards?|boards?|"
                         r"trays?|instances?|VMs?|NVLink domains?|islands?)\b", re.IGNORECASE)
_DOMAIN_BEFORE = re.compile(r"NVL\d+|NVLink domain|scale-up domain|تكوين|configuration", re.IGNORECASE)
_NAMED_GROUP = re.compile(r"[ \t]+(?:[A-Z][\w-]*[ \t]+){1,3}(?P<g>nodes?|servers?|hosts?|machines?|instances|GPUs|TPUs|chips|accelerators)\b")  # "256 Amazon EC2 P5 instances": cloud servers
_TIMES_PARAMS = re.compile(r"(?:\d\s*[BMT]|param(?:eter)?s?)\s*[x×*]\s*$", re.IGNORECASE)
_LOG_LINE_AFTER = re.compile(r"\s*\(\s*[\d.]+\s*%|[^\n]*?(?:\s{2,}|,\s*|\|\s*)[A-Za-z_/]+\s*[:=]\s*~?\d")
# "42 TFLOPs per sequence", "9 PFLOPs of compute", "2 TFLOPs to process": a count of operations, not a rate
_COUNT_OF = re.compile(r"\s*(?:per\b(?!\s+(?:GPU|chip|device|accelerator|TPU|rank)s?\b)|/\s*(?!s\b|GPU|chip|device)|of\b|to\b|in total\b|total\b"
                       r"|for\b(?!\s+(?:BF16|bf16|FP8|fp8|FP16|fp16|FP32|fp32|TF32|INT8|MXFP8|NVFP4|FP4|dense|sparse)\b))")
_LABEL_UNIT = re.compile(r"\((ms|s|sec|seconds)\)\s*[:=]\s*$")
_MS_FIELD = re.compile(r"[-_ ]ms[\"']?\s*[:=]\s*$", re.I)  # "ttft_avg_ms": 57.5, "mean_tpot_ms: 57.5"


@cache
def _sparsity() -> dict:
    """data/verdicts.json "sparsity": which vendors print peaks with 2:4 sparsity, and by what factor."""
    return json.loads((data_dir() / "verdicts.json").read_text(encoding="utf-8"))["sparsity"]


_TIME_FIELDS = {"latency_s", "step_time_s", "time_s"}
# what a size in bytes qualifies ("a 128B payload", "64B cache lines"): "B" is then bytes, never billions
_BYTES_NEXT = re.compile(r"[ \t-]+(?:payloads?|packets?|messages?|chunks?|cache[ -]lines?|alignment|aligned|transactions?|sectors?|accesses|loads?|stores?|words?)\b", re.I)
_ACTIVATED = re.compile(r"\s+(?:activated|active|routed|selected)\b(?!\s+param)", re.IGNORECASE)
_EXPERTS_WORD = re.compile(r"\bexperts?\b", re.IGNORECASE)
_OPERAND_NEXT = re.compile(r"\s*[/×*÷]\s*\d")
_YEARS_5 = 5 * 365.25 * 86400
# "a baseline that sustains 39 TeraFLOPs", «يحافظ على 39 TeraFLOPs»: a rate reached, never the chip's peak
_SUSTAINED = _rx(r"(?:sustain(?:s|ed|ing)?|achiev(?:es|ed|ing)|reach(?:es|ed|ing)?|deliver(?:s|ed|ing)?|hits?|gets?|runs? at|"
                 r"يحافظ على|يحقق|حقق|يصل إلى|وصل إلى)\s+(?:about |around |roughly |~|حوالي |نحو )?$", _I)
_ONE_CHIP_MOST = 1e16  # four times any chip's dense 16-bit peak: a FLOP/s figure above it is several chips'
_PERFORMANCE_OF = re.compile(r"\s+of\s+(?:(?:dense|sparse|peak)\s+)?(?:FP|BF|INT|TF|MX|NVFP)\d+\w*\s+(?:performance|compute|throughput)\b", re.I)
# A capitalised name right before a year-like number: an event or a release ("Hot Chips 2025", "GTC 2024", "ISC 2025")
_EVENT_BEFORE = re.compile(r"(?<![.!?:\n]\s)(?<![.!?:\n])(?<!^)\b[A-Z][A-Za-z]+\s+$")  # not a sentence's first word ("Using 2025 GPUs")
_YEAR_BEFORE = re.compile(r"(?:\b(?:in|since|during|until|year)\s+|(?<![\u0621-\u064A])(?:عام|لعام|العام|سنة|لسنة|بعام)\s+)$", re.I)
_INTERVAL_BEFORE = re.compile(r"(?:\b(?:once\s+)?every|\bMTBF\b[^.\n]{0,20}|mean time between failures[^.\n]{0,20}|كل)\s+$", re.I)
_DEVICE_WORD = re.compile(r"\b(?:GPUs?|TPUs?|chips?|accelerators?|devices?|H100s?|A100s?|H800s?)\b|بطاق|شريح|وحدات? معالجة", re.IGNORECASE)
_LABEL_VALUE = re.compile(r"\s*[:=]\s*~?\s*\d")
_ON_EACH_CHIP = re.compile(r"\s+(?:of\s+(?:GPU\s+|device\s+)?memory\s+)?(?:on|in|for|per)\s+(?:each|every|one|a|per)?\s*(?:GPU|chip|device|TPU|accelerator|rank)\b", re.I)
# "where 4 is the number of bytes per parameter": a number defined by the words after it
_NUMBER_OF = re.compile(r"\s+(?:is|are|=)\s+the\s+(?:number|count)\s+of\s+", re.I)
_ON_EACH_NODE = re.compile(r"\s+(?:on|in|per)\s+(?:each|every|one|a|the)?\s*(?:node|server|host|machine|box)\b", re.I)
_OWN_VALUE = re.compile(r"[\"']?\s*[:=]|\s+\d")
_MEMORY_SIZE = re.compile(r"[ \t]*\(?\d+(?:\.\d+)?\s?(?:GB|GiB|G|gb)\)?(?![\w/])")
# "the util of GPU is 420/1979": a bare divisor that is a named chip's peak in TFLOP/s, in a text about utilisation
_DIVISOR_BEFORE = re.compile(r"\d(?:\.\d+)?\s*/\s*\(?\s*$")
_UTIL_WORD = re.compile(r"\bMFU\b|\butili[sz]ation\b|\butil\b|model (?:FLOPs?|flops) utili[sz]ation", re.I)
# a verb of use right before a size: what a run uses, when no word names what the bytes hold (optimizer states, weights)
_USED_BEFORE = re.compile(r"\b(?:using|uses|used|use|consum(?:e|es|ed|ing)|occup(?:y|ies|ied|ying)|tak(?:e|es|ing)|took|allocat(?:e|es|ed|ing)"
                          r"|need(?:s|ed|ing)?|requir(?:e|es|ed|ing)|[يت](?:تطلب|حتاج|ستهلك|ستخدم))(?:\s+(?:only|just|about|roughly|around|nearly|almost|up to|over))?\s*~?"
                          r"(?:\s*[\d.,]+\s*[*×x]\s*[\d.,]+\s*[A-Za-z\u0600-\u06FF ]{0,14}=)?\s*$", re.I)  # "requires 2 * 70 GB = 140 GB": the need, worked
_LEVEL_BEFORE = re.compile(r"\b(?:is|was|are|were|falls?|fell|drops?|dropped|stays?|stayed|remains?|reach(?:es|ed)?|hits?|gets?|got|sits?)"
                           r"(?:\s+(?:just|only|about|around|roughly|near|to|at))*\s*~?\s*$", re.I)  # a bound ("below 0.40") is no reading
_UTIL_SUBJECT = re.compile(r"\b(?:MFU|HFU)\b|(?:model|hardware) (?:FLOPs?|flops) utili[sz]ation", re.I)
_ANOTHER_CLAUSE = re.compile(r"\b(?:but|while|whereas|although|though|loss|and\s+(?!\d))\b|[,;:(]", re.I)
_OTHER_SHARE = re.compile(r"(?<![\w.])0?\.\d+(?![\w.])|\d\s*%")
_KEY_IS = re.compile(r"(?:[=:]|\b(?:is|was|equals?|of))\s*$")  # "batch = 4 * 2", "batch size is 8*256=2048"
_KINDS_OF = re.compile(r"[ \t]+(?:strateg|option|approach|method|scheme|mode|type|kind|technique|variant|implementation|framework|librar|paper|setting|config)", re.I)
_DEGREE_NOUN = re.compile(r"[ \t]+(?:stages?|ranks?|replicas?|groups?|workers?|shards?|ways?)\b", re.I)
# "400G" beside a network word: a link's speed in gigabits per second (Ethernet and InfiniBand name ports so)
_LINK_G = re.compile(r"G(?:bE)?(?![\w/])")
_LINK_SPEEDS = frozenset({10.0, 25.0, 40.0, 50.0, 100.0, 200.0, 400.0, 800.0, 1600.0})
_NETWORK_WORD = re.compile(r"\b(?:NICs?|ports?|links?|Ethernet|InfiniBand|IB|RoCE|switch(?:es)?|optics?|transceivers?|network(?:s|ing)?|fabrics?|uplinks?|HCAs?"
                           r"|ConnectX)\b|وصل|شبك|منفذ|منافذ|محول|مبدل", re.IGNORECASE)
# "8x100Gbit/s NICs": links times one link's rate, the total
_TIMES_RATE = re.compile(r"[ \t]*[x×][ \t]*(?P<n>\d+(?:\.\d+)?)[ \t]?(?P<u>(?:[KMGT]i?)(?:bit|b|B)(?:/s|ps)|(?:[KMGT]i?)(?:bits?|bytes?)/s(?:ec)?)(?![\w/])")
# "(+3.61%)" right after a rate: a gain over a baseline, which only a measured rate has
# an operation named as a part of each step, before the time it takes
_PART_OF_STEP = re.compile(r"\b(?:all[_ -]?gather|all[_ -]?reduce|reduce[_ -]?scatter|all[_ -]?to[_ -]?all|broadcast|communication|comms?"
                           r"|checkpoint\w*|data[_ -]?load\w*|optimizer (?:step|update)|(?:forward|backward)(?: pass)?)\b[^.\n]{0,60}?"
                           r"\b(?:at the (?:end|start|beginning) of|in|of|during|per) (?:each|every|the|a) (?:training )?(?:step|iteration)\b",
                           re.IGNORECASE)
# the words before a run's measured FLOP/s on its line (Units.measured_before)
_TIME_THEN = re.compile(r"\d\s*(?:ms|s|us|µs)\s*[,;]\s*$")
_RESULT_OF = re.compile(r"\b(?:result|performance|throughput|speed)\s+of\s+(?:only\s+|just\s+)?(?:around\s+|about\s+|roughly\s+|approximately\s+|~\s*)?$", re.IGNORECASE)
_LABEL_ONLY = re.compile(r"^\s*(?:[-*]\s+)?[A-Za-z][\w .,+/()-]{2,60}:\s*$")
_PEAK_WORD = re.compile(r"peak|theoretical|spec|dense|sparse|rated|max|datasheet", re.IGNORECASE)
_CHIP_WORD = re.compile(r"\b(?:[A-Z]{1,3}\d{2,4}[A-Z]*|v\d[a-z]?|TPU|GPU|gpu|Gaudi|Trainium|MI\d+)")
_SIGNED_CHANGE_AFTER = re.compile(r"\s*\(\s*[+\-−]\s*\d+(?:\.\d+)?\s*%\s*\)")
# the groups of chips that are pods; servers, systems, hosts and racks are nodes
_POD_GROUP = re.compile(r"(?:super)?pods?|slices?", re.IGNORECASE)
# "8xA800 nodes": nodes of 8 chips each
_TIMES_BEFORE_CHIP = re.compile(r"[ \t]*[x×]")
# "50G of activation value memory", "220G cpu memory": a byte size without its B, with memory words after it
_SHORT_BYTES_OF = re.compile(r"(?P<p>[KMGT])(?![\w/])(?:[ \t]+of)?(?:[ \t]+[A-Za-z-]+){0,3}?[ \t]+(?:memory|RAM|VRAM|DRAM)\b", re.IGNORECASE)
# "300 PFLOPs of BF16" from a system: its peak rate written as FLOPs; no training run is that small
_PRECISION_AFTER = re.compile(r"\s*(?:of|in|at|من|في|ب)?\s*(?:BF16|bf16|FP8|fp8|FP16|fp16|FP4|fp4|INT8|int8|MXFP\d|NVFP4)\b")
_SYSTEM_WORD = re.compile(r"\b(?:systems?|clusters?|racks?|pods?|superpods?|SuperPODs?|supercomputers?|NVL\d+)\b|نظام|النظام|عنقود|حاسوب\S* (?:ال)?فائق|حاسوب\S* (?:ال)?عملاق",
                          re.IGNORECASE)
# key phrases that name a number written before them ("8 tensor parallelism size", "(128K) vocabulary")
_KEY_AFTER_OK = frozenset({"tp_degree", "pp_degree", "dp_degree", "ep_degree", "cp_degree", "sp_degree", "mp_degree", "vocab_size"})


_SIZE_THEN_CHIP = re.compile(r"[ \t]+\d+(?:\.\d+)?[ \t]?GB(?=[ \t])")


# Nouns after which a spelled "one" is an article more often than a setting ("the data in one micro-batch", "one step of
# training"); "one node" or "one GPU" stays a count: the hardware a run uses.
_ONE_AS_ARTICLE = {"microbatches", "steps", "epochs", "layers", "experts", "heads", "tokens", "stages", "sequences", "axes"}

# Words that name a count of operations, not a rate: "model flops = 8.6e15", "FLOPs per sample", "flops per token"
_FLOP_COUNT_WORD = re.compile(r"\bmodel\s+flops\s*[:=]|\b(?:flops?|FLOPs)\s+per\s+(?:token|sample|sequence|step|iteration|batch)\b", re.I)

class _Units:
    """The reader's generic rules (a mixin of _Reader: it uses the reader's state)."""

    def read_token(self, m: re.Match, start: int) -> _Fig | None:
        """One number read with what follows it (unit, noun, chip) and the words around it."""
        norm = self.norm
        raw, mult = _number(m)
        end = m.end()
        word = bool(m.group("enw") and not m.group("enm") or m.group("arw"))
        weak = bool(m.group("enw") and not m.group("enm")) or (bool(m.group("arw")) and _ar_number(m.group("arw"))[1])
        if m.group("arw"):
            lead = _AR_PARTICLE.match(m.group("arw"))
            if lead and _AR_FIRST_LETTER.sub("", m.group("arw").split()[0]) in _AR_WORDS and m.group("arw").split()[0] not in _AR_WORDS:
                start += 1
        if m.group("cur"):
            sign = m.group("cur").strip()  # "€2M" is euros: a sum, never called dollars
            return _Fig(m.start(), end, "cost_usd" if sign == "$" else "cost", raw, unit=sign, raw=raw, generic=False)
        sci = bool(m.group("num") and re.search(r"[eE]", m.group("num")) or m.group("pow"))
        at = _UNIT_AT.match(norm, end).end()
        unit = _UNITS.match(norm, at)
        if unit and float(raw).is_integer() and _which(unit, _UNIT_ENTRIES).get("whole_needs_after") \
                and not _rx(_which(unit, _UNIT_ENTRIES)["whole_needs_after"]).match(norm, unit.end()):
            unit = None  # "ثلاث مرات" counts repetitions; "1.8 مرة" or "3 مرات أسرع" is a factor
        if unit and _which(unit, _UNIT_ENTRIES)["class"] in ("chip_hours", "chip_days") and not word:
            return self.read_unit(m, start, unit, raw, mult)  # "180K H800 GPU hours" before "180K H800 GPUs"
        if not unit and not word and not mult and norm[end:end + 1] in ("K", "M", "G", "T"):
            short = _SHORT_BYTES.match(norm, end)
            if short and (short.group("mem") or self.beside_chip(start, end)):
                return self.read_short_bytes(start, short, raw)
            plain = _SHORT_PLAIN.match(norm, end)
            if plain and _AFTER_PARAMS.search(norm, max(0, start - 40), start):
                return self.read_short_bytes(start, plain, raw, default="memory_bytes")
            short = _SHORT_BYTES_OF.match(norm, end)
            if short:
                return self.read_short_bytes(start, short, raw, default="memory_bytes")
            if raw in _LINK_SPEEDS and _LINK_G.match(norm, end) and not self.beside_chip(start, end) \
                    and _NETWORK_WORD.search(norm, *self.clause(start, end)):
                return _Fig(start, end + 1, "bandwidth_bytes_per_s", raw * 1e9 / 8, unit="Gb/s", raw=raw, scale=1e9 / 8, generic=False)
        times = _TIMES_RATE.match(norm, end) if not unit and not word and not mult and 1 < raw <= 64 and float(raw).is_integer() else None
        if times:
            fig = self.read_times_rate(start, times, raw)
            if fig:
                return fig
        # "2x A100", "512 H100s", "6144 TPU v4 chips"
        chip = _CHIP_AFTER.match(norm, end)
        if chip and mult in ("", "k", "K", "M") and not word:
            group = _GROUP_AFTER.match(norm, chip.end())
            if group and _TIMES_BEFORE_CHIP.match(norm, end) and not _POD_GROUP.match(group.group(1)):
                return self.nodes_of(start, group.end(), raw, _chip_id(chip.group("name")))  # "two 8xA800 nodes"
            if group:  # "5 TPUv5 pods", "4 DGX H100 nodes": units of the chip, not chips
                quantity = "n_pods" if _POD_GROUP.match(group.group(1)) else "n_nodes"  # "4 H100 servers" are nodes
                return _Fig(start, group.end(), quantity, raw, chip=_chip_id(chip.group("name")), raw=raw, generic=False)
            size = _MEMORY_SIZE.match(norm, chip.end())  # "4× A100 64 GB per node": the cue stands after the chip's memory
            group = _GROUP_AFTER.match(norm, size.end()) if size else None
            if group and not _POD_GROUP.match(group.group(1)) and not _TIMES_BEFORE_CHIP.match(norm, end):
                # "6 A100 (80G) machines": six machines; the chip's memory between stays its own figure
                return _Fig(start, chip.end(), "n_nodes", raw, chip=_chip_id(chip.group("name")), raw=raw, generic=False)
            cue = self.cue("chips", start, size.end() if size else chip.end())
            quantity = cue["quantity"] if cue else "n_chips"
            return _Fig(start, chip.end(), quantity, raw, chip=_chip_id(chip.group("name")), raw=raw, generic=False)
        sized = _SIZE_THEN_CHIP.match(norm, end) if not word and mult in ("", "k", "K") and not unit else None
        chip = _CHIP_AFTER.match(norm, sized.end()) if sized else None
        if chip and not _GROUP_AFTER.match(norm, chip.end()):
            # "1024 80GB A100s": the count of the chips named after their memory size; the size stays a figure of its own
            return _Fig(start, end, "n_chips", raw, chip=_chip_id(chip.group("name")), raw=raw, generic=False)
        way = _WAY.match(norm, end)
        if way:
            return self.read_way(start, way.end(), raw)
        coded = _MESH_CODE.match(norm, end) if not word and not mult and not unit else None
        if coded and (_MESH_NEXT.match(norm, coded.end()) or _MESH_BEFORE.search(norm, max(0, start - 24), start)):
            return _Fig(start, coded.end(), _ABBR[coded.group(1)], raw, raw=raw, generic=False)  # "64 FSDP by 4 TP"
        named_after = self.key_after(end, raw, mult) if not word and not unit else None
        if named_after:
            return _Fig(start, named_after[1], named_after[0], raw, raw=raw, generic=False)
        defined = _NUMBER_OF.match(norm, end) if not word and not mult and not unit else None
        if defined:  # "where 8 is the number of GPUs on each node": read as "8 GPUs on each node"
            fig = self.read_defined(m, start, defined.end(), raw)
            if fig:
                return fig
        # a unit (%, GB/s, TFLOP/s, hours, ...) right after the number
        if unit and word and _which(unit, _UNIT_ENTRIES)["class"] not in (("time", "cost", "ratio") if m.group("arw") or unit.group(0).startswith("times") else ("time",)):
            unit = None  # "two months" is a time, "مليار دولار" a sum and "five times more" a factor, but "one s" is not a second
        if unit and norm[unit.end():unit.end() + 2].strip()[:1] in (":", "=") and _LABEL_VALUE.match(norm, unit.end()) \
                and not (norm.startswith(" = ", unit.end()) and _which(unit, _UNIT_ENTRIES)["class"] == "bytes_per_param"):
            unit = None  # "tps: 6,113  tflops: 354.02": the unit labels the next value ("12 bytes/param = 360GB" is an equation)
        if unit and (unit.group(0) == "s" and unit.start() == end and raw in (10, 100, 1000, 10000, 100000) and re.match(r"\s+of\s", norm[unit.end():unit.end() + 5])
                     or unit.group(0) in ("d", "D") and norm[end:unit.start()] == "-" and not norm[unit.end():unit.end() + 1].isalnum()):
            return None  # "1000s of GPU tiles": thousands of things, not seconds; "1-d model parallelism": a dimension, not a day
        if unit and not (unit.group(0) in ("s", "h", "d", "us") and mult):
            return self.read_unit(m, start, unit, raw, mult)
        if not mult and not word and 1995 <= raw <= 2030 and raw == int(raw) and "," not in m.group(0) \
                and _EVENT_BEFORE.search(norm, max(0, start - 24), start):
            return None  # "Hot Chips 2025 machine learning session", "GTC 2024 GPUs": an event's year, no count
        if not mult and not word and 1995 <= raw <= 2035 and raw == int(raw) and "," not in m.group(0) \
                and _YEAR_BEFORE.search(norm, max(0, start - 16), start):
            return None  # "لعام 2026 جهاز", "in 2024 GPUs were scarce": a year, not a count of the noun after it
        noun = _NOUNS.match(norm, end)
        if noun and noun.group(0).lstrip().startswith("--"):
            noun = None  # the next command-line flag ("--micro-batch-size"), not a noun
        if noun:
            entry = _which(noun, _NOUN_ENTRIES)
            if entry.get("needs_magnitude") and not (mult or raw >= 1e6):
                noun = None
            elif word and entry["class"] not in _EN_NOUNS_WEAK_OK:
                noun = None
            elif word and raw == 1 and entry["class"] in _ONE_AS_ARTICLE and not m.group("arw"):
                noun = None  # "if one micro-batch lacks diverse data": "one" picks an example, it sets no count
        if noun:
            return self.read_noun(start, noun, _which(noun, _NOUN_ENTRIES), raw, mult)
        if weak:
            return None
        named = _NAMED_GROUP.match(norm, end) if not mult and norm[end + 1:end + 2].isupper() else None
        if named:  # "48 Jean Zay nodes", "16 DGX SuperPOD nodes": a machine's name between the count and its noun
            group = named.group("g").lower()
            quantity = "n_chips" if group.startswith(("gpu", "tpu", "chip", "accel")) else "n_nodes"
            return _Fig(start, named.end(), quantity, raw, raw=raw, generic=False)
        later = _NOUN_LATER.match(norm, end) if mult else None
        if later:
            cls = {"tokens": "tokens", "parameters": "params", "params": "params"}.get(later.group("n"), "chips")
            entry = next(e for e in _NOUN_ENTRIES if e["class"] == cls)
            cue = self.cue(cls, start, end)
            quantity = cue["quantity"] if cue else entry["quantity"]
            return _Fig(start, end, quantity, raw, raw=raw, generic=False)
        return self.read_bare(m, start, end, raw, mult, sci)

    def key_after(self, end: int, raw: float, mult: str) -> tuple[str, int] | None:
        """A parallel degree or vocabulary size named after its number ("8 tensor parallelism size", "64 fully sharded data
        parallelism", "(128K) vocabulary"): the quantity and where the phrase ends."""
        after = _KEY_AFTER.match(self.norm, end)
        if not after or after.group(0).lstrip(" \t)").startswith("-") or _OWN_VALUE.match(self.norm, after.end()):
            return None  # "6 ici_fsdp_parallelism=16", "8 --pipeline-model-parallel-size 4": the next setting, with its own value
        quantity = _which(after, _KEYS)["quantity"]
        if quantity not in _KEY_AFTER_OK:
            return None
        if quantity == "vocab_size":  # "(128K) vocabulary": the quote ends where its bracket closes
            return quantity, end if ")" in after.group(0) else after.end()
        # a degree is a whole number written alone, and the phrase says "parallel" ("8 pipeline stages" is a noun's)
        if mult or raw != int(raw) or raw < 1 or "parallel" not in after.group(0).lower() or _KINDS_OF.match(self.norm, after.end()):
            return None  # "3 tensor parallelism strategies" counts kinds of it, not its degree
        noun = _DEGREE_NOUN.match(self.norm, after.end())  # "2 pipeline parallel stages": the noun is the phrase's too
        return quantity, noun.end() if noun else after.end()

    def read_defined(self, m: re.Match, start: int, at: int, raw: float) -> "_Fig | None":
        """"4 is the number of bytes per parameter": the unit or noun after "the number of" is this number's."""
        norm = self.norm
        unit = _UNITS.match(norm, at)
        if unit and _which(unit, _UNIT_ENTRIES)["class"] == "bytes_per_param":
            return _Fig(start, unit.end(), "bytes_per_param", raw, unit="bytes/param", raw=raw, generic=False)
        noun = _NOUNS.match(norm, at - 1)
        if noun:
            entry = _which(noun, _NOUN_ENTRIES)
            fig = self.read_noun(start, noun, entry, raw, "")
            if entry["class"] == "chips" and _ON_EACH_NODE.match(norm, noun.end()):
                fig.quantity = "chips_per_node"
            return fig
        return None

    def utilisation_subject(self, start: int) -> str | None:
        """"mfu"/"hfu" when the sentence before a number has MFU or HFU as its subject, no fraction or percentage between."""
        lo = self.sentence_start(start)
        found = None
        for found in _UTIL_SUBJECT.finditer(self.norm, lo, start):
            pass
        if found is None or start - found.end() > 48 or _OTHER_SHARE.search(self.norm, found.end(), start) \
                or _ANOTHER_CLAUSE.search(self.norm, found.end(), start):
            return None  # "MFU improved and the loss was 0.4": the number belongs to another clause
        return "hfu" if found.group(0).upper() == "HFU" or "hardware" in found.group(0).lower() else "mfu"

    def read_times_rate(self, start: int, times: re.Match, raw: float) -> "_Fig | None":
        """"8x100Gbit/s NICs": the total rate of raw links, each at the rate written after the x."""
        try:
            one = parse_text("bandwidth_bytes_per_s", f"{times.group('n')} {_normalise_unit(times.group('u'), 'bytes_per_s')}", "bytes_per_s")
        except (CalculatorInputError, KeyError, ValueError):
            return None
        return _Fig(start, times.end(), "bandwidth_bytes_per_s", raw * one, unit=times.group("u"), raw=raw, scale=one, generic=False,
                    detail={"n_links": int(raw), "bandwidth_bytes_per_s_each": one})

    def nodes_of(self, start: int, end: int, raw: float, chip: str | None) -> _Fig:
        """"two 8xA800 nodes": 8 chips in each node, and the count written before it is the nodes'."""
        i = next((k for k, t in enumerate(self.tokens) if t.start() == start or t.start("num") == start), None) if self.tokens else None
        if i:
            before = self.tokens[i - 1]
            if self.norm[before.end():start].strip() == "" and self.is_free(before.start(), before.end()):
                count, _ = _number(before)
                if float(count).is_integer() and 1 <= count <= 4096:
                    self.add(_Fig(before.start(), before.end(), "n_nodes", count, raw=count, generic=False))
        return _Fig(start, end, "chips_per_node", raw, chip=chip, raw=raw, generic=False)

    def read_short_bytes(self, start: int, short: re.Match, raw: float, default: str = "hbm_bytes") -> _Fig:
        """"48G MEM" in a results table is one device's memory in use; "H800 80G" the chip's memory."""
        value = raw * {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[short.group("p")]
        mem = short.groupdict().get("mem")
        if "mem" not in short.re.groupindex:  # "220G cpu memory": memory a job uses, unless a cue says whose
            cue = self.cue("bytes", start, short.end("p"))
            return _Fig(start, short.end("p"), cue["quantity"] if cue else default, value, unit=short.group("p") + "B", raw=raw,
                        scale=value / raw if raw else 1.0, generic=False)
        quantity = "memory_bytes_per_chip" if mem and mem.isupper() and mem.startswith("MEM") else "memory_bytes" if mem == "RSS" else "hbm_bytes"
        if mem and not mem.startswith("MEM"):
            cue = self.cue("bytes", start, short.end("p"))
            quantity = cue["quantity"] if cue else quantity
        return _Fig(start, short.end(), quantity, value, unit=short.group("p") + "B", raw=raw, scale=value / raw if raw else 1.0, generic=False)

    def read_way(self, start: int, end: int, raw: float) -> _Fig:
        """"8-way tensor parallel", "tensor parallelism (4-way)", "64-way EP"."""
        after = _KEY_AFTER.match(self.norm, end)
        quantity = None
        if after:
            quantity = _which(after, _KEYS)["quantity"]
        else:
            abbr = re.match(r"\s*(" + _alt(k for k in _ABBR if not k.endswith("-")) + r")\b", self.norm[end:end + 8])
            if abbr:
                quantity = _ABBR[abbr.group(1)]
            else:
                before = re.search(r"(?:" + "|".join(f"(?:{e['pattern']})" for e in _KEYS[:7]) + r"|\b(?:TP|PP|DP|EP|CP|FSDP))\s*\(?\s*$",
                                   self.norm[max(0, start - 50):start], _I)
                if before:
                    found = _KEY_BEFORE.search(before.group(0).rstrip(" (") + " ")
                    quantity = _which(found, _KEYS)["quantity"] if found else _ABBR.get(before.group(0).strip(" ("))
        return _Fig(start, end, quantity or "parallel_degree", raw, raw=raw, generic=quantity is None)

    def read_unit(self, m: re.Match, start: int, unit: re.Match, raw: float, mult: str) -> _Fig | None:
        entry = _which(unit, _UNIT_ENTRIES)
        cls, kind, written = entry["class"], entry["kind"], unit.group(0).strip()
        end = unit.end()
        number = plain_number(m.group("num")) if m.group("num") else str(raw)
        if m.group("pow") or (mult and kind != "count"):
            number = repr(raw)
        try:
            if kind == "fraction":
                value, scale = raw / 100.0, 0.01
            elif kind == "seconds":
                seconds = _seconds(written.split("/")[0].strip())  # "0.55 s/it": the seconds of one step
                value, scale = raw * seconds, seconds
            elif kind == "count":  # "355 GPU-years" counts chip-days: an entry's `times` converts its unit
                value, scale = raw * entry.get("times", 1.0), entry.get("times", 1.0)
            elif kind == "power":
                plain = _normalise_unit(written, kind)  # "جيجاواط" -> "GW"
                scale = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}.get(plain[:1], 1.0) if plain[:1] in "kMGT" and plain[1:2] in ("W", "w") else 1.0
                lower = plain.lower()
                scale = 1e3 if lower.startswith("kilo") else 1e6 if lower.startswith("mega") else 1e9 if lower.startswith("giga") else scale
                value = raw * scale
            else:
                value = parse_text(entry["quantity"], f"{number} {_normalise_unit(written, kind)}", kind)
                scale = value / raw if raw else 1.0
        except (CalculatorInputError, KeyError, ValueError):
            return None
        quantity, sign = entry["quantity"], 1
        key = self.key_before(m.start())
        if key and key.get("log_field") and not _LOG_LINE_AFTER.match(self.norm, end):
            key = None  # a field label outside a log line ("Memory: 80 GB" in a spec list)
        cue = self.cue(cls, start, end)
        if key and cls in ("percent", "time", "tokens_per_s", "rate", "flop_rate", "bytes", "flops"):
            quantity = key.get("if_unit", {}).get(cls, key["quantity"])
        elif cue:
            quantity, sign = cue["quantity"], cue.get("sign", 1)
            if cue.get("as_rate"):  # "163 TFLOPs per GPU" is sloppy for TFLOP/s per GPU
                value = parse_text(quantity, f"{number} {_normalise_unit(written, 'flops')}/s", "flop_per_s")
                scale = value / raw if raw else 1.0
                end = self.cue_end(end, cue)
        if cls == "time" and quantity == "step_time_s" and not key and entry["quantity"] == "time_s" \
                and _PART_OF_STEP.search(self.norm[max([start - 160] + [self.norm.rfind(c, 0, start) + 1 for c in ".;\n"]):start]):
            quantity = "time_s"  # "the all_gather at the end of each step takes 2.6 seconds": a part of the step, not the step
        if entry["quantity"] == "memory_bytes_per_chip" and quantity in ("bytes", "memory_bytes"):
            quantity = "memory_bytes_per_chip"  # "peak memory ~66 GB/rank": the unit says whose memory it is
        if cls == "flop_rate":
            peak_after = _PEAK_AFTER.match(self.norm, end) is not None
            if cue and not key and not peak_after and value >= cue.get("total_if_at_least", math.inf):
                quantity = "flop_per_s"  # "~54-90 petaFLOPS effective": achieved, and more than one chip's
            elif value >= 1e17:  # more than any one chip delivers: the job's or the system's total
                quantity = "peak_flop_per_s_total" if peak_after or cue and not key and cue["quantity"] == "peak_flop_per_s" else "flop_per_s"
        if cls == "flops" and quantity == "total_flops" and not key and 1e11 <= value < 1e17 and _PERFORMANCE_OF.match(self.norm, end):
            quantity = "peak_flop_per_s"  # "4,614 TFLOPs of FP8 performance": a chip's spec, never a count of operations
        if cls == "flops" and quantity == "total_flops" and not cue and not key and 1e11 <= value < 1e17 \
                and not _COUNT_OF.match(self.norm, end) and not _SUSTAINED.search(self.norm, max(0, start - 24), start) \
                and _rx(r"\b(?:each|per (?:chip|GPU|TPU|device|accelerator)|chips?|GPUs?|TPUs?|devices?)\b", _I).search(self.norm, *self.clause(start, end)):
            quantity = "peak_flop_per_s"  # "each with 4.59e14 FLOPs": a chip's rate written as FLOPs; no run is that small
        if cls == "flops" and quantity == "total_flops" and not key and 1e11 <= value < 1e17 and written[:1] in "kMGTPEtpg" \
                and not _COUNT_OF.match(self.norm, end):
            # "113 TFLOPs at iteration 512": one chip's rate; "15.1 PetaFLOPs across the application": more than any chip, a total
            quantity = "flop_per_s_per_chip" if value < _ONE_CHIP_MOST else "flop_per_s"
        if cls == "flops" and quantity == "total_flops" and not cue and not key and 1e17 <= value < 1e21 and written[:1] in "PEpe" \
                and (_PRECISION_AFTER.match(self.norm, end) or _SYSTEM_WORD.search(self.norm, *self.clause(start, end))):
            quantity = "peak_flop_per_s_total"  # "300 PFLOPs of BF16" from a rack: its peak rate, not a run's operations
        if cls in ("flops", "flop_rate") and quantity in ("flop_per_s_per_chip", "peak_flop_per_s") and value < 1e17 \
                and not (cue and "total_if_at_least" in cue) and self.chip_peak(value):
            quantity = "peak_flop_per_s"  # "h100 is 989 tflops": a named chip's spec-sheet peak, never a measured rate
        elif cls == "flop_rate" and quantity == "peak_flop_per_s" and not key and not cue and value < 1e16 \
                and _SIGNED_CHANGE_AFTER.match(self.norm, end) and not self.chip_peak(value):
            quantity = "flop_per_s_per_chip"  # "509.89 TFLOP/s (+3.61%)": a measurement against a baseline; a peak has no gain
        elif cls == "flop_rate" and quantity == "peak_flop_per_s" and not key and not cue and value < 1e16 \
                and not self.chip_peak(value) and self.measured_before(start):
            quantity = "flop_per_s_per_chip"  # "0.84 ms, 81.8 TFLOPS", "a result of 277 TFLOPS": a run's rate, no chip's peak
        if cls == "bytes" and (quantity == "bytes" or quantity == "hbm_bytes" and cue and "memory" in cue.get("after", "")) \
                and not key and _USED_BEFORE.search(self.norm, max(0, start - 60), start):
            quantity = "memory_bytes"  # "using 60 GB of memory on each GPU": memory a run uses, not a chip's capacity
        if quantity == "memory_bytes" and (_PER_CHIP.match(self.norm, end) or _ON_EACH_CHIP.match(self.norm, end)):
            quantity = "memory_bytes_per_chip"  # "memory usage is ~74GB per GPU"
        if cls == "bytes" and quantity == "bytes" and value <= 32 and _TIMES_PARAMS.search(self.norm, max(0, start - 40), start):
            quantity = "bytes_per_param"  # "175B x 16 bytes": bytes for each parameter
        if cls == "bytes" and quantity == "bytes" and self.beside_chip(start, end):
            quantity = "hbm_bytes"  # "H100-80GB", "80GB H100": the chip's memory
        if cls == "chip_hours":
            chip = re.match(r"(H100|H800|A100|H200|B200)", written)
            if chip:
                return _Fig(start, end, quantity, value, unit="GPU hours", chip=_chip_id(chip.group(1)), raw=raw, scale=scale, generic=False)
        if cls == "time" and quantity == "time_s" and value > _YEARS_5 and _seconds(written) == 3600 and _DEVICE_WORD.search(self.norm) \
                and not _INTERVAL_BEFORE.search(self.norm, max(0, start - 40), start):  # "fails once every 50,000 hours": a device's interval
            # "2.8 million hours" in a text about GPUs: no run lasts centuries; these are device-hours
            return _Fig(start, end, "chip_hours", raw, unit="GPU hours", raw=raw, generic=False)
        if cls == "percent" and quantity == "percent" and self.figs and self.figs[-1].quantity in ("memory_bytes_per_chip", "memory_bytes") \
                and re.fullmatch(r"\s*\(\s*", self.norm[self.figs[-1].end:start]):
            quantity = "memory_fraction_of_hbm"  # "memory: 82.46GiB(86.80%)": the share of the device's memory in use
        if cls == "percent" and quantity in ("percent", "memory_fraction") and start and self.norm[start - 1] in "+-−" \
                and (start < 2 or self.norm[start - 2] in " (\t\n[,"):
            quantity, sign = "percent_change", (1 if self.norm[start - 1] == "+" else -1)  # "(+22%)", "(-8%)": a change
        if cls == "percent" and quantity == "percent_change":
            value, scale = value * sign, scale * sign
        if cls == "ratio" and quantity == "ratio":
            quantity = "ratio"
        unit_text = entry.get("unit") or written
        if cls == "percent":
            unit_text = "%"
        return _Fig(start, end, quantity, value, unit=unit_text, raw=raw, scale=scale, generic=quantity == entry["quantity"] and cls == "percent")

    def chip_peak(self, value: float, named_only: bool = False) -> bool:
        """Whether a FLOP/s figure is the catalog peak (bf16, fp8; dense) of a chip the text names, or of any (named_only: never any)."""
        if self._peaks is None:
            self.find_peaks()
        peaks = self._named_peaks if named_only else self._peaks
        return any(abs(value - p) <= 0.005 * p for p in peaks)

    def find_peaks(self) -> None:
        """The catalog peaks of the chips the text names, and of every chip when it names none."""
        low = self.norm.lower()
        named, every = [], []
        sparse = _sparsity()
        for entry in catalog.hardware().entries:
            values = [v for v in (entry.get("peak_bf16_flop_per_s"), entry.get("peak_fp8_flop_per_s")) if v]
            if entry.get("vendor") in sparse["vendors"]:  # "3,958 TFLOPS FP8" on an H100: its datasheet's 2:4-sparsity peak
                values += [v * sparse["factor"] for v in values]
            every += values
            names = (entry["id"], entry["name"], *entry.get("aliases", []))
            if any(re.search(r"(?<![a-z0-9])" + re.escape(n.lower()) + r"s?(?![a-z0-9])", low) for n in names if any(c.isdigit() for c in n)):
                named += values
        self._named_peaks = named
        self._peaks = named or every

    def measured_before(self, start: int) -> bool:
        """Whether the words before a FLOP/s on its line say a run measured it: a time just before it, "a result of",
        or a run's label ("local implementation with bf16: 311 TFLOPS") that names no chip and no peak."""
        line = self.norm[self.norm.rfind("\n", 0, start) + 1:start]
        if _TIME_THEN.search(line) or _RESULT_OF.search(line):
            return True
        label = _LABEL_ONLY.match(line)
        return bool(label) and not _PEAK_WORD.search(line) and not _CHIP_BEFORE.search(line) and not _CHIP_WORD.search(line)

    def beside_chip(self, start: int, end: int) -> bool:
        before = self.norm[max(0, start - 24):start]
        return bool(_CHIP_BEFORE.search(before) or _CHIP_AFTER.match(self.norm, end) and _CHIP_AFTER.match(self.norm, end).group("name"))

    def cue_end(self, end: int, cue: dict) -> int:
        if not cue.get("after"):
            return end  # a cue before the number ("حققنا 400 TFLOPs") adds nothing to the figure's span
        m = _rx(r"\s*(?:" + cue["after"] + ")", _I).match(self.norm, end)
        return m.end() if m else end

    def read_noun(self, start: int, noun: re.Match, entry: dict, raw: float, mult: str) -> _Fig:
        cls = entry["class"]
        key = self.key_before(start)
        cue = self.cue(cls, start, noun.start())  # the noun phrase's own words ("data parallel ranks") are cues too
        quantity = entry["quantity"]
        if key and key.get("if_unit", {}).get(cls):
            quantity = key["if_unit"][cls]
        elif key and cls in ("tokens", "sequences") and key["quantity"] in ("seq_len", "micro_batch"):
            quantity = key["quantity"]
        elif cue:
            quantity = cue["quantity"]
        elif cls == "chips_hyphen" and not _NODE_AFTER.match(self.norm, noun.end()) \
                and not _DOMAIN_BEFORE.search(self.norm, max(0, start - 40), start):
            quantity = "n_chips"  # "512-GPU experiments" are run on 512 GPUs; an "8-GPU node" holds 8
        if quantity == "seq_len" and raw > 1e8 or quantity == "global_batch_tokens" and raw >= 1e10:
            quantity = entry["quantity"]  # no context is 36T tokens long, nor a batch 1.4T: the cue names the next number
        value = raw
        if quantity == "seq_len" and mult in ("k", "K") and _SEQ_K.match(f"{raw / 1000:g}"):
            value = raw / 1000 * 1024
        end, chip = noun.end(), None
        if any(q in noun.group(0) for q in "“«\"") and self.norm[end:end + 1] in ("”", "»", "\""):
            end += 1  # '10 ملايين “رمز”': the quoted noun with both its quotes
        if cls == "chips":  # "256 وحدة معالجة رسومات H100", "1024 chips (TPU v5p)"
            named = _CHIP_AFTER.match(self.norm, end)
            if named and named.group("name"):
                end, chip = named.end(), _chip_id(named.group("name"))
        return _Fig(start, end, quantity, value, chip=chip, raw=raw, scale=value / raw if raw else 1.0, generic=False)

    def read_bare(self, m: re.Match, start: int, end: int, raw: float, mult: str, sci: bool) -> _Fig | None:
        """A number with no unit: its quantity from a key phrase, the words around it, or its size."""
        norm = self.norm
        key = self.key_before(m.start())
        if not key and norm[max(0, start - 2):start].strip() == "," and _APPOSITIVE_END.match(norm, end):
            key = self.key_before(m.start(), _KEY_APPOSITIVE)
        if key and key["quantity"] in ("mfu", "hfu", "bubble_fraction") and (raw > 100 or _OPERAND_NEXT.match(norm, end)):
            key = None  # "MFU = 380/989 = 38.4%": the key names the result, not an operand (nor a share over 100%)
        if key and _OPERAND_NEXT.match(norm, end) and _KEY_IS.search(norm, max(0, start - 8), start):
            # "Global batch = 4 * 2 = 8": the key names what the arithmetic gives, not its first operand
            self.result_hints.setdefault(start, key["quantity"])
            key = None
        if key:
            quantity = key["quantity"]
            if "if_at_least" in key and raw >= key["if_at_least"]["value"]:
                quantity = key["if_at_least"]["quantity"]
            value = raw
            if quantity == "seq_len" and mult in ("k", "K") and _SEQ_K.match(f"{raw / 1000:g}"):
                value = raw / 1000 * 1024
            if quantity in ("mfu", "hfu", "bubble_fraction") and value > 1:
                value /= 100.0
            label_unit = _LABEL_UNIT.search(norm, max(0, start - 16), start)
            if label_unit and quantity.endswith("_s") and label_unit.group(1) == "ms":
                value /= 1000.0  # "elapsed time per iteration (ms): 4210.5"
            elif quantity in _TIME_FIELDS and _MS_FIELD.search(norm, max(0, start - 24), start):
                value /= 1000.0  # '"ttft_avg_ms":5156.38': a field named in milliseconds
            if quantity in ("global_batch_sequences", "global_batch_tokens"):
                per = _PER_CHIP.match(norm, end)
                if per:  # "a batch size of 4 per GPU" is one chip's share
                    quantity, end = ("micro_batch" if raw < 128 else "tokens_per_chip"), per.end()
            quantity = self.critical(quantity, start)
            return _Fig(start, end, quantity, value, raw=raw, scale=value / raw if raw else 1.0, generic=False)
        if start in self.hints:  # an operand of a textbook formula (6 × N × D, FLOPs / (chips × FLOP/s × MFU))
            return _Fig(start, end, self.hints[start], raw, raw=raw, generic=False)
        label = self.unit_label(start, end, raw)
        if label:
            return label
        if _ACTIVATED.match(norm, end) and _EXPERTS_WORD.search(norm, *self.clause(start, end)):
            return _Fig(start, end, "moe_top_k", raw, raw=raw, generic=False)  # "128 experts with 8 activated"
        if not mult and any(_INDEX_TABLE.match(norm, pos, start, self.word(pos)) for pos in self.starts_in(max(0, start - 24), start)):
            return None
        if not mult and not sci and 100 <= raw < 10000 and _DIVISOR_BEFORE.search(norm, max(0, start - 16), start) \
                and _UTIL_WORD.search(norm) and self.chip_peak(raw * 1e12, named_only=True):
            return _Fig(start, end, "peak_flop_per_s", raw * 1e12, unit="TFLOP/s", raw=raw, scale=1e12, generic=False)
        if not mult and not sci and raw == int(raw) and 1950 <= raw <= 2039 and "," not in m.group(0):
            return None  # a year
        after = _KEY_AFTER.match(norm, end)
        if after and _LABEL_VALUE.match(norm, after.end()):
            after = None  # "tps: 100  mfu: 26.52%": a label before the next value names that value, not this one
        if after and _which(after, _KEYS)["quantity"] in ("mfu", "hfu") and raw <= 100:
            value = raw / 100.0 if raw > 1 else raw  # "45 MFU" is 45%, never a utilisation of 45
            return _Fig(start, end, _which(after, _KEYS)["quantity"], value, raw=raw, scale=value / raw if raw else 1.0, generic=False)
        if mult == "B" and _BYTES_NEXT.match(norm, end):
            return _Fig(start, end, "bytes", raw / 1e9, unit="B", raw=raw, scale=1e-9, generic=False)  # "a 128B payload": bytes, not billions
        if mult in _MAGNITUDE_DEFAULT or mult.lower() in ("b", "t", "bn"):
            if mult.lower() in ("b", "bn") and (_MODEL_NEXT.match(norm, end) or _NAME_BEFORE.search(norm, max(0, start - 30), start)):
                return _Fig(start, end, "params", raw, raw=raw, generic=False)  # "the 8B run", "a 70B model": a size
            cue = self.cue("magnitude", start, end)
            quantity = cue["quantity"] if cue else _MAGNITUDE_DEFAULT.get(mult, "params")
            return _Fig(start, end, quantity, raw, raw=raw, generic=False)
        if mult:
            cue = self.cue("magnitude", start, end)
            return _Fig(start, end, cue["quantity"] if cue else "count", raw, raw=raw, generic=cue is None)
        cue = self.cue("bare", start, end)
        if cue and 0 < raw < 1:
            return _Fig(start, end, cue["quantity"], raw, raw=raw, generic=False)
        if 0 < raw < 1 and _LEVEL_BEFORE.search(norm, max(0, start - 40), start):
            subject = self.utilisation_subject(start)
            if subject:  # "the MFU for 7 and 13B drops to 0.35": the sentence's subject, past the sizes it names
                return _Fig(start, end, subject, raw, raw=raw, generic=False)
        if sci:
            lo, hi = self.clause(start, end)
            if raw >= 1e18:
                return _Fig(start, end, "total_flops", raw, raw=raw, generic=False)
            if 1e11 <= raw < 1e17 and _FLOP_COUNT_WORD.search(norm, lo, start):
                return _Fig(start, end, "total_flops", raw, raw=raw)  # "model flops = 8.6e15": a count of operations
            if 1e11 <= raw < 1e17 and _FLOP_WORD.search(norm, lo, hi):
                return _Fig(start, end, "peak_flop_per_s", raw, raw=raw)
        return _Fig(start, end, "number", raw, raw=raw)

    # -- after the numbers are read
