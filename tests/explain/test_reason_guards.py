"""Stock reasons (data/reasons.json) shown only where the text is their case: readers counted each misplaced one."""

from service.explain import reasons
from service.explain.pipeline import analyse


def _links(text: str) -> set[str]:
    return {link["id"] for link in reasons.find(analyse(text, "en"))}


def test_cpu_offload_beside_rdma_does_not_get_the_host_memory_reason():
    # https://docs.redhat.com/en/documentation/red_hat_openshift_ai_self-managed/3.4/html/working_with_distributed_workloads/configuring-roce-networking-for-distributed-llm-deployments_distributed-llm-roce
    rdma = ("RoCE with GPUDirect RDMA (GDR) enables direct memory access between GPUs without CPU involvement. "
            "CPU offload: Transfers data directly between GPUs without CPU involvement.")
    assert "offload_is_pcie_bound" not in _links(rdma)
    zero = "ZeRO-Offload keeps the optimizer states in CPU memory, so every step is bound by PCIe bandwidth."
    assert "offload_is_pcie_bound" in _links(zero)


def test_the_bf16_gradient_reason_needs_a_text_about_gradients():
    # https://isc.app.swapcard.com/ (ISC 2026 poster abstract, bench/corpus holdout-r19): an inference study
    serving = ("At an input length of 2048 tokens, replication improves throughput by 27.3% over TP=8, a gap that widens "
               "compared to BF16 (18.1%) as FP8 exposes synchronization overhead: the all-reduce share rises.")
    assert "bf16_reduction_halves_bytes" not in _links(serving)
    training = "Reducing gradients in BF16 instead of FP32 halves the all-reduce traffic, so data-parallel training scales better."
    assert "bf16_reduction_halves_bytes" in _links(training)


def test_a_results_table_run_into_one_line_gives_no_reason():
    # https://github.com/InternLM/lmdeploy/issues/525 (bench/corpus holdout-r18): a flattened table of KV-cache runs
    table = ("Test result: test mode bs inp_len out_len total latency throughput (tokens/s) fp16 kv cache 1 2048 512 11.20s "
             "228.571 int8 kv cache 1 2048 512 12.03 212.801 fp16 kv cache 25 2048 512 35.81s 1787.210")
    assert "kv_cache_grows_with_context" not in _links(table)


def test_decode_being_memory_bound_is_no_reason_for_a_prefill_sentence():
    # a prefix-caching page (round 32): its prefill cost named bandwidth beside the KV cache, and readers found the
    # decode bullet off-target
    prefill = ("Without prefix caching, 100 users with the same system prompt cause 100 prefill computations. Each produces "
               "an identical KV tensor at the cost of GPU FLOPS and memory bandwidth proportional to the prefix length.")
    assert "decode_is_memory_bound" not in _links(prefill)
    decode = "Decoding is slow because each token reads the whole KV cache and all weights, so it is limited by memory bandwidth."
    assert "decode_is_memory_bound" in _links(decode)


def test_prefill_and_decode_named_together_are_no_interference_unless_one_holds_up_the_other():
    push = ("Instead of the decode node reading KV from the prefill node, the prefill node writes KV blocks into the decode "
            "node as soon as prefill finishes, which cuts TTFT.")
    assert "prefill_decode_interfere" not in _links(push)
    stall = "TTFT goes to seconds whenever someone pastes a 30k-token document, because that one prefill blocks every decode step behind it."
    assert "prefill_decode_interfere" in _links(stall)
    # DistServe's post (round 33): a reader found the reason right where the text proposes separating the two phases
    separated = ("To maximize goodput, we propose a Prefill-Decode separation architecture. DistServe implements it by "
                 "disaggregating the Prefill and Decode stages onto separate GPUs.")
    assert "prefill_decode_interfere" in _links(separated)
