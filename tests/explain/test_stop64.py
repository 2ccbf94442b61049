"""Stop 64's rules, each on sentences written for the test in the shape of the passage that showed the fault."""

from service.explain.pipeline import analyse


def terms(text: str, lang: str = "en") -> dict:
    return {t.get("found_as"): t for t in analyse(text, lang).terms}


def test_a_degree_in_a_run_that_names_no_gpu_is_read_across_chips():
    # round 84 P10 (Marin's EP64 against FSDP on hardware the text never names) read "EP64" as "across 64 GPUs"
    assert terms("On the same shape and one rack, EP64 reached 27.8% median MFU, versus FSDP's 19.4%.")["EP64"]["expansion"] \
        == "expert parallelism across 64 chips"
    # a GPU named anywhere, also in the plural of its model ("H100s"), keeps "GPUs"
    assert terms("On 256 H100s, EP64 reached 27.8% median MFU, versus FSDP's 19.4%.")["EP64"]["expansion"] \
        == "expert parallelism across 64 GPUs"
    assert terms("On one rack of GPUs, EP64 reached 27.8% median MFU.")["EP64"]["expansion"] == "expert parallelism across 64 GPUs"


def test_draft_steps_are_the_drafting_passes_not_speculative_decoding_itself():
    # round 84 P02 (an EAGLE3 acceptance table) gave "draft steps" the definition of speculative decoding
    for lang in ("en", "ar"):
        found = terms("With EAGLE3 and topk=1 we run 3 draft steps per iteration; acceptance drops to 48.5% on chat.", lang)
        assert found["draft steps"]["id"] == "draft-step"
        assert found["EAGLE3"]["id"] != "draft-step"


def test_the_paged_eight_bit_optimizer_is_not_merged_with_the_full_precision_one():
    # round 84 P06 (QLoRA memory questions) glossed PagedAdamW8bit with the example "PagedAdamW", the author's difference
    for lang, eight_bit in (("en", "eight-bit"), ("ar", "ثمانية بتات")):
        found = terms("I used PagedAdamW8bit instead of PagedAdamW and memory fell from 15 GB to 9 GB in QLoRA.", lang)
        definition = next(t["definition"] for t in found.values() if t["id"] == "paged-optimizer")
        assert "PagedAdamW8bit" in definition and eight_bit in definition


def explained(text: str, lang: str = "en") -> dict:
    from service.explain.compose import explain_offline
    return explain_offline(text, lang)


def test_a_total_worked_from_a_count_and_one_things_cost_a_sentence_before_is_checked():
    # round 85 P02 (tensor parallelism past one node): readers asked for 32 x 2 x 80-120 µs = 5.1-7.7 ms against "5-8 ms"
    text = ("At TP=8 on an A100 cluster a single all-reduce on a 4096-token sequence can run 80-120 µs. Do the math across "
            "32 transformer layers with two all-reduces each: you are now spending roughly 5-8 ms per forward pass on sync.")
    for lang in ("en", "ar"):
        answer = explained(text, lang)
        worked = {c["inputs"]["expression"]: c["outputs"]["value"] for c in answer["calculations"]}
        assert worked == {"32 * 2 * 8e-05": 0.00512, "32 * 2 * 0.00012": 0.00768}
        assert [c["verdict"] for c in answer["claims"]][-1] == "consistent"
    assert "5.12 to 7.68 ms" in explained(text)["claims"][-1]["why"]
    # a total the count and cost do not give is no finding either way: nothing is worked, no verdict said
    wrong = text.replace("5-8 ms", "40 ms")
    assert not explained(wrong)["calculations"] and {c["verdict"] for c in explained(wrong)["claims"]} == {"explained"}
    # the cost must be one of the things counted: a time for something else is never multiplied
    other = text.replace("a single all-reduce", "the whole step")
    assert not explained(other)["calculations"]


def test_an_invitation_to_do_the_math_is_no_clause_after_says_that():
    # round 85 P02: "It adds that do the math across 32 transformer layers ...: you are now spending ..."
    text = ("At TP=2 the all-reduces are cheap enough to hide. At TP=8 a single all-reduce can run 80-120 µs. Do the math "
            "across 32 transformer layers with two all-reduces each: you are now spending roughly 5-8 ms per forward pass.")
    said = " ".join(item["text"] for item in explained(text)["gist"])
    assert "that do the math" not in said
    assert "across 32 transformer layers with two all-reduces each, you are now spending roughly 5-8 ms" in said


def test_a_settings_name_inside_a_formula_argues_no_reason():
    # round 85 P03 (TRL's async GRPO): gradient_accumulation_steps as a factor of max_inflight_tasks brought the
    # gradient-accumulation reason ("the batch grows while activation memory stays one micro-batch's")
    text = ("- fix the auto-derived max_inflight_tasks formula to (max_staleness + 1) * per_device_train_batch_size * "
            "gradient_accumulation_steps * num_processes, so max_staleness=0 still schedules useful rollout work;\n"
            "- log stale-drop metrics so users can see when async generation is outpacing trainer consumption;")
    assert not [r for r in explained(text)["reasons"] if "accumulat" in r["text"].lower()]


