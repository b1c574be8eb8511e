"""The application's colour theme: the system's palette, a light one or a dark one.

View > Theme sets it; the choice is kept in QSettings (``view/theme``) and applied when
the window opens. Widgets that draw their own colours (the pyqtgraph plots) read the
application palette and follow its changes, so a dark palette darkens them too.

Colours of our own choosing come from here, never written into a page: :func:`tone` gives
a message's colour (error, warning, good, muted) that reads on the current palette (a
fixed dark red read at 1.9:1 on a dark window), and :func:`follow` re-applies whatever a
widget set from the palette when the palette changes (a style sheet's ``palette(role)`` is
resolved once, when the sheet is set: after View > Theme > Dark the Train page's help text
kept the light theme's grey, 1.3:1 on the dark window). Text on a coloured background
takes :func:`text_colour` of that background, whatever the theme.
"""

from __future__ import annotations

from typing import Any, Callable

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QActionGroup, QColor, QPalette
from PySide6.QtWidgets import QApplication, QMenu, QWidget

THEMES = ("system", "light", "dark")
SETTINGS_KEY = "view/theme"
_system_palette: QPalette | None = None  # the palette the app started with: "system" goes back to it


# (on a light palette, on a dark one): each at least 4.5:1 (WCAG AA) on its theme's window and
# base colours, the dark ones on the dark palette below, on #2b2b2b and on black too.
TONES = {"error": ("#b00020", "#ff8a80"), "warning": ("#8a5300", "#ffcc80"), "good": ("#1b5e20", "#81c784"),
         "muted": ("#666666", "#a0a0a0")}


def current_palette() -> QPalette:
    app = QApplication.instance()
    return app.palette() if isinstance(app, QApplication) else QPalette()


def is_dark(palette: QPalette | None = None) -> bool:
    """Whether the palette's window is dark (the system's dark mode, View > Theme > Dark, high contrast);
    without a palette and an application, light."""
    if palette is None:
        if not isinstance(QApplication.instance(), QApplication):
            return False
        palette = current_palette()
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def tone(kind: str, palette: QPalette | None = None) -> str:
    """The colour of a message of ``kind`` ("error", "warning", "good", "muted") on the palette."""
    light, dark = TONES[kind]
    return dark if is_dark(palette) else light


def _luminance(c: QColor) -> float:
    """WCAG 2 relative luminance."""
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(c.red()) + 0.7152 * lin(c.green()) + 0.0722 * lin(c.blue())


def text_colour(background: str) -> str:
    """Black or white, whichever has the higher WCAG contrast on ``background`` (a luma
    threshold put white on #e15759 at 3.7:1, where black reads at 5.7:1)."""
    lum = _luminance(QColor(background))
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


class _Notifier(QObject):
    """Emits ``changed`` after the application palette changed (View > Theme, or the system's)."""

    changed = Signal()


_notifier: _Notifier | None = None


class _Follower(QObject):
    """A widget's re-apply callback; a child of the widget, so it goes (and disconnects) with it."""

    def __init__(self, widget: QWidget, apply: Callable[[], None]) -> None:
        super().__init__(widget)
        self._apply = apply

    def run(self) -> None:
        self._apply()


def follow(widget: QWidget, apply: Callable[[], None]) -> None:
    """Call ``apply`` now and again whenever the application palette changes, while ``widget`` lives."""
    global _notifier
    apply()
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    if _notifier is None or not shiboken6.isValid(_notifier) or _notifier.parent() is not app:
        _notifier = _Notifier(app)  # one per application (a second QApplication in a process got a deleted one)
        app.paletteChanged.connect(_notifier.changed)
    _notifier.changed.connect(_Follower(widget, apply).run)


def set_tone(widget: QWidget, kind: str | None, style: str = "") -> None:
    """``widget``'s text in :func:`tone` ``kind`` (None: the palette's own), plus the style sheet
    ``style``, kept on palette changes. Call it again to change the tone: one follower per widget."""
    widget.setProperty("toneKind", kind or "")
    widget.setProperty("toneStyle", style)
    if widget.property("toneFollowed"):
        _restyle(widget)
        return
    widget.setProperty("toneFollowed", True)
    follow(widget, lambda: _restyle(widget))


def _restyle(widget: QWidget) -> None:
    kind, style = str(widget.property("toneKind") or ""), str(widget.property("toneStyle") or "")
    widget.setStyleSheet(f"color: {tone(kind)}; {style}".strip() if kind else style)


DEFAULT_POINTS = 10  # the application font the fixed sizes below were chosen against


def text_points(points: int) -> int:
    """A size for reading text chosen as ``points`` against a 10-pt application font, kept
    that much larger than a bigger application font: an 18-pt UI font made the 16-pt gold label
    smaller than the buttons around it."""
    app = QApplication.instance()
    size = app.font().pointSize() if isinstance(app, QApplication) else -1
    return max(points, size + points - DEFAULT_POINTS) if size > 0 else points


def font_scale() -> float:
    """How much larger than a 10-pt font the application font is (1.0 for 10 pt or less): sizes in
    pixels chosen against a 10-pt font grow by it (at 18 pt the learning-rate plot's ticks overlapped
    and the Keyboard panel broke "Backspace" mid-word)."""
    app = QApplication.instance()
    size = app.font().pointSizeF() if isinstance(app, QApplication) else -1.0
    return max(1.0, size / DEFAULT_POINTS) if size > 0 else 1.0


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
