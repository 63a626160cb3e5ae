"""The import engine on GraphDefs as TensorFlow writes them (issue 32, part A).

Fixtures: ``tests/fixtures/tf_graphs/*.pb`` and ``goldens.json``, written
by real TF 2.21 (``tests/tf_oracle/make_tf_graphs.py``); read here without
TensorFlow and compared strictly (values to float32 rounding, dtypes and
shapes exactly). Lowerings the op-set table does not hold yet come from
``tests/tf_engine_lowerings.py``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tf_engine_lowerings
from google.protobuf import text_format

import jaxsess as tf
from jaxsess._core import _tfproto
from jaxsess._core.graph._tf_opset import TF_LOWERINGS

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "tf_graphs"


@pytest.fixture(autouse=True, scope="module")
def _test_lowerings() -> Any:
    """The test-only lowerings for op types TF's table lacks, for this module only."""
    with tf_engine_lowerings.registered() as added:
        yield added

GOLDENS: dict[str, Any] = json.loads((FIXTURES / "goldens.json").read_text())


def _dec(e: dict[str, Any]) -> np.ndarray:
    return np.array(e["data"], dtype=e["dtype"]).reshape(e["shape"])


def _graph_def(case: str) -> Any:
    return _tfproto.GraphDef.FromString((FIXTURES / f"{case}.pb").read_bytes())


def _check(got: Any, want: np.ndarray, what: str) -> None:
    got = np.asarray(got)
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-6, err_msg=what)


def _import(case: str) -> tf.Graph:
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(_graph_def(case), name="")
    return g


def _run_case(case: str, g: tf.Graph | None = None) -> list[Any]:
    g = g or _import(case)
    c = GOLDENS[case]
    with tf.Session(graph=g) as s:
        return s.run(c["fetches"], {k: _dec(v) for k, v in c["feeds"].items()})  # type: ignore[no-any-return]


@pytest.mark.parametrize("case", ["keras_reshape_pack", "transformer_block", "keras_bn_dropout", "tensordot",
                                  "range_split"])
def test_tf_written_graph_computes_tfs_values(case):
    got = _run_case(case)
    c = GOLDENS[case]
    assert len(got) == len(c["values"])
    for name, v, want in zip(c["fetches"], got, c["values"]):
        _check(v, _dec(want), f"{case}: {name}")


def test_nodes_with_a_tf_lowering_are_generic_tf_nodes():
    g = _import("keras_reshape_pack")
    reshape = g.get_operation_by_name("reshape/Reshape")
    assert reshape.type == "TFNode"
    assert reshape.get_attr("tf_op") == "Reshape"
    assert reshape.get_attr("Tshape") == tf.int32  # TF's attributes, through get_attr
    # the structural nodes stay jaxsess's own ops
    assert g.get_operation_by_name("x").type == "Placeholder"
    assert {op.type for op in g.get_operations() if op.name.endswith("kernel")} == {"Const"}


def test_keras_reshape_pack_folds_at_trace_time_for_any_batch():
    # Shape(x)[0] is unknown at import (batch None): the fold happens when the plan is traced.
    g = _import("keras_reshape_pack")
    pack = g.get_operation_by_name("reshape/Reshape")
    assert 1 not in pack.get_attr("static_values")
    assert pack.outputs[0].shape.ndims is None
    c = GOLDENS["keras_reshape_pack"]
    x2 = _dec(c["feeds"]["x:0"])
    want = _dec(c["values"][0])
    x5 = np.concatenate([x2, x2[::-1], x2[:1]])
    with tf.Session(graph=g) as s:
        out5 = s.run(c["fetches"][0], {"x:0": x5})
        out2 = s.run(c["fetches"][0], {"x:0": x2})
    _check(out2, want, "batch 2")
    _check(out5[:2], want, "batch 5, rows of batch 2")
    _check(out5[2:4], want[::-1], "batch 5, reversed rows")
    assert out5.shape == (5, 24)


def test_static_inputs_of_known_shapes_fold_at_import():
    g = _import("range_split")
    r = g.get_operation_by_name("r")
    # Range(0, Size(x), 3): Size of a [6, 4] placeholder folds on the host at import
    assert {i: v.tolist() for i, v in r.get_attr("static_values").items()} == {0: 0, 1: 24, 2: 3}
    assert r.outputs[0].shape.as_list() == [8]
    split = g.get_operation_by_name("split")
    assert [t.shape.as_list() for t in split.outputs] == [[2, 4]] * 3
    splitv = g.get_operation_by_name("splitv")
    assert [t.shape.as_list() for t in splitv.outputs] == [[6, 1], [6, 3]]


