"""Layer weights in Keras' HDF5 layout (``h5py``), as Keras 2's ``hdf5_format``
(``save_weights_to_hdf5_group`` / ``load_weights_from_hdf5_group``): the group's
attributes ``layer_names``, ``backend``, ``keras_version``; one group per layer
with the attribute ``weight_names`` and one dataset per weight at its name
(``dense/kernel:0``). Files written by TF's Keras load here and the other way round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import h5py
import numpy as np

from jaxsess._tf1.keras import backend as K

__all__ = ["KERAS_VERSION", "save_weights_to_group", "load_weights_from_group", "h5py"]

#: The ``keras_version`` attribute written (that of the Keras 2 jaxsess follows).
KERAS_VERSION = "2.21.0"


def _weight_name(v: Any) -> str:
    return str(v.name)


def save_weights_to_group(group: h5py.Group, layers: Sequence[Any]) -> None:
    """Writes the weights of ``layers`` (Keras layers, in model order) into ``group``."""
    group.attrs["layer_names"] = [layer.name.encode("utf8") for layer in layers]
    group.attrs["backend"] = b"tensorflow"
    group.attrs["keras_version"] = KERAS_VERSION.encode("utf8")
    for layer in layers:
        g = group.create_group(layer.name)
        weights = layer.weights
        values = K.batch_get_value(weights)
        names = [_weight_name(w) for w in weights]
        g.attrs["weight_names"] = [n.encode("utf8") for n in names]
        for name, value in zip(names, values, strict=True):
            ds = g.create_dataset(name, np.shape(value), dtype=np.asarray(value).dtype)
            ds[()] = value
    top = group.create_group("top_level_model_weights")
    top.attrs["weight_names"] = []


def _names(attr: Any) -> list[str]:
    return [n.decode("utf8") if isinstance(n, bytes) else str(n) for n in attr]


def load_weights_from_group(group: h5py.Group, layers: Sequence[Any], by_name: bool = False,
                            skip_mismatch: bool = False) -> None:
    """Assigns the weights stored in ``group`` to ``layers``: in order, layer by layer (the layers
    with weights), or by layer name (``by_name``), as Keras' ``load_weights``.

    Raises:
      ValueError: the file's and the model's numbers of layers with weights differ, a layer's
        number of weights differs, or a weight's shape differs (unless ``skip_mismatch``, by name).
    """
    stored = {}
    for name in _names(group.attrs["layer_names"]):
        g = group[name]
        stored[name] = [np.asarray(g[w]) for w in _names(g.attrs["weight_names"])]
    pairs: list[tuple[Any, Any]] = []
    if by_name:
        for layer in layers:
            values = stored.get(layer.name)
            if values is None:
                continue
            if len(values) != len(layer.weights) or any(
                    tuple(w.shape.as_list()) != v.shape for w, v in zip(layer.weights, values, strict=False)):
                if skip_mismatch:
                    continue
                raise ValueError(f"Layer #{layers.index(layer)} (named {layer.name!r}) expects {len(layer.weights)} "
                                 f"weight(s), but the saved weights have {len(values)} element(s) or other shapes.")
            pairs.extend(zip(layer.weights, values, strict=True))
    else:
        with_weights = [layer for layer in layers if layer.weights]
        saved = [name for name, values in stored.items() if values]
        if len(saved) != len(with_weights):
            raise ValueError(f"Layer count mismatch when loading weights from file. Model expected "
                             f"{len(with_weights)} layers, found {len(saved)} saved layers.")
        for layer, name in zip(with_weights, saved, strict=True):
            values = stored[name]
            if len(values) != len(layer.weights):
                raise ValueError(f"Layer {layer.name!r} expects {len(layer.weights)} weight(s), but the saved "
                                 f"weights have {len(values)} element(s).")
            for w, v in zip(layer.weights, values, strict=True):
                if tuple(w.shape.as_list()) != v.shape:
                    raise ValueError(f"Shape mismatch in layer {layer.name!r} for weight {w.name}. Weight expects "
                                     f"shape {tuple(w.shape.as_list())}. Received saved weight with shape {v.shape}")
            pairs.extend(zip(layer.weights, values, strict=True))
    K.batch_set_value(pairs)
