"""The Results page: a run's metrics, per-class scores, confusion matrix or scatter, and predictions.

Pick one of the project's runs; see its official metrics (x100, one decimal, as papers
print them) with precision / recall / F1 / support per class beside them, the confusion
matrix for classification (titled axes; click a cell to list those examples) or the
gold-against-predicted scatter for regression (click a point to show its example), and
every evaluated example with gold, prediction, confidence and loss (sortable, "errors
only"). Selecting a row shows the example as its kind reads best (:mod:`.example_html`)
and relabels it in place through the session's undo stack.

A run belongs to its project: the picker lists the runs in the project's runs folder. A
run folder opened from elsewhere (the Runs page) is shown only when asked for, with a
line saying it is not this project's run; its rows are matched to the project's examples
only when it is of the project's kind and only where the gold values agree.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView, QCheckBox, QComboBox, QFrame, QHBoxLayout, QHeaderView, QLabel, QPushButton, QScrollArea,
    QSplitter, QTableView, QTextBrowser, QVBoxLayout, QWidget,
)

from bertstudio.data.formats.common import iob1_to_bio
from bertstudio.data.kinds import get_spec, is_bio_tag_set
from bertstudio.data.project_labels import names_now as label_names_now, pred_now, value_now
from bertstudio.errors import BertStudioError, DataError
from bertstudio.metrics.per_class import per_class_from_predictions
from bertstudio.train.events import Evaluated, StepLogged, is_number
from bertstudio.train.rundir import (BEST_PREDICTIONS, CHECKPOINTS, HISTORY, PREDICTIONS, find_checkpoint,
                                     followed_run, read_history, read_label_ids, read_predictions, read_run,
                                     read_state, run_identity)
from bertstudio.ui import example_html
from bertstudio.ui import theme
from bertstudio.ui.confusion_view import ConfusionPanel
from bertstudio.ui.metrics_panel import MetricsPanel, official_metric_order
from bertstudio.ui.predictions_model import PredictionRow, PredictionsModel
from bertstudio.ui.regression_scatter import RegressionScatter
from bertstudio.ui.results_filter import ResultsFilter
from bertstudio.ui.run_words import removed_marker
from bertstudio.ui.runs_page import all_runs, in_project, run_titles, visible_run_name
from bertstudio.ui.session import SPLITS, split_name
from bertstudio.ui.sentences import join_sentences

log = logging.getLogger(__name__)


def _class_value(value: Any) -> bool:
    """A value a classification prediction holds for gold or label: a name, a class id, or none."""
    return value is None or (isinstance(value, (str, int)) and not isinstance(value, bool))


JOIN_CHUNK = 2000  # project rows fetched per call when joining
BIG_PREDICTIONS = 1 << 18  # bytes of predictions.jsonl (about 1,500 rows; 2,000 held it 0.8 s) read off the GUI thread


BIG_HISTORY = 1 << 22  # bytes of history.jsonl: read_run reads it whole (42 MB, 200,000 steps, held it 1.0 s)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _predictions_size(folder: Path) -> int:
    return _size(folder / PREDICTIONS)


def _slow_to_read(folder: Path, project_kind: str | None) -> bool:
    """Whether :func:`load_run_view` would hold the GUI thread: by the size of each file it reads
    (the predictions, a best checkpoint's in their place, and the history, which only a large
    predictions file sent to the worker before), or for a first per-class report, whose
    scikit-learn import took 2.5-5 s on the GUI thread when a project opened."""
    if (_predictions_size(folder) > BIG_PREDICTIONS or _size(folder / HISTORY) > BIG_HISTORY
            or _size(folder / CHECKPOINTS / "best" / BEST_PREDICTIONS) > BIG_PREDICTIONS):
        return True
    gold = get_spec(project_kind).gold if project_kind is not None else None
    return gold is not None and (gold.classes or gold.per_token) and not _report_libraries_loaded()


def _report_libraries_loaded() -> bool:
    """scikit-learn, which per_class_from_predictions imports at its first report, is imported."""
    return "sklearn.metrics" in sys.modules


@dataclass
class LoadedRun:
    """What the page shows of one run, read without Qt (so on a worker for a large run)."""

    folder: Path
    info: Any  # rundir.RunInfo
    kind: str
    labels: list[str]
    preds: list[Any]  # rundir.SavedPrediction, the ones the page can show
    skipped: list[DataError]
    report: Any  # metrics.per_class report, or None
    rows: list[PredictionRow]  # the predictions joined with the project rows they were made for
    unsaved: "UnsavedRun | None" = None  # a run that has not saved its model and predictions (yet)
    labels_now: list[str] | None = None  # the run's labels under today's names (the rows' names)


@dataclass
class UnsavedRun:
    """A run without its own predictions yet, still training or stopped without finishing (its
    process killed: "interrupted"): how far it got, and the best checkpoint's evaluation when
    one is on disk, whose predictions and scores the page shows in the run's place, saying so."""

    status: str  # "running" | "interrupted" | "failed"
    step: int  # the last training step logged
    evaluations: int  # how many evaluations its history holds
    best_step: int | None = None  # the best checkpoint's step, when its predictions are shown
    best_metrics: dict[str, float] | None = None  # that evaluation's scores, from the history


_UNSAVED = ("running", "interrupted", "failed")  # statuses whose run may not have saved its results


def _unsaved_run(folder: Path, info: Any, skipped: list[DataError],
                 splits: dict[str, Any] | None) -> tuple[UnsavedRun | None, list[Any]]:
    """For a run that wrote no predictions.jsonl and ended without saving them (or has not ended):
    what it got to, and the best checkpoint's predictions when it has some. An interrupted app run
    showed as an empty, all-zero run without a word, though it had evaluated a dozen times."""
    if info.status not in _UNSAVED or (folder / PREDICTIONS).exists():
        return None, []
    history = read_history(folder, kinds=(StepLogged.kind, Evaluated.kind))
    steps = [e.step for e in history if isinstance(e, StepLogged)]
    evals = [e for e in history if isinstance(e, Evaluated)]
    unsaved = UnsavedRun(info.status, max(steps, default=0), len(evals))
    best = find_checkpoint(folder / CHECKPOINTS / "best")
    if best is None or not (best / BEST_PREDICTIONS).is_file():
        return unsaved, []
    try:
        step = read_state(best).get("step")
    except BertStudioError as exc:  # a damaged state.json: the run is shown without the checkpoint
        log.warning("not showing %s: %s", best, exc)
        return unsaved, []
    scored = [e for e in evals if e.step == step]
    if not isinstance(step, int) or not scored:
        return unsaved, []
    unsaved.best_step = step
    unsaved.best_metrics = {k: float(v) for k, v in scored[-1].metrics.items() if is_number(v)}
    return unsaved, read_predictions(best, skipped=skipped, splits=splits)


