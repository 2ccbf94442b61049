"""Round 50: what round 46's last reader (S6, six GitHub threads) and this stop's own reading found (issue 18)."""

from service.explain.pipeline import analyse


def _claim(text: str, quoted: str, lang: str = "en"):
    """The claim whose quote holds `quoted`."""
    return next(c for c in analyse(text, lang).claims if quoted in c.quote)


def test_a_measured_range_per_nic_is_a_share_of_the_links_rate_in_bytes():
    # round 46 (S6, nccl-tests#290): "For NDR @ 400Gbps you should see 46-48GB/s per NIC" got "nothing to recompute"; the
    # reader asked for 400 Gbps / 8 = 50 GB/s, so 46-48 GB/s is 92-96% of the line rate
    claim = _claim("What speed are your NICs ? For NDR @ 400Gbps you should see 46-48GB/s per NIC.", "46-48GB/s")
    assert claim.verdict == "explained" and "50 GB/s" in claim.why and "92% to 96%" in claim.why, claim.why
    arabic = _claim("مع NDR بسرعة 400Gbps يجب أن ترى 46-48GB/s لكل بطاقة.", "46-48GB/s", "ar")
    assert "92%" in arabic.why and "96%" in arabic.why, arabic.why
    # a range that nothing says is one link's is no share of the link (a whole node's all-reduce, say)
    node = _claim("Each node has 8x ConnectX-7 at 400Gbps and the all-reduce reaches 180-190GB/s.", "180-190GB/s")
    assert "92%" not in (node.why or "") and "of that line rate" not in (node.why or ""), node.why


def test_a_name_in_code_read_as_its_own_words_is_no_term_item():
    # round 46 (S6, verl#2802): "TensorCache: A name in code that reads 'tensor cache'" was an empty item; a name whose
    # reading expands a word ("NumProcess": number of processes) still gets one
    from service.explain.compose import explain_offline
    text = "We add a TensorCache so that the weights are cached in the NumProcess loop before the reshard."
    names = {t["term"] for t in explain_offline(text, "en")["terms"]}
    assert "TensorCache" not in names and "NumProcess" in names, names


def test_a_sense_in_brackets_is_not_said_twice_beside_the_name():
    # round 46 (S6, vLLM#28018): "**preemption** (of a request, preemption)" repeated the name inside its own gloss
    from service.explain.compose import explain_offline
    text = "In v1 scheduler a request may be frequently preempted when the KV cache is full, so preemption repeats."
    answer = explain_offline(text, "en")["explanation"]
    line = next(x for x in answer.splitlines() if x.startswith("- **preemption"))
    assert "preemption, " not in line and ", preemption)" not in line, line


def test_a_sentence_whose_own_sums_were_redone_is_named_by_them():
    # round 46 (S6, vLLM#9565): the check of "2 / 4 = 0.5 ... (1+1) / (4+1) = 0.4" was headed "The figure “4 tokens”",
    # a figure it never used
    from service.explain.compose import explain_offline
    text = ("For example, if 1 means the token is accepted, 0 means the token is not accepted, and after proposing 4 tokens, "
            "we have an acceptance vector of [1, 0, 1, 0], the token acceptance rate is 2 / 4 = 0.5, the system efficiency "
            "is (1+1) / (4+1) = 0.4.")
    answer = explain_offline(text, "en")["explanation"]
    assert "“4 tokens”" not in answer and "arithmetic “2 / 4”, “(1+1) / (4+1)”" in answer, answer


def test_an_english_word_glossing_its_own_arabic_is_not_translated_again():
    # round 46 (S6, Automodel#2577): «(بالتجميع الشامل all-gather)» in a definition became «(بالتجميع الشامل التجميع الشامل)»
    from service.explain.compose import explain_offline
    answer = explain_offline("With reshard_after_forward=False the gathered weights stay resident.", "ar")["explanation"]
    assert "التجميع الشامل التجميع الشامل" not in answer and "بالتجميع الشامل" in answer, answer


