"""The README's MCP config, tried as a new user would: its command line, run as a client runs it, starts the
server and answers (issue 22)."""

import json
import os
import re
import shlex

import calculators
from tests.support.mcp_client import BIN, ROOT, child_env, run

from mcp import ClientSession, StdioServerParameters, stdio_client


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def readme_config() -> dict:
    """The unjargon entry of the README's `mcpServers` JSON snippet."""
    blocks = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", _readme(), re.S) if "mcpServers" in block]
    assert len(blocks) == 1, "the README shows one MCP config snippet"
    return blocks[0]["mcpServers"]["unjargon"]


def test_the_readme_snippet_starts_the_server_from_an_installed_command(tmp_path):
    entry = readme_config()
    # A fresh install puts `unjargon` on the PATH (pip install ., or the venv's bin); nothing else is set up.
    env = {**child_env(tmp_path / "home"), "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", **entry.get("env", {})}
    params = StdioServerParameters(command=entry["command"], args=entry["args"], env=env, cwd=str(tmp_path))

    async def body():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=60) as session:
                initialized = await session.initialize()
                tools = (await session.list_tools()).tools
                result = await session.call_tool("pp_necessity", {"model": "K2", "chip": "h100", "n_chips": 4096,
                                                                  "global_batch_tokens": "16M"})
                return initialized, tools, result

    initialized, tools, result = run(body)
    assert initialized.server_info.name == "unjargon"
    assert {tool.name for tool in tools} >= set(calculators.names()) | {"explain", "lookup_term", "plan_layout"}
    assert not result.is_error and result.structured_content["calculator"] == "pp_necessity"


def test_the_claude_code_line_runs_the_same_command():
    entry = readme_config()
    lines = [line.strip() for line in _readme().splitlines() if line.strip().startswith("claude mcp add")]
    assert lines, "the README shows how to add unjargon to Claude Code"
    name, _, command = lines[0].removeprefix("claude mcp add").partition(" -- ")
    assert name.strip() == "unjargon"
    assert shlex.split(command) == [entry["command"], *entry["args"]]
