"""Round 50, second part: what round 47's blind readers (pack 92) found wrong, each fixed by a general rule (issue 18)."""

from service.explain.compose import explain_offline


def _ids(text: str, lang: str = "en") -> set[str]:
    return {t["id"] for t in explain_offline(text, lang)["terms"]}


def _line(text: str, start: str, lang: str = "en") -> str:
    return next(line for line in explain_offline(text, lang)["explanation"].splitlines() if line.startswith(start))


def test_nvl_beside_sxm_and_pcie_is_the_card_not_nvlink():
    # P10 (a Hacker News post timing nanochat on three H100 variants): "NVL: ... Short for NVLink" because NCCL was named
    text = ("SXM: 702ms/step, PCIe: 1,412ms/step, NVL: 2,032ms/step. NCCL's data transfer uses NVSwitch. Only 4 of 28 GPU "
            "pairs share NVLink on NVL, the rest fall back to PCIe.")
    assert "PCIe-card" in _line(text, "- **NVL**")
    # ... and the pairs that fall back to PCIe are no library running a reference kernel
    assert "fallback-path" not in _ids(text)
    assert "fallback-path" in _ids("When the fused kernel does not support the dtype, PyTorch falls back to the math path.")


def test_prefetch_buckets_and_dynamic_scaling_keep_their_own_senses():
    # P23 (DeepSpeed#8193): a ZeRO-3 prefetch bucket read as DDP's gradient buckets, "Dynamic Scaling" of the bucket as
    # FP8's current scaling, and the GPU's OOM as the host's
    text = ("If the bucket is too large, it aggressively materializes too many parameters in advance, causing memory spikes or "
            "OOM errors. Using host-side time.time() around the .wait() loop avoids CPU/GPU blocking. Dynamic Scaling: "
            "Calculating a moving average of the stall_ratio. A static bucket size for __prefetch_bucket_sz in ZeRO-3.")
    ids = _ids(text)
    assert not {"gradient-bucketing", "fp8-current-scaling"} & ids, ids
    assert "host" not in _line(text, "- **OOM**").lower()
    assert "gradient-bucketing" in _ids("DDP all-reduces gradients in buckets; a larger bucket size means fewer calls.")
    assert "fp8-current-scaling" in _ids("FP8 dynamic scaling computes the amax of each tensor every step.")


def test_widely_in_arabic_is_no_training_at_scale():
    # P19 (Al-Ahram on Tesla's Dojo): «لحل استقلالية السيارة على نطاق واسع» defined as training on thousands of chips
    assert "at-scale" not in _ids("حددت الشركة ركائز ضرورية لحل استقلالية السيارة على نطاق واسع: بيانات كبيرة وتدريب الشبكة.", "ar")
    assert "at-scale" in _ids("تظهر مشكلات الاتصال حين تعمل المهام على نطاق واسع عبر آلاف وحدات GPU في العنقود.", "ar")


def test_an_everyday_arabic_improvement_is_no_uplift_entry():
    # P18 (hi2tech on Dojo): «التحسن» in ordinary prose listed "uplift" among the passage's terms
    assert "uplift" not in _ids("يهدف النظام إلى التحسن المستمر في القيادة الذاتية للمركبات.", "ar")


def test_maintained_convergence_is_a_loss_that_keeps_falling():
    # P31 (INTELLECT-1): "maintain training convergence" was defined as the point where the loss stops improving
    line = _line("Our results show that INTELLECT-1 can maintain training convergence despite severe bandwidth limits.",
                 "- **convergence")
    assert "keeps falling" in line, line


def test_a_variable_of_a_product_is_not_defined_by_the_clause_after_it():
    # P17 (Hacker News on MFU): "a linear layer of D*V, which takes 2x for a forward" became "V: one that takes 2x ..."
    text = "The readout layer does lead to 6DV because it is a linear layer of D*V, which takes 2x for a forward and 4x for a backward."
    assert not any(line.startswith("- **V**") for line in explain_offline(text, "en")["explanation"].splitlines())


