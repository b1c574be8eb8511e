"""The ``label-errors`` subcommand: the label-error finder over a data file, without the app.

``bertstudio label-errors --train FILE`` reads the file as ``bertstudio train`` reads it
(the same flags: ``--task``, ``--format``, ``--columns``, ``--labels``, or ``--glue-task``
with ``--data-dir``), judges every labelled row by a model that never saw it
(:func:`bertstudio.assist.label_errors.find_in_examples`: 5 folds, the quick fast head on
frozen vectors, or ``--method finetune``, the encoder fine-tuned in every fold, which is
what a GPU server is for) and writes one JSON line per suspected error to stdout, most
suspect first. The summary and the progress go to stderr. Nothing is written anywhere else:
the embedding cache lives in a temporary folder for the command's duration.

A line: ``row`` (0-based, among the file's examples in file order), ``given``,
``suggested`` and its ``probability``, ``quality`` (the model's probability of the given
label, with ``--method finetune`` averaged with the other folds' training passes; lower is
more suspect, and the lines come in its order), ``text``, for tagging the ``word``
(0-based) that carries the suspect tag, and ``neighbours``: the most similar examples
that carry the suggested label.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from typing import Any, TextIO

from bertstudio.errors import ConfigError
from bertstudio.metrics.display import format_share

_DATA_FLAGS = ("train_file", "task", "glue_task", "data_dir", "data_format", "columns", "labels", "model", "seed")


def add_commands(sub: Any) -> None:
    # the finder's choices are checked by the finder (assist.label_errors: METHODS, FOLDS), not
    # repeated here: importing it costs seconds (torch), which every command would pay at parse time
    from bertstudio.train.config_flags import add_arguments

    p = sub.add_parser("label-errors", help="list the labels a model that never saw them disagrees with (cleanlab)")
    add_arguments(p, _DATA_FLAGS, help={"train_file": "the labelled data to check",
                                        "model": "the encoder (default: the bundled all-MiniLM-L6-v2)",
                                        "seed": "seed of the folds and of the fine-tuning (default: 42)"})
    # its own dest: "method" is also a TrainConfig setting (setfit | finetune), which
    # config_from_args reads from the namespace, and refused "fast", this option's default
    p.add_argument("--method", dest="check_method", metavar="METHOD",
                   help="fast (default): a logistic regression on the frozen encoder in each fold (seconds); "
                        "finetune: the encoder fine-tuned in each fold (minutes on a CPU; fewer false alarms)")
    p.add_argument("--folds", type=int, metavar="K", help="cross-validation folds (default: 5)")


def _read(config: Any) -> Any:
    """The labelled rows to check, read as `bertstudio train` reads its training data."""
    from bertstudio.train.sources import check_kind, check_label_values, read_train_set, warn_repeats

    if not config.train_file and not (config.glue_task and config.data_dir):
        raise ConfigError("no data to check", where="arguments", expected="--train FILE, or --glue-task with --data-dir")
    examples = read_train_set(config)
    check_kind(examples, config)
    check_label_values(examples, config)  # "0" beside "entailment": every "0" row would look mislabelled
    warn_repeats(examples)  # one input labelled two ways: one of them is wrong, whatever the model says
    return examples


class _Progress:
    """One stderr line per twentieth of the work, or when the phase changes (a fine-tuning
    check reports every step, hundreds of them)."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.last: tuple[int, str] = (-1, "")

    def __call__(self, fraction: float, where: Any) -> None:
        message = str(where)  # assist/label_errors.CheckProgress: its English line
        key = (int(fraction * 20), message.split(":")[0])
        if self.quiet or key == self.last:
            return
        self.last = key
        sys.stderr.write(f"[{fraction * 100:3.0f}%] {message}\n")
        sys.stderr.flush()


