"""The main window's actions, menus and toolbar (moved out of main_window.py to keep it small).

:func:`build_actions` creates every QAction as an attribute of the window (``window.import_action``…)
with its object name, shortcut and slot, fills the menu bar and the toolbar. The slots
are the window's methods, except the model actions, which live with their dialogs:
File > Export model as ONNX… and Push to Hugging Face Hub… (:mod:`bertstudio.ui.model_export`)
and Tools > Learning curve… (:mod:`bertstudio.ui.learning_curve`). Texts are translated
in the "MainWindow" context, where the shipped translation has them.
"""

from __future__ import annotations

import re

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMessageBox


def _t(text: str) -> str:
    # no context: lupdate files a module-level _t("...") there (scripts/update_translations.py)
    return QCoreApplication.translate("", text)


def make_action(window: Any, name: str, text: str, slot: Any, shortcut: QKeySequence | str | None = None) -> QAction:
    action = QAction(text, window)
    action.setObjectName(name)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    action.triggered.connect(slot)
    return action


def build_actions(window: Any, pages: Any) -> None:
    """Every action, the menus and the toolbar of ``window``; ``pages``: the (key, title, ...) table."""
    w, SK, act = window, QKeySequence.StandardKey, make_action
    w.new_action = act(w, "newProjectAction", _t("&New project…"), w.new_project, SK.New)
    w.open_action = act(w, "openProjectAction", _t("&Open project…"), w.open_project, SK.Open)
    w.save_action = act(w, "saveAction", _t("&Save"), w.save, SK.Save)
    w.import_action = act(w, "importAction", _t("&Import data…"), w.import_data, "Ctrl+I")
    w.export_action = act(w, "exportAction", _t("&Export data…"), w.export_data, "Ctrl+E")
    w.export_run_action = act(w, "exportRunAction", _t("Export r&un…"), w.export_run)
    w.export_onnx_action = act(w, "exportOnnxAction", _t("Export &model as ONNX…"), lambda: export_onnx(w))
    w.push_hub_action = act(w, "pushHubAction", _t("Push to Hugging Face &Hub…"), lambda: push_to_hub(w))
    w.restore_action = act(w, "restoreRowsAction", _t("Restore replaced ro&ws…"), lambda: w.restore_replaced_rows())
    w.close_action = act(w, "closeProjectAction", _t("&Close project"), w.close_project)
    w.quit_action = act(w, "quitAction", _t("&Quit"), w.close)
    # the standard Quit key is empty on Linux and Windows: Ctrl+Q everywhere, the platform's own beside it
    w.quit_action.setShortcuts([QKeySequence(k) for k in dict.fromkeys(("Ctrl+Q", QKeySequence(SK.Quit).toString())) if k])
    w.undo_action = w.session.undo_stack.createUndoAction(w, _t("&Undo"))
    w.undo_action.setObjectName("undoAction")
    w.undo_action.setShortcut(SK.Undo)
    w.redo_action = w.session.undo_stack.createRedoAction(w, _t("&Redo"))
    w.redo_action.setObjectName("redoAction")
    w.redo_action.setShortcuts([QKeySequence(SK.Redo), QKeySequence("Ctrl+Shift+Z")])
    _short_on_toolbar(w.undo_action, _t("Undo"))
    _short_on_toolbar(w.redo_action, _t("Redo"))
    w.add_examples_action = act(w, "addExamplesAction", _t("&Add examples…"), w.add_examples, "Ctrl+Shift+N")
    w.label_set_action = act(w, "labelSetAction", _t("&Label set…"), w.edit_label_set)
    w.learning_curve_action = act(w, "learningCurveAction", _t("&Learning curve…"), lambda: learning_curve(w))
    w.assistant_action = act(w, "assistantAction", _t("Labelling &assistant"), w.session.assist.set_on)
    w.assistant_action.setCheckable(True)  # triggered(checked) -> set_on: on/off for the open project
    for signal in (w.session.project_opened, w.session.project_closed, w.session.assist.switched):
        signal.connect(lambda *_: sync_assistant_action(w))
    sync_assistant_action(w)
    w.train_assistant_action = act(w, "trainAssistantAction", _t("&Train assistant now"), w.session.assist.train_now,
                                   "Ctrl+T")
    w.train_assistant_action.setEnabled(False)  # while the labelling assistant of a project runs
    w.session.assist.status_changed.connect(lambda: w.train_assistant_action.setEnabled(w.session.assist.can_train_now()))
    w.data_map_action = act(w, "dataMapAction", _t("&Data map of the shown run…"), lambda: data_map(w))
    w.shortcuts_action = act(w, "shortcutsAction", _t("&Keyboard shortcuts"), w.show_shortcuts, SK.HelpContents)
    w.about_action = act(w, "aboutAction", _t("&About bertstudio"), w.show_about)
    w.about_action.setMenuRole(QAction.MenuRole.AboutRole)  # macOS: in the application menu, where it is looked for
    w.recent_menu = QMenu(_t("Open &recent"), w)
    w.recent_menu.setObjectName("recentMenu")
    w.recent_menu.aboutToShow.connect(lambda: fill_recent_menu(w))
    file_menu = w.menuBar().addMenu(_t("&File"))
    for item in (w.new_action, w.open_action, w.recent_menu, w.save_action, None, w.import_action, w.export_action,
                 w.export_run_action, None, w.export_onnx_action, w.push_hub_action, None, w.close_action, w.quit_action):
        if item is None:
            file_menu.addSeparator()
        elif isinstance(item, QMenu):
            file_menu.addMenu(item)
        else:
            file_menu.addAction(item)
    edit_menu = w.menuBar().addMenu(_t("&Edit"))
    edit_menu.addActions([w.undo_action, w.redo_action, w.restore_action])
    edit_menu.addSeparator()
    edit_menu.addAction(w.add_examples_action)
    edit_menu.addAction(w.label_set_action)
    view_menu = w.menuBar().addMenu(_t("&View"))
    for i, (key, title, *_rest) in enumerate(pages):
        view_menu.addAction(act(w, f"show_{key}Action", QCoreApplication.translate("MainWindow", title),
                                lambda _c=False, k=key: w.show_page(k), f"Ctrl+{i + 1}"))
    from bertstudio.ui.theme import add_theme_menu

    add_theme_menu(w, view_menu)  # View > Theme: system / light / dark, kept in QSettings
    tools_menu = w.menuBar().addMenu(_t("&Tools"))
    tools_menu.setToolTipsVisible(True)  # the assistant switch explains itself
    tools_menu.addAction(w.learning_curve_action)
    tools_menu.addAction(w.assistant_action)
    tools_menu.addAction(w.train_assistant_action)
    tools_menu.addAction(w.data_map_action)
    help_menu = w.menuBar().addMenu(_t("&Help"))
    help_menu.addAction(w.shortcuts_action)
    help_menu.addSeparator()
    help_menu.addAction(w.about_action)
    toolbar = w.addToolBar(_t("Main"))
    toolbar.setObjectName("mainToolBar")
    toolbar.addActions([w.new_action, w.open_action, w.save_action])
    toolbar.addSeparator()
    toolbar.addActions([w.import_action, w.export_action])
    toolbar.addSeparator()
    toolbar.addActions([w.undo_action, w.redo_action])
    toolbar.addSeparator()
    toolbar.addAction(w.shortcuts_action)
    for action in (w.new_action, w.open_action, w.save_action, w.import_action, w.export_action, w.shortcuts_action):
        action.setIconText(toolbar_text(action.text()))


