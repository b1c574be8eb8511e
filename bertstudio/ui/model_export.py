"""File > Export model as ONNX… and File > Push to Hugging Face Hub…, for one run.

The run is the one chosen on the Runs page (the first selected), picked on the Playground
(while it is the current page) or shown on the Results page, else the project's newest run with a model. Both jobs run on a
:class:`~bertstudio.ui.jobs.JobWorker` with a progress bar; the core does the work
(:mod:`bertstudio.train.onnx_export`, :mod:`bertstudio.train.hub`). The export never
writes into a folder that holds files: a chosen non-empty folder gets a new
``<run>-onnx`` folder inside it. A push is private unless the box is unchecked, and
without a typed token it uses the cached ``hf auth login``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QLabel, QLineEdit, QMessageBox, QProgressDialog,
    QProgressBar, QVBoxLayout, QWidget,
)

from bertstudio.ui.jobs import JobWorker


def _t(text: str) -> str:
    # no context: lupdate files a module-level _t("...") there (scripts/update_translations.py)
    return QCoreApplication.translate("", text)


def chosen_run(window: Any) -> Path | None:
    """The run the user is looking at: selected on Runs, tried on the Playground, shown on Results,
    else the newest with a model."""
    runs_page, results = window.pages.get("runs"), window.pages.get("results")
    selected = getattr(runs_page, "selected_runs", lambda: [])()
    current = window.current_page_key()
    if current == "runs" and selected:
        return Path(selected[0].folder)
    # the model tried on the Playground is the one to ship, not the Results page's or the newest
    tried = getattr(window.pages.get("playground"), "current_run", lambda: None)()
    if current == "playground" and tried:
        return Path(tried)
    shown = getattr(results, "run_dir", None)
    if shown is not None and (Path(shown) / "model" / "config.json").is_file():
        return Path(shown)
    if selected:
        return Path(selected[0].folder)
    project = window.session.project
    from bertstudio.train.seeds import with_job_runs

    runs = with_job_runs(project.list_runs()) if project is not None else []  # a seeds/glue job's runs too
    with_model = [r for r in runs if (r / "model" / "config.json").is_file()]
    return max(with_model, key=lambda r: r.stat().st_mtime) if with_model else None


def _run_or_say(window: Any) -> Path | None:
    run = chosen_run(window)
    if run is None or not (run / "model" / "config.json").is_file():
        QMessageBox.information(window, _t("No model"),
                                _t("Choose a finished run on the Runs or Results page first."))
        return None
    return run


def free_folder(chosen: Path, name: str) -> Path:
    """``chosen`` when it is empty or new, else a new ``name``, ``name-2``… inside it."""
    if not chosen.exists() or (chosen.is_dir() and not any(chosen.iterdir())):
        return chosen
    target, n = chosen / name, 2
    while target.exists():
        target, n = chosen / f"{name}-{n}", n + 1
    return target


def export_onnx_action(window: Any, target: str | Path | None = None) -> JobWorker | None:
    """Export the chosen run's model; ``target`` skips the folder question (tests, scripts)."""
    from bertstudio.train.onnx_export import export_onnx_apart

    run = _run_or_say(window)
    if run is None:
        return None
    if target is None:
        picked = QFileDialog.getExistingDirectory(window, _t("Export the model of run {run} as ONNX into folder").format(
            run=run.name), str(run))  # which run: the one selected on the Runs or Results page, else the newest
        if not picked:
            return None
        target = picked
    out = free_folder(Path(target), f"{run.name}-onnx")
    progress = _ExportProgress(window, _t("Exporting {run} to ONNX…").format(run=run.name))
    # in a child process: the exporter's C calls hold the GIL for up to 0.9 s each (train/onnx_export.py).
    # Not heavy: this thread only starts the child and reads its queue (no torch here); heavy, it waited
    # minutes behind the app's background import of torch with an empty bar, and a quit waited on it too
    worker = JobWorker(lambda report, cancel: export_onnx_apart(
        run / "model", out, progress=lambda f, step: report(f, export_step_text(step)), cancel=cancel),
        name="bertstudio-onnx-export")
    # bound methods of GUI-thread objects: Qt queues progress (emitted on the job's thread) to the GUI thread
    worker.progressed.connect(progress.on_progress)
    worker.finished.connect(progress.on_done)
    worker.failed.connect(progress.on_failed)
    progress.job = worker  # its failure_facts: the box says a known refusal in the UI's language
    worker.cancelled.connect(progress.close)
    # the flag itself, thread-safe and no Qt slot (a slot of an object that lived on the job thread once
    # froze the GUI while that object was destroyed there)
    progress.canceled.connect(worker.cancel_event.set)
    worker.start()
    progress.show()
    window.track_job("export", worker)
    from bertstudio.ui.run_delete import record_run_job

    if getattr(window, "session", None) is not None:
        record_run_job(window.session, "export", run, worker)  # Delete run and Rename wait for it
    return worker


