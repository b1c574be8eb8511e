"""Model folders never run their own code (issue 11, item 7), absurd sizes are refused before
memory is spent (item 9), and a broken model folder is one clear error (item 12)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bertstudio.cli import main
from bertstudio.data.examples import from_records
from bertstudio.errors import ConfigError, DataError
from bertstudio.tasks import get_task
from bertstudio.tasks.limits import MAX_LABELS, MAX_WINDOWS_PER_EXAMPLE
from bertstudio.tasks.model import build_model, load_model, save_model
from bertstudio.train.engine import evaluate
from bertstudio.train.predict import Predictor

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _log_file(tmp_path, monkeypatch):
    monkeypatch.setenv("BERTSTUDIO_LOG", str(tmp_path / "bertstudio.log"))


@pytest.fixture(scope="module")
def saved_model(tiny, tmp_path_factory) -> Path:
    """A model folder as bertstudio writes it (untrained head: only loading is tested here)."""
    model, tokenizer = build_model("sentence", tiny, labels=["neg", "pos"])
    return save_model(model, tokenizer, tmp_path_factory.mktemp("saved") / "model")


def copy_of(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def edit_config(folder: Path, **changes) -> None:
    path = folder / "config.json"
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))


def with_own_code(src: Path, dst: Path, marker: Path, *, model_type: str = "bert") -> Path:
    """A copy whose config.json sends transformers to the folder's own evil.py (which writes ``marker``)."""
    folder = copy_of(src, dst)
    (folder / "evil.py").write_text(
        f"open({str(marker)!r}, 'w').write('ran')\n"
        "from transformers import BertConfig, BertForSequenceClassification\n"
        "class EvilConfig(BertConfig):\n    model_type = 'evil-bert'\n"
        "class EvilModel(BertForSequenceClassification):\n    config_class = EvilConfig\n", encoding="utf-8")
    edit_config(folder, model_type=model_type, auto_map={"AutoConfig": "evil.EvilConfig",
                                                        "AutoModelForSequenceClassification": "evil.EvilModel"})
    return folder


def sentences():
    return from_records("sentence", [{"text": "good fun", "label": "pos"}, {"text": "bad boring", "label": "neg"}],
                        labels=["neg", "pos"])


def every_loader(folder: Path) -> dict:
    """Each way a model folder is read: as a base to fine-tune, as a saved model, to predict, to evaluate."""
    return {
        "build_model": lambda: build_model("sentence", str(folder), labels=["neg", "pos"]),
        "load_model": lambda: load_model(folder),
        "Predictor": lambda: Predictor.load(folder, device="cpu"),
        "evaluate": lambda: evaluate(folder, sentences()),
    }


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# --- item 7: auto_map ------------------------------------------------------------------


@pytest.mark.parametrize("model_type", ["bert", "evil-bert"])
def test_a_folder_with_its_own_code_is_refused_everywhere(model_type, saved_model, tmp_path):
    marker = tmp_path / "pwned"
    folder = with_own_code(saved_model, tmp_path / "evil", marker, model_type=model_type)
    for name, load in every_loader(folder).items():
        with pytest.raises(ConfigError, match="its own Python code") as info:
            load()
        assert info.value.where == "auto_map", name
    assert not marker.exists()


