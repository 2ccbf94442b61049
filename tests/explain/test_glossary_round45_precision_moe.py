"""Round 45, precision_moe (issue 18): the long tail of low precision, quantization and MoE routing, each term found
in a sentence quoted from its primary source, and its Arabic spellings found in Arabic text."""

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_found_as
from tests.support.glossary_files import detected as ids  # the detector's finds, shared by the glossary tests

pytestmark = pytest.mark.skipif(not list((data_dir() / "glossary").glob("*.json")), reason="glossary data not present")

HF_OPTIMUM = "https://huggingface.co/docs/optimum/concept_guides/quantization"
VLLM_FP8 = "https://docs.vllm.ai/en/latest/features/quantization/fp8.html"
TE_RECIPE = "https://github.com/NVIDIA/TransformerEngine/blob/main/transformer_engine/common/recipe/__init__.py"
MCORE_MOE = "https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/core/transformer/moe/README.md"
DSV3_CONFIG = "https://github.com/huggingface/transformers/blob/main/src/transformers/models/deepseek_v3/configuration_deepseek_v3.py"

# (term id, sentence quoted from the source, what the detector should find); the source is in the comment.
REAL_SENTENCES = [
    # https://github.com/mit-han-lab/smoothquant (README abstract)
    ("smoothquant", "SmoothQuant enables an INT8 quantization of both weights and activations for all the matrix multiplications in LLMs, including OPT-175B, BLOOM-176B, GLM-130B, and MT-NLG 530B.", "SmoothQuant"),
    # https://github.com/spcl/QuaRot (README abstract)
    ("quarot", "We introduce QuaRot, a new Quantization scheme based on Rotations, which is able to quantize LLMs end-to-end, including all weights, activations, and KV cache in 4 bits.", "QuaRot"),
    # https://github.com/facebookresearch/SpinQuant (README)
    ("spinquant", "As a result, SpinQuant narrows the accuracy gap of W4A4KV4 quantization with full precision to merely 2.9 points for the LLaMA-2 7B model on zero-shot reasoning tasks", "SpinQuant"),
    # HF_OPTIMUM (affine quantization scheme)
    ("quantization-zero-point", "Z is called the zero-point, it is the int8 value corresponding to the value 0 in the float32 realm.", "zero-point"),
    # HF_OPTIMUM (symmetric and affine quantization schemes)
    ("symmetric-quantization", "A common special case of this scheme is the symmetric quantization scheme, where we consider a symmetric range of float values [-a, a].", "symmetric quantization scheme"),
    # VLLM_FP8 (FP8_DYNAMIC scheme)
    ("per-channel-quantization", "Static, per-channel quantization on the weights", "per-channel quantization"),
    ("per-token-quantization", "Dynamic, per-token quantization on the activations", "per-token quantization"),
    # VLLM_FP8 (Online Dynamic Quantization)
    ("dynamic-static-quantization", "Dynamic quantization of an original precision BF16/FP16 model to FP8 can be achieved with vLLM without any calibration data required.", "Dynamic quantization"),
    # HF_OPTIMUM (Calibration)
    ("dynamic-static-quantization", "Post training static quantization: the range for each activation is computed in advance at quantization-time, typically by passing representative data through the model and recording the activation values.", "Post training static quantization"),
    # https://github.com/mobiusml/hqq (Readme)
    ("hqq", "HQQ is a fast and accurate model quantizer that skips the need for calibration data.", "HQQ"),
    # https://github.com/Cornell-RelaxML/quip-sharp (README)
    ("quip-sharp", "QuIP# combines lattice codebooks with incoherence processing to create state-of-the-art 2 bit quantized models.", "QuIP#"),
    # https://github.com/Vahe1994/AQLM (README, Quantization time)
    ("aqlm", "AQLM quantization takes considerably longer to calibrate than simpler quantization methods such as GPTQ.", "AQLM"),
    # https://github.com/NVIDIA/cutlass/blob/main/examples/55_hopper_mixed_dtype_gemm/55_hopper_mixed_dtype_gemm.cu
    ("mixed-input-gemm", "Runs the mixed input gemm, and applies a scaling factor to B before mma (mode 1).", "mixed input gemm"),
    # https://onnx.ai/onnx/technical/float8.html
    ("fp8-fn-fnuz", "E4M3FNUZ: 1 bit for the sign, 4 bits for the exponents, 3 bits for the mantissa, only nan values and no infinite values (FN), no negative zero (UZ)", "E4M3FNUZ"),
    # VLLM_FP8 (Applying Quantization)
    ("rtn-quantization", "For FP8 quantization, we can recover accuracy with simple RTN quantization.", "RTN quantization"),
    # https://huggingface.co/docs/transformers/main_classes/quantization (GPTQConfig)
    ("gptq-act-order", "Whether to quantize columns in order of decreasing activation size. Setting it to False can significantly speed up inference but the perplexity may become slightly worse. Also known as act-order.", "act-order"),
    # https://github.com/ggml-org/llama.cpp/blob/master/tools/quantize/README.md (--target-bpw)
    ("bits-per-weight", "automatically choose quant types so that the overall model size matches a given bits per weight (bpw) average.", "bits per weight"),
    # https://github.com/artidoro/qlora (README overview)
    ("double-quantization", "(b) Double Quantization to reduce the average memory footprint by quantizing the quantization constants", "Double Quantization"),
    # https://huggingface.co/docs/transformers/quantization/bitsandbytes (Nested quantization)
    ("double-quantization", "Nested quantization is a technique that can save additional memory at no additional performance cost.", "Nested quantization"),
    # TE_RECIPE (Format)
    ("fp4-e2m1", "E2M1 : All FP4 tensors are in e2m1 format", "e2m1"),
    ("fp8-hybrid-format", "fp8_format : {Format.E4M3, Format.HYBRID}, default = Format.HYBRID", "Format.HYBRID"),
    # https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/native/cuda/Blas.cpp (_scaled_mm_out_cuda)
    ("torch-scaled-mm", "torch._scaled_mm is only supported on CUDA devices with compute capability >= 9.0 or 8.9, or ROCm MI300+", "torch._scaled_mm"),
    # https://github.com/pytorch/ao/blob/main/torchao/prototype/mx_formats/README.md
    ("torch-scaled-mm", "On NVIDIA B200 machines, we use the cuBLAS mxfp8 gemm exposed via the torch._scaled_mm op.", "torch._scaled_mm"),
    # https://github.com/neuralmagic/compressed-tensors (README)
    ("compressed-tensors", "The compressed-tensors library extends the safetensors format, providing a versatile and efficient way to store and manage compressed tensor data.", "compressed-tensors"),
    # https://github.com/vllm-project/llm-compressor (README, Inference with vLLM)
    ("llm-compressor", "The checkpoints created by llmcompressor can be loaded and run in vllm", "llmcompressor"),
    # https://github.com/NVIDIA/TensorRT-Model-Optimizer (README overview)
    ("tensorrt-model-optimizer", "The NVIDIA TensorRT Model Optimizer (referred to as Model Optimizer, or ModelOpt) is a library comprising state-of-the-art model optimization techniques including quantization and sparsity to compress model.", "NVIDIA TensorRT Model Optimizer"),
    # https://github.com/intel/auto-round (README)
    ("autoround", "AutoRound is an advanced weight-only quantization algorithm for low-bits LLM inference.", "AutoRound"),
    # https://github.com/ggml-org/llama.cpp/blob/master/tools/imatrix/README.md
    ("llama-cpp-imatrix", "Compute an importance matrix for a model and given text dataset.", "importance matrix"),
    # DSV3_CONFIG (DeepseekV3Config docstring)
    ("routed-scaling-factor", "routed_scaling_factor (float, optional, defaults to 2.5): Scaling factor or routed experts.", "routed_scaling_factor"),
    ("topk-renormalization", "norm_topk_prob (bool, optional, defaults to True): Whether to normalize the weights of the routed experts.", "norm_topk_prob"),
    ("first-k-dense-replace", "first_k_dense_replace (int, optional, defaults to 3): Number of dense layers in shallow layers", "first_k_dense_replace"),
    # https://huggingface.co/docs/transformers/model_doc/switch_transformers (SwitchTransformersConfig)
    ("router-jitter", "router_jitter_noise (float, optional, defaults to 0.01): Amount of noise to add to the router.", "router_jitter_noise"),
    # https://arxiv.org/abs/1701.06538 (section 2.1)
    ("noisy-top-k-gating", "Noisy Top-K Gating: We add two components to the Softmax gating network: sparsity and noise.", "Noisy Top-K Gating"),
    # https://github.com/google/flaxformer/blob/main/flaxformer/architectures/moe/routing.py
    ("batch-prioritized-routing", "Whether or not to use Batch Prioritized Routing (BPR), originally introduced in V-MoE", "Batch Prioritized Routing"),
    # https://github.com/deepseek-ai/EPLB (README)
    ("hot-experts", "As described in the DeepSeek-V3 paper, we adopt a redundant experts strategy that duplicates heavy-loaded experts.", "heavy-loaded experts"),
    # MCORE_MOE (--moe-router-enable-expert-bias)
    ("router-scores", "The routing decision is based on the sum of the routing scores and the expert bias.", "routing scores"),
    # https://huggingface.co/docs/transformers/model_doc/mixtral (MixtralConfig)
    ("aux-loss-coefficient", "router_aux_loss_coef (float, optional, defaults to 0.001): The aux loss factor for the total loss.", "router_aux_loss_coef"),
    # MCORE_MOE (MoE Related Arguments)
    ("expert-bias-update-rate", "--moe-router-bias-update-rate | The expert bias is updated based on the number of assigned tokens to each expert in a global batch", "moe-router-bias-update-rate"),
    # MCORE_MOE (Quick Start)
    ("moe-drop-and-pad", "By setting --moe-pad-expert-input-to-capacity, the experts with tokens less than capacity will be padded to the capacity.", "moe-pad-expert-input-to-capacity"),
    # MCORE_MOE (Token Dispatch Mechanism)
    ("moe-drop-and-pad", "Token drop, with or without padding to capacity", "padding to capacity"),
    # https://arxiv.org/abs/2510.11370 (abstract)
    ("routing-replay", "To address this foundational inconsistency, we propose Rollout Routing Replay (R3), a method that records routing distributions from the inference engine and replays them during training.", "Rollout Routing Replay"),
]

