"""Image files and codecs, ``tf.sets`` and the sparse extras (slice ``imageio``).

Values are checked against real TensorFlow by the corpus (``v41_*``); these
tests pin what the corpus cannot: bounds against TF's default JPEG DCT,
build-time errors, file errors, and what stays unchanged after a failed run.
"""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import jaxsess as tf

FIXTURES = Path(__file__).parent / "fixtures" / "images"


def _run(fetch, feed=None):
    with tf.Session() as sess:
        return sess.run(fetch, feed)


# -- images ----------------------------------------------------------------------------------------------


def test_decode_jpeg_default_dct_is_within_three_levels_of_accurate() -> None:
    # TF's default dct_method ('' = INTEGER_FAST) vs the accurate DCT we decode with:
    # the golden of v41_image_files holds TF's INTEGER_ACCURATE pixels, which we match exactly.
    with tf.Graph().as_default():
        data = tf.read_file(str(FIXTURES / "color.jpg"))
        fast, exact = _run([tf.image.decode_jpeg(data), tf.image.decode_jpeg(data, dct_method="INTEGER_ACCURATE")])
    assert fast.shape == exact.shape == (16, 24, 3)
    assert np.abs(fast.astype(int) - exact.astype(int)).max() <= 3


def test_encode_jpeg_decodes_close_to_the_image_in_pillow() -> None:
    yy, xx = np.mgrid[0:16, 0:16]
    img = np.stack([xx * 16, yy * 16, (xx + yy) * 8], -1).astype(np.uint8)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.uint8, [None, None, 3])
        data = _run(tf.image.encode_jpeg(x, quality=95), {x: img})
    assert isinstance(data, bytes) and data[:3] == b"\xff\xd8\xff"
    back = np.asarray(Image.open(io.BytesIO(data)))
    assert back.shape == img.shape
    assert np.abs(back.astype(int) - img.astype(int)).mean() < 4


def test_encode_png_bytes_decode_to_the_same_pixels_in_pillow() -> None:
    img = np.random.RandomState(1).randint(0, 256, (3, 4, 4)).astype(np.uint8)
    with tf.Graph().as_default():
        data = _run(tf.image.encode_png(img, compression=9))
    np.testing.assert_array_equal(np.asarray(Image.open(io.BytesIO(data))), img)


def test_decoded_image_feeds_the_plan_once_per_shape(tmp_path: Path) -> None:
    paths = []
    for i, shape in enumerate([(2, 3, 3), (4, 5, 3), (2, 3, 3)]):
        p = tmp_path / f"{i}.png"
        Image.fromarray(np.full(shape, 10 * i, np.uint8)).save(p)
        paths.append(str(p))
    with tf.Graph().as_default():
        f = tf.placeholder(tf.string, [])
        img = tf.image.decode_png(tf.read_file(f))
        total = tf.reduce_sum(tf.cast(img, tf.int32))
        with tf.Session() as sess:
            sums = [sess.run(total, {f: p}) for p in paths]
    assert sums == [0, 10 * 60, 20 * 18]


def test_write_file_into_a_missing_directory_raises_not_found(tmp_path: Path) -> None:
    with tf.Graph().as_default():
        op = tf.write_file(str(tmp_path / "no" / "such.bin"), b"x")
        with pytest.raises(tf.errors.NotFoundError, match="such.bin"):
            _run(op)


def test_read_file_of_a_missing_file_raises_not_found(tmp_path: Path) -> None:
    with tf.Graph().as_default():
        with pytest.raises(tf.errors.NotFoundError, match="missing"):
            _run(tf.read_file(str(tmp_path / "missing")))


def test_a_failed_decode_leaves_variables_unchanged() -> None:
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        data = tf.placeholder(tf.string, [])
        step = tf.assign_add(v, tf.reduce_mean(tf.to_float(tf.image.decode_png(data))))
        with tf.Session() as sess:
            sess.run(v.initializer)
            with pytest.raises(tf.errors.InvalidArgumentError, match="Unknown image file format"):
                sess.run(step, {data: b"junk"})
            assert sess.run(v) == 1.0


def test_build_time_errors_name_the_argument() -> None:
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match="uint8 or uint16, got float32"):
            tf.image.encode_png(tf.zeros([2, 2, 3]))
        with pytest.raises(TypeError, match="decode_png: dtype"):
            tf.image.decode_png(b"", dtype=tf.float32)
        with pytest.raises(ValueError, match="ratio"):
            tf.image.decode_jpeg(b"", ratio=3)
        with pytest.raises(ValueError, match="scalar string"):
            tf.image.decode_png(tf.constant([b"a", b"b"]))
        with pytest.raises(ValueError, match="requested dtype string"):
            tf.image.decode_png(tf.zeros([], tf.int32))


