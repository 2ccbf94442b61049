"""Reported speech for the gist: a sentence's role, its person turned to the author's, and a role verb before it."""

import json
import re
from functools import cache

from calculators.resources import data_dir
from service.explain import arabic_clause, change_notes, connectives, gist_lift, gist_names, headings, pattern_cache, question_target, worked_lead
from service.explain.person import CONDITIONAL_ORDER, FINITE as _FINITE, IMPERATIVE as _IMPERATIVE, OPTION_VERB_FIRST, has_verb, lower_first, third_person
from service.i18n.messages import messages

ORDER = ("citation", "question", "proposal", "problem", "expectation", "conclusion", "recommendation", "result", "news", "definition", "cause", "contrast", "overview")
# Words that point back to the sentence before ("That is much slower", "at 32 chips this made X slower"): it reads after it
_ANAPHOR = pattern_cache.lazy(r"^(?:that|this|these|those|it|they)\b(?!\s+(?:is|are)\s+(?:an?|the)\s)|^(?:[يت][\u0621-\u064A]{2,}\s+)?(?:هذا|هذه|ذلك|تلك)\s"
                              r"|^(?:[^\s,;:.]+\s+){1,4}(?:this|that)\s+(?:made|makes|caused|causes|led\s+to|leads\s+to|meant|means)\b"
                              # "For Qwen3.5-397B that is ~8.6 GiB": the size of what the sentence before names
                              r"|^(?:for|on|with|at|in)\s+[^\s,;:]+(?:\s+[^\s,;:]+){0,3},?\s+(?:that|this|it)\s+(?:is|was|comes\s+to|amounts\s+to)\b"
                              # "However, the check does not take this into account": the object points back
                              r"|^.{0,160}?\b(?:take|takes|took|taking|ignores?|ignored|reflects?|handles?|considers?)\s+(?:this|that)"
                              r"(?=\s+into\s+account\b|\s*[.,;!?]|\s*$)", re.I)


@cache
def table() -> dict:
    """data/gist_roles.json, loaded once."""
    return json.loads((data_dir() / "gist_roles.json").read_text(encoding="utf-8"))


@cache
def _pattern(lang: str, name: str) -> re.Pattern:
    section = table()["ar" if lang == "ar" else "en"]
    source = section["roles"].get(name) or section[name]
    if lang == "ar" and name in section["roles"] and name != "question":  # "؟" follows a letter
        source = rf"(?<![\u0621-\u064A])[وفبلك]?(?:{source})(?![\u0621-\u064A])"  # a whole word, not "لان" inside another
    return pattern_cache.lazy(source, re.I if lang != "ar" else 0)


def plain_words(lang: str) -> frozenset:
    """Glossary ids a reader of `lang` meets as plain words ("GPU"): not expanded inside the gist."""
    return frozenset(table().get("plain_words", {}).get(lang, ()))


def roles(sentence: str, lang: str) -> set[str]:
    """Every role of data/gist_roles.json whose cue the sentence carries."""
    return {name for name in ORDER if _pattern(lang, name).search(sentence)}


def role(sentence: str, lang: str) -> str:
    """The sentence's first role in ORDER, a question or a problem before results ('other': no cue, or a table header)."""
    if _HEADER_ROW.match(sentence.strip()):
        return "other"
    found = roles(sentence, lang)
    if "question" in found and _RHETORICAL.search(sentence):
        found.discard("question")  # "... becomes a plumbing number: how fast can A reach B?" states, then spells out
    return next((name for name in ORDER if name in found), "other")


# A statement that spells itself out as a question after a colon ("... a plumbing number: how fast can A reach B?")
_RHETORICAL = pattern_cache.lazy(r"^(?:\S+\s+){6,}[^:?]*:\s*(?:how|what|why|which|who|when|where|is|are|does|do|can|should|will|"
                                 r"كيف|ما|لماذا|هل)\b[^:]*[?؟]\s*$", re.I)
# Column names run together ("Component When to use?", "Option What it does"): a table's header, which nobody asks.
_HEADER_ROW = pattern_cache.lazy(r"^(?:[A-Z][\w-]*\s+){1,3}(?:When|What|How|Why|Which|Where)\s+to\s+\w+\??$|"
                                 r"^(?:[A-Z][\w-]*\s+){1,3}(?:What|How)\s+it\s+\w+\??$")


def point_weight(sentence: str, lang: str) -> float:
    """What the sentence's role adds to its weight as the author's point."""
    if _CONTINUATION.match(sentence):
        return -2.0  # "Like the degree of PP?" continues the question before it
    if re.match(table()[lang if lang == "ar" else "en"]["action_request"], sentence.strip(), re.I):
        return -3.0  # "Can you please take a look?" asks for help with the problem before it, which is the point
    return float(table()["point_weight"].get(role(sentence, lang), 0.0))

_CONTINUATION = pattern_cache.lazy(r"^\s*(?:like|such as|e\.g\.|for example|for instance)\b", re.I)


def lead_weight(sentence: str, lang: str) -> float:
    """What a text's first sentence adds as the point when it reports news (a news report puts its main fact first)."""
    return float(table().get("news_lead_weight", 0.0)) if role(sentence, lang) == "news" else 0.0


def companion_rank(point_sentence: str, sentence: str, lang: str, measured: bool = False) -> int | None:
    """How well `sentence` gives the point's reason or evidence (0 best; None: neither); `measured`: it holds a result."""
    wanted = table()["companions"].get(role(point_sentence, lang), table()["companions"]["other"])
    found = (roles(sentence, lang) | ({"result"} if measured else set())) or {"other"}  # "other": a plain statement
    found -= {"problem"} if "question" in found else set()  # "Is there a bottleneck?" asks; the question step says it
    ranks = [wanted.index(name) for name in found if name in wanted]
    return min(ranks) if ranks else None


def reads_back(sentence: str) -> bool:
    """Whether the sentence opens by pointing back at the one before ("That is much slower ...")."""
    return bool(_ANAPHOR.match(sentence.strip()))


def speaker(sentences: list[str], lang: str) -> str:
    """Who the gist names: 'author' (I, my), 'authors' (we, our) or 'text' (no one speaks in the first person)."""
    joined = "\n".join(sentences)
    if _pattern(lang, "first_singular").search(joined) or (lang != "ar" and re.search(r"(?<![\w/.-])i(?=\s+[a-z])", joined)):
        return "author"
    if _pattern(lang, "first_plural").search(joined):
        return "authors"
    return "text"

