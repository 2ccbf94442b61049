"""Checks that say less and are right: the check a sentence invites is made with the text's own numbers, and a trivial,
unasked or doubtful one is left out. Sentences written for these tests; published figures sourced beside each case."""

from service.explain.compose import explain_offline
from service.explain.pipeline import analyse


def _claim(text: str, needle: str, lang: str = "en"):
    doc = analyse(text, lang)
    return doc, next(c for c in doc.claims if needle in c.quote)


def _figures(text: str) -> list[tuple[str, float]]:
    return [(f.quantity, f.value) for f in analyse(text, "en").figures]


# ---- a whole job's rate over the peak the text gives for all its chips ---------------------------------------------

def test_a_rate_above_one_chip_is_set_against_the_total_peak_the_text_gives():
    # Google Cloud TPU v4 docs: 275 TFLOP/s bf16 per chip; the sentence's own total is 64 x 275 = 17,600 TFLOP/s,
    # and 5,000 / 17,600 = 28.41%. Against one chip's 275 it would be an impossible 1,818%.
    doc, claim = _claim("Our TPU v4 slice has 64 x 275 TFLOPs = 17600 TFLOPs of peak compute. "
                        "The profiler says the job runs at about 5000 TFLOPs.", "5000")
    assert "28.41%" in claim.why and "17600 TFLOPs" in claim.why
    assert claim.verdict == "explained"
    assert all(doc.calculations[i]["outputs"]["value"] <= 1 for i in claim.calculations)


def test_a_figure_that_is_the_chip_peak_gets_no_share_of_itself():
    # NVIDIA A100 datasheet: 312 TFLOPS dense BF16; "312 / 312 = 1" tells the reader nothing
    doc, claim = _claim("On an A100 a huge bf16 matmul should get around 312TFLOPS max.", "312")
    assert not claim.calculations
    assert "100%" not in claim.why


# ---- a spread over several things is not a change from one to the other ----------------------------------------------

def test_a_range_over_several_benchmarks_is_not_a_change():
    doc, claim = _claim("The new system finished training in times from 12 to 40 minutes in five MLPerf benchmarks.", "12")
    assert not claim.calculations and "higher" not in claim.why


def test_a_change_from_one_figure_to_another_is_still_compared():
    doc, claim = _claim("After the fix the step time went from 2.0 s to 1.6 s per step.", "2.0")
    assert any(doc.calculations[i]["calculator"] == "ratio" for i in claim.calculations)


# ---- a table whose rows state their own speed-up compares its set-ups ------------------------------------------------

def test_table_rows_with_a_stated_speedup_are_compared():
    # 2.00 / 1.60 = 1.25: the FP8 row's own "1.25x"
    doc, claim = _claim("Config Time/step Speedup\nBF16 2.00s 1.0x\nFP8 1.60s 1.25x", "FP8")
    assert claim.verdict == "consistent" and "1.25x" in claim.why


def test_a_stated_speedup_off_by_far_is_inconsistent_in_a_table_too():
    doc, claim = _claim("Config Time/step Speedup\nBF16 2.00s 1.0x\nFP8 1.60s 1.8x", "FP8")
    assert claim.verdict == "inconsistent"


# ---- figures read in the form their author writes ---------------------------------------------------------------------

def test_a_power_of_ten_after_a_plus_is_read():
    # OPT-175B logbook style: "3.14+23 FLOPs" is 3.14e23
    assert ("total_flops", 6.3e23) in _figures("Our run consumed about 6.3+23 FLOPs in total.")


def test_a_small_sum_is_never_read_as_a_power_of_ten():
    assert not any(value > 1e5 for _, value in _figures("The loss went from 1.5+2 to 3.5 in our notation."))


def test_chips_named_after_their_memory_size_are_counted():
    # "1024 80GB A100s": 1024 chips, the 80 GB their memory
    figures = _figures("Training ran for 30 days on 1024 80GB A100s.")
    assert ("n_chips", 1024) in figures and ("hbm_bytes", 80e9) in figures


