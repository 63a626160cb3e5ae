"""Model files written by TensorFlow: what one holds, and whether jaxsess runs it (``python -m jaxsess inspect``).

:func:`inspect_model` recognises the artifact a TF user hands over —

* ``frozen``: a ``GraphDef`` (``.pb`` binary, ``.pbtxt`` text), as
  ``tf.compat.v1.graph_util.convert_variables_to_constants`` /
  ``convert_variables_to_constants_v2`` write it;
* ``meta``: a ``MetaGraphDef`` (``.meta``, ``tf.compat.v1.train.Saver``'s),
  with its checkpoint next to it;
* ``saved_model_tf1``: a SavedModel directory written by TF1's
  ``SavedModelBuilder``/``simple_save`` (no object graph);
* ``saved_model_tf2``: one written by ``tf.saved_model.save`` (an object graph);
* ``keras_saved_model``: one written by TF Keras' ``model.save(dir)``
  (``keras_metadata.pb`` next to ``saved_model.pb``);
* ``keras_h5``: an HDF5 file written by Keras' ``model.save("x.h5")``

— and reports its signatures (inputs and outputs with dtypes and shapes),
the op types of its graph and function library with their counts, the ones
jaxsess cannot lower, and, with ``run=True``, the outputs of one call on a
random input (standard normal floats, zeros for integers; unknown dimensions
are 1), loaded the way the user would load it (:data:`HOW_TO_LOAD`).
"""

from __future__ import annotations

import collections
import json
import os
from dataclasses import dataclass, field
from typing import Any

import h5py
import numpy as np
from google.protobuf import text_format

from jaxsess._core import _tfproto as _tfproto, dtypes as _dtypes
from jaxsess._core.graph._graph import Graph
from jaxsess._core.graph._graph_def import import_graph_def
from jaxsess._core.graph._registry import tf_type_to_op
from jaxsess._core.graph._tf_frames import V1_CONTROL_FLOW
from jaxsess._core.graph._tf_opset import TF_LOWERINGS, tf_op_def
from jaxsess._core.runtime._graph_session import Session
from jaxsess._tf1.keras import layers as _layers
from jaxsess._tf1.keras.models import load_model
from jaxsess._tf1.ops.state_ops import global_variables_initializer
from jaxsess._tf1.saved_model.load_v2 import _node_name, _prune, load as load_v2
from jaxsess._tf1.saved_model.loader import _without_savers, load as load_v1, read_saved_model
from jaxsess._tf1.train._meta_graph import read_meta_graph_file
from jaxsess._tf1.train._saver import import_meta_graph

__all__ = ["HOW_TO_LOAD", "KINDS", "ModelReport", "TensorInfo", "detect_kind", "inspect_model", "lowerable"]

KINDS = ("frozen", "meta", "saved_model_tf1", "saved_model_tf2", "keras_saved_model", "keras_h5")

#: How a user loads each kind (shown by ``inspect``).
HOW_TO_LOAD = {
    "frozen": "graph_def = tf.GraphDef.FromString(open(PATH, 'rb').read()); tf.import_graph_def(graph_def, name='')",
    "meta": "saver = tf.train.import_meta_graph(PATH); saver.restore(sess, CHECKPOINT)",
    "saved_model_tf1": "tf.saved_model.loader.load(sess, ['serve'], PATH)",
    "saved_model_tf2": "loaded = tf.saved_model.load(PATH); loaded.signatures['serving_default'](**inputs)",
    "keras_saved_model": "model = tf.keras.models.load_model(PATH); model.predict(x)",
    "keras_h5": "model = tf.keras.models.load_model(PATH); model.predict(x)",
}

#: TF's variable queries: import answers them from the session (no lowering of TF's table).
_VARIABLE_QUERIES = frozenset({"VarIsInitializedOp", "IsVariableInitialized"})


@dataclass
class TensorInfo:
    """One input or output: its name (tensor name or signature key), dtype name and shape
    (``None`` for an unknown dimension; ``shape`` ``None``: unknown rank)."""

    name: str
    dtype: str
    shape: list[int | None] | None
    tensor: str = ""


