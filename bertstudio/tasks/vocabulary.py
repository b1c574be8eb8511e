"""Can the model read this text? The share of [UNK] pieces its tokenizer makes of a sample.

A WordPiece vocabulary built for one language maps most characters of another to [UNK]:
the bundled all-MiniLM-L6-v2 (English, uncased) turns about 63% of the pieces of
ChnSentiCorp's Chinese reviews into [UNK], and trains to ~63% accuracy there where a
Chinese BERT reaches the low 90s. :func:`check_vocabulary` measures the share on a sample
(loading only the tokenizer, never weights, with ``trust_remote_code=False``), names the
text's main script and suggests encoders whose vocabularies cover it.

Used by the Import dialog after a file's preview and meant for the Train page before a
run starts (:func:`check_model_vocabulary`: a model source as the Train page's picker
gives it, and the texts). Qt-free, so the CLI can say the same.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from bertstudio.bundled import resolve_model
from bertstudio.errors import ConfigError
from bertstudio.tasks.limits import TOKENIZER_FILES
from bertstudio.hf import hf

# "A few percent": English text under the bundled model stays at 0.0% (SST-2 dev), emoji and
# rare symbols add a little; a model that cannot read a script sits far above (63% for Chinese).
UNK_WARN_SHARE = 0.03
SAMPLE_SIZE = 500

# Encoders (Hub ids, all with fast tokenizers) whose vocabularies cover a script, best known first.
MULTILINGUAL: tuple[str, ...] = ("bert-base-multilingual-cased", "xlm-roberta-base")
SUGGESTED_MODELS: dict[str, tuple[str, ...]] = {
    "Han": ("bert-base-chinese", "hfl/chinese-roberta-wwm-ext", *MULTILINGUAL),
    "Kana": MULTILINGUAL,  # Japanese BERTs need MeCab (no fast tokenizer): a multilingual one
    "Hangul": ("klue/bert-base", *MULTILINGUAL),
    "Cyrillic": ("DeepPavlov/rubert-base-cased", *MULTILINGUAL),
    "Arabic": ("aubmindlab/bert-base-arabertv02", *MULTILINGUAL),
}
# Scripts by the first word of their Unicode character names (CJK ideographs have their own).
_SCRIPT_PREFIXES: dict[str, str] = {
    "CJK": "Han", "HIRAGANA": "Kana", "KATAKANA": "Kana", "HANGUL": "Hangul", "CYRILLIC": "Cyrillic",
    "ARABIC": "Arabic", "DEVANAGARI": "Devanagari", "THAI": "Thai", "GREEK": "Greek", "HEBREW": "Hebrew",
    "LATIN": "Latin", "BENGALI": "Bengali", "TAMIL": "Tamil", "ARMENIAN": "Armenian", "GEORGIAN": "Georgian",
}


@dataclass(frozen=True)
class VocabularyCheck:
    """What a tokenizer made of a sample: ``unk`` of ``pieces`` were [UNK]."""

    model: str  # the model source as given (a folder or Hub id)
    texts: int  # how many texts were sampled
    pieces: int
    unk: int
    script: str | None  # the sample's main script ("Han", "Latin", ...), None without letters
    suggestions: tuple[str, ...] = field(default=())  # Hub ids of encoders that read that script
    threshold: float = UNK_WARN_SHARE

    @property
    def share(self) -> float:
        return self.unk / self.pieces if self.pieces else 0.0

    @property
    def warn(self) -> bool:
        """True when the share is above the threshold: the model cannot read much of the text."""
        return self.share > self.threshold

    def describe(self) -> str:
        """One English line for the CLI and the log (the GUI builds its own, translated)."""
        from bertstudio.bundled import model_title

        text = (f"{100 * self.share:.0f}% of the {self.pieces:,} word pieces of {self.texts:,} examples are "
                f"[UNK] for {model_title(self.model)}")
        if not self.warn:
            return text
        return text + ": those words are lost to the model; try " + ", ".join(self.suggestions)


def unk_share(tokenizer: Any, texts: Iterable[str]) -> tuple[int, int]:
    """``(unk, pieces)``: how many of the pieces ``tokenizer`` makes of ``texts`` are its unknown
    token (no specials added, nothing truncated). ``tokenizer`` is a transformers tokenizer or a
    :class:`TokenizerPieces` (see :func:`load_tokenizer`). A tokenizer without an unknown token
    (byte-level BPE) never gives one: ``(0, pieces)``."""
    texts = [t for t in texts if t]
    if not texts:
        return 0, 0
    if isinstance(tokenizer, TokenizerPieces):
        ids, unk_id = tokenizer.encode(texts), tokenizer.unk_id
    else:
        # verbose=False: texts longer than the model's 512 positions are counted, not warned about.
        ids = tokenizer(texts, add_special_tokens=False, verbose=False)["input_ids"]
        unk_id = getattr(tokenizer, "unk_token_id", None)
    pieces = sum(len(row) for row in ids)
    unk = 0 if unk_id is None else sum(1 for row in ids for i in row if i == unk_id)
    return unk, pieces


def main_script(texts: Iterable[str]) -> str | None:
    """The script most letters of ``texts`` are written in; Japanese (any kana) is "Kana"."""
    counts: Counter[str] = Counter()
    for text in texts:
        for ch in text:
            if not ch.isalpha():
                continue
            name = unicodedata.name(ch, "")
            script = _SCRIPT_PREFIXES.get(name.split(" ", 1)[0], "Other") if name else "Other"
            counts[script] += 1
    if not counts:
        return None
    if counts["Kana"] and counts["Kana"] * 10 >= counts["Han"]:  # kanji with kana: Japanese
        return "Kana"
    return counts.most_common(1)[0][0]


def suggested_models(script: str | None) -> tuple[str, ...]:
    """Encoders to suggest for text in ``script`` (multilingual ones where none is specific)."""
    return SUGGESTED_MODELS.get(script or "", MULTILINGUAL)


def check_vocabulary(tokenizer: Any, texts: Sequence[str], *, model: str = "",
                     threshold: float = UNK_WARN_SHARE) -> VocabularyCheck:
    """Measure ``texts`` (already a sample) with ``tokenizer``: the [UNK] share, script and suggestions."""
    texts = [t for t in texts if t]
    unk, pieces = unk_share(tokenizer, texts)
    script = main_script(texts)
    return VocabularyCheck(model, len(texts), pieces, unk, script, suggested_models(script), threshold)


def sample_texts(examples: Any, n: int = SAMPLE_SIZE, seed: int = 0) -> list[str]:
    """Up to ``n`` texts of an ExampleSet drawn with ``seed``: every text column of its kind
    (tokens joined by spaces), so a pair's second sentence and a QA context count too."""
    sample = examples.head(n, seed=seed)
    out: list[str] = []
    for column in examples.spec.text_columns:
        for value in sample.dataset[column]:
            if isinstance(value, list):
                value = " ".join(str(v) for v in value)
            if value:
                out.append(str(value))
    return out


