"""The training job a configuration describes, as evaluate_layout's inputs: model, chip, chips, batch and layout."""

import re

from calculators import catalog

from service.configs.layout import Facts

# Words that state how many GPUs a job runs on ("on 64 H100s", "256 GPUs", "16 nodes of 8").
_GPUS = re.compile(r"\b(\d{1,6})\s*(?:x\s*|×\s*)?(?:NVIDIA\s+)?(?:[A-Z]{1,2}\d{2,3}[A-Za-z]*\s+)?(?:GPUs|GPU|chips|accelerators)\b", re.I)
_NAMED_GPUS = re.compile(r"\b(\d{1,6})\s*(?:x\s*|×\s*)?(?:NVIDIA\s+)?((?:[AHB]|GB|H)\d{2,3}[A-Za-z]*)s?\b")
_GPU_FRAMEWORKS_DEFAULT_CHIP = "h100"
_TPU_DEFAULT_CHIP = "tpu-v5p"


def stated_gpus(text: str) -> int | None:
    """A GPU or chip count the prose states ("on 64 H100s", "2 nodes of 8 A100s" = 16), else None.

    Read by the explainer's figure reader, so a count means in a config's thread what it means in any text.
    """
    from service.explain.figures import read_figures

    figures = read_figures(text)
    counts = {f.value for f in figures if f.quantity == "n_chips"}
    if len(counts) > 1:
        return None  # "the README's run used 768 GPUs; mine runs on 128": which one is this job's is not said
    chips = next((f.value for f in figures if f.quantity == "n_chips"), None)
    if chips is None:
        nodes = next((f.value for f in figures if f.quantity == "n_nodes"), None)
        per_node = next((f.value for f in figures if f.quantity == "chips_per_node"), None)
        chips = nodes * per_node if nodes and per_node else None
    if chips is None:  # the figure reader names no count: a bare "64 GPUs" or "8xH100" the patterns know
        for pattern in (_NAMED_GPUS, _GPUS):
            match = pattern.search(text)
            if match:
                return int(match.group(1))
    return int(chips) if chips and chips == int(chips) else None


def stated_chip(text: str) -> dict | None:
    """The catalog chip the text names (the longest alias found), else None."""
    hardware = catalog.hardware()
    best = None
    for entry in hardware.entries:
        for alias in (entry["id"], entry["name"], *entry.get("aliases", [])):
            if len(alias) < 3 or not re.search(r"\d", alias):
                continue
            if re.search(rf"(?<![\w-]){re.escape(alias)}s?(?![\w])", text, re.I) and (best is None or len(alias) > best[0]):
                best = (len(alias), entry)
    return best[1] if best else None


def default_chip(framework: str) -> dict:
    """The chip assumed when none is stated: a TPU v5p for MaxText, an H100 otherwise."""
    return catalog.hardware().get("chip", _TPU_DEFAULT_CHIP if framework == "maxtext" else _GPU_FRAMEWORKS_DEFAULT_CHIP)


def model_inputs(facts: Facts, config, text: str) -> tuple[dict, str]:
    """evaluate_layout's model fields from the configuration's own architecture, else a catalog model it or the text names.

    Returns (fields, how) where `how` says where the model came from; fields are empty when neither says.
    """
    v = facts.values
    if all(v.get(k) for k in ("n_layers", "d_model", "n_heads")):
        fields = {"n_layers": int(v["n_layers"]), "d_model": int(v["d_model"]), "n_heads": int(v["n_heads"])}
        kv = v.get("n_kv_heads")
        if kv and (config.framework != "megatron-lm" or v.get("group_query_attention")):
            fields["n_kv_heads"] = int(kv)
        if v.get("d_ff"):
            fields["d_ff"] = int(v["d_ff"])
        if v.get("vocab_size"):
            fields["vocab_size"] = int(v["vocab_size"])
        experts, top_k = v.get("moe_experts"), v.get("moe_top_k")
        if experts and experts > 1:
            fields["moe_experts"], fields["moe_top_k"] = int(experts), int(top_k or 2)
        total, active = parameters(fields, v.get("moe_d_ff"))
        fields["params"], fields["active_params"] = total, active
        return fields, "architecture"
    name = _named_model(facts, config, text)
    if name:
        return {"model": name["id"]}, "catalog"
    return {}, ""


def parameters(fields: dict, moe_d_ff=None) -> tuple[float, float]:
    """Total and active parameters from the architecture: attention, MLP (gated when d_ff is not 4h) and untied embeddings."""
    h, layers, heads = fields["d_model"], fields["n_layers"], fields["n_heads"]
    kv = fields.get("n_kv_heads") or heads
    head_dim = h / heads
    attention = 2 * h * h + 2 * h * kv * head_dim
    d_ff = fields.get("d_ff") or 4 * h
    matrices = 2 if d_ff == 4 * h else 3
    mlp = matrices * h * d_ff
    embeddings = 2 * (fields.get("vocab_size") or 0) * h
    experts = fields.get("moe_experts")
    if experts:
        expert = 3 * h * (moe_d_ff or d_ff)
        total = layers * (attention + experts * expert) + embeddings
        active = layers * (attention + fields["moe_top_k"] * expert) + embeddings
        return float(total), float(active)
    total = layers * (attention + mlp) + embeddings
    return float(total), float(total)


def _named_model(facts: Facts, config, text: str) -> dict | None:
    """A catalog model named by the configuration (MaxText model_name, torchtitan name + flavor) or by the text."""
    v = facts.values
    names = []
    if v.get("model_name"):
        names.append(str(v["model_name"]))
    if v.get("model_flavor") is not None and v.get("model_name"):
        names.insert(0, f"{v['model_name']}-{v['model_flavor']}")
    models = catalog.models()
    for name in names:
        try:
            return models.get("model", name)
        except Exception:  # not in the catalog: try the next spelling
            continue
    best = None
    for entry in models.entries:
        for alias in (entry["name"], *entry.get("aliases", [])):
            if len(alias) >= 4 and re.search(rf"(?<![\w-]){re.escape(alias)}(?![\w])", text, re.I) and (best is None or len(alias) > best[0]):
                best = (len(alias), entry)
    return best[1] if best else None


def layout_inputs(layout: dict) -> dict:
    """evaluate_layout's layout fields from the configuration's layout (precision fp16 and fp32 run at the bf16 peak here)."""
    inputs = {key: layout[key] for key in ("tp_degree", "pp_degree", "virtual_stages", "cp_degree", "ep_degree", "zero_stage",
                                           "micro_batch", "recompute", "loss_kernel", "fp8_weights") if layout.get(key) is not None}
    if "micro_batch" in inputs:
        inputs["micro_batch"] = max(1, int(round(inputs["micro_batch"])))
    inputs["precision"] = "fp8" if layout.get("precision") == "fp8" else "bf16"
    return inputs
