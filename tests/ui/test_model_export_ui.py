"""File > Export model as ONNX… and Push to Hugging Face Hub…, Tools > Learning curve…, on a real run
chosen on the Runs page (the Hub's network calls are recorded, not sent: there is no network here)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from helpers import sentiment_records
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialogButtonBox

pytest.importorskip("onnxscript", reason="the export extra is not installed")

from bertstudio.ui.model_export import chosen_run, export_onnx_action, push_to_hub_action  # noqa: E402



@pytest.fixture
def window(qtbot, tmp_path, tiny):
    """The main window over a project with one finished run (tiny model)."""
    from helpers import make_project

    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    project = make_project(tmp_path / "project", "sentence", ["neg", "pos"], {"train": sentiment_records(32, 0), "dev": sentiment_records(8, 1)})
    run_dir = project.new_run_dir("tiny-full")
    config = TrainConfig(task="sentence", model=tiny, epochs=1, lr=1e-3, batch_size=8, max_length=32,
                         labels=["neg", "pos"], output_dir=str(run_dir))
    assert train(config, project.examples("train"), project.examples("dev")).status == "finished"
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    w = MainWindow(session)
    qtbot.addWidget(w)
    w.show()
    w.pages["runs"].refresh()
    w.show_page("runs")
    w.pages["runs"].table.selectRow(0)
    yield w
    w.close()
    session.close()


class RecordingApi:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def whoami(self, token: str | None = None, **kw: Any) -> dict[str, Any]:
        return {"name": "me", "orgs": []}

    def create_repo(self, repo_id: str, **kw: Any) -> str:
        self.calls.append(("create_repo", {"repo_id": repo_id, **kw}))
        return f"https://huggingface.co/{repo_id}"

    def repo_info(self, repo_id: str, **kw: Any) -> Any:
        return type("Info", (), {"private": True})()

    def upload_folder(self, **kw: Any) -> str:
        self.calls.append(("upload_folder", {**kw, "files": sorted(p.name for p in Path(kw["folder_path"]).iterdir())}))
        return "commit"


def test_the_menus_offer_the_model_actions(window):
    for name in ("exportOnnxAction", "pushHubAction", "learningCurveAction"):
        assert isinstance(window.findChild(QAction, name), QAction), name
    assert chosen_run(window).name == "tiny-full"


STEPS = ["loading the model", "tracing the model (torch.onnx, dynamo)", "checking the export against PyTorch",
         "quantizing to int8", "writing the tokenizer, labels and predict.py", "moving the export into place", "done"]


def _shown_steps(monkeypatch) -> list[str]:
    """Every line the export's progress dialog shows, each step sent (no throttle)."""
    import functools

    from bertstudio.ui import model_export
    from bertstudio.ui.jobs import JobWorker

    shown: list[str] = []
    original = model_export._ExportProgress.on_progress

    def on_progress(self, fraction: float, message: str) -> None:
        original(self, fraction, message)
        shown.append(self.labelText())

    monkeypatch.setattr(model_export._ExportProgress, "on_progress", on_progress)
    monkeypatch.setattr(model_export, "JobWorker", functools.partial(JobWorker, throttle_s=0.0))
    return shown


def test_export_runs_on_a_worker_into_a_new_folder(qtbot, window, tmp_path, monkeypatch):
    target = tmp_path / "exports"
    target.mkdir()
    (target / "mine.txt").write_text("keep", encoding="utf-8")
    values: list[int] = []
    shown = _shown_steps(monkeypatch)
    worker = export_onnx_action(window, target=target)
    worker.progressed.connect(lambda f, _m: values.append(int(1000 * f)))
    qtbot.waitUntil(lambda: getattr(window, "last_export", None) is not None, timeout=180_000)
    out = window.last_export.folder
    assert out == target / "tiny-full-onnx"  # the chosen folder held a file: a new folder inside it
    assert (out / "model.onnx").is_file() and (out / "model.int8.onnx").is_file() and (out / "predict.py").is_file()
    assert (target / "mine.txt").read_text(encoding="utf-8") == "keep"
    assert values and values == sorted(values)
    assert "tiny-full-onnx" in window.statusBar().currentMessage()
    assert shown == STEPS  # in English, the child's steps as the CLI says them


