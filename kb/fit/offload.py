"""Offload (DeepSpeed ZeRO-Offload, ZeRO-Infinity): what stays on the GPU, and what the host or NVMe must hold.

The figures are DeepSpeed's own memory estimator's (deepspeed.readthedocs.io "Memory Requirements";
estimate_zero2/zero3_model_states_mem_needs), for Ψ parameters, N GPUs on n nodes:
- ZeRO-3, optimizer offloaded: a GPU holds its 2Ψ/N of 16-bit weights and the largest layer gathered (4 B a
  parameter of it); the host 16 B a parameter (fp32 weights, momentum, variance, gradients) ÷ n, × 1.5 buffers.
- ZeRO-3, parameters offloaded too: a GPU holds the largest layer alone; the host 18 B a parameter ÷ n, × 1.5.
- ZeRO-1/2, optimizer offloaded: a GPU holds the 2Ψ of 16-bit weights; the host Ψ × max(4G, 16) × 1.5 for G
  GPUs a node (each process's fp32 copy while the model loads, or the 16 B a parameter of states, whichever is
  more; DeepSpeed's ZeRO-2 estimator counts the load over all N GPUs, kb over a node's, where they run).
- NVMe (ZeRO-Infinity): the same states go to NVMe, 16 (18) B a parameter ÷ n; the host then holds pinned
  buffers only, which DeepSpeed's estimator does not size, so kb gives no host figure.
DeepSpeed's estimate assumes models initialised under zero.Init (ZeRO-3); without it each process loads the model
in fp32 on the host, 4 B a parameter a GPU, which is where offload runs out of host memory first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kb.fit.presets import ModelShape
from kb.numbers import GIB

BUFFER = 1.5  # DeepSpeed's estimator: additional_buffer_factor


def largest_layer_params(shape: ModelShape) -> int:
    """The largest single weight matrix a ZeRO-3 step gathers whole: the embedding table or a dense MLP matrix."""
    mlp = shape.hidden * max(shape.ffn, shape.expert_ffn)
    return max(shape.vocab * shape.hidden, mlp)


def gathered_bytes(shape: ModelShape) -> int:
    """DeepSpeed's largest_layer_memory: 4 B a parameter of the largest layer (its 16-bit weights and gradients)."""
    return 4 * largest_layer_params(shape)


@dataclass(frozen=True)
class HostNeed:
    """What offload puts off the GPUs, a node: host bytes (None: not estimated) and NVMe bytes."""

    mode: str  # optimizer | params
    device: str  # cpu | nvme
    bytes_per_param: float  # what the formula charges a parameter (before ÷ nodes and the buffer)
    host_bytes: int | None
    nvme_bytes: int | None
    nodes: int
    available_bytes: int | None  # the stated host memory a node
    fits: bool | None  # None: no host memory stated, or none estimated


def host_need(params: int, mode: str, device: str, stage: int, gpus_a_node: int, nodes: int,
              host_memory_gib: float | None) -> HostNeed:
    """DeepSpeed's host (or NVMe) memory for offloaded model states, a node, against the stated host memory."""
    per = 18.0 if mode == "params" else 16.0
    available = int(host_memory_gib * GIB) if host_memory_gib else None
    if device == "nvme":
        nvme = math.ceil(params * per / nodes)
        return HostNeed(mode, device, per, None, nvme, nodes, available, None)
    if stage >= 3:
        need = math.ceil(params * per / nodes * BUFFER)
    else:
        per = max(4.0 * gpus_a_node, 16.0)
        need = math.ceil(params * per * BUFFER)
    fits = None if available is None else need <= available
    return HostNeed(mode, device, per, need, None, nodes, available, fits)
