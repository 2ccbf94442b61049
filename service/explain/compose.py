"""Offline explainer: glossary terms + calculator grounding composed into markdown, deterministic, no network."""

from calculators import catalog, jsonable
from calculators.formatting import human_field

from service.i18n import arabic
from service.explain import glossary
from service.explain.grounding import Grounding, ground
from service.i18n.messages import join_names, messages

MAX_INPUT_CHARS = 100_000


def explain_offline(text: str, lang: str | None = None, context: str = "") -> dict:
    """The explanation object of DESIGN.md for `text`, composed without a model.

    `context` is what the conversation said before (a follow-up such as "and on TPUs?" keeps the
    models, numbers and topics of the thread it follows); only `text`'s own terms are explained.
    """
    lang = lang or arabic.detect_language(text)
    matches = glossary.detect(text)
    if context:  # the new words first, so a number the follow-up states wins over the thread's
        combined = f"{text}\n{context}"
        grounding = ground(combined, glossary.detect(combined))
    else:
        grounding = ground(text, matches)
    terms = [glossary.describe(match, lang) for match in matches]
    corrections = _mistranslations(text, matches, lang)
    warnings = [c["warning"] for c in corrections] + [f"calculation skipped: {f}" for f in grounding.failures]
    markdown = compose(lang, terms, grounding, corrections)
    return {
        "explanation": markdown,
        "language": lang,
        "backend": "offline",
        "cached": False,
        "terms": terms,
        "calculations": [jsonable(run) for run in grounding.runs],
        "warnings": warnings,
    }


def _fragments_present(phrase: str, normalised_text: str) -> bool:
    """All parts of `phrase` (split at '...') occur in the text, compared in normalised form."""
    parts = [p.strip() for p in phrase.replace("…", "...").split("...") if p.strip()]
    return bool(parts) and all(_normalise(p) in normalised_text for p in parts)


def _normalise(text: str) -> str:
    words = []
    for word in text.lower().split():
        word = word.strip(".,;:()\"'«»“”،؛؟")
        words.append(arabic.normalise_token(word) if arabic.ARABIC_LETTER.search(word) else word)
    return " ".join(words)


def _mistranslations(text: str, matches: list[glossary.Match], lang: str) -> list[dict]:
    """Known mistranslations of the matched terms (and of any glossary term) that the text contains."""
    normalised = _normalise(text)
    found = []
    seen_ids = {m.entry["id"] for m in matches}
    candidates = [m.entry for m in matches] + [e for e in glossary.load().entries if e.get("mistranslations") and e["id"] not in seen_ids]
    seen_phrases: set[str] = set()
    for entry in candidates:
        for item in entry.get("mistranslations") or []:
            if (item.get("as") or item.get("en")) in seen_phrases:
                continue  # one phrase garbling two terms (K2 and DSV3) is corrected once
            if not any(_fragments_present(phrase, normalised) for phrase in (item.get("as"), item.get("en")) if phrase):
                continue
            seen_phrases.add(item.get("as") or item.get("en"))
            correction = item.get("ar_correction") if lang == "ar" and item.get("ar_correction") else item.get("correction", "")
            found.append({
                "entry": entry,
                "as": item.get("as") or item.get("en"),
                "en": item.get("en") or item.get("as"),
                "correction": correction,
                "warning": f"'{entry['term']}': the source's rendering “{item.get('as') or item.get('en')}” (“{item.get('en', '')}”) is wrong; {item.get('correction', '')}",
            })
    return found


def compose(lang: str, terms: list[dict], grounding: Grounding, corrections: list[dict]) -> str:
    """The markdown explanation: gist, terms, numbers, intuition, corrections."""
    m = messages(lang)
    h = m["headings"]
    parts = [f"## {h['gist']}", _gist(lang, terms, grounding)]
    if terms:
        parts += [f"## {h['terms']}", "\n".join(_term_lines(lang, terms))]
    parts += [f"## {h['numbers']}", _numbers(lang, grounding)]
    intuitions = [m["topic_intuitions"][t] for t in _topics_shown(grounding) if t in m["topic_intuitions"]]
    if intuitions:
        parts += [f"## {h['intuition']}", "\n\n".join(intuitions)]
    if corrections or grounding.failures:
        lines = [m["mistranslation_line"].format(**{k: c[k] for k in ("as", "en", "correction")}) for c in corrections]
        lines += [m["failure_line"].format(detail=f) for f in grounding.failures]
        parts += [f"## {h['corrections']}", "\n".join(lines)]
    return "\n\n".join(parts) + "\n"


def _topics_shown(grounding: Grounding) -> list[str]:
    shown = list(dict.fromkeys(run["calculator"] for run in grounding.runs))
    return shown or [t for t in grounding.topics if t in ("pp_necessity", "pipeline_bubble", "mfu")]


