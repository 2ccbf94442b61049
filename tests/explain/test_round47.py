"""Round 47: what round 42's readers and this stop's own reading found (issue 18)."""

from service.explain.compose import explain_offline
from service.i18n import arabic_style


def _prose(answer: str) -> str:
    """The answer less its corrections section (which names the source's words on purpose) and its quotes."""
    return arabic_style.prose(answer, ("تصحيحات",))


def test_an_arabic_answer_says_the_passages_own_word_for_a_concept():
    # round 42 (P18-ar): the passage wrote «نقاط التفتيش»; the answer's restatement silently said «نقاط الحفظ» and its
    # heading another word than the text's, two words for one thing across passage and answer
    text = ("يُعدّ تدريب النماذج الكبيرة مهمة طويلة تمتد أسابيع، لذا تغدو آليات الحفظ الدوري لنقاط التفتيش ذات أهمية "
            "بالغة. ويُوزَّع النموذج على آلاف الرقائق المتصلة بشبكة سريعة.")
    answer = explain_offline(text, "ar")["explanation"]
    prose = _prose(answer)
    assert "نقطة التفتيش" in answer or "نقاط التفتيش" in answer
    assert "نقاط الحفظ" not in prose and "نقطة الحفظ" not in prose
    assert "الشرائح" not in prose and "شريحة" not in prose


def test_the_house_word_stays_where_the_passage_uses_it_too():
    # a passage that already says «الشرائح» once gives no reason to follow its other spelling
    text = "تُوزَّع الطبقات على الشرائح، ويُحفظ النموذج في نقاط الحفظ كل ساعة، وتنقل الرقائق التنشيطات بينها."
    followed = arabic_style.passage_words(text)
    assert "شرائح" not in followed and "الحفظ" not in " ".join(followed)


def test_a_variant_the_corrections_call_a_mistranslation_is_not_followed():
    followed = arabic_style.passage_words("نحفظ نقاط التفتيش كل ساعة.", corrected="«نقاط التفتيش»: ترجمة خاطئة")
    assert not followed
    assert arabic_style.passage_words("نحفظ نقاط التفتيش كل ساعة.") == {"نقاط الحفظ": "نقاط التفتيش", "نقطة الحفظ": "نقطة التفتيش"}


def test_an_english_passage_changes_nothing():
    assert arabic_style.passage_words("We save checkpoints every hour on 1,024 chips.") == {}


def test_elastic_scaling_of_an_experiment_is_no_elastic_training_even_after_a_particle():
    # round 42 (P18): «والتوسع المرن» (allocating GPUs by phase) was glossed as training that survives machines
    # leaving, because the guard's written form missed the attached و and its cue word stood two paragraphs away
    text = ("ثانيها التخصيص الديناميكي للموارد والتوسع المرن. تتفاوت الموارد اللازمة للتدريب بحسب طبيعة التجربة؛ إذ قد "
            "تكفي بضع وحدات GPU في مرحلة النمذجة الأولية، لكن التدريب المسبق قد يستدعي مئات الوحدات. " + "كلمة " * 60 +
            "وخلال التدريب الطويل يرتفع احتمال حدوث أعطال عتادية.")
    assert "التدريب المرن" not in explain_offline(text, "ar")["explanation"]
    # where machines leaving is the sentence's own subject, the sense stays
    near = "التوسع المرن يعيد تشكيل المهمة تلقائيا حين تغادر عقدة بعد تعطلها، فيستمر التدريب على الوحدات الباقية."
    assert "التدريب المرن" in explain_offline(near, "ar")["explanation"]


