"""A sentence that already reports ("we demonstrate that X", "I found that X"): its content clause and its own reporting verb.

A gist that pastes "The authors conclude that" on "we demonstrate that X" reads "they conclude that they demonstrate
that X"; the author's own verb says how X is claimed, so it replaces the gist's frame and X is said once.
"""

import re

from service.explain import connectives, pattern_cache, person

# The author's own reporting verbs, by the frame they become (data/locale "gist_reported.lifted"): what is shown,
# what is found, what is concluded, what is believed (a hedge kept as a hedge), what is recommended or proposed.
_VERBS = {
    "shows": r"demonstrate[sd]?|show(?:s|ed|n)?|prove[sd]?|confirm(?:s|ed)?|verif(?:y|ies|ied)",
    "finds": r"f(?:i|ou)nds?|observe[sd]?|notice[sd]?|see|saw|measured?|report(?:s|ed)?",
    "concludes": r"conclude[sd]?",
    "thinks": r"think|thought|believe[sd]?|guess|suspect(?:s|ed)?|hypothesi[sz]e[sd]?",
    "expects": r"expect(?:s|ed)?|estimate[sd]?",
    "recommends": r"recommend(?:s|ed)?|suggest(?:s|ed)?|advise[sd]?",
    "proposes": r"propose[sd]?",
    "presents": r"present(?:s|ed)?|introduce[sd]?",
}
# Who reports: the author in the first person, or the author's own text ("this paper shows that").
_WHO = (r"(?:i|we|(?:this|the) (?:paper|work|post|report|study|article|blog(?: post)?|pr|section)|the authors|our (?:results|experiments|analysis|"
        r"measurements|tests|benchmarks))")
_REPORTING = pattern_cache.lazy(
    rf"^{_WHO}\s+(?:(?:also|further|clearly|empirically|now|then|finally|indeed|can|could|will|would)\s+)*"
    rf"(?P<verb>{'|'.join(f'(?P<{k}>{v})' for k, v in _VERBS.items())})\b\s*,?\s*(?P<that>that\s+)?(?P<rest>\S.*)$", re.I)
# Openers that order or rephrase, not claim: "First, ...", "Or, ...", "In other words, ...", "That said, ...".
_OPENER = pattern_cache.lazy(r"^(?:(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|finally|lastly|or|in other words|put (?:differently|simply)|"
                             r"that said|having said that|in (?:summary|conclusion|short|sum)|to (?:sum up|summari[sz]e|conclude)|"
                             r"all in all|overall|anyway|so|however|now|in comparison|that being said|specifically|concretely|in particular|"
                             r"fwiw|btw|for (?:the )?record|the (?:short )?answer (?:was|is) (?:yes|no))\s*[,:]\s*|(?:just (?:a )?)?heads[- ]up(?:\s*[,:]|\s+that)\s*|"
                             r"(?:as such|in this way|as you can see|to (?:address|solve|tackle|fix|overcome) (?:this|that|these|those) "
                             r"(?:challenges?|problems?|issues?|limitations?))\s*,?\s+|"
                             r"to (?:understand|see) (?:why|how|this|that)\s*,\s*(?:consider|note|remember|recall)(?: that)?\s+|"
                             r"it (?:turns|turned) out(?: that)?\s+|(?:obviously|clearly|evidently|of course)\s*,?\s+|"
                             r"it(?:['’]s| is) (?:important|worth) (?:to (?:note|mention|say)|noting|mentioning)(?: that)?\s+)+", re.I)  # "To understand why, consider that if ...": the case