def _gist(lang: str, terms: list[dict], grounding: Grounding) -> str:
    m = messages(lang)
    if not terms:
        return m["gist"]["no_terms"]
    counts: dict[str, int] = {}
    for term in terms:
        if term.get("category") in m["categories"]:
            counts[term["category"]] = counts.get(term["category"], 0) + 1
    categories = sorted(counts, key=lambda c: -counts[c])  # stable: ties keep first appearance
    lines = [m["gist"]["about"].format(topics=join_names([m["categories"][c] for c in categories[:4]], lang))]
    lines += _pp_gist(lang, grounding)
    for run in grounding.runs:
        out = run["outputs"]
        if run["calculator"] == "mfu":
            lines.append(m["gist"]["mfu"].format(mfu=human_field("mfu", out["mfu"])))
        elif run["calculator"] == "training_time":
            lines.append(m["gist"]["training_time"].format(days=human_field("days", out["days"])))
        elif run["calculator"] == "training_flops":
            model = _model_name(run) or human_field("params", run["inputs"]["params"])
            lines.append(m["gist"]["training_flops"].format(model=model, tokens=human_field("tokens", run["inputs"]["tokens"]),
                                                            flops=human_field("total_flops", out["total_flops"])))
        elif run["calculator"] == "model_state_memory":
            lines.append(m["gist"]["model_state_memory"].format(bytes=human_field("bytes_total", out["bytes_total"])))
    bubbles = {run["inputs"]["schedule"]: run for run in grounding.runs if run["calculator"] == "pipeline_bubble"}
    if "1f1b" in bubbles and "interleaved" in bubbles:
        plain, inter = bubbles["1f1b"], bubbles["interleaved"]
        lines.append(m["gist"]["bubble"].format(
            p=human_field("pp_degree", plain["inputs"]["pp_degree"]), m=human_field("microbatches", plain["inputs"]["microbatches"]),
            fraction=human_field("bubble_fraction", plain["outputs"]["bubble_fraction"]),
            fraction_v=human_field("bubble_fraction", inter["outputs"]["bubble_fraction"])))
    return " ".join(lines)


def _model_name(run: dict) -> str | None:
    model_id = run["inputs"].get("model")
    return catalog.models().get("model", model_id)["name"] if model_id else None


def _chip_name(run: dict, lang: str = "en") -> str:
    """The chip's catalog name; in Arabic without the English gloss in parentheses ("(per Blackwell GPU)")."""
    if not run["inputs"].get("chip"):
        return ""
    name = catalog.hardware().get("chip", run["inputs"]["chip"])["name"]
    return name.split(" (")[0] if lang != "en" else name


def _pp_gist(lang: str, grounding: Grounding) -> list[str]:
    m = messages(lang)
    by_model: dict[str, list[dict]] = {}
    for run in grounding.runs:
        if run["calculator"] == "pp_necessity":
            by_model.setdefault(_model_name(run) or "", []).append(run)
    lines = []
    for model, runs in by_model.items():
        good = join_names([_chip_name(r, lang) for r in runs if not r["outputs"]["dp_comm_bound"]], lang)
        bad = join_names([_chip_name(r, lang) for r in runs if r["outputs"]["dp_comm_bound"]], lang)
        key = "pp_split" if good and bad else "pp_all_good" if good else "pp_all_bad"
        if len(runs) == 1:
            key = "pp_one_good" if good else "pp_one_bad"
        lines.append(m["gist"][key].format(good=good, bad=bad, model=model or m["dense_model_name"]))
    return lines


def _term_lines(lang: str, terms: list[dict]) -> list[str]:
    m = messages(lang)
    lines = []
    for term in terms:
        name, expansion = _display(term, lang)
        template = m["term_line"] if expansion and expansion.lower() != name.lower() else m["term_line_plain"]
        lines.append(template.format(term=name, expansion=expansion, definition=term["definition"]))
        if term.get("ambiguous"):
            chosen = term["expansion"]
            lines.append(m["ambiguous_note"].format(found_as=term["found_as"], readings=join_names(term["readings"], lang), chosen=chosen))
        if term.get("intuition"):
            lines.append(m["intuition_line"].format(intuition=term["intuition"]))
    return lines


def _display(term: dict, lang: str) -> tuple[str, str]:
    """The name to show in bold and its expansion, without repeating one inside the other."""
    name, expansion = term["term"], term["expansion"] or ""
    found = term.get("found_as") or ""
    plural = found.lower().rstrip("s") == name.lower().rstrip("s")
    if found and not arabic.ARABIC_LETTER.search(found) and _is_acronym(found) and not plural:
        # Show the term as the reader wrote it: "DSV3 (DeepSeek-V3)", "PPVP (virtual pipeline parallelism)".
        expansion = expansion.replace(f" ({found})", "")
        name, expansion = found, (term["term"] if found in expansion and lang == "en" else expansion)
    if lang == "ar" and not _is_acronym(name):
        name, expansion = expansion, term["term"]
    if expansion.lower().startswith(name.lower() + " (") and expansion.endswith(")"):
        expansion = expansion[len(name) + 2:-1]  # "bandwidth (data rate of a link)" -> "data rate of a link"
    return name, expansion


