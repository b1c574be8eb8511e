"""GLUE-layout files read by position: line 1 checked against the release's header, and paths
of the wrong kind named as such (not "missing")."""

from __future__ import annotations

from pathlib import Path

import pytest

from bertstudio.cli import EXIT_USAGE
from bertstudio.data.glue import load_glue
from bertstudio.errors import DataError
from test_cli import run
from test_cli_glue import write_rte


def _reorder(path: Path) -> None:
    """sentence2 before sentence1, header and rows alike: a consistent file of another layout."""
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
    path.write_text("".join("\t".join([r[0], r[2], r[1], *r[3:]]) + "\n" for r in rows), encoding="utf-8")


def test_a_reordered_header_is_refused_naming_line_1_and_the_expected_header(tmp_path) -> None:
    write_rte(tmp_path / "RTE")
    _reorder(tmp_path / "RTE" / "dev.tsv")
    assert len(load_glue("RTE", tmp_path, "train")) == 8  # the untouched split reads as before
    with pytest.raises(DataError) as info:
        load_glue("RTE", tmp_path, "dev")
    assert str(info.value) == (f'{tmp_path / "RTE" / "dev.tsv"}, line 1: header "index sentence2 sentence1 label" '
                               '(expected "index sentence1 sentence2 label")')


def test_headers_are_compared_without_case_and_the_ones_save_glue_wrote_still_read(tmp_path) -> None:
    write_rte(tmp_path / "RTE")
    dev = tmp_path / "RTE" / "dev.tsv"
    lines = dev.read_text(encoding="utf-8").splitlines(keepends=True)
    dev.write_text("INDEX\tSentence1\tSentence2\tLabel\n" + "".join(lines[1:]), encoding="utf-8")
    assert len(load_glue("RTE", tmp_path, "dev")) == 8
    sts = tmp_path / "STS-B" / "dev.tsv"  # the header save_glue writes for STS-B (col1.. and label)
    sts.parent.mkdir()
    sts.write_text("index\tcol1\tcol2\tcol3\tcol4\tcol5\tcol6\tsentence1\tsentence2\tlabel\n"
                   "0\t\t\t\t\t\t\ta cat\ta dog\t2.5\n", encoding="utf-8")
    assert load_glue("STS-B", tmp_path, "dev").dataset["label"] == [2.5]


def test_a_dev_file_that_is_a_folder_is_named_as_a_folder(tmp_path) -> None:
    (tmp_path / "SST-2" / "dev.tsv").mkdir(parents=True)
    with pytest.raises(DataError) as info:
        load_glue("SST-2", tmp_path, "dev")
    assert str(info.value) == f"{tmp_path / 'SST-2' / 'dev.tsv'}: is a folder (expected a file)"


