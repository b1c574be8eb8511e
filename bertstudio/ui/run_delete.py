"""Delete run (the Runs page): undoable, as every edit is.

A run of the project goes to the system's trash (``QFile.moveToTrash``) or, where the system has
none, to the project's trash folder (:mod:`bertstudio.train.run_trash`, which also refuses a run a
training is writing); a run opened from elsewhere only leaves the list, its folder stays on disk.
:class:`DeleteRunsCommand` is pushed on the session's undo stack once the runs are gone: Edit >
Undo moves each one back to the path it had (never onto a folder that took its name meanwhile),
Redo deletes them again. Every page listing runs refreshes through ``session.runs_changed``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from PySide6.QtCore import QCoreApplication, QFile
from PySide6.QtGui import QUndoCommand

from bertstudio.errors import BertStudioError
from bertstudio.train import run_trash


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


class DeleteRunsCommand(QUndoCommand):
    """Runs deleted by the Runs page, pushed after they went (the first redo does nothing)."""

    def __init__(self, session: Any, done: list[Deleted], text: str) -> None:
        super().__init__(text)
        self._session, self._items = session, list(done)
        self._pushed = True

    @property
    def deleted(self) -> list[Deleted]:
        """The runs it holds, each with where it is now (``gone``: deleted, not put back)."""
        return list(self._items)

    def undo(self) -> None:
        from bertstudio.ui.runs_page import add_external_run

        problems: list[str] = []
        for item in reversed(self._items):
            if not item.gone:
                continue
            if item.trashed is not None:
                try:
                    run_trash.restore_run(item.trashed, item.folder)
                except (BertStudioError, OSError) as exc:  # stays in the trash, said where
                    problems.append(refusal_text(exc, item.folder, put_back=True))
                    continue
                if item.system:
                    _forget_trash_entry(item.trashed)
            else:
                add_external_run(self._session, item.folder)
            item.gone = False
        self._session.notify_runs_changed()
        if problems:
            if all(item.gone for item in self._items):
                self.setObsolete(True)  # nothing came back: nothing for a redo to do
            self._session.report_failure("\n".join(problems))

    def redo(self) -> None:
        if self._pushed:  # the Runs page deleted them before the push
            self._pushed = False
            return
        done, problem = delete_runs(self._session, [item.folder for item in self._items if not item.gone])
        again = {d.folder: d for d in done}
        self._items = [again.get(item.folder, item) for item in self._items]
        self._session.notify_runs_changed()
        if problem:
            if not any(item.gone for item in self._items):
                self.setObsolete(True)
            self._session.report_failure(problem)


def refusal_text(exc: BaseException, folder: Path, *, put_back: bool = False) -> str:
    """A core refusal to delete (or, ``put_back``, to put back) a run, in the interface's language
    where it is a common one; an OS error in words, never "[Errno N]" with its path."""
    facts = getattr(exc, "facts", {}) or {}
    refusal = facts.get("refusal")
    if refusal == "training":
        return _tr("%1 is training now: stop it on the Train page (or in its terminal) before deleting it."
                   ).replace("%1", folder.name)
    if refusal == "name_taken":
        return _tr("%1 was not put back: a folder of that name exists now. The deleted run stays at %2."
                   ).replace("%1", str(folder)).replace("%2", str(facts.get("trashed", "")))
    if refusal == "gone_from_trash":
        return _tr("%1 was not put back: it is no longer in the trash.").replace("%1", folder.name)
    if refusal == "not_a_run" and facts.get("link"):
        return _tr("%1 was not deleted: it is a link to a folder elsewhere, which Delete run never follows. "
                   "Remove the link itself in a file manager.").replace("%1", folder.name)
    if refusal == "not_a_run":
        return _tr("%1 was not deleted: its folder is gone.").replace("%1", folder.name)
    trash = str(facts.get("trash", ""))
    if refusal == "trash_not_folder":
        return _tr("%1 was not deleted: the project's trash %2 is a file, not a folder. Rename or move that file, "
                   "then delete again.").replace("%1", folder.name).replace("%2", trash)
    if refusal == "trash_link":
        return _tr("%1 was not deleted: the project's trash folder %2 is a link. Make it a plain folder, "
                   "then delete again.").replace("%1", folder.name).replace("%2", trash)
    if refusal == "trash_unmade":
        return _tr("%1 was not deleted: the project's trash folder %2 cannot be made (%3)."
                   ).replace("%1", folder.name).replace("%2", trash).replace("%3", str(facts.get("reason", "")))
    if isinstance(exc, OSError):  # never the raw "[Errno N] ..." with a path
        reason = exc.strerror or type(exc).__name__
        said = _tr("%1 was not put back: %2.") if put_back else _tr("%1 was not deleted: %2.")
        return said.replace("%1", folder.name).replace("%2", reason)
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
            return [], _tr("%1 is training now: stop it on the Train page before deleting it.").replace("%1", folder.name)
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
            trashed = run_trash.trash_run(folder, run_trash.project_trash(runs_dir), mover=to_system)
        except (BertStudioError, OSError) as exc:
            return done, refusal_text(exc, folder)
        done.append(Deleted(folder, trashed, system=bool(went)))
        job = _emptied_job(folder, Path(runs_dir))
        if job is not None:  # its last run gone, a job folder lists as a run of its own ("unknown"): it goes too
            went.clear()
            try:  # after its run on the list: an undo puts the job folder back first, then the run into it
                done.append(Deleted(job, run_trash.trash_run(job, run_trash.project_trash(runs_dir), mover=to_system),
                                    system=bool(went)))
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
    if any(d.system for d in trashed):
        said.append(_tr("Moved %n run(s) to the trash.", "", len([d for d in trashed if d.system])))
    local = [d for d in trashed if not d.system]
    if local:
        said.append(_tr("Moved %n run(s) to the project's trash folder %1 (this system has no trash).", "", len(local))
                    .replace("%1", str(local[0].trashed.parent)))
    if listed:
        said.append(_tr("Removed %n run(s) opened from elsewhere from the list; their folders stay on disk.",
                        "", len(listed)))
    said.append(_tr("Edit > Undo puts them back."))
    return " ".join(said)


def confirm_text(runs: list[Any], session: Any) -> str:
    """The confirmation: which runs, how many files and MB go to the trash, which only leave the list."""
    from bertstudio.ui.runs_page import in_project

    own = [Path(r) for r in runs if in_project(session, r)]
    links = [Path(r) for r in runs if not in_project(session, r) and linked_here(session, r)]
    other = [Path(r) for r in runs if not in_project(session, r) and not linked_here(session, r)]
    names = [p.name for p in own + links + other]
    shown = ", ".join(names[:8]) + ("" if len(names) <= 8 else _tr(" and %n more", "", len(names) - 8))
    lines = [_tr("Delete %n run(s): %1?", "", len(names)).replace("%1", shown)]
    if own:
        files = size = 0
        for folder in own:
            f, s = run_trash.folder_size(folder)
            files, size = files + f, size + s
        lines.append(_tr("%n run folder(s) (%1 files, %2 MB) go to the trash.", "", len(own))
                     .replace("%1", f"{files:,}").replace("%2", f"{size / 1e6:,.1f}"))
    if other:
        lines.append(_tr("%n run(s) opened from elsewhere only leave this list; their folders are not deleted.",
                         "", len(other)))
    if links:
        lines.append(_tr("%n run(s) are links to folders elsewhere: Delete run refuses them, and their folders are "
                         "not touched.", "", len(links)))
    lines.append(_tr("Edit > Undo (Ctrl+Z) puts them back."))
    return "\n\n".join(lines)
