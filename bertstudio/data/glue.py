"""GLUE (and a few more benchmark) presets: file layouts, label names, official metrics.

Layouts follow the files as published in the GLUE data release (and its
quirks: CoLA train/dev without header, MRPC's BOM, STS-B's 10 columns, MNLI's
gold label in the last of 12/16 columns). Every GLUE file is read with CSV
quoting off, because several hold unbalanced ``"`` that quoting would merge
into neighbouring rows. SNLI's validation.tsv (Hugging Face export) is the
exception: it uses standard quoting.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from bertstudio.data.examples import ExampleSet
from bertstudio.data.formats.common import read_bytes
from bertstudio.data.formats.table import TableOptions, read_table, scan_records
from bertstudio.data.formats.table_write import write_table
from bertstudio.errors import ConfigError, DataError
from bertstudio.presets import PRESET_INFO, PresetInfo, find_preset


@dataclass(frozen=True)
class SplitLayout:
    """Where the columns are in one split's file (positions are 0-based; -1 = last)."""

    header: bool
    columns: Mapping[str, int | str]
    ncols: int | None = None
    bom: bool = False  # MRPC train/dev start with a UTF-8 BOM (written back the same way)
    # The release's header (positional layouts with a header): line 1 is checked against it, since
    # columns are read by position and a reordered header swapped sentence1 and sentence2 silently.
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class GlueTask:
    """How one preset's files are laid out. Its kind, metrics and place in the GLUE
    average come from the shared table in :mod:`bertstudio.presets`, which the metrics
    read too."""

    name: str
    labels: tuple[str, ...]
    layouts: Mapping[str, SplitLayout]  # "train" | "dev" | "test"
    files: Mapping[str, str] = field(default_factory=lambda: {"train": "train.tsv", "dev": "dev.tsv", "test": "test.tsv"})
    folder: str = ""  # folder name in the GLUE release (defaults to name)
    quoting: bool = False
    delimiter: str = "\t"
    label_map: Mapping[str, str] | None = None  # file value -> label name
    score_range: tuple[float, float] | None = None
    test_rows: int | None = None  # rows of the GLUE release's test set (the server takes exactly these)

    @property
    def info(self) -> PresetInfo:
        return PRESET_INFO[self.name]

    @property
    def kind(self) -> str:
        return self.info.kind

    @property
    def metrics(self) -> tuple[str, ...]:
        return self.info.metrics

    @property
    def main_metric(self) -> str:
        return self.info.main_metric

    @property
    def in_glue_average(self) -> bool:
        return self.info.in_glue_average

    @property
    def columns(self) -> Mapping[str, int | str]:
        """The labelled (train) layout's column mapping."""
        return self.layouts["train"].columns


def _nli_index(first: str = "sentence1", second: str = "sentence2") -> dict[str, SplitLayout]:
    names = ("index", first, second)
    lab = SplitLayout(True, {"text": 1, "text_pair": 2, "label": 3}, 4, names=(*names, "label"))
    return {"train": lab, "dev": lab, "test": SplitLayout(True, {"text": 1, "text_pair": 2}, 3, names=names)}


_NLI3 = ("entailment", "neutral", "contradiction")


def _names(*names: str) -> dict[str, Any]:
    """Label names for a preset whose files hold ids 0, 1, ...: the names the GLUE paper and
    Hugging Face's glue datasets give them, in id order (so "positive class = id 1" holds), and
    the map that reads ids as names and writes names back as ids."""
    return {"labels": names, "label_map": {str(i): name for i, name in enumerate(names)}}
_MNLI_HEAD = ("index", "promptID", "pairID", "genre", "sentence1_binary_parse", "sentence2_binary_parse",
              "sentence1_parse", "sentence2_parse", "sentence1", "sentence2")
