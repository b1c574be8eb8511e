"""Regenerate the damaged projects in this folder: ``python tests/data/bad/project/make_fixtures.py``.

Every case starts from the same four-row sentence project (labels neg/pos), with
some edits in the journal, and then damages one file the way a crash, a full disk,
a sync tool or a newer bertstudio would. README.md lists the expected outcomes;
tests/core/test_project_recovery.py checks them.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3]))

from bertstudio.data.examples import from_records  # noqa: E402
from bertstudio.data.project import Project  # noqa: E402

ROWS = [{"text": "good", "label": "pos"}, {"text": "bad", "label": "neg"},
        {"text": "fine", "label": None}, {"text": "awful", "label": None}]


def base(name: str, edits: list[tuple[int, str | None]]) -> Path:
    folder = HERE / name
    shutil.rmtree(folder, ignore_errors=True)
    p = Project.create(folder, name="fixture", kind="sentence", labels=["neg", "pos"])
    p.import_examples(from_records("sentence", ROWS, source="fixture.tsv"), "train")
    p.ui_state["row"] = 1
    p.save_ui_state()  # the backup now holds the same project as project.json
    for row, value in edits:
        p.set_gold("train", row, value)
    p.close(compact=False)
    (folder / "project.lock").unlink()
    return folder


EDITS = [(2, "pos"), (3, "neg"), (0, "neg"), (2, None)]  # final: neg, neg, None, neg


def main() -> None:
    f = base("truncated_json", EDITS)
    raw = (f / "project.json").read_bytes()
    (f / "project.json").write_bytes(raw[: len(raw) // 2])

    f = base("truncated_json_no_backup", EDITS)
    raw = (f / "project.json").read_bytes()
    (f / "project.json").write_bytes(raw[: len(raw) // 2])
    (f / "project.json.bak").unlink()

    f = base("garbage_json", EDITS)
    (f / "project.json").write_bytes(bytes(range(256)) * 4)

    f = base("checksum_mismatch", EDITS)  # still valid JSON, but not what bertstudio wrote
    meta = json.loads((f / "project.json").read_text())
    meta["name"] = "edited by hand"
    (f / "project.json").write_text(json.dumps(meta, indent=2))

    f = base("newer_schema", EDITS)
    meta = json.loads((f / "project.json").read_text())
    meta.pop("checksum")
    meta["schema_version"] = 3
    (f / "project.json").write_text(json.dumps(meta, indent=2))

    f = base("torn_journal", EDITS)
    journal = (f / "labels.journal").read_bytes()
    last = journal.rstrip(b"\n").rfind(b"\n") + 1
    (f / "labels.journal").write_bytes(journal[: last + (len(journal) - last) // 2])  # line 4 cut mid-way

    f = base("journal_bad_checksum_middle", EDITS)
    lines = (f / "labels.journal").read_bytes().splitlines(keepends=True)
    lines[1] = lines[1].replace(b'"value":"neg"', b'"value":"pos"')  # a flipped value: the CRC no longer fits
    (f / "labels.journal").write_bytes(b"".join(lines))

    f = base("schema_v1", [])
    meta = json.loads((f / "project.json").read_text())
    v1 = {"schema_version": 1, "name": meta["name"], "kind": "sentence", "labels": ["neg", "pos"],
          "glue_task": None, "splits": meta["splits"], "ui_state": {"row": 1}}
    (f / "project.json").write_text(json.dumps(v1, indent=2))
    (f / "project.json.bak").unlink()

    f = base("missing_data_file", EDITS)
    for path in (f / "data").iterdir():
        path.unlink()

    f = base("truncated_data_file", EDITS)  # a disk or copy error inside the Arrow file
    for path in (f / "data").iterdir():
        path.write_bytes(path.read_bytes()[: path.stat().st_size * 2 // 3])

    # project.json damaged right after a compaction: the backup predates it, so the edits it folded
    # must come back from labels.journal.prev, and the later ones from labels.journal
    f = HERE / "damaged_after_compaction"
    shutil.rmtree(f, ignore_errors=True)
    p = Project.create(f, name="fixture", kind="sentence", labels=["neg", "pos"])
    p.import_examples(from_records("sentence", ROWS, source="fixture.tsv"), "train")
    p.set_gold("train", 2, "pos")
    p.rename_label("pos", "positive")
    p.compact()
    p.set_gold("train", 3, "neg")
    p.close(compact=False)
    (f / "project.lock").unlink()
    (f / "project.json").write_bytes(b"\0" * 300)  # a crash that kept the size but not the bytes


if __name__ == "__main__":
    main()
