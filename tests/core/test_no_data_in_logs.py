"""datasets hashes a transform's arguments for its fingerprint, and when it cannot, it logs
them: an add_column of the gold labels wrote the project's whole label column to stderr
and the log (walkthrough, after a label rename). Columns bertstudio adds carry a
fingerprint of their own, so their values are never hashed, nor logged."""

from __future__ import annotations

from pathlib import Path

import datasets.fingerprint

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project
from bertstudio.tasks.common import encoding_rows


def test_added_columns_are_never_hashed(tmp_path: Path, monkeypatch) -> None:
    hashed: list[str] = []
    real = datasets.fingerprint.update_fingerprint

    def recording(fingerprint, transform, transform_args):
        hashed.append(str(transform))
        return real(fingerprint, transform, transform_args)

    monkeypatch.setattr(datasets.fingerprint, "update_fingerprint", recording)
    labels = ["negative", "positive"]
    project = Project.create(tmp_path / "p", name="p", kind="sentence", labels=labels)
    project.import_examples(from_records("sentence", [{"text": f"text {i}", "label": labels[i % 2]} for i in range(40)],
                                         labels=labels), "train")
    project.set_gold("train", 0, "positive")
    project.rename_label("negative", "neg")
    examples = project.examples("train")  # the edited gold column added over the stored one
    assert examples.dataset["label"][:2] == ["positive", "positive"] and examples.dataset["label"][2] == "neg"
    encoding_rows(examples, training=True)  # the example_index column
    project.close()
    assert not [t for t in hashed if "add_column" in t]
