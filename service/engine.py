"""The explainer engine: backend choice and fallback, the response cache, single-flight, and the store."""

import json
import queue
import threading
import time
from functools import cached_property
from typing import Callable, Iterator, NamedTuple

from service import config, llm
from service.config import Settings
from service.failures import BackendUnavailable, Cancelled, ConversationNotFound, UnjargonError
from service.i18n import languages
from service.llm.base import Answer, ExplainRequest
from service.reader_text import without_controls
from service.store import Store, close_stores as _close_store_files, open_store
from service.store.cache import HitCache, cache_key, canonical_request, encode
from service.store.singleflight import SingleFlight


_flights = SingleFlight()
_hits = HitCache()
LEASE_POLL_S = 0.05  # how often a process waiting for another's answer looks for it


# Plan and Prepared are not dataclasses: building a dataclass costs each process about a millisecond at import.
class Plan(NamedTuple):
    """Which backend to try, what it falls back to, and the settings it runs under."""

    mode: str  # what was asked: auto, or a backend's name
    backend: str  # what is tried first
    settings: Settings
    model: str | None = None

    @property
    def home(self):
        return self.settings.home


def plan(backend: str | None = None, settings: Settings | None = None, model: str | None = None) -> Plan:
    """Resolve argument > environment > default into a Plan (SettingsError names a bad value)."""
    settings = settings or config.current()
    overrides = {key: value for key, value in (("backend", backend), ("model", model)) if value}
    if overrides:
        settings = settings.model_copy(update=overrides)
    resolved = settings.resolved_backend()
    return Plan(mode=settings.backend, backend=resolved, settings=settings,
                model=settings.model if resolved != "offline" else None)


def close_stores() -> None:
    """Close every store this process opened and forget its cached hits (tests call this between homes)."""
    _hits.clear()
    _close_store_files()


def detect_language(text: str) -> str:
    """The registered language whose letters dominate the text, else the default (English)."""
    return languages.detect(text)


class Prepared:
    """A request worked out once: its plan and language; its canonical form and cache key when first asked for.

    Lazy because the key hashes the code and data that shape an answer (about 5 ms a process), which an
    answer that skips the cache (--no-cache) never needs.
    """

    def __init__(self, plan: Plan, request: ExplainRequest):
        self.plan, self.request = plan, request

    @cached_property
    def canonical(self) -> dict:
        request, current = self.request, self.plan
        return canonical_request(text=request.text, kind=request.kind, language=request.language,
                                 history=request.history, backend=current.backend,
                                 settings=current.settings, model=current.model)

    @cached_property
    def key(self) -> str:
        return cache_key(self.canonical)


def prepare(current: Plan, request: ExplainRequest) -> Prepared:
    """`request` under `current`, its cache key computed once, when first needed."""
    return Prepared(current, request)


def _call_backend(current: Plan, request: ExplainRequest, on_text) -> Answer:
    """Ask the planned backend; in auto mode an unreachable model hands over to the offline explainer."""
    if current.backend == "offline":
        return llm.get("offline", current.settings).answer(request, on_text)
    try:
        return llm.get(current.backend, current.settings).answer(request, on_text)
    except BackendUnavailable as exc:
        if current.mode != "auto":
            raise
        answer = llm.get("offline", current.settings).answer(request, on_text)
        answer.fallback = True
        answer.warnings.insert(0, f"{exc.message}; this explanation comes from the offline explainer instead.")
        return answer


def _memory_key(store: Store, key: str) -> str:
    """A process may open several stores (tests do); a hit from one must not be filed as another's."""
    return f"{store.path}\0{key}"


def _lookup(store: Store, key: str) -> bytes | None:
    """A cache hit as the JSON bytes of its explanation object (cached: true), from memory or the store."""
    encoded = _hits.get(_memory_key(store, key))
    if encoded is None:
        text = store.cache_text(key)
        if text is None:
            return None
        encoded = encode(Answer.from_result(json.loads(text)).result(cached=True))
        _hits.put(_memory_key(store, key), encoded)
    return encoded


def _lease_seconds(current: Plan) -> float:
    settings = current.settings
    return (getattr(settings, "request_deadline_s", 120.0) or 120.0) + 30.0