_MNLI = {
    "train": SplitLayout(True, {"text": 8, "text_pair": 9, "label": -1}, 12, names=(*_MNLI_HEAD, "label1", "gold_label")),
    "dev": SplitLayout(True, {"text": 8, "text_pair": 9, "label": -1}, 16,
                       names=(*_MNLI_HEAD, "label1", "label2", "label3", "label4", "label5", "gold_label")),
    "test": SplitLayout(True, {"text": 8, "text_pair": 9}, 10, names=_MNLI_HEAD),
}
_QQP_HEAD = ("id", "qid1", "qid2", "question1", "question2", "is_duplicate")
_MRPC_HEAD = ("#1 ID", "#2 ID", "#1 String", "#2 String")
_STSB_HEAD = ("index", "genre", "filename", "year", "old_index", "source1", "source2", "sentence1", "sentence2")

GLUE_TASKS: dict[str, GlueTask] = {
    "CoLA": GlueTask(
        "CoLA", **_names("unacceptable", "acceptable"),
        layouts={
            "train": SplitLayout(False, {"text": 3, "label": 1}, 4),
            "dev": SplitLayout(False, {"text": 3, "label": 1}, 4),
            "test": SplitLayout(True, {"text": 1}, 2, names=("index", "sentence")),
        },
        test_rows=1063,
    ),
    "SST-2": GlueTask(
        "SST-2", **_names("negative", "positive"),
        layouts={
            "train": SplitLayout(True, {"text": 0, "label": 1}, 2, names=("sentence", "label")),
            "dev": SplitLayout(True, {"text": 0, "label": 1}, 2, names=("sentence", "label")),
            "test": SplitLayout(True, {"text": 1}, 2, names=("index", "sentence")),
        },
        test_rows=1821,
    ),
    "MRPC": GlueTask(
        "MRPC", **_names("not_equivalent", "equivalent"),
        layouts={
            "train": SplitLayout(True, {"text": 3, "text_pair": 4, "label": 0}, 5, bom=True, names=("Quality", *_MRPC_HEAD)),
            "dev": SplitLayout(True, {"text": 3, "text_pair": 4, "label": 0}, 5, bom=True, names=("Quality", *_MRPC_HEAD)),
            "test": SplitLayout(True, {"text": 3, "text_pair": 4}, 5, names=("index", *_MRPC_HEAD)),
        },
        test_rows=1725,
    ),
    "STS-B": GlueTask(
        "STS-B", (),
        {
            "train": SplitLayout(True, {"text": 7, "text_pair": 8, "label": 9}, 10, names=(*_STSB_HEAD, "score")),
            "dev": SplitLayout(True, {"text": 7, "text_pair": 8, "label": 9}, 10, names=(*_STSB_HEAD, "score")),
            "test": SplitLayout(True, {"text": 7, "text_pair": 8}, 9, names=_STSB_HEAD),
        },
        score_range=(0.0, 5.0), test_rows=1379,
    ),
    "QQP": GlueTask(
        "QQP", **_names("not_duplicate", "duplicate"),
        layouts={
            "train": SplitLayout(True, {"text": 3, "text_pair": 4, "label": 5}, 6, names=_QQP_HEAD),
            "dev": SplitLayout(True, {"text": 3, "text_pair": 4, "label": 5}, 6, names=_QQP_HEAD),
            "test": SplitLayout(True, {"text": 1, "text_pair": 2}, 3, names=("id", "question1", "question2")),
        },
        test_rows=390965,
    ),
    "MNLI": GlueTask(
        "MNLI", _NLI3, _MNLI,
        files={"train": "train.tsv", "dev": "dev_matched.tsv", "test": "test_matched.tsv"}, test_rows=9796,
    ),
    "MNLI-mm": GlueTask(
        "MNLI-mm", _NLI3, _MNLI, folder="MNLI",
        files={"train": "train.tsv", "dev": "dev_mismatched.tsv", "test": "test_mismatched.tsv"}, test_rows=9847,
    ),
    "QNLI": GlueTask("QNLI", ("entailment", "not_entailment"), _nli_index("question", "sentence"), test_rows=5463),
    "RTE": GlueTask("RTE", ("entailment", "not_entailment"), _nli_index(), test_rows=3000),
    "WNLI": GlueTask("WNLI", **_names("not_entailment", "entailment"), layouts=_nli_index(), test_rows=146),
    "AX": GlueTask(
        "AX", _NLI3,
        {"test": SplitLayout(True, {"text": 1, "text_pair": 2}, 3, names=("index", "sentence1", "sentence2"))},
        files={"test": "diagnostic.tsv"}, folder="diagnostic", test_rows=1104,
    ),
}

