"""Quantities stated in prose, with the role each plays for the calculators (issue 3, grounding)."""

import pytest

from service.explain.quantities import find_quantities, first_by_role


@pytest.mark.parametrize("text, expected", [
    ("LLaMA-3-70B with a 4M token batch on 4096 H100s", {"global_batch_tokens": 4e6, "n_chips": 4096}),
    ("We trained PaLM on 6144 TPU v4 chips at 238.3K tokens/s", {"n_chips": 6144, "tokens_per_s": 238.3e3}),
    ("a 540-billion parameter model trained on 780B tokens", {"params": 540e9, "tokens": 780e9}),
    ("8-way PP with 32 microbatches and TP=8", {"pp_degree": 8, "microbatches": 32, "tp_degree": 8}),
    ("node egress of 400 GB/s and 989 TFLOP/s peak", {"bandwidth_bytes_per_s": 400e9, "peak_flop_per_s": 989e12}),
    ("MFU of 46.2%, step time 12 s, seq len 4096", {"mfu": 0.462, "step_time_s": 12, "seq_len": 4096}),
    ("باستخدام ٤٠٩٦ GPUs", {"n_chips": 4096}),
])
def test_roles_and_values(text, expected):
    found = {role: q.value for role, q in first_by_role(find_quantities(text)).items()}
    assert found == pytest.approx(expected)


@pytest.mark.parametrize("text", [
    "72 GPUs in NVL72",          # the size of a machine, not of the job
    "8 GPUs per node",
    "B200 GPUs and H100s",       # digits inside a product name
    "the 1F1B schedule on NVL72",
])
def test_names_and_machine_sizes_are_not_job_sizes(text):
    assert "n_chips" not in first_by_role(find_quantities(text))
