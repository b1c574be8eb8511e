"""Files a second hostile-input sweep found read without the FIFO refusal or a size cap:
each is now refused before it is opened (a FIFO would block for ever, on the GUI thread for
most of them) or read into "nothing there" / "starting afresh", never a crash."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bertstudio.data.regular_file import check_folder_files, read_regular_file
from bertstudio.errors import DataError
from helpers import finishes

fifo_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


@fifo_only
def test_a_fifo_cartography_file_reads_as_none(tmp_path: Path) -> None:
    from bertstudio.train.cartography import FILE, read_cartography

    os.mkfifo(tmp_path / FILE)
    got: list = []
    assert finishes(lambda: got.append(read_cartography(tmp_path)), [tmp_path / FILE]) is None and got == [None]


@pytest.mark.parametrize("content", ["[" * 100_000 + "]" * 100_000, "[1, 2]\n", '{"kind": "header"}\n7\n'])
def test_a_damaged_cartography_file_reads_as_none(content: str, tmp_path: Path) -> None:
    from bertstudio.train.cartography import FILE, read_cartography

    (tmp_path / FILE).write_text(content, encoding="utf-8")
    assert read_cartography(tmp_path) is None


@fifo_only
def test_a_fifo_modules_json_is_not_a_sentence_transformer_and_does_not_block(tmp_path: Path, tiny) -> None:
    import shutil

    from bertstudio.train.small_data import is_sentence_transformer

    folder = tmp_path / "model"
    shutil.copytree(tiny, folder)
    os.mkfifo(folder / "modules.json")
    got: list = []
    assert finishes(lambda: got.append(is_sentence_transformer(str(folder))), [folder / "modules.json"]) is None
    assert got == [False]


@fifo_only
def test_a_fifo_review_file_starts_afresh(tmp_path: Path) -> None:
    pytest.importorskip("PySide6")
    from bertstudio.ui.review_store import REVIEW_FILE, ReviewStore

    os.mkfifo(tmp_path / REVIEW_FILE.format(split="train"))
    got: list = []
    assert finishes(lambda: got.append(ReviewStore(tmp_path, "train")), [tmp_path / REVIEW_FILE.format(split="train")]) is None
    assert got[0].kept == set()


@fifo_only
@pytest.mark.parametrize("name", ["history.jsonl", "metrics.json", "config.toml"])
def test_the_model_card_skips_a_fifo_run_file(name: str, tmp_path: Path) -> None:
    from bertstudio.train.hub import _run_files

    (tmp_path / "metrics.json").write_text('{"accuracy": 0.5}', encoding="utf-8")
    (tmp_path / name).unlink(missing_ok=True)
    os.mkfifo(tmp_path / name)
    got: list = []
    assert finishes(lambda: got.append(_run_files(tmp_path)), [tmp_path / name]) is None
    settings, metrics, started = got[0]
    assert metrics == ({} if name == "metrics.json" else {"accuracy": 0.5})


def test_a_folder_of_too_many_files_is_refused_not_waved_through(tmp_path: Path) -> None:
    for i in range(12):
        (tmp_path / f"f{i}").write_bytes(b"")
    with pytest.raises(DataError, match="more than 10 files"):
        check_folder_files(tmp_path, limit=10)
    check_folder_files(tmp_path, limit=12)


def test_a_size_cap_refuses_a_sparse_file_before_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    with open(path, "wb") as f:
        f.truncate(3 << 30)  # 3 GB, sparse: nothing on disk
    with pytest.raises(DataError, match="3,221,225,472 bytes"):
        read_regular_file(path, max_bytes=1 << 20)
    from bertstudio.train.rundir import read_json

    with pytest.raises(DataError, match="bytes"):
        read_json(path)


@fifo_only
def test_the_assistant_state_as_a_fifo_or_with_wrong_insides_starts_afresh(tmp_path: Path) -> None:
    from bertstudio.assist.assistant import LabellingAssistant
    from bertstudio.data.examples import from_records
    from bertstudio.data.project import Project

    p = Project.create(tmp_path / "p", name="x", kind="sentence", labels=["neg", "pos"])
    p.import_examples(from_records("sentence", [{"text": t, "label": None} for t in ("a b", "c d", "e f")]), "train")
    from bertstudio.assist import session as S

    ident = {"rows": 3, "imported": p.split_info["train"]["imported"]}  # the state of these rows, else ignored
    state_path = tmp_path / "p" / "cache" / "assist-train.json"
    state_path.parent.mkdir(exist_ok=True)
    cases = {"fifo": None, "queue list": {"version": S.STATE_VERSION, "data": ident, "queue": [], "history": []},
             "skipped ints": {"version": S.STATE_VERSION, "data": ident, "queue": {"skipped": [1, 2]}, "history": 5}}
    for case, content in cases.items():
        state_path.unlink(missing_ok=True)
        if content is None:
            os.mkfifo(state_path)
        else:
            state_path.write_text(json.dumps(content), encoding="utf-8")
        got: list = []
        assert finishes(lambda: got.append(LabellingAssistant(p, start=False)), [state_path]) is None, case
        assistant = got[0]
        assert any("starting afresh" in m for m in assistant.messages), (case, assistant.messages)
        assistant.close()
        assert state_path.is_file() and not state_path.is_symlink(), case  # written again: the state is kept
    p.close()


def test_the_assistant_never_writes_its_state_through_a_link(tmp_path: Path) -> None:
    """A tampered project whose cache/assist-train.json links to a file of the user's: the state
    replaces the link, the file it named is untouched."""
    from bertstudio.assist.assistant import LabellingAssistant
    from bertstudio.data.examples import from_records
    from bertstudio.data.project import Project

    p = Project.create(tmp_path / "p", name="x", kind="sentence", labels=["neg", "pos"])
    p.import_examples(from_records("sentence", [{"text": t, "label": None} for t in ("a b", "c d")]), "train")
    theirs = tmp_path / "bashrc"
    theirs.write_text("export PATH=$PATH\n")
    state_path = tmp_path / "p" / "cache" / "assist-train.json"
    state_path.parent.mkdir(exist_ok=True)
    state_path.symlink_to(theirs)
    assistant = LabellingAssistant(p, start=False)
    assistant.close()
    assert theirs.read_text() == "export PATH=$PATH\n"
    assert state_path.is_file() and not state_path.is_symlink()
    p.close()


@pytest.mark.parametrize("header", [{"gold": ["pos"], "text": [5]}, {"gold": ["pos"], "text": [{"a": 1}]},
                                    {"gold": [True], "text": ["fine"]}])
def test_a_data_map_whose_texts_are_no_text_is_refused_and_said(header, tmp_path):
    """A sweep of the app's readers: texts that were numbers or objects read, and a click on the
    map raised AttributeError in the window; a damaged file was said as "this run recorded no
    data map", naming neither the file nor the problem."""
    import json

    from bertstudio.train.cartography import FILE, read_cartography

    (tmp_path / FILE).write_text(json.dumps({"kind": "header", "labels": ["neg", "pos"], **header}) + "\n"
                                 + json.dumps({"kind": "epoch", "epoch": 1, "gold_prob": [0.5], "pred": ["pos"]}) + "\n")
    problems: list = []
    assert read_cartography(tmp_path, problems) is None
    assert len(problems) == 1 and str(tmp_path / FILE) in str(problems[0]) and "not names" in str(problems[0])
    (tmp_path / FILE).unlink()
    assert read_cartography(tmp_path, problems) is None and len(problems) == 1  # no file: nothing wrong
    # an unlabelled training row (a CLI run keeps them) has no gold: the map still reads (a review)
    (tmp_path / FILE).write_text(json.dumps({"kind": "header", "labels": ["neg", "pos"], "gold": [None, "pos"],
                                             "text": ["unlabelled", "fine"]}) + "\n"
                                 + json.dumps({"kind": "epoch", "epoch": 1, "gold_prob": [None, 0.9],
                                               "pred": ["neg", "pos"]}) + "\n")
    assert read_cartography(tmp_path, problems) is not None and len(problems) == 1
