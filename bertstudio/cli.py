"""The headless command line over the core: train, evaluate, predict, glue, export-run
(and export-onnx, push-to-hub from :mod:`bertstudio.cli_export`, glue-submission from :mod:`bertstudio.cli_submit`).

Exit codes: 0 success; 2 bad arguments or bad data (one line on stderr, no
traceback; ``glue``: also a task asked for whose data is not there, said after the
scoreboard of the others); 1 a run that failed while training (``glue``: any task that did);
130 interrupted (Ctrl-C stops the run cooperatively after the current optimizer
step and keeps the model). Tracebacks go to the log file only (logsetup.py;
``--debug`` also prints them); the one-line message names that file.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import os
import re
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Sequence, TextIO

from bertstudio import cli_check, cli_export, cli_submit
from bertstudio.data.glue import ALSO_PREDICTED, PRESETS, path_problem
from bertstudio.data.shell import shell_quote
from bertstudio.errors import BertStudioError, ConfigError, DataError, disk_full_error
from bertstudio.metrics.display import format_metrics
from bertstudio.train.events import Evaluated, PhaseChanged, RunFinished, RunStarted, StepLogged

log = logging.getLogger("bertstudio")

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

class _Parser(argparse.ArgumentParser):
    """argparse that exits 2 with one line, as every other bad input does (its default printed the
    usage first: 28 lines for train), pointing at the command's --help."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        self.exit(EXIT_USAGE, f"bertstudio: error: {message} (see {self.prog} --help)\n")


# Which TrainConfig settings each command takes as flags; every flag is generated from the
# dataclass (train/config_flags.add_arguments), so a new setting reaches the CLI by itself.
_DATA = ("task", "glue_task", "data_dir", "eval_file", "data_format", "columns", "labels", "max_eval_examples")
_NOT_FOR_GLUE = frozenset({"task", "glue_task", "train_file", "eval_file", "data_dir", "data_format", "columns", "labels",
                           "hold_out", "resume_from", "seeds"})
_MODEL_FOLDER = "a model folder written by bertstudio (run/model)"


