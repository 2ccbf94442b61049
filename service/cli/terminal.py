"""Markdown for people: rendered with rich on a terminal, plain text when piped."""

import sys


def print_markdown(markdown: str, stream=None) -> None:
    """Print `markdown` rendered if `stream` is a terminal, unchanged otherwise."""
    stream = stream or sys.stdout
    if stream.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console(file=stream).print(Markdown(markdown))
    else:
        stream.write(markdown if markdown.endswith("\n") else markdown + "\n")
