"""Stage 5, the offline composer: the gist, the claims with their checks, the terms, the corrections; no network."""

from functools import lru_cache

from calculators import catalog
from calculators import working as calculator_working

from service import configs
from service.explain import followup, restate
from service.explain.document import Document, analyse
from service.i18n import arabic
from service.i18n.messages import join_names, messages

MAX_INPUT_CHARS = 100_000
WORD_BUDGET_BASE = 250  # an answer has at most this many words plus twice the input's
WORD_CAP = 1500
FRAME_ORDER = ("pp_not_needed", "pp_only_when_dp_bound", "fast_links_no_pp", "dp_comms_bound", "pp_needed")
REASON_FRAMES = ("fast_links_no_pp",)
# From the most detailed answer to the shortest: terms and working are trimmed first, then claims.
LEVELS = (
    {"steps": 4, "terms": "lines", "claims": 8},
    {"steps": 3, "terms": "short", "claims": 8},
    {"steps": 2, "terms": "names", "claims": 8},
    {"steps": 0, "terms": "names", "claims": 6},
    {"steps": 0, "terms": "names", "claims": 4},
    {"steps": 0, "terms": None, "claims": 3},
)
SHORT_DEFINITION_WORDS = 16


def explain_offline(text: str, lang: str | None = None, context: str = "") -> dict:
    """The explanation object of DESIGN.md for `text`, composed without a model.

    `context` is what the conversation said before: a follow-up ("and on TPUs?") redoes the earlier
    checks with what it changes; only `text`'s own terms are explained.
    """
    lang = lang or arabic.detect_language(text)
    text, config = configs.split(text, lang)  # a training configuration is read as one (service/configs); the prose around it as prose
    previous = _analysed(context, lang) if context.strip() else None
    doc = analyse(text, lang, previous)
    is_followup = previous is not None and not doc.calculations and followup.retarget(doc, previous)
    markdown = compose(doc, is_followup)
    skipped = messages(doc.lang)["notes"]["calculation_skipped"]
    warnings = [c["warning"] for c in doc.corrections] + [skipped.format(reason=f) for f in doc.failures]
    return configs.attach({
        "explanation": markdown,
        "language": lang,
        "backend": "offline",
        "cached": False,
        "terms": doc.terms,
        "calculations": doc.calculations,
        "warnings": warnings,
        "plain": restate.plain(doc) if not is_followup else "",
        "figures": [f.to_dict() for f in doc.figures],
        "claims": [c.to_dict() for c in doc.claims],
    }, config, lang)


@lru_cache(maxsize=16)
def _analysed(text: str, lang: str) -> Document:
    """The earlier turns' document; a chat re-reads the same history at every turn."""
    return analyse(text, lang)


def budget(text: str) -> int:
    """The most words an answer to `text` may have."""
    return min(WORD_BUDGET_BASE + 2 * len(text.split()), WORD_CAP)


def compose(doc: Document, is_followup: bool = False) -> str:
    """The markdown answer, at the most detailed level that fits the word budget."""
    limit = budget(doc.text)
    markdown = ""
    memo: dict = {}  # sections that do not change between levels are composed once
    for level in LEVELS:
        markdown = _compose(doc, is_followup, level, memo)
        if len(markdown.split()) <= limit:
            break
    return markdown


def _ordered_claims(doc: Document) -> list:
    def rank(claim):
        frame = FRAME_ORDER.index(claim.frame) if claim.frame in FRAME_ORDER else len(FRAME_ORDER)
        return (frame, 0 if claim.calculations else 1, 0 if claim.verdict in ("inconsistent", "needs_more") else 1, claim.start)
    return sorted(doc.claims, key=rank)


def _compose(doc: Document, is_followup: bool, level: dict, memo: dict) -> str:
    m = messages(doc.lang)
    h = m["headings"]
    if "ordered" not in memo:
        memo["ordered"] = _ordered_claims(doc)
    claims = memo["ordered"][:level["claims"]]
    key = ("gist", len(claims))
    if key not in memo:
        memo[key] = _gist(doc, claims, is_followup)
    gist, in_gist = memo[key]
    parts = [f"## {h['gist']}", gist]
    section = _claims_section(doc, claims, in_gist, level)
    if section:
        parts += [f"## {h['claims']}", section]
    if doc.terms and level["terms"]:
        if level["terms"] not in memo:
            memo[level["terms"]] = _terms_section(doc, level["terms"])
        parts += [f"## {h['terms']}", memo[level["terms"]]]
    if doc.corrections:
        lines = [m["mistranslation_line"].format(**{k: c[k] for k in ("as", "en", "correction")}) for c in doc.corrections]
        parts += [f"## {h['corrections']}", "\n".join(lines)]
    return "\n\n".join(parts) + "\n"


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


def _clause(text: str) -> str:
    """A restatement as a clause inside a gist sentence (no final stop, first letter kept)."""
    return text.strip().rstrip(".。؟?!").strip()


def _sentence(text: str) -> str:
    text = text.strip()
    if text[:1].islower():
        text = text[0].upper() + text[1:]
    return text if not text or text[-1] in ".!?؟" else text + "."


# ---------------------------------------------------------------------------------------------- claims

