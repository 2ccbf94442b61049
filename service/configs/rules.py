"""Mistakes and contradictions in a configuration, one check per rule of data/config_rules.json.

Each check returns (options involved, detail key, values) for the locale's config.problems messages; the
rule's general `why` and its `source` come from the data file.
"""

import fnmatch
import json
import math
import re
from functools import cache

from calculators.resources import data_dir

from service.configs import options
from service.configs.layout import Facts
from service.configs.setting import ParsedConfig, typed
from service.configs.suggest import PLANNER_ERROR

# DeepSpeed's compressed-communication optimizers, which do their own gradient exchange (deepspeed/runtime/engine.py).
_COMPRESSED = ("onebitadam", "zerooneadam", "onebitlamb")


@cache
def rules() -> dict:
    """data/config_rules.json by rule id."""
    raw = json.loads((data_dir() / "config_rules.json").read_text(encoding="utf-8"))
    return {rule["id"]: rule for rule in raw["rules"]}


class Context:
    """What the checks read: the configuration, its facts and layout, the world size, the chip, the evaluation."""

    def __init__(self, config: ParsedConfig, facts: Facts, layout: dict, world: int | None, chip: dict | None,
                 chip_stated: bool, evaluation: dict | None):
        self.config, self.facts, self.layout, self.world = config, facts, layout, world
        self.chip, self.chip_stated, self.evaluation = chip, chip_stated, evaluation
        # Options written inside a sentence ("to avoid OOM with TP8 I used --recompute-granularity full ..."): the
        # sentence's words may state what no option sets (TP8), so a default is not evidence of a problem.
        self.in_sentence = written_in_a_sentence(config.text)

    def by(self, *facts: str) -> list[str]:
        """The options that set these facts, in order, each once."""
        names = []
        for fact in facts:
            names += [n for n in self.facts.by.get(fact, []) if n not in names]
        return names


_PLAIN_WORD = re.compile(r"[A-Za-z][a-z'’]*[,.;:?!)]*")
SENTENCE_WORDS = 6


def written_in_a_sentence(text: str) -> bool:
    """Whether a configuration is options quoted inside one line of prose rather than a command or a file."""
    tokens = text.split()
    if "\n" in text.strip() or not tokens:
        return False
    words = [t for t in tokens if _PLAIN_WORD.fullmatch(t.lstrip("("))]
    return len(words) >= SENTENCE_WORDS and len(words) >= 0.5 * len(tokens)


def _degrees_product(c: Context):
    lay = c.layout
    if not c.world:
        return []
    launch = c.by("world_size", "n_nodes", "gpus_per_node")
    found = []
    explicit = ("fsdp_degree" in c.facts.values or "dp_degree" in c.facts.values) and not c.facts.fills
    if explicit and c.config.framework in ("torchtitan", "accelerate", "maxtext") and launch:
        product = math.prod(lay.get(k, 1) for k in ("tp_degree", "pp_degree", "cp_degree"))
        product *= c.facts.values.get("fsdp_degree", 1) * c.facts.values.get("dp_degree", 1)
        if c.config.framework == "maxtext":
            product *= lay.get("ep_degree", 1)
        if product != c.world:
            found.append((c.by("tp_degree", "pp_degree", "cp_degree", "fsdp_degree", "dp_degree") + launch,
                          "degrees_explicit", {"product": product, "world": c.world}))
        return found
    model_parallel = math.prod(lay.get(k, 1) for k in ("tp_degree", "pp_degree", "cp_degree"))
    if c.world % model_parallel:
        found.append((c.by("tp_degree", "pp_degree", "cp_degree") + launch, "degrees",
                      {"tp": lay.get("tp_degree", 1), "pp": lay.get("pp_degree", 1), "cp": lay.get("cp_degree", 1),
                       "product": model_parallel, "world": c.world}))
    elif lay.get("ep_degree", 1) > 1 and c.config.framework in ("megatron-lm", "nemo", "megatron-bridge"):
        # Megatron-Core builds the expert groups as expert-TP x EP x PP (expert TP defaults to TP); the world must be a multiple.
        etp = int(c.facts.values.get("expert_tp_degree") or lay.get("tp_degree", 1))
        experts = etp * lay["ep_degree"] * lay.get("pp_degree", 1)
        if c.world % experts:
            found.append((c.by("ep_degree", "expert_tp_degree", "pp_degree") + launch, "degrees_experts",
                          {"etp": etp, "ep": lay["ep_degree"], "pp": lay.get("pp_degree", 1), "product": experts, "world": c.world}))
    return found


