"""Figures on the answers' terms sections in a judging pack (bench/judge_pack.py's folder): how many are a bare list of
names, how many terms an answer lists, how many words the answers have.

Run: `.venv/bin/python bench/terms_section.py /tmp/devpack-terms` (write the pack from the dev split only).
"""

import json
import re
import sys
from pathlib import Path

HEADINGS = ("## The terms", "## المصطلحات")


def generic_names() -> set[str]:
    """The bold names, in either language, of the glossary terms data/generic_terms.json marks generic."""
    root = Path(__file__).resolve().parent.parent / "data"
    ids = {i for group in json.loads((root / "generic_terms.json").read_text(encoding="utf-8"))["groups"] for i in group["ids"]}
    names = set()
    for path in (root / "glossary").glob("*.json"):
        for term in json.loads(path.read_text(encoding="utf-8"))["terms"]:
            if term["id"] in ids:
                names |= {term["term"].lower(), (term.get("ar") or {}).get("term", "").lower()}
    return names - {""}


def terms_section(answer: str) -> str | None:
    """The text under the terms heading, None when the answer has no terms section."""
    for heading in HEADINGS:
        if heading in answer:
            rest = answer.split(heading, 1)[1]
            return re.split(r"\n## ", rest, maxsplit=1)[0].strip()
    return None


GENERIC_NAMES = generic_names()


def figures(folder: Path) -> dict:
    """Per language: answers, answers with a terms section, bare-name sections, terms listed (mean), words (mean)."""
    table: dict = {}
    for path in sorted(folder.glob("P*-*.md")):
        lang = path.stem.rsplit("-", 1)[1]
        answer = path.read_text(encoding="utf-8").split("## Answer", 1)[1].split("## Warnings printed", 1)[0].split("## تنبيهات مع الإجابة", 1)[0]
        row = table.setdefault(lang, {"answers": 0, "with_terms": 0, "bare_names": 0, "terms": 0, "words": 0,
                                      "section_words": 0, "generic": 0, "generic_before_art": 0})
        row["answers"] += 1
        row["words"] += len(answer.split())
        section = terms_section(answer)
        if section is None:
            continue
        row["with_terms"] += 1
        row["section_words"] += len(section.split())
        names = [name.lower() for name in re.findall(r"\*\*(.+?)\*\*", section)]
        generic = [name in GENERIC_NAMES or name.rstrip("s") in GENERIC_NAMES for name in names]
        row["generic"] += sum(generic)
        row["generic_before_art"] += generic != sorted(generic)  # a generic word listed before a term of art
        lines = [line for line in section.splitlines() if line.startswith("- **")]
        if not lines:  # "**PP** (pipeline parallelism), **DP** (...)": names with no definition
            row["bare_names"] += 1
            row["terms"] += section.count("**") // 2
        else:
            row["terms"] += len(lines)
    return table


def main() -> None:
    folder = Path(sys.argv[1])
    print("lang answers with_terms bare_names mean_terms mean_words mean_terms_words generic_listed generic_before_art")
    for lang, row in sorted(figures(folder).items()):
        print(lang, row["answers"], row["with_terms"], row["bare_names"],
              round(row["terms"] / max(row["with_terms"], 1), 1), round(row["words"] / row["answers"], 1),
              round(row["section_words"] / max(row["with_terms"], 1), 1), row["generic"], row["generic_before_art"])


if __name__ == "__main__":
    main()