@pytest.mark.parametrize(("key", "value", "fragment"), [
    # transformers 5 loads a compiled kernel from the Hub (or a cached copy, offline, without its
    # publisher check) for a repository named here, or imports flash-attention
    ("attn_implementation", "attacker/evil-kernel", "attention code bertstudio does not run"),
    ("_attn_implementation", "kernels-community/flash-attn2", "attention code bertstudio does not run"),
    ("attn_implementation", "flash_attention_2", "attention code bertstudio does not run"),
    # needs bitsandbytes / optimum: "internal error: ImportError", exit 1
    ("quantization_config", {"quant_method": "bitsandbytes", "load_in_8bit": True}, "quantized model"),
    ("quantization_config", "zzz", "quantized model"),
    # transformers' own validation: "internal error: StrictDataclassFieldValidationError"
    ("hidden_dropout_prob", "abc", "not a dropout rate"),
    ("attention_probs_dropout_prob", 1.5, "not a dropout rate"),
    # NaN predictions with exit status 0
    ("layer_norm_eps", -1.0, "not a normalisation epsilon"),
    # transformers looks the name up on torch: "internal error: AttributeError" (a list: IndexError), exit 1
    ("dtype", "float8", "not a weight type"),
    ("dtype", ["float32"], "not a weight type"),
    ("torch_dtype", "load", "not a weight type"),
    # blamed on the weights: "cannot load the model's weights: 'rm_rf'"
    ("hidden_act", "rm_rf", "not an activation transformers knows"),
    ("hidden_act", ["gelu"], "not an activation transformers knows"),
    # "internal error: StrictDataclassFieldValidationError / TypeError / ValueError", exit 1, or blamed on vocab.txt
    ("tie_word_embeddings", "yes", "is not true or false"),
    ("output_hidden_states", "x", "is not true or false"),
    ("chunk_size_feed_forward", 1_000_000_000, "feed-forward chunking"),
    ("tie_word_embeddings", None, "is not true or false"),
    ("return_dict", False, "return tuples"),
])
def test_a_config_asking_the_loader_for_code_or_nonsense_is_refused_everywhere(key, value, fragment, saved_model,
                                                                              tmp_path):
    folder = copy_of(saved_model, tmp_path / "m")
    edit_config(folder, **{key: value})
    for name, load in every_loader(folder).items():
        with pytest.raises(ConfigError, match=fragment) as info:
            load()
        assert info.value.where == key and str(info.value.path).endswith("config.json"), name


def _int_weights(folder: Path) -> None:
    import torch
    from safetensors.torch import load_file, save_file

    weights = load_file(folder / "model.safetensors")
    save_file({k: v.to(torch.int32) if v.is_floating_point() else v for k, v in weights.items()},
              folder / "model.safetensors", metadata={"format": "pt"})


def _bertstudio_block(folder: Path, **changes) -> None:
    data = json.loads((folder / "config.json").read_text())
    edit_config(folder, bertstudio={**data["bertstudio"], **changes})


@pytest.mark.parametrize(("name", "damage", "file", "where", "fragment"), [
    # cast to fp32 without a word: every weight 0 or 1, confidence 0.5, exit status 0
    ("whole-number weights", _int_weights, "model.safetensors", None, "is stored as I32"),
    # a two-output classifier relabelled: a score read from one of its outputs, exit status 0
    ("classifier as regression", lambda f: _bertstudio_block(f, task="regression"), "config.json", "bertstudio.task",
     "gives one score, but this head has 2 outputs"),
    # printed as Python reprs ("['x']") with exit status 0, or "invalid literal for int()"
    ("id2label names not text", lambda f: edit_config(f, id2label={"0": ["x"], "1": {"a": 1}}), "config.json",
     "id2label", "id2label maps '0' to ['x']"),
    ("id2label keys not ids", lambda f: edit_config(f, id2label={"a": "neg", "b": "pos"}), "config.json", "id2label",
     "id2label maps 'a' to 'neg'"),
    # refused later, by evaluate, without naming the model's config
    ("unknown GLUE task", lambda f: _bertstudio_block(f, glue_task="NOPE"), "config.json", "bertstudio.glue_task",
     "unknown GLUE task / preset 'NOPE'"),
    # scored by the preset's metrics: pearson 0.0 from class labels, exit status 0
    ("GLUE task of another kind", lambda f: _bertstudio_block(f, glue_task="STS-B"), "config.json",
     "bertstudio.glue_task", "STS-B (regression, scores) does not fit this sentence model of 2 classes"),
    ("GLUE task of more classes", lambda f: _bertstudio_block(f, glue_task="MNLI", task="pair"), "config.json",
     "bertstudio.glue_task", "MNLI (pair, 3 classes) does not fit this pair model of 2 classes"),
])
def test_a_model_that_would_predict_nonsense_is_refused(name, damage, file, where, fragment, saved_model, tmp_path):
    folder = copy_of(saved_model, tmp_path / "m")
    damage(folder)
    for load in (lambda: load_model(folder), lambda: Predictor.load(folder, device="cpu")):
        with pytest.raises(ConfigError) as info:
            load()
        assert fragment in str(info.value) and Path(info.value.path).name == file and info.value.where == where, name


