"""``glue-submission``: a glue folder's models predict the GLUE test sets into the zip
gluebenchmark.com takes, on tiny GLUE-layout folders and the tiny random BERT."""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from bertstudio.cli import EXIT_OK, EXIT_USAGE, main
from bertstudio.data import glue
from bertstudio.data.glue import get_preset, submission_value
from test_cli import run
from test_cli_glue import TINY, _PAIRS, _tsv, write_mnli, write_rte

# The label values the GLUE server accepts per file (its submission instructions).
_NLI3 = {"entailment", "neutral", "contradiction"}
_SERVER_LABELS = {"RTE.tsv": {"entailment", "not_entailment"}, "MNLI-m.tsv": _NLI3, "MNLI-mm.tsv": _NLI3, "AX.tsv": _NLI3}


@pytest.fixture(autouse=True)
def tiny_test_sets(monkeypatch) -> None:
    """The tiny folders' test sets stand for GLUE's: their row counts are the official ones here
    (a test file of another size is refused, as a cut copy of the release must be)."""
    for name, rows in {"RTE": 8, "MNLI": 9, "MNLI-mm": 9, "AX": 5}.items():
        monkeypatch.setitem(glue.PRESETS, name, replace(glue.PRESETS[name], test_rows=rows))


def _number_test_rows(path: Path) -> None:
    """Give a test file indexes that are not its row numbers (its 0 to n-1 backwards, as GLUE's test sets
    number their n rows 0 to n-1), so a file written by row number fails."""
    lines = path.read_text(encoding="utf-8").splitlines()
    body = ["\t".join([str(len(lines) - 2 - i), *line.split("\t")[1:]]) for i, line in enumerate(lines[1:])]
    path.write_text("\n".join([lines[0], *body]) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def glue_runs(tiny, tmp_path_factory) -> tuple[Path, Path]:
    data = tmp_path_factory.mktemp("glue-data")
    write_rte(data / "RTE", n=8)
    write_mnli(data / "MNLI", n=9)
    _number_test_rows(data / "RTE" / "test.tsv")
    _number_test_rows(data / "MNLI" / "test_matched.tsv")
    _tsv(data / "diagnostic" / "diagnostic.tsv", ["index", "sentence1", "sentence2"],
         [[str(i), *_PAIRS[i % 6]] for i in range(5)])
    runs = tmp_path_factory.mktemp("glue-runs") / "runs"
    code = main(["--quiet", "glue", "--tasks", "RTE,MNLI", "--data-dir", str(data), "--model", tiny, *TINY,
                 "--out", str(runs)], out=io.StringIO())
    assert code == EXIT_OK
    return data, runs


def _rows(text: str) -> list[list[str]]:
    return [line.split("\t") for line in text.splitlines()]


def test_zip_holds_the_servers_files(glue_runs, tmp_path, capsys) -> None:
    data, runs = glue_runs
    target = tmp_path / "submission.zip"
    code, out, err = run(["glue-submission", str(runs), "--data-dir", str(data), "--out", str(target)], capsys)
    assert code == EXIT_OK, err
    with zipfile.ZipFile(target) as z:
        files = {name: z.read(name).decode("utf-8") for name in z.namelist()}
    assert sorted(files) == ["AX.tsv", "MNLI-m.tsv", "MNLI-mm.tsv", "RTE.tsv"]
    expected_index = {"RTE.tsv": [str(7 - i) for i in range(8)], "MNLI-m.tsv": [str(8 - i) for i in range(9)],
                      "MNLI-mm.tsv": [str(i) for i in range(9)], "AX.tsv": [str(i) for i in range(5)]}
    for name, text in files.items():
        rows = _rows(text)
        assert rows[0] == ["index", "prediction"], name
        assert [r[0] for r in rows[1:]] == expected_index[name], name  # the test file's own index, each row once
        assert all(len(r) == 2 and r[1] in _SERVER_LABELS[name] for r in rows[1:]), (name, rows)
    assert "RTE.tsv: 8 rows\n" in out and "MNLI-m.tsv: 9 rows\n" in out and "AX.tsv: 5 rows\n" in out
    missing = next(line for line in out.splitlines() if line.startswith("not in the zip: "))
    assert "CoLA (no run)" in missing and "RTE" not in missing and "AX" not in missing
    assert "== MNLI-mm (MNLI's model" in err and "== AX (MNLI's model" in err


def test_a_missing_test_file_is_refused_unless_allow_missing(glue_runs, tmp_path, capsys) -> None:
    """A finished task left out of the zip for lack of its test file is a partial submission:
    refused before any prediction (exit 2, no zip), as glue exits 2 for a task whose data is
    missing; --allow-missing writes the rest and says which were left out."""
    data, runs = glue_runs
    partial = tmp_path / "data"
    write_rte(partial / "RTE")  # no MNLI folder, no diagnostic set
    target = tmp_path / "s.zip"
    code, out, err = run(["glue-submission", str(runs), "--data-dir", str(partial), "--out", str(target)], capsys)
    assert code == EXIT_USAGE and out == "" and len(err.strip().splitlines()) == 1, err
    assert "test_matched.tsv" in err and "diagnostic.tsv" in err and "--allow-missing" in err
    assert not target.exists()
    code, out, err = run(["--quiet", "glue-submission", str(runs), "--data-dir", str(partial), "--out", str(target),
                          "--allow-missing"], capsys)
    assert code == EXIT_OK, err
    assert zipfile.ZipFile(target).namelist() == ["RTE.tsv"]
    missing = next(line for line in out.splitlines() if line.startswith("not in the zip: "))
    assert "MNLI-m (" not in missing  # the file is MNLI-m.tsv; the line names tasks
    assert "MNLI (no test_matched.tsv in" in missing and "AX (no diagnostic.tsv in" in missing
    assert "--allow-missing" in missing


def _submit(runs: Path, data: Path, target: Path, capsys, *flags: str) -> tuple[int, str, str]:
    return run(["--quiet", "glue-submission", str(runs), "--data-dir", str(data), "--out", str(target), *flags], capsys)


def _copy_rte(data: Path, to: Path) -> Path:
    (to / "RTE").mkdir(parents=True)
    for f in ("train.tsv", "dev.tsv", "test.tsv"):
        (to / "RTE" / f).write_bytes((data / "RTE" / f).read_bytes())
    return to / "RTE" / "test.tsv"


def test_a_test_file_of_another_row_count_than_glues_is_refused(glue_runs, tmp_path, capsys) -> None:
    data, runs = glue_runs
    test = _copy_rte(data, tmp_path / "data")
    test.write_text("".join(test.read_text(encoding="utf-8").splitlines(keepends=True)[:6]), encoding="utf-8")
    target = tmp_path / "s.zip"
    code, out, err = _submit(runs, tmp_path / "data", target, capsys, "--allow-missing")
    assert code == EXIT_USAGE and out == "" and len(err.strip().splitlines()) == 1, err
    assert str(test) in err and "5 rows" in err and "the 8 rows of GLUE's RTE test set" in err
    assert not target.exists()


def test_a_repeated_test_index_is_refused_naming_its_line(glue_runs, tmp_path, capsys) -> None:
    data, runs = glue_runs
    test = _copy_rte(data, tmp_path / "data")
    lines = test.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[4] = "\t".join(["6", *lines[4].split("\t")[1:]])  # line 5 repeats line 3's index
    test.write_text("".join(lines), encoding="utf-8")
    code, out, err = _submit(runs, tmp_path / "data", tmp_path / "s.zip", capsys, "--allow-missing")
    assert code == EXIT_USAGE and len(err.strip().splitlines()) == 1, err
    assert str(test) in err and "line 5" in err and "index 6 again" in err and "line 3" in err
    assert not (tmp_path / "s.zip").exists()


def test_a_reordered_test_header_is_refused(glue_runs, tmp_path, capsys) -> None:
    data, runs = glue_runs
    test = _copy_rte(data, tmp_path / "data")
    rows = [line.split("\t") for line in test.read_text(encoding="utf-8").splitlines()]
    test.write_text("".join(f"{r[0]}\t{r[2]}\t{r[1]}\n" for r in rows), encoding="utf-8")
    code, out, err = _submit(runs, tmp_path / "data", tmp_path / "s.zip", capsys, "--allow-missing")
    assert code == EXIT_USAGE and len(err.strip().splitlines()) == 1, err
    assert str(test) in err and "line 1" in err and '"index sentence1 sentence2"' in err


def test_a_test_path_of_the_wrong_kind_is_named_as_such(glue_runs, tmp_path, capsys) -> None:
    data, runs = glue_runs
    (tmp_path / "d1" / "RTE" / "test.tsv").mkdir(parents=True)
    code, out, err = _submit(runs, tmp_path / "d1", tmp_path / "s.zip", capsys)
    assert code == EXIT_USAGE and str(tmp_path / "d1" / "RTE" / "test.tsv") + ": is a folder (expected a file)" in err
    (tmp_path / "d2").mkdir()
    (tmp_path / "d2" / "RTE").write_text("x", encoding="utf-8")
    code, out, err = _submit(runs, tmp_path / "d2", tmp_path / "s.zip", capsys)
    assert code == EXIT_USAGE and str(tmp_path / "d2" / "RTE") + ": is a file (expected a folder holding test.tsv)" in err, err


def test_an_existing_zip_is_replaced_only_with_overwrite(glue_runs, tmp_path, capsys) -> None:
    data, runs = glue_runs
    target = tmp_path / "submission.zip"
    target.write_bytes(b"mine")
    code, out, err = run(["glue-submission", str(runs), "--data-dir", str(data), "--out", str(target)], capsys)
    assert code == EXIT_USAGE and out == "" and len(err.strip().splitlines()) == 1, err
    assert str(target) in err and "--overwrite" in err
    assert target.read_bytes() == b"mine"
    code, _, err = run(["--quiet", "glue-submission", str(runs), "--data-dir", str(data), "--out", str(target),
                        "--overwrite"], capsys)
    assert code == EXIT_OK, err
    assert "RTE.tsv" in zipfile.ZipFile(target).namelist()


def test_a_zip_whose_folder_cannot_be_made_or_written_is_refused_before_any_prediction(glue_runs, tmp_path, capsys,
                                                                                     monkeypatch) -> None:
    """Every test set was predicted (hours with real models), then the write failed as an
    "internal error": a file where the folder should be, a folder that cannot be written."""
    from bertstudio.data import atomic
    from bertstudio.train import glue_submission

    data, runs = glue_runs
    predicted = []
    monkeypatch.setattr(glue_submission, "predict_submission", lambda *a, **k: predicted.append(1))
    (tmp_path / "afile").write_text("mine", encoding="utf-8")
    for target, problem in ((tmp_path / "afile" / "s.zip", f"{tmp_path / 'afile'} is a file, so no file can be written "
                                                           "inside it"),
                            (tmp_path / "afile" / "sub" / "s.zip", f"{tmp_path / 'afile'} is a file, so no folder can "
                                                                   "be made inside it")):
        code, out, err = _submit(runs, data, target, capsys)
        assert code == EXIT_USAGE and out == "", err
        assert err.strip() == f"bertstudio: error: {target}, --out: {problem} (expected a zip in a folder that can be " \
                              "written)", err
    shut = tmp_path / "shut"
    shut.mkdir()
    real = atomic._can_write_in
    monkeypatch.setattr(atomic, "_can_write_in", lambda folder: Path(folder) != shut and real(folder))
    code, out, err = _submit(runs, data, shut / "s.zip", capsys)
    assert code == EXIT_USAGE and f"--out: no permission to write in {shut} " in err, err
    assert predicted == [] and (tmp_path / "afile").read_text(encoding="utf-8") == "mine"


def test_a_zip_that_cannot_be_written_after_the_predictions_is_one_line_naming_out(glue_runs, tmp_path, capsys,
                                                                                   monkeypatch) -> None:
    from bertstudio.data import atomic

    data, runs = glue_runs
    target = tmp_path / "s.zip"

    def read_only(path, *args, **kwargs):
        raise OSError(30, "Read-only file system", str(path.parent / ".s.zip.1.tmp"))

    monkeypatch.setattr(atomic, "atomic_write_bytes", read_only)
    code, out, err = _submit(runs, data, target, capsys)
    assert code == EXIT_USAGE and out == "", err
    assert err.strip() == (f"bertstudio: error: {target}, --out: cannot be written: Read-only file system (expected a "
                           "zip in a folder that can be written)"), err


def test_a_folder_that_is_no_glue_output_is_refused_in_one_line(glue_runs, tmp_path, capsys) -> None:
    data, runs = glue_runs
    code, out, err = run(["glue-submission", str(runs / "RTE"), "--data-dir", str(data), "--out",
                          str(tmp_path / "s.zip")], capsys)
    assert code == EXIT_USAGE and out == "" and len(err.strip().splitlines()) == 1, err
    assert str(runs / "RTE") in err and "bertstudio glue" in err
    assert not (tmp_path / "s.zip").exists()
    code, out, err = run(["glue-submission", str(runs), "--data-dir", str(tmp_path / "nowhere"), "--out",
                          str(tmp_path / "s.zip")], capsys)
    assert code == EXIT_USAGE and len(err.strip().splitlines()) == 1 and str(tmp_path / "nowhere") in err, err


def test_submission_values_are_the_servers() -> None:
    """STS-B scores clipped to the 0-5 scale; labels as the GLUE files hold them (ids 0/1 for
    CoLA, SST-2, MRPC, QQP and WNLI; names for the NLI tasks)."""
    sts = get_preset("STS-B")
    assert [submission_value(sts, {"score": s}) for s in (-0.3, 2.5, 5.7)] == ["0.0", "2.5", "5.0"]
    assert submission_value(get_preset("CoLA"), {"label": "acceptable"}) == "1"
    assert submission_value(get_preset("SST-2"), {"label": "negative"}) == "0"
    assert submission_value(get_preset("QQP"), {"label": "duplicate"}) == "1"
    assert submission_value(get_preset("WNLI"), {"label": "entailment"}) == "1"
    assert submission_value(get_preset("QNLI"), {"label": "not_entailment"}) == "not_entailment"


def _submit_with_index(glue_runs, tmp_path, capsys, index: str):
    """RTE's test file with line 5's index replaced by ``index``, submitted: (the file, exit, out, err)."""
    data, runs = glue_runs
    test = _copy_rte(data, tmp_path / "data")
    lines = test.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[4] = "\t".join([index, *lines[4].split("\t")[1:]])
    test.write_text("".join(lines), encoding="utf-8")
    return (test, *_submit(runs, tmp_path / "data", tmp_path / "s.zip", capsys, "--allow-missing"))


@pytest.mark.parametrize("index", ["01", "0101", "\u00b2", "\u0663", "\uff15"])
def test_a_test_index_glue_would_misread_is_refused_naming_its_line(glue_runs, tmp_path, capsys, index) -> None:
    """str.isdigit() took superscripts and non-ASCII digits, and "01" (the server's 1) passed as new."""
    test, code, out, err = _submit_with_index(glue_runs, tmp_path, capsys, index)
    assert code == EXIT_USAGE and out == "" and len(err.strip().splitlines()) == 1, err
    assert str(test) in err and "line 5" in err and repr(index) in err
    assert not (tmp_path / "s.zip").exists()


@pytest.mark.parametrize("index", ["8", "9999999999999999999999"])
def test_a_test_index_past_the_test_sets_rows_is_refused(glue_runs, tmp_path, capsys, index) -> None:
    """A 22-digit index was zipped: GLUE numbers a test set's n rows 0 to n-1, and the server has no
    such row (here the 8-row RTE stands for GLUE's; its line 5 held index 4)."""
    test, code, out, err = _submit_with_index(glue_runs, tmp_path, capsys, index)
    assert code == EXIT_USAGE and out == "" and len(err.strip().splitlines()) == 1, err
    assert f"{test}, line 5: index {index} is past the last row (GLUE numbers the 8 rows of its RTE test set 0 to 7)" in err
    assert not (tmp_path / "s.zip").exists()


def test_an_empty_test_index_is_said_as_such(glue_runs, tmp_path, capsys) -> None:
    """The index column is read as the text: an empty index was said as "empty text"."""
    data, runs = glue_runs
    test = _copy_rte(data, tmp_path / "data")
    lines = test.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[4] = "\t".join(["", *lines[4].split("\t")[1:]])
    test.write_text("".join(lines), encoding="utf-8")
    code, out, err = _submit(runs, tmp_path / "data", tmp_path / "s.zip", capsys, "--allow-missing")
    assert code == EXIT_USAGE and out == "" and len(err.strip().splitlines()) == 1, err
    assert str(test) in err and "line 5" in err and "empty index" in err and "empty text" not in err
    assert not (tmp_path / "s.zip").exists()


def test_a_test_index_of_thousands_of_digits_is_refused_in_one_line(glue_runs, tmp_path, capsys) -> None:
    """A 5,000-digit index crashed with "internal error: ValueError" (int() refuses more than 4,300
    digits before the range check ran); it is past the last row, said with the index cut short."""
    data, runs = glue_runs
    test = _copy_rte(data, tmp_path / "data")
    lines = test.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[4] = "\t".join(["9" * 5000, *lines[4].split("\t")[1:]])
    test.write_text("".join(lines), encoding="utf-8")
    code, out, err = _submit(runs, tmp_path / "data", tmp_path / "s.zip", capsys, "--allow-missing")
    assert code == EXIT_USAGE and out == "" and len(err.strip().splitlines()) == 1, err
    assert (f"{test}, line 5: index {'9' * 20}… (5,000 characters) is past the last row "
            "(GLUE numbers the 8 rows of its RTE test set 0 to 7)") in err
    assert "internal error" not in err and len(err) < 1000
    assert not (tmp_path / "s.zip").exists()


def test_a_finished_run_whose_history_is_damaged_is_said_as_such_not_as_unfinished(glue_runs, tmp_path, capsys) -> None:
    import shutil

    data, runs = glue_runs
    copy = tmp_path / "runs"
    shutil.copytree(runs, copy)
    history = copy / "RTE" / "history.jsonl"
    history.write_text(history.read_text(encoding="utf-8")[:40], encoding="utf-8")
    code, out, err = _submit(copy, data, tmp_path / "s.zip", capsys)
    assert code == EXIT_OK, err
    assert f"RTE (its run's history is damaged ({history}, line 1: cut short))" in out, out
