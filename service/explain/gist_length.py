"""A gist's length: its sentences fitted to a word budget, each kept whole or left out."""

from service.explain import pattern_cache


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


_ELABORATION = pattern_cache.lazy(r",\s+(?:meaning|i\.e\.|that is(?!\s*:)|which means|in other words)\b.*$|\s+[—–]\s+.*$")  # ", that is: X" gives X
