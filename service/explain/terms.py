"""Stage 1: page clutter, the text's terms (its own definitions first), and the mistranslations it contains."""

import bisect
import json
import re
from functools import cache, lru_cache

from calculators.resources import data_dir

from service.explain import (acronym_case, compound_terms, degree_terms, glossary, key_terms, model_names, moe_notation, named_kinds, option_terms,
                             pattern_cache, salience, sense_guards, senses, setting_names, stated_sizes, text_definitions)
from service.explain.definitions import generic_term_ids
from service.i18n import arabic


@cache
def cues() -> dict:
    """data/claim_cues.json, loaded once."""
    return json.loads((data_dir() / "claim_cues.json").read_text(encoding="utf-8"))


@cache
def _clutter_patterns() -> list[re.Pattern]:
    """The line patterns of page furniture; which words are clutter is the glossary's `clutter` marks."""
    return [pattern_cache.lazy(p, re.I | re.M) for p in cues()["clutter"]["line_patterns"]]


@cache
def _definition_patterns() -> dict[str, list[re.Pattern]]:
    return {lang: [pattern_cache.lazy(p, re.I if lang == "en" else 0) for p in section["definitions"]]
            for lang, section in cues().items() if isinstance(section, dict) and "definitions" in section}


def clutter_spans(text: str) -> list[tuple[int, int]]:
    """The lines of `text` that are page furniture, as (start, end) offsets."""
    patterns = _clutter_patterns()
    spans, offset = [], 0
    for line in text.splitlines(keepends=True):
        if line.strip() and any(p.search(line) for p in patterns):
            spans.append((offset, offset + len(line)))
        offset += len(line)
    return spans


def inside(spans: list[tuple[int, int]], start: int) -> bool:
    """Whether offset `start` falls inside one of `spans`."""
    return any(a <= start < b for a, b in spans)


def definitions(text: str) -> dict[str, str]:
    """What the text itself says its abbreviations mean ("here DP means FSDP"): {as written: meaning}."""
    found: dict[str, str] = {}
    for patterns in _definition_patterns().values():
        for pattern in patterns:
            capital = "(?P<term>[A-Z]" in pattern.pattern  # a name's pattern: matched case-blind, yet a name is capitalised
            for match in pattern.finditer(text):
                term, meaning = match.group("term").strip(), match.group("meaning").strip(" \"'“”")
                if capital and not term[:1].isupper() or _NOT_A_MEANING.match(meaning):
                    continue  # "a larger micro-batch means fewer micro-batches" is a consequence, not a definition
                if match.end() < len(text) and text[match.end()] not in ".;,()\n:!?\"'”":
                    continue  # cut off at the pattern's length ("... optimizer states—18GB of redun"): no whole meaning
                if term and meaning and term.lower() != meaning.lower():
                    found.setdefault(term, meaning)
    return found


_NOT_A_MEANING = pattern_cache.lazy(r"(?:that|fewer|more|less|lower|higher|we|you|it|there|this|much|many|each|every|all|any|no)\b", re.I)  # "DDP means each GPU holds ...": what follows from it


def is_clutter(match: glossary.Match) -> bool:
    """A match whose entry ("TL;DR") or chosen reading ("Claude, the chat tool the poster used") is page clutter."""
    reading = (match.entry.get("readings") or [{}])[match.reading]
    return bool(match.entry.get("clutter") or reading.get("clutter"))


_SIZE_NAME = re.compile(r"[_ -](size|degree)$", re.I)  # "cp_size=8", "CP degree 4": a degree, whatever the name's length
WHOLE_TEXT_MARGIN = 4  # cues by which the whole text's reading must lead for a near one-cue margin not to overturn it
_WINDOW = 160  # characters either side of an occurrence that settle its reading, when they hold a cue


def _reading(match: glossary.Match, text: str, overall: int, fields: frozenset[str]) -> int:
    """The reading of this occurrence (_read_reading), never one whose `only_written_as` the occurrence is not written as
    ("context parallel" spelled out is never the checkpoint that "CP" may abbreviate)."""
    chosen = _read_reading(match, text, overall, fields)
    only = match.entry["readings"][chosen].get("only_written_as") if match.entry.get("readings") else None
    return 0 if only and not re.fullmatch(only, text[match.start:match.end]) else chosen


