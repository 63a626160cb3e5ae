"""Keras models that TF Keras saved in the SavedModel format (``model.save("dir")``), read without TF.

Such a directory is a TF2 SavedModel plus ``keras_metadata.pb`` (tf_keras'
``SavedMetadata`` proto: one ``SavedObject`` per Keras object, its
``metadata`` the JSON of the object's class and config, the model's under
node path ``root``). The model is rebuilt from that config, as
``tf.keras.models.load_model`` does when the classes are known, and each
layer's weights come from the object-based checkpoint ``variables/variables``:
the model's ``layer_with_weights-i`` child is its *i*-th layer that has
weights, whose children name the weights (``kernel``, ``bias``,
``moving_mean``...), each with its ``VARIABLE_VALUE`` key.
"""

from __future__ import annotations

import json
import os
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from tensorboard.compat.proto import trackable_object_graph_pb2

from jaxsess._tf1.train._checkpoint import BundleReader, is_bundle

__all__ = ["KERAS_METADATA", "is_keras_saved_model", "read_keras_metadata", "restore_weights"]

#: The file tf_keras writes next to ``saved_model.pb``.
KERAS_METADATA = "keras_metadata.pb"


def _declare() -> Any:
    """tf_keras' ``SavedMetadata`` (``tf_keras/protobuf/saved_metadata.proto``), field for field."""
    f = descriptor_pb2.FieldDescriptorProto
    fd = descriptor_pb2.FileDescriptorProto(name="jaxsess/keras_saved_metadata.proto",
                                            package="jaxsess.third_party.tensorflow.python.keras.protobuf",
                                            syntax="proto3")
    obj = fd.message_type.add(name="SavedObject")
    obj.field.add(name="node_id", number=2, label=f.LABEL_OPTIONAL, type=f.TYPE_INT32)
    obj.field.add(name="node_path", number=3, label=f.LABEL_OPTIONAL, type=f.TYPE_STRING)
    obj.field.add(name="identifier", number=4, label=f.LABEL_OPTIONAL, type=f.TYPE_STRING)
    obj.field.add(name="metadata", number=5, label=f.LABEL_OPTIONAL, type=f.TYPE_STRING)
    meta = fd.message_type.add(name="SavedMetadata")
    meta.field.add(name="nodes", number=1, label=f.LABEL_REPEATED, type=f.TYPE_MESSAGE,
                   type_name=f".{fd.package}.SavedObject")
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(fd.name)
    except KeyError:
        pool.AddSerializedFile(fd.SerializeToString())
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{fd.package}.SavedMetadata"))


SavedMetadata = _declare()


def is_keras_saved_model(path: str) -> bool:
    """Whether ``path`` is a directory TF Keras saved a model to (``keras_metadata.pb`` + ``saved_model.pb``)."""
    return os.path.isfile(os.path.join(path, KERAS_METADATA)) and os.path.isfile(os.path.join(path, "saved_model.pb"))


def _untuple(value: Any) -> Any:
    """tf_keras' metadata JSON writes tuples as ``{"class_name": "__tuple__", "items": [...]}``."""
    if isinstance(value, dict):
        if value.get("class_name") == "__tuple__" and set(value) == {"class_name", "items"}:
            return [_untuple(v) for v in value["items"]]
        return {k: _untuple(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_untuple(v) for v in value]
    return value


def read_keras_metadata(path: str) -> dict[str, Any]:
    """The JSON metadata of the saved model (node path ``root``): ``class_name``, ``config``,
    ``training_config``...

    Raises:
      ValueError: no root object, or one without a config (a subclassed model: its Python code is
        not in the file).
    """
    meta = SavedMetadata.FromString(open(os.path.join(path, KERAS_METADATA), "rb").read())
    for node in meta.nodes:
        if node.node_path == "root":
            data: dict[str, Any] = _untuple(json.loads(node.metadata))
            if not isinstance(data.get("config"), dict) or "layers" not in data["config"]:
                raise ValueError(f"{path}: the saved Keras model '{data.get('class_name')}' has no layer config "
                                 "(a subclassed model); jaxsess rebuilds Sequential and functional models only")
            return data
    raise ValueError(f"{path}/{KERAS_METADATA} has no root object")


def restore_weights(path: str, model: Any) -> None:
    """Sets the weights of ``model``'s layers from the SavedModel's checkpoint (see the module).

    Raises:
      ValueError: a layer or weight the checkpoint lacks, or one of another shape (names it).
    """
    prefix = os.path.join(path, "variables", "variables")
    if not is_bundle(prefix):
        raise ValueError(f"{path}: no checkpoint at {prefix}")
    reader = BundleReader(prefix)
    graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(
        reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH").item())

    def child(node_id: int, name: str) -> int | None:
        return next((c.node_id for c in graph.nodes[node_id].children if c.local_name == name), None)

    layers = [layer for layer in model.layers if layer.weights]
    for i, layer in enumerate(layers):
        node = child(0, f"layer_with_weights-{i}")
        if node is None:
            raise ValueError(f"{path}: the checkpoint has no 'layer_with_weights-{i}' for layer '{layer.name}'")
        values = []
        for w in layer.weights:
            short = w.name.split("/")[-1].split(":")[0]
            wid = child(node, short)
            key = None if wid is None else next(
                (a.checkpoint_key for a in graph.nodes[wid].attributes if a.name == "VARIABLE_VALUE"), None)
            if key is None:
                raise ValueError(f"{path}: the checkpoint has no '{short}' for layer '{layer.name}' "
                                 f"(layer_with_weights-{i})")
            value = reader.get_tensor(key)
            if tuple(value.shape) != tuple(w.shape):
                raise ValueError(f"layer '{layer.name}' weight '{short}': the checkpoint's shape {value.shape}, "
                                 f"the model's {tuple(w.shape)}")
            values.append(value)
        layer.set_weights(values)
