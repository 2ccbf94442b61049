"""Count debris in the offline answers: answer lines matching general patterns of pasted or garbled plain text.

Run with the project's interpreter: `.venv/bin/python bench/answer_lint.py [--split dev test] [--examples 4]`.
Explains every passage of the development pool (bench/corpus/passages.json, splits dev and test by default) in
English and Arabic with the offline backend (bench/corpus.py's Explainer) and counts, per class, the answer lines
(the explanation and the warnings printed under it) that match a class's pattern, printing a few examples of each.
The classes are kinds of broken text, never one passage's words (issue 18, "a plain restatement that stays
grammatical"); a count is an upper bound a person reads, not a verdict. `--figures` also prints bench/corpus.py's
automatic figures on the same answers (one explaining pass for both). A benchmark: it exits 0 whatever it finds.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

# Words that end a prose phrase, never an option's value: "`--overlap-grad-reduce and`", "`--tp-comm-overlap (I`".
_PROSE_WORDS = r"(?:and|or|as|to|with|is|are|the|a|an|in|on|for|of|but|also|well|I|we|you|it|this|that|which|so|then)"
_OPTION_HEAD = r"(?:--?[A-Za-z][\w.-]*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)"
# Words that start a sentence but never a name: "advise that You also need", "says that The".
_SENTENCE_OPENERS = ("you we they it this these those there the a an in if for when so but and also however first "
                     "then here what how why which where our your their my its one note please let").split()
# Verbs a sentence addressed to the reader opens with: "The text says that combine it with ...".
_IMPERATIVES = ("combine use set try make enable disable run add remove check note see consider avoid keep let do don't "
                "please increase reduce install pass turn switch change start stop put give take look read").split()
_QUESTION_OPENERS = "first how what why where when which who whom is are do does did can could should would will".split()

CLASSES = {
    # a code span holding an option name with a neighbouring prose word or a bracket pasted in
    "code_span_debris": re.compile(rf"`{_OPTION_HEAD}(?:[\s(]+{_PROSE_WORDS}\b[^`]*|\s*[(),;][^`]*|\s+\([^`]*)`"),
    # an expansion nested in another ("throughput (throughput in TFLOP/s (the arithmetic ..."): words, "(", words, "("
    "nested_expansion": re.compile(r"[\w*\u0621-\u064A]\s*\((?=[^()]*[A-Za-z\u0621-\u064A]{3})[^()`]*\([^()]*[A-Za-z\u0621-\u064A]{2}"),
    # "Grouped-Query Attention (grouped-query attention (GQA))", "throughput (throughput in TFLOP/s"
    "self_repeating_expansion": re.compile(r"(?i)\b((?=[^(]*(?-i:[a-z]))[A-Za-z][\w-]*(?:\s+[\w-]+){0,3})\s+\(\s*\1\b(?!-\w)"),
    # a definition that restates its own term: "**throughput** (...): ... Here throughput is the arithmetic rate ..."
    "definition_restates_term": re.compile(r"(?i)^\s*-\s+\*\*([^*]+)\*\*.*\b(?:here|this)\s+\1\s+(?:is|means|refers)\b"),
    # an expansion pasted inside a quoted name or label: "'Train Step model FLOPs utilization (MFU)'"
    "expansion_in_quote": re.compile(r"(?:'[^'\n]{0,80}\s\((?:[A-Z][A-Za-z0-9/-]+)\)[^'\n]{0,40}'"
                                     r"|\"[^\"\n]{0,80}\s\((?:[A-Z][A-Za-z0-9/-]+)\)[^\"\n]{0,40}\""
                                     r"|«[^»\n]{0,80}\s\((?:[A-Z][A-Za-z0-9/-]+)\)[^»\n]{0,40}»)"),
    # reported speech spliced onto a sentence that cannot follow "that"/"whether" (a capital, an imperative, a question)
    "reported_splice": re.compile(rf"\b(?:say|said|advise|recommend|note|explain|report|write|add|argue|suggest|ask|wonder|state|claim|point)"
                                  rf"(?:s|ed|d)?(?:\s+out)?\s+(?:that|whether)\s+(?:(?:{'|'.join(w.capitalize() for w in _SENTENCE_OPENERS)})\b(?![-.])"
                                  rf"|(?:{'|'.join(_IMPERATIVES)})\s+(?:it|the|a|an|this|that|them|your|with|to|on|off)\b"
                                  rf"|(?:{'|'.join(_QUESTION_OPENERS[:9])})\b\s+(?:of\s+all|do|does|you|we|i)\b"
                                  r"|(?:such as|for example|for instance|e\.g\.|of note|a few points)\b"
                                  r"|(?:recommended|suggested|proposed|optimal|best)\s+[a-z]+\s+(?!is|are|was|were)[a-z(]"
                                  r"|(?:any|some)\s+(?:guidance|advice|tips?|suggestions?|ideas?|help)\b"
                                  r"|(?:why|how|where|when)\s+(?:is|are|was|were)\s+the\b)"
                                  r"|أنّ\s+(?:تم|يتم|بسبب|لقد|قد|كان|كانت|يجب|ينبغي|يمكن|تُ\w+|يُ\w+)(?![\w\u0621-\u064A])"),
    # "lines 8-8 of the text", "الأسطر 8-8"
    "single_line_range": re.compile(r"(\d+)\s*[-–]\s*\1\b(?=\s*(?:of|من|\)))"),
    # a number with an exponent followed by a unit prefix: "2.081e12T"
    "exponent_with_prefix": re.compile(r"\d(?:\.\d+)?e[+-]?\d+\s?[kKMGTPE](?![a-z])"),
    # the same word twice in a row ("مرحلة المرحلة" is the Arabic article's variant, counted too)
    "doubled_word": re.compile(r"(?i)(?<![\w\u0621-\u064A-])((?:[وبلفك]?ال|[وبلفك])?)([A-Za-z\u0621-\u064A]{3,})\s+"
                               r"(?:[وبلفك]?ال|[وبلفك])?\2(?![\w\u0621-\u064A])"),
    # a plural noun after one, or an abbreviation's plural after its singular expansion ("Processing Unit (TPUs)")
    "number_agreement": re.compile(r"\b1\s+(?:GPU|TPU|chip|node|card|device|token|stage|layer|expert|replica|host)s\b"
                                   r"|\b(?:Unit|Processor|Chip|Device|Node|unit|processor|chip|device|node)\s+\([A-Z]{2,}s\)"),
    # "an model", "a expert" (a vowel sound after "a" is left out: "a one", "a unit" are right)
    "article": re.compile(r"\b(?:an\s+(?![aeiouAEIOU]|[A-Z]{2}|[FHLMNRSX]\b|hour|honest|[A-Z]\w*-|\w*\d)[a-z]\w*"
                          r"|a\s+(?!one|uni|use|usu|uti|eu|ur)[aeio]\w+)"),
    # a comma with no space before a word: "across 4 GPUs,a pipeline"
    "comma_paste": re.compile(r"[A-Za-z)],(?=[A-Za-z])"),
    # a nonzero figure rounded to nothing: "a time of 0 ms" for 10 ns
    "zero_reading": re.compile(r"(?:\bof|\babout|قدره|قدرها|نحو)\s+0\s?(?:ms|s|µs|ns|[KMGT]?B|[KMGT]?B/s|[TPE]?FLOP/s)(?!\w)"),
    # an expansion splitting a compound noun: "graphics processing unit (GPU) cards", "the 6ND rule (6NP) formula"
    "expansion_in_compound": re.compile(r"[a-z]\s\([A-Z][A-Za-z0-9-]*\)\s+(?:formula|numbers|results|cards|recipes|groups|modes|"
                                        r"degree|size|ranks|traffic|framework|communication|gradient)\b"),
    # a list pasted into a sentence: "... the reason: • it gives ... •accuracy?"
    "bullet_in_sentence": re.compile(r"[^\s*-]\s*•"),
    # a signed change with a word that already gives its sign: "-100% less", "-37% faster"
    "signed_and_worded": re.compile(r"(?<![\w.])[-−]\d[\d.,]*\s?%\s+(?:less|more|lower|higher|faster|slower|smaller|larger)\b"),
    # a unit the text gave, dropped by the calculation: "the text says 2TB; the calculation gives 2.24T"
    "unit_dropped": re.compile(r"says\s+[\d.,]+\s?[KMGTP]B\b[^;]*;\s+the calculation gives\s+[\d.,]+\s?[kKMGTPB](?![\w/])"),
    # an empty item: "**Layout:** —.", "Explained: ." (JUDGING.md: no empty items)
    "empty_item": re.compile(r"\*\*[^*]+:\*\*\s*[—-]?\s*\.?\s*$|:\s*[—-]\s*\.\s*$|(?:Explained|Consistent|شرح|متسق):\s*\.?\s*$"),
    # a term named by config syntax: "**zero_optimization": {"stage": 3**"
    "code_in_term_name": re.compile(r"^\s*-\s+\*\*(?![“«\"])[^*]*[{}\"=][^*]*\*\*(?:\s\(|:)"),
    # a parser's error shown in an answer (it belongs in an answer only when the text is mostly a config)
    "parser_error": re.compile(r"does not parse|Could not be read|تعذّرت قراءته"),
}
_TERM_HEAD = re.compile(r"^\s*-\s+\*\*[^*]+\*\*(?:\s*\((?:[^()]|\([^()]*\))*\))?")  # "- **X** (expansion)" of a terms line
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?؟])\s+|;\s+|؛\s*")
_BOLD = re.compile(r"^\s*-\s+\*\*.*?\*\*\s*|\*")  # a claim's quoted words are the text's; what follows is the answer's
REPEAT_WORDS = 6  # a shorter sentence ("Consistent.") may well come back
CODE_BLOCK = re.compile(r"```.*?```", re.S)
CONFIG_SHARE = 0.5  # a text whose lines are half config-like or more is a config: its parser errors may be shown
_CONFIG_LIKE = re.compile(r"^\s*(?:[-\w.\"']+\s*[:=]|--[\w-]+|[{}\[\]]|#|-\s)")


def _corpus():
    """bench/corpus.py as a module (its loader, explainer and scoring)."""
    spec = importlib.util.spec_from_file_location("bench_corpus", Path(__file__).with_name("corpus.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mostly_config(text: str) -> bool:
    """Whether at least half of the text's non-empty lines look like config or command lines."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return bool(lines) and sum(bool(_CONFIG_LIKE.match(ln)) for ln in lines) >= CONFIG_SHARE * len(lines)


