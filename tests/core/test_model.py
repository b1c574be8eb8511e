"""build_model heads and modes (hand-counted parameters), save/reload/pipeline equivalence."""

from __future__ import annotations

import json
import shutil

import pytest
import torch
import transformers
from safetensors import safe_open
from transformers import BertTokenizer

from bertstudio.errors import ConfigError
from bertstudio.tasks.model import build_model, count_parameters, load_model, save_model

# Hand count for conftest's tiny BERT: vocab 171 (173 pieces, "a" and "i" listed twice), hidden 32, 2 layers, intermediate 64,
# 256 positions, 2 segment types.
EMBEDDINGS = 171 * 32 + 256 * 32 + 2 * 32 + 2 * 32  # word + position + segment + LayerNorm
LAYER = 4 * (32 * 32 + 32) + 2 * 32 + (32 * 64 + 64) + (64 * 32 + 32) + 2 * 32  # attention, LN, FFN, LN
POOLER = 32 * 32 + 32
ENCODER = EMBEDDINGS + 2 * LAYER
LABELS = ["neg", "neutral", "pos"]
CLASSIFIER = 32 * 3 + 3


@pytest.fixture(scope="module")
def tiny(tiny_model_dir, tmp_path_factory):
    # tiny_model_dir with its tokenizer rebuilt from vocab.txt (conftest's
    # BertTokenizer(vocab_file=) is ignored by transformers 5, leaving 5 specials).
    out = tmp_path_factory.mktemp("tiny-model")
    shutil.copytree(tiny_model_dir, out, dirs_exist_ok=True)
    (out / "tokenizer.json").unlink(missing_ok=True)
    BertTokenizer(vocab=str(out / "vocab.txt"), do_lower_case=True).save_pretrained(out)
    return str(out)


def test_hand_count_matches_the_tiny_model(tiny):
    assert ENCODER + POOLER == 31936
    model, _ = build_model("sentence", tiny, labels=LABELS)
    assert count_parameters(model) == (ENCODER + POOLER + CLASSIFIER, ENCODER + POOLER + CLASSIFIER)


@pytest.mark.parametrize(
    "head, mode, trainable",
    [
        ("linear", "full", ENCODER + POOLER + CLASSIFIER),
        ("linear", "frozen", CLASSIFIER),  # feature extraction: only W is new and learns
        ("mlp", "frozen", POOLER + CLASSIFIER),  # the re-initialised pooler is the head's hidden layer
        ("linear", "top-1", LAYER + POOLER + CLASSIFIER),
        ("linear", "top-2", 2 * LAYER + POOLER + CLASSIFIER),
        ("linear", "top-0", POOLER + CLASSIFIER),
    ],
)
def test_modes_freeze_what_they_say(tiny, head, mode, trainable):
    model, _ = build_model("sentence", tiny, labels=LABELS, head=head, mode=mode)
    assert count_parameters(model) == (trainable, ENCODER + POOLER + CLASSIFIER)


def test_lora_counts(tiny):
    import warnings

    adapters = 2 * 2 * (4 * 32 + 32 * 4)  # 2 layers x (query, value) x (A: r x 32, B: 32 x r)
    with warnings.catch_warnings():  # peft's FutureWarning printed two lines under --quiet
        warnings.simplefilter("error", FutureWarning)
        model, _ = build_model("sentence", tiny, labels=LABELS, mode="lora", lora_rank=4)
    # The head trains in full; peft keeps a frozen original beside its trainable copy.
    assert count_parameters(model) == (adapters + CLASSIFIER, ENCODER + POOLER + 2 * CLASSIFIER + adapters)
    model, _ = build_model("sentence", tiny, labels=LABELS, head="mlp", mode="lora", lora=(4, 8, 0.0, ["query", "value"]))
    assert count_parameters(model)[0] == adapters + CLASSIFIER + POOLER


