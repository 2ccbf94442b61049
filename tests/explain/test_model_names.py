"""Issue 18, terms: model names read by their naming convention (family, version, size, variant) from
data/model_names.json, never with a size the name does not state. All texts are written for these tests."""

import json
import re

import pytest

from calculators.resources import data_dir
from service.explain import model_names, term_display
from service.explain.document import Document
from service.explain.terms import read_terms


def terms(text: str, lang: str = "en") -> list[dict]:
    doc = Document(text=text, lang=lang)
    read_terms(doc)
    return doc.terms


def named(text: str, written: str, lang: str = "en") -> dict:
    return next(t for t in terms(text, lang) if t["found_as"] == written)


@pytest.mark.parametrize("text, written, says", [
    ("We fine-tuned Llama-3.1-70B-Instruct on our support tickets.", "Llama-3.1-70B-Instruct",
     ["Llama-3.1 model with 70 billion parameters", "instruction-tuned"]),
    ("Qwen2.5-7B fits on one card for inference.", "Qwen2.5-7B", ["Qwen2.5 model with 7 billion parameters"]),
    ("Mixtral 8x7B sends each token to two of its experts.", "Mixtral 8x7B", ["8 experts per layer", "under 8 × 7 billion parameters in all"]),
    ("DeepSeek-V3 671B-A37B is cheap to serve for its size.", "DeepSeek-V3 671B-A37B",
     ["671 billion parameters", "37 billion of them active"]),
    ("Our baseline is GPT-NeoX-20B on the Pile.", "GPT-NeoX-20B", ["GPT-NeoX model with 20 billion parameters"]),
    ("We load llama-2-7b-hf from the hub.", "llama-2-7b-hf", ["7 billion parameters", "Hugging Face"]),
])
def test_a_model_name_is_glossed_from_its_parts(text, written, says):
    item = named(text, written)
    for words in says:
        assert words in item["expansion"], item["expansion"]
    shown, expansion = term_display.display(item, "en")
    assert shown == written  # the name as the text wrote it, not the family's name


def test_a_family_named_inside_another_familys_name_is_not_glossed():
    """'GPT' opens 'GPT-NeoX-20B' but the model is EleutherAI's: OpenAI's family entry would be a wrong sense."""
    found = terms("GPT-NeoX-20B was trained on 96 A100s.")
    assert not any(t["id"] == "gpt-family" for t in found)
    item = named("GPT-NeoX-20B was trained on 96 A100s.", "GPT-NeoX-20B")
    assert item["definition"].startswith("EleutherAI's") and "OpenAI" not in item["definition"] + item["expansion"]


def test_a_version_is_not_another_models_entry():
    """'GPT-4.5' is not GPT-4: the GPT-4 entry's facts would be about another model."""
    found = terms("GPT-4.5 needed a team to fix bugs during training.")
    assert not any(t["id"] == "gpt-4" for t in found)
    assert named("GPT-4.5 needed a team to fix bugs during training.", "GPT-4.5")["expansion"] == "GPT-4.5 model"


def test_no_size_is_given_where_the_name_states_none():
    item = named("GPT-4.5 needed a team to fix bugs during training.", "GPT-4.5")
    assert "parameters" not in item["expansion"] and not any(c.isdigit() for c in item["expansion"].replace("4.5", ""))


def test_a_generic_architecture_name_gets_no_maker():
    """'GPT-175B' in a paper is a GPT-style model of that size, not one of OpenAI's releases."""
    item = named("We train a GPT-175B model with FP8 weights.", "GPT-175B")
    assert item["expansion"].startswith("a GPT-style model") and "OpenAI" not in item["expansion"]


def test_an_unknown_family_is_read_by_the_shape_alone():
    item = named("We distilled it into Zorblax-3B for phones.", "Zorblax-3B")
    assert item["expansion"] == "Zorblax, a model with 3 billion parameters"
    assert "Meta" not in item["definition"] and item["category"] == "model"


@pytest.mark.parametrize("text", [
    "Figure 3B shows the loss curve.",  # a figure panel, no family
    "We cast the weights to FP8-7B style blocks.",  # a format's name before a size
    "The config llama_1B.yaml sets the width.",  # a config file's name, not a released model
    "The run used 15T tokens and 4B images.",
    "The Falcon 9 launch was delayed.",  # a version apart from a family's word, with no size: no model surely
])
def test_a_size_without_a_models_name_is_not_a_model(text):
    assert not any(t["id"].startswith("model:") or t.get("model_name") for t in terms(text))


def test_arabic_gloss_agrees_in_number():
    item = named("درّبنا Mixtral 8x7B و Qwen3-30B-A3B على عنقود صغير.", "Qwen3-30B-A3B", "ar")
    assert item["expansion"] == "نموذج Qwen3 بحجم 30 مليار معامل، يُفعَّل منها 3 مليارات معامل لكل رمز"
    mixtral = named("درّبنا Mixtral 8x7B على عنقود صغير.", "Mixtral 8x7B", "ar")
    assert "8 خبراء" in mixtral["expansion"] and "دون 8 × 7 مليارات معامل" in mixtral["expansion"]


