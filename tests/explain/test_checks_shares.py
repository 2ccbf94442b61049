"""Shares of a stated whole, scale words and the two readings of 'faster'. Sentences written for these tests."""

from service.explain.pipeline import analyse
from service.explain.stated_shares import restated, shares


def _claim(text: str, needle: str, lang: str = "en"):
    doc = analyse(text, lang)
    return next(c for c in doc.claims if needle in c.quote)


def test_a_share_of_a_stated_whole_is_redone():
    # 96 / 400 = 24.0%; 150 / 400 = 37.5%
    right = _claim("Of the 400 crashes we logged, 96 (24%) came from the network.", "96")
    assert right.verdict == "consistent" and "96 of 400 is 24.0%" in right.why
    wrong = _claim("We saw 150 of the 400 crashes (31.2%) on one rack.", "150")
    assert wrong.verdict == "inconsistent" and "150 of 400 is 37.5%, not the 31.2%" in wrong.why


def test_every_part_after_one_whole_and_arabic_percent_signs():
    found = shares("من بين 200 عطل، كان هناك 50 (%25) بسبب الذاكرة و30 (15%) بسبب الشبكة.")
    assert [(s.part, s.total, s.percent) for s in found] == [("50", "200", "25"), ("30", "200", "15")]
    arabic = _claim("من بين 200 عطل، كان هناك 50 (%20) بسبب الذاكرة.", "50", "ar")
    assert arabic.verdict == "inconsistent" and "50 من 200 تساوي 25.0%" in arabic.why


def test_no_share_when_the_reading_is_uncertain():
    # two different wholes in one sentence: which one a part shares is not known
    assert shares("Of the 400 crashes and of the 90 restarts, 30 (10%) were on Monday.") == []
    # a part larger than the whole, or a size with decimals, is not a count of the whole
    assert shares("Out of 8 GPUs, 16 (50%) were idle.") == []
    assert shares("Of the 80 GB, 1.5 (2%) is code.") == []


def test_scale_words_that_give_one_units_size():
    # 1 exaFLOP = 10^18 FLOP = a million trillion (SI prefix exa, BIPM SI Brochure, 9th ed., table 7)
    claim = _claim("The cluster reaches 12 exaflops, i.e. a million trillion operations per second.", "exaflops")
    assert claim.verdict == "inconsistent"
    assert "12 exaflops is 12 million trillion (1.2e19)" in claim.why and "12 times less" in claim.why
    right = restated("It peaks at 2 petaflops, or 2 quadrillion operations per second.")
    assert right and right[0].said == right[0].value == 2e15
    arabic = restated("يصل أداؤه إلى 3 إكزافلوب، أي ما يعادل 3 مليون تريليون عملية في الثانية.")
    assert arabic and arabic[0].said == arabic[0].value == 3e18


def test_faster_states_one_of_two_readings():
    # 0.50 -> 0.40 s/step: the time falls by 20.0%, the speed rises by 25.0% (1.25x); 20% and 25% are both right readings
    less = _claim("With the new kernel the step time went from 0.50 to 0.40 s/step, 20% faster.", "0.50")
    assert less.verdict == "consistent" and "one of these readings" in less.why
    neither = _claim("With the new kernel the step time went from 0.50 to 0.40 s/step, 40% faster.", "0.50")
    assert neither.verdict == "inconsistent" and "neither reading" in neither.why


def test_a_stated_factor_between_two_like_figures():
    # 256 / 192 = 1.33 (AMD Instinct MI325X 256 GB HBM3E, MI300X 192 GB: AMD product pages); 288 / 192 = 1.5
    wrong = _claim("The new card has 256 GB of memory, 1.8x the 192 GB of the old one.", "1.8x")
    assert wrong.verdict == "inconsistent" and "256 GB / 192 GB = 1.33x, not the 1.8x" in wrong.why
    right = _claim("The new card has 288 GB of memory, 1.5 times the 192 GB of the old one.", "1.5")
    assert right.verdict == "consistent"
    arabic = _claim("تملك البطاقة الجديدة ذاكرة بسعة 256 GB، أي 1.8 مرة مقارنة بسعة 192 GB في البطاقة السابقة.", "1.8", "ar")
    assert arabic.verdict == "inconsistent" and "1.33 مرة" in arabic.why


def test_no_factor_when_it_is_about_something_else():
    # the factor stands after both figures: what it multiplies is not said by the position
    claim = _claim("The new card has 256 GB and the old one 192 GB; training is 1.8x faster.", "1.8x")
    assert "1.33x" not in claim.why


def test_a_rate_above_ninety_percent_of_peak_is_called_suspicious():
    # H100 SXM dense BF16 peak 989 TFLOP/s (NVIDIA H100 datasheet): 900 / 989 = 91%; 500 / 989 = 51%
    high = _claim("On one H100 we measured 900 TFLOPs per GPU with BF16, which seems too efficient.", "900")
    assert "91" in high.why and "suspiciously high" in high.why and "BF16" in high.why
    usual = _claim("On one H100 we measured 500 TFLOPs per GPU with BF16, which seems low.", "500")
    assert "suspiciously" not in usual.why


