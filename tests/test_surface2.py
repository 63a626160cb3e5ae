"""Names of ``tf.signal``, ``tf.io`` parsing, ``tf.strings``, ``tf.feature_column`` and
``tf.summary`` added by the ``surface2`` slice: errors and edge cases. Values are compared
with TF 2.21 by the corpus programs ``v57_*``; expected numbers here were read from TF."""

from __future__ import annotations

import numpy as np
import pytest

import jaxsess as tf


def _run(fetches: object, feed: dict | None = None) -> object:
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict=feed)


# -- tf.signal ----------------------------------------------------------------------------------


def test_dct_matches_scipy_definitions_and_inverts() -> None:
    x = np.arange(1.0, 7.0).reshape(2, 3)
    g = tf.Graph()
    with g.as_default():
        d2 = tf.signal.dct(tf.constant(x), type=2, norm="ortho")
        back = tf.signal.idct(d2, type=2, norm="ortho")
        d1 = tf.signal.dct(tf.constant(x), type=1)
        with tf.Session() as sess:
            v2, vb, v1 = sess.run([d2, back, d1])
    # scipy.fft.dct(x, type=2, norm='ortho') for row [1, 2, 3]
    np.testing.assert_allclose(v2[0], [3.4641016, -1.4142136, 0.0], atol=1e-6)
    np.testing.assert_allclose(vb, x, atol=1e-12)
    np.testing.assert_allclose(v1[0], [8.0, -2.0, 0.0], atol=1e-12)
    assert d2.dtype == tf.float64


def test_dct_argument_errors() -> None:
    x = tf.constant(np.ones((2, 4), np.float32))
    with pytest.raises(ValueError, match="Normalization is not supported for the Type-I DCT"):
        tf.signal.dct(x, type=1, norm="ortho")
    with pytest.raises(ValueError, match="Types I, II, III and IV"):
        tf.signal.dct(x, type=5)
    with pytest.raises(NotImplementedError, match="axis must be -1"):
        tf.signal.dct(x, axis=0)
    with pytest.raises(ValueError, match="Unknown normalization"):
        tf.signal.idct(x, norm="l2")
    with pytest.raises(ValueError, match="greater than one"):
        tf.signal.dct(tf.constant(np.ones((2, 1), np.float32)), type=1)


def test_overlap_and_add_values_and_errors() -> None:
    frames = np.arange(6, dtype=np.float32).reshape(3, 2)
    out = _run(tf.signal.overlap_and_add(tf.constant(frames), 1))
    np.testing.assert_array_equal(out, [0.0, 1 + 2, 3 + 4, 5])
    with pytest.raises(ValueError, match="rank at least 2"):
        tf.signal.overlap_and_add(tf.constant([1.0, 2.0]), 1)
    with pytest.raises(ValueError, match="frame_step must be an integer"):
        tf.signal.overlap_and_add(tf.constant(frames), 1.0)


def test_inverse_stft_reconstructs_the_signal() -> None:
    rng = np.random.RandomState(1)
    x = rng.randn(128).astype(np.float32)
    s = tf.signal.stft(tf.constant(x), 32, 8)
    y = tf.signal.inverse_stft(s, 32, 8, window_fn=tf.signal.inverse_stft_window_fn(8))
    out = _run(y)
    assert y.shape.as_list() == [32 + 8 * 12]
    np.testing.assert_allclose(out[32:-32], x[32:len(out) - 32], atol=1e-5)


def test_mel_matrix_errors_and_shape() -> None:
    m = tf.signal.linear_to_mel_weight_matrix(8, 33, 16000, 20.0, 8000.0)
    assert m.shape.as_list() == [33, 8]
    out = _run(m)
    assert (out[0] == 0).all() and out.min() >= 0.0
    with pytest.raises(ValueError, match="num_mel_bins must be positive"):
        tf.signal.linear_to_mel_weight_matrix(0)
    with pytest.raises(ValueError, match="Nyquist"):
        tf.signal.linear_to_mel_weight_matrix(upper_edge_hertz=4001.0)
    with pytest.raises(ValueError, match="lower_edge_hertz 200.0 >= upper_edge_hertz 100.0"):
        tf.signal.linear_to_mel_weight_matrix(lower_edge_hertz=200.0, upper_edge_hertz=100.0)
    with pytest.raises(ValueError, match="floating point"):
        tf.signal.linear_to_mel_weight_matrix(dtype=tf.int32)