def test_tf1_training_graph_ref_and_resource_apply_ops():
    """``ApplyGradientDescent`` (ref input of a ``VariableV2``) and ``ResourceApplyGradientDescent``
    (resource input of a ``VarHandleOp``) assign through the session's variables: TF's numbers."""
    c = GOLDENS["train_sgd"]
    g = _import("train_sgd")
    apply_w = g.get_operation_by_name("train/update_w/ApplyGradientDescent")
    apply_b = g.get_operation_by_name("train/update_b/ResourceApplyGradientDescent")
    assert (apply_w.type, apply_b.type) == ("TFStatefulNode", "TFStatefulNode")
    assert [v.name for v in apply_w.get_attr("var_writes")] == ["w"]
    assert [v.name for v in apply_b.get_attr("var_writes")] == ["b"]
    feeds = {k: _dec(v) for k, v in c["feeds"].items()}
    with tf.Session(graph=g) as s:
        s.run(c["init"])
        got = []
        for _ in range(c["steps"]):
            s.run(c["train"], feeds)
            got.extend(s.run(c["fetches"], feeds))
    assert len(got) == len(c["values"])
    for k, (v, want) in enumerate(zip(got, c["values"])):
        _check(v, _dec(want), f"fetch {k}")


def _node(gd: Any, name: str) -> Any:
    return next(n for n in gd.node if n.name == name)


def test_tf_defaults_are_filled_from_the_op_def():
    gd = _graph_def("tensordot")
    prod = _node(gd, "dot/Prod")
    del prod.attr["keep_dims"]  # TF omits attributes equal to their default
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
    assert g.get_operation_by_name("dot/Prod").get_attr("keep_dims") is False
    _check(_run_case("tensordot", g)[0], _dec(GOLDENS["tensordot"]["values"][0]), "without keep_dims")


def _import_error(gd: Any) -> str:
    with tf.Graph().as_default(), pytest.raises(ValueError) as e:
        tf.import_graph_def(gd, name="")
    return str(e.value)


def test_unknown_attribute_is_rejected_naming_node_and_op():
    gd = _graph_def("tensordot")
    _node(gd, "dot/Prod").attr["keepdims"].b = True
    msg = _import_error(gd)
    assert "node 'dot/Prod' (op 'Prod')" in msg and "attribute 'keepdims'" in msg and "keep_dims" in msg


def test_missing_required_attribute_is_rejected():
    gd = _graph_def("range_split")
    del _node(gd, "split").attr["num_split"]
    msg = _import_error(gd)
    assert "node 'split' (op 'Split')" in msg and "attribute 'num_split'" in msg and "no default" in msg


def test_input_count_follows_number_attr():
    gd = _graph_def("keras_reshape_pack")
    pack = next(n for n in gd.node if n.op == "Pack")
    pack.attr["N"].i = len(pack.input) + 1
    msg = _import_error(gd)
    assert f"node '{pack.name}' (op 'Pack')" in msg
    assert f"{len(pack.input) + 1} data input(s)" in msg and f"the node has {len(pack.input)}" in msg


def test_input_dtype_checked_against_op_def():
    gd = _graph_def("range_split")
    _node(gd, "split").attr["T"].type = _tfproto.types_pb2.DT_INT32
    msg = _import_error(gd)
    assert "node 'split' (op 'Split')" in msg and "has dtype float32; TF's OpDef wants int32" in msg


def test_static_input_that_depends_on_a_feed_names_the_node():
    gd = _tfproto.GraphDef()
    gd.versions.producer = 2474
    x = gd.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = _tfproto.types_pb2.DT_FLOAT
    n = gd.node.add(name="n", op="Placeholder")
    n.attr["dtype"].type = _tfproto.types_pb2.DT_INT32
    n.attr["shape"].shape.dim.add(size=2)
    r = gd.node.add(name="r", op="Reshape", input=["x", "n"])
    r.attr["T"].type = _tfproto.types_pb2.DT_FLOAT
    r.attr["Tshape"].type = _tfproto.types_pb2.DT_INT32
    msg = _import_error(gd)
    assert "node 'r' (op 'Reshape')" in msg and "input 1 ('n:0')" in msg
    assert "depends on 'n' (op 'Placeholder')" in msg and "fed" in msg