def _answer(prepared: Prepared, store: Store, use_cache: bool, on_text, coordinate: bool,
            file_answer: Callable[[Answer], None]) -> tuple[Answer, str, bool]:
    """The answer; where it came from (model: a backend ran here; cache; shared: another caller's run); and
    whether it is in the response cache already (else the caller files it there with the turn).

    `coordinate`: ask once across processes, through a lease on the key (see explain). `file_answer`: stores an
    answer this caller's backend made, with the caller's turn and its cache row; it runs inside the single
    flight, so a flight ends only once its answer can be found in the cache. (Ended before, a request of the
    same process arriving between the end and the commit missed the cache, held the lease already, as its
    process did, and asked the backend again: bench/double_compute.py, issue 21.)
    """
    current, request = prepared.plan, prepared.request
    if not use_cache:
        return _call_backend(current, request, on_text), "model", False
    key = prepared.key

    def produce():
        hit = _lookup(store, key)
        if hit is not None:
            return hit, "cache"
        if coordinate:
            # Asked once across processes (and, on a shared database, across hosts): the first takes a lease on
            # the key, the others wait for its answer to land in the cache (or for the lease to end without one).
            give_up = time.monotonic() + _lease_seconds(current)
            while not store.take_lease(key, _lease_seconds(current)):
                time.sleep(LEASE_POLL_S)
                hit = _lookup(store, key)
                if hit is not None:
                    return hit, "shared"
                if time.monotonic() > give_up:
                    break  # the holder neither answered nor let go: ask without a lease
            else:
                hit = _lookup(store, key)  # the holder may have answered just before its lease ended
                if hit is not None:
                    return hit, "shared"
        answer = _call_backend(current, request, on_text)
        file_answer(answer)
        return answer, "model"

    (value, source), leader = _flights.do(key, produce)
    if isinstance(value, bytes):
        answer, in_cache = Answer.from_result(json.loads(value), model=current.model), True
    else:  # the flight's leader filed it, in the cache when it may be served again
        answer, in_cache = value, value.cacheable
        if not leader:
            source = "shared"
    if source != "model" and on_text and answer.explanation:
        on_text(answer.explanation)  # nothing streamed for this caller: the whole text arrives at once
    return answer, source, in_cache


def _priced(usage: dict) -> dict:
    from service.store.pricing import cost_usd

    return {**usage, "cost_usd": cost_usd(usage, usage.get("model"))}


def _usage_summary(usage: list[dict]) -> dict | None:
    if not usage:
        return None
    costs = [item.get("cost_usd") for item in usage]
    return {
        "input_tokens": sum(item.get("input_tokens", 0) for item in usage),
        "output_tokens": sum(item.get("output_tokens", 0) for item in usage),
        "cache_read_tokens": sum(item.get("cache_read_tokens", 0) for item in usage),
        "cache_write_tokens": sum(item.get("cache_write_tokens", 0) for item in usage),
        "cost_usd": None if any(cost is None for cost in costs) else round(sum(costs), 8),
        "model_calls": len(usage),
    }


