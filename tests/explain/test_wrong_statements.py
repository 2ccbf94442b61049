"""Statements blind readers found false (issue 18, round 3): each guarded by a general rule, on text written here."""

from service.explain.compose import explain_offline


def _claims(text: str, lang: str = "en") -> list[dict]:
    return explain_offline(text, lang)["claims"]


# ---- a spec list of one run: its token count is the run's, not "perhaps another phase's" --------------------------

def test_a_spec_list_of_one_run_combines_its_days_with_its_token_count():
    text = "Parameters: 70 billion\nTraining tokens: 2 trillion\nGPUs: 2,048 A100 GPUs\nMFU: 40%\nTraining time: ~38 days"
    days = next(c for c in _claims(text) if "38 days" in c["quote"])
    assert "another phase" not in days["why"]
    # 6 x 70e9 x 2e12 / (2048 x 312e12 x 0.4) = 3.29e6 s = 38.0 days (A100 bf16 dense peak 312 TFLOP/s, datasheet)
    assert days["verdict"] == "consistent", days["why"]


def test_a_text_that_names_a_phase_still_keeps_the_token_count_apart():
    text = "Pretraining used 14.8T tokens on 2,048 H800s at 40% MFU. The annealing phase took 60 days for a 37B model."
    days = next(c for c in _claims(text) if "60 days" in c["quote"])
    assert days["verdict"] == "needs_more" and "14.8T" in days["why"]


# ---- a -1 note names the options set to -1, and only those ----------------------------------------------------------

def test_the_fill_note_names_only_the_options_set_to_minus_one():
    text = ("ici_data_parallelism: 1\nici_fsdp_parallelism: -1\nici_fsdp_transpose_parallelism: 1\n"
            "ici_tensor_parallelism: 4\ndcn_data_parallelism: -1\ndcn_fsdp_parallelism: 1\n")
    answer = explain_offline(text, "en")["explanation"]
    note = next(line for line in answer.splitlines() if "is -1" in line)
    assert "`ici_fsdp_parallelism` / `dcn_data_parallelism`" in note
    assert "transpose" not in note and "dcn_fsdp" not in note


# ---- a sense from context: DDP in a JAX/TPU text is data parallelism, not PyTorch's module --------------------------

def _term(text: str, term: str, lang: str = "en") -> dict:
    return next(t for t in explain_offline(text, lang)["terms"] if t["term"] == term)


def test_ddp_in_a_jax_text_is_not_defined_as_pytorchs():
    jax = _term("In MaxText on a TPU slice, DDP keeps a full copy of the weights per chip and FSDP shards them.", "DDP")
    assert "PyTorch" not in jax["definition"]
    torch = _term("With PyTorch DDP each GPU keeps a full copy; FSDP shards the weights.", "DDP")
    assert "PyTorch" in torch["definition"]
    assert "PyTorch" not in _term("في MaxText على قطاع TPU، يحتفظ DDP بنسخة كاملة من الأوزان لكل شريحة.", "DDP", "ar")["definition"]


# ---- a quantity the answer derives is labelled as the answer's estimate, not the text's ---------------------------

def test_a_model_size_the_text_never_states_is_not_inferred_from_flops_per_token():
    for lang in ("en", "ar"):
        (claim,) = [c for c in _claims("Step log: TFLOP/s/device: 360, Tokens/s/device: 50000, loss: 2.1", lang)
                    if "50000" in c["quote"]]
        # 360e12 / 50000 = 7.2e9 FLOP per token would give 1.2e9 parameters at most (6N, Kaplan et al. 2020): a size
        # the log never claims, which blind readers took for the text's own; it is not shown
        assert "1.2B" not in claim["why"] and claim["why"]


# ---- no expansion pasted into a quoted rate: "996 calibrated TFLOP/s/GPU" keeps its unit as written ----------------

def test_a_rate_after_a_number_and_an_adjective_is_not_expanded_inside_the_quote():
    answer = explain_offline("The new recipe reaches approximately 996 calibrated TFLOP/s/GPU versus 967 before.", "en")
    assert "(TFLOP/s/GPU)" not in answer["explanation"]
    assert "996 calibrated TFLOP/s/GPU" in answer["explanation"]