def test_a_model_whose_outputs_are_not_finite_predicts_nothing(saved_model, tmp_path):
    """Weights of 1e38 pass the load's NaN check but overflow in the first layer: argmax of NaN
    is class 0, printed (and scored) with exit status 0."""
    import torch
    from safetensors.torch import load_file, save_file

    folder = copy_of(saved_model, tmp_path / "m")
    weights = load_file(folder / "model.safetensors")
    name = next(k for k in weights if k.endswith("embeddings.word_embeddings.weight"))
    weights[name] = torch.full_like(weights[name], 1e38)
    save_file(weights, folder / "model.safetensors", metadata={"format": "pt"})
    with pytest.raises(ConfigError, match="outputs hold NaN or infinite values"):
        Predictor.load(folder, device="cpu", precision="fp32").predict(text="good fun")
    with pytest.raises(ConfigError, match="outputs hold NaN or infinite values"):
        evaluate(folder, sentences(), precision="fp32")


@pytest.mark.parametrize("name", ["model.safetensors", "config.json", "tokenizer.json"])
def test_a_folder_in_place_of_a_model_file_is_named(name, saved_model, tmp_path):
    """transformers said "no file named model.safetensors" of a file that is there, as a folder."""
    folder = copy_of(saved_model, tmp_path / "m")
    (folder / name).unlink()
    (folder / name).mkdir()
    for load in every_loader(folder).values():
        with pytest.raises(ConfigError, match="is a folder, not a file") as info:
            load()
        assert Path(info.value.path) == folder / name


def test_an_empty_model_name_is_not_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a folder holding anything: "" read it as the model folder
    with pytest.raises(ConfigError, match="the model is an empty name"):
        load_model("")


def test_a_cached_hub_model_is_checked_like_a_folder(saved_model, tmp_path, monkeypatch):
    """Offline, transformers loads a cached attention kernel that a Hub model's config.json
    names, without its publisher check: the cached config.json is read first, as a folder's is."""
    import huggingface_hub.constants

    snapshot = tmp_path / "hub" / "models--org--evil" / "snapshots" / ("a" * 40)
    shutil.copytree(saved_model, snapshot)
    (snapshot.parents[1] / "refs").mkdir()
    (snapshot.parents[1] / "refs" / "main").write_text("a" * 40)
    edit_config(snapshot, attn_implementation="attacker/evil-kernel")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    with pytest.raises(ConfigError, match="attention code bertstudio does not run") as info:
        build_model("sentence", "org/evil", labels=["neg", "pos"])
    assert "org/evil (config.json in the Hugging Face cache)" in str(info.value)


def test_the_built_in_attention_and_unset_dropouts_still_load(saved_model, tmp_path):
    folder = copy_of(saved_model, tmp_path / "m")
    edit_config(folder, attn_implementation="sdpa", classifier_dropout=None, hidden_dropout_prob=0)
    assert load_model(folder)[2] == "sentence"


def _vocab_only(folder: Path, vocab: bytes) -> None:
    (folder / "tokenizer.json").unlink()
    (folder / "vocab.txt").write_bytes(vocab)


def _tokenizer_config(folder: Path, **changes) -> None:
    path = folder / "tokenizer_config.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **changes}))


@pytest.mark.parametrize(("name", "damage", "file", "fragment"), [
    # the tokenizers library raises bare Exception: "internal error", exit 1
    ("vocab not UTF-8", lambda f: _vocab_only(f, b"\xff\xfe\x00bad\n"), "vocab.txt", "not contain valid UTF-8"),
    ("vocab without [UNK]", lambda f: _vocab_only(f, b"hello\nworld\n[CLS]\n[SEP]\n[PAD]\n"), "vocab.txt",
     "Missing [UNK]"),
    # json's own message named no file
    ("special tokens map not JSON", lambda f: (f / "special_tokens_map.json").write_text("{bad"),
     "special_tokens_map.json", "cannot read special_tokens_map.json"),
    ("tokenizer.json not JSON", lambda f: (f / "tokenizer.json").write_text("{bad"), "tokenizer.json",
     "cannot load the model's tokenizer"),
    ("tokenizer class a list", lambda f: (f / "tokenizer_config.json").write_text('{"tokenizer_class": ["x"]}'),
     "tokenizer_config.json", "tokenizer_class is a list"),
    # transformers' messages named tokenizer.json ("'str' object is not an instance of 'bool'"), or
    # took a maximum length of 0 or -1 without a word
    *[(f"tokenizer_config {key}={value!r}", lambda f, key=key, value=value: _tokenizer_config(f, **{key: value}),
       "tokenizer_config.json", f"{key} is {value!r}")
      for key, value in (("do_lower_case", "yes"), ("padding_side", "middle"), ("pad_token", 5), ("unk_token", ["x"]),
                         ("model_max_length", "x"), ("model_max_length", 0), ("model_max_length", -1))],
])
def test_a_damaged_tokenizer_is_one_error_naming_its_file(name, damage, file, fragment, saved_model, tmp_path):
    folder = copy_of(saved_model, tmp_path / "m")
    damage(folder)
    for load in (lambda: load_model(folder), lambda: Predictor.load(folder, device="cpu")):
        with pytest.raises(ConfigError) as info:
            load()
        assert fragment in str(info.value) and Path(info.value.path).name == file, (name, str(info.value))


