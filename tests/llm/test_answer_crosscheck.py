"""Issue 18: Claude's answer is checked against the deterministic reading; a verdict or MFU that contradicts a calculator is
flagged in `warnings`, and the reader's claims travel with a reason (never an empty `why`)."""

import pytest

from service import engine
from service.config import load as load_settings

from tests.support.fake_anthropic import FakeAnthropic, Reply, text

KEY = "sk-ant-test-0123456789abcdef"
# Written for this test. MFU = 6 x 70e9 x 1e6 / (1024 x 989e12) = 41.5% (H100 bf16 dense 989 TFLOP/s, NVIDIA datasheet),
# so the stated 80% is inconsistent with the thread's own figures.
THREAD = "We trained a 70B model on 1024 H100s at 1M tokens/s and reached 80% MFU."


@pytest.fixture
def fake(monkeypatch):
    with FakeAnthropic() as server:
        yield server.point_sdk_here(monkeypatch, KEY)


def _ask(fake, answer: str) -> dict:
    fake.enqueue(Reply([text(answer)]))
    return engine.explain(THREAD, backend="anthropic", settings=load_settings(max_retries=1, request_deadline_s=10.0),
                          use_cache=False)


def _contradictions(result: dict) -> list[str]:
    return [w for w in result["warnings"] if "but the calculator finds" in w]


def test_a_verdict_opposite_to_the_calculators_is_flagged(fake):
    result = _ask(fake, "The author's 80% MFU is consistent with 1M tokens/s on 1024 H100s.")
    (warning,) = _contradictions(result)
    assert "inconsistent" in warning and "41.47%" in warning


def test_another_mfu_than_the_calculators_is_flagged(fake):
    result = _ask(fake, "At 1M tokens/s on 1024 H100s the run reaches about 65% MFU, below the 80% claimed.")
    (warning,) = _contradictions(result)  # the 80% is the text's own figure, not the model's: not flagged
    assert warning.startswith("The answer gives an MFU of 65%") and "41.5%" in warning


def test_an_answer_that_agrees_with_the_calculators_is_not_flagged(fake):
    result = _ask(fake, "The 80% MFU is inconsistent: these figures give about 41% MFU.")
    assert _contradictions(result) == []


def test_the_readers_claims_keep_their_reason(fake):
    result = _ask(fake, "The 80% MFU does not add up.")
    assert result["claims"] and all(c["why"] for c in result["claims"])
    assert result["claims"][0]["verdict"] == "inconsistent"


def test_a_general_remark_about_mfu_is_not_flagged(fake):
    result = _ask(fake, "The 80% MFU is inconsistent: these figures give about 41% MFU. Well-tuned dense runs often reach 60% MFU.")
    assert _contradictions(result) == []


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_prompt_asks_for_the_gist_first_the_texts_reasons_and_nothing_else(lang):
    from service.llm.prompts import system_prompt

    prompt = system_prompt(lang)
    assert "The gist first" in prompt and "the reasons the thread gives" in prompt
    assert "Attribute to the author only what the thread states" in prompt
    assert "active parameters" in prompt and "physically impossible" in prompt
    assert prompt.index("The gist first") < prompt.index("The claims, each restated")
