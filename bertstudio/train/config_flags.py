"""The command line's flags, generated from TrainConfig's fields: one flag per setting with
the field's type, choices, help and older spellings, so a new setting reaches the CLI by
itself (cli.py builds every command's options here)."""

from __future__ import annotations

import argparse
import typing
from dataclasses import fields
from typing import Any, Iterable

from bertstudio.train.config import TrainConfig, _type_of


def parse_columns(text: str) -> dict[str, str]:
    """``text=sentence,label=label`` -> {"text": "sentence", "label": "label"}."""
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise argparse.ArgumentTypeError(f"column mapping {part!r} is not NAME=COLUMN")
        if key.strip() in out:  # text=sentence,...,text=id read the id column as the text without a word
            raise argparse.ArgumentTypeError(f"column mapping names {key.strip()!r} twice "
                                             f"({out[key.strip()]!r} and {value.strip()!r}): which column is it?")
        out[key.strip()] = value.strip()
    return out


def parse_names(text: str) -> list[str]:
    """``a,b,c`` -> ["a", "b", "c"]; a list with no name in it (``,,``) is refused, not read as no list."""
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"{text!r} holds no names (expected a,b,c)")
    return names


_PARSERS: dict[Any, Any] = {list: parse_names, dict: parse_columns}


def add_arguments(parser: argparse.ArgumentParser, names: Iterable[str] | None = None, *,
                  required: Iterable[str] = (), help: dict[str, str] | None = None) -> None:
    """A flag per setting in ``names`` (default: every one), in the dataclass' groups:
    ``--field-name`` plus the field's older spellings (``--train``, ``--out``, ...), its type,
    choices and help; booleans as ``--x/--no-x``. Every flag defaults to None ("not given"),
    so :func:`given_settings` can tell typed flags from defaults: a ``--config`` file is
    overridden only by what the user typed, and the defaults stay on the dataclass.
    Written here rather than with transformers' HfArgumentParser, which fills every default
    in and parses neither ``a,b`` lists nor ``k=v`` maps (the README's ``--columns``)."""
    by_name = {f.name: f for f in fields(TrainConfig)}
    required = set(required)
    groups: dict[str, Any] = {}
    for name in by_name if names is None else names:
        f = by_name[name]
        meta = f.metadata
        if meta["record"]:  # auto_reason: what bertstudio wrote about a run, not something to type
            continue
        group = groups.get(meta["group"]) or groups.setdefault(meta["group"], parser.add_argument_group(meta["group"]))
        text = (help or {}).get(name, meta["help"])
        if f.default is not None and not isinstance(f.default, bool) and "(default:" not in text:  # a command's own
            text += f" (default: {f.default})"
        kw: dict[str, Any] = {"dest": name, "default": None, "help": text, "required": name in required}
        _optional, base = _type_of(name)
        if base is bool:
            kw["action"] = argparse.BooleanOptionalAction
        else:
            kw["type"] = _PARSERS.get(typing.get_origin(base), base)
            if meta["metavar"]:
                kw["metavar"] = meta["metavar"]
            if meta["choices"] is not None:
                kw["choices"] = tuple(meta["choices"]() if callable(meta["choices"]) else meta["choices"])
        group.add_argument(*meta["flags"], "--" + name.replace("_", "-"), **kw)


def given_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The settings whose flags were given (see :func:`add_arguments`)."""
    return {f.name: value for f in fields(TrainConfig) if (value := getattr(args, f.name, None)) is not None}
