"""tf.audio in a speech-commands style pipeline: encode_wav, write/read the file, decode_wav with desired
channels and samples, a spectrogram of it, and summary.audio protos."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

tmp = tempfile.mkdtemp()
path = os.path.join(tmp, "tone.wav")
t = np.arange(400, dtype=np.float32) / 8000.0
tone = np.stack([0.5 * np.sin(2 * np.pi * 440 * t), 1.2 * np.cos(2 * np.pi * 220 * t)], axis=1).astype(np.float32)
wav = tf.audio.encode_wav(tf.constant(tone), 8000)
write = tf.io.write_file(path, wav)
contents = tf.io.read_file(path)
audio, rate = tf.audio.decode_wav(contents)
mono, _ = tf.audio.decode_wav(contents, desired_channels=1, desired_samples=300)
tri, _ = tf.audio.decode_wav(contents, desired_channels=3, desired_samples=500)
RESULTS["static"] = [audio.shape.as_list(), mono.shape.as_list(), tri.shape.as_list(), rate.dtype.name,
                     audio.dtype.name]
spec = tf.abs(tf.signal.stft(tf.transpose(mono), frame_length=64, frame_step=32))
clips = tf.placeholder(tf.float32, [None, 100])
summ = tf.summary.audio("clips", clips, 8000, max_outputs=2)
summ1 = tf.summary.audio("one", tf.reshape(tf.constant(tone[:50]), [1, 50, 2]), 16000.0, max_outputs=1)
with tf.Session() as sess:
    wav_bytes = sess.run(wav)
    RESULTS["wav_len"] = len(wav_bytes)
    RESULTS["wav_header"] = wav_bytes[:44]
    RESULTS["wav_head_samples"] = np.frombuffer(wav_bytes[44:64], "<i2")
    sess.run(write)
    RESULTS["decoded"] = sess.run([audio, rate])
    RESULTS["mono_tri"] = sess.run([mono, tri])
    RESULTS["spec"] = sess.run(spec)
    raw = sess.run(summ, {clips: np.linspace(-1.5, 1.5, 300, dtype=np.float32).reshape(3, 100)})
    s = tf.Summary()
    s.ParseFromString(raw)
    RESULTS["summary"] = [(v.tag, v.audio.sample_rate, v.audio.num_channels, v.audio.length_frames,
                           v.audio.content_type, v.audio.encoded_audio_string) for v in s.value]
    s1 = tf.Summary()
    s1.ParseFromString(sess.run(summ1))
    RESULTS["summary1"] = [(v.tag, v.audio.sample_rate, v.audio.num_channels, v.audio.length_frames)
                           for v in s1.value]
