"""Stage 5, the offline composer: the gist, the claims with their checks, the terms, the corrections; no network."""

import math
import re
from functools import lru_cache

from calculators import catalog, working as calculator_working

from service import configs
from service.explain import claim_names, claims as claims_reader, cross_figures, followup, gist as gist_module, gist_list, gist_pointers, gist_results, outside_numbers, reasons, restate, term_display, term_items, working_quotes
from service.explain.checks import verdicts as verdict_policy
from service.explain.definitions import brief_definition
from service.explain.term_items import shortened as _shortened  # noqa: F401  (a definition's first sentences; tests read it here)
from service.explain.document import Document
from service.explain.figures import read_figures_on_lines
from service.explain.gist_original import quoted as original_gist, sentence as _sentence
from service.explain.pipeline import analyse
from service.explain.salience import central_count, is_everyday, listed_terms, salient_terms  # noqa: F401  (salient_terms re-exported)
from service.explain.terms import read_terms
from service.i18n import arabic, arabic_devices, arabic_style
from service.i18n.messages import join_names, messages

MAX_INPUT_CHARS = 100_000
WORD_BUDGET_BASE = 250  # an answer has at most this many words plus twice the input's
WORD_CAP = 1500
FRAME_ORDER = ("pp_not_needed", "pp_only_when_dp_bound", "fast_links_no_pp", "dp_comms_bound", "pp_needed")
REASON_FRAMES = ("fast_links_no_pp",)
# From the most detailed answer to the shortest: everyday terms go first ("own"), then terms and working are trimmed,
# then claims. "fit" lists as many terms as the words left allow, each with its brief definition, the most central first.
LEVELS = (
    {"steps": 4, "terms": "lines", "claims": 8, "reasons": 4}, {"steps": 4, "terms": "own", "claims": 8, "reasons": 4},
    {"steps": 3, "terms": "short", "claims": 8, "reasons": 3},
    {"steps": 2, "terms": "fit", "claims": 8, "reasons": 2},
    {"steps": 0, "terms": "fit", "claims": 6, "reasons": 1, "sized_only": True},
    {"steps": 0, "terms": "fit", "claims": 4, "reasons": 1, "sized_only": True},
    {"steps": 0, "terms": "fit", "claims": 3, "reasons": 1, "sized_only": True},  # the central terms stay (TERMS_KEPT)
)
FIT_DEFINITION_WORDS = 12  # a "fit" definition longer than this is cut to its first clause, so more terms fit
MIN_FITTED_TERMS = 1  # a "fit" level with no room for even one defined term gives way to a shorter level
TERMS_FLOOR = 120  # words the central terms keep at a "fit" level even past the budget: explaining the terms is the job
TERMS_KEPT = 3  # the most central terms (named by the gist's or reasons' sentences or the claims) a "fit" list always keeps


def explain_offline(text: str, lang: str | None = None, context: str = "") -> dict:
    """The explanation object of DESIGN.md for `text`, composed without a model.

    `context` is what the conversation said before: a follow-up ("and on TPUs?") redoes the earlier
    checks with what it changes; only `text`'s own terms are explained.
    """
    lang = lang or arabic.detect_language(text)
    given = text
    text, config = configs.split(text, lang)  # a training configuration is read as one (service/configs); the prose around it as prose
    previous = _analysed(context, lang) if context.strip() else None
    doc = analyse(text, lang, previous)
    if config is not None:  # every term of the input is explained, the configuration's too (MoE in a launch line)
        doc.terms += terms_in(given, lang, {t["id"] for t in doc.terms})

    answered = _why_answer(doc, previous) if previous is not None and followup.is_why(text) else None
    if answered is not None:  # "why ...?": the text's own reasons, not the same check again
        markdown, sentences, links = answered
        is_followup = True
    else:
        is_followup = previous is not None and not doc.calculations and followup.retarget(doc, previous)
        links = [] if is_followup else reasons.find(doc)
        sentences = [] if is_followup else gist_results.with_results(doc, gist_list.with_items(doc, gist_pointers.without_pointers(doc, gist_module.gist(doc, links)), whole=config is None))
        markdown = compose(doc, is_followup, links, sentences)
    if config is not None and configs.shows_section(config):  # an option the configuration section explains is not listed among the terms too
        markdown = term_display.without_lines_for({o["name"] for o in config.get("options") or []}, markdown)
    skipped = messages(doc.lang)["notes"]["calculation_skipped"]
    # unrun for want of an input from the text is the design working; a failure is said without the calculator's name, in the
    # answer's language, and apart from the warnings (corrections): readers took «لم تتسق أرقام النص» for a verdict on the text
    failures = [f for f in doc.failures if not f.endswith(_NOT_GROUNDED)]
    why = [f.split(": ", 1)[-1] if lang == "en" else messages(lang)["notes"]["skipped_figures"] for f in failures]
    warnings, skipped_calculations = list(dict.fromkeys(c["warning"] for c in doc.corrections)), list(dict.fromkeys(skipped.format(reason=w) for w in why))
    return arabic_style.in_final_form(finite(configs.attach({
        "explanation": markdown,
        "language": lang,
        "backend": "offline",
        "cached": False,
        "terms": doc.terms,
        "calculations": doc.calculations,
        "warnings": warnings,
        "skipped_calculations": skipped_calculations,
        "plain": restate.plain(doc) if not is_followup else "",
        "figures": [f.to_dict() for f in doc.figures if _is_finite(f.value)] + _config_figures(given, config),
        "claims": [c.to_dict() for c in doc.claims],
        "gist": sentences,
        "reasons": links,
    }, config, lang)), doc.text)


