"""The store's schema, described once as numbered steps; SQLite applies them with sqlite-utils, PostgreSQL as DDL.

Each step is a list of operations on tables (create, add a column, index, drop columns). Types are Python's
(str, int, float) as sqlite-utils takes them; PostgreSQL gets TEXT, BIGINT and DOUBLE PRECISION, and an
integer primary key named `id` becomes an identity column (BY DEFAULT, so `db copy` keeps the ids).
Times stay ISO 8601 text and JSON stays text on both, so rows move between the two unchanged.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Table:
    """CREATE TABLE: columns in order, primary key, NOT NULL columns, defaults and foreign keys (column, table, column)."""

    name: str
    columns: dict
    pk: str | tuple
    not_null: frozenset = frozenset()
    defaults: dict = field(default_factory=dict)
    foreign_keys: tuple = ()


@dataclass(frozen=True)
class AddColumn:
    table: str
    column: str
    type: type


@dataclass(frozen=True)
class Index:
    table: str
    columns: tuple


@dataclass(frozen=True)
class DropColumns:
    table: str
    columns: tuple


@dataclass(frozen=True)
class Step:
    """One migration: its name (recorded once applied), why it exists, and what it does."""

    name: str
    doc: str
    operations: tuple


STEPS: tuple[Step, ...] = (
    Step("m001_initial", "Conversations, messages, tool calls, usage and the response cache.", (
        Table("conversations", {"id": str, "title": str, "language": str, "created": str, "updated": str},
              pk="id", not_null=frozenset({"created", "updated"})),
        Table("messages", {
            "id": int,
            "conversation_id": str,
            "role": str,  # user | assistant
            "kind": str,  # user turns: explain (a thread) | followup (a question)
            "content": str,  # the user's text, or the assistant's explanation (markdown)
            "language": str,
            "backend": str,
            "model": str,
            "status": str,  # complete | partial | max_tokens | refused | failed
            "cached": int,
            "error": str,
            "result": str,  # the whole explanation object, JSON
            "api_messages": str,  # this exchange's assistant and tool_result turns, JSON, for multi-turn history
            "created": str,
        }, pk="id", not_null=frozenset({"conversation_id", "role", "created"}),
            defaults={"cached": 0, "status": "complete"}, foreign_keys=(("conversation_id", "conversations", "id"),)),
        Table("tool_calls", {"id": int, "message_id": int, "conversation_id": str, "tool_use_id": str, "name": str,
                             "input": str, "result": str, "is_error": int, "created": str},
              pk="id", defaults={"is_error": 0},
              foreign_keys=(("message_id", "messages", "id"), ("conversation_id", "conversations", "id"))),
        Table("usage", {"id": int, "message_id": int, "conversation_id": str, "model": str, "input_tokens": int,
                        "output_tokens": int, "cache_read_tokens": int, "cache_write_tokens": int,
                        "cache_write_1h_tokens": int,
                        "cost_usd": float,  # null when the model has no price in data/prices.json
                        "created": str},
              pk="id", foreign_keys=(("message_id", "messages", "id"), ("conversation_id", "conversations", "id"))),
        Table("response_cache", {
            "key": str,  # sha256 of the canonical request
            "request": str,  # the canonical request, JSON, so a hit can be explained
            "result": str,  # the explanation object, JSON
            "backend": str, "model": str, "created": str, "hits": int, "last_hit": str,
        }, pk="key", defaults={"hits": 0}),
        Index("messages", ("conversation_id", "id")),
        Index("conversations", ("updated",)),
        Index("tool_calls", ("message_id",)),
        Index("usage", ("message_id",)),
    )),
    Step("m002_conversation_owner",
         "Conversations belong to the API token that made them (a digest, never the token); NULL means no auth.", (
             AddColumn("conversations", "owner", str),
             Index("conversations", ("owner", "updated")),
         )),
    Step("m003_pending_turns_and_cache_references",
         "Turns in progress, cross-process cache leases, and cached answers stored by reference.\n\n"
         "pending_turns: a user message whose answer is being produced (deleted with the answer); a row whose\n"
         "worker is gone was interrupted and is swept to a failed answer. cache_leases: the process asking the\n"
         "model for a cache key, so identical misses elsewhere wait for its answer (single-flight across\n"
         "processes and replicas). messages.cache_key: a cached answer names its cache row instead of copying\n"
         "it; the per-hit counters go (they rewrote a whole cache row on every hit).", (
             AddColumn("messages", "cache_key", str),
             Table("pending_turns", {"message_id": int, "conversation_id": str, "worker": str, "started": str},
                   pk="message_id", not_null=frozenset({"conversation_id", "worker", "started"}),
                   foreign_keys=(("message_id", "messages", "id"), ("conversation_id", "conversations", "id"))),
             Table("cache_leases", {"key": str, "worker": str, "expires": float}, pk="key",
                   not_null=frozenset({"worker", "expires"})),
             DropColumns("response_cache", ("hits", "last_hit")),
         )),
    Step("m004_rate_hits",
         "Requests counted for rate limits, so replicas sharing a database share the limit (a one-minute window).", (
             Table("rate_hits", {"id": int, "caller": str, "at": float}, pk="id",
                   not_null=frozenset({"caller", "at"})),
             Index("rate_hits", ("caller", "at")),
         )),
)

# Tables in the order rows must be copied (foreign keys point backwards); transient ones are left out.
COPIED_TABLES = ("conversations", "messages", "tool_calls", "usage", "response_cache", "pending_turns")
IDENTITY_TABLES = ("messages", "tool_calls", "usage", "rate_hits")

_PG_TYPES = {str: "TEXT", int: "BIGINT", float: "DOUBLE PRECISION"}


def _pg_literal(value) -> str:
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


def _index_name(table: str, columns: tuple) -> str:
    return f"idx_{table}_{'_'.join(columns)}"  # sqlite-utils' naming, so both databases list the same indexes


def postgres_ddl(operation) -> list[str]:
    """The PostgreSQL statements for one operation."""
    if isinstance(operation, Table):
        parts = []
        for name, kind in operation.columns.items():
            if name == operation.pk and kind is int and name == "id":
                parts.append(f'"{name}" BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY')
                continue
            text = f'"{name}" {_PG_TYPES[kind]}'
            if name == operation.pk:
                text += " PRIMARY KEY"
            elif name in operation.not_null:
                text += " NOT NULL"
            if name in operation.defaults:
                text += " DEFAULT " + _pg_literal(operation.defaults[name])
            parts.append(text)
        parts += [f'FOREIGN KEY ("{column}") REFERENCES "{table}" ("{other}")'
                  for column, table, other in operation.foreign_keys]
        return [f'CREATE TABLE "{operation.name}" ({", ".join(parts)})']
    if isinstance(operation, AddColumn):
        return [f'ALTER TABLE "{operation.table}" ADD COLUMN "{operation.column}" {_PG_TYPES[operation.type]}']
    if isinstance(operation, Index):
        columns = ", ".join(f'"{column}"' for column in operation.columns)
        return [f'CREATE INDEX "{_index_name(operation.table, operation.columns)}" ON "{operation.table}" ({columns})']
    if isinstance(operation, DropColumns):
        return [f'ALTER TABLE "{operation.table}" DROP COLUMN "{column}"' for column in operation.columns]
    raise TypeError(f"unknown schema operation {operation!r}")


def sqlite_apply(db, operation) -> None:
    """Apply one operation to a sqlite-utils Database (as the hand-written migrations did)."""
    if isinstance(operation, Table):
        db[operation.name].create(dict(operation.columns), pk=operation.pk, not_null=set(operation.not_null) or None,
                                  defaults=dict(operation.defaults) or None,
                                  foreign_keys=list(operation.foreign_keys) or None)
    elif isinstance(operation, AddColumn):
        db[operation.table].add_column(operation.column, operation.type)
    elif isinstance(operation, Index):
        db[operation.table].create_index(list(operation.columns))
    elif isinstance(operation, DropColumns):
        db[operation.table].transform(drop=set(operation.columns))
    else:
        raise TypeError(f"unknown schema operation {operation!r}")
