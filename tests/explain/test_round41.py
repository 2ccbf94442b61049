"""Round 41: what the authors did stated as their point, a finding said with "I do not find", and gists kept whole."""

from service.explain import gist_length, reported, synthesis
from service.explain.compose import explain_offline


def _gist(text: str, lang: str = "en") -> str:
    return " ".join(item["text"] for item in explain_offline(text, lang)["gist"])


# ---- 1 what the authors did, and what they found ---------------------------------------------------------------------

def test_what_a_post_shows_it_does_is_a_proposal():
    assert reported.role("In this post, we show how we can avoid the stall by fusing the whole layer into one kernel.", "en") == "proposal"
    assert reported.role("We show how the cache can be split across two GPUs without a copy.", "en") == "proposal"
    assert reported.role("We bypass this problem by keeping the weights in shared memory.", "en") == "proposal"
    assert reported.role("The post shows a chart of the loss.", "en") != "proposal"  # no "we show how": a pointer


# written for these tests, in the shape of a short benchmark report
FINDING = ("Activation offloading seems to speed up training and I checked it with Megatron-LM on 8 GPUs.\n"
           "I however somehow do not find it beneficial for the smaller models.\n\n"
           "setting: 8 x A100\n\n"
           "This uses a larger micro-batch, since the provided config by default uses it.")


def test_a_finding_said_as_i_do_not_find_is_part_of_the_point_and_its_fillers_go():
    gist = _gist(FINDING)
    assert "seems to speed up training" in gist  # the finding the author opens with, not the config note after it
    assert "do not find it beneficial for the smaller models" in gist  # and the other side of it
    assert "however" not in gist and "somehow" not in gist and "  " not in gist  # fillers left no gap


def test_however_after_its_subject_marks_the_other_side():
    assert "contrast" in reported.roles("I however do not see any gain on one node.", "en")
    assert "result" in reported.roles("We did not see any gain on one node.", "en")


# ---- 2 a restatement that stays a sentence -----------------------------------------------------------------------------

def test_a_relative_clause_between_subject_and_verb_takes_its_closing_comma():
    said = synthesis.compressed("The cause of the slowdown, which we describe further below, is that each kernel waits for the last.", "en")
    assert said.startswith("The cause of the slowdown is that each kernel waits")
    # one that ends the sentence, or one that says what follows, is treated as before
    assert synthesis.compressed("We use FSDP, which is a library", "en") == "We use FSDP"
    assert "which means" in synthesis.compressed("The batch is split in four, which means each GPU holds a quarter, and it fits.", "en")


def test_a_second_gist_sentence_is_kept_whole_or_left_out_never_cut():
    first = "The authors report that the step takes four seconds on the cluster they use for training"  # 16 words
    second = "They add that most of the step is spent waiting for the all-reduce of the gradients over the slow network links between nodes"
    kept = gist_length.fit([first, second], 30)
    assert kept == [first, second]  # 16 + 24 words: over the budget by less than the slack, kept whole
    long_second = second + " " + " ".join(["because the switches drop packets under load"] * 3)
    kept = gist_length.fit([first, long_second], 30)
    assert kept == [first]  # far over: left out, not cut with an ellipsis
    assert all("…" not in text for text in kept)


# written for these tests, in the shape of a benchmark post: a table, then what it shows
SWEEP = ("Slowdown against tp=1 on 8 GPUs.\n\n"
         "tp | tps | peak GiB\n1 | 84 k | 133.5\n2 | 77 k | 86.1\n4 | 85 k | 53.1\n\n"
         "Ulysses pays almost nothing against tp=1 (8% at tp=2, +1% at tp=4) while the memory falls by more than half.")


def test_figures_in_brackets_back_a_claim_and_do_not_make_it_a_list_of_figures():
    gist = _gist(SWEEP)
    assert "pays almost nothing" in gist  # the sentence the table leads to, not the caption over it


def test_a_capitalised_name_the_glossary_knows_keeps_its_capital_after_says_that():
    assert reported.point("Ulysses pays almost nothing at long context", "Ulysses pays almost nothing at long context",
                          "en", "text").startswith("The text says that Ulysses")
    assert "that the step" in reported.point("The step takes 3 s", "The step takes 3 s", "en", "text")  # an ordinary word


# ---- 3 an English reader of an Arabic news text ----------------------------------------------------------------------

def _opening(text: str, lang: str = "en") -> str:
    return explain_offline(text, lang)["explanation"].split("## ")[1]