def export_step_text(step: Any) -> str:
    """An export's step (train/onnx_export.ExportStep) in the UI's language, the English as the core
    says it; called on the job's thread (QCoreApplication.translate is thread-safe). Anything else
    is shown as it is."""
    texts = {"loading": QCoreApplication.translate("_ExportProgress", "loading the model"),
             "tracing": QCoreApplication.translate("_ExportProgress", "tracing the model (torch.onnx, dynamo)"),
             "checking": QCoreApplication.translate("_ExportProgress", "checking the export against PyTorch"),
             "quantizing": QCoreApplication.translate("_ExportProgress", "quantizing to int8"),
             "writing": QCoreApplication.translate("_ExportProgress", "writing the tokenizer, labels and predict.py"),
             "moving": QCoreApplication.translate("_ExportProgress", "moving the export into place"),
             "done": QCoreApplication.translate("_ExportProgress", "done")}
    return texts.get(getattr(step, "step", None), str(step))  # type: ignore[arg-type]


# An export's refusals (their error's facts: train/onnx_export.check_target, data/atomic's
# check_folder_path) in the UI's words, each filled from the facts' folder, parent and model
_EXPORT_REFUSALS = {
    "folder_is_file": QT_TRANSLATE_NOOP("_ExportProgress", "{folder} is a file, not a folder: choose a new folder "
                                        "or an existing one."),
    "parent_is_file": QT_TRANSLATE_NOOP("_ExportProgress", "{parent} is a file, so no folder can be made inside "
                                        "it: choose another folder."),
    "folder_not_writable": QT_TRANSLATE_NOOP("_ExportProgress", "No permission to write in {folder}: choose a folder "
                                             "you can write in."),
    "parent_not_writable": QT_TRANSLATE_NOOP("_ExportProgress", "No permission to create a folder in {parent}: choose "
                                             "a folder you can write in."),
    "export_not_empty": QT_TRANSLATE_NOOP("_ExportProgress", "The export folder {folder} is not empty, and an export "
                                          "never overwrites files: choose a new or empty folder."),
    "export_in_model": QT_TRANSLATE_NOOP("_ExportProgress", "The export folder {folder} is inside the model folder "
                                         "{model}: choose a folder outside it."),
}


def export_refusal(facts: dict[str, Any]) -> str | None:
    """An export's refusal (from the export's child too) in the UI's language; None for one not known
    here, shown as the core wrote it (the "Export failed" box said them in English in zh_CN)."""
    text = _EXPORT_REFUSALS.get(facts.get("refusal"))  # type: ignore[arg-type]
    if text is None:
        return None
    return QCoreApplication.translate("_ExportProgress", text).format(
        **{key: facts.get(key, "") for key in ("folder", "parent", "model")})


