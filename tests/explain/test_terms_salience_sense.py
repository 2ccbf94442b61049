"""Issue 18, terms: senses from context (each a glossary reading with its cues and source), the long tail of the field's
words, flags and config keys glossed from the option tables, and everyday words listed only where they help. All texts
are written for these tests."""

import re

import pytest

from service.explain.compose import explain_offline
from service.explain.document import Document
from service.explain.terms import read_terms
from service.i18n.messages import messages


def read(text: str, lang: str = "en") -> Document:
    doc = Document(text=text, lang=lang)
    read_terms(doc)
    return doc


def sense(text: str, term_id: str, lang: str = "en") -> str:
    return next(t["expansion_en"] for t in read(text, lang).terms if t["id"] == term_id)


@pytest.mark.parametrize("text, term_id, expected", [
    ("I copied the parameters in the table below into my launch script, but the job still OOMs.", "parameters", "configuration settings"),
    ("The model has 13 billion parameters, so the weights alone take 26 GB in bf16.", "parameters", "weights"),
    ("We run CP=4 with TP=8 to fit 128k sequence length.", "context-parallelism", "context parallelism"),
    ("Resume from the latest CP saved last night; loading the checkpoint takes 5 minutes.", "context-parallelism", "checkpoint"),
    # a size after the name is a degree, and "saved" counted once although "save" starts it too
    ("At 1M tokens with cp_size=8 the 7.1 GB saved matches the boundary inputs; save the copy for long context.",
     "context-parallelism", "context parallelism"),
    ("With TP 8 and PP 4 the all-reduce stays inside the node.", "tensor-parallelism", "tensor parallelism"),
    ("In MaxText the sp axis shards the sequence across chips with ring attention over ICI.", "sequence-parallelism", "mesh axis"),
    ("An Ironwood superpod links 9,216 TPU chips over ICI.", "superpod", "TPU superpod"),
    ("A DGX SuperPOD of H100 nodes uses InfiniBand between servers.", "superpod", "NVIDIA DGX SuperPOD"),
    ("ZeRO-Offload keeps the optimizer state in CPU RAM on the host, so each server needs 1 TB of RAM.", "ram", "host memory"),
    ("Throughput is 400 TFLOP/s per GPU, about 40% MFU.", "throughput", "TFLOP/s"),
    ("Throughput is 3,000 tokens/s per GPU.", "throughput", "throughput"),
    ("MP=8 across the node, with model parallelism over NVLink and DP across nodes.", "model-parallelism", "model parallelism"),
    ("MaxText offers these sharding axes on a TPU slice: Tensor Parallelism, FSDP and Sequence Parallel.",
     "sequence-parallelism", "mesh axis"),
    ("During pretraining the activations and KV tensors of a 128k context are split across chips.", "kv-cache", "keys and values"),
    ("At inference the KV cache grows with every generated token.", "kv-cache", "key-value cache"),
])
def test_the_sense_follows_the_context(text, term_id, expected):
    assert expected in sense(text, term_id)


def test_a_human_expert_or_an_everyday_slice_is_no_term():
    ids = {t["id"] for t in read("With the support of experts from two national labs, the model reached 150 TFLOP/s per GPU.").terms}
    assert "expert" not in ids
    ids = {t["id"] for t in read("Each GPU is fed a slice of the data and the gradients are averaged at the end of the step.").terms}
    assert "tpu-slice" not in ids


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_long_tail_has_definitions_in_both_languages(lang):
    text = ("We submit the job with sbatch on SLURM, fine-tune with PEFT and LoRA, and the downstream stage waits for the "
            "upstream stage; training costs 6NP FLOPs. The AGI question aside, each mini-batch is split into micro-batches; "
            "NCCL_ALGO=Tree.")
    terms = {t["id"]: t for t in read(text, lang).terms}
    for term_id in ("slurm", "peft", "lora", "pipeline-upstream-downstream", "six-nd-rule", "agi", "mini-batch",
                    "microbatch", "nccl-algorithm"):
        assert term_id in terms, sorted(terms)
        definition = terms[term_id]["definition"]
        assert definition and (lang == "en" or re.search(r"[\u0600-\u06FF]", definition)), (term_id, definition)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_flag_named_in_prose_is_glossed_from_the_option_tables(lang):
    text = ("In Megatron we turned on --overlap-grad-reduce, and the step got 9% faster on 64 GPUs because the gradient "
            "all-reduce now hides behind the backward pass; tp_comm_overlap did nothing.")
    answer = explain_offline(text, lang)
    options = [t for t in answer["terms"] if t["id"].startswith("option:")]
    assert [t["term"] for t in options] == ["--overlap-grad-reduce", "tp_comm_overlap"]  # the flag's attribute form too
    assert "Megatron-LM" in options[0]["expansion"]
    section = answer["explanation"].split("## " + messages(lang)["headings"]["terms"], 1)[1]
    line = next(line for line in section.splitlines() if line.startswith("- **--overlap-grad-reduce**"))
    assert ("backward pass" in line) if lang == "en" else ("التمرير الخلفي" in line)


