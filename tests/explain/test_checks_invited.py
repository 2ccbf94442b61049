"""Checks a passage invites: a stated factor applied to the figure it scales, and a price per unit times the units.
The sentences are written for these tests; every figure is worked by hand beside its case."""

from service.explain.compose import explain_offline
from service.explain.pipeline import analyse


def _claim(text: str, needle: str, lang: str = "en"):
    doc = analyse(text, lang)
    return doc, next(c for c in doc.claims if needle in c.quote)


def test_a_stated_factor_applied_to_the_rate_before_it_is_redone():
    # 480 x 1.5 = 720: the rate the sentence says is the earlier one scaled by its own factor
    text = ("The 4-kernel version ended up at around 480 TFLOPS for the forward pass alone. For the 6-kernel version to match "
            "it, the kernels would have to run at 720 TFLOPS (since it does 6/4 = 1.5x more work).")
    _, claim = _claim(text, "720")
    assert claim.verdict == "consistent" and "480 TFLOPS x 1.5 = 720 TFLOP/s, as the text's 720 TFLOPS says" in claim.why
    _, arabic = _claim(text, "720", "ar")
    assert "480 TFLOPS × 1.5 = 720 TFLOP/s" in arabic.why


def test_a_time_divided_by_a_speed_up():
    # 300 ms / 1.5 = 200 ms
    _, claim = _claim("One step took 300 ms before. With the fused kernel it is 1.5x faster, at 200 ms per step.", "fused")
    # the stated-factor check may answer first (300 / 200 = 1.5): either way the factor holds, and says so
    assert claim.verdict == "consistent" and ("300 ms / 1.5 = 200 ms" in claim.why or "1.5x" in claim.why)
    _, later = _claim("The run took 300 ms per step before. Fusing the kernels made it 1.5x faster: 200 ms.", "Fusing")
    assert later.verdict == "consistent"


def test_a_factor_that_does_not_scale_the_earlier_figure_says_nothing():
    # 480 x 2 = 960 and 480 / 2 = 240, neither 700: which figures the 2x ties is uncertain, so no verdict and no sum
    _, claim = _claim("The 4-kernel version ended up at around 480 TFLOPS. The new kernel is 2x faster and reaches 700 TFLOPS.", "2x")
    assert claim.verdict == "explained" and "480 TFLOPS" not in claim.why
    # two earlier rates: which one is scaled is uncertain
    _, two = _claim("Kernel A reached 480 TFLOPS and kernel B 500 TFLOPS. The new kernel is 1.5x faster at 720 TFLOPS.", "new kernel")
    assert "x 1.5" not in two.why


def test_a_price_per_gigawatt_times_the_gigawatts():
    # $40 billion x 5 = $200 billion
    _, claim = _claim("Each gigawatt of capacity costs about $40 billion, and the deal covers 5 gigawatts.", "gigawatt")
    assert claim.verdict == "explained"
    assert "$40 billion per gigawatt x 5 gigawatts = about $200 billion in all" in claim.why
    # in Arabic, the power in another sentence: 40 مليار × 5 = 200 مليار دولار
    text = "ستشتري الشركة معالجات بقدرة 5 جيجاواط. وتشير التقديرات إلى أن كل جيجاواط من القدرة يتطلب استثمارات تقدر بـ 40 مليار دولار."
    _, arabic = _claim(text, "كل جيجاواط", "ar")
    assert "40 مليار دولار لكل جيجاواط × 5 جيجاواط = نحو 200 مليار دولار" in arabic.why
    # an English answer to the Arabic text names the figures in English
    _, english = _claim(text, "كل جيجاواط", "en")
    assert "$40 billion per gigawatt x 5 gigawatts = about $200 billion" in english.why


def test_no_total_when_the_units_are_uncertain():
    # two powers (4.5 and 1.5 GW): which the price applies to is uncertain
    _, claim = _claim("The first site adds 4.5 GW and the second 1.5 GW. Each gigawatt costs about $40 billion.", "Each gigawatt")
    assert "in all" not in claim.why


def test_a_factor_written_as_a_floor_is_judged_as_one():
    # 42.5 / 1.7 = 25, and 25 is more than 24: "more than 24 times" holds (a wrong 'inconsistent' before)
    _, claim = _claim("The larger pod delivers 42.5 exaflops, more than 24 times the 1.7 exaflops of the old cluster.", "42.5")
    assert claim.verdict == "consistent" and "= 25x, which fits the text's “more than 24 times”" in claim.why
    _, arabic = _claim("The larger pod delivers 42.5 exaflops, more than 24 times the 1.7 exaflops of the old cluster.", "42.5", "ar")
    assert arabic.verdict == "consistent" and "يوافق قول النص" in arabic.why
    # 34 / 1.7 = 20, not more than 24
    _, short = _claim("The larger pod delivers 34 exaflops, more than 24 times the 1.7 exaflops of the old cluster.", "34")
    assert short.verdict == "inconsistent" and "does not fit the text's “more than 24 times”" in short.why
    # a ceiling: 192 / 80 = 2.4, within "up to 3 times"
    _, ceiling = _claim("The new board has 192 GB, up to 3 times the 80 GB of the old one.", "192")
    assert ceiling.verdict == "consistent" and "2.4x" in ceiling.why
    # no bound: 20 against 24 is off
    _, exact = _claim("The larger pod delivers 34 exaflops, 24 times the 1.7 exaflops of the old cluster.", "34")
    assert exact.verdict == "inconsistent"


