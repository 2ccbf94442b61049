"""What keeps a sentence from being the author's point alone: a figure with nothing claimed about it, a list item, a
guess, an addition, an unresolved "this X", a pointer to other reading, a sentence about the page or a test set-up, a
config line or a command."""

import re

from service.explain import claims, pattern_cache, person, reported, restate
from service.explain.gist_select import STOP as _STOP, SUMMARY as _SUMMARY
from service.explain.document import Document

_ABOUT_THE_PAGE = pattern_cache.lazy(r"\b(?:for illustration|the following|as follows|illustrat\w+|in the (?:figure|table|diagram|image)|see (?:below|above|figure)|"
                                    r"shown (?:below|above)|this (?:figure|table|diagram)|as (?:you|we) can see (?:in|from|on) (?:the |this |my |our )?(?:figure|fig|table|chart|graph|plot|image|diagram|screenshot|timeline|trace|profile|log|output)|"
                                    r"(?:in|see) (?:figure|fig\.|table|chart|graph|plot) ?\d+)\b|(?:الشكل|الجدول) (?:أدناه|أعلاه)"
                                    r"|(?:كما|وكما) (?:هو موضح|يظهر|ترى|نرى) في (?:الشكل|الجدول)", re.I)
# A caption ("Example DualPipe scheduling for 8 PP ranks", "Figure 3:") describes a picture, not the subject.
_CAPTION = pattern_cache.lazy(r"^\s*(?:example|figure|fig\.|table|diagram)\b|^\s*(?:مثال|الشكل|جدول)\s", re.I)


def about_the_page(sentence: str) -> bool:
    """Whether the sentence is about a figure, a table or the page ("as you can see in figure 3"), a trailing pointer aside."""
    tail = _SHOWN_TAIL.search(sentence)
    said = sentence[:tail.start()] if tail and len(sentence[:tail.start()].split()) >= 8 else sentence
    return bool(_ABOUT_THE_PAGE.search(said) or _CAPTION.match(said))


SHOWN_TAIL = r",?\s*as (?:shown|seen|illustrated|depicted|plotted) (?:in|below|above|by)\b[^,.;]{0,40}[:.]?\s*$"  # synthesis drops it too
_SHOWN_TAIL = pattern_cache.lazy(SHOWN_TAIL, re.I)


# "In this tutorial we describe how to enable X": what the page walks through, its topic, not a claim of the author's
_TUTORIAL_INTRO = pattern_cache.lazy(r"^\W*in this (?:tutorial|guide|section|document|doc|page|walkthrough|notebook|how-?to|example)\s*,?\s*"
                                     r"(?:we|i|you)(?:'ll|\s+will)?\s+(?:describe|show|explain|walk (?:you )?through|cover|learn|"
                                     r"demonstrate|go over|see)\s+how\b", re.I)
PAGE_PENALTY, TUTORIAL_PENALTY = 2.0, 6.0


def page_penalty(sentence: str) -> float:
    """What a sentence about the page loses: a figure or table pointer a little, a tutorial's "we describe how to" most."""
    return TUTORIAL_PENALTY if _TUTORIAL_INTRO.match(sentence) else PAGE_PENALTY if about_the_page(sentence) else 0.0


def verbless_fragment(sentence: str, core: str, lang: str) -> bool:
    """Whether an English sentence is a short label with no verb, closed by a full stop ("FLOPs per 1 byte."): a heading's
    words, no point (a list item under its lead, "- effective MFU closer to ~40%", is read with the lead)."""
    return lang == "en" and core.isascii() and len(core.split()) < 6 and sentence.rstrip().endswith(".") \
        and not sentence.lstrip().startswith(("-", "*", "•")) and not person.has_verb(core) and not person.IMPERATIVE.match(core.strip())