def test_batching_words_beside_padding_and_packing_take_their_training_sense():
    # round 85 P11 and P13 (sequence packing, padding waste) gave "naive batching" and "dynamic batching" their serving
    # sense (requests held until the longest finishes; a server's batcher)
    for lang in ("en", "ar"):
        packed = terms("With naive batching about 50% of tokens are padding; packing cuts that to under 2%.", lang)
        assert packed["naive batching"]["id"] == "static-batching"
        assert packed["naive batching"]["expansion"] != terms("Naive batching holds every request until the longest finishes.", lang)["Naive batching"]["expansion"]
    padded = terms("Padding everything to 2048 wastes 76%. Dynamic batching of variable-length sequences adds overhead.")
    assert "sequence length" in padded["Dynamic batching"]["expansion"]
    served = terms("Triton's dynamic batching waits a few milliseconds to fill a batch of requests.")
    assert "requests" in served["dynamic batching"]["expansion"]


def test_predictability_by_degree_is_not_bitwise_determinism():
    # round 85 P03 (TRL's async GRPO PR): "make worker shutdown more deterministic" was defined as order-independent updates
    assert "more deterministic" not in " ".join(terms("- make worker shutdown more deterministic and tolerant of thread state;\n- add GRPO staleness checks."))
    assert "Deterministic" in terms("Deterministic kernels cost throughput; reruns with the same seed match bitwise.")


def test_heres_the_math_is_a_lead_not_advice_and_a_recommender_is_no_recommendation():
    # round 85 P13: "The text advises that here's the math that should haunt you: ..."; P06: "recommender systems" in a
    # list of benchmarks made "The text advises that the benchmark suite consists of ..."
    from service.explain import reported
    text = ("Here’s the math that should haunt you: if your dataset has a mean sequence length of 487 tokens, you’re padding "
            "everything to 2048 tokens. That means 76% of every attention computation is wasted on padding.")
    said = " ".join(item["text"] for item in explained(text)["gist"])
    assert "math" not in said and "advises" not in said and "487 tokens" in said
    assert reported.role("The suite has seven benchmarks: LLM pretraining, recommender systems and object detection.", "en") != "recommendation"
    assert reported.role("We recommend TP within a node.", "en") == "recommendation"


def test_packing_pitfalls_and_copy_engines_are_named():
    # round 85's readers missed the passages' own terms: P11's packed sequence, position IDs and loss masking, P07's
    # SDMA, P14's "RS is successfully overlapped" (reduce-scatter in an FSDP2 step profile)
    packing = terms("Wasted tokens drop to <2% (the slack at the end of the packed sequence). If position IDs continue "
                    "across boundaries, quality drops. Wrong loss masking lets the loss flow from one example to another.")
    assert {packing[w]["id"] for w in ("packed sequence", "position IDs", "loss masking")} == {"sequence-packing", "position-ids", "loss-masking"}
    assert terms("ZeRO-3 allgather routes through the intra-node SDMA copy on AMD MI300.")["SDMA"]["id"] == "sdma"
    assert terms("RS is successfully overlapped; update_actor went from 32.22 s to 29.82 s.")["RS"]["id"] == "reduce-scatter"
    assert "RS" not in terms("The RS-232 port on the switch is for the console.")


def test_a_delivered_record_is_a_result_the_opening_says():
    # round 85 P06 (MLPerf Training v5.0): "the NVIDIA platform delivered the fastest time to train across all seven
    # benchmarks" was left out of an opening that listed the suite's domains
    from service.explain import reported
    assert reported.role("In this round, the platform delivered the fastest time to train across all seven benchmarks.", "en") == "result"
    text = ("MLPerf Training v5.0 is the latest version of the MLPerf Training series of benchmarks. The benchmark suite "
            "currently consists of seven benchmarks that span LLM pretraining, LLM fine-tuning, text-to-image generation, "
            "recommender systems and object detection. In this latest round of MLPerf Training, the NVIDIA platform "
            "delivered the fastest time to train across all seven benchmarks.")
    assert "fastest time to train" in " ".join(item["text"] for item in explained(text)["gist"])


