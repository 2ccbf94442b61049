"""Stop 63's rules, each on sentences written for the test in the shape of the passage that showed the fault."""

import pytest

from service.explain import gist_side, person, question_target
from service.explain.compose import explain_offline


def gist_text(text: str, lang: str = "en") -> str:
    return " ".join(item["text"] for item in explain_offline(text, lang)["gist"])


def test_what_the_next_post_covers_is_a_pointer_not_the_point():
    # round 76's checkpointing post ended "The next post moves to ZeRO, where ..." and the gist said only that
    assert gist_side.pointer("The next post moves to ZeRO, where memory is saved by sharding optimizer state instead.")
    assert gist_side.pointer("In the next part we cover pipeline schedules.")
    assert not gist_side.pointer("The next step all-gathers the weights of the following layer.")
    text = ("Offloading moves optimizer state to host memory. If PCIe bandwidth is the scarce resource, offloading will "
            "slow every step, so it is the wrong trade-off there. Use it only when GPU memory is the hard limit. The next "
            "post moves to ZeRO, where the optimizer state is sharded across data-parallel ranks instead of offloaded.")
    assert "next post" not in gist_text(text)


def test_a_question_put_to_a_named_participant_is_not_put_to_the_reader():
    # round 76's Megatron thread: "@deepakn94 Do you remember why interleaved has the * 2?" was said as "The authors ask
    # whether you remember why ...", a question to the reader
    text = ("why is the warmup count different here?\n@alice-dev Do you remember why the interleaved schedule multiplies "
            "the warmup by 2?\nThe warmup microbatches fill the pipeline so that every stage is busy in the steady state.")
    said = gist_text(text)
    assert "whether you remember" not in said
    assert question_target.addressee("Do you remember why the interleaved schedule multiplies the warmup by 2?", text) == "@alice-dev"


def test_a_question_to_a_named_participant_names_them():
    assert question_target.addressee("Hi @bob , can you share more details about your cluster?", "") == "@bob"
    assert question_target.addressee("@bob what is the purpose of this diff?", "") is None  # no "you": whoever answers
    assert question_target.addressee("Can you share your launch script?", "Can you share your launch script?") is None
    said = gist_text("@carol Could you explain why your run keeps the pipeline degree at 8 on 512 GPUs?")
    assert said.startswith("One participant asks @carol: Could you explain why your run keeps"), said


def test_a_maintainers_question_is_not_the_reporters():
    # round 76's InternLM thread: the reporter's "only got 90+ tflops" was joined to the maintainer's "Hi @x, can you
    # provide more details about your platform?" as one author's words
    text = ("I run the training script, but only get 95 TFLOPS per GPU.\nHi @dave-k , can you provide more details about "
            "your platform? On our cluster each node has 8 GPUs on NVLink. The main bottleneck is intra-node traffic over PCIe.")
    said = gist_text(text)
    assert "95 TFLOPS" in said and "asks for more details" not in said and "Can you provide" not in said, said


def _term(text: str, term: str, lang: str = "en") -> dict:
    return next(t for t in explain_offline(text, lang)["terms"] if t["term"] == term)


def test_a_rank_beside_rails_and_leaf_switches_is_a_gpus_number_in_its_server():
    # round 76's rail-optimised pages: "the GPU with the same rank in every server" was glossed as a process's index
    # across the whole job
    railed = ("Each server has eight NICs. The GPU with the same rank in every server connects to the same leaf switch, "
              "so traffic within one rail crosses a single hop.")
    assert "within its own server" in _term(railed, "rank")["definition"]
    job = "Only rank 0 writes the checkpoint; every other process waits at the barrier until the world size is reached."
    assert "among all processes of the job" in _term(job, "rank")["definition"]


def test_a_rate_written_in_bits_is_said_in_bits_not_as_a_memory_bandwidth():
    # round 76's HBM4 news: "11.7 جيجا بت في الثانية" (a pin's rate) was said as "a bandwidth of 1.462 GB/s"
    text = "تبلغ سرعة شرائح الذاكرة الجديدة 11.7 جيجا بت في الثانية، بزيادة 22% عن الجيل السابق."
    said = explain_offline(text, "en")["explanation"].split("\n\n")[1]  # the opening under "## In short"
    assert "11.7 Gb/s" in said and "GB/s" not in said, said