def test_an_arabic_heading_brackets_the_name_the_text_wrote_not_an_english_common_noun():
    # round 42 (P18-ar): "**نظام ملفات مشترك** (shared file system)" over a passage naming only Lustre; the reader
    # counted the English the text never wrote as English left in the answer
    answer = explain_offline("We store checkpoints on Lustre so every node reads the same files after a restart.", "ar")
    lines = [line for line in answer["explanation"].split("\n") if "Lustre" in line and line.startswith("- **")]
    assert lines and "shared file system" not in lines[0]
    # the entry's own name, spaced or inflected otherwise, stays as it was
    from service.explain.term_display import _other_name
    assert not _other_name("AllReduce", "all-reduce") and not _other_name("Finetuning", "fine-tuning")
    assert _other_name("Kubernetes", "job scheduler")


def test_a_bytes_per_parameter_sum_is_no_factor_of_the_memory_it_sizes():
    # llm-foundry#437 (round 42, P10): "4 (weights) + 4 (grads) + 4 (lion momentum) = 12 bytes/param = 360GB" left
    # unchecked because the three 4s were taken for the text's own multiplication; the reader asked for 12 x 30B
    text = ("If finetuning MPT-30B with Lion, this would take about 4 (weights) + 4 (grads) + 4 (lion momentum) = "
            "12 bytes/param = 360GB total for model + optimizer state.")
    answer = explain_offline(text, "en")
    assert any(c["verdict"] == "consistent" for c in answer["claims"])
    assert "30B * 12 = 360 GB" in answer["explanation"]
    wrong = explain_offline(text.replace("360GB", "480GB"), "en")
    assert any(c["verdict"] == "inconsistent" for c in wrong["claims"])


def test_a_fitted_definition_keeps_the_fact_its_first_clause_leaves_open():
    # round 42 (P22-ar): all-reduce and all-gather were cut to "a collective in which every chip contributes an array",
    # before what every chip ends with; "rank" was cut to where the sense holds ("In distributed training ...:")
    from service.explain.definitions import brief_definition
    gather = "عملية جماعية تحمل فيها كل شريحة قطعة من مصفوفة، وتنتهي كل الشرائح وبحوزتها المصفوفة كاملة بضم كل القطع."
    assert "المصفوفة كاملة" in brief_definition(gather, 12)
    rank = ("In distributed training (and in serving on several GPUs): the serial number that identifies one process "
            "(usually one GPU) among all the processes of the job; the local rank is its number on its own machine.")
    assert "serial number" in brief_definition(rank, 12)
    # a long head is a whole definition: the cut stays where it was
    stages = ("تقسم طبقات النموذج إلى مجموعات متتالية توضع كل منها على شرائح مختلفة، وتنتقل التنشيطات من مرحلة إلى "
              "التي تليها كما في خط التجميع.")
    assert brief_definition(stages, 12) == "تقسم طبقات النموذج إلى مجموعات متتالية توضع كل منها على شرائح مختلفة."


def test_an_estimate_the_text_sets_up_is_worked_out_from_its_own_figures():
    # round 42 (P34): an exercise gave 6 x params x tokens, 40% MFU, 989 TFLOPs and $2.50/GPU-hour for a 7B model on
    # 2T tokens and asked for the estimate; the answer left it undone. 6 x 7e9 x 2e12 = 8.4e22 FLOP;
    # 8.4e22 / (989e12 x 0.4) / 3600 = 58,982 GPU-hours; x $2.50 = $147,455
    text = ("For pre-training, estimate FLOPs as 6 x params x tokens, and assume 40% MFU on H100 at 989 TFLOPs BF16, "
            "at $2.50/GPU-hour. Report the estimate for a 7B model trained on 2T tokens.")
    answer = explain_offline(text, "en")
    assert "58,982 chip-hours" in answer["explanation"] and "$147,455" in answer["explanation"]
    # with no MFU written nothing is assumed: no chip-hours are said
    bare = explain_offline(text.replace("assume 40% MFU on H100 at 989 TFLOPs BF16, ", ""), "en")
    assert "chip-hours" not in bare["explanation"]


