"""Derive the planner's fitted numbers from the calibration runs only (data/calibration_runs.json) and print them; --write stores them.

Fitted here, in this order, each with the runs it comes from:
  1. logits bytes per element and the allocator reserve: least squares on the measured peak memory of the H100 runs;
  2. the memory line: the share of HBM under which every calibration run that ran fits and above which every one that ran out lies;
  3. the collective latency per ring step, the memory-bound kernel passes and the step overhead: the latency and passes (on a grid)
     whose step overhead, the median ratio of published to modelled throughput, leaves the smallest spread of the calibration runs' errors.
Validation runs (data/validation_runs.json) are never read here.
"""

import argparse
import json
import math
import re
import statistics
import sys
from datetime import date
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import calculators  # noqa: E402
from calculators.layout_inputs import efficiencies  # noqa: E402
from calculators.resources import data_dir  # noqa: E402

LATENCIES = (0.0, 2e-6, 5e-6, 10e-6, 20e-6, 40e-6)
PASSES = (1.0, 1.5, 2.0, 3.0, 4.0)
EAGER_PASSES = tuple(round(1.0 + 0.1 * i, 1) for i in range(51))  # 1 to 6: eager PyTorch's memory-bound passes, from compiled twins


def calibration_runs() -> list[dict]:
    return json.loads((data_dir() / "calibration_runs.json").read_text(encoding="utf-8"))["runs"]


def outputs(run: dict) -> dict:
    return calculators.run("evaluate_layout", run["inputs"])["outputs"]


def fit_memory(table: dict, runs: list[dict]) -> dict:
    """Logits bytes per element and reserve fraction that reproduce the measured peaks (least squares, both at least 0)."""
    measured = [r for r in runs if r.get("peak_memory_bytes")]
    table["logits"]["bytes_per_element"], table["memory_reserve"]["fraction"] = 0.0, 0.0
    rows, target = [], []
    for run in measured:
        out = outputs(run)
        parts = out["memory_breakdown_bytes"]
        tokens = run["inputs"]["global_batch_tokens"] / run["inputs"].get("cp_degree", 1) / (out["layout"]["dp_degree"] * out["layout"]["pp_degree"])
        tokens = min(tokens, run["inputs"]["seq_len"] * out["layout"]["micro_batch"])
        logits = tokens * run["inputs"]["vocab_size"] / out["layout"]["tp_degree"]
        base = sum(parts.values())
        # peak = base + logits x b + f x (activations + buffers + logits x b): linear in (b, f, f b); solved for b with f = 0 first
        rows.append((logits, parts["activations"] + parts["buffers"]))
        target.append(run["peak_memory_bytes"] - base)
    best = None
    for fraction in np.linspace(0.0, 0.3, 31):
        for per_element in np.linspace(2.0, 20.0, 37):
            error = sum(((1 + fraction) * logits * per_element + fraction * acts - want) ** 2 for (logits, acts), want in zip(rows, target))
            if best is None or error < best[0]:
                best = (error, per_element, fraction)
    _, per_element, fraction = best
    table["logits"]["bytes_per_element"], table["memory_reserve"]["fraction"] = float(per_element), float(fraction)
    return {"runs": [r["id"] for r in measured], "bytes_per_element": float(per_element), "reserve_fraction": float(fraction),
            "predicted_vs_measured": [(r["id"], outputs(r)["memory_bytes_per_chip"], r["peak_memory_bytes"]) for r in measured]}


def fit_memory_line(table: dict, runs: list[dict]) -> dict:
    """The share of HBM between the fullest calibration run that ran and the emptiest that ran out; at most the whole HBM."""
    ran = [outputs(r)["memory_fraction_of_hbm"] for r in runs if r.get("ran", True)]
    out_of_memory = [outputs(r)["memory_fraction_of_hbm"] for r in runs if not r.get("ran", True)]
    upper = min(out_of_memory) if out_of_memory else 1.0
    line = min(1.0, upper)  # never above the whole HBM: a run that ran while predicted above it is a miss of the memory model, not room
    table["memory_line"]["fraction"] = round(line, 3)
    return {"largest_ran": max(ran), "smallest_out_of_memory": upper, "line": table["memory_line"]["fraction"]}


