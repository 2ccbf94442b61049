"""The planner against published runs: the calibration set it was fitted to, and the validation set it never saw (prints, never asserts)."""

import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import calculators  # noqa: E402
from calculators import CalculatorInputError  # noqa: E402
from calculators.resources import data_dir  # noqa: E402

LAYOUT = {"tp_degree", "pp_degree", "virtual_stages", "ep_degree", "cp_degree", "expert_tp_degree", "zero_stage", "micro_batch", "recompute",
          "schedule"}


def runs(name: str) -> list[dict]:
    """data/<name>_runs.json's runs."""
    return json.loads((data_dir() / f"{name}_runs.json").read_text(encoding="utf-8"))["runs"]


def score(run: dict, with_plan: bool = True) -> dict:
    """Predicted tokens/s per chip of the published layout, its error, whether it fits, and the structure plan_layout chooses."""
    row = {"id": run["id"], "published": run.get("tokens_per_s_per_chip"), "source": run["source"].split(",")[0].split(" (")[0],
           "ran": run.get("ran", True)}
    try:
        out = calculators.run("evaluate_layout", run["inputs"])["outputs"]
    except CalculatorInputError as error:
        return row | {"refused": str(error)}
    row |= {"predicted": out["tokens_per_s_per_chip"], "fits": out["fits_memory"], "memory": out["memory_fraction_of_hbm"]}
    if row["published"]:
        row["error"] = out["tokens_per_s_per_chip"] / row["published"] - 1
    if not row["ran"]:
        return row  # a run that ran out of memory: only whether it fits is scored
    if with_plan:
        job = {key: value for key, value in run["inputs"].items() if key not in LAYOUT and key != "tp_comm_overlap"}
        if run.get("framework"):  # plan only what the run's framework could run (data/frameworks.json)
            job["framework"] = run["framework"]
        plan = calculators.run("plan_layout", job)["outputs"]["layout"]
        chosen = {"pipeline": plan["pp_degree"] > 1,
                  "model_parallel": plan["tp_degree"] * plan["pp_degree"] * plan["cp_degree"] * plan["ep_degree"] > 1}
        row |= {"structure_ok": chosen == run["structure"], "plan": chosen}
    return row


def summary(rows: list[dict]) -> dict:
    """Median and worst |error|, mean signed error, fits_memory right (fits for runs that ran, not for those that ran out), structure chosen."""
    scored = [r for r in rows if "error" in r]
    judged = [r for r in rows if "fits" in r]
    errors = [r["error"] for r in scored]
    planned = [r for r in scored if "structure_ok" in r]
    return {"runs": len(rows), "accepted": len(scored), "median_abs": statistics.median(abs(e) for e in errors),
            "worst": max(errors, key=abs), "mean_signed": statistics.fmean(errors), "fits": sum(r["fits"] == r["ran"] for r in judged),
            "judged": len(judged),
            "structure": sum(r["structure_ok"] for r in planned), "planned": len(planned), "optimistic": sum(e > 0 for e in errors)}


def table(rows: list[dict]) -> list[str]:
    """A markdown table: source, published, predicted, error."""
    lines = ["| run | source | published tok/s/chip | predicted | error | fits | structure |", "|---|---|---:|---:|---:|---|---|"]
    for r in rows:
        if "refused" in r:
            lines.append(f"| {r['id']} | {r['source']} | {r['published'] or ''} | refused: {r['refused']} | | | |")
            continue
        if "error" not in r:
            lines.append(f"| {r['id']} | {r['source']} | ran out of memory | | | {'no' if not r['fits'] else 'yes (wrong)'} "
                         f"({r['memory']:.0%}) | |")
            continue
        structure = "" if "structure_ok" not in r else ("yes" if r["structure_ok"] else "no")
        lines.append(f"| {r['id']} | {r['source']} | {r['published']:,.1f} | {r['predicted']:,.1f} | {r['error']:+.0%} | "
                     f"{'yes' if r['fits'] else 'no (' + format(r['memory'], '.0%') + ')'} | {structure} |")
    return lines


def line(name: str, s: dict) -> str:
    return (f"{name}: {s['accepted']}/{s['runs']} runs accepted · median |error| {s['median_abs']:.1%} · worst {s['worst']:+.0%} · "
            f"mean signed {s['mean_signed']:+.1%} ({s['optimistic']} optimistic) · fits_memory right {s['fits']}/{s['judged']} · "
            f"structure chosen {s['structure']}/{s['planned']}")


def side_by_side(calibration: list[dict], validation: list[dict]) -> list[str]:
    """The README's table: calibration runs on the left, validation runs on the right (published, predicted tokens/s per chip, error)."""
    def cells(r):
        if r is None:
            return ["", "", "", ""]
        if "error" not in r:
            return [r["id"], "out of memory", "fits" if r.get("fits") else "does not fit", ""]
        return [r["id"], f"{r['published']:,.0f}", f"{r['predicted']:,.0f}", f"{r['error']:+.0%}"]
    lines = ["| calibration run | published | predicted | error | validation run | published | predicted | error |",
             "|---|---:|---:|---:|---|---:|---:|---:|"]
    for i in range(max(len(calibration), len(validation))):
        left = cells(calibration[i] if i < len(calibration) else None)
        right = cells(validation[i] if i < len(validation) else None)
        lines.append("| " + " | ".join(left + right) + " |")
    return lines


def main() -> None:
    if "--readme" in sys.argv:  # the README's short form
        rows = {name: [score(run) for run in runs(name)] for name in ("calibration", "validation")}
        print("\n".join(side_by_side(rows["calibration"], rows["validation"])))
        print()
        for name, scored in rows.items():
            print("- " + line(name, summary(scored)))
        return
    results = {}
    for name in ("calibration", "validation"):
        rows = [score(run) for run in runs(name)]
        results[name] = rows
        print(f"\n## {name.capitalize()} set (data/{name}_runs.json)\n")
        print("\n".join(table(rows)))
    print()
    for name, rows in results.items():
        print(line(name, summary(rows)))


if __name__ == "__main__":
    main()
