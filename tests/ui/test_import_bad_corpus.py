"""Every broken file of tests/data/bad through the real import dialog: the core's message is
shown (file named), nothing is imported, the window stays up. Valid-but-unusual files import."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from bertstudio.data.glue import get_preset
from bertstudio.data.project import Project
from bertstudio.ui.import_dialog import ImportDialog

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from test_bad_input import BAD, CASES  # noqa: E402  (the core's table of broken files)

# Broken only for a caller that demands more than the app does: the app takes unlabelled rows
# (they are what gets labelled), adds labels it has not seen to the project's label set, reads
# CoNLL tags as IOB1 or BIO, and maps columns by picking from the file's own header.
APP_ACCEPTS = {"labels", "require_labels", "tag_scheme", "columns"}
BROKEN = [c for c in CASES if not APP_ACCEPTS & set(c[1])]
# (a mapping to a column the file lacks cannot be chosen in the dialog: no app-side case for it)
ACCEPTED = [c[0] for c in CASES if APP_ACCEPTS & set(c[1]) and "columns" not in c[1]]
VALID = sorted(p.name for p in BAD.iterdir() if p.is_file() and p.name.startswith("ok_"))


def kind_of(name: str, kwargs: dict) -> str:
    """The project kind a person would import this file into."""
    if kwargs.get("glue_task"):
        return get_preset(kwargs["glue_task"]).kind
    if kwargs.get("kind"):
        return kwargs["kind"]
    if name.startswith(("conll", "ok_bom_multiword", "ok_crlf_iob1")) or name in ("jsonl_tag_count.jsonl", "jsonl_invalid_bio.jsonl"):
        return "tagging"
    if name.startswith(("squad", "ok_squad")) or name == "jsonl_qa_answer_not_at_start.jsonl":
        return "qa"
    return "sentence"


def _dialog(qtbot, main_window, tmp_path, name: str, kwargs: dict) -> tuple[ImportDialog, Project]:
    project = Project.create(tmp_path / "p", name="p", kind=kind_of(name, kwargs), labels=[])
    main_window.session.set_project(project)
    dialog = ImportDialog(main_window.session, main_window, str(BAD / name))
    qtbot.addWidget(dialog)
    dialog.show()
    if kwargs.get("glue_task"):  # as a person would: pick the GLUE preset
        dialog.preset_combo.setCurrentIndex(dialog.preset_combo.findData(kwargs["glue_task"]))
        dialog._on_preset_chosen()
    return dialog, project


def _click_ok(qtbot, dialog: ImportDialog) -> None:
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    if ok.isEnabled():  # the preview did not see the problem: the full load must
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: bool(dialog.error_label.text()) or not dialog.isVisible(), timeout=10_000)


@pytest.mark.parametrize(("name", "kwargs", "fragment", "where"), BROKEN, ids=[c[0] for c in BROKEN])
def test_broken_file_is_reported_and_nothing_imported(qtbot, main_window, tmp_path, name, kwargs, fragment, where):
    dialog, project = _dialog(qtbot, main_window, tmp_path, name, kwargs)
    _click_ok(qtbot, dialog)
    message = dialog.error_label.text()
    assert dialog.isVisible() and message, f"{name}: no error shown"
    if "Choose the file column" not in message:  # or the reader's own message, naming the file
        assert name in message and fragment in message, message
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    assert all(project.num_rows(s) == 0 for s in ("train", "dev", "test"))
    assert main_window.isVisible()


@pytest.mark.parametrize("name", VALID + ACCEPTED)
def test_unusual_or_unlabelled_file_imports(qtbot, main_window, tmp_path, name):
    kwargs = next((c[1] for c in CASES if c[0] == name), {})
    dialog, project = _dialog(qtbot, main_window, tmp_path, name, {k: v for k, v in kwargs.items() if k == "glue_task"})
    assert not dialog.error_label.text(), dialog.error_label.text()
    _click_ok(qtbot, dialog)
    assert not dialog.isVisible(), dialog.error_label.text()
    assert sum(project.num_rows(s) for s in ("train", "dev", "test")) > 0


@pytest.mark.parametrize(("text", "fragment"), [("{not json\n", "line 1, column 2: invalid JSON"),
                                                ('[1, 2]\n"x"\n', "line 1: expected a JSON object")])
def test_a_jsonl_file_with_nothing_readable_says_why_at_once(qtbot, main_window, tmp_path, text, fragment):
    """A JSON Lines file whose first line is not a JSON object: the preview showed no rows, no
    message, and "this file looks like ? data" (the reader's message came from nowhere)."""
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    project = Project.create(tmp_path / "p", name="p", kind="sentence", labels=[])
    main_window.session.set_project(project)
    dialog = ImportDialog(main_window.session, main_window, str(path))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: bool(dialog.error_label.text()))
    assert "bad.jsonl" in dialog.error_label.text() and fragment in dialog.error_label.text()
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