def _read_reading(match: glossary.Match, text: str, overall: int, fields: frozenset[str]) -> int:
    """The reading of this occurrence: a degree after it ("CP=2", "tp 4") makes it the parallelism sense; else its own
    surroundings' cues decide, else the whole text's (an expert quoted by a chief engineer in one line, the MoE experts
    in the next). In a text about parallel training that field's readings start ahead (glossary.with_field)."""
    readings = match.entry["readings"]
    beside = senses.by_neighbours(match.entry, text, match.start, match.end)
    if beside is not None:  # a compound or a unit against the term ("DRAM chips", "batch of 4K tokens") settles it
        return beside
    if acronym_case.followed_by_degree(text, match.end) and (len(match.found_as) <= 5 or _SIZE_NAME.search(match.found_as)):
        scores = glossary.with_field(match.entry, [0] * len(readings), frozenset({"parallelism"}))
        if any(scores):  # a checkpoint or a true positive has no degree
            return _best(scores, overall, readings, fields, text, match)
    a, b = max(0, match.start - _WINDOW), match.end + _WINDOW
    tokens, _, _ = glossary._tokenised(text)
    starts = _starts(text)
    near = {tok for tok, _, _ in tokens[bisect.bisect_left(starts, a):bisect.bisect_left(starts, b)]}
    scores = glossary.reading_scores(match.entry, text[a:b], near)
    if not any(scores):  # no cue nearby: an entry whose first reading is its general sense says that one ("recovery
        return 0 if not readings[0].get("cues") else overall  # latency" in a text that speaks of networks elsewhere)
    scores = glossary.with_field(match.entry, scores, fields)
    best = max(range(len(scores)), key=lambda k: (scores[k], k == overall, -k))  # a tie nearby: the whole text's reading
    if best != overall and scores[overall] >= 1 and scores[best] - scores[overall] <= 1:
        # one cue's margin nearby does not overturn what the whole text clearly says and has cues for here too ("no
        # all-gather, no offload, ... the only communication left" in a text on ZeRO-3's weights: offloading data, not work;
        # round 58 P10); with no cue of it nearby, this occurrence may mean the other sense (a GPU's OOM before the host's)
        whole = glossary.reading_scores(match.entry, text, {tok for tok, _, _ in tokens})
        if whole[overall] >= whole[best] + WHOLE_TEXT_MARGIN:
            return overall
    return best


def _best(favoured: list[int], overall: int, readings: list, fields, text: str, match) -> int:
    """Among the favoured readings, the text's own choice if it is one of them, else the nearby cues' best of them."""
    if favoured[overall]:
        return overall
    a, b = max(0, match.start - _WINDOW), match.end + _WINDOW
    near = glossary.reading_scores(match.entry, text[a:b], set(text[a:b].split()))
    return max((k for k in range(len(readings)) if favoured[k]), key=lambda k: (near[k], -k))


@lru_cache(maxsize=4)
def _starts(text: str) -> list[int]:
    return [start for _, start, _ in glossary._tokenised(text)[0]]


def _unnested(matches: list[glossary.Match]) -> list[glossary.Match]:
    """Occurrences that never overlap, the longest names first, then what was found beyond them where it fits:
    the restatement rewrites each span once."""
    out = sorted((m for m in matches if not m.derived), key=lambda m: m.start)  # the scan's names never overlap, but
    # an Arabic name written around a Latin one ("رؤوس KV", KV heads) is found by both scans: the whole name wins
    out = [m for m in out if not any(o is not m and o.start <= m.start and m.end <= o.end and o.end - o.start > m.end - m.start
                                     for o in out)]
    for match in sorted((m for m in matches if m.derived), key=lambda m: (m.start, -m.end)):
        at = bisect.bisect_left([m.start for m in out], match.end)  # out[:at] start before this match ends
        if at == 0 or out[at - 1].end <= match.start:  # and, disjoint and in order, the last of them ends last
            out.insert(at, match)
    return out


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with the clutter lines blanked (same offsets), so a ticker's "$" and "rally" pick no reading."""
    if not spans:
        return text
    chars = list(text)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