class _ExportProgress(QProgressDialog):
    def __init__(self, window: Any, text: str) -> None:
        # busy until the child's first word: it starts a Python and imports torch first (seconds, a
        # minute on a loaded machine), and an empty bar under "Exporting…" looked hung
        super().__init__(text + "\n" + QCoreApplication.translate("_ExportProgress", "Starting the export…"),
                         QCoreApplication.translate("_ExportProgress", "Cancel"), 0, 0, window)
        self.setObjectName("onnxExportProgress")
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.setMinimumDuration(0)
        self.window_ = window
        self.job: JobWorker | None = None

    def on_progress(self, fraction: float, message: str) -> None:
        if self.maximum() == 0:  # the first progress: the busy bar becomes a measured one
            self.setRange(0, 1000)
        self.setValue(int(1000 * fraction))
        self.setLabelText(message)

    def on_done(self, result: Any) -> None:
        self.close()
        self.window_.statusBar().showMessage(self.tr("Exported to %1").replace("%1", str(result.folder)), 10_000)
        self.window_.last_export = result  # for scripts and tests: where it went

    def on_failed(self, message: str) -> None:
        self.close()
        facts = getattr(self.job, "failure_facts", None) or {}
        QMessageBox.warning(self.window_, self.tr("Export failed"), export_refusal(facts) or message)


