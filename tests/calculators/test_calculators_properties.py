"""Properties every calculator keeps: monotonicity, unit round-trips, vectorised = scalar, JSON, schemas."""

import json
import math

import jsonschema_rs
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import calculators
from calculators.formatting import human
from calculators.registry import get
from calculators.units import KIND_WORDS, to_number

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def out(name, inputs):
    return calculators.run(name, inputs)["outputs"]


positive = st.floats(min_value=1e-3, max_value=1e6, allow_nan=False, allow_infinity=False)
params = st.floats(min_value=1e6, max_value=2e12)
tokens = st.floats(min_value=1e6, max_value=1e14)
power_of_two = st.integers(min_value=0, max_value=7).map(lambda e: 2**e)


def two_increasing(strategy, ratio=1.0001):
    """Two values a < b with b at least `ratio` times a."""
    return st.tuples(strategy, strategy).map(sorted).filter(lambda ab: ab[1] >= ab[0] * ratio)


# ---------------------------------------------------------------------------------------------------
# Monotonicity
# ---------------------------------------------------------------------------------------------------
@FAST
@given(two_increasing(params), tokens, st.booleans())
def test_training_flops_increase_with_params(ps, d, attention):
    extra = {"n_layers": 32, "n_heads": 32, "head_dim": 128, "seq_len": 4096} if attention else {}
    small, large = (out("training_flops", {"params": p, "tokens": d, **extra}) for p in ps)
    assert large["total_flops"] > small["total_flops"]
    assert large["flops_per_token"] > small["flops_per_token"]


@FAST
@given(params, two_increasing(tokens), st.sampled_from(["none", "selective", "full"]))
def test_training_flops_increase_with_tokens(p, ds, recompute):
    small, large = (out("training_flops", {"params": p, "tokens": d, "recompute": recompute}) for d in ds)
    assert large["total_flops"] > small["total_flops"]
    assert small["hardware_flops_per_token"] >= small["flops_per_token"]


@FAST
@given(two_increasing(params), st.sampled_from([0, 1, 2, 3]), st.integers(min_value=1, max_value=4096),
       st.sampled_from([16, 20, 18, 10, 12]))
def test_model_state_memory_increases_with_params(ps, stage, dp, bytes_per_param):
    small, large = (out("model_state_memory", {"params": p, "zero_stage": stage, "dp_degree": dp, "bytes_per_param": bytes_per_param})
                    for p in ps)
    assert large["bytes_total"] > small["bytes_total"]
    assert large["bytes_per_chip"] > small["bytes_per_chip"]


@FAST
@given(params, st.sampled_from([0, 1, 2, 3]), two_increasing(st.integers(min_value=1, max_value=4096).map(float)))
def test_model_state_memory_per_chip_shrinks_with_more_sharding(p, stage, dps):
    fewer, more = (out("model_state_memory", {"params": p, "zero_stage": stage, "dp_degree": dp}) for dp in dps)
    assert more["bytes_per_chip"] <= fewer["bytes_per_chip"]
    assert more["bytes_total"] == fewer["bytes_total"]
    stages = [out("model_state_memory", {"params": p, "zero_stage": s, "dp_degree": dps[1]})["bytes_per_chip"] for s in range(4)]
    assert stages == sorted(stages, reverse=True)


@FAST
@given(two_increasing(st.integers(min_value=1, max_value=128).map(float)), st.integers(min_value=1, max_value=512),
       st.integers(min_value=1, max_value=4), st.sampled_from(["1f1b", "gpipe", "interleaved"]))
def test_bubble_increases_with_pp_degree(ps, m, v, schedule):
    v = v if schedule == "interleaved" else 1
    small, large = (out("pipeline_bubble", {"pp_degree": p, "microbatches": m, "virtual_stages": v, "schedule": schedule}) for p in ps)
    assert large["bubble_fraction"] > small["bubble_fraction"]
    assert large["bubble_over_ideal"] > small["bubble_over_ideal"]


@FAST
@given(st.integers(min_value=2, max_value=128), two_increasing(st.integers(min_value=1, max_value=4096).map(float)),
       st.integers(min_value=1, max_value=4), st.sampled_from(["1f1b", "gpipe", "interleaved"]))
