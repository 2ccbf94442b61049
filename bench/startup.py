"""Start-up of `unjargon explain --backend offline --no-cache` against `python -c "import numpy"` (issue 13, item 14).

Run with the project's interpreter: `.venv/bin/python bench/startup.py [--runs 15] [FILE ...]`.
The two commands alternate (another process loading the CPU hits both alike) and each explain run gets a
fresh UNJARGON_HOME, as a user's first run would (--same-home: one home for every run, a later run).
Prints each file's medians and their ratio; the target is a ratio under 2, reported, never asserted.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / ("Scripts" if os.name == "nt" else "bin")
SEEDS = ROOT.parent / "shared" / "seeds"
TARGET_RATIO = 2.0


def _wall(command: list[str], env: dict) -> float:
    """Wall time of one run in ms (a failing run stops the bench: a fast error is no start-up figure)."""
    started = time.perf_counter()
    done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    elapsed = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode(errors='replace')[-500:]}")
    return elapsed


def measure(path: Path, runs: int, same_home: bool = False, use_cache: bool = False) -> tuple[float, float]:
    """Median wall times (explain, import numpy) over `runs` alternated launches, after one warm-up of each."""
    env = dict(os.environ)
    for name in ("ANTHROPIC_API_KEY", "PYTHONDONTWRITEBYTECODE", "UNJARGON_BACKEND"):
        env.pop(name, None)  # users run compiled modules; the option, not the environment, picks the backend
    explain = [str(BIN / "unjargon"), "explain", "--file", str(path), "--backend", "offline"]
    explain += [] if use_cache else ["--no-cache"]
    numpy = [str(BIN / "python"), "-c", "import numpy"]
    explain_ms, numpy_ms = [], []
    with tempfile.TemporaryDirectory(prefix="unjargon-startup-") as scratch:
        for run in range(runs + 1):
            home = Path(scratch) / ("home" if same_home else f"home{run}")
            took_explain = _wall(explain, dict(env, UNJARGON_HOME=str(home)))
            took_numpy = _wall(numpy, env)
            if run:  # the first pair warms the file-system cache
                explain_ms.append(took_explain)
                numpy_ms.append(took_numpy)
    return statistics.median(explain_ms), statistics.median(numpy_ms)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="texts to explain [the shared seeds, else examples/thread.txt]")
    parser.add_argument("--runs", type=int, default=15, help="alternated launches of each command [15]")
    parser.add_argument("--same-home", action="store_true", help="one UNJARGON_HOME for every run (its store and caches kept)")
    parser.add_argument("--cache", action="store_true",
                        help="leave out --no-cache: the README's command (a miss, then filed in the cache)")
    args = parser.parse_args(argv)
    files = args.files or sorted(SEEDS.glob("*.txt"))[:1] or [ROOT / "examples" / "thread.txt"]
    for path in files:
        explain_median, numpy_median = measure(path, args.runs, args.same_home, args.cache)
        ratio = explain_median / numpy_median
        verdict = "pass" if ratio < TARGET_RATIO else "MISS"
        print(f"{path.name:<28} explain {explain_median:6.1f} ms   import numpy {numpy_median:6.1f} ms   "
              f"ratio {ratio:4.2f}x (target < {TARGET_RATIO:g}x) {verdict}   "
              f"[{args.runs} runs each, {'one home' if args.same_home else 'a fresh home each'}"
              f"{', cache used' if args.cache else ''}]", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
