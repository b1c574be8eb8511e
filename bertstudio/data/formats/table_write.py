"""Writing sentence / pair / regression sets as CSV, TSV or a GLUE-style table."""

from __future__ import annotations

import io
import os
from typing import Any, Mapping

from bertstudio.data.examples import ExampleSet
from bertstudio.data.formats.cells import escape_cell, format_score
from bertstudio.data.atomic import atomic_write_bytes
from bertstudio.data.formats.common import BOM, check_no_nul, check_writable_field
from bertstudio.data.formats.table import QUOTED_FIELD
from bertstudio.errors import ConfigError, DataError


def write_table(
    examples: ExampleSet,
    path: str | os.PathLike[str],
    *,
    delimiter: str = "\t",
    quoting: bool = False,
    columns: Mapping[str, str] | None = None,
    header: bool = True,
    label_map: Mapping[str, str] | None = None,
    bom: bool = False,
    escape_formulas: bool = False,
) -> None:
    """Write a sentence/pair/regression set; with quoting off, refuse values a reader could not split back.
    ``escape_formulas``: spreadsheet-safe cells (see :func:`escape_cell`), for plain CSV/TSV
    exports; preset files keep the official layout byte for byte and leave it off."""
    spec = examples.spec
    if not spec.table_format:
        raise ConfigError(f"cannot write {spec.name} examples as a delimited table", path=path,
                          expected="CoNLL/JSONL for tagging, SQuAD JSON for QA")
    order = list(spec.columns)
    names = [str((columns or {}).get(c, c)) for c in order]
    inverse = {v: k for k, v in label_map.items()} if label_map else None
    buf = io.StringIO()
    esc = escape_cell if escape_formulas else (lambda text: text)
    if header:
        _write_row(buf, [esc(x) for x in names], quoting, delimiter, path, "header")
    row_no = 0
    for batch in examples.dataset.with_format("arrow").iter(batch_size=10_000):
        data = [batch[c].to_pylist() for c in order]
        for values in zip(*data):
            row_no += 1
            cells = []
            for c, v in zip(order, values):
                if c == spec.gold_column:
                    if v is None:
                        v = ""
                    elif spec.gold.numeric:
                        v = format_score(v)
                    elif inverse is not None:
                        v = inverse[v]
                    elif v != v.strip(" "):  # the reader trims them ("good movie, pos"): ' pos ' read 'pos'
                        raise DataError(f"label {v[:40]!r} starts or ends with a space, which a table's reader "
                                        "trims", path=path, where=f"row {row_no}",
                                        expected="save as JSONL, which keeps it, or rename the label")
                cells.append(esc(v))
            if escape_formulas and not quoting:
                _refuse_quoted_look(cells, path, f"row {row_no}")
            _write_row(buf, cells, quoting, delimiter, path, f"row {row_no}")
    data = buf.getvalue().encode("utf-8")
    atomic_write_bytes(path, (BOM + data) if bom else data, parents=True)


def _refuse_quoted_look(cells: list[str], path: Any, where: str) -> None:
    """A plain TSV cell that reads back as CSV quoting (``"a ""b"" c"``: the reader takes such a
    file for Excel's quoted tab export, table.sniff_layout) cannot be written as it is."""
    for cell in cells:
        if QUOTED_FIELD.fullmatch(cell) and '""' in cell[1:-1]:
            raise DataError(f"a value ({cell[:40]!r}) reads back as a quoted field, quotes doubled, in a TSV",
                            path=path, where=where, expected="save as CSV or JSONL, which quote it")


def _write_row(buf: io.StringIO, cells: list[str], quoting: bool, delimiter: str, path: Any, where: str) -> None:
    if quoting:
        for cell in cells:
            check_no_nul(cell, "a value", where, path)
        # By hand: csv.writer leaves a lone "\r" unquoted when the line ending is "\n",
        # and every CSV parser reads that "\r" as a line break.
        special = delimiter + '"\r\n'
        buf.write(delimiter.join('"' + c.replace('"', '""') + '"' if any(ch in c for ch in special) else c for c in cells) + "\n")
        return
    for cell in cells:
        check_writable_field(cell, "a value", where, path, forbidden=delimiter + "\n\r")
    buf.write(delimiter.join(cells) + "\n")
