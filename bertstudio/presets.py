"""The benchmark presets bertstudio knows, as the facts both readers and metrics need.

One table: name, task kind, official metrics (main metric first), whether the GLUE
average counts the task, and the spellings each name is known by. ``data/glue.py``
adds each preset's file layouts and label names; ``metrics/glue.py`` and the
scoreboard take their task names and metrics from here. It sits beside
``bertstudio.errors``, below both layers, because ``data`` and ``metrics`` are
siblings that may not import each other, and two copies of this table had already
drifted apart (ChnSentiCorp and AFQMC loaded but had no metrics, so their runs failed
at the first evaluation).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PresetInfo:
    name: str  # as run configs and data/glue.py spell it
    kind: str  # sentence | pair | regression
    metrics: tuple[str, ...]  # the official metrics, main metric first
    in_glue_average: bool = True
    board_name: str | None = None  # the leaderboard's spelling where it differs ("MNLI" -> "MNLI-m")
    aliases: tuple[str, ...] = ()

    @property
    def main_metric(self) -> str:
        return self.metrics[0]

    @property
    def board(self) -> str:
        """The name results are reported under (GLUE leaderboard spelling)."""
        return self.board_name or self.name


_ACC = ("accuracy",)

# GLUE paper, Table 1 (main metric first); SNLI and the CLUE sets report accuracy.
PRESET_INFO: dict[str, PresetInfo] = {p.name: p for p in (
    PresetInfo("CoLA", "sentence", ("mcc",)),
    PresetInfo("SST-2", "sentence", _ACC, aliases=("SST",)),
    PresetInfo("MRPC", "pair", ("f1", "accuracy")),
    PresetInfo("STS-B", "regression", ("pearson", "spearman"), aliases=("STS",)),
    PresetInfo("QQP", "pair", ("f1", "accuracy")),
    PresetInfo("MNLI", "pair", _ACC, board_name="MNLI-m", aliases=("MNLI-m", "MNLI-matched")),
    PresetInfo("MNLI-mm", "pair", _ACC, aliases=("MNLI-mismatched",)),
    PresetInfo("QNLI", "pair", _ACC),
    PresetInfo("RTE", "pair", _ACC),
    # Most papers (BERT's among them) leave WNLI out of the average.
    PresetInfo("WNLI", "pair", _ACC, in_glue_average=False),
    # The diagnostic set is scored with R3, the multi-class Matthews correlation.
    PresetInfo("AX", "pair", ("mcc",), in_glue_average=False, aliases=("diagnostic",)),
    PresetInfo("SNLI", "pair", _ACC, in_glue_average=False),
    PresetInfo("ChnSentiCorp", "sentence", _ACC, in_glue_average=False),
    PresetInfo("AFQMC", "pair", _ACC, in_glue_average=False),
)}


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


_BY_KEY: dict[str, str] = {}
for _p in PRESET_INFO.values():
    for _spelling in (_p.name, _p.board, *_p.aliases):
        _BY_KEY.setdefault(_key(_spelling), _p.name)


def find_preset(name: str) -> PresetInfo | None:
    """The preset a name means, forgiving case, dashes and underscores ("sst2", "sts-b",
    "mnli_mismatched"); None when no preset is called that."""
    found = _BY_KEY.get(_key(name))
    return PRESET_INFO[found] if found is not None else None
