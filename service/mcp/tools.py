"""What the MCP tools are and what they do, without the SDK: their schemas, and one call each through the code
paths `unjargon explain --json`, `unjargon calc --json` and the model's glossary look-up already use."""

from types import SimpleNamespace
from typing import Callable

import calculators

EXPLAIN, LOOKUP_TERM = "explain", "lookup_term"


class ToolInputError(Exception):
    """Arguments a tool cannot use; the message is the line `unjargon` prints for the same mistake."""


def _languages() -> list[str]:
    from service.i18n import languages

    return list(languages.codes())


def explain_schema() -> dict:
    """The explain tool's arguments: the text, and optionally the answer language and backend."""
    return {
        "type": "object",
        "properties": {
            "text": {"type": "string", "minLength": 1,
                     "description": "the thread, post or chat to explain, as the reader pasted it"},
            "lang": {"type": "string", "enum": _languages(),
                     "description": "answer language (default: the text's own language)"},
            "backend": {"type": "string", "description": "auto, offline or anthropic (default: the server's)"},
        },
        "required": ["text"],
        "additionalProperties": False,
    }


def lookup_schema() -> dict:
    """The lookup_term tool's arguments: the term, the answer language and the words around it."""
    return {
        "type": "object",
        "properties": {
            "term": {"type": "string", "minLength": 1,
                     "description": "the acronym or term as written, e.g. 'PP', 'MFU', 'NVL72', 'DSV3' or an Arabic term"},
            "lang": {"type": "string", "enum": _languages(), "description": "language of the definition (default en)"},
            "context": {"type": "string",
                        "description": "the sentence the term appears in: chooses the reading of an ambiguous acronym (DP, SP, EP, K2, ...)"},
        },
        "required": ["term"],
        "additionalProperties": False,
    }


# Output schemas: what every result carries; the client checks structured results against them.
_STRINGS = {"type": "array", "items": {"type": "string"}}
CALCULATION_OUTPUT = {
    "type": "object",
    "properties": {"calculator": {"type": "string"}, "inputs": {"type": "object"}, "outputs": {"type": "object"},
                   "steps": _STRINGS, "assumptions": _STRINGS, "warnings": _STRINGS, "sources": _STRINGS,
                   "working": {"type": "array"}, "notes": {"type": "object"}},
    "required": ["calculator", "inputs", "outputs", "steps", "assumptions", "sources"],
}
EXPLANATION_OUTPUT = {
    "type": "object",
    "properties": {"explanation": {"type": "string"}, "language": {"type": "string"}, "backend": {"type": "string"},
                   "cached": {"type": "boolean"}, "terms": {"type": "array"}, "calculations": {"type": "array"},
                   "warnings": _STRINGS, "plain": {"type": ["string", "null"]}, "figures": {"type": ["array", "null"]},
                   "claims": {"type": ["array", "null"]}, "conversation_id": {"type": "string"},
                   "usage": {"type": ["object", "null"]}},
    "required": ["explanation", "language", "backend", "cached", "terms", "calculations", "warnings"],
}
LOOKUP_OUTPUT = {
    "type": "object",
    "properties": {"term": {"type": "string"}, "entries": {"type": "array", "items": {"type": "object"}}},
    "required": ["term", "entries"],
}


def definitions() -> list[dict]:
    """Every tool: name, description, input schema (the registry's for a calculator) and output schema."""
    from service.llm import prompts

    tools = [
        {"name": EXPLAIN, "input_schema": explain_schema(), "output_schema": EXPLANATION_OUTPUT,
         "description": "Explain a jargon-heavy text about training large AI models in plain language: every acronym "
                        "and term expanded and defined, every figure it states read, and every claim with numbers "
                        "checked by a calculator whose working is shown. Returns the explanation (markdown) with "
                        "terms, figures, claims and calculations."},
        {"name": LOOKUP_TERM, "input_schema": lookup_schema(), "output_schema": LOOKUP_OUTPUT,
         "description": "Look up an acronym or term of art of large-model training in unjargon's sourced glossary: "
                        "its expansion, definition, intuition and source, and for an ambiguous acronym every reading "
                        "with the reading the context chooses."},
    ]
    tools += [{"name": name, "input_schema": calculator_schema(name), "output_schema": CALCULATION_OUTPUT,
               "description": prompts.tool_description(name, calculators.summary(name))}
              for name in calculators.names()]
    return tools


def calculator_schema(name: str) -> dict:
    """The registry's JSON schema of a calculator, except that a field `chip` or `model` can fill is not listed as
    required: it is required only when they are not given, as its description says (a rule JSON Schema could say
    only with a top-level anyOf, which Claude's API refuses in a tool's schema)."""
    import copy

    from calculators import catalog, registry

    calculator = registry.get(name)
    schema = copy.deepcopy(calculators.schema(name))
    fillers: dict[str, str] = {}
    if calculator.takes_model:
        fillers.update({spec.partition("=")[0]: "model" for spec in calculator.model_fields})
    if calculator.takes_chip:
        filled = {key for entry in catalog.hardware().entries for key in catalog.chip_fields(entry)}
        fillers.update({key: "chip" for key in filled if key in calculator.by_name})
    required = []
    for field in schema["required"]:
        if field in fillers:
            schema["properties"][field]["description"] += f"; required unless {fillers[field]} is given"
        else:
            required.append(field)
    schema["required"] = required
    return schema


