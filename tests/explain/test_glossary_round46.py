"""Round 46 (issue 18): the BIS export-control score TPP, AMD's Graphics Compute Die (GCD), denormal numbers and
flush-to-zero, FBGEMM, Prime Intellect's ElasticDeviceMesh, the Qwen-VL family and LPDDR5X memory
(data/glossary/long_tail_round46.json). Each entry is found in a sentence quoted from its primary source, its Arabic
spelling is found in Arabic text, and its short spellings keep their other senses."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as
from tests.support.glossary_files import detected as ids  # the detector's finds, shared by the glossary tests

FILE = data_dir() / "glossary" / "long_tail_round46.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 46 glossary data not present")

BIS = ("https://www.federalregister.gov/documents/2023/10/25/2023-23055/"
       "implementation-of-additional-export-controls-certain-advanced-computing-items-supercomputer-and")
CDNA2 = "https://www.amd.com/content/dam/amd/en/documents/instinct-business-docs/white-papers/amd-cdna2-white-paper.pdf"
PT_NUM = "https://docs.pytorch.org/docs/stable/notes/numerical_accuracy.html"

# (term id, sentence quoted from the source, what the detector should find); the source is in the comment.
REAL_SENTENCES = [
    # BIS (Technical Notes to ECCN 3A090)
    ("total-processing-performance", "'Total processing performance' ('TPP') is 2 x 'MacTOPS' x 'bit length of the "
                                     "operation', aggregated over all processing units on the integrated circuit.",
     "Total processing performance"),
    ("total-processing-performance", "the 'TPP' threshold of 4800 can be met with 600 tera integer operations (or 2 x "
                                     "300 'MacTOPS') at 8 bits or 300 tera FLOPS (or 2 x 150 'MacTOPS') at 16 bits.",
     "TPP"),
    # CDNA2 (AMD CDNA 2 Architecture Overview)
    ("graphics-compute-die", "Figure 1a illustrates the AMD Instinct MI200 Graphics Compute Die (GCD).",
     "Graphics Compute Die"),
    ("graphics-compute-die", "The AMD Instinct MI200 is built on advanced packaging technologies, enabling two GCDs to "
                             "be integrated into a single package in the OAM (OCP Accelerator Module) form factor in "
                             "the MI250 and MI250X products", "GCDs"),
    # PT_NUM (Reduced Precision FP16 and BF16 GEMMs and Convolutions on AMD Instinct MI200 devices)
    ("denormal-numbers", "On AMD Instinct MI200 GPUs, the FP16 and BF16 V_DOT2 and MFMA matrix instructions flush input "
                         "and output denormal values to zero.", "denormal values"),
    ("denormal-numbers", "When training using FP16 precision, some models may fail to converge with FP16 denorms "
                         "flushed to zero.", "denorms"),
    # https://rocm.docs.amd.com/projects/MIOpen/en/latest/MI200AlternateImplementation.html
    ("denormal-numbers", "On the MI200, MFMA_F16, MFMA_BF16, and MFMA_BF16_1K flush subnormal input/output data to "
                         "zero.", "subnormal"),
    # https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/cpu/FlushDenormal.h
    ("denormal-numbers", "Flush-To-Zero (FTZ) and Denormals-Are-Zero (DAZ) are modes that bypass IEEE 754 methods of "
                         "dealing with denormal floating-point numbers on x86-64 and some x86 CPUs.", "Flush-To-Zero"),
    # https://github.com/pytorch/FBGEMM/blob/main/README.md
    ("fbgemm", "FBGEMM (Facebook GEneral Matrix Multiplication) is a low-precision, high-performance matrix-matrix "
               "multiplications and convolution library for server-side inference.", "FBGEMM"),
    # https://huggingface.co/docs/transformers/quantization/fbgemm_fp8
    ("fbgemm", "Create a FbgemmFp8Config and pass it to from_pretrained() to quantize a model to fp8.",
     "FbgemmFp8Config"),
    # https://github.com/PrimeIntellect-ai/prime (README, Key Features)
    ("elastic-device-mesh", "In Prime, we've added a new distributed abstraction called `ElasticDeviceMesh` which "
                            "encapsulates dynamic global process groups for fault-tolerant communication across the "
                            "internet and local process groups for communication within a node or datacenter.",
     "ElasticDeviceMesh"),
    # https://github.com/QwenLM/Qwen3-VL (README, Introduction)
    ("qwen-vl", "Meet Qwen3-VL — the most powerful vision-language model in the Qwen series to date.", "Qwen3-VL"),
    # https://huggingface.co/docs/transformers/model_doc/qwen2_5_vl
    ("qwen-vl", "Qwen2.5-VL is a multimodal vision-language model, available in 3B, 7B, and 72B parameters, pretrained "
                "on 4.1T tokens.", "Qwen2.5-VL"),
    # https://huggingface.co/Qwen/Qwen2-VL-2B (README, Introduction)
    ("qwen-vl", "We're excited to unveil Qwen2-VL, the latest iteration of our Qwen-VL model, representing nearly a "
                "year of innovation.", "Qwen2-VL"),
    # https://docs.nvidia.com/grace-perf-tuning-guide/health-checks.html (STREAM)
    ("lpddr5x", "Use the STREAM benchmark to check LPDDR5X memory bandwidth.", "LPDDR5X memory"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round46_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 7)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round46_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


@pytest.mark.parametrize("text, term_id", [
    ("تخضع الشريحة لضوابط التصدير إذا تجاوز إجمالي قوة المعالجة فيها العتبة المحددة", "total-processing-performance"),
    ("قلّصت NVIDIA الشريحة H20 كي يبقى TPP دون عتبة التصدير", "total-processing-performance"),
    ("في وحدات MI200 تُصفَّر الأعداد دون الطبيعية في عمليات FP16", "denormal-numbers"),
    ("يستعمل المعالج وضع التقريب إلى الصفر لتسريع العمليات على الأعداد دون الطبيعية", "denormal-numbers"),
])
def test_round46_term_in_an_arabic_sentence(text, term_id):
    assert term_id in ids(text), ids(text)


@pytest.mark.parametrize("text, term_id", [
    # "TPP" without export-rule words is another TPP (a trade agreement)
    ("The TPP trade agreement was signed by twelve countries.", "total-processing-performance"),
    # the greatest common divisor of arithmetic
    ("Compute the GCD of two integers with Euclid's algorithm.", "graphics-compute-die"),
    # a free-trade zone
    ("The factory sits in an FTZ near the port, so imported parts pay no duty.", "denormal-numbers"),
    # round-toward-zero, the rounding mode, with no denormal or precision word beside it
    ("دالة التقريب إلى الصفر تحذف الجزء الكسري من العدد", "denormal-numbers"),
    # the text-only Qwen3 MoE model is the Qwen3 entry's, not the vision-language family's
    ("Qwen3-235B-A22B is a mixture-of-experts model.", "qwen-vl"),
])
def test_round46_spellings_keep_their_other_senses(text, term_id):
    assert term_id not in ids(text), ids(text)


def test_qwen3_vl_is_the_vision_language_family_not_qwen3():
    found = ids("Meet Qwen3-VL — the most powerful vision-language model in the Qwen series to date.")
    assert found.get("qwen-vl") == "Qwen3-VL" and "qwen-3" not in found, found