# "تجدر الإشارة إلى أن X" (it should be noted that X): the clause X is what is said; "ويوضح أنّ الإشارة تجدر" was garbled
_OPENER_AR = pattern_cache.lazy(r"^و?(?:(?:في الوقت (?:نفسه|ذاته)|في هذا السياق|من جهة أخرى|من ناحية أخرى|بدايةً|بداية|أولًا|أولاً|أولا|"
                                r"طبعا|طبعًا|طبعاً|بالطبع)\s*[،,]?\s+|"
                                r"(?:نتيجة لذلك|لذلك|بالتالي|وعليه|علاوة على ذلك|إضافة إلى ذلك|بالإضافة إلى ذلك)\s*[،,]\s+|"  # «نتيجة لذلك، يجب ...»: a link to what came before
                                r"(?:تجدر الإشارة|من الجدير بالذكر|والجدير بالذكر|الجدير بالذكر|يجدر بالذكر|يجدر التنويه|تجدر الملاحظة)"
                                r"\s+(?:إلى\s+)?(?:أنّ?|أنه|أنها)\s+)")
# "If you use X too however, you should see ...": a "however" inside a clause, before its comma, only links to what came before.
# "“جيس” -الذي سُمي تيمناً بأعلى قمة- يستند", "X — a name we chose — runs": an aside between two dashes, without figures.
_DASH_ASIDE = pattern_cache.lazy(r"\s(?:[-—–](?=[^\s\d])[^-—–\d\n]{3,100}?(?<=\S)[-—–]|[—–]\s[^—–\d\n]{3,100}?\s[—–])(?=\s)")
# "...، في خطوة لافتة من شأنها ...": the writer's comment on the news, after its fact.
_COMMENTARY_AR = pattern_cache.lazy(r"\s*[،,]\s*في خطوة\s[^.؟!]*$")
# "..., see #5471", "(see the docs)", "; cf. the table": where to read more, not the claim.
_POINTER = pattern_cache.lazy(r"(?:[,;:]\s*|\s*\()(?:see|cf\.?|refer to|more (?:details|info) (?:in|at|here))(?:\s[^()]*)?\)?\s*$", re.I)
_INNER_HOWEVER = pattern_cache.lazy(r"(?<=\w)\s+however\s*,", re.I)


# a news dateline before the sentence: a day, a month word and a year, then a dash
_DATELINE = pattern_cache.lazy(r"^(?:\d{1,2}\s+\S+\s+\d{4}|[A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4})\s*[—–-]\s+")


# An issue template's heading run into its line ("What's wrong: on backward we would expect ..."): the line says it
_ISSUE_LABEL = re.compile(r"^(?:what(?:'s|’s|\s+is|\s+went)\s+wrong|(?:the\s+)?(?:problem|issue|bug|symptoms?|observed(?:\s+behaviou?r)?|"
                          r"actual(?:\s+behaviou?r)?))\s*:\s+(?=\S)"
                          # a heading whose colon and line break the page lost: "Problem A system prompt of 500 tokens ..."
                          r"|^(?:Problem|Issue|Motivation|Background|Context|Summary|Solution|Proposal)\s+(?=(?:A|An|The|This|We|Our|When|If)\s)", re.I)
_LEAD_LABEL = re.compile(r"^((?:just\s+|only\s+)?(?:a|an|some|a few|a couple of|several|few|quick)\s[^:;.?!]{3,80}):\s+(?=(?:we|I|they|it|this|our|you)\b)", re.I)
_LABEL_VERB = re.compile(r"\b(?:is|are|was|were|be|has|have|had|do|does|did|can|could|will|would|should|must|may|might|gets?|got|"
                         r"makes?|made|shows?|showed|means?|meant|seems?|[a-z]{3,}ed)\b", re.I)  # a label has none of these


