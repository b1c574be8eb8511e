"""User-visible strings go through Qt's translation: the shipped Chinese translation
(resources/i18n, compiled from its .ts with lrelease) installed by ``app.install_translators``
changes the window's texts; no literal text is set on a widget without tr(); the .ts is complete
(nothing unfinished, empty, obsolete or with broken placeholders) and up to date with the source
(scripts/update_translations.py keeps it so)."""

from __future__ import annotations

import ast
import re
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QDialogButtonBox, QPushButton

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "bertstudio" / "ui"
I18N = ROOT / "resources" / "i18n"
TS = I18N / "bertstudio_zh_CN.ts"


def _load_tool():  # type: ignore[no-untyped-def]
    """scripts/update_translations.py (not a package): the one owner of what "complete" means."""
    spec = importlib.util.spec_from_file_location("update_translations", ROOT / "scripts" / "update_translations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


tool = _load_tool()


def _lrelease() -> str | None:
    return tool.find_tool("lrelease")


def test_app_finds_the_shipped_translation_and_icon():
    from bertstudio import app as app_module

    assert app_module.I18N_DIR == I18N and (I18N / "bertstudio_zh_CN.qm").is_file()
    assert app_module.ICON.is_file()


@pytest.mark.skipif(_lrelease() is None, reason="needs lrelease (PySide6's pyside6-lrelease)")
def test_shipped_qm_is_compiled_from_the_ts(tmp_path):
    """The committed .qm is what lrelease makes of the committed .ts (nobody forgot to rebuild it)."""
    out = tmp_path / "zh.qm"
    subprocess.run([_lrelease(), str(I18N / "bertstudio_zh_CN.ts"), "-qm", str(out)], check=True, capture_output=True, timeout=60)
    assert out.read_bytes() == (I18N / "bertstudio_zh_CN.qm").read_bytes()


def test_every_entry_of_the_shipped_ts_is_translated():
    """No entry is unfinished, empty, obsolete or vanished, or loses a placeholder, tag or accelerator."""
    entries = tool.read_entries(TS)
    assert len(entries) > 400
    assert tool.problems(entries) == []


def test_the_completeness_check_finds_each_kind_of_problem(tmp_path):
    ts = tmp_path / "x.ts"
    ts.write_text("""<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Page</name>
    <message><source>Done</source><translation>完成</translation></message>
    <message><source>New</source><translation type="unfinished"></translation></message>
    <message><source>Blank</source><translation></translation></message>
    <message><source>Gone</source><translation type="vanished">走了</translation></message>
    <message><source>Old</source><translation type="obsolete">旧</translation></message>
    <message><source>Row %1 of {n}</source><translation>第 %1 行</translation></message>
    <message><source>&amp;Save</source><translation>保存</translation></message>
    <message><source>&lt;b&gt;Bold&lt;/b&gt;</source><translation>粗体</translation></message>
    <message><source>%1 / %2 {n:,}</source><translation>%2 中的 %1 {n:,}</translation></message>
</context>
</TS>
""", encoding="utf-8")
    found = tool.problems(tool.read_entries(ts))
    assert [line.split(":")[0] for line in found] == ["unfinished", "empty", "vanished", "obsolete"] + [
        "placeholders, tags or accelerator differ"] * 3
    assert [e.source for e in tool.read_entries(ts) if any(repr(e.source) in line for line in found)] == [
        "New", "Blank", "Gone", "Old", "Row %1 of {n}", "&Save", "<b>Bold</b>"]


@pytest.mark.skipif(tool.find_tool("lupdate") is None, reason="needs lupdate (PySide6's pyside6-lupdate)")
def test_shipped_ts_is_up_to_date_with_the_source():
    """lupdate on today's source finds exactly the (context, source) pairs the .ts holds."""
    assert tool.out_of_date(TS, tool.find_tool("lupdate")) == []


def _translated_literals(source: str) -> set[tuple[str, str]]:
    """(context the app looks it up in, text) of each literal handed to a translation call.

    Unlike lupdate, this sees calls inside f-strings too; a bare ``_t("...")`` / ``tr("...")``
    helper translates in no context (see scripts/update_translations.py)."""
    found: set[tuple[str, str]] = set()

    tree = ast.parse(source)
    constants = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
                 and isinstance(n.value.value, str) for t in n.targets if isinstance(t, ast.Name)}

    def text(node: ast.AST) -> str | None:
        if isinstance(node, ast.Name) and node.id in constants:  # lupdate reads only literals, the app any str
            return f"<{node.id}: a name lupdate cannot read>"
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    def visit(node: ast.AST, cls: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Call):
                func, args = child.func, child.args
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                first = text(args[0]) if args else None
                if name == "tr" and isinstance(func, ast.Attribute) and first is not None:
                    owner = getattr(func.value, "id", "")
                    found.add((cls if owner == "self" and cls else f"<{owner}.tr: context unknown to lupdate>", first))
                elif name in ("translate", "QT_TRANSLATE_NOOP") and len(args) > 1 and None not in (first, text(args[1])):
                    found.add((str(first), str(text(args[1]))))
                elif isinstance(func, ast.Name) and name in ("tr", *tool.TR_ALIASES) and first is not None:
                    found.add(("", first))
            visit(child, child.name if isinstance(child, ast.ClassDef) else cls)

    visit(tree, None)
    return found


def test_the_literal_scan_reads_contexts_like_the_app():
    source = ('class Page:\n    def f(self):\n        return self.tr("A"), f"{self.tr(\'B\')}", window.tr("C")\n'
              'def g():\n    return _t("D"), QCoreApplication.translate("Ctx", "E"), QT_TRANSLATE_NOOP("Ctx", "F")\n'
              'CTX = "Model"\nTITLES = {"x": QT_TRANSLATE_NOOP(CTX, "G")}\n')
    assert _translated_literals(source) == {("Page", "A"), ("Page", "B"), ("<window.tr: context unknown to lupdate>", "C"),
                                            ("", "D"), ("Ctx", "E"), ("Ctx", "F"), ("<CTX: a name lupdate cannot read>", "G")}


def test_every_translated_literal_is_in_the_ts_under_the_context_the_app_uses():
    """Catches what lupdate cannot see: a tr() inside an f-string, a wrapper with a fixed context,
    ``window.tr(...)`` in a free function (lupdate files it under "window", the app asks its class)."""
    shipped = {(e.context, e.source) for e in tool.read_entries(TS)}
    missing = sorted(f"{path.relative_to(ROOT)}: {context or '(no context)'}: {text!r}"
                     for path in tool.source_files()
                     for context, text in _translated_literals(path.read_text(encoding="utf-8"))
                     if (context, text) not in shipped)
    assert missing == []


