"""Short forms of glossary definitions for the answer's terms list: a first clause cut only where a clause ends, and
the everyday words of the field (data/generic_terms.json) that a tight answer leaves out."""

import json
import re
from functools import cache

from calculators.resources import data_dir

from service.explain import pattern_cache


@cache
def generic_term_ids() -> frozenset[str]:
    """The glossary ids data/generic_terms.json marks as everyday words of the field, loaded once."""
    table = json.loads((data_dir() / "generic_terms.json").read_text(encoding="utf-8"))
    return frozenset(i for group in table["groups"] for i in group["ids"])


@cache
def unlisted_beside_own() -> frozenset[str]:
    """The everyday ids never listed beside a passage's own terms, however often named (a company's name)."""
    table = json.loads((data_dir() / "generic_terms.json").read_text(encoding="utf-8"))
    return frozenset(i for group in table["groups"] if group.get("unlisted_beside_own") for i in group["ids"])


@cache
def named_products() -> frozenset[str]:
    """Names of one machine or product that everyday entries also match ("El Capitan"): the passage's own terms."""
    table = json.loads((data_dir() / "generic_terms.json").read_text(encoding="utf-8"))
    return frozenset(table.get("named") or ())


def brief_definition(sentence: str, max_words: int | None = None) -> str:
    """A definition's first sentence cut to its first clause when it is longer than `max_words` (BRIEF_MAX_WORDS):
    only where a clause ends (";", a dash, a colon, ", which"), never mid-fact and with no "…"; a sentence with no
    such end stays whole."""
    if len(sentence.split()) <= (max_words or BRIEF_MAX_WORDS):
        return sentence
    ends = list((_FIT_CLAUSE_END if max_words else _CLAUSE_END).finditer(sentence))
    listed = False  # after "The two latencies ...:" the parts up to the end are the list it announced: none is cut off
    for n, end in enumerate(ends):
        if listed:
            break
        head = sentence[:end.start()].rstrip(" ,،")
        after = sentence[end.end():ends[n + 1].start() if n + 1 < len(ends) else len(sentence)]
        before_colon = FIT_MIN_WORDS_BEFORE_COLON if max_words else BRIEF_MIN_WORDS_BEFORE_COLON
        if re.fullmatch(r",\s[a-z]+ing\s", end.group()) and re.search(r"ing$", head):
            continue  # "for building, training and deploying models": a list of gerunds, not a participle clause
        if end.group().startswith("،") and after.startswith("و") and len(head.split()) < FIT_MIN_WORDS_BEFORE_AND:
            continue  # "عملية جماعية تسهم فيها كل شريحة بمصفوفة، وتنتهي ...": a short head; the "and" clause finishes its fact
        if not end.group().strip(" ،,") and _FRONTED.match(sentence[max(sentence.rfind(": ", 0, end.start()) + 2, 0):]):
            continue  # "...: before the all-gather that ..., each chip quantizes": the fronted clause waits for its main one
        if end.group().strip() == ":" and (_ANNOUNCES.search(head) or _FIGURE.search(after) or _HEADING.match(head) or _SAYS_HOW.match(head)
                                           or _MEMBER_OF.match(head) or _KIND_HEAD.match(head)
                                           or _RELATIVE_HEAD.match(head) or _SETTING_HEAD.match(head)
                                           or len(head.split()) < before_colon):
            listed = bool(_ANNOUNCES.search(head))
            continue  # "two kinds:" announces the fact that follows, ": 32 billion active" is it; both stay
        if len(head.split()) >= (FIT_MIN_WORDS_BEFORE_COLON if max_words else BRIEF_MIN_WORDS) \
                and head.count("(") == head.count(")") and not (_SETTING_HEAD.match(head) and not re.search(r"[:,،]", head)):  # "In RL for language models," is where, not what
            return head + "."
    return sentence


# Words before a colon that announce what follows it ("in two ways:", "as follows:"): that colon is no clause end.
_ANNOUNCES = pattern_cache.lazy(r"^(?:[Tt]he\s+)?(?:[Tt]wo|[Tt]hree|[Ff]our|[Bb]oth)\s|"  # "The two latencies of serving a model:"
                                r"^(?:[Tt]he|[Aa])\s+(?:first|second|third|last|final|initial)\s|"  # "The second phase of a request:"
                                r"\b(?:two|three|four|five|several|both|kinds?|types?|ways?|steps?|parts?|follows?|following|"
                                r"namely|is|are|means?|اثنين|نوعين|نوعان|طريقتين|التالي|التالية"
                                r"|جزأين|جزئين|جزءين|قسمين|خطوتين|مرحلتين|أجزاء|أنواع|طرق|خطوات)\W*$|\d\W*$")