def answer_lines(answer: dict) -> list[str]:
    """The lines a reader sees: the explanation (outside fenced code) and the warnings printed under it."""
    from service.explain.unsaid import warnings_to_print

    text = CODE_BLOCK.sub("", answer.get("explanation") or "")
    return [ln for ln in text.splitlines() if ln.strip()] + [str(w) for w in warnings_to_print(answer) if str(w).strip()]


def lint(text: str, answer: dict) -> dict[str, list[str]]:
    """Class -> the answer lines matching it (a parser error counts only where the text is not mostly a config)."""
    found: dict[str, list[str]] = defaultdict(list)
    config = mostly_config(text)
    said: set[str] = set()
    for line in answer_lines(answer):
        if line.startswith((" ", "\t")) or (line.lstrip("- ").startswith("*") and not line.lstrip("- ").startswith("**")):
            sentences = []  # a calculation's label or working step repeats by design
        else:
            sentences = _SENTENCE_SPLIT.split(_BOLD.sub("", line))
        for sentence in sentences:
            key = " ".join(sentence.lower().split())
            if len(key.split()) >= REPEAT_WORDS and key in said:
                found["repeated_sentence"].append(line)  # "nothing said twice" (JUDGING.md)
                break
            said.add(key)
        for name, pattern in CLASSES.items():
            if name == "parser_error" and config:
                continue
            if name == "doubled_word":
                if any(m.group(2).lower() not in {"that", "had", "very", "خطوة"}
                       and not re.fullmatch(r"(\S+)\s+ب\1", m.group(0)) for m in pattern.finditer(line)):  # "طبقة بطبقة": an idiom
                    found[name].append(line)
                continue
            if name == "nested_expansion":  # a term's name and expansion; the glossary's definition is counted apart
                line_part = _TERM_HEAD.match(line)
                if line_part and pattern.search(line[line_part.end():]):
                    found["nested_in_definition"].append(line)
                if not pattern.search(line_part.group(0) if line_part else line):
                    continue
            if pattern.search(line):
                found[name].append(line)
    return found


