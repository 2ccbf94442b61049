"""The gist: the author's point restated from the author's own sentences, each gist sentence naming the ones it restates."""

import re

from service.explain import claims as cues
from service.explain import gist_central, gist_contrast, gist_cross, gist_dangling, gist_frames, gist_labels, gist_select, gist_length, gist_lift, gist_list, gist_plain, gist_side, gist_turns, headings, pattern_cache, person, question_target, reported, restate, synthesis
from service.explain.document import Document
from service.i18n.messages import messages

MAX_SENTENCES = 2  # the point and, at most, its reason or one short companion: a gist is one or two short sentences
SHORT_PAIR_WORDS = 40  # a second sentence that is not the reason joins only when both together stay this short
MIN_SCORE = 3.0  # below this a sentence argues nothing: a label, a gloss, an aside
LONG_SENTENCE_WORDS = 60
# Frames that cannot both hold for the same hardware: one answer never states both.
CONTRADICTING = {"pp_needed": {"pp_not_needed", "fast_links_no_pp"}, "dp_comms_bound": {"fast_links_no_pp", "pp_not_needed"}}

# "1) data parallelism (DP): ...", "•TPU (Tensor Processing Unit): ..." gloss a term; they are not the author's point.
_GLOSS = pattern_cache.lazy(r"^\s*(?:\d+[).]\s*)?[^:.!?؟]{1,60}\([^()]{1,60}\)\s*:")
# An aside announces itself: "Meanwhile ...", "BTW ...", "وفي الأثناء".
_ASIDE = pattern_cache.lazy(r"^\s*(?:meanwhile|btw|by the way|also|separately|side note|unrelated|p\.?s\.?|(?:please )?note that|n\.b\.)\b|^\s*(?:في الأثناء|بالمناسبة)", re.I)
# "DualPipe is an innovative bidirectional pipeline ..." states what a description is about.
_DEFINES = pattern_cache.lazy(r"^\s*(?:[A-Z][\w.-]*(?:\s+[A-Z0-9][\w.-]*){0,3}|the\s+\w+)\s+(?:is|are)\s+(?:an?|the)\s"
                              r"|^\s*\S+(?:\s+\S+)?\s+(?:هو|هي)\s")
_DATA_ROW = pattern_cache.lazy(r"^\s*[-*•]?\s*[^:.!?؟]{1,40}:\s*[~≈<>]?\s*[\d.,]+(?:\s*[×x*^]\s*[\d^]+)?\s*\S{0,12}\s*(?:\([^()]{0,30}\))?\s*[.;]?\s*$")
_NOT_BECAUSE = pattern_cache.lazy(r"^\s*not\s+(?:because|that|just|only|even|since)\b", re.I)
_EMOTICON = pattern_cache.lazy(r"\s+[:;]-?[/()DPp|\\]+(?=[\s.!?]*$)")  # "... each time :/" ends in a face, not a word
_PLAIN_WORD_FIRST = pattern_cache.lazy(r"[a-z]+[\s,]")  # "the flagship run ...", not "bing_bert", "h100" or "nvidia-smi"
# A person's name ("Horace He:"), not a setting ("SHARD_GRAD_OP:", "FULL_SHARD:"): capitalised words with lower case.
_URL = pattern_cache.lazy(r"https?://(?:www\.)?github\.com/[\w.-]+/[\w.-]+/(?P<kind>pull|issues|discussions)/(?P<number>\d+)\S*|https?://\S+")
_TRAILING = ".。!?؟:;؛،, "
# A reason names its cause ("because", "since", "due to"); "so"/"thus" open a consequence, not the reason.
_REASON = pattern_cache.lazy(r"\b(?:because|since|due to|thanks to|as a result of|the reason)\b|(?<![\u0621-\u064A])(?:لأن|بسبب|نظرًا|نظرا|بفضل)", re.I)
# Discourse openers that belong to the conversation, not the point: "Yes I profiled ...", "But, you have to ...".
_OPENER = pattern_cache.lazy(r"^(?:(?:yes|ok|okay|well|but|and|so|also|however|while|anyway|additionally|moreover|furthermore|in addition|ofc|of course"
                             r"|not (?:totally|entirely|completely|quite|really|exactly))\s*,\s*|(?:yes|but|and|so(?!\s+(?:far|much|many|long|that)\b)|also|anyway)\s+(?=\S)|i\.\s?e\.,?\s+(?=\S)|in (?:a|an|our|this|my) (?!(?:previous|earlier|last|prior|past|other|another)\b)(?:[\w-]+ ){0,2}(?:paper|post|talk|article|study)\b[^,.]{0,120},\s*(?=(?:we|i|they)\b))+", re.I)
# What announces a point, not makes it: "So the takeaway:", "TL;DR:", "الخلاصة:", a label ("Problem:"), a number ("(2) As")
_ANNOUNCER = pattern_cache.lazy(r"^(?:(?:so|and|thus|therefore|anyway|basically)\s*,?\s+)?(?:the\s+)?(?:takeaway|tl[;.]? ?dr|bottom line|"
                                r"in short|key (?:insight|point|implication|finding|result|observation|takeaway)|short version|consider this|for context|for reference|here'?s the thing|"
                                r"to put (?:this|it) in(?:to)? perspective|الخلاصة|باختصار|البصيرة الرئيسية)(?:\s+is(?=\s+(?:that|the|a|an|this|it)\b))?\s*[:,-]?\s*|^\(?\d{1,2}\)\s+|"
                                r"^(?:problem|setup|note|update|question|summary|results?|issue|solution|context|background|motivation|"
                                r"environment|description|edit|conclusion|observation|workload|hardware|details?|benchmarks?|recommendations?|tip|answer|findings?|caveat|output|outcome|impact|verdict|status|overall|effect|"
                                r"performance|preface|introduction|abstract|overview|tl[;.]? ?dr)\s*:\s*", re.I)