def fit_latency_and_overhead(table: dict, runs: list[dict]) -> dict:
    """Latency, memory-bound passes and step overhead (median ratio) leaving the smallest spread over all runs; then each stack's."""
    timed = [r for r in runs if r.get("tokens_per_s_per_chip")]
    table["stacks"] = {}  # every run at the generic figures while they are fitted
    ratios = {}
    for passes in PASSES:
        for latency in LATENCIES:
            table["collective_latency"]["seconds"], table["step_overhead"]["fraction"] = latency, 1.0
            table["memory_bound"]["passes"] = passes
            ratios[passes, latency] = {r["id"]: r["tokens_per_s_per_chip"] / outputs(r)["tokens_per_s_per_chip"] for r in timed}

    def fit(ids, grid):  # (spread, latency, passes, overhead) of the best point of the grid for these runs
        trials = []
        for passes, latency in grid:
            values = [ratios[passes, latency][i] for i in ids]
            overhead = min(statistics.median(values), 1.0)
            spread = statistics.median(abs(math.log(x / overhead)) for x in values)
            trials.append((round(spread, 4), latency, passes, overhead))
        return min(trials), trials

    (spread, latency, passes, overhead), trials = fit([r["id"] for r in timed], list(ratios))
    table["collective_latency"]["seconds"], table["step_overhead"]["fraction"] = latency, round(overhead, 3)
    table["memory_bound"]["passes"] = passes
    stacks = fit_stacks(table, timed, passes, latency)
    table["stacks"] = {name: {key: f[key] for key in ("step_overhead", "memory_bound_passes") if key in f} for name, f in stacks.items()}
    return {"runs": len(timed), "trials": trials, "latency": latency, "passes": passes, "overhead": table["step_overhead"]["fraction"],
            "spread": spread, "stacks": stacks}


def fit_stacks(table: dict, timed: list[dict], passes: float, latency: float) -> dict:
    """Each stack's step overhead over its own runs; eager PyTorch's memory-bound passes from its runs' compiled twins.

    A calibration run of stack 'pytorch' (eager) may name its 'compiled_twin': the same job under torch.compile, which fuses the
    element-wise kernels into one read and write (the generic passes). The eager passes are the value at which the modelled
    eager/compiled throughput ratio matches the published one (median over the pairs); pytorch and pytorch_compile then share
    one step overhead, the median over both, so that the pairs' contrast is left to the passes alone.
    """
    by_id = {r["id"]: r for r in timed}
    table["collective_latency"]["seconds"], table["step_overhead"]["fraction"], table["stacks"] = latency, 1.0, {}

    def speed(run, run_passes):
        table["memory_bound"]["passes"] = run_passes
        return outputs(run)["tokens_per_s_per_chip"]

    pairs = [(r, by_id[r["compiled_twin"]]) for r in timed if r.get("compiled_twin")]
    eager_passes = None
    if pairs:
        found = []
        for eager, twin in pairs:
            published = eager["tokens_per_s_per_chip"] / twin["tokens_per_s_per_chip"]
            compiled = speed(twin, passes)
            found.append(min(EAGER_PASSES, key=lambda p: abs(math.log(speed(eager, p) / compiled / published))))
        eager_passes = float(statistics.median(found))
    stack_of = {r["id"]: r["inputs"].get("stack", "generic") for r in timed}
    family = {"pytorch_compile": "pytorch"}
    stacks = {}
    for stack in sorted(set(stack_of.values()) - {"generic"}):
        group = family.get(stack, stack)
        ids = [i for i, s in stack_of.items() if family.get(s, s) == group]
        ratios = [by_id[i]["tokens_per_s_per_chip"] / speed(by_id[i], eager_passes if stack_of[i] == "pytorch" and eager_passes else passes)
                  for i in ids]
        overhead = min(statistics.median(ratios), 1.0)
        stacks[stack] = {"step_overhead": round(overhead, 3), "runs": [i for i in ids if stack_of[i] == stack], "fitted_on": ids,
                         "spread": round(statistics.median(abs(math.log(x / overhead)) for x in ratios), 4)}
        if stack == "pytorch" and eager_passes:
            stacks[stack] |= {"memory_bound_passes": eager_passes, "pairs": [(e["id"], t["id"]) for e, t in pairs], "pair_passes": found}
    table["memory_bound"]["passes"] = passes
    return stacks