SIDE_PENALTY = 2.0
# A pointer to other reading ("We recommend reviewing the initial blog post ...", "See the docs for details"): it tells
# the reader where to look, it is not what this text claims.
_POINTER = pattern_cache.lazy(r"(?<!n't )(?<!not )(?<!never )\b(?:recommend|suggest|encourage (?:you|readers) to|please|see|check out|refer to|have a look at|take a look at)\s+"
                              r"(?:\w+ing\s+)?(?:(?:the|our|this|that|my|an?|their)\s+)?(?:\w+\s+){0,3}?(?:blog ?posts?|posts?|articles?|papers?|docs?|"
                              r"documentation|guides?|tutorials?|readme|threads?|links?|videos?|notebooks?|write-?ups?|reports?)\b"
                              r"|\b(?:please\s+)?see\s+(?:below|above)\b"  # "Please see below for the huge improvements ...": a pointer
                              r"|\b(?:question|questions|problem|issue|ask)\s+(?:is|are)\s+(?:the\s+)?(?:following|as\s+follows|below)\b[^.:]{0,20}:\s*$"  # round 87 P06
                              # "For the single-node counterpart see X.", "For the concepts, read X first.": where to read, in the imperative
                              r"|^\s*for\s+(?:(?!(?:you|we|i|they|it|one|should|will|can|would|must|may|might)\b)[^\s.!?;:]+,?\s+){1,12}?(?:please\s+)?"
                              r"(?:see|read|check(?:\s+out)?|refer\s+to)\s+(?!if\b|whether\b|how\b)"
                              r"|\b(?:good|great|useful|excellent|helpful)\s+resources?\b"  # "a number of good resources ...: I recommend X"
                              r"|^\s*(?:below|above|here)\s+(?:are|is)\s+(?:some\s+|the\s+|our\s+|a\s+few\s+)?(?:[\w-]+\s+){0,2}?"
                              r"(?:numbers|results|figures|benchmarks?|stats|statistics|measurements|logs|tables?|plots?)\b"
                              r"|(?<![\u0621-\u064A])(?:راجع|راجعوا|اطلع على|انظر|يمكنكم? الاطلاع على)\s"
                              # "Here is exactly what we found and how we fixed it", "Let's dive in": what follows, announced
                              r"|^\s*as\s+(?:explored|discussed|described|covered|explained|shown)\s+in\s+(?:our|my|a|an|the|previous|earlier)\b"
                              r"|^\s*(?:so\s+)?(?:here(?:'s|\s+is|\s+are)\s+(?:exactly\s+|precisely\s+)?(?:what|how|why)\b|let(?:'s|\s+us)\s+"
                              r"(?:dive|look|see|walk|start|break|dig|get)\b|(?:below|next),?\s+(?:we|I)\s+(?:show|explain|describe|walk|look)\b"
                              r"|in\s+this\s+(?:post|article|blog(?:\s+post)?|guide|section),?\s+(?:we|I)(?:'ll|\s+will)\b|^\s*(?:in\s+)?(?:the|our|my)\s+(?:next|following|upcoming)\s+(?:post|article|blog(?:\s+post)?|part|installment|episode|chapter)\b)", re.I)
# A test set-up ("Tested on NVIDIA H100 80GB with Qwen2.5-7B:") says where a result was measured, not the result.
_TESTED_ON = pattern_cache.lazy(r"^\s*(?:(?:this|it|the (?:change|pr|patch|feature|fix))\s+(?:was|is|has been|were)\s+)?"
                                r"(?:tested|benchmarked|evaluated|run|measured|verified)\s+(?:on|with|using)\b", re.I)


def summary(sentence: str) -> bool:
    """Whether the sentence is the author's own summary ("TL;DR ...", "Bottom line: ...", "الخلاصة ...")."""
    return bool(_SUMMARY.match(sentence))


_TLDR = pattern_cache.lazy(r"^\W*(?:tl[;.]? ?dr|bottom line|الخلاصة)\b", re.I)  # a summary that may run on for a few sentences


def summary_at(doc, index: int) -> bool:
    """Whether sentence `index` is the author's summary or goes on with it in its paragraph ("TLDR; X is slow. Y fixes it.")."""
    a = doc.sentences[index][0]
    for before in range(index, max(-1, index - 3), -1):  # "TLDR; X. Y." is split after "TLDR;": Y still goes on with it
        start, end = doc.sentences[before]
        if summary(doc.text[start:end]):
            return before == index or bool(_TLDR.match(doc.text[start:end]))  # a stated aim ends with its own sentence
        if before and "\n" in doc.text[doc.sentences[before - 1][1]:start]:
            return False
    return False


def pointer(sentence: str) -> bool:
    """Whether the sentence points the reader to other reading or names the set-up a test ran on."""
    return bool(_POINTER.search(sentence) or _TESTED_ON.match(sentence))
_HYPOTHESIS = pattern_cache.lazy(r"^\s*(?:(?:one|a|another)\s+)?(?:possible|likely|probable)\s+(?:reason|cause|explanation)\b|"
                                 r"^\s*(?:maybe|perhaps)\b", re.I)
# "Oh I understand, must have missed ...", "I see, thanks", "Got it": a reader acknowledging the answer they were given;
# the answer it acknowledges is the thread's point
_ACKNOWLEDGES = pattern_cache.lazy(r"^\s*(?:(?:oh|ah|ok(?:ay)?)\s*,?\s*)?(?:i\s+(?:understand|see)(?:\s+now)?|got it|makes sense|"
                                   r"that makes sense|understood)\b\s*[,.!]", re.I)
_ADDITION = pattern_cache.lazy(r"^\s*(?:(?:it|they|this|the \w+)\s+)?also\b", re.I)
_SCENARIO = pattern_cache.lazy(r"^\s*(?:imagine|suppose|picture this|picture a|say you|let's say|consider a scenario)\b", re.I)
_LIST_ITEM = pattern_cache.lazy(r"^\s*(?:[-*•—–]|\d{1,2}[.)])\s+")
# a line announcing a list of reasons ("This approach is motivated by several technical considerations:")
_REASONS_LEAD = pattern_cache.lazy(r"\b(?:motivated by|reasons?|considerations|because of|due to|why)\b[^\n.]{0,60}:\s*\n", re.I)
_BRACKETED = pattern_cache.lazy(r"^\s*\((?P<inside>[^()]*(?:\([^()]*\)[^()]*)*)\)\s*[.!?]?\s*$")  # "(One caveat: ...)"


# the label over a list of what the author found: its items are the findings, not asides
_RESULTS_LABEL = pattern_cache.lazy(r"^[ \t#*]*(?:(?:key|main|summary of|overview of)[ \t]+)?(?:results?|findings?|observations?|takeaways?|conclusions?|"
                                    r"summary)(?:[ \t]+(?:overview|summary))?[ \t*]*:?[ \t*]*$", re.I)