def read_terms(doc) -> None:
    """Fill doc.clutter, doc.matches (distinct), doc.occurrences (all), doc.definitions, doc.terms, doc.corrections."""
    text = doc.text
    doc.clutter = clutter_spans(text)
    doc.definitions = definitions(text)
    content = _blanked(text, doc.clutter)
    tokens = {tok for tok, _, _ in glossary._tokenised(content)[0]}
    overall: dict[str, int] = {}
    every, first = [], {}
    found = [m for m in glossary.load().find(text, extended=True) if not inside(doc.clutter, m.start)]  # glossary.detect's scan
    found = senses.without_parts_of_identifiers(found)
    found = senses.without_parts_of_flags(found, text)
    found = senses.without_parts_of_snake_names(found, text)
    fields = glossary.text_fields([m.entry for m in found])
    for match in found:  # with readings per occurrence
        entry = match.entry
        if entry.get("readings") and len(entry["readings"]) > 1:
            if entry["id"] not in overall:
                overall[entry["id"]] = glossary.choose_reading(entry, content, tokens, fields)
            match = glossary.Match(entry, match.found_as, match.start, match.end,
                                   _reading(match, content, overall[entry["id"]], fields), match.derived)
        if is_clutter(match):
            continue
        every.append(match)
        first.setdefault(entry["id"], match)
    every, first = _with_axis_degrees(content, every, first)
    doc.occurrences = _unnested(every)
    # a name found across another's end ("scatter collective" in "the reduce-scatter collective") is no term there
    crossing = lambda m: text[m.start - 1:m.start] == "-" and any(o.start < m.start < o.end < m.end for o in doc.occurrences) \
        or text[m.end:m.end + 1] == "-" and any(m.start < o.start < m.end < o.end for o in doc.occurrences)  # noqa: E731
    kept = {}
    for occurrence in doc.occurrences:
        kept.setdefault(occurrence.entry["id"], occurrence)
    doc.matches = [m if not crossing(m) else kept[m.entry["id"]] for m in first.values()
                   if not crossing(m) or m.entry["id"] in kept]
    doc.matches = _with_definitions(doc.matches, doc.definitions)
    doc.matches, doc.occurrences = senses.without_lone_field_words(doc.matches, doc.occurrences)
    doc.matches, doc.occurrences = senses.without_senses_said_by_another(doc.matches, doc.occurrences)
    doc.matches, doc.occurrences = sense_guards.without_unfit(doc.matches, doc.occurrences, content)  # "dropless" is not token dropping
    # "Llama-3.1-70B-Instruct" read whole: the family's term spans the name and is glossed from its parts
    doc.matches, doc.occurrences, named, models = model_names.merged(content, doc.lang, doc.matches, doc.occurrences)
    options = option_terms.find(content, doc.lang)
    keys = key_terms.find(content, doc.lang, sorted({(m.start, m.end) for m in doc.occurrences + doc.matches}),
                          {t["found_as"] for t in options})
    keys += key_terms.rate_labels(content, doc.lang, [(m.start, m.end) for m in doc.occurrences])
    keys += key_terms.code_names(content, doc.lang, [(m.start, m.end) for m in doc.occurrences], {t["found_as"] for t in keys})
    keys += setting_names.find(content, doc.lang, [(m.start, m.end) for m in doc.occurrences],
                               {t["found_as"] for t in options + keys})
    keys += setting_names.code_names(content, doc.lang, [(m.start, m.end) for m in doc.occurrences], {t["found_as"] for t in keys})
    keys += moe_notation.find(content, doc.lang, {t["found_as"] for t in keys})  # "1.3B+MoE-128": a model named by its parts
    doc.matches, doc.occurrences = _without_parts_of_options(content, options + keys, doc.matches, doc.occurrences)
    doc.matches, doc.occurrences = _outside_file_names(content, doc.matches, doc.occurrences)
    own = text_definitions.find(content)  # what the text says its terms mean comes before any stock sense
    doc.matches, doc.occurrences = text_definitions.without_renamed(own, doc.matches, doc.occurrences)  # "DCP, a dynamic ..."
    added = models + options + keys
    spans = [(a, a + len(t["found_as"])) for t in added for a in option_terms.mentions(content, t["found_as"])]
    defined = text_definitions.items(content, own, doc.lang, [(m.start, m.end) for m in doc.occurrences] + spans,
                                     {t["found_as"].lower() for t in added})
    added += defined
    covered = [(m.start, m.end) for m in doc.occurrences if m.entry.get("category") not in _ORGANISATIONS] + spans
    headed = named_kinds.find(content, doc.lang, covered, {t["found_as"].lower() for t in added})
    listed = {m.found_as.lower() for m in (*doc.occurrences, *doc.matches)}  # "H100" the glossary lists is no catalog chip again
    glossed = {m.entry["id"] for m in doc.matches}  # "TPU v4" glossed: a later bare "v4" is the same chip, not another item
    kinds = [k for k in named_kinds.catalog_chips(content, doc.lang, covered) if k["found_as"].lower() not in listed and k["id"][5:] not in glossed]
    doc.matches, doc.occurrences = _without_heads_of_names(content, headed + kinds, doc.matches, doc.occurrences)
    # A name glossed by its head noun alone ("W8A8 format: A format: a way of laying out numbers") explains nothing:
    # blind readers called each such item empty (rounds 11-13). The name's head is still not glossed as a bare word.
    described = [item for m in doc.matches if (item := _with_text_sense(
        {**_described(m, doc.lang, doc.definitions), **named.get(m.entry["id"], {})}, own, doc.lang)) is not None]
    other_thing = {m.entry["id"] for m in doc.matches} - {item["id"] for item in described}  # the text spells it as another thing
    doc.occurrences = [o for o in doc.occurrences if o.entry["id"] not in other_thing]  # so no sentence expands it either
    described = [_as_jargon_written(item, doc.occurrences) for item in described]
    described = [{**item, "definition": stated_sizes.without_unstated_sizes(item.get("definition") or "", content)} for item in described]
    compounds = compound_terms.items(content, doc.occurrences, doc.lang, {t["found_as"].lower() for t in added + kinds})
    compounds += compound_terms.qualified(content, doc.occurrences, doc.lang, {t["found_as"].lower() for t in added + kinds + compounds})
    compounds += compound_terms.of_known(content, doc.occurrences, doc.lang, {t["found_as"].lower() for t in added + kinds + compounds})
    compounds = compound_terms.adding_something(compounds, {item["id"] for item in described})
    doc.terms = _by_salience(doc, described + added + kinds + compounds)
    doc.corrections = mistranslations(text, doc.matches, doc.lang)