# ---- never another chip's peak, never a needs_more said over a finding ----------------------------------------------

def test_a_chip_the_catalog_lacks_is_never_given_another_chips_peak():
    # the V100 is not in data/hardware.json: its sentence is never divided by the A100's 312 TFLOP/s named elsewhere
    doc, claim = _claim("GPT-3 took 14.8 days on 10,000 V100s and 3.14E+23 FLOPs. We trained on 512 A100s.", "V100s")
    assert not any("3.12e+14" in str(doc.calculations[i]["inputs"]) for i in claim.calculations)


def test_an_implied_mfu_names_where_its_peak_comes_from():
    # 4.3e23 / (1024 x 312e12 x 33 days) = 47.2%; 312 TFLOP/s is the A100's dense BF16 peak (NVIDIA A100 datasheet)
    doc, claim = _claim("This needed 4.30E+23 FLOPs, or about 33 days on 1024 80GB A100s.", "4.30E+23")
    assert "47.2%" in claim.why and "datasheet" in claim.why


def test_an_impossible_reading_shows_no_working():
    # 6 x 7e9 x 15e12 FLOPs in 1,000 H100-hours would be an MFU of about 17,700%: said as an uncertain reading only
    answer = explain_offline("We trained the 7B model on 15T tokens in 1,000 H100 GPU hours.", "en")
    (claim,) = [c for c in answer["claims"] if c["verdict"] == "needs_more"]
    assert "1,000 H100 GPU hours" in claim["why"]
    assert "17,69" not in answer["explanation"] and "Working" not in answer["explanation"]


def test_the_uncertain_reading_is_said_in_arabic_too():
    answer = explain_offline("We trained the 7B model on 15T tokens in 1,000 H100 GPU hours.", "ar")
    (claim,) = [c for c in answer["claims"] if c["verdict"] == "needs_more"]
    assert "غير مؤكدة" in claim["why"] and "%" not in claim["why"]


# ---- bandwidth in one direction or both -----------------------------------------------------------------------------

def test_a_figure_for_both_directions_is_halved_before_a_one_way_measurement():
    # 800 / 2 = 400 GB/s each way; 300 / 400 = 75%
    doc, claim = _claim("The link is rated 800 GB/s in both directions, yet our benchmark only reaches 300 GB/s in each direction.", "300")
    assert "400 GB/s" in claim.why and "75%" in claim.why


def test_a_named_chips_link_figure_is_known_to_count_both_directions():
    # NVIDIA A100 datasheet: NVLink 600 GB/s, both directions together (300 GB/s one way); 240 / 300 = 80%
    doc, claim = _claim("On an A100 node the advertised NVLink speed is 600 GB/s, but nccl-tests shows only 240 GB/s.", "240")
    assert "300 GB/s" in claim.why and "80%" in claim.why and "A100" in claim.why
    # ... and in Arabic, with the same working
    _, ar = _claim("On an A100 node the advertised NVLink speed is 600 GB/s, but nccl-tests shows only 240 GB/s.", "240", "ar")
    assert "الاتجاهين" in ar.why and "80%" in ar.why


def test_a_one_way_figure_is_never_halved():
    doc, claim = _claim("We measured 400 GB/s on a link that carries 450 GB/s in each direction, which is lower than expected.", "400")
    assert "both directions" not in claim.why and "225" not in claim.why


def test_a_share_written_beside_a_measured_bandwidth_is_redone():
    # 180 / 400 = 45%
    _, right = _claim("The spec is 400 GB/s and we measured 180 GB/s (45%).", "180")
    assert right.verdict == "consistent" and "45%" in right.why
    _, wrong = _claim("The spec is 400 GB/s and we measured 180 GB/s (60%).", "180")
    assert wrong.verdict == "inconsistent"


# ---- a question the text asks about its own figures ------------------------------------------------------------------

