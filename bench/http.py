"""Benchmark of the HTTP service on loopback: cached and uncached explain, a calculator, against a bare FastAPI endpoint.

Run with the project's interpreter: `.venv/bin/python bench/http.py` (about a minute on 2 cores). Prints a
table, then the figures as JSON. Targets are reported as pass/miss, never asserted (DESIGN.md: benchmarks
print figures).

Method
- Each server is its own process, started the way `unjargon serve` starts one: `uvicorn.run(factory,
  host, port, workers=1)` with uvicorn's defaults (access log on, here sent to /dev/null). The unjargon
  server *is* `unjargon serve` (offline backend, a temporary UNJARGON_HOME); the bare one is a FastAPI app
  with one JSON route and no middleware, run by the same uvicorn call.
- The load generator is a small HTTP/1.1 keep-alive client on asyncio streams (stdlib only): a fixed
  number of connections, each sending its next request when the last answer is in (a closed loop, so
  latencies under saturation are queueing-optimistic; the comparison is what matters). It uses a
  fraction of a core (`client CPU` in the table) while the server uses a whole one, so the client is
  not the bottleneck on 2 cores.
- Bare and cached explain alternate for `--rounds` rounds and each reports its median round, so a
  noisy neighbour affects both alike. Server CPU per request comes from /proc (Linux) and is the
  steadiest figure of all.
"""

import argparse
import asyncio
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Python puts bench/ first on the path; bench/http.py would otherwise shadow the standard library's http.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

BIN = ROOT / ".venv" / ("Scripts" if os.name == "nt" else "bin")
EXAMPLE = ROOT / "examples" / "thread.txt"
CACHED_TARGET_RATIO = 0.8
CALCULATOR = ("pp_necessity", {"model": "K2", "chip": "h100-sxm", "global_batch_tokens": "16M", "n_chips": 4096})


# ---- the bare endpoint ----------------------------------------------------------------------------


def bare_app():
    """The baseline: FastAPI with one JSON route that reads a JSON body, and nothing else."""
    from fastapi import FastAPI
    from pydantic import BaseModel

    class Body(BaseModel):
        text: str

    app = FastAPI()

    @app.post("/bare")
    def bare(body: Body) -> dict:
        return {"status": "ok", "chars": len(body.text)}

    return app


def serve(which: str, host: str, port: int) -> None:
    """Run one server in this process with exactly the uvicorn call `unjargon serve` makes (service/serving.py)."""
    from service.http import server as serving

    if which == "bare":
        sys.modules["bench_http_bare"] = sys.modules[__name__]
    serving.run(host, port, 1, app=serving.APP if which == "unjargon" else "bench_http_bare:bare_app")


# ---- the load generator ---------------------------------------------------------------------------


def request_bytes(path: str, body: dict | None, port: int, token: str | None = None) -> bytes:
    payload = json.dumps(body).encode() if body is not None else b""
    lines = [f"{'POST' if body is not None else 'GET'} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}",
             "Accept: application/json", "User-Agent: unjargon-bench"]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + payload


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length, chunked = None, False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
    if chunked:
        body = bytearray()
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            body += await reader.readexactly(size + 2)
            if size == 0:
                return status, bytes(body)
    return status, await reader.readexactly(length or 0)


