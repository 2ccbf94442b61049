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


def _claims(text: str) -> list[dict]:
    return explain_offline(text, "en")["claims"]


def test_a_factor_summing_up_the_sentences_before_is_redone_from_their_two_times():
    # round 53 P22 (SGLang PD disaggregation): "TTFT p50 is 31.1 s ... a TTFT p50 of 2.33 s. The PP8 result is therefore
    # about 13.4x slower." was left "explained"; 31.1 / 2.33 = 13.35x, within the factor's rounding
    text = ("With the prefill node set to pp_size=8, the median time to first token is 31.1 s. With tp_size=8 on the same "
            "nodes it is 2.33 s. The PP8 result is therefore about {f}x slower.")
    summing = _claims(text.format(f="13.4"))[-1]
    assert summing["verdict"] == "consistent" and "31.1 s / 2.33 s = 13.35x" in summing["why"], summing
    gap = _claims(text.format(f="20"))[-1]
    assert gap["verdict"] != "consistent" and "the text gives 20x" in gap["why"], gap
    # a comparative with both times and throughputs paired before it names neither: nothing is redone
    both = ("Run A takes 31.1 s at 900 tokens/s. Run B takes 2.33 s at 12,000 tokens/s. A is therefore about 13.4x slower.")
    assert "13.35x" not in _claims(both)[-1]["why"], _claims(both)[-1]
