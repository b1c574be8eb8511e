<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
  <context>
    <name>AddExampleDialog</name>
    <message>
      <location filename="../../bertstudio/ui/add_example_dialog.py" line="66" />
      <source>Add examples</source>
      <translation>添加样例</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/add_example_dialog.py" line="71" />
      <source>Sentence</source>
      <translation>句子</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/add_example_dialog.py" line="71" />
      <source>Text A (premise)</source>
      <translation>文本 A(前提)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/add_example_dialog.py" line="72" />
      <source>Text B (hypothesis)</source>
      <translation>文本 B(假设)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/add_example_dialog.py" line="73" />
      <source>Sentence (words are split at spaces)</source>
      <translation>句子(按空格切分为词)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/add_example_dialog.py" line="74" />
      <source>Context</source>
      <translation>上下文</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/add_example_dialog.py" line="75" />
      <source>Question</source>
      <translation>问题</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/add_example_dialog.py" line="82" />
      <source>Into split</source>
      <translation>加入数据划分</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/add_example_dialog.py" line="93" />
      <source>Add</source>
      <translation>添加</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/add_example_dialog.py" line="95" />
      <source>Store this example (unlabelled) and clear the form for the next one</source>
      <translation>保存此样例(未标注)并清空表单以输入下一个</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/add_example_dialog.py" line="116" />
      <source>Not added: {m}</source>
      <translation>未添加:{m}</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/add_example_dialog.py" line="120" />
      <source>Added to {s} as row {r} ({n} this time). Label it on the Label page.</source>
      <translation>已添加到 {s},第 {r} 行(本次共 {n} 个)。请在“标注”页标注。</translation>
    </message>
  </context>
  <context>
    <name>ConfusionModel</name>
    <message>
      <location filename="../../bertstudio/ui/confusion_view.py" line="45" />
      <source>gold</source>
      <translation>标准答案</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/confusion_view.py" line="45" />
      <source>predicted</source>
      <translation>预测</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/confusion_view.py" line="69" />
      <source>{n} examples: gold {g}, predicted {p}</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>ConfusionView</name>
    <message>
      <location filename="../../bertstudio/ui/confusion_view.py" line="85" />
      <source>Rows: gold label. Columns: predicted label. Click a cell to list its examples.</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>DataPage</name>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="98" />
      <source>Search the text (Enter)</source>
      <translation>搜索文本(回车)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="107" />
      <source>Search</source>
      <translation>搜索</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="109" />
      <source>Add examples…</source>
      <translation>添加样例…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="110" />
      <source>Type new examples into this split, then label them</source>
      <translation>在此数据划分中输入新样例,然后标注</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="113" />
      <source>Split:</source>
      <translation>数据划分:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="117" />
      <source>Show:</source>
      <translation>显示:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="137" />
      <source>&lt;b&gt;Label distribution&lt;/b&gt;</source>
      <translation>&lt;b&gt;标签分布&lt;/b&gt;</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="205" />
      <source>All rows</source>
      <translation>全部行</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="206" />
      <source>Unlabelled</source>
      <translation>未标注</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="213" />
      <source>Label = %1</source>
      <translation>标签 = %1</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="214" />
      <source>Disagrees with the latest run</source>
      <translation>与最近一次运行的预测不一致</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="311" />
      <source>%1 of %2 rows</source>
      <translation>%2 行中的 %1 行</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="316" />
      <source>no run with predictions yet</source>
      <translation>还没有带预测的运行</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/data_page.py" line="318" />
      <source>the latest run evaluated the %1 split</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>ExportDialog</name>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="377" />
      <location filename="../../bertstudio/ui/import_dialog.py" line="413" />
      <source>Export data</source>
      <translation>导出数据</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="387" />
      <source>from the file name</source>
      <translation>根据文件名</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="392" />
      <source>Browse…</source>
      <translation>浏览…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="402" />
      <source>Export</source>
      <translation>导出</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="406" />
      <source>Split:</source>
      <translation>数据划分:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="407" />
      <source>Format:</source>
      <translation>格式:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="408" />
      <source>File:</source>
      <translation>文件:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="420" />
      <source>Choose a file to write.</source>
      <translation>请选择要写入的文件。</translation>
    </message>
  </context>
  <context>
    <name>HelpPanel</name>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="13" />
      <source>← / → or ↑ / ↓</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="13" />
      <source>previous / next example</source>
      <translation>上一个 / 下一个样例</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="14" />
      <location filename="../../bertstudio/ui/help_panel.py" line="30" />
      <location filename="../../bertstudio/ui/help_panel.py" line="39" />
      <source>S or Space</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="14" />
      <source>skip to the next unlabelled example</source>
      <translation>跳到下一个未标注的样例</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="15" />
      <location filename="../../bertstudio/ui/help_panel.py" line="31" />
      <location filename="../../bertstudio/ui/help_panel.py" line="40" />
      <source>Ctrl+Z / Ctrl+Shift+Z</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="15" />
      <source>undo / redo the last edit</source>
      <translation>撤销 / 重做上一次编辑</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="18" />
      <location filename="../../bertstudio/ui/help_panel.py" line="27" />
      <source>1 … 9</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="18" />
      <source>apply the label with that number (see the legend)</source>
      <translation>应用对应编号的标签(见图例)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="19" />
      <location filename="../../bertstudio/ui/help_panel.py" line="28" />
      <source>0 or Backspace</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="19" />
      <source>clear the label</source>
      <translation>清除标签</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="21" />
      <source>0 … 5</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="21" />
      <source>set a whole score</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="21" />
      <source>slider / box</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="21" />
      <source>set a score in tenths</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="22" />
      <location filename="../../bertstudio/ui/help_panel.py" line="37" />
      <source>Backspace</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="22" />
      <source>clear the score</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="25" />
      <source>← / →</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="25" />
      <source>move the word cursor</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="26" />
      <source>Shift+← / Shift+→, or drag</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="26" />
      <source>select several words</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="27" />
      <source>tag the selected words (B- on the first, I- on the rest)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="28" />
      <source>clear the entity under the cursor</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="29" />
      <location filename="../../bertstudio/ui/help_panel.py" line="38" />
      <source>↑ / ↓, Page Up / Page Down</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="29" />
      <source>previous / next sentence</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="30" />
      <source>skip to the next unlabelled sentence</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="31" />
      <location filename="../../bertstudio/ui/help_panel.py" line="40" />
      <source>undo / redo</source>
      <translation>撤销 / 重做</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="34" />
      <source>select with the mouse</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="34" />
      <source>the selection becomes the answer</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="35" />
      <source>Enter</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="35" />
      <source>use the current selection as the answer</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="36" />
      <source>N</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="36" />
      <source>toggle 'no answer'</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="37" />
      <source>clear the answer</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="38" />
      <source>previous / next question</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="39" />
      <source>skip to the next unanswered question</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>ImportDialog</name>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="87" />
      <location filename="../../bertstudio/ui/import_dialog.py" line="194" />
      <source>Import data</source>
      <translation>导入数据</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="102" />
      <source>Browse…</source>
      <translation>浏览…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="111" />
      <source>detect</source>
      <translation>自动识别</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="117" />
      <source>none</source>
      <translation>无</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="128" />
      <source>Append to the rows already in this split</source>
      <translation>追加到此数据划分已有的行之后</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="131" />
      <source>File:</source>
      <translation>文件:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="132" />
      <source>Format:</source>
      <translation>格式:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="133" />
      <source>GLUE preset:</source>
      <translation>GLUE 预设:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="134" />
      <source>Into split:</source>
      <translation>加入数据划分:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="141" />
      <location filename="../../bertstudio/ui/import_dialog.py" line="276" />
      <source>Columns (what each column of the file holds)</source>
      <translation>列(文件每一列的内容)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="145" />
      <source>Text</source>
      <translation>文本</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="145" />
      <source>Second text</source>
      <translation>第二段文本</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="145" />
      <source>Label / score</source>
      <translation>标签 / 分数</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="146" />
      <source>Tokens</source>
      <translation>词元</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="146" />
      <source>Tags</source>
      <translation>标记</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="146" />
      <source>Context</source>
      <translation>上下文</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="147" />
      <source>Question</source>
      <translation>问题</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="147" />
      <source>Answers</source>
      <translation>答案</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="147" />
      <source>Id</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="148" />
      <source>Title</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="165" />
      <source>Import</source>
      <translation>导入</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="172" />
      <source>First rows:</source>
      <translation>前几行:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="195" />
      <source>Data files (*.tsv *.csv *.txt *.jsonl *.json *.conll *.conllu *.iob *.bio);;All files (*)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="240" />
      <source>— choose —</source>
      <translation>— 请选择 —</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="259" />
      <source>Format: %1 · this file looks like %2 data</source>
      <translation>格式:%1 · 此文件看起来是 %2 数据</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="262" />
      <source>This file holds %1 examples but the project is a %2 project.</source>
      <translation>此文件包含 %1 样例,但项目是 %2 项目。</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="275" />
      <source>Columns (set by the format or preset)</source>
      <translation>列(由格式或预设决定)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="306" />
      <source>Choose the file column for: %1</source>
      <translation>请选择对应的文件列:%1</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/import_dialog.py" line="336" />
      <source>Reading the file…</source>
      <translation>正在读取文件…</translation>
    </message>
  </context>
  <context>
    <name>KindEditor</name>
    <message>
      <location filename="../../bertstudio/ui/editors/base.py" line="85" />
      <source>Every example of this split is labelled.</source>
      <translation>此数据划分中的样例已全部标注。</translation>
    </message>
  </context>
  <context>
    <name>LabelLegend</name>
    <message>
      <location filename="../../bertstudio/ui/editors/legend.py" line="46" />
      <source>Press %1 or click to apply '%2'</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>LabelPage</name>
    <message>
      <location filename="../../bertstudio/ui/editors/page.py" line="55" />
      <source>%v / %m labelled</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/page.py" line="57" />
      <source>Label set…</source>
      <translation>标签集…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/page.py" line="62" />
      <source>Split:</source>
      <translation>数据划分:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/page.py" line="127" />
      <source>example %1 of %2</source>
      <translation>第 %1 个样例,共 %2 个</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/page.py" line="128" />
      <source>no examples</source>
      <translation>没有样例</translation>
    </message>
  </context>
  <context>
    <name>LabelSetDialog</name>
    <message>
      <location filename="../../bertstudio/ui/editors/label_set.py" line="40" />
      <source>Label set</source>
      <translation>标签集</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/label_set.py" line="50" />
      <source>Add…</source>
      <translation>添加…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/label_set.py" line="51" />
      <source>Rename…</source>
      <translation>重命名…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/label_set.py" line="52" />
      <source>Colour…</source>
      <translation>颜色…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/label_set.py" line="53" />
      <source>Remove</source>
      <translation>删除</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/label_set.py" line="62" />
      <source>Order = key order (1-9) and label ids of the model.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/label_set.py" line="104" />
      <source>Add label</source>
      <translation>添加标签</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/label_set.py" line="104" />
      <source>Name of the new label:</source>
      <translation>新标签的名称:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/label_set.py" line="112" />
      <source>Rename label</source>
      <translation>重命名标签</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/label_set.py" line="112" />
      <source>New name:</source>
      <translation>新名称:</translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="43" />
      <source>Data</source>
      <translation>数据</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="44" />
      <source>Label</source>
      <translation>标注</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="45" />
      <source>Train</source>
      <translation>训练</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="46" />
      <source>Results</source>
      <translation>结果</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="47" />
      <source>Playground</source>
      <translation>试用</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="48" />
      <source>Runs</source>
      <translation>运行记录</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="49" />
      <source>GLUE scoreboard</source>
      <translation>GLUE 计分板</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="167" />
      <source>&amp;New project…</source>
      <translation>新建项目(&amp;N)…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="168" />
      <source>&amp;Open project…</source>
      <translation>打开项目(&amp;O)…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="169" />
      <source>&amp;Save</source>
      <translation>保存(&amp;S)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="170" />
      <source>&amp;Import data…</source>
      <translation>导入数据(&amp;I)…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="171" />
      <source>&amp;Export data…</source>
      <translation>导出数据(&amp;E)…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="172" />
      <source>Export &amp;run…</source>
      <translation>导出运行(&amp;R)…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="173" />
      <source>&amp;Close project</source>
      <translation>关闭项目(&amp;C)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="174" />
      <source>&amp;Quit</source>
      <translation>退出(&amp;Q)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="175" />
      <source>&amp;Undo</source>
      <translation>撤销(&amp;U)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="178" />
      <source>&amp;Redo</source>
      <translation>重做(&amp;R)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="181" />
      <source>&amp;Add examples…</source>
      <translation>添加样例(&amp;A)…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="183" />
      <source>&amp;Label set…</source>
      <translation>标签集(&amp;L)…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="184" />
      <source>&amp;Keyboard shortcuts</source>
      <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="186" />
      <source>Open &amp;recent</source>
      <translation>最近的项目(&amp;R)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="189" />
      <source>&amp;File</source>
      <translation>文件(&amp;F)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="198" />
      <source>&amp;Edit</source>
      <translation>编辑(&amp;E)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="203" />
      <source>&amp;View</source>
      <translation>视图(&amp;V)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="208" />
      <source>&amp;Help</source>
      <translation>帮助(&amp;H)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="210" />
      <source>Main</source>
      <translation>主工具栏</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="225" />
      <source>(none)</source>
      <translation>(无)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="247" />
      <source>Open project</source>
      <translation>打开项目</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="256" />
      <source>Cannot open the project</source>
      <translation>无法打开项目</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="266" />
      <source>Project repaired on open: %1</source>
      <translation>打开时已修复项目:%1</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="267" />
      <source>Project recovered</source>
      <translation>项目已恢复</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="268" />
      <source>Opening the project repaired it:</source>
      <translation>打开项目时已修复:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="284" />
      <source>Saved</source>
      <translation>已保存</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="305" />
      <source>Imported %1 rows into %2</source>
      <translation>已导入 %1 行到 %2</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="322" />
      <source>Run exported to %1</source>
      <translation>运行已导出到 %1</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="345" />
      <source>No project</source>
      <translation>没有项目</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="345" />
      <source>Create or open a project first.</source>
      <translation>请先新建或打开一个项目。</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="379" />
      <source>No project open</source>
      <translation>未打开项目</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="385" />
      <source>Project: %1 (%2)</source>
      <translation>项目:%1(%2)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="386" />
      <source>Split: %1</source>
      <translation>数据划分:%1</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="387" />
      <source>%1 labelled / %2</source>
      <translation>已标注 %1 / %2</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="404" />
      <source>Training is running</source>
      <translation>正在训练</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/main_window.py" line="405" />
      <source>A training run is in progress. Stop it and quit?</source>
      <translation>训练正在进行。停止训练并退出吗?</translation>
    </message>
  </context>
  <context>
    <name>NewProjectDialog</name>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="27" />
      <source>Single sentence classification</source>
      <translation>单句分类</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="28" />
      <source>Sentence pair classification</source>
      <translation>句对分类</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="29" />
      <source>Sentence pair regression (score)</source>
      <translation>句对回归(打分)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="30" />
      <source>Token tagging (entities, POS)</source>
      <translation>词元标注(实体、词性)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="31" />
      <source>Extractive question answering</source>
      <translation>抽取式问答</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="57" />
      <source>New project</source>
      <translation>新建项目</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="63" />
      <source>Browse…</source>
      <translation>浏览…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="75" />
      <source>none</source>
      <translation>无</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="83" />
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="121" />
      <source>e.g. negative, positive</source>
      <translation>例如 negative, positive</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="84" />
      <source>Entity spans (BIO tags: O, B-X, I-X)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="92" />
      <source>Create</source>
      <translation>创建</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="96" />
      <source>Name:</source>
      <translation>名称:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="97" />
      <source>Folder:</source>
      <translation>文件夹:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="98" />
      <source>From a GLUE preset:</source>
      <translation>使用 GLUE 预设:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="99" />
      <source>Task:</source>
      <translation>任务:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="100" />
      <source>Labels:</source>
      <translation>标签:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="121" />
      <source>entity types, e.g. PER, LOC, ORG</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="136" />
      <source>Folder for the new project</source>
      <translation>新项目的文件夹</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/new_project_dialog.py" line="147" />
      <source>Give the project a name and a folder.</source>
      <translation>请为项目指定名称和文件夹。</translation>
    </message>
  </context>
  <context>
    <name>PlaygroundPage</name>
    <message>
      <location filename="../../bertstudio/ui/playground.py" line="88" />
      <source>Predict</source>
      <translation>预测</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/playground.py" line="96" />
      <source>Model of run</source>
      <translation>所用运行的模型</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/playground.py" line="109" />
      <source>Sentence</source>
      <translation>句子</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/playground.py" line="110" />
      <location filename="../../bertstudio/ui/playground.py" line="111" />
      <source>First sentence</source>
      <translation>第一句</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/playground.py" line="110" />
      <location filename="../../bertstudio/ui/playground.py" line="111" />
      <source>Second sentence</source>
      <translation>第二句</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/playground.py" line="112" />
      <source>Tokens (separated by spaces)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/playground.py" line="113" />
      <source>Question</source>
      <translation>问题</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/playground.py" line="113" />
      <source>Context</source>
      <translation>上下文</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/playground.py" line="114" />
      <source>Input</source>
      <translation>输入</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/playground.py" line="129" />
      <source>{name} (latest)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/playground.py" line="148" />
      <source>Train a model first: the Playground uses a finished or cancelled run's model.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/playground.py" line="174" />
      <source>Predicting…</source>
      <translation>预测中…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/playground.py" line="190" />
      <source>Could not predict: {m}</source>
      <translation>无法预测:{m}</translation>
    </message>
  </context>
  <context>
    <name>PredictionsModel</name>
    <message>
      <location filename="../../bertstudio/ui/predictions_model.py" line="97" />
      <source>Text</source>
      <translation>文本</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/predictions_model.py" line="97" />
      <source>Gold</source>
      <translation>标准答案</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/predictions_model.py" line="97" />
      <source>Predicted</source>
      <translation>预测</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/predictions_model.py" line="98" />
      <source>Confidence</source>
      <translation>置信度</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/predictions_model.py" line="98" />
      <source>Loss</source>
      <translation>损失</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/predictions_model.py" line="151" />
      <source>(example {n} not in the project)</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>QAEditor</name>
    <message>
      <location filename="../../bertstudio/ui/editors/qa.py" line="71" />
      <source>Type a new question about this context</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/qa.py" line="72" />
      <source>Add question</source>
      <translation>添加问题</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/qa.py" line="95" />
      <source>No answer in this context (SQuAD v2)</source>
      <translation>此上下文中没有答案(SQuAD v2)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/qa.py" line="98" />
      <source>Use selection as answer (Enter)</source>
      <translation>将选中文本作为答案(回车)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/qa.py" line="109" />
      <source>Questions about this context</source>
      <translation>关于此上下文的问题</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/qa.py" line="127" />
      <source>(no answer chosen yet: select it in the context)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/qa.py" line="129" />
      <source>Answer: none</source>
      <translation>答案:无</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/qa.py" line="131" />
      <source>Answer: %1 (character %2)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/qa.py" line="182" />
      <source>Answer row %1 with '%2'</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/qa.py" line="201" />
      <source>Mark row %1 unanswerable</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/qa.py" line="204" />
      <location filename="../../bertstudio/ui/editors/qa.py" line="228" />
      <source>Clear the answer of row %1</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>RegressionEditor</name>
    <message>
      <location filename="../../bertstudio/ui/editors/classify.py" line="159" />
      <source>Keys 0-5 set a whole score; drag the slider for tenths.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/classify.py" line="169" />
      <source>(not scored)</source>
      <translation>(未打分)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/classify.py" line="169" />
      <source>(no example)</source>
      <translation>(无样例)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/classify.py" line="185" />
      <source>Score row %1 as %2</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>ResultsPage</name>
    <message>
      <location filename="../../bertstudio/ui/results_page.py" line="99" />
      <source>Metric</source>
      <translation>指标</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/results_page.py" line="99" />
      <source>Score (x100)</source>
      <translation>分数(×100)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/results_page.py" line="105" />
      <source>Errors only</source>
      <translation>只看错误</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/results_page.py" line="123" />
      <source>Set as gold</source>
      <translation>设为标准答案</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/results_page.py" line="125" />
      <source>Use prediction as gold</source>
      <translation>采用预测作为标准答案</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/results_page.py" line="129" />
      <source>Run</source>
      <translation>运行</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/results_page.py" line="235" />
      <source>official metric of this task</source>
      <translation>此任务的官方指标</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/results_page.py" line="289" />
      <source>{shown} of {total} examples</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/results_page.py" line="291" />
      <source>gold {g}, predicted {p}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/results_page.py" line="314" />
      <source>green = gold, orange = predicted</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/results_page.py" line="319" />
      <source>Gold:</source>
      <translation>标准答案:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/results_page.py" line="319" />
      <source>Predicted:</source>
      <translation>预测:</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/results_page.py" line="372" />
      <source>Relabel {split} row {row}</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>RunsModel</name>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="96" />
      <source>Run</source>
      <translation>运行</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="96" />
      <source>Status</source>
      <translation>状态</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="96" />
      <source>Task</source>
      <translation>任务</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="96" />
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="96" />
      <source>Mode</source>
      <translation>模式</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="96" />
      <source>Epochs</source>
      <translation>轮数</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="97" />
      <source>LR</source>
      <translation>学习率</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="97" />
      <source>Batch</source>
      <translation>批大小</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="97" />
      <source>Main score</source>
      <translation>主要分数</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="97" />
      <source>Started</source>
      <translation>开始时间</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="111" />
      <source>finished</source>
      <translation>已完成</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="111" />
      <source>cancelled</source>
      <translation>已取消</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="111" />
      <source>failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="112" />
      <source>running</source>
      <translation>运行中</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="112" />
      <source>unknown</source>
      <translation>未知</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="116" />
      <source>bundled MiniLM</source>
      <translation>内置 MiniLM</translation>
    </message>
  </context>
  <context>
    <name>RunsPage</name>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="141" />
      <source>Refresh</source>
      <translation>刷新</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="143" />
      <source>Open run folder…</source>
      <translation>打开运行文件夹…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="145" />
      <source>Follow selected run live</source>
      <translation>实时跟踪所选运行</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="180" />
      <source>Open a run folder (with history.jsonl)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/runs_page.py" line="206" />
      <source>Following {folder}</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>ScoreboardPage</name>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="46" />
      <source>GLUE leaderboard</source>
      <translation>GLUE 排行榜</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="46" />
      <source>BERT paper (Table 1)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="47" />
      <source>One metric per task</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="52" />
      <source>Task</source>
      <translation>任务</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="52" />
      <source>Score</source>
      <translation>分数</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="52" />
      <source>Metrics</source>
      <translation>指标</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="52" />
      <source>Best run</source>
      <translation>最佳运行</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="59" />
      <source>Convention</source>
      <translation>计分规则</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="83" />
      <source>missing</source>
      <translation>缺失</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="83" />
      <source>no run yet</source>
      <translation>尚无运行</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="88" />
      <source>(not in the average)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="90" />
      <source>(partial)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="100" />
      <source>over {n} of {m} entries</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="102" />
      <source>({k} missing: {names}; partial average, not comparable with a full score)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/scoreboard_page.py" line="105" />
      <source>Average</source>
      <translation>平均</translation>
    </message>
  </context>
  <context>
    <name>SentenceEditor</name>
    <message>
      <location filename="../../bertstudio/ui/editors/classify.py" line="61" />
      <source>Move to the next example after labelling</source>
      <translation>标注后转到下一个样例</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/classify.py" line="67" />
      <source>Premise / first text</source>
      <translation>前提 / 第一段文本</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/classify.py" line="68" />
      <source>Hypothesis / second text</source>
      <translation>假设 / 第二段文本</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/classify.py" line="93" />
      <source>(not labelled)</source>
      <translation>(未标注)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/classify.py" line="93" />
      <source>(no example)</source>
      <translation>(无样例)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/classify.py" line="105" />
      <source>Label row %1 as '%2'</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/classify.py" line="111" />
      <source>Clear the label of row %1</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>ShortcutsDialog</name>
    <message>
      <location filename="../../bertstudio/ui/help_panel.py" line="66" />
      <source>Keyboard shortcuts</source>
      <translation>键盘快捷键</translation>
    </message>
  </context>
  <context>
    <name>TaggingEditor</name>
    <message>
      <location filename="../../bertstudio/ui/editors/tagging.py" line="138" />
      <source>(not labelled yet: every word starts as O)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/tagging.py" line="193" />
      <source>'%1' overlaps an entity already marked; clear that one first (Backspace).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/tagging.py" line="200" />
      <source>Tag '%1' as %2</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/tagging.py" line="210" />
      <source>Clear the entity at word %1</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/editors/tagging.py" line="212" />
      <source>Clear the tags of row %1</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>TrainingMonitor</name>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="246" />
      <location filename="../../bertstudio/ui/plots.py" line="283" />
      <source>idle</source>
      <translation>空闲</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="296" />
      <location filename="../../bertstudio/ui/plots.py" line="341" />
      <source>step %v / %m</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="298" />
      <source>Started: {n} training / {m} evaluation examples, {s} steps, batch {b}, {t:,} of {p:,} parameters trainable, on {d} ({prec}).</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="317" />
      <source>step %v / %m  ·  {rate:.1f} examples/s  ·  ETA {eta}  ·  loss {loss:.4f}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="327" />
      <source>Evaluation at step {step} (epoch {epoch:.2f}): {m}</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="340" />
      <source>finished</source>
      <translation>已完成</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="340" />
      <source>cancelled</source>
      <translation>已取消</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="340" />
      <source>failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="342" />
      <source>Run {status}.</source>
      <translation type="unfinished" />
    </message>
  </context>
  <context>
    <name>TrainingPage</name>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="113" />
      <source>Bundled all-MiniLM-L6-v2 (default)</source>
      <translation>内置 all-MiniLM-L6-v2(默认)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="114" />
      <source>The bundled model, a local model folder, or a Hugging Face Hub id typed in</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="115" />
      <source>folder or Hub id, e.g. bert-base-uncased</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="116" />
      <source>Folder…</source>
      <translation>文件夹…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="123" />
      <source>Linear on [CLS] (BERT paper)</source>
      <translation>[CLS] 上的线性层(BERT 论文)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="124" />
      <source>MLP (hidden layer + output)</source>
      <translation>MLP(隐藏层 + 输出层)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="126" />
      <source>Full fine-tuning</source>
      <translation>全量微调</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="126" />
      <source>Frozen encoder (features)</source>
      <translation>冻结编码器(特征提取)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="127" />
      <source>Top N layers</source>
      <translation>顶部 N 层</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="127" />
      <source>LoRA</source>
      <translation>LoRA</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="133" />
      <source>N</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="135" />
      <source>rank</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="139" />
      <source>Custom</source>
      <translation>自定义</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="143" />
      <source>BERT paper: batch {b}, lr {lr}, {e} epochs</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="176" />
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="177" />
      <source>Head</source>
      <translation>输出头</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="178" />
      <source>What learns</source>
      <translation>训练哪些部分</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="179" />
      <source>Preset</source>
      <translation>预设</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="180" />
      <source>Batch size</source>
      <translation>批大小</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="181" />
      <source>Learning rate</source>
      <translation>学习率</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="182" />
      <source>Epochs</source>
      <translation>轮数</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="183" />
      <source>Warm-up ratio</source>
      <translation>预热比例</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="184" />
      <source>Max length</source>
      <translation>最大长度</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="185" />
      <source>Seed</source>
      <translation>随机种子</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="186" />
      <source>Device</source>
      <translation>设备</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="187" />
      <source>Precision</source>
      <translation>精度</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="188" />
      <source>Trainable</source>
      <translation>可训练参数</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="189" />
      <source>Settings</source>
      <translation>设置</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="190" />
      <source>BERT paper grid: batch 16/32, lr 5e-5…2e-5, 2–4 epochs</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="194" />
      <source>Start training</source>
      <translation>开始训练</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="195" />
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="196" />
      <source>Export run…</source>
      <translation>导出运行…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="198" />
      <source>Write these settings and the labelled data to a folder that trains headless anywhere: bertstudio train --config run.toml (or under accelerate launch on several GPUs)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="250" />
      <source>Choose a model folder</source>
      <translation>选择模型文件夹</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="281" />
      <source>counted when the model loads</source>
      <translation>加载模型时统计</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="284" />
      <source>≈ {t:,} of {n:,} parameters ({p:.1f}%)</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="292" />
      <source>batch size and learning rate must be numbers</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="292" />
      <source>Training settings</source>
      <translation>训练设置</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="381" />
      <source>Open or create a project to train.</source>
      <translation>请打开或新建项目以开始训练。</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="383" />
      <source>Import or label training examples first.</source>
      <translation>请先导入或标注训练样例。</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="394" />
      <source>the training split has no labelled examples</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="394" />
      <location filename="../../bertstudio/ui/training_page.py" line="402" />
      <source>train split</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="395" />
      <source>at least a few labelled rows</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="401" />
      <source>too few labelled examples to hold out an evaluation set ({n})</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="402" />
      <source>a dev split or at least 10 labelled training rows</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="406" />
      <source>No dev split: holding out {n} of {m} labelled training examples (10%, seed {s}) for evaluation.</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="438" />
      <source>Run folder: {d}</source>
      <translation>运行文件夹:{d}</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="450" />
      <source>Training… the window stays usable; Cancel stops after the current step.</source>
      <translation>训练中……窗口仍可使用;“取消”会在当前步结束后停止。</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="481" />
      <source>Export run to folder</source>
      <translation>导出运行到文件夹</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="488" />
      <source>Exporting the run to {d}…</source>
      <translation>正在导出运行到 {d}…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="494" />
      <source>Export failed: {m}</source>
      <translation>导出失败:{m}</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="499" />
      <source>Run exported to {d}. Start it there with: bertstudio train --config run.toml</source>
      <translation>运行已导出到 {d}。在那里用以下命令启动:bertstudio train --config run.toml</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="506" />
      <source>Cancelling after the current step…</source>
      <translation>将在当前步结束后取消…</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="511" />
      <source>{t:,} of {n:,} parameters ({p:.1f}%), as built</source>
      <translation type="unfinished" />
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="523" />
      <source>Run finished.</source>
      <translation>运行完成。</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="523" />
      <source>Run cancelled; the model saved so far is usable.</source>
      <translation>运行已取消;已保存的模型可以使用。</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/training_page.py" line="536" />
      <source>Training could not run: {m}</source>
      <translation>无法训练:{m}</translation>
    </message>
  </context>
  <context>
    <name>plots</name>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="74" />
      <source>step</source>
      <translation>步</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="160" />
      <source>Training loss</source>
      <translation>训练损失</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="160" />
      <location filename="../../bertstudio/ui/plots.py" line="162" />
      <source>loss</source>
      <translation>损失</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="162" />
      <source>loss (smoothed)</source>
      <translation>损失(平滑)</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="186" />
      <source>Learning rate</source>
      <translation>学习率</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="186" />
      <source>lr</source>
      <translation>学习率</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="188" />
      <source>learning rate</source>
      <translation>学习率</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="204" />
      <source>Evaluation</source>
      <translation>评估</translation>
    </message>
    <message>
      <location filename="../../bertstudio/ui/plots.py" line="204" />
      <source>score (x100)</source>
      <translation>分数(×100)</translation>
    </message>
  </context>
</TS>