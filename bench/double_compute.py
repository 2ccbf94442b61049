"""Stress: N concurrent identical explain requests over several `unjargon serve` replicas must compute once (issue 21).

Run with the project's interpreter, pinned to one core as the issue asks (every child inherits the pin):
`taskset -c 0 .venv/bin/python bench/double_compute.py --runs 50` (about 20 s on a busy 2-core machine).
Prints one line per run and a summary: the runs whose answer was computed more than once. Nothing is
asserted (DESIGN.md: benchmarks print figures); the exit status is 1 when any run computed twice or a request
failed (the servers' logs are then kept, and their folder named).

Method
- PostgreSQL is the test suite's own throw-away server (tests/support/postgres_server.py: a temporary folder,
  a loopback port). `--replicas` processes of `unjargon serve --workers W` (offline backend) share one database,
  started as tests/support/server_process.py starts them. `--store sqlite` instead runs one `unjargon serve
  --workers W` on one SQLite file (its workers are separate processes sharing the file).
- Each run asks a text of its own (so every run starts with a miss): `--requests` keep-alive connections are
  opened first, spread evenly over the replicas, then all send `POST /v1/explain` at once.
- A computation is an assistant message stored with cached = 0 (the one turn whose process ran the backend;
  every turn served from the cache or from another's run is stored with cached = 1). The responses' `cached`
  flags are counted too and must agree.
"""

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Python puts bench/ first on the path; bench/http.py would otherwise shadow the standard library's http.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

from tests.support.loopback_client import Connection  # noqa: E402
from tests.support.server_process import ServerProcess  # noqa: E402

THREAD = "you only need PP when you're DP-comms bound; NVL72 has so much bandwidth over a large domain"

COMPUTED_SQL = ("SELECT COUNT(*) FROM messages a JOIN messages q ON q.conversation_id = a.conversation_id"
                " WHERE q.role = 'user' AND q.content = ? AND a.role = 'assistant' AND a.cached = 0")


async def fire(ports: list[int], text: str, requests: int) -> tuple[int, int, float]:
    """All `requests` at once over `ports`: (responses marked not cached, failures, seconds)."""
    connections = [Connection("127.0.0.1", ports[i % len(ports)]) for i in range(requests)]
    try:
        for conn in connections:  # connected before the burst, so the requests arrive together
            conn.reader, conn.writer = await asyncio.open_connection(conn.host, conn.port)
        started = time.perf_counter()
        replies = await asyncio.gather(*(conn.request("POST", "/v1/explain", {"text": text}) for conn in connections))
        elapsed = time.perf_counter() - started
    finally:
        for conn in connections:
            conn.close()
    computed = sum(1 for status, body in replies if status == 200 and not json.loads(body)["cached"])
    failed = sum(1 for status, _ in replies if status != 200)
    return computed, failed, elapsed


def tag(run: int) -> str:
    """Letters naming a run uniquely (hex digits could spell a number such as 12e45678 that the text would be about)."""
    return "".join("abcdefghijklmnop"[int(digit, 16)] for digit in uuid.uuid4().hex[:8]) + f"-{run}"


def start_servers(args, root: Path):
    """The replicas, a store on their database (to count computations) and the PostgreSQL server (None on SQLite)."""
    if args.store == "sqlite":
        home = root / "sqlite"
        home.mkdir()
        servers = [ServerProcess(home, workers=args.workers).start()]
        from service.config import DB_NAME
        from service.store.sqlite import Store

        store = Store(home / DB_NAME)
        return servers, store, None
    from tests.support.postgres_server import PostgresServer, ensure_bindir
    from service.store.postgres import PostgresStore

    bindir, why = ensure_bindir()
    if bindir is None:
        raise SystemExit(f"bench/double_compute.py needs a PostgreSQL server: {why}")
    pg = PostgresServer(bindir).start()
    url = pg.create_database("double_compute")
    servers = []
    for index in range(args.replicas):
        home = root / f"replica-{index}"
        home.mkdir()
        servers.append(ServerProcess(home, workers=args.workers, env={"UNJARGON_DATABASE_URL": url}).start())
    return servers, PostgresStore(url), pg


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="bursts, each with a text of its own (1-500)")
    parser.add_argument("--requests", type=int, default=20, help="concurrent identical requests per burst (2-200)")
    parser.add_argument("--replicas", type=int, default=2, help="unjargon serve processes on PostgreSQL (1-8)")
    parser.add_argument("--workers", type=int, default=1, help="--workers of each replica (1-8)")
    parser.add_argument("--store", choices=("postgresql", "sqlite"), default="postgresql")
    args = parser.parse_args(argv)
    for name, low, high in (("runs", 1, 500), ("requests", 2, 200), ("replicas", 1, 8), ("workers", 1, 8)):
        if not low <= getattr(args, name) <= high:
            parser.error(f"--{name} must be between {low} and {high}")
    root = Path(tempfile.mkdtemp(prefix="unjargon-bench-double-"))
    servers, store, pg = start_servers(args, root)
    if args.store == "sqlite":
        args.replicas = 1
    doubled, failures = [], 0
    try:
        ports = [server.port for server in servers]
        print(f"{args.store}: {len(servers)} replica(s) x {args.workers} worker(s), {args.requests} requests a run")
        for run in range(1, args.runs + 1):
            text = f"{THREAD} (burst {tag(run)})"
            answered, failed, elapsed = asyncio.run(fire(ports, text, args.requests))
            computed = store.connect().execute(COMPUTED_SQL, (text,)).fetchone()[0]
            failures += failed
            if computed != 1 or answered != computed:
                doubled.append(run)
            print(f"run {run:>3}: computed {computed} (responses say {answered}), {failed} failed, {elapsed:.2f} s",
                  flush=True)
    finally:
        store.close()
        for server in servers:
            server.stop()
        if pg is not None:
            pg.destroy()
        if failures:
            print(f"failed requests: the servers' logs are in {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(f"runs with a double computation: {len(doubled)} of {args.runs}"
          + (f" (runs {', '.join(map(str, doubled))})" if doubled else "") + f"; failed requests: {failures}")
    return 1 if doubled or failures else 0


if __name__ == "__main__":
    sys.exit(main())