def test_windows_and_mdct_errors() -> None:
    with pytest.raises(ValueError, match="floating point"):
        tf.signal.vorbis_window(4, dtype=tf.int32)
    with pytest.raises(ValueError, match="multiple of 4"):
        tf.signal.mdct(tf.constant(np.zeros(16, np.float32)), 6)
    # TF 2.21: tf.signal.kaiser_window(3, beta=2.0) == [0.43867626786231995, 1.0, 0.43867626786231995]
    np.testing.assert_allclose(_run(tf.signal.kaiser_window(3, beta=2.0)), [0.43867626786231995, 1.0, 0.43867626786231995], rtol=1e-6)


def test_fftshift_axes() -> None:
    x = tf.constant(np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(_run(tf.signal.fftshift(x, axes=-1)), [[2, 0, 1], [5, 3, 4]])
    np.testing.assert_array_equal(_run(tf.signal.ifftshift(tf.signal.fftshift(x))), np.arange(6).reshape(2, 3))


# -- parsing: VarLenFeature -----------------------------------------------------------------------


def _example(**feature: object) -> bytes:
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


def test_varlen_feature_sparse_output_and_errors() -> None:
    rec = _example(x=tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 2.0])))
    g = tf.Graph()
    with g.as_default():
        s = tf.placeholder(tf.string, [None])
        sp = tf.io.parse_example(s, {"x": tf.io.VarLenFeature(tf.float32)})["x"]
        assert isinstance(sp, tf.SparseTensor) and sp.dtype == tf.float32
        dense = tf.sparse.to_dense(sp)
        with tf.Session() as sess:
            v, d = sess.run([sp, dense], {s: [rec, _example()]})
            np.testing.assert_array_equal(v.indices, [[0, 0], [0, 1]])
            np.testing.assert_array_equal(v.dense_shape, [2, 2])
            np.testing.assert_array_equal(d, [[1.0, 2.0], [0.0, 0.0]])
            # wrong kind: TF's message
            wrong = tf.io.parse_example(s, {"x": tf.io.VarLenFeature(tf.int64)})["x"]
            with pytest.raises(tf.errors.InvalidArgumentError, match="Data types don't match"):
                sess.run(wrong, {s: [rec]})
    with pytest.raises(TypeError, match="sparse_types"):
        tf.io.parse_example(["x"], {"x": tf.io.VarLenFeature(tf.int32)})


# -- strings: hash buckets -------------------------------------------------------------------------


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


# -- feature columns -------------------------------------------------------------------------------


def test_vocabulary_file_column_errors(tmp_path) -> None:
    path = tmp_path / "v.txt"
    path.write_text("a\nb\n")
    col = tf.feature_column.categorical_column_with_vocabulary_file("k", str(path))
    assert col.vocabulary_size == 2 and col.num_buckets == 2
    with pytest.raises(ValueError, match="Invalid vocabulary_size in k"):
        tf.feature_column.categorical_column_with_vocabulary_file("k", str(path), vocabulary_size=0)
    with pytest.raises(ValueError, match="Invalid num_oov_buckets -1 in k"):
        tf.feature_column.categorical_column_with_vocabulary_file("k", str(path), num_oov_buckets=-1)
    with pytest.raises(ValueError, match="Missing vocabulary_file"):
        tf.feature_column.categorical_column_with_vocabulary_file("k", "")
    too_big = tf.feature_column.categorical_column_with_vocabulary_file("k", str(path), vocabulary_size=5)
    with pytest.raises(ValueError, match="Invalid vocab_size 5"):
        tf.feature_column.input_layer({"k": [["a"]]}, [tf.feature_column.indicator_column(too_big)])


def test_make_parse_example_spec_conflict() -> None:
    fc = tf.feature_column
    with pytest.raises(ValueError, match="different parse_spec for key k"):
        fc.make_parse_example_spec([fc.numeric_column("k"), fc.categorical_column_with_hash_bucket("k", 3)])
    spec = fc.make_parse_example_spec([fc.categorical_column_with_identity("i", 4)])
    assert spec == {"i": tf.io.VarLenFeature(tf.int64)}


# -- tf.io: serialized tensors, compression, globbing ----------------------------------------------


def test_serialize_parse_roundtrip_and_errors() -> None:
    x = np.array([[1, 2], [3, 4]], np.int32)
    g = tf.Graph()
    with g.as_default():
        back = tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant(x)), tf.int32)
        assert back.shape.ndims is None and back.dtype == tf.int32
        not_scalar = tf.io.parse_tensor(tf.constant(["a", "b"]), tf.int32)
        garbage = tf.io.parse_tensor(tf.constant(b"\xff\xff"), tf.int32)
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(back), x)
            with pytest.raises(tf.errors.InvalidArgumentError, match="Expected `serialized` to be a scalar"):
                sess.run(not_scalar)
            with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse"):
                sess.run(garbage)
    with pytest.raises(ValueError, match="requested dtype string"):  # as TF
        tf.io.parse_tensor(tf.constant(1), tf.int32)