_NOTATION = pattern_cache.lazy(r"^\|?([A-Za-z][A-Za-z-]{1,7}?)\|?\s*[=:]?\s*\d")


def add_notation_terms(doc) -> None:
    """Abbreviations written into figures ("FSDP8", "TP=8", "|TP|=2", "GBS=1024") are terms too."""
    known = {m.entry["id"] for m in doc.matches}
    added = []
    for fig in doc.figures:
        match = _NOTATION.match(fig.quote)
        if not match or doc.text[fig.end:fig.end + 1].isalpha():
            continue  # "DP4A" is an instruction's name, not DP of degree 4
        entry = glossary.load().lookup(match.group(1))
        if entry is None or entry["id"] in known or entry.get("clutter"):
            continue
        start = fig.start + match.start(1)
        if any(o.start <= start < o.end for o in doc.occurrences):
            continue  # "ZeRO-3" is found whole: its "ZeRO-" is no degree notation of the family's name
        known.add(entry["id"])
        added.append(glossary.Match(entry, match.group(1), start, start + len(match.group(1))))
    if added:
        doc.matches = sorted(doc.matches + added, key=lambda m: m.start)
        options = [t for t in doc.terms if t.get("category") == "option"]
        doc.terms = _by_salience(doc, [_described(m, doc.lang, doc.definitions) for m in doc.matches] + options)
    doc.terms = [degree_terms.as_multiplier(doc, degree_terms.with_degree(doc, item)) for item in doc.terms]


# A line of code, a config or a log ("--pipeline-model-parallel-size 4", "mbs=1, PP=2", "tps: 100  mfu: 26.52%"):
# two such fields make the line machine output, whose terms matter less than the author's prose.
_MACHINE_FIELD = pattern_cache.lazy(r"--[A-Za-z][\w-]*|\b\w+=\S|\b[\w/]+:\s*[\d.]+")
_LEAD_END = pattern_cache.lazy(r"[.!?؟](?:\s|$)|\n")


