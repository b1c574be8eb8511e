"""Issue 14, item 15: where a project cannot be created, the New project dialog says why and
the disk is left as it was (no traceback, no stale message, no half-made folder)."""

from __future__ import annotations

import errno
import os
import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from bertstudio.ui.new_project_dialog import NewProjectDialog


def _tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def _dialog(qtbot, folder: Path, name: str = "reviews") -> NewProjectDialog:
    dialog = NewProjectDialog(folder=str(folder))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.name_edit, name)
    return dialog


def _click_create(qtbot, dialog: NewProjectDialog) -> None:
    button = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_a_path_through_a_file_is_refused_with_the_reason(qtbot, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    before = _tree(tmp_path)
    dialog = _dialog(qtbot, notes / "project")
    _click_create(qtbot, dialog)
    assert dialog.isVisible() and dialog.project is None
    assert dialog.error_label.text() == f"{notes} is a file, so no folder can be made inside it: choose another place."
    # The file itself chosen as the folder: its own reason, not the last one.
    dialog.folder_edit.setText(str(notes))
    _click_create(qtbot, dialog)
    assert dialog.error_label.text() == f"{notes} is a file, not a folder: choose a folder for the project."
    assert _tree(tmp_path) == before and notes.read_text(encoding="utf-8") == "my notes\n"
    # A good folder afterwards: created, and no stale message left behind.
    dialog.folder_edit.setText(str(tmp_path / "fine"))
    _click_create(qtbot, dialog)
    assert dialog.project is not None and dialog.error_label.text() == ""
    dialog.project.close()


def test_no_permission_to_write_is_said_and_nothing_is_left(qtbot, tmp_path, monkeypatch):
    """Tests run as root here, where permissions stop nothing: the core's mkdir refuses as a
    folder without write permission would, first for the project folder, then for its data folder."""
    locked = tmp_path / "locked"
    locked.mkdir()
    real_mkdir = Path.mkdir

    def refusing_mkdir(self: Path, *args, **kwargs):
        if self == locked / "new" / "sub" or self.name == "data":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", refusing_mkdir)
    dialog = _dialog(qtbot, locked / "new" / "sub")
    _click_create(qtbot, dialog)
    assert dialog.isVisible() and dialog.project is None
    assert dialog.error_label.text() == (f"Cannot create the project in {locked / 'new' / 'sub'}: "
                                         "no permission to write there")
    assert _tree(tmp_path) == ["locked"]  # "new", made on the way, was taken away again
    # The project folder is made, then its data folder is refused: the half-made folder goes too.
    dialog.folder_edit.setText(str(locked / "proj"))
    _click_create(qtbot, dialog)
    assert "no permission to write there" in dialog.error_label.text()
    assert _tree(tmp_path) == ["locked"]
    # An empty folder the user made keeps existing; only what the attempt put in it goes.
    (tmp_path / "mine").mkdir()
    dialog.folder_edit.setText(str(tmp_path / "mine"))
    _click_create(qtbot, dialog)
    assert "no permission to write there" in dialog.error_label.text()
    assert _tree(tmp_path) == ["locked", "mine"]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0, reason="mounting a read-only tmpfs needs root")
def test_a_read_only_disk_is_said(qtbot, tmp_path):
    mount = tmp_path / "ro"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        dialog = _dialog(qtbot, mount / "project")
        _click_create(qtbot, dialog)
        assert dialog.project is None
        assert dialog.error_label.text() == f"Cannot create the project in {mount / 'project'}: the disk is read-only"
        assert list(mount.iterdir()) == []
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_name_too_long_to_look_at_is_refused_with_the_reason(qtbot, tmp_path):
    """Looking at such a path raises before anything is made: Create used to do nothing at all."""
    before = _tree(tmp_path)
    dialog = _dialog(qtbot, tmp_path / ("y" * 300) / "reviews")
    _click_create(qtbot, dialog)
    assert dialog.isVisible() and dialog.project is None
    assert dialog.error_label.text().endswith(": the path is too long") and _tree(tmp_path) == before


@pytest.mark.parametrize(("name", "content", "kind"), [
    ("pairs.tsv", "sentence1\tsentence2\tlabel\nA man sleeps.\tA person rests.\tentailment\n", "pair"),
    ("rows.json", '{"text": "a fine film", "label": "pos"}\n{"text": "dull", "label": "neg"}\n', "sentence"),
    ("squad.json", '{"version": "1.1", "data": []}', "qa"),
    ("tags.conll", "EU B-ORG\nrejects O\n\n", "tagging"),
    ("pos.conllu", "1\tHi\thi\tINTJ\t_\t_\t0\troot\t_\t_\n2\tthere\tthere\tADV\t_\t_\t1\tadvmod\t_\t_\n\n", "tagging"),
    ("binary.tsv", "text\tlabel\n\x00\x00\tpos\n", None),  # unreadable: the dialog's own default stays
])
def test_a_file_to_import_proposes_the_kind_its_content_holds(qtbot, tmp_path, name, content, kind):
    """The extension alone chose the kind: every .json was QA (JSON Lines saved as .json too)
    and a pair TSV a one-sentence project."""
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    dialog = NewProjectDialog(folder=str(tmp_path))
    qtbot.addWidget(dialog)
    default = dialog.kind()
    dialog.suggest_for_file(str(path))
    assert dialog.kind() == (kind or default)
    assert dialog.name_edit.text() == path.stem
    if kind == "tagging":  # POS tags are not entity spans: BIO (and its "O" class) was ticked for them too
        assert dialog.bio_box.isChecked() == (name == "tags.conll")


def test_labels_typed_with_a_chinese_keyboards_commas_are_separate_labels():
    """A Chinese user's "负面，正面" (a full-width comma) made the one label '负面，正面', and Import
    then asked to map both 0 and 1 onto it."""
    from bertstudio.ui.new_project_dialog import parse_labels

    assert parse_labels("负面，正面") == ["负面", "正面"]
    assert parse_labels("体育、财经；科技; world,\nsports， 体育") == ["体育", "财经", "科技", "world", "sports"]
    assert parse_labels("neg, pos") == ["neg", "pos"]


def test_projects_named_in_symbols_get_their_own_folders(qtbot, tmp_path):
    """In a folder that holds other things, "📚" made a folder called "-" and "🎬" was then refused:
    "…/-/project.json: a project already exists here", of a project the user never named."""
    parent = tmp_path / "projects"
    parent.mkdir()
    (parent / "notes.txt").write_text("mine")
    made = []
    for name in ("😀 reviews", "📚", "🎬", "reviews"):
        dialog = _dialog(qtbot, parent, "")
        dialog.name_edit.setText(name)  # keyClicks aborts on characters outside the BMP
        _click_create(qtbot, dialog)
        assert dialog.project is not None, dialog.error_label.text()
        made.append(Path(dialog.project.folder).name)
        assert dialog.project.name == name  # the name shown stays the one typed
        dialog.project.close()
    assert made == ["reviews", "project", "project-2", "reviews-2"]
    assert (parent / "notes.txt").read_text() == "mine"