def _under_results(doc: Document, at: int) -> bool:
    """Whether the list item at `at` stands under a "Results:" or "Findings:" label, with only list items between."""
    if at <= 0:
        return False
    for line in reversed(doc.text[:at].split("\n")[:-1]):
        if not line.strip() or _LIST_ITEM.match(line):
            continue
        return bool(_RESULTS_LABEL.match(line))
    return False


def list_item(sentence: str) -> bool:
    """Whether a sentence is an item of a list ("- ...", "— MXFP8: ...", "2) ..."): a label or a row, never a reason."""
    return bool(_LIST_ITEM.match(sentence))


def bracketed(sentence: str) -> str | None:
    """What a sentence written wholly in brackets says ("(One caveat: X.)" -> "One caveat: X."), None if it is not."""
    found = _BRACKETED.match(sentence)
    return found.group("inside").strip() if found else None
_REPORTING = pattern_cache.lazy(r"\b(?:the|a|an|this|that|it|its|they|their|we|our|i|my|up|to|of|at|per|on|for|in|with|and|"
                                r"about|around|roughly|approximately|reports?|reported|says?|said|gives?|gets?|got|achieves?|"
                                r"achieved|reaches|reached|is|are|was|were|has|have|also|only|of|paper|text|post|report)\b", re.I)


# A formula written in words: bracketed names or numbers joined by operators and an equals sign.
_SETUP_LABEL = re.compile(r"(?:^|\n)[ \t]*(?:(?:hw|hardware|software|sw|system|test|testing|env|my|our)[ \t]+)?(?:setup|set-up|"
                          r"environment|hardware|config(?:uration)?|specs?|system info)[ \t]*:[ \t]*\n[ \t]*$", re.I)
_NUMBER_LIST = re.compile(r"[\[(]\s*-?[\d.]+(?:\s*,\s*-?[\d.]+){3,}")  # "stage times (ms): [3.153, 3.150, ...]": data, not prose
_SETTING = re.compile(r"(?<![\w=])[A-Za-z_][\w.-]*=[\w.-]+(?![\w=])")
_FORMULA = re.compile(r"(?:\)|\w)\s*[*/×÷]\s*(?:\(|\w)[^=\n]{0,120}=|=\s*\(")


def formula(sentence: str) -> bool:
    """Whether a sentence is a formula or a piece of one ("(sequence length) * (batch) / (step time) = ..."), or a list
    of numbers ("[3.153, 3.150, 3.150, ...]")."""
    equals = _SETTING.sub(" ", sentence).count("=")  # "tp=4 ... tp=1" sets options, it equates nothing
    return bool(_FORMULA.search(sentence)) or sentence.lstrip()[:1] in "*/=+" or equals >= 2 or bool(_NUMBER_LIST.search(sentence))


# Another person's words the author reports before answering them: "@stas00 said that ...", "he replied that ..."
_OTHER_SPEAKER = pattern_cache.lazy(r"@[\w-]+\s+(?:said|says|replied|replies|argued|claimed|suggested|wrote|mentioned|noted|pointed out)\b"
                                    r"|\b(?:he|she)\s+(?:said|replied|argued|claimed)\s+that\b", re.I)


def other_speaker(sentence: str) -> bool:
    """Whether a sentence reports another person's claim ("@sjeaugey replied that ..."), never the author's own words."""
    return bool(_OTHER_SPEAKER.search(sentence))


