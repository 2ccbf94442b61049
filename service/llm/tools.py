"""The tools a model may call: every calculator (same names, same schemas) plus a glossary look-up."""

import json
from dataclasses import dataclass, field

import calculators

GLOSSARY_TOOL = "glossary_lookup"
CONFIG_TOOL = "read_config"  # the training configuration in a text, parsed (service/configs)


@dataclass
class ToolCall:
    """One tool call of a model turn and what running it gave back."""

    id: str
    name: str
    input: dict
    content: str = ""  # the text sent back to the model as the tool_result
    result: dict | None = None  # the calculator result or glossary entry, when it succeeded
    is_error: bool = False
    extra: dict = field(default_factory=dict)

    def tool_result_block(self) -> dict:
        """The tool_result content block answering this call."""
        block = {"type": "tool_result", "tool_use_id": self.id, "content": self.content}
        if self.is_error:
            block["is_error"] = True
        return block


def names() -> list[str]:
    """Every tool name, calculators first."""
    return [*calculators.names(), CONFIG_TOOL, GLOSSARY_TOOL]


def definitions() -> list[dict]:
    """Tool definitions for the Messages API, rendered from the registry and prompts/."""
    from service.llm import prompts  # lazy: Jinja2 is only needed on the model path

    tools = [
        {
            "name": name,
            "description": prompts.tool_description(name, calculators.summary(name)),
            "input_schema": calculators.schema(name),
        }
        for name in calculators.names()
    ]
    tools.append({"name": CONFIG_TOOL, "description": prompts.tool_description(CONFIG_TOOL, None, calculator=False),
                  "input_schema": prompts.config_schema()})
    tools.append(
        {
            "name": GLOSSARY_TOOL,
            "description": prompts.tool_description(GLOSSARY_TOOL, None, calculator=False),
            "input_schema": prompts.glossary_schema(),
        }
    )
    return tools


def _error(call: ToolCall, message: str) -> ToolCall:
    call.content = message
    call.is_error = True
    return call


def _glossary(call: ToolCall) -> ToolCall:
    term, lang = call.input.get("term"), call.input.get("lang") or "en"
    extra = set(call.input) - {"term", "lang"}
    if extra:
        return _error(call, f"{sorted(extra)[0]}: is not an input of {GLOSSARY_TOOL} (inputs: term, lang)")
    if not isinstance(term, str) or not term.strip():
        return _error(call, "term: expected the acronym or term as a non-empty string")
    from service.i18n import languages

    if lang not in languages.codes():
        return _error(call, f"lang: expected one of {', '.join(languages.codes())}, got {lang!r}")
    try:
        from service.explain import glossary  # the glossary may not be installed yet in every checkout
    except ImportError:
        return _error(call, "the glossary is not available in this installation")
    lookup = getattr(glossary, "lookup", None)
    if lookup is None:
        return _error(call, "the glossary is not available in this installation")
    entry = lookup(term, lang)
    if entry is None:
        return _error(call, f"no glossary entry for {term!r}; explain it from context and say it is not in the glossary")
    call.result = calculators.jsonable(entry)
    call.content = json.dumps(call.result, ensure_ascii=False)
    return call


def config_summary(config: dict) -> dict:
    """The parsed configuration as the model reads it: small (options by name with their meaning; no working)."""
    evaluation = (config.get("evaluation") or {}).get("outputs")
    suggestion = config.get("suggestion") or {}
    return {
        "framework": config["framework"], "launcher": config.get("launcher"), "layout": config["layout"],
        "world_size": config.get("world_size"), "chip": config.get("chip"),
        "evaluation": {k: evaluation[k] for k in ("mfu", "tokens_per_s_per_chip", "step_time_s", "memory_fraction_of_hbm",
                                                  "fits_memory", "binding_constraint", "time_breakdown_s")} if evaluation else None,
        "problems": [{k: p[k] for k in ("rule", "options", "why")} for p in config.get("problems", [])],
        "suggestion": {k: suggestion.get(k) for k in ("verdict", "layout", "margin", "planner_error", "edits")} if suggestion else None,
        "options": {o["name"]: {"value": o["value"], "meaning": o.get("meaning")} for o in config.get("options", []) if o.get("known")},
        "unknown_options": config.get("unknown_options", []), "unresolved": config.get("unresolved", []),
        "not_read": config.get("unreadable", []) + config.get("not_evaluated", []), "questions": config.get("questions", []),
    }


def config_seed(text: str, lang: str) -> list[dict]:
    """A read_config call already made on the reader's text, as an assistant turn and its tool result; [] without a configuration."""
    from service.configs import split

    _, config = split(text, lang)
    if config is None:
        return []
    content = json.dumps(calculators.jsonable(config_summary(config)), ensure_ascii=False)
    return [{"role": "assistant", "content": [{"type": "tool_use", "id": "read_config_0", "name": CONFIG_TOOL, "input": {"text": "<the reader's text>"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "read_config_0", "content": content}]}]


def _read_config(call: ToolCall) -> ToolCall:
    text, lang = call.input.get("text"), call.input.get("lang") or "en"
    extra = set(call.input) - {"text", "lang"}
    if extra:
        return _error(call, f"{sorted(extra)[0]}: is not an input of {CONFIG_TOOL} (inputs: text, lang)")
    if not isinstance(text, str) or not text.strip():
        return _error(call, "text: expected the configuration (or the text holding it) as a non-empty string")
    from service.configs import split

    _, config = split(text, lang if lang in ("en", "ar") else "en")
    if config is None:
        return _error(call, "no training configuration found in text (Megatron-LM, NeMo, Megatron-Bridge, torchtitan, DeepSpeed, "
                            "MaxText, accelerate, torchrun or deepspeed launcher)")
    call.result = calculators.jsonable(config_summary(config))
    call.content = json.dumps(call.result, ensure_ascii=False)
    return call


def run(call: ToolCall) -> ToolCall:
    """Run one tool call; invalid input and unknown tools become is_error results, never exceptions."""
    if not isinstance(call.input, dict):
        return _error(call, f"the input of {call.name} must be a JSON object of fields")
    if call.name == CONFIG_TOOL:
        try:
            return _read_config(call)
        except Exception as exc:  # a configuration that breaks the reader must not end the explanation
            return _error(call, f"the configuration could not be read ({type(exc).__name__})")
    if call.name == GLOSSARY_TOOL:
        try:
            return _glossary(call)
        except Exception as exc:  # a broken glossary file must not end the explanation
            return _error(call, f"the glossary look-up failed: {type(exc).__name__}")
    if call.name not in calculators.names():
        return _error(call, f"unknown tool {call.name!r}; the tools are: {', '.join(names())}")
    try:
        result = calculators.run(call.name, call.input)
    except calculators.CalculatorInputError as exc:
        return _error(call, str(exc))
    except Exception as exc:  # the contract says nothing else escapes; if it does, the model hears of it
        return _error(call, f"{call.name} failed unexpectedly ({type(exc).__name__}); do not rely on it")
    call.result = calculators.jsonable(result)
    # The model reads the English steps; the structured "working" (for rendering in other languages) would
    # only double the tokens of every tool result.
    call.content = json.dumps({k: v for k, v in call.result.items() if k != "working"}, ensure_ascii=False)
    return call
