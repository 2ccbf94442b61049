"""The reasons a text gives: links of data/reasons.json whose cause and effect its sentences name, sized by a calculator."""

import bisect
import json
import re
from functools import cache

import calculators
from calculators import catalog
from calculators.resources import data_dir

from service.explain import claims, outside_numbers, restate
from service.explain.document import Document

MAX_LINKS = 4
# A pipeline the text does not describe: an example, said as such. Four micro-batches per stage keep the bubble
# (p-1)/m near a quarter of the step (Narayanan et al. 2021, section 2.2.1, wants m much larger than p).
EXAMPLE_STAGES, EXAMPLE_MICROBATCHES = 8, 32
SHAPE_FIELDS = ("seq_len", "d_model", "n_heads", "n_layers")


@cache
def _data() -> dict:
    return json.loads((data_dir() / "reasons.json").read_text(encoding="utf-8"))


def table() -> list[dict]:
    """data/reasons.json's links, loaded once."""
    return _data()["links"]


def _purpose() -> str:
    """The purpose clause that argues for every link ("to prevent OOM, ...")."""
    return _data()["purpose"]["pattern"]


def _ids_by_sentence(doc: Document) -> list[set[str]]:
    """The glossary terms each sentence names."""
    ids: list[set[str]] = [set() for _ in doc.sentences]
    starts = [a for a, _ in doc.sentences]
    asides = _bracketed(doc.text)
    for match in doc.occurrences:
        i = bisect.bisect_right(starts, match.start) - 1
        if i >= 0 and match.start < doc.sentences[i][1] and not any(a < match.start < b for a, b in asides) \
                and not _ABSENT.search(doc.text, max(0, match.start - 24), match.start) and not _factor(doc.text, match):
            ids[i].add(match.entry["id"])  # a term named only in a bracketed aside ("(globalbs/microbs/DP)") argues nothing
    return ids


def _factor(text: str, match) -> bool:
    """A setting's name as a factor of a formula ("(max_staleness + 1) * gradient_accumulation_steps * ..."): it names
    a number in a sum, not a cause the author argues (round 85's gradient-accumulation reason for a rollout formula)."""
    return "_" in match.found_as and bool(re.search(r"[*×+/(]\s*$", text[max(0, match.start - 3):match.start])
                                          or re.match(r"\s*[*×+/)]", text[match.end:match.end + 3]))


# "There are no PPs so ...", "without pipeline parallelism", "بدون توازي": what a run lacks is no cause in it
_ABSENT = re.compile(r"(?:\b(?:no|without|zero|disabled?|not using|never uses?)|(?<![\u0621-\u064A])(?:بدون|دون|بلا|لا يوجد|لا توجد))\s+$", re.I)


def _bracketed(text: str) -> list[tuple[int, int]]:
    """The spans of bracketed asides of three words or more (a short gloss, "(TP)", still names its term)."""
    spans, opened = [], []
    for position, char in enumerate(text):
        if char == "(":
            opened.append(position)
        elif char == ")" and opened:
            start = opened.pop()
            if not opened and len(text[start + 1:position].split()) >= 3:
                spans.append((start, position))
    return spans


def _linked(doc: Document, window: list[int], link: dict) -> bool:
    """Whether the sentences argue in the way the link needs and say nothing it would contradict.

    Arguing is a cause, a consequence, a requirement, what a choice hurts or avoids, or a question about them, or
    the link's own kinds of sentence ('requires': cue lists of data/claim_cues.json, such as a comparison for a link
    that explains why one thing is slower) or words ('words'); 'unless' names words of the opposite case (FSDP found
    faster than DDP), in which the link is not shown.
    """
    text = _window_text(doc, window)
    if not link.get("calculator") and len(window) > 1:  # a stock fact: the arguing words are in the sentence naming its cause
        ids = _ids_by_sentence(doc)
        text = _window_text(doc, [i for i in window if ids[i] & set(link["cause"])]) or text
    own = _own_reason_terms(doc, window)
    if own is not None and not own & (set(link["cause"]) | set(link["effect"])):
        return False  # the text gives its own reason ("because ..."): a stock one about other things would speak for the author
    # a stock fact without a calculation is said only where the text argues cause and effect itself: beside a point,
    # a requirement or a question it reads as the author's reason (round 45: ZeRO-3's extra traffic beside "FSDP2
    # avoids this by going through hooks", DiLoCo's rare syncs beside a missing config option)
    kinds = link.get("requires") or (("cause", "point", "requirement", "question") if link.get("calculator") else ("cause", "question"))
    argues = any(claims.cue(name, text) for name in kinds) or (link.get("words") and matches(link["words"], text)) \
        or (not link.get("requires") and link.get("calculator") and matches(_purpose(), text))
    if not argues:
        return False
    # the opposite case said anywhere in the text (FSDP found faster than DDP, two sentences on) contradicts the link
    return not (link.get("unless") and matches(link["unless"], doc.text))


