"""A project's files changed by another program while it is open (a git pull, a sync folder).

The scenario of every test: a project kept in git; a colleague labels rows 6-8 ``pos`` in a clone
and closes (compacts); the user, with the project open here, labels rows 0-2 ``neg`` (still in the
journal), then ``git pull`` replaces project.json, its backup and adds the colleague's data file.
Before: the user's next close wrote project.json over the colleague's, deleted the pulled data
file as unused (the colleague's labels gone), and after a crash instead the reopen skipped the
user's journaled edits by their numbers, without a word.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bertstudio.data.journal import read_journal
from bertstudio.data.project import Project
from bertstudio.errors import DataError
from helpers import make_project

MINE, THEIRS = (0, 1, 2), (6, 7, 8)


def _base(tmp_path: Path) -> tuple[Path, Path]:
    """The project (rows 0-9 unlabelled) and the colleague's clone with rows 6-8 'pos', closed."""
    folder = tmp_path / "proj"
    records = [{"text": f"row {i} was fine", "label": None} for i in range(10)]
    make_project(folder, "sentence", ["neg", "pos"], {"train": records}).close()
    clone = tmp_path / "clone"
    shutil.copytree(folder, clone)
    with Project.open(clone) as colleague:
        for row in THEIRS:
            colleague.set_gold("train", row, "pos")
    return folder, clone


def _pull(clone: Path, folder: Path) -> None:
    """What `git pull` does to the tracked files: each changed or new file written anew (new inode)."""
    for path in sorted(clone.rglob("*")):
        relative = path.relative_to(clone)
        if path.is_dir() or relative.name in ("labels.journal", "project.lock"):
            continue
        target = folder / relative
        if target.exists() and target.read_bytes() == path.read_bytes():
            continue
        shutil.copyfile(path, folder / (str(relative) + ".git-tmp"))
        os.replace(folder / (str(relative) + ".git-tmp"), target)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != "project.lock"}


def _golds(project: Project, rows) -> list:
    return [project.gold("train", r) for r in rows]


def _mine_then_pull(tmp_path: Path) -> tuple[Project, Path, Path]:
    folder, clone = _base(tmp_path)
    project = Project.open(folder)
    project.examples("train")  # a data file handed out (to training): kept until close, then "unused"
    for row in MINE:
        project.set_gold("train", row, "neg")
    _pull(clone, folder)
    return project, folder, clone


def _unapplied(messages: list[str]) -> list[str]:
    return [m for m in messages if "not applied" in m]


def test_an_edit_and_the_close_after_a_pull_are_refused_and_leave_the_other_sides_files(tmp_path: Path) -> None:
    project, folder, _clone = _mine_then_pull(tmp_path)
    pulled = _snapshot(folder)
    with pytest.raises(DataError) as refused:
        project.set_gold("train", 3, "neg")
    error = refused.value
    assert error.facts["refusal"] == "changed_outside" and error.facts["changed"] == "project.json"
    assert error.facts["kept"] == "labels.journal" and error.facts["edits"] == 3
    assert "changed outside bertstudio" in error.problem and "Reopen the project" in error.problem
    with pytest.raises(DataError) as again:  # the same refusal for every later write, not a new check
        project.save_ui_state()
    assert again.value is error
    assert project.compact_if_large(threshold=1) is False  # the idle timer's call: refused quietly
    with pytest.raises(DataError) as at_close:
        project.close()
    assert at_close.value is error and project.closed
    after = _snapshot(folder)
    assert {k: v for k, v in after.items() if k != "labels.journal"} == \
        {k: v for k, v in pulled.items() if k != "labels.journal"}  # nothing rewritten, nothing deleted
    assert after["labels.journal"] == pulled["labels.journal"]  # the user's edits: still there
    reopened = Project.open(folder)
    assert _golds(reopened, THEIRS) == ["pos"] * 3  # the colleague's labels survived
    unapplied = _unapplied(reopened.recovery_messages)
    assert len(unapplied) == 4, reopened.recovery_messages  # the summary, then each edit by row
    assert "3 edits were not applied" in unapplied[0] and "another version of project.json" in unapplied[0]
    assert [m.split("not applied: ")[1] for m in unapplied[1:]] == [f"train row {r}: 'neg'" for r in MINE]
    kept = unapplied[0].split(":")[0]
    assert kept.startswith("labels.journal.unapplied-") and (folder / kept).exists()
    reopened.set_gold("train", 3, "neg")  # a journal of its own from here on
    reopened.close()
    with Project.open(folder) as third:
        assert _unapplied(third.recovery_messages) == [] and third.recovery_messages == []
        assert _golds(third, (3, *THEIRS)) == ["neg", "pos", "pos", "pos"] and (folder / kept).exists()


