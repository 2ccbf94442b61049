"""Issue 18, terms: the passage's own terms, not only the generic ones. Flags and environment variables no option table
knows are read by their words (data/key_words.json), a variable with the library its first word names; the long tail
of the field's vocabulary is glossed from primary sources (data/glossary/round9_passage_terms.json); a name with a
word the table lacks is left out. All texts are written for these tests."""

import pytest

from service.explain.document import Document
from service.explain.terms import read_terms


def terms(text: str, lang: str = "en") -> dict[str, dict]:
    doc = Document(text=text, lang=lang)
    read_terms(doc)
    return {t["found_as"]: t for t in doc.terms}


def ids(text: str, lang: str = "en") -> set[str]:
    return {t["id"] for t in terms(text, lang).values()}


def test_an_environment_variable_names_its_library_and_reads_its_words():
    found = terms("Our all-to-all got faster once NVSHMEM_HCA_LIST named only the two cards beside each GPU.")
    item = found["NVSHMEM_HCA_LIST"]
    assert item["expansion"] == "an environment variable"
    assert item["definition"] == ("An environment variable of NVSHMEM whose name reads "
                                  "“host channel adapter (HCA, the network card) list”.")


def test_arabic_environment_variable_keeps_its_parts_as_written():
    item = terms("ضبطنا NVSHMEM_HCA_LIST قبل التشغيل فتحسن الاتصال.", "ar")["NVSHMEM_HCA_LIST"]
    assert item["expansion"] == "متغير بيئة"
    assert "NVSHMEM" in item["definition"] and "HCA (محول القناة المضيفة" in item["definition"]


def test_a_variable_of_an_unknown_library_or_with_an_unknown_word_is_left_out():
    found = terms("We exported MYLAB_HCA_LIST and NVSHMEM_FROBNICATE_LEVEL before the run, and used FULL_SHARD.")
    assert "MYLAB_HCA_LIST" not in found  # no library reads MYLAB_
    assert "NVSHMEM_FROBNICATE_LEVEL" not in found  # a word no table knows: nothing rather than a guess
    assert not any(t["id"].startswith("key:FULL") for t in found.values())  # an enum value, not a variable


def test_an_unknown_flag_is_read_by_its_words():
    found = terms("Raising --update-freq let the eight GPUs reach the large batch; --ddp-backend stayed as it was.")
    item = found["--ddp-backend"]
    assert item["expansion"] == "a command-line flag" and not item["name_only"]
    assert item["definition"] == "A command-line flag whose name reads “DDP (distributed data parallel) backend”."
    # "update frequency" only says the flag's name again: kept for the record, left out of the answer
    assert found["--update-freq"]["name_only"]


def test_a_flag_that_only_says_its_name_again_is_marked_name_only():
    found = terms("We passed --num-processes to the launcher and the job started.")
    assert found["--num-processes"]["name_only"]  # "number of processes": the compose step leaves it out


def test_a_flag_on_a_pasted_command_line_is_left_to_the_config_reader():
    found = terms("python train.py --update-freq 4 --max-tokens 4096 --ddp-backend c10d --fp16")
    assert "--update-freq" not in found


def test_a_key_made_of_communication_words_is_read():
    item = terms("The shmem_put_bw test reported about the same speed as the link.")["shmem_put_bw"]
    assert "put (one-sided write) bandwidth" in item["definition"]


@pytest.mark.parametrize("text, term_id", [
    ("The kernel only supports hdim up to the size that fits in shared memory.", "head-dimension"),
    ("With a head dimension of that size the backward pass spills registers.", "head-dimension"),
    ("We replaced pmap with jit and sharding annotations.", "jax-pmap"),
    ("With MegaCore on, each chip shows up as one device.", "tpu-megacore"),
    ("Each superchip pairs the CPU with the GPUs over a coherent link.", "nvidia-superchip"),
    ("The dMoE layer never drops tokens.", "dropless-moe"),
    ("MaxVio fell steadily once the bias updates started.", "maxvio"),
    ("The campus will draw several gigawatts when finished.", "gigawatt"),
    ("ستستهلك المنشأة عدة جيجاواط عند اكتمالها.", "gigawatt"),
    ("GRPO keeps a reference model in memory beside the policy.", "reference-model"),
    ("Offloading is one answer to the memory wall.", "memory-wall"),
    ("Balancing over the global batch improved expert specialization.", "expert-specialization"),
    ("The router logits grew until the z-loss was added.", "logits"),
    ("The fairseq log shows wps rising after the fix.", "words-per-second"),
    ("Each PE in the NVSHMEM job drives one GPU.", "nvshmem-pe"),
    ("Run the vLLM colocation mode so generation shares the training GPUs.", "vllm-colocation"),
    ("The kernel splits Q, K, and V across the heads before the softmax.", "query-key-value"),
    ("The new chip doubles perf/W over the last one.", "performance-per-watt"),
    ("The smaller chip wins on price-performance for training.", "price-performance"),
    ("xAI trains Grok on Colossus, its cluster of NVIDIA GPUs in Memphis.", "xai-colossus"),
    ("OpenAI and Oracle add a site to Stargate with more gigawatts.", "stargate-project"),
    ("Set ETP to one while EP splits the experts.", "expert-tensor-parallelism"),
    ("The rack uses LPO modules to save power on every port.", "linear-pluggable-optics"),
    ("We moved the training script from PyTorch/XLA to JAX.", "pytorch-xla"),
])
def test_the_fields_long_tail_is_glossed(text, term_id):
    lang = "ar" if any("\u0600" <= c <= "\u06ff" for c in text) else "en"
    assert term_id in ids(text, lang)


