"""Numbered schema migrations of the SQLite store: service/store/schema.py's steps, applied with sqlite-utils.

PostgreSQL applies the same steps as DDL (service/store/postgres.py); imported only when one is due. A new
file gets the schema these steps end with in one go, from new_database.sql (written by `python -m
service.store.migrations`; a test checks it matches the steps).
"""

import sqlite3
import sys
from pathlib import Path

from sqlite_utils import Database, Migrations

from service.store.schema import STEPS, Step, sqlite_apply

migrations = Migrations("unjargon")


def _migration(step: Step):
    def run(db: Database) -> None:
        for operation in step.operations:
            sqlite_apply(db, operation)

    run.__name__, run.__doc__ = step.name, step.doc
    return run


for _step in STEPS:
    migrations(name=_step.name)(_migration(_step))


def apply(db: Database) -> int:
    """Apply pending migrations inside the caller's transaction; returns how many are recorded as applied."""
    migrations.apply(db)
    return len(migrations.applied(db))


NEW_DATABASE = Path(__file__).with_name("new_database.sql")
STATEMENT_END = ";\n\n"


def new_database_script() -> str:
    """The statements that build the schema every step ends with, as SQLite itself wrote them (no migration rows)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("BEGIN")
    apply(Database(conn, recursive_triggers=False, execute_plugins=False))
    conn.execute("COMMIT")
    statements = [row[0] for row in conn.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")]
    conn.close()
    header = "-- Written by `python -m service.store.migrations` from service/store/schema.py; do not edit.\n"
    return header + "".join(statement + STATEMENT_END for statement in statements)


if __name__ == "__main__":
    NEW_DATABASE.write_text(new_database_script(), encoding="utf-8")
    print(f"wrote {NEW_DATABASE}", file=sys.stderr)
