"""Valid files people have, read as they mean them (a sweep of everyday files, 2026-12-05).

Each case was read wrongly without a word, or refused, before: a row dropped, a comment read
as a token, quotes kept, a whole file read as unlabelled text, apostrophes taken off text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bertstudio.data.examples import from_records
from bertstudio.data.io import load_examples, preview, save_examples
from bertstudio.errors import DataError


def _write(path: Path, text: str | bytes) -> Path:
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def _rows(es) -> list[dict]:
    return es.dataset.to_list()


def test_a_headerless_file_mapped_by_position_keeps_its_first_row(tmp_path: Path) -> None:
    # the first row's label occurs nowhere below: the header guess took the row for a header
    rows = "ok I guess,neutral\n" + "".join(f"text {i},{'positive' if i % 2 else 'negative'}\n" for i in range(10))
    es = load_examples(_write(tmp_path / "r.csv", rows), columns={"text": 0, "label": 1})
    assert len(es.dataset) == 11 and es.dataset[0] == {"text": "ok I guess", "label": "neutral"}
    assert set(es.labels) == {"neutral", "negative", "positive"}
    # a real header over rows mapped by position is still a header (its names say so)
    es = load_examples(_write(tmp_path / "h.csv", "text,label\n" + rows), columns={"text": 0, "label": 1})
    assert len(es.dataset) == 11 and es.dataset[0]["text"] == "ok I guess"


def test_comment_lines_before_a_conll_sentence_are_skipped_and_a_hash_token_is_kept(tmp_path: Path) -> None:
    multiconer = "# id abc-1\tdomain=en\nthe _ _ O\nsnes _ _ B-PROD\n\n# id abc-2\tdomain=en\n# _ _ O\ngame _ _ O\n"
    es = load_examples(_write(tmp_path / "mc.conll", multiconer))
    assert _rows(es) == [{"tokens": ["the", "snes"], "tags": ["O", "B-PROD"]},
                         {"tokens": ["#", "game"], "tags": ["O", "O"]}]
    assert es.labels == ["O", "B-PROD"]
    other_width = "# sent 1\nEU B-ORG\nrejects O\n"
    assert _rows(load_examples(_write(tmp_path / "c.conll", other_width))) == [
        {"tokens": ["EU", "rejects"], "tags": ["B-ORG", "O"]}]
    hashtag = "# O\nrocks O\n\nfine O\n"  # a "#" token tagged O opens the file
    assert _rows(load_examples(_write(tmp_path / "t.conll", hashtag)))[0] == {"tokens": ["#", "rocks"], "tags": ["O", "O"]}


def test_a_tsv_in_csv_quoting_is_read_with_it(tmp_path: Path) -> None:
    quoted = 'text\tlabel\n"He said ""hi"" &lt;A HREF=""x""&gt;"\tWorld\nplain\tSports\n"a\ttab"\tWorld\n'
    es = load_examples(_write(tmp_path / "q.tsv", quoted))
    assert [r["text"] for r in _rows(es)] == ['He said "hi" &lt;A HREF="x"&gt;', "plain", "a\ttab"]
    assert preview(tmp_path / "q.tsv").rows[0][0] == 'He said "hi" &lt;A HREF="x"&gt;'
    # Excel's Unicode Text export: UTF-16 with quoting
    _write(tmp_path / "u.tsv", "\ufefftext\tlabel\r\n\"She said \"\"no\"\"\"\tneg\r\nok\tpos\r\n".encode("utf-16-le"))
    assert _rows(load_examples(tmp_path / "u.tsv"))[0]["text"] == 'She said "no"'


def test_quotes_the_whole_file_does_not_explain_stay_text(tmp_path: Path) -> None:
    # a one-column file of quotations; and a file whose first 500 lines look CSV-quoted but a later
    # line's quotes are no CSV quoting: before that was checked, two rows were merged into one
    quotes = [f'"Quote number {i} here"' for i in range(12)]
    es = load_examples(_write(tmp_path / "q.tsv", "\n".join(quotes) + "\n"))
    assert [r["text"] for r in _rows(es)] == quotes
    rows = [f'"Quote ""{i}"""\tneg' for i in range(600)]
    rows[550] = '"He said "no" to me"\tpos'
    rows[560] = '"unbalanced start of a quote\tneg'
    es = load_examples(_write(tmp_path / "late.tsv", "text\tlabel\n" + "\n".join(rows) + "\n"))
    assert len(es.dataset) == 600 and es.dataset[550]["text"] == '"He said "no" to me"'
    assert preview(tmp_path / "late.tsv").rows[0][0] == es.dataset[0]["text"]


def test_quotes_in_a_plain_tsv_stay_text(tmp_path: Path) -> None:
    # GLUE-style text: lone quotes, a sentence quoted whole; nothing that only CSV quoting explains
    plain = 'text\tlabel\n"the movie" is fine\tpos\n" so bad\tneg\n"Quoted whole"\tpos\nit "works\tneg\n'
    es = load_examples(_write(tmp_path / "p.tsv", plain))
    assert [r["text"] for r in _rows(es)] == ['"the movie" is fine', '" so bad', '"Quoted whole"', 'it "works']