_INNER_ASK, _OR_AM_I = re.compile(r",\s*(?:(?:and|but|so)\s+)?(?:i|we)(?:\s+wonder|\s+(?:was|am|are|were) wondering|'(?:m|re) wondering)\s+(?:if|whether)\s+", re.I), re.compile(r"\bor am I\b")
_OPENER = re.compile(r"^(?:given|since|because|as|if|when|while|with|for|after|before|once|although|though)\b", re.I)
_WH_START = re.compile(r"^(?:what|why|how|which|where|when|who|whether)\b", re.I)
_WH, _PRONOUN = r"(?:what|why|how|which|where|when|who|whom|whose)", r"(?:it|this|that|there|they|we|I|you|he|she)"
_AUX = r"(?:am|is|are|was|were|can|could|would|will|should|has|have)"  # "Am I missing something?": "whether I am ..."
_LEADING_ADVERB = pattern_cache.lazy(r"^(?:(?:so(?!\s+(?:far|much|many|long|that)\b)|but|and|however|also|now|then|theoretically|practically|basically|generally)\s*,?\s+|\w+ly\s*,\s*"
                                     r"|(?:just )?to (?:clarify|be clear)\s*,\s*)+", re.I)  # "Just to clarify, your benchmarks ...?"


def indirect_question(text: str) -> str | None:
    """A direct question as the object of "asks" ("is it X?" -> "whether it is X"); None where a verb form would be guessed."""
    section = table()["en"]
    q = re.sub(section["tag_question"], "", text, flags=re.I)
    tagged = q != text
    q = re.sub(section["ask_opener"], "", q, flags=re.I)
    q = _LEADING_ADVERB.sub("", q).strip().rstrip("?").strip()
    q = _OR_AM_I.sub("or whether I am", q)  # "or am I missing ...": asked too
    if (inner := _INNER_ASK.search(q)) and len((head := lower_first(q[:inner.start()])).split()) >= 3:  # "X, and I wonder if Y"
        return f"whether {q[inner.end():]}, " + (head if _OPENER.match(head) else f"given that {head}")  # "Given X, ...": its own opener
    q = _INNER_ASK.sub(", ", q)  # "X, I wonder if Y" with a short X: Y is asked
    if not q:
        return None
    if re.match(r"^(?:\S+\s+){6,}[^:?]*:\s", q) and not _CHECK_TAG.match(q):
        return None  # "Then we can stream that at 1.2e12 bytes/s: maybe 20.8 ms?": a statement, then what is asked
    checked = _CHECK_TAG.match(q)
    if checked:  # "We get 40% MFU, is this expected?" -> "whether this is expected: we get 40% MFU"
        head = checked.group("head").strip()
        return f"whether this is {checked.group('adj')}{checked.group('rest')}: {head[0].lower() + head[1:] if not head.startswith('I ') else head}"
    request = re.match(section["request"], q + "?", re.I)
    if request:
        wanted = request.group("object").rstrip("?").strip()
        return "for " + (wanted[0].lower() + wanted[1:] if wanted.split()[0][1:].islower() else wanted)  # "for any guidance"
    if _ASKED_FOR.match(q):  # "Any guidance on expert placement?" has no verb: the author asks for it
        return "for " + q[0].lower() + q[1:]
    q = re.sub(r"^(?:for (?:instance|example)|e\.g\.)\s*,?\s*", "", q, flags=re.I)  # an example's marker asks nothing
    premise = _PREMISE_THEN_ASK.match(q)  # "GPUs can sustain 340 GB/s, can we reach that?": the premise is stated, not asked
    if premise and (asked := f"whether {premise['ask2']}" if premise["ask2"] else premise["ask3"] or indirect_question(premise["ask4"] or premise["ask"])):
        return f"{asked}, given that {lower_first(premise['head2'] or premise['head3'] or premise['head4'] or premise['head'])}"  # "but I think Y?": whether Y
    lowered = lower_first(q)
    wanted = _WANT_TO_KNOW.match(lowered)
    if wanted:  # "I am working on a survey and would be interested to know X?": what is asked is X, not the survey
        return "for " + wanted.group("object")
    if _STATEMENT_THEN_ASK.match(lowered):
        return None  # "X could reduce the memory, but how come it ...?": a statement and a question, quoted as written
    supposed = _SUPPOSE.match(lowered)  # "Suppose I'm using X, then I need Y?": whether, if they use X, they need Y
    if supposed:
        return f"whether, if {supposed.group('condition')}, {supposed.group('asked')}"
    conditioned = _CONDITION_THEN_ASK.match(lowered)
    if conditioned:  # "if using X, so does Y mean Z" -> "whether Y means Z, if using X": the condition kept, after
        asked = indirect_question(conditioned.group("asked") + "?")
        return f"{asked}, {conditioned.group('condition')}" if asked else None
    does = _DOES_VERB.match(lowered)
    if does:  # "does training 60B tokens mean ..." -> "whether training 60B tokens means ..."
        return f"whether {does.group('who')} {does.group('verb')}s{does.group('rest')}"
    if re.match(r"^(?:when|if|while|after|before|once)\b[^,?]{3,80},", lowered, re.I):
        return None  # "When I train X, the util is 20%?" opens on a condition: it does not ask "when"
    if tagged:
        return "whether " + lowered
    if re.match(r"^(?:whether|if)\b", lowered, re.I):  # "Does anyone know whether ..." asks whether ...; "I was
        return re.sub(r"^if\b", "whether", lowered, flags=re.I)  # wondering if X" too: an "if" after "asks" reads as a condition
    passive = _WH_BE_PARTICIPLE.match(lowered)
    if passive:  # "how is this 48GB/s calculated" -> "how this 48GB/s is calculated", never "how this is 48GB/s calculated"
        return f"{passive.group('wh')} {passive.group('who')} {passive.group('aux')} {passive.group('rest')}"
    wh = re.match(rf"^(?P<wh>{_WH}(?:\s+\w+)?)\s+(?P<aux>{_AUX})\s+(?P<who>{_PRONOUN})\b(?P<rest>.*)$", lowered, re.I)
    if wh:
        return f"{wh.group('wh')} {wh.group('who')} {wh.group('aux')}{wh.group('rest')}"
    wh_do = re.match(rf"^(?P<wh>{_WH}(?:\s+\w+)?)\s+do\s+(?P<who>they|we|I|you)\b(?P<rest>.*)$", lowered, re.I)
    if wh_do:
        return f"{wh_do.group('wh')} {wh_do.group('who')}{wh_do.group('rest')}"
    wh_noun = _WH_BE_NOUN.match(lowered)
    if wh_noun:  # "why is the MFU only 20%" -> "why the MFU is only 20%"
        return f"{wh_noun.group('wh')} {wh_noun.group('who')} {wh_noun.group('aux')} {wh_noun.group('rest')}"
    if re.match(rf"^{_WH}(?:\s+\w+)?\s+(?:do|does|did)\b", lowered, re.I):
        return None  # "why does the step take ...": a verb to inflect, so quoted, not guessed
    if re.match(rf"^{_WH}\b", lowered, re.I):
        return lowered  # "what would be a reasonable throughput": the question word is its subject
    longer = _YES_NO_NOUN.match(lowered)  # "is the step time too high": a subject of a few words before its predicate
    if longer:
        return f"whether {longer.group('who')} {longer.group('aux')} {longer.group('rest')}"
    yes_no = re.match(rf"^(?P<aux>{_AUX})\s+(?P<who>{_PRONOUN}|the\s+\w[\w-]*(?:\s+of\s+(?:the\s+)?[\w-]+(?:\s+\([^()]*\))?)?)(?![\w-])(?P<rest>.*)$",
                      lowered, re.I)  # "is the all-gather of FSDP the bottleneck": the subject keeps its "of" phrase
    if yes_no and (yes_no.group("aux").lower() in ("is", "are", "was", "were") or re.fullmatch(_PRONOUN, yes_no.group("who"), re.I)):
        return f"whether {yes_no.group('who')} {yes_no.group('aux')}{yes_no.group('rest')}"
    if yes_no:
        return None  # "can the dualpipe approach support vpp": where the subject ends is a guess, so it is quoted
    yes_no_do = re.match(r"^do\s+(?P<who>they|we|I|you)\b(?P<rest>.*)$", lowered, re.I)
    if yes_no_do:
        return f"whether {yes_no_do.group('who')}{yes_no_do.group('rest')}"
    if re.match(rf"^(?:{_AUX}|do|does|did)\b", lowered, re.I) or _NOT_A_CLAUSE.match(lowered) or re.search(rf",\s*{_WH}\b", lowered, re.I) \
            or re.match(r"^(?:since|because|as|given|considering|although|though)\b[^,]{3,},", lowered, re.I):
        return None  # "or because it ...", "regarding X, why does Y": no clause "whether" can take, so quoted
    return "whether " + lowered


