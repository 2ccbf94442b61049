"""Fixes from round 59's blind readers (bench/corpus/HOLDOUT_R59_JUDGING.md), each a general rule tested on sentences
written for the test (or a passage's own words, said in other words), with the passage that showed it named beside it."""

from service.explain import glossary
from service.explain.compose import explain_offline
from service.explain.figures import read_figures


def _terms(text: str, lang: str = "en") -> dict[str, dict]:
    return {t["id"]: t for t in explain_offline(text, lang)["terms"]}


def _ids(text: str) -> set[str]:
    return {m.entry["id"] for m in glossary.load().find(text)}


def test_a_count_inside_the_occurrence_makes_parameters_weights():
    # round 59 P17 (ReaLHF#80): "a 7B parameter model shouldn't require PP > 2" in a text on settings was glossed as
    # configuration settings
    text = ("The project offers an n_mbs setting, and a mini_batch_size setting would help: a 7B parameter model "
            "shouldn't require PP > 2 with that setting.")
    assert _terms(text)["parameters"]["expansion"] == "parameters (weights)"


def test_half_precision_beside_both_formats_is_sixteen_bit_not_fp16():
    # round 59 P06 (NeMo's mixed-precision docs): "half-precision FP16 and BF16 computation" was glossed as fp16 only
    terms = _terms("NeMo supports half-precision FP16 and BF16 computation training via Megatron Core.")
    assert "sixteen-bit-precision" in terms and terms["sixteen-bit-precision"]["found_as"].startswith("half-precision")
    assert "fp16" in _terms("Training in half precision needs loss scaling to avoid underflow.")


def test_a_slice_called_a_pod_is_not_contradicted():
    # round 59 P09 (pytorch/xla#3510): "the v3-128 pod" against a definition that a pod is only the largest set
    definition = _terms("The trick works well on the v3-128 pod in this case.")["tpu-pod"]["definition"]
    assert "often called a pod too" in definition


def test_an_all_to_all_configuration_is_wiring_not_the_collective():
    # round 59 P11 (the scaling book on TPU networking): "GPUs connect up to 256 H100s in an all-to-all configuration"
    assert "all-to-all" not in _terms("GPUs connect up to 256 H100s in an all-to-all configuration (called a node).")
    assert "all-to-all" in _terms("The MoE layer runs an all-to-all to dispatch tokens to experts.")


def test_zero_plus_plus_parts_keep_what_they_do():
    # round 59 P04 (DeepSpeed's ZeRO++ tutorial): "qwZ: One of the three parts of ZeRO++." was an empty item, hpZ's was cut
    # mid-clause in Arabic, and "data remapping and recomputation" was glossed as activation checkpointing
    text = ("ZeRO++ has three parts: qwZ, hpZ and qgZ.\n- hpZ eliminates inter-node backward parameter all-gather "
            "communication through data remapping and recomputation\n- qgZ replaces gradients allreduce collective.")
    en = explain_offline(text, "en")["explanation"]
    assert "One of the three parts of ZeRO++." not in en
    ar = explain_offline(text, "ar")["explanation"]
    assert "تحتفظ كل عقدة بنسخة ثانية كاملة" in ar, ar
    assert "activation-checkpointing" not in _terms(text)
    assert "activation-checkpointing" in _terms("Recomputation costs an extra forward pass per layer.")


def test_latency_hidden_under_compute_is_communications():
    # round 59 P01 (the Comet MoE abstract): "the latency concealing is sub-optimal" was glossed as a request's wait
    text = "Coarse grained overlapping schemes impair efficiency and the latency concealing of communication is sub-optimal."
    assert _terms(text)["latency"]["expansion"] == "latency"


def test_one_kernels_total_compute_is_no_training_budget():
    # round 59 P18 (flash-attention#2576): "same total compute, fewer heads" was glossed as a run's FLOPs budget
    assert "compute-budget" not in _ids("hd=256 causal forward should match hd=128: same total compute, fewer heads.")
    assert "compute-budget" in _ids("The total compute of the training run was 3.8e25 FLOPs over 15T tokens.")  # a context alias: found


def test_a_target_model_outside_speculative_decoding_is_not_its_sense():
    # round 59 P15 (DeepSpeed's Universal Checkpointing tutorial): "The target model still needs to expose matching
    # AutoEP parameter names" and "Topology changes are limited to data-parallel world-size changes"
    text = ("The target model still needs to expose matching AutoEP parameter names. Topology changes are limited to "
            "data-parallel world-size changes and autoep_size resharding; with autoep_size=1 the tensor is not sliced.")
    terms = _terms(text)
    assert "target-model" not in terms
    assert terms["topology"]["expansion"].startswith("parallel layout")


