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
        import os, sys, threading, traceback
        os.environ["QT_QPA_PLATFORM"] = "offscreen"

        class WhoImports:  # the threads that execute torch's / transformers' import
            seen = set()
            def find_spec(self, name, path=None, target=None):
                probing = any(f.name == "find_spec" and "importlib" in f.filename for f in traceback.extract_stack()[:-1])
                if name in ("torch", "transformers") and not probing:  # datasets only probes with find_spec
                    self.seen.add((name, threading.current_thread() is threading.main_thread()))
                return None
        sys.meta_path.insert(0, WhoImports())
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
        on_gui = sorted(name for name, main in WhoImports.seen if main)
        print("gui-thread-imports:" + ",".join(on_gui), label == "")
        w.session.close()
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    # torch and transformers come in on background threads only (the preload, the assistant's
    # import), and the Train page counts parameters (with torch, on a worker) only once it is seen
    assert out.stdout.split()[-2:] == ["gui-thread-imports:", "True"]


_HEAVY_ON_GUI_THREAD = textwrap.dedent("""
    import os, sys, threading, traceback
    os.environ.update(QT_QPA_PLATFORM="offscreen", HF_HUB_OFFLINE="1")

    WATCHED = ("torch", "transformers", "setfit", "bertstudio.assist.assistant", "bertstudio.assist.encoder")

    class WhoImports:  # the watched modules whose import the GUI (main) thread executes
        seen = set()
        def find_spec(self, name, path=None, target=None):
            probing = any(f.name == "find_spec" and "importlib" in f.filename for f in traceback.extract_stack()[:-1])
            if name in WATCHED and not probing and threading.current_thread() is threading.main_thread():
                self.seen.add(name)
            return None
    sys.meta_path.insert(0, WhoImports())
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from bertstudio.data.examples import from_records
    from bertstudio.data.project import Project
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    def said(step):
        app.processEvents()
        print(step + ":" + ",".join(sorted(WhoImports.seen)))
        WhoImports.seen.clear()

    def opened(folder, assistant):
        p = Project.create(folder + "/p", name="x", kind="sentence", labels=["neg", "pos"])
        p.import_examples(from_records("sentence", [{"text": "good", "label": "pos"}, {"text": "bad", "label": None}],
                                       labels=["neg", "pos"]), "train")
        session = ProjectSession(settings=QSettings(folder + "/s.ini", QSettings.Format.IniFormat))
        session.assist.enabled = assistant  # the suite's environment turns it off
        w = MainWindow(session)
        w.show()
        session.set_project(p)  # with the assistant on, its start begins: its imports are the worker's
        w.show_page("label")
        return session

    session = opened(sys.argv[1] + "/off", False)
    said("open-off")
    session.rename_label("pos", "positive")
    said("rename-off")
    from bertstudio.ui import review_queue  # Label page > Review suspected errors...
    said("review-module")
    session = opened(sys.argv[1] + "/on", True)
    said("open-on")
    session.rename_label("pos", "positive")  # at once, while the assistant's worker still imports
    said("rename-on")
    sys.stdout.flush()
    os._exit(0)  # the preload / the assistant's worker may still be importing: not waited for
""")


def test_opening_a_project_and_renaming_a_label_import_no_model_code_on_the_gui_thread(tmp_path):
    """The first rename of a session froze the window for 4-7 s: making the Review queue's kept flags
    follow it imported the queue's module, and with it the assistant, its encoder and torch. With the
    assistant on, its start imports them on its worker; a rename while that worker is still at it
    imported them on the GUI thread (or waited there for the worker's import)."""
    for name in ("off", "on"):
        (tmp_path / name).mkdir()
    out = subprocess.run([sys.executable, "-c", _HEAVY_ON_GUI_THREAD, str(tmp_path)],
                         capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:]
    seen = dict(line.split(":", 1) for line in out.stdout.splitlines() if ":" in line)
    assert seen == {"open-off": "", "rename-off": "", "review-module": "", "open-on": "", "rename-on": ""}


