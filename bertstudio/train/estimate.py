"""How long a run will take, said before it starts (the Train page's "would take ~40 s").

The estimate is work divided by a throughput measured on this machine, never a figure
made up for it:

* **Work** counts examples through the encoder, as training-step equivalents. A step
  that trains the encoder (full, top-N, LoRA: the backward pass still runs through the
  layers) costs 1 per example; a pass without backward (a frozen encoder's steps, the
  probe's features, evaluation) costs :data:`FORWARD_COST` of that, since a backward pass
  costs about twice a forward one (the 2N-forward / 6N-training FLOPs rule of Kaplan et
  al. 2020). SetFit's contrastive phase trains on ``setfit_steps(rows)`` batches of
  :data:`~bertstudio.train.setfit_phase.SETFIT_BATCH` pairs, two texts each, through
  another library's trainer (:data:`SETFIT_COST` per text). Seeds run one after another,
  so they multiply everything.
* **Throughput** (:class:`Throughput`: training examples/s of an encoder that learns) comes
  from, in order: the ``examples_per_s`` this project's earlier runs of the same model wrote
  to their history.jsonl (:func:`history_throughput`, converted by the cost of the mode they
  ran in); else a short calibration on this machine (:func:`calibrate`, a few training steps
  of the model through the engine, on a worker thread); else :data:`ROUGH_EXAMPLES_PER_S`,
  marked ``rough``.

What it leaves out, so the figure reads as "about": attention's quadratic cost on long
texts, and other programs sharing the CPU (a throughput measured on a busy machine carries
that load into the figure, which shows the examples/s it used). Start-up, loading and saving
are the fixed :data:`SETUP_S` per seed.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from bertstudio.train.config import EMBEDDING_HEADS, TrainConfig
from bertstudio.train.setfit_phase import SETFIT_BATCH, setfit_steps

FORWARD_COST = 1 / 3  # a pass without backward, in training-step equivalents (forward 2N of 6N FLOPs)
# SetFit's contrastive phase trains through sentence-transformers' (Hugging Face's) Trainer, not
# the engine: on the same machine, model and data, HF Trainer's defaults trained 47.9 examples/s
# against the engine's 222.7 (benchmarks/README.md, train_throughput_cpu), so a SetFit example
# costs that ratio in engine-step equivalents.
SETFIT_COST = 222.7 / 47.9
# No run and no calibration yet: the engine trained MiniLM-L6 at 222.7 examples/s on SST-2
# sentences padded to 14.3 tokens on the 2-core build machine (benchmarks/README.md); halved,
# to stay conservative on a busy or slower machine, and scaled by model size. Shown as "rough".
ROUGH_EXAMPLES_PER_S = 100.0
ROUGH_PARAMS = 22_700_000  # all-MiniLM-L6-v2
ROUGH_TOKENS = 14.3
# What a run pays whatever its size (start-up, loading the model, tokenising, saving): a whole
# `bertstudio train` process on 32 SST-2 sentences took 10.9 s on the build machine
# (benchmarks/README.md, end_to_end.py); per seed, since each seed loads and saves its model.
SETUP_S = 10.9
CALIBRATION_TEXT = "a short sentence of ordinary length, as people label them, to time a training step"


@dataclass(frozen=True)
class Throughput:
    """Training examples/s (an encoder that learns) on this machine; ``source``: history |
    calibration | rough."""

    examples_per_s: float
    source: str
    tokens: float | None = None  # tokens per example it was measured at (None: this project's own texts)


@dataclass(frozen=True)
class Estimate:
    seconds: float  # all seeds
    seeds: int
    throughput: Throughput
    phases: dict[str, float]  # seconds per seed: setup, setfit, probe, train, evaluate

    @property
    def rough(self) -> bool:
        return self.throughput.source == "rough"


def pass_cost(mode: str) -> float:
    """Training-step equivalents per example of a training step in ``mode``."""
    return FORWARD_COST if mode == "frozen" else 1.0


def estimate(config: TrainConfig, rows: int, throughput: Throughput, *, eval_rows: int = 0,
             tokens: float | None = None) -> Estimate:
    """The time ``config`` takes on ``rows`` labelled training rows (and ``eval_rows``
    evaluated after each epoch, or every ``eval_steps``) at ``throughput``; ``tokens``: the
    texts' mean length (:func:`mean_tokens`), when the throughput was measured on other texts
    (the cost of a step grows about linearly with its tokens at these lengths)."""
    rate = max(throughput.examples_per_s, 1e-9)
    if throughput.tokens and tokens:
        rate *= throughput.tokens / max(1.0, min(tokens, config.max_length))
    sides = 2 if config.head == "siamese" else 1  # the siamese head encodes each side on its own
    per_step = config.batch_size * config.grad_accum
    steps_per_epoch = max(1, math.ceil(rows / per_step))
    steps = max(1, math.ceil(steps_per_epoch * config.epochs))
    full_epochs, rest = divmod(steps, steps_per_epoch)  # the loop's steps: whole passes, then the first batches
    examples = full_epochs * rows + min(rows, rest * per_step)
    evaluations = math.ceil(steps / config.eval_steps) if config.eval_steps else math.ceil(config.epochs)
    phases = {
        "setup": SETUP_S,
        "setfit": setfit_steps(rows) * SETFIT_BATCH * 2 * SETFIT_COST / rate if config.method == "setfit" and rows
        else 0.0,
        "probe": rows * sides * FORWARD_COST / rate if config.head in EMBEDDING_HEADS else 0.0,
        "train": examples * sides * pass_cost(config.mode) / rate,
        "evaluate": eval_rows * sides * FORWARD_COST * evaluations / rate,
    }
    seeds = max(1, int(config.seeds))
    return Estimate(seeds * sum(phases.values()), seeds, throughput, phases)


def rough_throughput(params: int | None = None) -> Throughput:
    """:data:`ROUGH_EXAMPLES_PER_S`, scaled to a model of ``params`` parameters (cost grows with size)."""
    scale = ROUGH_PARAMS / params if params else 1.0
    return Throughput(ROUGH_EXAMPLES_PER_S * scale, "rough", ROUGH_TOKENS)


def guess_tokens(texts: Any) -> Any:
    """About how many WordPiece tokens each text has (no [CLS] or [SEP]): 1.3 per word (English
    words split into ~1.3 pieces), or one per CJK character where those are more. A guess
    without loading a tokenizer, good enough to scale a throughput or count QA windows.
    ``texts``: a list or an Arrow string array; a numpy array back (a null counts 0)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    column = texts if isinstance(texts, (pa.Array, pa.ChunkedArray)) else pa.array(list(texts), type=pa.string())
    if not len(column):
        return np.zeros(0)
    column = pc.fill_null(column, "")
    words = pc.count_substring_regex(pc.utf8_trim_whitespace(column), r"\s+").to_numpy(zero_copy_only=False) + 1
    words = np.where(pc.utf8_length(pc.utf8_trim_whitespace(column)).to_numpy(zero_copy_only=False) > 0, words, 0)
    cjk = pc.count_substring_regex(column, "[\u3400-\u9fff]").to_numpy(zero_copy_only=False)
    return np.maximum(words * 1.3, cjk)