def test_encode_png_of_a_two_dimensional_image_is_an_error() -> None:
    with tf.Graph().as_default():
        x = tf.placeholder(tf.uint8)
        with pytest.raises(tf.errors.InvalidArgumentError, match="3-dimensional"):
            _run(tf.image.encode_png(x), {x: np.zeros((2, 2), np.uint8)})


def test_tf_io_and_compat_names() -> None:
    assert tf.io.read_file is tf.read_file and tf.io.decode_png is tf.image.decode_png
    assert tf.io.encode_jpeg is tf.image.encode_jpeg and tf.io.write_file is tf.write_file


# -- tf.sets ---------------------------------------------------------------------------------------------


def test_sets_of_different_groups_fail_at_run_time_naming_both_shapes() -> None:
    with tf.Graph().as_default():
        a = tf.placeholder(tf.int32, [None, 2])
        r = tf.sets.union(a, tf.constant([[1, 2]]))
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[2\] vs \[1\]"):
            _run(r, {a: [[1, 2], [3, 4]]})


def test_sets_reject_float_and_mixed_dtypes_when_built() -> None:
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match="float32 are not supported"):
            tf.sets.intersection(tf.zeros([2, 2]), tf.zeros([2, 2]))
        with pytest.raises(TypeError, match="int32 vs int64"):
            tf.sets.union(tf.zeros([2, 2], tf.int32), tf.zeros([2, 2], tf.int64))
        with pytest.raises(ValueError, match="rank >= 2"):
            tf.sets.union(tf.constant([1, 2]), tf.constant([1, 2]))


def test_set_result_feeds_a_device_op_per_result_size() -> None:
    with tf.Graph().as_default():
        a = tf.placeholder(tf.int64, [None, 3])
        r = tf.sets.difference(a, tf.constant([[1, 2, 3]], tf.int64))
        total = tf.reduce_sum(r.values)
        with tf.Session() as sess:
            assert sess.run(total, {a: [[1, 5, 9]]}) == 14
            assert sess.run(total, {a: [[7, 5, 3]]}) == 12
            assert sess.run(total, {a: [[1, 2, 3]]}) == 0


# -- sparse extras -----------------------------------------------------------------------------------------


def test_fill_empty_rows_of_a_fed_sparse_tensor_compiles_per_result_size() -> None:
    with tf.Graph().as_default():
        sp = tf.sparse_placeholder(tf.float32, shape=[3, 2])
        filled, empty = tf.sparse.fill_empty_rows(sp, 7.0)
        dense = tf.sparse.to_dense(filled)
        with tf.Session() as sess:
            d1, e1 = sess.run([dense, empty], {sp: tf.SparseTensorValue([[1, 1]], [2.0], [3, 2])})
            d2, e2 = sess.run([dense, empty], {sp: tf.SparseTensorValue([[0, 1], [1, 0], [2, 1]], [1.0, 2.0, 3.0],
                                                                       [3, 2])})
    np.testing.assert_array_equal(d1, [[7, 0], [0, 2], [7, 0]])
    np.testing.assert_array_equal(e1, [True, False, True])
    np.testing.assert_array_equal(d2, [[0, 1], [2, 0], [0, 3]])
    assert not e2.any()


def test_sparse_split_errors() -> None:
    with tf.Graph().as_default():
        sp = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
        with pytest.raises(ValueError, match="Keyword arguments are required"):
            tf.sparse_split(sp, 2, 1)
        with pytest.raises(ValueError, match="axis is required"):
            tf.sparse.split(sp_input=sp, num_split=2)
        with pytest.raises(tf.errors.InvalidArgumentError, match="num_split should be between 1 and 2 but got: 3"):
            _run(tf.sparse.split(sp_input=sp, num_split=3, axis=1))


def test_sparse_maximum_of_different_dense_shapes_fails_at_run_time() -> None:
    with tf.Graph().as_default():
        a = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
        b = tf.SparseTensor([[0, 0]], [3.0], [2, 3])
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[2, 2\] vs \[2, 3\]"):
            _run(tf.sparse.maximum(a, b))
        with pytest.raises(TypeError, match="float32 vs int32"):
            tf.sparse.minimum(a, tf.SparseTensor([[0, 0]], [1], [2, 2]))


def test_ctc_greedy_decoder_blank_index_and_bad_lengths() -> None:
    logits = np.log(np.array([[[0.7, 0.2, 0.1]], [[0.1, 0.8, 0.1]], [[0.6, 0.3, 0.1]]], np.float32))
    with tf.Graph().as_default():
        (dec,), _ = tf.nn.ctc_greedy_decoder(logits, [3], blank_index=0)
        assert _run(dec).values.tolist() == [1]
        (dec,), _ = tf.nn.ctc_greedy_decoder(logits, [3])
        assert _run(dec).values.tolist() == [0, 1, 0]
        with pytest.raises(tf.errors.InvalidArgumentError, match="sequence_length"):
            _run(tf.nn.ctc_greedy_decoder(logits, [5])[1])
        with pytest.raises(TypeError, match="float32 or float64"):
            tf.nn.ctc_greedy_decoder(np.zeros((2, 1, 3), np.int32), [2])