def _by_salience(doc, items: list[dict]) -> list[dict]:
    """The terms, the passage's central ones first: named in the author's prose most often (up to three times, a
    mention in the first sentence, a title or the opening claim, counting once more), then in order of first mention. A term named
    only in a pasted command or log line comes after the prose's terms; a flag or config key the prose names counts as prose."""
    text = doc.text
    lead = _LEAD_END.search(text.lstrip())
    lead_end = (len(text) - len(text.lstrip())) + (lead.end() if lead else len(text))
    prose: dict[str, int] = {}
    in_lead: set[str] = set()
    spans = [(m.entry["id"], m.start, m.end) for m in doc.occurrences or doc.matches]
    spans += [(t["id"], start, start + len(t["found_as"])) for t in items if _counted_by_mentions(t)
              for start in option_terms.mentions(text, t["found_as"])]
    for item_id, start, end in spans:
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        line = text[line_start:line_end if line_end >= 0 else len(text)]
        if len(_MACHINE_FIELD.findall(line)) < 2 or item_id.startswith(("option:", "model:", "named:", "text:", "label:", "chip:")):
            prose[item_id] = prose.get(item_id, 0) + 1
        if start < lead_end:
            in_lead.add(item_id)
    order = {item["id"]: n for n, item in enumerate(items)}
    return sorted(items, key=lambda t: (-(min(prose.get(t["id"], 0), 3) + (t["id"] in in_lead)),
                                        -(t["id"] in prose), order[t["id"]]))


_ORGANISATIONS = frozenset({"organisation", "organization", "company"})  # "NVIDIA" in "NVIDIA Foo card" names the maker only


def _with_axis_degrees(text: str, every: list, first: dict) -> tuple[list, dict]:
    """Mesh axes written with their degree ("How does model=8 compare to fsdp=8?") as occurrences of the parallelism
    each carries, shown as written; an axis the glossary already found there is left as found."""
    by_id = glossary.load().by_id
    taken = {(m.start, m.end) for m in every}
    added = []
    for term_id, start, end in key_terms.axis_degrees(text):
        entry = by_id.get(term_id)
        if entry is None or any(a <= start < b for a, b in taken):
            continue
        match = glossary.Match(entry, text[start:end], start, end, 0, True)
        added.append(match)
        if term_id not in first or first[term_id].start > start:
            first[term_id] = match
    if not added:
        return every, first
    return sorted(every + added, key=lambda m: (m.start, -m.end)), dict(sorted(first.items(), key=lambda kv: kv[1].start))


def _without_heads_of_names(text: str, kinds: list[dict], matches: list, occurrences: list) -> tuple[list, list]:
    """The glossary's matches less a head noun that ends a name glossed by its head ("kernel" in "Linux kernel" is no
    GPU kernel): the name's gloss says what it is; the word elsewhere in the text keeps its entry."""
    ends = {(a + len(t["found_as"])) for t in kinds for a in option_terms.mentions(text, t["found_as"])}
    starts = {a for t in kinds for a in option_terms.mentions(text, t["found_as"])}
    if not ends:
        return matches, occurrences
    head = lambda m: m.end in ends and m.start not in starts  # noqa: E731
    kept = [o for o in occurrences if not head(o)]
    present = {o.entry["id"]: o for o in reversed(kept)}
    out = []
    for match in matches:
        if not head(match):
            out.append(match)
        elif match.entry["id"] in present:
            out.append(present[match.entry["id"]])
    return out, kept


def _as_jargon_written(item: dict, occurrences: list) -> dict:
    """An everyday entry the text also writes as jargon ("intra-node" after "an A100 node") is named in that form:
    the compound is what the reader needs spelled out (salience lists it as the passage's own)."""
    if item["id"] not in generic_term_ids() or salience.written_as_jargon(item["found_as"], item["term"]):
        return item
    jargon = next((o.found_as for o in occurrences if o.entry["id"] == item["id"]
                   and salience.written_as_jargon(o.found_as, item["term"])), None)
    return {**item, "found_as": jargon} if jargon else item


def _with_text_sense(item: dict, own: list, lang: str) -> dict | None:
    """A glossary term the text defines in words its entry's name does not say carries the text's sense first; None
    where the text spells the abbreviation out as another thing ("the attention group (AG)" is no all-gather)."""
    spelled = next((said for written in ("en", "ar") if (said := text_definitions.said_by_text(
        own, item["found_as"], item.get("expansion_en") or item["term"], written)) and text_definitions.spells(said, item["found_as"])), None)
    entry_words = " ".join(str(item.get(k) or "") for k in ("term", "expansion_en", "definition")).lower()
    words = re.findall(r"[a-z]{4,}", (spelled or "").lower())
    if spelled and 2 * sum(w in entry_words for w in words) < len(words):
        return None  # "Data Parallelism Attention (DPA)" shares only "attention" with Transformer Engine's DotProductAttention
    if not item.get("defined_in_text"):
        said = text_definitions.said_by_text(own, item["found_as"], item.get("expansion_en") or item["term"], lang)
        if said and lang == "en" and text_definitions.spells(said, item["found_as"]):
            item["expansion"] = said  # "ECN (explicit congestion notification)" under "congestion control": its own name
        elif said and not said.startswith("one that "):  # "H200, which narrows the gap ...": what it does here, no definition
            item["defined_in_text"] = said
    return item


