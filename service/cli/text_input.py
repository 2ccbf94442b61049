"""The text to explain, as the CLI reads it (argument, --file or standard input), checked for size and encoding."""

import os
import re
import sys

from service.cli.usage import UsageError

# A lone argument shaped like a file name ("thread.txt", "conf/175b.yaml"): a newcomer's `unjargon explain FILE`.
_FILE_SHAPED = re.compile(r"[^\s]*[/\\][^\s]*|[^\s/\\]+\.(?:txt|md|markdown|ya?ml|json|sh|toml|cfg|ini|py|log|csv)", re.I)


def _argument_names_a_file(text: str) -> bool:
    """Whether the text argument is a path: an existing file, or (to refuse clearly) one shaped like a file name."""
    if "\n" in text or len(text) > 4096:
        return False
    return os.path.isfile(text) or bool(_FILE_SHAPED.fullmatch(text.strip()))


def read_text(args, limit: int | None = None) -> str:
    """The text to explain from the argument, --file or standard input, checked for size and encoding
    (`limit`: characters, default UNJARGON_MAX_TEXT_CHARS)."""
    from service import config

    limit = limit or config.current().max_text_chars
    if args.text is not None and args.file:
        raise UsageError("give the text or --file, not both")
    hint = ""
    if args.text is not None and _argument_names_a_file(args.text):
        args.file, args.text = args.text if os.path.isfile(args.text) else args.text.strip(), None
        hint = " (to explain a text, give it in quotes or on standard input)"
    if args.text is not None:
        raw = args.text.encode("utf-8", "surrogateescape")
        where = "the text argument"
    elif args.file:
        try:
            with open(args.file, "rb") as handle:
                raw = handle.read(limit * 4 + 1)  # UTF-8 needs at most 4 bytes a character
        except OSError as exc:
            raise UsageError(f"cannot read the file {args.file}: {exc.strerror}{hint}") from exc
        where = f"--file {args.file}"
    elif not sys.stdin.isatty():
        raw = sys.stdin.buffer.read(limit * 4 + 1)
        where = "standard input"
    else:
        raise UsageError("nothing to explain: give a text, --file FILE, or pipe it on standard input")
    if b"\x00" in raw:
        raise UsageError(f"{where} is binary, not text")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{where} is not UTF-8 text (invalid byte at position {exc.start})") from exc
    from service.reader_text import without_controls

    if not without_controls(text).strip():  # the engine drops control characters: only they would be left
        raise UsageError(f"{where} is empty: there is nothing to explain")
    if len(text) > limit or len(raw) > limit * 4:
        raise UsageError(f"{where} is too long ({len(text):,}+ characters); the limit is {limit:,} (UNJARGON_MAX_TEXT_CHARS)")
    return text