# ---- a share of peak the text does not call MFU is not named MFU ------------------------------------------------------

# ---- a chip's memory is said per chip, never as the memory of the model it trains -----------------------------------

# ---- senses from context: a compute cost in money vs in operations; the scaling hypothesis is not scaling laws -------

def test_a_compute_cost_beside_dollars_is_money_and_beside_experts_is_operations():
    money = _term("Training budgets jumped from a few million dollars to hundreds of millions as compute costs double "
                  "every 8 months.", "compute cost")
    assert "money" in money["definition"] and "floating-point operations" not in money["definition"]
    work = _term("A mixture-of-experts model activates a few experts per token, which keeps compute costs low.", "compute cost")
    assert "floating-point operations" in work["definition"]
    ar = next(t for t in explain_offline("قفزت ميزانيات التدريب إلى مليارات الدولارات مع تضاعف تكاليف الحوسبة.", "ar")["terms"]
              if t["id"] == "compute-cost")
    assert "مال" in ar["definition"]
    assert all(t["id"] != "compute-budget" for t in explain_offline("Compute costs double every 8 months.", "en")["terms"])


def test_the_scaling_hypothesis_is_not_glossed_as_scaling_laws():
    for text, lang in (("The main reason is the Scaling Hypothesis: more data, compute and bigger models.", "en"),
                       ("يعود السبب إلى «فرضية القياس» التي تنص على أن الذكاء الأقوى يتطلب بيانات أكثر.", "ar")):
        ids = {t["id"] for t in explain_offline(text, lang)["terms"]}
        assert "scaling-hypothesis" in ids and "scaling-laws" not in ids


# ---- a correction of a rendering says only what is known: no "machine translation", no self-contradiction -----------

def test_a_rendering_correction_neither_contradicts_itself_nor_claims_machine_translation():
    text = "يقرر جهاز التوجيه أي الخبراء يستخدم في نموذج خليط الخبراء لكل رمز."
    en, ar = explain_offline(text, "en"), explain_offline(text, "ar")
    line = next(line for line in en["explanation"].splitlines() if "جهاز التوجيه" in line and line.startswith("- "))
    assert "that is" not in line and "for “router" in line
    assert all("ترجمة آلية" not in w for w in ar["warnings"]) and "ترجمة آلية" not in ar["explanation"]
    assert all("is wrong" not in w for w in en["warnings"])


# ---- a context window is not "sequences of N tokens" ----------------------------------------------------------------

# ---- a named variant is defined as that variant, not as its whole family ------------------------------------------

def test_zb_2p_is_the_two_times_memory_variant_not_the_zero_bubble_family():
    text = "Interleaved 1F1B is slightly slower than ZB_2P but saves a lot of GPU memory."
    zb = _term(text, "ZB-2p")
    assert "twice" in zb["definition"] and "family" not in zb["definition"]
    assert "نحو ضعف" in _term(text, "ZB-2p", "ar")["definition"]


# ---- a step log's "tps" beside one device's memory share is tokens per second per device ----------------------------

def test_tps_in_a_per_device_step_log_is_per_device():
    from service.explain.pipeline import analyse
    log = analyse("step: 10  loss: 3.2  memory: 62.10GiB(65.30%)  tps: 4,210  tflops: 250.1  mfu: 25.29%", "en")
    assert [f.quantity for f in log.figures if f.quote == "4,210"] == ["tokens_per_s_per_chip"]
    job = analyse("The cluster sustained tps: 1,200,000 over the run.", "en")
    assert [f.quantity for f in job.figures if f.quote == "1,200,000"] == ["tokens_per_s"]


def test_token_dropping_is_defined_as_not_processing_the_token_first():
    # Fedus et al. 2021, section 2.2: a dropped token's computation is skipped; the residual path is how Switch carries it on
    text = "If the expert capacity is reached we can drop this token (token dropping) or send it to the next layer."
    first_clause = _term(text, "token dropping")["definition"].split("(")[0]
    assert "does not process" in first_clause and "residual" not in first_clause


# ---- a reason says only the link the text makes: activation growth alone is no case for context parallelism ---------

