"""Class weighting (TrainConfig.class_weight): the training loss of a classifier with each
row weighted by the inverse frequency of its class.

"balanced" is scikit-learn's formula, ``n / (classes * rows of the class)`` over the classes
that have training rows (``compute_class_weight``), the weights the logistic-regression probe
gets from ``class_weight="balanced"`` too (train/probe.py). On 40 Sports and 4 World rows the
unweighted head settled on the prior and answered Sports for every evaluation row (accuracy
50.0 on a 100/100 test set), though the ranking it learnt was good (ROC AUC 0.97).

The engine computes the weighted loss from the model's logits (:func:`weighted_cross_entropy`)
for every classification head alike: the stock Hugging Face heads compute their own
unweighted loss inside the model, where no weight reaches.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch


def balanced_weights(label_ids: Any, num_labels: int) -> np.ndarray:
    """One weight per label id: ``n / (k * count)`` for the ``k`` classes present in
    ``label_ids``; 1.0 for a label with no training row (no row ever carries it)."""
    from sklearn.utils.class_weight import compute_class_weight

    y = np.asarray(label_ids, dtype=np.int64)
    present = np.unique(y)
    weights = np.ones(num_labels, dtype=np.float32)
    if len(present):
        weights[present] = compute_class_weight("balanced", classes=present, y=y)
    return weights


def training_weights(config: Any, train_rows: Any, num_labels: int, device: Any) -> torch.Tensor | None:
    """The loss weights a run trains with (``train_rows``: its encoded training rows, the
    ``labels`` column holding label ids), or None when ``config.class_weight`` is "none"."""
    if config.class_weight == "none":
        return None
    ids = np.asarray(list(train_rows["labels"]), dtype=np.int64)  # datasets 5: a lazy Column, not a list
    return torch.from_numpy(balanced_weights(ids, num_labels)).to(device)


def weighted_cross_entropy(logits: torch.Tensor, labels: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    """Cross-entropy with row ``i`` weighted by ``weights[labels[i]]``, averaged over the rows.

    Divided by the batch's row count, not by its rows' weight sum (PyTorch's ``weight=`` mean):
    the balanced weights average exactly 1 over the training set, so this is an unbiased
    estimate of the class-balanced loss at the learning rate's usual scale. PyTorch's
    normalisation would give a batch of majority rows alone (most of a 40:4 set's batches) the
    full unweighted loss, and the weighting would act only within the few mixed batches."""
    per_row = torch.nn.functional.cross_entropy(logits.float(), labels, reduction="none")
    return (per_row * weights.to(per_row.device)[labels]).mean()