def test_the_gpus_transformer_engine_is_hardware_and_the_librarys_is_software():
    # round 77's Arabic Blackwell FP4 post: «محرك المحولات من الجيل الثاني» was defined as NVIDIA's software library
    hardware = _term("The Blackwell GPU has a second-generation Transformer Engine that accelerates FP4 in hardware.", "Transformer Engine")
    assert "not the software library" in hardware["definition"]
    arabic = "تتميز وحدة معالجة الرسوميات Blackwell بمحرك المحولات من الجيل الثاني الذي يسرع أنواع بيانات FP4 بالأجهزة."
    assert "لا على المكتبة البرمجية" in _term(arabic, "Transformer Engine", "ar")["definition"]
    library = _term("We enabled FP8 through the Transformer Engine library's fp8_autocast in Megatron.", "Transformer Engine")
    assert "library" in library["definition"] and "not the software library" not in library["definition"]


def test_an_arabic_relative_clause_is_cut_to_its_comma_and_the_main_clause_stays():
    from service.explain import synthesis
    # round 77's Huawei news: «في إعلان ...، والذي قد يزيد ...، كشفت شركة هواوي ...» was cut to its opening phrase
    clause = "في إعلان مفاجئ عن خططها، والذي قد يزيد المنافسة بين الشركات، كشفت الشركة عن الجدول الزمني لرقائقها الجديدة"
    kept = synthesis.compressed(clause, "ar")
    assert "كشفت الشركة عن الجدول الزمني" in kept and "والذي" not in kept, kept


def test_a_day_after_the_subject_is_when_not_who():
    from service.explain import arabic_clause
    words = "شركة هواوي يوم الخميس 18 سبتمبر عن خططها".split()
    assert arabic_clause.subject_after(words, "أعلنت") in (0, 2)  # never "شركة هواوي يوم الخميس" as the subject


def test_why_the_author_wonders_is_no_reason_for_the_problem():
    # round 77's LLaMA-Factory thread (Arabic answer): "This is interesting because I use 8 V100 ... but encounter CUDA
    # out of memory" was said as «ويذكر سببًا يخص نفاد الذاكرة»
    text = ("تدريب نموذج 7B يتطلب 240 جيجابايت. هذا مثير للاهتمام لأنني أستخدم 8 وحدات V100 بسعة 32 جيجابايت ومع ذلك "
            "تنفد الذاكرة.")
    english = ("Full tuning of a 7B model needs 240GB of GPU memory. This is interesting because I use 8 V100 32G, which "
               "is also 240G, but encounter CUDA out of memory.")
    assert "سببًا" not in gist_text(english, "ar") and "سببًا" not in gist_text(text, "ar")


def test_a_bare_bound_of_a_from_to_pair_takes_its_partners_unit_in_the_working():
    from service.explain import working_quotes
    run = {"inputs": {"before": 0.875, "after": 0.715}, "working": [{"key": "ratio.change", "values": {"before": [0.875, ""], "after": [0.715, ""]}}],
           "input_sources": {"before": {"source": "text", "quote": "875"}, "after": {"source": "text", "quote": "715 ms/step"}}}
    shown = working_quotes.with_quotes(run, "ar")[0]["values"]
    assert shown == {"before": "875 ms/step", "after": "715 ms/step"}  # never 0.715 set against 875 (round 77 P17-ar)
    run["input_sources"]["before"]["quote"] = "900"  # a bare number the partner's scale does not give: no unit added
    assert working_quotes.with_quotes(run, "en")[0]["values"]["before"] == "900"


