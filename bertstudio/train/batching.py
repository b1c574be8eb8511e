"""Which rows go into which batch: pure functions of lengths, batch size and seed.

Grouping training rows of similar length cuts padding (most BERT fine-tuning sets
have a long tail of lengths); the grouping is randomised per epoch so it still
behaves like a shuffle. Evaluation sorts all rows by length, as order does not
matter there and it minimises padding. For bf16 on CPU, :func:`plan_widths` picks the
padded width of each batch shape (the collator pads to it, see
:func:`bertstudio.tasks.collate.pad_batch`).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Iterator, Sequence

import numpy as np

#: What a new batch shape costs, in padded tokens. On a CPU with AMX, oneDNN builds bf16
#: matmul kernels for every new (batch, length): measured on MiniLM (2 cores) ~27 ms per
#: new length, against ~0.15 ms per padded token of a step: ~180 tokens. A little lower
#: here, so that padding is only added where it clearly pays.
NEW_SHAPE_TOKENS = 160


def length_grouped_batches(
    lengths: Sequence[int] | np.ndarray,
    batch_size: int,
    *,
    seed: int,
    epoch: int,
    mega_batches: int = 50,
    group_by_length: bool = True,
    short_last: bool = True,
) -> list[list[int]]:
    """Row indices per batch for one training epoch.

    Shuffle all rows with (seed, epoch); cut the permutation into mega-batches of
    ``mega_batches * batch_size`` rows and sort each by length (longest first);
    cut those into batches and shuffle the batch order. Without grouping it is a
    plain seeded shuffle. Every row appears exactly once; only the last batch may be
    short, so there are ceil(n / batch_size) batches. The short batch stays last:
    accelerate shards the batches across processes assuming it is (shuffled into the
    middle, 2 processes silently skipped a pair of batches in that epoch and 4 hung,
    their processes given 3 and 4 batches). ``short_last=False`` is the order runs drew before
    (the short batch shuffled with the others), for resuming their checkpoints mid-epoch.
    """
    n = len(lengths)
    rng = np.random.default_rng([seed, epoch])
    order = rng.permutation(n)
    if not group_by_length:
        return [order[i : i + batch_size].tolist() for i in range(0, n, batch_size)]
    lengths = np.asarray(lengths)
    span = batch_size * mega_batches
    batches: list[list[int]] = []
    for start in range(0, n, span):
        chunk = order[start : start + span]
        # stable sort so equal lengths keep their shuffled order (deterministic)
        chunk = chunk[np.argsort(-lengths[chunk], kind="stable")]
        batches.extend(chunk[i : i + batch_size].tolist() for i in range(0, len(chunk), batch_size))
    short = batches.pop() if short_last and batches and len(batches[-1]) < batch_size else None
    batches = [batches[i] for i in rng.permutation(len(batches))]
    return batches + [short] if short is not None else batches


def plan_widths(shapes: Iterable[tuple[int, int]], *, shape_cost: float = NEW_SHAPE_TOKENS,
                multiple: int = 8) -> dict[tuple[int, int], int]:
    """The padded width for each (batch size, longest row) among ``shapes`` (one entry per
    batch): the longest row itself, or a longer width another batch of the same size
    already has, when the padding this adds costs less than a new shape (``shape_cost``
    padded tokens; see :data:`NEW_SHAPE_TOKENS`).

    Exact (dynamic programming over the sorted lengths of each batch size: pad a run of
    neighbouring lengths up to the run's longest). A width never goes past the row's length
    rounded up to ``multiple`` (the collators' default ``pad_to_multiple_of``), so a planned
    batch is never wider than it would be on a GPU."""
    counts = Counter(shapes)
    widths: dict[tuple[int, int], int] = {}
    for size in sorted({b for b, _ in counts}):
        lengths = sorted(n for b, n in counts if b == size)
        batches = [counts[(size, n)] for n in lengths]
        best = [0.0] + [float("inf")] * len(lengths)  # best[j]: the first j lengths planned
        start = [0] * (len(lengths) + 1)
        for j in range(1, len(lengths) + 1):
            top, pad = lengths[j - 1], 0.0
            for i in range(j - 1, -1, -1):  # lengths[i:j] padded to top
                if top > -(-lengths[i] // multiple) * multiple:
                    break
                pad += batches[i] * (top - lengths[i]) * size
                if best[i] + shape_cost + pad < best[j]:
                    best[j], start[j] = best[i] + shape_cost + pad, i
        j = len(lengths)
        while j:
            for n in lengths[start[j]:j]:
                widths[(size, n)] = lengths[j - 1]
            j = start[j]
    return widths


def sorted_batches(lengths: Sequence[int] | np.ndarray, batch_size: int) -> list[list[int]]:
    """Evaluation batches: rows sorted by length (longest first), only the last batch short."""
    order = np.argsort(-np.asarray(lengths), kind="stable")
    return [order[i : i + batch_size].tolist() for i in range(0, len(order), batch_size)]


class EpochBatchSampler:
    """A DataLoader ``batch_sampler`` that yields :func:`length_grouped_batches` for the
    epoch last given to :meth:`set_epoch` (a resumed run skips what it already trained on
    with accelerate's ``skip_first_batches``).

    With ``plan_widths=True`` it also fills :attr:`widths` with :func:`plan_widths` for
    the epoch's batches (a pure function of the epoch, so a resumed run pads as an
    uninterrupted one); give the same dict to the collator (``widths=``)."""

    def __init__(self, lengths: Sequence[int] | np.ndarray, batch_size: int, *, seed: int, group_by_length: bool = True,
                 plan_widths: bool = False) -> None:
        self.lengths = np.asarray(lengths)
        self.batch_size = batch_size
        self.seed = seed
        self.group_by_length = group_by_length
        self.plan_widths = plan_widths
        self.widths: dict[tuple[int, int], int] = {}
        self.epoch = 0
        self.short_last = True  # False: the order of runs before it (a checkpoint of theirs resumed)

    def set_epoch(self, epoch: int) -> None:
        self.epoch = epoch

    def batches(self) -> list[list[int]]:
        batches = length_grouped_batches(
            self.lengths, self.batch_size, seed=self.seed, epoch=self.epoch, group_by_length=self.group_by_length,
            short_last=self.short_last,
        )
        if self.plan_widths:
            self.widths.clear()  # in place: the collator holds this dict
            self.widths.update(plan_widths((len(b), int(self.lengths[b].max())) for b in batches if len(b)))
        return batches

    def __iter__(self) -> Iterator[list[int]]:
        yield from self.batches()

    def __len__(self) -> int:
        # mega-batches hold a whole number of batches, so only the very last batch is short
        return -(-len(self.lengths) // self.batch_size)


class FixedBatchSampler:
    """A DataLoader ``batch_sampler`` over a fixed list of batches (evaluation)."""

    def __init__(self, batches: list[list[int]]) -> None:
        self._batches = batches
        self.batch_size = max((len(b) for b in batches), default=1)

    def __iter__(self) -> Iterator[list[int]]:
        yield from self._batches

    def __len__(self) -> int:
        return len(self._batches)