def test_an_arabic_estimate_reads_the_price_per_gpu_hour_and_keeps_the_tokens_plural():
    text = ("قم بتقدير FLOPs على أنها 6 x معلمات x الرموز المميزة، وافترض 40% MFU على H100 عند 989 TFLOPs BF16، "
            "بسعر 2.50 دولار/GPU-ساعة. قم بالإبلاغ عن التقدير لنموذج 7B الذي تم تدريبه على رموز 2T.")
    answer = explain_offline(text, "ar")["explanation"]
    assert "58,982" in answer and "$147,455" in answer
    assert "x الرمز،" not in answer and "x الرمز " not in answer  # the MT plural corrected to a plural, not "the token"


def test_a_models_sizes_are_said_only_where_the_passage_speaks_of_sizes():
    # rounds 41-42 (P21, P35): "six hundred seventy-one billion parameters in total ..." under a passage naming the V3
    # paper and no size: strict readers counted it as numbers neither in the text nor derived from it
    from service.explain.stated_sizes import without_unstated_sizes
    from service.explain import glossary
    definition = glossary.load().by_id["deepseek-v3"]["definition"]
    plain = without_unstated_sizes(definition, "The V3 paper uses 20 of the 132 SMs as a communication scheduler.")
    assert "billion" not in plain and plain.startswith("DeepSeek's open-weight mixture-of-experts model: very large")
    # "at DSV3 scale", a parameter count or a total-by-active name asks for the sizes: they stay
    for text in ("At K2 or DSV3 scale you get excellent MFU.", "A 671B model with 37B active parameters.",
                 "Qwen3-30B-A3B on 8 GPUs."):
        assert without_unstated_sizes(definition, text) == definition
    answer = explain_offline("The V3 paper uses 20 of the 132 SMs on each Hopper GPU as a communication scheduler.", "en")
    assert "billion" not in answer["explanation"] and "(DSV3)" not in answer["explanation"]


def test_senses_the_round47_review_found_wrong_are_not_shown():
    # round 47 review: a CoWoS wafer is the interposer; "framework overhead" beside reserved memory is memory, not
    # CPU launch time; a possessive is no name ("**TSMC's** (TSMC)")
    def headings(text: str) -> str:
        return "\n".join(line for line in explain_offline(text, "en")["explanation"].split("\n") if line.startswith("- **"))
    cowos = headings("TSMC's CoWoS (Chip-on-Wafer-on-Substrate) capacity limits how many GPUs ship; each wafer carries "
                     "the interposers.")
    assert "**wafer**" not in cowos and "**TSMC's**" not in cowos and "**TSMC**" in cowos
    reserve = headings("To account for framework overhead, vLLM reserves about 2 GiB of GPU memory.")
    assert "dispatch overhead" not in reserve and "CPU" not in reserve


def test_a_gist_sentence_is_not_joined_to_a_consequence_of_another():
    # round 47 review (Q03): "As a consequence, it achieves higher overall bandwidth" followed a sentence it does not
    # follow in the text, so "it" read as the plugin-less network
    text = ("The NCCL library optimizes the communication graph used by all-reduce to prioritize intra-node "
            "communication, where bandwidth is higher. As a consequence, it achieves higher overall bandwidth. Unmodified "
            "NCCL does not make use of libfabric, and defaults to using TCP sockets on Slingshot-11. Without the plugin, "
            "Perlmutter had 2-3x worse bandwidth with NCCL on Slingshot 11 vs. Slingshot 10 on nccl-tests.")
    opening = explain_offline(text, "en")["explanation"].split("\n## ")[0]
    assert "As a consequence" not in opening and "as a consequence" not in opening


def test_a_long_gist_sentence_ends_before_its_trailing_aside_not_in_an_ellipsis():
    from service.explain.gist_length import trimmed
    sentence = ("When compared with the prevalent top-2 MoE architecture, ScMoE demonstrates training speed improvements "
                "of 30% and 11%, and inference improvements of 40% and 15%, in our PCIe and NVLink hardware environments, "
                "respectively, where communication constitutes 60% and 15% of the total MoE time consumption, and the "
                "overlap reaches 70% to 100% of the communication time in both environments.")
    cut = trimmed(sentence)
    assert cut.endswith("respectively.") and "…" not in cut


