"""Say why a spin box put a typed number back.

A Qt spin box takes a number below its minimum while it is typed (it may still grow into range),
and when the person leaves the field it silently puts the value it had back: 4 typed as the
maximum length (at least 8) read 128 again with no word. :class:`RangeNotes` watches what was
typed, and when the field is left with a number outside its range it says which range, in the
field's tooltip and to whoever listens (the Train page's settings form shows it under the form).

Qt also read a number in ways that changed its size with no word: "2,5" epochs in English read 25 (the
comma taken as a thousands separator), "0.001" in German read 1, and a keystroke the field refused (the
minus of -5, the 4th digit of 5000) was dropped as it was typed. :class:`NumberSpinBox` and
:class:`DecimalSpinBox` read what is typed with :func:`read_typed`: either decimal mark where only one
reading is possible, nothing dropped, and anything else put back when the field is left, said by
:class:`RangeNotes` as an out-of-range number is.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QSpinBox

_MARKS = (".", ",")  # the decimal marks people type, whatever their locale


class RangeNotes(QObject):
    """``names``: each watched spin box -> the setting's name as the interface says it."""

    refused = Signal(object, str)  # the spin box, what to say ("" once a number it takes is typed)

    def __init__(self, names: dict[QAbstractSpinBox, str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._names = names
        self._typed: dict[QAbstractSpinBox, str] = {}
        self._help: dict[QAbstractSpinBox, str] = {}
        self._noted: set[QAbstractSpinBox] = set()  # the fields whose note is up
        # each field's value before the typing began: a refused number puts it back, not the value a part of
        # the typing made on the way (5000 typed as the maximum length went through 500)
        self._settled: dict[QAbstractSpinBox, float] = {}
        for spin in names:
            line = spin.lineEdit()
            if line is None:
                continue
            self._settled[spin] = spin.value()
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
        reading = read_typed(spin, typed)
        if reading.problem in ("", "empty"):
            self._said(spin, "")
            self._settled[spin] = spin.value()
            return
        if spin.value() != self._settled[spin]:
            spin.setValue(self._settled[spin])
        words = {"typed": _clean(spin, typed), "setting": self._names[spin],
                 "low": spin.textFromValue(spin.minimum()), "high": spin.textFromValue(spin.maximum()),
                 "value": spin.textFromValue(spin.value()), "point": spin.locale().decimalPoint()}
        if reading.problem == "range":
            text = self.tr("{typed} is outside the range of the {setting} ({low} to {high}): it was put back to "
                           "{value}.")
        elif reading.problem == "two_ways":
            text = self.tr("{typed} could be {a} or {b} (the decimal point here is '{point}'): the {setting} was put "
                           "back to {value}.")
            words.update(a=spin.textFromValue(reading.value), b=spin.textFromValue(reading.other))
        elif reading.problem == "decimals":
            text = self.tr("{typed} has more decimals than the {setting} keeps ({decimals}): it was put back to "
                           "{value}.")
            words.update(decimals=getattr(spin, "decimals", lambda: 0)())
        elif reading.problem == "whole":
            text = self.tr("{typed} is not a whole number, which the {setting} needs: it was put back to {value}.")
        else:
            text = self.tr("{typed} is not a number the {setting} reads (the decimal point here is '{point}'): it was "
                           "put back to {value}.")
        self._said(spin, text.format(**words))

    def _on_value_changed(self, spin: QAbstractSpinBox, value: float) -> None:
        if not spin.lineEdit().isModified():  # set by the program or the arrows, not a keystroke on the way
            self._settled[spin] = value
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


@dataclass(frozen=True)
class Reading:
    """What a typed text means to a spin box: ``value`` the number (None where none can be told) and
    ``problem``, "" when the field takes it, else why not: "empty", "range", "two_ways" (``value`` as the
    field's locale reads the mark, ``other`` with it read the other way: "1,000" in an English decimal
    field is 1000 or 1, "1.000" in an English whole-number field 1 or 1000), "decimals", "whole", "number"."""

    value: float | None
    problem: str = ""
    other: float | None = None


def read_typed(spin: QSpinBox | QDoubleSpinBox, typed: str) -> Reading:
    """The number typed, read with the field's locale, and with the other decimal mark too where only one
    reading is possible: "2,5" or "0,001" cannot be thousands (a group has 3 digits and no leading 0),
    "1.000.000" cannot be a decimal; "1,000" in a decimal field could be either and is refused, as is
    "1.000" in a whole-number field (English), where the decimals make no sense and a thousand might be meant."""
    # a locale's own digits (Arabic-Indic, as its textFromValue writes them) read as 0-9
    text = "".join(str(unicodedata.decimal(c)) if c.isdecimal() and not c.isascii() else c for c in _clean(spin, typed))
    if not text:
        return Reading(None, "empty")
    locale = spin.locale()
    point, group = locale.decimalPoint(), locale.groupSeparator()
    sign = -1.0 if text[0] in ("-", "\u2212", locale.negativeSign()) else 1.0
    body = text[1:] if text[0] in ("-", "+", "\u2212", locale.negativeSign(), locale.positiveSign()) else text
    if not body or any(not (c.isascii() and c.isdigit()) and c not in (point, group, *_MARKS) for c in body):
        return Reading(None, "number")
    whole_field = not isinstance(spin, QDoubleSpinBox)
    other = None
    if body.count(point) == 1:  # more than one: thousands grouped as another locale groups them
        head, _, frac = body.partition(point)
        number = _grouped(head, group) if head else 0
        if number is None or not frac.isdigit() and frac or not head and not frac:
            return Reading(None, "number")
        value = float(f"{number}.{frac or 0}")
        if whole_field and frac == "000" and _grouped(body, point) is not None:
            # "1.000" in English: 1 as the field's locale reads it, but a whole number has no decimals to
            # write, so it may be a thousand grouped as another locale groups it; both are whole: refused
            other = float(_grouped(body, point))
    else:
        seps = {c for c in body if not c.isdigit()}
        if not seps:
            value, frac = float(body), ""
        elif len(seps) > 1:
            return Reading(None, "number")
        else:
            mark = seps.pop()
            head, *rest = body.split(mark)
            number = _grouped(body, mark)
            decimal = mark in _MARKS and len(rest) == 1 and (number is None or not whole_field)
            if number is not None and decimal:  # "1,000": a thousand, or one with 3 decimals
                value, frac = float(number), ""
                other = float(f"{head}.{rest[0]}")
            elif number is not None:
                value, frac = float(number), ""
            elif decimal and (head or rest[0]) and (not head or head.isdigit()) and (not rest[0] or rest[0].isdigit()):
                value, frac = float(f"{head or 0}.{rest[0] or 0}"), rest[0]
            else:
                return Reading(None, "number")
    value *= sign
    if other is not None:
        return (Reading(int(value), "two_ways", int(sign * other)) if whole_field else
                Reading(value, "two_ways", sign * other))
    if whole_field and math.isfinite(value) and value != int(value):  # "1.5" as a maximum length
        return Reading(value, "whole")
    if not spin.minimum() <= value <= spin.maximum():
        return Reading(value, "range")
    if not whole_field and len(frac.rstrip("0")) > spin.decimals():
        return Reading(value, "decimals")
    return Reading(int(value) if whole_field else value)


def _grouped(digits: str, mark: str) -> int | None:
    """``digits`` as a number written with ``mark`` between groups of 3 ("12,345", or no mark at all); None if not."""
    head, *groups = digits.split(mark)
    if not head.isdigit() or (groups and (len(head) > 3 or head.startswith("0"))):
        return None
    if any(len(g) != 3 or not g.isdigit() for g in groups):
        return None
    return int(head + "".join(groups))


class _ReadsTyped:
    """Reads what is typed with :func:`read_typed`; text it does not take stays in the field (Intermediate,
    never a dropped keystroke) and is put back, and said, when the field is left."""

    def validate(self, text: str, pos: int) -> object:
        prefix, suffix = self.prefix(), self.suffix()
        if not text.startswith(prefix) or not text.endswith(suffix):  # the affixes: Qt's own rules
            return super().validate(text, pos)
        state = QValidator.State.Acceptable if not read_typed(self, text).problem else QValidator.State.Intermediate
        return state, text, pos

    def valueFromText(self, text: str) -> float:
        reading = read_typed(self, text)
        return reading.value if not reading.problem else super().valueFromText(text)

    def fixup(self, text: str) -> str:
        return text  # Qt's fixup strips group separators: "1,000" would become 1000 after all


class NumberSpinBox(_ReadsTyped, QSpinBox):
    """A QSpinBox that reads either mark as a thousands separator where the field's locale does not take it
    for its decimal point ("1,000" in English, "1.000" in German: 1000), refuses the locale's own decimal
    point before 3 zeros visibly ("1.000" in English: 1 or 1000?) and drops no keystroke."""


class DecimalSpinBox(_ReadsTyped, QDoubleSpinBox):
    """A QDoubleSpinBox that reads "2,5" and "2.5" alike and refuses "1,000" (a thousand, or one?) visibly."""


def _clean(spin: QSpinBox | QDoubleSpinBox, typed: str) -> str:
    text = typed.strip()
    for affix, cut in ((spin.prefix().strip(), str.removeprefix), (spin.suffix().strip(), str.removesuffix)):
        if affix:
            text = cut(text, affix).strip()
    return text
