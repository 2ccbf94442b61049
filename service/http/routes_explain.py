"""The JSON API: explain, calculators (one documented route each) and the chart."""

import json

from fastapi import APIRouter, Depends, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

import calculators

from service.http import chart
from service import engine
from service.http.deps import BackendName, LanguageCode, check_text, get_owner, get_settings
from service.http.error_responses import BACKEND_ERRORS, HTTPError, body_not_json, error_responses, unreadable_body
from service.config import Settings

router = APIRouter()

# 400, 401, 413 and 429 are declared on every route by error_responses.document_errors (the middleware's).
ERRORS = error_responses(422)


class ExplainIn(BaseModel):
    """A text to explain."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(description="the thread, post or chat to explain")
    lang: LanguageCode | None = None
    backend: BackendName | None = None


class Explanation(BaseModel):
    """DESIGN.md's explanation object, plus the conversation it was filed under and the usage."""

    model_config = ConfigDict(extra="allow")
    explanation: str
    language: str
    backend: str
    cached: bool
    terms: list[dict]
    calculations: list[dict]
    warnings: list[str]
    plain: str | None = None
    figures: list[dict] | None = None
    claims: list[dict] | None = None
    conversation_id: str
    usage: dict | None = None


@router.post("/v1/explain", response_model=Explanation, responses=error_responses(*BACKEND_ERRORS))
async def explain(body: ExplainIn, settings: Settings = Depends(get_settings), owner: str | None = Depends(get_owner)):
    """Explain a text: every term expanded, every number from a calculator."""
    check_text(body.text, settings, "text")
    options = {"lang": body.lang, "backend": body.backend, "settings": settings, "owner": owner}
    # A hit this process has served before is sent as the bytes it already has: no worker thread, no
    # re-validation or re-encoding of tens of kilobytes (bench/http.py measures the difference).
    encoded, prepared = await engine.explain_cached(body.text, **options)
    if encoded is not None:
        return Response(encoded, media_type="application/json")
    result = await run_in_threadpool(engine.explain, body.text, owner=owner, prepared=prepared)
    # Sent as the engine built it, like the fast path above: the response model would move the fields it does
    # not declare (gist, reasons, config) after conversation_id, and the two paths would differ in order.
    return JSONResponse(result)


# ---- calculators ------------------------------------------------------------------------------


def _catalog_entries(kind: str) -> list[dict]:
    from calculators import catalog

    source = catalog.hardware() if kind == "chip" else catalog.models()
    return [{"id": entry["id"], "name": entry["name"]} for entry in source.entries]


@router.get("/v1/calculators")
def list_calculators() -> dict:
    """Every calculator with its input schema, and the chips and models their `chip` and `model` accept."""
    return {
        "calculators": [{"name": name, "summary": calculators.summary(name), "url": f"/v1/calculators/{name}",
                         "input_schema": calculators.schema(name)} for name in calculators.names()],
        "chips": _catalog_entries("chip"),
        "models": _catalog_entries("model"),
    }


class CalculationResult(BaseModel):
    """DESIGN.md's calculator result."""

    calculator: str
    inputs: dict
    outputs: dict
    steps: list[str]
    assumptions: list[str]
    warnings: list[str] = []  # impossible results (MFU above 100%), with the likely slip
    sources: list[str]
    working: list[dict] = []  # the steps as template keys and values, for other languages
    notes: dict = {}  # the assumptions and warnings made while running, as structured steps


async def _inputs(request: Request) -> dict:
    if not await request.body():
        raise HTTPError(422, "the request body is empty; send a JSON object of the calculator's inputs", "invalid_json")
    try:
        inputs = await request.json()
    except (RecursionError, UnicodeDecodeError) as exc:  # arrays nested 100,000 deep were a 500
        raise HTTPError(422, unreadable_body(exc), "invalid_json") from None
    except ValueError as exc:
        reason = f"{exc.msg} at character {exc.pos}" if isinstance(exc, json.JSONDecodeError) else "it could not be parsed"
        raise HTTPError(422, body_not_json(request.headers.get("content-type"), reason), "invalid_json") from None
    if not isinstance(inputs, dict):
        raise HTTPError(422, "the body must be a JSON object of the calculator's inputs", "validation_error")
    return inputs


