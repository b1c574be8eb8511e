"""The Import dialog's look at the whole file, and the optional sample to import.

After the preview, a worker thread reads the whole file with ``load_examples`` (the
readers the import itself uses, with the same options) and the dialog shows how many
rows it holds, how many are labelled and how the labels (tags, answers, scores) are
spread. The rows read are kept, so Import does not read the file again. Then, on the
same thread, the file's text is checked against the model the project trains with
(:mod:`bertstudio.tasks.vocabulary`): when its tokenizer turns more than a few percent
of a sample's pieces into [UNK], the box says so with the figure and names models that
read that script. "Import only N first / random rows (seed)" keeps a big file's sample
small (``ExampleSet.head``).

Nothing here blocks the GUI thread: a file of a million rows is counted while the
dialog stays responsive (on a :class:`~bertstudio.ui.worker.ThreadJob`, which keeps a
closed dialog's survey alive until it ends), and a result for options that have changed
since is dropped.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from typing import Any

import pyarrow.compute as pc
from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from bertstudio.errors import BertStudioError
from bertstudio.metrics.display import format_percent, format_share
from bertstudio.ui.session import count_name
from bertstudio.ui.worker import ThreadJob

log = logging.getLogger(__name__)
SHOWN_LABELS = 12  # the most used labels named; the rest counted as "and N more"


@dataclass(frozen=True)
class FileSummary:
    """What a whole file holds (plain values: made on the worker, read on the GUI thread)."""

    rows: int
    labelled: int
    counts: tuple[tuple[str, int], ...]  # label (tag, answer kind) -> uses, most used first
    uses: int  # all uses counted (tokens for tags)
    scores: tuple[float, float, float] | None  # min, mean, max of a score column
    converted_from: str | None = None  # a tag scheme the reader converted to BIO ("iob1")


def summarize(examples: Any) -> FileSummary:
    """Counts over the Arrow gold column (vectorised: a million rows take milliseconds)."""
    spec = examples.spec
    column = examples.dataset.with_format("arrow")[spec.gold_column]
    labelled = len(column) - column.null_count
    scores = None
    if spec.gold.numeric and labelled:
        lo, hi = pc.min_max(column).values()
        scores = (float(lo.as_py()), float(pc.mean(column).as_py()), float(hi.as_py()))
    counts = spec.gold.column_counts(column)
    ordered = tuple(sorted(((str(k), int(v)) for k, v in counts.items()), key=lambda kv: (-kv[1], kv[0])))
    return FileSummary(len(column), labelled, ordered, sum(counts.values()), scores,
                       getattr(examples, "meta", {}).get("converted_from"))


def vocabulary_warning(check: Any) -> str:
    """The warning for a :class:`~bertstudio.tasks.vocabulary.VocabularyCheck` that warns, translated
    (the Train page says the same before a run)."""
    from bertstudio.bundled import model_title

    return QCoreApplication.translate("FileSurveyBox",
        "{share}% of the word pieces of {n} sampled examples are [UNK] for the model {model}: those words are "
        "lost to it, and training on such text learns less. Use a model made for this language, e.g. "
        "{models}, on the Train page (a Hub id, or a local model folder to work offline)."
    ).format(share=format_percent(check.share), n=f"{check.texts:,}", model=model_title(check.model),
             models=", ".join(check.suggestions))


def _key(path: str, options: dict[str, Any]) -> str:
    return json.dumps([path, options], sort_keys=True, default=str)


class SurveyWorker(QObject):
    """Reads the file, counts it, then measures the model's [UNK] share on a sample. Lives on
    the GUI thread; :meth:`run` runs on the job's thread, so its signals reach GUI-thread
    receivers queued, in the order emitted."""

    counted = Signal(str, object, object)  # key, ExampleSet, FileSummary
    checked = Signal(str, object)  # key, VocabularyCheck
    failed = Signal(str, str)  # key, message

    def __init__(self, key: str, path: str, options: dict[str, Any], model: str | None,
                 cancel: threading.Event) -> None:
        super().__init__()
        self.key, self.path, self.options, self.model, self.cancel = key, path, options, model, cancel

    def run(self) -> None:
        from bertstudio.data.io import load_examples

        try:
            examples = load_examples(self.path, **self.options)
            summary = summarize(examples)
        except BertStudioError as exc:
            self.failed.emit(self.key, exc.message)
            return
        except Exception as exc:  # noqa: BLE001 - a reader bug must not kill the thread silently
            log.exception("reading %s failed", self.path)
            self.failed.emit(self.key, f"{self.path}: {type(exc).__name__}: {exc}")
            return
        self.counted.emit(self.key, examples, summary)
        if self.cancel.is_set():
            return
        from bertstudio.tasks.vocabulary import check_model_vocabulary, sample_texts

        try:
            texts = sample_texts(examples)
            if texts:
                self.checked.emit(self.key, check_model_vocabulary(self.model, texts))
        except BertStudioError as exc:  # no tokenizer here (a Hub id not downloaded): no check, no alarm
            log.info("no vocabulary check for %s: %s", self.path, exc.message)
        except Exception:  # noqa: BLE001 - the check is advice; the import goes on without it
            log.exception("vocabulary check of %s failed", self.path)


class FileSurveyBox(QWidget):
    """Counts, label spread, the [UNK] warning and the sample choice, under the preview."""

    surveyed = Signal(object)  # the ExampleSet read for the current options
    survey_failed = Signal(str)

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._key: str | None = None
        self._result: Any = None
        self._summary: FileSummary | None = None
        self._cancel: threading.Event | None = None
        self._job: ThreadJob | None = None
        self.counts_label = QLabel(objectName="importCounts", wordWrap=True)
        self.vocabulary_label = QLabel(objectName="importVocabulary", wordWrap=True)
        self.vocabulary_label.setStyleSheet("background: #fff3cd; color: #5c4400; padding: 4px;")
        self.vocabulary_label.hide()
        self.sample_check = QCheckBox(self.tr("Import only"), objectName="sampleCheck")
        self.sample_size = QSpinBox(objectName="sampleSize", minimum=1, maximum=1_000_000_000, value=1000)
        self.sample_size.setGroupSeparatorShown(True)
        self.sample_mode = QComboBox(objectName="sampleMode")
        self.sample_mode.addItem(self.tr("first rows"), "first")
        self.sample_mode.addItem(self.tr("random rows, seed"), "random")
        self.sample_seed = QSpinBox(objectName="sampleSeed", minimum=0, maximum=2_147_483_647, value=0)
        self.sample_check.setToolTip(self.tr("Keep a big file's sample small: the first N rows, or N rows drawn at "
                                             "random with a seed (the same seed draws the same rows)"))
        for w in (self.sample_check, self.sample_size, self.sample_mode, self.sample_seed):
            (w.toggled if w is self.sample_check else w.currentIndexChanged if w is self.sample_mode
             else w.valueChanged).connect(lambda *_a: self._update_sample_widgets())
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for w in (self.sample_check, self.sample_size, self.sample_mode, self.sample_seed):
            row.addWidget(w)
        row.addStretch(1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.counts_label)
        lay.addWidget(self.vocabulary_label)
        lay.addLayout(row)
        self._update_sample_widgets()

    # -- the sample ------------------------------------------------------------------------
    def sample_rows(self) -> tuple[int, int | None] | None:
        """``(n, seed)`` to import (seed None: the first n rows), or None for every row."""
        if not self.sample_check.isChecked():
            return None
        return self.sample_size.value(), (self.sample_seed.value() if self.sample_mode.currentData() == "random" else None)

    def sample(self, examples: Any) -> Any:
        chosen = self.sample_rows()
        return examples if chosen is None else examples.head(chosen[0], seed=chosen[1])

    def _update_sample_widgets(self) -> None:
        on = self.sample_check.isChecked()
        self.sample_size.setEnabled(on)
        self.sample_mode.setEnabled(on)
        self.sample_seed.setEnabled(on and self.sample_mode.currentData() == "random")
        self._show_counts()

    # -- the worker --------------------------------------------------------------------------
    def start(self, path: str, options: dict[str, Any]) -> None:
        """Read and count ``path`` with ``options`` on a worker (nothing when that is already done or under way)."""
        key = _key(path, options)
        if key == self._key and (self._result is not None or self._job is not None):
            return
        self.stop()
        self._key, self._result, self._summary = key, None, None
        self.counts_label.setText(self.tr("Counting the rows of the whole file…"))
        self.vocabulary_label.hide()
        cancel = threading.Event()
        worker = SurveyWorker(key, path, dict(options), self._model_source(), cancel)
        worker.counted.connect(self._on_counted)
        worker.checked.connect(self._on_checked)
        worker.failed.connect(self._on_failed)
        job = ThreadJob(worker.run, name="bertstudio-import-survey")
        job.ended.connect(lambda j=job: self._job_done(j))
        self._job, self._worker, self._cancel = job, worker, cancel
        job.start()

    def _job_done(self, job: ThreadJob) -> None:
        if job is self._job:
            self._job = None

    def stop(self) -> None:
        """Forget the survey under way: its results are dropped and the [UNK] check is skipped."""
        if self._cancel is not None:
            self._cancel.set()
        self._key, self._result, self._summary, self._job = None, None, None, None
        self.counts_label.clear()
        self.vocabulary_label.hide()

    def result_for(self, path: str, options: dict[str, Any]) -> Any:
        """The ExampleSet already read for exactly these options, else None."""
        return self._result if self._key == _key(path, options) else None

    def running_for(self, path: str, options: dict[str, Any]) -> bool:
        return self._job is not None and self._key == _key(path, options) and self._result is None

    def is_running(self) -> bool:
        return self._job is not None

    def _model_source(self) -> str | None:
        """The model the project trains with (the Train page's last choice), None for the bundled one."""
        settings = getattr(self.session.project, "recent_settings", None)
        train = settings.get("train") if isinstance(settings, dict) else None
        # a hand-edited project.json's {"train": [1, 2]} raised here and left the dialog counting for ever
        model = train.get("model") if isinstance(train, dict) else None
        return model if isinstance(model, str) and model not in ("", "default") else None

    def _on_counted(self, key: str, examples: Any, summary: FileSummary) -> None:
        if key != self._key:
            return
        self._result, self._summary = examples, summary
        self._show_counts()
        self.surveyed.emit(examples)

    def _on_failed(self, key: str, message: str) -> None:
        if key != self._key:
            return
        self._key, self._job = None, None
        self.counts_label.clear()
        self.survey_failed.emit(message)

    def _on_checked(self, key: str, check: Any) -> None:
        if key != self._key:
            return
        if self._cancel is not None and self._cancel.is_set():
            return
        self.vocabulary_label.setVisible(bool(check.warn))
        if check.warn:
            self.vocabulary_label.setText(vocabulary_warning(check))

    # -- the counts ------------------------------------------------------------------------------
    def _show_counts(self) -> None:
        summary = self._summary
        if summary is None:
            return
        # two templates, not Qt's %n: English has no .qm for its plural, and it does not group the digits
        text = (self.tr("1 row, {labelled} labelled") if summary.rows == 1 else self.tr(
            "{rows} rows, {labelled} labelled")).format(rows=f"{summary.rows:,}", labelled=f"{summary.labelled:,}")
        chosen = self.sample_rows()
        if chosen is not None and chosen[0] < summary.rows:
            text += " · " + self.tr("importing {n} of them").format(n=f"{chosen[0]:,}")
        spread = self._spread(summary)
        if summary.converted_from == "iob1":  # the tags change on the way in: said before Import, not after
            spread += ("\n" if spread else "") + self.tr(
                "The tags are IOB1 (I- opens an entity): they are read as BIO, with B- on each entity's first word.")
        self.counts_label.setText(text + ("\n" + spread if spread else ""))

    def _spread(self, summary: FileSummary) -> str:
        if summary.scores is not None:
            lo, mean, hi = summary.scores
            return self.tr("Scores from {lo} to {hi}, mean {mean}").format(lo=f"{lo:.2f}", hi=f"{hi:.2f}",
                                                                            mean=f"{mean:.2f}")
        if not summary.counts or not summary.uses:
            return ""
        fixed = bool(self._result is not None and self._result.spec.gold.fixed_keys)
        items = [f"{count_name(k) if fixed else k}: {n:,} ({format_share(n / summary.uses, 1)})"
                 for k, n in summary.counts[:SHOWN_LABELS]]
        if len(summary.counts) > SHOWN_LABELS:
            items.append(self.tr("and {n} more").format(n=len(summary.counts) - SHOWN_LABELS))
        per_token = self._result is not None and self._result.spec.gold.per_token
        title = (self.tr("Tags ({n} tokens):").format(n=f"{summary.uses:,}") if per_token
                 else self.tr("Labels:"))
        return title + " " + " · ".join(items)
