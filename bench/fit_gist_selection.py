"""Fit the gist's sentence-choice features (service/explain/gist_select.py) on people's reference gists.

Run with the project's interpreter: `.venv/bin/python bench/fit_gist_selection.py [--write]`.
For every English passage of the corpus with a reference gist, the sentences the gist may take as its point (the hand
score at or above gist.MIN_SCORE) are ranked by a softmax over `scale` x hand score + the features' weighted sum; the
weights are fitted (L2-regularised) so that the sentence closest to the reference gist (content-word F1) ranks first.
It fits on one half of the corpus (dev and the even-numbered held-out rounds) and reports the other (test and the odd
rounds): how often the point is the closest sentence, and that sentence's mean F1, for the hand score alone and for
the fitted ranking. `--write` stores the weights, in hand-score units, in data/gist_selection.json.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import gist_overlap  # noqa: E402
sys.path.insert(0, str(ROOT))
from service.explain import gist, gist_select, gist_side, pipeline, reasons, restate  # noqa: E402

OUT = ROOT / "data" / "gist_selection.json"


def half(split: str) -> str:
    """'fit' for dev and the even-numbered rounds, 'held_out' for test and the odd ones (never the fresh holdout)."""
    found = re.search(r"r(\d+)$", split)
    number = int(found.group(1)) if found else (0 if split == "dev" else 1)
    return "fit" if number % 2 == 0 else "held_out"


def f1(a: set[str], b: set[str]) -> float:
    shared = len(a & b)
    return 2 * shared / (len(a) + len(b)) if shared else 0.0


def candidates(passage: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """(hand values, feature rows, F1 with the reference gist, which are questions) of the sentences that may be the
    point; None if fewer than 2."""
    doc = pipeline.analyse(passage["text"], "en")
    links = reasons.find(doc)
    ids = gist._terms_by_sentence(doc)
    claims_at = {c.start: c for c in doc.claims}
    linked = {i for item in links for i in item["from"]}
    reference = gist_overlap.content(passage["gist"])
    shared = gist_select.Passage(doc)
    rows = []
    for i, (start, end) in enumerate(doc.sentences):
        value = gist.score(doc, i, ids[i], claims_at.get(start)) + 0.5 * (i in linked)
        value = min(value, gist.MIN_SCORE / 2) if gist_side.blockquoted(doc, i) else value
        if value >= gist.MIN_SCORE and restate.same_language(doc.text[start:end], "en"):
            feats = gist_select.features(doc, i, shared)
            logged = gist_select.unlifted(doc.text[start:end])  # a log line or a counterfactual is never lifted
            rows.append((value, [0.0 if logged else feats[name] for name in gist_select.FEATURES], f1(gist_overlap.content(doc.text[start:end]), reference),
                         gist_select.asks(doc, i)))
    if len(rows) < 2 or max(r[2] for r in rows) == 0:
        return None
    return np.array([r[0] for r in rows]), np.array([r[1] for r in rows], float), np.array([r[2] for r in rows]), \
        np.array([r[3] for r in rows], bool)


def fit(data: list, scale: float, l2: float, steps: int = 2000) -> np.ndarray:
    """Weights maximising the softmax probability of the closest sentences (gradient descent, fixed step)."""
    w = np.zeros(len(gist_select.FEATURES))
    for _ in range(steps):
        grad = np.zeros_like(w)
        for hand, x, target, _ in data:
            z = scale * hand + x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            best = (target == target.max()).astype(float)
            grad += x.T @ (p - best / best.sum())
        w -= 0.5 * (grad / len(data) + 2 * l2 * w)
    return w


def evaluate(data: list, weights: np.ndarray, scale: float, band: float = 1e9) -> tuple[float, float]:
    """Share of passages whose point is the closest sentence, and the point's mean F1 (ties: the earlier sentence);
    only sentences within `band` of the best hand score are lifted by the features, and none past a question the hand
    score puts first (gist_select.ranked)."""
    hits = total = 0.0
    for hand, x, target, asks in data:
        top = int(np.argmax(hand - 1e-9 * np.arange(len(hand))))  # ties: the earlier sentence
        lifted = np.where(hand >= hand.max() - band, scale * hand + x @ weights, -np.inf) - 1e-9 * np.arange(len(hand))
        j = top if asks[top] else int(np.argmax(lifted))
        hits += target[j] == target.max()
        total += target[j]
    return hits / len(data), total / len(data)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=0.5, help="the hand score's weight in the softmax (its temperature)")
    ap.add_argument("--l2", type=float, default=0.003)
    ap.add_argument("--band", type=float, default=2.0, help="hand-score points below the best that the features may lift")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args(argv)
    corpus = json.loads((ROOT / "bench" / "corpus" / "passages.json").read_text(encoding="utf-8"))["passages"]
    halves: dict[str, list] = {"fit": [], "held_out": []}
    for p in corpus:
        if p["lang"] == "en" and p.get("gist") and p.get("split") and p["split"] != "holdout":
            row = candidates(p)
            if row is not None:
                halves[half(p["split"])].append(row)
    weights = fit(halves["fit"], args.scale, args.l2)
    zero = np.zeros_like(weights)
    report = {}
    for name, data in halves.items():
        hand, fitted = evaluate(data, zero, args.scale), evaluate(data, weights, args.scale, args.band)
        report[name] = {"passages": len(data), "hand_closest": round(hand[0], 3), "hand_f1": round(hand[1], 4),
                        "fitted_closest": round(fitted[0], 3), "fitted_f1": round(fitted[1], 4)}
        print(f"{name:9} {len(data):4d} passages: closest sentence chosen {hand[0]:.1%} -> {fitted[0]:.1%}; "
              f"the point's F1 {hand[1]:.4f} -> {fitted[1]:.4f}")
    units = {n: round(float(v) / args.scale, 3) for n, v in zip(gist_select.FEATURES, weights)}
    print("weights in hand-score units:", units)
    if args.write:
        OUT.write_text(json.dumps({
            "about": "Weights of the gist's sentence-choice features, in hand-score units (service/explain/gist_select.py).",
            "method": f"bench/fit_gist_selection.py --scale {args.scale} --l2 {args.l2} --band {args.band}: softmax over the "
                      "sentences whose hand score reaches gist.MIN_SCORE, fitted so that the sentence closest (content-word "
                      "F1) to the corpus's reference gist ranks first; fitted on dev and the even-numbered rounds only. "
                      "Only sentences within `band` of the best hand score are lifted (figures reported that way).",
            "band": args.band,
            "source": "bench/corpus/passages.json reference gists (written from each passage alone by the people who collected it)",
            "date": date.today().isoformat(), "weights": units, "figures": report}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
