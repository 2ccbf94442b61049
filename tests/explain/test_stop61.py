"""Stop 61's rules for the gist, each on sentences written for the test in the shape of the passage that showed the fault."""

import pytest

from service.explain.compose import explain_offline


def gist_text(text: str, lang: str = "en") -> str:
    return " ".join(item["text"] for item in explain_offline(text, lang)["gist"])


@pytest.mark.parametrize("text, action, change", [
    ("We moved the all-gather of ZeRO-3 off the critical path, so the step time dropped from 1.9 s to 1.4 s.",
     "They moved the all-gather of ZeRO-3 off the critical path, so ", "the step time went from 1.9 s to 1.4 s"),
    ("I enabled activation checkpointing, so the memory went from 70 GB to 41 GB per GPU.",
     "They enabled activation checkpointing, so ", "the memory went from 70 GB to 41 GB per GPU"),
])
def test_a_change_keeps_what_the_author_did_to_bring_it(text, action, change):
    # "So the step time went from 1.9 s to 1.4 s" dropped the action the change measures (an A/B reader, stop 61)
    said = gist_text(text)
    assert said.startswith(action + change) and "so so" not in said