def _undefined_correlation(metrics: dict[str, float], preds: list[Any]) -> str | None:
    """Why the run's correlations are undefined (metrics.regression.undefined_correlation), from
    its scored predictions; None for a run without them or whose predictions do not all read."""
    if "pearson" not in metrics:
        return None
    from bertstudio.metrics.regression import undefined_correlation

    pairs = [(p.gold, p.pred.get("score")) for p in preds if p.gold is not None]
    if not pairs or not all(isinstance(v, (int, float)) and isinstance(g, (int, float)) for g, v in pairs):
        return None
    return undefined_correlation([g for g, _ in pairs], [v for _, v in pairs])


def _one_answer(kind: str, preds: list[Any]) -> Any:
    """The class the run's model answers for (almost) every scored row
    (metrics.classification.one_answer); None for other kinds."""
    gold = get_spec(kind).gold
    if not gold.classes or not preds:
        return None
    from bertstudio.metrics.classification import one_answer

    return one_answer([p.gold for p in preds], [p.pred.get(gold.name) for p in preds])


def join_rows(preds: list[Any], datasets: dict[str, Any], *, same_kind: bool, foreign: bool,
              gold_column: str, names: dict[str, str | None] | None = None,
              labels: list[str] | None = None) -> list[PredictionRow]:
    """The run's predictions with the project rows they were made for (``datasets``: each
    split's rows, edits applied; train/rundir.read_predictions says which row). A guessed row,
    or any row of a run from outside the project, is joined only where the gold agrees (same
    data); the project's own runs keep their rows even after a relabel. ``names``: the run's
    class names -> today's (Project.names_now), so that today's gold is compared with the run's
    prediction of the same class after renames and swaps; ``labels``: today's label set."""
    wanted: dict[str, list[int]] = {}
    for p in preds if same_kind else []:  # a run of another kind matches no project row
        if p.split in datasets and 0 <= p.row < len(datasets[p.split]):
            wanted.setdefault(p.split, []).append(p.row)
    fetched: dict[tuple[str, int], dict[str, Any]] = {}
    for split, rows in wanted.items():
        good = sorted(set(rows))
        for start in range(0, len(good), JOIN_CHUNK):  # Arrow's to_list holds the GIL: 50,000 at once stalled the GUI 1 s
            chunk = good[start:start + JOIN_CHUNK]
            fetched.update(((split, r), ex) for r, ex in zip(chunk, datasets[split].select(chunk).to_list()))
    out = []
    labels = labels or []
    removed = removed_marker()  # in the user's language
    for p in preds:
        ex = fetched.get((p.split, p.row), {}) if p.split is not None else {}
        run_gold = value_now(p.gold, names, labels, removed=removed)
        if ex and (foreign or not p.exact) and ex.get(gold_column) != run_gold:
            ex = {}
        gold = ex.get(gold_column) if ex else run_gold
        out.append(PredictionRow(p.index, p.split if ex else None, p.row if ex else -1, ex, gold,
                                 pred_now(p.pred, names, labels, removed=removed)))
    return out


def load_run_view(folder: Path, project_kind: str | None, project_labels: list[str],
                  splits: dict[str, Any] | None, datasets: dict[str, Any] | None = None,
                  foreign: bool = False, project_label_ids: list[int] | None = None,
                  project_uid: str | None = None) -> LoadedRun:
    """Read a run's status, predictions and per-class report, and join the predictions with
    ``datasets`` (each split's rows; ``project_kind`` None: no project); a prediction whose gold
    or label no table or plot of its kind can take is left out and said (``skipped``). The
    joined rows read the run's classes under today's names (``project_label_ids``: the
    project's label ids, in ``project_labels`` order); the per-class report too (_report_now)."""
    info = read_run(folder)
    kind = info.kind or project_kind or "sentence"
    spec = get_spec(kind)
    gold = spec.gold
    labels = list((info.config.labels if info.config else None) or project_labels)
    skipped: list[DataError] = []
    unsaved, preds = _unsaved_run(folder, info, skipped, splits)
    if not preds:
        preds = read_predictions(folder, skipped=skipped, splits=splits)
    if gold.classes:  # a label that is a list or an object reached the confusion matrix: TypeError in a slot
        fits = []
        for p in preds:
            if _class_value(p.gold) and _class_value(p.pred.get("label")):
                fits.append(p)
            else:
                skipped.append(DataError(f"label {p.pred.get('label')!r:.40} or gold {p.gold!r:.40} is no class name",
                                         path=folder / PREDICTIONS, where=f"the prediction for eval row {p.index}"))
        preds = fits
    elif gold.numeric:  # a gold score "abc" reached float() in the table's sort and plots: the app ended
        fits = []
        for p in preds:
            if p.gold is None or is_number(p.gold):
                fits.append(p)
            else:
                skipped.append(DataError(f"gold {p.gold!r:.40} is not a score", path=folder / PREDICTIONS,
                                         where=f"the prediction for eval row {p.index}"))
        preds = fits
    report = None
    if gold.classes or gold.per_token:
        try:
            report = per_class_from_predictions([{"gold": p.gold, **p.pred} for p in preds], labels,
                                                per_token=gold.per_token)
        except Exception as exc:  # noqa: BLE001 - a damaged predictions file must not break the page
            log.warning("no per-class report for %s: %s", folder, exc)
    same_kind = project_kind is not None and kind == project_kind
    names = None
    if (same_kind and not foreign and spec.has_label_set and info.config and info.config.labels
            and project_label_ids is not None and len(project_label_ids) == len(project_labels)):
        run_labels = list(info.config.labels)
        ids = read_label_ids(folder, run_labels, project_uid)
        if ids is not None:
            names = label_names_now(run_labels, ids, project_labels, project_label_ids)
    rows = join_rows(preds, datasets or {}, same_kind=same_kind, foreign=foreign,
                     gold_column=spec.gold_column, names=names, labels=project_labels)
    labels_now = [value_now(n, names, project_labels, removed=removed_marker())
                  for n in labels] if names is not None else None
    return LoadedRun(folder, info, kind, labels, preds, skipped, _report_now(report, names, project_labels), rows,
                     unsaved, labels_now)