def test_a_gpu_passage_names_its_devices_one_way_in_arabic():
    # round 46 (S6, nccl-tests#290 and verl#2802): the same GPUs were «الشرائح» in one item and «وحدات GPU» in the next
    from service.explain.compose import explain_offline
    from service.i18n.arabic_devices import chips_as_gpus, gpu_only
    text = ("The single node run above will be using NVLink and NVLink SHARP to accelerate AllReduce and 476GB/s looks to be "
            "in the expected range for H100. NCCL uses NCCL_IB_HCA devices to select the HCAs for collective communication.")
    answer = explain_offline(text, "ar")["explanation"]
    assert "شرائح NVSwitch" in answer or "NVSwitch" not in answer  # other chips keep the generic word
    assert "الشرائح" not in answer.replace("الشرائح الفائقة", "").replace("بين الشرائح: بين", ""), answer
    # the forms: article dropped after a preposition, the dual in construct; another accelerator's passage is left alone
    assert chips_as_gpus("تحمل كل شريحة قطعة، وتنتهي الشرائح وللشرائح بين شريحتين") == \
        "تحمل كل وحدة GPU قطعة، وتنتهي وحدات GPU ولوحدات GPU بين وحدتي GPU"
    assert chips_as_gpus("لا تضم إلا وحدة GPU أو شريحة واحدة") == "لا تضم إلا وحدة GPU أو شريحة واحدة"  # pack 92, P31-ar
    assert not gpu_only("A TPU v5p pod has 8,960 chips; an H100 node has 8 GPUs.")
    assert not gpu_only("يعمل النموذج على 8 شرائح H100.")  # the passage's own word for them is followed instead


def test_network_latency_is_not_defined_by_a_users_wait():
    # round 46 (pack 90): network latency between racks was defined with "for a served model, how long a user waits"
    from tests.support.glossary_files import term_definition
    definition = term_definition("Network latency between the two racks adds 5 microseconds to every NCCL all-reduce message.",
                                 "latency")
    assert "user" not in definition and "bandwidth" in definition, definition


def test_a_functions_argument_in_brackets_is_no_aside_the_gist_drops():
    # round 49's review (SGLang#31877): "reports sum(bytes) / sum(active transfer time)" became "sum(bytes) / sum," in the
    # gist, the denominator cut as if it were an aside
    from service.explain.compose import explain_offline
    text = ("MoriKVSender times each chunk's actual RDMA transfer and reports sum(bytes) / sum(active transfer time), "
            "excluding inter-chunk idle time so it reflects true NIC throughput rather than end-to-end (which includes "
            "queueing/scheduling gaps).")
    gist = explain_offline(text, "en")["gist"]
    said = " ".join(g["text"] for g in gist)
    assert "sum(active transfer time)" in said and "queueing" not in said, said


def test_an_options_description_opening_on_its_verb_is_no_reason_in_the_gist():
    # round 49's review (SGLang's EAGLE parameters): "It adds that increases speculation range but risks rejection
    # cascades": an option's description, subjectless, restated as the author's reason
    from service.explain.compose import explain_offline
    text = ("To enable EAGLE speculative decoding the following parameters are relevant: speculative_num_steps: Depth of "
            "autoregressive drafting. Increases speculation range but risks rejection cascades. Default is 5.")
    said = " ".join(g["text"] for g in explain_offline(text, "en")["gist"])
    assert "that increases" not in said and "Increases speculation" not in said, said


def test_an_accelerator_is_never_defined_as_a_gpu_in_arabic():
    # round 50 (pack 92, P12-ar, AWS's checkpoint-storage post on "4,000 accelerators"): «المسرع: اسم عام لأي وحدة GPU
    # ... مثل GPU أو TPU» once «شريحة» became «وحدة GPU» everywhere in a passage that named GPUs and accelerators
    from service.explain.compose import explain_offline
    from service.i18n.arabic_devices import chips_as_gpus, gpu_only
    text = "Training across 4,000 accelerators on GPU clusters makes checkpoint storage a bottleneck for every job."
    assert not gpu_only(text)
    assert "وحدة GPU متخصصة" not in explain_offline(text, "ar")["explanation"]
    item = "- **المسرع**: اسم عام لأي شريحة متخصصة في حسابات الذكاء الاصطناعي مثل GPU أو TPU."
    assert chips_as_gpus(item) == item


def test_a_definitions_gpu_is_a_chip_where_the_passage_runs_on_no_gpus():
    # round 49's review (tt-metal#56901, a 32-chip Tenstorrent Blackhole galaxy): definitions spoke of GPUs the run never had
    from service.explain.passage_devices import chips_for_gpus
    text = "On a 32-chip Blackhole galaxy, FSDP8 was slower than plain data parallelism until the shards were tile-aligned."
    assert chips_for_gpus("Each GPU keeps one shard; 8 GPUs hold the model, as NVIDIA GPUs would.", text, "FSDP") == \
        "Each chip keeps one shard; 8 chips hold the model, as NVIDIA GPUs would."
    # a definition naming the kinds of chip keeps each; a passage on GPUs keeps its word
    kinds = "One physical processor package, for example one GPU or one TPU."
    assert chips_for_gpus(kinds, text, "chip") == kinds
    assert chips_for_gpus("Every GPU holds a shard.", "FSDP on 32 H100 GPUs.", "FSDP") == "Every GPU holds a shard."