def toolbar_text(text: str) -> str:
    """A menu entry's text as a toolbar button (and the shortcuts list) says it: without its mnemonic.
    Qt drops the "&" of "&Open project" but kept the "(O)" a translation writes after the name ("打开项目(O)")."""
    text = re.sub(r"\s*\(&[^)]\)", "", text)
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").removesuffix("…").removesuffix("...")


def _short_on_toolbar(action: QAction, short: str) -> None:
    """The toolbar button keeps one short name (it grew with "Undo Label row 11 as 'positive'" and
    pushed the buttons after it); the menu entry says what it undoes, and so does the tooltip,
    which Qt derives from the text while none is set."""
    action.setIconText(short)


def sync_assistant_action(window: Any) -> None:
    """Tools > Labelling assistant shows the open project's choice; greyed out without a project
    or while the environment turns the assistant off (BERTSTUDIO_ASSIST=0)."""
    assist, action = window.session.assist, window.assistant_action
    action.setChecked(assist.enabled and assist.wanted and window.session.has_project())
    action.setEnabled(assist.enabled and window.session.has_project())
    if not assist.enabled:
        action.setToolTip(_t("Turned off for every project by BERTSTUDIO_ASSIST=0 in the environment"))
    else:
        action.setToolTip(_t("Suggested labels, a model refitted as you label and background training, for this "
                             "project (kept with it). Off: no model runs; your labels are not touched."))


