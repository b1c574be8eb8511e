"""The labelling assistant's screenshots for the README: the Label page with a suggestion and the
audit-accuracy chart, and the Data table with its Suggested column.

    python docs/make_assist_screenshot.py [--data ../shared/data] [--out docs/screenshots] [--rows 200]

200 unlabelled SST-2 train sentences in a project with the labels ``negative`` / ``positive``;
the bundled MiniLM suggests from the label names, then a simulated annotator (the SST-2 gold
labels, revealed one at a time) labels 150 of them through the Label page in the "most
uncertain first" order, waiting for each refit as a person would (the refits run on the
assistant's worker thread). The strong model is not trained (it would cost minutes of CPU).
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ["BERTSTUDIO_ASSIST"] = "1"
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SIZE = (1200, 760)
MAX_BYTES = 140_000
NAMES = {"0": "negative", "1": "positive"}


def _run_events(ms: int) -> None:
    """Run the event loop for ``ms`` milliseconds. Not a loop of processEvents(): under PySide6 6.12 each
    call drops a reference to None, and a few hundred thousand of them crash the interpreter."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def _settle(app) -> None:  # type: ignore[no-untyped-def]
    _run_events(50)


def _save(widget, path: Path) -> None:  # type: ignore[no-untyped-def]
    """widget.grab() as a PNG; a large one in a 256-colour palette (as docs/make_screenshots.py does)."""
    from PySide6.QtGui import QImage

    image = widget.grab().toImage()
    image.save(str(path), "PNG", 0)
    if path.stat().st_size > MAX_BYTES:
        image.convertToFormat(QImage.Format.Format_Indexed8).save(str(path), "PNG", 0)
    print("wrote", path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(REPO.parent / "shared" / "data"))
    parser.add_argument("--out", default=str(REPO / "docs" / "screenshots"))
    parser.add_argument("--rows", type=int, default=200)
    parser.add_argument("--labels", type=int, default=150)
    args = parser.parse_args(argv)

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from bertstudio.assist import AssistSettings
    from bertstudio.data.examples import from_records
    from bertstudio.data.project import Project
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with open(Path(args.data) / "glue" / "SST-2" / "train.tsv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))[: args.rows]
    gold = [NAMES[r["label"]] for r in rows]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        project = Project.create(Path(tmp) / "sst2", name="SST-2 sample", kind="sentence",
                                 labels=["negative", "positive"])
        records = [{"text": r["sentence"].strip(), "label": None} for r in rows]
        project.import_examples(from_records("sentence", records, labels=["negative", "positive"]), "train")
        session = ProjectSession(settings=QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        session.assist.settings = AssistSettings(strong_every=0)
        session.set_project(project)
        window = MainWindow(session)
        window.resize(*SIZE)
        window.show()
        window.show_page("label")
        page = window.pages["label"]
        while session.assist.assistant is None or session.assist.scores() is None:
            _run_events(100)
            if session.assist.status().get("phase") == "failed":
                raise SystemExit(f"the assistant failed: {session.assist.last_error}")
        print("zero-shot ready; audit:", session.assist.audit().text())
        page.assist_bar.set_strategy("uncertain")
        assistant = session.assist.assistant
        editor = page.editor()
        for i in range(args.labels):
            editor.apply_label(gold[editor.row])
            assistant.wait_idle(120, training=False)  # a person reads the next sentence meanwhile
            _settle(app)
            if i % 25 == 24:
                print(i + 1, "labels;", session.assist.audit().text())
        while session.assist.is_audit_pick("train", editor.row) or editor.suggestion() is None:
            editor.skip_ahead()  # show an example with its suggestion (audit draws hide theirs)
            _settle(app)
        page.chart.redraw()
        _settle(app)
        _save(window, out / "label-assist.png")
        window.show_page("data")
        data = window.pages["data"]
        data.set_filter("unlabelled")
        _settle(app)
        _save(window, out / "data-suggested.png")
        print("audit:", session.assist.audit().text(), "history points:", len(session.assist.history()),
              "random-order estimate:", session.assist.random_order_estimate())
        window.close()
        session.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
