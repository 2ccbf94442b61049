"""Issue 18: a gist written across languages says no figure. Blind readers judged every figure frame a list of figures
(`no`) at best, and one given the wrong owner or quantity made the gist `wrong` (a time over four iterations said as a
step time, one chip's bandwidth given to another); the checks and the figures section show each figure with its
reading. The sentences are those the earlier figure frames were tested on, written for these tests."""

import re

import pytest

from service.explain import gist_cross
from service.explain.compose import explain_offline
from service.explain.pipeline import analyse

# A number standing alone (not inside a name such as H100, v3-32, ZeRO-3 or 8x7B), in Latin or Arabic digits.
_FIGURE = re.compile(r"(?<![\w.\-/])[\d٠-٩][\d٠-٩.,]*(?![\w\-])")


def gist_text(text: str, lang: str) -> str:
    return " ".join(item["text"] for item in explain_offline(text, lang)["gist"])


def role_of(text: str, lang: str) -> str:
    return gist_cross.read(analyse(text, lang), 0).role


@pytest.mark.parametrize("text, lang", [
    ("Our run reaches 41.2 TFLOP/s per device on a TPU v3-32 for a 2B model.", "ar"),
    ("Our run reaches 410 TFLOP/s per GPU on 64 H100 GPUs for a 30B model.", "ar"),
    ("Our 30B model reaches 41% MFU on 256 H100 GPUs.", "ar"),
    ("حقق نموذجنا ذو 30 مليار معامل نسبة MFU قدرها 41% على 256 شريحة H100.", "en"),
    ("With 1F1B we see 88.54GiB memory (86.8%), 100 tokens/s per GPU and 26.52% MFU on 512 GPUs.", "ar"),
    ("On a v3-32 the training logs show: completed step: 901, seconds: 3.4, TFLOP/s: 41.1, loss: 2.3", "ar"),
    ("On 16 A100 GPUs I can only reach 21.5% MFU, which is far lower than the 52% reported in the paper.", "ar"),
    ("completed step: 12, seconds: 1.25, TFLOP/s/device: 241.5, Tokens/s/device: 30112.7, loss: 2.4", "ar"),
    ("Our 8x7B MoE only achieves low throughput: 140 TFLOPS on 32 H100 GPUs.", "ar"),
    ("With Megatron-LM the step takes 2.4 s, while DeepSpeed is used only for the data loading.", "ar"),
    ("For the B200 and 8-bit floating point (either E4M3 or E5M2) the dense peak is 4500 TFLOPS.", "ar"),
    ("With Megatron-LM, tensor parallelism and pipeline parallelism on H100 we reach 410 TFLOP/s per GPU.", "ar"),
    ("Our 70B run reaches 41% MFU on 512 H100 GPUs.", "ar"),
    ("Our 70B run does not reach 40% MFU on 512 H100 GPUs.", "ar"),
    ("Our schedule outperforms 1F1B by 20% in throughput on 32 GPUs.", "ar"),
    ("Our schedule differs from 1F1B by 20% in throughput on 32 GPUs.", "ar"),
    ("Our schedule does not outperform 1F1B by 20% in throughput on 32 GPUs.", "ar"),
    ("The forward time went from 470ms to 270ms with the new all-gather.", "ar"),
    ("I get an MFU of about 15% for a 7B model on one node of 8 A100 GPUs, much lower than the reported 50%. Why is it so low?", "ar"),
    ("We lower EP from 32 to 8 because the run crashes in DeepEP's dispatch.", "ar"),
    ("قال الرئيس التنفيذي لإنفيديا إن تركيب 100 ألف وحدة H200 استغرق 19 يومًا.", "en"),
    ("تتراوح تكلفة تدريب النموذج بين 30 و191 مليون دولار.", "en"),
    ("On the TPU v4-128s the MaxText library gets an MFU of 55% for a 22B model.", "ar"),
    ("Our 7B model reaches 45% MFU on 8 H100 GPUs.", "ar"),
    ("The H100 reaches a peak of 1979 TFLOPS with 2:4 sparsity.", "ar"),
    ("We get 113 TFLOPs per GPU with PP=12 and MBS=2 on the first iterations.", "ar"),
    ("Our 13B run reaches 38% MFU on 64 H100 GPUs because the InfiniBand links are slow.", "ar"),
    ("Our 13B run reaches 38% MFU on 64 H100 GPUs, not because of the InfiniBand links.", "ar"),
    ("Expert parallelism behaves this way because the all-to-all crosses nodes.", "ar"),
    ("This PR lowers EP from 32 to 8 on the Mixtral 8x7B recipe, which crashes with an out of memory error on 64 H100 GPUs.", "ar"),
    ("خفضنا توازي الخبراء من 16 إلى 4 لأن التدريب يتعطل على 64 شريحة H100.", "en"),
    ("The recipe drops DeepEP and lowers EP from 16 to 8 because the all-to-all crashes with an illegal memory access.", "ar"),
    ("After we raised the micro-batch count from 8 to 16, the run crashes on 32 H100 GPUs.", "ar"),
    ("The forward pass went from 470 ms to 270 ms after the fix, on 8 A100 GPUs.", "ar"),
    ("ارتفعت نسبة MFU من 30% إلى 45% على 64 شريحة H100.", "en"),
    ("With ZeRO-3 on 8 A100 GPUs the forward time is 480 ms. That is much slower than expected, as in ZeRO-2 the forward time is only 60 ms.", "ar"),
    ("زمن التمرير الأمامي مع ZeRO-3 على 8 شرائح A100 يبلغ 480 ms. وهذا أبطأ بكثير مما كان متوقعًا، مقارنة بـ 60 ms مع ZeRO-2.", "en"),
    ("The new recipe reaches 640 TFLOP/s per GPU on B200, compared with the H100 baseline.", "ar"),
    ("بلغت تكلفة تدريب النموذج 5.6 مليون دولار على شرائح H800 مقارنة بشرائح A100.", "en"),
    ("With ZeRO-3 on 8 A100 GPUs, the forward pass improved from 470 ms to 270 ms and the step time improved from 900 ms to 670 ms.", "ar"),
    ("مع ZeRO-3 تحسن زمن التمرير الأمامي من 470 ms إلى 270 ms على 8 شرائح A100.", "en"),
    ("يعتمد النظام الجديد على 256 شريحة، ويقدم قوة حوسبة تصل إلى 200 بيتافلوبس (BF16)، وهو ما يعادل تقريبًا ضعف ما يقدمه نظام GB200 NVL72 من إنفيديا.", "en"),
    ("يبلغ سعر الوحدة الواحدة حوالي 25,000 دولار، ما يعني أن الشركة أنفقت 400 مليون دولار.", "en"),
    ("The unit price of one H100 is about $25,000. The whole cluster cost $400 million to build.", "ar"),
    ("تسربت وحدة معالجة الرسومات H100: قالب ضخم يحتوي على ما يصل إلى 144 رسالة نصية قصيرة.", "en"),
    ("دُرّب النموذج على 2,048 شريحة TPU v3 خلال 4 أيام.", "en"),
    ("Because I was using ZeRO3 on a machine with NVLink, the parameter gathering took only 480ms.", "ar"),
    ("With DeepSpeed-Megatron, the model achieved 156 TFlops/GPU (50% of BF16 peak performance) on 48 nodes.", "ar"),
    ("With DeepSpeed-Megatron, the model achieved 156 TFlops/GPU, an MFU of 50%, on 48 nodes.", "ar"),
    ("The 405B run uses up to 16K H100 GPUs, each at 700W TDP with 80GB HBM3.", "ar"),
    ("Scout has 17 billion active parameters and a context window of up to 10 million tokens.", "ar"),
    ("We train the 7B model on sequences of 4,096 tokens with 64 GPUs.", "ar"),
    ("The report gives up to 152 TFLOP/s per GPU on 1024 A100 GPUs.", "ar"),
    ("The switch reconfigures the links in under 20 nanoseconds on TPU.", "ar"),
    ("بلغت الإنتاجية أكثر من 410 TFLOP/s لكل شريحة على 64 شريحة H100.", "en"),
    ("Why does the MFU drop when we double the EP size?", "ar"),
    ("The forward pass with ZeRO-3 is much slower than expected on our 8 GPUs.", "ar"),
    ("The run crashes with an illegal memory access in DeepEP.", "ar"),
    ("Our 13B model reaches 48% MFU on 64 H100 GPUs.", "ar"),
    ("Pipeline parallelism is a way to split the layers of a model into stages on different GPUs.", "ar"),
    ("هل نحتاج إلى توازي خطوط الأنابيب على 256 شريحة؟", "en"),
    ("بلغت تكلفة تدريب النموذج 5.6 مليون دولار على 2000 شريحة H800.", "en"),
    ("يجب أن يبقى توازي الموتر داخل العقدة الواحدة.", "en"),
])
def test_a_gist_across_languages_says_no_figure(text, lang):
    said = gist_text(text, lang)
    assert not _FIGURE.search(said), said


