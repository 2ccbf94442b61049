"""Calculator working as structured steps: every key in every language, and English rendering equal to the steps (issue 10)."""

import json
import re
import string

import numpy as np
import pytest

import calculators
from calculators import working
from calculators.formatting import human
from calculators.registry import get
from tests.support.calculator_examples import VALID

LANGUAGES = ("en", "ar")
ARABIC_LETTER = re.compile(r"[\u0600-\u06FF]")
LATIN_LETTER = re.compile(r"[A-Za-z]")


def _sweep(*values):
    return np.array(values, dtype=float)


# Inputs that between them take every branch that chooses a step (recomputation, ZeRO stage, schedule, verdict...).
CASES = [(name, inputs) for name, inputs in VALID.items()] + [
    *[("collective_time", {**VALID["collective_time"], "op": op}) for op in ("all_gather", "broadcast")],
    ("nccl_busbw", {"op": "broadcast", "n_ranks": 4, "algbw_bytes_per_s": "100 GB/s"}),
    ("training_flops", {"params": "70B", "tokens": "15T"}),
    ("training_flops", {"model": "K2", "tokens": "15T", "recompute": "full"}),
    ("mfu", {"params": "540.35B", "n_chips": 6144, "peak_flop_per_s": "275 TFLOP/s", "tokens_per_s": "238.3K", "recompute": "full"}),
    ("training_time", {"params": "70B", "tokens": "15T", "n_chips": 4096, "achieved_flop_per_s": "400 TFLOP/s", "recompute": "full"}),
    ("training_time", {"params": "70B", "tokens": "15T", "n_chips": 4096, "achieved_flop_per_s": "400 TFLOP/s", "recompute": "selective"}),
    ("dp_critical_batch", {"peak_flop_per_s": "989 TFLOP/s", "bandwidth_bytes_per_s": "400 GB/s"}),
    ("pp_necessity", {"global_batch_tokens": "4M", "n_chips": 4096, "peak_flop_per_s": "990 TFLOP/s", "dp_bandwidth_bytes_per_s": "400 GB/s",
                      "chips_per_node": 8, "tp_degree": 8}),
    ("pp_necessity", {"global_batch_tokens": "1M", "n_chips": 16384, "chip": "h100", "dp_bandwidth_bytes_per_s": "50 GB/s", "chips_per_node": 8}),
    ("pp_necessity", {"model": "K2", "global_batch_tokens": "16M", "n_chips": 4096, "chip": "h100", "dp_bandwidth_bytes_per_s": "400 GB/s",
                      "chips_per_node": 8}),
    ("pipeline_bubble", {"pp_degree": 8, "microbatches": 32}),
    ("pipeline_bubble", {"pp_degree": 8, "microbatches": 6, "schedule": "gpipe"}),
    ("pipeline_bubble", {"pp_degree": 8, "microbatches": 12, "virtual_stages": 3}),
    ("model_state_memory", {"params": "7.5B"}),
    ("model_state_memory", {"params": "7.5B", "zero_stage": 2, "dp_degree": 8}),
    ("model_state_memory", {"params": "7.5B", "zero_stage": 3, "dp_degree": 8}),
    ("activation_memory", {**VALID["activation_memory"], "recompute": "full"}),
    ("activation_memory", {**VALID["activation_memory"], "recompute": "none", "sequence_parallel": False}),
    ("roofline", {"flops": "1e12", "bytes": "10GB", "chip": "h100"}),
]
SWEEPS = [
    ("pp_necessity", {"global_batch_tokens": _sweep(1e6, 4e6, 16e6), "n_chips": 4096, "peak_flop_per_s": 990e12, "dp_bandwidth_bytes_per_s": 400e9,
                      "chips_per_node": 8, "tp_degree": 8, "moe_experts": 64, "moe_top_k": 8}),
    ("roofline", {"flops": _sweep(1e12, 1e15, 3e15), "bytes": 1e10, "chip": "h100"}),
    ("training_flops", {"params": _sweep(7e9, 70e9, 700e9), "tokens": 1e12, "n_layers": 80, "n_heads": 64, "head_dim": 128, "seq_len": 8192,
                        "recompute": "selective"}),
    ("pipeline_bubble", {"pp_degree": _sweep(2, 4, 8), "microbatches": 32, "virtual_stages": 2, "schedule": "interleaved"}),
    ("dp_critical_batch", {"peak_flop_per_s": 989e12, "bandwidth_bytes_per_s": 400e9, "model_parallel_span": _sweep(1, 2, 4)}),
    ("activation_memory", {**VALID["activation_memory"], "tp_degree": _sweep(1, 2, 4), "sequence_parallel": False, "recompute": "none"}),
]
RESULTS = [calculators.run(name, inputs) for name, inputs in CASES]


