"""Round 52: what the review of round 50 left and what round 51's readers found, each fixed by a general rule (issue 18)."""

from service.explain.compose import explain_offline


def _term_line(text: str, lang: str, start: str) -> str:
    """The answer's line for the term whose bullet starts with `start`."""
    return next(x for x in explain_offline(text, lang)["explanation"].splitlines() if x.startswith(start))


def test_a_cluster_of_processes_on_one_machine_is_no_set_of_accelerator_servers():
    # round 50 P23 (a torchft chaos run): "thirty-two copies ... on a single sixteen-core box ... the cluster had retained
    # 97.7% of the throughput" glossed as many accelerator servers linked by a network
    text = ("Thirty-two copies of a language model were training on a single sixteen-core box. Over half an hour, "
            "twenty-seven of them were killed outright, and the cluster had retained 97.7% of the throughput.")
    line = _term_line(text, "en", "- **cluster")
    assert "single machine" in line and "accelerator servers" not in line, line
    assert "جهاز واحد" in _term_line(text, "ar", "- **العنقود")
    # a cluster of GPU servers keeps its usual sense, and the definition names no model the text never does
    line = _term_line("Our cluster of 1,024 H100 GPUs over InfiniBand reached 40% MFU.", "en", "- **cluster")
    assert "accelerator servers" in line and "DeepSeek" not in line, line


def test_a_full_pod_named_by_its_generation_gives_its_chip_count():
    # TPU v6e (Trillium) pod: 256 chips, a 16x16 torus (cloud.google.com/tpu/docs/v6e; JAX scaling book ch. 2): TP x DP
    # over "a full Trillium pod" is set against 256, as "a full TPU v5p pod" is against 8,960
    from service.explain.pipeline import analyse

    (claim,) = analyse("We ran TP=4 and DP=128 on a full Trillium pod.", "en").claims
    assert claim.verdict == "inconsistent" and "256" in claim.why, claim.why
    (claim,) = analyse("We ran TP=4 and DP=64 on a full Trillium pod.", "en").claims
    assert claim.verdict == "consistent", claim.why