def _random_graph(seed: int, seed2: int) -> Any:
    gd = _tfproto.GraphDef()
    gd.versions.producer = 2474
    shape = gd.node.add(name="shape", op="Const")
    shape.attr["dtype"].type = _tfproto.types_pb2.DT_INT32
    shape.attr["value"].tensor.CopyFrom(_tfproto.ndarray_to_tensor_proto(np.array([4], np.int32)))
    u = gd.node.add(name="u", op="RandomUniform", input=["shape"])
    u.attr["T"].type = _tfproto.types_pb2.DT_INT32
    u.attr["dtype"].type = _tfproto.types_pb2.DT_FLOAT
    u.attr["seed"].i = seed
    u.attr["seed2"].i = seed2
    return gd


def test_random_node_draws_per_run_and_repeats_per_session():
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(_random_graph(7, 11), name="")
    op = g.get_operation_by_name("u")
    assert op.type == "TFRandomNode" and (op.get_attr("seed"), op.get_attr("seed2")) == (7, 11)
    runs = []
    for _ in range(2):
        with tf.Session(graph=g) as s:
            runs.append([s.run("u:0") for _ in range(2)])
    (a1, a2), (b1, b2) = runs
    assert a1.dtype == np.float32 and a1.shape == (4,)
    assert ((a1 >= 0) & (a1 < 1)).all()
    assert not np.array_equal(a1, a2)  # each run draws anew
    np.testing.assert_array_equal(a1, b1)  # a new session repeats the sequence
    np.testing.assert_array_equal(a2, b2)
    g0 = tf.Graph()
    with g0.as_default():
        tf.import_graph_def(_random_graph(0, 0), name="")
    u0 = g0.get_operation_by_name("u")
    assert u0.get_attr("seeded") is False and (u0.get_attr("seed"), u0.get_attr("seed2")) != (0, 0)


def test_tf_nodes_round_trip_through_jaxsess_graph_defs():
    g = _import("keras_reshape_pack")
    out = g.as_graph_def()
    assert out.versions.producer == 1  # jaxsess's file
    node = _node(out, "reshape/Reshape")
    assert node.op == "Reshape" and node.attr["Tshape"].type == _tfproto.types_pb2.DT_INT32
    assert "_jaxsess_tf_node" in node.attr and "_jaxsess_attrs" not in node.attr
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(out, name="")
    assert g2.get_operation_by_name("reshape/Reshape").type == "TFNode"
    c = GOLDENS["keras_reshape_pack"]
    _check(_run_case("keras_reshape_pack", g2)[0], _dec(c["values"][0]), "re-imported")
    assert str(g.get_operation_by_name("reshape/Reshape")).find("_jaxsess") < 0


def test_jaxsess_own_graph_defs_keep_registry_ops():
    """Precedence: jaxsess's files (producer 1) read with the registry's mappings, even when TF's
    table has a lowering for the op type; TF's files read with the table first."""
    assert "Reshape" in TF_LOWERINGS
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 3], name="x")
        tf.reshape(x, [3, 2], name="r")
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(g.as_graph_def(), name="")
    assert g2.get_operation_by_name("r").type == g.get_operation_by_name("r").type != "TFNode"


# -- function libraries (control flow v2, tf.function calls) -------------------------------------


def _run_alt(case: str, g: tf.Graph) -> list[Any]:
    alt = GOLDENS[case]["alt"]
    with tf.Session(graph=g) as s:
        return s.run(GOLDENS[case]["fetches"], {k: _dec(v) for k, v in alt["feeds"].items()})  # type: ignore[no-any-return]


@pytest.mark.parametrize("case", ["call_v2", "cond_v2", "case_v2", "while_v2"])
def test_function_library_graphs_compute_tfs_values(case):
    """``PartitionedCall``, ``StatelessIf`` (both branches), ``StatelessCase`` (an index out of range
    runs the last branch) and ``StatelessWhile`` (no iteration too), as TF computes them."""
    g = _import(case)
    c = GOLDENS[case]
    for what, got, values in (("feeds", _run_case(case, g), c["values"]), ("alt", _run_alt(case, g), c["alt"]["values"])):
        assert len(got) == len(values)
        for name, v, want in zip(c["fetches"], got, values):
            _check(v, _dec(want), f"{case} ({what}): {name}")