def _placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def _locale_steps(lang: str) -> dict:
    with open(working.data_dir() / "locale" / f"{lang}.json", encoding="utf-8") as handle:
        return json.load(handle)["steps"]


def _numbers(item: dict) -> list[str]:
    """Each number of a step as formatting.human writes it, nested phrases included."""
    texts = []
    for value in item["values"].values():
        if isinstance(value, (tuple, list)):
            texts.append(human(value[0], value[1]))
        elif isinstance(value, dict) and "key" in value:
            texts += _numbers(value)
    return texts


CONVERTED = {"calculators.collectives", "calculators.flops", "calculators.memory", "calculators.parallelism", "calculators.roofline"}


def test_every_converted_calculator_takes_part():
    converted = {name for name in calculators.names() if get(name).compute.__module__ in CONVERTED}
    assert converted <= {name for name, _ in CASES}


def test_every_key_a_calculator_uses_is_in_every_language_with_the_same_placeholders():
    used = set()
    for result in RESULTS + [calculators.run(name, inputs) for name, inputs in SWEEPS]:
        used |= working.keys_of(result["working"])
    english = _locale_steps("en")
    for lang in LANGUAGES:
        assert used <= set(_locale_steps(lang)), f"{lang}.json lacks {sorted(used - set(_locale_steps(lang)))}"
    for lang in LANGUAGES[1:]:
        own = _locale_steps(lang)
        assert set(english) <= set(own), f"{lang}.json falls back to English for {sorted(set(english) - set(own))}"
        for key, template in english.items():
            assert _placeholders(own[key]) == _placeholders(template), key


@pytest.mark.parametrize("result", RESULTS, ids=[name for name, _ in CASES])
def test_english_rendering_is_the_steps_even_after_json(result):
    assert working.render(result["working"], "en") == result["steps"]
    through_json = json.loads(json.dumps(result["working"], allow_nan=False))  # JSON as it is, no jsonable needed
    assert working.render(through_json, "en") == result["steps"]


@pytest.mark.parametrize("result", RESULTS, ids=[name for name, _ in CASES])
def test_arabic_rendering_is_arabic_with_the_same_numbers(result):
    arabic = working.render(result["working"], "ar")
    assert len(arabic) == len(result["steps"])
    letters = "".join(arabic)
    assert len(ARABIC_LETTER.findall(letters)) > len(LATIN_LETTER.findall(letters))  # acronyms, units and formulas stay Latin
    for item, english_line, arabic_line in zip(result["working"], result["steps"], arabic):
        for number in _numbers(item):
            assert number in english_line and number in arabic_line, (item["key"], number)


def test_working_names_a_plain_phrase_by_key_not_by_editing_a_string():
    spanned = calculators.run("dp_critical_batch", VALID["dp_critical_batch"])["working"][0]
    alone = calculators.run("dp_critical_batch", {**VALID["dp_critical_batch"], "model_parallel_span": 1})["working"][0]
    assert spanned["values"]["span_note"]["key"] == "dp_critical_batch.span_note"
    assert alone["values"]["span_note"] == ""


@pytest.mark.parametrize(("name", "inputs"), SWEEPS, ids=[name for name, _ in SWEEPS])
def test_sweeps_keep_only_the_size_of_each_array(name, inputs):
    result = calculators.run(name, inputs)
    plain = json.loads(json.dumps(calculators.jsonable(result["working"]), allow_nan=False))
    assert len(json.dumps(plain)) < 4000  # the arrays themselves are in the outputs, not repeated in the working
    assert working.render(plain, "en") == result["steps"]
    assert any("[3 values]" in line for line in result["steps"])
    assert any("[3 قيمة]" in line for line in working.render(plain, "ar"))


def test_a_key_missing_from_a_language_falls_back_to_english():
    result = calculators.run("roofline", VALID["roofline"])
    partial = {"steps": {"roofline.compute_time": "زمن الحساب: {flops} / {peak} = {time}"}}
    lines = working.render(result["working"], partial)
    assert lines[0].startswith("زمن الحساب: 1.2 PFLOP")
    assert lines[1:] == result["steps"][1:]


def test_an_unknown_key_is_an_error_naming_it():
    with pytest.raises(KeyError, match="no.such.step"):
        working.render([working.step("no.such.step", x=(1.0, "bytes"))], "en")


def test_plain_string_steps_pass_through_unchanged():
    assert working.render([working.text_step("already written"), "also written"], "ar") == ["already written", "also written"]
