"""The keyboard shortcuts of the labelling editors, shown beside them and from the Help menu."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from bertstudio.data.kinds import get_spec, is_bio_tag_set


def _keys(*portable: str) -> str:
    """Key combinations as this system names them, from Qt's portable names: ⌘Z and ⌥M on macOS,
    where Qt's Ctrl is the Command key (a literal "Ctrl+T" sent people to the Control key, which
    does nothing there), Ctrl+Z elsewhere. The shortcuts themselves are made from the same names."""
    return " / ".join(QKeySequence(k).toString(QKeySequence.SequenceFormat.NativeText) for k in portable)


def _picker(what: str) -> tuple[str, str]:
    """The label picker's row; ``what`` is already translated (labels, entity types or tags)."""
    return QCoreApplication.translate("HelpPanel", "a letter (not S), or /"), what


def _accept(gold: str) -> list[tuple[str, str]]:
    """The labelling assistant's key: Enter accepts its suggestion (QA has none)."""
    what = {
        "label": QCoreApplication.translate("HelpPanel", "accept the suggested label (grey, under the text); any label key overrides it"),
        "score": QCoreApplication.translate("HelpPanel", "accept the suggested score (grey, under the text)"),
        "tags": QCoreApplication.translate("HelpPanel", "store the suggested tags (grey, under the words)"),
    }.get(gold)
    return [(QCoreApplication.translate("HelpPanel", "Enter"), what)] if what else []


def shortcuts(kind: str, labels: list[str] | None = None, assistant: bool = False) -> list[tuple[str, str]]:
    """(keys, what they do) for one task kind (its editor is chosen by its gold type), most used first.

    ``labels`` is the project's label set: a tagging project with B-/I- tags is told about
    entities, one with plain tags (POS) about tags. ``assistant``: the labelling assistant
    is on (Enter accepts its suggestion; S / Space go to the next example of the Next order)."""
    gold = get_spec(kind).gold.name
    return (_accept(gold) if assistant else []) + _kind_shortcuts(kind, gold, labels, assistant) + (
        _assistant_keys() if assistant else [])


def _assistant_keys() -> list[tuple[str, str]]:
    return [(QCoreApplication.translate("HelpPanel", "Tab"),
             QCoreApplication.translate("HelpPanel", "reach the Next order and Train now; arrows step the order, a choice from its list gives the keys back to the editor")),
            (_keys("Ctrl+T"),
             QCoreApplication.translate("HelpPanel", "train the assistant's stronger model now"))]


def _advance() -> list[tuple[str, str]]:
    """The key of the editor's "Move to the next example" box: its mnemonic, read from the box's
    own (translated) text, none on macOS, where Qt turns mnemonics off (Alt+M did nothing there)."""
    key = QKeySequence.mnemonic(QCoreApplication.translate("SentenceEditor", "&Move to the next example after labelling"))
    if key.isEmpty():
        return []
    return [(key.toString(QKeySequence.SequenceFormat.NativeText),
             QCoreApplication.translate("HelpPanel", "turn moving to the next example after labelling on or off"))]


def _scroll() -> tuple[str, str]:
    return (QCoreApplication.translate("HelpPanel", "Shift+Page Up / Shift+Page Down"),
            QCoreApplication.translate("HelpPanel", "scroll a long text"))


