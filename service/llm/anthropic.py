"""The anthropic backend: Claude through the official SDK, streaming, with the calculators as tools."""

import asyncio
import logging
import threading
from functools import cache

from service.explain.number_check import ungrounded_numbers
from service.llm import message_history as history, prompts, tools
from service.failures import BackendRejected, BackendUnavailable, Cancelled, ConfigurationError, DeadlineExceeded, redact
from service.llm.base import Answer, ExplainRequest, ModelTurn, TextCallback
from service.llm.toolloop import ToolLoop

log = logging.getLogger(__name__)

EPHEMERAL = {"type": "ephemeral"}
CONNECT_TIMEOUT_S = 5.0
# Stop reasons that end a whole answer; anything else (max_tokens, refusal, pause_turn, none) is not cacheable.
COMPLETE_STOPS = ("end_turn", "stop_sequence")
STATUS_BY_STOP = {"max_tokens": "max_tokens", "model_context_window_exceeded": "max_tokens", "refusal": "refused"}


def _block_param(block) -> dict | None:
    """A response content block as the param the next request sends back (text and tool_use only)."""
    if block.type == "text":
        return {"type": "text", "text": block.text}
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input or {}}
    return None  # thinking and server-tool blocks are not requested, so never replayed


def _usage(usage, model: str | None) -> dict:
    """The SDK's usage as the store's columns (input_tokens excludes cache reads and writes)."""
    creation = getattr(usage, "cache_creation", None)
    return {
        "model": model,
        "input_tokens": usage.input_tokens or 0,
        "output_tokens": usage.output_tokens or 0,
        "cache_read_tokens": usage.cache_read_input_tokens or 0,
        "cache_write_tokens": usage.cache_creation_input_tokens or 0,
        "cache_write_1h_tokens": (getattr(creation, "ephemeral_1h_input_tokens", 0) or 0) if creation else 0,
    }


class AnthropicModel:
    """One streamed Messages API call per turn, text passed on as it arrives."""

    def __init__(self, client, *, model: str, max_tokens: int):
        self.client = client
        self.model = model
        self.max_tokens = max_tokens

    async def turn(self, *, system, messages, tools, tool_choice, on_text) -> ModelTurn:
        params = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": system,
            "messages": messages,
            "tools": tools,
            # The conversation so far is cached too: each tool round re-sends it.
            "cache_control": EPHEMERAL,
        }
        if tool_choice:
            params["tool_choice"] = tool_choice
        async with self.client.messages.stream(**params) as stream:
            try:
                async for event in stream:
                    if event.type == "text":
                        on_text(event.text)
                message = await stream.get_final_message()
            except (ValueError, RuntimeError, LookupError, TypeError, AttributeError, AssertionError) as exc:
                # The SDK could not read the stream (bad JSON, events out of order: a delta for a block that
                # never started raised TypeError, a 500 before): the server is at fault, not us.
                raise BackendUnavailable("Claude's reply could not be read (a malformed event stream)",
                                         code="bad_reply") from exc
        content = [block for block in map(_block_param, message.content) if block is not None]
        return ModelTurn(content=content, stop_reason=message.stop_reason,
                         usage=_usage(message.usage, message.model), model=message.model)


@cache
def _tool_definitions() -> list[dict]:
    """Tool definitions, rendered once per process (the SDK copies them into each request)."""
    definitions = tools.definitions()
    # A breakpoint on the last tool caches every tool definition (they render before the system prompt).
    definitions[-1] = {**definitions[-1], "cache_control": EPHEMERAL}
    return definitions


def _terms(request: ExplainRequest) -> list[dict]:
    """Terms the glossary finds in the text, as the offline explainer lists them."""
    try:
        from service.explain import glossary

        return [glossary.describe(match, request.language) for match in glossary.detect(request.text)]
    except Exception:  # the glossary is optional here: the model explains terms in its text regardless
        log.debug("glossary term detection unavailable", exc_info=True)
        return []


