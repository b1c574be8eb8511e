"""Broken files give one DataError naming the problem and the place; unusual-but-valid files load."""

from __future__ import annotations

import os
import json
from pathlib import Path
from typing import Any

import pytest

from bertstudio.data.io import detect_format, load_examples, preview
from bertstudio.errors import DataError
from helpers import finishes

BAD = Path(__file__).resolve().parents[1] / "data" / "bad"

# file, load_examples kwargs, message fragment, where (None: no place to name)
CASES: list[tuple[str, dict[str, Any], str, str | None]] = [
    ("empty.csv", {}, "file is empty", None),
    ("whitespace_only.csv", {}, "file is empty", None),
    ("binary.csv", {}, "NUL byte at byte offset 8", "line 3"),
    ("latin1.csv", {}, "byte 0xe9 at byte offset 23", "line 3"),
    ("csv_wrong_columns.csv", {}, "found 3 columns (expected 2 columns)", "line 3"),
    ("csv_missing_column.csv", {"columns": {"text": "text", "label": "label"}}, "missing column 'text'", None),
    ("csv_unknown_label.csv", {"labels": ["pos", "neg"]}, "unknown label 'neutral' (expected one of 'pos', 'neg')", "line 4"),
    ("csv_empty_text.csv", {}, "empty text", "line 3"),
    ("csv_missing_label.csv", {"require_labels": True}, "row has no label", "line 3"),
    ("csv_unterminated_quote.csv", {}, "quot", None),
    ("csv_header_only.csv", {}, "header but no rows", None),
    ("csv_duplicate_header.csv", {}, "duplicate column name 'text'", "line 1"),
    ("tsv_wrong_columns.tsv", {}, "found 1 columns (expected 2 columns)", "line 3"),
    ("tsv_no_text_column.tsv", {}, "cannot tell which column holds the text", "line 1"),
    ("tsv_nul_line3.tsv", {}, "NUL byte at byte offset 24", "line 3"),
    ("tsv_bad_utf8_line5.tsv", {}, "not UTF-8", "line 5"),
    ("tsv_regression_not_number.tsv", {"kind": "regression"}, "score 'high' is not a number", "line 3"),
    ("glue_cola_wrong_columns_train.tsv", {"glue_task": "CoLA"}, "found 3 columns (expected 4 columns)", "line 2"),
    ("glue_stsb_score_not_number_train.tsv", {"glue_task": "STS-B"}, "score 'four' is not a number", "line 3"),
    ("glue_stsb_score_out_of_range_train.tsv", {"glue_task": "STS-B"}, "score '5.500' is out of range (expected a number in [0, 5])", "line 2"),
    ("glue_stsb_score_nan_train.tsv", {"glue_task": "STS-B"}, "score 'nan' is not a finite number", "line 2"),
    ("glue_rte_unknown_label_dev.tsv", {"glue_task": "RTE"}, "unknown label 'entailed'", "line 3"),
    ("glue_mrpc_bad_label_train.tsv", {"glue_task": "MRPC"}, "unknown label '2' (expected one of '0', '1')", "line 3"),
    ("glue_sst2_empty_sentence_train.tsv", {"glue_task": "SST-2"}, "empty text", "line 3"),
    ("glue_qnli_missing_label_dev.tsv", {"glue_task": "QNLI", "require_labels": True}, "row has no label", "line 3"),
    # its one data row stands where GLUE's header is: line 1 is checked against the release's names
    ("glue_wnli_header_missing_train.tsv", {"glue_task": "WNLI"},
     'header "0 A. B. 1" (expected "index sentence1 sentence2 label")', "line 1"),
    ("snli_bad_label_dev.tsv", {"glue_task": "SNLI"}, "unknown label '-' (expected one of '0', '1', '2')", "line 3"),
    ("jsonl_truncated.jsonl", {}, "invalid JSON", "line 2, column"),
    ("jsonl_not_object.jsonl", {}, "a JSON list, not an object", "line 2"),
    ("jsonl_empty_text.jsonl", {}, "empty text", "line 2"),
    ("jsonl_unknown_label.jsonl", {"labels": ["pos", "neg"]}, "unknown label 'maybe'", "line 2"),
    ("jsonl_tag_count.jsonl", {}, "2 tags for 3 tokens (expected one tag per token)", "line 1"),
    ("jsonl_label_type.jsonl", {}, "is not a string or integer", "line 1"),
    ("jsonl_invalid_bio.jsonl", {"tag_scheme": "bio"}, "invalid BIO: tag 2 'I-LOC' follows 'O'", "line 2"),
    ("jsonl_no_known_keys.jsonl", {}, "cannot tell which keys hold the text", "line 1"),
    ("jsonl_qa_answer_not_at_start.jsonl", {}, "'France' is not at answer_start 3", "line 1, answer 1"),
    ("conll_column_count.conll", {}, "found 3 columns", "line 2"),
    ("conll_invalid_bio.conll", {"tag_scheme": "bio"}, "invalid BIO: tag 2 'I-LOC' follows 'O'", "line 4"),
    ("conll_only_docstart.conll", {}, "no sentences found", None),
    ("conll_unknown_tag.conll", {"labels": ["O", "B-ORG", "I-ORG"]}, "unknown label 'B-FOO'", "sentence at line 1"),
    ("conllu_wrong_columns.conllu", {}, "found 9 tab-separated columns", "line 2"),
    ("conllu_bad_id.conllu", {}, "token ID 'x' is not a number", "line 3"),
    ("conllu_empty_form.conllu", {}, "token 1 is empty", "line 1"),
    ("squad_truncated.json", {}, "invalid JSON: Unterminated string", "line 8, column"),
    ("squad_no_data.json", {}, "missing 'data'", "top level"),
    ("squad_answer_not_at_start.json", {}, "is not at answer_start 2", "article 0, question 'q1', answer 1"),
    ("squad_answer_outside_context.json", {}, "answer outside the context", "article 0, question 'q1', answer 1"),
    ("squad_duplicate_id.json", {}, "duplicate question id 'q1'", "article 0, question 'q1'"),
    ("squad_context_not_string.json", {}, "'context' has the wrong type (int)", "article 0, paragraph 0"),
    ("squad_empty_question.json", {}, "empty question", "article 0, question 'q1'"),
    ("squad_answer_start_string.json", {}, "'answer_start' has the wrong type (str)", "article 0, question 'q1', answer 1"),
    ("squad_binary.json", {}, "NUL byte", "line 1"),
    # Hostile JSON: valid syntax that Python or Arrow cannot take.
    ("jsonl_lone_surrogate.jsonl", {}, "lone UTF-16 surrogate \\ud800", "line 2"),
    ("jsonl_deep_nesting.jsonl", {}, "JSON nested too deeply", "line 2"),
    ("jsonl_big_integer.jsonl", {}, "integer too long: 5000 digits", "line 2"),
    ("squad_lone_surrogate.json", {}, "lone UTF-16 surrogate \\udc00", "line 2"),
    ("squad_deep_nesting.json", {}, "JSON nested too deeply", None),
    ("squad_big_integer.json", {}, "integer too long: 4500 digits", "line 2"),
    # UTF-16 is read by its byte-order mark (ok_utf16*); without one it is named, not called binary.
    ("utf16_no_bom.csv", {}, "looks like UTF-16-LE text without a byte-order mark", None),
    ("utf16_invalid.csv", {}, "not valid UTF-16: illegal UTF-16 surrogate", "line 1"),
    # JSON keeps the last of two values of one key: which one was meant is not known
    ("jsonl_repeated_key.jsonl", {}, "the key 'label' appears twice in one object", "line 2"),
    # in a whole-file JSON the place is the line where the object holding the repeat starts
    ("squad_repeated_key.json", {}, "the key 'answers' appears twice in the object that starts here", "line 4"),
    # an unanswerable question with an answer: the answer was dropped without a word
    ("squad_impossible_with_answers.json", {}, "'is_impossible' is true but the question has 1 answer",
     "article 0, question 'q1'"),
]


