"""The terms that carry a passage's point come first and survive a tight budget; "fit" definitions are one clause."""

import re

from service.explain import compose
from service.explain.compose import explain_offline
from service.explain.definitions import brief_definition
from service.explain.pipeline import analyse
from service.explain.salience import salient_terms

# Written for these tests: result rows labelled by schedule, units repeated in every row, the point in a note.
ROWS = ("Results on 64 GPUs:\n"
        "\"1F1B\": memory: 70.1GiB tps: 90 mfu: 30.2%\n"
        "\"GPipe\": memory: 79.5GiB tps: 88 mfu: 29.8%\n"
        "\"ZB-H1\": memory: 71.0GiB tps: 97 mfu: 32.5%\n")
# A long post whose point (last sentence) names a term mentioned once, after many repeated everyday ones.
LONG = " ".join(["The GPUs ran the job for a week and the GPUs stayed busy with tokens, throughput and bandwidth."] * 12) + \
    " Our conclusion is that the all-to-all of expert parallelism, not the pipeline bubble, limits MFU here."


def _shown(markdown: str) -> list[str]:
    section = markdown.split("## The terms", 1)[1]
    return re.findall(r"^- \*\*(.+?)\*\*", section, flags=re.M)


def test_a_result_rows_label_outranks_the_units_every_row_repeats():
    doc = analyse(ROWS, "en")
    order = [t["id"] for t in salient_terms(doc)]
    assert order.index("one-forward-one-backward") < order.index("gibibyte"), order
    assert order.index("one-forward-one-backward") < order.index("model-flops-utilization"), order


def test_the_point_sentences_terms_are_listed_first_and_kept_within_the_budget():
    answer = explain_offline(LONG, "en")
    shown = _shown(answer["explanation"])
    point = {"all-to-all", "expert parallelism", "pipeline bubble", "MFU"}
    assert len(point & set(shown)) >= compose.TERMS_KEPT, shown
    assert set(shown[:compose.TERMS_KEPT]) <= point, shown  # before the everyday words repeated twelve times


def test_the_shortest_level_still_lists_the_central_terms():
    assert all(level["terms"] for level in compose.LEVELS)


def test_a_fit_definition_is_its_first_clause():
    sentence = ("A family of pipeline schedules that split each backward pass into two parts, computing the input "
                "gradient first and the weight gradient later to fill the idle time.")
    assert brief_definition(sentence, compose.FIT_DEFINITION_WORDS) == \
        "A family of pipeline schedules that split each backward pass into two parts."
    assert brief_definition(sentence) == sentence  # the roomier forms keep it whole
    heading = "How Google Cloud names a slice: the chip generation and then the number of TensorCores it holds."
    assert brief_definition(heading, compose.FIT_DEFINITION_WORDS) == heading  # a heading is no definition


def test_a_term_is_shown_as_the_text_wrote_it_not_as_an_abbreviation_it_never_used():
    text = "Activation memory grows with the microbatch size, so the device memory runs out before the weights do."
    for lang, absent in (("en", ("MBS", "VRAM")), ("ar", ("MBS", "VRAM"))):
        markdown = explain_offline(text, lang)["explanation"]
        heading = "## " + ("The terms" if lang == "en" else "المصطلحات")
        section = markdown.split(heading, 1)[1]
        names = re.findall(r"^- \*\*(.+?)\*\*(?: \((.*?)\))?:", section, flags=re.M)
        assert names and not any(word in name + " " + expansion for name, expansion in names for word in absent), names
    assert "microbatch size" in [n for n, _ in re.findall(r"^- \*\*(.+?)\*\*(?: \((.*?)\))?:",
                                                            explain_offline(text, "en")["explanation"], flags=re.M)]


def test_an_arabic_fit_definition_ends_at_the_comma_before_a_verb():
    sentence = ("تقسم طبقات النموذج إلى مجموعات متتالية توضع كل منها على شرائح مختلفة، وتنتقل التنشيطات من مرحلة إلى "
                "التي تليها كما في خط التجميع.")
    assert brief_definition(sentence, compose.FIT_DEFINITION_WORDS) == \
        "تقسم طبقات النموذج إلى مجموعات متتالية توضع كل منها على شرائح مختلفة."
    listing = "يحفظ كل جهاز نسخة كاملة من الأوزان، والتدرجات، وحالات المحسن، ويحدثها بعد كل خطوة من خطوات التدريب."
    assert brief_definition(listing, compose.FIT_DEFINITION_WORDS).startswith("يحفظ كل جهاز نسخة كاملة من الأوزان، والتدرجات")


def test_a_name_is_shown_once_not_again_as_its_expansion():
    from service.explain.term_display import display
    term = {"id": "x", "term": "K2", "expansion": "Kimi K2 (نموذج Moonshot AI)", "found_as": "K2"}
    name, expansion = display(term, "ar")
    assert expansion == "" or expansion.lower() not in name.lower(), (name, expansion)


def test_a_central_model_name_comes_after_the_central_ideas():
    text = "Kimi K2 reaches high MFU without pipeline parallelism because it is not DP-comms bound."
    doc = analyse(text, "en")
    order = [t["id"] for t in salient_terms(doc, set(range(len(doc.sentences))))]
    assert order.index("kimi-k2") > order.index("model-flops-utilization"), order
    assert order.index("kimi-k2") > order.index("dp-comms-bound"), order


def test_an_idea_named_in_other_words_is_listed_under_the_texts_words():
    from service.explain.term_display import display
    assert display({"id": "x", "term": "token dropping", "expansion": "token dropping", "found_as": "token overflow"},
                   "en") == ("token overflow", "token dropping")
    # a plural, other spacing or hyphens are the same words: the entry's name stays
    assert display({"id": "x", "term": "microbatch", "expansion": "", "found_as": "micro-batches"}, "en")[0] == "microbatch"
    name, expansion = display({"id": "x", "term": "token dropping", "expansion": "إسقاط الرموز", "found_as": "token overflow"},
                              "ar")
    assert (name, expansion) == ("إسقاط الرموز", "token overflow")
