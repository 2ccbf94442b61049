"""Which of the sentences that argue is the point: the hand score plus a small linear model over plain sentence
features (length and place) fitted on people's reference gists (data/gist_selection.json)."""

import json
from functools import cache

from calculators.resources import data_dir

from service.explain.document import Document

FEATURES = ("first", "last", "position", "length")


@cache
def _weights() -> dict[str, float]:
    """The fitted weights, in units of the hand score (bench/fit_gist_selection.py writes them)."""
    table = json.loads((data_dir() / "gist_selection.json").read_text(encoding="utf-8"))
    return {name: float(table["weights"][name]) for name in FEATURES}


def features(doc: Document, index: int) -> dict[str, float]:
    """Plain features of sentence `index`, the same in either language: its place and its length."""
    start, end = doc.sentences[index]
    sentence = doc.text[start:end]
    last = len(doc.sentences) - 1
    return {"first": float(index == 0), "last": float(index == last and last > 0),
            "position": index / last if last else 0.0,
            "length": min(len(sentence.split()), 60) / 30}  # past 60 words a sentence is a paragraph: the hand score says so


def adjustment(doc: Document, index: int, weights: dict[str, float] | None = None) -> float:
    """What the fitted features add to the hand score of sentence `index`."""
    weights = weights or _weights()
    return sum(weights[name] * value for name, value in features(doc, index).items())


def ranked(doc: Document, scored: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """Sentences that argue (hand value, index), best first: the hand value plus the fitted adjustment; the values
    themselves are kept, so thresholds and companions still read the hand score."""
    return sorted(scored, key=lambda item: (-(item[0] + adjustment(doc, item[1])), item[1]))
