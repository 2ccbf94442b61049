"""Round 45 long tail, kernels (data/glossary/long_tail_round45_kernels.json): GPU kernel, profiler and compiler
vocabulary (CUDA events and synchronisation, CUDA memory spaces, GEMM kernel design, Nsight and ROCm profilers,
torch.compile's graph breaks and recompilation, AMD's wavefronts, LDS and XCDs). Sentences quoted from each primary
source must find the entry; the same words in their everyday or other-field senses stay unexplained."""

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_entries_whole, assert_found_as, detected

pytestmark = pytest.mark.skipif(not (data_dir() / "glossary" / "long_tail_round45_kernels.json").exists(),
                                reason="round 45 kernels glossary data not present")

CUDA_GUIDE = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html"
PT_CUDA = "https://docs.pytorch.org/docs/stable/notes/cuda.html"
CUTLASS_GEMM = "https://github.com/NVIDIA/cutlass/blob/main/media/docs/cpp/efficient_gemm.md"
NCU = "https://docs.nvidia.com/nsight-compute/ProfilingGuide/index.html"

PT_TIMING = ("To get precise measurements, one should either call torch.cuda.synchronize() before measuring, or use "
             "torch.cuda.Event to record times as following:")

# (term id, sentence quoted from the source, what the detector should find); the source is in the comment.
REAL_SENTENCES = [
    # PT_CUDA (Asynchronous execution)
    ("cuda-event", PT_TIMING, "torch.cuda.Event"),
    ("cuda-synchronize", PT_TIMING, "torch.cuda.synchronize"),
    ("cuda-launch-blocking", "You can force synchronous computation by setting environment variable "
                             "CUDA_LAUNCH_BLOCKING=1.", "CUDA_LAUNCH_BLOCKING"),
    # https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__EXECUTION.html (cudaFuncSetAttribute)
    ("l1-cache", "On devices where the L1 cache and shared memory use the same hardware resources, this sets the "
                 "shared memory carveout preference, in percent of the total shared memory.", "L1 cache"),
    # CUDA_GUIDE + #device-memory-accesses
    ("cuda-global-memory", "Global memory resides in device memory and device memory is accessed via 32-, 64-, or "
                           "128-byte memory transactions.", "Global memory"),
    ("cuda-local-memory", "The local memory space resides in device memory, so local memory accesses have the same "
                          "high latency and low bandwidth as global memory accesses and are subject to the same "
                          "requirements for memory coalescing as described in Device Memory Accesses.",
     "local memory"),
    ("cuda-local-memory", "Also, the compiler reports total local memory usage per kernel (lmem) when compiling with "
                          "the --ptxas-options=-v option.", "local memory"),
    ("bank-conflict", "However, if two addresses of a memory request fall in the same memory bank, there is a bank "
                      "conflict and the access has to be serialized.", "bank conflict"),
    ("memory-coalescing", "When a warp executes an instruction that accesses global memory, it coalesces the memory "
                          "accesses of the threads within the warp into one or more of these memory transactions "
                          "depending on the size of the word accessed by each thread and the distribution of the "
                          "memory addresses across the threads.", "coalesces"),
    ("memory-coalescing", "To maximize global memory throughput, it is therefore important to maximize coalescing by:",
     "coalescing"),
    # CUDA_GUIDE + #simt-architecture
    ("warp-divergence", "Branch divergence occurs only within a warp; different warps execute independently regardless "
                        "of whether they are executing common or disjoint code paths.", "Branch divergence"),
    # NCU (Sections: SchedulerStats)
    ("latency-hiding", "Having many skipped issue slots indicates poor latency hiding.", "poor latency hiding"),
    # NCU (Pipelines)
    ("alu", "Arithmetic Logic Unit. The ALU is responsible for execution of most bit manipulation and logic "
            "instructions.", "Arithmetic Logic Unit"),
    # https://rocm.docs.amd.com/projects/HIP/en/docs-6.1.2/understand/programming_model.html
    ("alu", "These CUs provide the necessary resources for the threads: the Arithmetic Logical Units (ALUs), register "
            "files, caches and shared memory for efficient communication between the threads.", "Arithmetic Logical Units"),
    # NCU (Sections: SpeedOfLight)
    ("speed-of-light", "SpeedOfLight (GPU Speed Of Light Throughput) | High-level overview of the throughput for "
                       "compute and memory resources of the GPU.", "SpeedOfLight"),
    # https://rocm.docs.amd.com/projects/rocprofiler-compute/en/7.13.0-preview/how-to/analyze/cli.html
    ("speed-of-light", "System Speed-of-Light: Key GPU performance metrics to show overall GPU performance and "
                       "utilization.", "System Speed-of-Light"),
    # CUTLASS_GEMM (Epilogue, Pipelining, Hopper Warp Specialization, Parallelized Reductions)
    ("gemm-epilogue", "The epilogue is a separate phase in which threads exchange data through shared memory then "
                      "cooperatively access global memory using efficient striped access patterns.", "epilogue"),
    ("gemm-epilogue", "CUTLASS defines several typical epilogue operations such as linear scaling and clamping, but "
                      "other device-side function call operators may be used to perform custom operations.", "epilogue"),
    ("software-pipelining", "To mitigate the effects of memory latency, CUTLASS uses software pipelining to overlap "
                            "memory accesses with other computation within a thread.", "software pipelining"),
    ("warp-specialization", "Starting with Hopper, CUTLASS 3.0 incorporates the concept of Warp Specialization as part "
                            "of the kernel design.", "Warp Specialization"),
    ("warp-specialization", "The two consumer warp groups are assigned a different output tile using the Tile "
                            "Scheduler.", "consumer warp groups"),
    ("batched-gemm", "PartitionedK GEMM resembles one flavor of batched strided GEMM.", "batched strided GEMM"),
    # https://github.com/NVIDIA/Megatron-LM/blob/main/docs/llama_mistral.md
    ("batched-gemm", "Megatron performs batch matrix multiplications in a couple places, such as within self attention "
                     "and in SwiGLU, that Llama performs separately.", "batch matrix multiplications"),
    # https://arxiv.org/abs/2307.08691 (FlashAttention-2, section 2.3.1)
    ("online-softmax", "We describe the online softmax technique (Milakov and Gimelshein, 2018) and how it is used in "
                       "attention (Rabe and Staats, 2021).", "online softmax technique"),
    # CUDA_GUIDE + #thread-block-clusters
    ("thread-block-cluster", "With the introduction of NVIDIA Compute Capability 9.0, the CUDA programming model "
                             "introduces an optional level of hierarchy called Thread Block Clusters that are made up "
                             "of thread blocks.", "Thread Block Clusters"),
    ("thread-block-cluster", "Thread blocks that belong to a cluster have access to the Distributed Shared Memory.",
     "Distributed Shared Memory"),
    # https://nvidia.github.io/tilus/stable/programming-guides/type-system/tmemory-tensor.html
    ("tensor-memory", "Tensor Memory is a dedicated on-chip memory specialized for use by the 5th-generation Tensor "
                      "Cores (tcgen05).", "Tensor Memory"),
    # https://nvidia.github.io/tilus/stable/python-api/instruction-groups/tcgen05.html
    ("tensor-memory", "Blackwell introduces tensor memory (TMEM), a high-bandwidth on-chip memory space dedicated to "
                      "the tensor core.", "tensor memory (TMEM)"),
    # https://docs.nvidia.com/cuda/parallel-thread-execution/index.html#data-movement-and-conversion-instructions-cp-async
    ("cp-async", "cp.async is a non-blocking instruction which initiates an asynchronous copy operation of data from "
                 "the location specified by source address operand src to the location specified by destination "
                 "address operand dst.", "cp.async"),
    # https://docs.nvidia.com/cuda/cuda-binary-utilities/index.html (section 2.1.1)
    ("sass", "Dumping SASS, ELF, and PTX (-sass, -elf, -ptx)", "sass"),
    # https://docs.nvidia.com/cuda/cuda-programming-guide/02-basics/nvcc.html
    ("nvcc", "nvcc drives offline compilation of CUDA code, in contrast to online or Just-in-Time (JIT) compilation "
             "driven by the CUDA runtime compiler nvrtc.", "nvcc"),
    # https://hazyresearch.stanford.edu/blog/2025-05-27-no-bubbles
    ("megakernel", "In this post, we show how we can bypass this problem by merging the entire Llama-1B forward pass "
                   "into a single \"megakernel\" that eliminates kernel boundaries altogether.", "megakernel"),
    # https://docs.nvidia.com/compute-sanitizer/ComputeSanitizer/index.html
    ("compute-sanitizer", "Compute Sanitizer is a functional correctness checking suite included in the CUDA toolkit.",
     "Compute Sanitizer"),
    # https://docs.pytorch.org/docs/stable/generated/torch.autograd.profiler.profile.export_chrome_trace.html
    ("chrome-trace", "Export an EventList as a Chrome tracing tools file.", "Chrome tracing"),
    # https://perfetto.dev/docs/getting-started/other-formats
    ("chrome-trace", "Perfetto is capable of opening and analyzing trace files generated by a variety of external "
                     "tools and systems, not just its own native protobuf format.", "Perfetto"),
    # https://docs.nvidia.com/cupti/index.html
    ("cupti", "The CUDA Profiling Tools Interface (CUPTI) enables the creation of profiling and tracing tools that "
              "target CUDA applications.", "CUDA Profiling Tools Interface"),
    # https://docs.pytorch.org/docs/stable/compile/programming_model.graph_breaks_index.html
    ("graph-break", "Graph breaks enable Dynamo to trace through arbitrary Python code and carve out functional "
                    "subgraphs that can each be individually optimized.", "Graph breaks"),
    # https://docs.pytorch.org/docs/stable/compile/programming_model.recompilation.html
    ("dynamo-recompilation", "Recompilations are necessary for torch.compile soundness, but can result in "
                             "significantly increased compile time.", "Recompilations"),
    ("dynamo-recompilation", "You can view recompilations and their reasons using tlparse or TORCH_LOGS=recompiles.",
     "recompilations"),
    ("dynamic-shapes", "The default option, dynamic=None, will only attempt dynamic shapes after the first "
                       "compilation.", "dynamic shapes"),
    # https://triton-lang.org/main/python-api/generated/triton.autotune.html
    ("kernel-autotuning", "If the environment variable TRITON_PRINT_AUTOTUNING is set to \"1\", Triton will print a "
                          "message to stdout after autotuning each kernel, including the time spent autotuning and "
                          "the best configuration.", "TRITON_PRINT_AUTOTUNING"),
    # https://docs.pytorch.org/docs/stable/generated/torch.compile.html (mode)
    ("kernel-autotuning", "\"max-autotune\" is a mode that leverages Triton or template based matrix multiplications "
                          "on supported devices and Triton based convolutions on GPU.", "max-autotune"),
    # https://docs.pytorch.org/tutorials/intermediate/compiled_autograd_tutorial.html
    ("aot-autograd", "The AOTAutograd component captures the backward graph ahead-of-time, with certain limitations:",
     "AOTAutograd"),
    # https://docs.pytorch.org/docs/stable/compile/programming_model.dynamo_core_concepts.html
    ("fx-graph", "Given a function to be compiled, Dynamo interprets Python bytecode to extract sequences of PyTorch "
                 "operations into 1 or more FX graphs that may be further optimized by a backend.", "FX graphs"),
    # https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/native/README.md
    ("aten", "Like all ATen methods/functions, native functions are made available from both ATen‘s C++ and Python "
             "APIs.", "ATen"),
    # https://rocm.docs.amd.com/projects/rocprofiler-compute/en/develop/conceptual/pipeline-metrics.html
    ("amd-wavefront", "On AMD Instinct™ CDNA™ accelerators and GCN™ GPUs, the wavefront size is always 64 "
                      "work-items.", "wavefront size"),
    # https://rocm.docs.amd.com/projects/rocprofiler-compute/en/develop/conceptual/cdna/compute-unit.html
    ("amd-wavefront", "The compute unit (CU) is responsible for executing a user's kernels on AMD Instinct™ MI-series "
                      "GPUs based on CDNA-CDNA4 architectures. All wavefronts of a workgroup are scheduled on the same "
                      "CU.", "wavefronts"),
    # https://rocm.blogs.amd.com/software-tools-optimization/amdgcn-isa/README.html
    ("amd-lds", "The Local Data Share (LDS) in AMD GPUs is a high speed, register-adjacent memory analogous to shared "
                "memory in CUDA.", "Local Data Share"),
    # https://rocm.docs.amd.com/projects/amdsmi/en/develop/conceptual/partition.html
    ("amd-xcd", "An MI300X has 8 XCDs.", "XCDs"),
    # https://rocm.docs.amd.com/projects/hipBLASLt/en/latest/
    ("hipblaslt", "hipBLASLt is a library that provides General Matrix-Matrix (GEMM) operations with flexible APIs and "
                  "extends functionalities beyond the traditional BLAS library.", "hipBLASLt"),
    # https://rocm.docs.amd.com/projects/rocBLAS/en/latest/what-is-rocblas.html
    ("rocblas", "rocBLAS calls the AMD Tensile and hipBLASLt libraries for Level-3 GEMMs (matrix matrix "
                "multiplication).", "rocBLAS"),
    # https://rocm.docs.amd.com/projects/MIOpen/en/develop/what-is-miopen.html
    ("miopen", "MIOpen is AMD’s open-source, deep-learning primitives library for GPUs.", "MIOpen"),
    # https://rocm.docs.amd.com/projects/rocprofiler-sdk/en/latest/how-to/using-rocprofv3.html
    ("rocprof", "rocprofv3 is a CLI tool that helps you quickly optimize applications and understand the low-level "
                "kernel details without requiring any modification in the source code.", "rocprofv3"),
]