def test_activation_growth_with_sequence_length_alone_gets_no_context_parallelism_reason():
    from service.explain.pipeline import analyse
    plain = analyse("However, as the sequence length increases, the activation memory keeps growing quadratically.", "en")
    assert all(link["id"] != "long_context_needs_cp" for link in _links(plain))
    named = analyse("Because the sequence length is 128K tokens, we use context parallelism across 8 GPUs.", "en")
    assert any(link["id"] == "long_context_needs_cp" for link in _links(named))


def _links(doc) -> list[dict]:
    from service.explain import reasons
    return reasons.find(doc)


# ---- a size the text states in bytes is worked in bytes, not as a bare "350B" that reads as a parameter count -------

def test_a_size_in_bytes_is_worked_in_bytes():
    answer = explain_offline("A 70B model in FP16 needs 70B x 2 bytes, or 140 GB, for its weights alone.", "en")["explanation"]
    working = [line for line in answer.splitlines() if "=" in line and "140" in line]
    assert working and all("140 GB" in line for line in working), working


def test_zb_is_zero_bubble_only_beside_pipeline_words():
    ids = lambda text: {t["id"] for t in explain_offline(text, "en")["terms"]}  # noqa: E731
    assert "zero-bubble-pipeline" in ids("I found that ZB is better than 1F1B, and ZB_2P is fastest.")
    assert "zero-bubble-pipeline" not in ids("The internet holds about 120 ZB of data, and storage grows every year.")


def test_a_zero_3_layout_names_its_data_parallel_axis_as_the_sharded_one():
    from service.configs.render import describe_layout
    assert describe_layout({"dp_degree": 4, "zero_stage": 3}) == "DP 4 (FSDP/ZeRO-3)"
    assert describe_layout({"tp_degree": 2, "dp_degree": 8, "zero_stage": 1}) == "TP 2 · DP 8 · ZeRO-1"
    assert describe_layout({"zero_stage": 3}) == "FSDP (ZeRO-3)"


def test_a_memory_size_is_said_per_chip_only_where_the_text_says_so():
    # "140 GB" a model needs is no chip's memory: round 7's readers counted "140 GB of memory per chip" wrong
    gist = explain_offline("يحتاج النموذج إلى ذاكرة قدرها 140 غيغابايت، ولذلك لا يتسع لوحدة GPU واحدة.", "en")["explanation"]
    assert "per chip" not in gist.split("##")[1]


def test_a_time_is_a_step_time_only_where_the_text_ties_it_to_a_step():
    # the all-gather's 2.6 s at the end of each step is not the step time (a wrong gist on round 7's set)
    gist = explain_offline("يستغرق تنفيذ عملية all_gather في نهاية كل خطوة نحو 2.6 ثانية عند استخدام ZeRO-2.", "en")["explanation"]
    assert "step time" not in gist.split("##")[1]


def test_prefill_is_its_own_phase_not_inference_and_the_arabic_particle_joins_it():
    # round-10 and round-12 readers: "انفصال لـ الاستدلال" for "انفصال لـ Prefill" (prefill is one phase of inference)
    from service.explain.pipeline import analyse
    text = "انفصال لـ Prefill يتيح التوسّع بكفاءة عالية مع LMCache وvLLM."
    ids = {t["id"] for t in analyse(text, "ar").terms}
    assert "prefill" in ids and "inference" not in ids
    gist = explain_offline(text, "ar")["explanation"]
    assert "الاستدلال" not in gist.split("##")[1] and "لـ ال" not in gist


def test_a_title_case_heading_is_neither_advice_nor_the_points_companion():
    # a round-12 reader: "Their advice is to Lower Memory Consumption for GPTQ-LoRA vs QLoRA ..." for a numbered heading
    text = ("There seems to be a difference to how FSDP handles GPTQ-LoRA sharding compared to QLoRA.\n"
            "Lower Memory Consumption for GPTQ-LoRA vs QLoRA for single device finetuning\n"
            "We notice that GPTQ-LoRA (59.0 GiB) consumes 6 GiB less memory than QLoRA (65 GiB) on one device.")
    gist = " ".join(g["text"] for g in explain_offline(text, "en")["gist"])
    assert "advice" not in gist and "Lower Memory" not in gist
    assert "advice is to keep" in " ".join(g["text"] for g in explain_offline("Keep TP inside one node.", "en")["gist"])