def score(doc: Document, index: int, term_ids: set[str], claim) -> float:
    """How much sentence `index` carries the author's point: cue words of conclusions, requirements, recommendations
    and questions, the field's terms it argues with; glosses, labels, asides and lists of figures score low."""
    start, end = doc.sentences[index]
    sentence = doc.text[start:end]
    words = sentence.split()
    if len(words) < 4 or _GLOSS.match(sentence) or _NOT_BECAUSE.match(sentence) or gist_side.bare_reason(sentence) or gist_side.run_on_list(doc.text, start, sentence):
        return 0.0  # "Not because it throws an error.": half of a contrast, whose point is the sentence after it
    if not (evidence := gist_side.result_before_rows(doc, index, sentence)) and sentence.rstrip().endswith((":", "：")):
        # A label ("Key insight:") announces; a sentence opening a list ("Llama 4 comes in three models:") states the topic
        topic = 1.5 + 0.25 * min(len(term_ids), 2) if len(words) >= 6 else 0.0
        return max(0.0, topic - 2.0) if gist_side.about_the_page(sentence) or gist_side.pointer(sentence) else topic
    if _DATA_ROW.match(sentence) or sentence.count("|") >= 3 or sentence.count("|") >= 2 and len(_PROSE.findall(sentence)) < 6 \
            or "|" in sentence and gist_side.table_row(doc, sentence):
        return 0.0  # "Peak FP16/BF16: 989 TFLOPs", "| vLLM only | 14.68 reqs/sec | ...": a row of a sheet or table, not a point
    protected = restate.protected_spans(doc)
    machine = sum(min(b, end) - max(a, start) for a, b in protected if a < end and start < b)
    if machine > 0.5 * (end - start) and len(_outside(sentence, start, protected).split()) < MIN_PROSE_WORDS:
        return 0.0  # a config line or a command is set-up, not the author's point (a sentence quoting options is not)
    core = _without_asides(sentence)  # "Our 70B run (FSDP8 TP8 PP4 on 256 H100s) reached 41% MFU" is about its result
    if len(core.split()) < 4 or gist_side.verbless_fragment(sentence, core, doc.lang):
        return 0.0  # "Pure FP16 (the model ships BF16; we cast to FP16 for inference).": said without its aside, "Pure FP16."
    figures = [f for f in doc.figures if start <= f.start < end and f.quote in core]
    # "12*2*16" is one figure, not four: the numbers inside an expression are not counted again
    figures = [f for f in figures if not any(o is not f and o.start <= f.start and f.end <= o.end and o.end - o.start > f.end - f.start
                                             for o in figures)]
    bracketed = [(m.start() + start, m.end() + start) for m in re.finditer(r"\([^()]*\)", sentence)]
    bare = [f for f in figures if not any(a <= f.start < b for a, b in bracketed)]  # "(8% at cp=2, +1% at cp=4)" backs a claim
    if len(bare) >= 3 and len(re.sub(r"\([^()]*\)", " ", core).split()) - len(bare) * 2 < 6 \
            and not (restate.same_language(sentence, doc.lang) and reported.role(sentence, doc.lang) != "other"):
        return 0.0  # a list of figures is not a point ("I only get 18% MFU on one node of 8 GPUs" reports a problem)
    value = 3.0 * cues.cue("point", sentence) + 2.0 * cues.cue("requirement", sentence) + 1.0 * cues.cue("cause", sentence)
    value += 2.0 * (sentence.rstrip().endswith(("?", "؟")) and question_target.addressee(sentence, doc.text) is None)  # not one put to @x
    value += 1.0 * bool(claim is not None and claim.frame) + 0.5 * min(len(term_ids), 4) + gist_central.weight(doc, term_ids)
    value += 0.5 * bool(claim is not None and claim.calculations) + 1.5 * evidence  # a result its rows then measure
    value += 1.5 * bool(claim is not None and {"measurement", "comparison"} & set(claim.kinds))  # a report's result
    if _ASIDE.match(sentence) and not gist_side.also_argues(sentence, doc.lang):
        value -= 3.0
    if _checked(doc, index) is not None:
        value += 2.5  # "So each step takes 4.4 s. Am I correct?": what the author asks about, as a question weighs
    if sentence.count("(") != sentence.count(")") or _ELLIPTICAL.search(sentence):
        value -= 2.0  # a fragment cut inside a bracket; "Two 4090s with tensor parallelism can.": its verb is the one before
    value -= 3.0 * bool(cues.cue("analogy", sentence))  # an illustration, not the point
    if gist_side.machine_output(sentence):  # a program's message ("ValueError: ...", "[utils.py:868] ..."): evidence the
        value = min(value - 3.0, MIN_SCORE / 2)  # author pastes, the point only where no sentence of theirs argues
    value += gist_contrast.weight(doc, index)  # "X is not A; it is B": the view the author holds
    if _DEFINES.match(sentence) and term_ids:
        value += 1.5  # what the passage is about, the point of a description
    value -= gist_side.page_penalty(sentence)  # about the figure or the page, not about the subject
    # where to read more, or what a test ran on, says the claim is elsewhere; "TL;DR ..." is the author's own summary of it
    value += -3.0 * gist_side.pointer(sentence) + 3.0 * gist_side.summary_at(doc, index)
    value -= 2.0 * (len(words) > LONG_SENTENCE_WORDS)
    fragment = sentence[:1].islower() and doc.text[:start].rstrip().endswith((";", "؛")) and len(words) < 8
    if restate.same_language(sentence, doc.lang) and len(words) >= 6 and not fragment:  # "; too low - lots of overflow"
        value += reported.point_weight(sentence, doc.lang)  # a question, a problem, a conclusion before a side remark
        value -= gist_side.expected_only(sentence, doc.lang)  # "If ..., X should be Y": what was expected, not found
        value -= gist_side.side_weight(doc, sentence, core, bare)  # a figure alone, a list item, an unresolved "this X"
        if index == 0:
            value += reported.lead_weight(sentence, doc.lang)  # a news report's first sentence is its main fact
    return value


