"""What a hardware name says on its own: TPU slice names and product names the catalog contradicts. Sentences written
for these tests; the published rule or figure is sourced beside each case."""

from service.explain.checks import names
from service.explain.pipeline import analyse


def _claim(text: str, needle: str, lang: str = "en"):
    doc = analyse(text, lang)
    return doc, next(c for c in doc.claims if needle in c.quote)


def test_slice_names_count_tensorcores_up_to_v5p_and_chips_from_v5e():
    # Google Cloud TPU docs, "TPU v4" / "TPU v5p": each chip contains two TensorCores and the accelerator type counts
    # TensorCores (v4-8 = 4 chips); "TPU v5e" / "TPU v6e": one TensorCore per chip, the type counts chips (v5litepod-8 = 8)
    found = {s.quote: s.chips for s in names.slices("v3-8, TPU v4-8, v5p-128, v5e-8, v5litepod-16 and v6e-256 slices")}
    assert found == {"v3-8": 4, "TPU v4-8": 4, "v5p-128": 64, "v5e-8": 8, "v5litepod-16": 16, "v6e-256": 256}
    assert names.slices("a v9-8 and the 2024-08 release") == []


def test_a_slice_total_uses_the_chips_its_name_stands_for():
    # Google Cloud TPU docs, "TPU v4": 275 TFLOPS bf16 per chip; a v4-8 is 4 chips, so 1,100 TFLOPS, not 2,200
    _, wrong = _claim("Our TPU v4-8 totals 2,200 TFLOPS: each chip has 275 TFLOPS for BF16.", "2,200")
    assert wrong.verdict == "inconsistent" and "4 chips" in wrong.why and "TensorCores" in wrong.why
    _, right = _claim("Our TPU v4-8 totals 1,100 TFLOPS: each chip has 275 TFLOPS for BF16.", "1,100")
    assert right.verdict == "consistent" and "4 chips" in right.why
    # Google Cloud TPU docs, "TPU v5e": 197 TFLOPS bf16 per chip; a v5e-8 is 8 chips = 1,576 TFLOPS
    _, chips = _claim("A v5e-8 totals 1,576 TFLOPS: each chip has 197 TFLOPS.", "1,576")
    assert chips.verdict == "consistent" and "8 chips" in chips.why


def test_a_gpu_named_with_another_generation_gets_one_correction():
    # NVIDIA H200 product page: "Based on the NVIDIA Hopper architecture"; Blackwell is the B200/GB200 generation
    doc = analyse("The lab installed 100,000 Nvidia H200 Blackwell GPUs in 19 days.", "en")
    lines = [c["correction"] for c in doc.corrections if c["as"] == "H200 Blackwell"]
    assert len(lines) == 1 and "Hopper" in lines[0] and "B200" in lines[0]
    doc = analyse("تركيب 100,000 وحدة معالجة رسومية من طراز Nvidia H200 Blackwell في 19 يومًا.", "ar")
    assert any("Hopper" in c["correction"] for c in doc.corrections)


def test_a_gpu_named_with_its_own_generation_is_left_alone():
    # NVIDIA DGX B200 page: "eight NVIDIA Blackwell GPUs"; GB300 NVL72 page: "Blackwell Ultra GPUs"
    for text in ("The B200 Blackwell GPUs arrived.", "GB300 Blackwell Ultra racks", "H100 Hopper GPUs and Blackwell parts"):
        assert names.contradicting_names(text, "en") == []


def test_peaks_in_different_number_formats_are_not_compared_as_a_ratio():
    # Google Ironwood announcement (2025): 4,614 TFLOPs per chip is the FP8 peak (data/hardware.json tpu7x);
    # TOP500 (Nov 2024): El Capitan's 1.742 EFLOP/s is its FP64 HPL result
    doc = analyse("Ironwood reaches 4,614 TFLOPS per chip. A pod of 9,216 chips gives 42.5 EFLOP/s, 24x more "
                  "than the 1.7 EFLOP/s of El Capitan.", "en")
    claim = next(c for c in doc.claims if "24x" in c.quote)
    assert claim.verdict == "needs_more" and "FP8" in claim.why and "FP64" in claim.why
    assert not any(doc.calculations[i]["calculator"] == "ratio" for i in claim.calculations)


def test_achieved_rates_in_two_formats_are_still_a_speed_up():
    # a run in FP8 against the same run in BF16: a speed-up the text may state (sentence written for this test)
    doc = analyse("With FP8 the job reaches 600 TFLOP/s per GPU, compared to 400 TFLOP/s per GPU with BF16.", "en")
    claim = next(c for c in doc.claims if "600" in c.quote)
    assert claim.verdict != "needs_more" or "like for like" not in claim.why


def test_an_arabic_fp8_pod_against_an_fp64_supercomputer_is_not_a_ratio():
    # Ironwood's per-chip FP8 peak (data/hardware.json tpu7x) against El Capitan's FP64 HPL figure (TOP500, Nov 2024)
    arabic = analyse("توفر آيرونوود 4614 تيرافلوب في ذروة أدائها. يحتوي التكوين على 9216 شريحة، مما يتيح 42.5 إكسافلوب. "
                     "هذا الرقم يتجاوز بحوالي 24 ضعفًا قوة الحوسبة لدى إل كابيتان، الذي يوفر 1.7 إكسافلوب.", "ar")
    claim = next(c for c in arabic.claims if "24" in c.quote)
    assert claim.verdict == "needs_more" and "FP64" in claim.why



def test_a_claim_naming_slices_says_their_chip_counts():
    # Google Cloud TPU docs ("TPU v4": two TensorCores per chip): a v4-128 is 64 chips
    _, claim = _claim("On TPU v4-128s with a 22B model, MaxText gets an MFU between 53.2% and 56.7%.", "53.2%")
    assert "TPU v4-128 counts TensorCores" in claim.why.replace("the name ", "") and "64 chips" in claim.why