def side_weight(doc: Document, sentence: str, core: str, figures: list) -> float:
    """What keeps a side sentence from being the point alone: a figure with nothing claimed about it ("The paper reports
    up to 147 TFLOP/s per GPU"), a list item, a sentence opening on "this/that X" whose X the sentence before never named."""
    penalty = 0.0
    if doc.lang == "ar":
        return penalty  # the cues below read English
    if other_speaker(sentence):
        penalty += 2 * SIDE_PENALTY  # "To which @sjeaugey replied that ...": a claim the author goes on to answer (round 68 P15)
    if figures:
        rest = core
        for figure in figures:
            rest = rest.replace(figure.quote, " ")
        if len(re.findall(r"[A-Za-z][\w-]{2,}", _REPORTING.sub(" ", rest))) <= 1:
            penalty += SIDE_PENALTY
    at = doc.text.find(sentence)
    line = doc.text[doc.text.rfind("\n", 0, max(at, 0)) + 1:at + len(sentence)] if at >= 0 else sentence
    if _LIST_ITEM.match(line) and _under_results(doc, at):
        penalty -= 2 * SIDE_PENALTY  # an item under "Results overview:" is what the author found, the report's point
    elif _LIST_ITEM.match(line) and at > 0 and (lead := _REASONS_LEAD.search(doc.text, max(0, at - 400), at)) \
            and any(reported.role(doc.text[a:b], doc.lang) == "proposal" for a, b in doc.sentences if b <= lead.start()):
        penalty += 2 * SIDE_PENALTY  # "This PR extends X. ... motivated by these considerations: 1. ...": a reason for the change
    elif _LIST_ITEM.match(sentence):
        penalty += SIDE_PENALTY
    if bracketed(sentence) is not None:
        penalty += 3 * SIDE_PENALTY  # "(One caveat: ...)": the author's own aside, set apart from the point
    if at > 0 and _SETUP_LABEL.search(doc.text, 0, at):
        penalty += 2 * SIDE_PENALTY  # "HW setup:" then "8x H100 PCIe, ...": what the test ran on, not what it found
    if at >= 0 and _labelled_at(doc.text, at):
        penalty += 2 * SIDE_PENALTY  # "Activations: scale with context length" among "Gradients: ...": an item of a list
    same = [f for f in figures if f.quantity == figures[0].quantity] if figures else []
    prose = core
    for figure in figures:
        prose = prose.replace(figure.quote, " ")
    if len(same) >= 3 and len(re.findall(r"(?<![\w/])[a-z]{3,}\b", prose)) <= 3:
        penalty += 2 * SIDE_PENALTY  # "Method Throughput SGLang 158.34 tokens/s SGLang + EAGLE-2 244.10 tokens/s": a table's rows
    if formula(sentence):
        penalty += 2 * SIDE_PENALTY  # "(sequence length) * (batch) / (step time) = ...": a formula, or a piece of one
    if claims.table_line(sentence) or table_row(doc, sentence):
        penalty += 3 * SIDE_PENALTY  # "bs inp_len out_len ... 1 2048 512 11.20s 228.571 ...": a table run into one line
    if _HYPOTHESIS.match(sentence):
        penalty += SIDE_PENALTY  # "One possible reason is ...": a guess offered for the question or problem, not the point
    if at >= 0 and disputed(doc.text, at + len(sentence)):
        penalty += 3 * SIDE_PENALTY  # "... a significant challenge. / I totally disagree with that.": a view the author disputes
    if at >= 0 and re.match(r"\s*you\s+(?:must|need|have|should)\b", sentence, re.I) \
            and _SCENARIO.match(doc.text[doc.text.rfind("\n", 0, max(at, 0)) + 1:at]):
        penalty += 99.0  # "Imagine ... your job fails. You must restart from ...": a scenario told, never advice nor the point
    if _ADDITION.match(sentence):
        penalty += SIDE_PENALTY  # "It also emphasizes ...": an addition to the point, not the point
    if _ACKNOWLEDGES.match(sentence):
        penalty += 3 * SIDE_PENALTY  # "Oh I understand, must have missed ...": the answer acknowledged is the point
    pointing = re.match(r"^\s*(?:this|that|these|those)\s+(?P<noun>[a-z][\w-]+)", sentence, re.I)
    if pointing and not re.fullmatch(r"[a-z]+(?:s|ed)|is|was|can|will|would|could|pr|change|patch|commit|paper|post|work|study|"
                                     r"article|thread|issue|section|setup|config|way|one|time|step|approach|method",
                                     pointing.group("noun").lower()):  # "this forces ..." is a verb, "this PR" the post itself
        head = pointing.group("noun").lower().rstrip("s")
        before = doc.text[:doc.text.find(sentence)] if sentence in doc.text else ""
        if head not in before.lower():
            penalty += SIDE_PENALTY  # "This all-reduce ..." with no all-reduce named before: the antecedent is missing
    return penalty


_ROW_NUMBERS = re.compile(r"(?<![\w.])\d[\d.,]*[A-Za-z%]{0,3}(?![\w.])|\bOOM\b")


def table_row(doc: Document, sentence: str) -> bool:
    """Whether the sentence is one line of a block of three or more lines that each hold two figures or more (or three
    cells joined by "|") and end without a full stop ("Stage3, no offload 10B 1 8 OOM OOM" among its rows): a table's row, not a point."""
    lines = doc.text.split("\n")
    parts = [part for part in sentence.strip().split("\n") if part.strip()]
    if len(parts) >= 2 and 2 * sum("|" in part for part in parts) > len(parts):
        return True  # "Resident during weight sync | Size / actor params | ~38.9 GiB": a table's header and row read as one
    at = next((k for k, line in enumerate(lines) if sentence.strip() and sentence.strip() in line), None)
    if at is None or "\n" in sentence.strip() or claims.first_person_view(sentence):
        return False  # "What's wrong: we would expect 2739 + 2739 but instead we see 11190" below the rows: argued

    def row(k: int) -> bool:
        line = lines[k].strip()
        return bool(line) and not line.endswith((".", "?", "!", ":")) and (len(_ROW_NUMBERS.findall(line)) >= 2 or "|" in line)

    if not row(at):  # a header line over two rows or more ("Same machine, back to back target draft before after speedup")
        line = lines[at].strip()
        return at + 2 < len(lines) and row(at + 1) and row(at + 2) and not line.endswith((".", "?", "!", ":")) \
            and len(line.split()) <= 12
    up, down = at, at
    while up > 0 and row(up - 1):
        up -= 1
    while down + 1 < len(lines) and row(down + 1):
        down += 1
    return down - up + 1 >= 3


def machine(doc: Document, start: int, end: int) -> bool:
    """Whether most of a sentence is a config line, a command or code: set-up, not the author's point."""
    covered = sum(min(b, end) - max(a, start) for a, b in restate.protected_spans(doc) if a < end and start < b)
    return covered > 0.5 * (end - start)


