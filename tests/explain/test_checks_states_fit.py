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


def test_a_token_count_after_train_for_is_no_model_size():
    # a round-15 answer sized "11T trained in full" as 176 TB of states; "1.7B (train for 11T)" trains a 1.7B model on
    # 11T tokens (written for this test in that shape)
    text = ("Papers give the GPUs used for training, say 256 H100 GPUs, but not the time. Approximate GPU hours:\n"
            "1.7B (train for 11T): 140k\n360M (train for 4T): 20k")
    doc = analyse(text, "en")
    assert "176 TB" not in " ".join(c.why for c in doc.claims) and "64 TB" not in " ".join(c.why for c in doc.claims)
    assert any(f.quantity == "tokens" and f.value == 11e12 for f in doc.figures)


def test_no_training_states_on_a_passage_that_only_serves_the_model():
    # a round-15 answer: "the model states take 112 GB per chip, more than the 14 GB each chip has" for a decode-time
    # floor where 14 GB is the weights' size in FP16; written for this test in that shape (13B x 2 bytes = 26 GB)
    text = ("لنموذج بـ 13 مليار معامل بدقة FP16 (26 جيجابايت تقريبًا) على معالج بعرض نطاق 3 تيرابايت/ث، "
            "الحد الأدنى النظري لزمن الرمز ≈ 26e9 / 3e12 ≈ 8.7 ميلي ثانية.")
    why = " ".join(c.why for c in analyse(text, "en").claims)
    assert "8.667 ms" in why and "208 GB" not in why
    # the same sentence about training keeps the check (the guard is the passage's subject, not the figures)
    # the same kind of sentence about training keeps the check (the guard is the passage's subject, not the figures),
    # where the text names a chip's memory: "FP16 (26 GB)" is the weights' size, and FP16 is no chip (round 42)
    assert "208 GB" not in " ".join(c.why for c in analyse("عند تدريب " + text.removeprefix("ل"), "en").claims)
    training = ("عند تدريب نموذج بـ 13 مليار معامل بدقة FP16 على وحدة A100 بذاكرة 40 جيجابايت، "
                "الحد الأدنى النظري لزمن الرمز ≈ 26e9 / 3e12 ≈ 8.7 ميلي ثانية.")
    assert "208 GB" in " ".join(c.why for c in analyse(training, "en").claims)


def test_choices_in_a_question_are_no_run_time():
    # a round-15 answer: "Cannot be checked yet: which token count its 2 seconds cover" for "was the training completed
    # in 2 seconds, 2 days, or 2 months?"; written for this test in that shape
    text = ("Why do so many model cards give the number of GPUs used for training but not the duration of the training "
            "process? For instance, if 256 H100 GPUs were utilized, was the training completed in 2 seconds, 2 days, or 2 "
            "months?\nHere are the approximate gpu hours for the different model sizes:\n1.7B (train for 11T): 140k\n"
            "360M (train for 4T): 20k")
    assert "2 seconds cover" not in _why(text)


def test_a_time_under_an_hour_is_no_runs_duration():
    # a round-14 answer: "Memory profiling takes 1.32 seconds. Cannot be checked yet: which token count its 1.32
    # seconds cover"; written for this test in that shape
    text = "We pretrain a 7B model on 2T tokens in two phases. The warmup phase took 40 minutes on 64 H100 GPUs."
    assert "40 minutes cover" not in _why(text)


def test_a_ratio_of_tokens_and_one_phase_named_leave_the_runs_token_count_usable():
    # round 17: "Twenty tokens for each parameter ... 160 billion tokens ... 22 days ... the pretraining of that model"
    # was refused as "perhaps for another phase"; written for this test in that shape
    text = ("We want to train an 8B parameter model. Twenty tokens for each parameter gives 160 billion tokens. At 50% MFU "
            "that means training for 22 days. That is the pretraining of that model.")
    assert "another phase" not in _why(text)
