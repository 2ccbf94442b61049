"""How often to save a checkpoint: Young's interval, sqrt(2 x save time x mean time between failures)."""

import numpy as np

from .registry import Calculator, Field, register
from .working import step

# Young 1974, "A first order approximation to the optimum checkpoint interval", CACM 17(9): T = sqrt(2 Ts Tf); Saxena
# et al. 2024 (NVIDIA), arXiv:2410.18124: with the recovery time Tr the availability-optimal interval is
# Ts + sqrt(2 (Tf + Tr) Ts + Ts^2), whose leading term sqrt(2 (Tf + Tr) Ts) is the form training write-ups quote
# (Chang Lan, "Optimal Checkpointing Frequency": 6,000 s between interruptions, 600 s to recover, 10 s to save, 15 s
# steps gives about 24 steps).
YOUNG = ("Young 1974, CACM 17(9): optimum checkpoint interval sqrt(2 x save time x MTBF); Saxena et al. 2024, "
         "arXiv:2410.18124: with recovery time, sqrt(2 x (MTBF + recovery) x save time) to first order")


def checkpoint_interval(v: dict):
    """Young's optimum interval between checkpoints, with the recovery time added to the time between failures."""
    save, between, recover, step_time = v["checkpoint_time_s"], v["mtbf_s"], v["recovery_time_s"], v["step_time_s"]
    interval = np.sqrt(2.0 * (between + recover) * save)
    steps = [step("checkpoint_interval.young", save=(save, "seconds"), mtbf=(between, "seconds"), recover=(recover, "seconds"),
                  interval=(interval, "seconds"))]
    outputs = {"interval_s": interval, "overhead_fraction": save / interval}
    if step_time:
        outputs["interval_steps"] = interval / step_time
        steps.append(step("checkpoint_interval.steps", interval=(interval, "seconds"), step_time=(step_time, "seconds"),
                          steps=interval / step_time))
    assumptions = ["failures arrive at random at a steady rate (exponential), and the save time is much shorter than the "
                   "time between failures (Young's first-order approximation)"]
    return outputs, steps, assumptions


register(Calculator(
    name="checkpoint_interval",
    summary="How often to save a checkpoint so that save time and work lost to failures cost least (Young's interval).",
    fields=(
        Field("checkpoint_time_s", "seconds", "time one checkpoint save stalls training"),
        Field("mtbf_s", "seconds", "mean time between failures or interruptions of the whole job"),
        Field("recovery_time_s", "seconds", "time to restart after a failure (0 if not known)", default=0.0, allow_zero=True),
        Field("step_time_s", "seconds", "time of one training step, to say the interval in steps (0: not given)",
              default=0.0, allow_zero=True),
    ),
    compute=checkpoint_interval,
    sources=(YOUNG,),
))
