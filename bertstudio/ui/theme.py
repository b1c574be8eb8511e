"""The application's colour theme: the system's palette, a light one or a dark one.

View > Theme sets it; the choice is kept in QSettings (``view/theme``) and applied when
the window opens. Widgets that draw their own colours (the pyqtgraph plots) read the
application palette and follow its changes, so a dark palette darkens them too.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QActionGroup, QColor, QPalette
from PySide6.QtWidgets import QApplication, QMenu

THEMES = ("system", "light", "dark")
SETTINGS_KEY = "view/theme"
_system_palette: QPalette | None = None  # the palette the app started with: "system" goes back to it


def _t(text: str) -> str:
    return QCoreApplication.translate("", text)  # where lupdate files _t("...") calls (no context)


def dark_palette() -> QPalette:
    """A dark palette in the spirit of Qt's Fusion dark scheme (every role a widget reads)."""
    p = QPalette()
    window, base, text, mid = QColor(45, 45, 48), QColor(30, 30, 32), QColor(230, 230, 230), QColor(90, 90, 95)
    for role, color in ((QPalette.ColorRole.Window, window), (QPalette.ColorRole.WindowText, text),
                        (QPalette.ColorRole.Base, base), (QPalette.ColorRole.AlternateBase, window),
                        (QPalette.ColorRole.ToolTipBase, window), (QPalette.ColorRole.ToolTipText, text),
                        (QPalette.ColorRole.PlaceholderText, QColor(150, 150, 150)), (QPalette.ColorRole.Text, text),
                        (QPalette.ColorRole.Button, window), (QPalette.ColorRole.ButtonText, text),
                        (QPalette.ColorRole.BrightText, QColor(255, 80, 80)), (QPalette.ColorRole.Mid, mid),
                        (QPalette.ColorRole.Link, QColor(90, 160, 255)), (QPalette.ColorRole.Highlight, QColor(42, 130, 218)),
                        (QPalette.ColorRole.HighlightedText, QColor(255, 255, 255))):
        p.setColor(role, color)
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(127, 127, 127))
    return p


def apply_theme(name: str) -> str:
    """Set the application palette for ``name`` (an unknown name means "system"); returns the name used."""
    global _system_palette
    app = QApplication.instance()
    name = name if name in THEMES else "system"
    if app is None:
        return name
    if _system_palette is None:
        _system_palette = QPalette(app.palette())
    if name == "dark":
        app.setPalette(dark_palette())
    elif name == "light":
        app.setPalette(app.style().standardPalette())
    else:
        app.setPalette(_system_palette)
    return name


def add_theme_menu(window: Any, view_menu: QMenu) -> None:
    """View > Theme with one checkable action per theme; the saved choice is applied now."""
    menu = view_menu.addMenu(_t("&Theme"))
    menu.setObjectName("themeMenu")
    group = QActionGroup(window)
    group.setExclusive(True)
    settings = window.session.settings
    current = apply_theme(str(settings.value(SETTINGS_KEY, "system")))
    titles = {"system": _t("&System"), "light": _t("&Light"), "dark": _t("&Dark")}
    window.theme_actions = {}
    for name in THEMES:
        action = menu.addAction(titles[name])
        action.setObjectName(f"theme_{name}Action")
        action.setCheckable(True)
        action.setChecked(name == current)
        group.addAction(action)
        action.triggered.connect(lambda _checked=False, n=name: _choose(settings, n))
        window.theme_actions[name] = action


def _choose(settings: Any, name: str) -> None:
    settings.setValue(SETTINGS_KEY, apply_theme(name))