def test_bubble_decreases_with_microbatches(p, ms, v, schedule):
    v = v if schedule == "interleaved" else 1
    few, many = (out("pipeline_bubble", {"pp_degree": p, "microbatches": m, "virtual_stages": v, "schedule": schedule}) for m in ms)
    assert many["bubble_fraction"] < few["bubble_fraction"]
    assert many["bubble_over_ideal"] < few["bubble_over_ideal"]
    assert 0 <= many["bubble_fraction"] < 1


@FAST
@given(st.integers(min_value=2, max_value=64), st.integers(min_value=1, max_value=256), two_increasing(st.integers(1, 8).map(float)))
def test_interleaving_shrinks_bubble_and_costs_memory(p, m, vs):
    fewer, more = (out("pipeline_bubble", {"pp_degree": p, "microbatches": m, "virtual_stages": v, "schedule": "interleaved"}) for v in vs)
    assert more["bubble_fraction"] < fewer["bubble_fraction"]
    assert more["activation_memory_factor"] <= fewer["activation_memory_factor"]
    assert more["activation_memory_factor"] >= 1


@FAST
@given(st.floats(min_value=1e12, max_value=1e16), two_increasing(st.floats(min_value=1e9, max_value=1e13)),
       st.sampled_from([None, (8, 2), (256, 8), (384, 8)]))
def test_critical_batch_decreases_with_bandwidth(peak, bws, moe):
    extra = {"moe_experts": moe[0], "moe_top_k": moe[1]} if moe else {}
    narrow, wide = (out("dp_critical_batch", {"peak_flop_per_s": peak, "bandwidth_bytes_per_s": bw, **extra}) for bw in bws)
    assert wide["critical_tokens_per_chip"] < narrow["critical_tokens_per_chip"]


@FAST
@given(st.floats(min_value=1e12, max_value=1e16), st.floats(min_value=1e9, max_value=1e13), two_increasing(st.integers(1, 64).map(float)))
def test_critical_batch_decreases_with_model_parallel_span(peak, bw, spans):
    small, large = (out("dp_critical_batch", {"peak_flop_per_s": peak, "bandwidth_bytes_per_s": bw, "model_parallel_span": s}) for s in spans)
    assert large["critical_tokens_per_chip"] < small["critical_tokens_per_chip"]


@FAST
@given(st.floats(min_value=1e5, max_value=1e9), st.sampled_from([256, 1024, 4096, 16384]),
       two_increasing(st.floats(min_value=1e10, max_value=1e13)), power_of_two, power_of_two)
def test_pp_necessity_monotone_in_bandwidth(batch, n, bws, tp, pp):
    assume(tp * pp <= n)
    base = {"global_batch_tokens": batch, "n_chips": n, "peak_flop_per_s": 989e12, "chips_per_node": 8, "tp_degree": tp, "pp_degree": pp}
    narrow, wide = (out("pp_necessity", {**base, "dp_bandwidth_bytes_per_s": bw}) for bw in bws)
    assert wide["critical_tokens_per_chip"] < narrow["critical_tokens_per_chip"]
    assert wide["comm_to_compute_ratio"] < narrow["comm_to_compute_ratio"]
    assert wide["dp_comm_bound"] <= narrow["dp_comm_bound"]  # wider links never make it comm-bound


@FAST
@given(st.floats(min_value=1e5, max_value=1e9), st.sampled_from([1024, 4096, 16384]), st.floats(min_value=1e10, max_value=1e13),
       st.sampled_from([1, 2, 4, 8]), st.sampled_from([None, (64, 8), (256, 8)]))
