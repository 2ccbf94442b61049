"""Round 40: the point chosen with features fitted on people's gists, and senses that read right in serving texts."""

import importlib.util
import json
from pathlib import Path

import pytest

from calculators.resources import data_dir
from service.explain import gist_select, pipeline
from service.explain.compose import explain_offline

ROOT = Path(__file__).resolve().parents[2]


def _definition(text: str, term_id: str, lang: str = "en") -> dict:
    return next(t for t in explain_offline(text, lang)["terms"] if t["id"] == term_id)


# ---- 1 the point: the hand score, then the fitted features -----------------------------------------------------------

TWO_POINTS = ("We should move the optimizer state off the GPU. Offloading the optimizer state of the 70B model to CPU "
              "memory frees most of each GPU's memory for activations, so the micro-batch can double without running out.")


def test_of_two_sentences_the_hand_score_ties_the_longer_argued_one_ranks_first():
    doc = pipeline.analyse(TWO_POINTS, "en")
    assert len(doc.sentences) == 2
    assert gist_select.ranked(doc, [(5.0, 0), (5.0, 1)])[0][1] == 1  # at equal hand value, the sentence with its reason
    assert gist_select.ranked(doc, [(9.0, 0), (5.0, 1)])[0][1] == 0  # the hand score still decides a clear gap
    assert [v for v, _ in gist_select.ranked(doc, [(5.0, 0), (5.0, 1)])] == [5.0, 5.0]  # the values stay the hand's


def test_the_fitted_weights_come_with_their_method_and_a_held_out_gain():
    table = json.loads((data_dir() / "gist_selection.json").read_text(encoding="utf-8"))
    assert set(table["weights"]) == set(gist_select.FEATURES)
    assert "even-numbered rounds" in table["method"] and table["source"]
    held_out = table["figures"]["held_out"]
    assert held_out["passages"] > 100
    assert held_out["fitted_closest"] >= held_out["hand_closest"]  # fitted on one half, no worse on the other


def test_the_fit_keeps_the_odd_rounds_and_test_for_reporting():
    spec = importlib.util.spec_from_file_location("fit_gist_selection", ROOT / "bench" / "fit_gist_selection.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert [module.half(s) for s in ("dev", "holdout-r4", "test", "holdout-r29")] == ["fit", "fit", "held_out", "held_out"]


# ---- 2 a checkpoint one serves is a released set of weights -----------------------------------------------------------

# modular/modular issue 6667: NVFP4 checkpoints of Gemma 4 on Hugging Face, to serve on Ampere cards.
SERVED = ("Support serving NVFP4 checkpoints on pre-Blackwell NVIDIA GPUs via a dequantization fallback. The NVFP4 "
          "checkpoints fit comfortably on a 24 GB card, but the NVFP4 kernels are gated to Blackwell.")
RESUMED = "We save a checkpoint every 500 steps to S3 so the run can resume after a node failure."


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_checkpoint_to_serve_is_a_released_set_of_weights_not_a_resume_point(lang):
    served = _definition(SERVED, "checkpoint", lang)["definition"]
    resumed = _definition(RESUMED, "checkpoint", lang)["definition"]
    if lang == "en":
        assert served.startswith("Here a checkpoint is a saved set of a model's weights published") and "resume" in served
        assert resumed.startswith("A saved snapshot of the model's weights")
    else:
        assert served.startswith("المقصود هنا ملف محفوظ لأوزان نموذج") and not resumed.startswith("المقصود هنا ملف")


# ---- 3 a rate in TFLOP/s is not always one achieved ---------------------------------------------------------------------

def test_a_tflops_throughput_is_not_said_to_be_achieved_and_a_datasheet_figure_is_a_peak():
    definition = _definition("The headline of every H100 datasheet is 989 TFLOP/s of FP16 matrix throughput.", "throughput")
    assert definition["definition"].startswith("Here throughput is an arithmetic rate, in TFLOP/s")
    assert "achieved" not in definition["definition"] and "a datasheet figure is a peak" in definition["definition"]