def mean_tokens(texts: Iterable[str]) -> float:
    """About how many WordPiece tokens a text of ``texts`` has (:func:`guess_tokens`, plus
    [CLS] and [SEP]); 0.0 for no texts."""
    counts = guess_tokens(list(texts))
    return float(counts.mean()) + 2 if len(counts) else 0.0


def _run_folders(runs: Iterable[Path]) -> list[Path]:
    """Run folders, newest first; a several-seeds job's seed-N folders stand for it."""
    out: list[Path] = []
    for folder in reversed(list(runs)):
        seeds = sorted(Path(folder).glob("seed-*"))
        out.extend(seeds if seeds and not (Path(folder) / "history.jsonl").is_file() else [Path(folder)])
    return out


def history_throughput(runs: Iterable[Path], model: str | None, *, device: str = "auto",
                       max_runs: int = 5) -> Throughput | None:
    """The median step rate of the newest runs (up to ``max_runs``) of ``model`` on ``device``
    among ``runs`` (run folders, oldest first, as Project.list_runs gives them), as training
    examples/s (a frozen run's rate times :func:`pass_cost`). None: no such run logged a step."""
    from bertstudio.train.events import StepLogged
    from bertstudio.train.rundir import read_history, saved_config

    rates: list[float] = []
    used = 0
    for folder in _run_folders(runs):
        config = saved_config(folder)
        if config is None or config.model != model or config.device != device:
            continue
        steps = [e.examples_per_s for e in read_history(folder)
                 if isinstance(e, StepLogged) and math.isfinite(e.examples_per_s) and e.examples_per_s > 0]
        if not steps:
            continue
        rates.append(statistics.median(steps) * pass_cost(config.mode))
        used += 1
        if used >= max_runs:
            break
    return Throughput(statistics.median(rates), "history") if rates else None