OPENING_WORDS = 6  # the term a sentence is about stands among its first words ("HBM is ...", "ذاكرة ... (HBM) هي")


def answered_heading(doc: Document, index: int) -> bool:
    """Whether a question is the text's own heading, answered by the next sentence ("What is HBM? HBM is a stack of
    ..."): the author explains, nobody asks; the next sentence opens on a term the question names."""
    if index + 1 >= len(doc.sentences):
        return False
    (q_start, q_end), (n_start, n_end) = doc.sentences[index], doc.sentences[index + 1]
    following = doc.text[n_start:n_end]
    if following.rstrip().endswith(("?", "؟")):
        return False
    opening_end = n_start + sum(len(w) + 1 for w in following.split()[:OPENING_WORDS])
    asked = {o.entry["id"] for o in doc.occurrences if q_start <= o.start < q_end}
    return any(n_start <= o.start < opening_end and o.entry["id"] in asked for o in doc.occurrences)


_NOTE_VERB = pattern_cache.lazy(r"^(?P<verb>[A-Z][a-z]{2,}(?:es|s))\s+(?=[a-z])")  # "Operates effectively ...", "Places groups ..."
_NOTE_LABEL = pattern_cache.lazy(r"^\s*(?P<label>[A-Z][^:.!?]{1,60}?)\s*:\s+[A-Z][a-z]+s\b")  # "Pipeline Parallelism (PP): Places ..."


def with_subject(doc: Document, index: int, text: str) -> str:
    """A note's sentence that opens on its verb ("Operates effectively over InfiniBand") given the subject its list item
    named ("Pipeline Parallelism (PP): Places groups of layers ..."), so that "the text says that operates" is never said."""
    header = parent_header(doc, index) if doc.lang == "en" and restate.same_language(text, doc.lang) else ""
    if header and text[:1].isupper() and not text[:2].isupper() and not text.lower().startswith(header.lower()):
        text = f"with {header}, {text[0].lower()}{text[1:]}"  # "with VERL + SGLang, weight update is very slow"
    found = _NOTE_VERB.match(text)
    if not found or index == 0 or not restate.same_language(text, doc.lang):
        return text
    label = _NOTE_LABEL.match(doc.text[slice(*doc.sentences[index - 1])])
    return f"{label.group('label')} {found.group('verb').lower()} {text[found.end():]}" if label else text


_BULLET = pattern_cache.lazy(r"^(?P<indent>[ \t]*)(?:[-*•]|\d{1,2}[.)])\s+")
# a header naming a set-up ("VERL + SGLang", "8x H100", "FSDP2"): capitals, a digit or a plus; not "Problem" or "Env"
_SETUP_HEADER = pattern_cache.lazy(r"^(?=[^:]*(?:[A-Z]{2}|[A-Za-z]\d|\d\s*x|\+))[\w .+/-]{2,40}$")


def parent_header(doc: Document, index: int) -> str:
    """The set-up an indented list item sits under ("- VERL + SGLang:" above "  - Weight update is very slow"), else ''."""
    text, start = doc.text, doc.sentences[index][0]
    lines = text.split("\n")
    at = text.count("\n", 0, start)
    item = _BULLET.match(lines[at])
    if not item or not item.group("indent"):
        return ""
    for line in reversed(lines[:at]):
        head = _BULLET.match(line)
        indent = len(head.group("indent")) if head else len(line) - len(line.lstrip())
        if line.strip() and indent < len(item.group("indent")):
            label = (line[head.end():] if head else line).strip()
            return label[:-1].strip() if label.endswith(":") and _SETUP_HEADER.match(label[:-1].strip()) else ""
    return ""


def result_before_rows(doc: Document, index: int, sentence: str) -> bool:
    """A result stated over the rows that measure it ("enabling EP helped improve tpm, ttft and tpot:" then a row with
    EP and one without): the point of a benchmark report, not a label, when the next sentence's numbers were worked."""
    if not sentence.rstrip().endswith(":") or len(sentence.split()) < 8 or not claims.cue("point", sentence):
        return False
    after = doc.sentences[index][1]
    following = next((c for c in doc.claims if c.start >= after), None)
    return following is not None and bool(following.calculations) and not doc.text[after:following.start].strip(" \t\n-*•")


_ASKS_ABOUT_THIS = pattern_cache.lazy(r"\b(?:this|that|it)\b", re.I)
_SUSPECTS = pattern_cache.lazy(r"\b(?:suspect|think|guess|believe|reason|cause[sd]?|because|due to|seems?)\b", re.I)


_THIS_MEASURE = re.compile(r"\b(?:this|that|these|those)\s+(?:numbers?|figures?|rates?|values?|results?|metrics?|ratios?|speeds?|"
                           r"throughputs?|gaps?|percentages?|latenc(?:y|ies))\b", re.I)