def test_auto_map_in_the_tokenizer_config_is_refused_too(saved_model, tmp_path):
    folder = copy_of(saved_model, tmp_path / "tok")
    path = folder / "tokenizer_config.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "auto_map": {"AutoTokenizer": ["evil.Tok", None]}}))
    with pytest.raises(ConfigError, match="its own Python code"):
        load_model(folder)


def test_the_cli_refuses_without_asking_or_reading_stdin(saved_model, tmp_path):
    marker = tmp_path / "pwned"
    folder = with_own_code(saved_model, tmp_path / "evil", marker, model_type="evil-bert")
    proc = subprocess.run([sys.executable, "-m", "bertstudio", "predict", "--model", str(folder), "--text", "good"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO), "BERTSTUDIO_LOG": str(tmp_path / "log")})
    assert proc.returncode == 2
    assert "its own Python code" in one_line(proc.stderr) and "[y/N]" not in proc.stdout + proc.stderr
    assert not marker.exists()


# --- item 12: broken model folders ---------------------------------------------------------


def test_a_folder_without_tokenizer_files_is_refused(saved_model, tmp_path, capsys):
    folder = tmp_path / "no-tokenizer"
    folder.mkdir()
    for name in ("config.json", "model.safetensors"):
        shutil.copy(saved_model / name, folder / name)
    with pytest.raises(ConfigError, match="no tokenizer files"):
        build_model("sentence", str(folder), labels=["a", "b"])
    for argv in (["predict", "--model", str(folder), "--text", "good"],
                 ["train", "--train", str(_tsv(tmp_path)), "--model", str(folder), "--out", str(tmp_path / "run")]):
        assert main(argv, out=io.StringIO()) == 2
        assert "no tokenizer files" in one_line(capsys.readouterr().err)


def test_a_tokenizer_of_special_tokens_only_is_refused(saved_model, tmp_path):
    folder = copy_of(saved_model, tmp_path / "specials")
    data = json.loads((folder / "tokenizer.json").read_text())
    data["model"]["vocab"] = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])}
    (folder / "tokenizer.json").write_text(json.dumps(data))
    (folder / "vocab.txt").write_text("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n")
    with pytest.raises(ConfigError, match="only its 5 special tokens"):
        load_model(folder)


def test_truncated_weights_are_one_line_and_exit_2(saved_model, tmp_path, capsys):
    folder = copy_of(saved_model, tmp_path / "truncated")
    weights = folder / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[: weights.stat().st_size // 2])
    with pytest.raises(ConfigError, match="cannot load the model's weights"):
        load_model(folder)
    for argv in (["predict", "--model", str(folder), "--text", "good"],
                 ["evaluate", "--model", str(folder), "--eval", str(_tsv(tmp_path, labels=("neg", "pos")))]):
        assert main(argv, out=io.StringIO()) == 2
        assert "cannot load the model's weights" in one_line(capsys.readouterr().err)


def test_max_length_above_the_models_positions_is_refused(tiny, tmp_path, capsys):
    code = main(["train", "--train", str(_tsv(tmp_path)), "--model", tiny, "--max-length", "512", "--out", str(tmp_path / "run")],
                out=io.StringIO())
    assert code == 2
    assert "max_length 512 is more than this model takes (256 tokens)" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "run").exists()  # refused before the folder was made


def _tsv(tmp_path: Path, labels: tuple[str, str] = ("0", "1")) -> Path:
    path = tmp_path / "data.tsv"
    rows = "".join(f"good fun {i}\t{labels[1]}\nbad boring {i}\t{labels[0]}\n" for i in range(4))
    path.write_text("sentence\tlabel\n" + rows, encoding="utf-8")
    return path


