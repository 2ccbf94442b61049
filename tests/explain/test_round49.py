"""Round 49: what round 45's readers and this stop's own reading found (issue 18)."""

import re

from service.explain.compose import explain_offline
from service.explain.pipeline import analyse


def _verdict(text: str, quoted: str) -> str:
    """The verdict of the claim whose quote holds `quoted`."""
    return next(c.verdict for c in analyse(text, "en").claims if quoted in c.quote)


def test_chip_hours_over_servers_times_their_chips_is_the_runs_duration():
    # round 45 (P22, AWS's HyperPod page): "6.5 million H100 GPU hours ... On 256 Amazon EC2 P5 instances (p5.48xlarge, each
    # with 8 NVIDIA H100 GPUs), this would take approximately 132 days": 6.5e6 / 2,048 / 24 = 132.2 days; no check ran
    stated = ("Pre-training the Llama 3 70B model with 15 trillion training tokens took 6.5 million H100 GPU hours. On 256 Amazon "
              "EC2 P5 instances (p5.48xlarge, each with 8 NVIDIA H100 GPUs), this would take approximately {} days.")
    assert _verdict(stated.format(132), "this would take") == "consistent"
    assert _verdict(stated.format(40), "this would take") == "inconsistent"
    answer = explain_offline(stated.format(132), "en")["explanation"]
    assert "132.2 days" in answer and re.search(r"6\.5e\+06 / \(256 \* 8\) / 24 = 132\.2", answer), answer


def test_a_central_bandwidth_term_keeps_what_it_is_in_its_shortest_form():
    # round 45 (P25, nccl-tests): "busbw (bus bandwidth): A figure reported by nccl-tests." said nothing of the term the
    # passage turns on; the shortest definition must still say what the figure is
    from service.explain.compose import FIT_DEFINITION_WORDS
    from service.explain.definitions import brief_definition
    from service.explain.glossary import lookup
    for name in ("busbw", "algbw"):
        first = lookup(name)["definition"].split(". ")[0] + "."
        brief = brief_definition(first, FIT_DEFINITION_WORDS)
        assert "nccl-tests" not in brief.split(":")[0] or len(brief.split()) > 8, brief
        assert re.search(r"divided by the time|rescaled", brief), brief


def test_the_authors_finding_outranks_an_aside_request():
    # round 45 (P20, Colossal-AI#124): the gist was "I strongly recommend you add Tflops ..." after "BTW:", where the
    # report's point is its first sentence
    text = ("I found the performance of MP provided is not good. I compared it with PatrickStar and DeepSpeed. Can you check it "
            "with me? BTW: I strongly recommend you add Tflops as an indicator of performance.")
    opening = explain_offline(text, "en")["explanation"].split("\n\n")[1]
    assert "is not good" in opening and "Tflops" not in opening, opening


def test_a_pipeline_degree_is_not_said_to_be_its_number_of_stages():
    # round 45 (P29, marin#7024): "PP8 (a pipeline of 8 stages)" beside "16 logical DualPipeV stages": a pipeline degree
    # counts the ranks a model is split over; a V-shaped or interleaved schedule runs more stages than that
    answer = explain_offline("We train with PP8 and DualPipeV, which gives 16 logical stages.", "en")["explanation"]
    assert "8-way pipeline parallelism" in answer and "pipeline of 8 stages" not in answer, answer
    # where the text itself says stages, its own word follows the reading
    assert "a pipeline of 8 stages" in explain_offline("We use PP 8 stages.", "en")["explanation"]


def _terms(text: str, lang: str = "en") -> dict:
    """Glossary id -> the terms item the offline answer lists."""
    return {t["id"]: t for t in explain_offline(text, lang)["terms"]}