def test_the_global_batch_written_as_a_product_is_its_result():
    # "global batch size is 16*64=1024": 1024 sequences, 16 per chip; the factor is not the global batch
    figures = _figures("Our global batch size is 16*64=1024 and we train on 64 GPUs.")
    assert ("global_batch_sequences", 1024) in figures and ("global_batch_sequences", 16) not in figures


def test_a_step_time_is_redone_from_the_batch_and_the_rate():
    # 1024 sequences / 256 sequences per second = 4 s per step
    text = "We get 256 Sequences/Sec and the global batch size is 16*64=1024. So one step takes 4s. Am I right?"
    doc, claim = _claim(text, "4s")
    assert claim.verdict == "consistent" and "4 s" in claim.why
    _, wrong = _claim(text.replace("takes 4s", "takes 9s"), "9s")
    assert wrong.verdict == "inconsistent"


# ---- a size that is the set-up's memory, not a model's states --------------------------------------------------------

def test_a_requirement_equal_to_the_setups_memory_is_its_sum():
    # 4 nodes x 8 H100 80GB = 32 x 80 GB = 2,560 GB
    doc, claim = _claim("Model Task Memory Setup\nOur 70B Full fine-tuning 2560GB 4x 8x H100 80GB", "2560GB")
    assert claim.verdict == "consistent" and "2,560 GB" in claim.why
    assert "16 bytes" not in " ".join(str(doc.calculations[i]["steps"]) for i in claim.calculations)


def test_a_size_that_is_not_the_sum_gets_no_contradiction():
    # 3000 GB is not 32 x 80 GB: a requirement of another kind, never "the text says X, but the calculation gives Y"
    doc, claim = _claim("Model Task Memory Setup\nOur 70B Full fine-tuning 3000GB 4x 8x H100 80GB", "3000GB")
    assert claim.verdict != "inconsistent" and "but the calculation gives" not in claim.why


# ---- a token count from the run's own settings ------------------------------------------------------------------------

def test_a_token_count_is_redone_from_steps_batch_length_and_chips():
    # steps=20000 x 8 sequences per GPU x seq_len=2048 x GPU=32 = 10.49B tokens, the sentence's "10B tokens"
    doc, claim = _claim("With steps=20000, seq_len=2048, a per-GPU batch size of 8 and GPU=32, does that give about 10B tokens?", "steps")
    assert claim.verdict == "consistent" and "10.49B" in claim.why


def test_a_token_count_of_another_run_gets_no_verdict():
    doc, claim = _claim("With steps=20000, seq_len=2048, a per-GPU batch size of 8 and GPU=32, the 7B model saw 1T tokens.", "steps")
    assert claim.verdict != "inconsistent" and "10.49B" not in claim.why


def test_a_flop_count_nobody_asked_for_is_not_shown():
    # "1B ~60B tokens is on 64 GPUs" says nothing about compute: 6 x 1B x 60B = 3.6e20 FLOPs would be noise
    doc, claim = _claim("Yes, the 1B model with 60B tokens is on 64 GPUs.", "60B")
    assert not claim.calculations


# ---- a cluster's chips from its machines -------------------------------------------------------------------------------

def test_a_chip_total_is_checked_against_machines_times_chips():
    # 250 x 8 = 2,000
    doc, claim = _claim("The cluster had 2,000 H100 GPUs spread across 250 servers, with eight GPUs to a server.", "2,000")
    assert claim.verdict == "consistent" and "250 x 8 = 2,000" in claim.why
    _, wrong = _claim("The cluster had 2,100 H100 GPUs spread across 250 servers, with eight GPUs to a server.", "2,100")
    assert wrong.verdict == "inconsistent"
    _, ar = _claim("The cluster had 2,000 H100 GPUs spread across 250 servers, with eight GPUs to a server.", "2,000", "ar")
    assert "250 × 8 = 2,000" in ar.why and "eight" not in ar.why


