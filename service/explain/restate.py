"""Plain restatements in the output language: acronyms expanded, figures read out with what they measure."""

import bisect
import json
import re
from functools import lru_cache

from calculators import catalog
from calculators.resources import data_dir
from calculators.formatting import human, human_field

from service.explain import arabic_phrase, count_forms, degree_notation, expansion_number, passage_devices, pattern_cache, sense_guards
from service.i18n import arabic
from service.i18n.messages import join_names, messages

_NAME_GOES_ON = re.compile(r"[ \t]+[A-Z][\w-]*")  # "Torch FSDP Plugin": the acronym is inside a longer name
_VERSION_AFTER = re.compile(r"[ \t]+\d{1,2}(?:\.\d)?(?![\w.%/-])(?![ \t]*(?:[A-Za-z]*[BMKT]?B\b|GPUs?\b|x\b|×|-?way\b))")  # "FSDP 2": a version
_SPELLS_OUT = re.compile(r"\b(?:stands? for|short for|abbreviation (?:of|for)|acronym (?:of|for))\b|(?<![\u0621-\u064A])(?:اختصار|اختصارًا|يرمز)(?![\u0621-\u064A])", re.I)
_FIGURE_BEFORE = re.compile(r"[\d%٪]\s*$")  # an Arabic plain phrase in the name's place cannot follow its figure
MAX_PLAIN_FORMS = 2  # two terms said in plain words are read in one breath; a third is left to the terms section
MAX_INLINE_WORDS = 6  # a longer expansion would bury the sentence; the terms section carries it
_COUNT_RATES = {"tokens_per_s", "tokens_per_s_per_chip", "sequences_per_s", "words_per_s"}  # rates of things, not durations


def value(quantity: str, number) -> str:
    """A figure's value written for a reader, in the calculators' units."""
    quantity = quantity.removesuffix("_total")  # "peak_flop_per_s_total": a whole cluster's rate, in the rate's unit
    if quantity in _COUNT_RATES or quantity.endswith("_degree") or quantity in ("microbatches", "micro_batch", "virtual_stages"):
        return human(number, "count")
    if quantity == "time_s":
        return human(number, "seconds")
    if quantity == "pin_rate_bytes_per_s":  # a memory pin's speed is written in bits, as its datasheet gives it
        return f"{number * 8 / 1e9:.3g} Gb/s"
    return human_field(quantity, number)


def chip_name(chip: dict, lang: str) -> str:
    """How the answer names a chip: the locale's group name ("TPU pods") or the catalog's, without the gloss."""
    groups = messages(lang).get("chip_groups", {})
    return groups.get(chip["id"]) or chip["name"].split(" (")[0]


def model_name(model: dict) -> str:
    """The catalog name of a model."""
    return model["name"]


@lru_cache(maxsize=1)
def _other_chips() -> re.Pattern:
    """data/verdicts.json "other_chips": accelerators the catalog does not hold (V100, MI250X, ...)."""
    table = json.loads((data_dir() / "verdicts.json").read_text(encoding="utf-8"))
    return re.compile(table["other_chips"]["pattern"])


def figure(fig, lang: str, chip_names: bool = True, after: str = "") -> str:
    """One figure read out ("tensor parallelism across 8 GPUs"); `after` is the text right after it ("PP 8 stages": "a
    pipeline of 8" before the text's own "stages")."""
    if fig.quantity == "n_chips" and not getattr(fig, "chip", None) and (_other_chips().search(fig.quote or "")
                                                                       or re.search(r"\s[A-Za-z]+\d", fig.quote or "")) \
            and same_language(fig.quote, lang):  # "8 v100": a model code the catalog did not name
        return fig.quote  # "800 NVIDIA V100 GPUs" keeps its chip: "800 chips" would drop the name the catalog lacks
    readings = messages(lang).get("figure_readings", {})
    template, shown = readings.get(fig.quantity), value(fig.quantity, fig.value)
    if fig.quantity == "n_chips" and fig.chip and chip_names:
        name = _chip_as_written(fig, catalog.hardware().get("chip", fig.chip)["name"])
        key = "n_chips_named_tpu" if "TPU" in name and "n_chips_named_tpu" in readings else "n_chips_named"
        return _counted(count_forms.agreeing(readings.get(key, "{value} {chip}"), fig.value, lang).format(value=shown, chip=name), lang)
    if template is None:
        return fig.quote
    if lang == "en" and fig.quantity == "n_chips" and re.search(r"\bGPUs?\b", fig.quote or ""):  # GPUs, not chips
        template = readings.get("n_chips_gpu", template)  # (Arabic keeps شريحة: "وحدة GPU = 8.8" reads as a formula)
    if fig.quantity == "pp_degree" and _STAGES_AFTER.match(after):
        template = readings.get("pp_degree_before_stages", template)
    if fig.quantity == "dp_degree" and ((fig.detail or {}).get("zero_stage") == 3 or re.search(r"(?i)fsdp|hsdp|shard", fig.quote or "")):
        template = readings.get("dp_degree_sharded", template)
    if fig.quantity == "seq_len" and re.search(r"\bcontext\b|سياق|\d[KkMm]?-token$", fig.quote or "", re.I):  # one context
        template = readings.get("token_adjective" if fig.quote.endswith("-token") else "context_written", template)
    elif fig.quantity in ("tokens", "train_tokens") and (fig.quote or "").endswith("-token"):
        template = readings.get("token_adjective", template)  # "a 128K-token input": an adjective, never "a 128,000 tokens input"
    elif fig.quantity == "seq_len" and re.search(r"\btokens?$|رمز(?:ا|ًا)?$", fig.quote or ""):
        template = readings.get("tokens_written", template)  # "~8k tokens of context per sequence": the text's words say what they are
    if fig.quantity in ("global_batch_sequences", "global_batch_tokens") and (fig.detail or {}).get("batch_scope") == "unsaid":
        # "bs=2" or "batch size 512" does not say whose batch it is (one GPU's or the whole step's): not "global"
        template = readings.get(fig.quantity + "_unqualified", template)
    return _counted(count_forms.agreeing(template, fig.value, lang).format(value=shown), lang)


