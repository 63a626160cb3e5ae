"""Loading SavedModels into a session, as ``tf.compat.v1.saved_model.loader``
(``tf.compat.v1.saved_model.load``).

Loading imports the meta graph of the requested tag set (its variables and
collections, see :func:`jaxsess.train.import_meta_graph`; TF's saver sub-graph
is imported too, and runs only when fetched: ``sess.run(meta.saver_def.restore_op_name,
{meta.saver_def.filename_tensor_name: prefix})`` restores, as TF's C++ loader does),
restores the variables from ``variables/variables`` with jaxsess's ``Saver`` and
runs the init op (``saved_model_main_op``, else ``legacy_init_op``, else the
``__saved_model_init_op`` signature). Works on directories written by real
TF 1 graph mode (ref or resource variables) and by :mod:`jaxsess._tf1.saved_model.builder`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from jaxsess._core import _tfproto as _tfproto
from jaxsess._core.graph._graph import GraphKeys
from jaxsess._tf1.saved_model import constants
from jaxsess._tf1.train._checkpoint import is_bundle
from jaxsess._tf1.train._meta_graph import importable_op_type
from jaxsess._tf1.train._saver import Saver, import_meta_graph

__all__ = ["load", "maybe_saved_model_directory", "read_saved_model"]


def _paths(export_dir: str | bytes) -> tuple[str, str]:
    export_dir = os.fsdecode(export_dir)  # TF takes bytes paths (``export_saved_model`` returns one)
    return (os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB),
            os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PBTXT))


def maybe_saved_model_directory(export_dir: str) -> bool:
    """Whether ``export_dir`` holds a ``saved_model.pb`` or ``saved_model.pbtxt``, as
    ``tf.compat.v1.saved_model.loader.maybe_saved_model_directory``."""
    return any(os.path.isfile(p) for p in _paths(export_dir))


def read_saved_model(export_dir: str) -> Any:
    """The ``SavedModel`` proto of ``export_dir`` (``saved_model.pb``, else ``.pbtxt``).

    Raises:
      OSError: neither file exists (TF's message).
      ValueError: the file is not a ``SavedModel`` (names it).
    """
    export_dir = os.fspath(export_dir)
    pb, pbtxt = _paths(export_dir)
    for path in (pb, pbtxt):
        if os.path.isfile(path):
            return _tfproto.read_message(path, _tfproto.SavedModel)
    raise OSError(f"SavedModel file does not exist at: {export_dir}/"
                  f"{{{constants.SAVED_MODEL_FILENAME_PBTXT}|{constants.SAVED_MODEL_FILENAME_PB}}}")


_SAVER_OPS = frozenset({"SaveV2", "RestoreV2", "MergeV2Checkpoints", "Save", "SaveSlices", "Restore", "RestoreSlice"})


def _without_savers(meta: Any, keep_importable: bool = False) -> Any:
    """``meta`` without the name scopes of TF's saver sub-graphs (``save/``, ``save_1/``...: a
    graph that held several savers keeps them all; jaxsess's ``Saver`` reads the files itself).

    With ``keep_importable``, a scope whose op types jaxsess all imports stays (its ``SaveV2``/
    ``RestoreV2`` run when fetched, :mod:`jaxsess._tf1.train._saver_ops`), and so does the
    ``SaverDef`` naming it."""
    scopes = {n.name.split("/")[0] + "/" for n in meta.graph_def.node if n.op in _SAVER_OPS and "/" in n.name}
    if keep_importable:
        scopes = {s for s in scopes
                  if not all(importable_op_type(n.op) for n in meta.graph_def.node if n.name.startswith(s))}
    if not scopes:
        return meta
    drop = tuple(scopes)
    out = _tfproto.MetaGraphDef()
    out.CopyFrom(meta)
    kept = [n for n in out.graph_def.node if not n.name.startswith(drop)]
    del out.graph_def.node[:]
    out.graph_def.node.extend(kept)
    sd = meta.saver_def
    if not keep_importable or (sd.filename_tensor_name or sd.restore_op_name).startswith(drop):
        out.ClearField("saver_def")
    return out


def _init_op_name(meta: Any) -> str | None:
    for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
        if key in meta.collection_def:
            names = meta.collection_def[key].node_list.value
            if len(names) != 1:
                raise RuntimeError(f"Expected exactly one SavedModel {key} op, found {len(names)}.")
            return str(names[0])
    sig = meta.signature_def.get(constants.INIT_OP_SIGNATURE_KEY) \
        if constants.INIT_OP_SIGNATURE_KEY in meta.signature_def else None
    if sig is not None:
        return str(sig.outputs[constants.INIT_OP_SIGNATURE_KEY].name)
    return None


def load(sess: Any, tags: Sequence[str], export_dir: str, import_scope: str | None = None,
         **saver_kwargs: Any) -> Any:
    """Loads the meta graph tagged ``tags`` of the SavedModel ``export_dir`` into
    ``sess``'s graph and restores its variables in ``sess``, as
    ``tf.compat.v1.saved_model.loader.load``.

    Args:
      sess: the :class:`~jaxsess.Session` to load into.
      tags: the meta graph's tag set (``[tag_constants.SERVING]``).
      export_dir: the SavedModel directory.
      import_scope: a name scope to import under.

    Returns:
      The loaded ``MetaGraphDef`` (its ``signature_def`` maps keys to tensor names).

    Raises:
      OSError: no ``saved_model.pb`` in ``export_dir``.
      RuntimeError: no meta graph has exactly these tags (TF's message).
      ValueError: a graph node of an op type jaxsess does not know (names it).
    """
    if isinstance(tags, str):
        tags = [tags]
    saved = read_saved_model(export_dir)
    want = set(tags)
    found = [m for m in saved.meta_graphs if set(m.meta_info_def.tags) == want]
    if not found:
        available = [set(m.meta_info_def.tags) for m in saved.meta_graphs]
        raise RuntimeError(
            f"MetaGraphDef associated with tags {' '.join(repr(t) for t in tags).strip()} could not be found in "
            f"SavedModel, with available tags '{available}'. To inspect available tag-sets in the SavedModel, "
            "please use the SavedModel CLI: `saved_model_cli`.")
    meta = found[0]
    graph = sess.graph
    before = set(graph.get_collection(GraphKeys.GLOBAL_VARIABLES))
    with graph.as_default():
        import_meta_graph(_without_savers(meta, keep_importable=True), import_scope=import_scope)
        # the checkpoint names the variables without the import scope
        cut = len(import_scope) + 1 if import_scope else 0
        loaded = {v.op.name[cut:]: v for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES) if v not in before}
        saver = Saver(loaded) if loaded else None
    prefix = os.path.join(os.fsdecode(export_dir), constants.VARIABLES_DIRECTORY, constants.VARIABLES_FILENAME)
    if saver is not None and is_bundle(prefix):
        saver.restore(sess, prefix)
    init = _init_op_name(meta)
    if init is not None:
        name = f"{import_scope}/{init}" if import_scope else init
        sess.run(sess.graph.as_graph_element(name))
    return meta
