"""The GLUE scoreboard: the best run's official score per GLUE task and the
macro average by bertstudio.metrics.scoreboard's rules (WNLI left out; a task
without a run is shown as missing, never as zero), under a chosen convention.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from bertstudio.metrics import CONVENTIONS, GLUE_METRICS, canonical_task, glue_score, is_glue_task
from bertstudio.train.rundir import RunInfo
from bertstudio.ui import theme
from bertstudio.ui.metrics_panel import SMALL_EVAL
from bertstudio.ui.run_reader import READING
from bertstudio.ui.runs_page import all_runs, run_titles

log = logging.getLogger(__name__)
# metrics.CONVENTIONS' notes, marked for lupdate; tests/ui/test_translation.py checks they match
NOTES = (
    QT_TRANSLATE_NOOP("ScoreboardPage", "GLUE leaderboard: mean of each task's metrics, MNLI = mean of m/mm, WNLI left out"),
    QT_TRANSLATE_NOOP("ScoreboardPage", "BERT paper Table 1: F1 for MRPC/QQP, Spearman for STS-B, MCC for CoLA, accuracy "
                                        "elsewhere; MNLI-m and MNLI-mm apart; WNLI left out"),
    QT_TRANSLATE_NOOP("ScoreboardPage", "main metric of each task, MNLI matched only, WNLI left out"),
)


def best_results(runs: list[RunInfo]) -> tuple[dict[str, dict[str, float]], dict[str, RunInfo]]:
    """Per GLUE task, the metrics of its best run by the task's main metric, and that run. An MNLI
    run scored on the mismatched set too (``bertstudio glue``) counts for MNLI-mm as well, and the
    best MNLI-m run's own mismatched score wins: MNLI's entry is then one model's, not two."""
    best: dict[str, tuple[float, dict[str, float], RunInfo]] = {}
    for info in runs:
        task = info.glue_task
        if not task or not is_glue_task(str(task)):
            continue
        name = canonical_task(str(task))
        scored = [(name, info.metrics)] + ([("MNLI-mm", info.mismatched)] if name == "MNLI-m" and info.mismatched else [])
        for board, metrics in scored:
            key = GLUE_METRICS[board][0]
            if key in metrics and (board not in best or metrics[key] > best[board][0]):
                best[board] = (metrics[key], metrics, info)
    matched = best.get("MNLI-m")
    if matched is not None and matched[2].mismatched:
        best["MNLI-mm"] = (0.0, matched[2].mismatched, matched[2])
    return {t: dict(m) for t, (_, m, _i) in best.items()}, {t: i for t, (_, _m, i) in best.items()}