def test_a_crash_after_a_pull_lists_the_journaled_edits_it_cannot_apply(tmp_path: Path) -> None:
    project, folder, _clone = _mine_then_pull(tmp_path)
    project.close(compact=False)  # the app killed: the journal is all that is left of the user's edits
    reopened = Project.open(folder)
    assert _golds(reopened, THEIRS) == ["pos"] * 3
    assert _golds(reopened, MINE) == [None] * 3
    unapplied = _unapplied(reopened.recovery_messages)
    assert [m.split("not applied: ")[1] for m in unapplied[1:]] == [f"train row {r}: 'neg'" for r in MINE], \
        reopened.recovery_messages
    reopened.close()


def test_a_replaced_journal_keeps_this_windows_edits_and_the_next_open_lists_them(tmp_path: Path) -> None:
    folder, clone = _base(tmp_path)
    project = Project.open(folder)
    for row in MINE:
        project.set_gold("train", row, "neg")
    theirs = folder / "labels.journal.sync"
    theirs.write_bytes(b"")
    os.replace(theirs, folder / "labels.journal")  # a sync tool puts another machine's (empty) journal here
    with pytest.raises(DataError) as refused:
        project.set_gold("train", 3, "neg")
    kept = refused.value.facts["kept"]
    assert refused.value.facts["changed"] == "labels.journal" and kept.startswith("labels.journal.kept-")
    assert (folder / "labels.journal").read_bytes() == b""  # theirs, untouched
    with pytest.raises(DataError):
        project.close()
    reopened = Project.open(folder)
    unapplied = _unapplied(reopened.recovery_messages)
    assert [m.split("not applied: ")[1] for m in unapplied[1:]] == [f"train row {r}: 'neg'" for r in MINE], \
        reopened.recovery_messages
    assert not (folder / kept).exists() and unapplied[0].startswith("labels.journal.unapplied-")
    reopened.close()


def test_a_pull_with_no_edit_of_ours_closes_without_deleting_the_pulled_data(tmp_path: Path) -> None:
    folder, clone = _base(tmp_path)
    project = Project.open(folder)
    project.examples("train")
    _pull(clone, folder)
    pulled = _snapshot(folder)
    project.close()  # nothing of ours to keep: no refusal, and nothing written or deleted
    assert _snapshot(folder) == pulled
    with Project.open(folder) as again:
        assert _golds(again, THEIRS) == ["pos"] * 3 and again.recovery_messages == []


def test_a_data_file_replaced_under_the_project_is_refused_before_folding(tmp_path: Path) -> None:
    # (a copy of the same rows was refused here too; it is no change now: see the test after this one)
    folder, clone = _base(tmp_path)
    project = Project.open(folder)
    project.set_gold("train", 0, "neg")
    data = folder / project.split_info["train"]["file"]
    with Project.open(clone) as colleague:
        theirs = clone / colleague.split_info["train"]["file"]
    copy = data.with_name("copy.tmp")
    shutil.copyfile(theirs, copy)
    os.replace(copy, data)  # other rows (the colleague's labels) under the same name
    with pytest.raises(DataError) as refused:
        project.close()
    assert refused.value.facts["changed"] == project.split_info["train"]["file"]
    with Project.open(folder) as again:  # project.json unchanged: the journal is this project's own
        assert again.gold("train", 0) == "neg" and again.recovery_messages == []