def test_a_task_folder_that_is_a_file_is_named_as_a_file(tmp_path, capsys) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "RTE").write_text("x", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_glue("RTE", tmp_path / "data", "dev")
    assert f"{tmp_path / 'data' / 'RTE'}: is a file (expected a folder holding dev.tsv)" == str(info.value)
    code, out, err = run(["glue", "--tasks", "RTE", "--data-dir", str(tmp_path / "data"), "--model", "unused",
                          "--out", str(tmp_path / "out")], capsys)
    assert code == EXIT_USAGE and len(err.strip().splitlines()) == 1, err
    assert f"{tmp_path / 'data' / 'RTE'}: is a file (expected a folder holding train.tsv)" in err


def _rename_first_column(path: Path, name: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text(name + lines[0][lines[0].index("\t"):] + "".join(lines[1:]), encoding="utf-8")


def test_an_idx_header_reads_in_every_split_and_the_index_is_checked_only_where_it_is_read(tmp_path) -> None:
    """Hugging Face's datasets names the GLUE index column idx: an RTE dev.tsv with the header
    "idx sentence1 sentence2 label" was refused, though column 0 is read only from test files."""
    write_rte(tmp_path / "RTE")
    for split in ("train", "dev", "test"):
        _rename_first_column(tmp_path / "RTE" / f"{split}.tsv", "idx")
        assert len(load_glue("RTE", tmp_path, split)) == 8, split
    _rename_first_column(tmp_path / "RTE" / "dev.tsv", "row")  # not read in dev: not checked
    assert len(load_glue("RTE", tmp_path, "dev")) == 8
    _rename_first_column(tmp_path / "RTE" / "test.tsv", "row")  # the test file's index is what is submitted
    with pytest.raises(DataError, match='header "row sentence1 sentence2"'):
        load_glue("RTE", tmp_path, "test")


def test_a_path_of_the_wrong_kind_is_worded_once_for_load_glue_the_glue_command_and_the_submission(tmp_path) -> None:
    """resolve_file, the glue command and glue-submission each worded "is a folder / is a file"
    themselves (the command without the colon every other core message has)."""
    from bertstudio.data.glue import get_preset, path_problem
    from bertstudio.train.glue_submission import _why_absent

    rte = get_preset("RTE")
    (tmp_path / "a" / "RTE" / "test.tsv").mkdir(parents=True)
    assert path_problem(rte, tmp_path / "a", "test") == f"{tmp_path / 'a' / 'RTE' / 'test.tsv'}: is a folder (expected a file)"
    assert _why_absent(rte, tmp_path / "a") == path_problem(rte, tmp_path / "a", "test")
    assert path_problem(rte, tmp_path / "a", "dev") is None  # absent is not the wrong kind
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "RTE").write_text("x", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_glue(rte, tmp_path / "b", "dev")
    assert str(info.value) == path_problem(rte, tmp_path / "b", "dev")


@pytest.mark.parametrize("task, header, mapping", [
    ("SST-2", "sentence\tlabel\tidx", "text=sentence,label=label"),
    ("RTE", "sentence1\tsentence2\tlabel\tidx", "text=sentence1,text_pair=sentence2,label=label"),
    ("CoLA", "sentence\tlabel\tidx", "text=sentence,label=label")])  # CoLA's release has no header: "found 3 columns"
def test_a_hugging_face_datasets_export_is_named_as_such(tmp_path, task, header, mapping) -> None:
    """datasets' export (a last column idx) was refused as "found 3 columns (expected 2 columns)"
    or by its header, saying neither what the file is nor how to read it."""
    path = tmp_path / task / "train.tsv"
    path.parent.mkdir()
    path.write_text(header + "\n" + "\t".join(["a b"] * (header.count("\t") - 1) + ["1", "0"]) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_glue(task, tmp_path, "train")
    said = str(info.value)
    assert said.startswith(f"{path}, line 1: ") and "a Hugging Face datasets export" in said and "\n" not in said
    assert f"--format tsv --columns {mapping}" in said


def test_glues_own_cola_rows_outside_a_cola_folder_are_named_with_how_to_read_them(tmp_path, capsys) -> None:
    """GLUE's CoLA train/dev TSV has no header (source, label, mark, sentence): outside a CoLA folder
    it was refused as "line 1: empty text" (the empty mark of an acceptable sentence), saying
    nothing of the file. The line names it, and each reading it gives works."""
    from bertstudio.data.io import load_examples

    path = tmp_path / "cola_train.tsv"
    path.write_text("gj04\t1\t\tOur friends won't buy this analysis.\nclc95\t0\t*\tThey drank the pub.\n"
                    "c-05\t0\t??\tThe more we study verbs.\n", encoding="utf-8")
    code, out, err = run(["train", "--train", str(path), "--out", str(tmp_path / "run")], capsys)
    lines = err.strip().splitlines()
    assert code == EXIT_USAGE and len(lines) == 1, err
    assert lines[0] == (f"bertstudio: error: {path}, line 1: GLUE's own CoLA rows (source, label, mark, sentence; no "
                        "header) outside a CoLA folder (expected --glue-task CoLA (the release's labels, "
                        "acceptable/unacceptable), or --format tsv --columns text=3,label=1 (labels 0/1))")
    by_preset = load_examples(path, glue_task="CoLA")
    by_columns = load_examples(path, fmt="tsv", columns={"text": 3, "label": 1})
    assert by_preset.dataset["text"] == by_columns.dataset["text"] == [
        "Our friends won't buy this analysis.", "They drank the pub.", "The more we study verbs."]
    assert by_preset.dataset["label"] == ["acceptable", "unacceptable", "unacceptable"]
    assert by_columns.dataset["label"] == ["1", "0", "0"]


def test_glues_cola_rows_with_an_upper_case_source_or_read_without_a_header_are_named_too(tmp_path) -> None:
    """An upper-case source (GJ04) or an explicit --header false skipped the CoLA check: "line 1: empty text"."""
    from bertstudio.data.io import load_examples

    path = tmp_path / "cola_train.tsv"
    path.write_text("GJ04\t1\t\tOur friends won't buy this analysis.\nCLC95\t0\t*\tThey drank the pub.\n",
                    encoding="utf-8")
    for header in (None, False):
        with pytest.raises(DataError) as info:
            load_examples(path, header=header)
        assert info.value.problem.startswith("GLUE's own CoLA rows") and info.value.where == "line 1"
    assert load_examples(path, glue_task="CoLA").dataset["label"] == ["acceptable", "unacceptable"]
