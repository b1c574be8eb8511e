"""The training and evaluation sets a config names, when the caller passes none.

Every file of a run is read with one ReadSpec, resolved once from the config (or, when
the config names no preset, from where the training file sits): an evaluation file is
read with the training file's preset, layout and label names, so SNLI's 0/1/2 in a file
outside its ``snli/`` folder still means entailment/neutral/contradiction, and a label
the training data lacks is an error naming both files instead of a new class.

Without evaluation data, ``hold_out`` evaluates on a fraction of the labelled training
rows drawn per label with the seed (:func:`hold_out`): the app's rule for a project without a dev
split, here so that a run.toml and ``export-run`` reproduce it. Examples taken from a
project carry their project rows (:func:`pick_rows`), so predictions map back to them.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from bertstudio.data.labelmap import DECIMAL, WHOLE_NUMBER, spelling
from bertstudio.errors import ConfigError, DataError
from bertstudio.train.config import HOLD_OUT_MIN_ROWS, HOLD_OUT_SPLIT, TrainConfig

_ROWS = "rows"  # ExampleSet.meta key: the project row of each example, in order (with meta["split"])
_CHECKED = "repeats_checked"  # ExampleSet.meta key: warn_repeats has looked at this run's sets


def load_sets(config: TrainConfig, train_set: Any = None, eval_set: Any = None, *,
              quiet: bool = False) -> tuple[Any, Any]:
    """(train, eval) ExampleSets: as given, else from ``glue_task`` + ``data_dir`` or the
    files named; capped by ``max_train_examples`` (drawn with the seed) and
    ``max_eval_examples`` (the first rows). ``quiet``: the rows a run would train on, without
    the warnings its start says (the Runs page asks on each selection)."""
    from bertstudio.data.io import load_alongside

    spec = run_spec(config, train_set)
    checked = _checked(train_set) and (eval_set is None or _checked(eval_set))  # cmd_train's, passed to each seed's run
    made = train_set is None  # this call makes the training rows (reads, splits or caps them): it says what they lack
    read_eval = eval_set is None  # a set read here from a file is checked for gold values below
    if train_set is None:
        train_set = read_train_set(config, spec)
        if config.glue_task and config.data_dir and eval_set is None and not config.eval_file:
            from bertstudio.data.glue import load_glue

            eval_set = load_glue(config.glue_task, config.data_dir, split="dev")
    if eval_set is None and config.eval_file:
        eval_set = load_alongside(train_set, spec, config.eval_file)
    check_kind(train_set, config)
    check_enough_labels(train_set, config)
    check_label_values(train_set, config)
    held = eval_set is None and bool(config.hold_out)
    numbers = None  # the rows warn_repeats names, when the sets' own positions are not them
    if held:
        whole = train_set
        kept, held_rows = held_out_positions(whole, config.hold_out, config.seed, config.hold_out_split)
        train_set, eval_set = pick_rows(whole, kept), pick_rows(whole, held_rows)
        if rows_of(whole)[1] is None:  # a file's: name its rows, not the parts' positions
            numbers = (kept, held_rows)
    read = train_set  # a repeat is the data's, whether or not max_train_examples draws its row
    if config.max_train_examples is not None and config.max_train_examples < len(train_set):
        train_set = _without_rows(train_set).head(config.max_train_examples, seed=config.seed)
        made = True
    if (made or held) and not quiet:  # not again for sets an earlier call made (cmd_train's, passed to each seed's run)
        warn_untrained_classes(train_set, config.labels, eval_set if held else None)
    if eval_set is not None and config.max_eval_examples is not None:
        eval_set = pick_rows(eval_set, range(min(config.max_eval_examples, len(eval_set))))
    if read_eval and eval_set is not None and not config.hold_out and not quiet:
        # before the model loads: a test split trained in full, then said "none of the metrics was computed"
        check_scorable(eval_set, where="eval_file" if config.eval_file else "data_dir")
        warn_unscored(eval_set)
    if not checked and not quiet:
        warn_repeats(read, eval_set, held=held, numbers=numbers)
        train_set = _mark_checked(train_set)
        eval_set = _mark_checked(eval_set) if eval_set is not None else None
    return train_set, eval_set


def checked_once(train_set: Any, eval_set: Any = None) -> tuple[Any, Any]:
    """``(train_set, eval_set)`` after :func:`warn_repeats` has looked at them, marked so that
    :func:`load_sets` does not look again: for a job that trains many runs on parts of the same
    rows (a learning curve's ~12), which said the same warning once per run."""
    if _checked(train_set) and (eval_set is None or _checked(eval_set)):
        return train_set, eval_set
    warn_repeats(train_set, eval_set)
    return _mark_checked(train_set), _mark_checked(eval_set) if eval_set is not None else None


def _checked(examples: Any) -> bool:
    return examples is not None and bool(examples.meta.get(_CHECKED))


def _mark_checked(examples: Any) -> Any:
    return replace(examples, meta={**examples.meta, _CHECKED: True})


def eval_data_settings(config: Mapping[str, Any]) -> dict[str, Any]:
    """The saved settings (TrainConfig's fields, as a dict) that chose a run's evaluation rows, as
    :func:`load_sets` reads them: two runs whose values differ here evaluated other rows, unless
    their predictions say otherwise. ``max_eval_examples`` is not among them: it keeps the first
    rows, so the rows two caps share are the same."""
    if config.get("eval_file"):
        keys: tuple[str, ...] = ("task", "glue_task", "eval_file", "data_format", "columns")
    elif config.get("glue_task") and config.get("data_dir"):
        keys = ("task", "glue_task", "data_dir")
    else:  # held out from the training rows (drawn with the seed), or given by the app
        keys = ("task", "glue_task", "train_file", "data_dir", "data_format", "columns", "hold_out",
                "hold_out_split", "seed")
    return {k: config.get(k) for k in keys}


def warn_untrained_classes(train_set: Any, labels: Sequence[str] | None, held: Any = None) -> None:
    """Say, by name, a class the model is built for that no training row shows (listed with
    ``labels`` but absent from the data, or dropped by ``max_train_examples``): it can never be
    predicted; and with rows ``held`` out of the training data, a class none of them evaluates
    (a class of one row stays in training, see :func:`hold_out`). A 4-class run trained on 44
    rows without its one Business row finished with no word of it."""
    import logging

    if not train_set.spec.gold.classes or train_set.spec.gold.per_token:
        return
    from bertstudio.train.small_data import label_counts

    trained = label_counts(train_set)
    log = logging.getLogger("bertstudio")
    missing = [name for name in (labels or train_set.labels) if not trained.get(str(name))]
    if missing:
        log.warning("%s: no training row of class %s: the model can never predict %s",
                    train_set.source or "the training data", _few(missing), "it" if len(missing) == 1 else "them",
                    extra=_facts("untrained_classes", train_set, classes=[str(n) for n in missing]))
    if held is not None:
        evaluated = label_counts(held)
        unseen = [name for name in trained if not evaluated.get(name)]
        if unseen:  # a class of one row stays in training (and a few held-out rows cannot cover many classes)
            log.warning("%s: no held-out row of class %s: trained on, not evaluated",
                        train_set.source or "the training data", _few(unseen),
                        extra=_facts("unevaluated_classes", train_set, classes=[str(n) for n in unseen]))


def warn_repeats(train_set: Any, eval_set: Any = None, *, held: bool = False,
                 numbers: tuple[Sequence[int], Sequence[int]] | None = None) -> None:
    """Say, before the run, that evaluation rows repeat training rows (every input equal as text,
    data/repeats.input_keys): their scores overstate how the model does on rows it has not seen (a
    dev file cut from the spreadsheet that also fed train); and that one input is labelled two ways
    among the training rows ('pos' and 'neg'), which caps accuracy and teaches nothing. ``held``:
    the evaluation rows were held out of the training file; ``numbers``: the (training, evaluation)
    rows of that file each position is, to name them (a project's sets name their own rows).

    Gold values that differ are looked for in classes, scores and tags (UD EWT's training file
    tags 5 repeated sentences two ways), not in QA answers: the same question over the same
    context with another answer is one more accepted answer (SQuAD keeps several)."""
    import logging

    from bertstudio.data.repeats import input_keys

    log = logging.getLogger("bertstudio")
    if not len(train_set):
        return
    train_keys = input_keys(train_set)
    spec = train_set.spec
    if spec.gold.classes or spec.gold.numeric or spec.gold.per_token:
        conflict = _conflicting(train_set, train_keys)
        if conflict is not None:
            count, first, second = conflict
            what = "scores" if spec.gold.numeric else "tags" if spec.gold.per_token else "labels"
            split, rows = _row_namer(train_set, numbers[0] if numbers else None)
            values = _difference(train_set, first, second)
            log.warning("%s: %s input%s appear%s more than once with different %s (first: %srows %s and %s, %s)",
                        train_set.source or "the training data", f"{count:,}", "s" if count != 1 else "",
                        "" if count != 1 else "s", what, _words(split), rows(first), rows(second), _said(values),
                        extra=_facts("conflicting_gold", train_set, count=count, what=what, split=split,
                                     rows=(rows(first), rows(second)), values=values))
    if eval_set is None or not len(eval_set):
        return
    eval_keys = input_keys(eval_set)
    if eval_keys.type != train_keys.type:
        eval_keys = eval_keys.cast(train_keys.type)
    from bertstudio.data.repeats import gold_values

    trained = pc.if_else(pc.is_valid(gold_values(train_set)), train_keys, pa.scalar(None, train_keys.type))
    trained = trained.combine_chunks() if isinstance(trained, pa.ChunkedArray) else trained
    found = pc.index_in(eval_keys, value_set=trained, skip_nulls=True)  # a row without gold is not trained on
    hits = np.flatnonzero(pc.is_valid(found).to_numpy(zero_copy_only=False))
    if not len(hits):
        return
    seen_in = found[int(hits[0])].as_py()
    columns = [c for c in (*spec.inputs, *spec.optional_inputs) if c in train_set.dataset.column_names]
    eval_split, eval_row = _row_namer(eval_set, numbers[1] if numbers else None, "held-out" if held else "eval")
    train_split, train_row = _row_namer(train_set, numbers[0] if numbers else None)
    log.warning("%s: %s of %s %s rows repeat a training row (same %s): their scores overstate how the model does on "
                "rows it has not seen (first: %srow %s = %srow %s)",
                (train_set if held else eval_set).source or "the evaluation data", f"{len(hits):,}",
                f"{len(eval_set):,}", "held-out" if held else "evaluation",
                " and ".join(columns), _words(eval_split), eval_row(int(hits[0])), _words(train_split),
                train_row(int(seen_in)),
                extra=_facts("repeated_eval_rows", train_set if held else eval_set, count=len(hits), total=len(eval_set),
                             held=held, columns=columns, first=(eval_split, eval_row(int(hits[0]))),
                             seen=(train_split, train_row(int(seen_in)))))


def _conflicting(examples: Any, keys: Any) -> tuple[int, int, int] | None:
    """(how many inputs carry two gold values or more, the first such input's first row, its first
    row with another value), among the labelled rows; None when there are none."""
    from bertstudio.data.repeats import gold_values

    gold = gold_values(examples)
    usable = pc.and_(pc.is_valid(keys), pc.is_valid(gold)).to_numpy(zero_copy_only=False)
    at = np.flatnonzero(usable)
    if len(at) < 2:
        return None
    take = pa.array(at)
    key_codes = pc.dictionary_encode(pc.take(keys, take)).indices.to_numpy(zero_copy_only=False).astype(np.int64)
    values = pc.dictionary_encode(pc.take(gold, take))
    value_codes = values.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    width = len(values.dictionary)
    pairs = np.unique(key_codes * width + value_codes)
    per_key = np.bincount(pairs // width, minlength=int(key_codes.max()) + 1)
    bad = per_key > 1
    if not bad.any():
        return None
    first = int(np.flatnonzero(bad[key_codes])[0])
    same = np.flatnonzero((key_codes == key_codes[first]) & (value_codes != value_codes[first]))
    second = int(same[0])
    return int(bad.sum()), int(at[first]), int(at[second])


def _facts(kind: str, examples: Any, **facts: Any) -> dict[str, Any]:
    """A warning's facts for ``logging``'s ``extra``: the record's ``facts``, which an interface
    phrases in its own language (the learning-curve dialog said these in English inside its
    Chinese window); ``source``: the file, None for rows given without one (a project's)."""
    return {"facts": {"kind": kind, "source": examples.source, **facts}}


def _difference(examples: Any, first: int, second: int) -> tuple[str, str, int | None]:
    """How rows ``first`` and ``second`` differ in gold: ("'pos'", "'neg'", None), ("2", "4.5",
    None), or for tags the first token where they part ("'NOUN'", "'VERB'", 3)."""
    one, other = (examples.dataset[p][examples.gold_column] for p in (first, second))
    if not isinstance(one, list):
        return _value(one), _value(other), None
    at = next((i for i, (a, b) in enumerate(zip(one, other)) if a != b), min(len(one), len(other)))
    one, other = (tags[at] if at < len(tags) else None for tags in (one, other))
    return _value(one), _value(other), at + 1


def _said(values: tuple[str, str, int | None]) -> str:
    one, other, token = values
    return f"{one} and {other}" + (f" at token {token:,}" if token is not None else "")


def _row_namer(examples: Any, numbers: Sequence[int] | None, default: str = "train") -> tuple[str | None, Any]:
    """(the set the rows are named in: a project's split, ``default``, or None for rows of a file;
    position -> the 1-based row a person finds it at): a project's split and row ("dev row 5"),
    else ``numbers``, the rows of the file the set was drawn from ("row 5"), else the position in
    the set ("eval row 5")."""
    split, rows = rows_of(examples)
    if rows is not None:
        return split or default, lambda p: f"{rows[p] + 1:,}"
    if numbers is not None:
        return None, lambda p: f"{int(numbers[p]) + 1:,}"
    return default, lambda p: f"{p + 1:,}"


def _words(split: str | None) -> str:
    """The words before "row" in a warning: "dev " or nothing."""
    return f"{split} " if split else ""


def _value(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else repr(value)


def unscored_rows(examples: Any) -> int:
    """How many evaluation rows have no gold value (the metrics leave them out)."""
    return examples.dataset.with_format("arrow")[examples.gold_column].null_count


def check_scorable(examples: Any, *, where: str) -> None:
    """A DataError naming the file when no evaluation row has a gold value to score against:
    a GLUE test split (its labels are on the GLUE server only), or a file whose label column
    is missing, empty or under another name."""
    if unscored_rows(examples) < len(examples):
        return
    gold, path = examples.gold_column, examples.source
    task, split = examples.meta.get("glue_task"), examples.meta.get("split")
    if task and split == "test":
        from bertstudio.data.glue import get_preset

        dev = get_preset(task).files.get("dev", "dev.tsv")
        raise DataError(f"no labels in column {gold}: {task}'s test split holds none (the GLUE server keeps them), "
                        "so it cannot be scored", path=path, where=where,
                        expected=f"the labelled dev split ({dev}) to score")
    raise DataError(f"no row has a gold value to score against: its {gold} column is missing or empty", path=path,
                    where=where, expected=f"a {gold} column (or --columns naming it, e.g. text=review,{gold}=stars)")


def warn_unscored(examples: Any) -> None:
    """Say, before the run, that some evaluation rows have no gold value and are not scored
    (RTE accuracy 32/63 beside 64 predictions, with no word of the row left out)."""
    import logging

    missing = unscored_rows(examples)
    if missing:
        logging.getLogger("bertstudio").warning(
            "%s: %d of %d evaluation rows have no gold %s and are left out of the score",
            examples.source or "the evaluation data", missing, len(examples), examples.gold_column,
            extra=_facts("unscored_rows", examples, count=missing, total=len(examples)))


def read_train_set(config: TrainConfig, spec: Any = None) -> Any:
    """The training rows ``config`` names: a GLUE task's train split from ``data_dir``, else
    ``train_file`` read as :func:`run_spec` says (``bertstudio label-errors`` reads its data
    the same way)."""
    from bertstudio.data.io import read_with

    if config.glue_task and config.data_dir:
        from bertstudio.data.glue import load_glue

        return load_glue(config.glue_task, config.data_dir, split="train")
    if config.train_file:
        return read_with(spec if spec is not None else run_spec(config), config.train_file)
    raise ConfigError("no training data", where="train_file", expected="a training file, or a GLUE task with its data folder")


def check_kind(examples: Any, config: TrainConfig) -> None:
    """ConfigError when the data read is another kind than the config's task."""
    if examples.kind != config.task:
        raise ConfigError(
            f"the training data is {examples.kind!r} data but the task is {config.task!r}",
            path=examples.source, where="task", expected=f"task = {examples.kind!r}",
        )


def check_enough_labels(examples: Any, config: TrainConfig) -> None:
    """A DataError naming the training file when the labels a run would take from it are fewer
    than its kind learns from (KindSpec.min_labels, the rule the task checks again when it builds
    the head), before any model is loaded: a one-class pair file said "labels: pair needs at least
    2 labels" without the file, after "loading the model…". Labels listed in the config
    (``--labels``; the app lists its project's) are the ones counted: a project of one label
    trained a one-class "classifier" to 100% accuracy. No labelled row at all (a gold column
    the reader did not recognise, ``rating``): the file's columns are named."""
    if len(examples) and unscored_rows(examples) == len(examples):
        # text,rating was read as text alone: the regression run loaded the model, then failed
        # with exit 1 naming neither the unread column nor --columns
        raise _no_gold(examples, config)
    if not examples.spec.has_label_set:
        return
    labels = [str(x) for x in (config.labels or examples.labels)]
    minimum = examples.spec.min_labels
    if len(labels) < minimum:
        found = ", ".join(map(repr, labels)) if labels else "none"
        if config.labels:
            raise ConfigError(f"{len(labels)} label{'s' if len(labels) != 1 else ''} listed ({found})", where="labels",
                              expected=f"at least {minimum} labels: a classifier needs at least two classes")
        raise DataError(f"the training data has {len(labels)} label{'s' if len(labels) != 1 else ''} ({found})",
                        path=examples.source, where="labels",
                        expected=f"at least {minimum} labels among the labelled rows" if minimum > 1 else "labelled rows")


def _no_gold(examples: Any, config: TrainConfig) -> DataError:
    """The error for training rows none of which has a gold value: the file's columns, those the
    reader left unread, and the --columns mapping that would read one of them as the gold."""
    gold, path = examples.gold_column, examples.source
    if examples.meta.get("format") == "text":  # no columns: neither the file's nor --columns can help
        from bertstudio.data.formats.plaintext import no_tags

        return no_tags(path)
    columns = _file_columns(path, config)
    read = {str(v) for v in (config.columns or {}).values()} | set(examples.dataset.column_names)
    unread = [c for c in columns if c not in read]
    found = f"; the file's columns: {', '.join(columns)}" if columns else ""
    if unread:
        found += f" ({', '.join(unread)} not read)"
    name = unread[0] if unread else "NAME"
    return DataError(f"no training row has {gold if gold.endswith('s') else 'a ' + gold}: the {gold} column is missing, empty or under a name not "
                     f"recognised{found}", path=path, where=gold,
                     expected=f"a {gold} column, or --columns naming it, e.g. --columns {gold}={name}")


def _file_columns(path: str | None, config: TrainConfig) -> list[str]:
    """The header of the table file at ``path`` (empty when it is not one, or cannot be read)."""
    from bertstudio.data.io import preview
    from bertstudio.errors import BertStudioError

    if not path or not Path(path).is_file():
        return []
    try:
        found = preview(path, fmt=config.data_format, n=1)
    except (BertStudioError, OSError, ValueError):
        return []
    return [str(c) for c in found.columns] if found.has_header else []


def _few(values: list[str]) -> str:
    return ", ".join(map(repr, values[:4])) + (f" and {len(values) - 4} more" if len(values) > 4 else "")


def check_label_values(examples: Any, config: TrainConfig) -> None:
    """A DataError naming the training file when the labels a run would take from it are not
    one clean set of classes, before any model loads:

    - names mixed with whole numbers: "entailment" and "not_entailment" beside "0" and "1"
      (ids and names of the same classes, from two files pasted together) trained as 4
      classes without a word, and so would a tag "0" typed for "O";
    - two spellings of one name that differ only by case, spaces, Unicode form or invisible
      characters ("pos" and "pos ", "Pos", "pos\u00a0", a decomposed "café" or a full-width
      "ｐｏｓ"), or one number written two ways ("1" and "1.0" or "01", "0" and "-0"), trained
      as two classes that look alike in every report;
    - numbers with decimals (0.07, 3.5): scores to predict, trained as one class per value.

    A label set that really is any of these is kept by listing it (``config.labels``:
    ``--labels``, or ``labels`` in a run's TOML); a preset names its labels."""
    if config.labels or not examples.spec.has_label_set:
        return
    from bertstudio.data.labelmap import decimal_labels, file_label_values

    used = [str(v) for v in file_label_values(examples)]
    what, each = ("tags", "tags") if examples.spec.gold.per_token else ("labels", "classes")
    listed = f"every one of the {each} listed with --labels"

    def refuse(problem: str, expected: str) -> None:
        raise DataError(problem, path=examples.source, where=what, expected=expected)

    spellings: dict[str, list[str]] = {}
    for value in used:
        spellings.setdefault(spelling(value), []).append(value)
    twice = next((names for names in spellings.values() if len(names) > 1), None)
    if twice and spelling(twice[0]).startswith("#"):
        refuse(f"{_few(twice)} are one number written {len(twice)} ways, which would train as {len(twice)} separate "
               f"{each}", f"one way of writing each number, or {listed}")
    if twice:
        refuse(f"{_few(twice)} differ only by case, spaces, Unicode form or invisible characters, which would train "
               f"as {len(twice)} separate {each}", f"one spelling of each name, or {listed}")
    decimals = decimal_labels(used)  # the one rule, shared with a project's import
    if decimals and not examples.spec.gold.per_token:
        refuse(f"the labels are numbers with decimals ({_few(decimals)}), which would train as {len(used)} separate "
               "classes", f"--task regression to predict a score, or class names, or {listed}")
    # 1.0 and 0.0 are whole numbers (a 0/1 column with gaps, written by pandas)
    whole = [v for v in used if WHOLE_NUMBER.fullmatch(v.strip())
             or (DECIMAL.fullmatch(v.strip()) and float(v).is_integer())]
    names = [v for v in used if v not in whole]
    if whole and names:
        refuse(f"the {what} mix names ({_few(names)}) and numbers ({_few(whole)}), which would train as {len(used)} "
               f"separate {each}", f"names throughout or numbers throughout, or {listed}")


def held_out_count(n_rows: int, fraction: float) -> int:
    """How many of ``n_rows`` labelled rows :func:`hold_out` evaluates on; ConfigError when
    there are too few to split (the app asks this before it starts a run)."""
    if n_rows < HOLD_OUT_MIN_ROWS:
        raise ConfigError(f"too few labelled examples to hold out an evaluation set ({n_rows})", where="hold_out",
                          expected=f"evaluation data, or at least {HOLD_OUT_MIN_ROWS} labelled training rows")
    n_eval = max(1, round(fraction * n_rows))
    if n_eval >= n_rows:
        raise ConfigError(f"holding out {fraction:g} of {n_rows} labelled rows leaves none to train on", where="hold_out",
                          expected=f"a fraction below {(n_rows - 0.5) / n_rows:.2f}, or evaluation data")
    return n_eval


def hold_out(train_set: Any, fraction: float, seed: int, split: str = HOLD_OUT_SPLIT) -> tuple[Any, Any]:
    """(the rows to train on, the rows to evaluate on): ``fraction`` of the labelled rows
    (:func:`held_out_count`) drawn with ``seed``, each part in its original order.

    ``split`` "stratified" (a kind with classes): drawn per label, as scikit-learn's
    ``train_test_split(stratify=...)`` does, except that a class of one row is not refused but
    stays in training and no class gives up its last training row; each class of two or more
    rows is evaluated while the count allows, the rest in proportion to the classes' sizes. A
    plain draw lost the only Business row of 16/16/16/1 to the evaluation rows for 11 of 100
    seeds, a model that could never predict a class the user labelled. Scores, tags and answers
    (no class per row) are drawn at random. "shuffled": one permutation of all the labelled
    rows, the draw of runs started before the split was stratified (TrainConfig.hold_out_split)."""
    kept, held = held_out_positions(train_set, fraction, seed, split)
    return pick_rows(train_set, kept), pick_rows(train_set, held)


def held_out_positions(train_set: Any, fraction: float, seed: int, split: str = HOLD_OUT_SPLIT
                       ) -> tuple[np.ndarray, np.ndarray]:
    """(positions to train on, positions to evaluate on) in ``train_set``, sorted: :func:`hold_out`'s draw."""
    gold = train_set.dataset.with_format("arrow")[train_set.gold_column]
    labelled = np.flatnonzero(pc.is_valid(gold).to_numpy(zero_copy_only=False))
    n_eval = held_out_count(len(labelled), fraction)
    rng = np.random.default_rng(seed)
    spec = train_set.spec
    if split == "shuffled" or not spec.gold.classes or spec.gold.per_token:
        order = rng.permutation(labelled)
        return np.sort(order[n_eval:]), np.sort(order[:n_eval])
    names, codes = np.unique(np.asarray(gold.take(labelled).to_pylist(), dtype=object).astype(str), return_inverse=True)
    sizes = np.bincount(codes, minlength=len(names))
    if sizes.max() < 2:
        raise ConfigError(f"every class has one labelled row ({len(names)} classes): none can be held out and still "
                          "be trained on", where="hold_out",
                          expected="at least two labelled rows of some class, or evaluation data")
    held = []
    for members, n in zip((labelled[codes == c] for c in range(len(names))), _per_class(sizes, n_eval, rng)):
        held.extend(rng.permutation(members)[:n])
    held_rows = np.sort(np.asarray(held, dtype=np.int64))
    return np.setdiff1d(labelled, held_rows), held_rows


def _per_class(sizes: np.ndarray, n_eval: int, rng: np.random.Generator) -> np.ndarray:
    """How many rows of each class (``sizes`` rows each) to evaluate on, ``n_eval`` in all (fewer
    when the classes cannot spare that many): never a class's last row; first one row of every
    class that can spare one, largest classes first, then each class up to its share
    ``n_eval * size / total`` (scaled down alike when the first rows left too little room), the
    rest one at a time to the class furthest below its share (ties broken by ``rng``: the same
    for a seed), handed out a round at a time (:func:`_furthest_below`)."""
    spare = sizes - 1
    n_eval = int(min(n_eval, spare.sum()))
    share = n_eval * sizes / sizes.sum()
    tie = rng.permutation(len(sizes))
    taken = np.zeros(len(sizes), dtype=np.int64)
    order = np.lexsort((tie, -sizes))
    taken[order[spare[order] > 0][:n_eval]] = 1
    more = np.minimum(np.maximum(np.floor(share).astype(np.int64) - taken, 0), spare - taken)
    room = n_eval - int(taken.sum())
    if more.sum() > room:
        # 5,000 classes of 5 rows beside one of 300,000 took their first rows from the big one's
        # share: one row at a time for the rest took 15 s; the same cut from every class, in bulk
        more = more * room // more.sum()
    taken += more  # in bulk: 50,000 rows one at a time took a second
    return _furthest_below(taken, spare, share, tie, n_eval - int(taken.sum()))


def _furthest_below(taken: np.ndarray, spare: np.ndarray, share: np.ndarray, tie: np.ndarray, left: int) -> np.ndarray:
    """``taken`` with ``left`` more rows, each to the class (below ``spare``) furthest below its
    ``share``, ties to the lower ``tie``: as one row at a time would, a round at a time. Every
    class within one row of the furthest is served once, in that order, before the furthest can
    be again; one class alone takes the rows that keep it furthest at once."""
    taken = taken.copy()
    while left > 0:
        pool = np.flatnonzero(taken < spare)
        if not len(pool):
            break
        below = share[pool] - taken[pool]
        top = below.max()
        near = pool[below > top - 1]
        if len(near) == 1:
            rest = below[below <= top - 1]
            ahead = int(math.ceil(top - rest.max())) - 1 if len(rest) else left  # rows that keep it furthest
            give = max(1, min(left, ahead, int(spare[near[0]] - taken[near[0]])))
            taken[near[0]] += give
            left -= give
            continue
        near = near[np.lexsort((tie[near], -(share[near] - taken[near])))][:left]
        taken[near] += 1
        left -= len(near)
    return taken


def project_rows(split_set: Any, rows: Sequence[int] | Any) -> Any:
    """Rows ``rows`` of a whole project split (``Project.examples(split)``), remembering which
    project rows they are, so a run's predictions name them (predictions.jsonl ``split``/``row``)."""
    rows = [int(r) for r in rows]
    picked = split_set.select(rows)
    return replace(picked, meta={**picked.meta, _ROWS: rows})


def resume_rows(project: Any, config: Any) -> tuple[Any, Any]:
    """The project rows a stopped run of the project resumes on (the app's Resume, and the rule
    that says beforehand whether it can): the labelled training rows, and the labelled dev rows
    when the run held none out of them (``config.hold_out`` unset) and the project has a dev split."""
    train_all = project.examples("train")
    train = project_rows(train_all, train_all.labelled_rows() if len(train_all) else [])
    if config.hold_out is not None or not project.num_rows("dev"):
        return train, None
    dev_all = project.examples("dev")
    return train, project_rows(dev_all, dev_all.labelled_rows() if len(dev_all) else [])


def pick_rows(examples: Any, positions: Sequence[int] | Any) -> Any:
    """``examples.select(positions)``; project rows the set remembers stay with their examples."""
    positions = [int(p) for p in positions]
    picked = examples.select(positions)
    _split, rows = rows_of(examples)
    meta = {k: v for k, v in picked.meta.items() if k != _ROWS}
    if rows is not None:
        meta[_ROWS] = [rows[p] for p in positions]
    return replace(picked, meta=meta)


def rows_of(examples: Any) -> tuple[str | None, list[int] | None]:
    """(project split, project row per example) of a set made by :func:`project_rows`; (split,
    None) when the rows are not known (a set changed after it was picked, or not from a project)."""
    rows = examples.meta.get(_ROWS)
    if not isinstance(rows, list) or len(rows) != len(examples):
        return examples.meta.get("split"), None
    return examples.meta.get("split"), rows


def _without_rows(examples: Any) -> Any:
    """The set without its project rows (before a reshuffle that would void them)."""
    return replace(examples, meta={k: v for k, v in examples.meta.items() if k != _ROWS})


def run_spec(config: TrainConfig, train_set: Any = None) -> Any:
    """How this run reads its files: the config's format, columns, labels and preset; with
    no preset named, the one the training file's location (or a given set's) implies."""
    from bertstudio.data.io import resolve_spec

    glue_task = config.glue_task or (train_set.meta.get("glue_task") if train_set is not None else None)
    path = config.train_file if train_set is None and not config.data_dir else None
    return resolve_spec(path, kind=config.task, fmt=config.data_format, columns=config.columns or None,
                        labels=config.labels, glue_task=glue_task)


def data_fingerprint(examples: Any) -> dict[str, Any]:
    """What a checkpoint keeps of the rows its run trains on, so a resume can tell that they
    changed (state.json; see :func:`data_change`): the row count and BLAKE2b hashes of the
    rows (inputs and gold), of the inputs alone, and of the rows in their order. The first two
    ignore the order: the same rows in a file sorted in a spreadsheet are the same data."""
    import hashlib
    import json

    spec = examples.spec
    table = examples.dataset.with_format("arrow")
    inputs = [table[c].to_pylist() for c in (*spec.inputs, *spec.optional_inputs)]
    gold = examples.gold_values()

    def digest(values: Any) -> str:
        text = json.dumps(values, ensure_ascii=False, sort_keys=True, default=str)
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()

    texts = [digest([("" if v is None else v) for v in row]) for row in zip(*inputs)] if inputs else []
    rows = [digest([t, g]) for t, g in zip(texts, gold)]
    return {"rows": len(rows), "content": digest(sorted(rows)), "inputs": digest(sorted(texts)), "order": digest(rows)}


def data_change(then: Any, now: dict[str, Any], examples: Any) -> str | None:
    """How the training rows ``now`` (:func:`data_fingerprint`) differ from those a checkpoint
    recorded (``then``; None or not a fingerprint: a checkpoint from before runs kept one, which
    nothing is said of): None when they are the same rows, in any order."""
    if not isinstance(then, dict) or not all(isinstance(then.get(k), t) for k, t in
                                             (("rows", int), ("content", str), ("inputs", str))):
        return None
    if then["rows"] != now["rows"]:
        return f"{then['rows']} rows then, {now['rows']} now"
    if then["content"] == now["content"]:
        return None
    gold = examples.spec.gold
    what = "scores" if gold.numeric else "tags" if gold.per_token else "labels"
    if then["inputs"] == now["inputs"]:
        return f"the same {now['rows']} rows, with other {what}"
    return f"{now['rows']} rows then and now, but other ones"


def rows_changed(saved: Mapping[str, Any], now: Mapping[str, Any], train_set: Any, eval_set: Any) -> DataError | None:
    """The refusal of a resume on rows other than those its checkpoint (state.json ``saved``) was
    trained and scored on, ``now`` being :func:`data_fingerprint`'s of ``train_set`` and ``eval_set``
    (``{"data": ..., "eval_data": ...}``); None when they are the same rows, in any order. The one
    home of the rule: the engine raises it (engine._same_data), the Runs page says it before the
    click (rundir.project_resume_problem)."""
    expected = "the rows the run trained on, or a new run (another --out, or --overwrite to train again)"
    where = ("train_file", "eval_file")
    if train_set.source is None:  # the app's project rows: no file, no flags (Resume on the Runs page)
        expected = "the rows the run trained on (undo the edits made since it stopped), or a new run"
        where = ("the project's labelled training rows", "the project's evaluation rows")
    change = data_change(saved.get("data"), now["data"], train_set)
    if change is not None:
        return DataError(f"the training data changed since the run stopped: {change}", path=train_set.source,
                         where=where[0], expected=expected, facts=_change_facts("train", saved["data"], now["data"], train_set))
    if "eval_data" in saved:  # (a checkpoint from before runs kept it: nothing said)
        then, after = saved["eval_data"], now["eval_data"]
        if then is None or after is None:
            change = None if then is after else "rows then, none now" if after is None else f"none then, {after['rows']} rows now"
        else:
            change = data_change(then, after, eval_set)
        if change is not None:
            return DataError(f"the evaluation data changed since the run stopped: {change}",
                             path=eval_set.source if eval_set is not None else None, where=where[1],
                             expected=expected.replace("trained on", "was scored on"),
                             facts=_change_facts("eval", then, after, train_set))
    return None


def _change_facts(split: str, then: Any, now: Any, train_set: Any) -> dict[str, Any]:
    """The facts of a refused resume on changed project rows, for the app to say in its own words
    (ui/run_words.data_change_refusal: the Train page said the engine's English in its Chinese
    window); none for a file's rows (the CLI's, whose message names the file and flags)."""
    if train_set.source is not None or not isinstance(then, dict) or not isinstance(now, dict):
        return {}
    return {"refusal": "data_changed", "split": split, "rows": now.get("rows"), "rows_then": then.get("rows"),
            "same_inputs": then.get("inputs") == now.get("inputs")}