_STAGES_AFTER = pattern_cache.lazy(r"\s*(?:stages?\b|مراحل|مرحلة)")  # PP8 is 8-way, not 8 stages (DualPipeV runs 16 on 8)


def on_chips(read: str, fig, text: str, lang: str) -> str:
    """A parallel degree read "across 4 chips" where the text's accelerators are no GPUs (FSDP=32 on TPU, a Tenstorrent Galaxy)
    or are never named ("EP64" in a run whose hardware the text never says was read "across 64 GPUs", round 84 P10)."""
    if lang == "en" and fig.quantity.endswith("_degree") and (passage_devices.not_gpus(text) or not passage_devices.names_gpus(text)):
        return read.replace(" GPUs", " chips")
    return read


def _counted(reading: str, lang: str) -> str:
    """An Arabic reading with its number agreeing with the noun after it ("7B معامل" -> "7 مليارات معامل")."""
    return arabic.agree_numbers(reading) if lang == "ar" else reading


_VARIANT_WORDS = ("SXM", "PCIe", "NVL", "80GB", "40GB", "141GB")
# A variant word with its size ("NVL72", "SXM5", "94GB"): a rack or board the catalog names, not what the text said.
_VARIANT = pattern_cache.lazy(r"(?:SXM|PCIe|NVL)\d*|\d+GB")


def _chip_as_written(fig, catalog_name: str) -> str:
    """The chip's name without a variant ("SXM", "80GB") the text did not write: "512 H100s" is not "H100 SXM"."""
    name = catalog_name.split(" (")[0].replace("NVIDIA ", "").replace("Google ", "")
    words = [w for w in name.split()
             if not (w in _VARIANT_WORDS or _VARIANT.fullmatch(w)) or w.lower() in fig.quote.lower()]
    return " ".join(words)


def _needs_reading(fig) -> bool:
    """Compact notation ("TP8", "GBS=1024", "seq 4k", "|TP|=2") is read out; plain prose figures stay as written,
    and so does a model size ("70B", "5.1B params"): "-parameter" glued to it reads worse than the text."""
    quote = fig.quote
    if fig.quantity in ("params", "active_params", "total_params") and not re.search(r"[=:]", quote):
        return False
    if re.fullmatch(r"[~≈]?\s*\d[\d.,]*\s*[kKMBT]", quote.strip()):
        return False  # a bare "2.7B" names no unit: read out, it would add the noun our reading guessed ("2.7B tokens")
    return bool(re.search(r"[=|:]|[A-Za-z]\d|\d[kKMBT]\b|^\w+\s+\d", quote)) and fig.quantity != "expression"


# "في GPU HBM", "إلى CPU DRAM": an English compound inside Arabic; an Arabic phrase put for one of its words splits it
_LATIN_NEIGHBOUR = pattern_cache.lazy(r"[A-Za-z] \||\| [A-Za-z]")
_PRODUCT_SIDE = pattern_cache.lazy(r"[×*]\s*\||\s[x]\s\||\|\s*[×*]|\|\s[x]\s")  # "layer × microbatch x DP slice": a factor of a product
# "an 8x NVIDIA H100 GPU cluster": a count of chips before the noun it describes stays as written ("8 H100 GPUs cluster" was said)
_CHIPS_MODIFY = pattern_cache.lazy(r"\s+(?:cluster|node|server|machine|box|system|setup|instance|pod|rack|partition|slice|workstation)s?\b", re.I)
_ARTICLE_BEFORE = pattern_cache.lazy(r"(?:^|\s)(?:a|an|the)\s+$", re.I)  # an article the text puts just before a figure
_ARTICLE_FIRST = pattern_cache.lazy(r"(?:a|an|the)\s", re.I)  # a reading that starts with its own
_NEXT_WORD = pattern_cache.lazy(r"\s+([A-Za-z]+|[\u0621-\u064A]+)(?![\w\u0621-\u064A])")


