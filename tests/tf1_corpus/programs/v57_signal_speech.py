"""Speech features as in the TF1 speech tutorials: log-mel spectrograms and MFCCs, DCTs,
and reconstruction with inverse_stft / overlap_and_add / MDCT."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 2e-4, "atol": 2e-4}

rng = np.random.RandomState(0)
audio = rng.uniform(-1.0, 1.0, size=(2, 400)).astype(np.float32)

signals = tf.placeholder(tf.float32, [None, 400])
stfts = tf.signal.stft(signals, frame_length=64, frame_step=32, fft_length=64)
spectrograms = tf.abs(stfts)
num_spectrogram_bins = stfts.shape[-1]
mel_matrix = tf.signal.linear_to_mel_weight_matrix(
    num_mel_bins=10, num_spectrogram_bins=num_spectrogram_bins, sample_rate=8000,
    lower_edge_hertz=80.0, upper_edge_hertz=3800.0)
mel_spectrograms = tf.tensordot(spectrograms, mel_matrix, 1)
mel_spectrograms.set_shape(spectrograms.shape[:-1].concatenate(mel_matrix.shape[-1:]))
log_mel = tf.log(mel_spectrograms + 1e-6)
mfccs = tf.signal.mfccs_from_log_mel_spectrograms(log_mel)[..., :6]

x = tf.constant(rng.randn(3, 8).astype(np.float32))
dcts = {f"dct{t}": tf.signal.dct(x, type=t) for t in (1, 2, 3, 4)}
dcts["dct2_ortho"] = tf.signal.dct(x, type=2, norm="ortho")
dcts["idct2_ortho"] = tf.signal.idct(tf.signal.dct(x, type=2, norm="ortho"), type=2, norm="ortho")
dcts["dct2_n5"] = tf.spectral.dct(x, n=5)
dcts["dct3_n10"] = tf.signal.dct(x, type=3, n=10)

frames = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
ola = tf.signal.overlap_and_add(frames, 3)
ola_fast = tf.signal.overlap_and_add(frames, 4)

recon = tf.signal.inverse_stft(stfts, 64, 32, fft_length=64,
                               window_fn=tf.signal.inverse_stft_window_fn(32))
recon_plain = tf.signal.inverse_stft(stfts, 64, 32)
mdcts = tf.signal.mdct(signals, 16)
imdct = tf.signal.inverse_mdct(mdcts)

shifted = tf.signal.fftshift(tf.constant(np.arange(10).reshape(2, 5)))
ishifted = tf.signal.ifftshift(tf.constant(np.arange(10).reshape(2, 5)), axes=1)
windows = {
    "kaiser": tf.signal.kaiser_window(7, beta=5.0),
    "kaiser1": tf.signal.kaiser_window(1),
    "kbd": tf.signal.kaiser_bessel_derived_window(8),
    "vorbis": tf.signal.vorbis_window(6, dtype=tf.float64),
}

with tf.Session() as sess:
    out = sess.run({"mel_matrix": mel_matrix, "log_mel": log_mel, "mfccs": mfccs, "recon": recon,
                    "recon_plain": recon_plain, "mdcts": mdcts, "imdct": imdct},
                   feed_dict={signals: audio})
    RESULTS.update(out)
    RESULTS.update(sess.run(dcts))
    RESULTS["ola"], RESULTS["ola_fast"] = sess.run([ola, ola_fast])
    RESULTS["shifted"], RESULTS["ishifted"] = sess.run([shifted, ishifted])
    RESULTS.update(sess.run(windows))

RESULTS["shapes"] = {k: v.shape.as_list() for k, v in
                     {"mel_matrix": mel_matrix, "mfccs": mfccs, "recon": recon, "mdcts": mdcts, "imdct": imdct,
                      "ola": ola, "dct3_n10": dcts["dct3_n10"]}.items()}
RESULTS["dtypes"] = [mel_matrix.dtype.name, mfccs.dtype.name, recon.dtype.name, windows["vorbis"].dtype.name]
try:
    tf.signal.linear_to_mel_weight_matrix(upper_edge_hertz=5000.0)
except ValueError as e:
    RESULTS["mel_error"] = type(e).__name__
try:
    tf.signal.dct(x, type=1, norm="ortho")
except ValueError as e:
    RESULTS["dct_error"] = str(e)
try:
    tf.signal.mdct(signals, 10)
except ValueError as e:
    RESULTS["mdct_error"] = str(e)
