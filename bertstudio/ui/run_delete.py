"""Delete run (the Runs page): undoable, as every edit is.

A run of the project goes to the system's trash (``QFile.moveToTrash``) or, where the system has
none, to the project's trash folder (:mod:`bertstudio.train.run_trash`, which also refuses a run a
training is writing); a run opened from elsewhere only leaves the list, its folder stays on disk.
:class:`DeleteRunsCommand` is pushed on the session's undo stack once the runs are gone: Edit >
Undo moves each one back to the path it had (never onto a folder that took its name meanwhile),
Redo deletes them again; an Undo that failed where it can be fixed (a permission) stays on the stack
to be tried again. Every page listing runs refreshes through ``session.runs_changed``. Nothing
is deleted in a project opened read-only, nor a run a training, an ONNX export or a push reads.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from PySide6.QtCore import QCoreApplication, QFile, QTimer
from PySide6.QtGui import QUndoCommand

from bertstudio.errors import BertStudioError
from bertstudio.train import run_trash
from bertstudio.ui.run_words import is_read_only, read_only_text
from bertstudio.ui.sentences import counted, join_sentences


def _tr(text: str, disambiguation: str | None = None, n: int = -1) -> str:
    return QCoreApplication.translate("", text, disambiguation or None, n)  # where lupdate files _tr("...")


@dataclass
class Deleted:
    folder: Path  # where the run was (and goes back to)
    trashed: Path | None  # where it is now; None: only taken off the list (a run from elsewhere)
    system: bool = False  # in the system's trash (else the project's trash folder, or the list only)
    gone: bool = True  # deleted now (False once an undo put it back)


def system_trash(folder: Path) -> Path | None:
    """Move ``folder`` to the system's trash: where it went, or None where there is none (Qt's
    freedesktop trash needs ~/.local/share to exist; a headless box often has no such folder)."""
    file = QFile(str(folder))
    return Path(file.fileName()) if file.moveToTrash() else None


def _forget_trash_entry(trashed: Path) -> None:
    """The system trash's note on a run put back (freedesktop ``info/NAME.trashinfo``, Windows'
    ``$I`` file beside its ``$R`` folder), so the trash lists no entry for it any more."""
    if trashed.parent.name == "files":
        note = trashed.parent.parent / "info" / f"{trashed.name}.trashinfo"
    elif trashed.name.startswith("$R"):
        note = trashed.with_name("$I" + trashed.name[2:])
    else:
        return
    try:
        os.unlink(note)
    except OSError:
        pass


def record_run_job(session: Any, kind: str, folder: str | Path, worker: Any) -> None:
    """A job reading the run ``folder`` (``kind``: "export", an ONNX export; "push", to the Hub): Delete
    run and Rename refuse that run while the job runs (deleted mid-export, the export failed blaming
    the model and left its temporary folder in the run)."""
    running = [job for job in getattr(session, "run_jobs", []) if job[2].is_running()]
    session.run_jobs = running + [(kind, Path(folder), worker)]


def run_job_refusal(session: Any, folder: Path, *, renaming: bool = False) -> str | None:
    """Why ``folder`` (a run, or a job folder holding runs) cannot be deleted or renamed now: an export
    or a push of it is running (:func:`record_run_job`); None when none is."""
    for kind, run, worker in getattr(session, "run_jobs", []):
        if worker.is_running() and (run == folder or folder in run.parents):
            name = visible_name(folder.name)
            if kind == "push":
                return _tr("%1 is being pushed to the Hugging Face Hub: wait for the push or cancel it.").replace("%1", name)
            return _tr("%1 is being exported: wait for the export or cancel it.").replace("%1", name)
    return None


def visible_name(name: str) -> str:
    """A run's name as every place shows it (:func:`bertstudio.ui.runs_page.visible_run_name`)."""
    from bertstudio.ui.runs_page import visible_run_name

    return visible_run_name(name)


