"""The thesis "this hardware trains the model well without pipeline parallelism" put to the layout planner on the text's own models and chips."""

from service.explain import restate
from service.explain.checks.core import Inputs, run
from service.explain.document import Claim, Document
from service.i18n.messages import join_names, messages

THESIS_FRAMES = ("pp_not_needed",)  # "with TPUs at K2 scale you get excellent MFU without PP"
SHARED = ("model", "chip", "n_chips", "global_batch_tokens")  # what the planner needs, as pp_necessity read it from the text
TIE = 0.03  # the planner's own tie rule: layouts within 3% of the best MFU are equally good (calculators/layout_search.py)


def _inputs(doc: Document, index: int) -> Inputs:
    """The planner's inputs: the model, chip, chip count and batch of a pp_necessity run, with where each came from."""
    calc = doc.calculations[index]
    inputs = Inputs(doc.lang)
    for name in SHARED:
        value = calc["inputs"].get(name)
        if value is None:
            continue
        inputs.values[name] = value
        source = calc["input_sources"].get(name)
        if source:
            inputs.sources[name] = dict(source)
            if source.get("source") == "assumed" and source.get("why"):
                inputs.assumptions.append(source["why"])
    return inputs


def _best(outputs: dict, with_pipeline: bool) -> float | None:
    """The best MFU the planner found among layouts with (or without) a pipeline, chosen and runners-up alike."""
    layouts = [(outputs["layout"], outputs["mfu"])] + [(r["layout"], r["mfu"]) for r in outputs.get("runner_ups", [])
                                                      if r.get("fits_memory", True)]
    scores = [mfu for layout, mfu in layouts if (layout["pp_degree"] > 1) == with_pipeline and mfu]
    return max(scores) if scores else None


def thesis(doc: Document, claim: Claim, runs: list[tuple[dict, dict | None, int]], own_chips: list[dict]) -> tuple[list[int], str, bool] | None:
    """Plan each model of the claim on each chip it names (not the contrast chip): the planner's calculations, a
    sentence saying where its best layout needs no pipeline, and whether it agrees with the pipeline check on every
    set-up; None when the claim is not the thesis or nothing ran."""
    if claim.frame not in THESIS_FRAMES or "question" in claim.kinds:
        return None
    own = {c["id"] for c in own_chips}
    words = messages(doc.lang)["pp_planner"]
    without: dict[str, list[str]] = {}  # chip -> models whose best layout needs no pipeline
    needs: dict[str, list[str]] = {}
    calculations = []
    agrees = True
    for chip, model, index in runs:
        if chip["id"] not in own or model is None:
            continue
        planned = run(doc, "plan_layout", _inputs(doc, index))
        if planned is None:
            continue
        calculations.append(planned)
        outputs = doc.calculations[planned]["outputs"]
        flat, piped = _best(outputs, False), _best(outputs, True)
        name = restate.chip_name(chip, doc.lang)
        # no pipeline needed: the best layout without one is within the planner's tie of the best with one
        side = without if flat is not None and (piped is None or flat >= piped * (1 - TIE)) else needs
        agrees = agrees and (side is needs) == bool(doc.calculations[index]["outputs"]["dp_comm_bound"])
        chosen_piped = outputs["layout"]["pp_degree"] > 1
        # the planner's headline MFU when its chosen layout is on that side, else the best layout of that side
        best = outputs["mfu"] if chosen_piped == (side is needs) else (flat if side is without else piped)
        side.setdefault(name, []).append(words["model_mfu"].format(model=restate.model_name(model), mfu=restate.value("mfu", best)))
    if not calculations:
        return None
    parts = []
    if without:
        parts.append(words["without"].format(where=join_names([words["on_chip"].format(models=join_names(models, doc.lang), chip=chip)
                                                                for chip, models in without.items()], doc.lang)))
    if needs:
        parts.append(words["needs"].format(where=join_names([words["on_chip"].format(models=join_names(models, doc.lang), chip=chip)
                                                             for chip, models in needs.items()], doc.lang)))
    opening = words["agrees" if agrees else "disagrees"]
    return calculations, opening + words["joiner"].join(parts), agrees
