"""The config corpus (tests/data/configs), option meanings (data/options) and rules (data/config_rules.json) are well-formed and complete."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "tests" / "data" / "configs"
OPTIONS = ROOT / "data" / "options"
RULES = ROOT / "data" / "config_rules.json"

FRAMEWORKS = {"megatron-lm", "nemo", "megatron-bridge", "torchtitan", "deepspeed", "maxtext", "accelerate",
              "torchrun", "deepspeed-launcher"}
# Tables that gloss options named in prose only (no config files of theirs in the corpus): checked for completeness too.
PROSE_FRAMEWORKS = {"transformers", "vllm"}
# The rule ids both issue-20 helpers agreed on (/work/wt/CONFIGS-CONTRACT.md); the data may add more.
CONTRACT_RULES = {"degrees_product_world_size", "global_batch_divisible", "sequence_parallel_without_tp",
                  "tp_comm_overlap_needs_sequence_parallel", "virtual_stages_divide_layers",
                  "distributed_optimizer_with_outer_zero", "fp8_on_chip_without_fp8", "layout_does_not_fit",
                  "option_conflicts_across_versions", "option_silently_ignored"}
LAYOUT_FIELDS = {"tp_degree", "pp_degree", "virtual_stages", "cp_degree", "ep_degree", "expert_tp_degree", "dp_degree",
                 "zero_stage", "micro_batch", "global_batch", "seq_len", "recompute", "precision"}
# Option entries may also set a model field or a launcher count.
OPTION_FIELDS = LAYOUT_FIELDS | {"n_layers", "d_model", "n_heads", "n_kv_heads", "d_ff", "vocab_size", "moe_experts",
                                 "moe_top_k", "moe_d_ff", "gpus_per_node", "n_nodes", "world_size", "dp_shard_degree",
                                 "dp_replicate_degree", "ici_fsdp", "global_batch_tokens",
                                 "loss_kernel", "fp8_weights"}  # evaluate_layout's kernel and weight-format fields
HEX40 = re.compile(r"^[0-9a-f]{40}$")
HEX40_ANYWHERE = re.compile(r"\b[0-9a-f]{40}\b")
ISSUE = re.compile(r"^https://github\.com/[\w.-]+/[\w.-]+/(issues|pull|discussions)/\d+(#[\w-]+)?$")
ARABIC = re.compile(r"[\u0600-\u06FF]")
EXT = {".sh", ".yaml", ".yml", ".toml", ".json", ".txt", ".slurm", ".py"}


def _manifest():
    return json.loads((CONFIGS / "manifest.json").read_text(encoding="utf-8"))["files"]


def _rules():
    return {r["id"]: r for r in json.loads(RULES.read_text(encoding="utf-8"))["rules"]}


def _options(framework):
    return json.loads((OPTIONS / f"{framework}.json").read_text(encoding="utf-8"))


MANIFEST = _manifest()
REAL = [m for m in MANIFEST if not m["file"].startswith("planted__")]
PLANTED = [m for m in MANIFEST if m["file"].startswith("planted__")]


def test_manifest_lists_every_file_once_and_every_file_is_listed():
    names = [m["file"] for m in MANIFEST]
    assert len(names) == len(set(names))
    on_disk = {p.name for p in CONFIGS.iterdir() if p.is_file() and p.name != "manifest.json"}
    assert on_disk == set(names)


@pytest.mark.parametrize("entry", MANIFEST, ids=lambda m: m["file"])
def test_manifest_entry_is_well_formed(entry):
    name = entry["file"]
    assert Path(name).suffix in EXT
    assert entry["framework"] in FRAMEWORKS
    if not name.startswith("planted__"):
        assert name.startswith(entry["framework"] + "__"), "real files are named <framework>__<short-name>.<ext>"
    src = entry["source"]
    if "issue" in src:
        assert ISSUE.match(src["issue"]), src
    else:
        assert src["repository"].count("/") == 1 and src["path"], src
        assert HEX40.match(src["commit"]), src
    assert set(entry["layout"]) <= LAYOUT_FIELDS, set(entry["layout"]) - LAYOUT_FIELDS
    for key, value in entry["layout"].items():
        if key == "recompute":
            assert value in {"none", "selective", "full"}
        elif key == "precision":
            assert value in {"bf16", "fp16", "fp8", "fp32"}
        elif key == "zero_stage":
            assert value in {0, 1, 2, 3}
        else:
            assert isinstance(value, int) and value >= 1, (key, value)
    assert entry["world_size"] is None or (isinstance(entry["world_size"], int) and entry["world_size"] >= 1)
    assert entry["model"] is None or isinstance(entry["model"], dict)
    assert isinstance(entry["unknown_ok"], list)


@pytest.mark.parametrize("entry", MANIFEST, ids=lambda m: m["file"])
def test_expected_problems_name_known_rules_and_say_where_they_are_confirmed(entry):
    rules = _rules()
    for problem in entry["expected_problems"]:
        assert problem["rule"] in rules, problem["rule"]
        assert problem["options"], problem
        if not entry["file"].startswith("planted__"):
            assert problem["confirmed_in"].strip(), "a real mistake is confirmed in the framework's source"


def test_corpus_covers_every_format_with_at_least_thirty_real_files():
    assert len(REAL) >= 30
    config_frameworks = FRAMEWORKS - {"torchrun", "deepspeed-launcher"}
    assert config_frameworks <= {m["framework"] for m in REAL}
    launchers = " ".join((CONFIGS / m["file"]).read_text(encoding="utf-8") for m in REAL)
    assert "torchrun" in launchers and re.search(r"(^|\s)deepspeed\s+(--|\S+\.py)", launchers, re.M)
    assert any("issue" in m["source"] for m in REAL), "some files come from public issues"


def test_layout_of_the_gpt3_example_matches_what_the_script_says():
    # examples/gpt3/train_gpt3_175b_distributed.sh: TP 8, PP 16 on GPUS_PER_NODE=8 x NUM_NODES=1.
    entry = next(m for m in REAL if m["file"] == "megatron-lm__gpt3-175b.sh")
    text = (CONFIGS / entry["file"]).read_text(encoding="utf-8")
    assert "--tensor-model-parallel-size 8" in text and "--pipeline-model-parallel-size 16" in text
    assert entry["layout"]["tp_degree"] * entry["layout"]["pp_degree"] > entry["world_size"]
    assert [p["rule"] for p in entry["expected_problems"]] == ["degrees_product_world_size"]


PLANTED_NAME = re.compile(r"^planted__(?P<rule>[a-z0-9_]+?)__(?P<base>[a-z0-9-]+__.+)$")


@pytest.mark.parametrize("entry", PLANTED, ids=lambda m: m["file"])
def test_planted_file_differs_from_its_base_and_lists_its_rule(entry):
    match = PLANTED_NAME.match(entry["file"])
    assert match, entry["file"]
    base = match["base"]
    assert base in {m["file"] for m in REAL}, f"base {base} is a real file in the manifest"
    planted = (CONFIGS / entry["file"]).read_bytes()
    original = (CONFIGS / base).read_bytes()
    assert planted != original
    assert match["rule"] in {p["rule"] for p in entry["expected_problems"]}
    assert entry["source"] == next(m["source"] for m in REAL if m["file"] == base)


def test_one_planted_file_per_contract_rule():
    planted_rules = {PLANTED_NAME.match(m["file"])["rule"] for m in PLANTED}
    assert len(PLANTED) >= 10
    assert CONTRACT_RULES <= planted_rules, CONTRACT_RULES - planted_rules


def test_rules_cover_the_contract_and_give_reasons_in_both_languages():
    rules = _rules()
    assert CONTRACT_RULES <= set(rules)
    for rule in rules.values():
        assert rule["why"]["en"].strip() and ARABIC.search(rule["why"]["ar"]), rule["id"]
        assert rule["source"].strip(), rule["id"]
        assert rule["frameworks"] and set(rule["frameworks"]) <= FRAMEWORKS | {"*"}, rule["id"]
        for case in rule.get("cases", []):
            assert case["framework"] in FRAMEWORKS and case["option"] and HEX40_ANYWHERE.search(case["source"]), case


@pytest.mark.parametrize("framework", sorted(FRAMEWORKS | PROSE_FRAMEWORKS))
def test_options_file_is_complete(framework):
    data = _options(framework)
    assert data["framework"] == framework
    read_from = data["read_from"]
    assert read_from["repository"] and read_from["path"] and (read_from.get("commit") or read_from.get("version"))
    assert data["options"]
    spellings = set()
    for key, entry in data["options"].items():
        for lang in ("en", "ar"):
            assert entry["meaning"][lang].strip(), (key, lang)
            assert entry["cost_or_benefit"][lang].strip(), (key, lang)
        assert ARABIC.search(entry["meaning"]["ar"]) and ARABIC.search(entry["cost_or_benefit"]["ar"]), key
        assert HEX40_ANYWHERE.search(entry["source"]), f"{key}: the source names the commit it was read at"
        assert entry["type"] in {"int", "bool", "str", "float", "list", "dict"}, key
        if "layout_field" in entry:
            assert entry["layout_field"] in OPTION_FIELDS, (key, entry["layout_field"])
        for spelling in [key, *entry.get("aliases", [])]:
            assert spelling not in spellings, f"{spelling} is listed twice"
            spellings.add(spelling)


@pytest.mark.parametrize("entry", REAL, ids=lambda m: m["file"])
def test_unknown_ok_options_really_are_absent_from_the_options_data(entry):
    data = _options(entry["framework"])["options"]
    known = set(data) | {a for e in data.values() for a in e.get("aliases", [])}
    assert not set(entry["unknown_ok"]) & known


@pytest.mark.parametrize("entry", [m for m in MANIFEST if Path(m["file"]).suffix in {".yaml", ".yml", ".toml", ".json"}],
                         ids=lambda m: m["file"])
def test_structured_files_parse_with_the_standard_parsers(entry):
    path = CONFIGS / entry["file"]
    if path.suffix == ".json":
        assert isinstance(json.loads(path.read_text(encoding="utf-8")), dict)
    elif path.suffix == ".toml":
        import tomllib
        assert tomllib.loads(path.read_text(encoding="utf-8"))
    else:
        yaml = pytest.importorskip("yaml")
        assert isinstance(yaml.safe_load(path.read_text(encoding="utf-8")), dict)
