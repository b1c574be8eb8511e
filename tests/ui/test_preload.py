"""Heavy imports happen off the GUI thread: opening a project in the window imports no torch,
and the preload thread brings in what a first run needs."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

from bertstudio.ui.preload import HEAVY_MODULES, preload


def test_window_with_a_project_does_not_import_torch_on_the_gui_thread(tmp_path):
    # A fresh interpreter: this test process has long imported torch through other tests.
    script = textwrap.dedent(f"""
        import os, sys
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from PySide6.QtCore import QSettings
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from bertstudio.data.examples import from_records
        from bertstudio.data.project import Project
        from bertstudio.ui.main_window import MainWindow
        from bertstudio.ui.session import ProjectSession
        p = Project.create(r"{tmp_path / 'p'}", name="x", kind="sentence", labels=["neg", "pos"])
        p.import_examples(from_records("sentence", [{{"text": "good", "label": "pos"}}], labels=["neg", "pos"]), "train")
        w = MainWindow(ProjectSession(p, settings=QSettings(r"{tmp_path / 's.ini'}", QSettings.Format.IniFormat)))
        w.show()
        app.processEvents()
        label = w.pages["train"].params_label.text()
        print("torch" in sys.modules, "transformers" in sys.modules, label == "")
        w.session.close()
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    # no torch/transformers: the Train page counts parameters (with torch, on a worker thread)
    # only once it is seen
    assert out.stdout.split()[-3:] == ["False", "False", "True"]


def test_preload_imports_and_reports_failures_without_raising(caplog):
    took = preload(("json", "bertstudio.no_such_module"))
    assert set(took) == {"json"} and took["json"] >= 0
    assert any("bertstudio.no_such_module" in r.getMessage() for r in caplog.records)
    assert {"torch", "transformers", "peft", "bertstudio.train.engine"} <= set(HEAVY_MODULES)


def test_main_window_starts_the_preload_thread(qtbot, main_window, monkeypatch):
    from bertstudio.ui import preload as preload_module

    calls: list[tuple[str, ...]] = []

    def fake_background(modules=HEAVY_MODULES):
        calls.append(modules)
        thread = threading.Thread(target=lambda: None)
        thread.start()
        return thread

    monkeypatch.setattr(preload_module, "preload_in_background", fake_background)
    main_window.start_preload(0)
    qtbot.waitUntil(lambda: main_window.preload_thread is not None)
    assert calls == [HEAVY_MODULES]
