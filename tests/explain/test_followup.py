"""Issue 18: follow-ups are questions about the conversation: "why ...?" from the text's own reasons, "and on X?"
re-checks the claim that names what X replaces."""

import re

from service.explain.compose import explain_offline

THREAD = ("Our MoE runs on 256 TPU v5p chips without PP and gets 45% MFU. "
          "We dropped the global-batch aux loss because with PP it forced all-forward-all-backward and blew up peak memory. "
          "The 8B dense model trains with a 2M-token batch.")


def test_why_is_answered_from_the_texts_own_reason():
    result = explain_offline("why did they drop the aux loss?", "en", context=THREAD)
    gist = result["explanation"].split("\n\n")[1]
    assert gist.startswith("The text's own reason:")
    assert re.search(r"because with (?:pipeline parallelism \(PP\)|PP \([^()]+\)) it forced all-forward-all-backward", gist)
    assert "same check as before" not in result["explanation"]
    assert result["gist"][0]["from"] == [1]
    assert any(link["id"] == "batch_aux_loss_forces_afab" for link in result["reasons"])


def test_why_in_arabic_says_so_in_arabic():
    result = explain_offline("لماذا تخلوا عن aux loss؟", "ar", context=THREAD)
    assert result["explanation"].split("\n\n")[1].startswith("السبب كما يذكره النص")


def test_a_why_the_text_does_not_answer_falls_back_to_the_checks():
    result = explain_offline("why H100?", "en", context="We train on 512 H100s with TP 8.")
    assert "The text's own reason" not in result["explanation"]


def test_and_on_x_rechecks_the_claim_naming_what_x_replaces():
    context = "On TPU v5p pods at K2 scale you get excellent MFU without PP. We train our 7B model with a 1M batch."
    result = explain_offline("and on H100?", "en", context=context)
    quotes = [c["quote"] for c in result["claims"]]
    assert quotes and all("TPU" in q for q in quotes)  # the claim about the chip H100 replaces, not another
    # The text made no claim about H100s: the check answers the question, it does not call the text inconsistent.
    assert all(c["verdict"] != "inconsistent" for c in result["claims"])
