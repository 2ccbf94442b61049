"""The terms section read as a list: no item restating its name, none twice, no clause as a name, no aside about a
model the passage never mentions (blind readers of the round-5 held-out set, issue 18)."""

from service.explain import term_display, term_items, text_definitions
from service.explain.term_items import Item


def test_a_definition_that_only_restates_its_name_is_dropped():
    assert term_items.restates_head("storage nodes", "", "The storage node in a cluster.")
    assert term_items.restates_head("max_seq_len", "a configuration setting", "A setting whose name reads “maximum sequence length”.")
    assert not term_items.restates_head("TPU v4", "", "Google's fourth TPU generation, sold in pods of thousands of chips.")
    kept = term_items.cleaned([Item("storage nodes", "", "The storage node in a cluster."),
                               Item("all-reduce", "", "A collective that sums arrays across chips and gives every chip the sum.")])
    assert [i.name for i in kept] == ["all-reduce"]


def test_the_same_name_written_differently_is_listed_once():
    kept = term_items.cleaned([Item("Mixtral 8x7B", "a model", "Mistral's sparse mixture-of-experts model with eight experts."),
                               Item("Mixtral-8x7b", "a model", "Mistral's sparse mixture-of-experts model with eight experts."),
                               Item("micro-batch sizes", "", "How many samples one chip runs in one forward pass.")])
    assert [i.name for i in kept] == ["Mixtral 8x7B", "micro-batch sizes"]
    assert term_items.same_thing("Qwen 2.5 7B") == term_items.same_thing("qwen2.5-7b")
    assert term_items.same_thing("FLOPS") != term_items.same_thing("FLOPs")  # a rate and an amount
    assert term_items.same_thing("PFLOP") != term_items.same_thing("PFLOPs")
    flags = term_items.cleaned([Item("--use-flash-attn", "a command-line flag", "Uses the fused attention kernel."),
                                Item("--bf16", "a command-line flag", "Runs the model in bfloat16.")])
    assert len(flags) == 2  # a shared kind in brackets makes no two items the same


def test_one_definition_under_several_names_is_said_once():
    family = "The open language models of one lab, released with their data and training code."
    kept = term_items.cleaned([Item("Pythia-1B", "", family), Item("Pythia-12B", "", family)])
    assert len(kept) == 1 and kept[0].name == "Pythia-1B**, **Pythia-12B"


def test_an_expansion_equal_to_the_definition_is_not_said_twice():
    kept = term_items.cleaned([Item("TPU v2", "Google's second TPU generation", "Google's second TPU generation.")])
    assert kept[0].expansion == ""
    opening = term_items.cleaned([Item("TPU v2", "Google's second TPU generation", "Google's second TPU generation, sold in pods.")])
    assert opening[0] == Item("TPU v2", "", "Google's second TPU generation, sold in pods.")
    arabic = term_items.cleaned([Item("TPU v2 (الجيل الثاني من TPU)", "", "الجيل الثاني من TPU، يباع في مجموعات.")])
    assert arabic[0].name == "TPU v2"
    other = term_items.cleaned([Item("TPU v2", "a Google chip", "Google's second TPU generation.")])
    assert other[0].expansion == "a Google chip"


def test_a_clause_fragment_is_never_a_term_head():
    assert term_items.clause_fragment("gradients can be reduced with")
    assert term_items.clause_fragment("the weights are sharded")
    assert not term_items.clause_fragment("pipeline parallel degree")
    term = {"id": "x", "term": "gradient reduction", "expansion": "", "category": "concept",
            "found_as": "gradients can be reduced with"}
    assert term_display.display(term, "en")[0] == "gradient reduction"