def test_a_released_product_is_named_as_written_not_cut_to_the_family_the_glossary_knows():
    # a round-12 reader: "The article reports that OpenAI released GPT-5.3." for "GPT-5.3-Codex-Spark"
    text = "أصدرت شركة OpenAI للتو نموذج GPT-5.3-Codex-Spark، وهو أول نموذج لـ OpenAI يعمل على أجهزة Cerebras."
    gist = " ".join(g["text"] for g in explain_offline(text, "en")["gist"])
    assert "GPT-5.3-Codex-Spark" in gist or "GPT-5.3" not in gist


def test_a_question_inside_an_aside_does_not_split_the_sentence():
    # a round-11 reader: "The author asks whether vocab size is 32777 (maybe too small to see gain." for
    # "Vocab size is 32777 (maybe too small to see gain? Maybe because is not pow of 16?)": a statement with an aside
    from service.explain.pipeline import analyse
    text = "Only 600MB saved. Vocab size is 32777 (maybe too small to see gain? Maybe because is not pow of 16?)"
    doc = analyse(text, "en")
    assert len(doc.sentences) == 2
    gist = " ".join(g["text"] for g in explain_offline(text, "en")["gist"])
    assert "asks whether vocab size is" not in gist


def test_fsdps_weight_gathering_is_not_the_reason_for_strategies_that_shard_no_weights():
    # a round-11 reader: "FSDP gathers each layer's weights ..." given as why fsdp no_shard and optim are slow; those
    # strategies shard no weights, which is why the author blames the FSDP code itself
    text = ("The no_shard and optim strategies show lower throughput than mcore DDP. While fsdp no_shard and fsdp optim "
            "have similar throughput, both are significantly slower than the standard mcore DDP approach.")
    assert "gathers each layer's weights" not in explain_offline(text, "en")["explanation"]
    plain = "FSDP is significantly slower than DDP for our 1B model on 8 GPUs."
    assert "gathers each layer's weights" in explain_offline(plain, "en")["explanation"]


def test_a_list_item_without_a_verb_is_not_added_to_the_point():
    # a round-10 reader: "... and adds that no torch.compile" joined another poster's list item to this one's result
    text = ("First timings: we are around 2k tokens/sec/GPU\n- no xformers\n- no torch.compile (activation checkpointing "
            "is not supported by torch.compile yet)\n\nDuring training on the internal server (A100 80Gx8), approximately "
            "2.9k tokens/sec/GPU were achieved using large gradient accumulation and Megatron-DeepSpeed.")
    gist = " ".join(g["text"] for g in explain_offline(text, "en")["gist"])
    assert "adds that no" not in gist


def test_a_sentence_opening_on_a_bare_verb_is_quoted_not_put_after_says_that():
    # "The text says that take the popular Adam optimizer as an example: ..." is no sentence; quoted, it stays one
    gist = explain_offline("Take the popular Adam optimizer as an example: it keeps two extra states per parameter, "
                           "so its optimizer memory is twice the weights in fp32.", "en")["gist"][0]["text"]
    assert "that take" not in gist.lower() and "Take the popular Adam optimizer" in gist


def test_a_companion_opening_on_a_bare_verb_is_quoted():
    # "It reports that watch tokens flow between GPUs" and "The text says that get this wrong and ..." are no sentences
    gist = " ".join(g["text"] for g in explain_offline(
        "Every MoE layer requires two All-to-All operations: dispatch and combine. "
        "Watch tokens flow between GPUs to reach their target experts.", "en")["gist"])
    assert "that watch" not in gist.lower()


def test_a_bracketed_operand_of_a_formula_is_not_dropped_as_an_aside():
    # a round-13 reader: "Interleave PP Bubble Rate is m /" cut the formula "m / (m + (pp - 1) / v)"
    from service.explain.gist import _without_asides
    assert _without_asides("Bubble Rate is m / (m + (pp - 1) / v)") == "Bubble Rate is m / (m + (pp - 1) / v)"
    assert _without_asides("The job (which we ran on the old cluster last week) failed.") == "The job failed."
