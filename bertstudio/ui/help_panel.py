"""The keyboard shortcuts of the labelling editors, shown beside them and from the Help menu."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget


def _t(text: str) -> str:
    return QCoreApplication.translate("HelpPanel", text)


def shortcuts(kind: str) -> list[tuple[str, str]]:
    """(keys, what they do) for one task kind, most used first."""
    move = [
        (_t("← / → or ↑ / ↓"), _t("previous / next example")),
        (_t("S or Space"), _t("skip to the next unlabelled example")),
        (_t("Ctrl+Z / Ctrl+Shift+Z"), _t("undo / redo the last edit")),
    ]
    if kind in ("sentence", "pair"):
        return [(_t("1 … 9"), _t("apply the label with that number (see the legend)")),
                (_t("0 or Backspace"), _t("clear the label"))] + move
    if kind == "regression":
        return [(_t("0 … 5"), _t("set a whole score")), (_t("slider / box"), _t("set a score in tenths")),
                (_t("Backspace"), _t("clear the score"))] + move
    if kind == "tagging":
        return [
            (_t("← / →"), _t("move the word cursor")),
            (_t("Shift+← / Shift+→, or drag"), _t("select several words")),
            (_t("1 … 9"), _t("tag the selected words (B- on the first, I- on the rest)")),
            (_t("0 or Backspace"), _t("clear the entity under the cursor")),
            (_t("↑ / ↓, Page Up / Page Down"), _t("previous / next sentence")),
            (_t("S or Space"), _t("skip to the next unlabelled sentence")),
            (_t("Ctrl+Z / Ctrl+Shift+Z"), _t("undo / redo")),
        ]
    return [
        (_t("select with the mouse"), _t("the selection becomes the answer")),
        (_t("Enter"), _t("use the current selection as the answer")),
        (_t("N"), _t("toggle 'no answer'")),
        (_t("Backspace"), _t("clear the answer")),
        (_t("↑ / ↓, Page Up / Page Down"), _t("previous / next question")),
        (_t("S or Space"), _t("skip to the next unanswered question")),
        (_t("Ctrl+Z / Ctrl+Shift+Z"), _t("undo / redo")),
    ]


def shortcuts_html(kind: str) -> str:
    rows = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in shortcuts(kind))
    return f"<h3>{_t('Keyboard')}</h3><table cellspacing='4'>{rows}</table>"


class HelpPanel(QTextBrowser):
    """The shortcut table of the current kind (read-only)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("helpPanel")
        self.setOpenExternalLinks(False)
        self.set_kind("sentence")

    def set_kind(self, kind: str) -> None:
        self.setHtml(shortcuts_html(kind))


class ShortcutsDialog(QDialog):
    def __init__(self, kind: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        panel = HelpPanel(self)
        panel.set_kind(kind)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(panel)
        layout.addWidget(buttons)
        self.resize(520, 420)
