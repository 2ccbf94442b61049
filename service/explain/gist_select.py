"""Which of the sentences that argue is the point: the hand score plus a small linear model over plain sentence
features (place, length, how central the sentence is to the passage, how many terms and figures it names) fitted on people's
reference gists (data/gist_selection.json)."""

import json
import re
from functools import cache

from calculators.resources import data_dir

from service.explain import claims as cues, restate
from service.explain.document import Document

# Cue words (a question, "so", "must") are left to the hand score: fitted, they turned against questions and conclusions,
# which reference gists restate in fewer of the sentence's own words than a long premise, though a reader's point is there.
FEATURES = ("first", "last", "position", "length", "central", "terms", "figures")
# Words every sentence may have: what a sentence shares with the rest of the passage is counted without them.
STOP = frozenset("""a an the and or but if of to in on at by for with from as is are was were be been being it its this that
these those they them their there then than so such not no do does did done has have had having can could would should will
may might must i we you he she our my your his her which what who whom whose why how when where while about into over
under per also only just very more most less much many some any each both all own same other up out off too via vs author
authors asks asked ask says said reports reported text post passage
في من على إلى الى عن أن إن ما لا لم هذا هذه ذلك تلك التي الذي الذين هو هي هم كان كانت مع أو ثم قد كل بين عند""".split())
# the author's own summary ("TL;DR ...", "الخلاصة ..."), or their stated aim
SUMMARY = re.compile(r"^\W*(?:tl[;.]? ?dr|bottom line|in short|in summary|to summari[sz]e|the (?:key )?takeaway(?!\s+(?:was|were|of\s+(?:the|my|our)\s+"
                     r"(?:previous|last|earlier)))|الخلاصة|باختصار)\b"  # "The takeaway was clear: ..." is an earlier post's
                     # the author's stated aim ("The purpose of this blog post is to discuss ..."): what the text is for
                     r"|^\W*(?:the|my|our)\s+(?:main\s+)?(?:purpose|goal|aim|point)\s+of\s+(?:this|my|our|the)\s+(?:blog\s+)?"
                     r"(?:post|article|paper|piece|note|write-?up|guide|essay|series|talk|work)\s+(?:is|was)\s+to\b"
                     r"|^\W*(?:الهدف|والهدف|الغرض|والغرض)\s+من\s+(?:هذا|هذه)\s", re.I)
# "array_serialization.serialization:431 | Process 0 successfully set key ...", "[utils.py:868]": a program's log line
_LOG_LINE = re.compile(r"\b[\w.]+\.\w+:\d+\b|\s\|\s")
_WORD = re.compile(r"[a-z0-9][a-z0-9.%/+-]*[a-z0-9%]|[a-z0-9]|[\u0621-\u064A]{2,}")


@cache
def _table() -> dict:
    return json.loads((data_dir() / "gist_selection.json").read_text(encoding="utf-8"))


def _weights() -> dict[str, float]:
    """The fitted weights, in units of the hand score (bench/fit_gist_selection.py writes them)."""
    return {name: float(_table()["weights"].get(name, 0.0)) for name in FEATURES}


def band() -> float:
    """How far below the best hand score a sentence may be and still be lifted by the features: a sentence the hand
    score puts well ahead (a correction the author makes, "X is not A; it is B") keeps its place."""
    return float(_table()["band"])


def unlifted(sentence: str) -> bool:
    """Whether the features may not lift a sentence: a program's log line, or one that states nothing as found ("If they
    ran in series, every step would pay ..."), whose figures and terms are no sign of the point."""
    return bool(_LOG_LINE.search(sentence)) or not cues.asserted(sentence)


def asks(doc: Document, index: int) -> bool:
    """Whether sentence `index` is a question: people's gists restate one in few of its words ("asks why ..."), so the
    features, fitted on word overlap, would pass it over for its premise; the hand score's choice of it stands."""
    return doc.text[slice(*doc.sentences[index])].rstrip().endswith(("?", "؟"))


