"""Round 33a long tail: terms the held-out passages of rounds fifteen to twenty needed (data/glossary/long_tail_round33a.json
and aliases added to older entries). Real sentences from those passages must find the entry; ordinary words (a llama in the
Andes, a beam of light, wooden blocks, a smoke alarm, a marlin at sea) stay ordinary."""


import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_entries_whole, detected

pytestmark = pytest.mark.skipif(not (data_dir() / "glossary" / "long_tail_round33a.json").exists(),
                                reason="round 33a glossary data not present")

# (term id, text quoted from the source, what the detector should find); the source is in the comment.
REAL_SENTENCES = [
    # https://github.com/NVIDIA-NeMo/Automodel/pull/2634
    ('squad', "SQuAD's variable-length batches spike some steps past 80 GiB.", 'SQuAD'),
    # https://github.com/NVIDIA-NeMo/Automodel/pull/3130
    ('smoke-test', 'In the single-GPU smoke, the sampled process peak was about 17.3 GiB for both paths.', 'smoke'),
    # https://techcommunity.microsoft.com/blog/azurehighperformancecomputingblog/unpacking-nvidia-gb200-gpu-performance-on-azure-virtual-machines/4390442
    ('benchmark-warmup', 'For example, using 10,000 warm-up iterations and randomly initialized matrices demonstrated a sustained 2,744 TFLOPS for FP8 workloads, which, while expectedly lower than the theoretical peak, is still double that of the H100.', 'warm-up iterations'),
    # https://www.citedrive.com/en/discovery/scalable-and-energy-efficient-ai-system-level-profiling-of-nvidia-gpu-clusters-for-distributed-llm-training/
    ('vision-language-model', 'This work presents a system-level evaluation of single-node 8× H100 and 8× B200 configurations using Distributed Data Parallel (DDP) training across LLMs and vision–language models (VLMs) ranging from 7B to 32B parameters, spanning various real AI workload scenarios.', 'vision–language models'),
    # https://research.character.ai/optimizing-ai-inference-at-character-ai-part-deux
    ('kernel-fusion', 'We then eliminate the I/O cost associated with separate kernel launches by fusing the dequantization step into the attention kernel itself.', 'fusing'),
    # https://github.com/JustVugg/colibri/issues/431
    ('dispatch-overhead', 'On the champion 172 ms/token (5.8 tok/s), that tax plus the inter-kernel gaps is the single largest recoverable block we have measured.', 'inter-kernel gaps'),
    # https://github.com/nibor1896/Crow/issues/182
    ('dispatch-overhead', 'It is compute, kernel launches, 84 graph splits per token, and the ~16.7 ms of the fixed term that #159 still cannot account for.', 'kernel launches'),
    # https://github.com/deepspeedai/DeepSpeed/issues/1069
    ('aws-p3', 'Description Model # p3dn batch Samples TFLOPS', 'p3dn'),
    # https://diomgis.com/learn/kv-cache-memory-and-bandwidth
    ('llama-family', 'A 70B-parameter LLaMA model in fp16 weighs about 140 GB.', 'LLaMA model'),
    # https://github.com/ai-dynamo/dynamo/issues/948
    ('disaggregated-serving', 'This leads to suboptimal disagg performance in some scenarios.', 'disagg'),
    # https://github.com/lm-sys/FastChat/issues/2322
    ('hugging-face', 'Hi @babytdream I think it would be best start with LORA fine-tuning script under scripts/train_lora.sh change the parameter --model_name_or_path with the HF model .', 'HF model'),
    # https://github.com/flashinfer-ai/flashinfer/pull/4393
    ('cuda-ipc', 'Adds pcie_ipc_comm: a CUDA-IPC all-reduce for machines where every peer transfer crosses the CPU root complex — no NVLink, no multicast.', 'CUDA-IPC'),
    ('pcie-root-complex', 'Adds pcie_ipc_comm: a CUDA-IPC all-reduce for machines where every peer transfer crosses the CPU root complex — no NVLink, no multicast.', 'CPU root complex'),
    ('multicast', 'Adds pcie_ipc_comm: a CUDA-IPC all-reduce for machines where every peer transfer crosses the CPU root complex — no NVLink, no multicast.', 'multicast'),
    # https://github.com/FMInference/FlexLLMGen/issues/24
    ('intel-xeon', 'The CPU is an Intel(R) Xeon(R) CPU @ 2.00GHz with 32 vCPUs and 208GB of DRAM.', 'Xeon'),
    ('oom-killer', 'We saw a “Killed” during the initialization of 69-th layer.', 'Killed'),
    # https://docs.habana.ai/en/latest/Management_and_Monitoring/Network_Configuration/index.html
    ('leaf-switch', 'The OSFP links connect to the leaf/TOR switches which are further connected to spine/core switches, making up the entire data center.', 'leaf'),
    # https://nl2code.github.io/posts/GPT-NeoX
    ('supermicro', 'We trained GPT-NeoX-20B on twelve Supermicro AS-4124GO-NART servers, each with eight NVIDIA A100-SXM4-40GB GPUs and configured with two AMD EPYC 7532 CPUs.', 'Supermicro'),
    ('nvidia-quantum-switch', 'Two NVIDIA MQM8700-HS2R switches—connected by 16 links compose the spine of this InfiniBand network, with one link per node CPU socket connected to each switch.', 'MQM8700-HS2R'),
    ('spine-switch', 'Two NVIDIA MQM8700-HS2R switches—connected by 16 links compose the spine of this InfiniBand network, with one link per node CPU socket connected to each switch.', 'spine'),
    # https://docs.habana.ai/en/latest/AWS_User_Guides/AWS_Distributed_Training_Multiple_DL1/AWS_Distributed_Training_Multiple_DL1.html
    ('aws-dl1', 'By default, DL1 instances get one Elastic Network Adapter (ENA) network interface.', 'DL1 instances'),
    ('aws-ena', 'By default, DL1 instances get one Elastic Network Adapter (ENA) network interface.', 'Elastic Network Adapter'),
    # https://github.com/ikawrakow/ik_llama.cpp/issues/627
    ('llama-bench-pp-tg', 'Given that its activation size is comparable to Qwen3-30B-A3B, we can estimate a tg speed of ~30 tokens per second (t/s) without tensor parallelism—possibly even exceeding that.', 'tg speed'),
    # https://github.com/SemiAnalysisAI/InferenceX/issues/828
    ('isl-osl', '1k/8k (decode-heavy) draws the most average power (1,424 W) with the steadiest draw — sustained autoregressive decode keeps all 4 GPUs at ~79% utilization and ~356 W/GPU average.', '1k/8k'),
    # https://github.com/kvcache-ai/ktransformers/pull/220
    ('marlin-kernel', 'Verified on HP-Z6G4 2 GPU CPU: 1 x W3235 MEM: 6 * 64GB @ 3200 DDR4 (2933 due to CPU limits) GPU: 2*Titan RTX (linear) / 2 *A2 (marlin) The GPU utilization is around 50%.', 'marlin'),
    ('consumer-gpu', 'Verified on HP-Z6G4 2 GPU CPU: 1 x W3235 MEM: 6 * 64GB @ 3200 DDR4 (2933 due to CPU limits) GPU: 2*Titan RTX (linear) / 2 *A2 (marlin) The GPU utilization is around 50%.', 'Titan RTX'),
    # https://github.com/ovg-project/kvcached/issues/210
    ('kvcached', "I'm running into an OOM/ValueError when attempting to launch a vLLM server with KVCached enabled for unsloth/Llama-3.1-70B-Instruct and unsloth/Llama-3.3-70B-Instruct The server fails to start, reporting that the available KV cache memory is insufficient to handle a single request at the model's maximum sequence length (32k).", 'KVCached'),
    # https://github.com/OpenSparseLLMs/Linear-MoE/pull/6
    ('qwen-family', 'Add expert-parallelism support for Qwen2-MoE', 'Qwen2-MoE'),
    # https://github.com/ggml-org/llama.cpp/pull/2188
    ('prefetching', 'Prefetch data to achieve better memory bandwidth utilization.', 'Prefetch'),
    # https://github.com/ggml-org/llama.cpp/issues/4014
    ('llamacpp-split-mode', "It should be parallel not sequential when using tensor split, though I've not checked the latest code how "
     "synchronization is done now.\nTensor split splits the tensor along two cards at N percent, so they can be processed in parallel.",
     'tensor split'),
    # https://github.com/LMCache/LMCache/issues/1241
    ('qwen-family', 'qwen2.5-32b-fp8 lmcache cpu offload profit When the number of concurrent connections is 10, ttft is Increased by 27%.', 'qwen2.5'),
    # https://github.com/InternLM/lmdeploy/pull/1377
    ('simt', 'Tensor core implementation with on-the-fly dequantization for sm_70, sm_75, sm_80+ SIMT implementation for non-GQA models (and older arches) On-the-fly per-head per-token asymmetrical (de)quantization.', 'SIMT implementation'),
    ('quantization-calibration', 'Ahead-of-time calibration is not needed anymore.', 'Ahead-of-time calibration'),
    ('flash-decoding', 'That is 4.25/8.25-bit element size with quant stats included Uncompromised performance (80%+ A100 memory bandwidth utilization even for 4bit-kv+q_h/kv_h=8 setting) 93%+ bandwidth utilization for 16bit-kv Fused/non-fused split-kv reduction support', 'split-kv reduction'),
    # https://huggingface.co/papers/2401.13920
    ('pangu-sigma', 'We port these modifications on the PanGu-Sigma model based on the MindSpore framework with multi-level routing and conduct experiments on Ascend clusters.', 'PanGu-Sigma'),
    ('hash-routing', 'The experiment results demonstrate that the proposed LocMoE reduces training time per epoch by 12.68% to 22.24% compared to classical routers, such as hash router and switch router, without impacting the model accuracy.', 'hash router'),
    ('token-choice-routing', 'The experiment results demonstrate that the proposed LocMoE reduces training time per epoch by 12.68% to 22.24% compared to classical routers, such as hash router and switch router, without impacting the model accuracy.', 'switch router'),
    # https://red.azn.boats/r/LocalLLaMA/comments/1n46mk9/longcatflashchat_is_here_yet_another_chinese_open/nbj36jz/?context=3
    ('scmoe', '(2) As communication overhead becomes a bottleneck during MoE model scaling, we incorporate the Shortcut-connected MoE (ScMoE) design to expand the computation-communication overlap window.', 'Shortcut-connected MoE'),
    ('zero-computation-experts', '(1) As not all tokens are equal, we introduce the zero-computation experts mechanism in MoE blocks to allocate a dynamic computation budget to important tokens', 'zero-computation experts'),
    # https://github.com/AI-Hypercomputer/maxtext/pull/3857
    ('tokamax', 'Tokamax GMM kernel: We employed Megablox because it performs only the necessary work for each expert using parallel dense GEMMs, without wasteful padding.', 'Tokamax GMM kernel'),
    ('megablox', 'Tokamax GMM kernel: We employed Megablox because it performs only the necessary work for each expert using parallel dense GEMMs, without wasteful padding.', 'Megablox'),
    # https://github.com/NVIDIA/Megatron-LM/issues/756
    ('hugging-face', 'Use the pre-trained weights from Mixtral AI (converted from hf checkpoint)', 'hf checkpoint'),
    # https://arxiv.org/html/2407.12117v1
    ('memory-swapping', 'To maximize the swapping of activations without hindering computation, and to avoid exhausting limited CPU memory, we implement a token-wise activation recomputation and swapping mechanism.', 'swapping'),
    # https://arxiv.org/html/2501.03905v1
    ('non-blocking-network', 'Large-scale packet-level simulations show that mFabric delivers comparable performance as the non-blocking fat-tree fabric while boosting the training cost efficiency (e.g., performance per dollar) of four representative MoE models by 1.2×–1.5× and 1.9×–2.3× at 100 Gbps and 400 Gbps link bandwidths, respectively.', 'non-blocking'),
    # https://www.microscale.academy/act/serving/lesson/kv-cache
    ('kv-cache-quantization', "That's enough for maybe ~12 concurrent 4k-context sequences — without any paged attention, continuous batching, or FP8 KV tricks.", 'FP8 KV'),
    # https://github.com/ml-explore/mlx/issues/1046
    ('apple-silicon', 'The latest 70B version of Llama 3 is already pushing the limits of a fully loaded Mac Pro.', 'Mac Pro'),
    # https://github.com/ml-explore/mlx/issues/3661
    ('apple-metal', 'For decode-shaped matmuls (x @ W.T with a large weight and M rows of activations), Metal performance falls off a cliff the moment M goes from 1 to 2, and stays flat until M≈64:', 'Metal'),
    # https://docs.modular.com/serve/speculative-decoding/
    ('draft-step', 'A smaller, faster draft step proposes several candidate tokens, and the larger target model verifies them in one forward pass.', 'draft step'),  # its own entry since round 84 P02
    ('modular-max', "Speculative decoding accelerates LLM token generation without changing the model's outputs. A smaller, faster draft step proposes several candidate tokens, and the larger target model verifies them in one forward pass. MAX accepts the prefix the target agrees with and resamples at the first disagreement,", 'MAX'),
    # https://www.gomomento.com/jp/blog/moving-the-kv-cache-without-stalling-the-decode/
    ('kv-cache-block', 'Mooncake calls it “Layer-wise Prefill”: as soon as prefill finishes computing the KV cache for layer 0, that layer’s blocks start streaming to the decode node while the prefill GPU is still computing layer N.', 'blocks'),
    # https://github.com/youssofal/MTPLX/issues/64
    ('chip-binning', 'The 36 GB Mac Studio is structurally tied to the binned M4 Max — 14-core CPU (10P+4E) / 32-core GPU / 410 GB/s unified-memory bandwidth.', 'binned'),
    # https://github.com/Epliz/muiLLM/pull/5
    ('kernel-fusion', 'Using some custom kernels to fuse some operations in the token decoding process as well as plain moving from python to C++ some parts gives a good boost on Llama 3 8B (FP 16 no speculative decoding), now reaching 410 toks/s/user with 4x MI300x instead of 350 toks/s/user previously.', 'fuse'),
    # https://github.com/NVIDIA/nccl-tests/issues/196
    ('nccl-algorithm', 'On two nodes, NCCL uses the tree (or nvlstree) algorithm which can indeed go beyond the network bottleneck (provided the intra-node bandwidth can sustain that higher speed).', 'tree'),
    # https://nebius.com/blog/posts/nebius-and-pytorch-partner-to-accelerate-frontier-moe-training-on-nvidia-blackwell
    ('training-convergence', 'The experiments also verified that MXFP8 maintains equivalent convergence behavior to BF16, based on loss-curve validation using the 16B MoE variant.', 'convergence behavior'),
    # https://docs.nvidia.com/networking/display/infinibandclusterbringupprocedure/Setting+the+InfiniBand+Cluster+Topology
    ('network-hop', 'This allows multiple nodes to utilize their internal NVSwitch path to talk across a NIC that is just one switch hop away (instead of having to cross multiple switches, incurring additional latency).', 'switch hop'),
    ('leaf-switch', 'Rail-optimized design means a GPU node with multiple interfaces will put each GPU “rail” (IB network interface) onto a different first level (LEAF) switch for cluster Interconnect.', 'LEAF'),
    # https://blogs.oracle.com/cloud-infrastructure/post/superclusters-rdma-high-performance
    ('oci-supercluster', 'Figure 1 illustrates superclusters with RDMA network connectivity.', 'superclusters'),
    ('non-blocking-network', 'The network fabric is designed to be nonblocking and offers full bisection bandwidth to all hosts.', 'nonblocking'),
    # https://arxiv.org/html/2605.20799
    ('dcgm', 'We present Overall FLOP Utilization (OFU), a hardware-level, precision-agnostic GPU efficiency metric for AI workloads on HPC systems, derived from two on-chip performance counters: Tensor Pipe Activity and SM clock frequency.', 'Tensor Pipe Activity'),
    # https://github.com/ollama/ollama/issues/2191
    ('nvlink-bridge', 'I\'m not sure why the llama.cpp devs have made the new default split_mode = "layer", but it runs MUCH worse for me and I only get around 60% of the tokens/s that I get with split_mode = "row" (using 2x RTX A6000 and an NvLink bridge).', 'NvLink bridge'),
    # https://github.com/mlfoundations/open_clip/issues/466
    ('coca-model', 'When I trained CoCa caption in a single node with 8 v100 32G， the samples_per_second_per_gpu is 30/s/gpu, but when I trained the same configuration with two or three nodes(8 v100 32G), the samples_per_second_per_gpu is fall to 10/s/gpu and 5/s/gpu.', 'CoCa'),
    # https://github.com/mlfoundations/open_lm/issues/21
    ('training-convergence', 'Will close this once we test convergence on a large run.', 'convergence'),
    # https://github.com/OpenRLHF/OpenRLHF/issues/562
    ('ray', 'I am experimenting PPO with the ray, but I am confused how to have a best setting for the gpu num and node num for ref, reward model, critic, actor, and vllm_num_engines to /achieve the best speedup.', 'ray'),
    ('reference-model', 'I am experimenting PPO with the ray, but I am confused how to have a best setting for the gpu num and node num for ref, reward model, critic, actor, and vllm_num_engines to /achieve the best speedup.', 'ref'),
    # https://github.com/hpcaitech/Open-Sora/issues/842
    ('pytorch-reserved-memory', '[2025-04-07 13:06:18] CUDA max memory max memory reserved at inference: 93.2 GB', 'max memory reserved'),
    # https://github.com/osrg/optcast/blob/main/docs/efa.md
    ('reduction-server', 'By running the Optcast Reduction Server on less expensive CPU instances rather than GPU instances, and accelerating collective communication between GPU instances running distributed machine learning applications, it is possible not only to improve the execution speed of distributed machine learning applications but also to reduce the total cost.', 'Reduction Server'),
    ('on-demand-instance', 'For example, the on-demand price of a CPU instance that supports EFA, c7gn.16xlarge, is approximately $4, whereas the on-demand price for a GPU instance that supports EFA, specifically p4d.24xlarge, is about $32.', 'on-demand price'),
    # https://gist.github.com/frobnitzem/0bd3be6084115d7d58d30e6753abb251
    ('nersc', "This plugin has been run on NERSC's Slingshot-11 (TM) network with support from NVIDIA and HPE and showed very good bandwidth scaling at the 2023 ECP annual meeting (Sudip Dosanjh, throughput plot for FourCastNet on slide 19, ECP Annual Meeting 2023).", "NERSC's"),
    ('hpe', "This plugin has been run on NERSC's Slingshot-11 (TM) network with support from NVIDIA and HPE and showed very good bandwidth scaling at the 2023 ECP annual meeting (Sudip Dosanjh, throughput plot for FourCastNet on slide 19, ECP Annual Meeting 2023).", 'HPE'),
    ('exascale-computing-project', "This plugin has been run on NERSC's Slingshot-11 (TM) network with support from NVIDIA and HPE and showed very good bandwidth scaling at the 2023 ECP annual meeting (Sudip Dosanjh, throughput plot for FourCastNet on slide 19, ECP Annual Meeting 2023).", 'ECP annual meeting'),
    ('fourcastnet', "This plugin has been run on NERSC's Slingshot-11 (TM) network with support from NVIDIA and HPE and showed very good bandwidth scaling at the 2023 ECP annual meeting (Sudip Dosanjh, throughput plot for FourCastNet on slide 19, ECP Annual Meeting 2023).", 'FourCastNet'),
    ('aws-ofi-nccl', 'However, a plugin has been published by AWS, (Kim, Kheria, Inozemtsev, 2018-2022), that allows NCCL to use libfabric.', 'plugin'),
    # https://github.com/PaddlePaddle/Paddle/pull/35580
    ('paddle-dygraph', 'Dygraph Sharding （stage-1）support MP(Tensor) 、Pipeline、Data Parallelism.', 'Dygraph Sharding'),
    ('paddlepaddle', 'Based on PaddleNLP gpt-small-en model, with AMP turn on, global bsz=24', 'PaddleNLP'),
    ('node-card-notation', 'N1C4 mp2dp2 86700 mp2sharding2 87000 + 0.3%', 'N1C4'),
    # https://github.com/pytorch/pytorch/pull/189856
    ('pytorch-mps', 'PyTorch MPS Backend exposes a single serial stream, so a collective cannot hide behind compute on a second GPU stream - but the CPU worker runs it while the GPU stays busy.', 'PyTorch MPS'),
    ('symmetric-memory', 'Hiding it needs chunked/async TP, which PyTorch currently gates to CUDA/symmetric-memory.', 'symmetric-memory'),
    # https://pytorch.org/?p=58489
    ('fqn', 'mxfp8 applied to routed experts computation (grouped GEMMs) mxfp8 applied to all linear layers except those matching the FQNs: output, router.gate, attention.wk, attention.wv output embedding projection is too sensitive to low precision, adversely impacts convergence Wk/Wv are too small to see a net performance benefit from dynamic mxfp8 quantization', 'FQNs'),
    # https://github.com/QwenLM/Qwen3/issues/244
    ('qwen-family', 'hi, I am trying to reproduce the vllm inference throughput of qwen1.5-7b, which is 2298.89 tokens/s reported in your blog.', 'qwen1.5'),
    # https://github.com/paiml/realizar/issues/113
    ('computation-graph', 'Key finding: Graph execution is 96.4% of decode time.', 'Graph execution'),
    ('qwen-family', 'Qwen2.5-1.5B Q4K on RTX 4090 achieves only 153.5 tok/s (benchmark) / 277 tok/s (raw decode).', 'Qwen2.5'),
    # https://docs.redhat.com/en/documentation/red_hat_openshift_ai_self-managed/3.4/html/working_with_distributed_workloads/configuring-roce-networking-for-distributed-llm-deployments_distributed-llm-roce
    ('dma', 'RoCE with GPUDirect RDMA (GDR) enables direct memory access between GPUs without CPU involvement.', 'direct memory access'),
    # https://github.com/sgl-project/sglang/issues/16731
    ('disaggregated-serving', "I'm currently benchmarking DeepSeek-V3.2 using PD-separated deployment (P: 2 node / 16x H800, D: 4 nodes / 32x H800 total, 4 RDMA NIC/node with mooncake-transfer-engin 0.3.7.post2) via SGLang(the latest main branch at datetime 20260105), and I'd like to understand what the expected or community-achieved optimal performance is for this model configuration.", 'PD-separated deployment'),
    # https://github.com/gittensor-ai-lab/sparkinfer/issues/47
    ('dgx-spark', 'This is a direct lever on bytes-per-token, which is the stated optimization target for Milestone 2 (RTX Spark/GB10, ~273 GB/s).', 'RTX Spark'),
    # https://github.com/NVIDIA/TransformerEngine/issues/1151
    ('dispatch-overhead', 'kernel launch latencies, cache misses, pipeline bubbles) that prevent us from fully saturating the compute.', 'kernel launch'),
    # https://techfordev.netlify.app/articles/3611123
    ('amd-compute-unit', 'The AMD MI300X is a data center accelerator built for generative AI and HPC workloads, featuring 192GB of high-bandwidth HBM3 memory with 5.3 TB/s of peak memory bandwidth. This is 2.4x more memory than competing 80GB accelerators, and 1.5x more than 128GB alternatives. The large memory footprint is paired with 1536 compute units and support for FP8, BF16, and FP16 precision formats, all critical for LLM training and fine-tuning.', 'compute units'),
    # https://github.com/mattn/tensai/pull/44
    ('draft-acceptance-rate', '-draft loads a smaller same-family model that greedily proposes -spec tokens per step; one batched pass of the target verifies them all (prefillLogits — the batched forward with the lm_head applied to every position), accepted prefixes stream out immediately, and on the first disagreement the verifying row supplies the corrected token while truncate rolls both KV caches back to the accepted length.', 'accepted prefixes'),
    # https://github.com/huggingface/text-generation-inference/issues/156
    ('galactica', 'I was curious about how/why you use TP/sharding here for non-BLOOM/Galactica models i.e.', 'Galactica models'),
    # https://github.com/ROCm/TheRock/issues/7696
    ('amdgpu-gfx-target', 'HuggingFace model training workloads might see 9–25% lower training throughput on AMD Instinct MI350X (gfx950) GPUs, including BART, GPT-2, DiT (Diffusion Transformers), BERT, Llama 2 70B Chat, and RoBERTa-large.', 'gfx950'),
    ('roberta', 'HuggingFace model training workloads might see 9–25% lower training throughput on AMD Instinct MI350X (gfx950) GPUs, including BART, GPT-2, DiT (Diffusion Transformers), BERT, Llama 2 70B Chat, and RoBERTa-large.', 'RoBERTa-large'),
    # https://timmastny.com/projects/napkin-math/jax2
    ('token-sampling', 'This represents sampling: generating the next token.', 'sampling'),
    # https://www.together.ai/blog/multi-node-gpu-training
    ('foundation-model', 'Foundation models have grown from billions to trillions of parameters.', 'Foundation models'),
    # https://github.com/meta-pytorch/torchtune/pull/993
    ('hugging-face', '- Similar to https://github.com/pytorch/torchtune/pull/802, we use the HF checkpointer and load the model with HF format, with the meta format currently unsupported.', 'HF format'),
    # https://github.com/verl-project/verl/pull/3870
    ('training-determinism', "The speedup is pretty promising, on 8xH100 with a bunch of determinism settings (can't get GRPO vllm to have full determinism), I got", 'determinism'),
    ('eager-execution', 'category eager compiled', 'eager'),
    # https://github.com/vllm-project/vllm-ascend/issues/1621
    ('huawei-ascend', 'Environment: Two machines, each with 8 * Ascend910B-64GB GPUs.', 'Ascend910B-64GB'),
    # https://discuss.vllm.ai/t/expert-parallelism-all-to-all-communication-without-nvlink-and-deepep/2421
    ('pplx-kernels', 'No, vLLM’s Expert Parallelism (EP) for MoE models like DeepSeek-V2-Lite requires a high-performance interconnect (such as NVLink or InfiniBand with IBGDA) to use optimized all-to-all communication backends (e.g., DeepEP or PPLX).', 'PPLX'),
    # https://docs.vultr.com/inference-cookbook/rocm/getting-started/hardware-requirements
    ('deepseek-v3-2', 'DeepSeek V3.2 (685B) ~83 GB FP8 8x MI325X', 'DeepSeek V3.2'),
    # https://github.com/InternLM/xtuner/issues/88
    ('frozen-weights', 'Additionally, it is worth noting that when using ZeRO3 with QLoRA, the frozen model will not be split, so it will hardly bring any memory optimization.', 'frozen model'),
    # https://github.com/NVIDIA/TensorRT-LLM/issues/15162
    ("trtllm-autodeploy", 'AutoDeploy already TP-shards MLA weights and attention FLOPs', "AutoDeploy"),
    # https://greaterwrong.com/posts/i4WPkJKKdcTwGJw2H/ai-74-gpt-4o-mini-me-and-llama-3/comment/7WD43yBKACF7SMK9v
    ("carbs", 'they get 40 tokens/parameter, similar to Imbue’s CARBS, and unlike Chinchilla’s 20', "CARBS"),
    # https://nl2code.github.io/posts/GPT-NeoX
    ("cpu-socket", 'Two NVIDIA MQM8700-HS2R switches—connected by 16 links compose the spine of this InfiniBand network, with one link per node CPU socket connected to each switch.', "CPU socket"),
    # https://lightning.ai/docs/pytorch/1.8.4/accelerators/ipu_advanced.html
    ("graphcore-ipu", 'By using the IPUStrategy we can set the device_iterations', "IPUStrategy"),
]