def test_tagging_and_qa_heads_are_per_token(tiny):
    model, _ = build_model("tagging", tiny, labels=["O", "B-LOC", "I-LOC"], mode="frozen")
    assert count_parameters(model) == (32 * 3 + 3, ENCODER + 32 * 3 + 3)  # no pooler
    model, _ = build_model("qa", tiny, labels=[], mode="top-1")
    assert count_parameters(model) == (LAYER + 32 * 2 + 2, ENCODER + 32 * 2 + 2)


def test_bad_modes_are_config_errors(tiny):
    with pytest.raises(ConfigError, match="top-3"):
        build_model("sentence", tiny, labels=LABELS, mode="top-3")
    with pytest.raises(ConfigError):
        build_model("sentence", tiny, labels=LABELS, mode="half")
    with pytest.raises(ConfigError, match="at least 2 labels"):
        build_model("sentence", tiny, labels=["only"])
    with pytest.raises(ConfigError, match="repeat"):
        build_model("tagging", tiny, labels=["O", "B-X", "O"])
    with pytest.raises(ConfigError, match="lora_targets"):
        build_model("sentence", tiny, labels=LABELS, mode="lora", lora_targets=["no_such_module"])


def test_mlp_head_reinitialises_the_pooler_and_linear_keeps_it(tiny):
    pretrained = transformers.AutoModel.from_pretrained(tiny).pooler.dense.weight
    linear, _ = build_model("sentence", tiny, labels=LABELS, head="linear")
    mlp, _ = build_model("sentence", tiny, labels=LABELS, head="mlp")
    assert torch.equal(linear.bert.pooler.dense.weight, pretrained)
    assert not torch.equal(mlp.bert.pooler.dense.weight, pretrained)
    assert mlp.bert.pooler.dense.bias.abs().sum() == 0


def _logits(model, tok, *args):
    model.eval()
    with torch.no_grad():
        out = model(**tok(*args, return_tensors="pt"))
    return out.start_logits if hasattr(out, "start_logits") else out.logits


CASES = [
    ("sentence", "linear", "full", LABELS, AutoCls := "AutoModelForSequenceClassification"),
    ("sentence", "mlp", "full", LABELS, AutoCls),
    ("pair", "mlp", "lora", ["no", "yes"], AutoCls),
    ("regression", "linear", "full", [], AutoCls),
    ("tagging", "linear", "lora", ["O", "B-LOC", "I-LOC"], "AutoModelForTokenClassification"),
    ("qa", "linear", "full", [], "AutoModelForQuestionAnswering"),
]


@pytest.mark.parametrize("kind, head, mode, labels, auto", CASES)
def test_saved_model_reloads_with_plain_transformers(tiny, tmp_path, kind, head, mode, labels, auto):
    torch.manual_seed(1)
    model, tok = build_model(kind, tiny, labels=labels, head=head, mode=mode, lora_rank=2, glue_task="MRPC" if kind == "pair" else None)
    if mode == "lora":  # non-zero adapters and a changed head copy, so saving must merge and pick the copy
        with torch.no_grad():
            for name, p in model.named_parameters():
                if "lora_B" in name or "modules_to_save" in name:
                    p.normal_(0, 0.5)
    text = ("where is paris", "paris is in france") if kind in ("pair", "qa", "regression") else ("the dog is in paris",)
    before = _logits(model, tok, *text)
    out = save_model(model, tok, tmp_path / "model")
    config = json.loads((out / "config.json").read_text())
    assert config["bertstudio"] == {"task": kind, "head": head, "glue_task": "MRPC" if kind == "pair" else None}
    if labels:
        assert [config["id2label"][str(i)] for i in range(len(labels))] == labels
    weights = safe_open(str(out / "model.safetensors"), "pt").keys()
    assert not [k for k in weights if "lora" in k or "modules_to_save" in k or "base_model" in k]
    if mode == "lora":  # the live model was not merged: it can keep training
        assert any("lora_B" in n for n, _ in model.named_parameters())
        assert torch.allclose(_logits(model, tok, *text), before)

    plain = getattr(transformers, auto).from_pretrained(out)
    assert torch.allclose(_logits(plain, tok, *text), before, atol=1e-5)
    again, tok2, kind2, labels2 = load_model(out)
    assert (kind2, labels2) == (kind, labels)
    assert torch.allclose(_logits(again, tok2, *text), before, atol=1e-5)

    if kind in ("sentence", "pair", "regression"):
        pipe = transformers.pipeline("text-classification", model=str(out), device="cpu")
        arg = {"text": text[0], "text_pair": text[1]} if len(text) == 2 else text[0]
        scores = {d["label"]: d["score"] for d in pipe(arg, top_k=None)}
        expect = before[0] if kind == "regression" else torch.softmax(before[0], -1)  # regression: raw score
        names = ["score"] if kind == "regression" else labels
        assert [scores[n] for n in names] == pytest.approx(expect.tolist(), abs=1e-5)
    elif kind == "tagging":
        pipe = transformers.pipeline("token-classification", model=str(out), device="cpu", ignore_labels=[])
        probs = torch.softmax(before[0], -1)
        for d in pipe(text[0]):
            assert d["entity"] == labels[int(probs[d["index"]].argmax())]
            assert d["score"] == pytest.approx(float(probs[d["index"]].max()), abs=1e-5)
    # transformers 5 removed the "question-answering" pipeline; QA checks the Auto class above.