MIN_PROSE_WORDS = 10
_PROSE, _ELLIPTICAL = pattern_cache.lazy(r"\b[A-Za-z]{3,}\b|[\u0621-\u064A]{2,}"), pattern_cache.lazy(  # "Two 4090s can." (a modal
    r"^(?!.*\b(?:how|what|as|than|whatever|if|when|where|who|which|that)\b)[^,;:]*\b(?:can|could|will|would|should|must|cannot|"
    r"can't|won't|couldn't|wouldn't)\s*[.!]?\s*$", re.I)  # with no clause of its own: not "as fast as it can")


def _outside(sentence: str, start: int, protected: list[tuple[int, int]]) -> str:
    """The words of a sentence outside its code, commands and options."""
    kept = [ch if not any(a <= start + k < b for a, b in protected) else " " for k, ch in enumerate(sentence)]
    return "".join(kept)


def _checked(doc: Document, index: int) -> int | None:
    """The sentence right after `index` when it only asks whether `index` is right ("Am I correct?"), else None."""
    after = index + 1
    if after >= len(doc.sentences):
        return None
    sentence = doc.text[slice(*doc.sentences[after])]
    return after if restate.same_language(sentence, doc.lang) and question_target.is_check_question(sentence, doc.lang) else None


_has_figure = gist_side.has_figure


def _terms_by_sentence(doc: Document) -> list[set[str]]:
    ids: list[set[str]] = [set() for _ in doc.sentences]
    for match in doc.occurrences:
        for i, (a, b) in enumerate(doc.sentences):
            if a <= match.start < b:
                ids[i].add(match.entry["id"])
                break
    return ids


def restated(doc: Document, index: int, seen: set[str] | None = None) -> str:
    """Sentence `index` in plain words in doc.lang: the sentence itself with its terms read out when it is in that
    language (negations, conditions and who did what kept), else its polarity-checked frame or the reason it states;
    '' when nothing faithful can be said in doc.lang (a link's general wording goes under the reasons, never here)."""
    start, end = doc.sentences[index]
    sentence = doc.text[start:end]
    claim = next((c for c in doc.claims if c.start == start), None)
    if restate.same_language(sentence, doc.lang):
        text = restate.expand(doc, start, end, doc.lang, seen, reported.plain_words(doc.lang), gist_plain.forms(doc.lang))
        text = gist_side.without_title_tag(re.sub(r"^#+\s+", "", gist_plain.phrased(_without_asides(gist_side.bracketed(text) or text), doc.lang)))
        text = _URL.sub(lambda found: _link_name(found, doc.lang), text)  # a reader reads "pull request #5471", not a URL
        text = gist_side.with_subject(doc, index, gist_lift.topic_label(_ANNOUNCER.sub("", gist_lift.diagnosis(text), count=1)))  # "Operates ..." after "PP: Places ..."
        opened = _OPENER.match(text)
        if opened and opened.end() < len(text):
            text = text[opened.end()].upper() + text[opened.end() + 1:]  # "Yes I profiled" -> "I profiled"
        speaker = gist_lift.speaker(doc, text) if doc.lang == "en" else None  # "Scout: يحتوي ..." labels an item, no one speaks
        if speaker and gist_side.labelled_list(doc, index):  # "Gradients: match parameter size" in a list: a label, no speaker
            text = f"{speaker.group('speaker')} {text[speaker.end():]}" if text[speaker.end():][:1].islower() else text
        elif speaker:
            rest = text[speaker.end():]
            text = messages(doc.lang)["gist"]["speaker_says"].format(speaker=speaker.group("speaker"), claim=rest)
        text = gist_dangling.resolved(doc, index, _EMOTICON.sub("", text).strip().rstrip(_TRAILING))
        # a sentence after "The author's point:" starts with a capital ("approximately ..."), code does not
        return gist_length.trimmed(text[0].upper() + text[1:] if _PLAIN_WORD_FIRST.match(text) else text)
    if claim is not None and claim.frame and claim.plain and _frame_filled(doc, claim):
        return claim.plain.strip().rstrip(_TRAILING)
    return gist_cross.render(doc, gist_cross.read(doc, index))  # its role frame, filled from the sentence, or ''


def _frame_filled(doc: Document, claim) -> bool:
    """Whether a frame fits its sentence: a general rule ("you only need PP when DP-comms bound", no figures), or one
    filled with the sentence's own model or chip; "a large model trains without PP" for a post about one 175B run
    states a rule the sentence never made, so the summary of what it names stands instead."""
    return not claim.figures or bool(claim.models) or any(not doc.named_only_generically(c) for c in claim.chips)


_FIGURE_ASIDE = pattern_cache.lazy(r"\d\s*%|\d+(?:\.\d+)?\s*(?:x|×)\b|[٠-٩\d]+\s*٪"  # a figure, or a condition the claim holds under
                                   r"|^\(\s*(?:except|unless|only|but not|not for|as long as)\b|^\(\s*(?:باستثناء|إلا|ما لم|فقط)", re.I)


def _link_name(found, lang: str) -> str:
    """A URL as a reader names it: "pull request #5471", "issue #12", else "a linked page"."""
    words = messages(lang)["gist"]["links"]
    kind = found.group("kind")
    return words[kind].format(number=found.group("number")) if kind else words["other"]


def _without_asides(text: str) -> str:
    """The sentence without its long bracketed asides (a gloss of four words or more): a gist says the point."""
    out, depth, group = [], 0, []
    for char in text:
        if char == "(":
            depth += 1
        if depth:
            group.append(char)
        else:
            out.append(char)
        if char == ")" and depth:
            depth -= 1
            if not depth:
                inner = "".join(group)
                # "m / (m + (pp - 1) / v)": a formula's operand; "sum(active transfer time)": a function's argument
                operand = re.search(r"[-+*/×÷=^]\s*$|\w$", "".join(out))
                if operand or len(inner.split()) < 4 or _FIGURE_ASIDE.search(inner) or inner[1:-1] in gist_plain.said():
                    out.append(inner)  # a short gloss, a figure ("(50% of BF16 peak)"), a term's plain meaning
                group = []
    out.append("".join(group))
    return " ".join("".join(out).replace(" ,", ",").replace(" ،", "،").split())


