"""The words and patterns the figure reader uses, built from data/figure_words.json (the data, compiled once)."""

import json
import re
from calculators import catalog
from calculators.resources import data_dir
from service.explain import pattern_cache
from service.explain.figures.record import _AR

_rx = pattern_cache.lazy  # every pattern here is compiled on first use, from the on-disk store when it can be


# ----------------------------------------------------------------------------------------------- tables

def _load() -> dict:
    return json.loads((data_dir() / "figure_words.json").read_text(encoding="utf-8"))


_TASHKEEL = "[\u064B-\u0652\u0640]*"  # short vowels, tanween, shadda, sukun and tatweel a writer may add inside a word


def _tashkeel_tolerant(pattern: str) -> str:
    """An Arabic pattern that also matches its words written with diacritics ("مُعامل" for "معامل"): after each Arabic
    letter outside a character class (and after its quantifier), any diacritics may stand."""
    out, i, n, in_class = [], 0, len(pattern), False
    while i < n:
        c = pattern[i]
        out.append(c)
        i += 1
        if c == "\\" and i < n:
            out.append(pattern[i])
            i += 1
            continue
        if in_class:
            in_class = c != "]"
            continue
        if c == "[":
            in_class = True
            if pattern[i:i + 1] == "^":
                out.append("^")
                i += 1
            if pattern[i:i + 1] == "]":
                out.append("]")
                i += 1
            continue
        if "\u0621" <= c <= "\u064A":
            if i < n and pattern[i] in "?*+":
                out.append(pattern[i])
                i += 1
                if i < n and pattern[i] in "?+":
                    out.append(pattern[i])
                    i += 1
            out.append(_TASHKEEL)
    return "".join(out)


_W = _load()
_EN, _ARW = _W["en"], _W["ar"]
for _entry in (*_ARW["nouns"], *_ARW["units"]):
    _entry["pattern"] = _tashkeel_tolerant(_entry["pattern"])
_I = re.IGNORECASE