def _kind_shortcuts(kind: str, gold: str, labels: list[str] | None, assistant: bool) -> list[tuple[str, str]]:
    skip = (QCoreApplication.translate("HelpPanel", "skip: the next example in the Next order (this one comes back last)")
            if assistant else
            QCoreApplication.translate("HelpPanel", "skip to the next unlabelled example"))
    move = [
        (QCoreApplication.translate("HelpPanel", "← / → or ↑ / ↓"), QCoreApplication.translate("HelpPanel", "previous / next example")),
        (QCoreApplication.translate("HelpPanel", "S or Space"), skip),
        _scroll(),
        (_keys("Ctrl+Z", "Ctrl+Shift+Z"), QCoreApplication.translate("HelpPanel", "undo / redo the last edit")),
    ]
    if gold == "label":
        return [(QCoreApplication.translate("HelpPanel", "1 … 9"), QCoreApplication.translate("HelpPanel", "apply the label with that number (see the legend)")),
                _picker(QCoreApplication.translate("HelpPanel", "pick any label by typing part of its name; Enter applies it (the legend shows each label's key)")),
                (QCoreApplication.translate("HelpPanel", "0, Backspace or Delete"), QCoreApplication.translate("HelpPanel", "clear the label"))] + move + _advance()
    if gold == "score":
        return [(QCoreApplication.translate("HelpPanel", "0 … 9"), QCoreApplication.translate("HelpPanel", "set that whole score, where it is on the project's scale")), (QCoreApplication.translate("HelpPanel", "slider / box"), QCoreApplication.translate("HelpPanel", "set a finer score")),
                (QCoreApplication.translate("HelpPanel", "Enter or an arrow in the box"), QCoreApplication.translate("HelpPanel", "store the typed score (an arrow then moves on)")),
                (QCoreApplication.translate("HelpPanel", "Backspace"), QCoreApplication.translate("HelpPanel", "clear the score"))] + move + _advance()
    if gold == "tags":
        if is_bio_tag_set(list(labels or [])):
            apply = [(QCoreApplication.translate("HelpPanel", "1 … 9"), QCoreApplication.translate("HelpPanel", "mark the selected words as that entity type (B- on the first, I- on the rest)")),
                     _picker(QCoreApplication.translate("HelpPanel", "pick any entity type by typing part of its name; Enter applies it (the legend shows each type's key)")),
                     (QCoreApplication.translate("HelpPanel", "0 or Backspace"), QCoreApplication.translate("HelpPanel", "clear the entity under the cursor")),
                     (QCoreApplication.translate("HelpPanel", "Shift+Enter") if assistant else QCoreApplication.translate("HelpPanel", "Enter"),
                      QCoreApplication.translate("HelpPanel", "store the sentence as marked and go on (with no entity marked, every word is O)"))]
        else:
            apply = [(QCoreApplication.translate("HelpPanel", "1 … 9"), QCoreApplication.translate("HelpPanel", "give each selected word the tag with that number; a sentence is stored once every word has a tag")),
                     _picker(QCoreApplication.translate("HelpPanel", "pick any tag by typing part of its name; Enter applies it (the legend shows each tag's key)")),
                     (QCoreApplication.translate("HelpPanel", "0 or Backspace"), QCoreApplication.translate("HelpPanel", "clear the tag of the selected words"))]
        return [
            (QCoreApplication.translate("HelpPanel", "← / →"), QCoreApplication.translate("HelpPanel", "move the word cursor")),
            (QCoreApplication.translate("HelpPanel", "Shift+← / Shift+→, or drag"), QCoreApplication.translate("HelpPanel", "select several words")),
            *apply,
            (QCoreApplication.translate("HelpPanel", "↑ / ↓, Page Up / Page Down"), QCoreApplication.translate("HelpPanel", "previous / next sentence")),
            (QCoreApplication.translate("HelpPanel", "S or Space"), skip if assistant else QCoreApplication.translate("HelpPanel", "skip to the next unlabelled sentence")),
            _scroll(),
            (_keys("Ctrl+Z", "Ctrl+Shift+Z"), QCoreApplication.translate("HelpPanel", "undo / redo")),
        ]
    return [
        (QCoreApplication.translate("HelpPanel", "select with the mouse"), QCoreApplication.translate("HelpPanel", "the selection becomes the answer")),
        # the keyboard's way to an answer, said nowhere on the page (sweep_qalabel 5)
        (QCoreApplication.translate("HelpPanel", "Tab to the context, then Shift+arrows"),
         QCoreApplication.translate("HelpPanel", "select the answer by keyboard; Enter uses it")),
        (QCoreApplication.translate("HelpPanel", "Enter"), QCoreApplication.translate("HelpPanel", "use the current selection as the answer")),
        (QCoreApplication.translate("HelpPanel", "N"), QCoreApplication.translate("HelpPanel", "toggle 'no answer'")),
        (QCoreApplication.translate("HelpPanel", "Backspace"), QCoreApplication.translate("HelpPanel", "clear the answer")),
        (QCoreApplication.translate("HelpPanel", "↑ / ↓, Page Up / Page Down"), QCoreApplication.translate("HelpPanel", "previous / next question")),
        (QCoreApplication.translate("HelpPanel", "S or Space"), skip if assistant else QCoreApplication.translate("HelpPanel", "skip to the next unanswered question")),
        _scroll(),
        (_keys("Ctrl+Z", "Ctrl+Shift+Z"), QCoreApplication.translate("HelpPanel", "undo / redo")),
    ]


def shortcuts_html(kind: str, labels: list[str] | None = None, assistant: bool = False) -> str:
    rows = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in shortcuts(kind, labels, assistant))
    title = QCoreApplication.translate("HelpPanel", "Keyboard")  # outside the f-string, where lupdate sees it
    return f"<h3>{title}</h3><table cellspacing='4'>{rows}</table>"


def window_shortcuts(actions: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The main window's keys: ``actions`` as (keys, what) from the window's own actions (the
    menus' home of each key), then what no action says. The Keyboard shortcuts dialog lists them
    below the labelling keys, which were all it showed."""
    return [*actions,
            (QCoreApplication.translate("HelpPanel", "Tab / Shift+Tab"),
             QCoreApplication.translate("HelpPanel", "move between a page's controls; tables and text boxes let Tab go on")),
            (QCoreApplication.translate("HelpPanel", "Enter"),
             QCoreApplication.translate("HelpPanel", "in the Data and Runs tables: open the row or run")),
            (_keys("Ctrl+Return"),  # a shortcut of the page's own (training_page), not an action
             QCoreApplication.translate("HelpPanel", "Start training (Train page)"))]


def window_html(actions: Sequence[tuple[str, str]]) -> str:
    rows = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in window_shortcuts(actions))
    title = QCoreApplication.translate("HelpPanel", "Window")
    return f"<h3>{title}</h3><table cellspacing='4'>{rows}</table>"


class HelpPanel(QTextBrowser):
    """The shortcut table of the current kind (read-only)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("helpPanel")
        self.setOpenExternalLinks(False)
        self.set_kind("sentence")

    def set_kind(self, kind: str, labels: list[str] | None = None, assistant: bool = False) -> None:
        self.setHtml(shortcuts_html(kind, labels, assistant))


class ShortcutsDialog(QDialog):
    def __init__(self, kind: str, parent: QWidget | None = None, labels: list[str] | None = None,
                 assistant: bool = False, window_keys: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(parent)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        panel = HelpPanel(self)
        panel.setHtml(shortcuts_html(kind, labels, assistant) + window_html(window_keys))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(panel)
        layout.addWidget(buttons)
        self.resize(520, 420)
