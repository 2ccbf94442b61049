"""An Arabic sentence after a reporting verb ("يذكر النص ..."): أنّ before a noun, the verb's subject brought before it
when a sentence opens with its verb ("تتضمن الحوسبة ..." -> "أنّ الحوسبة تتضمن ..."), أنه only where Arabic puts it
(before an impersonal verb, a negation or an opening adverbial: "أنه تم ...", "أنه لم ..."); None when no reading is
sure, so that the sentence is given as the author's words instead of an ungrammatical "أنه تتضمن" or "أنّ تم"."""

import re

_TASHKEEL = re.compile(r"[\u064B-\u0652\u0640]")
_PUNCT = "،,.:;؛!؟?"
# Verbs with no subject after them: Arabic reports them with أنه ("أنه تم تدريب ...", "أنه يمكن ...").
_IMPERSONAL = {"تم", "يتم", "يمكن", "يجب", "ينبغي", "يلزم", "يوجد", "توجد", "يبدو", "يُعتقد", "يعتقد", "يقال", "لابد"}
# Words that open with a negation or an adverbial: أنه before them is the usual Arabic ("أنه لم ...", "أنه بعد ...").
_OPENERS = {"لا", "لم", "لن", "ليس", "ليست", "بخلاف", "خلافا", "خلافًا", "خلافاً", "بعكس", "في", "على", "من", "إلى", "مع", "عند", "بعد", "قبل", "خلال", "منذ", "رغم",
            "بدلا", "بدلاً", "بدلًا", "وفقا", "وفقًا", "وفقاً", "بسبب", "حسب", "بحسب", "مثل", "عبر", "تحت", "بين", "نظرا",
            "نظرًا", "نظراً", "استنادا", "استنادًا", "استناداً", "طبقا", "طبقًا", "تبعا", "تبعًا", "لذلك", "بالإضافة", "عندما", "إذا", "لو", "كلما", "حين", "حيث", "قد", "لقد",
            "سوف", "أثناء", "لدى", "داخل", "ضمن", "إثر", "عقب", "حتى", "للمرة",
            "الآن", "اليوم", "حاليا", "حاليًا", "حالياً", "مؤخرا", "مؤخرًا", "مؤخراً", "عادة", "عادةً", "غالبا", "غالبًا", "غالباً"}  # adverbs of time  # the future particle opens a verb phrase: "أنه سوف يحتاج", never "أنّ سوف يحتاج"
# Past verbs of the third person masculine that no letter pattern tells from a noun.
_PAST = {"قال", "أعلن", "أكد", "أوضح", "كشف", "ذكر", "أشار", "بلغ", "وصل", "حقق", "تجاوز", "استخدم", "اعتمد", "اشترى", "أنفق",
         "انخفض", "ارتفع", "زاد", "تحسن", "تضاعف", "استغرق", "احتاج", "انتقل", "قدم", "أطلق", "طور", "درب", "كان", "أصبح", "ظل",
         "بات", "صار", "أدى", "سمح", "أتاح", "جعل", "وفر", "يعد", "تعد", "شهد", "دفع", "أظهر", "بين", "أثبت",
         "التزم", "التزمت", "التحق", "التحقت", "التقى", "التقت",  # past verbs of form VIII that open like an article
         "أصدر", "نشر", "طرح", "أضاف", "صرح", "أفاد", "شدد", "لفت", "استعرض", "عرض", "حذر", "أتم", "أنهى",
         "أثار", "لاحظ", "تلاحظ", "يلاحظ", "اقترح", "أجرى", "قارن", "قاس"}
_NOT_VERBS = {"يوم", "يونيو", "يوليو", "يناير", "يد", "تحت", "تجاه", "ثابت", "وقت", "بيت", "صوت", "تمت", "إنترنت", "انترنت"}
# Particles and quantifiers that never stand inside a subject's chain of nouns ("قالت إنفيديا إن ...").
_PARTICLES = {"إن", "إنّ", "أن", "أنّ", "كما", "التي", "الذي", "الذين", "ما", "عن", "أي", "كل", "بعض", "أو", "ثم", "نحو", "حوالي"}
# words after which أنّ has no noun to take: a pronoun, a conjunction that opens a clause of its own
_NO_SUBJECT = {"هو", "هي", "هم", "هن", "ها", "لأن", "لأنه", "لأنها", "لأنّ", "إذ", "بينما", "كما", "لكن", "لكنه", "لكنها", "لكنّ",
               "بل", "أي", "أما", "ثم", "أو", "إن", "إنّ", "فإن", "فإنّ", "كي", "حتى"}
