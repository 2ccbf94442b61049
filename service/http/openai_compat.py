"""OpenAI-compatible GET /v1/models and POST /v1/chat/completions, so existing chat clients can use unjargon.

The calculators run inside the service; a client receives only the final text (never tool calls, which
it would try to run itself).
"""

import logging
import time
import uuid

from fastapi import APIRouter, Depends
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from service import engine
from service.http import sse
from service.failures import UnjargonError
from service.http.deps import check_text, check_unicode, get_owner, get_settings
from service.http.error_responses import BACKEND_ERRORS, HTTPError, error_body, error_responses
from service.config import Settings

log = logging.getLogger(__name__)
router = APIRouter(tags=["openai"])

# Model id -> backend (None: the server's configured backend).
MODELS = {"unjargon": None, "unjargon-offline": "offline", "unjargon-anthropic": "anthropic"}
CREATED = 1767225600  # 2026-01-01, a fixed "created" for the model list
MAX_MESSAGES = 200


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="allow")
    role: str
    content: str | list[dict] | None = None


class ChatRequest(BaseModel):
    """The subset of OpenAI's chat request unjargon honours; other fields are accepted and ignored."""

    model_config = ConfigDict(extra="allow")
    model: str
    messages: list[ChatMessage] = Field(min_length=1, max_length=MAX_MESSAGES)
    stream: bool = False
    stream_options: dict | None = None
    n: int | None = None
    logprobs: bool | None = None
    top_logprobs: int | None = None
    logit_bias: dict | None = None
    tools: list | None = None
    functions: list | None = None


@router.get("/v1/models")
def list_models() -> dict:
    """The model ids a chat client may ask for."""
    return {"object": "list", "data": [{"id": name, "object": "model", "created": CREATED, "owned_by": "unjargon"}
                                       for name in MODELS]}


def _text(message: ChatMessage, index: int) -> str:
    if message.content is None:
        return ""
    if isinstance(message.content, str):
        return message.content
    texts = []
    for part in message.content:
        if part.get("type") != "text" or not isinstance(part.get("text"), str):
            raise HTTPError(400, f"messages[{index}]: only text content is supported", "unsupported_content",
                            f"messages[{index}].content")
        texts.append(part["text"])
    return "\n".join(texts)


def conversation_of(request: ChatRequest) -> tuple[str, list[dict]]:
    """The question to answer now and the earlier exchanges, from OpenAI's message list.

    System and developer messages are ignored: unjargon's own instructions stay in charge.
    """
    exchanges: list[dict] = []
    pending: list[str] = []
    answer: list[str] = []
    for index, message in enumerate(request.messages):
        if message.role in ("system", "developer"):
            continue
        if message.role not in ("user", "assistant"):
            raise HTTPError(400, f"messages[{index}]: role {message.role!r} is not supported", "unsupported_role",
                            f"messages[{index}].role")
        text = _text(message, index)
        if message.role == "user":
            if answer:
                exchanges.append({"user": "\n\n".join(pending), "answer": "\n\n".join(answer)})
                pending, answer = [], []
            pending.append(text)
        elif pending:
            answer.append(text)
    if not pending or answer:
        raise HTTPError(400, "the last message must come from the user", "invalid_messages", "messages")
    return "\n\n".join(pending), exchanges


def _refuse_unsupported(request: ChatRequest) -> None:
    if request.model not in MODELS:
        raise HTTPError(404, f"the model {request.model!r} does not exist; GET /v1/models lists them",
                        "model_not_found", "model")
    if request.n not in (None, 1):
        raise HTTPError(400, "n: only one choice is produced", "unsupported_parameter", "n")
    if request.logprobs or request.top_logprobs or request.logit_bias:
        raise HTTPError(400, "logprobs, top_logprobs and logit_bias are not supported", "unsupported_parameter",
                        "logprobs")
    if request.tools or request.functions:
        raise HTTPError(400, "tools: unjargon runs its calculators itself and returns only text",
                        "unsupported_parameter", "tools")


def usage_of(result: dict) -> dict:
    """OpenAI's usage from the explanation object's (zeros when no model was called: offline or cached)."""
    usage = result.get("usage") or {}
    cached = usage.get("cache_read_tokens", 0)
    prompt = usage.get("input_tokens", 0) + cached + usage.get("cache_write_tokens", 0)
    completion = usage.get("output_tokens", 0)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
            "prompt_tokens_details": {"cached_tokens": cached}}


@router.post("/v1/chat/completions", responses={
    200: {"description": "a chat.completion, or chat.completion.chunk events ending with data: [DONE]",
          "content": {"text/event-stream": {}}},
    **error_responses(404, *BACKEND_ERRORS)})
async def chat_completions(body: ChatRequest, settings: Settings = Depends(get_settings),
                           owner: str | None = Depends(get_owner)):
    """Answer the last user message as unjargon would; earlier turns are the conversation so far."""
    _refuse_unsupported(body)
    text, history = conversation_of(body)
    check_text(text, settings, "messages")
    if sum(len(e["user"]) + len(e["answer"]) for e in history) + len(text) > settings.max_text_chars * 4:
        raise HTTPError(422, "messages: the conversation is too long", "text_too_long", "messages")
    for exchange in history:
        check_unicode(exchange["user"], "messages")
        check_unicode(exchange["answer"], "messages")
    backend = MODELS[body.model]
    engine.plan(backend, settings)  # an unusable backend is an HTTP error here, not a broken stream
    options = {"backend": backend, "settings": settings, "owner": owner, "history": history or None}
    completion_id = "chatcmpl-" + uuid.uuid4().hex
    created = int(time.time())
    if not body.stream:
        result = await run_in_threadpool(engine.explain, text, **options)
        return {
            "id": completion_id, "object": "chat.completion", "created": created, "model": body.model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": result["explanation"]},
                         "logprobs": None, "finish_reason": "stop"}],
            "usage": usage_of(result),
        }
    include_usage = bool((body.stream_options or {}).get("include_usage"))
    return StreamingResponse(_chunks(text, options, completion_id, created, body.model, include_usage,
                                     settings.sse_keepalive_s),
                             media_type="text/event-stream", headers=sse.HEADERS)


async def _chunks(text: str, options: dict, completion_id: str, created: int, model: str, include_usage: bool,
                  keepalive_s: float):
    """chat.completion.chunk events: the role, the text as it comes, the finish, optionally usage, then [DONE]."""

    def chunk(delta: dict | None, finish: str | None = None, usage: dict | None = None) -> bytes:
        body = {"id": completion_id, "object": "chat.completion.chunk", "created": created, "model": model,
                "choices": [] if delta is None else [{"index": 0, "delta": delta, "logprobs": None,
                                                      "finish_reason": finish}]}
        if usage is not None:
            body["usage"] = usage
        return sse.frame(body)

    yield chunk({"role": "assistant", "content": ""})
    try:
        async for item in sse.pump(engine.stream_explain(text, **options), keepalive_s):
            if item is sse.TICK:
                yield sse.KEEPALIVE
            elif isinstance(item, str):
                yield chunk({"content": item})
            else:
                yield chunk({}, "stop")
                if include_usage:
                    yield chunk(None, usage=usage_of(item))
    except UnjargonError as exc:
        yield sse.frame(error_body(exc.status, exc.message_for("openai"), exc.code))
    except Exception as exc:
        log.error("chat stream failed: %s", type(exc).__name__, exc_info=exc)
        yield sse.frame(error_body(500, "internal error; the server log has the details", "internal_error"))
    yield sse.frame("[DONE]")
