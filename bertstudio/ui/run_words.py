"""The core's sentences about runs, said in the interface's language.

The core says them in English for the CLI and the logs, and gives the same sentence as data
(train/rundir.Said: a kind and its facts; train/small_data's reasons): the Runs page, the Resume
box and Compare said "it kept no checkpoint to go on from" or "killed has no predictions yet"
in English inside the Chinese window. A sentence of a kind not known here is shown as the core
wrote it.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication

from bertstudio.errors import fact_text
from bertstudio.ui.run_reader import READING
from bertstudio.ui.sentences import counted, join_sentences
from bertstudio.ui.session import split_name


def _tr(text: str, disambiguation: str | None = None, n: int = -1) -> str:
    return QCoreApplication.translate("", text, disambiguation or None, n)  # where lupdate files _tr("...")


def auto_reason_text(reason: str) -> str:
    """Why Automatic chose a run's settings (its config's auto_reason, English), as the Train page
    says it (small_data.say through the "SmallData" translations); as written when it is not one."""
    from bertstudio.train.small_data import reasons_in, say

    reasons = reasons_in(reason)
    return (say(reasons, partial(QCoreApplication.translate, "SmallData")) or reason) if reasons else reason


def status_text(status: str) -> str:
    """A run's status (rundir.RunInfo.status, RunFinished.status) as the Runs table and the training
    monitor say it; one they do not know, as it is."""
    return {"finished": _tr("finished"), "cancelled": _tr("cancelled"), "failed": _tr("failed"),
            "running": _tr("running"), "interrupted": _tr("interrupted"),
            "damaged": _tr("damaged"),  # the Runs table's tooltip says which file and why
            READING: _tr("reading…"),  # read off the GUI thread: the row fills in
            "unknown": _tr("unknown")}.get(status, status)


def run_message(message: Any) -> str:
    """What a run's reader or its end said (RunInfo.message, RunFinished.message), as the Runs
    table's tooltip and the training monitor's log show it: a sentence of a kind known here in the
    user's words (an interrupted run's, rundir.interrupted_message), any other as written."""
    return _interrupted_text(message) if getattr(message, "kind", None) == "interrupted" else str(message)


def _interrupted_text(said: Any) -> str:
    """rundir.interrupted_message: the run's process ended, and how to go on (or why not)."""
    text = _tr("The training stopped without finishing (its process was closed or crashed).")
    facts = said.facts
    if facts.get("command"):
        return join_sentences((text, _tr("Continue it with: {command}").format(command=facts["command"])))
    if facts.get("why"):
        return join_sentences((text, resume_refusal(facts["why"])))
    return text


