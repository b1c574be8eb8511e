"""SetFit's first phase: contrastive fine-tuning of a sentence-transformer on labelled sentences.

SetFit (Tunstall et al., 2022) learns from few labels per class in two phases: the
sentence-transformer is fine-tuned on pairs of labelled sentences (same label: pull
together; different: push apart), then a logistic regression reads its embeddings.
:func:`contrastive_body` runs the first phase with setfit 1.2.0's own Trainer
(``train_embeddings``); a run with ``method = "setfit"`` calls :func:`setfit_encoder`
before the loop, then starts its embedding head from the logistic regression
(train/probe.py) and trains it as ``mode`` says. The labelling assistant's strong
model uses the same phase (assist/strong.py).

The contrastive phase is then half undone in weight space: the body keeps
:data:`SETFIT_KEEP` of its change, ``(1 - k) * pre-trained + k * tuned`` (WiSE-FT,
Wortsman et al., 2022, whose default mix is this half). Tuned all the way, the body
forgets what the pre-trained encoder knew about everything its few pairs do not show: on
sentence genre (UD EWT, 16 labels per class) full SetFit scored up to 3.8 points *below*
the frozen encoder's logistic regression. Measured on 5 sets of 16 labels per class (one
seed each, a logistic regression on the body): the half-way body is on average 0.8 points
above full SetFit and never more than 0.4 below it; a quarter-way body gained more on
genre and news but lost up to 1.4 points of SetFit's gain on sentiment (benchmarks/README.md).

The body is built with ``SentenceTransformer(path, trust_remote_code=False)``, not
``SetFitModel.from_pretrained``, which would unpickle a ``model_head.pkl`` found in the
folder. Cancellation is checked after every step; progress is ``progress(step, steps)``.
"""

from __future__ import annotations

import math
import tempfile
import threading
from pathlib import Path
from typing import Any, Callable, Sequence

from bertstudio.errors import BertStudioError, ConfigError
from bertstudio.hf import hf

SETFIT_ITERATIONS = 20  # pairs per labelled text and sign (SetFit's num_iterations)
SETFIT_MAX_STEPS = 300  # caps SetFit's pairs at 300 x 16 on a 2-core machine
SETFIT_BATCH = 16
# The contrastive phase's learning rate unless a run gives one: setfit 1.2.0's own default
# (TrainingArguments.body_learning_rate = (2e-5, 1e-5), the first for this phase), the rate every
# SetFit run trained at before the run's lr reached it, so the benchmarks' figures still hold
SETFIT_LR = 2e-5
SETFIT_KEEP = 0.5  # the share of the contrastive phase's weight change the body keeps (WiSE-FT)

StepProgress = Callable[[int, int], None]


def setfit_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("setfit") is not None


def setfit_steps(n_labelled: int) -> int:
    """Contrastive steps for ``n_labelled`` sentences: SetFit's pair count, capped."""
    return max(1, min(SETFIT_MAX_STEPS, math.ceil(SETFIT_ITERATIONS * 2 * n_labelled / SETFIT_BATCH)))


def _callback(progress: StepProgress | None, cancel: threading.Event | None) -> Any:
    TrainerCallback = hf("TrainerCallback")

    class _Steps(TrainerCallback):
        def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            if progress is not None:
                progress(int(state.global_step), int(state.max_steps or 0))
            if cancel is not None and cancel.is_set():
                control.should_training_stop = True

    return _Steps()


