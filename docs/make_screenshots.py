"""Drive the real app offscreen on small data and save a PNG of each main view into docs/screenshots/.

    python docs/make_screenshots.py [--data ../shared/data] [--out docs/screenshots] [--lang zh_CN]

With --lang the app's translation for that locale is installed and each file is named with
the language as a prefix (zh_data.png, ...); Chinese needs a CJK font (Debian: fonts-noto-cjk).

Data: 620 rows of SST-2 train (the last 20 left unlabelled to show the
labelling flow) and 120 rows of SST-2 dev; a real 3-epoch run of the bundled
MiniLM on them (a minute or two on a laptop CPU) fills the Train, Results,
Playground, Runs and scoreboard views. Then 300 + 60 UD English EWT POS sentences (all 17
UPOS tags, so the legend shows keys past 9) and two SQuAD v1.1 dev questions for the
tagging and QA editors.
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

SIZE = (1100, 720)
TRAIN_ROWS, UNLABELLED, DEV_ROWS = 620, 20, 120
POS_TRAIN, POS_DEV = 300, 60  # UD EWT dev sentences: the POS project's train and dev slices
MAX_BYTES = 140_000
PREFIX = ""  # "zh_" with --lang zh_CN
SST2_LABELS = ["negative", "positive"]  # the names the GLUE reader gives 0 and 1


def _settle(app) -> None:  # type: ignore[no-untyped-def]
    for _ in range(5):  # layouts and deferred paints need a few event-loop turns offscreen
        app.processEvents()


def _save(widget, out: Path, name: str, app) -> Path:  # type: ignore[no-untyped-def]
    _settle(app)
    from PySide6.QtGui import QImage

    path = out / f"{PREFIX}{name}.png"
    image = widget.grab().toImage()
    image.save(str(path), "PNG", 0)  # 0: smallest file (PNG is lossless either way)
    if path.stat().st_size > MAX_BYTES:  # text-heavy views: a 256-colour palette keeps them small
        image.convertToFormat(QImage.Format.Format_Indexed8).save(str(path), "PNG", 0)
    print("wrote", path.relative_to(REPO) if path.is_relative_to(REPO) else path)
    return path


def _wait(signal, app, timeout_ms: int = 600_000) -> list:  # type: ignore[no-untyped-def]
    """Run the event loop until ``signal`` fires (the run ends, a prediction arrives)."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop, got = QEventLoop(), []
    signal.connect(lambda *a: (got.append(a), loop.quit()))
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    if not got:
        raise SystemExit(f"timed out waiting for {signal}")
    return list(got[0])