def _alt(words) -> str:
    """A regex alternation of literal words, longest first so a longer word wins."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _named(entries: list[dict], key: str, flags=0) -> tuple[re.Pattern, list[dict]]:
    """One compiled alternation with a group per entry, so one match names the entry that fired."""
    parts = [f"(?P<g{i}>{e[key]})" for i, e in enumerate(entries)]
    return _rx("|".join(parts), flags), entries


def _which(match: re.Match, entries: list[dict]) -> dict:
    return entries[int(match.lastgroup[1:])]


_LETTERS = _rx(r"[A-Za-z\u0600-\u06FF]+")


def _leading_words(pattern: str) -> str:
    """A pattern without its lookarounds and inline flags: the words in "(?=\\s+(?:from|to))" never start a match."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        if pattern.startswith(("(?=", "(?!", "(?<=", "(?<!"), i) and (i == 0 or pattern[i - 1] != "\\"):
            depth = 0
            while i < n:
                c = pattern[i]
                if c == "\\":
                    i += 2
                    continue
                depth += c == "("
                depth -= c == ")"
                i += 1
                if depth == 0:
                    break
            continue
        if pattern.startswith("(?-i:", i) or pattern.startswith("(?i:", i):
            out.append("(?:")
            i += 5 if pattern.startswith("(?-i:", i) else 4
            continue
        out.append(pattern[i])
        i += 1
    return "".join(out)


class _Table:
    """Patterns tried where a word starts; only those whose own words could begin with that word are tried."""

    def __init__(self, entries: list[dict], key: str, suffix: str = "", flags: int = _I):
        self.entries = entries
        self.patterns = [_rx(f"(?:{e[key]}){suffix}", flags) for e in entries]  # each compiled when first tried
        self.key = key
        self.words: list[frozenset] | None = None  # the words of each entry, read on the first lookup
        self.wild: list[bool] = []
        self.cache: dict[str, tuple[int, ...]] = {}

    def _prepare(self) -> None:
        key = self.key
        # a pattern that opens with a character class ("[A-Z]\\d+") could start with any word
        self.wild = [re.sub(r"^(?:\(\?:|\()+", "", e[key])[:1] in ("[", "\\", ".") for e in self.entries]
        # words last: server threads read the table at once, and `words` set is the sign that `wild` is too
        self.words = [frozenset(w.lower() for w in _LETTERS.findall(_leading_words(e[key]))) for e in self.entries]

    def candidates(self, word: str) -> tuple[int, ...]:
        found = self.cache.get(word)
        if found is None:
            if self.words is None:
                self._prepare()
            found = tuple(i for i, words in enumerate(self.words)
                          if self.wild[i] or any(word.startswith(w) or w.startswith(word) for w in words))
            if len(self.cache) > 50000:  # a long-running server meets unbounded vocabularies
                self.cache.clear()
            self.cache[word] = found
        return found

    def match(self, text: str, pos: int, endpos: int, word: str) -> tuple[dict, re.Match] | None:
        """The first entry, in table order, that matches at pos."""
        for i in self.candidates(word):
            m = self.patterns[i].match(text, pos, endpos)
            if m:
                return self.entries[i], m
        return None


_MULTS = {**_EN["multipliers"], **_ARW["multipliers"]}
_APPROX_BEFORE = _rx(r"(?:(?<![\w])(?:" + _EN["approx_before"] + "|" + _ARW["approx_before"] + r")|[~≈∼])\s*$", _I)
_APPROX_AFTER = _rx(r"\s*(?:" + _EN["approx_after"] + "|" + _ARW["approx_after"] + r")(?![\w])", _I)

# A number: digits (with thousands commas, decimals, exponent or "× 10^n"), then an optional multiplier.
# one branch that opens with \d, so the engine's first-character skip applies (an alternation disables it)
# "3.14+23 FLOPs", "~2.5+12": a power of ten written after a plus with no E (OPT's logbook writes its FLOP counts so);
# only after a decimal part and for powers from 6 to 30, so a sum such as "1.5+2" is never read as one number
_NUMLIT = r"\d+(?:[,’]\d{3}(?!\d))*(?:\.\d+(?:\+(?:[6-9]|[12]\d|30)(?![\d,]|\.\d))?)?(?:[eE][+-]?\d+)?"  # "23’125": Swiss thousands
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_UNITS_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
# "twenty-nine seconds", "sixty-two": a ten and a unit joined by a hyphen, as English writes every number up to 99
_EN_WORDS = {**_EN["number_words"], **{f"{t}-{u}": _EN["number_words"][t] + _EN["number_words"][u] for t in _TENS for u in _UNITS_WORDS}}
EN_NUMBER_WORDS = _EN_WORDS  # "five" -> 5, for checks that read a count the figure reader leaves to words
_AR_WORDS = _ARW["number_words"]
_AR_WORD = r"[وبل]?(?:" + _alt(_AR_WORDS) + r")"
_MULT = (r"(?:(?P<m1>[kKMBT]|bn|mn|G(?=\s*(?:tokens?|params|parameters|samples|sequences)\b))(?![A-Za-z0-9])|(?P<m1b>[kmb])(?![A-Za-z0-9/])"
         r"|[\s-]?(?P<m2>thousand|million|billion|trillion|quadrillion)(?![A-Za-z])"
         rf"|\s?(?P<m3>{_alt(_ARW['multipliers'])})(?![{_AR}]))?")
# Three scans that each start with a digit or a literal word, so the regex engine skips ahead cheaply; what
# must not stand before a token (a letter before "100" in "H100") is checked in code.
_SUP = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUPS = str.maketrans(_SUP + "⁺⁻", "0123456789+-")
_POW = r"\s*[×x]\s*10(?:\s*(?:\^|\*\*)\s*[+-]?\d+|[⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)"  # × 10^24, × 10**24, × 10²⁴
_DIGIT_TOKEN = _rx(r"(?P<num>" + _NUMLIT + r")(?P<pow>" + _POW + r")?" + _MULT)
# "in under a millisecond", "within an hour": one unit of time after a word that takes a span ("a second" may count)
_TIME_UNIT = r"(?=\s+(?:(?:milli|micro|nano)second|minute|hour|day|week|month|year)\b)"
_A_TIME = _rx(r"(?:^|.*\b(?:in|within|under|than|takes|took)\s+)$")
_EN_TOKEN = _rx(r"(?P<enw>" + _alt([*_EN_WORDS, *(w.capitalize() for w in _EN_WORDS)]) + r"|(?:[Hh]alf[\s-]+|(?:[Aa][\s-]+)?[Qq]uarter[\s-]+of[\s-]+)?(?:a|an|A|An)(?=[\s-]+(?:hundred|thousand|million|billion|trillion)\b)|\ban?" + _TIME_UNIT + ")"
                r"(?:[\s-]+(?P<enm>hundred|thousand|million|billion|trillion))?(?![A-Za-z-])")
_AR_WORD = r"(?:" + _alt([*_AR_WORDS, *(p + w for w in _AR_WORDS for p in "وبل")]) + r")"
_AR_TOKEN = _rx(rf"(?P<arw>{_AR_WORD}(?:\s+و?\s?{_AR_WORD})*)(?![{_AR}])")
_HAS_AR = _rx(f"[{_AR}]")
_AR_DUALS = _ARW["dual_time_words"]
_AR_DUAL = _rx(rf"[وبل]?({_alt(_AR_DUALS)})(?![\u0621-\u064A\u066E-\u06D3])")
_AR_DUAL_COUNTS = {k: v for k, v in _ARW["dual_count_words"].items() if not k.startswith("_")}
_AR_LETTER = "\u0621-\u064A\u066E-\u06D3"  # letters only: a comma (،) may follow a word
_AR_DUAL_COUNT = _rx(rf"[وبل]?({_alt(_AR_DUAL_COUNTS)})(?![{_AR_LETTER}])")
_HAS_AR_DIGIT = _rx("[٠-٩۰-۹٫٬]")
_HAS_EXPR = _rx(r"\d\s*(?:[*×·÷^]|/\s*[\d(])")
_HAS_DIGIT = _rx(r"\d")


_HAS_MARKUP = _rx(r"[$`\\]")
_MATH = _rx(r"\$\$?([^$\n]{1,300}?)\$\$?")
_MATH_SIGNS = _rx(r"[\\=<>^_{}]|^\s*~?\s*[\d.,]+\s*$|^\s*[A-Za-z](?:\s*[/*·]\s*[A-Za-z])*\s*$")
_TEX_COMMAND = _rx(r"\\(times|cdot|approx|sim|geq|leq|ge|le|gt|lt|text|mathrm|mathit|mathbf|operatorname|[A-Za-z]+)\s*\{?")
_TEX_SIGN = {"times": "*", "cdot": "*", "approx": "~", "sim": "~", "geq": ">", "ge": ">", "gt": ">", "leq": "<", "le": "<", "lt": "<"}


def _clean_markup(norm: str) -> str:
    """Markdown code ticks and LaTeX math ($F=32,768$, `4.59e14`, $24 \\times 2048$) as plain text of the same length,
    so offsets stay those of the input and a LaTeX dollar is not a currency."""
    chars = list(norm.replace("`", " "))
    for m in _MATH.finditer(norm):
        body = m.group(1)
        if not _MATH_SIGNS.search(body) and not norm.startswith("$$", m.start()):
            continue  # "$5M and $" is money, not math
        for i in range(m.start(), m.start(1)):
            chars[i] = " "
        for i in range(m.end(1), m.end()):
            chars[i] = " "
        for c in _TEX_COMMAND.finditer(norm, m.start(1), m.end(1)):
            sign = _TEX_SIGN.get(c.group(1))
            for i in range(c.start(), c.end()):
                chars[i] = " "
            if sign:
                chars[c.end() - 1 if norm[c.end() - 1] != "{" else c.start()] = sign
            elif c.group(1) not in ("text", "mathrm", "mathit", "mathbf", "operatorname"):
                chars[c.start() + 1:c.start() + 1 + len(c.group(1))] = list(c.group(1))  # \alpha -> " alpha"
        for i in range(m.start(1), m.end(1)):
            if chars[i] in "{}":
                chars[i] = " "
    return "".join(chars)


class _Tok:
    """A number token: a match with the groups of any of the three scans, plus a currency sign before it."""

    __slots__ = ("m", "cur", "lead")

    def __init__(self, m: re.Match, norm: str):
        self.m = m
        self.cur, self.lead = None, m.start()
        if "num" in m.re.groupindex:
            at = m.start() - (2 if norm[m.start() - 2:m.start() - 1] in "$€£" and norm[m.start() - 1:m.start()] == " " else 1)
            if at >= 0 and norm[at:at + 1] in ("$", "€", "£") and at < m.start():
                self.cur, self.lead = norm[at:m.start()], at

    def group(self, name=0):
        if name == "cur":
            return self.cur
        if name == 0 or name in self.m.re.groupindex:
            return self.m.group(name)
        return None

    def start(self, name=None):
        if name is None:
            return self.lead
        return self.m.start(name) if name in self.m.re.groupindex else self.m.start()

    def end(self):
        return self.m.end()


def _tokens(norm: str) -> list[_Tok]:
    """Every number in the text, digits or words, in order."""
    found = []
    for m in _DIGIT_TOKEN.finditer(norm):
        before = norm[m.start() - 1] if m.start() else " "
        # a letter before the digits makes them part of a name ("H100", "β1"); an Arabic particle ("و191") does not
        if not (before.isascii() and (before.isalnum() or before in "_.") or before.isalpha() and not "\u0600" <= before <= "\u06FF"):
            found.append(_Tok(m, norm))
    for m in _EN_TOKEN.finditer(norm):
        if m.group("enm") is None and m.group("enw").lower() in ("a", "an") and not (_rx(_TIME_UNIT).match(norm, m.end()) and _A_TIME.match(norm[max(0, m.start() - 12):m.start()])):
            continue  # "a" is a number only before a scale word ("a trillion") or as a span of time ("in under a millisecond")
        if not m.start() or not (norm[m.start() - 1].isalpha() or norm[m.start() - 1] == "-"):
            found.append(_Tok(m, norm))
    if _HAS_AR.search(norm):
        for m in _AR_TOKEN.finditer(norm):
            if not m.start() or not ("\u0600" <= norm[m.start() - 1] <= "\u06FF"):
                found.append(_Tok(m, norm))
    return sorted(found, key=lambda t: t.start())


_AR_SPLIT = _rx(rf"[وبل]?(?:{_alt(_AR_WORDS)})(?![{_AR}])|(?<![{_AR}])[وبل]?(?:{_alt(_AR_WORDS)})")
_AR_PARTICLE = _rx(r"^[وبل](?=\S)")  # an attached و, ب or ل before a number word
_AR_FIRST_LETTER = _rx(r"^[وبل]")
_AR_WEAK = set(_ARW["weak_number_words"])
_AR_PLURAL_SCALE = set(_ARW["plural_scale_words"])
_AR_TEEN = set(_ARW["teen_words"])

# Units written right after a number; case matters (GB/s is bytes, Gb/s is bits).
_UNIT_ENTRIES = _EN["units"] + _ARW["units"]
_UNITS, _ = _named([{**e, "p": f"(?:{e['pattern']})" + ("" if e["class"] in ("percent", "ratio") else r"(?![\w/])")}
                    for e in _UNIT_ENTRIES], "p")
_UNIT_AT = _rx(r"[ \t]?\+?-?[ \t]?(?:(?:" + _EN["precision_words"] + r")[ \t]+(?=[kMGTPE]?(?:FLOP|flop|[kMGTP]?B)))?")
_NOUN_ENTRIES = _EN["nouns"] + _ARW["nouns"]
_MODS = r"(?:(?:" + _EN["modifiers"] + "|" + _ARW["modifiers"] + r")[ \t-]+){0,3}"
# a noun on the next line is the next table row's label ("405 billion\nTraining tokens: 15.6 trillion"), never this number's
_NOUNS = _rx(r"[ \t\-“”«»\"]*" + _MODS + "(?:" + "|".join(f"(?P<g{i}>(?:{e['pattern']}))" for i, e in enumerate(_NOUN_ENTRIES))
                    + rf")(?![\w])", _I)
# Nouns a few words later: "14.8 trillion diverse and high-quality tokens".
_NOUN_LATER = _rx(r"(?:[ \t]+[a-z][\w-]*){1,4}?[ \t]+(?P<n>tokens|parameters|params|GPUs|TPUs|chips)\b(?!\s*/)")
_WAY = _rx(r"[\s-]?way\b", _I)
_EN_NOUNS_WEAK_OK = {"axes", "pods", "chips", "tokens", "params", "layers", "experts", "heads", "stages", "virtual_stages", "microbatches",
                     "dp", "tp", "ranks", "nodes", "sequences", "steps", "epochs", "chips_hyphen"}

# Key phrases that name the quantity of the number after them ("sequence length of 8192").
_KEYS = _EN["key_phrases"] + _ARW["key_phrases"]
_FILL = r"(?:\s*\((?:ms|s|sec|seconds|GB|GiB|MB|MiB)\)\s*[:=]\s*|[\"']?\s*[:=]\s*|\s+(?:of|is|was|are|were|to|at|set to|equals?|around|about|roughly|approximately|~|from|reached|reaches|only|just|up to|by|must be at least|must be|must exceed|exceeds?|at least|من|هو|هي|قدره|قدرها|بدرجة|بحجم|بقيمة|يبلغ|تبلغ|بلغ|بلغت|يساوي|تساوي|إلى)?\s*|\s*\(\s*)"
_KEY_BEFORE = _rx(r"(?<![\w])(?:" + "|".join(f"(?P<g{i}>{e['pattern']})" for i, e in enumerate(_KEYS)) + r")" + _FILL + r"(?:~\s*)?$", _I)
_KEY_TABLE = _Table(_KEYS, "pattern", _FILL + r"(?:~\s*)?$")
# "The sequence length, 8192, doubles ...": a key phrase and its value set off by commas (read only when the value closes the aside)
_KEY_APPOSITIVE = _Table(_KEYS, "pattern", r"\s*,\s*(?:~\s*)?$")
_APPOSITIVE_END = _rx(r"\s*(?:,|\)|;|\.(?:\s|$)|$)")
_KEY_AFTER = _rx(r"\s*\)?\s*(?:" + "|".join(f"(?P<g{i}>{e['pattern']})" for i, e in enumerate(_KEYS)) + r")(?![\w])", _I)

# Compact notation: TP8, TP=8, |TP|=2, EP8TP1, PP16/VPP2, GBS=1024, mbs 2, seq 4k, ZeRO-3, top-2.
_ABBR = _EN["abbreviations_case_sensitive"]
_SIGN_ONLY = set(_EN["abbreviations_that_need_a_sign"])
_COMPACT = _rx(
    r"(?<![A-Za-z_])(?:\|(?P<abs>" + _alt(k for k in _ABBR if not k.endswith("-")) + r")\|\s*=\s*"
    r"|(?P<abbr>" + _alt(_ABBR) + r")(?P<sep>\s*[=:]\s*|[ \t-]?))"
    r"(?P<num>\d+(?:\.\d+)?(?:e-?\d+)?)(?P<k>[kK]|M(?![A-Za-z]))?(?!\d|\.\d|[kK])"
    r"(?![ \t-]*way\b)"  # "2 way DP 4 way TP": the 4 is the way of the TP after it, not DP's
)
_ABBR_DETAIL = _EN["abbreviation_detail"]
# A mesh written as sizes before their axes ("64 FSDP by 4 TP", "8 DP x 8 TP"): each size is that axis's degree
_MESH_AXES = r"(TP|PP|DP|EP|CP|FSDP|HSDP)"
_MESH_CODE, _MESH_NEXT = _rx(r"[ \t]+" + _MESH_AXES + r"\b"), _rx(r"[ \t]*(?:by|x|×)[ \t]*\d+[ \t]+" + _MESH_AXES + r"\b")
_MESH_BEFORE = _rx(r"\b" + _MESH_AXES + r"[ \t]*(?:by|x|×)[ \t]*$")
_PIPE_LETTERS = {k: v for k, v in _EN["pipeline_letters"]["letters"].items()}
_PIPE_LETTER = _rx(r"(?<![\w\\/·*.])(?P<sym>" + _alt(_PIPE_LETTERS) + r")\s*=\s*(?P<num>\d+)(?!\w|\.\d)")
_PIPE_CONTEXT = _rx(_EN["pipeline_letters"]["context"], _I)
_GEMM_SHAPE = _rx(r"(?<![\w])[NK]\s*=\s*\d")
_PER_CHIP = _rx(r"\s*(?:per|/|a|each)\s*(?:chip|device|GPU|TPU|accelerator|rank)\b(?!\s+(?:stream|sequence|request|user)s?\b)", _I)  # not "per GPU stream": one sequence
_THRESHOLD = _rx(r"(?<![\w])(?:" + _EN["threshold_words"] + r")\s*(?:(?:about|roughly|approximately|only)\s+|~\s*)*$", _I)
_SYMBOLS = {k: v for k, v in _EN["symbols"].items() if not k.startswith("_")}
_SYMBOL = _rx(r"(?<![\w\\/])(?P<sym>" + _alt(_SYMBOLS) + r")(?:_\s*\w+)?\s*(?:(?P<cmp>=|>=?|<=?|≥|≤)|(?P<words>" + _EN["threshold_words"]
              + r"))\s*(?:(?:about|roughly|approximately)\s+|~\s*)?(?=[(\d])")
_UNIT_LABEL = _rx(r"(?P<u>(?P<p>[kmgtpe]|kilo|mega|giga|tera|peta|exa)?\s*flops?\s*/\s*s(?:ec)?(?P<fchip>\s*/\s*(?:device|gpu|chip|accelerator|tpu))?"
                  r"|(?P<p2>[tpg])flops|(?:tokens?\s*/\s*s(?:ec)?|tps|wps)(?P<chip>\s*/\s*(?:device|gpu|chip|accelerator|tpu))?|(?P<tgs>tgs))"
                  r"\s*\)?\s*(?:[:=]|(?P<verb>\s(?:is|was|reaches|reached|hits|hit)(?:\s+(?:up to|about|around|approximately|roughly|only|just|nearly|almost|over))?))\s*(?:~\s*)?$", _I)
_PREFIX_SCALE = {"k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12, "p": 1e15, "e": 1e18, "kilo": 1e3, "mega": 1e6, "giga": 1e9,
                 "tera": 1e12, "peta": 1e15, "exa": 1e18}


def _symbol_quantity(symbol: str, value: float) -> str | None:
    """The quantity a formula letter gives a value ("C=4.6e14" is a chip's FLOP/s, "C=6.3e24" a run's FLOPs)."""
    for least, quantity in _SYMBOLS.get(symbol, ()):
        if value >= least:
            return quantity
    return None

# Names whose digits are not figures (Table 4, [12], arXiv ids, 1F1B, fp8, FSDP2, 3D parallelism, years below).
_NAMES_WORD = _rx("|".join(f"(?:{p})" for p in _EN["name_patterns"]["word_led"]))
_LINK_CHUNK = _rx(r"[(\[<\"']?(?:https?://|www\.|arXiv:|doi:|DOI:|\S*\.(?:com|org|io|ai|net|dev|edu|html?)\b)")
_NAMES_DIGIT = _rx("|".join(f"(?:{p})" for p in _EN["name_patterns"]["digit_led"]))
_CHUNK = _rx(r"\S+")


_INDEX_TABLE = _Table([{"p": w} for w in _EN["index_words"].split("|")], "p", r"\s*#?\s*$")
_LIST_MARK = _rx(r"(?m)^[ \t]*(?:[-*•]\s*)?\(?\d+(?:\.\d+)*[.)](?=\s)|^[ \t]*\d+(?:\.\d+)+\s+(?=[A-Z])")
_CLUTTER_LINE = _rx(r"(?m)^[ \t]*[$€£]?\d[\d,.]*[kKMB]?[ \t]*$")


def _chip_names() -> list[str]:
    names = []
    for entry in catalog.hardware().entries:
        for name in (entry["id"], entry["name"], *entry.get("aliases", [])):
            if any(c.isdigit() for c in name) or name.lower() in ("trillium", "ironwood"):
                names.append(name)
    return names


def _flex(name: str) -> str:
    """A catalog name as a regex where spaces and hyphens may differ or vanish."""
    return r"[\s-]?".join(re.escape(part) for part in re.split(r"[\s\-_]+", name) if part)


_CHIP_CORE = (r"(?:(?:NVIDIA|Nvidia|nvidia|AMD|Google|Intel)\s+)?(?:Tesla\s+)?(?:" + "|".join(_flex(n) for n in sorted(_chip_names(), key=len, reverse=True))
              + r"|TPU\s?v?\d+[a-z]*|MI\d{3}[A-Z]?|GB\d{3}(?:\s?NVL\d+)?|(?!(?:TP|PP|DP|EP|CP|SP|MP|VP|BS|SL|FP|BF|TF)\d)[A-Z]{1,2}\d{2,4}[A-Z]?|Gaudi\s?\d|Trillium|Ironwood"
              + r"|[avhb]\d00(?![\w.])|[ah]800(?![\w.]))")  # "8 v100", "4 a100": chips as people type them in lower case
_CHIP_AFTER = _rx(r"[ \t]*[x×*]?[ \t]*(?P<name>" + _CHIP_CORE + r")(?P<pl>s)?(?:[ \t]+(?:SXM\d?|PCIe))?"
                         r"(?:[ \t]+(?:GPUs?|chips?|TPUs?|accelerators?|devices?|cards?))?(?![\w])")
_GROUP_AFTER = _rx(r"[ \t]+((?:super)?pods?|SuperPODs?|slices?|nodes?|hosts?|servers?|machines?|racks?|systems?)\b", _I)
_CHIP_BEFORE = _rx(r"(?:(?<![\w])|(?<=\d[x×]))(?:" + _CHIP_CORE + r")(?:[ \t-]?|[ \t]?\(\s*)$")
_PRODUCT = _rx(r"(?<![\w.])(?P<a>\d+)\s*[x×]\s*(?P<b>\d+)(?:\s*[x×](?=\s))?(?=\s*(?:" + _CHIP_CORE + r"|GPUs?|TPUs?|chips?|accelerators?|devices?)(?![\w]))")
_FAMILY = _EN["model_family"]
_MODEL = _rx(r"(?P<name>(?:" + _FAMILY + r")(?:[- ]?(?:v|V|R|K)?\d+(?:\.\d+)*)?(?:[- ](?:Instruct|Base|Chat))?)"
                    r"(?:[- ](?P<size>\d+(?:\.\d+)?[BMT])(?:-A(?P<act>\d+(?:\.\d+)?[BMT]))?)?(?![\w.])")
_MOE_NAME = _rx(r"(?<![\w.])(?P<size>\d+(?:\.\d+)?[BT])-A(?P<act>\d+(?:\.\d+)?[BMT])(?![\w])")
_BOUNDARY = _rx(_EN["boundaries"] + r"|[،؛؟]")
_FROM = _rx(r"(?:(?<![\w])(?:" + _EN["from_to"]["from"] + "|" + _ARW["from_to"]["from"] + r")\s*(?:~\s*)?)$", _I)
_ARROW = _rx(r"^\s*(?:→|->|⟶|=>|⇒)\s*(?:[~≈]\s*)?$")  # "~310 -> ~3200": the second figure's "about" sign
_TO = _rx(r"^\s*(?:" + _EN["from_to"]["to"] + "|" + _ARW["from_to"]["to"] + r")\s*$", _I)
_RANGE_DASH = _rx(r"^(?:\s?[–-]\s?|~)$")
_SENTENCE_END = _rx(r"(?s:.*)(?:[.!?;]\s|\n)")
_SUBJECT = _rx(r"(?<![\w])(?:MFU|HFU|(?:model |hardware |peak )?(?:FLOPs?|flops) utili[sz]ation|(?:GPU |compute |hardware )?utili[sz]ation)(?![\w])", _I)
_BY = _rx(r"\bby\s+(?:(?:over|more than|up to|about|roughly|nearly|almost|around|approximately|only)\s+|~\s*)?$", _I)
_CHANGE_VERB = _rx(r"\b(?:(?P<down>" + _EN["reduce_verbs"] + r")|(?P<up>" + _EN["increase_verbs"] + r"))\b", _I)
_POD_WORD = _rx(r"\b(?:pods?|superpods?|SuperPODs?|slices?|supercomputers?)\b|حاسوب\w* عملاق|حواسيب عملاقة|كمبيوتر\w* عملاق", _I)
_RESPECTIVELY = _rx(r"\brespectively\b", _I)
_PARALLEL_NOUN = _rx(r"\b(tensor|pipeline|data|expert|context|sequence|TP|PP|DP|EP|CP|SP)\b", _I)
_PARALLEL_DEGREE = {"te": "tp_degree", "pi": "pp_degree", "da": "dp_degree", "ex": "ep_degree", "co": "cp_degree", "se": "sp_degree",
                    "tp": "tp_degree", "pp": "pp_degree", "dp": "dp_degree", "ep": "ep_degree", "cp": "cp_degree", "sp": "sp_degree"}
_FRACTION_WORDS = ("half", "halves", "third", "quarter", "fifth", "tenth")
_FRACTION = _rx(r"(?<![\w-])(?:(?P<by>by|in)\s+)?(?P<n>(?:(?:a|one)\s+)?(?P<w>half|third|quarter|fifth|tenth))(?![\w-])(?P<of>\s+of\b)?", _I)
_PRODUCT_OVER = _rx(r"\s*[\d.,]+\s*[*×·x]\s*[\d.,]+\s*/\s*[\d.,]+\s*")
_TOKEN_WORD = _rx(r"\btokens?\b", _I)
_DEVICE_WORD = _rx(r"\b(?:per[- ])?(?:device|chip|GPU|TPU)\b", _I)
_MFU_WORD = _rx(r"\bMFU\b|model (?:FLOPs?|flops) utili[sz]ation", _I)
_LESS_AFTER = _rx(r"\s*(?:less|lower|smaller|fewer|reduction)\b", _I)
_PEAK_AFTER = _rx(r"\s*(?:\(?\s*)?(?:peak|theoretical)\b", _I)
_OR = _rx(r"^\s*(?:or|and|to|,|و|أو)\s*$")
_VERSUS = _rx(r"^\s*(?:versus|vs\.?|compared (?:to|with)|against|\(\s*(?:was|previously|before|vs\.?)|مقابل|مقارنة ب)\s*$", _I)
_RANGE_WORD = _rx(r"^\s*(?:to|–|إلى|الى)\s*$")
# the quantity a unit gives when nothing around the number says more: a key phrase's quantity is more specific
_UNIT_DEFAULTS = frozenset({"time_s", "percent", "bytes", "count", "number", "cost_usd", "peak_flop_per_s", "total_flops"})
_RESULT = _rx(r"^\s*(?:=|≈|~|is about|is roughly|gives|yields)\s*$")

_OPERAND = r"[(\[]*\s*(?:" + _NUMLIT + r")(?:" + _POW + r")?(?:[kKMBT](?![A-Za-z]))?(?:\s*%)?\s*[)\]]*"
_EXPR = _rx(r"(?<![\w.])" + _OPERAND + r"(?:\s*(?:\*\*|[*×·/÷^+−]|-(?=\s))\s*" + _OPERAND + r")+")
_EXPR_NEEDS = _rx(r"\*|×|·|/|÷|\^")

# Cues: words near a number that settle what it measures, per unit class, nearest first.
_CUES = _EN["cues"] + _ARW["cues"]


def _cue_tables(direction: str) -> dict[str, _Table]:
    tables: dict[str, list[dict]] = {}
    for cue in _CUES:
        pattern = cue.get("near") or cue.get(direction)
        if pattern:
            tables.setdefault(cue["class"], []).append({**cue, "p": pattern})
    return {cls: _Table(entries, "p") for cls, entries in tables.items()}


_CUE_BEFORE = _cue_tables("before")
_CUE_AFTER = _cue_tables("after")
_UNIT_SECONDS = {**_EN["unit_seconds"], **_ARW["unit_seconds"]}
_MAGNITUDE_DEFAULT = _EN["magnitude_default"]
_WINDOW_BEFORE, _WINDOW_AFTER = 48, 40  # a cue farther than a few words belongs to another number
_SEQ_K = _rx(r"^(?:1|2|4|8|16|32|64|128|256|512|1024)$")
_FLOP_WORD = _rx(r"FLOP|flop", 0)
