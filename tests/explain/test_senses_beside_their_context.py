"""Senses settled by what stands beside a word, as round 18 and 19's readers found them wrong. Texts written for these tests."""

from service.explain.compose import explain_offline


def test_reduce_inside_all_reduce_is_not_the_reduce_collective():
    # a round-18 reader: "(all-reduce operation)" listed the reduce collective, which the text never names
    terms = explain_offline("Gradients must be aggregated (all-reduce operation) across all GPUs.", "en")["terms"]
    assert not any(t["id"] == "reduce" for t in terms)
    named = explain_offline("NCCL's reduce operation sends the sum to rank 0 only.", "en")["terms"]
    assert any(t["id"] == "reduce" for t in named)



def test_bandwidth_bound_is_memory_bound_only_beside_memory_words():
    # a round-19 reader: TP all-reduces over PCIe make decode "bandwidth-bound" on the links, not on HBM
    links = explain_offline("In decode, TP all-reduces make it bandwidth-bound on the PCIe links between GPUs.", "en")["terms"]
    assert not any(t["id"] == "memory-bound" for t in links)
    memory = explain_offline("Decoding is bandwidth-bound: each token reads all weights from HBM.", "en")["terms"]
    assert any(t["id"] == "memory-bound" for t in memory)



def test_terabytes_of_shared_memory_are_no_cuda_scratchpad_in_arabic_either():
    terms = explain_offline("يحتوي النظام على 144 تيرابايت من الذاكرة المشتركة عبر 256 شريحة.", "en")["terms"]
    assert not any(t["id"] == "cuda-shared-memory" for t in terms)



def test_numbered_draft_tokens_and_rdma_cpu_offload_keep_their_own_senses():
    draft = explain_offline("The draft proposes T1 T2 T3 T4 T5 and the target verifies them in one pass.", "en")["terms"]
    assert not any(t["id"] == "t5" for t in draft)
    assert any(t["id"] == "t5" for t in explain_offline("We fine-tuned T5 on our data.", "en")["terms"])
    rdma = explain_offline("RoCE with GPUDirect RDMA gives CPU offload: the NIC moves data between GPUs directly.", "en")["terms"]
    assert not any(t["id"] == "offloading" for t in rdma)
