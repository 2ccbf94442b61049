"""Terms as real docs write them (issue 11 item 1's terms target), page clutter dropped by the glossary's own
marks (item 4), and the Arabic mistranslation table feeding the corrections (item 6)."""

import json
import re

import pytest

from calculators.resources import data_dir
from service.explain import glossary, terms
from service.explain.document import Document

pytestmark = pytest.mark.skipif(not list((data_dir() / "glossary").glob("*.json")), reason="glossary data not present")

SB = "https://github.com/jax-ml/scaling-book/blob/0819a7d8c55ddc113f5cba0285a5f97380cac1e3/training.md"
TT = "https://github.com/pytorch/torchtitan/blob/b5bcd76c66d0acb1a08b176d9639425bc55e0b2a/"
MLM = "https://github.com/NVIDIA/Megatron-LM/blob/d98e8a64ddf34856e74b24714e3bedb2f5a39553/"
DS = "https://github.com/deepspeedai/DeepSpeed/blob/edaa7221267243c7be7fb49c5d5f5c4fb97b4641/"
DSV3 = "https://github.com/deepseek-ai/DeepSeek-V3/blob/9b4e9788e4a3a731f7567338ed15d3ec549ce03b/README.md"

# (expected glossary id, a real sentence, where it was read)
REAL_SPELLINGS = [
    # notation: the 6ND product written out with numbers, both orders
    ("six-nd-rule", "For LLaMA-3 70B, which was trained for approximately `6.3e24 (15e12 * 70e9 * 6)` FLOPs", SB),
    ("six-nd-rule", "Training Llama 3 70B requires roughly 6 × 70B × 15T = 6.3 × 10²⁴ FLOPs",
     "https://wes.today/series/training/train-from-scratch/hardware-and-scale/why-scale/"),
    # SI-prefixed rates, and a peak written after its figure
    ("flop-per-second", "Our approach allows us to perform training iterations on a model with 1 trillion parameters at "
                        "502 petaFLOP/s on 3072 GPUs", "https://arxiv.org/abs/2104.04473"),
    ("peak-flops", "A single GB200 NVL72 rack delivers ~180 petaFLOPS peak at FP8.",
     "https://wes.today/series/training/train-from-scratch/hardware-and-scale/why-scale/"),
    ("peak-flops", r"For TPU v5p, $\text{peak hardware tflop/s}=459$.",
     "https://github.com/AI-Hypercomputer/maxtext/blob/e591f30cbbf217ed67ef71263ec0538239f9c3b8/docs/guides/"
     "monitoring_and_debugging/understand_logs_and_metrics.md"),
    # a term that overlaps the end of another ("peak memory" + "memory bandwidth")
    ("memory-bandwidth", "Each H100 GPU is equipped with 96GB HBM2e with 2.4 TB/sec peak memory bandwidth.",
     TT + "benchmarks/llama3_h100_202412_torchtitan.md"),
    # a named term inside a longer one
    ("nvidia-h800", "At an economical cost of only 2.664M H800 GPU hours, we complete the pre-training of DeepSeek-V3", DSV3),
    ("batch-size", "when the per-device batch size $B/X$ exceeds the \"ICI operational intensity\"", SB),
    # coordinated modifiers: "tensor and pipeline parallelism"
    ("tensor-parallelism", "It uses 8-way and 16-way tensor and pipeline parallelism, respectively.",
     "https://developer.sourcefind.cn/codes/OpenDAS/megatron-lm/-/commit/ab9a79791de91a2fa99d0d52379e23bcd652c61f"),
    ("tensor-parallelism", "We quantitatively study the trade-offs between tensor, pipeline, and data parallelism",
     "https://arxiv.org/abs/2104.04473"),
    ("pipeline-schedule", "propose a novel interleaved pipeline parallelism schedule that can improve throughput by 10+%",
     "https://arxiv.org/abs/2104.04473"),
    # words that are terms where the text is about them
    ("pipeline-bubble", "For instance, PP needs enough microbatches relative to its stages to reduce bubbles.",
     TT + "docs/converging.md"),
    ("pipeline-stage", "For instance, PP needs enough microbatches relative to its stages to reduce bubbles.",
     TT + "docs/converging.md"),
    ("pipeline-bubble", "Trade-off: Larger VPP = fewer bubbles but more P2P communications",
     MLM + "megatron/core/transformer/moe/README.md"),
    ("rank", "By using ZeRO stage 1 to partition the optimizer state among eight data parallel ranks", DS + "docs/_tutorials/zero.md"),
    ("rank", "Considering that each rank has a bandwidth to the outside world of _B_, the time to perform an allReduce "
             "operation", "https://github.com/NVIDIA/nccl-tests/blob/a0b82b2260cf5152b9f8c061bbf7eaf0ba096432/doc/PERFORMANCE.md"),
    ("zero-1", "Stage 1: The optimizer states (e.g., for Adam optimizer, 32-bit weights, and the first, and second moment "
               "estimates) are partitioned across the processes", DS + "docs/_tutorials/zero.md"),
    ("master-weights", "Stage 1: The optimizer states (e.g., for Adam optimizer, 32-bit weights, and the first, and second "
                       "moment estimates) are partitioned across the processes", DS + "docs/_tutorials/zero.md"),
    # verb forms and gerunds
    ("strong-scaling", "This test strong scales the standard GPT-3 model", MLM + "README.md"),
    ("weak-scaling", "The weak scaled results show superlinear scaling", MLM + "README.md"),
    ("microbatch", "Typically we try to mitigate this first with microbatching, which sends multiple small batches", SB),
    ("comm-compute-overlap", "In this case, consider using 1F1B A2A Overlap to overlap the EP communication.",
     MLM + "megatron/core/transformer/moe/README.md"),
    ("device-mesh", "assuming a 3D mesh we calculate that $B/N$ must exceed about $850$ to be compute bound", SB),
    ("batch-size", "we could split a batch of 16M tokens over roughly `16e6 / (2550 / 3) = 18,823` chips", SB),
    ("parameters", "we will configure a 18 billion parameter GPT-2 model", DS + "docs/_tutorials/zeropp.md"),
    ("deepspeed-ulysses", "DeepSpeed sequence parallelism allows increasing sequence length linearly with the number of GPUs",
     DS + "blogs/deepspeed-ulysses/README.md"),
    ("active-parameters", "a strong Mixture-of-Experts (MoE) language model with 671B total parameters with 37B activated "
                          "for each token", DSV3),
    ("open-weight-model", "It is open source, available for commercial use, and matches the quality of LLaMA-7B.",
     "https://www.databricks.com/blog/mpt-7b"),
    # Arabic: a generation named in words, Google's pods called supercomputers, a bare "parallelism"
    ("tpu-v4", "أن الشركة اعتمدت على الجيل الرابع من معالجها \"TPU\" في 90% من عمليات تدريب نماذجها اللغوية الضخمة",
     "https://asharq.com/articles/48387/"),
    # (the supercomputer entry, read as a TPU pod here: tests/explain/test_third_round_terms.py checks the reading)
    ("supercomputer-general", "وأضافت أنها وصلّت حاسوبين عملاقين، كل منهما يتكون من 4000 معالج، لتدريب نموذجها اللغوية الأضخم "
                "على الإطلاق \"PaLM\"", "https://asharq.com/articles/48387/"),
    ("deepseek", "تكلفة تدريب DeepSeek R1 لم تتجاوز 294 ألف دولار فقط.", "https://arabhardware.net/news/deepseek-r1-training-cost"),
    ("parallelism", "المبدأ الأساسي وراء التدريب الموزع هو التوازي - تقسيم مهمة التدريب",
     "https://www.ultralytics.com/ar/glossary/distributed-training"),
]