def _global_batch(c: Context):
    v, lay = c.facts.values, c.layout
    micro, dp = lay.get("micro_batch"), lay.get("dp_degree")
    if c.config.framework == "deepspeed" or "train_batch_size" in c.by("global_batch"):
        total, accumulation = v.get("global_batch"), v.get("grad_accum")
        if total is None or micro is None:
            return []
        if accumulation and dp and total != micro * accumulation * dp:
            return [(c.by("global_batch", "micro_batch", "grad_accum"), "batch_deepspeed",
                     {"global": total, "micro": micro, "accum": accumulation, "dp": dp, "product": micro * accumulation * dp})]
        if not dp and total % (micro * (accumulation or 1)):
            return [(c.by("global_batch", "micro_batch", "grad_accum"), "batch_indivisible",
                     {"global": total, "step": micro * (accumulation or 1)})]
        return []
    total = v.get("global_batch")
    if c.config.framework == "torchtitan" and total is not None and total > 0:
        micro = v.get("local_batch") or micro
    if total is None or total <= 0 or not micro or not dp:
        return []
    if total % (micro * dp):
        return [(c.by("global_batch", "micro_batch", "local_batch") + c.by("tp_degree", "pp_degree", "cp_degree"), "batch",
                 {"global": total, "micro": micro, "dp": dp, "step": micro * dp})]
    return []


def _stated(c: Context, fact: str) -> bool:
    """Whether a fact the check relies on is set by an option, or may be taken from the framework's default."""
    return bool(c.by(fact)) or not c.in_sentence


def _sequence_parallel(c: Context):
    if c.facts.values.get("sequence_parallel") and c.layout.get("tp_degree") == 1 and _stated(c, "tp_degree"):
        return [(c.by("sequence_parallel", "tp_degree"), "sequence_parallel", {})]
    return []


def _tp_overlap(c: Context):
    if c.facts.values.get("tp_comm_overlap") and not c.facts.values.get("sequence_parallel") and _stated(c, "sequence_parallel"):
        return [(c.by("tp_comm_overlap", "sequence_parallel") or c.by("tp_comm_overlap"), "tp_overlap", {})]
    return []


def _virtual_stages(c: Context):
    v, lay = c.facts.values, c.layout
    layers, pp = v.get("n_layers"), lay.get("pp_degree", 1)
    if not layers:
        return []
    if "layers_per_virtual_stage" in v:
        per_rank = layers / pp
        if per_rank % v["layers_per_virtual_stage"]:
            return [(c.by("layers_per_virtual_stage", "n_layers", "pp_degree"), "virtual_layers",
                     {"layers": int(layers), "pp": pp, "per_stage": int(v["layers_per_virtual_stage"])})]
        return []
    vs = lay.get("virtual_stages", 1)
    if vs > 1 and layers % (pp * vs):
        return [(c.by("virtual_stages", "n_layers", "pp_degree"), "virtual_stages",
                 {"layers": int(layers), "pp": pp, "vs": vs, "product": pp * vs})]
    return []


def _pipeline_layers(c: Context):
    v, lay = c.facts.values, c.layout
    layers, pp = v.get("n_layers"), lay.get("pp_degree", 1)
    uneven = [s.name for s in c.config.settings if "first-pipeline" in s.name or "last-pipeline" in s.name or "pipeline-model-parallel-layout" in s.name
              or "account-for" in s.name or "first_pipeline" in s.name or "last_pipeline" in s.name
              or "pp-partition-method" in s.name]  # Megatron-DeepSpeed's own split, which may count embeddings as layers
    if not layers or pp <= 1 or uneven or "layers_per_virtual_stage" in v:
        return []
    if layers % pp:
        return [(c.by("n_layers", "pp_degree"), "pipeline_layers", {"layers": int(layers), "pp": pp})]
    return []


