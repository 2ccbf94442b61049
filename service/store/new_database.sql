-- Written by `python -m service.store.migrations` from service/store/schema.py; do not edit.
CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
);

CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name");

CREATE TABLE "conversations" (
   "id" TEXT PRIMARY KEY,
   "title" TEXT,
   "language" TEXT,
   "created" TEXT NOT NULL,
   "updated" TEXT NOT NULL
, "owner" TEXT);

CREATE TABLE "messages" (
   "id" INTEGER PRIMARY KEY,
   "conversation_id" TEXT NOT NULL REFERENCES "conversations"("id"),
   "role" TEXT NOT NULL,
   "kind" TEXT,
   "content" TEXT,
   "language" TEXT,
   "backend" TEXT,
   "model" TEXT,
   "status" TEXT DEFAULT 'complete',
   "cached" INTEGER DEFAULT 0,
   "error" TEXT,
   "result" TEXT,
   "api_messages" TEXT,
   "created" TEXT NOT NULL
, "cache_key" TEXT);

CREATE TABLE "tool_calls" (
   "id" INTEGER PRIMARY KEY,
   "message_id" INTEGER REFERENCES "messages"("id"),
   "conversation_id" TEXT REFERENCES "conversations"("id"),
   "tool_use_id" TEXT,
   "name" TEXT,
   "input" TEXT,
   "result" TEXT,
   "is_error" INTEGER DEFAULT 0,
   "created" TEXT
);

CREATE TABLE "usage" (
   "id" INTEGER PRIMARY KEY,
   "message_id" INTEGER REFERENCES "messages"("id"),
   "conversation_id" TEXT REFERENCES "conversations"("id"),
   "model" TEXT,
   "input_tokens" INTEGER,
   "output_tokens" INTEGER,
   "cache_read_tokens" INTEGER,
   "cache_write_tokens" INTEGER,
   "cache_write_1h_tokens" INTEGER,
   "cost_usd" REAL,
   "created" TEXT
);

CREATE INDEX "idx_messages_conversation_id_id"
    ON "messages" ("conversation_id", "id");

CREATE INDEX "idx_conversations_updated"
    ON "conversations" ("updated");

CREATE INDEX "idx_tool_calls_message_id"
    ON "tool_calls" ("message_id");

CREATE INDEX "idx_usage_message_id"
    ON "usage" ("message_id");

CREATE INDEX "idx_conversations_owner_updated"
    ON "conversations" ("owner", "updated");

CREATE TABLE "pending_turns" (
   "message_id" INTEGER PRIMARY KEY REFERENCES "messages"("id"),
   "conversation_id" TEXT NOT NULL REFERENCES "conversations"("id"),
   "worker" TEXT NOT NULL,
   "started" TEXT NOT NULL
);

CREATE TABLE "cache_leases" (
   "key" TEXT PRIMARY KEY,
   "worker" TEXT NOT NULL,
   "expires" REAL NOT NULL
);

CREATE TABLE "response_cache" (
   "key" TEXT PRIMARY KEY,
   "request" TEXT,
   "result" TEXT,
   "backend" TEXT,
   "model" TEXT,
   "created" TEXT
);

CREATE TABLE "rate_hits" (
   "id" INTEGER PRIMARY KEY,
   "caller" TEXT NOT NULL,
   "at" REAL NOT NULL
);

CREATE INDEX "idx_rate_hits_caller_at"
    ON "rate_hits" ("caller", "at");