def expand(doc, start: int, end: int, lang: str, seen: set[str] | None = None, plain: frozenset = frozenset(),
           plain_forms: dict | None = None) -> str:
    """doc.text[start:end] with its acronyms expanded and its compact figures read out.

    A term is expanded once (`seen`, shared by the caller across sentences), where the sentence can carry it:
    never inside a word or compound ("72-GPU", "70B-parameter"), after a number (a unit: "400 Gb/s"), inside
    code, a flag or a config value, nor where the text glosses it already ("TPUs (Tensor ...)"), nor a term of
    `plain` (glossary ids a reader meets as plain words: "GPU"); an article before it agrees ("a model FLOPs ...").
    `plain_forms` (glossary id -> a short plain phrase, for the gist) says what an acronym means in place of its name.
    """
    text, protected = doc.text, protected_spans(doc)
    quoted = quoted_spans(text, start, end)  # a quoted name or label is the text's own words: nothing pasted inside
    edits: list[tuple[int, int, str]] = _corrections(doc, start, end, lang)
    for fig in doc.figures:
        if start <= fig.start and fig.end <= end and _needs_reading(fig) and not _in_spans(protected, fig.start) \
                and not _in_spans(quoted, fig.start) \
                and not _attached(text, fig.start, fig.end) and not degree_notation.stays(text, fig) \
                and not (fig.quantity == "n_chips" and _CHIPS_MODIFY.match(text, fig.end)) \
                and not any(a < fig.end and fig.start < b for a, b, _ in edits):
            read = on_chips(figure(fig, lang, after=text[fig.end:fig.end + 12]), fig, text, lang)
            if read != text[fig.start:fig.end]:  # "16.5e12 / 96e9" read as written: no edit, nor a list made of its "/"
                edits.append((fig.start, fig.end, read))
    seen = set() if seen is None else seen
    if _SPELLS_OUT.search(text, start, end):  # "KV Cache هي اختصار لـ Key-Value Cache": a name and its spelling stay as written
        return _EMPTY_BRACKETS.sub("", " ".join(_applied(doc, text, start, end, edits).split()))
    starts = [m.start for m in doc.occurrences]  # in text order: only the sentence's slice is scanned
    for match in doc.occurrences[bisect.bisect_left(starts, start):bisect.bisect_left(starts, end)]:
        if match.end > end:
            continue
        if any(a < match.end and match.start < b for a, b, _ in edits):
            continue
        name = match.found_as
        if lang != "en" and not _is_acronym(name) and not arabic.ARABIC_LETTER.search(name) and not re.search(r"\d|\b[A-Z]{2,}\b", name) \
                and match.entry.get("category") in _COMMON_NOUN_CATEGORIES and not _in_spans(protected, match.start) \
                and not _attached(text, match.start, match.end) and not _in_spans(quoted, match.start) \
                and not (_after_number(text, match.start) and re.search(r"/|[A-Z].*[A-Z]", name)):  # "42.5 ExaFLOPS": a unit
            own = _expansion(match.entry, lang)
            if own and arabic.ARABIC_LETTER.search(own) and not _head_said_before(text, match.start, own):  # "Pipeline Parallelism" in an Arabic sentence is written in Arabic
                edits.append((match.start, match.end, own))
            continue
        if not _is_acronym(name) or arabic.ARABIC_LETTER.search(name) or _bracketed(text, match.start, match.end) and not seen.add(match.entry["id"]):
            continue  # "Model Flops Utilization (MFU)": the text's own gloss, after which "39.0% MFU" needs none either
        if _AS_VERB.search(text, max(0, match.start - 14), match.start) and re.fullmatch(r"[A-Z]{2,}(?:s|ed|ing|['’]d)", name) \
                or _TO_VERB.search(text, max(0, match.start - 4), match.start) and _OBJECT_NEXT.match(text, match.end):
            continue  # "then OOMs asking for 2.82 GiB", "manage to SFT a 7B model": the acronym is the verb, which no expansion replaces
        if not sense_guards.fits_here(match.entry, text, match.start, match.end, name):
            continue  # this occurrence is read in another sense than the entry's, though others are not
        said_plainly = (plain_forms or {}).get(match.entry["id"]) if name == match.entry.get("term") \
            and not _NAME_GOES_ON.match(text, match.end) and len(seen & set(plain_forms or ())) < MAX_PLAIN_FORMS \
            and not (lang != "en" and _FIGURE_BEFORE.search(text, max(start, match.start - 12), match.start)) else None
        expansion = said_plainly or _expansion(match.entry, lang)
        if not expansion or expansion.lower() == name.lower() or match.entry["id"] in seen or match.entry["id"] in plain:
            continue
        if not said_plainly and ("_" in name or ":" in expansion or len(expansion.split()) > MAX_INLINE_WORDS
                                 or name.lower() in expansion.lower() or re.search(r"\d", name) and re.search(r"\d", expansion)
                                 or re.fullmatch(r"[A-Za-z]{2,}\d", name) and not re.search(r"\d", expansion)):  # "FSDP2" is no "Fully Sharded Data Parallel"
            continue  # an identifier (ZB_2P, SHARD_GRAD_OP) or a long gloss: the terms section explains it
        if _in_spans(protected, match.start) or _attached(text, match.start, match.end) or _after_number(text, match.start) \
                or _ASSIGNED.match(text, match.end) or text[match.end:match.end + 2] in ("'s", "’s") or text[match.start - 1:match.start] == "=" \
                or _PRODUCT_CODE_BEFORE.search(text, max(0, match.start - 12), match.start) \
                or _VERSION_AFTER.match(text, match.end) or text[match.end:match.end + 7].startswith(" times") \
                or _unit_of_number(text, match.start, name) or _in_spans(quoted, match.start) \
                or _modifies_noun(text, match.end) or _inside_brackets(text, start, match.start) \
                or (lang == "en" and not said_plainly and not spells(name, expansion)) \
                or (lang == "ar" and (_disagrees_with_verb(text, match.start, expansion) or arabic_phrase.inside_noun_phrase(text, match.start, match.end)
                                      or _LATIN_NEIGHBOUR.search(text[max(0, match.start - 2):match.start] + "|" + text[match.end:match.end + 2]))) \
                or _PRODUCT_SIDE.search(text[max(0, match.start - 3):match.start] + "|" + text[match.end:match.end + 3]) \
                or _glossed_after(text, match.end) or (lang != "en" and _head_said_before(text, match.start, expansion)) \
                or (lang == "en" and _repeats_neighbour(text, match.start, match.end, expansion)):
            continue
        said = expansion if said_plainly else expansion_number.agreeing(match.entry, name, _spelled_part(name, expansion, lang), lang)
        if not said_plainly and said.lower() in name.lower():
            continue  # "EAGLE (EAGLE-3)": the family's name inside the member's is no expansion of it
        seen.add(match.entry["id"])
        if said_plainly and lang == "en":  # "MFU (the share of ...)": the name keeps its place, so the sentence stays grammatical
            edits.append((match.start, match.end, f"{name} ({said_plainly})"))
            continue
        edits.append((match.start, match.end, f"{said} ({name})"))
    return _joined_particles(_EMPTY_BRACKETS.sub("", " ".join(_applied(doc, text, start, end, edits).split())))


