"""Dynamic padding shared by every task kind.

Rows arrive as plain lists (what ``datasets.Dataset`` rows hold). Each batch is
padded to its own longest row, rounded up to a multiple of 8 so tensor cores get
aligned shapes. One numpy slice assignment per row and key: no per-token Python.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

if TYPE_CHECKING:  # imported where tensors are made, so reading tasks never loads torch
    import torch

PAD_MULTIPLE = 8

# Per-token keys and what fills their padding (None = the tokenizer's pad id).
TOKEN_KEYS: dict[str, int | None] = {
    "input_ids": None,
    "token_type_ids": 0,
    "attention_mask": 0,
    "word_index": -1,
}
# Per-example scalar keys, copied as they are.
SCALAR_KEYS: tuple[str, ...] = ("start_positions", "end_positions", "example_index")


def padded_length(longest: int, multiple: int = PAD_MULTIPLE) -> int:
    return max(multiple, -(-longest // multiple) * multiple)


def _pad_rows(rows: Sequence[Sequence[Any]], width: int, fill: int, tail: tuple[int, ...] = ()) -> np.ndarray:
    out = np.full((len(rows), width, *tail), fill, dtype=np.int64)
    for i, row in enumerate(rows):
        if len(row):
            out[i, : len(row)] = np.asarray(row, dtype=np.int64)
    return out


def pad_batch(
    features: Sequence[Mapping[str, Any]],
    pad_token_id: int,
    *,
    float_labels: bool = False,
) -> dict[str, torch.Tensor]:
    """Pad a list of encoded rows into int64 tensors (float32 ``labels`` for regression).

    ``labels`` is per token (padded with -100) when rows hold lists, else one per row.
    ``offset_mapping`` (QA evaluation) becomes ``(batch, length, 2)`` padded with -1.
    The ``length`` column is for the sampler only and is dropped.
    """
    import torch

    if not features:
        raise ValueError("cannot collate an empty batch")
    first = features[0]
    width = padded_length(max(len(f["input_ids"]) for f in features))
    batch: dict[str, torch.Tensor] = {}
    for key, fill in TOKEN_KEYS.items():
        if key in first:
            rows = [f[key] for f in features]
            batch[key] = torch.from_numpy(_pad_rows(rows, width, pad_token_id if fill is None else fill))
    if "offset_mapping" in first:
        batch["offset_mapping"] = torch.from_numpy(
            _pad_rows([f["offset_mapping"] for f in features], width, -1, tail=(2,))
        )
    for key in SCALAR_KEYS:
        if key in first:
            batch[key] = torch.tensor([f[key] for f in features], dtype=torch.int64)
    if "labels" in first:
        if isinstance(first["labels"], (list, tuple, np.ndarray)):
            batch["labels"] = torch.from_numpy(_pad_rows([f["labels"] for f in features], width, -100))
        elif float_labels:
            batch["labels"] = torch.tensor([f["labels"] for f in features], dtype=torch.float32)
        else:
            batch["labels"] = torch.tensor([f["labels"] for f in features], dtype=torch.int64)
    return batch
