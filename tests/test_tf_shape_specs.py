"""TF lowerings' shape functions (``TFLowering.spec``) agree with tracing the lowering.

Import infers a generic TF node's output shapes by its lowering's ``spec`` when it has one
(no trace: the per-node cost of importing a big frozen model), else by ``jax.eval_shape`` of
the lowering. These tests hold the two to the same answers: op by op on edge cases (odd
sizes with strides, ``EXPLICIT`` padding, ``NCHW``, dilations, broadcasting, depth
multipliers), and over every tensor of the frozen models TF wrote (``tests/fixtures``), imported
once with the specs and once with them switched off.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jax
import jaxsess.compat.v1 as tf
import numpy as np
import pytest

from jaxsess._core import _tfproto
from jaxsess._core.graph import _tf_node
from jaxsess._core.graph._tf_opset import TF_LOWERINGS

FIXTURES = Path(__file__).resolve().parent / "fixtures"

F32 = np.float32


def _conv_attrs(**kw: Any) -> dict[str, Any]:
    attrs: dict[str, Any] = {
        "T": tf.float32,
        "strides": [1, 1, 1, 1],
        "padding": "SAME",
        "data_format": "NHWC",
        "dilations": [1, 1, 1, 1],
        "explicit_paddings": [],
        "use_cudnn_on_gpu": True,
    }
    attrs.update(kw)
    return attrs


def _fbn_attrs(**kw: Any) -> dict[str, Any]:
    attrs: dict[str, Any] = {
        "T": tf.float32,
        "U": tf.float32,
        "epsilon": 1e-3,
        "exponential_avg_factor": 1.0,
        "data_format": "NHWC",
        "is_training": False,
    }
    attrs.update(kw)
    return attrs


def _pool_attrs(**kw: Any) -> dict[str, Any]:
    attrs: dict[str, Any] = {
        "T": tf.float32,
        "ksize": [1, 3, 3, 1],
        "strides": [1, 2, 2, 1],
        "padding": "SAME",
        "data_format": "NHWC",
    }
    attrs.update(kw)
    return attrs


def _matmul_attrs(**kw: Any) -> dict[str, Any]:
    attrs: dict[str, Any] = {
        "T": tf.float32,
        "transpose_a": False,
        "transpose_b": False,
        "grad_a": False,
        "grad_b": False,
    }
    attrs.update(kw)
    return attrs


CASES: list[tuple[str, list[tuple[int, ...]], dict[str, Any], dict[int, Any]]] = [
    ("Relu", [(8, 7, 7, 3)], {"T": tf.float32}, {}),
    ("Sigmoid", [()], {"T": tf.float32}, {}),
    ("Identity", [(2, 0, 3)], {"T": tf.float32}, {}),
    ("IsNan", [(4, 5)], {"T": tf.float32}, {}),
    ("AddV2", [(8, 1, 5), (3, 1)], {"T": tf.float32}, {}),
    ("Mul", [(), (2, 3)], {"T": tf.float32}, {}),
    ("Maximum", [(2, 3), (2, 3)], {"T": tf.float32}, {}),
    ("Less", [(4, 1), (1, 6)], {"T": tf.float32}, {}),
    ("BiasAdd", [(2, 5, 5, 4), (4,)], {"T": tf.float32, "data_format": "NHWC"}, {}),
    ("BiasAdd", [(2, 4, 5, 5), (4,)], {"T": tf.float32, "data_format": "NCHW"}, {}),
    ("BiasAdd", [(3, 6), (6,)], {"T": tf.float32, "data_format": "NHWC"}, {}),
    ("Conv2D", [(2, 9, 9, 3), (3, 3, 3, 5)], _conv_attrs(), {}),
    ("Conv2D", [(2, 9, 10, 3), (3, 3, 3, 5)], _conv_attrs(strides=[1, 2, 2, 1]), {}),
    ("Conv2D", [(2, 9, 10, 3), (3, 2, 3, 5)], _conv_attrs(strides=[1, 2, 3, 1], padding="VALID"), {}),
    ("Conv2D", [(2, 11, 11, 3), (3, 3, 3, 4)], _conv_attrs(dilations=[1, 2, 3, 1], padding="VALID"), {}),
    ("Conv2D", [(2, 11, 11, 3), (3, 3, 3, 4)], _conv_attrs(dilations=[1, 2, 2, 1]), {}),
    (
        "Conv2D",
        [(1, 8, 8, 3), (3, 3, 3, 2)],
        _conv_attrs(padding="EXPLICIT", explicit_paddings=[0, 0, 1, 2, 0, 3, 0, 0], strides=[1, 2, 2, 1]),
        {},
    ),
    ("Conv2D", [(2, 3, 9, 7), (1, 1, 3, 6)], _conv_attrs(data_format="NCHW", strides=[1, 1, 2, 2]), {}),
    ("DepthwiseConv2dNative", [(2, 9, 9, 4), (3, 3, 4, 1)], _conv_attrs(strides=[1, 2, 2, 1]), {}),
    ("DepthwiseConv2dNative", [(2, 9, 9, 4), (5, 5, 4, 2)], _conv_attrs(padding="VALID"), {}),
    ("DepthwiseConv2dNative", [(2, 4, 9, 8), (3, 3, 4, 3)], _conv_attrs(data_format="NCHW"), {}),
    ("FusedBatchNormV3", [(2, 5, 5, 4)] + [(4,)] * 4, _fbn_attrs(), {}),
    ("FusedBatchNormV3", [(2, 4, 5, 5)] + [(4,)] * 4, _fbn_attrs(data_format="NCHW", is_training=True), {}),
    (
        "FusedBatchNorm",
        [(2, 5, 5, 3)] + [(3,)] * 4,
        _fbn_attrs(is_training=True, exponential_avg_factor=0.5),
        {},
    ),
    ("FusedBatchNormV2", [(2, 3, 5, 5, 4)] + [(4,)] * 4, _fbn_attrs(data_format="NDHWC"), {}),
    ("ConcatV2", [(2, 3), (2, 5), ()], {"T": tf.float32, "N": 2, "Tidx": tf.int32}, {2: np.int32(1)}),
    (
        "ConcatV2",
        [(2, 3, 4), (1, 3, 4), (4, 3, 4), ()],
        {"T": tf.float32, "N": 3, "Tidx": tf.int32},
        {3: np.int64(-3)},
    ),
    ("IdentityN", [(2, 3), (4,)], {"T": [tf.float32, tf.float32]}, {}),
    ("MaxPool", [(2, 9, 9, 3)], _pool_attrs(), {}),
    ("MaxPool", [(2, 9, 10, 3)], _pool_attrs(padding="VALID", ksize=[1, 3, 2, 1]), {}),
    (
        "AvgPool",
        [(2, 3, 9, 10)],
        _pool_attrs(ksize=[1, 1, 3, 3], strides=[1, 1, 2, 3], data_format="NCHW"),
        {},
    ),
    ("AvgPool", [(2, 9, 10, 3)], _pool_attrs(padding="VALID", strides=[1, 1, 1, 1]), {}),
    ("Softmax", [(2, 7)], {"T": tf.float32}, {}),
    ("LogSoftmax", [(3,)], {"T": tf.float32}, {}),
    ("MatMul", [(2, 3), (3, 5)], _matmul_attrs(), {}),
    ("MatMul", [(3, 2), (5, 3)], _matmul_attrs(transpose_a=True, transpose_b=True), {}),
]


def _traced(
    op: str, shapes: list[tuple[int, ...]], attrs: dict[str, Any], statics: dict[int, Any]
) -> list[Any]:
    lw = TF_LOWERINGS[op]
    ctx = _tf_node.TFNodeContext()
    ctx.name, ctx.op_type = "n", op

    def run(*xs: Any) -> Any:
        inputs = [statics.get(i, x) for i, x in enumerate(xs)]
        return list(lw.fn(ctx, inputs, attrs))

    specs = [jax.ShapeDtypeStruct(s, F32) for s in shapes]
    return [tuple(v.shape) for v in jax.eval_shape(run, *specs)]


@pytest.mark.parametrize(
    ("op", "shapes", "attrs", "statics"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_spec_agrees_with_the_traced_lowering(
    op: str, shapes: list[tuple[int, ...]], attrs: dict[str, Any], statics: dict[int, Any]
) -> None:
    spec = TF_LOWERINGS[op].spec
    assert spec is not None
    got = spec(shapes, attrs, statics)
    assert got is not None, "the spec should answer this case"
    assert [tuple(s) for s in got] == _traced(op, shapes, attrs, statics)


@pytest.mark.parametrize(
    ("op", "shapes", "attrs"),
    [
        ("AddV2", [(2, 3), (4, 3)], {"T": tf.float32}),  # does not broadcast: the lowering's error
        ("AddV2", [(None, 3), (4, 3)], {"T": tf.float32}),  # unknown against 4: left to the trace
        ("Conv2D", [(2, 9, 9, 4), (3, 3, 2, 5)], _conv_attrs()),  # grouped
        (
            "Conv2D",
            [(2, 2, 2, 3), (3, 3, 3, 5)],
            _conv_attrs(padding="VALID"),
        ),  # kernel larger than the input
        ("BiasAdd", [(2, 5, 5, 4), (3,)], {"T": tf.float32, "data_format": "NHWC"}),
        ("FusedBatchNormV3", [(2, 5, 5, 4), (3,), (4,), (4,), (4,)], _fbn_attrs()),
        ("FusedBatchNormV3", [(2, 5, 5, 4), (4,), (4,), (0,), (0,)], _fbn_attrs(is_training=True)),
        ("MaxPool", [(2, 2, 2, 3)], _pool_attrs(padding="VALID")),  # window larger than the input
        ("MaxPool", [(None, 9, 9, 3)], _pool_attrs(ksize=[2, 3, 3, 1])),  # a window over the unknown batch
        ("Softmax", [()], {"T": tf.float32}),  # TF wants a vector at least
        ("MatMul", [(2, 3), (4, 5)], _matmul_attrs()),  # inner sizes differ
        ("MatMul", [(2, 3, 4), (4, 5)], _matmul_attrs()),  # not matrices
    ],
)
def test_spec_leaves_what_it_does_not_decide_to_the_trace(
    op: str, shapes: list[Any], attrs: dict[str, Any]
) -> None:
    spec = TF_LOWERINGS[op].spec
    assert spec is not None
    assert spec(shapes, attrs, {}) is None


def test_an_unknown_batch_passes_through() -> None:
    conv = TF_LOWERINGS["Conv2D"].spec
    assert conv is not None
    assert conv([(None, 9, 9, 3), (3, 3, 3, 5)], _conv_attrs(strides=[1, 2, 2, 1]), {}) == [(None, 5, 5, 5)]
    relu = TF_LOWERINGS["Relu"].spec
    assert relu is not None and relu([(None, 4)], {"T": tf.float32}, {}) == [(None, 4)]
    pool = TF_LOWERINGS["MaxPool"].spec
    assert pool is not None and pool([(None, 9, 9, 3)], _pool_attrs(), {}) == [(None, 5, 5, 3)]
    matmul = TF_LOWERINGS["MatMul"].spec
    assert matmul is not None and matmul([(None, 3), (3, 5)], _matmul_attrs(), {}) == [(None, 5)]


@pytest.fixture
def no_specs(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for k, lw in list(TF_LOWERINGS.items()):
        if lw.spec is not None:
            monkeypatch.setitem(TF_LOWERINGS, k, dataclasses.replace(lw, spec=None))
    yield


def _shapes(path: Path) -> dict[str, Any]:
    gd = _tfproto.GraphDef.FromString(path.read_bytes())
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
    return {t.name: (t.shape.as_tuple(), t.dtype) for op in g.get_operations() for t in op.outputs}


# (lstm_v2 is left out: its nodes are in a While's functions, shaped when the plan is traced)
MODELS = sorted(p for p in (FIXTURES / "tf_models").glob("*.pb") if p.stem != "lstm_v2") + [
    FIXTURES / "tf_graphs" / n
    for n in ("keras_bn_dropout.pb", "transformer_block.pb", "keras_reshape_pack.pb")
]


@pytest.mark.parametrize("path", MODELS, ids=[p.stem for p in MODELS])
def test_imported_shapes_are_the_same_without_the_specs(path: Path, request: pytest.FixtureRequest) -> None:
    calls = []
    original = _tf_node._spec_shapes

    def counting(*a: Any) -> Any:
        out = original(*a)
        calls.append(out is not None)
        return out

    mp = pytest.MonkeyPatch()
    mp.setattr(_tf_node, "_spec_shapes", counting)
    try:
        with_specs = _shapes(path)
    finally:
        mp.undo()
    assert any(calls), "no node of the model was shaped by a spec: the comparison proves nothing"
    request.getfixturevalue("no_specs")
    assert _shapes(path) == with_specs
