"""Benchmark of the offline explainer: in-process time per explanation, and whole-process start-up of the CLI.

Run with the project's interpreter: `.venv/bin/python bench/explain.py`. Prints a table, then the figures as JSON.
Targets are reported as pass/miss, never asserted (DESIGN.md: benchmarks print figures).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Python puts bench/ first on the path; a bench script named like a package (bench/calculators.py) would shadow it.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

SEEDS = ROOT.parent / "shared" / "seeds"
FALLBACK = ROOT / "examples" / "thread.txt"
IN_PROCESS_TARGET_MS = 20.0
PROCESS_RATIO_TARGET = 2.0
BIN = ROOT / ".venv" / ("Scripts" if os.name == "nt" else "bin")


def seed_files() -> tuple[list[Path], str | None]:
    """The shared seeds, or the bundled example with a note saying so."""
    seeds = sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else []
    if seeds:
        return seeds, None
    return [FALLBACK], f"no seeds in {SEEDS}; measured the bundled example {FALLBACK.relative_to(ROOT)} instead"


def in_process(path: Path, runs: int) -> dict:
    """Median time of explain_offline on one text, after one warm-up call (which loads the glossary)."""
    from service.explain.compose import explain_offline

    text = path.read_text(encoding="utf-8")
    started = time.perf_counter()
    explain_offline(text)
    first_ms = (time.perf_counter() - started) * 1000
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        explain_offline(text)
        times.append((time.perf_counter() - started) * 1000)
    median = statistics.median(times)
    return {"seed": path.name, "chars": len(text), "runs": runs, "first_call_ms": round(first_ms, 2),
            "median_ms": round(median, 3), "min_ms": round(min(times), 3),
            "p90_ms": round(sorted(times)[int(0.9 * (len(times) - 1))], 3),
            "target_ms": IN_PROCESS_TARGET_MS, "pass": median < IN_PROCESS_TARGET_MS}


def _tool(name: str) -> Path:
    """A script of the project's venv, else the one beside the running interpreter."""
    for folder in (BIN, Path(sys.executable).parent):
        for candidate in (folder / name, folder / f"{name}.exe"):
            if candidate.exists():
                return candidate
    raise FileNotFoundError(f"no {name} in {BIN} or beside {sys.executable}; run `python3 tasks.py explain` once to create the venv")


def _startup_bench():
    """bench/startup.py, the one start-up measurement (loaded by path: bench/ is kept off sys.path here)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_startup", Path(__file__).with_name("startup.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def whole_process(path: Path, runs: int) -> dict:
    """bench/startup.py's alternated medians of `unjargon explain --backend offline --no-cache` and `import numpy`, one home kept."""
    env = dict(os.environ)
    # Users run compiled modules (pip byte-compiles, and Python caches .pyc on first use); numpy's are
    # compiled too, so a PYTHONDONTWRITEBYTECODE set in this shell would measure source compilation instead.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([str(_tool("python")), "-m", "compileall", "-q", str(ROOT / "calculators"), str(ROOT / "service")],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    explain_median, numpy_median = _startup_bench().measure(path, runs, same_home=True)
    ratio = explain_median / numpy_median
    return {"seed": path.name, "runs": runs, "explain_median_ms": round(explain_median, 1),
            "import_numpy_median_ms": round(numpy_median, 1), "ratio": round(ratio, 2),
            "target_ratio": PROCESS_RATIO_TARGET, "pass": ratio < PROCESS_RATIO_TARGET,
            "command": f"unjargon explain --file {path.name} --backend offline --no-cache"}


def heaviest_imports(path: Path, home: str, top: int = 20) -> list[dict]:
    """`python -X importtime` on the explain path: the imports (down to three levels deep) with the most cumulative time."""
    env = dict(os.environ, UNJARGON_HOME=home, UNJARGON_BACKEND="offline", PYTHONPATH=str(ROOT))
    code = ("import sys; from service.cli.main import main; "
            f"sys.exit(main(['explain', '--file', {str(path)!r}, '--backend', 'offline', '--no-cache']))")
    completed = subprocess.run([str(_tool("python")), "-X", "importtime", "-c", code], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    rows = []
    for line in completed.stderr.decode(errors="replace").splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        self_us, cumulative_us, name = line[len("import time:"):].split("|", 2)
        depth = (len(name) - len(name.lstrip()) - 1) // 2  # importtime indents each level by two spaces
        if depth <= 3:
            rows.append({"module": name.strip(), "depth": depth,
                         "cumulative_ms": round(int(cumulative_us) / 1000, 1), "self_ms": round(int(self_us) / 1000, 1)})
    return sorted(rows, key=lambda r: r["cumulative_ms"], reverse=True)[:top]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="in-process runs per seed after one warm-up [50]")
    parser.add_argument("--process-runs", type=int, default=10, help="process launches of each command [10]")
    parser.add_argument("--importtime", action="store_true", help="list the heaviest imports even when the ratio passes")
    args = parser.parse_args(argv)

    seeds, note = seed_files()
    report: dict = {"note": note, "in_process": [], "whole_process": None, "heaviest_imports": None}
    if note:
        print(f"note: {note}\n")
    with tempfile.TemporaryDirectory(prefix="unjargon-bench-") as home:
        os.environ["UNJARGON_HOME"] = home  # caches and the store go here, not into the real home
        for seed in seeds:
            report["in_process"].append(in_process(seed, args.runs))
        report["whole_process"] = whole_process(seeds[0], args.process_runs)
        if args.importtime or not report["whole_process"]["pass"]:
            report["heaviest_imports"] = heaviest_imports(seeds[0], home)

    verdict = {True: "pass", False: "MISS"}
    print(f"{'measure':<56} {'value':>12} {'target':>9}  result")
    for row in report["in_process"]:
        label = f"explain_offline median, {row['seed']} ({row['runs']} runs)"
        target = f"< {row['target_ms']:g} ms"
        print(f"{label:<56} {row['median_ms']:>9.2f} ms {target:>9}  {verdict[row['pass']]}")
        print(f"{'  first call (loads the glossary)':<56} {row['first_call_ms']:>9.2f} ms")
    proc = report["whole_process"]
    label = f"ratio ({proc['runs']} alternated launches each)"
    target = f"< {proc['target_ratio']:g}x"
    print(f"{'unjargon explain --backend offline --no-cache, median':<56} {proc['explain_median_ms']:>9.1f} ms")
    baseline = 'python -c "import numpy", median'
    print(f"{baseline:<56} {proc['import_numpy_median_ms']:>9.1f} ms")
    print(f"{label:<56} {proc['ratio']:>11.2f}x {target:>9}  {verdict[proc['pass']]}")
    if report["heaviest_imports"]:
        print("\nheaviest imports on the explain path (python -X importtime, cumulative; indentation = import depth):")
        for row in report["heaviest_imports"]:
            print(f"  {row['cumulative_ms']:>8.1f} ms  {'  ' * row['depth']}{row['module']}")
    print("\n" + json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
