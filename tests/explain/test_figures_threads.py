"""The figure reader's lazily built tables are read by many server threads at once (found by the load test)."""

import sys
import threading

from service.explain.figures import words as figures


def test_a_table_prepared_by_one_thread_is_never_seen_half_built_by_another():
    # The server runs explains in a thread pool; the first lookups of a fresh process race to build the
    # table's word index. A reader that saw the words before the wildcard flags raised IndexError (a 500).
    errors: list[BaseException] = []
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter allows, to meet the race
    try:
        for round_ in range(30):
            table = figures._Table(figures._KEYS, "pattern", figures._FILL + r"(?:~\s*)?$")
            start = threading.Barrier(8)

            def look(word: str) -> None:
                start.wait()
                try:
                    table.candidates(word)
                except BaseException as exc:  # noqa: BLE001 - collected and reported below
                    errors.append(exc)

            threads = [threading.Thread(target=look, args=(f"batch{round_}{i}",)) for i in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    finally:
        sys.setswitchinterval(previous)
    assert not errors, errors[:3]
    assert len(table.candidates("batch")) == len(figures._Table(figures._KEYS, "pattern").candidates("batch"))