@dataclass(frozen=True)
class TokenizerPieces:
    """A model's tokenizer as the ``tokenizers`` library (the Rust core of transformers' fast
    tokenizers) reads it from the model's files: the same pieces, without importing
    transformers and torch (seconds, and transformers' lazy module is not safe to import on a
    worker while the GUI thread hashes a dataset, which looks it up in sys.modules)."""

    tokenizer: Any  # tokenizers.Tokenizer
    unk_id: int | None

    def encode(self, texts: list[str]) -> list[list[int]]:
        return [e.ids for e in self.tokenizer.encode_batch(texts, add_special_tokens=False)]


def _tokenizer_files(source: str) -> dict[str, Path]:
    """tokenizer.json / vocab.txt / tokenizer_config.json of a local folder, or of a Hub id
    already in the local Hugging Face cache (nothing is downloaded here)."""
    folder = Path(source).expanduser()
    names = ("tokenizer.json", "vocab.txt", "tokenizer_config.json")
    if folder.is_dir():
        return {n: folder / n for n in names if (folder / n).is_file()}
    from huggingface_hub import try_to_load_from_cache

    found = {}
    for name in names:
        try:
            path = try_to_load_from_cache(source, name)
        except ValueError:  # not a valid Hub id either
            return {}
        if isinstance(path, str):
            found[name] = Path(path)
    return found


