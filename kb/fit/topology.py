"""Links: what carries the bytes between two GPUs, inside a node and between nodes.

Figures (NVIDIA DGX H100 / HGX and AMD MI300X platform datasheets): a node of SXM/HGX/OAM parts holds 8 GPUs
on NVLink/NVSwitch (Infinity Fabric for MI300X); GeForce and PCIe cards have no NVLink, so every byte between
them crosses PCIe. Records give links with both directions together; a collective's ring moves data one way,
so kb divides by 2. Between nodes each GPU has one NIC (the DGX H100 user guide: eight ConnectX-7 at 400 Gb/s):
InfiniBand NDR / 400G RoCE, 400 Gb/s ≈ 50 GB/s a GPU a direction by default (a setting and --inter-node-gbps).
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.fit.gpus import GpuSpec

# kb's allowance a collective besides the bytes (not a measurement): NVLink/Infinity Fabric, PCIe, the network.
LATENCY_S = {"nvlink": 10e-6, "pcie": 30e-6, "network": 30e-6}
INTER_NAMES = {200.0: "infiniband-hdr", 400.0: "infiniband-ndr", 800.0: "infiniband-xdr"}


@dataclass(frozen=True)
class Link:
    """One link as a collective sees it: its name, its family (for latency) and GB/s one way a GPU."""

    kind: str  # "nvlink-4", "pcie-4", "infiniband-ndr" …
    family: str  # "nvlink", "pcie" or "network"
    gbs_one_way: float

    @property
    def latency_s(self) -> float:
        return LATENCY_S[self.family]


PCIE_ASSUMED_GBS = 64.0  # PCIe 4.0 x16 both ways, for a card whose record gives no PCIe figure (only ranks layouts)


def intra_node(gpu: GpuSpec, span: int = 0) -> Link:
    """The link between `span` GPUs of one node (0: all of them): NVLink/Infinity Fabric where the record has it and
    it joins them all (a two-card bridge joins pairs only), else PCIe."""
    if gpu.nvlink_gbs and gpu.nvlink_spans(span or gpu.gpus_per_node):
        return Link(gpu.intra_node_link, "nvlink", gpu.nvlink_gbs / 2)
    kind = gpu.intra_node_link if gpu.intra_node_link.startswith("pcie") else "pcie-4"
    return Link(kind, "pcie", (gpu.pcie_gbs or PCIE_ASSUMED_GBS) / 2)


def inter_node(gbps: float) -> Link:
    """The network between nodes at `gbps` Gb/s a GPU (one NIC a GPU): bits ÷ 8 = bytes."""
    return Link(INTER_NAMES.get(float(gbps), "network"), "network", gbps / 8)


def group_link(gpu: GpuSpec, span: int, stride: int, inter: Link) -> Link:
    """The slowest link a group of `span` GPUs spaced `stride` apart crosses: inside one node, or the network."""
    if span <= 1:
        return intra_node(gpu, 1)
    return intra_node(gpu, span * stride) if span * stride <= gpu.gpus_per_node else inter


def ring_seconds(data_bytes: float, members: int, link: Link) -> float:
    """One ring all-reduce of `data_bytes` over `members` GPUs: 2·(n−1)/n of it a GPU, plus the latency."""
    if members <= 1:
        return 0.0
    return 2 * (members - 1) / members * data_bytes / (link.gbs_one_way * 1e9) + link.latency_s