def build_parser() -> argparse.ArgumentParser:
    from dataclasses import fields

    from bertstudio.train.config import TrainConfig
    from bertstudio.train.config_flags import add_arguments

    settings = [f.name for f in fields(TrainConfig)]
    parser = _Parser(prog="bertstudio", description="Fine-tune BERT-style encoders. Without a command, opens the app.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    parser.add_argument("--quiet", action="store_true", help="no progress output")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("train", help="fine-tune a model")
    p.add_argument("--config", metavar="TOML", help="run config written by bertstudio or the app; flags override it")
    add_arguments(p, settings)

    p = sub.add_parser("evaluate", help="score a fine-tuned model on labelled data")
    add_arguments(p, ("model", *_DATA, "batch_size", "precision", "output_dir", "overwrite"), required=("model",),
                  help={"model": _MODEL_FOLDER + ", or an export's model.onnx", "output_dir": "write metrics.json and predictions.jsonl here",
                        "labels": "the model's label names in its id order, as a check (default: the model's own)",
                        "batch_size": "examples per forward pass (default: 64)",
                        "precision": "auto (as training runs on this machine: bf16 where the hardware is fast at it) | "
                                     "fp32 (exact) | bf16 | fp16"})

    p = sub.add_parser("predict", help="predict for typed text, a pair, tokens, or a question + context")
    add_arguments(p, ("model", "precision"), required=("model",),
                  help={"model": _MODEL_FOLDER + ", or an export's model.onnx",
                        "precision": "fp32 (default: exact, and one input costs little) | auto (as training runs on "
                                     "this machine: bf16 where the hardware is fast at it) | bf16 | fp16"})
    p.add_argument("--text")
    p.add_argument("--text-pair")
    p.add_argument("--tokens", help="space-separated words (tagging)")
    p.add_argument("--question")
    p.add_argument("--context")

    p = sub.add_parser("glue", help="fine-tune a list of GLUE tasks and print the scoreboard")
    p.add_argument("--tasks", default="CoLA,SST-2,MRPC,STS-B,QNLI,RTE,WNLI", help="comma-separated task names")
    p.add_argument("--data-dir", required=True, help="folder holding one sub-folder per task (GLUE layout)")
    p.add_argument("--convention", choices=("glue", "bert_paper"), default="glue")
    p.add_argument("--resume", action="store_true",
                   help="go on with an earlier glue run in --out: keep the tasks whose run finished, resume a "
                        "stopped one from its checkpoint, train the rest")
    add_arguments(p, [n for n in settings if n not in _NOT_FOR_GLUE], required=("output_dir",),
                  help={"output_dir": "one run folder per task is written under DIR"})

    p = sub.add_parser("export-run", help="write a self-contained run folder to start elsewhere")
    p.add_argument("--config", required=True, metavar="TOML")
    add_arguments(p, ("train_file", "eval_file", "data_dir"))  # files the config names outside its own folder
    p.add_argument("--out", required=True, metavar="DIR", dest="export_dir", help="the folder to write")
    cli_export.add_commands(sub)  # export-onnx, push-to-hub
    cli_check.add_commands(sub)  # label-errors
    cli_submit.add_commands(sub)  # glue-submission
    for command in sub.choices.values():  # after the command too: "train --quiet" was "unrecognized arguments"
        # SUPPRESS: not given here, the value before the command stands ("--quiet train" still quiet)
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks")
        command.add_argument("--quiet", action="store_true", default=argparse.SUPPRESS, help="no progress output")
    return parser


def config_from_args(args: argparse.Namespace) -> "Any":
    """TrainConfig from ``--config`` (if any) overridden by every flag that was given."""
    from bertstudio.train.config import read_settings
    from bertstudio.train.config_flags import given_settings

    given = given_settings(args)
    _refuse_a_resume_of_no_checkpoint(given.get("resume_from"), where="--resume")
    source = getattr(args, "config", None)
    if not source and given.get("resume_from"):  # --resume RUN/checkpoints/last alone: the run's own settings
        # (--help says the run continues in its own folder; it said "train_file: no training data")
        own = Path(given["resume_from"]).expanduser().resolve().parent.parent / "config.toml"
        # a folder, a FIFO or an empty file there is said as such: it read "no training data"
        source = str(own) if os.path.lexists(own) else None
    typed_file = bool(getattr(args, "config", None))  # an empty --config file is said as such, naming it
    from_file: dict[str, Any] = read_settings(source, given=given, refuse_empty=typed_file) if source else {}
    if source and not getattr(args, "config", None) and not from_file:
        raise ConfigError("the run's config.toml holds no settings", path=source,
                          expected="the config.toml the run wrote, or the settings given with --config")
    base = {**from_file, **given}
    resume = base.get("resume_from")
    if "resume_from" not in given:  # (a --config file's)
        _refuse_a_resume_of_no_checkpoint(resume, where="resume_from")
    if resume and base.get("output_dir"):
        # check_output_dir was given the new folder: "sm/W/checkpoints/best: the run's best checkpoint is missing"
        run = Path(str(resume)).expanduser().resolve().parent.parent
        if Path(str(base["output_dir"])).expanduser().resolve() != run:
            typed = "output_dir" in given  # from the file, "--resume without --out" named a flag never typed
            raise ConfigError(f"a resumed run continues in its own folder ({run}), not in {base['output_dir']}",
                              where="output_dir", path=None if typed else source,
                              expected="--resume without --out (its run folder is the checkpoint's)" if typed else
                              f"output_dir removed from that file (its run folder is the checkpoint's), or --out {run}")
    if not resume:  # a new run draws its hold-out by today's rule and records it; the file's is its old run's
        base.pop("hold_out_split", None)
    if resume and getattr(args, "config", None):
        # What --config and the flags leave open is the run's own (config.toml): the recipe bertstudio
        # chose for the first start, so the same command plus --resume is not refused as a change.
        own = Path(str(resume)).expanduser().resolve().parent.parent / "config.toml"
        if own.is_file() and own.resolve() != Path(source).expanduser().resolve():
            base = {**read_settings(str(own), given=set(base)), **base}
    try:
        config = _config_from(base)
        _refuse_unread_data(config)
        _refuse_unused_flags(config, given)
        if typed_file:
            _warn_unused_in_file(config, from_file, source)
        return config
    except ConfigError as exc:  # a bad choice in the file ("device = 'tpu'") names the file, as a bad type does
        if exc.path is None and source and exc.where in from_file:
            exc.path = str(source)
        raise


def _refuse_a_resume_of_no_checkpoint(resume: Any, *, where: str) -> None:
    """``--resume PATH`` is a checkpoint, asked first: every check after it reads the run's folder
    two levels up, so a mistyped path was answered about "/tmp/config.toml", or with advice to
    --out a folder that held no run, before "no resumable checkpoint here" came last. ``where``:
    the flag typed (``--resume``), or the key of the --config file that named it (``resume_from``)."""
    from bertstudio.train.rundir import CHECKPOINTS, find_checkpoint, finished_run_error, is_run_folder, run_finished

    if not resume:
        return
    path = Path(str(resume)).expanduser()
    if find_checkpoint(path) is not None:
        return
    last = path / CHECKPOINTS / "last"
    if path.is_dir() and find_checkpoint(last) is not None:
        raise ConfigError(f"is a run folder: resume from {last}", path=path, where=where,
                          expected="a run's checkpoints/last folder")
    if path.is_dir() and is_run_folder(path):  # its last checkpoint is gone: no path to point at
        if run_finished(path):  # (said as a resume of its checkpoints/best is)
            raise finished_run_error(path, where=where)
        raise ConfigError(f"is a run folder without a checkpoint to resume from ({last} is not there)", path=path,
                          where=where, expected="a run's checkpoints/last folder")
    # a mistyped path said "no resumable checkpoint here", as if there were something there
    problem = "no resumable checkpoint here" if os.path.lexists(path) else "does not exist"
    raise ConfigError(problem, path=path, where=where, expected="a run's checkpoints/last folder")


def _refuse_unread_data(config: "Any") -> None:
    """Data settings the run would silently not read (and config.toml would still record, as if
    they had been): ``--train`` beside a GLUE ``--data-dir`` (the folder's train.tsv won),
    ``--data-dir`` without a GLUE task, ``--hold-out`` beside evaluation data. A run being resumed
    keeps the settings it recorded."""
    if config.resume_from:
        return
    if config.data_dir and not config.glue_task:
        raise ConfigError("a data folder is read only for a GLUE task", where="data_dir",
                          expected="--glue-task with --data-dir, or --train FILE without --data-dir")
    glue_data = bool(config.glue_task and config.data_dir)
    if glue_data and config.train_file:
        raise ConfigError(f"both --train and --data-dir name training data (only {config.glue_task}'s train.tsv "
                          "would be read)", where="train_file", expected="--train FILE or --data-dir DIR, not both")
    if config.hold_out and (config.eval_file or glue_data):
        given = "--eval's file" if config.eval_file else f"{config.glue_task}'s dev.tsv"
        raise ConfigError(f"--hold-out would not be used: the run evaluates on {given}", where="hold_out",
                          expected="--hold-out or evaluation data, not both")


def _refuse_unused_flags(config: "Any", given: dict[str, Any]) -> None:
    """Flags the run would not read, as ``_refuse_unread_data`` refuses data it would not read:
    ``--lora-rank`` without ``--mode lora`` trained no adapter and was recorded as if it had (a
    file's such values are kept as they are: they change nothing, and Compare leaves them out)."""
    from bertstudio.train.config import LORA_SETTINGS, unused_settings

    if config.resume_from:
        return
    unusable = unused_settings(config.mode, config.task)
    unused = [name for name in given if name in unusable]
    if not unused:
        return
    lora = unused[0] in LORA_SETTINGS
    flags = ", ".join("--" + name.replace("_", "-") for name in unused if (name in LORA_SETTINGS) == lora)
    why = _unused_why(config, lora)
    raise ConfigError(f"{flags} would not be used: {why}", where=unused[0],
                      expected="--mode lora with them, or none of them" if lora
                      else "the flag left out (no GLUE task cuts windows)" if config.glue_task
                      else "--task qa with it, or without it")


def _unused_why(config: "Any", lora: bool) -> str:
    return f"--mode {config.mode} trains no LoRA adapters" if lora else f"a {config.task} run cuts no windows"


def _warn_unused_in_file(config: "Any", from_file: dict[str, Any], source: str) -> None:
    """A --config file's value the run will not read, said once (the same flag is refused): a file's
    doc_stride = 64 on a sentence task was recorded and silently unused. A run's own config.toml
    records every setting, LoRA's defaults included: a value at TrainConfig's default is not said."""
    from bertstudio.train.config import LORA_SETTINGS, TrainConfig, unused_settings

    if config.resume_from:
        return
    defaults = TrainConfig()
    unused = [name for name in sorted(unused_settings(config.mode, config.task) & set(from_file))
              if from_file[name] != getattr(defaults, name)]
    if unused:
        why = "; ".join(dict.fromkeys(_unused_why(config, name in LORA_SETTINGS) for name in unused))
        log.warning("%s: %s would not be used (%s)", source,
                    ", ".join(f"{name} = {from_file[name]!r}" for name in unused), why)


def _kind_of_mapping(columns: dict[str, Any] | None, found: Any) -> str | None:
    """The task kind a --columns mapping reads, where it says one: the guess from the file's
    header ("pair" for a 3-column table of unknown names) lost to text=...,label=... and said
    "column mapping lacks text_pair"; None when the mapping names no input. ``found``: the
    file's preview. Two texts and a label of decimal numbers read as scores (regression), not
    as a class per number."""
    from bertstudio.data.formats.table import decimal_scores
    from bertstudio.data.kinds import KIND_SPECS

    if not columns:
        return None
    guessed = found.suggested_kind
    given = set(columns)
    fits = [name for name, spec in KIND_SPECS.items()
            if set(spec.inputs) <= given and given <= set(spec.columns)]
    if guessed in fits:
        return guessed
    if "text_pair" in given and "regression" in fits and decimal_scores(found.columns, found.rows, columns.get("label")):
        return "regression"
    return min(fits, key=lambda name: len(KIND_SPECS[name].columns), default=None) if fits else None


def _config_from(base: dict[str, Any]) -> "Any":
    from bertstudio.train.config import TrainConfig

    if "data_format" in base:  # checked before the file is read: an unknown one fell through to the SQuAD reader
        TrainConfig(data_format=base["data_format"])
    if base.get("glue_task") and "task" not in base:
        from bertstudio.data.glue import get_preset

        preset = get_preset(base["glue_task"])
        base["task"] = preset.kind
        base["glue_task"] = preset.name
    elif "task" not in base and base.get("train_file"):
        # No --task: the file says what it is (CoNLL is tagging, SQuAD is QA, two text columns a pair...).
        from bertstudio.data.io import preview

        found = preview(base["train_file"], fmt=base.get("data_format", "auto"))
        base["task"] = _kind_of_mapping(base.get("columns"), found) or found.suggested_kind or "sentence"
        if not found.preset:  # a guess between scores and classes is said, with the flag that decides it
            from bertstudio.data.formats.table import gold_reading

            reading = gold_reading(base["task"], found.columns, found.rows, base.get("columns") or found.suggested_columns)
            if reading:
                log.warning("%s: %s", Path(base["train_file"]).name, reading)
        if found.preset and not base.get("glue_task"):
            base["glue_task"] = found.preset
    return TrainConfig.from_dict(base)


_PHASES = {"loading_model": "loading the model…", "setfit": "SetFit: contrastive fine-tuning, {n} steps…",
           "probing": "fitting the head on the frozen encoder's vectors…", "tokenising": "tokenising {n} examples…",
           "evaluating": "evaluating {n} batches…", "saving": "saving…"}


def _bar(fraction: float, width: int = 24) -> str:
    done = int(fraction * width)
    return "#" * done + "-" * (width - done)


class ProgressPrinter:
    """Prints engine events: a one-line bar on a terminal, a line per log event otherwise."""

    def __init__(self, stream: TextIO | None = None, quiet: bool = False, chosen: str = "",
                 transient: bool = False, epochs: float | None = None, resumed_at: int | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr  # the one of now (a test's, a redirect's)
        self.tty = self.stream.isatty()
        # transient: phases on one line of a terminal that the command clears, nothing in a log (evaluate:
        # its output is the metrics, and a bad input stays one line)
        self.transient = transient
        self.quiet = quiet or (transient and not self.tty)
        self.chosen = chosen  # what train/small_data chose and why: said once the model has loaded
        self.epochs = epochs  # as set (2.5): the run's start counts the epochs begun (3)
        self.resumed_at = resumed_at  # the step a resumed run goes on from (its checkpoint's)

    def _say_chosen(self) -> None:
        if self.chosen:
            self._line(f"settings chosen for this data: {self.chosen}")
            self.chosen = ""

    def __call__(self, event: Any, control: Any) -> None:
        if self.quiet:
            return
        if isinstance(event, PhaseChanged) and event.phase not in ("loading_model", "reusing_model"):
            # not before the model loaded (a model or data the run refuses is then the only line), and
            # not only at the start of the steps: SetFit's phase before them lasts minutes on a CPU
            self._say_chosen()
        if isinstance(event, RunStarted):
            self._say_chosen()
            self._line(
                f"training {event.num_train_examples} examples for "
                f"{event.epochs if self.epochs is None else format(self.epochs, 'g')} epoch(s), {event.total_steps} steps, "
                f"batch {event.effective_batch_size}, on {event.device} ({event.precision}); "
                f"trainable parameters {event.trainable_params:,} / {event.total_params:,}"
            )
            if self.resumed_at is not None:  # the line above counts the whole run: "16000 steps" read as a restart
                self._line(f"resumed from step {self.resumed_at:,} of {event.total_steps:,}")
        elif isinstance(event, StepLogged):
            bar = _bar(event.step / max(event.total_steps, 1))
            eta = time.strftime("%H:%M:%S", time.gmtime(max(event.eta_s, 0)))
            text = (f"[{bar}] step {event.step}/{event.total_steps} epoch {event.epoch:.2f} loss {event.loss:.4f} "
                    f"lr {event.lr:.2e} {event.examples_per_s:.0f} ex/s ETA {eta}")
            if self.tty:
                self.stream.write("\r" + text)
                self.stream.flush()
            else:
                self._line(text)
        elif isinstance(event, Evaluated):
            self._line(f"eval at step {event.step}: " + format_metrics(event.metrics, digits=2))
        elif isinstance(event, PhaseChanged):
            if event.done == 0:  # one line as each phase begins (per batch would flood a log file)
                self._line(_PHASES.get(event.phase, event.phase).format(n=event.total))
                self._phase_line_at = time.monotonic()
            elif event.total:  # how far: a bar on a terminal, a line every half minute in a log
                self._phase_progress(event)
        elif isinstance(event, RunFinished) and event.status != "failed":  # a failure: the command's one error line
            said = f"run {event.status} at step {event.step}"
            # the engine's message for a cancel is "cancelled at step N": "run cancelled at step 289: cancelled at step 289"
            self._line(said + (f": {event.message}" if event.message and event.message not in said else ""))
            if event.best_step is not None:  # the metrics printed next are not the last eval line's
                when = ("step 0: the head fitted on the frozen encoder, which no fine-tuning step beat"
                        if event.best_step == 0 else f"step {event.best_step}")
                # their score is the best of several looks at this evaluation set: the last look goes beside it
                last = (f"; the last evaluation's: {format_metrics(event.last_metrics, digits=2)}"
                        if event.last_metrics else "")
                self._line(f"kept the best evaluation's weights, from {when} (--no-save-best keeps the "
                           f"last); the model and metrics below are theirs, selected on this evaluation set{last}")
            if event.one_answer:  # the metric is honest (MCC about 0) but says nothing of a constant model
                self._line(event.one_answer)

    _phase_line_at = 0.0

    def _phase_progress(self, event: PhaseChanged) -> None:
        """An evaluation of 1,053 batches was 131 s without a word (the phase's first line only)."""
        now, done = time.monotonic(), event.done >= event.total
        if self.tty:
            if done or now - self._phase_line_at >= 0.2:
                self.stream.write(f"\r[{_bar(event.done / event.total)}] {event.phase} {event.done}/{event.total}")
                self.stream.flush()
                self._phase_line_at = now
        elif now - self._phase_line_at >= 30 and not done:
            self._line(f"{event.phase}: {event.done}/{event.total}")
            self._phase_line_at = now

    def _line(self, text: str) -> None:
        if self.tty:
            self.stream.write("\r\x1b[K")
        self.stream.write(text + ("" if self.transient else "\n"))
        self.stream.flush()


def _with_interrupt(cancel: threading.Event) -> dict[int, Any]:
    """Ctrl-C sets the cancel flag (the loop stops after the current step, keeping the model).
    SIGTERM and SIGHUP do too: ``kill``, ``timeout``, ``docker stop``, a cluster scheduler and a
    closed terminal end a job with them, which killed a one-process run mid-step (no model/, the
    work since the last evaluation lost, nothing resumable without evaluation data). Under a
    launcher (``accelerate launch``, torchrun) a Ctrl-C is passed on as SIGINT and, milliseconds
    later, SIGTERM: that is one request, not a second one. A signal the caller ignores stays
    ignored: ``nohup`` (or ``trap '' HUP``) ignores SIGHUP so that a run outlives its terminal, and
    a background job ignores SIGINT; replacing SIG_IGN ended a nohup'd run at the first logout.
    Returns the handlers replaced, to put back."""
    from bertstudio.train.distributed import launched_rank, launched_world_size

    def say(text: str) -> None:
        try:
            sys.stderr.write(text)
            sys.stderr.flush()
        except (OSError, ValueError):  # the terminal is gone
            pass

    ctrl_c = threading.Event()

    def handler(signum: int, frame: Any) -> None:
        if ctrl_c.is_set():  # second Ctrl-C: give up at once
            raise KeyboardInterrupt
        ctrl_c.set()
        if launched_rank() == 0:
            say("\nstopping after this step (Ctrl-C again to abort)\n")
        cancel.set()

    terminals = [fd for fd in (1, 2) if _is_terminal(fd)]  # asked now: a hung-up terminal answers no tty

    def terminated(signum: int, frame: Any) -> None:
        # Never escalated: bash passes its SIGHUP on to its jobs and the kernel sends one to the
        # foreground group, and supervisors send SIGTERM with SIGHUP, so one closed terminal is
        # several signals; raising on the second stopped the run mid-step without saving it.
        # Whoever wants it gone at once sends SIGKILL (a launcher, timeout -k, a scheduler).
        if hasattr(signal, "SIGHUP") and signum == signal.SIGHUP:
            _detach_from(terminals)
        if not cancel.is_set() and launched_rank() == 0:
            launched = launched_world_size() > 1
            why = "the launcher asked the processes to end" if launched else f"{signal.Signals(signum).name} received"
            say(f"\nstopping after this step ({why})\n")
        cancel.set()

    previous: dict[int, Any] = {}
    wanted = [(signal.SIGINT, handler), (signal.SIGTERM, terminated)]
    if hasattr(signal, "SIGHUP"):  # not on Windows
        wanted.append((signal.SIGHUP, terminated))
    for signum, slot in wanted:
        try:
            if signal.getsignal(signum) is signal.SIG_IGN:
                continue
            previous[signum] = signal.signal(signum, slot)
        except ValueError:  # not the main thread (e.g. called from a test thread)
            break
    return previous


def _is_terminal(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def _detach_from(terminals: list[int]) -> None:
    """After a hang-up, what was written to the terminal goes to os.devnull (as nohup does): the
    end-of-run report to a terminal that no longer exists raised EIO, and a saved run exited 1
    with an "unexpected error". A stdout redirected to a file keeps it."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        for fd in terminals:
            try:
                os.dup2(null, fd)
            except OSError:
                pass
    finally:
        os.close(null)


def _settings_given(args: argparse.Namespace) -> set[str]:
    """The settings the user chose: flags typed and what a --config file holds."""
    from bertstudio.train.config import read_settings
    from bertstudio.train.config_flags import given_settings

    given = set(given_settings(args))
    if getattr(args, "config", None):
        given |= set(read_settings(args.config, given=given))
    return given


def _refuse_a_project_run_without_its_rows(config: "Any", args: argparse.Namespace) -> None:
    """A run the app started trained on its project's rows, which its config.toml does not name:
    re-run with --config (or resumed), it said only "no training data". The way out is said."""
    from bertstudio.data.project_meta import PROJECT_FILE
    from bertstudio.data.project_store import RUNS_DIR

    if config.train_file or (config.glue_task and config.data_dir):
        return
    source = getattr(args, "config", None)
    if source:
        run = Path(source).expanduser().resolve().parent
    elif config.resume_from:
        run = Path(config.resume_from).expanduser().resolve().parent.parent
    else:
        return
    if run.parent.name != RUNS_DIR or not (run.parent.parent / PROJECT_FILE).is_file():
        return
    if config.resume_from:
        # --train FILE would be refused as a changed setting (train_file): no way to resume it is offered
        raise ConfigError("this run trained on its project's rows, which its config.toml does not name, so it "
                          "cannot be resumed from the command line", path=source or run / "config.toml", where="train_file",
                          expected="resume it in the app (Runs page, select it, Resume), or a new run: Export run… "
                                   "on the app's Train page and train the exported run.toml with bertstudio train --config")
    raise ConfigError("this run trained on its project's rows, which its config.toml does not name",
                      path=source or run / "config.toml", where="train_file",
                      expected="Export run… on the app's Train page, which writes the rows beside a run.toml "
                               "that trains here, or --train FILE (and --eval FILE)")


def _refuse_a_resume_without_its_config(config: "Any", args: argparse.Namespace) -> None:
    """``--resume RUN/checkpoints/last`` alone goes on with the run's own settings, from its
    config.toml: with that file gone it said "train_file: no training data"."""
    if not config.resume_from or getattr(args, "config", None) or config.output_dir:
        return  # settings given, or a run folder named (check_output_dir says what it lacks)
    own = Path(config.resume_from).expanduser().resolve().parent.parent / "config.toml"
    if not os.path.lexists(own):  # (config.resume_from is --resume's here: no --config was given)
        raise ConfigError("the run's config.toml is missing", path=own, where="--resume",
                          expected="the config.toml the run wrote (a resumed run goes on with its own settings), "
                                   "or those settings with --config FILE")


# Flags that leave a --config file's auto_reason true: where and how the run goes, not what it learns from or how.
_KEEPS_REASON = frozenset({"output_dir", "overwrite", "resume_from", "device", "precision", "seed", "seeds",
                           "logging_steps", "sparse_embeddings", "group_by_length"})
# Flags that change the rows Automatic chose a --config file's recipe for (how many, which, how read,
# or the model that reads them)
_CHANGES_DATA = frozenset({"train_file", "eval_file", "data_dir", "glue_task", "task", "data_format", "columns",
                           "labels", "max_train_examples", "hold_out", "model"})


def cmd_train(args: argparse.Namespace, out: TextIO) -> int:
    from dataclasses import replace

    from bertstudio.train.config_flags import given_settings
    from bertstudio.train.distributed import launched_world_size
    from bertstudio.train.engine import train
    from bertstudio.train.rundir import check_output_dir
    from bertstudio.train.small_data import (adapt, chosen_settings, has_pairs, label_counts, model_max_length,
                                             run_max_length, text_lengths, training_units, unadapted)
    from bertstudio.train.sources import load_sets

    config = config_from_args(args)
    given, typed = _settings_given(args), set(given_settings(args))
    if config.auto_reason and typed - _KEEPS_REASON:
        # the file's record of an earlier choice (an app's Export run…) does not describe a run
        # whose data or settings the flags changed; adapt() below writes this run's own, if any
        if typed & _CHANGES_DATA and not config.resume_from:
            # and what it chose fitted the file's data: 50 epochs for 40 rows ran 1250 steps on 400,
            # evaluated 83 times, as if typed. Chosen again for this data (the new reason is said).
            given -= chosen_settings(config) - typed
            config = unadapted(config, given)
        config = replace(config, auto_reason=None)
    _refuse_a_project_run_without_its_rows(config, args)
    _refuse_a_resume_without_its_config(config, args)
    train_set = eval_set = None
    if not config.resume_from:  # a resumed run keeps its own settings
        # Settings that fit the data (train/small_data.py), for what the flags and --config leave open
        if config.output_dir:  # a refused folder is the one line said: no warnings about the data before it
            check_output_dir(config)
        train_set, eval_set = load_sets(config)
        if not config.output_dir:  # it trained, said "saving..." and kept nothing, exit status 0
            raise ConfigError("no run folder to keep the trained model in", where="output_dir",
                              expected="--out DIR (or output_dir in --config's file)")
        config = adapt(config, label_counts(train_set), given=given,
                       units=training_units(train_set, config), lengths=text_lengths(train_set),
                       model_limit=model_max_length(config.model), run_limit=run_max_length(config.model),
                       evaluates=eval_set is not None, pairs=has_pairs(train_set),
                       processes=launched_world_size())
        _warn_unreadable_text(config, train_set)
    if config.method == "setfit" and launched_world_size() > 1:
        raise ConfigError(f"SetFit trains in one process, and {launched_world_size()} were launched (its contrastive "
                          "phase leaves accelerate's process group: each process then trained alone as the main one)",
                          where="method", expected="bertstudio train without accelerate launch, or --method finetune")
    cancel = threading.Event()
    previous = _with_interrupt(cancel)
    try:
        if config.seeds > 1:
            return _train_seeds(config, train_set, eval_set, args, cancel, out)
        result = train(config, train_set, eval_set, callbacks=[_printer(config, args)], cancel=cancel)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return _report_result(result, out)


def _warn_unreadable_text(config: Any, train_set: Any) -> None:
    """Say, before the run, when the model's vocabulary maps much of the text to [UNK] (the
    bundled English MiniLM on Chinese reviews: ~63%), as Import and the Train page do: the
    command trained on it in silence. A tokenizer that cannot be read is the run's to report."""
    from bertstudio.tasks.vocabulary import check_model_vocabulary, sample_texts

    try:
        check = check_model_vocabulary(config.model, sample_texts(train_set))
    except ConfigError:
        return
    if check.warn:
        log.warning("%s", check.describe())


def _printer(config: Any, args: argparse.Namespace) -> ProgressPrinter:
    from bertstudio.train.distributed import launched_rank

    # one process of a data-parallel run says it: each of N printed every phase line
    resumed_at = None
    if config.resume_from:
        from bertstudio.train.rundir import read_state

        try:
            resumed_at = int(read_state(config.resume_from).get("step", 0))
        except (ConfigError, TypeError, ValueError):  # the engine refuses such a checkpoint in its own words
            resumed_at = None
    return ProgressPrinter(quiet=args.quiet or launched_rank() != 0, chosen=config.auto_reason or "",
                           epochs=config.epochs, resumed_at=resumed_at)


def _train_seeds(config: Any, train_set: Any, eval_set: Any, args: argparse.Namespace, cancel: threading.Event,
                 out: TextIO) -> int:
    """``--seeds N``: the runs one after another, then the main metric's mean and spread."""
    from bertstudio.train.distributed import launched_rank
    from bertstudio.train.seeds import train_seeds

    result = train_seeds(config, train_set, eval_set, callbacks=[_printer(config, args)], cancel=cancel)
    if launched_rank() != 0:  # the main process says the runs' results (the others hold the last evaluation's)
        out = io.StringIO()
    for seed in result.values:  # x100 as the evaluation lines above them (digits=2), not fractions
        print(result.seed_line(seed, digits=2), file=out)
    print(result.summary(digits=2), file=out)
    if result.status == "failed":
        print(f"error: {result.message}", file=sys.stderr)
    return _exit_code(result.results[-1])


def _report_result(result: Any, out: TextIO) -> int:
    from bertstudio.train.distributed import launched_rank

    if launched_rank() != 0:
        # a data-parallel run's other processes: the metrics they hold are the last evaluation's,
        # not the best one's the run kept, and stdout held two JSON documents; errors still show
        out = io.StringIO()
    if result.metrics:
        out.write(json.dumps(result.metrics, indent=2, sort_keys=True) + "\n")
    code = _exit_code(result)
    # a run refused for its input wrote nothing (the config.toml there may be an earlier run's)
    if code != EXIT_USAGE and result.output_dir and os.path.isfile(os.path.join(result.output_dir, "config.toml")):
        out.write(f"run folder: {result.output_dir}\n")
    if code == EXIT_USAGE:  # the user's input, not the run, is at fault
        sys.stderr.write(f"bertstudio: error: {result.error}\n")
    elif code == EXIT_FAILED:
        sys.stderr.write(f"bertstudio: run failed: {result.message}{_details()}\n")
    return code


def _exit_code(result: Any) -> int:
    if result.status == "failed":
        return EXIT_USAGE if isinstance(result.error, (DataError, ConfigError)) else EXIT_FAILED
    return EXIT_INTERRUPTED if result.status == "cancelled" else EXIT_OK


_tracebacks_before = 0  # the log file's traceback count when this command started


def _details() -> str:
    """' (details in LOG)' when a traceback was written to the log file during this command."""
    from bertstudio.logsetup import tracebacks_logged, where_to_look

    return where_to_look() if tracebacks_logged() > _tracebacks_before else ""


def _one_process(command: str) -> None:
    """``evaluate``, ``predict`` and ``glue`` run in one process: under a launcher each of N ran
    the whole of it and printed it N times (glue's second process found the folder locked)."""
    from bertstudio.train.distributed import launched_world_size

    if launched_world_size() > 1:
        raise ConfigError(f"bertstudio {command} runs in one process, and {launched_world_size()} were launched",
                          where="command", expected=f"bertstudio {command} without accelerate launch")


def cmd_evaluate(args: argparse.Namespace, out: TextIO) -> int:
    _one_process("evaluate")
    from bertstudio.tasks.model import saved_model_info
    from bertstudio.train.config import check_setting
    from bertstudio.train.engine import EVAL_BATCH_SIZE, evaluate
    from bertstudio.train.rundir import write_results

    batch_size = check_setting("batch_size", EVAL_BATCH_SIZE if args.batch_size is None else args.batch_size)
    max_examples = check_setting("max_eval_examples", args.max_eval_examples)
    folder = _evaluation_folder(args) if args.output_dir else None
    onnx = _is_onnx(args.model)
    if onnx:  # "expected its model file, model.int8.onnx, for predict and evaluate", then "not a model folder"
        from bertstudio.train.onnx_export import evaluate_onnx, read_meta

        if args.precision not in (None, "auto"):
            raise ConfigError("an ONNX file runs in the precision it was exported in", where="--precision",
                              expected="model.onnx (fp32) or model.int8.onnx, without --precision")
        meta = read_meta(Path(args.model).expanduser().parent)
        kind, labels, glue_task = str(meta["kind"]), list(meta["labels"]), meta.get("glue_task")
    else:
        kind, labels, glue_task = saved_model_info(args.model)
    if args.task and args.task != kind:  # before the file is read with the model's labels ("unknown label 'O'")
        raise ConfigError(f"the model predicts {kind!r} but the data is {args.task!r}",
                          path=args.eval_file or args.data_dir, where="--task", expected=f"{kind} data")
    examples = _load_eval_examples(args, kind=args.task or kind, labels=labels, glue_task=args.glue_task or glue_task,
                                   max_examples=max_examples)
    printer = ProgressPrinter(quiet=args.quiet, transient=True)
    phases = [lambda event, _control=None: printer(event, None) if isinstance(event, PhaseChanged) else None]
    try:
        if onnx:
            metrics, predictions = evaluate_onnx(Path(args.model).expanduser(), examples, batch_size=batch_size)
        else:  # (the phases and their progress on stderr: 67,000 rows were 157 s of silence)
            metrics, predictions = evaluate(args.model, examples, batch_size=batch_size,  # cut as the model was trained
                                            precision=args.precision or "auto", callbacks=phases)
    finally:
        if not printer.quiet:  # the phase's line cleared, also before an error's line
            sys.stderr.write("\r\x1b[K")
    if folder is not None:
        write_results(folder, metrics, predictions)
    if not args.quiet:  # what the numbers are over (a row without a gold value was left out without a word)
        sys.stderr.write(_scored_line(examples, predictions) + "\n")
    out.write(json.dumps(metrics, indent=2, sort_keys=True) + "\n")
    return EXIT_OK


def _is_onnx(model: str | Path) -> bool:
    """``--model`` names an export's model file (model.onnx, model.int8.onnx), as predict takes it."""
    return Path(model).suffix.lower() == ".onnx"


def _scored_line(examples: Any, predictions: list[dict[str, Any]] | None = None) -> str:
    """What the numbers are over, and why a correlation reads 0 where it is undefined."""
    gold = examples.dataset.with_format("arrow")[examples.gold_column]
    scored = len(gold) - gold.null_count
    line = f"scored {scored} row{'s' if scored != 1 else ''} with a gold value"
    if scored < len(gold):
        line += f"; {len(gold) - scored} without one left out"
    if examples.spec.gold.name == "score":
        from bertstudio.metrics.regression import undefined_correlation

        why = "too_few" if scored < 2 else None
        if why is None and predictions is not None:  # a prediction row per example, in their order
            pairs = [(g, p["score"]) for g, p in zip(gold.to_pylist(), predictions) if g is not None]
            why = undefined_correlation([g for g, _ in pairs], [s for _, s in pairs])
        line += {"too_few": "; a correlation needs at least 2 rows, so Pearson and Spearman read 0",
                 "one_prediction": "; the model predicts one value for every example, so correlations are "
                                   "undefined (Pearson and Spearman shown as 0)",
                 "one_gold": "; every gold score is the same, so correlations are undefined (Pearson and "
                             "Spearman shown as 0)"}.get(why or "", "")
    elif examples.spec.gold.classes and predictions is not None:
        from bertstudio.metrics.classification import one_answer

        name = examples.spec.gold.name
        answer = one_answer(gold.to_pylist(), [p.get(name) for p in predictions])
        line += f"; {answer.sentence()}" if answer else ""
    return line


def _evaluation_folder(args: argparse.Namespace) -> Path:
    """``--out`` for evaluate: files of the same names there are replaced only with --overwrite."""
    from bertstudio.train.rundir import METRICS, PREDICTIONS, run_folder_around, writer_active

    from bertstudio.data.atomic import check_folder_path

    folder = check_folder_path(args.output_dir, where="--out")  # before the evaluation, not after it; a file is refused
    if folder.is_dir() and writer_active(folder):  # the training would replace the evaluation's files at its end
        raise ConfigError("a training is writing this folder now", path=folder, where="--out",
                          expected="another folder, or wait until that run has ended")
    model = Path(args.model).expanduser()
    if _is_onnx(model):  # an export's folder goes up whole too
        model = model.parent
    elif model.is_dir() and not (model / "config.json").is_file():
        # no model folder (a run's, an export's): its own error first, not "--out is inside the model folder"
        from bertstudio.tasks.model import inspect_model_folder

        inspect_model_folder(model)
    if model.is_dir() and (folder.resolve() == model.resolve() or folder.resolve().is_relative_to(model.resolve())):
        # push-to-hub would upload the rows (a sub-folder too: it pushes the whole folder)
        inside = "is" if folder.resolve() == model.resolve() else "is inside"
        raise ConfigError(f"{inside} the model folder: the predictions (your evaluation rows) would be kept, and "
                          "uploaded, with the model", path=folder, where="--out", expected="another folder")
    run = run_folder_around(folder)
    if run is not None:  # --overwrite replaced the training's scores and predictions, which the Runs page, Compare
        # and the model card then showed as the run's own; so did those of its checkpoints/best (the Results page's
        # rows), of its mismatched/ (MNLI-mm) and of a run whose history.jsonl was cut short
        problem = (f"is a training run's folder: its {METRICS} and {PREDICTIONS} are the run's record"
                   if run == folder.resolve() else
                   f"is inside a training run's folder ({run}): the files there are the run's record")
        raise ConfigError(problem, path=folder, where="--out", expected="another folder")
    other = _model_folder_around(folder)
    if other is not None:  # another model's folder goes up whole too (--out runA/model beside runB's weights)
        inside = "is a model folder" if other == folder.resolve() else f"is inside a model folder ({other})"
        raise ConfigError(f"{inside}: the predictions (your evaluation rows) would be kept, and "
                          "uploaded, with that model", path=folder, where="--out", expected="another folder")
    taken = [n for n in (METRICS, PREDICTIONS) if os.path.lexists(folder / n)]
    read = Path(args.eval_file).expanduser() if getattr(args, "eval_file", None) else None
    mine = next((n for n in taken if read is not None and read.exists() and os.path.samefile(folder / n, read)), None)
    if mine is not None:  # --overwrite would replace the data being read
        raise ConfigError("is the evaluation file itself, so it is not replaced", path=folder / mine, where="--out",
                          expected="another folder")
    odd = next((n for n in taken if not (folder / n).is_file() or (folder / n).is_symlink()), None)
    if odd is not None:  # --overwrite replaces files; a folder or link of that name is the user's
        raise ConfigError("is not a plain file, so it is not replaced", path=folder / odd, where="--out",
                          expected="another folder")
    if taken and not args.overwrite:
        raise ConfigError(f"the folder already holds {' and '.join(taken)}", path=folder, where="--out",
                          expected="another folder, or --overwrite to replace them")
    return folder


def _model_folder_around(folder: Path) -> Path | None:
    """The model folder (config.json and weights, or an ONNX export) that ``folder`` is or lies
    inside, links followed; None where there is none."""
    from bertstudio.tasks.model import WEIGHT_FILES, is_onnx_export
    from bertstudio.train.rundir import folder_around

    return folder_around(folder, lambda candidate: (
        (candidate / "config.json").is_file() and any((candidate / w).is_file() for w in WEIGHT_FILES))
        or is_onnx_export(candidate))


def _load_eval_examples(args: argparse.Namespace, *, kind: str, labels: list[str], glue_task: str | None,
                        max_examples: int | None) -> Any:
    from dataclasses import replace

    from bertstudio.data.glue import eval_split, get_preset, load_glue, preset_for_path
    from bertstudio.data.io import load_examples
    from bertstudio.train.sources import check_scorable

    given = args.labels
    if given is not None and (any(not str(x).strip() for x in given) or len(set(given)) != len(given)):
        # "pos,pos" said "unknown label 'neg' (expected one of 'pos', 'pos')", as if the file were wrong
        raise ConfigError(f"labels {given!r} are not a list of distinct names", where="--labels",
                          expected="names such as neg,pos, each once")
    if given is not None and list(given) != list(labels):
        # the model's ids name its labels: another order was accepted and silently read by name, as if
        # it meant something (the help says "in id order"); a name it lacks read a row it cannot predict
        model_order = ",".join(labels) if labels else "none (its kind has no label set)"
        raise ConfigError(f"labels {','.join(given)} are not the model's labels in its id order ({model_order})",
                          where="--labels", expected=f"--labels {','.join(labels)}, or no --labels (the model's)"
                          if labels else "no --labels")
    if args.eval_file and args.data_dir:  # the folder was silently not read
        raise ConfigError("both --eval and --data-dir name evaluation data (only --eval's file would be read)",
                          where="--data-dir", expected="--eval FILE or --glue-task with --data-dir, not both")
    if args.eval_file:
        # the GLUE layout when asked for, or where the GLUE release puts the file; the model's own
        # glue_task alone does not make a user's CSV a GLUE TSV ("found 2 columns (expected 10)")
        said = args.glue_task or args.data_format == "glue" or preset_for_path(args.eval_file) is not None
        if glue_task and said and args.data_format in (None, "auto", "glue") and not args.columns:
            # the split the file is (test.tsv: unlabelled), not always dev: a test file read with dev's
            # layout said "found 3 columns (expected 4 columns)"
            examples = load_glue(glue_task, args.eval_file, split=eval_split(get_preset(glue_task), args.eval_file))
        else:
            examples = load_examples(args.eval_file, kind=kind, fmt=args.data_format or "auto", columns=args.columns,
                                     labels=args.labels or labels or None)
    elif glue_task and args.data_dir:
        examples = load_glue(glue_task, args.data_dir, split="dev")
    else:
        raise ConfigError("nothing to evaluate on", where="arguments", expected="--eval FILE, or --glue-task with --data-dir")
    if max_examples is not None:
        examples = examples.head(max_examples)
    if not examples.source:
        examples = replace(examples, source=str(args.eval_file or args.data_dir))
    # metrics of nothing printed "{}" with exit 0, a label column under another name unread
    check_scorable(examples, where="--eval" if args.eval_file else "--data-dir")
    return examples


def cmd_predict(args: argparse.Namespace, out: TextIO) -> int:
    _one_process("predict")
    given = {k: getattr(args, k) for k in ("text", "text_pair", "question", "context") if getattr(args, k) is not None}
    if not given and args.tokens is None:
        raise ConfigError("nothing to predict", where="arguments", expected="--text [--text-pair], --tokens, or --question with --context")
    predictor = cli_export.predictor_for(args.model, precision=args.precision)
    if args.tokens is not None:  # typed Chinese per character where the model was trained so, as the Playground reads it
        from bertstudio.tasks.typed_words import read_words, saved_cjk_words, whole_cjk_words

        given["tokens"] = read_words(args.tokens, saved_cjk_words(getattr(getattr(predictor, "model", None), "config", None)))
        for word in whole_cjk_words(given["tokens"]):
            sys.stderr.write(f"--tokens: {word!r} was read as one word: separate words with spaces\n")
    prediction = predictor.predict(**given)
    out.write(json.dumps(prediction, ensure_ascii=False, indent=2) + "\n")
    return EXIT_OK


def cmd_glue(args: argparse.Namespace, out: TextIO) -> int:
    _one_process("glue")  # each process took the folder lock (the second failed) and wrote scoreboard.json
    from bertstudio.data.atomic import check_folder_path
    from bertstudio.data.glue import get_preset
    from bertstudio.data.project_lock import RUN_LOCK_FILE, unlock_folder
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.config_flags import given_settings
    from bertstudio.train.rundir import hold_run_folder

    data_dir = Path(args.data_dir)
    root = check_folder_path(args.output_dir, where="--out")  # a file, a dangling link...: before any task trains
    settings = {k: v for k, v in given_settings(args).items() if k not in ("data_dir", "output_dir")}
    asked = [get_preset(t.strip()) for t in args.tasks.split(",") if t.strip()]
    if not asked:  # --tasks "" ran nothing, then blamed the data folder
        raise ConfigError("no task named", where="--tasks", expected="comma-separated GLUE task names, e.g. SST-2,RTE")
    presets = _trained_tasks(asked)
    configs = [TrainConfig(task=preset.kind, glue_task=preset.name, data_dir=str(_task_folder(data_dir, preset)),
                           output_dir=str(root / preset.name), **settings) for preset in presets]  # every setting checked first
    for config in configs:
        _refuse_unused_flags(config, settings)
    configs = _fit_to_the_model(configs, given=set(settings))
    if args.resume and settings.get("overwrite"):
        raise ConfigError("--resume keeps the finished tasks' runs and --overwrite replaces them", where="--resume",
                          expected="one of them")
    _check_glue_places(data_dir, root, asked, overwrite=bool(settings.get("overwrite")), resume=args.resume)
    made = not root.exists()
    root.mkdir(parents=True, exist_ok=True)
    # a second glue into this --out would mix its tasks in and replace the scoreboard; refused, it
    # leaves the folder alone (the glue holding it may have made it a moment ago)
    lock = hold_run_folder(root, where="--out", what="folder")
    try:
        return _glue_tasks(args, out, root, data_dir, presets, configs, asked=[p.name for p in asked])
    finally:
        # refused before any task ran: no empty folder left, removed under the lock (on Windows the
        # lock is a file in it, removed when let go, so the folder is removed after)
        empty = made and all(entry.name == RUN_LOCK_FILE for entry in root.iterdir())
        if empty and not (root / RUN_LOCK_FILE).exists():
            root.rmdir()
        unlock_folder(lock)
        if empty and root.exists():
            with contextlib.suppress(OSError):
                root.rmdir()


def _fit_to_the_model(configs: list, *, given: set[str]) -> list:
    """The rule ``train`` applies to a max length the user did not give (small_data.adapt's
    "limit"): one past what the model reads is cut to it, and the run says why. Only that rule:
    the rest of a GLUE run's recipe is its convention's, not the small-data choice."""
    from dataclasses import fields

    from bertstudio.train.config import TrainConfig
    from bertstudio.train.small_data import adapt, run_max_length

    if "max_length" in given or not configs:
        return configs
    limit = run_max_length(configs[0].model)  # one model for every task
    fixed = {f.name for f in fields(TrainConfig)} - {"max_length"}
    return [adapt(config, {}, given=fixed, run_limit=limit) for config in configs]


# A GLUE task scored with another task's model, on that task's folder: MNLI-mm is MNLI's model on
# dev_mismatched.tsv (the GLUE and BERT-paper MNLI entries need both sets, from one training).
_ALSO_SCORED = {task: also for task, others in ALSO_PREDICTED.items() for also in others if "dev" in PRESETS[also].files}


def _task_folder(data_dir: Path, preset: Any) -> Path:
    """A task's folder in the GLUE layout (MNLI-mm's files are in MNLI/, AX's in diagnostic/)."""
    return data_dir / (preset.folder or preset.name)


def _wrong_kind(data_dir: Path, preset: Any) -> str | None:
    """What is wrong with a task's folder that is there but not as the GLUE layout has it (its
    folder a file, its train.tsv or dev.tsv a folder); None where nothing is of the wrong kind."""
    return next((why for split in ("train", "dev") if (why := path_problem(preset, data_dir, split)) is not None), None)


def _trained_tasks(asked: list) -> list:
    """The tasks to train for the tasks asked for: MNLI-mm is MNLI's training, scored on the
    mismatched set too, so it trains MNLI (once) in its place."""
    from bertstudio.data.glue import get_preset

    owner = {also: task for task, also in _ALSO_SCORED.items()}
    out: list = []
    for preset in asked:
        if preset.name in owner:
            preset = get_preset(owner[preset.name])
        if preset.name not in [p.name for p in out]:
            out.append(preset)
    return out


def _also_scored_set(data_dir: Path, preset: Any, config: Any) -> Any:
    """The evaluation set of the task ``preset``'s model is also scored on (None: no such task, or
    its dev file is not there), capped and checked as the run's own evaluation set is."""
    from bertstudio.data.glue import get_preset, load_glue
    from bertstudio.train.sources import check_scorable, pick_rows, warn_unscored

    if preset.name not in _ALSO_SCORED:
        return None
    other = get_preset(_ALSO_SCORED[preset.name])
    if not (_task_folder(data_dir, other) / other.files["dev"]).is_file():
        return None
    examples = load_glue(other, _task_folder(data_dir, other), split="dev")
    if config.max_eval_examples is not None:
        examples = pick_rows(examples, range(min(config.max_eval_examples, len(examples))))
    check_scorable(examples, where="--data-dir")
    warn_unscored(examples)
    return examples


def _score_also(args: argparse.Namespace, preset: Any, run_dir: Path, examples: Any, results: dict,
                notes: list, failed: list) -> int:
    """Score a finished run's model on the other task's set (MNLI-mm), into the run's folder; its
    exit code. A failure there (memory, a full disk) is that entry's: the tasks after it still train
    and the scoreboard is still written (it ended the whole glue run)."""
    from bertstudio.train.engine import EVAL_BATCH_SIZE, evaluate
    from bertstudio.train.rundir import MODEL, write_mismatched

    other = _ALSO_SCORED[preset.name]
    if not args.quiet:
        sys.stderr.write(f"== {other} ({preset.name}'s model on {examples.source})\n")
    printer = ProgressPrinter(quiet=args.quiet)
    phases = [lambda event, _control=None: printer(event, None) if isinstance(event, PhaseChanged) else None]
    try:
        metrics, predictions = evaluate(run_dir / MODEL, examples, batch_size=EVAL_BATCH_SIZE, glue_task=other,
                                        callbacks=phases)
        write_mismatched(run_dir, metrics, predictions)
    except (BertStudioError, OSError, RuntimeError, ValueError, MemoryError) as exc:
        line = f"{other}: not scored with {preset.name}'s model: {getattr(exc, 'message', None) or exc}"
        notes.append(line)
        failed.append(line)
        return EXIT_USAGE if isinstance(exc, (DataError, ConfigError)) else EXIT_FAILED
    results[other] = metrics
    if not args.quiet:
        printer._line(f"{other}: " + format_metrics(metrics, digits=2))
    return EXIT_OK


def _finished_earlier(root: Path, presets: list, configs: list) -> dict[str, Any]:
    """``glue --resume``: the tasks whose run folder under ``root`` holds a finished run (RunInfo),
    each trained with the settings asked for now (a finished run of another --model or --epochs
    was kept, and the average mixed two models' scores)."""
    from bertstudio.train.rundir import differences, read_run, run_finished

    kept = {}
    for preset, config in zip(presets, configs):
        folder = Path(config.output_dir)
        if not (folder.is_dir() and run_finished(folder)):
            continue
        info = read_run(folder)
        changed = differences(info.config, config) if info.config is not None else ["config.toml unreadable"]
        if changed:
            raise ConfigError(f"--resume would keep {preset.name}'s finished run, which has other settings "
                              f"({', '.join(changed)})", path=folder, where="--resume",
                              expected="the settings that run was trained with, or --overwrite to train every task again")
        kept[preset.name] = info
    return kept


def _resumed(config: Any, notes: list, name: str) -> Any:
    """``glue --resume``: a task whose run was stopped goes on from its checkpoints/last; one that
    stopped before its first checkpoint (a second Ctrl-C, a failure) trains again from the start,
    replacing only the run's own files (it refused the whole command: "the run folder is not empty")."""
    from dataclasses import replace

    from bertstudio.train.rundir import CHECKPOINTS, find_checkpoint, read_config, run_finished

    folder = Path(config.output_dir)
    last = folder / CHECKPOINTS / "last"
    if find_checkpoint(last) is not None:
        return replace(config, resume_from=str(last))
    try:
        started = folder.is_dir() and any(folder.iterdir()) and not run_finished(folder) and read_config(folder) is not None
    except (OSError, BertStudioError):
        started = False
    if started:
        notes.append(f"{name}: stopped before its first checkpoint in {folder}; trained again from the start (--resume)")
        return replace(config, overwrite=True)
    return config


def _glue_tasks(args: argparse.Namespace, out: TextIO, root: Path, data_dir: Path, presets: list, configs: list, *,
                asked: list[str]) -> int:
    from bertstudio.data.atomic import atomic_write_text
    from bertstudio.data.glue import get_preset
    from bertstudio.metrics.scoreboard import glue_score, score_number
    from bertstudio.train.rundir import check_output_dir
    from bertstudio.train.sources import load_sets

    results: dict[str, dict[str, float]] = {}
    notes, failed, left_out, code = [], [], [], EXIT_OK
    earlier = _finished_earlier(root, presets, configs) if args.resume else {}
    configs = [_resumed(c, notes, p.name) if args.resume and p.name not in earlier else c
               for p, c in zip(presets, configs)]
    sets, also = {}, {}
    ready = [(p, c) for p, c in zip(presets, configs)
             if (_task_folder(data_dir, p) / "train.tsv").is_file() and p.name not in earlier]
    for _, config in ready:  # every task's run folder before the first task trains
        check_output_dir(config)
    for preset, config in zip(presets, configs):  # and its data: a bad dev.tsv of the third task was found after two had trained
        if any(p is preset for p, _ in ready):
            sets[preset.name] = load_sets(config)
        if preset.name in sets or (preset.name in earlier and not earlier[preset.name].mismatched):
            also[preset.name] = _also_scored_set(data_dir, preset, config)
    missing = [p for p in presets if p.name not in sets and p.name not in earlier]
    absent = [p.name for p in missing if _wrong_kind(data_dir, p) is None]
    if absent and not args.quiet:  # said at the start too: the exit-2 line came only after hours of training
        sys.stderr.write(f"bertstudio: warning: no train.tsv for {', '.join(absent)} in {_printable(str(data_dir))}: "
                         "left out, so the average will be partial\n")
    for preset in missing:  # there, but not what the layout has there: "no train.tsv" sent the person looking
        if _wrong_kind(data_dir, preset) is not None and not args.quiet:
            sys.stderr.write(f"bertstudio: warning: {_printable(_wrong_kind(data_dir, preset))}: {preset.name} left "
                             "out, so the average will be partial\n")
    cancel = threading.Event()
    previous = _with_interrupt(cancel)  # Ctrl-C stops the task's run after its step; what finished is still scored
    try:
        for preset, config in zip(presets, configs):
            if preset.name in earlier:
                info = earlier[preset.name]
                results[preset.name] = info.metrics
                if info.mismatched:
                    results[_ALSO_SCORED[preset.name]] = info.mismatched
                elif also.get(preset.name) is not None:
                    code = max(code, _score_also(args, preset, info.folder, also.pop(preset.name), results, notes, failed))
                notes.append(f"{preset.name}: finished in an earlier run in {info.folder}; kept (--resume)")
                continue
            if preset.name not in sets:
                why = _wrong_kind(data_dir, preset) or f"no train.tsv in {_task_folder(data_dir, preset)}"
                notes.append(f"{preset.name}: {why}; left out")
                left_out.extend(n for n in asked if _trained_tasks([get_preset(n)])[0].name == preset.name)
                continue
            if cancel.is_set():  # (a stop read after a task's last step finishes that task: this one says it)
                notes.append(f"{preset.name}: not started (interrupted)")
                code = max(code, EXIT_INTERRUPTED)
                continue
            if preset.name in _ALSO_SCORED and also[preset.name] is None:
                other = get_preset(_ALSO_SCORED[preset.name])
                notes.append(f"{other.name}: no {other.files['dev']} in {_task_folder(data_dir, other)}; left out")
                if other.name in asked:  # (MNLI alone asked: its mismatched half is said, and the row is partial)
                    left_out.append(other.name)
            code = max(code, _train_glue_task(args, preset, config, sets.pop(preset.name), also, results, notes,
                                              failed, cancel))
    except KeyboardInterrupt:  # a second Ctrl-C: the run stops at once; the tasks that finished are still shown
        notes.append("interrupted")
        code = EXIT_INTERRUPTED
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if code == EXIT_INTERRUPTED:
        notes.append("go on with the same command and --resume: finished tasks are kept, a stopped one resumes "
                     "from its checkpoint (or, stopped before its first one, trains again)")
    for task, metrics in results.items():  # the scoreboard leaves them out of the average, and strict JSON has no NaN
        odd = sorted(k for k, v in metrics.items() if score_number(v) is None)
        if odd:
            notes.append(f"{task}: {', '.join(odd)} {'is' if len(odd) == 1 else 'are'} not a finite number (a diverged "
                         "run, or a damaged metrics.json); left out of the average and of scoreboard.json")
    # (a task without a finite score stays, empty: it finished; an earlier scoreboard's number is not kept)
    finite = {task: {k: v for k, v in metrics.items() if score_number(v) is not None}
              for task, metrics in results.items()}
    out.write(glue_score(results, convention=args.convention).format_table() + "\n" + "".join(n + "\n" for n in notes))
    if results:  # an empty scoreboard would only block the next try (see _check_glue_places)
        atomic_write_text(root / "scoreboard.json", json.dumps(finite, indent=2, sort_keys=True, allow_nan=False))
    for line in failed:  # the reason on stderr too, one line per task (it was only under the scoreboard)
        sys.stderr.write(f"bertstudio: {_printable(line)}{_details()}\n")
    if left_out:  # exit 0 told a script the benchmark ran whole; the scoreboard above stays as it is
        sys.stderr.write(f"bertstudio: error: {_printable(str(data_dir))}, --tasks: {len(left_out)} of the tasks asked "
                         f"for left out for lack of data ({', '.join(left_out)}; see the lines under the scoreboard), so "
                         "the average is partial (expected each task's files in the GLUE layout, or --tasks naming "
                         "only the tasks there)\n")
        code = max(code, EXIT_USAGE)
    return code


def _train_glue_task(args: argparse.Namespace, preset: Any, config: Any, data: tuple, also: dict, results: dict,
                     notes: list, failed: list, cancel: threading.Event) -> int:
    """Train one task of ``glue`` (and score its model on the other set it stands for); its exit code."""
    from bertstudio.train.engine import train

    if not args.quiet:
        sys.stderr.write(f"== {preset.name}" + (" (resumed)" if config.resume_from else "") + "\n")
    result = train(config, *data, callbacks=[_printer(config, args)], cancel=cancel)
    if result.status == "finished":
        results[preset.name] = result.metrics
        if also.get(preset.name) is not None:
            return _score_also(args, preset, Path(result.output_dir or config.output_dir), also.pop(preset.name),
                               results, notes, failed)
        return EXIT_OK
    notes.append(f"{preset.name}: run {result.status}: {result.message}")
    failed.append(f"{preset.name}: run {result.status}: {result.message}")
    return _exit_code(result)  # 130 (interrupted) > 2 (bad input) > 1 (failed)


def _check_glue_places(data_dir: Path, root: Path, presets: list, *, overwrite: bool, resume: bool = False) -> None:
    """Before any task trains: the data folder holds at least one of the tasks, and an earlier
    scoreboard.json in --out is replaced only with --overwrite (as each task's run folder is)."""
    layout = "a folder holding one sub-folder per task (GLUE layout: RTE/train.tsv, ...)"
    if not data_dir.is_dir():
        problem = "is not a folder" if data_dir.exists() else "does not exist"
        raise ConfigError(f"the GLUE data folder {problem}", path=data_dir, where="--data-dir", expected=layout)
    names = [p.name for p in presets]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ConfigError(f"--tasks names {', '.join(twice)} more than once", where="--tasks",
                          expected="each task once (one run folder per task)")
    data, out = data_dir.resolve(), root.expanduser().resolve()
    if out == data or out.is_relative_to(data) or any(data.is_relative_to(out / n) for n in names):
        raise ConfigError("the run folders would be written into the data folder", path=root, where="--out",
                          expected=f"a folder outside {data_dir}")
    if not any((_task_folder(data_dir, p) / "train.tsv").is_file() for p in presets):
        wrong = next((_wrong_kind(data_dir, p) for p in presets if _wrong_kind(data_dir, p) is not None), None)
        if wrong is not None:
            raise ConfigError(wrong, where="--data-dir")
        there = next((_task_folder(data_dir, p) / "train.tsv" for p in presets
                      if os.path.lexists(_task_folder(data_dir, p) / "train.tsv")), None)
        if there is not None:  # a FIFO, a folder or a link that leads nowhere: not "no train.tsv"
            raise ConfigError("is not a regular file", path=there, where="--data-dir",
                              expected="the task's training data as a file")
        names = ", ".join(p.name for p in presets)
        raise ConfigError(f"no train.tsv for any of the tasks asked for ({names})", path=data_dir, where="--data-dir",
                          expected=layout)
    if (root / "scoreboard.json").exists() and not overwrite and not resume:
        raise ConfigError("a scoreboard of an earlier glue run is here", path=root / "scoreboard.json", where="--out",
                          expected="another --out, --resume to go on with that run, or --overwrite to replace it and "
                                   "the tasks' earlier runs")


def cmd_export_run(args: argparse.Namespace, out: TextIO) -> int:
    from bertstudio.train.config import TrainConfig, read_settings
    from bertstudio.train.config_flags import given_settings
    from bertstudio.train.export import export_config_run

    given = given_settings(args)  # --train/--eval/--data-dir (--out is the export's folder, not a setting here)
    config = TrainConfig.from_dict({**read_settings(args.config, given=given), **given}, source=args.config)
    try:
        folder, bundled = export_config_run(config, args.export_dir, config_dir=Path(args.config).parent, given=given)
    except ConfigError as exc:  # "train_file: no training data" of an empty config named no file
        if exc.path is None:
            exc.path = str(args.config)
        raise
    out.write(f"exported to {folder}\n" + "".join(f"  {b.split}: {b.source} -> {b.file} ({b.rows} rows, {b.format})\n" for b in bundled)
              + f"start it with: cd {shell_quote(folder)} && bertstudio train --config run.toml\n")
    return EXIT_OK


def _quiet_libraries() -> None:
    """The libraries' own load reports and progress bars would drown the run's progress line."""
    import datasets
    import transformers

    datasets.disable_progress_bars()
    transformers.utils.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()


COMMANDS = {"train": cmd_train, "evaluate": cmd_evaluate, "predict": cmd_predict, "glue": cmd_glue, "export-run": cmd_export_run,
            **cli_export.COMMANDS, **cli_check.COMMANDS,
            **cli_submit.COMMANDS}


def _utf8(word: str) -> bool:
    try:
        word.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _printable(text: str) -> str:
    """An error line with the control characters a path or name may carry written as escapes: an
    ESC in a file name echoed raw recoloured (or rewrote) the user's terminal."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _utf8_stdout() -> None:
    """Write a stdout that is not a console in UTF-8: Windows gives a redirected one (``> flags.jsonl``,
    a pipe) the ANSI code page, and the JSON of label-errors and predict, which keeps texts and labels
    as they are, ended in "internal error: UnicodeEncodeError" after the whole run (or came out in GBK
    on Chinese Windows). A console is left alone: Python writes to it in UTF-16 already. Windows
    only, and not where PYTHONIOENCODING chose the encoding: elsewhere the locale's is the user's
    choice; the stream's errors mode is kept."""
    if sys.platform != "win32" or os.environ.get("PYTHONIOENCODING"):
        return
    stream = sys.stdout
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
    if encoding in ("utf-8", "utf8") or not hasattr(stream, "reconfigure"):
        return
    try:
        if stream.isatty():
            return
        stream.reconfigure(encoding="utf-8", errors=getattr(stream, "errors", None) or "strict")
    except (OSError, ValueError):  # a closed or detached stdout: left as it is
        pass


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    global _tracebacks_before
    from bertstudio.logsetup import setup_logging, tracebacks_logged

    if out is None:
        _utf8_stdout()
    out = out or sys.stdout
    words = list(sys.argv[1:] if argv is None else argv)
    bad = next((w for w in words if not _utf8(w)), None)
    if bad is not None:  # a byte that is no UTF-8 (Python keeps it as a lone surrogate) failed deep inside a run
        shown = bad.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        sys.stderr.write(f"bertstudio: error: arguments: {shown!r} is not valid UTF-8 text "
                         "(expected paths and texts in UTF-8)\n")
        return EXIT_USAGE
    args = build_parser().parse_args(argv)
    setup_logging(debug=args.debug)
    _tracebacks_before = tracebacks_logged()
    if args.quiet or not args.debug:  # --debug keeps the libraries' reports, but not under --quiet
        _quiet_libraries()
    try:
        return COMMANDS[args.command](args, out)
    except BertStudioError as exc:
        log.debug("user error", exc_info=True)
        sys.stderr.write(f"bertstudio: error: {_printable(str(exc))}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("bertstudio: interrupted\n")
        return EXIT_INTERRUPTED
    except Exception as exc:  # a bug: one line for the user, the traceback in the log
        full = disk_full_error(exc)
        if full is not None:  # not a bug: any command that writes may meet it
            log.debug("disk full", exc_info=True)
            sys.stderr.write(f"bertstudio: error: {_printable(str(full))}\n")
            return EXIT_USAGE
        log.error("unexpected error", exc_info=True)
        text = _printable(str(exc).replace("\n", " "))
        sys.stderr.write(f"bertstudio: internal error: {type(exc).__name__}: {text}{_details()}\n")
        return EXIT_FAILED
