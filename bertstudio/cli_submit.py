"""The ``glue-submission`` subcommand: a ``bertstudio glue`` folder's models predict the GLUE
test sets, written as the zip gluebenchmark.com scores (see :mod:`bertstudio.train.glue_submission`).

One line per file written (its rows) on stdout, then one naming the tasks left out and why;
progress on stderr. Exit 0 when a file was written; 2 for bad input (RUNS_DIR not a glue
folder, no --data-dir, an existing zip without --overwrite, a test file that cannot be read, is
not the GLUE release's (its row count, a repeated index), or is missing for a finished task
without --allow-missing), and then no zip is written.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from bertstudio.errors import ConfigError


def add_commands(sub: Any) -> None:
    p = sub.add_parser("glue-submission", help="predict the GLUE test sets with a glue folder's models and zip "
                                               "the files gluebenchmark.com takes")
    p.add_argument("runs_dir", metavar="RUNS_DIR", help="the --out folder of bertstudio glue")
    p.add_argument("--data-dir", required=True, help="the GLUE data folder (one sub-folder per task, with its test files)")
    p.add_argument("--out", required=True, metavar="FILE.zip", dest="zip_file", help="the zip to write")
    p.add_argument("--overwrite", action="store_true", help="replace FILE.zip if it exists")
    p.add_argument("--batch-size", type=int, help="examples per forward pass (default: 64)")
    p.add_argument("--precision", default="auto", choices=("auto", "fp32", "bf16", "fp16"),
                   help="auto (as training runs on this machine) | fp32 (exact) | bf16 | fp16")
    p.add_argument("--allow-missing", action="store_true",
                   help="leave a finished task whose test file is not in --data-dir out of the zip, AX included "
                        "(MNLI's run predicts it from diagnostic/diagnostic.tsv; without it: refused, exit 2)")


def _check_zip_path(path: Path, overwrite: bool) -> None:
    """Before any prediction: an existing file is replaced only with --overwrite, and never a
    folder, FIFO or device (data/atomic.check_replaceable); the folder it goes in can be made and
    written, by the check every ``--out DIR`` gets (a file in its place or a read-only folder was
    found after every test set had been predicted, and said as an "internal error")."""
    from bertstudio.data.atomic import check_folder_path, check_replaceable

    check_replaceable(path)
    if os.path.lexists(path) and not overwrite:
        raise ConfigError("the file already exists", path=path, where="--out",
                          expected="another name, or --overwrite to replace it")
    folder = path.parent
    try:
        check_folder_path(folder, where="--out")
    except ConfigError as exc:  # said of the zip typed, the folder it goes in named
        refusal = exc.facts.get("refusal")
        problem = (f"{folder} is a file, so no file can be written inside it" if refusal == "folder_is_file" else
                   f"no permission to write in {folder}" if refusal == "folder_not_writable" else exc.problem)
        raise ConfigError(problem, path=path, where="--out", expected="a zip in a folder that can be written") from None


def _write_zip(path: Path, data: bytes) -> None:
    """The zip written; an OSError (the folder made read-only, or removed and replaced by a file,
    while the sets were predicted) is one line naming --out, not an "internal error"."""
    from bertstudio.data.atomic import atomic_write_bytes
    from bertstudio.errors import disk_full_error

    try:
        atomic_write_bytes(path, data, parents=True)
    except OSError as exc:
        full = disk_full_error(exc, path)
        if full is not None:
            raise full from None
        raise ConfigError(f"cannot be written: {exc.strerror or exc}", path=path, where="--out",
                          expected="a zip in a folder that can be written") from None


def cmd_glue_submission(args: argparse.Namespace, out: TextIO) -> int:
    from bertstudio.cli import EXIT_OK, ProgressPrinter, _one_process
    from bertstudio.train.config import check_setting
    from bertstudio.train.events import PhaseChanged
    from bertstudio.train.glue_submission import predict_submission

    _one_process("glue-submission")
    if args.batch_size is not None:
        check_setting("batch_size", args.batch_size)
    target = Path(args.zip_file).expanduser()
    _check_zip_path(target, args.overwrite)
    printer = ProgressPrinter(quiet=args.quiet)
    phases = [lambda event, _control=None: printer(event, None) if isinstance(event, PhaseChanged) else None]

    def on_task(name: str, run: str, test: Path) -> None:
        if not args.quiet:
            by = "" if name == run else f"{run}'s model, "
            sys.stderr.write(f"== {name} ({by}{test})\n")

    submission = predict_submission(args.runs_dir, args.data_dir, on_task=on_task, callbacks=phases,
                                    batch_size=args.batch_size, precision=args.precision,
                                    allow_missing=args.allow_missing)
    if not submission.files:
        why = "; ".join(f"{n}: {r}" for n, r in submission.missing.items())
        raise ConfigError(f"no GLUE test set could be predicted ({why})", path=args.runs_dir, where="RUNS_DIR",
                          expected="finished task runs and their test files in --data-dir")
    _check_zip_path(target, args.overwrite)  # again: the predictions took a while
    _write_zip(target, submission.zip_bytes())
    out.write("".join(f"{f.name}: {f.rows} rows\n" for f in submission.files))
    if submission.missing:
        out.write("not in the zip: " + "; ".join(f"{n} ({r})" for n, r in submission.missing.items()) + "\n")
    out.write(f"wrote {target}\n")
    return EXIT_OK


COMMANDS = {"glue-submission": cmd_glue_submission}