def _stage(text: str, lang: str = "en") -> Document:
    doc = Document(text=text, lang=lang)
    terms.read_terms(doc)
    return doc


def _ids(text: str, lang: str = "en") -> set[str]:
    return {m.entry["id"] for m in _stage(text, lang).matches}


@pytest.mark.parametrize("term_id, sentence, url", REAL_SPELLINGS, ids=[f"{i}-{r[0]}" for i, r in enumerate(REAL_SPELLINGS)])
def test_recall_real_spelling_is_a_term(term_id, sentence, url):
    assert url.startswith("https://")
    lang = "ar" if re.search("[\u0600-\u06FF]", sentence) else "en"
    assert term_id in _ids(sentence, lang), (term_id, sorted(_ids(sentence, lang)))


@pytest.mark.parametrize("text, term_id", [
    ("ZeRO stages 1 and 2 shard the optimizer state and the gradients", "zero-2"),
    ('"zero_optimization": {"stage": 3, "overlap_comm": true}', "zero-3"),
    ("C ≈ 6 N D for a dense model", "six-nd-rule"),
    ("The TPUv5p pod and TPU-v4 slices", "tpu-v4"),
    ("we trained on 2048 H800s", "nvidia-h800"),
    ("a cluster of 8xH100 nodes", "nvidia-h100"),
    ("Qwen3-30B-A3B routes each token to 8 experts", "active-parameters"),
    ("990 TFLOPS of dense BF16 per GPU", "teraflops"),
    ("FSDP8 TP8 PP4 on 256 H100s", "fsdp"),
    ("FSDP8 TP8 PP4 on 256 H100s", "pipeline-parallelism"),
    ("EP8TP1 for the experts", "tensor-parallelism"),
])
def test_recall_notation_spellings(text, term_id):
    assert term_id in _ids(text), sorted(_ids(text))