def test_the_exports_steps_are_said_in_the_interfaces_language(qtbot, qapp, window, tmp_path, monkeypatch):
    """A drive in zh_CN showed the export child's steps in English ("tracing the model (torch.onnx,
    dynamo)"): each is said in Chinese (tool and file names aside)."""
    import re

    from bertstudio import app as app_module

    shown = _shown_steps(monkeypatch)
    installed = app_module.install_translators(qapp, "zh_CN")
    try:
        export_onnx_action(window, target=tmp_path / "zh")
        qtbot.waitUntil(lambda: getattr(window, "last_export", None) is not None, timeout=180_000)
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
    assert len(shown) == len(STEPS) and shown[0] == "正在加载模型" and shown[-1] == "完成"
    for line in shown:
        words = re.sub(r"ONNX|PyTorch|int8|predict\.py", "", line)
        assert re.search(r"[\u4e00-\u9fff]", line) and not re.search(r"[A-Za-z]{2,}", words), shown


def test_push_dialog_is_private_by_default_and_uses_the_typed_token(qtbot, window, monkeypatch):
    monkeypatch.setattr("huggingface_hub.get_token", lambda: None)
    monkeypatch.delenv("HF_TOKEN", raising=False)
    api = RecordingApi()
    dialog = push_to_hub_action(window, api=api)
    qtbot.addWidget(dialog)
    assert dialog.private.isChecked()
    assert "no cached login" in dialog.token.placeholderText()
    dialog.show()  # the hint says what to do (`hf auth login`): shown whole, not cut to "a write token (no cach…"
    qtbot.waitExposed(dialog)
    hint = dialog.token.fontMetrics().horizontalAdvance(dialog.token.placeholderText())
    assert dialog.token.width() > hint and "hf auth login" in dialog.token.toolTip()
    qtbot.keyClicks(dialog.repo, "me/reviews")
    with qtbot.waitSignal(dialog.failed, timeout=60_000):  # no token typed, none cached: refused
        qtbot.mouseClick(dialog.push_button, Qt.MouseButton.LeftButton)
    assert api.calls == [] and "token" in dialog.status.text()
    qtbot.keyClicks(dialog.token, "hf_typed")
    with qtbot.waitSignal(dialog.pushed, timeout=60_000):
        qtbot.mouseClick(dialog.push_button, Qt.MouseButton.LeftButton)
    create = dict(api.calls)["create_repo"]
    assert create["private"] is True and create["token"] == "hf_typed" and create["repo_id"] == "me/reviews"
    assert "README.md" in dict(api.calls)["upload_folder"]["files"]
    assert "huggingface.co/me/reviews" in dialog.status.text()


def _shown_push_lines(monkeypatch) -> list[str]:
    """Every line the push dialog's status shows while it pushes, each step sent (no throttle)."""
    import functools

    from bertstudio.ui import model_export
    from bertstudio.ui.jobs import JobWorker

    shown: list[str] = []
    original = model_export.PushToHubDialog._on_progress

    def on_progress(self, fraction: float, message: str) -> None:
        original(self, fraction, message)
        shown.append(self.status.text())

    monkeypatch.setattr(model_export.PushToHubDialog, "_on_progress", on_progress)
    monkeypatch.setattr(model_export, "JobWorker", functools.partial(JobWorker, throttle_s=0.0))
    return shown


ENGLISH_PUSH = [r"checking which files go up \(the model's own files; no links, no hidden files\)",
                r"loading the model as `bertstudio predict` would \(config, tokenizer, weights\) and predicting one "
                r"example", r"writing the model card", r"creating the repository",
                r"uploading \d+ files \(\d+\.\d MB\); left out: README\.md \(a generated model card goes up in its "
                r"place\); notes\.txt \(not model files\)", r"done"]


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_pushs_steps_are_said_in_the_interfaces_language(qtbot, qapp, window, monkeypatch, language):
    """A push in zh_CN showed train/hub.py's steps in English ("checking which files go up…",
    "uploading 9 files (0.4 MB); left out: …"): each is said in Chinese (file names, MB and the
    command aside); in English they are the lines the core (and the CLI) says."""
    import re

    from bertstudio import app as app_module

    model = chosen_run(window) / "model"
    (model / "README.md").write_text("# my notes\n", encoding="utf-8")
    (model / "notes.txt").write_text("mine\n", encoding="utf-8")
    monkeypatch.setattr("huggingface_hub.get_token", lambda: "hf_cached")
    shown = _shown_push_lines(monkeypatch)
    installed = app_module.install_translators(qapp, language) if language != "en" else []
    try:
        dialog = push_to_hub_action(window, api=RecordingApi())
        qtbot.addWidget(dialog)
        qtbot.keyClicks(dialog.repo, "me/reviews")
        with qtbot.waitSignal(dialog.pushed, timeout=60_000):
            dialog.push()
        result = re.sub(r"<a [^>]*>[^<]*</a>", "", dialog.status.text()).split("<br>")
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
    assert len(shown) == len(ENGLISH_PUSH), shown
    if language == "en":
        assert all(re.fullmatch(pattern, line) for pattern, line in zip(ENGLISH_PUSH, shown)), shown
        return
    assert shown[-1] == "完成" and "notes.txt" in shown[-2] and "README.md" in shown[-2]
    for line in shown + result:
        words = re.sub(r"README\.md|notes\.txt|MB|`bertstudio predict`", "", line)
        assert re.search(r"[\u4e00-\u9fff]", line) and not re.search(r"[A-Za-z]{2,}", words), (shown, result)