_TO_VERB, _OBJECT_NEXT = pattern_cache.lazy(r"\bto\s+$"), pattern_cache.lazy(r"\s+(?:a|an|the|our|their|this|these|its|it|them|\d)\b")
_AS_VERB = pattern_cache.lazy(r"\b(?:then|it|which|that|still|also|immediately|eventually|sometimes|always|never|often|just|and)\s+$", re.I)
# "EP=N", "TP = 8": a name given a value is a setting, a gloss would sit inside it; nor before "'s" ("DDP (...)'s backward pass")
_ASSIGNED = re.compile(r"\s*=")
# "a v5e TPU", "the H100 GPU": the acronym ends a product's name, which an expansion would split ("v5e Tensor Processing Unit")
_PRODUCT_CODE_BEFORE = re.compile(r"(?<![\w-])(?=[A-Za-z]*\d)[A-Za-z][\w-]*\d[A-Za-z0-9]*\s+$")


def _repeats_neighbour(text: str, start: int, end: int, expansion: str) -> bool:
    """Whether the expansion would say a neighbouring word twice: "high-bandwidth HBM3" or "HBM memory" read out as
    "high-bandwidth high-bandwidth memory (HBM3)" and "high-bandwidth memory (HBM) memory"."""
    words = re.findall(r"[a-z][\w-]*", expansion.lower())
    before = re.findall(r"[\w-]+", text[max(0, start - 30):start].lower())
    after = re.findall(r"[\w-]+", text[end:end + 30].lower())
    return bool(words) and (bool(before) and before[-1] == words[0] or bool(after) and after[0] == words[-1])


# "لـ Prefill" with the Latin name replaced by an Arabic word: the particle joins it ("للملء", "لمعالجة"), as Arabic writes it
_DETACHED_LAM = pattern_cache.lazy(r"(?<![\u0621-\u064A])لـ\s+(?:ال(?=[\u0621-\u064A])|(?=[\u0621-\u064A]))")


def _joined_particles(text: str) -> str:
    """Arabic prose with a detached "لـ" joined to the Arabic word after it ("لـ الملء" -> "للملء"), and the article
    written for a Latin name dropped before the Arabic phrase put in its place ("من الـ ذاكرة" -> "من ذاكرة")."""
    text = _DETACHED_AL.sub("", text)
    return _DETACHED_LAM.sub(lambda m: "لل" if m.group(0).endswith("ال") else "ل", text)


_DETACHED_AL = pattern_cache.lazy(r"(?<![\u0621-\u064A])الـ\s+(?=[\u0621-\u064A])")


