"""The Keyboard help names keys as the system does: on macOS Qt's Ctrl is the Command key and
mnemonics are off, and the panel said "Ctrl+T" and "Alt+M" there, keys that do nothing."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

from bertstudio.ui import help_panel


class _MacKeySequence:
    """What QKeySequence gives on macOS: native names with ⌘/⌥/⇧, and no mnemonics."""

    SequenceFormat = QKeySequence.SequenceFormat

    def __init__(self, keys: str = "") -> None:
        self.keys = keys

    def toString(self, _format: object = None) -> str:  # noqa: N802 - Qt's name
        return self.keys.replace("Ctrl+", "⌘").replace("Alt+", "⌥").replace("Shift+", "⇧")

    def isEmpty(self) -> bool:  # noqa: N802
        return not self.keys

    @staticmethod
    def mnemonic(_text: str) -> "_MacKeySequence":
        return _MacKeySequence()


def test_the_keys_are_named_as_macos_names_them(qapp, monkeypatch):
    monkeypatch.setattr(help_panel, "QKeySequence", _MacKeySequence, raising=False)
    keys = [k for k, _ in help_panel.shortcuts("sentence", ["neg", "pos"], assistant=True)]
    assert "⌘Z / ⌘⇧Z" in keys and "⌘T" in keys
    assert not any("Ctrl" in k or "Alt" in k for k in keys), keys  # no mnemonic on macOS: no Alt+M row


def test_elsewhere_the_keys_and_the_move_on_mnemonic_are_listed(qapp):
    keys = [k for k, _ in help_panel.shortcuts("sentence", ["neg", "pos"], assistant=True)]
    assert "Ctrl+Z / Ctrl+Shift+Z" in keys and "Ctrl+T" in keys and "Alt+M" in keys


def test_the_qa_help_says_how_to_choose_an_answer_by_keyboard(qapp):
    """sweep_qalabel 5: the QA help named only the mouse for choosing an answer, though Tab to the
    context, Shift+arrows and Enter work."""
    said = dict(help_panel.shortcuts("qa"))
    assert "Enter" in said["Tab to the context, then Shift+arrows"]
