"""Every invalid input raises calculators.CalculatorInputError naming the field, and nothing else escapes."""

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import calculators
from calculators import CalculatorInputError
from calculators.registry import get
from calculators.resources import data_dir
from calculators.units import KIND_WORDS, to_number

# One valid input per calculator, written as a user would.
from tests.support.calculator_examples import VALID

NAMES = calculators.names()
NUMERIC = [(name, spec) for name in NAMES for spec in get(name).fields if spec.kind in KIND_WORDS]
REQUIRED = [(name, spec.name) for name in NAMES for spec in get(name).fields if spec.required]
INTEGER = [(name, spec) for name, spec in NUMERIC if spec.integer]
WRONG_UNIT = {  # a quantity of another kind for each unit kind
    "count": "300 ms", "bytes": "900GB/s", "bytes_per_s": "16 GiB", "flop_per_s": "3.1e23 FLOPs", "flops": "989 TFLOP/s",
    "seconds": "80 GB", "fraction": "0.5 s",
}


def _id(case):
    name, spec = case
    return f"{name}.{spec.name}"


def expect_error(name: str, inputs, field: str | None) -> CalculatorInputError:
    with pytest.raises(CalculatorInputError) as caught:
        calculators.run(name, inputs)
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.field == field
    if field is not None:
        assert field in str(error)
    return error


def test_every_calculator_has_a_valid_example():
    assert sorted(VALID) == sorted(NAMES)
    for name in NAMES:
        json.dumps(calculators.jsonable(calculators.run(name, VALID[name])))


def test_unknown_calculator_suggests_close_names():
    error = expect_error("mfuu", {}, None)
    assert "unknown calculator" in str(error) and "mfu" in str(error)
    expect_error("", {}, None)
    expect_error(None, {}, None)


def test_inputs_must_be_an_object():
    expect_error("mfu", ["params", "70B"], None)
    expect_error("mfu", "params=70B", None)


@pytest.mark.parametrize("name", NAMES)
def test_unknown_field(name):
    error = expect_error(name, {**VALID[name], "bogus_field": 1}, "bogus_field")
    assert "is not an input of" in str(error)


def test_unknown_field_suggests_close_names():
    error = expect_error("mfu", {**VALID["mfu"], "n_chip": 8}, "n_chip")
    assert "n_chips" in str(error)


@pytest.mark.parametrize(("name", "field"), REQUIRED, ids=[f"{n}.{f}" for n, f in REQUIRED])
def test_missing_required_field(name, field):
    inputs = {k: v for k, v in VALID[name].items() if k != field}
    error = expect_error(name, inputs, field)
    assert "required" in str(error)
    # None means "not given", which is the same as missing
    expect_error(name, {**inputs, field: None}, field)


@pytest.mark.parametrize("case", NUMERIC, ids=_id)
def test_zero_and_negative(case):
    name, spec = case
    if not spec.allow_zero:
        expect_error(name, {**VALID[name], spec.name: 0}, spec.name)
        expect_error(name, {**VALID[name], spec.name: "0"}, spec.name)
    expect_error(name, {**VALID[name], spec.name: -1}, spec.name)
    expect_error(name, {**VALID[name], spec.name: "-5"}, spec.name)
    expect_error(name, {**VALID[name], spec.name: -1e-9}, spec.name)


@pytest.mark.parametrize("case", NUMERIC, ids=_id)
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, "nan", "NaN", "inf", "-inf", "Infinity", "1e999", np.float64("nan"),
                                 np.inf], ids=repr)
def test_not_finite(case, bad):
    name, spec = case
    error = expect_error(name, {**VALID[name], spec.name: bad}, spec.name)
    assert "finite" in str(error)


@pytest.mark.parametrize("case", NUMERIC, ids=_id)
@pytest.mark.parametrize("bad", ["lots", "", "   ", "GB/s", "seventy billion", "1.2.3", "12 apples", "0x10", "1e", "--5"], ids=repr)
def test_not_a_quantity(case, bad):
    name, spec = case
    expect_error(name, {**VALID[name], spec.name: bad}, spec.name)


@pytest.mark.parametrize("case", NUMERIC, ids=_id)
@pytest.mark.parametrize("bad", [True, False, {"value": 1}, object(), 1 + 2j, b"70B", [], [[1, 2], [3]], [1, None], [True]], ids=repr)
def test_wrong_python_types(case, bad):
    name, spec = case
    expect_error(name, {**VALID[name], spec.name: bad}, spec.name)