def test_an_axis_the_text_scales_is_not_read_as_one_size():
    # round 77's weak-scaling tutorial: "as we scale TP" from R1 to R4, and "TP=8 (R4)"; the term said "across 8 GPUs"
    text = ("Step time increases as we scale TP and model size, from 209 ms (R1) to 329 ms (R4). The scaling efficiency "
            "drops to 64% at TP=8 (R4), lower than the paper's 77%.")
    assert "8 GPUs" not in _term(text, "TP")["expansion"]


def test_a_cpu_kernel_and_cpu_contention_keep_their_cpu_sense():
    text = "The CPU kernel runs AdamW over the offloaded weights while the GPU computes the next layer."
    assert "runs on the CPU" in _term(text, "kernel")["definition"]
    slow = ("Compute slowdowns (CPU contention, GPU throttling) are rare; communication slowdowns from network congestion "
            "are common and last longer.")
    assert not any(t["id"] == "network-contention" for t in explain_offline(slow, "en")["terms"])


def test_an_oom_in_a_text_about_offloading_is_the_gpus():
    # round 77's NeMo RL thread: "without optimizer offloading it will go OOM" was glossed as the host's RAM running out
    text = ("A simple CPU optimizer is in this PR: it puts the optimizer fully on CPU. With it I trained a 32B model on one "
            "H100 node (without optimizer offloading it will go OOM).")
    assert "accelerator memory" in _term(text, "OOM")["definition"]


def test_a_noun_after_a_preposition_is_no_verb_of_what_was_seen():
    from service.explain import person
    assert not person.clause_follows("suboptimal performance in terms of throughput when using zero3 offload")
    assert person.clause_follows("the all-reduce dominates the step")


def test_the_next_question_is_asks_the_question():
    from service.explain import gist_lift
    assert gist_lift.topic_label("The next question is: can virtual pipelines help here?") == "can virtual pipelines help here?"


def _working(text: str) -> list[str]:
    out = explain_offline(text, "en")["explanation"]
    return [line.strip()[2:] for line in out.splitlines() if line.strip().startswith("- ") and "=" in line]


def test_a_sum_of_named_times_is_checked_and_its_result_written_as_a_time():
    # round 77's TRL issue: "selective_log_softmax 3.50 ms + entropy_from_logits 9.33 ms = 12.8 ms" was not checked,
    # and a bare "3.50 ms + 9.33 ms = 12.8 ms" was worked as "= 0.01283"
    assert "3.50 ms + 9.33 ms = 12.83 ms" in _working("The path costs sls_kernel 3.50 ms + entropy_kernel 9.33 ms = 12.8 ms per pass.")
    assert "3.50 ms + 9.33 ms = 12.83 ms" in _working("The path costs 3.50 ms + 9.33 ms = 12.8 ms per pass.")


def test_two_percentages_against_one_named_row_are_each_checked_on_the_column_they_name():
    # round 77's SGLang issue: "MXFP8 is ~27.6% slower in latency and ~22.3% lower in output throughput than BF16" under
    # the two rows was not checked; readers asked for 16.099 / 12.616 and 10530.614 against 13554.221
    text = ("Config | Accuracy | Latency (s) | Output throughput (token/s)\nFP8X | 0.967 | 20.0 | 8000.0\nBF16 | 0.966 | 16.0 | "
            "10000.0\nFP8X is ~25% slower in latency and ~20% lower in output throughput than BF16.")
    out = explain_offline(text, "en")
    claim = next(c for c in out["claims"] if "slower in latency" in c["quote"])
    assert claim["verdict"] == "consistent", claim
    assert "20.0 is 25.0% more than" in claim["why"], claim["why"]
    wrong = text.replace("~25% slower", "~40% slower")
    claim = next(c for c in explain_offline(wrong, "en")["claims"] if "slower in latency" in c["quote"])
    assert claim["verdict"] == "inconsistent", claim


def test_a_summary_tag_with_is_opens_no_clause():
    # round 77's torchao PR: "TL;DR is the transfer of the fp8 data is ~1.72x faster ..." was said as "The text reports
    # that is the transfer ..."
    said = gist_text("TL;DR is the transfer of the fp8 data is ~1.72x faster than bf16, but the scale and quantization "
                     "overheads add up to make the all-to-all flat or slower.")
    assert "that is the transfer" not in said and "the transfer of the fp8 data is" in said, said


