"""The labelling assistant in the status bar: what it is doing, and how good it is.

One line (``Assistant: fast model · audit 81% (68-90%), 42 audit labels``) and a small
progress bar while it embeds the texts, trains the strong model (its steps) or scores the texts
with it (rows done; busy until the first batch is scored). Both are
read from the assistant's snapshot (:meth:`AssistController.status`) when the controller
says something changed; nothing here waits on a model.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QWidget

from bertstudio.ui.assist_chart import audit_line
from bertstudio.ui.assist_controller import AssistController, source_text
from bertstudio.ui.elided import ElidedLabel
from bertstudio.ui.jobs import training_job_text


class AssistStatus(QWidget):
    def __init__(self, controller: AssistController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("assistStatus")
        self.controller = controller
        self.label = ElidedLabel(objectName="assistStatusLabel")  # "…" in a narrow window, whole in its tooltip
        self.bar = QProgressBar(objectName="assistProgress")
        self.bar.setMaximumWidth(140)
        self.bar.setMaximumHeight(14)
        self.bar.setTextVisible(False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        controller.status_changed.connect(self.update_status)
        controller.failed.connect(lambda _m: self.update_status())
        self.update_status()

    def update_status(self) -> None:
        status = self.controller.status()
        if not status and self.controller.is_on():  # importing the libraries, before the assistant exists
            status = {"phase": "starting"}
        if not status:
            self.setVisible(False)
            return
        self.setVisible(True)
        parts: list[str] = []
        progress = status.get("progress") or {}
        training = status.get("training") or {}
        bar: tuple[int, int] | None = None
        phase = status.get("phase")
        if phase == "failed":
            parts.append(self.tr("stopped: %1").replace("%1", self.controller.last_error or "?"))
        elif not status.get("ready"):
            done, total = int(progress.get("done") or 0), int(progress.get("total") or 0)
            if phase == "embedding" and total:
                parts.append(self.tr("reading the texts %1/%2").replace("%1", f"{done:,}").replace("%2", f"{total:,}"))
                bar = (done, total)
            else:
                parts.append(self.tr("starting"))
                bar = (0, 0)  # busy: loading the libraries and the model takes a while
        elif status.get("shown"):
            parts.append(source_text(status["shown"]))
            parts.append(audit_line(self.controller))
        elif status.get("waiting"):  # "yet" only where a model will come
            parts.append(self.tr("no suggestions yet") if self.controller.model_in_loop() else self.tr("no suggestions"))
        if training.get("status") in ("training", "scoring"):
            method = source_text(training.get("method"))
            step, total = int(training.get("step") or 0), int(training.get("total") or 0)
            if training["status"] == "scoring":  # the whole pool again: 45 s for 5,000 sentences on a CPU
                done, total = int(progress.get("done") or 0), int(progress.get("total") or 0)
                scored = progress.get("task") == "scoring" and total
                parts.append(self.tr("scoring with the new %1").replace("%1", method)
                             + (f" {done:,}/{total:,}" if scored else ""))
                bar = (done, total) if scored else (0, 0)
            elif training.get("waiting_for"):  # another training of the app has the turn (train/training_lock.py)
                parts.append(self.tr("waiting for %1 to finish").replace("%1", training_job_text(training["waiting_for"])))
                bar = (0, 0)
            else:
                parts.append(self.tr("training a %1 on %2 labels").replace("%1", method)
                             .replace("%2", str(training.get("labels", "?"))))
                bar = (step, total) if total else (0, 0)
        self.label.setText(self.tr("Assistant: %1").replace("%1", " · ".join(parts)))
        tip = str(training.get("reason") or status.get("waiting") or "")
        self.label.setToolTip(tip)
        self.bar.setVisible(bar is not None)
        if bar is not None:
            self.bar.setRange(0, bar[1])  # (0, 0): busy, length unknown
            self.bar.setValue(bar[0])