def test_function_call_ops_know_their_output_shapes_at_import():
    g = _import("call_v2")
    call = g.get_operation_by_name("PartitionedCall")
    assert [t.shape.as_list() for t in call.outputs] == [[2, 2], []]
    assert [t.dtype for t in call.outputs] == [tf.float32, tf.float32]
    w = _import("while_v2").get_operation_by_name("loop")
    assert w.get_attr("tf_op") == "StatelessWhile"
    assert [t.shape.as_list() for t in w.outputs] == [[], [], [], [2], []]  # counter, max, i, x, n
    assert all(t.shape.is_fully_defined() for t in w.outputs)


def test_function_library_round_trips():
    g = _import("cond_v2")
    out = g.as_graph_def()
    assert sorted(f.signature.name for f in out.library.function) == sorted(
        f.signature.name for f in _graph_def("cond_v2").library.function)
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(out, name="")
    c = GOLDENS["cond_v2"]
    for v, want in zip(_run_case("cond_v2", g2), c["values"]):
        _check(v, _dec(want), "re-imported")


def test_missing_library_function_names_node_and_function():
    gd = _graph_def("call_v2")
    del gd.library.function[:]
    g = tf.Graph()
    with g.as_default(), pytest.raises(ValueError) as e:
        tf.import_graph_def(gd, name="")
    assert "node 'PartitionedCall' (op 'PartitionedCall')" in str(e.value)
    assert "attribute 'f' names function '__inference_f_" in str(e.value)
    assert "not in the GraphDef's function library" in str(e.value)


def test_while_loop_whose_variable_changes_shape_is_refused_naming_the_node():
    """Loop variables keep their shapes in ``lax.while_loop``: one that grows (TF's
    ``shape_invariants``) is refused when the plan needs it, naming the node."""
    g = _import("while_v2_grow")
    with tf.Session(graph=g) as s, pytest.raises(tf.errors.InvalidArgumentError) as e:
        s.run(GOLDENS["while_v2_grow"]["fetches"], {"x:0": np.array([2.0], np.float32)})
    assert "node 'grow' (op 'StatelessWhile')" in str(e.value)
    assert "loop variable 3 changes shape from [1] to [2]" in str(e.value) and "shape_invariants" in str(e.value)


def test_v2_keras_lstm_with_tensor_lists_computes_tfs_values():
    """A frozen tf_keras LSTM (control flow v2): ``While`` over ``TensorList*`` ops, its gradient
    accumulators (``EmptyTensorList`` + ``TensorListPushBack``, growing) pruned as Grappler does,
    ``TensorListReserve`` of element shape ``[-1, 4]`` shaped by the body's first ``SetItem``."""
    g = _import("lstm_v2")
    w = g.get_operation_by_name("lstm/while")
    assert w.get_attr("tf_op") == "While" and len(w.outputs) > 30
    got = _run_case("lstm_v2", g)
    _check(got[0], _dec(GOLDENS["lstm_v2"]["values"][0]), "lstm_v2")
    x = _dec(GOLDENS["lstm_v2"]["feeds"]["x:0"])
    with tf.Session(graph=g) as s:  # another batch size: another plan, shapes folded again
        out3 = s.run(GOLDENS["lstm_v2"]["fetches"][0], {"x:0": np.concatenate([x, x[:1]])})
    _check(out3[:2], _dec(GOLDENS["lstm_v2"]["values"][0]), "lstm_v2, batch 3")


# -- TF1 control-flow frames (control flow v1) ------------------------------------------------


def test_v1_while_and_cond_compute_tfs_values():
    """A v1 ``tf.while_loop`` (Enter/Merge/Switch/LoopCond/NextIteration/Exit) becomes a ``While``
    with functions made of its frame; a v1 ``tf.cond`` a select of its two sides."""
    g = _import("while_v1")
    tf_ops = [op.get_attr("tf_op") for op in g.get_operations() if op.type == "TFNode"]
    assert tf_ops.count("While") == 1 and "SelectV2" in tf_ops  # the loop, and the cond's Merge
    assert not {op.type for op in g.get_operations()} & {"Enter", "Merge", "Switch", "NextIteration"}
    assert g.get_operation_by_name("loop/Exit_1").type == "Identity"  # Exit keeps its name
    c = GOLDENS["while_v1"]
    for what, got, values in (("feeds", _run_case("while_v1", g), c["values"]),
                              ("alt", _run_alt("while_v1", g), c["alt"]["values"])):
        for name, v, want in zip(c["fetches"], got, values):
            _check(v, _dec(want), f"while_v1 ({what}): {name}")


