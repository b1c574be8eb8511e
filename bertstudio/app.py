"""``bertstudio`` (no arguments) or ``bertstudio --project DIR``: the desktop app.

Creates the QApplication, installs the translators (the app's own from
``bertstudio/resources/i18n/bertstudio_<locale>.qm`` when present, and Qt's own
for its standard dialogs), opens the main window and, when asked, a project.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

I18N_DIR = Path(__file__).resolve().parent / "resources" / "i18n"


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


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("bertstudio")
    app.setOrganizationName("bertstudio")
    install_translators(app, args.locale)
    from bertstudio.ui.main_window import MainWindow

    window = MainWindow()
    if args.project and not window.open_project(args.project):
        return 2
    window.show()
    window.start_preload()  # heavy imports while the user looks around, not when Start is clicked
    code = int(app.exec())
    window.session.close()  # quit without closing the window (e.g. the session ending): fold the journal
    return code


if __name__ == "__main__":
    sys.exit(main())
