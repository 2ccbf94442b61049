"""plan_layout: every valid layout of a training job scored at once with numpy; the choice, why, and what the runner-ups lose."""

import math

import numpy as np

from .errors import CalculatorInputError
from .layout_framework import check_schedule, restriction_step, supported
from .layout_inputs import JOB_FIELDS, MAX_CHIPS, MODEL_FIELDS, SCHEDULES, resolve_job
from .layout_model import TIME_PARTS, binding, evaluate
from .layout_steps import SOURCES, assumptions_of, describe, explain, layout_dict, outputs_of
from .registry import Calculator, Field, register
from .working import render, step

TOLERANCE = 0.03  # "within a few percent": closer than this, the simpler layout wins
VIRTUAL = (1, 2, 3, 4, 6, 8)



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
    # Expert-parallel degrees: divisors of the experts; EP x expert TP must divide a stage's chips (tp x cp x dp). Expert TP is
    # tp (experts split like the dense layers) or, with a TP group, 1: EP spans TP x DP (Megatron's MoE parallel folding).
    if job["moe"]:
        experts = int(job["moe_experts"])
        eps = np.array([d for d in _divisors(experts)], dtype=float)
        tp, stage = base[:, 0], base[:, 0] * base[:, 3] * base[:, 4]
        rows = []
        for folded in (False, True):
            etp = np.ones(len(base)) if folded else tp
            ok = np.mod(stage[:, None], eps[None, :] * etp[:, None]) == 0
            if folded:  # only where it differs: a TP group to fold, and experts spread
                ok &= (tp[:, None] > 1) & (eps[None, :] > 1)
            pick, which = np.nonzero(ok)
            rows.append(np.column_stack([base[pick], eps[which], etp[pick]]))
        base = np.concatenate(rows)
    else:
        base = np.column_stack([base, np.ones(len(base)), base[:, 0]])
    recompute = (0.0, 1.0, 2.0) if not job["fused_attention"] else (0.0, 2.0)  # selective saves nothing beyond a fused kernel
    extra = np.array([(z, mb, rc) for z in (0.0, 1.0, 2.0, 3.0) for mb in (1.0, 2.0, 4.0, 8.0, 16.0) for rc in recompute])
    both = np.repeat(base, len(extra), axis=0)
    more = np.tile(extra, (len(base), 1))
    # A micro-batch must divide a replica's whole number of sequences (frameworks run no remainder); a batch given roughly
    # ("8M" tokens: 976.6 sequences of 8192) has no whole replica batch, and any micro-batch up to it is kept.
    per_replica = sequences / both[:, 4]
    whole = np.mod(per_replica, 1.0) == 0
    keep = (more[:, 1] <= np.ceil(per_replica)) & (~whole | (np.mod(per_replica, more[:, 1]) == 0))
    both, more = both[keep], more[keep]
    pp, vs = both[:, 1], both[:, 2]
    if schedule is None or schedule == "interleaved":
        sched = np.where(vs > 1, SCHEDULES.index("interleaved"), SCHEDULES.index("1f1b")).astype(float)
    else:
        sched = np.where(pp > 1, SCHEDULES.index(schedule), SCHEDULES.index("1f1b")).astype(float)
    return {"tp": both[:, 0], "pp": pp, "vs": vs, "cp": both[:, 3], "ep": both[:, 5], "etp": both[:, 6], "zero": more[:, 0], "mb": more[:, 1],
            "rc": more[:, 2], "sched": sched}


def runnable(job: dict, schedule: str | None) -> dict:
    """The candidate layouts, less those the job's framework cannot run (all of them when no framework is given)."""
    lay = candidates(job, schedule)
    if not job.get("framework"):
        return lay
    keep = supported(job["framework"], lay, SCHEDULES)
    if not np.any(keep):
        raise CalculatorInputError("framework", f"{job['framework']} can run none of this job's layouts (data/frameworks.json)")
    return {key: value[keep] for key, value in lay.items()}


def _shape_key(lay: dict):
    """Which shape a layout has (pipeline, tensor, context, expert parallelism, FSDP), as one integer."""
    return ((lay["pp"] > 1) * 16 + (lay["tp"] > 1) * 8 + (lay["cp"] > 1) * 4 + (lay["ep"] > 1) * 2 + (lay["zero"] == 3)).astype(int)