def test_a_tsv_export_refuses_a_cell_that_would_read_back_quoted(tmp_path: Path) -> None:
    es = from_records("sentence", [{"text": '"a ""b"" c"', "label": "x"}])
    with pytest.raises(DataError, match="reads back as a quoted field"):
        save_examples(es, tmp_path / "o.tsv")
    save_examples(es, tmp_path / "o.csv")
    assert _rows(load_examples(tmp_path / "o.csv")) == _rows(es)


@pytest.mark.parametrize("name, text", [
    ("tabs.csv", "text\tlabel\nhello there\tpos\nbye now\tneg\n"),
    ("semi.csv", "text;label\nGut, wirklich;pos\n\"Schlecht; sehr\";neg\n"),
    ("commas.tsv", "text,label\nhello there,pos\nbye now,neg\n"),
])
def test_the_delimiter_the_content_uses_wins_over_the_extension(tmp_path: Path, name: str, text: str) -> None:
    es = load_examples(_write(tmp_path / name, text))
    assert es.labels == ["pos", "neg"] and all(r["label"] for r in _rows(es))
    assert preview(tmp_path / name).columns == ["text", "label"]


@pytest.mark.parametrize("name, line", [
    ("s.tsv", "Hello there, friend number {i}"), ("p.tsv", "Paris, France, Europe {i}"),
    ("c.csv", "I came; I saw {i}"), ("t.csv", "code\tindented {i}"),
])
def test_one_column_of_sentences_stays_one_column(tmp_path: Path, name: str, line: str) -> None:
    # sentences that each hold a comma, semicolon or tab are no table: only a header naming
    # known columns lets the content overrule the extension (a second look at the sniffing)
    lines = [line.format(i=i) for i in range(8)]
    es = load_examples(_write(tmp_path / name, "\n".join(lines) + "\n"))
    assert [r["text"] for r in _rows(es)] == lines and es.labels == []
    if name.endswith(".tsv"):  # a first line with a known name and a comma splits nothing either
        header = "sentence, with comma\n" + "\n".join(lines) + "\n"
        es = load_examples(_write(tmp_path / ("h" + name), header))
        assert [r["text"] for r in _rows(es)] == ["sentence, with comma", *lines]


def test_leading_apostrophes_of_someone_elses_file_are_text(tmp_path: Path) -> None:
    # a file with a cell starting "-" unescaped was not written with the spreadsheet escape
    other = "text,label\n'-- what a film,pos\n'@jack is right',neg\n-- dashes lead,neg\n"
    es = load_examples(_write(tmp_path / "a.csv", other))
    assert [r["text"] for r in _rows(es)] == ["'-- what a film", "'@jack is right'", "-- dashes lead"]
    # bertstudio's own export still reads back exactly
    mine = from_records("sentence", [{"text": "-- dashes", "label": "a"}, {"text": "'=quoted", "label": "b"},
                                     {"text": "=SUM(A1)", "label": "a"}])
    save_examples(mine, tmp_path / "mine.csv")
    assert _rows(load_examples(tmp_path / "mine.csv")) == _rows(mine)


def test_own_exports_with_number_like_text_round_trip(tmp_path: Path) -> None:
    # "-1\n" and "-١" counted as numbers to the writer (Python's $ and \\d) and as formulas to the
    # reader (RE2): the file read back with every escape left on
    for name, odd in (("o.csv", "-1\n"), ("o.tsv", "-\u0661")):
        mine = from_records("sentence", [{"text": odd, "label": "a"}, {"text": "=SUM(A1)", "label": "b"},
                                         {"text": "@user hi", "label": "b"}])
        save_examples(mine, tmp_path / name)
        assert _rows(load_examples(tmp_path / name)) == _rows(mine)
        assert preview(tmp_path / name).rows[1][0] == "=SUM(A1)"


def test_hashtags_and_hash_tokens_opening_a_sentence_are_tokens(tmp_path: Path) -> None:
    tweets = "#tbt #\nfun A\ntimes N\n\n#winning #\n#yolo #\ngo V\n"
    assert [r["tokens"] for r in _rows(load_examples(_write(tmp_path / "t.conll", tweets)))] == [
        ["#tbt", "fun", "times"], ["#winning", "#yolo", "go"]]
    ptb = "# #\n1 CD\nseed NN\n"
    assert _rows(load_examples(_write(tmp_path / "p.conll", ptb)))[0]["tokens"] == ["#", "1", "seed"]
    ner = "#Brexit B-HASHTAG\nvote O\n"
    es = load_examples(_write(tmp_path / "n.conll", ner))
    assert _rows(es)[0]["tokens"] == ["#Brexit", "vote"] and "B-HASHTAG" in es.labels
    conllu_style = "# sent_id = 1\nEU X B-ORG\nrejects X O\n"
    assert _rows(load_examples(_write(tmp_path / "s.conll", conllu_style)))[0]["tokens"] == ["EU", "rejects"]


