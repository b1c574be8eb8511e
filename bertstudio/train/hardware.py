"""Device and precision choice as pure functions of what the machine offers.

``precision="auto"`` must never pick a slow path: bf16 on a CPU without native
bf16 instructions (AVX2-only machines) runs matmuls roughly 100x slower than fp32,
so on CPU bf16 is chosen only when the flags show avx512_bf16 or AMX, and the flags
are not enough either: on a Xeon with avx512_bf16 but no AMX (seen here, 2026-12-02)
oneDNN's bf16 linear ran at 150 GFLOP/s against fp32's 260, and training in bf16 at
0.55x fp32's speed. So bf16 must also measure faster, once per process
(:func:`bf16_matmul_speedup`, a few tens of milliseconds).
"""

from __future__ import annotations

import functools
from pathlib import Path

from bertstudio.errors import ConfigError

_FAST_BF16_FLAGS = frozenset({"avx512_bf16", "amx_bf16", "amx_tile"})


def pick_device(preference: str, *, cuda: bool, mps: bool) -> str:
    """``auto`` means CUDA > MPS > CPU; an explicit device must be present."""
    if preference == "auto":
        return "cuda" if cuda else "mps" if mps else "cpu"
    if preference.startswith("cuda") and not cuda:
        raise ConfigError(f"device {preference!r} asked for, but no CUDA GPU is available", where="device", expected="auto or cpu")
    if preference == "mps" and not mps:
        raise ConfigError("device 'mps' asked for, but Apple MPS is not available", where="device", expected="auto or cpu")
    if preference != "cpu" and not preference.startswith("cuda") and preference != "mps":
        raise ConfigError(f"unknown device {preference!r}", where="device", expected="auto | cpu | cuda | cuda:N | mps")
    return preference


def cpu_has_fast_bf16(flags: set[str] | frozenset[str] | None = None, capability: str | None = None) -> bool:
    """True when the CPU executes bf16 natively (avx512_bf16 or AMX).

    ``flags`` are /proc/cpuinfo flags; ``capability`` is ``torch.backends.cpu.get_cpu_capability()``
    (used only when no flags are known: "AVX512_BF16"/"AMX" style names count, plain AVX2/AVX512 do not).
    """
    if flags:
        return bool(_FAST_BF16_FLAGS & set(flags))
    if capability:
        cap = capability.upper()
        return "BF16" in cap or "AMX" in cap
    return False


BF16_MIN_SPEEDUP = 1.2  # bf16 must beat fp32 by this much on the probe to be chosen: its rounding costs accuracy


def bf16_matmul_speedup(reps: int = 5) -> float:
    """fp32 time / bf16 time of one linear layer of a small encoder (512 tokens, 384 -> 1536,
    MiniLM's feed-forward), measured on this CPU with torch's threads: the best of ``reps``
    interleaved tries each, after a warm-up that builds the kernels."""
    import time

    import torch
    from torch.nn.functional import linear

    gen = torch.Generator().manual_seed(0)  # not the global RNG: a run's draws stay the same
    x32, w32 = torch.randn(512, 384, generator=gen), torch.randn(1536, 384, generator=gen)
    x16, w16 = x32.bfloat16(), w32.bfloat16()
    best = {torch.float32: float("inf"), torch.bfloat16: float("inf")}
    with torch.no_grad():
        for x, w in ((x32, w32), (x16, w16)):
            linear(x, w)
        for _ in range(reps):
            for x, w in ((x32, w32), (x16, w16)):
                t0 = time.perf_counter()
                linear(x, w)
                best[x.dtype] = min(best[x.dtype], time.perf_counter() - t0)
    return best[torch.float32] / max(best[torch.bfloat16], 1e-9)


@functools.cache
def cpu_bf16_pays_off() -> bool:
    """Whether bf16 measured at least BF16_MIN_SPEEDUP x fp32 here (measured once per process)."""
    return bf16_matmul_speedup() >= BF16_MIN_SPEEDUP


def cpu_flags() -> set[str]:
    """The CPU flags from /proc/cpuinfo (empty where there is none, e.g. macOS)."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def pick_precision(preference: str, device: str, *, cuda_bf16: bool = False, cpu_fast_bf16: bool = False) -> str:
    """Resolve ``auto`` to fp32 | bf16 | fp16 for ``device``.

    CUDA: bf16 when supported (Ampere and newer), else fp16 with a GradScaler.
    CPU: bf16 only with native bf16 instructions, else fp32. MPS: fp32 (its
    autocast coverage is partial and rarely faster for small encoders).
    """
    if preference != "auto":
        if preference == "fp16" and not device.startswith("cuda"):
            raise ConfigError("fp16 needs a CUDA GPU", where="precision", expected="auto, fp32 or bf16")
        return preference
    if device.startswith("cuda"):
        return "bf16" if cuda_bf16 else "fp16"
    if device == "cpu":
        return "bf16" if cpu_fast_bf16 else "fp32"
    return "fp32"


def mps_available() -> bool:
    """Apple's MPS backend is there (a torch without it has no torch.backends.mps)."""
    import torch

    return bool(getattr(torch.backends, "mps", None)) and torch.backends.mps.is_available()


def detect() -> tuple[bool, bool, bool, bool]:
    """(cuda, mps, cuda_bf16, cpu_fast_bf16) for this machine; cpu_fast_bf16: native bf16
    instructions that also measure faster than fp32 (:func:`cpu_bf16_pays_off`)."""
    import torch

    cuda = torch.cuda.is_available()
    mps = mps_available()
    cuda_bf16 = cuda and torch.cuda.is_bf16_supported()
    # the flags first (no probe where bf16 is emulated), then a measurement (native is not always faster)
    fast = cpu_has_fast_bf16(cpu_flags(), torch.backends.cpu.get_cpu_capability()) and cpu_bf16_pays_off()
    return cuda, mps, cuda_bf16, fast


def runs_bf16(device: str) -> bool:
    """Whether the device ``device`` resolves to on this machine runs bf16 natively: what ``auto``
    asks before it would pick bf16 (a CUDA GPU that supports it, Ampere and newer; a CPU with
    avx512_bf16 or AMX), without the timing probe that may say no at a busier moment. MPS: auto
    never picks bf16 there."""
    import torch

    try:
        dev = pick_device(device, cuda=torch.cuda.is_available(), mps=mps_available())
    except ConfigError:
        return False  # the run's own start says what is wrong with the device
    if dev.startswith("cuda"):
        return bool(torch.cuda.is_bf16_supported())
    if dev == "cpu":
        return cpu_has_fast_bf16(cpu_flags(), torch.backends.cpu.get_cpu_capability())
    return False


def resolve(device: str, precision: str) -> tuple[str, str]:
    """The device and precision a run will use on this machine."""
    cuda, mps, cuda_bf16, fast = detect()
    dev = pick_device(device, cuda=cuda, mps=mps)
    return dev, pick_precision(precision, dev, cuda_bf16=cuda_bf16, cpu_fast_bf16=fast)
