"""The Jinja2 templates in prompts/: every text a model reads, and the version that feeds cache keys."""

import hashlib
import json
from functools import cache

from calculators.resources import prompts_dir
from pathlib import Path





@cache
def version() -> str:
    """prompts/VERSION plus a digest of every template, so an edited template never serves a stale cache."""
    folder = prompts_dir()
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(path.read_bytes())
    return f"{(folder / 'VERSION').read_text(encoding='utf-8').strip()}+{digest.hexdigest()[:12]}"


@cache
def _environment():
    # Imported here: only the model path renders prompts, and the offline path must stay fast to start.
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(prompts_dir())),
        undefined=jinja2.StrictUndefined,  # a missing variable is a bug, not an empty string
        keep_trailing_newline=False,
        autoescape=False,  # plain text for a model, not HTML
    )


def render(template: str, **variables) -> str:
    """Render `template` (a path inside prompts/)."""
    return _environment().get_template(template).render(**variables).strip()


def language_instructions(lang: str) -> str:
    """How to write in `lang` (English when there is no template for it)."""
    from service.i18n import languages

    language = languages.get(lang)
    if language.prompt_path is None:
        language = languages.get(languages.DEFAULT)
    return language.prompt_path.read_text(encoding="utf-8").strip()


def system_prompt(lang: str) -> str:
    """The system prompt for answers in `lang`."""
    return render("system.j2", language_instructions=language_instructions(lang))


def user_turn(text: str, kind: str = "explain") -> str:
    """A user turn: the thread to explain (delimited as data) or a follow-up question."""
    # A thread that writes its own closing tag must not step outside the data delimiters.
    for tag in ("thread", "question"):
        text = text.replace(f"</{tag}>", f"</ {tag}>").replace(f"<{tag}>", f"< {tag}>")
    return render("user_explain.j2" if kind == "explain" else "user_followup.j2", text=text)


def final_round_note() -> str:
    """What the model reads when it has used its last round of tool calls."""
    return render("final_round.j2")


def tool_description(name: str, summary: str | None, calculator: bool = True) -> str:
    """The description of one tool: its summary plus when and how to use it."""
    return render("tool_description.j2", name=name, summary=summary, calculator=calculator)


@cache
def glossary_schema() -> dict:
    """The input schema of the glossary_lookup tool."""
    return json.loads((prompts_dir() / "glossary_lookup.schema.json").read_text(encoding="utf-8"))


@cache
def config_schema() -> dict:
    """The input schema of the read_config tool."""
    return json.loads((prompts_dir() / "read_config.schema.json").read_text(encoding="utf-8"))
