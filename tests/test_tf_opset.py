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


@pytest.mark.parametrize("name", CASES)
def test_op_imports_and_runs_in_a_session(name: str) -> None:
    """The same graph through ``import_graph_def`` and a ``Session``: generic TF nodes, static
    inputs folded, one jitted plan; TF's values (gradients included), variables after the step."""
    gd, meta, arrays = _load(name)
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
            after = s.run([v + ":0" if meta["variables"] and "Resource" not in name else v + "/Read/ReadVariableOp:0"
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
    "image": "Image resizing",
    "random": "Random ops (seeded: TF's Philox numbers)",
    "training": "Optimizer updates (`Apply*`, `ResourceApply*`)",
    "_tf_function": "Function calls and control flow v2",
    "_tf_lists": "TensorArrays and TensorLists (as arrays: the import engine's, see docs/tf-import.md)",
}


def ops_table_markdown() -> str:
    """The table of TF op types that import, by family (what ``docs/tf-ops.md`` shows)."""
    by_family: dict[str, list[str]] = {}
    for op_type, low in TF_LOWERINGS.items():
        family = low.fn.__module__.rsplit(".", 1)[-1]
        by_family.setdefault(family, []).append(op_type)
    lines = ["| family | TF op types |", "|---|---|"]
    for family, title in _FAMILIES.items():
        ops = sorted(by_family.pop(family, []))
        if ops:
            lines.append(f"| {title} ({len(ops)}) | {', '.join(f'`{o}`' for o in ops)} |")
    for family, ops in sorted(by_family.items()):
        lines.append(f"| {family} ({len(ops)}) | {', '.join(f'`{o}`' for o in sorted(ops))} |")
    lines.append(f"\n{len(TF_LOWERINGS)} TF op types in all.")
    return "\n".join(lines)


def test_docs_table_is_the_lowering_table() -> None:
    text = DOC.read_text()
    begin, end = "<!-- ops:begin (generated by tests/test_tf_opset.py::ops_table_markdown) -->", "<!-- ops:end -->"
    section = text[text.index(begin) + len(begin):text.index(end)].strip()
    assert section == ops_table_markdown(), "docs/tf-ops.md's table is stale; the table now:\n" + ops_table_markdown()