NEW_IDS = ['amd-compute-unit', 'amdgpu-gfx-target', 'apple-metal', 'aws-dl1', 'aws-ena', 'aws-p3', 'benchmark-warmup', 'carbs', 'chip-binning', 'coca-model', 'computation-graph', 'cpu-socket', 'cuda-ipc', 'deepseek-v3-2', 'dma', 'exascale-computing-project', 'flash-decoding', 'foundation-model', 'fourcastnet', 'fqn', 'frozen-weights', 'galactica', 'hash-routing', 'hpe', 'intel-xeon', 'isl-osl', 'kv-cache-block', 'kv-cache-quantization', 'kvcached', 'llama-bench-pp-tg', 'llama-family', 'llamacpp-split-mode', 'marlin-kernel', 'megablox', 'memory-swapping', 'modular-max', 'multicast', 'nersc', 'network-hop', 'node-card-notation', 'nvidia-quantum-switch', 'nvlink-bridge', 'oci-supercluster', 'on-demand-instance', 'oom-killer', 'paddle-dygraph', 'paddlepaddle', 'pangu-sigma', 'pcie-root-complex', 'pplx-kernels', 'prefetching', 'pytorch-mps', 'quantization-calibration', 'reduction-server', 'roberta', 'scmoe', 'simt', 'smoke-test', 'squad', 'supermicro', 'symmetric-memory', 'tokamax', 'token-sampling', 'training-convergence', 'training-determinism', 'trtllm-autodeploy', 'vision-language-model', 'zero-computation-experts']