def _gives_reason(sentence: str, index: int, point: int, ids: list[set[str]]) -> bool:
    """Whether a sentence gives the reason for the point: a cause word, next to the point or on its subject.

    A "because" three paragraphs away explains something else (the seed's peak memory is not why TPUs need no PP).
    """
    return bool(_REASON.search(sentence)) and index != point and (abs(index - point) <= 1 or bool(ids[index] & ids[point]))


def gist(doc: Document, links: list[dict]) -> list[dict]:
    """One to three gist sentences, [{"text", "from": [sentence indexes]}]: the author's point first.

    A sentence that links two of the field's ideas (`links`, from reasons.find) argues, so it weighs a little more.
    """
    ids = _terms_by_sentence(doc)
    linked = {i for item in links for i in item["from"]}
    claims_at = {c.start: c for c in doc.claims}
    if gist_cross.in_answer_language(doc) and (listing := gist_list.listed(doc)):
        return listing  # a lead line and the items it introduces: the list is the point, no one item of it
    if not gist_cross.in_answer_language(doc):  # written in the other language: the gist is read, not quoted
        return gist_cross.gist(doc, [score(doc, i, ids[i], claims_at.get(a)) + 0.5 * (i in linked) for i, (a, _) in enumerate(doc.sentences)])
    scored = []
    for i, (start, _) in enumerate(doc.sentences):
        value = score(doc, i, ids[i], claims_at.get(start)) + 0.5 * (i in linked)
        value = min(value, MIN_SCORE / 2) if gist_side.blockquoted(doc, i) else value  # a quoted result is the premise
        if value >= MIN_SCORE:
            scored.append((value, i))
    if not scored:  # nothing argues strongly: the sentence that argues most, if any does
        best = max(((score(doc, i, ids[i], claims_at.get(a)) - 99 * gist_side.blockquoted(doc, i), i) for i, (a, _) in enumerate(doc.sentences)), default=(0.0, 0))
        scored = [best] if best[0] >= MIN_SCORE / 6 else []  # a title ("Adding Tokens/s/device to the log") will do
    scored = gist_select.ranked(doc, scored)  # the hand score and the features fitted on people's gists
    scored = sorted(scored, key=lambda item: gist_side.label_line(doc, item[1]))  # stable: a claim with a verb before a label
    chosen: list[tuple[int, str]] = []
    seen_words: list[set[str]] = []
    frames: list[tuple[str, frozenset]] = []
    # A sentence said in the answer's language comes before a quote in the other one; quotes only fill in.
    in_language = [(v, i) for v, i in scored if restate.same_language(doc.text[slice(*doc.sentences[i])], doc.lang)
                   or (claims_at.get(doc.sentences[i][0]) is not None and claims_at[doc.sentences[i][0]].frame
                       and _frame_filled(doc, claims_at[doc.sentences[i][0]]))]
    quoted = [(v, i) for v, i in scored if (v, i) not in in_language]
    own = [i for _, i in in_language if restate.same_language(doc.text[slice(*doc.sentences[i])], doc.lang) and restated(doc, i)]
    if own and own[0] == in_language[0][1]:  # a point that dangles ("it runs slower") gives way to one that stands
        values = {i: v for v, i in scored}
        values = {i: score(doc, i, ids[i], claims_at.get(a)) if i not in values else values[i] for i, (a, _) in enumerate(doc.sentences)}
        return gist_dangling.standing(own[:3], lambda i: gist_dangling.resolved(doc, i, doc.text[slice(*doc.sentences[i])]), doc.lang,
                                      lambda i: _named_once(_reported(doc, i, ids, values)))
    for _, i in in_language + (quoted if not in_language else []):
        if chosen and not in_language:
            break  # one summary of a sentence in the other language, not a chain of them
        text = restated(doc, i)
        words = set(text.lower().split())
        if not text or any(len(words & other) > 0.75 * len(words | other) for other in seen_words):
            continue  # said already (a frame two sentences share, a repeated point)
        claim = claims_at.get(doc.sentences[i][0])
        frame = claim.frame if claim is not None and not restate.same_language(claim.quote, doc.lang) else None
        chips = frozenset(c["id"] for c in claim.chips) if claim is not None else frozenset()
        if frame and any(other in CONTRADICTING.get(frame, ()) or frame in CONTRADICTING.get(other, ())
                         for other, other_chips in frames if other_chips == chips):
            continue  # two frames that contradict each other for the same hardware: the better-placed one stays
        if chosen:
            sentence = doc.text[slice(*doc.sentences[i])]
            pair = len(chosen[0][1].split()) + len(text.split())
            # on the same subject: shared terms, or another point made next to it (not one paragraphs away)
            shares = bool(ids[i] & ids[chosen[0][0]]) or (cues.cue("point", sentence) and abs(i - chosen[0][0]) <= 2)
            if gist_turns.other_turn(doc, i, chosen[0][0]) or not _gives_reason(sentence, i, chosen[0][0], ids) and (pair > SHORT_PAIR_WORDS or not shares):
                continue  # neither the reason nor a short sentence on the same subject: the claims list has it
        if frame:
            frames.append((frame, chips))
        chosen.append((i, text))
        seen_words.append(words)
        if len(chosen) >= MAX_SENTENCES:
            break
    if not chosen:
        return []
    first, rest = chosen[0], sorted(chosen[1:])
    m = messages(doc.lang)["gist"]
    out = []
    seen: set[str] = set()  # each term expanded once in the whole gist, where it first appears
    reason_given = False
    for number, (i, _) in enumerate([first, *rest]):
        text = restated(doc, i, seen)
        sentence = doc.text[slice(*doc.sentences[i])]
        if number == 0:
            key = "question_first" if sentence.rstrip().endswith(("?", "؟")) else "claim_first"
        else:
            key = "reason" if _gives_reason(sentence, i, first[0], ids) and not reason_given else "claim_next"
            reason_given = reason_given or key == "reason"
        if not restate.same_language(sentence, doc.lang) and gist_cross.is_frame(text, doc.lang):
            out.append({"text": text, "from": [i]})  # the summary names itself as the author's sentence
            continue
        out.append({"text": m[key].format(claim=text, reason=text).replace("….", "…"), "from": [i]})
    return _named_once(out)