def test_a_gain_row_under_two_rows_is_redone_the_way_it_holds():
    # round 85 P07 (DeepSpeed ZeRO-3 over SDMA): readers asked for (697.7 - 622.0) / 697.7 = 10.85%
    table = ("Headline (8x MI300X, 100 steps):\nGPT-7B-ish | Qwen3-32B\nSDMA off | 697.7 ms / step | 1402.5 ms / step\n"
             "SDMA on | 622.0 ms / step | 1263.2 ms / step\ngain | +10.85 % | +9.93 %\nLoss curves match off and on.")
    for lang in ("en", "ar"):
        answer = explained(table, lang)
        assert [c["inputs"]["expression"] for c in answer["calculations"]] == ["(0.6977 - 0.622) / 0.6977", "(1.4025 - 1.2632) / 1.4025"]
        assert "consistent" in [c["verdict"] for c in answer["claims"]]
    assert "is 10.85% lower, the 10.85 % the text gives" in " ".join(c["why"] for c in explained(table)["claims"])
    # a speed-up written as old over new less one holds too, and says so
    speedup = table.replace("+10.85 %", "+12.2 %").replace("+9.93 %", "+11.0 %")
    assert "faster (old over new, less one)" in " ".join(c["why"] for c in explained(speedup)["claims"])
    # a row that fits neither way is not confirmed, and nothing is worked for it
    off = table.replace("+10.85 %", "+25 %")
    assert not explained(off)["calculations"] and "consistent" not in [c["verdict"] for c in explained(off)["claims"]]


def test_the_authors_listed_results_join_the_opening():
    # round 86 P05 (a Distributed Muon reproduction): the opening said only "they published a full technical report";
    # its "Key results:" list (0.57× communication, 1.1% overhead, 50% less state memory) was the point
    text = ("I just published a full technical report where I reproduced Distributed Muon and profiled DP/TP configurations "
            "on a 4-GPU cluster.\nThe post includes:\nMemory analysis\nTwo bug fixes\nKey results:\n0.57× communication "
            "compared to AdamW\n1.1% optimizer overhead\n50% less state memory")
    said = " ".join(item["text"] for item in explained(text)["gist"])
    assert "0.57× communication compared to AdamW, 1.1% optimizer overhead and 50% less state memory" in said
    # prose under a label is no list of results
    prose = text.replace("0.57× communication compared to AdamW", "We saw that the communication fell a great deal against the AdamW baseline on every configuration we tried")
    assert "as the author lists them" not in " ".join(item["text"] for item in explained(prose)["gist"])


def test_a_line_announcing_a_list_is_said_with_its_items():
    # round 86 P04 (a Megatron FSDP prototype): "The text notes: Together these enable M-FSDP v2 with" was cut at its colon
    from service.explain import gist_list
    from service.explain.pipeline import analyse
    text = ("Together these enable the new trainer with:\nCombined 1F1B scheduling — overlaps expert communication\n"
            "Virtual pipeline stages — two chunks per rank\nMuon — a new optimizer\nModel: a proxy with 12 layers.")
    doc = analyse(text, "en")
    said = gist_list.with_items(doc, [{"text": "cut", "from": [0]}])
    assert said[0]["text"] == "The author's point: together these enable the new trainer with — Combined 1F1B scheduling, Virtual pipeline stages and Muon."
    assert gist_list.with_items(doc, [{"text": "cut", "from": [0]}], whole=False)[0]["text"] == "cut"


def test_a_pinned_host_memory_allocation_is_not_the_gpu_caching_allocator():
    # round 86 P19 (activation offloading over separate streams): "a page-locked (i.e. pinned) host memory allocation"
    # was defined as PyTorch's caching allocator for GPU memory
    assert "memory allocation" not in terms("A page-locked (i.e. pinned) host memory allocation issued before the "
                                            "cudaStreamSync on the default stream blocks that stream.")
    assert terms("The memory allocation on the GPU fragments, so the caching allocator keeps reserved blocks.")[
        "memory allocation"]["id"] == "cuda-caching-allocator"


def test_a_reason_the_text_contradicts_is_not_given():
    # round 86 P20 (Accelerate's MS-AMP levels): "O3 ... weights and master weights of models are stored in FP8" got the
    # reason "the master weights are kept in higher precision"
    text = ("O1: Weight gradients and all_reduce communications are done in fp8, reducing GPU memory usage.\nO2: First-order "
            "optimizer states are in 8-bit.\n03: Specifically for DeepSpeed, implements capabilities so weights and master "
            "weights of models are stored in FP8.")
    assert not [r for r in explained(text)["reasons"] if "master weights are kept" in r["text"]]


def test_an_acronym_the_text_spells_by_word_prefixes_keeps_the_texts_sense():
    # round 86 P04 (a TPU core's parts): "A VMEM (vector memory)" was glossed as static RAM, "A SMEM (scalar memory)" as
    # CUDA's shared memory, and "the L1/L2 cache on CPUs" as the GPU's L2
    found = terms("A VMEM (vector memory) - a type of on-chip memory. It has a similar role as the L1/L2 cache on CPUs. "
                  "A SMEM (scalar memory) is used to store loop indices, offsets, and small constants.")
    # (stop 65 gave VMEM an entry of its own, a TPU core's vector memory: the text's sense, so it may stand)
    assert found["VMEM"]["id"] in ("text:vmem", "tpu-vmem") and found["SMEM"]["id"] == "text:smem"
    assert "L2 cache" not in found and "L1 cache" not in found
    assert terms("The H100's L2 cache is 50 MB, shared by all SMs.")["L2 cache"]["id"] == "l2-cache"
    # the glossary's own spelling-out keeps the entry; words that are no prefixes of the acronym rename nothing
    assert terms("We use FSDP (fully sharded data parallel) on every node.")["FSDP"]["id"] == "fsdp"
    assert terms("The GPU (great plan) is cheap.")["GPU"]["id"] == "gpu"


