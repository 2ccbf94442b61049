"""Ordinary words that are a term only in context ('steps' after a count, 'cards' beside GPUs, 'collective' beside a
collective's name, 'bidirectional' beside a link or a schedule), and a wrong sense removed (GEGLU is not SwiGLU).
All sentences are written for these tests."""

from service.explain import glossary


def _ids(text: str) -> dict[str, str]:
    return {m.entry["id"]: m.found_as for m in glossary.load().find(text, extended=True)}


def test_steps_after_a_count_in_a_training_text_are_training_steps():
    assert _ids("We trained for 80000 steps with a warmup of 2000 on 64 GPUs.").get("training-step") == "steps"
    assert "training-step" not in _ids("Read the steps in the guide before training starts.")  # no count before


def test_cards_count_gpus_only_beside_gpu_words_and_never_a_network_card():
    assert _ids("The job needs 256 cards, each an H100 with NVLink.").get("gpu") == "cards"
    assert "gpu" not in _ids("Bring two cards to the meeting.")
    assert _ids("Each server holds eight network cards next to its GPUs.").get("nic") == "network cards"


def test_collective_alone_is_the_operation_only_beside_a_collectives_name():
    assert "collective-communication" in _ids("The slowest collective in the step is the all-reduce of the gradients.")
    assert "collective-communication" not in _ids("The report was a collective effort of the team.")


def test_bidirectional_is_a_links_sense_beside_bandwidth_and_none_beside_a_translator():
    assert "unidirectional-vs-bidirectional" in _ids("The link gives 400 GB/s bidirectional bandwidth, half per way.")
    assert "unidirectional-vs-bidirectional" not in _ids("A bidirectional translator turns English into French and back.")
    assert "unidirectional-vs-bidirectional" not in _ids("مترجم ثنائي الاتجاه بين العربية والإنجليزية.")


def test_geglu_is_not_glossed_as_swiglu():
    assert "swiglu" not in _ids("The feed-forward block uses GeGLU instead of the plain GELU.")
    assert "swiglu" in _ids("The feed-forward block uses SwiGLU.")


def test_arabic_broken_plurals_are_terms_only_beside_their_fields_words():
    assert _ids("تربط الشبكة العقد عبر InfiniBand وفي كل منها ثماني وحدات GPU.").get("node") == "العقد"
    assert "node" not in _ids("وقعت الشركة العقد مع المورد في العام الماضي.")  # a contract
    assert _ids("دُرّب النموذج على تريليونات من الرموز.").get("token") == "الرموز"
    assert "token" not in _ids("تظهر الرموز التعبيرية في الرسائل.")  # symbols


def test_scale_up_is_the_fast_domain_only_beside_its_network_words():
    assert "nvlink-domain" in _ids("NVLink carries the scale-up traffic and Ethernet the scale-out traffic.")
    assert "nvlink-domain" not in _ids("We will scale up the training run next quarter.")


def test_field_phrases_the_glossary_lacked_are_found():
    found = _ids("The encoder-only model swaps GEGLU for squared ReLU; the HPC site measured 700 GBps duplex on NVLink.")
    assert {"encoder-only", "geglu", "squared-relu", "hpc", "full-duplex"} <= set(found)
    assert "full-duplex" not in _ids("They rent a duplex apartment near the office.")


def test_the_arabic_adjective_improved_is_not_the_optimizer():
    assert "optimizer" not in _ids("وصفوا النموذج بأنه ذكاء محسن بعد التدريب على التدرجات.")
    assert _ids("يحفظ المحسن AdamW لحظتين لكل وزن.").get("optimizer") == "المحسن"


def _sense(text: str, term_id: str) -> str:
    from service.explain.document import Document
    from service.explain.terms import read_terms

    doc = Document(text=text, lang="en")
    read_terms(doc)
    return next(t["expansion"] for t in doc.terms if t["id"] == term_id)


def test_ram_beside_the_cores_on_chip_is_on_chip_memory_not_hbm():
    assert "on-chip" in _sense("Each of the IPU's cores has its own on-chip RAM next to it.", "ram")
    assert "HBM" in _sense("The accelerator carries 96 GB of RAM per chip, all HBM.", "ram")


def test_parameters_a_user_changes_are_settings():
    assert _sense("I get OOM whenever I change some parameters in the launch file.", "parameters") == "configuration settings"


def test_short_abbreviations_are_terms_only_beside_their_fields_words():
    assert _ids("Our TE FP8 kernels run slower than FlashAttention on the H100.").get("transformer-engine") == "TE"
    assert "transformer-engine" not in _ids("The TE office opens at nine.")
    assert _ids("With NVLS the AR reaches 470 GB/s busbw in nccl-tests.").get("all-reduce") == "AR"
    assert "all-reduce" not in _ids("The model translates AR to EN and back.")
    assert _ids("We launch the pax GPT config on JAX with XLA flags.").get("paxml") == "pax"


def test_dense_after_a_models_size_is_a_dense_model_and_after_a_count_is_not():
    assert _ids("They trained a 70B dense and a 47B MoE with eight experts.").get("dense-model") == "dense"
    assert "dense-model" not in _ids("The model stacks 3 dense layers before the experts.")
