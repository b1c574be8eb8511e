"""Arbitrary bytes given to any reader: an ExampleSet or a DataError, never another exception.

Besides random bytes and text built from each format's syntax characters, the data
draws the byte patterns that once escaped as other exceptions: JSON with lone surrogate
escapes, nesting past the recursion limit and integers past Python's 4,300-digit limit;
UTF-16/UTF-32 text behind its byte-order mark and a doubled UTF-8 BOM; scores with spaces
around them; characters a tokenizer drops. ``preview`` and ``detect_format`` (what the
import dialog calls first) get the same bytes. A QA set the readers accept must also
encode for the model (a context of dropped characters once raised IndexError there).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bertstudio.data.examples import ExampleSet, from_records
from bertstudio.data.io import detect_format, load_examples, preview
from bertstudio.errors import DataError

# Raw bytes, plus text built from the characters that matter to these formats, so the
# fuzzer reaches the parsers' inner paths and not only the UTF-8/NUL checks.
_ALPHABET = st.sampled_from(list('\t\n\r ,"{}[]:-#.0123456789_ab') + ["B-X", "I-X", "O", "\ufeff", "中", "😀", "\x00",
                                                                       '"text"', '"label"', '"data"', "-DOCSTART-", "1-2", "8.1",
                                                                       "\u200b", "\x01", "\u0301", " 3.5 ", "'=", "\\ud800",
                                                                       "\\udc00", "\\ud83d\\ude00", "'+1"])
_TEXT = st.lists(_ALPHABET, max_size=120).map("".join)

# JSON values that are valid syntax but once broke a reader: deep nesting, huge integers,
# lone surrogate escapes (next to a valid pair), spaces around a number in a string.
_JSON_VALUE = st.one_of(
    st.sampled_from(['"pos"', "1", "3.5", '" 3.5 "', '"\\ud800"', '"a\\udfffb"', '"\\ud83d\\ude00"', '"\u200b"', "null"]),
    st.integers(900, 3000).map(lambda d: "[" * d + "]" * d),
    st.integers(4290, 4400).map(lambda k: "7" * k),
    st.integers(300, 400).map(lambda k: "1" * k),  # a score too big for a float
)
_KEY = st.sampled_from(["text", "label", "text_pair", "tokens", "tags", "context", "question", "answers", "id", "data"])
_JSONL = st.lists(st.dictionaries(_KEY, _JSON_VALUE, min_size=1, max_size=4).map(
    lambda d: "{" + ", ".join(f'"{k}": {v}' for k, v in d.items()) + "}"), min_size=1, max_size=3).map("\n".join)
_SQUAD = st.tuples(_JSON_VALUE, _JSON_VALUE).map(lambda v: (
    '{"data": [{"title": "t", "paragraphs": [{"context": "Paris is here.", "qas": '
    '[{"id": "q", "question": %s, "answers": [{"text": "Paris", "answer_start": %s}]}]}]}]}' % v))
_TABLE = st.lists(st.sampled_from(["sentence1\tsentence2\tscore", "a\tb\t 3.5 ", "c\td\t-1", "e\tf\t'=1", "text,label",
                                   "=cmd(),pos", "'@x,neg", "\u200b,pos", "x\ty\t 4 "]), min_size=1, max_size=5).map("\n".join)

# Encodings a file may arrive in: UTF-8 (with one or two BOMs), UTF-16/32 behind their mark.
_BOMS = {"utf-8": (b"", "utf-8"), "utf-8-bom": (b"\xef\xbb\xbf", "utf-8"),
         "utf-8-2bom": (b"\xef\xbb\xbf\xef\xbb\xbf", "utf-8"), "utf-16-le": (b"\xff\xfe", "utf-16-le"),
         "utf-16-be": (b"\xfe\xff", "utf-16-be"), "utf-32-le": (b"\xff\xfe\x00\x00", "utf-32-le"),
         "utf-32-be": (b"\x00\x00\xfe\xff", "utf-32-be")}


def _encode(text: str, enc: str) -> bytes:
    bom, codec = _BOMS[enc]
    return bom + text.encode(codec)


_DATA = st.one_of(
    st.binary(max_size=400),
    _TEXT.map(lambda t: t.encode("utf-8")),
    st.tuples(st.one_of(_TEXT, _JSONL, _SQUAD, _TABLE), st.sampled_from(sorted(_BOMS))).map(lambda te: _encode(*te)),
    st.tuples(st.sampled_from([b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00"]), st.binary(max_size=200)).map(b"".join),
)

READERS: list[tuple[str, dict[str, Any]]] = [
    ("x.csv", {}),
    ("x.tsv", {}),
    ("x.tsv", {"kind": "regression", "columns": {"text": 0, "text_pair": 1, "label": 2}}),
    ("x.jsonl", {}),
    ("x.jsonl", {"kind": "regression"}),
    ("x.jsonl", {"kind": "qa"}),
    ("x.conll", {"tag_scheme": "bio"}),
    ("x.conll", {}),
    ("x.conllu", {}),
    ("x.json", {}),
    ("train.tsv", {"glue_task": "STS-B"}),
    ("dev.tsv", {"glue_task": "SNLI"}),
    ("train.tsv", {"glue_task": "CoLA"}),
    ("x.dat", {}),  # no known extension: content sniffing picks the reader
]


@pytest.mark.parametrize(("name", "kwargs"), READERS, ids=[f"{n}-{sorted(k)}" for n, k in READERS])
def test_reader_never_raises_anything_but_data_error(name: str, kwargs: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name

        @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        @given(data=_DATA)
        def check(data: bytes) -> None:
            path.write_bytes(data)
            try:
                es = load_examples(path, **kwargs)
            except DataError as err:
                assert err.path is not None and err.problem
            else:
                assert isinstance(es, ExampleSet) and len(es) > 0
                es.dataset.to_list()  # every value is real text (Arrow would refuse a lone surrogate)
            if kwargs:
                return
            try:  # what the import dialog calls first, on the same bytes
                detect_format(path)
                preview(path)
            except DataError as err:
                assert err.problem

        check()


# --- targeted families: each draws only the pattern, so each old failure is found every run.

_WORD = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters='",\\'), min_size=1,
                max_size=8).filter(lambda w: w.strip() == w and w != "" and w[0] not in "=+-@'")
_ROWS = st.lists(st.tuples(_WORD, st.sampled_from(["pos", "neg"])), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(rows=_ROWS, fmt=st.sampled_from(["csv", "tsv", "jsonl"]),
       enc=st.sampled_from(["utf-8-2bom", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]))
def test_utf16_utf32_and_double_bom_read_like_utf8(rows: list[tuple[str, str]], fmt: str, enc: str) -> None:
    if fmt == "jsonl":
        text = "".join(json.dumps({"text": t, "label": lab}, ensure_ascii=False) + "\n" for t, lab in rows)
    else:
        sep = "," if fmt == "csv" else "\t"
        text = f"text{sep}label\n" + "".join(f"{t}{sep}{lab}\n" for t, lab in rows)
    with tempfile.TemporaryDirectory() as tmp:
        plain, wide = Path(tmp) / f"plain.{fmt}", Path(tmp) / f"wide.{fmt}"
        plain.write_bytes(text.encode("utf-8"))
        wide.write_bytes(_encode(text, enc))
        want = load_examples(plain).dataset.to_list()
        assert load_examples(wide).dataset.to_list() == want
        assert preview(wide).rows == preview(plain).rows


_HOSTILE_JSON = st.one_of(
    st.sampled_from(['"\\ud800"', '"a\\udfffb"', '"\\ud83d\\ude00\\udc00"', '"ok \\ud83d"']),  # lone surrogate escapes
    st.integers(1_000, 200_000).map(lambda d: "[" * d + "]" * d),  # past the recursion limit
    st.integers(4_301, 6_000).map(lambda k: "9" * k),  # past int()'s 4,300-digit limit
    st.integers(310, 400).map(lambda k: "1" * k),  # an integer no float holds
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(value=_HOSTILE_JSON, field=st.sampled_from(["text", "label", "question", "context", "answer_start", "extra"]),
       layout=st.sampled_from(["jsonl", "jsonl-regression", "squad"]))
def test_hostile_json_values_give_a_data_error_or_load(value: str, field: str, layout: str) -> None:
    if layout == "squad":
        qa = {"id": '"q1"', "question": '"Capital?"', "context": '"Paris is here."', "answer_start": "0", "extra": "1"}
        qa[field if field in qa else "extra"] = value
        doc = ('{"data": [{"title": "t", "paragraphs": [{"context": %(context)s, "extra": %(extra)s, "qas": [{"id": %(id)s, '
               '"question": %(question)s, "answers": [{"text": "Paris", "answer_start": %(answer_start)s}]}]}]}]}' % qa)
        name = "x.json"
    else:
        rec = {"text": '"fine"', "label": '"3.5"' if layout == "jsonl-regression" else '"pos"', "extra": "1"}
        rec[field if field in rec else "extra"] = value
        doc = '{"text": "first", "label": "1"}\n{' + ", ".join(f'"{k}": {v}' for k, v in rec.items()) + "}\n"
        name = "x.jsonl"
    kwargs = {"kind": "regression"} if layout == "jsonl-regression" else {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_text(doc, encoding="utf-8")
        for call in (lambda: load_examples(path, **kwargs).dataset.to_list(), lambda: preview(path), lambda: detect_format(path)):
            try:
                call()
            except DataError as err:
                assert err.problem and err.path == str(path)


@settings(max_examples=60, deadline=None)
@given(scores=st.lists(st.tuples(st.floats(-1e6, 1e6, allow_nan=False), st.sampled_from(["", " ", "  ", "\t"]),
                                 st.sampled_from(["", " ", "  "])), min_size=1, max_size=5),
       junk=st.one_of(st.none(), st.sampled_from(["x", "3.5x", "--1", "1,5", "nan?"])))
def test_scores_with_spaces_read_as_numbers_and_bad_ones_name_their_line(scores, junk) -> None:
    lines = ["sentence1,sentence2,score"] + [f"a{i},b,{pre}{x!r}{post}" for i, (x, pre, post) in enumerate(scores)]
    if junk is not None:
        lines.append(f"c,d, {junk} ")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scores.csv"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            es = load_examples(path, kind="regression")
        except DataError as err:
            assert junk is not None and err.where == f"line {len(lines)}", err
        else:
            assert junk is None and es.dataset["label"] == [x for x, _, _ in scores]


_DROPPED = st.sampled_from(["\u200b", "\x01", "\x7f", "\u0301", "\ufeff", "\u200d", " ", "\t"])
_CONTEXT = st.lists(st.one_of(_DROPPED, st.sampled_from(["paris", "is", "the", "city", "中"])), min_size=1, max_size=12).map(
    "".join).filter(lambda c: c.strip() != "")


@pytest.fixture(scope="module")
def tokenizers(tiny, bundled_model_dir) -> list[Any]:
    from transformers import AutoTokenizer

    return [AutoTokenizer.from_pretrained(tiny), AutoTokenizer.from_pretrained(str(bundled_model_dir))]


def test_qa_context_of_dropped_characters_encodes_or_names_the_row(tokenizers: list[Any]) -> None:
    from bertstudio.tasks import get_task

    task = get_task("qa")

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(context=_CONTEXT, data=st.data())
    def check(context: str, data: Any) -> None:
        start = data.draw(st.integers(0, len(context) - 1))
        length = data.draw(st.integers(1, len(context) - start))
        answer = context[start:start + length]
        es = from_records("qa", [{"id": "q1", "title": "", "context": context, "question": "where?",
                                  "answers": {"text": [answer], "answer_start": [start]}}])
        for tok in tokenizers:
            task.encode(es, tok, max_length=32, label2id={}, doc_stride=8, training=True)
            try:
                task.encode(es, tok, max_length=32, label2id={}, doc_stride=8, training=False)
            except DataError as err:
                assert "question 'q1'" in (err.where or "")

    check()


def test_a_preview_cell_nested_past_the_recursion_limit_is_shown_not_raised() -> None:
    """Found by the fuzz test above in a clean-clone CI: the Import preview of a JSON Lines row whose
    value json.loads read but json.dumps could not walk back (nearer the stack's limit) raised
    RecursionError, not a line. The cell shows that it is nested too deep."""
    from bertstudio.data.io import _cell

    deep: list = []
    for _ in range(5000):
        deep = [deep]
    assert _cell(deep) == "[…]"
    assert _cell({"a": [1]}) == '{"a": [1]}' and _cell("text") == "text"
