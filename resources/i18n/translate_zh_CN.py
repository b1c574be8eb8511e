"""Fill resources/i18n/bertstudio_zh_CN.ts with the Simplified Chinese translations below.

Workflow when UI strings change:
    pyside6-lupdate $(git ls-files 'bertstudio/ui/*.py' 'bertstudio/ui/**/*.py') \
        -ts resources/i18n/bertstudio_zh_CN.ts -target-language zh_CN -no-obsolete
    python resources/i18n/translate_zh_CN.py        # fills what this table knows
    pyside6-lrelease resources/i18n/bertstudio_zh_CN.ts -qm resources/i18n/bertstudio_zh_CN.qm
Strings not in the table stay "unfinished" and show in English.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

TS = Path(__file__).with_name("bertstudio_zh_CN.ts")

# source text -> translation (the same in every context)
ZH: dict[str, str] = {
    # main window: pages, menus, actions
    "Data": "数据", "Label": "标注", "Train": "训练", "Results": "结果", "Playground": "试用", "Runs": "运行记录",
    "GLUE scoreboard": "GLUE 计分板",
    "&New project…": "新建项目(&N)…", "&Open project…": "打开项目(&O)…", "&Save": "保存(&S)",
    "&Import data…": "导入数据(&I)…", "&Export data…": "导出数据(&E)…", "Export &run…": "导出运行(&R)…",
    "&Close project": "关闭项目(&C)", "&Quit": "退出(&Q)", "&Undo": "撤销(&U)", "&Redo": "重做(&R)",
    "&Add examples…": "添加样例(&A)…", "&Label set…": "标签集(&L)…", "&Keyboard shortcuts": "键盘快捷键(&K)",
    "Open &recent": "最近的项目(&R)", "&File": "文件(&F)", "&Edit": "编辑(&E)", "&View": "视图(&V)", "&Help": "帮助(&H)",
    "Main": "主工具栏", "(none)": "(无)", "Open project": "打开项目", "Cannot open the project": "无法打开项目",
    "Project recovered": "项目已恢复", "Opening the project repaired it:": "打开项目时已修复:",
    "Project repaired on open: %1": "打开时已修复项目:%1", "Saved": "已保存",
    "Imported %1 rows into %2": "已导入 %1 行到 %2", "Run exported to %1": "运行已导出到 %1",
    "No project": "没有项目", "Create or open a project first.": "请先新建或打开一个项目。",
    "No project open": "未打开项目", "Project: %1 (%2)": "项目:%1(%2)", "Split: %1": "数据划分:%1",
    "%1 labelled / %2": "已标注 %1 / %2", "Training is running": "正在训练",
    "A training run is in progress. Stop it and quit?": "训练正在进行。停止训练并退出吗?",
    "Keyboard shortcuts": "键盘快捷键",
    # data page
    "Search the text (Enter)": "搜索文本(回车)", "Search": "搜索", "Add examples…": "添加样例…",
    "Type new examples into this split, then label them": "在此数据划分中输入新样例,然后标注",
    "Split:": "数据划分:", "Show:": "显示:", "<b>Label distribution</b>": "<b>标签分布</b>", "All rows": "全部行",
    "Unlabelled": "未标注", "Label = %1": "标签 = %1", "Disagrees with the latest run": "与最近一次运行的预测不一致",
    "%1 of %2 rows": "%2 行中的 %1 行", "no run with predictions yet": "还没有带预测的运行",
    # add examples
    "Add examples": "添加样例", "Sentence": "句子", "Text A (premise)": "文本 A(前提)",
    "Text B (hypothesis)": "文本 B(假设)", "Sentence (words are split at spaces)": "句子(按空格切分为词)",
    "Context": "上下文", "Question": "问题", "Into split": "加入数据划分", "Add": "添加",
    "Store this example (unlabelled) and clear the form for the next one": "保存此样例(未标注)并清空表单以输入下一个",
    "Not added: {m}": "未添加:{m}",
    "Added to {s} as row {r} ({n} this time). Label it on the Label page.": "已添加到 {s},第 {r} 行(本次共 {n} 个)。请在“标注”页标注。",
    # import / export
    "Import data": "导入数据", "Export data": "导出数据", "Browse…": "浏览…", "detect": "自动识别", "none": "无",
    "Append to the rows already in this split": "追加到此数据划分已有的行之后", "File:": "文件:", "Format:": "格式:",
    "GLUE preset:": "GLUE 预设:", "Into split:": "加入数据划分:",
    "Columns (what each column of the file holds)": "列(文件每一列的内容)", "Text": "文本", "Second text": "第二段文本",
    "Label / score": "标签 / 分数", "Tokens": "词元", "Tags": "标记", "Answers": "答案", "Import": "导入",
    "First rows:": "前几行:", "— choose —": "— 请选择 —", "Columns (set by the format or preset)": "列(由格式或预设决定)",
    "Choose the file column for: %1": "请选择对应的文件列:%1", "Reading the file…": "正在读取文件…",
    "Format: %1 · this file looks like %2 data": "格式:%1 · 此文件看起来是 %2 数据",
    "This file holds %1 examples but the project is a %2 project.": "此文件包含 %1 样例,但项目是 %2 项目。",
    "Export": "导出", "Choose a file to write.": "请选择要写入的文件。", "from the file name": "根据文件名",
    # new project
    "Single sentence classification": "单句分类", "Sentence pair classification": "句对分类",
    "Sentence pair regression (score)": "句对回归(打分)", "Token tagging (entities, POS)": "词元标注(实体、词性)",
    "Extractive question answering": "抽取式问答", "New project": "新建项目", "Create": "创建", "Name:": "名称:",
    "Folder:": "文件夹:", "From a GLUE preset:": "使用 GLUE 预设:", "Task:": "任务:", "Labels:": "标签:",
    "e.g. negative, positive": "例如 negative, positive", "Folder for the new project": "新项目的文件夹",
    "Give the project a name and a folder.": "请为项目指定名称和文件夹。",
    # label page and editors
    "Label set…": "标签集…", "no examples": "没有样例", "example %1 of %2": "第 %1 个样例,共 %2 个",
    "Every example of this split is labelled.": "此数据划分中的样例已全部标注。", "Label set": "标签集",
    "Add…": "添加…", "Rename…": "重命名…", "Colour…": "颜色…", "Remove": "删除", "Add label": "添加标签",
    "Name of the new label:": "新标签的名称:", "Rename label": "重命名标签", "New name:": "新名称:",
    "(not labelled)": "(未标注)", "(no example)": "(无样例)", "Move to the next example after labelling": "标注后转到下一个样例",
    "Premise / first text": "前提 / 第一段文本", "Hypothesis / second text": "假设 / 第二段文本",
    "(not scored)": "(未打分)", "Add question": "添加问题", "No answer in this context (SQuAD v2)": "此上下文中没有答案(SQuAD v2)",
    "Use selection as answer (Enter)": "将选中文本作为答案(回车)", "Questions about this context": "关于此上下文的问题",
    "Answer: none": "答案:无",
    # training page
    "Bundled all-MiniLM-L6-v2 (default)": "内置 all-MiniLM-L6-v2(默认)", "Folder…": "文件夹…",
    "Linear on [CLS] (BERT paper)": "[CLS] 上的线性层(BERT 论文)", "MLP (hidden layer + output)": "MLP(隐藏层 + 输出层)",
    "Full fine-tuning": "全量微调", "Frozen encoder (features)": "冻结编码器(特征提取)", "Top N layers": "顶部 N 层",
    "LoRA": "LoRA", "Custom": "自定义", "Model": "模型", "Head": "输出头", "What learns": "训练哪些部分", "Preset": "预设",
    "Batch size": "批大小", "Learning rate": "学习率", "Epochs": "轮数", "Warm-up ratio": "预热比例", "Max length": "最大长度",
    "Seed": "随机种子", "Device": "设备", "Precision": "精度", "Trainable": "可训练参数", "Settings": "设置",
    "Start training": "开始训练", "Cancel": "取消", "Export run…": "导出运行…", "Choose a model folder": "选择模型文件夹",
    "counted when the model loads": "加载模型时统计", "Training settings": "训练设置",
    "Open or create a project to train.": "请打开或新建项目以开始训练。",
    "Import or label training examples first.": "请先导入或标注训练样例。",
    "Training… the window stays usable; Cancel stops after the current step.": "训练中……窗口仍可使用;“取消”会在当前步结束后停止。",
    "Export run to folder": "导出运行到文件夹", "Exporting the run to {d}…": "正在导出运行到 {d}…",
    "Run exported to {d}. Start it there with: bertstudio train --config run.toml": "运行已导出到 {d}。在那里用以下命令启动:bertstudio train --config run.toml", "Export failed: {m}": "导出失败:{m}",
    "Cancelling after the current step…": "将在当前步结束后取消…", "Run finished.": "运行完成。",
    "Run cancelled; the model saved so far is usable.": "运行已取消;已保存的模型可以使用。",
    "Training could not run: {m}": "无法训练:{m}", "Run folder: {d}": "运行文件夹:{d}",
    # plots and monitor
    "step": "步", "Training loss": "训练损失", "loss": "损失", "loss (smoothed)": "损失(平滑)", "lr": "学习率",
    "learning rate": "学习率", "Evaluation": "评估", "score (x100)": "分数(×100)", "idle": "空闲",
    "finished": "已完成", "cancelled": "已取消", "failed": "失败", "running": "运行中", "unknown": "未知",
    # results, playground, runs, scoreboard
    "Metric": "指标", "Score (x100)": "分数(×100)", "Errors only": "只看错误", "Set as gold": "设为标准答案",
    "Use prediction as gold": "采用预测作为标准答案", "Run": "运行", "official metric of this task": "此任务的官方指标",
    "Gold:": "标准答案:", "Predicted:": "预测:", "gold": "标准答案", "predicted": "预测",
    "Gold": "标准答案", "Predicted": "预测", "Confidence": "置信度", "Loss": "损失",
    "Predict": "预测", "Model of run": "所用运行的模型", "First sentence": "第一句", "Second sentence": "第二句",
    "Input": "输入", "Predicting…": "预测中…", "Could not predict: {m}": "无法预测:{m}",
    "Status": "状态", "Task": "任务", "Mode": "模式", "LR": "学习率", "Batch": "批大小", "Main score": "主要分数",
    "Started": "开始时间", "bundled MiniLM": "内置 MiniLM", "Refresh": "刷新", "Open run folder…": "打开运行文件夹…",
    "Follow selected run live": "实时跟踪所选运行", "GLUE leaderboard": "GLUE 排行榜", "Score": "分数", "Metrics": "指标",
    "Best run": "最佳运行", "Convention": "计分规则", "missing": "缺失", "no run yet": "尚无运行", "Average": "平均",
    # help panel
    "previous / next example": "上一个 / 下一个样例", "skip to the next unlabelled example": "跳到下一个未标注的样例",
    "undo / redo the last edit": "撤销 / 重做上一次编辑", "apply the label with that number (see the legend)": "应用对应编号的标签(见图例)",
    "clear the label": "清除标签", "Keyboard": "键盘", "undo / redo": "撤销 / 重做",
}


def main() -> None:
    tree = ET.parse(TS)
    done = 0
    for message in tree.getroot().iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        if source in ZH and translation is not None:
            translation.text = ZH[source]
            translation.attrib.pop("type", None)
            done += 1
    ET.indent(tree)
    tree.write(TS, encoding="utf-8", xml_declaration=True)
    total = sum(1 for _ in tree.getroot().iter("message"))
    print(f"{TS.name}: {done} of {total} messages translated")


if __name__ == "__main__":
    main()