async def load(port: int, make_request, n_requests: int, connections: int, time_limit_s: float) -> dict:
    """Send `n_requests` (make_request(i) -> bytes) over `connections` keep-alive connections; bounded in time."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    next_index = 0
    deadline = time.monotonic() + time_limit_s

    async def connection() -> None:
        nonlocal next_index
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while next_index < n_requests and time.monotonic() < deadline:
                index, next_index = next_index, next_index + 1
                payload = make_request(index)
                started = time.perf_counter()
                writer.write(payload)
                status, _ = await _read_response(reader)
                latencies.append(time.perf_counter() - started)
                statuses[status] = statuses.get(status, 0) + 1
        finally:
            writer.close()

    cpu_started, wall_started = time.process_time(), time.perf_counter()
    await asyncio.gather(*(connection() for _ in range(connections)))
    wall = time.perf_counter() - wall_started
    cpu = time.process_time() - cpu_started
    latencies.sort()

    def pct(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000

    return {"requests": len(latencies), "seconds": round(wall, 3), "rps": round(len(latencies) / wall, 1),
            "p50_ms": round(pct(0.50), 2), "p99_ms": round(pct(0.99), 2), "max_ms": round(latencies[-1] * 1000, 2),
            "statuses": {str(k): v for k, v in sorted(statuses.items())},
            "client_cpu_pct": round(100 * cpu / wall, 1)}


# ---- servers --------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def process_cpu_s(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc), or None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class Server:
    """One server process on a free loopback port."""

    def __init__(self, which: str, env: dict):
        self.which = which
        self.port = free_port()
        if which == "unjargon":
            command = [str(BIN / "unjargon"), "serve", "--host", "127.0.0.1", "--port", str(self.port), "--workers", "1"]
        else:
            command = [sys.executable, str(Path(__file__).resolve()), "--serve", "bare", "--port", str(self.port)]
        # The server's log goes to a file: a pipe nobody reads fills up and stalls a server that logs errors.
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(command, env=env, cwd=ROOT, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the {which} server did not start: {self.log_tail()}")
                time.sleep(0.05)

    def measure(self, make_request, n_requests: int, connections: int, time_limit_s: float) -> dict:
        cpu_before = process_cpu_s(self.process.pid)
        result = asyncio.run(load(self.port, make_request, n_requests, connections, time_limit_s))
        cpu_after = process_cpu_s(self.process.pid)
        if cpu_before is not None and cpu_after is not None and result["requests"]:
            result["server_cpu_us_per_request"] = round((cpu_after - cpu_before) / result["requests"] * 1e6)
            result["server_cpu_pct"] = round(100 * (cpu_after - cpu_before) / result["seconds"], 1)
        return result

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()

    def log_tail(self, chars: int = 800) -> str:
        """The end of the server's log (a traceback, when it failed)."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-chars:]


# ---- the CLI ---------------------------------------------------------------------------------------


def cli_times(env: dict, runs: int) -> list[dict]:
    """Median whole-process wall time of the CLI: an uncached offline explain, a cached one, and a calculator."""
    unjargon = str(BIN / "unjargon")
    commands = [
        ("unjargon explain --file examples/thread.txt (offline, uncached)",
         [unjargon, "explain", "--file", str(EXAMPLE), "--backend", "offline", "--no-cache"]),
        ("unjargon explain --file examples/thread.txt (offline, cached)",
         [unjargon, "explain", "--file", str(EXAMPLE), "--backend", "offline"]),
        ("unjargon calc pp_necessity --model K2 --chip h100-sxm ...",
         [unjargon, "calc", "pp_necessity", "--model", "K2", "--chip", "h100-sxm", "--global-batch-tokens", "16M",
          "--n-chips", "4096"]),
        ('python -c "import numpy" (for scale)', [sys.executable, "-c", "import numpy"]),
    ]
    rows = []
    for label, command in commands:
        times = []
        for attempt in range(runs + 1):  # the first run warms the page cache, the .pyc files and the response cache
            started = time.perf_counter()
            done = subprocess.run(command, env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE)
            elapsed = (time.perf_counter() - started) * 1000
            if done.returncode != 0:
                raise RuntimeError(f"{label} exited {done.returncode}: {done.stderr.decode(errors='replace')[-400:]}")
            if attempt:
                times.append(elapsed)
        rows.append({"command": label, "runs": runs, "median_ms": round(statistics.median(times), 1),
                     "min_ms": round(min(times), 1)})
    return rows


# ---- the whole benchmark ---------------------------------------------------------------------------


def machine() -> dict:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import fastapi
    import uvicorn

    return {"cpus": os.cpu_count(), "cpu": model or platform.processor(), "python": platform.python_version(),
            "os": platform.platform(terse=True), "fastapi": fastapi.__version__, "uvicorn": uvicorn.__version__}


