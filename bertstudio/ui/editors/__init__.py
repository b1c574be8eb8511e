"""Labelling editors, one per task kind, and the Label page that holds them."""

from __future__ import annotations

from bertstudio.ui.editors.page import EDITORS, LabelPage

__all__ = ["EDITORS", "LabelPage"]
