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
    es = load_examples(_write(tmp_path / "q2.tsv", "\t\n".join(quotes) + "\t\n"))  # an empty label column
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


def test_jsonl_keys_of_a_partly_labelled_file(tmp_path: Path) -> None:
    # "label" on one record of five, "topic" (also a label word) on all: the labels are "label"'s
    lines = [json.dumps({"text": "review 0", "topic": "books", "label": "pos"})] + [
        json.dumps({"text": f"review {i}", "topic": "books"}) for i in range(1, 5)]
    es = load_examples(_write(tmp_path / "s.jsonl", "\n".join(lines) + "\n"))
    assert [r["label"] for r in _rows(es)] == ["pos", None, None, None, None]
    assert preview(tmp_path / "s.jsonl").suggested_columns["label"] == "label"
    stray = [json.dumps({"text": f"t{i}", "label": "a"}) for i in range(5)] + [
        json.dumps({"text": "t5", "label": "b", "hypothesis": "h"})]
    es = load_examples(_write(tmp_path / "p.jsonl", "\n".join(stray) + "\n"))
    assert es.kind == "sentence" and len(es.dataset) == 6


def test_spaces_around_a_label_in_a_table_are_layout(tmp_path: Path) -> None:
    es = load_examples(_write(tmp_path / "s.csv", "text, label\ngood movie, pos\nbad, neg\n"))
    assert es.labels == ["pos", "neg"]
    # only ASCII spaces: a no-break or ideographic space is the label's own
    es = load_examples(_write(tmp_path / "n.tsv", "text\tlabel\na\tpos\u00a0\nb\t\u3000x\n"))
    assert es.labels == ["pos\u00a0", "\u3000x"]


def test_old_mac_line_ends_preview_as_they_load(tmp_path: Path) -> None:
    path = _write(tmp_path / "m.csv", "text;label\rgood, really good;pos\rbad, so bad;neg\rfine;pos\r")
    assert [r["label"] for r in _rows(load_examples(path))] == ["pos", "neg", "pos"]
    shown = preview(path)
    assert shown.columns == ["text", "label"] and shown.has_header and shown.rows[0] == ["good, really good", "pos"]


def test_hash_tokens_with_features_and_files_of_hash_lines(tmp_path: Path) -> None:
    feats = "# PUNCT PunctType=Hash\nfun NOUN Number=Sing\n"
    es = load_examples(_write(tmp_path / "f.conll", feats), columns={"tokens": 0, "tags": 1})
    assert _rows(es)[0]["tokens"] == ["#", "fun"]
    only = "# B-X\n\n# O\n"
    assert [r["tokens"] for r in _rows(load_examples(_write(tmp_path / "o.conll", only)))] == [["#"], ["#"]]


def test_jsonl_keys_come_from_the_first_records_not_the_first_alone(tmp_path: Path) -> None:
    text = ('{"review": "no label yet"}\n{"review": "great", "sentiment": "pos"}\n'
            '{"review": "bad", "sentiment": "neg"}\n')
    es = load_examples(_write(tmp_path / "r.jsonl", text))
    assert [r["label"] for r in _rows(es)] == [None, "pos", "neg"]


