"""Property test: any sequence of edits, renames, compactions and reopenings reads like a plain list model."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bertstudio.data.examples import from_records
from bertstudio.data.project import Project

N_ROWS = 6
BASE = ["a", None, "b", "a", None, "c"]

ops = st.lists(
    st.one_of(
        st.tuples(st.just("set"), st.integers(0, N_ROWS - 1), st.sampled_from([0, 1, 2, None])),
        st.tuples(st.just("rename"), st.integers(0, 2)),
        st.tuples(st.sampled_from(["compact", "reopen", "reopen_compacted"])),
    ),
    max_size=25,
)


@settings(max_examples=40, deadline=None)
@given(ops)
def test_project_reads_like_the_model(sequence: list[tuple]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "p"
        project = Project.create(folder, name="m", kind="sentence", labels=["a", "b", "c"])
        project.import_examples(from_records("sentence", [{"text": str(i), "label": v} for i, v in enumerate(BASE)]))
        labels, golds = ["a", "b", "c"], list(BASE)
        renames = 0
        for op in sequence:
            if op[0] == "set":
                value = None if op[2] is None else labels[op[2]]
                assert project.set_gold("train", op[1], value) == golds[op[1]]
                golds[op[1]] = value
            elif op[0] == "rename":
                renames += 1
                old, new = labels[op[1]], f"{labels[op[1]][0]}{renames}"
                project.rename_label(old, new)
                labels[op[1]] = new
                golds = [new if g == old else g for g in golds]
            elif op[0] == "compact":
                project.compact()
            else:
                project.close(compact=op[0] == "reopen_compacted")
                project = Project.open(folder)
                assert project.recovery_messages == []
            assert project.labels == labels
            assert [project.gold("train", i) for i in range(N_ROWS)] == golds
            assert project.progress("train") == (sum(g is not None for g in golds), N_ROWS)
            assert project.label_counts("train") == {name: golds.count(name) for name in labels}
        assert project.examples("train").dataset["label"] == golds
        project.close()
