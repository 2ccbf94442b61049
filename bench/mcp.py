"""How fast `unjargon mcp` answers `initialize` from a cold start, and a tool call after it (issue 22).

Run with the project's interpreter: `.venv/bin/python bench/mcp.py [--runs 7] [--calls 50]`.
Each run starts the server as an assistant does (the console script, a fresh UNJARGON_HOME, the offline
backend) and writes JSON-RPC lines on its standard input; `python -c "import numpy"` alternates with it for
scale. Prints medians; asserts nothing.
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
BIN = ROOT / ".venv" / ("Scripts" if os.name == "nt" else "bin")
INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}
CALLS = {
    "pp_necessity": {"model": "K2", "chip": "h100", "n_chips": 4096, "global_batch_tokens": "16M"},
    "lookup_term": {"term": "MFU"},
    "explain (cached after the first)": {"text": "with TPUs at K2 or DSV3 scale you get excellent MFU without PP; "
                                                 "you only need PP when you're DP-comms bound"},
}


def _send(server: subprocess.Popen, message: dict) -> None:
    server.stdin.write(json.dumps(message) + "\n")
    server.stdin.flush()


def _answer(server: subprocess.Popen, id_: int) -> dict:
    """The response to request `id_` (notifications before it are skipped)."""
    while True:
        line = server.stdout.readline()
        if not line:
            raise RuntimeError(f"unjargon mcp ended early: {server.stderr.read()[-500:]}")
        message = json.loads(line)
        if message.get("id") == id_:
            return message


def one_run(home: Path, calls: int) -> tuple[float, dict[str, float]]:
    """Milliseconds from spawn to the initialize answer, and the median round trip of each tool call."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "UNJARGON_"))}
    env.update(UNJARGON_HOME=str(home), UNJARGON_BACKEND="offline")
    started = time.perf_counter()
    server = subprocess.Popen([str(BIN / "unjargon"), "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env)
    try:
        _send(server, INITIALIZE)
        _answer(server, 0)
        initialize_ms = (time.perf_counter() - started) * 1000
        _send(server, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        round_trips: dict[str, float] = {}
        id_ = 0
        for label, arguments in CALLS.items():
            name = label.split()[0]
            took = []
            for _ in range(calls):
                id_ += 1
                begun = time.perf_counter()
                _send(server, {"jsonrpc": "2.0", "id": id_, "method": "tools/call",
                               "params": {"name": name, "arguments": arguments}})
                answer = _answer(server, id_)
                took.append((time.perf_counter() - begun) * 1000)
                if answer.get("error") or answer["result"].get("isError"):
                    raise RuntimeError(f"{name} failed: {answer}")
            round_trips[label] = statistics.median(took)
        return initialize_ms, round_trips
    finally:
        server.stdin.close()
        server.wait(30)


def _numpy_ms() -> float:
    started = time.perf_counter()
    subprocess.run([str(BIN / "python"), "-c", "import numpy"], check=True)
    return (time.perf_counter() - started) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="cold starts of the server [7]")
    parser.add_argument("--calls", type=int, default=20, help="calls of each tool per run [20]")
    args = parser.parse_args(argv)
    initialize, numpy, trips = [], [], {label: [] for label in CALLS}
    with tempfile.TemporaryDirectory(prefix="unjargon-mcp-bench-") as scratch:
        for run in range(args.runs + 1):
            took, round_trips = one_run(Path(scratch) / f"home{run}", args.calls)
            numpy_ms = _numpy_ms()
            if run:  # the first run warms the file-system cache
                initialize.append(took)
                numpy.append(numpy_ms)
                for label, ms in round_trips.items():
                    trips[label].append(ms)
    print(f"unjargon mcp: initialize answered {statistics.median(initialize):.0f} ms after spawn "
          f"(python -c 'import numpy': {statistics.median(numpy):.0f} ms) [median of {args.runs} cold starts]")
    for label, values in trips.items():
        print(f"  tools/call {label:<34} {statistics.median(values):7.2f} ms a round trip "
              f"[median of {args.runs} runs x {args.calls} calls]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