def test_a_global_batch_over_its_chips_when_the_sentence_argues_about_the_split():
    # 512 / 1024 = 0.5 sequences per chip; 4096 / 1024 = 4
    under = _claim("With a global batch of 512 sequences on 1024 TPU chips, data parallelism alone is not possible.", "512")
    assert "0.5 sequences per chip: fewer than one" in under.why
    four = _claim("A global batch of 4096 sequences on 1024 GPUs gives each data-parallel rank its share.", "4096")
    assert "4 sequences per GPU" in four.why and "fewer than one" not in four.why
    # a sentence that does not speak of the split: nothing is said
    plain = _claim("We trained with a global batch of 512 sequences on 1024 GPUs for 10 days.", "512")
    assert "sequences per" not in plain.why


def test_sums_given_as_the_example_of_another_claim_only_hold():
    # FP16's largest finite value is 65504 (IEEE 754 binary16): 300*300=90000 overflows it; the sums are right, the overflow unjudged
    claim = _claim("In FP16 you can do 200*200=40000, but 300*300=90000 gives you an overflow.", "300*300")
    assert claim.verdict == "explained" and "the arithmetic holds" in claim.why.lower()
    assert "not checked" in claim.why
    plain = _claim("The run needs 6*70*2=840 units of compute.", "840")
    assert plain.verdict == "consistent"


def test_a_batch_not_called_global_is_not_split():
    # 'batch size 1' on an 8-GPU node is usually each GPU's own batch: dividing it by 8 would be a wrong statement
    claim = _claim("Test run on 8xH200 with FSDP, batch size 1: 600 TFLOP/s/GPU.", "batch size 1")
    assert "sequences per" not in claim.why and "تسلسل" not in claim.why


def test_scale_words_are_said_in_the_answers_language():
    # 3 exaflops = 3e18; 'مليون تريليون' (a million trillion) = 1e18, one exaflop
    text = "يصل أداء العنقود إلى 3 إكزافلوب، أي ما يعادل مليون تريليون عملية في الثانية."
    english = _claim(text, "إكزافلوب", "en")
    assert english.verdict == "inconsistent" and "3 exaflops is 3 million trillion (3e18)" in english.why
    arabic = _claim(text, "إكزافلوب", "ar")
    assert "3 إكزافلوب تساوي 3 مليون تريليون" in arabic.why


def test_chips_times_per_chip_against_the_texts_only_total_in_another_sentence():
    # 4,096 x 275 TFLOP/s = 1.126 EFLOP/s (TPU v4: 275 TFLOP/s BF16 per chip, Google Cloud TPU v4 documentation)
    text = "The pod delivers 1.13 exaflops. It has 4096 chips, each with 275 TFLOP/s of peak compute."
    claim = _claim(text, "4096 chips")
    assert claim.verdict == "consistent" and "4,096 x 275 TFLOP/s = 1.126 EFLOP/s" in claim.why
    # a total that the chips do not give is not judged: it may be another set-up's
    other = _claim("The pod delivers 3 exaflops. It has 4096 chips, each with 275 TFLOP/s of peak compute.", "4096 chips")
    assert other.verdict != "inconsistent"


def test_a_change_stated_in_the_sentence_before_a_from_to_pair():
    # 200 -> 180 is a 10.0% drop; 200 -> 170 is 15.0%
    right = _claim("Suddenly the throughput fell by 10%. It went from 200 to 180 TFLOP/s per GPU.", "from 200")
    assert right.verdict == "consistent" and "10.0%" in right.why
    wrong = _claim("Suddenly the throughput fell by 10%. It went from 200 to 170 TFLOP/s per GPU.", "from 200")
    assert wrong.verdict == "inconsistent" and "15.0%, not the 10%" in wrong.why
    # the stated change goes the other way: it is another change, so nothing is judged
    other = _claim("Memory use rose by 10%. Throughput went from 200 to 170 TFLOP/s per GPU.", "from 200")
    assert "sentence before" not in other.why


def test_a_stated_factor_against_the_named_chips_catalog_memory():
    # AMD Instinct MI300X: 192 GB HBM3 (data/hardware.json, AMD product page); 256 / 192 = 1.33; 288 / 192 = 1.5
    wrong = _claim("The new part carries 256 GB of HBM3E memory, 1.8 times the capacity of the MI300X.", "1.8")
    assert wrong.verdict == "inconsistent" and "256 GB / 192 GB = 1.33x, not the 1.8x" in wrong.why
    right = _claim("The new part carries 288 GB of HBM3E memory, 1.5 times the capacity of the MI300X.", "1.5")
    assert right.verdict == "consistent"
    arabic = _claim("تستخدم الشريحة ذاكرة HBM3E بسعة 256 جيجابايت، ما يزيد سعة الذاكرة بمقدار 1.8 مرة مقارنة بالإصدار السابق MI300X.", "1.8", "ar")
    assert arabic.verdict == "inconsistent" and "1.33 مرة" in arabic.why
