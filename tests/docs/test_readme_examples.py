"""The README's opening example says what `unjargon calc pp_necessity` says on the same inputs (issue 18)."""

import re
import shlex
from pathlib import Path

import calculators

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def _inputs(command: str) -> dict:
    """The fields of one `unjargon calc pp_necessity ...` command line, as the calculator takes them."""
    words = shlex.split(command)
    fields = {}
    for flag, value in zip(words, words[1:]):
        if flag.startswith("--"):
            fields[flag[2:].replace("-", "_")] = value
    return fields


def _bound(fields: dict, chip: str, ep: int | None = None) -> bool:
    values = {k: v for k, v in fields.items() if k not in ("chip", "ep_degree")}
    values["chip"] = chip
    if ep:
        values["ep_degree"] = ep
    return calculators.run("pp_necessity", values)["outputs"]["dp_comm_bound"]


def test_the_opening_example_agrees_with_the_calculator():
    intro = README[:README.index("## Quick start")]
    command = re.search(r"`(unjargon calc\s+pp_necessity[^`]+)`", intro.replace("\n", " ")).group(1)
    fields = _inputs(command)
    ep = int(re.search(r"--ep-degree (\d+)", intro).group(1))
    assert "compute-bound without pipeline" in intro and "without that expert parallelism even the v5p pod would need" in intro
    assert not _bound(fields, "tpu-v5p", ep)  # "a TPU v5p pod stays compute-bound ... with its experts spread over 32 chips"
    assert _bound(fields, "tpu-v5p")  # "without that expert parallelism even the v5p pod would need a pipeline"
    assert _bound(fields, "h100", 8)  # "while an H100 cluster over InfiniBand does not" (8-GPU nodes: EP 8 at most)


def test_the_usage_examples_run_and_say_what_the_intro_says():
    lines = [l.strip() for l in README.splitlines() if l.strip().startswith("unjargon calc pp_necessity --model K2")]
    assert len(lines) >= 2
    for line in lines:
        fields = _inputs(line.split("#")[0])
        ep = int(fields.pop("ep_degree", 0)) or None
        for chip in fields.pop("chip").split(","):
            bound = _bound(fields, chip, ep)
            if chip == "tpu-v5p" and ep == 32 and fields["global_batch_tokens"] == "67M":
                assert not bound