def fill_recent_menu(window: Any) -> None:
    window.recent_menu.clear()
    for folder in window.session.recent_projects():
        window.recent_menu.addAction(folder, lambda f=folder: window.open_project(f))
    if window.recent_menu.isEmpty():
        window.recent_menu.addAction(_t("(none)")).setEnabled(False)


# --- the model actions ------------------------------------------------------------------------


def export_onnx(window: Any) -> Any:
    from bertstudio.ui.model_export import export_onnx_action

    return export_onnx_action(window)


def push_to_hub(window: Any) -> Any:
    from bertstudio.ui.model_export import push_to_hub_action

    return push_to_hub_action(window)


def current_config(window: Any) -> Any:
    """The Train page's TrainConfig (its last valid settings), else the defaults."""
    from bertstudio.train.config import TrainConfig

    config = getattr(window.pages.get("train"), "config", None)
    if isinstance(config, TrainConfig):
        return config
    return TrainConfig(task=window.session.kind, labels=window.session.labels() or None)


def learning_curve(window: Any) -> Any:
    """Tools > Learning curve…: the panel over the Train page's settings, in its own window."""
    from bertstudio.ui.learning_curve import open_learning_curve

    if not window.session.has_project():
        QMessageBox.information(window, _t("No project"), _t("Create or open a project first."))
        return None
    page = window.pages.get("train")
    automatic = getattr(page, "automatic_given", None)
    dialog = open_learning_curve(window.session, lambda: current_config(window), window,
                                 automatic_factory=automatic if callable(automatic) else None)
    app = QCoreApplication.instance()
    if app is not None:  # quitting while it runs: stop the job and let its thread end first
        app.aboutToQuit.connect(dialog.panel.cancel_and_wait)
    window.learning_curve_dialog = dialog
    return dialog


def _maps_examples(run_dir: Any) -> bool:
    """Whether the run's task has a data map (TrainConfig's rule; True when its settings cannot be read)."""
    from bertstudio.train.config import maps_examples
    from bertstudio.train.rundir import saved_config

    saved = saved_config(run_dir)
    return saved is None or maps_examples(saved.task)


def data_map(window: Any) -> Any:
    """Tools > Data map of the shown run…: dataset cartography of the Results page's run."""
    from bertstudio.ui.cartography_view import open_cartography

    run_dir = getattr(window.pages.get("results"), "run_dir", None)
    if run_dir is None:
        QMessageBox.information(window, _t("No run shown"), _t("Show a run on the Results page first."))
        return None
    problems: list = []
    view = open_cartography(run_dir, window, problems)
    if view is None and problems:  # a damaged file is said as such, not as "recorded no data map"
        QMessageBox.warning(window, _t("No data map"), _t("The run's data map cannot be read: %1").replace(
            "%1", str(problems[0])))
    elif view is None and not _maps_examples(run_dir):  # --cartography would be refused for it: never suggest it
        QMessageBox.information(window, _t("No data map"), _t("A data map plots each row's probability of its gold "
                                                              "class: it is drawn for sentence and pair "
                                                              "classification runs, and this run predicts no class."))
    elif view is None:
        QMessageBox.information(window, _t("No data map"), _t("This run recorded no data map. Train with the "
                                                              "cartography setting on (--cartography) to get one."))
    window.data_map_view = view
    return view
