"""checkpoint_interval against published worked examples of Young's optimum checkpoint interval."""

import math

import pytest

import calculators


def _run(**inputs):
    return calculators.run("checkpoint_interval", inputs)["outputs"]


def test_young_interval_from_save_time_and_mtbf():
    # systemoverflow.com, "Checkpoint Frequency: Balancing Cost, Overhead, and Reliability": a 120 s save and a 6-hour
    # MTBF give "an interval around 38 minutes" (sqrt(2 x 120 x 21600) = 2277 s)
    out = _run(checkpoint_time_s="120s", mtbf_s="6h")
    assert out["interval_s"] == pytest.approx(math.sqrt(2 * 120 * 21600))
    assert out["interval_s"] / 60 == pytest.approx(38, abs=0.5)
    assert "interval_steps" not in out  # no step time given: no steps said


def test_recovery_time_and_steps_as_in_a_training_write_up():
    # Chang Lan, "Optimal Checkpointing Frequency" (changlan.org): 6000 s between interruptions, 600 s to recover, 10 s to
    # checkpoint and 15 s steps give "~24 steps per checkpoint" (sqrt(2 x 6600 x 10) / 15 = 24.2)
    out = _run(checkpoint_time_s="10s", mtbf_s="6000s", recovery_time_s="600s", step_time_s="15s")
    assert out["interval_steps"] == pytest.approx(24.22, abs=0.01)
    assert out["overhead_fraction"] == pytest.approx(10 / 363.3, rel=1e-3)


def test_a_longer_save_means_a_longer_interval_and_bad_input_names_its_field():
    assert _run(checkpoint_time_s="40s", mtbf_s="6000s")["interval_s"] == pytest.approx(2 * _run(checkpoint_time_s="10s", mtbf_s="6000s")["interval_s"])
    with pytest.raises(calculators.CalculatorInputError, match="mtbf_s"):
        _run(checkpoint_time_s="10s", mtbf_s="-5s")
