"""Every dataset bertstudio builds carries a fingerprint of its own. Without one, ``datasets``
hashes the data with a pickler that reads the attributes of transformers (and torch) whenever
they are in ``sys.modules``: while another thread is still importing them (the app's preload,
the labelling assistant), that read fails. A new, empty QA project's Label page raised
"module 'transformers' has no attribute 'PreTrainedTokenizerBase'" and stayed half set up."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from bertstudio.data.examples import from_records
from bertstudio.data.io import load_examples
from bertstudio.data.project import Project

ROWS = {
    "sentence": [{"text": "good", "label": "pos"}],
    "pair": [{"text": "a", "text_pair": "b", "label": "yes"}],
    "regression": [{"text": "a", "text_pair": "b", "label": 3.5}],
    "tagging": [{"tokens": ["EU", "rejects"], "tags": ["B-ORG", "O"]}],
    "qa": [{"id": "q1", "title": "t", "context": "Paris is in France.", "question": "Where is Paris?",
            "answers": {"text": ["France"], "answer_start": [12]}}],
}


@pytest.fixture
def half_imported(monkeypatch: pytest.MonkeyPatch):
    """transformers as another thread leaves it mid-import: in sys.modules, without its classes."""
    import datasets

    assert datasets.Dataset  # imported whole before the stand-in goes in
    monkeypatch.setitem(sys.modules, "transformers", types.ModuleType("transformers"))


@pytest.mark.parametrize("kind", sorted(ROWS))
def test_projects_and_their_splits_build_datasets_without_hashing(kind: str, tmp_path: Path, half_imported) -> None:
    labels = {"sentence": ["pos", "neg"], "pair": ["yes", "no"], "tagging": ["O", "B-ORG"]}.get(kind)
    project = Project.create(tmp_path / "p", name="p", kind=kind, labels=labels)
    try:
        assert len(project.examples("train")) == 0  # the empty split a new project's Label page reads
        project.import_examples(from_records(kind, ROWS[kind]), "train", add_labels=True)
        assert len(project.examples("train")) == 1
    finally:
        project.close()


def test_files_read_without_hashing(tmp_path: Path, half_imported) -> None:
    files = {"s.csv": "text,label\ngood,pos\n", "s.jsonl": '{"text": "good", "label": "pos"}\n',
             "t.conll": "EU\tB-ORG\nrejects\tO\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        assert len(load_examples(tmp_path / name)) == 1
