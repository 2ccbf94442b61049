"""Markdown for people: rendered with rich on a terminal, plain text when piped."""

import sys
import time


def print_markdown(markdown: str, stream=None) -> None:
    """Print `markdown` rendered if `stream` is a terminal, unchanged otherwise."""
    stream = stream or sys.stdout
    if stream.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console(file=stream).print(Markdown(markdown))
    else:
        stream.write(markdown if markdown.endswith("\n") else markdown + "\n")


class MarkdownStream:
    """An answer that arrives in pieces: re-rendered as markdown in place on a terminal, passed through when piped."""

    # Answers are markdown-heavy (headings, tables, bold terms): raw text reads badly on a terminal, and the
    # rendered answer printed after the raw one would show it twice. So the pieces so far are re-rendered a
    # few times a second (rich's Live, cropped to the screen while it grows) and the whole answer once
    # more, uncropped, at the end.

    REFRESH_S = 0.1

    def __init__(self, stream=None):
        self.stream = stream or sys.stdout
        self.tty = self.stream.isatty()
        self.text = ""
        self._live = None
        self._shown_at = 0.0

    def write(self, chunk: str) -> None:
        """Show `chunk` after what came before."""
        self.text += chunk
        if not self.tty:
            self.stream.write(chunk)
            self.stream.flush()
            return
        now = time.monotonic()
        if now - self._shown_at >= self.REFRESH_S:  # rendering markdown on every token would be quadratic
            self._show()
            self._shown_at = now

    def _show(self) -> None:
        from rich.markdown import Markdown

        if self._live is None:
            from rich.console import Console
            from rich.live import Live

            self._live = Live(console=Console(file=self.stream), auto_refresh=False, vertical_overflow="ellipsis")
            self._live.start()
        self._live.update(Markdown(self.text), refresh=True)

    def close(self, final: str | None = None) -> None:
        """End the answer; `final` (the answer as stored) is what a terminal shows last, when given."""
        if not self.tty:
            if final and not self.text:
                self.stream.write(final)
            self.stream.write("\n\n")
            self.stream.flush()
            return
        self.text = final or self.text
        if self.text:
            self._show()
            self._live.stop()  # the last frame is drawn in full, not cropped to the screen
            self._live = None