def test_a_consequence_or_a_clause_of_what_a_product_does_is_no_definition():
    # round 46 (P16, a post on sharding Muon): "Standard DDP means each GPU holds ... 18GB of redundant memory" became
    # "Here, as the text defines it: each GPU holds a full copy of optimizer states—18GB of redun."; (P13, SemiAnalysis)
    # "H200, which narrows the gap ..." became H200's definition
    text = ("Standard DDP means each GPU holds a full copy of optimizer states—18GB of redundant memory across 8 GPUs. "
            "Of course, MI300X sells more against H200, which narrows the gap on memory bandwidth to the single digit range.")
    terms = _terms(text)
    assert not terms["distributed-data-parallel"].get("defined_in_text"), terms["distributed-data-parallel"]
    assert not terms["nvidia-h200"].get("defined_in_text"), terms["nvidia-h200"]
    answer = explain_offline(text, "en")["explanation"]
    assert "as the text defines it" not in answer and "redun." not in answer


def test_a_shape_a_code_model_and_a_neural_architecture_keep_their_senses():
    # round 46: "2D matrix structure" glossed as 2D parallelism (P16); DeepSeek Coder V2 as DeepSeek-V2 (P15);
    # "transformer-based neural network architectures" in a text on power swings as the electrical transformer (P03)
    assert "1d-2d-parallelism" not in _terms("Muon's Newton-Schulz iterations fail silently because the 2D matrix structure "
                                             "is broken by naive sharding of the optimizer states.")
    assert "deepseek-v2" not in _terms("يمكن تشغيل نموذج DeepSeek Coder V2 بأنواع تكميم مثل Q8_0 أو IQ2_XS على ذاكرة GPU.", "ar")
    power = ("AI training clusters exhibit large power swings. This is due to an interplay between transformer-based neural "
             "network architectures and compute hardware, which creates frequent spikes in power demand on the grid.")
    answer = explain_offline(power, "en")["explanation"]
    assert "electrical transformer" not in answer and "changes the voltage" not in answer, answer


def test_peak_performance_set_against_the_theoretical_is_no_spec_sheet_peak():
    # round 46 (P13): "still quite a bit under on peak performance versus theoretical" glossed as the spec-sheet peak
    text = "AMD showed a few different benchmarks; they are still quite a bit under on peak performance versus theoretical."
    assert "peak-flops" not in _terms(text)


def test_a_range_of_the_other_language_keeps_both_bounds_and_its_unit():
    # round 46 (P15-en): «كمية أصغر من 1 إلى 2 جيجابايت من إجمالي VRAM» was listed as "1; 2 GB"
    text = "يُنصح باختيار نوع تكميم حجمه أصغر من 1 إلى 2 جيجابايت من إجمالي VRAM لتسريع الاستدلال."
    opening = explain_offline(text, "en")["explanation"].split("\n\n")[1]
    assert "1 to 2 GB" in opening and "1; 2" not in opening, opening


def test_an_arabic_link_to_the_sentence_before_is_not_restated():
    # round 46 (P15-ar): «يذكر النص أنّ نتيجة لذلك، يجب على المستخدمين ...» kept the link to a sentence it did not show
    text = ("توفر أنواع التكميم عالية الجودة مثل Q8_0 أداءً فائقًا لكنها تتطلب موارد أكثر. نتيجة لذلك، يجب على المستخدمين "
            "موازنة حاجتهم للسرعة مقابل الجودة عند اختيار نوع التكميم.")
    assert "نتيجة لذلك" not in explain_offline(text, "ar")["explanation"].split("\n\n")[1]


def test_an_acronym_inside_an_arabic_noun_phrase_is_not_expanded_there():
    # round 46 (P06-ar, an Arabic news piece on xAI's Memphis cluster): «على نسيج RDMA واحد» became «على نسيج نقل
    # مباشر بين ذواكر الأجهزة (RDMA) واحد», the expansion pasted between a noun and its adjective
    text = "مع 100 ألف وحدة H100 مبردة بالسائل على نسيج RDMA واحد، فهي أقوى مجموعة تدريب ذكاء اصطناعي في العالم."
    assert "نسيج RDMA واحد" in explain_offline(text, "ar")["explanation"].split("\n\n")[1]