def test_installed_translation_changes_the_window_texts(qtbot, qapp, tmp_path):
    from bertstudio import app as app_module
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    installed = app_module.install_translators(qapp, "zh_CN")
    try:
        assert any(t.language() == "zh_CN" for t in installed)
        window = MainWindow(ProjectSession(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
        qtbot.addWidget(window)
        assert window.findChild(QAction, "importAction").text() == "导入数据(&I)…"
        assert window.findChild(QAction, "newProjectAction").text() == "新建项目(&N)…"
        assert window.page_list.item(2).text() == "训练"  # page titles marked with QT_TRANSLATE_NOOP
        assert window.pages["train"].start_button.text() == "开始训练(&S)"  # the mnemonic as Chinese apps show it
        assert window.pages["train"].monitor.loss_plot.plotItem.titleLabel.text == "训练损失"
        assert window.pages["train"].model_picker.toolTip().startswith("内置模型、本地模型文件夹")
        form = window.pages["train"].form  # the settings' helps come from TrainConfig, in the core (were English)
        assert (form.epochs_spin.toolTip(), form.lr_combo.toolTip()) == ("遍历训练数据的轮数", "峰值学习率")
        assert window.findChild(QAction, "pushHubAction").text() == "推送到 Hugging Face Hub(&H)…"  # no context
        # a string the table does not hold falls back to the English source
        assert QCoreApplication.translate("TrainingPage", "Not a string of the app") == "Not a string of the app"
        window.close()
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


def test_split_names_are_said_in_the_users_language_and_kept_as_keys(qtbot, qapp, tmp_path):
    """A drive in zh_CN read "train", "dev" and "test" in English in every split picker and the
    status bar; the project and its files keep the keys."""
    from bertstudio import app as app_module
    from bertstudio.data.examples import from_records
    from bertstudio.data.project import Project
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    project = Project.create(tmp_path / "proj", name="p", kind="sentence", labels=["neg", "pos"])
    project.import_examples(from_records("sentence", [{"text": "fine", "label": "pos"}], labels=["neg", "pos"]), "train")
    installed = app_module.install_translators(qapp, "zh_CN")
    try:
        session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
        window = MainWindow(session)
        qtbot.addWidget(window)
        assert "训练集" in window.split_label.text()
        for combo in (window.pages["data"].split_combo, window.pages["label"].findChild(QComboBox, "labelSplitCombo")):
            names = [combo.itemText(i) for i in range(combo.count())]
            assert [combo.itemData(i) for i in range(combo.count())] == ["train", "dev", "test"]
            assert names[0].startswith("训练集") and names[1].startswith("验证集") and names[2].startswith("测试集")
        from bertstudio.ui.add_example_dialog import AddExampleDialog
        from bertstudio.ui.import_target import SplitTargetBox

        add = AddExampleDialog(session)
        qtbot.addWidget(add)
        assert [add.split_combo.itemText(i) for i in range(3)] == ["训练集", "验证集", "测试集"]
        target = SplitTargetBox(session)
        qtbot.addWidget(target)
        target.refresh()
        assert target.state_label.text().startswith("训练集") and "train" not in target.state_label.text()
        window.close()
        session.close()
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


_SETTERS = {"setText", "setWindowTitle", "setPlaceholderText", "setToolTip", "showMessage", "setTitle",
            "setHorizontalHeaderLabels", "information", "warning", "question", "critical", "addTab", "addMenu",
            "setStatusTip", "setInformativeText", "QLabel", "QPushButton", "QAction", "QCheckBox", "QGroupBox",
            "QRadioButton", "QMenu", "QToolButton", "addAction", "setItemText"}


def _literal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return None


def untranslated_literals(source: str) -> list[tuple[int, str]]:
    """(line, text) of word-bearing literal strings passed straight to a Qt text setter."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in _SETTERS and not (isinstance(func, ast.Attribute) and getattr(func.value, "id", "") == "log"):
            for arg in node.args[:1]:
                text = _literal(arg)
                if text is not None and any(c.isalpha() for c in text):
                    found.append((node.lineno, text))
    return found


def test_the_scan_finds_a_literal_and_accepts_tr():
    assert untranslated_literals('b.setText("Start")\nb.setText(self.tr("Start"))\nlog.warning("x %s", 1)') == [(1, "Start")]


def test_no_widget_text_bypasses_translation():
    offenders = [f"{path.relative_to(UI.parent)}:{line}: {text!r}" for path in sorted(UI.rglob("*.py"))
                 for line, text in untranslated_literals(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_scoreboard_notes_of_the_core_are_marked_for_translation():
    """metrics.CONVENTIONS is Qt-free English; the page marks the same notes for lupdate."""
    from bertstudio.metrics import CONVENTIONS
    from bertstudio.ui.scoreboard_page import NOTES

    assert set(CONVENTIONS.values()) == set(NOTES)


def test_why_the_assistant_picked_a_row_is_said_in_the_users_language(qapp):
    # the core gives the reason as data (a key and the label's own name); the page translates the words
    import numpy as np

    from bertstudio import app as app_module
    from bertstudio.assist.strategies import Queue
    from bertstudio.ui.editors.page import pick_reason

    item = Queue(3).next_row("by_label", scores=np.array([[0.9, 0.1], [0.4, 0.6], [0.2, 0.8]]), label_index=1,
                             label_name="positive")
    assert pick_reason(item) == "likeliest for positive"
    installed = app_module.install_translators(qapp, "zh_CN")
    try:
        assert pick_reason(item) == "最可能是 positive"
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


def test_task_kinds_and_answer_counts_are_said_in_the_users_language(qtbot, qapp, tmp_path):
    """A drive in zh_CN read a QA project's label distribution as "answer" / "no_answer" and the
    Runs page's task column as "sentence", in English."""
    from bertstudio import app as app_module
    from bertstudio.data.examples import from_records
    from bertstudio.data.project import Project
    from bertstudio.train.config import TrainConfig
    from bertstudio.ui.data_page import DataPage
    from bertstudio.ui.runs_page import RunsPage
    from bertstudio.ui.session import ProjectSession

    context = "Paris is the capital of France."
    rows = [{"id": "a", "title": "t", "context": context, "question": "Capital?",
             "answers": {"text": ["Paris"], "answer_start": [0]}},
            {"id": "b", "title": "t", "context": context, "question": "Moon?", "answers": {"text": [], "answer_start": []}}]
    project = Project.create(tmp_path / "qa", name="qa", kind="qa")
    project.import_examples(from_records("qa", rows), "train")
    run = project.new_run_dir("first")
    TrainConfig(task="sentence", labels=["neg", "pos"], output_dir=str(run)).save(run / "config.toml")
    installed = app_module.install_translators(qapp, "zh_CN")
    try:
        session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
        data = DataPage(session)
        qtbot.addWidget(data)
        data._update_counts()
        shown = set(data.distribution._bars)
        assert shown == {"有答案", "无答案"}, shown
        runs = RunsPage(session)
        qtbot.addWidget(runs)
        model = runs.model
        task = model.data(model.index(0, model.COLUMNS.index("task")))
        assert task and "sentence" not in task and task == kind_name_zh("sentence"), task
        session.close()
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


def kind_name_zh(kind: str) -> str:
    from bertstudio.ui.new_project_dialog import kind_name

    return kind_name(kind)


@pytest.fixture
def chinese_session(qapp, tmp_path):
    """make(kind, labels) -> a ProjectSession over a new project, with the zh_CN translation
    installed until the test ends."""
    from bertstudio import app as app_module
    from bertstudio.data.project import Project
    from bertstudio.ui.session import ProjectSession

    installed = app_module.install_translators(qapp, "zh_CN")
    sessions = []

    def make(kind: str, labels: list[str]) -> ProjectSession:
        project = Project.create(tmp_path / f"p{len(sessions)}", name="p", kind=kind, labels=labels)
        sessions.append(ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
        return sessions[-1]

    yield make
    for session in sessions:
        session.close()
    for translator in installed:
        qapp.removeTranslator(translator)


def test_headerless_columns_and_the_time_estimate_read_right_in_chinese(qtbot, chinese_session, tmp_path):
    """A Chinese user's walk: a file without a header showed "column 1/2/3" in English in the
    preview and every column box; the estimate read "约需 约 9 分钟" ("about" twice)."""
    from bertstudio.train.config import TrainConfig
    from bertstudio.ui.import_dialog import ImportDialog
    from bertstudio.ui.train_estimate import TimeEstimateLabel

    path = tmp_path / "afqmc.txt"
    path.write_text("".join(f"花呗怎么还款 {i}\t借呗如何还钱 {i}\t{i % 2}\n" for i in range(6)), encoding="utf-8")
    session = chinese_session("pair", ["0", "1"])
    dialog = ImportDialog(session, None, str(path))
    qtbot.addWidget(dialog)
    model = dialog.preview_model
    assert [model.horizontalHeaderItem(i).text() for i in range(3)] == ["第 1 列", "第 2 列", "第 3 列"]
    assert {c: (b.currentText(), b.currentData()) for c, b in dialog.mapping.items()} == {
        "text": ("第 1 列", 0), "text_pair": ("第 2 列", 1), "label": ("第 3 列", 2)}
    estimate = TimeEstimateLabel(session)
    qtbot.addWidget(estimate)
    text = estimate._sentence(TrainConfig(task="sentence", head="embedding", method="setfit"), 96, 540)
    assert text.count("约") == 1 and "9" in text, text


def test_a_file_the_reader_refuses_is_said_in_the_users_language_with_what_to_do(qtbot, chinese_session, tmp_path):
    """A Chinese user's walk: a GBK-encoded TSV (common for Chinese data) showed only the reader's
    English "not UTF-8: byte 0xba at byte offset 15 cannot be decoded" in the Chinese window."""
    from bertstudio.ui.import_dialog import ImportDialog

    path = tmp_path / "gbk.tsv"
    path.write_bytes("label\ttext\n1\t房间很好\n0\t服务太差\n".encode("gbk"))
    dialog = ImportDialog(chinese_session("sentence", ["0", "1"]), None, str(path))
    qtbot.addWidget(dialog)
    shown = dialog.error_label.text()
    assert shown.startswith("无法读取此文件：") and str(path) in shown and "UTF-8" in shown and "另存为" in shown, shown


@pytest.fixture
def chinese(qapp):
    """The zh_CN translation installed until the test ends."""
    from bertstudio import app as app_module

    installed = app_module.install_translators(qapp, "zh_CN")
    assert installed
    yield
    for translator in installed:
        qapp.removeTranslator(translator)


def test_sentences_join_without_a_space_after_a_chinese_one():
    """Notes joined with " " read "…崩溃）。 它评估过…" in Chinese."""
    from bertstudio.ui.sentences import join_sentences

    assert join_sentences(["它崩溃了（进程被关闭）。", "", "它评估过 2 次。"]) == "它崩溃了（进程被关闭）。它评估过 2 次。"
    assert join_sentences(["It crashed.", "It evaluated twice.", ""]) == "It crashed. It evaluated twice."
    assert join_sentences(["", ""]) == ""


def test_an_interrupted_runs_note_on_results_joins_its_chinese_sentences(qtbot, chinese, session_factory):
    from bertstudio.ui.results_page import ResultsPage, UnsavedRun

    page = ResultsPage(session_factory("sentence", ["neg", "pos"]))
    qtbot.addWidget(page)
    page._show_state(UnsavedRun("interrupted", 12, 2))
    text = page.state_label.text()
    assert "12" in text and "它评估过 2 次" in text and "。 " not in text, text


def test_the_learning_curves_progress_and_end_are_said_in_chinese(qtbot, chinese, session_factory, monkeypatch):
    """The dialog said "run 2 of 8: 2 labels, seed 1" (the core's English line), "1 runs done." and
    its warnings about the rows as "警告：the training data: 1 input appears more than once…"."""
    import functools
    from types import SimpleNamespace

    from helpers import sentiment_records

    from bertstudio.train import engine
    from bertstudio.train.config import TrainConfig
    from bertstudio.ui import learning_curve as panel_module

    def fake_train(config, share, eval_set, *, callbacks, cancel):  # the engine's steps, without a model
        for step in (1, 2):
            for callback in callbacks:
                callback(SimpleNamespace(kind="step", step=step, total_steps=2), None)
        return engine.RunResult("finished", metrics={"accuracy": 0.5 + len(share) / 100})

    monkeypatch.setattr(engine, "train", fake_train)
    monkeypatch.setattr(panel_module, "JobWorker", functools.partial(panel_module.JobWorker, throttle_s=0.0))
    train = sentiment_records(16, 0) + [{"text": "said twice", "label": "pos"}, {"text": "said twice", "label": "neg"}]
    dev = sentiment_records(8, 1) + [dict(train[1])]  # a dev row that repeats a training row
    session = session_factory("sentence", ["neg", "pos"], {"train": train, "dev": dev})
    panel = panel_module.LearningCurvePanel(session, lambda: TrainConfig(task="sentence", labels=["neg", "pos"]),
                                            fractions=(0.5, 1.0), seeds=(0,))
    qtbot.addWidget(panel)
    said: list[str] = []
    shown = panel._on_progress
    panel._on_progress = lambda fraction, message: (said.append(message), shown(fraction, message))
    with qtbot.waitSignal(panel.finished, timeout=30_000):
        assert panel.start() is not None
    assert "第 1 次运行（共 2 次）：9 行已标注数据，随机种子 0" in said, said
    assert not any("run " in s or "labels" in s for s in said), said
    assert panel.status.text() == "已完成 2 次运行。"
    assert "。 " not in panel.result.text()
    warned = panel.warnings.text().splitlines()
    assert any(w.startswith("警告：1 个输入多次出现且标签不同（首例：训练集第 ") for w in warned), warned
    assert any(w.startswith("警告：9 个评估行中有 ") and "与某个训练行重复（text 相同）" in w and "验证集第 " in w
               for w in warned), warned
    assert not any(english in w for w in warned for english in ("the training data", " rows", "input")), warned


def _bio_session(session_factory):
    rows = [{"tokens": ["john", "smith", "went", "home"], "tags": ["B-PER", "I-PER", "O", "O"]},
            {"tokens": ["mary", "lives", "in", "paris"], "tags": ["B-PER", "O", "O", "B-LOC"]}]
    return session_factory("tagging", ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"], {"train": rows})


def test_the_label_set_dialogs_refusals_are_said_in_chinese(qtbot, chinese, session_factory):
    """The dialog said "a label named 'B-LOC' already exists: a rename cannot merge…", "label name ''
    is empty", "label 'O' appears twice", "label 'B-PER' is still used (2 in train)" in English."""
    from bertstudio.errors import DataError
    from bertstudio.ui.editors.label_set import LabelSetDialog
    from bertstudio.ui.session import split_name

    session = _bio_session(session_factory)
    dialog = LabelSetDialog(session)
    qtbot.addWidget(dialog)
    labels = session.labels()
    said = []

    def remove_b_per() -> bool:
        dialog.list.setCurrentRow(labels.index("B-PER"))
        dialog.findChild(QPushButton, "removeLabelButton").click()
        return session.labels() != labels
    for refused in (lambda: dialog.add_label(""), lambda: dialog.add_label("O"),
                    lambda: dialog.rename_label("B-PER", "B-LOC"), lambda: dialog.rename_label("I-PER", "I-LOC"),
                    remove_b_per):
        assert not refused()
        said.append(dialog.error.text())
    assert said[0] == "标签需要名称：此名称为空。"
    assert said[1].startswith("已存在名为 O 的标签")
    assert said[2].startswith("已存在名为 B-LOC 的标签：重命名不能合并两个标签") and "B-PER" in said[2]
    assert said[3].startswith("已存在名为 I-LOC 的标签")
    assert said[4].startswith("标签 B-PER 仍在使用") and f"{split_name('train')}中 2 处" in said[4], said[4]
    assert not any("label" in s for s in said), said
    assert session.labels() == labels
    with pytest.raises(DataError):  # the project's own checks stay the safety net
        session.project.rename_label("B-PER", "B-LOC")


def test_a_setting_the_model_cannot_take_is_said_in_chinese(qtbot, chinese, session_factory, tiny_model_dir, tmp_path):
    """Start's refusal read "请先修正设置:/tmp/nu/tiny, max_length: max_length 300 is more than this model takes…"."""
    from helpers import capped_model, sentiment_records

    from bertstudio.errors import ConfigError
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.preflight import check_max_length
    from bertstudio.ui.training_page import TrainingPage

    short = capped_model(tiny_model_dir, tmp_path / "short", 64)
    with pytest.raises(ConfigError) as refused:
        check_max_length(TrainConfig(task="sentence", model=str(short), max_length=100))
    page = TrainingPage(session_factory("sentence", ["neg", "pos"], {"train": sentiment_records(16, 0)}))
    qtbot.addWidget(page)
    page.settings_error = refused.value  # what the page keeps when the count or Start met the refusal
    page._refresh_state()
    text = page.status_label.text()
    assert not page.start_button.isEnabled() and page.start_button.toolTip() == text
    assert text.startswith("请先修正设置:最大长度 100 个词元") and "64" in text and "max_length" not in text, text
    page.settings_error = ConfigError("something else", where="lr")  # no facts: the core's words, as before
    page._refresh_state()
    assert page.status_label.text().endswith("lr: something else")


def test_the_runs_pages_tooltips_say_automatics_reason_and_an_interrupted_run_in_chinese(qtbot, chinese, tmp_path):
    """The Runs page's tooltip read "根据数据选择：24 labelled rows: batch 16 and 75 epochs…" (the
    run's config.toml keeps the reason in English; the Train page said it in Chinese) and "the
    training stopped without finishing … continue it with: …" for an interrupted run."""
    from bertstudio.train.config import TrainConfig
    from bertstudio.train.rundir import RunInfo, Said, interrupted_message
    from bertstudio.train.small_data import COUNTS, REASONS, say
    from bertstudio.ui.runs_page import RunsModel

    reasons = [("steps", {"rows": "24", "batch": "16", "epochs": "75", "steps": "100"}), ("limit", {"limit": "512"})]
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    command = "bertstudio train --config /runs/r/config.toml --resume"
    runs = [RunInfo(tmp_path / "auto", TrainConfig(task="sentence", auto_reason=say(reasons)), status="finished"),
            RunInfo(crashed, TrainConfig(task="sentence"), status="interrupted", message=interrupted_message(crashed)),
            RunInfo(tmp_path / "r", TrainConfig(task="sentence"), status="interrupted",
                    message=Said("the training stopped … continue it with: …", "interrupted", command=command))]
    model = RunsModel()
    model.set_runs(runs)
    epochs = model.COLUMNS.index("epochs")
    tip = model.data(model.index(0, epochs), Qt.ItemDataRole.ToolTipRole)
    steps = QCoreApplication.translate("SmallData", REASONS["steps"])
    rows = QCoreApplication.translate("SmallData", COUNTS["labelled"][1]).format(n="24")  # its count, in its words
    assert steps != REASONS["steps"] and steps.format(**{**reasons[0][1], "rows": rows}) in tip, tip
    assert "labelled rows" not in tip and "max length" not in tip, tip
    status = model.COLUMNS.index("status")
    crashed_tip = model.data(model.index(1, status), Qt.ItemDataRole.ToolTipRole)
    assert "训练未完成就停止了" in crashed_tip and "training stopped" not in crashed_tip, crashed_tip
    resumable_tip = model.data(model.index(2, status), Qt.ItemDataRole.ToolTipRole)
    assert "用以下命令继续" in resumable_tip and command in resumable_tip and "continue it" not in resumable_tip
    # a reason of another version: shown as written
    model.set_runs([RunInfo(tmp_path / "old", TrainConfig(task="sentence", auto_reason="an old reason"))])
    assert "an old reason" in model.data(model.index(0, epochs), Qt.ItemDataRole.ToolTipRole)


def test_resume_refusals_are_said_in_chinese(qtbot, chinese, session_factory, tmp_path):
    """The Resume box read "killed 无法在此继续：it kept no checkpoint to go on from (…)"; the Train
    page's error after a resume refused on changed rows read the engine's English."""
    from bertstudio.train.rundir import Said
    from bertstudio.ui.run_words import data_change_refusal, resume_refusal
    from bertstudio.ui.training_page import TrainingPage

    page = TrainingPage(session_factory("sentence", ["neg", "pos"]))
    qtbot.addWidget(page)
    killed = tmp_path / "killed"
    killed.mkdir()
    said = page.resume_run(killed)
    assert said and said.startswith("killed") and "只有通过“取消”" in said and "checkpoint" not in said, said
    renamed = resume_refusal(Said("its labels were renamed …", "renamed", changed=[("pos", "positive"), ("neg", None)]))
    assert "pos → positive" in renamed and "neg → （已删除）" in renamed and "renamed" not in renamed, renamed
    assert resume_refusal("something new") == "something new"  # a reason of no known kind: as the core says it
    changed = data_change_refusal({"refusal": "data_changed", "split": "train", "rows": 24, "rows_then": 24,
                                   "same_inputs": True})
    assert changed == ("运行停止后，项目已标注的训练行发生了变化：仍是这 24 行，但标准答案不同了。"
                       "撤销它停止后所做的修改即可继续，或者开始新的运行。")
    assert "当时 20 行，现在 24 行" in data_change_refusal({"refusal": "data_changed", "split": "eval", "rows": 24,
                                                            "rows_then": 20, "same_inputs": False})
    assert data_change_refusal({}) is None


def test_compares_notes_are_said_in_chinese_and_runs_of_one_name_told_apart(qtbot, chinese, tmp_path):
    """Compare said "killed has no predictions yet (interrupted before it saved them)…" in English, and
    two seeds jobs' runs read "seed-42 → seed-42" in the title, the summary and the legends."""
    from dataclasses import replace

    from bertstudio.train.rundir import Said
    from bertstudio.ui.run_compare import RunCompareDialog

    folders = [tmp_path / job / "seed-42" for job in ("seeds4", "seeds5")]
    for folder in folders:
        folder.mkdir(parents=True)
        (folder / "config.toml").write_text('task = "sentence"\n', encoding="utf-8")
    dialog = RunCompareDialog(None, *folders)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.compared, timeout=20_000):
        dialog.start()
    assert "seeds4/seed-42" in dialog.windowTitle() and "seeds5/seed-42" in dialog.windowTitle()
    legend = [label.item.toPlainText() for _sample, label in dialog.loss_by_step.getPlotItem().legend.items]
    assert legend == ["A: seeds4/seed-42", "B: seeds5/seed-42"]
    stopped = Said("seed-42 has no predictions yet (interrupted before it saved them)", "not_saved_yet", side="B",
                   status="interrupted")
    dialog.show_result(replace(dialog.result, note=Said("…", "no_predictions", runs=[stopped])))
    text = dialog.summary.text()
    assert "A = seeds4/seed-42" in text and "B = seeds5/seed-42" in text, text
    assert "seeds5/seed-42 还没有预测结果（在保存之前被中断）。只比较曲线和设置。" in text, text
    dialog.show_result(replace(dialog.result, note=Said("…", "replaced", splits=["dev"])))
    assert "两次运行之间，验证集的行被替换了" in dialog.summary.text()
    dialog.show_result(replace(dialog.result, note=Said("…", "other_project")))
    assert "seeds5/seed-42 与 seeds4/seed-42 属于不同的项目" in dialog.summary.text()


def test_compares_refusals_of_old_files_and_a_followed_runs_end_are_said_in_chinese(qtbot, chinese):
    """Compare's summary read "the runs were evaluated on different data (…)" and "only 9 of 20 rows
    paired by position…" in English; the Runs page's monitor logged a followed run that died as
    "the training stopped without finishing … continue it with: …" while its row's tooltip said it
    in Chinese."""
    from bertstudio.train.events import RunFinished
    from bertstudio.train.rundir import Said
    from bertstudio.ui.run_words import compare_note
    from bertstudio.ui.training_monitor import TrainingMonitor

    names = {"A": "a", "B": "b"}
    different = compare_note(Said("the runs were evaluated on different data …", "different_data",
                                  settings=["eval_file dev.tsv → dev2.tsv"]), names)
    assert different.startswith("两次运行在不同的数据上评估（eval_file dev.tsv → dev2.tsv）") and "evaluated" not in different
    reordered = compare_note(Said("only 9 of 20 rows …", "position_mismatch", agree=9, pairs=20), names)
    assert reordered.startswith("按位置配对的 20 行中只有 9 行") and "paired" not in reordered, reordered
    monitor = TrainingMonitor(names=False)
    qtbot.addWidget(monitor)
    command = "bertstudio train --config /runs/r/config.toml --resume"
    monitor.on_ended(RunFinished("interrupted", 3, message=Said("the training stopped without finishing … continue it "
                                                                   "with: …", "interrupted", command=command)))
    log = monitor.log_view.toPlainText()
    assert "运行已中断。训练未完成就停止了" in log and command in log and "training stopped" not in log, log
    monitor.on_ended(RunFinished("failed", 3, message="CUDA out of memory"))  # the core's own error: as written
    assert "CUDA out of memory" in monitor.log_view.toPlainText()


def test_the_training_monitor_and_the_runs_table_say_a_runs_status_alike(qtbot, chinese, tmp_path):
    """The two kept their own maps of status words (the monitor's knew four of the table's eight)."""
    from bertstudio.train.events import RunFinished
    from bertstudio.train.rundir import RunInfo
    from bertstudio.ui.runs_page import RunsModel
    from bertstudio.ui.training_monitor import TrainingMonitor

    statuses = ["finished", "cancelled", "failed", "interrupted", "running", "damaged", "unknown"]
    model = RunsModel()
    model.set_runs([RunInfo(tmp_path / status, None, status=status) for status in statuses])
    column = model.COLUMNS.index("status")
    monitor = TrainingMonitor(names=False)
    qtbot.addWidget(monitor)
    for row, status in enumerate(statuses):
        in_table = model.data(model.index(row, column))
        monitor.on_ended(RunFinished(status, 0))
        assert in_table != status and monitor.progress.format().startswith(in_table), (status, in_table)
    assert model.data(model.index(0, column)) == "已完成"


def test_a_refused_entity_rename_names_the_tag_that_clashed(qtbot, chinese, session_factory):
    """Renaming the entity type PER to PERSON where an I-PERSON tag already exists: the dialog's own
    copy of the rule advised giving B-PER's rows the label I-PERSON; the project refuses I-PER's
    rename, and the dialog says that, from the refusal's facts."""
    from bertstudio.ui.editors.label_set import LabelSetDialog

    rows = [{"tokens": ["john", "smith"], "tags": ["B-PER", "I-PER"]}]
    labels = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-PERSON"]
    session = session_factory("tagging", labels, {"train": rows})
    dialog = LabelSetDialog(session)
    qtbot.addWidget(dialog)
    assert not dialog.rename_label("B-PER", "B-PERSON")
    said = dialog.error.text()
    assert said.startswith("已存在名为 I-PERSON 的标签：重命名不能合并两个标签") and "把 I-PER 的行标为 I-PERSON" in said, said
    assert "B-PER" not in said, said
    assert session.labels() == labels and session.project.gold("train", 0) == ["B-PER", "I-PER"]


def _menu_mnemonic_clashes(window) -> dict[str, list[str]]:
    """Per top-level menu, the entries that share a mnemonic letter (Alt+F, O only moved between
    "Open project…" and "Export model as ONNX…" instead of running one)."""
    import re

    clashes = {}
    for menu_action in window.menuBar().actions():
        menu = menu_action.menu()
        seen: dict[str, list[str]] = {}
        for action in menu.actions():
            key = re.search(r"&([^&])", action.text().replace("&&", ""))
            if key:
                seen.setdefault(key.group(1).lower(), []).append(action.text())
        clashes.update({f"{menu.title()} {k}": v for k, v in seen.items() if len(v) > 1})
    return clashes


def test_no_two_entries_of_a_menu_share_a_mnemonic_in_english_or_chinese(qtbot, qapp, tmp_path):
    from bertstudio import app as app_module
    from bertstudio.data.project import Project
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    for language in (None, "zh_CN"):
        installed = app_module.install_translators(qapp, language) if language else []
        try:
            project = Project.create(tmp_path / f"p-{language}", name="p", kind="sentence", labels=["a", "b"])
            session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
            window = MainWindow(session)
            qtbot.addWidget(window)
            assert _menu_mnemonic_clashes(window) == {}, language
            window.close()
            session.close()
        finally:
            for translator in installed:
                qapp.removeTranslator(translator)


def test_a_runs_warnings_about_its_rows_are_said_in_chinese_in_the_train_pages_log(chinese):
    """The learning curve said the core's row warnings in Chinese, the Train page's run log (the same
    warnings, through TrainingWorker's CoreWarnings) still in English."""
    import logging

    from bertstudio.ui.worker import CoreWarnings

    said: list[str] = []
    log = logging.getLogger("bertstudio.train.sources")
    with CoreWarnings(said.append):
        log.warning("the evaluation data: 3 of 8 evaluation rows have no gold value and are left out of the score",
                    extra={"facts": {"kind": "unscored_rows", "count": 3, "total": 8}})
        log.warning("a warning without facts")
    assert said[0] != "the evaluation data: 3 of 8 evaluation rows have no gold value and are left out of the score"
    assert "3" in said[0] and "8" in said[0] and any("\u4e00" <= ch <= "\u9fff" for ch in said[0]), said
    assert said[1] == "a warning without facts"


def test_the_runs_last_weights_kept_note_is_said_in_chinese_in_the_train_pages_log(chinese):
    """Sweep newcomer4 #4: the engine keeps the last weights when the scored evaluation rows are too
    few to choose the best on; the Train page's log says so in the window's language."""
    import logging

    from bertstudio.ui.worker import CoreWarnings

    said: list[str] = []
    with CoreWarnings(said.append):
        logging.getLogger("bertstudio.train.engine").warning(
            "1 scored evaluation row, fewer than 5: too few to choose the best evaluation on, so the run keeps its "
            "last weights (save_best is not applied)",
            extra={"facts": {"kind": "last_weights_kept", "scored": 1, "least": 5}})
    assert "1" in said[0] and "5" in said[0] and not _english_left(said[0]), said
    assert any("\u4e00" <= ch <= "\u9fff" for ch in said[0]), said


_ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def _english_left(text: str, *names: str) -> list[str]:
    """The English words ``text`` still holds once the names the user gave are taken out."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return _ENGLISH_WORD.findall(text)


def test_label_name_refusals_and_a_partly_tagged_sentence_are_said_in_chinese(qtbot, chinese, session_factory):
    """The Label set dialog (the Label page's Labels…) said "label 'Pos' reads the same as 'pos' (they
    differ only by case…)", "label name 'xxx…'... is 300 characters long", "holds a control or
    text-direction character" and "label 'NOUN' is in a partly tagged sentence" in English, and so
    did Edit > Undo of an added label a partly tagged sentence holds."""
    from bertstudio.ui.editors.label_set import LabelSetDialog

    session = session_factory("tagging", ["NOUN", "VERB"], {"train": [{"tokens": ["dogs", "bark"], "tags": None}]})
    dialog = LabelSetDialog(session)
    qtbot.addWidget(dialog)
    long_name = "x" * 300
    said = []
    for refused in (lambda: dialog.add_label("noun"), lambda: dialog.rename_label("VERB", "Noun"),
                    lambda: dialog.add_label(long_name), lambda: dialog.add_label("a\tb")):
        assert not refused()
        said.append(dialog.error.text())
    assert said[0].startswith("标签 noun 与 NOUN 看起来相同"), said[0]
    assert "300" in said[2] and "200" in said[2], said[2]
    session.draft_labels = lambda: {"NOUN", "ADJ"}  # the tagging editor's unfinished sentences hold them
    dialog.list.setCurrentRow(0)
    dialog.findChild(QPushButton, "removeLabelButton").click()
    said.append(dialog.error.text())
    assert said[-1].startswith("标签 NOUN 出现在"), said[-1]
    assert dialog.add_label("ADJ")
    with qtbot.waitSignal(session.failed) as failed:
        session.undo_stack.undo()  # the added label's undo is refused: a draft holds it
    said.append(failed.args[0])
    assert said[-1].startswith("标签 ADJ 出现在"), said[-1]
    for text in said:
        assert not _english_left(text, "NOUN", "noun", "Noun", "VERB", "ADJ", long_name[:40], "a b"), text
    assert session.labels() == ["NOUN", "VERB", "ADJ"]


def test_train_settings_a_person_types_wrong_are_refused_in_chinese(qtbot, chinese, session_factory):
    """A learning rate of 0 read "请先修正设置:lr: must be a finite number above 0 and below 1, got 0.0",
    a batch size of 0 or of "abc" alike: TrainConfig's ranges and a typed number were said in English."""
    from helpers import sentiment_records

    from bertstudio.ui.training_page import TrainingPage

    page = TrainingPage(session_factory("sentence", ["neg", "pos"], {"train": sentiment_records(16, 0)}))
    qtbot.addWidget(page)
    said = []
    for combo, typed in ((page.form.lr_combo, "0"), (page.form.lr_combo, "2e-5"), (page.form.batch_combo, "0"),
                         (page.form.batch_combo, "abc")):
        combo.setEditText(typed)
        said.append(page.status_label.text())
    lr, fine, batch, text = said
    assert fine == ""  # a good setting again: nothing to fix
    assert lr.startswith("请先修正设置:") and "0" in lr and "1" in lr and "学习率" in lr, lr
    assert "65536" in batch and "批大小" in batch, batch
    assert "abc" in text and "批大小" in text, text
    for shown in (lr, batch, text):
        assert not _english_left(shown, "abc"), shown


def test_the_learning_curves_refusals_and_held_out_note_are_said_in_chinese(qtbot, chinese, session_factory,
                                                                             monkeypatch):
    """curve_sets' English reached the dialog: "learning curve: the training split has no labelled rows",
    "too few labelled rows to hold some out for evaluation (10)", "the labelled training rows hold 1
    class" and "no dev split: 3 of 24 labelled training rows held out for evaluation"."""
    import functools

    from helpers import sentiment_records

    from bertstudio.train import engine
    from bertstudio.train.config import TrainConfig
    from bertstudio.ui import learning_curve as panel_module

    monkeypatch.setattr(engine, "train", lambda *a, **k: engine.RunResult("finished", metrics={"accuracy": 0.5}))
    monkeypatch.setattr(panel_module, "JobWorker", functools.partial(panel_module.JobWorker, throttle_s=0.0))
    config = functools.partial(TrainConfig, task="sentence", labels=["neg", "pos"])
    said = []
    for train in ([{"text": "a film", "label": None}], sentiment_records(10, 0),
                  [r for r in sentiment_records(16, 0) if r["label"] == "pos"] + [{"text": "x", "label": None}]):
        panel = panel_module.LearningCurvePanel(session_factory("sentence", ["neg", "pos"], {"train": train}), config)
        qtbot.addWidget(panel)
        assert panel.start() is None
        said.append(panel.status.text())
    panel = panel_module.LearningCurvePanel(session_factory("sentence", ["neg", "pos"],
                                                            {"train": sentiment_records(24, 0)}), config,
                                            fractions=(1.0,), seeds=(0,))
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.finished, timeout=30_000):
        assert panel.start() is not None
        said.append(panel.status.text())  # before the first progress: what the sets are
    assert "10" in said[1] and "20" in said[1], said[1]
    assert "24" in said[3], said[3]
    for text in said:
        assert text and not _english_left(text), text


def test_a_learning_curve_without_a_clear_trend_says_so_in_chinese(qtbot, chinese, session_factory):
    """Why a curve forecasts no number (no clear trend: on the one-label score, too few sizes, no rise
    beyond the seeds' spread) is said in the window's language."""
    from helpers import sentiment_records

    from bertstudio.train.learning_curve import CurvePoint, LearningCurve
    from bertstudio.ui.learning_curve import LearningCurvePanel

    panel = LearningCurvePanel(session_factory("sentence", ["neg", "pos"], {"train": sentiment_records(8, 0)}),
                               lambda: None)
    qtbot.addWidget(panel)
    values = {10: [0.80, 0.84, 0.78], 20: [0.83, 0.79, 0.81], 40: [0.80, 0.82, 0.83]}
    points = [CurvePoint(n, s, v) for n, vs in values.items() for s, v in enumerate(vs)]
    texts = []
    for kept, baseline in ((40, None), (20, None), (40, 0.81)):
        curve = LearningCurve("accuracy", [p for p in points if p.labels <= kept], rows=kept, eval_rows=100,
                              baseline=baseline)
        curve.refit()
        texts.append(panel.describe(curve))
    assert [t.split("。")[1] for t in texts] == ["尚无明显趋势：拟合无法判断更多标注能带来多少提升"] * 3, texts
    assert "随机种子之间的差异" in texts[0] and "三种或更多数据量" in texts[1] and "81.0" in texts[2], texts
    for text in texts:
        assert not _english_left(text), text


def test_a_seeds_jobs_summary_and_its_metric_are_said_in_chinese(qtbot, chinese, session_factory):
    """The Train page said "1 of 3 seeds finished: accuracy 50.0" and "3 seeds: accuracy 81.2 ± 1.3
    (79.9 to 82.7)" in English (SeedsResult.summary, the CLI's line) inside the Chinese window."""
    from helpers import sentiment_records

    from bertstudio.train.events import RunFinished
    from bertstudio.train.seeds import SeedsResult
    from bertstudio.ui.training_page import TrainingPage

    page = TrainingPage(session_factory("sentence", ["neg", "pos"], {"train": sentiment_records(16, 0)}))
    qtbot.addWidget(page)
    said = []
    for result, status in ((SeedsResult("cancelled", "accuracy", {42: 0.5}, asked=3), "cancelled"),
                           (SeedsResult("finished", "accuracy", {42: 0.799, 43: 0.812, 44: 0.827}, asked=3), "finished"),
                           (SeedsResult("failed", "accuracy", {}, asked=3), "failed")):
        page._seeds_result = result  # what the job's thread kept (_seeds_job), read when the run ends
        page._on_ended(RunFinished(status, step=4))
        said.append(page.status_label.text())
    cancelled, finished, failed = said
    assert "50.0" in cancelled and "3" in cancelled, cancelled
    assert "81.3" in finished and "79.9" in finished and "82.7" in finished and "±" in finished, finished
    assert finished in page.monitor.log_view.toPlainText()
    assert "准确率" in cancelled and "准确率" in finished, said
    assert "0" in failed and "3" in failed, failed  # no seed scored: how far it got, without a metric to sum up
    for text in (cancelled, finished, failed):
        assert not _english_left(text), text


def test_a_new_projects_refused_label_names_are_said_in_chinese(qtbot, chinese, tmp_path):
    """New project… with the labels "pos, Pos" said "…/project.json, labels: label 'Pos' reads the same
    as 'pos' (they differ only by case…)" in English under the Chinese window's fields."""
    from bertstudio.ui.new_project_dialog import NewProjectDialog

    said = []
    for typed, names in (("pos, Pos", ("pos", "Pos")), ("pos, " + "x" * 300, ("x" * 40,))):
        dialog = NewProjectDialog(folder=str(tmp_path / f"p{len(said)}"))
        qtbot.addWidget(dialog)
        qtbot.keyClicks(dialog.name_edit, "reviews")
        dialog.labels_edit.setText(typed)
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
        said.append(dialog.error_label.text())
        assert dialog.project is None and said[-1], said
        assert not _english_left(said[-1], *names), said[-1]
    assert said[0].startswith("标签 Pos 与 pos 看起来相同"), said[0]


def test_the_label_error_checks_refusal_of_too_few_tagged_sentences_is_said_in_chinese(qtbot, chinese,
                                                                                       session_factory, tiny):
    """Find label errors on a tagging project with one tagged sentence said "检查无法运行：…, too few
    labelled sentences to cross-validate (expected at least two labelled sentences)" in English."""
    from bertstudio.ui.review_queue import ReviewQueue

    rows = [{"tokens": ["the", "film"], "tags": ["O", "ADJ"]}, {"tokens": ["a", "show"], "tags": None}]
    session = session_factory("tagging", ["O", "ADJ"], {"train": rows})
    queue = ReviewQueue(session, "train", model=tiny)
    qtbot.addWidget(queue)
    with qtbot.waitSignal(queue.finished, timeout=30_000):
        queue.start()  # refused before any model loads
    text = queue.summary.text()
    assert queue.report is None and text, text
    assert not _english_left(text), text


def test_a_projects_refusals_to_write_are_said_in_chinese(qtbot, chinese, session_factory, tmp_path, monkeypatch):
    """A read-only project's Start showed the core's English read-only sentence on the Train page, and
    "the project folder was moved or renamed" / "the runs folder is a file" reached the box in English."""
    import errno
    import os

    from bertstudio.data.project_store import disk_error
    from bertstudio.errors import DataError
    from bertstudio.ui.run_words import project_refusal
    from bertstudio.ui.training_page import TrainingPage

    session = session_factory("sentence", ["neg", "pos"])
    page = TrainingPage(session)
    qtbot.addWidget(page)
    session.project.read_only = True
    with pytest.raises(DataError) as read_only:
        session.project.new_run_dir("run")
    said = page.setting_refusal(read_only.value)
    assert said.startswith("只读") and not _english_left(said), said
    gone = tmp_path / "gone"
    moved = disk_error(OSError(errno.ENOENT, os.strerror(errno.ENOENT)), gone / "labels.journal", "x", folder=gone)
    assert project_refusal(moved).startswith("项目文件夹在打开期间被移动或重命名"), project_refusal(moved)
    session.project.read_only = False
    runs = session.project.runs_dir
    runs.rmdir() if runs.is_dir() else None
    runs.write_text("a file")
    with pytest.raises(DataError) as runs_file:
        session.project.new_run_dir("run")
    said = page.setting_refusal(runs_file.value)
    assert said.startswith(f"{runs} 是文件而不是文件夹") and "runs" not in said.replace(str(runs), ""), said


def test_impossible_head_method_and_mode_choices_are_said_in_chinese(qtbot, chinese, session_factory):
    """Combinations picked from the Train page's lists that TrainConfig refuses read "请先修正设置:method:
    SetFit learns from single sentences through the embedding head (expected task sentence with head
    embedding…)" and the like, in English and by key; said from the refusal's facts, naming the lists' items."""
    from helpers import sentiment_records

    from bertstudio.ui.training_page import TrainingPage

    page = TrainingPage(session_factory("sentence", ["neg", "pos"], {"train": sentiment_records(16, 0)}))
    qtbot.addWidget(page)
    form = page.form

    def picked(head: str, method: str, mode: str) -> str:
        for combo, key in ((form.head_combo, head), (form.method_combo, method), (form.mode_combo, mode)):
            combo.setCurrentIndex(combo.findData(key))
        page._refresh_state()
        assert not page.start_button.isEnabled()
        return page.status_label.text()

    said = [picked("linear", "setfit", "full"), picked("embedding", "finetune", "lora"),
            picked("siamese", "finetune", "full")]
    embedding = form.head_combo.itemText(form.head_combo.findData("embedding"))
    assert said[0].startswith("请先修正设置:SetFit 只训练输出头") and f"“{embedding}”" in said[0], said[0]
    assert said[1].startswith("请先修正设置:LoRA 无法训练输出头") and f"“{embedding}”" in said[1], said[1]
    assert said[2].startswith("请先修正设置:输出头“") and "读取文本对" in said[2], said[2]
    for text in said:
        assert not any(word in text for word in ("head", "method", "mode", "expected", "sentence")), text


def test_a_name_the_label_set_refuses_at_import_is_said_in_chinese(qtbot, chinese, session_factory, tmp_path):
    """A file label added as a new class whose name the label set refuses (a look-alike of a label,
    one too long) was said in the core's English in the Import dialog: the facts were dropped on the
    way, so the dialog could not say it as the label set dialog does."""
    from bertstudio.ui.import_dialog import ImportDialog

    said = []
    for i, name in enumerate(["\u200bpos", "x" * 300]):
        session = session_factory("sentence", ["neg", "pos"])
        path = tmp_path / f"new{i}.jsonl"
        path.write_text(f'{{"text": "hi", "label": "{name}"}}\n{{"text": "yo", "label": "neg"}}\n', encoding="utf-8")
        dialog = ImportDialog(session, None, str(path))
        qtbot.addWidget(dialog)
        dialog.start_import()
        assert dialog.label_box.isVisibleTo(dialog)
        dialog.label_box.choose_rest("new")
        dialog.start_import()
        said.append(dialog.error_label.text())
        assert session.labels() == ["neg", "pos"] and session.split_size("train") == 0
    assert said[0].startswith("标签 ") and "看起来相同" in said[0], said[0]
    assert said[1].startswith("标签名 ") and "200" in said[1], said[1]
    assert not any("label" in text for text in said), said


def test_the_label_checks_and_the_conll_exports_refusals_are_said_in_chinese(qtbot, chinese, session_factory, tmp_path):
    """Two core refusals without facts reached the Chinese window in English: the label check's "the model's
    probabilities are not numbers (NaN or infinite) for 12 items: its training diverged" (Review queue) and
    the CoNLL writer's "tag 1 is 'I-PER', which opens an entity (IOB1)…" (Export dialog)."""
    from bertstudio.ui.export_dialog import ExportDialog
    from bertstudio.ui.review_queue import ReviewQueue

    session = session_factory("tagging", ["O", "B-PER", "I-PER"],
                              {"train": [{"tokens": ["a", "b"], "tags": ["O", "O"]},
                                         {"tokens": ["John", "Smith", "in"], "tags": ["I-PER", "I-PER", "O"]}]})
    queue = ReviewQueue(session, "train")
    qtbot.addWidget(queue)

    class Failed:  # the worker's failure as the finder raised it (assist/label_errors._refuse_non_finite)
        failure_facts = {"refusal": "non_finite_probs", "items": 1234}

    queue._worker = Failed()
    queue._on_failed("the model's probabilities are not numbers (NaN or infinite) for 1,234 items")
    said = queue.summary.text()
    assert "1,234 项" in said and "发散" in said and "probabilities" not in said, said

    dialog = ExportDialog(session, None, "train")
    qtbot.addWidget(dialog)
    target = tmp_path / "ner.conll"
    dialog.path_edit.setText(str(target))
    assert not dialog.export() and not target.exists()
    shown = dialog.error_label.text()
    assert shown.startswith("第 2 句，第 1 个标签：“I-PER” 开始一个实体（IOB1）") and "“B-PER”" in shown, shown
    assert "opens" not in shown and "CoNLL-U" in shown


def test_the_edits_a_reopen_could_not_apply_are_listed_in_chinese(qtbot, chinese, tmp_path):
    """After the changed-outside refusal and its reopen, the recovery box and its status line read
    "打开时已修复项目:labels.journal.unapplied-…: 2 edits were not applied (the project was changed outside
    bertstudio …); kept in that file: … edit 11 not applied: train row 0: 'neg'": the core's English
    strings, only the first words translated."""
    from bertstudio.data.journal import encode_entry
    from bertstudio.data.project_outside import MESSAGES_SHOWN, list_kept_journals, unapplied_messages
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.run_words import recovery_text
    from bertstudio.ui.session import ProjectSession
    from helpers import make_project

    folder = tmp_path / "proj"
    make_project(folder, "sentence", ["neg", "pos"], {"train": [{"text": f"row {i}", "label": None}
                                                                   for i in range(4)]}).close()
    edits = [{"op": "gold", "split": "train", "row": 0, "value": "neg"},
             {"op": "gold", "split": "train", "row": 1, "value": None},
             {"op": "add_label", "name": "odd", "color": "#123456"},
             {"op": "rename_label", "old": "odd", "new": "even"},
             {"op": "set_color", "name": "even", "color": "#654321"},
             {"op": "remove_label", "name": "even"}]
    (folder / "labels.journal.kept-20260101T000000Z").write_bytes(
        b"".join(encode_entry({"seq": 10 + i, **e}) for i, e in enumerate(edits)))
    window = MainWindow(ProjectSession(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    assert window.open_project(str(folder))
    lines = window.recovery_box.informativeText().splitlines()
    unapplied = next(folder.glob("labels.journal.unapplied-*")).name
    assert lines[0].startswith(f"{unapplied}：6 项编辑未应用（进行这些编辑时，项目在 bertstudio 之外被更改"), lines[0]
    assert lines[1:3] == [f"{unapplied}：编辑 10 未应用：训练集第 0 行：'neg'", f"{unapplied}：编辑 11 未应用：训练集第 1 行：已清除"]
    status = window.statusBar().currentMessage()
    assert status == "打开时已修复项目:" + lines[0]
    names = (unapplied, "bertstudio", "neg", "odd", "even", "#654321")  # the file and what the user named
    assert all(not _english_left(line, *names) for line in lines), lines
    window.recovery_box.close()
    window.close()

    # the other reasons and the caps: a journal of another project.json's, a long list, many kept files
    said = [recovery_text(m) for m in unapplied_messages("j", [{"seq": i, **edits[0]} for i in range(25)],
                                                          "other_version")]
    assert said[0].startswith("j：25 项编辑未应用（它们是在另一个版本的 project.json 上进行的") and said[-1] == "j：另有 5 项编辑未应用"
    many = tmp_path / "many"
    many.mkdir()
    for i in range(MESSAGES_SHOWN // 2 + 2):
        (many / f"labels.journal.kept-{i:03d}").write_bytes(encode_entry({"seq": 1, **edits[0]}))
    (many / "labels.journal.kept-000-folder").mkdir()  # not a file: not read
    said = [recovery_text(m) for m in list_kept_journals(many, read_only=True)]
    assert said[0].startswith("labels.journal.kept-000：1 项编辑未应用") and said[2].startswith(
        "labels.journal.kept-000-folder：未能读取（")
    assert said[-1] == "另有 2 个保留的编辑日志未在此列出；其中的编辑同样未应用（保存为 labels.journal.kept-*）", said[-1]


def test_a_kept_journals_long_or_odd_facts_are_said_on_bounded_lines_in_chinese(chinese):
    """A kept journal (any file with valid checksums) holding a 2 MB row, a 1 MB label, a 500 KB
    colour and an op with a line break filled the recovery box with 3.5 MB and froze the window 47 s
    (sweep_today51 defect 2): each fact is clipped and its controls shown, as the core's line is."""
    from bertstudio.data.project_outside import unapplied_messages
    from bertstudio.errors import FACT_CHARS
    from bertstudio.ui.run_words import recovery_text

    edits = [{"seq": 1, "op": "gold", "split": "train", "row": "R" * 2_000_000, "value": "v"},
             {"seq": 2, "op": "rename_label", "old": "x" * 1_000_000, "new": [1, 2]},
             {"seq": 3, "op": "set_color", "name": "n", "color": {"c": "y" * 500_000}},
             {"seq": 4, "op": "set_color", "name": "n", "color": "#12\n34"},
             {"seq": 5, "op": "line\nbreak\u2028op", "name": "n"},
             {"seq": 6, "op": "gold", "split": "x\x07" * 100, "row": 0, "value": None}]
    said = [recovery_text(m) for m in unapplied_messages("j", edits, "other_version")][1:]
    assert len(said) == len(edits)
    for line in said:
        assert len(line) < 40 + 3 * FACT_CHARS and line.isprintable(), repr(line)
    assert said[0] == "j：编辑 1 未应用：训练集第 " + "R" * (FACT_CHARS - 1) + "… 行：'v'", said[0]
    assert said[3].endswith("#12\\n34") and said[4].endswith("line\\nbreak\\u2028op"), said[3:5]


def test_a_project_open_in_another_window_is_said_in_chinese(qtbot, chinese, tmp_path):
    """The "already open" box showed the core's English ("…already open read-only in another bertstudio
    window (expected close it there first, …)", "…already open (pid 14601)") in the Chinese window
    (sweep_newcomer3 items 4 and 8): it is one sentence in the user's words, the pid under details."""
    import os

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from bertstudio.data.project import Project
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    folder = tmp_path / "p"
    Project.create(folder, name="reviews", kind="sentence", labels=["neg", "pos"]).close()
    window = MainWindow(ProjectSession(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    asked: list[str] = []
    window.confirm_open_read_only = lambda message: asked.append(message) or False
    with Project.open(folder, read_only=True):  # another window's read-only view
        assert not window.open_project(str(folder))
    assert asked == ["该项目已在另一个 bertstudio 窗口中以只读方式打开。"]
    boxes: list[tuple[str, str, str]] = []

    def close_box() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            boxes.append((box.windowTitle(), box.text(), box.detailedText()))
            box.button(QMessageBox.StandardButton.Ok).click()

    timer = QTimer(interval=20, timeout=close_box)
    timer.start()
    try:
        with Project.open(folder):  # a writer elsewhere: refused, nothing offered
            assert not window.open_project(str(folder))
    finally:
        timer.stop()
    title, text, details = boxes[0]
    assert title == "无法打开项目" and text.startswith("该项目已在另一个 bertstudio 窗口中打开")
    assert not _english_left(text, "bertstudio") and str(os.getpid()) not in text, text
    assert f"另一个 bertstudio 的进程号：{os.getpid()}" in details and str(folder) in details
    window.close()


def test_the_shortcuts_list_names_actions_without_their_chinese_mnemonics(qtbot, tmp_path, chinese):
    """The zh_CN shortcuts list read "新建项目(N)" and "打开项目(O)": the list dropped only the "&" of
    "新建项目(&N)…", where the toolbar already said "新建项目"."""
    from bertstudio.data.project import Project
    from bertstudio.ui.main_window import MainWindow
    from bertstudio.ui.session import ProjectSession

    project = Project.create(tmp_path / "p", name="p", kind="sentence", labels=["neg", "pos"])
    session = ProjectSession(project, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window = MainWindow(session)
    qtbot.addWidget(window)
    assert window.new_action.text() == "新建项目(&N)…"  # the translation this is about
    named = [what for _keys, what in window.action_keys()]
    assert "新建项目" in named and "打开项目" in named and "退出" in named
    assert not [what for what in named if re.search(r"\([A-Z0-9]\)", what)], named
    window.close()
    session.close()
