"""Round 45, networking (issue 18): the long tail of NCCL, collectives, RDMA and fabric vocabulary
(data/glossary/long_tail_round45_networking.json). Each entry is found in a sentence quoted from its primary source;
short or everyday spellings ("barrier", "GID", "PAT", "CNP", "ACS", "hash collision") count only beside their field's
words."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as
from tests.support.glossary_files import detected as ids  # the detector's finds, shared by the glossary tests

FILE = data_dir() / "glossary" / "long_tail_round45_networking.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 45 networking glossary data not present")

NCCL = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/"
MPICH = "https://www.mpich.org/static/docs/latest/www3/"
RDMA_CORE = "https://github.com/linux-rdma/rdma-core/blob/master/"
IPOIB = ("In datagram mode, the IB UD (Unreliable Datagram) transport is used and so the interface MTU has is equal to "
         "the IB L2 MTU minus the IPoIB encapsulation header (4 bytes).")
SRD = ("Scalable Reliable Datagram (SRD) transport provides reliable out-of-order delivery, transparently utilizing "
       "multiple network paths to reduce network tail latency.")
IRN = ("MELO [28], a recent scheme developed in parallel to IRN, proposes an alternative design for hardware-based "
       "selective retransmission, where out-of-order packets are buffered in an off-chip memory.")
UCCL = ("Instead, UCCL employs packet spraying in software to leverage abundant network paths to avoid "
        "\"single-path-of-congestion\".")

# (term id, sentence quoted from the source, what the detector should find); the source is in the comment.
REAL_SENTENCES = [
    # MPICH + MPI_Alltoallv.html
    ("all-to-all-v", "MPI_Alltoallv - Sends data from all to all processes; each process may send a different amount of "
                     "data and provide displacements for the input and output data.", "MPI_Alltoallv"),
    # MPICH + MPI_Scatter.html
    ("scatter-collective", "MPI_Scatter - Sends data from one process to all other processes in a communicator",
     "MPI_Scatter"),
    # MPICH + MPI_Gather.html
    ("gather-collective", "MPI_Gather - Gathers together values from a group of processes", "MPI_Gather"),
    # https://pytorch.org/docs/stable/distributed.html (torch.distributed.gather signature)
    ("gather-collective", "torch.distributed.gather(tensor, gather_list=None, dst=None, group=None, async_op=False, "
                          "group_dst=None)", "torch.distributed.gather"),
    # MPICH + MPI_Barrier.html
    ("barrier-collective", "MPI_Barrier - Blocks until all processes in the communicator have reached this routine.",
     "MPI_Barrier"),
    # https://pytorch.org/tnt/stable/utils/generated/torchtnt.utils.distributed.barrier.html
    ("barrier-collective", "If torch.distributed is initialized, this function will invoke a barrier across the global "
                           "process group.", "barrier"),
    # https://docs.nvidia.com/deeplearning/nccl/archives/nccl_2262/user-guide/docs/troubleshooting.html (Errors)
    ("nccl-result-code", "ncclUnhandledCudaError and ncclSystemError indicate that a call to an external library failed.",
     "ncclUnhandledCudaError"),
    # https://pytorch.org/docs/stable/torch_nccl_environment_variables.html
    ("torch-nccl-async-error-handling", "Control how we perform Async Error Handling with NCCL when an exception is "
                                        "observed in watchdog.", "Async Error Handling"),
    # https://docs.pytorch.org/docs/stable/_sources/torch_nccl_environment_variables.md.txt
    ("torch-nccl-blocking-wait", "* - ``TORCH_NCCL_BLOCKING_WAIT`` - Control whether or not wait() is blocking or "
                                 "non-blocking.", "TORCH_NCCL_BLOCKING_WAIT"),
    # NCCL + usage/communicators.html
    ("nccl-comm-init-rank", "Before calling ncclCommInitRank, you need to first create a unique object which will be used "
                            "by all processes and threads to synchronize and understand they are part of the same "
                            "communicator.", "ncclCommInitRank"),
    ("nccl-comm-init-rank", "This is done by calling the ncclGetUniqueId function.", "ncclGetUniqueId"),
    # NCCL + usage/groups.html
    ("nccl-group-calls", "Group functions (ncclGroupStart/ncclGroupEnd) can be used to merge multiple calls into one.",
     "ncclGroupStart/ncclGroupEnd"),
    # NCCL + troubleshooting/ras.html
    ("nccl-ras", "RAS is built into NCCL and launches during NCCL initialization.", "RAS"),
    # https://github.com/NVIDIA/nccl/blob/master/plugins/tuner/README.md
    ("nccl-tuner-plugin", "Tuner plugins allow you to customize NCCL's algorithm and protocol selection behavior to "
                          "optimize performance for specific workloads and hardware configurations.", "Tuner plugins"),
    # NCCL + usage/bufferreg.html
    ("nccl-user-buffer-registration", "User Buffer Registration is a feature that allows NCCL to directly "
                                      "send/receive/operate data through the user buffer without extra internal copy "
                                      "(zero-copy).", "User Buffer Registration"),
    # https://arxiv.org/abs/2506.20252
    ("nccl-pat-algorithm", "This paper describes a new algorithm called PAT, for Parallel Aggregated Trees, and which can "
                           "be used to implement all-gather and reduce-scatter operations.", "PAT"),
    # NCCL + env.html (NCCL_SHM_DISABLE)
    ("nccl-transport", "The NCCL_SHM_DISABLE variable disables the Shared Memory (SHM) transports. SHM is used between "
                       "devices when peer-to-peer cannot happen, therefore, host memory is used.", "SHM"),
    # https://arxiv.org/abs/2511.15076
    ("nccl-gin", "NCCL 2.28 introduces the Device API with three operation modes: Load/Store Accessible (LSA) for "
                 "NVLink/PCIe, Multimem for NVLink SHARP, and GPU-Initiated Networking (GIN) for network RDMA.",
     "GPU-Initiated Networking"),
    # RDMA_CORE + libibverbs/man/ibv_reg_mr.3
    ("rdma-memory-registration", "ibv_reg_mr() registers a memory region (MR) associated with the protection domain pd.",
     "ibv_reg_mr"),
    # RDMA_CORE + libibverbs/man/ibv_create_cq.3
    ("rdma-completion-queue", "ibv_create_cq() creates a completion queue (CQ) with at least cqe entries for the RDMA "
                              "device context context.", "ibv_create_cq"),
    # https://docs.kernel.org/infiniband/ipoib.html
    ("rdma-transport-service", "In connected mode, the IB RC (Reliable Connected) transport is used.",
     "RC"),
    ("rdma-transport-service", IPOIB, "UD"),
    ("ipoib", IPOIB, "IPoIB"),
    ("mtu", IPOIB, "MTU"),
    # https://www.rdmamojo.com/2013/02/15/ibv_poll_cq/
    ("rdma-retry-exceeded", "Transport Retry Counter Exceeded: The local transport timeout retry counter was exceeded "
                            "while trying to send this message.", "Transport Retry Counter Exceeded"),
    # https://www.kernel.org/doc/Documentation/ABI/testing/sysfs-class-infiniband
    ("roce-gid", "The RoCE type of the associated GID resides at index <gid-index>.", "GID"),
    # https://docs.kernel.org/PCI/pci-iov-howto.html
    ("sr-iov", "Single Root I/O Virtualization (SR-IOV) is a PCI Express Extended capability which makes one physical "
               "device appear as multiple virtual devices.", "Single Root I/O Virtualization"),
    # https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html (GPU Direct RDMA)
    ("nvidia-peermem", "This requires having a compatible network cards and drivers, plus loading an extra kernel module "
                       "called nvidia-peermem.", "nvidia-peermem"),
    # NCCL + troubleshooting/gpu_troubleshooting.html
    ("pcie-acs", "If peer-to-peer GPU memory access does not work as expected with NCCL even when nvidia-smi topo -p2p "
                 "shows OK for peer access on the GPU pairs you use, one common cause is PCI Access Control Services "
                 "(ACS); see PCI Access Control Services (ACS).", "PCI Access Control Services"),
    # https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html (PCI Access Control Services)
    ("iommu", "IO virtualization (also known as VT-d or IOMMU) can interfere with GPU Direct by redirecting all PCI "
              "point-to-point traffic to the CPU root complex, causing a significant performance reduction or even a "
              "hang.", "VT-d"),
    # https://rocm.docs.amd.com/en/latest/conceptual/iommu.html
    ("iommu", "The I/O Memory Management Unit (IOMMU) provides memory remapping services for I/O devices.", "I/O Memory Management Unit"),
    # RDMA_CORE + infiniband-diags/man/ibstat.8.in.rst
    ("infiniband-diagnostic-tools", "ibstat is a binary which displays basic information obtained from the local IB "
                                    "driver.", "ibstat"),
    # Linux net/ipv4/tcp_dctcp.c, the commit adding DCTCP (Daniel Borkmann): its description of marking with ECN
    ("ecn", "The means for receiving marked packets resp. marking them on switch side in DCTCP is the use of ECN.", "ECN"),
    ("ecn", "RFC3168 describes a mechanism for using Explicit Congestion Notification", "Explicit Congestion Notification"),
    # a Marvell source file implementing DCQCN (SPDX Marvell-MIT), whose header cites Zhu et al., SIGCOMM 2015
    ("dcqcn", "Full DCQCN (Data Center Quantized Congestion Notification) implementation.", "DCQCN"),
    # https://www.rfc-editor.org/rfc/rfc768
    ("udp", "This User Datagram Protocol (UDP) is defined to make available a datagram mode of packet-switched computer "
            "communication in the environment of an interconnected set of computer networks.", "User Datagram Protocol"),
    # https://engineering.fb.com/2024/08/05/data-center-engineering/roce-network-distributed-ai-training-at-scale/
    ("udp", "We initially considered the widely adopted ECMP, which places flows randomly based on the hashes on the "
            "five-tuple: source and destination IPs, source and destination UDP ports, and protocol.", "UDP ports"),
    ("ecmp-hash-collision", "However, and as expected, ECMP rendered poor performance for the training workload due to "
                            "the low flow entropy.", "low flow entropy"),
    # https://arxiv.org/abs/2407.21625 (v1 abstract)
    ("ecmp-hash-collision", "The rise of AI/ML workloads underscores the necessity for enhanced link utilization, a "
                            "challenge for single-path load balancers due to issues like ECMP collisions.",
     "ECMP collisions"),
    # https://www.rfc-editor.org/rfc/rfc5681 (section 2, definitions)
    ("congestion-window", "congestion window (cwnd): A TCP state variable that limits the amount of data a TCP can send.",
     "congestion window"),
    # https://datatracker.ietf.org/doc/draft-xiao-rtgwg-rocev2-fast-cnp/ (abstract)
    ("cnp", "By extending the RoCEv2 CNP, Fast CNP can be sent by the switch directly to the sender, advising the sender "
            "to reduce the transmission rate at which it sends the flow of RoCEv2 data traffic.", "CNP"),
    # https://github.com/uccl-project/uccl (README)
    ("packet-spraying", UCCL, "packet spraying"),
    # https://arxiv.org/abs/2407.21625 (v6 abstract)
    ("packet-spraying", "However, existing Ethernet-based solutions, such as Equal Cost Multi-Path (ECMP) and oblivious "
                        "packet spraying (OPS), struggle to maintain high network utilization due to both increasing "
                        "traffic demands and the expanding scale of datacenter topologies, which also exacerbate network "
                        "failures.", "oblivious packet spraying"),
    # RDMA_CORE + providers/efa/man/efadv_create_driver_qp.3.md
    ("out-of-order-delivery", SRD, "out-of-order delivery"),
    ("aws-srd", SRD, "Scalable Reliable Datagram"),
    # https://arxiv.org/abs/1806.08159 (section 8, discussion)
    ("selective-retransmission", IRN, "selective retransmission"),
    ("out-of-order-delivery", IRN, "out-of-order packets"),
    # https://github.com/uccl-project/uccl (README)
    ("selective-retransmission", "More benefits include: 1) packet spraying with 256 paths, 2) advanced congestion control "
                                 "such as latency-based and receiver-driven ones, 3) efficient loss recovery by selective "
                                 "repeat, and 4) widely usable in public clouds with legacy NICs and Ethernet.",
     "selective repeat"),
    # https://arxiv.org/abs/2505.09343 (abstract)
    ("multi-plane-network", "This paper presents an in-depth analysis of the DeepSeek-V3/R1 model architecture and its AI "
                            "infrastructure, highlighting key innovations such as Multi-head Latent Attention (MLA) for "
                            "enhanced memory efficiency, Mixture of Experts (MoE) architectures for optimized "
                            "computation-communication trade-offs, FP8 mixed-precision training to unlock the full "
                            "potential of hardware capabilities, and a Multi-Plane Network Topology to minimize "
                            "cluster-level network overhead.", "Multi-Plane Network Topology"),
    # https://docs.nvidia.com/networking-ethernet-software/cumulus-linux-519/Layer-1-and-Switch-Ports/Quality-of-Service/Packet-Trimming/
    ("packet-trimming", "The Spectrum switch implements a packet trimming mechanism, with which the switch trims and "
                        "forwards packets that it is about to discard because buffer space is unavailable.",
     "packet trimming"),
    ("dscp", "You can apply DSCP remarking on trimmed packets:", "DSCP"),
    # https://arxiv.org/abs/2602.19567 (abstract)
    ("packet-trimming", "We propose two algorithms, Spritz-Scout and Spritz-Spray that, respectively, explore and "
                        "adaptively cache efficient paths using ECN, packet trimming, and timeout feedback.",
     "packet trimming"),
    # https://www.rfc-editor.org/rfc/rfc2474 (section 3)
    ("dscp", "Six bits of the DS field are used as a codepoint (DSCP) to select the PHB a packet experiences at each node.",
     "DS field"),
    # https://www.rfc-editor.org/rfc/rfc1191 (section 1)
    ("mtu", "This datagram size is referred to as the Path MTU (PMTU), and it is equal to the minimum of the MTUs of each "
            "hop in the path.", "Path MTU"),
    # https://github.com/microsoft/mscclpp (README)
    ("msccl", "MSCCL++ is a development kit for implementing highly optimized distributed GPU applications, in terms of "
              "both inter-GPU communication and GPU computation.", "MSCCL++"),
    # https://github.com/google/nccl-plugin-gpudirecttcpx (README)
    ("gpudirect-tcpx", "NCCL GPUDirectTCPX is a transport layer plugin to improve NCCL collective communication "
                       "performance on Google Cloud.", "GPUDirectTCPX"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []




@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round45_networking_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 42)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round45_networking_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


@pytest.mark.parametrize("text, term_id", [
    ("تتحكم نافذة الازدحام في مقدار البيانات التي يرسلها المرسل قبل وصول الإقرار", "congestion-window"),
    ("يعتمد النقل الجديد على رش الحزم عبر كل المسارات المتاحة في النسيج", "packet-spraying"),
    ("يجب ضبط وحدة الإرسال القصوى على المبدلات وبطاقات الشبكة معًا", "mtu"),
    ("تستدعي كل الرتب حاجز المزامنة قبل حفظ نقطة التحقق", "barrier-collective"),
])
def test_round45_networking_term_in_an_arabic_sentence(text, term_id):
    assert term_id in ids(text), ids(text)


@pytest.mark.parametrize("text, term_id", [
    # a thread barrier inside a kernel is not the collective
    ("Each warp waits at a named barrier before reading shared memory written by the other threads of the block.",
     "barrier-collective"),
    # a hash-table collision is not ECMP's
    ("Two keys that land in the same bucket are a hash collision, resolved here by open addressing.",
     "ecmp-hash-collision"),
    # a personal access token is not NCCL's algorithm
    ("Create a PAT with read access and store it as a secret in the repository settings.", "nccl-pat-algorithm"),
    # a Unix group id is not an RDMA GID
    ("The container runs as UID 1000 and GID 1000 so files written to the volume keep their owner.", "roce-gid"),
    # a C++ virtual function is not an SR-IOV VF
    ("The base class declares a virtual function that every subclass overrides.", "sr-iov"),
    # a memory region of a process is not an RDMA one
    ("The allocator reserves a large memory region at start-up and carves tensors out of it.", "rdma-memory-registration"),
])
def test_round45_networking_short_spellings_keep_their_other_senses(text, term_id):
    assert term_id not in ids(text), ids(text)