def test_an_acronym_used_as_a_multiplier_gets_no_gloss_inside_the_phrase():
    # round 77's Megatron context-parallel docs: "CP (long sequences split across the chips) times smaller"
    said = gist_text("With context parallelism the activation memory per GPU is CP times smaller, so long-context runs no "
                     "longer run out of memory.")
    assert "CP times smaller" in said, said


def test_a_sized_model_name_joined_to_an_arabic_and_is_one_model():
    # round 77's Arabic Blackwell post: «وLlama 3.1 405B» was defined as Meta's whole family
    answer = explain_offline("تظهر Blackwell إنتاجية أعلى على نماذج Llama 3.1 70B وLlama 3.1 405B.", "ar")["explanation"]
    line = next(line for line in answer.splitlines() if "405B" in line and line.startswith("- **"))
    assert "عدد معاملاته" in line and "عائلة نماذج Meta الكثيفة" not in line, line


def test_each_versus_pair_is_checked_against_its_own_bracketed_factor():
    # round 77's SpecForge PR: "11.17 ms eager versus 1.82 ms fused at 2048 rows (6.1x), and 21.91 ms versus 3.27 ms at
    # 4096 rows (6.7x)" went unchecked; readers worked 11.17 / 1.82 = 6.14 and 21.91 / 3.27 = 6.70
    text = ("The benchmark measured 10.50 ms eager versus 2.10 ms fused at 2048 rows (5x), and 20.00 ms versus 2.50 ms at "
            "4096 rows (8x).")
    claim = explain_offline(text, "en")["claims"][0]
    assert claim["verdict"] == "consistent" and "10.50 / 2.10 = 5" in claim["why"] and "20.00 / 2.50 = 8" in claim["why"], claim
    off = explain_offline(text.replace("(8x)", "(3x)"), "en")["claims"][0]
    assert off["verdict"] != "consistent", off


def test_a_rows_ratio_is_not_said_again_beside_the_sentence_that_judges_the_same_pair():
    # round 77's SGLang issue: "13554.221 is 128.7% of 10530.614" beside the judged "22.3% lower than BF16" (noise)
    text = ("Config | Accuracy | Latency (s) | Output throughput (token/s)\nFP8X | 0.967 | 20.0 | 8000.0\nBF16 | 0.966 | 16.0 | "
            "10000.0\nFP8X is ~25% slower in latency and ~20% lower in output throughput than BF16.")
    claims = explain_offline(text, "en")["claims"]
    assert [c["verdict"] for c in claims if c.get("calculations")] == ["consistent"], claims


# ---------------------------------------------------------------------------------------------------------- round 78


def test_microseconds_after_a_number_are_no_pronoun():
    # round 78's NCCL PR: "from ~29.4 us ... to 13.59 us" was reported as "29.4 them ... 13.59 them"
    assert person.third_person("the 4 MiB case improved from 29.4 us to 13.59 us for us", "en") == \
        "the 4 MiB case improved from 29.4 us to 13.59 us for them"


