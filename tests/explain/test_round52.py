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


_FP8_TABLE = ("Model | Scaling | Activation checkpointing | Median tokens/second | Peak Memory (GB)\n"
              "Llama3-8b | none (bf16) | per op SAC | 6019 | 47.65\n"
              "Llama3-8b | tensorwise | per op SAC | 7190 | 47.77\n"
              "Llama3-8b | rowwise | per op SAC | 6649 | 47.79\n\n")


def test_a_column_headed_by_a_statistic_measures_what_follows_it():
    # round 50 P16 (torchao#1793): "Median tokens/second" over 7190 left the cell a bare number; the median of a rate
    # is still a rate
    from service.explain.pipeline import analyse

    doc = analyse(_FP8_TABLE, "en")
    assert {f.quote: f.quantity for f in doc.figures}["7190"] == "tokens_per_s"


def test_percentages_between_rows_named_by_a_middle_cell_are_redone():
    # round 50 P16 (torchao#1793), a reader's check: 7190 / 6649 = 1.081 (8%) and 7190 / 6019 = 1.195 (19.5%); the
    # rows are named by the column whose cells differ (the first, Llama3-8b, is the same on every row), the baseline
    # by the word in its brackets ("none (bf16)")
    from service.explain.pipeline import analyse

    said = ("In these benchmarks tensorwise scaling achieved ~8% higher tokens/second over rowwise scaling, "
            "and ~19.5% higher than the bf16 baseline.")
    claim = analyse(_FP8_TABLE + said, "en").claims[-1]
    assert claim.verdict == "consistent" and "8.1% more than rowwise's 6649" in claim.why and "19.5%" in claim.why, claim.why
    claim = analyse(_FP8_TABLE + said.replace("~19.5%", "~29.5%"), "en").claims[-1]
    assert claim.verdict == "inconsistent" and "not the 29.5%" in claim.why, claim.why
    # "lower" is measured from the row compared with: 6649 / 7190 - 1 = -7.5%
    claim = analyse(_FP8_TABLE + "Rowwise scaling was 7.5% lower than tensorwise.", "en").claims[-1]
    assert claim.verdict == "consistent" and "7.5% less than tensorwise's 7190" in claim.why, claim.why


def _figures(text: str) -> dict[str, tuple[str, float]]:
    from service.explain.pipeline import analyse

    return {f.quote: (f.quantity, f.value) for f in analyse(text, "en").figures}


def test_a_number_written_as_a_ten_and_a_unit_is_read():
    # round 50 P23 (a torchft chaos run) and the automatic figures: "Every twenty-nine seconds" was no time at all
    got = _figures("Every twenty-nine seconds a process was killed; we started on Twenty-four GPUs.")
    assert got["twenty-nine seconds"] == ("time_s", 29.0) and got["Twenty-four GPUs"] == ("n_chips", 24.0), got


def test_a_benchmarks_settings_written_as_key_value_pairs_are_read():
    # round 50 P22 (TensorRT-LLM#1255): "batchsize:256, input_len:128, output_len:128" were three bare numbers; the
    # output length is no sequence length
    from service.explain.pipeline import analyse

    doc = analyse("In the performance doc mentioned: LLama7B, FP16, batchsize:256, input_len:128, output_len:128.", "en")
    got = [(f.quote, f.quantity, f.value) for f in doc.figures]
    assert got == [("256", "global_batch_sequences", 256.0), ("128", "seq_len", 128.0), ("128", "output_len", 128.0)], got


def test_a_percentage_of_another_measure_is_not_judged_on_the_first_rate_column():
    # "5% higher MFU" over rows whose first rate is tokens/s: the MFU column is meant (5 points, or 14% relative), so
    # no verdict is drawn from the throughput column
    from service.explain.pipeline import analyse

    table = "Run | Median tokens/second | MFU\nA | 1000 | 40%\nB | 880 | 35%\n\n"
    claim = analyse(table + "A reaches 5% higher MFU than B.", "en").claims[-1]
    assert claim.verdict != "inconsistent", claim.why
    claim = analyse(table + "A reaches 13.6% higher tokens/second than B.", "en").claims[-1]
    assert claim.verdict == "consistent", claim.why