@pytest.mark.parametrize("text, lang, role", [
    ("Why does the MFU drop when we double the EP size?", "ar", "question"),
    ("The forward pass with ZeRO-3 is much slower than expected on our 8 GPUs.", "ar", "problem"),
    ("The run crashes with an illegal memory access in DeepEP.", "ar", "problem"),
    ("Our 13B model reaches 48% MFU on 64 H100 GPUs.", "ar", "topic"),
    ("Pipeline parallelism is a way to split the layers of a model into stages on different GPUs.", "ar", "description"),
    ("هل نحتاج إلى توازي خطوط الأنابيب على 256 شريحة؟", "en", "question"),
    ("قال الرئيس التنفيذي لإنفيديا إن تركيب 100 ألف وحدة H200 استغرق 19 يومًا.", "en", "news"),
    ("بلغت تكلفة تدريب النموذج 5.6 مليون دولار على 2000 شريحة H800.", "en", "topic"),
    ("يجب أن يبقى توازي الموتر داخل العقدة الواحدة.", "en", "requirement"),
    ("We lower EP from 32 to 8 because the run crashes in DeepEP's dispatch.", "ar", "topic"),
])
def test_the_role_is_read_from_cues_in_the_sentences_own_language(text, lang, role):
    # a result or a change of figures is a topic: its figures are not said, so what it reports is left to the checks
    assert role_of(text, lang) == role