def question_antecedent(doc: Document, point: int) -> int | None:
    """For a question about "this" ("Could this be the root cause?"), the sentence it asks about: the nearest one
    before it, within two, that offers a reason or a suspicion ("I suspect the reason is that the CPU lacks AMX")."""
    start, end = doc.sentences[point]
    question = doc.text[start:end]
    if question.rstrip().endswith("?") and _THIS_MEASURE.search(question) and doc.lang == "en":
        for i in range(point - 1, max(-1, point - 3), -1):  # "can it boost this number?" after "... sees ~80% acceptance"
            a, b = doc.sentences[i]
            if any(a <= f.start < b for f in doc.figures) and restate.same_language(doc.text[a:b], doc.lang):
                return i
    if not question.rstrip().endswith(("?", "؟")) or not _ASKS_ABOUT_THIS.search(question) or doc.lang != "en":
        return None
    seen = 0
    for i in range(point - 1, max(-1, point - 3 - MIN_LABEL_LINES), -1):
        sentence = doc.text[slice(*doc.sentences[i])]
        if _SUSPECTS.search(sentence) and len(sentence.split()) >= 6 and restate.same_language(sentence, doc.lang):
            return i
        labelled = _LABEL_LINE.match(sentence) or sentence.rstrip().endswith(":")  # "CPU Model: ... Cores: 64" between
        seen += not labelled
        if seen >= 2:
            return None
    return None


_LABEL_LINE = re.compile(r"^\s*[A-Z][\w ()/-]{0,30}:\s+\S")
MIN_LABEL_LINES = 3  # two "Name: ..." lines are as often two speakers; three or more such lines in a row are a list


def labelled_list(doc: Document, index: int) -> bool:
    """Whether sentence `index` is one of several lines in a row that each open on a label and a colon ("Gradients:
    match parameter size"): a list of items, in which the label names a thing, not a speaker."""
    return _labelled_at(doc.text, doc.sentences[index][0])


def _labelled_at(text: str, start: int) -> bool:
    lines = text.split("\n")
    at = text.count("\n", 0, start)
    if not _LABEL_LINE.match(lines[at]):
        return False
    low = high = at
    while low > 0 and _LABEL_LINE.match(lines[low - 1]):
        low -= 1
    while high + 1 < len(lines) and _LABEL_LINE.match(lines[high + 1]):
        high += 1
    return high - low + 1 >= MIN_LABEL_LINES


def before_list(doc: Document, point: int) -> int:
    """The sentence a point pointing back refers to: the one before it, or, after a list of labelled items (and the
    "The math:" line that announces it), the sentence before the list; -1 when there is none."""
    i = point - 1
    while i >= 0 and (labelled_list(doc, i) or doc.text[slice(*doc.sentences[i])].rstrip().endswith(":")):
        i -= 1
    return i


def lower_start(text: str) -> str:
    """A list item continuing a sentence: its first word in lower case unless it is an acronym or a name with capitals."""
    first = text.split(" ", 1)[0]
    return text[0].lower() + text[1:] if first[1:].islower() else text


# A line a program printed: an exception with its message, a log line with its source location or level
_MACHINE_OUTPUT = pattern_cache.lazy(r"^\s*(?:\[(?:[EWIF]\s+)?[\w./-]+:\d+\]|[A-Z]\w*(?:Error|Exception)\s*:|Traceback\b|"
                                     r"(?:INFO|WARN(?:ING)?|ERROR|DEBUG|CRITICAL)\b\s*[:\]])")


def machine_output(sentence: str) -> bool:
    """Whether the sentence is a program's message ("ValueError: ...", "[utils.py:868] ..."), not the author's words."""
    return bool(_MACHINE_OUTPUT.match(sentence))


def no_evidence(sentence: str, lang: str) -> bool:
    """Whether a sentence can be no reason or evidence beside the point: a fragment cut inside a bracket ("this is 3x
    the parameters)"), a program's message, or a line that only opens the rows below it ("The speed of one node with
    2 A10 GPUs:"; advice that ends in a colon still counts)."""
    return sentence.count("(") != sentence.count(")") or machine_output(sentence) \
        or sentence.rstrip().endswith((":", "：")) and reported.role(sentence, lang) in ("other", "contrast")


def blockquoted(doc, index: int) -> bool:
    """Whether sentence `index` sits in a Markdown blockquote ("> Overall this speeds up training by 3-5x ..."): a
    result the author quotes to ask about, which "The author concludes ..." would give them (a round-25 reader)."""
    start = doc.sentences[index][0]
    line_start = doc.text.rfind("\n", 0, start) + 1
    return doc.text[line_start:start + 1].lstrip().startswith(">")


# "I totally disagree with that.", "That's not true.", "I don't think so": what the author says of the view before it
_DISPUTE = pattern_cache.lazy(r"\s*(?:(?:but|well|however),?\s+)?(?:I|we)\s+(?:totally\s+|strongly\s+|completely\s+|respectfully\s+)?"
                              r"(?:disagree|don['’]?t agree|do not agree|don['’]?t (?:think|buy) (?:so|that|it)|doubt (?:that|it|this))\b"
                              r"|\s*(?:that['’]?s|this is|that is|that isn['’]?t|this isn['’]?t)\s+(?:not\s+(?:true|right|correct|the case|what)|wrong|false|"
                              r"what (?:\w+\s+){0,2}(?:deliver|get|see|measure|observe|happens)\w*)\b", re.I)  # "That isn't what providers deliver"