class PushToHubDialog(QDialog):
    pushed = Signal(str)  # the repository's URL
    failed = Signal(str)

    def __init__(self, run: Path, parent: QWidget | None = None, *, api: Any = None) -> None:
        super().__init__(parent)
        self.setObjectName("pushToHubDialog")
        self.setWindowTitle(self.tr("Push to Hugging Face Hub"))
        self.run, self.api = Path(run), api
        self.worker: JobWorker | None = None
        self.repo = QLineEdit(objectName="hubRepoId", placeholderText=self.tr("user/model-name"))
        self.private = QCheckBox(self.tr("Private repository"), objectName="hubPrivate", checked=True)
        self.token = QLineEdit(objectName="hubToken", echoMode=QLineEdit.EchoMode.Password)
        self.token.setPlaceholderText(self._cached_login_text())
        self.token.setToolTip(self.token.placeholderText())
        # the hint says what to do (`hf auth login`); a default-width field cut it to "a write token (no cach…"
        self.token.setMinimumWidth(self.token.fontMetrics().horizontalAdvance(self.token.placeholderText()) + 24)
        self.progress = QProgressBar(objectName="hubProgress", maximum=1000, visible=False)
        self.status = QLabel(objectName="hubStatus", wordWrap=True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.status.setOpenExternalLinks(True)
        form = QFormLayout()
        form.addRow(self.tr("Run"), self._run_label(self.run.name))
        form.addRow(self.tr("Repository"), self.repo)
        form.addRow("", self.private)
        form.addRow(self.tr("Token"), self.token)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.push_button = self.buttons.addButton(self.tr("Push"), QDialogButtonBox.ButtonRole.ActionRole)  # stays open to show the result
        self.push_button.setObjectName("hubPushButton")
        self.push_button.clicked.connect(self.push)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Uploads the run's model with a model card (its data, settings and metrics)."),
                                wordWrap=True))
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)

    def _run_label(self, name: str) -> QLabel:
        """The run's name as text, never markup (a folder named "<h1>…" copied into runs/), cut in the
        middle to a width that keeps the dialog on a small screen (a 77-character CJK name made it
        1016 px wide); the tooltip has it whole."""
        label = QLabel(objectName="hubRunName", textFormat=Qt.TextFormat.PlainText)
        label.setText(label.fontMetrics().elidedText(name, Qt.TextElideMode.ElideMiddle, 360))
        label.setToolTip("<qt>" + _plain(name) + "</qt>")  # escaped inside rich text: shown as typed
        return label

    def _cached_login_text(self) -> str:
        from huggingface_hub import get_token

        if get_token():
            return self.tr("empty: use the cached Hugging Face login")
        return self.tr("a write token (no cached login found: `hf auth login`)")

    def push(self) -> JobWorker | None:
        from bertstudio.train.hub import UploadGate, push_to_hub

        if self.worker is not None and self.worker.is_running():
            return None
        repo, token, private, api = self.repo.text().strip(), self.token.text().strip() or None, self.private.isChecked(), self.api
        run = self.run
        gate = UploadGate()  # a cancel and the upload's start, decided one at a time (see reject)
        worker = JobWorker(lambda report, cancel: push_to_hub(
            run, repo, token=token, private=private, api=api, progress=lambda f, step: report(f, push_step_text(step)),
            cancel=gate), name="bertstudio-hub-push")
        gate.cancel_event = worker.cancel_event  # the worker's flag: its outcome is "cancelled" when set
        worker.progressed.connect(self._on_progress)  # bound methods: queued to the GUI thread
        worker.finished.connect(self._on_pushed)
        worker.failed.connect(self._on_failed)
        worker.cancelled.connect(self._on_cancelled)
        window = self.parentWidget()
        if window is not None and hasattr(window, "statusBar"):  # the outcome outlives a dialog closed mid-push
            _report_outcome(window, worker, repo, gate)
            window.track_job("push", worker)  # the main window asks before quitting while it runs
            from bertstudio.ui.run_delete import record_run_job

            if getattr(window, "session", None) is not None:
                record_run_job(window.session, "push", run, worker)  # Delete run and Rename wait for it
        self.repo_id, self.gate = repo, gate
        self.worker = worker
        self.push_button.setEnabled(False)
        self.progress.setVisible(True)
        worker.start()
        return worker

    def _on_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(1000 * fraction))
        self.status.setText(_plain(message))  # the label is rich text (for the link): names and paths are not

    def reject(self) -> None:
        """Close, Esc or the title bar's close while a push runs: asks first. Before the upload has
        begun, closing cancels the push; once it has begun it cannot be stopped and goes on in the
        background (its outcome reaches the main window's status bar). What is done follows the state
        after the answer: the question is modal, and the upload may begin while it is on screen; then
        the question is asked again in the words that are now true."""
        if self.worker is not None and self.worker.is_running():
            began = self.gate.began
            if not self.confirm_close_while_pushing(began):
                return
            if not began and self.worker.is_running() and not self.gate.try_cancel():  # it began meanwhile
                if not self.confirm_close_while_pushing(True):
                    return
        super().reject()

    def confirm_close_while_pushing(self, uploading: bool) -> bool:
        """Whether to close the dialog during a push (tests replace this to answer for the user)."""
        if uploading:
            text = self.tr("The upload to {repo} has begun and cannot be stopped. Close this window and let it "
                           "finish in the background? Its outcome will show in the status bar.")
        else:
            text = self.tr("A push to {repo} is in progress. Cancel it and close this window? Nothing has been "
                           "uploaded yet.")
        answer = QMessageBox.question(self, self.tr("Push in progress"), text.format(repo=self.repo_id),
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def _on_cancelled(self) -> None:
        self.push_button.setEnabled(True)
        self.progress.setVisible(False)
        if self.gate.created:
            self.status.setText(self.tr("Push cancelled: nothing was uploaded, but the repository {repo} was created "
                                        "and is empty.").format(repo=_plain(self.repo_id)))
        else:
            self.status.setText(self.tr("Push cancelled: nothing was uploaded."))

    def _on_pushed(self, result: Any) -> None:
        from html import escape

        from bertstudio.train.hub import README

        self.push_button.setEnabled(True)
        self.progress.setValue(self.progress.maximum())
        url = escape(result.url)
        lines = [self.tr("Uploaded {n} files ({mb} MB) to <a href=\"{u}\">{u}</a>.").format(
            n=result.files, mb=f"{result.size / 1e6:.1f}", u=url)]
        others = [p for p in result.left_out if p != README]
        if README in result.left_out:
            lines.append(self.tr("Left out: the folder's README.md (a generated model card went up in its place)."))
        if others:
            names = ", ".join(p.as_posix() for p in others[:12]) + ("…" if len(others) > 12 else "")
            lines.append(self.tr("Left out: {names} (not model files).").format(names=escape(names)))
        self.status.setText("<br>".join(lines))
        self.adjustSize()
        self.pushed.emit(result.url)

    def _on_failed(self, message: str) -> None:
        self.push_button.setEnabled(True)
        self.progress.setVisible(False)
        self.status.setText(self.tr("Not pushed: {m}").format(m=_plain(message)))
        self.adjustSize()  # the wrapped label grows the dialog: the cause is at the end of the message
        self.failed.emit(message)


def push_step_text(step: Any) -> str:
    """A push's step (train/hub.PushStep) in the UI's language, the English as the core says it;
    called on the job's thread (QCoreApplication.translate is thread-safe). Anything else is shown
    as it is."""
    what = getattr(step, "step", None)
    if what == "checking_onnx":
        return QCoreApplication.translate("PushToHubDialog", "loading {file} as `bertstudio predict` would and "
                                                             "predicting one example").format(file=step.file)
    if what == "uploading":
        return _uploading_text(step.count, step.size, list(step.left_out))
    texts = {"files": QCoreApplication.translate("PushToHubDialog", "checking which files go up (the model's own "
                                                                    "files; no links, no hidden files)"),
             "checking_model": QCoreApplication.translate("PushToHubDialog", "loading the model as `bertstudio "
                                                          "predict` would (config, tokenizer, weights) and predicting "
                                                          "one example"),
             "card": QCoreApplication.translate("PushToHubDialog", "writing the model card"),
             "creating": QCoreApplication.translate("PushToHubDialog", "creating the repository"),
             "done": QCoreApplication.translate("PushToHubDialog", "done")}
    return texts.get(what, str(step))  # type: ignore[arg-type]


def _uploading_text(count: int, size: int, left_out: list[Path]) -> str:
    """The upload's line (train/hub.left_out_text's facts: the folder's README.md, the other files
    that stay home), whole sentences for the translator."""
    from bertstudio.train.hub import README

    mb = f"{size / 1e6:.1f}"
    others = [p for p in left_out if p != README]
    names = ", ".join(p.as_posix() for p in others[:12])
    if len(others) > 12:
        names = QCoreApplication.translate("PushToHubDialog", "{names} and {n} more").format(names=names,
                                                                                           n=len(others) - 12)
    if README in left_out and others:
        text = QCoreApplication.translate("PushToHubDialog", "uploading {count} files ({mb} MB); left out: README.md "
                                          "(a generated model card goes up in its place); {names} (not model files)")
    elif README in left_out:
        text = QCoreApplication.translate("PushToHubDialog", "uploading {count} files ({mb} MB); left out: README.md "
                                          "(a generated model card goes up in its place)")
    elif others:
        text = QCoreApplication.translate("PushToHubDialog", "uploading {count} files ({mb} MB); left out: {names} "
                                          "(not model files)")
    else:
        text = QCoreApplication.translate("PushToHubDialog", "uploading {count} files ({mb} MB)")
    return text.format(count=count, mb=mb, names=names)


def _plain(text: str) -> str:
    from html import escape

    return escape(text, quote=False)  # a rich-text label needs only < > & escaped


def _report_outcome(window: Any, worker: JobWorker, repo: str, gate: Any) -> None:
    """The push's outcome in the main window's status bar, connected to the window's bar rather than
    to the dialog, which may have been closed (and deleted) mid-push."""
    bar = window.statusBar()

    def cancelled() -> None:
        text = (_t("Push to {repo} cancelled: the repository was created and is empty") if gate.created
                else _t("Push to {repo} cancelled"))
        bar.showMessage(text.format(repo=repo), 15_000)

    worker.finished.connect(lambda result: bar.showMessage(_t("Pushed to {url}").format(url=result.url), 15_000))
    worker.failed.connect(lambda message: bar.showMessage(_t("Not pushed: {m}").format(m=message), 15_000))
    worker.cancelled.connect(cancelled)


def push_to_hub_action(window: Any, *, api: Any = None) -> PushToHubDialog | None:
    run = _run_or_say(window)
    if run is None:
        return None
    dialog = PushToHubDialog(run, window, api=api)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
