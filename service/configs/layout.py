"""The parallel layout a parsed configuration sets: degrees, ZeRO/FSDP, batches, sequence, recomputation, precision, world size."""

import math
from dataclasses import dataclass, field

from service.configs import options
from service.configs.fields import SYNONYMS, field_of
from service.configs.setting import ParsedConfig, Setting

DEGREES = ("tp_degree", "pp_degree", "cp_degree", "ep_degree", "virtual_stages", "fsdp_degree", "dp_degree", "expert_tp_degree")
COUNTS = ("micro_batch", "global_batch", "seq_len", "n_layers", "d_model", "n_heads", "n_kv_heads", "d_ff", "vocab_size",
          "moe_experts", "moe_top_k", "grad_accum", "local_batch", "n_nodes", "gpus_per_node", "world_size", "layers_per_virtual_stage",
          "pp_microbatches", "moe_d_ff")
FLAGS = ("sequence_parallel", "tp_comm_overlap", "distributed_optimizer", "reshard", "fsdp2", "group_query_attention")
# Frameworks whose unset degrees are 1 by their own defaults (Megatron's argparse, ModelParallelConfig, the launchers).
_DEGREE_DEFAULTS = ("megatron-lm", "nemo", "megatron-bridge", "torchtitan", "maxtext", "accelerate", "deepspeed")
_SHARDING = {"full_shard": 3, "1": 3, "shard_grad_op": 2, "2": 2, "no_shard": 0, "3": 0, "hybrid_shard": 3, "4": 3,
             "hybrid_shard_zero2": 2, "_hybrid_shard_zero2": 2, "5": 2,
             "optim": 1, "optim_grads": 2, "optim_grads_params": 3}  # the last three: Megatron's --data-parallel-sharding-strategy


@dataclass
class Facts:
    """Every layout fact the configuration states, with the options that state it, and what could not be read."""

    values: dict = field(default_factory=dict)  # fact -> value
    by: dict = field(default_factory=dict)  # fact -> option names that set it
    unreadable: dict = field(default_factory=dict)  # fact -> "why" (unresolved variable, "auto")
    fills: set = field(default_factory=set)  # degree facts set to -1: "all remaining ranks"
    filled_by: list = field(default_factory=list)  # the option names set to -1, in order


