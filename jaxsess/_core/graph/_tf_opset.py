"""TF's op set as TF's ``OpDef``\\ s define it: the table import reads.

Two halves, written once each:

* :func:`tf_op_def` — TF's own ``OpDef`` of an op type (inputs, outputs,
  attributes with their defaults), read from ``tf_op_defs.pb``: TF's
  ``OpList`` recorded from real TensorFlow 2.21 by
  ``tests/tf_oracle/record_op_defs.py`` (1,910 ops; descriptions stripped).
  jaxsess never imports TensorFlow to read it.
* :data:`TF_LOWERINGS` — one lowering per TF op type, registered from above
  (``jaxsess._tf1.tf_opset``) with :func:`register_tf_lowering`. A lowering
  takes TF's inputs exactly as the ``OpDef`` lists them (shapes, axes,
  perms, paddings included, as tensors) and TF's attributes with TF's
  defaults filled in, and returns TF's outputs, flattened in ``OpDef``
  order (an output arg with ``number_attr``/``type_list_attr`` gives
  several).

Inputs listed in ``static_inputs`` are ones TF's kernels need as host
values to fix output shapes (``Reshape``'s shape, ``Transpose``'s perm,
``Pad``'s paddings, ``Range``'s bounds): import resolves them by constant
folding, as TF's Grappler would, and the lowering receives them as
``np.ndarray``; when one truly depends on fed data, import raises an error
naming the node.
"""

from __future__ import annotations

import functools
import pathlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from tensorboard.compat.proto import op_def_pb2

__all__ = ["TFLowering", "TF_LOWERINGS", "register_tf_lowering", "tf_op_def", "tf_op_names"]

_OP_DEFS_FILE = pathlib.Path(__file__).with_name("tf_op_defs.pb")


@functools.cache
def _op_defs() -> dict[str, op_def_pb2.OpDef]:
    ops = op_def_pb2.OpList.FromString(_OP_DEFS_FILE.read_bytes())
    return {op.name: op for op in ops.op}


def tf_op_def(op_type: str) -> op_def_pb2.OpDef | None:
    """TensorFlow 2.21's ``OpDef`` of ``op_type`` (``None``: not a TF op)."""
    return _op_defs().get(op_type)


def tf_op_names() -> frozenset[str]:
    """Every op type in TensorFlow 2.21's op registry."""
    return frozenset(_op_defs())


Dims: TypeAlias = "tuple[int | None, ...]"
SpecFn: TypeAlias = Callable[[Sequence["Dims | None"], Mapping[str, Any], Mapping[int, Any]], "Sequence[Dims] | None"]
"""A TF op's output shapes from its input shapes, attributes and static input values (``TFLowering.spec``)."""


@dataclass(frozen=True)
class TFLowering:
    """How one TF op type runs in a plan.

    Attributes:
      fn: ``fn(ctx, inputs, attrs) -> outputs``: ``inputs`` are the node's
        data inputs in ``OpDef`` order (traced JAX values; ``np.ndarray``
        for ``static_inputs``; variable handles for ref/resource inputs of
        stateful ops), ``attrs`` TF's attributes by name with defaults
        filled in (``int``, ``float``, ``bool``, ``str``, ``DType``,
        ``TensorShape``, ``np.ndarray``, lists of those), ``ctx`` the
        node's context (its name and op type for errors, randomness and
        variable state for stateful ops). Returns the outputs, flattened
        in ``OpDef`` order.
      static_inputs: indices of the inputs that must be host values.
      stateful: reads or writes state (variables, random generator,
        checkpoint files): never constant-folded, never pruned as dead
        when it is a target.
      spec: ``spec(shapes, attrs, statics) -> output shapes | None``: the
        outputs' shapes (tuples, ``None`` for an unknown dimension) from
        the inputs' (tuples; ``None`` for an unknown rank), TF's attributes
        and the static inputs' host values, without tracing ``fn`` (import's
        shape inference traces each new (op, shapes) otherwise, 1-50 ms a
        node); ``None`` from it, or an exception: trace ``fn`` instead (so
        ``fn``'s own errors are the ones raised). Where it answers it must
        give what tracing ``fn`` gives (``tests/test_tf_shape_specs.py``).
    """

    fn: Callable[[Any, Sequence[Any], Mapping[str, Any]], Sequence[Any]]
    static_inputs: tuple[int, ...] = ()
    stateful: bool = False
    spec: SpecFn | None = None


TF_LOWERINGS: dict[str, TFLowering] = {}
"""TF op type -> its lowering; filled by ``jaxsess._tf1.tf_opset`` when the TF1 surface loads."""


def register_tf_lowering(
    *op_types: str, static_inputs: tuple[int, ...] = (), stateful: bool = False, spec: SpecFn | None = None
) -> Callable[[Callable[[Any, Sequence[Any], Mapping[str, Any]], Sequence[Any]]],
              Callable[[Any, Sequence[Any], Mapping[str, Any]], Sequence[Any]]]:
    """Registers ``fn`` as the lowering of each of ``op_types`` (a decorator), with its
    shape function ``spec`` (see :class:`TFLowering`).

    Raises:
      ValueError: an op type that is not in TF's op registry, or one
        registered twice.
    """
    def deco(fn: Callable[[Any, Sequence[Any], Mapping[str, Any]], Sequence[Any]]
             ) -> Callable[[Any, Sequence[Any], Mapping[str, Any]], Sequence[Any]]:
        for t in op_types:
            if tf_op_def(t) is None:
                raise ValueError(f"{t!r} is not an op type of TensorFlow's op registry")
            if t in TF_LOWERINGS:
                raise ValueError(f"a lowering for TF op type {t!r} is already registered")
            TF_LOWERINGS[t] = TFLowering(fn, tuple(static_inputs), stateful, spec)
        return fn
    return deco
