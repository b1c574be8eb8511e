"""Dataset cartography (Swayamdipta et al., 2020): how the model saw each training example,
epoch by epoch.

When ``TrainConfig.cartography`` is on, the engine calls :func:`record_epoch` at the end of
every epoch: the training rows are scored once more (eval mode, no gradients: an extra
pass, hence off by default) and one line is appended to ``cartography.jsonl`` in the run
folder with each row's probability of its gold label and its predicted label. The first
line holds the rows' texts (a pair's two sides on one line, as the Results page shows them)
and gold labels, so the file is read without the data.

:func:`read_cartography` turns the file into per-example *confidence* (mean gold
probability over epochs), *variability* (its standard deviation) and *correctness*
(the fraction of epochs predicted right). Easy examples sit at high confidence and low
variability; the hard-to-learn corner (low confidence, low variability) is where
mislabelled examples gather. Classification kinds only (the probabilities of a tag or a
span per example are not one number); other kinds write nothing.

:class:`TrainingPasses` is the free variant, in memory: handed to
:func:`bertstudio.train.engine.fit`, it keeps each training row's class probabilities from
the training forward passes themselves (dropout on, the model still learning: what AUM,
Pleiss et al. 2020, reads), averaged over every pass, with no extra pass. The label-error
finder's fine-tuning folds use it (assist/label_errors.py): on SST-2 those passes rank
flipped labels better than the end-of-epoch scoring above (benchmarks/README.md, "label
errors").
"""

from __future__ import annotations

import json
import os
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bertstudio.errors import DataError

log = logging.getLogger(__name__)

FILE = "cartography.jsonl"
_TEXT_CHARS = 300  # enough to recognise an example in a tooltip; the file stays small


