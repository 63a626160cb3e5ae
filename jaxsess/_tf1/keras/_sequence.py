"""``Sequence``, the base of Keras' batch datasets (``tf.keras.utils.Sequence``): its own module so
that ``keras.utils`` and ``keras.preprocessing`` (whose iterators subclass it) import it without a cycle."""

from __future__ import annotations

from typing import Any

__all__ = ["Sequence"]


class Sequence:
    """A dataset of batches for ``fit``/``evaluate``/``predict``, as ``tf.keras.utils.Sequence``:
    subclasses define ``__len__`` (the number of batches) and ``__getitem__(index)`` (one batch,
    ``(x, y)`` or ``(x, y, sample_weight)``); ``on_epoch_end`` is called after each epoch of ``fit``."""

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError

    def on_epoch_end(self) -> None:
        """Called at the end of every epoch (shuffle the data here)."""

    def __iter__(self) -> Any:
        for i in range(len(self)):
            yield self[i]