def test_a_named_header_over_rows_mapped_by_position_is_still_a_header(tmp_path: Path) -> None:
    rows = "".join(f"headline number {i},{('World', 'Sports')[i % 2]}\n" for i in range(8))
    es = load_examples(_write(tmp_path / "h.csv", "Headline,Section\n" + rows), columns={"text": 0, "label": 1})
    assert len(es.dataset) == 8 and es.labels == ["World", "Sports"]


def test_jsonl_takes_the_key_most_records_have(tmp_path: Path) -> None:
    lines = [json.dumps({"text": f"t{i}", "sentiment": ("pos", "neg")[i % 2]}) for i in range(6)]
    lines.append(json.dumps({"text": "t6", "sentiment": "pos", "label": "reviewed"}))
    es = load_examples(_write(tmp_path / "s.jsonl", "\n".join(lines) + "\n"))
    assert es.labels == ["pos", "neg"] and es.kind == "sentence"
    stray = [json.dumps({"text": f"t{i}", "label": "a"}) for i in range(5)] + [
        json.dumps({"text": "t5", "label": "b", "hypothesis": "h"})]
    es = load_examples(_write(tmp_path / "p.jsonl", "\n".join(stray) + "\n"))
    assert es.kind == "sentence" and len(es.dataset) == 6


def test_spaces_around_a_label_in_a_table_are_layout(tmp_path: Path) -> None:
    es = load_examples(_write(tmp_path / "s.csv", "text, label\ngood movie, pos\nbad, neg\n"))
    assert es.labels == ["pos", "neg"]


def test_jsonl_keys_come_from_the_first_records_not_the_first_alone(tmp_path: Path) -> None:
    text = ('{"review": "no label yet"}\n{"review": "great", "sentiment": "pos"}\n'
            '{"review": "bad", "sentiment": "neg"}\n')
    es = load_examples(_write(tmp_path / "r.jsonl", text))
    assert [r["label"] for r in _rows(es)] == [None, "pos", "neg"]


def test_excel_trailing_columns_and_a_pandas_index_are_not_data(tmp_path: Path) -> None:
    es = load_examples(_write(tmp_path / "e.csv", "\ufefftext,label,,\r\nhello,pos,,\r\nbye,neg,,\r\n"))
    assert _rows(es) == [{"text": "hello", "label": "pos"}, {"text": "bye", "label": "neg"}]
    es = load_examples(_write(tmp_path / "p.csv", ",text,label\n0,hello,pos\n1,bye,neg\n"))
    assert _rows(es) == [{"text": "hello", "label": "pos"}, {"text": "bye", "label": "neg"}]
    # an unnamed column holding words, or 0/1 labels, is still refused: it would be left out
    with pytest.raises(DataError, match="column 2 has no name"):
        load_examples(_write(tmp_path / "w.csv", "text,label,\nhello,pos,keep me\nbye,neg,me too\n"))
    with pytest.raises(DataError, match="column 0 has no name"):
        load_examples(_write(tmp_path / "l.csv", ",text\n" + "".join(f"{i % 2},text {i}\n" for i in range(6))))


def test_booleans_and_whole_floats_read_as_class_names(tmp_path: Path) -> None:
    es = load_examples(_write(tmp_path / "b.jsonl", '{"text": "a", "label": true}\n{"text": "b", "label": false}\n'))
    assert [r["label"] for r in _rows(es)] == ["true", "false"]
    es = load_examples(_write(tmp_path / "f.jsonl", '{"text": "a", "label": 1.0}\n{"text": "b", "label": 0}\n'))
    assert [r["label"] for r in _rows(es)] == ["1", "0"]
    with pytest.raises(DataError, match="regression data"):
        load_examples(_write(tmp_path / "g.jsonl", '{"text": "a", "label": 0.5}\n'))


def test_numeric_tags_are_refused_in_words(tmp_path: Path) -> None:
    path = _write(tmp_path / "hf.jsonl", '{"id": "0", "tokens": ["EU", "rejects"], "ner_tags": [3, 0]}\n')
    with pytest.raises(DataError, match=r"tags are numbers \(class ids such as 3\), not names"):
        load_examples(path)


def test_an_impossible_question_without_answers_is_unanswerable(tmp_path: Path) -> None:
    doc = {"version": "v2.0", "data": [{"title": "t", "paragraphs": [
        {"context": "abc", "qas": [{"id": "a", "question": "q", "is_impossible": True},
                                   {"id": "b", "question": "q2"}]}]}]}
    es = load_examples(_write(tmp_path / "s.json", json.dumps(doc)))
    assert [r["answers"] for r in _rows(es)] == [{"text": [], "answer_start": []}, None]


def test_the_cli_takes_the_kind_from_the_mapping(tmp_path: Path, capsys) -> None:
    from bertstudio.cli import main

    table = "Clothing ID,Review Text,Recommended IND,Class Name\n" + "".join(
        f"{i},review number {i},{i % 2},Dresses\n" for i in range(6))
    path = _write(tmp_path / "amazon.csv", table)
    code = main(["train", "--train", str(path), "--columns", "text=Review Text,label=Recommended IND",
                 "--model", "/nonexistent/model", "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert code == 2 and "lacks text_pair" not in err and "/nonexistent/model" in err
