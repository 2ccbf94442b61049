"""Round 54: what round 54's readers found, each fixed by a general rule (issue 18)."""

from service.explain.compose import explain_offline
from service.explain.figures import read_figures


def _claims(text: str, lang: str = "en") -> list[dict]:
    return explain_offline(text, lang)["claims"]


def test_the_number_after_plus_minus_is_an_uncertainty_not_a_figure():
    # round 54 P06 (a decode-speed issue): "decode 96.4 tok/s at 52-token context -> 36.1 ± 1.2 tok/s" was worked as
    # "96.4 tok/s / 1.2 tok/s = 80.33"; the 1.2 is the measurement's error bar and its unit is the 36.1's
    figures = read_figures("decode 96.4 tok/s at short context -> 36.1 ± 1.2 tok/s at long context.")
    assert [(f.quantity, f.value) for f in figures] == [("tokens_per_s", 96.4), ("tokens_per_s", 36.1)], figures
    assert figures[1].quote == "36.1 ± 1.2 tok/s"
    step = read_figures("The step takes 410 +/- 12 ms on 64 GPUs.")
    assert [(f.quantity, round(f.value, 3)) for f in step] == [("time_s", 0.41), ("n_chips", 64)], step
    # a bare uncertainty borrows nothing from a cue further on ("0.02; MFU 41%" is no MFU of the loss)
    assert [f.quantity for f in read_figures("Loss 2.31 ± 0.02; MFU 41%.")] == ["number", "mfu"]
    worked = " ".join(c["why"] for c in _claims("Decode runs at 96.4 tok/s at 52 tokens of context and 36.1 ± 1.2 tok/s "
                                               "at 35,890."))
    assert "80.3" not in worked, worked


def _terms(text: str, lang: str = "en") -> list[str]:
    return [t["term"] for t in explain_offline(text, lang)["terms"]]


def _gist(text: str, lang: str = "en") -> str:
    """The answer's opening section, without its heading."""
    return explain_offline(text, lang)["explanation"].replace("## In short", "", 1).split("\n## ")[0].strip()


def test_a_pipe_table_row_is_never_the_gist_and_sharded_is_split_across_chips():
    # round 54 P23 (a critical-batch-size table for TPU v5p): the gist was the header row "strategy | What gets split
    # across the GPUs | Critical batch size (TPU v5p)", with GPUs the text never names; the line above the table is the point
    text = ("Each parallelism strategy has a critical batch size below which you're just paying for idle chips waiting on "
            "AllGathers.\nStrategy | What gets sharded | Critical batch size (TPU v5p)\nData Parallel (DP) | Activations "
            "(batch) | B/N > 2550\nFSDP (ZeRO-3) | Activations + weights + optimizer | B/N > 850 (3-axis)\nFSDP + TP | "
            "Both! | B/N > 235 (for LLaMA-2 13B)")
    gist = _gist(text)
    assert "critical batch size below which you're paying for idle chips" in gist and "|" not in gist, gist
    assert "split across the chips" in _gist("On TPU v5p the optimizer state is sharded, so each chip holds a part.")


def test_two_letters_ac_need_a_training_or_power_word():
    # round 54 P06: "(resident tier, AC, jacquard measure, same binary): decode 96.4 tok/s" is a measurement condition
    decode = "It is a long-context decode issue. Measured (resident tier, AC, jacquard measure, same binary): decode 96.4 tok/s."
    assert "activation checkpointing" not in _terms(decode)
    assert "activation checkpointing" in _terms("We train Llama 3 8B with full AC and FSDP on 64 GPUs.")


def test_nvidia_gpu_cloud_is_no_neocloud():
    # round 54 P07: "NVIDIA GPU Cloud (NGC)" was glossed as a GPU-rental company
    assert "neocloud" not in _terms("MAP-Neo used NVIDIA GPU Cloud (NGC) containers and Megatron.")
    assert "neocloud" in _terms("GPU clouds such as CoreWeave rent H100s by the hour.")