class DeleteRunsCommand(QUndoCommand):
    """Runs deleted by the Runs page, pushed after they went (the first redo does nothing). ``say``
    puts what an undo or redo did in the status bar (it kept saying "Moved 1 run to the trash…"
    after the run was back)."""

    def __init__(self, session: Any, done: list[Deleted], text: str, say: Callable[[str], Any] | None = None) -> None:
        super().__init__(text)
        self._session, self._items = session, list(done)
        self._say = say
        self._pushed = True

    def _tell(self, text: str) -> None:
        if self._say is not None:
            try:
                self._say(text)
            except RuntimeError:  # the page that said it is gone (its window closed)
                self._say = None

    @property
    def deleted(self) -> list[Deleted]:
        """The runs it holds, each with where it is now (``gone``: deleted, not put back)."""
        return list(self._items)

    def undo(self) -> None:
        from bertstudio.ui.runs_page import add_external_run

        problems: list[str] = []
        lost: list[Deleted] = []  # gone from the trash: no undo brings them back
        back: list[Deleted] = []
        for item in reversed(self._items):
            if not item.gone:
                continue
            if item.trashed is not None:
                try:
                    run_trash.restore_run(item.trashed, item.folder)
                except (BertStudioError, OSError) as exc:  # stays in the trash, said where
                    problems.append(refusal_text(exc, item.folder, put_back=True, trashed=item.trashed))
                    if (getattr(exc, "facts", None) or {}).get("refusal") == "gone_from_trash":
                        lost.append(item)
                    continue
                if item.system:
                    _forget_trash_entry(item.trashed)
            else:
                add_external_run(self._session, item.folder)
            item.gone = False
            back.append(item)
        self._items = [item for item in self._items if item not in lost]
        self._session.notify_runs_changed()
        if back:
            names = ", ".join(visible_name(item.folder.name) for item in reversed(back))
            self._tell(counted(len(back), _tr("Put back 1 run: %1"), _tr("Put back {n} runs: %1")).replace("%1", names))
        if problems:
            if any(item.gone for item in self._items):
                # a permission, a folder that took its name: fixable, so the Undo stays to be pressed again
                # (it was thrown away, the run left in a trash folder nothing pointed to)
                self._stay_undoable()
            elif not back:
                self.setObsolete(True)  # nothing came back, nor can: nothing for a redo to do
            self._session.report_failure("\n".join(problems), title=_tr("Could not undo %1").replace("%1", self.text()))

    def _stay_undoable(self) -> None:
        """Put this command back on the undo side once the stack has stepped past it (the stack moves
        its index after undo() returns): its next redo does nothing, as the first did."""
        stack, command = self._session.undo_stack, self
        self._pushed = True

        def again() -> None:
            for i in range(stack.count()):
                if stack.command(i) is command and stack.index() == i:
                    stack.setIndex(i + 1)
                    return
            command._pushed = False  # pushed past or redone meanwhile: a later redo deletes again

        QTimer.singleShot(0, again)

    def redo(self) -> None:
        if self._pushed:  # the Runs page deleted them before the push
            self._pushed = False
            return
        done, problem = delete_runs(self._session, [item.folder for item in self._items if not item.gone])
        again = {d.folder: d for d in done}
        self._items = [again.get(item.folder, item) for item in self._items]
        self._session.notify_runs_changed()
        if done:
            self._tell(deleted_text(done))
        if problem:
            if not any(item.gone for item in self._items):
                self.setObsolete(True)
            self._session.report_failure(problem, title=_tr("Could not redo %1").replace("%1", self.text()))