_ATTACHED_PRONOUN = re.compile(r"^(?:ها|هما|هم)$")
# a prepositional phrase opening on ب/ل + a verbal noun ("باستخدام", "بفضل", "لتدريب"): its subject comes later
_PREPOSITIONAL = re.compile(r"^[بل](?:استخدام|فضل|فضلا|تدريب|تشغيل|ضمان|تحقيق|تقليل|زيادة|افتراض|اعتبار|مقارنة|النسبة)")
_DEMONSTRATIVE = {"هذا", "هذه", "ذلك", "تلك", "هذان", "هاتان", "هؤلاء"}
# a quantity noun whose subject goes on with من and a noun: "أعلنت العشرات من الشركات" (the dozens of companies)
_QUANTITY = {"العشرات", "المئات", "الآلاف", "الملايين", "العديد", "الكثير", "عشرات", "مئات", "آلاف", "معظم", "أغلب", "بعض"}
# verbs of the first person plural: the author speaks ("نوصي عمومًا ..."); the text's verb would change its person
_WE = {"نوصي", "ننصح", "نقترح", "نستخدم", "نعتقد", "نرى", "نحتاج", "نقدم", "نلاحظ", "نجد", "نعرض", "نوضح", "نستطيع", "نريد",
       "نحن", "يمكننا", "نتوقع", "نفضل", "نستنتج", "نبين"}
# an indefinite accusative opening a sentence is an adverbial ("ردًا على ذلك، ...", "تاريخيًا، ..."): أنه, not أنّ
# adverbs a sentence opens with ("وفقاً لـ", "نظراً لـ", "عادةً"), bare of their tanween and final alif: "و" before one joins
_OPENING_ADVERBS = {"وفق", "نظر", "عاد", "غالب", "حالي", "تقريب", "مثل", "أول", "ثاني", "أخير", "حديث", "سابق", "لاحق", "أيض"}
_ADVERBIAL = re.compile(r"(?:ًا|اً)[،,]?$")
# a heading before a colon, a verb after it with its own subject: "تحديث ديسمبر 2025: حققت Stripe ..." (the heading goes)
_HEADING = re.compile(r"^(?:\d+[.)]\s*)?([^:،.]{1,40}?)\s*:\s+(?=[ء-ي])")
_LATIN = re.compile(r"^[A-Za-z][\w.+-]*$")
_VERSION = re.compile(r"^\d+\.\d+(?:\.\d+)*[A-Za-z]*$|^\d+(?:\.\d+)?[BbMKkT]$")  # "Llama 3.1 8B": a version or a size inside the name
MAX_SUBJECT_WORDS = 6
# A word that opens a prepositional phrase for certain: بـ/لـ/كـ with the article ("بالسرعة", "للتدريب") or before a
# verbal noun of the افتعال/استفعال patterns ("باتصال", "باستخدام"): no subject, nor a noun for أنّ to take.
_PREPOSED = re.compile(r"^و?(?:بال|لل|كال|با(?:ست|ت|ن)[\u0621-\u064A]{3,}|ب(?:دقة|سرعة|حجم|سعة|معدل|نسبة|فضل|سبب|شكل|قيمة)$)")
# After a verb of allowing or requiring, a verbal noun of the تفعيل pattern is its object as often as its subject
# ("يتيح تشغيل النماذج محليا": the device allows running them); the subject is not read with certainty.
_VERBAL_NOUN = re.compile(r"^ت[\u0621-\u064A]{2}ي[\u0621-\u064A]$")
_TAKES_VERBAL_NOUN = {"يتيح", "تتيح", "يسمح", "تسمح", "يتطلب", "تتطلب", "يستلزم", "تستلزم", "يدعم", "تدعم", "يوفر", "توفر",
                      "يسهل", "تسهل", "يضمن", "تضمن", "يمكن", "تمكن", "يحاول", "تحاول", "يسرع", "تسرع"}


