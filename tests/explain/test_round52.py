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


def _definition(text: str, term_id: str, lang: str = "en") -> str:
    item = next((t for t in explain_offline(text, lang)["terms"] if t["id"] == term_id), None)
    assert item is not None, f"{term_id} not found in {text!r}"
    return item["definition"]


def _ids(text: str, lang: str = "en") -> set[str]:
    return {t["id"] for t in explain_offline(text, lang)["terms"]}


def test_a_straggler_among_generations_is_the_slowest_item_not_a_slow_chip():
    # round 51 P01 (Hugging Face, async RL): the straggler is the longest completion of a GRPO group
    text = ("With GRPO each prompt gets a group of completions, and the step waits for the straggler: the longest "
            "generation in the group.")
    assert "slowest item of a batch" in _definition(text, "straggler")
    assert "أبطأ عنصر" in _definition(text, "straggler", "ar")
    assert _definition("One straggler GPU with a bad NVLink slows every all-reduce across 1,024 GPUs.",
                       "straggler").startswith("A chip, machine or network flow")


def test_checkpointing_for_recovery_in_arabic_is_the_training_snapshot():
    # round 51 P03 (an Arabic page on TPU generations): «نقاط التحقق (checkpointing) وتحمّل الأعطال» glossed as a model
    # published for others to run, the opposite of the passage
    text = ("دون تصميم للتعافي من الأعطال لا يكتمل التدريب على آلاف الشرائح، فنقاط التحقق (checkpointing) وتحمّل "
            "الأعطال الجزئية هما ما يحفظ الإنتاجية عند تشغيل الحوامل.")
    assert "published" not in _definition(text, "checkpoint") and "resume" in _definition(text, "checkpoint")


def test_senses_the_readers_of_round_51_found_wrong():
    # P16 (a paper on disaggregated serving): elastic scaling is serving capacity following the load
    serving = "Our results highlight the critical role of dynamic rate matching and elastic scaling for disaggregated serving."
    assert _definition(serving, "elastic-training").startswith("Adding serving instances")
    # P23 (a Paddle PR): "Sharding Strategy" of Paddle's sharding stage 2 is no FSDP setting, and fusing communications
    # into one bucket is no kernel fusion
    paddle = ("Optimizing the Communication for Sharding Strategy.\nBaseline (without any Fuse or Overlap) | 29884\n"
              "Fusing several communication into one bucket communication would reduce the number of comm kernel calls.")
    assert not {"fsdp-sharding-strategy", "kernel-fusion"} & _ids(paddle)
    assert "fsdp-sharding-strategy" in _ids("We set the FSDP sharding strategy to FULL_SHARD for the 70B run.")
    assert "kernel-fusion" in _ids("torch.compile fuses the bias, the activation and the normalisation into one kernel.")
    # P21 (an Arabic page on Kimi K2): «الأداء المطلق» is no launcher, and «عمليات الفاصلة العائمة (FLOPS) اللازمة» a count
    kimi = ("ويُقلِّص هذا القرار عمليات الفاصلة العائمة (FLOPS) اللازمة للاستدلال تقليصاً كبيراً، مما يُجسِّد تصميماً "
            "يُقدِّم الكفاءة العملية على الأداء المطلق، مع تكاليف تشغيل أعلى.")
    ids = _ids(kimi, "en")
    assert "process-launcher" not in ids and "flop-per-second" not in ids and "floating-point-operations" in ids, ids


