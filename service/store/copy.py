"""`unjargon db copy`: move a SQLite history into PostgreSQL in one transaction, every row or none."""

import sqlite3
from pathlib import Path

from service.store import schema


class CopyRefused(ValueError):
    """The copy cannot start (the destination already holds rows) or did not add up; nothing was written."""


def copy_sqlite_to_postgres(sqlite_path: Path, url: str) -> dict[str, int]:
    """Copy every row of schema.COPIED_TABLES from the SQLite file to the (empty) PostgreSQL database; rows per table."""
    import psycopg

    from service.store.postgres import PostgresStore
    from service.store.sqlite import Store

    if not Path(sqlite_path).is_file():
        raise CopyRefused(f"there is no SQLite store at {sqlite_path}")
    local = Store(sqlite_path)  # brings an older file to the current schema, so the columns match
    try:
        local.connect()
    finally:
        local.close()
    target = PostgresStore(url)
    target.check()
    source = sqlite3.connect(f"file:{sqlite_path}?mode=ro", uri=True)
    counts: dict[str, int] = {}
    try:
        source.execute("BEGIN")  # one snapshot of the file, even while a service keeps writing to it
        with psycopg.connect(target.url, connect_timeout=5) as conn, conn.transaction():
            for table in schema.COPIED_TABLES:
                present = conn.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
                if present:
                    raise CopyRefused(f"the destination already holds {present} rows in {table}; copy into an empty database")
            for table in schema.COPIED_TABLES:
                columns = [row[1] for row in source.execute(f'PRAGMA table_info("{table}")')]
                names = ", ".join(f'"{column}"' for column in columns)
                written = 0
                with conn.cursor().copy(f'COPY "{table}" ({names}) FROM STDIN') as copy:
                    for row in source.execute(f'SELECT {names} FROM "{table}" ORDER BY rowid'):
                        copy.write_row(row)
                        written += 1
                landed = conn.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
                expected = source.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
                if not landed == written == expected:
                    raise CopyRefused(f"{table}: {expected} rows in the file, {landed} arrived; nothing was copied")
                counts[table] = landed
            for table in schema.IDENTITY_TABLES:  # new rows continue after the copied ids
                conn.execute(f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'),"
                             f' COALESCE((SELECT MAX(id) FROM "{table}"), 0) + 1, false)')
    finally:
        source.close()
        target.close()
    return counts