def test_every_bad_file_is_in_the_table() -> None:
    files = {p.name for p in BAD.iterdir() if p.is_file() and not p.name.startswith("ok_")}
    assert files == {c[0] for c in CASES}
    assert len(files) >= 60


@pytest.mark.parametrize(("name", "kwargs", "fragment", "where"), CASES, ids=[c[0] for c in CASES])
def test_bad_file_raises_data_error(name: str, kwargs: dict[str, Any], fragment: str, where: str | None) -> None:
    with pytest.raises(DataError) as info:
        load_examples(BAD / name, **kwargs)
    err = info.value
    assert fragment in str(err)
    assert err.path is not None and Path(err.path).name == name
    if where is not None:
        assert err.where is not None and err.where.startswith(where), err.where


def test_bom_csv_loads() -> None:
    es = load_examples(BAD / "ok_bom.csv")
    assert es.dataset.to_list() == [{"text": "Hello, world", "label": "pos"}]


def test_crlf_tsv_loads_without_carriage_returns() -> None:
    es = load_examples(BAD / "ok_crlf.tsv")
    assert es.dataset.to_list() == [{"text": "first line ", "label": "1"}, {"text": "second", "label": "0"}]


def test_classic_mac_line_ends_load_as_lines() -> None:
    # CR alone ends each line (old Mac exports): the header was read as one line of all the rows
    es = load_examples(BAD / "ok_cr_only.tsv")
    assert es.dataset.to_list() == [{"text": "first line ", "label": "1"}, {"text": "second", "label": "0"}]
    es = load_examples(BAD / "ok_cr_only_quoted.csv")
    assert es.dataset.to_list() == [{"text": "two\nlines", "label": "pos"}, {"text": "plain", "label": "neg"}]