def test_min_pp_degree_lifts_out_of_comm_bound(batch, n, bw, tp, moe):
    """Using the min_pp_degree the calculator proposes really makes the job compute-bound (or none fits)."""
    extra = {"moe_experts": moe[0], "moe_top_k": moe[1]} if moe else {}
    base = {"global_batch_tokens": batch, "n_chips": n, "peak_flop_per_s": 989e12, "dp_bandwidth_bytes_per_s": bw, "chips_per_node": 8,
            "tp_degree": tp, **extra}
    first = out("pp_necessity", base)
    if first["min_pp_degree"] is None:
        assert first["dp_comm_bound"]
        return
    pp = first["min_pp_degree"]
    again = out("pp_necessity", {**base, "pp_degree": pp})
    assert not again["dp_comm_bound"]
    if pp > 1:  # and half of it is not enough
        assert out("pp_necessity", {**base, "pp_degree": pp // 2})["dp_comm_bound"]


@FAST
@given(st.floats(min_value=1e5, max_value=1e9), st.sampled_from([1024, 4096, 16384]), st.floats(min_value=1e10, max_value=1e13),
       st.sampled_from([1, 8]), st.sampled_from([1, 2, 4, 8, 16]))
def test_pp_necessity_verdict_agrees_with_its_numbers(batch, n, bw, tp, pp):
    result = out("pp_necessity", {"global_batch_tokens": batch, "n_chips": n, "peak_flop_per_s": 989e12, "dp_bandwidth_bytes_per_s": bw,
                                  "chips_per_node": 8, "tp_degree": tp, "pp_degree": pp})
    verdict = result["verdict"]
    if result["dp_comm_bound"]:
        assert verdict.startswith("DP-communication bound")
    else:
        assert verdict.startswith("compute-bound")
        if result["min_pp_degree"] is None or result["min_pp_degree"] > 1:  # it needs the pipeline it has
            assert "without pipeline parallelism" not in verdict


@FAST
@given(two_increasing(st.floats(min_value=1, max_value=1e12)), st.integers(2, 1024), positive,
       st.sampled_from(["all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast"]))
def test_collective_time_increases_with_size_and_falls_with_bandwidth(sizes, n, bw_gb, op):
    small, large = (out("collective_time", {"op": op, "size_bytes": s, "n_ranks": n, "bandwidth_bytes_per_s": f"{bw_gb!r} GB/s"})
                    for s in sizes)
    assert large["time_s"] > small["time_s"]
    faster = out("collective_time", {"op": op, "size_bytes": sizes[0], "n_ranks": n, "bandwidth_bytes_per_s": f"{bw_gb * 2!r} GB/s"})
    assert faster["time_s"] < small["time_s"]
    assert small["busbw_bytes_per_s"] == pytest.approx(bw_gb * 1e9, rel=1e-9)  # no latency: the ring reaches the bus bandwidth


@FAST
@given(st.floats(min_value=1e3, max_value=1e9), st.integers(1, 8192), st.floats(min_value=1e12, max_value=5e15), params,
       st.sampled_from(["none", "selective", "full"]))
def test_mfu_and_hfu(tokens_per_s, n, peak, p, recompute):
    attention = {"n_layers": 32, "n_heads": 32, "head_dim": 128, "seq_len": 4096}
    first = out("mfu", {"params": p, "n_chips": n, "peak_flop_per_s": peak, "tokens_per_s": tokens_per_s, "recompute": recompute, **attention})
    faster = out("mfu", {"params": p, "n_chips": n, "peak_flop_per_s": peak, "tokens_per_s": tokens_per_s * 1.5, "recompute": recompute,
                         **attention})
    assert faster["mfu"] > first["mfu"]
    assert first["hfu"] >= first["mfu"]
    assert (first["hfu"] > first["mfu"]) == (recompute != "none")


@FAST
@given(st.integers(128, 32768), st.integers(1, 64), st.sampled_from([1024, 4096, 8192, 12288]), st.sampled_from([8, 16, 32, 64]),
       st.sampled_from([1, 2, 4, 8]), st.booleans(), st.sampled_from(["none", "selective", "full"]))
def test_activation_memory_monotone(s, b, h, a, t, sp, recompute):
    base = {"seq_len": s, "micro_batch": b, "d_model": h, "n_heads": a, "n_layers": 24, "tp_degree": t, "sequence_parallel": sp,
            "recompute": recompute}
    first = out("activation_memory", base)
    assert out("activation_memory", {**base, "seq_len": s * 2})["bytes_per_layer"] > first["bytes_per_layer"]
    assert out("activation_memory", {**base, "micro_batch": b + 1})["bytes_per_layer"] > first["bytes_per_layer"]
    assert out("activation_memory", {**base, "n_layers": 48})["bytes_total"] == pytest.approx(2 * first["bytes_total"])
    none = out("activation_memory", {**base, "recompute": "none"})["bytes_per_layer"]
    assert first["bytes_per_layer"] <= none  # recomputation never costs memory


@FAST
@given(st.floats(min_value=1, max_value=1e18), st.floats(min_value=1, max_value=1e12), st.floats(min_value=1e12, max_value=5e15),
       st.floats(min_value=1e11, max_value=1e13))
def test_roofline_is_the_max_of_both_times(flops, moved, peak, bw):
    result = out("roofline", {"flops": flops, "bytes": moved, "peak_flop_per_s": peak, "memory_bandwidth_bytes_per_s": bw})
    assert result["time_s"] == pytest.approx(max(flops / peak, moved / bw))
    assert result["bound"] == ("compute" if flops / moved >= peak / bw else "memory")


# ---------------------------------------------------------------------------------------------------
# Unit round-trips: format, then parse back
# ---------------------------------------------------------------------------------------------------
magnitude = st.floats(min_value=1e-3, max_value=1e5, allow_nan=False, allow_infinity=False)


@FAST
@given(magnitude, st.sampled_from([("{} GB/s", "bytes_per_s", 1e9), ("{}GB/s", "bytes_per_s", 1e9), ("{} Gb/s", "bytes_per_s", 1e9 / 8),
                                   ("{} GiB", "bytes", 2.0**30), ("{}GiB", "bytes", 2.0**30), ("{} TB", "bytes", 1e12),
                                   ("{}B", "count", 1e9), ("{} B", "count", 1e9), ("{}M", "count", 1e6), ("{}K", "count", 1e3),
                                   ("{} TFLOP/s", "flop_per_s", 1e12), ("{} PFLOP/s", "flop_per_s", 1e15), ("{} ms", "seconds", 1e-3),
                                   ("{} us", "seconds", 1e-6), ("{} days", "seconds", 86400.0)]))
def test_format_then_parse(x, pattern):
    template, kind, scale = pattern
    for written in (repr(x), f"{x:g}", f"{x:.6f}"):
        expected = float(written) * scale
        assume(expected > 0)
        assert to_number("field", template.format(written), kind) == pytest.approx(expected, rel=1e-12)


@FAST
@given(magnitude)
def test_percent_round_trip(x):
    fraction = x / 1e5  # 0..1
    assume(fraction > 0)
    assert to_number("mfu", f"{fraction * 100!r}%", "fraction") == pytest.approx(fraction, rel=1e-12)


@FAST
@given(st.floats(min_value=1e-9, max_value=1e27), st.sampled_from(["bytes_per_s", "bytes", "flop_per_s", "flops", "seconds", "count"]))
def test_human_text_parses_back(value, kind):
    """What the steps print ("400 GB/s", "2,475", "3.5 days") reads back as the same quantity, to its 4 digits
    (3 digits for FLOP counts from 1e21, which print in scientific notation)."""
    assume(kind != "count" or value >= 1)
    text = human(value, kind)
    digits = 3 if kind == "flops" and value >= 1e21 else 4
    assert to_number("field", text, kind) == pytest.approx(value, rel=0.51 * 10 ** (1 - digits))


@FAST
@given(st.floats(min_value=1e-4, max_value=1.0))
def test_human_fraction_parses_back(value):
    assert to_number("mfu", human(value, "fraction"), "fraction") == pytest.approx(value, rel=6e-4)


# ---------------------------------------------------------------------------------------------------
# Vectorised calls equal scalar calls element-wise
# ---------------------------------------------------------------------------------------------------
def _rows(inputs: dict, n: int) -> list[dict]:
    return [{k: (v[i] if isinstance(v, list) else v) for k, v in inputs.items()} for i in range(n)]


def _element(value, i):
    return value[i] if isinstance(value, np.ndarray) and value.ndim else value


def _assert_vector_equals_scalars(name, inputs, n, skip=()):
    vector = out(name, {k: (np.array(v, dtype=float) if isinstance(v, list) else v) for k, v in inputs.items()})
    for i, row in enumerate(_rows(inputs, n)):
        scalar = out(name, row)
        for key, value in scalar.items():
            if key in skip:
                continue
            got = _element(vector[key], i)
            if isinstance(value, (bool, str)) or value is None:
                assert (None if isinstance(got, float) and math.isnan(got) else got) == value, (key, i)
            else:
                assert float(got) == pytest.approx(value, rel=1e-12), (key, i)


configs = st.integers(min_value=1, max_value=6)


@FAST
@given(configs, st.data())
def test_pp_necessity_vectorised(n, data):
    batch = data.draw(st.lists(st.floats(1e4, 1e9), min_size=n, max_size=n))
    chips = data.draw(st.lists(st.sampled_from([512.0, 2048.0, 8192.0, 32768.0]), min_size=n, max_size=n))
    tp = data.draw(st.lists(st.sampled_from([1.0, 2.0, 4.0, 8.0]), min_size=n, max_size=n))
    pp = data.draw(st.lists(st.sampled_from([1.0, 4.0, 16.0]), min_size=n, max_size=n))
    bw = data.draw(st.lists(st.floats(5e10, 4e12), min_size=n, max_size=n))
    moe = data.draw(st.sampled_from([{}, {"moe_experts": 256, "moe_top_k": 8}]))
    inputs = {"global_batch_tokens": batch, "n_chips": chips, "peak_flop_per_s": 989e12, "dp_bandwidth_bytes_per_s": bw,
              "chips_per_node": 8, "tp_degree": tp, "pp_degree": pp, **moe}
    # vectorised verdicts are codes (compute_bound, needs_pp, pp_cannot_fix); scalar verdicts are sentences
    _assert_vector_equals_scalars("pp_necessity", inputs, n, skip=("verdict",))
    vector = out("pp_necessity", {k: (np.array(v) if isinstance(v, list) else v) for k, v in inputs.items()})
    for i, row in enumerate(_rows(inputs, n)):
        scalar = out("pp_necessity", row)
        code = {True: "needs_pp" if scalar["min_pp_degree"] is not None else "pp_cannot_fix", False: "compute_bound"}[scalar["dp_comm_bound"]]
        assert _element(vector["verdict"], i) == code


@FAST
@given(configs, st.data())
def test_other_calculators_vectorised(n, data):
    floats = lambda lo, hi: data.draw(st.lists(st.floats(lo, hi), min_size=n, max_size=n))  # noqa: E731
    ints = lambda lo, hi: [float(x) for x in data.draw(st.lists(st.integers(lo, hi), min_size=n, max_size=n))]  # noqa: E731
    _assert_vector_equals_scalars("dp_critical_batch", {"peak_flop_per_s": floats(1e13, 5e15), "bandwidth_bytes_per_s": floats(1e10, 1e13),
                                                        "model_parallel_span": ints(1, 16)}, n)
    _assert_vector_equals_scalars("training_flops", {"params": floats(1e6, 1e12), "tokens": floats(1e6, 1e13), "n_layers": ints(1, 128),
                                                     "n_heads": ints(1, 128), "head_dim": 128, "seq_len": ints(128, 32768),
                                                     "recompute": data.draw(st.sampled_from(["none", "selective", "full"]))}, n)
    _assert_vector_equals_scalars("mfu", {"params": floats(1e6, 1e12), "n_chips": ints(1, 4096), "peak_flop_per_s": 989e12,
                                          "global_batch_tokens": floats(1e3, 1e8), "step_time_s": floats(0.01, 100)}, n)
    _assert_vector_equals_scalars("training_time", {"params": floats(1e6, 1e12), "tokens": floats(1e6, 1e13), "n_chips": ints(1, 4096),
                                                    "peak_flop_per_s": 989e12, "mfu": floats(0.01, 1.0)}, n)
    _assert_vector_equals_scalars("collective_time", {"op": data.draw(st.sampled_from(["all_reduce", "all_gather", "broadcast"])),
                                                      "size_bytes": floats(1, 1e11), "n_ranks": ints(2, 1024),
                                                      "bandwidth_bytes_per_s": floats(1e9, 1e12), "latency_s": floats(0, 1e-4)}, n)
    _assert_vector_equals_scalars("nccl_busbw", {"op": "all_reduce", "n_ranks": ints(2, 1024), "size_bytes": floats(1, 1e11),
                                                 "time_s": floats(1e-6, 1)}, n)
    _assert_vector_equals_scalars("pipeline_bubble", {"pp_degree": ints(1, 64), "microbatches": ints(1, 512), "virtual_stages": ints(1, 4),
                                                      "schedule": "interleaved"}, n)
    _assert_vector_equals_scalars("pipeline_bubble", {"pp_degree": ints(1, 64), "microbatches": ints(1, 512), "schedule": "gpipe"}, n)
    _assert_vector_equals_scalars("model_state_memory", {"params": floats(1e6, 1e12), "dp_degree": ints(1, 1024),
                                                         "zero_stage": data.draw(st.sampled_from([0, 1, 2, 3]))}, n)
    _assert_vector_equals_scalars("activation_memory", {"seq_len": ints(128, 32768), "micro_batch": ints(1, 16), "d_model": ints(256, 16384),
                                                        "n_heads": ints(1, 128), "n_layers": ints(1, 128), "tp_degree": ints(1, 8),
                                                        "sequence_parallel": data.draw(st.booleans()),
                                                        "recompute": data.draw(st.sampled_from(["none", "selective", "full"]))}, n)
    _assert_vector_equals_scalars("roofline", {"flops": floats(1, 1e18), "bytes": floats(1, 1e12), "peak_flop_per_s": floats(1e12, 5e15),
                                               "memory_bandwidth_bytes_per_s": floats(1e11, 1e13)}, n)


def test_activation_memory_mixed_tp_degrees_vectorised():
    """A sweep that mixes tp_degree 1 and 8 uses each row's own formula."""
    inputs = {"seq_len": 2048, "micro_batch": 1, "d_model": 12288, "n_heads": 96, "n_layers": 96, "tp_degree": [1.0, 8.0]}
    _assert_vector_equals_scalars("activation_memory", inputs, 2)


def test_million_configuration_sweep_is_json_serialisable():
    rng = np.random.default_rng(7)
    n = 10_000
    result = calculators.run("pp_necessity", {"global_batch_tokens": rng.uniform(1e3, 1e8, n), "n_chips": 4096.0,
                                              "peak_flop_per_s": 989e12, "dp_bandwidth_bytes_per_s": rng.uniform(1e10, 1e12, n),
                                              "chips_per_node": 8, "tp_degree": 8})
    text = json.dumps(calculators.jsonable(result), allow_nan=False)
    assert len(json.loads(text)["outputs"]["verdict"]) == n


# ---------------------------------------------------------------------------------------------------
# Results are JSON with the DESIGN.md shape; schemas are JSON Schema with every field
# ---------------------------------------------------------------------------------------------------
from tests.support.calculator_examples import VALID  # noqa: E402  (one valid example per calculator)

NAMES = calculators.names()


@pytest.mark.parametrize("name", NAMES)
def test_result_shape_and_json(name):
    result = calculators.run(name, VALID[name])
    assert list(result) == ["calculator", "inputs", "outputs", "steps", "assumptions", "warnings", "sources", "working", "notes"]
    assert result["calculator"] == name
    for key in ("steps", "assumptions", "sources"):
        assert result[key] and all(isinstance(line, str) and line for line in result[key])
    plain = calculators.jsonable(result)
    assert json.loads(json.dumps(plain, allow_nan=False)) == plain
    assert set(result["inputs"]) == {f.name for f in get(name).fields}  # every input after defaults is shown


@FAST
@given(st.sampled_from(NAMES), st.data())
def test_random_valid_results_are_json(name, data):
    inputs = dict(VALID[name])
    numeric = [f for f in get(name).fields if f.kind in KIND_WORDS and f.name in inputs and f.kind != "fraction"]
    for spec in data.draw(st.lists(st.sampled_from(numeric), max_size=3, unique_by=lambda f: f.name)) if numeric else []:
        base = to_number(spec.name, inputs[spec.name], spec.kind)
        factor = data.draw(st.sampled_from([1, 2, 4]))
        inputs[spec.name] = base * factor
    try:
        result = calculators.run(name, inputs)
    except calculators.CalculatorInputError:
        return  # e.g. a replica that no longer fits; the error tests cover these
    json.dumps(calculators.jsonable(result), allow_nan=False)


@pytest.mark.parametrize("name", NAMES)
def test_schema_is_json_schema_with_every_field(name):
    schema = calculators.schema(name)
    jsonschema_rs.meta.validate(schema)  # a valid JSON Schema document (draft 2020-12)
    calculator = get(name)
    assert schema["type"] == "object" and schema["title"] == name and schema["description"]
    assert schema["additionalProperties"] is False
    expected = {f.name for f in calculator.fields} | ({"chip"} if calculator.takes_chip else set()) | ({"model"} if calculator.takes_model else set())
    assert set(schema["properties"]) == expected
    assert set(schema["required"]) == {f.name for f in calculator.fields if f.required}
    for spec in calculator.fields:
        prop = schema["properties"][spec.name]
        assert prop["description"]
        if spec.kind == "choice":
            assert prop["enum"] == list(spec.choices)
    validator = jsonschema_rs.validator_for(schema)
    assert validator.is_valid(VALID[name])
    assert not validator.is_valid({**VALID[name], "unknown_field": 1})
    json.dumps(schema)


def test_names_summaries_and_unknown_schema():
    assert len(NAMES) == len(set(NAMES)) >= 11
    for name in NAMES:
        assert calculators.summary(name)
    with pytest.raises(calculators.CalculatorInputError):
        calculators.schema("no_such_calculator")