def _outer_zero(c: Context):
    v = c.facts.values
    if v.get("distributed_optimizer") and v.get("fsdp2"):
        return [(c.by("distributed_optimizer", "fsdp2"), "outer_fsdp", {})]
    optimizer = c.config.value("optimizer.type")
    stage = c.layout.get("zero_stage")
    if isinstance(optimizer, str) and optimizer.lower() in _COMPRESSED and stage:
        return [(["optimizer.type", "zero_optimization.stage"], "outer_zero", {"optimizer": optimizer, "stage": stage})]
    return []


def _fp8_chip(c: Context):
    if c.layout.get("precision") == "fp8" and c.chip and c.chip_stated and not c.chip.get("peak_fp8_flop_per_s"):
        return [(c.by("precision"), "fp8_chip", {"chip": c.chip["name"]})]
    return []


def _does_not_fit(c: Context):
    out = (c.evaluation or {}).get("outputs") or {}
    fraction = out.get("memory_fraction_of_hbm")
    # Raised only beyond the whole memory by more than the planner's validated error: an estimate between the 80%
    # line and that is a risk the evaluation line states, not a mistake of the file.
    if fraction is not None and fraction > 1.0 + PLANNER_ERROR:
        return [(c.by("tp_degree", "pp_degree", "cp_degree", "fsdp_degree", "dp_degree", "zero_stage", "distributed_optimizer", "fsdp2",
                      "micro_batch", "per_device_batch", "local_batch", "recompute"), "does_not_fit",
                 {"fraction": f"{fraction:.0%}", "memory": f"{out['memory_bytes_per_chip'] / 1e9:.0f} GB"})]
    return []


def _cases(c: Context, rule_id: str, key: str):
    """The rule's cases in data (an option of a framework, and when it applies) found in this configuration."""
    found = []
    for case in rules().get(rule_id, {}).get("cases", []):
        when = case.get("when", "always")
        if "reported under" in when:
            continue  # another rule reports it
        pattern = case["option"]
        matched = [s for s in c.config.settings if (s.framework == case.get("framework") or case.get("framework") in (None, "*"))
                   and (fnmatch.fnmatchcase(s.name, pattern) or s.name.startswith(pattern + "."))]
        matched = [s for s in matched if s.value is not False and s.value is not None]
        if not matched or not _holds(c, when, matched):
            continue
        names = list(dict.fromkeys(s.name for s in matched))
        condition = re.match(r"^\s*([\w.\-]+)", when)
        if condition and not when.startswith("always") and c.config.has(condition.group(1)):
            names.append(condition.group(1))
        detail = key
        if key == "ignored_case" and when.startswith("always"):
            detail, when = "ignored_always", when.removeprefix("always").strip(" ()") or when
        found.append((names, detail, {"effect": case.get("effect", ""), "replacement": case.get("replacement", ""),
                                   "when": when, "option": pattern}))
    return found


def _holds(c: Context, when: str, matched) -> bool:
    """Whether a case's `when` holds. Read: always; KEY == N, KEY < N, KEY is not VALUE, KEY is true; "x" in KEY,
    "x" not in KEY; KEY contains x; KEY is unset; joined by "and"; "the value is true" for the option itself. Anything else is not claimed."""
    when = when.strip()
    if when.startswith("always"):
        return True
    conditions = [part.strip() for part in re.split(r"\s+and\s+", when) if part.strip()]
    return bool(conditions) and all(_condition(c, part, matched) for part in conditions)


def _value_of(c: Context, name: str, matched):
    value = c.config.value(name)
    if value is None:
        for framework in {s.framework for s in matched} | {c.config.framework}:
            entry = options.entry(framework, name)
            if entry and "default" in entry:
                return entry["default"]
    if value is None and name == "zero_optimization.stage":
        return 0  # DeepSpeed's default stage
    return value


