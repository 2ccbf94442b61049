"""The form of unjargon's Arabic: one word for one thing, Arabic for common English words, numbers agreeing with
their nouns, verbs agreeing with their subjects, Arabic punctuation, no doubled words.

`polish` applies it to an answer (`in_final_form` to an answer object); `problems` finds what is left.

The passage's own words are kept: quotes «...», code `...` and the corrections section (which names the source's
mistranslation) are never rewritten. The word table is data/arabic_terms.json; the counting rules are
data/arabic_counting.json (service.i18n.arabic.agree_numbers).
"""

import json
import re
from functools import lru_cache

from calculators.resources import data_dir

from service.i18n import arabic
from service.i18n.messages import messages

_LETTER = "\u0621-\u064A\u0671-\u06D3"
_PARTICLES = r"(?:[وف]?(?:ال|لل|[بك]ال|[بلك])?)"  # و or ف, then the article or a preposition with or without it
# a line quoted in Markdown ("> ...") is the passage's point in its own language (service/explain/gist_original.py)
_QUOTED = re.compile(r"«[^»\n]*»|```.*?```|`[^`\n]*`|\"[^\"\n]*\"|https?://\S+|(?m:^> [^\n]*)", re.S)
_BRACKETED = re.compile(r"\([^()\n\u0600-\u06FF]*\)|\*\*[^*\n]+\*\*")  # an English bracket or a bold name