def test_the_assistants_light_modules_load_without_torch():
    """The Results page's accuracy interval (assist.audit), the Label page's reasons
    (assist.strategies) and the kept flags' keys (assist.keys) are numpy at most: importing one
    loaded the whole assistant and torch with its package."""
    script = ("import sys; import bertstudio.assist.audit, bertstudio.assist.strategies, bertstudio.assist.keys; "
              "print(sorted(m for m in ('torch', 'transformers', 'bertstudio.assist.assistant') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["[]"]
    from bertstudio.assist import AssistSettings, LabellingAssistant  # the package's names, loaded when asked

    assert LabellingAssistant.__module__ == AssistSettings.__module__ == "bertstudio.assist.assistant"


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


def test_a_quit_during_the_preload_is_not_reported_as_a_failure(monkeypatch, caplog):
    """Quitting a second after start printed "preloading sklearn.metrics failed: can't register
    atexit after shutdown": the daemon thread's imports fail while the interpreter shuts down."""
    import importlib
    import logging

    from bertstudio.ui import preload

    def shut(name):
        raise RuntimeError("can't register atexit after shutdown")

    monkeypatch.setattr(importlib, "import_module", shut)
    took: dict = {}
    with caplog.at_level(logging.WARNING, logger="bertstudio.ui.preload"):
        monkeypatch.setattr(preload, "_quitting", lambda: False)
        preload._import_all(("a.module",), took)
        assert "preloading a.module failed" in caplog.text  # a real failure is still said
        caplog.clear()
        calls = iter([False, True, True])  # b: starts, fails as the app quits (not said); c: never starts
        monkeypatch.setattr(preload, "_quitting", lambda: next(calls))
        preload._import_all(("b.module", "c.module"), took)
    assert caplog.text == "" and took == {}


def test_quitting_seconds_after_start_is_not_a_crash(tmp_path, shared_data):
    """A window closed about a second after it opened on a QA project's Train page: the jobs'
    import of torch failed as the interpreter shut down ("can't register atexit after shutdown"),
    the next import registered torch's half-loaded operators again, and the process ended in a
    segmentation fault (5 of 6 tries). Nothing is imported again once the app is quitting."""
    script = textwrap.dedent(f"""
        import os
        os.environ.update(QT_QPA_PLATFORM="offscreen", HF_HUB_OFFLINE="1", BERTSTUDIO_ASSIST="0")
        from PySide6.QtCore import QSettings, QTimer
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from bertstudio.data.io import load_examples
        from bertstudio.data.project import Project
        from bertstudio.ui.main_window import MainWindow
        from bertstudio.ui.session import ProjectSession
        project = Project.create({str(tmp_path / "qa")!r}, name="qa", kind="qa", labels=[])
        project.import_examples(load_examples({str(shared_data / "squad/dev-v1.1-articles-00-35.json")!r}).head(31),
                                "train")
        session = ProjectSession(project, settings=QSettings({str(tmp_path / "s.ini")!r}, QSettings.Format.IniFormat))
        window = MainWindow(session)
        window.resize(900, 700)
        window.show()
        window.show_page("train")
        QTimer.singleShot(1200, app.quit)  # the user quits about a second after the page shows
        app.exec()
        session.close()
    """)
    for attempt in range(2):
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (attempt, done.returncode, done.stderr[-1500:])
        assert "Segmentation fault" not in done.stderr
        (tmp_path / "qa").rename(tmp_path / f"qa-{attempt}")


def test_the_results_of_a_run_that_saved_none_are_read_without_torch(tmp_path):
    """A cancelled or crashed run's Results come from its best checkpoint (_unsaved_run), read on
    the GUI thread for a small run: the function imported the checkpoint module, and with it torch
    (seconds, on the GUI thread, when the preload had not brought it in yet)."""
    best = tmp_path / "run" / "checkpoints" / "best"
    best.mkdir(parents=True)
    (best / "state.json").write_text('{"step": 3}', encoding="utf-8")
    (best / "predictions.jsonl").write_text('{"index": 0, "label": "pos"}\n', encoding="utf-8")
    script = textwrap.dedent(f"""
        import sys
        from types import SimpleNamespace
        from pathlib import Path
        from bertstudio.ui.results_page import _unsaved_run
        unsaved, preds = _unsaved_run(Path(r"{tmp_path / 'run'}"), SimpleNamespace(status="interrupted"), [], None)
        print(unsaved is not None, sorted(m for m in ("torch", "transformers") if m in sys.modules))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["True", "[]"]
