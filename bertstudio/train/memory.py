"""Keep freed memory in the process while a CPU run trains (glibc only).

Every training step frees and reallocates the same tensors: activations, and one
gradient per weight (MiniLM: 11M values, 22-44 MB, in tensors of 0.3-2.4 MB). With
glibc's defaults those blocks either come from ``mmap`` (above the mmap threshold) or
from the heap top, which ``free`` trims back to the kernel once 128 kB are unused; in
both cases the next step touches fresh pages and pays a page fault per 4 kB. Measured
on MiniLM, bf16, 2 cores, a batch of 32 x 14 tokens: forward + backward 121 ms with
the defaults, 97-101 ms with the heap kept (trim threshold 1 GB, mmap threshold 32 MB,
top pad 64 MB); a 1 x 4 batch: 41 ms against 29 ms. PyTorch's CPU tuning guide makes the
same point by recommending jemalloc or tcmalloc.

:func:`keep_freed_memory` sets those three ``mallopt`` parameters and returns a function
that puts glibc's defaults back (after which the next ``free`` returns the memory).
Elsewhere (macOS, Windows, musl) it does nothing. :func:`own_trainable_weights` moves
weights out of the checkpoint file's memory map before the first step writes them.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from typing import Callable

import torch

M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_THRESHOLD = -1, -2, -3
KEEP = {M_TRIM_THRESHOLD: 1 << 30, M_TOP_PAD: 64 << 20, M_MMAP_THRESHOLD: 32 << 20}
DEFAULTS = {M_TRIM_THRESHOLD: 128 << 10, M_TOP_PAD: 128 << 10, M_MMAP_THRESHOLD: 128 << 10}


def _mallopt() -> Callable[[int, int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.gnu_get_libc_version  # present only in glibc
        fn = libc.mallopt
    except (OSError, AttributeError):
        return None
    fn.argtypes, fn.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return fn


def keep_freed_memory() -> Callable[[], None]:
    """Tune glibc malloc for a training loop; returns the undo (a no-op off glibc)."""
    mallopt = _mallopt()
    if mallopt is None:
        return lambda: None
    for param, value in KEEP.items():
        mallopt(param, value)

    def undo() -> None:
        for param, value in DEFAULTS.items():
            mallopt(param, value)

    return undo


def own_trainable_weights(model: torch.nn.Module) -> int:
    """Give every trainable CPU parameter of ``model`` memory of its own; returns how many
    values were copied.

    transformers loads safetensors checkpoints through ``mmap``: the weights stay in a
    private (copy-on-write) mapping of the file, so the first optimizer step that writes
    them pays a page fault and a 4 kB copy per page. Measured on MiniLM (22.7M weights,
    2 cores): 390 ms for the first in-place pass over all weights, 16 ms for the second;
    copying them first costs 36 ms. Weights that do not train are left mapped (shared with
    the page cache, never written)."""
    copied = 0
    with torch.no_grad():
        for p in model.parameters():
            if p.requires_grad and p.device.type == "cpu":
                p.data = p.data.clone()
                copied += p.numel()
    return copied