def refusal_text(exc: BaseException, folder: Path, *, put_back: bool = False, trashed: Path | None = None) -> str:
    """A core refusal to delete (or, ``put_back``, to put back from ``trashed``) a run, in the
    interface's language where it is a common one; an OS error in words, never "[Errno N]" with its
    path. A run not put back is said to stay where it is now, with how to try again."""
    facts = getattr(exc, "facts", {}) or {}
    refusal = facts.get("refusal")
    name = visible_name(folder.name)
    if refusal == "read_only":
        return read_only_text()
    if refusal == "training":
        return _tr("%1 is training now: stop it on the Train page (or in its terminal) before deleting it."
                   ).replace("%1", name)
    if refusal == "name_taken":
        return _tr("%1 was not put back: a folder of that name exists now. The deleted run stays at %2."
                   ).replace("%1", str(folder)).replace("%2", str(facts.get("trashed", "")))
    if refusal == "gone_from_trash":  # moved out of the trash by hand: said where it was looked for
        where = trashed if trashed is not None else getattr(exc, "path", "")
        return _tr("%1 was not put back: it is no longer at %2. If it was moved elsewhere, move it back to %3 "
                   "yourself.").replace("%1", name).replace("%2", str(where)).replace("%3", str(folder))
    if refusal == "not_a_run" and facts.get("link"):
        return _tr("%1 was not deleted: it is a link to a folder elsewhere, which Delete run never follows. "
                   "Remove the link itself in a file manager.").replace("%1", name)
    if refusal == "not_a_run":
        return _tr("%1 was not deleted: its folder is gone.").replace("%1", name)
    if put_back and trashed is not None:  # a permission, a full disk: the run is safe where it is
        reason = exc.strerror or type(exc).__name__ if isinstance(exc, OSError) else str(exc)
        return _tr("%1 was not put back: %2. The deleted run stays at %3; Edit > Undo tries again, or move that "
                   "folder back to %4 yourself.").replace("%1", name).replace("%2", reason).replace(
            "%3", str(trashed)).replace("%4", str(folder))
    trash = str(facts.get("trash", ""))
    if refusal == "trash_not_folder":
        return _tr("%1 was not deleted: the project's trash %2 is a file, not a folder. Rename or move that file, "
                   "then delete again.").replace("%1", name).replace("%2", trash)
    if refusal == "trash_link":
        return _tr("%1 was not deleted: the project's trash folder %2 is a link. Make it a plain folder, "
                   "then delete again.").replace("%1", name).replace("%2", trash)
    if refusal == "trash_unmade":
        return _tr("%1 was not deleted: the project's trash folder %2 cannot be made (%3)."
                   ).replace("%1", name).replace("%2", trash).replace("%3", str(facts.get("reason", "")))
    if refusal == "trash_unwritable":  # it said only "Permission denied", as if the run were at fault
        return _tr("%1 was not deleted: the project's trash folder %2 cannot be written (%3)."
                   ).replace("%1", name).replace("%2", trash).replace("%3", str(facts.get("reason", "")))
    if isinstance(exc, OSError):  # never the raw "[Errno N] ..." with a path
        reason = exc.strerror or type(exc).__name__
        said = _tr("%1 was not put back: %2.") if put_back else _tr("%1 was not deleted: %2.")
        return said.replace("%1", name).replace("%2", reason)
    return str(exc)


def delete_runs(session: Any, folders: Iterable[Path]) -> tuple[list[Deleted], str | None]:
    """Delete ``folders`` (runs of the open project to a trash, runs from elsewhere off the list);
    what went, and why the first one refused was refused (those after it are left as they are)."""
    from bertstudio.ui.runs_page import in_project, remove_external_run

    # a link in runs/ goes to trash_run, which refuses it in words: taken "off the list", it stayed
    # listed (the list reads runs/) while the status bar said it was gone
    folders = [Path(f) for f in folders]
    training = {Path(f) for f in session.training_runs()}
    for folder in folders:  # asked before any goes: a selection holding the Train page's run deletes nothing
        if folder in training:
            return [], _tr("%1 is training now: stop it on the Train page before deleting it.").replace(
                "%1", visible_name(folder.name))
        busy = run_job_refusal(session, folder)
        if busy is not None:
            return [], busy
    if is_read_only(session.project) and any(in_project(session, f) or linked_here(session, f) for f in folders):
        return [], read_only_text()  # a run opened from elsewhere may still leave the list: nothing is written here
    runs_dir = getattr(session.project, "runs_dir", None)
    done: list[Deleted] = []
    for folder in folders:
        if any(d.folder == folder for d in done):  # a job folder its last run took along (a redo lists it)
            continue
        if runs_dir is None or not (in_project(session, folder) or linked_here(session, folder)):
            remove_external_run(session, folder)
            done.append(Deleted(folder, None))
            continue
        went: list[Path] = []

        def to_system(path: Path) -> Path | None:
            moved = system_trash(path)
            if moved is not None:
                went.append(moved)
            return moved

        try:
            trashed = run_trash.trash_run(folder, run_trash.project_trash(runs_dir), mover=to_system,
                                          project=session.project)
        except (BertStudioError, OSError) as exc:
            return done, refusal_text(exc, folder)
        done.append(Deleted(folder, trashed, system=bool(went)))
        job = _emptied_job(folder, Path(runs_dir))
        if job is not None:  # its last run gone, a job folder lists as a run of its own ("unknown"): it goes too
            went.clear()
            try:  # after its run on the list: an undo puts the job folder back first, then the run into it
                done.append(Deleted(job, run_trash.trash_run(job, run_trash.project_trash(runs_dir), mover=to_system,
                                                             project=session.project), system=bool(went)))
            except (BertStudioError, OSError) as exc:
                return done, refusal_text(exc, job)
    return done, None


