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


def test_a_kv_cache_size_per_token_is_worked_from_the_shape_the_text_gives():
    # 2 x 80 layers x 8 KV heads x 128 x 2 bytes = 327,680 bytes = 320 KiB per token (Llama 3 70B's shape, Meta's model card)
    claim = analyse("Llama 3 70B has 80 layers, 8 KV heads and a head dimension of 128, so in BF16 its KV cache takes "
                    "320 KB per token.", "en").claims[0]
    assert claim.verdict == "consistent" and "327.7 kB" in claim.why


def test_a_kv_size_that_fits_fewer_heads_names_grouped_query_attention_not_an_error():
    # with 64 heads the formula gives 2 x 80 x 64 x 128 x 2 = 2.62 MB; 320 KB fits 8 key-value heads
    claim = analyse("For a model with 80 layers, 64 attention heads, head dimension 128, and fp16 KV: roughly 320KB per "
                    "token.", "en").claims[0]
    assert claim.verdict == "needs_more" and "2.621 MB" in claim.why and "8 key-value heads" in claim.why


def test_reduce_inside_all_reduce_is_not_the_reduce_collective():
    # a round-18 reader: "(all-reduce operation)" listed the reduce collective, which the text never names
    from service.explain.compose import explain_offline
    terms = explain_offline("Gradients must be aggregated (all-reduce operation) across all GPUs.", "en")["terms"]
    assert not any(t["id"] == "reduce" for t in terms)
    named = explain_offline("NCCL's reduce operation sends the sum to rank 0 only.", "en")["terms"]
    assert any(t["id"] == "reduce" for t in named)


def test_a_per_gpu_rate_written_in_lower_case_is_a_per_chip_rate():
    # "~4000 tok/s/gpu for a 7b model ... on 8 A100": 6 x 7e9 x 4000 = 168 TFLOP/s, 53.85% of the A100's 312 TFLOP/s
    from service.explain.pipeline import analyse as read
    doc = read("We train at ~4000 tok/s/gpu for a 7b model on 8 A100.", "en")
    assert any(f.quantity == "tokens_per_s_per_chip" for f in doc.figures)
    assert any("53.85%" in c.why for c in doc.claims)


def test_a_names_digits_are_no_count_of_a_share():
    # "BF16 (18.1%)" is a format's gain, not 16 of the 2048 tokens named before it
    from service.explain.pipeline import analyse as read
    doc = read("At an input length of 2048 tokens, replication gains 27.3% over TP=8, more than with BF16 (18.1%).", "en")
    assert not any(c.verdict == "inconsistent" for c in doc.claims)


def test_bandwidth_bound_is_memory_bound_only_beside_memory_words():
    # a round-19 reader: TP all-reduces over PCIe make decode "bandwidth-bound" on the links, not on HBM
    from service.explain.compose import explain_offline
    links = explain_offline("In decode, TP all-reduces make it bandwidth-bound on the PCIe links between GPUs.", "en")["terms"]
    assert not any(t["id"] == "memory-bound" for t in links)
    memory = explain_offline("Decoding is bandwidth-bound: each token reads all weights from HBM.", "en")["terms"]
    assert any(t["id"] == "memory-bound" for t in memory)


def test_terabytes_of_shared_memory_are_no_cuda_scratchpad_in_arabic_either():
    from service.explain.compose import explain_offline
    terms = explain_offline("يحتوي النظام على 144 تيرابايت من الذاكرة المشتركة عبر 256 شريحة.", "en")["terms"]
    assert not any(t["id"] == "cuda-shared-memory" for t in terms)


def test_numbered_draft_tokens_and_rdma_cpu_offload_keep_their_own_senses():
    from service.explain.compose import explain_offline
    draft = explain_offline("The draft proposes T1 T2 T3 T4 T5 and the target verifies them in one pass.", "en")["terms"]
    assert not any(t["id"] == "t5" for t in draft)
    assert any(t["id"] == "t5" for t in explain_offline("We fine-tuned T5 on our data.", "en")["terms"])
    rdma = explain_offline("RoCE with GPUDirect RDMA gives CPU offload: the NIC moves data between GPUs directly.", "en")["terms"]
    assert not any(t["id"] == "offloading" for t in rdma)
