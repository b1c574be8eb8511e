"""data/atomic.py, the one home of crash-safe writes, and the writers that go through it:
a folder made whole or not at all (an ONNX export, the assistant's saved strong model) and
the journal's durable append."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from bertstudio.data import atomic
from bertstudio.errors import DataError


def _leftovers(parent: Path, name: str) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name.startswith(f".{name}."))


def test_create_folder_moves_a_filled_folder_into_an_empty_one(tmp_path):
    target = tmp_path / "out"
    target.mkdir()
    seen: list[Path] = []

    def fill(tmp: Path) -> None:
        seen.append(tmp)
        (tmp / "model.onnx").write_bytes(b"weights")

    assert atomic.create_folder(target, fill) == target
    assert seen[0].parent == tmp_path and seen[0] != target
    assert [p.name for p in target.iterdir()] == ["model.onnx"] and _leftovers(tmp_path, "out") == []
    with pytest.raises(FileNotFoundError):  # not unless asked: a run folder removed mid-run came back this way
        atomic.create_folder(tmp_path / "new" / "deep", lambda tmp: (tmp / "a").write_text("a"))
    assert not (tmp_path / "new").exists()
    made = atomic.create_folder(tmp_path / "new" / "deep", lambda tmp: (tmp / "a").write_text("a"), parents=True)
    assert (made / "a").read_text() == "a"  # missing parents are created


def test_create_folder_never_replaces_a_file_that_appeared_in_the_target(tmp_path):
    target = tmp_path / "out"
    target.mkdir()

    def fill(tmp: Path) -> None:
        (tmp / "model.onnx").write_bytes(b"weights")
        (target / "notes.txt").write_text("keep me")  # the user saved something there meanwhile

    with pytest.raises(DataError, match="something was written into the folder while it was being filled"):
        atomic.create_folder(target, fill)  # one line, not "internal error: OSError: [Errno 39] Directory not empty"
    assert [p.name for p in target.iterdir()] == ["notes.txt"] and (target / "notes.txt").read_text() == "keep me"
    assert _leftovers(tmp_path, "out") == []


def test_create_folder_leaves_nothing_when_fill_fails(tmp_path):
    def fill(tmp: Path) -> None:
        (tmp / "half.onnx").write_bytes(b"half")
        raise KeyboardInterrupt  # any exception, a cancel included

    with pytest.raises(KeyboardInterrupt):
        atomic.create_folder(tmp_path / "out", fill)
    assert list(tmp_path.iterdir()) == []


def test_append_durably_fsyncs_each_record_and_cuts_back_a_failed_one(tmp_path, monkeypatch):
    path = tmp_path / "log"
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(atomic.os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    f = atomic.open_append(path)
    try:
        atomic.append_durably(f, b"one\n")
        assert path.read_bytes() == b"one\n" and synced  # on disk before the call returned
        short = type("Short", (), {"fileno": f.fileno, "truncate": f.truncate, "write": lambda self, d: f.write(d[:2])})()
        with pytest.raises(OSError, match="only 2 of 4 bytes"):
            atomic.append_durably(short, b"two\n")  # a short write (disk full) is an error, and undone
        assert path.read_bytes() == b"one\n"

        def full(fd: int) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(atomic.os, "fsync", full)
        with pytest.raises(OSError, match="No space"):
            atomic.append_durably(f, b"three\n")
        assert path.read_bytes() == b"one\n"  # the unsynced record was cut back
    finally:
        f.close()


def test_truncate_and_move_durably(tmp_path):
    path = tmp_path / "labels.journal"
    path.write_bytes(b"good\ntor")
    atomic.truncate_durably(path, 5)
    assert path.read_bytes() == b"good\n"
    (tmp_path / "labels.journal.prev").write_bytes(b"older")
    atomic.move_durably(path, tmp_path / "labels.journal.prev")  # replaces the older one
    assert not path.exists() and (tmp_path / "labels.journal.prev").read_bytes() == b"good\n"


def test_the_strong_model_folder_is_swapped_whole(tmp_path, monkeypatch):
    """save_strong replaces the saved assistant model whole: a failed save keeps the one there,
    a good one leaves only the new files (nothing of the old, no temporary folder)."""
    import bertstudio.tasks.embedding as embedding
    from bertstudio.assist.strong import StrongModel, save_strong

    folder = tmp_path / "strong"
    folder.mkdir()
    (folder / "old.safetensors").write_bytes(b"old")
    model = StrongModel("setfit", "why", object(), object(), [1, 2], ["neg", "pos"], "sentence", steps=3)

    def failing(model_, tokenizer, out, *, kind=None):
        (Path(out) / "model.safetensors").write_bytes(b"half")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(embedding, "save_embedding_classifier", failing)
    with pytest.raises(OSError):
        save_strong(model, folder)
    assert [p.name for p in folder.iterdir()] == ["old.safetensors"] and _leftovers(tmp_path, "strong") == []

    def writes(model_, tokenizer, out, *, kind=None):
        assert Path(out) != folder and kind == "sentence"
        (Path(out) / "model.safetensors").write_bytes(b"new")

    monkeypatch.setattr(embedding, "save_embedding_classifier", writes)
    assert save_strong(model, folder, {"data": "abc"}) == folder
    assert sorted(p.name for p in folder.iterdir()) == ["assist.json", "model.safetensors"]
    meta = json.loads((folder / "assist.json").read_text(encoding="utf-8"))
    assert meta["rows"] == [1, 2] and meta["method"] == "setfit" and meta["data"] == "abc"
    assert _leftovers(tmp_path, "strong") == []


def test_an_atomic_write_never_replaces_a_fifo_a_folder_or_a_link_to_one(tmp_path):
    """The rename that ends an atomic write put a regular file where a FIFO (or a device) was;
    every writer goes through atomic_write_with, so each refuses it by name."""
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    for name in ("fifo", "link"):
        with pytest.raises(DataError, match=r"a FIFO / named pipe.*not a plain file, so it is not replaced"):
            atomic.atomic_write_text(tmp_path / name, "x")
    with pytest.raises(DataError, match="is a folder"):
        atomic.atomic_write_text(tmp_path / "folder", "x")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    with pytest.raises(DataError, match="cannot be looked at"):
        atomic.atomic_write_text(tmp_path / "loop", "x")
    assert os.path.islink(tmp_path / "link") and not (tmp_path / "fifo").is_file()
    (tmp_path / "plain").write_text("old")  # a plain file, or a link to one, is still replaced
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    atomic.atomic_write_text(tmp_path / "plain", "new")
    atomic.atomic_write_text(tmp_path / "dangling", "new")
    assert (tmp_path / "plain").read_text() == "new" and (tmp_path / "dangling").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling", "fifo", "folder", "link", "loop", "plain"]


@pytest.mark.parametrize("stem", ["e" * 245, "é" * 120 + ".csv", "r" * 251 + ".csv"])
def test_a_long_legal_name_is_written_and_its_temporary_names_fit(tmp_path, stem):
    """A 245-byte --out (legal: 255 is the limit) failed as "internal error: File name too long":
    the temporary names beside it added 10-15 bytes."""
    assert len(os.fsencode(stem)) <= 255
    atomic.atomic_write_text(tmp_path / stem, "rows")
    assert (tmp_path / stem).read_text() == "rows"
    made = atomic.create_folder(tmp_path / ("d" + stem[1:]), lambda tmp: (tmp / "f").write_text("x"))
    assert (made / "f").read_text() == "x"
    atomic.replace_folder(made, lambda tmp: (tmp / "g").write_text("y"))
    assert sorted(p.name for p in made.iterdir()) == ["g"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([stem, "d" + stem[1:]])  # nothing left beside them
    for suffix in (f".{os.getpid()}.tmp", f".{os.getpid()}.old", ".n0123abcd.tmp"):
        name = atomic.sibling_name(stem, suffix)
        assert len(os.fsencode(name)) <= 255 and name.endswith(suffix) and name.startswith(".")
    assert atomic.TEMP_NAME.match(atomic.sibling_name(stem, f".{os.getpid()}.tmp"))  # the clean-up still finds it
    assert atomic.sibling_name(stem, ".1.tmp") != atomic.sibling_name(stem[:-1] + "x", ".1.tmp")
    assert atomic.sibling_name("labels.journal", ".7.tmp") == ".labels.journal.7.tmp"  # short names as before


def test_a_write_to_the_programs_own_name_replaces_a_fifo_or_link_found_there(tmp_path):
    """``own=True`` (the assistant's state and caches in a project's cache/): a FIFO or a link at the
    name is removed and the file written (closing the assistant raised over a FIFO there); the
    link's target is untouched, and a folder is still refused."""
    os.mkfifo(tmp_path / "state.json")
    atomic.atomic_write_bytes(tmp_path / "state.json", b"{}", own=True)
    assert (tmp_path / "state.json").read_bytes() == b"{}"
    theirs = tmp_path / "theirs.txt"
    theirs.write_text("keep")
    (tmp_path / "cache.bin").symlink_to(theirs)
    atomic.atomic_write_bytes(tmp_path / "cache.bin", b"new", own=True)
    assert theirs.read_text() == "keep" and not (tmp_path / "cache.bin").is_symlink()
    (tmp_path / "folder").mkdir()
    with pytest.raises(DataError, match="folder"):
        atomic.atomic_write_bytes(tmp_path / "folder", b"x", own=True)