def test_own_writes_and_a_touch_are_no_outside_change(tmp_path: Path) -> None:
    folder, _clone = _base(tmp_path)
    project = Project.open(folder)
    project.set_gold("train", 0, "neg")
    project.save_ui_state()
    project.compact()  # a new generation; the journal after it continues it
    project.add_label("meh")
    os.utime(folder / "project.json", ns=(1, 1))  # the same bytes: not a change
    project.set_gold("train", 1, "meh")
    project.rename_label("meh", "so-so")
    project.close(compact=False)  # a crash: the journal after the compaction is replayed
    with Project.open(folder) as again:
        assert again.recovery_messages == []
        assert _golds(again, (0, 1)) == ["neg", "so-so"] and "so-so" in again.labels


def test_a_crash_between_the_compactions_commit_and_the_journals_rotation_replays_as_before(tmp_path: Path,
                                                                                            monkeypatch) -> None:
    """project.json of the new generation, the journal of the old one (its rotation failed, or a crash
    came first): its edits are this project's own, folded or replayed by number, never listed as foreign."""
    from bertstudio.data.journal import Journal

    folder, _clone = _base(tmp_path)
    project = Project.open(folder)
    project.set_gold("train", 0, "neg")

    def no_rotation(self, previous, base=None):
        raise OSError("rotation failed")

    monkeypatch.setattr(Journal, "rotate", no_rotation)
    project.compact()  # committed; the journal stays and the next edits go on in it
    project.set_gold("train", 1, "neg")
    project.close(compact=False)
    monkeypatch.undo()
    with Project.open(folder) as again:
        assert again.recovery_messages == [] and _golds(again, (0, 1)) == ["neg", "neg"]


def test_project_json_moved_away_while_open_is_written_back_at_close(tmp_path: Path) -> None:
    """A missing project.json (a sync client's delete-then-recreate, a slip in the file manager) is no
    other side's version: the close writes it back as before. It was refused, and the reopen fell back
    to an old backup without the split, skipping the edits."""
    folder, _clone = _base(tmp_path)
    project = Project.open(folder)
    project.set_gold("train", 0, "pos")
    os.replace(folder / "project.json", tmp_path / "moved-away.json")
    project.set_gold("train", 1, "neg")
    project.close()
    assert (folder / "project.json").exists()
    with Project.open(folder) as again:
        assert again.recovery_messages == [] and _golds(again, (0, 1)) == ["pos", "neg"]


def test_project_json_rewritten_with_the_same_json_is_no_outside_change(tmp_path: Path) -> None:
    """A formatter or sync tool that rewrites project.json with another layout changes nothing."""
    import json

    folder, _clone = _base(tmp_path)
    project = Project.open(folder)
    project.set_gold("train", 0, "pos")
    body = json.loads((folder / "project.json").read_text())
    (folder / "project.json.tmp").write_text(json.dumps(body, indent=4))
    os.replace(folder / "project.json.tmp", folder / "project.json")
    project.set_gold("train", 1, "neg")
    project.close()
    with Project.open(folder) as again:
        assert again.recovery_messages == [] and _golds(again, (0, 1)) == ["pos", "neg"]


def test_a_crash_in_a_copy_made_without_its_journal_replays_the_users_edits(tmp_path: Path) -> None:
    """project.json written while the app had it open names its journal; a clone without labels.journal,
    labelled and killed: the reopen set the user's own edits aside as made on another project.json."""
    folder, _clone = _base(tmp_path)
    project = Project.open(folder)
    project.add_label("maybe")  # journaled, and project.json rewritten naming this journal
    project.close(compact=False)  # committed as it was while the app had it open
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("labels.journal*", "project.lock"))
    project = Project.open(copy)
    for row in MINE:
        project.set_gold("train", row, "pos")
    project.close(compact=False)  # killed
    with Project.open(copy) as again:
        assert _golds(again, MINE) == ["pos"] * 3
        assert _unapplied(again.recovery_messages) == []
        assert len(again.recovery_messages) == 1 and "were applied" in again.recovery_messages[0]


def test_another_projects_journal_in_a_project_from_before_generations_is_set_aside(tmp_path: Path) -> None:
    """A project last saved by the version before journal headers (no generation) gets another project's
    journal, whose header names that project's generation: its edits were replayed by number, silently."""
    import json

    from bertstudio.data.project_meta import encode_meta

    folder, clone = _base(tmp_path)
    body = json.loads((folder / "project.json").read_text())
    for key in ("generation", "journal", "folded_journal", "checksum"):
        body.pop(key, None)
    (folder / "project.json").write_bytes(encode_meta(body))
    with Project.open(clone) as other:
        for row in MINE:
            other.set_gold("train", row, "neg")
        shutil.copyfile(clone / "labels.journal", folder / "labels.journal")
    with Project.open(folder) as opened:
        assert _golds(opened, MINE) == [None] * 3
        unapplied = _unapplied(opened.recovery_messages)
        assert [m.split("not applied: ")[1] for m in unapplied[1:]] == [f"train row {r}: 'neg'" for r in MINE]