def _warned(monkeypatch) -> list[str]:
    from PySide6.QtWidgets import QMessageBox

    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text, *a: warned.append(text))
    return warned


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_an_export_refused_says_so_in_the_interfaces_language(qtbot, qapp, window, tmp_path, monkeypatch, language):
    """The "Export failed" box said the core's English ("…: … is a file, so no folder can be made
    inside it (expected …)") inside a Chinese window: a known refusal is said from its facts."""
    import re

    from bertstudio import app as app_module

    warned = _warned(monkeypatch)
    chosen = tmp_path / "a-file"
    chosen.write_text("mine", encoding="utf-8")
    installed = app_module.install_translators(qapp, language) if language != "en" else []
    try:
        export_onnx_action(window, target=chosen)
        qtbot.waitUntil(lambda: bool(warned), timeout=60_000)
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
    assert chosen.read_text(encoding="utf-8") == "mine"
    if language == "en":
        assert warned == [f"{chosen} is a file, so no folder can be made inside it: choose another folder."]
    else:
        assert warned == [f"{chosen} 是一个文件，无法在其中创建文件夹：请选择另一个文件夹。"]
        assert not re.search(r"[A-Za-z]{2,}", warned[0].replace(str(chosen), ""))


def test_the_export_childs_refusal_is_said_in_the_interfaces_language(qtbot, qapp, window, tmp_path, monkeypatch):
    """The child's error came back without its facts, so its refusal stayed English in zh_CN: a file
    that appears in the folder after the app's check is refused by the child, in Chinese."""
    from bertstudio import app as app_module
    from bertstudio.train import onnx_export

    checked = onnx_export.check_target

    def check_then_fill(out_dir: Any, model_dir: Any = None) -> Path:  # the app's own check, in this process
        out = checked(out_dir, model_dir)
        out.mkdir(parents=True, exist_ok=True)
        (out / "late.txt").write_text("appeared", encoding="utf-8")
        return out

    monkeypatch.setattr(onnx_export, "check_target", check_then_fill)
    warned = _warned(monkeypatch)
    installed = app_module.install_translators(qapp, "zh_CN")
    try:
        export_onnx_action(window, target=tmp_path / "late")
        qtbot.waitUntil(lambda: bool(warned), timeout=120_000)
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
    assert warned == [f"导出文件夹 {tmp_path / 'late'} 不是空的，而导出从不覆盖文件：请选择一个新的或空的文件夹。"]
    assert (tmp_path / "late" / "late.txt").read_text(encoding="utf-8") == "appeared"


def test_learning_curve_opens_over_the_train_page_settings(qtbot, window):
    window.findChild(QAction, "learningCurveAction").trigger()
    dialog = window.learning_curve_dialog
    assert dialog.isVisible() and dialog.panel.start_button.isEnabled()
    config = dialog.panel.config_factory()
    assert config.task == "sentence"
    # under Automatic (the default preset) each share is given Automatic's choice for its own rows
    form = window.pages["train"].form
    assert form.is_auto() and dialog.panel.automatic_factory() == frozenset()
    form.set_auto(False)
    assert dialog.panel.automatic_factory() is None  # the person's settings, as they are, for every share
    dialog.close()


class GatedApi(RecordingApi):
    """Holds the push in whoami (before anything is created) or in upload_folder until released."""

    def __init__(self, hold: str) -> None:
        super().__init__()
        self.hold, self.entered, self.release = hold, threading.Event(), threading.Event()

    def _gate(self, name: str) -> None:
        if name == self.hold:
            self.entered.set()
            self.release.wait(30)

    def whoami(self, token: str | None = None, **kw: Any) -> dict[str, Any]:
        self._gate("whoami")
        return super().whoami(token)

    def upload_folder(self, **kw: Any) -> str:
        self._gate("upload_folder")
        return super().upload_folder(**kw)