def _applied(doc, text: str, start: int, end: int, edits: list[tuple[int, int, str]]) -> str:
    """doc.text[start:end] with its edits (figures read out, terms expanded) applied in order."""
    out, cursor, last_figure = [], start, False
    for a, b, replacement in sorted(edits):
        if a < cursor:
            continue
        gap = text[cursor:a]
        is_figure = any(f.start == a for f in doc.figures)
        if is_figure and last_figure and (not gap.strip() or gap.strip() in _LIST_MARKS):
            gap = ", "  # "FSDP8 TP8 PP4" (or "TP4,PP2") read out is a list
        if is_figure:
            # The reading carries its own article and noun: "a 4M-token batch" reads "a global batch of 4M tokens",
            # not "a a global batch of 4M tokens batch".
            article = _ARTICLE_BEFORE.search(gap)
            if article and _ARTICLE_FIRST.match(replacement):
                gap = gap[:article.start()] + " "
            gap = _without_repeated_lead(gap, replacement)
            said_after = _repeated_tail(text, b, end, replacement)
            if replacement.endswith(" per GPU") and _PER_NAMED_CHIP.match(text, b, end):
                replacement = replacement[:-len(" per GPU")]  # "2.2k tokens/s per H200 GPU": the text's own "per" stays
            if said_after:
                b = said_after  # "9k tokens/s per GPU" reads "9,000 tokens per second per GPU", not "... per GPU per GPU"
            noun = _NEXT_WORD.match(text, b, end)
            if noun and noun.group(1).lower() not in _LINKING_WORDS and (noun.group(1).lower() in replacement.lower().split()
                         or (arabic.ARABIC_LETTER.search(noun.group(1))
                             and _stems(noun.group(1)) & {stem for w in replacement.split()[-2:] for stem in _stems(w)})):
                b = noun.end()  # "PP=8 مراحل" reads "خط أنابيب من 8 مراحل", not "... 8 مراحل مراحل"
        elif replacement.endswith(")") and _ARTICLE_BEFORE.search(gap) and not replacement.startswith(text[a:b] + " ("):
            gap = _agreeing_article(gap, replacement)  # "an MFU" read out is "a model FLOPs utilization (MFU)"
        out.append(gap)
        out.append(replacement)
        cursor, last_figure = b, is_figure
    out.append(text[cursor:end])
    return "".join(out)


# Words that link a figure to what follows ("per GPU", "of 2 stages"): never taken as the figure's own noun.
_LINKING_WORDS = {"per", "of", "in", "on", "at", "a", "an", "the", "to", "from", "with", "across", "for", "by", "and", "or"}


_PER_NAMED_CHIP = pattern_cache.lazy(r"\s+per\s+(?:[\w.-]+\s+){1,2}(?:GPU|chip|device|card|accelerator)s?\b", re.I)


def _repeated_tail(text: str, at: int, end: int, reading: str) -> int | None:
    """Where the text's words right after a figure end, when they repeat the last two or three words of its reading."""
    words = reading.split()
    for k in (3, 2):
        if len(words) > k:
            tail = r"\s+".join(map(re.escape, words[-k:]))
            said = re.match(rf"\s+{tail}(?![\w\u0621-\u064A])", text[at:end], re.I)
            if said:
                return at + said.end()
    return None


_VOWEL_SOUND = pattern_cache.lazy(r"(?!(?:uni|use|usu|uti|one|eu)\w)[aeiou]", re.I)


def _agreeing_article(gap: str, replacement: str) -> str:
    """The gap with its closing "a"/"an" agreeing with the first sound of the words that replace the acronym."""
    found = re.search(r"\b(a|an)(\s+)$", gap, re.I)
    if not found:
        return gap  # "the" agrees with everything
    article = "an" if _VOWEL_SOUND.match(replacement) else "a"
    if found.group(1)[0].isupper():
        article = article.capitalize()
    return gap[:found.start()] + article + found.group(2)


_CODE = pattern_cache.lazy(r"```.*?```|`[^`\n]*`", re.S)
_FLAG = pattern_cache.lazy(r"(?<![\w-])--[A-Za-z][\w.-]*(?:[= ][^\s,;]+)?")
# A config line holds one value: "tensor_model_parallel_size: 8", "precision = bf16", '"zero_stage": 3,'.
_CONFIG_LINE = pattern_cache.lazy(r"(?m)^[ \t-]*[\"']?[A-Za-z_][\w.-]*[\"']?[ \t]*[:=][ \t]*"
                                  r"(?:[^\s\[{\"]+|\[[^\n]*\]|\{[^\n]*\}|\"[^\n]*\")[ \t]*,?[ \t]*(?:#[^\n]*)?$")
# A command line, or any line setting three options or more ("python3 train.py a=1 b=2 c=3").
_COMMAND_LINE = pattern_cache.lazy(r"(?m)^[ \t]*(?:\$\s*)?(?:python3?|torchrun|deepspeed|srun|sbatch|bash|accelerate|mpirun|docker|"
                                   r"pip|export|CUDA_VISIBLE_DEVICES=)\b[^\n]*$|^[ \t]*(?:[\w.-]+=\S+\s+){2,}[\w.-]+=\S+[^\n]*$")
_PREVIOUS_WORD = pattern_cache.lazy(r"(\S+)\s+$")


# Words of the field an Arabic sentence should carry in Arabic; names (models, companies, products) stay as written.
_COMMON_NOUN_CATEGORIES = {"parallelism", "pipeline", "communication", "collective", "memory", "moe", "training", "metric",
                           "precision", "optimizer", "concept"}