def resume_refusal(said: Any) -> str:
    """Why a run cannot be resumed (rundir.project_resume_problem, rundir.not_resumable)."""
    kind, facts = getattr(said, "kind", None), getattr(said, "facts", {})
    simple: dict[str, Callable[[], str]] = {
        "training": lambda: _tr("It is still training."),
        "finished": lambda: _tr("It has finished: there is nothing to resume."),
        "no_checkpoint": lambda: _tr("It kept no checkpoint to go on from: only a run stopped by Cancel, Ctrl-C or a "
                                     "closed window keeps one (not a crashed or killed run, nor one stopped before "
                                     "its first step). Train it again."),
        "old_checkpoint": lambda: _tr("It was stopped by an older bertstudio, which did not record the rows it trained "
                                      "on, so nothing could check they are still the same. Train it again."),
        "other_project": lambda: _tr("It was trained in another project (its label ids say so): resume it there."),
        "project_rows": lambda: _tr("It trained on its project's rows, which the command line cannot name: resume "
                                    "it in the app (Runs page, select it, Resume)."),
    }
    if kind in simple:
        return simple[kind]()
    if kind == "damaged_checkpoint":
        return _tr("Its checkpoint cannot be read ({error}): train it again.").format(error=facts.get("error", ""))
    if kind == "never_started":
        return _tr("It never started, or its files cannot be read: there is nothing to resume.")
    if kind == "bad_config":  # the file's own problem, as the core read it
        return _tr("Its settings cannot be read: {error}").format(error=facts.get("error", ""))
    if kind == "no_config":
        return _tr("Its settings file {file} is missing.").format(file=facts.get("file", ""))
    if kind == "files_missing":
        files = ", ".join(facts.get("files", []))
        text = _tr("Its data file(s) %1 are missing: put them back there.", "", len(facts.get("files", [])))
        text = text.replace("%1", files)
        if facts.get("flags"):
            text = join_sentences((text, _tr("Or resume with %1 naming where they lie now.").replace(
                "%1", ", ".join(facts["flags"]))))
        return text
    if kind == "model_missing":
        text = _tr("Its base model folder {folder} is missing: put it back there (or a link to where it lies now) to "
                   "resume it.").format(folder=facts.get("folder", ""))
        if facts.get("flags"):
            text = join_sentences((text, _tr("Or resume with --model naming where it lies now.")))
        return text
    if kind == "model_changed":
        return _tr("The model {folder} is not the base model the run started from (its config or tokenizer files "
                   "differ): put that model back there to resume it.").format(folder=facts.get("folder", ""))
    if kind == "data_changed":  # the engine's refusal after the click, in the same words (engine._same_data)
        return data_change_refusal(facts) or str(said)
    if kind == "data_files":
        text = _tr("It trained on data files, not on the project's rows.")
        if facts.get("why"):
            return join_sentences((text, resume_refusal(facts["why"])))
        return join_sentences((text, _tr("Continue it with: {command}").format(command=facts.get("command") or "")))
    if kind == "renamed":
        removed = _tr("(removed)")
        changed = ", ".join(f"{old} → {new or removed}" for old, new in facts.get("changed", []))
        return _tr("Its labels were renamed or removed since it stopped ({changed}): a resume goes on with the labels "
                   "it trained with. Rename them back to resume it, or train it again.").format(changed=changed)
    return str(said)


def removed_marker() -> str:
    """How a run's class removed since, whose name a label of today bears, is marked (a format of
    ``name``, for project_labels.value_now): the core's English "(removed)" stood in Chinese tables."""
    return _tr("{name} (removed)")


def data_change_refusal(facts: dict[str, Any]) -> str | None:
    """The engine's refusal to resume a run on rows other than those it trained (or was scored) on
    (engine._same_data's facts), for the project's rows; None when ``facts`` are not its."""
    if facts.get("refusal") != "data_changed":
        return None
    rows, then = facts.get("rows"), facts.get("rows_then")
    evaluation = facts.get("split") == "eval"
    if then is not None and then != rows:
        said = (_tr("The project's evaluation rows changed since the run stopped: %1 then, %2 now.") if evaluation else
                _tr("The project's labelled training rows changed since the run stopped: %1 then, %2 now."))
        said = said.replace("%1", str(then)).replace("%2", str(rows))
    elif facts.get("same_inputs"):
        said = (_tr("The project's evaluation rows changed since the run stopped: the same %n rows, with other "
                    "golds.", "", int(rows or 0)) if evaluation else
                _tr("The project's labelled training rows changed since the run stopped: the same %n rows, with "
                    "other golds.", "", int(rows or 0)))
    else:
        said = (_tr("The project's evaluation rows changed since the run stopped: %n rows then and now, but other "
                    "ones.", "", int(rows or 0)) if evaluation else
                _tr("The project's labelled training rows changed since the run stopped: %n rows then and now, but "
                    "other ones.", "", int(rows or 0)))
    return join_sentences((said, _tr("Undo the edits made since it stopped to resume it, or start a new run.")))


