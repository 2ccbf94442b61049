"""A run's time against its steps at the stated rate (checks/steps_time.py)."""

from service.explain.pipeline import analyse


def _claims(text: str, lang: str = "en"):
    return analyse(text, lang).claims


def test_a_time_within_what_the_steps_take_is_consistent():
    # 5000 steps x 1.5 s/step = 7500 s = 2.1 hours, "roughly 2 hours"
    claim = _claims("Training 5000 steps at 1.5 s/step takes roughly 2 hours on one GPU.")[0]
    assert claim.verdict == "consistent" and "2.1 hours" in claim.why


def test_a_time_shorter_than_the_steps_take_is_inconsistent():
    claim = _claims("Training 5000 steps at 1.5 s/step took only 30 minutes.")[0]
    assert claim.verdict == "inconsistent" and "shorter than the steps alone take" in claim.why


def test_ranges_give_the_shortest_and_longest_and_a_longer_time_is_not_judged():
    # the English of the Arabic post below (bench/corpus holdout-r19), as a reader checked it:
    # 5000 / 2 it/s = 2500 s (0.69 h) to 10000 / 1 it/s = 10000 s (2.8 h), against "~5-10 hours"
    text = "With 5000-10000 iterations, this should take ~5-10 hours on your 4070 (assuming ~1-2 it/s)."
    claim = _claims(text)[0]
    assert "0.69 to 2.8 hours" in claim.why and "longer" in claim.why
    assert claim.verdict not in ("consistent", "inconsistent")


def test_arabic_iterations_and_their_rate_are_read():
    # https://github.com/lzwjava/blog-source/blob/21f72dc92f8abc372243920f284c8b53795e48e7/_posts/ar/2025-11-16-optimized-nanogpt-rtx4070-ar.md
    text = "مدة التدريب: مع 5000-10000 تكرار، يجب أن يستغرق هذا ~5-10 ساعات على بطاقة 4070 (بافتراض ~1-2 تكرار/الثانية)."
    doc = analyse(text, "ar")
    assert {f.quantity for f in doc.figures} >= {"steps", "steps_per_s", "time_s"}
    assert any("من 0.69 إلى 2.8 ساعة" in c.why for c in doc.claims)


def test_no_check_without_a_rate_or_with_two_kinds_of_rate():
    assert not any("take" in c.why for c in _claims("We trained for 10,000 steps, which took 5 hours."))
    both = "10,000 steps at 2 it/s and 0.5 s/step took 5 hours."
    assert not any("steps alone" in c.why or "other work" in c.why for c in _claims(both))


def test_a_runs_days_against_its_tokens_at_the_per_chip_rate():
    # Touvron et al. 2023, LLaMA, section 2.4: 380 tokens/sec/GPU on 2048 A100s, 1.4T tokens in about 21 days
    # (1.4e12 / (380 x 2048) s = 20.8 days)
    text = ("When training a 65B-parameter model, our code processes around 380 tokens/sec/GPU on 2048 A100 GPU with 80GB "
            "of RAM. This means that training over our dataset containing 1.4T tokens takes approximately 21 days.")
    claim = next(c for c in _claims(text) if "1.4T" in c.quote)
    assert claim.verdict == "consistent" and "21 days" in claim.why
    short = next(c for c in _claims(text.replace("21 days", "5 days")) if "1.4T" in c.quote)
    assert short.verdict == "inconsistent"


def test_a_step_time_against_batch_times_sequence_over_the_token_rate_even_with_no_model_size():
    # https://github.com/marin-community/marin/issues/8053 (bench/corpus holdout-r20, read after its judging):
    # 1024 x 4096 / 232.7k tokens/s = 18.02 s; the MFU check, which needs the model size, no longer stops the others
    text = "The 1-rack FSDP hero measures 19.41% MFU, 18.02 s/step, 232.7k tokens/s on 64x GB200 at batch 1024 x seq 4096."
    claim = _claims(text)[0]
    assert claim.verdict == "consistent" and "18.02 s" in claim.why
    # a ceiling's step time in another sentence is another run's: the measured rate does not judge it
    ceiling = text + " Perfect collective overlap gives 14.85 s/step (23.6% MFU)."
    assert not any(c.verdict == "inconsistent" for c in _claims(ceiling))
