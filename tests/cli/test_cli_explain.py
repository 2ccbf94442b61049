"""`unjargon explain`: text from an argument, a file or standard input; JSON; language; clean refusals (issue 3)."""

import io
import json
import subprocess
import sys

import pytest

from service.cli.main import main

CLAIM = "with TPUs at K2 or DSV3 scale you get excellent MFU without PP; you only need PP when you're DP-comms bound"


class FakeStdin:
    """Standard input that is not a terminal, holding `data` bytes."""

    def __init__(self, data: bytes):
        self.buffer = io.BytesIO(data)

    def isatty(self) -> bool:
        return False


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_argument_json_has_the_design_shape(capsys):
    code, out, _ = run_cli(capsys, "explain", CLAIM, "--json")
    result = json.loads(out)
    assert code == 0
    assert {"explanation", "language", "backend", "cached", "terms", "calculations", "warnings"} <= set(result)
    assert result["backend"] == "offline" and result["language"] == "en"
    found = {t["found_as"] for t in result["terms"]}
    assert {"TPUs", "K2", "DSV3", "MFU", "PP", "DP-comms bound"} <= found
    assert any(c["calculator"] == "pp_necessity" for c in result["calculations"])


def test_file_and_arabic_answer(capsys, tmp_path):
    path = tmp_path / "thread.txt"
    path.write_text(CLAIM, encoding="utf-8")
    code, out, _ = run_cli(capsys, "explain", "--file", str(path), "--lang", "ar")
    assert code == 0
    assert "## باختصار" in out and "## المصطلحات" in out


def test_standard_input_is_read(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", FakeStdin("توازي خطوط الأنابيب و DP على TPU".encode()))
    code, out, _ = run_cli(capsys, "explain")
    assert code == 0 and "## المصطلحات" in out  # the input's language is the default


def test_second_identical_request_is_served_from_the_cache(capsys):
    run_cli(capsys, "explain", CLAIM, "--json")
    _, out, _ = run_cli(capsys, "explain", CLAIM, "--json")
    assert json.loads(out)["cached"] is True
    _, out, _ = run_cli(capsys, "explain", CLAIM, "--json", "--no-cache")
    assert json.loads(out)["cached"] is False


@pytest.mark.parametrize("data, message", [
    (b"", "empty"),
    (b"   \n\t ", "empty"),
    (b"PP\x00\x01\x02", "binary"),
    (b"\xff\xfe bad utf-8 \xc3", "not UTF-8"),
])
def test_bad_standard_input_is_refused_in_one_line(capsys, monkeypatch, data, message):
    monkeypatch.setattr(sys, "stdin", FakeStdin(data))
    code, out, err = run_cli(capsys, "explain")
    assert code == 2 and message in err and err.count("\n") == 1 and out == ""


def test_enormous_input_is_refused(capsys, monkeypatch):
    monkeypatch.setenv("UNJARGON_MAX_TEXT_CHARS", "1000")
    monkeypatch.setattr(sys, "stdin", FakeStdin(b"PP " * 2000))
    code, _, err = run_cli(capsys, "explain")
    assert code == 2 and "too long" in err and "1,000" in err


def test_missing_file_is_named(capsys, tmp_path):
    code, _, err = run_cli(capsys, "explain", "--file", str(tmp_path / "nope.txt"))
    assert code == 2 and "nope.txt" in err


def test_piped_output_is_plain_markdown_and_no_heavy_imports(tmp_path):
    # The offline path must not pull in the SDKs (Anthropic's, MCP's), FastAPI or pydantic-settings (start-up time,
    # issues 3 and 22).
    probe = ("import sys, runpy; sys.argv=['unjargon','explain',%r];\n"
             "try:\n    runpy.run_module('service.cli.main', run_name='__main__')\nexcept SystemExit: pass\n"
             "print('HEAVY', sorted(m for m in ('anthropic','fastapi','pydantic_settings','jinja2','mcp') if m in sys.modules), file=sys.stderr)") % CLAIM
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("## In short") and "\x1b[" not in done.stdout
    assert "HEAVY []" in done.stderr


def test_an_offline_follow_up_keeps_the_thread_in_view(capsys):
    run_cli(capsys, "explain", "Kimi K2 with a 16M token batch on 4096 H100s: do we need PP?", "--json")
    _, out, _ = run_cli(capsys, "explain", "--continue", "and what about TPUs?", "--json")
    result = json.loads(out)
    runs = {(c["inputs"]["chip"], c["inputs"].get("model")) for c in result["calculations"] if c["calculator"] == "pp_necessity"}
    # The follow-up names only the TPU; the model, batch and cluster size come from the thread it follows.
    assert ("tpu-v5p", "kimi-k2") in runs
    assert all(c["inputs"]["global_batch_tokens"] == 16e6 for c in result["calculations"] if c["calculator"] == "pp_necessity")
    assert [t["found_as"] for t in result["terms"]] == ["TPUs"]


def test_control_characters_in_the_text_never_come_back(capsys, monkeypatch):
    # Issue 21: a bell or a terminal's colour escape in a pasted thread came back inside the answer.
    monkeypatch.setattr(sys, "stdin", FakeStdin("you only need PP\x07 when you're\x1b[31m DP-comms bound\r\n".encode()))
    code, out, _ = run_cli(capsys, "explain", "--json")
    assert code == 0 and "\\u0007" not in out and "\\u001b" not in out and "\\r" not in out
    assert {"PP", "DP-comms bound"} <= {term["found_as"] for term in json.loads(out)["terms"]}
    monkeypatch.setattr(sys, "stdin", FakeStdin(b"\x07\x1b\x7f"))
    code, out, err = run_cli(capsys, "explain")
    assert (code, out) == (2, "") and "there is nothing to explain" in err


def test_an_arabic_answer_labels_its_warnings_in_arabic(capsys, monkeypatch):
    # A passage written for this test, with a machine translation of "bandwidth" (a correction is a warning). The
    # answer shows the correction, so it is not printed again; every warning kept is printed under its Arabic label.
    from service.explain import unsaid

    monkeypatch.setattr(unsaid, "warnings_to_print", lambda result: list(result["warnings"]))
    code, out, err = run_cli(capsys, "explain", "--lang", "ar", "--no-cache", "بلغ عرض النطاق الترددي للحافلة 400 غيغابايت في الثانية")
    assert code == 0 and "تنبيه: " in err and "warning:" not in err


def test_a_correction_the_answer_shows_is_not_printed_again(capsys):
    code, out, err = run_cli(capsys, "explain", "--lang", "ar", "--no-cache", "بلغ عرض النطاق الترددي للحافلة 400 غيغابايت في الثانية")
    assert code == 0 and "للحافلة" in out and "تنبيه: " not in err


def test_a_file_name_given_as_the_text_is_read(capsys, tmp_path, monkeypatch):
    # A newcomer types `unjargon explain thread.txt`: the file is explained, not the words "thread.txt".
    (tmp_path / "thread.txt").write_text(CLAIM, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli(capsys, "explain", "thread.txt", "--json")
    assert code == 0
    assert {"MFU", "PP"} <= {t["found_as"] for t in json.loads(out)["terms"]}


def test_a_missing_file_given_as_the_text_is_named(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "explain", "examples/thred.txt")
    assert code == 2 and "examples/thred.txt" in err and "No such file" in err


def test_a_short_text_that_is_not_a_file_name_is_explained(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli(capsys, "explain", "MFU", "--json")
    assert code == 0 and "MFU" in {t["found_as"] for t in json.loads(out)["terms"]}