def test_a_summary_of_what_was_done_is_not_said_as_a_conclusion():
    # P21 (Clockwork on TorchPass): "tl;dr: we randomly injected failures ..." became "The authors conclude that they
    # randomly injected failures"; an imperative option ("Prioritize techniques ...") is advice, not "They report that prioritize"
    text = ("tl;dr: we randomly injected failures during Llama-4 MoE Scout (109B) training to evaluate checkpoint restarts. "
            "TorchPass reached 3,000 steps the fastest at 405 minutes.")
    said = " ".join(g["text"] for g in explain_offline(text, "en")["gist"])
    assert "conclude that they randomly injected" not in said, said
    from service.explain import reported
    assert "report that prioritize" not in reported.companion(
        "Prioritize techniques that enable scaling, regardless of the model length.", "Prioritize techniques.", "en", "author")


def test_a_setting_whose_words_name_a_concept_says_what_the_concept_is():
    # P01 (OpenRLHF#961): "ring_attn_size: A setting whose name reads 'ring attention size'" never said what ring
    # attention is, though the glossary knows it
    text = "My setup: Cluster size: 32 nodes. Model: Actor and Critic are 72B. Flags: ring_attn_size 2, actor_num_nodes 8."
    line = _line(text, "- **ring_attn_size**")
    assert "A setting of ring attention (a way to compute attention" in line, line


def test_a_micro_batch_may_be_counted_in_tokens_and_a_drafter_runs_only_its_head():
    # round 49's review (DeepSpeed#6781: "2k micro batch sizes" next to "1k token per GPU"; SGLang's EAGLE parameters:
    # "depth of autoregressive drafting" said to be full forward passes of the large model)
    from tests.support.glossary_files import term_definition
    micro = term_definition("With 1k token per GPU ZeRO++ gains 28%; for 2k micro batch sizes it gains 24%.", "micro-batch-size")
    assert "tokens per GPU" in micro, micro
    drafting = term_definition("speculative_num_steps: Depth of autoregressive drafting in EAGLE speculative decoding.",
                               "autoregressive-generation")
    assert "drafter" in drafting and "full forward pass" not in drafting, drafting


def test_two_models_under_one_line_are_not_one_model_and_a_sum_is_named_by_itself():
    # round 49's review (ik_llama.cpp#627): «Qwen3-Next-80B-A3B، Qwen3-30B-A3B: نموذج واحد من عائلة ...», and the check of
    # "30 × 4 = 120 t/s" headed by the model sizes «30 مليار معامل، 3 مليارات معامل نشط» instead of the sum
    text = ("This setup suits Qwen3-Next-80B-A3B. Its activation size is comparable to Qwen3-30B-A3B. Performance with four "
            "GPUs is nearly identical to that with just two, while the ideal scaling would be 30 × 4 = 120 t/s.")
    answer = explain_offline(text, "ar")["explanation"]
    # (since round 54 reads "t/s" as tokens per second, the sum is named by its result, «120 رمزا في الثانية»)
    assert "نموذج واحد من" not in answer and ("«30 × 4»" in answer or "**120 رمزا في الثانية**" in answer) \
        and "30 مليار معامل" not in answer, answer


def test_restatements_keep_their_sentences_whole():
    # round 49's review: "etc." before a lower-case word split a question ("asks whether specify the number of GPUs");
    # a which-clause cut left its appositive on the subject ("DeepSpeed Ulysses, a method more efficient than p2p"); "As
    # someone who wants to learn more about this:" was restated as what the author explains
    from service.explain import synthesis
    from service.explain.claims import sentences
    question = ("Why do so many papers, model cards etc. specify the number of GPUs used for training but fail to mention "
                "the duration of the training process?")
    assert len(sentences(question, [])) == 1
    ulysses = ("Deepspeed Ulysses was proposed by Microsoft in DeepSpeed Ulysses, which implements a set of sequence "
               "parallelism using all-to-all communication, a method more efficient than p2p communication.")
    assert "all-to-all" in synthesis.compressed(ulysses, "en")
    assert synthesis.compressed("The root of the problem, which we'll describe below, is that NCCL hangs.", "en") == \
        "The root of the problem is that NCCL hangs."
    assert synthesis.compressed("As someone who wants to learn more about this: FSDP is excellent for training.", "en") == \
        "FSDP is excellent for training."