def linked_here(session: Any, folder: str | Path) -> bool:
    """Whether ``folder`` is a link in the project's runs folder (or a job folder there) to a folder
    elsewhere: listed as the project's, but never moved to a trash (its target is not the project's)."""
    runs_dir = getattr(session.project, "runs_dir", None)
    folder = Path(folder)
    return runs_dir is not None and Path(runs_dir) in (folder.parent, folder.parent.parent) and folder.is_symlink()


def _emptied_job(folder: Path, runs_dir: Path) -> Path | None:
    """The seeds or GLUE job folder ``folder`` was a run of, when no run is left in it."""
    from bertstudio.train.seeds import job_runs

    job = folder.parent
    if job == runs_dir or job.parent != runs_dir or not job.is_dir() or job.is_symlink() or job_runs(job):
        return None
    return job


def deleted_text(done: list[Deleted]) -> str:
    """What the status bar says once runs were deleted: where they went, and how to get them back."""
    trashed = [d for d in done if d.trashed is not None]
    listed = [d for d in done if d.trashed is None]
    said: list[str] = []
    # counted: English has no .qm for Qt's %n plural, so it read "Moved 1 run(s)"
    system = [d for d in trashed if d.system]
    if system:
        said.append(counted(len(system), _tr("Moved 1 run to the trash."), _tr("Moved {n} runs to the trash.")))
    local = [d for d in trashed if not d.system]
    if local:
        said.append(counted(len(local), _tr("Moved 1 run to the project's trash folder %1 (this system has no trash)."),
                            _tr("Moved {n} runs to the project's trash folder %1 (this system has no trash)."))
                    .replace("%1", str(local[0].trashed.parent)))
    if listed:
        said.append(counted(len(listed), _tr("Removed 1 run opened from elsewhere from the list; its folder stays on disk."),
                            _tr("Removed {n} runs opened from elsewhere from the list; their folders stay on disk.")))
    said.append(counted(len(done), _tr("Edit > Undo puts it back."), _tr("Edit > Undo puts them back.")))
    return join_sentences(said)


def confirm_text(runs: list[Any], session: Any) -> str:
    """The confirmation: which runs, how many files and MB go to the trash, which only leave the list."""
    from bertstudio.ui.runs_page import in_project

    own = [Path(r) for r in runs if in_project(session, r)]
    links = [Path(r) for r in runs if not in_project(session, r) and linked_here(session, r)]
    other = [Path(r) for r in runs if not in_project(session, r) and not linked_here(session, r)]
    names = [visible_name(p.name) for p in own + links + other]
    shown = ", ".join(names[:8]) + ("" if len(names) <= 8 else counted(len(names) - 8, _tr(" and 1 more"),
                                                                       _tr(" and {n} more")))
    lines = [counted(len(names), _tr("Delete 1 run: %1?"), _tr("Delete {n} runs: %1?")).replace("%1", shown)]
    if own:
        files = size = 0
        for folder in own:
            f, s = run_trash.folder_size(folder)
            files, size = files + f, size + s
        lines.append(counted(len(own), _tr("1 run folder (%1 files, %2 MB) goes to the trash."),
                             _tr("{n} run folders (%1 files, %2 MB) go to the trash."))
                     .replace("%1", f"{files:,}").replace("%2", f"{size / 1e6:,.1f}"))
    if other:
        lines.append(counted(len(other), _tr("1 run opened from elsewhere only leaves this list; its folder is not deleted."),
                             _tr("{n} runs opened from elsewhere only leave this list; their folders are not deleted.")))
    if links:
        lines.append(counted(len(links), _tr("1 run is a link to a folder elsewhere: Delete run refuses it, and its "
                                             "folder is not touched."),
                             _tr("{n} runs are links to folders elsewhere: Delete run refuses them, and their folders "
                                 "are not touched.")))
    lines.append(counted(len(names), _tr("Edit > Undo (Ctrl+Z) puts it back."), _tr("Edit > Undo (Ctrl+Z) puts them back.")))
    return "\n\n".join(lines)