def test_a_measurement_per_rail_is_set_against_the_line_rate_in_bytes():
    # 200 Gb/s / 8 = 25 GB/s; 20 GB/s per NIC is 80% of it
    text = "Each node has 8x ConnectX-6 200 Gb/s NICs.\nall_reduce_perf 8 GiB 150 GB/s busbw (per NIC ~20 GB/s)"
    doc, claim = _claim(text, "per NIC")
    assert "25 GB/s" in claim.why and "80%" in claim.why
    # a figure that is not one link's ("1 rail ... 13.1 GB/s (send + recv)") is never set against it
    other = analyse("Each node has 8x ConnectX-6 200 Gb/s NICs.\nsendrecv_perf, 2 ranks, 1 rail 13.1 GB/s (send + recv)", "en")
    assert not any("line rate" in c.why for c in other.claims)


def test_a_token_count_of_another_models_sentence_is_not_borrowed():
    # the GPT-3 sentence states no tokens; the 300B belongs to "our" model's run: not combined into 6 x N x D
    doc, claim = _claim("Our 13B model completed its run on 300B tokens. The 175B GPT-3 model consumed 3.14E+23 FLOPs.", "GPT-3")
    assert not any(doc.calculations[i]["calculator"] == "training_flops" for i in claim.calculations)


def test_parts_that_add_up_to_the_whole_are_said():
    # 300B + 700B = 1T tokens
    doc, claim = _claim("The model was trained on 1T tokens: 300B tokens of code and 700B tokens of text.", "1T")
    assert claim.verdict == "consistent" and "300B + 700B = 1T" in claim.why
    _, other = _claim("The model was trained on 1T tokens: 300B tokens of code and 500B tokens of text.", "1T")
    assert other.verdict != "inconsistent" and "add up" not in other.why


def test_memory_parts_are_added_in_the_unit_the_text_wrote():
    # 11.3 GiB + 32.6 GiB = 43.9 GiB; said in GB ("12.13 GB + 35 GB = 47.14 GB") a round-12 reader found it confusing
    text = "This appears to be a 11.3GiB leap in PyTorch reserved memory only (32.6GiB -> 43.9GiB)."
    _, claim = _claim(text, "11.3GiB")
    assert claim.verdict == "consistent" and "11.3 GiB + 32.6 GiB = 43.9 GiB" in claim.why
    arabic = explain_offline(text, "ar")["explanation"]
    assert "`11.3 GiB + 32.6 GiB = 43.9 GiB`" in arabic  # one formula set left to right, not cut in the middle


# ---- a table row that states its own gain ----------------------------------------------------------------------------

def test_a_rows_gain_is_redone_within_the_rounding_of_its_figures():
    # 1200 / 800 - 1 = 50%; "12K 15K 20%": 15/12 - 1 = 25%, but 11.5K-12.5K and 14.5K-15.5K allow 16% to 34.8%
    text = "Model size tokens/s (old) tokens/s (new) Percent gain\n8B 12K 15K 20%\n70B 800 1200 50%"
    _, large = _claim(text, "70B")
    assert large.verdict == "consistent" and "50%" in large.why
    _, small = _claim(text, "8B")
    assert small.verdict == "consistent" and "rounding" in small.why


def test_a_rows_gain_far_outside_the_rounding_is_not_judged():
    _, row = _claim("Model size tokens/s (old) tokens/s (new) Percent gain\n70B 800 1200 90%", "70B")
    assert row.verdict != "consistent" and row.verdict != "inconsistent"


def test_a_row_without_a_gain_header_is_left_alone():
    _, row = _claim("Model size tokens/s (old) tokens/s (new) Share\n70B 800 1200 50%", "70B")
    assert "gain" not in row.why


def test_two_token_counts_compared_are_said_as_a_factor_in_both_languages():
    # 12 / 2 = 6 times
    _, en = _claim("They trained on more data (12 trillion tokens vs. 2 trillion for the old model).", "12 trillion")
    assert "6 times" in en.why
    _, ar = _claim("They trained on more data (12 trillion tokens vs. 2 trillion for the old model).", "12 trillion", "ar")
    assert "tokens" not in ar.why and "تريليون" in ar.why