def content_words(text: str) -> set[str]:
    """The content words of a text: lower case, stop words dropped, a plural "s" folded ("8,034" is one figure)."""
    out = set()
    for w in _WORD.findall(text.lower().replace(",", "")):
        if w in STOP or len(w) < 2 and not w.isdigit():
            continue
        out.add(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    return out


def overlap(a: set[str], b: set[str]) -> float:
    """Content-word F1 of two word sets (0 when they share none)."""
    shared = len(a & b)
    return 2 * shared / (len(a) + len(b)) if shared else 0.0


class Passage:
    """What the features compare one sentence with, computed once per passage: each sentence's content words."""

    def __init__(self, doc: Document):
        self.contents = [content_words(doc.text[a:b]) for a, b in doc.sentences]
        self.terms = [set() for _ in doc.sentences]
        # a term or a figure inside code, a path or a log line ("serialization:431 | Process 0 ...") is no sign of a point
        self.machine = restate.protected_spans(doc)
        for occurrence in doc.occurrences:
            if self.in_machine(occurrence.start):
                continue
            for i, (a, b) in enumerate(doc.sentences):
                if a <= occurrence.start < b:
                    self.terms[i].add(occurrence.entry["id"])
                    break

    def in_machine(self, at: int) -> bool:
        """Whether offset `at` lies inside code, a command, a path or a config line."""
        return any(a <= at < b for a, b in self.machine)


def features(doc: Document, index: int, passage: Passage | None = None) -> dict[str, float]:
    """Plain features of sentence `index`, the same in either language."""
    passage = passage or Passage(doc)
    start, end = doc.sentences[index]
    sentence = doc.text[start:end]
    last = len(doc.sentences) - 1
    own = passage.contents[index]
    rest = set().union(*(c for j, c in enumerate(passage.contents) if j != index)) if last else set()
    figures = sum(1 for f in doc.figures if start <= f.start < end and not passage.in_machine(f.start))
    return {"first": float(index == 0), "last": float(index == last and last > 0),
            "position": index / last if last else 0.0,
            "length": min(len(sentence.split()), 60) / 30,  # past 60 words a sentence is a paragraph: the hand score says so
            "central": overlap(own, rest),  # a sentence that shares the passage's words says what the passage is about
            "terms": min(len(passage.terms[index]), 4) / 4, "figures": min(figures, 3) / 3}


def adjustment(doc: Document, index: int, weights: dict[str, float] | None = None, passage: Passage | None = None) -> float:
    """What the fitted features add to the hand score of sentence `index`."""
    weights = weights or _weights()
    return sum(weights[name] * value for name, value in features(doc, index, passage).items())


def ranked(doc: Document, scored: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """Sentences that argue (hand value, index), best first: the hand value plus the fitted adjustment; the values
    themselves are kept, so thresholds and companions still read the hand score."""
    best = max(scored, key=lambda item: (item[0], -item[1]))[1] if scored else 0
    if len(scored) < 2 or asks(doc, best) or SUMMARY.match(doc.text[slice(*doc.sentences[best])]):
        # a question the author asks, or their own summary or stated aim ("The purpose of this post is to ..."), is their
        # point as it stands: the features, fitted on word overlap, would pass it over for a longer sentence with more terms
        return sorted(scored, key=lambda item: (-item[0], item[1]))
    passage, weights, floor = Passage(doc), _weights(), max(v for v, _ in scored) - band()
    logged = {i for _, i in scored if unlifted(doc.text[slice(*doc.sentences[i])])}  # a log line, a counterfactual: hand score
    lifted = lambda v, i: v + (0.0 if i in logged else adjustment(doc, i, weights, passage)) if v >= floor else v - 1e6  # noqa: E731
    return sorted(scored, key=lambda item: (-lifted(*item), item[1]))
