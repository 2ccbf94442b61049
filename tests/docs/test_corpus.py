"""The evaluation corpus of issue 18 (bench/corpus/passages.json) and the checks of bench/corpus.py."""

import importlib.util
import json
import re

import pytest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _passages() -> list[dict]:
    return json.loads((BENCH / "corpus" / "passages.json").read_text(encoding="utf-8"))["passages"]


def _used_urls() -> set[str]:
    urls = set()
    for name in ("passages.json", "passages_reading.json"):
        for p in json.loads((ROOT / "tests" / "data" / name).read_text(encoding="utf-8"))["passages"]:
            urls.add(p["source"]["url"])
    urls.update(re.findall(r"https?://\S+", (ROOT / "examples" / "SOURCES.md").read_text(encoding="utf-8")))
    return urls


def test_corpus_is_new_sourced_and_split_by_source():
    passages = _passages()
    assert len(passages) >= 80
    assert len({p["id"] for p in passages}) == len(passages)
    assert sum(p["lang"] == "ar" for p in passages) >= 16
    used = _used_urls()
    splits_of_group: dict[str, set] = {}
    for p in passages:
        assert p["lang"] in ("en", "ar") and p["split"] in _module("corpus_split").EVERY and p["text"].strip()
        assert all(p["source"].get(k) for k in ("title", "url", "where")), p["id"]
        assert p["source"]["url"] not in used, p["id"]
        splits_of_group.setdefault(p["source_group"], set()).add(p["split"])
    assert all(len(s) == 1 for s in splits_of_group.values())  # no source in both halves
    for split in ("dev", "test"):
        langs = {p["lang"] for p in passages if p["split"] == split}
        assert langs == {"en", "ar"}
    halves = [p for p in passages if p["split"] in ("dev", "test")]  # each later round's held-out set stands apart
    dev = sum(p["split"] == "dev" for p in halves)
    assert abs(2 * dev - len(halves)) <= 0.1 * len(halves)


def test_annotated_figures_are_quoted_from_the_text():
    for p in _passages():
        for f in (p.get("expected") or {}).get("figures", []):
            assert f["quote"] in p["text"], (p["id"], f["quote"])
            assert isinstance(f["value"], (int, float))


def test_split_keeps_given_splits_and_never_straddles_a_group():
    split = _module("corpus_split")
    passages = [{"id": f"p{i}", "lang": "ar" if i % 4 == 0 else "en", "source_group": f"g{i // 2}"} for i in range(20)]
    passages[0]["split"] = passages[1]["split"] = "test"
    first = [p["split"] for p in split.assign_splits([dict(p) for p in passages])]
    again = [p["split"] for p in split.assign_splits([dict(p) for p in passages])]
    assert first == again and first[0] == first[1] == "test"
    by_group: dict[str, set] = {}
    for p, s in zip(passages, first):
        by_group.setdefault(p["source_group"], set()).add(s)
    assert all(len(s) == 1 for s in by_group.values())
    assert {s for p, s in zip(passages, first) if p["lang"] == "ar"} == {"dev", "test"}
    passages[2]["split"] = passages[3]["split"] = "holdout"  # a held-out group keeps its split, outside the balance
    kept = [p["split"] for p in split.assign_splits([dict(p) for p in passages])]
    assert kept[2] == kept[3] == "holdout" and "holdout" not in kept[4:]


def test_impossible_results_are_found():
    corpus = _module("corpus")
    hbm = {"h100-sxm": 80e9}
    assert corpus.impossible({"outputs": {"mfu": 11.27}}, hbm)
    assert not corpus.impossible({"outputs": {"mfu": 0.42, "hfu": 0.5}}, hbm)
    assert corpus.impossible({"outputs": {"time_s": -3.0}}, hbm)
    assert corpus.impossible({"outputs": {"breakdown": {"tokens_per_s": float("inf")}}}, hbm)
    over = {"inputs": {"chip": "h100-sxm"}, "outputs": {"bytes_per_chip": 6.48e12}}
    assert corpus.impossible(over, hbm)
    assert not corpus.impossible({"inputs": {}, "outputs": {"bytes_per_chip": 6.48e12}}, hbm)  # no chip known
    assert corpus.impossible({"inputs": {}, "outputs": {"bytes_per_chip": 6.48e12}}, hbm, named_hbm=80e9)


def test_calculations_need_a_number_from_the_text():
    corpus = _module("corpus")
    assumed = {"input_sources": {"chip": {"source": "text"}, "n_chips": {"source": "assumed"},
                                 "peak_flop_per_s": {"source": "catalog"}}}
    stated = {"input_sources": {"n_chips": {"source": "text", "quote": "512 H100s"}}}
    assert not corpus.numbers_from_text(assumed)
    assert corpus.numbers_from_text(stated)