def compare_note(note: Any, names: dict[str, str]) -> str:
    """Compare's note on why no example (or no interval) is compared (train/compare_runs), with
    ``names`` the runs as the dialog shows them ({"A": ..., "B": ...})."""
    kind, facts = getattr(note, "kind", None), getattr(note, "facts", {})
    only = _tr("Only the curves and the settings compare.")
    if kind == "no_predictions":
        return join_sentences([*(_no_predictions(run, names) for run in facts.get("runs", [])), only])
    if kind == "replaced":
        said = _tr("The %1 rows were replaced between the two runs: no examples to compare.").replace(
            "%1", " / ".join(split_name(s) for s in facts.get("splits", [])))
        return join_sentences((said, only))
    if kind == "other_project":
        said = _tr("{b} is a run of another project than {a} (their label ids say so): no examples to compare."
                   ).format(a=names.get("A", ""), b=names.get("B", ""))
        return join_sentences((said, only))
    if kind == "different_data":
        said = _tr("The runs were evaluated on different data ({settings}), and their predictions are older than "
                   "example fingerprints: no examples to compare.").format(settings="; ".join(facts.get("settings", [])))
        return join_sentences((said, only))
    if kind == "position_mismatch":
        said = _tr("Only %1 of %2 rows paired by position have the same gold, about what unrelated rows give: the runs "
                   "were evaluated on different or reordered data, and their predictions are older than example "
                   "fingerprints. No examples to compare.").replace("%1", str(facts.get("agree", ""))).replace(
                       "%2", str(facts.get("pairs", "")))
        return join_sentences((said, only))
    if kind == "no_shared_rows":
        return join_sentences((_tr("The two runs share no evaluated rows (they evaluated on different data)."), only))
    if kind == "no_interval":
        return _tr("No interval: {metric} has no per-row form for this kind of run.").format(
            metric=facts.get("metric", ""))
    return str(note)


def _no_predictions(run: Any, names: dict[str, str]) -> str:
    from bertstudio.train.rundir import METRICS, PREDICTIONS  # file names, as they are

    kind, facts = getattr(run, "kind", None), getattr(run, "facts", {})
    name = names.get(facts.get("side", ""), "")
    if kind == "not_saved_yet":
        why = {"running": _tr("still training"), "interrupted": _tr("interrupted before it saved them"),
               "failed": _tr("failed before it saved them"), "cancelled": _tr("cancelled before it saved them")
               }.get(facts.get("status", ""), facts.get("status", ""))
        return _tr("{run} has no predictions yet ({why}).").format(run=name, why=why)
    said = {"not_saved": _tr("{run} evaluated but saved no {file}."),
            "not_evaluated_yet": _tr("{run} has not evaluated yet (still training)."),
            "never_evaluated": _tr("{run} never evaluated."),
            "empty_predictions": _tr("{run}'s {file} holds no prediction."),
            "no_predictions_file": _tr("{run} has no {file} (its {metrics} holds scores).")}.get(kind)
    return said.format(run=name, file=PREDICTIONS, metrics=METRICS) if said else str(run)


def _row(split: str | None, row: str) -> str:
    if not split:
        return _tr("row {n}").format(n=row)
    named = {"eval": _tr("evaluation"), "held-out": _tr("held-out")}.get(split) or split_name(split)
    return _tr("{split} row {n}").format(split=named, n=row)