@lru_cache(maxsize=1)
def table() -> dict:
    """data/arabic_terms.json, parsed once."""
    return json.loads((data_dir() / "arabic_terms.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _rejected() -> tuple[re.Pattern, dict]:
    """One pattern for every rejected form (with an attached particle or article), and what replaces each."""
    replace = {bad: good for concept in table()["concepts"] for bad, good in concept["rejected"].items()}
    words = sorted(replace, key=len, reverse=True)
    # a Latin letter after the form makes it part of a longer word ("أنوية TensorCore" is not "أنوية Tensor" + "Core")
    pattern = re.compile(rf"(?<![{_LETTER}])({_PARTICLES})(" + "|".join(map(re.escape, words)) + rf")(?![{_LETTER}A-Za-z])")
    return pattern, replace


@lru_cache(maxsize=1)
def _english() -> tuple[re.Pattern, dict]:
    words = {entry["en"].lower(): entry["ar"] for entry in table()["english"]}
    # An attached Arabic particle may precede ("وdropout"); a Latin letter, digit or joiner may not ("pre-shards"); an
    # English word after it makes it part of a longer name ("all-to-all connectivity"), which half-translated is garbled
    pattern = re.compile(r"(?<![A-Za-z0-9_\-./])(" + "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
                         + r")(?![\w\-])(?! [a-z]{3,}\b)", re.I)
    return pattern, words


def prefer(text: str, followed: dict[str, str] | None = None) -> str:
    """`text` with every rejected variant replaced by its concept's preferred word ("الرقائق" -> "الشرائح"), and a
    word that means another concept before a number replaced too ("بمعامل 3" -> "بعامل 3": a multiplier).
    `followed` (from `passage_words`) turns a concept the passage names only by a variant the other way round."""
    pattern, replace = _rejected()
    if followed:
        replace = {**{bad: good for bad, good in replace.items() if bad not in followed.values()}, **followed}
        words = sorted(replace, key=len, reverse=True)
        pattern = re.compile(rf"(?<![{_LETTER}])({_PARTICLES})(" + "|".join(map(re.escape, words)) + rf")(?![{_LETTER}A-Za-z])")
    text = pattern.sub(lambda m: m.group(1) + replace[m.group(2)], text)
    # "وحدات معالجة الرسومات GPU" -> "وحدات GPU": the name the source gave beside its words is not said again
    text = re.sub(r"\b([A-Z][A-Za-z0-9]{1,10}) \1\b", r"\1", text)
    numbered, before = _before_number()
    return numbered.sub(lambda m: m.group(1) + before[m.group(2)], text) if numbered else text


@lru_cache(maxsize=1)
def _before_number() -> tuple[re.Pattern | None, dict]:
    """One pattern for the words a concept rejects right before a number (its `before_number` table)."""
    before = {bad: good for concept in table()["concepts"] for bad, good in concept.get("before_number", {}).items()}
    if not before:
        return None, {}
    words = "|".join(map(re.escape, sorted(before, key=len, reverse=True)))
    # indefinite only ("بمعامل 3"): "المعامل 3" may name a parameter
    return re.compile(rf"(?<![{_LETTER}])([وف]?[بل]?)({words})(?=\s+(?:\d|\{{))"), before


def passage_words(source: str, corrected: str = "") -> dict[str, str]:
    """For each follow_source concept an Arabic passage names only by rejected variants (none of its preferred forms):
    each preferred form -> the passage's variant of it, so the answer says the passage's word throughout. A variant the
    answer's corrections section (`corrected`) names as a mistranslation is not followed."""
    followed: dict[str, str] = {}
    if not source or not arabic.ARABIC_LETTER.search(source):
        return followed
    bare = _blank(source, _QUOTED)

    def used(word: str, text: str) -> bool:
        return re.search(rf"(?<![{_LETTER}]){_PARTICLES}{re.escape(word)}(?![{_LETTER}])", text) is not None
    for concept in table()["concepts"]:
        if not concept.get("follow_source"):
            continue
        own = [bad for bad in concept["rejected"] if used(bad, bare) and not used(bad, corrected)]
        if not own or any(used(good, bare) for good in concept["preferred"]):
            continue
        family = {_stem(word) for bad in own for word in bad.split()}  # «التفتيش»'s siblings, not «تحقق»'s
        for bad, good in concept["rejected"].items():  # per inflection: the passage's form first, then its siblings
            if (good not in followed or bad in own) and {_stem(word) for word in bad.split()} <= family | {_stem(w) for w in good.split()}:
                followed[good] = bad
    return followed


def _stem(word: str) -> str:
    """A word's family: its first letters without the article («التفتيش», «تفتيش»; «جيجابت», «جيجابايت»)."""
    return (word[2:] if word.startswith("ال") and len(word) > 3 else word)[:3]


def kept_text(text: str, keep_sections: tuple[str, ...]) -> str:
    """The kept sections of `text` (the corrections, which name the source's mistranslations), without the rest:
    a quote of the passage's own sentence is no correction of its words."""
    out = []
    for heading in keep_sections:
        at = text.find(f"## {heading}\n")
        if at >= 0:
            following = text.find("\n## ", at + 3)
            out.append(text[at:len(text) if following < 0 else following])
    return "".join(out)


def rejected_in(text: str) -> list[str]:
    """The rejected variants `text` uses (outside quotes and code)."""
    pattern, _ = _rejected()
    bare = _blank(text, _QUOTED)
    numbered, _ = _before_number()
    return [m.group(2) for m in pattern.finditer(bare)] + ([m.group(2) for m in numbered.finditer(bare)] if numbered else [])


def polish(text: str, keep_sections: tuple[str, ...] = (), followed: dict[str, str] | None = None) -> str:
    """An Arabic answer in its final form: preferred words, Arabic for common English words (the English once, in
    brackets), numbers agreeing with their nouns, Arabic punctuation, doubled words and brackets removed.
    `keep_sections` are headings whose section is left as it is (the corrections, quoting the source); `followed`
    holds the passage's own words for concepts it names by a variant (`passage_words`)."""
    text = "".join(piece if kept else _outside(_marked_formulas(piece), _BRACKETED, _quoted_english)
                   for kept, piece in _pieces(text, keep_sections))
    out, seen, glossed = [], set(), set()
    for kept, piece in _pieces(text, keep_sections):
        if kept:
            out.append(piece)
            continue
        piece = prefer(piece, followed)
        piece = _outside(piece, _BRACKETED, lambda s: _arabic_for_english(s, seen))
        piece = _outside(piece, _BOLD, lambda s: _english_once(s, glossed))
        piece = _nominative_duals(arabic.agree_numbers(_arabic_counts(_arabic_rates(piece))))
        piece = _attached_particles(_punctuation(_agreeing_verbs(piece)))
        piece = _undoubled(piece)
        out.append(piece)
    return "".join(out)


def in_final_form(answer: dict, source: str = "") -> dict:
    """An offline answer object with its Arabic in final form (explanation, warnings, plain); other languages as they are."""
    if answer["language"] != "ar":
        return answer
    keep = (messages("ar")["headings"]["corrections"],)
    followed = passage_words(source, kept_text(answer["explanation"], keep))
    answer["explanation"] = polish(answer["explanation"], keep, followed)
    # a correction warning names the source's wrong word on purpose ("نقطة التفتيش الأمنية"): one-term polishing would
    # turn it into the right word and the correction into nonsense ("نقطة الحفظ الأمنية", a round-13 reader)
    answer["warnings"] = [w if w.startswith("«") else polish(w) for w in answer["warnings"]]
    if answer.get("plain"):
        answer["plain"] = polish(answer["plain"], (), followed)
    return answer


def within(markdown: str, limit: int, terms_heading: str, keep: int = 1) -> str:
    """`markdown` cut to `limit` words by dropping the terms section's last (least central) items; `keep` stay."""
    head, found, rest = markdown.partition(f"## {terms_heading}\n\n")
    if not found:
        return markdown
    section, gap, tail = rest.partition("\n\n## ")
    items = section.rstrip("\n").split("\n")
    while len(items) > max(1, keep) and len((head + "\n".join(items) + tail).split()) + len(terms_heading.split()) + 1 > limit:
        items.pop()
    return head + found + "\n".join(items) + ("\n" if not gap else "") + gap + tail


def problems(text: str, keep_sections: tuple[str, ...] = (), source: str = "") -> dict[str, list[str]]:
    """What is wrong with the form of an Arabic answer, by kind (each a list of the offending snippets); a variant
    that is the passage's (`source`) own word for its concept is no problem (`passage_words`)."""
    found: dict[str, list[str]] = {"rejected": [], "inconsistent": [], "english": [], "numbers": [], "punctuation": [],
                                   "doubled": [], "agreement": []}
    own = "".join(piece for kept, piece in _pieces(text, keep_sections) if not kept)
    followed = set(passage_words(source, kept_text(text, keep_sections)).values())
    found["rejected"] = [word for word in rejected_in(own) if word not in followed]
    found["inconsistent"] = inconsistent_terms(own)
    prose = _blank(_blank(own, _QUOTED), _BRACKETED)
    found["english"] = [m.group(1) for m in _english()[0].finditer(prose) if _in_arabic(prose, m.start(), m.end())] + \
        [m.group(0) for m in _english_counts()[0].finditer(prose) if _in_arabic(prose, m.start(), m.end())]
    found["numbers"] = arabic.disagreeing_counts(_blank(own, _QUOTED))  # brackets kept: "2(n-1) خطوة" is no "2 خطوة"
    found["punctuation"] = [m.group(0) for m in _LATIN_PUNCTUATION.finditer(prose)]
    found["agreement"] = [m.group(0) for m, _ in _disagreeing(prose)]
    found["doubled"] = [f"{m.group(1)} {m.group(2)}" for m in _DOUBLED.finditer(prose) if _same(m.group(1), m.group(2))] + \
        [m.group(0) for m in _DOUBLED_BRACKET.finditer(own)]
    return found


def prose(text: str, keep_sections: tuple[str, ...] = ()) -> str:
    """The answer's own prose: without quotes, code, kept sections, English brackets and bold names (blanked)."""
    own = "".join(piece for kept, piece in _pieces(text, keep_sections) if not kept)
    return _blank(own, _BRACKETED)


def inconsistent_terms(text: str) -> list[str]:
    """Concepts `text` names with two words (a preferred and a rejected one), outside quotes: "شريحة/رقائق"."""
    bare = _blank(text, _QUOTED)
    pairs = []
    for concept in table()["concepts"]:
        bad = [w for w in concept["rejected"] if re.search(rf"(?<![{_LETTER}]){_PARTICLES}{re.escape(w)}(?![{_LETTER}])", bare)]
        good = [w for w in concept["preferred"] if re.search(rf"(?<![{_LETTER}]){_PARTICLES}{re.escape(w)}(?![{_LETTER}])", bare)]
        if bad and good:
            pairs.append(f"{good[0]}/{bad[0]}")
    return pairs


# ------------------------------------------------------------------------------------------------ pieces

def _pieces(text: str, keep_sections: tuple[str, ...]) -> list[tuple[bool, str]]:
    """`text` cut into (kept, piece): quotes, code and the kept sections are kept as they are."""
    spans = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
    for heading in keep_sections:
        at = text.find(f"## {heading}\n")
        if at >= 0:
            following = text.find("\n## ", at + 3)
            spans.append((at, len(text) if following < 0 else following))
    spans.sort()
    pieces, last = [], 0
    for start, end in spans:
        if start < last:
            if end > last:
                pieces[-1] = (True, pieces[-1][1] + text[last:end])
                last = end
            continue
        pieces += [(False, text[last:start]), (True, text[start:end])]
        last = end
    pieces.append((False, text[last:]))
    return [p for p in pieces if p[1]]


def _blank(text: str, pattern: re.Pattern) -> str:
    """`text` with `pattern`'s matches replaced by spaces of the same length (offsets kept)."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def _outside(text: str, pattern: re.Pattern, change) -> str:
    """`change` applied to the parts of `text` outside `pattern`'s matches."""
    out, last = [], 0
    for m in pattern.finditer(text):
        out += [change(text[last:m.start()]), m.group(0)]
        last = m.end()
    out.append(change(text[last:]))
    return "".join(out)


def _arabic_for_english(text: str, seen: set[str]) -> str:
    """Common English words as Arabic; where the answer first uses one, the English follows in brackets."""
    pattern, words = _english()
    lowered = text.lower()
    if not any(word in lowered for word in words):  # most pieces: a scan in C instead of the pattern at every offset
        return text

    def arabic_word(m: re.Match) -> str:
        if not _in_arabic(text, m.start(), m.end()):
            return m.group(0)  # an English sentence keeps its words
        key = m.group(1).lower()
        line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        arabic = words[key]
        if line.rstrip().endswith(arabic):
            return m.group(0)  # "(بالتجميع الشامل all-gather)": the Arabic is already said, the English is its gloss
        before = line.split()[-1:] if line.endswith(" ") else []
        if before and arabic.split()[0] == before[0]:  # "ذاكرة vRAM": the word before already says "ذاكرة"
            arabic = " ".join(arabic.split()[1:]) or arabic
        if key in seen or line.count("(") > line.count(")"):  # inside brackets: no bracket nested in them
            return arabic
        seen.add(key)
        return f"{arabic} ({m.group(1)})"
    return pattern.sub(arabic_word, text)


_BOLD = re.compile(r"\*\*[^*\n]+\*\*")


@lru_cache(maxsize=1)
def _glossed_pattern() -> re.Pattern:
    """An Arabic word of the table with its English in brackets after it ("الكل إلى الكل (all-to-all)")."""
    pairs = [re.escape(e["ar"]) + r"\s*\((" + re.escape(e["en"]) + r")\)" for e in table()["english"]]
    return re.compile("|".join(f"(?:{p})" for p in pairs), re.I)


def _english_once(text: str, glossed: set[str]) -> str:
    """The English after a table word kept where it first appears (a locale string or a definition may repeat it)."""
    def once(m: re.Match) -> str:
        english = next(g for g in m.groups() if g).lower()
        if english not in glossed:
            glossed.add(english)
            return m.group(0)
        return m.group(0)[:m.group(0).rindex("(")].rstrip()
    return _glossed_pattern().sub(once, text)


def _in_arabic(text: str, start: int, end: int) -> bool:
    """Whether the nearest words around [start, end) are Arabic (the English word sits in Arabic prose)."""
    before = re.findall(rf"[{_LETTER}]+|[A-Za-z]+", text[max(0, start - 40):start])
    after = re.findall(rf"[{_LETTER}]+|[A-Za-z]+", text[end:end + 40])
    near = before[-1:] + after[:1]
    return any(arabic.ARABIC_LETTER.match(word) for word in near)


# ------------------------------------------------------------------------------------------------ formulas

# A calculation's formula in Latin symbols ("MFU = 27.76 TFLOP/s / 275 TFLOP/s = 10.09%", "FLOP/s / n = 27.76"):
# a Latin expression, " = ", then what follows up to Arabic, an Arabic comma or semicolon, or the line's end.
# not the device noun «وحدة GPU» before "=": "1,024 وحدة GPU = 8.8 ساعة" is prose around a count, not a formula of "GPU";
# nor the tail of a longer expression ("(715 ms - 875 ms) ÷ 875 ms = -18%"): a code span over its end alone splits it
_FORMULA = re.compile(rf"(?<![\w`/.])(?<![÷×+\-*/] )(?<!\d )(?<!وحدة )(?<!وحدات )(?<!وحدتي )(?<!وحدتا )((?:\d[\d.,]*(?:\s?[×x*/+÷]\s?|\s))*[A-Za-z][\w/]*(?:\s?[/x*×+÷\-]\s?[A-Za-z0-9_][\w/.]*(?:\s[A-Za-z][\w/]*)?)*\s=\s[^{_LETTER}،؛\n`«»]*[^\s{_LETTER}،؛\n`«».:])")


def _marked_formulas(text: str) -> str:
    """Formulas in Latin symbols set as code in Arabic prose, so they read left to right as one unit instead of
    being mixed into the Arabic sentence ("الحساب: `MFU = 27.76 / 275 = 10.09%`"); an English sentence keeps its own."""
    if " = " not in text:
        return text
    return _FORMULA.sub(lambda m: _as_code(m.group(1)) if _in_arabic(text, m.start(), m.end()) else m.group(0), text)


def _as_code(formula: str) -> str:
    """A formula as a code span; a closing bracket it does not open stays outside ("(`1,859 ms / 801 ms = 2.3x`)")."""
    tail = ""
    while formula.endswith(")") and formula.count(")") > formula.count("("):
        formula, tail = formula[:-1], ")" + tail
    return f"`{formula}`{tail}"


# An English sentence inside an Arabic one: a Latin word, then Latin words, figures and punctuation up to Arabic
_ENGLISH_RUN = re.compile(rf"[A-Za-z][^{_LETTER}،؛\n`«»*()]*[^{_LETTER}،؛\n`«»*()\s]")
_ENGLISH_WORD = re.compile(r"(?<![\w-])[a-z]{2,}(?![\w-])")


def _quoted_english(text: str) -> str:
    """An English sentence pasted into Arabic prose (an error message, a phrase of the source) kept marked as a
    quote, «...», instead of being mixed into the Arabic sentence; names, units and short labels stay as they are."""
    def quoted(m: re.Match) -> str:
        run = m.group(0)
        if len(run.split()) < 4 or len(_ENGLISH_WORD.findall(run)) < 3 or not _in_arabic(text, m.start(), m.end()):
            return run
        return f"«{run}»"
    return _ENGLISH_RUN.sub(quoted, text) if re.search(r"[a-z]{2,} [a-z]{2,} ", text) else text


# ------------------------------------------------------------------------------------------------ punctuation

_LATIN_PUNCTUATION = re.compile(
    rf"(?<=[{_LETTER}])\s?[;,?](?=\s*[{_LETTER}])"  # between Arabic words
    rf"|(?<=[{_LETTER}\d%)»])\s?[;,](?=\s+[{_LETTER}])"  # after a figure, before Arabic ("1,024; للتحقق")
    rf"|(?<=[{_LETTER}])\?(?=\s|$)")  # an Arabic question's end
_ARABIC_MARK = {";": "؛", ",": "،", "?": "؟"}
_GLUED_COMMA = re.compile(rf"[{_LETTER}],")


def _punctuation(text: str) -> str:
    """Latin ; , ? after an Arabic word and before Arabic (or a question's end) become ؛ ، ؟."""
    if ";" not in text and ", " not in text and "?" not in text and not _GLUED_COMMA.search(text):
        return text
    return _LATIN_PUNCTUATION.sub(lambda m: _ARABIC_MARK[m.group(0).strip()], text)


_LONE_PARTICLE = re.compile(rf"(?<![{_LETTER}\u0640\u064B-\u0652])([بلكو])(\u0640?)\s+(?=[A-Za-z0-9])")


def _attached_particles(text: str) -> str:
    """A one-letter particle written apart from the Latin word it belongs to, attached as Arabic writes it:
    "مقارنة ب FP8" -> "مقارنة بـFP8", "بـ JAX" -> "بـJAX", "و H100" -> "وH100" (a kashida joins ب ل ك to Latin)."""
    if not re.search(r"[بلكو]\u0640?\s+[A-Za-z0-9]", text):
        return text
    return _LONE_PARTICLE.sub(lambda m: m.group(1) + ("" if m.group(1) == "و" else "\u0640"), text)


# ------------------------------------------------------------------------------------------------ doubled words

_DOUBLED = re.compile(rf"(?<![{_LETTER}])([{_LETTER}]{{2,}})(?=\s+([{_LETTER}]{{2,}})(?![{_LETTER}]))")
_ACRONYM_BRACKET = re.compile(r"(?<=[\u0621-\u064A] )([A-Z]{2,6})\s*\(\1s?\)")
_DOUBLED_BRACKET = re.compile(r"(\(([^()\n]+)\)(?:\*\*)?)\s*\(\2\)|(?<![^\s*(])(([\u0621-\u064A]+)(?:\*\*)?)\s*\(\4\)", re.I)


def _same(first: str, second: str) -> bool:
    """Two neighbouring words that say the same word twice ("مرحلة المرحلة", "بعرض عرض").

    The same indefinite word twice is Arabic's distributive repetition ("خطوة خطوة" step by step, "كتلة كتلة"),
    not a slip; the slip is a word repeated with an article or a particle added, where a template met its slot."""
    if first == second and not first.startswith("ال"):
        return False
    if _definite(first) and not _definite(second):
        return False  # an idafa's last word, then the same noun as the next phrase: "يضع توازي الخبراء خبراء مختلفين"
    a, b = arabic.normalise_token(first), arabic.normalise_token(second)
    if a == b:
        return True
    stem = arabic.without_particle(first)
    return stem is not None and arabic.normalise_token(stem) == b


def _definite(word: str) -> bool:
    """Whether `word` carries the article, after an attached و/ف and a preposition ("والخبراء", "بالشرائح", "للنموذج")."""
    return re.match(r"^[وف]?(?:[بكل]?ال|لل)", word) is not None


def _undoubled(text: str) -> str:
    """`text` without a word said twice in a row or a bracket repeated right after itself."""
    text = _DOUBLED_BRACKET.sub(lambda m: m.group(1) or m.group(3), text)
    text = _ACRONYM_BRACKET.sub(r"\1", text)  # "وحدات GPU (GPUs)": the house term already holds the English
    out, last = [], 0
    for m in _DOUBLED.finditer(text):
        # the same word ends alike: a cheap test first, the normalised comparison only for the few that pass
        if m.start() < last or m.group(1)[-2:] != m.group(2)[-2:] or not _same(m.group(1), m.group(2)):
            continue
        second = re.compile(r"\s+" + re.escape(m.group(2))).match(text, m.end())
        if m.group(2).startswith("ال") and not m.group(1).startswith(("ال", "بال", "وال", "فال", "كال", "لل")):
            out.append(text[last:m.start()])  # "مرحلة المرحلة الأولى": the definite one is the one the phrase needs
            last = second.start() + len(second.group(0)) - len(m.group(2))
        else:
            out.append(text[last:m.end()])
            last = second.end()
    out.append(text[last:])
    return "".join(out)


# ------------------------------------------------------------------------------------------------ English counts

@lru_cache(maxsize=1)
def _english_counts() -> tuple[re.Pattern, dict]:
    words = arabic.counting()["english"]
    pattern = re.compile(r"(?<![A-Za-z0-9_.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(\s?[KMBT])?\s+"
                         r"((?:[A-Z][\w-]*\d[\w-]*\s+)?)(" + "|".join(sorted(words, key=len, reverse=True)) + r")(?![\w/-])")  # "tokens/s" is a unit
    return pattern, words


def _arabic_counts(text: str) -> str:
    """English count words after a number in Arabic prose as Arabic: "54 days" -> "54 يوم", "1.46M H100 hours"
    -> "1.46M ساعة H100", "15.6 trillion" -> "15.6 T" (then counted by arabic.agree_numbers)."""
    pattern, words = _english_counts()

    def arabic_count(m: re.Match) -> str:
        if not _in_arabic(text, m.start(), m.end()):
            return m.group(0)
        number, scale, name, word = m.group(1), (m.group(2) or "").strip(), m.group(3).strip(), words[m.group(4)]
        if len(word) == 1:  # a scale word: "15.6 trillion"
            return f"{number} {arabic.counting()['scales'][word]['singular']}" if not scale else m.group(0)
        return f"{number}{scale} {word}" + (f" {name}" if name else "")
    return pattern.sub(arabic_count, text)


@lru_cache(maxsize=1)
def _rates() -> tuple[re.Pattern, dict, dict]:
    rates, counts = arabic.counting()["rates"], arabic.counting()["english"]
    per = "|".join(sorted(rates["per_time"], key=len, reverse=True))
    device = "|".join(sorted(rates["per_device"], key=len, reverse=True))
    words = "|".join(sorted((w for w in counts if len(counts[w]) > 1), key=len, reverse=True))
    pattern = re.compile(rf"(?<![A-Za-z0-9_.,])(\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?)(\s?[KMBT])?\s*"
                         rf"(?:({words})/(?:({device})/)?({per})|([TPGE]FLOP[Ss]?(?:/s)?|[TPGE]Flops))(?:/({device}))?(?![\w/-])", re.I)
    return pattern, rates["per_time"], rates["per_device"]


def _arabic_rates(text: str) -> str:
    """English rate units after a number in Arabic prose as Arabic: "1600 tokens/sec/GPU" -> "1600 رمز في الثانية
    لكل وحدة GPU", "420 TFLOPs/s/GPU" -> "420 TFLOPs/s لكل وحدة GPU" (the unit kept, the per-device part said)."""
    if "/" not in text:
        return text
    pattern, per_time, per_device = _rates()
    counts = arabic.counting()["english"]

    def arabic_rate(m: re.Match) -> str:
        number, scale, word, device_first, time, unit, device = m.groups()
        device = device or device_first  # "tokens/device/second" as "tokens/second/device"
        if not _in_arabic(text, m.start(), m.end()) or (unit and not device):
            return m.group(0)
        said = f"{number}{scale or ''} " + (f"{unit}" if unit else f"{counts.get(word, counts.get(word.lower()))} {per_time[time.lower()]}")
        return said + (f" {per_device[device.lower()]}" if device else "")
    return pattern.sub(arabic_rate, text)


@lru_cache(maxsize=1)
def _duals_after_measure() -> re.Pattern:
    duals = sorted({row["dual"] for row in arabic.counting()["rows"] if row["dual"].endswith("ين")}, key=len, reverse=True)
    return re.compile(rf"(?<![{_LETTER}])(قدره|قدرها|مقداره|مقدارها)(\s+)(" + "|".join(map(re.escape, duals)) + rf")(?![{_LETTER}])")


def _nominative_duals(text: str) -> str:
    """A dual after "قدره" is the predicate, nominative: "تسريعًا قدره ضعفين" -> "تسريعًا قدره ضعفان", "زمنًا قدره
    يومين" -> "زمنًا قدره يومان" (the counting table writes duals in the -ين form a preposition or a verb takes)."""
    if "قدر" not in text and "مقدار" not in text:
        return text
    return _duals_after_measure().sub(lambda m: m.group(1) + m.group(2) + m.group(3)[:-2] + "ان", text)


# ------------------------------------------------------------------------------------------------ agreement

@lru_cache(maxsize=1)
def _agreement() -> tuple[re.Pattern, dict, dict]:
    """The verbs that agree with the noun after them, each form's other form, and nouns' genders."""
    rules = table()["agreement"]
    other = {m: f for m, f in rules["verbs"]} | {f: m for m, f in rules["verbs"]}
    genders = dict(rules["nouns"])
    for noun in arabic.counting()["rows"]:
        genders.setdefault(noun["singular"], noun["gender"])
        if not noun.get("human"):
            genders.setdefault(noun["plural"], "f")  # a plural of things takes the feminine singular
    # only a definite noun: right after a verb it is the subject ("يحتاج النموذج"); an indefinite one is often not, but
    # the house term for a chip ("وحدة GPU") names one as a definite noun does ("فيبقى وحدة GPU" -> "فتبقى وحدة GPU")
    pattern = re.compile(rf"(?<![{_LETTER}])(لا |هل |و|ف)?({'|'.join(sorted(other, key=len, reverse=True))})\s+"
                         rf"(?:(ال)([{_LETTER}]+)|(وحدة|وحدات)(?=\s+[A-Z]{{2,5}}\b))")
    return pattern, other, genders


def _disagreeing(text: str):
    """The verbs in `text` whose form does not agree with the gender of the noun right after them."""
    pattern, other, genders = _agreement()
    for m in pattern.finditer(text):
        gender = genders.get(m.group(4) or m.group(5))
        if gender is not None and (m.group(2).startswith("ت") != (gender == "f")):
            yield m, other[m.group(2)]


def _agreeing_verbs(text: str) -> str:
    """`text` with each verb agreeing with its subject: "تحتاج النموذج" -> "يحتاج النموذج"."""
    out, last = [], 0
    for m, right in _disagreeing(text):
        out += [text[last:m.start(2)], right]
        last = m.end(2)
    out.append(text[last:])
    return "".join(out)
