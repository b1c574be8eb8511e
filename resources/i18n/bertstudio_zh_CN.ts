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
        <location filename="../../bertstudio/ui/actions.py" line="37"/>
        <source>&amp;New project…</source>
        <translation>新建项目(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="38"/>
        <source>&amp;Open project…</source>
        <translation>打开项目(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="39"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="40"/>
        <source>&amp;Import data…</source>
        <translation>导入数据(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="41"/>
        <source>&amp;Export data…</source>
        <translation>导出数据(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="42"/>
        <source>Export &amp;run…</source>
        <translation>导出运行(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="43"/>
        <source>Export model as &amp;ONNX…</source>
        <translation>将模型导出为 ONNX(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="44"/>
        <source>Push to Hugging Face &amp;Hub…</source>
        <translation>推送到 Hugging Face Hub(&amp;H)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="45"/>
        <source>Restore &amp;replaced rows…</source>
        <translation>恢复被替换的行(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="46"/>
        <source>&amp;Close project</source>
        <translation>关闭项目(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="47"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="48"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="51"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="54"/>
        <source>&amp;Add examples…</source>
        <translation>添加样例(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="55"/>
        <source>&amp;Label set…</source>
        <translation>标签集(&amp;L)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="56"/>
        <source>&amp;Learning curve…</source>
        <translation>学习曲线(&amp;L)…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="57"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="58"/>
        <source>Open &amp;recent</source>
        <translation>最近的项目(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="61"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="70"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="75"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="79"/>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="81"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="83"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="99"/>
        <source>(none)</source>
        <translation>(无)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="132"/>
        <source>No project</source>
        <translation>没有项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/actions.py" line="132"/>
        <source>Create or open a project first.</source>
        <translation>请先新建或打开一个项目。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/example_html.py" line="97"/>
        <source>each word with its tag; red = predicted wrong, shown as predicted / gold</source>
        <translation>每个词及其标记；红色 = 预测错误，显示为 预测 / 标准答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/example_html.py" line="98"/>
        <source>Gold:</source>
        <translation>标准答案:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/example_html.py" line="98"/>
        <source>Predicted:</source>
        <translation>预测:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/example_html.py" line="100"/>
        <location filename="../../bertstudio/ui/example_html.py" line="111"/>
        <source>green = gold, orange = predicted</source>
        <translation>绿色 = 标准答案，橙色 = 预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/example_html.py" line="109"/>
        <source>Question:</source>
        <translation>问题:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="51"/>
        <source>No model</source>
        <translation>没有模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="52"/>
        <source>Choose a finished run on the Runs or Results page first.</source>
        <translation>请先在“运行记录”或“结果”页选择一个已完成的运行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="75"/>
        <source>Export the model as ONNX into folder</source>
        <translation>选择导出 ONNX 模型的文件夹</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="80"/>
        <source>Exporting {run} to ONNX…</source>
        <translation>正在将 {run} 导出为 ONNX…</translation>
    </message>
</context>
<context>
    <name>AddExampleDialog</name>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="80"/>
        <source>Add examples</source>
        <translation>添加样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="87"/>
        <source>Sentence</source>
        <translation>句子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="87"/>
        <source>Text A (premise)</source>
        <translation>文本 A(前提)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="88"/>
        <source>Text B (hypothesis)</source>
        <translation>文本 B(假设)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="89"/>
        <source>Sentence (words are split at spaces)</source>
        <translation>句子(按空格切分为词)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="90"/>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="91"/>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="98"/>
        <source>Into split</source>
        <translation>加入数据划分</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="118"/>
        <source>none (score it later)</source>
        <translation>无(稍后打分)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="120"/>
        <source>Score</source>
        <translation>分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="122"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="124"/>
        <source>Store this example (with the label chosen, if any) and clear the form for the next one</source>
        <translation>保存此样例(如已选择标签则一并保存)并清空表单以输入下一个</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="138"/>
        <source>none (label it later)</source>
        <translation>无(稍后标注)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="143"/>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="144"/>
        <source>While typing, Alt+1 … Alt+9 set the label (Alt+0: none); any label can be chosen in the box, where typing its first letters finds it.</source>
        <translation>输入时，Alt+1 … Alt+9 设置标签(Alt+0:无)；也可以在下拉框中选择任意标签，输入标签名的开头几个字母即可找到。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="180"/>
        <source>Added to {s} as row {r} ({n} this time), labelled {g}.</source>
        <translation>已添加到 {s}，第 {r} 行(本次共 {n} 个)，标签为 {g}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="173"/>
        <source>Not added: {m}</source>
        <translation>未添加:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/add_example_dialog.py" line="178"/>
        <source>Added to {s} as row {r} ({n} this time). Label it on the Label page.</source>
        <translation>已添加到 {s},第 {r} 行(本次共 {n} 个)。请在“标注”页标注。</translation>
    </message>
</context>
<context>
    <name>ConfusionModel</name>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="47"/>
        <source>gold</source>
        <translation>标准答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="47"/>
        <source>predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="71"/>
        <source>{n} examples: gold {g}, predicted {p}</source>
        <translation>{n} 个样例:标准答案 {g}，预测 {p}</translation>
    </message>
</context>
<context>
    <name>ConfusionPanel</name>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="136"/>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="138"/>
        <source>Gold</source>
        <translation>标准答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="143"/>
        <source>Columns: the label the model predicted</source>
        <translation>列:模型预测的标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="144"/>
        <source>Rows: the gold label</source>
        <translation>行:标准答案标签</translation>
    </message>
</context>
<context>
    <name>ConfusionView</name>
    <message>
        <location filename="../../bertstudio/ui/confusion_view.py" line="90"/>
        <source>Rows: gold label. Columns: predicted label. Click a cell to list its examples.</source>
        <translation>行:标准答案标签。列:预测标签。单击单元格可列出其中的样例。</translation>
    </message>
</context>
<context>
    <name>DataPage</name>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="90"/>
        <source>Search the text (Enter)</source>
        <translation>搜索文本(回车)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="99"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="101"/>
        <source>Add examples…</source>
        <translation>添加样例…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="102"/>
        <source>Type new examples into this split, then label them</source>
        <translation>在此数据划分中输入新样例，然后标注</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="105"/>
        <source>Split:</source>
        <translation>数据划分:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="109"/>
        <source>Show:</source>
        <translation>显示:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="132"/>
        <source>&lt;b&gt;Label distribution&lt;/b&gt;</source>
        <translation>&lt;b&gt;标签分布&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="201"/>
        <source>All rows</source>
        <translation>全部行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="202"/>
        <source>Unlabelled</source>
        <translation>未标注</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="204"/>
        <source>Label = %1</source>
        <translation>标签 = %1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="205"/>
        <source>Disagrees with the latest run</source>
        <translation>与最近一次运行的预测不一致</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="304"/>
        <source>%1 of %2 rows</source>
        <translation>%1 / %2 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="309"/>
        <source>no run with predictions yet</source>
        <translation>还没有带预测的运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_page.py" line="311"/>
        <source>the latest run evaluated the %1 split</source>
        <translation>最近一次运行评估的是 %1 数据划分</translation>
    </message>
</context>
<context>
    <name>ExampleTableModel</name>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="42"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="43"/>
        <source>Second text</source>
        <translation>第二段文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="44"/>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="45"/>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="46"/>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="47"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="48"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="51"/>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="52"/>
        <source>Score</source>
        <translation>分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="53"/>
        <source>Tags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/data_model.py" line="54"/>
        <source>Answers</source>
        <translation>答案</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="29"/>
        <location filename="../../bertstudio/ui/export_dialog.py" line="65"/>
        <source>Export data</source>
        <translation>导出数据</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="39"/>
        <source>from the file name</source>
        <translation>根据文件名</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="44"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="54"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="58"/>
        <source>Split:</source>
        <translation>数据划分:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="59"/>
        <source>Format:</source>
        <translation>格式:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="60"/>
        <source>File:</source>
        <translation>文件:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/export_dialog.py" line="72"/>
        <source>Choose a file to write.</source>
        <translation>请选择要写入的文件。</translation>
    </message>
</context>
<context>
    <name>FileSurveyBox</name>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="73"/>
        <source>{share}% of the word pieces of {n} sampled examples are [UNK] for the model {model}: it cannot read most of this text, and training on it learns little. Use a model made for this language, e.g. {models}, on the Train page (a Hub id, or a local model folder to work offline).</source>
        <translation>抽样的 {n} 个样例中，有 {share}% 的词片段对模型 {model} 来说是 [UNK]:它读不懂这些文本的大部分内容，在上面训练几乎学不到东西。请在“训练”页改用针对这种语言的模型，例如 {models}(填写 Hub id；或使用本地模型文件夹，以便离线工作)。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="151"/>
        <source>Import only</source>
        <translation>只导入</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="155"/>
        <source>first rows</source>
        <translation>前若干行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="156"/>
        <source>random rows, seed</source>
        <translation>随机行，种子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="158"/>
        <source>Keep a big file&apos;s sample small: the first N rows, or N rows drawn at random with a seed (the same seed draws the same rows)</source>
        <translation>让大文件的样本保持小巧:取前 N 行，或用随机种子随机抽取 N 行(相同的种子抽到相同的行)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="201"/>
        <source>Counting the rows of the whole file…</source>
        <translation>正在统计整个文件的行数…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="274"/>
        <source>{rows} rows, {labelled} labelled</source>
        <translation>{rows} 行，已标注 {labelled} 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="278"/>
        <source>importing {n} of them</source>
        <translation>导入其中 {n} 行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="285"/>
        <source>Scores from {lo} to {hi}, mean {mean}</source>
        <translation>分数从 {lo} 到 {hi}，平均 {mean}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="289"/>
        <source>with an answer</source>
        <translation>有答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="289"/>
        <source>without an answer</source>
        <translation>无答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="294"/>
        <source>and {n} more</source>
        <translation>以及另外 {n} 个</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="296"/>
        <source>Tags ({n} tokens):</source>
        <translation>标记({n} 个词元):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_survey.py" line="297"/>
        <source>Labels:</source>
        <translation>标签:</translation>
    </message>
</context>
<context>
    <name>HelpPanel</name>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="13"/>
        <source>a letter (not S), or /</source>
        <translation>字母键(S 除外)或 /</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="23"/>
        <source>← / → or ↑ / ↓</source>
        <translation>← / → 或 ↑ / ↓</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="23"/>
        <source>previous / next example</source>
        <translation>上一个 / 下一个样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="24"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="49"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="58"/>
        <source>S or Space</source>
        <translation>S 或 Space</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="24"/>
        <source>skip to the next unlabelled example</source>
        <translation>跳到下一个未标注的样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="25"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="50"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="59"/>
        <source>Ctrl+Z / Ctrl+Shift+Z</source>
        <translation>Ctrl+Z / Ctrl+Shift+Z</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="25"/>
        <source>undo / redo the last edit</source>
        <translation>撤销 / 重做上一次编辑</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="28"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="37"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="41"/>
        <source>1 … 9</source>
        <translation>1 … 9</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="28"/>
        <source>apply the label with that number (see the legend)</source>
        <translation>应用对应编号的标签(见图例)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="29"/>
        <source>pick any label by typing part of its name; Enter applies it (the legend shows each label&apos;s key)</source>
        <translation>输入标签名的一部分即可选择任意标签；按 Enter 应用(图例中列出了每个标签的按键)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="30"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="39"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="43"/>
        <source>0 or Backspace</source>
        <translation>0 或 Backspace</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="30"/>
        <source>clear the label</source>
        <translation>清除标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="32"/>
        <source>0 … 5</source>
        <translation>0 … 5</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="32"/>
        <source>set a whole score</source>
        <translation>设置整数分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="32"/>
        <source>slider / box</source>
        <translation>滑块 / 输入框</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="32"/>
        <source>set a score in tenths</source>
        <translation>设置精确到十分位的分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="33"/>
        <source>Enter or an arrow in the box</source>
        <translation>在输入框中按 Enter 或方向键</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="33"/>
        <source>store the typed score (an arrow then moves on)</source>
        <translation>保存输入的分数(方向键随后转到相邻样例)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="34"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="56"/>
        <source>Backspace</source>
        <translation>Backspace</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="34"/>
        <source>clear the score</source>
        <translation>清除分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="37"/>
        <source>mark the selected words as that entity type (B- on the first, I- on the rest)</source>
        <translation>将选中的词标为该实体类型(第一个词为 B-，其余为 I-)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="38"/>
        <source>pick any entity type by typing part of its name; Enter applies it (the legend shows each type&apos;s key)</source>
        <translation>输入实体类型名的一部分即可选择任意实体类型；按 Enter 应用(图例中列出了每个类型的按键)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="41"/>
        <source>give each selected word the tag with that number; a sentence is stored once every word has a tag</source>
        <translation>为每个选中的词设置该编号的标记；句子中每个词都有标记后才会保存</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="42"/>
        <source>pick any tag by typing part of its name; Enter applies it (the legend shows each tag&apos;s key)</source>
        <translation>输入标记名的一部分即可选择任意标记；按 Enter 应用(图例中列出了每个标记的按键)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="43"/>
        <source>clear the tag of the selected words</source>
        <translation>清除选中词的标记</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="45"/>
        <source>← / →</source>
        <translation>← / →</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="45"/>
        <source>move the word cursor</source>
        <translation>移动词光标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="46"/>
        <source>Shift+← / Shift+→, or drag</source>
        <translation>Shift+← / Shift+→ 或拖动</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="46"/>
        <source>select several words</source>
        <translation>选择多个词</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="65"/>
        <source>Keyboard</source>
        <translation>键盘</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="39"/>
        <source>clear the entity under the cursor</source>
        <translation>清除光标处的实体</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="48"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="57"/>
        <source>↑ / ↓, Page Up / Page Down</source>
        <translation>↑ / ↓、Page Up / Page Down</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="48"/>
        <source>previous / next sentence</source>
        <translation>上一句 / 下一句</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="49"/>
        <source>skip to the next unlabelled sentence</source>
        <translation>跳到下一个未标注的句子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="50"/>
        <location filename="../../bertstudio/ui/help_panel.py" line="59"/>
        <source>undo / redo</source>
        <translation>撤销 / 重做</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="53"/>
        <source>select with the mouse</source>
        <translation>用鼠标选择</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="53"/>
        <source>the selection becomes the answer</source>
        <translation>选中的文本即成为答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="54"/>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="54"/>
        <source>use the current selection as the answer</source>
        <translation>将当前选中的文本作为答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="55"/>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="55"/>
        <source>toggle &apos;no answer&apos;</source>
        <translation>切换“无答案”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="56"/>
        <source>clear the answer</source>
        <translation>清除答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="57"/>
        <source>previous / next question</source>
        <translation>上一个 / 下一个问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="58"/>
        <source>skip to the next unanswered question</source>
        <translation>跳到下一个未回答的问题</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="79"/>
        <location filename="../../bertstudio/ui/import_dialog.py" line="196"/>
        <source>Import data</source>
        <translation>导入数据</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="97"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="106"/>
        <source>detect</source>
        <translation>自动识别</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="112"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="123"/>
        <source>File:</source>
        <translation>文件:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="124"/>
        <source>Format:</source>
        <translation>格式:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="125"/>
        <source>GLUE preset:</source>
        <translation>GLUE 预设:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="126"/>
        <source>Into split:</source>
        <translation>加入数据划分:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="132"/>
        <location filename="../../bertstudio/ui/import_dialog.py" line="282"/>
        <source>Columns (what each column of the file holds)</source>
        <translation>列(文件每一列的内容)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="136"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="136"/>
        <source>Second text</source>
        <translation>第二段文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="136"/>
        <source>Label / score</source>
        <translation>标签 / 分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="137"/>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="137"/>
        <source>Tags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="137"/>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="138"/>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="138"/>
        <source>Answers</source>
        <translation>答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="138"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="139"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="165"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="172"/>
        <source>First rows:</source>
        <translation>前几行:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="197"/>
        <source>Data files (*.tsv *.csv *.txt *.jsonl *.json *.conll *.conllu *.iob *.bio);;All files (*)</source>
        <translation>数据文件 (*.tsv *.csv *.txt *.jsonl *.json *.conll *.conllu *.iob *.bio);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="244"/>
        <source>— choose —</source>
        <translation>— 请选择 —</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="264"/>
        <source>Format: %1 · this file looks like %2 data</source>
        <translation>格式:%1 · 此文件看起来是“%2”数据</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="267"/>
        <source>This file holds %1 examples but the project is a %2 project.</source>
        <translation>此文件包含“%1”样例，但项目是“%2”项目。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="281"/>
        <source>Columns (set by the format or preset)</source>
        <translation>列(由格式或预设决定)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="327"/>
        <source>Choose the file column for: %1</source>
        <translation>请选择对应的文件列:%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="350"/>
        <source>Reading the file…</source>
        <translation>正在读取文件…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="379"/>
        <source>The file&apos;s labels differ from the project&apos;s: choose what each becomes, then Import.</source>
        <translation>文件中的标签与项目的不同:请为每个标签选择对应的项目标签，然后点击“导入”。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/import_dialog.py" line="414"/>
        <source>Choose what these labels become: %1</source>
        <translation>请为这些标签选择对应的项目标签:%1</translation>
    </message>
</context>
<context>
    <name>KindEditor</name>
    <message>
        <location filename="../../bertstudio/ui/editors/base.py" line="133"/>
        <source>Every example of this split is labelled.</source>
        <translation>此数据划分中的样例已全部标注。</translation>
    </message>
</context>
<context>
    <name>LabelLegend</name>
    <message>
        <location filename="../../bertstudio/ui/editors/legend.py" line="46"/>
        <source>Press %1 or click to apply &apos;%2&apos;</source>
        <translation>按 %1 或单击以应用“%2”</translation>
    </message>
</context>
<context>
    <name>LabelMappingBox</name>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="34"/>
        <source>Labels (what each label of the file becomes)</source>
        <translation>标签(文件中的每个标签对应到什么)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="55"/>
        <source>tokens</source>
        <translation>个词元</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="55"/>
        <source>rows</source>
        <translation>行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="56"/>
        <source>The file&apos;s labels are not all labels of this project (%1). Choose what each one becomes:</source>
        <translation>文件中的标签并不都是此项目的标签(%1)。请为每个标签选择对应项:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="62"/>
        <source>— choose —</source>
        <translation>— 请选择 —</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="65"/>
        <source>add “%1” as a new class</source>
        <translation>将“%1”添加为新类别</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="67"/>
        <source>leave unlabelled</source>
        <translation>保持未标注</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="109"/>
        <source>%1 value(s) become project labels</source>
        <translation>%1 个值对应到项目标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="111"/>
        <source>%1 new class(es) will be added</source>
        <translation>将添加 %1 个新类别</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="113"/>
        <source>%1 row(s) stay unlabelled</source>
        <translation>%1 行保持未标注</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/label_mapping_widget.py" line="115"/>
        <source>choose for: %1</source>
        <translation>请选择对应项:%1</translation>
    </message>
</context>
<context>
    <name>LabelPage</name>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="61"/>
        <source>%v / %m labelled</source>
        <translation>已标注 %v / %m</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="63"/>
        <source>Label set…</source>
        <translation>标签集…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="68"/>
        <source>Split:</source>
        <translation>数据划分:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="147"/>
        <source>example %1 of %2</source>
        <translation>第 %1 个样例，共 %2 个</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/page.py" line="148"/>
        <source>no examples</source>
        <translation>没有样例</translation>
    </message>
</context>
<context>
    <name>LabelPicker</name>
    <message>
        <location filename="../../bertstudio/ui/editors/label_picker.py" line="85"/>
        <source>Type part of a label&apos;s name</source>
        <translation>输入标签名的一部分</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_picker.py" line="91"/>
        <source>↑ ↓ choose · Enter applies · Esc closes</source>
        <translation>↑ ↓ 选择 · Enter 应用 · Esc 关闭</translation>
    </message>
</context>
<context>
    <name>LabelSetDialog</name>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="40"/>
        <source>Label set</source>
        <translation>标签集</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="50"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="51"/>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="52"/>
        <source>Colour…</source>
        <translation>颜色…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="53"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="62"/>
        <source>Order = key order (1-9) and label ids of the model.</source>
        <translation>顺序 = 按键顺序(1-9)，也是模型中的标签编号。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="104"/>
        <source>Add label</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="104"/>
        <source>Name of the new label:</source>
        <translation>新标签的名称:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="112"/>
        <source>Rename label</source>
        <translation>重命名标签</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/label_set.py" line="112"/>
        <source>New name:</source>
        <translation>新名称:</translation>
    </message>
</context>
<context>
    <name>LearningCurvePanel</name>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="51"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="53"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="63"/>
        <source>labelled training rows</source>
        <translation>已标注的训练行数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="65"/>
        <source>one run</source>
        <translation>单次运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="67"/>
        <source>Trains the current settings on {f} of the labelled rows, {n} seeds each, and fits a power law to say what more labels would give.</source>
        <translation>用当前设置在已标注行的 {f} 上训练，每种比例跑 {n} 个随机种子，并拟合幂律曲线，估计更多标注能带来多少提升。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="100"/>
        <source>metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="120"/>
        <source>Stopping after the current step…</source>
        <translation>将在当前步结束后停止…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="146"/>
        <source>The learning curve stopped: {m}</source>
        <translation>学习曲线已停止:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="155"/>
        <source>Cancelled after {n} runs.</source>
        <translation>已在 {n} 次运行后取消。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="158"/>
        <source>{n} runs done.</source>
        <translation>已完成 {n} 次运行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="173"/>
        <source>mean over seeds</source>
        <translation>各随机种子的平均值</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="180"/>
        <source>power-law fit</source>
        <translation>幂律拟合</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="190"/>
        <source>Too few points for a fit: runs at two or more sizes are needed.</source>
        <translation>数据点太少，无法拟合:需要在两种或更多数据量下的运行。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="193"/>
        <source>With {n:,} labelled rows the {m} is {now} (mean of {k} seeds). Doubling to {n2:,} rows is expected to give {pred} ({d:+.1f} points; 95% range {lo} to {hi}).</source>
        <translation>使用 {n:,} 行已标注数据时，{m} 为 {now}({k} 个随机种子的平均值)。翻倍到 {n2:,} 行预计可达到 {pred}({d:+.1f} 个百分点；95% 区间为 {lo} 到 {hi})。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/learning_curve.py" line="204"/>
        <source>Learning curve</source>
        <translation>学习曲线</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="46"/>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="47"/>
        <source>Label</source>
        <translation>标注</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="48"/>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="49"/>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="50"/>
        <source>Playground</source>
        <translation>试用</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="51"/>
        <source>Runs</source>
        <translation>运行记录</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="52"/>
        <source>GLUE scoreboard</source>
        <translation>GLUE 计分板</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="176"/>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="185"/>
        <source>Cannot open the project</source>
        <translation>无法打开项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="195"/>
        <source>Project repaired on open: %1</source>
        <translation>打开时已修复项目:%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="196"/>
        <source>Project recovered</source>
        <translation>项目已恢复</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="197"/>
        <source>Opening the project repaired it:</source>
        <translation>打开项目时已修复:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="213"/>
        <source>Saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="234"/>
        <source>Imported %1 rows into %2</source>
        <translation>已导入 %1 行到 %2</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="263"/>
        <source>Could not save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="272"/>
        <source>Run exported to %1</source>
        <translation>运行已导出到 %1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="295"/>
        <source>No project</source>
        <translation>没有项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="295"/>
        <source>Create or open a project first.</source>
        <translation>请先新建或打开一个项目。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="329"/>
        <source>No project open</source>
        <translation>未打开项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="337"/>
        <source>Project: %1 (%2)</source>
        <translation>项目:%1(%2)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="339"/>
        <source>Split: %1</source>
        <translation>数据划分:%1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="340"/>
        <source>%1 labelled / %2</source>
        <translation>已标注 %1 / %2</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="357"/>
        <source>Training is running</source>
        <translation>正在训练</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/main_window.py" line="358"/>
        <source>A training run is in progress. Stop it and quit?</source>
        <translation>训练正在进行。停止训练并退出吗？</translation>
    </message>
</context>
<context>
    <name>MetricsPanel</name>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="49"/>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="49"/>
        <source>Score (x100)</source>
        <translation>分数(×100)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="51"/>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="85"/>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="88"/>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="51"/>
        <source>Precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="51"/>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="52"/>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="52"/>
        <source>Support</source>
        <translation>支持数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="59"/>
        <source>scikit-learn&apos;s classification report, x100; support counts gold examples, tokens or entities</source>
        <translation>scikit-learn 的分类报告，×100；支持数统计的是标准答案中的样例、词元或实体数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="74"/>
        <source>official metric of this task</source>
        <translation>此任务的官方指标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="85"/>
        <source>Per class (support: examples)</source>
        <translation>按类别(支持数:样例)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="86"/>
        <source>Per tag (support: tokens)</source>
        <translation>按标记(支持数:词元)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="86"/>
        <source>Tag</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="87"/>
        <source>Per entity type (support: entities)</source>
        <translation>按实体类型(支持数:实体)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="87"/>
        <source>Entity type</source>
        <translation>实体类型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="91"/>
        <source>macro avg</source>
        <translation>宏平均</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/metrics_panel.py" line="91"/>
        <source>weighted avg</source>
        <translation>加权平均</translation>
    </message>
</context>
<context>
    <name>NewProjectDialog</name>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="40"/>
        <source>Single sentence classification</source>
        <translation>单句分类</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="41"/>
        <source>Sentence pair classification</source>
        <translation>句对分类</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="42"/>
        <source>Sentence pair regression (score)</source>
        <translation>句对回归(打分)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="43"/>
        <source>Token tagging (entities, POS)</source>
        <translation>词元标注(实体、词性)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="44"/>
        <source>Extractive question answering</source>
        <translation>抽取式问答</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="75"/>
        <source>New project</source>
        <translation>新建项目</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="81"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="93"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="101"/>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="140"/>
        <source>e.g. negative, positive</source>
        <translation>例如 negative, positive</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="102"/>
        <source>Entity spans (BIO tags: O, B-X, I-X)</source>
        <translation>实体片段(BIO 标记:O、B-X、I-X)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="110"/>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="114"/>
        <source>Name:</source>
        <translation>名称:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="115"/>
        <source>Folder:</source>
        <translation>文件夹:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="116"/>
        <source>From a GLUE preset:</source>
        <translation>使用 GLUE 预设:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="117"/>
        <source>Task:</source>
        <translation>任务:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="118"/>
        <source>Labels:</source>
        <translation>标签:</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="140"/>
        <source>entity types, e.g. PER, LOC, ORG</source>
        <translation>实体类型，例如 PER, LOC, ORG</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="155"/>
        <source>Folder for the new project</source>
        <translation>新项目的文件夹</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="167"/>
        <source>Give the project a name and a folder.</source>
        <translation>请为项目指定名称和文件夹。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="188"/>
        <source>Cannot create the project in {folder}: {reason}</source>
        <translation>无法在 {folder} 中创建项目:{reason}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="201"/>
        <source>{path} is a file, not a folder: choose a folder for the project.</source>
        <translation>{path} 是文件而不是文件夹:请为项目选择一个文件夹。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="202"/>
        <source>{path} is a file, so no folder can be made inside it: choose another place.</source>
        <translation>{path} 是文件，无法在其中创建文件夹:请选择其他位置。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="207"/>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="208"/>
        <source>no permission to write there</source>
        <translation>没有在此处写入的权限</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="209"/>
        <source>the disk is read-only</source>
        <translation>磁盘是只读的</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="210"/>
        <source>the disk is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="211"/>
        <source>a part of the path is a file, not a folder</source>
        <translation>路径中的某一部分是文件而不是文件夹</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/new_project_dialog.py" line="212"/>
        <source>the path is too long</source>
        <translation>路径太长</translation>
    </message>
</context>
<context>
    <name>PlaygroundPage</name>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="92"/>
        <source>Predict</source>
        <translation>预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="100"/>
        <source>Model of run</source>
        <translation>所用运行的模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="112"/>
        <source>Sentence</source>
        <translation>句子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="112"/>
        <source>First sentence</source>
        <translation>第一句</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="113"/>
        <source>Second sentence</source>
        <translation>第二句</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="114"/>
        <source>Tokens (separated by spaces)</source>
        <translation>词元(以空格分隔)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="115"/>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="116"/>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="140"/>
        <source>{name} (latest)</source>
        <translation>{name}(最新)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="159"/>
        <source>Train a model first: the Playground uses a finished or cancelled run&apos;s model.</source>
        <translation>请先训练模型:“试用”页使用已完成或已取消的运行所保存的模型。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="183"/>
        <source>Predicting…</source>
        <translation>预测中…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="199"/>
        <source>Could not predict: {m}</source>
        <translation>无法预测:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="220"/>
        <source>Score</source>
        <translation>分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="236"/>
        <source>No answer in the context.</source>
        <translation>上下文中没有答案。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/playground.py" line="241"/>
        <source>score</source>
        <translation>得分</translation>
    </message>
</context>
<context>
    <name>PredictionsModel</name>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="69"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="69"/>
        <source>Gold</source>
        <translation>标准答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="69"/>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="70"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="70"/>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/predictions_model.py" line="122"/>
        <source>(example {n} not in the project)</source>
        <translation>(样例 {n} 不在此项目中)</translation>
    </message>
</context>
<context>
    <name>ProjectSession</name>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="247"/>
        <source>Replace the rows of %1</source>
        <translation>替换 %1 的行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/session.py" line="260"/>
        <source>Restore the rows of %1</source>
        <translation>恢复 %1 的行</translation>
    </message>
</context>
<context>
    <name>PushToHubDialog</name>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="125"/>
        <source>Push to Hugging Face Hub</source>
        <translation>推送到 Hugging Face Hub</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="128"/>
        <source>user/model-name</source>
        <translation>用户名/模型名</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="129"/>
        <source>Private repository</source>
        <translation>私有仓库</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="137"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="138"/>
        <source>Repository</source>
        <translation>仓库</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="140"/>
        <source>Token</source>
        <translation>令牌</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="142"/>
        <source>Push</source>
        <translation>推送</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="147"/>
        <source>Uploads the run&apos;s model with a model card (its data, settings and metrics).</source>
        <translation>上传此运行的模型及模型卡片(包括其数据、设置和指标)。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="158"/>
        <source>empty: use the cached Hugging Face login</source>
        <translation>留空:使用已缓存的 Hugging Face 登录信息</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="159"/>
        <source>a write token (no cached login found: `hf auth login`)</source>
        <translation>具有写权限的令牌(未找到已缓存的登录信息:`hf auth login`)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="186"/>
        <source>Uploaded to &lt;a href=&quot;{u}&quot;&gt;{u}&lt;/a&gt;.</source>
        <translation>已上传到 &lt;a href=&quot;{u}&quot;&gt;{u}&lt;/a&gt;。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="192"/>
        <source>Not pushed: {m}</source>
        <translation>未推送:{m}</translation>
    </message>
</context>
<context>
    <name>QAEditor</name>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="74"/>
        <source>Type a new question about this context</source>
        <translation>输入关于此上下文的新问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="75"/>
        <source>Add question</source>
        <translation>添加问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="100"/>
        <source>No answer in this context (SQuAD v2)</source>
        <translation>此上下文中没有答案(SQuAD v2)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="103"/>
        <source>Use selection as answer (Enter)</source>
        <translation>将选中文本作为答案(回车)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="114"/>
        <source>Questions about this context</source>
        <translation>关于此上下文的问题</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="137"/>
        <source>(no answer chosen yet: select it in the context)</source>
        <translation>(尚未选择答案:请在上下文中选中它)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="139"/>
        <source>Answer: none</source>
        <translation>答案:无</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="141"/>
        <source>Answer: %1 (character %2)</source>
        <translation>答案:%1(第 %2 个字符)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="192"/>
        <source>Answer row %1 with &apos;%2&apos;</source>
        <translation>将第 %1 行的答案设为“%2”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="211"/>
        <source>Mark row %1 unanswerable</source>
        <translation>将第 %1 行标为无法回答</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/qa.py" line="214"/>
        <location filename="../../bertstudio/ui/editors/qa.py" line="245"/>
        <source>Clear the answer of row %1</source>
        <translation>清除第 %1 行的答案</translation>
    </message>
</context>
<context>
    <name>RegressionEditor</name>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="167"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="170"/>
        <source>Type a score such as 3.7: Enter stores it, an arrow key stores it and moves to the previous or next example</source>
        <translation>输入分数，例如 3.7:按 Enter 保存，按方向键保存并转到上一个或下一个样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="180"/>
        <source>Keys 0-5 set a whole score; for tenths drag the slider or type the score in the box (Enter or an arrow key stores it).</source>
        <translation>按键 0-5 设置整数分数；如需十分位，请拖动滑块或在输入框中输入分数(按 Enter 或方向键保存)。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="192"/>
        <source>(not scored)</source>
        <translation>(未打分)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="192"/>
        <source>(no example)</source>
        <translation>(无样例)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="227"/>
        <source>Score row %1 as %2</source>
        <translation>将第 %1 行打分为 %2</translation>
    </message>
</context>
<context>
    <name>RegressionScatter</name>
    <message>
        <location filename="../../bertstudio/ui/regression_scatter.py" line="27"/>
        <source>Predicted against gold</source>
        <translation>预测值与标准答案对比</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/regression_scatter.py" line="28"/>
        <source>gold score</source>
        <translation>标准答案分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/regression_scatter.py" line="29"/>
        <source>predicted score</source>
        <translation>预测分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/regression_scatter.py" line="38"/>
        <source>One point per example; the dashed line is predicted = gold. Click a point to show its example.</source>
        <translation>每个点代表一个样例；虚线表示预测值 = 标准答案。单击某个点可显示其样例。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/regression_scatter.py" line="42"/>
        <source>gold {g:.2f}, predicted {p:.2f}</source>
        <translation>标准答案 {g:.2f}，预测 {p:.2f}</translation>
    </message>
</context>
<context>
    <name>ResultsFilter</name>
    <message>
        <location filename="../../bertstudio/ui/results_filter.py" line="43"/>
        <source>Words</source>
        <translation>词</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_filter.py" line="45"/>
        <source>Wrong tags</source>
        <translation>错误的标记</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_filter.py" line="70"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_filter.py" line="78"/>
        <source>{k} of {n}: {words}</source>
        <translation>{k} / {n}:{words}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_filter.py" line="83"/>
        <source>word · gold · predicted</source>
        <translation>词 · 标准答案 · 预测</translation>
    </message>
</context>
<context>
    <name>ResultsPage</name>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="81"/>
        <source>Errors only</source>
        <translation>只看错误</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="99"/>
        <source>Set as gold</source>
        <translation>设为标准答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="101"/>
        <source>Use prediction as gold</source>
        <translation>采用预测作为标准答案</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="105"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="176"/>
        <source>{name} (not in this project)</source>
        <translation>{name}(不属于此项目)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="255"/>
        <source>This run is not one of this project&apos;s runs ({folder}); it is shown for viewing only.</source>
        <translation>此运行不属于此项目({folder})；仅供查看。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="258"/>
        <source>It is a {run} run and this project holds {project} examples, so its rows are not matched to the project&apos;s.</source>
        <translation>这是一次 {run} 运行，而此项目包含 {project} 样例，因此其中的行不会与项目的行对应。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="262"/>
        <source>{joined} of {total} of its rows match this project&apos;s examples (same gold value).</source>
        <translation>它的 {total} 行中有 {joined} 行与此项目的样例对应(标准答案相同)。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="320"/>
        <source>{shown} of {total} examples</source>
        <translation>{shown} / {total} 个样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="322"/>
        <source>gold {g}, predicted {p}</source>
        <translation>标准答案 {g}，预测 {p}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/results_page.py" line="386"/>
        <source>Relabel {split} row {row}</source>
        <translation>重新标注 {split} 的第 {row} 行</translation>
    </message>
</context>
<context>
    <name>RunCompareDialog</name>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="51"/>
        <source>Compare runs: {a} → {b}</source>
        <translation>比较运行:{a} → {b}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="53"/>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="68"/>
        <location filename="../../bertstudio/ui/run_compare.py" line="69"/>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="68"/>
        <location filename="../../bertstudio/ui/run_compare.py" line="70"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="68"/>
        <location filename="../../bertstudio/ui/run_compare.py" line="69"/>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="69"/>
        <source>examples seen</source>
        <translation>已见样例数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="70"/>
        <source>Evaluation</source>
        <translation>评估</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="70"/>
        <location filename="../../bertstudio/ui/run_compare.py" line="173"/>
        <source>metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="73"/>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="77"/>
        <source>Setting</source>
        <translation>设置项</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="77"/>
        <source>Run A</source>
        <translation>运行 A</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="77"/>
        <source>Run B</source>
        <translation>运行 B</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="80"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="96"/>
        <source>Examples</source>
        <translation>样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="99"/>
        <source>Fixed (wrong → right): {n}</source>
        <translation>修正(错 → 对):{n}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="99"/>
        <source>Broken (right → wrong): {n}</source>
        <translation>退化(对 → 错):{n}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="100"/>
        <source>Both wrong: {n}</source>
        <translation>都错:{n}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="117"/>
        <source>Cannot compare these runs: {m}</source>
        <translation>无法比较这些运行:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="141"/>
        <source>A = {a}, B = {b}. {n} shared evaluation rows (paired by {how}).</source>
        <translation>A = {a}，B = {b}。共有 {n} 个共同的评估行(按{how}配对)。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="143"/>
        <source>project row</source>
        <translation>项目行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="143"/>
        <source>position in the evaluation set</source>
        <translation>在评估集中的位置</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="145"/>
        <source>{n} rows relabelled between the runs are left out.</source>
        <translation>两次运行之间重新标注过的 {n} 行未计入。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="146"/>
        <source>Fixed {f} · broken {b} · both wrong {w} · both right {r}; McNemar&apos;s exact p = {p}.</source>
        <translation>修正 {f} · 退化 {b} · 都错 {w} · 都对 {r}；McNemar 精确检验 p = {p}。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="150"/>
        <source>{m}: {a} → {b} ({d:+.1f} points; 95% paired bootstrap interval {lo:+.1f} to {hi:+.1f}, {k:,} resamples).</source>
        <translation>{m}:{a} → {b}({d:+.1f} 个百分点；95% 配对自助法区间 {lo:+.1f} 到 {hi:+.1f}，重采样 {k:,} 次)。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="192"/>
        <source>eval row {n}</source>
        <translation>评估行 {n}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/run_compare.py" line="211"/>
        <source>Gold</source>
        <translation>标准答案</translation>
    </message>
</context>
<context>
    <name>RunsModel</name>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="98"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="98"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="98"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="98"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="98"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="98"/>
        <source>Epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="99"/>
        <source>LR</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="99"/>
        <source>Batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="99"/>
        <source>Main score</source>
        <translation>主要分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="99"/>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="113"/>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="113"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="113"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="114"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="114"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="118"/>
        <source>bundled MiniLM</source>
        <translation>内置 MiniLM</translation>
    </message>
</context>
<context>
    <name>RunsPage</name>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="143"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="145"/>
        <source>Open run folder…</source>
        <translation>打开运行文件夹…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="147"/>
        <source>Follow selected run live</source>
        <translation>实时跟踪所选运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="149"/>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="150"/>
        <source>Select two runs to compare their curves, settings and predictions</source>
        <translation>选择两次运行，比较它们的曲线、设置和预测</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="203"/>
        <source>Open a run folder (with history.jsonl)</source>
        <translation>打开运行文件夹(含 history.jsonl)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/runs_page.py" line="229"/>
        <source>Following {folder}</source>
        <translation>正在跟踪 {folder}</translation>
    </message>
</context>
<context>
    <name>ScoreboardPage</name>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="24"/>
        <source>GLUE leaderboard: mean of each task&apos;s metrics, MNLI = mean of m/mm, WNLI left out</source>
        <translation>GLUE 排行榜:每个任务取其各指标的平均值，MNLI = m/mm 的平均值，不计 WNLI</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="25"/>
        <source>BERT paper Table 1: F1 for MRPC/QQP, Spearman for STS-B, MCC for CoLA, accuracy elsewhere; MNLI-m and MNLI-mm apart; WNLI left out</source>
        <translation>BERT 论文表 1:MRPC/QQP 用 F1，STS-B 用 Spearman，CoLA 用 MCC，其余用准确率；MNLI-m 与 MNLI-mm 分开计；不计 WNLI</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="27"/>
        <source>main metric of each task, MNLI matched only, WNLI left out</source>
        <translation>每个任务的主要指标，MNLI 只计 matched，不计 WNLI</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="53"/>
        <source>GLUE leaderboard</source>
        <translation>GLUE 排行榜</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="53"/>
        <source>BERT paper (Table 1)</source>
        <translation>BERT 论文(表 1)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="54"/>
        <source>One metric per task</source>
        <translation>每个任务一个指标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="60"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="60"/>
        <source>Score</source>
        <translation>分数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="60"/>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="60"/>
        <source>Best run</source>
        <translation>最佳运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="67"/>
        <source>Convention</source>
        <translation>计分规则</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="91"/>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="91"/>
        <source>no run yet</source>
        <translation>尚无运行</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="96"/>
        <source>(not in the average)</source>
        <translation>(不计入平均)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="98"/>
        <source>(partial)</source>
        <translation>(部分)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="108"/>
        <source>over {n} of {m} entries</source>
        <translation>基于 {m} 项中的 {n} 项</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="110"/>
        <source>({k} missing: {names}; partial average, not comparable with a full score)</source>
        <translation>(缺少 {k} 项:{names}；部分平均值，不能与完整分数相比)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/scoreboard_page.py" line="113"/>
        <source>Average</source>
        <translation>平均</translation>
    </message>
</context>
<context>
    <name>SentenceEditor</name>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="63"/>
        <source>Move to the next example after labelling</source>
        <translation>标注后转到下一个样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="69"/>
        <source>Premise / first text</source>
        <translation>前提 / 第一段文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="70"/>
        <source>Hypothesis / second text</source>
        <translation>假设 / 第二段文本</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="86"/>
        <source>Press %1 or click to label this example &apos;%2&apos;</source>
        <translation>按 %1 或单击，将此样例标为“%2”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="106"/>
        <source>(not labelled)</source>
        <translation>(未标注)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="106"/>
        <source>(no example)</source>
        <translation>(无样例)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="118"/>
        <source>Label row %1 as &apos;%2&apos;</source>
        <translation>将第 %1 行标为“%2”</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/classify.py" line="124"/>
        <source>Clear the label of row %1</source>
        <translation>清除第 %1 行的标签</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../../bertstudio/ui/help_panel.py" line="86"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
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
    <name>TaggingEditor</name>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="113"/>
        <source>Entity types (select words, then press a key):</source>
        <translation>实体类型(先选择词，再按键):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="114"/>
        <source>Press %1 or click to mark the selected words as a %2 entity</source>
        <translation>按 %1 或单击，将选中的词标为 %2 实体</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="116"/>
        <source>Tags (select words, then press a key):</source>
        <translation>标记(先选择词，再按键):</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="117"/>
        <source>Press %1 or click to tag the selected words %2</source>
        <translation>按 %1 或单击，将选中的词标记为 %2</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="146"/>
        <source>(not labelled yet: every word starts outside any entity, O)</source>
        <translation>(尚未标注:每个词都从任何实体之外(O)开始)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="148"/>
        <source>(not tagged yet: %1 of %2 words have a tag; the sentence is stored once every word has one)</source>
        <translation>(尚未标注完:%2 个词中有 %1 个已有标记；每个词都有标记后才会保存此句)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="209"/>
        <source>&apos;%1&apos; overlaps an entity already marked; clear that one first (Backspace).</source>
        <translation>“%1”与已标注的实体重叠；请先清除那个实体(Backspace)。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="217"/>
        <source>Tag &apos;%1&apos; as %2</source>
        <translation>将“%1”标记为 %2</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="225"/>
        <source>Clear the entity at word %1</source>
        <translation>清除第 %1 个词处的实体</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/editors/tagging.py" line="231"/>
        <source>Clear the tag of &apos;%1&apos;</source>
        <translation>清除“%1”的标记</translation>
    </message>
</context>
<context>
    <name>TrainingMonitor</name>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="317"/>
        <location filename="../../bertstudio/ui/plots.py" line="354"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="367"/>
        <location filename="../../bertstudio/ui/plots.py" line="417"/>
        <source>step %v / %m</source>
        <translation>第 %v / %m 步</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="369"/>
        <source>Started: {n} training / {m} evaluation examples, {s} steps, batch {b}, {t:,} of {p:,} parameters trainable, on {d} ({prec}).</source>
        <translation>已开始:{n} 个训练样例 / {m} 个评估样例，{s} 步，批大小 {b}，{p:,} 个参数中有 {t:,} 个可训练，设备 {d}({prec})。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="392"/>
        <source>step %v / %m  ·  {rate:.1f} examples/s  ·  ETA {eta}  ·  loss {loss:.4f}</source>
        <translation>第 %v / %m 步  ·  {rate:.1f} 样例/秒  ·  预计剩余 {eta}  ·  损失 {loss:.4f}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="403"/>
        <source>Evaluation at step {step} (epoch {epoch:.2f}): {m}</source>
        <translation>第 {step} 步(第 {epoch:.2f} 轮)的评估:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="416"/>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="416"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="416"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="418"/>
        <source>Run {status}.</source>
        <translation>运行{status}。</translation>
    </message>
</context>
<context>
    <name>TrainingPage</name>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="113"/>
        <source>Bundled all-MiniLM-L6-v2 (default)</source>
        <translation>内置 all-MiniLM-L6-v2(默认)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="114"/>
        <source>The bundled model, a local model folder, or a Hugging Face Hub id typed in</source>
        <translation>内置模型、本地模型文件夹，或输入 Hugging Face Hub id</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="115"/>
        <source>folder or Hub id, e.g. bert-base-uncased</source>
        <translation>文件夹或 Hub id，例如 bert-base-uncased</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="116"/>
        <source>Folder…</source>
        <translation>文件夹…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="123"/>
        <source>Linear on [CLS] (BERT paper)</source>
        <translation>[CLS] 上的线性层(BERT 论文)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="124"/>
        <source>MLP (hidden layer + output)</source>
        <translation>MLP(隐藏层 + 输出层)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="126"/>
        <source>Full fine-tuning</source>
        <translation>全量微调</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="126"/>
        <source>Frozen encoder (features)</source>
        <translation>冻结编码器(特征提取)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="127"/>
        <source>Top N layers</source>
        <translation>顶部 N 层</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="127"/>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="133"/>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="135"/>
        <source>rank</source>
        <translation>秩</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="139"/>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="143"/>
        <source>BERT paper: batch {b}, lr {lr}, {e} epochs</source>
        <translation>BERT 论文:批大小 {b}，学习率 {lr}，{e} 轮</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="176"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="177"/>
        <source>Head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="178"/>
        <source>What learns</source>
        <translation>训练哪些部分</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="179"/>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="180"/>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="181"/>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="182"/>
        <source>Epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="183"/>
        <source>Warm-up ratio</source>
        <translation>预热比例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="184"/>
        <source>Max length</source>
        <translation>最大长度</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="185"/>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="186"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="187"/>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="188"/>
        <source>Trainable</source>
        <translation>可训练参数</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="189"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="190"/>
        <source>BERT paper grid: batch 16/32, lr 5e-5…2e-5, 2–4 epochs</source>
        <translation>BERT 论文网格:批大小 16/32，学习率 5e-5…2e-5，2–4 轮</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="194"/>
        <source>Start training</source>
        <translation>开始训练</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="195"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="196"/>
        <source>Export run…</source>
        <translation>导出运行…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="198"/>
        <source>Write these settings and the labelled data to a folder that trains headless anywhere: bertstudio train --config run.toml (or under accelerate launch on several GPUs)</source>
        <translation>将这些设置和已标注的数据写入一个文件夹，可在任何地方无界面训练:bertstudio train --config run.toml(多 GPU 上可用 accelerate launch 启动)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="250"/>
        <source>Choose a model folder</source>
        <translation>选择模型文件夹</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="281"/>
        <source>counted when the model loads</source>
        <translation>加载模型时统计</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="284"/>
        <source>≈ {t:,} of {n:,} parameters ({p:.1f}%)</source>
        <translation>≈ {n:,} 个参数中的 {t:,} 个({p:.1f}%)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="292"/>
        <source>batch size and learning rate must be numbers</source>
        <translation>批大小和学习率必须是数字</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="292"/>
        <source>Training settings</source>
        <translation>训练设置</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="381"/>
        <source>Open or create a project to train.</source>
        <translation>请打开或新建项目以开始训练。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="383"/>
        <source>Import or label training examples first.</source>
        <translation>请先导入或标注训练样例。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="394"/>
        <source>the training split has no labelled examples</source>
        <translation>训练数据划分中没有已标注的样例</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="394"/>
        <location filename="../../bertstudio/ui/training_page.py" line="402"/>
        <source>train split</source>
        <translation>train 数据划分</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="395"/>
        <source>at least a few labelled rows</source>
        <translation>至少几行已标注的数据</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="401"/>
        <source>too few labelled examples to hold out an evaluation set ({n})</source>
        <translation>已标注的样例太少，无法留出评估集({n})</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="402"/>
        <source>a dev split or at least 10 labelled training rows</source>
        <translation>一个 dev 数据划分，或至少 10 行已标注的训练数据</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="406"/>
        <source>No dev split: holding out {n} of {m} labelled training examples (10%, seed {s}) for evaluation.</source>
        <translation>没有 dev 数据划分:从 {m} 个已标注的训练样例中留出 {n} 个(10%，种子 {s})用于评估。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="438"/>
        <source>Run folder: {d}</source>
        <translation>运行文件夹:{d}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="450"/>
        <source>Training… the window stays usable; Cancel stops after the current step.</source>
        <translation>训练中……窗口仍可使用；“取消”会在当前步结束后停止。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="481"/>
        <source>Export run to folder</source>
        <translation>导出运行到文件夹</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="488"/>
        <source>Exporting the run to {d}…</source>
        <translation>正在导出运行到 {d}…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="494"/>
        <source>Export failed: {m}</source>
        <translation>导出失败:{m}</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="499"/>
        <source>Run exported to {d}. Start it there with: bertstudio train --config run.toml</source>
        <translation>运行已导出到 {d}。在那里用以下命令启动:bertstudio train --config run.toml</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="506"/>
        <source>Cancelling after the current step…</source>
        <translation>将在当前步结束后取消…</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="511"/>
        <source>{t:,} of {n:,} parameters ({p:.1f}%), as built</source>
        <translation>{n:,} 个参数中的 {t:,} 个({p:.1f}%)，按构建后的模型统计</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="523"/>
        <source>Run finished.</source>
        <translation>运行完成。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="523"/>
        <source>Run cancelled; the model saved so far is usable.</source>
        <translation>运行已取消；已保存的模型可以使用。</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/training_page.py" line="536"/>
        <source>Training could not run: {m}</source>
        <translation>无法训练:{m}</translation>
    </message>
</context>
<context>
    <name>TrainingWorker</name>
    <message>
        <location filename="../../bertstudio/ui/worker.py" line="150"/>
        <source>Training failed.</source>
        <translation>训练失败。</translation>
    </message>
</context>
<context>
    <name>_ExportProgress</name>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="98"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="110"/>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/model_export.py" line="115"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
</context>
<context>
    <name>plots</name>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="104"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="231"/>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="231"/>
        <location filename="../../bertstudio/ui/plots.py" line="233"/>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="233"/>
        <source>loss (smoothed)</source>
        <translation>损失(平滑)</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="257"/>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="257"/>
        <source>lr</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="259"/>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="275"/>
        <source>Evaluation</source>
        <translation>评估</translation>
    </message>
    <message>
        <location filename="../../bertstudio/ui/plots.py" line="275"/>
        <source>score (x100)</source>
        <translation>分数(×100)</translation>
    </message>
</context>
</TS>
