"""One writer thread per store and process: callers hand it a function of the connection and wait for the
commit; what queues up meanwhile is committed together, each caller's part in its own savepoint."""

import os
import queue
import sqlite3
import threading
import time
from typing import Callable

BUSY_TIMEOUT_S = 10.0  # writers queue on SQLite's busy handler this long before "database is locked"
MAX_BATCH = 64  # writes committed in one transaction at most


class Outcome:
    """A thread's wait for its write (concurrent.futures would cost the offline CLI its import)."""

    __slots__ = ("event", "value", "error")

    def __init__(self):
        self.event = threading.Event()
        self.value = self.error = None

    def done(self) -> bool:
        return self.event.is_set()

    def set_result(self, value) -> None:
        self.value = value
        self.event.set()

    def set_exception(self, error: BaseException) -> None:
        self.error = error
        self.event.set()

    def result(self):
        self.event.wait()
        if self.error is not None:
            raise self.error
        return self.value


class Write:
    """One caller's part of a transaction: a function of the connection, and where its outcome goes."""

    __slots__ = ("fn", "future", "loop")

    def __init__(self, fn: Callable[[sqlite3.Connection], object], loop=None):
        self.fn = fn
        self.loop = loop  # an asyncio caller: `future` is that loop's, settled from the loop's own thread
        self.future = loop.create_future() if loop is not None else Outcome()


_STOP = object()


def _settle(outcomes: list) -> None:
    for future, value, exc in outcomes:
        if future.done():  # an asyncio caller that went away (the write itself stands)
            continue
        if exc is not None:
            future.set_exception(exc)
        else:
            future.set_result(value)


class Writer:
    """The thread that runs every write of one store in this process, group-committing what queues up."""

    def __init__(self, store):  # a service.store.Store: its _open() and _sweep()
        self.store = store
        self.pid = os.getpid()
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="unjargon-sqlite-writer", daemon=True)
        self.thread.start()

    def submit(self, item: Write) -> Write:
        self.queue.put(item)
        return item

    def stop(self) -> None:
        self.queue.put(_STOP)
        self.thread.join(timeout=BUSY_TIMEOUT_S + 5)

    def _run(self) -> None:
        conn = None
        stopping = False
        while not stopping:
            batch = [self.queue.get()]
            while len(batch) < MAX_BATCH:
                try:
                    batch.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            if _STOP in batch:
                stopping = True
                batch = [item for item in batch if item is not _STOP]
            if conn is None:
                try:
                    conn = self.store._open()
                except BaseException as exc:
                    self._report([(item, None, exc) for item in batch])
                    continue
                # Once per process and file: turns that dead processes left pending become failures.
                self._commit(conn, [Write(self.store._sweep)])
            self._commit(conn, batch)
        if conn is not None:
            conn.close()

    @staticmethod
    def _begin(conn: sqlite3.Connection) -> None:
        """BEGIN IMMEDIATE, waiting for another process's write by polling every 0.1-2 ms.

        SQLite's own busy handler sleeps 1, 2, 5, 10... ms between tries, so two worker processes that
        write all the time hand the lock back and forth with a sleep each time: the load test's mix ran at
        321 requests a second on two workers against 865 on one. Polling keeps the hand-over short; the
        overall wait is still bounded by BUSY_TIMEOUT_S.
        """
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        pause = 0.0001
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            while True:
                try:
                    conn.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or time.monotonic() >= deadline:
                        raise
                time.sleep(pause)
                pause = min(pause * 2, 0.002)
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")

    def _commit(self, conn: sqlite3.Connection, batch: list[Write]) -> None:
        try:
            self._begin(conn)
        except BaseException as exc:  # e.g. another process held the lock past the busy timeout
            return self._report([(item, None, exc) for item in batch])
        self._report(run_batch(conn, batch))

    @staticmethod
    def _report(outcomes: list) -> None:
        """Hand each caller its outcome; asyncio callers of one loop are woken once for the whole batch."""
        by_loop: dict = {}
        for item, value, exc in outcomes:
            if item.loop is None:
                _settle([(item.future, value, exc)])
            else:
                by_loop.setdefault(item.loop, []).append((item.future, value, exc))
        for loop, settled in by_loop.items():
            try:
                loop.call_soon_threadsafe(_settle, settled)
            except RuntimeError:  # that event loop has closed: nobody is waiting any more
                pass


def run_batch(conn: sqlite3.Connection, batch: list[Write]) -> list:
    """Run each write in the open transaction, each in its own savepoint (alone: none), and COMMIT; the outcomes.

    A write that raises is undone alone; when the transaction as a whole fails, nothing is written and every
    write gets that failure.
    """
    outcomes = []
    single = len(batch) == 1  # alone in its transaction, a failure rolls the transaction back: no savepoint
    try:
        for item in batch:
            if not single:
                conn.execute("SAVEPOINT item")
            try:
                value = item.fn(conn)
            except Exception as exc:
                if single:
                    raise
                conn.execute("ROLLBACK TO item")  # undo this caller's part only
                conn.execute("RELEASE item")
                outcomes.append((item, None, exc))
            else:
                if not single:
                    conn.execute("RELEASE item")
                outcomes.append((item, value, None))
        conn.execute("COMMIT")
    except BaseException as exc:  # the transaction failed (or its only part did): nothing was written
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
        return [(item, None, exc) for item in batch]
    return outcomes


class LoopWrites:
    """The writes an event loop's callbacks make in one turn, committed together on the loop's own thread.

    Handing each cached hit's write to the writer thread cost the HTTP service about 140 µs of CPU a request:
    thread wake-ups and GIL hand-overs for batches of one or two. Here the writes queued during one turn of
    the loop are one transaction, run once that turn's callbacks are done. The loop never waits on SQLite's
    lock: when another connection holds it (the writer thread's, another process's), the batch goes to the
    writer thread, which waits instead.
    """

    def __init__(self, loop, open_connection: Callable[[], sqlite3.Connection], writer_of: Callable[[], "Writer"]):
        self.loop = loop
        self.pid = os.getpid()
        self.open_connection = open_connection
        self.writer_of = writer_of
        self.conn: sqlite3.Connection | None = None
        self.pending: list[Write] = []

    def submit(self, fn: Callable[[sqlite3.Connection], object]):
        """Queue `fn` for this turn's transaction; the future the caller awaits."""
        item = Write(fn, self.loop)
        if not self.pending:
            self.loop.call_soon(self.flush)  # after the callbacks already ready: they may add theirs
        self.pending.append(item)
        return item.future

    def flush(self) -> None:
        batch, self.pending = self.pending, []
        try:
            if self.conn is None:
                self.conn = self.open_connection()
                self.conn.execute("PRAGMA busy_timeout = 0")  # a lock held elsewhere is answered at once
            self.conn.execute("BEGIN IMMEDIATE")
        except Exception as exc:  # a callback of the loop must settle every future, whatever happens
            if not (isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc))):
                return _settle([(item.future, None, exc) for item in batch])
            writer = self.writer_of()
            for item in batch:
                writer.submit(item)  # settled from the writer thread through the loop, as before
            return
        _settle([(item.future, value, exc) for item, value, exc in run_batch(self.conn, batch)])
