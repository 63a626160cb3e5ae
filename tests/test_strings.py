"""String tensors (host values) and run-time printing."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

import jaxsess as tf
from jaxsess._tf1._fingerprint import fingerprint64, to_hash_bucket_fast
from jaxsess._tf1.ops.logging_ops import format_v1, format_v2


def test_string_constant_fetches_bytes(sess: tf.Session) -> None:
    assert sess.run(tf.constant("Hello")) == b"Hello"
    arr = sess.run(tf.constant([["a", "bc"]]))
    assert isinstance(arr, np.ndarray) and arr.dtype == object and arr.tolist() == [[b"a", b"bc"]]


def test_string_placeholder_and_join_with_device_fetch(sess: tf.Session) -> None:
    p = tf.placeholder(tf.string, [])
    j = tf.strings.join([p, "!"], separator="")
    x = tf.constant(2.0) * 3.0
    out, val = sess.run([j, x], {p: "hey"})
    assert out == b"hey!"
    assert float(np.asarray(val)) == 6.0


def test_unfed_string_placeholder_names_it(sess: tf.Session) -> None:
    p = tf.placeholder(tf.string, [], name="who")
    with pytest.raises(tf.errors.InvalidArgumentError, match="who"):
        sess.run(tf.identity(p))


def test_device_op_on_string_raises_naming_it() -> None:
    s = tf.constant("a", name="text")
    with pytest.raises(TypeError, match="string tensor 'text:0'"):
        tf.add(s, s)


def test_as_string_reads_device_values(sess: tf.Session) -> None:
    v = tf.Variable([1.25, 2.0])
    sess.run(v.initializer)
    assert sess.run(tf.as_string(v * 2.0, precision=1)).tolist() == [b"2.5", b"4.0"]


def test_print_v1_format_and_passthrough(sess: tf.Session, capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.constant([[1.0, 2.0, 3.0, 4.0, 5.0]])
    y = tf.Print(x, [x, tf.constant(3)], message="msg: ")
    out = sess.run(y)
    np.testing.assert_array_equal(np.asarray(out), [[1, 2, 3, 4, 5]])
    assert capsys.readouterr().err == "msg: [[1 2 3...]...][3]\n"


def test_print_v2_runs_as_target_and_control_dependency(sess: tf.Session) -> None:
    buf = io.StringIO()
    x = tf.constant([[1, 2], [3, 4]])
    op = tf.print("x:", x, "done", output_stream=buf)
    sess.run(op)
    assert buf.getvalue() == "x: [[1 2]\n [3 4]] done\n"
    with tf.control_dependencies([tf.print(tf.constant(0.5), output_stream=buf)]):
        z = tf.identity(x)
    sess.run(z)
    assert buf.getvalue().endswith("0.5\n")


def test_print_formats_like_tf() -> None:
    assert format_v1(np.arange(5), 3) == "0 1 2..."
    assert format_v2(np.arange(10), 3) == "[0 1 2 ... 7 8 9]"
    assert format_v2(np.float32(1 / 3), 3) == "0.333333343"
    assert format_v1(np.float32([1 / 3]), 3) == "0.333333"
    assert format_v2(np.zeros((2, 2, 1), np.int32), 3) == "[[[0]\n  [0]]\n\n [[0]\n  [0]]]"


def test_string_constants_round_trip_through_graph_def() -> None:
    s = tf.constant([["hi", "x"]])
    t = tf.strings.join([s, "!"])
    gd = tf.get_default_graph().as_graph_def()
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as sess:
            assert sess.run(g2.get_tensor_by_name(t.name)).tolist() == [[b"hi!", b"x!"]]


def test_print_v2_quotes_strings_and_formats_structures(sess: tf.Session) -> None:
    buf = io.StringIO()
    op = tf.print(tf.constant([True, False]), tf.constant(["a", "b"]), {"k": tf.constant(1)},
                  [tf.constant(2), "x"], output_stream=buf)
    sess.run(op)
    assert buf.getvalue() == '[1 0] ["a" "b"] {\'k\': 1} [2, \'x\']\n'


def test_hash64_and_siphash_match_tf() -> None:
    from jaxsess._tf1._fingerprint import hash64, siphash24

    # TF 2.21: tf.strings.to_hash_bucket(['', 'abcdefghijklmnopq'], 2**62), _strong(..., [1, 2])
    assert hash64(b"") % 2**62 == 105434511174508091
    assert hash64(b"abcdefghijklmnopq") % 2**62 == 3675176827060214941
    assert siphash24((1, 2), b"") % 2**62 == 443797209252341627
    assert siphash24((1, 2), b"abcdefghijklmnopq") % 2**62 == 2589293315738655589



def test_hash_bucket_errors() -> None:
    with pytest.raises(ValueError, match="num_buckets must be >= 1"):
        tf.strings.to_hash_bucket(["a"], 0)
    with pytest.raises(ValueError, match="Key must have 2 elements"):
        tf.strings.to_hash_bucket_strong(["a"], 3, [1])
    with pytest.raises(TypeError, match="expected a string tensor"):
        tf.string_to_hash_bucket(tf.constant([1]), 3)



def test_unicode_ops_errors() -> None:
    with pytest.raises(ValueError, match="encoding must be one of"):
        tf.strings.unicode_transcode(["a"], "UTF-8", "latin-1")
    with pytest.raises(ValueError, match="errors must be one of"):
        tf.strings.unicode_encode([[65]], "UTF-8", errors="skip")
    with pytest.raises(NotImplementedError, match="RaggedTensor"):
        tf.strings.unicode_decode(["ab", "c"], "UTF-8")
    with pytest.raises(NotImplementedError, match="pad_values"):
        tf.strings.ngrams([["a", "b"]], 2, pad_values="#")
    g = tf.Graph()
    with g.as_default():
        strict = tf.strings.unicode_encode([[0x110000]], "UTF-8", errors="strict")
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
            sess.run(strict)



def test_unsorted_segment_join_errors() -> None:
    with pytest.raises(ValueError, match="num_segments"):
        tf.strings.unsorted_segment_join(["a"], [0], tf.placeholder(tf.int32, []))
    g = tf.Graph()
    with g.as_default():
        bad = tf.strings.unsorted_segment_join(tf.constant(["a", "b"]), tf.constant([0, 2]), 2)
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match="exceed num_segments"):
            sess.run(bad)


def test_fingerprint64_is_tf_fingerprint() -> None:
    # TF: tf.strings.to_hash_bucket_fast(['hello', ''], 2**62) == [3786372426573024488, 1936946117179621455]
    assert fingerprint64(b"hello") % 2**62 == 3786372426573024488
    assert fingerprint64(b"") % 2**62 == 1936946117179621455
    assert to_hash_bucket_fast(np.array([b"a", b"b", b"hello"], dtype=object), 5).tolist() == [4, 2, 1]
    with pytest.raises(ValueError, match="num_buckets"):
        to_hash_bucket_fast([b"a"], 0)



def test_string_ops_build_errors() -> None:
    with pytest.raises(ValueError, match="unit"):
        tf.strings.length(["a"], unit="CHAR")
    with pytest.raises(ValueError, match="axis 2 out of range"):
        tf.strings.reduce_join([["a"]], axis=2)
    with pytest.raises(ValueError, match="num_buckets"):
        tf.strings.to_hash_bucket_fast(["a"], 0)
    with pytest.raises(TypeError, match="expected a string tensor"):
        tf.strings.upper(tf.constant([1.0]))
    with pytest.raises(NotImplementedError, match="SparseTensor"):
        tf.strings.split(["a"], result_type="RaggedTensor")
    with pytest.raises(ValueError, match="vector"):
        tf.strings.split([["a b"]])



def test_invalid_regex_raises_at_run_time(sess: tf.Session) -> None:
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid pattern"):
        sess.run(tf.strings.regex_full_match(["abc"], "["))



def test_numeric_results_of_string_ops_feed_device_ops(sess: tf.Session) -> None:
    words = tf.placeholder(tf.string, [None])
    n = tf.strings.length(words)
    total = tf.reduce_sum(n) * 2
    assert sess.run(total, {words: ["ab", "cde"]}) == 10
    assert sess.run(tf.size(words), {words: ["a", "b", "c"]}) == 3
    assert sess.run(tf.shape(words), {words: ["a"]}).tolist() == [1]



def test_contrib_index_tables_match_tf(sess: tf.Session) -> None:
    lookup = tf.contrib.lookup
    ids = lookup.index_table_from_tensor(["x", "y"], num_oov_buckets=2)
    words = lookup.index_to_string_table_from_tensor(["x", "y"])
    plain = lookup.index_table_from_tensor(["x", "y"], default_value=-7)
    sess.run(tf.tables_initializer())
    assert sess.run(ids.lookup(tf.constant([["x", "q"]]))).tolist() == [[0, 3]]  # TF: [[0, 3]]
    assert sess.run(ids.size()) == 4
    assert sess.run(words.lookup(tf.constant([1, 5], tf.int64))).tolist() == [b"y", b"UNK"]
    assert sess.run(plain.lookup(tf.constant(["y", "z"]))).tolist() == [1, -7]



def test_integer_vocabulary_and_hash_only_table(sess: tf.Session) -> None:
    lookup = tf.contrib.lookup
    ints = lookup.index_table_from_tensor(tf.constant([5, 7], tf.int64), default_value=-2, dtype=tf.int64)
    hashed = lookup.IdTableWithHashBuckets(None, num_oov_buckets=5)
    sess.run(tf.tables_initializer())
    assert sess.run(ints.lookup(tf.constant([7, 1, 5]))).tolist() == [1, -2, 0]
    assert sess.run(hashed.lookup(tf.constant(["a", "b", "hello"]))).tolist() == [4, 2, 1]  # Fingerprint64 % 5



def test_index_tables_from_file(sess: tf.Session, tmp_path: Path) -> None:
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("the\ncat\nsat\n")
    to_id = tf.contrib.lookup.index_table_from_file(str(vocab), num_oov_buckets=1)
    to_word = tf.contrib.lookup.index_to_string_table_from_file(str(vocab), vocab_size=2)
    sess.run(tf.tables_initializer())
    assert sess.run(to_id.lookup(tf.constant(["sat", "the", "dog"]))).tolist() == [2, 0, 3]
    assert sess.run(to_word.lookup(tf.constant([0, 1, 2], tf.int64))).tolist() == [b"the", b"cat", b"UNK"]



def test_text_file_errors(sess: tf.Session, tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text("a\n")
    t = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        str(short), tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER,
        vocab_size=3), -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid vocab_size"):
        sess.run(t.initializer)
    missing = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        str(tmp_path / "nope.txt"), tf.string, -2, tf.int64, -1), -1)
    with pytest.raises(tf.errors.NotFoundError):
        sess.run(missing.initializer)
    with pytest.raises(ValueError, match="Signature mismatch"):
        tf.lookup.TextFileInitializer("v.txt", tf.string, -2, tf.int32, tf.lookup.TextFileIndex.LINE_NUMBER)



def test_lookup_errors(sess: tf.Session) -> None:
    table = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(["a"], np.array([1], np.int64)), default_value=-1)
    found = table.lookup(tf.constant(["a"]))
    with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized"):
        sess.run(found)
    assert sess.run(table.size()) == 0  # TF 2: no initialisation check
    with pytest.raises(TypeError, match="keys"):
        table.lookup(tf.constant([1]))
    with pytest.raises(ValueError, match="num_oov_buckets"):
        tf.lookup.StaticVocabularyTable(
            tf.lookup.KeyValueTensorInitializer(["a"], np.array([0], np.int64)), num_oov_buckets=0)
    sess.run(table.initializer)
    assert sess.run(found).tolist() == [1]



def test_lookup_of_sparse_tensor(sess: tf.Session) -> None:
    table = tf.lookup.StaticVocabularyTable(
        tf.lookup.KeyValueTensorInitializer(["a", "b"], np.array([0, 1], np.int64)), num_oov_buckets=3)
    sp = table.lookup(tf.strings.split(["a zz", "hello b"]))
    sess.run(tf.tables_initializer())
    got = sess.run(sp)
    assert got.values.tolist() == [0, 3, 3, 1]  # TF: 'zz' and 'hello' -> 3
    assert got.dense_shape.tolist() == [2, 2]



def test_compat_text_helpers() -> None:
    assert tf.compat.as_bytes("é") == b"\xc3\xa9"
    assert tf.compat.as_bytes(bytearray(b"x")) == b"x"
    assert tf.compat.as_text(b"\xc3\xa9") == "é"
    assert tf.compat.as_str("x") == "x"
    assert tf.compat.as_str_any(3) == "3"
    assert tf.compat.path_to_str(Path("a/b")) == "a/b"
    assert tf.compat.v1.compat.as_bytes("a") == b"a"
    with pytest.raises(TypeError, match="Expected binary or unicode string"):
        tf.compat.as_bytes(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Expected binary or unicode string"):
        tf.compat.as_text(None)  # type: ignore[arg-type]



def test_versions() -> None:
    assert tf.VERSION == tf.version.VERSION == "1.15.0"
    assert "jaxsess" in tf.GIT_VERSION
    assert tf.__version__ != tf.VERSION  # jaxsess's own version



def test_gpu_queries_answer_from_jax_devices() -> None:
    import jax

    has_gpu = any(d.platform == "gpu" for d in jax.devices())
    assert tf.test.is_gpu_available() is has_gpu
    assert tf.test.gpu_device_name() == ("/device:GPU:0" if has_gpu else "")
    assert tf.test.is_gpu_available(min_cuda_compute_capability=(99, 0)) is False