NEW_IDS = sorted({"cuda-event", "cuda-synchronize", "cuda-launch-blocking", "l1-cache", "cuda-global-memory",
                  "cuda-local-memory", "bank-conflict", "memory-coalescing", "warp-divergence", "latency-hiding",
                  "alu", "speed-of-light", "gemm-epilogue", "online-softmax", "software-pipelining",
                  "warp-specialization", "thread-block-cluster", "tensor-memory", "cp-async", "sass", "nvcc",
                  "batched-gemm", "megakernel", "compute-sanitizer", "chrome-trace", "cupti", "graph-break",
                  "dynamo-recompilation", "kernel-autotuning", "dynamic-shapes", "aot-autograd", "fx-graph", "aten",
                  "amd-wavefront", "amd-lds", "amd-xcd", "hipblaslt", "rocblas", "miopen", "rocprof"})


ids = detected


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round45_kernels_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_round45_kernels_entries_are_complete_and_sourced():
    covered = {term_id for term_id, _, _ in REAL_SENTENCES}
    assert_entries_whole("long_tail_round45_kernels.json", NEW_IDS, covered)


@pytest.mark.parametrize("term_id", NEW_IDS)
def test_round45_kernels_term_found_in_arabic_text(term_id):
    entry = glossary.load().by_id[term_id]
    rendering = entry["ar_aliases"][0]
    text = f"في هذا الإعداد يعتمد الفريق على {rendering} لتسريع تدريب النموذج."
    assert term_id in ids(text), (rendering, ids(text))