@pytest.mark.parametrize("case", NUMERIC, ids=_id)
def test_incompatible_units(case):
    name, spec = case
    error = expect_error(name, {**VALID[name], spec.name: WRONG_UNIT[spec.kind]}, spec.name)
    assert WRONG_UNIT[spec.kind] in str(error)


def test_rate_is_not_a_size_and_operations_are_not_a_rate():
    error = expect_error("collective_time", {**VALID["collective_time"], "size_bytes": "900GB/s"}, "size_bytes")
    assert "bytes" in str(error)
    error = expect_error("mfu", {**VALID["mfu"], "peak_flop_per_s": "989 TFLOPs"}, "peak_flop_per_s")
    assert "FLOP/s" in str(error)


@pytest.mark.parametrize("case", INTEGER, ids=_id)
def test_non_integer_for_integer_fields(case):
    name, spec = case
    error = expect_error(name, {**VALID[name], spec.name: 4.5}, spec.name)
    assert "whole number" in str(error)
    expect_error(name, {**VALID[name], spec.name: "2.5"}, spec.name)


def test_fraction_above_one():
    error = expect_error("training_time", {**VALID["training_time"], "mfu": 1.2}, "mfu")
    assert "at most 1" in str(error)
    expect_error("training_time", {**VALID["training_time"], "mfu": "120%"}, "mfu")
    expect_error("training_time", {**VALID["training_time"], "mfu": 46}, "mfu")  # 46 meant as 46%: refused, not guessed


def test_huge_numbers_name_the_field():
    expect_error("training_flops", {**VALID["training_flops"], "params": 10**400}, "params")


def test_minimum_ranks():
    error = expect_error("collective_time", {**VALID["collective_time"], "n_ranks": 1}, "n_ranks")
    assert "at least 2" in str(error)


@pytest.mark.parametrize(("name", "field", "bad"), [
    ("collective_time", "op", "allreduce_x"),
    ("collective_time", "op", 3),
    ("pipeline_bubble", "schedule", "zero-bubble"),
    ("training_flops", "recompute", "sometimes"),
    ("activation_memory", "recompute", "partial"),
    ("activation_memory", "sequence_parallel", "maybe"),
    ("activation_memory", "sequence_parallel", 2),
])
def test_bad_choices_and_flags(name, field, bad):
    expect_error(name, {**VALID[name], field: bad}, field)


@pytest.mark.parametrize(("name", "change", "field"), [
    ("pp_necessity", {"n_chips": 64, "tp_degree": 8, "pp_degree": 16}, "n_chips"),  # one replica needs 128 chips
    ("dp_critical_batch", {"moe_experts": 8, "moe_top_k": 16}, "moe_top_k"),
    ("dp_critical_batch", {"moe_experts": None, "moe_top_k": 8}, "moe_experts"),
    ("dp_critical_batch", {"moe_experts": 64, "moe_top_k": None}, "moe_top_k"),
    ("training_flops", {"n_heads": None}, "n_heads"),  # attention fields come all together or not at all
    ("mfu", {"global_batch_tokens": None, "step_time_s": None}, "tokens_per_s"),
    ("mfu", {"step_time_s": None}, "step_time_s"),
    ("training_time", {"mfu": None}, "mfu"),
    ("training_time", {"peak_flop_per_s": None}, "peak_flop_per_s"),
    ("nccl_busbw", {"time_s": None}, "time_s"),
    ("nccl_busbw", {"size_bytes": None}, "size_bytes"),
    ("pipeline_bubble", {"schedule": "gpipe", "virtual_stages": 2}, "virtual_stages"),
    ("model_state_memory", {"zero_stage": 4}, "zero_stage"),
])
def test_inconsistent_fields(name, change, field):
    inputs = {k: v for k, v in {**VALID[name], **change}.items() if v is not None}
    expect_error(name, inputs, field)


def test_arrays_are_checked_element_wise():
    inputs = {**VALID["pp_necessity"], "global_batch_tokens": [4e6, -1.0, 8e6]}
    expect_error("pp_necessity", inputs, "global_batch_tokens")
    inputs = {**VALID["pp_necessity"], "tp_degree": np.array([8.0, 4.5])}
    expect_error("pp_necessity", inputs, "tp_degree")
    inputs = {**VALID["pp_necessity"], "n_chips": np.array([4096.0, np.nan])}
    expect_error("pp_necessity", inputs, "n_chips")


