"""Fixtures shared by the core tests (the project-wide ones are in tests/conftest.py)."""

from __future__ import annotations

import shutil

import pytest
import torch


@pytest.fixture
def one_thread():
    """Tiny matrices on a shared 2-core box: a second OpenMP thread only adds spin-waiting."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="session")
def tiny(tiny_model_dir, tmp_path_factory) -> str:
    """The tiny random BERT with its tokenizer rebuilt from vocab.txt (conftest's keeps only
    the specials under transformers 5, so every word would be [UNK]). Modules that define
    their own ``tiny`` use theirs."""
    from transformers import BertTokenizer

    out = tmp_path_factory.mktemp("tiny-words")
    shutil.copytree(tiny_model_dir, out, dirs_exist_ok=True)
    (out / "tokenizer.json").unlink(missing_ok=True)
    BertTokenizer(vocab=str(out / "vocab.txt"), do_lower_case=True).save_pretrained(out)
    return str(out)
