"""The check of claims about needing pipeline parallelism: pp_necessity with the text's batch, chips and degrees."""

import re

from calculators import catalog

from service.explain import grounding, restate
from service.explain.checks import pp_planner
from service.explain.checks.job_kind import serving_text
from service.explain.checks.core import (MAX_MODELS, Inputs, Result, assumed_in, assumed_names, chips as claim_chips, figure, needs_more, pod_chips,
                                         run)
from service.explain.document import Claim, Document
from service.i18n.messages import join_names, messages


# the engine that generates an RL run's rollouts, or a server: its pipeline degree is a serving choice
_ENGINE_SIDE = re.compile(r"\b(?:rollout|inference|serving|generation)\s+(?:engines?|side|servers?|workers?)\b|\bvLLM\b|\bSGLang\b", re.I)


def _batch(doc: Document, claim: Claim, inputs: Inputs, model: dict | None) -> bool:
    fig = figure(doc, claim, "global_batch_tokens")
    if fig is not None:
        inputs.text("global_batch_tokens", fig)
        return True
    sequences, seq = figure(doc, claim, "global_batch_sequences"), figure(doc, claim, "seq_len")
    if sequences is not None and seq is not None:
        inputs.derived("global_batch_tokens", sequences.value * seq.value, f"{sequences.quote} x {seq.quote}")
        return True
    if model and model.get("global_batch_tokens"):
        inputs.catalog("global_batch_tokens", model["global_batch_tokens"], model["id"])
        return True
    data = grounding.grounding_data()
    inputs.assumed("global_batch_tokens", data["default_global_batch_tokens"], "default_batch",
                   batch=restate.value("global_batch_tokens", data["default_global_batch_tokens"]))
    return True


def _chip_count(doc: Document, claim: Claim, inputs: Inputs, model: dict | None, chip: dict | None = None) -> bool:
    fig = figure(doc, claim, "n_chips")
    # "4096 H100s" counts H100s: another chip of the same sentence (TPUs, a contrast) gets its own count
    if fig is not None and (chip is None or fig.chip is None or fig.chip == chip["id"]):
        inputs.text("n_chips", fig)
        return True
    pod = pod_chips(doc, claim)
    if pod is not None:  # "a full v5p pod": the pod's chip count, not a default
        inputs.catalog("n_chips", pod[0], pod[1])
        return True
    if model and model.get("training_chip_count"):
        inputs.catalog("n_chips", model["training_chip_count"], model["id"])
        return True
    data = grounding.grounding_data()
    inputs.assumed("n_chips", data["default_n_chips"], "default_chips", n=restate.value("n_chips", data["default_n_chips"]))
    return True


