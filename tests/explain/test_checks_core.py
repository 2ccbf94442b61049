"""The checks package's public core: inputs with their sources, one run per input set, no run without the text (issue 18)."""

from service.explain.checks import core
from service.explain.document import Document
from service.explain.process_cache import ProcessCache


def test_a_calculation_with_every_input_assumed_or_from_the_catalog_is_not_run():
    doc = Document(text="", lang="en")
    inputs = core.Inputs("en")
    inputs.catalog("peak_flop_per_s", 989e12, "h100-sxm")
    inputs.assumed("n_chips", 4096, "default_chips", n="4,096")
    inputs.values.update(params=70e9, tokens_per_s=1e6)
    assert core.run(doc, "mfu", inputs) is None
    assert doc.calculations == [] and "no input comes from the text" in doc.failures[0]


def test_one_input_from_the_text_runs_it_once_per_input_set():
    doc = Document(text="70B", lang="en")
    inputs = core.Inputs("en")
    inputs.values.update(params=70e9)
    inputs.sources["params"] = {"source": "text", "quote": "70B"}
    inputs.values.update(n_chips=1024, tokens_per_s=1e6, peak_flop_per_s=989e12)
    first, again = core.run(doc, "mfu", inputs), core.run(doc, "mfu", inputs.copy())
    assert first == again == 0 and len(doc.calculations) == 1
    sources = doc.calculations[0]["input_sources"]
    assert sources["params"]["source"] == "text"
    # n_chips was given without a source: the calculator's input is labelled, never silently 'text'
    assert sources["n_chips"]["source"] == "assumed"


def test_needs_more_names_what_is_missing_in_the_readers_words():
    result = core.needs_more(Document(text="", lang="en"), ["n_chips", "active_params"])
    assert result.verdict == "needs_more"
    assert "the number of chips" in result.why and "active parameters" in result.why


def test_the_process_cache_is_bounded_and_owned_by_one_object():
    cache = ProcessCache()
    made = []
    for i in range(5):
        cache.get("t", i, lambda i=i: made.append(i) or i * 2, limit=3)
    assert cache.get("t", 4, lambda: -1, limit=3) == 8  # kept, not made again
    assert cache.size("t") <= 3 and made == [0, 1, 2, 3, 4]
    cache.clear()
    assert cache.size("t") == 0


def test_a_share_of_peak_below_a_thousandth_is_a_misreading_not_a_finding():
    from service.explain.checks import verdicts

    # "23 / (10000 * 3.12e14 * 1.28e6) = 5.8e-24" had been shown as an MFU: a count was read where FLOPs were meant
    assert not verdicts.possible("mfu", 5.765e-24) and not verdicts.possible("mfu", 0.0004)
    assert verdicts.possible("mfu", 0.05) and verdicts.possible("mfu", 1.0) and not verdicts.possible("mfu", 1.04)