@pytest.mark.parametrize("text, term, meant", [
    # round 78: "What it underestimates is the allreduce latency" glossed as a step's duration
    ("With TP=2 every decode step waits on the allreduce latency across both nodes, 28 round-trips per token.", "latency",
     "message or a transfer"),
    # round 78: "the four-island, 16-GPU RTX PRO 6000 topology" glossed as the parallel layout
    ("Qualified for TP16 all-reduce on the four-island, 16-GPU topology; other world sizes and topologies are unsupported. "
     "Each rank pulls from three peers in its island.", "topology", "who is wired to whom"),
    # round 78: "DeepSeek is 671B" glossed as the lab
    ("Can DeepSeek fit into a single node of 8 H200s? DeepSeek is 671B, so the weights take 100GB per GPU.", "DeepSeek",
     "not the lab"),
    # round 78: Google's Gemini in an Arabic news item glossed as a checkpointing system
    ("وتعتمد النماذج المتقدمة مثل GPT و Gemini اعتمادًا كبيرًا على الذاكرة ذات النطاق الترددي العالي.", "Gemini", "Google"),
    # round 78: "falls back to the existing model otherwise" glossed as a fused kernel's reference implementation only
    ("The Blackwell tuning prefers CTA counts that divide the chunks of the NCCL kernel, then falls back to the existing model "
     "otherwise.", "fallback", "preferred path"),
    # round 78: "an all-reduce is a barrier" against "a collective that carries no data"
    ("Every all-reduce is a barrier: the whole step waits for the slowest rank of the process group.", "barrier",
     "an all-reduce too"),
])
def test_round_78_senses(text, term, meant):
    lang = "ar" if any("\u0600" <= c <= "\u06ff" for c in text) else "en"
    item = next(t for t in explain_offline(text, lang)["terms"] if t["term"].lower().split(" (")[0] == term.lower())
    assert meant in item["definition"] + item.get("expansion", ""), item


def test_cache_locality_beside_replicas_and_routing_is_no_memory_hierarchy():
    text = ("Round-robin load balancers break cache locality in multi-replica deployments, limiting the benefits of prefix "
            "caching unless routing is made cache-aware.")
    assert not any(t["id"] == "data-locality" for t in explain_offline(text, "en")["terms"])


def test_no_reason_states_a_magnitude_the_passage_never_gives():
    # round 78's FSDP2 PR (Arabic answer): «نحو مرة ونصف مقدار اتصال توازي البيانات العادي», a factor from the ZeRO paper
    text = ("FSDP2 shards the weights across the data-parallel ranks, so each layer all-gathers them again in the forward "
            "and backward passes, which costs more communication than plain data parallelism but saves memory.")
    for lang in ("en", "ar"):
        said = explain_offline(text, lang)["explanation"]
        assert "one and a half" not in said and "مرة ونصف" not in said and "1.5" not in said


def test_a_yes_no_question_typed_with_a_full_stop_is_still_a_question():
    from service.explain import reported
    assert reported.role("Is communication between GCDs in one package faster than between GCDs on different nodes.", "en") == "question"
    assert reported.role("Does FSDP shard the optimizer state too.", "en") == "question"
    assert reported.role("This is slower than expected.", "en") != "question"


def test_a_list_items_label_is_what_it_names_never_a_speaker():
    # the corpus's ColossalAI page: "Hybrid Pararllel Plugin: It is suitable for ..." was said as "Hybrid Pararllel Plugin
    # says It is suitable ..."
    said = gist_text("Each plugin suits a size of model.\n- Gemini Plugin: It is suitable for models with more than 10 billion "
                     "parameters and high cross-node bandwidth.\n- Hybrid Parallel Plugin: It is suitable for models with more "
                     "than 60 billion parameters and low cross-node bandwidth.")
    assert " says " not in said and "Plugin is suitable for models" in said, said
    assert gist_text("Horace He: you only need PP when you're DP-comms bound.").startswith("Horace He says")
    assert " says " not in gist_text("Protocol Testnet: Provides the infrastructure and incentives to coordinate global "
                                     "compute for decentralized RL training.")


def test_a_leading_that_reads_this():
    said = gist_text("The weights take 56GB out of 80GB. That leaves 24GB for activations, the values kept for the backward pass.")
    assert "that that" not in said, said


def test_advice_opening_on_a_verb_before_an_acronym_is_lower_case():
    said = gist_text("Tensor parallelism adds two all-reduces per layer, so it is bound to one NVLink island.\nUse TP when a single "
                     "layer's weights don't fit on one GPU, not to scale past one node.")
    assert "advice is to Use" not in said, said


# ---------------------------------------------------------------------------------------------------------- round 79


