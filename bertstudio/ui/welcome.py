"""What the Data and Label pages show while no project is open: where to start.

A new user's first window used to be an empty, greyed-out table. The welcome panel says
what the app does and offers the three ways in: a new project, an open one (the recent
projects listed, each a click away; a folder that is gone is shown but cannot be
clicked), or a data file dropped on the window (:meth:`MainWindow.import_data` then
makes a project for it first). The other pages stay as they are (each says what it needs);
the panel names the Runs page, which opens a run folder without a project.

The panel only emits what was asked (``new_requested``, ``open_requested``,
``recent_requested``); the main window owns the dialogs.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QHBoxLayout, QWidget

from bertstudio.ui import theme

MAX_RECENT = 8
FORMATS = "CSV, TSV, JSON Lines, CoNLL / CoNLL-U, SQuAD JSON"  # names, the same in every language


class WelcomePanel(QWidget):
    new_requested = Signal()
    open_requested = Signal()
    recent_requested = Signal(str)  # a recent project's folder

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcomePanel")
        title = QLabel(self.tr("<h2>Welcome to bertstudio</h2>"))
        intro = QLabel(self.tr("Label text and fine-tune BERT-style models on it: sentence and sentence-pair "
                               "classification, pair scores, token tagging (entities, parts of speech) and "
                               "question answering. A project keeps your data, labels and runs in one folder."))
        intro.setWordWrap(True)
        self.new_button = QPushButton(self.tr("New project…"), objectName="welcomeNewButton")
        self.new_button.setDefault(True)
        self.new_button.clicked.connect(self.new_requested)
        self.open_button = QPushButton(self.tr("Open project…"), objectName="welcomeOpenButton")
        self.open_button.clicked.connect(self.open_requested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.new_button)
        buttons.addWidget(self.open_button)
        buttons.addStretch(1)
        self.recent_title = QLabel(self.tr("<b>Recent projects</b> (click to open)"))
        self.recent_list = QListWidget(objectName="welcomeRecentList")
        self.recent_list.itemActivated.connect(self._on_recent_chosen)
        self.recent_list.itemClicked.connect(self._on_recent_chosen)
        # plain text too: a tagging project reads a .txt of sentences, one a line (data/formats/plaintext)
        formats = FORMATS + ", " + self.tr("plain text (.txt, one sentence a line)")
        drop = QLabel(self.tr("Or drop a data file on this window (%1): a new project is made for it, then "
                              "the file is imported.").replace("%1", formats), objectName="welcomeDropNote")
        drop.setWordWrap(True)
        free = QLabel(self.tr("The Runs page works without a project: open a run folder there to see its "
                              "curves and results."))
        free.setWordWrap(True)
        theme.set_tone(free, "muted")
        column = QVBoxLayout()
        column.addWidget(title)
        column.addWidget(intro)
        column.addSpacing(8)
        column.addLayout(buttons)
        column.addSpacing(12)
        column.addWidget(self.recent_title)
        column.addWidget(self.recent_list)
        column.addSpacing(8)
        column.addWidget(drop)
        column.addWidget(free)
        column.addStretch(1)
        body = QWidget()
        body.setLayout(column)
        body.setMaximumWidth(640)
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        outer.addWidget(body, 3)
        outer.addStretch(1)

    def set_recent(self, folders: list[str]) -> None:
        """List up to MAX_RECENT recent project folders; one that no longer holds a project is shown
        greyed out with the reason, and clicking it does nothing."""
        self.recent_list.clear()
        for folder in folders[:MAX_RECENT]:
            item = QListWidgetItem(folder)
            item.setData(Qt.ItemDataRole.UserRole, folder)
            try:
                found = (Path(folder) / "project.json").is_file()
                reason = self.tr("%1 (not found)")
            except OSError:  # a folder you may no longer enter, a share gone: the app still starts
                found, reason = False, self.tr("%1 (not reachable)")
            if not found:
                item.setText(reason.replace("%1", folder))
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
            self.recent_list.addItem(item)
        self.recent_title.setVisible(bool(folders))
        self.recent_list.setVisible(bool(folders))
        rows = max(1, self.recent_list.count())  # as tall as its rows: no empty box under two projects
        self.recent_list.setFixedHeight(rows * max(18, self.recent_list.sizeHintForRow(0))
                                        + 2 * self.recent_list.frameWidth() + 4)

    def _on_recent_chosen(self, item: QListWidgetItem) -> None:
        if item.flags() & Qt.ItemFlag.ItemIsEnabled:
            self.recent_requested.emit(str(item.data(Qt.ItemDataRole.UserRole)))
