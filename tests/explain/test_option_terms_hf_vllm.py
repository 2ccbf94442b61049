"""Options of Hugging Face Transformers (TrainingArguments, BitsAndBytesConfig, from_pretrained, PEFT LoraConfig) and of
vLLM (EngineArgs) named in prose are glossed from data/options/transformers.json and data/options/vllm.json; a generic
snake_case name is glossed only where the text names the table's framework. All texts are written for these tests; the
meanings asserted are the ones the tables read from the sources they cite."""

import json
import re

from calculators.resources import data_dir
from service.configs import options
from service.explain import option_terms
from service.explain.document import Document
from service.explain.terms import read_terms

ARABIC = re.compile(r"[\u0600-\u06FF]")


def terms(text: str, lang: str = "en") -> dict[str, dict]:
    doc = Document(text=text, lang=lang)
    read_terms(doc)
    return {t["found_as"]: t for t in doc.terms}


QLORA_FSDP = "I set bnb_4bit_quant_storage=torch.bfloat16 and fsdp_cpu_ram_efficient_loading: true with the Trainer."


def test_bnb_storage_and_fsdp_loading_are_the_trainers_settings_in_english():
    # BitsAndBytesConfig.bnb_4bit_quant_storage (quantization_config.py: "storage type to pack the quantized 4-bit
    # params", default torch.uint8); fsdp_config cpu_ram_efficient_loading (training_args.py: "only the first process
    # loads the pretrained model checkpoint while all other processes have empty weights"; the fsdp_ prefix is stripped).
    found = terms(QLORA_FSDP)
    storage, loading = found["bnb_4bit_quant_storage"], found["fsdp_cpu_ram_efficient_loading"]
    assert storage["id"] == "option:transformers:bnb_4bit_quant_storage"
    assert storage["expansion"] == "a Hugging Face Transformers setting"
    assert "4-bit" in storage["definition"] and "uint8" in storage["definition"]
    assert loading["id"] == "option:transformers:fsdp_config.cpu_ram_efficient_loading"
    assert "first process" in loading["definition"] and "empty weights" in loading["definition"]
    assert "00349ae87eddc872ffa21a8a54f264375a0056a8" in loading["source"]


def test_bnb_storage_and_fsdp_loading_in_arabic():
    # The same two options (same sources), glossed in Arabic with the table's Arabic meaning.
    found = terms(QLORA_FSDP, "ar")
    storage, loading = found["bnb_4bit_quant_storage"], found["fsdp_cpu_ram_efficient_loading"]
    assert storage["expansion"] == "إعداد في Hugging Face Transformers"
    assert ARABIC.search(storage["definition"]) and "4 بت" in storage["definition"]
    assert ARABIC.search(loading["definition"]) and "الرتبة 0" in loading["definition"]


def test_vllm_flag_and_key_are_vllms_settings():
    # EngineArgs.tensor_parallel_size (--tensor-parallel-size, "Number of tensor parallel replicas") and
    # gpu_memory_utilization (CacheConfig, default 0.9: the fraction of GPU memory the instance may use), vllm/engine/arg_utils.py.
    found = terms("We serve the model with vLLM at --tensor-parallel-size 4 and gpu_memory_utilization 0.9 on each node.")
    tp, mem = found["--tensor-parallel-size"], found["gpu_memory_utilization"]
    assert tp["id"] == "option:vllm:--tensor-parallel-size" and tp["expansion"] == "a vLLM setting"
    assert "tensor parallelism" in tp["definition"]
    assert mem["id"] == "option:vllm:--gpu-memory-utilization" and "Fraction of each GPU's memory" in mem["definition"]
    ar = terms("نشغّل النموذج في vLLM مع --tensor-parallel-size 4 و gpu_memory_utilization 0.9.", "ar")
    assert "توازي الموتر" in ar["--tensor-parallel-size"]["definition"]
    assert ARABIC.search(ar["gpu_memory_utilization"]["definition"])