def test_tiled_mlp_is_not_a_matmul_tile_size():
    # round 59 P13 (DeepSpeed's ALST tutorial): "Tiled MLP compute" runs the MLP over slices of the sequence
    assert "tile-size" not in _terms("ALST uses activation checkpoint offload to CPU and Tiled MLP compute.")


def test_arabic_gpu_hours_are_no_gpu_count():
    # round 59 pack 107 P04: "5 × 24 × 30 = 3,600 GPU-ساعة/شهر" was checked as "the text says 3,600 GPU"
    read = {f.quote: f.quantity for f in read_figures("فهذا يعني 5 × 24 × 30 = 3,600 GPU-ساعة/شهر سواء اتصل مستخدم")}
    assert read.get("3,600 GPU-ساعة/شهر") == "chip_hours", read


def test_arabic_words_that_only_look_like_the_fields():
    # round 59 pack 107: «بصورة حتمية» (worked out by calculation, P02), «منخفضة التسامح مع الأخطاء» (an industry's
    # tolerance for error, P05) and «الاستدلال غير الإنجليزي» (reasoning in other languages, P05)
    assert "training-determinism" not in _terms("أجرينا حسابات حجم الذاكرة بصورة حتمية استناداً إلى الأرقام المعلنة لنماذج 4-bit.", "ar")
    assert "fault-tolerance" not in _terms("خاصة في الصناعات منخفضة التسامح مع الأخطاء مثل الرعاية الصحية بعد التدريب.", "ar")
    assert "inference" not in _terms("الاستدلال غير الإنجليزي: درجات أولية حوالي 16% في مجموعات البيانات.", "ar")
    assert "inference" in _terms("يحتاج الاستدلال على نموذج 70B إلى ذاكرة كبيرة على GPU.", "ar")


def test_the_states_are_not_set_against_a_memory_the_job_may_not_have():
    # round 59 P12 (PyTorch's FSDP blog): "NVIDIA A100 peak" with "The use of A100 80G GPUs ... will mostly resolve this
    # issue": the run's A100s were not 80 GB, yet "16 TB, 1.6 times the 128 x 80 GB, ... part must live in CPU memory"
    text = ("For the GPT 1T model, the maximum per-GPU throughput of 84 teraFLOP/s (27% of the NVIDIA A100 peak) is achieved "
            "with batch size 4 on 128 GPUs for 1T training. The use of A100 80G GPUs with larger memory capacity will mostly "
            "resolve this issue.")
    assert not [c for c in explain_offline(text, "en")["claims"] if "mixed-precision Adam" in c["why"]]
    said = explain_offline("70B FT on 4xA100 80GB runs out of memory.", "en")["claims"]
    assert any("mixed-precision Adam keeps about 1.12 TB" in c["why"] for c in said), said


def test_one_trillion_is_a_number_a_definition_may_not_bring():
    # round 59 P10 (vLLM's decode context parallel docs): "K2: ... about one trillion parameters in total" for a passage
    # that names K2 without its size
    from service.explain import outside_numbers

    assert outside_numbers.outside("about one trillion parameters in total", "We serve K2 on 16 GPUs.") == ["trillion"]
    assert outside_numbers.outside("about one trillion parameters", "K2 has one trillion parameters.") == []
    assert outside_numbers.outside("seven billion parameters", "a 7B model") == []  # the seven is what is compared


def test_memory_bandwidth_brings_no_magnitudes():
    # round 59 P11-ar (the scaling book on TPU networking): «مئات الغيغابايتات في الثانية» for a CPU's DDR, a figure the
    # passage never gives
    text = "HBM bandwidth on a TPU v5p is about 2.7 TB/s per chip."
    assert "hundreds" not in _terms(text)["memory-bandwidth"]["definition"]
    assert "مئات" not in _terms(text, "ar")["memory-bandwidth"]["definition"]


def test_the_causal_mask_brings_no_share_of_the_work():
    # round 59 P18 (flash-attention#2576): "causal attention does about half the work of full attention", a share the
    # passage never gives
    definition = _terms("With a causal mask, FlashAttention skips the masked blocks of the score matrix on B200.")["causal-mask"]["definition"]
    assert "half" not in definition and "less work" in definition
