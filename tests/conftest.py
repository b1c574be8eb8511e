"""Shared fixtures. Tests never touch the network; unit tests use a tiny random BERT."""

from __future__ import annotations

import atexit
import os
import shutil
import string
import tempfile
from pathlib import Path
from typing import Any

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# the labelling assistant (an encoder embedding every opened project in the background) runs only in
# the tests that turn it on (tests/ui/test_assist_*.py): the suite shares two cores
os.environ["BERTSTUDIO_ASSIST"] = "0"
# the CLI's and the app's log file: never the user's ~/.local/state during tests, and gone with
# the session (every run used to leave a folder in /tmp)
if "BERTSTUDIO_LOG" not in os.environ:
    _log_dir = tempfile.mkdtemp(prefix="bertstudio-test-log-")
    atexit.register(shutil.rmtree, _log_dir, ignore_errors=True)
    os.environ["BERTSTUDIO_LOG"] = os.path.join(_log_dir, "bertstudio.log")

import signal

# The Ctrl-C tests send SIGINT to this process. A suite started in the background by a script
# (`pytest &`, as a CI runner may) inherits SIGINT ignored, and the CLI rightly leaves an ignored
# signal alone (cli._with_interrupt): the tests ran to the end, exit 0 where 130 was asked. They
# test what a terminal's Ctrl-C does, so the session takes SIGINT as a terminal gives it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

import pytest

from helpers import SHARED_DATA  # noqa: E402 - tests import what they share from helpers.py


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """Once every test has run and been reported, no collector touches what the session leaves:
    pytest 9.2's unraisable-exception plugin runs a full garbage collection here, and in a clean-clone
    CI run (2,638 passed) it freed a leftover Qt widget cycle whose QWidget::destroy segfaulted, exit
    139 after the summary (core: gc_collect_harder -> delete_garbage -> QWidget::~QWidget). A widget
    freed by the collector after the tests, in no particular order with its Qt objects, is what the
    app never does (ui/gui_gc.py collects on the GUI thread while the event loop runs); gc.freeze()
    moves every tracked object out of the collector's reach, so that collection and the interpreter's
    last one leave them to the process's end. Earlier hooks (the summary, the exit status) are unchanged."""
    import gc

    gc.freeze()

_WORDS = (
    "the a an of to and in is was it that this for on with as by at from be are not no yes good bad great "
    "terrible movie film story fun boring love hate best worst very really just like man woman dog cat "
    "he she they we you i what who where when which how why paris france london city river book".split()
)


def _tiny_vocab() -> list[str]:
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    chars = list(string.ascii_lowercase + string.digits + string.punctuation)
    pieces = ["##" + c for c in string.ascii_lowercase + string.digits]
    return list(dict.fromkeys(specials + chars + pieces + _WORDS))  # "a" and "i" are chars and words


@pytest.fixture(autouse=True)
def _trainings_may_run_here_again() -> Any:
    """A test that starts the app (bertstudio/app.py) marks the main thread as the GUI thread, where
    a training is refused (train/training_lock.never_wait_here); the mark is the thread's, so it
    would outlive that test and fail every later test that trains on the main thread."""
    yield
    from bertstudio.train import training_lock

    training_lock._local.__dict__.pop("no_wait", None)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"benchmark data not found at {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A randomly initialised BERT (hidden 32, 2 layers) with a small WordPiece vocab, saved
    like any Hugging Face model folder so every code path loads it with from_pretrained."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizer

    out = tmp_path_factory.mktemp("tiny-bert")
    vocab_file = out / "vocab.txt"
    vocab_file.write_text("\n".join(_tiny_vocab()) + "\n", encoding="utf-8")
    # transformers 5 ignores vocab_file= here (every word would become [UNK]): pass vocab=.
    tokenizer = BertTokenizer(vocab=str(vocab_file), do_lower_case=True)
    config = BertConfig(
        vocab_size=len(_tiny_vocab()),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=256,
    )
    torch.manual_seed(0)
    BertModel(config).save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


@pytest.fixture(scope="session")
def bundled_model_dir() -> Path:
    """The bundled all-MiniLM-L6-v2 (integration tests)."""
    from bertstudio.bundled import default_model_path

    return Path(default_model_path())


@pytest.fixture
def one_thread():
    """Tiny matrices on a shared 2-core box: a second OpenMP thread only adds spin-waiting."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="session")
def tiny(tiny_model_dir, tmp_path_factory) -> str:
    """The tiny random BERT with its tokenizer rebuilt from vocab.txt (the saved tokenizer.json keeps only
    the specials under transformers 5, so every word would be [UNK]). Modules that define
    their own ``tiny`` use theirs."""
    import shutil

    from transformers import BertTokenizer

    out = tmp_path_factory.mktemp("tiny-words")
    shutil.copytree(tiny_model_dir, out, dirs_exist_ok=True)
    (out / "tokenizer.json").unlink(missing_ok=True)
    BertTokenizer(vocab=str(out / "vocab.txt"), do_lower_case=True).save_pretrained(out)
    return str(out)
