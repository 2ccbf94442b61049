"""Count what is wrong with the form of the Arabic answers in a judging pack (bench/judge_pack.py's folder).

Run: `.venv/bin/python bench/arabic_form.py /tmp/<you>-pack`. Per kind (rejected variants, two words for one
thing in one answer, common English words left, numbers not agreeing with their nouns, Latin punctuation between
Arabic words, doubled words, verbs not agreeing with their subjects) it prints how many answers have one and how many there are in all, plus the
lowercase Latin words left in Arabic prose outside quotes, code and brackets (names and options mostly; read them).
The passage and the corrections section are not counted: they are the source's words.
"""

from __future__ import annotations

import collections
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.i18n import arabic_style  # noqa: E402
from service.i18n.messages import messages  # noqa: E402

_LATIN_WORD = re.compile(r"(?<![A-Za-z0-9_./\-])[a-z][a-z]{2,}(?:-[a-z]+)*(?![A-Za-z0-9_\-])")


def answer_text(path: Path) -> str:
    """The answer and its warnings, without the passage."""
    text = path.read_text(encoding="utf-8")
    return text.split("\n## Answer\n", 1)[-1]


def main(argv: list[str]) -> int:
    """Print the counts for one pack folder."""
    folder = Path(argv[0])
    keep = (messages("ar")["headings"]["corrections"],)
    answers = sorted(folder.glob("P*-ar.md"))
    with_kind, totals = collections.Counter(), collections.Counter()
    latin = collections.Counter()
    for path in answers:
        text = answer_text(path)
        passage = path.read_text(encoding="utf-8").split("\n## Passage\n", 1)[-1].split("\n## Answer\n", 1)[0]
        for kind, found in arabic_style.problems(text, keep, passage).items():
            totals[kind] += len(found)
            with_kind[kind] += bool(found)
        latin.update(m.group(0) for m in _LATIN_WORD.finditer(arabic_style.prose(text, keep)))
    print(f"{len(answers)} Arabic answers in {folder}")
    for kind in ("rejected", "inconsistent", "english", "numbers", "punctuation", "doubled", "agreement"):
        print(f"{kind:>13}: {with_kind[kind]:3d} answers, {totals[kind]:4d} in all")
    print(f"lowercase Latin words in Arabic prose: {sum(latin.values())} ({len(latin)} distinct)")
    print("  " + ", ".join(f"{w} {n}" for w, n in latin.most_common(25)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