_PAIR3 = SplitLayout(True, {"text": "premise", "text_pair": "hypothesis", "label": "label"}, 3)

# Non-GLUE sets that load the same way: the SNLI validation export and two Chinese sets (CLUE).
EXTRA_PRESETS: dict[str, GlueTask] = {
    "SNLI": GlueTask(
        "SNLI", _NLI3,
        {"train": _PAIR3, "dev": _PAIR3, "test": _PAIR3},
        files={"train": "train.tsv", "dev": "validation.tsv", "test": "test.tsv"},
        quoting=True, label_map=_names(*_NLI3)["label_map"],
    ),
    "ChnSentiCorp": GlueTask(
        "ChnSentiCorp", **_names("negative", "positive"),
        layouts={
            "train": SplitLayout(True, {"text": "text_a", "label": "label"}),
            "dev": SplitLayout(True, {"text": "text_a", "label": "label"}),
            "test": SplitLayout(True, {"text": "text_a"}),
        },
    ),
    "AFQMC": GlueTask(
        "AFQMC", ("0", "1"),
        {
            "train": SplitLayout(False, {"text": 0, "text_pair": 1, "label": 2}, 3),
            "dev": SplitLayout(False, {"text": 0, "text_pair": 1, "label": 2}, 3),
            "test": SplitLayout(False, {"text": 0, "text_pair": 1}, 2),
        },
        files={"train": "train.txt", "dev": "dev.txt", "test": "test.txt"},
    ),
}

PRESETS: dict[str, GlueTask] = {**GLUE_TASKS, **EXTRA_PRESETS}


def score_scale(glue_task: str | None) -> tuple[float, float] | None:
    """The score scale of a GLUE task (STS-B: 0 to 5); None for a task without one, or none named."""
    preset = GLUE_TASKS.get(glue_task or "")
    return preset.score_range if preset is not None else None


def get_preset(name: str) -> GlueTask:
    """A preset by name, forgiving case and dashes ("sst2", "sts-b", "mnli_mm")."""
    info = find_preset(name)
    if info is not None:
        return PRESETS[info.name]
    raise ConfigError(f"unknown GLUE task / preset {name!r}", expected="one of " + ", ".join(PRESETS))


def preset_for_path(path: str | os.PathLike[str]) -> tuple[GlueTask, str] | None:
    """(preset, split) when ``path`` sits where the GLUE release (or SNLI/CLUE) puts that file."""
    p = Path(path)
    info = find_preset(p.parent.name)
    if info is None:
        return None
    name = info.name
    for cand in (PRESETS[name], *(t for t in PRESETS.values() if t.folder == PRESETS[name].folder and t.folder)):
        for split, fname in cand.files.items():
            if fname == p.name:
                return cand, split
    return None


def split_of(path: str | os.PathLike[str], task: GlueTask) -> str:
    name = Path(path).name
    for split, fname in task.files.items():
        if fname == name:
            return split
    stem = Path(path).stem.lower()
    for split in ("train", "dev", "test"):
        if split in stem:
            return split
    return "validation" in stem and "dev" or "train"


def eval_split(task: GlueTask, path: str | os.PathLike[str]) -> str:
    """The layout an evaluation file is read with: the split its exact file name is
    (test.tsv is unlabelled), else dev, whatever else the name holds ("snli_test.tsv"). A
    file name of a preset read with the same layouts counts too (MNLI's test_mismatched.tsv
    for an MNLI model)."""
    name = Path(path).name
    same = [task, *(t for t in PRESETS.values() if t.layouts is task.layouts and t is not task)]
    return next((split for t in same for split, fname in t.files.items() if fname == name), "dev")