def _run_each(name: str, sets: list[dict]) -> dict | list[dict]:
    results = [calculators.jsonable(calculators.run(name, inputs)) for inputs in sets]
    return results[0] if len(results) == 1 else results


def _calculator_route(name: str):
    async def run_calculator(request: Request) -> dict | list[dict]:
        # "chip": "h100,tpu-v5p" (or a list of models) compares them: one result each, as `unjargon calc` does
        sets = calculators.variants(await _inputs(request))
        return await run_in_threadpool(_run_each, name, sets)

    run_calculator.__name__ = f"calculate_{name}"
    run_calculator.__doc__ = calculators.summary(name)
    if {"chip", "model"} & set(calculators.get(name).accepted()):
        run_calculator.__doc__ += (" A comma list of chips or models (\"h100,tpu-v5p\") compares them: the answer is "
                                   "then a list of results, one per combination.")
    return run_calculator


for _name in calculators.names():
    router.add_api_route(
        f"/v1/calculators/{_name}", _calculator_route(_name), methods=["POST"],
        response_model=CalculationResult | list[CalculationResult],  # a list for a comma list of chips or models
        summary=calculators.summary(_name), tags=["calculators"], responses=ERRORS,
        openapi_extra={"requestBody": {"required": True, "content": {
            "application/json": {"schema": calculators.schema(_name)}}}},
    )


@router.post("/v1/calculators/{name}", include_in_schema=False)
def unknown_calculator(name: str):
    """Any other name: 404 naming the close matches."""
    try:
        calculators.schema(name)
    except calculators.CalculatorInputError as exc:
        raise HTTPError(404, str(exc), "unknown_calculator", "name") from None
    raise HTTPError(404, f"no calculator {name!r}", "unknown_calculator", "name")  # pragma: no cover


# ---- chart ------------------------------------------------------------------------------------


@router.get("/v1/chart", response_class=Response, responses={
    **ERRORS, 200: {"content": {"image/svg+xml": {}}, "description": "the chart as SVG"}})
def draw_chart(
    model: str | None = Query(None, max_length=100, description="model name or alias (K2, DSV3, llama-3-70b)"),
    chip: str | None = Query(None, max_length=100, description="chip name (h100-sxm, tpu-v5p, gb200-nvl72)"),
    global_batch_tokens: str = Query("4M", max_length=40, description="tokens per optimizer step"),
    n_chips: str = Query("4096", max_length=40, description="the job's chip count, marked on the chart"),
    params: str | None = Query(None, max_length=40, description="active parameters, when no model is named"),
    tp_degree: str | None = Query(None, max_length=20),
    pp_degree: str | None = Query(None, max_length=20),
    ep_degree: str | None = Query(None, max_length=20),
    moe_experts: str | None = Query(None, max_length=20),
    moe_top_k: str | None = Query(None, max_length=20),
    n_layers: str | None = Query(None, max_length=20, description="transformer layers: the pipeline has at most one stage per layer"),
    peak_flop_per_s: str | None = Query(None, max_length=40),
    dp_bandwidth_bytes_per_s: str | None = Query(None, max_length=40),
    chips_per_node: str | None = Query(None, max_length=20),
    lang: str = Query("en", max_length=16, description="label language"),
    width: int = Query(chart.WIDTH, ge=chart.MIN_WIDTH, le=chart.WIDTH,
                       description="the width in px it is drawn for (256-680); below 560 it is laid out for a phone"),
):
    """Data-parallel communication vs compute time per step as chips grow, with where PP becomes necessary."""
    inputs = {key: value for key, value in locals().items() if key not in ("lang", "width")}  # the calculation's fields
    svg = chart.draw(chart.sweep(inputs), lang, width)
    return Response(svg, media_type="image/svg+xml")