def test_the_training_pipeline_rule_sizes_no_rollout_engine_and_no_run_of_ours():
    # round 86 P01 (GRPO on GLM-5.1 with vLLM rollouts): "each rollout engine can only run with PP=1" was called
    # consistent with "no pipeline is needed" on an assumed 4M-token batch over an assumed 4,096 H200s
    text = ("My training resources are 8 nodes, each with 8xH200 GPUs. The training side can use TP=8, PP=8, EP=8. Rollout "
            "does not seem to support pipeline parallelism, so each rollout engine can only run with PP=1.")
    assert not [c for c in explained(text)["calculations"] if c["calculator"] == "pp_necessity"]
    from service.explain.checks import pp_necessity
    assert pp_necessity._ENGINE_SIDE.search("each rollout engine can only run with PP=1")
    assert not pp_necessity._ENGINE_SIDE.search("we train with PP=1 on 64 H100s")


def test_experts_per_card_count_the_redundant_copies():
    # round 86 P02 (DeepSeek-V3 deployment): "256 experts and 32 redundant experts ... EP32 ... each card 9 routing
    # experts" was worked as 256 / 32 = 8 experts per GPU, against the text's 9
    text = ("Each layer contains 256 experts and 32 redundant experts. Prefill: routing experts EP32, one deployment unit = "
            "4 nodes, each card 9 routing experts + 1 shared expert.")
    assert not [c for c in explained(text)["calculations"] if "256 / 32" in c["inputs"].get("expression", "")]


def test_a_setting_outside_the_documented_choices_is_said_so():
    # round 86 P06 and P03: "--optimizer muon" under "Optimizer: adam (AdamW) or sgd", "transformer_impl=inference_optimized"
    # under "transformer_engine or local"
    from service.configs import switch
    said = switch.meaning_for_value("megatron-lm", "--optimizer", "muon", "Optimizer: adam (AdamW) or sgd.", "en")
    assert said.startswith("Optimizer. The text sets it to muon") and "adam and sgd" in said
    assert switch.meaning_for_value("megatron-lm", "--optimizer", "adam", "Optimizer: adam (AdamW) or sgd.", "en") == "Optimizer: adam (AdamW) or sgd."
    found = terms("On the 30B MoE (non-colocated, transformer_impl=inference_optimized, num_cuda_graphs=-1) with Megatron, refit is slow.")
    assert "inference_optimized" in found["transformer_impl"]["definition"]


def test_an_order_of_execution_is_no_network_flow_and_a_kubernetes_node_is_any_machine():
    # round 86 P16 ("In a standard sequential flow, you have one buffer") and P15 (checkpoints to a Kubernetes node's
    # NVMe, read as a TPU host)
    assert "flow" not in terms("In a standard sequential flow, you have one buffer: the network fills it, then compute reads it.")
    assert terms("ECMP hashes each flow onto one path, so two large flows can collide on a link.")["flow"]["id"] == "network-flow"
    node = terms("In Kubernetes, hostPath mounts to NVMe devices tie the volume to the node's lifecycle.")["node"]
    assert "TPU" not in node["expansion"] and "machine" in node["expansion"]


def test_a_conceded_clause_is_no_relation_the_other_language_opening_says():
    # round 86 P10-ar: "(While Verl does support Megatron, it currently lacks support for EP)" was said as «يقول الكاتب
    # إنه يوجد دعم Megatron في Verl», the concession without the point, nearly the opposite of the author's complaint
    text = ("Megatron's Expert Parallelism (EP) is approximately 8 to 10 times faster than DeepSpeed Zero3 when training MoE "
            "models. Are there any plans to support a Megatron backend for RL frameworks? (While Verl does support "
            "Megatron, it currently lacks support for EP)")
    answer = explained(text, "ar")
    assert "يوجد دعم" not in " ".join(item["text"] for item in answer["gist"]) + answer["explanation"].split("##")[1]
    assert "يوجد دعم Megatron في Verl" in " ".join(i["text"] for i in explained("Verl supports Megatron.", "ar")["gist"])  # said as held


