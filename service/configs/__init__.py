"""Training configurations in the input: read, explained option by option, their layout evaluated, their mistakes caught."""

from service.configs.answer import attach, split

__all__ = ["attach", "split"]