def test_a_count_of_chips_keeps_the_chip_the_text_names_after_it():
    from service.explain import cross_figures, pipeline
    said = cross_figures.line(pipeline.analyse('قالت الشركة إنها درّبت النموذج على 512 شريحة "Nvidia H800" خلال 80 ساعة.', "en"))
    assert "512 H800 chips" in said
    said = cross_figures.line(pipeline.analyse("يضم النظام نحو 100 ألف وحدة معالجة رسومات من طراز NVIDIA Blackwell.", "en"))
    assert "100,000 Blackwell chips" in said  # the chip, not its maker
    said = cross_figures.line(pipeline.analyse("يمكن ربط أكثر من 9,200 شريحة في وحدة واحدة (Pod).", "en"))
    assert "more than 9,200 chips" in said and "Pod chips" not in said  # what holds the chips is not their name


def test_a_topic_line_is_followed_by_the_figures_and_a_cost_per_unit_is_not_listed():
    said = _opening('قالت شركة ديب سيك إنها أنفقت 294 ألف دولار على تدريب نموذجها "R1" باستخدام 512 شريحة "Nvidia H800".')
    assert "It gives these figures:" in said and "$294,000" in said and "512 H800 chips" in said
    said = _opening("تبلغ تكلفة كل غيغاواط من القدرة نحو 50 مليار دولار لشركة إنفيديا.")
    assert "$50" not in said  # a cost per gigawatt alone would read as a total


# ---- 4 a table's row named by its columns ------------------------------------------------------------------------------

# written for these tests, in the shape of a benchmark table in an issue
TABLE = ("Offloading seems to help the 8B model.\n\n"
         "Offload | Throughput (tps) | Memory (GB)\nN | 6244 | 51.2\nY | 7200 | 43.0\n")


def test_a_table_row_is_named_by_its_columns_not_pasted_with_its_bars():
    from service.explain import claim_names, pipeline
    doc = pipeline.analyse(TABLE, "en")
    rows = [c for c in doc.claims if c.quote.strip().startswith("Y |")]
    assert rows and claim_names.by_columns(doc, rows[0]) == "Offload Y: Throughput (tps) 7200, Memory (GB) 43.0."
    prose = [c for c in doc.claims if "|" not in c.quote]
    assert all(claim_names.by_columns(doc, c) == "" for c in prose)  # a sentence is no row
    assert "**Y | 7200" not in explain_offline(TABLE, "en")["explanation"]


# ---- 5 a memory bandwidth against the share of peak the text states ---------------------------------------------------

def _checked(text: str) -> list:
    from service.explain import pipeline
    doc = pipeline.analyse(text, "en")
    return [(c.verdict, c.why) for c in doc.claims if c.calculations]


def test_a_bandwidth_with_its_share_of_a_named_chips_peak_is_checked():
    # H100 SXM memory bandwidth 3.35 TB/s (NVIDIA H100 datasheet): 2.2 / 3.35 = 65.7%, within 10% of the 68% stated
    found = _checked("The kernel reaches 2.2 TB/s on an H100, which is 68% of peak memory bandwidth.")
    assert found and found[0][0] == "consistent" and "65.67%" in found[0][1]
    # 1.2 / 3.35 = 35.8% against 60% stated: more than the tolerance apart
    found = _checked("The decode kernel sustains 1.2 TB/s, 60% of peak HBM bandwidth on an H100.")
    assert found and found[0][0] == "inconsistent"


def test_with_no_chip_named_the_share_implies_a_peak_and_names_the_chips_that_have_it():
    found = _checked("Our skinny GEMM reaches 2.2 TB/s, 68% of the theoretical memory bandwidth.")
    assert found and found[0][0] == "explained"
    assert "3.235 TB/s" in found[0][1] and "H100 SXM" in found[0][1]  # 2.2 / 0.68; the H100 SXM has 3.35 TB/s
    # a share of a link's line rate is not a share of the memory's peak
    assert not any("memory bandwidth" in why for _, why in _checked("We reach 45 GB/s, 90% of the 50 GB/s NIC line rate."))


# ---- 6 fixed after pack 65 was written, from the readers of packs 64 and 65 (written for these tests) -----------------

def _term(text: str, term_id: str, lang: str = "en") -> dict | None:
    return next((t for t in explain_offline(text, lang)["terms"] if t["id"] == term_id), None)