def _pieces_tokenizer(files: dict[str, Path]) -> TokenizerPieces | None:
    import json

    from tokenizers import Tokenizer
    from tokenizers.implementations import BertWordPieceTokenizer
    from tokenizers.models import WordPiece

    config: dict[str, Any] = {}
    if "tokenizer_config.json" in files:
        try:
            config = json.loads(files["tokenizer_config.json"].read_text(encoding="utf-8"))
        except (OSError, ValueError):
            config = {}
    unk = config.get("unk_token")
    unk = unk.get("content") if isinstance(unk, dict) else unk
    if "tokenizer.json" in files:
        tokenizer = Tokenizer.from_file(str(files["tokenizer.json"]))
        tokenizer.no_truncation()  # a saved tokenizer.json may cut at 128 pieces: count them all
        tokenizer.no_padding()
        unk = unk or getattr(tokenizer.model, "unk_token", None)
    elif "vocab.txt" in files and config.get("tokenizer_class", "BertTokenizer").startswith("Bert"):
        # A WordPiece vocabulary alone (hfl/chinese-roberta-wwm-ext): BERT's normaliser and
        # pre-tokeniser with the config's casing, as transformers' BertTokenizerFast builds it.
        unk = unk or "[UNK]"
        tokenizer = BertWordPieceTokenizer(WordPiece.read_file(str(files["vocab.txt"])), unk_token=unk,
                                           lowercase=bool(config.get("do_lower_case", True)),
                                           strip_accents=config.get("strip_accents"),
                                           handle_chinese_chars=bool(config.get("tokenize_chinese_chars", True)))
    else:
        return None
    return TokenizerPieces(tokenizer, tokenizer.token_to_id(unk) if unk else None)


def load_tokenizer(model_source: str | None) -> tuple[Any, str]:
    """Only the tokenizer of a model folder or Hub id (None / "default": the bundled MiniLM):
    read by ``tokenizers`` from the model's files where they are on disk, else through
    transformers' AutoTokenizer (``trust_remote_code=False``; offline unless the Hub is
    reachable and allowed). A ConfigError says what went wrong."""
    source = resolve_model(model_source)
    try:
        files = _tokenizer_files(source)
        folder = Path(source).expanduser()
        if not files and folder.is_dir() and not any((folder / n).is_file() for n in TOKENIZER_FILES):
            # a local folder without tokenizer files is no model to judge text by (the CLI said
            # "100% [UNK]" of one, before the loader's own refusal)
            raise ConfigError("the model folder has no tokenizer files", path=source,
                              expected="tokenizer.json or vocab.txt beside the model")
        pieces = _pieces_tokenizer(files) if files else None
        if pieces is not None:
            return pieces, source
        AutoTokenizer = hf("AutoTokenizer")

        return AutoTokenizer.from_pretrained(source, trust_remote_code=False), source
    except Exception as exc:  # noqa: BLE001 - tokenizers and transformers raise types of their own
        raise ConfigError(f"cannot load the model's tokenizer: {exc}", path=source,
                          expected="a model folder or a Hub id already downloaded (offline)") from None


def check_model_vocabulary(model_source: str | None, texts: Sequence[str], *,
                           threshold: float = UNK_WARN_SHARE) -> VocabularyCheck:
    """The Train page's check before a run: :func:`check_vocabulary` with the tokenizer of
    ``model_source`` (as its model picker gives it: None or "default" for the bundled model, a
    folder, a Hub id). A tenth of a second for a model on disk; a model known only by a Hub id
    not yet downloaded may go to the network or fail with a ConfigError: call it on a worker."""
    tokenizer, source = load_tokenizer(model_source)
    return check_vocabulary(tokenizer, texts, model=source, threshold=threshold)
