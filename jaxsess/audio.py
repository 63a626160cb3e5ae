"""``jaxsess.audio``: WAV files, as ``tf.audio`` (see :mod:`jaxsess._tf1.ops.audio_ops`)."""

from jaxsess._tf1.ops.audio_ops import decode_wav as decode_wav, encode_wav as encode_wav

__all__ = ["decode_wav", "encode_wav"]