def test_another_partys_conclusion_is_cited_not_said_as_the_authors():
    # round 79's SGLang-Omni PR: "The PR concludes that PD's median TPOT is worse by 74-196%" was the gist, said as
    # "The author concludes that ...", the verdict the author argues against (`wrong` gist)
    text = ("I think our verdict on disaggregation in this PR is wrong, and the cause is a setting rather than the design. "
            "The PR concludes that PD's median TPOT is worse by 74-196%. Turning CUDA graphs on for PD, TPOT falls about 30x.")
    said = gist_text(text)
    assert "author concludes that PD" not in said and "concludes that PD" not in said.replace("cite the PR", ""), said


def test_an_acronym_the_text_spells_as_another_thing_is_never_expanded_as_the_glossarys():
    # round 79's SGLang guide: "Data Parallelism Attention (DPA)" expanded as Transformer Engine's "DotProductAttention"
    text = ("Data Parallelism Attention (DPA), also known as DP Attention, is a parallelism strategy for serving. While DPA "
            "helps MLA models most, it also supports standard attention models.")
    out = explain_offline(text, "en")
    assert "DotProductAttention" not in out["explanation"], out["explanation"]


@pytest.mark.parametrize("text, term", [
    ("Attention DP shards Q and O projection weights across TP * attention_dp devices instead of just TP.", "DP shards"),
    ("The worker now receives 2D per-token logps instead of 3D logits from the model.", "2D"),
    ("Both schedules allocate their P2P buffers with that width, including physical-rank wraparound between virtual chunks.", "wraparound"),
    ("We provide an end-to-end example of pretraining with NVFP4 in MaxText.", "end-to-end"),
])
def test_round_79_words_in_another_sense_are_not_glossed(text, term):
    assert not any(t.get("found_as", "").lower() == term.lower() for t in explain_offline(text, "en")["terms"])


def test_a_decode_dcp_and_a_logged_metric_keep_their_senses():
    text = ("Attention DP shards the KV cache by batch. The NKI attention API calls this batch partition KVDP. DCP instead shards "
            "sequence positions within a batch during decode.")
    item = next(t for t in explain_offline(text, "en")["terms"] if t["term"] == "DCP")
    assert "decode" in item["expansion"], item
    metric = ("timing_s/update_actor wraps the actor-side PPO mini-batch path, so it is plausible for update_actor to dominate "
              "the step time.")
    item = next(t for t in explain_offline(metric, "en")["terms"] if t["term"] == "update_actor")
    assert "formula" not in item["definition"], item


def test_a_pull_requests_title_is_its_change_not_advice():
    text = ("Enable mHC with pipeline parallelism and interleaved virtual pipelines on main. Related to #2919. This ports the "
            "pipeline capability from #2943 onto main's interfaces.")
    said = gist_text(text)
    assert "advice" not in said and said.startswith("The change enables mHC"), said


def test_neuron_devices_are_chips_not_gpus():
    text = "The NKI attention kernel runs on 64 devices with TP=8 and DP=8."  # round 79: Neuron docs named no chip but NKI
    item = next(t for t in explain_offline(text, "en")["terms"] if t["term"] == "TP")
    assert "GPUs" not in item["expansion"], item


# ---------------------------------------------------------------------------------------------------------- round 80


def test_a_share_stated_as_a_bound_of_another_whole_is_not_checked_against_two_times():
    # round 80's ZenFlow post: "the CPU path can take longer than 4s while the backward pass takes approximately 2s, so
    # over 60% of each iteration is pure GPU wait time" was "Consistent: 60% x 4s = 2.4 s, the 2s the text gives"
    text = ("The CPU path can take longer than 4s while the backward pass takes approximately 2s, so over 60% of each "
            "iteration is pure GPU wait time.")
    assert "2.4 s" not in explain_offline(text, "en")["explanation"]


def test_an_unnamed_low_result_is_no_arabic_problem_frame():
    # round 80's DeepSpeed issue (Arabic answer): «يذكر الكاتب مشكلة: النتيجة منخفضة» for "the overall communication
    # efficiency will be very low"
    text = ("When I train with 3 nodes instead of 2, the overall communication efficiency will be very low. Even, the "
            "training speed of three nodes is slower than that of two nodes.")
    assert "النتيجة منخفضة" not in explain_offline(text, "ar")["explanation"]