def write(table: dict, memory: dict, line: dict, timing: dict) -> None:
    """Store the fitted numbers in data/achievable_fraction.json with how and when they were obtained."""
    path = data_dir() / "achievable_fraction.json"
    stored = json.loads(path.read_text(encoding="utf-8"))
    today = date.today().isoformat()
    how = f"fitted by bench/calibrate.py on {today} from data/calibration_runs.json only"
    stored["logits"] = {**stored["logits"], "bytes_per_element": table["logits"]["bytes_per_element"], "source": (
        f"{how}: least squares on the measured peak memory of {', '.join(memory['runs'])} (measured on an H100 80GB HBM3, 2026-11): "
        "bf16 logits, their fp32 copy for the softmax and its gradient held together at the loss")}
    stored["memory_reserve"] = {"fraction": table["memory_reserve"]["fraction"], "bytes": 0.0, "source": (
        f"{how}: the share of activations and buffers the caching allocator holds beyond them (fragmentation), same fit as 'logits'")}
    stored["memory_line"] = {"fraction": table["memory_line"]["fraction"], "source": (
        f"{how}: with logits and the allocator reserve counted, the largest calibration run that ran needs {line['largest_ran']:.0%} of HBM "
        f"and the smallest that ran out of memory {line['smallest_out_of_memory']:.0%}; the line is the whole HBM (at most 1: a run that ran "
        "while predicted above it is a miss of the memory model, such as torchtitan's Llama 3.1 8B runs with their 128K-vocabulary logits), which PyTorch "
        "reports as 79.18 GiB (85.0e9 bytes) usable on the 80e9-byte H100 (measured on an H100 80GB HBM3, 2026-11). It replaces Fujii et "
        "al. 2024's 80%, a margin for estimates that leave these out")}
    stored["collective_latency"] = {"seconds": table["collective_latency"]["seconds"], "source": (
        f"{how}: the latency per ring step (from {', '.join(format(x * 1e6, 'g') for x in LATENCIES)} µs) that leaves the smallest median "
        f"|log error| over the {timing['runs']} calibration runs once the step overhead is refitted for it")}
    stored["memory_bound"] = {"passes": table["memory_bound"]["passes"], "source": (
        f"{how}: kernels over each element of a layer's memory-bound work (norms, activation functions, residuals; 1 = one bf16 read and "
        f"write per pass), from {', '.join(format(x, 'g') for x in PASSES)}, fitted jointly with the latency and the step overhead")}
    stored["step_overhead"]["fraction"] = table["step_overhead"]["fraction"]
    stored["step_overhead"]["source"] = (
        f"{how}: the median ratio of published to modelled throughput over its {timing['runs']} timed runs (Narayanan et al. 2021 Tables 1-2, "
        "Llama 3 Table 4, the DeepSeek-V3 report, GPT 1.3B / 350M measured on an H100 80GB HBM3, 2026-11, and torchtitan's benchmark records "
        "llama3_h100_202412 and llama3_8b_h200_2025-06), at most 1: what a per-kernel "
        "model misses (launches, synchronisation, data loading)")
    stored["stacks"] = {name: {key: f[key] for key in ("step_overhead", "memory_bound_passes") if key in f} for name, f in timing["stacks"].items()}
    eager = timing["stacks"].get("pytorch", {})
    stored["stacks"]["source"] = (
        f"{how}: for each stack, the step overhead (the median ratio of published to modelled throughput, at most 1) over that stack's "
        "calibration runs only (pytorch and pytorch_compile together), at the collective latency fitted on all of them: "
        + "; ".join(f"{name} from {len(f['fitted_on'])} runs ({', '.join(f['fitted_on'])})" for name, f in timing["stacks"].items())
        + (f". Eager PyTorch's memory-bound passes ({eager['memory_bound_passes']:g}) are the median of the passes at which the modelled "
           "eager/compiled throughput ratio matches the published one for each pair of twins ("
           + ", ".join(f"{e} / {t}: {p:g}" for (e, t), p in zip(eager["pairs"], eager["pair_passes"]))
           + "); torch.compile fuses the element-wise kernels (the generic passes), and pytorch and pytorch_compile share one overhead"
           if eager.get("memory_bound_passes") else "")
        + ". A job whose stack is not given (generic) uses 'step_overhead' and 'memory_bound', fitted on every calibration run")
    stored["version"] = today
    text = path.read_text(encoding="utf-8")
    if '"stacks"' not in text:  # first fit: a line of its own after step_overhead's
        text = re.sub(r'^(  "step_overhead": .*?),?$', lambda m: m.group(1) + ',\n  "stacks": {},', text, count=1, flags=re.M)
    for key in ("version", "memory_bound", "logits", "memory_reserve", "memory_line", "collective_latency", "step_overhead", "stacks"):  # each on its own line, as written
        line = re.compile(r'^  "' + key + r'": .*?(,?)$', re.M)
        text, count = line.subn(lambda m: f'  "{key}": {json.dumps(stored[key], ensure_ascii=False)}{m.group(1)}', text, count=1)
        assert count == 1, key
    json.loads(text)
    path.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="store the fitted numbers in data/achievable_fraction.json")
    args = parser.parse_args()
    table = efficiencies()  # the cached table every calculator call reads: fitted in place, one number after another
    runs = calibration_runs()
    memory = fit_memory(table, runs)
    print(f"logits: {memory['bytes_per_element']:.1f} bytes per element; allocator reserve {memory['reserve_fraction']:.0%} of activations and buffers")
    for name, predicted, measured in memory["predicted_vs_measured"]:
        print(f"  {name}: predicted {predicted / 1e9:.1f} GB, measured peak {measured / 1e9:.1f} GB")
    line = fit_memory_line(table, runs)
    print(f"memory line: {line['line']:.0%} of HBM (largest calibration run that ran {line['largest_ran']:.0%}, "
          f"smallest that ran out {line['smallest_out_of_memory']:.0%})")
    timing = fit_latency_and_overhead(table, runs)
    for spread, latency, passes, overhead in sorted(timing["trials"])[:8]:
        print(f"  latency {latency * 1e6:5.1f} µs, memory-bound passes {passes:g}: step overhead {overhead:.3f}, median |log error| {spread:.3f}")
    for name, fitted in timing["stacks"].items():
        passes = f"memory-bound passes {fitted['memory_bound_passes']:g} (compiled twins: {fitted['pair_passes']}); " if "memory_bound_passes" in fitted else ""
        print(f"stack {name} ({len(fitted['runs'])} runs): {passes}step overhead {fitted['step_overhead']:.3f} "
              f"(fitted on {len(fitted['fitted_on'])} runs), median |log error| {fitted['spread']:.3f}")
    print(f"collective latency {timing['latency'] * 1e6:g} µs per ring step; memory-bound passes {timing['passes']:g}; "
          f"step overhead {timing['overhead']:.3f} ({timing['runs']} timed runs)")
    if args.write:
        write(table, memory, line, timing)
        print("written to data/achievable_fraction.json")


if __name__ == "__main__":
    main()
