"""TF's op set, lowered: one-op graphs written and run by real TensorFlow, read without it.

The fixtures (``tests/fixtures/tf_ops/*.npz``) are written by
``tests/tf_oracle/record_op_goldens.py`` with real TF 2.21 (``tf.compat.v1``,
eager off): each holds a ``GraphDef`` with one op of TF's op set fed by
placeholders and constants, plus (where TF has a gradient) TF's own
gradient ops from ``tf.gradients``; the feeds; TF's outputs, gradients and
variable values after the step. Here every node runs through jaxsess's
lowering table (``jaxsess._tf1.tf_opset``) and is compared strictly: dtype,
shape, values.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tensorboard.compat.proto import graph_pb2

import jaxsess as tf
from jaxsess._core.graph._tf_opset import TF_LOWERINGS, tf_op_def
from tests.tf_graph_runner import GraphRunner, node_attrs

FIXTURES = Path(__file__).parent / "fixtures" / "tf_ops"
CASES = sorted(p.stem for p in FIXTURES.glob("*.npz"))
# Ops whose TF kernels use other polynomial approximations than XLA's: a few ulps more.
_LOOSE = {"Lgamma", "Digamma", "Erfinv", "Erfc", "Acosh", "Atanh", "Asinh", "Expm1", "Tan", "Pow", "Xlog1py",
          "LRN", "Selu", "Elu", "Softplus", "EuclideanNorm", "Cumprod", "Prod"}


def _load(name: str) -> tuple[Any, dict[str, Any], dict[str, np.ndarray]]:
    with np.load(FIXTURES / f"{name}.npz") as z:
        arrays = {k: z[k] for k in z.files}
    gd = graph_pb2.GraphDef.FromString(arrays.pop("graph_def").tobytes())
    meta = json.loads(arrays.pop("meta").tobytes())
    return gd, meta, arrays


def _assert_same(got: Any, want: np.ndarray, what: str, loose: bool) -> None:
    got = np.asarray(got)
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, TF gives {want.dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape}, TF gives {want.shape}"
    if want.dtype.kind in "fc":
        tol = 2e-5 if loose else 2e-6
        if want.dtype == np.float64:
            tol = 1e-12
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


def test_fixtures_exist() -> None:
    assert len(CASES) > 200
    assert sum(p.stat().st_size for p in FIXTURES.glob("*.npz")) < 5 * 2**20


def test_tensorflow_is_not_imported() -> None:
    assert "tensorflow" not in sys.modules


@pytest.mark.parametrize("name", CASES)
def test_op_matches_tensorflow(name: str) -> None:
    gd, meta, arrays = _load(name)
    feeds = {n: arrays[f"feed:{j}"] for j, n in enumerate(meta["feeds"])}
    variables = {n: arrays[f"var_init:{j}"] for j, n in enumerate(meta["variables"])}
    runner = GraphRunner(gd, variables)
    grads = [g for _, g in meta["grads"]]
    values = runner.run(meta["fetches"] + grads, feeds)
    if meta["targets"]:
        runner.run([t + ":0" for t in []], feeds)
        for t in meta["targets"]:
            runner.op(t)
    loose = name.split("_")[0] in _LOOSE or name.startswith(("FusedBatchNorm", "Resize"))
    for j, (fetch, got) in enumerate(zip(meta["fetches"], values, strict=False)):
        _assert_same(got, arrays[f"out:{j}"], f"{name}: output {fetch}", loose)
    for j, g in enumerate(grads):
        _assert_same(values[len(meta["fetches"]) + j], arrays[f"grad:{j}"], f"{name}: gradient {g}", True)
    for j, v in enumerate(meta["variables"]):
        _assert_same(runner.variables[v], arrays[f"var_after:{j}"], f"{name}: variable {v} after the step", True)
    # every node's output count is what TF's OpDef gives
    for node_name, outs in runner.values.items():
        node = runner.nodes[node_name]
        if node.op in TF_LOWERINGS:
            assert len(outs) == _n_outputs(node), f"{node.op}: {len(outs)} outputs"


# Ops whose outputs' shapes depend on input values: refused at import when the value is fed.
_DATA_DEPENDENT = {"Where"}


# Ops whose static inputs or outputs are computed from shapes: also run with the placeholders'
# batch dimension unknown (the import engine infers shapes symbolically and folds at the trace).
_SHAPE_CASES = ["Reshape", "Squeeze", "Squeeze_all", "Split", "SplitV", "Slice", "StridedSlice",
                "StridedSlice_masks", "StridedSlice_newaxis", "Shape", "ShapeN", "Size", "BroadcastTo", "Tile", "Pad",
                "ConcatV2", "Pack", "Unpack", "Transpose_computed_perm", "ExpandDims", "Mean", "Sum_keepdims",
                "FusedBatchNormV3_training", "FusedBatchNormV3_inference", "MaxPoolGrad", "BiasAdd", "AddV2",
                "SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits", "GatherV2", "TopKV2",
                "BatchMatMulV2", "Einsum_attention", "Conv2D", "DepthwiseConv2dNative", "AvgPool", "Cumsum"]


def _unknown_batch(gd: Any) -> None:
    for n in gd.node:
        if n.op == "Placeholder" and n.attr["shape"].shape.dim:
            n.attr["shape"].shape.dim[0].size = -1
        if "_output_shapes" in n.attr:
            del n.attr["_output_shapes"]


@pytest.mark.parametrize("name", CASES + [f"{c}@unknown_batch" for c in _SHAPE_CASES])
def test_op_imports_and_runs_in_a_session(name: str) -> None:
    """The same graph through ``import_graph_def`` and a ``Session``: generic TF nodes, static
    inputs folded, one jitted plan; TF's values (gradients included), variables after the step.
    ``@unknown_batch``: the placeholders' first dimension unknown (``None``), as Keras writes them."""
    name, _, variant = name.partition("@")
    gd, meta, arrays = _load(name)
    if variant:
        _unknown_batch(gd)
    feeds = {n: arrays[f"feed:{j}"] for j, n in enumerate(meta["feeds"])}
    fetches = meta["fetches"] + [g for _, g in meta["grads"]]
    with tf.Graph().as_default() as g:
        if name in _DATA_DEPENDENT:
            with pytest.raises(ValueError, match=f"node '{name}'.*depends on 'in0'.*it is fed"):
                tf.import_graph_def(gd, name="")
            return
        tf.import_graph_def(gd, name="")
        with tf.Session(graph=g) as s:
            s.run([v + "/Assign" for v in meta["variables"]])
            values = s.run(fetches, feeds)
            if meta["targets"]:
                s.run(meta["targets"], feeds)
            kinds = {n.name: n.op for n in gd.node}
            after = s.run([v + "/Read/ReadVariableOp:0" if kinds[v] == "VarHandleOp" else v + ":0"
                           for v in meta["variables"]])
    want = [arrays[f"out:{j}"] for j in range(len(meta["fetches"]))]
    want += [arrays[f"grad:{j}"] for j in range(len(meta["grads"]))]
    loose = name.split("_")[0] in _LOOSE or name.startswith(("FusedBatchNorm", "Resize"))
    for f, got, w in zip(fetches, values, want, strict=True):
        _assert_same(got, w, f"{name}: {f}", loose or f not in meta["fetches"])
    for j, (v, got) in enumerate(zip(meta["variables"], after, strict=True)):
        _assert_same(got, arrays[f"var_after:{j}"], f"{name}: variable {v} after the step", True)