def test_a_label_before_a_colon_is_not_pasted_into_the_reported_sentence():
    # round 47 review (A03): «يذكر النص أنّ المشكلة الجوهرية في هذا الحل الخسارة المساعدة تتعارض ...»: the colon was
    # dropped, the label left with no predicate; a sentence of its own after the colon is reported alone
    from service.explain.arabic_clause import unlabelled
    assert unlabelled("المشكلة الجوهرية في هذا الحل: الخسارة المساعدة تتعارض مع الهدف الحقيقي") == \
        "الخسارة المساعدة تتعارض مع الهدف الحقيقي"
    # where the part after the colon has no verb it is the label's predicate: the two stay together
    assert unlabelled("آلات التوليد: وحدات معالجة رسومات فعالة التكلفة") == "آلات التوليد وحدات معالجة رسومات فعالة التكلفة"
    english = explain_offline("The core problem with this approach: the auxiliary loss conflicts with the real objective. "
                              "Too strong a weight pulls the router away from the best experts.", "en")["explanation"]
    assert "approach: the" not in english.split("\n## ")[0]


def test_a_contrast_is_never_cut_from_a_long_gist_sentence():
    from service.explain.gist_length import trimmed
    sentence = ("I was running some NCCL benchmarks on 2 selene nodes and the bandwidth reported for the various collective "
                "tests was about 200 GB/s in every run I made over the whole week, while all-to-all reported numbers "
                "closer to 25 GB/s, which surprised me a lot when I first looked at it.")
    assert "25 GB/s" in trimmed(sentence)


def test_a_sized_model_is_one_model_of_its_family_not_the_family():
    # round 43 (P03): "Llama 405B (Llama model with 405 billion parameters): Meta's family of open-weight language models"
    for lang, said in (("en", "One model of Meta's family"), ("ar", "نموذج واحد من عائلة")):
        terms = explain_offline("We train Llama 405B with context parallelism on 128 H100s.", lang)["terms"]
        sized = [t for t in terms if t["id"].startswith("model:")]
        assert sized and sized[0]["definition"].startswith(said), sized


def test_senses_round43_readers_found_wrong_are_not_shown():
    def headings(text: str, lang: str = "en") -> str:
        return "\n".join(line for line in explain_offline(text, lang)["explanation"].split("\n") if line.startswith("- **"))
    # a cluster's "total compute" in EFLOPS is a rate, not a training budget (P19)
    assert "compute budget" not in headings("Microsoft's GB300 cluster delivers 92.1 EFLOPS of total compute at INT4.")
    # ring attention's KV blocks are no serving engine's pages (P05)
    assert "paged" not in headings("The zigzag layout passes KV blocks around the ring so each rank does equal work.")
    # «الاستدلال» beside reasoning words is reasoning, not running a trained model (P14); inference stays inference
    assert "تشغيل نموذج لإنتاج المخرجات" not in headings("يتمتع DeepSeek-R1 بقدرات استدلال قوية، وتظهر أنماط الاستدلال عبر التعلم المعزز.", "ar")
    assert "تشغيل نموذج لإنتاج المخرجات" in headings("يستخدم الاستدلال على H100 ذاكرة المفاتيح والقيم المؤقتة.", "ar")


def test_what_the_authors_propose_is_said_as_its_object_not_after_that():
    # round 43 (P35): "The authors propose that FlashEP: A Flexible and General Strategy ..."; "we present X" read as
    # "The authors report that they present X"
    for text, said in (("We propose FlashEP, a strategy for overlapping expert computation with all-to-all communication.",
                        "The authors present FlashEP, a strategy"),
                       ("We present ScMoE, a shortcut-connected MoE architecture that overlaps communication with computation.",
                        "The authors present ScMoE, a shortcut-connected")):
        assert said in explain_offline(text, "en")["explanation"].split("\n## ")[0]
    # a proposal said as a clause keeps its "that"
    clause = explain_offline("We propose that the router should be trained with a bias instead of a loss.", "en")["explanation"]
    assert "propose that the router" in clause


