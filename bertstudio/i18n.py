"""Words the Qt-free core hands to the app, marked for translation.

``QT_TRANSLATE_NOOP(context, text)`` returns ``text`` as it is: the call only marks the
literal for lupdate (scripts/update_translations.py reads every module that calls it), and
the app says it with ``QCoreApplication.translate(context, text)``. The core stays free of
Qt; the command line prints the English."""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - lupdate's marker, by its Qt name
    return text