def _corrections(doc, start: int, end: int, lang: str) -> list[tuple[int, int, str]]:
    """Known mistranslations inside doc.text[start:end], each replaced by the term meant ("منتقدا في اتصالات DP")."""
    out: list[tuple[int, int, str]] = []
    if lang == "en":
        return out
    for correction in doc.corrections:
        phrase, entry = correction.get("as") or "", correction.get("entry") or {}
        own = re.sub(r"\s*\([^)]*\)\s*$", "", (entry.get(lang) or {}).get("term") or "").strip()
        if not phrase or not own or "..." in phrase or "…" in phrase:
            continue
        # every place the phrase stands, the article and number aside ("الإشارة المرجعية" first, "إشارة مرجعية" here)
        places = [(a, b) for a, b in correction.get("spans") or [] if start <= a and b <= end]
        at = doc.text.find(phrase, start, end)
        places = places or ([(at, at + len(phrase))] if at >= 0 else [])
        for a, b in places:
            if not any(x < b and a < y for x, y, _ in out):
                # A garbled name ("منتقدا في اتصالات DP") becomes the term; a wrong gloss of a sentence's length is dropped.
                definite = any(w.startswith("ال") or w[1:3] == "ال" for w in doc.text[a:b].split())  # "جهاز التوجيه" is
                said = correction.get("said_as") or own  # "الرموز المميزة" is plural: "الرموز", not the entry's "الرمز"
                said = said if definite else re.sub(r"(?<!\S)ال(?=\S{2,})", "", said)  # definite; "إشارة مرجعية" is not
                out.append((a, b, said if len(phrase.split()) <= 5 else ""))
    return out


def protected_spans(doc) -> list[tuple[int, int]]:
    """Code, flags and config values: written for a machine, so nothing is ever pasted inside them."""
    cached = getattr(doc, "_protected", None)
    if cached is None or cached[0] is not doc.text:
        spans = sorted((m.start(), m.end()) for pattern in (_CODE, _FLAG, _CONFIG_LINE, _COMMAND_LINE) for m in pattern.finditer(doc.text))
        cached = (doc.text, spans)
        try:
            doc._protected = cached
        except AttributeError:
            pass
    return cached[1]


_LIST_MARKS = {",", ";", "/", "+"}
_QUOTED = pattern_cache.lazy(r"(?<![\w'])'[^'\n]{1,120}'(?![\w'])|\"[^\"\n]{1,120}\"|“[^”\n]{1,120}”|«[^»\n]{1,120}»")


def quoted_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Quoted names and labels ("'Train Step MFU'", “…”, «…») inside text[start:end] (apostrophes inside words are not quotes)."""
    return [(m.start(), m.end()) for m in _QUOTED.finditer(text, start, len(text) if end is None else end)]


def _inside_brackets(text: str, start: int, at: int) -> bool:
    """Whether `at` sits inside brackets the text opened in this sentence: an expansion there would nest brackets."""
    before = text[start:at]
    return before.count("(") > before.count(")")


def _bracketed(text: str, start: int, end: int) -> bool:
    """Whether the term is itself the text's gloss in brackets ("Grouped-Query Attention (GQA)"): the words are said."""
    return text[max(0, start - 1):start] == "(" and text[end:end + 1] == ")"


# Head nouns an abbreviation modifies ("the 6NP formula", "GPU cards", "DP groups"): an expansion in brackets before
# the noun would split the compound ("graphics processing unit (GPU) cards"); the terms section carries it instead.
_COMPOUND_HEADS = pattern_cache.lazy(r"\s+(?:formula|formulas|rule|rules|number|numbers|figure|figures|card|cards|group|groups|degree|degrees|size|sizes|rank|"
                                     r"ranks|dimension|dimensions|axis|axes|domain|domains|config|configs|setting|settings|value|values|score|scores|"
                                     r"ratio|implementation|library|code|kernel|kernels|traffic|overhead|style|mode|variant|version|versions|setup|"
                                     r"estimate|estimates|calculation|calculations|metric|metrics|counter|counters|label|labels|paper|papers|team|teams|"
                                     r"report|repo|docs|cluster|clusters|result|results|recipe|recipes|gradient|gradients|communication|framework|"
                                     r"frameworks|modes|slab|slabs|mem|bw|bandwidth|capacity|links?|topology|mesh|layout|budget|usage|utili[sz]ation|"
                                     r"throughput|latency|stack|stacks|execution|performance|efficiency|support|training|run|runs|job|jobs|workload|"
                                     r"workloads|head|heads|cache|caches|pairs?|blocks?|buffers?|tensors?|projections?|shards?|transfers?|environment|variables?|"
                                     r"backward|forward|unshard|wrappers?|units?|modules?|flags?|options?|plugins?|backends?|engines?|"
                                     r"processes|launchers?|scripts?|benchmarks?|errors?|issues?)\b")  # "one K/V head", "NVSHMEM environment variable"


_MASCULINE_VERB_BEFORE = pattern_cache.lazy(r"(?:^|\s)[وف]?ي[\u0621-\u064A\u064B-\u0652]{3,}\s+$")


