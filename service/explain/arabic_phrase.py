"""Where a Latin-script acronym stands inside an Arabic noun phrase («على نسيج RDMA واحد»): no expansion goes there."""

import re

from service.explain import pattern_cache

_NOUN_BEFORE = pattern_cache.lazy(r"(?<![\u0621-\u064A])(?!(?:في|على|من|إلى|عبر|مع|بين|عن|أو|و|ثم|أن|إن|لأن|مثل|هو|هي|كل|أي)\s)[\u0621-\u064A]{2,}\s+$")


def inside_noun_phrase(text: str, start: int, end: int) -> bool:
    """Whether an acronym in Arabic stands inside a noun phrase («على نسيج RDMA واحد»): an expansion there breaks it."""
    after = re.match(r"\s+([\u0621-\u064A]+)", text[end:end + 30])
    return bool(_NOUN_BEFORE.search(text[max(0, start - 30):start]) and after and not _PARTICLE_AFTER.match(after.group(1)))


# what opens a new phrase after the acronym ("TPU للتدريب", "PP بين العقد"): the acronym ends its own phrase there
_PARTICLE_AFTER = pattern_cache.lazy(r"(?:في|على|من|إلى|عبر|مع|بين|عن|أو|ثم|داخل|خارج|حيث|لأن|التي|الذي|وهو|وهي)$|[لبك]|و(?!احد)|ف(?!ائق)")