def _bare(word: str) -> str:
    return _TASHKEEL.sub("", word).strip(_PUNCT + "«»“”\"'")


def is_verb(word: str) -> bool:
    """Whether an Arabic word opening a sentence is a verb: an imperfect (يفعل, تفعل), a past of the third person
    feminine (فعلت), or one of the past verbs listed; nouns of the same letters (تدريب, تكلفة, توازي, تكاليف) are not."""
    w = _bare(word)
    if w in _PAST or w in _IMPERSONAL or re.match(r"[\u0621-\u0644\u0646-\u064A]\u064F[\u0621-\u064A][\u0650\u0651]", word.lstrip("وف")):
        return True  # "طُبِّق", "دُرّب": a damma on the first letter, then a kasra or shadda, is a passive past (not "مُحسِّن")
    if w in _NOT_VERBS or w.startswith("ال") or len(w) < 3 or not re.fullmatch(r"[\u0621-\u064A]+", w):
        return False
    if w.startswith("ي"):
        return True
    if w.startswith("س") and w[1:2] in ("ي", "ت", "ن") and len(w) >= 5:
        return True  # a future: "سيحتاج", "ستتضمن", "سنقوم"
    if w.startswith("تت") and len(w) >= 5 and not w.endswith(("ة", "ات", "ية")):
        return True  # "تتميز", "تتطلب", "تتضمن": an imperfect of a ta- form, though its fourth letter looks like تفعيل's
    if w.startswith("ت"):  # a verb, unless a noun's pattern: -ة, -ات, -ية, تفعيل (تدريب), تفاعل/تفاعيل (توازي, تكاليف)
        return not (w.endswith(("ة", "ات", "ية")) or (len(w) == 5 and w[3] == "ي") or (len(w) >= 5 and w[2] == "ا"))
    if w.endswith("ت") and not w.endswith("ات") and 4 <= len(w) <= 6:
        return True  # "اشترت", "أعلنت", "قالت", "بلغت"
    if w.startswith("است") and len(w) == 6 and w[4] not in "اوي":
        return True  # a past of the tenth form ("استهلك", "استغرق"); its verbal noun has a long vowel ("استخدام")
    if w.startswith("ا") and len(w) == 5 and w[3] not in "اوي" and (w[2] in "تط" or w[1] == "ن"):
        return True  # a past of the seventh or eighth form ("انخفض", "ارتفع", "اعتمد"); not "اتصال"
    return False


def _feminine(word: str) -> bool:
    w = _bare(word)
    return w.endswith(("ة", "ات"))


# nouns whose own first letter is و ("وحدات GPU" after "تستخدم الشركة" is the object, no "and ...")
_WAW_NOUN = re.compile(r"و(?:حد|صل|قت|زن|ظ[يا]|سي|ضع|جود|سائل|كيل|رق|اجه|ثائق|ثيق)")


_TIME_WORDS = frozenset("يوم اليوم أمس غدا صباح مساء ليلة الأسبوع الشهر العام الاثنين الثلاثاء الأربعاء الخميس الجمعة السبت الأحد".split())