def test_a_config_key_takes_the_framework_the_text_names_and_commands_are_left_to_the_config_reader():
    doc = read("In MaxText, per_device_batch_size is per chip; gradient_accumulation_steps multiplies it.")
    found = {t["term"]: t["id"] for t in doc.terms if t["id"].startswith("option:")}
    assert found == {"per_device_batch_size": "option:maxtext:per_device_batch_size",
                     "gradient_accumulation_steps": "option:maxtext:gradient_accumulation_steps"}
    command = read("python train.py per_device_batch_size=4 ici_fsdp_parallelism=8 steps=10")
    assert not [t for t in command.terms if t["id"].startswith("option:")]


def test_an_everyday_word_in_a_special_sense_is_listed_though_the_passage_has_terms_of_its_own():
    text = ("Our FSDP run on 64 H100s with activation checkpointing diverged; "
            "the parameters in the table below are the settings of the launch script.")
    answer = explain_offline(text, "en")
    section = answer["explanation"].split("## The terms", 1)[1]
    assert "**parameters** (configuration settings)" in section, section
    assert "**GPU**" not in section  # an everyday word in its everyday sense is left out beside three terms of art


def test_flags_dotted_keys_and_attribute_forms_are_options_and_unknown_names_are_not():
    found = lambda text: [(t["term"], t["id"]) for t in read(text).terms if t["id"].startswith("option:")]
    assert found("In NeMo, model.micro_batch_size is 1 and trainer.devices is 8.") == [
        ("model.micro_batch_size", "option:nemo:model.micro_batch_size"), ("trainer.devices", "option:nemo:trainer.devices")]
    assert found("Megatron reads args.overlap_grad_reduce before the first step.") == [
        ("overlap_grad_reduce", "option:megatron-lm:--overlap-grad-reduce")]
    assert found("We renamed my_custom_flag and --no-such-option; see base.yml, e.g. the defaults.") == []


def test_an_imbalance_is_the_experts_load_only_beside_moe_words():
    assert "load-balancing" in {t["id"] for t in read("Routing imbalances leave some experts idle while others overflow.").terms}
    assert "load-balancing" not in {t["id"] for t in read("The imbalance between supply and demand raised GPU prices.").terms}


def test_a_named_machine_is_the_passages_own_term_though_its_entry_is_everyday():
    text = ("El Capitan reaches about 1.7 exaflops in FP64, while a TPU pod with ICI links and HBM on every chip "
            "is rated in FP8.")  # four terms of art: an everyday word in its everyday sense would be left out
    section = explain_offline(text, "en")["explanation"].split("## The terms", 1)[1]
    line = next(line for line in section.splitlines() if line.startswith(("- **supercomputer**", "- **El Capitan**")))
    assert "El Capitan" in line and "supercomputer" in line  # named as the text wrote it, with what it is


def test_more_of_the_long_tail_with_context_where_a_word_is_ordinary():
    ids = lambda text: {t["id"] for t in read(text).terms}
    assert {"job-scheduler", "slurm"} <= ids("We queue the run on Kubernetes instead of SLURM.")
    assert "fp8-amax" in ids("With current scaling each FP8 tensor's scale comes from its amax in this step.")
    assert "lora" in ids("We fine-tune with adapters of rank 16.")
    assert "lora" not in ids("The power adapter failed.")


def test_a_plain_config_key_is_glossed_only_when_the_text_names_a_framework_that_has_it():
    # Written for this test: many codebases (OLMo, Hugging Face) use these names; another framework's meaning would
    # be a wrong sense, so without a named framework they are not glossed from the option tables.
    bare = explain_offline("We set global_batch_size to 1024 and num_experts to 64 in our own trainer.", "en")
    assert not [t for t in bare["terms"] if str(t.get("id", "")).startswith("option:")]
    named = explain_offline("In Megatron-LM we set global_batch_size to 1024 and num_experts to 64.", "en")
    assert any(str(t.get("id", "")).startswith("option:") for t in named["terms"])


def test_throughput_is_read_as_a_flop_rate_only_beside_a_flop_rate():
    # Written for this test: an MFU beside a tokens/s throughput does not make the throughput a TFLOP/s figure.
    def sense(text):
        return next(t.get("expansion") for t in explain_offline(text, "en")["terms"] if t["term"].lower() == "throughput")
    assert "TFLOP/s" not in sense("Our throughput is 9600 tokens/s per node, which gives an MFU of 40% on H100s.")
    assert "TFLOP/s" in sense("The throughput reached 420 TFLOP/s per GPU on H100s.")
