"""Numbers an answer brings from outside the passage: a count, size or rate in a glossary definition or a general reason
("boards of four chips", "sixteen bytes per parameter", "terabytes per second") that the passage never gives. A blind
reader counts each such number as a statement the text does not support (JUDGING.md: "every number that is neither in the
text nor correctly derived from it"), so the definition is said without it where it can be cut cleanly."""

import re

from service.explain import pattern_cache

# Spelled-out numbers (English, Arabic): the glossary writes its numbers in words; "one" and "single" count nothing apart.
_WORDS_EN = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
             "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
             "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
             "ninety": 90, "hundred": 100, "hundreds": 100, "thousand": 1000, "thousands": 1000, "million": 1e6,
             "millions": 1e6, "billion": 1e9, "billions": 1e9, "trillion": 1e12, "trillions": 1e12, "twice": 2, "thrice": 3, "dozen": 12,
             "dozens": 12, "tens": 10, "terabytes": 1e12, "gigabytes": 1e9, "petaflops": 1e15, "teraflops": 1e12}
_WORDS_AR = {"اثنان": 2, "اثنين": 2, "اثنتان": 2, "اثنتين": 2, "ثلاث": 3, "ثلاثة": 3, "أربع": 4, "أربعة": 4, "خمس": 5, "خمسة": 5,
             "ست": 6, "ستة": 6, "سبع": 7, "سبعة": 7, "ثماني": 8, "ثمانية": 8, "ثمان": 8, "تسع": 9, "تسعة": 9, "عشر": 10,
             "عشرة": 10, "عشرون": 20, "عشرين": 20, "ثلاثون": 30, "ثلاثين": 30, "أربعون": 40, "أربعين": 40, "خمسون": 50,
             "خمسين": 50, "ستون": 60, "ستين": 60, "سبعون": 70, "سبعين": 70, "ثمانون": 80, "ثمانين": 80, "تسعون": 90,
             "تسعين": 90, "مئة": 100, "مائة": 100, "مئات": 100, "ستمئة": 600, "ألف": 1000, "آلاف": 1000, "مليون": 1e6,
             "ملايين": 1e6, "مليار": 1e9, "مليارا": 1e9, "مليارات": 1e9, "تريليون": 1e12, "تريليونات": 1e12, "ضعف": 2, "ضعفي": 2, "مرتين": 2, "مرتان": 2,
             "تيرابايتات": 1e12, "غيغابايتات": 1e9}
_WORD = pattern_cache.lazy(r"(?<![\w-])(?:" + "|".join(sorted(_WORDS_EN, key=len, reverse=True)) + r")(?![\w-])", re.I)
_WORD_AR = pattern_cache.lazy(r"(?<![\u0621-\u064A])(?:[وبل]?)(" + "|".join(sorted(_WORDS_AR, key=len, reverse=True)) + r")(?![\u0621-\u064A])")
# A number standing alone ("80 GB", "3.35 TB/s", "16-bit"), not a digit inside a name ("H100", "v5p", "1F1B", "ZeRO-3")
_DIGITS = pattern_cache.lazy(r"(?<![\w.])(?<!\w-)\d[\d,]*(?:\.\d+)?(?![\d.]*[A-Za-z]\d)(?![A-Za-z]*\d)(?!-bits?\b|-bytes?\b)(?![dD]\b)")
# A count before the noun it counts ("the three matrix multiplications", "boards of four chips"): said without the count
_COUNT_BEFORE_NOUN = pattern_cache.lazy(r"\b(?P<lead>(?i:the|its|their|of|in|into|with|across))\s+(?P<count>" +
                                        "|".join(k for k in _WORDS_EN if _WORDS_EN[k] < 100 and k not in ("twice", "thrice")) +
                                        r")\s+(?:(?:hundred|thousand|million|billion|trillion)\s+)?"  # "with six billion parameters": both go
                                        r"(?!(?:or|and|to)\s)(?!(?:[a-z][a-z-]*\s+){0,2}(?:bits|bytes)\b)"  # "in eight or four bits": a
                                        r"(?=(?:[a-z][a-z-]*\s+){0,2}[a-z][a-z-]+s\b)")  # range, and a unit's count, are no count said apart
# Entries whose numbers define them, not report on the world ("eight-bit", "two to the thirtieth power bytes"): kept whole
DEFINITIONAL_CATEGORIES = frozenset({"precision", "metric", "measurement"})
DEFINITIONAL_IDS = frozenset({"gibibyte", "mebibyte"})


def definitional(term: dict) -> bool:
    """Whether a glossary term's numbers are its definition (a unit, a number format) rather than facts about a product."""
    return term.get("category") in DEFINITIONAL_CATEGORIES or term.get("id") in DEFINITIONAL_IDS


