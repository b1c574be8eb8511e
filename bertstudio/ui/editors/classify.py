"""Editors for sentence, pair and regression examples.

Sentence/pair: number keys 1-9 apply the label set's first nine labels, a letter
(or /) opens the type-to-filter label picker for any of them, 0 or Backspace
clears, arrows move, S/Space jumps to the next unlabelled example. After a
label is applied the editor moves on (the usual rhythm of labelling tools);
the "advance" box turns that off. While the labelling assistant has a suggestion for an
unlabelled example it is shown under the text (grey, italic: a suggestion, never a
label), its legend button is framed and the picker opens on it; Enter accepts it. Regression: a slider
over the project's score scale (a benchmark's own, STS-B 0-5; otherwise the usual scale 0-1, 0-5,
0-10, 0-100, ... that holds its scores: :func:`bertstudio.tasks.classification.gold_scale`), number
keys set whole scores on it, and the score box takes a typed score: Enter or an arrow key stores it
and gives the keys back to the editor (the arrows move on).
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QEvent, QLocale, QObject, Qt, QTimer
from PySide6.QtGui import QFont, QKeyEvent, QValidator
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QSlider,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from bertstudio.tasks.classification import gold_scale
from bertstudio.ui.editors.base import NUMBER_KEYS, KindEditor
from bertstudio.ui.editors.legend import LabelLegend
from bertstudio.ui.theme import text_colour, text_points
from bertstudio.ui.session import SPLITS, ProjectSession


def _text_view(name: str, point_size: int) -> QTextBrowser:
    view = QTextBrowser()
    view.setObjectName(name)
    view.setOpenLinks(False)
    view.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys go to the editor, not the text
    font = QFont(view.font())
    font.setPointSize(text_points(point_size))
    view.setFont(font)
    return view


class SentenceEditor(KindEditor):
    kind = "sentence"
    has_pair = False

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setObjectName(f"{self.kind}Editor")
        self.text_view = _text_view("exampleText", 18)
        self.pair_view = _text_view("examplePairText", 18)
        texts = QHBoxLayout()
        texts.addWidget(self.text_view)
        texts.addWidget(self.pair_view)
        self.gold_label = QLabel()
        self.gold_label.setObjectName("goldLabel")
        self.gold_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.gold_label.setTextFormat(Qt.TextFormat.PlainText)  # a label named "<b>x</b>" is that text
        self.gold_label.setWordWrap(True)  # on one line a 60-character name at 16 pt held the window 1,085 px wide
        self.suggestion_label = QLabel()
        self.suggestion_label.setObjectName("suggestionLabel")
        self.suggestion_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.suggestion_label.setWordWrap(True)
        self.suggestion_label.setTextFormat(Qt.TextFormat.PlainText)
        # italics and "Suggested:" set it apart from gold; grey (palette(mid)) read at 1.7:1
        self.suggestion_label.setStyleSheet("font-style: italic;")
        self.legend = LabelLegend(self)
        self.legend.label_clicked.connect(self.apply_label)
        # Alt+M turns it on and off (no key did: it never takes focus, so the number keys stay the editor's)
        self.advance_box = QCheckBox(self.tr("&Move to the next example after labelling"))
        self.advance_box.setObjectName("advanceBox")
        self.advance_box.setChecked(True)
        self.advance_box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout = QVBoxLayout(self)
        self.headers = QHBoxLayout()
        self._first_header = QLabel(self.tr("Premise / first text"))
        self._second_header = QLabel(self.tr("Hypothesis / second text"))
        for w in (self._first_header, self._second_header):
            self.headers.addWidget(w)
        self._show_pair(self.has_pair)
        layout.addLayout(self.headers)
        layout.addLayout(texts, 1)
        layout.addWidget(self.gold_label)
        layout.addWidget(self.suggestion_label)
        self._add_controls(layout)
        layout.addWidget(self.advance_box)

    def _show_pair(self, shown: bool) -> None:
        """The second text box and both titles, for a project whose rows have a second text."""
        for w in (self.pair_view, self._first_header, self._second_header):
            w.setVisible(shown)

    def _add_controls(self, layout: QVBoxLayout) -> None:
        layout.addWidget(self.legend)

    def refresh(self) -> None:
        if self.isActive():
            self.legend.set_labels(self.choices(), self.session.label_colours(), self.choice_keys(),
                                   self.tr("Press %1 or click to label this example '%2'"))
        super().refresh()

    def choices(self) -> list[str]:
        return self.session.labels()

    def text_views(self) -> list[QAbstractScrollArea]:
        return [self.text_view, self.pair_view]

    def apply_choice(self, name: str) -> None:
        self.apply_label(name)

    def current_choice(self) -> str | None:
        gold = self.session.gold(self.split, self.row)
        if gold is None:
            suggestion = self.suggestion()
            return None if suggestion is None else str(suggestion.value)
        return str(gold)

    def show_row(self, values: dict[str, Any]) -> None:
        texts = (values.get("text") or "", values.get("text_pair") or "")
        if texts != getattr(self, "_texts_shown", None):  # a label key redrew the row: the same texts stay
            # (setPlainText of a 1 MB text took 0.4 s at every key, and put the view back at its top)
            self.text_view.setPlainText(texts[0])
            self.pair_view.setPlainText(texts[1])
            self._texts_shown = texts
        self._show_gold(values.get("label"))
        self.show_suggestion()

    def show_suggestion(self) -> None:
        from bertstudio.ui.assist_controller import source_text, suggestion_text

        assist = self.session.assist
        suggestion = self.suggestion() if self.row >= 0 else None
        if suggestion is not None:
            text = self.tr("Suggested: %1 (%2)").replace("%1", suggestion_text(suggestion)).replace(
                "%2", source_text(suggestion.source))
            if self.session.gold(self.split, self.row) is None:
                text += " · " + self.tr("Enter accepts it, any label key overrides it")
        elif self.row >= 0 and assist.is_audit_pick(self.split, self.row):
            text = self.tr("Audit example: drawn at random to check the model, so its suggestion is hidden")
        elif self.row >= 0 and assist.is_active(self.split):
            text = assist.waiting_text()
        else:
            text = ""
        self.suggestion_label.setText(text)
        self.suggestion_label.setVisible(bool(text))
        self.legend.set_suggested(str(suggestion.value) if suggestion is not None else None)

    def accept_suggestion(self) -> bool:
        suggestion = self.unlabelled_suggestion()
        if suggestion is None or str(suggestion.value) not in self.choices():
            return False
        self.apply_label(str(suggestion.value))
        return True

    def _show_gold(self, gold: Any) -> None:
        if gold is None:
            self.gold_label.setText(self.tr("(not labelled)") if self.row >= 0 else self.tr("(no example)"))
            self.gold_label.setStyleSheet(f"font-size: {text_points(16)}pt; font-style: italic;")  # in words, at full contrast
            return
        colour = self.session.label_colours().get(str(gold), "#999999")
        self.gold_label.setText(str(gold))
        self.gold_label.setStyleSheet(
            f"font-size: {text_points(16)}pt; background: {colour}; color: {text_colour(colour)}; border-radius: 6px; padding: 4px;"
        )

    def apply_label(self, name: str) -> None:
        if self.row < 0:
            return
        stored = self.set_gold(name, self.tr("Label row %1 as '%2'").replace("%1", str(self.row + 1)).replace("%2", name))
        if stored and self.advance_box.isChecked():  # not saved: the row stays in view
            self.advance()

    def clear_label(self) -> None:
        if self.row >= 0 and self.session.gold(self.split, self.row) is not None:
            self.set_gold(None, self.tr("Clear the label of row %1").replace("%1", str(self.row + 1)))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if self.handle_label_keys(event):
            return
        if key in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete) or NUMBER_KEYS.get(key) == 0:
            self.clear_label()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers():
            if not self.accept_suggestion():
                self._say_why_enter_did_nothing()
        elif not self.handle_navigation(event):
            super().keyPressEvent(event)

    def _say_why_enter_did_nothing(self) -> None:
        """Enter on an example with no suggestion to accept: say so (25 fast Enters once labelled
        4 rows without a word: the rest were audit examples, whose suggestion is hidden)."""
        if self.row < 0 or self.session.gold(self.split, self.row) is not None:
            return
        assist = getattr(self.session, "assist", None)
        if assist is not None and assist.is_audit_pick(self.split, self.row):
            said = self.tr("Audit example: Enter has no suggestion to accept here (hidden on purpose); %1")
        elif assist is not None and not assist.is_on():
            said = self.tr("No suggestions while the labelling assistant is off (Tools > Labelling assistant): %1")
        else:
            said = self.tr("No suggestion to accept yet: %1")
        self.message_shown.emit(said.replace("%1", self._how_to_label()))

    def _how_to_label(self) -> str:
        return self.tr("pick the label with a number key")


class PairEditor(SentenceEditor):
    kind = "pair"
    has_pair = True


def _score_text(score: float) -> str:
    """A score as stored, to at most three decimals (4.25, 0.018, 3.0)."""
    return f"{score:.3f}".rstrip("0").rstrip(".") if score % 1 else f"{score:.1f}"


def project_score_scale(session: Any) -> tuple[float, float, str | None]:
    """The open project's score scale (low, high) and the benchmark preset that fixes it (STS-B's
    0-5, where a score outside is refused) or None: the preset's scale, otherwise the usual scale
    holding the project's gold scores (:func:`gold_scale`). The Label page and Add examples read it here."""
    from bertstudio.data.glue import score_scale

    project = session.project
    golds: list[Any] = []
    for split in project.split_names:
        golds += session.examples(split).gold_values()
    low, high = gold_scale(golds, project.glue_task)
    return low, high, (project.glue_task if score_scale(project.glue_task) is not None else None)


