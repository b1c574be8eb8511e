"""Whether a CSV/TSV's first row names the columns: known names, else the rows below decide
(table.sniff_header); a header that names nothing bertstudio knows is one clear line, never
a silent extra example; a column mapping may name positions as the CLI spells them ("0")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bertstudio.cli import main
from bertstudio.data.formats.table import sniff_header
from bertstudio.data.io import load_examples, preview
from bertstudio.errors import DataError


def _write(path: Path, rows: list[tuple[str, ...]], sep: str = ",") -> Path:
    path.write_text("\n".join(sep.join(r) for r in rows) + "\n", encoding="utf-8")
    return path


def _reviews(n: int = 30, seed: int = 0) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    return [(f"the film was {rng.choice(['good', 'bad', 'long', 'odd'])} in part {i}", rng.choice(["pos", "neg"]))
            for i in range(n)]


@pytest.mark.parametrize(("records", "expected"), [
    ([["sentence", "label"], ["a b", "x"]], True),                       # a known name, whatever follows
    ([["review", "sentiment"], ["a b", "x"]], True),                     # common names people give
    ([["opinion", "verdict"]] + [[f"text {i}", "yes" if i % 2 else "no"] for i in range(8)], True),  # labels repeat below
    ([["phrase", "rating"]] + [[f"text {i}", f"{i / 3:.2f}"] for i in range(5)], True),  # numbers below a word
    ([["an odd first text", "rare"]] + [[f"text {i}", "yes" if i % 2 else "no"] for i in range(8)], True),
    ([["first text", "yes"]] + [[f"text {i}", "yes" if i % 2 else "no"] for i in range(8)], False),  # its label recurs
    ([["foo", "bar"], ["hello", "a"], ["bye", "b"]], False),            # too few rows to tell: data
    ([["phrase", "2.5"]] + [[f"text {i}", f"{i / 3:.2f}"] for i in range(5)], False),    # a number on top: data
    ([["What time is it?", "question"], ["Close it.", "command"], ["Why?", "question"]], False),  # a label value, not a name
    ([["sentence", "label"], ["label", "x"], ["b", "y"]], True),          # "label" as a text below is in another column
    ([["only text"]], False),
    ([], False),
])
def test_sniff_header(records, expected) -> None:
    assert sniff_header(records) is expected


def test_a_header_of_unknown_names_is_refused_with_its_line_not_read_as_an_example(tmp_path: Path) -> None:
    path = _write(tmp_path / "votes.csv", [("opinion", "verdict"), *_reviews()])
    with pytest.raises(DataError) as info:
        load_examples(path)
    err = info.value
    assert err.where == "line 1" and "'opinion', 'verdict'" in str(err) and "text=0,label=1" in str(err)
    es = load_examples(path, columns={"text": "opinion", "label": "verdict"})
    assert len(es) == 30 and "verdict" not in es.labels and es.dataset[0]["text"].startswith("the film was")


def test_positions_spelled_as_text_read_every_row(tmp_path: Path) -> None:
    """The CLI and a run config spell a position "0"; a headerless file mapped that way keeps its first row."""
    path = _write(tmp_path / "plain.csv", [("hello there", "a"), ("bye now", "b"), ("see you", "a")])
    es = load_examples(path, columns={"text": "0", "label": "-1"})
    assert len(es) == 3 and es.dataset[0]["text"] == "hello there" and sorted(es.labels) == ["a", "b"]
    named = _write(tmp_path / "named.csv", [("opinion", "verdict"), *_reviews(6)])
    mixed = load_examples(named, columns={"text": "opinion", "label": "1"})  # a name: the file has a header
    assert len(mixed) == 6 and "verdict" not in mixed.labels


def test_common_header_names_map_without_a_mapping(tmp_path: Path) -> None:
    path = _write(tmp_path / "reviews.csv", [("review", "sentiment"), *_reviews(12)])
    es = load_examples(path)
    assert len(es) == 12 and sorted(es.labels) == ["neg", "pos"]


def test_preview_guesses_and_can_be_told(tmp_path: Path) -> None:
    path = _write(tmp_path / "votes.tsv", [("opinion", "verdict"), *_reviews()], sep="\t")
    guessed = preview(path)
    assert guessed.has_header and guessed.columns == ["opinion", "verdict"] and len(guessed.rows) == 30
    assert guessed.suggested_columns == {"text": "opinion", "label": "verdict"}  # by the rows, for the user to confirm
    told = preview(path, header=False)
    assert not told.has_header and told.rows[0] == ["opinion", "verdict"] and told.suggested_columns == {"text": 0, "label": 1}
    plain = _write(tmp_path / "plain.csv", [(t, lab) for t, lab in _reviews(10)])
    assert not preview(plain).has_header and preview(plain, header=True).columns == list(_reviews(10)[0])


def test_cli_refuses_a_header_it_cannot_read_with_one_line(tmp_path: Path, capsys) -> None:
    path = _write(tmp_path / "votes.csv", [("opinion", "verdict"), *_reviews()])
    code = main(["train", "--train", str(path), "--out", str(tmp_path / "run"), "--epochs", "1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "votes.csv, line 1" in err[0] and "columns text=" in err[0]
    assert not (tmp_path / "run").exists()


def test_a_positional_mapping_still_skips_a_header_row(tmp_path: Path) -> None:
    """--columns text=0,label=1 on a file with a "text,label" header: the header is not an example."""
    path = _write(tmp_path / "named.csv", [("text", "label"), *_reviews(20)])
    es = load_examples(path, columns={"text": "0", "label": "1"})
    assert len(es) == 20 and sorted(es.labels) == ["neg", "pos"]
    plain = _write(tmp_path / "plain.csv", _reviews(20))
    assert len(load_examples(plain, columns={"text": "0", "label": "-1"})) == 20


def test_a_headerless_file_whose_first_label_is_a_column_word_keeps_its_first_row(tmp_path: Path) -> None:
    rows = [("What time is it?", "question"), ("Close the door.", "command"), ("It is raining.", "statement"),
            ("Is it late?", "question"), ("Sit down.", "command"), ("The sky is blue.", "statement")]
    path = _write(tmp_path / "acts.csv", rows)
    es = load_examples(path)
    assert len(es) == 6 and es.dataset[0]["text"] == "What time is it?"
    assert sorted(es.labels) == ["command", "question", "statement"]
    assert not preview(path).has_header and preview(path).suggested_columns == {"text": 0, "label": 1}


def test_two_roles_on_one_column_are_refused(tmp_path: Path) -> None:
    path = _write(tmp_path / "plain.csv", _reviews(6))
    with pytest.raises(DataError, match="text and label name the same column"):
        load_examples(path, columns={"text": "0", "label": "0"})


@pytest.mark.parametrize("sep", [",", "\t"])
def test_an_unnamed_header_cell_over_values_is_refused_not_dropped(tmp_path: Path, sep: str) -> None:
    rows = _reviews()
    path = _write(tmp_path / "unnamed.csv", [("text", "")] + rows, sep=sep)
    with pytest.raises(DataError) as info:
        load_examples(path, kind="sentence", fmt="tsv" if sep == "\t" else "csv")
    message = str(info.value)
    assert "line 1" in message and "column 1 has no name" in message and "label=1" in message
    assert "\n" not in message
    # the way out the message gives works, and keeps every label
    ex = load_examples(path, kind="sentence", fmt="tsv" if sep == "\t" else "csv", columns={"text": "text", "label": "1"})
    assert ex.dataset["label"] == [r[1] for r in rows]


def test_a_trailing_delimiter_over_an_empty_column_still_reads(tmp_path: Path) -> None:
    path = _write(tmp_path / "trailing.csv", [("text", "")] + [(t, "") for t, _ in _reviews(5)])
    ex = load_examples(path, kind="sentence")
    assert len(ex) == 5 and ex.labels == []