def contrastive_body(model_path: str, texts: Sequence[str], label_ids: Sequence[int], *, seed: int,
                     max_length: int | None = None, lr: float | None = None, progress: StepProgress | None = None,
                     cancel: threading.Event | None = None) -> Any:
    """The sentence-transformer at ``model_path`` after SetFit's contrastive phase on
    ``texts`` / ``label_ids`` (a ``SentenceTransformer``; its ``[0].auto_model`` is the encoder),
    trained at peak learning rate ``lr`` (None: :data:`SETFIT_LR`)."""
    if len(set(label_ids)) < 2:
        # setfit's sampler pairs each sentence with one of another class, and on one class failed
        # with "IndexError: list index out of range" (a learning curve's 1-row share, a one-class file)
        raise ConfigError(f"SetFit needs labelled sentences of at least 2 classes (it pairs sentences of different "
                          f"classes); the {len(label_ids)} training rows hold {len(set(label_ids))}", where="method setfit",
                          expected="training rows of two or more labels, or --method finetune")
    import torch  # here: the Train page imports this module (setfit_available) on the GUI thread
    from datasets import Dataset
    from sentence_transformers import SentenceTransformer
    from setfit import SetFitModel, Trainer, TrainingArguments
    from setfit import logging as setfit_logging
    from sklearn.linear_model import LogisticRegression
    from transformers.trainer_callback import PrinterCallback, ProgressCallback

    body = _load_body(SentenceTransformer, str(model_path))
    start = {name: t.detach().clone() for name, t in body.state_dict().items() if t.is_floating_point()}
    if max_length is not None:
        body.max_seq_length = min(int(max_length), int(body.max_seq_length or max_length))
    setfit_model = SetFitModel(model_body=body, model_head=LogisticRegression())
    steps = setfit_steps(len(label_ids))
    verbosity = setfit_logging.get_verbosity()
    setfit_logging.set_verbosity_error()
    try:
        with tempfile.TemporaryDirectory(prefix="bertstudio-setfit-") as tmp:
            args = TrainingArguments(output_dir=tmp, batch_size=SETFIT_BATCH, num_epochs=1,
                                     num_iterations=SETFIT_ITERATIONS, max_steps=steps, seed=seed,
                                     report_to="none", save_strategy="no", logging_strategy="no",
                                     logging_first_step=False, show_progress_bar=False,
                                     body_learning_rate=float(SETFIT_LR if lr is None else lr))
            trainer = Trainer(model=setfit_model, args=args,
                              train_dataset=Dataset.from_dict({"text": list(texts), "label": list(label_ids)}),
                              callbacks=[_callback(progress, cancel)])
            for quiet in (PrinterCallback, ProgressCallback):  # no console output from a GUI's thread
                trainer.st_trainer.remove_callback(quiet)
            trainer.st_trainer.args.dataloader_pin_memory = torch.cuda.is_available()
            trainer.train_embeddings(list(texts), list(label_ids), args=args)
    finally:
        setfit_logging.set_verbosity(verbosity)
    with torch.no_grad():  # (1 - k) * pre-trained + k * tuned, in place (the body may be on a GPU by now)
        for name, tensor in body.state_dict().items():
            if name in start:
                tensor.lerp_(start[name].to(tensor.device, tensor.dtype), 1.0 - SETFIT_KEEP)
    return body


def setfit_encoder(parts: Any, train_set: Any, config: Any, *, notify: Callable[[Any], None] | None = None,
                   cancel: threading.Event | None = None) -> None:
    """Run SetFit's contrastive phase on the run's labelled training sentences and put the
    result into ``parts.model``'s encoder (an EmbeddingClassifier built from the same
    model), at the run's ``lr``: with the encoder frozen in the loop after it, this phase is
    the only one the encoder's rate moves (it ran at setfit's default whatever the run said).
    Progress as ``PhaseChanged("setfit", step, steps)``."""
    from bertstudio.bundled import resolve_model
    from bertstudio.train.events import PhaseChanged

    rows = train_set.labelled().dataset
    index = {name: i for i, name in enumerate(parts.labels)}
    texts, ids = list(rows["text"]), [index[v] for v in rows["label"]]

    def progress(step: int, total: int) -> None:
        if notify is not None:
            notify(PhaseChanged("setfit", step, total))

    progress(0, setfit_steps(len(ids)))
    body = contrastive_body(resolve_model(config.model), texts, ids, seed=config.seed, max_length=config.max_length,
                            lr=config.lr, progress=progress, cancel=cancel)
    parts.model.encoder.load_state_dict(body[0].auto_model.state_dict())


def _load_body(SentenceTransformer: Any, path: str) -> Any:
    """``SentenceTransformer(path)``, every failure one ConfigError (tasks/model.guarded_load)."""
    from bertstudio.tasks.model import guarded_load

    _refuse_own_modules(Path(path))
    return guarded_load(lambda: SentenceTransformer(path, device="cpu", trust_remote_code=False), path,
                        "the sentence-transformer")


def _refuse_own_modules(folder: Path) -> None:
    """A modules.json naming a module class outside sentence-transformers (``evilmod.Evil``) is the
    folder's own code: refused here, in words, before sentence-transformers' own refusal came out
    as "cannot load ... (expected complete weights (model.safetensors))"."""
    import json

    from bertstudio.data.regular_file import read_regular_text

    path = folder / "modules.json"
    if not path.is_file():
        return
    try:
        modules = json.loads(read_regular_text(path, max_bytes=1_000_000) or "[]")
    except (BertStudioError, ValueError, RecursionError):
        return  # the loader says what is wrong with the file
    for i, module in enumerate(modules if isinstance(modules, list) else []):
        kind = module.get("type") if isinstance(module, dict) else None
        if isinstance(kind, str) and not kind.startswith("sentence_transformers."):
            raise ConfigError(f"names a module of its own ({kind[:80]}): loading it would run the folder's code, "
                              "which bertstudio never does", path=path, where=f"module {i}",
                              expected="sentence_transformers.models modules only")
