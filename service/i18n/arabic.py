"""Arabic text normalisation for matching: diacritics, letter variants, attached particles."""

import re
from functools import lru_cache

ARABIC_LETTER = re.compile(r"[\u0621-\u064A\u0671-\u06D3]")
LATIN_LETTER = re.compile(r"[A-Za-z]")
_DIACRITICS = dict.fromkeys(list(range(0x064B, 0x0653)) + [0x0670, 0x0640])  # harakat, dagger alef, tatweel
_LETTERS = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ى": "ي", "ة": "ه"})
_ARTICLE_PREFIXES = ("وال", "فال", "بال", "كال", "لل", "ال")


@lru_cache(maxsize=65536)  # the same words recur across a text and across texts
def normalise_token(token: str) -> str:
    """One Arabic word without diacritics, with one spelling of alef, ya and ta marbuta, and no article."""
    token = token.translate(_DIACRITICS).translate(_LETTERS)
    for prefix in _ARTICLE_PREFIXES:
        # Only strip when a real stem remains, so short words are not mangled.
        if token.startswith(prefix) and len(token) - len(prefix) >= 2:
            return token[len(prefix):]
    return token


def without_particle(token: str) -> str | None:
    """The word without one attached conjunction or preposition (و ف ب ل ك), if that leaves a stem."""
    if len(token) > 3 and token[0] in "وفبلك":
        return token[1:]
    return None


def share_of_arabic(text: str) -> float:
    """Fraction of the letters in `text` that are Arabic."""
    if text.isascii():  # most texts, and a scan in C
        return 0.0
    arabic = len(ARABIC_LETTER.findall(text))
    latin = len(LATIN_LETTER.findall(text))  # ASCII letters; a regex, as a loop over characters is 10x slower
    return arabic / (arabic + latin) if arabic + latin else 0.0


def detect_language(text: str) -> str:
    """'ar' when Arabic letters dominate the prose, else 'en' (acronyms are Latin in both)."""
    return "ar" if share_of_arabic(text) >= 0.3 else "en"


# ------------------------------------------------------------------------------------------------ counting

_ARABIC_WORD = r"[\u0621-\u064A\u0671-\u06D3][\u0621-\u065F\u0670-\u06D3]*"
_NUMBER = r"(?<![A-Za-z0-9_.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"


@lru_cache(maxsize=1)
def counting() -> dict:
    """data/arabic_counting.json, with each noun's forms indexed by their written form (without diacritics)."""
    import json  # here, not at the top: language detection imports this module and needs neither

    from calculators.resources import data_dir  # the calculators package loads numpy; only counting needs data/

    data = json.loads((data_dir() / "arabic_counting.json").read_text(encoding="utf-8"))
    forms = {}
    for noun in data["nouns"]:
        for form in ("singular", "accusative", "dual", "plural"):
            forms.setdefault(noun[form], noun)
    scale_forms = {}
    for scale in data["scales"].values():
        for form in ("singular", "plural", "accusative"):
            scale_forms[scale[form]] = scale
    return {"scales": data["scales"], "nouns": forms, "scale_forms": scale_forms, "rows": data["nouns"],
            "english": data["english"], "rates": data["rates"]}


def count_form(number: float, noun: dict, alone: bool = True, shown: str | None = None) -> str:
    """`number` and the noun in the form Arabic counting asks for: "شريحة واحدة", "شريحتين", "3 شرائح",
    "16 تسلسلا", "100 رمز", "105 رموز"; a fraction takes the singular ("1.5 ساعة").

    `alone` is False where an adjective follows the noun ("دفعة صغرى"): 1 and 2 then keep the digit and the
    singular, as "واحدة" or a dual would have to agree with the adjective too.
    """
    shown = shown or _digits(number)
    if number != int(number):
        return f"{shown} {noun['singular']}"
    n = int(number)
    if n == 1 and alone:
        return f"{noun['singular']} {'واحدة' if noun['gender'] == 'f' else 'واحد'}"
    if n == 2 and alone:
        return noun["dual"]
    if n in (1, 2):
        return f"{shown} {noun['singular']}"
    last = n % 100 if n >= 100 else n
    if 3 <= last <= 10:
        return f"{shown} {noun['plural']}"
    if 11 <= last <= 99:
        return f"{shown} {noun['accusative']}"
    return f"{shown} {noun['singular']}"


