"""Keep the shipped Simplified Chinese translation in step with the UI source.

The translation lives in resources/i18n/bertstudio_zh_CN.ts (Qt Linguist's XML, written by
lupdate) and is compiled into bertstudio_zh_CN.qm (what the app loads). Usage, from anywhere:

    python scripts/update_translations.py                   # lupdate + lrelease
    python scripts/update_translations.py --check           # report only, write nothing
    python scripts/update_translations.py --todo todo.json  # unfinished entries as a --fill template
    python scripts/update_translations.py --fill todo.json  # fill them in, then lupdate + lrelease

The default run extracts every string (self.tr, QCoreApplication.translate, QT_TRANSLATE_NOOP)
from bertstudio/ui/**/*.py, bertstudio/app.py and any other bertstudio module that calls Qt's
translation, merges them into the .ts with ``-no-obsolete`` (strings gone from the source are
dropped; new ones arrive as ``type="unfinished"``), and rebuilds the .qm with lrelease.

``--check`` exits 1 and lists what is wrong: entries that are unfinished or empty, obsolete or
vanished entries, a translation whose placeholders ({name}, %1), HTML tags or &-accelerator
differ from its source, and strings in the source that the .ts lacks (or the reverse).

Translating new strings in one batch (the way to add the strings a change brings):

    python scripts/update_translations.py --todo todo.json
    # edit todo.json: fill each "translation"
    python scripts/update_translations.py --fill todo.json

The JSON is a list of objects ``{"context": ..., "source": ..., "translation": ...}``, with an
optional ``"comment"`` (tr's disambiguation) when the .ts has one; a plural (numerus) entry
takes a list of strings as its translation. Entries left with an empty translation are
skipped. Filled entries lose ``type="unfinished"``; an entry that matches nothing in the .ts is
reported and makes the run exit 1. The file is rewritten by lupdate itself after a fill, so
its formatting stays lupdate's and diffs stay small.

Tools: ``pyside6-lupdate`` / ``pyside6-lrelease`` next to this Python (the venv's bin) or on
PATH, else Qt's plain ``lupdate`` / ``lrelease``.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bertstudio"
TS = ROOT / "resources" / "i18n" / "bertstudio_zh_CN.ts"
QM = TS.with_suffix(".qm")
LANGUAGE = "zh_CN"
# Module-level helpers that translate in no context, e.g. ``def _t(text): return
# QCoreApplication.translate("", text)`` in ui/actions.py: lupdate reads a call ``_t("...")`` outside
# a class as ``tr("...")``, which it files under no context too.
TR_ALIASES = ("_t", "_tr")
# what marks a module as holding translatable strings outside bertstudio/ui
_MARKERS = re.compile(r"QCoreApplication\.translate|QT_TRANSLATE_NOOP|QT_TR_NOOP|\.tr\(")
_PLACEHOLDER = re.compile(r"%(?:\d+|[nvmp](?![A-Za-z]))|\{[A-Za-z_][A-Za-z0-9_]*(?:[:!][^{}]*)?\}|\{\}")
_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)\b")
_ACCEL = re.compile(r"&(?!&)(?=\S)")


def find_tool(name: str) -> str | None:
    """``pyside6-<name>`` beside the running Python (the venv's bin), on PATH, or Qt's ``<name>``."""
    beside = Path(sys.executable).parent / f"pyside6-{name}"
    if beside.is_file():
        return str(beside)
    return shutil.which(f"pyside6-{name}") or shutil.which(name)


def source_files() -> list[Path]:
    """Every module lupdate must read: all of bertstudio/ui, app.py, and any other translating module."""
    files = set(PACKAGE.joinpath("ui").rglob("*.py")) | {PACKAGE / "app.py"}
    files |= {p for p in PACKAGE.rglob("*.py") if _MARKERS.search(p.read_text(encoding="utf-8"))}
    return sorted(files)


def run_lupdate(ts: Path, lupdate: str) -> None:
    """Merge the source's strings into ``ts`` (created if missing); vanished ones are dropped."""
    sources = [str(p.relative_to(ROOT)) for p in source_files()]
    subprocess.run([lupdate, *sources, "-ts", str(ts), "-no-obsolete", "-target-language", LANGUAGE, "-silent",
                    "-tr-function-alias", ",".join(f"tr+={alias}" for alias in TR_ALIASES)],
                   cwd=ROOT, check=True, capture_output=True, text=True, timeout=120)


def run_lrelease(ts: Path, qm: Path, lrelease: str) -> None:
    subprocess.run([lrelease, "-silent", str(ts), "-qm", str(qm)], check=True, capture_output=True, text=True,
                   timeout=120)


@dataclass
class Entry:
    context: str
    source: str
    comment: str
    translation: str | list[str]
    state: str  # "" (finished), "unfinished", "obsolete", "vanished"
    numerus: bool = False

    @property
    def key(self) -> tuple[str, str, str]:
        return self.context, self.source, self.comment


def _messages(root: ET.Element):  # type: ignore[no-untyped-def]
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            yield name, message


def read_entries(ts: Path) -> list[Entry]:
    entries = []
    for context, message in _messages(ET.parse(ts).getroot()):
        element = message.find("translation")
        numerus = message.get("numerus") == "yes"
        if element is None:
            translation: str | list[str] = ""
        elif numerus:
            translation = [form.text or "" for form in element.iter("numerusform")]
        else:
            translation = element.text or ""
        entries.append(Entry(context, message.findtext("source") or "", message.findtext("comment") or "",
                             translation, "" if element is None else element.get("type", ""), numerus))
    return entries


def _shape(text: str) -> tuple[list[str], list[str], bool]:
    """What a translation must keep from its source: placeholders, HTML tags, an accelerator."""
    return sorted(_PLACEHOLDER.findall(text)), sorted(t.lower() for t in _TAG.findall(text)), bool(
        _ACCEL.search(text.replace("&&", "")))


def problems(entries: list[Entry]) -> list[str]:
    """One line per entry that would show English, show nothing, or break a placeholder."""
    found = []
    for e in entries:
        where = f"{e.context or '(no context)'}: {e.source!r}"
        forms = e.translation if isinstance(e.translation, list) else [e.translation]
        if e.state in ("obsolete", "vanished"):
            found.append(f"{e.state}: {where}")
        elif e.state == "unfinished":
            found.append(f"unfinished: {where}")
        elif not forms or not all(f.strip() for f in forms):
            found.append(f"empty: {where}")
        else:
            for form in forms:
                if _shape(form) != _shape(e.source):
                    found.append(f"placeholders, tags or accelerator differ: {where} -> {form!r}")
    return found


def source_keys(lupdate: str) -> set[tuple[str, str, str]]:
    """The (context, source, comment) of every string in the source, from lupdate on a fresh .ts."""
    with tempfile.TemporaryDirectory(prefix="bertstudio-ts-") as tmp:
        fresh = Path(tmp) / f"fresh_{LANGUAGE}.ts"
        run_lupdate(fresh, lupdate)
        return {e.key for e in read_entries(fresh)}


def out_of_date(ts: Path, lupdate: str) -> list[str]:
    """Strings the source has and the .ts lacks, and the reverse."""
    shipped = {e.key for e in read_entries(ts) if e.state not in ("obsolete", "vanished")}
    current = source_keys(lupdate)
    return ([f"not in the .ts (run this script): {c or '(no context)'}: {s!r}" for c, s, _ in sorted(current - shipped)]
            + [f"no longer in the source: {c or '(no context)'}: {s!r}" for c, s, _ in sorted(shipped - current)])


def todo(ts: Path) -> list[dict[str, object]]:
    """The unfinished and empty entries, in --fill's format (translation: lupdate's guess or "")."""
    items: list[dict[str, object]] = []
    for e in read_entries(ts):
        forms = e.translation if isinstance(e.translation, list) else [e.translation]
        if e.state == "unfinished" or not all(f.strip() for f in forms):
            item: dict[str, object] = {"context": e.context, "source": e.source}
            if e.comment:
                item["comment"] = e.comment
            item["translation"] = e.translation
            items.append(item)
    return items


def fill(ts: Path, items: list[dict[str, object]]) -> tuple[int, list[str]]:
    """Write each item's translation into ``ts`` and mark it finished: (filled, unmatched items)."""
    tree = ET.parse(ts)
    index = {(c, m.findtext("source") or "", m.findtext("comment") or ""): m for c, m in _messages(tree.getroot())}
    filled, unmatched = 0, []
    for item in items:
        translation = item.get("translation")
        if not translation:
            continue
        key = (str(item.get("context", "")), str(item.get("source", "")), str(item.get("comment", "")))
        message = index.get(key)
        if message is None:
            unmatched.append(f"{key[0] or '(no context)'}: {key[1]!r}")
            continue
        element = message.find("translation")
        if element is None:
            element = ET.SubElement(message, "translation")
        element.attrib.pop("type", None)
        if message.get("numerus") == "yes":
            forms = translation if isinstance(translation, list) else [translation]
            element.text = None
            for child in list(element):
                element.remove(child)
            for form in forms:
                ET.SubElement(element, "numerusform").text = str(form)
        else:
            element.text = str(translation)
        filled += 1
    tree.write(ts, encoding="utf-8", xml_declaration=True)  # lupdate rewrites it in its own format next
    return filled, unmatched


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="report unfinished, empty, broken or out-of-date "
                      "entries and exit 1 if there are any; write nothing")
    mode.add_argument("--todo", type=Path, metavar="FILE.json", help="write the unfinished entries as a --fill "
                      "template (after bringing the .ts up to date)")
    mode.add_argument("--fill", type=Path, metavar="FILE.json", help="fill these translations, then update and "
                      "compile")
    parser.add_argument("--ts", type=Path, default=TS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    lupdate, lrelease = find_tool("lupdate"), find_tool("lrelease")
    if lupdate is None or (lrelease is None and not args.check):
        print("needs pyside6-lupdate and pyside6-lrelease (pip install PySide6)", file=sys.stderr)
        return 2
    ts = args.ts.resolve()

    if args.check:
        report = problems(read_entries(ts)) + out_of_date(ts, lupdate)
        for line in report:
            print(line)
        print(f"{ts.name}: {len(read_entries(ts))} entries, {len(report)} problems")
        return 1 if report else 0

    run_lupdate(ts, lupdate)
    if args.todo:
        items = todo(ts)
        args.todo.write_text(json.dumps(items, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {len(items)} entries to fill to {args.todo}")
    unmatched: list[str] = []
    if args.fill:
        filled, unmatched = fill(ts, json.loads(args.fill.read_text(encoding="utf-8")))
        run_lupdate(ts, lupdate)  # back to lupdate's own formatting
        print(f"filled {filled} entries")
        for line in unmatched:
            print(f"not in the .ts: {line}", file=sys.stderr)
    assert lrelease is not None
    run_lrelease(ts, ts.with_suffix(".qm"), lrelease)
    left = problems(read_entries(ts))
    print(f"{ts.name}: {len(read_entries(ts))} entries, {len(left)} still to translate or fix; "
          f"{ts.with_suffix('.qm').name} rebuilt")
    return 1 if unmatched else 0


if __name__ == "__main__":
    sys.exit(main())