def test_an_announcer_before_a_colon_is_not_restated_as_a_phrase():
    # round 46 (P02-en, Jarvislabs): "Consider this: an NVIDIA H100 has 80GB" became "They add that for consider this, ..."
    text = ("Consider this: an NVIDIA H100 has 80GB of memory. A 70B parameter model in FP16 needs ~140GB just for weights "
            "that's nearly 2 H100s worth of memory, and we haven't even counted the KV cache.")
    opening = explain_offline(text, "en")["explanation"].split("\n\n")[1]
    assert "consider this" not in opening.lower(), opening
    # the Arabic answer names the checked claim by what its figures measure, not «الجملة عن FP16، H100s وKV»
    heads = re.findall(r"^- \*\*(.+?)\*\*", explain_offline(text, "ar")["explanation"], re.M)
    assert any("140 GB من الذاكرة" in h for h in heads), heads


def test_a_heading_bracket_that_only_names_the_maker_is_left_out():
    # round 46 (P01-ar, an Arabic news piece on Ironwood): "**PaLM** (PaLM من Google)" said nothing the definition does not
    answer = explain_offline("تحقق رقاقة Ironwood سرعة عالية في التدريب على نماذج اللغات الكبيرة مثل Gemini وPaLM.", "ar")
    assert "(PaLM من Google)" not in answer["explanation"]


def test_virtualization_layers_are_not_a_networks_layers():
    # round 46 (P19, an Arabic page on bare-metal GPU inference): «طبقات المحاكاة الافتراضية» got the neural-network layer
    text = "تعمل خوادم GPU المعدنية دون طبقات المحاكاة الافتراضية، فيحصل الاستدلال على كل أداء الشريحة."
    for lang in ("en", "ar"):
        assert "layer" not in _terms(text, lang)


def test_shares_of_one_whole_that_add_past_100_percent_are_flagged():
    # round 46 (P17, codingmall's Arabic page on DeepSeek Coder): «تتكون من رمز 87 ٪ ولغة طبيعية 137 ٪» (13% mistranslated)
    # was repeated as the text's finding; shares that make up the whole are said to add up
    over = "تتكون مجموعة بيانات التدريب من رمز 87 ٪ ولغة طبيعية 137 ٪ باللغتين الإنجليزية والصينية."
    assert [c.verdict for c in analyse(over, "ar").claims] == ["inconsistent"]
    assert "224%" in explain_offline(over, "en")["explanation"]
    assert _verdict("The training data consists of 87% code and 13% natural language.", "consists of") == "consistent"
    # a share that changes is no part of a whole, and a sum under 100% may leave parts unnamed: nothing is judged
    assert _verdict("The corpus consists of 50% more code and 30% less math than before.", "consists of") == "explained"
    assert _verdict("The mix consists of 60% web text and 20% code.", "consists of") == "explained"


def test_packing_sequences_and_mup_scaling_rules_keep_their_senses():
    # round 46: "bin packing" of sequences was defined as placing jobs on machines (P09, Graphcore's packing paper); «قوانين
    # التحجيم mu-P++» as loss falling as a power law (P08, ThakiCloud on ArchScale)
    packing = _terms("We treat packing sequences into fixed-length rows as a bin packing problem, which removes 50% padding.")
    assert "sequences" in packing["bin-packing"]["definition"], packing["bin-packing"]["definition"]
    assert "scaling-laws" not in _terms("وتتيح قوانين التحجيم mu-P++ خفض تكلفة ضبط المعاملات الفائقة بشكل كبير.", "ar")
    # on chips that are no GPUs, a degree is read across chips (a Tenstorrent Galaxy, round 49's review)
    text = "On a 32-chip Tenstorrent Blackhole Galaxy, TP4 x FSDP8 reaches 41% utilisation."
    assert "across 4 GPUs" not in explain_offline(text, "en")["explanation"]