# ---------------------------------------------------------------------------------------------------
# chip and model names (data/hardware.json and data/models.json)
# ---------------------------------------------------------------------------------------------------
def _catalog_ids(file: str, key: str) -> list[str]:
    try:
        path = data_dir() / file
    except FileNotFoundError:
        return []
    if not path.is_file():
        return []
    return [entry["id"] for entry in json.loads(path.read_text(encoding="utf-8"))[key]]


CHIP_IDS = _catalog_ids("hardware.json", "chips")
MODEL_IDS = _catalog_ids("models.json", "models")


@pytest.mark.skipif(not CHIP_IDS, reason="data/hardware.json is not there yet")
@pytest.mark.parametrize("chip", CHIP_IDS or ["none"])
def test_unknown_chip_lists_close_matches(chip):
    typo = chip[:-1] + ("x" if chip[-1] != "x" else "y")  # one letter off
    error = expect_error("roofline", {"flops": 1e12, "bytes": 1e9, "chip": typo}, "chip")
    assert "did you mean" in str(error) and chip in str(error)


@pytest.mark.skipif(not CHIP_IDS, reason="data/hardware.json is not there yet")
def test_unknown_chip_far_from_anything():
    error = expect_error("roofline", {"flops": 1e12, "bytes": 1e9, "chip": "abacus-9000"}, "chip")
    assert "unknown chip" in str(error) and CHIP_IDS[0] in str(error)  # the known names are listed
    expect_error("roofline", {"flops": 1e12, "bytes": 1e9, "chip": ""}, "chip")
    expect_error("roofline", {"flops": 1e12, "bytes": 1e9, "chip": 42}, "chip")


@pytest.mark.skipif(not MODEL_IDS, reason="data/models.json is not there yet")
@pytest.mark.parametrize("model", MODEL_IDS or ["none"])
def test_unknown_model_lists_close_matches(model):
    typo = model[:-1] + ("x" if model[-1] != "x" else "y")
    error = expect_error("training_flops", {"model": typo, "tokens": "1T"}, "model")
    assert "did you mean" in str(error) and model in str(error)


@pytest.mark.skipif(not CHIP_IDS, reason="data/hardware.json is not there yet")
def test_chip_not_accepted_where_no_chip_fields():
    expect_error("training_flops", {"params": "7B", "tokens": "1T", "chip": CHIP_IDS[0]}, "chip")


# ---------------------------------------------------------------------------------------------------
# Random junk never escapes as anything but CalculatorInputError
# ---------------------------------------------------------------------------------------------------
UNIT_WORDS = ["GB/s", "Gb/s", "GiB", "B", "b", "TFLOP/s", "FLOPs", "ms", "s", "%", "K", "M", "T", "tokens", "GPUs", "bps", "e", "E",
              ".", ",", "_", "-", "+", " ", "/", "per second", "nan", "inf", "٣", "é", "\x00"]
JUNK_TEXT = st.one_of(
    st.text(max_size=24),
    st.lists(st.sampled_from(UNIT_WORDS + list("0123456789")), max_size=8).map("".join),
    st.builds(lambda n, u: f"{n}{u}", st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(UNIT_WORDS)),
)
JUNK_VALUE = st.one_of(
    JUNK_TEXT,
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**500), max_value=10**500),
    st.none(), st.booleans(),
    st.lists(st.one_of(st.floats(), st.integers(-5, 5), JUNK_TEXT), max_size=3),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(KIND_WORDS)), JUNK_TEXT)
def test_junk_strings_parse_or_raise_input_error(kind, text):
    try:
        value = to_number("field", text, kind)
    except CalculatorInputError as error:
        assert error.field == "field"
    else:
        assert isinstance(value, float) and math.isfinite(value)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES), st.data())
def test_junk_inputs_never_escape(name, data):
    fields = [spec.name for spec in get(name).fields] + ["chip", "model", "not_a_field"]
    field = data.draw(st.sampled_from(fields))
    value = data.draw(JUNK_VALUE)
    inputs = {**VALID[name], field: value}
    try:
        result = calculators.run(name, inputs)
    except CalculatorInputError as error:
        assert error.field in (None, field) or error.field in {spec.name for spec in get(name).fields}
    else:
        json.dumps(calculators.jsonable(result), allow_nan=False)


@pytest.mark.parametrize("text", ["Ax", ":x", "GB×"])
def test_a_factor_that_does_not_read_names_the_field_it_was_given(text):
    # found by test_junk_inputs_never_escape: "Ax" read as the factor "A" once named the internal field "expression"
    with pytest.raises(CalculatorInputError) as caught:
        calculators.run("ratio", {"before": text, "after": "2", "stated_change": "1x"})
    assert caught.value.field == "before"