def test_a_stated_change_written_as_a_bound():
    # 260 / 100 = 2.6 meets "more than 2.5x" and "a speed-up of over 2x"
    _, more = _claim("Throughput rose from 100 to 260 tokens/s, more than 2.5x.", "260")
    assert more.verdict == "consistent" and "more than 2.5x" in more.why
    _, over = _claim("Throughput rose from 100 tokens/s to 260 tokens/s, a speedup of over 2x.", "260")
    assert over.verdict == "consistent"
    # 3.0 s -> 1.0 s is 3x faster (more than 2x) and 66.7% lower (at least 40%)
    _, faster = _claim("The step time fell from 3.0 s to 1.0 s, more than 2x faster.", "3.0")
    assert faster.verdict == "consistent"
    _, lower = _claim("The step time fell from 3.0 s to 1.0 s, at least 40% lower.", "3.0")
    assert lower.verdict == "consistent" and "66.67%" in lower.why
    # 3.0 -> 2.5 s is 16.7% lower: not "at least 40%"
    _, short = _claim("The step time fell from 3.0 s to 2.5 s, at least 40% lower.", "3.0")
    assert short.verdict == "inconsistent"
    # in Arabic: أكثر من 2x, and 3.0 / 1.0 = 3
    _, arabic = _claim("انخفض زمن الخطوة من 3.0 ثانية إلى 1.0 ثانية، أي أسرع بأكثر من 2x.", "3.0", "ar")
    assert arabic.verdict == "consistent" and "أكثر من 2x" in arabic.why


def test_a_total_written_as_a_floor():
    # 16 x 8 = 128: "more than 100 GPUs" holds, "more than 200" does not, "100 GPUs" exactly does not
    _, floor = _claim("We use 16 nodes of 8 H100s each, so more than 100 GPUs in total.", "16 nodes")
    assert floor.verdict == "consistent" and "more than 100 GPUs" in floor.why
    _, over = _claim("We use 16 nodes of 8 H100s each, so more than 200 GPUs in total.", "16 nodes")
    assert over.verdict == "inconsistent"
    _, exact = _claim("We use 16 nodes of 8 H100s each, so 100 GPUs in total.", "16 nodes")
    assert exact.verdict == "inconsistent"


def test_a_negated_bound_is_no_bound():
    # "not ... more than 2x": 3.0 -> 1.0 s is 3x faster, so the sentence is off, not met as a floor
    _, claim = _claim("The step time fell from 3.0 s to 1.0 s, which is not really more than 2x faster.", "3.0")
    assert claim.verdict != "consistent"


def test_a_slice_name_is_read_once_per_answer():
    # Google Cloud TPU docs: v4-8 counts TensorCores, two per chip, so 4 chips; said at its first claim only
    doc = analyse("Our v4-8 run reaches 40% MFU at 2 steps per second. The same code on v4-8 reached 35% MFU last week. "
                  "A v5p-8 run reaches 45% MFU.", "en")
    notes = [c.why for c in doc.claims if "counts TensorCores" in c.why and "v4-8" in c.why]
    assert len(notes) == 1


def test_training_states_per_card_when_the_card_is_not_in_the_catalog():
    # 2T x 16 bytes (mixed-precision Adam, ZeRO paper section 3.1) = 32 TB; / 640 GPUs = 50 GB each, before activations.
    # The V100's memory is not in data/hardware.json, so the share per card is said, not set against a guessed memory.
    _, claim = _claim("You need 640 NVIDIA V100 GPUs just to fit a two trillion parameter model for training.", "640")
    assert "32 TB of weights, gradients and optimizer states" in claim.why and "50 GB on each of the 640 GPUs" in claim.why
    assert claim.verdict == "explained"
    _, arabic = _claim("You need 640 NVIDIA V100 GPUs just to fit a two trillion parameter model for training.", "640", "ar")
    assert "تريليونا معامل" in arabic.why or "تريليون معامل" in arabic.why
    # no fitting or need said: nothing
    _, bare = _claim("We trained a two trillion parameter model on 640 NVIDIA V100 GPUs last year.", "640")
    assert "on each of the 640" not in bare.why


def test_no_adam_states_when_the_text_names_a_leaner_optimizer():
    # bitsandbytes' paged 8-bit AdamW keeps about 2 bytes of state per parameter, not Adam's 12: 16 bytes would overstate
    _, claim = _claim("I use the paged AdamW from bitsandbytes with the 70B model for full finetuning on 8 80GB A100s.", "70B")
    assert "16 bytes per parameter" not in claim.why
    # with no optimizer named, a 70B model for full finetuning on 8 x 80 GB: 70B x 16 = 1.12 TB > 640 GB, said
    _, adam = _claim("I use the 70B model for full finetuning on 8 80GB A100s.", "70B")
    assert "1.12 TB" in adam.why