def explain(text: str, *, lang: str | None = None, backend: str | None = None, settings=None,
            use_cache: bool = True, conversation_id: str | None = None,
            on_text: Callable[[str], None] | None = None, model: str | None = None,
            continue_last: bool = False, owner: str | None = None, history: list[dict] | None = None,
            prepared: Prepared | None = None) -> dict:
    """Explain `text` (or, with `conversation_id`, answer it as the next turn); DESIGN.md's explanation object.

    `continue_last` follows up the most recently used conversation. `owner` (an API token's digest)
    confines conversations to that token: another owner's id is not found. `history` (exchanges of
    {"user", "answer"}) starts a new conversation with earlier turns a stateless client sent along.
    Adds `conversation_id` and `usage` (tokens and estimated cost, null without a model call) to the
    object. `on_text` receives the explanation's text as it is produced. Raises an UnjargonError
    subclass on failure.
    """
    text = without_controls(text)  # a NUL or a terminal escape in the question never comes back in the answer
    if history:
        history = [{**exchange, "user": without_controls(exchange["user"]), "answer": without_controls(exchange["answer"])}
                   for exchange in history]
    current = prepared.plan if prepared else plan(backend, settings, model)
    store = open_store(current.settings)
    language = prepared.request.language if prepared else lang or detect_language(text)
    if continue_last and conversation_id is None:
        conversation_id = store.latest_conversation(owner=owner)
        if conversation_id is None:  # a follow-up of nothing: say so rather than answer it as a new thread
            raise ConversationNotFound.worded("nothing_to_continue")
    fresh = conversation_id is None and not history
    if fresh and (prepared is None or prepared.request.kind != "explain"):
        prepared = prepare(current, ExplainRequest(text=text, language=language))
    if fresh and use_cache:
        hit = _lookup(store, prepared.key)
        if hit is not None:  # one transaction files the conversation, the question and its cached answer
            conversation_id = store.record_cached_exchange_now(
                text, language=language, backend=current.backend, model=current.model, owner=owner,
                cache_key=prepared.key, answer_backend=current.backend)
            result = json.loads(hit)
            if on_text and result.get("explanation"):
                on_text(result["explanation"])
            return {**result, "conversation_id": conversation_id, "usage": None}
    # The reader's words are stored before any backend is called, so a failure or crash during a long model call
    # never loses them: the turn stays pending (Store) until its answer or failure is stored. The same commit
    # takes the lease that makes this process the one asking for this answer (see _answer); the answer, its
    # cache row and the end of the lease are the second and last commit, made before the single flight ends.
    if fresh:
        past, kind = [], "explain"
    else:
        if conversation_id is None:
            conversation_id = store.new_conversation(title=history[0]["user"], language=language, owner=owner)
            for index, exchange in enumerate(history):
                _store_exchange(store, conversation_id, exchange, "followup" if index else "explain", language)
        elif not store.has_conversation(conversation_id, owner=owner):
            raise ConversationNotFound(f"no conversation {conversation_id!r}; `unjargon history` lists them")
        past = store.exchanges(conversation_id)
        kind = "followup" if past else "explain"
        if prepared is None or prepared.request.kind != kind or past:  # a turn with history has a key of its own
            prepared = prepare(current, ExplainRequest(text=text, language=language, kind=kind, history=past))
    lease_key = prepared.key if use_cache else None
    conversation_id, user_message, leased = store.start_turn(
        conversation_id, text, kind=kind, language=language, owner=owner, backend=current.backend,
        model=current.model, lease=(lease_key, _lease_seconds(current)) if lease_key else None)
    filed: list[dict] = []  # the explanation object, once this turn's answer is stored

    def file(answer: Answer, source: str, in_cache: bool) -> dict:
        """Store this turn's answer (with its cache row when a backend made it here); the explanation object."""
        cached = source != "model"
        usage = [] if cached else [_priced(item) for item in answer.usage]
        result = answer.result(cached=cached)
        # An answer made in this process goes into the response cache with the turn (idempotent: the first row for a
        # key stays), and the message refers to that row rather than holding a second copy of tens of kilobytes.
        cache_row = None
        if use_cache and not in_cache and answer.cacheable:
            cache_row = {"key": prepared.key, "request": prepared.canonical, "result": answer.result(cached=False),
                         "backend": answer.backend, "model": answer.model}
        by_reference = use_cache and (in_cache or cache_row is not None)
        stored = {"content": answer.explanation, "language": answer.language, "backend": answer.backend,
                  "model": answer.model, "status": answer.status, "cached": cached, "result": result,
                  "api_messages": None if cached else answer.api_messages,
                  "tool_calls": [] if cached else answer.tool_calls,
                  "usage": usage, "cache_key": prepared.key if by_reference else None}
        store.finish_turn(conversation_id, stored, answers=user_message, cache_row=cache_row, release_lease=lease_key)
        result["conversation_id"] = conversation_id
        result["usage"] = _usage_summary(usage)
        filed.append(result)
        if cache_row is not None:
            _hits.put(_memory_key(store, prepared.key), encode(answer.result(cached=True)))
        return result

    try:
        answer, source, in_cache = _answer(prepared, store, use_cache, on_text, coordinate=not leased,
                                           file_answer=lambda made: file(made, "model", False))
    except BaseException as exc:
        if filed:  # the answer is stored: what failed came after it, and the turn is not a failure
            raise
        # as every surface may show it later (the history, GET /v1/conversations/{id}): no flag or field named
        message = (exc.message_for("stored") if isinstance(exc, UnjargonError)
                   else getattr(exc, "message", None) or type(exc).__name__)
        failed = {"content": "", "language": language, "backend": current.backend, "model": current.model,
                  "status": "failed", "error": message}
        try:  # the conversation says this turn failed, rather than leaving it unanswered
            store.finish_turn(conversation_id, failed, answers=user_message, release_lease=lease_key)
        except Exception:  # never hide the original failure behind a bookkeeping one
            import logging  # only here: logging costs the offline start-up 4 ms

            logging.getLogger(__name__).warning("could not record a failed answer", exc_info=True)
        raise
    return filed[0] if filed else file(answer, source, in_cache)