def without_openers(clause: str, lang: str = "en") -> str:
    """The clause without the openers that only order or rephrase ("First,", "Or,", "In other words,", "في الوقت نفسه"),
    an inner "however", a dashed aside, a trailing pointer or comment; what it asserts, negates or conditions stays."""
    clause = _DATELINE.sub("", clause.strip(), count=1)  # "13 فبراير 2026 — أصدرت ...", "Feb 13, 2026 - OpenAI ..."
    if lang == "ar":
        text = _DASH_ASIDE.sub("", _COMMENTARY_AR.sub("", _OPENER_AR.sub("", clause.strip(), count=1)))
        return text.strip() or clause
    text = _DASH_ASIDE.sub("", _OPENER.sub("", _ISSUE_LABEL.sub("", clause.strip(), count=1), count=1))
    text = _POINTER.sub("", _INNER_HOWEVER.sub(",", text))
    label = _LEAD_LABEL.match(text)  # "a few datapoints from OpenLM, with default hparams: we get ...": the label names what follows
    text = text[label.end():] if label and not _LABEL_VERB.search(label.group(1)) else text  # the case is kept: the clause follows a reporting verb ("reports that about 30% ...")
    return text or clause


_WHY_ITEM = re.compile(r"^why\s+[^?]+$", re.I)  # round 99 P07: "The text says that Why FlashAttention is faster ..."


def lift(clause: str) -> tuple[str, str] | None:
    """(frame, content) when an English clause already reports in the author's voice ("We demonstrate that X" ->
    ("shows", "X")); a recommendation without "that" keeps its object ("we recommend using FSDP" -> ("recommends",
    "using FSDP")); None when it does not report, or its content is not a clause of its own."""
    found = _REPORTING.match(without_openers(clause))
    if found is None and _WHY_ITEM.match(clause):
        return "explains", clause[0].lower() + clause[1:]  # "- Why X is faster (...).": an item that explains, no question
    if found is None:
        return None
    frame = next(name for name in _VERBS if found.group(name))
    rest = found.group("rest").strip()
    if not found.group("that"):
        if frame == "recommends":
            return frame, rest  # "recommend using X", "recommend a TP of 8": its object, said after "recommends"
        if frame in ("proposes", "presents"):
            return "presents", rest  # "we propose FlashEP, a strategy for ...": what they propose, never "propose that FlashEP"
        if frame == "finds" and re.match(r"(?:a|an|the|about|around|~|\d)", rest, re.I):
            return None  # "we see 45% MFU", "we measured a 2x speed-up": a measurement, not a reported clause
        if frame in ("finds", "thinks", "expects") and not person.clause_follows(rest):
            return None  # "we see consistent gaps of 4s where the GPUs go unused": an object whose only verb is its clause's
        if frame == "expects" and re.match(r"(?:closer|close|about|around|roughly|more|less|fewer|better|worse|higher|lower|"
                                            r"faster|slower|a|an|the|~|\d)\b", rest, re.I):
            return None  # "I expected closer to 3x": what was expected, an object, not a clause "that" can carry
        if frame == "shows" and re.match(r"(?:significant|substantial|large|strong|consistent|clear|notable|considerable|major|"
                                         r"dramatic|marked|good|better|great|improved|higher|lower|up to|a|an|the|\d)\b", rest, re.I):
            return None  # "our experiments demonstrate significant improvements in X": an object, not a clause "that" can carry
        if len(rest.split()) < 3 or re.match(r"(?:it|this|that|them|him|her)\b", rest, re.I):
            return None  # "I think so", "we found it": nothing to lift
        if re.match(r"(?:exactly\s+|precisely\s+)?(?:how|why|what|where|when|which|whether)\b", rest, re.I):
            return None  # "I show exactly how this plays out": a question's object, which "shows that" cannot carry
    if frame == "presents":
        return None  # "we present that ..." is no English: nothing to lift
    if frame == "recommends" and found.group("that"):
        return frame, "that " + rest
    return frame, rest


# "Add X—and even one B300 falls short": an order, "and", a clause of its own: a condition, not advice to add X
_CONDITIONAL = pattern_cache.lazy(r"^(?:add|include|factor in|count)\s+(?P<what>.+?)\s*(?:[—–]\s*and|,?\s+and)\s+(?P<then>(?:even|still|then)\s+.+)$", re.I)