def test_an_english_answer_keeps_the_name_of_a_chip_the_catalog_lacks():
    from service.explain.compose import explain_offline

    answer = explain_offline("It requires 640 NVIDIA V100 GPUs just to fit a two trillion parameter model for training.", "en")
    assert "640 NVIDIA V100 GPUs" in answer["explanation"] and "640 chips" not in answer["explanation"]


def test_two_parts_add_up_to_the_whole_of_the_sentence_before():
    # 4.5 GW + 2.5 GW = 7 GW
    doc = analyse("The five new data centers will provide a total of 7 GW. Three of them will bring more than 4.5 GW, while the "
                  "other two add 2.5 GW of GPU capacity.", "en")
    claim = next(c for c in doc.claims if "4.5 GW" in c.quote)
    assert claim.verdict == "consistent" and "4.5 GW + 2.5 GW = 7 GW" in claim.why
    # parts that do not add up to it say nothing
    doc = analyse("The five new data centers will provide a total of 7 GW. Three of them will bring more than 4.5 GW, while the "
                  "other two add 1.5 GW of GPU capacity.", "en")
    claim = next(c for c in doc.claims if "4.5 GW" in c.quote)
    assert "= 7 GW" not in claim.why


def test_a_size_with_its_share_of_a_whole_in_brackets():
    # 13B / 400B = 3.25%, which rounds to the stated 3%; 40B / 400B = 10%, not 3%
    _, claim = _claim("The model has 400B total parameters but activates only 13B (3% of 400B) per token.", "13B")
    assert claim.verdict == "consistent" and "13B of 400B is 3.2%" in claim.why
    _, off = _claim("The model has 400B total parameters but activates only 40B (3% of 400B) per token.", "40B")
    assert off.verdict == "inconsistent" and "10.0%" in off.why


def test_a_change_stated_against_a_range_is_not_judged_on_one_end_of_it():
    # "over 50% MFU, up to 20% higher than benchmarks that range from 35% to 45%": neither end is the baseline
    text = ("We estimate an MFU exceeding 50% on Hopper GPUs, up to 20% higher than public benchmarks, "
            "which typically range from 35% to 45%.")
    result = explain_offline(text, "en")
    assert all(c["verdict"] != "inconsistent" for c in result["claims"])
    assert "percentage points" not in result["explanation"]  # a range's spread is no change either


def test_a_change_between_two_rates_written_with_one_unit_is_judged_on_both():
    text = "Overlap gives +7.7% throughput (199.5 vs 185.2 TFLOP/s/GPU) at the same recompute setting."
    claim = next(c for c in explain_offline(text, "en")["claims"] if "7.7" in c["quote"])
    assert claim["verdict"] == "consistent"


def test_one_gpu_beside_whole_nodes_is_not_the_jobs_chip_count():
    # "8 for actor/ref (in one gpu, half actor, half ref)" after "4 nodes with 32 gpus": not a 70B job on one card
    text = ("I want to train 70b-PPO with ray. Using A100 80G (1 node with 8 gpus), I need 4 nodes with 32 gpus? "
            "8 for actor/ref (in one gpu, half actor, half ref).")
    assert "1 x 80 GB" not in explain_offline(text, "en")["explanation"]


def test_an_mfu_is_not_worked_out_from_another_sentences_throughput():
    # the baseline's "MFU capped at 29.4%" was "checked" with the new run's 41.4k tokens/s/GPU (75.35%)
    text = ("We trained a 3B parameter model to 100B tokens with FP8 and hit 41.4k tokens/sec/GPU and 45% MFU. "
            "But their tokens/sec/GPU plateaued at 14k, and MFU was capped at 29.4%.")
    claim = next(c for c in explain_offline(text, "en")["claims"] if "29.4" in c["quote"])
    assert "75" not in (claim["why"] or "") and claim["verdict"] != "inconsistent"


def test_a_named_result_written_with_its_working_is_redone():
    # "MFU = ... = 50.5%" was "cannot be checked yet: the text would also need to give the throughput"
    claim = explain_offline("MFU = 64 * 8.62124e15 / 4.31 / 256 / 989e+12 = 50.5%", "en")["claims"][0]
    assert claim["verdict"] == "consistent" and "50.56%" in claim["why"]


def test_a_run_time_the_text_quotes_to_reject_is_not_judged_and_the_run_is_checked_once():
    # "“A 3-week training run” is calendar framing": the author rejects it; 6 x 500B x 5T / (4,000 x 989T x 0.5) is
    # 87.8 days, held once against the author's own "around 70 days", not against every sentence that names a time
    text = ("“A 3-week training run” is calendar framing. For a 500B dense model on 5 trillion tokens at 50% MFU on "
            "4,000 H100s, the run is around 70 days, not 21. If “3 weeks” is a hard requirement, the model must be smaller. "
            "I am designing for the realistic case, a roughly 70-day run.")
    claims = explain_offline(text, "en")["claims"]
    judged = [c for c in claims if c["verdict"] == "inconsistent"]
    assert len(judged) == 1 and "70 days" in judged[0]["why"]
