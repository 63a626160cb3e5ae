"""Records one-op graphs written and run by real TensorFlow (the ``oracle`` extra).

    python tests/tf_oracle/record_op_goldens.py [CASE ...]

For each case below it builds a graph in ``tf.compat.v1`` (eager disabled)
holding one op of TF's op set (``tf.raw_ops``), fed by placeholders (data
inputs) and constants (shapes, axes, perms, paddings: what TF's kernels read
on the host), runs it, and, when TF has a gradient for it, adds
``tf.gradients`` of the outputs (weighted by fixed random cotangents) with
respect to the float placeholders: that second part of the same GraphDef
holds TF's own gradient ops (``ReluGrad``, ``BroadcastGradientArgs``,
``Conv2DBackpropFilter``...). Optimizer ops run on variables; their values
after one step are recorded.

Writes ``tests/fixtures/tf_ops/<case>.npz``: ``graph_def`` (the serialized
``GraphDef``, as ``uint8``), ``meta`` (JSON, as ``uint8``: feed names,
fetch names, gradient names, variables), ``feed:<i>``, ``out:<i>``,
``grad:<i>``, ``var_init:<i>``, ``var_after:<i>``. ``tests/test_tf_opset.py``
reads them without TensorFlow.
"""

from __future__ import annotations

import json
import os
import pathlib
import sys
from collections.abc import Callable
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402
from tensorflow.python.ops import gen_training_ops  # noqa: E402

tf.disable_eager_execution()
raw = tf.raw_ops

OUT = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "tf_ops"