def warning_text(facts: dict[str, Any]) -> str:
    """A warning of train/sources (its record's ``facts``) said in the UI's language; "" for one it does not know."""
    kind = facts.get("kind")
    if kind in ("untrained_classes", "unevaluated_classes"):
        classes = list(facts["classes"])
        names = _tr(", ").join(classes[:4]) + (_tr(" and %n more", "", len(classes) - 4) if len(classes) > 4 else "")
        if kind == "untrained_classes":
            text = _tr("%n class(es) have no training row, so the model can never predict them: {classes}.", "",
                      len(classes))
        else:
            text = _tr("%n class(es) have no held-out row: trained on, not evaluated: {classes}.", "", len(classes))
        text = text.format(classes=names)
    elif kind == "conflicting_gold":
        what = {"labels": _tr("labels"), "scores": _tr("scores"), "tags": _tr("tags")}.get(facts["what"], facts["what"])
        a, b = facts["rows"]
        rows = (_tr("{split} rows {a} and {b}").format(split=split_name(facts["split"]), a=a, b=b) if facts["split"]
                else _tr("rows {a} and {b}").format(a=a, b=b))
        one, other, token = facts["values"]
        values = (_tr("{a} and {b} at token {t}").format(a=one, b=other, t=token) if token is not None
                  else _tr("{a} and {b}").format(a=one, b=other))
        text = _tr("%n input(s) appear more than once with different {what} (first: {rows}, {values}).",
                  "", int(facts["count"])).format(what=what, rows=rows, values=values)
    elif kind == "repeated_eval_rows":
        words = (_tr("{count:,} of {total:,} held-out rows repeat a training row (same {columns}): their scores "
                    "overstate how the model does on rows it has not seen (first: {first} = {seen}).") if facts["held"]
                 else _tr("{count:,} of {total:,} evaluation rows repeat a training row (same {columns}): their scores "
                         "overstate how the model does on rows it has not seen (first: {first} = {seen})."))
        text = words.format(count=facts["count"], total=facts["total"], columns=_tr(", ").join(facts["columns"]),
                            first=_row(*facts["first"]), seen=_row(*facts["seen"]))
    elif kind == "unscored_rows":
        text = _tr("{count:,} of {total:,} evaluation rows have no gold value and are left out of the score.").format(
            count=facts["count"], total=facts["total"])
    elif kind == "last_weights_kept":  # train/engine: save_best does not choose on so few rows (progress.chooses_best)
        text = _tr("%n scored evaluation row(s), fewer than {least}: too few to choose the best evaluation on, so the "
                   "run keeps its last weights.", "", int(facts["scored"])).format(least=facts["least"])
    else:
        return ""
    return _tr("{source}: {text}").format(source=facts["source"], text=text) if facts.get("source") else text


def metric_name(key: str) -> str:
    """A metric key (metrics' one spelling: accuracy, f1, mcc, ...) as the interface names it in a
    sentence or a metric table's row; one not known here, as it is. The keys stay keys in files and the CLI."""
    return {"accuracy": _tr("accuracy"), "macro_f1": _tr("macro F1"), "f1": _tr("F1"), "mcc": _tr("MCC"),
            "pearson": _tr("Pearson correlation"), "spearman": _tr("Spearman correlation"),
            "exact_match": _tr("exact match"), "precision": _tr("precision"), "recall": _tr("recall"),
            "mse": _tr("mean squared error")}.get(key, key)


def seeds_summary(result: Any) -> str:
    """A seeds job's summary (train/seeds.SeedsResult, its data) in the UI's language: the Train page
    said "1 of 3 seeds finished: accuracy 50.0" in English (SeedsResult.summary, the CLI's line)."""
    from bertstudio.metrics.display import format_metric, format_spread

    values, asked, key = dict(result.values), int(result.asked), result.metric
    if not values or key is None:
        ran = len(result.results)
        return (_tr("{ran} of {asked} seed(s) ran, no {metric} to sum up") if asked > ran else
                _tr("{ran} seed(s), no {metric} to sum up")).format(
            ran=ran, asked=asked, metric=metric_name(key) if key else _tr("metric"))
    runs, metric = len(values), metric_name(key)
    mean = format_metric(key, result.mean)
    if runs == 1:
        return (_tr("{runs} of {asked} seeds finished: {metric} {mean}") if asked > runs else
                _tr("1 seed: {metric} {mean}")).format(runs=runs, asked=asked, metric=metric, mean=mean)
    spread = format_spread(key, result.sd)
    low, high = format_metric(key, min(values.values())), format_metric(key, max(values.values()))
    return (_tr("{runs} of {asked} seeds finished: {metric} {mean} ± {sd} ({low} to {high})") if asked > runs else
            _tr("{runs} seeds: {metric} {mean} ± {sd} ({low} to {high})")).format(
        runs=runs, asked=asked, metric=metric, mean=mean, sd=spread, low=low, high=high)