def _without_parts_of_options(text: str, items: list[dict], matches: list, occurrences: list) -> tuple[list, list]:
    """The glossary's matches less a field name found after the dot of a dotted key the terms gloss as a whole
    ("stage" in zero_optimization.stage is ZeRO's stage, not a pipeline stage): a field's sense is its section's.
    The words of a snake_case key ("pipeline_parallelism") keep their own sense and stay."""
    spans = [(a, a + len(t["found_as"])) for t in items if "." in t["found_as"]
             for a in option_terms.mentions(text, t["found_as"])]
    # "gpu-memory-utilization": a hyphenated option's words are not glossed apart ("utilization" as a chip's compute
    # share, a round-27 reader), except the feature a switch turns on ("enable-chunked-prefill": chunked prefill)
    hyphened = [(a, a + len(t["found_as"])) for t in items if "-" in t["found_as"].strip("-") and "." not in t["found_as"]
                for a in option_terms.mentions(text, t["found_as"])]
    if not spans and not hyphened:
        return matches, occurrences
    part = lambda m: any(a < m.start and m.end <= b and text[m.start - 1] == "." for a, b in spans) or any(  # noqa: E731
        a <= m.start and m.end <= b and (m.end - m.start) < OPTION_SHARE * len(text[a:b].lstrip("-"))
        and not (m.end == b and _SWITCH.fullmatch(text[a:m.start])) for a, b in hyphened)  # most of the name: its concept
    kept = [o for o in occurrences if not part(o)]
    present = {o.entry["id"] for o in kept}
    out = []
    for match in matches:
        if not part(match):
            out.append(match)
        elif match.entry["id"] in present:  # named elsewhere too: its first mention outside the option
            out.append(next(o for o in kept if o.entry["id"] == match.entry["id"]))
    return out, kept


OPTION_SHARE = 0.6  # "pipeline-model-parallel" is most of --pipeline-model-parallel-size; "utilization" half of its name
_SWITCH = pattern_cache.lazy(r"(?:--)?(?:enable|disable|use|no|with|without)[-_]")
_FILE_NAME = pattern_cache.lazy(r"(?:[\w.-]+/)*[\w.-]+\.(?:py|pyx|cpp|cc|cu|cuh|h|hpp|c|rs|go|java|js|ts|sh|yaml|yml|json|toml|cfg|ini|md|txt|ipynb)\b")


# a link ("https://github.com/kvcache-ai/..."), an issue's reference ("allenai/OLMo-core#829") and a constant's name
# (-DGGML_CUDA_MIN_BATCH_OFFLOAD, NCCL_CROSS_NIC): the words inside them are parts of a name, not terms
_CODE_NAME = pattern_cache.lazy(r"https?://[^\s)>\]]+|(?<![\w/])[\w.-]+/[\w.-]+#\d+|(?<![\w-])(?:-D)?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w-])")


def _outside_file_names(text: str, matches: list, occurrences: list) -> tuple[list, list]:
    """The glossary's matches less those inside a file's name or path ("warp" in vllm_worker_warp.py is no GPU warp), a
    link, an issue's reference or a constant's name."""
    spans = [(m.start(), m.end()) for m in _FILE_NAME.finditer(text)] + [(m.start(), m.end()) for m in _CODE_NAME.finditer(text)]
    if not spans:
        return matches, occurrences
    # a match that is the whole name ("llama.cpp", "bitnet.cpp": a project named like a file) is the term itself
    inside = lambda m: any(a <= m.start and m.end <= b and (m.start, m.end) != (a, b) for a, b in spans)  # noqa: E731
    kept = [o for o in occurrences if not inside(o)]
    present = {o.entry["id"]: o for o in kept}
    return [m if not inside(m) else present[m.entry["id"]] for m in matches if not inside(m) or m.entry["id"] in present], kept


def _counted_by_mentions(item: dict) -> bool:
    """A flag, a config key or a name no glossary entry holds: counted where its name is written."""
    return item.get("category") == "option" or item["id"].startswith(("model:", "named:", "text:", "label:", "chip:"))