# A question that opens on a conjunction or a preposition ("Or because ...?", "Regarding the memory, ...?") is no clause.
_NOT_A_CLAUSE = pattern_cache.lazy(r"^(?:or|and|but|because|so|regarding|about|as for|with|for|in|on)\b", re.I)


_WANT_TO_KNOW = pattern_cache.lazy(r"^.*?\b(?:(?:would|'d)\s+(?:like|love|be\s+(?:interested|curious|glad))\s+to\s+(?:know|learn)|"
                                   r"want\s+to\s+know|(?:am|'m)\s+curious\s+(?:about|to\s+know)|interested\s+in\s+knowing)\s+"
                                   r"(?!(?:if|whether|why|how|what|which|when|where)\b)(?P<object>\S.*)$", re.I)
_PREMISE_THEN_ASK = pattern_cache.lazy(r"^(?!(?:if|when|while|once|since|as)\b)(?P<head>[^,?]{12,}?)\s*(?:,|;|\s[-—–]\s)\s*(?P<ask>(?:can|could|is|are|does|do|will|would|should)\s+(?:we|I|it|this|they|you)\b[^,?]*)$"  # "X, but I think Y?"
                                       r"|^(?P<head2>[^?]{12,}?),\s*but\s+(?:I|we)\s+(?:think|believe|guess|suppose|thought)\s+(?:that\s+)?(?P<ask2>[^?,]+)$"
                                       r"|^(?P<head3>[^?,]{8,}?)\s+but\s+(?P<ask3>(?:what|why|how|where|which|who)(?:'s|’s|\s)[^?]+)$"  # "X but what's ...?"
                                       r"|^(?P<head4>[^?]{12,}?),?\s+(?:so|and|but)\s+my question is\s*:?\s*(?P<ask4>[^?]+)$", re.I)
_STATEMENT_THEN_ASK = pattern_cache.lazy(r"^(?!(?:if|when|while|after|before|once|for|since|as)\b)[^,?]{8,}?,\s*(?:(?:but|and|so)\s+(?:how come|why|how|what|is|are|does|do|can|could)\b|(?:any\s+)?(?:ideas?|thoughts?|suggestions?|clues?|help|insights?|pointers?|hints?)\W*$)", re.I)
_SUPPOSE = pattern_cache.lazy(r"^(?:suppose|supposing|say|assuming|assume)\s+(?:that\s+)?(?P<condition>[^,?]{3,140}?),\s*(?:then\s+)?"
                              r"(?P<asked>(?:I|we|you|it|they|the\s)[^?]+)$", re.I)
_PREDICATE_START = (r"(?:too|so|very|much|only|not|still|always|lower|higher|slower|faster|different|worse|better|larger|smaller|"
                    r"bigger|enough|normal|expected|correct|right|wrong|possible|supported|the\s|a\s|an\s|\d)")
_YES_NO_NOUN = pattern_cache.lazy(rf"^(?P<aux>is|are|was|were)\s+(?P<who>the\s+[a-z][\w./-]*(?:\s+[a-z][\w./-]*){{1,2}}?)\s+"
                                  rf"(?P<rest>{_PREDICATE_START}.*)$", re.I)
_CONDITION_THEN_ASK = pattern_cache.lazy(r"^(?P<condition>(?:if|when)\b[^?]{3,200}?),\s*(?:so|then)?\s*"  # "If X, how could Y?": how Y, if X
                                         r"(?P<asked>(?:does|do|is|are|can|could|would|will|should|how|why|what|which|where)\b.+)$", re.I)
# A few regular verbs a "does X <verb>" question is asked with: their third person is the verb and "s".
_DOES_VERB = pattern_cache.lazy(r"^does\s+(?P<who>(?!it\b|this\b|that\b)[^,?]{2,60}?)\s+(?P<verb>mean|need|require|take|use|work|"
                                r"support|fit|help|matter|hurt|affect|improve|scale|run|include)\b(?P<rest>.*)$", re.I)
# "how is this 48GB/s calculated": a determiner and up to four words, then the participle the question is passive in
_WH_BE_PARTICIPLE = pattern_cache.lazy(r"^(?P<wh>why|how|where|when)\s+(?P<aux>is|are|was|were)\s+(?P<who>(?:this|that|these|those|the|"
                                       r"my|our|their|your)(?:\s+(?![\w-]+(?:ed|en)\b)[\w./-]+){1,4}?)\s+(?P<rest>(?:[a-z]+(?:ed|en)|"
                                       r"done|made|set|built|run|put|split|spent)\b.*)$", re.I)