async def explain_cached(text: str, *, lang: str | None = None, backend: str | None = None, settings=None,
                         owner: str | None = None) -> tuple[bytes | None, Prepared]:
    """What explain(text) would answer for a new conversation, as JSON bytes, when this process has the answer
    in memory (else None), and the prepared request to hand to explain on a miss (worked out once).

    For the HTTP service: a hit costs no thread and no re-encoding.
    """
    text = without_controls(text)
    current = plan(backend, settings)
    store = open_store(current.settings)
    prepared = prepare(current, ExplainRequest(text=text, language=lang or detect_language(text)))
    encoded = _hits.get(_memory_key(store, prepared.key))
    if encoded is None:
        return None, prepared
    conversation_id = await store.record_cached_exchange(
        text, language=prepared.request.language, backend=current.backend, model=current.model, owner=owner,
        cache_key=prepared.key, answer_backend=current.backend)  # the key holds the backend; stand-ins are never cached
    return encoded[:-1] + f',"conversation_id":"{conversation_id}","usage":null}}'.encode(), prepared


def _store_exchange(store: Store, conversation_id: str, exchange: dict, kind: str, language: str) -> None:
    """Record an earlier turn a client sent along (its answer came from elsewhere, so no backend is named)."""
    store.add_user_message(conversation_id, exchange["user"], kind=kind, language=language, backend=None, model=None)
    store.add_assistant_message(conversation_id, content=exchange.get("answer") or "", language=language,
                                backend=None, model=None, status="complete")


def continue_conversation(conversation_id: str, content: str, **options) -> dict:
    """Answer `content` as the next turn of a conversation (same options as explain)."""
    return explain(content, conversation_id=conversation_id, **options)


def stream_explain(text: str, **options) -> Iterator[str | dict]:
    """Yield the explanation's text chunks as they arrive, then the explanation object (a dict).

    A failure is raised after the chunks already yielded. Closing the generator early stops the model at
    its next piece of text and stores what was said as a partial answer.
    """
    events: queue.Queue = queue.Queue()
    stop = threading.Event()

    def on_text(chunk: str) -> None:
        if stop.is_set():
            raise Cancelled("the reader closed the stream")
        events.put(("text", chunk))

    def work() -> None:
        try:
            events.put(("result", explain(text, on_text=on_text, **options)))
        except BaseException as exc:  # handed to the reader's thread
            events.put(("error", exc))

    threading.Thread(target=work, name="unjargon-stream", daemon=True).start()
    try:
        while True:
            kind, value = events.get()
            if kind == "text":
                yield value
            elif kind == "result":
                yield value
                return
            else:
                raise value
    finally:
        stop.set()


def new_conversation(title: str | None = None, *, settings=None, owner: str | None = None) -> str:
    """Create an empty conversation (belonging to `owner` when given); returns its id."""
    return open_store(settings or config.current()).new_conversation(title=title, owner=owner)


def get_conversation(conversation_id: str, *, settings=None, owner: str | None = None) -> dict | None:
    """A conversation and its messages, or None (also when it belongs to another owner)."""
    return open_store(settings or config.current()).conversation(conversation_id, owner=owner)


def resolve_conversation(prefix: str, *, settings=None, owner: str | None = None) -> str:
    """The full id of the one conversation whose id starts with `prefix`."""
    store = open_store(settings or config.current())
    found = store.conversations_starting(prefix, owner=owner) if prefix and prefix.strip() else []
    if not found:
        raise ConversationNotFound(f"no conversation {prefix!r}; `unjargon history` lists them")
    if len(found) > 1:
        raise ConversationNotFound(f"{prefix!r} names several conversations; give more of the id", code="ambiguous_id")
    return found[0]


def latest_conversation(*, settings=None, owner: str | None = None) -> str | None:
    """The id of the most recently used conversation (what --continue follows up), or None."""
    return open_store(settings or config.current()).latest_conversation(owner=owner)


def recent(limit: int = 20, *, settings=None, owner: str | None = None) -> list[dict]:
    """The most recently used conversations (of `owner`, when given), newest first."""
    return open_store(settings or config.current()).recent(limit, owner=owner)