def test_a_kept_journal_is_said_to_be_listed_not_applied_and_one_edit_is_one_edit(tmp_path: Path) -> None:
    """The refusal promised 'the next open applies them' for a kept copy that the next open only lists;
    and said '1 edits'."""
    folder, _clone = _base(tmp_path)
    project = Project.open(folder)
    project.set_gold("train", 0, "neg")
    (folder / "labels.journal.sync").write_bytes(b"")
    os.replace(folder / "labels.journal.sync", folder / "labels.journal")
    with pytest.raises(DataError) as refused:
        project.set_gold("train", 3, "neg")
    problem = refused.value.problem
    assert "1 edit not yet folded into the data files is kept in labels.journal.kept-" in problem
    assert "does not apply them" in problem and "applies them or lists" not in problem
    with pytest.raises(DataError):
        project.close()
    with Project.open(folder) as again:
        unapplied = _unapplied(again.recovery_messages)
        assert "1 edit was not applied" in unapplied[0] and again.gold("train", 0) is None


def test_many_kept_journals_are_listed_up_to_a_cap_then_counted(tmp_path: Path) -> None:
    """10,000 kept journals made 20,000 recovery lines (a box taller than the screen)."""
    from bertstudio.data.journal import encode_entry
    from bertstudio.data.project_outside import MESSAGES_SHOWN

    folder, _clone = _base(tmp_path)
    line = encode_entry({"seq": 5, "op": "gold", "split": "train", "row": 0, "value": "neg"})
    for i in range(200):
        (folder / f"labels.journal.kept-2026{i:04d}").write_bytes(line)
    with Project.open(folder) as opened:
        messages = opened.recovery_messages
        assert len(messages) <= MESSAGES_SHOWN + 1
        assert messages[-1].startswith(f"{200 - MESSAGES_SHOWN // 2:,} more kept journals not listed")
    assert not list(folder.glob("labels.journal.kept-*"))  # each set aside, so listed once
    with Project.open(folder) as again:
        assert again.recovery_messages == []


def test_a_data_file_or_journal_replaced_by_the_same_bytes_or_touched_is_no_outside_change(tmp_path: Path) -> None:
    """A sync tool that writes back the same bytes (new inode), or a touch: the close was refused
    ('data/train-….arrow is not the file bertstudio wrote'), and the journal's copy refused the next edit."""
    folder, _clone = _base(tmp_path)
    project = Project.open(folder)
    project.set_gold("train", 0, "neg")
    journal = folder / "labels.journal"
    shutil.copyfile(journal, folder / "journal.tmp")
    os.replace(folder / "journal.tmp", journal)
    project.set_gold("train", 1, "pos")
    data = folder / project.split_info["train"]["file"]
    shutil.copyfile(data, folder / "data.tmp")
    os.replace(folder / "data.tmp", data)
    os.utime(data, ns=(1, 1))
    project.close()
    assert not list(folder.glob("labels.journal.kept-*"))
    with Project.open(folder) as again:
        assert again.recovery_messages == [] and _golds(again, (0, 1)) == ["neg", "pos"]


