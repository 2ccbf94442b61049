"""Issue 18 (terms): each term in the sense meant here, chosen from the words around it, and nothing the text does not
write; the field's long tail (data/glossary/field_vocabulary.json) detected with a source. Sentences written for the rules."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import senses, term_display
from service.explain.pipeline import analyse

VOCABULARY = data_dir() / "glossary" / "field_vocabulary.json"
pytestmark = pytest.mark.skipif(not VOCABULARY.exists(), reason="data/glossary/field_vocabulary.json not present")


def terms(text: str, lang: str = "en") -> dict[str, dict]:
    return {t["id"]: t for t in analyse(text, lang).terms}


def test_memory_chips_are_dies_but_a_chip_with_memory_is_a_processor():
    dies = terms("Each HBM3E stack holds eight DRAM chips, which is what 8-Hi means.")
    assert "memory die" in dies["chip"]["definition"] and "GPU" not in dies["chip"]["definition"]
    assert {"dram", "hbm-stack-height"} <= set(dies)
    processor = terms("The TPU v5p has 95 GB of HBM per chip and a pod has 8,960 chips.")
    assert "one GPU or one TPU" in processor["chip"]["definition"]


def test_out_of_memory_on_the_host_is_not_accelerator_memory():
    host = terms("Every rank loads the full checkpoint, so the host runs out of memory: CPU RAM is 1 TB per node.")
    assert "host" in host["oom"]["expansion"] and "accelerator memory than" not in host["oom"]["definition"]
    device = terms("The GPU hits CUDA out of memory at batch 8 with 80 GB of HBM.")
    assert "accelerator memory" in device["oom"]["definition"]


def test_load_balancing_of_work_over_devices_is_not_expert_balancing():
    work = terms("The launcher does load balancing across the 16 GPUs so every worker gets equal work.")
    assert "expert" not in work["load-balancing"]["expansion"] and "GPU" in work["load-balancing"]["definition"]
    experts = terms("Without load balancing the router sends most tokens to two experts of the MoE layer.")
    assert experts["load-balancing"]["expansion"] == "expert load balancing"


def test_a_per_device_batch_counts_examples_unless_the_text_says_tokens():
    samples = terms("We set per_device_batch_size: 4 and the global batch follows from the chip count.")
    assert "examples" in samples["per-device-batch"]["definition"]
    assert "tokens-per-chip" not in samples
    tokens = terms("A per-device batch of 2K tokens is below the critical batch size.")
    assert "tokens" in tokens["per-device-batch"]["expansion"]


def test_device_memory_is_named_as_written_without_vram():
    item = terms("The weights no longer fit in device memory on a TPU v4.")["device-memory"]
    name, expansion = term_display.display(item, "en")
    assert "VRAM" not in f"{name} {expansion} {item['definition']}" and "device memory" in name


def test_tpu_chips_in_arabic_are_chips_not_slices():
    found = terms("التزمت الشركة بنشر أكثر من مليون شريحة TPU لتدريب نماذجها.", "ar")
    assert "chip" in found and "tpu-slice" not in found


def test_a_word_inside_a_variable_name_is_not_a_term_of_its_own():
    found = terms("Set NCCL_CROSS_NIC=1 and NCCL_DEBUG=INFO before the launch.")
    assert {"nccl-environment-variable", "nccl-debug"} <= set(found) and "nic" not in found


def test_a_glossary_name_a_setting_name_goes_on_after_is_not_that_concept():
    # written for this test: amax_history_len is the window's length, not the delayed-scaling recipe; the recipe itself,
    # a degree key (tp_size) and a key the concept ends (dcn_pipeline_parallelism) still name their terms
    found = terms("Set amax_history_len=16 with delayed scaling; tp_size=8 and dcn_pipeline_parallelism=2 as before.")
    assert [m for m in found.values() if "amax_history" in m] == []
    assert {"fp8-delayed-scaling", "tensor-parallelism", "pipeline-parallelism"} <= set(found)


@pytest.mark.parametrize("sentence, term_id", [
    # each sentence written for its term; the entry's source is in field_vocabulary.json
    ("With TORCH_NCCL_AVOID_RECORD_STREAMS=1 the gathered weights are freed sooner.", "torch-nccl-avoid-record-streams"),
    ("We pinned NCCL_IB_HCA to the four rails of the node.", "nccl-ib-hca"),
    ("The gradients are rounded with stochastic rounding to keep them unbiased.", "stochastic-rounding"),
    ("Random Hadamard transforms spread the outliers before FP4 quantization.", "hadamard-transform"),
    ("Micron's stacks reach a pin speed above 9 Gb/s.", "pin-speed"),
    ("Ironwood adds a SparseCore for embedding-heavy work.", "sparsecore"),
    ("We tried Tutel for the MoE layers.", "tutel"),
    ("The job died with a broken pipe after rank 3 crashed.", "broken-pipe"),
    ("They report the geometric mean of the two estimates.", "geometric-mean"),
    ("We fine-tune Qwen2.5-32B on one node.", "qwen-family"),
    ("OPT-175B was trained on 992 A100 GPUs.", "opt"),
    ("tokens are sent to their experts (dispatch all-to-all) and back (combine all-to-all)", "moe-dispatch-combine"),
])
def test_long_tail_terms_are_found(sentence, term_id):
    assert term_id in terms(sentence)


def test_model_names_keep_their_size_as_written():
    found = terms("We compare Llama-2-7b-hf with mpt-7b.")
    assert found["llama-2"]["found_as"] == "Llama-2-7b-hf" and found["mpt"]["found_as"] == "mpt-7b"
    assert term_display.display(found["llama-2"], "en") == (
        "Llama-2-7b-hf", "Llama-2 model with 7 billion parameters, its weights in Hugging Face Transformers format")


def test_every_new_entry_has_a_source_and_both_languages():
    entries = json.loads(VOCABULARY.read_text(encoding="utf-8"))["terms"]
    for entry in entries:
        assert entry["source"]["url"].startswith("https://"), entry["id"]
        assert entry["definition"] and entry["ar"]["term"] and entry["ar"]["definition"], entry["id"]
        for reading in entry.get("readings") or []:
            assert reading["definition"] and reading["ar_term"] and reading["ar_definition"], entry["id"]


def test_neighbour_rules_read_only_the_words_against_the_term():
    entry = {"readings": [{"cues": []}, {"after_words": ["dram"], "cues": []}, {"followed_by": r"^\s+of tokens", "cues": []}]}
    text = "eight DRAM chips; chips of tokens; memory, chips"
    assert senses.by_neighbours(entry, text, text.index("chips"), text.index("chips") + 5) == 1
    second = text.index("chips of")
    assert senses.by_neighbours(entry, text, second, second + 5) == 2
    last = text.rindex("chips")
    assert senses.by_neighbours(entry, text, last, last + 5) is None  # a comma breaks the compound


def test_a_key_no_framework_is_named_for_is_glossed_by_its_words_not_as_one_frameworks():
    found = terms("Set model.num_moe_experts=8 in the YAML before launching.")
    item = found["key:model.num_moe_experts"]
    assert item["expansion"] == "a configuration setting" and "number of mixture-of-experts experts" in item["definition"]
    arabic = terms("اضبط model.num_moe_experts على 8.", "ar")["key:model.num_moe_experts"]
    assert "num (عدد)" in arabic["definition"] and "experts" not in arabic["expansion"]


def test_a_key_with_an_unknown_word_is_left_out_rather_than_guessed():
    assert not [t for t in terms("We call warmup_foo_bar once per run.").values() if t["id"].startswith("key:")]


def test_options_listed_in_a_prose_sentence_are_terms_but_a_command_line_is_left_to_the_config_reader():
    prose = terms("To avoid OOM I used --recompute-granularity full, --recompute-method uniform and --recompute-num-layers 2.")
    assert any(t.startswith("option:") and "recompute-method" in t for t in prose)
    command = terms("python pretrain_gpt.py --recompute-granularity full --recompute-method uniform --recompute-num-layers 2")
    assert not any(t.startswith("option:") for t in command)


@pytest.mark.parametrize("sentence, term_id", [
    ("We ran on H200x2 for the smoke test.", "nvidia-h200"),  # a count glued to the chip's name
    ("Throughput fell to 21 samples/s with FSDP.", "samples-per-second"),
    ("Weights in 16-bit precision take two bytes each.", "sixteen-bit-precision"),
    ("GQA cuts the number of key and value heads.", "keys-and-values"),
    ("Each TPU v4 cube is wired as a torus and OCS links the cubes.", "tpu-cube"),
    ("The cluster uses NDR InfiniBand with one ConnectX-7 per GPU.", "infiniband-speed-grade"),
])
def test_more_long_tail_terms_are_found(sentence, term_id):
    assert term_id in terms(sentence)


def test_a_context_word_stays_ordinary_outside_its_field():
    assert "tpu-cube" not in terms("Cut the cheese into a cube before serving.")
    assert "infiniband-speed-grade" not in terms("The photo was shot in HDR on a phone.")


def test_words_the_text_wrote_are_named_rather_than_an_acronym_it_never_used():
    item = terms("يقضي المعالج معظم وقته في ضرب المصفوفات.", "ar")["matrix-multiplication"]
    name, expansion = term_display.display(item, "ar")
    assert "GEMM" not in f"{name} {expansion}" and "ضرب المصفوفات" in name


def test_a_batch_counted_per_device_is_not_the_global_batch():
    per_gpu = terms("The effective batch size per GPU is small in your case.")
    assert "per device" in per_gpu["global-batch-size"]["expansion"]
    total = terms("The effective batch size is 1024 sequences over all replicas.")
    assert total["global-batch-size"]["expansion"] == "global batch size"


def test_cpu_ram_is_the_hosts_memory():
    assert "host" in terms("Loading the checkpoint needs 2 TB of CPU RAM.")["ram"]["expansion"]


def test_a_plain_key_in_a_config_of_an_unnamed_framework_is_not_another_frameworks_setting():
    found = terms("In the OLMo config we set global_batch_size to 2048 and num_experts to 64.")
    assert not [t for t in found.values() if "Megatron" in (t.get("expansion") or "")]
    assert found["key:num_experts"]["expansion"] == "a configuration setting"


def test_alpas_two_levels_are_a_term():
    assert "two-level-parallelism" in terms("Its two-level hierarchical space of parallelism follows the cluster.")


def test_a_tpu_cluster_names_the_tpu_and_its_chip_links_are_ici():
    found = terms("Pushed to its extreme this is a TPU cluster whose inter-chip connection is not the bottleneck.")
    assert {"tpu", "cluster", "ici"} <= set(found)
    assert "ici" not in terms("Eight GPUs per node share one inter-chip connection through NVSwitch.")


def test_spreading_compute_over_gpus_in_arabic_is_not_expert_balancing():
    work = terms("من مزايا استخدام وحدات معالجة الرسومات المتعددة القدرة على توزيع الحمل الحسابي.", "ar")["load-balancing"]
    assert "الخبراء" not in work["expansion"]
    experts = terms("يوزع الموجه الرموز على الخبراء، وتمنع موازنة الحمل تكدسها عند خبير واحد.", "ar")["load-balancing"]
    assert "الخبراء" in experts["expansion"]


@pytest.mark.parametrize("sentence, term_id", [
    ("Switch Transformers route each token with top-1 routing to one expert.", "top-k-routing"),
    ("MegaBlocks computes the experts without dropping tokens.", "megablocks"),
    ("We fine-tuned an instruction-tuned Llama with torchtune.", "instruct-model"),  # inside a name the name's gloss says it (test_model_names)
    ("The job runs on a Ray cluster of 16 nodes.", "ray"),
    ("ECMP hashing put two large flows on one link.", "ecmp"),
])
def test_frameworks_routing_and_fabric_words_are_found(sentence, term_id):
    assert term_id in terms(sentence)


def test_top_1_outside_a_moe_text_is_an_ordinary_word():
    assert "top-k-routing" not in terms("The top-1 accuracy on the image benchmark improved.")