_SIZED = pattern_cache.lazy(r"(?<=[A-Za-z-])\d+(?:\.\d+)?(?=[BMKT]\b)")  # "Mula-7B-A1B": the active size inside a name
_WIDTH = pattern_cache.lazy(r"(?<![\w.])\d+(?=-bits?\b|-bytes?\b)")
_MAGNITUDE = frozenset({"hundred", "hundreds", "thousand", "thousands", "million", "millions", "billion", "billions", "trillion"})


def _values(text: str) -> set[float]:
    """Every number `text` writes, in digits or words (a "1,024" and a "1024" alike; "4x" counts 4)."""
    found = {float(m.group()) for m in _SIZED.finditer(text)}
    found |= {float(m.group()) for m in _WIDTH.finditer(text)}  # "8-bit Adam" gives the eight a definition's "eight bits" says
    for m in _DIGITS.finditer(text):
        try:
            found.add(float(m.group().replace(",", "")))
        except ValueError:
            continue
    found |= {_WORDS_EN[m.group().lower()] for m in _WORD.finditer(text)} | {_tens_units(m) for m in _TENS_UNITS.finditer(text)}
    found |= {_WORDS_AR[m.group(1)] for m in _WORD_AR.finditer(text)}
    return found


_TENS_UNITS = pattern_cache.lazy(r"(?<![\w-])(?P<tens>twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-(?P<units>one|two|three|four|five|six|seven|eight|nine)(?![\w-])", re.I)


_UNITS_EN = {"one": 1, **{k: v for k, v in _WORDS_EN.items() if v < 10}}


def _tens_units(match: re.Match) -> float:
    """A hyphenated number word's value: "thirty-two" 32, "sixty-four" 64."""
    return _WORDS_EN[match.group("tens").lower()] + _UNITS_EN[match.group("units").lower()]


_COUNTED = pattern_cache.lazy(r"(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|[a-z]+ty(?:-[a-z]+)?|hundred))\s+$", re.I)


def outside(part: str, passage: str, between: tuple[float, float] = (0, float("inf"))) -> list[str]:
    """The numbers `part` says that `passage` never gives, as written ("four", "sixteen", "80"); only those `between` a
    least and a most value when given (a general rule's small counts, "two passes", "eight bits", define it)."""
    given = _values(passage)
    said = [(m.group(), _WORDS_EN[m.group().lower()]) for m in _WORD.finditer(part)  # "seven billion": the seven is compared
            if not (m.group().lower() in _MAGNITUDE and _COUNTED.search(part, 0, m.start()) and not _ONE_BEFORE.search(part, 0, m.start()))]
    said += [(m.group(1), _WORDS_AR[m.group(1)]) for m in _WORD_AR.finditer(part)]
    said += [(m.group(), _tens_units(m)) for m in _TENS_UNITS.finditer(part)]  # "thirty-two", "sixty-four"
    for m in _DIGITS.finditer(part):
        try:
            said.append((m.group(), float(m.group().replace(",", ""))))
        except ValueError:
            continue
    factors = [(m.group(), _factor(m)) for m in _FRACTIONAL_FACTOR.finditer(part)]  # "one and a half times": a specific
    # magnitude however small, unlike a rule's own counts ("two passes")
    machines = {m.group("n").lower() for m in _MACHINE_COUNT.finditer(part)}  # "eight per server", "eight-GPU servers": a
    said += [(n, _WORDS_EN[n] if n in _WORDS_EN else float(n)) for n in machines if n not in {w.lower() for w, _ in said}]
    return [written for written, value in said if value not in given and value not in (0, 1)  # product's fact, however small
            and (between[0] <= value < between[1] or written.lower() in machines)] \
        + [written for written, value in factors if value not in given]


_MACHINE_COUNT = pattern_cache.lazy(r"\b(?P<n>two|four|six|eight|ten|twelve|sixteen|\d+)(?:[- ](?:GPU|chip|card|accelerator)s?\b|"
                                    r"\s+(?:per|in each|on each|in a|in one)\s+(?:server|node|board|host|machine|box|tray)\b)", re.I)


_ONE_BEFORE = pattern_cache.lazy(r"\b(?:one|a)\s+$", re.I)  # "about one trillion parameters": the magnitude is the number said


_FRACTIONAL_FACTOR = pattern_cache.lazy(r"\b(?P<whole>one|two|three|four|five|\d+) and a half times\b|(?<![\d.])(?P<digits>\d+\.\d+)\s*(?:x|×|times)(?![\w])", re.I)