def calibrate(model: str | None, *, device: str = "auto", batch_size: int = 8, steps: int = 6,
              cancel: Any = None) -> Throughput:
    """Train ``model`` for ``steps`` steps of ``batch_size`` short made-up sentences through the
    engine itself (its CPU path, precision and padding, as a real run would), with nothing
    saved, and return :func:`machine_rate` of the steps' examples/s. Seconds on an idle
    machine; imports torch (a worker thread's job). ``cancel``: a threading.Event, checked
    after every step."""
    from bertstudio.data.examples import from_records
    from bertstudio.train.engine import train
    from bertstudio.train.events import StepLogged

    words = CALIBRATION_TEXT.split()
    # each text once (numbered): the 7 lengths repeated with labels a, b, a... and the run's check for an
    # input labelled two ways warned about "the training data" of a project that had no such rows
    texts = [" ".join(words[: 8 + i % (len(words) - 8)]) + f" {i}" for i in range(batch_size * steps)]
    labels = ["a", "b"]
    rates: list[float] = []
    config = TrainConfig(task="sentence", model=model, labels=labels, batch_size=batch_size, epochs=1,
                         logging_steps=1, device=device, seed=0)
    result = train(config, from_records("sentence", [{"text": t, "label": labels[i % 2]} for i, t in enumerate(texts)],
                                        labels=labels),
                   callbacks=[lambda event, _control: rates.append(event.examples_per_s)
                              if isinstance(event, StepLogged) else None], cancel=cancel)
    if result.status != "finished" or not rates:
        raise RuntimeError(f"the calibration run did not finish ({result.status}: {result.message})")
    return Throughput(machine_rate(rates), "calibration", mean_tokens(texts))


def machine_rate(rates: list[float]) -> float:
    """What a few timed steps say the machine can do: the fastest step after the first (which
    pays for lazy set-up). Other work only ever slows a step: the page is often first seen
    while the labelling assistant embeds the pool in this same process, and the median of six
    steps timed then read 2 examples/s where the engine trains at 160-200 (the page said a
    SetFit run of 96 labels would take 2.2 h). A run that shares the CPU does take longer
    than said; its history then replaces this figure."""
    return max(rates[1:] or rates)


def rounded(seconds: float) -> tuple[str, str]:
    """(figure, unit) as precise as an estimate deserves, two figures at most: ("40", "s"),
    ("3", "min"), ("1.5", "h"); the UI words the unit in the user's language."""
    if seconds < 60:
        return f"{max(1, round(seconds, -1 if seconds >= 15 else 0)):.0f}", "s"
    if seconds < 3600:
        return f"{round(seconds / 60):.0f}", "min"
    return f"{seconds / 3600:.1f}", "h"