def conditional(clause: str) -> str:
    """"Add X—and even Y falls short" said as "once X are added, even Y falls short"."""
    found = _CONDITIONAL.match(clause)
    what = found.group("what").rstrip(",") if found else ""
    return f"once {what}{'—' if what.count('—') % 2 else ' '}are added, {found.group('then')}" if found else clause  # an aside keeps its dash


_ELIDED = pattern_cache.lazy(r"^(?:(?P<plain>want|need|hope|plan|would like)|(?P<ing>trying|wondering|hoping|planning|looking))\b", re.I)


def elided_subject(clause: str, who: str) -> str:
    """A note-style line without its "I" ("Want to confirm the recipe"): the author put back ("they want to confirm")."""
    found = _ELIDED.match(clause)
    if not found:
        return clause
    rest = clause[found.end():]
    if found.group("ing"):
        return ("the author is " if who == "text" else "they are ") + found.group().lower() + rest
    verb = found.group().lower()
    return ("the author " + (verb if verb == "would like" else verb + "s") if who == "text" else "they " + verb) + rest


# "Root issue: X" names what X is: "the root issue is X" is a sentence "that" can carry, "root issue: X" is not.
_DIAGNOSIS = pattern_cache.lazy(r"^(?P<label>(?:the\s+)?(?:root|real|main|actual|underlying|core)\s+(?:cause|issue|problem|reason))"
                                r"\s*[:—–-]\s+(?P<rest>\S.*)$", re.I)


def diagnosis(clause: str) -> str:
    """A labelled diagnosis said as a sentence: "Root issue: 81% of VRAM wasted" -> "the root issue is 81% of VRAM
    wasted", "Root cause: the optimizer lives on CPU" -> "the root cause is that the optimizer lives on CPU"."""
    found = _DIAGNOSIS.match(clause.strip())
    if not found:
        return clause
    label = found.group("label").lower()
    label = label if label.startswith("the ") else "the " + label
    rest = found.group("rest")
    clause_like = re.match(r"(?:the|a|an|it|this|these|we|they|our|its|their|there)\b", rest, re.I)
    return f"{label} is {'that ' if clause_like else ''}{rest[0].lower() + rest[1:] if clause_like else rest}"


_CONCEDED = pattern_cache.lazy(r"^\s*(?:However|But|Yet|Still|Nevertheless|That said)\b")


def conceded(said_as: str, sentence: str, context: str) -> str:
    """"The results show X. However, ...": X is conceded before the point, so noted, not concluded (a round-25 reader)."""
    after = context[context.find(sentence) + len(sentence):] if sentence and sentence in context else ""
    return "contrast" if said_as == "conclusion" and _CONCEDED.match(after) else said_as


# "KV cache management: tensor parallel deployment is not optimal for ...": a topic of two to five words (not a name
# that speaks, which starts each word with a capital) labelling a clause that goes on in lower case
_TOPIC_LABEL = pattern_cache.lazy(r"^(?P<label>(?:[A-Z]{2,}[\w\-\u2010\u2011]*|[A-Z]?[a-z][\w\-\u2010\u2011]*)(?:\s+[\w\-\u2010\u2011]+){0,6}):\s+"
                                  r"(?P<rest>(?:[a-z]|[A-Z][\w.\-]*\d[\w.\-]*\s)[^:]{12,})$")  # "Performance trade-offs: MI300X delivers ..."


_LABEL_IT = pattern_cache.lazy(r"^(?:[-*•]\s+)?(?P<label>[A-Z][^:\n]{2,60}?):\s+[Ii]t\s+(?P<rest>(?:is|was|has|can|will|works|supports|runs|gives|uses|"
                               r"needs|requires|keeps|splits|shards|stores)\b.*)$")
_VERB_IN_LABEL = pattern_cache.lazy(r"\b(?:is|are|was|were|be|been|has|have|had|do|does|did|can|could|will|would|should|must|may|"
                                    r"might|\w+ed|(?!(?:this|its|his|as|us|thus|plus|across|various|previous)\b)\w+s)\s+\w", re.I)  # "Arithmetic intensity is terrible: ..." is a sentence


