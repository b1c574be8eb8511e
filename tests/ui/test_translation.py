"""User-visible strings go through Qt's translation: a real .qm (compiled here with lrelease)
installed by ``app.install_translators`` changes the window's texts; no literal text is set
on a widget without tr()."""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction

UI = Path(__file__).resolve().parents[2] / "bertstudio" / "ui"
# (context, source, translation): contexts are the class names self.tr() uses, or the _t() contexts.
ZH = [
    ("MainWindow", "&Import data…", "导入数据(&I)…"),
    ("MainWindow", "&New project…", "新建项目(&N)…"),
    ("MainWindow", "Train", "训练"),
    ("TrainingPage", "Start training", "开始训练"),
    ("plots", "Training loss", "训练损失"),
]


def _ts(entries: list[tuple[str, str, str]]) -> str:
    from xml.sax.saxutils import escape

    by_context: dict[str, list[str]] = {}
    for ctx, src, dst in entries:
        by_context.setdefault(ctx, []).append(
            f"<message><source>{escape(src)}</source><translation>{escape(dst)}</translation></message>")
    body = "".join(f"<context><name>{c}</name>{''.join(m)}</context>" for c, m in by_context.items())
    return f'<?xml version="1.0" encoding="utf-8"?><!DOCTYPE TS><TS version="2.1" language="zh_CN">{body}</TS>'


def _lrelease() -> str | None:
    return shutil.which("pyside6-lrelease") or shutil.which("lrelease")


@pytest.mark.skipif(_lrelease() is None, reason="needs lrelease (PySide6's pyside6-lrelease) to build a .qm")
def test_installed_translation_changes_the_window_texts(qtbot, qapp, tmp_path, monkeypatch):
    from bertstudio import app as app_module
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    ts = tmp_path / "bertstudio_zh_CN.ts"
    ts.write_text(_ts(ZH), encoding="utf-8")
    subprocess.run([_lrelease(), str(ts), "-qm", str(tmp_path / "bertstudio_zh_CN.qm")], check=True,
                   capture_output=True, timeout=60)
    monkeypatch.setattr(app_module, "I18N_DIR", tmp_path)
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
        # untranslated strings fall back to the English source
        assert window.findChild(QAction, "saveAction").text() == "&Save"
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