def test_excel_trailing_columns_and_a_pandas_index_are_not_data(tmp_path: Path) -> None:
    es = load_examples(_write(tmp_path / "e.csv", "\ufefftext,label,,\r\nhello,pos,,\r\nbye,neg,,\r\n"))
    assert _rows(es) == [{"text": "hello", "label": "pos"}, {"text": "bye", "label": "neg"}]
    indexed = ",text,label\n" + "".join(f"{i},text {i},{('pos', 'neg')[i % 2]}\n" for i in range(12))
    es = load_examples(_write(tmp_path / "p.csv", indexed))
    assert _rows(es)[:2] == [{"text": "text 0", "label": "pos"}, {"text": "text 1", "label": "neg"}]
    # three rows numbered 0, 1, 2 may as well be labels: refused, as before
    with pytest.raises(DataError, match="column 0 has no name"):
        load_examples(_write(tmp_path / "s.csv", ",text\n0,awful movie\n1,okay movie\n2,great movie\n"))
    # an unnamed column holding words, or 0/1 labels, is still refused: it would be left out
    with pytest.raises(DataError, match="column 2 has no name"):
        load_examples(_write(tmp_path / "w.csv", "text,label,\nhello,pos,keep me\nbye,neg,me too\n"))
    with pytest.raises(DataError, match="column 0 has no name"):
        load_examples(_write(tmp_path / "l.csv", ",text\n" + "".join(f"{i % 2},text {i}\n" for i in range(6))))


def test_booleans_read_as_class_names_and_float_scores_say_regression(tmp_path: Path) -> None:
    es = load_examples(_write(tmp_path / "b.jsonl", '{"text": "a", "label": true}\n{"text": "b", "label": false}\n'))
    assert [r["label"] for r in _rows(es)] == ["true", "false"]
    # bertstudio's own regression export holds whole scores as 4.0: never classes "4" and "1"
    scores = from_records("regression", [{"text": "a", "text_pair": "b", "label": 4.0},
                                         {"text": "c", "text_pair": "d", "label": 1.0}])
    save_examples(scores, tmp_path / "r.jsonl")
    back = load_examples(tmp_path / "r.jsonl")  # read back as the scores it holds, not refused
    assert back.kind == "regression" and _rows(back) == _rows(scores)
    assert _rows(load_examples(tmp_path / "r.jsonl", kind="regression")) == _rows(scores)
    # one text and a float: a fraction makes it scores, and read as classes the reader says what it is;
    fraction = _write(tmp_path / "f.jsonl", '{"text": "a", "label": 4.5}\n{"text": "b", "label": 1.0}\n')
    assert load_examples(fraction).kind == "regression"
    with pytest.raises(DataError, match="regression data"):
        load_examples(fraction, kind="sentence")
    # whole floats are scores with one text as with two (ratings 1.0 ... 5.0 read as five classes alone and
    # as scores beside a text_pair); read as classes they are the ids ints are (pandas writes an id column
    # with a missing value as 4.0, 1.0)
    whole = '{"text": "a", "label": 4.0}\n{"text": "b", "label": 1.0}\n{"text": "c", "label": 5.0}\n'
    one = load_examples(_write(tmp_path / "s.jsonl", whole))
    two = load_examples(_write(tmp_path / "p.jsonl", whole.replace('"label"', '"text_pair": "x", "label"')))
    assert one.kind == two.kind == "regression" and one.dataset["label"] == two.dataset["label"] == [4.0, 1.0, 5.0]
    assert preview(tmp_path / "s.jsonl").suggested_kind == preview(tmp_path / "p.jsonl").suggested_kind == "regression"
    ids = load_examples(tmp_path / "s.jsonl", kind="sentence")
    assert ids.kind == "sentence" and [r["label"] for r in _rows(ids)] == ["4", "1", "5"]


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


def test_a_big_quoted_tsv_is_checked_where_its_quotes_are(tmp_path: Path, monkeypatch) -> None:
    # past the size read whole, the lines holding a quote are read: an unclosed quote in the middle
    # merged two rows when only the head and tail were checked
    from bertstudio.data.formats import table

    monkeypatch.setattr(table, "FULL_CHECK_CHARS", 1000)
    rows = ['"He said ""hi"" twice"\tpos'] + [f"plain row {i}\tneg" for i in range(1200)]
    rows[700] = '"Hi there, he began\tpos'
    rows[701] = 'and she said" nothing\tneg'
    es = load_examples(_write(tmp_path / "big.tsv", "text\tlabel\n" + "\n".join(rows) + "\n"))
    assert len(es.dataset) == 1201 and es.dataset[700]["text"] == '"Hi there, he began'
    ok = rows[:700] + rows[702:]
    es = load_examples(_write(tmp_path / "ok.tsv", "text\tlabel\n" + "\n".join(ok) + "\n"))
    assert len(es.dataset) == 1199 and es.dataset[0]["text"] == 'He said "hi" twice'