def run(args) -> dict:
    text = EXAMPLE.read_text(encoding="utf-8")
    home = tempfile.mkdtemp(prefix="unjargon-bench-http-")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("ANTHROPIC_", "UNJARGON_"))}
    env.update(UNJARGON_HOME=home, UNJARGON_BACKEND="offline", PYTHONUNBUFFERED="1")
    n, c, limit = args.requests, args.connections, args.time_limit

    def fixed(path: str, body: dict | None, port: int):
        payload = request_bytes(path, body, port)
        return lambda index: payload

    report: dict = {"machine": machine(), "connections": c, "rounds": args.rounds, "scenarios": {}}
    rounds: dict[str, list[dict]] = {"bare": [], "cached": []}
    for round_number in range(args.rounds):
        for which in ("bare", "unjargon"):
            server = Server(which, env)
            try:
                if which == "bare":
                    make = fixed("/bare", {"text": text}, server.port)
                    server.measure(make, min(n, 500), c, limit)  # warm-up
                    rounds["bare"].append(server.measure(make, n, c, limit))
                    continue
                make = fixed("/v1/explain", {"text": text}, server.port)
                server.measure(make, min(n, 500), c, limit)  # fills the cache, warms the process
                rounds["cached"].append(server.measure(make, n, c, limit))
                if round_number == args.rounds - 1:
                    port = server.port
                    unique = lambda index: request_bytes("/v1/explain", {"text": f"{text}\n(variant {index})"}, port)
                    report["scenarios"]["uncached"] = server.measure(unique, args.uncached_requests, c, limit)
                    name, inputs = CALCULATOR
                    calc = fixed(f"/v1/calculators/{name}", inputs, port)
                    server.measure(calc, min(n, 200), c, limit)
                    report["scenarios"]["calculator"] = server.measure(calc, n, c, limit)
            finally:
                server.stop()
    for key, results in rounds.items():
        chosen = sorted(results, key=lambda r: r["rps"])[len(results) // 2]  # the median round
        report["scenarios"][key] = {**chosen, "rps_of_rounds": [r["rps"] for r in results]}
    bare, cached = report["scenarios"]["bare"], report["scenarios"]["cached"]
    report["cached_vs_bare"] = {"ratio": round(cached["rps"] / bare["rps"], 3), "target": CACHED_TARGET_RATIO,
                                "pass": cached["rps"] / bare["rps"] >= CACHED_TARGET_RATIO}
    report["cli"] = cli_times(env, args.cli_runs) if args.cli_runs else []
    report["command"] = "python bench/http.py " + " ".join(sys.argv[1:])
    return report


LABELS = {
    "bare": "bare FastAPI JSON endpoint (POST /bare)",
    "cached": "POST /v1/explain, cached",
    "uncached": "POST /v1/explain, uncached offline",
    "calculator": f"POST /v1/calculators/{CALCULATOR[0]}",
}


def table(report: dict) -> str:
    lines = [f"{'scenario':<40} {'requests':>8} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'server CPU/req':>14} "
             f"{'client CPU':>10}  statuses"]
    for key in ("bare", "cached", "uncached", "calculator"):
        row = report["scenarios"].get(key)
        if not row:
            continue
        cpu = f"{row['server_cpu_us_per_request']} us" if "server_cpu_us_per_request" in row else "n/a"
        lines.append(f"{LABELS[key]:<40} {row['requests']:>8} {row['rps']:>8.0f} {row['p50_ms']:>8.2f} "
                     f"{row['p99_ms']:>8.2f} {cpu:>14} {row['client_cpu_pct']:>9.0f}%  {row['statuses']}")
    ratio = report["cached_vs_bare"]
    verdict = "pass" if ratio["pass"] else "MISS"
    lines.append(f"\ncached explain / bare endpoint throughput: {ratio['ratio']:.2f} (target >= {ratio['target']}): {verdict}")
    if report["cli"]:
        lines.append(f"\n{'whole process (wall, median)':<66} {'ms':>8}")
        for row in report["cli"]:
            lines.append(f"{row['command']:<66} {row['median_ms']:>8.1f}")
    m = report["machine"]
    lines.append(f"\nmachine: {m['cpus']} CPUs ({m['cpu']}), Python {m['python']}, FastAPI {m['fastapi']}, "
                 f"uvicorn {m['uvicorn']}; {report['connections']} connections; median of {report['rounds']} rounds")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=4000, help="requests per measured run [4000]")
    parser.add_argument("--uncached-requests", type=int, default=300, help="uncached explain requests [300]")
    parser.add_argument("--connections", type=int, default=16, help="concurrent keep-alive connections [16]")
    parser.add_argument("--rounds", type=int, default=3, help="alternating bare/cached rounds; the median is kept [3]")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds at most per measured run [60]")
    parser.add_argument("--cli-runs", type=int, default=5, help="launches of each CLI command, 0 to skip [5]")
    parser.add_argument("--json-out", type=Path, help="also write the JSON report here")
    parser.add_argument("--serve", choices=("bare", "unjargon"), help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve, "127.0.0.1", args.port)
        return 0
    report = run(args)
    print(table(report))
    print("\n" + json.dumps(report, indent=2))
    if args.json_out:
        args.json_out.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