def rows_or_tokens(n: int, tokens: bool = False) -> str:
    """``n`` rows ("1 row", "1,234 rows"), or a tag set's tokens, as the label counts say them."""
    if tokens:
        return counted(n, _tr("1 token"), _tr("{n} tokens"))
    return counted(n, _tr("1 row"), _tr("{n} rows"))


def is_read_only(project: Any) -> bool:
    """Whether ``project`` (None: none open) was opened where it cannot be written (data/project's
    read_only): the one test the window and the Import dialog ask (each spelled it out). Only the flag
    itself counts (``is True``), as both copies had it."""
    return project is not None and getattr(project, "read_only", False) is True


def read_only_text(asked: bool = False) -> str:
    """What a project opened where it cannot be written still does (said at open, in the project's
    tooltip, and for each edit or run it refuses). ``asked``: opened read-only by choice, because
    another window had it open read-only: the line says how it becomes writable here, which nothing
    said (a window stayed read-only after the other one had closed)."""
    if asked:
        return _tr("Read-only, as it was open in another window: browse, predict and compare; labels and runs "
                   "cannot be saved here. Once that window has closed it, File > Open project on this folder "
                   "makes it writable here")
    return _tr("Read-only: browse, predict and compare; labels and runs cannot be saved here")


def open_elsewhere_text(facts: dict[str, Any]) -> str | None:
    """data/project_lock's refusal of an open (facts ``refusal: open_elsewhere``, ``holder``), in one
    sentence of the user's words: the window showed the core's English, the same thing twice and a
    bare pid (which the box keeps under its details). None for other facts."""
    if facts.get("refusal") != "open_elsewhere":
        return None
    if facts.get("holder") == "read_only":
        return _tr("The project is open read-only in another bertstudio window.")
    return _tr("The project is open in another bertstudio window, where it can be edited: close it there first, "
               "then open it here (it cannot be viewed here meanwhile, as its files change while it is edited).")


def changed_outside_text(facts: dict[str, Any]) -> str:
    """data/project_outside's refusal: another program (a git pull, a sync folder) changed the open project."""
    said = _tr("The project was changed outside bertstudio since it was opened (a git pull, a sync folder?): {file} "
               "is not the file bertstudio wrote. Nothing more is saved here, so the other side's files are not "
               "overwritten.").format(file=facts.get("changed", "project.json"))
    edits, kept = facts.get("edits", 0), facts.get("kept")
    # counted: English has no .qm for Qt's %n plural ("The 1 edit(s) made here")
    if edits and kept == "labels.journal":
        said += " " + counted(edits, _tr("The 1 edit made here and not yet saved into the data files is kept in %1; "
                                         "reopening the project applies it, or lists it if it cannot."),
                              _tr("The {n} edits made here and not yet saved into the data files are kept in %1; "
                                  "reopening the project applies them or lists each one it cannot.")).replace("%1", kept)
    elif edits and kept:  # a copy kept because the journal was replaced: the next open lists it, never applies it
        said += " " + counted(edits, _tr("The 1 edit made here and not yet saved into the data files is kept in %1; "
                                         "reopening the project lists it but does not apply it: make it again."),
                              _tr("The {n} edits made here and not yet saved into the data files are kept in %1; "
                                  "reopening the project lists each one but does not apply them: make them again.")
                              ).replace("%1", str(kept))
    elif edits:
        said += " " + _tr("The edits made here could not be kept: the project's journal was replaced.")
    return said + " " + _tr("Reopen the project (File > Open project…).")


