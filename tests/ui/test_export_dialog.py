"""The Export dialog offers the formats the project's rows can be written in, and no other."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from bertstudio.data.examples import from_records
from bertstudio.data.io import load_examples
from bertstudio.data.project import Project
from bertstudio.ui.export_dialog import ExportDialog
from bertstudio.ui.session import ProjectSession

ROWS = {
    "sentence": [{"text": "good film", "label": "positive"}],
    "tagging": [{"tokens": ["Ada", "wrote"], "tags": ["B-PER", "O"]}],
    "qa": [{"id": "q1", "title": "", "context": "Ada wrote it.", "question": "Who wrote it?",
            "answers": {"text": ["Ada"], "answer_start": [0]}}],
}


@pytest.fixture
def open_session(tmp_path: Path) -> Any:
    made: list[ProjectSession] = []

    def build(kind: str, glue_task: str | None = None) -> ProjectSession:
        labels = {"sentence": ["negative", "positive"], "tagging": ["B-PER", "I-PER", "O"]}.get(kind, [])
        project = Project.create(tmp_path / f"p{len(made)}", name="p", kind=kind, labels=labels, glue_task=glue_task)
        project.import_examples(from_records(kind, ROWS[kind], labels=labels or None), "train")
        session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
        made.append(session)
        return session

    yield build
    for session in made:
        session.close()


def _offered(dialog: ExportDialog) -> list[str]:
    return [dialog.format_combo.itemData(i) for i in range(dialog.format_combo.count())]


@pytest.mark.parametrize("kind, glue_task, formats", [
    # a table kind without a GLUE task: no GLUE (it has no layout to write), no CoNLL, no SQuAD
    ("sentence", None, ["auto", "csv", "tsv", "jsonl"]),
    ("sentence", "SST-2", ["auto", "csv", "tsv", "jsonl", "glue"]),
    # plain text is read for tagging, never written (it keeps no tags)
    ("tagging", None, ["auto", "jsonl", "conll", "conllu"]),
    ("qa", None, ["auto", "jsonl", "squad"]),
])
def test_export_offers_only_the_formats_the_project_can_write(qtbot, open_session, kind, glue_task, formats):
    """A sentence project made from a CSV was offered GLUE, CoNLL, CoNLL-U and SQuAD, each refused
    after Export (GLUE asking for "glue_task=...", which the dialog has no way to give)."""
    dialog = ExportDialog(open_session(kind, glue_task), None, "train")
    qtbot.addWidget(dialog)
    assert _offered(dialog) == formats


def test_every_format_offered_is_written(qtbot, open_session, tmp_path):
    for kind, task in (("sentence", "SST-2"), ("tagging", None), ("qa", None)):
        session = open_session(kind, task)
        first = ExportDialog(session, None, "train")
        qtbot.addWidget(first)
        for fmt in _offered(first)[1:]:
            dialog = ExportDialog(session, None, "train")
            qtbot.addWidget(dialog)
            out = tmp_path / f"{kind}-{fmt}.out"
            dialog.path_edit.setText(str(out))
            dialog.format_combo.setCurrentIndex(dialog.format_combo.findData(fmt))
            assert dialog.export(), (kind, fmt, dialog.error_label.text())
            back = load_examples(out, fmt=fmt, kind=kind, **({"glue_task": task} if fmt == "glue" else {}))
            assert back.dataset.to_list() == session.project.examples("train").dataset.to_list(), (kind, fmt)


@pytest.mark.parametrize("kind, name, said", [
    ("sentence", "out.conll", "asks for conll"),  # refused only after Export (c1846d4 took it off the list)
    ("sentence", "out.conllu", "asks for conllu"),
    ("tagging", "out.csv", "asks for csv"),
    ("qa", "out.tsv", "asks for tsv"),
    ("sentence", "out.xlsx", "names no format"),  # silently TSV
    ("tagging", "out.xlsx", "names no format"),  # silently CoNLL
    ("qa", "out.xlsx", "names no format"),  # silently SQuAD JSON
    ("sentence", "out.txt", "names no format"),  # silently TSV
])
def test_a_file_name_naming_no_format_the_project_writes_is_refused_before_writing(qtbot, open_session, tmp_path,
                                                                                   kind, name, said):
    """sweep_newcode53 10: with "from the file name", a format the project cannot write was refused
    only after Export, and an extension no writer owns was written in the kind's own format."""
    session = open_session(kind)
    dialog = ExportDialog(session, None, "train")
    qtbot.addWidget(dialog)
    out = tmp_path / name
    dialog.path_edit.setText(str(out))
    assert not dialog.export() and not out.exists()
    shown = dialog.error_label.text()
    assert said in shown and name in shown, shown
    assert ", ".join(_offered(dialog)[1:]) in shown  # the formats it does write
    dialog.format_combo.setCurrentIndex(dialog.format_combo.findData("jsonl"))  # a format chosen: any name
    assert dialog.export() and load_examples(out, fmt="jsonl", kind=kind).dataset.to_list() == \
        session.project.examples("train").dataset.to_list()