def test_load_model_of_a_folder_without_a_head_is_a_config_error(tiny):
    with pytest.raises(ConfigError, match="no task head"):
        load_model(tiny)


def test_a_new_heads_load_report_is_not_printed_bertstudio_reads_it(tiny):
    """Every training start in the app printed transformers' LOAD REPORT table (terminal colour
    codes, "classifier.weight | MISSING") on stderr: bertstudio reads that report itself and
    refuses what is really missing, so the table is noise. Reports of other threads are left alone."""
    import logging
    import threading

    from bertstudio.tasks.model import _own_load_report

    seen = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())
    logger = logging.getLogger("transformers.modeling_utils")
    logger.addHandler(handler)
    before = transformers.utils.logging.get_verbosity()
    transformers.utils.logging.set_verbosity_warning()  # as in the app (the CLI quiets the libraries)
    try:
        build_model("sentence", tiny, labels=LABELS)
        assert not any("LOAD REPORT" in m for m in seen)
        with _own_load_report():
            other = threading.Thread(target=lambda: logger.warning("X LOAD REPORT from elsewhere"))
            other.start()
            other.join()
            logger.warning("Y LOAD REPORT from here")
    finally:
        transformers.utils.logging.set_verbosity(before)
        logger.removeHandler(handler)
    assert seen == ["X LOAD REPORT from elsewhere"]


@pytest.mark.parametrize("kind,options", [("sentence", {}), ("sentence", {"mode": "lora"}), ("sentence", {"head": "mlp"}),
                                          ("sentence", {"head": "embedding"}), ("pair", {"head": "siamese", "mode": "top-1"})])
def test_counting_parameters_draws_nothing_from_the_global_generator(tiny, kind, options):
    """The Train page counts on a worker while a run may be starting on another thread: a draw
    here (a new head's or LoRA's initialisation) gave that run another model from its seed."""
    import torch

    from bertstudio.tasks.model import parameter_counts

    torch.manual_seed(0)
    expected = torch.rand(4)
    torch.manual_seed(0)
    trainable, total = parameter_counts(kind, tiny, labels=["a", "b"], **options)
    assert 0 < trainable <= total
    assert torch.equal(torch.rand(4), expected)


def test_a_backslash_path_is_a_missing_folder_not_a_hub_id(tmp_path, monkeypatch):
    """models\\my-bert (Windows' separator) went to the Hub: a connection error, not "no such folder"."""
    from bertstudio.tasks.model import inspect_model_folder

    monkeypatch.chdir(tmp_path)
    for name in ("models\\my-bert", "my-bert\\"):
        with pytest.raises(ConfigError, match="no such model folder"):
            inspect_model_folder(name)