_ANNOUNCING = pattern_cache.lazy(r"^(?:and|but|so|also|why|what|how)\b|\b(?:finding|findings|insight|takeaway|observation|result|results|point|"
                                  r"thing|lesson|verdict|caveat|surprise|conclusion|answer|upshot|catch|problem|issue|question)\b"
                                  r"|\b(?:is|are|was|were)\s*$", re.I)  # "The next question is: can VPP help?" asks "can VPP help?"


_PERSON = pattern_cache.lazy(r"[A-Z][a-z][\w.'-]*(?: [A-Z][a-z]?[\w.'-]*){1,2}")  # "Horace He", "Jingyuan Liu"


# A label over a line, not a person who speaks ("Scale Up:", "Memory Pressure:", "Efficiency:"): gist._SPEAKER's too
_SUFFIXED = r"[A-Z][a-z]+(?:ency|ancy|ity|tion|sion|ment|ness|ance|ence)"  # "Efficiency", "Observation": an abstract noun
LABEL_WORDS = (_SUFFIXED + r"|Scale|Speed|Cost|Latency|Throughput|Accuracy|Stability|"
               r"Bandwidth|Compute|Scaling|Quality|Usage|Pros|Cons|Approach|Method|Idea|Plan|Proposal|Changes?|Bug|Cause|Impact|"
               r"Benefits?|Trade-?offs?|Limitations?|Risks?|Options?|Phase|Stage|Memory|Step")
_COMMON_LABEL = pattern_cache.lazy(rf"^(?:{LABEL_WORDS})\b|\b{_SUFFIXED}\b")
# "Horace He: ..." is someone speaking; "Second-generation Transformer Engine: ..." labels what the line describes
SPEAKER = pattern_cache.lazy(r"^(?!(?:Problem|Setup|Settings?|Note|Update|Question|Summary|Results?|Issue|Solution|Context|Background|Environment|Edit|Details?|Test|Tests|Hardware|Software|System|Config\w*|Observ\w+|Conclusions?|Takeaways?|Expected|Actual|Steps?|Reproduc\w+|Motivation|Description|Overview|Goal|Reason|Fix|Workaround|Hypothes\w+|Analysis|Output|Error|Logs?|Command|Model|Benchmarks?|Performance|Memory|Training|Inference|" + LABEL_WORDS + r")\b[^:\n]{0,30}:)"
                              r"(?P<speaker>[A-Z][a-z][\w.'-]*(?: [A-Z][a-z][\w.'-]*){1,2}|[A-Z][a-z][\w.'-]*(?=\s*:[^\n]*\b(?:I|we|you|my|our|us|me)\b))\s*:\s+(?=\S)")


_VERB_LED = pattern_cache.lazy(r"(?!(?:This|Thus|Yes|As|Is|Was|Has|Does|Its|His|Us|Thanks|Les|Tes)\b)[A-Z][a-z]{2,}(?:es|s)\s+(?:the|a|an|its|all|each|every)\b")
_THING_WORD = pattern_cache.lazy(r"\b(?:Plugins?|Par+al+el\w*|Engines?|Modes?|Strateg(?:y|ies)|Librar(?:y|ies)|Frameworks?|Backends?|Kernels?|"
                                 r"Models?|Layers?|Caches?|Servers?|Clusters?|Nodes?|Optimi[sz]ers?|Attention|Offload\w*|Checkpoint\w*|"
                                 r"Training|Inference|Precision|Tensors?|Pipelines?|Experts?|Sharding|Memory|Compute|Networks?|Schedules?)\b")


def speaker(doc, text: str):
    """The SPEAKER match of a line, unless the "name" before its colon holds a term of the glossary (a label, no person)."""
    found = SPEAKER.match(text)
    if found is None or any(m.found_as and m.found_as in found.group("speaker") for m in doc.occurrences) \
            or _THING_WORD.search(found.group("speaker")) or _VERB_LED.match(text, found.end()):  # "Hybrid Parallel Plugin: It is
        return None  # suitable ...", "Protocol Testnet: Provides the ...": a thing described, not a person who speaks
    return found


