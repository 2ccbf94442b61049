"""A parallelism written with its size ("TP4", "TP=1", "CP times that"): its term named as written and read out."""

import re

from service.explain import glossary, pattern_cache, restate
from service.i18n.messages import messages


def as_multiplier(doc, item: dict) -> dict:
    """"the all_gather volume is CP times that of full attention": the abbreviation counts the parallelism's chips (round 53)."""
    acronyms = [a for a in glossary.load().by_id[item["id"]].get("aliases", []) if re.fullmatch(r"[A-Z]{2,4}", a)] if item.get("id") in _DEGREE_OF else []
    found = next((m for a in acronyms for m in [re.search(rf"(?<![\w-]){a}\s+times\b", doc.text)] if m), None)
    if not found or not item.get("definition"):
        return item
    end = re.search(r"\.(?:\s|$)", item["definition"])  # said inside the first sentence, which the terms section shows
    first, rest = (item["definition"][:end.start()], item["definition"][end.start():]) if end else (item["definition"].rstrip("."), ".")
    return {**item, "definition": first + messages(doc.lang)["parallel_size_times"].format(written=found.group(0).split()[0]) + rest}


_DEGREE_OF = {"tensor-parallelism": "tp_degree", "pipeline-parallelism": "pp_degree", "data-parallelism": "dp_degree",
              "expert-parallelism": "ep_degree", "context-parallelism": "cp_degree"}
_COMPACT_DEGREE = pattern_cache.lazy(r"[A-Za-z]{2,4}\s*[=:]?\s*\d+")  # "TP4", "tp=2", "EP64": a parallelism with its size


def with_degree(doc, item: dict) -> dict:
    """A parallelism the text writes with its size in one notation only ("TP4") is shown as written, read out:
    "TP4 (tensor parallelism across 4 GPUs)"; readers asked what "TP4" means, not what "TP" does (round 36)."""
    quantity = _DEGREE_OF.get(item.get("id", ""))
    written = {f.quote: f for f in doc.figures if f.quantity == quantity and _COMPACT_DEGREE.fullmatch(f.quote)} if quantity else {}
    if len(written) != 1 or item.get("found_as", "").lower() not in next(iter(written)).lower():
        return item
    quote, fig = next(iter(written.items()))
    axis = re.match(r"[A-Za-z]+", quote).group()  # "tp4 pp1 ... TP=1": the axis written with other sizes too is no one size
    if any(float(n) != fig.value for n in re.findall(rf"\b{axis}\s*[=:]?\s*(\d+)\b", doc.text, re.I)):
        return item
    if re.search(rf"\b(?:scal|var|sweep|increas|grow|rais|doubl)\w*\s+(?:the\s+)?{axis}\b|\b{axis}\s+(?:sizes|degrees|grows|increases|scales)\b", doc.text, re.I):
        return item  # "as we scale TP and model size": runs at several sizes, of which "TP=8" is one
    reading = restate.on_chips(restate.figure(fig, doc.lang), fig, doc.text, doc.lang)
    if reading and fig.value == 1:  # "PP8×TP1": no tensor parallelism, not "splitting each layer's weights" (round 53 P22)
        return {**item, "found_as": quote, "expansion": reading, "definition": f"{messages(doc.lang)['parallel_size_one']} {item['definition']}"}
    return {**item, "found_as": quote, "expansion": reading} if reading else item