def _n_outputs(node: Any) -> int:
    op_def = tf_op_def(node.op)
    attrs = node_attrs(node)
    n = 0
    for arg in op_def.output_arg:
        if arg.number_attr:
            n += int(attrs[arg.number_attr])
        elif arg.type_list_attr:
            n += len(attrs[arg.type_list_attr])
        else:
            n += 1
    return n


def test_every_lowering_is_a_tf_op_and_its_static_inputs_exist() -> None:
    assert len(TF_LOWERINGS) > 250
    for op_type, low in TF_LOWERINGS.items():
        op_def = tf_op_def(op_type)
        assert op_def is not None, op_type
        fixed = [a for a in op_def.input_arg if not (a.number_attr or a.type_list_attr)]
        listed = len(op_def.input_arg) - len(fixed)
        for i in low.static_inputs:
            # a static input is one of the OpDef's single-tensor inputs (negative: counted from the end)
            assert -len(op_def.input_arg) <= i < len(op_def.input_arg), (op_type, i)
            arg = op_def.input_arg[i]
            assert not (arg.number_attr or arg.type_list_attr) or listed == 0, (op_type, i)
        refs = [a.is_ref or a.type == 20 for a in op_def.input_arg]
        if any(refs):
            assert low.stateful, f"{op_type} reads or writes variables: must be stateful"
        if op_def.is_stateful and op_type.startswith(("Random", "Truncated", "Multinomial", "Save", "Restore")):
            assert low.stateful, op_type