_BRACKETED_NAME = pattern_cache.lazy(r" \(([A-Z][\w-]{1,15})\)")


def _named_once(sentences: list[dict]) -> list[dict]:
    """An acronym is given in brackets once in the whole gist: a frame's own "(PP)" after the first is dropped."""
    named: set[str] = set()

    def keep_first(match):
        if match.group(1) in named:
            return ""
        named.add(match.group(1))
        return match.group(0)

    return [{**item, "text": _BRACKETED_NAME.sub(keep_first, item["text"])} for item in sentences]


CAPTION_WORDS = 10  # a line ending in a colon shorter than this introduces rows or a table: it says nothing itself
MAX_REPORTED_WORDS = 55  # the point, its evidence and its reason in about 45 words: a gist is read in one breath


def _reported(doc: Document, point: int, ids: list[set[str]], values: dict[int, float]) -> list[dict]:
    """The point in the answer's language in reported speech ("The author reports that ..."), with the sentence that
    gives its reason or evidence (data/gist_roles.json: a cause, the expectation it contradicts, a measurement),
    near it or on its subject; each gist sentence names the one it restates."""
    lang = doc.lang
    sentence_of = lambda i: doc.text[slice(*doc.sentences[i])]  # noqa: E731
    point_sentence = sentence_of(point)
    candidates = []
    for j in range(len(doc.sentences)):
        sentence = sentence_of(j)
        if j == point or gist_turns.other_turn(doc, j, point) or values.get(j, 0.0) <= 0.0 and not (j == point + 1 and "cause" in reported.roles(sentence, lang)) \
                or not restate.same_language(sentence, lang) or _quoted(doc, j) \
                or _ELLIPTICAL.search(sentence):  # nor does "Two 4090s with tensor parallelism can." alone
            continue  # a caption, a spec row, a config line, a gloss, or someone else's quoted words give no reason
        if sentence.rstrip().endswith((":", "：")) and len(sentence.split()) < CAPTION_WORDS:
            continue  # "Averaged over the measured steady-state steps:": a caption over rows, neither reason nor evidence
        if _EXAMPLE.match(sentence) or gist_side.pointer(sentence) or gist_side.formula(sentence) or person.describes_option(sentence) \
                or (gist_side.about_the_page(sentence) and not _has_figure(doc, j)) or gist_side.no_evidence(sentence, lang) \
                or gist_side.machine_output(sentence):  # "[E ProcessGroupNCCL.cpp:481] ...": a log line is no companion
            continue  # "For example, ...", a caption, a pointer to other reading, a fragment: neither reason nor evidence
        if abs(j - point) > 2 and not (ids[j] & ids[point]) and reported.role(sentence, lang) != "proposal" or j != point + 1 and gist_side.reason_of_before(sentence):
            continue  # a "because" paragraphs away, or "The reason is ..." after another sentence, explains something else
        if j != point + 1 and (_BARE_ANAPHOR.match(sentence.strip()) or _CONSEQUENCE.match(sentence) or _DOES_TO_THIS.search(sentence)
                               or _POSSESSIVE_BACK.match(sentence.strip()) or _POINTS_BACK_AR.match(sentence.strip())
                               or (reported.reads_back(_OPENER.sub("", sentence.strip())) and reported.role(sentence, lang) != "conclusion")
                               or gist_dangling.dangles(sentence, lang)):
            continue  # "This creates ...", "So its all-reduces cross PCIe", "That's the failure mode ...": each points back
        claim = next((c for c in doc.claims if c.start == doc.sentences[j][0]), None)
        measured = claim is not None and bool({"measurement", "comparison"} & set(claim.kinds))
        rank = reported.companion_rank(point_sentence, sentence, lang, measured)
        if rank is None and lang == "en" and gist_lift.SPEAKER.match(point_sentence) and gist_lift.SPEAKER.match(sentence) and abs(j - point) <= 1:
            rank = 9  # in a conversation, the next speaker's answer on the same subject is the other side of the point
        if rank is not None:
            candidates.append((rank, abs(j - point), j))
    if gist_contrast.joined(doc, point) is not None:  # "X is not Y; it is Z": one claim, "X is not Y but Z"
        candidates = [c for c in candidates if c[2] != point + 1]
    asked_about = gist_side.question_antecedent(doc, point)  # "Could this be the cause?" after "I suspect X"
    companion = asked_about if asked_about is not None else min(candidates)[2] if candidates else None
    reason = None  # the reason the antecedent displaces: still said after them when it is a cause
    before = gist_side.before_list(doc, point)  # "This forces ..." after a list of items points back past the list
    if before >= 0 and (reported.reads_back(point_sentence) or gist_dangling.joins_before(point_sentence, sentence_of(before), lang)) \
            and values.get(before, 0.0) > 0.0 and restate.same_language(sentence_of(before), lang) and not gist_side.machine_output(sentence_of(before)) \
            and not (gist_side.about_the_page(sentence_of(before)) and not _has_figure(doc, before)):
        if candidates and min(candidates)[0] == 0 and "cause" in reported.roles(sentence_of(companion), lang):
            reason = companion
        companion = before  # "That is much slower than expected" needs the sentence it points back to
    named = None if reported.reads_back(point_sentence) or asked_about is not None else gist_side.referent(doc, point, values)
    if named is not None:  # "this hidden cost", "fixes both": the sentence naming it comes first; a cause still follows
        reason, companion = companion if candidates and min(candidates)[0] == 0 and companion != named else None, named
    back = reported.reads_back(point_sentence) or companion == named or gist_dangling.points_inside(point_sentence, lang)  # "this X"
    companion = None if companion is not None and (gist_side.other_speaker(sentence_of(companion)) or gist_turns.other_turn(doc, companion, point)) else companion
    order = [point] if companion is None else [companion, point] if companion < point and back else [point, companion]
    who = reported.speaker([sentence_of(i) for i in range(len(doc.sentences)) if restate.same_language(sentence_of(i), lang)], lang)
    framed = _framed(doc, point, values, who)  # a problem or a change built from its parts, when the text fills them
    if framed is not None:
        return _framed_gist(doc, framed, values, ids, who, point)
    listed = _listed(doc, order, point)  # two sentences giving the same labels' values: one list of changes
    if listed is not None:
        order = [i for i in order if i == point or i not in listed[0]]
    seen: set[str] = set()  # each term expanded once in the whole gist, where it first appears
    texts = []
    for number, i in enumerate(order):
        lead = i - 1 if number == 0 and i > 0 and i - 1 not in order and sentence_of(i - 1).rstrip().endswith(":") \
            and len(sentence_of(i - 1).split()) >= 4 \
            and restate.same_language(sentence_of(i - 1), lang) and not (reported.has_verb(sentence_of(i)) and not gist_side.bulleted(doc, i)) \
            and not sentence_of(i).lstrip().startswith("#") else None  # "# Megatron FSDP ...": a comment, not the list
        if lead is None and i > 0 and i - 1 not in order and _ELLIPTICAL.search(sentence_of(i)) \
                and restate.same_language(sentence_of(i - 1), lang):  # "One 4090 cannot run it. Two 4090s can.": one claim
            lead = i - 1
            clause = restated(doc, lead, seen).rstrip(".: ") + "; " + gist_side.lower_start(restated(doc, i, seen))
        elif lead is not None:  # "The training took 54 days, suggesting:" + "- effective MFU near 50%" is one statement
            clause = restated(doc, lead, seen).rstrip(": ") + (": " if gist_side.bulleted(doc, i) and reported.has_verb(sentence_of(i)) else " ") + gist_side.lower_start(restated(doc, i, seen))
        else:
            clause = gist_labels.under_label(doc, i, restated(doc, i, seen))  # "With nn.scan = True:" is its case
        corrected = gist_contrast.joined(doc, i)  # the point's, or a companion's: "This is not A; it is B" is one claim
        if corrected is not None:
            clause = corrected
        # the core only: a comparison worked out beside it ("(10 percentage points more)") was a wrong statement each
        # time the text's base or direction was misread, and the claims below work it out with its working shown
        clause = synthesis.compressed(clause, lang)
        if not clause or number and (headings.is_heading(sentence_of(i)) or gist_side.list_item(sentence_of(i))
                                     or lang == "en" and not reported.has_verb(sentence_of(i))):
            continue  # a heading or a list item ("no torch.compile") after the point: a label, neither reason nor evidence
        sources = [lead, i] if lead is not None else [i] + ([i + 1] if corrected is not None else [])
        if lang == "en" and gist_lift.SPEAKER.match(sentence_of(i)):
            texts.append((sources, clause))  # "Alice says ...": already said as someone's words
        elif number == 0 and _checked(doc, i) is not None:  # "... Am I correct?": the author asks whether it holds
            texts.append((sources + [_checked(doc, i)], reported.confirms(clause, lang, who)))
        elif number == 0:
            texts.append((sources, reported.point(clause, sentence_of(sources[0]), lang, who, doc.text)))
        else:
            texts.append((sources, reported.companion(clause, sentence_of(i), lang, who, doc.text)))
    if listed is not None:
        changed = gist_frames.listed_change(doc, point, listed[1])  # "This PR updates X, raising BF16 from ... to ..."
        if changed is not None and texts and texts[0][0] == [point]:
            texts[0] = ([point, *listed[0]], changed)
        else:
            texts.append(listed)
    follow = reason if reason is not None and reason not in order else _follow_on(doc, order, values)
    if follow is not None:  # "I profiled it to see what was slow." + "It seems to be the all-reduce in MoE layers."
        clause = synthesis.compressed(gist_contrast.joined(doc, follow) or restated(doc, follow, seen), lang)
        host = next((k for k, (sources, _) in enumerate(texts) if follow - 1 in sources), None)  # the sentence it follows
        if follow == max(order) + 1 and host is not None and reported.role(sentence_of(follow), lang) == "other" and lang != "ar":
            sources, last = texts[host]  # what the sentence before looked for, and what it found: one sentence
            texts[host] = (sources + [follow], f"{last.rstrip(_TRAILING)}: {reported.third_person(clause[0].lower() + clause[1:], lang)}")
        else:
            texts.append(([follow], reported.companion(clause, sentence_of(follow), lang, who, doc.text)))
    asked = _question(doc, order, values, ids)
    if asked is not None:  # a problem or a result, and what the author asks about it: "... They ask what would be ..."
        clause = synthesis.compressed(restated(doc, asked, seen), lang)
        texts.append(([asked], reported.companion(clause, sentence_of(asked), lang, who, doc.text)))
    asked_first = reported.role(point_sentence, lang) == "question"
    if asked_first:
        texts = _with_rows(doc, texts, who)  # the figures asked about, when the text gives them as rows under headings
    texts = _one_sentence(texts, who, lang, asked_first)  # the point with its reason or its question, in one sentence
    kept = gist_length.fitted(texts, lang, who, MAX_REPORTED_WORDS)
    if not any(point in sources for (sources, _), _ in zip(texts, kept)) and values.get(point, 0.0) > max(values.get(i, 0.0) for i in texts[0][0]):
        clause = synthesis.compressed(gist_contrast.joined(doc, point) or restated(doc, point), lang)
        texts = [([point], reported.point(clause, point_sentence, lang, who, doc.text))] + [t for t in texts if min(t[0]) > point]
        kept = gist_length.fitted(texts, lang, who, MAX_REPORTED_WORDS)  # what it points back to argues less: the point alone
    return [{"text": _ended(text), "from": sources} for (sources, _), text in zip(texts, kept)]


