"""How jaxsess's own ops that TF has no one op for are written in TF's op set,
so real TensorFlow imports jaxsess's ``.meta`` and ``GraphDef`` files.

TF's Python builds ``tf.random.uniform(shape, minval, maxval)`` as
``RandomUniform(shape) * (maxval - minval) + minval`` (``random_uniform/RandomUniform``,
``random_uniform/sub``, ``random_uniform/mul``, ``random_uniform``), and the
normal samplers as ``RandomStandardNormal(shape) * stddev + mean``; jaxsess's
ops take ``minval``/``maxval`` (``mean``/``stddev``) as inputs. They are
written as TF's nodes, with TF's attributes (``T`` the shape's type,
``dtype``, ``seed``/``seed2``: 0 and 0 for an op without a seed, as TF);
jaxsess reads them back as its own op (see
``jaxsess._core.graph._graph_def.TF_EXPORT_EXPANSIONS``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._graph_def import TF_EXPORT_EXPANSIONS

__all__: list[str] = []

Parts = list[tuple[str, str, list[str], dict[str, Any]]]


def _name(t: Any) -> str:
    return t.op.name if t.value_index == 0 else f"{t.op.name}:{t.value_index}"


def _static_shape(op: Operation) -> np.ndarray | None:
    shape = op.attrs.get("shape")
    if shape is None or not all(isinstance(d, int | np.integer) for d in shape):
        return None
    return np.asarray(list(shape), np.int32)


def _seed_attrs(op: Operation) -> dict[str, Any]:
    if not op.attrs.get("seeded", False):
        return {"seed": 0, "seed2": 0}
    return {"seed": int(op.attrs["seed"]), "seed2": int(op.attrs["seed2"])}


def _const(value: np.ndarray) -> tuple[str, str, list[str], dict[str, Any]]:
    return ("shape", "Const", [], {"dtype": _dtypes.as_dtype(value.dtype), "value": value})


def _uniform(op: Operation) -> Parts | None:
    shape = _static_shape(op)
    if shape is None or len(op.inputs) != 2:
        return None
    dt = _dtypes.as_dtype(op.attrs["dtype"])
    lo, hi = (_name(t) for t in op.inputs)
    n = op.name
    if dt.is_integer:
        return [_const(shape), ("", "RandomUniformInt", [f"{n}/shape", lo, hi],
                                {"T": _dtypes.int32, "Tout": dt, **_seed_attrs(op)})]
    return [
        _const(shape),
        ("RandomUniform", "RandomUniform", [f"{n}/shape"], {"T": _dtypes.int32, "dtype": dt, **_seed_attrs(op)}),
        ("sub", "Sub", [hi, lo], {"T": dt}),
        ("mul", "Mul", [f"{n}/RandomUniform", f"{n}/sub"], {"T": dt}),
        ("", "AddV2", [f"{n}/mul", lo], {"T": dt}),
    ]


def _normal(tf_op: str) -> Any:
    def expand(op: Operation) -> Parts | None:
        shape = _static_shape(op)
        if shape is None or len(op.inputs) != 2:
            return None
        dt = _dtypes.as_dtype(op.attrs["dtype"])
        mean, stddev = (_name(t) for t in op.inputs)
        n = op.name
        return [
            _const(shape),
            (tf_op, tf_op, [f"{n}/shape"], {"T": _dtypes.int32, "dtype": dt, **_seed_attrs(op)}),
            ("mul", "Mul", [f"{n}/{tf_op}", stddev], {"T": dt}),
            ("", "AddV2", [f"{n}/mul", mean], {"T": dt}),
        ]
    return expand


TF_EXPORT_EXPANSIONS["RandomUniform"] = _uniform
TF_EXPORT_EXPANSIONS["RandomStandardNormal"] = _normal("RandomStandardNormal")
TF_EXPORT_EXPANSIONS["TruncatedNormal"] = _normal("TruncatedNormal")