# "why is the step time so high": the subject is "the" and up to four words, ending before a word that cannot be part of it.
_WH_BE_NOUN = pattern_cache.lazy(r"^(?P<wh>why|how|where|when)\s+(?P<aux>is|are|was|were)\s+"
                                 r"(?P<who>(?:the|this|that|my|our|their|your)(?:\s+(?!(?:only|so|much|not|too|very|still|always|"
                                 r"lower|higher|slower|faster|different|worse|better|than|in|on|at|with|when|for|from|by|"
                                 r"to|of|such|more|less|about|almost|nearly|\d)\b)(?![\w./-]*(?:ed|en)\b)[\w./-]+){1,4})"
                                 r"\s+(?P<rest>(?:only|so|much|not|too|very|still|always|lower|higher|slower|faster|different|"
                                 r"worse|better|than|in|on|at|with|when|for|from|by|to|of|such|more|less|about|almost|nearly|\d)\b.*)$",
                                 re.I)


def without_fillers(text: str, lang: str) -> str:
    """The sentence without greetings, thanks and discourse openers ("Hi, thanks! Just ...")."""
    section = table()["ar" if lang == "ar" else "en"]
    flags = re.I if lang != "ar" else 0
    text = re.sub(section["fillers"], "", text, flags=flags)
    text = re.sub(section["inline_fillers"], "", text, flags=flags)
    text = worked_lead.unwrap(text) if lang != "ar" else text
    return re.sub(r"(?<=\S) {2,}(?=\S)", " ", text).strip()  # two fillers side by side leave two spaces


_JOINED = pattern_cache.lazy(r"\s*(?:but|and|then)\s")  # "but run it on more than 2 nodes": a narrative's next step, no advice
def point(clause: str, sentence: str, lang: str, who: str, context: str = "") -> str:
    """The point in reported speech ("The author reports that they get only 15% MFU"); `clause` read out, `sentence` as written."""
    words = messages(lang)["gist_reported"]
    kind = role(sentence, lang)
    clause = gist_lift.conditional(without_fillers(clause, lang))
    if lang == "ar":
        return _arabic(clause, _said_as(kind, clause, lang), words, who, lead=True)
    number = 1 if who == "authors" else 0
    subject = words["subjects"][who]
    if kind == "question":
        if (addressed := _addressed(clause, sentence, context, words, "one")) is not None:
            return addressed  # "@x Do you remember why ...?" is put to one participant, not to the reader
        asked = indirect_question(clause)
        if asked is None:
            return _capital(words["asks_quoted"][number].format(subject=subject, question=clause.rstrip("?").strip()))
        return _capital(f"{subject} {words['point']['question'][number]} {third_person(asked, lang)}")
    clause = gist_lift.without_openers(connectives.without(clause, "en").strip())
    cited = gist_lift.reported_by_other(clause)  # "The post reports that X": "The authors cite the post: X", not "report that it reports"
    if cited is not None and "cites" in words:
        return _capital(f"{subject} {words['cites'][number]} {cited[0][0].lower() + cited[0][1:]}: {third_person(cited[1], lang)}")
    lifted = gist_lift.lift(clause)
    if lifted is not None:  # "we demonstrate that X": the author's own verb, never "they conclude that they demonstrate"
        verb = re.sub(r" that$", "", words['lifted'][lifted[0]][number]) if _WH_START.match(lifted[1]) else words['lifted'][lifted[0]][number]
        return _capital(f"{subject} {verb} {_lower_first(third_person(lifted[1], lang), context)}")  # "show how", not "show that how"
    if _WANTED.match(clause) and not _AUXILIARY.search(clause) and re.search(r"\?\s", context + " "):
        return _capital(words["asks_about"][number].format(subject=subject, topic=clause[0].lower() + clause[1:]))
    case = _CASE.match(clause)
    if case and "supposes" in words:  # "Consider a 10,000-GPU cluster ...": a case set up to reason about, not advice
        return _capital(f"{subject} {words['supposes'][number]} {clause[case.end():]}")
    attended = _ATTENTION.match(clause)
    if attended:  # "Note that X": what the text points out, not advice to "note"
        return _capital(f"{subject} {words['notes'][number]} {clause[attended.end():]}")
    changed = change_notes.as_change(clause, context, bool(_IMPERATIVE.match(clause)))
    if changed and "change_does" in words:  # "Refactor kernels so ...", a pull request's list of changes: what it does
        return _capital(f"{words['change_does']} {changed}")
    heading = headings.is_heading(sentence)  # "Lower Memory Consumption for ...": a label, neither advice nor a claim
    if _IMPERATIVE.match(clause) and not heading and _PROCEDURE.search(clause) and "notes_quoted" in words:
        return _capital(words["notes_quoted"][number].format(subject=subject, claim=_capital(clause)))
    if _IMPERATIVE.match(clause) and not heading and not _COMPARATIVE_LED.match(clause) and not change_notes.MODAL.search(clause) \
            and not _JOINED.match(sentence) and not CONDITIONAL_ORDER.match(clause) and (_NEGATIVE_IMPERATIVE.match(clause) or not re.search(r"\b(?:I|we|you)\b", clause.split(",")[0])):
        advised = clause[0].lower() + clause[1:] if clause.split(" ", 1)[0][1:].islower() else clause  # "Keep TP ...": a verb
        return _capital(_advice(words["imperative"], words["possessive"][who], advised))
    verb = words["point"].get(gist_lift.conceded(_said_as(kind, clause), sentence, context), words["point"]["other"])[0 if who != "authors" else 1]
    if (_subjectless(clause) or _CUT_FRAGMENT.match(sentence) or not has_verb(clause) or _LABEL_FIRST.match(clause) or _IMPERATIVE.match(clause) and not heading) \
            and "notes_quoted" in words:  # a log's line, a fragment, an order not said as advice: quoted
        return _capital(words["notes_quoted"][number].format(subject=subject, claim=_capital(clause)))
    clause = "\0" + headings.as_topic(clause) if heading else _with_subject(clause, words)
    if clause.startswith("\0"):  # a title ("Adding X to the log"): what the text is about
        if who != "text" and "writes_about" in words:  # "The author writes about ...": a later "They ask" has its referent
            return _capital(words["writes_about"][number].format(subject=subject, claim=clause[1:]))
        return _capital(words["about"][0].format(subject=words["subjects"]["text"], claim=clause[1:]))
    return _capital(f"{subject} {verb} {_lower_first(_demonstrative(third_person(clause, lang)), context)}")


