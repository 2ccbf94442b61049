"""Numbered schema migrations of the SQLite store (sqlite-utils Migrations; imported only when one is due)."""

from sqlite_utils import Database, Migrations

migrations = Migrations("unjargon")


@migrations(name="m001_initial")
def m001_initial(db: Database) -> None:
    """Conversations, messages, tool calls, usage and the response cache."""
    db["conversations"].create(
        {"id": str, "title": str, "language": str, "created": str, "updated": str},
        pk="id",
        not_null={"created", "updated"},
    )
    db["messages"].create(
        {
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
        },
        pk="id",
        foreign_keys=[("conversation_id", "conversations", "id")],
        not_null={"conversation_id", "role", "created"},
        defaults={"cached": 0, "status": "complete"},
    )
    db["tool_calls"].create(
        {
            "id": int,
            "message_id": int,
            "conversation_id": str,
            "tool_use_id": str,
            "name": str,
            "input": str,
            "result": str,
            "is_error": int,
            "created": str,
        },
        pk="id",
        foreign_keys=[("message_id", "messages", "id"), ("conversation_id", "conversations", "id")],
        defaults={"is_error": 0},
    )
    db["usage"].create(
        {
            "id": int,
            "message_id": int,
            "conversation_id": str,
            "model": str,
            "input_tokens": int,
            "output_tokens": int,
            "cache_read_tokens": int,
            "cache_write_tokens": int,
            "cache_write_1h_tokens": int,
            "cost_usd": float,  # null when the model has no price in data/prices.json
            "created": str,
        },
        pk="id",
        foreign_keys=[("message_id", "messages", "id"), ("conversation_id", "conversations", "id")],
    )
    db["response_cache"].create(
        {
            "key": str,  # sha256 of the canonical request
            "request": str,  # the canonical request, JSON, so a hit can be explained
            "result": str,  # the explanation object, JSON
            "backend": str,
            "model": str,
            "created": str,
            "hits": int,
            "last_hit": str,
        },
        pk="key",
        defaults={"hits": 0},
    )
    db["messages"].create_index(["conversation_id", "id"])
    db["conversations"].create_index(["updated"])
    db["tool_calls"].create_index(["message_id"])
    db["usage"].create_index(["message_id"])


@migrations(name="m002_conversation_owner")
def m002_conversation_owner(db: Database) -> None:
    """Conversations belong to the API token that made them (a digest, never the token); NULL means no auth."""
    db["conversations"].add_column("owner", str)
    db["conversations"].create_index(["owner", "updated"])


@migrations(name="m003_pending_turns_and_cache_references")
def m003_pending_turns_and_cache_references(db: Database) -> None:
    """Turns in progress, cross-process cache leases, and cached answers stored by reference.

    - pending_turns: a user message whose answer is being produced. The row is written with the message
      and deleted in the transaction that stores the answer (or the failure), so a row here means "a
      process is working on it". `worker` names that process (host:pid:start time); a row whose worker
      is gone was interrupted by a crash and is swept to a failed answer when the store next opens.
    - cache_leases: the process asking the model for a cache key, so identical misses in other worker
      processes wait for its answer instead of paying for their own (single-flight across processes).
    - messages.cache_key: an answer served from the response cache names the cache row instead of
      copying it (content and result stay NULL); cache rows are never rewritten once stored. How often
      an entry was served is COUNT(*) of the messages naming it, so the per-hit counter columns go: they
      rewrote the whole (tens of kilobytes) cache row on every hit.
    """
    db["messages"].add_column("cache_key", str)
    db["pending_turns"].create(
        {"message_id": int, "conversation_id": str, "worker": str, "started": str},
        pk="message_id",
        foreign_keys=[("message_id", "messages", "id"), ("conversation_id", "conversations", "id")],
        not_null={"conversation_id", "worker", "started"},
    )
    db["cache_leases"].create({"key": str, "worker": str, "expires": float}, pk="key", not_null={"worker", "expires"})
    db["response_cache"].transform(drop={"hits", "last_hit"})


def apply(db: Database) -> int:
    """Apply pending migrations inside the caller's transaction; returns how many are recorded as applied."""
    migrations.apply(db)
    return len(migrations.applied(db))
