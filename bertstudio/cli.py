"""The headless command line over the core: train, evaluate, predict, glue, export-run
(and export-onnx, push-to-hub from :mod:`bertstudio.cli_export`).

Exit codes: 0 success; 2 bad arguments or bad data (one line on stderr, no
traceback); 1 a run that failed while training; 130 interrupted (Ctrl-C stops
the run cooperatively after the current optimizer step and keeps the model).
Tracebacks of unexpected errors go to the log (``--debug`` shows them).
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
from bertstudio.errors import BertStudioError, ConfigError

log = logging.getLogger("bertstudio")

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

# CLI flag -> TrainConfig field, for the flags whose names differ.
_FIELD_FOR_FLAG = {
    "train": "train_file",
    "eval": "eval_file",
    "out": "output_dir",
    "format": "data_format",
    "early_stopping": "early_stopping_patience",
    "resume": "resume_from",
}


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
    h.add_argument("--resume", metavar="CHECKPOINT")
    p.add_argument("--out", metavar="DIR", help="run folder: config.toml, history.jsonl, metrics.json, predictions.jsonl, model/")


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
    p.add_argument("--out", metavar="DIR", help="write metrics.json and predictions.jsonl here")

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
    p.add_argument("--out", required=True, metavar="DIR", help="one run folder per task is written under DIR")

    p = sub.add_parser("export-run", help="write a self-contained run folder to start elsewhere")
    p.add_argument("--config", required=True, metavar="TOML")
    p.add_argument("--out", required=True, metavar="DIR")
    cli_export.add_commands(sub)  # export-onnx, push-to-hub
    return parser


def config_from_args(args: argparse.Namespace) -> "Any":
    """TrainConfig from ``--config`` (if any) overridden by every flag that was given."""
    from bertstudio.train.config import TrainConfig

    base: dict[str, Any] = TrainConfig.load(args.config).to_dict() if getattr(args, "config", None) else {}
    names = {f.name for f in fields(TrainConfig)}
    for flag, value in vars(args).items():
        if value is None or flag in ("command", "config", "debug", "quiet", "convention", "tasks"):
            continue
        name = _FIELD_FOR_FLAG.get(flag, flag)
        if name in names:
            base[name] = value
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
    if result.status == "failed":
        from bertstudio.errors import DataError

        if isinstance(result.error, (DataError, ConfigError)):  # the user's input, not the run, is at fault
            sys.stderr.write(f"bertstudio: error: {result.error}\n")
            return EXIT_USAGE
        sys.stderr.write(f"bertstudio: run failed: {result.message}\n")
        return EXIT_FAILED
    if result.status == "cancelled":
        return EXIT_INTERRUPTED
    return EXIT_OK


def cmd_evaluate(args: argparse.Namespace, out: TextIO) -> int:
    from bertstudio.train.engine import evaluate

    kind, labels, glue_task = _model_info(args.model)
    examples = _load_eval_examples(args, kind=args.task or kind, labels=labels, glue_task=args.glue_task or glue_task)
    metrics, predictions = evaluate(args.model, examples, batch_size=args.batch_size)
    if args.out:
        folder = Path(args.out)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "metrics.json").write_text(json.dumps(metrics, indent=2, sort_keys=True), encoding="utf-8")
        with open(folder / "predictions.jsonl", "w", encoding="utf-8") as fh:
            for p in predictions:
                fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    out.write(json.dumps(metrics, indent=2, sort_keys=True) + "\n")
    return EXIT_OK


def _model_info(model_dir: str) -> tuple[str, list[str], str | None]:
    """Task kind, label names and GLUE task saved with a bertstudio model (config.json)."""
    path = Path(model_dir) / "config.json"
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError("not a model folder: config.json is missing", path=model_dir) from None
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the model's config: {exc}", path=path) from None
    meta = config.get("bertstudio") or {}
    if not meta.get("task"):
        raise ConfigError("this model was not fine-tuned by bertstudio (no task kind in config.json)", path=path,
                          expected="a run's model/ folder")
    id2label = config.get("id2label") or {}
    labels = [id2label[k] for k in sorted(id2label, key=int)] if meta["task"] in ("sentence", "pair", "tagging") else []
    return meta["task"], labels, meta.get("glue_task")


def _load_eval_examples(args: argparse.Namespace, *, kind: str, labels: list[str], glue_task: str | None) -> Any:
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
    if args.max_eval_examples:
        examples = examples.head(args.max_eval_examples)
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

    data_dir, root = Path(args.data_dir), Path(args.out)
    results: dict[str, dict[str, float]] = {}
    notes: list[str] = []
    for name in [t.strip() for t in args.tasks.split(",") if t.strip()]:
        preset = get_preset(name)
        task_dir = data_dir / preset.name
        if not (task_dir / "train.tsv").is_file():
            notes.append(f"{preset.name}: no train.tsv in {task_dir}; left out")
            continue
        settings = {k: v for k, v in vars(args).items()
                    if v is not None and k in ("model", "epochs", "lr", "batch_size", "max_length", "seed",
                                               "max_train_examples", "max_eval_examples", "device", "precision", "mode", "head")}
        config = TrainConfig(task=preset.kind, glue_task=preset.name, data_dir=str(task_dir),
                             output_dir=str(root / preset.name), **settings)
        if not args.quiet:
            sys.stderr.write(f"== {preset.name}\n")
        result = train(config, callbacks=[ProgressPrinter(quiet=args.quiet)])
        if result.status != "finished":
            notes.append(f"{preset.name}: run {result.status}: {result.message}")
            continue
        results[preset.name] = result.metrics
    board = glue_score(results, convention=args.convention)
    out.write(board.format_table() + "\n")
    for note in notes:
        out.write(note + "\n")
    (root / "scoreboard.json").write_text(json.dumps(results, indent=2, sort_keys=True), encoding="utf-8")
    return EXIT_OK


def cmd_export_run(args: argparse.Namespace, out: TextIO) -> int:
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.export import export_config_run

    folder = export_config_run(TrainConfig.load(args.config), args.out)
    out.write(f"exported to {folder}\nstart it with: cd {folder} && bertstudio train --config run.toml\n")
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
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.debug else logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
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
        log.error("unexpected error", exc_info=args.debug)
        sys.stderr.write(f"bertstudio: internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback)\n")
        return EXIT_FAILED