# ---- a size written as parameters x bytes -------------------------------------------------------------------------------

def test_a_size_written_as_parameters_times_bytes_is_redone_in_both_languages():
    # 500e6 x 2 bytes = 1 GB
    for text, lang in (("That means (500 × 10^6) * (2 bytes) = 1 GB.", "en"), ("هذا يعني أن هناك (500 × 10^6) * (2 بايت) = 1 جيجابايت.", "ar"),
                       ("That means 500M x 2 bytes = 1 GB.", "en")):
        (claim,) = analyse(text, lang).claims
        assert claim.verdict == "consistent", (text, claim.why)
    (wrong,) = analyse("That means 500M x 2 bytes = 3 GB.", "en").claims
    assert wrong.verdict == "inconsistent"


def test_an_english_answer_names_an_arabic_figure_in_english():
    (claim,) = analyse("هذا يعني أن هناك (500 × 10^6) * (2 بايت) = 1 جيجابايت.", "en").claims
    assert "1 GB" in claim.why and "جيجابايت" not in claim.why


def test_a_table_row_with_its_own_two_columns_is_checked_against_them_not_the_row_above():
    text = ("seq_len baseline patched Difference\n"
            "384 9,889 tok/s 9,963 tok/s +0.7% (patched faster)\n"
            "512 13,151 tok/s 13,092 tok/s -0.4% (baseline faster)\n")
    result = explain_offline(text, "en")
    assert not any(c["verdict"] == "inconsistent" for c in result["claims"])
    row = next(c for c in result["claims"] if "13,151" in c["quote"])
    assert row["verdict"] == "consistent"


def test_tokens_per_second_per_named_gpu_is_one_chips_rate():
    # "per A100-40G GPU": the chip's name between "per" and "GPU" still makes the rate one chip's
    result = explain_offline("We reach 24k tokens per second per A100-40G GPU, which is 56% MFU for our 1.1B model.", "en")
    assert any(f["quantity"] == "tokens_per_s_per_chip" and f["value"] == 24000 for f in result["figures"])
    assert not any(c["verdict"] == "inconsistent" for c in result["claims"])


def test_a_total_beside_two_chip_counts_is_checked_only_against_the_count_it_fits():
    # "256 chips, while the larger reaches 9,216 chips, giving 42.5 exaflops": 42.5 EF / 256 would call a right
    # per-chip figure wrong; the count the per-chip figure bears out is the one checked
    text = ("تتوفر معالجات Ironwood بحجمين، الأول يضم 256 شريحة، في حين يصل التكوين الأكبر إلى 9216 شريحة، "
            "تقدم قوة معالجة تبلغ 42.5 إكزافلوب. وتقدم كل شريحة 4614 تيرافلوب.")
    verdicts = [c["verdict"] for c in explain_offline(text, "en")["claims"] if c["calculations"]]
    assert "inconsistent" not in verdicts and "consistent" in verdicts
    wrong = text.replace("4614", "9000")  # no count fits the per-chip figure: no verdict rather than a guess
    assert "inconsistent" not in [c["verdict"] for c in explain_offline(wrong, "en")["claims"]]


def test_a_factor_between_both_directions_and_one_is_redone_like_for_like():
    # a round-10 reader: "consistent: 14x" for 900 GB/s (both directions) against 64 GB/s (each direction); 450 / 64 = 7x
    text = ("PCIe Gen5 gives 64 GB/s in each direction, while NVLink 4 on the H100 gives 900 GB/s bidirectional "
            "(about 14x faster).")
    _, claim = _claim(text, "64 GB/s")
    assert claim.verdict == "inconsistent" and "7.03" in claim.why
    fair = "PCIe Gen5 gives 64 GB/s in each direction, while NVLink 4 gives 900 GB/s bidirectional (about 7x faster)."
    _, other = _claim(fair, "64 GB/s")
    assert other.verdict == "consistent" and "7.03" in other.why