def subject_after(words: list[str], verb: str = "") -> int:
    """How many words after a sentence's opening verb are its subject: a definite noun ("الحوسبة"), a chain of nouns
    ending in one ("تكلفة تدريب النموذج"), a demonstrative with its noun ("هذه الدراسة"), a Latin name; with the
    adjectives that agree with it in gender and its bracketed gloss. 0 when no subject is read with certainty.
    After a feminine verb, a head with no feminine ending is a plural of things ("اختيرت المواقع الجديدة"), whose
    adjective and whose object are both feminine words: no subject is read then."""
    n, head, defined = 0, None, False
    if words and _PREPOSED.match(_bare(words[0])):
        return 0  # "ترتبطان باتصال ...": a preposition opens what follows the verb, not a subject
    while n < len(words) and n < MAX_SUBJECT_WORDS:
        word = words[n]
        core = _bare(word)
        if word.startswith("(") and defined:  # "النموذج اللغوي الكبير (LLMs)"
            close = next((k for k in range(n, len(words)) if ")" in words[k]), None)
            if close is None:
                return 0
            n = close + 1
            if words[close].rstrip().endswith(tuple(_PUNCT)):
                break
            continue
        if not core or n and core in _TIME_WORDS:
            break  # "أعلنت شركة هواوي يوم الخميس ...": the day is when, not part of who
        if not defined:
            if core in _DEMONSTRATIVE and n + 1 < len(words) and _bare(words[n + 1]).startswith("ال"):
                if n:
                    return 0  # "أوضح هوانغ هذا المفهوم": the demonstrative opens the object after a name; where the subject ends is not sure
                n += 1
                continue
            if _LATIN.match(core):
                while n + 1 < len(words) and (_LATIN.match(_bare(words[n + 1])) or _VERSION.match(_bare(words[n + 1]))) \
                        and not word.rstrip().endswith(tuple(_PUNCT)):
                    n += 1  # "Llama 3", "HBM3 Gen2": one name of several words
                    word = words[n]
                n += 1
                following = _bare(words[n]) if n < len(words) and not word.rstrip().endswith(tuple(_PUNCT)) else ""
                if following.isdigit():
                    return 0  # "Llama 3" or "Meta 16000 شريحة": a version of the name or a count after it, not sure which
                if n > 1 and (following.startswith("ال") or following in _OPENERS or re.match(r"[بل][\u0621-\u064A]{3,}", following)):
                    return 0  # "وحدات معالجة Tensor من Google": what follows may still belong to the subject
                defined = True
                break  # what follows a name is not read as its adjective
            elif core.startswith("ال") and not core.startswith("الى"):
                head, defined = core, True
            elif re.fullmatch(r"[\u0621-\u064A]+", core) and (not is_verb(core) or _noun_here(words, n)) and core not in _OPENERS and n < 3 \
                    and core not in _PARTICLES \
                    and not core.startswith(("لل", "بال", "كال", "وال", "فال")):
                head = head or core  # the first noun of an idafa chain ("تكلفة تدريب النموذج")
            else:
                return 0
        else:
            if core in _DEMONSTRATIVE and not word.startswith("("):
                if n + 1 < len(words) and _bare(words[n + 1]).startswith("ال"):
                    break  # "يعالج الترميز التخميني هذه المشكلة": the demonstrative opens the object
                n += 1  # "مخطط التنشيط النادر هذا": the demonstrative after its noun closes the subject
                break
            if _LATIN.match(core):
                return 0  # "تتميز وحدة معالجة الرسوميات Blackwell ...": the subject's name or the verb's object, not sure which
            if core in _NUMBER_WORDS:
                n += 1  # "المراكز الخمسة الجديدة": a number agrees in reverse gender, still the subject's
                if word.rstrip().endswith(tuple(_PUNCT)):
                    break
                continue
            if core == "من" and _bare(head or "") in _QUANTITY and n + 1 < len(words) and _bare(words[n + 1]).startswith("ال"):
                n += 2  # "العشرات من الشركات الصينية": the quantity's noun, then the adjectives that agree with it
                head = _bare(words[n - 1])
                if words[n - 1].rstrip().endswith(tuple(_PUNCT)):
                    break
                continue
            if _feminine_verb(verb) and core.startswith("ال") and _feminine(core) and not _feminine(head or ""):
                return 0  # "اختيرت المواقع الجديدة" (its adjective) or "تستخدم النماذج الذاكرة" (its object): not sure which
            agrees = _feminine(core) == _feminine(head or "")
            if not (core.startswith("ال") and agrees):
                if n > 1 and (re.match(r"[بلك][\u0621-\u064A]{3,}", core) and not core.startswith(("بال", "لل")) or re.match(r"[بلك]ـ", word)):
                    return 0  # "ذاكرة ... الخاصة بشركة ميكرون": the adjective's own complement; the subject's end is not sure
                if n > 1 and core.startswith("لل") and _bare(verb) in _TAKES_VERBAL_NOUN:
                    return 0  # "يتيح عرض النطاق الترددي للذاكرة ...": the subject's complement or what the verb allows to, not sure
                break  # another definite word of another gender is the object, not an adjective
        n += 1
        if word.rstrip().endswith(tuple(_PUNCT)):
            break
    if not n or not (defined or _LATIN.match(_bare(words[0]))):
        return 0
    if _bare(head or "").endswith(("ون", "ين")) and not _LATIN.match(head or ""):
        return 0  # "قال الباحثون": before its verb the subject changes its case and the verb its number
    if _glossed_further(words[n:]):
        return 0  # "المرحلة الثالثة من ZeRO (ZeRO-3)": one name, glossed after its last word; the subject's end is not sure
    if n < len(words) and re.match(r"و[\u0621-\u064A]{3,}", _bare(words[n])) and not is_verb(_bare(words[n])[1:]) \
            and not _WAW_NOUN.match(_bare(words[n])) \
            and not words[n - 1].rstrip().endswith(tuple(_PUNCT)):
        if not _bare(head or "").endswith("ات"):
            return 0  # "أعلنت شركة Apple وشركة Nvidia": before two subjects the verb would be dual; the sentence is quoted
        m = n + 1  # "تتمتع وحدات TPU ومجموعات NVIDIA المتطورة بـ...": the coordinated subject moves whole
        if re.search(r"(?:ه|ها|هم)$", _bare(words[n])) and len(_bare(words[n])) >= 5:
            return 0  # "طوَّر Ainslie وزملاؤه الانتباه ...": people before their verb would make it plural; the sentence is quoted
        while m < len(words) and m < n + 4 and (_LATIN.match(_bare(words[m])) or _bare(words[m]).startswith("ال")) \
                and not words[m - 1].rstrip().endswith(tuple(_PUNCT)):
            m += 1
        if m == n + 1 and m < len(words) and not re.match(r"(?:ب|ل|في|على|من|إلى|عن)", _bare(words[m])):
            return 0  # "ولغة بايثون الحديثة": where the coordinated phrase ends is not sure; the sentence is quoted
        return m
    if any(w.rstrip().endswith(("،", ",")) and k + 1 < len(words) and re.match(r"وال[\u0621-\u064A]{3,}", _bare(words[k + 1]))
           for k, w in enumerate(words[n - 1:n + 6], start=n - 1)):
        return 0  # "أعلنت شركة هيوماين الناشئة في مجال ...، والمملوكة ...": the subject's description goes on past a comma
    if n + 1 < len(words) and not words[n - 1].rstrip().endswith(tuple(_PUNCT)) and _LOOSE_AFTER.fullmatch(_bare(words[n])) \
            and _bare(words[n + 1]).startswith("ال") and not is_verb(_bare(words[n])) and _bare(words[n]) not in _PARTICLES | _OPENERS | _QUANTITY:
        return 0  # "تجمع أفضل نماذج اللغة الكبيرة مفتوحة المصدر ...": "مفتوحة المصدر" may describe the subject; not sure
    return n


