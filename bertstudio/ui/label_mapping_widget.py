"""The Import dialog's label step: the file's label values beside the project's, one choice each.

Shown when a file uses label values the project's label set does not have
(``0/1/2`` against ``entailment/neutral/contradiction``). Each value gets a combo:
a project label (preselected by name, else by position as GLUE/SNLI number their
classes, see :func:`bertstudio.data.labelmap.propose_mapping`), "add as a new
class", or "leave unlabelled"; a value nothing fits starts at "— choose —" and
the import waits until the user chooses. A summary line says what will happen.
The mapping itself is applied by the core (``Project.import_examples``).
"""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from bertstudio.data.labelmap import propose_mapping
from bertstudio.data.kinds import get_spec
from bertstudio.ui.run_words import rows_or_tokens

_CHOOSE, _LABEL, _NEW, _NONE = "choose", "label", "new", "none"
_TARGET = Qt.ItemDataRole.UserRole + 1  # the label name a choice maps to (UserRole holds what kind of choice)


class LabelMappingBox(QGroupBox):
    """One combo per file label value; :meth:`mapping` and :meth:`add_labels` feed ``import_examples``."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("labelMappingBox")
        self.setTitle(self.tr("Labels (what each label of the file becomes)"))
        self.intro = QLabel()
        self.intro.setObjectName("labelMappingIntro")
        self.intro.setWordWrap(True)
        self.form = QFormLayout()
        self.summary = QLabel()
        self.summary.setObjectName("labelMappingSummary")
        self.summary.setWordWrap(True)
        # every value still at "— choose —" at once: a file of 30 topics needed 30 separate picks
        self.add_rest_button = QPushButton(self.tr("Add the rest as new classes"), objectName="labelMapAddRest")
        self.add_rest_button.clicked.connect(lambda: self.choose_rest(_NEW))
        self.skip_rest_button = QPushButton(self.tr("Leave the rest unlabelled"), objectName="labelMapSkipRest")
        self.skip_rest_button.clicked.connect(lambda: self.choose_rest(_NONE))
        rest = QHBoxLayout()
        rest.addWidget(self.add_rest_button)
        rest.addWidget(self.skip_rest_button)
        rest.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(self.form)
        layout.addLayout(rest)
        layout.addWidget(self.summary)
        self.combos: dict[str, QComboBox] = {}
        self._counts: dict[str, int] = {}

    def set_values(self, values: dict[str, int], labels: list[str], kind: str, *, fresh: bool = False) -> None:
        """Show ``values`` (file value -> rows or tokens) against the project's ``labels``, proposals selected.
        ``fresh``: the project holds no rows and no label typed yet, so its label set comes from this first file: a value no
        project label fits starts at "add as a new class" (a POS file into a new project was 17
        "— choose —" combos), not at "— choose —"; every choice stays the user's to change."""
        while self.form.rowCount():
            self.form.removeRow(0)
        self.combos = {}
        self._counts = dict(values)
        per_token = get_spec(kind).gold.per_token
        self.intro.setText(self.tr("The file's labels are not all labels of this project (%1). Choose what each "
                                   "one becomes:").replace("%1", ", ".join(labels)))
        proposal = propose_mapping(list(values), labels)
        # the values that wait for a choice first: behind 16 matched tags, the one to choose was out of sight
        waiting = [v for v in values if proposal[v] is None and not fresh]
        for value, count in sorted(values.items(), key=lambda vc: vc[0] not in waiting):
            combo = QComboBox()
            combo.setObjectName(f"labelMap_{value}")
            self._add(combo, self.tr("— choose —"), _CHOOSE, None)
            for label in labels:
                self._add(combo, label, _LABEL, label)
            self._add(combo, self.tr("add “%1” as a new class").replace("%1", value), _NEW, value)
            if not per_token:  # every token of a tagged sentence needs a tag
                self._add(combo, self.tr("leave unlabelled"), _NONE, None)
            target = proposal[value]
            new_class = combo.findData(_NEW)
            combo.setCurrentIndex(labels.index(target) + 1 if target is not None else new_class if fresh else 0)
            combo.currentIndexChanged.connect(lambda _i: self._on_changed())
            self.form.addRow(f"{value}  ({rows_or_tokens(count, per_token)})", combo)
            self.combos[value] = combo
        self._on_changed()

    def choose_rest(self, what: str) -> None:
        """Every value still at "— choose —" becomes a new class (``new``) or stays unlabelled (``none``)."""
        for value in self.unresolved():
            combo = self.combos[value]
            found = combo.findData(what)
            if found >= 0:
                combo.blockSignals(True)
                combo.setCurrentIndex(found)
                combo.blockSignals(False)
        self._on_changed()

    @staticmethod
    def _add(combo: QComboBox, text: str, what: str, target: str | None) -> None:
        combo.addItem(text, what)
        combo.setItemData(combo.count() - 1, target, _TARGET)

    def choice(self, value: str) -> tuple[str, str | None]:
        """(what was chosen: choose | label | new | none, the target name)."""
        combo = self.combos[value]
        return str(combo.currentData()), combo.currentData(_TARGET)

    def unresolved(self) -> list[str]:
        """File values still at "— choose —"."""
        return [v for v in self.combos if self.choice(v)[0] == _CHOOSE]

    def mapping(self) -> dict[str, str | None]:
        """``{file value: project label, new class name, or None (unlabelled)}`` for the chosen values."""
        out: dict[str, str | None] = {}
        for value in self.combos:
            what, target = self.choice(value)
            if what in (_LABEL, _NEW, _NONE):
                out[value] = target
        return out

    def add_labels(self) -> bool:
        """True when the user chose to add at least one value as a new class (the explicit choice)."""
        return any(self.choice(v)[0] == _NEW for v in self.combos)

    def _on_changed(self) -> None:
        kinds = Counter(self.choice(v)[0] for v in self.combos)
        rows: Counter = Counter()
        for value, n in self._counts.items():
            rows[self.choice(value)[0]] += n
        parts = []
        if kinds[_LABEL]:
            parts.append(self.tr("%1 value(s) become project labels").replace("%1", str(kinds[_LABEL])))
        if kinds[_NEW]:
            parts.append(self.tr("%1 new class(es) will be added").replace("%1", str(kinds[_NEW])))
        if kinds[_NONE]:
            parts.append(self.tr("%1 row(s) stay unlabelled").replace("%1", str(rows[_NONE])))
        if kinds[_CHOOSE]:
            parts.append(self.tr("choose for: %1").replace("%1", ", ".join(self.unresolved())))
        self.summary.setText("; ".join(parts) + ".")
        several = kinds[_CHOOSE] >= 2
        self.add_rest_button.setVisible(several)
        self.skip_rest_button.setVisible(several and any(c.findData(_NONE) >= 0 for c in self.combos.values()))
        self.changed.emit()