def _demonstrative(said: str) -> str:
    """"That is the data ..." after "that": "that this is the data", never "that that is" nor "that That's"."""
    if re.match(r"^It(?:['’]s|\s+(?:is|was|seems))\s+(?:\w+\s+)?\w+\s+(?:that|to|how|why|whether)\b", said):
        return "it" + said[2:].replace("'s", " is", 1).replace("’s", " is", 1)  # "It's strange that X": "it" is no pointer
    if re.match(r"^It\s+(?:seems|appears)\s+to\b", said):
        return "it" + said[2:]  # "It seems to be a bug": impersonal, pointing at nothing
    said = re.sub(r"^(?:That|This|It)\b(?=\s+(?:is|was|means|seems|shows))", "this", said)
    return re.sub(r"^(?:That|This|It)['’]s\b", "this is", said)


# A line that opens on a past verb with no subject ("Switched from 1 to 2", "Ran out of memory") or on a bare verb ("Take X as an example:")
_SUBJECTLESS = pattern_cache.lazy(r"^(?:(?:[A-Za-z]+ed|[Hh]ad|hit|got|ran|took|made|saw|found|went)\s+(?:from|to|the|a|an|off|back|over|out|up|our|their|"
                                  r"my|this|it|\d)\b|(?i:take|see|check|refer|look|read|click|let|imagine|suppose|assume|think|recall|go|get|watch|picture|notice|observe|"
                                  r"(?:harder|easier|simpler|cheaper|safer) to|can't|cannot|can not|won't|doesn't|isn't|aren't|wasn't|didn't|turns out|turned out)\b"
                                  r"|(?:Fixed|Added|Built|Merged|Established|Implemented|Removed|Updated|Refactored|Enabled|Disabled|Improved|Ported|Validated|Verified)\s|" + OPTION_VERB_FIRST + ")")
# A past verb first ("Exceeded hbm capacity by 4.70G"), unless a verb follows in its clause ("Increased batch size helps")
_PAST_FIRST = pattern_cache.lazy(r"^[A-Z][a-z]+(?<!e)ed\s+(?=[a-z])")
_CUT_FRAGMENT = pattern_cache.lazy(r"\s*[a-z][a-z]+ing\s+(?:to|in|on|with|for|from|up)\s")  # "leading to X" alone: a list cut its sentence
_LABEL_FIRST = pattern_cache.lazy(r"^(?:[\w/()-]+\s+){0,6}[\w/()-]+\s*:\s+(?!//)")  # "Reported benefits in the PR: ...": a label, no subject


def _subjectless(clause: str) -> bool:
    """Whether a line has no subject (a log's or an error's line, a bare order, a note opening on its predicate:
    "Flat across depth and KV format, so it is ..."): "that" cannot carry it."""
    past = _PAST_FIRST.match(clause)
    return bool(_SUBJECTLESS.match(clause) or past and not has_verb(clause[past.end():].split(",")[0])
                or _PREDICATE_FIRST.match(clause) and not has_verb(clause.split(",")[0]))


# a word and a preposition, no verb before the comma; not a participle or adverb leading into the subject ("Even with X, the")
_PREDICATE_FIRST = pattern_cache.lazy(r"^(?!Even\b|Only\b|Just\b|Also\b|Still\b|[A-Z][a-z]+ing\b)[A-Z][a-z]+\s+(?:across|over|on|in|at|for|with|under|between|within)\s")
_ADVICE = pattern_cache.lazy(r"\b(?:should|recommend\w*|advis\w+|suggest\w*|better|best|prefer\w*|ought|you(?: also)? (?:need|have|must))\b"
                             r"|^(?:use|keep|set|avoid|try|"
                             r"make sure|consider)\b", re.I)
_ADVICE_AR = pattern_cache.lazy(r"ينبغي|نوصي|يوصى|يُوصى|الأفضل|ننصح|يُنصح|ينصح|أنصح|تدعو|ندعو")  # not يجب/يلزم: a requirement


def _said_as(kind: str, clause: str, lang: str = "en") -> str:
    """The role whose reporting verb fits: a requirement is said, not advised; only "should", "we recommend", "use ..." advise."""
    if kind == "recommendation" and _EXPECTED.search(clause):
        return "expectation"  # "the fp8 should have a 100% speed-up", "you should expect ...": a forecast, not advice
    if kind == "recommendation" and _CONSEQUENCE.match(clause):
        return "other"  # "then you have to use FULL_SHARD across all nodes": what a limit forces, not advice
    return "other" if kind == "recommendation" and not (_ADVICE_AR if lang == "ar" else _ADVICE).search(clause) else kind


# A consequence that opens on "then", "so" or "otherwise": "you have to" there is what a limit forces on the reader.
_CONSEQUENCE = pattern_cache.lazy(r"^\s*(?:then|so|otherwise|else|hence|thus)\b,?\s+(?:you|we|one|they)\b", re.I)
# "should" of a forecast: a thing (not "you"/"we") that should have, be, reach or give something; "should expect/see".
_EXPECTED = pattern_cache.lazy(r"\b(?:should|ought to)\s+(?:(?:probably|roughly|also|still)\s+)?(?:expect|see|notice|observe)\b|"
                               r"(?<!\byou )(?<!\bwe )(?<!\bone )(?<!\bi )(?<!\bthey )\bshould\s+(?:(?:probably|roughly|approximately|about|also|still|only|just)\s+)?"
                               r"(?:have|be|reach|give|get|achieve|yield|take|run|fit|halve|double|cut|reduce|lower|raise|improve|increase|decrease|save|need|use|cost)\b", re.I)


# In a post that asks, a line without a verb naming what is wanted ("Recommended layout for 64 GPUs.") is asked about.
_WANTED = pattern_cache.lazy(r"^(?:recommended|suggested|preferred|best|optimal|ideal)\s+[a-z]", re.I)
_AUXILIARY = pattern_cache.lazy(r"\b(?:is|are|was|were|be|has|have|had|should|must|can|could|will|would|do|does|did|may|might)\b", re.I)
_GERUND_FIRST = pattern_cache.lazy(r"^[A-Z][a-z]+ing\b(?!\s+(?:is|are|was|were|has|can|will|takes?|makes?|gives?|keeps?)\b)")
_PARTICIPLE_FIRST = pattern_cache.lazy(r"^[A-Z][a-z]+ed\s+(?=(?:on|for|with|in|at|by|using|against|across)\b)")
_VERB_FIRST = pattern_cache.lazy(r"^(?:adds|ports|drops|fixes|updates|lowers|raises|removes|moves|makes|uses|enables|disables|"
                                 r"introduces|implements|bumps|reverts|refactors|changes|replaces|supports)\b", re.I)