def _is_acronym(name: str) -> bool:
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) >= max(2, len(letters) - 1) and " " not in name


def _numbers(lang: str, grounding: Grounding) -> str:
    m = messages(lang)
    if not grounding.runs:
        return m["no_numbers"]
    blocks = [m["numbers_intro"]]
    pp_runs = [r for r in grounding.runs if r["calculator"] == "pp_necessity"]
    if pp_runs:
        rows = [m["pp_table_intro"], "", m["pp_table_header"], "|---|---|---|---|---|"]
        for run in pp_runs:
            out = run["outputs"]
            verdict = (m["verdict_ok"] if not out["dp_comm_bound"] else
                       m["verdict_bound"].format(p=out["min_pp_degree"]) if out["min_pp_degree"] else m["verdict_unfixable"])
            rows.append(f"| {_chip_name(run, lang)} | {_model_name(run) or m['dense_model_name']} | {human_field('tokens_per_chip', out['tokens_per_chip'])} "
                        f"| {human_field('critical_tokens_per_chip', out['critical_tokens_per_chip'])} | {verdict} |")
        blocks.append("\n".join(rows))
    bubble_runs = [r for r in grounding.runs if r["calculator"] == "pipeline_bubble"]
    if bubble_runs:
        rows = [m["bubble_table_intro"], "", m["bubble_table_header"], "|---|---|---|"]
        for run in bubble_runs:
            out = run["outputs"]
            rows.append(f"| {_schedule_name(lang, run)} | {human_field('bubble_fraction', out['bubble_fraction'])} "
                        f"| {human_field('activation_memory_factor', out['activation_memory_factor'])} |")
        blocks.append("\n".join(rows))
    other = [r for r in grounding.runs if r["calculator"] not in ("pp_necessity", "pipeline_bubble")]
    if other:
        blocks.append("\n".join(m["result_line"].format(title=_title(lang, r), summary=_summary(lang, r)) for r in other))
    blocks.append(_working(lang, grounding))
    notes = [m["assumption_notes"][key].format(model=model) for key, model in grounding.notes if key in m["assumption_notes"]]
    if notes:
        blocks.append(f"**{m['headings']['assumptions']}**\n\n" + "\n".join(f"- {n}" for n in notes))
    return "\n\n".join(blocks)


def _schedule_name(lang: str, run: dict) -> str:
    schedule = run["inputs"]["schedule"]
    return messages(lang)["schedules"][schedule].format(v=human_field("virtual_stages", run["inputs"]["virtual_stages"]))


def _title(lang: str, run: dict) -> str:
    m = messages(lang)
    name = run["calculator"]
    if name == "pp_necessity":
        return m["titles"]["pp_necessity"].format(chip=_chip_name(run, lang), model=_model_name(run) or "")
    if name == "pipeline_bubble":
        return m["titles"]["pipeline_bubble"].format(schedule=_schedule_name(lang, run))
    label = m.get("calculator_names", {}).get(name, name)
    subject = _model_name(run) or _chip_name(run, lang)
    return f"{label} ({subject})" if subject else label


def _localised_value(lang: str, name: str, value):
    m = messages(lang)
    if isinstance(value, bool):
        return m.get("verdict_words", {}).get(str(value).lower(), "yes" if value else "no")
    if name == "bound" and lang != "en":
        return m.get("bound_words", {}).get(value, value)
    return human_field(name, value)


def _summary(lang: str, run: dict) -> str:
    template = messages(lang)["summaries"].get(run["calculator"], "")
    values = {k: _localised_value(lang, k, v) for k, v in run["outputs"].items()}
    return template.format(**values)


def _working(lang: str, grounding: Grounding) -> str:
    """Each calculation's steps: the calculator's own for English, labelled inputs, formula and results otherwise."""
    m = messages(lang)
    sections = [f"**{m['headings']['working']}**"]
    for index, run in enumerate(grounding.runs, 1):
        title = _title(lang, run)
        if lang == "en":
            steps = "\n".join(f"   {i}. {step}" for i, step in enumerate(run["steps"], 1))
            sections.append(f"{index}. *{title}*\n{steps}")
            continue
        labels = m.get("field_labels", {})
        inputs = "؛ ".join(f"{labels.get(k, k)}: {_input_value(k, v)}" for k, v in run["inputs"].items()
                          if v is not None and k in labels)
        outputs = "؛ ".join(f"{labels.get(k, k)}: {_localised_value(lang, k, v)}" for k, v in run["outputs"].items()
                           if k in labels and v is not None)
        sections.append(f"{index}. *{title}*\n   - {m['working_inputs']}: {inputs}\n   - {m['working_formula']}: "
                        f"{m['formulas'].get(run['calculator'], '')}\n   - {m['working_outputs']}: {outputs}")
    return "\n".join(sections)


def _input_value(name: str, value) -> str:
    if name == "chip":
        return catalog.hardware().get("chip", value)["name"].split(" (")[0]
    if name == "model":
        return catalog.models().get("model", value)["name"]
    return human_field(name, value)