def _with_rows(doc: Document, texts: list[tuple[list[int], str]], who: str) -> list[tuple[list[int], str]]:
    """A question's gist with the rows it asks about read as one comparison (gist_frames.compared_rows) right after
    it, in place of a companion that restates one of those rows alone."""
    if doc.lang != "en" or not texts:
        return texts
    words = messages(doc.lang)["gist_reported"]
    form = 0 if who == "text" else 1
    rows = gist_frames.compared_rows(doc)
    if rows is not None:
        companion = f"{words['pronouns'][who].capitalize()} {words['companion']['result'][form]} {rows[1]}"
    else:  # a few rows with figures ("Step time: 2.4 s") are the situation, unless a sentence already gives one
        rows = gist_frames.given_rows(doc)
        if rows is None or any(not set(t[0]) & set(rows[0]) for t in texts[1:]):
            return texts
        companion = f"{words['pronouns'][who].capitalize()} {words['rows_given'][form]} {rows[1]}"
    sources = rows[0]
    return [texts[0], (sources, companion), *[t for t in texts[1:] if not set(t[0]) & set(sources)]]


_ASKS_OF_IT = pattern_cache.lazy(r"^\s*(?:does|do|did|is|are|was|can|could|would|will|should)\s+(?:it|this|that|they|these|those)\b", re.I)
_EXAMPLE = pattern_cache.lazy(r"^\s*(?:for (?:example|instance)|e\.g\.|such as|as an example|مثلا|مثلًا|على سبيل المثال)\b", re.I)
MAX_SENTENCE_WORDS = 35  # one gist sentence, the point with its reason: longer reads as a copy of the passage
MAX_ASKED_WORDS = 45  # a question with the situation it asks about (its figures) is one sentence up to this


