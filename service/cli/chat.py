"""Conversation commands: `unjargon chat`, `unjargon history`, and `explain --continue`."""

import json
import sys
from datetime import datetime

from service.cli.usage import exit_status

QUIT = {"/quit", "/exit", "/q"}
NEW = "/new"


def add_commands(commands) -> None:
    """Add `chat` and `history` to the `commands` subparsers."""
    chat = commands.add_parser(
        "chat", help="talk about a thread: explain it, then ask follow-up questions",
        description="An interactive conversation. A message ends with an empty line (or end of input), so a "
                    "pasted thread can span lines. /new starts a new conversation; /quit or Ctrl-D leaves.",
    )
    chat.add_argument("-b", "--backend", default=None, metavar="BACKEND",
                      help="offline, anthropic or auto (env UNJARGON_BACKEND)")
    chat.add_argument("-m", "--model", default=None, help="Claude model (env UNJARGON_MODEL)")
    chat.add_argument("-l", "--lang", default=None, metavar="LANG",
                      help="answer language (default: the language of each message; env UNJARGON_LANG)")
    where = chat.add_mutually_exclusive_group()
    where.add_argument("-c", "--continue", dest="continue_last", action="store_true",
                       help="carry on the most recently used conversation")
    where.add_argument("--cid", "--conversation", dest="conversation", metavar="ID",
                       help="carry on this conversation (the first characters of its id are enough)")
    chat.add_argument("--no-cache", action="store_true", help="do not answer from the cache")
    chat.set_defaults(handler=chat_command)

    history = commands.add_parser("history", help="list recent explanations and conversations, or show one",
                                  description="Recent conversations, newest first; with an ID, that conversation.")
    history.add_argument("id", nargs="?", help="show this conversation (the first characters of its id are enough)")
    history.add_argument("-n", "--limit", type=_positive_count, default=20, help="how many to list (default 20)")
    history.add_argument("--json", action="store_true", help="print JSON")
    history.set_defaults(handler=history_command)


def add_continue_option(explain_parser) -> None:
    """Add --continue to `unjargon explain`."""
    explain_parser.add_argument("-c", "--continue", dest="continue_last", action="store_true",
                                help="follow up the most recently used conversation (see unjargon history)")


def _positive_count(text: str) -> int:
    """A whole number of at least 1 (argparse reports anything else as one line, exit status 2)."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {value}")
    return value


def read_message(stream, interactive: bool) -> str | None:
    """The next message: lines up to an empty line or the end of input; None at the end of input."""
    lines: list[str] = []
    while True:
        if interactive:
            try:
                line = input("you> " if not lines else "...> ")
            except EOFError:
                line = None
        else:
            raw = stream.readline()
            line = raw.rstrip("\r\n") if raw else None
        if line is None:
            return "\n".join(lines) if lines else None
        if not line.strip():
            if lines:
                return "\n".join(lines)
            continue  # blank lines between messages
        if not lines and line.strip() in QUIT | {NEW}:
            return line.strip()
        lines.append(line)


def chat_command(args) -> int:
    """`unjargon chat`: explain a thread, then answer follow-ups in the same conversation."""
    from service import config, engine
    from service.cli.terminal import MarkdownStream
    from service.failures import ConversationNotFound, UnjargonError
    from service.explain.unsaid import warnings_to_print

    interactive = sys.stdin.isatty()
    if interactive:
        try:
            import readline  # noqa: F401  (line editing and recall for input())
        except ImportError:
            pass
        print("Paste a thread or ask a question; an empty line sends it. /new starts over, /quit leaves.",
              file=sys.stderr)
    conversation_id = None
    try:
        if args.conversation:
            conversation_id = engine.resolve_conversation(args.conversation)
        elif args.continue_last:
            conversation_id = engine.latest_conversation()
            if conversation_id is None:
                raise ConversationNotFound.worded("nothing_to_continue")
    except UnjargonError as exc:
        print(f"unjargon: error: {exc.message}", file=sys.stderr)
        return exit_status(exc)
    failed = 0  # the exit status of the worst failure, for piped input
    while True:
        message = read_message(sys.stdin, interactive)
        if message is None or message in QUIT:
            return 0 if interactive else failed
        if message == NEW:
            conversation_id = None
            print("(a new conversation)", file=sys.stderr)
            continue

        # Rendered like `explain` on a terminal (as it streams, then in full); unchanged when piped.
        answer = MarkdownStream(sys.stdout)
        try:
            result = engine.explain(message, lang=config.current().lang, use_cache=not args.no_cache,
                                    conversation_id=conversation_id, on_text=answer.write)
        except UnjargonError as exc:
            failed = max(failed, exit_status(exc))
            answer.close()
            print(f"\nunjargon: error: {exc.message}", file=sys.stderr)
            continue
        conversation_id = result["conversation_id"]
        answer.close(result.get("explanation"))
        for warning in warnings_to_print(result):  # a correction the answer shows is not printed twice
            print(f"warning: {warning}", file=sys.stderr)


def _when(stamp: str | None) -> str:
    if not stamp:
        return "-"
    return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")


def _cost(value) -> str:
    return "-" if value is None else f"${value:.4f}"


def history_command(args) -> int:
    """`unjargon history`: recent conversations, or one conversation with its messages."""
    from service import engine
    from service.failures import UnjargonError

    try:
        if args.id:
            conversation = engine.get_conversation(engine.resolve_conversation(args.id))
            return _show(conversation, args.json)
        rows = engine.recent(args.limit)
    except UnjargonError as exc:
        print(f"unjargon: error: {exc.message}", file=sys.stderr)
        return exit_status(exc)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    if not rows:
        print("No explanations yet: try `unjargon explain \"...\"`.", file=sys.stderr)
        return 0
    for row in rows:
        status = "" if row["status"] in (None, "complete") else f" [{row['status']}]"
        print(f"{_when(row['updated'])}  {row['id'][:12]}  {row['turns']:>2} turn{'s' if row['turns'] != 1 else ' '}"
              f"  {row['backend'] or '-':<9}  {_cost(row['cost_usd']):>9}  {row['title'] or ''}{status}")
    return 0


def _show(conversation: dict, as_json: bool) -> int:
    if as_json:
        print(json.dumps(conversation, ensure_ascii=False, indent=2))
        return 0
    print(f"conversation {conversation['id']}  (started {_when(conversation['created'])})\n")
    for message in conversation["messages"]:
        if message["role"] == "user":
            print(f"you ({_when(message['created'])}):\n{message['content']}\n")
        else:
            tags = [message["backend"] or "-"] + (["cached"] if message["cached"] else [])
            if message["status"] != "complete":
                tags.append(message["status"])
            print(f"unjargon ({', '.join(tags)}):\n{message['content'] or message['error'] or ''}\n")
    return 0