def test_num_ending_a_name_is_an_index_not_a_count():
    # P29-ar (NCCL#1111): "SeqNum" read «seq (التسلسل)، num (عدد)», a count where the field is a sequence number
    text = "The watchdog caught collective WorkNCCL(SeqNum=12, OpType=REDUCE_SCATTER) running for 1800000 milliseconds."
    assert "num (رقم)" in _line(text, "- **SeqNum**", "ar") and "sequence number" in _line(text, "- **SeqNum**")
    layers = next(t for t in explain_offline("Set num_layers to 32 and keep the rest.", "en")["terms"] if t["term"] == "num_layers")
    assert "number of layers" in layers["definition"]


def test_model_states_named_beside_a_memory_size_are_checked_on_the_total_parameters():
    # P32 (Snowflake's Arctic cookbook): "model states ... requires roughly 7.5 TB" went unchecked (480B x 16 bytes =
    # 7.68 TB); the total parameters, not an expert's 3.66 billion nor the dense part's 10 billion, are what is stored
    text = ("Arctic combines a dense transformer of approximately 10 billion parameters with residual MoE FFN modules. The MoE "
            "module has 128 experts, each with about 3.66 billion parameters. In total the model consists of 17 billion "
            "active parameters and 480 billion total parameters. Artic model states, a combination of parameters, gradients, "
            "and optimizer states, requires roughly 7.5 TB of memory.")
    from service.explain.pipeline import analyse
    claim = next(c for c in analyse(text, "en").claims if "7.5 TB" in c.quote)
    assert claim.verdict == "consistent" and "7.68 TB" in claim.why, claim.why


def test_round48_readers_wrong_statements():
    # round 48 (pack 93): P19, "without ZeRO every data-parallel chip holds all of it: 2.8 TB per chip" where the text
    # states no sharding (a chip no one has); P23, "weights ~27 → ~43 GiB KV pool" read as a 59% rise; P12, "consumes no
    # kernel resources" defined as a GPU kernel
    states = "For 175B parameters in mixed precision: still 2.8 TB. That is roughly 35 A100-80GB GPUs at minimum."
    assert "per chip" not in explain_offline(states, "en")["explanation"]
    pool = "On 94 GiB at 0.75 util (~70 GiB), weights ~27 → ~43 GiB KV pool ≈ 2.7 full-128K requests."
    assert "59%" not in explain_offline(pool, "en")["explanation"]
    assert "33% lower" in explain_offline("Step time went from 1.2 s → 0.8 s after the fix.", "en")["explanation"]
    osk = "GPUDirect bypasses the Node's CPU and consumes no kernel resources, freeing the Node to perform other tasks."
    kernel = next(t for t in explain_offline(osk, "en")["terms"] if t["id"] == "gpu-kernel")
    assert kernel["expansion"] == "operating-system kernel", kernel["expansion"]
    assert "Training speed rises from ~120 -> ~1500 words per second" and "12.5 times" in explain_offline(
        "Training speed rises from ~120 -> ~1500 words per second once offloading frees memory.", "en")["explanation"]


def test_a_negation_of_how_something_works_with_pp_is_no_pp_not_needed_frame():
    # round 48 (pack 93, P28-ar, torchtitan#2061): "the aux loss does not work well with PP" became the Arabic gist «يُدرَّب
    # نموذج كبير مع كفاءة جيدة دون توازي خطوط الأنابيب» (trains well without PP), the opposite of the passage
    from service.explain.pipeline import analyse
    text = ("The main concern is that the aux loss does not work well with PP. From what I have tested, it works well only "
            "with 1F1B. And it is broken for ZBV or interleaved 1f1b.")
    assert all(c.frame != "pp_not_needed" for c in analyse(text, "ar").claims)
    assert "دون توازي خطوط الأنابيب" not in explain_offline(text, "ar")["explanation"]
    assert any(c.frame == "pp_not_needed" for c in analyse("You don't need PP at this scale.", "en").claims)


