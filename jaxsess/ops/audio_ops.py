"""WAV audio, as ``tf.audio``: ``decode_wav``/``encode_wav`` (16-bit PCM RIFF files), host ops.

Re-exports :mod:`jaxsess._tf1.ops.audio_ops`.
"""

from jaxsess._tf1.ops.audio_ops import *  # noqa: F403
