"""Benchmark result rows against the row the text marks as its baseline (checks/baseline_rows.py), and the serving
fields they are made of: compact JSON keys, latencies named in milliseconds, field names read by their words."""

from service.explain.pipeline import analyse
from service.explain.compose import explain_offline

# https://github.com/kaito-project/kaito/issues/2305 (issue description): vLLM benchmark fields with and without EP
KAITO = """On a 2xH100 node, enabling expert parallelism helped improve tpm, ttft and tpot for Deepseek-V4-Flash-0731:
- with EP: "vllm_total_tpm":70907.89,"ttft_avg_ms":5156.38,"tpot_avg_ms":57.52
- without EP: "vllm_total_tpm":58275.41,"ttft_avg_ms":8072.94,"tpot_avg_ms":68.12
"""


def test_each_field_is_set_against_the_baseline_row():
    doc = analyse(KAITO, "en")
    why = " ".join(c.why for c in doc.claims)
    # 70907.89 / 58275.41 - 1 = +21.7%; 5156.38 / 8072.94 - 1 = -36.1%; 57.52 / 68.12 - 1 = -15.6%
    assert "against the row without EP:" in why
    assert "vllm_total_tpm 58275.41 → 70907.89 (+21.7%)" in why
    assert "ttft_avg_ms 8072.94 → 5156.38 (−36.1%)" in why and "tpot_avg_ms 68.12 → 57.52 (−15.6%)" in why
    assert not any(c.verdict in ("consistent", "inconsistent") for c in doc.claims)  # said, never judged


def test_latency_fields_in_milliseconds_are_read_as_latencies():
    doc = analyse(KAITO, "en")
    latencies = {f.quote: f.value for f in doc.figures if f.quantity == "latency_s"}
    assert latencies["5156.38"] == 5.15638 and abs(latencies["57.52"] - 0.05752) < 1e-12


def test_the_baseline_row_in_arabic_is_named_in_arabic_frame():
    why = " ".join(c.why for c in analyse(KAITO, "ar").claims)
    assert "مقارنةً بالسطر «without EP»" in why and "(−36.1%)" in why


def test_no_change_is_said_without_one_marked_baseline_or_with_other_fields():
    two_runs = KAITO.replace("without EP", "with TP")
    assert "→" not in " ".join(c.why for c in analyse(two_runs, "en").claims)  # neither row is the baseline
    renamed = KAITO.replace('without EP: "vllm_total_tpm"', 'without EP: "vllm_output_tpm"')
    assert "→" not in " ".join(c.why for c in analyse(renamed, "en").claims)  # not the same fields


def test_result_field_names_are_glossed_as_measured_values():
    terms = {t["term"]: t for t in analyse(KAITO, "en").terms}
    assert "average time to first token in milliseconds" in terms["ttft_avg_ms"]["definition"]
    assert terms["ttft_avg_ms"]["definition"].startswith("A measured value")
    # a setting stays a setting: "num_moe_experts" names no measurement
    setting = {t["term"]: t for t in analyse("We set num_moe_experts to 64 for this run.", "en").terms}
    assert not setting.get("num_moe_experts", {}).get("definition", "").startswith("A measured value")


def _gist(text: str, lang: str) -> str:
    return " ".join(s["text"] for s in explain_offline(text, lang)["gist"])


def test_a_result_over_its_rows_is_the_point_not_a_label():
    recommendation = "\nWe should evaluate a few more MoE models and see if we should enable expert parallelism by default.\n"
    gist = _gist(KAITO + recommendation, "en")
    assert gist.index("helped improve tpm, ttft and tpot") < gist.index("evaluate a few more MoE models")


def test_the_other_language_gist_says_what_the_rows_measure():
    gist = _gist(KAITO, "ar")
    assert gist.startswith("يقيس الكاتب أثر توازي الخبراء")
    assert "ttft_avg_ms من 8072.94 إلى 5156.38 (−36.1%)" in gist
    # a colon line with no rows worked under it stays a label: nothing about measuring is said
    listed = "On a 2xH100 node, enabling expert parallelism helped improve these metrics for our model:\n- tpm\n- ttft\n"
    assert "يقيس الكاتب" not in _gist(listed, "ar")


def test_a_name_inside_the_texts_formula_is_a_variable_not_a_setting():
    # https://github.com/NVIDIA/nccl-tests/issues/196 (bench/corpus holdout-r20, read after its judging): "n_nodes" in a formula
    text = "inter-node bandwidth is only algbw * (2*(n_nodes-1)/n_nodes) = algbw instead of algbw * (2*(n-1)/n)"
    terms = {t["term"]: t for t in analyse(text, "en").terms}
    assert terms["n_nodes"]["definition"].startswith("A variable of the formula")
