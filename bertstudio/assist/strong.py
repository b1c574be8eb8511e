"""The stronger model that trains in the background every N labels.

Two methods, chosen by :func:`choose_method` with a one-line reason:

``setfit``     sentence classification with few labels per class and no pool to learn
               from besides (self-training off, or a pool too small for pseudo-labels):
               SetFit's contrastive fine-tuning of the sentence-transformer (setfit 1.2.0's
               Trainer, embedding phase only), then a logistic-regression head.
``finetune``   everything else - sentences with a pool of pseudo-labels (measured: on SST-2
               train sentences it beat SetFit at 50 labels, benchmarks/README.md), beyond
               :data:`SETFIT_MAX_PER_CLASS` labels per class, pairs, regression: the :class:`~bertstudio.tasks.embedding.EmbeddingClassifier`
               (siamese head for pairs) trained end to end by the engine
               (:func:`bertstudio.train.engine.fit`), its head first set to the fast
               head's weights (linear probe, then fine-tune: Kumar et al., 2022), with
               small-data settings: at least :data:`MIN_STEPS` optimizer steps. For sentence
               classification it also learns from pseudo-labels: the pool rows the shown model
               is surest of (self-training; chosen by the caller, never labelled or audit rows),
               each labelled row then counting :data:`LABEL_REPEAT` times.

Both return a :class:`~bertstudio.tasks.embedding.EmbeddingClassifier`: an encoder plus a
linear head, saved as safetensors + JSON (SetFit's own save would pickle its scikit-learn
head with joblib; here the head's ``coef_``/``intercept_`` become the linear layer).
Tagging fine-tunes the stock token-classification model with the engine. QA has no
strong model in the loop.

Cancellation: ``cancel`` (a ``threading.Event``) is checked after every optimizer step
(the engine's rule; a transformers callback does it for SetFit); progress is reported
as ``progress(step, total_steps)``.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch

from bertstudio.assist.encoder import Cancelled, SentenceEncoder, check_cancel
from bertstudio.assist.heads import LinearHead, fit_logistic
from bertstudio.assist.kinds import spec_for
from bertstudio.train import small_data
from bertstudio.train.setfit_phase import contrastive_body, setfit_available, setfit_steps
from bertstudio.train.small_data import epochs_for
from bertstudio.train.training_lock import ASSISTANT, training_turn

log = logging.getLogger(__name__)

# With this many pseudo-labelled pool rows per label, fine-tuning on labels + pseudo-labels is
# chosen over SetFit (measured on SST-2 train sentences: benchmarks/README.md, "strong model").
PSEUDO_BEATS_SETFIT = 2
# small-data settings have one home, train/small_data.py (SetFit up to SETFIT_MAX_PER_CLASS labels per class)
SETFIT_MAX_PER_CLASS = small_data.SETFIT_MAX_PER_CLASS
MIN_STEPS, FINETUNE_LR, BATCH_SIZE = small_data.MIN_STEPS, small_data.SMALL_LR, small_data.SMALL_BATCH
# Beside pseudo-labels, each labelled row is trained on this many times per epoch: the person's
# labels outweigh the model's guesses (1,600 pseudo-labels against 90 labels drowned them). Measured
# in the labelling loop on SST-2 at 90 / 180 training labels, seeds 0-2: +0.5 / +0.9 / +0.8 and
# +0.1 / +0.3 / +0.7 points of dev accuracy over once; 8 was no better than 4 (benchmarks/README.md).
LABEL_REPEAT = 4
MAX_LENGTH = 128  # fine-tuning's max length when the texts fit in it (longer texts: small_data.fitted_max_length)

StepProgress = Callable[[int, int], None]


@dataclass
class StrongRequest:
    """What a strong model trains on: only training rows (never audit rows)."""

    kind: str
    labels: list[str]
    rows: list[int]  # pool rows, for the record (tests assert on these)
    texts: list[str] = field(default_factory=list)
    pairs: list[str] | None = None
    values: list[Any] = field(default_factory=list)  # label names, floats, or tag lists
    tokens: list[list[str]] | None = None
    model_path: str = ""
    seed: int = 0
    method: str = "auto"
    init_head: LinearHead | None = None  # the fast head, for the linear-probe start
    # fine-tuning also learns from pool rows the shown model is surest of (never labelled or audit rows)
    pseudo_rows: list[int] = field(default_factory=list)
    pseudo_texts: list[str] = field(default_factory=list)
    pseudo_values: list[Any] = field(default_factory=list)


@dataclass
class StrongModel:
    """A trained strong model and how it was made."""

    method: str
    reason: str
    model: Any  # EmbeddingClassifier, or a token-classification model for tagging
    tokenizer: Any
    rows: list[int]
    labels: list[str]
    kind: str
    steps: int = 0
    status: str = "finished"
    saved_meta: dict = field(default_factory=dict)  # what assist.json held, for a restored model


def choose_method(kind: str, counts: dict[str, int], requested: str = "auto", *, pseudo: int = 0) -> tuple[str, str]:
    """``(method, reason)`` for ``kind`` with ``counts`` training labels per class and ``pseudo``
    pseudo-labelled pool rows on offer (see :data:`PSEUDO_BEATS_SETFIT`)."""
    spec = spec_for(kind)
    if spec.strong is None:
        return "none", spec.strong_reason
    if spec.strong != "auto":  # fixed by the kind: tagging's token classifier, the pairs' siamese one
        return "finetune", spec.strong_reason
    if requested in ("setfit", "finetune"):
        return requested, f"{requested}: chosen in the settings"
    per_class = min(counts.values()) if counts else 0
    most = max(counts.values()) if counts else 0
    total = sum(counts.values())
    if pseudo >= PSEUDO_BEATS_SETFIT * total:
        return "finetune", (f"{total} labels and {pseudo} pool rows the model is surest of: fine-tuning on both "
                            f"(with a pool to self-train on it beats SetFit, which learns from the labels alone)")
    if most <= SETFIT_MAX_PER_CLASS and not setfit_available():
        return "finetune", "SetFit is not installed (pip install bertstudio[assist]): fine-tuning instead"
    if most <= SETFIT_MAX_PER_CLASS:
        return "setfit", (f"{sum(counts.values())} labels (at most {most} per class): SetFit, which learns most "
                          f"from few labels per class")
    return "finetune", (f"{sum(counts.values())} labels (at least {per_class} per class, more than "
                        f"{SETFIT_MAX_PER_CLASS} in some): full fine-tuning, which overtakes SetFit there")


# --- SetFit ---------------------------------------------------------------------------------

def train_setfit(request: StrongRequest, *, progress: StepProgress | None = None,
                 cancel: threading.Event | None = None) -> StrongModel:
    """SetFit's embedding phase on the request's texts, then a logistic-regression head."""
    from bertstudio.tasks.embedding import EmbeddingClassifier, pooling_settings

    ids = _label_ids(request)
    body = contrastive_body(request.model_path, request.texts, ids, seed=request.seed, progress=progress,
                            cancel=cancel)
    check_cancel(cancel)
    settings = pooling_settings(request.model_path)
    model = EmbeddingClassifier(body[0].auto_model, len(request.labels), pooling=settings["pooling"],
                                normalize=settings["normalize"], labels=request.labels)
    encoder = SentenceEncoder.from_classifier(model, body.tokenizer, fingerprint="")
    X = encoder.encode(request.texts, cancel=cancel)
    head = fit_logistic(X, np.asarray(ids), len(request.labels))
    if head is None:
        raise Cancelled()  # one class only: nothing a head can separate (the caller waits for more labels)
    _set_head(model, head)
    return StrongModel("setfit", "", model.eval(), body.tokenizer, list(request.rows), list(request.labels),
                       request.kind, setfit_steps(len(ids)))


# --- fine-tuning with the engine --------------------------------------------------------------

def finetune_config(n_examples: int, seed: int, kind: str, *, train_set: Any = None, model: str | None = None,
                    head: str = "embedding") -> Any:
    """Small-data settings (train/small_data.py): batch 16, lr 3e-5, warm-up 10%, enough epochs
    for MIN_STEPS steps, a max length that reads ``train_set``'s texts as the Train page's
    Automatic fits it (128 when they are shorter), and for the siamese head half of the
    fine-tuning's change kept (SMALL_KEEP, as Automatic chooses for pairs and scores)."""
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.small_data import SMALL_KEEP, fitted_max_length, model_max_length, side_lengths, text_lengths

    epochs = epochs_for(n_examples, BATCH_SIZE, MIN_STEPS)
    max_length = MAX_LENGTH
    if train_set is not None and len(train_set):
        fitted = fitted_max_length(side_lengths(text_lengths(train_set), head), max_length, model_max_length(model))
        max_length = fitted[0] if fitted else max_length
    return TrainConfig(task=kind, epochs=epochs, lr=FINETUNE_LR, batch_size=BATCH_SIZE, warmup_ratio=0.1,
                       seed=seed, max_length=max_length, logging_steps=5, save_best=False, output_dir=None,
                       keep_tuning=SMALL_KEEP if head == "siamese" else 1.0)