def test_everyday_words_of_the_long_tail_need_their_fields_cues():
    assert "nvshmem-pe" not in ids("PE teachers met after school.")
    assert "vllm-colocation" not in ids("The colocation facility rents racks by the month.")
    assert "cpu" not in ids("Grace wrote the report on Monday.")
    assert "xai-colossus" not in ids("The Colossus of Rhodes was a bronze statue.")
    assert "stargate-project" not in ids("Stargate was a television series about a portal.")


def test_a_contrast_is_not_glossed_as_its_opposite():
    """'micro-batch level balance' is what global-batch balancing replaces: no entry names it by the other."""
    found = terms("Micro-batch level balance hurts specialization; global-batch level balance does not.")
    assert found["global-batch level balance"]["id"] == "global-batch-load-balancing"
    assert not any(t["found_as"].lower().startswith("micro-batch level") for t in found.values())


def test_the_new_definitions_state_no_figures_and_have_arabic():
    from service.explain import glossary
    from service.explain.number_check import numbers_in

    new = [e for e in glossary.load().entries if e["id"] in {"head-dimension", "nvl36", "gigawatt", "megawatt", "maxvio"}]
    assert len(new) == 5
    for entry in new:
        assert not numbers_in(entry["definition"]) and not numbers_in(entry["ar"]["definition"])
        assert entry["source"]["url"].startswith("https://")


def test_an_rdma_device_name_says_its_driver_and_port():
    item = terms("Traffic went only through mlx5_ib2:1 although four cards were listed.")["mlx5_ib2:1"]
    assert item["expansion"] == "a name in code" and "mlx5 driver" in item["definition"] and "port" in item["definition"]
    assert "mlx5_ib2:1" in terms("لم تمر البيانات إلا عبر mlx5_ib2:1.", "ar")


def test_a_pytorch_in_place_method_is_read_by_its_convention():
    found = terms("With PyTorch, calling normal_() on a large tensor needs no second copy.")
    assert "overwrites the tensor" in found["normal_()"]["definition"]


def test_a_trailing_underscore_outside_pytorch_or_on_an_unknown_bare_name_is_no_method():
    assert "normal_()" not in terms("Our JAX port calls normal_() from its own helpers.")  # no PyTorch in the text
    assert "helper_()" not in terms("In the PyTorch script, helper_(x) formats the log line.")


def test_nccl_tests_programs_and_collective_functions_are_their_terms():
    assert "nccl-tests" in ids("sendrecv_perf between the two nodes stayed far below line rate.")
    assert "all-to-all" in ids("We replaced all_to_all_single with a ring of sends.")


def test_causal_and_clock_are_terms_only_beside_their_fields_words():
    assert "causal-mask" in ids("Is the mask causal in FlashAttention here, or full?")
    assert "causal-mask" not in ids("The causal link between the two events is unclear.")
    assert "clock-rate" in ids("The clock of each TPU core is lower, so the peak TFLOPS drop.")
    assert "clock-rate" not in ids("We ran out of time; the clock was ticking.")


def test_rates_of_a_training_log_are_read():
    found = terms("Training ran at 1.9 it/s, later 3.1 iters/s or 45 seq/s.")
    assert "iterations per second" in found["it/s"]["definition"]
    assert "iterations per second" in found["iters/s"]["definition"]
    assert "sequences per second" in found["seq/s"]["definition"]
    log = ids("The fairseq log shows wps 5400, ups 2.1, wpb 2600 and bsz 64.")
    assert {"words-per-second", "updates-per-second", "words-per-batch"} <= log
    assert "updates-per-second" not in ids("Prices have ups and downs.")


def test_a_word_inside_a_flag_is_part_of_the_flag_not_a_term():
    """'recompute' opening '--recompute-method' is the flag's word; a name that is the whole flag still glosses it."""
    from service.explain import glossary, senses

    text = "To fit, I used --recompute-method uniform, --recompute-num-layers 1 and --recompute-granularity full."
    found = senses.without_parts_of_flags(glossary.load().find(text, extended=True), text)
    assert not any(m.found_as.lower() == "recompute" for m in found)
    assert any(m.found_as == "recompute-granularity" or m.found_as == "--recompute-granularity" for m in found)


def test_a_word_read_in_one_librarys_sense_stays_there():
    """'PE' is NVSHMEM's processing element in its variables; in a model config key 'pe' is often a positional encoding."""
    assert "processing element" in terms("We set NVSHMEM_ENABLE_NIC_PE_MAPPING=1.")["NVSHMEM_ENABLE_NIC_PE_MAPPING"]["definition"]
    assert "use_pe_scaling" not in terms("The config sets use_pe_scaling to false for the model.")


def test_dropless_moe_is_not_glossed_as_its_opposite():
    """Blind readers: 'dropless MoE' had been glossed as token dropping, the thing it avoids."""
    item = terms("This change adds dropless MoE support with grouped matrix products.")["dropless MoE"]
    assert item["id"] == "dropless-moe" and "never drops a token" in item["definition"]
    assert terms("Token dropping hurt quality at a low capacity factor.")["Token dropping"]["id"] == "token-dropping"