def _factor(match: re.Match) -> float:
    """The value of a fractional factor: "one and a half times" 1.5, "2.5x" 2.5."""
    if match.group("digits"):
        return float(match.group("digits"))
    whole = match.group("whole").lower()
    return (float(whole) if whole.isdigit() else _WORDS_EN.get(whole, 1.0)) + 0.5


_SIZE_PHRASE = pattern_cache.lazy(r"\s+with\s+(?:about\s+|around\s+|roughly\s+)?(?P<count>" + "|".join(k for k in _WORDS_EN if _WORDS_EN[k] < 100)
                                  + r")\s+(?P<mag>hundred|thousand|million|billion|trillion)\s+parameters\b", re.I)


def uncounted(sentence: str, passage: str) -> str:
    """`sentence` with each count the passage never gives taken from before the noun it counts ("the three matrix
    multiplications" -> "the matrix multiplications"); other numbers stay for the caller to cut with their clause."""
    given = _values(passage)
    sentence = _SIZE_PHRASE.sub(lambda m: m.group(0) if _WORDS_EN[m.group("count").lower()] * _WORDS_EN[m.group("mag").lower()] in given
                                or _WORDS_EN[m.group("count").lower()] in given else "", sentence)  # "a model with six billion parameters"
    return _COUNT_BEFORE_NOUN.sub(lambda m: m.group(0) if _WORDS_EN[m.group("count").lower()] in given else m.group("lead") + " ",
                                  sentence)


# A phrase that only modifies what comes before it ("offered in ...", "with ...", "such as ..."): it can go alone
_MODIFIER = re.compile(r"(?:offered|sold|built|made|used|shipped|released|trained|with|without|in|on|for|at|from|of|such as|e\.g\.|"
                       r"including|up to|about|around|roughly|typically|usually|often|each|per|mi|بـ|في|مع)\b", re.I)
_RELATIVE_NEXT = re.compile(r"(?:that|which|who|whose|where)\b", re.I)  # the sentence goes on past an aside between commas
_PARTS = re.compile(r"\s*(?::|,(?![^()]*\))|،)\s+")  # a colon's list, or a comma's phrase outside brackets


def without_parts(sentence: str, passage: str, between: tuple[float, float] = (0, float("inf"))) -> str:
    """The first sentence without the phrases after its first that say a number the passage never gives ("Google's
    third TPU generation, liquid-cooled, offered in boards of four chips" -> "..., liquid-cooled"); what follows a
    colon goes with it ("model: six hundred seventy-one billion parameters ..." -> "model")."""
    cuts = list(_PARTS.finditer(sentence))
    parts = [(cut.group(), sentence[cut.end():(cuts[n + 1].start() if n + 1 < len(cuts) else len(sentence))]) for n, cut in enumerate(cuts)]
    kept = sentence[:cuts[0].start()] if cuts else sentence
    joined = False  # an aside dropped from between commas: the relative clause after it follows with no comma
    for n, (separator, phrase) in enumerate(parts):
        if outside(phrase, passage, between):
            aside = n + 1 < len(parts) and _RELATIVE_NEXT.match(parts[n + 1][1])  # "threads, thirty-two on NVIDIA, that ..."
            if ":" in separator or not (_MODIFIER.match(phrase) or aside):
                break  # a colon's list of figures, or a clause the rest may lean on ("so any two are three hops apart"): all of it goes
            joined = bool(aside)
            continue  # "offered in boards of four chips": a modifier, dropped alone
        kept += (" " if joined else separator) + phrase
        joined = False
    return kept.rstrip(" .;,،؛:") + "." if kept != sentence else sentence


# A general rule's own small counts define it ("two for BF16", "divide by eight"); a specific magnitude ("sixteen bytes
# per parameter", "every few hundred steps") is a fact the passage may contradict, and is said only where it gives it
RULE_FACTS = (10, 1e6)


# "six-billion-parameter", "eight-GPU", "thirty-two-layer": a size written as one compound adjective before its noun
_SIZE_COMPOUND = pattern_cache.lazy(r"\b(?P<n>(?:" + "|".join(sorted(_WORDS_EN, key=len, reverse=True)) + r")(?:-(?:one|two|three|four|five|six|seven|eight|nine))?"
                                    r"(?:-(?:hundred|thousand|million|billion|trillion))?)-(?:parameter|token|GPU|chip|layer|node|bit|byte|expert|head|"
                                    r"billion|trillion)s?\s+", re.I)


def unsized(text: str, passage: str) -> str:
    """`text` (an expansion) without a size compound the passage never gives ("EleutherAI's open six-billion-parameter
    language model" -> "EleutherAI's open language model"): a reader takes its number as said by the text."""
    return _SIZE_COMPOUND.sub(lambda m: m.group(0) if not outside(m.group("n").replace("-", " "), passage) else "", text)