def _engine_callback(progress: StepProgress | None) -> Callable:
    def on_event(event: Any, control: Any = None) -> None:
        if progress is not None and getattr(event, "kind", "") == "step":
            progress(int(event.step), int(event.total_steps))
    return on_event


def train_finetune(request: StrongRequest, *, progress: StepProgress | None = None,
                   cancel: threading.Event | None = None, passes: Any = None) -> StrongModel:
    """End-to-end fine-tuning by the engine (see the module docstring). ``passes``: a
    :class:`~bertstudio.train.cartography.TrainingPasses` to keep each row's training-pass
    probabilities in, numbered as the rows trained on: ``request``'s rows in order (repeated
    :data:`LABEL_REPEAT` times when pseudo-labels join them), then the pseudo-labelled ones;
    classification only."""
    from bertstudio.data.examples import from_records
    from bertstudio.tasks.embedding import build_embedding_classifier, save_embedding_classifier
    from bertstudio.train.engine import RunParts, fit

    kind = request.kind
    spec = spec_for(kind)
    if spec.per_word:
        return _finetune_tagging(request, progress=progress, cancel=cancel)
    head = "siamese" if request.pairs is not None and spec.features == "pair" else "embedding"
    model, tokenizer, task = build_embedding_classifier(kind, request.model_path, labels=request.labels or ["score"],
                                                        head=head)
    if request.init_head is not None and request.init_head.W.shape == model.classifier.weight.shape:
        _set_head(model, request.init_head)
    records = [{"text": t, "text_pair": (request.pairs[i] if request.pairs is not None else ""), "label": v}
               for i, (t, v) in enumerate(zip(request.texts, request.values))]
    if request.pseudo_texts:
        records *= LABEL_REPEAT
    records += [{"text": t, "text_pair": "", "label": v} for t, v in zip(request.pseudo_texts, request.pseudo_values)]
    train_set = from_records(kind, records, labels=None if spec.head == "ridge" else request.labels)
    config = finetune_config(len(records), request.seed, kind, train_set=train_set, model=request.model_path, head=head)
    parts = RunParts(model, tokenizer, task, request.labels, save_embedding_classifier)
    result = _run_engine(fit, config, parts, train_set, progress, cancel, passes=passes)
    return StrongModel("finetune", "", result.model.eval(), tokenizer, list(request.rows), list(request.labels),
                       kind, result.step, result.status)


