"""The offline backend: the deterministic glossary + calculators composer, no network."""

from service.explain.compose import explain_offline
from service.llm.base import Answer, ExplainRequest, TextCallback


class OfflineBackend:
    """Wraps explain_offline; its whole answer arrives as one piece of text."""

    name = "offline"

    def __init__(self, settings=None):
        self.settings = settings

    def answer(self, request: ExplainRequest, on_text: TextCallback | None = None) -> Answer:
        context = "\n".join(exchange["user"] for exchange in request.history if exchange.get("user"))
        result = explain_offline(request.text, lang=request.language, context=context)
        answer = Answer.from_result(result, backend=self.name)
        if on_text and answer.explanation:
            on_text(answer.explanation)
        return answer