def test_quoted_newline_csv_loads() -> None:
    es = load_examples(BAD / "ok_quoted_newline.csv")
    assert es.dataset["text"] == ['two\nlines and "quotes"', "plain"]


def test_cjk_and_emoji_jsonl_loads() -> None:
    es = load_examples(BAD / "ok_cjk_emoji.jsonl")
    assert es.dataset["text"] == ["这部电影太好看了😀👍", "ひどい映画 🙄"]
    assert es.labels == ["正面", "负面"]


def test_crlf_iob1_conll_loads_as_bio() -> None:
    es = load_examples(BAD / "ok_crlf_iob1.conll")
    assert es.dataset.to_list() == [{"tokens": ["EU", "rejects"], "tags": ["B-ORG", "O"]}]


def test_conllu_skips_multiword_and_empty_nodes() -> None:
    es = load_examples(BAD / "ok_bom_multiword.conllu")
    assert es.dataset.to_list() == [{"tokens": ["Do", "n't", "go", "."], "tags": ["AUX", "PART", "VERB", "PUNCT"]}]


def test_squad_v2_unanswerable_has_empty_answers() -> None:
    es = load_examples(BAD / "ok_squad_v2.json")
    assert es.dataset[0]["answers"] == {"text": ["北京"], "answer_start": [0]}
    assert es.dataset[1]["answers"] == {"text": [], "answer_start": []}
    assert es.dataset[1]["title"] == "城市"