@pytest.mark.parametrize("text, term, meant", [
    ("The curves use DeepSeek's own H800 production profile of 73.7k input tokens per second per node.", "DeepSeek", "lab"),
    ("Llama-2-13B pushes about 40 GB per iteration over PCIe, adding more than 1s of transfer latency each step.", "latency",
     "message or a transfer"),
    ("Synchronous offloading frameworks such as ZeRO-Offload keep the GPU idle while the CPU runs the optimizer step.",
     "ZeRO-Offload", "waiting for the CPU"),
])
def test_round_80_senses(text, term, meant):
    item = next(t for t in explain_offline(text, "en")["terms"] if t["term"] == term)
    assert meant in item["definition"] + item.get("expansion", ""), item


def test_a_part_of_a_systems_hyphenated_name_is_no_use_of_the_word():
    text = "Ulysses-Offload builds upon the DeepSpeed Ulysses approach and trains 8B models on 2 million tokens with 4 GPUs."
    assert not any(t["id"] == "offloading" for t in explain_offline(text, "en")["terms"])


# ---------------------------------------------------------------------------------------------------------- round 81


@pytest.mark.parametrize("text, lang, term", [
    # vLLM's speculative decoding: the small speculative model and its "MQA (Multi-Query Attention) Scorer"
    ("The SSM proposes k draft tokens and the target model scores them; vLLM uses Batch Expansion and the MQA "
     "(Multi-Query Attention) Scorer to verify proposals.", "en", "state-space-model"),
    ("The SSM proposes k draft tokens and the target model scores them; vLLM uses Batch Expansion and the MQA "
     "(Multi-Query Attention) Scorer to verify proposals.", "en", "multi-query-attention"),
    ("FP8 does not move the clock on this model: 158 TFLOP/s in BF16 and in FP8.", "en", "clock-rate"),
    ("يقوم QLoRA بتكميم الأوزان إلى دقة 4-بت، مما يقلل الذاكرة اللازمة لضبط نموذج LoRA.", "ar", "fp4"),
])
def test_round_81_words_in_another_sense_are_not_glossed(text, lang, term):
    assert term not in {t["id"] for t in explain_offline(text, lang)["terms"]}


def test_a_spelled_out_name_never_takes_the_abbreviations_other_reading():
    # round 81's verl issue: "context parallel shall also be considered" was glossed as a checkpoint ("sometimes
    # abbreviated CP"), the text being about saving checkpoints
    text = ("Checkpoint saving peaks CPU memory. Context parallel shall also be considered: only cp rank 0 needs to save "
            "the checkpoint, and the others skip the save.")
    terms = explain_offline(text, "en")["terms"]
    assert not any(t["term"].lower() == "context parallel" and "saved copy" in t["definition"] for t in terms), terms


def test_gguf_is_a_file_format_and_a_variant_named_model_is_one_model():
    text = "Model | Params | KV cache\nCommand-R GGUF Q4_K_M | 35B | 2560 MiB\nThe KV cache quantization halves it again."
    item = next(t for t in explain_offline(text, "en")["terms"] if t["term"] == "GGUF")
    assert "single-file model format" in item["definition"], item
    item = next(t for t in explain_offline("Phi-3 Mini supports a long context window on Jetson devices.", "en")["terms"]
                if t.get("found_as") == "Phi-3 Mini" or t["term"] in ("Phi-3 Mini", "Microsoft Phi"))
    assert item["definition"].startswith("One model of") and "parameter count" not in item["definition"], item


def test_ulysses_splits_the_head_axis_and_is_load_balanced_across_ranks():
    text = ("Ulysses wraps the model's own attention kernel with all-to-all on the head dim; it is inherently load-balanced "
            "and has the cheapest communication, but is capped by the KV-head count.")
    terms = {t["term"]: t for t in explain_offline(text, "en")["terms"]}
    balanced = next(t for name, t in terms.items() if name.startswith("load"))
    assert "axis" in terms["head dimension"]["definition"] and "expert" not in balanced["definition"].lower()
    sized = explain_offline("FlashAttention supports a head dimension of 128 or 256 on H100.", "en")["terms"]
    assert "length of the query" in next(t for t in sized if t["term"] == "head dimension")["definition"]


