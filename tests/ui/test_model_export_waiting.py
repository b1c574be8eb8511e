"""File > Export model as ONNX… while the app's background import of torch is still at work
(newcomer2 sweep, Defect 1): the export runs in a spawned child, so its job must not wait for that
import; the dialog says it is starting with a busy bar; quitting stops it without waiting for the import.
The exporter is replaced by a fake: these tests are about the job's start, not the export."""

from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Iterator

import pytest
from PySide6.QtWidgets import QProgressDialog

from bertstudio.ui import preload
from bertstudio.ui.model_export import export_onnx_action


@pytest.fixture
def import_in_progress(monkeypatch) -> Iterator[None]:
    """The preload thread at work: the heavy modules not all in, and the import lock held elsewhere."""
    monkeypatch.setattr(preload, "_ready", threading.Event())
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with preload.LOCK:
            held.set()
            release.wait(30)

    holder = threading.Thread(target=hold, name="fake-preload", daemon=True)
    holder.start()
    held.wait(5)
    yield
    release.set()
    holder.join(5)


@pytest.fixture
def fake_export(monkeypatch) -> SimpleNamespace:
    """export_onnx_apart replaced: it says it began, then waits for ``go`` (or a cancel) as the real one polls."""
    state = SimpleNamespace(began=threading.Event(), go=threading.Event())

    def export(model_dir: Path, out: Path, *, progress: Any, cancel: threading.Event) -> Any:
        state.began.set()
        while not (state.go.wait(0.02) or cancel.is_set()):
            pass
        if cancel.is_set():
            return None
        progress(0.5, "tracing the model")
        return SimpleNamespace(folder=Path(out))

    monkeypatch.setattr("bertstudio.train.onnx_export.export_onnx_apart", export)
    return state


@pytest.fixture
def window_with_run(main_window) -> Any:
    model = main_window.session.project.new_run_dir("tiny-full") / "model"
    model.mkdir()
    (model / "config.json").write_text("{}", encoding="utf-8")
    main_window.confirm_quit_during_jobs = lambda pushing, exporting: True  # the fixture's close never asks
    return main_window


def test_the_export_starts_while_torch_is_still_being_imported(qtbot, window_with_run, import_in_progress,
                                                               fake_export, tmp_path):
    window = window_with_run
    worker = export_onnx_action(window, target=tmp_path / "out")
    try:
        dialog = window.findChild(QProgressDialog, "onnxExportProgress")
        assert dialog.maximum() == 0 and "Starting the export" in dialog.labelText()  # busy, with a word
        assert fake_export.began.wait(5), "the export waited for the app's import of torch"
        fake_export.go.set()
        qtbot.waitUntil(lambda: getattr(window, "last_export", None) is not None, timeout=5_000)
        assert dialog.maximum() == 1000  # the first progress turned the busy bar into a measured one
    finally:
        fake_export.go.set()
        worker.cancel()


def test_quitting_stops_an_export_that_has_not_begun_without_waiting_for_the_import(qtbot, window_with_run,
                                                                                    import_in_progress,
                                                                                    fake_export, tmp_path):
    window = window_with_run
    worker = export_onnx_action(window, target=tmp_path / "out")
    assert window.close()  # "quit anyway?": yes (see window_with_run)
    # the import is still held: a job stuck behind it would keep the app's quit (ThreadJob.wait_all) waiting
    qtbot.waitUntil(lambda: not worker.is_running(), timeout=5_000)
    assert worker.wait(5_000)
