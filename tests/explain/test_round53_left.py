"""What round 53's readers found and stop 53 left, each fixed by a general rule (issue 18)."""

from service.explain.compose import explain_offline


def _gist(text: str, lang: str = "en") -> str:
    """The answer's opening section, without its heading."""
    return explain_offline(text, lang)["explanation"].split("## The terms")[0].replace("## In short", "").strip()


def test_a_verdict_label_announces_its_clause():
    # round 53 P15 (nanochat#798): "Verdict from that investigation: at nanochat's ... horizon MoE improves ..." was
    # restated "for verdict from that investigation, at ..."; the label announces the finding, as "Key result:" does
    text = ("Experts are sized iso-FLOP with the dense MLP so quality comparisons are compute-fair. Verdict from the "
            "sweep: at this horizon the MoE improves loss per FLOP but loses on wall clock, hence an optional branch "
            "rather than a default.")
    gist = _gist(text)
    assert "at this horizon the MoE" in gist and "but loses on wall clock, hence an optional branch" in gist, gist
    assert "for verdict" not in gist.lower(), gist


def test_a_plural_entry_is_expanded_in_the_singular_the_text_uses():
    # round 53 P15's sentence, fixed above, then read "loss per floating-point operations (FLOP)"
    gist = _gist("The verdict: this MoE improves loss per FLOP but loses on wall clock.")
    assert "per floating-point operation (FLOP)" in gist, gist
    assert "floating-point operations (FLOPs)" in _gist("The verdict: this step costs 6ND FLOPs and runs slowly.")