def test_a_tab_separated_csv_guesses_quoting_as_a_tsv_does(tmp_path: Path) -> None:
    rows = [f"plain row {i}\tneg" for i in range(600)] + ['"quoted start" and more\tpos']
    es = load_examples(_write(tmp_path / "t.csv", "sentence\tlabel\n" + "\n".join(rows) + "\n"))
    assert len(es.dataset) == 601 and es.dataset[600]["text"] == '"quoted start" and more'


def test_the_cli_reads_two_texts_and_decimal_scores_as_regression(tmp_path: Path) -> None:
    from bertstudio.cli import _config_from

    path = _write(tmp_path / "s.csv", "sent1,sent2,score\na man,a person,3.8\nthe cat,a dog,0.5\nx y,x z,2.0\n")
    config = _config_from({"train_file": str(path), "columns": {"text": "sent1", "text_pair": "sent2", "label": "score"}})
    assert config.task == "regression"
    classes = _write(tmp_path / "c.csv", "s1,s2,gold\na man,a person,1\nthe cat,a dog,0\nx y,x z,1\n")
    config = _config_from({"train_file": str(classes), "columns": {"text": "s1", "text_pair": "s2", "label": "gold"}})
    assert config.task == "pair"


def test_the_preview_guesses_decimal_scores_beside_two_texts_as_regression(tmp_path: Path) -> None:
    """Only a gold column headed "score" made a pair file a regression set: "label" (or no header)
    over 3.8 / 0.5 was guessed as pair classes, which Import's kind and New Project's suggestion
    took, and training then refused. Whole numbers, or numbers that are not finite, stay classes."""
    from bertstudio.ui.new_project_dialog import _kind_of_file

    rows = "a man plays\ta person plays\t3.8\nthe cat sits\ta dog runs\t0.5\nx y\tx z\t2\n"
    for name, text in (("headed.tsv", "sentence1\tsentence2\tlabel\n" + rows), ("bare.tsv", rows),
                       ("similarity.tsv", "s1\ts2\tsimilarity\n" + rows)):
        path = _write(tmp_path / name, text)
        assert preview(path).suggested_kind == "regression" and _kind_of_file(str(path)) == "regression", name
    jsonl = _write(tmp_path / "s.jsonl", '{"premise": "a", "hypothesis": "b", "label": 3.8}\n'
                                         '{"premise": "c", "hypothesis": "d", "label": 1}\n')
    assert preview(jsonl).suggested_kind == "regression"
    # and reading without a kind reads them so too (a review: load_examples said pair classes 0.5, 2, 3.8)
    for name in ("headed.tsv", "bare.tsv", "similarity.tsv", "s.jsonl"):
        examples = load_examples(tmp_path / name)
        assert examples.kind == "regression" and isinstance(examples.dataset[0]["label"], float), name
    for name, text in (("classes.tsv", "s1\ts2\tlabel\na\tb\t1\nc\td\t0\ne\tf\t1.0\n"),
                       ("odd.tsv", "s1\ts2\tlabel\na\tb\tnan\nc\td\t0.5\ne\tf\tinf\n"),
                       ("words.tsv", "s1\ts2\tlabel\na\tb\tentailment\nc\td\t0.5\n")):
        assert preview(_write(tmp_path / name, text)).suggested_kind == "pair", name


