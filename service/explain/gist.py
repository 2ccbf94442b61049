"""The gist: the author's point restated from the author's own sentences, each gist sentence naming the ones it restates."""

import re

from service.explain import claims as cues
from service.explain import pattern_cache, restate
from service.explain.document import Document
from service.i18n.messages import messages

MAX_SENTENCES = 3
MIN_SCORE = 3.0  # below this a sentence argues nothing: a label, a gloss, an aside
LONG_SENTENCE_WORDS = 60

# "1) data parallelism (DP): ...", "•TPU (Tensor Processing Unit): ..." gloss a term; they are not the author's point.
_GLOSS = pattern_cache.lazy(r"^\s*(?:\d+[).]\s*)?[^:.!?؟]{1,60}\([^()]{1,60}\)\s*:")
# An aside announces itself: "Meanwhile ...", "BTW ...", "وفي الأثناء".
_ASIDE = pattern_cache.lazy(r"^\s*(?:meanwhile|btw|by the way|also|separately|side note|unrelated|p\.?s\.?)\b|^\s*(?:في الأثناء|بالمناسبة)", re.I)
_SPEAKER = pattern_cache.lazy(r"^(?P<speaker>[A-Z][\w.'-]+(?: [A-Z][\w.'-]+){0,2})\s*:\s+(?=\S)")
_TRAILING = ".。!?؟:;؛،, "


def score(doc: Document, index: int, term_ids: set[str], claim) -> float:
    """How much sentence `index` carries the author's point: cue words of conclusions, requirements, recommendations
    and questions, the field's terms it argues with; glosses, labels, asides and lists of figures score low."""
    start, end = doc.sentences[index]
    sentence = doc.text[start:end]
    words = sentence.split()
    if len(words) < 4 or sentence.rstrip().endswith(":") or _GLOSS.match(sentence):
        return 0.0
    figures = [f for f in doc.figures if start <= f.start < end]
    if len(figures) >= 3 and len(words) - len(figures) * 2 < 6:
        return 0.0  # a list of figures is not a point
    value = 3.0 * cues.cue("point", sentence) + 2.0 * cues.cue("requirement", sentence) + 1.0 * cues.cue("cause", sentence)
    value += 2.0 * sentence.rstrip().endswith(("?", "؟"))
    value += 1.0 * bool(claim is not None and claim.frame) + 0.5 * min(len(term_ids), 4)
    value += 0.5 * bool(claim is not None and claim.calculations)
    if _ASIDE.match(sentence):
        value -= 1.5
    if len(words) > LONG_SENTENCE_WORDS:
        value -= 2.0
    return value


def _terms_by_sentence(doc: Document) -> list[set[str]]:
    ids: list[set[str]] = [set() for _ in doc.sentences]
    for match in doc.occurrences:
        for i, (a, b) in enumerate(doc.sentences):
            if a <= match.start < b:
                ids[i].add(match.entry["id"])
                break
    return ids


def restated(doc: Document, index: int, links: list[dict], seen: set[str] | None = None) -> str:
    """Sentence `index` in plain words in doc.lang: the sentence itself with its terms read out when it is in that
    language (negations, conditions and who did what kept), else its polarity-checked frame or the reason it
    states; '' when nothing faithful can be said in doc.lang."""
    start, end = doc.sentences[index]
    sentence = doc.text[start:end]
    claim = next((c for c in doc.claims if c.start == start), None)
    if restate.same_language(sentence, doc.lang):
        text = restate.expand(doc, start, end, doc.lang, seen)
        text = _corrected(doc, text)
        speaker = _SPEAKER.match(text)
        if speaker:
            rest = text[speaker.end():]
            text = messages(doc.lang)["gist"]["speaker_says"].format(speaker=speaker.group("speaker"), claim=rest)
        return text.strip().rstrip(_TRAILING)
    if claim is not None and claim.frame and claim.plain:
        return claim.plain.strip().rstrip(_TRAILING)
    link = next((item for item in links if index in item["from"]), None)
    return link["text"].strip().rstrip(_TRAILING) if link else ""


def _corrected(doc: Document, text: str) -> str:
    """The restatement with the text's known mistranslations replaced by the term meant ("منتقدا في اتصالات DP")."""
    for correction in doc.corrections:
        phrase = correction.get("as") or ""
        entry = correction.get("entry") or {}
        own = (entry.get(doc.lang) or {}).get("term") if doc.lang != "en" else entry.get("expansion")
        if phrase and own and "..." not in phrase and "…" not in phrase and phrase in text:
            text = text.replace(phrase, own)
    return text


def gist(doc: Document, links: list[dict]) -> list[dict]:
    """One to three gist sentences, [{"text", "from": [sentence indexes]}]: the author's point first."""
    ids = _terms_by_sentence(doc)
    claims_at = {c.start: c for c in doc.claims}
    scored = []
    for i, (start, _) in enumerate(doc.sentences):
        value = score(doc, i, ids[i], claims_at.get(start))
        if value >= MIN_SCORE:
            scored.append((value, i))
    scored.sort(key=lambda item: (-item[0], item[1]))
    chosen: list[tuple[int, str]] = []
    seen_words: list[set[str]] = []
    for _, i in scored:
        text = restated(doc, i, links)
        words = set(text.lower().split())
        if not text or any(len(words & other) > 0.6 * min(len(words), len(other)) for other in seen_words):
            continue  # said already (a frame two sentences share, a repeated point)
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
    for number, (i, _) in enumerate([first, *rest]):
        text = restated(doc, i, links, seen)
        sentence = doc.text[slice(*doc.sentences[i])]
        if number == 0:
            key = "question_first" if sentence.rstrip().endswith(("?", "؟")) else "claim_first"
        else:
            key = "reason" if cues.cue("cause", sentence) else "claim_next"
        out.append({"text": m[key].format(claim=text, reason=text), "from": [i]})
    return out