def choose(lay: dict, speed, fits, memory) -> tuple[int, int, int]:
    """(chosen, fastest fitting, near count): among fitting layouts within TOLERANCE of the fastest, the simplest.

    When none fits, the layout needing the least memory is returned (never called chosen by the caller), fastest first on ties.
    """
    # Inputs beyond any physical range (a 1e308 FFN) give no finite speed: rank those last, and when none is
    # finite the chosen layout's outputs are not finite either, which the registry reports against the input.
    speed = np.where(np.isfinite(speed), speed, -np.inf)
    if not np.any(fits):
        least = int(np.lexsort((-speed, memory))[0])
        return least, least, 1
    usable = np.where(fits, speed, -np.inf)
    fastest = int(np.argmax(usable))
    near = np.nonzero(usable >= (1 - TOLERANCE) * usable[fastest])[0]
    order = np.lexsort((-speed[near], *_simplicity(lay, near)))
    return int(near[order[0]]), fastest, len(near)


def _simplicity(lay: dict, rows) -> tuple:
    """Sort keys, least significant first: recomputation, model-parallel chips, virtual stages, parallel dimensions, a pipeline."""
    dims = sum((lay[key][rows] > 1).astype(int) for key in ("tp", "pp", "cp", "ep"))
    model_parallel = lay["tp"][rows] * lay["pp"][rows] * lay["cp"][rows] * lay["ep"][rows]
    return lay["rc"][rows], model_parallel, lay["vs"][rows] > 1, dims, lay["pp"][rows] > 1


def _simpler_or_equal(lay: dict, a: int, b: int) -> bool:
    """Whether layout a ranks as simple as layout b or simpler (the order `choose` uses)."""
    keys_a, keys_b = _simplicity(lay, np.array([a])), _simplicity(lay, np.array([b]))
    return tuple(float(k[0]) for k in reversed(keys_a)) <= tuple(float(k[0]) for k in reversed(keys_b))


def runner_ups(job, lay, result, chosen: int, count: int = 5) -> list[int]:
    """The best layout of each other shape, fitting ones first; topped up with the next-best layouts if shapes run out."""
    speed, fits = result["tokens_per_s_per_chip"], result["fits_memory"]
    shapes = _shape_key(lay)
    finite = np.where(np.isfinite(speed), speed, -np.inf)
    key = np.where(fits, np.nanmax(np.abs(np.where(np.isfinite(speed), speed, 0.0))) * 2 + 1, 0.0) + finite  # fitting first, then fastest

    def in_rank_order(rows):
        rows = np.asarray(rows)
        return rows[np.lexsort((rows, -key[rows]))]

    best_of_shape = [idx[np.argmax(key[idx])] for idx in (np.flatnonzero(shapes == shape) for shape in np.unique(shapes))]
    picked = [int(i) for i in in_rank_order(best_of_shape) if shapes[i] != shapes[chosen]]
    top = min(len(key), count + len(picked) + 1)
    for i in in_rank_order(np.argpartition(-key, top - 1)[:top]):
        if len(picked) >= count:
            break
        if i != chosen and int(i) not in picked:
            picked.append(int(i))
    picked = picked[:count]
    return sorted(picked, key=lambda i: (not fits[i], -speed[i]))


def _lost_because(lay, result, chosen: int, other: int, margin: float) -> dict:
    """Why `other` is not the choice, as a step: it does not fit, it ties and is less simple, or the part of the step that grew most."""
    if not result["fits_memory"][other]:
        return step("plan.why_memory", fraction=(float(result["memory_fraction_of_hbm"][other]), "fraction"))
    diffs = {name: float(result["times"][name][other] - result["times"][name][chosen]) for name in (*TIME_PARTS, "offload")}
    worst = max(diffs, key=diffs.get)
    tie = abs(margin) < TOLERANCE or diffs[worst] <= 1e-3 * float(result["step_time_s"][chosen])
    if tie and _simpler_or_equal(lay, chosen, other):
        return step("plan.why_tie", tolerance=(TOLERANCE, "fraction"))
    if tie:
        return step("plan.why_outside", tolerance=(TOLERANCE, "fraction"))
    return step("plan.why_part", part={"word": f"plan.lost.{worst}"}, seconds=(diffs[worst], "seconds"))


def _min_chips(v: dict, job: dict) -> dict:
    """The fewest chips (n x 2^k, then the quarters between the last two tried) on which some layout fits, or why none is found."""
    n = int(job["n_chips"])
    domain = job["domain_chips"]

    def fits_on(count: int) -> bool | None:
        bigger = dict(job, n_chips=float(count), domain=float(min(domain, count)))
        try:
            lay = runnable(bigger, v["schedule"])
        except CalculatorInputError:
            return None  # no layout at all: more data-parallel replicas than sequences
        # Only the leanest of each shape can decide whether any fits: FSDP, full recomputation, micro-batch 1 need the least memory.
        lean = (lay["zero"] == 3) & (lay["rc"] == lay["rc"].max()) & (lay["mb"] == 1)
        return bool(np.any(evaluate(bigger, {key: value[lean] for key, value in lay.items()})["fits_memory"]))

    below = n
    for k in range(1, 16):
        count = n * 2**k
        if count > MAX_CHIPS:
            break
        found = fits_on(count)
        if found is None:
            return {"reason": "global_batch_tokens", "largest_tried": below}
        if found:
            last = below
            for quarter in (1, 2, 3):  # a finer look between the last count without a fit and this one
                between = below + quarter * (count - below) // 4
                if between % max(1, int(min(domain, 8))):
                    continue
                if fits_on(between):
                    return {"min_chips": between, "largest_tried": last}
                last = between
            return {"min_chips": count, "largest_tried": last}
        below = count
    return {"reason": "n_chips", "largest_tried": below}


