"""A gist's length: its sentences fitted to a word budget, each kept whole or left out."""

from service.explain import gist_plain, pattern_cache, reported


SLACK = 15  # words a whole second sentence may run over: better a little long than cut off


def fit(texts: list[str], limit: int) -> list[str]:
    """About `limit` words: the first text whole; a later one whole if it fits, or if it overruns by at most SLACK words
    and is the only one after the first; one that does not fit is left out, never cut with "…" (readers read a reason cut
    off mid-sentence as a garbled copy); one that fits once the text before it drops an elaboration (", meaning ...")
    takes that elaboration's place."""
    out, used = [], 0
    for text in texts:
        words = text.split()
        if out and used + len(words) > limit:
            elaboration = _ELABORATION.search(out[-1])
            if elaboration and len(out[-1][:elaboration.start()].split()) >= 8 and used - len(out[-1][elaboration.start():].split()) + len(words) <= limit:
                out[-1] = out[-1][:elaboration.start()]  # "..., meaning any GPU can ..." gives way to the sentence after it
                out.append(text)
            elif len(out) == 1 and used + len(words) <= limit + SLACK:
                out.append(text)
            break
        out.append(text)
        used += len(words)
    return out


def fitted(texts: list[tuple[list[int], str]], lang: str, who: str, limit: int) -> list[str]:
    """A reported gist's sentences ((sources, text) pairs), each naming its subject, fitted to `limit` words, the terms'
    plain meanings in brackets not counted."""
    return fit(reported.subject_named([t for _, t in texts], lang, who), limit + sum(gloss_words(t) for _, t in texts))


_ELABORATION = pattern_cache.lazy(r",\s+(?:meaning|i\.e\.|that is(?!\s*:)|which means|in other words)\b.*$|\s+[—–]\s+.*$")  # ", that is: X" gives X


MAX_GIST_WORDS = 45


def trimmed(text: str) -> str:
    """A very long sentence cut after the last clause that ends within MAX_GIST_WORDS words (a gist is short)."""
    words = text.split()
    limit = MAX_GIST_WORDS + gloss_words(text)  # a term's plain meaning explains; it is not the claim's length
    if len(words) <= limit:
        return text
    depth = [0]
    for w in words:  # how many brackets are open after each word: a cut inside a bracket leaves it open
        depth.append(max(0, depth[-1] + w.count("(") - w.count(")")))
    ends = [i for i, w in enumerate(words[:limit]) if w.endswith((",", "،", ";", "؛")) and i >= 12 and not depth[i + 1]]
    # before a trailing aside (", where communication is 60% of the time"): what comes before is a whole statement
    asides = [i for i in ends if i + 1 < len(words) and words[i + 1].lower() in _ASIDE_OPENERS]
    if words[0].lower() in _FRONTED_OPENERS:  # "في إعلان كسر ...، والذي ...، كشفت هواوي ...": the fronted phrase has no verb
        asides = asides[1:] if asides and asides[0] == ends[0] else asides
        ends = ends[1:]
    if asides:
        return " ".join(words[:asides[-1] + 1]).rstrip(",،;؛") + "."
    return " ".join(words[:ends[-1] + 1]).rstrip(",،;؛") + " …" if ends else text


_ASIDE_OPENERS = {"where", "which", "حيث", "والتي", "الذي", "والذي", "التي"}
# a sentence opening on a phrase before its clause ("In a move that ..., X did Y"): its first comma closes no statement
_FRONTED_OPENERS = {"in", "on", "at", "with", "during", "after", "before", "amid", "في", "على", "مع", "بعد", "قبل", "خلال", "وسط"}  # "while"/"whereas" carry the contrast: never dropped


def gloss_words(text: str) -> int:
    """How many words of `text` are terms' plain meanings in brackets: they explain, the claim's length is the rest."""
    return sum(len(form.split()) for form in gist_plain.said() if f"({form})" in text)
