"""The label legend: one coloured button per label with its key; clicking applies it."""

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
    """Shows ``[key] name`` per label in its colour; ``label_clicked(name)`` on click."""

    label_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("labelLegend")
        self._layout = FlowLayout(self)
        self._buttons: list[QPushButton] = []
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)

    def set_labels(self, names: list[str], colours: dict[str, str], *, keys: bool = True) -> None:
        for button in self._buttons:
            self._layout.removeWidget(button)
            button.deleteLater()
        self._buttons = []
        for i, name in enumerate(names):
            key = f"{i + 1}  " if keys and i < 9 else ""
            button = QPushButton(f"{key}{name}", self)
            button.setObjectName(f"legend_{name}")
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # number keys must keep reaching the editor
            colour = colours.get(name, "#999999")
            button.setStyleSheet(
                f"QPushButton {{ background: {colour}; color: {text_colour(colour)}; border-radius: 4px;"
                " padding: 3px 8px; }"
            )
            tip = self.tr("Press %1 or click to apply '%2'")
            button.setToolTip(tip.replace("%1", key.strip() or "-").replace("%2", name))
            button.clicked.connect(lambda _=False, n=name: self.label_clicked.emit(n))
            self._layout.addWidget(button)
            self._buttons.append(button)

    def names(self) -> list[str]:
        return [b.objectName().removeprefix("legend_") for b in self._buttons]