# "One of the three parts of ZeRO++:" says where the term belongs; what it does follows the colon (round 59 P04)
_MEMBER_OF = pattern_cache.lazy(r"(?:One|Each|Part)\s+of\s+(?:the\s+)?(?:\w+\s+){0,2}(?:parts?|components?|pieces?|designs?|stages?|steps?|"
                                r"kinds?|members?|techniques?|optimi[sz]ations?)\s+of\s|(?:أحد|إحدى|جزء من)\s")
# "An option of PyTorch's caching allocator ..., set through PYTORCH_CUDA_ALLOC_CONF:" says what kind of thing it is; what
# it does follows the colon (round 70: "the expandable_segments entry is empty")
_KIND_HEAD = pattern_cache.lazy(r"(?:An?|The)\s+(?:option|setting|flag|switch|knob|environment variable|argument|parameter|feature|mode)\s+"
                                r"(?:of|in|for|to|that)\s|(?:خيار|إعداد|متغير بيئة|ميزة|وضع)\s", re.I)
# A clause opened by a subordinator ("before the all-gather that ..., each chip ...", «قبل ...، تكمم ...») is cut off at
# its comma: its main clause comes after
_FRONTED = pattern_cache.lazy(r"\s*(?:before|after|when|whenever|once|if|while|until|unless|besides|in addition to|قبل|بعد|عندما|عند|حين|إذا|بينما|حتى|"
                            r"إضافة إلى|بالإضافة إلى|فضلا عن|فضلًا عن)\s", re.I)
# "A way of splitting a long sequence for ring attention:": what follows the colon is the way (stop 57 audit)
_SAYS_HOW = pattern_cache.lazy(r"(?:An?|The)\s+(?:way|method|technique|scheme|trick|approach)\s+(?:of|for|to)\s")
# A head that is a relative clause ("ما توصلت إليه ورقة Chinchilla:", "what the paper found:") only announces its fact.
_RELATIVE_HEAD = pattern_cache.lazy(r"(?:ما|الذي|التي|what)\s", re.I)
# A figure after a colon is the fact the definition exists for (a MoE's active parameter count, issue 18).
_FIGURE = pattern_cache.lazy(
    r"(?<![\w.])\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen|hundred|thousand|million|billion|trillion"
    r"|percent|half|twice|اثنان|اثنين|ثلاث|ثلاثة|أربع|أربعة|خمس|خمسة|ستة|سبع|سبعة|ثماني|ثمانية|تسع|تسعة|عشر|عشرة"
    r"|مئة|ألف|مليون|مليار|مليارا|تريليون|نصف|ضعف)\b")
BRIEF_MAX_WORDS = 24  # a first sentence this short is kept whole: its after-colon part is the fact (H800's links)
BRIEF_MIN_WORDS_BEFORE_COLON = 8  # a short head before a colon is a heading ("How Google Cloud names a slice:")
FIT_MIN_WORDS_BEFORE_AND = 10  # an Arabic head shorter than this before "، و<verb>" is half a fact (all-reduce, round 42)
FIT_MIN_WORDS_BEFORE_COLON = 5  # in the tightest form "Idle time in pipeline parallelism:" is the definition
# A head that only says where the sense holds ("In distributed training (and in serving on several GPUs):") is no
# definition: cut there, "rank" was defined by its setting alone (round 47's own reading)
_SETTING_HEAD = pattern_cache.lazy(r"(?:In|For|On|Within|Inside|In the context of)\s(?!.*\b(?:is|are|means)\b)|(?:في|عند|لدى|ضمن)\s(?!.*\b(?:هو|هي|يعني|تعني)\b)")
_HEADING = pattern_cache.lazy(r"(?:How|What|Why|When|Where|Which)\b|(?:كيف|ماذا|لماذا|متى|أين)\s")  # a question-like head
BRIEF_MIN_WORDS = 6  # a clause shorter than this ("A chip;") is no definition: the cut waits for the next clause end
# Where a clause ends: a semicolon (Arabic too), a colon after a whole clause, a spaced dash, or ", which",
# ", because", "، وهذا" opening a comment on what was said.
_CLAUSE_END = pattern_cache.lazy(r"\s*[;؛:]\s|\s[—–]\s|,\s(?:which|because|as in)\s|،\s(?:وهذا|وهو ما|وهي ما)\s")
# In the tightest form ("fit") an example, a consequence or a participle clause after a comma ends the clause too:
# "A family of schedules that split each backward pass in two, computing ..." keeps what the term is, not how.
_FIT_CLAUSE_END = pattern_cache.lazy(r"\s*[;؛:]\s|\s[—–]\s|,\s(?:which|because|as in|for example|e\.g\.|such as|so that|so|"
                                     r"and then|then|while|whereas|[a-z]+ing)\s|،\s(?:وهذا|وهو ما|وهي ما|مثل|مثلا|أي|كأن|كما)\s"
                                     r"|،\s(?=[وف]?[تين][\u0621-\u064A]{2,})")  # an Arabic comma before a verb ("، وتنتقل", "، تكبر")