# «يشير هذا إلى طموح الشركة ...»: its "this" is the sentence before it, not a point paragraphs away (round 42)
_POINTS_BACK_AR = pattern_cache.lazy(r"^[وف]?(?:\S+\s+)?(?:هذا|هذه|ذلك|تلك)(?![\u0621-\u064A])")
_POINTS_BACK = pattern_cache.lazy(r"\b(?:this|that|these|those|it)\b(?!\s+(?:the|a|an)\b)", re.I)
_REPORTING_HEAD = pattern_cache.lazy(r"^(?:the (?:authors?|text)|they|it)\s+\w+(?:\s+(?:that|if|whether|why|how|what))?\s+", re.I)


def _ties(anaphoric: tuple[list[int], str], other: tuple[list[int], str]) -> bool:
    """Whether a gist sentence opening on "this"/"it" ("asks if this is how you run it") may be joined to `other`:
    only when `other` is the sentence right before it, the one its "this" points back to."""
    opening = " ".join(_REPORTING_HEAD.sub("", anaphoric[1], count=1).split()[:3])
    if not _POINTS_BACK.search(opening):
        return True
    # a sentence with no input sentences (a frame) has nothing for "this" to point back to
    return bool(other[0] and anaphoric[0]) and max(other[0]) + 1 == min(anaphoric[0])


def _one_sentence(texts: list[tuple[list[int], str]], who: str, lang: str, asked: bool = False) -> list[tuple[list[int], str]]:
    """Each gist sentence joined with the one after it ("..., and asks why ...", "..., and explains that ..."), when
    one sentence still fits MAX_SENTENCE_WORDS (MAX_ASKED_WORDS for the question and its situation); two at most in
    one, and never over the one between (the text's order stays: a question asked after an update is not tied to
    the result before it); a sentence opening on "this" only after the sentence it points back to."""
    out = texts[:1]
    joins = [False]
    for item in texts[1:]:
        last = out[-1]
        limit = MAX_ASKED_WORDS if asked and len(out) == 1 else MAX_SENTENCE_WORDS
        both = None if joins[-1] or last[1].endswith("…") or not _ties(last, item) or not _ties(item, last) \
            else reported.joined(last[1], item[1], who, lang)
        if both is not None and len(both.split()) - gist_length.gloss_words(both) <= limit:
            out[-1] = (last[0] + [i for i in item[0] if i not in last[0]], both)
            joins[-1] = True
        else:
            out.append(item)
            joins.append(False)
    return out


# "This creates ...", "It causes ...": a bare pronoun and its verb, whose referent is the sentence just before it
_POSSESSIVE_BACK = pattern_cache.lazy(r"^(?:its|their)\s", re.I)  # "Its more aggressive 2-bit implementation ...": whose is said before
_BARE_ANAPHOR = pattern_cache.lazy(r"^(?:this|that|it)\s+(?:\w+ly\s+)?[a-z]+(?:es|s|ed)\b(?<!\bis)(?<!\bwas)(?<!\bhas)"
                                   r"|^(?:this|these)\s+[a-z]+\s+(?:is|are|was|were|has|have)\b", re.I)  # "This stage is ...": its stage is the one before
_DOES_TO_THIS = pattern_cache.lazy(r"\b(?:mitigat|solv|fix|address|avoid|prevent|eliminat|tackl|work(?:s|ed)? around)\w*\s+(?:this|that|it)\b", re.I)  # "KV caching mitigates this by ...": "this" stands in the sentence before
_CONSEQUENCE = pattern_cache.lazy(r"^\s*(?:so|therefore|thus|hence|as a (?:result|consequence)|consequently|for this reason|because of (?:this|that)|in turn)\b", re.I)  # follows the sentence before it
FRAME_REACH = 3  # a frame's parts come from the point and the sentences this near it