class ScoreboardPage(QWidget):
    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.convention_combo = QComboBox(objectName="glueConventionCombo")
        for key, help_text in CONVENTIONS.items():
            title = {"glue": self.tr("GLUE leaderboard"), "bert_paper": self.tr("BERT paper (Table 1)"),
                     "one_metric_per_task": self.tr("One metric per task")}.get(key, key)
            self.convention_combo.addItem(title, key)
            self.convention_combo.setItemData(self.convention_combo.count() - 1, QCoreApplication.translate(
                "ScoreboardPage", help_text), Qt.ItemDataRole.ToolTipRole)
        self.convention_combo.currentIndexChanged.connect(self.refresh)
        self.table = QTableWidget(0, 4, objectName="glueScoreboard")
        self.table.setTabKeyNavigation(False)
        self.table.setHorizontalHeaderLabels([self.tr("Task"), self.tr("Score"), self.tr("Metrics"), self.tr("Best run")])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.note = QLabel(objectName="glueScoreboardNote", wordWrap=True)
        self.hint = QLabel(objectName="glueScoreboardHint", wordWrap=True)  # where scores come from, while none has
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Convention")))
        bar.addWidget(self.convention_combo, 1)
        lay = QVBoxLayout(self)
        lay.addLayout(bar)
        lay.addWidget(self.hint)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.note)
        session.runs_changed.connect(self.refresh)
        session.project_opened.connect(self.refresh)
        session.project_closed.connect(self.refresh)
        session.run_reader.read.connect(self.refresh)  # runs read off the GUI thread are in
        theme.follow(self.table, self.refresh)  # now, and in the new palette's muted grey

    def convention(self) -> str:
        return str(self.convention_combo.currentData())

    def refresh(self, *_: object) -> None:
        infos = self.session.run_reader.infos(all_runs(self.session))
        results, names = best_results(infos)
        titles = run_titles(info.folder for info in infos)  # as the Runs page names them (job2/SST-2, job5/SST-2)
        board = glue_score(results, self.convention())
        self.board = board
        rows = board.rows()
        self.table.setRowCount(len(rows) + 1)
        grey = QColor(theme.tone("muted"))
        for i, row in enumerate(rows):
            task = row.name.split()[0]
            if row.missing:
                score, detail = self.tr("missing"), self.tr("no run yet")
            else:
                score, detail = row.score_text(), row.parts_text()  # as the CLI prints them
                if not row.counted:
                    detail += "  " + self.tr("(not in the average)")
                elif row.partial:
                    detail += "  " + self.tr("(partial)")
            info = names.get(canonical_task(task)) if is_glue_task(task) else None
            run = titles.get(Path(info.folder), info.name) if info is not None else ""
            if info is not None and not row.missing:
                detail += "  " + self._scored_on(info)
            for col, text in enumerate((row.name, score, detail, run)):
                item = QTableWidgetItem(text)
                if row.missing or not row.counted:
                    item.setForeground(grey)
                if col == 1:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(i, col, item)
        summary = self.tr("over {n} of {m} entries").format(n=len(board.present), m=len(board.entries))
        if not board.present:
            summary = self.tr("no task has a finished run yet")
        elif board.missing:
            summary += "  " + self.tr("({k} missing: {names}; partial average, not comparable with a full score)").format(
                k=board.n_missing, names=", ".join(board.missing))
        elif board.partial:  # every entry there, one of them in part (MNLI without mismatched), as the CLI says
            summary += "  " + self.tr("(some parts missing; partial average, not comparable with a full score)")
        summary += self._mixed_note(board, names)
        last = len(rows)
        for col, text in enumerate((self.tr("Average"), board.average_text(), summary, "")):
            item = QTableWidgetItem(text)
            font = item.font()
            font.setBold(True)
            item.setFont(font)
            if col == 1:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setToolTip(text)  # the summary can be wider than the window
            self.table.setItem(last, col, item)
        self.note.setText(QCoreApplication.translate("ScoreboardPage", CONVENTIONS[self.convention()]))
        hint = self._hint() if not board.present else self._missing_hint() if board.missing else ""
        reading = sum(info.status == READING for info in infos)
        if reading:  # a best run may be among them: the board is not final yet
            hint = self.tr("Reading %n run(s)…", "", reading) + ("  " + hint if hint else "")
        self.hint.setText(hint)
        self.hint.setVisible(bool(hint))

    def _mixed_note(self, board: Any, names: dict[str, RunInfo]) -> str:
        """The best run of each task is picked across every run listed: from two ``bertstudio glue``
        jobs, the average matched neither job's, without a word. Said, with the folders."""
        tasks = [canonical_task(r.name.split()[0]) for r in board.present if is_glue_task(r.name.split()[0])]
        counted = [names[t] for t in tasks if t in names]
        folders = list(dict.fromkeys(Path(info.folder).parent for info in counted))
        if len(folders) < 2:
            return ""
        return "  " + self.tr("(best runs from {n} folders: {names}; the average mixes their runs, which may differ "
                              "in model, settings and evaluation rows)").format(
            n=len(folders), names=", ".join(f.name for f in folders))

    def _scored_on(self, info: RunInfo) -> str:
        """What the score rests on: a run scored on 2 training rows it held out read as the
        task's score, where Results said how little it says."""
        n = info.eval_examples
        held = bool(info.config and info.config.hold_out)
        if not n:
            return ""
        if held:
            text = self.tr("(on {n} training examples held out, not the task's dev set)").format(n=f"{n:,}")
        else:
            text = self.tr("(on {n} examples)").format(n=f"{n:,}")
        if n < SMALL_EVAL:
            text += " " + self.tr("too few to compare runs")
        return text

    def _missing_hint(self) -> str:
        """Some tasks scored, others missing: where the others come from (each GLUE preset makes its
        own project, so a scored RTE project left the user with no word on filling the rest)."""
        return self.tr("Each GLUE preset makes its own project: train the missing tasks in theirs, then open their "
                       "run folders on the Runs page to score them here, or run `bertstudio glue` for all of them "
                       "and open its folder.")

    def _hint(self) -> str:
        """With no task scored: where scores come from, for what is open."""
        project = self.session.project
        task = getattr(project, "glue_task", None)
        if project is not None and task and is_glue_task(str(task)):
            return self.tr("No finished {task} run yet: train one on the Train page and its score appears here."
                           ).format(task=canonical_task(str(task)))
        where = self.tr("Runs count here when their project was made from a GLUE preset (New project > From a GLUE "
                        "preset), or when you open a run folder written by `bertstudio glue` on the Runs page.")
        if project is None:
            return self.tr("No project open.") + " " + where
        return self.tr("This project is not a GLUE task, so its runs are not scored here.") + " " + where