def test_a_journal_rewritten_in_place_or_anew_with_the_same_size_is_told(tmp_path: Path) -> None:
    """The journal was compared by (inode, size) and with the open file's own bytes: a file written in
    place (rsync --inplace, some sync clients) keeps the inode, and the open file shows its new bytes
    too; and git's delete-and-write may get the old inode number back on ext4. Each went unnoticed,
    and the other side's journal was appended to. Now against what this process wrote (its bytes) and the
    modification time; a touch stays no change."""
    folder = tmp_path / "proj"
    make_project(folder, "sentence", ["neg", "pos"], {"train": [{"text": f"row {i}", "label": None}
                                                                   for i in range(6)]}).close()
    project = Project.open(folder)
    project.set_gold("train", 0, "pos")
    journal = folder / "labels.journal"
    os.utime(journal, ns=(1, 1))  # a touch
    assert project.changed_outside() is None
    project.set_gold("train", 1, "neg")
    data = journal.read_bytes()
    with open(journal, "r+b") as f:  # the other copy's row 0, written in place: same inode, same size
        f.write(data.replace(b'"pos"', b'"neg"'))
    assert project.changed_outside() is not None
    with pytest.raises(DataError):
        project.set_gold("train", 2, "pos")
    project.close(compact=False)

    before = tmp_path / "before"  # before this process's first edit: only the file it read at open is known
    make_project(before, "sentence", ["neg", "pos"], {"train": [{"text": f"row {i}", "label": None}
                                                                   for i in range(6)]}).close()
    first = Project.open(before)
    first.set_gold("train", 0, "pos")
    first.close(compact=False)  # its edit left in the journal the next open reads
    project = Project.open(before)
    journal = before / "labels.journal"
    data = journal.read_bytes()
    st = os.stat(journal)
    with open(journal, "r+b") as f:
        f.write(data.replace(b'"pos"', b'"neg"'))
    os.utime(journal, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert project.changed_outside() is not None
    project.close(compact=False)


def test_a_data_file_name_this_project_used_again_is_its_own(tmp_path: Path) -> None:
    """Replace, then restore, restore, restore: the third restore wrote a data file under a name an
    earlier file of this session had, the project remembered that earlier file's size and inode, and
    the next Save said "changed outside bertstudio" and refused every edit until a reopen."""
    from bertstudio.data.examples import from_records

    labels = ["neg", "pos"]
    project = Project.create(tmp_path / "p", name="p", kind="sentence", labels=labels)
    project.import_examples(from_records("sentence", [{"text": f"old {i}", "label": labels[i % 2]}
                                                      for i in range(10)], labels=labels), "train")
    backup = project.import_examples(from_records("sentence", [{"text": f"new {i}", "label": labels[i % 2]}
                                                               for i in range(4)], labels=labels), "train", replace=True)
    for _ in range(3):  # undo, redo, undo: the last one writes data/train-00000000-1.arrow again
        backup = project.restore_split_backup(backup["id"])
    project.rename_label("neg", "negative")
    project.compact()
    project.set_gold("train", 0, "pos")
    assert project.changed_outside() is None
    project.close()
    with Project.open(tmp_path / "p") as again:
        assert again.recovery_messages == [] and again.gold("train", 0) == "pos"


def _foreign_journal(tmp_path: Path, folder: Path) -> bytes:
    """A clone's journal, its rows 6-8 'pos' not yet folded (a sync folder brings it while it is open there)."""
    clone = tmp_path / "clone-open"
    shutil.copytree(folder, clone, ignore=shutil.ignore_patterns("project.lock"))
    other = Project.open(clone)
    for row in THEIRS:
        other.set_gold("train", row, "pos")
    other.close(compact=False)
    return (clone / "labels.journal").read_bytes()


def _in_place(journal: Path, data: bytes) -> None:
    with open(journal, "r+b") as f:  # cp, rsync --inplace: the same inode, which this process has open
        f.write(data)
        f.truncate()


@pytest.mark.parametrize("how", ["in place", "appended", "truncated", "deleted", "renamed over",
                                 "in place before any edit here"])
def test_the_kept_journal_holds_this_windows_edits_whatever_the_other_program_did(tmp_path: Path, how: str) -> None:
    """The kept copy was written from the open file: after a write in place (cp, rsync --inplace) that
    showed the other side's edits, so this window's were in no file, and the next open listed the
    other side's (applied) edits as "not applied"; before any edit here no file was open, and the
    edits read at open were "could not be kept"."""
    folder = tmp_path / "proj"
    make_project(folder, "sentence", ["neg", "pos"], {"train": [{"text": f"row {i}", "label": None}
                                                                   for i in range(10)]}).close()
    theirs = _foreign_journal(tmp_path, folder)
    project = Project.open(folder)
    for row in MINE[:2]:
        project.set_gold("train", row, "neg")
    if how == "in place before any edit here":  # the edits are the journal this open read (not yet folded)
        project.close(compact=False)
        project = Project.open(folder)
    journal = folder / "labels.journal"
    if how.startswith("in place"):
        _in_place(journal, theirs)
    elif how == "appended":
        with open(journal, "ab") as f:
            f.write(theirs.splitlines(keepends=True)[-1])
    elif how == "truncated":
        _in_place(journal, b"")
    elif how == "deleted":
        journal.unlink()
    else:
        (folder / "journal.tmp").write_bytes(theirs)
        os.replace(folder / "journal.tmp", journal)
    with pytest.raises(DataError) as refused:
        project.set_gold("train", 3, "neg")
    project.close(compact=False)
    kept = list(folder.glob("labels.journal.kept-*"))
    assert refused.value.facts["kept"] == kept[0].name and len(kept) == 1
    entries = read_journal(kept[0]).entries
    assert [(e["row"], e["value"]) for e in entries] == [(0, "neg"), (1, "neg")]
    assert read_journal(kept[0]).header is not None  # whose journal it was
    if how.startswith("in place"):
        with Project.open(folder) as again:
            unapplied = _unapplied(again.recovery_messages)
            assert "2 edits were not applied" in unapplied[0]
            assert [m.split("not applied: ")[1] for m in unapplied[1:]] == ["train row 0: 'neg'", "train row 1: 'neg'"]
            # and as facts, for the window to say in its language (English left in the zh_CN box)
            assert (unapplied[0].kind, unapplied[0].facts["edits"], unapplied[0].facts["why"]) == (
                "unapplied", 2, "changed_outside")
            assert [(m.kind, m.facts["edit"]["row"]) for m in unapplied[1:]] == [("unapplied_edit", 0)] + [
                ("unapplied_edit", 1)]
            assert _golds(again, MINE[:2]) == [None, None] and _golds(again, THEIRS) == ["pos"] * 3


HOSTILE_EDITS = [  # a kept journal is any file with valid checksums (sweep_today51 defect 2)
    {"seq": 1, "op": "gold", "split": "train", "row": "R" * 2_000_000, "value": "v"},
    {"seq": 2, "op": "rename_label", "old": "x" * 1_000_000, "new": [1, 2]},
    {"seq": 3, "op": "set_color", "name": "n", "color": {"c": "y" * 500_000}},
    {"seq": 4, "op": "gold", "split": {"a": 1}, "row": None, "value": "a\x07\nb"},
    {"seq": 5, "op": "line\nbreak\u2028op", "name": "n\r"},
    {"seq": 6, "op": "add_label", "name": "\x85" * 300},
]


def test_each_fact_of_an_unapplied_edit_is_said_on_one_bounded_line(tmp_path: Path) -> None:
    """A kept journal's 2 MB row, 1 MB label and 500 KB colour made recovery lines of megabytes (the
    window froze 47 s laying them out), and an op holding a line break split its line in two: each
    fact is clipped with "…" and shows its controls as escapes."""
    from bertstudio.data.journal import encode_entry
    from bertstudio.data.project_outside import describe_edit
    from bertstudio.errors import FACT_CHARS, fact_text

    folder, _clone = _base(tmp_path)
    (folder / "labels.journal.kept-20260101T000000Z").write_bytes(b"".join(encode_entry(e) for e in HOSTILE_EDITS))
    with Project.open(folder) as opened:
        lines = [str(m) for m in opened.recovery_messages]
    assert len(lines) == 1 + len(HOSTILE_EDITS)
    for line in lines:  # a file name, a few words and at most three facts
        assert len(line) < 120 + 3 * FACT_CHARS and line.isprintable(), repr(line)
    said = [describe_edit(e) for e in HOSTILE_EDITS]
    assert said[0] == "train row " + "R" * (FACT_CHARS - 1) + "…: 'v'"
    assert said[1] == f"label '{'x' * (FACT_CHARS - 2)}… renamed to [1, 2]"
    assert said[3] == "{'a': 1} row None: 'a\\x07\\nb'"
    assert said[4] == "line\\nbreak\\u2028op of label 'n\\r'"
    assert fact_text("#123456", quoted=False) == "#123456" and fact_text("neg") == "'neg'"