def test_round48_readers_senses():
    # round 48 (pack 93): Transformers the library as the architecture (P22); "inter- and intra-operator levels" of
    # overlap as kinds of parallelism (P29); a queue's «أوزان» as model weights (P06); FasterMoE as FastMoE (P07);
    # "checkpoint streaming" as a snapshot to resume from (P08)
    assert "transformer" not in _ids("أنشأنا مكتبة Accelerate لمساعدة المستخدمين على تدريب أي نموذج من Transformers بسهولة.", "ar")
    assert "transformer" in _ids("The transformer architecture uses attention in every layer.")
    overlap = _ids("MegaScale-MoE overlaps communication with computation at the inter- and intra-operator levels.")
    assert not {"inter-operator-parallelism", "intra-operator-parallelism"} & overlap, overlap
    assert "intra-operator-parallelism" in _ids("Alpa combines inter-operator parallelism with intra-operator parallelism.")
    assert "model-weights" not in _ids("الطوابير لها حصص وحدود وأولويات وأوزان للجدولة العادلة.", "ar")
    assert "fastmoe" not in _ids("Compared with FasterMoE, our system balances experts on the copy engine.")
    assert "fastmoe" in _ids("FastMoE is a PyTorch library for MoE training.")
    assert "checkpoint" not in _ids("DiLoCo uses checkpoint streaming to reduce peak bandwidth between sites.")


def test_full_and_half_precision_in_training_are_fp32_and_any_16_bit_format():
    # round 48 (P30, PyTorch#106395): "transferring half-precision gradients, but accumulating/reducing them in
    # full-precision" in a bf16 run: full precision defined as a released model's unquantized bf16, half precision as fp16
    ids = _ids("FSDP with bf16 is only transferring half-precision gradients, but reducing them in full-precision.")
    assert "fp16" not in ids
    fp32 = next(t for t in explain_offline("FSDP with bf16 is only transferring half-precision gradients, but reducing them "
                                           "in full-precision.", "en")["terms"] if t["id"] == "fp32")
    assert fp32["expansion"] == "single-precision floating point", fp32["expansion"]
    assert "fp16" in _ids("On V100 we train in half precision with loss scaling to avoid underflow.")


def test_a_hook_may_be_an_optimizers():
    # round 48 (P28, torchtitan#2061): "i can add it in optimizer hook" got only the module and tensor sense
    from tests.support.glossary_files import term_definition
    definition = term_definition("We dont log the aux loss, but i can add it in optimizer hook if you want, for PyTorch.", "pytorch-hook")
    assert "optimizer" in definition.split(";")[0], definition


def test_horizontal_scaling_of_software_is_growing_by_units_not_the_network():
    # round 48 (P26, ThakiCloud on NeMo RL): «توسع أفقي غير محدود» in a table of a toolkit's features took the network
    # between racks; the indefinite form is no network name, and the table's scalability words choose the strategy
    from tests.support.glossary_files import term_definition
    text = ("يمثّل NeMo RL تطوراً على NeMo Aligner السابق في التعلم المعزز:\nقابلية التوسع | توسع محدود | توسع أفقي غير محدود\n"
            "المعمارية | بنية متجانسة | خدمات مصغرة نمطية")
    assert term_definition(text, "scale-out", "ar").startswith("النمو بإضافة وحدات أكثر")


def test_a_deterministic_synchronous_mode_is_order_independent():
    # round 48 (P27, Forgather's DiLoCo docs): "Synchronous: All workers must submit before the server applies the outer
    # optimizer. Simple and deterministic." got the fixed-traffic sense of MoE communication
    text = ("DiLoCo reduces communication by ~500x, making 1 Gig Ethernet practical for multi-machine training. The system "
            "supports two operating modes: - Synchronous: All workers must submit before the server applies the outer "
            "optimizer. Simple and deterministic. - Asynchronous: Workers submit independently without waiting.")
    from service.explain.pipeline import analyse
    item = next(t for t in analyse(text, "en").terms if t["id"] == "training-determinism")
    assert "order or timing" in item["definition"], item["definition"]


def test_dgx_cloud_is_no_dgx_server():
    # round 48 (P05, Nebius on GB200 NVL72): "DGX Cloud Benchmarking" was defined as NVIDIA's eight-GPU servers
    assert "dgx" not in _ids("We ran DGX Cloud Benchmarking recipes on the GB200 NVL72 cluster.")
    assert "dgx" in _ids("Each DGX H100 server has eight GPUs.")