# -- the docs' table --------------------------------------------------------------------------

DOC = Path(__file__).parents[1] / "docs" / "tf-ops.md"
_FAMILIES = {
    "elementwise": "Elementwise math, comparisons, casts, activations and their gradient ops",
    "array": "Shapes, slicing, joining, gathering, scattering",
    "math": "Reductions, scans, matrix products, top-k",
    "nn": "Convolutions, pooling, batch norm, softmax and losses, with their gradient ops",
    "linalg": "Linear algebra and FFTs",
    "image": "Image resizing, cropping, colour",
    "random": "Random ops (seeded: TF's Philox numbers)",
    "training": "Optimizer updates (`Apply*`, `ResourceApply*`)",
    "_tf_function": "Function calls and control flow v2",
    "_tf_lists": "TensorArrays and TensorLists (as arrays: the import engine's, see docs/tf-import.md)",
}


def ops_table_markdown() -> str:
    """The table of TF op types that import, by family (what ``docs/tf-ops.md`` shows)."""
    by_family: dict[str, list[str]] = {}
    ours = {t: low for t, low in TF_LOWERINGS.items() if low.fn.__module__.startswith("jaxsess.")}  # not tests'
    for op_type, low in ours.items():
        family = low.fn.__module__.rsplit(".", 1)[-1]
        by_family.setdefault(family, []).append(op_type)
    lines = ["| family | TF op types |", "|---|---|"]
    for family, title in _FAMILIES.items():
        ops = sorted(by_family.pop(family, []))
        if ops:
            lines.append(f"| {title} ({len(ops)}) | {', '.join(f'`{o}`' for o in ops)} |")
    for family, ops in sorted(by_family.items()):
        lines.append(f"| {family} ({len(ops)}) | {', '.join(f'`{o}`' for o in sorted(ops))} |")
    lines.append(f"\n{len(ours)} TF op types in all.")
    return "\n".join(lines)


def test_docs_table_is_the_lowering_table() -> None:
    text = DOC.read_text()
    begin, end = "<!-- ops:begin (generated by tests/test_tf_opset.py::ops_table_markdown) -->", "<!-- ops:end -->"
    section = text[text.index(begin) + len(begin):text.index(end)].strip()
    assert section == ops_table_markdown(), "docs/tf-ops.md's table is stale; the table now:\n" + ops_table_markdown()


class _Ctx:
    name, op_type = "model/reshape_1", "Reshape"


@pytest.mark.parametrize(("op_type", "inputs", "attrs", "message"), [
    ("Reshape", [np.zeros((2, 3), np.float32), np.array([4, -1, 5], np.int32)], {},
     r"cannot reshape a tensor of shape \[2, 3\] \(6 elements\) into shape \[4, -1, 5\]"),
    ("Transpose", [np.zeros((2, 3), np.float32), np.array([0, 0], np.int32)], {},
     r"perm \[0, 0\] is not a permutation of the 2 dimensions"),
    ("ConcatV2", [np.zeros((2, 3), np.float32), np.zeros((2, 3), np.float32), np.array(2, np.int32)], {},
     r"axis 2 is out of range for a tensor of rank 2"),
    ("Pad", [np.zeros((2, 3), np.float32), np.array([1, 1], np.int32)], {},
     r"paddings must have shape \[2, 2\], got \[2\]"),
    ("SplitV", [np.zeros((2, 6), np.float32), np.array([1, 2], np.int32), np.array(1, np.int32)],
     {"num_split": 2}, r"size_splits \[1, 2\] do not split dimension 1 of size 6 into 2 parts"),
    ("Range", [np.array(0), np.array(5), np.array(0)], {"Tidx": np.int32}, r"delta must be non-zero"),
    ("TopKV2", [np.zeros((2, 3), np.float32), np.array(4, np.int32)], {"sorted": True},
     r"k 4 must be in \[0, 3\]"),
    ("Conv2D", [np.zeros((1, 4, 4, 3), np.float32), np.zeros((3, 3, 2, 4), np.float32)],
     {"strides": (1, 1, 1, 1), "padding": "SAME", "data_format": "NHWC", "dilations": (1, 1, 1, 1),
      "explicit_paddings": ()}, r"input depth 3 must equal the filter's in_channels 2"),
    ("Conv2D", [np.zeros((1, 4, 4, 3), np.float32), np.zeros((3, 3, 3, 4), np.float32)],
     {"strides": (2, 1, 1, 1), "padding": "SAME", "data_format": "NHWC", "dilations": (1, 1, 1, 1),
      "explicit_paddings": ()}, r"strides \[2, 1, 1, 1\]: TF supports no strides in the batch and depth"),
])
def test_bad_input_errors_name_the_node(op_type: str, inputs: list[Any], attrs: dict[str, Any], message: str) -> None:
    ctx = _Ctx()
    ctx.op_type = op_type
    with pytest.raises(ValueError, match=rf"^node 'model/reshape_1' \(op '{op_type}'\): {message}"):
        TF_LOWERINGS[op_type].fn(ctx, inputs, attrs)


