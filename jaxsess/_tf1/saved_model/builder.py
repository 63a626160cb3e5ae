"""Writing SavedModels, as ``tf.compat.v1.saved_model.builder`` and ``simple_save``.

A SavedModel directory holds ``saved_model.pb`` (TF's ``SavedModel`` proto:
one ``MetaGraphDef`` per tag set, each with its ``SignatureDef`` map and the
init/train op collections) and ``variables/variables.{index,data-00000-of-00001}``
(a TF V2 checkpoint, written by :class:`jaxsess.train.Saver`). The meta
graphs carry no ``SaverDef`` (jaxsess graphs hold no save/restore nodes);
TF's loader then builds its own saver, so real TF loads these directories.
Assets (``assets_collection``) are not written.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from google.protobuf import text_format

from jaxsess._core import _tfproto as _tfproto
from jaxsess._core.graph._graph import Graph, Operation, Tensor, get_default_graph
from jaxsess._tf1.saved_model import (
    constants,
    signature_constants,
    signature_def_utils as signature_def_utils,
)
from jaxsess._tf1.train._meta_graph import export_meta_graph
from jaxsess._tf1.train._saver import Saver

__all__ = ["SavedModelBuilder", "simple_save"]


def _add_op(graph: Graph, key: str, op: Any, what: str) -> None:
    """Puts ``op`` in the graph's collection ``key`` (as TF's builder: later meta graphs of
    the same graph carry it too)."""
    if not isinstance(op, Operation):
        raise TypeError(f"{what} needs to be an Operation: {op!r}")
    if op not in graph.get_collection(key):
        graph.add_to_collection(key, op)


class SavedModelBuilder:
    """Builds a SavedModel directory, as ``tf.compat.v1.saved_model.builder.SavedModelBuilder``.

    Args:
      export_dir: the directory to write (created; must not exist or be empty).

    Raises:
      AssertionError: ``export_dir`` exists and is not empty (TF's message).
    """

    def __init__(self, export_dir: str) -> None:
        export_dir = os.fspath(export_dir)
        if os.path.exists(export_dir):
            if os.listdir(export_dir):
                raise AssertionError(
                    f"Export directory {export_dir} already exists, and isn't empty. Please choose a different "
                    "export directory, or delete all the contents of the specified directory.")
        else:
            os.makedirs(export_dir)
        self._export_dir = export_dir
        self._saved_model = _tfproto.SavedModel(saved_model_schema_version=constants.SAVED_MODEL_SCHEMA_VERSION)
        self._has_saved_variables = False
        self._tag_sets: list[frozenset[str]] = []

    def _meta_graph(self, graph: Graph, tags: Sequence[str], signature_def_map: Mapping[str, Any] | None,
                    init_op: Any, train_op: Any, legacy: bool, clear_devices: bool) -> Any:
        if isinstance(tags, str):
            tags = [tags]
        key = frozenset(tags)
        if key in self._tag_sets:
            raise AssertionError(f"Tag set {sorted(key)} has already been used with the same SavedModelBuilder.")
        for name, sig in (signature_def_map or {}).items():
            if not isinstance(sig, type(_tfproto.SignatureDef())):
                raise TypeError(f"signature_def_map[{name!r}] is not a SignatureDef ({type(sig).__name__}).")
            for info in list(sig.inputs.values()) + list(sig.outputs.values()):
                try:
                    graph.get_tensor_by_name(info.name)
                except (KeyError, ValueError):
                    raise ValueError(f"Signature {name!r} names tensor {info.name!r}, which is not in the graph.") \
                        from None
        if init_op is not None:
            if legacy:
                _add_op(graph, constants.LEGACY_INIT_OP_KEY, init_op, "legacy_init_op")
            else:
                _add_op(graph, constants.MAIN_OP_KEY, init_op, "main_op")
        if train_op is not None:
            _add_op(graph, constants.TRAIN_OP_KEY, train_op, "train_op")
        meta = export_meta_graph(graph=graph, clear_devices=clear_devices)
        meta.meta_info_def.tags.extend(tags)
        for name, sig in (signature_def_map or {}).items():
            meta.signature_def[name].CopyFrom(sig)
        self._tag_sets.append(key)
        return meta

    def add_meta_graph_and_variables(
        self, sess: Any, tags: Sequence[str], signature_def_map: Mapping[str, Any] | None = None,
        assets_collection: Any = None, legacy_init_op: Any = None, clear_devices: bool = False,
        main_op: Any = None, strip_default_attrs: bool = False, saver: Any = None, train_op: Any = None,
    ) -> None:
        """Saves the session's variables and the meta graph of its graph under ``tags``.

        Args:
          sess: the :class:`~jaxsess.Session` holding the variables' values.
          tags: the meta graph's tags (``[tag_constants.SERVING]``).
          signature_def_map: ``{key: SignatureDef}``.
          legacy_init_op, main_op: an ``Operation`` the loader runs after
            restoring (one of them; kept in the graph's collection, so later
            meta graphs of the graph run it too, as TF's).
          train_op: recorded in the ``saved_model_train_op`` collection.
          clear_devices: drop the nodes' device fields.
          saver: a :class:`~jaxsess.train.Saver` to write the variables with.
          assets_collection, strip_default_attrs: accepted (assets are not written).

        Raises:
          AssertionError: called twice, or a tag set used before (TF's messages).
          TypeError: an init or train op that is not an ``Operation``.
          ValueError: a signature names a tensor that is not in the graph.
          FailedPreconditionError: a variable is not initialized in ``sess``.
        """
        if self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has already been saved. "
                                 "Please invoke `add_meta_graph()` instead.")
        init_op = main_op if main_op is not None else legacy_init_op
        meta = self._meta_graph(sess.graph, tags, signature_def_map, init_op, train_op,
                                main_op is None and legacy_init_op is not None, clear_devices)
        var_dir = os.path.join(self._export_dir, constants.VARIABLES_DIRECTORY)
        os.makedirs(var_dir, exist_ok=True)
        with sess.graph.as_default():
            saver = saver or Saver(allow_empty=True)
        saver.save(sess, os.path.join(var_dir, constants.VARIABLES_FILENAME), write_meta_graph=False,
                   write_state=False)
        self._saved_model.meta_graphs.add().CopyFrom(meta)
        self._has_saved_variables = True

    def add_meta_graph(
        self, tags: Sequence[str], signature_def_map: Mapping[str, Any] | None = None,
        assets_collection: Any = None, legacy_init_op: Any = None, clear_devices: bool = False,
        main_op: Any = None, strip_default_attrs: bool = False, saver: Any = None, train_op: Any = None,
    ) -> None:
        """Adds the default graph's meta graph under ``tags`` (the variables saved by
        :meth:`add_meta_graph_and_variables` are shared).

        Raises:
          AssertionError: the variables are not saved yet, or a tag set used before.
        """
        if not self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has not been saved yet. "
                                 "Please invoke `add_meta_graph_and_variables()` first.")
        init_op = main_op if main_op is not None else legacy_init_op
        meta = self._meta_graph(get_default_graph(), tags, signature_def_map, init_op, train_op,
                                main_op is None and legacy_init_op is not None, clear_devices)
        self._saved_model.meta_graphs.add().CopyFrom(meta)

    def save(self, as_text: bool = False) -> bytes:
        """Writes ``saved_model.pb`` (or ``saved_model.pbtxt`` with ``as_text``); returns its
        path as ``bytes``, as TF's."""
        if as_text:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
            data = text_format.MessageToString(self._saved_model).encode("utf-8")
        else:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PB)
            data = self._saved_model.SerializeToString()
        with open(path, "wb") as f:
            f.write(data)
        return os.fsencode(path)


def simple_save(session: Any, export_dir: str, inputs: Mapping[str, Tensor], outputs: Mapping[str, Tensor],
                legacy_init_op: Any = None) -> None:
    """Saves a serving SavedModel in one call, as ``tf.compat.v1.saved_model.simple_save``:
    tag ``serve``, one predict signature ``serving_default`` of ``inputs`` and ``outputs``.

    Raises:
      AssertionError: ``export_dir`` exists and is not empty.
      ValueError: empty ``inputs`` or ``outputs``.
    """
    signature_def_map = {
        signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY:
            signature_def_utils.predict_signature_def(inputs, outputs),
    }
    b = SavedModelBuilder(export_dir)
    b.add_meta_graph_and_variables(session, tags=["serve"], signature_def_map=signature_def_map,
                                   main_op=legacy_init_op, clear_devices=True)
    b.save()