def check(doc: Document, claim: Claim) -> Result | None:
    """pp_necessity for each model and chip the claim concerns, and the claim judged by the results; None when it names no set-up."""
    data = grounding.grounding_data()
    hardware = catalog.hardware()
    chips = claim_chips(doc, claim)
    names_setup = claim.chips or claim.figures
    models = (claim.models or doc.models() or (doc.previous.models() if doc.previous else []))[:MAX_MODELS]
    words = Result([], "explained", messages(doc.lang)["pp_verdicts"]["words"])
    if serving_text(doc) or _ENGINE_SIDE.search(claim.quote):
        return None  # deploying a model splits it to fit, with no gradients to exchange: the training rule sizes nothing
        # (nor for an RL run's rollout engine: "each rollout engine can only run with PP=1", round 86 P01)
    if claim.frame != "pp_only_when_dp_bound" and not names_setup and doc.previous is None:
        return None  # a belief stated in general ("PP is considered necessary at scale") names no set-up: nothing to size
    if not chips and not models:
        # no hardware and no model of the text's own: a batch or a degree alone does not make the rule checkable
        stated = any(figure(doc, claim, q) for q in ("global_batch_tokens", "global_batch_sequences", "n_chips"))
        if claim.frame == "pp_only_when_dp_bound":
            return words  # the rule explained in words, the planner offered in one clause
        if not stated:
            return None
        return needs_more(doc, ["chip"])
    contrast = None
    if claim.frame == "pp_only_when_dp_bound" and not any(c["id"] == data["contrast_chip"] for c in chips):
        contrast = hardware.get("chip", data["contrast_chip"])  # the other side of "only when": a narrow-link cluster
    if not chips and contrast is None:
        return needs_more(doc, ["chip"])
    runs: list[tuple[dict, dict | None, int]] = []
    missing: set[str] = set()
    for model in models or [None]:
        base = Inputs(doc.lang)
        if model:
            base.values["model"] = model["id"]
            base.sources["model"] = {"source": "text", "quote": model["name"]}
        if not _batch(doc, claim, base, model):
            missing.add("global_batch_tokens")
        if not _chip_count(doc, claim, base, model):
            missing.add("n_chips")
        if missing:
            continue
        for name in ("tp_degree", "pp_degree"):
            fig = figure(doc, claim, name)
            if fig is not None:
                base.text(name, fig)
        counted = figure(doc, claim, "n_chips")
        for chip in chips + ([contrast] if contrast else []):
            inputs = Inputs(doc.lang)
            inputs.values, inputs.sources, inputs.assumptions = dict(base.values), dict(base.sources), list(base.assumptions)
            if counted is not None and counted.chip not in (None, chip["id"]):
                inputs.values.pop("n_chips", None)
                inputs.sources.pop("n_chips", None)
                _chip_count(doc, claim, inputs, model, chip)
            if chip is contrast:
                inputs.assumed("chip", chip["id"], "contrast_chip", chip=restate.chip_name(chip, doc.lang))
            elif doc.named_only_generically(chip):  # "TPUs": which generation is our assumption, said in words
                inputs.assumed("chip", chip["id"], "generic_chip", chip=chip["name"],
                               bare=re.sub(r"^(?:NVIDIA|Google|AMD)\s+", "", chip["name"]))
            else:
                inputs.values["chip"] = chip["id"]
                inputs.sources["chip"] = {"source": "text", "quote": restate.chip_name(chip, "en")}
            ep = figure(doc, claim, "ep_degree")
            if ep is not None:
                inputs.text("ep_degree", ep)
            elif model and grounding.expert_parallel_degree(model, chip) > 1:
                inputs.assumed("ep_degree", grounding.expert_parallel_degree(model, chip), "expert_parallel_rule")
            index = run(doc, "pp_necessity", inputs)
            if index is not None:
                runs.append((chip, model, index))
    if missing:
        return needs_more(doc, sorted(missing))
    if not runs:  # nothing of the text's own to run it on: the rule is said in words; a report of a set-up needs nothing
        return words if claim.frame == "pp_only_when_dp_bound" else None
    result = _judge(doc, claim, runs, contrast)
    planned = pp_planner.thesis(doc, claim, runs, chips)
    if planned is not None:  # the thesis put to the layout planner on the same models, chips and batch
        calculations, sentence, agrees = planned
        result.calculations = result.calculations + calculations
        joiner = messages(doc.lang)["pp_planner"]["joiner"]
        result.why = f"{result.why}{joiner}{sentence}" if result.why else sentence
        if not agrees and result.verdict in ("consistent", "inconsistent"):
            result.verdict = "needs_more"  # two models of the same question disagree: no verdict rests on either alone
    assumed = assumed_in(doc, result.calculations)
    if result.verdict == "consistent" and {"global_batch_tokens", "n_chips"} <= set(assumed):
        # a batch and a cluster both ours (4M tokens on 4,096 chips) decide the rule alone: it confirms nothing the text
        # says (round 86 P01: "no pipeline is needed" for 64 H200s the text counts as 8 nodes of 8)
        m = messages(doc.lang)
        result.verdict = "needs_more"
        result.why = m["verdicts"]["assumption_suffix_agrees"].format(finding=result.why, assumed=join_names(assumed_names(doc, result.calculations), doc.lang))
    if result.verdict == "inconsistent" and assumed:  # data/verdicts.json: no inconsistency built on an assumption
        m = messages(doc.lang)
        names = assumed_names(doc, result.calculations)
        result.verdict = "needs_more"
        result.why = m["verdicts"]["assumption_suffix"].format(finding=result.why, assumed=join_names(names, doc.lang))
    return result


def _judge(doc: Document, claim: Claim, runs: list[tuple[dict, dict | None, int]], contrast) -> Result:
    m = messages(doc.lang)
    verdicts = m["pp_verdicts"]
    groups: dict[tuple[bool, bool], dict[str, list[str]]] = {}  # (contrast, bound) -> chip -> models
    for chip, model, index in runs:
        bound = doc.calculations[index]["outputs"]["dp_comm_bound"]
        models = groups.setdefault((chip is contrast, bound), {}).setdefault(restate.chip_name(chip, doc.lang), [])
        if model:
            models.append(restate.model_name(model))
    several_models = len({id(r[1]) for r in runs}) > 1

    def labels(contrast_side: bool | None, bound: bool) -> list[str]:
        out = []
        for side in ((False, True) if contrast_side is None else (contrast_side,)):
            for chip, models in groups.get((side, bound), {}).items():
                out.append(f"{chip} ({join_names(models, doc.lang)})" if several_models and models else chip)
        return out
    named_good, named_bad = labels(False, False), labels(False, True)
    fields = {"good": join_names(named_good, doc.lang), "bad": join_names(named_bad, doc.lang),
              "contrast_bad": join_names(labels(None, True), doc.lang)}
    if claim.frame in ("pp_not_needed", "fast_links_no_pp") and not claim.kinds.count("question"):
        verdict = "consistent" if not named_bad else "inconsistent"
        key = "holds" if not named_bad else "fails" if not named_good else "partly"
    elif claim.frame in ("dp_comms_bound", "pp_needed") and "question" not in claim.kinds:
        verdict = "consistent" if named_bad and not named_good else "inconsistent" if named_good and not named_bad else "explained"
        key = "bound" if named_bad and not named_good else "not_bound" if not named_bad else "partly"
    elif claim.frame == "pp_only_when_dp_bound":
        verdict = "explained"
        key = "rule" if named_good and fields["contrast_bad"] else "answer_bad" if not named_good else "answer_good"
    else:
        verdict = "explained"
        key = "rule" if fields["contrast_bad"] and not named_bad else "answer_bad" if named_bad and not named_good else \
            "answer_good" if not named_bad else "partly"
    needed = set(re.findall(r"\{(\w+)\}", verdicts[key]))
    if any(not fields[name] for name in needed):  # a sentence never misses its chip's name ("on  data-parallel ...")
        if not fields["contrast_bad"]:
            return Result([index for _, _, index in runs], "explained", verdicts["words"])
        verdict, key = "explained", "contrast_only"
    return Result([index for _, _, index in runs], verdict, verdicts[key].format(**fields))
