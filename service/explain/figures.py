"""Every figure a text states (English and Arabic), with the calculator quantity it gives and its value.

Longer than the house's 500 lines on purpose: the reader is one pass over the text in which every notation
(compact degrees, formula letters, arithmetic, ranges, before/after pairs, Arabic words) claims its span before
the generic rules see it; split across modules, the order of those claims would be spread out of sight.
The words it reads are data (data/figure_words.json); the code is the order.
"""

import ast
import bisect
import json
import math
import re
from typing import NamedTuple

from calculators import CalculatorInputError, catalog
from calculators.resources import data_dir
from calculators.arithmetic import walk
from calculators.units import parse_text
from service.explain import pattern_cache

# Arabic-Indic and Persian digits and the Arabic decimal/thousands separators map one character to one,
# so offsets in the translated text are offsets in the input.
_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹٫٬", "01234567890123456789.,")
_AR = "\u0600-\u06FF"


# A NamedTuple, not a frozen dataclass: the same record, without a millisecond of class building at import.
class Figure(NamedTuple):
    """One number stated in a text: what it measures and its value in the calculators' units."""

    quote: str
    start: int
    end: int
    quantity: str
    value: float
    unit: str | None = None
    approx: bool = False
    chip: str | None = None
    model: str | None = None
    role: str | None = None
    pair: int | None = None
    detail: dict | None = None

    def to_dict(self) -> dict:
        """The JSON object of DESIGN.md's `figures` list."""
        value = self.value
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            value = int(value)
        out = {"quote": self.quote, "quantity": self.quantity, "value": value, "unit": self.unit,
               "approx": self.approx, "start": self.start, "end": self.end}
        for key in ("chip", "model", "role", "pair", "detail"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


_rx = pattern_cache.lazy  # every pattern here is compiled on first use, from the on-disk store when it can be


# ----------------------------------------------------------------------------------------------- tables

def _load() -> dict:
    return json.loads((data_dir() / "figure_words.json").read_text(encoding="utf-8"))


_W = _load()
_EN, _ARW = _W["en"], _W["ar"]
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
        self.words = [frozenset(w.lower() for w in _LETTERS.findall(e[key])) for e in self.entries]

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
_NUMLIT = r"\d+(?:,\d{3}(?!\d))*(?:\.\d+)?(?:[eE][+-]?\d+)?"
_EN_WORDS = _EN["number_words"]
_AR_WORDS = _ARW["number_words"]
_AR_WORD = r"[وبل]?(?:" + _alt(_AR_WORDS) + r")"
_MULT = (r"(?:(?P<m1>[kKMBT]|bn|mn)(?![A-Za-z0-9])|(?P<m1b>[kmb])(?![A-Za-z0-9/])"
         r"|[\s-]?(?P<m2>thousand|million|billion|trillion|quadrillion)(?![A-Za-z])"
         rf"|\s?(?P<m3>{_alt(_ARW['multipliers'])})(?![{_AR}]))?")
# Three scans that each start with a digit or a literal word, so the regex engine skips ahead cheaply; what
# must not stand before a token (a letter before "100" in "H100") is checked in code.
_SUP = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUPS = str.maketrans(_SUP + "⁺⁻", "0123456789+-")
_POW = r"\s*[×x]\s*10(?:\s*(?:\^|\*\*)\s*[+-]?\d+|[⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)"  # × 10^24, × 10**24, × 10²⁴
_DIGIT_TOKEN = _rx(r"(?P<num>" + _NUMLIT + r")(?P<pow>" + _POW + r")?" + _MULT)
_EN_TOKEN = _rx(r"(?P<enw>" + _alt([*_EN_WORDS, *(w.capitalize() for w in _EN_WORDS)]) + r")"
                r"(?:[\s-]+(?P<enm>thousand|million|billion|trillion))?(?![A-Za-z-])")
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
        if not (before.isascii() and (before.isalnum() or before in "_.")):
            found.append(_Tok(m, norm))
    for m in _EN_TOKEN.finditer(norm):
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
_MODS = r"(?:(?:" + _EN["modifiers"] + "|" + _ARW["modifiers"] + r")[\s-]+){0,3}"
_NOUNS = _rx(r"[\s-]*" + _MODS + "(?:" + "|".join(f"(?P<g{i}>(?:{e['pattern']}))" for i, e in enumerate(_NOUN_ENTRIES))
                    + rf")(?![\w])", _I)
# Nouns a few words later: "14.8 trillion diverse and high-quality tokens".
_NOUN_LATER = _rx(r"(?:\s+[a-z][\w-]*){1,4}?\s+(?P<n>tokens|parameters|params|GPUs|TPUs|chips)\b(?!\s*/)")
_WAY = _rx(r"[\s-]?way\b", _I)
_EN_NOUNS_WEAK_OK = {"axes", "pods", "chips", "tokens", "params", "layers", "experts", "heads", "stages", "virtual_stages", "microbatches",
                     "dp", "tp", "ranks", "nodes", "sequences", "steps", "epochs", "chips_hyphen"}

# Key phrases that name the quantity of the number after them ("sequence length of 8192").
_KEYS = _EN["key_phrases"] + _ARW["key_phrases"]
_FILL = r"(?:\s*[:=]\s*|\s+(?:of|is|was|are|were|to|at|set to|equals?|around|about|roughly|approximately|~|from|reached|reaches|only|just|up to|by|must be at least|must be|must exceed|exceeds?|at least|من|هو|هي|قدره|قدرها|بدرجة|بحجم|بقيمة|يبلغ|تبلغ|إلى)?\s*|\s*\(\s*)"
_KEY_BEFORE = _rx(r"(?<![\w])(?:" + "|".join(f"(?P<g{i}>{e['pattern']})" for i, e in enumerate(_KEYS)) + r")" + _FILL + r"(?:~\s*)?$", _I)
_KEY_TABLE = _Table(_KEYS, "pattern", _FILL + r"(?:~\s*)?$")
_KEY_AFTER = _rx(r"\s*\)?\s*(?:" + "|".join(f"(?P<g{i}>{e['pattern']})" for i, e in enumerate(_KEYS)) + r")(?![\w])", _I)

# Compact notation: TP8, TP=8, |TP|=2, EP8TP1, PP16/VPP2, GBS=1024, mbs 2, seq 4k, ZeRO-3, top-2.
_ABBR = _EN["abbreviations_case_sensitive"]
_SIGN_ONLY = set(_EN["abbreviations_that_need_a_sign"])
_COMPACT = _rx(
    r"(?<![A-Za-z_])(?:\|(?P<abs>" + _alt(k for k in _ABBR if not k.endswith("-")) + r")\|\s*=\s*"
    r"|(?P<abbr>" + _alt(_ABBR) + r")(?P<sep>\s*[=:]\s*|[ \t-]?))"
    r"(?P<num>\d+(?:\.\d+)?(?:e-?\d+)?)(?P<k>[kK]|M(?![A-Za-z]))?(?!\d|\.\d|[kK])"
)
_ABBR_DETAIL = _EN["abbreviation_detail"]
_PER_CHIP = _rx(r"\s*(?:per|/|a|each)\s*(?:chip|device|GPU|TPU|accelerator|rank)\b", _I)
_THRESHOLD = _rx(r"(?<![\w])(?:" + _EN["threshold_words"] + r")\s*(?:(?:about|roughly|approximately|only)\s+|~\s*)*$", _I)
_SYMBOLS = {k: v for k, v in _EN["symbols"].items() if not k.startswith("_")}
_SYMBOL = _rx(r"(?<![\w\\/])(?P<sym>" + _alt(_SYMBOLS) + r")(?:_\s*\w+)?\s*(?:(?P<cmp>=|>=?|<=?|≥|≤)|(?P<words>" + _EN["threshold_words"]
              + r"))\s*(?:(?:about|roughly|approximately)\s+|~\s*)?(?=[(\d])")
_UNIT_LABEL = _rx(r"(?P<u>(?P<p>[kmgtpe]|kilo|mega|giga|tera|peta|exa)?\s*flops?\s*/\s*s(?:ec)?|tokens?\s*/\s*s(?:ec)?(?P<chip>\s*/\s*(?:device|gpu|chip|accelerator|tpu))?)"
                  r"\s*\)?\s*[:=]\s*(?:~\s*)?$", _I)
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


_CHIP_CORE = (r"(?:(?:NVIDIA|Nvidia|AMD|Google|Intel)\s+)?(?:Tesla\s+)?(?:" + "|".join(_flex(n) for n in sorted(_chip_names(), key=len, reverse=True))
              + r"|TPU\s?v?\d+[a-z]*|MI\d{3}[A-Z]?|GB\d{3}(?:\s?NVL\d+)?|(?!(?:TP|PP|DP|EP|CP|SP|MP|VP|BS|SL)\d)[A-Z]{1,2}\d{2,4}[A-Z]?|Gaudi\s?\d|Trillium|Ironwood)")
_CHIP_AFTER = _rx(r"[ \t]*[x×]?[ \t]*(?P<name>" + _CHIP_CORE + r")(?P<pl>s)?(?:[ \t]+(?:SXM\d?|PCIe|\d+\s?GB))?"
                         r"(?:[ \t]+(?:GPUs?|chips?|TPUs?|accelerators?|devices?|cards?))?(?![\w])")
_GROUP_AFTER = _rx(r"[ \t]+((?:super)?pods?|SuperPODs?|slices?|nodes?|hosts?|servers?|machines?|racks?|systems?)\b", _I)
_CHIP_BEFORE = _rx(r"(?<![\w])(?:" + _CHIP_CORE + r")[ \t-]?$")
_PRODUCT = _rx(r"(?<![\w.])(?P<a>\d+)\s*[x×]\s*(?P<b>\d+)(?=\s*(?:" + _CHIP_CORE + r"|GPUs?|TPUs?|chips?|accelerators?|devices?)(?![\w]))")
_FAMILY = _EN["model_family"]
_MODEL = _rx(r"(?P<name>(?:" + _FAMILY + r")(?:[- ]?(?:v|V|R|K)?\d+(?:\.\d+)*)?(?:[- ](?:Instruct|Base|Chat))?)"
                    r"(?:[- ](?P<size>\d+(?:\.\d+)?[BMT])(?:-A(?P<act>\d+(?:\.\d+)?[BMT]))?)?(?![\w.])")
_MOE_NAME = _rx(r"(?<![\w.])(?P<size>\d+(?:\.\d+)?[BT])-A(?P<act>\d+(?:\.\d+)?[BMT])(?![\w])")
_BOUNDARY = _rx(_EN["boundaries"] + r"|[،؛؟]")
_FROM = _rx(r"(?:(?<![\w])(?:" + _EN["from_to"]["from"] + "|" + _ARW["from_to"]["from"] + r")\s*(?:~\s*)?)$", _I)
_ARROW = _rx(r"^\s*(?:→|->|⟶|=>|⇒)\s*$")
_TO = _rx(r"^\s*(?:" + _EN["from_to"]["to"] + "|" + _ARW["from_to"]["to"] + r")\s*$", _I)
_RANGE_DASH = _rx(r"^\s?[–-]\s?$")
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
_OR = _rx(r"^\s*(?:or|and|to|,)\s*$")
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


# ------------------------------------------------------------------------------------------- reading

class _Fig:
    """A figure while it is being read; frozen into a Figure at the end (a plain class: no dataclass to build at import)."""

    __slots__ = ("start", "end", "quantity", "value", "unit", "approx", "chip", "model", "role", "detail", "raw", "scale",
                 "generic", "expression", "pair")

    def __init__(self, start: int, end: int, quantity: str, value: float, unit: str | None = None, approx: bool = False,
                 chip: str | None = None, model: str | None = None, role: str | None = None, detail: dict | None = None,
                 raw: float = 0.0, scale: float = 1.0, generic: bool = True, expression: bool = False,
                 pair: "_Fig | None" = None):
        self.start, self.end, self.quantity, self.value, self.unit, self.approx = start, end, quantity, value, unit, approx
        self.chip, self.model, self.role, self.detail = chip, model, role, detail
        self.raw = raw                  # the number as written, multiplier applied, before unit conversion
        self.scale = scale              # value = raw * scale, so a partner in "from 100 to 128 tokens/s" can borrow it
        self.generic = generic          # the quantity is a fallback, not read from a unit, noun, cue or notation
        self.expression = expression
        self.pair = pair


_CHIP_CACHE: dict[str, str | None] = {}
_MODEL_CACHE: dict[str, str | None] = {}


def _chip_id(name: str) -> str | None:
    """The catalog id of a chip name as written ("H100s", "TPU v4"), or None."""
    if name not in _CHIP_CACHE:
        found = None
        for candidate in (name, re.sub(r"s$", "", name), re.sub(r"^(?:NVIDIA|Nvidia|AMD|Google|Intel)\s+", "", name)):
            key = catalog.normalise_name(candidate)
            if key in catalog.hardware()._index:
                found = catalog.hardware()._index[key]["id"]
                break
        _CHIP_CACHE[name] = found
    return _CHIP_CACHE[name]


def _model_id(name: str) -> str | None:
    if name not in _MODEL_CACHE:
        entry = catalog.models()._index.get(catalog.normalise_name(name))
        _MODEL_CACHE[name] = entry["id"] if entry else None
    return _MODEL_CACHE[name]


def _ar_number(words: str) -> tuple[float, bool]:
    """The value of Arabic number words ("ألفين وثمانية وأربعين" = 2048) and whether it is a weak reading."""
    parts = [_AR_PARTICLE.sub("", w) if _AR_PARTICLE.sub("", w) in _AR_WORDS else w
             for w in _AR_SPLIT.findall(words)]
    total, current = 0.0, 0.0
    for word in parts:
        value = _AR_WORDS[word]
        if word in _AR_TEEN and 0 < current < 10:
            current += 10
        elif value == 100 and 0 < current < 10:
            current *= 100
        elif value >= 1000:
            total += (current or 1) * value if word not in ("ألفان", "ألفين", "مليونان", "مليونين", "ملياران", "مليارين") or not current else current * value
            current = 0
        else:
            current += value
    weak = len(parts) == 1 and (parts[0] in _AR_WEAK or parts[0] in _AR_PLURAL_SCALE)
    return total + current, weak


def _number(match: "_Tok") -> tuple[float, str]:
    """The value of a token, multiplier applied, and the multiplier as written."""
    if match.group("enw"):
        scale = match.group("enm")
        return float(_EN_WORDS[match.group("enw").lower()]) * (_MULTS.get(scale, 1.0) if scale else 1.0), ""
    if match.group("arw"):
        return _ar_number(match.group("arw"))[0], ""
    value = float(match.group("num").replace(",", ""))
    if match.group("pow"):
        sup = re.search(r"[⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+$", match.group("pow"))
        value *= 10.0 ** int(sup.group().translate(_SUPS) if sup else re.search(r"[+-]?\d+$", match.group("pow")).group())
    mult = match.group("m1") or match.group("m1b") or match.group("m2") or match.group("m3") or ""
    factor = _MULTS.get(mult) or _MULTS.get(mult.lower()) or 1.0
    return value * factor, mult


class _Reader:
    """The state of one read: the text, protected spans, tokens, and the figures found so far."""

    def __init__(self, text: str):
        self.text = text
        self.norm = text.translate(_DIGITS) if _HAS_AR_DIGIT.search(text) else text
        if _HAS_MARKUP.search(self.norm):
            self.norm = _clean_markup(self.norm)
        self.figs: list[_Fig] = []
        # one byte per character: 1 where a name or a figure already stands, so overlap tests are one find()
        self.taken = bytearray(len(text))
        self.protected = bytearray(len(text))
        self.has_digit = _HAS_DIGIT.search(self.norm) is not None
        self.tokens = _tokens(self.norm)
        self.token_starts = [m.start() for m in self.tokens]
        self.hints: dict[int, str] = {}
        self.result_hints: dict[int, str] = {}  # expression start: what its stated result measures
        self.assigned: dict[int, str] = {}      # expression start: the symbol it is assigned to ("W=2 * 9e10")
        self._bounds: list[int] | None = None  # clause boundaries and word starts, found when first needed
        self._starts: list[int] | None = None
        self._word: dict[int, str] = {}
        self.moe_candidates: list[re.Match] = []
        self.product_candidates: list[re.Match] = []

    # -- helpers

    @property
    def bounds(self) -> list[int]:
        if self._bounds is None:
            self._bounds = [m.start() for m in _BOUNDARY.finditer(self.norm)]
        return self._bounds

    @property
    def starts(self) -> list[int]:
        """Where words start; after an Arabic conjunction or preposition written onto the word, too ("وحجم")."""
        if self._starts is None:
            if _HAS_AR.search(self.norm):
                self._starts = [p for m in _CHUNK.finditer(self.norm)
                                for p in ((m.start(), m.start() + 1) if m.group(0)[0] in "وبلف" and len(m.group(0)) > 3 else (m.start(),))]
            else:
                self._starts = [m.start() for m in _CHUNK.finditer(self.norm)]
        return self._starts

    def clause(self, start: int, end: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.bounds, start - 1)
        lo = self.bounds[i - 1] + 1 if i else 0
        j = bisect.bisect_left(self.bounds, end)
        hi = self.bounds[j] if j < len(self.bounds) else len(self.norm)
        return max(lo, start - _WINDOW_BEFORE), min(hi, end + _WINDOW_AFTER)

    def is_free(self, start: int, end: int) -> bool:
        return self.taken.find(1, start, end) < 0 and self.protected.find(1, start, end) < 0

    def in_protected(self, start: int, end: int) -> bool:
        return self.protected.find(1, start, end) >= 0

    def protect_span(self, start: int, end: int) -> None:
        self.protected[start:end] = b"\x01" * (end - start)

    def number_between(self, a: int, b: int) -> bool:
        """Whether another number stands between a cue and this number (the cue then belongs to it)."""
        i = bisect.bisect_left(self.token_starts, a)
        return i < len(self.token_starts) and self.token_starts[i] < b

    def add(self, fig: _Fig) -> _Fig:
        fig.approx = fig.approx or self.approx_at(fig.start, fig.end)
        self.figs.append(fig)
        if not fig.expression:
            self.taken[fig.start:fig.end] = b"\x01" * (fig.end - fig.start)
        return fig

    def approx_at(self, start: int, end: int) -> bool:
        return bool(_APPROX_BEFORE.search(self.norm, max(0, start - 20), start) or _APPROX_AFTER.match(self.norm, end))

    def cue(self, cls: str, start: int, end: int) -> dict | None:
        """The cue for a unit class nearest to the number, in the same clause, not claimed by another number."""
        lo, hi = self.clause(start, end)
        # words beyond the next number on either side are its cues, not this one's
        i = bisect.bisect_left(self.token_starts, start)
        if i:
            lo = max(lo, self.token_starts[i - 1] + 1)
        j = bisect.bisect_left(self.token_starts, end)
        if j < len(self.token_starts):
            hi = min(hi, self.token_starts[j])
        best, best_distance = None, 10**9
        norm = self.norm
        table = _CUE_BEFORE.get(cls)
        if table:  # word starts nearest first; a match tried only where a word starts keeps this cheap
            for pos in reversed(self.starts_in(lo, start)):
                found = table.match(norm, pos, start, self.word(pos))
                if not found:
                    continue
                entry, m = found
                distance = start - m.end()
                if distance <= entry.get("max_gap", 10**6) and not self.number_between(m.end(), start):
                    best, best_distance = entry, distance
                break
        table = _CUE_AFTER.get(cls)
        if table:
            for pos in self.starts_in(end, hi):
                if pos - end >= best_distance:
                    break
                found = table.match(norm, pos, hi, self.word(pos))
                if not found:
                    continue
                if pos - end <= found[0].get("max_gap", 10**6) and not self.number_between(end, pos):
                    best = found[0]
                break
        return best

    def word(self, pos: int) -> str:
        """The letters of the word at pos, lower-cased, which pick the patterns worth trying there."""
        found = self._word.get(pos)
        if found is None:
            m = _LETTERS.search(self.norm, pos, pos + 8)
            found = self._word[pos] = m.group(0).lower() if m else ""
        return found

    def starts_in(self, lo: int, hi: int) -> list[int]:
        """Where words start between lo and hi."""
        return self.starts[bisect.bisect_left(self.starts, lo):bisect.bisect_left(self.starts, hi)]

    def key_before(self, start: int) -> dict | None:
        found = None
        i = bisect.bisect_left(self.token_starts, start)
        lo = max(start - 40, self.token_starts[i - 1] + 1 if i else 0)  # a key phrase is never past another number
        for pos in self.starts_in(lo, start):  # farthest first: the longest key phrase wins
            found = _KEY_TABLE.match(self.norm, pos, start, self.word(pos))
            if found:
                break
        if not found:
            return None
        entry = found[0]
        if "needs_nearby" in entry:
            lo, hi = self.clause(start, start)
            if not re.search(entry["needs_nearby"], self.norm[max(0, lo - 40):hi], _I):
                return None
        return entry

    # -- passes

    def protect(self) -> None:
        norm = self.norm
        for pattern in (_LIST_MARK, _CLUTTER_LINE) if self.has_digit else ():  # both need a digit
            for m in pattern.finditer(norm):
                self.protect_span(*m.span())
        # every name pattern holds a digit, so names are looked for only around the numbers
        for t in self.tokens:
            if t.group("num") is None:
                continue
            s, e = t.start("num"), t.end()
            m = _NAMES_DIGIT.match(norm, s)
            if m:
                self.protect_span(*m.span())
            for m in _NAMES_WORD.finditer(norm, max(0, s - 16), min(len(norm), e + 4)):
                if m.start() <= s < m.end():
                    self.protect_span(*m.span())
            i = bisect.bisect_right(self.starts, s) - 1
            if i >= 0 and _LINK_CHUNK.match(norm, self.starts[i]):
                self.protect_span(s, e)
            m = _MOE_NAME.match(norm, s)
            if m:
                self.moe_candidates.append(m)
            m = _PRODUCT.match(norm, s)
            if m:
                self.product_candidates.append(m)
        for m in _MODEL.finditer(norm):
            if (not m.start() or not (norm[m.start() - 1].isalnum() or norm[m.start() - 1] == "-")) and not self.in_protected(*m.span()):
                self.model_name(m, _model_id(m.group(0)))

    def model_name(self, m: re.Match, model: str | None) -> None:
        """A model's name is not a figure, but the size in it ("Llama 3 70B", "Qwen3-30B-A3B") is."""
        sized = _MODEL.fullmatch(m.group(0)) or _MODEL.match(m.group(0))
        offset = m.start()
        if sized and sized.group("size") and "x" not in m.group(0).lower().split()[-1][:3]:
            self.protect_span(offset, offset + sized.start("size"))
            self.moe_name(sized, offset, model)
        else:
            self.protect_span(*m.span())

    def moe_name(self, m: re.Match, offset: int, model: str | None) -> None:
        size = m.group("size")
        value, _ = _number(_Tok(_DIGIT_TOKEN.match(size), size))
        s = offset + m.start("size")
        self.add(_Fig(s, s + len(size), "params", value, model=model, raw=value, generic=False))
        if m.group("act"):
            s = offset + m.start("act") - 1  # the quote keeps the "A" of "A3B"
            value, _ = _number(_Tok(_DIGIT_TOKEN.match(m.group("act")), m.group("act")))
            self.add(_Fig(s, offset + m.end("act"), "active_params", value, model=model, raw=value, generic=False))

    def moe_names(self) -> None:
        for m in self.moe_candidates:
            if self.is_free(*m.span()):
                self.moe_name(m, 0, None)

    def products(self) -> None:
        """`8×8 H100`: nodes times chips per node."""
        for m in self.product_candidates:
            if not self.is_free(*m.span()):
                continue
            a, b = int(m.group("a")), int(m.group("b"))
            tail = _CHIP_AFTER.match(self.norm, m.end())
            end, chip = m.end(), None
            if tail:
                end, chip = tail.end(), _chip_id(tail.group("name"))
            else:
                noun = _NOUNS.match(self.norm, m.end())
                end = noun.end() if noun else end
            self.add(_Fig(m.start(), end, "n_chips", float(a * b), chip=chip, raw=float(a * b), generic=False,
                          detail={"n_nodes": a, "chips_per_node": b}))

    def compact(self) -> None:
        if not self.has_digit:  # every compact notation ends in digits
            return
        for m in _COMPACT.finditer(self.norm):
            abbr = m.group("abs") or m.group("abbr")
            if abbr in _SIGN_ONLY and not (m.group("abs") or "=" in m.group("sep") or ":" in m.group("sep")):
                continue
            if m.group("sep") == "-" and abbr not in ("ZeRO", "Zero", "ZERO", "top-", "Top-", "TP", "PP", "DP", "EP", "CP"):
                continue
            if not self.is_free(m.start("num"), m.end()):
                continue
            if abbr == "FSDP" and not m.group("sep") and m.group("num") in ("1", "2"):
                continue  # FSDP1 and FSDP2 are PyTorch's two implementations, not degrees
            quantity = _ABBR[abbr]
            raw = float(m.group("num"))
            end = m.end()
            if m.group("k") == "M":
                raw *= 1e6
            elif m.group("k"):
                raw *= 1024 if quantity == "seq_len" and _SEQ_K.match(m.group("num")) else 1000
            if quantity == "global_batch_sequences":  # "BS=2M" is tokens; "BS=850 per TPU" one chip's share
                per = _PER_CHIP.match(self.norm, end)
                if per:
                    end = per.end()
                    quantity = "micro_batch" if raw < 128 else self.critical("tokens_per_chip", m.start())
                elif raw >= 1e5:
                    quantity = "global_batch_tokens"
            detail = _ABBR_DETAIL.get(abbr)
            start = m.start() if m.group("abs") is None else m.start()
            self.add(_Fig(start, end, quantity, raw, raw=raw, generic=False, detail=dict(detail) if detail else None))

    def critical(self, quantity: str, start: int) -> str:
        """A per-chip batch stated as a minimum ("must be at least 2,550", "> 400") is the critical batch."""
        if quantity == "tokens_per_chip" and _THRESHOLD.search(self.norm, max(0, start - 40), start):
            return "critical_tokens_per_chip"
        return quantity

    def symbols(self) -> None:
        """Formula letters given a value: "C=4.6e14", "$F=32,768$", "W=2 * 9e10", "$B/N > 400$"."""
        if not self.has_digit or "=" not in self.norm and ">" not in self.norm and "exceed" not in self.norm and "least" not in self.norm:
            return
        for m in _SYMBOL.finditer(self.norm):
            at = m.end()
            while self.norm[at:at + 1] in "( ":
                at += 1
            expr = _EXPR.match(self.norm, m.end())
            if expr and m.group("cmp") == "=" and _EXPR_NEEDS.search(expr.group(0)):
                self.assigned[_balanced(self.norm, *expr.span())[0]] = m.group("sym")
                continue
            i = bisect.bisect_left(self.token_starts, at)
            if i >= len(self.token_starts) or self.token_starts[i] != at:
                continue
            tok = self.tokens[i]
            if tok.group("num") is None or not self.is_free(at, tok.end()):
                continue
            raw, _ = _number(tok)
            quantity = _symbol_quantity(m.group("sym"), raw)
            if quantity is None:
                continue
            if quantity == "tokens_per_chip" and (m.group("words") or (m.group("cmp") or "").startswith((">", "≥"))):
                quantity = "critical_tokens_per_chip"
            self.add(_Fig(at, tok.end(), quantity, raw, raw=raw, generic=False))

    def unit_label(self, start: int, end: int, raw: float) -> "_Fig | None":
        """A number after its unit as a label: "peak hardware tflop/s=459", "Tokens/s/device: 8672.758"."""
        m = _UNIT_LABEL.search(self.norm, max(0, start - 40), start)
        if not m:
            return None
        if m.group("p") is not None or "flop" in m.group("u").lower():
            scale = _PREFIX_SCALE.get((m.group("p") or "").lower(), 1.0)
            return _Fig(start, end, "peak_flop_per_s", raw * scale, unit=m.group("u"), raw=raw, scale=scale, generic=False)
        quantity = "tokens_per_s_per_chip" if m.group("chip") else "tokens_per_s"
        return _Fig(start, end, quantity, raw, unit=m.group("u"), raw=raw, generic=False)

    def expressions(self) -> None:
        if not _HAS_EXPR.search(self.norm):
            return
        for m in _EXPR.finditer(self.norm):
            start, end = _balanced(self.norm, *m.span())
            source = self.norm[start:end]
            if not _EXPR_NEEDS.search(source) or len(re.findall(r"\d[\d,.]*", source)) < 2:
                continue
            if self.in_protected(start, end) or self.taken.find(0, start, end) < 0:
                continue
            if re.fullmatch(r"\s*\d+\s*/\s*\d+\s*", source) and "/" in source and self.norm[end:end + 1] == "/":
                continue  # a date or path, not a division
            if end < len(self.norm) and self.norm[end] in "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻^":
                continue  # "6.3 × 10²⁴" is one number, not 6.3 times 10
            value = _evaluate(source)
            if value is None:
                continue
            roles = _operand_roles(self.norm, start, end)
            if -1 in roles:
                self.result_hints[start] = roles.pop(-1)
            self.hints.update(roles)
            symbol = self.assigned.get(start)
            quantity = _symbol_quantity(symbol, value) if symbol else None
            self.add(_Fig(start, end, quantity or "expression", value, raw=value, generic=False, expression=True))

    def duals(self) -> None:
        """Arabic dual time words ("أسبوعين", two weeks) are a number and a unit in one word; so are dual counts
        ("حاسوبين عملاقين", two supercomputers)."""
        if not _HAS_AR.search(self.norm):
            return
        for m in _AR_DUAL_COUNT.finditer(self.norm):
            if (not m.start() or not "\u0600" <= self.norm[m.start() - 1] <= "\u06FF") and self.is_free(*m.span()):
                self.add(_Fig(m.start(), m.end(), _AR_DUAL_COUNTS[m.group(1)], 2.0, raw=2.0, generic=False))
        for m in _AR_DUAL.finditer(self.norm):
            if (not m.start() or not "\u0600" <= self.norm[m.start() - 1] <= "\u06FF") and self.is_free(*m.span()):
                seconds = float(_AR_DUALS[m.group(1)])
                self.add(_Fig(m.start(), m.end(), "time_s", seconds, unit=m.group(1), raw=2.0, scale=seconds / 2, generic=False))

    def generic(self) -> None:
        for m in self.tokens:
            start = m.start("num") if m.group("num") else m.start()
            if not self.is_free(start, m.end()):
                continue
            fig = self.read_token(m, start)
            if fig:
                self.add(fig)

    def read_token(self, m: re.Match, start: int) -> _Fig | None:
        """One number read with what follows it (unit, noun, chip) and the words around it."""
        norm = self.norm
        raw, mult = _number(m)
        end = m.end()
        word = bool(m.group("enw") and not m.group("enm") or m.group("arw"))
        weak = bool(m.group("enw") and not m.group("enm")) or (bool(m.group("arw")) and _ar_number(m.group("arw"))[1])
        if m.group("arw"):
            lead = _AR_PARTICLE.match(m.group("arw"))
            if lead and _AR_FIRST_LETTER.sub("", m.group("arw").split()[0]) in _AR_WORDS and m.group("arw").split()[0] not in _AR_WORDS:
                start += 1
        if m.group("cur"):
            return _Fig(m.start(), end, "cost_usd", raw, unit=m.group("cur").strip(), raw=raw, generic=False)
        sci = bool(m.group("num") and re.search(r"[eE]", m.group("num")) or m.group("pow"))
        at = _UNIT_AT.match(norm, end).end()
        unit = _UNITS.match(norm, at)
        if unit and _which(unit, _UNIT_ENTRIES)["class"] in ("chip_hours", "chip_days") and not word:
            return self.read_unit(m, start, unit, raw, mult)  # "180K H800 GPU hours" before "180K H800 GPUs"
        # "2x A100", "512 H100s", "6144 TPU v4 chips"
        chip = _CHIP_AFTER.match(norm, end)
        if chip and mult in ("", "k", "K", "M") and not word:
            group = _GROUP_AFTER.match(norm, chip.end())
            if group:  # "5 TPUv5 pods", "4 DGX H100 nodes": units of the chip, not chips
                quantity = "n_pods" if group.group(1)[0].lower() in "ps" else "n_nodes"
                return _Fig(start, group.end(), quantity, raw, chip=_chip_id(chip.group("name")), raw=raw, generic=False)
            cue = self.cue("chips", start, chip.end())
            quantity = cue["quantity"] if cue else "n_chips"
            return _Fig(start, chip.end(), quantity, raw, chip=_chip_id(chip.group("name")), raw=raw, generic=False)
        way = _WAY.match(norm, end)
        if way:
            return self.read_way(start, way.end(), raw)
        # a unit (%, GB/s, TFLOP/s, hours, ...) right after the number
        if unit and word and _which(unit, _UNIT_ENTRIES)["class"] != "time":
            unit = None  # "two months" is a time, but "one s" is not a second
        if unit and not (unit.group(0) in ("s", "h", "d", "us") and mult):
            return self.read_unit(m, start, unit, raw, mult)
        noun = _NOUNS.match(norm, end)
        if noun and noun.group(0).lstrip().startswith("--"):
            noun = None  # the next command-line flag ("--micro-batch-size"), not a noun
        if noun:
            entry = _which(noun, _NOUN_ENTRIES)
            if entry.get("needs_magnitude") and not (mult or raw >= 1e6):
                noun = None
            elif word and entry["class"] not in _EN_NOUNS_WEAK_OK:
                noun = None
        if noun:
            return self.read_noun(start, noun, _which(noun, _NOUN_ENTRIES), raw, mult)
        if weak:
            return None
        later = _NOUN_LATER.match(norm, end) if mult else None
        if later:
            cls = {"tokens": "tokens", "parameters": "params", "params": "params"}.get(later.group("n"), "chips")
            entry = next(e for e in _NOUN_ENTRIES if e["class"] == cls)
            cue = self.cue(cls, start, end)
            quantity = cue["quantity"] if cue else entry["quantity"]
            return _Fig(start, end, quantity, raw, raw=raw, generic=False)
        return self.read_bare(m, start, end, raw, mult, sci)

    def read_way(self, start: int, end: int, raw: float) -> _Fig:
        """"8-way tensor parallel", "tensor parallelism (4-way)", "64-way EP"."""
        after = _KEY_AFTER.match(self.norm, end)
        quantity = None
        if after:
            quantity = _which(after, _KEYS)["quantity"]
        else:
            abbr = re.match(r"\s*(" + _alt(k for k in _ABBR if not k.endswith("-")) + r")\b", self.norm[end:end + 8])
            if abbr:
                quantity = _ABBR[abbr.group(1)]
            else:
                before = re.search(r"(?:" + "|".join(f"(?:{e['pattern']})" for e in _KEYS[:7]) + r"|\b(?:TP|PP|DP|EP|CP|FSDP))\s*\(?\s*$",
                                   self.norm[max(0, start - 50):start], _I)
                if before:
                    found = _KEY_BEFORE.search(before.group(0).rstrip(" (") + " ")
                    quantity = _which(found, _KEYS)["quantity"] if found else _ABBR.get(before.group(0).strip(" ("))
        return _Fig(start, end, quantity or "parallel_degree", raw, raw=raw, generic=quantity is None)

    def read_unit(self, m: re.Match, start: int, unit: re.Match, raw: float, mult: str) -> _Fig | None:
        entry = _which(unit, _UNIT_ENTRIES)
        cls, kind, written = entry["class"], entry["kind"], unit.group(0).strip()
        end = unit.end()
        number = m.group("num").replace(",", "") if m.group("num") else str(raw)
        if m.group("pow") or (mult and kind != "count"):
            number = repr(raw)
        try:
            if kind == "fraction":
                value, scale = raw / 100.0, 0.01
            elif kind == "seconds":
                seconds = _seconds(written)
                value, scale = raw * seconds, seconds
            elif kind == "count":
                value, scale = raw, 1.0
            elif kind == "power":
                scale = {"k": 1e3, "M": 1e6, "G": 1e9}.get(written[:1], 1.0) if written[:1] in "kMG" and written[1:2] == "W" else 1.0
                scale = 1e3 if written.lower().startswith("kilo") else 1e6 if written.lower().startswith("mega") else scale
                value = raw * scale
            else:
                value = parse_text(entry["quantity"], f"{number} {_normalise_unit(written, kind)}", kind)
                scale = value / raw if raw else 1.0
        except (CalculatorInputError, KeyError, ValueError):
            return None
        quantity, sign = entry["quantity"], 1
        key = self.key_before(m.start())
        cue = self.cue(cls, start, end)
        if key and cls in ("percent", "time", "tokens_per_s", "rate", "flop_rate", "bytes", "flops"):
            quantity = key.get("if_unit", {}).get(cls, key["quantity"])
        elif cue:
            quantity, sign = cue["quantity"], cue.get("sign", 1)
            if cue.get("as_rate"):  # "163 TFLOPs per GPU" is sloppy for TFLOP/s per GPU
                value = parse_text(quantity, f"{number} {_normalise_unit(written, 'flops')}/s", "flop_per_s")
                scale = value / raw if raw else 1.0
                end = self.cue_end(end, cue)
        if cls == "flop_rate":
            peak_after = _PEAK_AFTER.match(self.norm, end) is not None
            if cue and not key and not peak_after and value >= cue.get("total_if_at_least", math.inf):
                quantity = "flop_per_s"  # "~54-90 petaFLOPS effective": achieved, and more than one chip's
            elif value >= 1e17:  # more than any one chip delivers: the job's or the system's total
                quantity = "peak_flop_per_s_total" if peak_after or cue and not key and cue["quantity"] == "peak_flop_per_s" else "flop_per_s"
        if cls == "flops" and quantity == "total_flops" and not cue and not key and 1e11 <= value < 1e17 \
                and _rx(r"\b(?:each|per|chips?|GPUs?|TPUs?|devices?)\b", _I).search(self.norm, *self.clause(start, end)):
            quantity = "peak_flop_per_s"  # "each with 4.59e14 FLOPs": a chip's rate written as FLOPs; no run is that small
        if cls == "bytes" and quantity == "bytes" and self.beside_chip(start, end):
            quantity = "hbm_bytes"  # "H100-80GB", "80GB H100": the chip's memory
        if cls == "chip_hours":
            chip = re.match(r"(H100|H800|A100|H200|B200)", written)
            if chip:
                return _Fig(start, end, quantity, value, unit="GPU hours", chip=_chip_id(chip.group(1)), raw=raw, scale=scale, generic=False)
        if cls == "percent" and quantity == "percent_change":
            value, scale = value * sign, scale * sign
        if cls == "ratio" and quantity == "ratio":
            quantity = "ratio"
        unit_text = entry.get("unit") or written
        if cls == "percent":
            unit_text = "%"
        return _Fig(start, end, quantity, value, unit=unit_text, raw=raw, scale=scale,
                    generic=quantity == entry["quantity"] and cls == "percent")

    def beside_chip(self, start: int, end: int) -> bool:
        before = self.norm[max(0, start - 24):start]
        return bool(_CHIP_BEFORE.search(before) or _CHIP_AFTER.match(self.norm, end) and _CHIP_AFTER.match(self.norm, end).group("name"))

    def cue_end(self, end: int, cue: dict) -> int:
        m = _rx(r"\s*(?:" + cue["after"] + ")", _I).match(self.norm, end)
        return m.end() if m else end

    def read_noun(self, start: int, noun: re.Match, entry: dict, raw: float, mult: str) -> _Fig:
        cls = entry["class"]
        key = self.key_before(start)
        cue = self.cue(cls, start, noun.start())  # the noun phrase's own words ("data parallel ranks") are cues too
        quantity = entry["quantity"]
        if key and key.get("if_unit", {}).get(cls):
            quantity = key["if_unit"][cls]
        elif key and cls in ("tokens", "sequences") and key["quantity"] in ("seq_len", "micro_batch"):
            quantity = key["quantity"]
        elif cue:
            quantity = cue["quantity"]
        value = raw
        if quantity == "seq_len" and mult in ("k", "K") and _SEQ_K.match(f"{raw / 1000:g}"):
            value = raw / 1000 * 1024
        end, chip = noun.end(), None
        if cls == "chips":  # "256 وحدة معالجة رسومات H100", "1024 chips (TPU v5p)"
            named = _CHIP_AFTER.match(self.norm, end)
            if named and named.group("name"):
                end, chip = named.end(), _chip_id(named.group("name"))
        return _Fig(start, end, quantity, value, chip=chip, raw=raw, scale=value / raw if raw else 1.0, generic=False)

    def read_bare(self, m: re.Match, start: int, end: int, raw: float, mult: str, sci: bool) -> _Fig | None:
        """A number with no unit: its quantity from a key phrase, the words around it, or its size."""
        norm = self.norm
        key = self.key_before(m.start())
        if key:
            quantity = key["quantity"]
            if "if_at_least" in key and raw >= key["if_at_least"]["value"]:
                quantity = key["if_at_least"]["quantity"]
            value = raw
            if quantity == "seq_len" and mult in ("k", "K") and _SEQ_K.match(f"{raw / 1000:g}"):
                value = raw / 1000 * 1024
            if quantity in ("mfu", "hfu", "bubble_fraction") and value > 1:
                value /= 100.0
            if quantity in ("global_batch_sequences", "global_batch_tokens"):
                per = _PER_CHIP.match(norm, end)
                if per:  # "a batch size of 4 per GPU" is one chip's share
                    quantity, end = ("micro_batch" if raw < 128 else "tokens_per_chip"), per.end()
            quantity = self.critical(quantity, start)
            return _Fig(start, end, quantity, value, raw=raw, scale=value / raw if raw else 1.0, generic=False)
        if start in self.hints:  # an operand of a textbook formula (6 × N × D, FLOPs / (chips × FLOP/s × MFU))
            return _Fig(start, end, self.hints[start], raw, raw=raw, generic=False)
        label = self.unit_label(start, end, raw)
        if label:
            return label
        if not mult and any(_INDEX_TABLE.match(norm, pos, start, self.word(pos)) for pos in self.starts_in(max(0, start - 24), start)):
            return None
        if not mult and not sci and raw == int(raw) and 1950 <= raw <= 2039 and "," not in m.group(0):
            return None  # a year
        after = _KEY_AFTER.match(norm, end)
        if after and _which(after, _KEYS)["quantity"] in ("mfu", "hfu"):
            return _Fig(start, end, _which(after, _KEYS)["quantity"], raw, raw=raw, generic=False)
        if mult in _MAGNITUDE_DEFAULT or mult.lower() in ("b", "t", "bn"):
            cue = self.cue("magnitude", start, end)
            quantity = cue["quantity"] if cue else _MAGNITUDE_DEFAULT.get(mult, "params")
            return _Fig(start, end, quantity, raw, raw=raw, generic=False)
        if mult:
            cue = self.cue("magnitude", start, end)
            return _Fig(start, end, cue["quantity"] if cue else "count", raw, raw=raw, generic=cue is None)
        cue = self.cue("bare", start, end)
        if cue and 0 < raw < 1:
            return _Fig(start, end, cue["quantity"], raw, raw=raw, generic=False)
        if sci:
            lo, hi = self.clause(start, end)
            if raw >= 1e18:
                return _Fig(start, end, "total_flops", raw, raw=raw, generic=False)
            if 1e11 <= raw < 1e17 and _FLOP_WORD.search(norm, lo, hi):
                return _Fig(start, end, "peak_flop_per_s", raw, raw=raw)
        return _Fig(start, end, "number", raw, raw=raw)

    # -- after the numbers are read

    def pairs(self) -> None:
        """"from 9% to 5%": the old and new value of one quantity; "8-16 GPUs": a range."""
        figs = sorted((f for f in self.figs if not f.expression), key=lambda f: f.start)
        for a, b in zip(figs, figs[1:]):
            between = self.norm[a.end:b.start]
            if len(between) > 12:
                continue
            before = _FROM.search(self.norm, max(0, a.start - 24), a.start)
            if (before and _TO.match(between)) or _ARROW.match(between):
                role = ("before", "after")
            elif _RANGE_DASH.match(between) or (before is None and re.match(r"^\s*(?:to|–)\s*$", between)):
                role = ("low", "high")
            elif _OR.match(between) and a.quantity == "number" and not b.generic and b.unit is None:
                a.quantity, a.chip, a.generic = b.quantity, b.chip, False  # "8 or 128 H100 GPUs"
                continue
            else:
                continue
            if role[0] == "low" and not (a.generic or b.generic):
                continue
            for x, y in ((a, b), (b, a)):  # "47–48%", "30-50%": the bare end is a percentage too
                if x.quantity == "number" and x.unit is None and y.unit == "%":
                    x.quantity, x.unit, x.scale, x.value = y.quantity, "%", y.scale, x.raw * y.scale
            _share(a, b)
            a.role, b.role = role
            a.pair, b.pair = b, a
        exprs = [f for f in self.figs if f.expression]
        fig_starts = [f.start for f in figs]
        for e in exprs:
            for f in figs[bisect.bisect_left(fig_starts, e.end):]:
                between = self.norm[e.end:f.start]
                if len(between.strip()) > 10:  # longer than "is roughly": no later figure can be the result either
                    break
                if _RESULT.match(between):
                    f.role = "result"
                    if f.quantity == "number" and e.start in self.result_hints:
                        f.quantity, f.generic = self.result_hints[e.start], False
                    break

    def sentence_start(self, start: int) -> int:
        m = _SENTENCE_END.search(self.norm, max(0, start - 300), start)
        return m.end() if m else max(0, start - 300)

    def subjects(self) -> None:
        """What a bare percentage or factor measures, from its sentence: "MFU increases from 41% to 47-48%",
        "reducing execution time overhead ... by over 90%", "reduces activation memory by 5x", "8-way and 16-way tensor and
        pipeline parallelism, respectively", "each of them has 4000 chips" in a sentence about supercomputers (pods)."""
        norm = self.norm
        figs = sorted((f for f in self.figs if not f.expression), key=lambda f: f.start)
        for i, f in enumerate(figs):
            if f.quantity == "percent" and f.unit == "%":
                lo = self.sentence_start(f.start)
                subject = None
                for subject in _SUBJECT.finditer(norm, lo, f.start):
                    pass
                if subject and all(g.unit == "%" for g in figs[:i] if g.start >= subject.end()):
                    words = subject.group(0).lower()
                    f.quantity = "hfu" if "hfu" in words or "hardware" in words else "mfu" if "mfu" in words or "flop" in words else "utilization"
                    f.generic = False
                    continue
            if f.quantity in ("ratio", "speedup") and _LESS_AFTER.match(norm, f.end):
                f.quantity, f.generic = "reduction_factor", False  # "2x less memory"
            elif f.quantity in ("percent", "ratio", "memory_fraction") and _BY.search(norm, max(0, f.start - 24), f.start):
                verb = None
                for verb in _CHANGE_VERB.finditer(norm, self.sentence_start(f.start), f.start):
                    pass
                if verb is None:
                    continue
                down = verb.group("down") is not None
                if f.quantity in ("percent", "memory_fraction"):
                    f.quantity, f.value = "percent_change", -abs(f.value) if down else abs(f.value)
                else:
                    f.quantity = "reduction_factor" if down else "speedup"
                f.generic = False
            elif f.quantity == "chips_per_node" and _POD_WORD.search(norm, self.sentence_start(f.start), f.start):
                f.quantity = "chips_per_pod"
        if "respectively" in norm:
            for m in _RESPECTIVELY.finditer(norm):
                lo = self.sentence_start(m.start())
                ways = [f for f in figs if lo <= f.start < m.start() and f.quantity == "parallel_degree"]
                if not ways:
                    continue
                nouns = _PARALLEL_NOUN.findall(norm, ways[-1].end, m.start())
                if len(nouns) == len(ways):
                    for f, noun in zip(ways, nouns):
                        f.quantity, f.generic = _PARALLEL_DEGREE[noun.lower()[:2]], False

    def fractions(self) -> None:
        """"by half", "a quarter of a TPU v5p pod": fractions written as words."""
        low = self.norm.lower()
        if not any(w in low for w in _FRACTION_WORDS):
            return
        for m in _FRACTION.finditer(self.norm):
            if not self.is_free(*m.span()):
                continue
            value = _EN["fractions"][m.group("w").lower()]
            if m.group("by"):
                verb = None
                for verb in _CHANGE_VERB.finditer(self.norm, self.sentence_start(m.start()), m.start()):
                    pass
                if verb is None:
                    continue
                quantity, value = "percent_change", -value if verb.group("down") else value
            elif m.group("of"):
                after = self.norm[m.end():m.end() + 40]
                quantity = ("fraction_of_pod" if _POD_WORD.match(after) or _rx(r"[^.,;]*?\b(?:pod|slice|superpod)s?\b", _I).match(after)
                            else "fraction_of_node" if _rx(r"[^.,;]*?\b(?:node|host|server)s?\b", _I).match(after) else "fraction")
            else:
                continue
            self.add(_Fig(m.start("n"), m.end(), quantity, value, raw=value, generic=False))

    def inherit(self) -> None:
        """A bare number equal to a distinctive figure read elsewhere in the text (8960, 0.4) measures the same thing."""
        known = {}
        for f in self.figs:
            if not f.generic and not f.expression and f.role != "result":
                known.setdefault(float(f"{f.value:.12g}"), f)
        for f in self.figs:
            # small whole numbers (4, 8) recur with different meanings; only distinctive ones carry over
            v = float(f"{f.value:.12g}")
            if f.quantity == "number" and v in known and (f.value != int(f.value) or abs(f.value) >= 100):
                f.quantity, f.unit, f.generic = known[v].quantity, known[v].unit, False
        by_raw = {float(f"{f.raw:.12g}"): f for f in self.figs
                  if not f.generic and not f.expression and f.scale != 1.0 and f.raw and f.quantity != "number"}
        for f in self.figs:  # "tflop/s=459 ... 134.924 / 459": the same 459, in the unit it was first given in
            v = float(f"{f.value:.12g}")
            if f.quantity == "number" and v in by_raw and (f.value != int(f.value) or abs(f.value) >= 100):
                k = by_raw[v]
                f.quantity, f.unit, f.scale, f.value, f.generic = k.quantity, k.unit, k.scale, f.raw * k.scale, False
        self.of_peak()

    def of_peak(self) -> None:
        """"134.924 / 459 = 29.40%" with 459 a chip's peak: the numerator is FLOP/s achieved, the result utilisation."""
        exprs = [e for e in self.figs if e.expression and e.quantity == "expression" and "/" in self.norm[e.start:e.end]]
        if not exprs:
            return
        figs = sorted((f for f in self.figs if not f.expression), key=lambda f: f.start)
        starts = [f.start for f in figs]
        for e in exprs:
            inside = figs[bisect.bisect_left(starts, e.start):bisect.bisect_left(starts, e.end)]
            if len(inside) != 2 or inside[1].quantity != "peak_flop_per_s" or inside[0].quantity != "number" \
                    or "/" not in self.norm[inside[0].end:inside[1].start]:
                continue
            a, b = inside
            a.quantity, a.unit, a.scale, a.value, a.generic = "flop_per_s_per_chip", b.unit, b.scale, a.raw * b.scale, False
            for f in figs[bisect.bisect_left(starts, e.end):bisect.bisect_left(starts, e.end + 12)]:
                if f.role == "result" and f.quantity in ("percent", "number"):
                    f.quantity = "mfu" if _MFU_WORD.search(self.norm) else "utilization"
                    if f.unit is None:
                        f.value = f.raw / 100 if f.raw > 1 else f.raw
                    f.generic = False


def _share(a: _Fig, b: _Fig) -> None:
    """The unit and quantity of the more specific partner go to the other."""
    for x, y in ((a, b), (b, a)):
        if x.generic and not y.generic:
            x.quantity, x.chip = y.quantity, x.chip or y.chip
            if x.unit is None and y.unit is not None:
                x.unit, x.scale, x.value = y.unit, y.scale, x.raw * y.scale
            break
    for x, y in ((a, b), (b, a)):  # "38-43%": the bare end of a range is a percentage too
        if x.unit is None and y.unit == "%" and x.quantity == y.quantity and 0 <= x.value <= 1:
            x.unit = "%"
    a.generic = b.generic = a.generic and b.generic


_OPERAND_NUM = _rx(r"(?<![\w.])(" + _NUMLIT + r")(?:\s*[×x]\s*10(?:\s*(?:\^|\*\*)\s*([+-]?\d+)|([⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)))?([kKMBT](?![A-Za-z]))?")


def _operand_roles(norm: str, start: int, end: int) -> dict[int, str]:
    """What the bare operands of the two textbook estimates measure: time = FLOPs / (chips × FLOP/s × MFU), FLOPs = 6·N·D."""
    operands = []
    for m in _OPERAND_NUM.finditer(norm, start, end):
        power = m.group(2) or (m.group(3) or "").translate(_SUPS)
        value = float(m.group(1).replace(",", "")) * (10.0 ** int(power) if power else 1.0)
        value *= float(_SUFFIX_VALUE[m.group(4)].replace("e", "1e")) if m.group(4) else 1.0
        operands.append((m.start(), value))
    source = norm[start:end]
    roles: dict[int, str] = {}
    if "/" in source and operands and operands[0][1] >= 1e18:
        roles[operands[0][0]] = "total_flops"
        rest = operands[1:]
        per_chip = any(0 < v < 1 for _, v in rest) or any(v == int(v) and 1 < v < 1e7 for _, v in rest)
        for at, value in rest:
            if 1e11 <= value < 1e18:  # with chips or MFU beside it, one chip's peak; alone, the rate the job achieves
                roles[at] = "peak_flop_per_s" if per_chip else "flop_per_s"
            elif 0 < value < 1:
                roles[at] = "mfu"
            elif value == int(value) and 1 < value < 1e7:
                roles[at] = "n_chips"
    elif "/" in source and len(operands) == 2 and 1e11 <= operands[0][1] < 1e17 and 1e8 <= operands[1][1] < 1e13 \
            and 50 <= operands[0][1] / operands[1][1] <= 1e5:
        # C / W: a chip's FLOP/s over its bandwidth, the critical batch per chip (dp_critical_batch)
        roles[operands[0][0]], roles[operands[1][0]] = "peak_flop_per_s", "bandwidth_bytes_per_s"
        roles[-1] = "critical_tokens_per_chip"
    elif "/" in source and len(operands) == 3 and _PRODUCT_OVER.fullmatch(source) \
            and _TOKEN_WORD.search(norm, max(0, start - 200), min(len(norm), end + 60)):
        # batch × sequence length / step time = tokens per second (per device when the text speaks of one)
        (a, va), (b, vb), (c, vc) = operands
        seq = [o for o in ((a, va), (b, vb)) if o[1] >= 256 and o[1] == int(o[1]) and int(o[1]) & (int(o[1]) - 1) == 0]
        if len(seq) == 1 and 0 < vc < 1e4:
            other = (b, vb) if seq[0][0] == a else (a, va)
            if other[1] == int(other[1]):
                per_device = _DEVICE_WORD.search(norm, max(0, start - 200), min(len(norm), end + 60)) is not None
                roles[seq[0][0]], roles[c] = "seq_len", "step_time_s"
                roles[other[0]] = "micro_batch" if per_device else "global_batch_sequences"
                roles[-1] = "tokens_per_s_per_chip" if per_device else "tokens_per_s"
    elif "/" not in source and len(operands) == 3:
        small = [o for o in operands if o[1] in (2.0, 6.0, 8.0)]
        big = sorted((o for o in operands if o[1] >= 1e7), key=lambda o: o[1])
        if len(small) == 1 and len(big) == 2:  # 6 × N × D in any order
            roles[small[0][0]] = "flops_per_param_token"
            roles[big[0][0]], roles[big[1][0]] = "params", "tokens"
    return roles


def _normalise_unit(written: str, kind: str) -> str:
    """Unit spellings calculators.units does not take ("petaFLOP/s", "FLOPs / second", "Gbps") in a form it does."""
    unit = re.sub(r"\s+", " ", written.strip())
    for word, prefix in (("kilo", "k"), ("mega", "M"), ("giga", "G"), ("tera", "T"), ("peta", "P"), ("exa", "E")):
        if unit.lower().startswith(word):
            unit = prefix + unit[len(word):]
    if kind == "flop_per_s":
        unit = re.sub(r"(?i)\s*(flops?|FLOPS?)\s*(?:/\s*s(?:ec(?:ond)?)?|per second|/sec)$", "FLOP/s", unit)
        unit = re.sub(r"(?<=[kMGTPE])FLOPS$|^FLOPS$", "FLOP/s", unit)
        unit = unit.replace(" ", "")
    elif kind == "flops":
        unit = re.sub(r"\s*(?:FLOPs|FLOP|flops|flop|Flops)$", "FLOP", unit).replace(" ", "")
    elif kind == "bytes_per_s":
        unit = re.sub(r"\s*/\s*", "/", unit).replace("per second", "/s").replace(" ", "")
    return unit


def _seconds(written: str) -> float:
    word = written.lower().strip()
    if word in _UNIT_SECONDS:
        return float(_UNIT_SECONDS[word])
    singular = re.sub(r"s$", "", word)
    if singular in _UNIT_SECONDS:
        return float(_UNIT_SECONDS[singular])
    for name, seconds in _UNIT_SECONDS.items():
        if word.startswith(name) and len(name) > 2:
            return float(seconds)
    raise KeyError(written)


def _balanced(text: str, start: int, end: int) -> tuple[int, int]:
    """Trim brackets an expression match took from the prose around it, and spaces."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    span = text[start:end]
    while span and span.count("(") + span.count("[") > span.count(")") + span.count("]") and span[0] in "([":
        start, span = start + 1, span[1:]
    while span and span.count(")") + span.count("]") > span.count("(") + span.count("[") and span[-1] in ")]":
        end, span = end - 1, span[:-1]
    return start, end


_SUFFIX = _rx(r"(\d)([kKMBT])(?![A-Za-z])")
_SUFFIX_VALUE = {"k": "e3", "K": "e3", "M": "e6", "B": "e9", "T": "e12"}


def _evaluate(source: str) -> float | None:
    """The value of arithmetic written in a text, through the ast of a restricted grammar (never eval)."""
    expr = re.sub(r"(\d(?:\.\d+)?)\s*[×x*·]\s*10(?:\s*(?:\^|\*\*)\s*([+-]?\d+)|([⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))",
                  lambda m: f"{m.group(1)}e{m.group(2) or m.group(3).translate(_SUPS)}", source)
    expr = expr.replace(",", "").replace("×", "*").replace("·", "*").replace("÷", "/").replace("−", "-")
    expr = expr.replace("^", "**").replace("[", "(").replace("]", ")")
    expr = re.sub(r"(\d(?:\.\d+)?)\s*%", r"(\1/100)", expr)
    expr = _SUFFIX.sub(lambda m: m.group(1) + _SUFFIX_VALUE[m.group(2)], expr)
    try:
        tree = ast.parse(expr.strip(), mode="eval")
        value = walk(tree.body)
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError, TypeError, RecursionError):
        return None
    return float(value) if math.isfinite(value) else None



def read_figures(text: str) -> list[Figure]:
    """Every figure the text states, in order, each once, with its quantity and value."""
    if not text:
        return []
    reader = _Reader(text)
    reader.protect()
    reader.moe_names()
    reader.products()
    reader.compact()
    reader.symbols()
    reader.expressions()
    reader.duals()
    reader.generic()
    reader.fractions()
    reader.pairs()
    reader.subjects()
    reader.inherit()
    figs = sorted(reader.figs, key=lambda f: (f.start, -f.end))
    kept: list[_Fig] = []
    reach = -1
    for fig in figs:  # a figure overlapping one already kept is the same figure read twice
        if not fig.expression:
            if fig.start < reach:
                continue
            reach = fig.end
        kept.append(fig)
    index = {id(f): i for i, f in enumerate(kept)}
    return [Figure(quote=text[f.start:f.end], start=f.start, end=f.end, quantity=f.quantity, value=float(f.value),
                   unit=f.unit, approx=f.approx, chip=f.chip, model=f.model, role=f.role,
                   pair=index.get(id(f.pair)) if f.pair is not None else None, detail=f.detail)
            for f in kept]
