"""AdamW with the BERT recipe's two parameter groups."""

from __future__ import annotations

import torch
from torch import nn


def no_decay(name: str, param: torch.Tensor) -> bool:
    """Biases and normalisation weights get no weight decay (BERT, transformers' Trainer).

    One-dimensional parameters are exactly those: biases and LayerNorm gains/biases.
    """
    return param.ndim < 2 or name.endswith(".bias")


def param_groups(model: nn.Module, weight_decay: float) -> list[dict]:
    """Trainable parameters split into a decayed and an undecayed group (empty groups dropped)."""
    decay, plain = [], []
    for name, p in model.named_parameters():
        if p.requires_grad:
            (plain if no_decay(name, p) else decay).append(p)
    groups = [{"params": decay, "weight_decay": weight_decay}, {"params": plain, "weight_decay": 0.0}]
    return [g for g in groups if g["params"]]


def make_optimizer(model: nn.Module, *, lr: float, weight_decay: float, device: str) -> torch.optim.AdamW:
    """AdamW; fused kernels on CUDA, multi-tensor (foreach) elsewhere, both much faster than per-parameter loops."""
    fused = device.startswith("cuda")
    return torch.optim.AdamW(
        param_groups(model, weight_decay), lr=lr, betas=(0.9, 0.999), eps=1e-8,
        fused=fused or None, foreach=None if fused else True,
    )
