"""Keyboard-only reach: each page's Tab chain stops only on controls, and the mnemonics (&) of each
page and dialog are unique and clear of the menu bar's letters (a keyboard sweep found no page
button with a mnemonic or a shortcut, and two empty Tab stops on the Train page)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QScrollArea, QTextBrowser

from bertstudio.ui.session import ProjectSession
from bertstudio.ui.training_page import TrainingPage
from helpers import make_project, show_active

ROWS = [{"text": f"the film was {w}", "label": "pos" if i % 2 else "neg"} for i, w in enumerate(["good", "bad"] * 4)]


@pytest.fixture(params=["en", "zh_CN"])
def language(request, qapp):
    """The interface's language: zh_CN's texts carry their letter as "开始训练(&S)"."""
    from bertstudio import app as app_module

    installed = app_module.install_translators(qapp, request.param) if request.param != "en" else []
    yield request.param
    for translator in installed:
        qapp.removeTranslator(translator)


def _session(tmp_path) -> ProjectSession:
    project = make_project(tmp_path / "p", "sentence", ["neg", "pos"], {"train": ROWS, "dev": ROWS[:4]})
    return ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))


def _tab_chain(qtbot, start, most: int = 80) -> list:
    """The widgets Tab visits from ``start`` until it comes back (or ``most`` presses)."""
    start.setFocus()
    seen = [QApplication.focusWidget()]
    for _ in range(most):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        if QApplication.focusWidget() is seen[0]:
            break
        seen.append(QApplication.focusWidget())
    return seen


def test_the_train_pages_scroll_areas_are_no_tab_stops(qtbot, tmp_path):
    """The settings' and the monitor's scroll areas took the focus themselves before their contents."""
    session = _session(tmp_path)
    try:
        page = TrainingPage(session)
        qtbot.addWidget(page)
        show_active(qtbot, page)
        chain = _tab_chain(qtbot, page.start_button)
        assert page.epochs_spin in chain and page.start_button in chain  # the settings are reached
        assert [w.objectName() for w in chain if isinstance(w, QScrollArea)] == []
    finally:
        session.close()


# -- mnemonics ---------------------------------------------------------------------------------
# QDialogButtonBox's OK, Cancel and Close carry &O / &C on some desktops (KDE): a dialog's own
# mnemonics stay off those letters.
STANDARD_BUTTON_LETTERS = frozenset("oc")


def _mnemonic(text: str) -> str | None:
    import re

    found = re.search(r"&([^&])", (text or "").replace("&&", ""))
    return found.group(1).lower() if found else None


def _mnemonics(root) -> dict[str, list[str]]:
    """letter -> the widgets under ``root`` shown now that carry it (buttons, labels with a buddy,
    tabs), as kb.py's report_mnemonics of the keyboard sweep lists them."""
    from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QTabWidget, QWidget

    found: dict[str, list[str]] = {}
    for w in root.findChildren(QWidget):
        if not w.isVisibleTo(root):
            continue
        texts = []
        if isinstance(w, QAbstractButton):
            texts.append(w.text())
        elif isinstance(w, QLabel) and w.buddy() is not None:
            texts.append(w.text())
        elif isinstance(w, QGroupBox) and w.isCheckable():
            texts.append(w.title())
        elif isinstance(w, QTabWidget):
            texts += [w.tabText(i) for i in range(w.count())]
        for text in texts:
            if (m := _mnemonic(text)) is not None:
                found.setdefault(m, []).append(f"{type(w).__name__} {text!r}")
    return found


def _clashes(found: dict[str, list[str]], taken: frozenset[str] = frozenset()) -> dict[str, list[str]]:
    return {k: v for k, v in found.items() if len(v) > 1 or k in taken}


