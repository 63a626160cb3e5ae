"""``jaxsess.keras.preprocessing``: NumPy/PIL helpers for images, text and sequences, as
``tf.keras.preprocessing`` (no graph ops)."""

from jaxsess.keras.preprocessing import image as image, sequence as sequence, text as text

__all__ = ["image", "sequence", "text"]
