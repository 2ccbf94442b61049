"""plan_layout over every layout for 16,384 chips: median time in process beside the layout count (prints, never asserts)."""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import calculators  # noqa: E402

JOBS = (
    ("Llama 3 405B on 16,384 H100", {"model": "llama-3-405b", "chip": "h100", "n_chips": 16384, "global_batch_tokens": "16M"}),
    ("DeepSeek-V3 on 16,384 H800", {"model": "DSV3", "chip": "h800", "n_chips": 16384, "global_batch_tokens": "60M", "precision": "fp8"}),
    ("Kimi K2 on 16,384 H800", {"model": "K2", "chip": "h800", "n_chips": 16384, "global_batch_tokens": "67M"}),
    ("Llama 3 405B on 16,384 TPU v5p", {"model": "llama-3-405b", "chip": "tpu-v5p", "n_chips": 16384, "global_batch_tokens": "16M"}),
)


def main(repeats: int = 7) -> None:
    calculators.run("plan_layout", JOBS[0][1])  # warm the catalog and locale caches
    print(f"{'job':<34} {'layouts':>9} {'median':>9} {'min':>9}")
    for name, inputs in JOBS:
        times, count = [], 0
        for _ in range(repeats):
            start = time.perf_counter()
            result = calculators.run("plan_layout", inputs)
            times.append(time.perf_counter() - start)
            count = result["outputs"]["layouts_considered"]
        print(f"{name:<34} {count:>9,} {statistics.median(times):>8.3f}s {min(times):>8.3f}s")
    # How far to trust the figures: the calibration runs the model was fitted on, and the validation runs it never saw.
    from planner_accuracy import line, runs as published, score, summary
    print()
    for set_name in ("calibration", "validation"):
        print(line(set_name, summary([score(run) for run in published(set_name)])))


if __name__ == "__main__":
    main()