def main(argv: list[str] | None = None) -> int:
    """Explain the pool, count each class per answer language, print examples (and the automatic figures)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", nargs="*", choices=("dev", "test"), default=["dev", "test"])
    ap.add_argument("--lang", nargs="*", choices=("en", "ar"), default=["en", "ar"])
    ap.add_argument("--only", nargs="*", help="passage ids to run")
    ap.add_argument("--examples", type=int, default=3, help="examples printed per class")
    ap.add_argument("--figures", action="store_true", help="also print bench/corpus.py's figures per split")
    args = ap.parse_args(argv)
    corpus = _corpus()
    explain = corpus.Explainer()
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    examples: dict[str, list[str]] = defaultdict(list)
    rows: dict[str, list[dict]] = defaultdict(list)
    scoring = corpus._scoring() if args.figures else None
    index, hbm = (scoring.glossary_index(), corpus.chip_hbm()) if args.figures else (None, None)
    try:
        for split in args.split:
            for p in corpus.load_corpus(split):
                if args.only and p["id"] not in args.only:
                    continue
                for lang in args.lang:
                    answer = explain(p["text"], lang)
                    if args.figures:
                        row = {"id": p["id"], "passage_lang": p["lang"], "answer_lang": lang}
                        row.update(corpus.score_answer(p, answer, index, hbm, scoring))
                        rows[split].append(row)
                    for name, lines in lint(p["text"], answer).items():
                        counts[name][lang] += len(lines)
                        if len(examples[name]) < args.examples:
                            examples[name].extend(f"{p['id']} [{lang}] {ln.strip()[:220]}" for ln in lines[:1])
    finally:
        explain.close()
    print(f"answer lint: splits {', '.join(args.split)}; languages {', '.join(args.lang)}")
    print(f"  {'class':28} " + " ".join(f"{lang:>6}" for lang in args.lang) + f" {'all':>6}")
    for name in [*CLASSES, "nested_in_definition", "repeated_sentence"]:
        by_lang = [counts[name][lang] for lang in args.lang]
        print(f"  {name:28} " + " ".join(f"{n:>6}" for n in by_lang) + f" {sum(by_lang):>6}")
    total = [sum(counts[name][lang] for name in [*CLASSES, "nested_in_definition", "repeated_sentence"]) for lang in args.lang]
    print(f"  {'total':28} " + " ".join(f"{n:>6}" for n in total) + f" {sum(total):>6}")
    for name in [*CLASSES, "nested_in_definition", "repeated_sentence"]:
        if examples[name]:
            print(f"\n{name}:")
            for line in examples[name]:
                print(f"  {line}")
    for split, split_rows in rows.items():
        summaries = {lang: corpus.summarise([r for r in split_rows if r["answer_lang"] == lang]) for lang in args.lang}
        summaries["all"] = corpus.summarise(split_rows)
        print(f"\ncorpus figures, split {split}:")
        corpus.print_report(split_rows, summaries, quiet=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