def test_line_ends_of_old_macs_read_in_every_format(tmp_path: Path) -> None:
    conll = _write(tmp_path / "c.conll", b"EU B-ORG\rrejects O\r\rGerman B-MISC\r")
    assert [r["tokens"] for r in _rows(load_examples(conll))] == [["EU", "rejects"], ["German"]]
    jsonl = _write(tmp_path / "j.jsonl", b'{"text": "a", "label": "x"}\r{"text": "b", "label": "y"}\r')
    assert [r["label"] for r in _rows(load_examples(jsonl))] == ["x", "y"] and len(preview(jsonl).rows) == 2


def test_a_one_text_score_file_reads_as_scores_and_whole_number_classes_are_said(tmp_path):
    """Sweep #8/#9: `text,score` with 1-10 ratings read as 10 classes without a word, and a one-text
    file of decimal scores as one class per value (a pair file read both as scores)."""
    from bertstudio.data.formats.table import gold_reading
    from bertstudio.data.io import load_examples, preview

    rated = tmp_path / "rated.csv"
    rated.write_text("text,score\n" + "".join(f"film {i},{1 + i % 10}\n" for i in range(20)), encoding="utf-8")
    assert load_examples(rated).kind == "regression" and preview(rated).suggested_kind == "regression"
    decimals = tmp_path / "dec.csv"
    decimals.write_text("text,label\ngood,0.21\nbad,1.91\nok,3\n", encoding="utf-8")
    found = preview(decimals)
    assert found.suggested_kind == "regression" and load_examples(decimals).kind == "regression"
    assert gold_reading("regression", found.columns, found.rows, found.suggested_columns) == (
        "reading 'label' as scores to predict (task regression): it holds numbers with decimals; --task sentence "
        "reads it as classes")
    sim = tmp_path / "sim.csv"
    sim.write_text("sentence1,sentence2,similarity\n" + "".join(f"a {i},b {i},{i % 6}\n" for i in range(12)),
                   encoding="utf-8")
    found = preview(sim)
    assert found.suggested_kind == "pair"  # whole numbers under another name: classes, a fair guess, said
    assert gold_reading("pair", found.columns, found.rows, found.suggested_columns) == (
        "reading 'similarity' as 6 classes (task pair): its values are whole numbers; --task regression predicts "
        "them as a score")
    assert gold_reading("sentence", ["text", "label"], [["a", "0"], ["b", "1"]], {"text": "text", "label": "label"}) is None


@pytest.mark.parametrize("header", ["text,score", "sentence1,sentence2,rating"])
def test_a_score_header_over_words_reads_as_classes(tmp_path, header):
    """The header alone made `text,score` with positive/negative a scores set (review of sweep #9):
    `bertstudio train` without --task stopped at "score 'positive' is not a number" and the app
    suggested a scores project; the values decide when they are words."""
    pair = header.count(",") == 2
    rows = "".join(f"film {i},{'other, ' if pair else ''}{'positive' if i % 2 else 'negative'}\n" for i in range(8))
    path = tmp_path / "words.csv"
    path.write_text(header + "\n" + rows.replace("other, ", "other,"), encoding="utf-8")
    kind = "pair" if pair else "sentence"
    assert load_examples(path).kind == kind and preview(path).suggested_kind == kind
    assert load_examples(path).labels == ["negative", "positive"]