def test_a_recipe_and_a_checkpoint_interval_in_words_that_fit_any_text():
    # round 54 P26 ("the recipe: same family, same tokenizer, much smaller" for a draft model) and P22 ("moves that staging
    # cost into the checkpoint interval"): the definitions said only a framework's shipped settings and only a frequency
    recipe = next(t for t in explain_offline("The recipe: same family, same tokenizer, much smaller draft model.", "en")["terms"]
                  if t["term"] == "recipe")
    assert "rule of thumb" in recipe["definition"], recipe
    interval = next(t for t in explain_offline("The staging cost moves into the checkpoint interval of 500 steps.", "en")["terms"]
                    if t["term"] == "checkpoint interval")
    assert interval["definition"].startswith("The stretch of training between two checkpoint saves"), interval


def test_a_table_of_two_cells_a_row_is_no_gist_and_no_sync_is_also_fsdps():
    # round 54 P13 (a page on InfiniBand and RoCE): the gist was the row "NVLink (A100, per GPU) | 600 GB/s"
    text = ("Link | Bandwidth\nNVLink (A100, per GPU) | 600 GB/s\nNVLink (A800, per GPU) | 400 GB/s\nInfiniBand HDR | 200 "
            "Gbps (25 GB/s)\nBoth are viable at scale, and we pick based on cluster size, budget and operational maturity.")
    assert "|" not in _gist(text), _gist(text)
    # round 54 P10 (FSDP on a PCIe box): no_sync() under FSDP skips the reduce-scatter, not only DDP's all-reduce
    no_sync = next(t for t in explain_offline("Under FSDP we wrap the accumulation steps in no_sync() to save traffic.", "en")["terms"]
                   if t["term"].startswith("no_sync"))
    assert "FSDP's reduce-scatter" in no_sync["definition"], no_sync


def test_a_zero_stage_from_another_row_shards_no_rows_states():
    # round 54 P15 (an 8xH200 sizing table): "13B | 26 GB | 104 GB | ... | Yes (2 GPUs)" was called consistent through
    # ZeRO-3 taken from the 70B row and 16 bytes per parameter over 2 chips; the 104 GB is the row's AdamW states alone
    text = ("With 8 × 141 GB = 1,128 GB total HBM3e, the single-node capacity for training is:\nModel Size | BF16 Weights | "
            "Optimizer (AdamW) | Fits?\n7B | 14 GB | 56 GB | Yes (single GPU)\n13B | 26 GB | 104 GB | Yes (2 GPUs)\n70B | "
            "140 GB | 560 GB | Yes (8 GPUs, ZeRO-3)")
    calculators = [c["calculator"] for c in explain_offline(text, "en")["calculations"]]
    assert "model_state_memory" not in calculators, calculators
    # one set-up, its stage said in another sentence: still sharded over its GPUs (1.12 TB / 64 = 17.5 GB)
    one = "We use ZeRO-3 across 64 GPUs. The 70B model's 1.12 TB of states is 17.5 GB per GPU."
    assert "model_state_memory" in [c["calculator"] for c in explain_offline(one, "en")["calculations"]]


def test_hdr_is_named_as_a_speed_grade_not_as_ndr():
    # round 54 P13 (Arabic answer): "**HDR** (NDR)" equated two InfiniBand generations
    for lang in ("en", "ar"):
        lines = [line for line in explain_offline("Our nodes use InfiniBand HDR at 200 Gbps per port.", lang)["explanation"]
                 .splitlines() if line.startswith("- **HDR**")]
        assert lines and "(NDR" not in lines[0], lines


def test_t_per_s_is_tokens_per_second_and_combining_is_no_moe_step():
    # round 54 P17 (llama.cpp): "29.7 vs 19 t/s" was two bare numbers; P03 (a sequence-parallel page): "combining
    # Ulysses-style All-to-All parallelism with ZigZag Ring Attention" was glossed as MoE dispatch/combine, and its
    # "KV cache" of a 128K-token training input as the cache of text generation
    assert [f.quantity for f in read_figures("measured: 29.7 vs 19 t/s on Gemma 26B")][:2] == ["tokens_per_s", "tokens_per_s"]
    text = ("Twinkle's Sequence Parallel module splits the sequence dimension across devices, combining Ulysses-style "
            "All-to-All parallelism with ZigZag Ring Attention. For a 128K-token input you cannot fit the KV cache and "
            "attention matrices on one GPU.")
    terms = {t["term"]: t for t in explain_offline(text, "en")["terms"]}
    assert "dispatch/combine" not in terms and terms["KV cache"]["definition"].startswith("Here KV means"), terms.keys()
    assert "dispatch/combine" in [t["term"] for t in explain_offline(
        "DeepEP's dispatch and combine kernels move tokens to the experts and back.", "en")["terms"]]


