"""Which of a passage's terms its answer lists, and in what order: the terms central to this passage first (named in
the gist's and reasons' sentences, repeated), everyday words of the field only where the passage has few terms of its
own or means the word in a special sense, and a list as long as the passage warrants."""

import bisect

from service.explain import option_terms
from service.explain.definitions import generic_term_ids, named_products, unlisted_beside_own


def salient_terms(doc, central: set[int] | None = None) -> list[dict]:
    """The text's terms, central ones first: those the gist's and the reasons' sentences name, then those its claims
    or the labels of its result rows name ("1F1B": memory ...), then the most repeated, then in order of first
    mention. A flag or config key the prose names counts by its own mentions."""
    return sorted(doc.terms, key=_rank_key(doc, central))


def central_count(doc, central: set[int] | None = None) -> int:
    """How many of the listed terms the gist's or reasons' sentences, the claims or a row's label name."""
    rank = _rank_key(doc, central)
    return sum(1 for t in listed_terms(doc, central) if rank(t)[0] < 1.5)


def _rank_key(doc, central: set[int] | None):
    central = central or set()
    spans = [doc.sentences[i] for i in central if i < len(doc.sentences)]
    claimed = [(c.start, c.end) for c in getattr(doc, "claims", None) or []]
    counts: dict[str, int] = {}
    tier: dict[str, int] = {}
    labels: set[str] = set()
    starts = [(m.entry["id"], m.start) for m in doc.occurrences]
    starts += [(t["id"], at) for t in doc.terms if t.get("category") == "option" or t["id"].startswith(("model:", "named:", "text:", "label:", "chip:"))
               for at in option_terms.mentions(doc.text, t["found_as"])]
    openings = [a for a, _ in doc.sentences]
    for term_id, start in starts:
        counts[term_id] = counts.get(term_id, 0) + 1 + _is_subject(doc.text, openings, start)
        if any(a <= start < b for a, b in spans):
            tier[term_id] = 0
        elif any(a <= start < b for a, b in claimed) or _is_row_label(doc.text, start):
            tier[term_id] = min(tier.get(term_id, 1), 1)
        if _is_row_label(doc.text, start):  # what a row reports is about its label, not its units
            labels.add(term_id)
    order = {t["id"]: n for n, t in enumerate(doc.terms)}
    # A model's or a company's name comes after the central ideas: the restatement already names it as written, while
    # "MFU" or "all-forward-all-backward" is what the reader cannot look up in the sentence itself.
    return lambda t: (_tier(tier.get(t["id"], 2), t.get("category") in NAME_CATEGORIES), t["id"] not in labels,
                      -min(counts.get(t["id"], 0), 3), order[t["id"]])


def _only_in_config_rows(text: str, name: str) -> bool:
    """Whether every mention of an option opens a row of a pasted config ("ici_fsdp_parallelism: -1", "mbs=2"),
    none a sentence of the author's."""
    starts = option_terms.mentions(text, name)
    return bool(starts) and all(not text[text.rfind("\n", 0, at) + 1:at].strip(" \t-*•`\"'")
                                and text[at + len(name):at + len(name) + 3].lstrip(" \"'`")[:1] in (":", "=") for at in starts)


SUBJECT_WORDS = 3  # a term this near a sentence's opening is what the sentence is about ("TE FP8 is slower than ...")
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "our", "their", "its", "my", "each"})


def _is_subject(text: str, openings: list[int], start: int) -> bool:
    """Whether the occurrence at `start` opens its sentence, a determiner or two before it at most: its subject."""
    at = bisect.bisect_right(openings, start) - 1
    if at < 0:
        return False
    before = [w for w in text[openings[at]:start].split() if w.lower() not in _DETERMINERS]
    return len(before) < SUBJECT_WORDS - 1


def _tier(tier: int, is_name: bool) -> float:
    """A central name ranks after the central ideas, before the terms that are not central."""
    return max(tier, 1) + 0.5 if is_name and tier < 2 else tier


NAME_CATEGORIES = frozenset({"model", "organisation", "organization", "named"})


