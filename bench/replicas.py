"""Benchmark: cached explain throughput of two replicas sharing PostgreSQL beside one replica on SQLite, same run.

Run with the project's interpreter: `.venv/bin/python bench/replicas.py` (about a minute). Prints a table,
then the figures as JSON; nothing is asserted (DESIGN.md: benchmarks print figures).

Method
- PostgreSQL is the test suite's own throw-away server (tests/support/postgres_server.py: a temporary folder,
  a loopback port, fsync off, as in the tests). Each replica is `unjargon serve --workers 1` (offline
  backend), started as tests/support/server_process.py starts it; the SQLite replica has its own home.
- One text is explained once (a miss), then every request is that text again: a hit, which still writes
  a new conversation with its two messages to the store. `--connections` keep-alive clients (the lean
  client of tests/support/loopback_client.py) send requests in a closed loop for `--seconds`, split
  evenly over the replicas of the setup under test. The setups alternate for `--rounds` rounds; each
  reports its median round. On a 2-core machine, two replicas and the database share the same cores,
  so the figure says what the shared store costs, not what more hosts would add.
"""

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Python puts bench/ first on the path; bench/http.py would otherwise shadow the standard library's http.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

from tests.support.loopback_client import Connection  # noqa: E402
from tests.support.server_process import ServerProcess  # noqa: E402

TEXT = "you only need PP when you're DP-comms bound; NVL72 has so much bandwidth over a large domain"


async def _load(ports: list[int], connections: int, seconds: float) -> dict:
    latencies: list[float] = []
    errors = 0
    stop = time.monotonic() + seconds

    async def client(index: int) -> None:
        nonlocal errors
        conn = Connection("127.0.0.1", ports[index % len(ports)])
        try:
            while time.monotonic() < stop:
                started = time.perf_counter()
                status, _ = await conn.request("POST", "/v1/explain", {"text": TEXT})
                if status == 200:
                    latencies.append(time.perf_counter() - started)
                else:
                    errors += 1
        finally:
            conn.close()

    started = time.monotonic()
    await asyncio.gather(*(client(i) for i in range(connections)))
    elapsed = time.monotonic() - started
    latencies.sort()
    return {"requests_per_s": len(latencies) / elapsed, "errors": errors,
            "p50_ms": 1000 * latencies[len(latencies) // 2] if latencies else None,
            "p99_ms": 1000 * latencies[int(len(latencies) * 0.99)] if latencies else None}


def _warm(servers: list[ServerProcess]) -> None:
    import httpx

    for server in servers:  # the first answer is computed once; every later one is a hit on every replica
        assert httpx.post(server.url + "/v1/explain", json={"text": TEXT}, timeout=60).status_code == 200


def run(args) -> dict:
    from tests.support.postgres_server import ensure_bindir, PostgresServer

    bindir, why = ensure_bindir()
    if bindir is None:
        raise SystemExit(f"bench/replicas.py needs a PostgreSQL server: {why}")
    pg = PostgresServer(bindir).start()
    root = Path(tempfile.mkdtemp(prefix="unjargon-bench-replicas-"))
    servers: dict[str, list[ServerProcess]] = {}
    try:
        url = pg.create_database("bench")
        homes = [root / name for name in ("pg-a", "pg-b", "sqlite")]
        for home in homes:
            home.mkdir()
        servers["postgresql, 2 replicas"] = [ServerProcess(home, workers=1, env={"UNJARGON_DATABASE_URL": url}).start()
                                             for home in homes[:2]]
        servers["sqlite, 1 replica"] = [ServerProcess(homes[2], workers=1).start()]
        for group in servers.values():
            _warm(group)
        rounds: dict[str, list[dict]] = {name: [] for name in servers}
        for _ in range(args.rounds):
            for name, group in servers.items():
                rounds[name].append(asyncio.run(_load([s.port for s in group], args.connections, args.seconds)))
        results = {}
        for name, measured in rounds.items():
            median = sorted(measured, key=lambda r: r["requests_per_s"])[len(measured) // 2]
            results[name] = {**median, "rounds_requests_per_s": [round(r["requests_per_s"], 1) for r in measured]}
        return {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
                "connections": args.connections, "seconds_per_round": args.seconds, "results": results}
    finally:
        for group in servers.values():
            for server in group:
                server.stop()
        pg.destroy()


def table(report: dict) -> str:
    lines = [f"cached POST /v1/explain, {report['connections']} connections, median of rounds "
             f"({report['machine']['cpus']} CPUs)", f"{'setup':<24} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}"]
    for name, result in report["results"].items():
        lines.append(f"{name:<24} {result['requests_per_s']:>8.1f} {result['p50_ms'] or 0:>8.2f} "
                     f"{result['p99_ms'] or 0:>8.2f} {result['errors']:>7}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    report = run(parser.parse_args(argv))
    print(table(report))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