def _finetune_tagging(request: StrongRequest, *, progress: StepProgress | None,
                      cancel: threading.Event | None) -> StrongModel:
    from bertstudio.data.examples import from_records
    from bertstudio.train.engine import build_parts, fit

    records = [{"tokens": list(t), "tags": list(v)} for t, v in zip(request.tokens or [], request.values)]
    train_set = from_records("tagging", records, labels=request.labels)
    config = finetune_config(len(records), request.seed, "tagging", train_set=train_set, model=request.model_path)
    config.model = request.model_path
    config.lr = 5e-5  # a fresh per-token head on a small set (the BERT paper's NER range)
    parts = build_parts(config, request.labels)
    result = _run_engine(fit, config, parts, train_set, progress, cancel)
    return StrongModel("finetune", "", result.model.eval(), parts.tokenizer, list(request.rows),
                       list(request.labels), "tagging", result.step, result.status)


def _run_engine(fit: Callable, config: Any, parts: Any, train_set: Any, progress: StepProgress | None,
                cancel: threading.Event | None, passes: Any = None) -> Any:
    result = fit(config, parts, train_set, None, callbacks=[_engine_callback(progress)], cancel=cancel, passes=passes)
    if result.status == "failed":
        raise RuntimeError(result.message)
    if result.status == "cancelled":
        raise Cancelled()
    return result


# --- helpers ---------------------------------------------------------------------------------

def _label_ids(request: StrongRequest) -> list[int]:
    index = {name: i for i, name in enumerate(request.labels)}
    return [index[v] for v in request.values]


def _set_head(model: Any, head: LinearHead) -> None:
    with torch.no_grad():
        model.classifier.weight.copy_(torch.from_numpy(np.asarray(head.W, dtype=np.float32)))
        model.classifier.bias.copy_(torch.from_numpy(np.asarray(head.b, dtype=np.float32)))