def _kind_error(task: GlueTask, data_dir: Path, split: str, *, direct: bool = False) -> DataError | None:
    """The split's file, or the task's folder, there but of the wrong kind; None otherwise.
    ``direct``: ``data_dir`` may be the task's folder itself (load_glue takes either)."""
    folder = data_dir / (task.folder or task.name)
    for cand in (data_dir / task.files[split], folder / task.files[split])[0 if direct else 1:]:
        if cand.is_dir():  # there, but not a file: "no dev file" sent the person looking for it
            return DataError("is a folder", path=cand, expected="a file")
        if os.path.lexists(cand):  # a file, or a FIFO / dangling link the reader refuses by name
            return None
    if os.path.lexists(folder) and not folder.is_dir():
        return DataError("is a file", path=folder, expected=f"a folder holding {task.files[split]}")
    return None


def path_problem(task: GlueTask, data_dir: str | os.PathLike[str], split: str) -> str | None:
    """What is wrong with the split's path in a GLUE folder (RTE/dev.tsv) when something is there
    but of the wrong kind (the file a folder, the task's folder a file); None where nothing is
    (absent, or a file). One wording for load_glue, the glue command and glue-submission."""
    error = _kind_error(task, Path(data_dir), split) if split in task.files else None
    return None if error is None else error.message


def resolve_file(task: GlueTask, data_dir_or_file: str | os.PathLike[str], split: str) -> Path:
    p = Path(data_dir_or_file)
    if p.exists() and not p.is_dir():  # a file, or a FIFO/device the reader refuses by name
        return p
    if split not in task.files:
        raise ConfigError(f"{task.name} has no {split!r} split", expected=" | ".join(task.files))
    error = _kind_error(task, p, split, direct=True)
    if error is not None:
        raise error
    for cand in (p / task.files[split], p / (task.folder or task.name) / task.files[split]):
        if os.path.lexists(cand):  # a file, or a FIFO / dangling link the reader refuses by name
            return cand
    raise DataError(f"no {split} file for {task.name}", path=p, expected=f"{task.files[split]} in this folder")


# The GLUE sets a task's model predicts besides its own: MNLI's model reads MNLI's mismatched half
# and the diagnostic set AX (labelled with MNLI's classes, and with no training data of its own).
ALSO_PREDICTED: dict[str, tuple[str, ...]] = {"MNLI": ("MNLI-mm", "AX")}


def submission_file(task: GlueTask) -> str:
    """The name gluebenchmark.com expects the task's test predictions under (MNLI-m.tsv for the matched half)."""
    return "MNLI-m.tsv" if task.name == "MNLI" else f"{task.name}.tsv"


def submission_value(task: GlueTask, prediction: Mapping[str, Any]) -> str:
    """A prediction row's cell in a GLUE submission file: the label as the files hold it (the ids
    0/1 for the tasks whose files hold ids, the names for the NLI tasks), a score clipped to the
    task's scale (STS-B: the server takes 0 to 5)."""
    if "score" in prediction:
        score = float(prediction["score"])
        if task.score_range is not None:
            score = min(max(score, task.score_range[0]), task.score_range[1])
        return repr(score)
    as_ids = {name: value for value, name in (task.label_map or {}).items()}
    return as_ids.get(prediction["label"], prediction["label"])