class Builder:
    """What a case builds with: placeholders fed with arrays, constants, variables."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.feeds: list[tuple[Any, np.ndarray]] = []
        self.variables: list[tuple[Any, np.ndarray]] = []
        self.grad = True  # the case's outputs get tf.gradients when TF has them

    def f(self, *shape: int, dtype: Any = np.float32, lo: float | None = None, hi: float | None = None) -> Any:
        """A fed float placeholder (standard normal values, or uniform in [lo, hi))."""
        if lo is not None:
            v = self.rng.uniform(lo, hi, shape)
        else:
            v = self.rng.standard_normal(shape)
        return self.p(np.asarray(v, dtype))

    def i(self, *shape: int, lo: int = -5, hi: int = 5, dtype: Any = np.int32) -> Any:
        return self.p(self.rng.integers(lo, hi, shape).astype(dtype))

    def b(self, *shape: int) -> Any:
        return self.p(self.rng.random(shape) < 0.5)

    def p(self, value: np.ndarray) -> Any:
        value = np.asarray(value)
        ph = tf.placeholder(tf.as_dtype(value.dtype), value.shape, name=f"in{len(self.feeds)}")
        self.feeds.append((ph, value))
        return ph

    def c(self, value: Any, dtype: Any = None) -> Any:
        return tf.constant(value, dtype=dtype)

    def var(self, value: np.ndarray, resource: bool = False) -> Any:
        value = np.asarray(value, np.float32)
        v = tf.Variable(value, name=f"var{len(self.variables)}", use_resource=resource)
        self.variables.append((v, value))
        return v


CASES: dict[str, Callable[[Builder], Any]] = {}


def case(name: str, grad: bool = True) -> Callable[[Callable[[Builder], Any]], Callable[[Builder], Any]]:
    def deco(fn: Callable[[Builder], Any]) -> Callable[[Builder], Any]:
        def build(b: Builder) -> Any:
            b.grad = grad
            return fn(b)
        CASES[name] = build
        return fn
    return deco


def unary(name: str, lo: float | None = None, hi: float | None = None, grad: bool = True,
          dtype: Any = np.float32) -> None:
    case(name, grad)(lambda b: getattr(raw, name)(x=b.f(3, 4, lo=lo, hi=hi, dtype=dtype)))


def binary(name: str, lo: float | None = None, hi: float | None = None, grad: bool = True,
           dtype: Any = np.float32, y_lo: float | None = None, y_hi: float | None = None) -> None:
    case(name, grad)(lambda b: getattr(raw, name)(
        x=b.f(3, 4, lo=lo, hi=hi, dtype=dtype), y=b.f(4, lo=y_lo, hi=y_hi, dtype=dtype)))


# -- elementwise ----------------------------------------------------------------------------------

for _n in ("Abs", "Neg", "Exp", "Expm1", "Sin", "Cos", "Tanh", "Sigmoid", "Atan", "Asinh", "Sinh", "Cosh",
           "Square", "Erf", "Erfc", "Sign", "Tan"):
    unary(_n, lo=-1.2, hi=1.2)
for _n in ("Log", "Sqrt", "Rsqrt", "Reciprocal", "Lgamma", "Digamma", "Log1p"):
    unary(_n, lo=0.3, hi=3.0)
for _n in ("Asin", "Acos", "Atanh", "Erfinv"):
    unary(_n, lo=-0.9, hi=0.9)
unary("Acosh", lo=1.2, hi=3.0)
for _n in ("Floor", "Ceil", "Round", "Rint", "IsFinite", "IsNan", "OnesLike", "ZerosLike"):
    unary(_n, lo=-3.0, hi=3.0, grad=False)
case("Inv")(lambda b: raw.Inv(x=b.f(3, 4, lo=0.5, hi=2.0)))
case("IsInf", False)(lambda b: raw.IsInf(x=b.p(np.array([1.0, np.inf, -np.inf, np.nan], np.float32))))
case("LogicalNot", False)(lambda b: raw.LogicalNot(x=b.b(3, 4)))
for _n in ("Relu", "Relu6", "Elu", "Selu", "Softplus", "Softsign"):
    case(_n)(lambda b, _n=_n: getattr(raw, _n)(features=b.f(3, 4, lo=-8.0, hi=8.0)))
case("LeakyRelu")(lambda b: raw.LeakyRelu(features=b.f(3, 4), alpha=0.3))
for _n in ("AddV2", "Add", "Sub", "Mul", "Maximum", "Minimum", "SquaredDifference", "Atan2", "MulNoNan"):
    binary(_n)
for _n in ("RealDiv", "Div", "DivNoNan", "Xdivy"):
    binary(_n, y_lo=0.5, y_hi=2.0)
binary("Pow", lo=0.5, hi=2.0)
binary("Xlogy", y_lo=0.5, y_hi=2.0)
binary("Xlog1py", y_lo=0.5, y_hi=2.0)
binary("FloorDiv", lo=-5.0, hi=5.0, y_lo=0.5, y_hi=2.0, grad=False)
binary("FloorMod", lo=-5.0, hi=5.0, y_lo=0.5, y_hi=2.0, grad=False)
case("TruncateDiv", False)(lambda b: raw.TruncateDiv(x=b.i(3, 4, lo=-9, hi=9), y=b.p(np.array([2, -3, 4, 5], np.int32))))
case("TruncateMod", False)(lambda b: raw.TruncateMod(x=b.i(3, 4, lo=-9, hi=9), y=b.p(np.array([2, -3, 4, 5], np.int32))))
case("FloorDiv_int", False)(lambda b: raw.FloorDiv(x=b.i(3, 4, lo=-9, hi=9), y=b.p(np.array([2, -3, 4, 5], np.int32))))
case("FloorMod_int", False)(lambda b: raw.FloorMod(x=b.i(3, 4, lo=-9, hi=9), y=b.p(np.array([2, -3, 4, 5], np.int32))))
for _n in ("Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"):
    case(_n, False)(lambda b, _n=_n: getattr(raw, _n)(x=b.i(3, 4, lo=-2, hi=2), y=b.i(4, lo=-2, hi=2)))
for _n in ("LogicalAnd", "LogicalOr"):
    case(_n, False)(lambda b, _n=_n: getattr(raw, _n)(x=b.b(3, 4), y=b.b(4)))
for _n in ("BitwiseAnd", "BitwiseOr", "BitwiseXor"):
    case(_n, False)(lambda b, _n=_n: getattr(raw, _n)(x=b.i(3, 4, lo=0, hi=100), y=b.i(4, lo=0, hi=100)))
case("LeftShift", False)(lambda b: raw.LeftShift(x=b.i(3, 4, lo=0, hi=100), y=b.i(4, lo=0, hi=5)))
case("RightShift", False)(lambda b: raw.RightShift(x=b.i(3, 4, lo=0, hi=100), y=b.i(4, lo=0, hi=5)))
case("Cast")(lambda b: raw.Cast(x=b.f(3, 4), DstT=tf.float64))
case("Cast_int", False)(lambda b: raw.Cast(x=b.f(3, 4, lo=-5.0, hi=5.0), DstT=tf.int32))
case("ClipByValue")(lambda b: raw.ClipByValue(t=b.f(3, 4), clip_value_min=b.c(-0.5), clip_value_max=b.c(0.5)))
case("AddN")(lambda b: raw.AddN(inputs=[b.f(3, 4), b.f(3, 4), b.f(3, 4)]))
case("Select")(lambda b: raw.Select(condition=b.b(3, 4), x=b.f(3, 4), y=b.f(3, 4)))
case("SelectV2")(lambda b: raw.SelectV2(condition=b.b(4), t=b.f(3, 4), e=b.f(3, 1)))
case("BiasAdd")(lambda b: raw.BiasAdd(value=b.f(2, 3, 4), bias=b.f(4)))
case("BiasAddV1")(lambda b: raw.BiasAddV1(value=b.f(2, 3, 4), bias=b.f(4)))
case("L2Loss")(lambda b: raw.L2Loss(t=b.f(3, 4)))

# -- gradient ops TF writes --------------------------------------------------------------------

for _n, _lo, _hi in (("ReluGrad", -3.0, 3.0), ("Relu6Grad", -2.0, 8.0), ("SoftplusGrad", -3.0, 3.0), ("SoftsignGrad", -3.0, 3.0),
                     ("LeakyReluGrad", -3.0, 3.0)):
    case(_n, False)(lambda b, _n=_n, _lo=_lo, _hi=_hi: getattr(raw, _n)(
        gradients=b.f(3, 4), features=b.f(3, 4, lo=_lo, hi=_hi)))
case("EluGrad", False)(lambda b: raw.EluGrad(gradients=b.f(3, 4), outputs=b.f(3, 4, lo=-0.9, hi=3.0)))
case("SeluGrad", False)(lambda b: raw.SeluGrad(gradients=b.f(3, 4), outputs=b.f(3, 4, lo=-1.5, hi=3.0)))
for _n in ("TanhGrad", "SigmoidGrad", "RsqrtGrad", "SqrtGrad", "ReciprocalGrad", "InvGrad"):
    case(_n, False)(lambda b, _n=_n: getattr(raw, _n)(y=b.f(3, 4, lo=0.2, hi=2.0), dy=b.f(3, 4)))
case("BiasAddGrad", False)(lambda b: raw.BiasAddGrad(out_backprop=b.f(2, 3, 4)))
case("BroadcastGradientArgs", False)(lambda b: raw.BroadcastGradientArgs(
    s0=b.c([2, 1, 4]), s1=b.c([3, 1])))
case("SoftmaxCrossEntropyWithLogits")(lambda b: raw.SoftmaxCrossEntropyWithLogits(
    features=b.f(3, 5), labels=b.p(np.full((3, 5), 0.2, np.float32))))
case("SparseSoftmaxCrossEntropyWithLogits")(lambda b: raw.SparseSoftmaxCrossEntropyWithLogits(
    features=b.f(3, 5), labels=b.p(np.array([0, 4, 2], np.int32))))

# -- reductions, scans, sorting ------------------------------------------------------------------

for _n in ("Sum", "Mean", "Max", "Min", "Prod", "EuclideanNorm"):
    case(_n)(lambda b, _n=_n: getattr(raw, _n)(input=b.f(2, 3, 4, lo=0.5, hi=1.5), axis=b.c([0, 2]), keep_dims=False))
case("Sum_keepdims")(lambda b: raw.Sum(input=b.f(2, 3, 4), axis=b.c(-1), keep_dims=True))
case("Mean_all")(lambda b: raw.Mean(input=b.f(2, 3, 4), axis=b.c([0, 1, 2]), keep_dims=False))
for _n in ("All", "Any"):
    case(_n, False)(lambda b, _n=_n: getattr(raw, _n)(input=b.b(3, 4), axis=b.c(1), keep_dims=False))
for _n in ("ArgMax", "ArgMin"):
    case(_n, False)(lambda b, _n=_n: getattr(raw, _n)(input=b.f(3, 4), dimension=b.c(1), output_type=tf.int64))
case("Cumsum")(lambda b: raw.Cumsum(x=b.f(3, 4), axis=b.c(1), exclusive=False, reverse=False))
case("Cumsum_exclusive_reverse")(lambda b: raw.Cumsum(x=b.f(3, 4), axis=b.c(0), exclusive=True, reverse=True))
case("Cumprod")(lambda b: raw.Cumprod(x=b.f(3, 4, lo=0.5, hi=1.5), axis=b.c(1), exclusive=True, reverse=False))
case("TopKV2", False)(lambda b: raw.TopKV2(input=b.f(3, 6), k=b.c(3), sorted=True))

# -- shapes, slicing, joining --------------------------------------------------------------------

case("Reshape")(lambda b: raw.Reshape(tensor=b.f(2, 3, 4), shape=b.c([-1, 4])))
case("Transpose")(lambda b: raw.Transpose(x=b.f(2, 3, 4), perm=b.c([2, 0, 1])))
case("Transpose_computed_perm")(lambda b: raw.Transpose(
    x=b.f(2, 3, 4), perm=raw.Range(start=b.c(2), limit=b.c(-1), delta=b.c(-1))))
case("ConcatV2")(lambda b: raw.ConcatV2(values=[b.f(2, 3), b.f(2, 1), b.f(2, 2)], axis=b.c(-1)))
case("Concat")(lambda b: raw.Concat(concat_dim=b.c(0), values=[b.f(2, 3), b.f(1, 3)]))
case("Pack")(lambda b: raw.Pack(values=[b.f(2, 3), b.f(2, 3)], axis=1))
case("Unpack")(lambda b: raw.Unpack(value=b.f(2, 3), num=3, axis=1))
case("Split")(lambda b: raw.Split(axis=b.c(1), value=b.f(2, 6), num_split=3))
case("SplitV")(lambda b: raw.SplitV(value=b.f(2, 6), size_splits=b.c([1, -1, 2]), axis=b.c(1), num_split=3))
case("Slice")(lambda b: raw.Slice(input=b.f(3, 4), begin=b.c([1, 0]), size=b.c([-1, 2])))
case("StridedSlice")(lambda b: raw.StridedSlice(
    input=b.f(4, 5, 6), begin=b.c([1, 0, 0]), end=b.c([3, 0, 6]), strides=b.c([1, 1, 2]),
    begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=2))
case("StridedSlice_masks")(lambda b: raw.StridedSlice(
    input=b.f(4, 5, 6), begin=b.c([0, 1, 0]), end=b.c([0, -1, 0]), strides=b.c([1, -1, 1]),
    begin_mask=1, end_mask=1, ellipsis_mask=4, new_axis_mask=0, shrink_axis_mask=0))
case("StridedSlice_newaxis")(lambda b: raw.StridedSlice(
    input=b.f(4, 5), begin=b.c([0, 0, 2]), end=b.c([0, 0, 5]), strides=b.c([1, 1, 1]),
    begin_mask=1, end_mask=1, ellipsis_mask=0, new_axis_mask=2, shrink_axis_mask=0))
case("Shape", False)(lambda b: raw.Shape(input=b.f(2, 3, 4), out_type=tf.int32))
case("ShapeN", False)(lambda b: raw.ShapeN(input=[b.f(2, 3), b.f(4)], out_type=tf.int64))
case("Size", False)(lambda b: raw.Size(input=b.f(2, 3, 4), out_type=tf.int32))
case("Rank", False)(lambda b: raw.Rank(input=b.f(2, 3, 4)))
case("ExpandDims")(lambda b: raw.ExpandDims(input=b.f(2, 3), axis=b.c(-1)))
case("Squeeze")(lambda b: raw.Squeeze(input=b.f(2, 1, 3, 1), axis=[1]))
case("Squeeze_all")(lambda b: raw.Squeeze(input=b.f(2, 1, 3, 1)))
case("Pad")(lambda b: raw.Pad(input=b.f(2, 3), paddings=b.c([[1, 0], [2, 1]])))
case("PadV2")(lambda b: raw.PadV2(input=b.f(2, 3), paddings=b.c([[1, 0], [2, 1]]), constant_values=b.c(1.5)))
case("MirrorPad")(lambda b: raw.MirrorPad(input=b.f(3, 4), paddings=b.c([[1, 2], [2, 1]]), mode="REFLECT"))
case("MirrorPad_symmetric")(lambda b: raw.MirrorPad(input=b.f(3, 4), paddings=b.c([[1, 2], [2, 1]]), mode="SYMMETRIC"))
case("Tile")(lambda b: raw.Tile(input=b.f(2, 3), multiples=b.c([2, 1])))
case("Fill", False)(lambda b: raw.Fill(dims=b.c([2, 3]), value=b.f()))
case("Range", False)(lambda b: raw.Range(start=b.c(1), limit=b.c(10), delta=b.c(3)))
case("Range_float", False)(lambda b: raw.Range(start=b.c(0.5), limit=b.c(2.0), delta=b.c(0.25)))
case("LinSpace", False)(lambda b: raw.LinSpace(start=b.c(0.0), stop=b.c(1.0), num=b.c(5)))
case("BroadcastTo")(lambda b: raw.BroadcastTo(input=b.f(3, 1), shape=b.c([2, 3, 4])))
case("BroadcastArgs", False)(lambda b: raw.BroadcastArgs(s0=b.c([3, 1]), s1=b.c([2, 1, 4])))
case("ReverseV2")(lambda b: raw.ReverseV2(tensor=b.f(3, 4), axis=b.c([1])))
case("Identity")(lambda b: raw.Identity(input=b.f(3, 4)))
case("IdentityN")(lambda b: raw.IdentityN(input=[b.f(3, 4), b.i(2)]))
case("StopGradient", False)(lambda b: raw.StopGradient(input=b.f(3, 4)))
case("Snapshot", False)(lambda b: raw.Snapshot(input=b.f(3, 4)))
case("InvertPermutation", False)(lambda b: raw.InvertPermutation(x=b.c([2, 0, 3, 1])))
case("GatherV2")(lambda b: raw.GatherV2(params=b.f(5, 3), indices=b.p(np.array([[4, 0], [1, 1]], np.int32)),
                                         axis=b.c(0), batch_dims=0))
case("GatherV2_axis1")(lambda b: raw.GatherV2(params=b.f(2, 5, 3), indices=b.p(np.array([4, 0, 2], np.int64)),
                                               axis=b.c(1), batch_dims=0))
case("Gather")(lambda b: raw.Gather(params=b.f(5, 3), indices=b.p(np.array([3, 1], np.int32))))
case("GatherNd")(lambda b: raw.GatherNd(params=b.f(4, 3), indices=b.p(np.array([[1, 2], [3, 0]], np.int32))))
case("ScatterNd")(lambda b: raw.ScatterNd(indices=b.p(np.array([[1], [3], [1]], np.int32)), updates=b.f(3, 2),
                                           shape=b.c([5, 2])))
case("TensorScatterUpdate")(lambda b: raw.TensorScatterUpdate(
    tensor=b.f(5, 2), indices=b.p(np.array([[1], [3]], np.int32)), updates=b.f(2, 2)))
case("TensorScatterAdd")(lambda b: raw.TensorScatterAdd(
    tensor=b.f(5, 2), indices=b.p(np.array([[1], [3], [1]], np.int32)), updates=b.f(3, 2)))
case("UnsortedSegmentSum")(lambda b: raw.UnsortedSegmentSum(
    data=b.f(4, 2), segment_ids=b.p(np.array([0, 2, 0, 1], np.int32)), num_segments=b.c(3)))
case("OneHot", False)(lambda b: raw.OneHot(indices=b.p(np.array([0, 2, -1, 1], np.int32)), depth=b.c(3),
                                           on_value=b.c(5.0), off_value=b.c(-1.0), axis=-1))
case("Where", False)(lambda b: raw.Where(condition=b.b(3, 4)))
case("MatrixBandPart")(lambda b: raw.MatrixBandPart(input=b.f(4, 4), num_lower=b.c(1), num_upper=b.c(0)))
case("DepthToSpace")(lambda b: raw.DepthToSpace(input=b.f(1, 2, 2, 8), block_size=2))
case("SpaceToDepth")(lambda b: raw.SpaceToDepth(input=b.f(1, 4, 4, 2), block_size=2))
case("SpaceToBatchND")(lambda b: raw.SpaceToBatchND(input=b.f(1, 4, 4, 2), block_shape=b.c([2, 2]),
                                                     paddings=b.c([[0, 0], [0, 0]])))
case("BatchToSpaceND")(lambda b: raw.BatchToSpaceND(input=b.f(4, 2, 2, 2), block_shape=b.c([2, 2]),
                                                     crops=b.c([[0, 0], [0, 1]])))
case("ReverseSequence")(lambda b: raw.ReverseSequence(input=b.f(3, 4, 2), seq_lengths=b.p(np.array([4, 2, 0], np.int64)),
                                                       seq_dim=1, batch_dim=0))

# -- matrix products -----------------------------------------------------------------------------

case("MatMul")(lambda b: raw.MatMul(a=b.f(3, 4), b=b.f(5, 4), transpose_a=False, transpose_b=True))
case("BatchMatMul")(lambda b: raw.BatchMatMul(x=b.f(2, 4, 3), y=b.f(2, 4, 5), adj_x=True, adj_y=False))
case("BatchMatMulV2")(lambda b: raw.BatchMatMulV2(x=b.f(2, 1, 3, 4), y=b.f(3, 4, 5)))
case("BatchMatMulV3")(lambda b: raw.BatchMatMulV3(x=b.f(2, 3, 4), y=b.f(2, 5, 4), Tout=tf.float32, adj_y=True))
case("Einsum")(lambda b: raw.Einsum(inputs=[b.f(2, 3, 4), b.f(4, 5)], equation="abc,cd->abd"))
case("Einsum_attention")(lambda b: raw.Einsum(inputs=[b.f(2, 3, 2, 4), b.f(2, 5, 2, 4)], equation="aecd,abcd->acbe"))

# -- nn ------------------------------------------------------------------------------------------

case("Softmax")(lambda b: raw.Softmax(logits=b.f(3, 5)))
case("LogSoftmax")(lambda b: raw.LogSoftmax(logits=b.f(3, 5)))
case("Conv2D")(lambda b: raw.Conv2D(input=b.f(2, 7, 7, 3), filter=b.f(3, 3, 3, 4), strides=[1, 2, 2, 1], padding="SAME"))
case("Conv2D_valid_dilated")(lambda b: raw.Conv2D(input=b.f(1, 8, 8, 2), filter=b.f(3, 3, 2, 3), strides=[1, 1, 1, 1],
                                                   padding="VALID", dilations=[1, 2, 2, 1]))
case("Conv2D_explicit")(lambda b: raw.Conv2D(input=b.f(1, 6, 6, 2), filter=b.f(3, 3, 2, 3), strides=[1, 2, 2, 1],
                                              padding="EXPLICIT", explicit_paddings=[0, 0, 1, 2, 0, 1, 0, 0]))
case("DepthwiseConv2dNative")(lambda b: raw.DepthwiseConv2dNative(
    input=b.f(2, 7, 7, 3), filter=b.f(3, 3, 3, 2), strides=[1, 2, 2, 1], padding="SAME"))
case("DepthwiseConv2dNative_valid")(lambda b: raw.DepthwiseConv2dNative(
    input=b.f(1, 6, 6, 2), filter=b.f(3, 3, 2, 1), strides=[1, 1, 1, 1], padding="VALID"))
case("DepthwiseConv2dNative_explicit")(lambda b: raw.DepthwiseConv2dNative(
    input=b.f(1, 6, 6, 2), filter=b.f(3, 3, 2, 1), strides=[1, 2, 2, 1], padding="EXPLICIT",
    explicit_paddings=[0, 0, 1, 1, 0, 1, 0, 0]))
case("Conv2DBackpropInput", False)(lambda b: raw.Conv2DBackpropInput(
    input_sizes=b.c([2, 7, 7, 3]), filter=b.f(3, 3, 3, 4), out_backprop=b.f(2, 4, 4, 4), strides=[1, 2, 2, 1],
    padding="SAME"))
case("Conv2DBackpropFilter", False)(lambda b: raw.Conv2DBackpropFilter(
    input=b.f(2, 7, 7, 3), filter_sizes=b.c([3, 3, 3, 4]), out_backprop=b.f(2, 4, 4, 4), strides=[1, 2, 2, 1],
    padding="SAME"))
case("DepthwiseConv2dNativeBackpropInput", False)(lambda b: raw.DepthwiseConv2dNativeBackpropInput(
    input_sizes=b.c([2, 7, 7, 3]), filter=b.f(3, 3, 3, 2), out_backprop=b.f(2, 4, 4, 6), strides=[1, 2, 2, 1],
    padding="SAME"))
case("DepthwiseConv2dNativeBackpropFilter", False)(lambda b: raw.DepthwiseConv2dNativeBackpropFilter(
    input=b.f(2, 7, 7, 3), filter_sizes=b.c([3, 3, 3, 2]), out_backprop=b.f(2, 4, 4, 6), strides=[1, 2, 2, 1],
    padding="SAME"))
case("MaxPool")(lambda b: raw.MaxPool(input=b.f(2, 7, 7, 3), ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME"))
case("MaxPool_valid")(lambda b: raw.MaxPool(input=b.f(2, 6, 6, 3), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID"))
case("MaxPoolV2")(lambda b: raw.MaxPoolV2(input=b.f(2, 6, 6, 3), ksize=b.c([1, 3, 3, 1]), strides=b.c([1, 2, 2, 1]),
                                           padding="SAME"))
case("AvgPool")(lambda b: raw.AvgPool(value=b.f(2, 7, 7, 3), ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME"))
case("AvgPool_valid")(lambda b: raw.AvgPool(value=b.f(2, 6, 6, 3), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID"))


@case("MaxPoolGrad", False)
def _max_pool_grad(b: Builder) -> Any:
    x = b.f(2, 7, 7, 3)
    y = raw.MaxPool(input=x, ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME")
    return raw.MaxPoolGrad(orig_input=x, orig_output=y, grad=b.f(2, 4, 4, 3), ksize=[1, 3, 3, 1],
                           strides=[1, 2, 2, 1], padding="SAME")


case("AvgPoolGrad", False)(lambda b: raw.AvgPoolGrad(
    orig_input_shape=b.c([2, 7, 7, 3]), grad=b.f(2, 4, 4, 3), ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1],
    padding="SAME"))
for _v in ("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"):
    case(_v + "_inference")(lambda b, _v=_v: getattr(raw, _v)(
        x=b.f(2, 3, 3, 4), scale=b.f(4), offset=b.f(4), mean=b.f(4), variance=b.f(4, lo=0.5, hi=2.0),
        epsilon=0.001, is_training=False)[0])
    case(_v + "_training")(lambda b, _v=_v: getattr(raw, _v)(
        x=b.f(2, 3, 3, 4), scale=b.f(4), offset=b.f(4), mean=b.c(np.zeros(4, np.float32)),
        variance=b.c(np.ones(4, np.float32)), epsilon=0.001, is_training=True,
        exponential_avg_factor=1.0)[:3])
case("FusedBatchNormV3_training_avg")(lambda b: raw.FusedBatchNormV3(
    x=b.f(2, 3, 3, 4), scale=b.f(4), offset=b.f(4), mean=b.f(4), variance=b.f(4, lo=0.5, hi=2.0), epsilon=0.001,
    is_training=True, exponential_avg_factor=0.25)[:3])
case("LRN")(lambda b: raw.LRN(input=b.f(1, 2, 2, 6), depth_radius=2, bias=1.0, alpha=0.5, beta=0.75))
case("ResizeBilinear")(lambda b: raw.ResizeBilinear(images=b.f(1, 3, 4, 2), size=b.c([5, 7]), half_pixel_centers=True))
case("ResizeBilinear_align")(lambda b: raw.ResizeBilinear(images=b.f(1, 3, 4, 2), size=b.c([5, 7]), align_corners=True))
case("ResizeNearestNeighbor", False)(lambda b: raw.ResizeNearestNeighbor(images=b.f(1, 3, 4, 2), size=b.c([6, 8]),
                                                                         half_pixel_centers=True))

# -- linear algebra, spectral, more array and image ops ------------------------------------------


def _spd(b: Builder) -> Any:
    a = b.rng.standard_normal((3, 3))
    return b.p((a @ a.T + 3 * np.eye(3)).astype(np.float32))


case("Cholesky")(lambda b: raw.Cholesky(input=_spd(b)))
case("MatrixInverse")(lambda b: raw.MatrixInverse(input=_spd(b), adjoint=False))
case("MatrixDeterminant")(lambda b: raw.MatrixDeterminant(input=_spd(b)))
case("LogMatrixDeterminant", False)(lambda b: raw.LogMatrixDeterminant(input=_spd(b)))
case("MatrixSolve")(lambda b: raw.MatrixSolve(matrix=_spd(b), rhs=b.f(3, 2), adjoint=True))
case("MatrixTriangularSolve")(lambda b: raw.MatrixTriangularSolve(matrix=_spd(b), rhs=b.f(3, 2), lower=True))
case("SelfAdjointEigV2", False)(lambda b: raw.SelfAdjointEigV2(input=_spd(b), compute_v=False)[0])
case("Svd_values", False)(lambda b: raw.Svd(input=b.f(4, 3), compute_uv=False)[0])
case("MatrixDiag")(lambda b: raw.MatrixDiag(diagonal=b.f(2, 3)))
case("MatrixDiagPart")(lambda b: raw.MatrixDiagPart(input=b.f(2, 3, 3)))
case("MatrixSetDiag")(lambda b: raw.MatrixSetDiag(input=b.f(2, 3, 3), diagonal=b.f(2, 3)))
case("Cross")(lambda b: raw.Cross(a=b.f(4, 3), b=b.f(4, 3)))
case("RFFT", False)(lambda b: raw.RFFT(input=b.f(2, 8), fft_length=b.c([8])))
case("IRFFT", False)(lambda b: raw.IRFFT(input=raw.RFFT(input=b.f(2, 8), fft_length=b.c([8])), fft_length=b.c([8])))
case("Roll")(lambda b: raw.Roll(input=b.f(3, 4), shift=b.c([1, -2]), axis=b.c([0, 1])))
case("Bucketize", False)(lambda b: raw.Bucketize(input=b.f(3, 4), boundaries=[-1.0, 0.0, 0.5]))
case("SparseToDense", False)(lambda b: raw.SparseToDense(
    sparse_indices=b.p(np.array([[0, 1], [2, 3]], np.int64)), output_shape=b.c(np.array([3, 4], np.int64)),
    sparse_values=b.f(2), default_value=b.c(0.5)))
case("Mod", False)(lambda b: raw.Mod(x=b.f(3, 4, lo=-5.0, hi=5.0), y=b.f(4, lo=0.5, hi=2.0)))
case("Empty", False)(lambda b: raw.ZerosLike(x=raw.Empty(shape=b.c([2, 3]), dtype=tf.float32, init=True)))
case("ExtractImagePatches")(lambda b: raw.ExtractImagePatches(images=b.f(1, 5, 5, 2), ksizes=[1, 2, 2, 1],
                                                               strides=[1, 2, 2, 1], rates=[1, 1, 1, 1],
                                                               padding="SAME"))
case("ResizeArea", False)(lambda b: raw.ResizeArea(images=b.f(1, 6, 6, 2), size=b.c([4, 3])))
case("ResizeBicubic")(lambda b: raw.ResizeBicubic(images=b.f(1, 4, 4, 2), size=b.c([6, 7]), half_pixel_centers=True))
case("CropAndResize")(lambda b: raw.CropAndResize(
    image=b.f(2, 6, 6, 2), boxes=b.p(np.array([[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0]], np.float32)),
    box_ind=b.p(np.array([1, 0], np.int32)), crop_size=b.c([3, 4])))
case("RGBToHSV", False)(lambda b: raw.RGBToHSV(images=b.f(2, 3, 3, lo=0.0, hi=1.0)))
case("HSVToRGB", False)(lambda b: raw.HSVToRGB(images=b.f(2, 3, 3, lo=0.0, hi=1.0)))
case("AdjustContrastv2", False)(lambda b: raw.AdjustContrastv2(images=b.f(1, 3, 3, 2), contrast_factor=b.c(1.5)))
case("Conv3D")(lambda b: raw.Conv3D(input=b.f(1, 4, 4, 4, 2), filter=b.f(2, 2, 2, 2, 3), strides=[1, 1, 2, 1, 1],
                                    padding="SAME"))
case("MaxPool3D")(lambda b: raw.MaxPool3D(input=b.f(1, 4, 4, 4, 2), ksize=[1, 2, 2, 2, 1],
                                          strides=[1, 2, 2, 2, 1], padding="VALID"))
case("AvgPool3D")(lambda b: raw.AvgPool3D(input=b.f(1, 4, 4, 4, 2), ksize=[1, 2, 2, 2, 1],
                                          strides=[1, 2, 2, 2, 1], padding="SAME"))
case("Unique", False)(lambda b: raw.Unique(x=b.c([3, 1, 3, 2, 1]), out_idx=tf.int32))
case("StridedSliceGrad", False)(lambda b: raw.StridedSliceGrad(
    shape=b.c([4, 5]), begin=b.c([1, 0]), end=b.c([3, 5]), strides=b.c([1, 2]), dy=b.f(2, 3)))
case("DepthwiseConv2dNativeBackpropFilter_stride1", False)(lambda b: raw.DepthwiseConv2dNativeBackpropFilter(
    input=b.f(1, 5, 5, 2), filter_sizes=b.c([3, 3, 2, 1]), out_backprop=b.f(1, 5, 5, 2), strides=[1, 1, 1, 1],
    padding="SAME"))


# -- random (seeded: TF's Philox numbers) ------------------------------------------------------

case("RandomUniform", False)(lambda b: raw.RandomUniform(shape=b.c([3, 4]), dtype=tf.float32, seed=7, seed2=3))
case("RandomStandardNormal", False)(lambda b: raw.RandomStandardNormal(shape=b.c([3, 4]), dtype=tf.float32, seed=7, seed2=3))
case("TruncatedNormal", False)(lambda b: raw.TruncatedNormal(shape=b.c([3, 4]), dtype=tf.float32, seed=7, seed2=3))
case("RandomUniformInt", False)(lambda b: raw.RandomUniformInt(shape=b.c([3, 4]), minval=b.c(-3), maxval=b.c(9),
                                                               seed=7, seed2=3))
case("Multinomial", False)(lambda b: raw.Multinomial(logits=b.p(np.log(np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]],
                                                                                  np.float32))),
                                                     num_samples=b.c(6), seed=7, seed2=3, output_dtype=tf.int64))

# -- stateless random (TF's Philox numbers from a seed, or from a key and a counter) --------------


def _key_counter(b: Builder, seed: list[int], dtype: Any = np.int32, fed: bool = False) -> Any:
    s = b.p(np.array(seed, dtype)) if fed else b.c(np.array(seed, dtype))
    return raw.StatelessRandomGetKeyCounter(seed=s)


def _v2(op: str, dtype: Any, shape: list[int], seed: list[int], fed: bool = False, alg: int = 1,
        **extra: Any) -> Callable[[Builder], Any]:
    def build(b: Builder) -> Any:
        key, counter = _key_counter(b, seed, fed=fed)
        bounds = {k: b.c(v, dtype) for k, v in extra.items()}  # an IntV2's dtype is its bounds'
        return getattr(raw, op)(shape=b.c(shape), key=key, counter=counter, alg=b.c(alg),
                                **(bounds or {"dtype": dtype}))
    return build


case("StatelessRandomGetKeyCounter", False)(lambda b: list(_key_counter(b, [-5, 2**31 - 1])))
case("StatelessRandomGetKeyCounter_int64", False)(lambda b: list(_key_counter(b, [2**40 + 3, -(2**35)], np.int64)))
case("StatelessRandomGetKeyCounterAlg", False)(lambda b: list(raw.StatelessRandomGetKeyCounterAlg(
    seed=b.p(np.array([1, 2], np.int32)))))
case("StatelessRandomUniformV2", False)(_v2("StatelessRandomUniformV2", tf.float32, [3, 5], [1, 2], fed=True))
case("StatelessRandomUniformV2_auto", False)(_v2("StatelessRandomUniformV2", tf.float32, [7], [9, 8], alg=3))
case("StatelessRandomUniformV2_half", False)(_v2("StatelessRandomUniformV2", tf.float16, [3, 5], [4, 5]))
case("StatelessRandomUniformV2_double", False)(_v2("StatelessRandomUniformV2", tf.float64, [3, 5], [4, 5], fed=True))
case("StatelessRandomUniformV2_counter_carry", False)(lambda b: raw.StatelessRandomUniformV2(
    shape=b.c([9]), key=b.c(np.array([5], np.uint64)), counter=b.p(np.array([2**64 - 3, 7], np.uint64)),
    alg=b.c(1), dtype=tf.float32))
case("StatelessRandomNormalV2", False)(_v2("StatelessRandomNormalV2", tf.float32, [3, 5], [1, 2], fed=True))
case("StatelessRandomNormalV2_bfloat16", False)(lambda b: raw.Cast(  # float32: .npz has no bfloat16
    x=_v2("StatelessRandomNormalV2", tf.bfloat16, [6], [3, 1])(b), DstT=tf.float32))
case("StatelessTruncatedNormalV2", False)(_v2("StatelessTruncatedNormalV2", tf.float32, [4, 25], [7, 11], fed=True))
case("StatelessRandomUniformIntV2", False)(_v2("StatelessRandomUniformIntV2", tf.int32, [3, 5], [1, 2], fed=True,
                                               minval=-7, maxval=100))
case("StatelessRandomUniformIntV2_int64", False)(_v2("StatelessRandomUniformIntV2", tf.int64, [3, 5], [1, 2],
                                                     minval=-(2**40), maxval=2**41 + 5))
case("StatelessRandomUniformFullIntV2", False)(_v2("StatelessRandomUniformFullIntV2", tf.int32, [3, 5], [6, 2]))
case("StatelessRandomUniformFullIntV2_uint64", False)(_v2("StatelessRandomUniformFullIntV2", tf.uint64, [5],
                                                          [6, 2]))
case("StatelessRandomUniform", False)(lambda b: raw.StatelessRandomUniform(
    shape=b.c([3, 5]), seed=b.p(np.array([3, -4], np.int64)), dtype=tf.float32))
case("StatelessRandomNormal", False)(lambda b: raw.StatelessRandomNormal(
    shape=b.c([3, 5]), seed=b.c([3, 4]), dtype=tf.float32))
case("StatelessTruncatedNormal", False)(lambda b: raw.StatelessTruncatedNormal(
    shape=b.c([2, 9]), seed=b.p(np.array([3, 4], np.int32)), dtype=tf.float32))
case("StatelessRandomUniformInt", False)(lambda b: raw.StatelessRandomUniformInt(
    shape=b.c([3, 5]), seed=b.c([3, 4]), minval=b.c(-3), maxval=b.c(4)))
case("StatelessRandomUniformFullInt", False)(lambda b: raw.StatelessRandomUniformFullInt(
    shape=b.c([4]), seed=b.c([3, 4]), dtype=tf.uint32))
# what tf.random.stateless_uniform and a Keras initializer write (GetKeyCounter, scale and shift)
case("stateless_uniform_api", False)(lambda b: tf.random.stateless_uniform(
    [4, 3], seed=b.p(np.array([10, 20], np.int32)), minval=-0.5, maxval=2.0))

# -- optimizers (one step on variables) ---------------------------------------------------------

def _opt(name: str, resource: bool) -> Callable[[Builder], Any]:
    def build(b: Builder) -> Any:
        b.grad = False
        v = b.var(b.rng.standard_normal((3,)), resource)
        g = b.f(3)
        lr = b.c(0.1)
        fn = getattr(gen_training_ops, ("resource_" if resource else "") + name)
        h = v.handle if resource else v._ref()  # noqa: SLF001 - TF's own ref tensor
        if name == "apply_gradient_descent":
            return fn(h, lr, g)
        if name == "apply_momentum":
            acc = b.var(b.rng.random(3), resource)
            return fn(h, acc.handle if resource else acc._ref(), lr, g, b.c(0.9), use_nesterov=True)
        if name == "apply_adagrad":
            acc = b.var(b.rng.random(3) + 0.1, resource)
            return fn(h, acc.handle if resource else acc._ref(), lr, g)
        if name == "apply_adam":
            m = b.var(b.rng.random(3), resource)
            vv = b.var(b.rng.random(3), resource)
            return fn(h, m.handle if resource else m._ref(), vv.handle if resource else vv._ref(),
                      b.c(0.9), b.c(0.99), lr, b.c(0.9), b.c(0.999), b.c(1e-7), g)
        if name == "apply_rms_prop":
            ms = b.var(b.rng.random(3), resource)
            mom = b.var(b.rng.random(3), resource)
            return fn(h, ms.handle if resource else ms._ref(), mom.handle if resource else mom._ref(),
                      lr, b.c(0.9), b.c(0.5), b.c(1e-7), g)
        raise AssertionError(name)
    return build


for _o in ("apply_gradient_descent", "apply_momentum", "apply_adagrad", "apply_adam", "apply_rms_prop"):
    _tf_name = "".join(p.capitalize() for p in _o.split("_")).replace("RmsProp", "RMSProp")
    CASES[_tf_name] = _opt(_o, False)
    CASES["Resource" + _tf_name] = _opt(_o, True)




@case("AssignAddVariableOp", False)
def _assign_add_variable(b: Builder) -> Any:
    v = b.var(b.rng.standard_normal((3,)), True)
    from tensorflow.python.ops import gen_resource_variable_ops as rv

    return rv.assign_add_variable_op(v.handle, b.f(3))


@case("AssignSubVariableOp", False)
def _assign_sub_variable(b: Builder) -> Any:
    v = b.var(b.rng.standard_normal((3,)), True)
    from tensorflow.python.ops import gen_resource_variable_ops as rv

    return rv.assign_sub_variable_op(v.handle, b.f(3))


@case("ResourceGather", False)
def _resource_gather(b: Builder) -> Any:
    v = b.var(b.rng.standard_normal((5, 2)), True)
    from tensorflow.python.ops import gen_resource_variable_ops as rv

    return rv.resource_gather(v.handle, b.p(np.array([[4, 0], [2, 2]], np.int32)), dtype=tf.float32)


case("FakeQuantWithMinMaxArgs")(lambda b: raw.FakeQuantWithMinMaxArgs(inputs=b.f(3, 4, lo=-8.0, hi=8.0), min=-5.5,
                                                                      max=6.3, num_bits=8))
case("FakeQuantWithMinMaxArgs_narrow")(lambda b: raw.FakeQuantWithMinMaxArgs(inputs=b.f(3, 4, lo=-2.0, hi=2.0), min=-1.0,
                                                                             max=1.7, num_bits=4, narrow_range=True))
case("FakeQuantWithMinMaxVars", False)(lambda b: raw.FakeQuantWithMinMaxVars(inputs=b.f(3, 4, lo=-3.0, hi=3.0),
                                                                              min=b.c(-2.2), max=b.c(1.9)))


def _boxes(b: Builder) -> Any:
    lo = b.rng.uniform(0, 0.6, (8, 2))
    return b.p(np.concatenate([lo, lo + b.rng.uniform(0.2, 0.4, (8, 2))], 1).astype(np.float32))


case("NonMaxSuppressionV4", False)(lambda b: raw.NonMaxSuppressionV4(
    boxes=_boxes(b), scores=b.f(8, lo=0.0, hi=1.0), max_output_size=b.c(5), iou_threshold=b.c(0.3),
    score_threshold=b.c(0.1), pad_to_max_output_size=True))
case("NonMaxSuppressionV5", False)(lambda b: raw.NonMaxSuppressionV5(
    boxes=_boxes(b), scores=b.f(8, lo=0.0, hi=1.0), max_output_size=b.c(6), iou_threshold=b.c(0.4),
    score_threshold=b.c(0.0), soft_nms_sigma=b.c(0.0), pad_to_max_output_size=True))


# -- recording ------------------------------------------------------------------------------------


def _u8(b: bytes) -> np.ndarray:
    return np.frombuffer(b, np.uint8)


def record(name: str) -> None:
    g = tf.Graph()
    with g.as_default():
        b = Builder(sum(map(ord, name)))
        outs = CASES[name](b)
        if outs is None:
            outs = []
        elif not isinstance(outs, list | tuple):
            outs = [outs]
        outs = [o for o in outs if o is not None]
        tensors = [o for o in outs if isinstance(o, tf.Tensor)]
        ops = [o for o in outs if isinstance(o, tf.Operation)]
        floats = [ph for ph, v in b.feeds if v.dtype.kind == "f"]
        grads: list[Any] = []
        if b.grad and floats:
            ys = [t for t in tensors if t.dtype.is_floating]
            cot = [tf.constant(b.rng.standard_normal(t.shape.as_list()).astype(t.dtype.as_numpy_dtype),
                               name=f"cotangent{j}") for j, t in enumerate(ys)]
            gs = tf.gradients(ys, floats, grad_ys=cot)
            grads = [(ph, tf.convert_to_tensor(gr)) for ph, gr in zip(floats, gs, strict=True) if gr is not None]
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            feed = {ph: v for ph, v in b.feeds}
            values = s.run(tensors, feed)
            gvals = s.run([gr for _, gr in grads], feed)
            if ops:
                s.run(ops, feed)
            after = s.run([v for v, _ in b.variables])
        gd = g.as_graph_def()
    meta = {
        "feeds": [ph.name for ph, _ in b.feeds],
        "fetches": [t.name for t in tensors],
        "targets": [o.name for o in ops],
        "grads": [[ph.name, gr.name] for ph, gr in grads],
        "variables": [v.op.name for v, _ in b.variables],
    }
    arrays: dict[str, np.ndarray] = {"graph_def": _u8(gd.SerializeToString()),
                                     "meta": _u8(json.dumps(meta).encode())}
    for j, (_, v) in enumerate(b.feeds):
        arrays[f"feed:{j}"] = v
    for j, v in enumerate(values):
        arrays[f"out:{j}"] = np.asarray(v)
    for j, v in enumerate(gvals):
        arrays[f"grad:{j}"] = np.asarray(v)
    for j, ((_, init), v) in enumerate(zip(b.variables, after, strict=True)):
        arrays[f"var_init:{j}"] = init
        arrays[f"var_after:{j}"] = np.asarray(v)
    np.savez_compressed(OUT / f"{name}.npz", **arrays)


def main(names: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    failed = []
    for name in names or sorted(CASES):
        try:
            record(name)
        except Exception as e:  # noqa: BLE001 - report every case TF refuses, record the rest
            failed.append(name)
            print(f"{name}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", file=sys.stderr)
    print(f"recorded {len(names or CASES) - len(failed)} cases into {OUT}; failed: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