def test_free_tier_gpu_instances_are_no_model_replicas_nor_layers():
    # round 49's review (Hugging Face's big-models page in Arabic): «مثيلات GPU من الطبقة المجانية» was defined as a model
    # replica and a network layer
    from service.explain.compose import explain_offline
    ids = {t["id"] for t in explain_offline("لا تعمل على مثيلات GPU من الطبقة المجانية", "ar")["terms"]}
    assert not {"replica", "layer"} & ids, ids
    assert "replica" in {t["id"] for t in explain_offline("نستخدم مثيلات متعددة من النموذج لخدمة الطلبات", "ar")["terms"]}


def test_a_named_clusters_size_in_thousands_is_no_parameter_count():
    # round 47 (pack 92, P09, an Arabic news piece on xAI's Colossus): «يتضاعف حجم “Colossus” إلى 200 ألف» was read as
    # 200,000 parameters; a model's size right after «حجمه» still is its parameters
    from service.explain.figures import read_figures
    cluster = read_figures("ومن المتوقع أن يتضاعف حجم “Colossus” إلى 200 ألف (50 ألف H200s) في غضون أشهر قليلة.")
    assert all(f.quantity != "params" for f in cluster), [(f.quote, f.quantity) for f in cluster]
    model = read_figures("نموذج يزيد حجمه عن 70 مليار")
    assert any(f.quantity == "params" and f.value == 7e10 for f in model), [(f.quote, f.quantity) for f in model]


def test_continued_pretraining_tokens_are_no_chinchilla_ratio():
    # round 47 (pack 92, P28, arXiv 2411.08719): "continued pre-training of Llama-3-70B on ... approximately 100 billion
    # tokens" got "this model saw far less data than a compute-optimal run would give it"
    from service.explain.compose import explain_offline
    text = ("We used Megatron-LM to conduct continued pre-training of Llama-3-70B on multilingual and code corpus of "
            "approximately 100 billion tokens.")
    assert "compute-optimal" not in explain_offline(text, "en")["explanation"]
    fresh = "We trained a 4.9 billion parameter model on ~22 billion tokens from scratch, fewer than Chinchilla suggests."
    assert "compute-optimal" in explain_offline(fresh, "en")["explanation"]


def test_an_expert_parallel_degree_is_never_divided_into_another_models_experts():
    # round 47 (pack 92, P13, vLLM#43375): EP8 on Qwen3-235B-A22B was checked as Kimi K2's 384 experts / 8 = 48 per GPU
    from service.explain.compose import explain_offline
    text = ("Measured on Qwen3-235B-A22B, 8 trainer GPUs → 8 inference GPUs (H100): the full 472 GB moves in a 3.3 s warm sync "
            "under DP8+EP8 at 43 GiB/s. Kimi K2 (1T, FP8) is validated from a raw sharded checkpoint.")
    answer = explain_offline(text, "en")["explanation"]
    assert "384" not in answer and "48 experts" not in answer, answer
    import json
    from pathlib import Path
    corpus = json.loads((Path(__file__).resolve().parents[2] / "bench" / "corpus" / "passages.json").read_text(encoding="utf-8"))
    whole = next(p["text"] for p in corpus["passages"] if p["id"] == "vllm-43375-sharded-rdt-weight-sync")
    for lang in ("en", "ar"):
        assert "384" not in explain_offline(whole, lang)["explanation"], lang


def test_a_chip_heading_a_construct_keeps_the_construct_whole():
    # «كل شريحة من شرائح توازي البيانات» became «وحدات GPU توازي البيانات», two constructs run together
    from service.i18n.arabic_devices import chips_as_gpus
    assert chips_as_gpus("تحتفظ كل شريحة من شرائح توازي البيانات بجزء") == "تحتفظ كل وحدة GPU من وحدات GPU في توازي البيانات بجزء"
    assert chips_as_gpus("على 8 شرائح مختلفة") == "على 8 وحدات GPU مختلفة"


def test_other_chips_keep_the_generic_word_in_a_gpu_passage():
    # round 48 (pack 93): NVSwitch's «شريحة التبديل» became «وحدة GPU في التبديل» (P04-ar), GB200's NVLink-C2C link «بين
    # الشرائح» became a link «بين وحدات GPU» (P05-ar), AMD «شركة الشرائح» a GPU company
    from service.i18n.arabic_devices import chips_as_gpus
    for line in ("- **مبدل NVSwitch**: شريحة التبديل من NVIDIA الخاصة بـNVLink.",
                 "- **GB200**: تربط شريحة Grace بوحدتي B200 عبر وصلة سريعة بين الشرائح (NVLink-C2C).",
                 "- **AMD**: شركة الشرائح الأمريكية التي تنافس NVIDIA."):
        assert chips_as_gpus(line) == line, chips_as_gpus(line)
