"""The plan view: a page that plans a training job's parallel layout live, and the SVG of where its time and memory go."""

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

import calculators
from service.http import plan_chart
from service.http.error_responses import HTTPError, error_responses
from service.i18n import languages
from service.i18n.messages import messages

router = APIRouter()
# The job fields the plan view sends; everything else comes from the model and chip in the catalog.
PLAN_FIELDS = ("model", "chip", "n_chips", "global_batch_tokens", "seq_len", "precision", "hbm_bytes")


def plan_inputs(query: dict) -> dict:
    """The planner's inputs from the query: the fields given, as the reader wrote them."""
    return {key: value for key, value in query.items() if key in PLAN_FIELDS and value not in (None, "")}


def _rows(result: dict) -> list[tuple[str, dict, dict]]:
    """The choice then each runner-up: (compact label, time breakdown, memory breakdown)."""
    out = result["outputs"]
    rows = [(plan_chart.compact_layout(out["layout"]), out["time_breakdown_s"], out["memory_breakdown_bytes"])]
    for other in out.get("runner_ups") or []:
        rows.append((plan_chart.compact_layout(other["layout"]), other.get("time_breakdown_s") or {},
                     other.get("memory_breakdown_bytes") or {}))
    return rows


@router.get("/v1/plan.svg", response_class=Response, tags=["calculators"], responses={
    200: {"content": {"image/svg+xml": {}}, "description": "SVG bars: where a step's time and memory go, per layout"},
    **error_responses(422)})
async def plan_svg(
    model: str = Query(..., max_length=60, description="model name or alias (DSV3, K2, llama-3-70b, ...)"),
    chip: str = Query(..., max_length=60, description="chip name (h100, h800, tpu-v5p, gb200-nvl72, ...)"),
    n_chips: str = Query(..., max_length=20),
    global_batch_tokens: str = Query(..., max_length=20),
    seq_len: str | None = Query(None, max_length=20),
    precision: str | None = Query(None, max_length=10),
    hbm_bytes: str | None = Query(None, max_length=20),
    lang: str = Query("en", max_length=16, description="label language"),
    width: int = Query(plan_chart.WIDTH, ge=plan_chart.MIN_WIDTH, le=plan_chart.WIDTH,
                       description="the width in px it is drawn for; below 560 each label sits above its bar"),
):
    """plan_layout for the job, drawn: the choice and its runner-ups, time per step and memory per chip."""
    if lang not in languages.codes():
        raise HTTPError(422, f"lang: expected one of {', '.join(languages.codes())}", "validation_error", "lang")
    inputs = plan_inputs(locals())
    result = await run_in_threadpool(calculators.run, "plan_layout", inputs)
    language = languages.get(lang)
    svg = plan_chart.draw(_rows(result), result["inputs"].get("hbm_bytes"), messages(lang)["plan_page"],
                          rtl=language.direction == "rtl", width=width,
                          memory_line=result["outputs"].get("memory_line", 0.8))
    return Response(svg, media_type="image/svg+xml")


def page(templates, request: Request, version: str, lang: str | None) -> HTMLResponse:
    """The plan page in `lang` (its words for every language ride along, so the page can switch)."""
    shown = languages.get(lang)
    words = {code: {"dir": language.direction, "words": messages(code)["plan_page"]}
             for code, language in languages.registry().items()}
    return templates.TemplateResponse(request, "plan.html", {
        "version": version, "lang": shown.code, "dir": shown.direction, "words": messages(shown.code)["plan_page"],
        "page_words": words, "languages": [(code, language.name) for code, language in languages.registry().items()],
    })