def test_terms_inside_a_name_are_not_listed_apart():
    """'Instruct' and the size notation inside a name are said by the name's gloss: no separate items; what
    'active' means is another idea, explained apart."""
    found = terms("We serve Llama-3.1-70B-Instruct and DeepSeek-V3 671B-A37B.")
    assert not any(t["id"] in ("instruct-model", "moe-size-naming") for t in found)
    assert any(t["id"] == "active-parameters" for t in found)


def test_every_family_has_a_maker_a_description_and_a_source():
    table = json.loads((data_dir() / "model_names.json").read_text(encoding="utf-8"))
    for family in table["families"]:
        assert family["names"] and family["maker"]["en"] and family["maker"]["ar"]
        assert family["what"]["en"] and family["what"]["ar"]
        assert not re.search(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w.])", family["what"]["en"])  # no figure; "Ai2" is a name
        assert family["source"]["url"].startswith("https://")
    for word, meaning in table["variants"].items():
        assert word == word.lower() and meaning["en"] and meaning["ar"]
    assert model_names.find("Pythia-1.4B")[0].total == 1.4e9


def test_a_size_before_the_word_model_is_read_once():
    found = terms("A 13B model fits on 8 GPUs; a 175B model needs 128 and a 1T model 256.")
    sized = [t for t in found if t["id"].startswith("model:")]
    assert [t["found_as"] for t in sized] == ["13B"]
    assert sized[0]["expansion"] == "a model with 13 billion parameters"
    assert "B for billions" in sized[0]["definition"]


def test_a_size_of_tokens_is_not_a_model():
    assert not any(t["id"].startswith("model:") for t in terms("We trained on 15T tokens with a 4M batch."))


def test_a_size_no_model_has_is_not_read_as_the_models_size():
    # "DeepSeek-V3 14.8T" in a table of training runs is 14.8T tokens; a reader was told "14.8 trillion parameters"
    assert [n.total for n in model_names.find("DeepSeek-V3 14.8T tokens, Kimi-K2 1T parameters")] == [1e12]


def test_sized_names_of_one_unknown_family_are_one_item_and_no_fragment_is_a_term():
    # five "Mula-...: A model the text names." items, and "7B-A1B" listed as a term, were what a reader saw
    doc = Document(text="We train Mula-1B, Mula-7B-A1B and Mula-20B-A2B on Aurora tiles.", lang="en")
    read_terms(doc)
    models = [t for t in doc.terms if t["id"].startswith("model:")]
    assert len(models) == 1 and models[0]["term"] == "Mula-1B, Mula-7B-A1B, Mula-20B-A2B"
    assert "20 billion" in models[0]["definition"]
    assert all(t["found_as"] != "7B-A1B" for t in doc.terms)


def test_one_name_of_a_family_no_table_knows_is_not_listed_on_its_own():
    # round 15: "Vicuna-7b: A model the text names" was judged an empty item; several names of one such family are
    # still listed together, since their sizes tell the family's members apart
    from service.explain.compose import explain_offline
    shown = explain_offline("We fine-tuned Vicuna-7b on 8 A100 GPUs with LoRA.", "en")["explanation"]
    assert "Vicuna-7b" not in shown.split("## The terms")[-1]
    grouped = explain_offline("We train Mula-1B, Mula-7B-A1B and Mula-20B-A2B on Aurora tiles.", "en")["explanation"]
    assert "a model with 20 billion parameters, 2 billion of them active" in grouped


def test_a_size_past_the_familys_largest_model_is_not_said_to_be_its_size():
    # round 15: "phi1 54B (phi1 model with 54 billion parameters)" in a table whose column held training tokens; no Phi
    # model has more than 41.9B parameters (Phi-3 Technical Report), so the figure is not glossed as a size
    from service.explain.compose import explain_offline
    shown = explain_offline("model training size time\nphi1 54B 6 days\nphi2 1.4T 14 days", "en")["explanation"]
    assert "54 billion parameters" not in shown and "1.4 trillion parameters" not in shown
    assert "2.7 billion parameters" in explain_offline("We serve phi-2 2.7B on one L4.", "en")["explanation"]
    sizes = explain_offline("We serve Gemma 2 27B and Gemma-70B.", "en")["explanation"]
    assert "27 billion parameters" in sizes and "70 billion parameters" not in sizes  # Gemma's largest is 27B


@pytest.mark.parametrize("text, written, total, active", [
    # round 15: "80B-A3B (active parameters)" was listed for Qwen3-Next-80B-A3B, the model's name cut in two
    ("This setup suits Qwen3-Next-80B-A3B well.", "Qwen3-Next-80B-A3B", 80e9, 3e9),
    ("We ran Mistral-Small-24B on two L4 cards.", "Mistral-Small-24B", 24e9, None),
])
def test_a_line_of_the_family_between_version_and_size_is_part_of_the_name(text, written, total, active):
    (name,) = model_names.find(text)
    assert (name.written, name.total, name.active) == (written, total, active)
    assert model_names.find("Qwen3 Next is new.") == []  # a line word alone names no size
