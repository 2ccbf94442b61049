"""What the command line reports as bad input: one clear line on stderr, exit status 2."""

EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """Bad input from the person at the terminal: one clear line, exit status 2."""