def cli_line(message: str) -> str:
    """The one line `unjargon` prints on standard error for an input error (service/cli/main.py's _guard)."""
    return f"unjargon: error: {message}"


def run_calculator(name: str, arguments: dict) -> dict:
    """A calculator's result exactly as `unjargon calc NAME --input JSON --json` prints it."""
    try:
        return calculators.jsonable(calculators.run(name, arguments))
    except calculators.CalculatorInputError as exc:
        raise ToolInputError(cli_line(str(exc))) from None


def explain_settings(settings, arguments: dict):
    """The settings one explain call runs under, with its lang and backend checked as `unjargon explain
    --lang/--backend` checks them (same messages)."""
    from service.config import SettingsError, _languages_accepted
    from service.i18n import languages

    extra = set(arguments) - {"text", "lang", "backend"}
    if extra:
        raise ToolInputError(cli_line(f"{sorted(extra)[0]}: is not an argument of explain (arguments: text, lang, backend)"))
    overrides = {key: arguments[key] for key in ("lang", "backend") if arguments.get(key) is not None}
    try:
        settings = settings.model_copy(update=overrides) if overrides else settings
        if overrides.get("lang") is not None and settings.lang not in languages.codes(settings.languages_dir):
            raise SettingsError("--lang", _languages_accepted(settings.languages_dir), settings.lang)
    except SettingsError as exc:
        raise ToolInputError(cli_line(str(exc))) from None
    return settings


def explain_text(arguments: dict, settings) -> str:
    """The text to explain, checked by the CLI's own reader (empty, binary, too long: the same lines)."""
    from service.cli.text_input import read_text
    from service.cli.usage import UsageError

    text = arguments.get("text")
    if not isinstance(text, str):
        raise ToolInputError(cli_line("nothing to explain: give a text"))
    try:
        return read_text(SimpleNamespace(text=text, file=None), limit=settings.max_text_chars)
    except UsageError as exc:
        raise ToolInputError(cli_line(str(exc))) from None


def run_explain(arguments: dict, settings, owner: str | None = None,
                on_text: Callable[[str], None] | None = None) -> dict:
    """The explanation object as `unjargon explain --json` prints it, stored and cached like any other request."""
    from service import engine
    from service.failures import UnjargonError

    settings = explain_settings(settings, arguments)
    text = explain_text(arguments, settings)
    try:
        return engine.explain(text, lang=settings.lang, settings=settings, owner=owner, on_text=on_text)
    except UnjargonError as exc:  # the model could not answer: the CLI's line, as a tool error
        raise ToolInputError(cli_line(exc.message)) from None


def run_lookup(arguments: dict) -> dict:
    """A term's glossary entries: expansion, definition, intuition, source, and every reading of an ambiguous one."""
    from service.explain import glossary
    from service.i18n import languages

    extra = set(arguments) - {"term", "lang", "context"}
    if extra:
        raise ToolInputError(cli_line(f"{sorted(extra)[0]}: is not an argument of lookup_term (arguments: term, lang, context)"))
    term, lang, context = arguments.get("term"), arguments.get("lang") or "en", arguments.get("context")
    if not isinstance(term, str) or not term.strip():
        raise ToolInputError(cli_line("term: expected the acronym or term as a non-empty string"))
    if lang not in languages.codes():
        raise ToolInputError(cli_line(f"lang: expected one of {', '.join(languages.codes())}, got {lang!r}"))
    if context is not None and not isinstance(context, str):
        raise ToolInputError(cli_line("context: expected the sentence the term appears in, as a string"))
    entry = glossary.load().lookup(term)
    if entry is None:
        return {"term": term, "entries": []}
    reading = 0
    if context and entry.get("readings"):
        words = {token for token, _, _ in glossary._tokens(context)}
        fields = glossary.text_fields([entry, *(m.entry for m in glossary.load().find(context, extended=True))])
        reading = glossary.choose_reading(entry, context, words, fields)
    item = glossary.describe(glossary.Match(entry, term, 0, len(term), reading), lang)
    if entry.get("readings"):
        item["readings"] = [_reading(one, lang) for one in entry["readings"]]
        item["reading"] = reading
    return calculators.jsonable({"term": term, "entries": [item]})


def _reading(reading: dict, lang: str) -> dict:
    """One reading of an ambiguous acronym in `lang`, with the words around it that point to it."""
    expansion = reading.get(f"{lang}_term") or reading.get("expansion")
    definition = reading.get(f"{lang}_definition") or reading.get("definition")
    return {"expansion": expansion, "definition": definition, "cues": reading.get("cues") or []}


def call(name: str, arguments: dict, settings, owner: str | None = None,
         on_text: Callable[[str], None] | None = None) -> dict:
    """Run tool `name` on `arguments`; ToolInputError (with the CLI's line) for anything it cannot use."""
    if not isinstance(arguments, dict):
        raise ToolInputError(cli_line(f"the arguments of {name} must be a JSON object"))
    if name == EXPLAIN:
        return run_explain(arguments, settings, owner, on_text)
    if name == LOOKUP_TERM:
        return run_lookup(arguments)
    return run_calculator(name, arguments)