def _pushing(qtbot, window, api: GatedApi, monkeypatch) -> Any:
    monkeypatch.setattr("huggingface_hub.get_token", lambda: "hf_cached")
    dialog = push_to_hub_action(window, api=api)
    qtbot.keyClicks(dialog.repo, "me/reviews")
    dialog.push()
    qtbot.waitUntil(api.entered.is_set, timeout=60_000)
    return dialog


def test_closing_the_dialog_before_the_upload_cancels_the_push(qtbot, window, monkeypatch):
    """Close during a push closed the dialog while the push went on, and its outcome was never shown."""
    api = GatedApi("whoami")
    dialog = _pushing(qtbot, window, api, monkeypatch)
    asked: list[bool] = []
    dialog.confirm_close_while_pushing = lambda uploading: asked.append(uploading) or False
    dialog.reject()  # "No": the dialog stays and the push goes on
    assert dialog.isVisible() and not dialog.worker.cancel_event.is_set()
    dialog.confirm_close_while_pushing = lambda uploading: asked.append(uploading) or True
    worker = dialog.worker
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert asked == [False, False] and worker.cancel_event.is_set()
    api.release.set()
    qtbot.waitUntil(lambda: "cancelled" in window.statusBar().currentMessage(), timeout=30_000)
    assert "upload_folder" not in [name for name, _ in api.calls]


def test_a_push_closed_during_its_upload_says_its_outcome_in_the_status_bar(qtbot, window, monkeypatch):
    api = GatedApi("upload_folder")
    dialog = _pushing(qtbot, window, api, monkeypatch)
    qtbot.waitUntil(lambda: dialog.gate.began, timeout=10_000)
    asked: list[bool] = []
    dialog.confirm_close_while_pushing = lambda uploading: asked.append(uploading) or True
    worker = dialog.worker
    dialog.buttons.button(QDialogButtonBox.StandardButton.Close).click()
    assert asked == [True] and not worker.cancel_event.is_set()  # an upload that has begun cannot be stopped
    api.release.set()
    qtbot.waitUntil(lambda: "huggingface.co/me/reviews" in window.statusBar().currentMessage(), timeout=30_000)


class TwoGates(RecordingApi):
    """Holds the push in whoami and again in upload_folder, each until released."""

    def __init__(self) -> None:
        super().__init__()
        self.in_whoami, self.go_whoami = threading.Event(), threading.Event()
        self.in_upload, self.go_upload = threading.Event(), threading.Event()
        self.entered = self.in_whoami

    def whoami(self, token: str | None = None, **kw: Any) -> dict[str, Any]:
        self.in_whoami.set()
        self.go_whoami.wait(30)
        return super().whoami(token)

    def upload_folder(self, **kw: Any) -> str:
        self.in_upload.set()
        self.go_upload.wait(30)
        return super().upload_folder(**kw)


def test_an_upload_that_began_while_the_close_question_was_open_is_not_said_to_be_cancelled(qtbot, window, monkeypatch):
    """Yes to "Cancel it? Nothing has been uploaded yet", answered after the upload had begun behind
    the modal question: the cancel was silently ignored (or, with the progress held back, set too late)
    and the model went up although the user had agreed to cancel."""
    api = TwoGates()
    dialog = _pushing(qtbot, window, api, monkeypatch)
    worker, asked = dialog.worker, []

    def user_thinks(uploading: bool) -> bool:
        asked.append(uploading)
        if len(asked) == 1:
            api.go_whoami.set()  # the network answers while the question is on screen
            qtbot.waitUntil(api.in_upload.is_set, timeout=30_000)
        return True

    dialog.confirm_close_while_pushing = user_thinks
    dialog.reject()
    assert asked == [False, True]  # asked again, in the words that are now true
    assert not worker.cancel_event.is_set() and not dialog.isVisible()
    api.go_upload.set()
    qtbot.waitUntil(lambda: "huggingface.co/me/reviews" in window.statusBar().currentMessage(), timeout=30_000)


def test_a_cancel_during_whoami_creates_no_repository(qtbot, window, monkeypatch):
    """Cancelled while whoami waited: create_repo still ran, leaving an empty repository behind
    a "nothing was uploaded"."""
    api = TwoGates()
    dialog = _pushing(qtbot, window, api, monkeypatch)
    dialog.confirm_close_while_pushing = lambda uploading: True
    dialog.reject()
    api.go_whoami.set()
    api.go_upload.set()
    qtbot.waitUntil(lambda: "cancelled" in window.statusBar().currentMessage(), timeout=30_000)
    assert [name for name, _ in api.calls] == []
    assert "created" not in window.statusBar().currentMessage()


