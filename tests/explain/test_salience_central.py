"""Issue 18, terms: the passage's central terms first (a term opening its sentence counts more), everyday entries
capped unless the text writes them as jargon ("MHA", "intra-node"), and a pasted config's keys left to the config
reader past the first few. All texts are written for these tests."""

from service.explain import salience
from service.explain.document import Document
from service.explain.terms import read_terms


def listed(text: str, sentences: list[tuple[int, int]] | None = None, options: bool = False) -> list[str]:
    doc = Document(text=text, lang="en")
    read_terms(doc)
    doc.sentences = sentences or []
    return [t["found_as"] for t in salience.listed_terms(doc) if not options or t["category"] == "option"]


def test_an_everyday_entry_written_as_an_abbreviation_is_listed():
    text = "Our TE FP8 MHA kernel is slower than FlashAttention with FP16 on an H100, and MHA uses more memory."
    assert "MHA" in listed(text)


def test_an_everyday_entry_in_its_everyday_words_is_left_out_among_the_passages_own_terms():
    text = "FSDP with ZeRO-3 and activation checkpointing trains the model on the GPU cluster with NCCL."
    assert "GPU" not in listed(text)


def test_a_compound_the_reader_cannot_undo_is_listed():
    text = "The intra-node NVLink bandwidth beats InfiniBand, so we keep TP inside the NVSwitch domain."
    assert "intra-node" in listed(text)


def test_a_pasted_configs_keys_are_capped_but_the_authors_flags_are_not():
    config = "MaxText reads these keys:\n" + "\n".join(
        f"{axis}_{kind}_parallelism: 1" for axis in ("ici", "dcn") for kind in ("data", "fsdp", "tensor", "sequence"))
    assert len(listed(config, options=True)) == salience.MOST_OPTIONS
    prose = ("I used --recompute-granularity full, --recompute-method uniform, --recompute-num-layers 5, "
             "--distribute-saved-activations and --tp-comm-overlap with --sequence-parallel.")
    assert len(listed(prose, options=True)) == 6


def test_a_term_opening_its_sentence_ranks_before_one_named_in_passing():
    text = "We tried it on a cluster with InfiniBand and a switch. Then SHARP reduces inside the switch fabric."
    sentences = [(0, 56), (57, len(text))]
    order = listed(text, sentences)
    assert order.index("SHARP") < order.index("InfiniBand")


def test_an_everyday_measure_the_passage_leans_on_is_listed_after_its_own_terms():
    # written for this rule: throughput is what the passage measures, named three times
    text = ("FSDP with ZeRO-3 and NCCL gives low throughput on our cluster. The throughput drops when activation "
            "checkpointing is on. Throughput recovers with a larger micro-batch.")
    terms = listed(text)
    assert "throughput" in [t.lower() for t in terms]
    assert terms.index(next(t for t in terms if t.lower() == "throughput")) >= 3  # after FSDP, ZeRO-3, NCCL...


def test_a_stock_word_is_not_listed_beside_the_passages_own_terms_however_often_named():
    text = ("FSDP with ZeRO-3 and NCCL shards the model over every GPU. Each GPU holds a shard; "
            "the GPU gathers the rest for each layer.")
    assert "GPU" not in listed(text)


def test_an_everyday_word_named_once_in_passing_stays_out():
    text = "FSDP with ZeRO-3 and NCCL and activation checkpointing, measured for throughput on the cluster."
    assert "throughput" not in [t.lower() for t in listed(text)]


def test_an_everyday_entry_written_later_as_a_compound_is_listed_in_that_form():
    # written for this rule: "node" first in its everyday sense, then as the compound the reader cannot undo
    text = ("Each A100 node runs NCCL over NVSwitch with FSDP. The intra-node all-gather reaches 80% of the "
            "NVLink figure.")
    assert "intra-node" in listed(text)