# ---------------------------------------------------------------------------------------------------------- round 82


def test_a_verbless_rhetorical_question_is_not_asked():
    # round 82's speculative-decoding post: "But the actual computation? Maybe 0.1ms worth of FLOPs." was said as "They
    # ask whether the actual computation."
    said = gist_text("A 7B model in float16 is about 14GB. On an A100 with 2TB/s, loading those weights takes about 7ms. But "
                     "the actual computation? Maybe 0.1ms worth of FLOPs. We spend 98% of our time waiting for memory.")
    assert "whether the actual computation" not in said, said


@pytest.mark.parametrize("text, entry", [
    ("Run labels: baseline (R0), ZeRO-2 (R1), CP=2 (R3) and CP=4 (R4). " + "The step time falls with CP. " * 20 + "R1 runs out of memory at 32K.",
     "deepseek-r1"),
    ("VLLMGeneration accumulates params into 256 MB buckets before pushing them to vLLM, so peak memory stays bounded; "
     "the NCCL broadcast sends one bucket at a time.", "gradient-bucketing"),
])
def test_round_82_words_in_another_sense_are_not_glossed(text, entry):
    assert entry not in {t["id"] for t in explain_offline(text, "en")["terms"]}


def test_a_latency_per_layer_is_no_requests_wait():
    text = "The Triton MoE backend at context phase has higher latency (3.4ms per layer) than TP (3.1 ms per layer) on 8 H200s."
    item = next((t for t in explain_offline(text, "en")["terms"] if t["term"] == "latency"), None)
    assert item is None or item["definition"].startswith("How long something takes"), item  # not "a request's wait"


def test_two_plurals_joined_by_a_slash_are_alternatives_not_a_rate():
    # round 82's EAGLE issue: "candidate tokens/sequences" was glossed as "a rate that reads tokens per sequence"
    text = "After Eagle generates candidate tokens/sequences, the verification phase still calls the original model."
    assert not any(t["term"] == "tokens/sequences" for t in explain_offline(text, "en")["terms"])


# ---------------------------------------------------------------------------------------------------------- round 83


@pytest.mark.parametrize("text, entry", [
    ("DeepEP kernels are used in production at Perplexity for large MoE models.", "perplexity"),
    ("Should I take more modules warpped with fully_shard to reduce the memory of FSDP2 on the 10B model?", "cuda-warp"),
])
def test_round_83_words_in_another_sense_are_not_glossed(text, entry):
    assert entry not in {t["id"] for t in explain_offline(text, "en")["terms"]}
    # the metric and the threads keep their own sense
    assert "perplexity" in {t["id"] for t in explain_offline("Validation perplexity drops as the model trains.", "en")["terms"]}


def test_a_peak_performance_in_bandwidth_is_no_peak_flops():
    # round 83's nccl-tests issue: "peak performance 96 GB/s" glossed as a chip's peak arithmetic rate
    text = "The all-reduce test shows a peak performance of 96 GB/s, against the 100 GB/s theoretical bandwidth."
    assert "peak-flops" not in {t["id"] for t in explain_offline(text, "en")["terms"]}


def test_a_dropped_aside_leaves_no_space_before_a_comma():
    said = gist_text("By batching inputs, we can increase the operations done per parameter loaded (the arithmetic intensity), "
                     "in principle up to compute-boundedness, without any additional latency.")
    assert " ," not in said, said


# ---------------------------------------------------------------------------------------------------------- round 84


@pytest.mark.parametrize("text, entry", [
    ("LoRA runs faster since it needs no dequantization before the base layer+LoRA matmuls.", "sinkhorn-routing"),
    ("Evicted KV blocks stay in host memory and are loaded back on demand when a request resumes decoding.", "on-demand-instance"),
])
def test_round_84_words_in_another_sense_are_not_glossed(text, entry):
    assert entry not in {t["id"] for t in explain_offline(text, "en")["terms"]}