class AnthropicBackend:
    """Claude with the calculators as tools, a bounded tool loop, SDK retries and an overall deadline."""

    name = "anthropic"

    def __init__(self, settings):
        if settings is None or not settings.anthropic_api_key:
            raise ConfigurationError.worded("missing_api_key")  # worded per surface: a flag, a field or a model
        self.settings = settings
        self._shared_client = None  # built once, in the process's model loop (an async client belongs to one loop)

    def _secret(self) -> str:
        return self.settings.anthropic_api_key.get_secret_value()

    def _client(self):
        # Imported here so that the offline path never pays for the SDK.
        import anthropic

        return anthropic.AsyncAnthropic(
            api_key=self._secret(),
            base_url=self.settings.anthropic_base_url,
            max_retries=self.settings.max_retries,  # the only retry loop: the SDK's own
            # Per attempt; longer than the whole deadline, so a silent server is ended by the deadline
            # (one clear error) while retries cover the errors a server reports.
            timeout=anthropic.Timeout(self.settings.request_deadline_s + 1, connect=CONNECT_TIMEOUT_S),
        )

    def answer(self, request: ExplainRequest, on_text: TextCallback | None = None) -> Answer:
        """Answer `request`; raises BackendUnavailable / BackendRejected when nothing was said."""
        return _model_loop().run(self._answer(request, on_text))

    async def _answer(self, request: ExplainRequest, on_text: TextCallback | None) -> Answer:
        settings = self.settings
        system = [{"type": "text", "text": prompts.system_prompt(request.language), "cache_control": EPHEMERAL}]
        exchanges = [*request.history, {"user": request.text, "kind": request.kind}]
        messages, dropped = history.build(exchanges, prompts.user_turn, settings.history_max_chars)
        if request.kind == "explain":  # a configuration in the text reaches the model already parsed, as a tool result
            messages = messages + tools.config_seed(request.text, request.language)
        if self._shared_client is None:
            self._shared_client = self._client()
        client = self._shared_client
        loop = ToolLoop(
            AnthropicModel(client, model=settings.model, max_tokens=settings.max_tokens),
            system=system, messages=messages, tools=_tool_definitions(), max_rounds=settings.max_tool_rounds,
            on_text=on_text, final_round_note=prompts.final_round_note(),
        )
        warnings = []
        if dropped:
            warnings.append(f"The {dropped} oldest exchanges of this conversation were left out to fit the model's context.")
        try:
            async with asyncio.timeout(settings.request_deadline_s):
                await loop.run()
        except TimeoutError:
            failure = DeadlineExceeded(f"Claude did not finish within the {settings.request_deadline_s:g} s deadline")
        except Cancelled:
            if not loop.text:
                raise
            failure = BackendUnavailable("the reader stopped reading", code="cancelled")
        except Exception as exc:  # classified below; anything unexpected is re-raised there
            failure = self._classify(exc)
        else:
            failure = None
        if failure is not None and not loop.text:
            raise failure  # nothing was said: the engine may fall back or report it
        return self._compose(request, loop, warnings, failure)

    def _classify(self, exc: Exception) -> Exception:
        """An SDK error as an UnjargonError that says what happened and what to fix, without the key."""
        import anthropic

        def said(text: str) -> str:
            return redact(text, self._secret())

        detail = said(getattr(exc, "api_message", None) or "")
        if isinstance(exc, anthropic.AuthenticationError):
            return BackendRejected.worded("invalid_api_key")
        if isinstance(exc, anthropic.PermissionDeniedError):
            return BackendRejected(f"The API key is not permitted to do this (HTTP 403{': ' + detail if detail else ''}). "
                                   "Check the key's workspace permissions, or set UNJARGON_MODEL to a model it may use.",
                                   code="permission_denied")
        if isinstance(exc, anthropic.NotFoundError):
            return BackendRejected(f"Anthropic does not know model {self.settings.model!r} or the endpoint (HTTP 404). "
                                   "Check UNJARGON_MODEL and ANTHROPIC_BASE_URL.", code="not_found")
        if isinstance(exc, anthropic.RateLimitError):
            return BackendUnavailable(f"Claude is rate-limited (HTTP 429{': ' + detail if detail else ''})",
                                      code="rate_limited")
        if isinstance(exc, anthropic.APIConnectionError):  # includes APITimeoutError
            kind = "timed out" if isinstance(exc, anthropic.APITimeoutError) else "could not be reached"
            return BackendUnavailable(f"Claude {kind} (at {_host(self.settings.anthropic_base_url)})", code="unreachable")
        if isinstance(exc, BackendUnavailable):
            return exc
        if isinstance(exc, anthropic.APIStatusError):
            status, kind = exc.status_code, getattr(exc, "type", None)
            if status >= 500 or status in (408, 409) or kind in ("overloaded_error", "api_error", "rate_limit_error"):
                what = "overloaded" if (status == 529 or kind == "overloaded_error") else f"failing (HTTP {status})"
                return BackendUnavailable(f"Claude is {what}{': ' + detail if detail else ''}", code="overloaded")
            return BackendRejected(f"The Anthropic API refused the request (HTTP {status}"
                                   f"{', ' + kind if kind else ''}): {detail or 'no details given'}. "
                                   "This is a bug or a setting to fix (UNJARGON_MODEL, UNJARGON_MAX_TOKENS); "
                                   "retrying will not help.", code="bad_request")
        if isinstance(exc, anthropic.AnthropicError):  # e.g. a reply that does not match the API's schema
            return BackendUnavailable(f"Claude's reply could not be used ({type(exc).__name__})", code="bad_reply")
        raise exc

    def _compose(self, request: ExplainRequest, loop: ToolLoop, warnings: list[str], failure) -> Answer:
        """The answer from what the loop gathered, with the reasons it is incomplete if it is."""
        if failure is not None:
            status = "partial"
            warnings.append(f"The answer was cut off ({failure.message}); what was said is kept, and it was not cached.")
        elif loop.rounds_exhausted:
            status = "complete"
            warnings.append(f"The model used all {self.settings.max_tool_rounds} rounds of calculations; "
                            "the answer is based on the results it had.")
        elif loop.stop_reason in COMPLETE_STOPS:
            status = "complete"
        else:
            status = STATUS_BY_STOP.get(loop.stop_reason, "partial")
            reason = {
                "max_tokens": f"it reached the length limit of {self.settings.max_tokens} tokens",
                "refused": "the model declined to answer",
            }.get(status, f"the model stopped early ({loop.stop_reason or 'the stream ended'})")
            warnings.append(f"The answer is incomplete: {reason}. It was not cached.")
        text = loop.text
        if not text:
            text = ("I ran the calculations listed below but could not write the explanation within the limit of "
                    f"{self.settings.max_tool_rounds} rounds.")
        calculations, seen = [], set()
        for call in loop.tool_calls:
            if call.result is not None and call.name not in (tools.GLOSSARY_TOOL, tools.CONFIG_TOOL):
                key = repr(call.result)
                if key not in seen:
                    seen.add(key)
                    calculations.append(call.result)
        terms = _terms(request)
        found = {term.get("id") or term.get("term") for term in terms}
        for call in loop.tool_calls:
            if call.name == tools.GLOSSARY_TOOL and call.result and (call.result.get("id") or call.result.get("term")) not in found:
                found.add(call.result.get("id") or call.result.get("term"))
                terms.append(call.result)
        stray = ungrounded_numbers(text, request.text, calculations, terms)
        if stray:  # DESIGN: every number not in the input comes from a calculation; say so when the model broke that
            warnings.append("These numbers in the answer come from neither the text nor a calculation; treat them "
                            f"with care: {', '.join(dict.fromkeys(stray[:12]))}")
        doc = _analyse(request)
        if doc is not None:  # the answer checked against the reading: a verdict or MFU the calculators contradict
            from service.llm import crosscheck  # with the explainer: loaded only when an answer is composed

            warnings += crosscheck.contradictions(text, doc)
        return Answer(
            explanation=text, language=request.language, backend=self.name,
            model=next((turn.model for turn in reversed(loop.turns) if turn.model), self.settings.model),
            terms=terms, calculations=calculations, warnings=warnings, status=status,
            api_messages=loop.messages_for_history(),
            tool_calls=[{"id": c.id, "name": c.name, "input": c.input, "result": c.result, "content": c.content,
                         "is_error": c.is_error} for c in loop.tool_calls],
            usage=[turn.usage for turn in loop.turns],
            extra=_reading(doc),
        )


