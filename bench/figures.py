"""Benchmark of the figures reader (service/explain/figures/): import cost and read_figures time.

Run with the project's interpreter: `.venv/bin/python bench/figures.py [--runs N] [--json]`.
Prints figures, never asserts (DESIGN.md: benchmarks print figures). Targets, for reference:
the module's own import under 15 ms beside `import numpy` (the CLI must start in under 2x numpy's import);
read_figures under 4 ms on a dense 10,000-character text and under 1 ms on 10,000 characters of prose.

Import time is measured in a fresh interpreter per run (median of 7): `import numpy, calculators` first, then
the clock around `import service.explain.figures`, so the figure is what the figures module adds on top of what
the calculators already load. `import numpy` is timed the same way in the same run for comparison.
"""

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Python puts bench/ first on the path; a bench script named like a package would shadow it.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

SEEDS = ROOT.parent / "shared" / "seeds"
IMPORT_TARGET_MS, DENSE_TARGET_MS, PROSE_TARGET_MS = 15.0, 4.0, 1.0

# Sentences with many figures, in the notations the reader knows (English and Arabic).
DENSE_SENTENCES = [
    "We trained on 256 H100s with TP8 PP4 DP8 and reached 41% MFU at 3,200 tokens/s/GPU.",
    "Llama 3 70B was trained on 15T tokens; the global batch size of 1024 sequences at seq 8k.",
    "Step time dropped from 9.1 s to 7.4 s (about 19% faster) after we enabled ZeRO-3 and mbs 2.",
    "The cluster of 6144 TPU v4 chips delivered ~57.8% MFU, or roughly 1.2e24 FLOPs in 50 days.",
    "Each 8×8 H100 pod moves 900 GB/s over NVLink and 400 Gb/s over InfiniBand; 2 × 10^25 FLOPs total.",
    "DeepSeek-V3 has 671B parameters with 37B activated per token, trained on 14.8 trillion high-quality tokens.",
    "A 7B model at 6 * 7e9 * 2e12 = 8.4e22 FLOPs takes 8.4e22 / (1024 * 989e12 * 0.4) seconds.",
    "We used 64-way expert parallelism, EP=64, with top-2 routing across 8 experts and 32 layers.",
    "Bubble fraction went from 12% to 5% with VPP2 and 16 microbatches; the run cost $2.6M over 2.788M H800 GPU hours.",
    "Memory per GPU was 74 GB of 80 GB; activations took 21.5 GB at micro batch size 1 and sequence length of 4096.",
    "استخدمنا ٢٥٦ وحدة معالجة رسومات H100 مع TP=8 و PP4 لمدة ٣ أيام ووصل MFU إلى ٤٠٪.",
    "نموذج بحجم ٧٠ مليار معلمة دُرّب على ١٥ تريليون رمز بحجم دفعة ٤ ملايين رمز لمدة أسبوعين.",
]

PROSE = (
    "Training a large language model is mostly a question of moving data to the right place at the right time. "
    "The accelerators are fast, but they wait whenever the network is slow, and the network is slow whenever many "
    "workers talk at once. Engineers therefore split the model across devices in several ways at the same time: "
    "tensor parallelism shares each layer, pipeline parallelism shares the stack of layers, and data parallelism "
    "copies the whole arrangement and averages the gradients. Each choice trades memory for communication, and the "
    "best mix depends on the interconnect, the size of the model and the length of the sequences. "
)


def fill(parts: list[str], size: int = 10_000) -> str:
    out, i = [], 0
    while sum(len(p) + 1 for p in out) < size:
        out.append(parts[i % len(parts)])
        i += 1
    return " ".join(out)[:size]


def import_ms(statement: str, prelude: str) -> float:
    """One fresh interpreter: the time of `statement` after `prelude`, in milliseconds."""
    code = (f"import time\n{prelude}\nt=time.perf_counter()\n{statement}\n"
            "print((time.perf_counter()-t)*1000)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def import_figures(runs: int) -> dict:
    numpy, figures, whole = [], [], []
    for _ in range(runs):  # interleaved, so a busy moment touches both alike
        numpy.append(import_ms("import numpy", "pass"))
        figures.append(import_ms("import service.explain.figures", "import numpy, calculators"))
        whole.append(import_ms("import service.explain.figures", "pass"))
    return {"numpy_ms": statistics.median(numpy), "figures_own_ms": statistics.median(figures),
            "figures_with_deps_ms": statistics.median(whole)}


def read_ms(text: str, runs: int) -> tuple[float, float, int]:
    """First call (patterns compiled on first need included) and the median of later calls, and the figure count."""
    from service.explain.figures import read_figures

    t = time.perf_counter()
    found = read_figures(text)
    first = (time.perf_counter() - t) * 1000
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        read_figures(text)
        times.append((time.perf_counter() - t) * 1000)
    return first, statistics.median(times), len(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="read_figures calls per text (median reported)")
    parser.add_argument("--import-runs", type=int, default=7, help="fresh interpreters per import figure")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()

    imports = import_figures(args.import_runs)
    texts = {}
    for path in sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else []:
        texts[f"seed {path.name}"] = path.read_text(encoding="utf-8")
    texts["dense 10k"] = fill(DENSE_SENTENCES)
    texts["prose 10k"] = fill([PROSE])
    reads = {}
    for name, text in texts.items():
        first, median, count = read_ms(text, args.runs)
        reads[name] = {"chars": len(text), "figures": count, "first_ms": first, "median_ms": median}

    print(f"import numpy (fresh process, median of {args.import_runs}):   {imports['numpy_ms']:7.1f} ms")
    print(f"import service.explain.figures after numpy+calculators: {imports['figures_own_ms']:7.1f} ms"
          f"   (target < {IMPORT_TARGET_MS:g} ms)")
    print(f"import service.explain.figures from nothing:            {imports['figures_with_deps_ms']:7.1f} ms")
    print()
    print(f"{'text':32} {'chars':>6} {'figures':>7} {'first ms':>9} {'median ms':>10}")
    for name, r in reads.items():
        target = {"dense 10k": DENSE_TARGET_MS, "prose 10k": PROSE_TARGET_MS}.get(name)
        note = f"  (target < {target:g} ms)" if target else ""
        print(f"{name[:32]:32} {r['chars']:6d} {r['figures']:7d} {r['first_ms']:9.2f} {r['median_ms']:10.2f}{note}")
    if args.json:
        print(json.dumps({"imports": imports, "reads": reads}, indent=2))


if __name__ == "__main__":
    main()
