"""Dynamic padding shared by every task kind.

Rows arrive as plain lists (what ``datasets.Dataset`` rows hold). Each batch is
padded to its own longest row, rounded up to ``pad_to_multiple_of`` (8 by default,
so GPU tensor cores get aligned shapes; the CPU training paths pass None: there the
extra columns only add work), or to a width planned for the batch's shape. One numpy
slice assignment per row and key: no per-token Python.
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


def padded_length(longest: int, multiple: int | None = PAD_MULTIPLE) -> int:
    """``longest`` rounded up to ``multiple`` (at least one multiple); ``longest`` itself for None."""
    multiple = multiple or 1
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
    pad_to_multiple_of: int | None = PAD_MULTIPLE,
    widths: Mapping[tuple[int, int], int] | None = None,
) -> dict[str, torch.Tensor]:
    """Pad a list of encoded rows into int64 tensors (float32 ``labels`` for regression).

    The width is the longest row rounded up to ``pad_to_multiple_of`` (None: the longest
    row), or ``widths[(rows, longest)]`` where ``widths`` plans one for this batch shape
    (see :func:`bertstudio.train.batching.plan_widths`), kept between the longest row and
    that row rounded up to :data:`PAD_MULTIPLE`.

    ``labels`` is per token (padded with -100) when rows hold lists, else one per row.
    ``offset_mapping`` (QA evaluation) becomes ``(batch, length, 2)`` padded with -1.
    The ``length`` column is for the sampler only and is dropped.
    """
    import torch

    if not features:
        raise ValueError("cannot collate an empty batch")
    first = features[0]
    longest = max(len(f["input_ids"]) for f in features)
    planned = widths.get((len(features), longest)) if widths else None
    if planned is not None:
        width = min(max(longest, planned), padded_length(longest))
    else:
        width = padded_length(longest, pad_to_multiple_of)
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
