"""Safe HTML for the web page: markdown with raw HTML off, terms marked with their definitions, then nh3.

Whatever the model or the reader wrote, the result has no script, no event handler, no external image
and no link but http, https and mailto.
"""

import hashlib
import html
import json
import re
import threading
from collections import OrderedDict
from functools import cache

import nh3
from markdown_it import MarkdownIt
from markdown_it.token import Token

from calculators import working as calculator_working
from calculators.formatting import human, human_field
from service.i18n import languages
from service.i18n.messages import messages

ALLOWED_TAGS = {
    "p", "br", "strong", "em", "code", "pre", "ul", "ol", "li", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6",
    "table", "thead", "tbody", "tr", "th", "td", "a", "hr", "abbr", "details", "summary", "dl", "dt", "dd",
    "section", "span", "s", "del", "div", "bdi",
}
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title", "class", "tabindex", "data-term"},
    "section": {"class", "dir", "data-calculator"},
    "details": {"class"},
    "div": {"class"},
    "dl": {"class"},
    "p": {"class"},
    "h2": {"class"},
    "dd": {"dir"},
    "blockquote": {"dir"},
    "li": {"dir", "lang"},
    "span": {"class"},
    "th": {"align"},
    "td": {"align"},
    "ol": {"start"},
}
URL_SCHEMES = {"http", "https", "mailto"}

def sanitize(fragment: str) -> str:
    """nh3 with the page's allow-list: the last word on what reaches the browser."""
    return nh3.clean(
        fragment,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
        clean_content_tags={"script", "style", "iframe", "object", "embed", "template", "noscript", "svg", "math"},
        set_tag_attribute_values={"a": {"target": "_blank"}},
    )


def _image_as_text(renderer, tokens, index, options, env) -> str:
    """An image becomes its description: an image from another origin could carry the conversation away."""
    alt = "".join(child.content for child in (tokens[index].children or []))
    return html.escape(f"[{alt}]" if alt else "[image]")


