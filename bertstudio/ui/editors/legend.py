"""The label legend: one coloured button per label with its key; clicking applies it.

Every label shows the key that applies it: 1-9 for the first nine, then the code typed
into the label picker ("au↵"). The editor supplies the keys and the tooltip's wording
(a label, an entity type, a tag), so the legend speaks the data's scheme.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QPushButton, QScrollArea, QSizePolicy, QWidget

from bertstudio.ui.editors.flow_layout import FlowLayout
from bertstudio.ui.theme import current_palette, follow, text_colour

NAME_WIDTH = 220  # px of a label's name on its button (a longer one is elided, whole in the tooltip)
MAX_ROWS = 5  # rows of buttons shown; more scroll (120 labels squeezed the example to one line)


def button_text(text: str) -> str:
    """``text`` as a button shows it: "&" is a mnemonic marker to Qt ("R&D" read "RD", with Alt+D)."""
    return text.replace("&", "&&")


class LabelLegend(QScrollArea):
    """Shows ``key  name`` per label in its colour; ``label_clicked(name)`` on click. As tall as
    its rows, up to MAX_ROWS; past them it scrolls."""

    label_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("labelLegend")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # number keys must keep reaching the editor
        inner = QWidget()
        inner.setObjectName("labelLegendButtons")
        self._layout = FlowLayout(inner)
        self.setWidget(inner)
        self._buttons: list[QPushButton] = []
        self._shown_as: tuple[object, ...] | None = None  # what the buttons show (set_labels skips a repeat)
        self._suggested_as: tuple[str | None, str] | None = None  # the framed label and the frame's colour
        follow(self, lambda: self.set_suggested(self.suggested()))  # the frame in a new palette's text colour
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True

    def _row(self) -> int:
        return (self._buttons[0].sizeHint().height() if self._buttons else self.fontMetrics().height()) + self._layout.spacing()

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        # MAX_ROWS whole rows as the layout places them: MAX_ROWS times the first button's height cut the
        # fifth row through its text (a row of CJK names is taller than a row of Latin ones)
        return self._layout.lines_height(max(1, width - self.verticalScrollBar().sizeHint().width()), MAX_ROWS)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        hint = self._layout.sizeHint()  # every button on one line; the layout asks heightForWidth at the real width
        return QSize(hint.width(), hint.height() if self._buttons else 0)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        widest = self._layout.minimumSize().width() + self.verticalScrollBar().sizeHint().width()
        return QSize(widest, self._row() - self._layout.spacing() if self._buttons else 0)

    def set_labels(self, names: list[str], colours: dict[str, str], keys: list[str] | None = None,
                   tip: str | None = None) -> None:
        """One button per name; ``keys[i]`` is shown before ``names[i]``; ``tip`` is the tooltip
        with %1 for the key and %2 for the name (default: "Press %1 or click to apply '%2'").

        Unchanged labels keep their buttons: editors call this for every example shown, and
        rebuilding 150 buttons took a fifth of a second per label key."""
        keys = list(keys or [])
        tip = tip or self.tr("Press %1 or click to apply '%2'")
        shown_as = (tuple(names), tuple(colours.get(n, "#999999") for n in names), tuple(keys), tip,
                    self.font().key())
        if shown_as == self._shown_as:
            return
        self._shown_as, self._suggested_as = shown_as, None
        old, self._buttons = self._buttons, []
        self._layout.setEnabled(False)  # placed once at the end: each add re-placed every button (quadratic)
        for button in old:
            self._layout.removeWidget(button)
            button.hide()  # deleted later, when control is back in the event loop; gone from view now
            button.deleteLater()
        for i, name in enumerate(names):
            key = keys[i] if i < len(keys) else ""
            shown = self.fontMetrics().elidedText(name, Qt.TextElideMode.ElideMiddle, NAME_WIDTH)
            button = QPushButton(button_text(f"{key}  {shown}" if key else shown), self.widget())
            button.setObjectName(f"legend_{name}")
            button.setProperty("labelKey", key)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # number keys must keep reaching the editor
            colour = colours.get(name, "#999999")
            button.setProperty("baseStyle", f"background: {colour}; color: {text_colour(colour)}; border-radius: 4px;"
                                            " padding: 3px 8px;")
            button.setStyleSheet(f"QPushButton {{ {button.property('baseStyle')} }}")
            button.setToolTip(tip.replace("%1", key or "-").replace("%2", name))
            button.clicked.connect(lambda _=False, n=name: self.label_clicked.emit(n))
            self._layout.addWidget(button)
            # shown now: a layout counts a child not yet shown (Qt shows it a moment later) as 0 px, and
            # the editor's layout, asked in that moment, kept the legend 0 px tall (no label to click)
            button.show()
            self._buttons.append(button)
        self._layout.setEnabled(True)
        self._layout.invalidate()
        self.updateGeometry()  # as tall as the new rows

    def set_suggested(self, name: str | None) -> None:
        """Mark the button of the model's suggested label (a dashed frame: a suggestion, not a label)."""
        text = current_palette().color(QPalette.ColorRole.Text).name()  # now: a sheet's palette(text) stays
        if (name, text) == self._suggested_as:  # asked at every example shown: 150 buttons read each time
            return
        self._suggested_as = (name, text)
        for button in self._buttons:  # the colour of the palette it was set under
            frame = f" border: 2px dashed {text};" if button.objectName() == f"legend_{name}" else ""
            sheet = f"QPushButton {{ {button.property('baseStyle')}{frame} }}"
            button.setProperty("suggested", bool(frame))
            if button.styleSheet() != sheet:  # a new sheet re-polishes: 150 of them at every example
                button.setStyleSheet(sheet)

    def suggested(self) -> str | None:
        return next((b.objectName().removeprefix("legend_") for b in self._buttons if b.property("suggested")), None)

    def names(self) -> list[str]:
        return [b.objectName().removeprefix("legend_") for b in self._buttons]

    def keys(self) -> list[str]:
        """The key shown for each label, in legend order."""
        return [str(b.property("labelKey") or "") for b in self._buttons]
