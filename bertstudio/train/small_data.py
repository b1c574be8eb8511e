"""Settings that fit the data: the small-data defaults and the modes' own defaults.

The BERT paper's recipe (batch 32, lr 2e-5..5e-5, 2-4 epochs) assumes thousands of
labels; on a few hundred it takes a few dozen optimizer steps and learns little (303
SST-2 sentences at the recipe scored 50.5%, chance). :func:`adapt` is the one place that
decides what a run uses instead, for ``bertstudio train`` without hyperparameter flags
and for the Train page's "Automatic" choice; the run's config keeps the reason
(``auto_reason``). Settings the user gave always win.

With at most :data:`SMALL_ROWS` labelled training rows:

* sentence classification on a sentence-transformer with at most
  :data:`SETFIT_MAX_PER_CLASS` labels in every class: SetFit (its contrastive phase,
  then the embedding head from a logistic regression, trained with the encoder frozen),
  which learns most from few labels per class (69.9% on SST-2 with 16 per class, where
  the recipe stays at chance);
* other sentence / pair / regression sets on a sentence-transformer: the embedding head
  (siamese (u, v, |u-v|, u*v) for pairs and scores, as SBERT reads pairs) started from
  the frozen encoder's logistic regression, then fine-tuned end to end with at least
  :data:`MIN_STEPS` steps at :data:`SMALL_LR` (linear probe, then fine-tune);
* anything else (tagging, QA, an encoder that is not a sentence-transformer): the
  chosen head and mode with batch :data:`SMALL_BATCH` and enough epochs for
  :data:`MIN_STEPS` optimizer steps.

A small classification set whose largest class has :data:`IMBALANCE_RATIO` times the rows
of its smallest or more is weighted by inverse class frequency (``class_weight``
"balanced", in the loss and the probe), whatever recipe is chosen or given.

Whatever the size, the modes' defaults: LoRA learns at :data:`LORA_LR` (peft's examples
use about 10x full fine-tuning's rate; at 1e-4 LoRA reached 54.5% on 2,000 SST-2
sentences where full fine-tuning reached 78.8%), and a frozen encoder on pairs reads
them through the siamese head (a frozen cross-encoded [CLS] of this model carries almost
no pair signal: 34.5% on 3,000 MNLI pairs, against 50.9% for the siamese features). The
head's own larger learning rate with a frozen encoder is TrainConfig.head_learning_rate.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable

from bertstudio.data.kinds import get_spec
from bertstudio.i18n import QT_TRANSLATE_NOOP
from bertstudio.train.config import TrainConfig, setfit_fits, weighs_classes
from bertstudio.train.setfit_phase import SETFIT_LR, setfit_available  # SetFit's lr unless given

SMALL_ROWS = 2000  # up to this many labelled training rows the small-data defaults apply
SETFIT_MAX_PER_CLASS = 64  # SetFit wins with few labels per class (beyond, fine-tuning overtakes it)
MIN_STEPS = 150  # enough optimizer steps to move the encoder on a small set
MAX_EPOCHS = 1000  # a bound, not a policy: 16 rows in one batch need 150 epochs for 150 steps
SMALL_BATCH = 16
SMALL_LR = 3e-5  # the embedding head's end-to-end fine-tuning after the probe
# ... of which a siamese (pair or score) run keeps this share (TrainConfig.keep_tuning, WiSE-FT):
# on 32-192 pairs the last weights drifted below the probe they started from (RTE 128 pairs:
# 0.552 -> 0.491); the halfway weights gained 1.3 points on the mean of 13 pair and score runs
# (RTE 0.538, SNLI 192 pairs 0.629 against 0.608), while on single sentences (SST-2, AG News,
# 200-400 labels) they lost 0.1-0.8 (benchmarks/README.md, "Pairs, scores and tags").
SMALL_KEEP = 0.5
LORA_LR = 5e-4
HEAD_STEPS = 50  # SetFit's second phase: the probe-started head alone
MAX_EVALS = 10  # a chosen run of many short epochs evaluates this often, not after every epoch
# Automatic weighs classes (TrainConfig.class_weight "balanced") on a small set whose largest class has
# at least this many times the rows of its smallest. The unweighted loss's optimum carries the prior
# log-odds, ln 3 = 1.1 at 3:1 (2.3 at 10:1): about as much as a head fitted on a few dozen rows can
# tell a minority row from the rest, so from there the decision follows the prior (40 Sports, 4 World:
# every row answered Sports, accuracy 50.0, where the balanced weights reach 88.5 on the same encoder);
# below it (20:18) the weights are near 1 and change little either way.
IMBALANCE_RATIO = 3
LONG_SHARE = 95  # a small set's max length covers this percentile of its texts (within the model's limit)
LIMIT_CAP = 512  # the longest max length chosen, also for a model whose files name no limit (BERT's own)

# The recipe: giving any of these (a flag, a run.toml, a Train page field) means the user's
# recipe, so adapt() chooses none of them; the mode given keeps the choice within that mode.
RECIPE = ("epochs", "lr", "batch_size", "warmup_ratio", "head", "method", "head_lr")
HYPERPARAMETERS = RECIPE + ("mode",)
# Every setting adapt() may choose: what :func:`unadapted` puts back before choosing again
ADAPTED = HYPERPARAMETERS + ("max_length", "eval_steps", "keep_tuning", "class_weight")

# Why adapt() chose what it chose, by key ({name}: a value of the reason's own); the run's
# config keeps the English, the app says them in the user's language (context "SmallData").
REASONS = {
    "setfit": QT_TRANSLATE_NOOP("SmallData", "{rows} (at most {most} per class): SetFit, which learns most "
                                             "from few labels per class (contrastive fine-tuning of the "
                                             "sentence-transformer, then its linear head)"),
    "embedding": QT_TRANSLATE_NOOP("SmallData", "{rows}: a linear head on the sentence embedding, started from "
                                                "a logistic regression on the frozen encoder, then trained for at "
                                                "least {steps} steps"),
    "siamese": QT_TRANSLATE_NOOP("SmallData", "{rows}: a linear head on the siamese (u, v, |u-v|, u*v) "
                                              "features, started from a logistic regression on the frozen encoder, "
                                              "then trained for at least {steps} steps"),
    "embedding_scores": QT_TRANSLATE_NOOP("SmallData", "{rows}: a linear head on the sentence "
                                                       "embedding, started from a ridge regression on the frozen "
                                                       "encoder, then trained for at least {steps} steps"),
    "siamese_scores": QT_TRANSLATE_NOOP("SmallData", "{rows}: a linear head on the siamese (u, v, |u-v|, "
                                                     "u*v) features, started from a ridge regression on the frozen "
                                                     "encoder, then trained for at least {steps} steps"),
    "balanced": QT_TRANSLATE_NOOP("SmallData", "classes {most}:{least} (largest to smallest): each class weighted by "
                                               "inverse frequency in the loss and the logistic regression, so the "
                                               "small one is not outvoted"),
    "keep": QT_TRANSLATE_NOOP("SmallData", "after the last step the weights keep {percent}% of what that training "
                                           "changed (WiSE-FT: part of the way back to where they started, steadier on "
                                           "small sets)"),
    "best": QT_TRANSLATE_NOOP("SmallData", "an earlier evaluation that scores higher keeps its weights instead"),
    "steps": QT_TRANSLATE_NOOP("SmallData", "{rows}: batch {batch} and {epochs} epochs, for at least "
                                            "{steps} optimizer steps"),
    "steps_windows": QT_TRANSLATE_NOOP("SmallData", "{rows}, about {windows} windows of {length} "
                                                    "tokens: batch {batch} and {epochs} epochs, for at least {steps} "
                                                    "optimizer steps"),
    "evals": QT_TRANSLATE_NOOP("SmallData", "evaluated every {every} steps ({evals} times), not after each of "
                                            "{epochs} short epochs"),
    "length": QT_TRANSLATE_NOOP("SmallData", "95% of the texts fit in {tokens} tokens: max length {length} (the "
                                             "model reads at most {limit})"),
    "limit": QT_TRANSLATE_NOOP("SmallData", "the model reads at most {limit} tokens: max length {limit}"),
    "setfit_lr": QT_TRANSLATE_NOOP("SmallData", "SetFit's contrastive phase at learning rate {lr} (setfit's own "
                                                "default)"),
    "lora": QT_TRANSLATE_NOOP("SmallData", "LoRA: learning rate {lr} (about 10x full fine-tuning's, as peft's "
                                           "examples use)"),
    "frozen_pairs": QT_TRANSLATE_NOOP("SmallData", "frozen encoder on pairs: the siamese head, each side encoded alone "
                                                   "(a frozen sentence-transformer's [CLS] of the joined pair carries "
                                                   "almost no pair signal)"),
}
Reason = tuple[str, dict[str, str]]  # a key of REASONS and its values
# What a reason's {rows} counts, said in the singular and the plural: the templates held "{rows} labelled
# rows", which read "1 labelled rows" for one row. The one home of these words (the Train page's
# counts, ui/train_settings.rows_said, say them with COUNTS["labelled"] too).
COUNTS = {
    "labelled": (QT_TRANSLATE_NOOP("SmallData", "1 labelled row"), QT_TRANSLATE_NOOP("SmallData", "{n} labelled rows")),
    "sentences": (QT_TRANSLATE_NOOP("SmallData", "1 scored sentence"),
                  QT_TRANSLATE_NOOP("SmallData", "{n} scored sentences")),
    "pairs": (QT_TRANSLATE_NOOP("SmallData", "1 scored pair"), QT_TRANSLATE_NOOP("SmallData", "{n} scored pairs")),
    "questions": (QT_TRANSLATE_NOOP("SmallData", "1 labelled question"),
                  QT_TRANSLATE_NOOP("SmallData", "{n} labelled questions")),
}
COUNTED = {"setfit": "labelled", "embedding": "labelled", "siamese": "labelled", "steps": "labelled",
           "embedding_scores": "sentences", "siamese_scores": "pairs", "steps_windows": "questions"}


def count_said(kind: str, rows: str, translate: Any = None) -> str:
    """``rows`` (a number as text, or a phrase such as "9 of 10") of :data:`COUNTS` ``kind``: the
    singular for "1", else the plural, through ``translate`` as in :func:`say`."""
    one, many = (translate(form) if translate else form for form in COUNTS[kind])
    return one if rows == "1" else many.format(n=rows)


def say(reasons: Iterable[Reason], translate: Any = None) -> str | None:
    """``reasons`` as one line ("; " between them), each template through ``translate``
    (the app's QCoreApplication.translate bound to the context; None: the English)."""
    said = []
    for key, values in reasons:
        if key in COUNTED:
            values = {**values, "rows": count_said(COUNTED[key], values["rows"], translate)}
        said.append((translate(REASONS[key]) if translate else REASONS[key]).format(**values))
    return "; ".join(said) or None


def _english_templates(key: str) -> list[tuple[str, dict[str, str]]]:
    """The English forms of REASONS[key] as :func:`say` writes them, each with the values its text
    leaves out (a count of one says its "1" in its words)."""
    template = REASONS[key]
    if key not in COUNTED:
        return [(template, {})]
    one, many = COUNTS[COUNTED[key]]
    return [(template.replace("{rows}", many.replace("{n}", "{rows}")), {}),
            (template.replace("{rows}", one), {"rows": "1"})]


def reasons_in(text: str | None) -> list[Reason] | None:
    """The reasons (keys of :data:`REASONS` and their values) a run's ``auto_reason`` (the English
    of :func:`say`, as its config.toml keeps it) says, for the app to say them again in the user's
    language (the Runs page showed the Train page's Chinese reason in English); None when a part
    is none of them (a reason written by another version: shown as written)."""
    import re

    found: list[Reason] = []
    forms = [(key, template, implied) for key in REASONS for template, implied in _english_templates(key)]
    for part in text.split("; ") if text else []:
        for key, template, implied in forms:
            named: set[str] = set()

            def group(match: Any) -> str:  # a name met again must hold the same value: {limit} twice
                name = match.group(1)
                first = name not in named
                named.add(name)
                return f"(?P<{name}>.+?)" if first else f"(?P={name})"

            pattern = re.sub(r"\\\{(\w+)\\\}", group, re.escape(template))
            matched = re.fullmatch(pattern, part)
            if matched:
                found.append((key, {**matched.groupdict(), **implied}))
                break
        else:
            return None
    return found


def is_sentence_transformer(model: str | None) -> bool:
    """Whether ``model`` (a folder; None: the bundled one) is a sentence-transformer: its
    modules.json names a Pooling module (how it was trained to be read)."""
    from bertstudio.bundled import resolve_model  # not tasks.model: the Train page asks on the GUI thread

    from bertstudio.data.regular_file import read_regular_text
    from bertstudio.errors import DataError

    try:
        folder = Path(resolve_model(model))
        # never opens a FIFO (the run's own model checks then name it)
        return folder.is_dir() and "Pooling" in (read_regular_text(folder / "modules.json", missing_ok=True,
                                                                    max_bytes=1 << 20) or "")
    except (OSError, ValueError, DataError):
        return False


def epochs_for(rows: int, batch_size: int, steps: int = MIN_STEPS) -> int:
    """Whole epochs that give at least ``steps`` optimizer steps over ``rows`` (at least 3)."""
    per_epoch = max(1, math.ceil(rows / batch_size))
    return int(min(MAX_EPOCHS, max(3, math.ceil(steps / per_epoch))))


def adapt(config: TrainConfig, counts: Counter | dict[str, int], *, given: Iterable[str] = (),
          sentence_transformer: bool | None = None, units: int | None = None, lengths: Any = None,
          model_limit: int | None = None, run_limit: int | None = None, evaluates: bool = True,
          processes: int = 1, pairs: bool | None = None) -> TrainConfig:
    """``config`` with the settings that fit ``counts`` (labelled training rows per label; for
    tagging, QA and regression one entry of the row count) and the mode; ``given``: the
    settings the user gave (none of :data:`RECIPE`: the small-data choice, within a given
    mode; the modes' defaults for what is not given). ``auto_reason`` says what was chosen
    and why; ``config`` itself comes back when nothing changed. ``units``: what a step's
    examples are drawn from when that is not the rows (QA's windows: :func:`training_units`).
    ``lengths``: the labelled rows' token counts (:func:`text_lengths`); a small set whose texts
    are longer than ``config.max_length`` gets a max length that fits them, up to ``model_limit``
    (:func:`model_max_length`), unless the user gave one; a ``config.max_length`` longer than
    ``run_limit`` (:func:`run_max_length`, the limit the run enforces) is cut to it. ``evaluates``: the run has evaluation
    rows (none: no evaluation schedule is chosen or said). ``processes``: how many data-parallel
    processes train (``accelerate launch``): a step reads ``processes`` batches, and SetFit, which
    trains in one process, is not chosen. ``pairs``: whether a labelled row has a second text
    (:func:`has_pairs`; None: the kind's inputs say): scores of single sentences are read by the
    one-text embedding head, not the siamese one (its model would ask every prediction for a pair)."""
    return adapt_explained(config, counts, given=given, sentence_transformer=sentence_transformer, units=units,
                           lengths=lengths, model_limit=model_limit, run_limit=run_limit, evaluates=evaluates,
                           processes=processes, pairs=pairs)[0]


def adapt_explained(config: TrainConfig, counts: Counter | dict[str, int], *, given: Iterable[str] = (),
                    sentence_transformer: bool | None = None, units: int | None = None, lengths: Any = None,
                    model_limit: int | None = None, run_limit: int | None = None, evaluates: bool = True,
                    processes: int = 1, pairs: bool | None = None) -> tuple[TrainConfig, list[Reason]]:
    """:func:`adapt`, and its reasons as data (keys of :data:`REASONS` with their values)."""
    given = set(given)
    per_step = SMALL_BATCH * max(1, processes)  # rows one optimizer step reads (150 steps were 84 under 2)
    if sentence_transformer is None:
        sentence_transformer = is_sentence_transformer(config.model)
    rows = int(sum(counts.values()))
    most = max(counts.values()) if counts else 0
    chosen: dict[str, Any] = {}
    reasons: list[Reason] = []
    spec = get_spec(config.task)
    reads = sentence_head(config.task, pairs)
    reads_embeddings = sentence_transformer and reads is not None  # the embedding/siamese heads fit
    mode = config.mode  # the user's when given, else what the choice below sets
    free = not (given & set(RECIPE))  # any recipe setting given: the user's recipe, not ours
    small = 0 < rows <= SMALL_ROWS
    mode_free = "mode" not in given
    if free and small and sentence_transformer and setfit_fits(config.task) and most <= SETFIT_MAX_PER_CLASS \
            and setfit_available() and len(counts) >= 2 and (mode_free or mode == "frozen") and processes <= 1:
        chosen.update(method="setfit", head="embedding", mode="frozen", batch_size=SMALL_BATCH, warmup_ratio=0.1,
                      epochs=epochs_for(rows, per_step, HEAD_STEPS), lr=SETFIT_LR)
        reasons += [("setfit", {"rows": str(rows), "most": str(most)}), ("setfit_lr", {"lr": f"{SETFIT_LR:g}"})]
    elif free and small and reads_embeddings and mode != "lora":
        head = reads
        chosen.update(head=head, method="finetune", lr=SMALL_LR, batch_size=SMALL_BATCH, warmup_ratio=0.1,
                      epochs=epochs_for(rows, per_step), **({"mode": "full"} if mode_free else {}))
        key = ("embedding" if head == "embedding" else "siamese") + ("" if spec.gold.has_label_set else "_scores")
        reasons.append((key, {"rows": str(rows), "steps": str(MIN_STEPS)}))
        if head == "siamese" and "keep_tuning" not in given and chosen.get("mode", mode) != "frozen":
            chosen["keep_tuning"] = SMALL_KEEP
            reasons.append(("keep", {"percent": f"{100 * SMALL_KEEP:g}"}))
            if evaluates and config.save_best:  # the mixed weights are not promised where save_best may keep others
                reasons.append(("best", {}))
    elif free and small:
        windows = units if units and units != rows else None
        chosen.update(batch_size=SMALL_BATCH, epochs=epochs_for(windows or rows, per_step))
        said = {"rows": str(rows), "batch": str(SMALL_BATCH), "epochs": str(chosen["epochs"]), "steps": str(MIN_STEPS)}
        if windows:
            reasons.append(("steps_windows", {**said, "windows": str(windows), "length": str(config.max_length)}))
        else:
            reasons.append(("steps", said))

    present = [n for n in counts.values() if n > 0]  # a label with no training row has no weight to get
    least = min(present) if present else 0
    if small and "class_weight" not in given and weighs_classes(config.task) and len(present) >= 2 \
            and most >= IMBALANCE_RATIO * least:
        chosen["class_weight"] = "balanced"
        reasons.append(("balanced", {"most": str(most), "least": str(least)}))
    if run_limit and "max_length" not in given and config.max_length > run_limit:
        # the default 128 on a model that reads 64 tokens: the run was refused ("max_length 128 is more
        # than this model takes") though the user had set nothing. Only the run's own limit: a
        # sentence-transformer's max_seq_length of 75 cut a 100,000-row fine-tuning at 75 tokens
        chosen["max_length"] = int(run_limit)
        reasons.append(("limit", {"limit": str(run_limit)}))
    if small and lengths is not None and len(lengths) and "max_length" not in given and spec.gold.name != "answers":
        # Reviews cut at 128 tokens: SetFit on 32 ChnSentiCorp labels scored 0.561 at 128 and 0.633
        # at 256, where the frozen encoder's logistic regression (which reads 256) scores 0.618.
        fitted = fitted_max_length(side_lengths(lengths, chosen.get("head", config.head)),
                                   chosen.get("max_length", config.max_length), model_limit)
        if fitted is not None:
            chosen["max_length"], tokens = fitted
            reasons.append(("length", {"tokens": str(tokens), "length": str(chosen["max_length"]),
                                       "limit": str(model_limit or LIMIT_CAP)}))
    epochs = chosen.get("epochs")
    if evaluates and epochs and epochs > MAX_EVALS and config.eval_steps is None and "eval_steps" not in given:
        # 32 labels and 800 evaluation rows: 25 epochs of 2 steps each evaluated all 800 rows, and
        # the evaluations, not the training, took most of the run
        per_epoch = math.ceil(math.ceil((units or rows) / chosen.get("batch_size", config.batch_size))
                              / config.grad_accum / max(1, processes))
        every = math.ceil(epochs * per_epoch / MAX_EVALS)
        chosen["eval_steps"] = every
        reasons.append(("evals", {"every": str(every), "evals": str(math.ceil(epochs * per_epoch / every)),
                                  "epochs": str(epochs)}))
    mode = chosen.get("mode", mode)
    head = chosen.get("head", config.head)
    if chosen.get("method", config.method) == "setfit" and "lr" not in given and "lr" not in chosen:
        chosen["lr"] = SETFIT_LR
        reasons.append(("setfit_lr", {"lr": f"{SETFIT_LR:g}"}))
    if mode == "lora" and "lr" not in given and "lr" not in chosen:
        chosen["lr"] = LORA_LR
        reasons.append(("lora", {"lr": f"{LORA_LR:g}"}))
    if (mode == "frozen" and reads_embeddings and reads == "siamese" and head in ("linear", "mlp")
            and "head" not in given):
        chosen["head"] = "siamese"
        reasons.append(("frozen_pairs", {}))
    if not chosen:
        return config, []
    return replace(config, **chosen, auto_reason=say(reasons)), reasons


def sentence_head(kind: str, pairs: bool | None = None) -> str | None:
    """The embedding head that reads ``kind``'s rows (its spec's ``sentence_head``), but the one-text
    "embedding" head where the kind takes an optional second text and ``pairs`` is False (no row
    has one: a regression file of scored sentences)."""
    spec = get_spec(kind)
    if spec.sentence_head == "siamese" and pairs is False and "text_pair" in spec.optional_inputs:
        return "embedding"
    return spec.sentence_head


def has_pairs(examples: Any, *, share: bool = False, labelled: bool = True) -> Any:
    """Whether a labelled row of an ExampleSet has a non-empty second text (``text_pair``); with
    ``share``, how many do: "none", "some" or "all" (tasks/limits.PAIR_SHARES), which the model
    records (tasks/model.record_pairs): a score project of mostly single sentences with a few
    pairs must go on reading single sentences, and only one trained on pairs alone needs a pair.
    ``labelled=False`` asks of every row, labelled or not (the Label page's second text box)."""
    import pyarrow.compute as pc

    table = examples.dataset.with_format("arrow")
    if "text_pair" in table.column_names:
        second = table["text_pair"]
        if labelled:
            second = pc.filter(second, pc.is_valid(table[examples.gold_column]))
        filled = pc.greater(pc.utf8_length(pc.utf8_trim_whitespace(pc.fill_null(second, ""))), 0)
        some, every = bool(pc.any(filled).as_py()), bool(pc.all(filled).as_py())
    else:
        some = every = False
    if not share:
        return some
    return "all" if every and some else "some" if some else "none"


def unadapted(config: TrainConfig, given: Iterable[str] = ()) -> TrainConfig:
    """``config`` with every setting :func:`adapt` may have chosen (:data:`ADAPTED`) back at
    TrainConfig's defaults, but for those in ``given`` (the user's), and no ``auto_reason``:
    what to choose again from for other rows (a learning curve's shares)."""
    defaults = TrainConfig()
    return replace(config, auto_reason=None, **{k: getattr(defaults, k) for k in ADAPTED if k not in set(given)})


# The reasons of the embedding heads' recipes, and the settings each reason says adapt() chose
# (see :func:`chosen_settings`)
_EMBEDDING_KEYS = ("embedding", "siamese", "embedding_scores", "siamese_scores")
_CHOSE: dict[str, tuple[str, ...]] = {
    "setfit": ("method", "head", "mode", "batch_size", "warmup_ratio", "epochs", "lr"),
    **dict.fromkeys(_EMBEDDING_KEYS, ("method", "head", "batch_size", "warmup_ratio", "epochs", "lr")),
    "balanced": ("class_weight",), "keep": ("keep_tuning",), "best": (),
    "steps": ("batch_size", "epochs"), "steps_windows": ("batch_size", "epochs"), "evals": ("eval_steps",),
    "length": ("max_length",), "limit": ("max_length",), "setfit_lr": ("lr",), "lora": ("lr",),
    "frozen_pairs": ("head",),
}
_RECIPES = frozenset({"setfit", *_EMBEDDING_KEYS, "steps", "steps_windows"})


def chosen_settings(config: TrainConfig) -> frozenset[str]:
    """The settings ``config.auto_reason`` (the English of :func:`say`) says :func:`adapt` chose:
    what to choose again when the run's data changes (a run's config.toml fed other rows kept the
    epochs chosen for 40 rows on 400). A recipe is chosen only where none of :data:`RECIPE` was
    given, so beside one every recipe setting a run's config.toml holds is a default, none the
    user's. The embedding heads' recipe set the mode ("full") only where none was given: a file's
    "frozen" beside it was the user's."""
    import re

    reason = config.auto_reason or ""
    found: set[str] = set()
    for key, template in REASONS.items():
        pattern = re.sub(r"\\\{\w+\\\}", ".+?", re.escape(template))
        if re.search(f"(?:^|; ){pattern}(?=; |$)", reason):
            found.update(_CHOSE[key])
            if key in _RECIPES:
                found.update(RECIPE)
            if key in _EMBEDDING_KEYS and config.mode == "full":
                found.add("mode")
    return frozenset(found)


def adapt_to_rows(config: TrainConfig, examples: Any, *, given: Iterable[str] = (), evaluates: bool = True,
                  sentence_transformer: bool | None = None, model_limit: int | None = None,
                  run_limit: int | None = None) -> TrainConfig:
    """:func:`adapt` of :func:`unadapted` ``config`` for the labelled rows of ``examples`` (an
    ExampleSet): its label counts, training units and text lengths, as ``bertstudio train``
    and the Train page's Automatic count them."""
    base = unadapted(config, given)
    return adapt(base, label_counts(examples), given=given, sentence_transformer=sentence_transformer,
                 units=training_units(examples, base), lengths=text_lengths(examples), model_limit=model_limit,
                 run_limit=run_limit, evaluates=evaluates, pairs=has_pairs(examples))


def fitted_max_length(lengths: Any, current: int, model_limit: int | None) -> tuple[int, int] | None:
    """(a max length that reads :data:`LONG_SHARE`% of texts of ``lengths`` tokens, that
    percentile) when ``current`` cuts more of them and the model reads further (its limit:
    ``model_limit``, else :data:`LIMIT_CAP`); None when ``current`` already reads them."""
    import numpy as np

    # the length that LONG_SHARE% of the texts fit in, a length one of them has: the interpolated
    # percentile of 30 short texts and a 60,000-token one said "95% of the texts fit in 11707 tokens"
    tokens = int(math.ceil(float(np.percentile(np.asarray(lengths, dtype=float), LONG_SHARE, method="inverted_cdf"))))
    limit = int(model_limit or LIMIT_CAP)
    if tokens <= current or current >= limit:
        return None
    return min(limit, 32 * math.ceil(tokens / 32)), tokens


def text_lengths(examples: Any) -> Any:
    """About how many tokens each labelled row of an ExampleSet makes, [CLS] and [SEP] included
    (a pair: two columns, both texts joined with three specials, and the longer text alone with
    two, see :func:`side_lengths`; tagging: its words), guessed without a tokenizer
    (estimate.guess_tokens), so this runs on the GUI thread. An empty array for QA (windows)."""
    import numpy as np
    import pyarrow.compute as pc

    from bertstudio.train.estimate import guess_tokens

    table = examples.dataset.with_format("arrow")
    names = table.column_names
    if examples.spec.gold.name == "answers":
        return np.zeros(0)
    labelled = pc.is_valid(table[examples.gold_column])
    if "tokens" in names:
        return guess_tokens(pc.binary_join(pc.filter(table["tokens"], labelled), " ")) + 2
    first = guess_tokens(pc.filter(table["text"], labelled))
    if "text_pair" not in names:
        return first + 2
    second = guess_tokens(pc.filter(table["text_pair"], labelled))
    return np.stack([first + second + 3, np.maximum(first, second) + 2], axis=1)


def side_lengths(lengths: Any, head: str) -> Any:
    """The token counts a model with ``head`` reads per input from :func:`text_lengths`: a pair's
    two texts joined, or for the siamese head (each text encoded alone) the longer one."""
    import numpy as np

    lengths = np.asarray(lengths, dtype=float)
    if lengths.ndim == 2:
        return lengths[:, 1] if head == "siamese" else lengths[:, 0]
    return lengths


def model_max_length(model: str | None) -> int | None:
    """The longest max length to grow a run's to (:func:`fitted_max_length`): the model's
    :func:`run_max_length`, and for a sentence-transformer at most its max_seq_length (what its
    embeddings were trained on), at most :data:`LIMIT_CAP`; None when the folder does not say
    (a Hub id). Light on purpose: the Train page asks on the GUI thread."""
    import json

    from bertstudio.bundled import resolve_model
    from bertstudio.data.regular_file import read_regular_text
    from bertstudio.errors import DataError

    folder = Path(resolve_model(model))
    found = [limit] if (limit := run_max_length(model)) else []
    try:
        text = read_regular_text(folder / "sentence_bert_config.json", missing_ok=True, max_bytes=1 << 20) \
            if folder.is_dir() else None
        value = json.loads(text).get("max_seq_length") if text else None
    except (OSError, ValueError, AttributeError, DataError, RecursionError):
        value = None
    if isinstance(value, int) and not isinstance(value, bool) and 8 <= value < 10**7:
        found.append(value)
    return min(min(found), LIMIT_CAP) if found else None


def run_max_length(model: str | None) -> int | None:
    """The most tokens a run on ``model`` takes (tasks/limits.read_token_limit, the limit the run
    itself enforces when it starts), read without torch; None when the folder does not say."""
    from bertstudio.bundled import resolve_model
    from bertstudio.tasks.limits import read_token_limit

    return read_token_limit(resolve_model(model))


def training_units(examples: Any, config: TrainConfig) -> int:
    """How many examples the training steps draw from: the labelled rows, or for QA the
    windows their contexts become at ``config.max_length`` (SQuAD questions make 1.5-2 windows
    of 128 tokens each, and longer contexts more: 31 questions that made 163 windows, counted
    as 31, got 75 epochs, 825 steps, for 150). The windows are guessed from word counts (no
    tokenizer; within 8% of the tokenizer's count on SQuAD), so this runs on the GUI thread."""
    import numpy as np
    import pyarrow.compute as pc

    table = examples.dataset.with_format("arrow")
    labelled = pc.is_valid(table[examples.gold_column])
    if not examples.spec.gold.name == "answers":
        return int(pc.sum(labelled).as_py() or 0)
    from bertstudio.tasks.limits import qa_window_layout, window_count
    from bertstudio.train.estimate import guess_tokens

    max_query, _room, stride = qa_window_layout(config.max_length, config.doc_stride)
    question = np.minimum(np.ceil(guess_tokens(pc.filter(table["question"], labelled))), max_query)
    room = config.max_length - question - 3
    return int(window_count(np.ceil(guess_tokens(pc.filter(table["context"], labelled))), room, stride).sum())


def label_counts(examples: Any) -> Counter:
    """Labelled rows per label of an ExampleSet (one entry, the row count, for kinds without a label set)."""
    import pyarrow.compute as pc

    gold = examples.dataset.with_format("arrow")[examples.gold_column]
    if examples.spec.gold.classes:
        return Counter({str(v["values"]): int(v["counts"]) for v in pc.value_counts(gold).to_pylist()
                        if v["values"] is not None})
    return Counter({"rows": len(gold) - gold.null_count})