def test_i_was_wondering_if_asks_and_never_states():
    gist = _gist("On one H200 the forward pass is 4% slower than on an H100. I was wondering if the slower forward pass "
                 "is expected given H200 is the newer chip.")
    assert "whether the slower forward pass is expected" in gist
    assert "that the slower forward pass is expected" not in gist


def test_a_checkpoint_the_job_resumes_from_is_the_saved_state():
    term = _term("Throughput dropped to zero, so the team rebooted the nodes and tried resuming the job from the last "
                 "checkpoint; throughput came back for 12 minutes.", "checkpoint")
    assert term is not None and "activation" not in term["expansion"].lower()


def test_sixteen_bit_integers_and_multi_hop_reasoning_take_no_other_sense():
    assert _term("Quantization converts weights to a lower precision format such as 16-bit or 8-bit integers.",
                 "sixteen-bit-precision") is None
    assert _term("Does AWQ's quality loss compound on multi-hop reasoning tasks?", "network-hop") is None
    assert _term("وتضم السلسلة نموذجين رئيسيين يعمل كل منهما على وحدة GPU واحدة.", "serialization", "ar") is None


def test_up_to_is_said_as_up_to_and_an_arabic_term_keeps_no_doubled_english():
    said = _opening("أعلنت AMD وOpenAI عن شراكة لنشر ما يصل إلى 6 غيغاواط من وحدات معالجة الرسومات.")
    assert "up to 6 GW" in said and "less than" not in said
    from service.i18n import arabic_style
    assert "(GPUs)" not in arabic_style.polish("لنشر ما يصل إلى 6 غيغاواط من وحدات معالجة الرسومات (GPUs) عالية الأداء")


def test_a_size_its_maker_never_released_is_a_model_of_that_design_not_the_makers_model():
    term = _term("Forcing this schedule gives a further 3% speedup for the GPT-3 530B model.", "gpt-3")
    assert term is not None and "OpenAI's large dense" not in term["definition"] and "never released" in term["definition"]
    term = _term("We trained GPT-3 175B on 1024 A100s.", "gpt-3")
    assert term is not None and "OpenAI" in term["definition"]  # a released size is OpenAI's model


def test_a_sentence_pointing_back_is_no_companion_before_the_point():
    text = ("One user pasted a 60k-token document and every other user's stream froze. That's the failure mode chunked "
            "prefill exists to fix. Chunked prefill splits a long prompt into fixed-size slices, so per-step latency "
            "stays bounded no matter how long the prompt is.")
    assert "that this is the failure mode" not in _gist(text).lower()


def test_an_nvl_card_named_with_its_chip_is_the_card():
    term = _term("On 2-node H200 NVL (8 GPUs/node, 4x ConnectX-7 RoCE), NCCL over RDMA reaches ~35 GB/s.", "gpu-nvl-card")
    assert term is not None and "PCIe" in term["definition"]


def test_names_that_were_taken_for_another_entry_have_their_own():
    text = ("Missing GDRDMA or a wrong NIC mlx5_0 mapping halves bandwidth; profile with Nsight Compute; OLMoE loses 9%.")
    ids = {t["id"] for t in explain_offline(text, "en")["terms"]}
    assert {"gpudirect-rdma", "mlx5-device", "nsight-compute", "olmoe"} <= ids
    assert not {"rdma", "mellanox", "nsight-systems", "olmo"} & ids


def test_an_active_parameter_count_in_an_arabic_text_stays_active_in_english():
    said = _opening("يعمل النموذج LLaMA 4 Scout باستخدام 17 مليار معلمة نشطة و16 خبيرًا على وحدة H100 واحدة.")
    assert "17 billion parameters" not in said or "17 billion active parameters" in said


def test_a_rate_after_its_unit_in_prose_is_read_and_a_rate_the_text_calls_above_peak_is_explained():
    from service.explain import pipeline
    # A800 dense BF16 peak 312 TFLOP/s (NVIDIA A800 datasheet, as the A100's): 322 / 312 = 103.2%
    doc = pipeline.analyse("On one A800 the tflops is up to 322 at 64k sequence length, which is beyond the peak tflops "
                           "of A800. Is something wrong?", "en")
    assert any(f.quote == "322" and f.quantity == "achieved_flop_per_s" for f in doc.figures)
    found = [c for c in doc.claims if "322" in c.quote]
    assert found and found[0].verdict == "explained" and "103.2%" in found[0].why and "more than the chip can compute" in found[0].why
    # the same rate with nothing saying it is above the peak stays a doubtful reading, never a finding
    doc = pipeline.analyse("On one A800 the tflops is up to 322 at 64k sequence length, with BF16.", "en")
    assert not any("more than the chip can compute" in c.why for c in doc.claims)


