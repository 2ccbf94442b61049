"""Reading every configuration of tests/data/configs (parse, layout, evaluate_layout, plan_layout, rules): time per file (prints, never asserts)."""

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.configs import reading  # noqa: E402

FOLDER = ROOT / "tests" / "data" / "configs"


def main(runs: int = 3) -> None:
    manifest = FOLDER / "manifest.json"
    if not manifest.is_file():
        print("tests/data/configs/manifest.json is absent: nothing to time")
        return
    files = [entry["file"] for entry in json.loads(manifest.read_text(encoding="utf-8"))["files"]]
    reading.read((FOLDER / files[0]).read_text(encoding="utf-8"), "en")  # warm the option tables and catalogs
    rows = []
    for name in files:
        text = (FOLDER / name).read_text(encoding="utf-8")
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            found = reading.read(text, "en")
            times.append(time.perf_counter() - start)
        rows.append((statistics.median(times), name, bool(found and found["evaluation"]), bool(found and found["suggestion"])))
    print(f"{'file':<58} {'median':>9} evaluated planned")
    for seconds, name, evaluated, planned in sorted(rows, reverse=True)[:15]:
        print(f"{name:<58} {seconds * 1000:>7.1f}ms {'yes' if evaluated else 'no':>9} {'yes' if planned else 'no':>7}")
    print(f"{len(rows)} files: median {statistics.median(r[0] for r in rows) * 1000:.1f} ms, "
          f"slowest {max(r[0] for r in rows) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