# A statement with a check tag after it: "X, is that right (for Y)?" asks whether X is right.
_CHECK_TAG = pattern_cache.lazy(r"^(?P<head>.{8,}?),\s*(?:is|was)\s+(?:that|this|it)\s+(?P<adj>right|correct|true|expected|normal|"
                                r"reasonable|ok|okay|accurate|plausible)(?P<rest>(?:\s+(?:for|with|on|at|in)\b[^,]*)?)$", re.I)
# A question that is only the thing asked for ("Any guidance on expert placement?", "Tips for faster startup?").
_ASKED_FOR = pattern_cache.lazy(r"^(?:(?:any|some)\s+)?(?:guidance|advice|tips?|suggestions?|recommendations?|ideas?|thoughts?|"
                                r"pointers?|help|insights?|references?|examples?)\b(?!\s+(?:is|are|was|were|would|will)\b)", re.I)
# A heading-like line ("Recommended parallelism layout for 32 GPUs"): an adjective and a noun, no verb of its own.
_TITLE_FIRST = pattern_cache.lazy(r"^(?:Recommended|Suggested|Proposed|Preferred|Optimal|Best|Ideal|Expected)\s+[a-z]")
_AUX_ANY = pattern_cache.lazy(r"\b(?:is|are|was|were|be|been|should|must|can|could|will|would|do|does|did|has|have|had)\b", re.I)


# An order to look ("Note the per-chip uplift", "Notice that ..."); "Note: ..." and "Notes on X" are labels.
_ATTENTION = pattern_cache.lazy(r"^(?:note|notice|observe|keep in mind|bear in mind)\s+(?=(?:that|the|this|these|those|how|"
                                r"what|why|a|an)\b)", re.I)
_CASE = pattern_cache.lazy(r"^(?:consider|imagine|take)\s+(?=(?:an?|one)\s)", re.I)  # "Consider a cluster of ...": a case
# A method's step ("Keep the vocab size unchanged, only increase the layers until OOM") or a condition with its outcome ("Run it with a batch of 32 and the KV cache alone adds 80 GB") sets up a case; said as advice, judged wrong: quoted.
_PROCEDURE = pattern_cache.lazy(r"\buntil\b|\band\s+(?:the|your|its|their|this|that|you|it|we)\b(?:\s+[\w-]+){0,4}?\s+"
                                r"(?:is|are|adds?|gets?|goes|becomes?|grows?|drops?|rises?|takes?|uses?|needs?|fits?|runs?|"
                                r"will|won't|can|can't|costs?|blows?|fails?|crashes|exceeds?|OOMs?)\b", re.I)
# "Lower CPU usage, ideal for ...": a benefit; an order names what it lowers ("Lower the batch size", "lower it to 8").
_COMPARATIVE_LED = pattern_cache.lazy(r"^(?:lower|raise|limit)\s+(?!the\b|your\b|its?\b|this\b|that\b|these\b|those\b|an?\b|\d)", re.I)
_AIM_FIRST = pattern_cache.lazy(r"^((?:for|to)\s+[^,]{3,60}),\s*(?=[a-z])", re.I)
_NEGATIVE_IMPERATIVE = pattern_cache.lazy(r"^(?:do not|don't|never)\s+", re.I)


def _advice(template: str, possessive: str, claim: str) -> str:
    """The advice template filled: "Don't shard across nodes" is advice "not to shard across nodes", never "to don't"."""
    negative = _NEGATIVE_IMPERATIVE.match(claim)
    if negative and " to {claim}" in template:
        word = "never" if negative.group(0).strip().lower() == "never" else "not"
        return template.replace(" to {claim}", f" {word} to {{claim}}").format(possessive=possessive, claim=claim[negative.end():])
    return template.format(possessive=possessive, claim=claim)


def _with_subject(clause: str, words: dict) -> str:
    """A subjectless sentence given one: a change ("Ports X") is the change's; a title ("Adding X") is marked with a NUL."""
    if _TITLE_FIRST.match(clause) and not _AUX_ANY.search(clause):
        return "\0" + clause[0].lower() + clause[1:]
    if _GERUND_FIRST.match(clause) and not _FINITE.search(clause):
        return "\0" + clause[0].lower() + clause[1:]
    if _PARTICIPLE_FIRST.match(clause):
        return words["change_was"] + " " + clause[0].lower() + clause[1:]
    if _VERB_FIRST.match(clause):
        return words["change_does"] + " " + clause[0].lower() + clause[1:]
    return clause