def test_round_87_words_in_other_senses():
    # round 87: FP8-E5M2 for gradients (P08) read as a KV cache; "compute budget" at inference (P07) as training compute;
    # "Rank the interconnect hierarchy" (P09) as a process rank; "an instance of the entire model" on TPU cores (P15) as
    # a rented server
    assert "FP8-E5M2" not in terms("We use FP8-E4M3 for the forward pass and FP8-E5M2 for the gradient outputs.")
    assert terms("Set kv_cache_dtype to fp8_e5m2 so the KV cache holds twice the tokens.")["fp8_e5m2"]["id"] == "fp8-e5m2-kv-cache"
    assert "compute budget" not in terms("Speculative decoding spends extra compute per token; under a fixed compute "
                                         "budget at inference, the acceptance rate decides the speedup.")
    assert terms("Chinchilla asks how to split a fixed compute budget between parameters and tokens.")["compute budget"]["id"] == "compute-budget"
    assert "Rank" not in terms("Rank the interconnect hierarchy — NVLink (900 GB/s) > PCIe Gen5 (128 GB/s) > InfiniBand.")
    assert terms("On rank 0 the loss is NaN while rank 3 is fine.")["rank 0"]["id"] == "rank"
    assert "instance" not in terms("Each of the 8 available cores is getting an instance of the entire model, so training crashes.")
    assert terms("Each p5.48xlarge instance has eight H100s.")["instance"]["id"] == "compute-instance"


def test_round_87_openings():
    # P16: "Add GPUs and the arithmetic scales linearly, but ..." was "The text's advice is to add GPUs ..."; P06: "So, my
    # question is the following I guess:" was said as "They conclude that their question is the following they guess";
    # P20: "E + D, which places the GPUs in EP dimension first" defined the letter D
    said = " ".join(i["text"] for i in explained("Synchronous training ends each step with a collective. Add GPUs and the "
                                                 "arithmetic scales linearly, but the communication does not.")["gist"])
    assert "advice" not in said
    asked = ("I'd assume that setting device_mesh to 4x4 would do this. So, my question is the following I guess:\nIs it "
             "guaranteed to init sharding within a node first if I create a device mesh?")
    assert "the following" not in " ".join(i["text"] for i in explained(asked)["gist"])
    assert "D" not in terms("The default layout places experts first and replicates them. left) E + D, which places the "
                            "GPUs in EP dimension first before adding DP, right) D + E.")


def test_a_list_line_that_opens_with_an_order_is_not_run_into_the_line_before():
    # round 87 P10 (Petals' swarm load balancing): bullets dropped, "...low network throughput\nfind a better way to ..."
    # was read as one sentence
    from service.explain.pipeline import analyse
    doc = analyse("when a server holds many layers, it is less affected by low network throughput\nfind a better way to "
                  "account for num_blocks;\ndeclare compute and network throughput separately", "en")
    assert len(doc.sentences) == 3
    wrapped = analyse("This layout gives faster all-reduce while the all-to-all time grows and we need to\nfind a better "
                      "balance between the two.", "en")
    assert len(wrapped.sentences) == 1


def test_a_comparison_whose_subject_is_the_sentence_before_is_checked():
    # round 87 P21 (KV cache growth): "requires ~67 GB (FP16) for 128 token context. That's more than a single 80GB A100
    # GPU." - the reader: 67 GB is less than 80 GB
    wrong = "Llama 2 70B with MHA requires ~67 GB (FP16) for 128 token context. That's more than a single 80GB A100 GPU."
    for lang in ("en", "ar"):
        claims = explained(wrong, lang)["claims"]
        assert claims[-1]["verdict"] == "inconsistent"
    assert "less than 80GB, not more" in explained(wrong)["claims"][-1]["why"]
    right = wrong.replace("~67 GB", "~167 GB")
    assert explained(right)["claims"][-1]["verdict"] == "consistent"
    # two sizes before: "that" may be either, so nothing is said
    unclear = "The weights take 140 GB and the cache 67 GB. That's more than a single 80GB A100 GPU."
    assert explained(unclear)["claims"][-1]["verdict"] == "explained"


def test_flops_per_token_say_no_model_size_far_from_the_one_stated():
    # round 88 P14 (NeMo Automodel's table): "216 TFLOPs/sec/GPU" over "865 tokens/sec/GPU" for "DeepSeek V3 671B" was
    # said as "a model of at most about 41.62B parameters", against the 671B in the same row
    from service.explain.checks.products import flops_per_token
    from service.explain.pipeline import analyse
    for size, said_size in (("671B", False), ("40B", True)):
        doc = analyse(f"Our {size} model trains at 216 TFLOPs/sec/GPU and 865 tokens/sec/GPU on 1024 H100s.", "en")
        results = [r for c in doc.claims if (r := flops_per_token(doc, c)) is not None]
        assert results and ("parameters" in results[0].why) == said_size, results[0].why


def test_round_88_terms():
    # P16 (nccl-tests): NCCL_P2P_LEVEL got the generic NCCL-variable entry and its value NVL the H100 NVL card; P18 (RL):
    # "inference" during training was "running an already-trained model"; P01/P02 (LLEP, EPLB): balancing work across
    # GPUs with redundant experts was "keeping the number of tokens each expert receives even"
    found = terms("I also remove\n-x NCCL_NET_GDR_LEVEL=1\n-x NCCL_P2P_LEVEL=NVL\nAnd add --bind-to none.")
    assert found["NCCL_P2P_LEVEL"]["id"] == "nccl-p2p-level" and "NVL" not in found
    assert terms("The H100 NVL pairs two cards with an NVLink bridge.")["H100 NVL"]["id"] == "gpu-nvl-card"
    inference = terms("The rollout workers run inference with the previous policy while the trainer updates it.")["inference"]
    assert "already-trained" not in inference["definition"] and "reinforcement-learning" in inference["definition"]
    balancing = terms("EPLB adds redundant experts across ranks to improve expert load balancing in MoE models.")
    assert "copied onto more GPUs" in next(t["definition"] for t in balancing.values() if t["id"] == "load-balancing")