def _claims_section(doc: Document, claims: list, in_gist: set[int], level: dict) -> str:
    m = messages(doc.lang)
    verdicts = m["verdict_labels"]
    shown_calcs: set[int] = set()
    items = []
    for number, claim in enumerate(claims, 1):
        if not claim.calculations and claim.verdict == "explained" and (id(claim) in in_gist or level["claims"] <= 4):
            continue  # stated in the gist and nothing to check: not said twice
        if not claim.calculations and claim.verdict == "explained" and not claim.figures and level["steps"] <= 2:
            continue
        if not claim.calculations and claim.verdict == "explained" and not claim.frame and not claim.figures \
                and not restate.same_language(claim.quote, doc.lang):
            continue  # a restatement from a template says too little to list
        if id(claim) not in in_gist:
            head = _sentence(claim.plain)
        elif restate.same_language(claim.quote, doc.lang):
            head = m["claim_ref"].format(quote=_short(claim.quote))
        else:  # the quote is in the other language: a few words of its restatement name it
            head = m["claim_ref"].format(quote=_short(claim.plain, 8))
        line = f"- **{head}**"
        if claim.why:
            line += f" {verdicts[claim.verdict]}: {_sentence(claim.why)}"
        lines = [line]
        new = [i for i in claim.calculations if i not in shown_calcs]
        if any(doc.calculations[i]["calculator"] == "pp_necessity" for i in new):
            # One table for every pipeline check of the answer, under the first claim that needs one.
            new += [i for c in claims for i in c.calculations
                    if doc.calculations[i]["calculator"] == "pp_necessity" and i not in shown_calcs]
            new = list(dict.fromkeys(new))  # a calculation two claims share is one row
        shown_calcs.update(new)
        lines += _calculation_lines(doc, new, level)
        items.append("\n".join(lines))
    return "\n".join(items)


def _short(quote: str, words: int = 12) -> str:
    parts = quote.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


def _calculation_lines(doc: Document, indices: list[int], level: dict) -> list[str]:
    """Each calculation once: a title, and a short Working list folded under it."""
    m = messages(doc.lang)
    runs = [doc.calculations[i] for i in indices]
    lines = []
    pp_runs = [r for r in runs if r["calculator"] == "pp_necessity"]
    if pp_runs:
        lines += ["", "  " + m["pp_table_header"], "  |---|---|---|---|---|"]
        for run in pp_runs:
            out = run["outputs"]
            verdict = (m["verdict_ok"] if not out["dp_comm_bound"] else
                       m["verdict_bound"].format(p=out["min_pp_degree"]) if out["min_pp_degree"] else m["verdict_unfixable"])
            lines.append(f"  | {_chip(run, doc.lang)} | {_model(run) or m['dense_model_name']} | "
                         f"{restate.value('tokens_per_chip', out['tokens_per_chip'])} | "
                         f"{restate.value('critical_tokens_per_chip', out['critical_tokens_per_chip'])} | {verdict} |")
        lines.append("")
    steps_shown = level["steps"]
    for run in runs:
        if run["calculator"] == "pp_necessity" and run is not pp_runs[0]:
            continue
        title = _title(run, doc.lang)
        lines.append(f"  - *{m['calculation']}: {title}*")
        steps = _steps(run, doc.lang)[:steps_shown]
        if steps:
            lines.append(f"    {m['working_label']}:")
            lines += [f"    - {step}" for step in steps]
        sources = run.get("input_sources", {})
        # Which chip was assumed comes first: the hardware is what the reader most needs to know (issue 13.8).
        ordered = sorted(sources.items(), key=lambda item: item[0] != "chip")
        assumed = [s["why"] for _, s in ordered if s.get("source") == "assumed" and "why" in s and not s.get("default")]
        mine = [a for a in dict.fromkeys(assumed) if a in run.get("assumptions", [])]
        if mine and level["terms"]:  # a short answer keeps the first; only the shortest form drops them
            lines.append(f"    {m['assuming']}: " + "; ".join(mine if level["claims"] > 4 else mine[:1]))
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
        rendered = calculator_working.render(run["working"], lang)
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

def _terms_section(doc: Document, detail: str) -> str:
    m = messages(doc.lang)
    if detail == "names":
        return join_names([_name_and_expansion(t, doc.lang) for t in doc.terms], doc.lang) + "."
    lines = []
    for term in doc.terms:
        name, expansion = _display(term, doc.lang)
        definition = _first_sentence(term["definition"])
        if detail == "short" and len(definition.split()) > SHORT_DEFINITION_WORDS:
            definition = " ".join(definition.split()[:SHORT_DEFINITION_WORDS]).rstrip(",;:") + " …"
        if term.get("defined_in_text"):
            definition = m["defined_in_text"].format(meaning=term["defined_in_text"]) + " " + definition
        template = m["term_line"] if expansion and expansion.lower() != name.lower() else m["term_line_plain"]
        lines.append(template.format(term=name, expansion=expansion, definition=definition))
    return "\n".join(lines)


def _name_and_expansion(term: dict, lang: str) -> str:
    name, expansion = _display(term, lang)
    return f"**{name}** ({expansion})" if expansion and expansion.lower() != name.lower() else f"**{name}**"


def _first_sentence(text: str) -> str:
    for mark in (". ", "؛ ", ": "):
        if mark in text[:400]:
            return text[:text.index(mark) + 1].rstrip(":") if mark == ". " else text[:text.index(mark)] + "."
    return text


def _display(term: dict, lang: str) -> tuple[str, str]:
    """The name to show in bold and its expansion, without repeating one inside the other."""
    name, expansion = term["term"], term["expansion"] or ""
    found = term.get("found_as") or ""
    plural = found.lower().rstrip("s") == name.lower().rstrip("s")
    if found and not arabic.ARABIC_LETTER.search(found) and _is_acronym(found) and not plural:
        expansion = expansion.replace(f" ({found})", "")
        name, expansion = found, (term["term"] if found in expansion and lang == "en" else expansion)
    if lang == "ar" and not _is_acronym(name):
        name, expansion = expansion, term["term"]
    if expansion.lower().startswith(name.lower() + " (") and expansion.endswith(")"):
        expansion = expansion[len(name) + 2:-1]
    return name, expansion


def _is_acronym(name: str) -> bool:
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) >= max(2, len(letters) - 1) and " " not in name