def test_figures_match_on_any_listed_quantity_within_one_percent():
    corpus = _module("corpus")
    close = corpus._scoring()._close
    expected = {"quote": "tps: 128", "quantity": ["tokens_per_s_per_chip", "tokens_per_s"], "value": 128}
    assert corpus.figure_found(expected, [{"quantity": "tokens_per_s", "value": 128.5}], close)
    assert not corpus.figure_found(expected, [{"quantity": "tokens_per_s", "value": 140}], close)
    assert not corpus.figure_found(expected, [{"quantity": "number", "value": 128}], close)


def test_figures_as_kind_take_a_specific_reading_for_a_generic_annotation():
    # "8 nodes" annotated count:8 and read n_nodes:8; "~8% higher" annotated fraction:0.08 and read percent_change;
    # 1,300 MWh annotated in joules and read in watt-hours (1 Wh = 3,600 J); a bare number is still no reading
    corpus = _module("corpus")
    close = corpus._scoring()._close
    assert corpus.figure_found_as_kind({"quantity": "count", "value": 8}, [{"quantity": "n_nodes", "value": 8}], close)
    assert not corpus.figure_found({"quantity": "count", "value": 8}, [{"quantity": "n_nodes", "value": 8}], close)
    assert corpus.figure_found_as_kind({"quantity": "fraction", "value": 0.08}, [{"quantity": "percent_change", "value": -0.08}], close)
    assert corpus.figure_found_as_kind({"quantity": "energy_j", "value": 4.68e12}, [{"quantity": "energy_wh", "value": 1.3e9}], close)
    assert not corpus.figure_found_as_kind({"quantity": "count", "value": 8}, [{"quantity": "number", "value": 8}], close)
    assert not corpus.figure_found_as_kind({"quantity": "count", "value": 8}, [{"quantity": "tp_degree", "value": 8}], close)


def test_judge_file_shows_passage_and_answer_only():
    pack = _module("judge_pack")
    passage = {"id": "secret-source-id", "text": "We used PP8.", "gist": "They used pipelines."}
    answer = {"explanation": "## In short\n\nThey split the model.", "warnings": ["a note"], "calculations": [{"x": 1}]}
    text = pack.answer_file("P07", passage, answer, "en", with_gist=False)
    assert "We used PP8." in text and "They split the model." in text and "a note" in text
    assert "secret-source-id" not in text and "They used pipelines." not in text and "calculations" not in text
    order = [p["id"] for p in pack.anonymous_order([{"id": "b"}, {"id": "a"}, {"id": "c"}])]
    assert sorted(order) == ["a", "b", "c"] and order == [p["id"] for p in pack.anonymous_order([{"id": "c"}, {"id": "a"}, {"id": "b"}])]


def test_unsupported_numbers_are_those_nothing_in_the_text_or_the_working_gives():
    check = _module("unsupported_numbers")
    text = "Our 7B model reaches 3.7k tokens/s per H100 and the switch reconfigures in under 10 ns."
    said = {"explanation": "## In short\n\nThe author reports 3,700 tokens per second, about 61.3% of the 6,036 they expected, "
                           "and a time of 0 ms.\n\n## The terms\n\n- **H100**: 989 TFLOP/s of dense BF16, 80 GB.\n",
            "calculations": [{"inputs": {"tokens_per_s": 3700}, "outputs": {"expected": 6036, "share": 0.613}}]}
    found = check.unsupported(text, said)
    assert [f.split()[0] for f in found] == ["0"]  # 3,700 is the text's 3.7k; 61.3% and 6,036 are the working's
    assert check.unsupported(text, {**said, "calculations": []})[0].split()[0] == "61.3%"


_CORPUS = _passages()


@pytest.mark.parametrize("passage", _CORPUS, ids=[p["id"] for p in _CORPUS])
def test_every_corpus_passage_is_explained_in_both_languages(passage):
    # Real text the explainer was not written against (each round's held-out set included): no answer may crash,
    # and none may show an impossible result or an inconsistent verdict resting on an assumption.
    from service.explain.checks import verdicts
    from service.explain.compose import explain_offline

    for lang in ("en", "ar"):
        result = explain_offline(passage["text"], lang)
        assert result["explanation"].strip()
        for claim in result["claims"]:
            assert claim["why"].strip(), (lang, claim["quote"])
            if claim["verdict"] == "inconsistent":
                for i in claim["calculations"]:
                    assert not verdicts.assumed_inputs(result["calculations"][i]["input_sources"]), (lang, claim["quote"])


def test_an_input_derived_from_the_texts_own_figures_is_from_the_text():
    corpus = _module("corpus")
    text = "Pre-training took 14.8T tokens on 2,048 H800s in about 2.8M GPU-hours."
    derived = {"input_sources": {"tokens_per_s": {"source": "derived", "from": "14.8T tokens / 2.8M GPU-hours"},
                                 "params": {"source": "catalog"}}}
    invented = {"input_sources": {"tokens_per_s": {"source": "derived", "from": "an example of 4,096 tokens"}}}
    assert corpus.numbers_from_text(derived, text)
    assert not corpus.numbers_from_text(invented, text) and not corpus.numbers_from_text(derived)