def test_one_links_total_is_not_halved_by_another_links_both_directions_figure():
    # a round-9 reader: "1.8 TB/s counts both directions ...; 600 GB/s is 66.67% of that" set A100's NVLink 3 total
    # against NVLink 5's one-way figure: a capacity of another link, not a measurement of this one
    text = ("NVLink 5.0 provides 1.8 TB/s of total bidirectional bandwidth per GPU. "
            "NVLink 3.0, used in A100 GPUs, supports up to 12 links for a total of 600 GB/s.")
    assert not any("66.67%" in c.why for c in analyse(text, "en").claims)
    measured = "NVLink 5.0 provides 1.8 TB/s of total bidirectional bandwidth per GPU. We measured 600 GB/s with nccl-tests."
    _, ours = _claim(measured, "600 GB/s")
    assert "66.67%" in ours.why


def test_a_bus_bandwidth_on_the_next_log_line_is_checked_against_its_algorithm_bandwidth():
    # nccl-tests PERFORMANCE.md: all_reduce busbw = algbw x 2(n-1)/n; with 16 ranks 11.396 GB/s gives 21.37 GB/s, so a
    # logged 18.973 GB/s disagrees (a round-10 reader: "the text's busbw disagrees and is still passed as consistent")
    text = ("The average bandwidth of all_reduce with a 40.0GB payload (5 trials, 16 ranks):\n"
            "algbw: 11.396 GBps (91.2 Gbps)\nbusbw: 18.973 GBps (151.8 Gbps)")
    _, alg = _claim(text, "algbw")
    assert alg.verdict == "inconsistent" and "21.37" in alg.why
    _, bus = _claim(text, "busbw")
    assert bus.verdict == "consistent" and "151.8 Gb/s" in bus.why  # bytes to bits said in bits, not as 18.97 GB/s
    fine = text.replace("18.973 GBps (151.8 Gbps)", "21.368 GBps (170.9 Gbps)")
    assert _claim(fine, "algbw")[1].verdict == "consistent"


def test_a_g_for_giga_before_tokens_is_a_count_the_arithmetic_checks():
    # 151k x 3600 x 24 x 7 x 5 = 456.6e9: the question a round-10 reader said was the one to check
    _, claim = _claim("So shouldn't it be 151k * 3600 * 24 * 7 * 5 = 456G tokens?", "456G")
    assert claim.verdict == "consistent" and "456.6B" in claim.why


def test_a_run_time_with_no_mfu_in_the_text_is_not_said_to_need_one():
    # "five weeks with TPU v3-256": what a check would need (an MFU no such text gives) was read as a wrong statement
    text = "GPT-J was trained on 400B tokens. GPT-J training took roughly five weeks with TPU v3-256."
    _, claim = _claim(text, "five weeks")
    assert "MFU" not in claim.why


def test_a_bare_scaled_number_is_quoted_not_given_a_guessed_noun():
    # "the 2.7B GPT-Neo" was restated as "the 2.7B tokens GPT-Neo": 2.7B is the model's size, and the text names no unit
    from service.explain import restate
    text = "Throughput of the 6B GPT-J (151k tokens/s) is faster than the 2.7B GPT-Neo (148k tokens/s)."
    doc = analyse(text, "en")
    assert "2.7B tokens" not in restate.expand(doc, 0, len(text), "en")


def test_an_inference_rate_listed_after_a_training_mfu_is_not_made_into_a_training_mfu():
    # a round-9 reader: 42 tokens/s/chip of inference gave "the calculation gives 3.843%" against the 53% training MFU
    text = ("For Llama 2 70B parameters, we deliver 53% training MFU, 17 ms/token inference latency, "
            "42 tokens/s/chip throughput powered by PyTorch/XLA on Google Cloud TPU v5p.")
    _, claim = _claim(text, "53%")
    assert "3.8" not in claim.why