def test_quitting_during_a_push_asks_first(qtbot, window, monkeypatch):
    """MainWindow.close() returned True at once mid-push; the app then waited on the upload unseen."""
    api = GatedApi("upload_folder")
    dialog = _pushing(qtbot, window, api, monkeypatch)
    asked: list[tuple[bool, bool]] = []
    window.confirm_quit_during_jobs = lambda pushing, exporting: asked.append((pushing, exporting)) or False
    try:
        assert not window.close() and window.isVisible()
        assert asked == [(True, False)]
    finally:
        api.release.set()
    qtbot.waitUntil(lambda: not dialog.worker.is_running(), timeout=30_000)


def test_the_run_name_and_the_error_are_shown_as_text(qtbot, window, tmp_path):
    """A run folder named <h1 style=...> was shown as big red text, a long name widened the dialog
    past the screen, and an error's markup-like text was read as markup."""
    from bertstudio.ui.model_export import PushToHubDialog

    odd = tmp_path / '<h1 style="color:red">BIG <u>run'  # copied into runs/ by hand, or made by the CLI
    dialog = PushToHubDialog(odd, window, api=RecordingApi())
    qtbot.addWidget(dialog)
    label = dialog.findChild(type(dialog.status), "hubRunName")
    assert label.textFormat() == Qt.TextFormat.PlainText and label.text().startswith("<h1")
    long = PushToHubDialog(tmp_path / ("长" * 77), window, api=RecordingApi())
    qtbot.addWidget(long)
    assert long.sizeHint().width() < 800
    dialog._on_failed("me/x: the upload failed: <b>401</b> Unauthorized")
    assert "&lt;b&gt;401" in dialog.status.text()


def test_quitting_cancels_a_push_only_once_every_question_was_answered_yes(qtbot, window, monkeypatch):
    """Yes to the push question, then No to "stop training and quit?": the app stayed with its push
    already cancelled, and the "asked" flag stuck, so a later quit closed with no question at all."""
    api = TwoGates()
    dialog = _pushing(qtbot, window, api, monkeypatch)
    worker, train = dialog.worker, window.pages["train"]
    monkeypatch.setattr(train, "is_running", lambda: True, raising=False)
    asked: list[tuple[bool, bool]] = []
    window.confirm_quit_during_jobs = lambda pushing, exporting: asked.append((pushing, exporting)) or True
    window.confirm_stop_training = lambda: False  # "No: keep training": the app stays open
    try:
        assert not window.close()
        assert not worker.cancel_event.is_set()
        monkeypatch.setattr(train, "is_running", lambda: False, raising=False)
        window.confirm_quit_during_jobs = lambda pushing, exporting: asked.append((pushing, exporting)) or False
        assert not window.close()  # asked again, and No keeps the app and the push
        assert asked == [(True, False), (True, False)] and not worker.cancel_event.is_set()
    finally:
        api.go_whoami.set()
        api.go_upload.set()
    qtbot.waitUntil(lambda: not worker.is_running(), timeout=30_000)


def test_a_second_push_does_not_hide_the_first_from_the_quit_question(qtbot, window, monkeypatch):
    """window.push_worker named only the latest push: a first one still uploading in the background
    was not asked about once a second push had ended."""
    first = TwoGates()
    dialog = _pushing(qtbot, window, first, monkeypatch)
    second = push_to_hub_action(window, api=RecordingApi())
    qtbot.keyClicks(second.repo, "not a repo id")
    later = second.push()
    qtbot.waitUntil(lambda: not later.is_running(), timeout=30_000)
    asked: list[tuple[bool, bool]] = []
    window.confirm_quit_during_jobs = lambda pushing, exporting: asked.append((pushing, exporting)) or False
    try:
        assert not window.close() and asked == [(True, False)]
    finally:
        first.go_whoami.set()
        first.go_upload.set()
    qtbot.waitUntil(lambda: not dialog.worker.is_running(), timeout=30_000)


def test_on_the_playground_the_run_tried_there_is_exported(window):
    """The Playground picked an older run: File > Export and Push to Hub exported the newest one instead."""
    import os
    import shutil
    import time

    first = chosen_run(window)
    newer = first.parent / "tiny-newer"
    shutil.copytree(first, newer)
    later = time.time() + 5
    os.utime(newer, (later, later))
    page = window.pages["playground"]
    page.refresh_runs()
    window.show_page("playground")
    older = page.run_index(first)
    assert older >= 0 and page.run_index(newer) >= 0
    page.run_combo.setCurrentIndex(older)
    assert chosen_run(window) == first
    page.run_combo.setCurrentIndex(page.run_index(newer))
    assert chosen_run(window) == newer
