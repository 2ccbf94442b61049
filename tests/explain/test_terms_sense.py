"""Issue 18: the passage's central terms first, each in the sense meant here, never cut before its key fact."""

from service.explain.compose import explain_offline, salient_terms
from service.explain.pipeline import analyse


def ids(text: str, lang: str = "en") -> list[str]:
    return [t["id"] for t in analyse(text, lang).terms]


def test_an_organisation_is_not_a_training_word():
    found = ids("Per Epoch AI, frontier training compute doubles every few months.")
    assert "epoch-ai" in found and "epoch" not in found


def test_a_pipeline_schedule_word_takes_its_schedule_sense():
    doc = analyse("DualPipe uses bidirectional scheduling: micro-batches enter from both ends of the pipeline.", "en")
    term = next(t for t in doc.terms if t["id"] == "unidirectional-vs-bidirectional")
    assert "pipeline" in term["expansion"] and "bandwidth" not in term["expansion"]
    link = analyse("NVLink 4 gives 900 GB/s bidirectional per GPU.", "en")
    assert "bandwidth" in next(t for t in link.terms if t["id"] == "unidirectional-vs-bidirectional")["expansion"]


def test_a_collectives_reduction_is_not_gradient_accumulation():
    found = ids("Our reduce-scatter runs with ReduceOp.AVG and the reduction in fp32.")
    assert "reduction-op" in found and "gradient-accumulation" not in found


def test_long_tail_words_are_terms_with_sources():
    text = ("We overlap NCCL on a side CUDA stream, cap NCCL_MAX_NCHANNELS, run Qwen3-30B-A3B with expert choice "
            "routing over EFA, use FULL_SHARD and schedule W passes late; PP rank 3 then hit an illegal memory access.")
    found = set(ids(text))
    assert {"cuda-stream", "nccl-channel", "expert-choice-routing", "efa", "fsdp-sharding-strategy",
            "b-pass-w-pass", "pp-rank", "illegal-memory-access"} <= found
    assert "moe-size-naming" in ids("The A22B variant is cheaper to serve.")  # total-by-active naming
    arabic = {t["id"]: t for t in analyse(text, "ar").terms}
    assert all(arabic[i]["definition"] for i in found if i in arabic)


def test_central_terms_come_first():
    text = ("BTW the CUDA stream docs are long and warps are confusing. "
            "So the takeaway: FSDP inside the NVLink domain needs no PP.")
    result = explain_offline(text, "en")
    assert result["gist"] and result["gist"][0]["from"] == [1]
    doc = analyse(text, "en")
    order = [t["id"] for t in salient_terms(doc, {1})]
    assert order.index("fsdp") < order.index("cuda-stream") and order.index("pipeline-parallelism") < order.index("cuda-warp")
    terms_section = result["explanation"].split("## The terms")[1]
    assert terms_section.index("FSDP") < terms_section.index("CUDA stream")


def test_a_moe_definition_keeps_its_active_count_even_when_short():
    from service.explain.compose import _shortened
    from service.explain import glossary

    for entry_id, fact in (("kimi-k2", "thirty-two billion active"), ("deepseek-v3", "thirty-seven billion active")):
        definition = glossary.load().by_id[entry_id]["definition"]
        assert fact in _shortened(definition.split(". ")[0] + ".")


def test_a_newer_chip_is_not_glossed_as_its_predecessor():
    found = {t["id"]: t for t in analyse("It inherits the full GB300 FP8_MX V2 layout.", "en").terms}
    assert "nvidia-gb300" in found and "nvidia-gb200" not in found


def test_a_models_name_is_not_an_everyday_word():
    found = {t["id"] for t in analyse("Llama 4 comes in two models. Scout: 17B active. Maverick: 17B active.", "en").terms}
    assert {"llama-4-scout", "llama-4-maverick"} <= found
    assert not {"llama-4-scout", "llama-4-maverick"} & {t["id"] for t in analyse("The scout was a maverick.", "en").terms}
