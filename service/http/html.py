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

from calculators.formatting import human_field

ALLOWED_TAGS = {
    "p", "br", "strong", "em", "code", "pre", "ul", "ol", "li", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6",
    "table", "thead", "tbody", "tr", "th", "td", "a", "hr", "abbr", "details", "summary", "dl", "dt", "dd",
    "section", "span", "s", "del",
}
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title", "class", "tabindex", "data-term"},
    "section": {"class", "dir", "data-calculator"},
    "details": {"class"},
    "dl": {"class"},
    "span": {"class"},
    "th": {"align"},
    "td": {"align"},
    "ol": {"start"},
}
URL_SCHEMES = {"http", "https", "mailto"}

WORKING = {"en": "show the working", "ar": "اعرض خطوات الحساب"}
ASSUMPTIONS = {"en": "Assumptions", "ar": "الافتراضات"}
SOURCES = {"en": "Sources", "ar": "المصادر"}


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


def render_markdown(markdown: str, terms: list[dict] | None = None) -> str:
    """Markdown (raw HTML shown as text) to sanitised HTML, with `terms` marked where they appear."""
    md = _markdown()
    tokens = md.parse(markdown or "")
    pattern, spellings = _term_pattern(terms or [])
    if pattern is not None:
        _mark_terms(tokens, pattern, spellings)
    return sanitize(md.renderer.render(tokens, md.options, {}))


def _headline(calculation: dict) -> str:
    outputs = calculation.get("outputs") or {}
    verdict = outputs.get("verdict")
    if isinstance(verdict, str):
        return verdict
    first = next(((k, v) for k, v in outputs.items() if v is not None), None)
    return f"{first[0]} = {human_field(*first)}" if first else ""


def render_calculations(calculations: list[dict], lang: str = "en") -> str:
    """Each calculation's outputs, with its steps, assumptions and sources behind a "show the working" toggle."""
    lang = lang if lang in WORKING else "en"
    parts = []
    for calculation in calculations or []:
        name = html.escape(str(calculation.get("calculator", "")))
        rows = []
        for key, value in (calculation.get("outputs") or {}).items():
            if key == "verdict" or value is None:
                continue
            try:
                shown = human_field(key, value)
            except (TypeError, ValueError):
                shown = str(value)
            rows.append(f"<dt>{html.escape(key)}</dt><dd>{html.escape(shown)}</dd>")
        steps = "".join(f"<li>{html.escape(str(step))}</li>" for step in calculation.get("steps") or [])
        assumptions = "".join(f"<li>{html.escape(str(a))}</li>" for a in calculation.get("assumptions") or [])
        sources = "".join(f"<li>{html.escape(str(s))}</li>" for s in calculation.get("sources") or [])
        parts.append(
            f'<section class="calculation" dir="ltr" data-calculator="{name}">'
            f"<h4><code>{name}</code> {html.escape(_headline(calculation))}</h4>"
            f'<dl class="outputs">{"".join(rows)}</dl>'
            f'<details class="working"><summary>{WORKING[lang]}</summary><ol>{steps}</ol>'
            + (f"<p><strong>{ASSUMPTIONS[lang]}</strong></p><ul>{assumptions}</ul>" if assumptions else "")
            + (f"<p><strong>{SOURCES[lang]}</strong></p><ul>{sources}</ul>" if sources else "")
            + "</details></section>"
        )
    return sanitize("".join(parts))


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
    rendered = {"html": render_markdown(parts[0], parts[1]), "calculations_html": render_calculations(parts[2], parts[3])}
    with _rendered_lock:
        _RENDERED[key] = rendered
        while len(_RENDERED) > _RENDERED_MAX:
            _RENDERED.popitem(last=False)
    return dict(rendered)
