"""Single-chip roofline: is an operation limited by compute or by memory bandwidth."""

import numpy as np

from .registry import Calculator, Field, register
from .scalars import is_sweep, maximum
from .working import step, word

ROOFLINE = "Austin et al., How to Scale Your Model (JAX scaling book), roofline.md: T = max(FLOPs / C, bytes / B_HBM); critical intensity C / B_HBM; Williams et al. 2009"


def roofline(v: dict):
    """time = max(flops / peak, bytes / bandwidth); compute-bound when intensity >= peak / bandwidth."""
    flops, moved, peak, bw = v["flops"], v["bytes"], v["peak_flop_per_s"], v["memory_bandwidth_bytes_per_s"]
    compute_time, memory_time = flops / peak, moved / bw
    intensity, critical = flops / moved, peak / bw
    time = maximum(compute_time, memory_time)
    compute_bound = intensity >= critical
    sweep = is_sweep(compute_bound)
    bound = np.where(compute_bound, "compute", "memory") if sweep else ("compute" if compute_bound else "memory")
    verdict = "word.per_configuration_bound" if sweep else f"word.{bound}_bound"
    steps = [
        step("roofline.compute_time", flops=(flops, "flops"), peak=(peak, "flop_per_s"), time=(compute_time, "seconds")),
        step("roofline.memory_time", bytes=(moved, "bytes"), bandwidth=(bw, "bytes_per_s"), time=(memory_time, "seconds")),
        step("roofline.intensity", intensity=intensity, critical=critical, bound=word(verdict)),
    ]
    assumptions = ["compute and memory traffic overlap perfectly, so the slower one sets the time (a lower bound)"]
    return {"time_s": time, "bound": bound, "arithmetic_intensity": intensity, "critical_intensity": critical}, steps, assumptions


register(Calculator(
    name="roofline",
    summary="Whether an operation is compute- or memory-bound on a chip, and its lower-bound time.",
    fields=(
        Field("flops", "flops", "floating-point operations"),
        Field("bytes", "bytes", "bytes moved to and from memory"),
        Field("peak_flop_per_s", "flop_per_s", "peak FLOP/s per chip"),
        Field("memory_bandwidth_bytes_per_s", "bytes_per_s", "memory (HBM) bandwidth per chip"),
    ),
    compute=roofline,
    sources=(ROOFLINE,),
    takes_chip=True,
))