def companion(clause: str, sentence: str, lang: str, who: str, context: str = "") -> str:
    """The reason or evidence restated after the point ("They explain that ...")."""
    words = messages(lang)["gist_reported"]
    kind = role(sentence, lang)
    clause = gist_lift.conditional(without_fillers(clause, lang))
    if lang == "ar":
        return _arabic(clause, _said_as(kind, clause, lang), words, who, lead=False)
    aim = _AIM_FIRST.match(clause)  # "For optimal performance, increase X": advice, its aim said after it ("It adds that for ... increase")
    clause = clause[aim.end():] + " " + aim.group(1)[0].lower() + aim.group(1)[1:] if aim and _IMPERATIVE.match(clause[aim.end():]) else clause
    attended = _ATTENTION.match(clause)
    if attended:  # "Note the per-chip uplift: ..." draws the reader's eye; "It adds that note the ..." is no sentence
        return _capital(f"{words['pronouns'][who]} {words['notes'][0 if who == 'text' else 1]} {clause[attended.end():]}")
    if _IMPERATIVE.match(clause) and not headings.is_heading(sentence) and (_PROCEDURE.search(clause) or _COMPARATIVE_LED.match(clause)):
        return _capital(words["notes_quoted"][0 if who == "text" else 1].format(subject=words["pronouns"][who], claim=_capital(clause)))
    changed = change_notes.as_change(clause, context, bool(_IMPERATIVE.match(clause)))
    if changed and "change_does" in words:  # a changelog's order ("Refresh the command ...") is what the change does
        return _capital(f"{words['change_does']} {changed}")
    if (_IMPERATIVE.match(clause) or gist_lift.EXERCISE.match(clause)) and not headings.is_heading(sentence):  # "Use ...": advice, not "It adds that use"
        if _JOINED.match(sentence) or CONDITIONAL_ORDER.match(clause):  # "but run it on ...", "set it too high and X": quoted
            return _capital(words["notes_quoted"][0 if who == "text" else 1].format(subject=words["pronouns"][who], claim=_capital(clause)))
        return _capital(_advice(words["imperative"], words["possessive_pronouns"][who], lower_first(clause)))  # "Use TP ...": a verb
    if kind == "question":
        if (addressed := _addressed(clause, sentence, context, words, "another")) is not None:
            return addressed
        asked = indirect_question(clause)
        if asked is not None:
            return _capital(f"{words['pronouns'][who]} {words['companion']['question'][0 if who == 'text' else 1]} "
                            f"{third_person(asked, lang)}")
        return _capital(words["asks_quoted"][0 if who == "text" else 1].format(  # a question not turned is quoted whole
            subject=words["pronouns"][who], question=clause.rstrip("?").strip()))
    clause = gist_lift.without_openers(connectives.without(clause, "en").strip())
    cited = gist_lift.reported_by_other(clause)
    if cited is not None and "cites" in words:  # "They cite the post: X"
        return _capital(f"{words['pronouns'][who]} {words['cites'][0 if who == 'text' else 1]} {cited[0][0].lower() + cited[0][1:]}: {third_person(cited[1], lang)}")
    lifted = gist_lift.lift(clause)
    if lifted is not None:  # "They add that we found that X" says it twice: "They find that X"
        return _capital(f"{words['pronouns'][who]} {words['lifted'][lifted[0]][0 if who == 'text' else 1]} "
                        f"{_lower_first(third_person(lifted[1], lang), context)}")
    if _TITLE_FIRST.match(clause) and not _AUX_ANY.search(clause):  # a heading, not a sentence "that" can carry
        about = words.get("writes_about") if who != "text" else None
        subject = words["pronouns"][who] if about else words["subjects"]["text"]
        return _capital((about[1] if about else words["about"][0]).format(subject=subject, claim=clause[0].lower() + clause[1:]))
    if (_subjectless(clause) or _CUT_FRAGMENT.match(sentence) or _PARTICIPLE_FIRST.match(clause) and not re.search(r",\s+(?:we|I|they|the|this)\b", clause) or not has_verb(clause.encode("ascii", "ignore").decode()) or _LABEL_FIRST.match(clause)) and "notes_quoted" in words:  # "It adds that watch tokens flow", "that total ≈ 2 ms", "that benefits in the PR: ...": quoted
        return _capital(words["notes_quoted"][0 if who == "text" else 1].format(subject=words["pronouns"][who], claim=_capital(clause)))
    verb = words["companion"].get(gist_lift.conceded(_said_as(kind, clause), sentence, context), words["companion"]["other"])[0 if who == "text" else 1]
    said = re.sub(r"\bthey would expect\b", "they expected", _demonstrative(third_person(gist_lift.elided_subject(clause, who), lang)))
    return _capital(f"{words['pronouns'][who]} {verb} {_lower_first(said, context)}")


def _arabic(clause: str, kind: str, words: dict, who: str, lead: bool) -> str:
    """Arabic: the reporting verb, then أنّ before a noun, أنه before a verb; a question or a first-person line after a colon."""
    clause = gist_lift.without_openers(connectives.without(clause, "ar").strip(), "ar") if kind != "question" else clause
    speech = arabic_clause.own_speech(clause) if kind != "question" else None
    if speech is not None:  # "أعلنت Meta أن ...", "وأضاف ماسك: «...»": who said it is in the sentence; no frame before it
        return speech if lead else "و" + speech
    templates = words["point" if lead else "companion"]
    own = bool(_OWN_OPENING_AR.match(clause))  # quoted after a plain "ويضيف", not after "يخلص إلى"
    opening = templates["other" if own else kind if kind in templates else "other"].format(subject=words["subjects"][who])
    if kind == "question" or speaker([clause], "ar") != "text" or own:
        frame = words["said_quoted"] if kind != "question" else words["asks_quoted"][0]
        return frame.format(lead=opening, claim=clause, question=clause.rstrip("؟?").strip())
    if arabic_clause.we_verb(clause):  # "نقوم بزيادة ...": the authors' "we", quoted, never "أنه نقوم"
        return words["said_quoted"].format(lead=opening, claim=arabic_clause.unjoined(clause))
    labelled = _LABEL_AR.match(clause)
    if labelled and re.match(r"ن[\u0621-\u064A]{2,}", clause[labelled.end():]):  # "float16: نوصي ...": we recommend, not float16
        return words["said_quoted"].format(lead=opening, claim=arabic_clause.unjoined(clause))
    clause = arabic_clause.unlabelled(clause)  # "التكوين الثاني: يحتوي على ..." is "التكوين الثاني يحتوي على ..."
    speech = arabic_clause.own_speech(clause)
    if speech is not None:  # "ذكر كلارك أن ...": who said it is in the sentence; "يذكر النص أنّ وذكر ..." says it twice
        return speech if lead else "و" + speech
    said = arabic_clause.reported(clause, words["that_noun"], words["that_verb"], kind == "recommendation")  # "أنّ الحوسبة تتضمن"
    if said is None:  # a verb whose subject is not read with certainty: the author's words, not a wrong particle
        return words["said_quoted"].format(lead=opening, claim=arabic_clause.unjoined(clause))
    return f"{opening} {said}"


def subject_named(texts: list[str], lang: str, who: str) -> list[str]:
    """After someone's own words ("أعلنت Meta أن ...") later sentences name the text ("ويضيف النص"), not a bare "ويضيف"."""
    if lang != "ar" or not texts:
        return texts
    words = messages(lang)["gist_reported"]
    subject = words["subjects"][who]
    if any(texts[0].startswith(t.format(subject=subject)) for t in words["point"].values()):
        return texts
    verbs = sorted(set(words["companion"].values()), key=len, reverse=True)
    out = texts[:1]
    for text in texts[1:]:
        verb = next((v for v in verbs if text.startswith(v) and text[len(v):len(v) + 1] in (" ", ":")), None)
        out.append(f"{verb} {subject}{text[len(verb):]}" if verb and not text[len(verb):].startswith(" " + subject) else text)
    return out