def _analyse(request: ExplainRequest):
    """The deterministic reader's document for an explain request (None for a follow-up or without the explainer)."""
    if request.kind != "explain":
        return None
    try:
        from service.explain.pipeline import analyse
    except ImportError:  # a checkout without the explainer's data
        return None
    from service import configs

    prose, config = configs.split(request.text, request.language)  # the configuration is read as one, the rest as prose
    doc = analyse(prose, request.language)
    doc.config = config  # DESIGN.md's `config`, carried with the reading
    return doc


def _reading(doc) -> dict:
    """What the deterministic reader finds in the text (DESIGN.md `plain`, `figures`, `claims`), beside the model's answer."""
    if doc is None:
        return {}
    from service.explain import restate

    claims = []
    for claim in doc.claims:
        item = claim.to_dict()
        # The model ran its own calculations; the reader's indices point into a list this answer does not carry,
        # so its verdict travels with its why (never empty), which names the computed figure.
        item.update(calculation=None, calculations=[])
        claims.append(item)
    reading = {"plain": restate.plain(doc), "figures": [f.to_dict() for f in doc.figures], "claims": claims}
    config = doc.config
    if config is not None:  # DESIGN.md's `config` beside the model's answer, as the offline explainer gives it
        config.pop("_prose", None)
        reading["config"] = config
    return reading


def _host(base_url: str | None) -> str:
    """Where requests go, for messages: host and port only (a URL may carry credentials)."""
    if not base_url:
        return "api.anthropic.com"
    from urllib.parse import urlsplit

    parts = urlsplit(base_url)
    return parts.hostname + (f":{parts.port}" if parts.port else "") if parts.hostname else "the configured base URL"


class _ModelLoop:
    """One event loop per process, in its own thread, where every model call runs.

    The SDK's async client (its connection pool) belongs to the loop that made it; keeping one loop for
    the process lets one client serve every answer instead of a new loop and client per answer.
    """

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="unjargon-model-loop", daemon=True).start()

    def run(self, coroutine):
        """Run `coroutine` on the model loop and wait for its outcome (callable from any thread)."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()  # e.g. KeyboardInterrupt in the caller: stop the model call too
            raise


_loop: _ModelLoop | None = None
_loop_lock = threading.Lock()


def _model_loop() -> _ModelLoop:
    global _loop
    with _loop_lock:
        if _loop is None:
            _loop = _ModelLoop()
        return _loop
