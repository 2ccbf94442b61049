"""A new SQLite file gets the schema the migrations end with in one go (service/store/new_database.sql)."""

import sqlite3

from service.store import migrations
from service.store.schema import STEPS
from service.store.sqlite import SCHEMA_VERSION, Store
from sqlite_utils import Database


def _shape(conn: sqlite3.Connection) -> dict:
    """What a database is, schema-wise: every table's columns, indexes and foreign keys, and the steps applied."""
    shape = {}
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
        shape[table] = {
            "columns": conn.execute(f'PRAGMA table_info("{table}")').fetchall(),
            "indexes": sorted((row[1], row[2], tuple(c[2] for c in conn.execute(f'PRAGMA index_info("{row[1]}")')))
                              for row in conn.execute(f'PRAGMA index_list("{table}")')),
            "foreign_keys": conn.execute(f'PRAGMA foreign_key_list("{table}")').fetchall(),
        }
    shape["steps"] = [row[0] for row in conn.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
    shape["version"] = conn.execute("PRAGMA user_version").fetchone()[0]
    return shape


def test_the_shipped_script_is_what_the_steps_build():
    # A new step in schema.py needs the script written again: python -m service.store.migrations
    assert migrations.NEW_DATABASE.read_text(encoding="utf-8") == migrations.new_database_script(), \
        "service/store/new_database.sql is stale: run `python -m service.store.migrations`"


def test_a_new_file_is_the_same_database_as_one_migrated_step_by_step(tmp_path):
    store = Store(tmp_path / "new.db")
    store.connect()
    created = sqlite3.connect(tmp_path / "new.db")
    migrated = sqlite3.connect(tmp_path / "migrated.db", isolation_level=None)
    migrated.execute("BEGIN")
    applied = migrations.apply(Database(migrated, recursive_triggers=False, execute_plugins=False))
    migrated.execute(f"PRAGMA user_version = {applied}")
    migrated.execute("COMMIT")
    assert _shape(created) == _shape(migrated)
    assert _shape(created)["steps"] == [step.name for step in STEPS]
    assert _shape(created)["version"] == SCHEMA_VERSION
    # sqlite-utils sees every step as applied: nothing is due on the new file
    assert migrations.migrations.pending(Database(created)) == []
    store.close()


def test_a_file_with_data_from_an_older_version_is_still_migrated_step_by_step(tmp_path):
    path = tmp_path / "old.db"
    old = sqlite3.connect(path, isolation_level=None)
    old.execute("BEGIN")
    db = Database(old, recursive_triggers=False, execute_plugins=False)
    first = migrations.Migrations("unjargon")
    first(name=STEPS[0].name)(migrations._migration(STEPS[0]))
    first.apply(db)
    old.execute("PRAGMA user_version = 1")
    old.execute("INSERT INTO conversations (id, title, created, updated) VALUES ('c1', 'kept', 't', 't')")
    old.execute("COMMIT")
    old.close()
    store = Store(path)
    conn = store.connect()
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("SELECT title, owner FROM conversations").fetchall()[0][:] == ("kept", None)
    store.close()
