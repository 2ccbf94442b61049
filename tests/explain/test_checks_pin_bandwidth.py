"""A memory stack's bandwidth from its pin speed and interface width. Sentences written for these tests; published
figures are sourced beside each case."""

from service.explain.pipeline import analyse


def _claim(text: str, needle: str, lang: str = "en"):
    doc = analyse(text, lang)
    return doc, next(c for c in doc.claims if needle in c.quote)


def test_pin_speed_times_the_hbm3_interface_is_the_stated_bandwidth():
    # Micron HBM3 Gen2 press release (2023-07-26): pin speed over 9.2 Gb/s, over 1.2 TB/s per cube; JEDEC JESD238: a
    # 1024-bit interface per HBM3 stack; 9.2e9 x 1024 / 8 = 1.178e12 B/s
    doc, claim = _claim("Micron's HBM3E cube delivers 1.2 TB/s with a pin speed of 9.2 Gb/s.", "9.2")
    assert claim.verdict == "consistent" and "1024 pins" in claim.why and "1.178 TB/s" in claim.why
    (fig,) = [f for f in doc.figures if f.quantity == "pin_rate_bytes_per_s"]
    assert fig.value == 9.2e9 / 8  # a pin's speed, not a bandwidth of 1.15 GB/s
    _, wrong = _claim("Micron's HBM3E cube delivers 12 TB/s with a pin speed of 9.2 Gb/s.", "9.2")
    assert wrong.verdict == "inconsistent" and "not 12 TB/s" in wrong.why


def test_a_stated_interface_width_wins_over_the_generations():
    # HBM4 doubles the interface to 2048 bits (JEDEC JESD270-4); 8 Gb/s x 2048 / 8 = 2.048 TB/s
    _, claim = _claim("The HBM4 stack uses a 2048-bit interface at 8 Gb/s per pin for 2 TB/s.", "2048")
    assert claim.verdict == "consistent" and "2048 pins" in claim.why


def test_in_arabic_and_without_a_known_memory_nothing_is_guessed():
    # the same Micron figures written in Arabic
    _, claim = _claim("توفر ذاكرة HBM3 عرض نطاق يبلغ 1.2 تيرابايت في الثانية مع سرعة دبوس تبلغ 9.2 جيجابت في الثانية.", "9.2", "ar")
    assert claim.verdict == "consistent" and "1024" in claim.why
    # a pin speed with no memory generation and no width named: the width would be a guess
    _, unsure = _claim("The memory reaches 1.2 TB/s with a pin speed of 9.2 Gb/s.", "9.2")
    assert unsure.calculations == [] and unsure.verdict != "inconsistent"