def test_definitions_that_claimed_more_than_their_term_says():
    # P13 (an Arabic page on BitNet on a CPU): the CPU is the host only in a GPU server
    assert "in a GPU server" in _definition("The model runs on the CPU of an Apple M2, with no GPU at all.", "cpu")
    # P14 (prime-rl#3210): a fused AdamW may run on the CPU
    assert "also run on the CPU" in _definition("The fused AdamW state stays on CPU while the GPU trains.", "fused-adam")
    # P15 (Anyscale): p50 latency is no P99 latency
    line = next(x for x in explain_offline("Continuous batching cut the p50 latency in half.", "en")["explanation"].splitlines()
                if x.startswith("- **p50 latency"))
    assert "P99" not in line.split(":")[0], line
    # P11 (a PyTorch blog): 2D is whatever two the setup pairs, not FSDP with TP by definition
    assert "torchtitan's naming" not in _definition("We trained with 2D parallelism: HSDP2 plus Context Parallel.", "1d-2d-parallelism")
    # P10 (UltraEP): co-design of two software parts; P25 (MoonEP#30): balance is per expert and so per GPU; P23: a
    # sharded gradient bucket is reduce-scattered
    assert "two or more parts" in _definition("It requires co-design of plan solving and replication communication.", "hw-sw-co-design")
    assert "the GPUs holding them" in _definition("Every rank receives exactly S * K token assignments, so the MoE load balance is exact.", "load-balancing")
    assert "reduce-scatter" in _definition("Gradient buckets are reduced to the shard that owns them in ZeRO stage 2.", "gradient-bucketing")
    # P25 (MoonEP#30): the gradients of prefetched expert weights are reduced too, not only data-parallel replicas'
    assert "wherever weights are copied" in _definition("It reduces weight-prefetch and backward gradient-reduction traffic.",
                                                        "gradient-synchronization")
    # P28-ar (a page on NVLink): the B200 is one GPU of two dies, not several GPUs
    b200 = _definition("A B200 GPU has eighteen NVLink links of 100 GB/s each.", "nvidia-b200", "ar")
    assert "عدة وحدات GPU" not in b200 and "قطع سيليكون" in b200, b200  # dies, not GPUs; their count is no fact of the text (round 58)


def test_sequences_counted_beside_tokens_are_no_sequence_length():
    # P31 (trl#6869): "an ep=32 x fsdp=2 step processes 2 sequences / ~4k tokens" read fsdp=2 as two steps and ~4k tokens
    # as sequences of 4,096 tokens; "sequences of 4k tokens" still gives the length
    got = _figures("so an ep=32 x fsdp=2 step processes 2 sequences / ~4k tokens.")
    assert got["fsdp=2"] == ("dp_degree", 2.0) and got["4k tokens"] == ("tokens", 4000.0), got
    assert _figures("We pack 32 sequences of 4k tokens each.")["4k tokens"] == ("seq_len", 4096.0)
    # lmsys.org (DeepSeek on 96 H100s): "for 2000-token input sequences" is a length
    assert _figures("52.3k input tokens per second per node for 2000-token input sequences.")["2000-token"] == ("seq_len", 2000.0)


def test_a_factor_stated_before_its_figures_is_redone_from_them():
    # round 51 P26 (an Arabic page on PaLM 2), a reader's check: 3.6T / 780B = 4.6x against «ما يقرب من خمسة أضعاف»
    # (nearly five times), the factor in the first sentence and the two token counts in the next two
    from service.explain.pipeline import analyse

    arabic = ("يستخدم PaLM 2 ما يقرب من خمسة أضعاف كمية بيانات التدريب مقارنة بسابقه لعام 2022.\n"
              "كشفت جوجل عن PaLM 2، وهو نموذج يعتمد على 3.6 تريليون رمز.\n"
              "تم إصدار النسخة السابقة من PaLM في عام 2022 وتم تدريبها باستخدام 780 مليار رمز مميز.")
    claim = analyse(arabic, "en").claims[0]
    assert claim.verdict == "consistent" and "4.62x" in claim.why, claim.why
    english = ("PaLM 2 uses nearly five times more training data than its predecessor. It was trained on 3.6 trillion "
               "tokens. The previous PaLM was trained on 780 billion tokens.")
    claim = analyse(english, "en").claims[0]
    assert claim.verdict == "consistent" and "the five times the text gives" in claim.why, claim.why
    # a gap is said, never judged: which two figures a factor announces is read across sentences
    claim = analyse(english.replace("nearly five", "three"), "en").claims[0]
    assert claim.verdict == "explained" and "the text gives three times" in claim.why, claim.why
    # a third token count anywhere: which two are meant is not sure, so nothing is worked
    claim = analyse(english + " Llama 3 used 15 trillion tokens.", "en").claims[0]
    assert "4.62x" not in claim.why, claim.why


