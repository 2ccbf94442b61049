"""A gist never keeps a section's label, a list's number or a note's missing subject (service/explain/gist.py,
gist_side.with_subject). Texts written for these tests."""

from service.explain.compose import explain_offline


def _gist(text: str) -> str:
    return " ".join(item["text"] for item in explain_offline(text, "en")["gist"])


def test_tldr_is_one_word_not_a_sentence_boundary():
    gist = _gist("TL;DR We cut step time by 30% on 64 H100s by overlapping the all-gather with compute. The rest explains how.")
    assert "DR we" not in gist and "DR We" not in gist and "30%" in gist


def test_a_section_label_is_not_a_speaker():
    gist = _gist("Problem: In our disaggregated serving setup, copying the KV cache through host memory adds 120 ms to every "
                 "request, which doubles the time to first token.")
    assert "Problem says" not in gist and "disaggregated" in gist


def test_a_list_number_is_dropped():
    gist = _gist("(2) As all-to-all traffic becomes the bottleneck at large expert-parallel sizes, we overlap it with the "
                 "shared expert's computation.")
    assert "(2)" not in gist


def test_a_notes_verb_gets_the_subject_its_item_named():
    text = ("Tensor Parallelism (TP): Splits each matrix across GPUs and needs an all-reduce per layer. "
            "Pipeline Parallelism (PP): Places groups of layers on different nodes. Tolerates slow networks well, but "
            "introduces pipeline bubbles that need many micro-batches to hide.")
    gist = _gist(text)
    assert "that tolerates" not in gist.lower()


def test_a_general_remark_that_a_technique_stalls_is_no_problem_of_the_authors():
    # a round-19 reader: "The author reports a problem with the large language model: it stalls or stops" for a text on
    # why training large models needs a robust platform
    text = "تشهد النماذج نموًا سريعًا. ومع ذلك، فإن تدريب نماذج اللغات الكبيرة (LLMs) يتعطل كثيرًا بسبب أعطال العتاد، ولذلك يلزم نظام قوي يمكن الاعتماد عليه."
    assert "reports a problem" not in _gist(text)


def test_lora_rank_is_said_without_an_alpha_the_text_never_changes():
    # a round-18 reader: "ضبط رتبة LoRA ومعامل alpha من 8 إلى 6" added an alpha change the text does not make
    from service.explain.compose import explain_offline
    answer = explain_offline("سنقوم بما يلي: - ضبط lora_rank من 8 إلى 6 لتقليل استخدام الذاكرة أثناء الضبط الدقيق.", "ar")
    assert "alpha" not in " ".join(g["text"] for g in answer["gist"])


def test_a_description_is_of_what_it_names_first():
    # a round-18 reader: "يشرح النص CoWoS" for a text whose sentence describes the SN40L RDU as a CoWoS-based design
    from service.explain.compose import explain_offline
    text = ("This talk describes SambaNova's approach with the SambaNova SN40L Reconfigurable Dataflow Unit (RDU) chip. "
            "The SN40L RDU is a 2.5D CoWoS chiplet-based design containing two RDU dies on a silicon interposer.")
    gist = " ".join(g["text"] for g in explain_offline(text, "ar")["gist"])
    assert "CoWoS" not in gist