NEW_IDS = sorted({term_id for term_id, _, _ in REAL_SENTENCES})




@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round45_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_full_fields():
    by_id = glossary.load().by_id
    assert len(NEW_IDS) == 37
    for term_id in NEW_IDS:
        entry = by_id[term_id]
        for key in ("term", "expansion", "definition", "category", "aliases"):
            assert entry.get(key), (term_id, key)
        assert entry["ar"].get("term") and entry["ar"].get("definition"), term_id
        assert (entry.get("intuition") is None) == (entry["ar"].get("intuition") is None), term_id
        assert entry["source"]["url"].startswith("https://"), term_id


@pytest.mark.parametrize("text, term_id", [
    ("نستخدم نقطة الصفر في التكميم غير المتماثل لتمثيل الصفر بدقة", "quantization-zero-point"),
    ("يعتمد التكميم المتماثل على مدى متمركز حول الصفر", "symmetric-quantization"),
    ("نطبق التكميم لكل قناة على الأوزان والتكميم لكل رمز على التنشيطات", "per-channel-quantization"),
    ("نطبق التكميم لكل قناة على الأوزان والتكميم لكل رمز على التنشيطات", "per-token-quantization"),
    ("التكميم الديناميكي لا يحتاج إلى بيانات معايرة", "dynamic-static-quantization"),
    ("يوفر التكميم المزدوج نحو 0.37 بت لكل وزن في QLoRA", "double-quantization"),
    ("يوفر التكميم المزدوج نحو 0.37 بت لكل وزن في QLoRA", "bits-per-weight"),
    ("استعملنا مصفوفة الأهمية عند تكميم النموذج إلى Q4_K_M", "llama-cpp-imatrix"),
    ("يتسبب الخبراء الساخنون في إبطاء الوحدات الأخرى", "hot-experts"),
    ("ضبطنا معامل الخسارة المساعدة على 0.01 وسرعة تحديث الانحياز على 0.001", "aux-loss-coefficient"),
    ("ضبطنا معامل الخسارة المساعدة على 0.01 وسرعة تحديث الانحياز على 0.001", "expert-bias-update-rate"),
    ("يفرض نمط الإسقاط والحشو شكلًا ثابتًا لكل خبير", "moe-drop-and-pad"),
    ("تقلل إعادة تشغيل التوجيه الفرق بين التدريب والاستدلال في نماذج MoE", "routing-replay"),
])
def test_round45_term_in_an_arabic_sentence(text, term_id):
    assert term_id in ids(text), ids(text)