def test_a_unit_conversion_the_text_states_rightly_is_not_shown_as_a_check():
    # a round-12 reader: "6 GW is indeed 6 billion" is noise; a scale word that does not match is still a finding
    doc = analyse("Humain plans about 6 GW of data-centre capacity. 6 GW equals 6 billion watts.", "en")
    assert not any("6 billion" in c.why for c in doc.claims)
    _, wrong = _claim("Ironwood reaches 42.5 exaflops, i.e. a million trillion operations per second.", "42.5 exaflops")
    assert wrong.verdict == "inconsistent"


def test_a_data_size_from_one_size_to_another_with_its_factor_is_checked_in_its_sentence_only():
    # 74.4 GB / 86.8 MB = 857x (DisTrO's reported saving); a size met again in another sentence is no change
    _, claim = _claim("DisTrO reduces the data transferred per step from 74.4 GB to 86.8 MB, an 857x reduction.", "74.4 GB")
    assert claim.verdict == "consistent" and "857" in claim.why
    text = ("The forward pass all-gathers 0.8GB per rank.\n"
            "The backward pass communicates twice 0.8GB each (1x all-gather and 1x reduce-scatter).")
    assert not any(c.verdict == "inconsistent" for c in analyse(text, "en").claims)
    assert not any("3.26x" in c.why for c in analyse(text, "en").claims)  # said as the text says it, 0.31x


def test_an_amount_something_changed_by_is_set_against_the_two_figures_given_for_it():
    # a round-12 reader: "leaps by 13.2GiB. End of step 1=70.4GiB, end of step 2=81.6GiB" is 81.6 - 70.4 = 11.2 GiB
    text = "Yet for unpaged optimizer: memory usage leaps by 13.2GiB. End of step 1=70.4GiB, end of step 2=81.6GiB."
    _, claim = _claim(text, "End of step 1")
    assert claim.verdict == "inconsistent" and "11.2 GiB" in claim.why
    _, right = _claim("The step time drops by 40 ms, from 480 ms to 440 ms.", "40 ms")
    assert right.verdict == "consistent"
    _, rounded = _claim("Memory grows by 11.3GiB, from 32.6GiB to 43.9GiB.", "11.3GiB")
    assert rounded.verdict == "consistent"  # 43.9 - 32.6 = 11.3


def test_gpu_years_are_chip_time_and_divide_by_the_chips_into_the_runs_days():
    # Lambda's GPT-3 estimate: 355 GPU-years on one V100; 355 x 365.25 / 1,000 GPUs = 129.7 days
    text = "Training GPT-3 would take 355 GPU-years on a single GPU; with 1,000 GPUs it takes about 130 days."
    assert [f.quantity for f in analyse(text, "en").figures][0] == "chip_days"
    _, claim = _claim(text, "1,000 GPUs")
    assert claim.verdict == "consistent" and "129.7 days" in claim.why


def test_a_result_written_with_a_scale_letter_may_be_cut_by_one_unit():
    # a round-13 reader: "8 * 4249 = 33k toks/sec" called inconsistent with 33,992; "33k" is the figure cut, not wrong
    _, claim = _claim("v5e-8 should have 8 * 4249 = 33k toks/sec", "33k")
    assert claim.verdict == "consistent"
    _, wrong = _claim("v5e-8 should have 8 * 4249 = 30k toks/sec", "30k")
    assert wrong.verdict == "inconsistent"


def test_a_stated_factor_under_one_is_redone_small_over_big():
    # a round-14 reader: "the text says 0.31x, but the calculation gives 3.26x" for 40,208 / 131,072 = 0.31 (right)
    text = "capacity 40,208 tokens; max concurrency at 131,072 tokens per request: 0.31x"
    assert not any(c.verdict == "inconsistent" for c in analyse(text, "en").claims)
    assert not any("3.26x" in c.why for c in analyse(text, "en").claims)  # said as the text says it, 0.31x