def scaled(mantissa: float, scale: dict) -> str:
    """A figure with a scale as Arabic words: (7, billions) -> "7 مليارات", (15, trillions) -> "15 تريليون",
    (1, millions) -> "مليون", (1.46, millions) -> "1.46 مليون"; a noun after it stays singular."""
    if mantissa == 1:
        return scale["singular"]
    shown = _digits(mantissa)
    if mantissa == int(mantissa) and 3 <= int(mantissa) % 100 <= 10:
        return f"{shown} {scale['plural']}"
    return f"{shown} {scale['singular']}"


def _digits(number: float) -> str:
    if number == int(number):
        return f"{int(number):,}" if number >= 10000 else str(int(number))
    return f"{number:g}"


_COUNTED = re.compile(_NUMBER + r"(?:\s?([KMBT]|k)(?![\w]))?(\s+)(" + _ARABIC_WORD + r")(?:(\s+)(" + _ARABIC_WORD + r"))?")


_OPERAND = re.compile(r"[×*/+=≈÷]\s*$")
_UNITS = {"بايت"}  # counted nouns that are units: inside arithmetic they stay beside their digits


def agree_numbers(text: str) -> str:
    """Arabic `text` with every number before a counted noun agreeing with it (data/arabic_counting.json), and
    figures with a scale suffix before one read as words: "7B معامل" -> "7 مليارات معامل", "16 تسلسل" ->
    "16 تسلسلا", "2 شريحة" -> "شريحتين", "1.46M ساعة" -> "1.46 مليون ساعة"."""
    table = counting()
    return _COUNTED.sub(lambda m: _agreeing(m, table), text)


def disagreeing_counts(text: str) -> list[str]:
    """The numbers-and-nouns in `text` that agree_numbers would change ("7B معامل", "16 تسلسل")."""
    table = counting()
    return [m.group(0) for m in _COUNTED.finditer(text) if _agreeing(m, table) != m.group(0)]


def _agreeing(m: re.Match, counting: dict) -> str:
    number_text, suffix, space, word, gap, after = m.groups()
    if _OPERAND.search(m.string[max(0, m.start() - 3):m.start()]) and number_text in ("1", "2") and not suffix \
            and word.translate(_DIACRITICS) in _UNITS:
        return m.group(0)  # "8.03 × 2 بايت": a unit's operand keeps its digit (not "× بايتين")
    number = float(number_text.replace(",", ""))
    tail = (gap or "") + (after or "")
    bare = word.translate(_DIACRITICS)
    if suffix:
        noun = counting["nouns"].get(bare)
        if noun is None:
            return m.group(0)  # "نموذج 7B" names a model; only a counted noun makes "7B" a count
        scale = counting["scales"]["K" if suffix == "k" else suffix]
        return f"{scaled(number, scale)} {noun['singular']}{tail}"
    if bare in counting["scale_forms"]:  # "7 مليار" -> "7 مليارات"; the noun after it is handled by the scale word
        scale = counting["scale_forms"][bare]
        if _scale_form_fits(number, scale, bare):
            return f"{number_text}{space}{word}{_singular_after(gap, after, counting)}"
        return f"{scaled(number, scale)}{_singular_after(gap, after, counting)}"
    noun = counting["nouns"].get(bare)
    if noun is None:
        return m.group(0)
    described = after is not None and _is_adjective(after)
    joined = after is not None and not described and _is_partner(after, counting)  # "ساعة شريحة", "رمز تدريب"
    alone = not described and not joined
    if described and number in (1, 2):
        return _with_adjective(number, noun, gap, after)
    if joined and number in (1, 2):  # "ساعة شريحة واحدة", "ساعتي شريحة" (a dual before its partner drops its ن)
        one = "واحدة" if noun["gender"] == "f" else "واحد"
        return f"{noun['singular']}{gap}{after} {one}" if number == 1 else f"{noun['dual'][:-1]}{gap}{after}"
    said = count_form(number, noun, alone, number_text)
    if joined and said.endswith(noun["accusative"]) and noun["accusative"] != noun["singular"]:
        said = f"{number_text} {noun['singular']}"  # "20 رمز تدريب": a noun before its partner takes no tanween
    if described:  # the adjective after agrees with the counted noun: "5 معاملات نشطة", "16 معاملا نشطا", "100 معامل نشط"
        tail = f"{gap}{_agreeing_adjective(noun, said.split()[-1], after)}"
    if normalise_token(said.split()[-1]) == normalise_token(bare) and (said.split()[0] == number_text or not alone):
        return m.group(0)  # already right: keep the text's own spelling (diacritics, digits)
    return said + tail