# an adjective before its own definite noun ("مفتوحة المصدر", "عالية الأداء"): after a subject it may still describe it
_LOOSE_AFTER = re.compile(r"(?!ال|لل|بال|كال|وال|فال)(?:م[\u0621-\u064A]{3,}|[\u0621-\u064A]{2,}ة)")
_NUMBER_WORDS = {"الاثنان", "الاثنين", "الثلاثة", "الأربعة", "الخمسة", "الستة", "السبعة", "الثمانية", "التسعة", "العشرة",
                 "الثلاث", "الأربع", "الخمس", "الست", "السبع", "الثماني", "التسع", "العشر"}


def _noun_here(words: list[str], n: int) -> bool:
    """A word spelt as a verb that is a noun where it stands: "عرض النطاق" is bandwidth, not "he presented"."""
    return _bare(words[n]) == "عرض" and n + 1 < len(words) and _bare(words[n + 1]).startswith("النطاق")


def _feminine_verb(word: str) -> bool:
    """A verb of the third person feminine: a past ending in ت ("اختيرت"), an imperfect opening on ت ("تستخدم")."""
    w = _bare(word)
    return bool(w) and is_verb(w) and (w.startswith(("ت", "ست")) or (w.endswith("ت") and not w.endswith("ات")))


def _glossed_further(rest: list[str]) -> bool:
    """Whether the words after a subject continue it up to a bracketed gloss: a preposition first, then a bracket within
    a few words, with no verb and no stop between ("... من ZeRO (ZeRO-3) ...")."""
    if not rest or _bare(rest[0]) not in _OPENERS | _PARTICLES:
        return False
    for word in rest[1:5]:
        if word.startswith("("):
            return True
        if is_verb(word) or word.rstrip().endswith(tuple(_PUNCT)):
            return False
    return False