def test_a_passage_about_deploying_a_model_gets_no_training_pipeline_sizing():
    # a round-14 reader: "62.91M / 2,048 = 30,720 ... DP-comms bound" on a passage about serving DeepSeek-R1 (no
    # number from the text; a served model exchanges no gradients)
    text = ("Deploying a 685 B-parameter model like DeepSeek-R1 presents significant technical challenges. At this scale, "
            "the model can't fit on a single GPU or even a single node. You must distribute it across multiple GPUs and "
            "nodes using tensor parallelism and pipeline parallelism.")
    doc = analyse(text, "en")
    assert not any(c["calculator"] == "pp_necessity" for c in doc.calculations)


def test_a_measured_rate_is_said_as_a_share_of_its_links_total_line_rate():
    # nccl#812 (AddyLaddy): a DGX-A100's 8x200Gbit/s IB cards give 200 GB/s; its measured 192GB/s busbw is 96% of it
    _, claim = _claim("On an Nvidia DGX-A100 system we have 8x200Gbit/s IB cards and we measure 192GB/s AllReduce BusBW.",
                      "192GB/s")
    assert "96%" in claim.why and "200 GB/s" in claim.why and claim.verdict == "explained"
    _, low = _claim("But you're only getting 60GB/s from Ring - that seems a little low for 8x100Gbit/s NICs.", "60GB/s")
    assert "60%" in low.why


# ---- a chip's rate from tokens over chip-hours --------------------------------------------------------------------

def test_tokens_over_chip_hours_is_one_chips_rate():
    # written for this test in the shape of a round-15 thread: 150e9 / (1500 * 3600) = 27,778 tokens/s per chip
    text = "In the paper, 150B tokens of training cost 1.5K A100 gpu hours, which means 27777 token/s / per a100."
    _, claim = _claim(text, "27777")
    assert claim.verdict == "consistent" and "27,777.8" in claim.why
    _, wrong = _claim(text.replace("27777", "55555"), "55555")
    assert wrong.verdict == "inconsistent"


def test_a_rate_per_named_chip_is_per_chip_and_gpu_hours_in_lower_case_are_chip_hours():
    doc, _ = _claim("It runs at 3000 tokens/s per A100 and the run took 1.5K A100 gpu hours.", "3000")
    quantities = {f.quote: f.quantity for f in doc.figures}
    assert quantities["3000 tokens/s"] == "tokens_per_s_per_chip" and quantities["1.5K A100 gpu hours"] == "chip_hours"


# ---- round 17: right figures once called inconsistent -------------------------------------------------------------

def test_sizes_worked_in_powers_of_1024_are_right():
    # 320 KB x 131,072 = 40 GiB exactly, written "40 GB"; 320 KB x 4,096 = 1,280 MB (one step of 1,024) = "1.28 GB"
    text = "The KV cache per token is 320 KB. At 4,096 tokens: 320 KB * 4,096 = 1.28 GB; at 128K tokens: 320 KB * 131,072 = 40 GB."
    doc = analyse(text, "en")
    assert not any(c.verdict == "inconsistent" for c in doc.claims)
    wrong = analyse("The KV cache per token is 320 KB. At 128K tokens: 320 KB * 131,072 = 60 GB.", "en")
    assert any(c.verdict == "inconsistent" for c in wrong.claims)


def test_hsdp2_names_pytorchs_implementation_not_a_degree():
    # "HSDP2" read as a data-parallel degree of 2 had made "1856 GPUs" inconsistent with 2 x 2 = 4
    text = "We used a B200 cluster with 1856 GPUs and TorchTitan (Llama3-70B, HSDP2, Context Parallel=2)."
    assert not any(c.verdict == "inconsistent" for c in analyse(text, "en").claims)


def test_two_factors_each_against_its_own_figure_are_not_paired():
    # 192 / 80 = 2.4 and 192 / 128 = 1.5: "1.5x" is not the factor between 80 GB and 128 GB
    text = ("The MI300X has 192GB of HBM3 memory. This is 2.4x more memory than competing 80GB accelerators, and 1.5x "
            "more than 128GB alternatives.")
    assert not any(c.verdict == "inconsistent" for c in analyse(text, "en").claims)