def test_v1_frozen_dynamic_rnn_with_tensor_arrays_computes_tfs_values():
    got = _run_case("rnn_v1")
    c = GOLDENS["rnn_v1"]
    for name, v, want in zip(c["fetches"], got, c["values"]):
        _check(v, _dec(want), f"rnn_v1: {name}")


def test_v1_graph_with_cycles_exports_as_v2():
    g = _import("while_v1")
    out = g.as_graph_def()
    assert not {n.op for n in out.node} & {"Enter", "Exit", "Merge", "Switch", "NextIteration", "LoopCond"}
    assert sorted(f.signature.name for f in out.library.function) == [
        "loop/while_context/body", "loop/while_context/cond"]
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(out, name="")
    for name, v, want in zip(GOLDENS["while_v1"]["fetches"], _run_case("while_v1", g2), GOLDENS["while_v1"]["values"]):
        _check(v, _dec(want), f"re-imported: {name}")


def test_v1_merge_that_is_not_a_cond_is_refused_naming_it():
    gd = _graph_def("while_v1")
    merge = _node(gd, "cond/Merge")
    merge.input[0] = "x"  # one side no longer comes from the Switch
    msg = _import_error(gd)
    assert "node 'cond/Merge' (op 'Merge')" in msg and "does not depend on a Switch" in msg


def test_docs_page_code_blocks_run(tmp_path):
    """``docs/tf-import.md``'s ```python blocks run as written, each page in a fresh process and a temp cwd."""
    page = Path(__file__).resolve().parent.parent / "docs" / "tf-import.md"
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(), re.S)
    assert len(blocks) >= 3
    script = tmp_path / "page.py"
    script.write_text("\n\n".join(f"def _block_{i}():\n" + "".join(f"    {line}\n" for line in b.splitlines())
                                  + f"\n_block_{i}()\n" for i, b in enumerate(blocks)))
    env = dict(os.environ, PYTHONPATH=str(page.parent.parent))
    r = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]


@pytest.mark.parametrize("case", sorted(c for c in GOLDENS if "grad" in GOLDENS[c]))
def test_gradients_through_imported_tf_graphs_match_tfs(case):
    """``tf.gradients`` of ``sum(y * y)`` through generic TF nodes, functions, v1 frames and TensorLists,
    against TF's gradient of the same graph."""
    c = GOLDENS[case]
    want = c["grad"]
    g = _import(case)
    with g.as_default():
        x, y = g.get_tensor_by_name(want["x"]), g.get_tensor_by_name(want["y"])
        dx = tf.gradients(tf.reduce_sum(y * y), x)[0]
    feeds = {k: _dec(v) for k, v in c["feeds"].items()}
    with tf.Session(graph=g) as s:
        if case in FED_TRIP_COUNTS:  # XLA's loops have no reverse mode; the bound is fed: refused
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                s.run(dx, feeds)
            assert f"node '{FED_TRIP_COUNTS[case]}'" in str(e.value) and "cannot be differentiated" in str(e.value)
            return
        got = s.run(dx, feeds)
    _check(got, _dec(want["value"]), f"{case}: d sum({want['y']}^2) / d {want['x']}")


FED_TRIP_COUNTS = {"while_v1": "loop/while_context/functional_while", "while_v2": "loop"}
"""Loops whose trip count is a feed (``i < n``, ``n`` a placeholder): not differentiable here."""


@pytest.mark.parametrize("case", ["call_stateful", "lstm_v2_vars"])
def test_graphs_with_variables_in_functions_compute_tfs_values(case):
    """Resource variables reached from function bodies: a ``tf.function`` that assigns and reads one
    (``StatefulPartitionedCall``: fetched twice, the variable advances as in TF), and a v2 LSTM that is
    not frozen (its ``While`` reads the kernels handed to it)."""
    c = GOLDENS[case]
    g = _import(case)
    feeds = {k: _dec(v) for k, v in c["feeds"].items()}
    with tf.Session(graph=g) as s:
        s.run(c["init"])
        got = [s.run(name, feeds) for name in c["fetches"]]
    for k, (name, v, want) in enumerate(zip(c["fetches"], got, c["values"])):
        _check(v, _dec(want), f"{case}: fetch {k} ({name})")