def _agreeing_adjective(noun: dict, counted: str, adjective: str) -> str:
    """`adjective` agreeing with the counted form of `noun`: a plural of things takes the feminine singular, a
    masculine singular the masculine (accusative after 11-99), a feminine noun the feminine."""
    if counted == noun["plural"] and noun["plural"] != noun["singular"]:
        return adjective if adjective.endswith(("ة", "ى")) else adjective + "ة"
    if noun["gender"] == "f":
        return adjective
    masculine = adjective[:-1] if adjective.endswith("ة") else adjective
    if counted == noun["accusative"] != noun["singular"] and not masculine.endswith(("ى", "ا")):
        return masculine + "ا"
    return masculine


def _with_adjective(number: float, noun: dict, gap: str, adjective: str) -> str:
    """One or two of a noun with its adjective agreeing: "مرحلة افتراضية واحدة", "مرحلتين افتراضيتين",
    "دفعتين صغريين", "معامل نشط واحد", "معاملين نشطين" (a template's adjective agrees with a plural of things,
    feminine singular; a masculine noun takes it back without ة)."""
    if noun["gender"] == "f":
        if number == 1:
            return f"{noun['singular']}{gap}{adjective} واحدة"
        stem = adjective[:-1] if adjective.endswith(("ة", "ى")) else adjective
        return f"{noun['dual']}{gap}{stem}{'يين' if adjective.endswith('ى') else 'تين'}"
    masculine = adjective[:-1] if adjective.endswith("ة") else adjective
    if number == 1:
        return f"{noun['singular']}{gap}{masculine} واحد"
    return f"{noun['dual']}{gap}{masculine}ين"


def _singular_after(gap: str | None, after: str | None, counting: dict) -> str:
    if after is None:
        return ""
    noun = counting["nouns"].get(after.translate(_DIACRITICS))
    return f"{gap}{noun['singular'] if noun else after}"


_ADJECTIVES = ("نشط", "صغرى", "كبرى", "كامل", "كاملة", "إضافي", "مختلف", "مختلفة", "متتالية", "متتالي", "جديد", "جديدة",
               "متوازية", "متوازي", "فعلي", "فعلية", "متسلسلة", "إجمالي", "كبير", "كبيرة", "صغير", "صغيرة", "نشطة")


def _is_adjective(word: str) -> bool:
    """Whether `word` after a counted noun describes it ("دفعة صغرى", "مراحل افتراضية"), not a second noun
    ("ساعة شريحة", "رمز تدريب"): a known adjective or a relative one (nisba: -ي, -ية)."""
    bare = word.translate(_DIACRITICS)
    stem = bare[:-1] if bare.endswith("ا") else bare  # an accusative adjective: "نشطا", "إضافيا"
    return stem in _ADJECTIVES or stem.endswith(("ي", "ية")) and len(stem) > 3 and not _starts_phrase(bare)


_PARTNERS = ("تدريب", "حساب", "اتصال", "ذاكرة", "معالجة", "بيانات", "انتباه", "إدخال", "إخراج")


def _is_partner(word: str, counting: dict) -> bool:
    """Whether `word` is a second noun the counted one is joined to (idafa: "ساعة شريحة", "رمز تدريب")."""
    bare = word.translate(_DIACRITICS)
    return bare in counting["nouns"] or bare in _PARTNERS


def _starts_phrase(word: str) -> bool:
    """Whether `word` after a counted noun starts the next phrase (a preposition, a conjunction, an adverb)."""
    bare = word.translate(_DIACRITICS)
    return bare.startswith(("في", "من", "على", "لكل", "إلى", "عن", "و", "ف", "ب", "ل")) \
        or bare in ("كل", "أو", "ثم", "مع", "بين", "عبر", "تقريبا", "نحو", "فقط", "أي", "هي", "هو", "لا", "قد", "كما", "منها")


def _scale_form_fits(number: float, scale: dict, written: str) -> bool:
    """Whether a written scale word already agrees: "37 مليارا" (11-99 standalone) or "37 مليار", "7 مليارات",
    "671 مليارا", "5.6 ملايين" (a fraction may take either form)."""
    if number != int(number):
        return written in (scale["singular"], scale["plural"])
    last = int(number) % 100 if number >= 100 else int(number)
    if 3 <= last <= 10:
        return written == scale["plural"]
    if 11 <= last <= 99:
        return written in (scale["singular"], scale["accusative"])
    return written == scale["singular"] or int(number) in (1, 2)
