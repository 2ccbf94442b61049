"""Stop 64's rules, each on sentences written for the test in the shape of the passage that showed the fault."""

from service.explain.pipeline import analyse


def terms(text: str, lang: str = "en") -> dict:
    return {t.get("found_as"): t for t in analyse(text, lang).terms}


def test_a_degree_in_a_run_that_names_no_gpu_is_read_across_chips():
    # round 84 P10 (Marin's EP64 against FSDP on hardware the text never names) read "EP64" as "across 64 GPUs"
    assert terms("On the same shape and one rack, EP64 reached 27.8% median MFU, versus FSDP's 19.4%.")["EP64"]["expansion"] \
        == "expert parallelism across 64 chips"
    # a GPU named anywhere, also in the plural of its model ("H100s"), keeps "GPUs"
    assert terms("On 256 H100s, EP64 reached 27.8% median MFU, versus FSDP's 19.4%.")["EP64"]["expansion"] \
        == "expert parallelism across 64 GPUs"
    assert terms("On one rack of GPUs, EP64 reached 27.8% median MFU.")["EP64"]["expansion"] == "expert parallelism across 64 GPUs"


def test_draft_steps_are_the_drafting_passes_not_speculative_decoding_itself():
    # round 84 P02 (an EAGLE3 acceptance table) gave "draft steps" the definition of speculative decoding
    for lang in ("en", "ar"):
        found = terms("With EAGLE3 and topk=1 we run 3 draft steps per iteration; acceptance drops to 48.5% on chat.", lang)
        assert found["draft steps"]["id"] == "draft-step"
        assert found["EAGLE3"]["id"] != "draft-step"


def test_the_paged_eight_bit_optimizer_is_not_merged_with_the_full_precision_one():
    # round 84 P06 (QLoRA memory questions) glossed PagedAdamW8bit with the example "PagedAdamW", the author's difference
    for lang, eight_bit in (("en", "eight-bit"), ("ar", "ثمانية بتات")):
        found = terms("I used PagedAdamW8bit instead of PagedAdamW and memory fell from 15 GB to 9 GB in QLoRA.", lang)
        definition = next(t["definition"] for t in found.values() if t["id"] == "paged-optimizer")
        assert "PagedAdamW8bit" in definition and eight_bit in definition
