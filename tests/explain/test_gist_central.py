"""A sentence naming what the passage is most about weighs more as the point than one about a side detail."""

from service.explain import gist, gist_central
from service.explain.pipeline import analyse

TEXT = ("FSDP shards parameters, gradients and optimizer states across GPUs. With FSDP each layer is gathered before "
        "its forward pass. FSDP then frees the gathered weights. The logging interval is set to 10 steps.")


def test_the_most_named_term_is_central_and_a_term_named_once_is_not():
    doc = analyse(TEXT, "en")
    central = gist_central.central_terms(doc)
    assert any("fsdp" in term or "fully-sharded" in term for term in central)
    ids = gist._terms_by_sentence(doc)
    assert gist_central.weight(doc, ids[0]) == gist_central.CENTRAL_WEIGHT
    assert gist_central.weight(doc, ids[3]) == 0.0


def test_a_passage_naming_nothing_often_has_no_central_term():
    doc = analyse("The run used FSDP. The logging interval is set to 10 steps.", "en")
    assert gist_central.central_terms(doc) == set()


def test_a_fragment_cut_inside_a_bracket_is_never_the_points_companion():
    doc = analyse("I am not getting through much more than 5GB of data per day, so training on 150GB would take many "
                  "months. The reason is that the model has 3x the parameters) of the old model.", "en")
    ids = gist._terms_by_sentence(doc)
    out = gist._reported(doc, 0, ids, {0: 8.0, 1: 5.0})  # the fragment weighs enough to be the reason, but is cut
    assert out and all("parameters)" not in item["text"] for item in out)
