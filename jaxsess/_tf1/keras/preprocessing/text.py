"""``jaxsess._tf1.keras.preprocessing.text``: word tokenisation and the ``Tokenizer``, as
``tf.keras.preprocessing.text`` (pure Python/NumPy)."""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

__all__ = ["text_to_word_sequence", "Tokenizer", "hashing_trick", "one_hot", "tokenizer_from_json"]

#: Keras' default ``filters``: the characters replaced by ``split``.
DEFAULT_FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def text_to_word_sequence(input_text: str, filters: str = DEFAULT_FILTERS, lower: bool = True,
                          split: str = " ") -> list[str]:
    """The words of ``input_text``: lower-cased (``lower``), ``filters`` characters replaced by
    ``split``, split on ``split``, empty words dropped, as
    ``tf.keras.preprocessing.text.text_to_word_sequence``."""
    if lower:
        input_text = input_text.lower()
    table: dict[str, str | int | None] = dict.fromkeys(filters, split)
    input_text = input_text.translate(str.maketrans(table))
    return [w for w in input_text.split(split) if w]


class Tokenizer:
    """Words to integer ids by frequency, as ``tf.keras.preprocessing.text.Tokenizer``.

    After :meth:`fit_on_texts`, ``word_index`` maps each word to its rank by
    count (1 = most frequent; ties in first-seen order; ``oov_token`` first
    when given), ``word_counts`` / ``word_docs`` / ``index_docs`` /
    ``document_count`` hold the statistics. Only ids below ``num_words`` are
    used by the ``texts_to_*`` / ``sequences_to_*`` methods.

    Args:
      num_words: keep the ``num_words - 1`` most frequent words (default: all).
      filters, lower, split: as :func:`text_to_word_sequence`.
      char_level: tokens are characters.
      oov_token: the token that replaces words outside the vocabulary.
    """

    def __init__(self, num_words: int | None = None, filters: str = DEFAULT_FILTERS, lower: bool = True,
                 split: str = " ", char_level: bool = False, oov_token: str | None = None,
                 analyzer: Any = None, document_count: int = 0, **kwargs: Any) -> None:
        if "nb_words" in kwargs:
            num_words = kwargs.pop("nb_words")
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments: {kwargs}")
        self.word_counts: OrderedDict[str, int] = OrderedDict()
        self.word_docs: defaultdict[str, int] = defaultdict(int)
        self.filters = filters
        self.split = split
        self.lower = lower
        self.num_words = num_words
        self.document_count = document_count
        self.char_level = char_level
        self.oov_token = oov_token
        self.index_docs: defaultdict[int, int] = defaultdict(int)
        self.word_index: dict[str, int] = {}
        self.index_word: dict[int, str] = {}
        self.analyzer = analyzer

    def get_config(self) -> dict[str, Any]:
        """The settings and the tables (JSON strings), as ``Tokenizer.get_config``."""
        return {
            "num_words": self.num_words, "filters": self.filters, "lower": self.lower, "split": self.split,
            "char_level": self.char_level, "oov_token": self.oov_token, "document_count": self.document_count,
            "word_counts": json.dumps(self.word_counts), "word_docs": json.dumps(self.word_docs),
            "index_docs": json.dumps(self.index_docs), "index_word": json.dumps(self.index_word),
            "word_index": json.dumps(self.word_index),
        }

    def to_json(self, **kwargs: Any) -> str:
        """``{"class_name": "Tokenizer", "config": get_config()}`` as JSON (``kwargs`` to ``json.dumps``),
        as ``Tokenizer.to_json``; read back with :func:`tokenizer_from_json`."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()}, **kwargs)

    def _tokens(self, text: Any) -> list[str]:
        if self.char_level or isinstance(text, list):
            if self.lower:
                text = [t.lower() for t in text] if isinstance(text, list) else text.lower()
            return list(text)
        if self.analyzer is not None:
            return list(self.analyzer(text))
        return text_to_word_sequence(text, filters=self.filters, lower=self.lower, split=self.split)

    def fit_on_texts(self, texts: Iterable[Any]) -> None:
        """Updates the vocabulary from ``texts`` (strings, or lists of tokens)."""
        for text in texts:
            self.document_count += 1
            seq = self._tokens(text)
            for w in seq:
                self.word_counts[w] = self.word_counts.get(w, 0) + 1
            for w in set(seq):
                self.word_docs[w] += 1
        wcounts = sorted(self.word_counts.items(), key=lambda wc: wc[1], reverse=True)  # stable: ties keep order
        vocab = [] if self.oov_token is None else [self.oov_token]
        vocab.extend(w for w, _ in wcounts)
        self.word_index = dict(zip(vocab, range(1, len(vocab) + 1)))
        self.index_word = {i: w for w, i in self.word_index.items()}
        for w, c in list(self.word_docs.items()):
            self.index_docs[self.word_index[w]] = c

    def fit_on_sequences(self, sequences: Iterable[Sequence[int]]) -> None:
        """Updates ``document_count`` and ``index_docs`` from id sequences (for ``tfidf``)."""
        for seq in sequences:
            self.document_count += 1
            for i in set(seq):
                self.index_docs[i] += 1

    def texts_to_sequences_generator(self, texts: Iterable[Any]) -> Iterator[list[int]]:
        """The id list of each text (words outside the vocabulary or ``num_words``: ``oov_token``'s id or dropped)."""
        oov = self.word_index.get(self.oov_token) if self.oov_token is not None else None
        for text in texts:
            vect: list[int] = []
            for w in self._tokens(text):
                i = self.word_index.get(w)
                if i is not None:
                    if self.num_words and i >= self.num_words:
                        if oov is not None:
                            vect.append(oov)
                    else:
                        vect.append(i)
                elif self.oov_token is not None and oov is not None:
                    vect.append(oov)
            yield vect

    def texts_to_sequences(self, texts: Iterable[Any]) -> list[list[int]]:
        """``list(texts_to_sequences_generator(texts))``."""
        return list(self.texts_to_sequences_generator(texts))

    def sequences_to_texts_generator(self, sequences: Iterable[Sequence[int]]) -> Iterator[str]:
        """The words of each id sequence, joined by spaces."""
        oov = self.word_index.get(self.oov_token) if self.oov_token is not None else None
        for seq in sequences:
            vect: list[str] = []
            for num in seq:
                word = self.index_word.get(num)
                if word is not None:
                    if self.num_words and num >= self.num_words:
                        if oov is not None:
                            vect.append(self.index_word[oov])
                    else:
                        vect.append(word)
                elif self.oov_token is not None and oov is not None:
                    vect.append(self.index_word[oov])
            yield " ".join(vect)

    def sequences_to_texts(self, sequences: Iterable[Sequence[int]]) -> list[str]:
        return list(self.sequences_to_texts_generator(sequences))

    def texts_to_matrix(self, texts: Iterable[Any], mode: str = "binary") -> np.ndarray:
        """``sequences_to_matrix(texts_to_sequences(texts), mode)``."""
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences: Sequence[Sequence[int]], mode: str = "binary") -> np.ndarray:
        """A float64 matrix ``[len(sequences), num_words]`` of ``mode`` ``'binary'`` (0/1),
        ``'count'``, ``'freq'`` (count / length) or ``'tfidf'``.

        Raises:
          ValueError: no ``num_words`` and nothing fitted; ``tfidf`` before fitting; an unknown mode.
        """
        if not self.num_words:
            if not self.word_index:
                raise ValueError("Specify a dimension (`num_words` argument), or fit on some text data first.")
            num_words = len(self.word_index) + 1
        else:
            num_words = self.num_words
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        if mode not in ("binary", "count", "tfidf", "freq"):
            raise ValueError(f"Unknown vectorization mode: {mode}")
        x = np.zeros((len(sequences), num_words))
        for i, seq in enumerate(sequences):
            if not seq:
                continue
            counts: defaultdict[int, int] = defaultdict(int)
            for j in seq:
                if j < num_words:
                    counts[j] += 1
            for j, c in counts.items():
                if mode == "count":
                    x[i][j] = c
                elif mode == "freq":
                    x[i][j] = c / len(seq)
                elif mode == "binary":
                    x[i][j] = 1
                else:
                    idf = np.log(1 + self.document_count / (1 + self.index_docs.get(j, 0)))
                    x[i][j] = (1 + np.log(c)) * idf
        return x


