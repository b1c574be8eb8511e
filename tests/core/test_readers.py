"""Every benchmark file in ../shared/data loads with exactly the counts in SOURCES.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from bertstudio.data.glue import GLUE_TASKS, PRESETS, get_preset, load_glue
from bertstudio.data.io import detect_format, load_examples, preview
from bertstudio.errors import DataError

# (preset, folder under shared data, split, count, labelled) -- counts from SOURCES.md
GLUE_COUNTS = [
    ("CoLA", "glue/CoLA", "train", 8551, True),
    ("CoLA", "glue/CoLA", "dev", 1043, True),
    ("CoLA", "glue/CoLA", "test", 1063, False),
    ("SST-2", "glue/SST-2", "train", 67349, True),
    ("SST-2", "glue/SST-2", "dev", 872, True),
    ("SST-2", "glue/SST-2", "test", 1821, False),
    ("MRPC", "glue/MRPC", "train", 3668, True),
    ("MRPC", "glue/MRPC", "dev", 408, True),
    ("MRPC", "glue/MRPC", "test", 1725, False),
    ("STS-B", "glue/STS-B", "train", 5749, True),
    ("STS-B", "glue/STS-B", "dev", 1500, True),
    ("STS-B", "glue/STS-B", "test", 1379, False),
    ("RTE", "glue/RTE", "train", 2490, True),
    ("RTE", "glue/RTE", "dev", 277, True),
    ("RTE", "glue/RTE", "test", 3000, False),
    ("WNLI", "glue/WNLI", "train", 635, True),
    ("WNLI", "glue/WNLI", "dev", 71, True),
    ("WNLI", "glue/WNLI", "test", 146, False),
    ("QNLI", "glue/QNLI", "dev", 5463, True),
    ("QNLI", "glue/QNLI", "test", 5463, False),
    ("SNLI", "snli", "dev", 9842, True),
    ("ChnSentiCorp", "zh/ChnSentiCorp", "train", 9600, True),
    ("ChnSentiCorp", "zh/ChnSentiCorp", "dev", 1200, True),
    ("AFQMC", "zh/AFQMC", "train", 34334, True),
    ("AFQMC", "zh/AFQMC", "dev", 4316, True),
]


@pytest.mark.parametrize(("task", "folder", "split", "count", "labelled"), GLUE_COUNTS)
def test_preset_counts(shared_data: Path, task: str, folder: str, split: str, count: int, labelled: bool) -> None:
    es = load_glue(task, shared_data / folder, split)
    assert len(es) == count
    assert es.kind == PRESETS[task].kind
    assert es.meta["glue_task"] == task
    null = es.dataset.with_format("arrow")["label"].null_count
    assert null == (0 if labelled else count)
    if labelled and es.kind != "regression":
        assert set(es.dataset.unique("label")) == set(PRESETS[task].labels)


@pytest.mark.parametrize(("task", "folder", "split", "count", "labelled"), GLUE_COUNTS[::4])
def test_auto_detection_finds_the_preset(shared_data: Path, task: str, folder: str, split: str, count: int, labelled: bool) -> None:
    path = shared_data / folder / PRESETS[task].files[split]
    assert detect_format(path) == "glue"
    es = load_examples(path)
    assert (es.meta["glue_task"], es.meta["split"], len(es)) == (task, split, count)


def test_glue_first_rows(shared_data: Path) -> None:
    g = shared_data / "glue"
    cola = load_glue("CoLA", g / "CoLA", "train")
    assert cola.dataset[0] == {"text": "Our friends won't buy this analysis, let alone the next one we propose.", "label": "acceptable"}
    sst = load_glue("sst2", g / "SST-2", "dev")  # forgiving name; trailing space kept as published
    assert sst.dataset[0] == {"text": "it 's a charming and often affecting journey . ", "label": "positive"}
    mrpc = load_glue("MRPC", g / "MRPC", "dev")  # BOM stripped, unbalanced quote kept verbatim
    assert mrpc.dataset[0]["text_pair"] == '" The foodservice pie business does not fit our long-term growth strategy .'
    assert mrpc.dataset[0]["label"] == "equivalent"
    sts = load_glue("STS-B", g / "STS-B", "train")
    assert sts.kind == "regression"
    assert sts.dataset[1] == {"text": "A man is playing a large flute.", "text_pair": "A man is playing a flute.", "label": 3.8}
    scores = sts.dataset.with_format("numpy")["label"][:]
    assert scores.min() >= 0.0 and scores.max() <= 5.0
    rte = load_glue("RTE", g / "RTE", "train")
    assert rte.labels == ["entailment", "not_entailment"] and rte.dataset[0]["label"] == "not_entailment"
    qnli = load_glue("QNLI", g / "QNLI", "test")
    assert qnli.dataset[0]["text"] == "What organization is devoted to Jihad against Israel?"


def test_other_sets_first_rows(shared_data: Path) -> None:
    snli = load_examples(shared_data / "snli" / "validation.tsv")
    assert snli.labels == ["entailment", "neutral", "contradiction"]
    assert snli.dataset[0]["label"] == "neutral"  # file value 1
    assert snli.dataset[1]["label"] == "entailment"  # file value 0
    senti = load_examples(shared_data / "zh" / "ChnSentiCorp" / "dev.tsv")  # header qid label text_a
    assert senti.dataset[0]["text"].startswith("這間酒店環境和服務態度亦算不錯")
    afqmc = load_examples(shared_data / "zh" / "AFQMC" / "train.txt")
    assert afqmc.dataset[0] == {"text": "蚂蚁借呗等额还款可以换成先息后本吗", "text_pair": "借呗有先息到期还本吗", "label": "0"}


def test_chinese_sets_load_through_the_generic_reader(shared_data: Path) -> None:
    senti = load_examples(shared_data / "zh" / "ChnSentiCorp" / "train.tsv", fmt="tsv", columns={"text": "text_a", "label": "label"})
    assert len(senti) == 9600 and senti.labels == ["0", "1"]  # the generic reader: no preset, no names
    afqmc = load_examples(shared_data / "zh" / "AFQMC" / "dev.txt", fmt="tsv", kind="pair",
                          columns={"text": 0, "text_pair": 1, "label": 2})
    assert len(afqmc) == 4316


def test_ud_ewt_counts(shared_data: Path) -> None:
    d = shared_data / "pos" / "ud_english_ewt"
    train = load_examples(d / "en_ewt-ud-train.conllu")
    dev = load_examples(d / "en_ewt-ud-dev.conllu")
    assert (len(train), len(dev)) == (12544, 2001)
    assert train.kind == "tagging"
    assert dev.dataset[0] == {"tokens": ["From", "the", "AP", "comes", "this", "story", ":"],
                              "tags": ["ADP", "DET", "PROPN", "VERB", "DET", "NOUN", "PUNCT"]}
    assert len(set(train.labels)) == 17  # the 17 UPOS tags of UD v2


def test_squad_counts(shared_data: Path) -> None:
    es = load_examples(shared_data / "squad" / "dev-v1.1-articles-00-35.json")
    assert len(es) == 8123
    assert len(set(es.dataset["title"])) == 36
    row = es.dataset[0]
    assert row["id"] == "56be4db0acb8001400a502ec" and row["title"] == "Super_Bowl_50"
    assert row["answers"]["text"][0] == "Denver Broncos"
    start = row["answers"]["answer_start"][0]
    assert row["context"][start:start + len("Denver Broncos")] == "Denver Broncos"


def test_glue_table_conventions() -> None:
    assert GLUE_TASKS["RTE"].labels == ("entailment", "not_entailment")
    assert GLUE_TASKS["MRPC"].labels == ("not_equivalent", "equivalent")
    assert GLUE_TASKS["MNLI"].labels == ("entailment", "neutral", "contradiction")
    assert GLUE_TASKS["CoLA"].metrics == ("mcc",)
    assert GLUE_TASKS["MRPC"].metrics == ("f1", "accuracy") and GLUE_TASKS["QQP"].metrics == ("f1", "accuracy")
    assert GLUE_TASKS["STS-B"].metrics == ("pearson", "spearman") and GLUE_TASKS["STS-B"].kind == "regression"
    for t in ("SST-2", "QNLI", "RTE", "WNLI", "MNLI"):
        assert GLUE_TASKS[t].metrics == ("accuracy",)
    assert get_preset("mnli-mm").files["dev"] == "dev_mismatched.tsv"
    assert not GLUE_TASKS["WNLI"].in_glue_average


def test_mnli_and_qqp_layouts(tmp_path: Path) -> None:
    # Header lines as in the GLUE release; MNLI's gold label is the last column.
    mnli = tmp_path / "MNLI"
    mnli.mkdir()
    head = "index\tpromptID\tpairID\tgenre\ts1b\ts2b\ts1p\ts2p\tsentence1\tsentence2\tlabel1\tgold_label\n"
    (mnli / "train.tsv").write_text(head + "0\t1\t1e\tgov\t(\t(\t(\t(\tA man.\tA person.\tentailment\tentailment\n")
    es = load_examples(mnli / "train.tsv")
    assert es.meta["glue_task"] == "MNLI" and es.dataset[0] == {"text": "A man.", "text_pair": "A person.", "label": "entailment"}
    qqp = tmp_path / "QQP"
    qqp.mkdir()
    (qqp / "dev.tsv").write_text("id\tqid1\tqid2\tquestion1\tquestion2\tis_duplicate\n7\t1\t2\tWhy?\tHow?\t0\n")
    es = load_glue("QQP", qqp, "dev")
    assert es.dataset[0] == {"text": "Why?", "text_pair": "How?", "label": "not_duplicate"}


def test_preview_suggests_kind_and_mapping(shared_data: Path) -> None:
    p = preview(shared_data / "glue" / "RTE" / "dev.tsv", n=5)
    assert p.format == "glue" and p.preset == "RTE" and p.suggested_kind == "pair"
    assert p.columns == ["index", "sentence1", "sentence2", "label"] and len(p.rows) == 5
    p = preview(shared_data / "snli" / "validation.tsv", fmt="tsv", n=3)
    assert p.has_header and p.suggested_kind == "pair"
    assert p.suggested_columns == {"text": "premise", "text_pair": "hypothesis", "label": "label"}
    p = preview(shared_data / "pos" / "ud_english_ewt" / "en_ewt-ud-dev.conllu", n=2)
    assert p.suggested_kind == "tagging" and p.rows[0][0] == "From the AP comes this story :"
    # the mapping names the preview's own columns: CoNLL-U's file positions read "Tokens = tags", "Tags = —"
    assert p.columns == ["tokens", "tags"] and p.suggested_columns == {"tokens": "tokens", "tags": "tags"}
    p = preview(shared_data / "squad" / "dev-v1.1-articles-00-35.json", n=2)
    assert p.suggested_kind == "qa" and p.rows[0][4].startswith("Denver Broncos")


def test_detect_format_by_content(tmp_path: Path) -> None:
    samples = {
        "conllu": "# sent_id = 1\n1\tHi\thi\tINTJ\tUH\t_\t0\troot\t_\t_\n\n",
        "conll": "-DOCSTART- -X- O O\n\nEU NNP B-NP B-ORG\n",
        "jsonl": '{"text": "a", "label": "x"}\n{"text": "b", "label": "y"}\n',
        "squad": '{"version": "1.1", "data": []}',
        "tsv": "sentence\tlabel\nhello, world\t1\n",
        "csv": "text,label\nhello,1\n",
    }
    for fmt, content in samples.items():
        path = tmp_path / f"{fmt}.dat"
        path.write_text(content, encoding="utf-8")
        assert detect_format(path) == fmt
    assert detect_format(tmp_path / "x.conllu") == "conllu"  # extension first, file not even read


@pytest.mark.parametrize("task, names", [
    ("SST-2", ["negative", "positive"]), ("CoLA", ["unacceptable", "acceptable"]),
    ("MRPC", ["not_equivalent", "equivalent"]), ("WNLI", ["not_entailment", "entailment"]),
])
def test_glue_ids_read_as_names_and_write_back_as_ids(tmp_path: Path, shared_data: Path, task: str, names) -> None:
    """Issue #14 item 14: the binary GLUE sets show the GLUE/HF label names, and a saved file
    holds the ids it was read with (so the official scripts and other tools read it)."""
    from bertstudio.data.glue import load_glue, save_glue

    src = shared_data / "glue" / task / "dev.tsv"
    es = load_glue(task, src)
    assert es.labels == names and set(es.dataset["label"]) <= set(names)
    out = tmp_path / "dev.tsv"
    save_glue(es, out)
    ids = {"0": names[0], "1": names[1]}
    back = load_glue(task, out)
    assert back.dataset["label"] == es.dataset["label"]
    lines = out.read_text(encoding="utf-8-sig").splitlines()
    written = [line.split("\t") for line in (lines if task == "CoLA" else lines[1:])]  # CoLA has no header
    label_col = {"SST-2": 1, "CoLA": 1, "MRPC": 0, "WNLI": -1}[task]
    assert [ids[row[label_col]] for row in written] == es.dataset["label"]


@pytest.mark.parametrize("fmt,sep", [("csv", ","), ("tsv", "\t")])
def test_a_table_wider_than_any_example_set_is_one_line_in_preview_and_load(tmp_path, fmt, sep):
    """300,000 columns froze the Import dialog 30 s filling its preview; the preview then said "no rows"."""
    from bertstudio.data.formats.table import MAX_COLUMNS
    from bertstudio.data.io import preview

    wide = tmp_path / f"wide.{fmt}"
    wide.write_text(sep.join(f"c{i}" for i in range(MAX_COLUMNS + 1)) + "\n" + sep.join("x" * (MAX_COLUMNS + 1)) + "\n")
    for read in (preview, load_examples):
        with pytest.raises(DataError) as info:
            read(wide)
        assert str(info.value) == (f"{wide}, line 1: a row of {MAX_COLUMNS + 1:,} columns (expected a table of at "
                                   f"most {MAX_COLUMNS:,} columns (the examples' text, labels and ids))")
    fine = tmp_path / f"fine.{fmt}"  # as wide as allowed: read
    fine.write_text(sep.join(["text", "label"] + [f"m{i}" for i in range(MAX_COLUMNS - 2)]) + "\n"
                    + sep.join(["good film", "pos"] + ["x"] * (MAX_COLUMNS - 2)) + "\n")
    assert preview(fine).columns[:2] == ["text", "label"]


def test_a_preview_reads_the_start_of_a_big_file_only(tmp_path, monkeypatch):
    """Choosing a 1 GB file in Import read it whole, twice, on the GUI thread (1.3 s, 2.3 GB)."""
    from bertstudio.data import regular_file

    big = tmp_path / "big.csv"
    with big.open("w") as fh:
        fh.write("text,label\n")
        fh.write("a fine film,pos\n" * 400_000)  # 6.4 MB: whole reads would show
    read: list[int] = []
    real = regular_file.read_regular_file

    def counting(*args, **kwargs):
        data = real(*args, **kwargs)
        read.append(len(data))
        return data

    monkeypatch.setattr("bertstudio.data.formats.common.read_regular_file", counting)
    shown = preview(big)
    assert shown.columns == ["text", "label"] and shown.rows[0] == ["a fine film", "pos"]
    assert read and max(read) <= (1 << 20) + 1, read
    wide = tmp_path / "utf16.tsv"  # a UTF-16 file is decoded whole: a cut could split a character
    wide.write_bytes("text\tlabel\n".encode("utf-16") + "fine\tpos\n".encode("utf-16-le") * 100_000)
    assert preview(wide).rows[0] == ["fine", "pos"]


@pytest.mark.parametrize("chars", [1_000_000, 1_200_000])
def test_a_preview_of_a_first_line_past_a_megabyte_cuts_between_characters(tmp_path, chars):
    """Sweep newcode53 #5: a valid UTF-8 .txt whose first line passed the preview's megabyte
    ("北" 1,200,000 times) was refused in Import as "not UTF-8: byte 0xe5 at byte offset
    1048575": the megabyte was cut inside a character. The preview now ends on a whole character,
    and says what loading says of a first line over the field limit (a million characters read)."""
    from bertstudio.data.formats.common import MAX_TEXT_CHARS

    path = tmp_path / "zh.txt"
    path.write_text("北" * chars + "\n次\n", encoding="utf-8")
    shown = preview(path, kind="tagging")
    assert shown.format == "text" and set(shown.rows[0][0].split()) == {"北"}
    if chars <= MAX_TEXT_CHARS:
        assert shown.problem is None and len(load_examples(path, kind="tagging").dataset[0]["tokens"]) == chars
    else:
        said = f"{path}, line 1: sentence of {chars:,} characters (expected at most {MAX_TEXT_CHARS:,} characters"
        assert shown.problem.startswith(said)
        with pytest.raises(DataError) as info:
            load_examples(path, kind="tagging")
        assert str(info.value) == shown.problem


def test_a_preview_refuses_an_unknown_format_instead_of_reading_squad(tmp_path):
    """An unknown format fell through to the SQuAD reader ("not SQuAD JSON")."""
    from bertstudio.errors import ConfigError

    f = tmp_path / "a.tsv"
    f.write_text("text\tlabel\nfine\tpos\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown format 'xml'") as caught:
        preview(f, fmt="xml")
    assert str(f) in str(caught.value)


def test_a_text_file_reads_as_one_unlabelled_sentence_per_line_for_tagging(tmp_path: Path) -> None:
    """Sweep qalabel #2: a .txt of sentences, one a line, read for tagging as a CSV (for its
    commas: "Hello , world" was two columns) and then refused. Each non-empty line is a sentence,
    its words split at whitespace, unlabelled as an unlabelled CoNLL sentence reads; Chinese
    without spaces is one word per ideograph, as the Playground reads typed Chinese."""
    from bertstudio.errors import ConfigError

    path = tmp_path / "sents.txt"
    path.write_text("John Smith lives in New York .\n\n  Hello ,  world  \r\n北京欢迎你\n在2008年\n北京 欢迎你\n",
                    encoding="utf-8")
    assert detect_format(path) == "csv"  # without a kind: unchanged
    assert detect_format(path, kind="tagging") == "text"
    es = load_examples(path, kind="tagging")
    assert es.dataset["tokens"] == [["John", "Smith", "lives", "in", "New", "York", "."], ["Hello", ",", "world"],
                                    ["北", "京", "欢", "迎", "你"], ["在", "2008", "年"], ["北京", "欢迎你"]]
    conll = tmp_path / "same.conll"  # the same sentences as unlabelled CoNLL: the same rows
    conll.write_text("\n\n".join("\n".join(t) for t in es.dataset["tokens"]) + "\n", encoding="utf-8")
    assert es.dataset.to_list() == load_examples(conll, kind="tagging").dataset.to_list()
    assert es.dataset["tags"] == [None] * 5 and es.labels == []
    apart = tmp_path / "apart.txt"  # short sentences a blank line apart read as CoNLL: "Good" tagged "morning"
    apart.write_text("Good morning\n\nHello , world\n\nOK\n", encoding="utf-8")
    assert load_examples(apart, kind="tagging").dataset["tokens"] == [["Good", "morning"], ["Hello", ",", "world"], ["OK"]]
    kept = tmp_path / "train.txt"  # CoNLL-2003 saved as .txt stays CoNLL
    kept.write_text("-DOCSTART- -X- -X- O\n\nEU NNP B-NP B-ORG\nrejects VBZ B-VP O\n", encoding="utf-8")
    assert detect_format(kept, kind="tagging") == "conll"
    shown = preview(path, kind="tagging")
    assert (shown.format, shown.suggested_kind, shown.rows[2]) == ("text", "tagging", ["北 京 欢 迎 你", ""])
    # other kinds read the same .txt as before: a table
    assert detect_format(path, kind="sentence") == detect_format(path, kind="qa") == "csv"
    with pytest.raises(ConfigError, match="holds tagging examples, not sentence"):
        load_examples(path, kind="sentence", fmt="text")


@pytest.mark.parametrize(("kind", "says"), [("tagging", "plain text with one sentence per line"),
                                            ("qa", "SQuAD JSON, or JSON Lines with context, question and answers")])
def test_a_table_read_for_a_kind_no_table_holds_says_what_to_use_in_one_line(tmp_path: Path, kind, says) -> None:
    """Sweep qalabel #2: "a ','-delimited table cannot hold tagging examples (expected sentence or pair
    or regression (use CoNLL/JSONL for tagging, SQuAD JSON for QA))": nested brackets, the code's kind
    names. One line: the file, the problem, what to use."""
    from bertstudio.errors import ConfigError

    path = tmp_path / "t.csv"
    path.write_text("text,label\nHello world,O\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_examples(path, kind=kind, columns={"tokens": 0} if kind == "tagging" else {"context": 0})
    said = str(caught.value)
    assert said.startswith(f"{path}: a comma-separated table cannot hold") and said.endswith(says + ")")
    assert "project" not in said  # `bertstudio train` has none (sweep cli53 #5)
    rest = said[len(str(path)):]
    assert rest.count("(") == rest.count(")") == 1 and "regression" not in rest and f" {kind} " not in rest