def test_a_column_difference_keeps_to_one_unit():
    # round 88 P17: "FP8 = BF16 - Model" (140 GB - 70B = 70 GB) was called the table's own arithmetic
    table = ("Model | BF16 | FP8 | H100 fit\n70B | 140 GB | 70 GB | 2 GPUs\n405B | 810 GB | 405 GB | 10 GPUs\n"
             "7B | 14 GB | 7 GB | 1 GPU")
    assert not [c for c in explained(table)["claims"] if "BF16" in c["why"] and "Model" in c["why"]]
    timed = "Kernel | roofline (ms) | measured (ms) | gap (ms)\nA | 4.40 | 7.01 | 2.61\nB | 3.10 | 5.00 | 1.90\nC | 2.00 | 2.50 | 0.50"
    assert "7.01 - 4.40 = 2.61" in " ".join(c["why"] for c in explained(timed)["claims"])


def test_a_rate_achieved_on_a_line_rated_in_bits_is_set_against_it_in_bytes():
    # round 88 P16 (nccl-tests): readers asked for 400 Gb/s / 8 = 50 GB/s beside "around 48GB/s from each CX7 NIC"
    for lang, said in (("en", "400Gbps is 50 GB/s (divided by 8 bits per byte); 48GB/s is 96% of it"), ("ar", "96%")):
        claims = explained("You should achieve around 48GB/s from each CX7 NIC at 400Gbps. Then aggregate the NICs.", lang)["claims"]
        assert said in claims[0]["why"] and claims[0]["verdict"] == "explained"
    # a rate above the line (both directions, or several links) gets no reading
    assert "of it" not in explained("We measured 96GB/s on a single NIC at 400Gbps.")["claims"][0]["why"]


def test_round_89_words_in_other_senses():
    # P02 (an MLA decode kernel): "kv cache movement from gmem to smem" as moving a request's cache between instances,
    # "state_t" as a setting reading "state time"; P07: "to reduce training loss" after a fault as the loss function; P13:
    # a KV store's "replica" as a model copy; P16: a request's "reserved memory" as PyTorch's allocator; P20: MXFP8's
    # "rowwise and columnwise" weight data as per-row scaling, FSDP's "weight materialization" as a fused kernel's
    kernel = terms("When num_qo_heads is 16, there will be one additional kv cache movement from gmem to smem; one thread "
                   "handles multiple q_nope_vec and state_t<vec_size_ckv> st to increase reuse.")
    assert "kv cache movement" not in kernel and "state_t" not in kernel
    assert terms("Prefill and decode run on separate instances; KV cache transfer over RDMA takes 5 ms.")["KV cache transfer"]["id"] == "kv-cache-transfer"
    assert "training loss" not in terms("The dying gasp function saves the parameter status between the fault and the "
                                        "periodic checkpoint to reduce training loss.")
    assert terms("The training loss drops below 2.0 after 10k steps.")["training loss"]["id"] == "loss-function"
    assert "replica" not in terms("The per-key IO model (one file per KV block) and the LOCAL_DISK replica semantics (client_id).")
    assert terms("Each replica holds a full copy of the model weights.")["replica"]["id"] == "replica"
    assert "reserved memory" not in terms("If a request reserves 8K tokens and generates 200, 97% of its reserved memory sits empty.")
    fsdp = terms("MFSDP v2 all-gathers both rowwise and columnwise MXFP8 weight data at each unshard. Make weight "
                 "materialization select the representation required.")
    assert "rowwise" not in fsdp and "materialization" not in fsdp
    assert terms("We use FP8 rowwise scaling: one scale per row of each weight.")["rowwise scaling"]["id"] == "fp8-rowwise-scaling"