def disputed(text: str, end: int) -> bool:
    """Whether the paragraph that ends at `end` is followed at once by the author disputing it ("I totally disagree
    with that."): the view is quoted to be argued with, never the author's own point (a round-28 reader)."""
    paragraph_end = text.find("\n\n", end)
    if paragraph_end > end and text[end:paragraph_end].strip():
        return bool(_DISPUTE.match(text, end))  # the next sentence of the same paragraph
    return bool(_DISPUTE.match(text, paragraph_end if paragraph_end >= 0 else end))



# "this hidden cost" inside the point, or "fixes both" after "has two problems": what it points back to is named in an
# earlier sentence, which a gist of the point alone leaves dangling (readers: "both problems are never described")
_DEMONSTRATIVE = re.compile(r"(?<!^)(?<!\. )\b(?P<det>this|these|those)\s+(?:(?:hidden|same|extra|additional|whole|main|key|big|huge|"
                            r"overall|particular|specific)\s+)?(?P<noun>[a-z][a-z-]{2,})\b", re.I)
_BOTH = re.compile(r"\b(?:fix|solv|address|avoid|handl|remov|eliminat|resolv|mitigat|tackl|cur|sidestep)\w*\s+(?:them\s+)?"
                   r"(?:both|all\s+(?:three|four))\b(?!\s+(?:the\s+|of\s+the\s+)?[\w-]+\s+and\b)", re.I)
_COUNTED = re.compile(r"(?<![\d.,])\b(?:two|three|four|2|3|4)\s+(?:[a-z-]+\s+)?[a-z-]+s\b", re.I)
# the page itself ("this tutorial", "this PR") or a word that is no noun after "this" ("this decreases", "this and")
_ITSELF = frozenset("pr change patch commit paper post blog article thread issue section setup config way one time step "
                    "approach method work study page repo repository week month year case point answer question reply "
                    "comment example model tutorial guide doc docs document documentation notebook video talk book chapter "
                    "release version library project code script test benchmark".split())
_NOT_NOUNS = frozenset("is are was were be been can will would could should may might must has have had does do did "
                       "not also only just very much more most less".split())
REFERENT_WORDS = 55  # the sentence pointed back to and the point together, at most: a gist read in one breath


def referent(doc: Document, point: int, values: dict[int, float]) -> int | None:
    """The earlier sentence, within four (eight for what "both" counts), that a back-reference inside a statement
    needs: the one naming the noun of its "this X" ("this hidden cost" -> "it has a cost that ..."), or the one
    counting what "fixes both" fixes; None for a question (question_antecedent reads those) or a gist too long."""
    sentence = doc.text[slice(*doc.sentences[point])]
    if doc.lang != "en" or point == 0 or sentence.rstrip().endswith("?") or not reported.has_verb(sentence):
        return None  # "Went from 820 -> 879 using this policy": a note said as written, with nothing put before it
    both = _BOTH.search(sentence)
    nouns = [m.group("noun").lower() for m in _DEMONSTRATIVE.finditer(sentence) if _noun(m.group("det"), m.group("noun"))
             and not re.search(rf"\b{re.escape(_stem(m.group('noun')))}", sentence[:m.start()], re.I)]
    if not both and not nouns:
        return None
    for i in range(point - 1, max(-1, point - (9 if both else 5)), -1):  # the problems counted may each take sentences
        earlier = doc.text[slice(*doc.sentences[i])]
        if values.get(i, 0.0) <= 0.0 or not restate.same_language(earlier, doc.lang) or machine_output(earlier) \
                or earlier.lstrip().startswith("#"):
            continue  # a caption, a config line or a log line points nowhere
        if both and _COUNTED.search(earlier) or any(re.search(rf"(?<!this )(?<!that )(?<!these )(?<!those )\b{re.escape(_stem(n))}(?:s|es)?\b",
                                                           earlier, re.I) for n in nouns):  # named, not pointed at again
            return i if len(earlier.split()) + len(sentence.split()) <= REFERENT_WORDS else None
    return None


def _noun(det: str, word: str) -> bool:
    """Whether the word after "this"/"these" can be the noun it points with: not the page, a stop word, or a verb
    ("this decreases", "this reduced"): after "this", a singular."""
    word = word.lower()
    if word in _ITSELF or word in _NOT_NOUNS or word in _STOP or word.endswith(("ed", "ly", "ing")):
        return False
    return det.lower() != "this" or not word.endswith("s") or word.endswith(("ss", "us", "is"))


def _stem(noun: str) -> str:
    """A noun without its plural ending ("costs" -> "cost"), for finding it named before."""
    noun = noun.lower()
    return noun[:-1] if len(noun) > 3 and noun.endswith("s") and not noun.endswith("ss") else noun


def label_line(doc: Document, index: int) -> bool:
    """A line without a verb that asks nothing and gives no figure but in brackets ("Suspiciously high throughput (e.g.
    4200 TPS/GPU)", an item under "Symptoms include:"): a label, never the author's point while a sentence with a verb
    makes one. A row of results ("BF16: alltoall 423.6 TFLOP/s vs hybridep 406.6 TFLOP/s") is not a label."""
    sentence = doc.text[slice(*doc.sentences[index])].strip()
    bare = re.sub(r"\([^()]*\)", " ", sentence)
    return not sentence.endswith(("?", "؟")) and not re.search(r"\d", bare) and not person.has_verb(bare) \
        and not _SUBJECT_OR_VERB_FIRST.search(sentence)


