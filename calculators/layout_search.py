"""plan_layout: every valid layout of a training job scored at once with numpy; the choice, why, and what the runner-ups lose."""

import math

import numpy as np

from .errors import CalculatorInputError
from .layout_inputs import JOB_FIELDS, MODEL_FIELDS, SCHEDULES, resolve_job
from .layout_model import TIME_PARTS, binding, evaluate
from .layout_steps import SOURCES, assumptions_of, describe, explain, layout_dict, outputs_of
from .registry import Calculator, Field, register
from .working import step

TOLERANCE = 0.03  # "within a few percent": closer than this, the simpler layout wins
VIRTUAL = (1, 2, 3, 4, 6, 8)
LOST = {"compute": "slower compute (thinner matrices per chip, or recomputation)", "tp_comm": "more exposed tensor-parallel communication",
        "pp_bubble": "a larger pipeline bubble", "dp_comm": "exposed data-parallel (gradient and parameter) communication",
        "ep_comm": "exposed expert-parallel all-to-all", "cp_comm": "exposed context-parallel key/value exchange",
        "offload": "host-memory transfers"}


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, int(math.isqrt(n)) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


def candidates(job: dict, schedule: str | None) -> dict:
    """Every valid layout as arrays: degrees dividing the chips, heads, experts and sequence, stages no more than layers."""
    n, L, s = int(job["n_chips"]), int(job["n_layers"]), int(job["seq_len"])
    sequences = job["batch_tokens"] / s
    chip_divisors = _divisors(n)
    tps = [d for d in chip_divisors if int(job["n_heads"]) % d == 0]
    pps = [d for d in chip_divisors if d <= L]
    cps = [d for d in chip_divisors if s % d == 0 and d <= 64 and s // d >= 128]
    rows = []
    for tp in tps:
        for cp in cps:
            if n % (tp * cp):
                continue
            for pp in pps:
                if n % (tp * cp * pp):
                    continue
                dp = n // (tp * cp * pp)
                if dp > sequences:
                    continue
                for vs in VIRTUAL if pp > 1 and schedule in (None, "interleaved") else (1,):
                    if pp * vs <= L:
                        rows.append((tp, pp, vs, cp, dp))
    if not rows:
        raise CalculatorInputError("n_chips", "admits no layout: no degrees divide the chips with at least one sequence per data-parallel replica")
    base = np.array(rows, dtype=float)
    # Expert-parallel degrees: divisors of the experts that divide the data-parallel degree.
    if job["moe"]:
        experts = int(job["moe_experts"])
        eps = np.array([d for d in _divisors(experts)], dtype=float)
        ok = np.mod(base[:, 4:5], eps[None, :]) == 0
        pick, which = np.nonzero(ok)
        base = np.column_stack([base[pick], eps[which]])
    else:
        base = np.column_stack([base, np.ones(len(base))])
    recompute = (0.0, 1.0, 2.0) if not job["fused_attention"] else (0.0, 2.0)  # selective saves nothing beyond a fused kernel
    extra = np.array([(z, mb, rc) for z in (0.0, 1.0, 2.0, 3.0) for mb in (1.0, 2.0, 4.0, 8.0, 16.0) for rc in recompute])
    both = np.repeat(base, len(extra), axis=0)
    more = np.tile(extra, (len(base), 1))
    per_replica = np.ceil(sequences / both[:, 4])
    keep = (more[:, 1] <= per_replica) & ~((more[:, 1] > 1) & (more[:, 1] > per_replica))
    both, more = both[keep], more[keep]
    pp, vs = both[:, 1], both[:, 2]
    if schedule is None or schedule == "interleaved":
        sched = np.where(vs > 1, SCHEDULES.index("interleaved"), SCHEDULES.index("1f1b")).astype(float)
    else:
        sched = np.where(pp > 1, SCHEDULES.index(schedule), SCHEDULES.index("1f1b")).astype(float)
    return {"tp": both[:, 0], "pp": pp, "vs": vs, "cp": both[:, 3], "ep": both[:, 5], "zero": more[:, 0], "mb": more[:, 1],
            "rc": more[:, 2], "sched": sched}


def _shape_key(lay: dict):
    """Which shape a layout has (pipeline, tensor, context, expert parallelism, FSDP), as one integer."""
    return ((lay["pp"] > 1) * 16 + (lay["tp"] > 1) * 8 + (lay["cp"] > 1) * 4 + (lay["ep"] > 1) * 2 + (lay["zero"] == 3)).astype(int)


def choose(lay: dict, speed, fits) -> tuple[int, int, int]:
    """(chosen, fastest fitting, near count): among fitting layouts within TOLERANCE of the fastest, the simplest."""
    # Inputs beyond any physical range (a 1e308 FFN) give no finite speed: rank those last, and when none is
    # finite the chosen layout's outputs are not finite either, which the registry reports against the input.
    speed = np.where(np.isfinite(speed), speed, -np.inf)
    usable = np.where(fits, speed, -np.inf)
    if not np.any(fits):
        usable = speed  # nothing fits: rank all by speed and report the memory problem
    fastest = int(np.argmax(usable))
    near = np.nonzero(usable >= (1 - TOLERANCE) * usable[fastest])[0]
    dims = sum((lay[key][near] > 1).astype(int) for key in ("tp", "pp", "cp", "ep"))
    model_parallel = lay["tp"][near] * lay["pp"][near] * lay["cp"][near] * lay["ep"][near]
    order = np.lexsort((-speed[near], lay["rc"][near], model_parallel, lay["vs"][near] > 1, dims, lay["pp"][near] > 1))
    return int(near[order[0]]), fastest, len(near)


def runner_ups(job, lay, result, chosen: int, count: int = 5) -> list[int]:
    """The best layout of each other shape, fitting ones first; topped up with the next-best layouts if shapes run out."""
    speed, fits = result["tokens_per_s_per_chip"], result["fits_memory"]
    shapes = _shape_key(lay)
    rank = np.lexsort((-speed, ~fits))  # fitting first, then fastest
    picked, seen = [], {shapes[chosen]}
    for i in rank:
        if shapes[i] not in seen:
            seen.add(shapes[i])
            picked.append(int(i))
    for i in rank:
        if len(picked) >= count:
            break
        if i != chosen and int(i) not in picked:
            picked.append(int(i))
    picked = picked[:count]
    return sorted(picked, key=lambda i: (not fits[i], -speed[i]))


def _lost_because(result, chosen: int, other: int, margin: float) -> str:
    if not result["fits_memory"][other]:
        return f"needs {result['memory_fraction_of_hbm'][other]:.0%} of HBM per chip, above the 80% line"
    if margin < 0:
        return f"{-margin:.1%} faster but less simple: within {TOLERANCE:.0%} the simpler layout is preferred"
    diffs = {name: result["times"][name][other] - result["times"][name][chosen] for name in (*TIME_PARTS, "offload")}
    worst = max(diffs, key=diffs.get)
    return f"{LOST[worst]} (+{diffs[worst]:.3g} s per step)"


def plan_layout(v: dict):
    """Search every valid layout and explain the choice, its binding constraint and the runner-ups."""
    job = resolve_job(v, tuple(f.name for f in JOB_FIELDS))
    lay = candidates(job, v["schedule"])
    result = evaluate(job, lay)
    speed, fits = result["tokens_per_s_per_chip"], result["fits_memory"]
    chosen, fastest, near = choose(lay, speed, fits)
    bind = binding(result)
    dp = result["dp_degree"]
    outputs = {"layout": layout_dict(lay, chosen, dp), **outputs_of(job, result, bind, chosen)}
    # Memory binds when a clearly faster layout would fit in HBM but not under the 80% line.
    close = np.where(~fits & (result["memory_fraction_of_hbm"] <= 1.0), speed, -np.inf)
    overall = int(np.argmax(close))
    steps = [step("plan.search", count=(len(speed), "count"), n=(job["n_chips"], "count"), fitting=(int(fits.sum()), "count"))]
    if not fits[chosen]:
        steps.append(step("plan.none_fits", layout=describe(lay, chosen, dp), fraction=(result["memory_fraction_of_hbm"][chosen], "fraction")))
    else:
        steps.append(step("plan.best", layout=describe(lay, fastest, dp), mfu=(float(result["mfu"][fastest]), "fraction")))
        if chosen != fastest:
            steps.append(step("plan.simplest", count=(near, "count"), tolerance=(TOLERANCE, "fraction"), layout=describe(lay, chosen, dp),
                              mfu=(float(result["mfu"][chosen]), "fraction"), margin=(1 - speed[chosen] / speed[fastest], "fraction")))
        else:
            steps.append(step("plan.fastest_is_simplest", tolerance=(TOLERANCE, "fraction")))
        if np.isfinite(close[overall]) and speed[overall] > (1 + TOLERANCE) * speed[chosen]:
            outputs["binding_constraint"] = "memory"
            steps.append(step("plan.memory_binds", layout=describe(lay, overall, dp), mfu=(float(result["mfu"][overall]), "fraction"),
                              fraction=(float(result["memory_fraction_of_hbm"][overall]), "fraction")))
    others = []
    for rank, i in enumerate(runner_ups(job, lay, result, chosen), 1):
        margin = float(1 - speed[i] / speed[chosen])
        why = _lost_because(result, chosen, i, margin)
        others.append({"layout": layout_dict(lay, i, dp), "description": describe(lay, i, dp), "mfu": float(result["mfu"][i]),
                       "tokens_per_s_per_chip": float(speed[i]), "fits_memory": bool(fits[i]), "lost_because": why, "margin": margin,
                       "time_breakdown_s": {name: float(result["times"][name][i]) for name in TIME_PARTS},
                       "memory_breakdown_bytes": {name: float(result["memory"][name][i]) for name in result["memory"]}})
        steps.append(step("plan.runner_up", rank=(rank, "count"), layout=describe(lay, i, dp), mfu=(float(result["mfu"][i]), "fraction"),
                          margin=(margin, "fraction"), why=why))
    outputs["runner_ups"] = others
    outputs["layouts_considered"] = int(len(speed))
    steps += explain(job, lay, result, bind, chosen)
    if outputs["binding_constraint"] == "memory" and fits[chosen]:
        steps[-1] = step("layout.binding", binding={"word": "layout.bind.memory"})
    return outputs, steps, assumptions_of(job) + [f"layouts within {TOLERANCE:.0%} of the fastest count as equal; the simplest of them is chosen"]


register(Calculator(
    name="plan_layout",
    summary="Search every parallel layout of a training job; the chosen one, why, its binding constraint, and what each runner-up loses.",
    fields=JOB_FIELDS + (Field("schedule", "choice", "pipeline schedule for layouts with a pipeline (interleaved when virtual stages > 1)",
                               default=None, choices=SCHEDULES),),
    compute=plan_layout,
    sources=SOURCES,
    takes_chip=True,
    takes_model=True,
    model_fields=MODEL_FIELDS,
))