def test_round_90_readings():
    # P04 (vime): "13.5 ms/step at N=16 and 124.9 ms/step at N=256" read N's 16 as 16 ms/step and worked a change on it
    from service.explain.pipeline import analyse
    figures = {f.quote: f.quantity for f in analyse("The framework path is 13.5 ms/step at N=16 and 124.9 ms/step at N=256.", "en").figures}
    assert figures["16"] != "step_time_s"
    assert {f.quote: f.quantity for f in analyse("We tested 8 and 128 H100 GPUs.", "en").figures}["8"] == "n_chips"
    # P03: "memory-bound tests"; P04: "RolloutManager framework overhead"; P19 (MaxText): "stalling TensorCores"
    assert "memory-bound" not in terms("Add context-sharing and memory-bound tests for nested FSDP units.")
    assert terms("Decode is memory-bound: each token reads all weights.")["memory-bound"]["id"] == "memory-bound"
    assert "framework overhead" not in terms("The residual is not in RolloutManager framework overhead: convert_samples takes 13.5 ms.")
    tpu = terms("MaxText all-gathers each layer's FSDP shards on the critical path, stalling TensorCores while waiting for "
                "interconnect transfers.")["TensorCores"]
    assert "TPU" in tpu["expansion"]
    # P05 (verl): "8*L20 GPUs, TP=4" with rank 7 broadcasting weights to a vLLM engine was said as 2 data-parallel replicas
    sync = explained("Configuration: 8*L20 GPUs, TP=4\nRun with vllm_sync_backend = nccl, rank 7 broadcast weights to rank0-3.")
    assert not [c for c in sync["claims"] if "replicas" in c["why"]]
    assert "2 data-parallel replicas" in explained("Configuration: 8*L20 GPUs, TP=4 for the pretraining run.")["claims"][0]["why"]


def test_a_host_of_things_is_no_cpu_machine():
    # round 91 P05 (Nous's torchtitan fork): "a host of new model architectures" was glossed as the CPU machine
    assert "host" not in terms("Torchtitan lets us try a host of new model architectures on H100 GPUs.")
    assert terms("The host of each node has 2 TB of CPU memory for offloading.")["host"]["id"] == "host"


def test_round_91_readings_and_check():
    # P07 (GPU hours of Llama 3): "27.6M H100 hours" was "cannot be checked without the model size" beside the text's own
    # 41.4T TFLOPs and 416 TFLOP/s; "1 token needs ≈2.54 TFLOPs" (an amount) was defined as a rate
    text = ("With 8K sequence length, 1 token needs ≈2.54 TFLOPs so 15.7T tokens needs 41.4T TFLOPs; an MFU of 42% with "
            "H100 peak BF16 TFLOP/s as 990 gives 416 TFLOP/s; so we get 27.6M H100 hours.")
    for lang in ("en", "ar"):
        claims = explained(text, lang)["claims"]
        assert claims[-1]["verdict"] == "consistent", claims[-1]
    assert "= 27.6M chip-hours" in explained(text)["claims"][-1]["why"]
    assert "27.6M" not in " ".join(c["why"] for c in explained(text.replace("27.6M", "9M"))["claims"])  # no finding either way
    assert "amount of work" in terms(text)["TFLOPs"]["definition"]
    # P08 (InternEvo): "ws = wps*eps*edps" read wps as words per second; P11: "a timeout for process group" as NCCL's hang
    assert "wps" not in terms("If isp is used, then the ws(world size) = wps*eps*edps, otherwise ws = tp*eps*edps.")
    assert terms("fairseq logs wps 12000 and ups 2.1 during training.")["wps"]["id"] == "words-per-second"
    assert "timeout" not in terms("There are three separate entities - a timeout for process group, a NCCL monitoring thread and the watchdog.")


def test_round_92_fixes():
    # P13-ar (`wrong` gist): "It does not yet correctly support pipelining" became «يُدرَّب نموذج كبير دون توازي خطوط
    # الأنابيب», a run trained without PP; a program's missing support is no such run
    text = ("It does not yet correctly support pipelining: the shared embedding layers' gradients need to be manually "
            "all-reduced.\nI'm also worried that FSDP2 may not handle the shared parameters correctly.")
    for lang in ("en", "ar"):
        answer = explained(text, lang)
        assert not any(c["frame"] for c in answer["claims"])
        assert "دون توازي خطوط الأنابيب" not in answer["explanation"].split("##")[1]
    assert explained("With TPUs at K2 or DSV3 scale you get excellent MFU without PP.")["claims"][0]["frame"] == "pp_not_needed"
    # P22: "2×256GB + 2×96GB (4 nodes, 608GB total)" was compared as "608GB vs 256GB: about 2.4 times as much"
    assert not explained("Would 2×256GB + 2×96GB (4 nodes, 608GB total, clean TP=4) be a better setup than 3×256GB "
                         "(768GB total, unclear TP=3)? I have seen benchmarks for 256GB nodes.")["calculations"]
    # P09: QK-Clip given MuonClip's definition; P11: "macbook pro" as Apple's chips
    assert terms("QK-Clip rescales the query and key weights when the max attention logit exceeds a threshold.")["QK-Clip"]["id"] == "qk-clip"
    assert terms("A macbook pro and a Mac Studio run slower together than one Mac alone.")["macbook pro"]["id"] == "macbook-pro"


def test_round_92_senses_and_sizes():
    # P01 (MuonClip): "the model pays more attention to that key when aggregating values" got the everyday sense, and
    # "billions of parameters and trillions of tokens (like Kimi K2's 15.5T-token pretraining)" let K2's "about one
    # trillion parameters" into its definition, a size the text never gives
    text = ("High scores mean the model pays more attention to that key when aggregating values. As you scale LLMs to "
            "billions of parameters and trillions of tokens (like Kimi K2's 15.5T-token pretraining), instabilities creep in.")
    found = terms(text)
    assert found["attention"]["expansion"] == "attention (self-attention mechanism)"
    assert "trillion" not in found["Kimi K2"]["definition"]
    assert "trillion" in terms("Kimi K2 has 1T parameters with 32B active.")["Kimi K2"]["definition"]