def train_strong(request: StrongRequest, *, counts: dict[str, int], progress: StepProgress | None = None,
                 cancel: threading.Event | None = None, passes: Any = None,
                 waiting: Callable[[str], None] | None = None, gives_way: bool = False) -> StrongModel:
    """Choose the method for ``request`` and train it (see :func:`choose_method`); ``passes``
    records fine-tuning's training passes (:func:`train_finetune`; SetFit records none).
    It waits for its turn while another training of this process runs (train/training_lock.py:
    both seed and draw from torch's global generators); ``waiting(job)`` says which.
    ``gives_way`` (the assistant's background model): a training that waits for this one sets
    ``cancel``, and this one ends as Cancelled after its step (the label-error check, which the
    person started, never gives way)."""
    method, reason = choose_method(request.kind, counts, request.method, pseudo=len(request.pseudo_rows))
    if method == "none":
        raise ValueError(reason)
    # fork_rng: the global generators are left as they were found (another job's seeding is its own)
    with training_turn(ASSISTANT, cancel=cancel, waiting=waiting, gives_way=cancel if gives_way else None) as turn, \
            torch.random.fork_rng():
        if not turn:
            raise Cancelled()
        torch.manual_seed(request.seed)
        if method == "setfit":
            model = train_setfit(request, progress=progress, cancel=cancel)
        else:
            model = train_finetune(request, progress=progress, cancel=cancel, passes=passes)
    model.reason = reason
    return model


# --- saving and restoring the latest strong model ----------------------------------------------

def save_strong(model: StrongModel, folder: str | Path, extra: dict | None = None) -> Path:
    """Write ``model`` to ``folder``, replaced whole (data/atomic.replace_folder: a new folder is
    filled beside it and renamed over it, so a crash keeps the model that was there).
    An EmbeddingClassifier folder (safetensors + JSON), or for tagging a plain transformers
    folder, plus ``assist.json`` with how it was made."""
    import json

    from bertstudio.data.atomic import replace_folder
    from bertstudio.tasks.embedding import save_embedding_classifier
    from bertstudio.tasks.model import write_model

    meta = {"method": model.method, "reason": model.reason, "rows": list(model.rows), "labels": list(model.labels),
            "kind": model.kind, "steps": model.steps, **(extra or {})}

    def fill(tmp: Path) -> None:
        if spec_for(model.kind).per_word:
            write_model(model.model, model.tokenizer, tmp)
        else:
            save_embedding_classifier(model.model, model.tokenizer, tmp, kind=model.kind)
        (tmp / "assist.json").write_text(json.dumps(meta), encoding="utf-8")

    return replace_folder(folder, fill, parents=True)


def load_strong(folder: str | Path) -> StrongModel:
    """Inverse of :func:`save_strong` (no pickle anywhere); raises ConfigError when damaged."""
    import json

    from bertstudio.errors import ConfigError
    from bertstudio.tasks.embedding import load_embedding_classifier
    from bertstudio.tasks.model import load_model

    folder = Path(folder)
    try:
        from bertstudio.data.regular_file import read_regular_text
        from bertstudio.errors import DataError

        meta = json.loads(read_regular_text(folder / "assist.json", max_bytes=256 << 20))
        rows = [int(r) for r in meta["rows"]]
        labels = [str(x) for x in meta["labels"]]
        kind = str(meta["kind"])
        steps = int(meta.get("steps", 0))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError, DataError) as exc:
        raise ConfigError(f"cannot read the saved assistant model: {type(exc).__name__}: {str(exc)[:200]}",
                          path=folder / "assist.json") from None
    try:
        per_word = spec_for(kind).per_word
    except ConfigError as exc:
        raise ConfigError(exc.message, path=folder / "assist.json", where="kind") from None
    if per_word:
        model, tokenizer, _, _ = load_model(folder)
    else:
        model, tokenizer, _ = load_embedding_classifier(folder)
    _own_memory(model)
    out = StrongModel(str(meta.get("method", "finetune")), str(meta.get("reason", "")), model.eval(), tokenizer,
                      rows, labels, kind, steps)
    out.saved_meta = meta
    return out


def _own_memory(model: Any) -> None:
    """Copy every CPU weight and buffer out of the file transformers mapped them from
    (model.safetensors stays mapped while any tensor uses it): the next save replaces this very
    folder, and Windows refuses to rename a folder holding a mapped file, so the assistant's next
    model was never saved there. A copy of a small model, once per session."""
    with torch.no_grad():
        for tensor in [*model.parameters(), *model.buffers()]:
            if tensor.device.type == "cpu":
                tensor.data = tensor.data.clone()