def test_a_tagging_project_written_to_a_txt_by_its_name_is_conll_and_reads_back(qtbot, open_session, tmp_path):
    """A .txt is how tagged corpora are often named (CoNLL-2003's files): "from the file name"
    writes CoNLL there, and the file reads back as it was (detect_format tells it from plain text)."""
    session = open_session("tagging")
    dialog = ExportDialog(session, None, "train")
    qtbot.addWidget(dialog)
    out = tmp_path / "out.txt"
    dialog.path_edit.setText(str(out))
    assert dialog.export(), dialog.error_label.text()
    back = load_examples(out, kind="tagging")
    assert back.meta["format"] == "conll"
    assert back.dataset.to_list() == session.project.examples("train").dataset.to_list()


def test_a_txt_holding_conll_u_stays_conll_u_and_its_warning_names_conll_u_columns(qtbot, open_session, tmp_path,
                                                                                     monkeypatch):
    """Sweep today53 #4: "from the file name" over a UD file saved as .txt wrote 2-column CoNLL, and
    the warning named "column 2" (FORM, the words) ... "column 9" as lost. It stays CoNLL-U, and the
    warning names the CoNLL-U columns Import names."""
    from PySide6.QtWidgets import QMessageBox

    session = open_session("tagging")
    ud = tmp_path / "ud.txt"
    ud.write_text("1\tEU\teu\tPROPN\tNNP\t_\t2\tnsubj\t_\t_\n2\trejects\treject\tVERB\tVBZ\t_\t0\troot\t_\t_\n\n",
                  encoding="utf-8")
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda _p, _t, text, *a: warned.append(text) or QMessageBox.StandardButton.Yes)
    dialog = ExportDialog(session, None, "train")
    qtbot.addWidget(dialog)
    dialog.path_edit.setText(str(ud))
    assert dialog.export(), dialog.error_label.text()
    assert "LEMMA, XPOS, HEAD, DEPREL" in warned[0] and "ID, FORM, UPOS" in warned[0]
    assert "column 2" not in warned[0]
    back = load_examples(ud, kind="tagging")
    assert back.meta["format"] == "conllu"
    assert back.dataset.to_list() == session.project.examples("train").dataset.to_list()


def test_a_file_on_the_way_to_the_target_is_named_as_a_file(qtbot, open_session, tmp_path):
    """sweep_newcode53 10: a path under an existing file said only "…: File exists"."""
    dialog = ExportDialog(open_session("sentence"), None, "train")
    qtbot.addWidget(dialog)
    blocker = tmp_path / "file_as_dir"
    blocker.write_text("mine\n")
    dialog.path_edit.setText(str(blocker / "sub" / "x.csv"))
    assert not dialog.export() and blocker.read_text() == "mine\n"
    assert dialog.error_label.text() == f"{blocker} is a file, not a folder: choose a file in a folder."


def test_a_dangling_link_on_the_way_to_the_target_is_named_as_a_link(qtbot, open_session, tmp_path):
    """Sweep reread53 #6: a path through a symbolic link to nowhere was said to go through "a file,
    not a folder"; it is named as data/atomic.check_folder_path names such a link."""
    dialog = ExportDialog(open_session("sentence"), None, "train")
    qtbot.addWidget(dialog)
    link = tmp_path / "out"
    link.symlink_to(tmp_path / "nowhere")
    dialog.path_edit.setText(str(link / "rows.tsv"))
    assert not dialog.export() and not (tmp_path / "nowhere").exists()
    assert dialog.error_label.text() == (
        f"{link} is a symbolic link to a path that does not exist: choose a file in a folder.")