def _train(window, app, epochs: int = 3, lr: str = "5e-5") -> None:  # type: ignore[no-untyped-def]
    """A short real run of the bundled MiniLM with BERT-paper settings (lr 5e-5, warm-up 10%)."""
    page = window.pages["train"]
    page.batch_combo.setCurrentText("16")
    page.lr_combo.setCurrentText(lr)
    page.epochs_spin.setValue(epochs)
    page.max_len_spin.setValue(64)
    page.device_combo.setCurrentText("cpu")
    window.show_page("train")
    page.start_button.click()
    _folder, status = _wait(page.run_ended, app)
    if status != "finished":
        raise SystemExit(f"training {status}: {page.error_label.text()}")


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
    parser.add_argument("--lang", help="locale whose translation to show, e.g. zh_CN")
    args = parser.parse_args(argv)
    global PREFIX
    args.out.mkdir(parents=True, exist_ok=True)

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    if args.lang:
        from bertstudio.app import install_translators

        if not install_translators(app, args.lang):
            raise SystemExit(f"no translation for {args.lang}")
        PREFIX = args.lang.split("_")[0] + "_"
    from bertstudio.data.examples import from_records
    from bertstudio.data.io import load_examples
    from bertstudio.data.project import Project
    from bertstudio.ui.import_dialog import ImportDialog
    from bertstudio.ui.new_project_dialog import NewProjectDialog
    from bertstudio.ui.session import ProjectSession

    tmp = Path(tempfile.mkdtemp(prefix="bertstudio-shots-"))
    settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)

    # -- sentence project: SST-2 slices, trained for real -----------------------------------------
    glue = args.data / "glue" / "SST-2"
    train = load_examples(glue / "train.tsv").head(TRAIN_ROWS)
    records = [{"text": r["text"], "label": r["label"] if i < TRAIN_ROWS - UNLABELLED else None}
               for i, r in enumerate(train.dataset)]
    project = Project.create(tmp / "sst2", name="SST-2 sample", kind="sentence", labels=SST2_LABELS,
                             glue_task="SST-2")
    project.import_examples(from_records("sentence", records, labels=SST2_LABELS), "train")
    project.import_examples(load_examples(glue / "dev.tsv").head(DEV_ROWS), "dev")
    session = ProjectSession(project, settings=settings)
    window = _window(session, app)
    window.pages["data"].show_split("train")
    window.show_page("data")
    _save(window, args.out, "data", app)
    session.set_current("train", TRAIN_ROWS - UNLABELLED + 1)
    window.show_page("label")
    _save(window, args.out, "label-sentence", app)
    _train(window, app)
    _save(window, args.out, "page-train", app)
    window.show_page("results")
    results = window.pages["results"]
    results.table.selectRow(0)  # the most wrong example, with its probabilities
    _save(window, args.out, "page-results", app)
    window.show_page("playground")
    playground = window.pages["playground"]
    playground.input.setPlainText("a gripping , beautifully acted film with a warm heart")
    playground.predict()
    _wait(playground.prediction_shown, app, 120_000)
    _save(window, args.out, "page-playground", app)
    runs = window.pages["runs"]
    window.show_page("runs")
    runs.table.selectRow(0)
    follower = runs.follow(runs.model.runs[0].folder)
    _settle(app)
    follower.poll()  # replay what the history already holds into the plots
    _save(window, args.out, "page-runs", app)
    window.show_page("scoreboard")
    _save(window, args.out, "page-scoreboard", app)
    dialog = ImportDialog(session, window, str(glue / "dev.tsv"))
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
    from bertstudio.ui.add_example_dialog import AddExampleDialog

    adder = AddExampleDialog(session, "train", window)
    adder.editors["text"].setPlainText("an unexpectedly tender film about two brothers and a boat")
    adder.label_combo.setCurrentIndex(2)  # the second label, as Alt+2 sets it while typing
    adder.show()
    _save(adder, args.out, "add-examples", app)
    adder.close()
    runs.stop_following()
    window.close()

    # -- tagging: UD EWT POS sentences (17 UPOS tags), one word selected ------------------------
    ewt = load_examples(args.data / "pos" / "ud_english_ewt" / "en_ewt-ud-dev.conllu")
    labels = list(ewt.labels)
    pos = Project.create(tmp / "pos", name="UD EWT POS sample", kind="tagging", labels=labels)
    pos.import_examples(from_records("tagging", [dict(r) for r in ewt.head(POS_TRAIN).dataset], labels=labels), "train")
    pos.import_examples(from_records("tagging", [dict(r) for r in ewt.select(range(POS_TRAIN, POS_TRAIN + POS_DEV))
                                                 .dataset], labels=labels), "dev")
    session = ProjectSession(pos, settings=settings)
    window = _window(session, app)
    session.set_current("train", 7)
    window.show_page("label")
    window.pages["label"].editor().select_words(3, 4)
    _save(window, args.out, "label-tagging", app)
    # A POS result: each word with its tag, wrong ones marked; token accuracy and per-tag scores.
    _train(window, app, epochs=2, lr="1e-4")
    window.show_page("results")
    window.pages["results"].table.selectRow(0)
    _save(window, args.out, "page-results-pos", app)
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
