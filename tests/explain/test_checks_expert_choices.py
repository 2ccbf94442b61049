"""A factor of routing combinations a sentence states for two mixture-of-experts layouts the text gives.

The passages are written for these tests; every count is worked by hand beside its case (C(n,k) = n! / (k! (n-k)!))."""

from service.explain.pipeline import analyse

LAYOUTS = "The new model has 32 experts and chooses 4 per token, while the old one has 8 experts and chooses 1.\n\n"


def _claim(text: str, needle: str, lang: str = "en"):
    doc = analyse(text, lang)
    return doc, next(c for c in doc.claims if needle in c.quote)


def test_a_right_factor_of_combinations_is_consistent():
    # C(32,4) = 35,960 and C(8,1) = 8: 35,960 / 8 = 4,495
    _, claim = _claim(LAYOUTS + "This gives 4495x more possible combinations of experts, which helps quality.", "combinations")
    assert claim.verdict == "consistent" and "35,960" in claim.why and "4,495" not in claim.why.split("=")[0]


def test_a_wrong_factor_of_combinations_is_inconsistent():
    # 35,960 / 8 = 4,495, not 16 (16 would be C(32,4) read as 32 / 8 x 4)
    _, claim = _claim(LAYOUTS + "This gives 16x more possible combinations of experts, which helps quality.", "combinations")
    assert claim.verdict == "inconsistent" and "4495" in claim.why.replace(",", "")


def test_no_combinations_word_no_check():
    # "16x more capacity" is not a count of combinations
    doc = analyse(LAYOUTS + "This gives the MoE router 16x more capacity for the same compute, which helps quality.", "en")
    assert not any(str(c["inputs"].get("expression", "")).startswith("35960") for c in doc.calculations)


def test_arabic_layouts_are_read_too():
    # C(16,4) = 1,820 and C(8,2) = 28: 1,820 / 28 = 65
    text = ("يحتوي النموذج الجديد على 16 خبيرًا ويختار 4، بينما يحتوي النموذج القديم على 8 خبراء ويختار 2.\n\n"
            "يوفر هذا لنموذج MoE الجديد 65 ضعف المزيد من مجموعات الخبراء الممكنة، وهذا يحسن الجودة.")
    _, claim = _claim(text, "مجموعات", "ar")
    assert claim.verdict == "consistent" and "1,820" in claim.why
