"""Every setting is validated at start-up, on every command: one line naming it and what it accepts, exit 2 (issue 13.1-2)."""

import socket
import subprocess
import sys

import pytest

from service.cli.main import main

# (variable, bad value, words the one-line message must contain)
BAD_ENVIRONMENT = [
    ("UNJARGON_MAX_TEXT_CHARS", "abc", "a whole number of characters"),
    ("UNJARGON_RATE_LIMIT_PER_MINUTE", "-3", "a whole number, 0 for no limit"),
    ("UNJARGON_HOME", "/proc/nope", "a folder unjargon can create and write to"),
    ("UNJARGON_PORT", "abc", "a port number from 1 to 65535"),
    ("UNJARGON_BACKEND", "bogus", "one of auto, offline, anthropic"),
    ("UNJARGON_MAX_TOKENS", "zz", "a whole number of tokens"),
    ("UNJARGON_LANG", "fr", "a language code"),
    ("UNJARGON_HISTORY_MAX_CHARS", "zz", "a whole number of characters, at least 1000"),
    ("UNJARGON_SSE_KEEPALIVE_S", "nan", "a positive number of seconds"),
    ("UNJARGON_DATABASE_URL", "mysql://x", "a postgresql://"),
    ("ANTHROPIC_BASE_URL", "ftp://example", "an http:// or https:// URL"),
    ("UNJARGON_MAX_TOKEN", "100", "did you mean UNJARGON_MAX_TOKENS?"),
    ("UNJARGON_LANGUAGES_DIR", "/nonexistent", "an existing folder of extra languages"),  # issue 21
    ("UNJARGON_HOST", "bad host!", "a host name or IP address"),  # issue 21
]
COMMANDS = [["explain", "PP is pipeline parallelism"], ["calc", "pipeline_bubble", "--pp-degree", "4", "--microbatches", "8"],
            ["history"], ["serve"]]


@pytest.mark.parametrize("variable, value, accepts", BAD_ENVIRONMENT, ids=[case[0] for case in BAD_ENVIRONMENT])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
def test_a_bad_setting_stops_every_command_in_one_line(variable, value, accepts, command, monkeypatch, capsys):
    monkeypatch.setenv(variable, value)
    status = main(command)
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert variable in err and accepts in err, err


def test_a_secret_value_is_never_echoed(monkeypatch, capsys):
    monkeypatch.setenv("UNJARGON_DATABASE_URL", "mysql://user:hunter2@db/x")
    assert main(["history"]) == 2
    err = capsys.readouterr().err
    assert "UNJARGON_DATABASE_URL" in err and "hunter2" not in err


@pytest.mark.parametrize("options, accepts", [
    (["--port", "99999"], "--port must be a port number from 1 to 65535"),
    (["--port", "abc"], "--port must be a port number"),
    (["--workers", "0"], "--workers must be a whole number from 1 to 64"),
])
def test_bad_serve_options_stop_before_serving(options, accepts, capsys):
    assert main(["serve", *options]) == 2
    err = capsys.readouterr().err
    assert accepts in err and err.count("\n") == 1


def test_history_refuses_a_limit_below_one(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["history", "-n", "0"])
    assert stop.value.code == 2
    assert "expected a whole number of at least 1, got 0" in capsys.readouterr().err


def test_the_installed_command_reports_a_bad_port_without_a_traceback(tmp_path):
    # As a newcomer runs it: a separate process, the variable set in its environment.
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "UNJARGON_PORT": "abc"}
    done = subprocess.run([sys.executable, "-c", "import sys; from service.cli.main import main; sys.exit(main())", "explain", "x"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == "unjargon: error: UNJARGON_PORT must be a port number from 1 to 65535, got 'abc'"


@pytest.fixture
def taken_port():
    """A port another program already listens on (127.0.0.1)."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


@pytest.fixture
def no_uvicorn(monkeypatch):
    """Serving must stop before uvicorn starts: if it would start, the test fails instead of serving."""
    def run(*args, **kwargs):
        raise AssertionError("uvicorn would have started")

    monkeypatch.setattr("service.http.server.run", run)


@pytest.mark.parametrize("how", ["option", "environment"])
def test_a_port_in_use_is_one_line_naming_the_port(taken_port, how, no_uvicorn, monkeypatch, capsys):
    # Issue 21: uvicorn said it in six lines and exit status 1 or 3.
    if how == "environment":
        monkeypatch.setenv("UNJARGON_PORT", str(taken_port))
    status = main(["serve", "--port", str(taken_port)] if how == "option" else ["serve"])
    label = "--port" if how == "option" else "UNJARGON_PORT"
    assert (status, capsys.readouterr().err) == (
        2, f"unjargon: error: {label} must be a free port ({taken_port} is already in use on 127.0.0.1)\n")


def test_an_address_that_is_not_this_machines_is_one_line_naming_the_host(no_uvicorn, capsys):
    # 192.0.2.1 is TEST-NET-1 (RFC 5737), never a local address: binding fails at once, nothing is sent.
    assert main(["serve", "--host", "192.0.2.1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("unjargon: error: --host must be an address of this machine (cannot listen on 192.0.2.1")
    assert err.count("\n") == 1