def test_a_measured_rate_is_set_against_the_line_rate_the_text_gives_in_bits():
    from service.explain import pipeline
    # 400 Gb/s / 8 = 50 GB/s; 47 / 50 = 94% (the author's "consistent with the line rate" holds)
    doc = pipeline.analyse("Each machine has 8 GPUs and 8 RDMA NICs (400 Gbps). With host memory we achieved a bandwidth of approximately 47 GB/s, "
                           "which is consistent with the hardware's line rate.", "en")
    assert any("94%" in c.why for c in doc.claims)
    # 8 x 400 Gb/s = 3,200 Gb/s = 400 GB/s, the text's own conversion; 190 / 400 = 47.5%
    doc = pipeline.analyse("The engine delivers 190 GB/s out of the 400 GB/s (ie, 8×400 Gbps) network bandwidth.", "en")
    found = [c for c in doc.claims if "190" in c.quote]
    assert found and found[0].verdict == "consistent" and "47.5%" in found[0].why


def test_an_acknowledgement_in_a_thread_is_not_its_point():
    text = ("In the model card you state a micro batch size of 1 but the hyperparameters section says the effective batch "
            "size is 4M tokens. Maybe there was a data entry error.\n\n"
            "The effective batch size is the product of the global batch size and the sequence length. We run with "
            "gradient accumulation.\n\n"
            "Oh I understand, must have missed the mention of gradient accumulation. Thanks for clarifying!")
    assert "must have missed" not in _gist(text)


def test_a_label_naming_the_quantity_gives_way_to_the_reading():
    gist = _gist("In the table you write an effective batch size 4M tokens (2048x2048) instead of 1024x2048, which is wrong.")
    assert "a global batch of 4M tokens" in gist and "batch size a global batch" not in gist


def test_a_modifier_sharing_a_head_is_named_with_it_and_a_fabric_is_no_collective():
    ids = {t["found_as"]: t["id"] for t in explain_offline("We compared CPU and GPU memory settings for RDMA at 400 Gbps.", "en")["terms"]}
    assert ids.get("CPU memory") == "ram"  # "CPU" in "CPU and GPU memory" names CPU memory, headed so, not "CPU" alone
    assert _term("Nine NVLink Switch trays provide the all-to-all GPU fabric for 72 GPUs.", "all-to-all") is None


def test_the_megatron_equation_is_the_flops_formula_not_the_code_base():
    terms = {t["id"] for t in explain_offline("Our tflops is computed according to the megatron equation on 32 A800.", "en")["terms"]}
    assert "megatron-flops-formula" in terms and "megatron-lm" not in terms


def test_each_model_size_written_with_its_weights_size_is_checked_and_a_bare_g_after_it_is_bytes():
    from service.explain import pipeline
    # 72B x 2 bytes (bf16) = 144 GB; 35B x 2 = 70 GB, within 10% of the 67 GB written
    doc = pipeline.analyse("Loading OOMs when the weights exceed one card (e.g., 72B bf16 ≈ 144G, or a 35B MoE ≈ 67G vs 64G "
                           "HBM), and each process then uses ~136G RSS.", "en")
    assert {f.quote: f.quantity for f in doc.figures}.get("144G") == "memory_bytes"
    assert any(f.quote.startswith("136G") and f.quantity == "memory_bytes" for f in doc.figures)
    found = [c for c in doc.claims if "72B" in c.quote]
    assert found and found[0].verdict == "consistent" and "144 GB" in found[0].why and "70 GB" in found[0].why


def test_written_arithmetic_on_percentages_is_compared_as_percentages():
    from service.explain import pipeline
    # (100 + 7 x 5) / 8 = 16.875: the text's 15.6% is wrong, and the answer says 16.88%, never "1688%"
    doc = pipeline.analyse("If Expert 1 is 100% utilized and Experts 2-8 only 5%, then average utilization = "
                           "(100 + 5 + 5 + 5 + 5 + 5 + 5 + 5) / 8 = 15.6%.", "en")
    found = [c for c in doc.claims if c.calculations]
    assert found and found[0].verdict == "inconsistent" and "16.88%" in found[0].why and "1688" not in found[0].why
    doc = pipeline.analyse("If Expert 1 is 100% utilized and Experts 2-8 only 5%, then average utilization = "
                           "(100 + 5 + 5 + 5 + 5 + 5 + 5 + 5) / 8 = 16.9%.", "en")
    assert [c.verdict for c in doc.claims if c.calculations] == ["consistent"]