def test_half_of_a_contrast_and_a_wh_clause_are_not_reported_as_clauses():
    # round 46 (P11, a post on one thermally throttled GPU): "The author reports that not because it throws an error." and
    # "They show that exactly how this plays out ..."
    text = ("A single thermally throttled GPU — one out of sixteen — can cut your distributed training throughput by 5×. "
            "Not because it crashes. Not because it throws an error. It just runs slower, and FSDP’s synchronous gradient "
            "reduction forces every other GPU to wait. In this post, I show exactly how this plays out on an Azure ND H100 v5 cluster.")
    opening = explain_offline(text, "en")["explanation"].split("\n\n")[1]
    assert "that not because" not in opening and "that exactly how" not in opening, opening


def test_a_chip_the_glossary_lists_is_not_listed_again_from_the_catalog():
    # round 46 (P11-ar): "Azure ND H100 v5" listed H100 twice, once from the glossary and once from the chip catalog;
    # thermal throttling's Arabic heading carried its whole definition in the bracket, and nothing after it
    text = "I stress-test 10 nodes of an Azure ND H100 v5 cluster; a thermally throttled GPU cuts throughput by 5×."
    answer = explain_offline(text, "ar")["explanation"]
    assert len(re.findall(r"^- \*\*(?:NVIDIA )?H100\*\*", answer, re.M)) == 1, answer
    assert "(thermal throttling)" in answer and "(thermal throttling:" not in answer


def test_model_params_are_weights_and_selective_checkpointing_is_not_only_attention():
    # round 46 (P04, torchtune#785): "less impact from model params" was glossed as configuration settings; selective AC
    # that checkpoints every other layer was defined as recomputing attention only
    text = ("Generically on llama-13B, selective AC 2 (every other layer) improved throughput +10% over No AC. I used 8 gpus "
            "with the idea of having less impact from model params and more finer grained tuning of the bs size.")
    terms = _terms(text)
    assert "parameters" not in terms or "settings" not in terms["parameters"].get("expansion", ""), terms.get("parameters")
    answer = explain_offline(text, "en")["explanation"]
    assert "recomputing only attention" not in answer and "attention (selective)" not in answer


def test_a_verb_first_name_in_code_reads_as_its_verb():
    # round 46 (P03 and P05, GPT-NeoX issues): "ReduceGrads: A name in code that reads “reduction gradients”"
    answer = explain_offline("In GPT-NeoX the ReduceGrads step takes 85% of the step time on 16 GPUs.", "en")["explanation"]
    assert "reduction gradients" not in answer and "reduce gradients" in answer, answer


def test_a_bug_reports_flags_are_no_layout_and_earn_no_clean_bill():
    # round 46 (P02 of the second pack, Megatron-LM#1152): "Layout: fp8.", "No mistakes were found among the checks made."
    # for a bug report whose only settings are FP8 flags, and "Not in this tool's option tables: `-`" for a list's dash
    text = ("When enabling FP8 mixed precision during training of a Mixtral model (SequentialMLP expert layer), we are observing "
            "that training and validation loss differs more than expected.\n\nTo Reproduce\nStart with "
            "examples/mixtral/train_mixtral_8x7b_distributed.sh.\n- Disable --moe-grouped-gemm.\n"
            "- Pass --fp8-format hybrid --fp8-amax-compute-algo max --fp8-amax-history-len 1024.")
    answer = explain_offline(text, "en")["explanation"]
    assert "**Layout:** fp8" not in answer and "No mistakes were found among the checks made" not in answer
    assert "`-`" not in answer


def test_gpu_memory_covers_a_pool_shared_with_the_processor():
    # round 49's review (an AMD playbook in Arabic on Strix Halo): "GPU memory: the GPU's own memory" is false where the
    # GPU takes its memory from a pool it shares with the processor
    definition = _terms("On Strix Halo, set the GPU memory to 110 GB of the 128 GB unified memory.")["vram"]["definition"]
    assert "share" in definition, definition