def test_guarded_aliases_keep_their_other_senses():
    # "per token" of a cost or a KV-cache size is no quantization granularity
    assert "per-token-quantization" not in ids("A 70B model in FP8 streams about 70 GB off HBM per token.")
    # "per channel" of memory is no quantization granularity; beside quantization it is
    assert "per-channel-quantization" not in ids("HBM3 gives each stack 16 channels and 64 GB/s per channel.")
    assert ids("Keys should be quantized per channel and values per token.")["per-channel-quantization"] == "per channel"
    # DeepSeek's R2 model and a bare R3 are no routing replay
    assert "routing-replay" not in ids("DeepSeek R2 was expected to use a new mixture-of-experts design with more experts.")
    # "compressed tensors" in plain English, away from checkpoints and quantization
    assert "compressed-tensors" not in ids("The profiler shows compressed tensors moving between the two processes.")
    # "router logits" stays the logits entry; "W4A16 kernels" stays the W4A16 scheme, not the GEMM kind
    assert "logits" in ids("The router logits grew until the z-loss was added.")
    assert "weight-activation-bits" in ids("The W4A16 kernels in vLLM run fast.")
    # network jitter stays network jitter; the router's jitter noise is the MoE regularizer
    assert ids("P99 latency jitter doubled under load.").get("router-jitter") is None
    assert "router-jitter" in ids("Mixtral sets router_jitter_noise to 0.0 at inference.")
    # FP8 type names: the OCP E4M3 stays the fp8 entry, the FN/FNUZ spellings are their own
    assert "fp8" in ids("The E4M3 format keeps 3 mantissa bits.")
    assert ids("AMD MI300 uses torch.float8_e4m3fnuz.")["fp8-fn-fnuz"] == "torch.float8_e4m3fnuz"