def record_epoch(folder: str | Path, epoch: int, step: int, path: Any, parts: Any, train_set: Any,
                 train_enc: Any, config: Any) -> bool:
    """Score the training rows with the model as it is now and append the epoch's line.
    False (nothing written) for a kind whose predictions carry no class probabilities."""
    from bertstudio.train.evaluation import EVAL_BATCH_FACTOR, eval_loader, predict_batches

    tokenizer = parts.tokenizer
    pad_id = tokenizer.pad_token_id if tokenizer is not None and tokenizer.pad_token_id is not None else 0
    loader = eval_loader(train_enc, parts.task, pad_id, config.batch_size * EVAL_BATCH_FACTOR,
                         pad_to_multiple_of=path.pad_to_multiple_of)
    accumulator = parts.task.accumulator(train_set, train_enc, parts.labels)
    model = path.accelerator.unwrap_model(path.module)  # this process only: no DDP collectives
    with path.autocast():
        preds = predict_batches(model, loader, accumulator, device=path.accelerator.device)
    if not preds or "probs" not in preds[0]:
        return False
    gold = list(train_set.dataset[train_set.gold_column])
    file = Path(folder) / FILE
    lines = []
    if not file.exists():  # each text as the Results page shows it (a pair: both sides), each side cut
        spec = train_set.spec
        columns = [list(train_set.dataset[c]) for c in spec.headline]
        texts = [spec.example_text({c: _cut(v) for c, v in zip(spec.headline, values)}) for values in zip(*columns)]
        lines.append({"kind": "header", "labels": list(parts.labels), "gold": gold, "text": texts})
    lines.append({"kind": "epoch", "epoch": int(epoch), "step": int(step),
                  "gold_prob": [float(p["probs"].get(g, 0.0)) if g is not None else None for p, g in zip(preds, gold)],
                  "pred": [p["label"] for p in preds]})
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)  # never through a link
    with os.fdopen(os.open(file, flags, 0o666), "a", encoding="utf-8") as f:
        f.write("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
    return True


def _cut(value: Any) -> Any:
    return value[:_TEXT_CHARS] if isinstance(value, str) else value


@dataclass(frozen=True)
class Cartography:
    """Per training example (rows of the run's training set, in order)."""

    text: list[str]
    gold: list[Any]
    confidence: np.ndarray
    variability: np.ndarray
    correctness: np.ndarray
    epochs: int


def read_cartography(run_dir: str | Path, problems: list[DataError] | None = None) -> Cartography | None:
    """The run's cartography, or None when it has none (or the file is unreadable: then the
    reason, naming the file, is appended to ``problems``, so a window can say it rather than
    "this run recorded no data map"). A resumed run may have written an epoch twice: the last
    line of each epoch counts."""
    from bertstudio.train.rundir import _text, decode_json

    path = Path(run_dir) / FILE
    try:
        text = _text(path)  # a FIFO refused before it is opened, a size cap
        if text is None:
            return None
        lines = [decode_json(line, path=path, where=f"line {n}") for n, line in enumerate(text.splitlines(), 1)
                 if line.strip()]
        lines = [line for line in lines if isinstance(line, dict)]
        header = next(line for line in lines if line.get("kind") == "header")
        epochs = {int(line["epoch"]): line for line in lines if line.get("kind") == "epoch"}
        gold, text = list(header["gold"]), list(header["text"])
        # a gold may be none: a CLI run keeps its unlabelled training rows (their points are left out)
        if not all(isinstance(t, str) for t in text) or not all(
                g is None or (isinstance(g, (str, int)) and not isinstance(g, bool)) for g in gold):
            raise ValueError("the header's texts or gold labels are not names")  # a click showed an int: AttributeError
        if not epochs or len(text) != len(gold):
            raise ValueError("no epoch recorded, or not one gold label per text")
        probs = np.array([[np.nan if p is None else float(p) for p in epochs[e]["gold_prob"]] for e in sorted(epochs)])
        right = np.array([[p == g for p, g in zip(epochs[e]["pred"], gold)] for e in sorted(epochs)], dtype=float)
    except (OSError, ValueError, KeyError, TypeError, StopIteration, AttributeError, DataError) as exc:
        log.info("no cartography in %s: %s", run_dir, exc)
        if problems is not None:
            problems.append(exc if isinstance(exc, DataError) else DataError(
                f"not a data map bertstudio can read ({type(exc).__name__}: {exc})"[:200], path=path))
        return None
    if probs.shape[1] != len(gold) or right.shape != probs.shape:
        if problems is not None:
            problems.append(DataError("the epochs do not hold one probability per example", path=path))
        return None
    return Cartography(text, gold, probs.mean(0), probs.std(0), right.mean(0), len(epochs))


class TrainingPasses:
    """For each of ``rows`` training rows (by ``example_index``), the sum of its softmax
    probabilities over the training passes it took part in, and how many (``counts``);
    classification logits only (a tagging or QA batch's logits are per token and are not
    recorded). One process (the finder's folds)."""

    def __init__(self, rows: int) -> None:
        self.sums: np.ndarray | None = None  # (rows, classes), from the first batch on
        self.counts = np.zeros(rows, dtype=np.int64)

    def add(self, batch: Any, logits: Any) -> None:
        """Record one training batch's rows (called by the engine after each forward)."""
        import torch

        if logits is None or logits.ndim != 2 or logits.shape[1] < 2 or "example_index" not in batch:
            return  # per-token logits, a regression score, or rows without their example number
        rows = batch["example_index"].detach().cpu().numpy().astype(np.int64)
        probs = torch.softmax(logits.detach().float(), dim=-1).cpu().numpy().astype(np.float64)
        if self.sums is None:
            self.sums = np.zeros((len(self.counts), probs.shape[1]))
        np.add.at(self.sums, rows, probs)
        np.add.at(self.counts, rows, 1)

    def mean(self) -> np.ndarray:
        """``(rows, classes)``: each row's mean probabilities over its passes; NaN for a row that
        took no pass (for every row, in one column, when nothing was recorded)."""
        if self.sums is None:
            return np.full((len(self.counts), 1), np.nan)
        with np.errstate(invalid="ignore"):  # 0 / 0: a row without a pass
            return self.sums / self.counts[:, None]