def hashing_trick(text: str, n: int, hash_function: Any = None, filters: str = DEFAULT_FILTERS, lower: bool = True,
                  split: str = " ", analyzer: Any = None) -> list[int]:
    """Each word of ``text`` hashed to an index in ``[1, n)``, as Keras'
    ``hashing_trick``: ``hash_function(word) % (n - 1) + 1``, with Python's
    ``hash`` by default (salted per process unless ``PYTHONHASHSEED`` is set,
    as in Keras) or ``'md5'``."""
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        def hash_function(w: str) -> int:
            return int(hashlib.md5(w.encode()).hexdigest(), 16)
    seq = text_to_word_sequence(text, filters=filters, lower=lower, split=split) if analyzer is None else analyzer(text)
    return [hash_function(w) % (n - 1) + 1 for w in seq]


def one_hot(input_text: str, n: int, filters: str = DEFAULT_FILTERS, lower: bool = True, split: str = " ",
            analyzer: Any = None) -> list[int]:
    """:func:`hashing_trick` with Python's ``hash``, as Keras' ``one_hot`` (indices, not one-hot vectors)."""
    return hashing_trick(input_text, n, hash_function=hash, filters=filters, lower=lower, split=split,
                         analyzer=analyzer)


def tokenizer_from_json(json_string: str) -> Tokenizer:
    """A :class:`Tokenizer` from ``Tokenizer.to_json()``, as Keras' ``tokenizer_from_json``
    (``word_counts``/``word_docs`` come back as plain dicts, as Keras')."""
    config = dict(json.loads(json_string)["config"])
    tables = {k: json.loads(config.pop(k)) for k in ("word_counts", "word_docs", "index_docs", "index_word",
                                                     "word_index")}
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts = tables["word_counts"]
    tokenizer.word_docs = tables["word_docs"]
    tokenizer.index_docs = {int(k): v for k, v in tables["index_docs"].items()}  # type: ignore[assignment]
    tokenizer.index_word = {int(k): v for k, v in tables["index_word"].items()}
    tokenizer.word_index = tables["word_index"]
    return tokenizer