@pytest.mark.parametrize("text, not_id", [
    ("an MP3 player", "model-parallelism"),
    ("a low-rank adapter on 8 GPUs", "rank"),            # low-rank is not a process rank
    ("The report ranks the models by their score.", "rank"),  # no distributed-training cue
    ("ZeRO-1 and ZeRO-2 combine with PP", "zero"),          # "ZeRO-1" is a name, not ZeRO plus a number
    ("the training stages after pre-training", "pipeline-stage"),
])
def test_recall_ordinary_words_stay_words(text, not_id):
    assert not_id not in _ids(text), sorted(_ids(text))


def test_recall_restatement_spans_do_not_overlap():
    doc = _stage("Each H100 GPU has 2.4 TB/sec peak memory bandwidth; 2.664M H800 GPU hours in all.")
    spans = [(m.start, m.end) for m in doc.occurrences]
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in zip(spans, spans[1:])), spans
    assert {"memory-bandwidth", "nvidia-h800", "gpu-hours"} <= {m.entry["id"] for m in doc.matches}


# ------------------------------------------------------------------------------------------ page clutter

def _seed() -> str:
    path = next(iter(sorted((data_dir().parent.parent / "shared" / "seeds").glob("*.txt"))), None) \
        if (data_dir().parent.parent / "shared" / "seeds").is_dir() else None
    if path is None:
        pytest.skip("seed thread not present")
    return path.read_text(encoding="utf-8")


SEED_LIKE = ("Pump.fun to raise $1B token sale, traders speculating on airdrop\n"
             "لقد ضاعت قليلا في جميع الاختصارات والمصطلحات هنا ، لذلك طلبت من كلود شرحها دون استخدام أي اختصارات "
             "(tldr ؛ النطاق الترددي ⟹ البساطة):\n"
             "أخبر كبير الخبراء Jingyuan أنه باستخدام TPUs على نطاق K2 أو DSV3 يمكنك تحقيق MFU ممتاز دون استخدام PP.")


@pytest.mark.parametrize("text", [SEED_LIKE, "I asked Claude to explain it. TL;DR: PP is needed only when DP-comms bound."])
def test_clutter_chat_tool_tldr_and_crypto_token_are_not_terms(text):
    doc = _stage(text, "ar" if "ك" in text else "en")
    found = {m.entry["id"] for m in doc.matches}
    assert not found & {"claude", "tldr", "token"}, found
    assert {"tpu", "model-flops-utilization"} & found or "pipeline-parallelism" in found
    assert all(not terms.is_clutter(m) for m in doc.occurrences)


def test_clutter_in_the_seed_thread():
    doc = _stage(_seed(), "ar")
    found = {m.entry["id"]: m for m in doc.matches}
    assert "claude" not in found and "tldr" not in found  # "طلبت من كلود شرحها", "(tldr ؛"
    assert "expert" not in found or found["expert"].reading == 0  # "كبير الخبراء" is a person
    assert {"tpu", "pipeline-parallelism", "model-flops-utilization"} <= set(found)


