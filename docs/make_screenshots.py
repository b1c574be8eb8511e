"""Drive the real app offscreen on small data and save a PNG of each main view into docs/screenshots/.

    python docs/make_screenshots.py [--data ../shared/data] [--out docs/screenshots]

Data: a 40-row slice of SST-2 dev (half of it left unlabelled to show the
labelling flow), one NER sentence and two SQuAD v1.1 dev questions.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SIZE = (1180, 740)


def _settle(app) -> None:  # type: ignore[no-untyped-def]
    for _ in range(5):  # layouts and deferred paints need a few event-loop turns offscreen
        app.processEvents()


def _save(widget, out: Path, name: str, app) -> Path:  # type: ignore[no-untyped-def]
    _settle(app)
    path = out / f"{name}.png"
    widget.grab().save(str(path))
    print("wrote", path.relative_to(REPO) if path.is_relative_to(REPO) else path)
    return path


def _window(session, app):  # type: ignore[no-untyped-def]
    from bertstudio.ui.main_window import MainWindow

    window = MainWindow(session)
    window.resize(*SIZE)
    window.show()
    _settle(app)
    return window


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    from bertstudio.data.examples import from_records
    from bertstudio.data.io import load_examples
    from bertstudio.data.project import Project
    from bertstudio.ui.import_dialog import ImportDialog
    from bertstudio.ui.new_project_dialog import NewProjectDialog
    from bertstudio.ui.session import ProjectSession

    tmp = Path(tempfile.mkdtemp(prefix="bertstudio-shots-"))
    settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)

    # -- sentence project: SST-2 dev slice ------------------------------------------------------
    sst2 = args.data / "glue" / "SST-2" / "dev.tsv"
    dev = load_examples(sst2).head(40)
    records = [{"text": r["text"], "label": r["label"] if i < 20 else None} for i, r in enumerate(dev.dataset)]
    project = Project.create(tmp / "sst2", name="SST-2 sample", kind="sentence", labels=["0", "1"],
                             glue_task="SST-2")
    project.import_examples(from_records("sentence", records, labels=["0", "1"]), "train")
    project.import_examples(dev, "dev")
    session = ProjectSession(project, settings=settings)
    window = _window(session, app)
    window.pages["data"].show_split("train")
    window.show_page("data")
    _save(window, args.out, "data", app)
    session.set_current("train", 21)
    window.show_page("label")
    _save(window, args.out, "label-sentence", app)
    for key in ("train", "results", "playground", "runs", "scoreboard"):
        window.show_page(key)
        _save(window, args.out, f"page-{key}", app)
    dialog = ImportDialog(session, window, str(sst2))
    dialog.resize(860, 560)
    dialog.show()
    _save(dialog, args.out, "import-dialog", app)
    dialog.close()
    new = NewProjectDialog(window, str(tmp / "new"))
    new.preset_combo.setCurrentIndex(new.preset_combo.findData("RTE"))
    new.preset_combo.activated.emit(new.preset_combo.currentIndex())
    new.show()
    _save(new, args.out, "new-project-dialog", app)
    new.close()
    window.close()

    # -- tagging: one NER sentence, one entity already marked, a span selected -------------------
    labels = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
    tokens = "Ada Lovelace worked with Charles Babbage in London".split()
    tags = ["B-PER", "I-PER", "O", "O", "O", "O", "O", "B-LOC"]
    ner = Project.create(tmp / "ner", name="NER sample", kind="tagging", labels=labels)
    ner.import_examples(from_records("tagging", [{"tokens": tokens, "tags": tags}], labels=labels), "train")
    window = _window(ProjectSession(ner, settings=settings), app)
    window.show_page("label")
    window.pages["label"].editor().select_words(4, 6)
    _save(window, args.out, "label-tagging", app)
    window.close()

    # -- QA: two questions of the first SQuAD v1.1 dev paragraph, one answered -------------------
    squad = load_examples(args.data / "squad" / "dev-v1.1-articles-00-35.json").head(2)
    rows = [dict(r) for r in squad.dataset]
    rows[1]["answers"] = None
    qa = Project.create(tmp / "qa", name="SQuAD sample", kind="qa", labels=[])
    qa.import_examples(from_records("qa", rows, labels=[]), "train")
    window = _window(ProjectSession(qa, settings=settings), app)
    window.show_page("label")
    _save(window, args.out, "label-qa", app)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