# A pronoun with its verb ("we lose perf", "I'm able to"), or a report opening on its verb ("Measured 2.00x ...",
# "Went from 820 -> 879", "Requires only 1 H100"): a claim, though the verb list does not know the verb.
_SUBJECT_OR_VERB_FIRST = pattern_cache.lazy(r"\b(?:I|we|We|they|They|you|You|it|It)(?:'m|'re|'ve)?\s+[a-z]|^(?:[A-Z][a-z]+(?:ed|es)|Went|Got|Ran|"
                                            r"Saw|Made|Took|Trains|Requires|Runs|Uses|Adds|Gets|Makes|Takes|Shows)\b")


_SHOULD = pattern_cache.lazy(r"\bshould\b(?![^.]*\bthan (?:expected|anticipated)\b)", re.I)  # not "worse than expected"
_BARE_REASON = pattern_cache.lazy(r"^\s*because\b[^,;:]*[.!]?\s*$", re.I)


def bare_reason(sentence: str) -> bool:
    """Whether a sentence is a reason with no main clause ("Because they have the same number of GPUs.") or a relative
    clause cut off from its sentence ("Which requires the CPU to wait until all gradients have been received."): it
    says more about the sentence before it, never the point."""
    return bool(_BARE_REASON.match(sentence) or _BARE_RELATIVE.match(sentence) and not sentence.rstrip().endswith("?"))


def run_on_list(text: str, start: int, sentence: str) -> bool:
    """Whether a "sentence" is the lines of an unbulleted list under a lead ("This change:\nretains per-layer ...\nmaps
    explicit ...\nrespects ..."): its items share the lead's subject, so restated alone they have none (a prose
    sentence wrapped over lines follows no colon)."""
    lines = [line.strip() for line in sentence.strip().split("\n") if line.strip()]
    return len(lines) >= 3 and text[:start].rstrip().endswith((":", "：")) \
        and sum(not line.endswith((".", "!", "?", "؟", ":")) for line in lines[:-1]) >= 2


_BARE_RELATIVE = pattern_cache.lazy(r"^\s*Which\s+(?:is|are|was|were|means|requires|required|makes|made|causes|caused|leads|led|"
                                    r"results|gives|allows|lets|forces|needs|can|could|would|will|may|might)\b")


def expected_only(sentence: str, lang: str) -> float:
    """How much to take off a sentence that says what the author expected ("If there is one flat ring, all-reduce should
    be bottlenecked by the cross-node bandwidth"): its "should" predicts, so its point and requirement cues count for nothing."""
    said = re.sub(r"\([^()]*\)", " ", sentence)  # "obtains 43.56 tokens/s (so I suppose it should be identical)": an aside
    if reported.role(said, lang) != "expectation" or not _SHOULD.search(said):
        return 0.0
    return 3.0 * claims.cue("point", sentence) + 2.0 * claims.cue("requirement", sentence)


_ALSO = pattern_cache.lazy(r"^\s*also\s*,", re.I)


def also_argues(sentence: str, lang: str) -> bool:
    """Whether a sentence opening with "Also," adds a point with its cause ("Also, 70B is super slow because I needed to
    gather one matrix at a time"), not an aside: a problem, a cause or a conclusion of its own."""
    return bool(_ALSO.match(sentence)) and reported.role(sentence, lang) in ("problem", "cause", "conclusion")


def reason_of_before(sentence: str) -> bool:
    """Whether a sentence opens by giving the reason of the one right before it ("The reason is ...", «والسبب هو ...»):
    it is the reason of a point only right after it (round 57 P02-ar: a loading-order reason given for training in bf16)."""
    return bool(_REASON_OF_BEFORE.match(sentence.strip()))


_REASON_OF_BEFORE = pattern_cache.lazy(r"^(?:و?السبب(?: في ذلك)? (?:هو|أن)|the reason (?:is|was|for this)|this is because|that is because|that's because)",
                                       re.I)


_TITLE_TAG = pattern_cache.lazy(r"^\s*(?:\[(?:regression|bug|feature(?: request)?|rfc|question|help wanted|perf|performance|"
                                r"enhancement|discussion|proposal|draft|wip|fix|feat|docs?)\]\s*:?\s*)+", re.I)


def without_title_tag(text: str) -> str:
    """A sentence without an issue title's label ("[Regression] PyTorch 2.12 causes ..."): the label is not its words."""
    return _TITLE_TAG.sub("", text)


def has_figure(doc: Document, index: int) -> bool:
    """Whether sentence `index` gives a figure: a sentence about a table that states its numbers is evidence, a caption is not."""
    start, end = doc.sentences[index]
    return any(start <= f.start < end for f in doc.figures)


def bulleted(doc: Document, index: int) -> bool:
    """Whether sentence `index` is an item of a list ("- reduce the learning rate: ...") under a lead line that sets a
    condition ("If you train on fewer than 128 GPUs, you have a few options:"): the lead's condition is the item's."""
    return index > 0 and bool(re.search(r"(?:^|\n)[ \t]*(?:[-*•]|\d+[.)])[ \t]*$", doc.text[:doc.sentences[index][0]])) \
        and claims.cue("condition", doc.text[slice(*doc.sentences[index - 1])])
