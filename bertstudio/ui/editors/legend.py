"""The label legend: one coloured button per label with its key; clicking applies it.

Every label shows the key that applies it: 1-9 for the first nine, then the code typed
into the label picker ("au↵"). The editor supplies the keys and the tooltip's wording
(a label, an entity type, a tag), so the legend speaks the data's scheme.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QPushButton, QSizePolicy, QWidget

from bertstudio.ui.editors.flow_layout import FlowLayout


def text_colour(background: str) -> str:
    """Black or white, whichever reads better on ``background`` (sRGB luma)."""
    from PySide6.QtGui import QColor

    c = QColor(background)
    return "#000000" if 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue() > 150 else "#ffffff"


class LabelLegend(QWidget):
    """Shows ``key  name`` per label in its colour; ``label_clicked(name)`` on click."""

    label_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("labelLegend")
        self._layout = FlowLayout(self)
        self._buttons: list[QPushButton] = []
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)

    def set_labels(self, names: list[str], colours: dict[str, str], keys: list[str] | None = None,
                   tip: str | None = None) -> None:
        """One button per name; ``keys[i]`` is shown before ``names[i]``; ``tip`` is the tooltip
        with %1 for the key and %2 for the name (default: "Press %1 or click to apply '%2'")."""
        for button in self._buttons:
            self._layout.removeWidget(button)
            button.hide()  # deleted later, when control is back in the event loop; gone from view now
            button.deleteLater()
        self._buttons = []
        keys = list(keys or [])
        tip = tip or self.tr("Press %1 or click to apply '%2'")
        for i, name in enumerate(names):
            key = keys[i] if i < len(keys) else ""
            button = QPushButton(f"{key}  {name}" if key else name, self)
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
            self._buttons.append(button)

    def set_suggested(self, name: str | None) -> None:
        """Mark the button of the model's suggested label (a dashed frame: a suggestion, not a label)."""
        for button in self._buttons:
            frame = " border: 2px dashed palette(text);" if button.objectName() == f"legend_{name}" else ""
            button.setProperty("suggested", bool(frame))
            button.setStyleSheet(f"QPushButton {{ {button.property('baseStyle')}{frame} }}")

    def suggested(self) -> str | None:
        return next((b.objectName().removeprefix("legend_") for b in self._buttons if b.property("suggested")), None)

    def names(self) -> list[str]:
        return [b.objectName().removeprefix("legend_") for b in self._buttons]

    def keys(self) -> list[str]:
        """The key shown for each label, in legend order."""
        return [str(b.property("labelKey") or "") for b in self._buttons]