def test_an_arabic_this_sentence_after_its_verb_reads_back_and_people_keep_their_sentence():
    from service.explain import arabic_clause, reported
    # round 43 (P18-ar): «تعتبر هذه الكفاءة ...» was the point alone, its «هذه» pointing at nothing said
    assert reported.reads_back("تعتبر هذه الكفاءة أمرًا بالغ الأهمية للتطبيقات على نطاق واسع.")
    # «طوَّر Ainslie وزملاؤه الانتباه ...» had moved "Ainslie وزملاؤه الانتباه" before the verb as one subject
    assert arabic_clause.reported("طوَّر Ainslie وزملاؤه الانتباه بالاستعلام المُجمَّع كتحسين للمحوِّلات.") is None
    # a quoted English title inside an Arabic sentence keeps its words
    answer = explain_offline("طوَّر Ainslie وزملاؤه الانتباه بالاستعلام المُجمَّع كتحسين لخوارزمية الانتباه الذاتي التي "
                             "تناولتها دراسة \"Attention is All You Need\" لعام 2017.", "ar")["explanation"]
    assert "\"Attention is All You Need\"" in answer


def test_an_arabic_passive_verb_is_a_verb_and_reinforcement_learning_keeps_the_passages_word():
    from service.explain import arabic_clause
    # «طُبّق التعلم التعزيزي ...» was reported as «أنّ طُبّق ...»: the passive past was not read as a verb
    assert arabic_clause.is_verb("طُبّق") and arabic_clause.is_verb("نُشِر") and not arabic_clause.is_verb("مُحسِّن")
    answer = explain_offline("طُبّق التعلم التعزيزي (RL) مباشرة على النموذج الأساسي دون الضبط الدقيق تحت إشراف، فظهرت "
                             "أنماط تفكير طويلة.", "ar")["explanation"]
    assert "أنّ طُبّق" not in answer
    # round 43 (O2): «التعلم التعزيزي» in the passage and «التعلم المعزز» in the answer named one thing two ways
    assert "التعلم المعزز" not in arabic_style.prose(answer, ("تصحيحات",))


def test_a_technique_that_requires_something_is_not_said_to_be_required():
    # round 44 (P02-ar, a `wrong` gist): "PP requires larger batch size to separate into micro batches" was framed as
    # «يحتاج نموذج كبير إلى توازي خطوط الأنابيب» (a large model needs PP): PP is the subject of "requires" there
    from service.explain.pipeline import analyse
    assert [c.frame for c in analyse("PP requires larger batch size to separate into micro batches.", "en").claims] == [None]
    assert "pp_needed" in [c.frame for c in analyse("Past 8 nodes PP is needed.", "en").claims]
    assert "pp_only_when_dp_bound" in [c.frame for c in analyse("You only need PP when you're DP-comms bound.", "en").claims]


def test_round44_findings_a_ratio_a_range_and_two_senses():
    from service.explain.pipeline import analyse
    # P18: "15T tokens vs 20 tokens: about 750000000000 times as much" set a run's tokens against Chinchilla's ratio
    text = "Chinchilla says about 20 tokens per parameter, but Llama 3 8B was trained on 15T tokens."
    assert [f.quantity for f in analyse(text, "en").figures if f.quote == "20 tokens"] == ["tokens_per_param"]
    assert "750000000000" not in explain_offline(text, "en")["explanation"]
    # P32: the ends of a range ("300K-700K B200s") are no parts adding up to 1M
    answer = explain_offline("Aiming for 1M B200s only doubles or triples Microsoft's planned 300K-700K B200s.", "en")
    assert not any(c["verdict"] == "consistent" for c in answer["claims"])

    def headings(text: str) -> str:
        return "\n".join(line for line in explain_offline(text, "en")["explanation"].split("\n") if line.startswith("- **"))
    # P26: a job that dies is no silicon die; P27: BW computation is the backward pass, not bandwidth
    assert "silicon" not in headings("Your 256-node training job dies 18 hours in. The NCCL watchdog timed out.")
    assert "**BW**" not in headings("DDP is able to overlap communication with BW computation by bucketing parameters.")
    assert "**BW**" in headings("The NIC gives 400 Gb/s of BW per GPU.")