@pytest.mark.parametrize("text, not_id", [
    # a guarded alias in its other sense stays unexplained
    ("The speed of light in fibre adds about five microseconds of delay per kilometre.", "speed-of-light"),
    ("We recompile PyTorch from source with TORCH_CUDA_ARCH_LIST set to the new architecture.", "dynamo-recompilation"),
    ("torch.distributed.all_reduce_coalesced reduces a list of tensors with one collective call.", "memory-coalescing"),
    ("DeepSpeed Autotuning finds the best ZeRO stage and micro-batch size for the job.", "kernel-autotuning"),
    # https://docs.nvidia.com/cuda/parallel-thread-execution/index.html (host memory and device memory)
    ("Both the host and the device maintain their own local memory, referred to as host memory and device memory, "
     "respectively.", "cuda-local-memory"),
    ("The epilogue of the novel takes place ten years later.", "gemm-epilogue"),
    ("Sass is a stylesheet language that is compiled to CSS.", "sass"),
    ("A wavefront schedule processes the anti-diagonals of the dynamic-programming table in parallel.", "amd-wavefront"),
    ("The all-gather is overlapped with the backward pass to hide the latency of communication.", "latency-hiding"),
    ("NVIDIA's Tensor Memory Accelerator (TMA) copies tiles between global and shared memory.", "tensor-memory"),
    ("The LDS and HDL values of the patients were measured before the trial.", "amd-lds"),
])
def test_other_sense_stays_unexplained(text, not_id):
    assert not_id not in ids(text), ids(text)