def _edit_text(edit: dict[str, Any]) -> str:
    """One journal edit (data/project_outside.describe_edit's entry) in the user's words; the
    values are the user's data, quoted, bounded and with controls visible as the core shows them
    (errors.fact_text): a 2 MB row in a kept journal froze the recovery box."""
    op = edit.get("op")
    if op == "gold":
        value = edit.get("value")
        said = _tr("cleared") if value is None else fact_text(value)
        return _tr("{split} row {row}: {value}").format(split=split_name(fact_text(edit.get("split"), quoted=False)),
                                                       row=fact_text(edit.get("row"), quoted=False), value=said)
    if op == "rename_label":
        return _tr("label {old} renamed to {new}").format(old=fact_text(edit.get("old")), new=fact_text(edit.get("new")))
    if op == "add_label":
        return _tr("label {name} added").format(name=fact_text(edit.get("name")))
    if op == "remove_label":
        return _tr("label {name} removed").format(name=fact_text(edit.get("name")))
    if op == "set_color":
        return _tr("label {name} recoloured {color}").format(name=fact_text(edit.get("name")),
                                                             color=fact_text(edit.get("color"), quoted=False))
    # an edit of a newer version
    return _tr("{op} of label {name}").format(op=fact_text(op, quoted=False), name=fact_text(edit.get("name")))


def _unapplied_why(why: Any) -> str:
    return {"changed_outside": _tr("the project was changed outside bertstudio while they were made, and its "
                                   "journal was replaced"),
            "other_version": _tr("they were made on another version of project.json, which replaced it since: "
                                 "a git pull, a sync folder?")}.get(why, str(why))


def _counted(n: int, one: str, many: str, **names: Any) -> str:
    """sentences.counted for a sentence with other names in it too (counted formats ``{n}`` alone)."""
    return (one if n == 1 else many).format(n=f"{n:,}", **names)


def recovery_text(message: Any) -> str:
    """One of the messages a project's open gave (data/project recovery_messages) in the user's
    words: the journal edits it could not apply (data/project_outside's Said kinds), any other as
    the core wrote it."""
    kind, facts = getattr(message, "kind", None), getattr(message, "facts", {})
    if kind == "unapplied":
        return _counted(facts["edits"], _tr("{file}: 1 edit was not applied ({why}); it is kept in that file:"),
                        _tr("{file}: {n} edits were not applied ({why}); they are kept in that file:"),
                        file=facts["file"], why=_unapplied_why(facts.get("why")))
    if kind == "unapplied_edit":
        return _tr("{file}: edit {seq} not applied: {edit}").format(file=facts["file"], seq=facts["seq"],
                                                                     edit=_edit_text(facts["edit"]))
    if kind == "unapplied_more":
        return _counted(facts["edits"], _tr("{file}: 1 more edit not applied"),
                        _tr("{file}: {n} more edits not applied"), file=facts["file"])
    if kind == "kept_unread":
        return _tr("{file}: not read ({problem})").format(file=facts["file"], problem=facts["problem"])
    if kind == "kept_unlisted":
        return _counted(facts["journals"],
                        _tr("1 more kept journal is not listed here; its edits were not applied either (kept as "
                            "{pattern})"),
                        _tr("{n} more kept journals are not listed here; their edits were not applied either "
                            "(kept as {pattern})"), pattern=facts["pattern"])
    return str(message)


def project_refusal(exc: Any) -> str | None:
    """A project's refusal to write (data/project.READ_ONLY, project_store's disk errors), in the
    user's words from its facts; None for one not known here (shown as the core wrote it)."""
    refusal = getattr(exc, "facts", {}).get("refusal")
    if refusal == "read_only":
        return read_only_text()
    if refusal == "folder_moved":
        return _tr("The project folder was moved or renamed while it was open: reopen it from its new place "
                   "(what was saved went with it).")
    if refusal == "changed_outside":
        return changed_outside_text(exc.facts)
    if refusal == "open_elsewhere":
        return open_elsewhere_text(exc.facts)
    if refusal == "runs_is_file":
        return _tr("{path} is a file, not a folder: no run folder can be made in it. Move the file away.").format(
            path=exc.path)
    return None
