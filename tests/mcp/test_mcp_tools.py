"""The MCP tools through the SDK's own client, over stdio (`unjargon mcp` as a subprocess) and over HTTP (/mcp of a
live `unjargon serve`): every calculator listed with a valid schema, results equal to the CLI's, bad arguments
as tool errors with the CLI's line, explain stored and cached (issue 22)."""

import json

import httpx
import jsonschema
import pytest

import calculators
from tests.support.mcp_client import cli_error, cli_json, http_session, run, stdio_session
from tests.support.server_process import ServerProcess

TOKEN, OTHER_TOKEN = "mcp-test-token-7", "mcp-other-token-8"

# The same inputs through the tool and through `unjargon calc NAME --field value --json`.
CALCULATIONS = [
    ("pp_necessity", {"model": "K2", "global_batch_tokens": "16M", "n_chips": "4096", "chip": "h100"}),
    # PaLM 540B on 6144 TPU v4 chips at 238.3k tokens/s: 46.2% MFU (Chowdhery et al. 2022, PaLM, Table 3).
    ("mfu", {"model": "palm-540b", "chip": "tpu-v4", "n_chips": "6144", "tokens_per_s": "238.3k"}),
    ("plan_layout", {"model": "DSV3", "chip": "h800", "n_chips": "2048", "global_batch_tokens": "15M"}),
]


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """`unjargon serve` (one worker) on a free loopback port, with a bearer token."""
    home = tmp_path_factory.mktemp("mcp-serve-home")
    with ServerProcess(home, workers=1, env={"UNJARGON_API_TOKEN": f"{TOKEN},{OTHER_TOKEN}"}) as server:
        yield server


@pytest.fixture(params=["stdio", "http"])
def connect(request, tmp_path):
    """(open a session, the home its answers are stored in, the service's URL over HTTP) for each transport."""
    if request.param == "stdio":
        home = tmp_path / "mcp-home"
        home.mkdir()
        return (lambda: stdio_session(home)), home, None
    server = request.getfixturevalue("live")
    return (lambda: http_session(server.url + "/mcp", TOKEN)), server.home, server.url


def _flags(inputs: dict) -> list[str]:
    return [part for key, value in inputs.items() for part in ("--" + key.replace("_", "-"), str(value))]


def test_every_calculator_is_a_tool_with_a_valid_schema(connect):
    open_session, _, _ = connect

    async def body():
        async with open_session() as session:
            return (await session.list_tools()).tools

    tools = {tool.name: tool for tool in run(body)}
    assert set(tools) == {*calculators.names(), "explain", "lookup_term"}
    for name, tool in tools.items():
        for schema in (tool.input_schema, tool.output_schema):
            jsonschema.validators.validator_for(schema).check_schema(schema)
        assert tool.description.strip()
        if name in calculators.names():  # the registry's fields, units in each description
            registry = calculators.schema(name)
            assert set(tool.input_schema["properties"]) == set(registry["properties"])
            # a field chip or model fills is required only without them (said in its description)
            relaxed = set(registry["required"]) - set(tool.input_schema["required"])
            assert set(tool.input_schema["required"]) <= set(registry["required"])
            assert all("required unless" in tool.input_schema["properties"][f]["description"] for f in relaxed)
    peak = tools["mfu"].input_schema["properties"]["peak_flop_per_s"]["description"]
    assert "FLOP per second" in peak and "required unless chip is given" in peak
    assert tools["mfu"].input_schema["required"] == ["n_chips"]
    for name, inputs in CALCULATIONS:  # what the tests send is what the schema allows
        jsonschema.validate(inputs, tools[name].input_schema)


def test_calculators_give_what_the_cli_gives(connect, tmp_path):
    open_session, _, _ = connect

    async def body():
        async with open_session() as session:
            results = [await session.call_tool(name, inputs) for name, inputs in CALCULATIONS]
            numbers = await session.call_tool("mfu", {"model": "palm-540b", "chip": "tpu-v4", "n_chips": 6144,
                                                      "tokens_per_s": 238_300})
            return results, numbers

    results, numbers = run(body)
    for (name, inputs), result in zip(CALCULATIONS, results):
        assert not result.is_error, result.content
        expected = cli_json(tmp_path, "calc", name, *_flags(inputs))
        assert result.structured_content == expected
        assert json.loads(result.content[0].text) == expected
    assert results[1].structured_content["outputs"]["mfu"] == pytest.approx(0.462, abs=0.001)
    assert numbers.structured_content == results[1].structured_content  # JSON numbers read as the CLI's strings
    assert results[0].structured_content["outputs"]["dp_comm_bound"] is True