@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_a_tagging_txt_of_sentences_in_paragraphs_is_plain_text(tmp_path: Path, end: str) -> None:
    """Sweep newcode53 #1: two sentences on touching lines, then a blank line, read as CoNLL: the
    last word of each line became a tag ("world", "line") and a run trained on them; sentences of
    unequal length were refused as "found 4 columns". Only word-and-tag lines are CoNLL."""
    notes = _write(tmp_path / "notes.txt", end.join(["Hello world", "Second line", "", "Third", ""]))
    paras = _write(tmp_path / "paras.txt", end.join(["I love Paris", "She lives in Berlin", "", "New paragraph here", ""]))
    names = _write(tmp_path / "names.txt", end.join(["John Smith", "Jane Smith", "Bob Smith", "", "Al Smith", ""]))
    for path, tokens in ((notes, [["Hello", "world"], ["Second", "line"], ["Third"]]),
                         (paras, [["I", "love", "Paris"], ["She", "lives", "in", "Berlin"], ["New", "paragraph", "here"]]),
                         (names, [["John", "Smith"], ["Jane", "Smith"], ["Bob", "Smith"], ["Al", "Smith"]])):
        es = load_examples(path, kind="tagging")
        assert (es.meta["format"], es.dataset["tokens"], es.dataset["tags"]) == ("text", tokens, [None] * len(tokens))
        assert preview(path, kind="tagging").format == "text"
    # word-and-tag lines saved as .txt stay CoNLL: BIO tags (spaces), POS tags (a few values again and again)
    ner = _write(tmp_path / "ner.txt", "EU B-ORG\nrejects O\n\nPeter B-PER\nBlackburn I-PER\n")
    pos = _write(tmp_path / "pos.txt", "The DT\ncat NN\nsat VBD\n\nA DT\ndog NN\nran VBD\n")
    assert load_examples(ner, kind="tagging").dataset["tags"] == [["B-ORG", "O"], ["B-PER", "I-PER"]]
    assert load_examples(pos, kind="tagging").dataset["tags"] == [["DT", "NN", "VBD"], ["DT", "NN", "VBD"]]


@pytest.mark.parametrize("records", [
    [{"tokens": ["Paris"], "tags": ["B-LOC"]}, {"tokens": ["Berlin"], "tags": ["B-LOC"]}, {"tokens": ["hello"], "tags": ["O"]}],
    [{"tokens": ["Paris"], "tags": ["NNP"]}, {"tokens": ["ran"], "tags": ["VBD"]}],
    [{"tokens": ["Paris"], "tags": ["B-LOC"]}, {"tokens": ["New", "York"], "tags": None},
     {"tokens": ["a\u00a0b", "c"], "tags": ["O", "B-X"]}],
    [{"tokens": ["Paris"], "tags": None}, {"tokens": ["hello"], "tags": None}],
])
def test_a_tagging_set_exported_to_txt_reads_back_as_written(tmp_path: Path, records) -> None:
    """Sweep newcode53 #2: one-word sentences exported to one_word.txt (CoNLL, from the file name:
    "Paris<TAB>B-LOC", a blank line, ...) read back as plain text: the tags became words and the
    gold was gone. bertstudio's own export reads back exactly."""
    labels = sorted({t for r in records for t in r["tags"] or ()})
    mine = from_records("tagging", records, labels=labels)
    path = tmp_path / "one_word.txt"
    save_examples(mine, path)
    back = load_examples(path, kind="tagging")
    assert back.meta["format"] == "conll"
    assert back.dataset.to_list() == mine.dataset.to_list()