def test_edit_distance_requires_sparse_tensors() -> None:
    with tf.Graph().as_default():
        sp = tf.SparseTensor([[0, 0]], [1], [1, 1])
        with pytest.raises(TypeError, match="Hypothesis must be a SparseTensor"):
            tf.edit_distance(tf.constant([[1]]), sp)
        with pytest.raises(TypeError, match="Truth must be a SparseTensor"):
            tf.edit_distance(sp, tf.constant([[1]]))


def test_sixteen_bit_color_png_is_refused_rather_than_truncated() -> None:
    # a 16-bit RGB PNG (what Pillow would read at 8 bits): IHDR bit depth 16, color type 2
    raw = b"".join(b"\x00" + b"\x01\x02" * 3 for _ in range(1))
    ihdr = struct.pack(">IIBBBBB", 1, 1, 16, 2, 0, 0, 0)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    with tf.Graph().as_default():
        with pytest.raises(tf.errors.UnimplementedError, match="16-bit PNGs"):
            _run(tf.image.decode_png(data, dtype=tf.uint16))


def test_host_ops_with_numeric_inputs_say_so_in_an_eager_session() -> None:
    with tf.EagerSession():
        with pytest.raises(NotImplementedError, match="encode_png runs on the host"):
            tf.image.encode_png(np.zeros((2, 2, 3), np.uint8))
        with pytest.raises(NotImplementedError, match="set_union runs on the host"):
            tf.sets.union(np.zeros((2, 2), np.int32), np.zeros((2, 2), np.int32))
        with pytest.raises(NotImplementedError, match="ctc_greedy_decoder runs on the host"):
            tf.nn.ctc_greedy_decoder(np.zeros((2, 1, 3), np.float32), [2])


def test_ctc_beam_search_decoder_argument_errors() -> None:
    logits = np.zeros((2, 1, 3), np.float32)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"top_paths \(3\) <= beam_width \(2\)"):
            tf.nn.ctc_beam_search_decoder(logits, [2], beam_width=2, top_paths=3)
        decoded, _ = tf.nn.ctc_beam_search_decoder(logits, [0], beam_width=4, top_paths=2)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Less leaves in the beam search than requested"):
            _run(decoded[1])


def test_ctc_beam_search_prefers_the_summed_path_over_the_best_frame_path() -> None:
    # best path (greedy): blank, blank -> ""; but "a" (via a-, -a, aa) is more probable in sum
    p = np.array([[[0.4, 0.6]], [[0.4, 0.6]]], np.float32)
    with tf.Graph().as_default():
        (beam,), lp = tf.nn.ctc_beam_search_decoder(np.log(p), [2], beam_width=2)
        (greedy,), _ = tf.nn.ctc_greedy_decoder(np.log(p), [2])
        b, g, score = _run([beam, greedy, lp])
    assert b.values.tolist() == [0] and g.values.tolist() == []
    np.testing.assert_allclose(score, [[np.log(0.4 * 0.6 * 2 + 0.4 * 0.4)]], rtol=1e-5)


def test_image_and_sparse_host_ops_round_trip_through_graph_def() -> None:
    # their nodes are TF's (checked by hand with TF 2.21 both ways); here: jaxsess -> GraphDef -> jaxsess
    img = np.arange(24, dtype=np.uint8).reshape(2, 4, 3)
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.uint8, [None, None, 3], name="img")
        dec = tf.image.decode_png(tf.image.encode_png(x), channels=1, dtype=tf.uint16, name="dec")
        sp = tf.SparseTensor([[0, 1], [2, 0]], tf.constant([1.0, 2.0]), [3, 2])
        filled, _ = tf.sparse.fill_empty_rows(sp, 5.0)
        dist = tf.edit_distance(sp, tf.SparseTensor([[0, 0]], tf.constant([1.0]), [3, 1]), name="dist")
        want = _run([dec, filled.values, dist], {x: img})
        graph_def = g.as_graph_def()
    with tf.Graph().as_default() as g2:
        tf.import_graph_def(graph_def, name="")
        got = _run([g2.get_tensor_by_name("dec:0"), g2.get_tensor_by_name(filled.values.name),
                    g2.get_tensor_by_name("dist:0")], {g2.get_tensor_by_name("img:0"): img})
    for w, v in zip(want, got):
        np.testing.assert_array_equal(w, v)
        assert w.dtype == v.dtype


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