def _form_fields_have_mnemonics(dialog) -> list[str]:
    """The form rows whose label has no mnemonic or no buddy that takes the focus (the Import dialog's
    column mapping, a form in a group box whose rows are the file's columns, is left out)."""
    from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel

    missing = []
    for form in dialog.findChildren(QFormLayout):
        if isinstance(form.parentWidget(), QGroupBox):
            continue
        for row in range(form.rowCount()):
            label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            if label is None or not isinstance(label.widget(), QLabel) or not label.widget().text():
                continue
            title = label.widget()
            buddy = title.buddy()
            if _mnemonic(title.text()) is None or buddy is None or buddy.focusPolicy() == Qt.FocusPolicy.NoFocus:
                missing.append(title.text())
    return missing


def test_each_page_has_its_mnemonics_without_a_clash(qtbot, tmp_path, language):
    """Every page's &-letters are unique on the page and clear of the menu bar's (File, Edit...)."""
    from bertstudio.ui.main_window import MainWindow

    session = _session(tmp_path)
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.show()
    try:
        menu = frozenset(_mnemonic(a.text()) for a in window.menuBar().actions())
        assert menu == frozenset("fevth")
        per_page = {}
        for key, page in window.pages.items():
            window.show_page(key)
            per_page[key] = _mnemonics(page)
            assert _clashes(per_page[key], menu) == {}, key
        train, label = window.pages["train"], window.pages["label"]
        for button in (train.start_button, train.cancel_button, train.export_button,
                       train.findChild(type(train.start_button), "browseModelButton"),
                       label.label_set_button, label.review_button, label.assist_bar.train_button):
            assert _mnemonic(button.text()) is not None, button.text()
        from PySide6.QtWidgets import QAbstractButton

        named = {"runs": ("refreshRunsButton", "openRunButton", "followRunButton", "compareRunsButton",
                          "renameRunButton", "resumeRunButton", "deleteRunButton"),
                 "results": ("errorsOnlyCheck", "setGoldButton", "acceptPredictionButton"),
                 "playground": ("playgroundPredictButton",), "data": ("addExamplesButton",)}
        for key, names in named.items():  # the pages the keyboard sweep found with none
            for name in names:
                button = window.pages[key].findChild(QAbstractButton, name)
                assert button is not None and _mnemonic(button.text()) is not None, (key, name)
    finally:
        window.close()
        session.close()


def test_the_qa_label_page_has_its_mnemonics_without_a_clash(qtbot, tmp_path, language):
    from bertstudio.ui.editors.page import LabelPage

    rows = [{"id": "q0", "context": "Ada lived in London.", "question": "Where?", "answers": None}]
    project = make_project(tmp_path / "qa", "qa", None, {"train": rows})
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    try:
        page = LabelPage(session)
        qtbot.addWidget(page)
        page.show()
        editor = page.editor()
        found = _mnemonics(page)
        assert _clashes(found, frozenset("fevth")) == {}
        for button in (editor.add_button, editor.no_answer_box, editor.use_button):
            assert _mnemonic(button.text()) is not None, button.text()
    finally:
        session.close()


def test_the_dialogs_forms_have_mnemonics_without_a_clash(qtbot, tmp_path, language):
    """New project, Import, Export, Label set and Add examples (each kind's form): every form label has
    a &-letter and a buddy that takes the focus, and no letter is used twice or by a standard button."""
    from bertstudio.data.project import Project
    from bertstudio.ui.add_example_dialog import AddExampleDialog
    from bertstudio.ui.editors.label_set import LabelSetDialog
    from bertstudio.ui.export_dialog import ExportDialog
    from bertstudio.ui.import_dialog import ImportDialog
    from bertstudio.ui.new_project_dialog import NewProjectDialog

    session = _session(tmp_path)
    made = []
    try:
        dialogs = [NewProjectDialog(), ImportDialog(session), ExportDialog(session), LabelSetDialog(session),
                   AddExampleDialog(session)]
        for kind in ("pair", "regression", "tagging", "qa"):
            project = Project.create(tmp_path / kind, name=kind, kind=kind, labels=[] if kind != "pair" else ["a", "b"])
            made.append(ProjectSession(project, settings=QSettings(str(tmp_path / "k.ini"), QSettings.Format.IniFormat)))
            dialogs.append(AddExampleDialog(made[-1]))
        for dialog in dialogs:
            qtbot.addWidget(dialog)
            dialog.show()
            name = f"{dialog.objectName()} {getattr(dialog, 'kind', '')}"
            assert _form_fields_have_mnemonics(dialog) == [], name
            assert _clashes(_mnemonics(dialog), STANDARD_BUTTON_LETTERS) == {}, name
            assert _mnemonics(dialog), name
    finally:
        for s in made:
            s.close()
        session.close()


