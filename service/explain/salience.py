"""Which of a passage's terms its answer lists, and in what order: the terms central to this passage first (named in
the gist's and reasons' sentences, repeated), everyday words of the field only where the passage has few terms of its
own or means the word in a special sense, and a list as long as the passage warrants."""

from service.explain import option_terms
from service.explain.definitions import generic_term_ids, named_products


def salient_terms(doc, central: set[int] | None = None) -> list[dict]:
    """The text's terms, central ones first: those the gist's and the reasons' sentences name, then the most
    repeated, then in order of first mention. A flag or config key the prose names counts by its own mentions."""
    central = central or set()
    spans = [doc.sentences[i] for i in central if i < len(doc.sentences)]
    counts: dict[str, int] = {}
    in_point: set[str] = set()
    starts = [(m.entry["id"], m.start) for m in doc.occurrences]
    starts += [(t["id"], at) for t in doc.terms if t.get("category") == "option"
               for at in option_terms.mentions(doc.text, t["found_as"])]
    for term_id, start in starts:
        counts[term_id] = counts.get(term_id, 0) + 1
        if any(a <= start < b for a, b in spans):
            in_point.add(term_id)
    order = {t["id"]: n for n, t in enumerate(doc.terms)}
    return sorted(doc.terms, key=lambda t: (t["id"] not in in_point, -min(counts.get(t["id"], 0), 3), order[t["id"]]))


# How many terms the section lists: a few plus one per this many words of the passage, within these bounds (a
# three-line post needs its four or five key terms, not twelve; blind readers, issue 18).
TERMS_MIN, TERMS_MAX, WORDS_PER_TERM = 6, 16, 8
# Everyday words of the field (data/generic_terms.json) are listed only when the passage has fewer terms of its own
# than this, or when the text uses the word in another sense than its everyday one (parameters = settings).
FEW_TERMS = 3


def terms_cap(text: str) -> int:
    """The most terms a passage of this length gets in its terms section."""
    return max(TERMS_MIN, min(TERMS_MAX, TERMS_MIN - 1 + len(text.split()) // WORDS_PER_TERM))


def is_everyday(term: dict) -> bool:
    """An everyday word of the field in its everyday sense: not found as a named product ("El Capitan"), not read in
    another sense ("parameters" as settings)."""
    return term["id"] in generic_term_ids() and not term.get("sense") and term.get("found_as") not in named_products()


def listed_terms(doc, central: set[int] | None = None) -> list[dict]:
    """The terms the section lists, in order: the passage's own terms by salience, then everyday words only where the
    passage has few terms of its own or means the word in a special sense; a glossary term found as a flag the list
    already glosses as an option goes; every one has a definition; at most terms_cap(text)."""
    ordered = [t for t in salient_terms(doc, central) if (t.get("definition") or "").strip()]
    flags = {t["found_as"].lstrip("-") for t in ordered if t.get("category") == "option"}
    ordered = [t for t in ordered if t.get("category") == "option" or (t.get("found_as") or "").lstrip("-") not in flags]
    everyday = [t for t in ordered if is_everyday(t)]
    own = [t for t in ordered if t not in everyday]
    return (own + (everyday if len(own) < FEW_TERMS else []))[:terms_cap(doc.text)]
