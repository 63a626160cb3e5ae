"""``tf.estimator.inputs.numpy_input_fn``: an ``input_fn`` over NumPy arrays, as
``tensorflow_estimator/python/estimator/inputs/numpy_io.py``, built on jaxsess's
host-side ``tf.data`` (no queue runners: the batches are the same)."""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxsess._tf1.data._dataset import Dataset

__all__ = ["numpy_input_fn"]

_TARGET_KEY = "__target_key__"


def _validate_and_convert_features(x: Any) -> collections.OrderedDict[str, np.ndarray]:
    if isinstance(x, dict):
        if not x:
            raise ValueError("x cannot be an empty dict")
        return collections.OrderedDict(sorted(x.items(), key=lambda t: t[0]))
    if isinstance(x, np.ndarray):
        if x.size == 0:
            raise ValueError("x cannot be an empty array")
        return collections.OrderedDict({"__direct_np_input__": x})
    raise TypeError(f"x must be a dict or array; got {type(x)}")


def numpy_input_fn(x: Any, y: Any = None, batch_size: int = 128, num_epochs: int | None = 1,
                   shuffle: bool | None = None, queue_capacity: int = 1000,
                   num_threads: int = 1) -> Callable[[], Any]:
    """An ``input_fn`` giving ``(features, labels)`` batches of NumPy data, as
    ``tf.compat.v1.estimator.inputs.numpy_input_fn``.

    Args:
      x: a NumPy array (features is then one ``Tensor``) or a dict of arrays
        (features is a dict); all of the same length ``n`` (first dimension).
      y: ``None``, an array or a dict of arrays of length ``n`` (the labels).
      batch_size: rows per batch; the last batch of the last epoch may be smaller
        (the batch dimension is ``None``).
      num_epochs: passes over the data; ``None`` repeats forever.
      shuffle: required: whether to shuffle (with a buffer of ``queue_capacity``).
      queue_capacity, num_threads: kept for TF's signature (no queues here).

    Returns:
      ``input_fn()`` returning ``features`` (or ``(features, labels)`` with
      ``y``); each call builds its tensors in the default graph; dtypes are the
      arrays' (``float64`` stays ``float64``).

    Raises:
      ValueError: ``shuffle`` not a bool, lengths that differ, ``num_epochs`` or
        ``batch_size`` not positive, a key of ``y`` also in ``x``.
      TypeError: ``x`` or ``y`` neither an array nor a dict.
    """
    if not isinstance(shuffle, bool):
        raise ValueError(f"shuffle must be provided and explicitly set as boolean (it is recommended to set it as "
                         f"True for training); got {shuffle}")

    def input_fn() -> Any:
        data = _validate_and_convert_features(x)
        feature_keys = list(data.keys())
        target_keys: list[str] | str | None
        if y is None:
            target_keys = None
        elif isinstance(y, dict):
            if not y:
                raise ValueError("y cannot be empty dict, use None instead.")
            ordered_y = collections.OrderedDict(sorted(y.items(), key=lambda t: t[0]))
            target_keys = list(ordered_y.keys())
            duplicate = set(feature_keys) & set(target_keys)
            if duplicate:
                raise ValueError(f"{len(duplicate)} duplicate keys are found in both x and y: {duplicate}")
            data.update(ordered_y)
        else:
            target_keys = _TARGET_KEY
            while target_keys in data:
                target_keys = "_" + target_keys
            data[target_keys] = y
        if len({np.shape(v)[0] for v in data.values()}) != 1:
            shapes_x = {k: np.shape(data[k]) for k in feature_keys}
            if target_keys is None:
                shape_y: Any = None
            elif isinstance(target_keys, str):
                shape_y = np.shape(y)
            else:
                shape_y = {k: np.shape(data[k]) for k in target_keys}
            raise ValueError("Length of tensors in x and y is mismatched. All elements in x and y must have the "
                             f"same length.\nShapes in x: {shapes_x}\nShapes in y: {shape_y}\n")
        if num_epochs is not None and num_epochs <= 0:
            raise ValueError(f"num_epochs must be > 0 or None; got {num_epochs}")
        if batch_size <= 0:
            raise ValueError(f"batch_size must be > 0; got {batch_size}")
        ds = Dataset.from_tensor_slices(dict(data))
        if shuffle:
            ds = ds.shuffle(queue_capacity)
        # TF dequeues ``batch_size`` rows (``dequeue_many``: a static batch
        # dimension) when the data repeats forever, else up to ``batch_size``.
        ds = ds.repeat(num_epochs).batch(batch_size, drop_remainder=num_epochs is None)
        batch = ds.make_one_shot_iterator().get_next()
        features = batch["__direct_np_input__"] if isinstance(x, np.ndarray) else {k: batch[k] for k in feature_keys}
        if target_keys is None:
            return features
        if isinstance(target_keys, str):
            return features, batch[target_keys]
        return features, {k: batch[k] for k in target_keys}

    return input_fn
