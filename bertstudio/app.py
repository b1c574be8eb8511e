"""``bertstudio`` (no arguments) or ``bertstudio --project DIR``: the desktop app.

Creates the QApplication, installs the translators (the app's own
``bertstudio_<locale>.qm`` from the resources' ``i18n`` folder when present, and Qt's
own for its standard dialogs), sets the window icon, opens the main window and, when
asked, a project.

Resources (translations, icon, desktop entry) live in the repository's top-level
``resources/`` folder; a wheel installs them under ``<prefix>/share/bertstudio``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bertstudio.logsetup import setup_logging



def resources_dir() -> Path:
    """The resources folder: the checkout's (source or editable install), else the installed copy."""
    for candidate in (Path(__file__).resolve().parents[1] / "resources", Path(sys.prefix) / "share" / "bertstudio"):
        if (candidate / "i18n").is_dir():
            return candidate
    return Path(__file__).resolve().parents[1] / "resources"


I18N_DIR = resources_dir() / "i18n"
ICON = resources_dir() / "icons" / "bertstudio.png"


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bertstudio", description="Fine-tune BERT-style encoders on your own data.")
    parser.add_argument("--project", metavar="DIR", help="open the project in DIR")
    parser.add_argument("--locale", help="user interface language, e.g. zh_CN (default: the system's)")
    return parser.parse_args(argv)


def install_translators(app: object, locale_name: str | None = None) -> list[object]:
    """Install Qt's and bertstudio's translations for ``locale_name``; returns the loaded translators."""
    from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

    locale = QLocale(locale_name) if locale_name else QLocale.system()
    installed = []
    qt = QTranslator(app)  # type: ignore[arg-type]
    if qt.load(locale, "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)  # type: ignore[attr-defined]
        installed.append(qt)
    own = QTranslator(app)  # type: ignore[arg-type]
    if own.load(locale, "bertstudio", "_", str(I18N_DIR)):
        app.installTranslator(own)  # type: ignore[attr-defined]
        installed.append(own)
    return installed


# The libraries' own progress bars and load reports on the terminal the app was started from
# ("Loading weights", "Tokenising", "Map", "Writing model shards"): the window shows progress, and
# the CLI quiets them the same way. Read when the libraries are imported, so set before; a value
# the user set wins.
QUIET_LIBRARIES = {"HF_HUB_DISABLE_PROGRESS_BARS": "1", "HF_DATASETS_DISABLE_PROGRESS_BARS": "1",
                   "TRANSFORMERS_VERBOSITY": "error"}


def main(argv: list[str] | None = None) -> int:
    import os

    quieted = [name for name in QUIET_LIBRARIES if name not in os.environ]
    os.environ.update({name: QUIET_LIBRARIES[name] for name in quieted})
    try:
        return _main(argv)
    finally:  # a process that goes on after main (tests) gets its environment back
        for name in quieted:
            os.environ.pop(name, None)


def _main(argv: list[str] | None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    setup_logging()  # the same log file as the CLI (bertstudio/logsetup.py)
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("bertstudio")
    app.setOrganizationName("bertstudio")
    install_translators(app, args.locale)
    from bertstudio.ui.gui_gc import collect_on_gui_thread

    collect_on_gui_thread(freeze=True)  # cycles collected on the GUI thread only: see bertstudio/ui/gui_gc.py
    from bertstudio.train.training_lock import never_wait_here

    never_wait_here()  # a training started here would raise, not freeze the window (train/training_lock.py)
    try:
        if ICON.is_file():
            from PySide6.QtGui import QIcon

            app.setWindowIcon(QIcon(str(ICON)))
        from bertstudio.ui.main_window import MainWindow

        window = MainWindow()
        app.setQuitOnLastWindowClosed(False)  # the main window's close quits, also one that ends hidden
        window.closed.connect(app.quit)
        if args.project and not window.open_project(args.project):
            return 2
        window.show()
        window.start_preload()  # heavy imports while the user looks around, not when Start is clicked
        code = int(app.exec())
        app.setQuitOnLastWindowClosed(True)
        window.session.close()  # quit without closing the window (e.g. the session ending): fold the journal
        # Delete the window while the QApplication exists; interpreter shutdown would destroy them in
        # an arbitrary order, which can crash Qt on the way out.
        import shiboken6

        shiboken6.delete(window)
        return code
    finally:
        from bertstudio.ui.gui_gc import stop_freezing

        stop_freezing()  # a process that goes on after main (tests) builds many windows: nothing kept for good


if __name__ == "__main__":
    sys.exit(main())