def test_a_line_longer_than_the_parsers_block_names_its_line(tmp_path: Path) -> None:
    """A 10 MB field in a TSV said "cannot parse the table: straddling object straddles two block
    boundaries (try to increase block size?)", pyarrow's words and no line; an 8 MB one was named."""
    path = tmp_path / "huge.tsv"
    path.write_text("text\tlabel\n" + "a" * 10_000_000 + "\tpos\nbad\tneg\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_examples(path)
    assert str(info.value) == (f"{path}, line 2: field of 10,000,000 characters (expected at most 1,048,576 characters "
                               "in one field (split or shorten it))")


def test_one_megabyte_line(tmp_path: Path) -> None:
    long = ("word " * 200_000).strip()  # ~1 MB in one field (under MAX_TEXT_CHARS, 1,048,576)
    path = tmp_path / "long.tsv"
    path.write_text(f"sentence\tlabel\n{long}\t1\nshort\t0\n", encoding="utf-8")
    es = load_examples(path)
    assert len(es.dataset[0]["text"]) == len(long) > 999_000
    assert es.dataset[1] == {"text": "short", "label": "0"}


def test_ten_thousand_token_sentence(tmp_path: Path) -> None:
    path = tmp_path / "long.conll"
    path.write_text("".join(f"w{i} {'B-X' if i % 7 == 0 else 'I-X'}\n" for i in range(10_000)) + "\nend O\n")
    es = load_examples(path, tag_scheme="bio")
    assert len(es.dataset[0]["tokens"]) == 10_000 and es.dataset[0]["tags"][:2] == ["B-X", "I-X"]
    assert es.dataset[1] == {"tokens": ["end"], "tags": ["O"]}


@pytest.mark.parametrize(("name", "rows"), [
    ("ok_utf16le_bom.csv", [{"text": "ça va très bien 中文", "label": "pos"}, {"text": "boring 😴", "label": "neg"}]),
    ("ok_utf16be_bom.tsv", [{"text": "ça va très bien 中文", "label": "pos"}, {"text": "boring 😴", "label": "neg"}]),
    ("ok_utf32_bom.jsonl", [{"text": "ça va 😀", "label": "pos"}, {"text": "non", "label": "neg"}]),
    ("ok_double_bom.csv", [{"text": "hello there", "label": "pos"}, {"text": "bye", "label": "neg"}]),
])
def test_utf16_utf32_and_double_bom_files_load(name: str, rows: list[dict]) -> None:
    assert load_examples(BAD / name).dataset.to_list() == rows
    assert preview(BAD / name).rows == [list(r.values()) for r in rows]


@pytest.mark.parametrize("kind_cols", [("regression", "sentence1\tsentence2\tscore"), ("glue", None)])
def test_score_with_spaces_is_read_as_the_number(tmp_path: Path, kind_cols: tuple[str, str | None]) -> None:
    kind, header = kind_cols
    if kind == "regression":
        path = tmp_path / "scores.tsv"
        path.write_text(f"{header}\na\tb\t 3.5 \nc\td\t4.25 \n", encoding="utf-8")
        es = load_examples(path, kind="regression")
        assert es.dataset["label"][1] == 4.25
    else:
        path = tmp_path / "STS-B" / "dev.tsv"
        path.parent.mkdir()
        cells = ["0", "main-captions", "MSRvid", "2012test", "0001", "none", "none", "a man", "a person", " 3.5 "]
        path.write_text("\t".join(["index", "genre", "filename", "year", "old_index", "source1", "source2",
                                   "sentence1", "sentence2", "score"]) + "\n" + "\t".join(cells) + "\n", encoding="utf-8")
        es = load_examples(path)
    assert es.dataset["label"][0] == 3.5
    bad = tmp_path / "bad.tsv"
    bad.write_text("sentence1\tsentence2\tscore\na\tb\t1\nc\td\t 3.5x \n", encoding="utf-8")
    with pytest.raises(DataError, match="score ' 3.5x ' is not a number") as info:
        load_examples(bad, kind="regression")
    assert info.value.where == "line 3"


def test_200000_deep_json_is_a_data_error_for_every_json_reader(tmp_path: Path) -> None:
    deep = b"[" * 200_000 + b"]" * 200_000
    for name, data in (("deep.jsonl", b'{"text": ' + deep + b"}\n"), ("deep.json", b'{"data": ' + deep + b"}")):
        path = tmp_path / name
        path.write_bytes(data)
        for read in (load_examples, preview):
            try:
                read(path)
            except DataError as err:
                assert "nested too deeply" in err.problem
            else:
                assert read is preview  # a preview may show the rows before the bad one (none here)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
@pytest.mark.parametrize("name", ["train.csv", "data.jsonl", "x.conll", "x.json", "x.dat"])
def test_fifo_is_refused_at_once(tmp_path: Path, name: str) -> None:
    fifo = tmp_path / name
    os.mkfifo(fifo)
    for call in (lambda: load_examples(fifo), lambda: preview(fifo), lambda: detect_format(fifo) == "x" or load_examples(fifo)):
        err = finishes(call)
        assert isinstance(err, DataError) and "not a regular file (a FIFO" in err.problem, err
    glue_dir = tmp_path / "RTE"
    glue_dir.mkdir()
    os.mkfifo(glue_dir / "train.tsv")
    err = finishes(lambda: load_examples(glue_dir / "train.tsv"))
    assert isinstance(err, DataError) and "FIFO" in err.problem and err.path == str(glue_dir / "train.tsv")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_device_is_refused(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    for call in (lambda: load_examples(device, fmt="csv"), lambda: preview(device), lambda: load_examples(device)):
        err = finishes(call)
        assert isinstance(err, DataError) and "character device" in err.problem, err


LONG = "a " * 530_000 + "b"  # 1,060,001 characters: over the one limit every format shares


@pytest.mark.parametrize(("name", "content", "kwargs", "where"), [
    ("long.jsonl", '{"text": "ok", "label": "x"}\n{"text": "%s", "label": "y"}\n' % LONG, {}, "line 2"),
    ("long.tsv", "sentence\tlabel\nok\t1\n%s\t0\n" % LONG, {}, "line 3"),
    ("long.csv", 'text,label\nok,x\n"%s",y\n' % LONG, {}, "row 2"),
    ("long_pair.jsonl", '{"premise": "ok", "hypothesis": "%s", "label": "x"}\n' % LONG, {"kind": "pair"}, "line 1"),
    ("long.txt", "ok then\n\n%s\n" % LONG, {"kind": "tagging"}, "line 3"),
], ids=["jsonl", "tsv", "csv", "pair-jsonl", "plain-text"])
def test_a_field_longer_than_any_model_reads_is_refused_before_tokenising(name, content, kwargs, where, tmp_path):
    """A 50 MB JSONL field was read and tokenised whole (117 s, 14 GB) where CSV refused it; every
    format now refuses a field over MAX_TEXT_CHARS, naming the row, before anything is tokenised."""
    from bertstudio.data.formats.common import MAX_TEXT_CHARS

    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_examples(path, **kwargs)
    message = str(info.value)
    assert f"of {len(LONG):,} characters" in message and f"at most {MAX_TEXT_CHARS:,}" in message
    assert str(path) in message and info.value.where == where


@pytest.mark.parametrize("name", ["long.conll", "long.conllu"])
def test_a_conll_token_longer_than_any_model_reads_is_refused(name: str, tmp_path: Path) -> None:
    """Sweep newcode53 #4: a CoNLL file without line breaks read as one token of any length (a 200 MB
    token, as the plain-text reader read a 200 MB sentence); the limit every other format has."""
    from bertstudio.data.formats.common import MAX_TEXT_CHARS

    token = "x" * (MAX_TEXT_CHARS + 1)
    line = f"1\t{token}\t_\tNOUN\t_\t_\t_\t_\t_\t_" if name.endswith("u") else f"{token} O"
    path = tmp_path / name
    path.write_text(("1\tok\t_\tNOUN\t_\t_\t_\t_\t_\t_" if name.endswith("u") else "ok O") + f"\n\n{line}\n",
                    encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_examples(path)
    what = "FORM" if name.endswith("u") else "token"
    assert str(info.value) == (f"{path}, line 3: {what} of {MAX_TEXT_CHARS + 1:,} characters (expected at most "
                               f"{MAX_TEXT_CHARS:,} characters in one field (split or shorten it))")


def test_a_squad_context_or_question_too_long_is_refused(tmp_path):
    import json

    from bertstudio.data.formats.common import MAX_TEXT_CHARS

    context = "paris is in france . " * (MAX_TEXT_CHARS // 20)
    for field, value in (("context", context), ("question", LONG)):
        para = {"context": "paris is in france", "qas": [{"id": "1", "question": "where?",
                                                        "answers": [{"text": "france", "answer_start": 12}]}]}
        if field == "context":
            para["context"] = value
        else:
            para["qas"][0]["question"] = value
        path = tmp_path / f"{field}.json"
        path.write_text(json.dumps({"data": [{"title": "t", "paragraphs": [para]}]}), encoding="utf-8")
        with pytest.raises(DataError, match=f"{field} of {len(value):,} characters"):
            load_examples(path)


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_an_evaluation_label_the_training_data_lacks_is_named_with_its_line(suffix: str, tmp_path: Path) -> None:
    from bertstudio.data.io import load_alongside, resolve_spec

    train = tmp_path / "train.csv"
    train.write_text("text,label\ngood film,pos\nbad film,neg\n", encoding="utf-8")
    dev = tmp_path / f"dev{suffix}"
    if suffix == ".jsonl":
        dev.write_text('{"text": "fine", "label": "pos"}\n{"text": "odd", "label": "meh"}\n', encoding="utf-8")
    else:
        dev.write_text("text,label\nfine,pos\nodd,meh\n", encoding="utf-8")
    spec = resolve_spec(train)
    reference = load_examples(train)
    with pytest.raises(DataError) as info:
        load_alongside(reference, spec, dev)
    assert info.value.where == ("line 2" if suffix == ".jsonl" else "line 3")
    assert "label 'meh' is not among the training data's labels" in str(info.value)


def test_json_lines_saved_as_json_are_read_as_json_lines_and_a_json_list_is_named(tmp_path: Path) -> None:
    """.json meant SQuAD whatever it held: JSON Lines saved as .json said "invalid JSON: Extra
    data" on line 2, and a list of examples "missing 'data'". A pretty-printed or one-line SQuAD
    file is still SQuAD."""
    lines = tmp_path / "lines.json"
    lines.write_text('{"text": "a fine film", "label": "pos"}\n{"text": "a dull film", "label": "neg"}\n', encoding="utf-8")
    es = load_examples(lines)
    assert es.kind == "sentence" and es.labels == ["pos", "neg"] and len(es) == 2
    listed = tmp_path / "list.json"
    listed.write_text('[{"text": "a fine film", "label": "pos"}]', encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_examples(listed)
    assert "a JSON list, not a SQuAD file" in str(info.value) and "JSON Lines" in str(info.value)
    assert load_examples(BAD / "ok_squad_v2.json").kind == "qa"  # one line, with "data"
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(json.loads((BAD / "ok_squad_v2.json").read_text(encoding="utf-8")), indent=2),
                      encoding="utf-8")
    assert load_examples(pretty).kind == "qa"


def test_a_pair_file_read_as_sentences_names_the_file_and_its_columns(tmp_path: Path) -> None:
    """`--task sentence` on a sentence1/sentence2/label TSV said "column mapping names
    ['text_pair'], not columns of a sentence set": a mapping the person never gave, no file."""
    path = tmp_path / "pairs.tsv"
    path.write_text("sentence1\tsentence2\tlabel\na man\ta person\tyes\nthe cat\ta dog\tno\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_examples(path, kind="sentence")
    assert str(info.value) == (f"{path}, line 1: the header's columns ('sentence1', 'sentence2', 'label') are pair "
                               "data, not sentence (expected task pair, or a column mapping for sentence (columns "
                               "text=NAME,label=NAME))")


def test_a_conll_file_read_for_a_sentence_model_says_what_it_holds(tmp_path: Path) -> None:
    """`evaluate` with a sentence model on a CoNLL file said "sentence at line 1: unknown label
    'B-ORG'": the model's labels checked against the file's tags, not the kinds."""
    path = tmp_path / "ner.conll"
    path.write_text("EU\tB-ORG\nrejects\tO\n\nPeter\tB-PER\n", encoding="utf-8")
    from bertstudio.errors import BertStudioError

    with pytest.raises(BertStudioError) as info:
        load_examples(path, kind="sentence", labels=["neg", "pos"])
    assert str(info.value) == f"{path}: this file holds tagging examples, not sentence (expected sentence data)"


def test_a_score_in_a_json_label_says_it_is_regression_data(tmp_path: Path) -> None:
    """A JSON Lines file of scores read as classes said only "label 0.67 is not a string or
    integer"; the same scores in a TSV now get --task regression suggested (tests/core/test_cli.py)."""
    path = tmp_path / "scores.jsonl"
    path.write_text('{"text": "a", "score": 0.67}\n{"text": "b", "score": 0.2}\n', encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_examples(path, kind="sentence")
    assert str(info.value) == (f"{path}, line 1: label 0.67 is not a string or integer (expected a label name; a score "
                               "such as this one is regression data)")


def test_class_ids_pandas_wrote_as_floats_read_as_the_ids(tmp_path: Path) -> None:
    """pandas writes an int label column with a missing value as floats ("label": 1.0, null); those
    rows were refused as scores. A whole float reads as the id an int reads as; a fraction or NaN
    is refused by its line."""
    ints, floats = tmp_path / "ints.jsonl", tmp_path / "floats.jsonl"
    ints.write_text('{"text": "a b", "label": 1}\n{"text": "c", "label": 0}\n{"text": "d"}\n'
                    '{"text": "e", "label": 0}\n', encoding="utf-8")
    floats.write_text('{"text": "a b", "label": 1.0}\n{"text": "c", "label": 0.0}\n{"text": "d", "label": null}\n'
                      '{"text": "e", "label": -0.0}\n', encoding="utf-8")
    want, got = load_examples(ints), load_examples(floats, kind="sentence")
    assert got.kind == want.kind == "sentence" and got.labels == want.labels == ["0", "1"]
    assert got.dataset["label"] == want.dataset["label"] == ["1", "0", None, "0"]
    # guessed, JSON floats are scores with one text as with two (the pair file below): the kind says ids
    assert load_examples(floats).kind == "regression"
    # a pair file of whole floats is guessed scores (older regression exports wrote them under "label");
    # read as pairs, its ids are the ints' too
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text('{"text": "a", "text_pair": "b", "label": 1.0}\n{"text": "c", "text_pair": "d", "label": null}\n'
                     '{"text": "e", "text_pair": "f", "label": 0.0}\n', encoding="utf-8")
    assert load_examples(pairs).kind == "regression"
    read = load_examples(pairs, kind="pair")
    assert read.labels == ["0", "1"] and read.dataset["label"] == ["1", None, "0"]
    # Infinity and 1e400 got NaN's "null for a row without one", a hint for a missing value
    for value, hint in (("0.5", "a score such as this one is regression data"), ("NaN", "null for a row without one"),
                        ("Infinity", "an infinite number is no class id"), ("1e400", "an infinite number is no class id"),
                        ("-Infinity", "an infinite number is no class id")):
        bad = tmp_path / "bad.jsonl"
        bad.write_text(f'{{"text": "a", "label": 1.0}}\n{{"text": "b", "label": {value}}}\n', encoding="utf-8")
        with pytest.raises(DataError) as info:
            load_examples(bad, kind="sentence")
        assert str(info.value).startswith(f"{bad}, line 2: label ") and str(info.value).endswith(f"; {hint})")


@pytest.mark.parametrize("value", ["1e20", "-3.5e38", "1e300"])
def test_a_score_too_large_to_learn_is_refused_by_every_reader(tmp_path: Path, value: str) -> None:
    """1e20 passed the readers; the run's loss became inf at step 1 and it advised a lower learning rate."""
    table = tmp_path / "scores.tsv"
    table.write_text(f"sentence1\tsentence2\tscore\na\tb\t1\nc\td\t{value}\n", encoding="utf-8")
    lines = tmp_path / "scores.jsonl"
    lines.write_text(json.dumps({"text": "a", "text_pair": "b", "label": 1.0}) + "\n"
                     + json.dumps({"text": "c", "text_pair": "d", "label": float(value)}) + "\n", encoding="utf-8")
    for path, where in ((table, "line 3"), (lines, "line 2")):
        with pytest.raises(DataError, match="too large to learn") as info:
            load_examples(path, kind="regression")
        assert info.value.where == where and "1e+15" in info.value.expected
    ok = tmp_path / "prices.tsv"
    ok.write_text("sentence1\tsentence2\tscore\na\tb\t1250000\nc\td\t-3.5\n", encoding="utf-8")
    assert load_examples(ok, kind="regression").dataset["label"] == [1250000.0, -3.5]


@pytest.mark.parametrize(("raw", "said"), [
    ("good\rfilm", "a raw carriage return (U+000D) inside a string; JSON writes it as \\r"),
    ("good\tfilm", "a raw tab (U+0009) inside a string; JSON writes it as \\t"),
    ("good\x1ffilm", "a raw control character (U+001F) inside a string; JSON writes it as \\u001f"),
])
def test_a_raw_control_character_in_a_json_string_is_named_with_its_place(raw: str, said: str, tmp_path: Path) -> None:
    """The decoder's "Invalid control character at" ended the line in a dangling "at" and did not
    say which character: a raw CR or tab is what some tools write."""
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"text": "fine", "label": "pos"}\n' + ('{"text":"%s","label":"pos"}\n' % raw).encode())
    with pytest.raises(DataError) as info:
        load_examples(path)
    assert info.value.where == "line 2, column 14"
    assert f"invalid JSON: {said}" in str(info.value) and " at " not in str(info.value)


def test_an_unclosed_string_says_where_it_starts_without_a_dangling_at(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"text": "fine", "label": "pos"}\n{"text": "never closed\n')
    with pytest.raises(DataError) as info:
        load_examples(path)
    assert "invalid JSON: Unterminated string starting here" in str(info.value)
    assert info.value.where == "line 2, column 10"


def test_a_nan_label_in_a_file_of_names_is_said_at_its_line_not_read_as_scores(tmp_path: Path) -> None:
    """json.dumps writes a missing float as NaN: one in a file of label names made the guess
    "scores", and line 1 was then refused as "score 'pos' is not a number"."""
    path = tmp_path / "names.jsonl"
    path.write_text('{"text": "good film", "label": "pos"}\n{"text": "bad film", "label": "neg"}\n'
                    '{"text": "meh", "label": NaN}\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"line 3: label nan .*null for a row without one"):
        load_examples(path)
    assert preview(path).suggested_kind == "sentence"