def test_a_problem_measured_against_a_published_figure_keeps_its_frame_and_its_question_without_the_figures():
    text = ("I get an MFU of about 15% for a 7B model on one node of 8 A100 GPUs, much lower than the reported 50%. "
            "Why is it so low?")
    said = gist_text(text, "ar")
    assert said.startswith("يذكر الكاتب مشكلة") and "النتيجة أقل من الرقم المنشور" in said
    assert said.rstrip(".").endswith("ويسأل الكاتب عن السبب") and not _FIGURE.search(said)
    english = gist_text("زمن التمرير الأمامي مع ZeRO-3 على 8 شرائح A100 يبلغ 480 ms. وهذا أبطأ بكثير مما كان متوقعًا، "
                        "مقارنة بـ 60 ms مع ZeRO-2.", "en")
    assert english.startswith("The author reports a problem") and "slower than expected" in english


def test_the_figures_a_gist_leaves_out_are_still_read_and_checked_in_the_answer():
    answer = explain_offline("Our 13B run reaches 38% MFU on 64 H100 GPUs because the InfiniBand links are slow.", "ar")
    assert not _FIGURE.search(" ".join(item["text"] for item in answer["gist"]))
    assert any(abs(f["value"] - 0.38) < 1e-9 for f in answer["figures"])