def test_explain_gives_what_the_cli_gives_and_is_stored_and_cached(connect, tmp_path):
    open_session, home, url = connect
    text = "with TPUs at K2 or DSV3 scale you get excellent MFU without PP; you only need PP when you're DP-comms bound"
    progress = []

    async def on_progress(done, total, message):
        progress.append((done, total))

    async def body():
        async with open_session() as session:
            first = await session.call_tool("explain", {"text": text}, progress_callback=on_progress)
            again = await session.call_tool("explain", {"text": text})
            return first, again

    first, again = run(body)
    assert not first.is_error, first.content
    expected = cli_json(tmp_path / "cli-home", "explain", text)
    got = first.structured_content
    assert {k: v for k, v in got.items() if k != "conversation_id"} == \
        {k: v for k, v in expected.items() if k != "conversation_id"}
    assert got["cached"] is False and any(c["calculator"] == "pp_necessity" for c in got["calculations"])
    assert again.structured_content["cached"] is True  # the cache answers the repeated call
    assert again.structured_content["explanation"] == got["explanation"]
    stored = {row["id"] for row in cli_json(home, "history", "--limit", "100")}
    assert {got["conversation_id"], again.structured_content["conversation_id"]} <= stored
    if url is not None:  # over HTTP the conversation is filed under the caller's token, as /v1/explain files it
        mine = httpx.get(f"{url}/v1/conversations/{got['conversation_id']}", headers={"Authorization": f"Bearer {TOKEN}"})
        theirs = httpx.get(f"{url}/v1/conversations/{got['conversation_id']}",
                           headers={"Authorization": f"Bearer {OTHER_TOKEN}"})
        assert (mine.status_code, theirs.status_code) == (200, 404)
    assert progress and progress[-1][0] == progress[-1][1]  # ends complete
    assert [done for done, _ in progress] == sorted(done for done, _ in progress)  # never goes back


def test_bad_arguments_are_tool_errors_with_the_cli_line(connect, tmp_path):
    open_session, _, _ = connect
    k2 = {"model": "K2", "global_batch_tokens": "16M", "chip": "h100"}
    cases = [  # (tool, arguments, the same mistake on the command line)
        ("pp_necessity", {**k2, "n_chips": 0}, ("calc", "pp_necessity", "--input", json.dumps({**k2, "n_chips": 0}))),
        ("mfu", {"chips": 64}, ("calc", "mfu", "--input", json.dumps({"chips": 64}))),
        ("plan_layout", {"model": "DSV3", "chip": "h1000", "n_chips": "2048", "global_batch_tokens": "15M"},
         ("calc", "plan_layout", "--model", "DSV3", "--chip", "h1000", "--n-chips", "2048", "--global-batch-tokens", "15M")),
        ("explain", {"text": "PP and DP", "lang": "xx"}, ("explain", "--lang", "xx", "PP and DP")),
        ("explain", {"text": "   "}, ("explain", "   ")),
    ]

    async def body():
        async with open_session() as session:
            errors = [await session.call_tool(name, arguments) for name, arguments, _ in cases]
            unknown = await session.call_tool("no_such_tool", {})
            after = await session.call_tool("mfu", CALCULATIONS[1][1])
            return errors, unknown, after

    errors, unknown, after = run(body)
    for (name, _, command), error in zip(cases, errors):
        assert error.is_error, (name, error.structured_content)
        assert error.content[0].text == cli_error(tmp_path, *command)
    assert unknown.is_error
    assert not after.is_error and after.structured_content["outputs"]["mfu"] > 0  # the server still answers


def test_lookup_term_reads_an_acronym_by_its_context(connect):
    open_session, _, _ = connect

    async def body():
        async with open_session() as session:
            return [await session.call_tool("lookup_term", arguments) for arguments in (
                {"term": "DP", "context": "DP all-reduces the gradients across replicas"},
                {"term": "DP", "context": "DP-SGD clips each example's gradient and adds noise for differential privacy"},
                {"term": "MFU", "lang": "ar"},
                {"term": "qwertyuiop"},
            )]

    training, privacy, arabic, unknown = (result.structured_content for result in run(body))
    assert training["entries"][0]["expansion"] == "data parallelism"
    assert privacy["entries"][0]["expansion"] == "differential privacy"
    assert {r["expansion"] for r in training["entries"][0]["readings"]} >= {"data parallelism", "differential privacy"}
    entry = arabic["entries"][0]
    assert entry["expansion_en"] == "model FLOPs utilization" and entry["expansion"] != entry["expansion_en"]
    assert entry["definition"] and entry["source"]
    assert unknown["entries"] == []
