"""Collective communication time and nccl-tests bus bandwidth."""

from .errors import CalculatorInputError
from .registry import Calculator, Field, register
from .working import step

OPS = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast")
NCCL_TESTS = "NVIDIA nccl-tests doc/PERFORMANCE.md (busbw = algbw x factor; factors in src/*.cu GetBw)"


def bus_factor(op: str, n_ranks):
    """nccl-tests bus factor: 2(n-1)/n for all-reduce, (n-1)/n for gather/scatter/all-to-all, 1 for broadcast."""
    if op == "all_reduce":
        return 2.0 * (n_ranks - 1) / n_ranks
    if op in ("all_gather", "reduce_scatter", "all_to_all"):
        return (n_ranks - 1) / n_ranks
    return n_ranks * 0 + 1.0  # keeps the shape of an array of rank counts


def ring_steps(op: str, n_ranks):
    """Latency steps of a ring algorithm: all-reduce is a reduce-scatter then an all-gather."""
    return 2.0 * (n_ranks - 1) if op == "all_reduce" else 1.0 * (n_ranks - 1)


_FACTOR_TEXT = {"all_reduce": "2(n-1)/n", "all_gather": "(n-1)/n", "reduce_scatter": "(n-1)/n", "all_to_all": "(n-1)/n", "broadcast": "1"}


def collective_time(v: dict):
    """Ideal ring time: size x bus factor / per-rank bus bandwidth + ring steps x latency (nccl-tests)."""
    op, size, n, bw, latency = v["op"], v["size_bytes"], v["n_ranks"], v["bandwidth_bytes_per_s"], v["latency_s"]
    factor = bus_factor(op, n)
    steps_count = ring_steps(op, n)
    transfer = size * factor / bw
    time = transfer + steps_count * latency
    algbw = size / time
    steps = [
        step("collective_time.bus_factor", op=op, n=(n, "count"), formula=_FACTOR_TEXT[op], factor=factor),
        step("collective_time.transfer", size=(size, "bytes"), factor=factor, bandwidth=(bw, "bytes_per_s"), transfer=(transfer, "seconds")),
        step("collective_time.latency", steps=(steps_count, "count"), latency=(latency, "seconds"), total=(steps_count * latency, "seconds")),
        step("collective_time.time", time=(time, "seconds"), algbw=(algbw, "bytes_per_s"), busbw=(algbw * factor, "bytes_per_s")),
    ]
    assumptions = [
        "size_bytes is the whole buffer (the full output of an all-gather), as nccl-tests reports it",
        "bandwidth_bytes_per_s is the per-rank bus bandwidth in one direction, sustained; real runs reach about 80% of link specs",
        "a flat ring; hierarchical, tree and NVLS/SHARP algorithms change the latency term and can beat the ring bandwidth bound",
    ]
    outputs = {"time_s": time, "algbw_bytes_per_s": algbw, "busbw_bytes_per_s": algbw * factor, "bus_factor": factor}
    return outputs, steps, assumptions


def nccl_busbw(v: dict):
    """nccl-tests algbw = size / time and busbw = algbw x bus factor."""
    op, n = v["op"], v["n_ranks"]
    factor = bus_factor(op, n)
    steps = []
    if v["algbw_bytes_per_s"] is not None:
        algbw = v["algbw_bytes_per_s"]
        steps.append(step("nccl_busbw.algbw_given", algbw=(algbw, "bytes_per_s")))
    elif v["size_bytes"] is not None and v["time_s"] is not None:
        algbw = v["size_bytes"] / v["time_s"]
        steps.append(step("nccl_busbw.algbw", size=(v["size_bytes"], "bytes"), time=(v["time_s"], "seconds"), algbw=(algbw, "bytes_per_s")))
    else:
        missing = "time_s" if v["size_bytes"] is not None else "size_bytes"
        raise CalculatorInputError(missing, "is required: give size_bytes and time_s, or algbw_bytes_per_s")
    busbw = algbw * factor
    steps.append(step("nccl_busbw.busbw", formula=_FACTOR_TEXT[op], n=(n, "count"), algbw=(algbw, "bytes_per_s"), factor=factor, busbw=(busbw, "bytes_per_s")))
    assumptions = ["busbw is comparable to the hardware's per-rank link bandwidth for ring algorithms; NVLS, SHARP and hierarchical algorithms can report busbw above the wire speed"]
    return {"algbw_bytes_per_s": algbw, "busbw_bytes_per_s": busbw, "bus_factor": factor}, steps, assumptions


_OP = Field("op", "choice", "the collective operation", choices=OPS)
_RANKS = Field("n_ranks", "count", "number of ranks (chips) taking part", integer=True, minimum=2)

register(Calculator(
    name="collective_time",
    summary="Time of a collective (all-reduce, all-gather, ...) at a given per-rank bus bandwidth, with nccl-tests' algbw and busbw.",
    fields=(
        _OP,
        Field("size_bytes", "bytes", "whole buffer size, nccl-tests convention"),
        _RANKS,
        Field("bandwidth_bytes_per_s", "bytes_per_s", "per-rank bus bandwidth, one direction"),
        Field("latency_s", "seconds", "latency per ring step", default=0.0, allow_zero=True),
    ),
    compute=collective_time,
    sources=(NCCL_TESTS,),
))

register(Calculator(
    name="nccl_busbw",
    summary="nccl-tests bus bandwidth from a measured time (or algorithm bandwidth), to compare with link speed.",
    fields=(
        _OP,
        _RANKS,
        Field("size_bytes", "bytes", "whole buffer size, nccl-tests convention", default=None),
        Field("time_s", "seconds", "measured time of one collective", default=None),
        Field("algbw_bytes_per_s", "bytes_per_s", "algorithm bandwidth (size / time) if already known", default=None),
    ),
    compute=nccl_busbw,
    sources=(NCCL_TESTS,),
))
