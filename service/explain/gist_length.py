"""A gist's length: its sentences fitted to a word budget, cut after a clause and never inside one."""

import re

from service.explain import pattern_cache


def fit(texts: list[str], limit: int) -> list[str]:
    """At most `limit` words: the first text whole; a later one whole if it fits, else cut after a clause (not before "but",
    "if"); one that cannot be cut is kept whole when the text before it ends on an elaboration to leave out (", meaning ...")."""
    out, used = [], 0
    for text in texts:
        words = text.split()
        if out and used + len(words) > limit:
            room = limit - used
            cuts = [i for i, w in enumerate(words[:room]) if w.endswith((",", "،")) and i >= 11 and i + 1 < len(words)
                    and not _KEEPS_GOING.match(words[i + 1])]
            elaboration = _ELABORATION.search(out[-1])
            if cuts:
                out.append(" ".join(words[:cuts[-1] + 1]).rstrip(",،") + " …")
            elif elaboration and len(out[-1][:elaboration.start()].split()) >= 8 and used - len(out[-1][elaboration.start():].split()) + len(words) <= limit:
                out[-1] = out[-1][:elaboration.start()]  # "..., meaning any GPU can ..." gives way to the sentence after it
                out.append(text)
            break
        out.append(text)
        used += len(words)
    return out


_ELABORATION = pattern_cache.lazy(r",\s+(?:meaning|i\.e\.|that is(?!\s*:)|which means|in other words)\b.*$|\s+[—–]\s+.*$")  # ", that is: X" gives X
_KEEPS_GOING = pattern_cache.lazy(r"(?:but|unless|except|although|though|yet|not|never|no|only|if|when|without|while|"
                                  r"لكن|ولكن|إلا|إلا|دون|بدون|لا|لم|لن|إذا|إن|عندما|فقط)\b", re.I)