# ---- 7 fixed after packs 66 and 67 were written (round 32's readers; texts written for these tests) -------------------

def test_memory_bound_inference_latency_is_the_bandwidth_sense():
    term = _term("The accelerator has 192 GB HBM3 and 5.3 TB/s bandwidth and provides high memory capacity; it delivers "
                 "40% lower latency for memory-bound Llama2-70B inference.", "memory-bound")
    assert term is not None and "how much memory there is" not in term["definition"]


def test_a_name_joined_after_a_hyphen_is_another_system_and_request_routing_is_no_moe_router():
    ids = {t["id"] for t in explain_offline("MoE-Lightning reaches 10x higher throughput than FlexGen on one T4.", "en")["terms"]}
    assert not any("lightning" in i for i in ids)
    assert _term("It composes wide expert parallelism with prefix-cache-aware routing across 56 GPUs.", "router") is None


def test_weight_only_quantization_and_torchaos_names_have_their_entry():
    ids = {t["id"] for t in explain_offline("int8wo and int4wo on llama2-7b show peak memory of 14.50 and 15.92 GB.", "en")["terms"]}
    assert "weight-only-quantization" in ids and "weight-activation-bits" not in ids


def test_gpt_4_is_not_called_the_current_flagship():
    term = _term("GPT-5 uses more energy per response than GPT-4 did.", "gpt-4")
    assert term is not None and "flagship" not in term["definition"]


def test_a_negating_prefix_is_no_name_joined_by_a_hyphen():
    ids = {t["id"] for t in explain_offline("I was curious why you use TP here for non-BLOOM/Galactica models on A100s.", "en")["terms"]}
    assert "bloom-model" in ids  # "non-BLOOM" still names BLOOM: "non" is no system's name


def test_a_pronoun_after_a_connective_points_back_and_is_no_companion_before_the_point():
    text = ("Serving MoE models wastes memory on idle experts. Recent studies offload inactive experts to CPU memory. "
            "However, they either incur high latency or a large memory footprint due to coarse-grained designs. "
            "To tame this trade-off, we present FineMoE, a fine-grained expert offloading system with low latency.")
    assert "they either incur" not in _gist(text)  # "they" are the earlier studies, never the authors


def test_a_possessive_pointing_back_is_no_companion_away_from_its_antecedent():
    text = ("BF16-to-FP8 storage should approximately halve raw KV bytes, allowing larger rollout batches. "
            "Paper basis: KIVI finds that keys should be quantized per channel and values per token. "
            "Its more aggressive 2-bit implementation reports 2.6x less peak memory and up to 4x larger batches.")
    assert "2-bit implementation" not in _gist(text)  # "its" is KIVI's, which the gist does not name


def test_a_reduction_between_two_runs_is_a_difference_not_parts_of_a_total():
    from service.explain import pipeline
    # in the shape of round 32's NeMo pull request (a table run into one line, then what it shows)
    doc = pipeline.analyse("| Path | Step 0 save start | Step 1 save start | Elapsed | | Existing async writer | 20:07:42 | "
                           "20:08:46 | 64 s | | This PR: deferred consolidation | 20:10:37 | 20:11:36 | 59 s | The current "
                           "implementation reduced this end-to-end checkpoint cadence by about 5 seconds in this one run.", "en")
    whys = [c.why for c in doc.claims if c.calculations]
    assert whys and not any("add up to the total" in why for why in whys)
    assert any("5 seconds" in why and "5 s" in why for why in whys)  # 64 - 59 = 5, the reduction the text gives


def test_an_alias_with_its_own_short_form_is_headed_by_it():
    term = _term("Chunked prefill keeps ITL low while the first token waits longer.", "ttft-tpot")
    assert term is not None and term["expansion"].startswith("ITL (inter-token latency")  # never "ITL (TTFT ...)"
    term = _term("Our TTFT is 300 ms for an 8k prompt.", "ttft-tpot")
    assert term is not None and term["expansion"].startswith("TTFT (time to first token")


def test_fine_grained_expert_offloading_is_not_fine_grained_experts():
    assert _term("We present FineMoE, a fine-grained expert offloading system for MoE serving.", "fine-grained-experts") is None
    assert _term("DeepSeekMoE uses fine-grained experts: each expert is split into four smaller ones.", "fine-grained-experts") is not None