# "..., which is why", "...; this made it slower": the reason comes before the words
_REASON_BEFORE = re.compile(r"why|\b(?:this|that|which|these) (?:made|makes|caused|causes|led|leads|resulted|results)\b|لذلك|لهذا", re.I)


def _own_reason_terms(doc: Document, window: list[int]) -> set[str] | None:
    """The glossary terms of the reason the text itself gives in these sentences ("because X", "due to X", "بسبب X"),
    or None when it gives none."""
    found = None
    for i in window:
        start, end = doc.sentences[i]
        for a, b in claims.cue_spans("own_reason", doc.text[start:end]):
            before = _REASON_BEFORE.search(doc.text[start + a:start + b])
            lo, hi = (start, start + a) if before else (start + b, end)
            found = (found or set()) | {m.entry["id"] for m in doc.occurrences if lo <= m.start < hi}
    return found


def _window_text(doc: Document, window: list[int]) -> str:
    return " ".join(doc.text[doc.sentences[i][0]:doc.sentences[i][1]] for i in window)


@cache
def _pattern(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.I)


def matches(pattern: str, text: str) -> bool:
    """Whether `text` has the words of a link's pattern ('words', 'effect_words', 'unless', 'unless_text')."""
    return bool(_pattern(pattern).search(text))


def find(doc: Document) -> list[dict]:
    """The links the text makes, first mention first: each with its wording in doc.lang, its source and sentences.

    A link counts when one sentence, or two neighbouring ones, name one of its causes and one of its effects
    (different terms; the effect may be said in its 'effect_words') and one of its 'also' terms when it lists them,
    with words that argue; a link sized by a calculator gets that calculation appended to doc.calculations (its
    index in `calculation`).
    """
    ids = _ids_by_sentence(doc)
    for i in _machine_text(doc):  # a config line or a command names settings, not causes
        ids[i] = set()
    for i, (start, end) in enumerate(doc.sentences):
        if claims.table_line(doc.text[start:end]):
            ids[i] = set()  # a results table run into one line states rows, not a cause and its effect
    found: list[dict] = []
    # Two neighbouring sentences argue together only when the second opens by pointing back ("So ...", "This means ...",
    # "Because ..."): otherwise a cause in one and an effect in the next may belong to different points, and the reason
    # shown would be one the author never gave (a batch rule explained by a link about hiding FSDP's gathers).
    windows = [[i] for i in range(len(doc.sentences))] + [[i, i + 1] for i in range(len(doc.sentences) - 1)
                                                          if _argued_together(doc, i)]
    for link in table():
        if link.get("unless_text") and matches(link["unless_text"], doc.text):
            continue  # the text uses the link's terms in another sense (SP as ring attention's axis)
        if not all(matches(pattern, doc.text) for pattern in link.get("text_needs", ())):
            continue  # the situation the link is about is absent (bits against bytes with only byte rates written)
        cause, effect, also = set(link["cause"]), set(link["effect"]), set(link.get("also", ()))
        for window in windows:  # one sentence before two neighbouring ones
            names = set().union(*(ids[j] for j in window))
            causes, effects = names & cause, names & effect
            if causes and not effects and link.get("effect_words") \
                    and matches(link["effect_words"], _window_text(doc, window)):
                effects = {"effect_words"}  # the effect said in plain words ("training speed") rather than as a term
            if causes and effects and len(causes | effects) > 1 and (not also or names & also) \
                    and _linked(doc, window, link):
                naming = next((j for j in window if ids[j] & cause), window[0])  # the sentence that names the cause
                found.append({"id": link["id"], "from": window, "link": link, "quote_from": naming,
                              "named": len(causes | effects | (names & also))})
                break
    # first mention first; of two links drawn from the same sentences, the one naming more of its terms
    found.sort(key=lambda item: (item["from"][0], -item["named"]))
    found = _without_repeats(found)[:MAX_LINKS]
    out = []
    for item in found:
        link = item["link"]
        start, end = doc.sentences[item["quote_from"]]
        text, short = _said(link[doc.lang] if doc.lang in link else link["en"], doc), _said(link.get(f"short_{doc.lang}") or link.get("short_en") or "", doc)
        whole = link[doc.lang] if doc.lang in link else link["en"]
        if (outside_numbers.outside(text, doc.text, outside_numbers.RULE_FACTS) or text != whole and ": " in text) and not link.get("calculator"):
            continue  # "Adam keeps about sixteen bytes per parameter": a number the text never gives, against its own table (round 56
            # P10); a link cut for its numbers ("... per parameter: two for the weights.") says a list it no longer gives (round 60 P03)
        entry = {"id": item["id"], "from": item["from"], "quote_from": item["quote_from"], "quote": doc.text[start:end],
                 "text": text, "short": short if not outside_numbers.outside(short, doc.text, outside_numbers.RULE_FACTS) else "",
                 "condition": link.get(f"condition_{doc.lang}") or link.get("condition_en", ""),
                 "source": link["source"], "calculation": None}
        if link.get("calculator") == "pipeline_activation_memory" and not any(o["calculation"] is not None for o in out):
            run = _pipeline_memory(doc)
            if run is not None:
                if run not in doc.calculations:  # a document read again (a follow-up's earlier turns) keeps one sizing
                    doc.calculations.append(run)
                entry["calculation"] = doc.calculations.index(run)
        out.append(entry)
    return out


