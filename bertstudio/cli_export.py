"""The ``export-onnx`` and ``push-to-hub`` subcommands (one function each), kept beside cli.py.

``bertstudio export-onnx --model RUN/model --out DIR`` writes an ONNX export (see
:mod:`bertstudio.train.onnx_export`); ``bertstudio predict --model DIR/model.onnx`` runs
it (cli.py's predict). ``bertstudio push-to-hub --model RUN/model --repo-id NAME``
uploads a model folder with a generated model card, private unless ``--public``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from bertstudio.data.shell import shell_quote
from bertstudio.errors import ConfigError


def add_commands(sub: Any) -> None:
    p = sub.add_parser("export-onnx", help="export a fine-tuned model to ONNX (fp32 + int8) with a standalone predict.py")
    p.add_argument("--model", required=True, help="a model folder written by bertstudio (run/model)")
    p.add_argument("--out", required=True, metavar="DIR", help="a new or empty folder for the export")
    p.add_argument("--no-int8", dest="int8", action="store_false", help="skip the int8 quantized copy")

    p = sub.add_parser("push-to-hub", help="upload a model folder to the Hugging Face Hub (private by default)")
    p.add_argument("--model", required=True, help="a run's model/ folder, a run folder, or an ONNX export folder")
    p.add_argument("--repo-id", required=True, metavar="NAME", help="user/name or org/name on the Hub")
    p.add_argument("--public", action="store_true", help="make a new repository public (default: private)")
    p.add_argument("--token", help="a Hub access token with write rights (default: the cached `hf auth login`)")
    p.add_argument("--message", default="Upload model from bertstudio", help="commit message")


def cmd_export_onnx(args: argparse.Namespace, out: TextIO) -> int:
    from bertstudio.tasks.model import refuse_missing_model
    from bertstudio.train.onnx_export import export_onnx

    refuse_missing_model(args.model, hub=False)  # it exports folders bertstudio wrote, never a Hub id
    result = export_onnx(args.model, args.out, quantize=args.int8, progress=_progress(args))
    sizes = ", ".join(f"{name} {size / 1e6:.1f} MB" for name, size in result.sizes.items())
    from bertstudio.train.onnx_export import read_meta

    meta = read_meta(result.folder)  # what a prediction needs: the kind's inputs (both texts for a siamese model)
    needed = _needed_inputs(meta, args.model)
    flags = " ".join(f"--{name.replace('_', '-')} ..." for name in needed)
    out.write(f"exported to {result.folder} ({sizes}; largest difference from PyTorch {result.max_abs_diff:.2g})\n"
              f"predict with: bertstudio predict --model {shell_quote(result.fp32)} {flags}\n"
              f"or without bertstudio: python {shell_quote(result.folder / 'predict.py')} {flags}\n")
    return 0


def _needed_inputs(meta: dict[str, Any], model_dir: str) -> tuple[str, ...]:
    """The inputs a prediction of the export needs (tasks/limits.input_fields): a second text the
    kind reads optionally (regression) where the model recorded that every training row had one
    (tasks/limits.saved_pairs); for an older model, where its GLUE task's files hold pairs
    (STS-B), or its run mapped a text_pair column."""
    from pathlib import Path

    from bertstudio.data.glue import get_preset
    from bertstudio.data.kinds import get_spec
    from bertstudio.tasks.limits import input_fields, saved_pairs
    from bertstudio.train.rundir import saved_config

    pairs = saved_pairs({"bertstudio": meta})
    if pairs is None and meta.get("glue_task"):
        try:
            layouts = get_preset(meta["glue_task"]).layouts.values()
            pairs = "all" if any("text_pair" in layout.columns for layout in layouts) else None
        except ConfigError:  # a task this version does not know: say nothing more than the kind
            pass
    elif pairs is None:
        run = saved_config(Path(model_dir).expanduser().resolve().parent)  # None: not a run's model/ folder
        pairs = "all" if run is not None and "text_pair" in (run.columns or {}) else None
    return input_fields(get_spec(meta["kind"]), siamese=bool(meta.get("siamese")), pairs=pairs)[1]


def cmd_push_to_hub(args: argparse.Namespace, out: TextIO) -> int:
    from bertstudio.train.hub import push_to_hub

    result = push_to_hub(args.model, args.repo_id, token=args.token, private=not args.public,
                         commit_message=args.message, progress=_progress(args))
    out.write("".join(line + "\n" for line in result.lines()))
    return 0


def _progress(args: argparse.Namespace) -> Any:
    """The ``[ 5%] message`` lines on stderr that a long job prints (none with --quiet)."""

    def progress(fraction: float, message: object) -> None:  # a str, or an ExportStep / hub.PushStep (its English line)
        if not args.quiet:
            sys.stderr.write(f"[{fraction * 100:3.0f}%] {message}\n")

    return progress


def predictor_for(model: str, *, precision: str | None = None) -> Any:
    """The predictor ``bertstudio predict --model`` uses: an ONNX export's for a .onnx file.
    ``precision`` (--precision; None: fp32): one input costs little, so it is predicted exactly
    unless asked (bf16 weights gave a 0-100 rating as 96.5 where fp32 and predict.py give 96.655)."""
    if model.endswith(".onnx"):
        if precision not in (None, "fp32"):
            raise ConfigError("an ONNX file runs in the precision it was exported in", where="--precision",
                              expected="model.onnx (fp32) or model.int8.onnx, without --precision")
        from bertstudio.train.onnx_export import onnx_predictor

        return onnx_predictor(model)
    from bertstudio.tasks.model import refuse_missing_model
    from bertstudio.train.predict import Predictor

    refuse_missing_model(model)  # a mistyped path, not "couldn't connect to huggingface.co"
    return Predictor.load(model) if precision is None else Predictor.load(model, precision=precision)


COMMANDS = {"export-onnx": cmd_export_onnx, "push-to-hub": cmd_push_to_hub}
