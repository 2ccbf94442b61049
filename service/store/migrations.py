"""Numbered schema migrations of the SQLite store: service/store/schema.py's steps, applied with sqlite-utils.

PostgreSQL applies the same steps as DDL (service/store/postgres.py); imported only when one is due.
"""

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