def test_an_aside_about_a_model_the_passage_never_mentions_is_cut_whole():
    definition = "How many tokens a model reads at once (for example much longer for GPT-4 and Qwen3). It grows with training."
    shown = term_items.without_foreign_names(definition, "We trained a 7B model with a longer window.", "context length")
    assert shown == "How many tokens a model reads at once. It grows with training."
    assert term_items.without_foreign_names(definition, "GPT-4 and Qwen3 use longer windows.", "context length") == definition
    later = "A chip for training. The largest model trained on it was GPT-3."
    assert term_items.without_foreign_names(later, "Our chip trains well.", "chip") == "A chip for training."
    clause = "A family of open models in several sizes; the largest was trained on TPU v5p pods; it is widely used."
    assert term_items.without_foreign_names(clause, "Our 8B model", "Gemma") == "A family of open models in several sizes; it is widely used."
    inside = "Small formats (the name gives the bits; A100 has none of them) used for matrix products."
    assert term_items.without_foreign_names(inside, "fp8 training", "fp8") == "Small formats used for matrix products."
    assert term_items.without_foreign_names(inside, "fp8 on A100", "fp8") == inside  # a semicolon inside brackets splits nothing
    slices = "A slice's name; for TPU v2, v3 and v4 the size counts cores, two per chip."
    # about the passage's own chip (numbers aside: "two per chip" is a count the passage never gives, cut since round 56)
    assert term_items.without_foreign_names(slices, "a v3-256 slice", "TPU v3-256", numbers=False) == slices
    assert term_items.without_foreign_names(slices, "a v4-8 slice with 2 cores per chip", "v4-8") == slices
    arabic_list = "اسم القطاع؛ ففي TPU v2 وv3 يعد الحجم الأنوية."
    assert term_items.without_foreign_names(arabic_list, "قطاع v3-8", "v3-8") == arabic_list  # "وv3": the passage's chip
    stage = "Sharding strategies: one shards everything (like ZeRO-3); another keeps weights whole (like ZeRO-2)."
    assert term_items.without_foreign_names(stage, "SHARD_GRAD_OP is fast", "sharding") == stage  # a stage's name is no model
    arabic = "بطاقة تباع أزواجا؛ وتعمل بحد طاقة أدنى من H100؛ وتبرد بالهواء."
    assert term_items.without_foreign_names(arabic, "بطاقة PCIe", "NVL") == "بطاقة تباع أزواجا؛ وتبرد بالهواء."
    assert "bf16" in term_items.without_foreign_names("A format (like bf16) for weights.", "fp8 weights", "fp8")


def test_an_acronym_the_text_only_spells_out_is_said_as_its_words():
    text = "We quantize with Sparse Weight Folding (SWF) on every layer. SWF keeps accuracy."
    items = text_definitions.items(text, text_definitions.find(text), "en", [], set())
    assert [i["definition"] for i in items] == ["Short for Sparse Weight Folding."]


def test_an_acronym_spelled_out_where_it_is_used_once_gets_no_empty_item():
    # blind readers called "DRA: Short for Dynamic Resource Allocation." an empty item: the text had just said so
    text = "We quantize with Sparse Weight Folding (SWF) on every layer."
    assert text_definitions.items(text, text_definitions.find(text), "en", [], set()) == []


def test_an_adverb_opening_a_sentence_is_not_a_name_the_text_defines():
    text = "Previously, a job could only run on one rack, which was slow."
    assert not [d for d in text_definitions.find(text) if d.term == "Previously"]


def test_a_key_read_only_as_its_own_words_is_not_listed():
    from service.explain import key_terms
    assert key_terms._restated("num_layers")  # "number of layers": the name again
    assert not key_terms._restated("tp_comm_overlap")  # "tensor-parallel ...": what the short words stand for


def test_an_appositive_cut_inside_a_list_keeps_only_its_noun_phrase():
    text = "We use Gridline, a sharding compiler pass that makes fast, cheap and simple meshes possible on any cluster."
    meanings = {d.term: d.meaning for d in text_definitions.find(text)}
    assert meanings.get("Gridline") == "a sharding compiler pass"
    whole = "Hala, a family of Arabic models, was released last year."
    assert {d.term: d.meaning for d in text_definitions.find(whole)}.get("Hala") == "a family of Arabic models"
