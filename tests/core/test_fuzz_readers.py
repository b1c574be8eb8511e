"""Arbitrary bytes given to any reader: an ExampleSet or a DataError, never another exception."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bertstudio.data.examples import ExampleSet
from bertstudio.data.io import load_examples
from bertstudio.errors import DataError

# Raw bytes, plus text built from the characters that matter to these formats, so the
# fuzzer reaches the parsers' inner paths and not only the UTF-8/NUL checks.
_ALPHABET = st.sampled_from(list('\t\n\r ,"{}[]:-#.0123456789_ab') + ["B-X", "I-X", "O", "\ufeff", "中", "😀", "\x00",
                                                                       '"text"', '"label"', '"data"', "-DOCSTART-", "1-2", "8.1"])
_DATA = st.one_of(
    st.binary(max_size=400),
    st.lists(_ALPHABET, max_size=120).map(lambda xs: "".join(xs).encode("utf-8")),
)

READERS: list[tuple[str, dict[str, Any]]] = [
    ("x.csv", {}),
    ("x.tsv", {}),
    ("x.tsv", {"kind": "regression", "columns": {"text": 0, "text_pair": 1, "label": 2}}),
    ("x.jsonl", {}),
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

        @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(data=_DATA)
        def check(data: bytes) -> None:
            path.write_bytes(data)
            try:
                es = load_examples(path, **kwargs)
            except DataError as err:
                assert err.path is not None and err.problem
                return
            assert isinstance(es, ExampleSet) and len(es) > 0

        check()