@pytest.mark.parametrize("text, term_id", [
    ("Claude 3 Opus was trained by Anthropic; its parameters are not published.", "claude"),
    ("MPT-7B is a transformer trained from scratch on 1T tokens of text and code at a cost of ~$200k.", "token"),
    ("Each MoE layer routes every token to the top-2 experts chosen by the router.", "expert"),
])
def test_clutter_marks_leave_the_technical_senses(text, term_id):
    assert term_id in _ids(text)


def test_clutter_lists_are_the_glossarys_marks_only():
    section = terms.cues()["clutter"]
    assert "terms" not in section and "term_contexts" not in section
    source = open(terms.__file__, encoding="utf-8").read()
    assert not re.search(r"[\"'](?:tldr|claude|expert|token)[\"']", source, re.I)  # no hard-coded clutter words


# ------------------------------------------------------------------------------------------ mistranslations

TABLE = json.loads((data_dir() / "mistranslations_ar.json").read_text(encoding="utf-8"))["entries"]


@pytest.mark.parametrize("sentence, term_id, phrase", [
    ("يستخدم النموذج تقليل التشتت بعد كل خطوة ثم جمع الكل للأوزان.", "reduce-scatter", "تقليل التشتت"),
    ("يستخدم النموذج تقليل التشتت بعد كل خطوة ثم جمع الكل للأوزان.", "all-gather", "جمع الكل"),
    ("نستخدم نقاط تفتيش التنشيط وتراكم الانحدار لتوفير الذاكرة.", "gradient-accumulation", "تراكم الانحدار"),
    ("نستخدم نقاط تفتيش التنشيط وتراكم الانحدار لتوفير الذاكرة.", "activation-checkpointing", "نقاط تفتيش التنشيط"),
])
def test_mistranslation_table_entry_gives_a_correction(sentence, term_id, phrase):
    item = next(i for i in TABLE if i["term_id"] == term_id and i["mistranslation"] == phrase)
    doc = _stage(sentence, "ar")
    (correction,) = [c for c in doc.corrections if c["entry"]["id"] == term_id]
    assert correction["as"] == phrase and correction["correction"] == item["why_ar"]
    warning = correction["warning"]
    assert re.search("[\u0600-\u06FF]", warning) and "rendering" not in warning and phrase in warning
    english = [c for c in _stage(sentence, "en").corrections if c["entry"]["id"] == term_id][0]
    # the table's note, said as a sentence where it opens with a label ("'Router' as ..." -> "The rendering reads ...")
    assert english["correction"] in (item["why"], "The rendering reads " + item["why"].replace(" read as ", " as ", 1)
                                     .replace(" rendered ", " ", 1).replace(" taken ", " ", 1)) \
        and "rendering" in english["warning"]


def test_mistranslation_table_does_not_repeat_an_entrys_own_correction():
    doc = _stage("هذه مناقشة حول التوازي بين خط الأنابيب والتقسيم المتغير بين الرقائق.", "ar")
    assert [c["entry"]["id"] for c in doc.corrections].count("virtual-pipeline-parallelism") == 1


def test_mistranslation_table_spares_the_answers_own_name_for_a_term():
    # the Arabic answer itself calls tensor parallelism "توازي الموتر": flagging it would contradict the answer
    doc = _stage("نستخدم توازي الموتر على ثماني رقائق.", "ar")
    assert not [c for c in doc.corrections if c["entry"]["id"] == "tensor-parallelism"]


def test_mistranslation_shows_in_the_answer_and_warnings():
    from service.explain.compose import explain_offline

    result = explain_offline("يستخدم التدريب تقليل التشتت ثم جمع الكل في كل خطوة.", "ar")
    assert any("تقليل التشتت" in w and re.search("[\u0600-\u06FF]{3}", w.replace("تقليل التشتت", "")) for w in result["warnings"])
    assert "تقليل التشتت" in result["explanation"].split("\n## ")[-1]


def test_a_usual_arabic_name_of_a_term_is_no_mistranslation():
    # "مزيج من الخبراء" is how Arabic writers name a mixture of experts; a reader was told it meant human experts
    doc = _stage("يعتمد النموذج على مزيج من الخبراء مع عامل القدرة 1.25.", "ar")
    assert not [c for c in doc.corrections if c["entry"]["id"] == "mixture-of-experts"]
