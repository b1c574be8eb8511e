"""bertstudio: fine-tune BERT-style encoders on your own data, from a desktop app or the command line."""

from __future__ import annotations

__version__ = "0.1.0"