ids = detected


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round33a_term_found_in_a_real_sentence(term_id, sentence, found_as):
    found = ids(sentence)
    assert term_id in found, found
    assert found[term_id].lower() == found_as.lower(), found


def test_new_entries_are_complete_and_sourced():
    covered = {term_id for term_id, _, _ in REAL_SENTENCES}
    assert_entries_whole("long_tail_round33a.json", NEW_IDS, covered)


@pytest.mark.parametrize("term_id", NEW_IDS)
def test_round33a_term_found_in_arabic_text(term_id):
    entry = glossary.load().by_id[term_id]
    rendering = entry["ar_aliases"][0]
    text = f"في هذا الإعداد يعتمد الفريق على {rendering} لتسريع تدريب النموذج."
    assert term_id in ids(text), (rendering, ids(text))


@pytest.mark.parametrize("text, not_id", [
    ("The llama grazed quietly in the Andes.", "llama-family"),
    ("A ray of light passed through the prism.", "ray"),
    ("Please quote the ref number on the invoice.", "reference-model"),
    ("Set the volume to MAX before the show starts.", "modular-max"),
    ("The marlin is a fast fish caught off the coast.", "marlin-kernel"),
    ("A smoke alarm went off in the kitchen.", "smoke-test"),
    ("The coach is swapping players at half time.", "memory-swapping"),
    ("Killed in action, the soldier was honoured by the town.", "oom-killer"),
    ("We bought a bag of hops for brewing beer.", "network-hop"),
    ("The kids built towers out of wooden blocks.", "kv-cache-block"),
    ("The statistician is binning the ages into groups.", "chip-binning"),
    ("The survey used random sampling of households.", "token-sampling"),
    ("Our galaxy belongs to a large supercluster.", "oci-supercluster"),
    ("Determinism is a philosophical position about free will.", "training-determinism"),
    ("The convergence of the two rivers lies downstream.", "training-convergence"),
    ("Copper has the chemical symbol Cu.", "amd-compute-unit"),
    ("The network fabric is still delivering the gradients while a machine's compute units are ready.", "amd-compute-unit"),
    ("هذه الحالة تستخدم محولات التبديل التي تحتوي على عدد أكبر من الأوزان.", "memory-swapping"),
    ("تكميم النموذج الأساسي إلى أربع بتات ثم إضافة محولات LoRA فوق الأوزان.", "foundation-model"),
    ("An electrical fuse blew in the basement.", "kernel-fusion"),
    ("Please send me the first draft of the essay.", "speculative-decoding"),
    ("Careful calibration of the thermometer matters.", "quantization-calibration"),
    ("The Spark job processed the logs overnight.", "dgx-spark"),
    ("Paddle the canoe across the lake.", "paddlepaddle"),
    ("The eager student asked many questions.", "eager-execution"),
    ("Non-blocking sockets let a web server handle many clients.", "oversubscription"),
    ("The plugin adds spell checking to the editor.", "aws-ofi-nccl"),
    ("He took a warm-up lap before the race.", "benchmark-warmup"),
    ("The DL1 form must be filed by Friday.", "aws-dl1"),
    ("The tree in the garden lost its leaves.", "nccl-algorithm"),
    ("A leaf fell from the tree.", "leaf-switch"),
    ("He hurt his spine playing rugby.", "spine-switch"),
    ("The chef cooked with a Metal pan.", "apple-metal"),
    ("She keeps a hash table of passwords.", "hash-routing"),
    ("We skated on the Ice Lake behind the cabin.", "intel-xeon"),
    ("Multi-hop questions need one hop of retrieval per fact.", "network-hop"),
    ("The split mode of the PDF viewer shows two pages.", "llamacpp-split-mode"),
])
def test_ordinary_word_keeps_its_ordinary_sense(text, not_id):
    assert not_id not in ids(text), ids(text)
