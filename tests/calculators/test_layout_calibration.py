"""The planner's fitted numbers are what bench/calibrate.py derives from the calibration runs, and no validation run is one of them."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str) -> dict:
    return json.loads((ROOT / "data" / name).read_text(encoding="utf-8"))


def test_stored_fitted_numbers_are_what_calibration_derives():
    # bench/calibrate.py reads data/calibration_runs.json only; a stored number that drifted from it would not reproduce.
    printed = subprocess.run([sys.executable, str(ROOT / "bench" / "calibrate.py")], capture_output=True, text=True, check=True, timeout=120).stdout
    stored = _load("achievable_fraction.json")
    last = printed.strip().splitlines()[-1]
    assert f"step overhead {stored['step_overhead']['fraction']:.3f}" in last
    assert f"collective latency {stored['collective_latency']['seconds'] * 1e6:g} µs" in last
    assert f"logits: {stored['logits']['bytes_per_element']:.1f} bytes per element" in printed
    assert f"memory line: {stored['memory_line']['fraction']:.0%} of HBM" in printed
    for key in ("step_overhead", "collective_latency", "logits", "memory_reserve", "memory_line", "memory_bound"):
        assert "bench/calibrate.py" in stored[key]["source"]


def test_validation_runs_are_kept_apart_from_calibration_runs():
    calibration = _load("calibration_runs.json")["runs"]
    validation = _load("validation_runs.json")["runs"]
    assert len(validation) >= 25
    assert not {r["id"] for r in calibration} & {r["id"] for r in validation}
    first_author = {r["source"].split(",")[0] for r in calibration}
    assert not first_author & {r["source"].split(",")[0] for r in validation}
    assert "validation_runs" not in (ROOT / "bench" / "calibrate.py").read_text(encoding="utf-8").replace("data/validation_runs.json", "")
    for run in validation:  # every run says where it comes from and how its figure was converted
        assert run["source"] and run["conversion"] and run["tokens_per_s_per_chip"] > 0


def test_each_stack_overhead_is_fitted_on_its_own_calibration_runs_and_moves_the_prediction():
    # bench/calibrate.py prints one line per stack; the stored figures are that line's, and a job naming the stack runs at them.
    sys.path.insert(0, str(ROOT))
    import calculators

    printed = subprocess.run([sys.executable, str(ROOT / "bench" / "calibrate.py")], capture_output=True, text=True, check=True, timeout=120).stdout
    stored = _load("achievable_fraction.json")
    runs = _load("calibration_runs.json")["runs"]
    for stack in ("megatron", "pytorch", "pytorch_compile"):
        count = sum(r["inputs"].get("stack") == stack and bool(r.get("tokens_per_s_per_chip")) for r in runs)
        line = next(x for x in printed.splitlines() if x.startswith(f"stack {stack} ({count} runs): "))
        assert f"step overhead {stored['stacks'][stack]['step_overhead']:.3f}" in line
    assert f"memory-bound passes {stored['stacks']['pytorch']['memory_bound_passes']:g}" in printed
    # Every eager run with a compiled twin is a calibration run, and so is its twin.
    ids = {r["id"] for r in runs}
    assert all(r["compiled_twin"] in ids for r in runs if r.get("compiled_twin"))
    # Source: Narayanan et al. 2021 Table 1, 1.7B on 32 A100 (the calibration case megatron-1.7B): only the overhead differs by stack
    # between generic and pytorch_compile (both at the generic memory-bound passes).
    inputs = next(r["inputs"] for r in runs if r["id"] == "megatron-1.7B")
    speed = {stack: calculators.run("evaluate_layout", {**inputs, "stack": stack})["outputs"]["tokens_per_s_per_chip"]
             for stack in ("generic", "pytorch_compile", "pytorch")}
    ratio = stored["stacks"]["pytorch_compile"]["step_overhead"] / stored["step_overhead"]["fraction"]
    assert abs(speed["pytorch_compile"] / speed["generic"] - ratio) < 1e-6
    assert speed["pytorch"] < speed["pytorch_compile"]  # eager runs more element-wise passes at the same overhead