@pytest.mark.parametrize("end", ["\n\n", "\r\n\r\n"])
def test_a_tagging_txt_of_sentences_ending_in_an_empty_line_is_text(tmp_path: Path, end: str) -> None:
    """One trailing empty line (editors and `echo >> file` leave one) made the lines read as a CoNLL
    sentence: the last word of each became its tag ('good', 'bad', 'city'), and the run trained on it."""
    from bertstudio.data.io import detect_format

    newline = end[: len(end) // 2]
    lines = ["the cat was good", "the dog was bad", "paris is a city"]
    path = _write(tmp_path / "sents.txt", newline.join(lines) + end)
    assert detect_format(path, kind="tagging") == "text"
    assert [r["tokens"] for r in _rows(load_examples(path, kind="tagging"))] == [line.split() for line in lines]


@pytest.mark.parametrize("text, tokens, tags", [
    # word-and-tag lines, spaces between the columns, tags outside B-/I-: CoNLL
    ("Paris NNP\nsleeps VBZ\n\nRome NNP\nwakes VBZ\n\nthe DT\nfilm NN\nis VBZ\ngood JJ\n",
     [["Paris", "sleeps"], ["Rome", "wakes"], ["the", "film", "is", "good"]],
     [["NNP", "VBZ"], ["NNP", "VBZ"], ["DT", "NN", "VBZ", "JJ"]]),
    ("Paris LOC\nis O\n\nRome LOC\n", [["Paris", "is"], ["Rome"]], [["LOC", "O"], ["LOC"]]),
    ("北京 NR\n是 VC\n首都 NN\n\n上海 NR\n很 AD\n大 VA\n",
     [["北京", "是", "首都"], ["上海", "很", "大"]], [["NR", "VC", "NN"], ["NR", "AD", "VA"]]),
    # sentences of as many words whose last words repeat, or end in "?" / "." or Chinese: text
    ("turn left\nturn right\ngo left\ngo right\n",
     [["turn", "left"], ["turn", "right"], ["go", "left"], ["go", "right"]], None),
    ("John Smith\nJane Smith\nJim Doe\nJoe Doe\n",
     [["John", "Smith"], ["Jane", "Smith"], ["Jim", "Doe"], ["Joe", "Doe"]], None),
    ("Where is it ?\nWho is he ?\nWhat is that .\nHow is she ?\n",
     [["Where", "is", "it", "?"], ["Who", "is", "he", "?"], ["What", "is", "that", "."], ["How", "is", "she", "?"]],
     None),
    ("我 爱 北京\n他 去 上海\n你 在 哪里\n我 爱 北京\n", [["我", "爱", "北京"], ["他", "去", "上海"], ["你", "在", "哪里"],
                                            ["我", "爱", "北京"]], None),
    # Sweep today53 #3: one "sentence" (no blank line) whose distinct last words are upper case: text
    ("Austin TX\nBoston MA\nDenver CO\n", [["Austin", "TX"], ["Boston", "MA"], ["Denver", "CO"]], None),
    ("I like NLP\nYou like ML\n\n", [["I", "like", "NLP"], ["You", "like", "ML"]], None),
    # ... while recurring tags, or BIO tags, with no blank line stay CoNLL
    ("The DT\ncat NN\nsat VBD\non IN\nthe DT\nmat NN\n", [["The", "cat", "sat", "on", "the", "mat"]],
     [["DT", "NN", "VBD", "IN", "DT", "NN"]]),
    ("Peter B-PER\nBlackburn I-PER\n", [["Peter", "Blackburn"]], [["B-PER", "I-PER"]]),
    # lower-case BIO, sentences a blank line apart: CoNLL
    ("John b-per\nlives o\nin o\nParis b-loc\n\nMary b-per\nsings o\n",
     [["John", "lives", "in", "Paris"], ["Mary", "sings"]], [["b-per", "o", "o", "b-loc"], ["b-per", "o"]]),
], ids=["pos", "types", "chinese-pos", "commands", "names", "questions", "chinese-words", "acronyms", "acronym-words",
        "one-pos-sentence", "one-bio-sentence", "lower-bio"])
def test_a_tagging_txt_is_conll_only_when_its_last_column_holds_tags(tmp_path: Path, text, tokens, tags) -> None:
    """Sweep reread53 #2/#3: a small CoNLL file with POS or type tags and spaces between the
    columns ("Paris NNP", "Paris LOC") read as plain text and was refused as holding no tags,
    while short sentences whose last words repeat ("turn left" ... "go right") read as one CoNLL
    sentence tagged "left", "right". The last column decides: tags are O/B-X or have no
    lower-case letter, and at least one has an upper-case letter."""
    from bertstudio.data.io import detect_format

    path = _write(tmp_path / "file.txt", text)
    fmt = "text" if tags is None else "conll"
    assert detect_format(path, kind="tagging") == fmt
    es = load_examples(path, kind="tagging")
    assert (es.meta["format"], es.dataset["tokens"], es.dataset["tags"]) == (fmt, tokens, tags or [None] * len(tokens))