# "أما ... فـ", "بينما", "إذ" open a sentence of their own: after أنّ/أنه they are ungrammatical, so the words are quoted.
_OWN_OPENING_AR = pattern_cache.lazy(r"^(?:أما|بينما|إذ|حيث إن|حيث أن)\s")
_LABEL_AR = pattern_cache.lazy(r"^([^:،.]{1,30}?)\s*:\s+(?=[\u0621-\u064A])")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _lower_first(text: str, context: str = "") -> str:
    """'The throughput' -> 'the throughput' after a reporting verb; a name ("Nvidia", "Cloud TPU", "Mixtral 8x22B") keeps its capital."""
    parts = text.split(" ", 2)
    first = re.split(r"['’]", parts[0].strip(","))[0]  # "They've" is read as "They"
    if first == "A" and parts[0] == "A" and len(parts) > 1 and parts[1][:1].isalnum():
        return "a" + text[1:]  # "A capacity factor ...", "A 671B MoE ...", "A B200 with ..." after "says that"
    if not (len(first) > 1 and first[0].isupper() and first[1:].islower() and first.replace("-", "").isalpha()):
        return text
    if first.lower() not in _FUNCTION_WORDS and not first.endswith("ing") and not (first.endswith("ly") and parts[0].endswith(",")):  # "Currently,"
        following = parts[1] if len(parts) > 1 else ""  # "Meta will buy ...": a maker's name stays a name
        if gist_names.known_company(first) or gist_names.known_name(first):
            return text
        if following[:1].isupper() or re.match(r"\d+(?:\.\d+)?(?:x\d+)?[BMKT]?\b", following) or re.search(rf"[a-z,;][ \t]+{re.escape(first)}\b", context) or _ANNOUNCES.match(text[len(parts[0]):]):
            return text  # a name: "Nvidia", one met mid-sentence, or who announces ("Meta has released a report")
    return text[0].lower() + text[1:]


_ANNOUNCES = re.compile(r"\s+(?:(?:has|have|had)\s+(?:just\s+|now\s+|also\s+)?)?(?:released|announced|unveiled|launched|published|introduced|open-sourced|said|says|reported|revealed|disclosed|confirmed)\b(?!\s+(?:by|in|on|at|for|with)\b)")
# a pronoun is never a name: "advise that You also need" reads "that you also need"
_FUNCTION_WORDS = set("""you the a an this that these those each every all some most many any its their there it they when if while with
for in on at to from by as after before since because although only both one two no not such other another more less much few several here
then now once your without within across over under during unless even so we our""".split())


def joined(point_text: str, companion_text: str, who: str, lang: str) -> str | None:
    """The point and its companion as ONE sentence ("The author reports that X, and asks why Y"), a question after the
    situation it asks about; None when either does not open on this module's subject, or in Arabic (two sentences)."""
    if lang == "ar":
        return None
    words = messages(lang)["gist_reported"]
    number = 1 if who == "authors" else 0
    subject = _capital(words["subjects"][who])
    pronoun = _capital(words["pronouns"][who])
    if point_text.startswith(pronoun + " "):  # two later gist sentences: "They report X, and ask Y"
        subject, number = pronoun, 0 if who == "text" else 1
    verbs = {pair[0 if who == "text" else 1]: pair[number] for pair in
             [*words["companion"].values(), *words["point"].values(), words["rows_given"]]}  # companion's form -> subject's
    said = next(((verbs[v], companion_text[len(pronoun) + len(v) + 2:]) for v in sorted(verbs, key=len, reverse=True)
                 if companion_text.startswith(f"{pronoun} {v} ")), None)
    if said is None or not point_text.lower().startswith(subject.lower() + " "):
        return None
    asking = words["point"]["question"][number]
    first = point_text[len(subject) + 1:].rstrip(_ENDING)
    if _LABELLED.search(first.removeprefix(asking + ":")) or _LABELLED.search(said[1]):
        return None  # a row "Throughput per Device: 1,747" is not a clause "and" can carry
    if first.startswith((asking + " ", asking + ":")):  # "asks why X" + "reports that Y": the situation first
        situation = {words["companion"][k][number] for k in _SITUATIONS if k in words["companion"]} | {words["rows_given"][number]}
        if said[0] == asking and not point_text.rstrip().endswith("?"):  # two questions: "asks about X, and for Y"
            return _capital(words["joined"].format(point=point_text.rstrip(_ENDING), companion=said[1]))
        if said[0] not in situation:
            return None  # a guessed reason or a second question is not the situation asked about
        leading = {words["companion"][k][number]: words["point"][k][number] for k in words["companion"] if k in words["point"]}
        verb = leading.get(said[0], said[0])  # the situation is said first: "says that", not "adds that"
        return _capital(words["joined"].format(point=f"{subject} {verb} {said[1].rstrip(_ENDING)}", companion=first))
    if point_text.rstrip().endswith("?"):
        return None  # a quoted question ends its sentence
    verb = words["companion"]["other"][number] if first.startswith(said[0] + " ") else said[0]  # not "reports ..., and reports"
    return _capital(words["joined"].format(point=point_text.rstrip(_ENDING), companion=f"{verb} {said[1]}"))


_ENDING = ".!:;, "
_SITUATIONS = ("problem", "result", "expectation", "contrast", "news", "other")  # what a question can be asked about
_LABELLED = pattern_cache.lazy(r"\w:\s")


def _addressed(clause: str, sentence: str, context: str, words: dict, asker: str) -> str | None:
    """A second-person question put to a named participant, quoted whole with its asker and addressee; None otherwise."""
    named = question_target.addressee(sentence, context)
    if named is None or "asks_addressed" not in words:
        return None
    question = question_target.without_addressee(clause).rstrip("?").strip()
    return words["asks_addressed"][asker].format(addressee=named, question=_capital(question))


def confirms(clause: str, lang: str, who: str) -> str:
    """The point as the author's request to check it: "The author asks whether this is right: each step takes 4.4 s"."""
    words = messages(lang)["gist_reported"]
    who = "author" if who == "text" else who  # someone asks: a text that asks "Am I correct?" has an author
    subject = words["subjects"][who]
    clause = without_fillers(clause, lang)
    if lang == "ar":
        clause = connectives.without(clause, "ar").strip()  # "إذن تستغرق ...": the "so" is the question's, not the claim's
        said = arabic_clause.reported(clause, words["that_noun"], words["that_verb"])
        claim = said if said is not None else f"قوله: {clause}"
        return words["confirms"].format(subject=subject, claim=claim)
    clause = connectives.without(clause, "en").strip()
    clause = re.sub(r"^(?:so\s+)?(?:this|that|it) means(?: that)?\s+", "", clause, flags=re.I)  # "it means X": X is the claim
    text = words["confirms"][1 if who == "authors" else 0].format(subject=subject, claim=_lower_first(third_person(clause, lang)))
    return _capital(text)