@dataclass
class ModelReport:
    """What :func:`inspect_model` found. ``ops``: op type -> count over the graph and its function
    library (for a Keras ``.h5``: layer class -> count); ``unsupported``: those jaxsess cannot
    lower (build); ``signatures``: key ->
    ``(inputs, outputs)``; ``outputs``: signature key -> output name -> ``(dtype, shape)`` of
    the random-input run; ``error``: why loading or running failed (one line)."""

    path: str
    kind: str
    signatures: dict[str, tuple[list[TensorInfo], list[TensorInfo]]] = field(default_factory=dict)
    ops: dict[str, int] = field(default_factory=dict)
    unsupported: dict[str, int] = field(default_factory=dict)
    functions: int = 0
    outputs: dict[str, dict[str, tuple[str, list[int]]]] = field(default_factory=dict)
    error: str | None = None
    ran: bool = False

    def as_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the report."""
        return {
            "path": self.path, "kind": self.kind, "how_to_load": HOW_TO_LOAD[self.kind],
            "signatures": {k: {"inputs": [vars(t) for t in ins], "outputs": [vars(t) for t in outs]}
                           for k, (ins, outs) in self.signatures.items()},
            "ops": dict(sorted(self.ops.items())), "unsupported": dict(sorted(self.unsupported.items())),
            "functions": self.functions, "ran": self.ran,
            "outputs": {k: {n: {"dtype": d, "shape": s} for n, (d, s) in v.items()} for k, v in self.outputs.items()},
            "error": self.error,
        }

    def text(self) -> str:
        """The report as ``inspect`` prints it."""
        lines = [f"{self.path}: {self.kind.replace('_', ' ')}", f"  load with: {HOW_TO_LOAD[self.kind]}"]
        for key, (ins, outs) in self.signatures.items():
            lines.append(f"signature '{key}':")
            lines.extend(f"  input  {t.name}: {t.dtype} {_shape_text(t.shape)}"
                         + (f"  ({t.tensor})" if t.tensor and t.tensor != t.name else "") for t in ins)
            lines.extend(f"  output {t.name}: {t.dtype}" + ("" if t.dtype == "op" else f" {_shape_text(t.shape)}")
                         + (f"  ({t.tensor})" if t.tensor and t.tensor != t.name else "") for t in outs)
        if self.ops:
            total = sum(self.ops.values())
            lib = f", {self.functions} library functions" if self.functions else ""
            # a Keras .h5 holds layers (their classes counted), not ops
            what, nodes, verb = ("layers", "layers", "build") if self.kind == "keras_h5" else ("ops", "nodes", "lower")
            lines.append(f"{what}: {total} {nodes} of {len(self.ops)} types{lib}")
            if self.unsupported:
                lines.append(f"{what} jaxsess cannot {verb}: {len(self.unsupported)} types, "
                             f"{sum(self.unsupported.values())} {nodes}")
                lines.extend(f"  {op}: {n}" for op, n in sorted(self.unsupported.items(), key=lambda kv: (-kv[1], kv[0])))
            else:
                lines.append(f"{what} jaxsess cannot {verb}: none")
        for key, values in self.outputs.items():
            lines.append(f"random input through '{key}':")
            lines.extend(f"  {name}: {dtype} {_shape_text(list(shape))}" for name, (dtype, shape) in values.items())
        if self.error:
            lines.append(f"error: {self.error}")
        return "\n".join(lines)


def _shape_text(shape: list[int | None] | None) -> str:
    return "<unknown rank>" if shape is None else "[" + ", ".join("?" if d is None else str(d) for d in shape) + "]"


def lowerable(op_type: str) -> bool:
    """Whether jaxsess can lower TF op type ``op_type``: a lowering in TF's op-set table, a registry
    op TF's name maps to (constants, feeds, variables and their assigns), a variable query, or a
    v1 control-flow op (import rewrites v1 frames as ``While``/``If``)."""
    return (op_type in _VARIABLE_QUERIES or op_type in V1_CONTROL_FLOW or op_type in TF_LOWERINGS
            or tf_type_to_op(op_type) is not None)


def detect_kind(path: str) -> str:
    """The kind of artifact at ``path`` (one of :data:`KINDS`).

    Raises:
      FileNotFoundError: nothing at ``path``.
      ValueError: a file or directory that is none of them (says what was looked for).
    """
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such file or directory: {path}")
    if os.path.isdir(path):
        if os.path.isfile(os.path.join(path, "keras_metadata.pb")) and os.path.isfile(os.path.join(path, "saved_model.pb")):
            return "keras_saved_model"
        if any(os.path.isfile(os.path.join(path, f)) for f in ("saved_model.pb", "saved_model.pbtxt")):
            saved = _read_saved_model(path)
            return "saved_model_tf2" if any(len(m.object_graph_def.nodes) for m in saved.meta_graphs) \
                else "saved_model_tf1"
        raise ValueError(f"{path} is a directory without saved_model.pb or saved_model.pbtxt (not a SavedModel)")
    with open(path, "rb") as f:
        head = f.read(8)
    if head.startswith(b"\x89HDF\r\n\x1a\n"):
        return "keras_h5"
    if os.path.basename(path) in ("saved_model.pb", "saved_model.pbtxt"):
        return detect_kind(os.path.dirname(os.path.abspath(path)))
    if path.endswith(".meta"):
        return "meta"
    if path.endswith((".pb", ".pbtxt", ".graphdef", ".txt")):
        return "frozen"
    raise ValueError(f"{path}: not a model file jaxsess recognises (.pb/.pbtxt GraphDef, .meta, .h5, "
                     "or a SavedModel directory)")


def _read_saved_model(path: str) -> Any:
    return read_saved_model(path)


def _read_graph_def(path: str) -> Any:
    gd = _tfproto.GraphDef()
    data = open(path, "rb").read()
    if path.endswith((".pbtxt", ".txt")):
        text_format.Parse(data.decode("utf-8"), gd)
    else:
        gd.ParseFromString(data)
    return gd


def _count_ops(graph_def: Any) -> tuple[dict[str, int], int]:
    counts: collections.Counter[str] = collections.Counter(n.op for n in graph_def.node)
    for fn in graph_def.library.function:
        counts.update(n.op for n in fn.node_def)
    return dict(counts), len(graph_def.library.function)


def _dtype_name(enum: int) -> str:
    try:
        return _tfproto.enum_to_dtype(enum).name
    except TypeError:
        return f"DataType({enum})"


def _info_from_tensor_info(key: str, info: Any) -> TensorInfo:
    dims = _tfproto.proto_to_dims(info.tensor_shape) if info.HasField("tensor_shape") else None
    return TensorInfo(key, _dtype_name(info.dtype), list(dims) if dims is not None else None, info.name)


def _signatures_of_meta(meta: Any) -> dict[str, tuple[list[TensorInfo], list[TensorInfo]]]:
    return {key: ([_info_from_tensor_info(k, v) for k, v in sorted(sig.inputs.items())],
                  [_info_from_tensor_info(k, v) for k, v in sorted(sig.outputs.items())])
            for key, sig in sorted(meta.signature_def.items()) if key != "__saved_model_init_op"}


def _frozen_signature(graph_def: Any) -> tuple[list[TensorInfo], list[TensorInfo]]:
    """Placeholders in, and the nodes no other node reads (other than ``NoOp``/``Const``/asserts) out."""
    read = {i.split(":")[0].lstrip("^") for n in graph_def.node for i in n.input}
    ins = []
    for n in graph_def.node:
        if n.op in ("Placeholder", "PlaceholderWithDefault"):
            dims = _tfproto.proto_to_dims(n.attr["shape"].shape) if "shape" in n.attr else None
            ins.append(TensorInfo(f"{n.name}:0", _dtype_name(n.attr["dtype"].type),
                                  list(dims) if dims is not None else None, f"{n.name}:0"))
    outs = []
    for n in graph_def.node:
        if n.name in read or n.op in ("NoOp", "Const", "Assert", "SaveV2", "RestoreV2") or n.op.startswith("Placeholder"):
            continue
        dtype = n.attr["T"].type if "T" in n.attr else n.attr["dtype"].type if "dtype" in n.attr else 0
        shapes = n.attr["_output_shapes"].list.shape if "_output_shapes" in n.attr else []
        dims = _tfproto.proto_to_dims(shapes[0]) if shapes else None
        outs.append(TensorInfo(f"{n.name}:0", _dtype_name(dtype) if dtype else "?",
                               list(dims) if dims is not None else None, f"{n.name}:0"))
    return ins, outs


def _meta_signature(meta: Any) -> tuple[list[TensorInfo], list[TensorInfo]]:
    """A ``.meta`` without signatures: its placeholders in (not the saver's), the tensors and ops
    of its collections out (``train_op``, ``predictions``...; not the variables' collections)."""

    graph_def = _without_savers(meta).graph_def
    ins, _ = _frozen_signature(graph_def)
    by_name = {n.name: n for n in graph_def.node}
    outs: list[TensorInfo] = []
    seen: set[str] = set()
    for _key, col in sorted(meta.collection_def.items()):
        if col.WhichOneof("kind") != "node_list":
            continue
        for name in col.node_list.value:
            node = by_name.get(name.split(":")[0])
            if name in seen or node is None:
                continue
            seen.add(name)
            dtype = node.attr["T"].type if "T" in node.attr else node.attr["dtype"].type if "dtype" in node.attr else 0
            outs.append(TensorInfo(name, _dtype_name(dtype) if ":" in name and dtype else "op", None, name))
    return ins, outs


def _random(info: TensorInfo, rng: np.random.Generator) -> np.ndarray:

    shape = [1 if d is None or d < 0 else int(d) for d in (info.shape or [])]
    dt = np.dtype(_dtypes.as_dtype(info.dtype).np_dtype)
    if dt.kind == "f":
        return rng.standard_normal(shape).astype(dt)
    if dt.kind == "b":
        return np.zeros(shape, dt)
    return np.zeros(shape, dt)


def _report_outputs(values: dict[str, Any]) -> dict[str, tuple[str, list[int]]]:
    out = {}
    for name, v in values.items():
        arr = np.asarray(v)
        out[name] = (str(arr.dtype), [int(d) for d in arr.shape])
        if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
            raise FloatingPointError(f"output '{name}' holds NaN or infinity on a random input")
    return out


def inspect_model(path: str, run: bool = True, seed: int = 0, reraise: bool = False) -> ModelReport:
    """Reads the model at ``path`` (see the module) and, when ``run``, calls it on a random input.

    Returns:
      A :class:`ModelReport`; loading or running errors are in its ``error`` (one line), the
      parts read before the error are kept (``reraise``: they are raised instead).

    Raises:
      FileNotFoundError, ValueError: from :func:`detect_kind` (not a model file).
    """
    path = os.fspath(path)
    kind = detect_kind(path)
    report = ModelReport(path, kind)
    rng = np.random.default_rng(seed)
    try:
        if kind == "frozen":
            _inspect_frozen(report, path, run, rng)
        elif kind == "meta":
            _inspect_meta(report, path, run, rng)
        elif kind in ("saved_model_tf1", "saved_model_tf2", "keras_saved_model"):
            _inspect_saved_model(report, path, run, rng)
        else:
            _inspect_keras(report, path, run, rng)
    except Exception as e:  # noqa: BLE001 - the report says why, on one line
        if reraise:
            raise
        report.error = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"[:2000]
    return report


def _set_ops(report: ModelReport, graph_def: Any) -> None:
    report.ops, report.functions = _count_ops(graph_def)
    report.unsupported = {op: n for op, n in report.ops.items() if not lowerable(op)}


def _inspect_frozen(report: ModelReport, path: str, run: bool, rng: np.random.Generator) -> None:

    graph_def = _read_graph_def(path)
    _set_ops(report, graph_def)
    ins, outs = _frozen_signature(graph_def)
    report.signatures["graph"] = (ins, outs)
    if not run:
        return
    graph = Graph()
    with graph.as_default():
        import_graph_def(graph_def, name="")
    with Session(graph=graph) as sess:
        values = sess.run({t.name: graph.get_tensor_by_name(t.tensor) for t in outs},
                          {graph.get_tensor_by_name(t.tensor): _random(t, rng) for t in ins})
    report.outputs["graph"] = _report_outputs(values)
    report.ran = True


def _inspect_meta(report: ModelReport, path: str, run: bool, rng: np.random.Generator) -> None:


    meta = read_meta_graph_file(path)
    _set_ops(report, _without_savers(meta).graph_def)
    report.signatures = _signatures_of_meta(meta)
    if not report.signatures:
        report.signatures["collections"] = _meta_signature(meta)
    if not run:
        return
    graph = Graph()
    with graph.as_default():
        saver = import_meta_graph(path)
    prefix = path[: -len(".meta")]
    with Session(graph=graph) as sess:
        if saver is not None and os.path.exists(prefix + ".index"):
            saver.restore(sess, prefix)
        else:
            with graph.as_default():
                init = global_variables_initializer()
            sess.run(init)
        for key, (ins, outs) in report.signatures.items():
            fetch = {t.name: graph.as_graph_element(t.tensor) for t in outs}
            values = sess.run(fetch, {graph.get_tensor_by_name(t.tensor): _random(t, rng) for t in ins})
            report.outputs[key] = _report_outputs({k: v for k, v in values.items() if v is not None})
    report.ran = True


def _inspect_saved_model(report: ModelReport, path: str, run: bool, rng: np.random.Generator) -> None:

    saved = _read_saved_model(path)
    metas = list(saved.meta_graphs)
    meta = next((m for m in metas if "serve" in m.meta_info_def.tags), metas[0])
    report.signatures = _signatures_of_meta(meta)
    if report.kind == "saved_model_tf1":
        _set_ops(report, _without_savers(meta).graph_def)
    else:  # what the signatures need (the saver's functions left out)
        roots = {_node_name(t.tensor) for ins, outs in report.signatures.values() for t in ins + outs}
        _set_ops(report, _prune(meta.graph_def, roots))
    if not run:
        return
    if report.kind == "keras_saved_model":
        _run_keras(report, path, rng)
    elif report.kind == "saved_model_tf2":

        with load_v2(path, tags=list(meta.meta_info_def.tags)) as loaded:
            for key, (ins, _outs) in report.signatures.items():
                report.outputs[key] = _report_outputs(loaded.signatures[key](**{t.name: _random(t, rng) for t in ins}))
    else:

        with Session(graph=Graph()) as sess:
            load_v1(sess, list(meta.meta_info_def.tags), path)
            graph = sess.graph
            for key, (ins, outs) in report.signatures.items():
                values = sess.run({t.name: graph.get_tensor_by_name(t.tensor) for t in outs},
                                  {graph.get_tensor_by_name(t.tensor): _random(t, rng) for t in ins})
                report.outputs[key] = _report_outputs(values)
    report.ran = True


def _keras_signature(model: Any) -> tuple[list[TensorInfo], list[TensorInfo]]:
    def info(t: Any, i: int, what: str) -> TensorInfo:
        shape = t.shape.as_list() if t.shape.rank is not None else None
        return TensorInfo(getattr(t, "name", f"{what}_{i}").split(":")[0], t.dtype.name, shape)

    return ([info(t, i, "input") for i, t in enumerate(model.inputs)],
            [info(t, i, "output") for i, t in enumerate(model.outputs)])


def _run_keras(report: ModelReport, path: str, rng: np.random.Generator) -> None:

    model = load_model(path, compile=False)
    ins, outs = _keras_signature(model)
    report.signatures.setdefault("keras", (ins, outs))
    xs = [_random(t, rng) for t in ins]
    ys = model.predict(xs if len(xs) > 1 else xs[0], verbose=0)
    ys = ys if isinstance(ys, list) else [ys]
    report.outputs["keras"] = _report_outputs({t.name: y for t, y in zip(outs, ys, strict=True)})
    report.ran = True


def _inspect_keras(report: ModelReport, path: str, run: bool, rng: np.random.Generator) -> None:

    with h5py.File(path, "r") as f:
        raw = f.attrs.get("model_config")
    if raw is None:
        raise ValueError(f"{path}: an HDF5 file without a model_config (weights only?)")
    config = json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
    layers = config.get("config", {}).get("layers", [])
    report.ops = dict(collections.Counter(layer["class_name"] for layer in layers))

    report.unsupported = {c: n for c, n in report.ops.items() if not hasattr(_layers, c)}
    if run:
        _run_keras(report, path, rng)


def known_tf_op(op_type: str) -> bool:
    """Whether ``op_type`` is an op of TensorFlow's registry (TF 2.21)."""
    return tf_op_def(op_type) is not None