def submission_index(task: GlueTask, data_dir_or_file: str | os.PathLike[str]) -> list[str]:
    """The ``index`` of each row of the task's test file, in the order ``load_glue(task, ...,
    split="test")`` reads them: the first column, which every GLUE test file starts with (QQP
    calls it id), read by the same reader as the texts so the rows line up. A DataError for a
    file the server would reject or score wrongly: another row count than the GLUE release's
    test set, an index that is not a whole number, or one that occurs twice. The row number
    for a preset whose test file has no index column."""
    path = resolve_file(task, data_dir_or_file, "test")
    _check_header(task, "test", path)
    opts = replace(_options(task, "test"), columns={"text": 0}, label_map=None, score_range=None)
    try:
        first = [v.strip() for v in read_table(path, "sentence", opts).dataset["text"]]
    except DataError as exc:  # the index is read as the text column: its empty cell is no "empty text"
        if exc.problem != "empty text":
            raise
        raise DataError("empty index", path=exc.path, where=exc.where,
                        expected="each test row's own index, once, as in the GLUE release") from None
    layout = task.layouts["test"]
    if task.test_rows is not None and len(first) != task.test_rows:
        raise DataError(f"{len(first):,} rows", path=path,
                        expected=f"the {task.test_rows:,} rows of GLUE's {task.name} test set")
    if not (layout.names and layout.names[0].lower() in ("index", "id")):
        return [str(i) for i in range(len(first))]
    seen: dict[int, int] = {}
    for row, value in enumerate(first):
        # ASCII digits without a leading zero, as the release writes them: str.isdigit() also takes
        # "²", "٣" and "５", and "01" is the server's 1 again, leaving a row twice and one missing.
        whole = value.isascii() and value.isdigit() and (value == "0" or not value.startswith("0"))
        # and below the row count: the release numbers its n test rows 0 to n-1, so with n rows, each index
        # once, that is every index; a 22-digit index was zipped, a row the server has not. More digits than
        # the last index has is past it without int(), which refuses a string of more than 4,300 digits.
        past = whole and (len(value) > len(str(len(first) - 1)) or int(value) >= len(first))
        if not whole or past or int(value) in seen:
            shown = value if len(value) <= 40 else f"{value[:20]}… ({len(value):,} characters)"
            lines = [line for line, _f in scan_records(read_bytes(path).decode("utf-8", "replace").lstrip("\ufeff"),
                                                        task.delimiter, task.quoting)]
            problem = (f"index {shown!r} is not a whole number as GLUE writes it (ASCII digits, no leading zero)"
                       if not whole else
                       f"index {shown} is past the last row (GLUE numbers the {len(first):,} rows of its {task.name} "
                       f"test set 0 to {len(first) - 1:,})" if past else
                       f"index {value} again (first on line {lines[seen[int(value)] + 1]})")
            raise DataError(problem, path=path, where=f"line {lines[row + 1]}",
                            expected="each test row's own index, once, as in the GLUE release")
        seen[int(value)] = row
    return first


def _written_header(layout: SplitLayout) -> list[str]:
    """The header :func:`save_glue` writes for a positional layout (its own names, not the release's)."""
    n = layout.ncols or (max(v for v in layout.columns.values() if isinstance(v, int)) + 1)
    head = ["index"] + [f"col{i}" for i in range(1, n)]
    for c, i in layout.columns.items():
        head[i] = {"text": "sentence1", "text_pair": "sentence2", "label": "label"}[c]
    return head


_INDEX_NAMES = ("index", "id", "idx")  # a GLUE test file's first column, as the release, QQP and datasets name it


def _refuse_datasets_export(t: GlueTask, layout: SplitLayout, path: Path, line: int, fields: list[str]) -> None:
    """A header ending in ``idx`` (``sentence label idx``) is Hugging Face datasets' export of the
    task, not the GLUE release: it was refused as "found 3 columns (expected 2 columns)" or by
    its header, neither saying what the file is or how to read it (--format tsv --columns)."""
    cells = [f.strip() for f in fields]
    if len(cells) < 2 or cells[-1].lower() != "idx" or [c.lower() for c in cells] == [n.lower() for n in layout.names]:
        return
    if not layout.header and "label" not in (c.lower() for c in cells):  # a headerless row whose last field is "idx"
        return
    texts = [c for c in cells[:-1] if c.lower() != "label"][:2]
    mapping = ",".join([f"{k}={c}" for k, c in zip(("text", "text_pair"), texts)]
                       + (["label=label"] if any(c.lower() == "label" for c in cells) else []))
    raise DataError(f'header "{" ".join(cells)}": a Hugging Face datasets export of {t.name}, not the GLUE release',
                    path=path, where=f"line {line}",
                    expected=f"the GLUE release's file, or this one read with --format tsv --columns {mapping}, "
                             "its labels being the dataset's label ids")