def unjoined(clause: str) -> str:
    """A quoted sentence without the "و" or "ف" that joined it to the one before ("ويضم ..." after "ويضيف:" is "يضم ...")."""
    words = clause.split(maxsplit=1)
    if words and words[0][:1] in "وف" and len(_bare(words[0])) >= 4 and is_verb(words[0][1:]):
        return words[0][1:] + (" " + words[1] if len(words) > 1 else "")
    return clause


def unlabelled(clause: str) -> str:
    """Without a heading before its colon when the verb after it has a subject of its own ("تحديث ديسمبر 2025: حققت Stripe
    ..."); a label that is the subject joins its verb ("التكوين الثاني: يحتوي على ..." is "التكوين الثاني يحتوي على ...")."""
    found = _HEADING.match(clause)
    if not found:
        return clause
    rest = clause[found.end():].split()
    label = found.group(1).split()
    if len(label) >= 2 and any(is_verb(word) for word in label[1:]):
        return clause  # "الموجة الأحدث ذهبت أبعد: درّبت ...": a sentence before the colon, no heading; joined, two verbs run on
    if rest and is_verb(rest[0]) and (subject_after(rest[1:], rest[0]) or _feminine_verb(rest[0]) != _feminine(label[0])):
        return clause[found.end():]  # the verb's own subject follows it, or the heading's gender is not the verb's
    if rest and not is_verb(rest[0]) and any(is_verb(word) for word in rest[1:4]):
        return clause[found.end():]  # "المشكلة الجوهرية في هذا الحل: الخسارة المساعدة تتعارض ...": a sentence of its own
    return f"{found.group(1)} {clause[found.end():]}"


# Connectives that tie a sentence to the one before ("however", "moreover", "therefore"), said with their comma
_CONNECTIVE = re.compile(r"^\s*و?(?:مع ذلك|مع هذا|رغم ذلك|على الرغم من ذلك|لكن|بيد أن|علاوة على ذلك|(?:بال)?إضافة إلى ذلك|في المقابل"
                         r"|من ناحية أخرى|لذلك|لذا|وبالتالي|بالتالي)\s*[،,]\s*")