def topic_label(clause: str) -> str:
    """A clause under a topic label said as one sentence: "KV cache management: tensor parallel deployment is not
    optimal" -> "for KV cache management, tensor parallel deployment is not optimal"."""
    named = _LABEL_IT.match(clause.strip())  # "Gemini Plugin: It is suitable for ...": the label is what "it" names
    if named and not _VERB_IN_LABEL.search(named.group("label")):
        return f"{named.group('label')} {named.group('rest')}"
    found = _TOPIC_LABEL.match(clause.strip())
    if not found or _VERB_IN_LABEL.search(found.group("label")) or not re.search(r"\b(?:is|are|was|were|has|have|can|cannot|can't|does|do|must|should|will|need|needs|"
                                  r"makes?|uses?|gives?|takes?|runs?|delivers?|offers?|provides?|achieves?|reaches|beats?|outperforms?|improves?|"
                                  r"reduces?|increases?|doubles?|halves?|supports?|requires?|enables?|allows?|shows?|gets?|hits?|"
                                  r"costs?|saves?|cuts?|(?<!, )\w{3,}ed)\b", found.group("rest")) and not (
                                      _ANNOUNCING.search(found.group("label")) and person.has_verb(found.group("rest"))):
        return clause  # "The core problem with this approach: the auxiliary loss conflicts ...": its verb is any verb
    label = found.group("label")
    if connectives.without(clause.strip(), "en") == found.group("rest").strip():
        return found.group("rest")  # "Following up on this: X" links X to what came before; it names no topic
    if _PERSON.fullmatch(label) and not _COMMON_LABEL.search(label):
        return clause  # "Horace He: you only need PP ...": a person who speaks, said as such by the gist
    if _ANNOUNCING.search(label):  # "And one surprising finding: X", "Key result: X": the label announces X
        return found.group("rest")
    if len(label.split()) > 5:
        return clause  # a label this long is a sentence's subject, not a topic
    if " " not in label and re.search(r"\b(?:I|we|you|my|our|us|me)\b", found.group("rest")):
        return clause  # "Alice: we never needed PP": a name that speaks
    if " " not in label:
        return found.group("rest")  # "Capacity: fp8 KV doubled the pool": a row's one-word heading, not a topic to name
    label = label if label[:2].isupper() else label[0].lower() + label[1:]
    return f"for {label}, {found.group('rest')}"


# An exercise's orders after its set-up ("Report the estimate for a 7B model ...", "Compute the bubble ..."): what the
# reader is asked to do, never "It adds that report the estimate"
EXERCISE = pattern_cache.lazy(r"^(?:report|estimate|compute|calculate|implement|derive|plot|show)\s+(?:the|a|an|how|what|your)\b", re.I)


# "The post reports that ...", "An earlier study found that ...": a clause that names who reports it, other than the author
_REPORTED_BY_OTHER = pattern_cache.lazy(r"^(?P<who>(?:the|that|an?|their|his|her)\s+(?:[\w-]+\s+){0,3}?(?:post|article|paper|blog|report|study|"
                                        r"survey|benchmark|documentation|docs|readme|thread|issue|guide|pr|pull request|commit|change))\s+(?:reports?|reported|says|said|notes|noted|"
                                        r"shows|showed|states|stated|claims|claimed|finds|found|argues|argued|describes|concludes|concluded)\s+that\b\s*,?\s*", re.I)


def reported_by_other(clause: str) -> tuple[str, str] | None:
    """(who reports, what) where a clause opens on another text reporting it ("The post reports that X"), else None."""
    found = _REPORTED_BY_OTHER.match(clause)
    return (found.group("who"), clause[found.end():]) if found and clause[found.end():].strip() else None
