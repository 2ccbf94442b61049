"""A comparison restated across languages: "FSDP is faster than DDP" said in the answer's language from the glossary's
names and a comparative adjective (data/gist_comparatives.json), only when the sentence states it plainly."""

import json
import re
from functools import cache

from calculators.resources import data_dir

from service.explain import gist_names, reported
from service.explain.document import Document
from service.i18n import arabic
from service.i18n.messages import messages

# "MFU is a bit worse than for DDP" compares one metric across two set-ups: a metric is never one of the two things.
_MEASURES = {"metric", "unit"}
_MEASURE_IDS = {"model-flops-utilization", "hardware-flops-utilization", "throughput", "tokens-per-second", "bandwidth",
                "latency", "teraflops", "flop-per-second", "peak-flops", "memory", "computing-power"}
_PREPOSITION = re.compile(r"(?:for|with|in|on|using|under|at|when|ل|في|مع)\s*$", re.I)  # "than for DDP": a set-up
_THE_MODEL = re.compile(r"(?<![\u0621-\u064A])(?:[وف]?يعتمد\s+)?ال(?:نموذج|طراز)(?![\u0621-\u064A])|\bthe model\b", re.I)
NEAR_WORDS = 6  # a name further from the comparative than this is not surely what is compared


@cache
def _table() -> dict:
    return json.loads((data_dir() / "gist_comparatives.json").read_text(encoding="utf-8"))


@cache
def _cue(lang: str) -> re.Pattern:
    table = _table()
    words = "|".join(f"(?P<{key}>{entry['cue_' + lang]})" for key, entry in table["adjectives"].items())
    return re.compile(rf"(?:{words}){table['than'][lang]}", re.I)


def _language_of(text: str) -> str:
    return "ar" if arabic.share_of_arabic(text) > 0.5 else "en"


def _names(doc: Document, start: int, end: int) -> list[tuple[int, int, str]]:
    """(start, end, name in doc.lang) of the names and terms the glossary finds in doc.text[start:end]."""
    terms = {t["id"]: t for t in doc.terms}
    out = []
    for match in doc.occurrences:
        if start <= match.start and match.end <= end:
            name = gist_names.name_of(match, terms.get(match.entry["id"]), doc.lang)
            if name and match.entry.get("category") not in _MEASURES and match.entry["id"] not in _MEASURE_IDS:
                out.append((match.start, match.end, name))
    return out


def _the_model(doc: Document, start: int, cue_at: int) -> str:
    """The passage's one model, when the comparison's subject is "the model" ("ويعتمد النموذج على ...، مما يجعله أكثر
    تطورًا من Llama 3.1"): the name of the only model the passage names before the sentence, else ''."""
    if not _THE_MODEL.search(doc.text, start, cue_at):
        return ""
    models = {gist_names.bare(m.found_as): m for m in doc.occurrences if m.start < start and m.entry.get("category") == "model"}
    if len(models) != 1:
        return ""
    match = next(iter(models.values()))
    terms = {t["id"]: t for t in doc.terms}
    return gist_names.name_of(match, terms.get(match.entry["id"]), doc.lang)


def _metric_before(doc: Document, start: int, cue_at: int) -> bool:
    """Whether the last term before the comparative is a metric ("... but MFU is worse than ..."): a metric compared."""
    last = [m for m in doc.occurrences if start <= m.start and m.end <= cue_at]
    return bool(last) and (last[-1].entry.get("category") in _MEASURES or last[-1].entry["id"] in _MEASURE_IDS)


def comparative(doc: Document, index: int) -> str:
    """Sentence `index` as "The author says A is faster than B" in doc.lang, or '' when it does not plainly compare two
    named things (a negation, a hedge or a condition, or a name that cannot be placed, gives '')."""
    start, end = doc.sentences[index]
    sentence = doc.text[start:end]
    lang = _language_of(sentence)
    table = _table()
    found = _cue(lang).search(sentence)
    if not found or re.search(table["uncertain"][lang], sentence, 0 if lang == "ar" else re.I):
        return ""
    key = found.lastgroup
    cue_at, than_end = start + found.start(), start + found.end()
    if _metric_before(doc, start, cue_at):
        return ""
    before = [n for n in _names(doc, start, cue_at) if len(doc.text[n[1]:cue_at].split()) <= NEAR_WORDS
              and not re.search(r"[,;:،؛]", doc.text[n[1]:cue_at])]
    after = [n for n in _names(doc, than_end, end) if len(doc.text[than_end:n[0]].split()) <= (1 if lang == "en" else 3)
             and not re.search(r"[\d٠-٩,،;؛:]", doc.text[than_end:n[0]])]  # "مقارنة بنموذج ميتا Llama 3.1": a descriptor first
    if _PREPOSITION.search(found.group(0)) or after and _PREPOSITION.search(doc.text[than_end:after[0][0]]):
        return ""
    model = _the_model(doc, start, cue_at) if not before else ""
    if not (before or model) or not after:
        return ""
    a, b = before[-1][2] if before else model, after[0][2]
    if gist_names.same_name(a, b):
        return ""
    words = table["render"][doc.lang]
    adjective = table["adjectives"][key][doc.lang]
    degree = re.search(table["degree_" + lang], sentence[:found.start()])  # "1.5x faster", "11 مرة أفضل"
    if degree and before and before[-1][1] <= start + degree.start():
        number = degree.group("degree").lstrip("~").rstrip("x×% ")
        form = "degree_percent" if degree.group("degree").rstrip().endswith("%") else "degree_times"
        clause = words[form].format(a=a, b=b, adjective=adjective, degree=number)
    else:
        clause = words["plain"].format(a=a, b=b, adjective=adjective)
    said = messages(doc.lang)["gist_reported"]
    who = reported.speaker([sentence], lang) if lang == doc.lang else "author" if re.search(r"\b(?:I|my)\b", sentence) else \
        "authors" if re.search(r"\b(?:we|our)\b", sentence, re.I) else "text"
    subject = said["subjects"][who]
    if doc.lang == "ar":
        return f"{said['point']['other'].format(subject=subject)} {said['that_noun']} {clause}"
    verb = said["point"]["other"][1 if who == "authors" else 0]
    text = f"{subject} {verb} {clause}"
    return text[0].upper() + text[1:]


def one_side(doc: Document, start: int, end: int, cue: dict, everyday: set[str]) -> bool:
    """Whether a comparison names only what something is set against: nothing the glossary knows stands before its
    first "compared with" / "than" / "تتفوق على" ("Huawei's chips, compared with NVIDIA ... outperform NVL72" names
    NVIDIA and NVL72, both the yardstick; "compares NVIDIA and NVL72" would be wrong)."""
    found = [m.start() for name in ("against", "reference") for m in [cue[name].search(doc.text, start, end)] if m]
    if not found:
        return False
    first = min(found)
    return not any(start <= o.start < first and o.entry["id"] not in everyday for o in doc.occurrences) \
        and not _LATIN_NAME.search(doc.text, start, first)


_LATIN_NAME = re.compile(r"[A-Z][\w.-]*\d[\w.-]*|\b[A-Z]{2,}[\w-]*")  # "GB200", "TPUv4", "CloudMatrix"-like names with digits or capitals