# --- item 9: sizes ------------------------------------------------------------------------

# In a child process with its address space capped: if a check were missing, the load
# would end in MemoryError there instead of taking the shared machine's memory.
_LOAD = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (8 * 2**30, 8 * 2**30))
from bertstudio.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("changes, fragment", [
    ({"num_labels": 1e9}, "num_labels = 1000000000.0 is not a size"),
    ({"num_labels": 10**9}, "num_labels = 1000000000 is not a size"),
    ({"hidden_size": 10**6}, "hidden_size = 1000000 is not a size"),
    ({"vocab_size": 3_000_000, "hidden_size": 60_000}, "billion parameters"),
])
def test_absurd_sizes_in_config_json_are_refused_before_loading(changes, fragment, saved_model, tmp_path):
    folder = copy_of(saved_model, tmp_path / "huge")
    edit_config(folder, **changes)
    proc = subprocess.run([sys.executable, "-c", _LOAD, "predict", "--model", str(folder), "--text", "good"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO), "BERTSTUDIO_LOG": str(tmp_path / "log")})
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert fragment in one_line(proc.stderr)


def test_too_many_labels_are_refused_before_the_model_loads(tiny):
    with pytest.raises(DataError, match=f"{MAX_LABELS + 1:,} different labels"):
        build_model("sentence", tiny, labels=[str(i) for i in range(MAX_LABELS + 1)])


def test_a_huge_qa_context_is_refused_with_its_numbers(tiny):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny)
    context = "the city of paris is in france . " * 60_000  # 2 million characters
    examples = from_records("qa", [
        {"id": "a", "title": "", "question": "where is paris", "context": "paris is in france", "answers": {"text": ["france"], "answer_start": [12]}},
        {"id": "b", "title": "", "question": "where is paris", "context": context, "answers": {"text": ["france"], "answer_start": [22]}},
    ])
    with pytest.raises(DataError) as info:
        get_task("qa").encode(examples, tokenizer, max_length=128, label2id={}, training=True)
    message = str(info.value)
    assert info.value.where == "example 2" and "1,980,000 characters" in message
    assert f"more than {MAX_WINDOWS_PER_EXAMPLE:,}" in message and "windows of 128 tokens" in message
    # a normal context is untouched by the check
    assert len(get_task("qa").encode(examples.head(1), tokenizer, max_length=128, label2id={}, training=True)) == 1


def test_many_windows_per_example_are_announced_with_the_numbers(tiny, caplog):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny)
    context = "the city of paris is in france and the river is in the city . " * 6  # ~90 tokens
    examples = from_records("qa", [{"id": str(i), "title": "", "question": "where is paris", "context": context,
                                    "answers": {"text": ["france"], "answer_start": [24]}} for i in range(2)])
    with caplog.at_level("WARNING", logger="bertstudio.tasks.limits"):
        encoded = get_task("qa").encode(examples, tokenizer, max_length=32, label2id={}, training=True)
    assert len(encoded) > 8  # 15 context tokens a window
    assert f"2 QA examples become {len(encoded):,} windows of 32 tokens" in caplog.text


def test_a_lora_rank_above_the_hidden_size_is_refused_before_the_adapters_are_made(tiny):
    # rank 100,000 on MiniLM allocated 17 GB of adapters before anything said no
    with pytest.raises(ConfigError, match=r"LoRA rank 33 is more than the model's hidden size \(32\)") as info:
        build_model("sentence", tiny, labels=["neg", "pos"], mode="lora", lora_rank=33)
    assert info.value.where == "lora_rank"
    model, _ = build_model("sentence", tiny, labels=["neg", "pos"], mode="lora", lora_rank=32)
    assert model is not None