def _with_definitions(matches: list[glossary.Match], defined: dict[str, str]) -> list[glossary.Match]:
    """A term the text defines takes the glossary entry of the meaning it gives ("here DP means FSDP")."""
    if not defined:
        return matches
    out = []
    for match in matches:
        meaning = defined.get(match.found_as)
        entry = glossary.load().lookup(meaning) if meaning else None
        if entry is not None and entry["id"] != match.entry["id"]:
            match = glossary.Match(entry, match.found_as, match.start, match.end)
        out.append(match)
    return out


def _described(match: glossary.Match, lang: str, defined: dict[str, str]) -> dict:
    item = glossary.describe(match, lang)
    if match.reading:  # not the entry's first sense ("parameters" as settings): an everyday word used in a special sense
        item["sense"] = match.reading
    if match.found_as in defined:
        item["defined_in_text"] = defined[match.found_as]
        item.pop("ambiguous", None)  # the text settled it
        item.pop("readings", None)
    return item


@lru_cache(maxsize=1024)
def _normalise(text: str) -> str:
    words = []
    for word in text.lower().split():
        word = word.strip(".,;:()\"'«»“”،؛؟")
        words.append(arabic.normalise_token(word) if arabic.ARABIC_LETTER.search(word) else word)
    return " ".join(words)


def _fragments_present(phrase: str, normalised_text: str) -> bool:
    """All parts of `phrase` (split at '...') occur in the text, compared in normalised form."""
    parts = [p.strip() for p in phrase.replace("…", "...").split("...") if p.strip()]
    return bool(parts) and all(_normalise(p) in normalised_text for p in parts)


@cache
def mistranslation_table() -> list[dict]:
    """data/mistranslations_ar.json: machine translations of terms into Arabic, each mapped to its glossary entry."""
    try:
        return json.loads((data_dir() / "mistranslations_ar.json").read_text(encoding="utf-8"))["entries"]
    except (OSError, ValueError, KeyError):
        return []


_WORD = pattern_cache.lazy(r"[^\s.,;:()\"'«»“”،؛؟]+")


def _spans(phrase: str, text: str) -> list[tuple[int, int]]:
    """Where `phrase` stands in `text`, word for word in normalised form (the article and spelling aside)."""
    want = _normalise(phrase).split()
    words = [(m.start(), m.end(), _normalise(m.group())) for m in _WORD.finditer(text)]
    spans = []
    for i in range(len(words) - len(want) + 1 if want else 0):
        if [w for _, _, w in words[i + 1:i + len(want)]] != want[1:]:
            continue
        first = text[words[i][0]:words[i][1]]
        free = arabic.without_particle(first)  # "وتراكم": the conjunction is not part of the phrase
        if words[i][2] == want[0]:
            spans.append((words[i][0], words[i + len(want) - 1][1]))
        elif free and _normalise(free) == want[0]:
            spans.append((words[i][0] + 1, words[i + len(want) - 1][1]))
    return spans


def _as_written(phrase: str, text: str, entry: dict, wrong: set[str]) -> str | None:
    """The source's own words for `phrase`, or None where every occurrence is part of an accepted rendering of the
    term ("عرض نطاق ترددي" holds "نطاق ترددي" but is the standard Arabic for bandwidth)."""
    if "..." in phrase or "…" in phrase:
        return phrase
    spans = _spans(phrase, text)
    wrongly = _uncovered(phrase, text, entry, wrong)
    return text[slice(*wrongly[0])] if wrongly else None if spans else phrase  # only inside a longer word: as the table has it


def _uncovered(phrase: str, text: str, entry: dict, wrong: set[str]) -> list[tuple[int, int]]:
    """Where `phrase` stands in `text` outside the term's accepted renderings."""
    accepted = [a for a in [*(entry.get("ar_aliases") or []), _own_name(entry, "ar")]
                if a and _normalise(a) not in wrong and len(_normalise(a).split()) > len(_normalise(phrase).split())]
    covers = [span for a in accepted for span in _spans(a, text)]
    return [(start, end) for start, end in _spans(phrase, text) if not any(a <= start and end <= b for a, b in covers)]


def _own_name(entry: dict, lang: str) -> str:
    """The entry's own name in `lang` without its parenthesis: what the answer itself calls the term."""
    return re.sub(r"\([^)]*\)", " ", (entry.get(lang) or {}).get("term") or "").strip()