class ScoreBox(QDoubleSpinBox):
    """The score box: three decimals taken, no trailing zeros shown (3.7, not 3.700); its arrows
    and the wheel step within the editor's scale ``low``..``high``, from "none" to ``low``."""

    def __init__(self, low: float, high: float) -> None:
        super().__init__()
        self.set_scale(low, high)

    def set_scale(self, low: float, high: float) -> None:
        """Arrows over ``low``..``high`` in about 50 steps on a power of ten (tenths on 0-5,
        hundredths on 0-1, whole points on 0-100). The box itself takes ten times the scale, so its
        validator never drops a typed digit (a range of -0.1..5 kept ".5" of a typed 7.5 and
        stored 0.5); its minimum is the "none" value, far below any score typed."""
        self.scale = (low, high)
        unscored = -max(9999.0, 10.0 * max(abs(low), abs(high)))
        self.setRange(unscored, -unscored)
        self.setSingleStep(10.0 ** math.floor(math.log10((high - low) / 50.0)))

    def stepBy(self, steps: int) -> None:  # noqa: N802 - Qt override
        low, high = self.scale
        if self.value() == self.minimum():  # "none": the first step is the scale's start (it went to -9998.9)
            self.setValue(low if steps > 0 else self.minimum())
            return
        self.setValue(min(high, max(low, round(self.value() + steps * self.singleStep(), self.decimals()))))

    def stepEnabled(self) -> QDoubleSpinBox.StepEnabledFlag:  # noqa: N802 - Qt override
        low, high = self.scale
        value, flags = self.value(), QDoubleSpinBox.StepEnabledFlag.StepNone
        if value < high:
            flags |= QDoubleSpinBox.StepEnabledFlag.StepUpEnabled
        if value > low:
            flags |= QDoubleSpinBox.StepEnabledFlag.StepDownEnabled
        return flags

    def decimal_text(self, text: str) -> str:
        """``text`` with a lone decimal comma read as the decimal point (or a lone point, where the
        locale writes a comma): the box took "," as a group separator, so "0,5" stored 5.0 without a
        word. A score never holds a group separator, so one such mark can only be a decimal one."""
        point = self.locale().decimalPoint()
        other = "," if point != "," else "."
        if text.count(other) == 1 and point not in text:
            return text.replace(other, point)
        return text

    def validate(self, text: str, pos: int) -> object:  # noqa: D102 - Qt override
        if self.locale().groupSeparator() in self.decimal_text(text):
            return QValidator.State.Invalid, text, pos  # "1,2,3": no score reads that way
        state = super().validate(self.decimal_text(text), pos)
        return (state[0] if isinstance(state, tuple) else state), text, pos

    def valueFromText(self, text: str) -> float:  # noqa: N802 - Qt override
        return super().valueFromText(self.decimal_text(text))

    def textFromValue(self, value: float) -> str:  # noqa: N802 - Qt override
        locale = self.locale()  # the box reads typed text in its locale: write it the same way
        locale.setNumberOptions(QLocale.NumberOption.OmitGroupSeparator)
        point = locale.decimalPoint()
        text = locale.toString(float(value), "f", self.decimals()).rstrip("0")
        return text + "0" if text.endswith(point) else text