# source (the release's are lower case; an upper-case GJ04 was missed), label, mark, sentence
_COLA_ROW = re.compile(r"[A-Za-z]+[-_]?\d{2}\t[01]\t(|[*?#]{1,2})\t[^\t]*\S[^\t]*")


def refuse_release_layout(path: str | os.PathLike[str]) -> None:
    """A DataError for a file that is GLUE's own CoLA train/dev TSV (no header: source, label,
    original mark, sentence) read outside a CoLA folder, where nothing names its layout: read as
    a table it was refused as "line 1: empty text" (the mark column), or read the mark as the text."""
    text = read_bytes(path, head=1 << 16).decode("utf-8", "replace").lstrip("\ufeff")
    rows = [ln.rstrip("\r") for ln in text.split("\n")[:-1][:50] if ln.strip()]  # whole lines only
    if rows and all(_COLA_ROW.fullmatch(ln) for ln in rows):
        raise DataError("GLUE's own CoLA rows (source, label, mark, sentence; no header) outside a CoLA folder", path=path,
                        where="line 1", expected="--glue-task CoLA (the release's labels, acceptable/unacceptable), "
                                                 "or --format tsv --columns text=3,label=1 (labels 0/1)")


def _check_header(t: GlueTask, split: str, path: Path) -> None:
    """Line 1 of a positional file with a header names, at each column read, what the GLUE
    release (or :func:`save_glue`) has there: the columns are taken by position, so a reordered
    header (sentence2 before sentence1) trained and scored on swapped pairs without a word."""
    layout = t.layouts.get(split) or t.layouts["train"]
    if not all(isinstance(v, int) for v in layout.columns.values()):
        return
    text = read_bytes(path, head=1 << 16).decode("utf-8", "replace").lstrip("\ufeff")
    line, fields = next(scan_records(text, t.delimiter, t.quoting), (1, []))
    # also where the release has no header (CoLA's train and dev): "found 3 columns (expected 4 columns)"
    _refuse_datasets_export(t, layout, path, line, fields)
    if not (layout.header and layout.names) or len(fields) != len(layout.names):
        return  # the reader says "found N columns (expected M)"
    n = len(fields)
    # The index column is read only from a test file (submission_index); Hugging Face's datasets
    # calls it idx, so a train or dev file with that header was refused though read right.
    indexed = split == "test" and layout.names[0].lower() in _INDEX_NAMES
    read = {v + n if v < 0 else v for v in layout.columns.values()} | ({0} if indexed else set())
    written = _written_header(layout)
    cells = [f.strip().lower() for f in fields]

    def named(i: int) -> tuple[str, ...]:
        return (layout.names[i].lower(), written[i].lower(), *(_INDEX_NAMES if indexed and i == 0 else ()))

    if any(cells[i] not in named(i) for i in read):
        raise DataError(f'header "{" ".join(f.strip() for f in fields)}"', path=path, where=f"line {line}",
                        expected=f'"{" ".join(layout.names)}"')


def _options(t: GlueTask, split: str) -> TableOptions:
    layout = t.layouts.get(split) or t.layouts["train"]
    return TableOptions(
        delimiter=t.delimiter, quoting=t.quoting, header=layout.header, columns=layout.columns, ncols=layout.ncols,
        label_map=t.label_map, score_range=t.score_range, meta={"glue_task": t.name, "split": split},
    )


