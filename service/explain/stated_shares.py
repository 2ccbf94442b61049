"""Shares and scale words a sentence states about its own numbers: '148 of the 419 failures (30.1%)', '42.5 exaflops, i.e. a million trillion'."""

import re
from typing import NamedTuple

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
# a percentage in brackets, '(30.1%)' or, as Arabic writes it, '(%30.1)'
# (also "(~11% which adds up to ...)": an approximate share, and words after it inside the bracket)
_PCT = rf"\(\s*(?:~|≈|about\s+|roughly\s+|nearly\s+|نحو\s+)?(?:%\s*(?P<pa>{_NUM})|(?P<pb>{_NUM})\s*%)(?:\s+[^()%\d][^()%]{{0,80}})?\s*\)"
# 'Of the 419 failures, ...', 'Out of 419', 'من بين 419', 'من أصل 419', 'من إجمالي 419': a whole the parts after it share
_WHOLE = re.compile(rf"(?:\b(?:[Oo]ut\s+of|[Oo]f)\s+(?:the|all|these|those)?\s*|من\s+(?:بين|أصل|إجمالي|مجموع)\s+)(?P<total>{_NUM})(?![\d.%])")
# '148 of the 419 failures (30.1%)', '3 out of 8 GPUs (37.5%)', '148 من 419 (30.1%)'
_PART_OF = re.compile(rf"(?<![A-Za-z\d.,])(?P<part>{_NUM})\s+(?:out\s+of|of|من(?:\s+أصل)?)\s+(?:the\s+|all\s+)?(?P<total>{_NUM})(?![\d.%])(?P<words>[^()\d%.;:]{{0,60}}?)\s*{_PCT}")
# a part with its share right after it: '148 (30.1%)'
_PART = re.compile(rf"(?<![A-Za-z\d.,%])(?P<part>{_NUM})\s*{_PCT}")  # not a name's digits: "BF16 (18.1%)" is no count of 16
# a size with its share of a whole in brackets: '97B (8% of 1.2T)', '32B (3% من 1T)' (both written with a scale letter)
_SIZE_SHARE = re.compile(rf"(?<![\d.,%])(?P<part>(?:{_NUM})[KMBT])\s*\(\s*(?:%\s*(?P<pa>{_NUM})|(?P<pb>{_NUM})\s*%)\s*(?:of|من)\s+"
                         rf"(?:the\s+)?(?P<total>(?:{_NUM})[KMBT])\s*\)")
_SCALE_LETTERS = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}


class Share(NamedTuple):
    """A count, the whole it is part of, and the percentage the text gives for it, each as written."""

    part: str
    total: str
    percent: str
    start: int
    end: int
    since: str = ""  # the start of a range the whole is counted over ("between steps 1000 and 80000": 1000)


# '93 times between steps 1000 and 80000, which represents 0.12% of the total iterations': a count over a range of steps
# whose share of that range is stated; the whole is the range's length (80000 - 1000)
_STEP_WORDS = r"(?:steps?|iterations?|iters?|updates?|batches|epochs?|الخطوتين|الخطوة|الخطوات|التكرارين|التكرار|التكرارات)"
_RANGE_SHARE = re.compile(
    rf"(?<![A-Za-z\d.,])(?P<part>{_NUM})\s+(?:times|occurrences|events|spikes|failures|restarts|rollbacks|skips|steps|iterations|مرة|مرات)\b"
    rf"[^.;؛%\d]{{0,30}}?(?:\bbetween|بين)\s+(?:{_STEP_WORDS}\s+)?(?P<a>{_NUM})\s+(?:and|و)\s*(?:{_STEP_WORDS}\s+)?(?P<b>{_NUM})(?![\d.%])"
    rf"[^.;؛%\d]{{0,40}}?(?:%\s*(?P<pa>{_NUM})|(?P<pb>{_NUM})\s*%)\s+(?:of|من)\b", re.I)


def number(written: str) -> float:
    """A written count: "1,024", "97B" (97e9), "1.2T" (1.2e12)."""
    scale = _SCALE_LETTERS.get(written[-1:], 1)
    return float(written.rstrip("KMBT").replace(",", "")) * scale


def shares(sentence: str) -> list[Share]:
    """Every 'part of whole (p%)' the sentence states, and every 'part (p%)' after an 'of the N' whole in it."""
    found: list[Share] = []
    taken: list[tuple[int, int]] = []
    for m in _PART_OF.finditer(sentence):
        found.append(Share(m["part"], m["total"], m["pa"] or m["pb"], m.start(), m.end()))
        taken.append((m.start(), m.end()))
    wholes = list(_WHOLE.finditer(sentence))
    if len({number(w["total"]) for w in wholes}) == 1:  # two wholes in one sentence: which a part shares is uncertain
        whole = wholes[0]
        for m in _PART.finditer(sentence, whole.end()):
            if any(a <= m.start() < b for a, b in taken):
                continue
            found.append(Share(m["part"], whole["total"], m["pa"] or m["pb"], m.start(), m.end()))
    # a count and its whole: both whole numbers, the part smaller, the percentage a share of at most all of it
    counts = [s for s in found if "." not in s.part and "." not in s.total and 0 < number(s.part) < number(s.total)
              and 0 < number(s.percent) <= 100]
    sizes = [Share(m["part"], m["total"], m["pa"] or m["pb"], m.start(), m.end()) for m in _SIZE_SHARE.finditer(sentence)]
    ranges = [Share(m["part"], m["b"], m["pa"] or m["pb"], m.start(), m.end(), m["a"]) for m in _RANGE_SHARE.finditer(sentence)]
    return counts + [s for s in sizes if 0 < number(s.part) < number(s.total) and 0 < number(s.percent) <= 100] \
        + [s for s in ranges if 0 < number(s.part) <= whole_of(s) and 0 < number(s.percent) <= 100]


