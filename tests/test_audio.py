"""tf.audio and summary.audio: the errors (values against TF in the corpus program v66_audio_wav)."""

from __future__ import annotations

import struct

import jaxsess.compat.v1 as tf
import numpy as np
import pytest


def test_decode_wav_refuses_what_is_not_16_bit_pcm():
    g = tf.Graph()
    with g.as_default():
        data = tf.placeholder(tf.string, [])
        audio, _ = tf.audio.decode_wav(data)
        eight_bit = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 38, b"WAVE", b"fmt ", 16, 1, 1, 8000, 8000, 1, 8,
                                b"data", 2) + b"\x01\x02"
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="RIFF"):
                sess.run(audio, {data: b"not a wav file"})
            with pytest.raises(tf.errors.InvalidArgumentError, match="16-bit"):
                sess.run(audio, {data: eight_bit})


def test_encode_wav_round_trips_and_checks_its_input():
    g = tf.Graph()
    with g.as_default():
        with pytest.raises(TypeError, match="float32"):
            tf.audio.encode_wav(tf.constant([[1]]), 8000)
        x = tf.placeholder(tf.float32, None)
        back, rate = tf.audio.decode_wav(tf.audio.encode_wav(x, 16000))
        with tf.Session() as sess:
            samples = np.array([[0.0], [0.25], [-0.5], [2.0]], np.float32)
            out, r = sess.run([back, rate], {x: samples})
            assert r == 16000 and out.tolist() == [[0.0], [0.25], [-0.5], [32767 / 32768]]
            with pytest.raises(tf.errors.InvalidArgumentError, match="2-dimensional"):
                sess.run(back, {x: np.zeros(3, np.float32)})


def test_summary_audio_takes_a_sample_rate_known_when_built():
    g = tf.Graph()
    with g.as_default():
        with pytest.raises(TypeError, match="sample_rate"):
            tf.summary.audio("a", tf.zeros([1, 10]), tf.placeholder(tf.float32, []))