def _warning(entry: dict, phrase: str, en: str, correction: str, lang: str) -> str:
    """The correction as a warning line, in the answer's language (acronyms and names stay as written)."""
    # The text's wording is said not to fit the sense meant here, nothing more: who or what produced it is not known.
    if lang == "ar":
        return f"«{phrase}» في النص لا تناسب معنى المصطلح {entry['term']} ({_own_name(entry, 'ar') or en}) هنا؛ {correction}"
    correction = correction[:1].lower() + correction[1:] if correction[1:2].islower() else correction  # after ';'
    return f"'{entry['term']}': the source's wording “{phrase}” does not fit the sense meant here (“{en}”); {correction}"


def mistranslations(text: str, matches: list[glossary.Match], lang: str) -> list[dict]:
    """Known mistranslations the text contains: the matched terms' own `mistranslations`, any entry's, then the
    table of data/mistranslations_ar.json."""
    normalised = _normalise(text)
    found = []
    seen_ids = {m.entry["id"] for m in matches}
    candidates = [m.entry for m in matches] + [e for e in glossary.load().entries if e.get("mistranslations") and e["id"] not in seen_ids]
    seen_phrases: set[str] = set()
    for entry in candidates:
        for item in entry.get("mistranslations") or []:
            phrase = item.get("as") or item.get("en")
            if _normalise(phrase) in seen_phrases:
                continue  # one phrase garbling two terms (K2 and DSV3) is corrected once
            if not any(_fragments_present(p, normalised) for p in (item.get("as"), item.get("en")) if p):
                continue
            written = _as_written(phrase, text, entry, _wrong_renderings(entry))
            if written is None:
                continue  # only inside the standard rendering: no mistranslation to correct
            seen_phrases.add(_normalise(phrase))
            seen_phrases.update(_normalise(part.strip()) for part in phrase.replace("…", "...").split("...") if part.strip())
            correction = item.get("ar_correction") if lang == "ar" and item.get("ar_correction") else item.get("correction", "")
            found.append({
                "entry": entry, "as": written, "en": item.get("en") or phrase, "correction": correction,
                "warning": _warning(entry, written, item.get("en", ""), correction, lang),
                "spans": _uncovered(phrase, text, entry, _wrong_renderings(entry)),
            })
    by_id = glossary.load().by_id
    for item in mistranslation_table():
        phrase, entry = item.get("mistranslation") or "", by_id.get(item.get("term_id"))
        key = _normalise(phrase)
        if entry is None or not key or any(key in seen for seen in seen_phrases) or not _fragments_present(phrase, normalised) \
                or item.get("requires") and not re.search(item["requires"], text):
            continue  # "requires": the sense the rendering misses must be the text's ("router" is MoE's only beside experts)
        own = set(_normalise(_own_name(entry, "ar")).split())
        if own and own <= set(key.split()):
            continue  # the answer names the term so itself: calling that a mistranslation would contradict the answer
        written = _as_written(phrase, text, entry, _wrong_renderings(entry))
        if written is None:
            continue
        seen_phrases.add(key)
        # a term of several senses is named by itself: one sense's name ("model checkpoint") can be the wrong one here
        en = entry["term"] if len(entry.get("readings") or []) > 1 else entry.get("expansion") or entry["term"]
        en = re.sub(r"\s*\([^)]*\)", "", en).strip() or entry["term"]
        correction = item.get("why_ar") if lang == "ar" and item.get("why_ar") else _as_sentence(item.get("why", ""))
        found.append({"entry": entry, "as": written, "en": en, "correction": correction,
                      "warning": _warning(entry, written, en, correction, lang), "said_as": item.get("said_as"),
                      "spans": _uncovered(phrase, text, entry, _wrong_renderings(entry))})
    return found


def _wrong_renderings(entry: dict) -> set[str]:
    """Every rendering of `entry` known to be a mistranslation (its own field and the table), normalised."""
    own = {_normalise(item.get("as") or item.get("en") or "") for item in entry.get("mistranslations") or []}
    return own | {_normalise(item.get("mistranslation") or "") for item in mistranslation_table()
                  if item.get("term_id") == entry.get("id")}


# The table's notes open with a label ("'Router' as a network router device; ..."): said as a sentence in an answer.
_LABEL_NOTE = pattern_cache.lazy(r"^('[^']+') (?:(?:rendered|read|taken|translated) )?(?=(?:in|as|with) )")


def _as_sentence(why: str) -> str:
    """A table note as a sentence: "The rendering reads 'Router' as a network router device; in MoE ..."."""
    return _LABEL_NOTE.sub(r"The rendering reads \1 ", why, count=1)