def test_a_decode_step_time_is_no_training_step():
    # round 54 P16 (vLLM on Ascend): "decode step time at per-engine bs 12-16 is ~120-150 ms/token" was defined as the
    # time of one training step
    serving = {t["term"]: t for t in explain_offline("With MTP enabled, decode step time at per-engine bs 12 is about "
                                                     "120 ms/token.", "en")["terms"]}
    assert serving["step time"]["definition"].startswith("In a serving engine"), serving["step time"]
    training = {t["term"]: t for t in explain_offline("The step time of our 70B pre-training run is 9 s at 40% MFU.", "en")["terms"]}
    assert training["step time"]["definition"].startswith("Wall-clock time of one step"), training["step time"]


def test_a_rent_per_gpu_hour_is_no_price_each_and_a_clusters_hourly_price_is_said_where_it_fits():
    # a price "per GPU-hour" was taken for a price per GPU: "64 GPUs at $2 each make $128, not the $9,216" (64 x 2 x 72)
    (rent,) = _claims("Renting 64 GPUs at $2 per GPU-hour for 72 hours costs $9,216.")
    assert rent["verdict"] == "consistent" and "$9,216" in rent["why"], rent
    # round 54 P01 (a post on XID 79): "a 72-hour ... run ... On a 64-GPU cluster at $200/hour, that's $14,000" is
    # $200 x 72 h = $14,400, said; a price that would have to be each chip's is not judged either way
    said = _claims("When this hits during a 72-hour training run, you lose the entire run. On a 64-GPU cluster at "
                   "$200/hour, that's $14,000 in wasted compute.")[-1]
    assert said["verdict"] == "consistent" and "× 72 hours = $14,400" in said["why"], said
    other = _claims("When this hits during a 72-hour training run, you lose it all. On a 64-GPU cluster at $200/hour, "
                    "that's $900,000 in wasted compute.")[-1]
    assert other["verdict"] != "inconsistent" and "$14,400" not in other["why"], other


def test_a_failure_inside_brackets_is_no_problem_of_the_sentence():
    # round 54 P17 (llama.cpp): "RPC only supports layer split (--split-mode row / tensor fail with RPC devices)" gave
    # the Arabic gist «يذكر الكاتب مشكلة فيما يخص RPC: يفشل التشغيل», though layer split over RPC works
    text = ("Multi-node inference is limited to --split-mode layer via RPC. This works but leaves performance on the table.\n"
            "RPC only supports layer split (--split-mode row / tensor fail with RPC devices)")
    assert "يفشل التشغيل" not in explain_offline(text, "ar")["explanation"]
    assert "يفشل التشغيل" in explain_offline("With the default settings the model fails to load on two A2 cards.", "ar")["explanation"]


def test_a_closing_request_for_insights_is_no_point():
    # round 54 P05 (a PyTorch forum request): the gist was "The author asks for some insights, or let them know if they
    # are missing something", the post's closing courtesy, not its request for asynchronous checkpoint saving
    text = ("Currently, saving checkpoints synchronously will block training greatly in LLM situations. We're in need of an "
            "asynchronous checkpoint saving feature. Could you provide some insights, or let me know if I'm missing something?")
    gist = _gist(text)
    assert "asynchronous checkpoint saving" in gist and "insights" not in gist, gist


def test_capacity_padding_is_an_experts_empty_slots():
    # round 54 P20 (marin#4017, read after the judging): "the default 1.25 padding cost about 8% throughput" of an MoE
    # capacity factor was defined as pad tokens added to shorter sequences
    moe = {t["term"]: t for t in explain_offline(
        "The answer was yes: the default 1.25 padding cost about 8% throughput at 1e20 scale. The outcome was to move the "
        "default capacity factor to 1.0, with 1.1 noted as a more conservative option if future higher-EP or smaller-batch "
        "runs show overflow risk.", "en")["terms"]}
    assert moe["padding"]["definition"].startswith("In a mixture-of-experts layer with a capacity factor"), moe["padding"]
    batch = {t["term"]: t for t in explain_offline("Shorter sequences in the batch get padding up to the longest one.", "en")["terms"]}
    assert batch["padding"]["definition"].startswith("Filler elements"), batch["padding"]