@pytest.mark.parametrize(("change", "words"), [
    ({"hidden_size": 2048, "intermediate_size": 8192, "num_attention_heads": 16}, "is 2,048 wide, but its word embeddings"),
    ({"num_hidden_layers": 10}, "has 10 layers, but model.safetensors holds 2"),
])
def test_a_config_larger_than_its_weights_is_refused_before_the_model_is_built(change, words, tiny, tmp_path):
    """transformers builds every tensor config.json describes before it finds the weights do not fit
    (2.7 GB for a 90 MB MiniLM whose config said 2,048 wide): the safetensors header is read first."""
    folder = tmp_path / "model"
    shutil.copytree(tiny, folder)
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    (folder / "config.json").write_text(json.dumps({**config, **change}), encoding="utf-8")
    with pytest.raises(ConfigError, match=words) as info:
        build_model("sentence", str(folder), labels=["neg", "pos"])
    assert info.value.path == str(folder / "config.json")
    fewer = tmp_path / "fewer"  # fewer layers than the weights hold is a model cut short on purpose: it loads
    shutil.copytree(tiny, fewer)
    (fewer / "config.json").write_text(json.dumps({**config, "num_hidden_layers": 1}), encoding="utf-8")
    assert build_model("sentence", str(fewer), labels=["neg", "pos"])[0].config.num_hidden_layers == 1