def _disagrees_with_verb(text: str, start: int, expansion: str) -> bool:
    """Whether an Arabic expansion with a feminine head would follow a masculine verb as its subject ("يوفر NVFP4"
    is not "يوفر صيغة FP4"): the abbreviation stays as written, the terms section explains it."""
    head = expansion.split()[0] if expansion.split() else ""
    return head.endswith("ة") and bool(_MASCULINE_VERB_BEFORE.search(text[max(0, start - 30):start]))


def spells(acronym: str, expansion: str) -> bool:
    """Whether the expansion's word initials spell the acronym's capitals in order ("model FLOPs utilization" spells
    MFU; "feed-forward network" does not spell MLP): a gloss that does not is a sense, said in the terms section."""
    capitals = [c.lower() for c in acronym if c.isupper()]
    initials = [w[0].lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", expansion) if w[0].isalpha()]
    if not capitals or not initials or capitals[0] != initials[0]:
        return False
    # in order among the initials, or (FLOPs: "floating-point operations") among all the letters
    first = re.findall(r"[a-z]+", expansion.lower())[:1]
    # "FLOPs", "FLOPS": letters inside "floating" spell its first capitals; never "DDR5" as d-ynamic ... d-ram
    return _in_order(capitals, initials) or bool(first) and _in_order(capitals[:2], list(first[0])) \
        and _in_order(capitals, [c for c in expansion.lower() if c.isalpha()])


def _spelled_part(acronym: str, expansion: str, lang: str) -> str:
    """The expansion's words the acronym spells: "KV" under the KV cache's entry is "key-value", so "KV transfer" reads
    "key-value (KV) transfer", not "key-value cache (KV) transfer" (a word the text did not write, pasted before its own)."""
    capitals = [c.lower() for c in acronym if c.isupper()]
    words = expansion.split()
    if lang != "en" or len(words) < 2:
        return expansion
    for count in range(1, len(words)):
        initials = [w[0].lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", " ".join(words[:count])) if w[0].isalpha()]
        if initials == capitals:
            return " ".join(words[:count])
    return expansion


def _in_order(wanted: list[str], letters: list[str]) -> bool:
    found = iter(letters)
    return all(any(letter == c for c in found) for letter in wanted)


def _modifies_noun(text: str, end: int) -> bool:
    """Whether the abbreviation is the first word of a compound noun ("MFU numbers")."""
    return bool(_COMPOUND_HEADS.match(text, end))


def _in_spans(spans: list[tuple[int, int]], position: int) -> bool:
    return any(a <= position < b for a, b in spans)


def _attached(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is part of a longer word, compound or unit ("72-GPU", "1T-32A", "GPU-hours")."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    if before in "وبلفك" and (start < 2 or not text[start - 2].isalnum()):
        before = " "  # an Arabic particle written onto the term ("وTP 2", "بـPP") is a word of its own
    # "FSDP+QLORA" is one name; "TP × DP" a product of degrees: a gloss would split either
    return before.isalnum() or before in "-_/.+" or after.isalnum() or after in "-_/+" \
        or bool(re.search(r"[×*]\s*$", text[max(0, start - 3):start]) or re.match(r"\s*[×*]", text[end:end + 3]))


def _after_number(text: str, start: int) -> bool:
    """Whether a number comes just before: the term is then a unit ("400 Gb/s")."""
    return bool(re.search(r"\d\s?$", text[max(0, start - 3):start]))


def _unit_of_number(text: str, start: int, name: str) -> bool:
    """Whether a rate ("TFLOP/s/GPU") follows a number with a word or two between ("996 calibrated TFLOP/s/GPU"): a unit."""
    return "/" in name and bool(re.search(r"\d[\d.,]*\s+(?:[A-Za-z][\w-]*\s+){1,2}$", text[max(0, start - 40):start]))


def _glossed_after(text: str, end: int) -> bool:
    """Whether the text glosses the term itself right after it ("TPUs (Tensor Processing Units)")."""
    return text[end:end + 3].lstrip().startswith("(")


def _stems(word: str) -> set[str]:
    """A word's first three letters, with and without an attached particle or article (وحدات: وحد and حدا)."""
    word = word.strip("«»\"'()[]،,.:")
    out = {word[:3]}
    for prefix in ("وال", "بال", "لل", "ال", "و", "ب", "ل"):
        if word.startswith(prefix) and len(word) - len(prefix) >= 3:
            out.add(word[len(prefix):][:3])
    return out


def _head_said_before(text: str, start: int, expansion: str) -> bool:
    """Whether the words just before the term already say the expansion's head ("وحدات TPU" is not "وحدات وحدة ...",
    "دفعة صغرى microbatches" is not "دفعة صغرى الدفعة الصغرى")."""
    before = text[max(0, start - 40):start].split()[-3:]
    return bool(expansion.split()) and any(_stems(word) & _stems(expansion.split()[0]) for word in before)


_EMPTY_BRACKETS = pattern_cache.lazy(r"\s*\(\s*\)")
_LEAD = pattern_cache.lazy(r"(?:(?:a|an|the)\s+)?((?:[^\W\d]+\s+){2,5})(?=\d)")  # "a global batch of " before 16M


def _without_repeated_lead(gap: str, replacement: str) -> str:
    """The gap without the words the reading opens with, when the text already says them just before the figure:
    "at a global batch of 16M tokens" stays so, not "at a global batch of a global batch of 16M tokens"; nor a label
    naming the same quantity ("effective batch size 4M tokens": "a global batch of" takes the label's place)."""
    lead = _LEAD.match(replacement)
    if not lead:
        return gap
    words = lead.group(1).split()
    said = re.search(r"(?:(?<!\w)(?:a|an|the)\s+)?" + r"\s+".join(map(re.escape, words)) + r"\s*$", gap, re.I) or re.search(
        r"(?:(?<!\w)(?:the|an?|effective|global|total|micro|local)\s+){0,2}" + re.escape(words[-2] if words[-1] == "of" and len(words) > 1 else words[-1]) + r"\s+(?:size|length|count)\s*$", gap, re.I)
    return gap[:said.start()] + " " if said else gap


def _expansion(entry: dict, lang: str) -> str:
    if lang != "en" and (entry.get(lang) or {}).get("term"):
        own = entry[lang]["term"]
        bare = re.sub(r"\s*\([^)]*\)\s*$", "", own).strip()
        # "NVIDIA (إنفيديا)" for NVIDIA, "وحدة معالجة الرسومات (GPU)" for GPU: the name in brackets is added once, by expand
        return "" if bare.lower() == (entry.get("term") or "").lower() else bare or own
    expansion = entry.get("expansion") or ""
    return re.sub(r"\s*\([^)]*\)\s*$", "", expansion)  # "DeepSeek-V3 (DSV3)" -> "DeepSeek-V3"


def _is_acronym(name: str) -> bool:
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) >= max(2, len(letters) - 1) and " " not in name.strip()


@lru_cache(maxsize=4096)
def same_language(text: str, lang: str) -> bool:
    share = arabic.share_of_arabic(text)
    return share > 0.5 if lang == "ar" else share < 0.3


def claim(doc, item) -> str:
    """A claim restated plainly in doc.lang."""
    m = messages(doc.lang)
    if same_language(item.quote, doc.lang):  # the author's own words, read out, before any frame's wording
        return expand(doc, item.start, item.end, doc.lang)
    if item.frame and item.frame in m.get("frames", {}):
        return frame(doc, item)
    kind = item.kinds[0] if item.kinds else "cause"
    figures = join_names([figure(f, doc.lang) for f in item.figures if f.quantity != "expression"], doc.lang)
    about = join_names([_term_name(doc, term_id) for term_id in item.term_ids][:3], doc.lang)
    template = m["claim_kinds"].get(kind + ("_figures" if figures else ""), m["claim_kinds"]["cause"])
    return template.format(figures=figures, about=about or m["claim_kinds"]["about_nothing"])


def _term_name(doc, term_id: str) -> str:
    for term in doc.terms:
        if term["id"] == term_id:
            return term["expansion"] if doc.lang != "en" else term["expansion_en"].split(" (")[0]
    return ""


def frame(doc, item) -> str:
    """A frame claim ("you only need PP when DP-comms bound") in the locale's plain words."""
    m = messages(doc.lang)
    # A frame restates what the claim itself names, not the whole thread's hardware, and never a chip the text
    # names only as "GPUs" (the catalog's H100 is then an assumption of the check, not something the text said).
    chips = [c for c in item.chips if not doc.named_only_generically(c) or c["id"].startswith("tpu")]
    models = item.models
    chips_text = join_names(list(dict.fromkeys(chip_name(c, doc.lang) for c in chips)), doc.lang)
    models_text = join_names([model_name(x) for x in models], doc.lang)
    parts = m["frame_parts"]
    key = f"{item.frame}_question" if "question" in item.kinds and f"{item.frame}_question" in m["frames"] else item.frame
    if key == "pp_not_needed" and not _says_efficiency(item):
        key = "pp_not_needed_no_metric"  # "trains at good efficiency" only when the text speaks of MFU or efficiency
    return m["frames"][key].format(
        chips=(parts["on_chips"].format(chips=chips_text) if chips_text else ""),
        models=(parts["models"].format(models=models_text) if models_text else parts["a_large_model"]),
        metric=parts["good_mfu"] if "model-flops-utilization" in item.term_ids else parts["good_efficiency"])


_EFFICIENCY = pattern_cache.lazy(r"\b(?:MFU|HFU|efficien\w*|utili[sz]ation|throughput|fast|well)\b|كفاءة|استغلال|الإنتاجية", re.I)


def _says_efficiency(item) -> bool:
    return "model-flops-utilization" in item.term_ids or bool(_EFFICIENCY.search(item.quote))


def plain(doc) -> str:
    """The whole input restated: each sentence expanded when it is in the output language, else its claims' restatements."""
    pieces = []
    claims_at = {c.start: c for c in doc.claims}
    seen: set[str] = set()  # a term is expanded where it first appears, not in every sentence
    for start, end in doc.sentences:
        sentence = doc.text[start:end]
        if start in claims_at and not same_language(sentence, doc.lang):
            pieces.append(claims_at[start].plain)
        elif same_language(sentence, doc.lang):
            pieces.append(expand(doc, start, end, doc.lang, seen))
    return "\n".join(p for p in pieces if p)
