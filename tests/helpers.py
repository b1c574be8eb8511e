"""What tests share besides fixtures: paths and small data builders.

Imported as ``from helpers import ...`` (tests/ is on the path); conftest.py keeps only
fixtures, so a test never depends on which of the two conftest modules pytest loaded
under the name ``conftest``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bertstudio.data.project import Project

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = (REPO.parent / "shared" / "data").resolve()

POS = ["good", "great", "love", "best", "fun"]
NEG = ["bad", "terrible", "hate", "worst", "boring"]

# Every preset the shared data can train: (preset, its folder in SHARED_DATA, the split to train
# on, the split to evaluate on). QNLI and SNLI ship without their train file, so their first rows
# train and the next ones evaluate (train split == eval split).
PRESET_SAMPLES = [
    ("CoLA", "glue/CoLA", "train", "dev"), ("SST-2", "glue/SST-2", "train", "dev"), ("MRPC", "glue/MRPC", "train", "dev"),
    ("STS-B", "glue/STS-B", "train", "dev"), ("RTE", "glue/RTE", "train", "dev"), ("WNLI", "glue/WNLI", "train", "dev"),
    ("QNLI", "glue/QNLI", "dev", "dev"), ("SNLI", "snli", "dev", "dev"),
    ("ChnSentiCorp", "zh/ChnSentiCorp", "train", "dev"), ("AFQMC", "zh/AFQMC", "train", "dev"),
]


def random_sentiment_records(n: int, seed: int) -> list[dict[str, Any]]:
    """Toy sentiment rows with labels drawn at random (about half each): two positive or two
    negative words among three filler words, in a random order."""
    import random

    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        pos = rng.random() < 0.5
        words = rng.sample(POS if pos else NEG, 2) + rng.sample(["the", "a", "movie", "film", "story", "was"], 3)
        rows.append({"text": " ".join(words), "label": "pos" if pos else "neg"})
    return rows


def capped_model(src: Any, out: Path, tokens: int) -> Path:
    """A copy of the model folder ``src`` whose tokenizer reads at most ``tokens`` tokens."""
    import json
    import shutil

    shutil.copytree(src, out)
    path = out / "tokenizer_config.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "model_max_length": tokens}))
    return out

def sentiment_records(n: int, seed: int = 0) -> list[dict[str, Any]]:
    """Separable toy sentiment rows for the tiny model: two positive or two negative words
    per sentence, alternating labels (pos first)."""
    import random

    rng = random.Random(seed)
    rows = []
    for i in range(n):
        pos = i % 2 == 0
        a, b = rng.sample(POS if pos else NEG, 2)
        rows.append({"text": f"the movie was {a} and {b}", "label": "pos" if pos else "neg"})
    return rows


def sentiment(n: int, seed: int = 0):
    """:func:`sentiment_records` as a sentence ExampleSet labelled neg/pos."""
    from bertstudio.data.examples import from_records

    return from_records("sentence", sentiment_records(n, seed), labels=["neg", "pos"])


def make_project(folder: Path, kind: str, labels: list[str] | None = None,
                 splits: dict[str, list[dict[str, Any]]] | None = None, name: str = "test") -> Project:
    """A project in ``folder`` with the given rows per split (labels as given, in that order)."""
    from bertstudio.data.examples import from_records
    from bertstudio.data.project import Project

    project = Project.create(folder, name=name, kind=kind, labels=labels or [])
    for split, records in (splits or {}).items():
        project.import_examples(from_records(kind, records, labels=list(labels or [])), split)
    return project


def finishes(fn: Any, fifos: Any = (), timeout: float = 20.0) -> BaseException | None:
    """Run ``fn`` in a daemon thread: the exception it raised (None if none), or fail the test if it
    is still blocked after ``timeout`` s (a FIFO or device opened for reading). On a block, each of
    ``fifos`` is opened for writing once so the blocked reader wakes (at end of file) and the thread
    ends with the test instead of lingering."""
    import os
    import threading

    box: list[BaseException | None] = []

    def target() -> None:
        try:
            fn()
            box.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    blocked = not box
    if blocked:
        for fifo in fifos:
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
        thread.join(5)
    assert not blocked, f"still blocked after {timeout:.0f} s: a FIFO/device was opened for reading"
    return box[0]


def project_with_run(run: Path, folder: Path, name: str) -> Any:
    """The project a test's run was trained in (``run.parent / "proj"``), copied to ``folder`` with its
    rows' lineage, opened, and the run copied into its runs/ as ``name``: a project's own run."""
    import shutil

    from bertstudio.data.project import Project

    shutil.copytree(run.parent / "proj", folder)
    project = Project.open(folder)
    shutil.copytree(run, project.runs_dir / name)
    return project


# --- tiny encoders of other families (built in the test, in seconds) ------------------------

FAMILY_SENTENCES = [
    "the story comes from the news agency in new york .",
    "a good film is a good story , and this one is great fun .",
    "the worst movie i have seen : boring , very boring .",
    "where does the river go ? it goes to the city of paris .",
    "she loves the book and he hates the film .",
    "they really like the dog , the cat and the man .",
    "what is the best city in france ? london is not in france .",
    "we went from london to paris by train in the morning .",
] * 4


def tiny_family(out: Path, family: str) -> Path:
    """A random encoder (hidden 32, 2 layers) of ``family`` with a tokenizer of its kind trained
    on :data:`FAMILY_SENTENCES`, saved as a base model folder (as Hub checkpoints are):
    ``roberta`` and ``modernbert`` (byte-level BPE), ``xlm-roberta`` (Unigram + Metaspace, type
    ids of 1 on overflow windows, ``type_vocab_size`` 1), ``deberta-v2``, ``albert`` (Unigram),
    ``distilbert`` and ``mpnet`` (WordPiece)."""
    import torch
    import transformers as T
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    cfg = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64)
    rs = dict(bos_token="<s>", eos_token="</s>", unk_token="<unk>", sep_token="</s>", pad_token="<pad>",
              cls_token="<s>", mask_token="<mask>")
    bs = dict(unk_token="[UNK]", sep_token="[SEP]", pad_token="[PAD]", cls_token="[CLS]", mask_token="[MASK]")

    def bpe(specials: tuple[str, ...]) -> Any:
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.train_from_iterator(FAMILY_SENTENCES, trainers.BpeTrainer(
            vocab_size=300, special_tokens=list(specials), initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
        tok.decoder = decoders.ByteLevel()
        return tok

    def unigram(specials: list[str], cls: str, sep: str, pair: str) -> Any:
        tok = Tokenizer(models.Unigram())
        tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always")
        tok.train_from_iterator(FAMILY_SENTENCES, trainers.UnigramTrainer(
            vocab_size=200, special_tokens=specials, unk_token="<unk>" if "<unk>" in specials else "[UNK]"))
        tok.post_processor = processors.TemplateProcessing(
            single=f"{cls} $A {sep}", pair=pair, special_tokens=[(cls, tok.token_to_id(cls)), (sep, tok.token_to_id(sep))])
        tok.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="always")
        return tok

    def wordpiece(specials: list[str], cls: str, sep: str, pair: str) -> Any:
        tok = Tokenizer(models.WordPiece(unk_token="[UNK]" if "[UNK]" in specials else "<unk>"))
        tok.normalizer = normalizers.BertNormalizer(lowercase=True)
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        tok.train_from_iterator(FAMILY_SENTENCES, trainers.WordPieceTrainer(vocab_size=300, special_tokens=specials))
        tok.post_processor = processors.TemplateProcessing(
            single=f"{cls} $A {sep}", pair=pair, special_tokens=[(cls, tok.token_to_id(cls)), (sep, tok.token_to_id(sep))])
        tok.decoder = decoders.WordPiece()
        return tok

    if family == "roberta":
        tok = bpe(("<s>", "<pad>", "</s>", "<unk>", "<mask>"))
        tok.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0), trim_offsets=True, add_prefix_space=False)
        config = T.RobertaConfig(**cfg, max_position_embeddings=66, pad_token_id=1, type_vocab_size=1)
        model_cls, tok_cls, specials = T.RobertaModel, T.RobertaTokenizerFast, dict(rs, add_prefix_space=False)
    elif family == "modernbert":
        tok = bpe(("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"))
        tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]",
                                                           special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
        config = T.ModernBertConfig(**cfg, max_position_embeddings=128, pad_token_id=0, cls_token_id=2, sep_token_id=3,
                                    bos_token_id=2, eos_token_id=3, global_attn_every_n_layers=2, local_attention=64)
        model_cls, tok_cls, specials = T.ModernBertModel, T.PreTrainedTokenizerFast, bs
    elif family == "xlm-roberta":
        tok = unigram(["<s>", "<pad>", "</s>", "<unk>", "<mask>"], "<s>", "</s>", "<s> $A </s> </s> $B </s>")
        config = T.XLMRobertaConfig(**cfg, max_position_embeddings=130, pad_token_id=1, type_vocab_size=1)
        model_cls, tok_cls, specials = T.XLMRobertaModel, T.XLMRobertaTokenizerFast, rs
    elif family == "deberta-v2":
        tok = unigram(["[PAD]", "[CLS]", "[SEP]", "[UNK]", "[MASK]"], "[CLS]", "[SEP]", "[CLS] $A [SEP] $B:1 [SEP]:1")
        config = T.DebertaV2Config(**cfg, max_position_embeddings=512, relative_attention=True, position_buckets=64,
                                   pos_att_type=["p2c", "c2p"], position_biased_input=False, type_vocab_size=0)
        model_cls, tok_cls, specials = T.DebertaV2Model, T.DebertaV2TokenizerFast, bs
    elif family == "albert":
        tok = unigram(["<pad>", "<unk>", "[CLS]", "[SEP]", "[MASK]"], "[CLS]", "[SEP]", "[CLS] $A [SEP] $B:1 [SEP]:1")
        config = T.AlbertConfig(**cfg, embedding_size=16, max_position_embeddings=128)
        model_cls, tok_cls = T.AlbertModel, T.AlbertTokenizerFast
        specials = dict(unk_token="<unk>", sep_token="[SEP]", pad_token="<pad>", cls_token="[CLS]", mask_token="[MASK]")
    elif family == "distilbert":
        tok = wordpiece(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"], "[CLS]", "[SEP]", "[CLS] $A [SEP] $B:1 [SEP]:1")
        config = T.DistilBertConfig(dim=32, n_layers=2, n_heads=2, hidden_dim=64, max_position_embeddings=128)
        model_cls, tok_cls, specials = T.DistilBertModel, T.DistilBertTokenizerFast, bs
    elif family == "mpnet":
        tok = wordpiece(["<s>", "<pad>", "</s>", "<unk>", "<mask>"], "<s>", "</s>", "<s> $A </s> </s> $B </s>")
        config = T.MPNetConfig(**cfg, max_position_embeddings=130, pad_token_id=1)
        model_cls, tok_cls, specials = T.MPNetModel, T.MPNetTokenizerFast, rs
    else:
        raise ValueError(family)
    config.vocab_size = tok.get_vocab_size()
    torch.manual_seed(0)
    out.mkdir(parents=True, exist_ok=True)
    model_cls(config).save_pretrained(out)
    tok_cls(tokenizer_object=tok, model_max_length=512, **specials).save_pretrained(out)
    return out


def show_active(qtbot: Any, window: Any) -> None:
    """Show ``window`` and wait until it is the active window, so that the keys QTest sends reach it."""
    from PySide6.QtWidgets import QApplication

    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