def _framed(doc: Document, point: int, values: dict[int, float], who: str) -> tuple[list[int], str] | None:
    """A problem frame (two compared figures under named conditions, the cause, the expectation) or a change frame
    (a quantity from one figure to another) from the point and its neighbours in the answer's language."""
    near = [j for j in range(max(0, point - FRAME_REACH), min(len(doc.sentences), point + FRAME_REACH + 1))
            if (j == point or values.get(j, 0.0) > 0.0) and not _quoted(doc, j)
            and restate.same_language(doc.text[slice(*doc.sentences[j])], doc.lang)]
    kind = reported.role(doc.text[slice(*doc.sentences[point])], doc.lang)
    changed = gist_frames.change(doc, near) if kind not in ("problem", "question", "expectation", "conclusion") else None
    for framed in (gist_frames.problem(doc, near, who), changed):  # a change frame never replaces a problem or a question
        if framed is not None and point in framed[0]:
            return framed  # built on the point itself, never a side comparison in place of the point
    return None


def _framed_gist(doc: Document, framed: tuple[list[int], str], values: dict[int, float], ids: list[set[str]], who: str,
                 point: int) -> list[dict]:
    """The frame first, then the question the author asks about it, and a check on the point before both."""
    sources, text = framed
    texts = [(sources, text)]
    asked = _question(doc, sources, values, ids)
    if asked is not None:
        clause = synthesis.compressed(restated(doc, asked, set()), doc.lang)
        texts.append(([asked], reported.companion(clause, doc.text[slice(*doc.sentences[asked])], doc.lang, who, doc.text)))
    texts = _one_sentence(texts, who, doc.lang)
    kept = gist_length.fit([t for _, t in texts], MAX_REPORTED_WORDS + 15 + sum(gist_length.gloss_words(t) for _, t in texts))
    # what the author says, only: a check's verdict is the claims' to give, with its working (said once)
    return [{"text": _ended(t), "from": s} for (s, _), t in zip(texts, kept)]


_FOLLOW_ON = pattern_cache.lazy(r"^(?:it|this|that)\s+(?:seems|looks|appears|means|must be|is|was|'s)\b|^(?:هذا|ذلك)\s+(?:يعني|يبدو)", re.I)
FOLLOW_ON_WORDS = 14  # a short sentence right after, pointing back: the answer or the diagnosis the one before leads to


def _follow_on(doc: Document, order: list[int], values: dict[int, float]) -> int | None:
    """The short sentence right after the gist's last one that points back at it and says what it found or means
    ("It seems to be the all-reduce in MoE layers", "This means the forward phase is bound by gathering")."""
    after = max(order) + 1
    if after >= len(doc.sentences) or values.get(after, 0.0) <= 0.0 or _quoted(doc, after):
        return None
    sentence = doc.text[slice(*doc.sentences[after])]
    if len(sentence.split()) > FOLLOW_ON_WORDS or not restate.same_language(sentence, doc.lang) \
            or reported.role(sentence, doc.lang) == "question" or not _FOLLOW_ON.match(sentence.strip()):
        return None
    return after


def _listed(doc: Document, order: list[int], point: int) -> tuple[list[int], str] | None:
    """([first, second], text) when a gist sentence and its neighbour list the same labels' values
    (synthesis.parallel_lists), else None."""
    for first in sorted({k for i in order for k in (i - 1, i)} | {point + 1}):
        if 0 <= first and first + 1 < len(doc.sentences) and abs(first - point) <= 2:
            text = synthesis.parallel_lists(doc, first, first + 1)
            if text:
                return [first, first + 1], text
    return None


def _question(doc: Document, order: list[int], values: dict[int, float], ids: list[set[str]]) -> int | None:
    """The question the author asks about the point, when the gist has none yet: the best-weighted question sentence in
    the answer's language on the point's subject or near it (a post reports a problem, then asks why)."""
    sentence_of = lambda i: doc.text[slice(*doc.sentences[i])]  # noqa: E731
    if any(reported.role(sentence_of(i), doc.lang) == "question" for i in order):
        return None
    asked = [(values.get(j, 0.0), j) for j in range(len(doc.sentences))
             if j not in order and values.get(j, 0.0) > 0.0 and reported.role(sentence_of(j), doc.lang) == "question" and not gist_turns.other_turn(doc, j, order[0])
             and restate.same_language(sentence_of(j), doc.lang) and not _quoted(doc, j) and question_target.addressee(sentence_of(j), doc.text) is None
             and (doc.lang != "en" or reported.has_verb(sentence_of(j).rstrip("?")))  # "But the actual computation?": rhetorical
             and (abs(j - order[0]) <= 3 or ids[j] & ids[order[0]] or j == len(doc.sentences) - 1)
             and not (_ASKS_OF_IT.match(sentence_of(j)) and j - 1 not in order)]  # "Does it set ...?": "it" is the sentence before
    return max(asked)[1] if asked else None


def _ended(text: str) -> str:
    """A gist sentence without its trailing stop (a quoted question keeps its mark), "adds that that X" as "that this X"."""
    text = re.sub(r"\b(says|adds|reports|explains|notes|concludes|advises|say|add|report|explain|note|conclude|advise) that that\b", r"\1 that this", text)
    return text.rstrip(_TRAILING).replace("….", "…") + (text.rstrip()[-1] if text.rstrip().endswith(("?", "؟")) else "")


def _quoted(doc: Document, index: int) -> bool:
    """Whether sentence `index` lies inside quotation marks: someone else's words, not the author's reason."""
    start = doc.sentences[index][0]
    return doc.text[start:start + 1] in "\"“«" or doc.text[:start].count('"') % 2 == 1 or doc.text[:start].count("“") > doc.text[:start].count("”") \
        or gist_side.blockquoted(doc, index)  # "> Overall this speeds up training ...": a quoted result