def reported(clause: str, that_noun: str = "أنّ", that_verb: str = "أنه", by: bool = False) -> str | None:
    """The clause as it follows a reporting verb: "أنّ الحوسبة الموزعة تتضمن ...", "أنه تم ...", "أنّ النموذج ...";
    None when the clause opens with a verb whose subject is not read with certainty (the caller quotes it)."""
    bare = _CONNECTIVE.sub("", clause, count=1)  # "مع ذلك، يجب ...": after أنّ a connective has no sentence before it to join
    words = bare.split()
    if not words:
        return None
    if bare != clause and is_verb(words[0]) and not by:
        return f"{that_verb} {bare}"  # "في المقابل، يتطلب التدريب الواعي بالتكميم ...": the verb first, its subject left whole
    clause = bare
    if words[0][:1] in "وف" and len(_bare(words[0])) >= 4 and is_verb(words[0][1:]):
        words[0] = words[0][1:]  # "وتتضمن الحوسبة ...": the conjunction joined the sentence before, not this one
        clause = " ".join(words)
    if words[0][:1] == "و" and _bare(words[0][1:]) in _DEMONSTRATIVE:
        words[0] = words[0][1:]  # "وهذا أمر مثير ...": after أنّ the joining "و" has nothing to join
        clause = " ".join(words)
    if words[0][:1] == "و" and _bare(words[0][1:]).startswith("ال") and len(_bare(words[0])) >= 5:
        words[0] = words[0][1:]  # "والاختزال الشامل ...": the joining "و" before a definite noun
        clause = " ".join(words)
    if _bare(words[0]) in ("فهو", "وهو", "فهي", "وهي") and len(words) > 1 and is_verb(words[1]):
        # "فهو يسمح بتشغيل ...": the pronoun resumes the subject before; after أنّ it is "أنه يسمح" ("أنه فهو" was said)
        return f"{'أنها' if _bare(words[0]).endswith('ي') else 'أنه'} {' '.join(words[1:])}"
    if words[0][:1] == "و" and re.sub(r"[اى]$", "", _bare(words[0][1:])) in _OPENING_ADVERBS and len(words) > 1:
        words[0] = words[0][1:]  # "ووفقاً لفريق البحث، ...": the joining "و" before an adverb ("أنه ووفقاً" was said)
        clause = " ".join(words)
    if by:  # "يوصي النص بأنّ ...": a recommendation takes its clause with بـ
        return None if (said := reported(clause, that_noun, that_verb)) is None else "ب" + said
    first = _bare(words[0])
    if first in _WE:
        return None  # "نوصي عمومًا ...": the author's own voice; quoted, not put in the text's third person
    if noun_phrase_only(clause):
        return None  # "الدعم الغني لجداول الأنابيب ...": a list's item, no predicate; quoted as written
    label = re.match(r"^([^:،.]{1,80}):\s+(\S+)", clause)
    if label and is_verb(label.group(2)) and not any(is_verb(w) for w in label.group(1).split()):
        return None  # "اختناقات الإدخال/الإخراج في التدريب: يعيق ...": a heading before a verb of its own; «أنّ» takes neither
    if _ADVERBIAL.search(words[0]) and len(words) > 1:
        return f"{that_verb} {clause}"
    if words[0].rstrip().endswith(":") and _LATIN.match(first):
        return None  # "float16: نوصي بتشغيل ...": a list item's label, no subject for أنّ; quoted as written
    if "•" in clause or first in ("إليك", "إليكم", "هاك"):
        return None  # a list of bullets, "here is ...": no sentence a particle can take
    if first == "حيث" and len(words) > 1 and is_verb(words[1]):
        return reported(" ".join(words[1:]), that_noun, that_verb)  # "حيث تعتمد على ...": the connective joins what came before
    if first[:1] in "وف" and _bare(first[1:]) in _OPENERS:
        words[0] = words[0][1:]  # "واستنادا إلى التقارير، ...", "ففي السعودية": after أنه the joining letter joins nothing
        clause, first = " ".join(words), _bare(words[0])
    if first == "لقد":  # "أنه لقد نجح" is no Arabic: after أنه the emphatic لقد is قد
        words[0], first = "قد", "قد"
        clause = " ".join(words)
    if first in _IMPERSONAL or first in _OPENERS \
            or _PREPOSED.match(first) and not _PREPOSITIONAL.match(first):
        return f"{that_verb} {clause}"
    if first in _NO_SUBJECT or first.startswith(("فـ", "فإن", "فإنّ")) or _ATTACHED_PRONOUN.match(first) \
            or _PREPOSITIONAL.match(first) or re.match(r"^ف[A-Za-z]", first):
        return None  # "ها محدودة", "هو أحدث ...", "لأن ...", "فـPrefill ...", "باستخدام ...": no subject for أنّ; quoted
    if not is_verb(words[0]) and _bare_indefinite(words):
        return f"{that_verb} {clause}"  # "أنّ بحث جديد" needs "بحثًا": "أنه بحث جديد ..." leaves the noun as written
    if first == "هناك" or not is_verb(words[0]):
        return f"{that_noun} {clause}"
    if _bare(words[0]) in _TAKES_VERBAL_NOUN and len(words) > 1 and _VERBAL_NOUN.match(_bare(words[1])):
        return None
    count = subject_after(words[1:], words[0])
    if not count:
        return None
    while 1 + count < len(words) and words[1 + count].startswith("(") and not words[count].endswith(tuple(_PUNCT)):
        count += 1  # "اتحاد Ultra Ethernet (UEC)": the name's own bracketed short form goes with it
        while 1 + count < len(words) and not words[count].endswith(")"):
            count += 1
    subject = " ".join(words[1:1 + count])
    rest = " ".join(words[1 + count:])
    ending = subject[-1] if subject[-1] in _PUNCT else ""
    subject = subject.rstrip(_PUNCT)
    verb = words[0]
    return f"{that_noun} {subject} {verb}{ending}" + (f" {rest}" if rest else "")