def _is_row_label(text: str, start: int) -> bool:
    """Whether the term at `start` opens its line as the label of a row of results ("1F1B": memory: 82 GiB, "- ZB-H1:
    12.3 s"): what the row reports is about it, although the line reads as machine output."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[start:line_end if line_end >= 0 else len(text)]
    label, colon, rest = line.partition(":")
    return bool(colon) and not text[line_start:start].strip(" \t-*•|\"'`") and len(label.split()) <= 4 \
        and any(c.isdigit() for c in rest)


# How many terms the section lists: a few plus one per this many words of the passage, within these bounds (a
# three-line post needs its four or five key terms, not twelve; blind readers, issue 18).
TERMS_MIN, TERMS_MAX, WORDS_PER_TERM = 6, 16, 8
# Everyday words of the field (data/generic_terms.json) are listed only when the passage has fewer terms of its own
# than this, or when the text uses the word in another sense than its everyday one (parameters = settings).
FEW_TERMS = 3
MOST_OPTIONS = 4  # flags and keys listed at most: more is a pasted config, which the config reader explains row by row


def terms_cap(text: str) -> int:
    """The most terms a passage of this length gets in its terms section."""
    return max(TERMS_MIN, min(TERMS_MAX, TERMS_MIN - 1 + len(text.split()) // WORDS_PER_TERM))


def is_everyday(term: dict) -> bool:
    """An everyday word of the field in its everyday sense: not found as a named product ("El Capitan"), not read in
    another sense ("parameters" as settings), not written as an abbreviation or a compound the reader cannot undo
    ("MHA" for multi-head attention, "intra-node")."""
    return term["id"] in generic_term_ids() and not term.get("sense") and term.get("found_as") not in named_products() \
        and not written_as_jargon(term.get("found_as") or "", term.get("term") or "")


def written_as_jargon(found: str, name: str) -> bool:
    """Whether the text wrote an everyday entry as an abbreviation other than its name ("MHA" under attention) or as
    a hyphenated compound ("intra-node" under node): the passage's own usage, which the reader needs spelled out."""
    if not found or not found.isascii():
        return False  # an Arabic passage's word for it: compared in its own language elsewhere
    written, named = found.lower().rstrip("s"), name.lower().rstrip("s")
    if written == named:
        return False
    capitals = sum(c.isupper() for c in found)
    return (capitals >= 2 and found.replace("-", "").isalnum() and " " not in found) or ("-" in found and named in written)


def listed_terms(doc, central: set[int] | None = None) -> list[dict]:
    """The terms the section lists, in order: the passage's own terms by salience, then everyday words only where the
    passage has few terms of its own or means the word in a special sense; a glossary term found as a flag the list
    already glosses as an option goes; every one has a definition; at most terms_cap(text)."""
    ordered = [t for t in salient_terms(doc, central) if (t.get("definition") or "").strip()]
    flags = {t["found_as"].lstrip("-") for t in ordered if t.get("category") == "option"}
    ordered = [t for t in ordered if t.get("category") == "option" or (t.get("found_as") or "").lstrip("-") not in flags]
    pasted = [t for t in ordered if t.get("category") == "option" and _only_in_config_rows(doc.text, t["found_as"])]
    ordered = [t for t in ordered if t not in pasted[MOST_OPTIONS:]]  # a pasted config's keys are the config reader's
    everyday = [t for t in ordered if is_everyday(t)]
    minor = [t for t in ordered if t.get("minor") and t not in everyday]  # a notation's reading ("7B"): last
    own = [t for t in ordered if t not in everyday and t not in minor]
    if len(own) >= FEW_TERMS:  # after the passage's own terms, only the everyday words it leans on, in a list with room
        rank = _rank_key(doc, central)
        room = min(EVERYDAY_MOST, max(0, terms_cap(doc.text) - EVERYDAY_MOST - len(own)))  # a full list stays the passage's
        everyday = [t for t in everyday if leaned_on(t, rank(t))][:room]
    return (own + everyday + minor)[:terms_cap(doc.text)]


LEANED_ON = 2  # mentions in the prose (a sentence's subject counting twice) that make an everyday word the passage's
EVERYDAY_MOST = 2  # everyday words listed at most beside the passage's own terms


def leaned_on(term: dict, rank: tuple) -> bool:
    """Whether the passage leans on an everyday word: repeated in its prose, or the subject of one of its sentences;
    a stock word or a company's name (data/generic_terms.json `unlisted_beside_own`) never is."""
    return term["id"] not in unlisted_beside_own() and -rank[2] >= LEANED_ON