def test_nested_v1_loops_are_rewritten_innermost_first():
    g = _import("nested_v1")
    outer = g.get_operation_by_name("outer/while_context/functional_while")
    lib = outer.get_attr("library")
    body = lib.get("outer/while_context/body")
    assert [n.op for n in body.node_def].count("While") == 1  # the inner loop, a node of the outer body
    c = GOLDENS["nested_v1"]
    for name, v, want in zip(c["fetches"], _run_case("nested_v1", g), c["values"]):
        _check(v, _dec(want), f"nested_v1: {name}")


_RANDOM_CALL = """
node { name: "call" op: "StatefulPartitionedCall"
       attr { key: "f" value { func { name: "noise" } } }
       attr { key: "Tin" value { list { } } } attr { key: "Tout" value { list { type: DT_FLOAT } } } }
library { function {
  signature { name: "noise" output_arg { name: "y" type: DT_FLOAT } is_stateful: true }
  node_def { name: "shape" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
             attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 3 } } } }
  node_def { name: "u" op: "RandomUniform" input: "shape:output:0"
             attr { key: "T" value { type: DT_INT32 } } attr { key: "dtype" value { type: DT_FLOAT } } }
  ret { key: "y" value: "u:output:0" }
} }
versions { producer: 2474 }
"""


def test_random_ops_in_function_bodies_draw_anew_every_run():
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(text_format.Parse(_RANDOM_CALL, tf.GraphDef()), name="")
    assert g.get_operation_by_name("call").type == "TFRandomNode"  # its body draws: a counter of its own
    runs = []
    for _ in range(2):
        with tf.Session(graph=g) as s:
            runs.append([s.run("call:0") for _ in range(2)])
    (a1, a2), (b1, b2) = runs
    assert a1.shape == (3,) and ((a1 >= 0) & (a1 < 1)).all()
    assert not np.array_equal(a1, a2) and not np.array_equal(b1, b2)  # each run draws anew
    # unseeded (TF's seed = seed2 = 0): each session starts elsewhere, as jaxsess's unseeded ops
    assert not np.array_equal(a1, b1)


# -- TensorArrays whose element shape is known only at their first write ------------------------

_PENDING_TA = """
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_INT32 } }
       attr { key: "shape" value { shape { dim { size: 3 } dim { size: -1 } dim { size: 2 } } } } }
node { name: "size" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
       attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 3 } } } }
node { name: "ta" op: "TensorArrayV3" input: "size" attr { key: "dtype" value { type: DT_INT32 } }
       attr { key: "element_shape" value { shape { dim { size: -1 } dim { size: 2 } } } } }
node { name: "idx" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
       attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 3 } }
                                            int_val: 2 int_val: 0 int_val: 1 } } } }
node { name: "scatter" op: "TensorArrayScatterV3" input: "ta" input: "idx" input: "x" input: "ta:1"
       attr { key: "T" value { type: DT_INT32 } } }
node { name: "gather" op: "TensorArrayGatherV3" input: "ta" input: "idx" input: "scatter"
       attr { key: "dtype" value { type: DT_INT32 } } }
node { name: "unwritten" op: "TensorArrayGatherV3" input: "ta" input: "idx" input: "ta:1"
       attr { key: "dtype" value { type: DT_INT32 } } }
"""


def test_tensor_array_of_unknown_batch_takes_its_shape_from_the_first_write():
    """``TensorArrayV3`` with ``element_shape`` ``(?, 2)`` (``dynamic_rnn``'s): its array is made
    by the first scatter, for any fed batch; its dtype kept (int32: no float round trip);
    reading it before any write is refused naming the node, as TF refuses."""
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(text_format.Parse(_PENDING_TA, tf.GraphDef()), name="")
    for batch in (4, 1):
        x = np.arange(3 * batch * 2, dtype=np.int32).reshape(3, batch, 2) + 2**30
        with tf.Session(graph=g) as s:
            got = s.run("gather:0", {"x:0": x})
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, x)  # gathered at the indices it was scattered to
    with tf.Session(graph=g) as s, pytest.raises(tf.errors.InvalidArgumentError) as e:
        s.run("unwritten:0")
    assert "node 'unwritten' (op 'TensorArrayGatherV3')" in str(e.value)
    assert "nothing has written yet" in str(e.value) and "[?,2]" in str(e.value)
