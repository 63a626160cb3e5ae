"""``tf.signal``: DCTs, framing and overlap-add, STFT inverses, mel matrices, windows and
``fftshift``: errors and edge cases. Values are compared with TF 2.21 by the corpus programs
``v57_*``; expected numbers here were read from TF."""

from __future__ import annotations

import numpy as np
import pytest

import jaxsess as tf


def _run(fetches: object, feed: dict | None = None) -> object:
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict=feed)



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
