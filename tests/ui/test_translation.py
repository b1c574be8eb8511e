"""User-visible strings go through Qt's translation: the shipped Chinese translation
(resources/i18n, compiled from its .ts with lrelease) installed by ``app.install_translators``
changes the window's texts; no literal text is set on a widget without tr()."""

from __future__ import annotations

import ast
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "bertstudio" / "ui"
I18N = ROOT / "resources" / "i18n"


def _lrelease() -> str | None:
    return shutil.which("pyside6-lrelease") or shutil.which("lrelease")


def test_app_finds_the_shipped_translation_and_icon():
    from bertstudio import app as app_module

    assert app_module.I18N_DIR == I18N and (I18N / "bertstudio_zh_CN.qm").is_file()
    assert app_module.ICON.is_file()


@pytest.mark.skipif(_lrelease() is None, reason="needs lrelease (PySide6's pyside6-lrelease)")
def test_shipped_qm_is_compiled_from_the_ts(tmp_path):
    """The committed .qm is what lrelease makes of the committed .ts (nobody forgot to rebuild it)."""
    out = tmp_path / "zh.qm"
    subprocess.run([_lrelease(), str(I18N / "bertstudio_zh_CN.ts"), "-qm", str(out)], check=True, capture_output=True, timeout=60)
    assert out.read_bytes() == (I18N / "bertstudio_zh_CN.qm").read_bytes()
    messages = list(ET.parse(I18N / "bertstudio_zh_CN.ts").getroot().iter("message"))
    done = [m for m in messages if (m.find("translation").text or "") and m.find("translation").get("type") is None]
    assert len(done) >= 0.7 * len(messages)  # the main menus, pages, forms and plots at least


def test_installed_translation_changes_the_window_texts(qtbot, qapp, tmp_path):
    from bertstudio import app as app_module
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    installed = app_module.install_translators(qapp, "zh_CN")
    try:
        assert any(t.language() == "zh_CN" for t in installed)
        window = MainWindow(ProjectSession(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
        qtbot.addWidget(window)
        assert window.findChild(QAction, "importAction").text() == "导入数据(&I)…"
        assert window.findChild(QAction, "newProjectAction").text() == "新建项目(&N)…"
        assert window.page_list.item(2).text() == "训练"  # page titles marked with QT_TRANSLATE_NOOP
        assert window.pages["train"].start_button.text() == "开始训练"
        assert window.pages["train"].monitor.loss_plot.plotItem.titleLabel.text == "训练损失"
        # a string the table does not translate falls back to the English source
        assert window.pages["train"].model_picker.toolTip().startswith("The bundled model, a local model folder")
        window.close()
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


_SETTERS = {"setText", "setWindowTitle", "setPlaceholderText", "setToolTip", "showMessage", "setTitle",
            "setHorizontalHeaderLabels", "information", "warning", "question", "critical", "addTab", "addMenu",
            "setStatusTip", "setInformativeText", "QLabel", "QPushButton", "QAction", "QCheckBox", "QGroupBox",
            "QRadioButton", "QMenu", "QToolButton", "addAction", "setItemText"}


def _literal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return None


def untranslated_literals(source: str) -> list[tuple[int, str]]:
    """(line, text) of word-bearing literal strings passed straight to a Qt text setter."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in _SETTERS and not (isinstance(func, ast.Attribute) and getattr(func.value, "id", "") == "log"):
            for arg in node.args[:1]:
                text = _literal(arg)
                if text is not None and any(c.isalpha() for c in text):
                    found.append((node.lineno, text))
    return found


def test_the_scan_finds_a_literal_and_accepts_tr():
    assert untranslated_literals('b.setText("Start")\nb.setText(self.tr("Start"))\nlog.warning("x %s", 1)') == [(1, "Start")]


def test_no_widget_text_bypasses_translation():
    offenders = [f"{path.relative_to(UI.parent)}:{line}: {text!r}" for path in sorted(UI.rglob("*.py"))
                 for line, text in untranslated_literals(path.read_text(encoding="utf-8"))]
    assert offenders == []
