"""Whether a model's training states fit on all the job's chips together. Sentences written for these tests; published
figures are sourced beside each case."""

from service.explain.pipeline import analyse


def _why(text: str) -> str:
    return " ".join(c.why for c in analyse(text, "en").claims)


def test_full_training_states_beyond_all_the_chips_must_be_offloaded():
    # ZeRO (Rajbhandari et al. 2020, section 3.1): 16 bytes per parameter with mixed-precision Adam; 70B x 16 = 1.12 TB;
    # four H100 SXM of 80 GB each (NVIDIA datasheet) hold 320 GB together
    why = _why("I train with FSDP on 4xH100(80G). When it comes to 70B full fine-tuning, training is 2x slower than on A100.")
    assert "1.12 TB" in why and "4 x 80 GB = 320 GB" in why and "offload" in why


def test_states_that_fit_together_and_partial_training_say_nothing():
    # 7B x 16 = 112 GB fits in 8 x 80 GB when sharded: nothing worth saying
    assert "offload" not in _why("We run 7B full fine-tuning on 8 H100 GPUs.")
    # LoRA/QLoRA keep no full optimizer states
    assert "offload" not in _why("We are training a 70B model with QLoRA on 4 H100 GPUs.")
    assert "offload" not in _why("On 4 H100 GPUs, 70B PEFT works as expected.")
    # a bare "GPU" names no memory
    assert "offload" not in _why("When it comes to 70B full fine-tuning on 4 GPUs, training is slow.")