def test_vllm_scheduler_and_cache_options():
    # SchedulerConfig.max_num_seqs ("Maximum number of sequences per iteration") and CacheConfig.enable_prefix_caching
    # ("Enables automatic prefix caching"), vllm/engine/arg_utils.py.
    found = terms("In vllm we raised max_num_seqs to 512 and turned on enable_prefix_caching for the shared system prompt.")
    assert found["max_num_seqs"]["id"] == "option:vllm:--max-num-seqs"
    assert "prefix" in found["enable_prefix_caching"]["definition"].lower()


def test_trainer_memory_options():
    # TrainingArguments.gradient_checkpointing ("trade compute for memory") and per_device_train_batch_size ("The batch
    # size per device for training"), training_args.py; LoraConfig.lora_alpha (peft lora/config.py: scaling lora_alpha/r).
    found = terms("With the Trainer we turned on gradient_checkpointing, kept per_device_train_batch_size at 2 and used "
                  "lora_alpha 32 in the LoraConfig.")
    assert "recompute" in found["gradient_checkpointing"]["definition"]
    assert "batch" in found["per_device_train_batch_size"]["definition"]
    assert "lora_alpha / r" in found["lora_alpha"]["definition"]


def test_a_generic_key_is_not_the_trainers_where_the_text_names_another_framework():
    # learning_rate and max_steps are TrainingArguments fields, but a Megatron text's keys are not the Trainer's
    # (the rule of option_terms: a framework the text names decides).
    found = terms("In Megatron we read learning_rate and max_steps from our own YAML.")
    assert not any(t["id"].startswith("option:transformers") for t in found.values())
    assert not any(t.get("source") and "transformers" in str(t["source"]) for t in found.values())


def test_an_unrelated_snake_case_word_is_not_glossed():
    # my_custom_flag is in no table; learning_rate is only in the Trainer's table, which this text does not name.
    found = terms("Our own loop reads my_custom_flag and learning_rate from a YAML file.")
    assert "my_custom_flag" not in found
    assert not any(t["id"].startswith("option:") for t in found.values())
    assert "learning_rate" not in found or "Transformers" not in found["learning_rate"]["expansion"]


def test_lightning_trainer_does_not_name_hugging_face():
    # "Trainer" names the Hugging Face class, but a Lightning text's Trainer is Lightning's own.
    assert "transformers" not in option_terms.named_frameworks("The Lightning Trainer reads max_steps from the config.")
    assert "transformers" in option_terms.named_frameworks("The Trainer reads max_steps from TrainingArguments.")
    assert "transformers" not in option_terms.named_frameworks("We train large transformers with tensor parallelism.")


def test_the_new_tables_are_registered_and_complete():
    # Both tables load through the config reader's option module and follow data/options/README.md.
    for framework, least in (("transformers", 60), ("vllm", 40)):
        assert framework in options.FRAMEWORKS and framework in options.PROSE_ONLY
        table = json.loads((data_dir() / "options" / f"{framework}.json").read_text(encoding="utf-8"))
        assert len(table["options"]) >= least
        for name, entry in table["options"].items():
            assert re.search(r"\b[0-9a-f]{40}\b", entry["source"]), name
            assert ARABIC.search(entry["meaning"]["ar"]) and ARABIC.search(entry["cost_or_benefit"]["ar"]), name
    assert options.canonical("vllm", "tensor_parallel_size") == "--tensor-parallel-size"
    assert options.canonical("transformers", "torch_dtype") == "dtype"


def test_a_flag_that_opens_a_dotted_group_is_not_read_as_the_bare_flag():
    # a round-13 reader: "--optimizer ... adam (AdamW) or sgd" for EasyLM's "--optimizer.accumulate_gradient_steps"
    from service.explain.pipeline import analyse
    ids = {t["id"] for t in analyse("I set --optimizer.accumulate_gradient_steps=4 in EasyLM and it ran out of memory.", "en").terms}
    assert not any(i.startswith("option:") and i.endswith(":--optimizer") for i in ids)