def load_glue(
    task: str | GlueTask,
    data_dir_or_file: str | os.PathLike[str],
    split: str | None = None,
    *,
    require_labels: bool = False,
) -> ExampleSet:
    """One split of a preset task; test splits are unlabelled (gold None). meta["glue_task"] is set."""
    t = get_preset(task) if isinstance(task, str) else task
    split = {"validation": "dev", "val": "dev"}.get(split or "", split)
    path = resolve_file(t, data_dir_or_file, split or "train")
    split = split or split_of(path, t)
    if split in t.layouts:
        _check_header(t, split, path)
    opts = _options(t, split)
    return read_table(path, t.kind, opts, labels=list(t.labels) if t.labels else None, require_labels=require_labels)


def save_glue(examples: ExampleSet, path: str | os.PathLike[str], task: str | None = None) -> None:
    """Write in the task's own file layout; columns bertstudio does not keep are written empty
    (index columns get the row number) so the GLUE loader reads the file back unchanged."""
    name = task or examples.meta.get("glue_task")
    if not name:
        raise ConfigError("these rows come from no GLUE task file, so there is no GLUE layout to write them in",
                          path=path, expected="another format, such as JSON Lines")
    t = get_preset(name)
    n_labelled = len(examples) - examples.dataset.with_format("arrow")["label"].null_count
    labelled = n_labelled > 0
    split = examples.meta.get("split") if examples.meta.get("glue_task") == t.name else None
    test = t.layouts.get("test")
    named = split_of(path, t)  # the file name's split wins: a labelled test split saved as mydev.tsv reads back as dev
    if labelled and (named == "test" or (named is None and split == "test")) and test is not None \
            and "label" not in test.columns:
        # refused, not written: the train layout under a test name reads back as the test layout (MRPC
        # took the label column for its index, every label lost without a word), and the test layout
        # would drop the labels the person made
        raise DataError(
            f"a GLUE {t.name} test file holds no labels, and {n_labelled:,} rows of this split are labelled",
            path=path,
            expected="export as TSV, CSV or JSONL, which keep the labels, or to a train/dev file name")
    if split not in t.layouts or ("label" in t.layouts[split].columns) != labelled:
        split = "train" if labelled else "test"
    layout = t.layouts.get(split) or t.layouts["train"]
    if not all(isinstance(v, int) for v in layout.columns.values()):
        write_table(examples, path, delimiter=t.delimiter, quoting=t.quoting, columns=dict(layout.columns),
                    header=layout.header, label_map=t.label_map)
        return
    _write_positional(examples, path, t, layout)


def _write_positional(examples: ExampleSet, path: str | os.PathLike[str], t: GlueTask, layout: SplitLayout) -> None:
    import io

    from bertstudio.data.atomic import atomic_write_bytes
    from bertstudio.data.formats.common import BOM, check_writable_field
    from bertstudio.data.formats.cells import format_score

    n = layout.ncols or (max(v for v in layout.columns.values()) + 1)
    pos = {c: (v + n if v < 0 else v) for c, v in layout.columns.items()}
    buf = io.StringIO()
    if layout.header:
        buf.write("\t".join(_written_header(layout)) + "\n")
    ds = examples.dataset.with_format("arrow")
    row = 0
    spec = examples.spec
    as_ids = {name: value for value, name in (t.label_map or {}).items()}  # names back to the file's ids
    for batch in ds.iter(batch_size=10_000):
        cols = {c: batch[c].to_pylist() for c in pos}
        for r in range(batch.num_rows):
            cells = [""] * n
            if 0 not in pos.values():
                cells[0] = str(row)
            for c, i in pos.items():
                v = cols[c][r]
                if v is None:
                    v = ""
                elif c == spec.gold_column:
                    v = format_score(v) if spec.gold.numeric else as_ids.get(v, v)
                check_writable_field(v, c, f"row {row + 1}", path)
                cells[i] = v
            buf.write("\t".join(cells) + "\n")
            row += 1
    data = buf.getvalue().encode("utf-8")
    atomic_write_bytes(path, BOM + data if layout.bom else data, parents=True)