def _condition(c: Context, part: str, matched) -> bool:
    part = re.sub(r"\s*\(.*\)\s*$", "", part)  # a reason in parentheses is for the reader
    if re.fullmatch(r"(the )?value is true", part):
        return any(s.value is True or str(s.value).lower() == "true" for s in matched)
    member = re.fullmatch(r"[\"']?([\w.\-]+)[\"']?\s+(not in|in)\s+([\w.\-]+)", part)
    if member:
        item, op, name = member.groups()
        value = _value_of(c, name, matched)
        values = value if isinstance(value, list) else ([] if value is None else [value])
        return (item in [str(v) for v in values]) == (op == "in")
    contains = re.fullmatch(r"([\w.\-]+)\s+(contains|does not contain)\s+[\"']?([\w.\-]+)[\"']?", part)
    if contains:
        name, op, item = contains.groups()
        value = _value_of(c, name, matched)
        values = value if isinstance(value, list) else ([] if value is None else [value])
        return (item in [str(v) for v in values]) == (op == "contains")
    unset = re.fullmatch(r"([\w.\-]+)\s+is\s+(unset|not set)", part)
    if unset:
        return not c.config.has(unset.group(1))
    match = re.fullmatch(r"([\w.\-]+)\s*(==|!=|<=|>=|<|>|is not|is)\s*[\"']?([\w.\-]+)[\"']?", part)
    if not match:
        return False  # a condition this code cannot read is not claimed
    name, op, wanted = match.groups()
    value = _value_of(c, name, matched)
    wanted_value = typed(wanted)
    if isinstance(value, str) and isinstance(wanted_value, bool):
        value = typed(value)
    if op in ("is not", "!="):
        return str(value).lower() != str(wanted_value).lower()
    if op in ("==", "is"):
        return value == wanted_value or str(value).lower() == str(wanted_value).lower()
    try:
        return {"<": value < wanted_value, ">": value > wanted_value, "<=": value <= wanted_value, ">=": value >= wanted_value}[op]
    except TypeError:
        return False


def _version_conflicts(c: Context):
    return _cases(c, "option_conflicts_across_versions", "version_case")


def _silently_ignored(c: Context):
    return _cases(c, "option_silently_ignored", "ignored_case")


CHECKS = {
    "degrees_product_world_size": _degrees_product,
    "global_batch_divisible": _global_batch,
    "sequence_parallel_without_tp": _sequence_parallel,
    "tp_comm_overlap_needs_sequence_parallel": _tp_overlap,
    "virtual_stages_divide_layers": _virtual_stages,
    "pipeline_stages_divide_layers": _pipeline_layers,
    "distributed_optimizer_with_outer_zero": _outer_zero,
    "fp8_on_chip_without_fp8": _fp8_chip,
    "layout_does_not_fit": _does_not_fit,
    "option_conflicts_across_versions": _version_conflicts,
    "option_silently_ignored": _silently_ignored,
}


def problems(context: Context, lang: str) -> list[dict]:
    """Every problem found: rule id, options, why (the rule's reason and this file's figures), line, source."""
    from service.i18n.messages import messages

    details = messages(lang)["config"]["problems"]
    table = rules()
    found = []
    for rule_id, check in CHECKS.items():
        rule = table.get(rule_id)
        if rule is None or not _applies(rule, context.config):
            continue
        for names, key, values in check(context):
            why = (rule.get("why") or {}).get(lang) or (rule.get("why") or {}).get("en", "")
            detail = details[key].format(**values)
            lines = sorted({s.line + context.config.start_line - 1 for s in context.config.settings if s.name in names and s.line})
            found.append({"rule": rule_id, "options": names, "why": f"{detail} {why}".strip(), "lines": lines,
                          "source": rule.get("source", "")})
    return found


def _applies(rule: dict, config: ParsedConfig) -> bool:
    frameworks = rule.get("frameworks") or ["*"]
    present = {config.framework} | {s.framework for s in config.settings}
    return "*" in frameworks or bool(present & set(frameworks))
