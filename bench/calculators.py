"""Benchmark of the calculators: in-process time of one scalar call, and a vectorised pp_necessity sweep.

Prints a table and the same figures as JSON. Targets are printed beside the measurements with a
pass/miss word; nothing is asserted (benchmarks are not tests).

    .venv/bin/python bench/calculators.py            # full run
    .venv/bin/python bench/calculators.py --quick    # fewer repeats, smaller sweep
"""

import argparse
import json
import platform
import statistics
import sys
import time
import timeit
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import calculators  # noqa: E402

SCALAR_TARGET_S = 50e-6  # one scalar call, median
SWEEP_TARGET_PER_S = 5e6  # pp_necessity configurations per second, vectorised

# What a user (or a model calling the tools) would send: human strings, as in DESIGN.md.
SCALAR_INPUTS = {
    "collective_time": {"op": "all_reduce", "size_bytes": "1 GiB", "n_ranks": 8, "bandwidth_bytes_per_s": "450 GB/s", "latency_s": "5 us"},
    "nccl_busbw": {"op": "all_reduce", "n_ranks": 16, "size_bytes": "8 GiB", "time_s": "47535 us"},
    "training_flops": {"params": "70B", "tokens": "15T", "n_layers": 80, "n_heads": 64, "head_dim": 128, "seq_len": 8192},
    "mfu": {"params": "540.35B", "n_chips": 6144, "peak_flop_per_s": "275 TFLOP/s", "tokens_per_s": "238.3K", "n_layers": 118,
            "n_heads": 48, "head_dim": 256, "seq_len": 2048},
    "training_time": {"params": "70B", "tokens": "15T", "n_chips": 4096, "peak_flop_per_s": "989 TFLOP/s", "mfu": "45%"},
    "dp_critical_batch": {"peak_flop_per_s": "990 TFLOP/s", "bandwidth_bytes_per_s": "400 GB/s", "moe_experts": 128, "moe_top_k": 4},
    "pp_necessity": {"global_batch_tokens": "4M", "n_chips": 4096, "peak_flop_per_s": "990 TFLOP/s", "dp_bandwidth_bytes_per_s": "400 GB/s",
                     "chips_per_node": 8, "tp_degree": 8},
    "pipeline_bubble": {"pp_degree": 8, "microbatches": 32, "virtual_stages": 2, "schedule": "interleaved"},
    "pipeline_activation_memory": {"pp_degree": 8, "microbatches": 32, "stage_activation_bytes": "2 GB"},
    "model_state_memory": {"params": "7.5B", "zero_stage": 3, "dp_degree": 64},
    "activation_memory": {"seq_len": 2048, "micro_batch": 1, "d_model": 12288, "n_heads": 96, "n_layers": 96, "tp_degree": 8,
                          "sequence_parallel": True, "recompute": "selective"},
    "roofline": {"flops": "1.2e15", "bytes": "80 GB", "peak_flop_per_s": "989 TFLOP/s", "memory_bandwidth_bytes_per_s": "3.35 TB/s"},
}


def scalar_call_seconds(name: str, inputs: dict, repeat: int, budget_s: float) -> float:
    """Median over `repeat` timeit runs of the time of one call."""
    timer = timeit.Timer(lambda: calculators.run(name, inputs))
    once = timer.timeit(number=10) / 10  # warm-up and calibration
    number = max(10, int(budget_s / repeat / max(once, 1e-7)))
    return statistics.median(t / number for t in timer.repeat(repeat=repeat, number=number))


def sweep_inputs(n: int, seed: int = 0) -> dict:
    """n random pp_necessity configurations, every one a valid layout (TP x PP fits in the job)."""
    rng = np.random.default_rng(seed)
    return {
        "global_batch_tokens": rng.uniform(1e5, 1e8, n),
        "n_chips": rng.choice([512.0, 1024.0, 2048.0, 4096.0, 8192.0, 16384.0, 32768.0], n),
        "peak_flop_per_s": rng.choice([312e12, 989e12, 2250e12], n),
        "dp_bandwidth_bytes_per_s": rng.choice([200e9, 400e9, 800e9, 3.6e12], n),
        "chips_per_node": 8,
        "tp_degree": rng.choice([1.0, 2.0, 4.0, 8.0], n),
        "pp_degree": rng.choice([1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0], n),
    }


def sweep_configs_per_second(n: int, repeat: int) -> tuple[float, float]:
    inputs = sweep_inputs(n)
    calculators.run("pp_necessity", inputs)  # warm-up: first touches of large arrays cost page faults
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        calculators.run("pp_necessity", inputs)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    return n / median, median


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and a 100,000-configuration sweep")
    parser.add_argument("--json", action="store_true", help="print only the JSON")
    args = parser.parse_args(argv)
    repeat = 5 if args.quick else 9
    budget = 0.5 if args.quick else 2.0
    n = 100_000 if args.quick else 1_000_000

    scalar = {name: scalar_call_seconds(name, inputs, repeat, budget) for name, inputs in SCALAR_INPUTS.items()}
    per_s, sweep_time = sweep_configs_per_second(n, repeat)
    report = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "machine": platform.machine(),
        "scalar_call_median_us": {name: round(t * 1e6, 2) for name, t in scalar.items()},
        "scalar_target_us": SCALAR_TARGET_S * 1e6,
        "scalar_verdict": {name: ("pass" if t < SCALAR_TARGET_S else "miss") for name, t in scalar.items()},
        "sweep": {"calculator": "pp_necessity", "configurations": n, "median_s": round(sweep_time, 4),
                  "configurations_per_s": round(per_s), "target_per_s": SWEEP_TARGET_PER_S,
                  "verdict": "pass" if per_s > SWEEP_TARGET_PER_S else "miss"},
    }
    if not args.json:
        print(f"calculators benchmark (python {report['python']}, numpy {report['numpy']}, {report['machine']})\n")
        print(f"{'calculator':<22}{'median µs/call':>16}{'target':>10}  result")
        for name, t in scalar.items():
            print(f"{name:<22}{t * 1e6:>16.1f}{'< 50':>10}  {report['scalar_verdict'][name]}")
        print(f"\npp_necessity sweep of {n:,} configurations: median {sweep_time * 1e3:.1f} ms = {per_s / 1e6:.2f} million/s "
              f"(target > {SWEEP_TARGET_PER_S / 1e6:.0f} million/s)  {report['sweep']['verdict']}\n")
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
