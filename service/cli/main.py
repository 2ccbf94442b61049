"""The `unjargon` command line: explain and serve here; calc, chat and history in their own modules."""

import argparse
import json
import sys

from service.cli.calc import calc_command
from service.cli.text_input import read_text
from service.cli.usage import EXIT_BAD_INPUT, UsageError, exit_status


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    if argv is None:  # the process is this command, not a test or a program calling main()
        argv = sys.argv[1:]
        if argv[:1] in (["explain"], ["calc"], ["plan"]):
            _without_cycle_collection()
    if argv[:1] == ["calc"]:
        return _guard(lambda: _with_settings(None) and calc_command(argv[1:]))
    if argv[:1] == ["plan"]:
        from service.cli.plan import plan_command

        return _guard(lambda: _with_settings(None) and plan_command(argv[1:]))
    parser = build_parser(only_explain=argv[:1] == ["explain"])
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    return _guard(lambda: _with_settings(args) and args.handler(args))


def _without_cycle_collection() -> None:
    """Run a command that answers once and exits without the cyclic garbage collector.

    Reference counting still frees what the command drops; what the collector would find (a few cycles)
    goes with the process. Its passes over the objects that loading numpy, the glossary and the patterns
    leaves behind, and its last pass at exit, cost an offline `unjargon explain` about 20 ms of start-up,
    a fifth of its budget (issue 13). Never for `serve` or `chat`, which live on.
    """
    import atexit
    import gc

    gc.disable()
    atexit.register(gc.freeze)  # exit runs one more collection whatever the setting: frozen objects are skipped


def _with_settings(args) -> bool:
    """Read and validate every setting once, with the command's options over the environment (SettingsError: exit 2)."""
    from service import config

    overrides = {name: getattr(args, name, None) for name in ("backend", "model", "lang", "host", "port", "workers")}
    config.use(config.load(**overrides))
    return True


def _guard(action) -> int:
    """Turn input errors into one line on stderr and exit status 2, never a traceback."""
    from calculators import CalculatorInputError

    from service.config import SettingsError
    from service.failures import UnjargonError

    try:
        return action() or 0
    except (UsageError, CalculatorInputError, SettingsError) as exc:
        print(f"unjargon: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except UnjargonError as exc:  # say why and what to fix, no traceback; 2 when the input was at fault
        print(f"unjargon: error: {exc.message}", file=sys.stderr)
        return exit_status(exc)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def build_parser(only_explain: bool = False) -> argparse.ArgumentParser:
    """The command line; `only_explain` leaves out the other commands, which `unjargon explain` never parses
    (building them costs its start-up 2 ms)."""
    parser = argparse.ArgumentParser(prog="unjargon", description="Explain jargon about training large AI models, and prove the numbers.")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    explain = commands.add_parser("explain", help="explain a text (argument, --file or standard input)",
                                  description="Explain every acronym and term of art in a text, and check its numbers.")
    explain.add_argument("text", nargs="?", help="the text to explain, or the name of a file holding it; omit to read --file or standard input")
    explain.add_argument("-f", "--file", help="read the text from this file")
    explain.add_argument("-l", "--lang", default=None, metavar="LANG",
                         help="answer language: en, ar, or any added language (default: the input's; env UNJARGON_LANG)")
    explain.add_argument("-b", "--backend", default=None, metavar="BACKEND",
                         help="offline (no network), anthropic (Claude) or auto (Claude when ANTHROPIC_API_KEY is set); env UNJARGON_BACKEND")
    explain.add_argument("-m", "--model", default=None, help="Claude model (env UNJARGON_MODEL)")
    explain.add_argument("--json", action="store_true", help="print the explanation object as JSON")
    explain.add_argument("--no-cache", action="store_true", help="do not answer from the cache")
    explain.set_defaults(handler=explain_command)
    from service.cli import chat as cli_chat

    cli_chat.add_continue_option(explain)
    if only_explain:
        return parser
    calc = commands.add_parser("calc", help="run a calculator (unjargon calc lists them)", add_help=False)
    calc.set_defaults(handler=lambda args: calc_command([]))
    commands.add_parser("plan", help="choose a training job's parallel layout and explain why (unjargon plan --help)", add_help=False)
    serve = commands.add_parser("serve", help="start the HTTP chat service")
    serve.add_argument("--host", default=None, help="address to listen on (env UNJARGON_HOST; default 127.0.0.1)")
    serve.add_argument("--port", default=None, help="port to listen on, 1-65535 (env UNJARGON_PORT; default 8000)")
    serve.add_argument("--workers", default=None, help="processes to run, 1-64 (env UNJARGON_WORKERS; default 1)")
    serve.set_defaults(handler=serve_command)
    commands.add_parser("mcp", help="serve the tools to an AI assistant over the Model Context Protocol (stdio)",
                        description="An MCP server on standard input and output, started by the assistant "
                                    "(Claude Desktop, Claude Code, ...).").set_defaults(handler=mcp_command)
    cli_chat.add_commands(commands)
    from service.cli import db as cli_db

    cli_db.add_commands(commands)
    return parser


def explain_command(args) -> int:
    """`unjargon explain`: print the explanation (markdown on a terminal, plain when piped) or JSON."""
    from service import engine

    text = read_text(args)
    streamed = []
    live = not args.json and sys.stdout.isatty() and engine.plan().backend != "offline"

    def on_text(chunk: str):
        if live:  # Claude's answer appears as it arrives
            streamed.append(chunk)
            sys.stdout.write(chunk)
            sys.stdout.flush()

    from service import config

    result = engine.explain(text, lang=config.current().lang,
                            use_cache=not args.no_cache, on_text=on_text, **_chat_options(args))
    if args.json:
        json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    if not streamed:
        from service.cli.terminal import print_markdown

        print_markdown(result["explanation"])
    else:
        sys.stdout.write("\n")
    from service.explain.unsaid import warnings_to_print
    from service.i18n.messages import messages

    label = messages(result.get("language"))["headings"]["warning_label"]  # an Arabic answer's warnings say تنبيه
    for warning in warnings_to_print(result):  # a correction the answer shows is not printed twice
        print(f"{label}: {warning}", file=sys.stderr)
    return 0


def _chat_options(args) -> dict:
    """Options the conversation commands add to explain (e.g. --continue)."""
    options = {}
    if getattr(args, "continue_last", False):
        options["continue_last"] = True
    return options


def serve_command(args) -> int:
    """`unjargon serve`: the HTTP API and web page on uvicorn."""
    from service import config
    from service.http import server as serving

    settings = config.current()
    if settings.database_url is not None:  # an unreachable database is said once, here, not by every worker
        from service.cli.db import check_database

        check_database(settings)
    serving.check_can_listen(settings.host, settings.port, "--host" if args.host else "UNJARGON_HOST",
                             "--port" if args.port else "UNJARGON_PORT")
    serving.run(settings.host, settings.port, settings.workers)
    return 0


def mcp_command(args) -> int:
    """`unjargon mcp`: the MCP server over stdio (the SDK is imported here only)."""
    from service.mcp.server import run_stdio

    return run_stdio()


if __name__ == "__main__":
    sys.exit(main())
