"""A transfer's time against size / bandwidth (checks/transfer_time.py). Texts written for these tests."""

from service.explain.pipeline import analyse


def _claim(text: str, lang: str = "en"):
    return analyse(text, lang).claims[0]


def test_a_time_that_is_size_over_bandwidth_is_consistent():
    # 200e9 B / 25e9 B/s = 8 s (PCIe 4.0 x16 is about 25-32 GB/s one way)
    claim = _claim("Moving 200 GB over PCIe at 25 GB/s takes about 8 seconds per token.")
    assert claim.verdict == "consistent" and "200 GB / 25 GB/s = 8 s" in claim.why



def test_a_time_faster_than_the_link_allows_is_inconsistent():
    # 140e9 B / 2e12 B/s = 70 ms, so 10 ms is impossible at that bandwidth
    claim = _claim("Loading 140 GB at 2 TB/s takes 10 ms.")
    assert claim.verdict == "inconsistent" and "70 ms" in claim.why



def test_a_thousandfold_gap_is_called_a_likely_unit_slip_not_a_finding():
    # 512e6 B / 3.35e12 B/s = 152.8 µs against "149.25 ms": a factor of about 1,000
    claim = _claim("Reading the 512 MB KV cache at 3.35 TB/s takes 149.25 ms.")
    assert claim.verdict == "needs_more" and "unit slip" in claim.why



def test_a_longer_time_is_the_transfer_and_other_work():
    # 140e9 / 2e9 = 70 s; 3 minutes = 180 s is 2.6 times that
    claim = _claim("Saving the 140 GB checkpoint at 2 GB/s takes 3 minutes.")
    assert claim.verdict == "explained" and "2.6 times" in claim.why
    arabic = _claim("Saving the 140 GB checkpoint at 2 GB/s takes 3 minutes.", "ar")
    assert "minutes" not in arabic.why and "180 s" in arabic.why


def test_a_size_and_a_ceiling_on_its_time_say_the_rate_they_need_and_the_fastest_link():
    # 3.4e9 B / 1e-3 s = 3.4e12 B/s, above NVLink 5's 900 GB/s one way per chip (data/hardware.json, b200 scale_up)
    claim = _claim("Data parallelism must synchronize 3.4 GB of gradient bytes in under a millisecond.")
    assert claim.verdict == "explained"
    assert "at least 3.4 GB / 1 ms = 3.4 TB/s" in claim.why and "NVLink 5's 900 GB/s" in claim.why
    arabic = _claim("Data parallelism must synchronize 3.4 GB of gradient bytes in under a millisecond.", "ar")
    assert "millisecond" not in arabic.why and "3.4 TB/s" in arabic.why and "على الأقل" in arabic.why


def test_a_read_from_memory_is_never_compared_with_chip_links():
    # 80e9 B / 0.025 s = 3.2 TB/s: an HBM read, so no chip-to-chip comparison; the time is exact, not a ceiling
    claim = _claim("Reading the 80 GB of weights takes 25 ms per token.")
    assert "80 GB / 25 ms = 3.2 TB/s" in claim.why and "at least" not in claim.why and "NVLink" not in claim.why


def test_a_stated_bandwidth_leaves_the_rate_to_the_transfer_time_check():
    claim = _claim("Moving 200 GB over PCIe at 25 GB/s takes about 8 seconds.")
    assert "= 8 s" in claim.why and "200 GB / 8 s" not in claim.why


def test_a_time_spelled_with_an_article_is_one_unit():
    figures = {f.quote: f.value for f in _claim("It finished within an hour on 8 GPUs, and in under a millisecond per call.").figures}
    assert figures.get("an hour") == 3600 and figures.get("a millisecond") == 0.001
    assert not [f for c in analyse("We added a second GPU and a day of tests.", "en").claims for f in c.figures]