def flag_record(flag: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"row": flag.row, "given": flag.given, "suggested": flag.suggested,
                              "probability": round(flag.suggested_prob, 4), "quality": round(flag.quality, 4),
                              "text": flag.text}
    if flag.word is not None:
        record["word"] = flag.word
    record["neighbours"] = [{"row": n.row, "text": n.text, "similarity": round(n.similarity, 4)}
                            for n in flag.neighbours]
    return record


def cmd_label_errors(args: argparse.Namespace, out: TextIO) -> int:
    from bertstudio.assist.kinds import spec_for
    from bertstudio.assist.label_errors import FOLDS, METHODS, find_in_examples
    from bertstudio.cli import config_from_args

    method = args.check_method or "fast"
    if method not in METHODS:
        raise ConfigError(f"unknown method {method!r}", where="--method", expected=" or ".join(METHODS))
    folds = FOLDS if args.folds is None else args.folds
    if folds < 2:
        raise ConfigError(f"{folds} folds cannot keep a row out of its own model", where="--folds",
                          expected="2 or more")
    config = config_from_args(args)
    examples = _read(config)
    with tempfile.TemporaryDirectory(prefix="bertstudio-label-errors-") as cache:
        report = find_in_examples(examples, list(examples.labels), cache, model=config.model, folds=folds,
                                  seed=config.seed, method=method, progress=_Progress(args.quiet))
    for flag in report.flags:
        out.write(json.dumps(flag_record(flag), ensure_ascii=False) + "\n")
    out.flush()
    if report.source != "run" and report.folds < folds:  # the finder ran fewer folds than asked
        by_sentence = spec_for(examples.kind).head == "token"  # tagging: folds split sentences
        sys.stderr.write(fold_cap_note(report, folds, asked=args.folds is not None, by_sentence=by_sentence) + "\n")
    sys.stderr.write(summary_line(report) + "\n")
    return 0


def fold_cap_note(report: Any, folds: int, *, asked: bool, by_sentence: bool) -> str:
    """Why the check ran fewer folds than ``folds``: the finder caps them where a fold would
    hold out no row of some label (stratified folds), or, tagging, no sentence."""
    what = f"--folds {folds} is" if asked else f"the default {folds} folds are"
    why = (f"there are only {_count(report.folds, 'tagged sentence')} to split" if by_sentence else
           f"each fold holds out at least one row of every label, and the rarest label has {report.folds} rows")
    return f"note: {what} more than this data allows: {report.folds} folds run ({why})"


def _count(n: int, thing: str) -> str:
    """``1 row``, ``2 rows``: the English plural of the regular nouns these lines use."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.2g}"


def summary_line(report: Any) -> str:
    """The stderr line after the flags: what was checked, how, and how far to trust it."""
    how = "fine-tuned encoder" if report.source == "finetune" else "logistic regression on the frozen encoder"
    rows, labels = ("tagged sentence", "given tags (words)") if report.per_word else ("labelled row", "given labels")
    summary = (f"{_count(report.checked, rows)} checked ({report.folds}-fold cross-validation, {how}); the "
               f"model agrees with {format_share(report.accuracy or 0, 1)} of the {labels}")
    if report.p_value is not None and not report.no_signal:
        summary += f", and its probabilities fit them better than the label frequencies alone ({_p(report.p_value)})"
    summary += "; " + _count(len(report.flags), "suspected error")
    if report.no_signal:
        # withheld counts the flags held back, not the rows the model disagrees with: "its 0 disagreements
        # would be noise" was said of 20 identical texts where 10 rows disagreed and nothing was flagged
        noise = f"its {_count(report.withheld, 'disagreement')} would be noise and " if report.withheld else ""
        summary += (f": its probabilities fit the given labels no better than the label frequencies alone "
                    f"({_p(report.p_value)}), so {noise}none is listed (" + (
                        "label more rows)" if report.source == "finetune" else "label more rows, or try --method finetune)"))
    if report.skipped:
        summary += f"; {_count(report.skipped, 'row')} not checked (a label with a single example)"
    return summary


COMMANDS = {"label-errors": cmd_label_errors}
