"""Conversations over HTTP: create, list, read, and add a message (the answer as JSON or server-sent events)."""

import logging

from fastapi import APIRouter, Depends, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from service import engine
from service.http import sse
from service.failures import UnjargonError
from service.http.deps import BackendName, LanguageCode, check_text, get_owner, get_settings, wants_event_stream
from service.http.error_responses import BACKEND_ERRORS, HTTPError, error_body, error_responses
from service.http.html import render_result
from service.config import Settings

log = logging.getLogger(__name__)
router = APIRouter(tags=["conversations"])

# 400, 401, 413 and 429 are declared on every route by error_responses.document_errors (the middleware's).
NOT_FOUND = error_responses(404)
ERRORS = error_responses(422, 503)  # 503: the store was busy past its timeout


class NewConversation(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str | None = Field(default=None, max_length=200)


class MessageIn(BaseModel):
    """The reader's next message: a thread to explain, or a question about the last answer."""

    model_config = ConfigDict(extra="forbid")
    content: str
    lang: LanguageCode | None = None
    backend: BackendName | None = None


def _not_found(conversation_id: str) -> HTTPError:
    return HTTPError(404, f"no conversation {conversation_id!r}", "conversation_not_found", "id")


@router.post("/v1/conversations", status_code=201, responses=ERRORS)
def create_conversation(body: NewConversation | None = None, settings: Settings = Depends(get_settings),
                        owner: str | None = Depends(get_owner)) -> dict:
    """Start an empty conversation; answers its id."""
    return {"id": engine.new_conversation(body.title if body else None, settings=settings, owner=owner)}


@router.get("/v1/conversations", responses=ERRORS)
def list_conversations(limit: int = Query(20, ge=1, le=100), settings: Settings = Depends(get_settings),
                       owner: str | None = Depends(get_owner)) -> dict:
    """This token's most recently used conversations, newest first."""
    return {"conversations": engine.recent(limit, settings=settings, owner=owner)}


def _with_html(conversation: dict) -> dict:
    for message in conversation["messages"]:
        if message["role"] == "assistant" and message.get("result"):
            message.update(render_result(message["result"]))
    return conversation


@router.get("/v1/conversations/{conversation_id}", responses={**ERRORS, **NOT_FOUND})
def read_conversation(conversation_id: str, settings: Settings = Depends(get_settings),
                      owner: str | None = Depends(get_owner)) -> dict:
    """A conversation with its messages; answers carry their sanitised HTML (`html`, `calculations_html`)."""
    conversation = engine.get_conversation(conversation_id[:64], settings=settings, owner=owner)
    if conversation is None:
        raise _not_found(conversation_id)
    return _with_html(conversation)


@router.post("/v1/conversations/{conversation_id}/messages", responses={
    **error_responses(*BACKEND_ERRORS), **NOT_FOUND, 200: {"description": "the explanation object (JSON), or server-sent events with "
                                 "Accept: text/event-stream: start, delta..., then done (or error)",
                                 "content": {"text/event-stream": {}}}})
async def add_message(conversation_id: str, body: MessageIn, request: Request,
                      settings: Settings = Depends(get_settings), owner: str | None = Depends(get_owner)):
    """Answer the next message; saved in the conversation once complete."""
    check_text(body.content, settings, "content")
    exists = await run_in_threadpool(engine.get_conversation, conversation_id[:64], settings=settings, owner=owner)
    if exists is None:
        raise _not_found(conversation_id)
    engine.plan(body.backend, settings)  # a backend that cannot run fails here, as an HTTP error, not mid-stream
    options = {"lang": body.lang, "backend": body.backend, "settings": settings, "owner": owner,
               "conversation_id": conversation_id}
    if not wants_event_stream(request):
        result = await run_in_threadpool(engine.explain, body.content, **options)
        return {**result, **render_result(result)}
    return StreamingResponse(_events(body.content, options, settings.sse_keepalive_s),
                             media_type="text/event-stream", headers=sse.HEADERS)


async def _events(text: str, options: dict, keepalive_s: float):
    """start, delta per piece of text, keep-alive comments, then done with the result and its HTML (or error)."""
    yield sse.frame({"conversation_id": options["conversation_id"]}, "start")
    try:
        async for item in sse.pump(engine.stream_explain(text, **options), keepalive_s):
            if item is sse.TICK:
                yield sse.KEEPALIVE
            elif isinstance(item, str):
                yield sse.frame({"text": item}, "delta")
            else:
                rendered = await run_in_threadpool(render_result, item)
                yield sse.frame({**item, **rendered}, "done")
    except UnjargonError as exc:
        yield sse.frame(error_body(exc.status, exc.message_for("http"), exc.code), "error")
    except Exception as exc:  # the stream has started: the error travels as an event, never as a traceback
        log.error("stream failed: %s", type(exc).__name__, exc_info=exc)
        yield sse.frame(error_body(500, "internal error; the server log has the details", "internal_error"), "error")
