"""The `unjargon` command line: explain, calc, plan, serve, chat, history and db."""