def test_a_factor_written_as_a_word_is_read_and_rounded_to_the_unit():
    # "nearly five times more" for 4.62x is right to the unit a word gives; "three times" is not
    from service.explain.pipeline import analyse

    said = "PaLM 2 was trained on 3.6 trillion tokens, nearly five times more than the 780 billion tokens of PaLM."
    assert analyse(said, "en").claims[0].verdict == "consistent"
    assert analyse(said.replace("nearly five", "three"), "en").claims[0].verdict == "inconsistent"
    assert _figures("We ran the benchmark five times.") == {}


def test_a_text_that_offloads_the_optimizer_gets_no_unsharded_state_size():
    # round 51 P02 (labs-molt#121): an 80 GB H100 "whose activations and CPU-offloaded optimizer already fit" was set
    # against 16 bytes a parameter of model states "unless they are sharded or offloaded": the text says they are
    from service.explain.pipeline import analyse

    offloaded = "Full fine-tuning an 8B model with Adam and a CPU-offloaded optimizer on a single 80GB H100 runs out of memory."
    assert all("128 GB" not in c.why for c in analyse(offloaded, "en").claims)
    # without the offload, a single chip's capacity is still set against the states it must hold (8B x 16 bytes)
    assert "128 GB per chip" in analyse("Full fine-tuning an 8B model with Adam on a single 80GB H100 runs out of memory.", "en").claims[0].why


def test_a_length_written_in_tokens_is_restated_in_the_texts_own_words():
    # round 51 P31 (trl#6869): "~4k tokens" restated "~sequences of 4,096 tokens"; a length the text writes in tokens
    # keeps its words, only its number is read out
    short = _short_of("We train Llama 3 8B on 64 H100s with ~8k tokens of context per sequence, at 40% MFU.")
    assert "8,192 tokens of context per sequence" in short and "sequences of" not in short, short


def _short_of(text: str, lang: str = "en") -> str:
    return explain_offline(text, lang)["explanation"].split("\n## ", 1)[0]


def test_a_lead_line_and_its_list_give_the_lead_with_the_items_names():
    # round 51 P32 (OpenAI on parallelism): the gist was one item put after "reports that" ("The text reports that
    # tensor parallelism—break up the math ..."), an ungrammatical fragment and not the point
    text = ("Various parallelism techniques slice this training process across different dimensions, including:\n\n"
            "Data parallelism—run different subsets of the batch on different GPUs;\n"
            "Pipeline parallelism—run different layers of the model on different GPUs;\n"
            "Tensor parallelism—break up the math for a single operation such as a matrix multiplication to be split across GPUs;\n"
            "Mixture-of-Experts—process each example by only a fraction of each layer.")
    short = _short_of(text)
    assert "different dimensions — data parallelism, pipeline parallelism, tensor parallelism and Mixture-of-Experts." in short, short
    # values under a label, or paragraphs each under a label, are no list of named things
    values = ("Total host memory at 131K:\n- f16/f16: 10054 MiB = 5406 model + 4146 self\n- turbo2/turbo2: 6612 MiB = 5406 model\n"
              "- q8/q8: 7800 MiB = 5406 model + 1900 self")
    assert "—" not in _short_of(values)


def test_an_order_after_but_in_a_narrative_is_no_advice():
    # round 52 P16 (NCCL#1221), a `wrong` gist: "but run it on nodes which is more than 2 . I set NCCL_NVLS_ENABLE=0 /1"
    # (what the author did next) read as "Their advice is to run it on nodes which is more than 2"
    text = ("I had test all_reduce on 4 node (GPU 8xH100, NIC: 8x400Gb RoCE) . if I run all_reduce on single nodes or 2 nodes. "
            "when I set NCCL_NVLS_ENABLE=0 /1 . the bus BW will upgraded from 330GB to 430GB. but run it on nodes which is  more "
            "than 2 . I set  NCCL_NVLS_ENABLE=0 /1. it do not result in a performance improvement.  same busbw 320GB. why this happen？")
    assert "advice" not in _short_of(text)
    assert "advice is to run it on eight nodes" in _short_of("Run it on eight nodes to see the NVLS gain.").replace("Their", "").replace("The text's", "")


def _figures_ar(text: str) -> dict[str, tuple[str, float]]:
    from service.explain.pipeline import analyse

    return {f.quote: (f.quantity, f.value) for f in analyse(text, "ar").figures}