def _said(text: str, doc: Document) -> str:
    """A link's wording without the phrases after its first that give a number the passage never does."""
    facts = outside_numbers.RULE_FACTS
    return outside_numbers.without_parts(text, doc.text, facts) if outside_numbers.outside(text, doc.text, facts) else text


_POINTS_BACK = re.compile(r"^\W*(?:so|thus|hence|therefore|it|because|since|as a result|which|then|that's why)\b|"
                          r"\b(?:this|these)\b|(?<![\u0621-\u064A])(?:لذلك|لذا|وبالتالي|هذا|هذه|ذلك|لأن|بسبب|مما)(?![\u0621-\u064A])",
                          re.I)


def _argued_together(doc: Document, i: int) -> bool:
    """Whether sentence i and the next argue one point: the next opens on a consequence or a reason, or points back
    with "this", asks about the first ("Why not X?"), or the first announces it with a colon ("... the following reasons:")."""
    first, second = (doc.text[slice(*doc.sentences[j])] for j in (i, i + 1))
    return first.rstrip().endswith((":", "：")) or second.rstrip().endswith(("?", "؟")) or bool(_POINTS_BACK.search(second))


def _machine_text(doc: Document) -> list[int]:
    """The sentences mostly of machine text (config lines, code, commands)."""
    protected = restate.protected_spans(doc)
    return [i for i, (start, end) in enumerate(doc.sentences)
            if sum(min(b, end) - max(a, start) for a, b in protected if a < end and start < b) > 0.5 * (end - start)]


def _without_repeats(found: list[dict]) -> list[dict]:
    """One link per sentence window, and none that a link already shown states ('covers')."""
    out, windows = [], set()
    covered = {c for item in found for c in item["link"].get("covers", ())}
    for item in found:
        key = tuple(item["from"])
        if key not in windows and item["id"] not in covered:
            windows.add(key)
            out.append(item)
    return out


def _pipeline_memory(doc: Document) -> dict | None:
    """AFAB against 1F1B on the text's pipeline when it states one, else on an example pipeline, every assumption said."""
    assumed: list[str] = []
    stages, micro = doc.figure("pp_degree"), doc.figure("microbatches")
    inputs: dict = {"pp_degree": int(stages.value) if stages else EXAMPLE_STAGES,
                    "microbatches": int(micro.value) if micro else EXAMPLE_MICROBATCHES}
    if not stages or not micro:
        assumed.append("example")
    model = next((m for m in doc.models() if all(m.get(f) for f in SHAPE_FIELDS)), None)
    if not stages and not micro and model is None:
        return None  # no input from the text: a sizing of an invented pipeline answers nothing the text asks (data/verdicts.json grounding)
    if model is not None and inputs["pp_degree"] <= model["n_layers"]:
        inputs.update(model=model["id"], micro_batch=1, recompute="selective")
        assumed.append("model")
    try:
        run = calculators.jsonable(calculators.run("pipeline_activation_memory", inputs))
    except calculators.CalculatorInputError:
        return None
    run["reason_assumptions"] = assumed
    run["input_sources"] = _sources(doc, run["inputs"], stages, micro, model)
    return run


def _sources(doc: Document, inputs: dict, stages, micro, model) -> dict:
    """Where each input of the sizing came from, in the shape the checks use (text, catalog or assumed)."""
    example = "an example pipeline; we found no {} in the text".format
    out = {"pp_degree": {"source": "text", "quote": stages.quote} if stages else {"source": "assumed", "why": example("stage count")},
           "microbatches": {"source": "text", "quote": micro.quote} if micro else {"source": "assumed", "why": example("micro-batch count")}}
    if model is not None:
        mention = next((m for m in doc.mentions if m.kind == "model" and m.entry is model), None)
        out["model"] = {"source": "text", "quote": doc.text[mention.start:mention.end]} if mention else {"source": "catalog"}
        out.update({f: {"source": "catalog", "from": model["id"]} for f in SHAPE_FIELDS})
        out["micro_batch"] = {"source": "assumed", "why": "one sequence per micro-batch"}
        out["recompute"] = {"source": "assumed", "why": "attention recomputed, as FlashAttention does"}
    return {k: v for k, v in out.items() if k in inputs}


def model_name(run: dict) -> str:
    """The catalog name of the model a sizing ran on, or ''."""
    model = run["inputs"].get("model")
    return catalog.models().get("model", model)["name"] if model else ""


def citation(source: str) -> str:
    """A link's sources as short citations: each work's authors, year, title and identifiers, without the notes in
    brackets (a bracket of more than three words)."""
    def short(part: str) -> str:
        return re.sub(r"\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)",
                      lambda m: "" if len(m.group(1).split()) > 3 else m.group(0), part).strip(" ,")
    return "; ".join(p for p in map(short, source.split("; ")) if p)