def whole_of(share: Share) -> float:
    """The whole a share is of: its total, less the start of the range it is counted over."""
    return number(share.total) - (number(share.since) if share.since else 0.0)


# ------------------------------------------------------------------------------------------ scale words

_PREFIXES = {"giga": 1e9, "tera": 1e12, "peta": 1e15, "exa": 1e18, "zetta": 1e21,
             "جيجا": 1e9, "جيغا": 1e9, "تيرا": 1e12, "بيتا": 1e15, "إكزا": 1e18, "اكزا": 1e18, "إكسا": 1e18, "اكسا": 1e18, "زيتا": 1e21}
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "quadrillion": 1e15, "quintillion": 1e18,
           "sextillion": 1e21, "ألف": 1e3, "آلاف": 1e3, "مليون": 1e6, "ملايين": 1e6, "مليار": 1e9, "مليارات": 1e9,
           "بليون": 1e9, "تريليون": 1e12, "تريليونات": 1e12, "كوادريليون": 1e15, "كوينتليون": 1e18}
_PREFIX = "|".join(sorted(map(re.escape, _PREFIXES), key=len, reverse=True))
_SCALE = "|".join(sorted(map(re.escape, _SCALES), key=len, reverse=True))
# '42.5 exaflops, i.e. a million trillion', '42.5 إكزافلوب، أي ما يعادل مليون تريليون'
_RESTATED = re.compile(
    rf"(?<![\d.,])(?P<num>{_NUM})\s*(?P<word>(?P<prefix>{_PREFIX})[\w-]*)"
    r"\s*[,،]?\s*(?:\(\s*)?(?:i\.e\.,?|that\s+is,?|which\s+is|or|=|equivalent\s+to|أي\s+ما\s+يعادل|أي|ما\s+يعادل|يعادل|تعادل|بما\s+يعادل)\s+"
    rf"(?:(?P<coef>{_NUM})\s*|(?:a|one|واحد)\s+)?(?P<scales>(?:(?:{_SCALE})\b\s*)+)", re.I)


class Restated(NamedTuple):
    """A figure with a unit prefix and the scale words the text says it equals, with both values."""

    figure: str
    number: str
    unit: float  # the value of one unit of the figure ('exaflop': 1e18)
    words: str
    value: float
    said: float
    coefficient: bool  # the words carry a number of their own ('42.5 million trillion'), not only scale words


_NAMES = {"en": {1e3: "thousand", 1e6: "million", 1e9: "billion", 1e12: "trillion", 1e15: "quadrillion", 1e18: "quintillion", 1e21: "sextillion"},
          "ar": {1e3: "ألف", 1e6: "مليون", 1e9: "مليار", 1e12: "تريليون", 1e15: "كوادريليون", 1e18: "كوينتليون"}}
_PREFIX_NAMES = {"en": {1e9: "giga", 1e12: "tera", 1e15: "peta", 1e18: "exa", 1e21: "zetta"},
                 "ar": {1e9: "جيجا", 1e12: "تيرا", 1e15: "بيتا", 1e18: "إكزا", 1e21: "زيتا"}}
_FLOPS = re.compile(r"flop|فلوب", re.I)


def in_language(item: "Restated", lang: str) -> tuple[str, str]:
    """The figure and its scale words as an answer in `lang` writes them ('42.5 إكزافلوب' in English: '42.5 exaflops')."""
    names = _NAMES.get(lang)
    if names is None or all(w.lower() in names.values() or not w.isalpha() for w in item.words.split()):
        return item.figure, item.words
    words = " ".join(names.get(_SCALES.get(w.lower(), 0.0), w) for w in item.words.split())
    figure = item.figure
    if _FLOPS.search(figure) and item.unit in _PREFIX_NAMES[lang]:
        figure = f"{item.number} {_PREFIX_NAMES[lang][item.unit]}{'flops' if lang == 'en' else 'فلوب'}"
    return figure, words


def restated(sentence: str) -> list[Restated]:
    """Every 'N <prefix>unit, i.e. <scale words>' in the sentence."""
    out = []
    for m in _RESTATED.finditer(sentence):
        scale = 1.0
        for word in m["scales"].split():
            scale *= _SCALES.get(word.lower(), 1.0)
        said = (number(m["coef"]) if m["coef"] else 1.0) * scale
        value = number(m["num"]) * _PREFIXES[m["prefix"].lower()]
        out.append(Restated(f"{m['num']} {m['word']}", m["num"], _PREFIXES[m["prefix"].lower()], m["scales"].strip() if not m["coef"] else f"{m['coef']} {m['scales'].strip()}",
                            value, said, bool(m["coef"])))
    return out


def states_share(sentence: str) -> bool:
    """Whether the sentence states a share of a whole, or a scale-word restatement, that its own numbers can check."""
    return bool(shares(sentence) or restated(sentence))