def test_a_numbered_generation_is_not_its_whole_family_and_transformer_engine_is_also_hardware():
    # round 44 (P11): "GPT2 (GPT2 model): OpenAI's family of GPT language models"; (P06) "hardware FP8 support via the
    # Transformer Engine" glossed as the library alone
    terms = explain_offline("We train GPT2 on 8 GPUs with tinygrad FSDP.", "en")["terms"]
    assert [t["definition"] for t in terms if t["id"] == "model:gpt2"][0].startswith("One generation or version of OpenAI's")
    from service.explain import glossary
    assert "Hopper and later Tensor Cores" in glossary.load().by_id["transformer-engine"]["definition"]


def test_an_exercises_order_is_not_pasted_after_that():
    # "It adds that report the estimate for a 7B model ..." (this stop's own reading of a round-42 exercise)
    text = ("For pre-training, estimate FLOPs as 6 x params x tokens, and assume 40% MFU on H100 at 989 TFLOPs BF16, at "
            "$2.50/GPU-hour. Report the estimate for a 7B model trained on 2T tokens.")
    opening = explain_offline(text, "en")["explanation"].split("\n## ")[0]
    assert "that report the estimate" not in opening and "report the estimate for a 7B model" in opening


def test_a_name_in_brackets_is_the_texts_name_for_what_precedes_it_not_a_formulas_variable():
    # round 44 (P05): "the length of entries in the KV cache (kv_len)" was "A variable of the formula the text writes"
    # in a passage with no formula; "num_head_kv" read "number of head key-value (KV cache)"
    from service.explain import key_terms
    found = key_terms.find("It grows with the length of entries in the KV cache (kv_len). Decode forwards one token.", "en", [], set())
    assert [(f["term"], f["expansion"]) for f in found] == [("kv_len", "the text's name for what it says just before")]
    assert "KV cache" not in found[0]["definition"]
    formula = key_terms.find("busbw = algbw * (2*(n_nodes-1)/n_nodes) for the ring.", "en", [], set())
    assert ("n_nodes", "a variable of the text's formula") in [(f["term"], f["expansion"]) for f in formula]


def test_a_chain_of_failures_is_not_blamed_on_its_last_name_across_languages():
    # round 44 (P26-ar, a `wrong` gist): "One node kernel-panicked, the collective stalled, and PyTorch eventually
    # timed out" was framed as «مشكلة فيما يخص PyTorch»; several events with subjects of their own blame no one name
    text = ("Your 256-node training job dies 18 hours in. The NCCL watchdog fired. One node kernel-panicked, the collective "
            "stalled, and PyTorch eventually timed out on TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC. You check the checkpoint.")
    assert "فيما يخص PyTorch" not in explain_offline(text, "ar")["explanation"]


def test_a_quoted_claim_of_the_passage_does_not_stop_the_answer_following_its_words():
    # the stop's last reading: a claim heading quoting the passage («... 256 رقاقة ... توازي الموترات ...») was taken for
    # a correction naming those words as mistranslations, so the rest of the answer said «شريحة» and «توازي الموتر»
    text = ("درّبنا نموذجًا بحجم 70B على 256 رقاقة H100 باستخدام توازي الموترات بدرجة 8 وتوازي خط الأنابيب بدرجة 4، "
            "وبلغت نسبة MFU نحو 41%.")
    prose = _prose(explain_offline(text, "ar")["explanation"])
    assert "رقاقة" in prose and "شريحة" not in prose and "توازي الموتر " not in prose