def test_a_versioned_acronym_keeps_its_version_and_16_bit_training_is_no_qlora():
    # round 92 P13: "Fully Sharded Data Parallel (FSDP2)" dropped the version the text writes; P03 (fine-tuning memory):
    # "Mixed precision stores and computes most things in 16-bit" got QLoRA's sense from a QLoRA line a paragraph before
    said = " ".join(i["text"] for i in explained("I am also worried that FSDP2 may not handle the shared parameters correctly.")["gist"])
    assert "FSDP2" in said and "Fully Sharded Data Parallel (FSDP2)" not in said
    text = ("A fully fine-tuned 1B model at bf16 needs ~2 (weights) + ~2 (gradients) + ~8 (AdamW state) = ~12 GB.\n"
            "With LoRA the base is frozen, so gradients and optimizer state exist only for the adapter. You pay full weight "
            "memory (and can quarter that with QLoRA's 4-bit base).\nMixed precision stores and computes most things in "
            "16-bit (bf16/fp16) instead of 32-bit, roughly halving weight, gradient, and activation memory.")
    assert terms(text)["Mixed precision"]["expansion"] == "mixed-precision training"


def test_round_93_fixes():
    # P11-ar (`wrong` gist): "suffers from high GPU SM utilization and underutilized interconnect bandwidth" said as «a
    # part of the hardware stays unused» about the kernel and the SMs, the opposite of the point; "SM occupancy ... uses
    # only 12 SMs" as the share of active warps
    text = ("The original Internode Normal Kernel suffers from high GPU SM utilization and underutilized interconnect "
            "bandwidth, which constrains prefill performance.\nIn our optimized version, we apply buffer fusion and TMA "
            "offloading to maximize NVLink bandwidth usage.")
    assert "غير مستغل" not in explained(text, "ar")["explanation"].split("##")[1]
    assert "SM occupancy" not in terms("SM occupancy was reduced by up to 66.7%. The optimized kernel uses only 12 SMs, compared to 24 SMs.")
    assert terms("Low occupancy means too few warps are resident on each SM.")["occupancy"]["id"] == "gpu-occupancy"
    # P15 (activation offloading): the reason given was about offloaded optimizer states; P21: "lossless flow control"
    offload = ("The current CPU offloading strategy from TE offloads the activations in a granularity of the transformer "
               "layer; offloading could use the host-device bandwidth over PCIe to reach nearly zero overhead.")
    assert not [r for r in explained(offload)["reasons"] if "optimizer states" in r["text"]]
    assert "flow" not in terms("InfiniBand gives lossless flow control, so RDMA never drops packets.")


def test_round_94_senses():
    # P01: "optimizer.step() is called every K steps ... every training step (with loss.backward())" defined training step
    # as ending in an optimizer step; P07: bf16's "step size" as the learning rate; P08: "llama3_flash_attn_varlen_func"
    # as Meta's models; P13: "the causal conv" as attention's mask, "(B, H, K, V)" as keys and values; P18: "no PR team"
    assert "training step" not in terms("With gradient accumulation, the optimizer.step() is called every K steps instead "
                                        "of every step. And every training step (with loss.backward()) DDP would all-reduce.")
    assert terms("Each training step takes 1.2 s on 64 H100s.")["training step"]["id"] == "training-step"
    assert "step size" not in terms("The update delta is smaller than the step size to move away from 1.0 in bf16 format.")
    assert terms("We fine-tune with a step size of 1e-5 and AdamW.")["step size"]["id"] == "learning-rate"
    assert "llama3" not in terms("Substitute flash_attn_varlen_func with llama3_flash_attn_varlen_func of ring-flash-attention.")
    assert "causal" not in terms("The sharding constraint before the causal conv replicates the sequence axis.")
    assert terms("The causal mask stops each token from attending to later tokens.")["causal mask"]["id"] == "causal-mask"
    assert "K, V" not in terms("The combine is a prefix scan. M_r is (B, H, K, K) and U_r is (B, H, K, V), independent of length.")
    assert "PR" not in terms("We are a small lab with no PR team, so the record from this pull request went unnoticed on GitHub.")


def test_the_speedrun_fork_is_not_karpathys_nanogpt():
    # round 94 P18 (read after its record): "a GitHub repository called modded-nanogpt" was glossed as Karpathy's nanoGPT
    for lang in ("en", "ar"):
        assert terms("There is a GitHub repository called modded-nanogpt. It has no corporate backing.", lang)["modded-nanogpt"]["id"] == "modded-nanogpt"
    assert terms("I trained a small GPT with nanoGPT on one node.")["nanoGPT"]["id"] == "nanogpt"