@pytest.mark.parametrize("name", ["config.json", "tokenizer_config.json", "special_tokens_map.json"])
def test_a_fifo_in_a_model_folder_is_refused_before_anything_reads_it(name, tiny, tmp_path):
    """A FIFO config.json blocked 'predict' for ever (opening a FIFO without a writer waits); every
    file of a model folder is checked before transformers opens any of them by name."""
    from bertstudio.tasks.model import inspect_model_folder, load_tokenizer

    folder = tmp_path / "model"
    shutil.copytree(tiny, folder)
    (folder / name).unlink(missing_ok=True)
    os.mkfifo(folder / name)
    for load in (inspect_model_folder, load_tokenizer):
        with pytest.raises(DataError, match="a FIFO") as info:
            load(folder)
        assert info.value.path == str(folder / name)
    proc = subprocess.run([sys.executable, "-m", "bertstudio", "--quiet", "predict", "--model", str(folder), "--text", "hi"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert proc.returncode == 2 and "FIFO" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_a_fifo_run_config_is_refused(tmp_path):
    from bertstudio.train.config import read_settings

    os.mkfifo(tmp_path / "run.toml")
    with pytest.raises(ConfigError, match="not a regular file"):
        read_settings(tmp_path / "run.toml")


@pytest.mark.parametrize(("value", "fragment"), [
    ("abc", "must be a whole number"), (-5, "at least 8"), (True, "must be a whole number"),
    (10**12, "more than the model's"), (4.5, "must be a whole number"),
])
def test_a_damaged_saved_max_length_is_refused_not_ignored(value, fragment, saved_model, tmp_path, capsys):
    """evaluate and predict cut inputs as training did (config.json's bertstudio.max_length); a
    value no run could have saved used to be dropped for the default, giving other scores."""
    folder = copy_of(saved_model, tmp_path / "lengths")
    data = json.loads((folder / "config.json").read_text())
    data["bertstudio"] = {**data.get("bertstudio", {}), "max_length": value}
    (folder / "config.json").write_text(json.dumps(data))
    with pytest.raises(ConfigError, match=fragment) as info:
        Predictor.load(folder)
    assert info.value.where == "bertstudio.max_length" and Path(info.value.path).name == "config.json"
    capsys.readouterr()  # transformers' own loading lines, outside the CLI
    assert main(["predict", "--model", str(folder), "--text", "good"], out=io.StringIO()) == 2
    line = one_line(capsys.readouterr().err)
    assert "config.json, bertstudio.max_length" in line and fragment in line


def test_saved_lengths_that_a_run_writes_load(saved_model, tmp_path):
    folder = copy_of(saved_model, tmp_path / "ok-lengths")
    data = json.loads((folder / "config.json").read_text())
    data["bertstudio"] = {**data.get("bertstudio", {}), "max_length": 16, "doc_stride": 0, "max_answer_length": 30}
    (folder / "config.json").write_text(json.dumps(data))
    assert Predictor.load(folder).lengths["max_length"] == 16


# --- a damaged fine-tuned model is refused, never predicted with (random or NaN outputs) --------


def _drop_tensors(folder: Path, keep) -> None:
    from safetensors.torch import load_file, save_file

    tensors = load_file(str(folder / "model.safetensors"))
    save_file({k: v for k, v in tensors.items() if keep(k)}, str(folder / "model.safetensors"), metadata={"format": "pt"})


def _nan_weights(folder: Path) -> None:
    from safetensors.torch import load_file, save_file

    tensors = load_file(str(folder / "model.safetensors"))
    tensors["classifier.weight"][0, 0] = float("nan")
    save_file(tensors, str(folder / "model.safetensors"), metadata={"format": "pt"})


def _other_architecture(folder: Path) -> None:
    edit_config(folder, model_type="distilbert", architectures=["DistilBertForSequenceClassification"],
                dim=32, n_layers=2, n_heads=2, hidden_dim=37)


@pytest.mark.parametrize(("damage", "fragment"), [
    (lambda f: _drop_tensors(f, lambda k: not k.startswith("classifier.")), "lacks classifier.bias, classifier.weight"),
    (lambda f: _drop_tensors(f, lambda k: k != "bert.encoder.layer.1.output.dense.weight"),
     "lacks bert.encoder.layer.1.output.dense.weight"),
    (_other_architecture, "lacks distilbert."),
    (_nan_weights, "classifier.weight holds NaN"),
    (lambda f: edit_config(f, id2label={"0": "pos", "1": "pos"}), "'pos' for more than one label id"),
    (lambda f: edit_config(f, id2label={"0": "neg", "1": "pos", "2": "other"}, label2id={"neg": 0, "pos": 1, "other": 2}),
     "wrong shape: classifier.bias, classifier.weight"),
    (lambda f: edit_config(f, num_attention_heads=0), "num_attention_heads = 0"),
    (lambda f: edit_config(f, num_attention_heads=3), "not a multiple of num_attention_heads 3"),
    (lambda f: edit_config(f, pad_token_id=10**6), "pad_token_id = 1000000"),
    (lambda f: edit_config(f, pad_token_id=-5), "pad_token_id = -5"),
    (lambda f: edit_config(f, bertstudio="x"), "the bertstudio block is a str"),
    (lambda f: edit_config(f, bertstudio={"task": ["x"]}), "unknown task kind ['x']"),
])
def test_a_damaged_model_is_one_line_not_noise(damage, fragment, saved_model, tmp_path, capsys):
    folder = copy_of(saved_model, tmp_path / "damaged")
    damage(folder)
    with pytest.raises(ConfigError) as raised:
        load_model(folder)
    assert fragment in str(raised.value)
    capsys.readouterr()  # transformers' own loading bar, outside the CLI (which turns it off)
    for argv in (["predict", "--model", str(folder), "--text", "good"],
                 ["evaluate", "--model", str(folder), "--eval", str(_tsv(tmp_path, labels=("neg", "pos")))]):
        out = io.StringIO()
        assert main(argv, out=out) == 2
        assert fragment in one_line(capsys.readouterr().err) and out.getvalue() == ""


def test_a_tokenizer_larger_than_the_embeddings_is_refused_for_training_and_prediction(saved_model, tiny, tmp_path, capsys):
    from bertstudio.bundled import default_model_path

    big = Path(default_model_path())
    for folder in (copy_of(saved_model, tmp_path / "saved"), copy_of(Path(tiny), tmp_path / "base")):
        for name in ("tokenizer.json", "tokenizer_config.json", "vocab.txt"):
            if (big / name).is_file():
                shutil.copy(big / name, folder / name)
    with pytest.raises(ConfigError, match="the tokenizer has 30,522 tokens but the model embeds only"):
        load_model(tmp_path / "saved")
    with pytest.raises(ConfigError, match="the tokenizer has 30,522 tokens"):
        build_model("sentence", str(tmp_path / "base"), labels=["neg", "pos"])


def test_a_tokenizer_giving_one_word_an_id_past_the_embeddings_is_refused(saved_model, tmp_path, capsys):
    """The count fits, one id does not ("good": 1000000 in tokenizer.json): "internal error:
    IndexError" (exit 1) at the first batch holding the word, in predict, evaluate and training."""
    folder = copy_of(saved_model, tmp_path / "m")
    path = folder / "tokenizer.json"
    if not path.is_file():
        pytest.skip("the tiny model keeps a vocab.txt only")
    data = json.loads(path.read_text(encoding="utf-8"))
    vocab = data["model"]["vocab"]
    word = next(w for w in vocab if w.isalpha())
    vocab[word] = 1_000_000
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ConfigError, match=f"gives '{word}' the id 1,000,000") as raised:
        load_model(folder)
    assert raised.value.where == "tokenizer"
    out = io.StringIO()
    assert main(["predict", "--model", str(folder), "--text", word], out=out) == 2
    assert "the id 1,000,000" in one_line(capsys.readouterr().err)


def test_an_enormous_tokenizer_file_is_refused_unread(saved_model, tmp_path, monkeypatch):
    import bertstudio.tasks.model as model_module

    folder = copy_of(saved_model, tmp_path / "huge")
    monkeypatch.setattr(model_module, "MAX_TOKENIZER_BYTES", 1000)  # the real limit is 512 MiB
    with pytest.raises(ConfigError, match=r"tokenizer.json is [\d,]+ bytes"):
        load_model(folder)


def test_an_encoder_whose_weights_are_another_architecture_never_trains_from_random(saved_model, tmp_path, capsys):
    # config.json says DistilBERT, the weights are BERT's: the encoder came back random, and training,
    # the assistant's embeddings and label-errors went on with exit 0
    from bertstudio.assist.encoder import SentenceEncoder

    folder = copy_of(saved_model, tmp_path / "other")
    _other_architecture(folder)
    with pytest.raises(ConfigError, match="the weights file lacks"):
        build_model("sentence", str(folder), labels=["neg", "pos"])
    with pytest.raises(ConfigError, match="the weights file lacks"):
        SentenceEncoder.from_path(folder)
    # a pre-trained encoder without a head (or pooler) is what a new run starts from: accepted
    base = copy_of(saved_model, tmp_path / "base")
    _drop_tensors(base, lambda k: not k.startswith("classifier.") and "pooler." not in k)
    model, _ = build_model("sentence", str(base), labels=["neg", "pos"])
    assert model is not None and SentenceEncoder.from_path(base) is not None


def test_a_label_name_that_is_no_text_is_refused_by_every_command(saved_model, tmp_path, capsys):
    """"\\ud800" in id2label is valid JSON but no text: predict and evaluate failed printing it
    (UnicodeEncodeError, exit 1); export-onnx wrote it into labels.json. Now the model check
    names config.json and the line, exit 2, for every command and loader."""
    folder = copy_of(saved_model, tmp_path / "m")
    edit_config(folder, id2label={"0": "neg\ud800", "1": "pos"})  # json.dumps writes the escape \\ud800
    data = tmp_path / "d.jsonl"
    data.write_text('{"text": "good fun", "label": "pos"}\n', encoding="utf-8")
    for load in every_loader(folder).values():
        with pytest.raises(ConfigError) as info:
            load()
        assert "surrogate" in str(info.value) and Path(info.value.path).name == "config.json"
    for argv in (["predict", "--model", str(folder), "--text", "hi"],
                 ["evaluate", "--model", str(folder), "--eval", str(data), "--out", str(tmp_path / "ev")],
                 ["export-onnx", "--model", str(folder), "--out", str(tmp_path / "ex")]):
        code = main(["--quiet", *argv], out=io.StringIO())
        line = one_line(capsys.readouterr().err)
        assert code == 2 and "config.json, line 1" in line and "surrogate" in line, (argv, line)
    assert not (tmp_path / "ex").exists() and not (tmp_path / "ev").exists()


def test_a_missing_model_under_a_folder_here_is_no_such_folder_not_a_hub_id(tmp_path, monkeypatch):
    """'runs/model' when runs/ exists here but has no model/: transformers took it for a Hub
    id and said it could not connect to huggingface.co."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    with pytest.raises(ConfigError, match="no such model folder"):
        load_model("runs/model")


def test_offset_positions_leave_pad_id_plus_one_fewer_tokens():
    """RoBERTa-style models number positions from pad_token_id + 1: 514 positions hold 512 tokens
    (a 1e30 "no limit" tokenizer let --max-length 514 through to an IndexError at step 1)."""
    from bertstudio.tasks.limits import token_limit

    no_limit = {"model_max_length": int(1e30)}
    for model_type in ("roberta", "xlm-roberta", "camembert", "mpnet"):
        config = {"model_type": model_type, "max_position_embeddings": 514, "pad_token_id": 1}
        assert token_limit(config, no_limit) == 512
        assert token_limit(config, {"model_max_length": 256}) == 256
    assert token_limit({"model_type": "bert", "max_position_embeddings": 512, "pad_token_id": 0}, no_limit) == 512
