"""Say why a spin box put a typed number back.

A Qt spin box takes a number below its minimum while it is typed (it may still grow into range),
and when the person leaves the field it silently puts the value it had back: 4 typed as the
maximum length (at least 8) read 128 again with no word. :class:`RangeNotes` watches what was
typed, and when the field is left with a number outside its range it says which range, in the
field's tooltip and to whoever listens (the Train page's settings form shows it under the form).
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QSpinBox


class RangeNotes(QObject):
    """``names``: each watched spin box -> the setting's name as the interface says it."""

    refused = Signal(object, str)  # the spin box, what to say ("" once a number it takes is typed)

    def __init__(self, names: dict[QAbstractSpinBox, str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._names = names
        self._typed: dict[QAbstractSpinBox, str] = {}
        self._help: dict[QAbstractSpinBox, str] = {}
        self._noted: set[QAbstractSpinBox] = set()  # the fields whose note is up
        for spin in names:
            line = spin.lineEdit()
            if line is None:
                continue
            line.textEdited.connect(partial(self._on_typed, spin))
            spin.editingFinished.connect(partial(self._on_left, spin))
            # Qt puts the value back before editingFinished, so any later change is another value (loaded
            # settings, a preset, Automatic, the arrows): the note about the number put back no longer holds
            spin.valueChanged.connect(partial(self._on_value_changed, spin))

    def _on_typed(self, spin: QAbstractSpinBox, text: str) -> None:
        self._typed[spin] = text

    def _on_left(self, spin: QSpinBox | QDoubleSpinBox) -> None:
        typed = self._typed.pop(spin, None)
        if typed is None:
            return
        number = _number(spin, typed)
        if number is None or spin.minimum() <= number <= spin.maximum():
            self._said(spin, "")
            return
        text = self.tr("{typed} is outside the range of the {setting} ({low} to {high}): it was put back to "
                       "{value}.").format(typed=_clean(spin, typed), setting=self._names[spin],
                                          low=spin.textFromValue(spin.minimum()),
                                          high=spin.textFromValue(spin.maximum()),
                                          value=spin.textFromValue(spin.value()))
        self._said(spin, text)

    def _on_value_changed(self, spin: QAbstractSpinBox, *_: object) -> None:
        if spin in self._noted:
            self._said(spin, "")

    def _said(self, spin: QAbstractSpinBox, text: str) -> None:
        if text:
            self._noted.add(spin)
        else:
            self._noted.discard(spin)
        if spin not in self._help:
            self._help[spin] = spin.toolTip()  # the setting's help, kept under the note
        help_text = self._help[spin]
        spin.setToolTip(f"{text}\n\n{help_text}" if text and help_text else text or help_text)
        self.refused.emit(spin, text)


def _clean(spin: QSpinBox | QDoubleSpinBox, typed: str) -> str:
    text = typed.strip()
    for affix, cut in ((spin.prefix().strip(), str.removeprefix), (spin.suffix().strip(), str.removesuffix)):
        if affix:
            text = cut(text, affix).strip()
    return text


def _number(spin: QSpinBox | QDoubleSpinBox, typed: str) -> float | None:
    """The number typed, read as the spin box reads it (its locale); None for no number."""
    text = _clean(spin, typed)
    if not text:
        return None
    value, ok = spin.locale().toDouble(text)
    if ok:
        return float(value)
    try:
        return float(text)
    except ValueError:
        return None
