"""The headless command line over the core: train, evaluate, predict, glue, export-run
(and export-onnx, push-to-hub from :mod:`bertstudio.cli_export`).

Exit codes: 0 success; 2 bad arguments or bad data (one line on stderr, no
traceback); 1 a run that failed while training (``glue``: any task that did);
130 interrupted (Ctrl-C stops the run cooperatively after the current optimizer
step and keeps the model). Tracebacks go to the log file only (logsetup.py;
``--debug`` also prints them); the one-line message names that file.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
import time
from dataclasses import fields
from pathlib import Path
from typing import Any, Sequence, TextIO

from bertstudio import cli_export
from bertstudio.errors import BertStudioError, ConfigError, DataError

log = logging.getLogger("bertstudio")

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

# CLI flag -> TrainConfig field, for the flags whose names differ.
_FIELD_FOR_FLAG = {"train": "train_file", "eval": "eval_file", "out": "output_dir", "format": "data_format",
                   "early_stopping": "early_stopping_patience", "resume": "resume_from"}


class _Parser(argparse.ArgumentParser):
    """argparse that exits 2 with one line (its default prints usage too, which is fine) ."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"bertstudio: error: {message}\n")


def _columns(text: str) -> dict[str, str]:
    """``text=sentence,label=label`` -> {"text": "sentence", "label": "label"}."""
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise argparse.ArgumentTypeError(f"column mapping {part!r} is not NAME=COLUMN")
        out[key.strip()] = value.strip()
    return out


def _add_data_args(p: argparse.ArgumentParser, *, train: bool) -> None:
    g = p.add_argument_group("data")
    g.add_argument("--task", choices=("sentence", "pair", "regression", "tagging", "qa"), help="task kind")
    g.add_argument("--glue-task", metavar="NAME", help="GLUE task preset (CoLA, SST-2, MRPC, STS-B, QNLI, RTE, WNLI, ...)")
    g.add_argument("--data-dir", metavar="DIR", help="folder with the GLUE task's train.tsv / dev.tsv")
    if train:
        g.add_argument("--train", metavar="FILE", help="training data file")
    g.add_argument("--eval", metavar="FILE", help="evaluation data file")
    g.add_argument("--format", metavar="FMT", help="auto | csv | tsv | jsonl | glue | conll | conllu | squad")
    g.add_argument("--columns", type=_columns, metavar="MAP", help="column mapping, e.g. text=sentence,label=label")
    g.add_argument("--labels", type=lambda s: [x for x in s.split(",") if x], metavar="A,B,..", help="label names in id order")
    g.add_argument("--max-eval-examples", type=int, metavar="N")


def _add_train_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="TOML", help="run config written by bertstudio or the app; flags override it")
    _add_data_args(p, train=True)
    g = p.add_argument_group("model")
    g.add_argument("--model", help="local model folder or Hub id (default: the bundled all-MiniLM-L6-v2)")
    g.add_argument("--head", choices=("linear", "mlp"))
    g.add_argument("--mode", metavar="MODE", help="full | frozen | top-N | lora")
    g.add_argument("--lora-rank", type=int, metavar="R")
    g.add_argument("--lora-alpha", type=int, metavar="A")
    h = p.add_argument_group("hyperparameters")
    h.add_argument("--epochs", type=float)
    h.add_argument("--lr", type=float)
    h.add_argument("--batch-size", type=int)
    h.add_argument("--grad-accum", type=int)
    h.add_argument("--max-length", type=int)
    h.add_argument("--warmup-ratio", type=float)
    h.add_argument("--weight-decay", type=float)
    h.add_argument("--seed", type=int)
    h.add_argument("--max-train-examples", type=int, metavar="N")
    h.add_argument("--device", help="auto | cpu | cuda | cuda:N | mps")
    h.add_argument("--precision", choices=("auto", "fp32", "bf16", "fp16"))
    h.add_argument("--sparse-embeddings", action=argparse.BooleanOptionalAction, default=None,
                   help="CPU: update only the word-embedding rows a batch uses (default on)")
    h.add_argument("--bf16-weights", action=argparse.BooleanOptionalAction, default=None,
                   help="CPU bf16: bf16 copy of the weights with fp32 masters instead of autocast (default on)")
    h.add_argument("--eval-steps", type=int, metavar="N", help="evaluate every N steps (default: every epoch)")
    h.add_argument("--logging-steps", type=int, metavar="N")
    h.add_argument("--early-stopping", type=int, metavar="PATIENCE")
    h.add_argument("--resume", metavar="CHECKPOINT", help="a run's checkpoints/last; the run continues in its own folder")
    _add_out_args(p)