def _bare_indefinite(words: list[str]) -> bool:
    """Whether a clause opens on an indefinite noun whose accusative after أنّ would add a letter ("بحث" -> "بحثًا"):
    not definite, not a name, a number or a demonstrative, not ending in ة, ى or اء (whose accusative is written the
    same), and not the first noun of a construct ("استخدام الذاكرة", "معظم النماذج"), whose case ending is not written."""
    first = _bare(words[0])
    if not re.fullmatch(r"[\u0621-\u064A]{2,}", first) or first.startswith("ال") or first in _DEMONSTRATIVE \
            or first.endswith(("ة", "ى", "اء", "ات", "ًا", "ا")) or first in _QUANTIFIERS:
        return False
    following = _bare(words[1]) if len(words) > 1 else ""
    return bool(following) and not following.startswith("ال") and re.fullmatch(r"[\u0621-\u064A]+", following) is not None


_QUANTIFIERS = {"كل", "بعض", "معظم", "أغلب", "أكثر", "أقل", "أحد", "إحدى", "جميع", "عدد", "نحو", "حوالي", "غير", "مثل",
                "هناك", "هنالك", "ثمة", "هنا"}  # and the adverbs a nominal sentence opens on ("أنّ هناك حدًا ...")


# A sentence that is itself someone's reported words: "وذكر كلارك أيضًا، أن ديل ...", "وقالت الشركة إن ...".
_SAYS = re.compile(r"^[وف]?(?:قال|ذكر|أكد|أوضح|أشار|أعلن|كشف|أضاف|صرح|أفاد|شدد|لفت|أخبر|أظهر|ادعى|[يت](?:قول|ؤكد|دعي|رى|شير|كشف|ذكر|وض\u0651?ح|علن|فيد))"
                   r"(?:ت)?\s+(?P<who>(?:[^\s.:]+(?:\s+|(?=:))){0,12}?)"
                   r"(?:أيضًا|أيضاً|أيضا)?\s*[،,]?\s*(?:(?:إلى\s+)?(?:أن|أنّ|إن|إنّ|أنه|إنه|أنها|إنها|أنهم|إنهم)\s|:\s*[“\"«])")


def own_speech(clause: str) -> str | None:
    """The clause as its own speaker's words ("ذكر كلارك أن ديل ...") when it reports what a named someone said, without
    the joining "و" and "أيضًا"; None otherwise (the text's own statement is reported by the gist's verb)."""
    found = _SAYS.match(clause.strip())
    if not found or not found.group("who").strip():
        return None
    text = clause.strip()
    text = text[1:] if text[:1] in "وف" and _SAYS.match(text[1:]) else text
    return re.sub(r"\s*(?:أيضًا|أيضاً|أيضا)\s*[،,]?", "", text, count=1)


_WE_VERB = re.compile(r"^(?:نقوم|نستخدم|نقدم|نقترح|نعرض|نقارن|نلاحظ|نجد|ندرب|ندرّب|نتدرب|نستطيع|نحتاج|نرى|نبني|نطبق|نختبر|نوضح|"
                         r"نبين|نحصل|نعتمد|نستعمل|نبدأ|نشغل|نركز|نفترض|نلخص"
                         # a past verb in "we" ("درّبنا نموذجًا", "انتقلنا إلى HSDP", "وجدنا أن"): quoting it is the safe side
                         r"|[وف]?[\u0621-\u064A\u0651]{2,}نا)(?![\u0621-\u064A])")


def we_verb(clause: str) -> bool:
    """Whether an Arabic clause opens on a first-person plural verb ("نقوم بزيادة ..."): the authors' own "we"."""
    return bool(_WE_VERB.match(clause))


def noun_phrase_only(clause: str) -> bool:
    """Whether a clause is a noun phrase with no predicate: a definite noun and its definite adjective first ("الدعم
    الغني لجداول الأنابيب ...", a list's item) and no verb in it; أنّ takes a sentence, never such a phrase."""
    words = [_bare(w) for w in clause.split()]
    words = [w for w in words if w]
    if len(words) < 2 or not (words[0].startswith("ال") and words[1].startswith("ال")) or words[0] in _NOT_HEADS:
        return False
    stems = [w[1:] if w[:1] in "وف" and len(w) > 4 else w for w in words]
    return not any(is_verb(w) or w in _IMPERSONAL or w in ("هو", "هي", "هم", "هما") for w in stems)


_NOT_HEADS = {"الذي", "التي", "الذين", "اللذان", "اللتان"}
