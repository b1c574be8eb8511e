<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <location filename="../../bertstudio/ui/import_target.py" line="117"/>
        <location filename="../../bertstudio/ui/import_target.py" line="122"/>
        <source>Restore replaced rows</source>
        <translation>恢复被替换的行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_target.py" line="117"/>
        <source>No import has replaced rows in this project.</source>
        <translation>此项目中还没有导入替换过任何行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_target.py" line="120"/>
        <source>%1: %2 rows, %3 labelled (replaced %4)</source>
        <translation>%1:%2 行，已标注 %3 行(替换于 %4)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_target.py" line="123"/>
        <source>Rows to bring back (the current rows are kept as a backup):</source>
        <translation>要恢复的行(当前的行会保留为备份):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="39"/>
        <source>&amp;New project…</source>
        <translation>新建项目(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="40"/>
        <source>&amp;Open project…</source>
        <translation>打开项目(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="41"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="42"/>
        <source>&amp;Import data…</source>
        <translation>导入数据(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="43"/>
        <source>&amp;Export data…</source>
        <translation>导出数据(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="46"/>
        <source>Push to Hugging Face &amp;Hub…</source>
        <translation>推送到 Hugging Face Hub(&amp;H)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="44"/>
        <source>Export r&amp;un…</source>
        <translation>导出运行(&amp;U)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="45"/>
        <source>Export &amp;model as ONNX…</source>
        <translation>将模型导出为 ONNX(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="47"/>
        <source>Restore replaced ro&amp;ws…</source>
        <translation>恢复被替换的行(&amp;W)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="48"/>
        <source>&amp;Close project</source>
        <translation>关闭项目(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="49"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="52"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="55"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="58"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="59"/>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="60"/>
        <source>&amp;Add examples…</source>
        <translation>添加样例(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="61"/>
        <source>&amp;Label set…</source>
        <translation>标签集(&amp;L)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="62"/>
        <source>&amp;Learning curve…</source>
        <translation>学习曲线(&amp;L)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="63"/>
        <source>Labelling &amp;assistant</source>
        <translation>标注助手(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="68"/>
        <source>&amp;Train assistant now</source>
        <translation>立即训练助手(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="72"/>
        <source>&amp;Data map of the shown run…</source>
        <translation>当前运行的数据地图(&amp;D)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="73"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="74"/>
        <source>&amp;About bertstudio</source>
        <translation>关于 bertstudio(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="76"/>
        <source>Open &amp;recent</source>
        <translation>最近的项目(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="79"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="88"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="93"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="100"/>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="106"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="110"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="144"/>
        <source>Turned off for every project by BERTSTUDIO_ASSIST=0 in the environment</source>
        <translation>环境变量 BERTSTUDIO_ASSIST=0 已为所有项目关闭</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="146"/>
        <source>Suggested labels, a model refitted as you label and background training, for this project (kept with it). Off: no model runs; your labels are not touched.</source>
        <translation>为本项目提供建议标签、随标注重新拟合的模型和后台训练（设置随项目保存）。关闭后不运行任何模型；你的标签不受影响。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="155"/>
        <source>(none)</source>
        <translation>(无)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="188"/>
        <source>No project</source>
        <translation>没有项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="188"/>
        <source>Create or open a project first.</source>
        <translation>请先新建或打开一个项目。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="216"/>
        <source>No run shown</source>
        <translation>未显示任何运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="216"/>
        <source>Show a run on the Results page first.</source>
        <translation>请先在“结果”页面显示一个运行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="221"/>
        <location filename="../../bertstudio/ui/actions.py" line="224"/>
        <location filename="../../bertstudio/ui/actions.py" line="228"/>
        <source>No data map</source>
        <translation>没有数据地图</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="221"/>
        <source>The run&apos;s data map cannot be read: %1</source>
        <translation>无法读取此运行的数据地图：%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="224"/>
        <source>A data map plots each row&apos;s probability of its gold class: it is drawn for sentence and pair classification runs, and this run predicts no class.</source>
        <translation>数据地图画出每一行对其标准答案类别的概率：只有句子分类和句对分类的运行才有，这个运行不预测类别。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="228"/>
        <source>This run recorded no data map. Train with the cartography setting on (--cartography) to get one.</source>
        <translation>此运行没有记录数据地图。请打开数据地图设置(--cartography)后再训练。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/example_html.py" line="112"/>
        <source>each word with its tag; red = predicted wrong, shown as predicted / gold</source>
        <translation>每个词及其标记；红色 = 预测错误，显示为 预测 / 标准答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/example_html.py" line="113"/>
        <source>Gold:</source>
        <translation>标准答案:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/example_html.py" line="113"/>
        <source>Predicted:</source>
        <translation>预测:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/example_html.py" line="115"/>
        <location filename="../../bertstudio/ui/example_html.py" line="126"/>
        <source>green = gold, orange = predicted</source>
        <translation>绿色 = 标准答案，橙色 = 预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/example_html.py" line="124"/>
        <source>Question:</source>
        <translation>问题:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="59"/>
        <source>No model</source>
        <translation>没有模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="60"/>
        <source>Choose a finished run on the Runs or Results page first.</source>
        <translation>请先在“运行记录”或“结果”页选择一个已完成的运行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="83"/>
        <source>Export the model of run {run} as ONNX into folder</source>
        <translation>把运行 {run} 的模型导出为 ONNX,存入文件夹</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="89"/>
        <source>Exporting {run} to ONNX…</source>
        <translation>正在将 {run} 导出为 ONNX…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="399"/>
        <source>Push to {repo} cancelled: the repository was created and is empty</source>
        <translation>推送到 {repo} 已取消：仓库已创建，但为空</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="403"/>
        <source>Pushed to {url}</source>
        <translation>已推送到 {url}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="404"/>
        <source>Not pushed: {m}</source>
        <translation>未推送:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="400"/>
        <source>Push to {repo} cancelled</source>
        <translation>已取消推送到 {repo}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="55"/>
        <source>Labelling assistant off</source>
        <translation>标注助手已关闭</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="55"/>
        <source>Labelling assistant starting…</source>
        <translation>标注助手正在启动…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="58"/>
        <source>No audit: the labelling assistant has no model for this kind of project</source>
        <translation>无核查：标注助手没有适用于这类项目的模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="60"/>
        <source>Audit: no model yet</source>
        <translation>核查:尚无模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="61"/>
        <source>No audit labels yet: every 10th example is a random check</source>
        <translation>尚无核查标签:每 10 个样例中有一个是随机核查</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="64"/>
        <source>%1 audit labels</source>
        <translation>%1 个核查标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="64"/>
        <source>1 audit label</source>
        <translation>1 个核查标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="66"/>
        <source>1 audit label so far: too few for an accuracy</source>
        <translation>目前只有 1 个核查标签：太少，无法给出准确率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="67"/>
        <source>%1 audit labels so far: too few for an accuracy</source>
        <translation>目前只有 %1 个核查标签：太少，无法给出准确率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="69"/>
        <source>Audit accuracy %1 (%2-%3) on %5 words, 1 audit sentence</source>
        <translation>核查准确率 %1(%2-%3)，共 %5 个词，1 个核查句子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="70"/>
        <source>Audit accuracy %1 (%2-%3) on %5 words, %4 audit sentences</source>
        <translation>核查准确率 %1(%2-%3)，共 %5 个词，%4 个核查句子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="72"/>
        <source>Audit accuracy %1 (%2-%3), %4 audit labels</source>
        <translation>核查准确率 %1(%2-%3)，%4 个核查标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="72"/>
        <source>Audit accuracy %1 (%2-%3), 1 audit label</source>
        <translation>核查准确率 %1(%2-%3)，1 个核查标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/theme.py" line="185"/>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/theme.py" line="191"/>
        <source>&amp;System</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/theme.py" line="191"/>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/theme.py" line="191"/>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_checks.py" line="41"/>
        <source>Open or create a project to train.</source>
        <translation>请打开或新建项目以开始训练。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_checks.py" line="43"/>
        <source>Import or label training examples first.</source>
        <translation>请先导入或标注训练样例。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_checks.py" line="50"/>
        <source>Label at least {k} training examples first ({n} labelled so far).</source>
        <translation>请先标注至少 {k} 个训练样例(目前已标注 {n} 个)。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_checks.py" line="54"/>
        <source>Add a second label: a classifier needs at least {k} classes (this project has {n}).</source>
        <translation>请再添加一个标签：分类器至少需要 {k} 个类别（此项目有 {n} 个）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_checks.py" line="60"/>
        <source>Label at least {k} training examples of each label first; too few so far: {which}.</source>
        <translation>请先为每个标签标注至少 {k} 个训练样例；目前不足的标签:{which}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_checks.py" line="72"/>
        <source>Label at least {k} training examples, or some dev examples, first: with no dev split a run evaluates on training examples it holds out ({n} labelled so far).</source>
        <translation>请先标注至少 {k} 个训练样本，或添加一些开发集样本：没有开发集时，训练会留出部分训练样本用于评估（目前已标注 {n} 个）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="204"/>
        <source>row {n}</source>
        <translation>第 {n} 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="205"/>
        <source>evaluation</source>
        <translation>评估集</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="205"/>
        <source>held-out</source>
        <translation>留出集</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="206"/>
        <source>{split} row {n}</source>
        <translation>{split}第 {n} 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="67"/>
        <source>A label needs a name: this one is empty.</source>
        <translation>标签需要名称：此名称为空。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="69"/>
        <source>A label named {new} already exists: a rename cannot merge two labels. To merge them, give the rows of {old} the label {new}, then remove {old}.</source>
        <translation>已存在名为 {new} 的标签：重命名不能合并两个标签。若要合并，请先把 {old} 的行标为 {new}，再删除 {old}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="72"/>
        <source>A label named {new} already exists: give the new label another name.</source>
        <translation>已存在名为 {new} 的标签：请给新标签另取一个名称。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="56"/>
        <location filename="../../bertstudio/ui/run_words.py" line="214"/>
        <location filename="../../bertstudio/ui/run_words.py" line="236"/>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="56"/>
        <source>{n} in {split}</source>
        <translation>{split}中 {n} 处</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="75"/>
        <source>Label {name} is still used ({where}): relabel or clear those rows first, or rename the label.</source>
        <translation>标签 {name} 仍在使用（{where}）：请先重新标注或清除这些行，或者重命名该标签。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="78"/>
        <source>Label {name} reads the same as {other}: they differ only by case, spaces, Unicode form or invisible characters. Give it a name that says something else.</source>
        <translation>标签 {name} 与 {other} 看起来相同：两者只在大小写、空格、统一码形式或不可见字符上不同。请换一个含义不同的名称。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="82"/>
        <source>Label name {name} starts or ends with a space: did you mean {stripped}?</source>
        <translation>标签名 {name} 的开头或结尾有空格：是否想用 {stripped}？</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="85"/>
        <source>Label name {name}… is {length:,} characters long: a label name has at most {limit} characters.</source>
        <translation>标签名 {name}… 长 {length:,} 个字符：标签名最多 {limit} 个字符。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="88"/>
        <source>Label name {name} holds a control or text-direction character (a line break, a tab): type it again without it.</source>
        <translation>标签名 {name} 含有控制字符或文字方向字符（如换行符、制表符）：请去掉后重新输入。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="91"/>
        <source>Label {name} is in a partly tagged sentence: finish that sentence or untag its words first.</source>
        <translation>标签 {name} 出现在一个尚未标注完的句子中：请先标注完该句，或清除其中词语的标签。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="78"/>
        <source>%1 is being pushed to the Hugging Face Hub: wait for the push or cancel it.</source>
        <translation>%1 正在推送到 Hugging Face Hub：请等推送完成或取消它。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="79"/>
        <source>%1 is being exported: wait for the export or cancel it.</source>
        <translation>%1 正在导出：请等导出完成或取消它。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="140"/>
        <source>Put back 1 run: %1</source>
        <translation>已放回 1 个运行：%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="140"/>
        <source>Put back {n} runs: %1</source>
        <translation>已放回 {n} 个运行：%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="148"/>
        <source>Could not undo %1</source>
        <translation>无法撤销“%1”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="178"/>
        <source>Could not redo %1</source>
        <translation>无法重做“%1”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="191"/>
        <source>%1 is training now: stop it on the Train page (or in its terminal) before deleting it.</source>
        <translation>%1 正在训练：请先在训练页（或它的终端里）停止它，再删除。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="194"/>
        <source>%1 was not put back: a folder of that name exists now. The deleted run stays at %2.</source>
        <translation>%1 未能放回：现在已有同名文件夹。已删除的运行仍在 %2。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="198"/>
        <source>%1 was not put back: it is no longer at %2. If it was moved elsewhere, move it back to %3 yourself.</source>
        <translation>%1 未能放回：它已不在 %2。如果它被移到了别处，请自己把它移回 %3。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="201"/>
        <source>%1 was not deleted: it is a link to a folder elsewhere, which Delete run never follows. Remove the link itself in a file manager.</source>
        <translation>%1 未删除：它是指向别处文件夹的链接，删除运行从不跟随链接。请在文件管理器中删除该链接本身。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="204"/>
        <source>%1 was not deleted: its folder is gone.</source>
        <translation>%1 未删除：它的文件夹已不存在。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="207"/>
        <source>%1 was not put back: %2. The deleted run stays at %3; Edit &gt; Undo tries again, or move that folder back to %4 yourself.</source>
        <translation>%1 未能放回：%2。删除的运行仍在 %3；编辑 &gt; 撤销可再试一次，也可以自己把该文件夹移回 %4。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="212"/>
        <source>%1 was not deleted: the project&apos;s trash %2 is a file, not a folder. Rename or move that file, then delete again.</source>
        <translation>%1 未删除：项目的回收站 %2 是一个文件，而不是文件夹。请重命名或移走该文件，然后再删除。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="215"/>
        <source>%1 was not deleted: the project&apos;s trash folder %2 is a link. Make it a plain folder, then delete again.</source>
        <translation>%1 未删除：项目的回收站文件夹 %2 是一个链接。请将其改为普通文件夹，然后再删除。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="218"/>
        <source>%1 was not deleted: the project&apos;s trash folder %2 cannot be made (%3).</source>
        <translation>%1 未删除：无法创建项目的回收站文件夹 %2（%3）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="221"/>
        <source>%1 was not deleted: the project&apos;s trash folder %2 cannot be written (%3).</source>
        <translation>%1 未删除：项目的回收站文件夹 %2 无法写入（%3）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="225"/>
        <source>%1 was not put back: %2.</source>
        <translation>%1 未能放回：%2。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="225"/>
        <source>%1 was not deleted: %2.</source>
        <translation>%1 未删除：%2。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="241"/>
        <source>%1 is training now: stop it on the Train page before deleting it.</source>
        <translation>%1 正在训练：请先在训练页停止它，再删除。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="308"/>
        <source>Moved 1 run to the trash.</source>
        <translation>已将 1 个运行移到回收站。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="308"/>
        <source>Moved {n} runs to the trash.</source>
        <translation>已将 {n} 个运行移到回收站。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="311"/>
        <source>Moved 1 run to the project&apos;s trash folder %1 (this system has no trash).</source>
        <translation>已将 1 个运行移到项目的回收文件夹 %1（本系统没有回收站）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="312"/>
        <source>Moved {n} runs to the project&apos;s trash folder %1 (this system has no trash).</source>
        <translation>已将 {n} 个运行移到项目的回收文件夹 %1（本系统没有回收站）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="315"/>
        <source>Removed 1 run opened from elsewhere from the list; its folder stays on disk.</source>
        <translation>已从列表中移除 1 个从别处打开的运行；它的文件夹仍留在磁盘上。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="316"/>
        <source>Removed {n} runs opened from elsewhere from the list; their folders stay on disk.</source>
        <translation>已从列表中移除 {n} 个从别处打开的运行；它们的文件夹仍留在磁盘上。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="317"/>
        <source>Edit &gt; Undo puts it back.</source>
        <translation>编辑 &gt; 撤销可将其放回。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="329"/>
        <source> and 1 more</source>
        <translation> 等另外 1 个</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="330"/>
        <source> and {n} more</source>
        <translation> 等另外 {n} 个</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="331"/>
        <source>Delete 1 run: %1?</source>
        <translation>删除 1 个运行：%1？</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="331"/>
        <source>Delete {n} runs: %1?</source>
        <translation>删除 {n} 个运行：%1？</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="337"/>
        <source>1 run folder (%1 files, %2 MB) goes to the trash.</source>
        <translation>1 个运行文件夹（%1 个文件，%2 MB）将移到回收站。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="338"/>
        <source>{n} run folders (%1 files, %2 MB) go to the trash.</source>
        <translation>{n} 个运行文件夹（%1 个文件，%2 MB）将移到回收站。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="341"/>
        <source>1 run opened from elsewhere only leaves this list; its folder is not deleted.</source>
        <translation>1 个从别处打开的运行只会从此列表中移除；它的文件夹不会被删除。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="342"/>
        <source>{n} runs opened from elsewhere only leave this list; their folders are not deleted.</source>
        <translation>{n} 个从别处打开的运行只会从此列表中移除；它们的文件夹不会被删除。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="344"/>
        <source>1 run is a link to a folder elsewhere: Delete run refuses it, and its folder is not touched.</source>
        <translation>1 个运行是指向别处文件夹的链接：删除运行会拒绝它，它的文件夹不会被改动。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="346"/>
        <source>{n} runs are links to folders elsewhere: Delete run refuses them, and their folders are not touched.</source>
        <translation>{n} 个运行是指向别处文件夹的链接：删除运行会拒绝它们，它们的文件夹不会被改动。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="348"/>
        <source>Edit &gt; Undo (Ctrl+Z) puts it back.</source>
        <translation>编辑 &gt; 撤销（Ctrl+Z）可将其放回。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="317"/>
        <source>Edit &gt; Undo puts them back.</source>
        <translation>编辑 &gt; 撤销可将其放回。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/run_words.py" line="214"/>
        <source> and %n more</source>
        <translation>
            <numerusform>等另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_delete.py" line="348"/>
        <source>Edit &gt; Undo (Ctrl+Z) puts them back.</source>
        <translation>编辑 &gt; 撤销（Ctrl+Z）可将其放回。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/run_words.py" line="216"/>
        <source>%n class(es) have no training row, so the model can never predict them: {classes}.</source>
        <translation>
            <numerusform>%n 个类别没有训练行，模型永远无法预测它们：{classes}。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/run_words.py" line="219"/>
        <source>%n class(es) have no held-out row: trained on, not evaluated: {classes}.</source>
        <translation>
            <numerusform>%n 个类别没有留出行：参与了训练，但未被评估：{classes}。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="222"/>
        <source>labels</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="222"/>
        <source>scores</source>
        <translation>分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="222"/>
        <source>tags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="224"/>
        <source>{split} rows {a} and {b}</source>
        <translation>{split}第 {a} 行和第 {b} 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="225"/>
        <source>rows {a} and {b}</source>
        <translation>第 {a} 行和第 {b} 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="227"/>
        <source>{a} and {b} at token {t}</source>
        <translation>第 {t} 个词元处为 {a} 与 {b}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="228"/>
        <source>{a} and {b}</source>
        <translation>{a} 与 {b}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/run_words.py" line="229"/>
        <source>%n input(s) appear more than once with different {what} (first: {rows}, {values}).</source>
        <translation>
            <numerusform>%n 个输入多次出现且{what}不同（首例：{rows}，{values}）。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="232"/>
        <source>{count:,} of {total:,} held-out rows repeat a training row (same {columns}): their scores overstate how the model does on rows it has not seen (first: {first} = {seen}).</source>
        <translation>{total:,} 个留出行中有 {count:,} 个与某个训练行重复（{columns} 相同）：它们的分数会高估模型在未见过的行上的表现（首例：{first} = {seen}）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="234"/>
        <source>{count:,} of {total:,} evaluation rows repeat a training row (same {columns}): their scores overstate how the model does on rows it has not seen (first: {first} = {seen}).</source>
        <translation>{total:,} 个评估行中有 {count:,} 个与某个训练行重复（{columns} 相同）：它们的分数会高估模型在未见过的行上的表现（首例：{first} = {seen}）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="239"/>
        <source>{count:,} of {total:,} evaluation rows have no gold value and are left out of the score.</source>
        <translation>{total:,} 个评估行中有 {count:,} 个没有标准答案，不计入分数。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="246"/>
        <source>{source}: {text}</source>
        <translation>{source}：{text}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="55"/>
        <source>The training stopped without finishing (its process was closed or crashed).</source>
        <translation>训练未完成就停止了（其进程被关闭或崩溃）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="58"/>
        <location filename="../../bertstudio/ui/run_words.py" line="112"/>
        <source>Continue it with: {command}</source>
        <translation>用以下命令继续：{command}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="68"/>
        <source>It is still training.</source>
        <translation>它仍在训练中。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="69"/>
        <source>It has finished: there is nothing to resume.</source>
        <translation>它已完成，没有可继续的内容。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="70"/>
        <source>It kept no checkpoint to go on from: only a run stopped by Cancel, Ctrl-C or a closed window keeps one (not a crashed or killed run, nor one stopped before its first step). Train it again.</source>
        <translation>它没有保存可以继续的检查点：只有通过“取消”、Ctrl-C 或关闭窗口停止的运行才会保存（崩溃或被终止的运行、在第一步之前停止的运行都不会）。请重新训练。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="73"/>
        <source>It was stopped by an older bertstudio, which did not record the rows it trained on, so nothing could check they are still the same. Train it again.</source>
        <translation>它由旧版 bertstudio 停止，旧版没有记录训练所用的行，因此无法检查这些行是否仍然相同。请重新训练。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="75"/>
        <source>It was trained in another project (its label ids say so): resume it there.</source>
        <translation>它是在另一个项目中训练的（其标签 ID 表明了这一点）：请在那个项目中继续。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="76"/>
        <source>It trained on its project&apos;s rows, which the command line cannot name: resume it in the app (Runs page, select it, Resume).</source>
        <translation>它是在项目的行上训练的，命令行无法指定这些行：请在应用中继续（“运行”页面，选中它，点“继续”）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="82"/>
        <source>Its checkpoint cannot be read ({error}): train it again.</source>
        <translation>它的检查点无法读取（{error}）：请重新训练。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="84"/>
        <source>It never started, or its files cannot be read: there is nothing to resume.</source>
        <translation>它从未开始，或其文件无法读取：没有可继续的内容。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="86"/>
        <source>Its settings cannot be read: {error}</source>
        <translation>无法读取它的设置：{error}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="88"/>
        <source>Its settings file {file} is missing.</source>
        <translation>它的设置文件 {file} 不见了。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/run_words.py" line="91"/>
        <source>Its data file(s) %1 are missing: put them back there.</source>
        <translation>
            <numerusform>它的数据文件 %1 不见了：请把它们放回原处。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="94"/>
        <source>Or resume with %1 naming where they lie now.</source>
        <translation>或者在继续时用 %1 指明它们现在的位置。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="98"/>
        <source>Its base model folder {folder} is missing: put it back there (or a link to where it lies now) to resume it.</source>
        <translation>它的基础模型文件夹 {folder} 不见了：把它放回原处（或在原处放一个指向它现在位置的链接）即可继续该运行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="101"/>
        <source>Or resume with --model naming where it lies now.</source>
        <translation>或者继续时用 --model 指明它现在的位置。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="104"/>
        <source>The model {folder} is not the base model the run started from (its config or tokenizer files differ): put that model back there to resume it.</source>
        <translation>模型 {folder} 不是该运行开始时所用的基础模型（其配置或分词器文件不同）：把原来的模型放回原处即可继续该运行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="109"/>
        <source>It trained on data files, not on the project&apos;s rows.</source>
        <translation>它是在数据文件上训练的，而不是在项目的行上。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="114"/>
        <source>(removed)</source>
        <translation>（已删除）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="116"/>
        <source>Its labels were renamed or removed since it stopped ({changed}): a resume goes on with the labels it trained with. Rename them back to resume it, or train it again.</source>
        <translation>它停止后，其标签被重命名或删除了（{changed}）：继续运行会沿用它训练时的标签。请把标签改回原名再继续，或重新训练。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="124"/>
        <source>{name} (removed)</source>
        <translation>{name}（已删除）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="135"/>
        <source>The project&apos;s evaluation rows changed since the run stopped: %1 then, %2 now.</source>
        <translation>运行停止后，项目的评估行发生了变化：当时 %1 行，现在 %2 行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="136"/>
        <source>The project&apos;s labelled training rows changed since the run stopped: %1 then, %2 now.</source>
        <translation>运行停止后，项目已标注的训练行发生了变化：当时 %1 行，现在 %2 行。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/run_words.py" line="139"/>
        <source>The project&apos;s evaluation rows changed since the run stopped: the same %n rows, with other golds.</source>
        <translation>
            <numerusform>运行停止后，项目的评估行发生了变化：仍是这 %n 行，但标准答案不同了。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/run_words.py" line="141"/>
        <source>The project&apos;s labelled training rows changed since the run stopped: the same %n rows, with other golds.</source>
        <translation>
            <numerusform>运行停止后，项目已标注的训练行发生了变化：仍是这 %n 行，但标准答案不同了。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/run_words.py" line="144"/>
        <source>The project&apos;s evaluation rows changed since the run stopped: %n rows then and now, but other ones.</source>
        <translation>
            <numerusform>运行停止后，项目的评估行发生了变化：当时和现在都是 %n 行，但已是别的行。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/run_words.py" line="146"/>
        <source>The project&apos;s labelled training rows changed since the run stopped: %n rows then and now, but other ones.</source>
        <translation>
            <numerusform>运行停止后，项目已标注的训练行发生了变化：当时和现在都是 %n 行，但已是别的行。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="148"/>
        <source>Undo the edits made since it stopped to resume it, or start a new run.</source>
        <translation>撤销它停止后所做的修改即可继续，或者开始新的运行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="155"/>
        <source>Only the curves and the settings compare.</source>
        <translation>只比较曲线和设置。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="159"/>
        <source>The %1 rows were replaced between the two runs: no examples to compare.</source>
        <translation>两次运行之间，%1的行被替换了：没有可比较的样例。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="163"/>
        <source>{b} is a run of another project than {a} (their label ids say so): no examples to compare.</source>
        <translation>{b} 与 {a} 属于不同的项目（它们的标签 ID 表明了这一点）：没有可比较的样例。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="167"/>
        <source>The runs were evaluated on different data ({settings}), and their predictions are older than example fingerprints: no examples to compare.</source>
        <translation>两次运行在不同的数据上评估（{settings}），且它们的预测结果早于样例指纹：没有可比较的样例。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="171"/>
        <source>Only %1 of %2 rows paired by position have the same gold, about what unrelated rows give: the runs were evaluated on different or reordered data, and their predictions are older than example fingerprints. No examples to compare.</source>
        <translation>按位置配对的 %2 行中只有 %1 行的标准答案相同，与不相关的行差不多：两次运行在不同的或顺序被打乱的数据上评估，且它们的预测结果早于样例指纹。没有可比较的样例。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="177"/>
        <source>The two runs share no evaluated rows (they evaluated on different data).</source>
        <translation>两次运行没有共同的评估行（它们在不同的数据上评估）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="179"/>
        <source>No interval: {metric} has no per-row form for this kind of run.</source>
        <translation>没有置信区间：对这类运行，{metric} 没有逐行的形式。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="190"/>
        <source>still training</source>
        <translation>仍在训练</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="190"/>
        <source>interrupted before it saved them</source>
        <translation>在保存之前被中断</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="191"/>
        <source>failed before it saved them</source>
        <translation>在保存之前失败</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="191"/>
        <source>cancelled before it saved them</source>
        <translation>在保存之前被取消</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="193"/>
        <source>{run} has no predictions yet ({why}).</source>
        <translation>{run} 还没有预测结果（{why}）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="194"/>
        <source>{run} evaluated but saved no {file}.</source>
        <translation>{run} 评估过，但没有保存 {file}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="197"/>
        <source>{run}&apos;s {file} holds no prediction.</source>
        <translation>{run} 的 {file} 中没有预测结果。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="198"/>
        <source>{run} has no {file} (its {metrics} holds scores).</source>
        <translation>{run} 没有 {file}（其 {metrics} 中有分数）。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/run_words.py" line="242"/>
        <source>%n scored evaluation row(s), fewer than {least}: too few to choose the best evaluation on, so the run keeps its last weights.</source>
        <translation>
            <numerusform>只有 %n 个计分的评估行，少于 {least} 行：太少，无法据此选出最佳评估，因此本次运行保留最后的权重。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="252"/>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="252"/>
        <source>macro F1</source>
        <translation>宏平均 F1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="252"/>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="252"/>
        <source>MCC</source>
        <translation>MCC</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="253"/>
        <source>Pearson correlation</source>
        <translation>皮尔逊相关系数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="253"/>
        <source>Spearman correlation</source>
        <translation>斯皮尔曼相关系数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="254"/>
        <source>exact match</source>
        <translation>完全匹配率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="254"/>
        <source>precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="254"/>
        <source>recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="255"/>
        <source>mean squared error</source>
        <translation>均方误差</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="266"/>
        <source>{ran} of {asked} seed(s) ran, no {metric} to sum up</source>
        <translation>{asked} 个随机种子中运行了 {ran} 个，没有可汇总的{metric}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="267"/>
        <source>{ran} seed(s), no {metric} to sum up</source>
        <translation>{ran} 个随机种子，没有可汇总的{metric}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="268"/>
        <source>metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="272"/>
        <source>{runs} of {asked} seeds finished: {metric} {mean}</source>
        <translation>{asked} 个随机种子中完成了 {runs} 个：{metric} {mean}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="273"/>
        <source>1 seed: {metric} {mean}</source>
        <translation>1 个随机种子：{metric} {mean}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="276"/>
        <source>{runs} of {asked} seeds finished: {metric} {mean} ± {sd} ({low} to {high})</source>
        <translation>{asked} 个随机种子中完成了 {runs} 个：{metric} {mean} ± {sd}（{low} 至 {high}）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="277"/>
        <source>{runs} seeds: {metric} {mean} ± {sd} ({low} to {high})</source>
        <translation>{runs} 个随机种子：{metric} {mean} ± {sd}（{low} 至 {high}）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="284"/>
        <source>1 token</source>
        <translation>1 个词元</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="284"/>
        <source>{n} tokens</source>
        <translation>{n} 个词元</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="285"/>
        <source>1 row</source>
        <translation>1 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="285"/>
        <source>{n} rows</source>
        <translation>{n} 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="301"/>
        <source>Read-only, as it was open in another window: browse, predict and compare; labels and runs cannot be saved here. Once that window has closed it, File &gt; Open project on this folder makes it writable here</source>
        <translation>只读（因为它已在另一个窗口中打开）：可以浏览、预测和比较；标注和运行无法在此保存。等那个窗口关闭它后，对此文件夹使用“文件 &gt; 打开项目”即可在此编辑</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="304"/>
        <source>Read-only: browse, predict and compare; labels and runs cannot be saved here</source>
        <translation>只读：可以浏览、预测和比较；标注和运行无法在此保存</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="314"/>
        <source>The project is open read-only in another bertstudio window.</source>
        <translation>该项目已在另一个 bertstudio 窗口中以只读方式打开。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="315"/>
        <source>The project is open in another bertstudio window, where it can be edited: close it there first, then open it here (it cannot be viewed here meanwhile, as its files change while it is edited).</source>
        <translation>该项目已在另一个 bertstudio 窗口中打开，并可能正在那里编辑：请先在那里关闭它，再在此打开（在此期间也无法在此查看，因为编辑时它的文件会变化）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="321"/>
        <source>The project was changed outside bertstudio since it was opened (a git pull, a sync folder?): {file} is not the file bertstudio wrote. Nothing more is saved here, so the other side&apos;s files are not overwritten.</source>
        <translation>自项目打开以来，它已在 bertstudio 之外被更改（git pull 或同步文件夹？）：{file} 不是 bertstudio 写入的文件。此处不再保存任何内容，因此不会覆盖另一方的文件。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="327"/>
        <source>The 1 edit made here and not yet saved into the data files is kept in %1; reopening the project applies it, or lists it if it cannot.</source>
        <translation>此处所做、尚未存入数据文件的 1 项编辑保存在 %1 中；重新打开项目时会应用它，无法应用时会列出它。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="329"/>
        <source>The {n} edits made here and not yet saved into the data files are kept in %1; reopening the project applies them or lists each one it cannot.</source>
        <translation>此处所做、尚未存入数据文件的 {n} 项编辑保存在 %1 中；重新打开项目时会应用它们，或逐条列出无法应用的编辑。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="332"/>
        <source>The 1 edit made here and not yet saved into the data files is kept in %1; reopening the project lists it but does not apply it: make it again.</source>
        <translation>此处所做、尚未存入数据文件的 1 项编辑保存在 %1 中；重新打开项目时会列出它，但不会应用：请重新进行这项编辑。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="334"/>
        <source>The {n} edits made here and not yet saved into the data files are kept in %1; reopening the project lists each one but does not apply them: make them again.</source>
        <translation>此处所做、尚未存入数据文件的 {n} 项编辑保存在 %1 中；重新打开项目时会逐条列出它们，但不会应用：请重新进行这些编辑。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="338"/>
        <source>The edits made here could not be kept: the project&apos;s journal was replaced.</source>
        <translation>此处所做的编辑无法保留：项目的编辑日志已被替换。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="339"/>
        <source>Reopen the project (File &gt; Open project…).</source>
        <translation>请重新打开项目（文件 &gt; 打开项目…）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="349"/>
        <source>cleared</source>
        <translation>已清除</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="350"/>
        <source>{split} row {row}: {value}</source>
        <translation>{split}第 {row} 行：{value}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="353"/>
        <source>label {old} renamed to {new}</source>
        <translation>标签 {old} 重命名为 {new}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="355"/>
        <source>label {name} added</source>
        <translation>添加了标签 {name}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="357"/>
        <source>label {name} removed</source>
        <translation>删除了标签 {name}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="359"/>
        <source>label {name} recoloured {color}</source>
        <translation>标签 {name} 的颜色改为 {color}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="362"/>
        <source>{op} of label {name}</source>
        <translation>标签 {name} 的 {op}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="366"/>
        <source>the project was changed outside bertstudio while they were made, and its journal was replaced</source>
        <translation>进行这些编辑时，项目在 bertstudio 之外被更改，其编辑日志被替换</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="368"/>
        <source>they were made on another version of project.json, which replaced it since: a git pull, a sync folder?</source>
        <translation>它们是在另一个版本的 project.json 上进行的，该文件此后已被替换：git pull 或同步文件夹？</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="383"/>
        <source>{file}: 1 edit was not applied ({why}); it is kept in that file:</source>
        <translation>{file}：1 项编辑未应用（{why}）；它保存在该文件中：</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="384"/>
        <source>{file}: {n} edits were not applied ({why}); they are kept in that file:</source>
        <translation>{file}：{n} 项编辑未应用（{why}）；它们保存在该文件中：</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="387"/>
        <source>{file}: edit {seq} not applied: {edit}</source>
        <translation>{file}：编辑 {seq} 未应用：{edit}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="390"/>
        <source>{file}: 1 more edit not applied</source>
        <translation>{file}：另有 1 项编辑未应用</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="391"/>
        <source>{file}: {n} more edits not applied</source>
        <translation>{file}：另有 {n} 项编辑未应用</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="393"/>
        <source>{file}: not read ({problem})</source>
        <translation>{file}：未能读取（{problem}）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="396"/>
        <source>1 more kept journal is not listed here; its edits were not applied either (kept as {pattern})</source>
        <translation>另有 1 个保留的编辑日志未在此列出；其中的编辑同样未应用（保存为 {pattern}）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="398"/>
        <source>{n} more kept journals are not listed here; their edits were not applied either (kept as {pattern})</source>
        <translation>另有 {n} 个保留的编辑日志未在此列出；其中的编辑同样未应用（保存为 {pattern}）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="410"/>
        <source>The project folder was moved or renamed while it was open: reopen it from its new place (what was saved went with it).</source>
        <translation>项目文件夹在打开期间被移动或重命名：请从新位置重新打开它（已保存的内容随文件夹一起移动）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="417"/>
        <source>{path} is a file, not a folder: no run folder can be made in it. Move the file away.</source>
        <translation>{path} 是文件而不是文件夹：无法在其中创建运行文件夹。请把这个文件移走。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="195"/>
        <source>{run} has not evaluated yet (still training).</source>
        <translation>{run} 还没有评估过（仍在训练）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="39"/>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="39"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="39"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="40"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="40"/>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="41"/>
        <source>damaged</source>
        <translation>已损坏</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="42"/>
        <source>reading…</source>
        <translation>读取中…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="43"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_words.py" line="196"/>
        <source>{run} never evaluated.</source>
        <translation>{run} 从未评估过。</translation>
    </message>
</context>
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../../bertstudio/ui/about_dialog.py" line="57"/>
        <source>About bertstudio</source>
        <translation>关于 bertstudio</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/about_dialog.py" line="59"/>
        <source>bertstudio {version}</source>
        <translation>bertstudio {version}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/about_dialog.py" line="66"/>
        <source>Label your data and fine-tune BERT-style encoders on it, in this window or with the bertstudio command.</source>
        <translation>标注你的数据，并在其上微调 BERT 类编码器：可在此窗口中进行，也可使用 bertstudio 命令。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/about_dialog.py" line="72"/>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/about_dialog.py" line="75"/>
        <source>Default model:</source>
        <translation>默认模型：</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/about_dialog.py" line="75"/>
        <source>{name} (installed with the app)</source>
        <translation>{name}（随应用一同安装）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/about_dialog.py" line="76"/>
        <source>Log file:</source>
        <translation>日志文件：</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/about_dialog.py" line="77"/>
        <source>Settings:</source>
        <translation>设置：</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/about_dialog.py" line="78"/>
        <source>Libraries:</source>
        <translation>库：</translation>
    </message>
</context>
<context>
    <name>AddExampleDialog</name>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="124"/>
        <source>Add examples</source>
        <translation>添加样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="210"/>
        <source>none (score it later)</source>
        <translation>无(稍后打分)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="212"/>
        <source>The score, on this project&apos;s scale {low:g} to {high:g}</source>
        <translation>分数，按本项目的刻度 {low:g} 到 {high:g}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="161"/>
        <source>Store this example (with the label chosen, if any) and clear the form for the next one</source>
        <translation>保存此样例(如已选择标签则一并保存)并清空表单以输入下一个</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="186"/>
        <source>none (label it later)</source>
        <translation>无(稍后标注)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="192"/>
        <source>While typing, Alt+1 … Alt+9 set the label (Alt+0: none); any label can be chosen in the box, where typing its first letters finds it.</source>
        <translation>输入时，Alt+1 … Alt+9 设置标签(Alt+0:无)；也可以在下拉框中选择任意标签，输入标签名的开头几个字母即可找到。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="251"/>
        <source>Added to {s} as row {r} ({n} this time), labelled {g}.</source>
        <translation>已添加到 {s}，第 {r} 行(本次共 {n} 个)，标签为 {g}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="244"/>
        <source>Not added: {m}</source>
        <translation>未添加:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="131"/>
        <source>&amp;Sentence</source>
        <translation>句子(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="131"/>
        <source>&amp;Text A (premise)</source>
        <translation>文本 A(前提)(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="132"/>
        <source>Text &amp;B (hypothesis)</source>
        <translation>文本 B(假设)(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="133"/>
        <source>&amp;Sentence (words are split at spaces)</source>
        <translation>句子(按空格切分为词)(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="134"/>
        <source>Conte&amp;xt</source>
        <translation>上下文(&amp;X)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="135"/>
        <source>&amp;Question</source>
        <translation>问题(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="142"/>
        <source>Into s&amp;plit</source>
        <translation>加入数据划分(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="160"/>
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="191"/>
        <source>&amp;Label</source>
        <translation>标签(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="213"/>
        <source>Sco&amp;re</source>
        <translation>分数(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="249"/>
        <source>Added to {s} as row {r} ({n} this time). Label it on the Label page.</source>
        <translation>已添加到 {s},第 {r} 行(本次共 {n} 个)。请在“标注”页标注。</translation>
    </message>
</context>
<context>
    <name>AssistBar</name>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="20"/>
        <source>in order</source>
        <translation>按顺序</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="21"/>
        <source>random</source>
        <translation>随机</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="22"/>
        <source>most uncertain first</source>
        <translation>最不确定的优先</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="23"/>
        <source>by suggested label</source>
        <translation>按建议标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="77"/>
        <source>Train no&amp;w</source>
        <translation>立即训练(&amp;W)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="88"/>
        <source>Ne&amp;xt:</source>
        <translation>下一个(&amp;X):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="176"/>
        <source>The labelling assistant is starting: the Next order can be chosen once it has started.</source>
        <translation>标注助手正在启动:启动后才能选择“下一个”顺序。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="183"/>
        <source>%1 labelled · %3 skipped · %4 to go</source>
        <translation>已标注 %1 个 · 已跳过 %3 个 · 剩余 %4 个</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="197"/>
        <source>Which example comes next after a label or a skip (S / Space). Every 10th is a random audit example in every order.</source>
        <translation>标注或跳过(S / 空格)之后接下来显示哪个样例。无论哪种顺序，每 10 个中有一个是随机核查样例。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="199"/>
        <source>Which example comes next after a label or a skip (S / Space).</source>
        <translation>标注或跳过(S / 空格)之后接下来显示哪个样例。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="70"/>
        <source>The label whose likeliest examples come first</source>
        <translation>优先显示最可能属于该标签的样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="79"/>
        <source>Train the stronger model on the labels so far, in the background (it also trains by itself every 50 labels)</source>
        <translation>在后台用目前的标签训练更强的模型(每标注 50 个也会自动训练)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="142"/>
        <source>the rarest label</source>
        <translation>最少的标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_bar.py" line="182"/>
        <source>%1 labelled (%2 for the audit) · %3 skipped · %4 to go</source>
        <translation>已标注 %1 个(其中 %2 个用于核查)· 已跳过 %3 个 · 剩余 %4 个</translation>
    </message>
</context>
<context>
    <name>AssistController</name>
    <message>
        <location filename="../../bertstudio/ui/assist_controller.py" line="326"/>
        <source>from the label names</source>
        <translation>来自标签名称</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_controller.py" line="327"/>
        <source>fast model</source>
        <translation>快速模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_controller.py" line="328"/>
        <source>SetFit model</source>
        <translation>SetFit 模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_controller.py" line="329"/>
        <source>fine-tuned model</source>
        <translation>微调模型</translation>
    </message>
</context>
<context>
    <name>AssistKinds</name>
    <message>
        <location filename="../../bertstudio/assist/kinds.py" line="53"/>
        <source>suggestions appear once the texts are embedded, from the label names</source>
        <translation>文本完成嵌入后，将根据标签名称给出建议</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/kinds.py" line="54"/>
        <source>pairs: suggestions start once two labels have an example each (label names say nothing a bi-encoder can compare a pair with)</source>
        <translation>句对：当两个标签各有一个示例后开始给出建议（标签名称无法供双编码器比较句对）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/kinds.py" line="55"/>
        <source>regression: suggestions start after two labelled rows</source>
        <translation>回归：标注两行后开始给出建议</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/kinds.py" line="56"/>
        <source>tagging: suggestions start once a labelled sentence holds two different tags</source>
        <translation>序列标注：当已标注的句子包含两种不同的标签后开始给出建议</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/kinds.py" line="59"/>
        <source>add a second label: a classifier needs at least two classes, so no suggestion can come before</source>
        <translation>请再添加一个标签：分类器至少需要两个类别，在此之前不会有建议</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/kinds.py" line="60"/>
        <source>question answering: no suggestions (the labelling assistant has no model for answers)</source>
        <translation>问答：没有建议（标注助手没有给出答案的模型）</translation>
    </message>
</context>
<context>
    <name>AssistStatus</name>
    <message>
        <location filename="../../bertstudio/ui/assist_status.py" line="52"/>
        <source>stopped: %1</source>
        <translation>已停止:%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_status.py" line="56"/>
        <source>reading the texts %1/%2</source>
        <translation>正在读取文本 %1/%2</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_status.py" line="59"/>
        <source>starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_status.py" line="65"/>
        <source>no suggestions yet</source>
        <translation>暂无建议</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_status.py" line="65"/>
        <source>no suggestions</source>
        <translation>没有建议</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_status.py" line="72"/>
        <source>scoring with the new %1</source>
        <translation>正在用新的%1打分</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_status.py" line="76"/>
        <source>waiting for %1 to finish</source>
        <translation>正在等待%1结束</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_status.py" line="79"/>
        <source>training a %1 on %2 labels</source>
        <translation>正在用 %2 个标签训练%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_status.py" line="82"/>
        <source>Assistant: %1</source>
        <translation>助手:%1</translation>
    </message>
</context>
<context>
    <name>AssistStrategies</name>
    <message>
        <location filename="../../bertstudio/assist/strategies.py" line="71"/>
        <source>every other row is labelled; back to the skipped rows</source>
        <translation>其他行都已标注；回到跳过的行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/strategies.py" line="72"/>
        <source>audit pick: drawn at random, kept out of training</source>
        <translation>审核样本：随机抽取，不参与训练</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/strategies.py" line="73"/>
        <source>spread pick: nearest a k-means centre</source>
        <translation>分散抽样：最接近某个 k-means 中心</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/strategies.py" line="74"/>
        <source>most uncertain (top-2 gap {})</source>
        <translation>最不确定（前两名差距 {}）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/strategies.py" line="75"/>
        <source>least confident words (mean tag confidence {})</source>
        <translation>词的置信度最低（标签平均置信度 {}）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/strategies.py" line="77"/>
        <source>picked as most uncertain; top-2 gap since the newer model: {}</source>
        <translation>因最不确定而选中；新模型下前两名差距：{}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/strategies.py" line="78"/>
        <source>picked as least confident; mean tag confidence since the newer model: {}</source>
        <translation>因置信度最低而选中；新模型下标签平均置信度：{}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/strategies.py" line="80"/>
        <source>no model yet: random order until suggestions exist</source>
        <translation>尚无模型：在有建议之前按随机顺序</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/strategies.py" line="81"/>
        <source>likeliest for {}</source>
        <translation>最可能是 {}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/assist/strategies.py" line="82"/>
        <source>no suggestions yet: random order</source>
        <translation>尚无建议：随机顺序</translation>
    </message>
</context>
<context>
    <name>AuditChart</name>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="89"/>
        <source>audit accuracy (%)</source>
        <translation>核查准确率(%)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="92"/>
        <source>training labels (audit labels not counted)</source>
        <translation>训练标签数（不含核查标签）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="106"/>
        <source>this loop</source>
        <translation>当前标注流程</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="107"/>
        <source>random order (estimate)</source>
        <translation>随机顺序(估计)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="171"/>
        <source>Random order is estimated from the audit labels alone; its curve starts once there are enough of them.</source>
        <translation>随机顺序的估计只用核查标签；核查标签足够后才会出现这条曲线。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/assist_chart.py" line="176"/>
        <source>Random order is estimated from the %1 audit labels alone, so it reaches %2 labels now and grows as audit labels come in.</source>
        <translation>随机顺序的估计只用 %1 个核查标签，所以现在只到 %2 个标签，随着核查标签增加而延长。</translation>
    </message>
</context>
<context>
    <name>CartographyView</name>
    <message>
        <location filename="../../bertstudio/ui/cartography_view.py" line="46"/>
        <source>Data map</source>
        <translation>数据地图</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/cartography_view.py" line="50"/>
        <source>variability (std of the gold label&apos;s probability over epochs)</source>
        <translation>变异度(各轮中标准答案概率的标准差)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/cartography_view.py" line="51"/>
        <source>confidence (mean probability of the gold label)</source>
        <translation>置信度(标准答案的平均概率)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/cartography_view.py" line="63"/>
        <source>Click a point to see its example.</source>
        <translation>点击一个点查看对应样例。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/cartography_view.py" line="83"/>
        <source>%1 training examples over %2 epochs. Colour: how often the model was right (red never, blue always). The bottom-left corner (%3 examples) is hard to learn: check these labels first.</source>
        <translation>%1 个训练样例，共 %2 轮。颜色表示模型预测正确的频率(红色从未正确，蓝色始终正确)。左下角(%3 个样例)难以学习:请优先检查这些标签。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/cartography_view.py" line="88"/>
        <source>confidence {c}, variability {v:.2f}</source>
        <translation>置信度 {c}，变异度 {v:.2f}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/cartography_view.py" line="100"/>
        <source>Gold: &lt;b&gt;%1&lt;/b&gt;. Confidence %2, variability %3, right in %4% of epochs.</source>
        <translation>标准答案:&lt;b&gt;%1&lt;/b&gt;。置信度 %2，变异度 %3，%4% 的轮次预测正确。</translation>
    </message>
</context>
<context>
    <name>ConfusionDialog</name>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="240"/>
        <source>Confusion matrix</source>
        <translation>混淆矩阵</translation>
    </message>
</context>
<context>
    <name>ConfusionModel</name>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="58"/>
        <source>gold: {name}</source>
        <translation>标准答案：{name}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="59"/>
        <source>predicted: {name}</source>
        <translation>预测：{name}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="88"/>
        <source>{n} examples: gold {g}, predicted {p}</source>
        <translation>{n} 个样例:标准答案 {g}，预测 {p}</translation>
    </message>
</context>
<context>
    <name>ConfusionPanel</name>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="215"/>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="217"/>
        <source>Gold</source>
        <translation>标准答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="222"/>
        <source>Columns: the label the model predicted</source>
        <translation>列:模型预测的标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="223"/>
        <source>Rows: the gold label</source>
        <translation>行:标准答案标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="265"/>
        <source>Open in a window…</source>
        <translation>在窗口中打开…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="266"/>
        <source>Show the confusion matrix in a window of its own, with room for every class</source>
        <translation>在单独的窗口中显示混淆矩阵，容得下每个类别</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="280"/>
        <source>The most frequent confusions; pick one to list its examples</source>
        <translation>最常见的混淆；选择一项即可列出其样例</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/confusion_view.py" line="314"/>
        <source>%n class(es) with no rows and no predictions in this split are not shown.</source>
        <translation>
            <numerusform>本划分中没有行也没有预测的 %n 个类别未显示。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="319"/>
        <source>{n} × gold {gold} → predicted {predicted}</source>
        <translation>{n} × 标准答案 {gold} → 预测 {predicted}</translation>
    </message>
</context>
<context>
    <name>ConfusionView</name>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="120"/>
        <source>Rows: gold label. Columns: predicted label. Click a cell to list its examples.</source>
        <translation>行:标准答案标签。列:预测标签。单击单元格可列出其中的样例。</translation>
    </message>
</context>
<context>
    <name>DataPage</name>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="158"/>
        <source>Search the text (Enter)</source>
        <translation>搜索文本(回车)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="242"/>
        <source>Type new examples into this split, then label them</source>
        <translation>在此数据划分中输入新样例，然后标注</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="180"/>
        <source>Split:</source>
        <translation>数据划分:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="172"/>
        <source>&amp;Search</source>
        <translation>搜索(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="174"/>
        <source>&amp;Add examples…</source>
        <translation>添加样例(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="183"/>
        <source>Show:</source>
        <translation>显示:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="204"/>
        <location filename="../../bertstudio/ui/data_page.py" line="491"/>
        <source>&lt;b&gt;Label distribution&lt;/b&gt;</source>
        <translation>&lt;b&gt;标签分布&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="292"/>
        <source>All rows</source>
        <translation>全部行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="293"/>
        <source>Unlabelled</source>
        <translation>未标注</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="295"/>
        <source>Label = %1</source>
        <translation>标签 = %1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="296"/>
        <source>Disagrees with the latest run</source>
        <translation>与最近一次运行的预测不一致</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="470"/>
        <source>%1 of %2 rows</source>
        <translation>%1 / %2 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="475"/>
        <source>no run with predictions yet</source>
        <translation>还没有带预测的运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="477"/>
        <source>the latest run evaluated the %1 split</source>
        <translation>最近一次运行评估的是 %1 数据划分</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="490"/>
        <source>&lt;b&gt;Entities per type&lt;/b&gt;</source>
        <translation>&lt;b&gt;各类型实体数&lt;/b&gt;</translation>
    </message>
</context>
<context>
    <name>ExampleTableModel</name>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="45"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="46"/>
        <source>Second text</source>
        <translation>第二段文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="47"/>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="48"/>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="49"/>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="50"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="51"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="54"/>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="55"/>
        <source>Score</source>
        <translation>分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="56"/>
        <source>Tags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="57"/>
        <source>Answers</source>
        <translation>答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="155"/>
        <source>no entity</source>
        <translation>无实体</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="327"/>
        <source>Suggested</source>
        <translation>建议</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="46"/>
        <location filename="../../bertstudio/ui/export_dialog.py" line="138"/>
        <location filename="../../bertstudio/ui/export_dialog.py" line="170"/>
        <location filename="../../bertstudio/ui/export_dialog.py" line="179"/>
        <source>Export data</source>
        <translation>导出数据</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="58"/>
        <source>from the file name</source>
        <translation>根据文件名</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="65"/>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="75"/>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="79"/>
        <source>&amp;Split:</source>
        <translation>数据划分(&amp;S):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="80"/>
        <source>Fo&amp;rmat:</source>
        <translation>格式(&amp;R):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="81"/>
        <source>&amp;File:</source>
        <translation>文件(&amp;F):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="87"/>
        <location filename="../../bertstudio/ui/export_dialog.py" line="149"/>
        <source>This project holds no rows to export yet.</source>
        <translation>此项目还没有可导出的行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="92"/>
        <source>column %1</source>
        <translation>第 %1 列</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="94"/>
        <source>%1 of its %2 columns</source>
        <translation>其 %2 列中的 %1 列</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="104"/>
        <source>“I-” is an inside tag without an entity type</source>
        <translation>“I-” 是没有实体类型的内部标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="105"/>
        <source>{value} opens an entity (IOB1)</source>
        <translation>{value} 开始一个实体（IOB1）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="106"/>
        <source>{value} follows {after}, another entity type, which it does not continue</source>
        <translation>{value} 跟在另一实体类型的 {after} 之后，并不延续它</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="107"/>
        <source>{value} follows {after}, which leaves no entity open for it to continue</source>
        <translation>{value} 跟在 {after} 之后，此处没有可延续的实体</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="112"/>
        <source>Sentence {sentence}, tag {tag}: {why}, and a CoNLL file would read it back as {bio}, another tag. Save as CoNLL-U or JSON Lines, which keep the tags as they are.</source>
        <translation>第 {sentence} 句，第 {tag} 个标签：{why}，CoNLL 文件读回时会把它读成另一个标签 {bio}。请另存为 CoNLL-U 或 JSON Lines，它们会原样保留标签。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="125"/>
        <source>The file name {name} names no format bertstudio writes. Give it the extension of one this project writes ({formats}), or choose the format in the list.</source>
        <translation>文件名 {name} 没有指明 bertstudio 能写出的格式。请给它本项目能写出的格式之一的扩展名（{formats}），或在列表中选择格式。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="131"/>
        <source>The file name {name} asks for {fmt}, which this project&apos;s rows cannot be written as. It writes {formats}: change the extension, or choose the format in the list.</source>
        <translation>文件名 {name} 要求 {fmt} 格式，而本项目的样例无法写成该格式。本项目能写出 {formats}：请更改扩展名，或在列表中选择格式。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="146"/>
        <source>Choose a file to write.</source>
        <translation>请选择要写入的文件。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="158"/>
        <source>{path} is a symbolic link to a path that does not exist: choose a file in a folder.</source>
        <translation>{path} 是一个指向不存在路径的符号链接：请选择某个文件夹中的文件。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="160"/>
        <source>{path} is a file, not a folder: choose a file in a folder.</source>
        <translation>{path} 是一个文件，不是文件夹：请选择某个文件夹中的文件。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="171"/>
        <source>{path} has columns this export does not write: {lost}. The project keeps only the columns its task reads, so the export writes {written}, and replacing the file loses the others. Replace it anyway?</source>
        <translation>{path} 中有本次导出不会写出的列：{lost}。项目只保留其任务读取的列，所以导出只写 {written}，替换该文件会丢失其他列。仍要替换吗？</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="179"/>
        <source>{path} already exists. Replace it?</source>
        <translation>{path} 已存在。要替换它吗？</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="190"/>
        <source>{path}: a folder on its way is a file, not a folder.</source>
        <translation>{path}：路径上的某个文件夹是一个文件，不是文件夹。</translation>
    </message>
</context>
<context>
    <name>FileSurveyBox</name>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="72"/>
        <source>{share}% of the word pieces of {n} sampled examples are [UNK] for the model {model}: those words are lost to it, and training on such text learns less. Use a model made for this language, e.g. {models}, on the Train page (a Hub id, or a local model folder to work offline).</source>
        <translation>抽样的 {n} 个样本中，有 {share}% 的词片段对模型 {model} 来说是 [UNK]：这些词对它而言已丢失，在这样的文本上训练学到的更少。请在“训练”页使用为该语言构建的模型，例如 {models}（Hub id，或离线使用的本地模型文件夹）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="144"/>
        <source>Import only</source>
        <translation>只导入</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="148"/>
        <source>first rows</source>
        <translation>前若干行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="149"/>
        <source>random rows, seed</source>
        <translation>随机行，种子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="151"/>
        <source>Keep a big file&apos;s sample small: the first N rows, or N rows drawn at random with a seed (the same seed draws the same rows)</source>
        <translation>让大文件的样本保持小巧:取前 N 行，或用随机种子随机抽取 N 行(相同的种子抽到相同的行)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="194"/>
        <source>Counting the rows of the whole file…</source>
        <translation>正在统计整个文件的行数…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="265"/>
        <source>1 row, {labelled} labelled</source>
        <translation>1 行，已标注 {labelled} 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="266"/>
        <source>{rows} rows, {labelled} labelled</source>
        <translation>{rows} 行，已标注 {labelled} 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="269"/>
        <source>importing {n} of them</source>
        <translation>导入其中 {n} 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="273"/>
        <source>The tags are IOB1 (I- opens an entity): they are read as BIO, with B- on each entity&apos;s first word.</source>
        <translation>这些标签是 IOB1（I- 开始一个实体）：将按 BIO 读取，每个实体的第一个词标为 B-。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="279"/>
        <source>Scores from {lo} to {hi}, mean {mean}</source>
        <translation>分数从 {lo} 到 {hi}，平均 {mean}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="287"/>
        <source>and {n} more</source>
        <translation>以及另外 {n} 个</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="289"/>
        <source>Tags ({n} tokens):</source>
        <translation>标记({n} 个词元):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="290"/>
        <source>Labels:</source>
        <translation>标签:</translation>
    </message>
</context>
<context>
    <name>GoldCounts</name>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="59"/>
        <source>with an answer</source>
        <translation>有答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="60"/>
        <source>without an answer</source>
        <translation>无答案</translation>
    </message>
</context>
<context>
    <name>HelpPanel</name>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="23"/>
        <source>a letter (not S), or /</source>
        <translation>字母键(S 除外)或 /</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="74"/>
        <source>← / → or ↑ / ↓</source>
        <translation>← / → 或 ↑ / ↓</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="74"/>
        <source>previous / next example</source>
        <translation>上一个 / 下一个样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="75"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="103"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="116"/>
        <source>S or Space</source>
        <translation>S 或 Space</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="72"/>
        <source>skip to the next unlabelled example</source>
        <translation>跳到下一个未标注的样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="29"/>
        <source>accept the suggested label (grey, under the text); any label key overrides it</source>
        <translation>接受建议标签(灰色，显示在文本下方)；按任一标签键即可改为该标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="30"/>
        <source>accept the suggested score (grey, under the text)</source>
        <translation>接受建议分数(灰色，显示在文本下方)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="31"/>
        <source>store the suggested tags (grey, under the words)</source>
        <translation>保存建议标记(灰色，显示在词语下方)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="48"/>
        <source>Tab</source>
        <translation>Tab</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="51"/>
        <source>train the assistant&apos;s stronger model now</source>
        <translation>立即训练助手的更强模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="70"/>
        <source>skip: the next example in the Next order (this one comes back last)</source>
        <translation>跳过:按“下一个”顺序显示下一个样例(此样例最后再出现)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="77"/>
        <source>undo / redo the last edit</source>
        <translation>撤销 / 重做上一次编辑</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="80"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="89"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="95"/>
        <source>1 … 9</source>
        <translation>1 … 9</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="80"/>
        <source>apply the label with that number (see the legend)</source>
        <translation>应用对应编号的标签(见图例)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="81"/>
        <source>pick any label by typing part of its name; Enter applies it (the legend shows each label&apos;s key)</source>
        <translation>输入标签名的一部分即可选择任意标签；按 Enter 应用(图例中列出了每个标签的按键)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="84"/>
        <source>0 … 9</source>
        <translation>0 … 9</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="84"/>
        <source>set that whole score, where it is on the project&apos;s scale</source>
        <translation>设为该整数分数（须在项目的分数范围内）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="84"/>
        <source>set a finer score</source>
        <translation>设置更精细的分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="91"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="97"/>
        <source>0 or Backspace</source>
        <translation>0 或 Backspace</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="82"/>
        <source>clear the label</source>
        <translation>清除标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="49"/>
        <source>reach the Next order and Train now; arrows step the order, a choice from its list gives the keys back to the editor</source>
        <translation>切换到“下一个”顺序和“立即训练”；方向键逐项切换顺序，在其列表中选定后按键回到编辑区</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="61"/>
        <source>turn moving to the next example after labelling on or off</source>
        <translation>打开或关闭“标注后转到下一个样例”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="65"/>
        <source>Shift+Page Up / Shift+Page Down</source>
        <translation>Shift+Page Up / Shift+Page Down</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="66"/>
        <source>scroll a long text</source>
        <translation>滚动较长的文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="82"/>
        <source>0, Backspace or Delete</source>
        <translation>0、Backspace 或 Delete</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="84"/>
        <source>slider / box</source>
        <translation>滑块 / 输入框</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="85"/>
        <source>Enter or an arrow in the box</source>
        <translation>在输入框中按 Enter 或方向键</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="85"/>
        <source>store the typed score (an arrow then moves on)</source>
        <translation>保存输入的分数(方向键随后转到相邻样例)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="86"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="114"/>
        <source>Backspace</source>
        <translation>Backspace</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="86"/>
        <source>clear the score</source>
        <translation>清除分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="89"/>
        <source>mark the selected words as that entity type (B- on the first, I- on the rest)</source>
        <translation>将选中的词标为该实体类型(第一个词为 B-，其余为 I-)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="90"/>
        <source>pick any entity type by typing part of its name; Enter applies it (the legend shows each type&apos;s key)</source>
        <translation>输入实体类型名的一部分即可选择任意实体类型；按 Enter 应用(图例中列出了每个类型的按键)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="92"/>
        <source>Shift+Enter</source>
        <translation>Shift+Enter</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="93"/>
        <source>store the sentence as marked and go on (with no entity marked, every word is O)</source>
        <translation>按当前标注保存该句并继续（未标出实体时，每个词都是 O）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="95"/>
        <source>give each selected word the tag with that number; a sentence is stored once every word has a tag</source>
        <translation>为每个选中的词设置该编号的标记；句子中每个词都有标记后才会保存</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="96"/>
        <source>pick any tag by typing part of its name; Enter applies it (the legend shows each tag&apos;s key)</source>
        <translation>输入标记名的一部分即可选择任意标记；按 Enter 应用(图例中列出了每个标记的按键)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="97"/>
        <source>clear the tag of the selected words</source>
        <translation>清除选中词的标记</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="99"/>
        <source>← / →</source>
        <translation>← / →</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="99"/>
        <source>move the word cursor</source>
        <translation>移动词光标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="100"/>
        <source>Shift+← / Shift+→, or drag</source>
        <translation>Shift+← / Shift+→ 或拖动</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="100"/>
        <source>select several words</source>
        <translation>选择多个词</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="110"/>
        <source>Tab to the context, then Shift+arrows</source>
        <translation>按 Tab 到上下文，再按 Shift+方向键</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="111"/>
        <source>select the answer by keyboard; Enter uses it</source>
        <translation>用键盘选择答案；按 Enter 采用</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="124"/>
        <source>Keyboard</source>
        <translation>键盘</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="133"/>
        <source>Tab / Shift+Tab</source>
        <translation>Tab / Shift+Tab</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="134"/>
        <source>move between a page&apos;s controls; tables and text boxes let Tab go on</source>
        <translation>在页面控件之间移动；表格和文本框不会拦住 Tab</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="136"/>
        <source>in the Data and Runs tables: open the row or run</source>
        <translation>在数据表和运行表中：打开该行或该运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="138"/>
        <source>Start training (Train page)</source>
        <translation>开始训练（训练页）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="143"/>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="91"/>
        <source>clear the entity under the cursor</source>
        <translation>清除光标处的实体</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="102"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="115"/>
        <source>↑ / ↓, Page Up / Page Down</source>
        <translation>↑ / ↓、Page Up / Page Down</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="102"/>
        <source>previous / next sentence</source>
        <translation>上一句 / 下一句</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="103"/>
        <source>skip to the next unlabelled sentence</source>
        <translation>跳到下一个未标注的句子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="105"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="118"/>
        <source>undo / redo</source>
        <translation>撤销 / 重做</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="108"/>
        <source>select with the mouse</source>
        <translation>用鼠标选择</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="108"/>
        <source>the selection becomes the answer</source>
        <translation>选中的文本即成为答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="33"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="92"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="112"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="135"/>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="112"/>
        <source>use the current selection as the answer</source>
        <translation>将当前选中的文本作为答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="113"/>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="113"/>
        <source>toggle &apos;no answer&apos;</source>
        <translation>切换“无答案”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="114"/>
        <source>clear the answer</source>
        <translation>清除答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="115"/>
        <source>previous / next question</source>
        <translation>上一个 / 下一个问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="116"/>
        <source>skip to the next unanswered question</source>
        <translation>跳到下一个未回答的问题</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="107"/>
        <location filename="../../bertstudio/ui/import_dialog.py" line="274"/>
        <source>Import data</source>
        <translation>导入数据</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="142"/>
        <source>detect</source>
        <translation>自动识别</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="154"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="178"/>
        <location filename="../../bertstudio/ui/import_dialog.py" line="451"/>
        <source>Columns (what each column of the file holds)</source>
        <translation>列(文件每一列的内容)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="183"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="183"/>
        <source>Second text</source>
        <translation>第二段文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="183"/>
        <source>Label / score</source>
        <translation>标签 / 分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="184"/>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="184"/>
        <source>Tags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="184"/>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="185"/>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="185"/>
        <source>Answers</source>
        <translation>答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="185"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="185"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="133"/>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="73"/>
        <source>A table (CSV, TSV) cannot hold a tagging project&apos;s examples: import CoNLL (one word per line, a blank line between sentences), JSON Lines with a tokens list, or plain text (.txt) with one sentence per line.</source>
        <translation>表格（CSV、TSV）无法容纳词元标注项目的样例：请导入 CoNLL（每行一个词，句子之间空一行）、带 tokens 列表的 JSON Lines，或每行一句的纯文本（.txt）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="76"/>
        <source>A table (CSV, TSV) cannot hold a question answering project&apos;s examples: import SQuAD JSON, or JSON Lines with context, question and answers.</source>
        <translation>表格（CSV、TSV）无法容纳问答项目的样例：请导入 SQuAD JSON，或带 context、question 和 answers 的 JSON Lines。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="148"/>
        <source>First row holds the column &amp;names</source>
        <translation>第一行是列名(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="165"/>
        <source>&amp;File:</source>
        <translation>文件(&amp;F):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="167"/>
        <source>Fo&amp;rmat:</source>
        <translation>格式(&amp;R):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="169"/>
        <source>&amp;GLUE preset:</source>
        <translation>GLUE 预设(&amp;G):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="170"/>
        <source>Into &amp;split:</source>
        <translation>加入数据划分(&amp;S):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="221"/>
        <source>&amp;Import</source>
        <translation>导入(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="228"/>
        <source>First rows:</source>
        <translation>前几行:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="275"/>
        <source>Data files (*.tsv *.csv *.txt *.jsonl *.json *.conll *.conllu *.iob *.bio);;All files (*)</source>
        <translation>数据文件 (*.tsv *.csv *.txt *.jsonl *.json *.conll *.conllu *.iob *.bio);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="342"/>
        <source>— choose —</source>
        <translation>— 请选择 —</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="366"/>
        <source>Format: %1 · this file looks like %2 data</source>
        <translation>格式:%1 · 此文件看起来是“%2”数据</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="370"/>
        <source>choose the file column for: %1</source>
        <translation>请为以下内容选择文件列：%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="376"/>
        <source>This file holds %1 examples, but this project&apos;s task is %2.</source>
        <translation>此文件包含“%1”样例，但本项目的任务是“%2”。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="390"/>
        <source>A table (CSV, TSV) cannot hold this project&apos;s examples: choose another format.</source>
        <translation>表格（CSV、TSV）无法容纳此项目的样例：请选择其他格式。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="416"/>
        <location filename="../../bertstudio/ui/import_dialog.py" line="432"/>
        <source>column %1</source>
        <translation>第 %1 列</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="420"/>
        <source>%1 (e.g. %2)</source>
        <translation>%1（例如 %2）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="436"/>
        <source>Not imported: %1. The project keeps only the columns above; exporting over this file later writes only those.</source>
        <translation>不导入：%1。项目只保留上面这些列；以后导出覆盖此文件时也只写这些列。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="450"/>
        <source>Columns (set by the format or preset)</source>
        <translation>列(由格式或预设决定)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="457"/>
        <source>The file cannot be read: %1</source>
        <translation>无法读取此文件：%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="459"/>
        <source>Save it as UTF-8 (in Excel: Save As, CSV UTF-8; in Notepad: Save As, Encoding UTF-8) and import it again.</source>
        <translation>请将其另存为 UTF-8 编码（Excel：另存为“CSV UTF-8”；记事本：另存为时编码选 UTF-8），然后重新导入。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="514"/>
        <source>Choose the file column for: %1</source>
        <translation>请选择对应的文件列:%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="539"/>
        <source>Reading the file…</source>
        <translation>正在读取文件…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="575"/>
        <source>The file&apos;s labels differ from the project&apos;s: choose what each becomes, then Import.</source>
        <translation>文件中的标签与项目的不同:请为每个标签选择对应的项目标签，然后点击“导入”。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="599"/>
        <source>The file&apos;s labels differ from the project&apos;s: choose what %1 become(s), then Import.</source>
        <translation>文件的标签与项目的不同：请选择 %1 对应什么，然后导入。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="601"/>
        <source>Every label of the file has a place: Import when ready.</source>
        <translation>文件的每个标签都已有对应：准备好后即可导入。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="617"/>
        <source>Choose what these labels become: %1</source>
        <translation>请为这些标签选择对应的项目标签:%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="634"/>
        <source>Every row of the file is already in %1: nothing to import.</source>
        <translation>文件的每一行都已在 %1 中：没有可导入的内容。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="674"/>
        <source>Rows already in the project</source>
        <translation>项目中已有的行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="675"/>
        <source>%1 of the file&apos;s %2 rows repeat examples already in %3.</source>
        <translation>文件的 %2 行中有 %1 行与 %3 中已有的样本重复。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="679"/>
        <source>Skipping them keeps the project&apos;s rows and labels as they are; importing all adds the copies as new rows.</source>
        <translation>跳过它们会保持项目的行和标签不变；全部导入会把这些副本作为新行加入。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="682"/>
        <source>%1 of them carry another label than the project&apos;s copy. </source>
        <translation>其中 %1 行的标签与项目中的副本不同。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="685"/>
        <source>Skip the repeats</source>
        <translation>跳过重复行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="687"/>
        <source>Import all</source>
        <translation>全部导入</translation>
    </message>
</context>
<context>
    <name>KindEditor</name>
    <message>
        <location filename="../../bertstudio/ui/editors/base.py" line="40"/>
        <source>(none)</source>
        <translation>(无)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/base.py" line="162"/>
        <source>Key %1 sets nothing: the labels are on keys 1-%2</source>
        <translation>按键 %1 没有对应的标签：标签在按键 1-%2 上</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/base.py" line="217"/>
        <source>Every example of this split is labelled.</source>
        <translation>此数据划分中的样例已全部标注。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/base.py" line="267"/>
        <source>{split} row {row}: gold changed (Ctrl+Z undoes)</source>
        <translation>{split} 第 {row} 行：标准答案已更改（Ctrl+Z 可撤销）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/base.py" line="268"/>
        <source>{split} row {row}: {old} → {new} (Ctrl+Z undoes)</source>
        <translation>{split} 第 {row} 行：{old} → {new}（Ctrl+Z 可撤销）</translation>
    </message>
</context>
<context>
    <name>LabelLegend</name>
    <message>
        <location filename="../../bertstudio/ui/editors/legend.py" line="78"/>
        <source>Press %1 or click to apply &apos;%2&apos;</source>
        <translation>按 %1 或单击以应用“%2”</translation>
    </message>
</context>
<context>
    <name>LabelMappingBox</name>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="35"/>
        <source>Labels (what each label of the file becomes)</source>
        <translation>标签(文件中的每个标签对应到什么)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="44"/>
        <source>Add the rest as new classes</source>
        <translation>其余全部作为新类别添加</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="46"/>
        <source>Leave the rest unlabelled</source>
        <translation>其余全部保持未标注</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="70"/>
        <source>The file&apos;s labels are not all labels of this project (%1). Choose what each one becomes:</source>
        <translation>文件中的标签并不都是此项目的标签(%1)。请为每个标签选择对应项:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="78"/>
        <source>— choose —</source>
        <translation>— 请选择 —</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="81"/>
        <source>add “%1” as a new class</source>
        <translation>将“%1”添加为新类别</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="83"/>
        <source>leave unlabelled</source>
        <translation>保持未标注</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="137"/>
        <source>%1 value(s) become project labels</source>
        <translation>%1 个值对应到项目标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="139"/>
        <source>%1 new class(es) will be added</source>
        <translation>将添加 %1 个新类别</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="141"/>
        <source>%1 row(s) stay unlabelled</source>
        <translation>%1 行保持未标注</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="143"/>
        <source>choose for: %1</source>
        <translation>请选择对应项:%1</translation>
    </message>
</context>
<context>
    <name>LabelPage</name>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="81"/>
        <source>%v / %m labelled</source>
        <translation>已标注 %v / %m</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="83"/>
        <source>Label &amp;set…</source>
        <translation>标签集(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="90"/>
        <source>S&amp;plit:</source>
        <translation>数据划分(&amp;P):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="101"/>
        <source>&amp;Review suspected errors…</source>
        <translation>复查疑似错误(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="189"/>
        <source>Label keys go to this example (framed).</source>
        <translation>标注按键作用于此样例（有边框）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="191"/>
        <source>Label keys are off: click the example or press %1 to label with keys.</source>
        <translation>标注按键未生效：点击样例或按 %1 即可用按键标注。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="195"/>
        <source>Label keys are off: click the example to label with keys.</source>
        <translation>标注按键未生效：点击样例即可用按键标注。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="218"/>
        <source>The finder looks for labels from a label set that a model disagrees with; this project&apos;s gold values (scores or answers) have no label set</source>
        <translation>查找器寻找模型不认同的、来自标签集的标签；本项目的标准答案（评分或答案）没有标签集</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="275"/>
        <source>Change evaluation gold?</source>
        <translation>更改评估用的标准答案？</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="276"/>
        <source>Change the gold of a %1 row? Runs are scored against it.</source>
        <translation>更改 %1 中一行的标准答案？运行的评分以它为准。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="279"/>
        <source>Asked once per opened project: later changes of dev and test gold are noted in the status bar.</source>
        <translation>每次打开项目只询问一次：之后对 dev 和 test 标准答案的更改会在状态栏中注明。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="280"/>
        <source>Change gold</source>
        <translation>更改标准答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="301"/>
        <source>Every example of this split is labelled.</source>
        <translation>此数据划分中的样例已全部标注。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="341"/>
        <source>The labelling assistant works on the train split.</source>
        <translation>标注助手作用于训练集划分。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="345"/>
        <source>%1 was removed: Next now fills the rarest label</source>
        <translation>%1 已被删除:“下一个”现在补充最少的标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="374"/>
        <source>example %1 of %2</source>
        <translation>第 %1 个样例，共 %2 个</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="375"/>
        <source>no examples</source>
        <translation>没有样例</translation>
    </message>
</context>
<context>
    <name>LabelPicker</name>
    <message>
        <location filename="../../bertstudio/ui/editors/label_picker.py" line="116"/>
        <source>Type part of a label&apos;s name</source>
        <translation>输入标签名的一部分</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_picker.py" line="122"/>
        <source>↑ ↓ choose · Enter applies · Esc closes</source>
        <translation>↑ ↓ 选择 · Enter 应用 · Esc 关闭</translation>
    </message>
</context>
<context>
    <name>LabelSetDialog</name>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="136"/>
        <source>Label set</source>
        <translation>标签集</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="142"/>
        <source>Labels</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="146"/>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="147"/>
        <source>Filter labels</source>
        <translation>筛选标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="158"/>
        <source>&amp;Add…</source>
        <translation>添加(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="159"/>
        <source>Re&amp;name…</source>
        <translation>重命名(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="160"/>
        <source>Co&amp;lour…</source>
        <translation>颜色(&amp;L)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="161"/>
        <source>&amp;Remove</source>
        <translation>删除(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="170"/>
        <source>Order = key order (1-9) and label ids of the model.</source>
        <translation>顺序 = 按键顺序(1-9)，也是模型中的标签编号。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="272"/>
        <source>Add label</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="272"/>
        <source>Name of the new label:</source>
        <translation>新标签的名称:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="283"/>
        <source>Rename entity type</source>
        <translation>重命名实体类型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="284"/>
        <source>New name of the entity type %1 (%2 and %3 are renamed together):</source>
        <translation>实体类型 %1 的新名称(%2 和 %3 一起重命名)：</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="289"/>
        <source>Rename label</source>
        <translation>重命名标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="289"/>
        <source>New name:</source>
        <translation>新名称:</translation>
    </message>
</context>
<context>
    <name>LearningCurvePanel</name>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="64"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="66"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="70"/>
        <source>Learning curve progress</source>
        <translation>学习曲线进度</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="79"/>
        <source>Learning curve plot</source>
        <translation>学习曲线图</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="80"/>
        <source>Each run&apos;s score against its labelled training rows, and the fitted curve: the text below says what it forecasts</source>
        <translation>每次运行的得分与其已标注训练行数的关系，以及拟合的曲线：下方文字说明它的预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="84"/>
        <source>labelled training rows</source>
        <translation>已标注的训练行数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="88"/>
        <source>one run</source>
        <translation>单次运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="90"/>
        <source>Trains the current settings on {f} of the labelled rows, {n} seeds each, and fits a power law to say what more labels would give.</source>
        <translation>用当前设置在已标注行的 {f} 上训练，每种比例跑 {n} 个随机种子，并拟合幂律曲线，估计更多标注能带来多少提升。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="127"/>
        <source>metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="157"/>
        <source>Stopping after the current step…</source>
        <translation>将在当前步结束后停止…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="158"/>
        <source>Cancelling: the curve stops before its first run…</source>
        <translation>正在取消：学习曲线将在第一次运行之前停止…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="198"/>
        <source>Warning: {m}</source>
        <translation>警告：{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="203"/>
        <source>The learning curve stopped: {m}</source>
        <translation>学习曲线已停止:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="208"/>
        <source>Learning curve cancelled before its first run: nothing was trained.</source>
        <translation>学习曲线在第一次运行之前已取消：没有训练任何内容。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="213"/>
        <source>{m} (x100)</source>
        <translation>{m}（x100）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/learning_curve.py" line="216"/>
        <source>Cancelled after %n run(s).</source>
        <translation>
            <numerusform>已在 %n 次运行后取消。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/learning_curve.py" line="219"/>
        <source>%n run(s) done.</source>
        <translation>
            <numerusform>已完成 %n 次运行。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="239"/>
        <source>mean over seeds</source>
        <translation>各随机种子的平均值</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="248"/>
        <source>power-law fit</source>
        <translation>幂律拟合</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="260"/>
        <source>The training split has no labelled rows: label some training examples first.</source>
        <translation>训练集没有已标注的行：请先标注一些训练样例。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="262"/>
        <source>Too few labelled rows ({rows}) to hold some out for evaluation: add a dev split, or label at least {least} training rows.</source>
        <translation>已标注的行太少（{rows} 行），无法留出一部分用于评估：请添加验证集，或至少标注 {least} 个训练行。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/learning_curve.py" line="265"/>
        <source>The labelled training rows hold %n class(es): label rows of at least 2 classes.</source>
        <translation>
            <numerusform>已标注的训练行只有 %n 个类别：请标注至少 2 个类别的行。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="268"/>
        <source>Every share of {rows:,} rows is smaller than the {k} classes: label at least {k} rows.</source>
        <translation>{rows:,} 行的每个比例都少于 {k} 个类别：请至少标注 {k} 行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="276"/>
        <source>No dev split: {held:,} of {rows:,} labelled training rows are held out for evaluation.</source>
        <translation>没有验证集：{rows:,} 个已标注训练行中留出 {held:,} 行用于评估。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="283"/>
        <source>Shares with fewer rows than the {k} classes are left out: {shares}. The curve starts at {n:,} rows.</source>
        <translation>行数少于 {k} 个类别的比例已略去：{shares}。曲线从 {n:,} 行开始。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="300"/>
        <source>Cancelled: the curve stopped at {n:,} of {total:,} labelled rows, where the {m} is {now} ({k} of {s} seeds run). No forecast from an unfinished curve.</source>
        <translation>已取消：曲线停在 {total:,} 行已标注数据中的 {n:,} 行，此时 {m} 为 {now}（已运行 {s} 个随机种子中的 {k} 个）。未完成的曲线不做预测。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="304"/>
        <source>Cancelled before the first run ended.</source>
        <translation>在第一次运行结束前已取消。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="306"/>
        <source>Too few points for a fit: runs at two or more sizes are needed.</source>
        <translation>数据点太少，无法拟合:需要在两种或更多数据量下的运行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="309"/>
        <source>With {n:,} labelled rows the {m} is {now} (mean of {k} seeds). No clear trend yet: the fit cannot tell how much more labels would help.</source>
        <translation>使用 {n:,} 行已标注数据时，{m} 为 {now}（{k} 个随机种子的平均值）。尚无明显趋势：拟合无法判断更多标注能带来多少提升。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="316"/>
        <source>With {n:,} labelled rows the {m} is {now} (mean of {k} seeds). Doubling to {n2:,} rows is expected to give {pred} ({d} points; 95% range {lo} to {hi}).</source>
        <translation>使用 {n:,} 行已标注数据时，{m} 为 {now}（{k} 个随机种子的平均值）。翻倍到 {n2:,} 行预计可达到 {pred}（{d} 个百分点；95% 区间为 {lo} 到 {hi}）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="327"/>
        <source>Answering the same label to every evaluation row scores {base}: the runs are no better than that yet.</source>
        <translation>对每个评估行都回答同一个标签可得 {base}：这些运行目前还不比它好。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="330"/>
        <source>Runs at three or more sizes are needed to see one.</source>
        <translation>需要在三种或更多数据量下运行才能看出趋势。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="331"/>
        <source>The scores do not rise clearly beyond the spread between seeds.</source>
        <translation>分数的上升没有明显超出随机种子之间的差异。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="338"/>
        <source>{n:,} rows: {method}, batch {batch} x {epochs:g} epochs</source>
        <translation>{n:,} 行：{method}，批大小 {batch} x {epochs:g} 轮</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="340"/>
        <source>Automatic chose the settings for each share&apos;s own rows ({shares}).</source>
        <translation>“自动”按每个比例自身的行数选择了设置（{shares}）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="346"/>
        <source>Done.</source>
        <translation>完成。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="347"/>
        <source>Run {i} of {n}: {size:,} labelled rows, seed {seed}</source>
        <translation>第 {i} 次运行（共 {n} 次）：{size:,} 行已标注数据，随机种子 {seed}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="359"/>
        <source>Learning curve</source>
        <translation>学习曲线</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="54"/>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="55"/>
        <source>Label</source>
        <translation>标注</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="56"/>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="57"/>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="58"/>
        <source>Playground</source>
        <translation>试用</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="59"/>
        <source>Runs</source>
        <translation>运行记录</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="60"/>
        <source>GLUE scoreboard</source>
        <translation>GLUE 计分板</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="221"/>
        <source>Resume run</source>
        <translation>继续运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="303"/>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="368"/>
        <location filename="../../bertstudio/ui/main_window.py" line="380"/>
        <source>Cannot open the project</source>
        <translation>无法打开项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="385"/>
        <source>Open read-only</source>
        <translation>以只读方式打开</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="396"/>
        <source>Project repaired on open: %1</source>
        <translation>打开时已修复项目:%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="397"/>
        <source>Project recovered</source>
        <translation>项目已恢复</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="398"/>
        <source>Opening the project repaired it:</source>
        <translation>打开项目时已修复:</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/main_window.py" line="405"/>
        <source>…and %n more (Show Details…)</source>
        <translation>
            <numerusform>……另有 %n 条（见“显示详细信息…”）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="421"/>
        <source>Saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="507"/>
        <source>Could not save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="569"/>
        <source>%1 (%2 page)</source>
        <translation>%1（%2页）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="663"/>
        <source>%1, read-only</source>
        <translation>%1，只读</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="720"/>
        <source>Stopping the training run: the project closes (and the next one opens) once it has stopped.</source>
        <translation>正在停止训练运行：运行停止后，项目将关闭（并打开下一个项目）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="722"/>
        <source>Stopping the learning curve: the project closes (and the next one opens) once it has stopped.</source>
        <translation>正在停止学习曲线：学习曲线停止后，项目将关闭（并打开下一个项目）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="742"/>
        <source>A new run started: the project stays open (close it again to leave).</source>
        <translation>新的运行已开始：项目保持打开（要离开，请再次关闭它）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="766"/>
        <source>A push to the Hugging Face Hub is in progress: quitting cancels it if its upload has not begun; an upload already under way goes on, and the app waits for it before it quits (about 90 seconds at most: an upload still running then is cut off).</source>
        <translation>正在推送到 Hugging Face Hub：如果上传尚未开始，退出会取消推送；已经开始的上传会继续，应用会等它完成后再退出（最多约 90 秒：到时仍在进行的上传会被中断）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="770"/>
        <source>An ONNX export is in progress: quitting stops it.</source>
        <translation>正在导出 ONNX:退出会停止导出。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="771"/>
        <source>Quit now?</source>
        <translation>现在退出?</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="771"/>
        <source>Quit anyway?</source>
        <translation>仍要退出吗?</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="152"/>
        <source>Run exported to %1</source>
        <translation>运行已导出到 %1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="343"/>
        <source>Still read-only: the project is still open in another bertstudio window. Once that window has closed it, File &gt; Open project on this folder makes it writable here.</source>
        <translation>仍为只读：该项目仍在另一个 bertstudio 窗口中打开。等那个窗口关闭它后，对此文件夹使用“文件 &gt; 打开项目”即可在此编辑。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="347"/>
        <source>Still read-only: this folder or its files cannot be written here (a read-only disk or share, or no permission to write).</source>
        <translation>仍为只读：此文件夹或其中的文件无法在此写入（只读磁盘或共享，或没有写入权限）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="371"/>
        <source>Project folder: %1</source>
        <translation>项目文件夹：%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="373"/>
        <source>Process id of the other bertstudio: %1</source>
        <translation>另一个 bertstudio 的进程号：%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="382"/>
        <source>Open it read-only here too? You can browse, predict and compare; labels and runs cannot be saved. Once the other window has closed it, File &gt; Open project makes it writable here.</source>
        <translation>也在此以只读方式打开吗？可以浏览、预测和比较；标注和运行无法保存。等另一个窗口关闭它后，使用“文件 &gt; 打开项目”即可在此编辑。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="467"/>
        <source>Imported %1 into %2</source>
        <translation>已导入 %1到 %2</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="469"/>
        <source>Imported %1 into %2; the pages moved to %3, where rows wait for labels</source>
        <translation>已导入 %1到 %2；各页面已转到 %3，那里还有待标注的行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="471"/>
        <source>Imported %1 into %2; the pages stay on %3, where rows wait for labels</source>
        <translation>已导入 %1到 %2；各页面仍停在 %3，那里还有待标注的行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="473"/>
        <source>Imported %1 into %2; the pages stay on %3</source>
        <translation>已导入 %1到 %2；各页面仍停在 %3</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="586"/>
        <source>No project</source>
        <translation>没有项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="586"/>
        <source>Create or open a project first.</source>
        <translation>请先新建或打开一个项目。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="652"/>
        <source>No project open</source>
        <translation>未打开项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="660"/>
        <source>Project: %1 (%2)</source>
        <translation>项目:%1(%2)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="665"/>
        <source>Split: %1</source>
        <translation>数据划分:%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="666"/>
        <source>%1 labelled / %2</source>
        <translation>已标注 %1 / %2</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="747"/>
        <source>A training run is in progress on this project. Stop it and close the project?</source>
        <translation>此项目正在进行训练。要停止训练并关闭项目吗？</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="748"/>
        <source>A learning curve is being computed on this project. Stop it and close the project?</source>
        <translation>此项目正在计算学习曲线。要停止计算并关闭项目吗？</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="749"/>
        <location filename="../../bertstudio/ui/main_window.py" line="757"/>
        <source>Training is running</source>
        <translation>正在训练</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="758"/>
        <source>A training run is in progress. Stop it and quit?</source>
        <translation>训练正在进行。停止训练并退出吗？</translation>
    </message>
</context>
<context>
    <name>MetricsPanel</name>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="63"/>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="63"/>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="163"/>
        <source>Score (x100)</source>
        <translation>分数(×100)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="74"/>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="246"/>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="249"/>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="74"/>
        <source>Precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="74"/>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="75"/>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="75"/>
        <source>Support</source>
        <translation>支持数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="89"/>
        <source>scikit-learn&apos;s classification report, x100; support counts gold examples, tokens or entities</source>
        <translation>scikit-learn 的分类报告，×100；支持数统计的是标准答案中的样例、词元或实体数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="148"/>
        <source>From the best evaluation, at step {b}: the run was cancelled at step {n} and kept those weights, as no later evaluation scored higher.</source>
        <translation>来自最佳评估（第 {b} 步）：运行在第 {n} 步被取消，并保留了那时的权重，因为之后的评估没有更高的得分。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="152"/>
        <source>From the best evaluation, at step {b} of {n}: the run kept those weights, as no later evaluation scored higher.</source>
        <translation>来自最佳的一次评估，在第 {b} 步（共 {n} 步）：运行保留了那时的权重，因为之后的评估都没有更高。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="157"/>
        <source>These scores were selected on this evaluation set; the last evaluation scored {scores}.</source>
        <translation>这些分数是在这个评估集上选出的；最后一次评估的分数为 {scores}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="163"/>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="167"/>
        <source>%1 (x100)</source>
        <translation>%1(×100)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="168"/>
        <source>official metric of this task</source>
        <translation>此任务的官方指标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="177"/>
        <source>The model answers “{label}” for {n} of {rows} evaluation rows (the gold: {share}%).</source>
        <translation>模型对 {rows} 个评估行中的 {n} 个都回答“{label}”（标准答案中占 {share}%）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="185"/>
        <source>The model predicts one value for every example: correlations are undefined (shown as 0).</source>
        <translation>模型对每个样例都预测同一个值：相关系数无定义（显示为 0）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="187"/>
        <source>Every example has the same gold score: correlations are undefined (shown as 0).</source>
        <translation>每个样例的标准答案分数都相同：相关系数无定义（显示为 0）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="196"/>
        <source>Scored on only {n} gold entities: one entity more or less found moves a score by about {p:.1f} points, so small differences between runs are noise.</source>
        <translation>仅在 {n} 个标准实体上评分：多找到或少找到一个实体，分数就会变化约 {p:.1f} 分，因此运行之间的小差异只是噪声。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="200"/>
        <source>Scored on only {n} words: one word more or less right moves a score by about {p:.1f} points, so small differences between runs are noise.</source>
        <translation>仅在 {n} 个词上评分：多对或少对一个词，分数就会变化约 {p:.1f} 分，因此运行之间的小差异只是噪声。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="206"/>
        <source>Scored on one example only: the score can only be all or nothing, and says little.</source>
        <translation>仅在一个样本上评分：分数只能是全对或全错，说明不了什么。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="209"/>
        <source>Scored on only {n} examples: one example more or less right moves a score by about {p} points, so small differences between runs are noise.</source>
        <translation>仅在 {n} 个样本上评分：多对或少对一个样本，分数就会变化约 {p} 分，因此运行之间的小差异只是噪声。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="218"/>
        <source>Accuracy&apos;s 95% interval: {a} to {b}.</source>
        <translation>准确率的 95% 区间：{a} 到 {b}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="230"/>
        <source>Scored on only {n} examples: a correlation from so few is uncertain (Pearson&apos;s 95% interval: {a} to {b}), so small differences between runs are noise.</source>
        <translation>仅在 {n} 个样例上评分：这么少的样例算出的相关系数并不确定（Pearson 的 95% 区间：{a} 到 {b}），因此运行之间的小差异只是噪声。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="299"/>
        <source>and {n} more</source>
        <translation>以及另外 {n} 个</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="301"/>
        <source>over the {n} classes with gold rows or predictions in this split ({names}); the {m} shown as — are left out</source>
        <translation>范围是本划分中有标准答案行或被预测过的 {n} 个类别（{names}）；显示为 — 的 {m} 个类别不计入</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="304"/>
        <source>over all {n} classes above</source>
        <translation>范围是上面全部 {n} 个类别</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="305"/>
        <source>Unweighted mean {over}.</source>
        <translation>未加权平均，{over}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="306"/>
        <source>Mean weighted by support {over}.</source>
        <translation>按支持数加权的平均，{over}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="227"/>
        <source>Scored on only {n} examples: too few for a correlation to say anything.</source>
        <translation>仅在 {n} 个样例上评分：样例太少，相关系数说明不了什么。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="246"/>
        <source>Per class (support: examples)</source>
        <translation>按类别(支持数:样例)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="247"/>
        <source>Per tag (support: tokens)</source>
        <translation>按标记(支持数:词元)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="247"/>
        <source>Tag</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="248"/>
        <source>Per entity type (support: entities)</source>
        <translation>按实体类型(支持数:实体)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="248"/>
        <source>Entity type</source>
        <translation>实体类型</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/metrics_panel.py" line="255"/>
        <source>%n class(es) have no rows in this split and were never predicted: listed last as —, left out of the averages.</source>
        <translation>
            <numerusform>%n 个类别在本划分中没有行，也从未被预测：列在最后，显示为 —，不计入平均值。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="258"/>
        <source>No gold rows and no predictions of this class in this split: precision, recall and F1 are undefined, and the averages leave it out.</source>
        <translation>本划分中此类别既没有标准答案行也没有预测：精确率、召回率和 F1 无定义，平均值不计入此类别。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="260"/>
        <source>macro avg</source>
        <translation>宏平均</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="260"/>
        <source>weighted avg</source>
        <translation>加权平均</translation>
    </message>
</context>
<context>
    <name>NewProjectDialog</name>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="43"/>
        <source>Single sentence classification</source>
        <translation>单句分类</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="44"/>
        <source>Sentence pair classification</source>
        <translation>句对分类</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="45"/>
        <source>Score (regression): one text or a pair</source>
        <translation>打分（回归）：单句或句对</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="46"/>
        <source>Token tagging (entities, POS)</source>
        <translation>词元标注(实体、词性)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="47"/>
        <source>Extractive question answering</source>
        <translation>抽取式问答</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="79"/>
        <source>New project</source>
        <translation>新建项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="97"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="105"/>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="166"/>
        <source>e.g. negative, positive</source>
        <translation>例如 negative, positive</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="85"/>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="106"/>
        <source>&amp;Entity spans (BIO tags: O, B-X, I-X)</source>
        <translation>实体片段(BIO 标记:O、B-X、I-X)(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="117"/>
        <source>C&amp;reate</source>
        <translation>创建(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="121"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="122"/>
        <source>&amp;Folder:</source>
        <translation>文件夹(&amp;F):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="124"/>
        <source>From a &amp;GLUE preset:</source>
        <translation>使用 GLUE 预设(&amp;G):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="125"/>
        <source>&amp;Task:</source>
        <translation>任务(&amp;T):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="126"/>
        <source>&amp;Labels:</source>
        <translation>标签(&amp;L):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="148"/>
        <source>%1 is imported once the project is made; labels found in it can be added then.</source>
        <translation>项目创建后即导入 %1；文件中的标签届时可以加入。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="166"/>
        <source>entity types, e.g. PER, LOC, ORG</source>
        <translation>实体类型，例如 PER, LOC, ORG</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="181"/>
        <source>Folder for the new project</source>
        <translation>新项目的文件夹</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="193"/>
        <source>Give the project a name and a folder.</source>
        <translation>请为项目指定名称和文件夹。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="197"/>
        <source>Give the folder as a full path (such as {example}), or choose it with Browse….</source>
        <translation>请给出文件夹的完整路径(例如 {example})，或用“浏览…”选择。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="210"/>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="226"/>
        <source>Cannot create the project in {folder}: {reason}</source>
        <translation>无法在 {folder} 中创建项目:{reason}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="239"/>
        <source>{path} is a file, not a folder: choose a folder for the project.</source>
        <translation>{path} 是文件而不是文件夹:请为项目选择一个文件夹。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="240"/>
        <source>{path} is a file, so no folder can be made inside it: choose another place.</source>
        <translation>{path} 是文件，无法在其中创建文件夹:请选择其他位置。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="245"/>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="246"/>
        <source>no permission to write there</source>
        <translation>没有在此处写入的权限</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="247"/>
        <source>the disk is read-only</source>
        <translation>磁盘是只读的</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="248"/>
        <source>the disk is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="249"/>
        <source>a part of the path is a file, not a folder</source>
        <translation>路径中的某一部分是文件而不是文件夹</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="250"/>
        <source>the path is too long</source>
        <translation>路径太长</translation>
    </message>
</context>
<context>
    <name>PlaygroundPage</name>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="140"/>
        <source>&amp;Predict</source>
        <translation>预测(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="148"/>
        <source>Prediction</source>
        <translation>预测结果</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="149"/>
        <source>Notes on the prediction</source>
        <translation>关于预测结果的说明</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="157"/>
        <source>Model of run</source>
        <translation>所用运行的模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="171"/>
        <source>Sentence</source>
        <translation>句子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="171"/>
        <source>First sentence</source>
        <translation>第一句</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="172"/>
        <source>Second sentence</source>
        <translation>第二句</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="173"/>
        <source>Tokens (separated by spaces)</source>
        <translation>词元(以空格分隔)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="174"/>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="175"/>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="223"/>
        <source>{name} (not in this project)</source>
        <translation>{name}(不属于此项目)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="224"/>
        <source>{name} (latest)</source>
        <translation>{name}(最新)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="225"/>
        <source>{name} (not finished)</source>
        <translation>{name}（未完成）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="277"/>
        <source>Train a model first: the Playground uses a finished or cancelled run&apos;s model.</source>
        <translation>请先训练模型:“试用”页使用已完成或已取消的运行所保存的模型。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="356"/>
        <source>Type the {boxes} to predict.</source>
        <translation>请先输入{boxes}再预测。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="384"/>
        <source>Starting up…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="385"/>
        <source>Predicting…</source>
        <translation>预测中…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="385"/>
        <source>Loading the model…</source>
        <translation>正在加载模型…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="394"/>
        <source>Only the first {read} of {total} tokens were read: the model was trained on inputs of at most {read} tokens, and the rest does not count in this prediction.</source>
        <translation>只读取了 {total} 个词元中的前 {read} 个：模型训练时的输入最多 {read} 个词元，其余部分不计入本次预测。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="399"/>
        <source>Scored the first sentence alone: a model trained on sentence pairs needs the second sentence too.</source>
        <translation>只对第一个句子评分：在句子对上训练的模型还需要第二个句子。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/playground.py" line="403"/>
        <source>%n word(s) tokenise to nothing and were not read (marked {mark}): the model gives them no tag.</source>
        <translation>
            <numerusform>%n 个词切分后没有任何词元，未被读取（标为 {mark}）：模型没有给它们标签。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="407"/>
        <source>{words} read as one word: separate words with spaces.</source>
        <translation>{words} 被读作一个词：请用空格分隔各词。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="422"/>
        <source>this run&apos;s model folder is gone ({path})</source>
        <translation>此运行的模型文件夹已不存在（{path}）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="425"/>
        <source>Could not predict: {m}</source>
        <translation>无法预测:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="441"/>
        <source>Score</source>
        <translation>分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="446"/>
        <source>Past the top of the {lo:g}-{hi:g} scale the model learned from: read it as {hi:g} (shown unclipped, as evaluation uses it).</source>
        <translation>超出模型所学的 {lo:g}-{hi:g} 分制的上限：可视为 {hi:g}（按评估时的原值显示，未截断）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="449"/>
        <source>Past the bottom of the {lo:g}-{hi:g} scale the model learned from: read it as {lo:g} (shown unclipped, as evaluation uses it).</source>
        <translation>低于模型所学的 {lo:g}-{hi:g} 分制的下限：可视为 {lo:g}（按评估时的原值显示，未截断）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="478"/>
        <source>No answer in the context.</source>
        <translation>上下文中没有答案。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="479"/>
        <source>This model was trained on questions with no answer in their context too (one ticked &quot;No answer in this context&quot; on the Label page makes it so), and it says so where it finds none.</source>
        <translation>这个模型训练时也用了在上下文中没有答案的问题（在标注页勾选一个“此上下文中没有答案”就是如此），所以在找不到答案时会这样说。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="487"/>
        <source>span score (its start and end logits added: not a probability)</source>
        <translation>片段得分（起点与终点 logit 之和，不是概率）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="490"/>
        <source>This model always answers with a span of the context: it was trained with no unanswerable questions, so it cannot say that a question has no answer here.</source>
        <translation>这个模型总会从上下文中给出一个片段作为答案：它训练时没有用过无法回答的问题，所以不会说某个问题在这里没有答案。</translation>
    </message>
</context>
<context>
    <name>PredictionsModel</name>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="65"/>
        <source>Span score</source>
        <translation>片段得分</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="66"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="66"/>
        <source>Gold</source>
        <translation>标准答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="66"/>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="67"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="67"/>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="99"/>
        <source>The answer span&apos;s start + end logit: higher is surer, but it is not a probability</source>
        <translation>答案片段的起点 + 终点 logit：越高越有把握，但它不是概率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="138"/>
        <source>Error: the prediction is not the gold</source>
        <translation>错误：预测与标准答案不同</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="139"/>
        <source>Error: off by %1 or more from the gold</source>
        <translation>错误：与标准答案相差 %1 或更多</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="143"/>
        <source>(example {n} not in the project)</source>
        <translation>(样例 {n} 不在此项目中)</translation>
    </message>
</context>
<context>
    <name>ProjectSession</name>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="217"/>
        <source>Add label {a}</source>
        <translation>添加标签 {a}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="223"/>
        <source>Recolour label {a}</source>
        <translation>更改标签 {a} 的颜色</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="240"/>
        <source>Rename label {a} to {b}</source>
        <translation>将标签 {a} 重命名为 {b}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="242"/>
        <source>Rename entity type {a} to {b}</source>
        <translation>将实体类型 {a} 重命名为 {b}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="280"/>
        <source>{a} and {b} are one entity type, {t}: they are renamed together</source>
        <translation>{a} 和 {b} 属于同一个实体类型 {t}：二者一起重命名</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="282"/>
        <source>a new name starting with {p}; {b} takes the same entity type</source>
        <translation>以 {p} 开头的新名称；{b} 随之改为同一实体类型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="293"/>
        <source>Remove label {a}</source>
        <translation>删除标签 {a}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="418"/>
        <source>Replace the rows of %1</source>
        <translation>替换 %1 的行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="434"/>
        <source>Restore the rows of %1</source>
        <translation>恢复 %1 的行</translation>
    </message>
</context>
<context>
    <name>PushToHubDialog</name>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="193"/>
        <source>Push to Hugging Face Hub</source>
        <translation>推送到 Hugging Face Hub</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="196"/>
        <source>user/model-name</source>
        <translation>用户名/模型名</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="197"/>
        <source>Private repository</source>
        <translation>私有仓库</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="208"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="209"/>
        <source>Repository</source>
        <translation>仓库</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="211"/>
        <source>Token</source>
        <translation>令牌</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="213"/>
        <source>Push</source>
        <translation>推送</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="218"/>
        <source>Uploads the run&apos;s model with a model card (its data, settings and metrics).</source>
        <translation>上传此运行的模型及模型卡片(包括其数据、设置和指标)。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="238"/>
        <source>empty: use the cached Hugging Face login</source>
        <translation>留空:使用已缓存的 Hugging Face 登录信息</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="239"/>
        <source>a write token (no cached login found: `hf auth login`)</source>
        <translation>具有写权限的令牌(未找到已缓存的登录信息:`hf auth login`)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="294"/>
        <source>The upload to {repo} has begun and cannot be stopped. Close this window and let it finish in the background? Its outcome will show in the status bar.</source>
        <translation>上传到 {repo} 已经开始,无法停止。关闭此窗口并让它在后台完成吗?结果会显示在状态栏中。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="297"/>
        <source>A push to {repo} is in progress. Cancel it and close this window? Nothing has been uploaded yet.</source>
        <translation>正在推送到 {repo}。取消推送并关闭此窗口吗?目前还没有上传任何内容。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="299"/>
        <source>Push in progress</source>
        <translation>正在推送</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="308"/>
        <source>Push cancelled: nothing was uploaded, but the repository {repo} was created and is empty.</source>
        <translation>推送已取消：没有上传任何内容，但仓库 {repo} 已创建且为空。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="311"/>
        <source>Push cancelled: nothing was uploaded.</source>
        <translation>推送已取消:没有上传任何内容。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="321"/>
        <source>Uploaded {n} files ({mb} MB) to &lt;a href=&quot;{u}&quot;&gt;{u}&lt;/a&gt;.</source>
        <translation>已上传 {n} 个文件({mb} MB)到 &lt;a href=&quot;{u}&quot;&gt;{u}&lt;/a&gt;。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="325"/>
        <source>Left out: the folder&apos;s README.md (a generated model card went up in its place).</source>
        <translation>未上传：文件夹自己的 README.md（已改为上传生成的模型卡片）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="328"/>
        <source>Left out: {names} (not model files).</source>
        <translation>未上传:{names}(不是模型文件)。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="336"/>
        <source>Not pushed: {m}</source>
        <translation>未推送:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="347"/>
        <source>loading {file} as `bertstudio predict` would and predicting one example</source>
        <translation>正在像 `bertstudio predict` 那样加载 {file} 并预测一个样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="351"/>
        <source>checking which files go up (the model&apos;s own files; no links, no hidden files)</source>
        <translation>正在检查要上传哪些文件（仅模型自己的文件；不含链接和隐藏文件）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="353"/>
        <source>loading the model as `bertstudio predict` would (config, tokenizer, weights) and predicting one example</source>
        <translation>正在像 `bertstudio predict` 那样加载模型（配置、分词器、权重）并预测一个样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="356"/>
        <source>writing the model card</source>
        <translation>正在撰写模型卡片</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="357"/>
        <source>creating the repository</source>
        <translation>正在创建仓库</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="358"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="371"/>
        <source>{names} and {n} more</source>
        <translation>{names} 等另外 {n} 个</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="374"/>
        <source>uploading {count} files ({mb} MB); left out: README.md (a generated model card goes up in its place); {names} (not model files)</source>
        <translation>正在上传 {count} 个文件（{mb} MB）；未上传：README.md（改为上传生成的模型卡片）；{names}（不是模型文件）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="377"/>
        <source>uploading {count} files ({mb} MB); left out: README.md (a generated model card goes up in its place)</source>
        <translation>正在上传 {count} 个文件（{mb} MB）；未上传：README.md（改为上传生成的模型卡片）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="380"/>
        <source>uploading {count} files ({mb} MB); left out: {names} (not model files)</source>
        <translation>正在上传 {count} 个文件（{mb} MB）；未上传：{names}（不是模型文件）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="383"/>
        <source>uploading {count} files ({mb} MB)</source>
        <translation>正在上传 {count} 个文件（{mb} MB）</translation>
    </message>
</context>
<context>
    <name>QAEditor</name>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="88"/>
        <source>Type a new question about this context</source>
        <translation>输入关于此上下文的新问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="89"/>
        <source>Add &amp;question</source>
        <translation>添加问题(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="114"/>
        <source>&amp;No answer in this context (SQuAD v2)</source>
        <translation>此上下文中没有答案(SQuAD v2)(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="117"/>
        <source>&amp;Use selection as answer (Enter)</source>
        <translation>将选中文本作为答案(回车)(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="132"/>
        <source>Questions about this context</source>
        <translation>关于此上下文的问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="157"/>
        <source>(no answer chosen yet: select it in the context)</source>
        <translation>(尚未选择答案:请在上下文中选中它)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="159"/>
        <source>Answer: none</source>
        <translation>答案:无</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="161"/>
        <source>Answer: %1 (character %2)</source>
        <translation>答案:%1(第 %2 个字符)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="220"/>
        <source>The selection holds only spaces: select the words of the answer.</source>
        <translation>所选内容只有空格：请选中答案的文字。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="222"/>
        <source>The selection holds no visible character: select the words of the answer.</source>
        <translation>所选内容没有可见字符：请选中答案的文字。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="227"/>
        <source>Answer row %1 with &apos;%2&apos;</source>
        <translation>将第 %1 行的答案设为“%2”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="252"/>
        <source>Mark row %1 unanswerable</source>
        <translation>将第 %1 行标为无法回答</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="255"/>
        <location filename="../../bertstudio/ui/editors/qa.py" line="294"/>
        <source>Clear the answer of row %1</source>
        <translation>清除第 %1 行的答案</translation>
    </message>
</context>
<context>
    <name>RangeNotes</name>
    <message>
        <location filename="../../bertstudio/ui/spin_range.py" line="74"/>
        <source>{typed} is outside the range of the {setting} ({low} to {high}): it was put back to {value}.</source>
        <translation>{typed} 超出了{setting}的范围（{low} 到 {high}）：已恢复为 {value}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/spin_range.py" line="77"/>
        <source>{typed} could be {a} or {b} (the decimal point here is &apos;{point}&apos;): the {setting} was put back to {value}.</source>
        <translation>{typed} 可以读作 {a}，也可以读作 {b}（这里的小数点是“{point}”）：{setting}已恢复为 {value}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/spin_range.py" line="81"/>
        <source>{typed} has more decimals than the {setting} keeps ({decimals}): it was put back to {value}.</source>
        <translation>{typed} 的小数位数超过了{setting}保留的位数（{decimals}）：已恢复为 {value}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/spin_range.py" line="85"/>
        <source>{typed} is not a whole number, which the {setting} needs: it was put back to {value}.</source>
        <translation>{typed} 不是整数，而{setting}需要整数：已恢复为 {value}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/spin_range.py" line="87"/>
        <source>{typed} is not a number the {setting} reads (the decimal point here is &apos;{point}&apos;): it was put back to {value}.</source>
        <translation>{typed} 不是{setting}能读取的数字（这里的小数点是“{point}”）：已恢复为 {value}。</translation>
    </message>
</context>
<context>
    <name>RegressionEditor</name>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="335"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="337"/>
        <source>Type a score such as 3.7: Enter stores it, an arrow key stores it and moves to the previous or next example</source>
        <translation>输入分数，例如 3.7:按 Enter 保存，按方向键保存并转到上一个或下一个样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="408"/>
        <source>Keys %1 set a whole score; for finer scores drag the slider or type the score in the box (Enter or an arrow key stores it). Scale: %2 to %3.</source>
        <translation>按键 %1 设置整数分数；更精细的分数请拖动滑块或在框中输入（按 Enter 或方向键保存）。分数范围：%2 到 %3。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="490"/>
        <source>set the score with keys %1 or type it in the box</source>
        <translation>用按键 %1 设置分数，或在框中输入</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="503"/>
        <source>%1 is outside the %2 scale %3: not stored</source>
        <translation>%1 超出 %2 的分数范围 %3：未保存</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="508"/>
        <source>%1 is outside the scale %2 of this project&apos;s scores: stored, and the scale is now %3</source>
        <translation>%1 超出本项目分数的范围 %2：已保存，分数范围现为 %3</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="522"/>
        <source>Key %1 sets nothing: keys %2 set whole scores on the scale %3; type other scores in the box</source>
        <translation>按键 %1 不设置任何内容：按键 %2 在范围 %3 内设置整数分数；其他分数请在框中输入</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="438"/>
        <source>(not scored)</source>
        <translation>(未打分)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="438"/>
        <source>(no example)</source>
        <translation>(无样例)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="513"/>
        <source>Score row %1 as %2</source>
        <translation>将第 %1 行打分为 %2</translation>
    </message>
</context>
<context>
    <name>RegressionScatter</name>
    <message>
        <location filename="../../bertstudio/ui/regression_scatter.py" line="29"/>
        <source>Predicted against gold</source>
        <translation>预测值与标准答案对比</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/regression_scatter.py" line="30"/>
        <source>gold score</source>
        <translation>标准答案分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/regression_scatter.py" line="31"/>
        <source>predicted score</source>
        <translation>预测分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/regression_scatter.py" line="41"/>
        <source>One point per example; the dashed line is predicted = gold. Click a point to show its example.</source>
        <translation>每个点代表一个样例；虚线表示预测值 = 标准答案。单击某个点可显示其样例。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/regression_scatter.py" line="45"/>
        <source>gold {g:.2f}, predicted {p:.2f}</source>
        <translation>标准答案 {g:.2f}，预测 {p:.2f}</translation>
    </message>
</context>
<context>
    <name>ResultsFilter</name>
    <message>
        <location filename="../../bertstudio/ui/results_filter.py" line="51"/>
        <source>Words</source>
        <translation>词</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_filter.py" line="53"/>
        <source>Wrong tags</source>
        <translation>错误的标记</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_filter.py" line="78"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_filter.py" line="86"/>
        <source>{k} of {n}: {words}</source>
        <translation>{k} / {n}:{words}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_filter.py" line="91"/>
        <source>word · gold · predicted</source>
        <translation>词 · 标准答案 · 预测</translation>
    </message>
</context>
<context>
    <name>ResultsPage</name>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="364"/>
        <source>Predictions</source>
        <translation>预测结果列表</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="356"/>
        <location filename="../../bertstudio/ui/results_page.py" line="862"/>
        <source>Errors o&amp;nly</source>
        <translation>只看错误(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="386"/>
        <source>Set as &amp;gold</source>
        <translation>设为标准答案(&amp;G)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="388"/>
        <source>Use &amp;prediction as gold</source>
        <translation>采用预测作为标准答案(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="392"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="500"/>
        <source>The folder {run} now holds another run: the results of the run shown there before are no longer shown.</source>
        <translation>文件夹 {run} 现在存放的是另一个运行：之前在此显示的运行的结果不再显示。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="504"/>
        <source>The run {run} is no longer on disk (deleted, moved or renamed): its results are no longer shown.</source>
        <translation>运行 {run} 已不在磁盘上（已删除、移动或重命名）：不再显示它的结果。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="525"/>
        <source>{name} (not in this project)</source>
        <translation>{name}(不属于此项目)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="575"/>
        <source>Reading the predictions of %1…</source>
        <translation>正在读取 %1 的预测…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="597"/>
        <source>Could not read this run&apos;s predictions: %1</source>
        <translation>无法读取此运行的预测：%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="664"/>
        <source>%1 damaged line(s) of this run&apos;s predictions are not shown: %2</source>
        <translation>本次运行的预测中有 %1 行已损坏，未显示：%2</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="673"/>
        <source>This run is still training (step {n}): its model and predictions are saved when it ends.</source>
        <translation>此运行仍在训练（第 {n} 步）：结束时才会保存其模型和预测。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="675"/>
        <source>This run failed at step {n} before it saved its model and predictions.</source>
        <translation>此运行在第 {n} 步失败，尚未保存其模型和预测。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="677"/>
        <source>This run was interrupted at step {n} before it saved its model (its process was closed or crashed).</source>
        <translation>此运行在第 {n} 步被中断，尚未保存其模型（其进程被关闭或崩溃）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="681"/>
        <source>Shown: the predictions of its best checkpoint (checkpoints/best), from the evaluation at step {b}.</source>
        <translation>此处显示：其最佳检查点（checkpoints/best）的预测，来自第 {b} 步的评估。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/results_page.py" line="684"/>
        <source>It evaluated %n time(s) (see its curves on the Runs page), but no checkpoint with predictions is on disk.</source>
        <translation>
            <numerusform>它评估过 %n 次（曲线见“运行”页面），但磁盘上没有带预测的检查点。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="687"/>
        <source>It had not evaluated yet: nothing to show.</source>
        <translation>它尚未评估：没有可显示的内容。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="704"/>
        <source>No project is open. Open or create one (File menu), train a run on the Train page, and its scores, predictions and errors appear here.</source>
        <translation>尚未打开项目。请（通过“文件”菜单）打开或新建一个项目，并在训练页训练一次，其得分、预测和错误会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="707"/>
        <source>This project has no run yet. Train one on the Train page (or open a run folder from the Runs page), and its scores, predictions and errors appear here.</source>
        <translation>此项目还没有运行。请在训练页训练一次（或从运行页打开一个运行文件夹），其得分、预测和错误会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="716"/>
        <source>This run is not one of this project&apos;s runs ({folder}); it is shown for viewing only.</source>
        <translation>此运行不属于此项目({folder})；仅供查看。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="719"/>
        <source>It is a {run} run and this project holds {project} examples, so its rows are not matched to the project&apos;s.</source>
        <translation>这是一次 {run} 运行，而此项目包含 {project} 样例，因此其中的行不会与项目的行对应。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="723"/>
        <source>{joined} of {total} of its rows match this project&apos;s examples (same gold value).</source>
        <translation>它的 {total} 行中有 {joined} 行与此项目的样例对应(标准答案相同)。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="865"/>
        <source>Errors o&amp;nly (off by ≥ %1)</source>
        <translation>仅显示错误（偏差 ≥ %1）(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="866"/>
        <source>A predicted score counts as an error when it is %1 or more from its gold: a tenth of the gold scores&apos; scale</source>
        <translation>预测分数与标准答案相差 %1 或以上即算作错误：即标准答案分数范围的十分之一</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="889"/>
        <source>{shown} of {total} examples</source>
        <translation>{shown} / {total} 个样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="891"/>
        <source>gold {g}, predicted {p}</source>
        <translation>标准答案 {g}，预测 {p}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/results_page.py" line="947"/>
        <source>%n word(s) got no prediction from this run: tag them on the Label page</source>
        <translation>
            <numerusform>%n 个词在这次运行中没有预测:请在“标注”页标注它们</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="949"/>
        <source>The run predicted a label this project no longer has (renamed or removed since the run)</source>
        <translation>该运行预测的标签已不在本项目中（运行之后被重命名或删除）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="984"/>
        <source>{split} row {row}</source>
        <translation>{split} 第 {row} 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="989"/>
        <source>{where}: {n} of {m} tags are now the run&apos;s predictions</source>
        <translation>{where}:{m} 个标签中有 {n} 个已改为这次运行的预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="992"/>
        <source>{where}: the gold value is now the run&apos;s prediction</source>
        <translation>{where}:标注值已改为这次运行的预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="994"/>
        <source>; this run&apos;s scores were computed with the earlier gold</source>
        <translation>;这次运行的分数是按原来的标注计算的</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="995"/>
        <source> (Edit &gt; Undo restores it)</source>
        <translation>(编辑 &gt; 撤销 可恢复)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="1001"/>
        <source>Relabel {split} row {row}</source>
        <translation>重新标注 {split} 的第 {row} 行</translation>
    </message>
</context>
<context>
    <name>ReviewQueue</name>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="121"/>
        <source>Review suspected errors</source>
        <translation>复查疑似错误</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="138"/>
        <location filename="../../bertstudio/ui/review_queue.py" line="242"/>
        <source>Looking for labels the model disagrees with…</source>
        <translation>正在查找模型不认同的标签…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="143"/>
        <source>Quick: the frozen encoder (seconds)</source>
        <translation>快速：冻结的编码器（数秒）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="144"/>
        <source>Thorough: fine-tune the encoder on each of 5 folds (minutes)</source>
        <translation>全面：在 5 折中分别微调编码器（数分钟）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="151"/>
        <source>Check again</source>
        <translation>重新检查</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="156"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="165"/>
        <source>Keep the label (K)</source>
        <translation>保留标签(K)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="166"/>
        <source>Relabel (R)</source>
        <translation>重新标注(R)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="171"/>
        <source>Check with:</source>
        <translation>检查方式：</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="202"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="241"/>
        <source>Fine-tuning the encoder on each fold: this takes minutes…</source>
        <translation>正在每一折上微调编码器：这需要几分钟…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="284"/>
        <source>The check could not run: %1</source>
        <translation>检查无法运行:%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="295"/>
        <source>the model&apos;s probabilities are not numbers (NaN or infinite) for {items}: its training diverged. Check with a model that trains: a run with a lower learning rate, or the Quick method.</source>
        <translation>模型对 {items}给出的概率不是数值（NaN 或无穷大）：其训练发散了。请用能正常训练的模型检查：降低学习率的运行，或“快速”方法。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="300"/>
        <source>too few tagged sentences to cross-validate: tag every word of at least two sentences, with two different tags among them</source>
        <translation>已标注的句子太少，无法交叉验证：请至少把两个句子的每个词都标注好，且其中要有两种不同的标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="302"/>
        <source>too few tagged sentences to cross-validate: tag every word of at least two sentences</source>
        <translation>已标注的句子太少，无法交叉验证：请至少把两个句子的每个词都标注好</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="304"/>
        <source>too few labelled rows to cross-validate: label at least two rows in each of two labels</source>
        <translation>已标注的行太少，无法交叉验证：请在两个标签下各至少标注两行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="310"/>
        <source>Cancelled. Nothing was changed.</source>
        <translation>已取消。没有任何更改。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="316"/>
        <source>The flags below are from the last check.</source>
        <translation>下面的标记来自上一次检查。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="359"/>
        <source>The model agrees with %1% of the given tags, word by word (%2 sentences checked, %3). Treat its flags as questions, not answers: %4 sentences with a suspected error.</source>
        <translation>按词计，模型与 %1% 的现有标签一致(检查了 %2 个句子，%3)。请把它的标记当作疑问而非答案:共 %4 个句子含疑似错误。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="365"/>
        <source>The model agrees with %1% of the given labels (%2 rows checked, %3), but its probabilities fit them no better than the label frequencies alone (p %4): it has not learnt enough to question a label, so none is listed. Label more rows, or choose the thorough check.</source>
        <translation>模型与 %1% 的现有标签一致(检查了 %2 行，%3)，但它的概率对这些标签的拟合并不优于仅凭各标签的频率(p %4):它学到的还不足以质疑任何标签，因此不列出任何一项。请标注更多行，或选择全面检查。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="369"/>
        <source>The model agrees with %1% of the given tags, word by word (%2 sentences checked, %3), but its probabilities fit them no better than the tag frequencies alone (p %4): it has not learnt enough to question a tag, so none is listed. Tag more sentences, or choose the thorough check.</source>
        <translation>按词计，模型与 %1% 的现有标签一致(检查了 %2 个句子，%3)，但它的概率对这些标签的拟合并不优于仅凭各标签的频率(p %4):它学到的还不足以质疑任何标签，因此不列出任何一项。请标注更多句子，或选择全面检查。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="376"/>
        <source>Its probabilities fit the given labels better than the label frequencies alone (p %1).</source>
        <translation>它的概率对现有标签的拟合优于仅凭各标签的频率(p %1)。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/review_queue.py" line="383"/>
        <source>%n labelled row(s) could not be checked (a label with a single example).</source>
        <translation>
            <numerusform>%n 个已标注的行无法检查(该标签只有一个样例)。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="389"/>
        <source>Earlier Keep choices could not be read (%1), so every flag is shown again; the file is kept aside as %2 at the next Keep.</source>
        <translation>无法读取之前的“保留”选择（%1），因此所有标记都会重新显示；下次“保留”时该文件会另存为 %2。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="228"/>
        <source>Run %1: its predictions (the rows it evaluated)</source>
        <translation>运行 %1：它的预测（仅限它评估过的行）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="60"/>
        <source>embedding</source>
        <translation>正在计算文本向量</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="61"/>
        <source>ranking</source>
        <translation>正在排序疑似错误</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="62"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="63"/>
        <source>fold {i} of {n}</source>
        <translation>第 {i} 折（共 {n} 折）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="68"/>
        <source>{line}: step {done} of {total}</source>
        <translation>{line}：第 {done} 步（共 {total} 步）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="73"/>
        <source>{line}, about {n} s left</source>
        <translation>{line}，约剩 {n} 秒</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="74"/>
        <source>{line}, about {n} min left</source>
        <translation>{line}，约剩 {n} 分钟</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="75"/>
        <source>{line}, about {n} h left</source>
        <translation>{line}，约剩 {n} 小时</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="146"/>
        <source>Each labelled row is judged by a model that never saw it. The thorough check fine-tunes the whole encoder five times, so it makes fewer mistakes of its own and more of its flags are real errors; its list puts first the rows the other four models also kept contradicting while they learnt from them. A run&apos;s predictions judge only the rows that run evaluated and never trained on.</source>
        <translation>每个已标注的行都由从未见过它的模型来判断。全面检查会把整个编码器微调五次，因此模型自身的错误更少，标记出的问题中真正的标注错误更多；列表会把另外四个模型在用这些行训练时也一再否定的行排在前面。训练运行的预测只判断该运行评估过、且从未用于训练的行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="294"/>
        <source>1 item</source>
        <translation>1 项</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="294"/>
        <source>{n} items</source>
        <translation>{n} 项</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="346"/>
        <source>No suspected errors to review.</source>
        <translation>没有需要复查的疑似错误。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="353"/>
        <source>%1-fold cross-validation of the fast model</source>
        <translation>快速模型的 %1 折交叉验证</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="354"/>
        <source>%1-fold cross-validation of the fine-tuned encoder</source>
        <translation>微调编码器的 %1 折交叉验证</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="355"/>
        <source>a training run&apos;s predictions</source>
        <translation>一次训练运行的预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="356"/>
        <source>The model agrees with %1% of the given labels (%2 rows checked, %3). Treat its flags as questions, not answers: %4 suspected errors.</source>
        <translation>模型与 %1% 的现有标签一致(检查了 %2 行，%3)。请把它的标记当作疑问而非答案:共 %4 个疑似错误。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="379"/>
        <source>For fewer false alarms, choose the thorough check and press Check again.</source>
        <translation>若想减少误报，请选择全面检查并点击“重新检查”。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="381"/>
        <source>%1 kept earlier are not shown.</source>
        <translation>之前保留的 %1 个不再显示。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="386"/>
        <source>The rows of this split were replaced since this check, so its flags name other examples now and are closed. Press Check again.</source>
        <translation>自这次检查以来，这个划分的行已被替换，标记所指的行号现在是别的样本，因此这些标记已关闭。请按“重新检查”。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="448"/>
        <source>× row %1: the rows were replaced since the check</source>
        <translation>× 第 %1 行：检查之后这些行已被替换</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="450"/>
        <source>× row %1: the label set changed since the check</source>
        <translation>× 第 %1 行：检查之后标签集已改变</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="453"/>
        <source>≠ row %1: %2 at the check, now %3</source>
        <translation>≠ 第 %1 行：检查时为 %2，现在为 %3</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="454"/>
        <location filename="../../bertstudio/ui/review_queue.py" line="490"/>
        <source>unlabelled</source>
        <translation>未标注</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="457"/>
        <source>%1row %2: %3 → %4 (%5%)</source>
        <translation>%1第 %2 行:%3 → %4(%5%)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="471"/>
        <source>Word %1: &lt;b&gt;%2&lt;/b&gt;. </source>
        <translation>第 %1 个词:&lt;b&gt;%2&lt;/b&gt;。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="474"/>
        <source>Given: &lt;b&gt;%1&lt;/b&gt;. Suggested: &lt;b&gt;%2&lt;/b&gt; (probability %3%).</source>
        <translation>现有标签:&lt;b&gt;%1&lt;/b&gt;。建议:&lt;b&gt;%2&lt;/b&gt;(概率 %3%)。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="479"/>
        <source>The rows of this split were replaced since the check, so row %1 is another example now. Press Check again to review the rows as they are.</source>
        <translation>检查之后这个划分的行已被替换，第 %1 行现在是另一个样本。请按“重新检查”来审查现在的行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="483"/>
        <source>The label set changed since the check: %1 is no longer a label, so this flag is closed. Press Check again to review the rows with the labels as they are.</source>
        <translation>检查之后标签集已改变：%1 已不再是标签，因此此标记已关闭。请按“重新检查”，按现在的标签审查这些行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="488"/>
        <source>Changed since the check: now &lt;b&gt;%1&lt;/b&gt;. Your label stands; this flag is closed.</source>
        <translation>检查之后已修改：现在为 &lt;b&gt;%1&lt;/b&gt;。保留你的标签；此标记已关闭。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="492"/>
        <source>Most similar examples labelled &lt;b&gt;%1&lt;/b&gt;:</source>
        <translation>标注为 &lt;b&gt;%1&lt;/b&gt; 的最相似样例:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="495"/>
        <source>row</source>
        <translation>行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="508"/>
        <source>Relabel as %1 (R)</source>
        <translation>重新标注为 %1(R)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="521"/>
        <source>Keep the label of row %1 (%2)</source>
        <translation>保留第 %1 行的标签（%2）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="622"/>
        <source>Could not remember the kept label: %1</source>
        <translation>无法记住保留的标签：%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/review_queue.py" line="546"/>
        <source>Relabel row %1 as %2</source>
        <translation>将第 %1 行重新标注为 %2</translation>
    </message>
</context>
<context>
    <name>RunCompareDialog</name>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="61"/>
        <source>Compare runs: {a} → {b}</source>
        <translation>比较运行:{a} → {b}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="63"/>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="87"/>
        <location filename="../../bertstudio/ui/run_compare.py" line="89"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="87"/>
        <location filename="../../bertstudio/ui/run_compare.py" line="88"/>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="87"/>
        <source>Training loss by step</source>
        <translation>训练损失（按步数）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="88"/>
        <source>examples seen</source>
        <translation>已见样例数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="88"/>
        <source>Training loss by examples seen</source>
        <translation>训练损失（按已见样本数）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="89"/>
        <source>Evaluation</source>
        <translation>评估</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="89"/>
        <location filename="../../bertstudio/ui/run_compare.py" line="222"/>
        <source>metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="92"/>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="97"/>
        <source>Setting</source>
        <translation>设置项</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="97"/>
        <source>Run A</source>
        <translation>运行 A</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="97"/>
        <source>Run B</source>
        <translation>运行 B</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="100"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="116"/>
        <source>Examples</source>
        <translation>样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="119"/>
        <source>Fixed (wrong → right): {n}</source>
        <translation>修正(错 → 对):{n}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="119"/>
        <source>Broken (right → wrong): {n}</source>
        <translation>退化(对 → 错):{n}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="120"/>
        <source>Both wrong: {n}</source>
        <translation>都错:{n}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="138"/>
        <source>Deleted since it was compared: %1. The comparison shows it as it was; Edit &gt; Undo puts it back.</source>
        <translation>比较之后已被删除：%1。比较结果仍显示它当时的样子；编辑 &gt; 撤销可将其放回。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="143"/>
        <source>Cannot compare these runs: {m}</source>
        <translation>无法比较这些运行:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="167"/>
        <source>A = {a}, B = {b}.</source>
        <translation>A = {a},B = {b}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="173"/>
        <source>the examples&apos; text</source>
        <translation>样例的文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="175"/>
        <source>A = {a}, B = {b}. {n} shared evaluation rows (paired by {how}).</source>
        <translation>A = {a}，B = {b}。共有 {n} 个共同的评估行(按{how}配对)。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/run_compare.py" line="178"/>
        <source>%n row(s) relabelled between the runs are left out.</source>
        <translation>
            <numerusform>两次运行之间重新标注过的 %n 行未计入。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/run_compare.py" line="180"/>
        <source>%n row(s) edited between the runs are left out.</source>
        <translation>
            <numerusform>两次运行之间文本被编辑过的 %n 行未计入。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/run_compare.py" line="182"/>
        <source>%n row(s) whose gold differs at the same position are left out.</source>
        <translation>
            <numerusform>同一位置上标准答案不同的 %n 行未计入。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="187"/>
        <source>A score counts as right within ±{t} of its gold (a tenth of the gold scores&apos; scale).</source>
        <translation>分数与标准答案相差在 ±{t} 以内即算正确（标准答案分数范围的十分之一）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="192"/>
        <source>{m}: {a} → {b} ({d} points; 95% paired bootstrap interval {lo} to {hi}, {k:,} resamples).</source>
        <translation>{m}:{a} → {b}({d} 个百分点；95% 配对自助法区间 {lo} 到 {hi}，重采样 {k:,} 次)。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="173"/>
        <source>project row</source>
        <translation>项目行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="174"/>
        <source>position in the evaluation set</source>
        <translation>在评估集中的位置</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="184"/>
        <source>Fixed {f} · broken {b} · both wrong {w} · both right {r}; McNemar&apos;s exact p = {p}.</source>
        <translation>修正 {f} · 退化 {b} · 都错 {w} · 都对 {r}；McNemar 精确检验 p = {p}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="199"/>
        <source>Both resample the evaluation rows only: the same settings trained with another seed can differ too (Seeds on the Train page measures by how much).</source>
        <translation>两者都只对评估行重采样：同样的设置换一个随机种子训练，结果也会不同（训练页的“种子数”可测出差多少）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="222"/>
        <source>{m} (x100)</source>
        <translation>{m}（x100）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="245"/>
        <source>eval row {n}</source>
        <translation>评估行 {n}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="264"/>
        <source>Gold</source>
        <translation>标准答案</translation>
    </message>
</context>
<context>
    <name>RunsModel</name>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="285"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="285"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="285"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="285"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="285"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="285"/>
        <source>Epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="286"/>
        <source>LR</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="286"/>
        <source>Batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="286"/>
        <source>Main score</source>
        <translation>主要分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="286"/>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="298"/>
        <source>The run&apos;s process was closed or killed as the run started, before it saved its settings or a model: nothing in this folder can be used. Delete the folder to remove it from this list.</source>
        <translation>该运行刚开始时其进程就被关闭或终止，尚未保存设置或模型：此文件夹中没有可用的内容。删除该文件夹即可将其从列表中移除。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="304"/>
        <source>Chosen for the data: %1</source>
        <translation>根据数据选择：%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="318"/>
        <source>interrupted before it saved anything</source>
        <translation>在保存任何内容之前中断</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="329"/>
        <source>SetFit</source>
        <translation>SetFit</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="334"/>
        <source>%1 (head %2)</source>
        <translation>%1（头部 %2）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="346"/>
        <source>top %1 layers</source>
        <translation>顶部 %1 层</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="347"/>
        <source>full</source>
        <translation>全部微调</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="347"/>
        <source>frozen</source>
        <translation>冻结编码器</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="347"/>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
</context>
<context>
    <name>RunsPage</name>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="399"/>
        <source>Select two runs to compare their curves, settings and predictions</source>
        <translation>选择两次运行，比较它们的曲线、设置和预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="402"/>
        <source>Give the selected run of this project a name of your own</source>
        <translation>为本项目中选中的运行起一个自己的名字</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="411"/>
        <location filename="../../bertstudio/ui/runs_page.py" line="692"/>
        <source>Continue the selected stopped run from its last checkpoint</source>
        <translation>从最后一个检查点继续所选的已停止运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="392"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="394"/>
        <source>&amp;Open run folder…</source>
        <translation>打开运行文件夹(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="396"/>
        <source>Fo&amp;llow selected run live</source>
        <translation>实时跟踪所选运行(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="398"/>
        <source>Co&amp;mpare</source>
        <translation>比较(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="401"/>
        <location filename="../../bertstudio/ui/runs_page.py" line="424"/>
        <source>Re&amp;name…</source>
        <translation>重命名(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="405"/>
        <source>Res&amp;ume</source>
        <translation>继续(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="413"/>
        <location filename="../../bertstudio/ui/runs_page.py" line="419"/>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="414"/>
        <source>Move the selected runs to the trash (Edit &gt; Undo puts them back); a run opened from elsewhere only leaves this list</source>
        <translation>将选中的运行移到回收站（编辑 &gt; 撤销可将其放回）；从别处打开的运行只会从此列表中移除</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="422"/>
        <source>Delete the selected runs</source>
        <translation>删除所选的运行</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/runs_page.py" line="595"/>
        <source>Reading %n run(s)…</source>
        <translation>
            <numerusform>正在读取 %n 个运行…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="597"/>
        <source>Select a run to see its curves; double-click it to open its results.</source>
        <translation>选择一个运行以查看其曲线；双击可打开其结果。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="599"/>
        <source>No runs yet: start one on the Train page, and it appears here as it trains.</source>
        <translation>还没有运行：在“训练”页开始一个，训练时它会出现在这里。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="600"/>
        <source>No project open: open or create one to see its runs, or open a run folder.</source>
        <translation>没有打开的项目：打开或新建一个项目以查看其运行，或打开一个运行文件夹。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="651"/>
        <location filename="../../bertstudio/ui/runs_page.py" line="653"/>
        <location filename="../../bertstudio/ui/runs_page.py" line="658"/>
        <source>Rename run</source>
        <translation>重命名运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="653"/>
        <source>New name:</source>
        <translation>新名称:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="699"/>
        <source>Checking whether the selected run can be resumed…</source>
        <translation>正在检查所选运行能否继续…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="788"/>
        <location filename="../../bertstudio/ui/runs_page.py" line="825"/>
        <source>Delete runs</source>
        <translation>删除运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="791"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="812"/>
        <source>Delete run %1</source>
        <translation>删除运行 %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/runs_page.py" line="813"/>
        <source>Delete %n runs</source>
        <translation>
            <numerusform>删除 %n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="840"/>
        <source>Open a run folder (with history.jsonl)</source>
        <translation>打开运行文件夹(含 history.jsonl)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="877"/>
        <source>Following {folder}</source>
        <translation>正在跟踪 {folder}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="901"/>
        <source>{run} was removed or renamed outside bertstudio; its curves are no longer followed</source>
        <translation>{run} 已在 bertstudio 之外被删除或重命名；不再跟踪它的曲线</translation>
    </message>
</context>
<context>
    <name>ScoreboardPage</name>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="28"/>
        <source>GLUE leaderboard: mean of each task&apos;s metrics, MNLI = mean of m/mm, WNLI left out</source>
        <translation>GLUE 排行榜:每个任务取其各指标的平均值，MNLI = m/mm 的平均值，不计 WNLI</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="29"/>
        <source>BERT paper Table 1: F1 for MRPC/QQP, Spearman for STS-B, MCC for CoLA, accuracy elsewhere; MNLI-m and MNLI-mm apart; WNLI left out</source>
        <translation>BERT 论文表 1:MRPC/QQP 用 F1，STS-B 用 Spearman，CoLA 用 MCC，其余用准确率；MNLI-m 与 MNLI-mm 分开计；不计 WNLI</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="31"/>
        <source>main metric of each task, MNLI matched only, WNLI left out</source>
        <translation>每个任务的主要指标，MNLI 只计 matched，不计 WNLI</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="62"/>
        <source>GLUE leaderboard</source>
        <translation>GLUE 排行榜</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="62"/>
        <source>BERT paper (Table 1)</source>
        <translation>BERT 论文(表 1)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="63"/>
        <source>One metric per task</source>
        <translation>每个任务一个指标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="70"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="70"/>
        <source>Score</source>
        <translation>分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="70"/>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="70"/>
        <source>Best run</source>
        <translation>最佳运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="78"/>
        <source>Convention</source>
        <translation>计分规则</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="106"/>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="106"/>
        <source>no run yet</source>
        <translation>尚无运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="110"/>
        <source>(not in the average)</source>
        <translation>(不计入平均)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="112"/>
        <source>(partial)</source>
        <translation>(部分)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="124"/>
        <source>over {n} of {m} entries</source>
        <translation>基于 {m} 项中的 {n} 项</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="126"/>
        <source>no task has a finished run yet</source>
        <translation>还没有任务有已完成的运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="128"/>
        <source>({k} missing: {names}; partial average, not comparable with a full score)</source>
        <translation>(缺少 {k} 项:{names}；部分平均值，不能与完整分数相比)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="131"/>
        <source>(some parts missing; partial average, not comparable with a full score)</source>
        <translation>(部分内容缺失；部分平均值，不能与完整分数相比)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="134"/>
        <source>Average</source>
        <translation>平均</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="147"/>
        <source>Reading %n run(s)…</source>
        <translation>
            <numerusform>正在读取 %n 个运行…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="159"/>
        <source>(best runs from {n} folders: {names}; the average mixes their runs, which may differ in model, settings and evaluation rows)</source>
        <translation>（各任务的最佳运行来自 {n} 个文件夹：{names}；平均分混合了这些运行，它们的模型、设置和评估行可能不同）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="171"/>
        <source>(on {n} training examples held out, not the task&apos;s dev set)</source>
        <translation>（基于留出的 {n} 个训练样例，而非该任务的开发集）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="173"/>
        <source>(on {n} examples)</source>
        <translation>（基于 {n} 个样例）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="175"/>
        <source>too few to compare runs</source>
        <translation>样例太少，无法比较运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="181"/>
        <source>Each GLUE preset makes its own project: train the missing tasks in theirs, then open their run folders on the Runs page to score them here, or run `bertstudio glue` for all of them and open its folder.</source>
        <translation>每个 GLUE 预设都会创建自己的项目：请在各自的项目中训练缺失的任务，然后在“运行”页打开它们的运行文件夹以在此计分；或运行 `bertstudio glue` 一次训练全部任务并打开其文件夹。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="190"/>
        <source>No finished {task} run yet: train one on the Train page and its score appears here.</source>
        <translation>还没有已完成的 {task} 运行：在“训练”页训练一个，其分数会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="192"/>
        <source>Runs count here when their project was made from a GLUE preset (New project &gt; From a GLUE preset), or when you open a run folder written by `bertstudio glue` on the Runs page.</source>
        <translation>由 GLUE 预设创建的项目（新建项目 &gt; 使用 GLUE 预设）中的运行，或在“运行记录”页打开的由 `bertstudio glue` 写出的运行文件夹，会计入这里。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="195"/>
        <source>No project open.</source>
        <translation>没有打开的项目。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="196"/>
        <source>This project is not a GLUE task, so its runs are not scored here.</source>
        <translation>此项目不是 GLUE 任务，因此其运行不在这里计分。</translation>
    </message>
</context>
<context>
    <name>SentenceEditor</name>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="80"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="57"/>
        <source>&amp;Move to the next example after labelling</source>
        <translation>标注后转到下一个样例(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="86"/>
        <source>Premise / first text</source>
        <translation>前提 / 第一段文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="87"/>
        <source>Hypothesis / second text</source>
        <translation>假设 / 第二段文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="109"/>
        <source>Press %1 or click to label this example &apos;%2&apos;</source>
        <translation>按 %1 或单击，将此样例标为“%2”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="144"/>
        <source>Suggested: %1 (%2)</source>
        <translation>建议:%1(%2)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="147"/>
        <source>Enter accepts it, any label key overrides it</source>
        <translation>按 Enter 接受，按任一标签键可改为该标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="149"/>
        <source>Audit example: drawn at random to check the model, so its suggestion is hidden</source>
        <translation>核查样例:为检验模型而随机抽取，因此不显示建议</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="167"/>
        <source>(not labelled)</source>
        <translation>(未标注)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="167"/>
        <source>(no example)</source>
        <translation>(无样例)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="179"/>
        <source>Label row %1 as &apos;%2&apos;</source>
        <translation>将第 %1 行标为“%2”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="185"/>
        <source>Clear the label of row %1</source>
        <translation>清除第 %1 行的标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="206"/>
        <source>Audit example: Enter has no suggestion to accept here (hidden on purpose); %1</source>
        <translation>审核样本：这里没有可用 Enter 接受的建议（有意隐藏）；%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="208"/>
        <source>No suggestions while the labelling assistant is off (Tools &gt; Labelling assistant): %1</source>
        <translation>标注助手关闭时没有建议（工具 &gt; 标注助手）：%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="210"/>
        <source>No suggestion to accept yet: %1</source>
        <translation>暂时没有可接受的建议：%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="214"/>
        <source>pick the label with a number key</source>
        <translation>请用数字键选择标签</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="165"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
</context>
<context>
    <name>SmallData</name>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="100"/>
        <source>classes {most}:{least} (largest to smallest): each class weighted by inverse frequency in the loss and the logistic regression, so the small one is not outvoted</source>
        <translation>各类行数 {most}:{least}（最多对最少）：损失和逻辑回归中每类按频率的倒数加权，少数类不被多数类淹没</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="103"/>
        <source>after the last step the weights keep {percent}% of what that training changed (WiSE-FT: part of the way back to where they started, steadier on small sets)</source>
        <translation>最后一步之后，权重保留该训练所做改变的 {percent}%（WiSE-FT：向训练起点退回一部分，在小数据集上更稳定）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="106"/>
        <source>an earlier evaluation that scores higher keeps its weights instead</source>
        <translation>若更早的某次评估得分更高，则改为保留那次评估的权重</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="85"/>
        <source>{rows} (at most {most} per class): SetFit, which learns most from few labels per class (contrastive fine-tuning of the sentence-transformer, then its linear head)</source>
        <translation>{rows}（每类最多 {most} 行）：SetFit，在每类标注很少时学得最多（先对句向量模型做对比微调，再训练其线性头）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="88"/>
        <source>{rows}: a linear head on the sentence embedding, started from a logistic regression on the frozen encoder, then trained for at least {steps} steps</source>
        <translation>{rows}：句向量上的线性头，先以冻结编码器上的逻辑回归初始化，再训练至少 {steps} 步</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="91"/>
        <source>{rows}: a linear head on the siamese (u, v, |u-v|, u*v) features, started from a logistic regression on the frozen encoder, then trained for at least {steps} steps</source>
        <translation>{rows}：孪生 (u, v, |u-v|, u*v) 特征上的线性头，先以冻结编码器上的逻辑回归初始化，再训练至少 {steps} 步</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="94"/>
        <source>{rows}: a linear head on the sentence embedding, started from a ridge regression on the frozen encoder, then trained for at least {steps} steps</source>
        <translation>{rows}：句向量上的线性头，先用冻结编码器上的岭回归初始化，再训练至少 {steps} 步</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="97"/>
        <source>{rows}: a linear head on the siamese (u, v, |u-v|, u*v) features, started from a ridge regression on the frozen encoder, then trained for at least {steps} steps</source>
        <translation>{rows}：孪生 (u, v, |u-v|, u*v) 特征上的线性头，先用冻结编码器上的岭回归初始化，再训练至少 {steps} 步</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="107"/>
        <source>{rows}: batch {batch} and {epochs} epochs, for at least {steps} optimizer steps</source>
        <translation>{rows}：批大小 {batch}，{epochs} 轮，至少 {steps} 个优化步</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="109"/>
        <source>{rows}, about {windows} windows of {length} tokens: batch {batch} and {epochs} epochs, for at least {steps} optimizer steps</source>
        <translation>{rows}，约 {windows} 个 {length} 词元的窗口：批大小 {batch}，{epochs} 轮，至少 {steps} 个优化步</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="112"/>
        <source>evaluated every {every} steps ({evals} times), not after each of {epochs} short epochs</source>
        <translation>每 {every} 步评估一次（共 {evals} 次），而不是在 {epochs} 个短轮次的每一轮之后</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="114"/>
        <source>95% of the texts fit in {tokens} tokens: max length {length} (the model reads at most {limit})</source>
        <translation>95% 的文本不超过 {tokens} 个词元：最大长度 {length}（模型最多读取 {limit} 个）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="116"/>
        <source>the model reads at most {limit} tokens: max length {limit}</source>
        <translation>模型最多读取 {limit} 个词元：最大长度 {limit}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="117"/>
        <source>SetFit&apos;s contrastive phase at learning rate {lr} (setfit&apos;s own default)</source>
        <translation>SetFit 的对比学习阶段使用学习率 {lr}（setfit 自身的默认值）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="119"/>
        <source>LoRA: learning rate {lr} (about 10x full fine-tuning&apos;s, as peft&apos;s examples use)</source>
        <translation>LoRA：学习率 {lr}（约为全量微调的 10 倍，与 peft 示例相同）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="121"/>
        <source>frozen encoder on pairs: the siamese head, each side encoded alone (a frozen sentence-transformer&apos;s [CLS] of the joined pair carries almost no pair signal)</source>
        <translation>冻结编码器处理句对：使用孪生头，两句分别编码（冻结的句向量模型对拼接句对的 [CLS] 几乎不含句对信息）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="130"/>
        <source>1 labelled row</source>
        <translation>已标注 1 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="130"/>
        <source>{n} labelled rows</source>
        <translation>已标注 {n} 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="131"/>
        <source>1 scored sentence</source>
        <translation>1 个已评分的句子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="132"/>
        <source>{n} scored sentences</source>
        <translation>{n} 个已评分的句子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="133"/>
        <source>1 scored pair</source>
        <translation>1 个已评分的句对</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="133"/>
        <source>{n} scored pairs</source>
        <translation>{n} 个已评分的句对</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="134"/>
        <source>1 labelled question</source>
        <translation>1 个已标注问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/small_data.py" line="135"/>
        <source>{n} labelled questions</source>
        <translation>{n} 个已标注问题</translation>
    </message>
</context>
<context>
    <name>SplitTargetBox</name>
    <message>
        <location filename="../../bertstudio/ui/import_target.py" line="47"/>
        <source>Append the new rows after them</source>
        <translation>将新行追加到它们之后</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_target.py" line="49"/>
        <source>Replace them (kept as a backup; Edit &gt; Undo brings them back)</source>
        <translation>替换它们(保留为备份；“编辑 &gt; 撤销”可恢复)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_target.py" line="88"/>
        <source>%1 holds %2 rows, %3 labelled.</source>
        <translation>%1 有 %2 行，已标注 %3 行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_target.py" line="89"/>
        <source>%1 is empty.</source>
        <translation>%1 为空。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_target.py" line="95"/>
        <source>Replace rows?</source>
        <translation>替换这些行吗？</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_target.py" line="96"/>
        <source>Replace the %1 rows of %2 (%3 labelled) by the %4 rows of the file?</source>
        <translation>用文件中的 %4 行替换 %2 的 %1 行(已标注 %3 行)吗？</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_target.py" line="101"/>
        <source>The current rows are kept as a backup in the project folder; Edit &gt; Undo brings them back.</source>
        <translation>当前的行会作为备份保存在项目文件夹中；“编辑 &gt; 撤销”可恢复。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_target.py" line="103"/>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
</context>
<context>
    <name>Splits</name>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="50"/>
        <source>train</source>
        <translation>训练集</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="50"/>
        <source>dev</source>
        <translation>验证集</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="51"/>
        <source>test</source>
        <translation>测试集</translation>
    </message>
</context>
<context>
    <name>TaggingEditor</name>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="264"/>
        <source>Entity types (select words, then press a key):</source>
        <translation>实体类型(先选择词，再按键):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="265"/>
        <source>Press %1 or click to mark the selected words as a %2 entity</source>
        <translation>按 %1 或单击，将选中的词标为 %2 实体</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="267"/>
        <source>Tags (select words, then press a key):</source>
        <translation>标记(先选择词，再按键):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="268"/>
        <source>Press %1 or click to tag the selected words %2</source>
        <translation>按 %1 或单击，将选中的词标记为 %2</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="306"/>
        <source>no entity</source>
        <translation>无实体</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="309"/>
        <source>Enter stores these tags; Shift+Enter stores the sentence as marked</source>
        <translation>按 Enter 保存这些标签；按 Shift+Enter 按当前标注保存该句</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="310"/>
        <source>Enter stores these tags</source>
        <translation>按 Enter 保存这些标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="311"/>
        <source>Suggested (%1, %2 sure): %3 · %4</source>
        <translation>建议（%1，把握 %2）：%3 · %4</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="333"/>
        <source>(not labelled yet: every word starts outside any entity, O; Enter stores the sentence as marked, with no entity if none is marked)</source>
        <translation>（尚未标注：每个词起初都不属于任何实体，即 O；按 Enter 按当前标注保存该句，未标出实体则保存为无实体）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="400"/>
        <source>&apos;%1&apos; cuts through an entity already marked: select the whole entity, or clear it first (Backspace).</source>
        <translation>“%1”切断了一个已标出的实体：请选中整个实体，或先清除它（Backspace）。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="446"/>
        <source>Row %1 has no entity</source>
        <translation>第 %1 行没有实体</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="447"/>
        <source>Store the entities of row %1</source>
        <translation>保存第 %1 行的实体</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="453"/>
        <source>Words with no tag yet: %1. A sentence is stored once every word has one.</source>
        <translation>尚无标签的词：%1 个。每个词都有标签后，该句才会保存。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="325"/>
        <source>Accept the suggested tags of row %1</source>
        <translation>接受第 %1 行的建议标记</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="336"/>
        <source>(not tagged yet: %1 of %2 words have a tag; the sentence is stored once every word has one)</source>
        <translation>(尚未标注完:%2 个词中有 %1 个已有标记；每个词都有标记后才会保存此句)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="416"/>
        <source>Tag &apos;%1&apos; as %2</source>
        <translation>将“%1”标记为 %2</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="428"/>
        <source>Clear the entity at word %1</source>
        <translation>清除第 %1 个词处的实体</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="434"/>
        <source>Clear the tag of &apos;%1&apos;</source>
        <translation>清除“%1”的标记</translation>
    </message>
</context>
<context>
    <name>TimeEstimateLabel</name>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="150"/>
        <source>SetFit</source>
        <translation>SetFit</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="151"/>
        <source>a head on the frozen encoder</source>
        <translation>冻结编码器上的分类头</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="151"/>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="152"/>
        <source>fine-tuning</source>
        <translation>微调</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="152"/>
        <source>fine-tuning the top layers</source>
        <translation>微调顶部几层</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="154"/>
        <source>{rows}: {method}, {seeds} seeds would take {time}</source>
        <translation>{rows}：{method}，{seeds} 个种子需要 {time}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="156"/>
        <source>{rows}: {method} would take {time}</source>
        <translation>{rows}：{method} 需要 {time}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="158"/>
        <source>~{n} s</source>
        <translation>约 {n} 秒</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="158"/>
        <source>~{n} min</source>
        <translation>约 {n} 分钟</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="158"/>
        <source>~{n} h</source>
        <translation>约 {n} 小时</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="170"/>
        <source>(timed by this project&apos;s earlier runs: {rate} examples/s)</source>
        <translation>（按本项目之前的运行计时：每秒 {rate} 个样本）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="172"/>
        <source>(from a short timing of this model on this computer: {rate} examples/s)</source>
        <translation>（在本机对该模型的简短计时：每秒 {rate} 个样本）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="174"/>
        <source>(rough, while this computer is timed)</source>
        <translation>（粗略估计，正在为本机计时）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="176"/>
        <source>(rough: this computer is timed once the labelling assistant is idle)</source>
        <translation>（粗略估计：待标注助手空闲后再测量这台电脑的速度）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_estimate.py" line="177"/>
        <source>(rough: nothing timed on this computer yet)</source>
        <translation>（粗略估计：本机尚未计时）</translation>
    </message>
</context>
<context>
    <name>TrainConfig</name>
    <message>
        <location filename="../../bertstudio/train/config.py" line="243"/>
        <source>Head: linear (BERT paper, on [CLS]) | mlp (hidden layer + output, as d2l) | embedding (linear on the mean-pooled sentence vector, as sentence-transformers read it) | siamese (pairs: each side encoded alone, (u, v, |u-v|, u*v), as SBERT)</source>
        <translation>输出头：linear（BERT 论文，作用于 [CLS]）| mlp（隐藏层 + 输出层，同 d2l）| embedding（作用于平均池化句向量的线性层，同 sentence-transformers 的读法）| siamese（句对：两侧分别编码，(u, v, |u-v|, u*v)，同 SBERT）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/config.py" line="248"/>
        <source>How the encoder learns before and with the head: finetune (the loop alone) | setfit (SetFit&apos;s contrastive fine-tuning of a sentence-transformer first; sentence kind, embedding head)</source>
        <translation>编码器在输出头之前及与之一起如何学习：finetune（仅训练循环）| setfit（先对 sentence-transformer 做 SetFit 对比微调；限句子任务、embedding 输出头）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/config.py" line="253"/>
        <source>What learns: full | frozen (feature extraction) | top-N (top N layers + head) | lora</source>
        <translation>哪些部分学习：full | frozen（特征提取）| top-N（顶部 N 层 + 输出头）| lora</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/config.py" line="256"/>
        <source>LoRA rank r</source>
        <translation>LoRA 秩 r</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/config.py" line="263"/>
        <source>Passes over the training data</source>
        <translation>遍历训练数据的轮数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/config.py" line="264"/>
        <source>Peak learning rate</source>
        <translation>峰值学习率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/config.py" line="267"/>
        <source>Examples per optimizer step (before accumulation)</source>
        <translation>每个优化步的样本数（梯度累积前）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/config.py" line="270"/>
        <source>Fraction of steps with linear warm-up</source>
        <translation>线性预热所占步数比例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/config.py" line="284"/>
        <source>Maximum tokens per input (kept with the model: evaluate and predict cut inputs the same)</source>
        <translation>每个输入的最大词元数（随模型保存：评估和预测以相同方式截断输入）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/config.py" line="293"/>
        <source>Random seed (CPU runs repeat exactly)</source>
        <translation>随机种子（CPU 运行可精确复现）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/config.py" line="294"/>
        <source>Train with seeds seed, seed+1, ... as one job (one run folder each, seed-N under output_dir) and report the main metric&apos;s mean and spread: how much a few-label score moves</source>
        <translation>以种子 seed、seed+1、… 作为一个任务训练（每个种子一个运行文件夹，位于 output_dir 下的 seed-N），并报告主指标的均值和离散程度：少量标签时分数会波动多少</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/config.py" line="302"/>
        <source>auto (CUDA &gt; MPS &gt; CPU) | cpu | cuda | cuda:N | mps</source>
        <translation>auto（CUDA &gt; MPS &gt; CPU）| cpu | cuda | cuda:N | mps</translation>
    </message>
    <message>
        <location filename="../../bertstudio/train/config.py" line="304"/>
        <source>auto (bf16 where the hardware runs it fast) | fp32 | bf16 | fp16</source>
        <translation>auto（硬件能快速运行时用 bf16）| fp32 | bf16 | fp16</translation>
    </message>
</context>
<context>
    <name>TrainSettingsForm</name>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="52"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="55"/>
        <source>The bundled model, a local model folder, or a Hugging Face Hub id typed in</source>
        <translation>内置模型、本地模型文件夹，或输入 Hugging Face Hub id</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="56"/>
        <source>folder or Hub id, e.g. bert-base-uncased</source>
        <translation>文件夹或 Hub id，例如 bert-base-uncased</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="58"/>
        <source>A Hugging Face Hub id (downloaded once, then read from the local cache) or a model folder on this computer. To work offline, pick a folder, or a Hub id already downloaded.</source>
        <translation>Hugging Face Hub id(下载一次后从本地缓存读取)或本机上的模型文件夹。离线使用时，请选择一个文件夹或已下载过的 Hub id。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="69"/>
        <location filename="../../bertstudio/ui/train_settings.py" line="391"/>
        <source>Linear on [CLS] (BERT paper)</source>
        <translation>[CLS] 上的线性层(BERT 论文)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="69"/>
        <source>MLP (hidden layer + output)</source>
        <translation>MLP(隐藏层 + 输出层)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="74"/>
        <source>Fine-tune</source>
        <translation>微调</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="74"/>
        <source>SetFit first, then the head</source>
        <translation>先 SetFit，再训练分类头</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="77"/>
        <source>Full fine-tuning</source>
        <translation>全量微调</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="78"/>
        <source>Top N layers</source>
        <translation>顶部 N 层</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="78"/>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="90"/>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="92"/>
        <source>rank</source>
        <translation>秩</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="96"/>
        <source>Automatic: fits the labelled data</source>
        <translation>自动：按已标注数据选择</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="97"/>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="101"/>
        <source>BERT paper: batch {b}, lr {lr}, {e} epochs</source>
        <translation>BERT 论文:批大小 {b}，学习率 {lr}，{e} 轮</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="113"/>
        <source>None</source>
        <translation>不加权</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="113"/>
        <source>Balanced (inverse class frequency)</source>
        <translation>均衡（按类别频率的倒数）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="117"/>
        <source> run(s)</source>
        <translation> 次运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="120"/>
        <source>seeds</source>
        <translation>种子数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="142"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="143"/>
        <source>Head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="144"/>
        <source>What learns</source>
        <translation>训练哪些部分</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="147"/>
        <source>Class weighting</source>
        <translation>类别加权</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="155"/>
        <source>Balanced: each training row&apos;s loss is weighted by the inverse of its class&apos;s share of the rows, so a rare class counts as much as a common one.</source>
        <translation>均衡：每个训练行的损失按其类别所占行数比例的倒数加权，使稀少的类别与常见的类别同等重要。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="165"/>
        <source>number of top layers</source>
        <translation>顶部层数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="165"/>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="166"/>
        <source>epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="166"/>
        <source>warm-up ratio</source>
        <translation>预热比例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="167"/>
        <source>maximum length</source>
        <translation>最大长度</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="167"/>
        <source>seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="168"/>
        <source>number of seeds</source>
        <translation>种子数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="390"/>
        <source>Linear on each token (BERT paper)</source>
        <translation>每个词元上的线性层（BERT 论文）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="392"/>
        <source>Tagging and QA predict per token: their head is a linear layer on every token</source>
        <translation>序列标注和问答按词元预测：它们的输出头是每个词元上的线性层</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="393"/>
        <source>Reads text pairs: for sentence-pair and score projects</source>
        <translation>读取文本对：用于句对和评分项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="403"/>
        <source>SetFit learns from single labelled sentences: for sentence classification</source>
        <translation>SetFit 从单个已标注句子学习：用于句子分类</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="414"/>
        <source>Regression, tagging and QA have no classes to weigh: class weighting is for sentence and pair classification</source>
        <translation>回归、序列标注和问答没有可加权的类别：类别加权用于句子分类和句对分类</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="428"/>
        <source>{name} {value} does not fit this project</source>
        <translation>{name} {value} 不适用于此项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="447"/>
        <source>mode {m} is outside what the form takes (top-{lo} to top-{hi})</source>
        <translation>模式 {m} 超出了表单可接受的范围（top-{lo} 到 top-{hi}）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="455"/>
        <source>{name} {value} is outside what the form takes ({lo} to {hi})</source>
        <translation>{name} {value} 超出了表单可接受的范围（{lo} 到 {hi}）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="482"/>
        <source>{n} of {m} labelled rows ({h} held out for evaluation)</source>
        <translation>已标注 {m} 行中的 {n} 行（{h} 行留作评估）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="496"/>
        <source>{n} of {m}</source>
        <translation>{n}/{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="499"/>
        <source>{reasons}; {h} held out for evaluation</source>
        <translation>{reasons}；{h} 行留作评估</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="142"/>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="54"/>
        <source>all-MiniLM-L6-v2 (bundled)</source>
        <translation>all-MiniLM-L6-v2（内置）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="62"/>
        <source>Fol&amp;der…</source>
        <translation>文件夹(&amp;D)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="70"/>
        <source>Sentence embedding (mean-pooled)</source>
        <translation>句向量（平均池化）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="71"/>
        <source>Siamese: (u, v, |u−v|, u·v)</source>
        <translation>孪生：(u, v, |u−v|, u·v)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="77"/>
        <source>Frozen encoder</source>
        <translation>冻结编码器</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="144"/>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="145"/>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="145"/>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="146"/>
        <source>Epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="146"/>
        <source>Warm-up ratio</source>
        <translation>预热比例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="148"/>
        <source>Max length</source>
        <translation>最大长度</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="148"/>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="149"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="149"/>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="150"/>
        <source>Trainable</source>
        <translation>可训练参数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="152"/>
        <source>BERT paper grid: batch 16/32, lr 5e-5…2e-5, 2–4 epochs</source>
        <translation>BERT 论文网格:批大小 16/32，学习率 5e-5…2e-5，2–4 轮</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="231"/>
        <source>Choose a model folder</source>
        <translation>选择模型文件夹</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="287"/>
        <source>The BERT paper&apos;s recipe: the labelled set is large enough for it.</source>
        <translation>BERT 论文的配方：已标注的数据足够多。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="373"/>
        <source>batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/train_settings.py" line="374"/>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
</context>
<context>
    <name>TrainingJobs</name>
    <message>
        <location filename="../../bertstudio/ui/jobs.py" line="37"/>
        <source>a training run</source>
        <translation>一次训练运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/jobs.py" line="38"/>
        <source>the assistant&apos;s model</source>
        <translation>助手的模型训练</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/jobs.py" line="39"/>
        <source>the label-error check</source>
        <translation>标注错误检查</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/jobs.py" line="40"/>
        <source>the learning curve</source>
        <translation>学习曲线</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/jobs.py" line="41"/>
        <source>the time estimate&apos;s timing</source>
        <translation>时间估计的本机计时</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/jobs.py" line="49"/>
        <source>{line}: stopping the assistant&apos;s background training after its current step</source>
        <translation>{line}：正在让助手的后台训练在当前步骤后停止</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/jobs.py" line="52"/>
        <source>{line}: waiting for {job} to finish</source>
        <translation>{line}：等待{job}结束</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/jobs.py" line="106"/>
        <source>Loading the training libraries…</source>
        <translation>正在加载训练所需的库…</translation>
    </message>
</context>
<context>
    <name>TrainingMonitor</name>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="145"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="166"/>
        <source>Warning: {m}</source>
        <translation>警告：{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="193"/>
        <source>training step %v / %m</source>
        <translation>训练步 %v / %m</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="215"/>
        <source>training step %v / %m  ·  ETA {eta}  ·  {rate:.1f} examples/s  ·  loss {loss:.4f}</source>
        <translation>训练步 %v / %m  ·  预计剩余 {eta}  ·  {rate:.1f} 样例/秒  ·  损失 {loss:.4f}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="221"/>
        <source>starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="221"/>
        <source>loading the training libraries…</source>
        <translation>正在加载训练所需的库…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="222"/>
        <source>loading model…</source>
        <translation>正在加载模型…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="223"/>
        <source>tokenising {n} examples…</source>
        <translation>正在对 {n} 个样例分词…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="223"/>
        <source>reusing the model loaded earlier…</source>
        <translation>正在复用之前加载的模型…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="224"/>
        <source>evaluating %v / %m batches…</source>
        <translation>正在评估 %v / %m 批…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="224"/>
        <source>saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="225"/>
        <source>SetFit: contrastive step %v / %m…</source>
        <translation>SetFit：对比学习第 %v / %m 步…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="226"/>
        <source>fitting the head on the frozen encoder: batch %v / %m…</source>
        <translation>在冻结的编码器上拟合分类头：第 %v / %m 批…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="227"/>
        <source>waiting for {job} to finish…</source>
        <translation>正在等待{job}结束…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="229"/>
        <source>stopping the assistant&apos;s background training after its current step (it trains again after this run)…</source>
        <translation>正在让助手的后台训练在当前步骤后停止（本次运行结束后它会重新训练）…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="272"/>
        <source>step %v / %m</source>
        <translation>第 %v / %m 步</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="195"/>
        <source>Started: {n} training / {m} evaluation examples, {s} steps, batch {b}, {t:,} of {p:,} parameters trainable, on {d} ({prec}).</source>
        <translation>已开始:{n} 个训练样例 / {m} 个评估样例，{s} 步，批大小 {b}，{p:,} 个参数中有 {t:,} 个可训练，设备 {d}({prec})。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="250"/>
        <source>Evaluation at step {step} (epoch {epoch:.2f}): {m}</source>
        <translation>第 {step} 步(第 {epoch:.2f} 轮)的评估:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_monitor.py" line="274"/>
        <source>Run {status}.</source>
        <translation>运行{status}。</translation>
    </message>
</context>
<context>
    <name>TrainingPage</name>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="164"/>
        <source>Write these settings and the labelled data to a folder that trains headless anywhere: bertstudio train --config run.toml (or under accelerate launch on several GPUs)</source>
        <translation>将这些设置和已标注的数据写入一个文件夹，可在任何地方无界面训练:bertstudio train --config run.toml(多 GPU 上可用 accelerate launch 启动)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="459"/>
        <source>counted when the model loads</source>
        <translation>加载模型时统计</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="604"/>
        <source>the training split has no labelled examples</source>
        <translation>训练数据划分中没有已标注的样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="604"/>
        <source>train split</source>
        <translation>train 数据划分</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="605"/>
        <source>at least a few labelled rows</source>
        <translation>至少几行已标注的数据</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="422"/>
        <source>counting…</source>
        <translation>正在计数…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="265"/>
        <source>No labelled training rows yet: Automatic chooses the settings once there are some.</source>
        <translation>还没有已标注的训练行：有了之后，“自动”会选择设置。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="437"/>
        <source>after SetFit&apos;s phase, which first tunes the whole encoder</source>
        <translation>（在 SetFit 阶段之后；该阶段先微调整个编码器）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="488"/>
        <source>Fix the setting first: {m}</source>
        <translation>请先修正设置:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="561"/>
        <source>SetFit learns from single labelled sentences, and this is a “{task}” project: choose the method “{finetune}”</source>
        <translation>SetFit 从单个已标注句子学习，而这是“{task}”项目：请选择方法“{finetune}”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="614"/>
        <source>No dev split: holding out {n} of {m} labelled training examples ({p:.0%}, seed {s}) for evaluation.</source>
        <translation>没有验证集:从 {m} 个已标注训练样例中留出 {n} 个({p:.0%}，种子 {s})用于评估。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="678"/>
        <source>Run folder: {d}</source>
        <translation>运行文件夹:{d}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="683"/>
        <source>{n} seeds ({a} to {b}), one run each, one after another.</source>
        <translation>{n} 个种子（{a} 到 {b}），每个一次运行，依次进行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="881"/>
        <source>Training… the window stays usable; Cancel stops after the current step.</source>
        <translation>训练中……窗口仍可使用；“取消”会在当前步结束后停止。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="785"/>
        <source>Export run to folder</source>
        <translation>导出运行到文件夹</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="805"/>
        <source>Exporting the run to {d}…</source>
        <translation>正在导出运行到 {d}…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="820"/>
        <source>Export failed: {m}</source>
        <translation>导出失败:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="812"/>
        <source>Run exported to {d}. Start it there with: bertstudio train --config run.toml</source>
        <translation>运行已导出到 {d}。在那里用以下命令启动:bertstudio train --config run.toml</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="160"/>
        <source>&amp;Start training</source>
        <translation>开始训练(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="161"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="162"/>
        <source>E&amp;xport run…</source>
        <translation>导出运行(&amp;X)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="335"/>
        <source>SetFit fine-tunes the encoder contrastively at the learning rate above; then, with the encoder frozen, the new head learns at {h}, its own rate.</source>
        <translation>SetFit 以上面的学习率对编码器做对比微调；之后编码器冻结，新的头部以自己的学习率 {h} 学习。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="339"/>
        <source>The new head learns at {h}, its own rate (the learning rate above is the encoder&apos;s): with the encoder frozen or only its top layers learning, a head trains as a linear probe does.</source>
        <translation>新的头部以自己的学习率 {h} 学习（上面的学习率是编码器的）：编码器冻结或只训练顶层时，头部像线性探针一样训练。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="382"/>
        <source>Saved training settings not restored, the defaults shown instead: {m}</source>
        <translation>保存的训练设置未能恢复，已改为显示默认值：{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="434"/>
        <source>{t:,} of {n:,} parameters ({p}%)</source>
        <translation>{n:,} 个参数中的 {t:,} 个({p}%)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="453"/>
        <source>not counted: these settings do not fit the model</source>
        <translation>未统计：这些设置不适用于该模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="490"/>
        <source>Train a model on the labelled training rows (Ctrl+Return)</source>
        <translation>用已标注的训练行训练模型 (Ctrl+Return)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="513"/>
        <source>the {setting} {text} is not a number</source>
        <translation>{setting} {text} 不是数字</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="521"/>
        <source>a maximum length of {value:,} tokens is more than this model takes ({limit:,} tokens): choose {limit:,} or less</source>
        <translation>最大长度 {value:,} 个词元超过了此模型能接受的长度（{limit:,} 个词元）：请选择 {limit:,} 或更小的值</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="524"/>
        <source>training the top {value} layers asks for more layers than this model has ({limit}): choose {limit} or fewer</source>
        <translation>训练顶部 {value} 层超过了此模型的层数（{limit} 层）：请选择 {limit} 层或更少</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="527"/>
        <source>a LoRA rank of {value:,} is more than this model&apos;s hidden size ({limit:,}): choose a small rank (4-64)</source>
        <translation>LoRA 秩 {value:,} 超过了此模型的隐藏层大小（{limit:,}）：请选择较小的秩（4-64）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="546"/>
        <source>the head “{head}” reads text pairs, and a “{task}” project has none: choose another head</source>
        <translation>输出头“{head}”读取文本对，而“{task}”项目没有文本对：请选择其他输出头</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="549"/>
        <source>the head “{head}” predicts one value per example, and a “{task}” project predicts one per token or answer span: choose “{linear}”</source>
        <translation>输出头“{head}”为每个样例预测一个值，而“{task}”项目为每个词元或答案片段预测：请选择“{linear}”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="553"/>
        <source>LoRA cannot train the head “{head}”: choose “{full}”, “{frozen}” or “{top}” for it, or the head “{linear}” or “{mlp}” for LoRA</source>
        <translation>LoRA 无法训练输出头“{head}”：请为它选择“{full}”、“{frozen}”或“{top}”，或为 LoRA 选择输出头“{linear}”或“{mlp}”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="563"/>
        <source>SetFit trains the head “{embedding}” and no other: choose that head, or the method “{finetune}”</source>
        <translation>SetFit 只训练输出头“{embedding}”：请选择该输出头，或选择方法“{finetune}”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="569"/>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="569"/>
        <source>head learning rate</source>
        <translation>分类头学习率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="570"/>
        <source>batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="570"/>
        <source>gradient accumulation steps</source>
        <translation>梯度累积步数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="571"/>
        <source>epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="571"/>
        <source>warm-up ratio</source>
        <translation>预热比例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="572"/>
        <source>maximum length</source>
        <translation>最大长度</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="572"/>
        <source>seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="572"/>
        <source>number of seeds</source>
        <translation>种子数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="573"/>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="573"/>
        <source>evaluation interval (steps)</source>
        <translation>评估间隔（步）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="574"/>
        <source>held-out share</source>
        <translation>留出比例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="574"/>
        <source>weight decay</source>
        <translation>权重衰减</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="575"/>
        <source>early stopping patience</source>
        <translation>早停耐心值</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="585"/>
        <source>above {n}</source>
        <translation>大于 {n}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="585"/>
        <source>at least {n}</source>
        <translation>至少 {n}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="588"/>
        <source>below {n}</source>
        <translation>小于 {n}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="588"/>
        <source>at most {n}</source>
        <translation>至多 {n}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="590"/>
        <source>the {setting} {value} is out of range: it must be {what} {range}</source>
        <translation>{setting} {value} 超出范围：须为{range}的{what}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="592"/>
        <source>a whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="592"/>
        <source>a number</source>
        <translation>数值</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="593"/>
        <source> and </source>
        <translation>且</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="701"/>
        <source>No project is open.</source>
        <translation>没有打开的项目。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="703"/>
        <source>A run is training now: wait for it to end, or cancel it, then resume.</source>
        <translation>正在训练一个运行：请等它结束或取消它，然后再继续。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="711"/>
        <source>{run} cannot be resumed here: {why}</source>
        <translation>{run} 无法在此继续：{why}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="720"/>
        <source>Resuming {run} from its last checkpoint, with its own settings.</source>
        <translation>正在从最后一个检查点继续 {run}，使用它自己的设置。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="802"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="854"/>
        <source>Cancelling after the current step…</source>
        <translation>将在当前步结束后取消…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="856"/>
        <source>Cancelling: the resume stops before the run goes on…</source>
        <translation>正在取消：继续运行将在开始前停止…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="858"/>
        <source>Cancelling: the run stops before its first step…</source>
        <translation>正在取消：运行将在第一步之前停止…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="864"/>
        <source>Stop the SetFit phase?</source>
        <translation>停止 SetFit 阶段？</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="865"/>
        <source>SetFit has run {done} of {total} contrastive steps. Stopping now keeps nothing of them: the run saves a model only once its head has trained.</source>
        <translation>SetFit 已完成 {total} 个对比学习步骤中的 {done} 个。现在停止将不会保留其中任何结果：只有在分类头训练之后，本次运行才会保存模型。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="868"/>
        <source>Stop and discard</source>
        <translation>停止并丢弃</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="869"/>
        <source>Keep training</source>
        <translation>继续训练</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="878"/>
        <source>Warm start: reusing the model loaded by an earlier run in this session</source>
        <translation>热启动：复用本次会话中先前运行已加载的模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="884"/>
        <source>Loading the training libraries… the window stays usable; Cancel stops the run before it starts.</source>
        <translation>正在加载训练所需的库……窗口仍可使用；“取消”会在运行开始之前将其停止。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="895"/>
        <source>{t:,} of {n:,} parameters ({p}%), as built</source>
        <translation>{n:,} 个参数中的 {t:,} 个({p}%)，按构建后的模型统计</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="912"/>
        <source>Training failed.</source>
        <translation>训练失败。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="914"/>
        <source>Resume cancelled before the run went on: {run} is as it was, and can be resumed again.</source>
        <translation>继续运行在开始前被取消：{run} 保持原样，可以再次继续。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="918"/>
        <source>Run cancelled before its first step: nothing was trained or saved.</source>
        <translation>运行在第一步之前已取消：没有训练，也没有保存任何内容。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="920"/>
        <source>Run finished.</source>
        <translation>运行完成。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="921"/>
        <source>Run cancelled; the model saved so far is usable.</source>
        <translation>运行已取消；已保存的模型可以使用。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="955"/>
        <source>Removed the empty run folder {d}</source>
        <translation>已删除空的运行文件夹 {d}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="959"/>
        <source>Training could not run: {m}</source>
        <translation>无法训练:{m}</translation>
    </message>
</context>
<context>
    <name>WelcomePanel</name>
    <message>
        <location filename="../../bertstudio/ui/welcome.py" line="35"/>
        <source>&lt;h2&gt;Welcome to bertstudio&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;欢迎使用 bertstudio&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/welcome.py" line="36"/>
        <source>Label text and fine-tune BERT-style models on it: sentence and sentence-pair classification, pair scores, token tagging (entities, parts of speech) and question answering. A project keeps your data, labels and runs in one folder.</source>
        <translation>标注文本并在其上微调 BERT 类模型：单句与句对分类、句对评分、词元标注（实体、词性）和问答。一个项目把数据、标签和训练运行保存在同一个文件夹里。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/welcome.py" line="40"/>
        <source>New project…</source>
        <translation>新建项目…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/welcome.py" line="43"/>
        <source>Open project…</source>
        <translation>打开项目…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/welcome.py" line="49"/>
        <source>&lt;b&gt;Recent projects&lt;/b&gt; (click to open)</source>
        <translation>&lt;b&gt;最近的项目&lt;/b&gt;（单击打开）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/welcome.py" line="54"/>
        <source>plain text (.txt, one sentence a line)</source>
        <translation>纯文本（.txt，每行一句）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/welcome.py" line="55"/>
        <source>Or drop a data file on this window (%1): a new project is made for it, then the file is imported.</source>
        <translation>也可以把数据文件拖到本窗口（%1）：先为它新建项目，再导入该文件。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/welcome.py" line="58"/>
        <source>The Runs page works without a project: open a run folder there to see its curves and results.</source>
        <translation>“运行记录”页无需项目：在那里打开一个运行文件夹即可查看其曲线和结果。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/welcome.py" line="91"/>
        <source>%1 (not found)</source>
        <translation>%1（未找到）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/welcome.py" line="93"/>
        <source>%1 (not reachable)</source>
        <translation>%1（无法访问）</translation>
    </message>
</context>
<context>
    <name>_ExportProgress</name>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="119"/>
        <source>loading the model</source>
        <translation>正在加载模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="120"/>
        <source>tracing the model (torch.onnx, dynamo)</source>
        <translation>正在将模型转换为 ONNX</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="121"/>
        <source>checking the export against PyTorch</source>
        <translation>正在对照 PyTorch 检查导出结果</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="122"/>
        <source>quantizing to int8</source>
        <translation>正在量化为 int8</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="123"/>
        <source>writing the tokenizer, labels and predict.py</source>
        <translation>正在写入分词器、标签和 predict.py</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="124"/>
        <source>moving the export into place</source>
        <translation>正在将导出结果移入目标文件夹</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="125"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="132"/>
        <source>{folder} is a file, not a folder: choose a new folder or an existing one.</source>
        <translation>{folder} 是一个文件，不是文件夹：请选择一个新文件夹或已有的文件夹。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="134"/>
        <source>{parent} is a file, so no folder can be made inside it: choose another folder.</source>
        <translation>{parent} 是一个文件，无法在其中创建文件夹：请选择另一个文件夹。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="136"/>
        <source>No permission to write in {folder}: choose a folder you can write in.</source>
        <translation>没有在 {folder} 中写入的权限：请选择一个可以写入的文件夹。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="138"/>
        <source>No permission to create a folder in {parent}: choose a folder you can write in.</source>
        <translation>没有在 {parent} 中创建文件夹的权限：请选择一个可以写入的文件夹。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="140"/>
        <source>The export folder {folder} is not empty, and an export never overwrites files: choose a new or empty folder.</source>
        <translation>导出文件夹 {folder} 不是空的，而导出从不覆盖文件：请选择一个新的或空的文件夹。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="142"/>
        <source>The export folder {folder} is inside the model folder {model}: choose a folder outside it.</source>
        <translation>导出文件夹 {folder} 位于模型文件夹 {model} 之内：请选择该文件夹之外的文件夹。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="161"/>
        <source>Starting the export…</source>
        <translation>正在启动导出…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="162"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="177"/>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="183"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
</context>
<context>
    <name>plots</name>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="147"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="334"/>
        <location filename="../../bertstudio/ui/plots.py" line="345"/>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="334"/>
        <location filename="../../bertstudio/ui/plots.py" line="336"/>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="336"/>
        <source>loss (smoothed)</source>
        <translation>损失(平滑)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="344"/>
        <source>Training loss (class-weighted)</source>
        <translation>训练损失（按类别加权）</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="346"/>
        <source>Each training row&apos;s loss is weighted by its class (class weighting: balanced); the evaluation loss is not weighted, so the two are not comparable.</source>
        <translation>每个训练行的损失按其类别加权（类别加权：均衡）；评估损失不加权，因此两者不可直接比较。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="375"/>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="375"/>
        <source>lr</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="377"/>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="395"/>
        <source>Evaluation</source>
        <translation>评估</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="395"/>
        <source>score (x100)</source>
        <translation>分数(×100)</translation>
    </message>
</context>
</TS>