_NOT_GROUNDED = "not run, no input comes from the text"  # checks.core.run's note for a calculation no sentence asked for


def _config_figures(given: str, config: dict | None) -> list[dict]:
    """The figures of the configuration's lines (offsets in the input as given): listed, never checked as the prose's are."""
    if config is None or not config.get("lines"):
        return []
    first, last = config["lines"]
    return [f.to_dict() for f in read_figures_on_lines(given, first, last) if _is_finite(f.value)]


def _is_finite(number) -> bool:
    return not isinstance(number, float) or math.isfinite(number)


def finite(value):
    """`value` with every infinite or NaN number replaced by None: JSON has no such numbers ("12e45678" reads as inf)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def _why_answer(doc: Document, previous: Document) -> tuple[str, list, list] | None:
    """A "why ...?" follow-up answered from the earlier text's own reasons, with the links they make; None when
    the text gives no reason for what is asked."""
    links = reasons.find(previous)
    found = followup.why(doc, previous, links)
    if not found:
        return _why_from_table(doc, previous, links)
    m = messages(doc.lang)
    text = " ".join(_sentence(m["gist"]["why_answer" if n == 0 else "claim_next"].format(reason=_clause(item["text"]),
                                                                                       claim=_clause(item["text"])))
                    for n, item in enumerate(found))
    parts = [f"## {m['headings']['gist']}", text]
    asked = {i for item in found for i in item["from"]}
    related = [link for link in links if set(link["from"]) & asked]
    if related:
        parts += [f"## {m['headings']['reasons']}", _reasons_section(previous, related, LEVELS[1])]
    doc.calculations = previous.calculations  # a sizing shown under the reasons belongs to the answer
    return "\n\n".join(parts) + "\n", found, related


def _why_from_table(doc: Document, previous: Document, links: list[dict]) -> tuple[str, list, list] | None:
    """A "why ...?" the earlier text gives no reason for, answered from data/reasons.json and said to be so; None
    when no link of the table is about what the question names."""
    link = followup.from_table(doc, previous, links)
    if link is None:
        return None
    m = messages(doc.lang)
    lang = doc.lang if doc.lang in link else "en"
    condition = link.get(f"condition_{lang}") or link.get("condition_en", "")
    lines = [m["gist"]["why_table"].format(reason=_clause(link[lang]))]  # its wording says when it holds
    lines.append(m["gist"]["why_table_source"].format(source=reasons.citation(link["source"])))
    entry = {"id": link["id"], "from": [], "quote_from": None, "quote": "", "text": link[lang], "short": "",
             "condition": condition, "source": link["source"], "calculation": None, "from_table": True}
    return f"## {m['headings']['gist']}\n\n" + " ".join(lines) + "\n", [{"text": link[lang], "from": []}], [entry]


def terms_in(text: str, lang: str, known: set[str]) -> list[dict]:
    """The glossary terms of `text` not among `known`: the terms stage alone, no figures, claims or checks (a
    configuration's options are explained one by one in its own section, not again as terms)."""
    whole = Document(text=text, lang=lang)
    read_terms(whole)
    return [t for t in whole.terms if t["id"] not in known and t.get("category") != "option"]


@lru_cache(maxsize=16)
def _analysed(text: str, lang: str) -> Document:
    """The earlier turns' document; a chat re-reads the same history at every turn."""
    return analyse(text, lang)


def budget(text: str) -> int:
    """The most words an answer to `text` may have."""
    return min(WORD_BUDGET_BASE + 2 * len(text.split()), WORD_CAP)


def compose(doc: Document, is_followup: bool = False, links: list | None = None, sentences: list | None = None) -> str:
    """The markdown answer, at the most detailed level that fits the word budget."""
    limit = budget(doc.text)
    markdown = ""
    memo: dict = {"links": links or [], "gist_sentences": sentences or [], "limit": limit}  # sections that do not change between levels
    keep = (messages(doc.lang)["headings"]["corrections"],)
    for level in LEVELS:
        markdown = _compose(doc, is_followup, level, memo)
        if doc.lang == "ar" and (len(markdown.split()) <= limit * 1.2 or level is LEVELS[-1]):
            # its final form counts against the budget (Arabic words for "7B", brackets); a level far over it is not worth it
            markdown = arabic_devices.chips_as_gpus(markdown) if arabic_devices.gpu_only(doc.text) else markdown  # one word
            markdown = arabic_style.polish(markdown, keep, arabic_style.passage_words(doc.text, arabic_style.kept_text(markdown, keep)))
            if level["terms"] == "fit":  # the room was counted before the final form: the last items give way
                markdown = arabic_style.within(markdown, limit + TERMS_FLOOR, messages(doc.lang)["headings"]["terms"], keep=TERMS_KEPT)
        if len(markdown.split()) <= limit + (TERMS_FLOOR if level["terms"] == "fit" else 0):
            break
    return markdown


def _ordered_claims(doc: Document) -> list:
    def rank(claim):
        frame = FRAME_ORDER.index(claim.frame) if claim.frame in FRAME_ORDER else len(FRAME_ORDER)
        return (frame, 0 if claim.calculations else 1, 0 if claim.verdict in ("inconsistent", "needs_more") else 1, claim.start)
    return sorted(doc.claims, key=rank)


def _compose(doc: Document, is_followup: bool, level: dict, memo: dict) -> str:
    m, h = messages(doc.lang), messages(doc.lang)["headings"]
    if "ordered" not in memo:
        memo["ordered"] = _ordered_claims(doc)
    claims = memo["ordered"][:level["claims"]]
    key = ("gist", len(claims))
    if key not in memo:
        memo[key] = _from_sentences(doc, memo["gist_sentences"]) if memo["gist_sentences"] or not is_followup \
            else _gist(doc, claims, is_followup)
    gist, in_gist = memo[key]
    parts = [f"## {h['gist']}", gist]
    if memo["links"]:  # a link sized by a calculation first: it is the one a shorter answer keeps
        links = sorted(memo["links"], key=lambda link: link["calculation"] is None)[:level["reasons"]]
        if level.get("sized_only"):  # the shortest answers keep a reason only with the calculation that sizes it
            links = [link for link in links if link["calculation"] is not None]
        if links:
            parts += [f"## {h['reasons']}", _reasons_section(doc, sorted(links, key=lambda link: link["from"]), level)]
    section = _claims_section(doc, claims, in_gist, level)
    if section:
        parts += [f"## {h['claims']}", section]
    tail = []
    if doc.corrections:
        lines = [c.get("line") or m["mistranslation_line"].format(**{k: c[k] for k in ("as", "en", "correction")}) for c in doc.corrections]
        tail = [f"## {h['corrections']}", "\n".join(lines)]
    if doc.terms and level["terms"]:
        central = {i for item in memo["gist_sentences"] for i in item["from"]} | \
            {i for link in memo["links"] for i in link["from"]}
        if level["terms"] == "fit":  # the words the other sections leave, the heading's included
            room = memo.get("limit", WORD_CAP) - len("\n\n".join(parts + tail).split()) - len(h["terms"].split()) - 1
            room = max(room, TERMS_FLOOR)
            section = _terms_section(doc, "fit", central, room)
        else:
            if level["terms"] not in memo:
                memo[level["terms"]] = _terms_section(doc, level["terms"], central)
            section = memo[level["terms"]]
        section = term_display.not_said_in(section, gist)
        if section:
            parts += [f"## {h['terms']}", section]
    return "\n\n".join(parts + tail) + "\n"



# ------------------------------------------------------------------------------------------------ gist

def _gist(doc: Document, claims: list, is_followup: bool) -> tuple[str, set[int]]:
    """2-5 plain sentences: what the author claims and why (for a follow-up, the answer to it)."""
    m = messages(doc.lang)["gist"]
    if is_followup:
        chips = join_names([restate.chip_name(c, doc.lang) for c in doc.chips()], doc.lang)
        models = join_names([restate.model_name(x) for x in doc.models()], doc.lang)
        subject = chips or models or m["followup_same"]
        lines = [m["followup"].format(subject=subject)]
        lines += [_sentence(c.why) for c in claims if c.why][:3]
        return " ".join(lines), {id(c) for c in claims}
    shown: set[int] = set()
    lines = []
    framed = [c for c in claims if c.frame and c.frame not in REASON_FRAMES]
    seen_plain: set[str] = set()
    for claim in framed:
        if claim.plain in seen_plain:
            shown.add(id(claim))
            continue
        seen_plain.add(claim.plain)
        key = "claim_first" if not lines else "claim_next"
        if "question" in claim.kinds and not lines:
            key = "question_first"
        lines.append(m[key].format(claim=_clause(claim.plain)))
        shown.add(id(claim))
        if len(lines) >= 2:
            break
    if not lines:
        main = [c for c in claims if c.calculations or {"requirement", "cause", "measurement", "comparison"} & set(c.kinds)]
        for claim in sorted(main[:2], key=lambda c: c.start):
            key = "claim_first" if not lines else "claim_next"
            lines.append(m[key].format(claim=_clause(claim.plain)))
            shown.add(id(claim))
    causes = [c for c in doc.claims if c.frame in REASON_FRAMES] + \
        [c for c in doc.claims if "cause" in c.kinds and not c.frame and restate.same_language(c.quote, doc.lang)]
    cause = next((c for c in causes if id(c) not in shown and c.plain not in seen_plain), None)
    if cause is not None and lines:
        lines.append(m["reason"].format(reason=_clause(cause.plain)))
        shown.add(id(cause))
    if not lines:
        plain = restate.plain(doc).split("\n")
        lines = [_sentence(p) for p in plain[:3] if p] or [m["nothing"]]
    return " ".join(lines[:5]), shown


def _from_sentences(doc: Document, sentences: list[dict]) -> tuple[str, set[int]]:
    """The gist of gist.py's sentences, and the claims it restates (not listed again as they are)."""
    if not sentences:  # a template would say what the text does not: say that nothing is argued
        m = messages(doc.lang)["gist"]
        tail = "" if doc.terms else "_no_terms"  # "its terms are explained below" only where a terms section follows
        if not restate.same_language(doc.text, doc.lang):  # not "no claim": the reading cannot summarise it offline
            return original_gist(doc) or m["nothing_other_language" + tail].format(language=m["other_language"]) + cross_figures.line(doc), set()
        return m["nothing" + tail], set()
    starts, said = {doc.sentences[i][0] for item in sentences for i in item["from"]}, " ".join(_sentence(item["text"]) for item in sentences)
    return said + cross_figures.after_topic(doc, said), {id(c) for c in doc.claims if c.start in starts}


# --------------------------------------------------------------------------------------------- reasons

def _reasons_section(doc: Document, links: list[dict], level: dict) -> str:
    """Each link the text makes, in plain words, with the calculation that sizes it and every assumption said."""
    m, lines = messages(doc.lang), []
    for link in links:
        start, end = doc.sentences[link.get("quote_from", link["from"][0])]
        quote = doc.text[start:end]
        head = f"**{m['claim_ref'].format(quote=_short(quote, 10))}** " \
            if restate.same_language(quote, doc.lang) and not level.get("sized_only") else ""
        wording = link["short"] if level["reasons"] <= 2 and link.get("short") else link["text"]
        item = [f"- {head}{_sentence(wording)}"]
        if link.get("condition") and level["reasons"] > 2:
            item[0] += " " + m["reason_condition"].format(condition=link["condition"])
        if link["calculation"] is not None:
            run = doc.calculations[link["calculation"]]
            if level.get("sized_only"):  # a short answer keeps the comparison; its first line is inside the others
                shown = Document(text=doc.text, lang=doc.lang)
                shown.calculations = [{**run, "working": [s for s in run.get("working") or []
                                                          if s.get("key") != "pipeline_memory.per_stage"]}]
                item += _calculation_lines(shown, [0], {**level, "steps": 4})
            else:
                item += _calculation_lines(doc, [link["calculation"]], {**level, "steps": 4})
            item.append("    " + m["assuming"] + ": " + m["reason_separator"].join(_reason_assumptions(run, doc.lang)))
        lines.append("\n".join(item))
    # the links come from a sourced table, not from the author: said once, so no reader takes them for the text's words
    return "\n".join([m["reasons_intro"], ""] + lines) if lines else ""


def _reason_assumptions(run: dict, lang: str) -> list[str]:
    """What a sizing took that the text does not say."""
    words = messages(lang)["reason_assumed"]
    inputs = run["inputs"]
    out = []
    if "example" in run.get("reason_assumptions", []):
        out.append(words["example"].format(p=inputs["pp_degree"], m=inputs["microbatches"]))
    if "model" in run.get("reason_assumptions", []):
        out.append(words["model"].format(model=reasons.model_name(run)))
    else:
        out.append(words["no_model"])
    return out


def _clause(text: str) -> str:
    """A restatement as a clause inside a gist sentence (no final stop, first letter kept)."""
    return text.strip().rstrip(".。؟?!").strip()


# ---------------------------------------------------------------------------------------------- claims

LONG_QUOTE_WORDS = 45  # a claim longer than this is named by its figures, not pasted whole as the item's heading


def _claims_section(doc: Document, claims: list, in_gist: set[int], level: dict) -> str:
    m = messages(doc.lang)
    verdicts = m["verdict_labels"]
    shown_calcs: set[int] = set()
    said_missing: set[str] = set()
    items = []
    for number, claim in enumerate(claims, 1):
        # a rule explained in words (no figures of the text's own to check it with) keeps its explanation
        in_words = not claim.calculations and claim.verdict == "explained" and claim.why and not claim.placeholder_why
        if not claim.calculations and claim.verdict == "explained" and (id(claim) in in_gist or level["claims"] <= 4) \
                and not (in_words and level["steps"]):
            continue  # stated in the gist and nothing to check: not said twice
        if not claim.calculations and claim.verdict == "explained" and not claim.figures and level["steps"] <= 2 and not in_words:
            continue
        if not claim.calculations and claim.verdict == "explained" and not claim.frame and not claim.figures \
                and not restate.same_language(claim.quote, doc.lang):
            continue  # a restatement from a template says too little to list
        if (not claim.calculations or claim.verdict == "explained") and (claim.placeholder_why or not claim.why.strip()):
            continue  # a quote with nothing checked or explained about it (a working under no verdict) is an empty item
        if claim.verdict == "explained" and any(_rests_on_defaults(doc.calculations[i]) for i in claim.calculations):
            continue  # a sum the text did not ask for, on an input it never gave (16 bytes per parameter)
        bare = m["verdicts"]["computed"].split("{")[0].strip().lower()
        if claim.verdict == "explained" and claim.why.strip().lower().startswith(bare) and any(
                _any_default(doc.calculations[i]) for i in claim.calculations):
            continue  # a bare number compared with nothing, on an assumed input (a 1F1B bubble under DualPipe)
        why = claim_names.read_out(  # one line for a figure quoted across a line break; the other language's words read out
            " ".join((claim.why or "").split()), doc.figures, doc.lang, claim.quote)
        if claim.verdict == "needs_more" and (why in said_missing or verdict_policy.unshown(why, doc.lang)):
            continue  # "the text would also need ..." once, not for every row of a table; our doubts are not the reader's
        missing = m["verdicts"]["needs_more"].split("{")[0].strip().lower()
        if claim.verdict == "needs_more" and why.lower().startswith(missing) and set(claim.kinds) <= {"measurement", "comparison"}:
            continue  # a reported figure nobody asked to verify: a list of what the check would need is noise
        if claim.verdict == "needs_more":
            said_missing.add(why)
        used = [s.get("quote") or "" for i in claim.calculations for s in doc.calculations[i]["input_sources"].values()
                if s.get("source") == "text"]
        if claim_names.by_columns(doc, claim):  # a table's row by its columns: "CompiledAutograd Y: Performance (tps) 7200"
            head = claim_names.by_columns(doc, claim)
        elif (not restate.same_language(claim.quote, doc.lang) or claims_reader.table_line(claim.quote) or "\n" in claim.quote.strip()
                or len(claim.quote.split()) > LONG_QUOTE_WORDS) and claim_names.by_figures(claim, doc.lang, used):
            # a sentence in the other language is named by its own figures: readers judged the author's words, left in
            # English inside an Arabic answer (or the reverse), as untranslated text; a table run into one line or a long
            # sentence likewise, not pasted whole as a bold heading
            head = claim_names.by_figures(claim, doc.lang, used)
        elif id(claim) not in in_gist and not claim.frame and not restate.same_language(claim.quote, doc.lang):
            head = claim_names.by_names(claim, doc.lang) or m["claim_ref"].format(quote=_excerpt(doc, claim, 14))
        elif id(claim) not in in_gist:
            head = _sentence(claim.plain)
        elif restate.same_language(claim.quote, doc.lang):
            head = m["claim_ref"].format(quote=_excerpt(doc, claim))
        else:  # the quote is in the other language: its first words name it (a template in quotation marks would
            # put words in the author's mouth: "قياس: ..." is no one's sentence)
            head = claim_names.by_names(claim, doc.lang) or m["claim_ref"].format(quote=_excerpt(doc, claim, 10))
        line = f"- **{head}**"
        if claim.why and not claim.placeholder_why:
            line += f" {verdicts[claim.verdict]}: {_sentence(why)}"
        lines = [line]
        new = [i for i in claim.calculations if i not in shown_calcs]
        if any(doc.calculations[i]["calculator"] == "pp_necessity" for i in new):
            # One table for every pipeline check of the answer, under the first claim that needs one.
            new += [i for c in claims for i in c.calculations
                    if doc.calculations[i]["calculator"] == "pp_necessity" and i not in shown_calcs]
            new = list(dict.fromkeys(new))  # a calculation two claims share is one row
        shown_calcs.update(new)
        if claim.verdict != "needs_more":  # an uncertain reading's working would show the number it refuses to conclude
            lines += _calculation_lines(doc, new, level)
        items.append("\n".join(lines))
    return "\n".join(items)


def _any_default(run: dict) -> bool:
    """Whether a calculation took any input from the calculator's defaults."""
    return any(note.get("key") == "assumption.default" for note in (run.get("notes") or {}).get("assumptions", []))


def _rests_on_defaults(run: dict) -> bool:
    """Whether at least half of a calculation's inputs are the calculator's defaults, not the text's
    (175B x the default 16 bytes, ZeRO 0 and one chip: a sum the text never asked for)."""
    defaults = sum(note.get("key") == "assumption.default" for note in (run.get("notes") or {}).get("assumptions", []))
    return defaults > 0 and 2 * defaults >= len(run.get("inputs") or {})


def _short(quote: str, words: int = 12) -> str:
    parts = quote.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


def _excerpt(doc: Document, claim, words: int = 12) -> str:
    """The claim's words a reader sees above its check: its start, or, when the figures its check used lie beyond them,
    the clause that holds the first ("… I can only achieve 13.53% MFU, which …", not "The rest of the cases are …")."""
    quotes = [s.get("quote") or "" for i in claim.calculations for s in doc.calculations[i]["input_sources"].values()
              if s.get("source") == "text"]
    parts = [part for q in quotes for part in [q, *re.split(r"\s+[/×*÷+-]\s+", q)]]  # "3.4 GB / a millisecond": each side
    at = [claim.quote.find(q) for q in parts if q and q in claim.quote]
    first = min(at, default=None)
    if first is None or len(claim.quote[:first].split()) < words - 2:
        return _short(claim.quote, words)
    head = claim.quote[:first]
    cut = max(head.rfind(mark) for mark in (", ", "; ", ": ", "، ", "؛ ", " but ", " لكن ", " ("))
    if cut < 0:
        return _short(claim.quote, words)
    rest = claim.quote[cut:].lstrip(",;:،؛ (").split()
    if rest and rest[0] in ("but", "لكن"):
        rest = rest[1:]
    return "… " + " ".join(rest[:words]) + (" …" if len(rest) > words else "")


def _calculation_lines(doc: Document, indices: list[int], level: dict) -> list[str]:
    """Each calculation once: a title, and a short Working list folded under it."""
    m = messages(doc.lang)
    runs = [doc.calculations[i] for i in indices]
    lines = []
    pp_runs = [r for r in runs if r["calculator"] == "pp_necessity"]
    if pp_runs:
        # a short answer keeps each row's verdict but not the token columns, so the terms still fit
        header = m["pp_table_header"].split(" | ")
        full = bool(level["steps"])
        columns = header if full else [header[0], header[1], header[-1]]
        lines += ["", "  " + " | ".join(columns), "  |" + "---|" * len(columns)]
        for run in pp_runs:
            out = run["outputs"]
            verdict = (m["verdict_ok"] if not out["dp_comm_bound"] else
                       m["verdict_bound"].format(p=out["min_pp_degree"]) if out["min_pp_degree"] else m["verdict_unfixable"])
            ep = run["inputs"].get("ep_degree") or 1
            chip = _chip(run, doc.lang) + (("، " if doc.lang == "ar" else ", ") + f"EP {restate.value('ep_degree', ep)}" if ep > 1 else "")
            tokens = (f"{restate.value('tokens_per_chip', out['tokens_per_chip'])} | "
                      f"{restate.value('critical_tokens_per_chip', out['critical_tokens_per_chip'])} | ") if full else ""
            lines.append(f"  | {chip} | {_model(run) or m['dense_model_name']} | {tokens}{verdict} |")
        lines.append("")
    steps_shown = level["steps"]
    said: set[str] = set()
    for run in sorted(runs, key=lambda r: r["calculator"] != "pp_necessity"):
        if run["calculator"] == "pp_necessity" and run is not pp_runs[0]:
            continue
        title = _title(run, doc.lang)
        steps = [step for step in _steps(run, doc.lang)[:steps_shown] if step not in said]  # an MFU's FLOPs lines, not again
        said.update(steps)  # under the training FLOPs of the same run (a reader saw the same working twice, round 66)
        if not steps and steps_shown and run["calculator"] != "pp_necessity":
            continue
        # a title with no working under it is an empty item (the claim's reason already says what it found)
        if steps and run["calculator"] != "pp_necessity" or run["calculator"] == "pp_necessity" and steps_shown:
            lines.append(f"  - *{m['calculation']}: {title}*")
        if steps:
            lines.append(f"    {m['working_label']}:")
            lines += [f"    - {step}" for step in steps]
        sources = run.get("input_sources", {})
        # Which chip was assumed comes first: the hardware is what the reader most needs to know (issue 13.8).
        ordered = sorted(sources.items(), key=lambda item: item[0] != "chip")
        assumed = [s["why"] for _, s in ordered if s.get("source") == "assumed" and "why" in s and not s.get("default")]
        mine = [a for a in dict.fromkeys(assumed) if a in run.get("assumptions", []) and a not in said]  # each said once
        if run["calculator"] == "pp_necessity":  # one table for every pipeline check: every row's assumptions are said
            said.update(s["why"] for r in pp_runs for s in r.get("input_sources", {}).values() if "why" in s)
            form = "why" if level["steps"] else "short"  # a short answer names each assumption in a few words
            mine = list(dict.fromkeys(s.get(form, s["why"]) for r in pp_runs
                                      for _, s in sorted(r.get("input_sources", {}).items(), key=lambda i: i[0] != "chip")
                                      if s.get("source") == "assumed" and "why" in s and s["why"] in r.get("assumptions", [])))
            if mine:  # every assumption the verdicts rest on, at every level
                indent = "    " if steps_shown else "  - "
                lines.append(f"{indent}{m['assuming']}: " + m["reason_separator"].join(mine))
            continue
        if mine and level["terms"]:  # a short answer keeps the first; only the shortest form drops them
            indent = "    " if steps else "  - "
            lines.append(f"{indent}{m['assuming']}: " + m["reason_separator"].join(mine if level["claims"] > 4 else mine[:1]))
    return lines


def _title(run: dict, lang: str) -> str:
    """The calculator's name and what it was run on ("pipeline bubble, interleaved, 2 virtual stages")."""
    m = messages(lang)
    name = m["calculator_names"].get(run["calculator"], run["calculator"])
    inputs = run["inputs"]
    if run["calculator"] == "pipeline_bubble":
        subject = m["schedule_names"][inputs["schedule"]].format(v=restate.value("virtual_stages", inputs["virtual_stages"]))
    else:
        subject = join_names([x for x in (_model(run), _chip(run, lang)) if x], lang)
    return m["title"].format(name=name, subject=subject) if subject else name


def _steps(run: dict, lang: str) -> list[str]:
    """The calculation's steps in `lang` (the structured working when the calculator gives it)."""
    if run.get("working"):
        rendered = calculator_working.render(working_quotes.with_quotes(run, lang), lang)
        if lang == "en" or all(arabic.share_of_arabic(s) > 0.3 for s in rendered):
            return rendered
        return []
    return list(run.get("steps") or []) if lang == "en" else []


def _chip(run: dict, lang: str) -> str:
    chip = run["inputs"].get("chip")
    return restate.chip_name(catalog.hardware().get("chip", chip), lang) if chip else ""


def _model(run: dict) -> str:
    model = run["inputs"].get("model")
    return catalog.models().get("model", model)["name"] if model else ""


# ----------------------------------------------------------------------------------------------- terms

def _terms_section(doc: Document, detail: str, central: set[int] | None = None, room: int | None = None) -> str:
    """The terms section: "lines" (first sentences), "own" (the same, everyday words out), "short" (brief definitions: a long first sentence cut to its
    first clause) or "fit" (as many terms as `room` words hold, each with its brief definition). Every listed term has a definition; generic
    words of the field (data/generic_terms.json) come last, in their brief form, and shorter levels leave them out."""
    m = messages(doc.lang)
    terms = listed_terms(doc, central)
    kept = max(MIN_FITTED_TERMS, min(TERMS_KEPT, central_count(doc, central)))
    if detail in ("fit", "short", "own"):  # a tight budget spends no words on what the reader already knows
        terms = [t for n, t in enumerate(terms) if not is_everyday(t) or n < kept] or terms[:1]
    items = []
    for term in (t for t in terms if not t.get("name_only")):  # "num_heads: a setting whose name reads 'number of heads'" says nothing
        name, expansion = term_display.display(term, doc.lang, doc.text)
        definition = term_display.flat_brackets(_first_sentence(term_display.unrepeated_definition(name, term["definition"])), doc.lang)
        if detail in ("fit", "short") or is_everyday(term):  # the first clause: details of no use here go
            definition = brief_definition(definition, FIT_DEFINITION_WORDS if detail == "fit" else None)
        if term.get("defined_in_text"):
            definition = m["defined_in_text"].format(meaning=term["defined_in_text"]) + " " + definition
        own = " ".join(str(term.get(k) or "") for k in ("term", "found_as", "expansion")) + " " + name
        items.append(term_items.Item(name, expansion, term_items.without_foreign_names(definition, doc.text, own, not outside_numbers.definitional(term))))
    lines = []
    for name, expansion, definition in term_items.cleaned(items):  # no empty, repeated or off-passage item
        template = m["term_line"] if expansion and expansion.lower() != name.lower() else m["term_line_plain"]
        line = template.format(term=name, expansion=expansion, definition=definition)
        if detail == "fit" and room is not None and len(lines) >= kept and len(" ".join(lines + [line]).split()) > room:
            break  # fewer terms, each still defined, rather than bare names
        lines.append(line)
    return "\n".join(lines)


def _first_sentence(text: str) -> str:
    """A definition's first sentence, whole: what follows its colon is the fact ("two kinds: ..."), and the dot of
    "e.g." or of an initial ends nothing; a long sentence with no full stop ends at its first Arabic semicolon."""
    at = text.find(". ")
    while 0 <= at:
        head = text[:at + 1]
        if not head.endswith(_ABBREVIATIONS) and not (at >= 2 and text[at - 2] == " " and text[at - 1].isupper()) \
                and len(head.split()) >= FIRST_SENTENCE_MIN_WORDS:  # "Standard single-precision floating point." is a label
            return head
        at = text.find(". ", at + 2)
    if len(text) > 400 and "؛ " in text[:400]:
        return text[:text.index("؛ ")] + "."
    return text


_ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "etc.", "et al.", "approx.", "cf.", "Fig.", "No.")
FIRST_SENTENCE_MIN_WORDS = 9  # a shorter first sentence is a label ("Suffixes on FP8 type names.", "NVIDIA's GPU of the Hopper generation."): the next one comes too