class RegressionEditor(SentenceEditor):
    """A score on the project's scale: slider, spin box, or number keys for whole scores.

    The scale is a benchmark preset's (STS-B: 0-5, where a score outside it is refused), otherwise
    the usual scale holding the project's scores (:func:`gold_scale`: 1-10 ratings read 0-10); a
    score typed or suggested beyond that is stored as it is and the scale widens, with a word.
    A fixed 0-5 kept 1-10 and 0-100 projects from being labelled and stored an accepted
    suggestion of 8.0 as 5.0."""

    kind = "regression"
    has_pair = False  # the second text is optional: shown only when a row has one (refresh)
    SCALE = 10  # slider units per score point (tenths on 0-5; the scale sets it, see _set_scale)
    LOW, HIGH = 0.0, 5.0  # the scale until a project gives its own
    # The box's "no score" value (shown as its special text, never stored). The box takes far more
    # than the scale so that its validator never drops a typed digit: with a range of -0.1..5,
    # typing 7.5 kept ".5" and stored 0.5 without a word. It grows with a large scale (_set_scale).
    UNSCORED = -9999.0
    TYPED_DECIMALS = 3  # as precise as STS-B's own scores (2.615)
    _MOVE_KEYS = (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_PageUp,
                  Qt.Key.Key_PageDown)

    def choices(self) -> list[str]:
        return []

    def _add_controls(self, layout: QVBoxLayout) -> None:
        row = QHBoxLayout()
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("scoreSlider")
        self.slider.setSingleStep(1)
        self.slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.spin = ScoreBox(self.LOW, self.HIGH)
        self.spin.setObjectName("scoreSpin")
        self.spin.setSpecialValueText(self.tr("none"))
        self.spin.setDecimals(self.TYPED_DECIMALS)  # 2.615 typed is 2.615 stored, not 2.6
        self.spin.setToolTip(self.tr("Type a score such as 3.7: Enter stores it, an arrow key stores it and "
                                     "moves to the previous or next example"))
        self.spin.installEventFilter(self)
        # what _show_gold put in the box and on the slider: leaving them as they are stores nothing
        # (a score of 4.25 shows as 4.3 there; storing that rewrote imported scores without a word)
        self._shown: tuple[int, float] = (0, self.UNSCORED)
        self._slid = QTimer(self, singleShot=True, interval=300)  # a click on the groove, the wheel
        self._slid.timeout.connect(self._on_slider_moved)
        self.slider.sliderReleased.connect(self._on_slider_moved)
        self.slider.valueChanged.connect(lambda _v: self.slider.isSliderDown() or self._slid.start())
        self.spin.editingFinished.connect(self._on_spin_finished)
        self.session.project_closing.connect(lambda _p: self._store_typed())  # typed, then the window closed
        # the scale (and whether a row has a second text) is read again from the project's rows
        # when they may have changed wholesale
        self._scale_stale = True
        self.session.project_opened.connect(self._on_scores_replaced)
        self.session.data_imported.connect(self._on_scores_replaced)
        self.low_label, self.high_label = QLabel(), QLabel()
        row.addWidget(self.low_label)
        row.addWidget(self.slider, 1)
        row.addWidget(self.high_label)
        row.addWidget(self.spin)
        layout.addLayout(row)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setEnabled(False)
        layout.addWidget(self.hint)
        self.legend.hide()
        self.preset: str | None = None  # a benchmark whose scale is fixed (STS-B): outside it is refused
        self._set_scale(self.LOW, self.HIGH)

    # -- the scale ---------------------------------------------------------------------------
    def _on_scores_replaced(self, *_args: Any) -> None:
        self._scale_stale = True

    def _read_scale(self) -> None:
        """The project's scale: its preset's, or the usual scale holding its gold scores."""
        self._scale_stale = False
        if self.session.project is None:
            return
        low, high, self.preset = project_score_scale(self.session)
        self._set_scale(low, high)
        self._show_pair(self._rows_have_pairs())

    def _rows_have_pairs(self) -> bool:
        """Whether a row of any split has a second text (train/small_data.has_pairs, every row): a
        project of scored sentences showed an empty "Hypothesis / second text" box to fill."""
        from bertstudio.train.small_data import has_pairs

        return any(has_pairs(self.session.examples(split), labelled=False)
                   for split in SPLITS if self.session.split_size(split))

    def _set_scale(self, low: float, high: float) -> None:
        """Slider, keys, box arrows and words over ``low``..``high``: about 50 slider steps, on a
        power of ten (tenths on 0-5, hundredths on 0-1, whole points on 0-100)."""
        self.LOW, self.HIGH = low, high
        self.spin.set_scale(low, high)
        self.UNSCORED = self.spin.minimum()
        step = self.spin.singleStep()
        self.SCALE = round(1.0 / step) if step < 1 else 1.0 / step  # slider units per score point
        self.slider_decimals = max(0, -math.floor(math.log10(step)))
        self.slider.blockSignals(True)
        self.slider.setRange(round(low * self.SCALE), round(high * self.SCALE))
        self.slider.setPageStep(max(1, round((high - low) * self.SCALE / 10)))
        self.slider.setTickInterval(max(1, round((high - low) * self.SCALE / 10)))
        self.slider.blockSignals(False)
        self.low_label.setText(f"{low:g}")
        self.high_label.setText(f"{high:g}")
        # number keys: the whole scores 0-9 that lie on the scale
        self.key_scores = [k for k in range(10) if low <= k <= high]
        keys = self._keys_text()
        self.hint.setText(self.tr("Keys %1 set a whole score; for finer scores drag the slider or type the score "
                                  "in the box (Enter or an arrow key stores it). Scale: %2 to %3.")
                          .replace("%1", keys).replace("%2", f"{low:g}").replace("%3", f"{high:g}"))

    def _keys_text(self) -> str:
        keys = self.key_scores
        return f"{keys[0]}-{keys[-1]}" if len(keys) > 1 else (str(keys[0]) if keys else "-")

    def scale_text(self) -> str:
        return f"{self.LOW:g}-{self.HIGH:g}" if self.LOW >= 0 else f"{self.LOW:g} to {self.HIGH:g}"

    def refresh(self) -> None:
        if self._scale_stale and self.isActive():
            self._read_scale()
        KindEditor.refresh(self)

    def accept_suggestion(self) -> bool:
        suggestion = self.unlabelled_suggestion()
        if suggestion is None:
            return False
        from bertstudio.ui.assist_controller import shown_score

        # as the grey line shows it (assist_controller.shown_score), never moved onto the scale
        stored = self.apply_score(shown_score(suggestion.value)[0], decimals=self.TYPED_DECIMALS + 3)
        if stored and self.advance_box.isChecked():
            self.advance()
        return True

    def _show_gold(self, gold: Any) -> None:
        if gold is None:
            self.gold_label.setText(self.tr("(not scored)") if self.row >= 0 else self.tr("(no example)"))
            self.gold_label.setStyleSheet(f"font-size: {text_points(16)}pt; font-style: italic;")
        else:
            # as stored (4.25, a prediction's 0.018), not rounded to the box's tenths
            self.gold_label.setText(_score_text(float(gold)))
            self.gold_label.setStyleSheet(f"font-size: {text_points(16)}pt;")
        # an unscored example shows "none" in the box, so leaving the box never stores a stale score
        score = self.UNSCORED if gold is None else float(gold)
        self._slid.stop()
        on_slider = round(min(max(score, self.LOW), self.HIGH) * self.SCALE)
        for w, v in ((self.slider, on_slider), (self.spin, score)):
            w.blockSignals(True)
            w.setValue(v)
            w.blockSignals(False)
        self._shown = (self.slider.value(), self.spin.value())  # as they hold it (the box rounds to tenths)

    def _on_spin_finished(self) -> None:
        value = self.spin.value()
        if value == self.UNSCORED or value == self._shown[1]:
            return  # only a score the person changed
        if not self.apply_score(value, decimals=self.TYPED_DECIMALS):
            self.spin.blockSignals(True)
            self.spin.setValue(self._shown[1])  # the stored score again
            self.spin.blockSignals(False)

    def _on_slider_moved(self) -> None:
        self._slid.stop()
        if self.slider.value() != self._shown[0]:
            self.apply_score(self.slider.value() / self.SCALE, decimals=self.slider_decimals)

    def _store_typed(self) -> None:
        """The project is closing: a score typed in the box without Enter is stored first."""
        if not self.isActive() or self.row < 0:  # the page's editor of another kind: nothing of its own
            return
        if self.spin.hasFocus():
            self.spin.interpretText()
        self._on_spin_finished()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter or an arrow in the score box: store the typed score, then the keys are the editor's."""
        if watched is self.spin and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = event.key()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) or key in self._MOVE_KEYS:
                self.spin.interpretText()
                self._on_spin_finished()
                self.setFocus()
                if key in self._MOVE_KEYS:
                    self.handle_navigation(event)
                return True
        return super().eventFilter(watched, event)

    def _how_to_label(self) -> str:
        return self.tr("set the score with keys %1 or type it in the box").replace("%1", self._keys_text())

    def apply_score(self, score: float, decimals: int = 1) -> bool:
        """Store ``score`` (a key's whole score, the slider's step, a suggestion as shown, a typed
        score to :data:`TYPED_DECIMALS`) as it is: never moved onto the scale. Outside a preset's
        scale it is refused; outside the scale of the project's scores it is stored and the scale
        widens, and both are said. True when stored (or already the gold)."""
        if self.row < 0 or not self.session.has_project():
            return False
        score = round(float(score), decimals)
        shown = _score_text(score)
        if not self.LOW <= score <= self.HIGH:
            if self.preset is not None:
                self.message_shown.emit(self.tr("%1 is outside the %2 scale %3: not stored").replace("%1", shown)
                                        .replace("%2", self.preset).replace("%3", self.scale_text()))
                return False
            old = self.scale_text()
            self._set_scale(*gold_scale([self.LOW, self.HIGH, score]))
            self.message_shown.emit(self.tr("%1 is outside the scale %2 of this project's scores: stored, and the "
                                            "scale is now %3").replace("%1", shown).replace("%2", old)
                                    .replace("%3", self.scale_text()))
        if self.session.gold(self.split, self.row) == score:
            return True
        text = self.tr("Score row %1 as %2").replace("%1", str(self.row + 1)).replace("%2", shown)
        return self.set_gold(score, text)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        number = NUMBER_KEYS.get(event.key())
        if number is not None and number in self.key_scores:
            if self.apply_score(float(number)) and self.advance_box.isChecked():
                self.advance()
        elif number is not None:
            self.message_shown.emit(self.tr("Key %1 sets nothing: keys %2 set whole scores on the scale %3; type "
                                            "other scores in the box").replace("%1", str(number))
                                    .replace("%2", self._keys_text()).replace("%3", self.scale_text()))
        elif event.key() in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete):
            self.clear_label()
        elif event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers():
            if not self.accept_suggestion():
                self._say_why_enter_did_nothing()
        elif not self.handle_navigation(event):
            KindEditor.keyPressEvent(self, event)
