"""Senses shown only where they fit: a negated or variant form never gets its base term's gloss ("dropless MoE" is not
token dropping), and an entry guarded in data/sense_guards.json is shown only where its context holds ("خبراء الذكاء
الاصطناعي" are people, not mixture-of-experts sub-networks). Saying less is right when the sense is unsure."""

import json
from functools import cache

from calculators.resources import data_dir
from service.explain import pattern_cache
from service.i18n import arabic


@cache
def table() -> dict:
    """data/sense_guards.json, loaded once."""
    return json.loads((data_dir() / "sense_guards.json").read_text(encoding="utf-8"))


def _negated(found_as: str, entry: dict) -> bool:
    """Whether the occurrence carries a negation its entry's own names lack ("dropless MoE" for token dropping)."""
    rules = table()["negation"]
    # an entry whose own aliases carry the negation ("تحيز خال من ..." for auxiliary-loss-free balancing) names it itself
    own = " ".join(str(entry.get(k) or "") for k in ("term", "expansion")) + " " + str((entry.get("ar") or {}).get("term") or "") \
        + " " + " ".join(a for a in (*(entry.get("aliases") or ()), *(entry.get("ar_aliases") or ())) if a.lower() in found_as.lower())
    for key in ("latin", "arabic"):
        pattern = pattern_cache.lazy(rules[key])
        if pattern.search(found_as) and not pattern.search(own):
            return True
    return False


@cache
def _guards() -> dict[str, list[dict]]:
    by_entry: dict[str, list[dict]] = {}
    for guard in table()["guards"]:
        by_entry.setdefault(guard["entry"], []).append(guard)
    return by_entry


def _written_as(written: str, found_as: str) -> bool:
    """Whether `found_as` is the guard's written form, also after an attached particle («والتوسع المرن»)."""
    pattern = pattern_cache.lazy(written)
    bare = arabic.without_particle(found_as) if arabic.ARABIC_LETTER.match(found_as) else None
    return bool(pattern.fullmatch(found_as) or (bare and pattern.fullmatch(bare)))


def _held(guard: dict, text: str, spans: list[tuple[int, int, str]]) -> bool:
    """Whether the guard lets the entry be shown for the occurrences `spans` (start, end, as written) in `text`."""
    written = guard.get("written")
    concerned = [s for s in spans if not written or _written_as(written, s[2].strip())]
    if not concerned:
        return True
    requires = guard.get("requires")
    if requires and not pattern_cache.lazy(requires).search(text):
        return False
    close = guard.get("requires_near")  # "أعطال" two paragraphs on does not make this sentence's «التوسع المرن» elastic training
    reach = guard.get("near_window", 200)
    if close and not any(pattern_cache.lazy(close).search(text[max(0, a - reach):b + reach]) for a, b, _ in concerned):
        return False
    before = guard.get("excludes_before")  # "can host 18 GB": a verb after a modal, not the noun the entry defines
    reach = guard.get("before_window", 30)  # "stream the weights ... out of memory": the verb may stand a clause away
    if before and all(pattern_cache.lazy(before).search(text[max(0, a - reach):a]) for a, b, _ in concerned):
        return False
    after = guard.get("excludes_after")  # "peak memory bandwidth": the words go on into another thing
    if after and all(pattern_cache.lazy(after).match(text, b) for a, b, _ in concerned):
        return False
    near = guard.get("excludes_near")
    if near:
        width = guard.get("window", table().get("window", 60))  # a guard may look further: a title names what a table's cells fuse
        pattern = pattern_cache.lazy(near)
        if all(pattern.search(text[max(0, a - width):b + width]) for a, b, _ in concerned):
            return False
    return True


def unfit(matches: list, occurrences: list, text: str) -> set[str]:
    """Ids of the entries whose sense does not fit this text: every occurrence negated, or a guard not held."""
    guards = _guards()
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for o in occurrences or matches:
        spans.setdefault(o.entry["id"], []).append((o.start, o.end, o.found_as))
    out = set()
    for m in matches:
        own = spans.get(m.entry["id"]) or [(m.start, m.end, m.found_as)]
        if all(_negated(w, m.entry) for _, _, w in own):
            out.add(m.entry["id"])
        elif any(not _held(g, text, own) for g in guards.get(m.entry["id"], ())):
            out.add(m.entry["id"])
    return out


def fits_here(entry: dict, text: str, start: int, end: int, found_as: str) -> bool:
    """Whether one occurrence may carry its entry's sense where it stands: an entry shown for its other occurrences is
    still not expanded inside a sentence whose own words exclude it ("512x more matmul FLOPS than exponential": a count)."""
    return all(_held(g, text, [(start, end, found_as)]) for g in _guards().get(entry["id"], ()))


def without_unfit(matches: list, occurrences: list, text: str) -> tuple[list, list]:
    """The matches and occurrences less the entries whose sense does not fit the text (see `unfit`)."""
    dropped = unfit(matches, occurrences, text)
    if not dropped:
        return matches, occurrences
    return [m for m in matches if m.entry["id"] not in dropped], [o for o in occurrences if o.entry["id"] not in dropped]