def plan_layout(v: dict):
    """Search every valid layout and explain the choice, its binding constraint and the runner-ups."""
    job = resolve_job(v, tuple(f.name for f in JOB_FIELDS))
    if job["framework"]:
        check_schedule(job["framework"], v["schedule"])
    lay = runnable(job, v["schedule"])
    result = evaluate(job, lay)
    speed, fits = result["tokens_per_s_per_chip"], result["fits_memory"]
    chosen, fastest, near = choose(lay, speed, fits, result["memory_fraction_of_hbm"])
    bind = binding(result)
    dp = result["dp_degree"]
    outputs = {"layout": layout_dict(lay, chosen, dp), **outputs_of(job, result, bind, chosen)}
    search = step("plan.search", count=(len(speed), "count"), n=(job["n_chips"], "count"), fitting=(int(fits.sum()), "count"))
    if job["framework"]:  # said right after the search, so no layout below reads as one the framework could run
        search = [search, restriction_step(job["framework"])]
    else:
        search = [search]
    if not fits[chosen]:
        # Nothing fits: said first, with the chip count that would fit; the layout shown is the one needing least memory.
        outputs["no_fit"] = no_fit = _min_chips(v, job)
        steps = [step("plan.none_fits", layout=describe(lay, chosen, dp), fraction=(result["memory_fraction_of_hbm"][chosen], "fraction"))]
        if "min_chips" in no_fit:
            steps.append(step("plan.min_chips", chips=(no_fit["min_chips"], "count"), below=(no_fit["largest_tried"], "count")))
        else:
            steps.append(step(f"plan.no_min_chips_{no_fit['reason']}", below=(no_fit["largest_tried"], "count")))
        steps += search
    else:
        steps = [*search, step("plan.best", layout=describe(lay, fastest, dp), mfu=(float(result["mfu"][fastest]), "fraction"))]
        if chosen != fastest:
            steps.append(step("plan.simplest", count=(near, "count"), tolerance=(TOLERANCE, "fraction"), layout=describe(lay, chosen, dp),
                              mfu=(float(result["mfu"][chosen]), "fraction"), margin=(1 - speed[chosen] / speed[fastest], "fraction")))
        else:
            steps.append(step("plan.fastest_is_simplest", tolerance=(TOLERANCE, "fraction")))
        # A clearly faster layout that would fit in HBM but not under the 80% line: memory rules it out (a note, not the binding part).
        close = np.where(~fits & (result["memory_fraction_of_hbm"] <= 1.0), speed, -np.inf)
        overall = int(np.argmax(close))
        if np.isfinite(close[overall]) and speed[overall] > (1 + TOLERANCE) * speed[chosen]:
            steps.append(step("plan.memory_binds", layout=describe(lay, overall, dp), mfu=(float(result["mfu"][overall]), "fraction"),
                              fraction=(float(result["memory_fraction_of_hbm"][overall]), "fraction")))
    others = []
    for rank, i in enumerate(runner_ups(job, lay, result, chosen), 1):
        margin = float(1 - speed[i] / speed[chosen])
        why = _lost_because(lay, result, chosen, i, margin)
        others.append({"layout": layout_dict(lay, i, dp), "description": describe(lay, i, dp), "mfu": float(result["mfu"][i]),
                       "tokens_per_s_per_chip": float(speed[i]), "fits_memory": bool(fits[i]), "lost_because": render([why], "en")[0],
                       "margin": margin, "time_breakdown_s": {name: float(result["times"][name][i]) for name in TIME_PARTS},
                       "memory_breakdown_bytes": {name: float(result["memory"][name][i]) for name in result["memory"]}})
        steps.append(step("plan.runner_up" if margin >= 0 else "plan.runner_up_faster", rank=(rank, "count"), layout=describe(lay, i, dp),
                          mfu=(float(result["mfu"][i]), "fraction"), margin=(abs(margin), "fraction"), why=why))
    outputs["runner_ups"] = others
    outputs["layouts_considered"] = int(len(speed))
    steps += explain(job, lay, result, bind, chosen)
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
