"""What every backend takes and gives: the request, the answer, and the model interface the tool loop drives."""

from dataclasses import dataclass, field
from typing import Callable, Protocol

# Keys of DESIGN.md's explanation object that the engine owns or rebuilds.
_CORE_KEYS = ("explanation", "language", "backend", "cached", "terms", "calculations", "warnings")
# DESIGN.md's second-round keys, in this order after the core ones, so every path serialises one key order.
_READING_KEYS = ("plain", "figures", "claims")

TextCallback = Callable[[str], None]


@dataclass
class ExplainRequest:
    """One turn to answer: the text, its kind, the language, and the conversation so far."""

    text: str
    language: str
    kind: str = "explain"  # explain (a thread to explain) | followup (a question about it)
    history: list[dict] = field(default_factory=list)  # past exchanges: kind, user, answer, api_messages


@dataclass
class Answer:
    """A backend's answer, with everything the store records about how it was made."""

    explanation: str
    language: str
    backend: str
    model: str | None = None
    terms: list = field(default_factory=list)
    calculations: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    # complete | partial (cut off) | max_tokens | refused; only complete answers are cached
    status: str = "complete"
    fallback: bool = False  # the offline explainer stood in for the model
    api_messages: list | None = None  # this exchange's assistant and tool_result turns, for multi-turn history
    tool_calls: list[dict] = field(default_factory=list)
    usage: list[dict] = field(default_factory=list)  # one item per API call
    extra: dict = field(default_factory=dict)  # further keys of the explanation object, kept as they are

    @property
    def cacheable(self) -> bool:
        """Only whole answers from the backend that was asked for may be served again."""
        return self.status == "complete" and not self.fallback

    @classmethod
    def from_result(cls, result: dict, *, backend: str | None = None, model: str | None = None) -> "Answer":
        """An answer from an explanation object (the offline composer's, or a cached one)."""
        return cls(
            explanation=result.get("explanation", ""),
            language=result.get("language", "en"),
            backend=backend or result.get("backend", "offline"),
            model=model,
            terms=list(result.get("terms", [])),
            calculations=list(result.get("calculations", [])),
            warnings=list(result.get("warnings", [])),
            extra={k: v for k, v in result.items() if k not in _CORE_KEYS and k not in ("conversation_id", "usage")},
        )

    def result(self, *, cached: bool = False) -> dict:
        """DESIGN.md's explanation object."""
        return {
            "explanation": self.explanation,
            "language": self.language,
            "backend": self.backend,
            "cached": cached,
            # Copies: one answer may be shared by several callers (single-flight) and each may add warnings.
            "terms": list(self.terms),
            "calculations": list(self.calculations),
            "warnings": list(self.warnings),
            **{k: self.extra[k] for k in _READING_KEYS if k in self.extra},
            **{k: self.extra[k] for k in sorted(self.extra) if k not in _READING_KEYS},
        }


class Backend(Protocol):
    """Answers one explain request; calls `on_text` with text as it is produced."""

    name: str

    def answer(self, request: ExplainRequest, on_text: TextCallback | None = None) -> Answer: ...


@dataclass
class ModelTurn:
    """One model response: Messages API content blocks (as dicts), why it stopped, and its usage."""

    content: list[dict]
    stop_reason: str | None
    usage: dict = field(default_factory=dict)
    model: str | None = None


class ChatModel(Protocol):
    """One Messages API call; the tool loop drives it, and tests script it from a queue."""

    async def turn(self, *, system: list[dict], messages: list[dict], tools: list[dict],
                   tool_choice: dict | None, on_text: TextCallback) -> ModelTurn: ...