def test_alt_letters_reach_the_new_project_fields_and_ctrl_return_starts_training(qtbot, tmp_path, language):
    """Real keys: Alt+N and Alt+F move to Name and Folder; Ctrl+Return on the Train page is Start training
    (Return on a focused Start did nothing there: the page buttons are no dialog's default)."""
    from bertstudio.ui.new_project_dialog import NewProjectDialog

    dialog = NewProjectDialog()
    qtbot.addWidget(dialog)
    if language == "zh_CN":  # the letter survives the translation, in the "(&N)" Chinese apps use
        from PySide6.QtWidgets import QFormLayout

        assert dialog.findChild(QFormLayout).labelForField(dialog.name_edit).text() == "名称(&N):"
    show_active(qtbot, dialog)
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
    assert dialog.focusWidget() is dialog.folder_edit
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_N, Qt.KeyboardModifier.AltModifier)
    assert dialog.focusWidget() is dialog.name_edit
    dialog.close()

    session = _session(tmp_path)
    try:
        page = TrainingPage(session)
        qtbot.addWidget(page)
        show_active(qtbot, page)
        page.set_model_source(str(tmp_path / "no-such-model"))  # fails at once, readably, as a click on Start
        page.epochs_spin.setFocus()
        with qtbot.waitSignal(page.run_ended, timeout=60_000) as ended:
            qtbot.keyClick(page.epochs_spin, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert ended.args[1] == "failed" and "no-such-model" in page.error_label.text()
    finally:
        session.close()


def test_the_shortcuts_list_says_the_page_and_deed_of_page_keys(qtbot, tmp_path):
    """Help > Keyboard shortcuts listed "Del  Delete" (the Runs table's Delete run, with nothing saying
    so) and not Ctrl+Return, Start training on the Train page (sweep_newcomer3 item 6). Each page key
    names what it does and its page, and is a key that page really has."""
    from PySide6.QtGui import QKeySequence, QShortcut

    from bertstudio.ui.help_panel import ShortcutsDialog
    from bertstudio.ui.main_window import MainWindow

    session = _session(tmp_path)
    window = MainWindow(session)
    qtbot.addWidget(window)
    try:
        listed = dict((what, keys) for keys, what in window.action_keys())
        native = QKeySequence.SequenceFormat.NativeText
        delete = window.pages["runs"].delete_action
        assert listed["Delete the selected runs (Runs page)"] == ", ".join(k.toString(native) for k in delete.shortcuts())
        assert "Delete" not in listed  # no bare "Delete" without its page
        assert listed["Quit"] == "Ctrl+Q"  # the window's own keys say no page
        train_keys = [s.key().toString(native) for s in window.pages["train"].findChildren(QShortcut)]
        dialog = ShortcutsDialog("sentence", window, window_keys=window.action_keys())
        qtbot.addWidget(dialog)
        text = dialog.findChild(QTextBrowser).toPlainText()
        assert "Delete the selected runs (Runs page)" in text
        start = QKeySequence("Ctrl+Return").toString(native)
        assert start in train_keys and f"{start}\nStart training (Train page)" in text
    finally:
        window.close()