def _report_now(report: Any, names: dict[str, str | None] | None, labels: list[str]) -> Any:
    """The per-class report's classes under today's names, as the confusion matrix and the rows read
    them (after pos was renamed positive, the table still said pos beside a matrix saying positive);
    an entity type follows its B- tag's rename."""
    if report is None or names is None:
        return report
    removed = removed_marker()

    def now(name: str) -> str:
        if report.unit == "entities":
            moved = names.get(f"B-{name}")
            return moved[2:] if isinstance(moved, str) and moved.startswith("B-") else name
        return str(value_now(name, names, labels, removed=removed))

    return replace(report, classes=tuple(replace(c, name=now(c.name)) for c in report.classes))


class _ScoresScroll(QScrollArea):
    """The scores' scroll area, never narrower than the scores (it scrolls up and down only): at
    18 pt it let the column narrow and cut the numbers off at its right."""

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        inner = self.widget()
        least = super().minimumSizeHint()
        if inner is None:
            return least
        return QSize(inner.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width(), least.height())


class ResultsPage(QWidget):
    status_message = Signal(str)  # for the window's status bar: what "Use prediction as gold" changed
    loaded = Signal(str)  # a run read off the GUI thread is on the page now (its folder)
    LEFT_SCORES_SHARE = 0.5  # of the left column the scores may take over a matrix or scatter
    LEFT_WIDTH_SHARE = 0.45  # of the page's width the scores' column may take for its per-class numbers
    TEXT_KEPT = 96  # px the text column keeps before the value columns are elided (_fit_value_columns)

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.run_dir: Path | None = None
        self.kind = "sentence"
        self.labels: list[str] = []
        self._labels_now: list[str] = []
        self.foreign = False  # the run shown is not one of the project's runs
        self._known: set[str] = set()
        self._shown_id: tuple[int, int, float | None] | None = None  # the run shown's identity (rundir.run_identity)
        self._runs: list[Path] = []  # the folders the picker lists, by row (run_at)
        self._build()
        session.runs_changed.connect(self.refresh_runs)
        session.run_renamed.connect(self._on_run_renamed)
        session.project_opened.connect(self._on_project_changed)
        session.project_closed.connect(self._on_project_changed)
        session.gold_changed.connect(self._on_gold_changed)
        session.labels_changed.connect(self._on_labels_changed)
        # rows imported: a replaced split's row numbers name other examples now (rundir.read_predictions)
        session.data_imported.connect(self._on_labels_changed)
        self.refresh_runs()

    def _build(self) -> None:
        self.run_combo = QComboBox(objectName="resultsRunCombo")
        self.run_combo.currentIndexChanged.connect(self._on_run_chosen)
        self.foreign_label = QLabel(objectName="foreignRunLabel", wordWrap=True)
        self.foreign_label.setStyleSheet("background: #fff3cd; color: #5c4400; padding: 4px;")
        self.foreign_label.hide()
        self.empty_label = QLabel(objectName="resultsEmptyLabel", wordWrap=True)  # what to do when there is nothing to show
        theme.set_tone(self.empty_label, "muted", "padding: 4px;")
        self.empty_label.hide()
        self.damage_label = QLabel(objectName="damagedPredictionsLabel", wordWrap=True)  # lines left out, and why
        self.damage_label.setStyleSheet("background: #f8d7da; color: #58151c; padding: 4px;")
        self.damage_label.hide()
        # a run without its own results yet: how far it got, and whose predictions are shown instead
        self.state_label = QLabel(objectName="runStateLabel", wordWrap=True)
        self.state_label.setStyleSheet("background: #fff3cd; color: #5c4400; padding: 4px;")
        self.state_label.hide()
        # the run shown went away (deleted, or removed or renamed in a terminal): said, not swapped silently
        self.gone_label = QLabel(objectName="goneRunLabel", wordWrap=True)
        self.gone_label.setTextFormat(Qt.TextFormat.PlainText)  # run names as they are
        self.gone_label.setStyleSheet("background: #fff3cd; color: #5c4400; padding: 4px;")
        self.gone_label.hide()
        self.metrics_panel = MetricsPanel()
        self.metrics_table = self.metrics_panel.metrics_table
        self.confusion_panel = ConfusionPanel()
        self.confusion_view = self.confusion_panel.view
        self.confusion_view.cell_clicked.connect(self._on_cell_clicked)
        self.scatter = RegressionScatter()
        self.scatter.point_clicked.connect(self.select_prediction)
        self.errors_only = QCheckBox(self.tr("Errors o&nly"), objectName="errorsOnlyCheck")
        self.errors_only.toggled.connect(self._on_errors_only)
        self.filter_label = QLabel(objectName="predictionsFilterLabel")

        self.model = PredictionsModel("sentence", self)
        self.proxy = ResultsFilter(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView(objectName="predictionsTable")
        self.table.setAccessibleName(self.tr("Predictions"))  # a screen reader said ""
        self.table.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it)
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        # the value columns fit the first 100 rows: measuring 1,000 through the proxy took 0.45 s a run
        self.table.horizontalHeader().setResizeContentsPrecision(100)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self._natural_widths: dict[int, int] = {}  # the value columns' widths as they read (show_run)
        self._cell_widths: dict[int, int] = {}  # their cells' alone, without the header
        self._loading: Any = None  # the worker reading a large run's predictions
        self._reselect: tuple[Path, int] | None = None  # (run, eval index) of the prediction to select once shown
        self.table.viewport().installEventFilter(self)  # refit them when the table's width is known or changes
        self._fitting = False
        self._widths_dragged = False  # a value column the person resized: widths stay theirs until the next run
        self.table.horizontalHeader().sectionResized.connect(self._on_section_resized)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.selectionModel().currentRowChanged.connect(self._on_row_changed)

        self.example_view = QTextBrowser(objectName="exampleView")
        self.relabel_combo = QComboBox(objectName="relabelCombo")
        self.set_gold_button = QPushButton(self.tr("Set as &gold"), objectName="setGoldButton")
        self.set_gold_button.clicked.connect(self._set_gold_from_combo)
        self.accept_button = QPushButton(self.tr("Use &prediction as gold"), objectName="acceptPredictionButton")
        self.accept_button.clicked.connect(self._accept_prediction)

        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Run")))
        top.addWidget(self.run_combo, 1)
        plots = QWidget()
        pv = QVBoxLayout(plots)
        pv.setContentsMargins(0, 0, 0, 0)
        pv.addWidget(self.confusion_panel, 1)
        pv.addWidget(self.scatter, 1)
        # the scores over the matrix or scatter, the line between them draggable: 80 classes' table
        # took the column and left the matrix 40 px, one row (_fit_left_column shares it out)
        left = QSplitter(Qt.Orientation.Vertical, objectName="resultsLeftSplitter")
        self.left_splitter = left  # before the panel's first event reaches eventFilter
        left.setChildrenCollapsible(False)
        # the last resort at a large font in a short window: the scores and notes scroll as a whole,
        # each in full, rather than being cut where the column ends
        self.scores_scroll = _ScoresScroll(objectName="scoresScroll", widgetResizable=True)
        self.scores_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scores_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scores_scroll.setWidget(self.metrics_panel)
        self.metrics_panel.installEventFilter(self)
        left.addWidget(self.scores_scroll)
        left.addWidget(plots)
        left.setStretchFactor(1, 1)
        self._left_dragged = False  # the person moved the line: it stays theirs
        left.splitterMoved.connect(self._on_left_moved)
        left.installEventFilter(self)
        center = QWidget()
        cv = QVBoxLayout(center)
        cv.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.addWidget(self.errors_only)
        bar.addWidget(self.filter_label, 1)
        cv.addLayout(bar)
        cv.addWidget(self.table, 3)
        cv.addWidget(self.example_view, 1)
        edit = QHBoxLayout()
        edit.addWidget(self.relabel_combo, 1)
        edit.addWidget(self.set_gold_button)
        edit.addWidget(self.accept_button)
        cv.addLayout(edit)
        split = QSplitter()
        self.splitter = split  # before its first event reaches eventFilter
        split.addWidget(left)
        split.addWidget(center)
        split.setStretchFactor(1, 3)
        split.setSizes([380, 720])  # room for the per-class numbers beside the predictions
        self._sides: tuple[bool, bool] | None = None  # the side panels the sizes were set for
        self._columns_dragged = False  # the person moved the line between the columns: it stays theirs
        split.splitterMoved.connect(self._on_columns_moved)
        split.installEventFilter(self)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.gone_label)
        lay.addWidget(self.foreign_label)
        lay.addWidget(self.empty_label)
        lay.addWidget(self.damage_label)
        lay.addWidget(self.state_label)
        lay.addWidget(split, 1)
        self._update_edit_buttons()

    # --- runs -----------------------------------------------------------------------
    def project_runs(self) -> list[Path]:
        """The runs in the project's runs folder, oldest first, with results to show."""
        runs = [r for r in all_runs(self.session) if in_project(self.session, r)]
        return [r for r in runs if (r / "metrics.json").is_file() or (r / "predictions.jsonl").is_file()]

    def _on_project_changed(self, *_: object) -> None:
        self.run_dir, self._known = None, set()  # nothing of the last project stays on show
        self.refresh_runs()

    def _on_run_renamed(self, old: str, new: str) -> None:
        """The run shown was renamed on the Runs page: it stays shown under its new name (it was
        dropped as "no longer on disk" and the newest run shown instead)."""
        self._known = {new if known == old else known for known in self._known}  # not a new run to jump to
        if self.run_dir is not None and self.run_dir == Path(old):
            self.run_dir = Path(new)

    def refresh_runs(self, *_: object) -> None:
        runs = self.project_runs()
        current = self.run_dir
        # the folder now holding another run (two runs swapped by rename, a folder replaced or
        # linked to another run) showed that run's scores under the name picked, with nothing said
        moved, replaced = followed_run(current, self._shown_id, runs) if current is not None else (None, False)
        gone = current.name if current is not None and moved != current else None
        if gone is not None and moved is not None:  # renamed by hand (a terminal, a file manager): followed
            if replaced:  # swapped: both names are still listed, neither is a new run
                self.run_dir = moved
            else:
                self._on_run_renamed(str(current), str(moved))
            current, gone = moved, None
        if gone is not None:  # removed in a terminal (the Runs page heard it): its scores and predictions stayed on
            current, self.foreign = None, False  # show as current, a run from elsewhere too, with nothing said
        self.run_combo.blockSignals(True)
        self.run_combo.clear()
        self._runs = runs[::-1]  # newest first
        titles = run_titles(runs)  # two seeds jobs' seed-42 told apart, as on the Runs page
        for r in self._runs:
            self.run_combo.addItem(titles[r])
        self.run_combo.blockSignals(False)
        # A new run of the project appears on top: show it; otherwise stay on the one being looked
        # at (also a foreign one the user opened); never switch to a run from elsewhere.
        names = {str(r) for r in runs}
        new = names - self._known
        self._known = names
        if current is not None and not new and (str(current) in names or self.foreign):
            self.show_run(current)
        else:
            self.show_run(str(runs[-1]) if runs else None)
        if gone is not None and replaced:
            self.gone_label.setText(self.tr("The folder {run} now holds another run: the results of the run shown "
                                            "there before are no longer shown.").format(run=visible_run_name(gone)))
            self.gone_label.show()
        elif gone is not None:
            self.gone_label.setText(self.tr("The run {run} is no longer on disk (deleted, moved or renamed): its results "
                                            "are no longer shown.").format(run=visible_run_name(gone)))
            self.gone_label.show()

    def run_at(self, index: int) -> Path | None:
        """The run folder the picker lists at ``index``. The folders are kept here, not as Qt item
        data: a QString drops a name's undecodable byte (a "run\\xe9" folder came back as "run")."""
        return self._runs[index] if 0 <= index < len(self._runs) else None

    def run_index(self, folder: str | Path) -> int:
        """The picker's index of ``folder``; -1 when it is not listed."""
        return next((i for i, r in enumerate(self._runs) if r == Path(folder)), -1)

    def _on_run_chosen(self, idx: int) -> None:
        if idx >= 0:
            self.show_run(self.run_at(idx))

    def _select_in_combo(self, folder: Path) -> None:
        found = self.run_index(folder)
        if found < 0:  # a run not listed (from elsewhere, or one without results yet): listed while shown
            name = visible_run_name(folder.name)
            name = self.tr("{name} (not in this project)").format(name=name) if self.foreign else name
            self.run_combo.blockSignals(True)
            self.run_combo.insertItem(0, name)
            self._runs.insert(0, folder)
            self.run_combo.blockSignals(False)
            found = 0
        if found != self.run_combo.currentIndex():
            self.run_combo.blockSignals(True)
            self.run_combo.setCurrentIndex(found)
            self.run_combo.blockSignals(False)

    def show_run(self, folder: str | Path | None) -> None:
        """Show one run folder: one of the project's, or one from elsewhere (said so above the page).
        A run slow to read is read on a worker (``is_loading()``; ``loaded`` when it is shown)."""
        self._loading = None  # a slower read of the run shown before is not wanted now
        self.gone_label.hide()  # another run shown: the note on the one gone is over
        self.run_dir = Path(folder) if folder else None
        self._shown_id = run_identity(self.run_dir) if self.run_dir is not None else None
        self.foreign = self.run_dir is not None and not in_project(self.session, self.run_dir)
        if self.run_dir is not None:  # keep the picker in step when another page asks for a run
            self._select_in_combo(self.run_dir)
        for i in range(self.run_combo.count() - 1, -1, -1):  # a run not listed leaves the list with the view
            listed = self._runs[i]
            if str(listed) not in self._known and listed != self.run_dir:
                del self._runs[i]  # first: removing an item before the current one says the index changed
                self.run_combo.removeItem(i)
        self.confusion_view.clear_filter()
        self.proxy.set_cell(None)
        if self.run_dir is None:
            self._show_nothing()
            return
        self.empty_label.hide()
        project = self.session.project
        # each split's rows as they are now (an Arrow table: read on the worker, left as it is here)
        datasets = {split: self.session.examples(split).dataset for split in getattr(project, "split_names", SPLITS)
                    if project is not None and self.session.split_size(split)}
        request = (self.run_dir, self.session.kind if project is not None else None, list(self.session.labels()),
                   dict(project.split_info) if project is not None else None, datasets, self.foreign,
                   list(getattr(project, "label_ids", [])) if project is not None else None,
                   getattr(project, "uid", None))
        if _slow_to_read(self.run_dir, request[1]):
            # read off the GUI thread (50,000 predictions held it 1.4 s, their per-class report 0.2 s more)
            self._read_in_background(request)
            return
        self._show_loaded(load_run_view(*request))

    def _read_in_background(self, request: tuple[Any, ...]) -> None:
        from bertstudio.ui.jobs import JobWorker

        self._show_nothing()
        self.empty_label.setText(self.tr("Reading the predictions of %1…").replace("%1", self.run_dir.name))
        worker = JobWorker(lambda _progress, _cancel: load_run_view(*request), name="bertstudio-results-read")
        self._loading = worker
        # bound methods, not lambdas holding the worker: each switch kept its worker alive for good
        worker.finished.connect(self._on_read_finished)
        worker.failed.connect(self._on_read_failed)
        worker.start()

    def _on_read_finished(self, loaded: Any) -> None:
        self._on_loaded(self.sender(), loaded)

    def _on_read_failed(self, message: str) -> None:
        self._on_loaded(self.sender(), None, message)

    def _on_loaded(self, worker: Any, loaded: Any, failed: str | None = None) -> None:
        if worker is not None:
            worker.deleteLater()  # its read is over (the ThreadJob has let go of it)
        if worker is not self._loading:  # another run was chosen meanwhile
            return
        self._loading = None
        if loaded is None:
            self._reselect = None
            self.empty_label.setText(self.tr("Could not read this run's predictions: %1").replace("%1", failed or ""))
            return
        self.empty_label.hide()
        self._show_loaded(loaded)
        self.loaded.emit(str(loaded.folder))

    def is_loading(self) -> bool:
        """A run is being read off the GUI thread."""
        return self._loading is not None

    def _show_loaded(self, loaded: "LoadedRun") -> None:
        """Put a run read by :func:`load_run_view` on the page."""
        info, preds, skipped, report = loaded.info, loaded.preds, loaded.skipped, loaded.report
        self.kind, self.labels = loaded.kind, loaded.labels
        self._labels_now = loaded.labels_now or loaded.labels  # the names the rows' gold and predictions use
        gold = get_spec(self.kind).gold
        self._show_damage(skipped)
        self._show_state(loaded.unsaved)
        unsaved = loaded.unsaved
        metrics = unsaved.best_metrics if unsaved is not None and unsaved.best_metrics is not None else info.metrics
        # the scores rest on the rows with a gold value: rows without one are predicted, not scored
        counted, unit = (sum(p.gold is not None for p in preds) or None), "examples"
        if gold.per_token:  # tagging scores count entities (BIO) or words (POS), not sentences
            counted = sum(c.support for c in report.classes) if report is not None else None
            unit = report.unit if report is not None else unit
        self.metrics_panel.show_metrics(metrics, official_metric_order(self.kind, info.glue_task),
                                        examples=counted, unit=unit, best_step=info.best_step, steps=info.steps,
                                        undefined=_undefined_correlation(metrics, preds), status=info.status,
                                        last_metrics=info.last_metrics if metrics is info.metrics else None,
                                        one_answer=_one_answer(self.kind, preds))
        self.metrics_panel.show_report(report)
        old, self.model = self.model, PredictionsModel(self.kind, self)
        self.model.set_rows(loaded.rows, info.glue_task)
        self._say_what_an_error_is()
        self.proxy.setSourceModel(self.model)
        old.deleteLater()
        self._show_foreign_note()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self._measure_value_columns()
        self._widths_dragged = False
        self._fit_value_columns()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        if "loss" in self.model._columns:  # most wrong first: where relabelling pays off
            self.table.sortByColumn(self.model.column_of("loss"), Qt.SortOrder.DescendingOrder)
        else:
            header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            self.proxy.sort(-1)  # evaluation order
        self._refresh_plots()
        self.relabel_combo.clear()
        self.relabel_combo.addItems(self.session.labels() if gold.classes else [])
        self.relabel_combo.setVisible(gold.classes)
        self.set_gold_button.setVisible(gold.classes)
        self.example_view.clear()
        self._update_filter_label()
        self._update_edit_buttons()
        wanted, self._reselect = self._reselect, None
        if wanted is not None and wanted[0] == loaded.folder:  # not in another run chosen meanwhile
            for i, r in enumerate(self.model.rows):
                if r.index == wanted[1]:
                    self.table.selectRow(self.proxy.mapFromSource(self.model.index(i, 0)).row())
                    break

    def _show_damage(self, skipped: list) -> None:
        """Say that lines of the run's files could not be read and are not shown (the first reason)."""
        self.damage_label.setVisible(bool(skipped))
        if skipped:
            self.damage_label.setText(self.tr("%1 damaged line(s) of this run's predictions are not shown: %2")
                                      .replace("%1", str(len(skipped))).replace("%2", str(skipped[0])))

    def _show_state(self, unsaved: UnsavedRun | None) -> None:
        """Say that the run shown has no results of its own yet, and what is shown in their place."""
        self.state_label.setVisible(unsaved is not None)
        if unsaved is None:
            return
        if unsaved.status == "running":
            text = self.tr("This run is still training (step {n}): its model and predictions are saved when it ends.")
        elif unsaved.status == "failed":
            text = self.tr("This run failed at step {n} before it saved its model and predictions.")
        else:
            text = self.tr("This run was interrupted at step {n} before it saved its model (its process was closed "
                           "or crashed).")
        said = [text.format(n=f"{unsaved.step:,}")]
        if unsaved.best_step is not None:
            said.append(self.tr("Shown: the predictions of its best checkpoint (checkpoints/best), from the "
                                "evaluation at step {b}.").format(b=f"{unsaved.best_step:,}"))
        elif unsaved.evaluations:
            said.append(self.tr("It evaluated %n time(s) (see its curves on the Runs page), but no checkpoint with "
                                "predictions is on disk.", "", unsaved.evaluations))
        else:
            said.append(self.tr("It had not evaluated yet: nothing to show."))
        self.state_label.setText(join_sentences(said))

    def _show_nothing(self) -> None:
        self._natural_widths = {}
        self._show_damage([])
        self._show_state(None)
        self.metrics_panel.show_metrics({}, ())
        self.metrics_panel.show_report(None)
        self.model.set_rows([])
        self._update_filter_label()
        self.confusion_view.confusion_model.set_data([], [], [])
        self.scatter.set_points([], [], [])
        self.scatter.hide()
        self.example_view.clear()
        self._show_foreign_note()
        if not self.session.has_project():
            self.empty_label.setText(self.tr("No project is open. Open or create one (File menu), train a run on the "
                                             "Train page, and its scores, predictions and errors appear here."))
        else:
            self.empty_label.setText(self.tr("This project has no run yet. Train one on the Train page (or open a run "
                                             "folder from the Runs page), and its scores, predictions and errors "
                                             "appear here."))
        self.empty_label.show()

    def _show_foreign_note(self) -> None:
        self.foreign_label.setVisible(self.foreign)
        if not self.foreign or self.run_dir is None:
            return
        text = self.tr("This run is not one of this project's runs ({folder}); it is shown for viewing only.").format(
            folder=self.run_dir)
        if not self._same_kind():
            text += " " + self.tr("It is a {run} run and this project holds {project} examples, so its rows are not "
                                  "matched to the project's.").format(run=self.kind, project=self.session.kind)
        else:
            joined = sum(r.split is not None for r in self.model.rows)
            text += " " + self.tr("{joined} of {total} of its rows match this project's examples (same gold value)."
                                  ).format(joined=joined, total=len(self.model.rows))
        self.foreign_label.setText(text)

    def _same_kind(self) -> bool:
        # no branch on a kind: a run's rows match the project's only when both hold the same kind
        return self.session.has_project() and self.kind == self.session.kind

    def _measure_value_columns(self) -> None:
        """The value columns' natural widths (their cells or their header, whichever is wider; 240 px
        at most) and their cells' own widths, below which a value is elided (``_fit_value_columns``)."""
        header = self.table.horizontalHeader()
        self._natural_widths, self._cell_widths = {}, {}
        for column in range(1, self.model.columnCount()):
            cells = min(self.table.sizeHintForColumn(column), 240)
            self._cell_widths[column] = cells
            self._natural_widths[column] = max(cells, min(header.sectionSizeHint(column), 240))

    def _fit_value_columns(self) -> None:
        """The value columns at their natural widths; in a narrow table they share 60% of it (at 900 px
        the text column was left 20 px: "is …"), but their values are not elided while the text column
        keeps TEXT_KEPT px: the text gives up its room first (scaled alike, a gold of 5000 read "500…"
        beside a text column of 114 px); the headers may be elided. Called again whenever the table's
        width changes: fitted once, to the width at the moment a run was shown, they stayed squeezed
        ("Predictec", "not_…") after the window grew."""
        widths = dict(self._natural_widths)
        width = self.table.viewport().width()
        room = int(0.6 * width)
        if widths and sum(widths.values()) > room:
            floors = {c: min(self._cell_widths.get(c, 44), w) for c, w in widths.items()}
            room = max(room, min(sum(floors.values()), width - self.TEXT_KEPT))
            if sum(floors.values()) <= room:  # each value whole, the headers share what is left
                spare, want = room - sum(floors.values()), sum(widths[c] - floors[c] for c in widths)
                widths = {c: floors[c] + (int((widths[c] - floors[c]) * spare / want) if want else 0) for c in widths}
            else:  # too narrow even for the values: they are elided alike
                scale = room / sum(floors.values())
                widths = {c: max(44, int(w * scale)) for c, w in floors.items()}
        self._fitting = True
        try:
            for column, width in widths.items():
                self.table.setColumnWidth(column, width)
        finally:
            self._fitting = False

    def _on_section_resized(self, column: int, _old: int, _new: int) -> None:
        if not self._fitting and column != 0:  # the text column stretches by itself
            self._widths_dragged = True

    def eventFilter(self, watched: Any, event: Any) -> bool:  # noqa: N802 - Qt override
        if watched is self.left_splitter:  # its height known or changed: the scores and the plot share it
            # a width change too: the notes wrap to more or fewer lines
            if event.type() == QEvent.Type.Resize and event.size() != event.oldSize():
                self._fit_left_column(event.size().height(), event.size().width())
            return super().eventFilter(watched, event)
        if watched is self.metrics_panel:  # its content's size changed (a table's rows, a note's text): refit
            if event.type() == QEvent.Type.LayoutRequest:
                self._fit_left_column()
            return super().eventFilter(watched, event)
        if watched is self.splitter:
            if event.type() == QEvent.Type.Resize and event.size().width() != event.oldSize().width():
                self._fit_columns(event.size().width() - self.splitter.handleWidth())
            return super().eventFilter(watched, event)
        # every event of the table's viewport passes here (paints, mouse moves): only a width change acts
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize and self._natural_widths \
                and not self._widths_dragged and event.size().width() != event.oldSize().width():
            self._fit_value_columns()
        return super().eventFilter(watched, event)

    def _fit_columns(self, total: int | None = None) -> None:
        """The scores' column beside the predictions: 380 px, a quarter of the page for QA's two scores
        (the answers need the room), wider where the per-class numbers need it (at 18 pt they scrolled
        sideways in 380 px), up to LEFT_WIDTH_SHARE. Fitted again when the page's width changes (the
        width the page had before it was shown gave QA 240 px in a 1280 px window), until the
        person moves the line. ``total``: the splitter's new width, from its resize event."""
        if self._sides is None or self._columns_dragged:
            return
        total = total if total is not None else (sum(self.splitter.sizes()) or 1100)
        left = 380 if any(self._sides) else min(380, max(240, total // 4))
        wide = self.metrics_panel.per_class_width() + self.scores_scroll.verticalScrollBar().sizeHint().width()
        left = max(left, min(wide, int(total * self.LEFT_WIDTH_SHARE)))
        self.splitter.setSizes([left, max(1, total - left)])

    def _on_columns_moved(self, *_: object) -> None:
        self._columns_dragged = True

    def _on_left_moved(self, *_: object) -> None:
        self._left_dragged = True

    def _fit_left_column(self, height: int | None = None, width: int | None = None) -> None:
        """The scores as tall as they read at the column's width, up to LEFT_SCORES_SHARE of the
        column when a matrix or scatter is under them (their per-class table scrolls), or more where
        a small matrix reads in less; never less than the official scores and the notes in full
        while the plot keeps its least height. The plot gets the rest. ``height``, ``width``: the
        splitter's new size, from its resize event (before it lays out its widgets)."""
        splitter = self.left_splitter
        total = (height - splitter.handleWidth()) if height is not None else sum(splitter.sizes())
        if self._left_dragged or total <= 0:
            return
        whole, least = self.metrics_panel.heights_for_width(width if width is not None else splitter.width())
        share = int(total * self.LEFT_SCORES_SHARE)
        if self.confusion_panel.isVisibleTo(self):  # 4 classes: their rows read in 200 px
            room = max(share, total - self.confusion_panel.rows_height())
        else:
            room = share if self.scatter.isVisibleTo(self) else total
        plot_least = splitter.widget(1).minimumSizeHint().height()
        room = max(room, min(least, total - plot_least))  # at 18 pt the notes took half the column alone
        top = min(whole, room)
        splitter.setSizes([top, max(1, total - top)])

    def _refresh_plots(self) -> None:
        gold = get_spec(self.kind).gold
        self.confusion_panel.setVisible(gold.classes)
        self.scatter.setVisible(gold.numeric)
        sides = (gold.classes or gold.numeric, gold.per_token)  # what the left column holds besides the scores
        if sides != self._sides:  # a run of another kind: the columns fit it (a person's own sizes stay until then)
            self._sides, self._columns_dragged = sides, False
            self._fit_columns()
        if gold.classes:
            rows = [r for r in self.model.rows if r.gold is not None]
            golds, preds = [r.gold for r in rows], [r.pred.get("label") for r in rows]
            # A label renamed after the run: the new gold name gets its own row instead of vanishing.
            labels = list(dict.fromkeys([*self._labels_now, *(str(v) for v in golds + preds if v is not None)]))
            self.confusion_view.confusion_model.set_data(golds, preds, labels)
        if gold.numeric:
            points = [(float(r.gold), float(v), i) for i, r in enumerate(self.model.rows)
                      if r.gold is not None and (v := self.model.predicted_value(r)) is not None]
            self.scatter.set_points(*([list(c) for c in zip(*points)] if points else ([], [], [])))
        self.scores_scroll.updateGeometry()  # the scores' least width changed with their rows
        self._fit_left_column()

    # --- filtering ------------------------------------------------------------------
    def _on_cell_clicked(self, cell: tuple[str, str] | None) -> None:
        self._filter(lambda: self.proxy.set_cell(cell))
        self._update_filter_label()

    def _say_what_an_error_is(self) -> None:
        """For scores, "error" is a distance: the check box says which (a tenth of the golds' scale)."""
        tolerance = self.model.tolerance
        if tolerance is None:
            self.errors_only.setText(self.tr("Errors o&nly"))
            self.errors_only.setToolTip("")
            return
        self.errors_only.setText(self.tr("Errors o&nly (off by ≥ %1)").replace("%1", f"{tolerance:g}"))
        self.errors_only.setToolTip(self.tr("A predicted score counts as an error when it is %1 or more from its "
                                            "gold: a tenth of the gold scores' scale").replace("%1", f"{tolerance:g}"))

    def _on_errors_only(self, on: bool) -> None:
        self._filter(lambda: self.proxy.set_errors_only(on))
        self._update_filter_label()

    def _filter(self, change: Any) -> None:
        """Apply a filter change; when it hides the current prediction, the one now in its place
        becomes current, as when a table's row is removed (relabelling the errors one after
        another moves on; the proxy's layout change dropped the current row without a signal,
        and the example view and the gold buttons stayed on the hidden one)."""
        before = self.table.currentIndex()
        change()
        if not before.isValid() or self.table.currentIndex().isValid():
            return
        if self.proxy.rowCount():
            self.table.selectRow(min(before.row(), self.proxy.rowCount() - 1))
        else:
            self._on_row_changed(QModelIndex(), QModelIndex())

    def _update_filter_label(self) -> None:
        shown, total = self.proxy.rowCount(), self.model.rowCount()
        text = self.tr("{shown} of {total} examples").format(shown=shown, total=total)
        if self.proxy.cell:
            text += "  ·  " + self.tr("gold {g}, predicted {p}").format(g=self.proxy.cell[0], p=self.proxy.cell[1])
        self.filter_label.setText(text)

    # --- one example ----------------------------------------------------------------
    def select_prediction(self, row: int) -> None:
        """Select the predictions model's ``row`` in the table (clearing filters that hide it)."""
        if not 0 <= row < len(self.model.rows):
            return
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():
            self.confusion_view.clear_filter()
            self.proxy.set_cell(None)
            self.errors_only.setChecked(False)
            index = self.proxy.mapFromSource(self.model.index(row, 0))
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.table.selectionModel().setCurrentIndex(index, flags)
        self.table.scrollTo(index)

    def current_prediction(self) -> PredictionRow | None:
        idx = self.table.currentIndex()
        if not idx.isValid():
            return None
        return self.model.rows[self.proxy.mapToSource(idx).row()]

    def _on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        r = self.current_prediction()
        self._update_edit_buttons()
        if r is None:
            self.example_view.clear()
            return
        self.example_view.setHtml(self.example_html(r))
        if r.split is not None and isinstance(r.gold, str):
            self.relabel_combo.setCurrentText(r.gold)
            self.session.set_current(r.split, r.row)

    def example_html(self, r: PredictionRow) -> str:
        """The example with gold and prediction, drawn the way its gold type reads best."""
        gold = get_spec(self.kind).gold
        if gold.per_token:
            return example_html.tags_html(list(r.example.get("tokens") or []), r.gold, r.pred.get("tags"), self._labels_now)
        if gold.name == "answers":
            return example_html.answers_html(r.example, r.gold, r.pred)
        return example_html.values_html(self.kind, r.example, r.gold, self.model.predicted_value(r), r.pred)

    # --- relabelling ----------------------------------------------------------------
    def _update_edit_buttons(self) -> None:
        r = self.current_prediction() if self.table.model() is not None else None
        ok = r is not None and r.split is not None
        self.set_gold_button.setEnabled(ok)
        usable = ok and self._is_project_value(self.model.predicted_value(r))
        self.accept_button.setEnabled(usable)
        cut = int((r.pred or {}).get("unpredicted_words") or 0) if r is not None else 0
        if usable or not ok:
            why = ""
        elif cut:  # the decoder tags them "O" (words that tokenise to nothing; a run from before sentences
            # past max_length were read in windows), which a tag set without "O" cannot take as gold
            why = self.tr("%n word(s) got no prediction from this run: tag them on the Label page", "", cut)
        else:
            why = self.tr("The run predicted a label this project no longer has (renamed or removed since the run)")
        self.accept_button.setToolTip(why)
        self.relabel_combo.setEnabled(ok)

    def _is_project_value(self, value: Any) -> bool:
        """Whether ``value`` can be a gold value of the project now (a run trained before a label was
        renamed predicts the old name)."""
        if value is None:
            return False
        if not get_spec(self.kind).has_label_set:
            return True
        labels = set(self.session.project.labels)
        values = value if isinstance(value, list) else [value]
        return all(v in labels for v in values)

    def _set_gold_from_combo(self) -> None:
        r = self.current_prediction()
        if r is not None and r.split is not None and self.relabel_combo.currentText():
            self._apply(r, self.relabel_combo.currentText())

    def _accept_prediction(self) -> None:
        r = self.current_prediction()
        if r is not None and r.split is not None:
            value = self.model.predicted_value(r)
            if isinstance(value, list) and is_bio_tag_set(list(self.session.project.labels)):
                # a model may leave an I-X without its B-X ("I-PER" after "B-ORG"): read as the start of
                # an X entity, as the scores read it, never stored as a span the Label page cannot make
                value = iob1_to_bio([str(t) for t in value])
            before = list(r.gold) if isinstance(r.gold, list) else r.gold  # the row is rebuilt by the change
            if self._apply(r, value):
                self.status_message.emit(self._accepted_text(r, before, value))

    def _accepted_text(self, r: PredictionRow, before: Any, value: Any) -> str:
        """What taking the prediction changed, said once it is done: it rewrites gold labels,
        which on a dev or test row are what the runs are scored on."""
        where = self.tr("{split} row {row}").format(split=split_name(r.split or ""), row=r.row + 1)
        where = where[:1].upper() + where[1:]
        if isinstance(value, list):
            old = before if isinstance(before, list) else []
            changed = sum(1 for i, v in enumerate(value) if i >= len(old) or old[i] != v)
            text = self.tr("{where}: {n} of {m} tags are now the run's predictions").format(
                where=where, n=changed, m=len(value))
        else:
            text = self.tr("{where}: the gold value is now the run's prediction").format(where=where)
        # every row shown was scored (a dev/test row, or a training row the run held out): so was its old gold
        text += self.tr("; this run's scores were computed with the earlier gold")
        return text + self.tr(" (Edit > Undo restores it)")

    def _apply(self, r: PredictionRow, value: Any) -> bool:
        assert r.split is not None
        try:
            self.session.apply_gold(r.split, r.row, value,
                                    self.tr("Relabel {split} row {row}").format(split=split_name(r.split), row=r.row + 1))
        except BertStudioError as exc:  # never an exception out of a button's slot: say it where the user looks
            self.damage_label.setText(exc.message)
            self.damage_label.show()
            return False
        return True

    def _on_labels_changed(self) -> None:
        """A rename rewrites gold values in bulk, an import may replace a split's rows: join the
        run's rows to the project again."""
        if self.run_dir is None:
            return
        current = self.current_prediction()
        self._reselect = (self.run_dir, current.index) if current is not None else None  # selected again once shown
        self.show_run(self.run_dir)

    def _on_gold_changed(self, split: str, row: int) -> None:
        if not any(r.split == split and r.row == row for r in self.model.rows):
            return
        self.model.update_gold(split, row, self.session.gold(split, row))
        if not self._widths_dragged:  # a gold of 5000 typed for 50 is wider than the column fitted to 50
            self._measure_value_columns()
            self._fit_value_columns()
        self._say_what_an_error_is()  # the edited gold may have changed the scores' scale
        self._refresh_plots()
        self._filter(self.proxy.refilter)
        r = self.current_prediction()
        if r is not None:
            self.example_view.setHtml(self.example_html(r))
        self._update_filter_label()