_RUN_FOLDER_HELP = "run folder (new or empty): config.toml, history.jsonl, metrics.json, predictions.jsonl, model/"


def _add_out_args(p: argparse.ArgumentParser, *, help: str = _RUN_FOLDER_HELP, required: bool = False) -> None:
    p.add_argument("--out", metavar="DIR", required=required, help=help)
    p.add_argument("--overwrite", action="store_true", default=None,
                   help="replace bertstudio's own files in a non-empty --out folder (other files there are kept)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bertstudio", description="Fine-tune BERT-style encoders. Without a command, opens the app.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    parser.add_argument("--quiet", action="store_true", help="no progress output")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("train", help="fine-tune a model")
    _add_train_args(p)

    p = sub.add_parser("evaluate", help="score a fine-tuned model on labelled data")
    p.add_argument("--model", required=True, help="a model folder written by bertstudio (run/model)")
    _add_data_args(p, train=False)
    p.add_argument("--batch-size", type=int, default=64)
    _add_out_args(p, help="write metrics.json and predictions.jsonl here")

    p = sub.add_parser("predict", help="predict for typed text, a pair, tokens, or a question + context")
    p.add_argument("--model", required=True, help="a model folder written by bertstudio (run/model), or an export's model.onnx")
    p.add_argument("--text")
    p.add_argument("--text-pair")
    p.add_argument("--tokens", help="space-separated words (tagging)")
    p.add_argument("--question")
    p.add_argument("--context")

    p = sub.add_parser("glue", help="fine-tune a list of GLUE tasks and print the scoreboard")
    p.add_argument("--tasks", default="CoLA,SST-2,MRPC,STS-B,QNLI,RTE,WNLI", help="comma-separated task names")
    p.add_argument("--data-dir", required=True, help="folder holding one sub-folder per task (GLUE layout)")
    p.add_argument("--convention", choices=("glue", "bert_paper"), default="glue")
    for flag, kind in (("--model", str), ("--epochs", float), ("--lr", float), ("--batch-size", int), ("--max-length", int),
                       ("--seed", int), ("--max-train-examples", int), ("--max-eval-examples", int), ("--device", str),
                       ("--precision", str), ("--mode", str), ("--head", str)):
        p.add_argument(flag, type=kind)
    _add_out_args(p, help="one run folder per task is written under DIR", required=True)

    p = sub.add_parser("export-run", help="write a self-contained run folder to start elsewhere")
    p.add_argument("--config", required=True, metavar="TOML")
    g = p.add_argument_group("data (files a run config names outside its own folder must be given here)")
    g.add_argument("--train", metavar="FILE")
    g.add_argument("--eval", metavar="FILE")
    g.add_argument("--data-dir", metavar="DIR")
    p.add_argument("--out", required=True, metavar="DIR")
    cli_export.add_commands(sub)  # export-onnx, push-to-hub
    return parser


_NOT_SETTINGS = ("command", "config", "debug", "quiet", "convention", "tasks")


def _given_settings(args: argparse.Namespace) -> dict[str, Any]:
    """TrainConfig settings from the flags that were given."""
    from bertstudio.train.config import TrainConfig

    names = {f.name for f in fields(TrainConfig)}
    given: dict[str, Any] = {}
    for flag, value in vars(args).items():
        if value is None or flag in _NOT_SETTINGS:
            continue
        name = _FIELD_FOR_FLAG.get(flag, flag)
        if name in names:
            given[name] = value
    return given


def config_from_args(args: argparse.Namespace) -> "Any":
    """TrainConfig from ``--config`` (if any) overridden by every flag that was given."""
    from bertstudio.train.config import TrainConfig, read_settings

    given = _given_settings(args)
    base: dict[str, Any] = read_settings(args.config, given=given) if getattr(args, "config", None) else {}
    base.update(given)
    if base.get("glue_task") and "task" not in base:
        from bertstudio.data.glue import get_preset

        preset = get_preset(base["glue_task"])
        base["task"] = preset.kind
        base["glue_task"] = preset.name
    elif "task" not in base and base.get("train_file"):
        # No --task: the file says what it is (CoNLL is tagging, SQuAD is QA, two text columns a pair...).
        from bertstudio.data.io import preview

        found = preview(base["train_file"], fmt=base.get("data_format", "auto"))
        base["task"] = found.suggested_kind or "sentence"
        if found.preset and not base.get("glue_task"):
            base["glue_task"] = found.preset
    return TrainConfig.from_dict(base)


class ProgressPrinter:
    """Prints engine events: a one-line bar on a terminal, a line per log event otherwise."""

    def __init__(self, stream: TextIO = sys.stderr, quiet: bool = False) -> None:
        self.stream = stream
        self.quiet = quiet
        self.tty = stream.isatty()

    def __call__(self, event: Any, control: Any) -> None:
        if self.quiet:
            return
        kind = getattr(event, "kind", "")
        if kind == "started":
            self._line(
                f"training {event.num_train_examples} examples for {event.epochs} epoch(s), {event.total_steps} steps, "
                f"batch {event.effective_batch_size}, on {event.device} ({event.precision}); "
                f"trainable parameters {event.trainable_params:,} / {event.total_params:,}"
            )
        elif kind == "step":
            frac = event.step / max(event.total_steps, 1)
            bar = "#" * int(frac * 24) + "-" * (24 - int(frac * 24))
            eta = time.strftime("%H:%M:%S", time.gmtime(max(event.eta_s, 0)))
            text = (f"[{bar}] step {event.step}/{event.total_steps} epoch {event.epoch:.2f} loss {event.loss:.4f} "
                    f"lr {event.lr:.2e} {event.examples_per_s:.0f} ex/s ETA {eta}")
            if self.tty:
                self.stream.write("\r" + text)
                self.stream.flush()
            else:
                self._line(text)
        elif kind == "eval":
            self._line(f"eval at step {event.step}: " + _format_metrics(event.metrics))
        elif kind == "finished":
            self._line(f"run {event.status} at step {event.step}" + (f": {event.message}" if event.message else ""))

    def _line(self, text: str) -> None:
        if self.tty:
            self.stream.write("\r\x1b[K")
        self.stream.write(text + "\n")
        self.stream.flush()


def _format_metrics(metrics: dict[str, float]) -> str:
    return ", ".join(f"{k} {v * 100:.2f}" if isinstance(v, float) and k != "loss" and abs(v) <= 1 else f"{k} {v:.4g}"
                     for k, v in metrics.items() if isinstance(v, (int, float)))


def _with_interrupt(cancel: threading.Event) -> Any:
    """Ctrl-C sets the cancel flag (the loop stops after the current step, keeping the model)."""

    def handler(signum: int, frame: Any) -> None:
        if cancel.is_set():  # second Ctrl-C: give up at once
            raise KeyboardInterrupt
        sys.stderr.write("\nstopping after this step (Ctrl-C again to abort)\n")
        cancel.set()

    try:
        return signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread (e.g. called from a test thread)
        return None


def cmd_train(args: argparse.Namespace, out: TextIO) -> int:
    from bertstudio.train.engine import train

    config = config_from_args(args)
    cancel = threading.Event()
    previous = _with_interrupt(cancel)
    try:
        result = train(config, callbacks=[ProgressPrinter(quiet=args.quiet)], cancel=cancel)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return _report_result(result, out)


def _report_result(result: Any, out: TextIO) -> int:
    if result.metrics:
        out.write(json.dumps(result.metrics, indent=2, sort_keys=True) + "\n")
    if result.output_dir:
        out.write(f"run folder: {result.output_dir}\n")
    code = _exit_code(result)
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


def cmd_evaluate(args: argparse.Namespace, out: TextIO) -> int:
    from bertstudio.tasks.model import saved_model_info
    from bertstudio.train.config import check_setting
    from bertstudio.train.engine import evaluate

    batch_size = check_setting("batch_size", args.batch_size)
    max_examples = check_setting("max_eval_examples", args.max_eval_examples)
    folder = _evaluation_folder(args) if args.out else None
    kind, labels, glue_task = saved_model_info(args.model)
    examples = _load_eval_examples(args, kind=args.task or kind, labels=labels, glue_task=args.glue_task or glue_task,
                                   max_examples=max_examples)
    metrics, predictions = evaluate(args.model, examples, batch_size=batch_size)
    if folder is not None:
        from bertstudio.train.rundir import atomic_write_text, jsonl

        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(folder / "metrics.json", json.dumps(metrics, indent=2, sort_keys=True))
        atomic_write_text(folder / "predictions.jsonl", jsonl(predictions))
    out.write(json.dumps(metrics, indent=2, sort_keys=True) + "\n")
    return EXIT_OK


def _evaluation_folder(args: argparse.Namespace) -> Path:
    """``--out`` for evaluate: files of the same names there are replaced only with --overwrite."""
    folder = Path(args.out)
    if folder.exists() and not folder.is_dir():
        raise ConfigError("the output folder is a file", path=folder, where="--out", expected="a folder")
    taken = [n for n in ("metrics.json", "predictions.jsonl") if (folder / n).exists()]
    if taken and not args.overwrite:
        raise ConfigError(f"the folder already holds {' and '.join(taken)}", path=folder, where="--out",
                          expected="another folder, or --overwrite to replace them")
    return folder


def _load_eval_examples(args: argparse.Namespace, *, kind: str, labels: list[str], glue_task: str | None,
                        max_examples: int | None) -> Any:
    from bertstudio.data.glue import load_glue
    from bertstudio.data.io import load_examples

    if args.eval:
        if glue_task and (args.format in (None, "auto", "glue")) and not args.columns:
            examples = load_glue(glue_task, args.eval, split="dev")
        else:
            examples = load_examples(args.eval, kind=kind, fmt=args.format or "auto", columns=args.columns,
                                     labels=args.labels or labels or None)
    elif glue_task and args.data_dir:
        examples = load_glue(glue_task, args.data_dir, split="dev")
    else:
        raise ConfigError("nothing to evaluate on", where="arguments", expected="--eval FILE, or --glue-task with --data-dir")
    if max_examples is not None:
        examples = examples.head(max_examples)
    return examples


def cmd_predict(args: argparse.Namespace, out: TextIO) -> int:
    given = {k: getattr(args, k) for k in ("text", "text_pair", "question", "context") if getattr(args, k) is not None}
    if args.tokens is not None:
        given["tokens"] = args.tokens.split()
    if not given:
        raise ConfigError("nothing to predict", where="arguments", expected="--text [--text-pair], --tokens, or --question with --context")
    prediction = cli_export.predictor_for(args.model).predict(**given)
    out.write(json.dumps(prediction, ensure_ascii=False, indent=2) + "\n")
    return EXIT_OK


def cmd_glue(args: argparse.Namespace, out: TextIO) -> int:
    from bertstudio.data.glue import get_preset
    from bertstudio.metrics.scoreboard import glue_score
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.engine import train
    from bertstudio.train.rundir import atomic_write_text

    data_dir, root = Path(args.data_dir), Path(args.out)
    if root.exists() and not root.is_dir():
        raise ConfigError("the output folder is a file", path=root, where="--out", expected="a folder")
    results: dict[str, dict[str, float]] = {}
    notes, failed, code = [], [], EXIT_OK
    settings = {k: v for k, v in _given_settings(args).items() if k not in ("data_dir", "output_dir")}
    presets = [get_preset(t.strip()) for t in args.tasks.split(",") if t.strip()]
    configs = [TrainConfig(task=preset.kind, glue_task=preset.name, data_dir=str(data_dir / preset.name),
                           output_dir=str(root / preset.name), **settings) for preset in presets]  # every setting checked first
    for preset, config in zip(presets, configs):
        if not (data_dir / preset.name / "train.tsv").is_file():
            notes.append(f"{preset.name}: no train.tsv in {data_dir / preset.name}; left out")
            continue
        if not args.quiet:
            sys.stderr.write(f"== {preset.name}\n")
        result = train(config, callbacks=[ProgressPrinter(quiet=args.quiet)])
        if result.status == "finished":
            results[preset.name] = result.metrics
            continue
        notes.append(f"{preset.name}: run {result.status}: {result.message}")
        failed.append(preset.name)
        code = max(code, _exit_code(result))  # 130 (interrupted) > 2 (bad input) > 1 (failed)
    out.write(glue_score(results, convention=args.convention).format_table() + "\n" + "".join(n + "\n" for n in notes))
    root.mkdir(parents=True, exist_ok=True)
    atomic_write_text(root / "scoreboard.json", json.dumps(results, indent=2, sort_keys=True))
    if failed:
        sys.stderr.write(f"bertstudio: {len(failed)} GLUE task(s) did not finish: {', '.join(failed)}{_details()}\n")
    return code


def cmd_export_run(args: argparse.Namespace, out: TextIO) -> int:
    from bertstudio.train.config import TrainConfig, read_settings
    from bertstudio.train.export import export_config_run

    given = _given_settings(args)  # --train/--eval/--data-dir (--out is the export's folder, not a setting here)
    given.pop("output_dir", None)
    config = TrainConfig.from_dict({**read_settings(args.config, given=given), **given})
    folder, bundled = export_config_run(config, args.out, config_dir=Path(args.config).parent, given=given)
    out.write(f"exported to {folder}\n" + "".join(f"  {b.split}: {b.source} -> {b.file} ({b.rows} rows, {b.format})\n" for b in bundled)
              + f"start it with: cd {folder} && bertstudio train --config run.toml\n")
    return EXIT_OK


def _quiet_libraries() -> None:
    """The libraries' own load reports and progress bars would drown the run's progress line."""
    import datasets
    import transformers

    datasets.disable_progress_bars()
    transformers.utils.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()


COMMANDS = {"train": cmd_train, "evaluate": cmd_evaluate, "predict": cmd_predict, "glue": cmd_glue, "export-run": cmd_export_run,
            **cli_export.COMMANDS}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    global _tracebacks_before
    from bertstudio.logsetup import setup_logging, tracebacks_logged

    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    setup_logging(debug=args.debug)
    _tracebacks_before = tracebacks_logged()
    if not args.debug:
        _quiet_libraries()
    try:
        return COMMANDS[args.command](args, out)
    except BertStudioError as exc:
        log.debug("user error", exc_info=True)
        sys.stderr.write(f"bertstudio: error: {exc}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("bertstudio: interrupted\n")
        return EXIT_INTERRUPTED
    except Exception as exc:  # a bug: one line for the user, the traceback in the log
        log.error("unexpected error", exc_info=True)
        text = str(exc).replace("\n", " ")
        sys.stderr.write(f"bertstudio: internal error: {type(exc).__name__}: {text}{_details()}\n")
        return EXIT_FAILED
