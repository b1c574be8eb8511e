"""What the Train page checks before a run can start: enough labelled rows to train on
(:func:`missing_for_training`) and whether the chosen model can read the project's text
(:class:`VocabularyWarning`, the [UNK] share of :mod:`bertstudio.tasks.vocabulary` on a
sample, measured on a :class:`~bertstudio.ui.worker.ThreadJob`)."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QLabel, QWidget

from bertstudio.data.kinds import get_spec
from bertstudio.errors import BertStudioError
from bertstudio.ui import theme
from bertstudio.ui.worker import ThreadJob

log = logging.getLogger(__name__)
MIN_PER_CLASS = 2  # a class with fewer labelled rows cannot be both learned from and evaluated


def _t(text: str) -> str:
    return QCoreApplication.translate("", text)  # where lupdate files _t("...") calls (no context)


def labelled_rows(examples: Any) -> np.ndarray:
    """Project row numbers of the labelled rows (ExampleSet.labelled() drops the numbering)."""
    if examples is None or len(examples) == 0:
        return np.zeros(0, dtype=np.int64)
    return examples.labelled_rows()


def missing_for_training(session: Any) -> str | None:
    """Why no run can start yet (translated), or None: a project, and labelled training rows,
    at least MIN_PER_CLASS of each label for a kind with classes (else at least that many rows),
    and as many labels as the kind learns from (KindSpec.min_labels, which the core checks again:
    a project of one label trained a one-class "classifier" to 100% accuracy)."""
    if not session.has_project():
        return _t("Open or create a project to train.")
    if not session.split_size("train"):
        return _t("Import or label training examples first.")
    # the project's own counts (kept as rows are labelled), not a pass over the gold column: on a
    # 200,000-row project that pass froze the window 0.3-0.5 s at every open, the Train page hidden
    spec = get_spec(session.kind)
    n = session.progress("train")[0]
    if not spec.gold.classes:
        if n < MIN_PER_CLASS:
            return _t("Label at least {k} training examples first ({n} labelled so far).").format(k=MIN_PER_CLASS, n=n)
        return _missing_for_hold_out(session, n)
    labels = session.labels()
    if len(labels) < spec.min_labels:
        return _t("Add a second label: a classifier needs at least {k} classes (this project has {n}).").format(
            k=spec.min_labels, n=len(labels))
    counts = session.project.label_counts("train")
    short = [(name, counts.get(name, 0)) for name in labels if counts.get(name, 0) < MIN_PER_CLASS]
    if not short:
        return _missing_for_hold_out(session, n)
    return _t("Label at least {k} training examples of each label first; too few so far: {which}.").format(
        k=MIN_PER_CLASS, which=", ".join(f"{name} ({n})" for name, n in short))


def _missing_for_hold_out(session: Any, labelled: int) -> str | None:
    """Without labelled dev rows a run evaluates on training rows it holds out (the core's rule,
    train/sources.held_out_count): too few for that was found only at Start, in the core's
    untranslated words."""
    from bertstudio.train.config import HOLD_OUT_MIN_ROWS

    if labelled >= HOLD_OUT_MIN_ROWS or (session.split_size("dev") and session.progress("dev")[0]):
        return None
    return _t("Label at least {k} training examples, or some dev examples, first: with no dev split a run "
              "evaluates on training examples it holds out ({n} labelled so far).").format(k=HOLD_OUT_MIN_ROWS, n=labelled)


class VocabularyWarning(QLabel):
    """Hidden unless the model maps much of the project's text to [UNK]; then the Import
    dialog's warning text, with the models that would read it. Rechecked (coalesced, on a
    worker) when the model or the training rows change."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="vocabularyWarning", wordWrap=True, visible=False)
        theme.set_tone(self, "warning")
        self.check: Any = None  # the last VocabularyCheck
        self._job: ThreadJob | None = None
        self._wanted: tuple[str | None, Any, Any] | None = None
        self._checked_key: Any = None
        self._running_key: Any = None
        self._timer = QTimer(self, singleShot=True, interval=400)
        self._timer.timeout.connect(self._run)

    def request(self, model: str | None, examples: Any, key: Any) -> None:
        """Check ``model`` on ``examples`` (``key`` says when the same check need not rerun)."""
        if key == self._checked_key:
            return
        self._wanted = (model, examples, key)
        self._timer.start()

    def is_checking(self) -> bool:
        return self._job is not None or self._timer.isActive()

    def _run(self) -> None:
        if self._job is not None or self._wanted is None:
            return  # the newest request runs when this one ends
        model, examples, key = self._wanted
        self._wanted = None

        def measure() -> Any:
            from bertstudio.tasks.vocabulary import check_model_vocabulary, sample_texts

            texts = sample_texts(examples) if examples is not None else []
            return check_model_vocabulary(model, texts) if texts else None

        self._running_key = key
        self._job = ThreadJob(measure, name="bertstudio-vocabulary")
        self._job.succeeded.connect(self._on_checked)  # bound: dropped if this label goes first
        self._job.failed.connect(self._on_failed)
        self._job.start()

    def _on_checked(self, check: Any) -> None:
        from bertstudio.ui.import_survey import vocabulary_warning

        self._job, self.check, self._checked_key = None, check, self._running_key
        warn = check is not None and check.warn
        self.setText(vocabulary_warning(check) if warn else "")
        self.setVisible(warn)
        self._run()

    def _on_failed(self, exc: BaseException) -> None:
        self._job = None  # no tokenizer here (a Hub id not downloaded): no check, no alarm
        log.info("no vocabulary check: %s", exc.message if isinstance(exc, BertStudioError) else exc)
        self.hide()
        self._run()
