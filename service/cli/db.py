"""`unjargon db migrate` and `unjargon db copy --to postgresql://...`, and the database check of `unjargon serve`."""

import sys

from service.config import SettingsError

DATABASE_VARIABLE = "UNJARGON_DATABASE_URL"


def add_commands(commands) -> None:
    db = commands.add_parser("db", help="the store's database: migrate it, or copy the SQLite history to PostgreSQL")
    actions = db.add_subparsers(title="actions", metavar="ACTION")
    migrate = actions.add_parser("migrate", help="bring the configured database (UNJARGON_DATABASE_URL, else the SQLite file) to the current schema")
    migrate.set_defaults(handler=migrate_command)
    copy = actions.add_parser("copy", help="copy every conversation, answer and cache row of the SQLite file into an empty PostgreSQL database")
    copy.add_argument("--to", required=True, metavar="URL", help="postgresql://user:password@host:port/database")
    copy.add_argument("--from", dest="source", default=None, metavar="FILE",
                      help="the SQLite file (default: unjargon.db under UNJARGON_HOME)")
    copy.set_defaults(handler=copy_command)
    db.set_defaults(handler=lambda args: db.print_help() or 0)


def check_database(settings) -> None:
    """At start-up: the configured PostgreSQL answers and has the schema; else one line naming the variable (exit 2)."""
    from service.failures import StoreUnavailable
    from service.store import open_store

    try:
        open_store(settings).check()
    except StoreUnavailable as exc:
        raise SettingsError(DATABASE_VARIABLE, f"a PostgreSQL database unjargon can reach ({exc.message})") from None


def migrate_command(args) -> int:
    from service import config
    from service.store import open_store, schema

    settings = config.current()
    if settings.database_url is not None:
        check_database(settings)
        where = open_store(settings).path
    else:
        store = open_store(settings)
        store.connect()  # opening the file applies what is due
        where = store.path
    print(f"{where}: schema current ({len(schema.STEPS)} migrations applied)")
    return 0


def copy_command(args) -> int:
    from pathlib import Path

    from service import config
    from service.config import BY_VARIABLE, _checked
    from service.failures import StoreUnavailable
    from service.store.copy import CopyRefused, copy_sqlite_to_postgres
    from service.store.postgres import redact_url

    settings = config.current()
    try:
        url = str(_checked(BY_VARIABLE[DATABASE_VARIABLE], args.to))
    except SettingsError as exc:
        raise SettingsError("--to", exc.accepts) from None
    source = Path(args.source).expanduser() if args.source else settings.db_path
    try:
        counts = copy_sqlite_to_postgres(source, url)
    except StoreUnavailable as exc:
        raise SettingsError("--to", f"a PostgreSQL database unjargon can reach ({exc.message})") from None
    except CopyRefused as exc:
        print(f"unjargon: error: {exc}", file=sys.stderr)
        return 1
    width = max(len(table) for table in counts)
    for table, count in counts.items():
        print(f"{table:<{width}}  {count:>8} rows")
    print(f"copied {sum(counts.values())} rows from {source} to {redact_url(url)}")
    return 0