@pytest.mark.parametrize("name", ["models\\my-bert", "my-bert\\"])
def test_a_backslash_path_is_a_missing_folder_on_windows_too(tmp_path, monkeypatch, name):
    """On Windows os.sep is the backslash: it was turned into "/" before the backslash was looked
    for, so models\\my-bert still went to the Hub there (the test above passes on Linux alone)."""
    from bertstudio.tasks import model

    def hub(name):  # noqa: ANN001
        raise AssertionError(f"{name!r} was sent to the Hub lookup")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(model, "_cached_hub_config", hub)
    monkeypatch.setattr(model.os, "sep", "\\")
    with pytest.raises(ConfigError, match="no such model folder"):
        model.inspect_model_folder(name)


@pytest.fixture(scope="module")
def families(tmp_path_factory):
    from helpers import tiny_family

    root = tmp_path_factory.mktemp("families")
    return {f: str(tiny_family(root / f, f)) for f in ("distilbert", "deberta-v2", "modernbert", "mpnet", "albert")}


@pytest.mark.parametrize("family, adapted", [("distilbert", "q_lin"), ("deberta-v2", "query_proj"),
                                             ("modernbert", "Wqkv"), ("mpnet", ".q."), ("albert", "query")])
def test_lora_adapts_each_familys_attention_by_default(families, family, adapted):
    """The default targets were query, value: nothing in DistilBERT, DeBERTa-v3, ModernBERT or MPNet."""
    model, _ = build_model("sentence", families[family], labels=LABELS, mode="lora", lora_rank=2)
    adapters = [n for n, p in model.named_parameters() if "lora_A" in n]
    assert adapters and any(adapted in n for n in adapters)


def test_explicit_lora_targets_win_and_a_miss_names_the_models_layers(families):
    model, _ = build_model("sentence", families["distilbert"], labels=LABELS, mode="lora", lora_rank=2,
                           lora_targets=["k_lin"])
    assert all("k_lin" in n for n, p in model.named_parameters() if "lora_A" in n)
    with pytest.raises(ConfigError, match="q_lin, k_lin, v_lin, out_lin") as caught:
        build_model("sentence", families["distilbert"], labels=LABELS, mode="lora", lora_targets=["query", "value"])
    assert "lora_targets" in str(caught.value)


def test_train_config_leaves_lora_targets_to_the_family():
    from bertstudio.train.config import TrainConfig

    assert TrainConfig().lora_targets == []
    assert TrainConfig(lora_targets=["query", "value"]).lora_targets == ["query", "value"]


@pytest.mark.parametrize("family, layer", [("deberta-v2", "pooler.dense"), ("modernbert", "head.dense"),
                                           ("albert", "albert.pooler")])
def test_mlp_head_finds_each_familys_hidden_layer(families, family, layer):
    """DeBERTa's pooler and ModernBERT's head sit outside the base model, ALBERT's pooler is a
    Linear itself: "no pooler or hidden head layer" was refused for all three."""
    from bertstudio.tasks.model import _hidden_layer

    model, _ = build_model("sentence", families[family], labels=LABELS, head="mlp")
    assert _hidden_layer(model) is model.get_submodule(layer)


def test_lora_trains_head_layers_outside_the_base_model(families):
    """DeBERTa's pooler is new at load and outside the base model: under LoRA it stayed random and frozen."""
    model, _ = build_model("sentence", families["deberta-v2"], labels=LABELS, mode="lora", lora_rank=2)
    trainable = {n for n, p in model.named_parameters() if p.requires_grad}
    assert any("pooler" in n and "dense" in n for n in trainable) and any("classifier" in n for n in trainable)


def test_top_n_on_albert_says_its_layers_are_shared(families):
    with pytest.raises(ConfigError, match="shares") as caught:
        build_model("sentence", families["albert"], labels=LABELS, mode="top-1")
    assert caught.value.where == "mode" and "full, frozen or lora" in str(caught.value)