@cache
def _markdown() -> MarkdownIt:
    md = MarkdownIt("js-default", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.add_render_rule("image", _image_as_text)
    # A wide table scrolls inside its own box instead of widening the page (a phone is 390 px wide).
    md.add_render_rule("table_open", lambda *args: '<div class="table-wrap"><table>')
    md.add_render_rule("table_close", lambda *args: "</table></div>")
    # A quote keeps its own direction: the English point quoted in an Arabic answer is not laid out right to left
    md.add_render_rule("blockquote_open", lambda *args: '<blockquote dir="auto">\n')
    return md


def _term_pattern(terms: list[dict]) -> tuple[re.Pattern | None, dict[str, dict]]:
    """One regex for every way the terms are written, longest first, and the term each spelling names."""
    spellings: dict[str, dict] = {}
    for term in terms[:300]:
        for spelling in (term.get("term"), term.get("found_as")):
            if isinstance(spelling, str) and len(spelling.strip()) >= 2:
                spellings.setdefault(spelling.strip().casefold(), term)
    if not spellings:
        return None, {}
    parts = []
    for spelling in sorted(spellings, key=len, reverse=True):
        original = next(s for t in [spellings[spelling]] for s in (t.get("term"), t.get("found_as"))
                        if isinstance(s, str) and s.strip().casefold() == spelling).strip()
        escaped = re.escape(original)
        parts.append(f"(?i:{escaped})" if any(c.islower() for c in original) else escaped)
    return re.compile(r"(?<![\w-])(?:" + "|".join(parts) + r")(?![\w-])"), spellings


def _abbr_open(term: dict) -> str:
    expansion = term.get("expansion") or term.get("term") or ""
    definition = term.get("definition") or ""
    title = f"{expansion}: {definition}" if definition else expansion
    return (f'<abbr class="term" tabindex="0" data-term="{html.escape(str(term.get("id") or term.get("term")))}"'
            f' title="{html.escape(title)}">')


def _mark_terms(tokens: list[Token], pattern: re.Pattern, spellings: dict[str, dict]) -> None:
    """Wrap each spelling of a term in plain text (not in links or code) with an <abbr> carrying its definition."""
    for block in tokens:
        if block.type != "inline" or not block.children:
            continue
        children, in_link = [], 0
        for child in block.children:
            in_link += child.type == "link_open"
            in_link -= child.type == "link_close"
            if child.type != "text" or in_link or not pattern.search(child.content):
                children.append(child)
                continue
            position = 0
            for match in pattern.finditer(child.content):
                if match.start() > position:
                    children.append(Token("text", "", 0, content=child.content[position:match.start()]))
                children.append(Token("html_inline", "", 0, content=_abbr_open(spellings[match.group(0).casefold()])))
                children.append(Token("text", "", 0, content=match.group(0)))
                children.append(Token("html_inline", "", 0, content="</abbr>"))
                position = match.end()
            if position < len(child.content):
                children.append(Token("text", "", 0, content=child.content[position:]))
        block.children = children


def _drop_calculation_items(tokens: list[Token], marker: str) -> list[Token]:
    """Remove the list items that open with an emphasised "<marker> ..." (the offline answer's calculation notes)."""
    # The page shows every calculation as a card with its working folded; written out again in the text
    # it would be shown twice.
    kept, index = [], 0
    while index < len(tokens):
        token = tokens[index]
        if token.type == "list_item_open" and _opens_with(tokens, index, marker):
            end = index + 1
            while not (tokens[end].type == "list_item_close" and tokens[end].level == token.level):
                end += 1
            index = end + 1
            continue
        kept.append(token)
        index += 1
    # a list whose every item went goes too
    result = []
    for token in kept:
        if token.type in ("bullet_list_close", "ordered_list_close") and result and \
                result[-1].type == token.type.replace("close", "open") and result[-1].level == token.level:
            result.pop()
            continue
        result.append(token)
    return result


def _opens_with(tokens: list[Token], index: int, marker: str) -> bool:
    inline = next((t for t in tokens[index + 1:index + 3] if t.type == "inline"), None)
    children = inline.children if inline is not None else None
    return bool(children) and len(children) > 1 and children[0].type == "em_open" \
        and children[1].type == "text" and children[1].content.startswith(marker)


def render_markdown(markdown: str, terms: list[dict] | None = None, calculation_marker: str | None = None) -> str:
    """Markdown (raw HTML shown as text) to sanitised HTML, `terms` marked, items opening with `calculation_marker` left out."""
    md = _markdown()
    tokens = md.parse(markdown or "")
    if calculation_marker:
        tokens = _drop_calculation_items(tokens, calculation_marker)
    pattern, spellings = _term_pattern(terms or [])
    if pattern is not None:
        _mark_terms(tokens, pattern, spellings)
    return sanitize(md.renderer.render(tokens, md.options, {}))


def _headline(calculation: dict, words: dict) -> str:
    """The calculation's verdict in the answer's language, when it has one (pp_necessity, roofline)."""
    outputs, inputs = calculation.get("outputs") or {}, calculation.get("inputs") or {}
    if calculation.get("calculator") == "pp_necessity" and "dp_comm_bound" in outputs:
        pp_degree = inputs.get("pp_degree") or 1
        if not outputs["dp_comm_bound"]:
            return words["pp_with"].format(pp=pp_degree) if pp_degree > 1 else words["pp_ok"]
        if outputs.get("min_pp_degree"):
            return words["pp_bound"].format(p=outputs["min_pp_degree"])
        return words["pp_unfixable"]
    if isinstance(outputs.get("bound"), str):
        return words["roofline"].format(bound=words["values"].get(outputs["bound"], outputs["bound"]))
    return ""


def _catalog_name(kind: str, key) -> str | None:
    from calculators import catalog

    if not key:
        return None
    try:
        return (catalog.models() if kind == "model" else catalog.hardware()).get(kind, key)["name"]
    except Exception:  # a custom value rather than a catalog entry: shown as given
        return str(key)


def _title(calculation: dict, m: dict, rtl: bool = False) -> str:
    """The card's heading: what was calculated, and for which model and chip when they are named."""
    name = str(calculation.get("calculator", ""))
    name = m.get("calculator_names", {}).get(name, name.replace("_", " "))
    name = name[:1].upper() + name[1:]
    inputs = calculation.get("inputs") or {}
    model, chip = _catalog_name("model", inputs.get("model")), _catalog_name("chip", inputs.get("chip"))
    if rtl and model and chip:  # each name in its own isolate, or "DeepSeek-V3 على Google TPU v5p" reads out of order
        model, chip = f"\u2068{model}\u2069", f"\u2068{chip}\u2069"
    subject = m["card"]["model_on_chip"].format(model=model, chip=chip) if model and chip else model or chip
    return m["card"]["title"].format(name=name, subject=subject) if subject else name


def _layout(layout: dict, words: dict) -> str:
    """A parallel layout in acronyms, which read the same in every language: "TP 8 × PP 2 × DP 64, ZeRO-1"."""
    degrees = [f"{name} {layout[key]}" for name, key in (("TP", "tp_degree"), ("PP", "pp_degree"), ("VPP", "virtual_stages"),
               ("EP", "ep_degree"), ("CP", "cp_degree"), ("DP", "dp_degree")) if isinstance(layout.get(key), int)
               and (layout[key] > 1 or key in ("tp_degree", "pp_degree", "dp_degree"))]
    extras = [f"ZeRO-{layout['zero_stage']}"] if layout.get("zero_stage") else []
    if layout.get("recompute") in ("selective", "full"):
        extras.append(words["values"][layout["recompute"]])
    return " × ".join(degrees) + "".join(f", {extra}" for extra in extras)


def _shown_value(key: str, value, words: dict, foreign: bool) -> str:
    if isinstance(value, bool):
        return words["yes"] if value else words["no"]
    if isinstance(value, str):
        return words["values"].get(value, value)
    if key == "layout" and isinstance(value, dict):
        return _layout(value, words)
    if "fraction" in key and isinstance(value, (int, float)):  # a share written as a percentage
        return human(value, "fraction")
    try:
        shown = human_field(key, value)
    except (TypeError, ValueError):
        return str(value)
    # Long times are written in days, an English word; the day's unit symbol (d) reads in any language.
    return shown[:-len(" days")] + " d" if foreign and shown.endswith(" days") else shown


def _in_language(text: str, lang: str) -> bool:
    """Whether `text` is written in `lang` (for a language with its own letters: mostly those letters)."""
    letters = languages.get(lang).letters
    if letters is None:
        return True
    own, latin = len(letters.findall(text)), len(re.findall(r"[A-Za-z]", text))
    return own > 0 and own >= 0.3 * (own + latin)


def _steps(calculation: dict, lang: str) -> list[str]:
    """The working in `lang`, from the structured steps when the calculation has them."""
    if calculation.get("working"):
        try:
            return calculator_working.render(calculation["working"], lang)
        except (KeyError, TypeError, ValueError):  # an older or foreign shape: the stored sentences instead
            pass
    return [str(step) for step in calculation.get("steps") or []]


_CATALOG_SOURCE = re.compile(r"^(model|chip) (\S+): (data/\S+)")


def _source(source: str) -> str:
    """A source as the page cites it: a catalog entry by its name and file ("Kimi K2, data/models.json")."""
    found = _CATALOG_SOURCE.match(source)
    if found:
        return f"{_catalog_name(found[1], found[2])}, {found[3]}"
    return source


def _distinct(calculations: list[dict]) -> list[dict]:
    """Each calculation once: the same calculator on the same inputs is the same calculation."""
    seen, kept = set(), []
    for calculation in calculations or []:
        if not isinstance(calculation, dict):
            continue
        key = json.dumps([calculation.get("calculator"), calculation.get("inputs")], sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            kept.append(calculation)
    return kept


def render_calculations(calculations: list[dict], lang: str = "en") -> str:
    """Each distinct calculation as a card in the answer's language: a heading, its results, its working folded."""
    # Sentences a calculator wrote only in English (its general assumptions, a step with no translation)
    # are left out of another language's card rather than shown half translated.
    lang = languages.get(lang).code
    m = messages(lang)
    words, foreign = m["card"], lang != languages.DEFAULT
    direction = languages.get(lang).direction
    parts = []
    for calculation in _distinct(calculations):
        name = html.escape(str(calculation.get("calculator", "")))
        rows = []
        for key, value in (calculation.get("outputs") or {}).items():
            if key == "verdict" or value is None or isinstance(value, list) or (isinstance(value, dict) and key != "layout"):
                continue
            label = words["fields"].get(key, key.replace("_", " "))
            # a quantity ("17.28 TB/s") reads left to right in every language; a word ("yes") goes with the card
            direction_of_value = "" if isinstance(value, (bool, str)) else ' dir="ltr"'
            rows.append(f"<dt>{html.escape(label)}</dt><dd{direction_of_value}>{html.escape(_shown_value(key, value, words, foreign))}</dd>")
        steps = "".join(f"<li>{html.escape(step)}</li>" for step in _steps(calculation, lang)
                        if not foreign or _in_language(step, lang))
        assumptions = "".join(f"<li>{html.escape(str(a))}</li>" for a in calculation.get("assumptions") or []
                              if not foreign or _in_language(str(a), lang))
        # References are cited as published (English, left to right), like a bibliography in any language.
        sources = "".join(f'<li dir="ltr" lang="en">{html.escape(_source(str(s)))}</li>'
                          for s in calculation.get("sources") or [])
        headline = _headline(calculation, words)
        parts.append(
            f'<section class="calculation" dir="{direction}" data-calculator="{name}">'
            f"<h3>{html.escape(_title(calculation, m, direction == 'rtl'))}</h3>"
            + (f'<p class="verdict{" bound" if (calculation.get("outputs") or {}).get("dp_comm_bound") is True else ""}">'
               f"{html.escape(headline)}</p>" if headline else "")
            + f'<dl class="outputs">{"".join(rows)}</dl>'
            + (f'<details class="working"><summary>{html.escape(words["working"])}</summary>'
               + (f"<ol>{steps}</ol>" if steps else "")
               + (f"<p><strong>{html.escape(words['assumptions'])}</strong></p><ul>{assumptions}</ul>" if assumptions else "")
               + (f"<p><strong>{html.escape(words['sources'])}</strong></p><ul>{sources}</ul>" if sources else "")
               + "</details>" if steps or assumptions or sources else "")
            + "</section>"
        )
    if not parts:
        return ""
    return sanitize(f'<h2 class="calculations-title">{html.escape(words["section"])}</h2>' + "".join(parts))


_RENDERED: "OrderedDict[bytes, dict]" = OrderedDict()
_RENDERED_MAX = 256
_rendered_lock = threading.Lock()


def render_result(result: dict) -> dict:
    """The HTML the page shows for an explanation object (the same answer is rendered once per process).

    Rendering takes about 15 ms for a long answer, and a conversation's answers were rendered again on
    every read: under load a GET of a conversation took 38 ms. Cached answers recur, so this remembers
    the last few hundred renderings by a digest of what they depend on.
    """
    parts = (result.get("explanation") or "", result.get("terms") or [], result.get("calculations") or [],
             result.get("language") or "en")
    key = hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).digest()
    with _rendered_lock:
        found = _RENDERED.get(key)
        if found is not None:
            _RENDERED.move_to_end(key)
            return dict(found)
    marker = f"{messages(parts[3])['calculation']}:" if parts[2] else None
    rendered = {"html": render_markdown(parts[0], parts[1], marker),
                "calculations_html": render_calculations(parts[2], parts[3])}
    with _rendered_lock:
        _RENDERED[key] = rendered
        while len(_RENDERED) > _RENDERED_MAX:
            _RENDERED.popitem(last=False)
    return dict(rendered)