def test_decode_compressed_bad_type() -> None:
    with pytest.raises(ValueError, match="ZLIB, GZIP"):
        tf.io.decode_compressed(["x"], compression_type="BZIP2")


def test_match_filenames_once_feeds_a_reader(tmp_path) -> None:
    for name in ("a.csv", "b.csv"):
        (tmp_path / name).write_text(f"{name}\n")
    g = tf.Graph()
    with g.as_default():
        files = tf.train.match_filenames_once(str(tmp_path / "*.csv"))
        assert files.name == "matching_filenames:0"
        queue = tf.train.string_input_producer(files, shuffle=False, num_epochs=1)
        _, line = tf.TextLineReader().read(queue)
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            lines = [sess.run(line), sess.run(line)]
            coord.request_stop()
            coord.join(threads)
    assert lines == [b"a.csv", b"b.csv"]
    with pytest.raises(ValueError, match="at most rank 1"):
        tf.io.matching_files([["a"]])


def test_fixed_length_record_dataset_errors(tmp_path) -> None:
    with pytest.raises(ValueError, match="record_bytes must be positive"):
        tf.data.FixedLengthRecordDataset(str(tmp_path / "x.bin"), 0)
    g = tf.Graph()
    with g.as_default():
        nxt = tf.data.FixedLengthRecordDataset(str(tmp_path / "missing.bin"), 4).make_one_shot_iterator().get_next()
        with tf.Session() as sess, pytest.raises(tf.errors.NotFoundError):
            sess.run(nxt)


def test_sequence_example_errors() -> None:
    ex = tf.train.SequenceExample()
    ex.feature_lists.feature_list["x"].feature.add().float_list.value.extend([1.0, 2.0])
    rec = ex.SerializeToString()
    g = tf.Graph()
    with g.as_default():
        _, seq = tf.parse_single_sequence_example(rec, sequence_features={
            "x": tf.FixedLenSequenceFeature([3], tf.float32)})
        _, missing = tf.parse_single_sequence_example(rec, sequence_features={
            "y": tf.FixedLenSequenceFeature([], tf.int64)})
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="values size: 2 but output shape: \\[3\\]"):
                sess.run(seq["x"])
            with pytest.raises(tf.errors.InvalidArgumentError, match="Feature list 'y' is required"):
                sess.run(missing["y"])
    with pytest.raises(ValueError, match="Missing features"):
        tf.parse_single_sequence_example(rec)
    with pytest.raises(ValueError, match="Unsupported context feature type FixedLenSequenceFeature"):
        tf.parse_single_sequence_example(rec, context_features={"c": tf.FixedLenSequenceFeature([], tf.int64)})
    with pytest.raises(ValueError, match="rank 0"):
        tf.parse_single_sequence_example([rec], sequence_features={"x": tf.VarLenFeature(tf.float32)})


def test_shared_embedding_columns_errors() -> None:
    fc = tf.feature_column
    a = fc.categorical_column_with_identity("a", 4)
    with pytest.raises(ValueError, match="Invalid dimension 0"):
        fc.shared_embedding_columns([a], 0)
    with pytest.raises(ValueError, match="same number of buckets"):
        fc.shared_embedding_columns([a, fc.categorical_column_with_identity("b", 5)], 2)
    with pytest.raises(ValueError, match="same type"):
        fc.shared_embedding_columns([a, fc.categorical_column_with_hash_bucket("b", 4)], 2)
    cols = fc.shared_embedding_columns([a, fc.categorical_column_with_identity("b", 4)], 2,
                                       shared_embedding_collection_name="shared")
    assert [c._var_scope_name for c in cols] == ["shared", "shared"]
    assert fc.make_parse_example_spec(cols) == {"a": tf.io.VarLenFeature(tf.int64), "b": tf.io.VarLenFeature(tf.int64)}


def test_jpeg_header_ops_errors() -> None:
    with pytest.raises(TypeError, match="int32 or int64"):
        tf.io.extract_jpeg_shape(b"x", output_type=tf.float32)
    with pytest.raises(ValueError, match="scalar string"):
        tf.io.is_jpeg(["a", "b"])
    g = tf.Graph()
    with g.as_default():
        shape = tf.io.extract_jpeg_shape(b"GIF89a")
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match="Invalid JPEG data, size 6"):
            sess.run(shape)


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
