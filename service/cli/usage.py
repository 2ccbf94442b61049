"""What the command line reports as bad input: one clear line on stderr, exit status 2."""

EXIT_BAD_INPUT = 2
EXIT_FAILED = 1


class UsageError(Exception):
    """Bad input from the person at the terminal: one clear line, exit status 2."""


def exit_status(error) -> int:
    """The exit status of an UnjargonError: 2 where the input was at fault (HTTP's 4xx: an unknown conversation,
    a backend this configuration cannot run), 1 where the model or the store failed."""
    return EXIT_BAD_INPUT if 400 <= getattr(error, "status", 500) < 500 else EXIT_FAILED
