"""``glue-submission``: a glue folder's models predict the GLUE test sets into the zip
gluebenchmark.com takes, on tiny GLUE-layout folders and the tiny random BERT."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from bertstudio.cli import EXIT_OK, EXIT_USAGE, main
from bertstudio.data.glue import get_preset, submission_value
from test_cli import run
from test_cli_glue import TINY, _PAIRS, _tsv, write_mnli, write_rte

# The label values the GLUE server accepts per file (its submission instructions).
_NLI3 = {"entailment", "neutral", "contradiction"}
_SERVER_LABELS = {"RTE.tsv": {"entailment", "not_entailment"}, "MNLI-m.tsv": _NLI3, "MNLI-mm.tsv": _NLI3, "AX.tsv": _NLI3}


def _number_test_rows(path: Path, start: int) -> None:
    """Give a test file indexes that are not its row numbers, so a file written by row number fails."""
    lines = path.read_text(encoding="utf-8").splitlines()
    body = ["\t".join([str(start + i), *line.split("\t")[1:]]) for i, line in enumerate(lines[1:])]
    path.write_text("\n".join([lines[0], *body]) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def glue_runs(tiny, tmp_path_factory) -> tuple[Path, Path]:
    data = tmp_path_factory.mktemp("glue-data")
    write_rte(data / "RTE", n=8)
    write_mnli(data / "MNLI", n=9)
    _number_test_rows(data / "RTE" / "test.tsv", 100)
    _number_test_rows(data / "MNLI" / "test_matched.tsv", 200)
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
    expected_index = {"RTE.tsv": [str(100 + i) for i in range(8)], "MNLI-m.tsv": [str(200 + i) for i in range(9)],
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


def test_a_missing_test_file_is_named_and_the_rest_written(glue_runs, tmp_path, capsys) -> None:
    data, runs = glue_runs
    partial = tmp_path / "data"
    write_rte(partial / "RTE")  # no MNLI folder, no diagnostic set
    target = tmp_path / "s.zip"
    code, out, err = run(["--quiet", "glue-submission", str(runs), "--data-dir", str(partial), "--out", str(target)],
                         capsys)
    assert code == EXIT_OK, err
    assert zipfile.ZipFile(target).namelist() == ["RTE.tsv"]
    missing = next(line for line in out.splitlines() if line.startswith("not in the zip: "))
    assert "MNLI-m (" not in missing  # the file is MNLI-m.tsv; the line names tasks
    assert "MNLI (no test_matched.tsv in" in missing and "AX (no diagnostic.tsv in" in missing


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