def _number(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        try:
            return float(value) if any(c in value for c in ".eE") else int(value)
        except ValueError:
            return None
    return None


def read_facts(config: ParsedConfig) -> Facts:
    """The layout facts of a configuration (a later setting of the same option wins; MaxText's ici x dcn multiply)."""
    facts = Facts()
    last: dict = {}
    for setting in config.settings:
        fact = field_of(setting.framework, setting.name)
        if fact and setting.value is not None:  # null (YAML) is the framework's default, as if unset
            last[(fact, setting.framework, setting.name)] = _mapped(setting, fact)
        elif fact:
            last.pop((fact, setting.framework, setting.name), None)
    grouped: dict = {}
    for (fact, _, name), setting in last.items():
        grouped.setdefault(fact, []).append(setting)
    for fact, settings in grouped.items():
        facts.by[fact] = [s.name for s in settings]
        values = [s.value for s in settings]
        if any(isinstance(v, str) and ("$" in v or v.strip().lower() == "auto") for v in values):
            bad = next(v for v in values if isinstance(v, str) and ("$" in v or v.strip().lower() == "auto"))
            facts.unreadable[fact] = "auto" if bad.strip().lower() == "auto" else bad
            continue
        if fact in DEGREES:
            numbers = [_number(v) for v in values]
            if any(n is None for n in numbers):
                facts.unreadable[fact] = str(values[numbers.index(None)])
                continue
            if any(n == -1 for n in numbers):
                facts.fills.add(fact)
                facts.filled_by += [s.name for s, n in zip(settings, numbers) if n == -1]
            facts.values[fact] = math.prod(int(n) for n in numbers if n != -1)
        elif fact in COUNTS or fact == "per_device_batch":
            number = 1 if values[-1] is True else _number(values[-1])  # a switch such as torchrun's --standalone: one
            if number is None:
                facts.unreadable[fact] = str(values[-1])
            else:
                facts.values[fact] = number
        elif fact == "recompute":
            facts.values[fact] = _recompute(settings[-1].name, values[-1], facts.values.get(fact))
        elif fact == "precision":
            facts.values[fact] = _precision(settings)
        elif fact == "zero_stage":
            stage = _zero(values[-1])
            if stage is None:
                facts.unreadable[fact] = str(values[-1])
            else:
                facts.values[fact] = stage
        elif fact == "distributed_optimizer":
            value = values[-1]
            facts.values[fact] = "distributed" in value if isinstance(value, str) else bool(value)
        elif fact in FLAGS:
            facts.values[fact] = _truthy(values[-1])
        else:
            facts.values[fact] = values[-1]
    filled = set(facts.filled_by)
    facts.filled_by = list(dict.fromkeys(s.name for s in config.settings if s.name in filled))  # the text's order
    return facts


def _mapped(setting, fact: str):
    """The setting with its value as data/options reads it for the layout (value_map, layout_value), where that entry sets this fact."""
    entry = options.entry(setting.framework, setting.name)
    if not entry or SYNONYMS.get(entry.get("layout_field"), entry.get("layout_field")) != fact:
        return setting
    value, table = setting.value, entry.get("value_map")
    if table is not None:
        spellings = value if isinstance(value, list) else [value]
        for item in spellings:
            for key in (item, str(item), str(item).lower()):
                if isinstance(key, (str, int, float)) and not isinstance(key, bool) and key in table:
                    return Setting(setting.name, table[key], setting.line, setting.framework)
        return setting
    if "layout_value" in entry and value not in (False, 0, "false", "False", "no"):
        return Setting(setting.name, entry["layout_value"], setting.line, setting.framework)
    return setting


def _truthy(value) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes", "on")
    return bool(value)


def _recompute(name: str, value, current) -> str:
    """none, selective or full from a recomputation option's value."""
    if "recompute-activations" in name and value is True:
        return "selective"
    if value is True:
        return "full"
    if value in (False, None) or (isinstance(value, str) and value.strip().lower() in ("none", "", "null", "no", "false")):
        return "none"
    text = str(value).lower()
    if "full" in text:
        return "full"
    return "selective"  # selective, op, minimal, save_* and other MaxText/torchtitan partial policies


def _precision(settings) -> str | None:
    """fp8 over bf16 over fp16 over fp32: an fp8 recipe runs on top of bf16 mixed precision."""
    found = set()
    for setting in settings:
        name, value = setting.name.lower(), setting.value
        if value in (False, None, "no", "none", "null", "") :
            continue
        text = str(value).lower() if not isinstance(value, bool) else ""
        if "fp8" in name or "float8" in name or "fp8" in text or "float8" in text:
            if "quantization" in name and text not in ("fp8", "fp8_full", "nanoo_fp8", "fp8_gpu") and "fp8" not in text:
                continue
            found.add("fp8")
        elif "bf16" in name or "bfloat16" in name or "bf16" in text or "bfloat16" in text:
            found.add("bf16")
        elif "fp16" in name or "float16" in text or text in ("16", "16-mixed", "fp16", "half"):
            found.add("fp16")
        elif text in ("32", "fp32", "float32", "32-true"):
            found.add("fp32")
    for precision in ("fp8", "bf16", "fp16", "fp32"):
        if precision in found:
            return precision
    return None


def _zero(value) -> int | None:
    if isinstance(value, bool):
        return 1 if value else 0
    if isinstance(value, (int, float)) and 0 <= value <= 3:
        return int(value)
    if isinstance(value, str):
        return _SHARDING.get(value.strip().lower())
    return None


def world_size(config: ParsedConfig, facts: Facts, lang: str = "en") -> tuple[int | None, str]:
    """The number of GPUs or chips the configuration starts, and how it was told."""
    from service.i18n.messages import messages

    m = messages(lang)["config"]
    values = facts.values
    if values.get("world_size"):
        return int(values["world_size"]), m["world_options"].format(options=", ".join(f"`{n}`" for n in facts.by["world_size"]))
    if values.get("gpus_per_node"):
        nodes = int(values.get("n_nodes") or 1)
        names = ", ".join(f"`{n}`" for n in facts.by.get("n_nodes", []) + facts.by["gpus_per_node"])
        return nodes * int(values["gpus_per_node"]), m["world_nodes"].format(nodes=nodes, per=int(values["gpus_per_node"]), options=names)
    # MaxText's mesh fixes the device count only when its axes are all given: base.yml fills ici_fsdp_parallelism and
    # dcn_data_parallelism (-1) from the devices the job gets.
    given = {s.name for s in config.settings}
    if config.framework == "maxtext" and not facts.fills and any(n.startswith("dcn_") for n in given) \
            and any(n.startswith("ici_fsdp") for n in given):
        degrees = [values.get(k, 1) for k in ("tp_degree", "pp_degree", "cp_degree", "ep_degree", "fsdp_degree", "dp_degree")]
        return math.prod(int(d) for d in degrees), m["world_maxtext"]
    # torchtitan checks dp_replicate x dp_shard x cp x tp x pp == world size when the shard degree is not -1.
    if config.framework == "torchtitan" and "fsdp_degree" in values and not facts.fills:
        degrees = [values.get(k, 1) for k in ("tp_degree", "pp_degree", "cp_degree", "fsdp_degree", "dp_degree")]
        return math.prod(int(d) for d in degrees), m["world_torchtitan"]
    return None, ""


def layout(config: ParsedConfig, facts: Facts, world: int | None, lang: str = "en") -> tuple[dict, list[str]]:
    """DESIGN.md's layout fields for the configuration, and notes on what had to be inferred or could not be."""
    from service.i18n.messages import messages

    m = messages(lang)["config"]
    v, notes = facts.values, []
    out: dict = {}
    defaults = config.framework in _DEGREE_DEFAULTS
    if "expert_tp_degree" in v:
        out["expert_tp_degree"] = int(v["expert_tp_degree"])
    for fact in ("tp_degree", "pp_degree", "cp_degree", "ep_degree", "virtual_stages"):
        if fact in v:
            out[fact] = int(v[fact])
        elif defaults and fact not in facts.unreadable:
            out[fact] = 1
    if "layers_per_virtual_stage" in v and v.get("n_layers") and out.get("pp_degree"):
        per_stage = v["n_layers"] / out["pp_degree"]
        out["virtual_stages"] = max(1, int(per_stage // v["layers_per_virtual_stage"]))
    model_parallel = math.prod(out.get(k, 1) for k in ("tp_degree", "pp_degree", "cp_degree"))
    _data_parallel(config, facts, world, model_parallel, out, notes, m)
    _batches(config, facts, world, out, notes, m)
    for fact in ("seq_len",):
        if fact in v:
            out[fact] = int(v[fact])
    if "recompute" in v:
        out["recompute"] = v["recompute"]
    elif defaults:
        out["recompute"] = "none"
    if v.get("precision"):
        out["precision"] = v["precision"]
    for fact in ("loss_kernel", "fp8_weights"):  # kernels and weight formats that change memory (evaluate_layout reads them)
        if fact in v:
            out[fact] = v[fact]
    for fact, value in facts.unreadable.items():
        key = "unknown_auto" if value == "auto" else "unknown_value"
        notes.append(m[key].format(options=" / ".join(f"`{n}`" for n in facts.by.get(fact, [fact])), value=value,
                                   fact=m["fact_names"].get(fact, fact.replace("_", " "))))
    return out, notes


def _filled(facts: Facts, fact: str) -> str:
    """The options set to -1 (only those: the others of the same axis hold a number), named for a note."""
    names = facts.filled_by or facts.by[fact]
    return " / ".join(f"`{n}`" for n in names)


def _data_parallel(config, facts, world, model_parallel, out, notes, m) -> None:
    v = facts.values
    shard, replicate = v.get("fsdp_degree"), v.get("dp_degree")
    explicit = shard is not None or replicate is not None
    if explicit:
        fill_what = "fsdp_degree" if "fsdp_degree" in facts.fills else "dp_degree" if "dp_degree" in facts.fills else None
        product = model_parallel * out.get("ep_degree", 1) ** (config.framework == "maxtext") * (shard or 1) * (replicate or 1)
        if fill_what and world:
            filled = max(1, world // product) if world % product == 0 else None
            if filled is None:
                notes.append(m["fill_not_multiple"].format(options=_filled(facts, fill_what), world=world,
                                                                 product=product))
            elif fill_what == "fsdp_degree":
                shard = (shard or 1) * filled
            else:
                replicate = (replicate or 1) * filled
        elif fill_what:
            notes.append(m["fill_unknown_world"].format(options=_filled(facts, fill_what)))
        if config.framework == "maxtext" and out.get("ep_degree", 1) > 1:
            pass  # MaxText's expert axis is its own mesh axis: it multiplies into the device count, not into data parallelism
        out["dp_degree"] = int((shard or 1) * (replicate or 1)) if not (fill_what and not world) else None
        if out["dp_degree"] is None:
            del out["dp_degree"]
    elif world:
        if world % model_parallel == 0:
            out["dp_degree"] = world // model_parallel
    stage = v.get("zero_stage")
    if config.framework in ("torchtitan", "maxtext") or (config.framework == "accelerate" and shard):
        if shard and shard > 1 or ("fsdp_degree" in facts.fills and config.framework == "torchtitan"):
            stage = 3 if v.get("reshard", True) is not False or config.framework != "accelerate" else 2
        elif stage is None:
            stage = 0
    if config.framework == "accelerate":
        kind = str(v.get("distributed_type", "")).upper()
        if kind == "FSDP" and v.get("fsdp_version") == 2 and "reshard" in v and stage is None or (kind == "FSDP" and v.get("fsdp_version") == 2 and "zero_stage" not in facts.by):
            stage = 3 if v.get("reshard", True) else 2
        elif kind == "FSDP" and stage is None:
            stage = 3  # FULL_SHARD is accelerate's default sharding strategy
        elif kind in ("MULTI_GPU", "NO", "") and stage is None:
            stage = 0
    if stage is None and v.get("fsdp2"):
        stage = 3
    if stage is None and v.get("distributed_optimizer"):
        stage = 1
    if stage is None and config.framework in ("megatron-lm", "nemo", "megatron-bridge", "deepspeed"):
        stage = 0
    if stage is not None:
        out["zero_stage"] = int(stage)


def _batches(config, facts, world, out, notes, m) -> None:
    v = facts.values
    dp = out.get("dp_degree")
    micro, global_batch = v.get("micro_batch"), v.get("global_batch")
    accumulation = v.get("grad_accum")
    if config.framework == "maxtext" and "per_device_batch" in v:
        per_device = v["per_device_batch"]
        micro = max(1, math.ceil(per_device))
        if world:
            global_batch = per_device * world * (accumulation or 1)
    if config.framework == "torchtitan":
        local = v.get("local_batch")
        if global_batch is not None and global_batch < 0:
            global_batch = None
        if global_batch is None and local and dp:
            global_batch = local * dp
        if out.get("pp_degree", 1) == 1 and local:
            micro = local
        elif micro is None and local and out.get("pp_degree", 1) > 1:
            micro = 1  # torchtitan's default pipeline micro-batch size
    if config.framework == "deepspeed" and global_batch is None and micro and accumulation and dp:
        global_batch = micro * accumulation * dp
    if config.framework in ("megatron-lm", "nemo", "megatron-bridge") and global_batch is None and micro and dp:
        global_batch = micro * dp  # Megatron's default: one micro-batch per data-parallel rank
        notes.append(m["default_global_batch"])
    if micro is not None:
        out["micro_batch"] = int(micro) if float(micro).is_integer() else micro
    if global_batch is not None:
        out["global_batch"] = int(global_batch) if float(global_batch).is_integer() else global_batch