def test_round_52_figure_misreadings():
    # P07 (SGLang#37950): "decode TP0 ... broadcast it to TP1–TP7" names ranks, not TP degrees of 1 and 7 GPUs
    assert _figures("prefill CP0 sends the KV cache once to decode TP0, then TP0 broadcasts it to TP1–TP7 over NVLink.") == {}
    assert _figures("We train with TP8 and PP4 on 256 GPUs.")["TP8"] == ("tp_degree", 8.0)
    # P19 (Jamba, Arabic docs): «12 بليون معامل نشط و52 بليون معامل إجمالي»: the 52B are the total, not active
    got = _figures_ar("ويحتوي على 12 بليون معامل نشط و52 بليون معامل إجمالي عبر جميع الخبراء.")
    assert got["12 بليون معامل نشط"][0] == "active_params" and got["52 بليون معامل"][0] == "params", got
    # P21 (CLIP, Arabic): «400 مليون زوج صورة-نص» are image-text pairs, not tokens
    assert _figures_ar("استغرق تدريب CLIP من الصفر على 400 مليون زوج صورة-نص حوالي 12 يوماً.")["400 مليون زوج"][0] == "count"


def test_a_decoder_in_training_and_context_decoding_are_no_decode_phase():
    # P17 (AlphaCode, Arabic): «لفك التشفير» beside «للمشفر» is the decoder of an encoder-decoder model; P27 (LMDeploy):
    # "context decoding" is the prompt's pass
    assert "decode-phase" not in _ids("يستخدم التدريب تنبؤ الرمز التالي بالانتروبيا المتقاطعة لفك التشفير وخسارة نمذجة اللغة المقنعة للمشفر.", "ar")
    assert "decode-phase" not in _ids("To support fast context decoding in multi-round conversations, we replaced the attention.")
    assert "decode-phase" in _ids("In serving, the decode phase is memory-bound while prefill is compute-bound.")


def test_round_52_senses():
    # P23 (Cerebras on MoE): "routing is not deterministic" is neither bit-identical runs nor a fixed traffic pattern
    assert "training-determinism" not in _ids("The industry standard routing is not deterministic, so it is impossible to "
                                              "predict which expert will be activated for a given token in MoE layers.")
    # P06 (slime#2146): an RL weight update to the rollout engines is no optimizer step, an HF shard no Transformers library
    slime = ("Add an opt-in P2P shard weight sync path with --use-p2p-weight-update. Each Megatron TP rank sends its local HF "
             "shard to the matching SGLang TP rank, so the weight update to the rollout engines avoids the NCCL broadcast.")
    ids = _ids(slime)
    assert "optimizer-step" not in ids and "hf-transformers" not in ids, ids
    assert "optimizer-step" in _ids("After the weight update the optimizer state holds two Adam moments per parameter.")
    # P08 (sglang-jax#1402): load balancing across data-parallel ranks is no expert balance
    dp = ("Under data parallelism, load-only DP routing caps prefix reuse; cache_aware routes each request to the rank that "
          "already holds its cached prefix, with soft load balancing.")
    assert _definition(dp, "load-balancing").startswith("Spreading work or traffic evenly")
    # P25 (d2l): "30 ms to send the gradients from all 3 remaining GPUs (each transfer takes 10 ms = 160 MB / 16 GB/s)"
    from service.explain.pipeline import analyse
    claim = analyse("For the sake of the argument let's assume that the gradients are of 160 MB. In this case it takes 30 ms to "
                    "send the gradients from all 3 remaining GPUs to the fourth one (each transfer takes 10 ms = 160 MB / 16 GB/s).",
                    "en").claims[-1]
    assert "other work" not in claim.why and "3 of them make the 30 ms" in claim.why, claim.why


def test_the_nvls_switch_variable_names_nvlink_sharp():
    # round 52 P16 (NCCL#1221): NCCL_NVLS_ENABLE glossed as a generic NCCL variable ("which network cards to use ...")
    definition = _definition("when I set NCCL_NVLS_ENABLE=0 /1 the bus BW will upgraded from 330GB to 430GB.", "nvls")
    assert "NVSwitch" in definition, definition
