"""A reader's text as the service keeps it: without the control characters no reader meant to send."""

import re

# C0 controls but tab and newline, DEL, and C1 controls: a NUL, a bell or a terminal's colour escape
# came back inside the answer (and PostgreSQL refuses a NUL in text). Carriage returns become newlines.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def without_controls(text: str) -> str:
    """`text` with control characters removed ("\\r\\n" and a lone "\\r" become "\\n"); unchanged when it has none."""
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