def _to_nchw(v: Any) -> Any:
    return tuple(v[i] for i in (0, 3, 1, 2)) if isinstance(v, tuple) and len(v) == 4 else v


@pytest.mark.parametrize("name", ["Conv2D", "Conv2D_valid_dilated", "Conv2D_explicit", "DepthwiseConv2dNative",
                                  "DepthwiseConv2dNative_explicit", "MaxPool", "AvgPool", "BiasAdd",
                                  "FusedBatchNormV3_inference", "FusedBatchNormV3_training"])
def test_nchw_is_nhwc_transposed(name: str) -> None:
    """``data_format='NCHW'`` (which TF's CPU kernels refuse, so TF cannot record it): the same op on
    transposed inputs, with ``strides``/``ksize``/``dilations``/``explicit_paddings`` in NCHW order,
    gives TF's NHWC values transposed."""
    gd, meta, arrays = _load(name)
    node = next(n for n in gd.node if n.op in TF_LOWERINGS and n.name == name.split("_")[0])
    attrs = node_attrs(node)
    attrs["data_format"] = "NCHW"
    for key in ("strides", "ksize", "dilations"):
        if key in attrs:
            attrs[key] = _to_nchw(tuple(attrs[key]))
    if attrs.get("explicit_paddings"):
        ep = attrs["explicit_paddings"]
        pairs = [ep[2 * i:2 * i + 2] for i in range(4)]
        attrs["explicit_paddings"] = tuple(v for i in (0, 3, 1, 2) for v in pairs[i])
    feeds = {n.split(":")[0]: arrays[f"feed:{j}"] for j, n in enumerate(meta["feeds"])}
    inputs = []
    for i, inp in enumerate(node.input):
        src = inp.split(":")[0]
        if src in feeds:
            v = feeds[src]
        else:
            v = GraphRunner(gd).run([inp], feeds)[0]
        inputs.append(np.moveaxis(v, -1, 1) if i == 0 else v)  # channels first
    with _dtypes_x64():
        outs = TF_LOWERINGS[node.op].fn(None, inputs, attrs)
    want = arrays["out:0"]
    got = np.asarray(outs[0])
    np.testing.assert_allclose(np.moveaxis(got, 1, -1), want, rtol=2e-5, atol=2e-5)


def _dtypes_x64() -> Any:
    from jaxsess._core import dtypes

    return dtypes.x64_scope()


def _stateless_inputs(alg: int) -> list[Any]:
    return [np.array([3], np.int32), np.array([5], np.uint64), np.array([0, 7], np.uint64), np.array(alg, np.int32)]


def test_stateless_random_threefry_is_refused_naming_the_node() -> None:
    """ThreeFry (``alg`` 2) is refused, as TF's CPU kernels refuse it (float64 normals are TF's:
    corpus program v92_stateless_random_tf_values)."""
    ctx = _Ctx()
    ctx.op_type = "StatelessRandomUniformV2"
    with pytest.raises(ValueError, match=r"^node 'model/reshape_1' \(op 'StatelessRandomUniformV2'\): "
                                         r"Unsupported algorithm id: 2"):
        TF_LOWERINGS["StatelessRandomUniformV2"].fn(ctx, _stateless_inputs(2), {"dtype": tf.float32})
    gd, _, _ = _load("StatelessRandomUniformV2_auto")
    alg = next(n for n in gd.node if n.name == "StatelessRandomUniformV2").input[3]  # its alg, auto-select
    next(n for n in gd.node if n.name == alg).attr["value"].tensor.int_val[:] = [2]
    with tf.Graph().as_default(), pytest.raises(ValueError, match=r"node 'StatelessRandomUniformV2' "
                                                                  r"\(op 'StatelessRandomUniformV2'\).*"
                                                                  r"Unsupported algorithm id: 2"):
        tf.import_graph_def(gd, name="")
